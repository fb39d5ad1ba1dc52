#!/usr/bin/env bash
# The pytest plugin, its three examples (Flask + PyJWT, FastAPI + Authlib, Django + django-allauth) and
# the Node package's node --test example, run from the source tree against a siwa binary of this
# checkout (by default the debug build). This is CI's channel for the packages' code; the packaging
# itself (static binary, manylinux wheel, npm tarball, clean Debian) is Packaging/build-dist.sh,
# build-wheel.sh, build-npm.sh and their check scripts, which need a release build.
#
#   SIWA_BIN=.build/debug/siwa bash Packaging/dev-check.sh
#
# The plugin is loaded with -p from Packaging/python (as the wheel's pytest11 entry point would), the
# Node package through a node_modules/siwa-server link to Packaging/node; both take the binary from
# SIWA_BINARY. The examples' libraries come from PyPI into a venv (${SIWA_DEV_VENV:-/tmp/siwa-dev-venv}).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
if [ -z "${SIWA_BIN:-}" ]; then
    swift build --product siwa
    SIWA_BIN="$(swift build --show-bin-path)/siwa"
fi
SIWA_BINARY="$(cd "$(dirname "$SIWA_BIN")" && pwd)/$(basename "$SIWA_BIN")"
export SIWA_BINARY
[ -x "$SIWA_BINARY" ] || { echo "dev-check.sh: no siwa binary at $SIWA_BINARY" >&2; exit 1; }

VENV="${SIWA_DEV_VENV:-/tmp/siwa-dev-venv}"
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/pip" install --quiet --disable-pip-version-check pytest flask "pyjwt[crypto]" fastapi httpx authlib itsdangerous \
    python-multipart django "django-allauth[socialaccount]"

status=0
for example in flask fastapi django; do
    echo "-- pytest: the $example example"
    if ! (cd "Packaging/python/examples/$example" \
        && PYTHONPATH="$ROOT/Packaging/python" "$VENV/bin/python" -m pytest -q -p no:cacheprovider -p siwa_server.pytest_plugin); then
        status=1
    fi
done

echo "-- node --test: the Node package's example"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/node_modules"
ln -s "$ROOT/Packaging/node" "$work/node_modules/siwa-server"
cp Packaging/node/examples/*.js "$work/"
(cd "$work" && node --test app.test.js) || status=1
exit $status
