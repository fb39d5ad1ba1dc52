#!/usr/bin/env bash
# Links an existing (dynamic) build of `siwa` again with the Swift runtime inside, from the objects that
# build already compiled: one link of about ten seconds, no compiler run, nothing written into the build's
# own folders. CI uses it to package its debug build the way the release is packaged:
#
#   swift build --product siwa
#   bash Packaging/link-static.sh                    # .build/static-debug/siwa and its resource bundle
#   SCRATCH=.build-x CONFIGURATION=release OUT=... bash Packaging/link-static.sh
#
# Why not `swift build --static-swift-stdlib` in the same scratch path: that recompiles with the static
# runtime's modules, whose autolink entries (-lCoreFoundation, -l_FoundationCShims, ...) stay in objects
# and module caches the dynamic build reuses, and the dynamic build's next link fails on them. Here the
# objects keep the dynamic build's autolink entries (-lFoundation, -lswiftCore, ...); with -static-stdlib
# the driver resolves those to the static archives in usr/lib/swift_static, and the archives that static
# Foundation needs (which a static compile would have named) are added below.
set -euo pipefail
cd "$(dirname "$0")/.."

SCRATCH="${SCRATCH:-.build}"
CONFIGURATION="${CONFIGURATION:-debug}"
OUT="${OUT:-$SCRATCH/static-$CONFIGURATION}"
MANIFEST="$SCRATCH/$CONFIGURATION.yaml"
BIN="$(cd "$SCRATCH/$CONFIGURATION" 2>/dev/null && pwd -P)" || { echo "no $CONFIGURATION build in $SCRATCH: swift build --product siwa first" >&2; exit 1; }
[ -x "$BIN/siwa" ] && [ -f "$MANIFEST" ] || { echo "no $CONFIGURATION build of siwa in $SCRATCH: swift build --product siwa first" >&2; exit 1; }

# The link command SwiftPM ran for siwa, from its llbuild manifest (one JSON array per command).
mapfile -t link < <(python3 - "$MANIFEST" "$BIN/siwa" <<'EOF'
import json, sys
manifest, executable = sys.argv[1], sys.argv[2]
for line in open(manifest, encoding="utf-8"):
    line = line.strip()
    if not line.startswith("args: ["):
        continue
    args = json.loads(line[len("args: "):])
    if "-emit-executable" in args and "-o" in args and args[args.index("-o") + 1] == executable:
        print("\n".join(args))
        sys.exit(0)
sys.exit(f"no link command for {executable} in {manifest}")
EOF
)

mkdir -p "$OUT"
args=()
for ((i = 0; i < ${#link[@]}; i++)); do
    if [ "${link[$i]}" = "-o" ]; then
        args+=(-o "$OUT/siwa.linking")
        i=$((i + 1))
    else
        args+=("${link[$i]}")
    fi
done
start=$(date +%s)
"${args[@]}" -static-stdlib \
    -lFoundationEssentials -lFoundationInternationalization -lCoreFoundation \
    -l_FoundationCShims -l_FoundationCollections -l_FoundationICU 2> >(grep -v "the use of \`mktemp' is dangerous" >&2)
mv "$OUT/siwa.linking" "$OUT/siwa"
echo "linked $OUT/siwa with the Swift runtime inside in $(($(date +%s) - start)) s"

# The resource bundles Bundle.module looks for beside the executable.
for bundle in "$BIN"/*.resources; do
    rm -rf "$OUT/$(basename "$bundle")"
    cp -R "$bundle" "$OUT/"
done

if ldd "$OUT/siwa" | grep -E 'not found|libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime'; then
    echo "$OUT/siwa still needs a Swift library (above)" >&2
    exit 1
fi
"$OUT/siwa" --version >/dev/null
