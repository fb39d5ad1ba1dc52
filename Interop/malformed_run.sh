#!/usr/bin/env bash
# Malformed-request load: start a real siwa server (headless, fresh data directory, free loopback
# port, as Interop/run.sh does), run Interop/malformed_load.py against it, stop the server, and
# exit with the load's status. The server must also still be running at the end.
#
# Usage:  bash Interop/malformed_run.sh [--seed N] [--count N] [--seconds S]
#         (the arguments go to malformed_load.py; default 2,000 requests, seed 1)
#
# Environment:
#   SIWA_BIN=/path/to/siwa   run that binary (nothing is built); otherwise the debug siwa is built
#   PYTHON=python3           the Python interpreter (the load uses the standard library only)
#   KEEP_DATA=1              keep the temporary data directory and server log
#   READY_TIMEOUT=120        seconds to wait for the server to start answering
set -u -o pipefail

cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
READY_TIMEOUT="${READY_TIMEOUT:-120}"

if [ -n "${SIWA_BIN:-}" ]; then
    SERVER=("$SIWA_BIN")
else
    swift build -c debug --product siwa || {
        echo "malformed_run.sh: swift build failed" >&2
        exit 1
    }
    SERVER=("$(swift build -c debug --show-bin-path)/siwa")
fi

PORT="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
DATA_DIR="$(mktemp -d "${TMPDIR:-/tmp}/siwa-malformed.XXXXXX")"
LOG="$(mktemp "${TMPDIR:-/tmp}/siwa-malformed-log.XXXXXX")"
SERVER_PID=""

cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null
        for _ in $(seq 1 50); do
            kill -0 "$SERVER_PID" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL "$SERVER_PID" 2>/dev/null
        wait "$SERVER_PID" 2>/dev/null
    fi
    if [ "${KEEP_DATA:-0}" = "1" ]; then
        echo "malformed_run.sh: kept data dir $DATA_DIR and server log $LOG" >&2
    else
        rm -rf "$DATA_DIR" "$LOG"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

show_log() {
    echo "malformed_run.sh: last lines of the server log ($LOG):" >&2
    tail -n 40 "$LOG" >&2
}

echo "malformed_run.sh: starting ${SERVER[*]} serve --port $PORT --data-dir $DATA_DIR"
"${SERVER[@]}" serve --port "$PORT" --data-dir "$DATA_DIR" >"$LOG" 2>&1 </dev/null &
SERVER_PID=$!

# shellcheck source=Interop/wait_ready.sh
. "$(dirname "$0")/wait_ready.sh"
wait_until_ready malformed_run.sh

"$PYTHON" Interop/malformed_load.py --data-dir "$DATA_DIR" "$@"
status=$?
if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "malformed_run.sh: FAIL the server is no longer running" >&2
    status=1
fi
if [ "$status" -ne 0 ]; then
    show_log
fi
exit "$status"
