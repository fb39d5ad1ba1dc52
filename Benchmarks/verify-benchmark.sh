#!/usr/bin/env bash
# Identity token verification benchmark: the kit against jwt-kit and raw RSA.
#
#   bash Benchmarks/verify-benchmark.sh [SECONDS]
#
# Builds siwa-verify-benchmark in release and runs it. It measures, single-threaded and each for
# SECONDS (default 3) after a warm-up: the kit's IdentityTokenVerifier.verify with a fixed key set
# and clock, jwt-kit's AppleIdentityToken verification, and a raw swift-crypto RSA-2048 PKCS#1 v1.5
# SHA-256 verification of the same token. It prints ops/s, the ratios kit/jwtkit and kit/raw, and
# whether the goals (kit ≥ 1.25 × jwt-kit, kit ≥ 0.7 × raw) are met. It measures; it does not
# judge: the exit status is 0 whether or not the goals are met (non-zero only when it cannot run).
#
# Environment:
#   SKIP_BUILD=1                  do not run `swift build` (use the existing binary)
#   VERIFY_BENCHMARK_BIN          override the binary (default .build/release/siwa-verify-benchmark)

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

if [[ "${SKIP_BUILD:-0}" != "1" ]]; then
    echo "== swift build -c release --product siwa-verify-benchmark" >&2
    swift build -c release --product siwa-verify-benchmark >&2
fi

BIN="${VERIFY_BENCHMARK_BIN:-$ROOT/.build/release/siwa-verify-benchmark}"
if [[ ! -x "$BIN" ]]; then
    echo "verify-benchmark: $BIN is missing (build it, or unset SKIP_BUILD)" >&2
    exit 1
fi

"$BIN" "$@"
