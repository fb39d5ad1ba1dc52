#!/usr/bin/env bash
# The admin API's OpenAPI document, proven from another language: start `siwa serve` on a free
# loopback port with a fresh data directory, fetch GET /admin/openapi.yaml with the admin token from
# demo.json, check it is the document kept in the repository, validate it (openapi-spec-validator),
# generate a Python client from it (openapi-python-client) and run Interop/openapi_client_check.py,
# which adds an Apple ID and runs a headless authorization through the generated client.
#
# Usage:  bash Interop/openapi_client.sh
#
# Environment:
#   SIWA_BIN=/path/to/siwa   run "$SIWA_BIN serve ..." instead of building the package's debug `siwa`
#   SKIP_PIP=1               do not pip-install Interop/openapi_requirements.txt
#   PYTHON=python3           the Python interpreter to use
#   KEEP_DATA=1              keep the temporary folder (data, log, generated client)
#   READY_TIMEOUT=120        seconds to wait for the server to start answering
set -u -o pipefail

cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
READY_TIMEOUT="${READY_TIMEOUT:-120}"
DOCUMENT=Sources/AppleIDServer/OpenAPI/openapi.yaml

if [ "${SKIP_PIP:-0}" != "1" ]; then
    "$PYTHON" -m pip install --quiet --disable-pip-version-check -r Interop/openapi_requirements.txt || {
        echo "openapi_client.sh: pip install of Interop/openapi_requirements.txt failed" >&2
        exit 1
    }
fi

# shellcheck source=Interop/wait_ready.sh
. "$(dirname "$0")/wait_ready.sh"
if [ -z "${SIWA_BIN:-}" ]; then
    swift build -c debug --product siwa || exit 1
    SIWA_BIN="$(swift build -c debug --show-bin-path)/siwa"
fi

PORT="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/siwa-openapi.XXXXXX")"
DATA_DIR="$WORK/data"
LOG="$WORK/server.log"
mkdir -p "$DATA_DIR"
SERVER_PID=""

cleanup() {
    stop_in_background
    if [ "${KEEP_DATA:-0}" = "1" ]; then echo "openapi_client.sh: kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

show_log() {
    echo "openapi_client.sh: last lines of the server log ($LOG):" >&2
    tail -n 40 "$LOG" >&2
}

echo "openapi_client.sh: starting $SIWA_BIN serve --port $PORT --data-dir $DATA_DIR"
start_in_background "$SIWA_BIN" serve --port "$PORT" --data-dir "$DATA_DIR"
wait_until_ready openapi_client.sh

TOKEN="$("$PYTHON" -c 'import json, sys; print(json.load(open(sys.argv[1]))["admin_token"])' "$DATA_DIR/demo.json")"
SERVED="$WORK/openapi.yaml"
curl -fsS --noproxy '*' --max-time 10 -H "Authorization: Bearer $TOKEN" -o "$SERVED" "http://127.0.0.1:$PORT/admin/openapi.yaml" || {
    echo "openapi_client.sh: FAIL GET /admin/openapi.yaml with the admin token" >&2
    exit 1
}
cmp -s "$SERVED" "$DOCUMENT" || {
    echo "openapi_client.sh: FAIL the served document differs from $DOCUMENT" >&2
    exit 1
}
"$PYTHON" -m openapi_spec_validator "$SERVED" || {
    echo "openapi_client.sh: FAIL openapi-spec-validator refused the document" >&2
    exit 1
}
(cd "$WORK" && "$PYTHON" -m openapi_python_client generate --path "$SERVED" --meta none --output-path siwa_admin_client) || {
    echo "openapi_client.sh: FAIL openapi-python-client could not generate a client" >&2
    exit 1
}
"$PYTHON" Interop/openapi_client_check.py --data-dir "$DATA_DIR" --client-dir "$WORK"
status=$?
if [ "$status" -ne 0 ]; then show_log; fi
exit "$status"
