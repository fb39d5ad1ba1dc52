#!/usr/bin/env python3
"""The server at scale: /auth/token and /auth/authorize with a large database against a small one.

Usage (see Benchmarks/README.md; scale-benchmark.sh builds and calls this):
    python3 Benchmarks/scale_benchmark.py --siwa BIN [--users 1000000] [--grants 10] [--duration 10s]
        [--connections 32] [--codes 20000] [--postgres-small URL --postgres-large URL]

For each of two databases, "small" (1,000 Apple IDs with one grant each) and "large" (--users Apple IDs
with --grants grants and refresh tokens each), it starts `siwa serve --auto-approve first` once (the demo
seed), stops it, adds the synthetic users with `siwa bench seed` (timed), starts the server again, loads
POST /auth/token (token.lua, each code once) and GET /auth/authorize (authorize.lua) with wrk, and prints
the query plan of every query on those paths (SQLite: EXPLAIN QUERY PLAN on the database file;
PostgreSQL: EXPLAIN). Then a summary: rates, p99, seeding time, database size, and large/small ratios
(goal >= 0.9). Only 2xx (token) and 3xx (authorize) answers count. It measures; it does not judge.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent

# The statements the store runs for a code exchange and a headless authorization (SQLStore+*.swift),
# with literal values. A plan that scans one of these tables instead of searching an index fails.
PATH_QUERIES = [
    ("redeem the code (one statement; the grant is then read by its key)",
     "UPDATE authorization_codes SET consumed_at = 1 WHERE code_hash = 'x' AND consumed_at IS NULL AND client_id = 'c' "
     "AND redirect_uri IS NOT DISTINCT FROM 'r' AND code_challenge IS NOT DISTINCT FROM NULL AND expires_at > 0 "
     "AND EXISTS (SELECT 1 FROM grants WHERE grants.id = authorization_codes.grant_id AND grants.revoked_at IS NULL) "
     "RETURNING *"),
    ("consume the code (step by step, after a refusal)",
     "UPDATE authorization_codes SET consumed_at = 1 WHERE code_hash = 'x' AND consumed_at IS NULL"),
    ("read the code", "SELECT * FROM authorization_codes WHERE code_hash = 'x' LIMIT 1"),
    ("read the grant", "SELECT * FROM grants WHERE id = 'bench-1-0' LIMIT 1"),
    ("read a token", "SELECT * FROM tokens WHERE token_hash = 'x' LIMIT 1"),
    ("revoke a grant's tokens' grant", "UPDATE grants SET revoked_at = 1 WHERE id = 'x' AND revoked_at IS NULL"),
    ("revoke the user's grants for a group", "UPDATE grants SET revoked_at = 1 WHERE account_id = 'x' AND group_id = 'g' AND revoked_at IS NULL"),
    ("read the client", "SELECT * FROM clients WHERE id = 'x' LIMIT 1"),
    ("read the developer key", "SELECT * FROM developer_keys WHERE id = 'x' LIMIT 1"),
    ("find the Apple ID", "SELECT * FROM accounts WHERE apple_id = 'bench-1@bench.example.com' LIMIT 1"),
    ("read the account", "SELECT * FROM accounts WHERE id = 'bench-1' LIMIT 1"),
    ("read the team identity", "SELECT * FROM team_identities WHERE account_id = 'bench-1' AND team_id = 'T' LIMIT 1"),
    ("find a subject", "SELECT * FROM team_identities WHERE subject = 'x' LIMIT 1"),
    ("read the consent", "SELECT * FROM consents WHERE account_id = 'bench-1' AND group_id = 'g' LIMIT 1"),
    ("read the sign-in attempts", "SELECT * FROM sign_in_attempts WHERE account_id = 'bench-1' LIMIT 1"),
    ("read an interaction", "SELECT * FROM interactions WHERE id = 'x' LIMIT 1"),
    ("read a browser session", "SELECT * FROM browser_sessions WHERE id_hash = 'x' LIMIT 1"),
    ("trim the console's request log",
     "DELETE FROM request_log WHERE client_id = 'c' AND id NOT IN "
     "(SELECT id FROM request_log WHERE client_id = 'c' ORDER BY at DESC, id DESC LIMIT 50)"),
    # The hourly purge (PeriodicService.expiredRecordSweep) next to the load.
    ("purge expired access tokens", "DELETE FROM tokens WHERE expires_at < 1"),
    ("purge expired codes", "DELETE FROM authorization_codes WHERE expires_at < 1"),
    ("purge expired interactions", "DELETE FROM interactions WHERE expires_at < 1"),
]
BIG_TABLES = {"accounts", "grants", "tokens", "team_identities", "consents", "authorization_codes", "interactions"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def seconds(duration: str) -> int:
    units = {"s": 1, "m": 60, "h": 3600}
    return int(duration[:-1]) * units[duration[-1]] if duration[-1] in units else int(duration)


class Server:
    def __init__(self, siwa: str, data_dir: str, database: str | None, log: Path) -> None:
        self.siwa, self.data_dir, self.database, self.log = siwa, data_dir, database, log
        self.process: subprocess.Popen | None = None
        self.port = 0

    def start(self) -> None:
        self.port = free_port()
        args = [self.siwa, "serve", "--port", str(self.port), "--data-dir", self.data_dir, "--auto-approve", "first", "--log-level", "warning"]
        if self.database:
            args += ["--database", self.database]
        self.process = subprocess.Popen(args, stdout=self.log.open("ab"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/.well-known/openid-configuration", timeout=2)
                if (Path(self.data_dir) / "demo.json").stat().st_size > 0:
                    return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"the server did not start; its log: {self.log}")
            time.sleep(0.25)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def facts(self) -> dict:
        return json.loads((Path(self.data_dir) / "demo.json").read_text())


def mint_codes(server: Server, total: int) -> list[str]:
    facts = server.facts()
    codes: list[str] = []
    while len(codes) < total:
        body = json.dumps({
            "client_id": facts["services_id"], "redirect_uri": facts["return_urls"][0], "apple_id": facts["users"][0]["apple_id"],
            "count": min(1000, total - len(codes)),
        }).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{server.port}/admin/authorizations", data=body, method="POST",
            headers={"Authorization": "Bearer " + facts["admin_token"], "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as response:
            codes += [result["code"] for result in json.load(response)["results"]]
    return codes


def wrk(script: str, url: str, args: list[str], options: argparse.Namespace) -> dict[str, str]:
    command = ["wrk", "-t2", f"-c{options.connections}", f"-d{options.duration}", "--timeout", "10s", "-s", str(HERE / script), url, "--", *args]
    out = subprocess.run(command, capture_output=True, text=True, timeout=seconds(options.duration) + 120, check=True).stdout
    return dict(re.findall(r"^bench\.(\w+)=(.*)$", out, re.MULTILINE))


def database_size(data_dir: str, database: str | None) -> int:
    if database:
        out = subprocess.run(["psql", database, "-Atc", "select pg_database_size(current_database())"], capture_output=True, text=True, check=True)
        return int(out.stdout.strip())
    return sum(path.stat().st_size for path in Path(data_dir).glob("siwa.sqlite*"))


def explain(data_dir: str, database: str | None) -> list[str]:
    """One line per path query: its plan, and whether it searches an index."""
    lines = []
    for name, sql in PATH_QUERIES:
        if database:
            out = subprocess.run(["psql", database, "-Atc", "EXPLAIN " + sql], capture_output=True, text=True, check=True).stdout
            plan = " / ".join(line.strip() for line in out.splitlines() if line.strip())
            scanned = [table for table in BIG_TABLES if re.search(rf"Seq Scan on {table}\b", plan)]
        else:
            with sqlite3.connect(Path(data_dir) / "siwa.sqlite") as db:
                plan = " / ".join(row[-1] for row in db.execute("EXPLAIN QUERY PLAN " + sql))
            scanned = [table for table in BIG_TABLES if re.search(rf"\bSCAN {table}\b", plan)]
        lines.append(f"{'SCAN' if scanned else 'index'}  {name}: {plan}")
    return lines


def prepare(label: str, users: int, grants: int, database: str | None, options: argparse.Namespace, work: Path) -> dict:
    """The demo seed, then `siwa bench seed` (timed). Kept in `work`: a database prepared before is reused."""
    data_dir = work / label
    marker = data_dir / "seeded.json"
    if marker.exists():
        print(f"==> {label}: reusing the database seeded before ({marker})", file=sys.stderr)
        return json.loads(marker.read_text())
    server = Server(options.siwa, str(data_dir), database, work / f"{label}.log")
    print(f"==> {label}: first start (demo seed)", file=sys.stderr)
    server.start()
    server.stop()
    print(f"==> {label}: siwa bench seed --users {users} --grants {grants}", file=sys.stderr)
    started = time.monotonic()
    seed = [options.siwa, "bench", "seed", "--users", str(users), "--grants", str(grants), "--data-dir", str(data_dir)]
    subprocess.run(seed + (["--database", database] if database else []), check=True, timeout=6 * 3600)
    seeded = {"label": label, "users": users, "grants": users * grants, "seeding_s": time.monotonic() - started,
              "size": database_size(str(data_dir), database)}
    marker.write_text(json.dumps(seeded))
    return seeded


def measure(seeded: dict, database: str | None, options: argparse.Namespace, work: Path) -> dict:
    label = seeded["label"]
    data_dir = str(work / label)
    server = Server(options.siwa, data_dir, database, work / f"{label}.log")
    server.start()
    try:
        facts = server.facts()
        secret = subprocess.run(
            [options.siwa, "secret", "--team-id", facts["team_id"], "--key-id", facts["key_id"], "--key", facts["key_file"],
             "--client-id", facts["services_id"], "--lifetime", "1d"], capture_output=True, text=True, check=True).stdout.split()[-1]
        codes_file = work / f"{label}-codes.txt"
        codes_file.write_text("\n".join(mint_codes(server, options.codes)) + "\n")
        base = f"http://127.0.0.1:{server.port}"
        print(f"==> {label}: wrk POST /auth/token", file=sys.stderr)
        token = wrk("token.lua", base + "/auth/token", [str(codes_file), facts["services_id"], secret, facts["return_urls"][0], "2"], options)
        print(f"==> {label}: wrk GET /auth/authorize", file=sys.stderr)
        authorize = wrk("authorize.lua", base, [facts["services_id"], facts["return_urls"][0]], options)
    finally:
        server.stop()
    plans = explain(data_dir, database)
    return {**seeded, "token": token, "authorize": authorize, "plans": plans, "load": os.getloadavg()[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--siwa", required=True)
    parser.add_argument("--users", type=int, default=1_000_000)
    parser.add_argument("--grants", type=int, default=10)
    parser.add_argument("--duration", default="10s")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--codes", type=int, default=20_000)
    parser.add_argument("--postgres-small")
    parser.add_argument("--postgres-large")
    parser.add_argument("--work", help="keep the databases here and reuse them on the next run (default: a temporary folder)")
    parser.add_argument("--prepare-only", action="store_true", help="seed the databases into --work and stop")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="siwa-scale-") as directory:
        work = Path(options.work or directory)
        work.mkdir(parents=True, exist_ok=True)
        # Both databases are seeded first, so that the two measurements follow each other closely
        # (the machine's load changes over the minutes a large seed takes).
        seeded_small = prepare("small", 1000, 1, options.postgres_small, options, work)
        seeded_large = prepare("large", options.users, options.grants, options.postgres_large, options, work)
        if options.prepare_only:
            return 0
        small = measure(seeded_small, options.postgres_small, options, work)
        large = measure(seeded_large, options.postgres_large, options, work)
    print("\n=== scale benchmark summary ===")
    for run in (small, large):
        token, authorize = run["token"], run["authorize"]
        print(
            f"{run['label']}: load1={run['load']:.2f} apple_ids={run['users']} refresh_tokens={run['grants']} seeding_s={run['seeding_s']:.1f} "
            f"database_mib={run['size'] / 2**20:.1f} token_per_sec={token.get('ok_2xx_per_sec')} token_p99_ms={token.get('p99_ms')} "
            f"token_non_2xx={token.get('non_2xx')} authorize_per_sec={authorize.get('ok_per_sec')} authorize_p99_ms={authorize.get('p99_ms')} "
            f"authorize_others={authorize.get('others')}")
    for name, key in (("token", "ok_2xx_per_sec"), ("authorize", "ok_per_sec")):
        ratio = float(large[name].get(key, 0)) / max(float(small[name].get(key, 0)), 1e-9)
        print(f"ratio {name} large/small = {ratio:.2f} (goal >= 0.90: {'MET' if ratio >= 0.9 else 'NOT MET'})")
    print("query plans on the large database:")
    for line in large["plans"]:
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
