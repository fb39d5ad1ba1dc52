"""Configuration of the check target, from the environment (see README.md in this folder)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

NOTIFY_REFUSALS = frozenset(
    {"notify.unknown-key", "notify.alg-none", "notify.wrong-aud", "notify.expired", "notify.tampered", "notify.replay"}
)

# Each flaw is off unless its variable is "1". Per flaw, the `siwa check` checks that must fail with it
# on, and those that may fail too (the flaw weakens them, as it would in a real app); no other may fail.
FLAW_CHECKS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "FLAW_NO_STATE": (frozenset({"callback.state"}), frozenset({"callback.state-bound"})),
    "FLAW_STATE_UNBOUND": (frozenset({"callback.state-bound"}), frozenset()),
    "FLAW_FORM_ID_TOKEN": (frozenset({"callback.form-id-token"}), frozenset({"token.sub-mismatch"})),
    "FLAW_NO_AUD": (frozenset({"token.wrong-aud"}), frozenset()),
    "FLAW_EXPIRED_OK": (frozenset({"token.expired"}), frozenset()),
    "FLAW_NONCE_IGNORED": (frozenset({"token.nonce"}), frozenset({"callback.code-injection"})),
    "FLAW_ALG_NONE": (frozenset({"token.alg-none"}), frozenset({"callback.form-id-token"})),
    "FLAW_TRUST_USER_EMAIL": (frozenset({"trust.user-email"}), frozenset()),
    "FLAW_UNVERIFIED_NOTIFICATIONS": (NOTIFY_REFUSALS, frozenset()),
    "FLAW_REPLAYABLE": (frozenset({"callback.replay"}), frozenset()),
    # The account's deletion leaves its e-mail in a unique column: the first sign-in again fails (TN3194),
    # and so does every later one, which leaves the drift checks nothing to compare (not run). The
    # self-test's account-deleted (drift.deletion-spelling) deletes the account too: its next mimic,
    # drift.notification-redelivery, cannot sign in either.
    "FLAW_EMAIL_KEPT_ON_DELETE": (frozenset({"delete.sign-in-again"}), frozenset({"drift.notification-redelivery"})),
    # /auth/keys fetched once: a new signing key is refused. Advice: the app works until Apple rotates.
    "FLAW_KEYS_CACHED_FOREVER": (frozenset({"drift.key-rotation"}), frozenset()),
    # The expected iss read from the discovery document: Apple's since 2025-06-11 names another issuer
    # than its tokens. Required: that is Apple's document today.
    "FLAW_ISSUER_FROM_DISCOVERY": (frozenset({"drift.issuer-flip"}), frozenset()),
    # A private e-mail outside privaterelay.appleid.com is taken for a forgery: the relay addresses Apple
    # makes under private.icloud.com since 2026-06-16 are refused. Required: Apple sends them today.
    "FLAW_RELAY_DOMAIN_HARDCODED": (frozenset({"drift.relay-domain"}), frozenset()),
    # Only account-delete deletes the account; account-deleted (Apple's current document) is ignored. Advice.
    "FLAW_DELETION_SPELLED_ONE_WAY": (frozenset({"drift.deletion-spelling"}), frozenset()),
    # A notification already handled is answered 400, so Apple would send it again and again. Advice.
    "FLAW_REDELIVERY_REFUSED": (frozenset({"drift.notification-redelivery"}), frozenset()),
}
# The flaws whose checks fail as advice (a drift the app would not survive): the run still passes.
ADVICE_FLAWS = frozenset({"FLAW_KEYS_CACHED_FOREVER", "FLAW_DELETION_SPELLED_ONE_WAY", "FLAW_REDELIVERY_REFUSED"})
FLAW_NAMES = tuple(FLAW_CHECKS)

# Which id_tokens a correct app verifies (ID_TOKENS): not a flaw, two ways of being right (issue 37).
# "both": the token response's and the callback's, with at_hash and c_hash, and their subs compared;
# "token-response": only the token response's, without at_hash, the callback's ignored (OpenID Connect
# Core 1.0 §3.3.3.8: at_hash MAY be checked there). Per way, the advice checks `siwa check` must report
# failed; advice never fails the run (every way also lacks PKCE: request.pkce is advice too).
ID_TOKEN_ADVICE: dict[str, frozenset[str]] = {
    "both": frozenset({"request.pkce"}),
    "token-response": frozenset({"request.pkce", "token.hash", "token.sub-mismatch"}),
}


@dataclass(frozen=True)
class Target:
    """An app `run_check.py` runs `siwa check` against: its script in this folder, its flaws (as
    FLAW_CHECKS), the advice each of its clean ways fails (as ID_TOKEN_ADVICE), whether it serves
    /apple/notifications and /delete, where its sign-in starts and its Return URL's path."""

    script: str
    flaw_checks: dict[str, tuple[frozenset[str], frozenset[str]]]
    clean_advice: dict[str, frozenset[str]]
    serves_notifications: bool
    start: str = "/login"
    return_path: str = "/callback"
    advice_flaws: frozenset[str] = frozenset()  # flaws whose checks fail as advice (as ADVICE_FLAWS)


# authlib_app.py, written as Authlib's documentation shows: Authlib verifies only the token response's
# id_token (at_hash included) and never reads the callback's, sends no PKCE and gives the token request
# no timeout unless asked, and its OpenID Connect scope has `openid`, which Apple does not define: advice all four.
AUTHLIB_ADVICE = frozenset({"request.pkce", "request.scopes", "token.sub-mismatch", "token.timeout"})
# allauth_app.py, django-allauth's Apple provider with PKCE on: allauth sends no nonce (PKCE binds the code,
# RFC 9700 §2.1.1, so the nonce checks are advice) and verifies only the token response's id_token (at_hash
# unchecked). With PKCE off (allauth's default), nothing binds the code: the injected code signs in, and the
# nonce checks stay required.
ALLAUTH_ADVICE = frozenset({"request.nonce", "token.nonce", "token.hash", "token.sub-mismatch"})
TARGETS = {
    "tutorial": Target("app.py", FLAW_CHECKS, ID_TOKEN_ADVICE, serves_notifications=True, advice_flaws=ADVICE_FLAWS),
    "authlib": Target(
        "authlib_app.py",
        {"FLAW_TRUST_USER_EMAIL": (frozenset({"trust.user-email"}), frozenset())},
        {"token-response": AUTHLIB_ADVICE},
        serves_notifications=False,
    ),
    "allauth": Target(
        "allauth_app.py",
        {
            "FLAW_NO_PKCE": (
                frozenset({"callback.code-injection", "request.nonce", "token.nonce"}),
                frozenset(),
            )
        },
        {"token-response": ALLAUTH_ADVICE},
        serves_notifications=False,
        start="/accounts/apple/login/",
        return_path="/accounts/apple/login/callback/",
    ),
}


@dataclass(frozen=True)
class Config:
    server: str  # e.g. http://127.0.0.1:8080; /auth/authorize, /auth/token, /auth/keys, /auth/revoke live under it
    issuer: str  # the id_token's iss; the server's URL unless it runs with --issuer
    client_id: str  # the Services ID
    app_id: str  # the primary App ID: the aud of server-to-server notifications
    team_id: str
    key_id: str
    private_key: str  # the .p8's PEM text
    return_url: str
    port: int
    flaws: frozenset[str]
    id_tokens: str  # a key of ID_TOKEN_ADVICE

    @property
    def verifies_callback_token(self) -> bool:
        return self.id_tokens == "both"

    def flawed(self, name: str) -> bool:
        return name in self.flaws

    @property
    def notification_audiences(self) -> set[str]:
        return {self.client_id, self.app_id}

    @classmethod
    def from_environment(cls) -> Config:
        def required(name: str) -> str:
            value = os.environ.get(name, "").strip()
            if not value:
                raise SystemExit(f"check_target: set {name} (see Interop/check_target/README.md)")
            return value

        server = required("SIWA_SERVER").rstrip("/")
        client_id = required("CLIENT_ID")
        unknown = sorted(name for name in os.environ if name.startswith("FLAW_") and name not in FLAW_NAMES)
        if unknown:
            raise SystemExit(f"check_target: unknown flaw variables {unknown}; known: {list(FLAW_NAMES)}")
        id_tokens = os.environ.get("ID_TOKENS", "both")
        if id_tokens not in ID_TOKEN_ADVICE:
            raise SystemExit(f"check_target: ID_TOKENS={id_tokens}; known: {list(ID_TOKEN_ADVICE)}")
        return cls(
            server=server,
            issuer=os.environ.get("ISSUER", server).rstrip("/"),
            client_id=client_id,
            app_id=os.environ.get("APP_ID", client_id),
            team_id=required("TEAM_ID"),
            key_id=required("KEY_ID"),
            private_key=Path(required("KEY_FILE")).read_text(encoding="utf-8"),
            return_url=required("RETURN_URL"),
            port=int(os.environ.get("PORT", "5000")),
            flaws=frozenset(name for name in FLAW_NAMES if os.environ.get(name) == "1"),
            id_tokens=id_tokens,
        )
