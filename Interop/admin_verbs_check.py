#!/usr/bin/env python3
"""The siwa admin verbs against a running server: each verb is run as a user would run it
(the siwa binary, --data-dir pointing at the server's demo.json) and its JSON answer checked.

Usage:
    python3 Interop/admin_verbs_check.py --siwa PATH --data-dir DIR

One line per step ("ok  ..." or "FAIL ..."), then "N passed, M failed"; exit 0 only when all pass.
Every command is bounded by a 30 second timeout.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import subprocess
import sys
from pathlib import Path

TIMEOUT = 30


class Verbs:
    def __init__(self, siwa: str, data_dir: str) -> None:
        self.siwa = siwa
        self.data_dir = data_dir
        self.passed = 0
        self.failed = 0

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [self.siwa, *args, "--data-dir", self.data_dir], capture_output=True, text=True, timeout=TIMEOUT, check=False
        )

    def json(self, *args: str) -> dict:
        done = self.run(*args)
        if done.returncode != 0:
            raise AssertionError(f"siwa {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
        return json.loads(done.stdout) if done.stdout.strip() != "ok" else {}

    def step(self, name: str, check) -> None:
        try:
            check()
        except Exception as error:  # noqa: BLE001 - every failure is reported and counted
            self.failed += 1
            print(f"FAIL {name}: {error}")
        else:
            self.passed += 1
            print(f"ok   {name}")


def payload(jws: str) -> dict:
    segment = jws.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--siwa", required=True)
    parser.add_argument("--data-dir", required=True)
    options = parser.parse_args()
    facts = json.loads(Path(options.data_dir, "demo.json").read_text())
    v = Verbs(options.siwa, options.data_dir)
    group, web = facts["bundle_id"], facts["services_id"]
    redirect = facts["return_urls"][0]
    state: dict = {}

    def add_user() -> None:
        view = v.json("users", "add", "sam@example.com", "--password", "pw", "--first-name", "Sam", "--two-factor", "off")
        expect(view["two_factor_enabled"] is False and "current_two_factor_code" not in view, f"two-factor off: {view}")
        changed = v.json("users", "change", "sam@example.com", "--real-user-status", "1")
        expect(changed["real_user_status"] == 1, f"changed: {changed}")
        listed = [user["apple_id"] for user in v.json("users", "list")["users"]]
        expect("sam@example.com" in listed, f"listed: {listed}")

    def web_authorization() -> None:
        answer = v.json(
            "authorize", "--apple-id", "sam@example.com", "--client-id", web, "--redirect-uri", redirect,
            "--scope", "name email", "--response-mode", "form_post", "--hide-email",
        )["results"][0]
        user = json.loads(answer["user"])
        expect(answer["code"].startswith("c") and user["email"].endswith("@privaterelay.appleid.com"), f"answer: {answer}")

    def native_credential() -> None:
        credential = v.json("authorize", "--native", "--bundle-id", group, "--apple-id", facts["users"][0]["apple_id"],
                            "--scope", "name email", "--raw-nonce", "raw-nonce-1")
        claims = payload(credential["identityToken"])
        expect(claims["nonce"] == hashlib.sha256(b"raw-nonce-1").hexdigest(), f"nonce: {claims}")
        expect(claims["aud"] == group and credential["user"] == claims["sub"], f"claims: {claims}")
        expect(credential["fullName"]["firstName"] == facts["users"][0]["first_name"], f"fullName: {credential}")
        state["maria_sub"] = claims["sub"]
        refused = v.run("authorize", "--native", "--bundle-id", group, "--apple-id", facts["users"][1]["apple_id"], "--existing-only")
        expect(refused.returncode == 1 and "1001" in refused.stderr, f"existing-only: {refused.returncode} {refused.stderr}")

    def quirks() -> None:
        view = v.json("quirks", web, "--booleans-as-strings", "on", "--id-token-lifetime", "600")
        expect(view["booleans_as_strings"] is True and view["id_token_lifetime"] == 600, f"client: {view}")
        v.json("quirks", web, "--booleans-as-strings", "off")

    def revocation_feed() -> None:
        v.json("notify", "endpoint", group, "http://127.0.0.1:9/nowhere")
        start = v.json("notify", "events", "--client-id", group)
        v.json("users", "stop-using", facts["users"][0]["apple_id"], "--group", group)
        page = v.json("notify", "events", "--client-id", group, "--after", start["cursor"], "--wait", "5") if start.get("cursor") \
            else v.json("notify", "events", "--client-id", group, "--wait", "5")
        types = [(event["type"], event["sub"]) for event in page["events"]]
        expect(("consent-revoked", state["maria_sub"]) in types, f"events: {page}")
        deliveries = v.json("notify", "deliveries", "--group", group)["deliveries"]
        expect(any(entry["message"]["event"]["type"] == "consent-revoked" for entry in deliveries), f"deliveries: {deliveries}")
        state_answer = v.json("credential-state", "--user", state["maria_sub"], "--client-id", group)
        expect(state_answer["state"] == "revoked", f"state: {state_answer}")

    def clock() -> None:
        moved = v.json("clock", "advance", "1h")
        expect("now" in moved, f"clock: {moved}")

    def console_verbs() -> None:
        team = facts["team_id"]
        created = v.json("developers", "add", "--email", "verbs@example.com", "--name", "Verbs", "--password", "verbs password",
                         "--team", team)
        expect(created["team_ids"] == [team] and "password_hash" not in created, f"developer: {created}")
        v.json("teams", "add", "--team-id", "VERBSORG01", "--name", "Verbs Org")
        joined = v.json("developers", "add-to-team", "VERBSORG01", "--email", "verbs@example.com")
        expect(joined["team_ids"] == [team, "VERBSORG01"], f"joined: {joined}")
        invited = v.json("developers", "invite", "VERBSORG01", "--email", "invited@example.com")
        expect("url" not in invited and invited["email"] == "invited@example.com" and invited["mail_id"], f"invitation: {invited}")
        mailed = v.json("mail", "show", invited["mail_id"])
        expect("/console/invitations/" in mailed["body"], f"the invitation mail has no link: {mailed}")
        pending = v.json("developers", "invitations", "VERBSORG01")["invitations"]
        expect([p["email"] for p in pending] == ["invited@example.com"] and "url" not in pending[0], f"pending: {pending}")
        v.json("teams", "add", "--team-id", "VERBSSOLO1", "--name", "Solo", "--kind", "individual")
        v.json("developers", "add-to-team", "VERBSSOLO1", "--email", "verbs@example.com")
        second = v.run("developers", "add-to-team", "VERBSSOLO1", "--email", facts["developer"]["email"])
        expect(second.returncode == 1 and "individual team" in second.stderr, f"second member: {second.returncode} {second.stderr}")
        sent = v.json("notify", "test", group)
        expect(sent["type"] == "test" and sent["aud"] == group, f"test notification: {sent}")
        deliveries = v.json("notify", "deliveries", "--group", group)["deliveries"]
        expect(any(entry["message"]["id"] == sent["jti"] for entry in deliveries), f"deliveries: {deliveries}")
        v.json("email-sources", "add", team, "mail.verbs.example.com, news@verbs.example.com")
        checked = v.json("email-sources", "check", team)["email_sources"]
        known = {"verified", "spf-missing", "spf-invalid", "lookup-failed"}
        expect(len(checked) >= 2 and all(s["check"] in known and s["checked_at"] for s in checked), f"checked: {checked}")

    def transfer() -> None:
        again = v.json("authorize", "--native", "--bundle-id", group, "--apple-id", facts["users"][0]["apple_id"], "--scope", "email")
        old_sub = again["user"]
        v.json("teams", "add", "--team-id", "NEWTEAM123", "--name", "New Owner")
        moved = v.json("transfer", group, "--to", "NEWTEAM123")
        expect(moved["to_team_id"] == "NEWTEAM123" and moved["group_id"] == group, f"transfer: {moved}")
        key_file = Path(options.data_dir, "new-owner.p8")
        key = v.json("teams", "key", "NEWTEAM123", "--primary-app-id", group, "--out", str(key_file))
        expect(key_file.read_text().startswith("-----BEGIN PRIVATE KEY-----") and len(key["key_id"]) == 10, f"key: {key}")
        transferred = v.json("credential-state", "--user", old_sub, "--client-id", group)
        expect(transferred["state"] == "transferred", f"state: {transferred}")

    def delete_user() -> None:
        v.json("users", "forwarding", "sam@example.com", "--team", facts["team_id"], "off")
        v.json("users", "delete", "sam@example.com")
        users = {user["apple_id"]: user for user in v.json("users", "list")["users"]}
        expect(users["sam@example.com"]["deleted"] is True, f"users: {users}")
        unauthorized = subprocess.run([options.siwa, "users", "list", "--data-dir", options.data_dir, "--admin-token", "wrong"],
                                      capture_output=True, text=True, timeout=TIMEOUT, check=False)
        expect(unauthorized.returncode == 1 and "401" in unauthorized.stderr, f"wrong token: {unauthorized.stderr}")

    for name, check in [
        ("users add / change / list (two-factor off)", add_user),
        ("authorize: web, hidden e-mail", web_authorization),
        ("authorize --native: hashed nonce, fullName; existing-only refused with 1001", native_credential),
        ("quirks: string booleans, lifetime", quirks),
        ("stop-using → notify events (long-poll) and deliveries; credential-state revoked", revocation_feed),
        ("clock advance", clock),
        ("developers add / add-to-team (individual: one member), notify test, email-sources add / check", console_verbs),
        ("teams add, transfer, teams key; credential-state transferred", transfer),
        ("users forwarding off, users delete; a wrong admin token is refused", delete_user),
    ]:
        v.step(name, check)
    print(f"{v.passed} passed, {v.failed} failed")
    return 0 if v.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
