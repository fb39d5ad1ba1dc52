#!/usr/bin/env bash
# The check target (Interop/check_target/, a Flask app with switchable flaws) against a real siwa server:
# start `siwa serve` on a free loopback port with a fresh data directory, register the app's Return URL
# and notification endpoint through the admin API, then
#   - when `siwa check` exists: run it once with no flaw (no check may fail) and once per flaw (the
#     flaw's checks must fail, nothing outside its declared set may) -- Interop/check_target/run_check.py;
#   - otherwise: say so and run the self-test, Interop/check_target_selftest.py, which signs in through
#     the app headlessly (admin API) and shows each flaw real and the others untouched.
# Exits non-zero when a run is not as expected.
#
# Usage:  bash Interop/check_target.sh [--self-test] [--app authlib|allauth] [--flaw FLAW_NAME ...]
#   --self-test    run the self-test even when `siwa check` exists
#   --app authlib  check Interop/check_target/authlib_app.py, Flask with Authlib as its documentation shows
#   --app allauth  check Interop/check_target/allauth_app.py, Django with django-allauth's Apple provider
#                  (default: the tutorial app, app.py; the self-test knows only that one)
#   --flaw NAME    only this flaw (repeatable; the check mode then skips the no-flaw run)
#
# Environment:
#   SIWA_BIN=/path/to/siwa   the binary (default: the package's debug build, built first)
#   PYTHON=python3           the interpreter (needs Interop/requirements.txt)
#   SKIP_PIP=1               do not pip-install Interop/requirements.txt
#   READY_TIMEOUT=120        seconds to wait for the server to answer
#   KEEP_DATA=1              keep the data directory and the logs
set -u -o pipefail

cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
READY_TIMEOUT="${READY_TIMEOUT:-120}"
MODE=auto
FLAWS=()
APP=tutorial
while [ "$#" -gt 0 ]; do
    case "$1" in
        --self-test) MODE=self-test ;;
        --flaw) shift; FLAWS+=(--flaw "${1:?--flaw needs a name}") ;;
        --app) shift; APP="${1:?--app needs a name}" ;;
        *) echo "check_target.sh: unknown argument $1 (--self-test, --app authlib|allauth, --flaw NAME)" >&2; exit 2 ;;
    esac
    shift
done

if [ "${SKIP_PIP:-0}" != "1" ]; then
    "$PYTHON" -m pip install -q -r Interop/requirements.txt || { echo "check_target.sh: pip install failed" >&2; exit 1; }
fi
if [ -z "${SIWA_BIN:-}" ]; then
    swift build -c debug --product siwa || { echo "check_target.sh: swift build failed" >&2; exit 1; }
    SIWA_BIN="$(swift build -c debug --show-bin-path)/siwa"
fi

free_port() { "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
PORT="$(free_port)"
APP_PORT="$(free_port)"
DATA_DIR="$(mktemp -d "${TMPDIR:-/tmp}/siwa-check-target.XXXXXX")"
LOG="$DATA_DIR.log"
SERVER_PID=""

cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM -- "-$SERVER_PID" 2>/dev/null || kill -TERM "$SERVER_PID" 2>/dev/null
        for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL -- "-$SERVER_PID" 2>/dev/null || kill -KILL "$SERVER_PID" 2>/dev/null
        wait "$SERVER_PID" 2>/dev/null
    fi
    if [ "${KEEP_DATA:-0}" = "1" ]; then echo "check_target.sh: kept $DATA_DIR and $LOG" >&2; else rm -rf "$DATA_DIR" "$LOG"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
show_log() {
    echo "check_target.sh: last lines of the server log ($LOG):" >&2
    tail -n 40 "$LOG" >&2
}

# No --auto-approve: sign-ins are approved per request through the admin API, as `siwa check` does.
ARGS=(serve --port "$PORT" --data-dir "$DATA_DIR")
echo "check_target.sh: starting $SIWA_BIN ${ARGS[*]}"
# shellcheck source=Interop/wait_ready.sh
. "$(dirname "$0")/wait_ready.sh"
start_in_background "$SIWA_BIN" "${ARGS[@]}"
wait_until_ready check_target.sh
echo "check_target.sh: server ready on port $PORT; the Flask app runs on port $APP_PORT"

# `siwa check --help` exits 0 even where the verb is missing (the top-level help): look for its options.
if [ "$MODE" = auto ] && "$SIWA_BIN" check --help 2>&1 | grep -q -- "--probe"; then
    "$PYTHON" Interop/check_target/run_check.py --siwa "$SIWA_BIN" --data-dir "$DATA_DIR" --app-port "$APP_PORT" --app "$APP" "${FLAWS[@]}"
elif [ "$APP" != tutorial ]; then
    echo "check_target.sh: the self-test knows only the tutorial app; --app $APP needs \`siwa check\`" >&2
    false
else
    [ "$MODE" = auto ] && echo "check_target.sh: this siwa has no \`check\` verb yet; running the self-test instead"
    "$PYTHON" Interop/check_target_selftest.py --data-dir "$DATA_DIR" --app-port "$APP_PORT" "${FLAWS[@]}"
fi
status=$?
if [ "$status" -ne 0 ]; then show_log; fi
exit "$status"
