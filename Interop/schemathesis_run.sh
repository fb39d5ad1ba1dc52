#!/usr/bin/env bash
# The admin API against its own document, from outside: Schemathesis (PyPI) reads the served
# /admin/openapi.yaml and sends generated requests (examples, then fuzzing) with the admin token to a
# fresh `siwa serve`. Fails on a 5xx, a status the document does not list, a body outside its schema or
# a wrong content type. Bounded: a few examples per operation, one minute per run at most.
#
# Usage: SIWA_BIN=.build/debug/siwa bash Interop/schemathesis_run.sh [--examples N]
# The clock (it would move the server decades ahead) and the token faults (5xx by design) are left out.
set -euo pipefail
cd "$(dirname "$0")/.."
EXAMPLES=10
while [ "$#" -gt 0 ]; do
    case "$1" in
        --examples) shift; EXAMPLES="${1:?--examples needs a number}" ;;
        *) echo "schemathesis_run.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
if [ -z "${SIWA_BIN:-}" ]; then
    swift build --product siwa
    SIWA_BIN="$(swift build --show-bin-path)/siwa"
fi
VENV="${SIWA_SCHEMATHESIS_VENV:-/tmp/siwa-schemathesis-venv}"
if [ ! -x "$VENV/bin/st" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check schemathesis
fi

PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
DATA_DIR="$(mktemp -d "${TMPDIR:-/tmp}/siwa-schemathesis.XXXXXX")"
LOG="$DATA_DIR.log"
READY_TIMEOUT=120
show_log() { tail -n 40 "$LOG" >&2; }
# shellcheck source=Interop/wait_ready.sh
. Interop/wait_ready.sh
cleanup() {
    stop_in_background || true
    rm -rf "$DATA_DIR" "$LOG"
}
start_in_background "$SIWA_BIN" serve --port "$PORT" --data-dir "$DATA_DIR" --smtp-port 0
trap cleanup EXIT
wait_until_ready schemathesis_run.sh

TOKEN="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["admin_token"])' "$DATA_DIR/demo.json")"
DOCUMENT="$DATA_DIR/openapi.yaml"
curl -fsS --noproxy '*' -H "Authorization: Bearer $TOKEN" -o "$DOCUMENT" "http://127.0.0.1:$PORT/admin/openapi.yaml"
status=0
"$VENV/bin/st" --config-file Interop/schemathesis.toml run "$DOCUMENT" --url "http://127.0.0.1:$PORT" \
    -H "Authorization: Bearer $TOKEN" --max-examples "$EXAMPLES" --phases examples,fuzzing \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --exclude-path-regex '^/admin/(clock|faults)' --request-timeout 20 --seed 1 || status=$?
if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "schemathesis_run.sh: the server died during the run" >&2
    show_log
    exit 1
fi
exit $status
