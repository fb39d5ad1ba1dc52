"""A Flask app with Sign in with Apple: /login sends the browser to the authorization page, Apple
posts the answer to /callback (response_mode=form_post), which exchanges the code for tokens and
verifies the id_token with PyJWT against the server's /auth/keys.

Point it at Apple with the defaults of ``apple_endpoints()``; tests point it at ``siwa serve``.
"""

from __future__ import annotations

import json
import secrets
import time
import urllib.parse
import urllib.request

import jwt
from flask import Flask, abort, jsonify, redirect, request, session


def apple_endpoints(base: str = "https://appleid.apple.com") -> dict:
    return {"ISSUER": base, "AUTHORIZE_URL": base + "/auth/authorize", "TOKEN_URL": base + "/auth/token", "KEYS_URL": base + "/auth/keys"}


def create_app(config: dict) -> Flask:
    app = Flask(__name__)
    app.config.update(SECRET_KEY=secrets.token_hex(16), **apple_endpoints())
    app.config.update(config)
    jwks = jwt.PyJWKClient(app.config["KEYS_URL"])

    def client_secret() -> str:
        """The ES256 client secret Apple wants, signed with the team's .p8 key."""
        now = int(time.time())
        claims = {"iss": app.config["TEAM_ID"], "iat": now, "exp": now + 300, "aud": "https://appleid.apple.com", "sub": app.config["CLIENT_ID"]}
        return jwt.encode(claims, app.config["PRIVATE_KEY"], algorithm="ES256", headers={"kid": app.config["KEY_ID"]})

    @app.get("/login")
    def login():
        session["state"] = secrets.token_urlsafe(16)
        session["nonce"] = secrets.token_urlsafe(16)
        query = urllib.parse.urlencode({
            "client_id": app.config["CLIENT_ID"], "redirect_uri": app.config["REDIRECT_URI"], "response_type": "code id_token",
            "response_mode": "form_post", "scope": "name email", "state": session["state"], "nonce": session["nonce"],
        })
        return redirect(app.config["AUTHORIZE_URL"] + "?" + query)

    @app.post("/callback")
    def callback():
        if "error" in request.form:
            abort(400, request.form["error"])
        if not secrets.compare_digest(request.form.get("state", ""), session.pop("state", "")):
            abort(400, "state does not match")
        body = urllib.parse.urlencode({
            "grant_type": "authorization_code", "code": request.form["code"], "redirect_uri": app.config["REDIRECT_URI"],
            "client_id": app.config["CLIENT_ID"], "client_secret": client_secret(),
        }).encode()
        with urllib.request.urlopen(urllib.request.Request(app.config["TOKEN_URL"], data=body), timeout=10) as answer:
            tokens = json.load(answer)
        id_token = tokens["id_token"]
        claims = jwt.decode(
            id_token, jwks.get_signing_key_from_jwt(id_token).key, algorithms=["RS256"], audience=app.config["CLIENT_ID"],
            issuer=app.config["ISSUER"],
        )
        if claims.get("nonce") != session.pop("nonce", None):
            abort(400, "nonce does not match")
        # Apple sends the name once, on the first authorization, beside the id_token.
        user = json.loads(request.form["user"]) if "user" in request.form else {}
        session["user"] = {"sub": claims["sub"], "email": claims.get("email"), "name": user.get("name")}
        return jsonify(session["user"])

    @app.get("/me")
    def me():
        return jsonify(session.get("user")) if "user" in session else ("", 401)

    return app
