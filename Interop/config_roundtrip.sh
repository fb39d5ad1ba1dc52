#!/usr/bin/env bash
# Environments as code, proven with the real binary (issue 26's "done when"):
#   1. two fresh data directories started from one file (siwa.example.yaml) write the same demo.json,
#      admin token aside: the same Team ID, Key ID, client IDs and Apple ID subs every time;
#   2. `siwa config export` round-trips: export, start a fresh server from the export, export again,
#      and the two exports are identical.
# The file started from is CONFIG with the README's organization example added (a school and its
# Managed Apple IDs, whose subs must match too), and a quirk is set through the admin API before
# the first export, so that organizations and quirks go round as well.
# The servers run one after the other on one free loopback port (demo.json names the server's URL).
#
# Usage:  bash Interop/config_roundtrip.sh
#
# Environment:
#   SIWA_BIN=/path/to/siwa   the binary (default: build the package's debug `siwa`)
#   CONFIG=siwa.example.yaml the declaration file to start from
#   KEEP_DATA=1              keep the temporary folder       READY_TIMEOUT=120  seconds to wait for a start
set -u -o pipefail

cd "$(dirname "$0")/.."
READY_TIMEOUT="${READY_TIMEOUT:-120}"
CONFIG="${CONFIG:-siwa.example.yaml}"

# shellcheck source=Interop/wait_ready.sh
. "$(dirname "$0")/wait_ready.sh"
if [ -z "${SIWA_BIN:-}" ]; then
    swift build -c debug --product siwa || exit 1
    SIWA_BIN="$(swift build -c debug --show-bin-path)/siwa"
fi

PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/siwa-config.XXXXXX")"
SERVER_PID=""
LOG=""

cleanup() {
    stop_in_background
    if [ "${KEEP_DATA:-0}" = "1" ]; then echo "config_roundtrip.sh: kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

show_log() {
    echo "config_roundtrip.sh: last lines of the server log ($LOG):" >&2
    tail -n 40 "$LOG" >&2
}

fail() {
    echo "config_roundtrip.sh: FAIL: $*" >&2
    exit 1
}

# start NAME FILE: a fresh data directory $WORK/NAME served from FILE (the SMTP listener off: the
# servers take turns on one port, and none of this needs mail).
start() {
    DATA_DIR="$WORK/$1"
    LOG="$WORK/$1.log"
    mkdir -p "$DATA_DIR"
    start_in_background "$SIWA_BIN" serve --port "$PORT" --data-dir "$DATA_DIR" --smtp-port 0 --config "$2"
    wait_until_ready config_roundtrip.sh
}

stop() {
    stop_in_background
    SERVER_PID=""
}

# demo.json without its admin token, keys sorted: what two starts from one file must share. The key
# file is named by its path in each data directory: only its name (AuthKey_<Key ID>.p8) is compared.
identities() {
    python3 -c 'import json, os, sys
demo = json.load(open(sys.argv[1]))
demo.pop("admin_token", None)
if "key_file" in demo:
    demo["key_file"] = os.path.basename(demo["key_file"])
print(json.dumps(demo, indent=1, sort_keys=True))' "$1/demo.json"
}

# Each Apple ID's sub in each team, from GET /admin/users of the running server.
subjects() {
    local token
    token="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["admin_token"])' "$DATA_DIR/demo.json")"
    curl -fsS --noproxy '*' --max-time 10 -H "Authorization: Bearer $token" "http://127.0.0.1:$PORT/admin/users" |
        python3 -c 'import json, sys
users = json.load(sys.stdin)["users"]
for user in sorted(users, key=lambda u: u["apple_id"]):
    for subject in sorted(user.get("subjects", []), key=lambda s: s["team_id"]):
        print(user["apple_id"], subject["team_id"], subject["sub"])'
}

# CONFIG and the README's ```yaml block that declares organizations.
python3 - "$CONFIG" README.md >"$WORK/siwa.yaml" <<'PY' || fail "cannot compose the file from $CONFIG and the README's organization example"
import sys
config = open(sys.argv[1]).read()
blocks = open(sys.argv[2]).read().split("```yaml\n")
example = next(block.split("```")[0] for block in blocks if block.startswith("organizations:"))
print(config.rstrip("\n") + "\n\n" + example, end="")
PY
grep -q "^organizations:" "$CONFIG" && cp "$CONFIG" "$WORK/siwa.yaml"

start first "$WORK/siwa.yaml"
subjects >"$WORK/first.subs" || fail "GET /admin/users failed"
stop
start second "$WORK/siwa.yaml"
subjects >"$WORK/second.subs" || fail "GET /admin/users failed"
identities "$WORK/first" >"$WORK/first.identities"
identities "$WORK/second" >"$WORK/second.identities"
if ! diff -u "$WORK/first.identities" "$WORK/second.identities"; then
    fail "two fresh starts from $CONFIG wrote different demo.json (admin token aside)"
fi
[ -s "$WORK/first.subs" ] || fail "GET /admin/users names no sub: nothing to compare"
diff -u "$WORK/first.subs" "$WORK/second.subs" || fail "two fresh starts from $CONFIG gave different subs"
echo "config_roundtrip.sh: two fresh starts from $CONFIG and the README's organizations: the same demo.json ($(wc -l <"$WORK/first.identities") lines), admin token aside, and the same $(wc -l <"$WORK/first.subs") subs:"
cat "$WORK/first.subs"

admin_token="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["admin_token"])' "$DATA_DIR/demo.json")"
web_client="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["services_id"])' "$DATA_DIR/demo.json")"
curl -fsS --noproxy '*' --max-time 10 -X PUT -H "Authorization: Bearer $admin_token" -H 'Content-Type: application/json' \
    -d '{"booleans_as_strings":true,"id_token_lifetime":600}' "http://127.0.0.1:$PORT/admin/clients/$web_client/quirks" ||
    fail "PUT /admin/clients/$web_client/quirks failed"
"$SIWA_BIN" config export --data-dir "$WORK/second" >"$WORK/export1.yaml" || fail "siwa config export failed"
for key in "org_id:" "username:" "booleans_as_strings: true"; do
    grep -q "$key" "$WORK/export1.yaml" || fail "the export lacks $key"
done
stop
[ -s "$WORK/export1.yaml" ] || fail "the first export is empty"
start third "$WORK/export1.yaml"
"$SIWA_BIN" config export --data-dir "$WORK/third" >"$WORK/export2.yaml" || fail "the second siwa config export failed"
stop
# Each export writes a fresh random seed (and the comment above it): the rest must be identical.
grep -q '^seed: ' "$WORK/export1.yaml" || fail "the export has no seed"
grep -v -e '^seed: ' -e '^#' "$WORK/export1.yaml" >"$WORK/export1.noseed"
grep -v -e '^seed: ' -e '^#' "$WORK/export2.yaml" >"$WORK/export2.noseed"
if ! diff -u "$WORK/export1.noseed" "$WORK/export2.noseed"; then
    fail "export, a fresh start from it, and export again differ"
fi
echo "config_roundtrip.sh: export → fresh start → export: identical ($(wc -l <"$WORK/export1.yaml") lines)"
echo "config_roundtrip.sh: PASS"
