#!/usr/bin/env python3
"""Two `siwa serve` instances on one PostgreSQL database, tried from outside (Interop/two_instances.sh).

Usage:
    python3 Interop/two_instances_check.py --data-a DIR --data-b DIR --pid-b PID [--receiver-port P]
        [--lease SECONDS] [--key-check SECONDS] [--db-restart-command CMD]

DIR is each instance's data directory (its demo.json names its URL; both share the database, the
storage key and the admin token). PID is instance B's process: the kill step sends it SIGKILL.

Steps, one line each ("ok  ..." or "FAIL ..."), then "N passed, M failed"; exit 0 only when all pass:
  1. one code, 100 concurrent redemptions split over both instances: exactly one 200;
  2. a browser sign-in started on A (authorize), signed in on B, two-factor on A, consent on B, the
     code redeemed on A and refreshed on B;
  3. `siwa keys rotate` on A (POST /admin/keys/rotate): B publishes the same /auth/keys within the
     key-check interval, and B's id_tokens carry the new kid;
  4. (--db-restart-command) PostgreSQL restarted under load on both instances: both answer again
     without a restart of their own; every request sent before the restart began or after the
     instance recovered answered 200, and the ones that failed in between failed with 503;
  5. token load over both while B is killed with SIGKILL: every refresh token from a 200 answer
     works on A, and every outbox message written before the kill reaches the notification
     endpoint (B's leases run out and A takes them over).
Every HTTP request has a timeout; every wait is bounded.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import os
import re
import signal
import struct
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
from interop_check import mint_client_secret  # noqa: E402

TIMEOUT = 10
ADMIN_TIMEOUT = 120  # a batch of codes from a debug build takes a while


class Instance:
    def __init__(self, data_dir: str) -> None:
        self.facts = json.loads((Path(data_dir) / "demo.json").read_text())
        self.url = self.facts["server"].rstrip("/")
        self.admin = {"Authorization": f"Bearer {self.facts['admin_token']}"}
        key_path = Path(self.facts["key_file"])
        if not key_path.is_absolute():
            key_path = Path(data_dir) / key_path.name
        self.key_pem = key_path.read_text()

    def secret(self, client_id: str) -> str:
        return mint_client_secret(
            team_id=self.facts["team_id"], key_id=self.facts["key_id"], client_id=client_id,
            audience="https://appleid.apple.com", private_key_pem=self.key_pem)

    def admin_json(self, method: str, path: str, body: dict | None = None) -> dict:
        response = requests.request(method, self.url + path, headers=self.admin, json=body, timeout=ADMIN_TIMEOUT)
        if response.status_code >= 300:
            raise AssertionError(f"{method} {path} answered {response.status_code}: {response.text[:200]}")
        return response.json() if response.content else {}

    def codes(self, count: int, apple_id: str, hide_email: bool = False) -> list[str]:
        facts = self.facts
        order = {
            "client_id": facts["services_id"], "redirect_uri": facts["return_urls"][0], "response_type": "code",
            "apple_id": apple_id, "count": count,
        }
        if hide_email:
            order.update({"scope": "name email", "response_mode": "form_post", "hide_email": True})
        return [result["code"] for result in self.admin_json("POST", "/admin/authorizations", order)["results"]]

    def token(self, form: dict, session: requests.Session | None = None) -> requests.Response:
        client_id = self.facts["services_id"]
        body = {"client_id": client_id, "client_secret": self.secret(client_id), **form}
        return (session or requests).post(self.url + "/auth/token", data=body, timeout=TIMEOUT)

    def redeem(self, code: str, redirect_uri: str | None = None) -> requests.Response:
        """A code issued for another instance's callback is redeemed with that callback (each instance's
        demo.json names its own playground callback first)."""
        return self.token({"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri or self.facts["return_urls"][0]})

    def refresh(self, refresh_token: str) -> requests.Response:
        return self.token({"grant_type": "refresh_token", "refresh_token": refresh_token})

    def published_keys(self) -> list[str]:
        return [key["kid"] for key in requests.get(self.url + "/auth/keys", timeout=TIMEOUT).json()["keys"]]


def totp(secret: str, at: float) -> str:
    """RFC 6238 with SHA-1, 30 s steps, 6 digits, as an authenticator app computes it from demo.json's
    totp_secret: the key is the secret's base32 decoding (RFC 4648)."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", int(at // 30)), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


def hidden(html: str, name: str) -> str:
    match = re.search(r'name="%s" value="([^"]*)"' % re.escape(name), html)
    if not match:
        raise AssertionError(f"no hidden field {name} on the page")
    return match.group(1).replace("&amp;", "&")


def text_of(html: str) -> str:
    return re.sub(r"<[^>]+>|\s+", " ", html)


def jwt_claims(token: str) -> dict:
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def jwt_header(token: str) -> dict:
    header = token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)))


class Receiver:
    """The app's notification endpoint: records the jti of every notification posted to it."""

    def __init__(self, port: int, delay: float) -> None:
        seen: list[str] = []
        lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's spelling)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                time.sleep(delay)  # a slow app: deliveries are in flight when B dies
                with lock:
                    seen.append(jwt_claims(json.loads(body)["payload"])["jti"])
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.seen = seen
        self.lock = lock
        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/notifications"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def jtis(self) -> set[str]:
        with self.lock:
            return set(self.seen)


class Check:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.a = Instance(args.data_a)
        self.b = Instance(args.data_b)
        self.passed = 0
        self.failed = 0

    def step(self, name: str, run) -> None:
        started = time.monotonic()
        try:
            detail = run()
            self.passed += 1
            print(f"ok   {name} ({time.monotonic() - started:.1f} s){': ' + detail if detail else ''}", flush=True)
        except Exception as error:  # noqa: BLE001 (every failure is reported, the next step still runs)
            self.failed += 1
            print(f"FAIL {name}: {type(error).__name__}: {error}", flush=True)

    def code_race(self) -> str:
        code = self.a.codes(1, self.a.facts["users"][0]["apple_id"])[0]
        instances = [self.a, self.b] * 50
        with ThreadPoolExecutor(max_workers=100) as pool:
            callback = self.a.facts["return_urls"][0]
            statuses = list(pool.map(lambda instance: instance.redeem(code, redirect_uri=callback).status_code, instances))
        wins = [index for index, status in enumerate(statuses) if status == 200]
        others = sorted(set(statuses) - {200})
        assert len(wins) == 1, f"{len(wins)} redemptions answered 200 (the others: {others})"
        assert others == [400], f"the losers answered {others}, not 400 invalid_grant"
        return f"1 of 100 answered 200, on instance {'AB'[wins[0] % 2]}; 99 answered 400"

    def cross_sign_in(self) -> str:
        user = self.a.facts["users"][1 if len(self.a.facts["users"]) > 1 else 0]
        browser = requests.Session()
        query = {
            "client_id": self.a.facts["services_id"], "redirect_uri": self.a.facts["return_urls"][0], "response_type": "code",
            "response_mode": "form_post", "scope": "name email", "state": "cross-instance",
        }
        started = browser.get(self.a.url + "/auth/authorize", params=query, allow_redirects=False, timeout=TIMEOUT)
        assert started.status_code == 200, f"authorize on A answered {started.status_code}"
        form = re.search(r'action="(/auth/interaction/[^"]+)"', started.text)
        assert form, "A's sign-in page has no interaction form"
        path = form.group(1)
        page = browser.get(self.b.url + path, timeout=TIMEOUT)  # the same page, from B
        steps = [
            (self.b, {"action": "sign-in", "apple_id": user["apple_id"], "password": user["password"]}),
            (self.a, {"action": "verify", "code": totp(user["totp_secret"], time.time())}),
            (self.b, {"action": "approve", "first_name": user["first_name"], "last_name": user["last_name"], "email": "hide"}),
        ]
        done = "the sign-in page from B"
        for instance, form in steps:
            assert page.status_code == 200, f"{done} answered {page.status_code}: {text_of(page.text)[:300]}"
            page = browser.post(instance.url + path, data={"csrf": hidden(page.text, "csrf"), **form}, timeout=TIMEOUT)
            done = f"{form['action']} on {'A' if instance is self.a else 'B'}"
        assert page.status_code == 200, f"consent on B answered {page.status_code}"
        assert hidden(page.text, "state") == "cross-instance", "the state came back changed"
        tokens = self.a.redeem(hidden(page.text, "code"))
        assert tokens.status_code == 200, f"the code from B's consent, redeemed on A: {tokens.status_code} {tokens.text[:200]}"
        refreshed = self.b.refresh(tokens.json()["refresh_token"])
        assert refreshed.status_code == 200, f"A's refresh token on B: {refreshed.status_code} {refreshed.text[:200]}"
        return "authorize A, sign-in B, two-factor A, consent B, code on A, refresh on B"

    def rotation(self) -> str:
        before = self.b.published_keys()
        rotated = self.a.admin_json("POST", "/admin/keys/rotate")
        assert rotated["rotated"] is True, f"A did not rotate: {rotated}"
        deadline = time.monotonic() + self.args.key_check + 15
        while self.b.published_keys() != rotated["published_kids"]:
            assert time.monotonic() < deadline, f"B still publishes {self.b.published_keys()}, A {rotated['published_kids']}"
            time.sleep(0.5)
        waited = self.args.key_check + 15 - (deadline - time.monotonic())
        code = self.a.codes(1, self.a.facts["users"][0]["apple_id"])[0]
        id_token = self.b.redeem(code, redirect_uri=self.a.facts["return_urls"][0]).json()["id_token"]
        assert jwt_header(id_token)["kid"] == rotated["active_kid"], "B signs with the old key"
        return f"B published A's new keys after {waited:.1f} s (was {len(before)} keys, now {len(rotated['published_kids'])}); B signs with {rotated['active_kid']}"

    def kill_under_load(self) -> str:
        receiver = Receiver(self.args.receiver_port, delay=0.2)
        group = self.a.facts["bundle_id"]
        self.a.admin_json("PUT", f"/admin/app-groups/{group}/notification-endpoint", {"url": receiver.url})
        # A new Apple ID whose first authorization hides the address: a relay address to switch off and on.
        apple_id = f"relay-{int(time.time())}@example.com"
        self.a.admin_json("POST", "/admin/users", {"apple_id": apple_id, "password": "relay-password", "two_factor_enabled": False})
        self.a.codes(1, apple_id, hide_email=True)
        codes = self.a.codes(400, apple_id)
        refresh_tokens: list[str] = []
        lock = threading.Lock()
        killed = threading.Event()

        def produce() -> None:
            # Notifications written while both instances deliver: each pass of either leases some.
            for index in range(60):
                self.a.admin_json(
                    "POST", f"/admin/users/{apple_id}/relay-forwarding", {"team_id": self.a.facts["team_id"], "enabled": index % 2 == 1})
                time.sleep(0.1)

        def exchange(index: int) -> None:
            instance = self.a if index % 2 == 0 else self.b
            try:
                response = instance.redeem(codes[index], redirect_uri=self.a.facts["return_urls"][0])
            except requests.RequestException:
                return
            if response.status_code == 200:
                with lock:
                    refresh_tokens.append(response.json()["refresh_token"])
            if index == 200:
                os.kill(self.args.pid_b, signal.SIGKILL)
                killed.set()

        producer = threading.Thread(target=produce)
        producer.start()
        with ThreadPoolExecutor(max_workers=16) as pool:
            list(pool.map(exchange, range(len(codes))))
        producer.join()
        assert killed.is_set(), "B was not killed"
        failed = [token for token in refresh_tokens if self.a.refresh(token).status_code != 200]
        assert not failed, f"{len(failed)} of {len(refresh_tokens)} refresh tokens from 200 answers fail on A"
        outbox = {entry["message"]["id"] for entry in self.a.admin_json("GET", f"/admin/deliveries?group_id={group}")["deliveries"]}
        assert len(outbox) >= 60, f"only {len(outbox)} notifications were written for 60 relay switches"
        deadline = time.monotonic() + self.args.lease + 60
        while not outbox <= receiver.jtis():
            assert time.monotonic() < deadline, f"{len(outbox - receiver.jtis())} of {len(outbox)} notifications never arrived"
            time.sleep(0.5)
        with receiver.lock:
            redelivered = len(receiver.seen) - len(set(receiver.seen))
        return (
            f"{len(refresh_tokens)} refresh tokens from 200 answers all work on A; {len(outbox)} of {len(outbox)} notifications "
            f"arrived ({redelivered} twice: in flight on B when it died, delivered again by A after B's lease ran out)"
        )

    def database_restart(self) -> str:
        """Both instances under load while PostgreSQL restarts. A request fails only while the
        database is away: every answer before the restart command starts and after the instance's
        first good redemption is 200, and every failure in between is a 503 (never a hang, a dropped
        connection or a 500)."""
        instances = {"A": self.a, "B": self.b}
        refresh_tokens = {}
        for name, instance in instances.items():
            redeemed = instance.redeem(instance.codes(1, instance.facts["users"][0]["apple_id"])[0])
            assert redeemed.status_code == 200, f"{name} answered {redeemed.status_code} before the restart"
            refresh_tokens[name] = redeemed.json()["refresh_token"]
        answers: list[tuple[str, float, int]] = []
        slowest: dict[str, float] = {}  # the longest wait for an answer, by kind of request
        failures: list[str] = []
        lock = threading.Lock()
        stop = threading.Event()

        def load(name: str, token_requests: bool) -> None:
            # Readiness (a database read) and refreshes (reads and an insert), each in a loop of its own.
            instance = instances[name]
            while not stop.is_set():
                sent = time.monotonic()
                try:
                    if token_requests:
                        status = instance.refresh(refresh_tokens[name]).status_code
                    else:
                        status = requests.get(instance.url + "/health/ready", timeout=TIMEOUT).status_code
                except requests.RequestException as error:
                    status = -1  # no HTTP answer: a timeout or a dropped connection, named below
                    with lock:
                        failures.append(f"{name} {'refresh' if token_requests else 'ready'} after "
                                        f"{time.monotonic() - sent:.1f} s: {type(error).__name__}: {error}")
                with lock:
                    answers.append((name, sent, status))
                    took = time.monotonic() - sent
                    kind = "refresh" if token_requests else "ready"
                    slowest[kind] = max(slowest.get(kind, 0.0), took)
                time.sleep(0.05)

        workers = [threading.Thread(target=load, args=(name, tokens), daemon=True) for name in instances for tokens in (False, True)]
        for worker in workers:
            worker.start()
        recovered: dict[str, float] = {}
        try:
            time.sleep(1)  # answers from before the restart
            restart_started = time.monotonic()
            subprocess.run(self.args.db_restart_command, shell=True, check=True, timeout=120)
            restarted = time.monotonic()
            deadline = restarted + 60
            for name, instance in instances.items():
                apple_id = instance.facts["users"][0]["apple_id"]
                last = "nothing tried"
                while True:
                    try:
                        redeemed = instance.redeem(instance.codes(1, apple_id)[0])
                        if redeemed.status_code == 200:
                            recovered[name] = time.monotonic()
                            break
                        last = f"redemption answered {redeemed.status_code}: {redeemed.text[:200]}"
                    except (requests.RequestException, AssertionError, ValueError) as error:
                        last = f"{type(error).__name__}: {error}"
                    assert time.monotonic() < deadline, f"{name} did not recover within 60 s of the restart (last: {last})"
                    time.sleep(0.5)
            time.sleep(2)  # answers from after the recovery
        finally:
            stop.set()
            for worker in workers:
                worker.join(timeout=TIMEOUT + 5)
        with lock:
            seen = list(answers)
        bad = sorted({status for _, _, status in seen if status not in (200, 503)})
        assert not bad, f"during the restart some requests answered neither 200 nor 503: {bad} {failures[:3]}"
        early = [(name, status) for name, sent, status in seen if sent < restart_started and status != 200]
        assert not early, f"requests failed before the restart began: {early[:5]}"
        late = [(name, status) for name, sent, status in seen if sent > recovered[name] and status != 200]
        assert not late, f"requests failed after the instance recovered: {late[:5]}"
        summary = []
        for name in instances:
            during = [status for instance, sent, status in seen if instance == name and restart_started <= sent <= recovered[name]]
            assert during, f"no request reached {name} while PostgreSQL restarted: no load to prove anything"
            mine = [status for instance, _, status in seen if instance == name]
            summary.append(
                f"{name}: {mine.count(200)} × 200 and {mine.count(503)} × 503 in all, {len(during)} sent during the outage "
                f"({during.count(503)} × 503), recovered {recovered[name] - restarted:.1f} s after the restart command returned")
        waits = ", ".join(f"{kind} {seconds:.1f} s" for kind, seconds in sorted(slowest.items()))
        return f"restart command took {restarted - restart_started:.1f} s; slowest answers: {waits}; " + "; ".join(summary)

    def run(self) -> int:
        self.step("one code, 100 concurrent redemptions over both instances: exactly one succeeds", self.code_race)
        self.step("a sign-in started on one instance and finished on the other", self.cross_sign_in)
        self.step("a rotation on A is published by B", self.rotation)
        if self.args.db_restart_command:
            # Before the kill step, while both instances run.
            self.step("PostgreSQL restarted under load: both recover on their own, only outage-time requests fail, with 503",
                      self.database_restart)
        self.step("kill -9 of B under token load: refresh tokens work on A, no notification lost", self.kill_under_load)
        print(f"{self.passed} passed, {self.failed} failed")
        return 0 if self.failed == 0 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-a", required=True)
    parser.add_argument("--data-b", required=True)
    parser.add_argument("--pid-b", type=int, required=True)
    parser.add_argument("--receiver-port", type=int, default=0)
    parser.add_argument("--lease", type=float, default=15, help="the instances' --notification-lease, in seconds")
    parser.add_argument("--key-check", type=float, default=2, help="the instances' --key-check-interval, in seconds")
    parser.add_argument("--db-restart-command", help="a shell command that restarts PostgreSQL")
    return Check(parser.parse_args()).run()


if __name__ == "__main__":
    sys.exit(main())
