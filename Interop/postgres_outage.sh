#!/usr/bin/env bash
# PostgreSQL outage against a real siwa server (issue 13): the server answers 503 with Retry-After while
# the database is down (never hangs), recovers by itself once PostgreSQL is back (no server restart),
# and a SIGTERM while the database is down ends the process within a bound.
#
# It stops and starts the PostgreSQL cluster it is given: point it at a cluster nothing else needs
# at that moment.
#
# Usage:  SIWA_BIN=/path/to/siwa PG_CLUSTER="15 main" \
#         SIWA_DATABASE_URL=postgres://siwa:siwa@127.0.0.1:5432/siwa_outage?sslmode=disable \
#         bash Interop/postgres_outage.sh
# Environment:
#   READY_TIMEOUT=120   seconds to wait for the server to start answering
set -u -o pipefail

cd "$(dirname "$0")/.."
: "${SIWA_BIN:?set SIWA_BIN to the siwa binary}"
: "${PG_CLUSTER:?set PG_CLUSTER to the version and name of the cluster, e.g. 15 main}"
: "${SIWA_DATABASE_URL:?set SIWA_DATABASE_URL to the PostgreSQL URL}"
READY_TIMEOUT="${READY_TIMEOUT:-120}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
DATA_DIR="$(mktemp -d "${TMPDIR:-/tmp}/siwa-outage.XXXXXX")"
LOG="$DATA_DIR/server.log"
SERVER_PID=""
show_log() { echo "--- server log (last 30 lines)" >&2; tail -30 "$LOG" >&2; }
cleanup() {
    $SUDO pg_ctlcluster $PG_CLUSTER start 2>/dev/null || true
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then kill -KILL "$SERVER_PID" 2>/dev/null; fi
    rm -rf "$DATA_DIR"
}
trap cleanup EXIT
fail() {
    echo "postgres_outage.sh: FAIL: $*" >&2
    show_log
    exit 1
}

"$SIWA_BIN" serve --port "$PORT" --data-dir "$DATA_DIR" --database "$SIWA_DATABASE_URL" --database-wait 2s \
    --auto-approve first >"$LOG" 2>&1 &
SERVER_PID=$!
source Interop/wait_ready.sh
wait_until_ready postgres_outage.sh
ADMIN_TOKEN="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["admin_token"])' "$DATA_DIR/demo.json")"

# status SECONDS PATH: the HTTP status of GET PATH, 000 when no answer came within SECONDS.
status() {
    curl -s --noproxy '*' -o /dev/null -w '%{http_code}' --max-time "$1" \
        -H "Authorization: Bearer $ADMIN_TOKEN" "http://127.0.0.1:$PORT$2"
}
retry_after() {
    curl -s --noproxy '*' -o /dev/null -D - --max-time "$1" -H "Authorization: Bearer $ADMIN_TOKEN" "http://127.0.0.1:$PORT$2" |
        tr -d '\r' | awk -F': ' 'tolower($1) == "retry-after" { print $2 }'
}

[ "$(status 5 /admin/users)" = 200 ] || fail "the admin API did not answer 200 before the outage"

echo "== PostgreSQL restarted under the running server"
$SUDO pg_ctlcluster $PG_CLUSTER restart || fail "pg_ctlcluster restart failed"
answers=""
for _ in 1 2 3; do answers="$answers $(status 10 /admin/users)"; done
echo "   three requests after the restart:$answers"
if [[ "$answers" == *000* ]]; then fail "a request hung after the restart"; fi
last="${answers##* }"
[ "$last" = 200 ] || fail "the server did not recover after the restart: last answer $last"

echo "== PostgreSQL stopped: 503 with Retry-After, within the --database-wait"
$SUDO pg_ctlcluster $PG_CLUSTER stop || fail "pg_ctlcluster stop failed"
started=$SECONDS
down="$(status 10 /admin/users)"
echo "   /admin/users: $down after $((SECONDS - started)) s, Retry-After: $(retry_after 10 /admin/users)"
[ "$down" = 503 ] || fail "expected 503 while PostgreSQL is down, got $down"
[ "$(retry_after 10 /admin/users)" = 2 ] || fail "the 503 carries no Retry-After: 2"
[ "$(status 10 /health/ready)" = 503 ] || fail "/health/ready did not say 503"
[ "$(status 10 /auth/keys)" = 200 ] || fail "/auth/keys stopped answering"

echo "== PostgreSQL started again: the same server answers 200"
$SUDO pg_ctlcluster $PG_CLUSTER start || fail "pg_ctlcluster start failed"
recovered=""
for _ in $(seq 1 10); do
    recovered="$(status 10 /admin/users)"
    [ "$recovered" = 200 ] && break
    sleep 1
done
[ "$recovered" = 200 ] || fail "no recovery after PostgreSQL came back (last answer $recovered)"
metrics="$(curl -s --noproxy '*' --max-time 10 -H "Authorization: Bearer $ADMIN_TOKEN" "http://127.0.0.1:$PORT/metrics")"
echo "$metrics" | grep -E '^siwa_db_' | sed 's/^/   /'
echo "$metrics" | grep -q '^siwa_db_pool_max_connections 16' || fail "/metrics lacks the pool size"
echo "$metrics" | grep -Eq '^siwa_db_unavailable_total [1-9]' || fail "/metrics did not count the outage"

echo "== SIGTERM while PostgreSQL is down, with a request in flight: the process ends"
$SUDO pg_ctlcluster $PG_CLUSTER stop || fail "pg_ctlcluster stop failed"
status 30 /admin/users >/dev/null &
in_flight=$!
kill -TERM "$SERVER_PID"
started=$SECONDS
while kill -0 "$SERVER_PID" 2>/dev/null; do
    [ $((SECONDS - started)) -lt 20 ] || fail "still running 20 s after SIGTERM"
    sleep 0.2
done
echo "   ended $((SECONDS - started)) s after SIGTERM"
wait "$in_flight" 2>/dev/null || true
SERVER_PID=""
echo "postgres_outage.sh: PASS"
