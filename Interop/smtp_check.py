#!/usr/bin/env python3
"""The private relay against real peers (issue 21): Python's smtplib as the client, aiosmtpd as the
smarthost. Starts `siwa serve` itself (SIWA_BIN) with --smtp-port and --smtp-smarthost, and checks:
forward, reply both ways (the app never sees the real address), unregistered sender 550, bounce
(RFC 3464 DSN back to the sender), forwarding off 550, the daily limit (4xx naming 100), and kill -9
durability (every message answered 250 is in a mailbox or the queue after the restart).

Usage: SIWA_BIN=.build/debug/siwa python3 Interop/smtp_check.py
"""
import base64
import email.policy
import json
import os
import signal
import smtplib
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from email.message import EmailMessage

from aiosmtpd.controller import Controller

SIWA = os.environ.get("SIWA_BIN", ".build/debug/siwa")
SENDER = "news@example.com"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Smarthost:
    """Accepts everything but mail to `refused`, which it answers 550 (a bounce for the relay)."""

    def __init__(self):
        self.received: list[tuple[str, list[str], bytes]] = []
        self.refused: set[str] = set()
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, options):
        if address.lower() in self.refused:
            return "550 5.1.1 <%s>: mailbox unavailable" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.received.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content or envelope.content))
        return "250 Message accepted"

    def wait_for(self, predicate, seconds=20.0):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self.lock:
                found = [m for m in self.received if predicate(m)]
            if found:
                return found[0]
            time.sleep(0.1)
        raise AssertionError("the smarthost received no matching message")


class Server:
    def __init__(self, smarthost_port: int):
        self.http_port, self.smtp_port = free_port(), free_port()
        self.data = tempfile.mkdtemp(prefix="siwa-smtp-")
        self.smarthost_port = smarthost_port
        self.process = None

    def start(self):
        log = open(os.path.join(self.data, "server.log"), "ab")
        self.process = subprocess.Popen(
            [SIWA, "serve", "--port", str(self.http_port), "--data-dir", self.data, "--smtp-port", str(self.smtp_port),
             "--smtp-smarthost", f"127.0.0.1:{self.smarthost_port}", "--auto-approve", "first"],
            stdout=log, stderr=log)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with open(os.path.join(self.data, "demo.json")) as f:
                    self.facts = json.load(f)
                with socket.create_connection(("127.0.0.1", self.smtp_port), timeout=1):
                    pass
                # The SMTP and HTTP listeners start side by side: ready when both answer.
                with urllib.request.urlopen(f"http://127.0.0.1:{self.http_port}/auth/keys", timeout=2):
                    return
            except (OSError, ValueError):
                if self.process.poll() is not None:
                    raise AssertionError("siwa serve exited; see " + log.name)
                time.sleep(0.2)
        raise AssertionError("siwa serve did not start")

    def log_tail(self, lines: int = 40) -> str:
        try:
            with open(os.path.join(self.data, "server.log"), errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return "(no server log)"

    def admin(self, method, path, body=None, timeout=30):
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.http_port}{path}", method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={"Authorization": "Bearer " + self.facts["admin_token"], "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read()
            return json.loads(text) if text else {}

    def relay_address(self, apple_id: str) -> str:
        facts = self.facts
        order = {"client_id": facts["services_id"], "redirect_uri": facts["return_urls"][0], "response_type": "code id_token",
                 "response_mode": "form_post", "scope": "name email", "apple_id": apple_id, "hide_email": True}
        token = self.admin("POST", "/admin/authorizations", order)["results"][0]["id_token"]
        payload = token.split(".")[1]
        return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["email"]

    def smtp(self) -> smtplib.SMTP:
        return smtplib.SMTP("127.0.0.1", self.smtp_port, timeout=30)


def message(sender: str, to: str, subject: str, body: str = "Hello from the app.\n") -> EmailMessage:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = sender, to, subject
    m.set_content(body)
    return m


def expect_refused(server: Server, sender: str, to: str, code: int, text: str):
    with server.smtp() as smtp:
        try:
            smtp.send_message(message(sender, to, "refused?"))
        except smtplib.SMTPRecipientsRefused as error:
            got_code, got_text = error.recipients[to]
            assert got_code == code and text in got_text.decode(), (got_code, got_text)
            return
    raise AssertionError(f"mail from {sender} to {to} was accepted")


def main() -> int:
    smarthost = Smarthost()
    controller = Controller(smarthost, hostname="127.0.0.1", port=free_port())
    controller.start()
    server = Server(controller.port)
    server.start()
    try:
        users = server.facts["users"]
        maria, other = users[0], users[1]
        team = server.facts["team_id"]
        server.admin("POST", f"/admin/teams/{team}/email-sources", {"sources": "example.com"})
        relay = server.relay_address(maria["apple_id"])
        print("relay address:", relay)

        # 1. Forward: smtplib → relay address → the smarthost, to the real address, from an alias.
        with server.smtp() as smtp:
            smtp.send_message(message(SENDER, relay, "Your order"))
        forwarded = smarthost.wait_for(lambda m: maria["email"].lower() in [r.lower() for r in m[1]])
        alias = forwarded[0]
        assert alias.endswith("@" + relay.split("@")[1]) and alias.startswith("news_at_example_com_"), alias
        assert f"<{alias}>".encode() in forwarded[2], "From is rewritten to the alias"
        print("1. forward: ok, from", alias)
        waited = subprocess.run([SIWA, "mail", "wait", "--to", relay, "--timeout", "10s", "--data-dir", server.data],
                                capture_output=True, text=True, timeout=30)
        assert waited.returncode == 0 and "Your order" in waited.stdout, waited.stderr
        print("   siwa mail wait: ok")

        # 2. Reply: the user's real address → the alias → the original sender, from the relay address.
        with server.smtp() as smtp:
            smtp.send_message(message(maria["email"], alias, "Re: Your order", "Thanks!\n"))
        reply = smarthost.wait_for(lambda m: SENDER in m[1])
        assert reply[0] == relay, reply[0]
        assert maria["email"].lower().encode() not in reply[2].lower(), "the app never sees the real address"
        print("2. reply routed back from", reply[0], "without the real address")

        # 3. Unregistered sender.
        expect_refused(server, "spam@elsewhere.test", relay, 550, "Sender not registered for this relay")
        print("3. unregistered sender: 550")

        # 3b. Bare LF in DATA (RFC 5321 §2.3.8): refused, as Postfix's smtpd_forbid_bare_newline does.
        with server.smtp() as smtp:
            smtp.ehlo()
            smtp.mail(SENDER)
            assert smtp.rcpt(relay)[0] == 250
            code, text = smtp.data(b"Subject: bare\n\nline\n")
            assert code == 550 and b"bare CR or LF" in text, (code, text)
        print("3b. bare LF in DATA: 550 5.5.2")

        # 4. Bounce: the smarthost refuses the other user's real address; the sender gets a DSN.
        smarthost.refused.add(other["email"].lower())
        other_relay = server.relay_address(other["apple_id"])
        with server.smtp() as smtp:
            smtp.send_message(message("shop@example.com", other_relay, "Will bounce"))
        dsn = smarthost.wait_for(lambda m: "shop@example.com" in m[1])
        assert dsn[0] == "<>" or dsn[0] == "", dsn[0]
        assert b"multipart/report" in dsn[2] and b"message/delivery-status" in dsn[2], dsn[2][:400]
        assert other["email"].lower().encode() not in dsn[2].lower(), "the DSN does not reveal the real address"
        print("4. bounce: DSN delivered to the sender")

        # 5. Forwarding off → refused; on again.
        server.admin("POST", f"/admin/users/{maria['apple_id']}/relay-forwarding", {"team_id": team, "enabled": False})
        expect_refused(server, SENDER, relay, 550, "turned off forwarding")
        server.admin("POST", f"/admin/users/{maria['apple_id']}/relay-forwarding", {"team_id": team, "enabled": True})
        print("5. forwarding off: 550")

        # 6. kill -9 under load: every message answered 250 is kept.
        durable_relay = server.relay_address(users[2]["apple_id"]) if len(users) > 2 else other_relay
        accepted: list[str] = []
        stop = threading.Event()

        def load():
            while not stop.is_set():
                try:
                    with server.smtp() as smtp:
                        while not stop.is_set() and len(accepted) < 90:
                            smtp.ehlo()
                            smtp.mail(SENDER)
                            code, _ = smtp.rcpt(durable_relay)
                            if code != 250:
                                return
                            code, text = smtp.data(message(SENDER, durable_relay, "load").as_bytes(policy=email.policy.SMTP))
                            if code == 250:
                                accepted.append(text.decode().rsplit(" ", 1)[-1])
                except (OSError, smtplib.SMTPException):
                    return

        threads = [threading.Thread(target=load) for _ in range(4)]
        for t in threads:
            t.start()
        while len(accepted) < 20:
            time.sleep(0.01)
        server.process.send_signal(signal.SIGKILL)
        server.process.wait()
        stop.set()
        for t in threads:
            t.join()
        server.start()
        missing = []
        for message_id in accepted:
            try:
                server.admin("GET", f"/admin/mail/{message_id}")
            except urllib.error.HTTPError:
                missing.append(message_id)
        assert not missing, f"{len(missing)} of {len(accepted)} accepted messages lost: {missing[:5]}"
        print(f"6. kill -9: all {len(accepted)} messages answered 250 are kept")

        # 7. The daily limit (last: it uses up the address for a day).
        # Forwards and replies count together: send until refused, which must be within 100.
        sent, refusal = 0, None
        with server.smtp() as smtp:
            while refusal is None and sent <= 100:
                try:
                    smtp.send_message(message(SENDER, relay, "counting"))
                    sent += 1
                except smtplib.SMTPRecipientsRefused as error:
                    refusal = error.recipients[relay]
        assert refusal and refusal[0] == 452 and b"Daily limit of 100 messages" in refusal[1], refusal
        forwards = len(server.admin("GET", "/admin/mail?" + urllib.parse.urlencode({"to": relay, "limit": 1000}))["messages"])
        assert forwards + 1 == 100, f"{forwards} forwards and 1 reply before the limit"
        print(f"7. daily limit: 452 after 100 (this run sent {sent} more)")
        print("smtp_check: all checks passed")
        return 0
    except BaseException:
        alive = server.process is not None and server.process.poll() is None
        print(f"smtp_check failed; the server is {'running' if alive else 'not running (exit %s)' % server.process.returncode}; "
              "the end of its log:\n" + server.log_tail(), file=sys.stderr)
        raise
    finally:
        if server.process and server.process.poll() is None:
            server.process.terminate()
            server.process.wait(timeout=30)
        controller.stop()


if __name__ == "__main__":
    import urllib.error
    import urllib.parse
    sys.exit(main())
