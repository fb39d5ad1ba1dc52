#!/usr/bin/env bash
# Proves the release tarball on a clean Debian 12 (no Swift, no compilers, no -dev packages, no
# fonts): debootstraps one (minbase with python3, python3-venv and ca-certificates; about 2 minutes,
# kept for the next run), unpacks the tarball in it, starts `bin/siwa serve` inside a chroot with
# /proc mounted, and fetches from the host, on 127.0.0.1 (the chroot shares the loopback): the
# discovery document, a Latin button image (a PNG drawn with the shipped font), the JS library, the
# sign-in page, and a Thai and a Japanese button (503 naming the font package to install).
# With a wheel as the second argument, it also installs it as a Python user would (a venv in the
# chroot; pytest, Flask and PyJWT from PyPI) and runs the pytest plugin's Flask example there: the
# siwa_server fixture starts the wheel's siwa, the app signs a user in and verifies the id_token. The
# chroot has no build folder, so the binary's pages come from the packaged resource bundle.
# Too slow for CI; needs root (debootstrap, chroot, mount).
#
#   bash Packaging/clean-debian-check.sh [dist/siwa-<version>-linux-x86_64.tar.gz [dist/siwa_server-*.whl]]
#   DEBIAN_ROOT=/var/tmp/siwa-debian12   where the clean system is (made when missing)
set -euo pipefail
cd "$(dirname "$0")/.."

TARBALL="${1:-$(ls -t dist/siwa-*-linux-x86_64.tar.gz 2>/dev/null | head -n 1)}"
WHEEL="${2:-}"
[ -z "$WHEEL" ] || [ -f "$WHEEL" ] || { echo "no wheel at $WHEEL" >&2; exit 1; }
[ -f "$TARBALL" ] || { echo "no tarball: run bash Packaging/build-dist.sh first" >&2; exit 1; }
DEBIAN_ROOT="${DEBIAN_ROOT:-/var/tmp/siwa-debian12}"
NAME="$(basename "$TARBALL" .tar.gz)"

if [ ! -x "$DEBIAN_ROOT/usr/bin/python3" ]; then
    command -v debootstrap >/dev/null || { echo "apt-get install debootstrap" >&2; exit 1; }
    echo "== debootstrap a clean Debian 12 into $DEBIAN_ROOT"
    debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates bookworm "$DEBIAN_ROOT" http://deb.debian.org/debian
fi

echo "== What the clean system has"
chroot "$DEBIAN_ROOT" sh -c 'for tool in swift swiftc cc gcc clang; do command -v $tool && exit 1; done; echo "no swift, no compiler"'
if chroot "$DEBIAN_ROOT" dpkg-query -W -f '${Package}\n' | grep -E -- '-dev$|^fonts-|^libfreetype|^libpng|^libbrotli'; then
    echo "the clean system has the packages above: not clean" >&2
    exit 1
fi
echo "no -dev packages, no fonts, no FreeType, libpng or brotli"
[ ! -d "$DEBIAN_ROOT/usr/share/fonts" ] || { echo "the clean system has fonts in /usr/share/fonts" >&2; exit 1; }

rm -rf "$DEBIAN_ROOT/opt/$NAME" "$DEBIAN_ROOT/tmp/siwa-data"
tar -C "$DEBIAN_ROOT/opt" -xzf "$TARBALL"
echo "== ldd inside the clean system"
chroot "$DEBIAN_ROOT" ldd "/opt/$NAME/bin/siwa"
if chroot "$DEBIAN_ROOT" ldd "/opt/$NAME/bin/siwa" | grep -q 'not found'; then
    echo "a library is missing" >&2
    exit 1
fi

mountpoint -q "$DEBIAN_ROOT/proc" || mount -t proc proc "$DEBIAN_ROOT/proc"
PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
LOG="$(mktemp)"
SERVER=""
cleanup() {
    if [ -n "$SERVER" ]; then
        kill "$SERVER" 2>/dev/null || true
        wait "$SERVER" 2>/dev/null || true
    fi
    umount "$DEBIAN_ROOT/proc" 2>/dev/null || true
    rm -f "$LOG"
}
trap cleanup EXIT

echo "== chroot: /opt/$NAME/bin/siwa serve --data-dir /tmp/siwa-data --port $PORT"
chroot "$DEBIAN_ROOT" env -i PATH=/usr/bin:/bin HOME=/root "/opt/$NAME/bin/siwa" serve --data-dir /tmp/siwa-data --port "$PORT" --smtp-port 0 >"$LOG" 2>&1 &
SERVER=$!
BASE="http://127.0.0.1:$PORT"
for _ in $(seq 300); do
    curl -fsS --max-time 2 -o /dev/null "$BASE/.well-known/openid-configuration" 2>/dev/null && break
    kill -0 "$SERVER" 2>/dev/null || { cat "$LOG"; echo "siwa serve exited" >&2; exit 1; }
    sleep 0.1
done

failures=0
expect() { # expect STATUS CONTENT-TYPE-PREFIX PATH [TEXT-IN-BODY]
    local body headers status type
    body="$(mktemp)"
    headers="$(curl -sS --max-time 10 -o "$body" -D - "$BASE$3" | tr -d '\r')"
    status="$(printf '%s\n' "$headers" | awk 'NR == 1 { print $2 }')"
    type="$(printf '%s\n' "$headers" | awk -F': ' 'tolower($1) == "content-type" { print $2 }')"
    if [ "$status" = "$1" ] && [[ "$type" == "$2"* ]] && { [ -z "${4:-}" ] || grep -q -- "$4" "$body"; }; then
        echo "  ok   $3: $status $type ($(wc -c <"$body") bytes)"
    else
        echo "  FAIL $3: $status $type, wanted $1 $2${4:+ with \"$4\"}: $(head -c 300 "$body")"
        failures=$((failures + 1))
    fi
    if [ "$2" = image/png ] && [ "$status" = 200 ]; then
        if [ "$(head -c 8 "$body" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
            cp "$body" "${PNG_OUT:-/tmp}/siwa-clean-debian-${5:-button}.png"
            echo "       a PNG, kept as ${PNG_OUT:-/tmp}/siwa-clean-debian-${5:-button}.png"
        else
            echo "  FAIL $3: not a PNG"
            failures=$((failures + 1))
        fi
    fi
    rm -f "$body"
}
echo "== From the host"
expect 200 application/json /.well-known/openid-configuration '"issuer"'
expect 200 application/json /auth/keys '"keys"'
expect 200 image/png "/appleid/button?locale=en_US&width=240&height=44" "" en_US
expect 200 image/png "/appleid/button?locale=ru_RU&width=240&height=44" "" ru_RU
expect 200 image/png "/appleid/button/logo?width=44&height=44" "" logo
expect 200 text/javascript /appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js "AppleID"
expect 503 text/plain "/appleid/button?locale=th_TH&width=240&height=44" "fonts-noto-core"
expect 503 text/plain "/appleid/button?locale=ja_JP&width=240&height=44" "fonts-noto-cjk"
echo "== Server log (warnings)"
sort -u "$LOG" | sed -n 1,20p  # sed reads to the end: no SIGPIPE under pipefail
[ -s "$DEBIAN_ROOT/tmp/siwa-data/demo.json" ] && echo "demo.json written in the chroot's /tmp/siwa-data"
if [ -n "$WHEEL" ]; then
    echo "== chroot: pip install $(basename "$WHEEL") into a venv, then pytest on the plugin's Flask example"
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
    SERVER=""
    rm -rf "$DEBIAN_ROOT/opt/wheel" "$DEBIAN_ROOT/opt/venv" "$DEBIAN_ROOT/opt/example" "$DEBIAN_ROOT/opt/host-ca.crt"
    mkdir -p "$DEBIAN_ROOT/opt/wheel"
    cp "$WHEEL" "$DEBIAN_ROOT/opt/wheel/"
    cp -R Packaging/python/examples/flask "$DEBIAN_ROOT/opt/example"
    cp /etc/resolv.conf "$DEBIAN_ROOT/etc/resolv.conf"
    # pip inside trusts what the host trusts (a network with its own egress CA): pip's own setting, no
    # package added to the clean system.
    cp "${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}" "$DEBIAN_ROOT/opt/host-ca.crt"
    in_chroot() { chroot "$DEBIAN_ROOT" env -i PATH=/opt/venv/bin:/usr/bin:/bin HOME=/root PIP_CERT=/opt/host-ca.crt sh -c "$1"; }
    if in_chroot "python3 -m venv /opt/venv && pip install --quiet --disable-pip-version-check /opt/wheel/*.whl pytest flask 'pyjwt[crypto]' \
        && siwa --version && cd /opt/example && python -m pytest -q -p no:cacheprovider"; then
        echo "  ok   the wheel's siwa and the siwa_server fixture, inside the clean system"
    else
        echo "  FAIL the wheel inside the clean system"
        failures=$((failures + 1))
    fi
fi
if [ "$failures" -gt 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "clean Debian 12: all checks passed"
