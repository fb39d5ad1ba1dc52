#!/usr/bin/env bash
# Starts `siwa serve` from the given binary on a free loopback port and reads its start-up notice: the
# server must run Swift Concurrency's jobs on NIO's event loops (issue 38). The packaged binary is linked
# with the static Swift runtime, whose hook NIO's `dlsym` cannot see; `CSwiftConcurrencyHook` sets it
# through the linker, and this checks that it still does.
#
#   bash Packaging/check-event-loop-tasks.sh .build/static-debug/siwa
set -euo pipefail
BIN="${1:?usage: check-event-loop-tasks.sh PATH/TO/siwa}"
work="$(mktemp -d)"
pid=""
cleanup() {
    [ -z "$pid" ] || kill "$pid" 2>/dev/null || true
    [ -z "$pid" ] || wait "$pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$BIN" serve --port "$port" --data-dir "$work/data" >"$work/log" 2>&1 &
pid=$!
for _ in $(seq 600); do
    grep -q "tasks_on_event_loops=" "$work/log" && break
    kill -0 "$pid" 2>/dev/null || { cat "$work/log" >&2; echo "siwa serve ended before its start-up notice" >&2; exit 1; }
    sleep 0.1
done
line="$(grep "tasks_on_event_loops=" "$work/log" || true)"
echo "$line"
case "$line" in
    *tasks_on_event_loops=true*) echo "ok: $BIN runs its tasks on NIO's event loops" ;;
    "") echo "$BIN gave no start-up notice of where its tasks run in 60 s" >&2; exit 1 ;;
    *) echo "$BIN does not run its tasks on NIO's event loops" >&2; exit 1 ;;
esac
