"""Start and stop ``siwa serve`` for tests, and the helpers a test wants."""

from __future__ import annotations

import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from ._binary import find_siwa_bin
from .admin import Account, AdminClient, MailDetail, MailSummary

__all__ = ["Authorization", "SiwaServer", "SiwaStartError", "free_port"]


class SiwaStartError(RuntimeError):
    """``siwa serve`` exited or did not answer its discovery document in time; holds its output."""


def free_port(host: str = "127.0.0.1") -> int:
    """A port nobody listens on now (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def _claims(jwt: str) -> Dict[str, Any]:
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


@dataclass
class Authorization:
    """What the Return URL receives from an approved authorization (``POST /admin/authorizations``)."""

    params: Dict[str, str]
    code: Optional[str] = None
    id_token: Optional[str] = None
    state: Optional[str] = None
    #: The ``user`` JSON Apple posts on the first authorization only (name and e-mail), parsed.
    user: Optional[Dict[str, Any]] = None

    @classmethod
    def from_params(cls, params: Dict[str, str]) -> "Authorization":
        user = params.get("user")
        return cls(params=params, code=params.get("code"), id_token=params.get("id_token"), state=params.get("state"), user=json.loads(user) if user else None)

    @property
    def claims(self) -> Dict[str, Any]:
        """The id_token's claims, unverified (verify with the server's ``/auth/keys`` in real code)."""
        if not self.id_token:
            raise ValueError("this authorization has no id_token (response_type without id_token)")
        return _claims(self.id_token)


@dataclass
class SiwaServer:
    """A running ``siwa serve``: its URL, admin token and ``demo.json``, and helpers."""

    url: str
    admin_token: str
    demo: Dict[str, Any]
    data_dir: Path
    binary: str
    smtp_port: Optional[int] = None
    process: Optional[subprocess.Popen] = field(default=None, repr=False)
    admin: AdminClient = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.admin = AdminClient(self.url, self.admin_token)

    # -- start and stop ------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        data_dir: Optional[os.PathLike] = None,
        *,
        config: Optional[os.PathLike] = None,
        port: Optional[int] = None,
        smtp_port: Optional[int] = None,
        extra_args: Sequence[str] = (),
        binary: Optional[str] = None,
        timeout: float = 60.0,
        env: Optional[Dict[str, str]] = None,
    ) -> "SiwaServer":
        """Starts ``siwa serve`` on loopback (a free port unless given) with ``data_dir`` (a new
        temporary folder unless given), waits for its discovery document and reads ``demo.json``."""
        binary = binary or find_siwa_bin()
        owned_dir = data_dir is None
        directory = Path(data_dir) if data_dir is not None else Path(tempfile.mkdtemp(prefix="siwa-"))
        port = port or free_port()
        smtp_port = smtp_port if smtp_port is not None else free_port()
        url = f"http://127.0.0.1:{port}"
        args = [binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(directory), "--smtp-port", str(smtp_port)]
        args += ["--log-level", os.environ.get("SIWA_LOG_LEVEL", "warning")]
        if config is not None:
            args += ["--config", str(config)]
        args += list(extra_args)
        # Its output, for the error when it does not start (outside the data folder: that is siwa's).
        log = tempfile.TemporaryFile()
        process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})}, start_new_session=True)
        try:
            demo = cls._wait_until_ready(process, url, directory, timeout, log)
        except BaseException:
            cls._terminate(process)
            if owned_dir:
                shutil.rmtree(directory, ignore_errors=True)
            raise
        server = cls(url=url, admin_token=demo["admin_token"], demo=demo, data_dir=directory, binary=binary, smtp_port=smtp_port or None, process=process)
        server._owned_dir = owned_dir  # type: ignore[attr-defined]
        server._log = log  # type: ignore[attr-defined]
        return server

    @staticmethod
    def _wait_until_ready(process: subprocess.Popen, url: str, directory: Path, timeout: float, log: Any) -> Dict[str, Any]:
        deadline = time.monotonic() + timeout
        discovery = url + "/.well-known/openid-configuration"
        facts = directory / "demo.json"
        while True:
            if process.poll() is not None:
                raise SiwaStartError(f"siwa serve exited with {process.returncode}:\n{_tail(log)}")
            try:
                with urllib.request.urlopen(discovery, timeout=2) as response:
                    if response.status == 200 and facts.exists():
                        demo = json.loads(facts.read_text())
                        # demo.json is written once the socket listens: it names this server.
                        if demo.get("server") == url:
                            return demo
            except (urllib.error.URLError, ConnectionError, OSError, ValueError):
                pass
            if time.monotonic() > deadline:
                raise SiwaStartError(f"siwa serve did not answer {discovery} within {timeout:.0f} s:\n{_tail(log)}")
            time.sleep(0.02)

    @staticmethod
    def _terminate(process: subprocess.Popen) -> None:
        if process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)

    def stop(self) -> None:
        """Stops the server and removes the temporary data folder it was started with."""
        if self.process is not None:
            self._terminate(self.process)
            self.process = None
        log = getattr(self, "_log", None)
        if log is not None:
            log.close()
        if getattr(self, "_owned_dir", False):
            shutil.rmtree(self.data_dir, ignore_errors=True)

    def __enter__(self) -> "SiwaServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the demo ------------------------------------------------------------------------------

    @property
    def issuer(self) -> str:
        return self.demo["issuer"]

    @property
    def team_id(self) -> str:
        return self.demo["team_id"]

    @property
    def key_id(self) -> str:
        return self.demo["key_id"]

    @property
    def services_id(self) -> str:
        return self.demo["services_id"]

    @property
    def bundle_id(self) -> str:
        return self.demo["bundle_id"]

    @property
    def private_key_pem(self) -> str:
        """The demo key's ``AuthKey_<KeyID>.p8`` (PEM), for libraries that mint their own secrets."""
        return Path(self.demo["key_file"]).read_text()

    @property
    def users(self) -> List[Dict[str, Any]]:
        """The demo Apple IDs with their passwords."""
        return self.demo["users"]

    @property
    def authorize_url(self) -> str:
        return self.url + "/auth/authorize"

    @property
    def token_url(self) -> str:
        return self.url + "/auth/token"

    @property
    def keys_url(self) -> str:
        return self.url + "/auth/keys"

    # -- helpers -------------------------------------------------------------------------------

    def reset(self) -> None:
        """Back to the seeded state: the demo team, apps, keys and Apple IDs, nothing else."""
        self.admin.reset_server()

    def client_secret(self, client_id: Optional[str] = None, lifetime: str = "1h", audience: str = "https://appleid.apple.com") -> str:
        """An ES256 client secret signed with the demo key (``siwa secret``)."""
        answer = subprocess.run(
            [self.binary, "secret", "--team-id", self.team_id, "--key-id", self.key_id, "--key", self.demo["key_file"],
             "--client-id", client_id or self.services_id, "--lifetime", lifetime, "--audience", audience],
            check=True, capture_output=True, text=True,
        )
        return answer.stdout.strip()

    def add_return_url(self, url: str, client_id: Optional[str] = None) -> None:
        """Registers ``url`` as a Return URL of the demo Services ID (a reset removes it)."""
        self.admin.add_return_url(client_id or self.services_id, url)

    def authorize(
        self,
        apple_id: Optional[str] = None,
        *,
        client_id: Optional[str] = None,
        redirect_uri: Optional[str] = None,
        scope: Optional[str] = "name email",
        state: Optional[str] = None,
        nonce: Optional[str] = None,
        response_type: str = "code id_token",
        response_mode: Optional[str] = None,
        code_challenge: Optional[str] = None,
        code_challenge_method: Optional[str] = None,
        hide_email: Optional[bool] = None,
        first_name: Optional[str] = None,
        last_name: Optional[str] = None,
    ) -> Authorization:
        """Approves an authorization without a browser as ``apple_id`` (the first demo Apple ID by
        default) and answers what the Return URL would receive: ``code``, ``id_token``, ``state`` and,
        on the first authorization, ``user``."""
        order: Dict[str, Any] = {
            "client_id": client_id or self.services_id,
            "redirect_uri": redirect_uri or self.demo["return_urls"][0],
            "apple_id": apple_id or self.users[0]["apple_id"],
            "response_type": response_type,
        }
        if scope:
            order["scope"] = scope
            order["response_mode"] = response_mode or "form_post"
        elif response_mode:
            order["response_mode"] = response_mode
        for name, value in [("state", state), ("nonce", nonce), ("code_challenge", code_challenge), ("code_challenge_method", code_challenge_method),
                            ("hide_email", hide_email), ("first_name", first_name), ("last_name", last_name)]:
            if value is not None:
                order[name] = value
        results = self.admin.authorize_headless(order)["results"]
        params = results[0]
        if "error" in params:
            raise RuntimeError(f"authorization refused: {params}")
        return Authorization.from_params(params)

    def create_apple_id(self, apple_id: str, password: str = "test password", **fields: Any) -> Account:
        """Adds an Apple ID (``first_name``, ``last_name``, ``email``, ``real_user_status``, ...)."""
        return self.admin.create_user({"apple_id": apple_id, "password": password, **fields})  # type: ignore[typeddict-item]

    def stop_using(self, apple_id: str, group_id: Optional[str] = None) -> None:
        """The user stops using Sign in with Apple with the app group (a consent-revoked notification follows)."""
        self.admin.stop_using_app(apple_id, group_id or self.bundle_id)

    def delete_apple_id(self, apple_id: str) -> None:
        """Deletes the Apple ID as its user would (an account-delete notification follows)."""
        self.admin.delete_user(apple_id)

    def mailbox(self, address: Optional[str] = None, wait: Optional[float] = None) -> List[MailSummary]:
        """The private relay's messages (to ``address``, newest first); ``wait`` long-polls for one."""
        return self.admin.list_mail(to=address, wait=wait)

    def mail(self, id: str) -> MailDetail:
        return self.admin.get_mail(id)

    def advance_clock(self, seconds: float) -> None:
        """Moves the server's clock (negative goes back); a reset puts it back."""
        self.admin.advance_clock(seconds)

    def reset_clock(self) -> None:
        self.admin.reset_clock()


def _tail(log: Any, size: int = 4000) -> str:
    try:
        log.flush()
        log.seek(0, os.SEEK_END)
        end = log.tell()
        log.seek(max(0, end - size))
        return log.read().decode(errors="replace")
    except (OSError, ValueError):
        return "(no output)"
