"""`siwa mail wait` on one instance sees mail that another instance's SMTP listener accepted.

Two `siwa serve` processes share one PostgreSQL database (B starts from a copy of A's data directory:
the same storage key and admin token). A registers example.com as an e-mail source of the demo team
and hands out a relay address; `siwa mail wait` asks B, then smtplib sends to A's listener. B's wait
must return with the message soon after A's 250, not at its timeout (B's own accepts would wake it
at once; A's are seen by re-reading the store).

Environment: SIWA_BIN (the siwa binary), SIWA_DATABASE_URL (an empty PostgreSQL database).
"""
import base64
import json
import os
import shutil
import smtplib
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from email.message import EmailMessage

SIWA = os.environ["SIWA_BIN"]
DATABASE = os.environ["SIWA_DATABASE_URL"]
WAIT_SECONDS = 60
# Generous for a loaded machine: without the re-read the wait returns only after WAIT_SECONDS.
MOST_AFTER_ACCEPT = 20.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(data: str, smtp_port: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    args = [SIWA, "serve", "--port", str(port), "--data-dir", data, "--database", DATABASE, "--smtp-port", str(smtp_port)]
    process = subprocess.Popen(args, stdout=open(os.path.join(data, "server.log"), "ab"), stderr=subprocess.STDOUT)
    for _ in range(240):
        if process.poll() is not None:
            raise AssertionError(f"siwa serve exited; see {data}/server.log")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/.well-known/openid-configuration", timeout=2)
            return process, port
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"siwa serve did not start; see {data}/server.log")


def main() -> int:
    work = tempfile.mkdtemp(prefix="siwa-mail-wait.")
    processes = []
    try:
        a_data, b_data = os.path.join(work, "a"), os.path.join(work, "b")
        os.makedirs(a_data)
        a_smtp = free_port()
        process, a_port = start(a_data, a_smtp)
        processes.append(process)
        facts = json.load(open(os.path.join(a_data, "demo.json")))
        shutil.copytree(a_data, b_data, ignore=shutil.ignore_patterns("server.log"))
        process, b_port = start(b_data, 0)
        processes.append(process)

        def admin(method: str, path: str, body=None):
            request = urllib.request.Request(
                f"http://127.0.0.1:{a_port}{path}", method=method, data=json.dumps(body).encode() if body is not None else None,
                headers={"Authorization": "Bearer " + facts["admin_token"], "Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=60) as response:
                text = response.read()
                return json.loads(text) if text else {}

        admin("POST", f"/admin/teams/{facts['team_id']}/email-sources", {"sources": "example.com"})
        order = {"client_id": facts["services_id"], "redirect_uri": facts["return_urls"][0], "response_type": "code id_token",
                 "response_mode": "form_post", "scope": "name email", "apple_id": facts["users"][0]["apple_id"], "hide_email": True}
        payload = admin("POST", "/admin/authorizations", order)["results"][0]["id_token"].split(".")[1]
        relay = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["email"]

        waiter = subprocess.Popen(
            [SIWA, "mail", "wait", "--to", relay, "--timeout", f"{WAIT_SECONDS}s", "--server", f"http://127.0.0.1:{b_port}",
             "--admin-token", facts["admin_token"]], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        # Let B begin waiting first: a wait that starts after the accept finds the message at once
        # and proves nothing.
        time.sleep(3)
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = "news@example.com", relay, "Seen by the other instance"
        message.set_content("Hello.\n")
        with smtplib.SMTP("127.0.0.1", a_smtp, timeout=30) as smtp:
            smtp.send_message(message)
        accepted = time.monotonic()
        out, err = waiter.communicate(timeout=WAIT_SECONDS + 30)
        waited = time.monotonic() - accepted
        assert waiter.returncode == 0, f"siwa mail wait exited {waiter.returncode}: {err.decode()}"
        subjects = [m["subject"] for m in json.loads(out)["messages"]]
        assert subjects == ["Seen by the other instance"], subjects
        assert waited < MOST_AFTER_ACCEPT, f"the wait on B returned {waited:.1f} s after A accepted the message"
        print(f"mail_wait_instances: siwa mail wait on instance B returned {waited:.2f} s after instance A accepted the message")
        return 0
    finally:
        for process in processes:
            process.kill()
            process.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
