"""A small Flask app that signs in with Apple against our server, written as a Python tutorial would,
with each flaw of config.FLAW_NAMES switchable by an environment variable (README.md in this folder).

    GET  /login                 redirect to /auth/authorize (state, nonce, form_post, "name email")
    POST /callback              the form_post callback: code exchange, id_token verification, session
    GET  /me                    200 {"sub", "email"} when signed in, 401 otherwise (the check's probe)
    POST /apple/notifications   server-to-server notifications; consent-revoked signs out, account-delete(d)
                                deletes the account too; a repeat (the same jti) is answered 200, not acted on
    POST /delete                deletes the account and revokes its refresh token at /auth/revoke

With FLAW_EMAIL_KEPT_ON_DELETE, accounts have a unique e-mail column whose row /delete forgets.

State lives in this process (a tutorial's dictionaries): one process, threads guarded by one lock.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from typing import Any
from urllib.parse import urlencode

from flask import Flask, jsonify, redirect, request, session

import apple
from apple import Refused
from config import Config

config = Config.from_environment()
app = Flask(__name__)
app.secret_key = secrets.token_bytes(32)

lock = threading.Lock()
pending: dict[str, dict[str, str]] = {}  # state -> {"nonce", "browser"}: sign-ins started, not finished
signed_in: dict[str, dict[str, str]] = {}  # session id -> {"sub", "email"}
accounts: dict[str, dict[str, str]] = {}  # sub -> {"email", "refresh_token"}
account_emails: dict[str, str] = {}  # FLAW_EMAIL_KEPT_ON_DELETE only: a unique e-mail column, e-mail -> sub
seen_notifications: set[str] = set()  # jti of every notification accepted
finished_by_code: dict[str, dict[str, str]] = {}  # FLAW_REPLAYABLE only: code -> the user it signed in


def browser_id() -> str:
    """A random id in the (signed) session cookie: what binds a sign-in to the browser that started it."""
    if "browser" not in session:
        session["browser"] = secrets.token_urlsafe(32)
    return session["browser"]


@app.get("/login")
def login() -> Any:
    state, nonce = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    with lock:
        pending[state] = {"nonce": nonce, "browser": browser_id()}
    query = {
        "client_id": config.client_id,
        "redirect_uri": config.return_url,
        "response_type": "code id_token",
        "response_mode": "form_post",
        "scope": "name email",
        "state": state,
        "nonce": nonce,
    }
    return redirect(f"{config.server}/auth/authorize?{urlencode(query)}")


def take_pending_sign_in(state: str) -> dict[str, str]:
    """The sign-in this callback finishes: started in this browser, with this state, once."""
    browser = session.get("browser", "")
    with lock:
        if config.flawed("FLAW_NO_STATE"):
            # The tutorial stores the nonce per browser and never looks at `state`.
            mine = [key for key, entry in pending.items() if entry["browser"] == browser]
            return pending.pop(mine[-1]) if mine else {}
        entry = pending.pop(state, None) if state else None
    if entry is None:
        raise Refused("unknown or used state")
    if not config.flawed("FLAW_STATE_UNBOUND") and not hmac.compare_digest(entry["browser"], browser):
        raise Refused("this sign-in was started in another browser")
    return entry


def identity(form: Any, nonce: str) -> dict[str, str]:
    """Who signs in: the token response's verified id_token, confirmed by the callback's own id_token."""
    code = form.get("code", "")
    tokens = apple.exchange_code(config, code)
    # ID_TOKENS=token-response: the tutorial's minimum, no at_hash and the callback's id_token unread.
    access_token = str(tokens.get("access_token", "")) if config.verifies_callback_token else ""
    claims = apple.verify_id_token(config, tokens["id_token"], nonce=nonce, code=code, access_token=access_token)
    if form.get("id_token") and (config.verifies_callback_token or config.flawed("FLAW_FORM_ID_TOKEN")):
        if config.flawed("FLAW_FORM_ID_TOKEN"):
            # "The form already carries the id_token": decoded, never verified, and it names the user.
            claims = apple.unverified_claims(form["id_token"])
        else:
            front = apple.verify_id_token(config, form["id_token"], nonce=nonce, code=code)
            if not hmac.compare_digest(str(front["sub"]), str(claims["sub"])):
                raise Refused("the callback's id_token and the token response name different users")
    email = str(claims.get("email", ""))
    private = claims.get("is_private_email") in (True, "true")
    if config.flawed("FLAW_RELAY_DOMAIN_HARDCODED") and private and not email.endswith("@privaterelay.appleid.com"):
        # "A private e-mail is a relay address; anything else claiming to be one is forged."
        raise Refused(f"{email} is not an Apple relay address")
    if config.flawed("FLAW_TRUST_USER_EMAIL") and form.get("user"):
        user = json.loads(form["user"])  # the unsigned `user` field, trusted
        email = str(user.get("email", email)) if isinstance(user, dict) else email
    return {"sub": str(claims["sub"]), "email": email, "refresh_token": str(tokens.get("refresh_token", ""))}


class IntegrityError(Exception):
    """What the database says when a row breaks a unique column."""


def create_account_if_new(user: dict[str, str]) -> None:
    """FLAW_EMAIL_KEPT_ON_DELETE: a sub without an account gets one, its e-mail in a unique column, and
    deleting the account forgets that row. (The correct app has no unique e-mail column: a token naming
    another sub with a known e-mail, token.sub-mismatch's, would collide too.)"""
    if not config.flawed("FLAW_EMAIL_KEPT_ON_DELETE"):
        return
    with lock:
        if user["sub"] in accounts or not user["email"]:
            return
        if user["email"] in account_emails:
            raise IntegrityError("UNIQUE constraint failed: accounts.email")
        account_emails[user["email"]] = user["sub"]


def sign_in(user: dict[str, str]) -> None:
    session_id = secrets.token_urlsafe(32)
    with lock:
        accounts[user["sub"]] = {"email": user["email"], "refresh_token": user["refresh_token"]}
        signed_in[session_id] = {"sub": user["sub"], "email": user["email"]}
    session["session_id"] = session_id


@app.post("/callback")
def callback() -> Any:
    form = request.form
    if form.get("error"):
        return jsonify(error=f"sign-in did not finish: {form['error']}"), 400
    code = form.get("code", "")
    if config.flawed("FLAW_REPLAYABLE"):
        # "A double-submitted form gets invalid_grant": a code seen before signs in again from the cache.
        with lock:
            earlier = finished_by_code.get(code)
        if earlier:
            sign_in(earlier)
            return redirect("/me")
    try:
        entry = take_pending_sign_in(form.get("state", ""))
        if not entry:
            raise Refused("no sign-in started in this browser")
        user = identity(form, entry["nonce"])
    except (Refused, ValueError, KeyError) as error:
        return jsonify(error=f"sign-in refused: {error}"), 400
    try:
        create_account_if_new(user)
    except IntegrityError as error:
        return jsonify(error=f"internal error: {error}"), 500
    if config.flawed("FLAW_REPLAYABLE"):
        with lock:
            finished_by_code[code] = user
    sign_in(user)
    return redirect("/me")


def current_user() -> dict[str, str] | None:
    with lock:
        return signed_in.get(session.get("session_id", ""))


@app.get("/me")
def me() -> Any:
    user = current_user()
    if user is None:
        return jsonify(error="not signed in"), 401
    return jsonify(sub=user["sub"], email=user["email"])


def end_sessions(sub: str) -> None:
    with lock:
        for session_id in [key for key, user in signed_in.items() if user["sub"] == sub]:
            del signed_in[session_id]


@app.post("/apple/notifications")
def notifications() -> Any:
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not isinstance(body.get("payload"), str):
        return jsonify(error='expected {"payload": "<jwt>"}'), 400
    try:
        claims = apple.verify_notification(config, body["payload"])
    except Refused as error:
        return jsonify(error=str(error)), 400
    if not config.flawed("FLAW_UNVERIFIED_NOTIFICATIONS"):
        with lock:
            if claims["jti"] in seen_notifications:
                # Acknowledged, not acted on again: Apple sends a notification answered otherwise again.
                if config.flawed("FLAW_REDELIVERY_REFUSED"):
                    return jsonify(error="notification already received"), 400
                return jsonify(ok=True, already_handled=True)
            seen_notifications.add(claims["jti"])
    event = claims["events"]
    # Apple's libraries spell the deletion account-delete, its current document account-deleted.
    deletions = ("account-delete",) if config.flawed("FLAW_DELETION_SPELLED_ONE_WAY") else ("account-delete", "account-deleted")
    sub = str(event.get("sub", ""))
    if event.get("type") == "consent-revoked" or event.get("type") in deletions:
        end_sessions(sub)
    if event.get("type") in deletions:
        with lock:
            accounts.pop(sub, None)
    return jsonify(ok=True)


@app.post("/delete")
def delete_account() -> Any:
    user = current_user()
    if user is None:
        return jsonify(error="not signed in"), 401
    with lock:
        account = accounts.pop(user["sub"], {})  # FLAW_EMAIL_KEPT_ON_DELETE: account_emails keeps its row
    end_sessions(user["sub"])
    if account.get("refresh_token"):
        try:
            apple.revoke(config, account["refresh_token"])
        except Refused as error:
            return jsonify(deleted=True, revoked=False, error=str(error)), 502
    return jsonify(deleted=True, revoked=bool(account.get("refresh_token")))


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=config.port, threaded=True)
