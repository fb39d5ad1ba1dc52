#!/usr/bin/env python3
"""Interoperability check: a stock OAuth 2.0 / OIDC client against the siwa server.

An independent client (Authlib's OAuth2Session for the OAuth 2.0 flow, PyJWT for
the JOSE parts) runs the "Sign in with Apple" authorization-code flow against a
running server started in headless mode (``siwa serve --auto-approve ...``) and
verifies what comes back.

Usage:
    python3 Interop/interop_check.py --data-dir DIR

DIR is the server's data directory; DIR/demo.json tells the server URL, the team
and key ids, the .p8 key file, the client ids and the demo users.

One line is printed per step ("ok  ..." or "FAIL ..."), then a summary line
"N passed, M failed". The exit status is 0 only when every step passed.
Every HTTP request goes to the (loopback) server named in demo.json, with a
5 second timeout.

Server behaviour this relies on (beyond Apple's wire format):
  * --auto-approve: GET /auth/authorize answers at once as the approved user
    (302 for response_mode=query, an auto-submitting POST form for form_post).
  * PKCE (code_challenge / code_verifier, S256) is accepted on the code flow.
  * The client secret carries PyJWT's default "typ": "JWT" header next to alg
    and kid; the server must accept it, as Apple does.
  * id_token headers are exactly {"kid", "alg"}; exp and iat are integers.
  * The endpoints live at /auth/authorize, /auth/token, /auth/revoke and
    /auth/keys on the server URL; they are built from demo.json's "server",
    never followed from the discovery document.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import ipaddress
import json
import sys
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

import jwt
import requests
from authlib.common.errors import AuthlibBaseError
from authlib.common.security import generate_token
from authlib.integrations.base_client import OAuthError
from authlib.integrations.requests_client import OAuth2Session

TIMEOUT = 5  # seconds, for every HTTP request
CLIENT_SECRET_TTL = 300  # seconds; Apple allows up to 15,777,000
CLOCK_LEEWAY = 30  # seconds of clock skew tolerated when checking exp / iat

DISCOVERY_PATH = "/.well-known/openid-configuration"
ENDPOINT_PATHS = {
    "authorization_endpoint": "/auth/authorize",
    "token_endpoint": "/auth/token",
    "revocation_endpoint": "/auth/revoke",
    "jwks_uri": "/auth/keys",
}
# Discovery list fields and the values each must contain.
DISCOVERY_LISTS = {
    "response_types_supported": ["code"],
    "response_modes_supported": ["query", "fragment", "form_post"],
    "id_token_signing_alg_values_supported": ["RS256"],
    "token_endpoint_auth_methods_supported": ["client_secret_post"],
    "scopes_supported": ["openid", "email", "name"],
}
ID_TOKEN_HEADER_FIELDS = {"kid", "alg"}
PRIVATE_JWK_FIELDS = {"d", "p", "q", "dp", "dq", "qi", "oth", "k"}


class CheckFailed(Exception):
    """A step's expectation did not hold."""


class NotRun(CheckFailed):
    """A step could not run: an earlier step did not produce its input."""


def expect(condition: Any, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def need(value: Any, message: str) -> None:
    if not value:
        raise NotRun(message)


# ---------------------------------------------------------------------------
# JOSE helpers (pure functions, no I/O)
# ---------------------------------------------------------------------------


def mint_client_secret(
    *,
    team_id: str,
    key_id: str,
    client_id: str,
    audience: str,
    private_key_pem: bytes | str,
    now: int | None = None,
    ttl: int = CLIENT_SECRET_TTL,
) -> str:
    """Mint Apple's client secret: an ES256 JWT signed with the .p8 key.

    Header {"alg": "ES256", "kid": key_id} (PyJWT also adds "typ": "JWT", as
    real-world clients do); claims iss=team_id, iat, exp, aud, sub=client_id.
    PyJWT encodes the ECDSA signature as raw R||S (64 bytes), as JWS requires.
    """
    issued_at = int(time.time()) if now is None else int(now)
    claims = {
        "iss": team_id,
        "iat": issued_at,
        "exp": issued_at + ttl,
        "aud": audience,
        "sub": client_id,
    }
    return jwt.encode(claims, private_key_pem, algorithm="ES256", headers={"kid": key_id})


def at_hash(access_token: str) -> str:
    """OIDC at_hash for RS256: base64url(left half of SHA-256(access_token))."""
    digest = hashlib.sha256(access_token.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode("ascii")


def verify_id_token(
    token: str,
    jwks: dict[str, Any],
    *,
    issuer: str,
    audience: str,
) -> dict[str, Any]:
    """Verify an RS256 id_token against a JWKS document; return its claims.

    Checks: header is exactly {kid, alg} with alg RS256; the kid is in the JWKS;
    the signature; iss, aud (a single string equal to the client id), exp and
    iat (integers, not expired, not issued in the future) and sub.
    """
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError as error:
        raise CheckFailed(f"id_token is not a JWS: {error}") from None
    expect(
        set(header) == ID_TOKEN_HEADER_FIELDS,
        f"id_token header has fields {sorted(header)}, expected {sorted(ID_TOKEN_HEADER_FIELDS)}",
    )
    expect(header["alg"] == "RS256", f"id_token alg is {header['alg']!r}, expected RS256")

    try:
        key_set = jwt.PyJWKSet.from_dict(jwks)
        key = key_set[header["kid"]]
    except (jwt.PyJWTError, KeyError) as error:
        raise CheckFailed(f"no JWKS key for id_token kid {header['kid']!r}: {error}") from None

    try:
        claims = jwt.decode(
            token,
            key=key.key,
            algorithms=["RS256"],
            audience=audience,
            issuer=issuer,
            leeway=CLOCK_LEEWAY,
            options={"require": ["iss", "aud", "exp", "iat", "sub"]},
        )
    except jwt.PyJWTError as error:
        raise CheckFailed(f"id_token rejected: {type(error).__name__}: {error}") from None

    for name in ("exp", "iat"):
        expect(type(claims[name]) is int, f"id_token {name} is not an integer: {claims[name]!r}")
    expect(claims["aud"] == audience, f"id_token aud is {claims['aud']!r}, expected {audience!r}")
    expect(isinstance(claims["sub"], str) and claims["sub"], "id_token sub is empty")
    return claims


# ---------------------------------------------------------------------------
# form_post page parsing
# ---------------------------------------------------------------------------


@dataclass
class HTMLForm:
    method: str
    action: str
    inputs: dict[str, str] = field(default_factory=dict)


class _FormParser(HTMLParser):
    """Collects <form>s and their hidden <input>s; entities are unescaped."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[HTMLForm] = []
        self._open: HTMLForm | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: (value or "") for name, value in attrs}
        if tag == "form":
            self._open = HTMLForm(
                method=attributes.get("method", "get").lower(),
                action=attributes.get("action", ""),
            )
            self.forms.append(self._open)
        elif tag == "input" and self._open is not None:
            if attributes.get("type", "text").lower() == "hidden" and "name" in attributes:
                self._open.inputs[attributes["name"]] = attributes.get("value", "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._open = None


def parse_forms(page: str) -> list[HTMLForm]:
    parser = _FormParser()
    parser.feed(page)
    parser.close()
    return parser.forms


# ---------------------------------------------------------------------------
# Configuration and context
# ---------------------------------------------------------------------------


@dataclass
class Demo:
    """The parts of DIR/demo.json the check uses."""

    server: str
    issuer: str
    team_id: str
    key_id: str
    key_file: Path
    services_id: str
    return_urls: list[str]
    admin_token: str | None = None
    # demo.json's "organization": the demo school and its Managed Apple IDs (absent in older files).
    organization: dict[str, Any] | None = None

    @classmethod
    def load(cls, data_dir: Path) -> Demo:
        path = data_dir / "demo.json"
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CheckFailed(f"cannot read {path}: {error}") from None
        expect(isinstance(raw, dict), f"{path} is not a JSON object")
        for name in ("server", "team_id", "key_id", "key_file", "services_id", "return_urls"):
            expect(raw.get(name), f"{path} has no {name!r}")
        expect(
            isinstance(raw["return_urls"], list) and all(isinstance(u, str) for u in raw["return_urls"]),
            f"{path}: return_urls is not a list of strings",
        )
        server = raw["server"].rstrip("/")
        key_file = Path(raw["key_file"])
        if not key_file.is_absolute():
            key_file = data_dir / key_file
        return cls(
            server=server,
            issuer=raw.get("issuer") or server,
            team_id=raw["team_id"],
            key_id=raw["key_id"],
            key_file=key_file,
            services_id=raw["services_id"],
            return_urls=raw["return_urls"],
            admin_token=raw.get("admin_token"),
            organization=raw.get("organization"),
        )


def is_loopback_url(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    if parts.hostname == "localhost":
        return True
    try:
        return ipaddress.ip_address(parts.hostname).is_loopback
    except ValueError:
        return False


class ResponseRecorder:
    """Authlib compliance hook that keeps the last token-endpoint response."""

    def __init__(self) -> None:
        self.last: requests.Response | None = None

    def __call__(self, response: requests.Response) -> requests.Response:
        self.last = response
        return response


@dataclass
class Context:
    """Everything the steps share: configuration, HTTP session, results."""

    demo: Demo
    http: requests.Session
    discovery: dict[str, Any] | None = None
    jwks: dict[str, Any] | None = None
    _client_secret: str | None = None
    # Results handed from one step to the next.
    code_flow: dict[str, Any] = field(default_factory=dict)
    tokens: dict[str, Any] = field(default_factory=dict)
    form_post: dict[str, Any] = field(default_factory=dict)

    def endpoint(self, name: str) -> str:
        """Endpoints are always built from demo.json's server (never followed
        from discovery), so every request stays on that loopback origin."""
        return self.demo.server + ENDPOINT_PATHS[name]

    @property
    def issuer(self) -> str:
        if self.discovery and isinstance(self.discovery.get("issuer"), str):
            return self.discovery["issuer"]
        return self.demo.issuer

    @property
    def redirect_uri(self) -> str:
        return self.demo.return_urls[0]

    @property
    def client_secret(self) -> str:
        if self._client_secret is None:
            self._client_secret = mint_client_secret(
                team_id=self.demo.team_id,
                key_id=self.demo.key_id,
                client_id=self.demo.services_id,
                audience=self.issuer,
                private_key_pem=self.demo.key_file.read_bytes(),
            )
        return self._client_secret

    def oauth_session(self, *, pkce: bool = False) -> tuple[OAuth2Session, ResponseRecorder]:
        session = OAuth2Session(
            client_id=self.demo.services_id,
            client_secret=self.client_secret,
            token_endpoint_auth_method="client_secret_post",
            revocation_endpoint_auth_method="client_secret_post",
            redirect_uri=self.redirect_uri,
            code_challenge_method="S256" if pkce else None,
            default_timeout=TIMEOUT,
        )
        session.trust_env = False  # no proxies: talk to the loopback server directly
        session.max_redirects = 0  # the token and revocation endpoints never redirect
        recorder = ResponseRecorder()
        session.register_compliance_hook("access_token_response", recorder)
        session.register_compliance_hook("refresh_token_response", recorder)
        return session, recorder

    def get(self, url: str, **kwargs: Any) -> requests.Response:
        return self.http.get(url, timeout=TIMEOUT, allow_redirects=False, **kwargs)

    def get_json(self, url: str) -> Any:
        response = self.get(url)
        expect(response.status_code == 200, f"GET {url} answered {response.status_code}")
        try:
            return response.json()
        except ValueError:
            raise CheckFailed(f"GET {url} did not answer JSON") from None

    def verify(self, id_token: Any) -> dict[str, Any]:
        expect(isinstance(id_token, str) and id_token, "no id_token in the token response")
        if self.jwks is None:
            self.jwks = self.get_json(self.endpoint("jwks_uri"))
        return verify_id_token(id_token, self.jwks, issuer=self.issuer, audience=self.demo.services_id)


# ---------------------------------------------------------------------------
# Shared assertions
# ---------------------------------------------------------------------------


def token_body(response: requests.Response | None) -> dict[str, Any]:
    """The JSON object of a successful token-endpoint response."""
    expect(response is not None, "no response recorded from the token endpoint")
    assert response is not None
    expect(response.status_code == 200, f"token endpoint answered {response.status_code}: {response.text[:200]}")
    body = response.json()
    expect(isinstance(body, dict), "token response is not a JSON object")
    return body


def check_token_response(
    response: requests.Response, body: dict[str, Any], *, expect_refresh_token: bool
) -> None:
    """Fields and caching headers of a successful token-endpoint response."""
    for name in ("access_token", "id_token"):
        expect(isinstance(body.get(name), str) and body[name], f"token response has no {name}")
    expect(body.get("token_type") == "Bearer", f"token_type is {body.get('token_type')!r}, expected 'Bearer'")
    expect(body.get("expires_in") == 3600, f"expires_in is {body.get('expires_in')!r}, expected 3600")
    if expect_refresh_token:
        expect(isinstance(body.get("refresh_token"), str) and body["refresh_token"], "token response has no refresh_token")
    else:
        expect("refresh_token" not in body, "refresh grant answered a refresh_token")
    cache_control = response.headers.get("Cache-Control", "").lower()
    pragma = response.headers.get("Pragma", "").lower()
    expect("no-store" in cache_control, f"Cache-Control is {cache_control!r}, expected no-store")
    expect("no-cache" in pragma, f"Pragma is {pragma!r}, expected no-cache")


def expect_token_error(
    call: Callable[[], Any], recorder: ResponseRecorder, *, error: str
) -> dict[str, Any]:
    """Run an Authlib token call that must fail with 400 `error`; return the JSON body."""
    recorder.last = None
    try:
        call()
    except OAuthError as raised:
        expect(raised.error == error, f"error is {raised.error!r}, expected {error!r}")
    except requests.HTTPError as raised:
        raise CheckFailed(f"token endpoint answered a non-JSON error: {raised}") from None
    else:
        raise CheckFailed(f"token endpoint accepted the request; expected {error}")
    response = recorder.last
    expect(response is not None, "no response recorded from the token endpoint")
    assert response is not None
    expect(response.status_code == 400, f"status is {response.status_code}, expected 400")
    body = response.json()
    expect(body.get("error") == error, f"error is {body.get('error')!r}, expected {error!r}")
    return body


# ---------------------------------------------------------------------------
# Steps
# ---------------------------------------------------------------------------


def step_discovery(ctx: Context) -> str:
    document = ctx.get_json(ctx.demo.server + DISCOVERY_PATH)
    expect(isinstance(document, dict), "discovery document is not a JSON object")
    ctx.discovery = document
    expect(
        document.get("issuer") == ctx.demo.issuer,
        f"issuer is {document.get('issuer')!r}, demo.json says {ctx.demo.issuer!r}",
    )
    for name in ENDPOINT_PATHS:
        expected = ctx.endpoint(name)
        expect(document.get(name) == expected, f"{name} is {document.get(name)!r}, expected {expected!r}")
    for name, required in DISCOVERY_LISTS.items():
        values = document.get(name)
        expect(isinstance(values, list), f"{name} is not a list")
        missing = [value for value in required if value not in values]
        expect(not missing, f"{name} lacks {missing}")
    return f"issuer {document['issuer']}"


def step_jwks(ctx: Context) -> str:
    jwks = ctx.get_json(ctx.endpoint("jwks_uri"))
    expect(isinstance(jwks, dict) and isinstance(jwks.get("keys"), list), "JWKS has no 'keys' list")
    keys = jwks["keys"]
    kids = [key.get("kid") for key in keys]
    expect(all(isinstance(kid, str) and kid for kid in kids), "a JWKS key has no kid")
    expect(len(set(kids)) == len(kids), f"duplicate kids in JWKS: {kids}")
    for key in keys:
        expect(key.get("kty") == "RSA", f"key {key.get('kid')} has kty {key.get('kty')!r}")
        expect(key.get("use") == "sig", f"key {key.get('kid')} has use {key.get('use')!r}")
        expect(key.get("alg") == "RS256", f"key {key.get('kid')} has alg {key.get('alg')!r}")
        expect(key.get("n") and key.get("e"), f"key {key.get('kid')} lacks n or e")
        leaked = PRIVATE_JWK_FIELDS & set(key)
        expect(not leaked, f"key {key.get('kid')} publishes private fields {sorted(leaked)}")
    expect(len(keys) >= 2, f"JWKS has {len(keys)} key(s), expected at least 2")
    try:
        parsed = jwt.PyJWKSet.from_dict(jwks)
    except jwt.PyJWTError as error:
        raise CheckFailed(f"PyJWT cannot load the JWKS: {error}") from None
    expect(len(parsed.keys) == len(keys), "PyJWT could not use every JWKS key")
    ctx.jwks = jwks
    return f"{len(keys)} RSA keys: {', '.join(kids)}"


def step_code_flow(ctx: Context) -> str:
    session, recorder = ctx.oauth_session(pkce=True)
    code_verifier = generate_token(64)
    nonce = generate_token(24)
    url, state = session.create_authorization_url(
        ctx.endpoint("authorization_endpoint"),
        code_verifier=code_verifier,
        response_mode="query",
        nonce=nonce,
    )
    response = ctx.get(url)
    expect(response.status_code == 302, f"authorize answered {response.status_code}, expected 302")
    location = response.headers.get("Location", "")
    prefix = ctx.redirect_uri + ("&" if "?" in ctx.redirect_uri else "?")
    expect(location.startswith(prefix), f"Location {location!r} does not start with {prefix!r}")
    parts = urlsplit(location)
    expect(not parts.fragment, f"Location has a fragment: {location!r}")
    params = parse_qs(parts.query)
    expect("error" not in params, f"authorize redirected with error {params.get('error')}")
    expect(params.get("state") == [state], f"state is {params.get('state')}, expected [{state!r}]")
    codes = params.get("code") or []
    expect(len(codes) == 1 and codes[0], "no single code in the redirect")
    ctx.code_flow = {
        "session": session,
        "recorder": recorder,
        "location": location,
        "state": state,
        "code": codes[0],
        "code_verifier": code_verifier,
        "nonce": nonce,
    }
    return "302 to redirect_uri with code and matching state (PKCE S256, response_mode=query)"


def step_token_exchange(ctx: Context) -> str:
    need(ctx.code_flow, "no authorization code from step 3")
    flow = ctx.code_flow
    session: OAuth2Session = flow["session"]
    recorder: ResponseRecorder = flow["recorder"]
    # Authlib parses code and state from the redirect itself and checks the state.
    session.fetch_token(
        ctx.endpoint("token_endpoint"),
        authorization_response=flow["location"],
        state=flow["state"],
        code_verifier=flow["code_verifier"],
    )
    body = token_body(recorder.last)
    ctx.tokens = body  # steps 5 and 6 can go on even if a check below fails
    check_token_response(recorder.last, body, expect_refresh_token=True)
    return "access_token, refresh_token, id_token; Bearer, 3600 s; no-store, no-cache"


def step_id_token(ctx: Context) -> str:
    need(ctx.tokens, "no token response from step 4")
    claims = ctx.verify(ctx.tokens.get("id_token"))
    for name in ("nonce", "nonce_supported", "auth_time", "at_hash"):
        expect(name in claims, f"id_token has no {name} claim")
    expect(claims["nonce"] == ctx.code_flow["nonce"], "id_token nonce does not match the one sent")
    expected_hash = at_hash(ctx.tokens["access_token"])
    expect(claims["at_hash"] == expected_hash, f"at_hash is {claims['at_hash']!r}, expected {expected_hash!r}")
    ctx.code_flow["sub"] = claims["sub"]
    if "claims" in ctx.form_post:
        expect(claims["sub"] == ctx.form_post["claims"]["sub"], "sub differs from the first authorization's")
    return f"RS256 signature, iss, aud, exp, nonce and at_hash valid (sub {claims['sub']})"


def step_code_reuse(ctx: Context) -> str:
    need(ctx.tokens, "the code was not redeemed in step 4")
    flow = ctx.code_flow
    session, recorder = ctx.oauth_session(pkce=True)
    body = expect_token_error(
        lambda: session.fetch_token(
            ctx.endpoint("token_endpoint"),
            grant_type="authorization_code",
            code=flow["code"],
            code_verifier=flow["code_verifier"],
        ),
        recorder,
        error="invalid_grant",
    )
    description = body.get("error_description")
    expect(
        description == "The code has already been used.",
        f"error_description is {description!r}",
    )
    return "400 invalid_grant: " + description


def step_form_post(ctx: Context) -> str:
    session, recorder = ctx.oauth_session()
    nonce = generate_token(24)
    url, state = session.create_authorization_url(
        ctx.endpoint("authorization_endpoint"),
        scope="name email",
        response_mode="form_post",
        nonce=nonce,
    )
    response = ctx.get(url)
    expect(response.status_code == 200, f"authorize answered {response.status_code}, expected 200")
    content_type = response.headers.get("Content-Type", "")
    expect(content_type.startswith("text/html"), f"Content-Type is {content_type!r}, expected text/html")
    forms = [form for form in parse_forms(response.text) if form.method == "post"]
    expect(len(forms) == 1, f"expected one POST form in the page, found {len(forms)}")
    form = forms[0]
    expect(form.action == ctx.redirect_uri, f"form action is {form.action!r}, expected {ctx.redirect_uri!r}")
    expect("error" not in form.inputs, f"form carries error {form.inputs.get('error')!r}")
    expect(form.inputs.get("code"), "form has no code")
    expect(form.inputs.get("state") == state, f"form state is {form.inputs.get('state')!r}, expected {state!r}")

    user = None
    expect("user" in form.inputs, "the first authorization's form has no user field")
    if "user" in form.inputs:
        try:
            user = json.loads(form.inputs["user"])
        except ValueError:
            raise CheckFailed(f"user field is not JSON: {form.inputs['user'][:100]!r}") from None
        expect(isinstance(user, dict), "user field is not a JSON object")
        name = user.get("name")
        expect(isinstance(name, dict), "user field has no name object")
        for part in ("firstName", "lastName"):
            expect(isinstance(name.get(part), str), f"user.name has no {part}")
        expect(isinstance(user.get("email"), str) and user["email"], "user field has no email")

    session.fetch_token(
        ctx.endpoint("token_endpoint"),
        grant_type="authorization_code",
        code=form.inputs["code"],
        redirect_uri=ctx.redirect_uri,
    )
    body = token_body(recorder.last)
    if body.get("refresh_token"):
        # Steps 8 and 9 can go on even if a check below fails.
        ctx.form_post = {"session": session, "recorder": recorder, "tokens": body}
    check_token_response(recorder.last, body, expect_refresh_token=True)
    claims = ctx.verify(body["id_token"])
    ctx.form_post["claims"] = claims
    expect(claims.get("nonce") == nonce, "id_token nonce does not match the one sent")
    expect(isinstance(claims.get("email"), str) and claims["email"], "id_token has no email claim")
    expect("email_verified" in claims, "id_token has no email_verified claim")
    expect(claims.get("at_hash") == at_hash(body["access_token"]), "at_hash does not match the access token")
    if user is not None:
        expect(user["email"] == claims["email"], f"user.email {user['email']!r} != id_token email {claims['email']!r}")
    if "sub" in ctx.code_flow:
        expect(claims["sub"] == ctx.code_flow["sub"], "sub differs from the first authorization's")
    user_note = (
        f"user field present ({user['name']['firstName']} {user['name']['lastName']})"
        if user is not None
        else "user field absent (not the first authorization)"
    )
    return f"auto-submit form to redirect_uri, code exchanged, email {claims['email']}; {user_note}"


def step_refresh(ctx: Context) -> str:
    need(ctx.form_post, "no refresh token from step 3")
    session: OAuth2Session = ctx.form_post["session"]
    recorder: ResponseRecorder = ctx.form_post["recorder"]
    recorder.last = None
    session.refresh_token(ctx.endpoint("token_endpoint"), refresh_token=ctx.form_post["tokens"]["refresh_token"])
    body = token_body(recorder.last)
    check_token_response(recorder.last, body, expect_refresh_token=False)
    claims = ctx.verify(body["id_token"])
    for name in ("nonce", "auth_time"):
        expect(name not in claims, f"refreshed id_token has a {name} claim")
    if "claims" in ctx.form_post:
        expect(claims["sub"] == ctx.form_post["claims"]["sub"], "refreshed id_token has another sub")
    if "at_hash" in claims:
        expect(claims["at_hash"] == at_hash(body["access_token"]), "at_hash does not match the new access token")
    return "new access_token and id_token (verified, no nonce/auth_time, no refresh_token)"


def step_revoke(ctx: Context) -> str:
    need(ctx.form_post, "no refresh token from step 3")
    session: OAuth2Session = ctx.form_post["session"]
    recorder: ResponseRecorder = ctx.form_post["recorder"]
    refresh_token = ctx.form_post["tokens"]["refresh_token"]
    response = session.revoke_token(
        ctx.endpoint("revocation_endpoint"), token=refresh_token, token_type_hint="refresh_token"
    )
    expect(response.status_code == 200, f"revoke answered {response.status_code}: {response.text[:200]}")
    expect(response.content == b"", f"revoke answered a body: {response.text[:100]!r}")
    expect_token_error(
        lambda: session.refresh_token(ctx.endpoint("token_endpoint"), refresh_token=refresh_token),
        recorder,
        error="invalid_grant",
    )
    return "200 empty body; refreshing afterwards: 400 invalid_grant"


def step_managed_account(ctx: Context) -> str:
    """A Managed Apple ID without an e-mail (the demo school's student), authorized headlessly through
    the admin API: Authlib redeems its code, PyJWT verifies an id_token with no email, the string
    email_verified "false" and org_id (spec section 21)."""
    organization = ctx.demo.organization
    need(organization and ctx.demo.admin_token, "demo.json has no organization or admin token")
    student = next((m for m in organization.get("members", []) if not m.get("email")), None)
    need(student, "the demo school has no member without an e-mail")
    response = ctx.http.post(
        ctx.demo.server + "/admin/authorizations",
        json={
            "apple_id": student["username"],
            "client_id": ctx.demo.services_id,
            "redirect_uri": ctx.redirect_uri,
            "response_type": "code",
            # Apple's rule: asking for scopes needs form_post.
            "response_mode": "form_post",
            "scope": "name email",
            "state": generate_token(16),
        },
        headers={"Authorization": f"Bearer {ctx.demo.admin_token}"},
        timeout=TIMEOUT,
        allow_redirects=False,
    )
    expect(response.status_code == 200, f"POST /admin/authorizations answered {response.status_code}: {response.text[:200]}")
    results = response.json().get("results") or [{}]
    code = results[0].get("code")
    expect(code, f"no code for the managed account: {results[0]}")
    session, recorder = ctx.oauth_session()
    session.fetch_token(ctx.endpoint("token_endpoint"), grant_type="authorization_code", code=code)
    body = token_body(recorder.last)
    claims = ctx.verify(body.get("id_token"))
    expect("email" not in claims, f"id_token has an email: {claims.get('email')!r}")
    expect(claims.get("email_verified") == "false", f"email_verified is {claims.get('email_verified')!r}, expected 'false'")
    expect(claims.get("org_id") == organization.get("id"), f"org_id is {claims.get('org_id')!r}, expected {organization.get('id')!r}")
    expect("is_private_email" not in claims, "id_token has is_private_email")
    return f"no email, email_verified \"false\", org_id {claims['org_id']}"


@dataclass
class Step:
    number: int
    name: str
    run: Callable[[Context], str]


# The scoped form_post flow runs first: it is the user's first authorization for the app group,
# so it must carry the `user` JSON and the e-mail. Apple collects name and e-mail only then; later
# authorizations (the query flow) reuse that consent (spec §17.2).
STEPS = [
    Step(1, "discovery document", step_discovery),
    Step(2, "JWKS", step_jwks),
    Step(3, "form_post flow, first authorization (scope name email)", step_form_post),
    Step(4, "authorization code flow (query, PKCE)", step_code_flow),
    Step(5, "token exchange (client_secret_post)", step_token_exchange),
    Step(6, "id_token verification", step_id_token),
    Step(7, "authorization code reuse", step_code_reuse),
    Step(8, "refresh grant", step_refresh),
    Step(9, "revocation", step_revoke),
    Step(10, "Managed Apple ID without e-mail (admin API, Authlib, PyJWT)", step_managed_account),
]


def run_steps(ctx: Context) -> tuple[int, int]:
    passed = failed = 0
    for step in STEPS:
        label = f"{step.number} {step.name}"
        try:
            detail = step.run(ctx)
        except NotRun as error:
            print(f"FAIL {label}: not run: {error}", flush=True)
            failed += 1
        except CheckFailed as error:
            print(f"FAIL {label}: {error}", flush=True)
            failed += 1
        except AuthlibBaseError as error:
            print(f"FAIL {label}: Authlib {type(error).__name__}: {error.error}: {error.description}", flush=True)
            failed += 1
        except Exception as error:  # report any other crash as this step's failure
            print(f"FAIL {label}: {type(error).__name__}: {error}", flush=True)
            failed += 1
        else:
            print(f"ok  {label}: {detail}", flush=True)
            passed += 1
    return passed, failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", required=True, type=Path, help="the server's data directory")
    args = parser.parse_args(argv)

    try:
        demo = Demo.load(args.data_dir)
        expect(is_loopback_url(demo.server), f"server {demo.server!r} is not a loopback URL; refusing")
        expect(demo.key_file.is_file(), f"key file {demo.key_file} does not exist")
    except CheckFailed as error:
        print(f"FAIL setup: {error}")
        print("0 passed, 1 failed")
        return 1

    http = requests.Session()
    http.trust_env = False  # no proxies: talk to the loopback server directly
    print(f"server {demo.server}, client {demo.services_id}, redirect_uri {demo.return_urls[0]}", flush=True)
    with http:
        passed, failed = run_steps(Context(demo=demo, http=http))
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed == len(STEPS) else 1


if __name__ == "__main__":
    sys.exit(main())
