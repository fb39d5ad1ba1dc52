#!/usr/bin/env bash
# Interoperability check: start the siwa server in headless mode on a free
# loopback port with a fresh data directory, run Interop/interop_check.py
# (Authlib + PyJWT, from PyPI) against it, stop the server, and exit with the
# check's status.
#
# Usage:  bash Interop/run.sh            (no arguments)
#
# Environment:
#   SIWA_BIN=/path/to/siwa   run "$SIWA_BIN serve ..." instead of building and
#                            running the package's debug `siwa` with SwiftPM
#   SKIP_PIP=1               do not pip-install Interop/requirements.txt
#   PYTHON=python3           the Python interpreter to use
#   KEEP_DATA=1              keep the temporary data directory and server log
#   READY_TIMEOUT=120        seconds to wait for the server to start answering
#   SIWA_DATABASE_URL=postgres://…   run the server on this PostgreSQL database
#
# Assumptions about the server (see interop_check.py for the wire contract):
#   * `siwa serve --port P --data-dir D --auto-approve first` listens on
#     http://127.0.0.1:P and writes D/demo.json at start-up.
#   * `--auto-approve first` takes the literal `first` to mean "the first demo
#     user" (the Apple ID is only known once demo.json exists, i.e. after start).
#   * The server serves GET /.well-known/openid-configuration once it is ready,
#     and stops on SIGTERM.
set -u -o pipefail

cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
READY_TIMEOUT="${READY_TIMEOUT:-120}" # seconds to wait for the server to answer

if [ "${SKIP_PIP:-0}" != "1" ]; then
    "$PYTHON" -m pip install -q -r Interop/requirements.txt || {
        echo "run.sh: pip install of Interop/requirements.txt failed" >&2
        exit 1
    }
fi

if [ -n "${SIWA_BIN:-}" ]; then
    SERVER=("$SIWA_BIN")
else
    # Build first (not bounded by READY_TIMEOUT), then run without rebuilding.
    swift build -c debug --product siwa || {
        echo "run.sh: swift build failed" >&2
        exit 1
    }
    SERVER=(swift run -c debug --skip-build siwa)
fi

PORT="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
DATA_DIR="$(mktemp -d "${TMPDIR:-/tmp}/siwa-interop.XXXXXX")"
LOG="$(mktemp "${TMPDIR:-/tmp}/siwa-interop-log.XXXXXX")"
SERVER_PID=""

# shellcheck source=Interop/wait_ready.sh
. "$(dirname "$0")/wait_ready.sh"

cleanup() {
    stop_in_background
    if [ "${KEEP_DATA:-0}" = "1" ]; then
        echo "run.sh: kept data dir $DATA_DIR and server log $LOG" >&2
    else
        rm -rf "$DATA_DIR" "$LOG"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

show_log() {
    echo "run.sh: last lines of the server log ($LOG):" >&2
    tail -n 40 "$LOG" >&2
}

ARGS=(serve --port "$PORT" --data-dir "$DATA_DIR" --auto-approve first)
if [ -n "${SIWA_DATABASE_URL:-}" ]; then ARGS+=(--database "$SIWA_DATABASE_URL"); fi
echo "run.sh: starting ${SERVER[*]} ${ARGS[*]}"
if command -v setsid >/dev/null 2>&1; then
    setsid "${SERVER[@]}" "${ARGS[@]}" >"$LOG" 2>&1 </dev/null &
else
    "${SERVER[@]}" "${ARGS[@]}" >"$LOG" 2>&1 </dev/null &
fi
SERVER_PID=$!

wait_until_ready run.sh

echo "run.sh: server ready on port $PORT"
"$PYTHON" Interop/interop_check.py --data-dir "$DATA_DIR"
status=$?
if [ -n "${SIWA_BIN:-}" ]; then
    echo "run.sh: the siwa admin verbs against the same server"
    "$PYTHON" Interop/admin_verbs_check.py --siwa "$SIWA_BIN" --data-dir "$DATA_DIR" || status=1
fi
if [ "$status" -ne 0 ]; then
    show_log
fi
exit "$status"
