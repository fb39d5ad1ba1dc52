#!/usr/bin/env python3
"""Self-test of the check target (Interop/check_target/), for when `siwa check` is not there to run.

Against a running siwa server (its data directory), with sign-ins approved headlessly through the
admin API: the correct app signs in end to end (/me 401 before, 200 after), handles an error callback,
signs out on a genuine consent-revoked, deletes an account with /auth/revoke, and refuses every attack
below. Then, for each flaw, the app with only that flaw on: a plain sign-in still works, the attack
named by the flaw's check now succeeds (the flaw is real), and every other attack is still refused
(the flaw affects only its own behaviour; config.FLAW_CHECKS lists the declared overlaps).

Usage:  python3 Interop/check_target_selftest.py --data-dir DIR --app-port PORT
One line per step ("ok" or "FAIL"), then "N passed, M failed"; exit 0 only when all pass.
Only 127.0.0.1; every request has a timeout.
"""

from __future__ import annotations

import json
import secrets
import sys
import time
from pathlib import Path
from typing import Any, Callable
from urllib.parse import parse_qsl, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent / "check_target"))

import jwt  # noqa: E402
import requests  # noqa: E402
from config import FLAW_CHECKS  # noqa: E402
from harness import TIMEOUT, Facts, FlaskApp, prepared  # noqa: E402
from misbehaving_apple import MisbehavingApple  # noqa: E402

FORGED_EMAIL = "forged@attacker.example"
FORGED_SUB = "000000.forged.0000"
FORGERS_KEY = "a key that is not Apple's, 32 bytes or longer"


class Target:
    """The app under test, seen by browsers (one cookie jar each) and by the admin API."""

    def __init__(self, facts: Facts, apple: MisbehavingApple) -> None:
        self.facts, self.apple = facts, apple
        self.victim, self.attacker = facts.users[0]["apple_id"], facts.users[1]["apple_id"]

    @staticmethod
    def browser() -> requests.Session:
        session = requests.Session()
        session.trust_env = False
        return session

    def start(self, browser: requests.Session) -> dict[str, str]:
        """GET /login; the authorization request's parameters from the redirect."""
        answer = browser.get(f"{self.facts.app_url}/login", allow_redirects=False, timeout=TIMEOUT)
        assert answer.status_code in (302, 303), f"/login answered {answer.status_code}"
        return dict(parse_qsl(urlsplit(answer.headers["Location"]).query))

    def approve(self, request: dict[str, str], apple_id: str) -> dict[str, str]:
        """The callback form our server would post for this request, approved as apple_id."""
        results = self.facts.admin("POST", "/authorizations", {**request, "apple_id": apple_id})["results"]
        return results[0]

    def post_callback(self, browser: requests.Session, form: dict[str, str]) -> int:
        return browser.post(f"{self.facts.app_url}/callback", data=form, allow_redirects=False, timeout=TIMEOUT).status_code

    def me(self, browser: requests.Session) -> dict[str, Any] | None:
        answer = browser.get(f"{self.facts.app_url}/me", timeout=TIMEOUT)
        return answer.json() if answer.status_code == 200 else None

    def sign_in(self, browser: requests.Session, apple_id: str | None = None, **changes: str) -> dict[str, str]:
        form = {**self.approve(self.start(browser), apple_id or self.victim), **changes}
        self.post_callback(browser, form)
        return form

    def notify(self, claims: dict[str, Any], *, unpublished: bool) -> int:
        body = {"payload": self.apple.sign(claims, unpublished=unpublished)}
        return self.browser().post(f"{self.facts.app_url}/apple/notifications", json=body, timeout=TIMEOUT).status_code


# Each attack returns True when the app wrongly accepted it; named by the `siwa check` check it mimics.


def wrong_state(t: Target) -> bool:
    browser = t.browser()
    t.sign_in(browser, state="not-the-state-of-this-sign-in")
    return t.me(browser) is not None


def another_browsers_state(t: Target) -> bool:
    attacker, victim = t.browser(), t.browser()
    form = t.approve(t.start(attacker), t.attacker)
    t.start(victim)  # the victim has a session and a sign-in of her own under way
    t.post_callback(victim, form)
    return t.me(victim) is not None


def forged_form_id_token(t: Target) -> bool:
    browser = t.browser()
    request = t.start(browser)
    now = int(time.time())
    claims = {"iss": t.facts.issuer, "aud": t.facts.services_id, "sub": FORGED_SUB, "iat": now, "exp": now + 600}
    forged = jwt.encode({**claims, "nonce": request["nonce"]}, FORGERS_KEY, algorithm="HS256")
    t.post_callback(browser, {**t.approve(request, t.victim), "id_token": forged})
    return (t.me(browser) or {}).get("sub") == FORGED_SUB


def token_fault(fault: str) -> Callable[[Target], bool]:
    def attack(t: Target) -> bool:
        browser = t.browser()
        t.apple.arm(fault)
        try:
            t.sign_in(browser)
        finally:
            t.apple.take_fault()
        return t.me(browser) is not None

    return attack


def wrong_nonce(t: Target) -> bool:
    browser = t.browser()
    request = t.start(browser)
    t.post_callback(browser, t.approve({**request, "nonce": "the-nonce-of-another-browser"}, t.victim))
    return t.me(browser) is not None


def forged_user_email(t: Target) -> bool:
    browser = t.browser()
    t.sign_in(browser, user=json.dumps({"name": {"firstName": "Eve"}, "email": FORGED_EMAIL}))
    return (t.me(browser) or {}).get("email") == FORGED_EMAIL


def unknown_key_notification(t: Target) -> bool:
    browser = t.browser()
    t.sign_in(browser)
    user = t.me(browser)
    assert user, "the sign-in before the notification did not work"
    now = int(time.time())
    events = json.dumps({"type": "consent-revoked", "sub": user["sub"], "event_time": now * 1000})
    claims = {"iss": t.facts.issuer, "aud": t.facts.app_id, "iat": now, "exp": now + 86_400, "jti": secrets.token_urlsafe(16)}
    t.notify({**claims, "events": events}, unpublished=True)
    return t.me(browser) is None


def signed_in_notification(t: Target, event_type: str) -> tuple[requests.Session, dict[str, Any]]:
    """A signed-in browser, and a notification of `event_type` for its user, signed with the published key."""
    browser = t.browser()
    t.sign_in(browser)
    user = t.me(browser)
    assert user, "the sign-in before the notification did not work"
    now = int(time.time())
    events = json.dumps({"type": event_type, "sub": user["sub"], "event_time": now * 1000})
    claims = {"iss": t.facts.issuer, "aud": t.facts.app_id, "iat": now, "exp": now + 86_400, "jti": secrets.token_urlsafe(16)}
    return browser, {**claims, "events": events}


def flipped_discovery_issuer(t: Target) -> bool:
    """drift.issuer-flip: the client speaks as of 2025-06-11, so its discovery document names another issuer."""
    quirks = f"/clients/{t.facts.services_id}/quirks"
    t.facts.admin("PUT", quirks, {"apple_as_of": "2025-06-11"})
    try:
        browser = t.browser()
        t.sign_in(browser)
        return t.me(browser) is None
    finally:
        t.facts.admin("PUT", quirks, {"apple_as_of": ""})


def other_deletion_spelling(t: Target) -> bool:
    """drift.deletion-spelling: account-deleted, the spelling of Apple's current document."""
    browser, notification = signed_in_notification(t, "account-deleted")
    t.notify(notification, unpublished=False)
    return t.me(browser) is not None


def redelivered_notification(t: Target) -> bool:
    """drift.notification-redelivery: the same notification again is answered with an error."""
    _, notification = signed_in_notification(t, "consent-revoked")
    t.notify(notification, unpublished=False)
    return not 200 <= t.notify(notification, unpublished=False) < 300


def replayed_callback(t: Target) -> bool:
    first, second = t.browser(), t.browser()
    form = t.sign_in(first)
    assert t.me(first), "the first sign-in did not work"
    t.post_callback(second, form)
    return t.me(second) is not None


ATTACKS: dict[str, Callable[[Target], bool]] = {
    "callback.state": wrong_state,
    "callback.state-bound": another_browsers_state,
    "callback.form-id-token": forged_form_id_token,
    "token.wrong-aud": token_fault("wrong-aud"),
    "token.expired": token_fault("expired"),
    "token.nonce": wrong_nonce,
    "token.alg-none": token_fault("alg-none"),
    "token.unpublished-key": token_fault("unknown-key"),
    "token.wrong-iss": token_fault("wrong-iss"),
    "token.future-iat": token_fault("future-iat"),
    "token.hash": token_fault("hash"),
    "token.sub-mismatch": token_fault("sub-mismatch"),
    "trust.user-email": forged_user_email,
    "notify.unknown-key": unknown_key_notification,
    "callback.replay": replayed_callback,
    "drift.issuer-flip": flipped_discovery_issuer,
    "drift.deletion-spelling": other_deletion_spelling,
    "drift.notification-redelivery": redelivered_notification,
}


class Report:
    def __init__(self) -> None:
        self.passed = self.failed = 0

    def step(self, name: str, check: Callable[[], None]) -> None:
        try:
            check()
        except Exception as error:  # noqa: BLE001 - every failure is reported and counted
            self.failed += 1
            print(f"FAIL {name}: {type(error).__name__}: {error}", flush=True)
        else:
            self.passed += 1
            print(f"ok   {name}", flush=True)


def expect(condition: object, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def baseline(t: Target, report: Report) -> None:
    """The correct app: the whole lifecycle, end to end."""
    browser = t.browser()
    victim = next(user for user in t.facts.users if user["apple_id"] == t.victim)

    def sign_in() -> None:
        expect(t.me(browser) is None, "/me answered 200 before any sign-in")
        t.sign_in(browser)
        user = t.me(browser)
        expect(user and user["sub"] and user["email"] == victim["email"], f"/me after the sign-in: {user}")

    def error_callback() -> None:
        other = t.browser()
        request = t.start(other)
        status = t.post_callback(other, {"error": "user_cancelled_authorize", "state": request["state"]})
        expect(status == 400 and t.me(other) is None, f"an error callback answered {status}")

    def consent_revoked() -> None:
        expect(t.me(browser), "not signed in before the notification")
        t.facts.admin("POST", f"/users/{t.victim}/stop-using", {"group_id": t.facts.app_id})
        deadline = time.monotonic() + 30
        while t.me(browser) is not None and time.monotonic() < deadline:
            time.sleep(0.25)  # the server delivers in the background; bounded by the deadline
        expect(t.me(browser) is None, "a genuine consent-revoked did not end the session within 30 s")

    def delete() -> None:
        other = t.browser()
        t.sign_in(other)
        answer = other.post(f"{t.facts.app_url}/delete", timeout=TIMEOUT)
        expect(answer.status_code == 200 and answer.json().get("revoked") is True, f"/delete: {answer.status_code} {answer.text}")
        expect(t.me(other) is None, "still signed in after /delete")

    report.step("correct app: /me 401 before a sign-in, 200 with sub and the e-mail after", sign_in)
    report.step("correct app: an error callback (user_cancelled_authorize) is a 400, not a sign-in", error_callback)
    report.step("correct app: a genuine consent-revoked from the server ends the session", consent_revoked)
    report.step("correct app: /delete signs out and revokes the refresh token at /auth/revoke", delete)


def attacks(t: Target, report: Report, flaw: str | None) -> None:
    must, may = FLAW_CHECKS[flaw] if flaw else (frozenset(), frozenset())
    label = flaw or "correct app"
    if flaw:
        browser = t.browser()
        report.step(f"{label}: a plain sign-in still works", lambda: (t.sign_in(browser), expect(t.me(browser), "not signed in")))
    for check, attack in ATTACKS.items():
        if check in may:
            continue  # declared overlap: this flaw may weaken it too
        if check in must:
            report.step(f"{label}: {check} attack succeeds (the flaw is real)", lambda a=attack: expect(a(t), "refused"))
        else:
            report.step(f"{label}: {check} attack refused", lambda a=attack: expect(not a(t), "the app accepted it"))


def main() -> int:
    options, facts = prepared(__doc__.splitlines()[0])
    report = Report()
    with MisbehavingApple(facts.server) as apple:
        t = Target(facts, apple)
        with FlaskApp(facts, [], server=apple.url):
            attacks(t, report, None)
            baseline(t, report)
        for flaw in options.flaw or list(FLAW_CHECKS):
            with FlaskApp(facts, [flaw], server=apple.url):
                attacks(t, report, flaw)
    print(f"{report.passed} passed, {report.failed} failed")
    return 0 if report.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
