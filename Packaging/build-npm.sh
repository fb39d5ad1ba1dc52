#!/usr/bin/env bash
# Builds the siwa-server npm package (the siwa binary, its resources, a `siwa` bin and the startSiwa()
# API with TypeScript declarations) from a staged siwa folder:
#
#   bash Packaging/build-npm.sh <staged-folder> <dist-dir>
#
# <staged-folder> is siwa-<version>-linux-x86_64/ as Packaging/build-dist.sh stages it; it goes into the
# package as native/ unchanged. Writes <dist-dir>/siwa-server-<version>.tgz with `npm pack` (no
# registry needed: the package has no dependencies beyond Node's standard library).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 <staged-folder> <dist-dir>" >&2; exit 2; }
STAGED="$(cd "$1" && pwd)"
mkdir -p "$2"
DIST="$(cd "$2" && pwd)"
HERE="$(cd "$(dirname "$0")" && pwd)"
[ -x "$STAGED/bin/siwa" ] || { echo "$STAGED/bin/siwa is missing or not executable" >&2; exit 1; }
command -v npm >/dev/null || { echo "npm is missing: apt-get install nodejs npm" >&2; exit 1; }

folder="$(basename "$STAGED")"
raw="${folder#siwa-}"
raw="${raw%-linux-x86_64}"
if [ "$raw" = "$folder" ] || [ -z "$raw" ]; then raw="$("$STAGED/bin/siwa" --version | awk '{print $NF}')"; fi
# A semver: the numbers (padded to three), and anything after them as a pre-release.
VERSION="$(node -e '
const raw = process.argv[1].replace(/^v/, "");
const match = /^(\d+(?:\.\d+)*)(.*)$/.exec(raw);
if (!match) { console.error(`no version in ${raw}`); process.exit(1); }
const numbers = match[1].split(".").concat(["0", "0"]).slice(0, 3).join(".");
const rest = match[2].replace(/[^0-9A-Za-z]+/g, ".").replace(/^\.+|\.+$/g, "");
console.log(rest ? `${numbers}-${rest}` : numbers);' "$raw")"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
package="$work/package"
mkdir -p "$package"
cp "$HERE/node/package.json" "$HERE/node/index.js" "$HERE/node/index.d.ts" "$HERE/node/binary.js" "$HERE/node/README.md" "$package/"
cp -R "$HERE/node/bin" "$HERE/node/examples" "$package/"
cp -RL "$STAGED" "$package/native"
chmod 0755 "$package/native/bin/siwa" "$package/bin/siwa.js"
node -e '
const fs = require("fs");
const file = process.argv[1];
const manifest = JSON.parse(fs.readFileSync(file, "utf8"));
manifest.version = process.argv[2];
fs.writeFileSync(file, JSON.stringify(manifest, null, 2) + "\n");' "$package/package.json" "$VERSION"

rm -f "$DIST"/siwa-server-*.tgz
(cd "$package" && npm pack --ignore-scripts --offline --pack-destination "$DIST" --loglevel=warn >/dev/null)
out="$DIST/siwa-server-$VERSION.tgz"
[ -f "$out" ] || { echo "npm pack wrote no $out" >&2; exit 1; }
echo "wrote $out ($(du -h "$out" | cut -f1))"
