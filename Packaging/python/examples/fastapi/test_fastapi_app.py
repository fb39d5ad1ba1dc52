"""Signs a user in through the FastAPI + Authlib app's own routes against siwa_server."""

import urllib.parse

import jwt
import pytest
from fastapi.testclient import TestClient

from siwa_server import AdminError

from app import create_app

REDIRECT_URI = "http://127.0.0.1:8000/callback"


@pytest.fixture
def client(siwa):
    siwa.add_return_url(REDIRECT_URI)
    app = create_app(
        metadata_url=siwa.url + "/.well-known/openid-configuration", client_id=siwa.services_id,
        client_secret=lambda: siwa.client_secret(lifetime="5m"), redirect_uri=REDIRECT_URI)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        yield client


def test_sign_in_and_verify_the_id_token(client, siwa):
    login = client.get("/login", follow_redirects=False)
    assert login.status_code == 302
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(login.headers["location"]).query))
    assert query["response_mode"] == "form_post"
    answer = siwa.authorize(
        client_id=query["client_id"], redirect_uri=query["redirect_uri"], scope=query["scope"], state=query["state"],
        nonce=query["nonce"], response_type=query["response_type"], response_mode=query["response_mode"])
    signed_in = client.post("/callback", data=answer.params)
    assert signed_in.status_code == 200, signed_in.text
    maria = siwa.users[0]
    assert signed_in.json()["email"] == maria["email"]
    assert signed_in.json()["name"] == {"firstName": maria["first_name"], "lastName": maria["last_name"]}
    # The same sub as an id_token the server signs for this user, checked here with PyJWT and /auth/keys.
    direct = siwa.authorize()
    keys = jwt.PyJWKClient(siwa.keys_url)
    claims = jwt.decode(direct.id_token, keys.get_signing_key_from_jwt(direct.id_token).key, algorithms=["RS256"],
                        audience=siwa.services_id, issuer=siwa.issuer)
    assert signed_in.json()["sub"] == claims["sub"]
    assert client.get("/me").json()["sub"] == claims["sub"]


def test_a_deleted_apple_id_cannot_sign_in(client, siwa):
    robin = siwa.users[1]["apple_id"]
    siwa.delete_apple_id(robin)
    with pytest.raises(AdminError) as refused:
        siwa.authorize(robin)
    assert refused.value.status == 404
