"""Sign in with Apple in Django with django-allauth's Apple provider (PyPI), configured as allauth's
documentation shows (`SOCIALACCOUNT_PROVIDERS["apple"]`, the Services ID as `client_id`, the Key ID as
`secret`, the Team ID as `key`, the .p8 as `certificate_key`), with allauth's own `OAUTH_PKCE_ENABLED`
on: an app `siwa check` did not write (issue 37). Only Apple's endpoints are re-pointed at our server
(authorize, token, keys, and the issuer its tokens carry); nothing of allauth's flow is replaced.

    GET  /accounts/apple/login/                     allauth's confirmation page: a CSRF-checked POST form
    POST /accounts/apple/login/callback/            allauth's form_post callback (Return URL)
    GET  /accounts/apple/login/callback/finish/     allauth: state, PKCE code exchange, id_token verified
    GET  /me                                        200 {"user", "email"} when signed in, 401 otherwise

allauth sends no nonce: PKCE is what binds its code to the browser (RFC 9700 §2.1.1).
FLAW_NO_PKCE=1 plants the one flaw: `OAUTH_PKCE_ENABLED` off, allauth's default for Apple, so an
attacker's code injected with the victim's state signs the victim in as the attacker. Any other FLAW_*
variable stops the app.
"""

from __future__ import annotations

import os
import secrets
import signal
import sys
import tempfile
from pathlib import Path
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIServer, make_server

import django
from django.conf import settings

FLAWS = frozenset({"FLAW_NO_PKCE"})
unknown = sorted(name for name in os.environ if name.startswith("FLAW_") and name not in FLAWS)
if unknown:
    raise SystemExit(f"allauth_app: unknown flaw variables {unknown}; known: {sorted(FLAWS)}")
SERVER = os.environ["SIWA_SERVER"].rstrip("/")
ISSUER = os.environ.get("ISSUER", SERVER).rstrip("/")
DATABASE = tempfile.NamedTemporaryFile(prefix="allauth-app-", suffix=".sqlite3", delete=False)  # noqa: SIM115

settings.configure(
    DEBUG=False,
    ALLOWED_HOSTS=["127.0.0.1"],
    SECRET_KEY=secrets.token_hex(32),
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=[
        "django.contrib.auth",
        "django.contrib.contenttypes",
        "django.contrib.sessions",
        "django.contrib.messages",
        "allauth",
        "allauth.account",
        "allauth.socialaccount",
        "allauth.socialaccount.providers.apple",
    ],
    MIDDLEWARE=[
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.common.CommonMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
        "django.contrib.messages.middleware.MessageMiddleware",
        "allauth.account.middleware.AccountMiddleware",
    ],
    TEMPLATES=[
        {
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "APP_DIRS": True,
            "OPTIONS": {
                "context_processors": [
                    "django.template.context_processors.request",
                    "django.contrib.auth.context_processors.auth",
                    "django.contrib.messages.context_processors.messages",
                ]
            },
        }
    ],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": DATABASE.name}},
    AUTHENTICATION_BACKENDS=["django.contrib.auth.backends.ModelBackend", "allauth.account.auth_backends.AuthenticationBackend"],
    SOCIALACCOUNT_PROVIDERS={
        "apple": {
            "OAUTH_PKCE_ENABLED": os.environ.get("FLAW_NO_PKCE") != "1",
            "APPS": [
                {
                    "client_id": os.environ["CLIENT_ID"],
                    "secret": os.environ["KEY_ID"],
                    "key": os.environ["TEAM_ID"],
                    "settings": {"certificate_key": Path(os.environ["KEY_FILE"]).read_text(encoding="utf-8")},
                }
            ],
        }
    },
    LOGIN_REDIRECT_URL="/me",
    ACCOUNT_EMAIL_VERIFICATION="none",
    USE_TZ=True,
    DEFAULT_AUTO_FIELD="django.db.models.AutoField",
)
django.setup()

from allauth.socialaccount.internal import jwtkit  # noqa: E402  (after django.setup())
from allauth.socialaccount.providers.apple.views import AppleOAuth2Adapter  # noqa: E402
from django.http import HttpRequest, JsonResponse  # noqa: E402
from django.urls import include, path  # noqa: E402

# Only the endpoints re-pointed, and the issuer our server's tokens carry (allauth hard-codes Apple's).
AppleOAuth2Adapter.access_token_url = f"{SERVER}/auth/token"
AppleOAuth2Adapter.authorize_url = f"{SERVER}/auth/authorize"
AppleOAuth2Adapter.public_key_url = f"{SERVER}/auth/keys"


def verified_identity_data(cls: type[AppleOAuth2Adapter], provider: object, id_token: str) -> dict:
    """allauth's own verification, with our issuer in place of https://appleid.apple.com."""
    return jwtkit.verify_and_decode(
        credential=id_token, keys_url=cls.public_key_url, issuer=ISSUER, audience=provider.get_auds(), lookup_kid=jwtkit.lookup_kid_jwk
    )


AppleOAuth2Adapter.get_verified_identity_data = classmethod(verified_identity_data)


def me(request: HttpRequest) -> JsonResponse:
    """The check's probe."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": "not signed in"}, status=401)
    return JsonResponse({"user": request.user.username, "email": request.user.email})


urlpatterns = [path("accounts/", include("allauth.urls")), path("me", me)]


class ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


if __name__ == "__main__":
    from django.core.management import call_command
    from django.core.wsgi import get_wsgi_application

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # the harness's terminate: remove the database on the way out
    call_command("migrate", verbosity=0)
    try:
        make_server("127.0.0.1", int(os.environ.get("PORT", "5000")), get_wsgi_application(), server_class=ThreadingServer).serve_forever()
    finally:
        os.unlink(DATABASE.name)
