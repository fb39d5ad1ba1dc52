# Sourced by the Interop scripts that start `siwa serve` in the background (start_in_background below).
# Waits until the server at $PORT answers discovery and its $DATA_DIR/demo.json exists; on a server
# that exits or never answers within $READY_TIMEOUT seconds it shows the log (show_log) and exits 1.
# Needs: PORT, SERVER_PID, DATA_DIR, READY_TIMEOUT, show_log; $1 names the calling script.
wait_until_ready() {
    local name="$1"
    local url="http://127.0.0.1:$PORT/.well-known/openid-configuration"
    local deadline=$((SECONDS + READY_TIMEOUT))
    until curl -fsS --noproxy '*' --max-time 2 -o /dev/null "$url" 2>/dev/null; do
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            echo "$name: the server exited before answering" >&2
            show_log
            exit 1
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "$name: the server did not answer $url within ${READY_TIMEOUT}s" >&2
            show_log
            exit 1
        fi
        sleep 0.5
    done
    # demo.json is written once the socket listens; allow a moment for it to land.
    for _ in $(seq 1 20); do
        [ -s "$DATA_DIR/demo.json" ] && break
        sleep 0.25
    done
}

# Starts "$@" in the background with its output in $LOG, in its own process group when setsid exists
# (so that a wrapper such as `swift run` and the server stop together); sets SERVER_PID.
start_in_background() {
    if command -v setsid >/dev/null 2>&1; then
        setsid "$@" >"$LOG" 2>&1 </dev/null &
    else
        "$@" >"$LOG" 2>&1 </dev/null &
    fi
    SERVER_PID=$!
}

# Stops what start_in_background started: SIGTERM to its process group (or the process), 5 s to go,
# then SIGKILL. Needs: SERVER_PID (empty: nothing to stop).
stop_in_background() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM -- "-$SERVER_PID" 2>/dev/null || kill -TERM "$SERVER_PID" 2>/dev/null
        for _ in $(seq 1 50); do
            kill -0 "$SERVER_PID" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL -- "-$SERVER_PID" 2>/dev/null || kill -KILL "$SERVER_PID" 2>/dev/null
        wait "$SERVER_PID" 2>/dev/null
    fi
}
