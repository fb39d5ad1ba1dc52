#!/usr/bin/env python3
"""Malformed-request load against a running siwa server (loopback only, Python stdlib only).

Sends COUNT seeded random and hand-picked bad requests across every endpoint of the server:
the protocol endpoints, the pages (with junk and oversized cookies), the playground and every
/admin route (without a token, with a wrong one, and with the right one but a junk body), with
huge and repeated parameters, invalid UTF-8, bad percent-encoding, wrong methods and content
types; and raw protocol garbage over a socket (invalid request lines, truncated requests, binary
junk, broken chunked bodies).

Asserted:
  * a well-formed HTTP request always gets an answer (no dropped connection, no time-out), and
    never a 5xx;
  * every admin route answers 401 without a valid bearer token;
  * malformed raw bytes may get a 400 or a closed connection, but never a 5xx, and the server
    keeps answering (a health probe follows every raw request);
  * at the end, GET /auth/keys answers 200.

Usage:
    python3 Interop/malformed_load.py --data-dir DIR [--seed N] [--count N] [--seconds S]

DIR/demo.json names the server URL and the admin token. One line per failure (the first 50),
then "N passed, N failed"; exit 0 only when nothing failed. The run stops after COUNT requests
or SECONDS, whichever comes first; every socket has a 10 second time-out.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

TIMEOUT = 10.0
MAX_REPORTED = 50

# Every route the server registers (Sources/AppleIDServer/Endpoints), method and path.
PUBLIC_ROUTES = [
    ("GET", "/"),
    ("GET", "/.well-known/openid-configuration"),
    ("GET", "/auth/keys"),
    ("GET", "/auth/authorize"),
    ("POST", "/auth/authorize"),
    ("POST", "/auth/token"),
    ("POST", "/auth/revoke"),
    ("POST", "/auth/usermigrationinfo"),
    ("GET", "/auth/interaction/{id}"),
    ("POST", "/auth/interaction/{id}"),
    ("GET", "/account"),
    ("POST", "/account/sign-in"),
    ("POST", "/account/verify"),
    ("POST", "/account/stop-using"),
    ("POST", "/account/relay"),
    ("POST", "/account/delete"),
    ("POST", "/account/sign-out"),
    ("GET", "/playground"),
    ("POST", "/playground/callback"),
    ("POST", "/playground/refresh"),
    ("POST", "/playground/revoke"),
]
ADMIN_ROUTES = [
    ("GET", "/admin/users"),
    ("POST", "/admin/users"),
    ("PATCH", "/admin/users/{apple_id}"),
    ("DELETE", "/admin/users/{apple_id}"),
    ("POST", "/admin/users/{apple_id}/stop-using"),
    ("POST", "/admin/users/{apple_id}/relay-forwarding"),
    ("POST", "/admin/clock/advance"),
    ("POST", "/admin/authorizations"),
    ("POST", "/admin/teams"),
    ("POST", "/admin/teams/{team}/keys"),
    ("GET", "/admin/clients/{client}"),
    ("POST", "/admin/clients/{client}/return-urls"),
    ("PUT", "/admin/clients/{client}/quirks"),
    ("PUT", "/admin/app-groups/{group}/notification-endpoint"),
    ("POST", "/admin/transfers"),
    ("GET", "/admin/transfers"),
    ("GET", "/admin/deliveries"),
    ("GET", "/admin/credential-state"),
    ("GET", "/admin/credential-events"),
    ("POST", "/admin/native-credentials"),
]
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE", "PROPFIND", "get", "P0ST"]
PARAMETERS = [
    "client_id", "redirect_uri", "response_type", "response_mode", "scope", "state", "nonce", "code",
    "grant_type", "client_secret", "refresh_token", "code_verifier", "code_challenge",
    "code_challenge_method", "token", "token_type_hint", "sub", "target", "transfer_sub", "apple_id",
    "password", "csrf", "decision", "first_name", "last_name", "hide_email", "id_token", "user",
    "group_id", "wait", "after", "a[b]", "a[]", "[", "]", "=", "&",
]
CONTENT_TYPES = [
    "application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=utf-8",
    "APPLICATION/X-WWW-FORM-URLENCODED", "application/json", "text/plain", "multipart/form-data; boundary=x",
    "application/x-www-form-urlencoded;;;", "", "\u00ff/\u00ff",
]
BAD_PERCENT = ["%", "%%", "%G1", "%zz", "%0", "%FF", "%C3%28", "%ED%A0%80", "%F4%90%80%80", "%00", "%C0%AF", "%E2%82"]


@dataclass
class Answer:
    status: int | None  # None: the connection closed (or timed out) before a status line
    error: str = ""


class Client:
    """A one-request-per-connection HTTP/1.1 client over a raw socket, so that anything can be sent."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port

    def send(self, data: bytes, *, shut_write: bool = False) -> Answer:
        try:
            with socket.create_connection((self.host, self.port), timeout=TIMEOUT) as connection:
                connection.sendall(data)
                if shut_write:
                    connection.shutdown(socket.SHUT_WR)
                received = b""
                while b"\r\n" not in received:
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    received += chunk
                    if len(received) > 1 << 20:
                        break
                if not received:
                    return Answer(None, "the connection closed without an answer")
                line = received.split(b"\r\n", 1)[0].split(b" ")
                if len(line) < 2 or not line[0].startswith(b"HTTP/") or not line[1].isdigit():
                    return Answer(None, f"not an HTTP status line: {received[:60]!r}")
                # Drain the rest so that the server is never left writing into a closed socket.
                connection.settimeout(2.0)
                try:
                    while connection.recv(65536):
                        pass
                except OSError:
                    pass
                return Answer(int(line[1]))
        except socket.timeout:
            return Answer(None, "timed out")
        except OSError as error:
            return Answer(None, f"{type(error).__name__}: {error}")

    def request(self, method: str, target: bytes, headers: list[tuple[str, bytes]], body: bytes = b"") -> Answer:
        head = method.encode("latin-1") + b" " + target + b" HTTP/1.1\r\n"
        head += f"Host: {self.host}:{self.port}\r\n".encode()
        head += b"Connection: close\r\n"
        for name, value in headers:
            head += name.encode("latin-1") + b": " + value + b"\r\n"
        if body or method in ("POST", "PUT", "PATCH"):
            head += f"Content-Length: {len(body)}\r\n".encode()
        return self.send(head + b"\r\n" + body)


class Load:
    def __init__(self, client: Client, admin_token: str, seed: int, count: int, seconds: float) -> None:
        self.client = client
        self.admin_token = admin_token
        self.random = random.Random(seed)
        self.count = count
        self.deadline = time.monotonic() + seconds
        self.sent = 0
        self.passed = 0
        self.failed = 0
        self.statuses: dict[str, int] = {}

    # Bookkeeping

    def done(self) -> bool:
        return self.sent >= self.count or time.monotonic() >= self.deadline

    def record(self, ok: bool, what: str, answer: Answer) -> None:
        self.sent += 1
        key = str(answer.status) if answer.status is not None else "closed"
        self.statuses[key] = self.statuses.get(key, 0) + 1
        if ok:
            self.passed += 1
            return
        self.failed += 1
        if self.failed <= MAX_REPORTED:
            got = answer.status if answer.status is not None else answer.error
            print(f"FAIL {what}: got {got}")

    def well_formed(self, what: str, method: str, target: bytes, headers: list[tuple[str, bytes]], body: bytes = b"", expect: int | None = None) -> None:
        answer = self.client.request(method, target, headers, body)
        if answer.status is None:
            self.record(False, what + " (well-formed HTTP, dropped)", answer)
        elif answer.status >= 500:
            self.record(False, what + " (5xx)", answer)
        elif expect is not None and answer.status != expect:
            self.record(False, f"{what} (expected {expect})", answer)
        else:
            self.record(True, what, answer)

    def raw(self, what: str, data: bytes, *, shut_write: bool = False) -> None:
        answer = self.client.send(data, shut_write=shut_write)
        ok = answer.status is None or answer.status < 500
        self.record(ok, what + " (raw)", answer)
        # The server must stay up after any garbage: a health probe follows each raw request.
        self.well_formed("health probe after raw bytes", "GET", b"/auth/keys", [], expect=200)

    # Pieces of requests

    def junk_text(self, limit: int = 40) -> str:
        alphabet = "abcXYZ019-._~!$&'()*+,;=:@/?#[]% \"<>\\^`{|}\u00e9\u20ac\U0001f600\u0000\u007f"
        return "".join(self.random.choice(alphabet) for _ in range(self.random.randint(0, limit)))

    def junk_bytes(self, limit: int = 64) -> bytes:
        return bytes(self.random.getrandbits(8) for _ in range(self.random.randint(0, limit)))

    def value(self) -> str:
        pick = self.random.random()
        if pick < 0.3:
            return quote(self.junk_text(), safe="")
        if pick < 0.5:
            return self.random.choice(BAD_PERCENT) + quote(self.junk_text(8), safe="")
        if pick < 0.6:
            return "x" * self.random.choice([1000, 5000, 20000])
        if pick < 0.7:
            return "".join(f"%{b:02X}" for b in self.junk_bytes(32))  # invalid UTF-8, percent-encoded
        if pick < 0.8:
            return self.random.choice(["", "null", "true", "-1", "0", "1e308", "NaN", "[]", "{}", "a.b.c", "..", "../.."])
        return quote(self.junk_text(12), safe="")

    def form(self) -> str:
        fields = []
        for _ in range(self.random.randint(0, 8)):
            name = self.random.choice(PARAMETERS) if self.random.random() < 0.8 else quote(self.junk_text(10), safe="")
            fields.append(f"{name}={self.value()}")
            if self.random.random() < 0.2:  # a repeated parameter (refused by RFC 6749 §3.1)
                fields.append(f"{name}={self.value()}")
        separator = self.random.choice(["&", "&", "&", "&&", ";", "&=&"])
        return separator.join(fields)

    def path(self, template: str) -> str:
        filler = {
            "{id}": self.random.choice(["x", "0", "%00", "..%2F..", "a" * 3000, "%FF%FE", "%zz", quote(self.junk_text(20), safe="")]),
            "{apple_id}": self.random.choice(["maria%40example.com", "%", "..", "x" * 500, "%C3%28"]),
            "{team}": self.random.choice(["TEAM", "%00", "x" * 300, "%FF"]),
            "{client}": self.random.choice(["com.example", "%2e%2e", "%", "x" * 300]),
            "{group}": self.random.choice(["com.example", "%E2%82", "x" * 300]),
        }
        for key, value in filler.items():
            template = template.replace(key, value)
        return template

    def cookies(self) -> list[tuple[str, bytes]]:
        pick = self.random.random()
        if pick < 0.4:
            return []
        names = ["siwa_session", "siwa_interaction", "siwa_csrf", "session", "csrf", "x"]
        if pick < 0.7:
            value = "; ".join(f"{self.random.choice(names)}={quote(self.junk_text(30), safe='')}" for _ in range(self.random.randint(1, 5)))
        elif pick < 0.85:
            value = f"{self.random.choice(names)}=" + "A" * self.random.choice([4000, 7000])  # oversized
        else:
            value = ";;;==; =; " + "=" * 50 + "; " + self.random.choice(names) + "=\"unterminated"
        return [("Cookie", value.encode("utf-8"))]

    # Request families

    def random_public(self) -> None:
        method, template = self.random.choice(PUBLIC_ROUTES)
        if self.random.random() < 0.2:
            method = self.random.choice(METHODS)
        path = self.path(template)
        query = self.form() if self.random.random() < 0.5 else ""
        target = (path + ("?" + query if query else "")).encode("utf-8")
        headers = self.cookies()
        body = b""
        if method.upper() in ("POST", "PUT", "PATCH"):
            content_type = self.random.choice(CONTENT_TYPES)
            if content_type:
                headers.append(("Content-Type", content_type.encode("utf-8")))
            pick = self.random.random()
            if pick < 0.7:
                body = self.form().encode("utf-8")
            elif pick < 0.8:
                body = self.junk_bytes(400)
            elif pick < 0.9:
                body = b"client_id=" + b"x" * self.random.choice([70_000, 200_000])  # over the 64 KiB limit
            else:
                body = json.dumps({"client_id": self.junk_text(), "code": [1, {"a": None}]}).encode()
        if self.random.random() < 0.1:
            headers.append(("Authorization", self.random.choice([b"Basic !!!", b"Bearer", b"Bearer " + b"x" * 3000, b"\xff\xfe"])))
        self.well_formed(f"{method} {target[:80]!r}", method, target, headers, body)

    def admin_unauthorized(self) -> None:
        method, template = self.random.choice(ADMIN_ROUTES)
        target = self.path(template).encode("utf-8")
        if self.random.random() < 0.3:
            target += b"?" + self.form().encode("utf-8")
        wrong = [
            [],
            [("Authorization", b"Bearer wrong-token")],
            [("Authorization", b"Bearer " + self.admin_token.encode() + b"x")],
            [("Authorization", b"Bearer " + self.admin_token[:-1].encode())],
            [("Authorization", b"Basic " + self.admin_token.encode())],
            [("Authorization", b"bearer")],
            [("Authorization", b"Bearer " + b"A" * 5000)],
            [("Authorization", b"Bearer \xff\xfe\xfd")],
            [("X-Admin-Token", self.admin_token.encode())],
            [("Cookie", b"admin_token=" + self.admin_token.encode())],
        ]
        headers = self.random.choice(wrong) + [("Content-Type", b"application/json")]
        body = json.dumps({"apple_id": "x@example.com", "seconds": 1}).encode() if method != "GET" else b""
        self.well_formed(f"{method} {target[:80]!r} without a valid admin token", method, target, headers, body, expect=401)

    def admin_junk(self) -> None:
        """The right token with a body or query that is not what the route reads: a 4xx, never a 5xx."""
        method, template = self.random.choice(ADMIN_ROUTES)
        target = self.path(template).encode("utf-8")
        if method == "GET":
            target += b"?" + self.form().encode("utf-8")
        headers = [("Authorization", b"Bearer " + self.admin_token.encode())]
        headers.append(("Content-Type", self.random.choice([b"application/json", b"text/plain", b"application/x-www-form-urlencoded"])))
        body = b""
        if method != "GET":
            body = self.random.choice([
                self.junk_bytes(200),
                b"{",
                b"[]",
                b"null",
                b'{"seconds": "x"}',
                b'{"count": -5}',
                b'{"count": 1e30}',
                b'{"apple_id": 5, "password": []}',
                self.form().encode("utf-8"),
                b'{"a":' * 2000 + b"1" + b"}" * 2000,  # deep nesting
            ])
        self.well_formed(f"{method} {target[:80]!r} with the admin token and junk", method, target, headers, body)

    def raw_garbage(self) -> None:
        host = f"Host: {self.client.host}\r\n".encode()
        choices = [
            ("binary junk", lambda: self.junk_bytes(2000), False),
            ("invalid request line", lambda: b"GARBAGE\r\n\r\n", False),
            ("request line without a version", lambda: b"GET /auth/keys\r\n\r\n", False),
            ("HTTP/9.9", lambda: b"GET /auth/keys HTTP/9.9\r\n" + host + b"\r\n", False),
            ("HTTP/0.9", lambda: b"GET /auth/keys\n", True),
            ("raw non-ASCII target", lambda: b"GET /auth/\xff\xfe?x=\xc3\x28 HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n", False),
            ("space in target", lambda: b"GET /auth/keys x y HTTP/1.1\r\n" + host + b"\r\n", False),
            ("truncated request line", lambda: b"POST /auth/tok", True),
            ("truncated headers", lambda: b"POST /auth/token HTTP/1.1\r\n" + host + b"Content-Ty", True),
            (
                "truncated body",
                lambda: b"POST /auth/token HTTP/1.1\r\n" + host
                + b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\ngrant_type=auth",
                True,
            ),
            ("header without a colon", lambda: b"GET / HTTP/1.1\r\n" + host + b"NoColonHere\r\nConnection: close\r\n\r\n", False),
            ("header with a NUL", lambda: b"GET / HTTP/1.1\r\n" + host + b"X-A: a\x00b\r\nConnection: close\r\n\r\n", False),
            (
                "two Content-Lengths",
                lambda: b"POST /auth/token HTTP/1.1\r\n" + host
                + b"Content-Length: 3\r\nContent-Length: 5\r\nConnection: close\r\n\r\nabcde",
                False,
            ),
            ("negative Content-Length", lambda: b"POST /auth/token HTTP/1.1\r\n" + host + b"Content-Length: -1\r\nConnection: close\r\n\r\n", False),
            (
                "broken chunked body",
                lambda: b"POST /auth/token HTTP/1.1\r\n" + host
                + b"Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nZZ\r\nabc\r\n",
                True,
            ),
            (
                "chunked and Content-Length",
                lambda: b"POST /auth/token HTTP/1.1\r\n" + host
                + b"Transfer-Encoding: chunked\r\nContent-Length: 4\r\nConnection: close\r\n\r\n0\r\n\r\n",
                False,
            ),
            ("huge header", lambda: b"GET / HTTP/1.1\r\n" + host + b"X-Big: " + b"a" * 200_000 + b"\r\nConnection: close\r\n\r\n", False),
            ("many headers", lambda: b"GET / HTTP/1.1\r\n" + host + b"".join(b"X-%d: v\r\n" % i for i in range(3000)) + b"Connection: close\r\n\r\n", False),
            ("bare LF line endings", lambda: b"GET /auth/keys HTTP/1.1\n" + host.replace(b"\r\n", b"\n") + b"Connection: close\n\n", False),
            ("TLS client hello", lambda: bytes.fromhex("16030100a5010000a10303") + self.junk_bytes(150), False),
            ("mutated request", self.mutated_request, False),
        ]
        what, make, shut_write = self.random.choice(choices)
        self.raw(what, make(), shut_write=shut_write)

    def mutated_request(self) -> bytes:
        request = bytearray(
            b"POST /auth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            b"Content-Length: 38\r\nConnection: close\r\n\r\ngrant_type=authorization_code&code=abc"
        )
        for _ in range(self.random.randint(1, 6)):
            request[self.random.randrange(len(request))] = self.random.getrandbits(8)
        return bytes(request)

    def hand_picked(self) -> None:
        """Requests worth sending every run, whatever the seed."""
        form = [("Content-Type", b"application/x-www-form-urlencoded")]
        cases = [
            ("POST", b"/auth/token", form, b"grant_type=authorization_code&grant_type=refresh_token"),
            ("POST", b"/auth/token", form, b"client_id=%FF%FE&client_secret=%C3%28&code=%ED%A0%80"),
            ("POST", b"/auth/token", form, b"code=%&code_verifier=%G1&redirect_uri=%zz"),
            ("POST", b"/auth/token", form, b"\xff\xfe\xfd=\xc3\x28"),
            ("POST", b"/auth/token", form, b"client_id=" + b"x" * 65_000),
            ("POST", b"/auth/token", form, b"a[b][c][d][e][f][g][h]=1&a[]=2&a=3"),
            ("POST", b"/auth/token", [("Content-Type", b"application/json")], b'{"grant_type":"authorization_code"}'),
            ("POST", b"/auth/token", [], b"grant_type=authorization_code"),
            ("GET", b"/auth/token", [], b""),
            ("PUT", b"/auth/keys", [], b""),
            ("DELETE", b"/.well-known/openid-configuration", [], b""),
            ("GET", b"/auth/authorize?client_id=a&client_id=b", [], b""),
            ("GET", b"/auth/authorize?" + b"&".join(b"p%d=v" % i for i in range(3000)), [], b""),
            ("GET", b"/auth/authorize?redirect_uri=%0d%0aSet-Cookie:%20x=1&client_id=%00", [], b""),
            ("GET", b"/auth/interaction/" + b"%FF" * 100, [("Cookie", b"siwa_interaction=" + b"%" * 4000)], b""),
            ("POST", b"/auth/interaction/x", form + [("Cookie", b"\xff\xfe=\xfd")], b"decision=approve&csrf=%00"),
            ("GET", b"/account", [("Cookie", b"siwa_session=" + b"A" * 7000)], b""),
            ("POST", b"/account/sign-in", form, b"apple_id=%00&password=" + b"p" * 60_000),
            ("POST", b"/account/verify", form, b"code=%FF%FF&code=1"),
            ("POST", b"/playground/callback", form, b"id_token=a.b.c&code=%&state=" + b"s" * 10_000),
            ("POST", b"/playground/callback", form, b"id_token=" + b".".join([b"e30"] * 50)),
            ("GET", b"/playground?" + b"x" * 7000, [], b""),
            ("GET", b"/%2e%2e/%2e%2e/etc/passwd", [], b""),
            ("GET", b"//auth//keys", [], b""),
            ("OPTIONS", b"*", [], b""),
        ]
        for method, target, headers, body in cases:
            self.well_formed(f"hand-picked {method} {target[:60]!r}", method, target, headers, body)
        for method, template in ADMIN_ROUTES:
            target = self.path(template).encode("utf-8")
            self.well_formed(f"{method} {template} without a token", method, target, [], b"", expect=401)
            headers = [("Authorization", b"Bearer not-the-token")]
            self.well_formed(f"{method} {template} with a wrong token", method, target, headers, b"", expect=401)

    def run(self) -> None:
        self.hand_picked()
        while not self.done():
            pick = self.random.random()
            if pick < 0.45:
                self.random_public()
            elif pick < 0.65:
                self.admin_unauthorized()
            elif pick < 0.8:
                self.admin_junk()
            else:
                self.raw_garbage()
        self.well_formed("GET /auth/keys at the end", "GET", b"/auth/keys", [], expect=200)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", required=True, type=Path, help="the server's data directory (demo.json)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--count", type=int, default=2000, help="requests to send (default 2000)")
    parser.add_argument("--seconds", type=float, default=600, help="stop after this many seconds (default 600)")
    arguments = parser.parse_args()

    demo = json.loads((arguments.data_dir / "demo.json").read_text(encoding="utf-8"))
    server = urlsplit(demo["server"])
    if server.hostname not in ("127.0.0.1", "localhost", "::1"):
        print(f"refusing to load {demo['server']}: only a loopback server is a target")
        return 2
    client = Client(server.hostname, server.port or 80)
    load = Load(client, demo["admin_token"], arguments.seed, arguments.count, arguments.seconds)
    started = time.monotonic()
    load.run()
    elapsed = time.monotonic() - started
    statuses = ", ".join(f"{status}: {count}" for status, count in sorted(load.statuses.items()))
    print(f"malformed load: {load.sent} requests in {elapsed:.1f} s (seed {arguments.seed}); answers {statuses}")
    print(f"{load.passed} passed, {load.failed} failed")
    return 0 if load.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
