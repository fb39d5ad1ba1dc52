#!/usr/bin/env bash
# The two-instance proof: two `siwa serve` processes on one PostgreSQL database, driven from
# outside by Interop/two_instances_check.py (one code redeemed once over both, a sign-in that moves
# between them, a key rotation seen by both, with --with-db-restart PostgreSQL restarted under load
# on both, kill -9 of one under token load).
#
# Usage:  SIWA_DATABASE_URL=postgres://siwa:siwa@127.0.0.1:5432/siwa_instances?sslmode=disable \
#             bash Interop/two_instances.sh [--with-db-restart]
#
#   --with-db-restart   also restart PostgreSQL under load (PG_RESTART_COMMAND) and expect both
#                       instances to recover on their own, with only outage-time requests failing (503)
#
# Environment:
#   SIWA_DATABASE_URL    an empty PostgreSQL database both instances share (required)
#   SIWA_BIN=/path/siwa  the binary to run (default: the package's debug build, built first)
#   PYTHON=python3       the Python interpreter (needs Interop/requirements.txt)
#   READY_TIMEOUT=120    seconds to wait for each instance to answer
#   KEEP_DATA=1          keep the data directories and logs
#   PG_CLUSTER           the cluster the default PG_RESTART_COMMAND restarts (e.g. "15 main")
#   PG_RESTART_COMMAND   how --with-db-restart restarts PostgreSQL (default: stop the cluster <newest> main,
#                        keep it down 6 s, start it, through sudo unless run as root: longer than the
#                        pool's 5 s wait, so that requests of the outage fail, with 503)
set -u -o pipefail

cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
READY_TIMEOUT="${READY_TIMEOUT:-120}"
WITH_DB_RESTART=0
for argument in "$@"; do
    case "$argument" in
        --with-db-restart) WITH_DB_RESTART=1 ;;
        *) echo "two_instances.sh: unknown argument $argument (only --with-db-restart)" >&2; exit 2 ;;
    esac
done
if [ -z "${SIWA_DATABASE_URL:-}" ]; then
    echo "two_instances.sh: set SIWA_DATABASE_URL to an empty PostgreSQL database" >&2
    exit 2
fi
if [ -z "${SIWA_BIN:-}" ]; then
    swift build -c debug --product siwa || { echo "two_instances.sh: swift build failed" >&2; exit 1; }
    SIWA_BIN="$(swift build -c debug --show-bin-path)/siwa"
fi

free_port() { "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
WORK="$(mktemp -d "${TMPDIR:-/tmp}/siwa-two-instances.XXXXXX")"
PIDS=()

cleanup() {
    for pid in "${PIDS[@]}"; do
        kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null
    done
    for pid in "${PIDS[@]}"; do
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    if [ "${KEEP_DATA:-0}" = "1" ]; then echo "two_instances.sh: kept $WORK" >&2; else rm -rf "$WORK"; fi
    # A run cut short between the default restart command's stop and start leaves the cluster running.
    if [ -n "${PG_START_COMMAND:-}" ]; then sh -c "$PG_START_COMMAND" >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Short intervals, so that the proof takes seconds: a rotation reaches the other instance within 2 s,
# a dead instance's delivery leases run out after 15 s.
start_instance() { # name port data-dir
    local args=(serve --port "$2" --data-dir "$3" --database "$SIWA_DATABASE_URL" --key-check-interval 2s --notification-lease 15s)
    echo "two_instances.sh: starting instance $1: $SIWA_BIN ${args[*]}"
    if command -v setsid >/dev/null 2>&1; then
        setsid "$SIWA_BIN" "${args[@]}" >"$WORK/$1.log" 2>&1 </dev/null &
    else
        "$SIWA_BIN" "${args[@]}" >"$WORK/$1.log" 2>&1 </dev/null &
    fi
    SERVER_PID=$!
    PIDS+=("$SERVER_PID")
    PORT="$2"
    DATA_DIR="$3"
    LOG="$WORK/$1.log"
    wait_until_ready two_instances.sh
}
show_log() {
    for name in a b; do
        [ -f "$WORK/$name.log" ] || continue
        echo "two_instances.sh: last lines of instance $name's log:" >&2
        tail -n 30 "$WORK/$name.log" >&2
    done
}

# shellcheck source=Interop/wait_ready.sh
. "$(dirname "$0")/wait_ready.sh"

# A seeds the database; B starts from a copy of A's data directory: the same storage key (the
# signing keys are sealed with it), demo facts and admin token.
start_instance a "$(free_port)" "$WORK/a"
PID_A="$SERVER_PID"
cp -R "$WORK/a" "$WORK/b"
start_instance b "$(free_port)" "$WORK/b"
PID_B="$SERVER_PID"
echo "two_instances.sh: instance a (pid $PID_A) and b (pid $PID_B) ready"

ARGS=(--data-a "$WORK/a" --data-b "$WORK/b" --pid-b "$PID_B" --lease 15 --key-check 2)
if [ "$WITH_DB_RESTART" = "1" ]; then
    if [ -z "${PG_RESTART_COMMAND:-}" ]; then
        PG_CTL="pg_ctlcluster"
        if [ "$(id -u)" -ne 0 ]; then PG_CTL="sudo pg_ctlcluster"; fi
        PG_CLUSTER="${PG_CLUSTER:-$(ls /usr/lib/postgresql | sort -n | tail -1) main}"
        PG_RESTART_COMMAND="$PG_CTL $PG_CLUSTER stop && sleep 6 && $PG_CTL $PG_CLUSTER start"
        PG_START_COMMAND="$PG_CTL $PG_CLUSTER start"
    fi
    ARGS+=(--db-restart-command "$PG_RESTART_COMMAND")
fi
"$PYTHON" Interop/two_instances_check.py "${ARGS[@]}"
status=$?
if [ "$status" -ne 0 ]; then show_log; fi
exit "$status"
