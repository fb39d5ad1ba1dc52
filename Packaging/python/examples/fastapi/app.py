"""A FastAPI app with Sign in with Apple through Authlib's Starlette client.

Authlib reads the server's discovery document (``server_metadata_url``): Apple's is
https://appleid.apple.com/.well-known/openid-configuration; tests give the siwa server's. Apple
answers with ``response_mode=form_post``, so /callback is a POST; Authlib checks the state, exchanges
the code (``client_secret_post``, as Apple wants) and verifies the id_token against the JWKS.
"""

from __future__ import annotations

import json
import secrets
from typing import Callable

from authlib.integrations.starlette_client import OAuth
from fastapi import FastAPI, HTTPException, Request
from starlette.middleware.sessions import SessionMiddleware


def create_app(*, metadata_url: str, client_id: str, client_secret: Callable[[], str], redirect_uri: str) -> FastAPI:
    app = FastAPI()
    app.add_middleware(SessionMiddleware, secret_key=secrets.token_hex(16))
    oauth = OAuth()
    oauth.register(
        "apple", client_id=client_id, server_metadata_url=metadata_url,
        client_kwargs={"scope": "name email", "token_endpoint_auth_method": "client_secret_post"},
    )

    @app.get("/login")
    async def login(request: Request):
        request.session["nonce"] = secrets.token_urlsafe(16)
        return await oauth.apple.authorize_redirect(request, redirect_uri, response_mode="form_post", nonce=request.session["nonce"])

    @app.post("/callback")
    async def callback(request: Request):
        # The client secret is a short-lived JWT, minted when it is needed.
        oauth.apple.client_secret = client_secret()
        token = await oauth.apple.authorize_access_token(request)
        claims = await oauth.apple.parse_id_token(token, nonce=request.session.pop("nonce", None))
        form = await request.form()
        user = json.loads(form["user"]) if "user" in form else {}
        request.session["user"] = {"sub": claims["sub"], "email": claims.get("email"), "name": user.get("name")}
        return request.session["user"]

    @app.get("/me")
    async def me(request: Request):
        if "user" not in request.session:
            raise HTTPException(401)
        return request.session["user"]

    return app
