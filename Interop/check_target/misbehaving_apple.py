"""A misbehaving Apple for the self-test, in front of our server, so that the token flaws can be shown
without the server's fault switch (issue 20): every call is forwarded, and `arm(fault)` makes the next
token response's id_token defective, re-signed with a key this proxy publishes next to the server's.

    /auth/keys   the server's JWKS plus the proxy's own RSA key (so that a re-signed token verifies)
    /auth/token  forwarded; with a fault armed, its id_token is rewritten once (one-shot)
    /.well-known/openid-configuration  forwarded (FLAW_ISSUER_FROM_DISCOVERY reads it)
    anything else (POST) is forwarded as is
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
import requests
from cryptography.hazmat.primitives.asymmetric import rsa

PROXY_KID = "selftest-proxy"
FAULTS = ("wrong-aud", "wrong-iss", "expired", "future-iat", "alg-none", "unknown-key", "hash", "sub-mismatch")


class MisbehavingApple:
    def __init__(self, server: str) -> None:
        self.server = server.rstrip("/")
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.unpublished = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.lock = threading.Lock()
        self.fault: str | None = None
        self.http = requests.Session()
        self.http.trust_env = False
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self.handler())
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> MisbehavingApple:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def arm(self, fault: str) -> None:
        assert fault in FAULTS, fault
        with self.lock:
            self.fault = fault

    def take_fault(self) -> str | None:
        with self.lock:
            fault, self.fault = self.fault, None
            return fault

    def keys(self) -> dict[str, Any]:
        published = self.http.get(f"{self.server}/auth/keys", timeout=5).json()
        own = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        own.update(kid=PROXY_KID, alg="RS256", use="sig")
        return {"keys": [*published["keys"], own]}

    def sign(self, claims: dict[str, Any], *, unpublished: bool = False) -> str:
        """A token signed by the proxy's published key, or by one nobody publishes."""
        key = self.unpublished if unpublished else self.key
        return jwt.encode(claims, key, algorithm="RS256", headers={"kid": PROXY_KID})

    def defective(self, id_token: str, fault: str) -> str:
        claims = jwt.decode(id_token, options={"verify_signature": False})
        now = int(time.time())
        if fault == "wrong-aud":
            claims["aud"] = "com.example.someone.else"
        elif fault == "wrong-iss":
            claims["iss"] = "https://issuer.example"
        elif fault == "expired":
            claims.update(iat=now - 1200, exp=now - 600)
        elif fault == "future-iat":
            claims.update(iat=now + 3600, exp=now + 4200)
        elif fault == "hash":
            claims.update(at_hash="AAAAAAAAAAAAAAAAAAAAAA", c_hash="AAAAAAAAAAAAAAAAAAAAAA")
        elif fault == "sub-mismatch":
            claims["sub"] = "000000.someone.else.0000"
        elif fault == "alg-none":
            return jwt.encode(claims, None, algorithm="none")
        return self.sign(claims, unpublished=fault == "unknown-key")

    def handler(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_: Any) -> None:  # quiet: the self-test prints its own lines
                pass

            def answer(self, status: int, body: bytes, content_type: str = "application/json") -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                if self.path == "/auth/keys":
                    self.answer(200, json.dumps(proxy.keys()).encode())
                elif self.path.split("?")[0] == "/.well-known/openid-configuration":
                    forwarded = proxy.http.get(f"{proxy.server}{self.path}", timeout=5)
                    self.answer(forwarded.status_code, forwarded.content)
                else:
                    self.answer(404, b"{}")

            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {"Content-Type": self.headers.get("Content-Type", "application/x-www-form-urlencoded")}
                forwarded = proxy.http.post(f"{proxy.server}{self.path}", data=body, headers=headers, timeout=5)
                content = forwarded.content
                fault = proxy.take_fault() if self.path == "/auth/token" and forwarded.status_code == 200 else None
                if fault:
                    tokens = forwarded.json()
                    tokens["id_token"] = proxy.defective(tokens["id_token"], fault)
                    content = json.dumps(tokens).encode()
                self.answer(forwarded.status_code, content, forwarded.headers.get("Content-Type", "application/json"))

        return Handler
