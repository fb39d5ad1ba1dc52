#!/usr/bin/env bash
# Browser test: builds siwa and juice, starts both on free loopback ports with fresh data folders,
# and drives Juice's sign-in through the Apple ID pages in headless Chromium (BrowserTest/juice_signin.py).
# The screenshot of the signed-in page is saved to .build/artifacts/juice-signed-in.png.
# BrowserTest/juice_mail.py then orders with a hidden address and finds Juice's confirmation at the
# relay address in the Apple ID's mailbox page, replies from it (the reply must reach Juice's sender through the relay), turns forwarding off on /account and orders again; screenshots in .build/artifacts/mail/.
# Then BrowserTest/apple_id_pages.py screenshots every Apple ID page of siwa in several locales
# (PAGE_LOCALES, default en,cs,de,ja,ar: Arabic right to left) into .build/artifacts/pages/, and BrowserTest/school_pages.py
# the demo school's "at Work & School" pages (SCHOOL_LOCALES, default en,de) beside them. Then BrowserTest/signin_js.py drives the server's
# Sign in with Apple JS from a relying-party page of its own (Apple's documentation page among them) and
# screenshots the button gallery into .build/artifacts/button-gallery*.png.
# Last, BrowserTest/console_web_client.py follows the talk in the developer console (/console): a new
# Services ID whose Return URL is the script's own page, a key downloaded once, a sign-in through it,
# and the Requests page explaining a wrong client secret, a test notification to the script's own
# endpoint, e-mail sources checked against the script's DNS responder (siwa serve --dns-resolver),
# a colleague invited on the Team page who accepts with a password of their own and changes it; its screenshots go to .build/artifacts/console/.
# BrowserTest/console_locales.py then screenshots every console page again in CONSOLE_LOCALES (default ja,ar).
# Last, BrowserTest/account_mail.py sends mail with smtplib to a relay address (siwa serve --smtp-port) and
# watches it appear in /account/mail without a reload, opens it and replies; screenshots in .build/artifacts/mailbox/ (PARTS name: mailbox).
#
# Environment: SKIP_BUILD=1 (use the built binaries), PYTHON, PAGE_LOCALES, CONSOLE_LOCALES, READY_TIMEOUT (seconds, default 120),
# TEST_TIMEOUT (seconds for the browser part, default 180), KEEP_DATA=1, PARTS (which parts run, of
# juice,mail,pages,mailbox,school,js,console; default all of them), SCHOOL_LOCALES.
set -u -o pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
# Nothing leaves the machine: Selenium Manager offline and without statistics (juice_signin.py's
# chromium_driver sets the same, and gives the local chromedriver).
export SE_OFFLINE=true SE_AVOID_STATS=true
READY_TIMEOUT="${READY_TIMEOUT:-120}"
TEST_TIMEOUT="${TEST_TIMEOUT:-180}"
SCREENSHOT="$PWD/.build/artifacts/juice-signed-in.png"

if [ "${SKIP_BUILD:-0}" != "1" ]; then
    swift build --product siwa && swift build --product juice || { echo "run.sh: swift build failed" >&2; exit 1; }
fi
BIN="$(swift build --show-bin-path)"

free_port() { "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
SIWA_PORT="$(free_port)"
JUICE_PORT="$(free_port)"
DNS_PORT="$(free_port)"
SMTP_PORT="$(free_port)"
SIWA_DATA="$(mktemp -d "${TMPDIR:-/tmp}/juice-browser-siwa.XXXXXX")"
JUICE_DATA="$(mktemp -d "${TMPDIR:-/tmp}/juice-browser-data.XXXXXX")"
SIWA_PID=""
JUICE_PID=""

stop() {
    local pid="$1"
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
}
cleanup() {
    stop "$JUICE_PID"
    stop "$SIWA_PID"
    if [ "${KEEP_DATA:-0}" = "1" ]; then echo "run.sh: kept $SIWA_DATA and $JUICE_DATA" >&2; else rm -rf "$SIWA_DATA" "$JUICE_DATA"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

wait_for() { # URL PID NAME LOG
    local deadline=$((SECONDS + READY_TIMEOUT))
    until curl -fsS --noproxy '*' --max-time 2 -o /dev/null "$1" 2>/dev/null; do
        if ! kill -0 "$2" 2>/dev/null; then echo "run.sh: $3 exited before answering" >&2; tail -n 40 "$4" >&2; exit 1; fi
        if [ "$SECONDS" -ge "$deadline" ]; then echo "run.sh: $3 did not answer within ${READY_TIMEOUT}s" >&2; tail -n 40 "$4" >&2; exit 1; fi
        sleep 0.5
    done
}

# The console's SPF check asks the browser test's own DNS responder (console_web_client.py binds it).
"$BIN/siwa" serve --port "$SIWA_PORT" --smtp-port "$SMTP_PORT" --data-dir "$SIWA_DATA" --dns-resolver "127.0.0.1:$DNS_PORT" >"$SIWA_DATA/siwa.log" 2>&1 </dev/null &
SIWA_PID=$!
wait_for "http://127.0.0.1:$SIWA_PORT/.well-known/openid-configuration" "$SIWA_PID" "siwa serve" "$SIWA_DATA/siwa.log"
for _ in $(seq 1 20); do [ -s "$SIWA_DATA/demo.json" ] && break; sleep 0.25; done

"$BIN/juice" --port "$JUICE_PORT" --smtp-port "$SMTP_PORT" --siwa-data-dir "$SIWA_DATA" --data-dir "$JUICE_DATA" >"$JUICE_DATA/juice.log" 2>&1 </dev/null &
JUICE_PID=$!
wait_for "http://127.0.0.1:$JUICE_PORT/" "$JUICE_PID" "juice" "$JUICE_DATA/juice.log"
echo "run.sh: siwa on $SIWA_PORT, juice on $JUICE_PORT"

PARTS=",${PARTS:-juice,mail,pages,mailbox,school,js,console},"
runs() { [[ "$PARTS" == *",$1,"* ]]; }
status=0
if runs juice; then
    timeout "$TEST_TIMEOUT" "$PYTHON" BrowserTest/juice_signin.py --juice "http://127.0.0.1:$JUICE_PORT" --siwa-data-dir "$SIWA_DATA" \
        --screenshot "$SCREENSHOT"
    status=$?
fi
if [ "$status" -eq 0 ] && runs mail; then
    rm -rf "$PWD/.build/artifacts/mail"
    timeout "$TEST_TIMEOUT" "$PYTHON" BrowserTest/juice_mail.py --juice "http://127.0.0.1:$JUICE_PORT" --siwa "http://127.0.0.1:$SIWA_PORT" \
        --siwa-data-dir "$SIWA_DATA" --siwa-bin "$BIN/siwa" --juice-log "$JUICE_DATA/juice.log" --out "$PWD/.build/artifacts/mail"
    status=$?
fi
if [ "$status" -eq 0 ] && runs pages; then
    rm -rf "$PWD/.build/artifacts/pages"
    # Each locale waits for fresh two-factor windows (about a minute): the time limit grows with their number.
    PAGE_LOCALES="${PAGE_LOCALES:-en,cs,de,ja,ar}"
    timeout "$((TEST_TIMEOUT * (2 + $(tr -cd , <<<"$PAGE_LOCALES" | wc -c) / 2)))" "$PYTHON" BrowserTest/apple_id_pages.py --siwa "http://127.0.0.1:$SIWA_PORT" --siwa-data-dir "$SIWA_DATA" \
        --out "$PWD/.build/artifacts/pages" --locales "$PAGE_LOCALES"
    status=$?
fi
if [ "$status" -eq 0 ] && runs school; then
    mkdir -p "$PWD/.build/artifacts/pages"
    timeout "$TEST_TIMEOUT" "$PYTHON" BrowserTest/school_pages.py --siwa "http://127.0.0.1:$SIWA_PORT" --siwa-data-dir "$SIWA_DATA" \
        --out "$PWD/.build/artifacts/pages" --locales "${SCHOOL_LOCALES:-en,de}"
    status=$?
fi
if [ "$status" -eq 0 ] && runs js; then
    timeout "$((TEST_TIMEOUT * 2))" "$PYTHON" BrowserTest/signin_js.py --siwa "http://127.0.0.1:$SIWA_PORT" --siwa-data-dir "$SIWA_DATA" \
        --artifacts "$PWD/.build/artifacts"
    status=$?
fi
if [ "$status" -eq 0 ] && runs console; then
    rm -rf "$PWD/.build/artifacts/console"
    timeout "$TEST_TIMEOUT" "$PYTHON" BrowserTest/console_web_client.py --siwa "http://127.0.0.1:$SIWA_PORT" --siwa-data-dir "$SIWA_DATA" \
        --out "$PWD/.build/artifacts/console" --dns-port "$DNS_PORT"
    status=$?
    if [ "$status" -eq 0 ]; then
        timeout "$TEST_TIMEOUT" "$PYTHON" BrowserTest/console_locales.py --siwa "http://127.0.0.1:$SIWA_PORT" --siwa-data-dir "$SIWA_DATA" \
            --out "$PWD/.build/artifacts/console" --locales "${CONSOLE_LOCALES:-ja,ar}"
        status=$?
    fi
fi
if [ "$status" -eq 0 ] && runs mailbox; then
    rm -rf "$PWD/.build/artifacts/mailbox"
    timeout "$TEST_TIMEOUT" "$PYTHON" BrowserTest/account_mail.py --siwa "http://127.0.0.1:$SIWA_PORT" --siwa-data-dir "$SIWA_DATA" \
        --smtp-port "$SMTP_PORT" --out "$PWD/.build/artifacts/mailbox"
    status=$?
fi
if [ "$status" -ne 0 ]; then
    echo "run.sh: juice log:" >&2; tail -n 40 "$JUICE_DATA/juice.log" >&2
    echo "run.sh: siwa log:" >&2; tail -n 40 "$SIWA_DATA/siwa.log" >&2
fi
exit "$status"
