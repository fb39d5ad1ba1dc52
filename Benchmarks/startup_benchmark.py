"""Start-up time of `siwa serve`: from exec to the first 200 of the discovery document.

For each binary given, alternately (so that a busy machine weighs on each alike), RUNS times:
a start on a fresh data directory, stopped with SIGTERM, then a restart on that same directory.
Prints each run and the median, min and max per binary and kind. Measures; never judges: the exit
status is 0 whenever the measurement could be made.

    python3 Benchmarks/startup_benchmark.py [--runs 7] BIN [BIN ...]
"""

import argparse
import http.client
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

START_TIMEOUT = 60.0
POLL_INTERVAL = 0.002


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def discovery_ok(port: int) -> bool:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        connection.request("GET", "/.well-known/openid-configuration")
        status = connection.getresponse().status
        connection.close()
        return status == 200
    except OSError:
        return False


def start(binary: str, data_dir: str, log) -> tuple[float, subprocess.Popen]:
    """Seconds from exec to the first 200, and the running server."""
    port = free_port()
    command = [binary, "serve", "--port", str(port), "--data-dir", data_dir, "--smtp-port", "0", "--log-level", "warning"]
    began = time.perf_counter()
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    while True:
        if discovery_ok(port):
            return time.perf_counter() - began, server
        if server.poll() is not None:
            raise RuntimeError(f"{binary} exited with {server.returncode} during start-up (log: {log.name})")
        if time.perf_counter() - began > START_TIMEOUT:
            server.kill()
            raise RuntimeError(f"{binary} not ready after {START_TIMEOUT} s (log: {log.name})")
        time.sleep(POLL_INTERVAL)


def stop(server: subprocess.Popen) -> None:
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("binaries", nargs="+")
    options = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="siwa-startup-")
    times: dict[tuple[str, str], list[float]] = {}
    try:
        with open(os.path.join(scratch, "server.log"), "w") as log:
            for run in range(1, options.runs + 1):
                for binary in options.binaries:
                    data_dir = os.path.join(scratch, f"data-{run}")
                    shutil.rmtree(data_dir, ignore_errors=True)
                    fresh, server = start(binary, data_dir, log)
                    stop(server)
                    restart, server = start(binary, data_dir, log)
                    stop(server)
                    shutil.rmtree(data_dir, ignore_errors=True)
                    times.setdefault((binary, "fresh"), []).append(fresh)
                    times.setdefault((binary, "restart"), []).append(restart)
                    print(f"run {run}: {binary}: fresh {fresh * 1000:.0f} ms, restart {restart * 1000:.0f} ms", flush=True)
        print()
        print(f"{'binary':<60} {'kind':<8} {'median':>8} {'min':>8} {'max':>8}  (ms, {options.runs} runs, load {os.getloadavg()[0]:.1f})")
        for (binary, kind), values in times.items():
            ms = [v * 1000 for v in values]
            print(f"{binary:<60} {kind:<8} {statistics.median(ms):8.0f} {min(ms):8.0f} {max(ms):8.0f}")
        print("goals: fresh <= 300 ms, restart <= 150 ms (median)")
    except RuntimeError as error:
        print(f"ERROR: {error}", file=sys.stderr)
        shutil.copy(os.path.join(scratch, "server.log"), "/tmp/siwa-startup-server.log")
        print("server output kept in /tmp/siwa-startup-server.log", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
