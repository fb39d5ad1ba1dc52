"""Signs a user in through django-allauth's Apple provider (its own login, callback and finish
views), with the provider's endpoints re-pointed at siwa_server."""

import urllib.parse

import pytest
from allauth.socialaccount.providers.apple.views import AppleOAuth2Adapter
from django.test import Client, override_settings

HOST = "127.0.0.1:8000"
REDIRECT_URI = f"http://{HOST}/accounts/apple/login/callback/"


@pytest.fixture
def apple(siwa, monkeypatch):
    """allauth's Apple provider, talking to the siwa server instead of appleid.apple.com."""
    monkeypatch.setattr(AppleOAuth2Adapter, "authorize_url", siwa.authorize_url)
    monkeypatch.setattr(AppleOAuth2Adapter, "access_token_url", siwa.token_url)
    monkeypatch.setattr(AppleOAuth2Adapter, "public_key_url", siwa.keys_url)
    siwa.add_return_url(REDIRECT_URI)
    app = {"client_id": siwa.services_id, "secret": siwa.key_id, "key": siwa.team_id, "settings": {"certificate_key": siwa.private_key_pem}}
    with override_settings(SOCIALACCOUNT_PROVIDERS={"apple": {"APPS": [app], "SCOPE": ["name", "email"]}}):
        yield siwa


def test_sign_in_with_allauth(apple):
    browser = Client(HTTP_HOST=HOST)
    login = browser.post("/accounts/apple/login/")
    assert login.status_code == 302, login.content
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(login["Location"]).query))
    assert login["Location"].startswith(apple.authorize_url) and query["redirect_uri"] == REDIRECT_URI
    answer = apple.authorize(
        client_id=query["client_id"], redirect_uri=query["redirect_uri"], scope=query["scope"].replace("+", " "),
        state=query["state"], response_type=query["response_type"], response_mode=query.get("response_mode"),
        nonce=query.get("nonce"))
    # Apple's form_post lands on allauth's callback, which hands over to its finish view.
    posted = browser.post("/accounts/apple/login/callback/", data=answer.params)
    assert posted.status_code == 302, posted.content
    finished = browser.get(posted["Location"])
    assert finished.status_code == 302 and finished["Location"] == "/me/", finished.content
    me = browser.get("/me/").json()
    maria = apple.users[0]
    # The sub allauth verified in the id_token is the one the server gave Maria for the demo team.
    account = next(user for user in apple.admin.list_users() if user["apple_id"] == maria["apple_id"])
    sub = next(subject["sub"] for subject in account["subjects"] if subject["team_id"] == apple.team_id)
    assert me == {"sub": sub, "email": maria["email"], "first_name": maria["first_name"]}
