"""What the self-test and the `siwa check` runs share: the server's demo facts, its admin API, and the
Flask app started as a child process with a chosen set of flaws, on 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests

TIMEOUT = 10  # seconds for every HTTP request of the harness
APP_READY_TIMEOUT = 30  # seconds for the Flask app to answer its probe
APP = Path(__file__).resolve().parent / "app.py"

http = requests.Session()
http.trust_env = False  # loopback only: no proxy from the environment


@dataclass
class Facts:
    """The parts of the server's demo.json the target needs, plus the ports chosen for the app."""

    server: str
    issuer: str
    admin_token: str
    services_id: str
    app_id: str
    team_id: str
    key_id: str
    key_file: str
    users: list[dict[str, Any]]
    app_port: int

    @classmethod
    def load(cls, data_dir: str, app_port: int) -> Facts:
        demo = json.loads(Path(data_dir, "demo.json").read_text(encoding="utf-8"))
        return cls(
            server=demo["server"].rstrip("/"),
            issuer=demo["issuer"].rstrip("/"),
            admin_token=demo["admin_token"],
            services_id=demo["services_id"],
            app_id=demo["bundle_id"],
            team_id=demo["team_id"],
            key_id=demo["key_id"],
            key_file=demo["key_file"],
            users=demo["users"],
            app_port=app_port,
        )

    @property
    def app_url(self) -> str:
        return f"http://127.0.0.1:{self.app_port}"

    @property
    def return_url(self) -> str:
        return f"{self.app_url}/callback"

    def admin(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        headers = {"Authorization": f"Bearer {self.admin_token}"}
        answer = http.request(method, f"{self.server}/admin{path}", json=body, timeout=TIMEOUT, headers=headers)
        if answer.status_code >= 300:
            raise RuntimeError(f"admin {method} {path} answered {answer.status_code}: {answer.text[:300]}")
        return answer.json() if answer.content else {}

    def register_app(self) -> None:
        """The app's Return URL on the Services ID and its notification endpoint on the App ID."""
        self.admin("POST", f"/clients/{self.services_id}/return-urls", {"url": self.return_url})
        self.admin("PUT", f"/app-groups/{self.app_id}/notification-endpoint", {"url": f"{self.app_url}/apple/notifications"})


def prepared(description: str, *, with_siwa: bool = False) -> tuple[argparse.Namespace, Facts]:
    """The command line both runners share (--data-dir, --app-port, --flaw ...), and the server's
    facts with the app registered on it."""
    parser = argparse.ArgumentParser(description=description)
    if with_siwa:
        parser.add_argument("--siwa", required=True, help="the siwa binary")
        parser.add_argument("--app", default="tutorial", help="the target: tutorial (app.py), authlib (authlib_app.py) or allauth (allauth_app.py)")
    parser.add_argument("--data-dir", required=True, help="the running server's data directory (demo.json)")
    parser.add_argument("--app-port", type=int, required=True, help="the loopback port for the Flask app")
    parser.add_argument("--flaw", action="append", help="only this flaw (repeatable)")
    options = parser.parse_args()
    facts = Facts.load(options.data_dir, options.app_port)
    facts.register_app()
    return options, facts


class FlaskApp:
    """`with FlaskApp(facts, flaws):` runs Interop/check_target/app.py until the block ends."""

    def __init__(
        self, facts: Facts, flaws: list[str], *, server: str | None = None, id_tokens: str = "both", script: str = APP.name
    ) -> None:
        self.facts, self.flaws, self.server, self.id_tokens = facts, flaws, server or facts.server, id_tokens
        self.script = APP.parent / script
        self.process: subprocess.Popen[bytes] | None = None
        self.log = tempfile.NamedTemporaryFile(prefix="check-target-app-", suffix=".log", delete=False)  # noqa: SIM115

    def log_tail(self) -> str:
        return Path(self.log.name).read_text(encoding="utf-8", errors="replace")[-2000:]

    def __enter__(self) -> FlaskApp:
        environment = {key: value for key, value in os.environ.items() if not key.startswith("FLAW_")}
        environment.update(
            SIWA_SERVER=self.server,
            ISSUER=self.facts.issuer,
            CLIENT_ID=self.facts.services_id,
            APP_ID=self.facts.app_id,
            TEAM_ID=self.facts.team_id,
            KEY_ID=self.facts.key_id,
            KEY_FILE=self.facts.key_file,
            RETURN_URL=self.facts.return_url,
            PORT=str(self.facts.app_port),
            ID_TOKENS=self.id_tokens,
            **{flaw: "1" for flaw in self.flaws},
        )
        self.process = subprocess.Popen(
            [sys.executable, str(self.script)], env=environment, cwd=str(APP.parent), stdout=self.log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + APP_READY_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the Flask app exited:\n{self.log_tail()}")
            try:
                if http.get(f"{self.facts.app_url}/me", timeout=2).status_code == 401:
                    return self
            except requests.RequestException:
                pass
            time.sleep(0.2)  # polling a child process's start-up, bounded by the deadline
        self.__exit__()
        raise RuntimeError(f"the Flask app did not answer within {APP_READY_TIMEOUT}s")

    def __exit__(self, *_: object) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None
        self.log.close()
        if os.environ.get("KEEP_DATA") != "1":
            os.unlink(self.log.name)
