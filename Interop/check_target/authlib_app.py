"""Sign in with Apple in Flask written as Authlib's documentation shows for an OpenID Connect provider
(`authlib.integrations.flask_client.OAuth`, `server_metadata_url`, `authorize_redirect`,
`authorize_access_token`, the user from `token["userinfo"]`), pointed at our server: an app `siwa check`
did not write (issue 37). Apple's own needs are the only additions: `response_mode=form_post` (Apple
requires it with scopes), an ES256 client secret, `client_secret_post`, and the error callback.

    GET  /login      oauth.apple.authorize_redirect (state and nonce kept in the Flask session by Authlib)
    POST /callback   oauth.apple.authorize_access_token: state, code exchange, id_token checked by Authlib
    GET  /me         200 {"sub", "email"} when signed in, 401 otherwise (the check's probe)

FLAW_TRUST_USER_EMAIL=1 plants the one flaw: the e-mail is taken from the unsigned `user` form field,
as snippets that read the first sign-in's name from it do. Any other FLAW_* variable stops the app.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from pathlib import Path
from typing import Any

from authlib.integrations.base_client import OAuthError
from authlib.integrations.flask_client import OAuth
from authlib.jose import jwt
from authlib.jose.errors import JoseError
from flask import Flask, jsonify, redirect, request, session, url_for

FLAWS = frozenset({"FLAW_TRUST_USER_EMAIL"})
unknown = sorted(name for name in os.environ if name.startswith("FLAW_") and name not in FLAWS)
if unknown:
    raise SystemExit(f"authlib_app: unknown flaw variables {unknown}; known: {sorted(FLAWS)}")
TRUSTS_USER_EMAIL = os.environ.get("FLAW_TRUST_USER_EMAIL") == "1"
SERVER = os.environ["SIWA_SERVER"].rstrip("/")
CLIENT_ID = os.environ["CLIENT_ID"]


def client_secret() -> str:
    """Apple's client secret: an ES256 JWT signed with the team's key (Authlib's own JOSE)."""
    now = int(time.time())
    header = {"alg": "ES256", "kid": os.environ["KEY_ID"]}
    claims = {"iss": os.environ["TEAM_ID"], "iat": now, "exp": now + 3600, "aud": "https://appleid.apple.com", "sub": CLIENT_ID}
    return jwt.encode(header, claims, Path(os.environ["KEY_FILE"]).read_text(encoding="utf-8")).decode("ascii")


app = Flask(__name__)
app.secret_key = secrets.token_bytes(32)
oauth = OAuth(app)
oauth.register(
    name="apple",
    client_id=CLIENT_ID,
    client_secret=client_secret(),
    server_metadata_url=f"{SERVER}/.well-known/openid-configuration",
    client_kwargs={"scope": "openid email name", "token_endpoint_auth_method": "client_secret_post"},
)


@app.get("/login")
def login() -> Any:
    redirect_uri = url_for("callback", _external=True)
    return oauth.apple.authorize_redirect(redirect_uri, response_mode="form_post")


@app.post("/callback")
def callback() -> Any:
    if request.form.get("error"):
        return jsonify(error=f"sign-in did not finish: {request.form['error']}"), 400
    try:
        token = oauth.apple.authorize_access_token()
    except (OAuthError, JoseError) as error:
        return jsonify(error=f"sign-in refused: {error}"), 400
    user = token["userinfo"]
    email = user.get("email")
    if TRUSTS_USER_EMAIL and request.form.get("user"):
        email = json.loads(request.form["user"]).get("email", email)
    session["user"] = {"sub": user["sub"], "email": email}
    return redirect("/me")


@app.get("/me")
def me() -> Any:
    user = session.get("user")
    if user is None:
        return jsonify(error="not signed in"), 401
    return jsonify(user)


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(os.environ.get("PORT", "5000")), threaded=True)
