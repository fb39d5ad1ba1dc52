"""Signs a user in through the Flask app's own routes against siwa_server (pytest plugin)."""

import urllib.parse

import pytest

from app import create_app

REDIRECT_URI = "http://127.0.0.1:5000/callback"


@pytest.fixture
def client(siwa):
    siwa.add_return_url(REDIRECT_URI)
    app = create_app({
        "ISSUER": siwa.issuer, "AUTHORIZE_URL": siwa.authorize_url, "TOKEN_URL": siwa.token_url, "KEYS_URL": siwa.keys_url,
        "CLIENT_ID": siwa.services_id, "TEAM_ID": siwa.team_id, "KEY_ID": siwa.key_id, "PRIVATE_KEY": siwa.private_key_pem,
        "REDIRECT_URI": REDIRECT_URI,
    })
    return app.test_client()


def approve(siwa, login_location, **choices):
    """What the browser does at the authorization page: the user approves; Apple posts back."""
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(login_location).query))
    return siwa.authorize(
        client_id=query["client_id"], redirect_uri=query["redirect_uri"], scope=query["scope"], state=query["state"],
        nonce=query["nonce"], response_type=query["response_type"], response_mode=query["response_mode"], **choices)


def test_sign_in_and_verify_the_id_token(client, siwa):
    login = client.get("/login")
    assert login.status_code == 302 and login.location.startswith(siwa.authorize_url)
    answer = approve(siwa, login.location)
    signed_in = client.post("/callback", data=answer.params)
    assert signed_in.status_code == 200, signed_in.text
    maria = siwa.users[0]
    assert signed_in.json == {"sub": answer.claims["sub"], "email": maria["email"], "name": {"firstName": maria["first_name"], "lastName": maria["last_name"]}}
    assert client.get("/me").json["sub"] == answer.claims["sub"]


def test_a_forged_state_is_refused(client, siwa):
    answer = approve(siwa, client.get("/login").location)
    assert client.post("/callback", data={**answer.params, "state": "forged"}).status_code == 400


def test_hide_my_email_gives_a_relay_address(client, siwa):
    answer = approve(siwa, client.get("/login").location, hide_email=True)
    signed_in = client.post("/callback", data=answer.params)
    assert signed_in.status_code == 200, signed_in.text
    assert signed_in.json["email"].endswith("@privaterelay.appleid.com")


def test_reset_forgets_the_consent(client, siwa):
    first = approve(siwa, client.get("/login").location)
    assert first.user is not None  # the name comes on the first authorization only
    second = approve(siwa, client.get("/login").location)
    assert second.user is None
    siwa.reset()
    siwa.add_return_url("http://127.0.0.1:5000/callback")
    again = approve(siwa, client.get("/login").location)
    assert again.user is not None
