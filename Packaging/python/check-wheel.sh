#!/usr/bin/env bash
# Proves the siwa-server wheel on a clean install:
#
#   bash Packaging/python/check-wheel.sh dist/siwa_server-<version>-py3-none-manylinux_2_NN_x86_64.whl
#
# A fresh `python3 -m venv` installs the wheel (and, from PyPI, the examples' libraries, pytest,
# auditwheel, pipx and uv); `auditwheel show` must name a manylinux tag; `siwa` on PATH,
# `python -m siwa_server`, `pipx run` and `uvx` must run the binary; then the examples
# (Flask + PyJWT, FastAPI + Authlib, Django + django-allauth) run with pytest, each in its folder,
# each starting its own siwa serve through the plugin's siwa_server fixture.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 <wheel>" >&2; exit 2; }
WHEEL="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
HERE="$(cd "$(dirname "$0")" && pwd)"
[ -f "$WHEEL" ] || { echo "no wheel at $WHEEL" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
VENV="$work/venv"
pip() { "$VENV/bin/pip" --disable-pip-version-check --quiet "$@"; }

echo "== pip install $(basename "$WHEEL") into a fresh venv (the plugin needs nothing but the standard library)"
start=$(date +%s.%N)
pip install --no-index "$WHEEL"
echo "installed offline in $(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')") s"
"$VENV/bin/pip" list --disable-pip-version-check 2>/dev/null | grep -i -E '^(siwa-server|pip) '

echo "== siwa on PATH, python -m siwa_server"
"$VENV/bin/siwa" --version
"$VENV/bin/python" -m siwa_server --version

echo "== the examples' libraries, pytest, auditwheel, pipx and uv from PyPI"
pip install pytest flask "pyjwt[crypto]" fastapi httpx authlib itsdangerous python-multipart django "django-allauth[socialaccount]" \
    auditwheel pipx uv

echo "== auditwheel show"
show="$("$VENV/bin/auditwheel" show "$WHEEL")"
echo "$show"
tag="$(echo "$show" | tr -s ' \n' '  ' | sed -n 's/.*is consistent with the following platform tag: "\([^"]*\)".*/\1/p')"
case "$tag" in
    manylinux_*_x86_64) echo "auditwheel: $tag" ;;
    *) echo "auditwheel show names no manylinux tag" >&2; exit 1 ;;
esac

echo "== pipx run and uvx"
PIPX_HOME="$work/pipx" PIPX_BIN_DIR="$work/pipx/bin" "$VENV/bin/pipx" run --spec "$WHEEL" siwa --version
UV_CACHE_DIR="$work/uv-cache" "$VENV/bin/uvx" --offline --from "$WHEEL" siwa --version

echo "== the examples"
status=0
for example in flask fastapi django; do
    echo "-- $example"
    (cd "$HERE/examples/$example" && "$VENV/bin/python" -m pytest -q -p no:cacheprovider) || status=1
done
exit $status
