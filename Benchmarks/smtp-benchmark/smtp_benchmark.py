#!/usr/bin/env python3
"""The relay's throughput (issue 21): CLIENTS concurrent SMTP clients send MESSAGES messages of SIZE
bytes to relay addresses of a fresh `siwa serve` (SIWA_BIN; SQLite, built-in mailboxes), each
answered 250 only once stored. Prints accepted messages per second, p50/p99 per message (MAIL to the
250 after DATA), the server's CPU time per message (user and system, /proc/PID/stat, over the load
only), and the server's resident memory (now and peak). Enough Apple IDs are made that no
relay address passes its daily limit of 100.

Usage: SIWA_BIN=.build/release/siwa python3 Benchmarks/smtp-benchmark/smtp_benchmark.py [--clients 8 --messages 5000 --size 10240]
"""
import argparse
import base64
import json
import os
import smtplib
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid: int) -> tuple[int, int]:
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def cpu_seconds(pid: int) -> float:
    """The process's user and system CPU time so far (/proc/PID/stat, fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def send_load(smtp_port: int, addresses: list[str], args) -> tuple[list[float], list[str], float]:
    """CLIENTS connections send MESSAGES messages of SIZE bytes, each to addresses[n // 100]; returns
    the sorted latencies (MAIL to the 250 after DATA), the failures and the elapsed time."""
    body = ("x" * 76 + "\r\n") * (args.size // 78)
    latencies: list[float] = []
    failures: list[str] = []
    lock = threading.Lock()

    def client(worker: int):
        mine = []
        with smtplib.SMTP("127.0.0.1", smtp_port, timeout=60) as smtp:
            smtp.ehlo("bench")
            for n in range(worker, args.messages, args.clients):
                to = addresses[n // 100]
                message = f"From: news@example.com\r\nTo: {to}\r\nSubject: bench {n}\r\n\r\n{body}".encode()
                started = time.perf_counter()
                smtp.mail("news@example.com")
                code, text = smtp.rcpt(to)
                if code != 250:
                    failures.append(f"RCPT {code} {text!r}")
                    smtp.rset()
                    continue
                code, text = smtp.data(message)
                if code != 250:
                    failures.append(f"DATA {code} {text!r}")
                mine.append(time.perf_counter() - started)
        with lock:
            latencies.extend(mine)

    started = time.perf_counter()
    threads = [threading.Thread(target=client, args=(w,)) for w in range(args.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    latencies.sort()
    return latencies, failures, elapsed


def report(name: str, latencies: list[float], failures: list[str], elapsed: float, args) -> None:
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
    print(f"{name}: clients={args.clients} messages={args.messages} size={args.size} B accepted={len(latencies) - len(failures)} failures={len(failures)}")
    print(f"{name}: throughput {len(latencies) / elapsed:.0f} msgs/s over {elapsed:.1f} s; latency p50 {p(0.50):.1f} ms, p99 {p(0.99):.1f} ms")


def baseline(args) -> None:
    """The same load against aiosmtpd's Sink (it keeps nothing) in a process of its own: what this
    machine's clients and loopback can do, to read the relay's numbers against."""
    port = free_port()
    sink = subprocess.Popen(["python3", "-m", "aiosmtpd", "-n", "-c", "aiosmtpd.handlers.Sink", "-l", f"127.0.0.1:{port}"])
    try:
        deadline = time.time() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.time() > deadline:
                    raise SystemExit("aiosmtpd did not start")
                time.sleep(0.2)
        addresses = [f"sink{n}@example.org" for n in range((args.messages + 99) // 100)]
        latencies, failures, elapsed = send_load(port, addresses, args)
        report("baseline (aiosmtpd Sink)", latencies, failures, elapsed, args)
    finally:
        sink.terminate()
        sink.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--size", type=int, default=10 * 1024)
    parser.add_argument("--baseline", action="store_true", help="then the same load against aiosmtpd's Sink")
    args = parser.parse_args()
    siwa = os.environ.get("SIWA_BIN", ".build/release/siwa")
    http_port, smtp_port = free_port(), free_port()
    data = tempfile.mkdtemp(prefix="siwa-smtp-bench-")
    log = open(os.path.join(data, "server.log"), "wb")
    server = subprocess.Popen([siwa, "serve", "--port", str(http_port), "--smtp-port", str(smtp_port), "--data-dir", data,
                               "--log-level", "warning"], stdout=log, stderr=log)
    try:
        while True:
            if server.poll() is not None:
                raise SystemExit("siwa serve exited; see " + log.name)
            try:
                if os.path.exists(os.path.join(data, "demo.json")):
                    socket.create_connection(("127.0.0.1", http_port), timeout=1).close()
                    socket.create_connection(("127.0.0.1", smtp_port), timeout=1).close()
                    break
            except OSError:
                pass
            time.sleep(0.2)
        facts = json.load(open(os.path.join(data, "demo.json")))

        def admin(method, path, body):
            request = urllib.request.Request(f"http://127.0.0.1:{http_port}{path}", method=method, data=json.dumps(body).encode(),
                                             headers={"Authorization": "Bearer " + facts["admin_token"], "Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.loads(response.read() or b"{}")

        admin("POST", f"/admin/teams/{facts['team_id']}/email-sources", {"sources": "example.com"})
        addresses = []
        for index in range((args.messages + 99) // 100):
            apple_id = f"bench{index}@example.net"
            admin("POST", "/admin/users", {"apple_id": apple_id, "password": "bench password 1", "first_name": "B", "last_name": "N"})
            order = {"client_id": facts["services_id"], "redirect_uri": facts["return_urls"][0], "response_type": "code id_token",
                     "response_mode": "form_post", "scope": "name email", "apple_id": apple_id, "hide_email": True}
            token = admin("POST", "/admin/authorizations", order)["results"][0]["id_token"]
            payload = token.split(".")[1]
            addresses.append(json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["email"])

        cpu_before = cpu_seconds(server.pid)
        latencies, failures, elapsed = send_load(smtp_port, addresses, args)
        cpu = cpu_seconds(server.pid) - cpu_before
        rss, peak = rss_kib(server.pid)
        report("siwa relay", latencies, failures, elapsed, args)
        # CPU per message: a figure of the server alone, which the client sharing the machine moves less.
        print(f"siwa relay: server CPU {cpu:.2f} s for {len(latencies)} messages: cpu_us_per_message {cpu * 1e6 / max(1, len(latencies)):.0f}")
        print(f"siwa relay: server RSS: {rss / 1024:.0f} MiB now, {peak / 1024:.0f} MiB peak")
        if failures:
            print("first failures:", failures[:3])
    finally:
        server.terminate()
        server.wait(timeout=30)
    if args.baseline:
        baseline(args)
    return 0 if not failures else 1


if __name__ == "__main__":
    raise SystemExit(main())
