"""Talking to Apple (here: our server): the client secret, the token and revoke calls, and verifying
identity tokens and server-to-server notifications, the way a Python tutorial does it with PyJWT.

The flaws (config.FLAW_NAMES) that concern tokens are coded here, each where tutorials get it wrong.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any

import jwt
import requests

from config import Config

TIMEOUT = 5  # seconds for every call to the server: a hung token endpoint fails the sign-in, closed
LEEWAY = 30  # seconds of clock skew
APPLE_AUDIENCE = "https://appleid.apple.com"  # the client secret's aud; our server accepts it, as Apple does

# Loopback only: no proxy from the environment.
http = requests.Session()
http.trust_env = False


class Refused(Exception):
    """The server's answer or a token did not hold; the message says why (shown to the browser)."""


def client_secret(config: Config) -> str:
    now = int(time.time())
    claims = {"iss": config.team_id, "iat": now, "exp": now + 300, "aud": APPLE_AUDIENCE, "sub": config.client_id}
    return jwt.encode(claims, config.private_key, algorithm="ES256", headers={"kid": config.key_id})


def exchange_code(config: Config, code: str) -> dict[str, Any]:
    """POST /auth/token; the token response (id_token, access_token, refresh_token)."""
    form = {"code": code, "grant_type": "authorization_code", "redirect_uri": config.return_url}
    answer = post_to_server(config, "/auth/token", form)
    try:
        tokens = answer.json()
    except ValueError:
        raise Refused("the token response is not JSON") from None
    if not isinstance(tokens, dict) or not isinstance(tokens.get("id_token"), str):
        raise Refused("the token response has no id_token")
    return tokens


def revoke(config: Config, refresh_token: str) -> None:
    post_to_server(config, "/auth/revoke", {"token": refresh_token, "token_type_hint": "refresh_token"})


def post_to_server(config: Config, path: str, form: dict[str, str]) -> requests.Response:
    """A client-authenticated POST (client_secret_post) whose answer must be a 200."""
    form = {"client_id": config.client_id, "client_secret": client_secret(config), **form}
    try:
        answer = http.post(f"{config.server}{path}", data=form, timeout=TIMEOUT)
    except requests.RequestException as error:
        raise Refused(f"{path} did not answer: {type(error).__name__}") from None
    if answer.status_code != 200:
        raise Refused(f"{path} answered {answer.status_code}")
    return answer


cached_key_set: dict[str, Any] = {}  # FLAW_KEYS_CACHED_FOREVER only: the first /auth/keys answer


def key_set(config: Config) -> dict[str, Any]:
    """/auth/keys, fetched each time: keys rotate. FLAW_KEYS_CACHED_FOREVER: the tutorial's "speed-up",
    fetched once and kept for the life of the process."""
    if config.flawed("FLAW_KEYS_CACHED_FOREVER") and cached_key_set:
        return cached_key_set
    answer = http.get(f"{config.server}/auth/keys", timeout=TIMEOUT)
    answer.raise_for_status()
    if config.flawed("FLAW_KEYS_CACHED_FOREVER"):
        cached_key_set.update(answer.json())
    return answer.json()


def signing_key(config: Config, token: str) -> Any:
    """The published key named by the token's kid."""
    try:
        kid = jwt.get_unverified_header(token).get("kid")
        return jwt.PyJWKSet.from_dict(key_set(config))[kid].key
    except (jwt.PyJWTError, requests.RequestException, ValueError, KeyError) as error:
        raise Refused(f"no published key for the token: {type(error).__name__}") from None


def half_hash(value: str) -> str:
    """OIDC c_hash / at_hash for RS256: base64url of the left half of SHA-256."""
    digest = hashlib.sha256(value.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode("ascii")


def expected_issuer(config: Config) -> str:
    """The tokens' issuer, configured. FLAW_ISSUER_FROM_DISCOVERY: the tutorial's "no hard-coding", the
    discovery document's issuer, read where the check shows this app its own (?client_id=, which Apple
    answers as its one document): since 2025-06-11 Apple's names https://account.apple.com, its tokens not."""
    if not config.flawed("FLAW_ISSUER_FROM_DISCOVERY"):
        return config.issuer
    try:
        answer = http.get(f"{config.server}/.well-known/openid-configuration", params={"client_id": config.client_id}, timeout=TIMEOUT)
        answer.raise_for_status()
        return str(answer.json()["issuer"])
    except (requests.RequestException, ValueError, KeyError) as error:
        raise Refused(f"no discovery document: {type(error).__name__}") from None


def verify_id_token(config: Config, token: str, *, nonce: str, code: str = "", access_token: str = "") -> dict[str, Any]:
    """The id_token's claims once its signature, iss, aud, exp, iat, nonce and hashes hold."""
    try:
        algorithm = jwt.get_unverified_header(token).get("alg")
    except jwt.PyJWTError:
        raise Refused("the id_token is not a JWT") from None
    options = {"require": ["iss", "aud", "exp", "iat", "sub"], "verify_aud": not config.flawed("FLAW_NO_AUD")}
    if config.flawed("FLAW_EXPIRED_OK"):
        options["verify_exp"] = False  # the tutorial's "fix" for tokens that expired on a slow callback
    issuer = expected_issuer(config)
    try:
        if config.flawed("FLAW_ALG_NONE") and algorithm == "none":
            # The tutorial's branch for "tokens without a signature": everything but the signature is checked.
            options.update(verify_signature=False, verify_iss=True, verify_exp=options.get("verify_exp", True), verify_iat=True)
            claims = jwt.decode(token, options=options, audience=config.client_id, issuer=issuer, leeway=LEEWAY)
        else:
            key = signing_key(config, token)
            claims = jwt.decode(
                token, key, algorithms=["RS256"], options=options, audience=config.client_id, issuer=issuer, leeway=LEEWAY
            )
    except jwt.PyJWTError as error:
        raise Refused(f"the id_token was refused: {type(error).__name__}") from None
    if not config.flawed("FLAW_NONCE_IGNORED") and not hmac.compare_digest(str(claims.get("nonce", "")), nonce):
        raise Refused("the id_token's nonce is not this sign-in's")
    for claim, value in (("c_hash", code), ("at_hash", access_token)):
        if value and claim in claims and not hmac.compare_digest(str(claims[claim]), half_hash(value)):
            raise Refused(f"the id_token's {claim} does not match")
    return claims


def unverified_claims(token: str) -> dict[str, Any]:
    try:
        return jwt.decode(token, options={"verify_signature": False})
    except jwt.PyJWTError:
        raise Refused("the token is not a JWT") from None


def verify_notification(config: Config, payload: str) -> dict[str, Any]:
    """The notification's claims, with `events` decoded (a JSON string on the wire, spec §10.3)."""
    if config.flawed("FLAW_UNVERIFIED_NOTIFICATIONS"):
        claims = unverified_claims(payload)  # "Apple sent it to our URL, so it is from Apple"
    else:
        try:
            claims = jwt.decode(
                payload,
                signing_key(config, payload),
                algorithms=["RS256"],
                audience=list(config.notification_audiences),
                issuer=config.issuer,
                leeway=LEEWAY,
                options={"require": ["iss", "aud", "exp", "iat", "jti", "events"]},
            )
        except jwt.PyJWTError as error:
            raise Refused(f"the notification was refused: {type(error).__name__}") from None
    events = claims.get("events")
    if isinstance(events, str):
        try:
            events = json.loads(events)
        except ValueError:
            raise Refused("the notification's events are not JSON") from None
    if not isinstance(events, dict):
        raise Refused("the notification has no events")
    return {**claims, "events": events}
