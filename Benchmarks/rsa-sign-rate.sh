#!/usr/bin/env bash
# The raw RS256 signing rate of each signer of the build, beside OpenSSL's own measurement.
#
#   bash Benchmarks/rsa-sign-rate.sh          # SKIP_BUILD=1 to reuse the release build
#
# Runs `rsa-sign-rate` (RSASignRate/main.swift: RSA-2048 PKCS#1 v1.5 SHA-256 on 2 threads, each
# signer for RSA_SECONDS), then `openssl speed -seconds RSA_SECONDS -multi 2 rsa2048` as the
# reference: what libcrypto reaches with nothing of ours around it.
#
# Environment: SKIP_BUILD=1, RSA_SECONDS=3, RSA_SIGN_RATE_BIN (default .build/release/rsa-sign-rate).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RSA_SECONDS="${RSA_SECONDS:-3}"
RSA_SIGN_RATE_BIN="${RSA_SIGN_RATE_BIN:-$ROOT/.build/release/rsa-sign-rate}"

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    (cd "$ROOT" && swift build -c release --product rsa-sign-rate)
fi
[[ -x "$RSA_SIGN_RATE_BIN" ]] || { echo "rsa-sign-rate binary not found: $RSA_SIGN_RATE_BIN" >&2; exit 1; }

echo "load_average_1min=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo n/a)"
"$RSA_SIGN_RATE_BIN" "$RSA_SECONDS"

if command -v openssl >/dev/null 2>&1; then
    # The summary line of -multi adds the processes up: "rsa 2048 bits <sign s> <verify s> <sign/s> <verify/s>".
    speed="$(openssl speed -seconds "$RSA_SECONDS" -multi 2 rsa2048 2>/dev/null | awk '/^rsa 2048 bits/ { rate = $6 } END { print rate }')"
    echo "openssl_speed_rsa2048_sign_per_sec_multi_2=${speed:-n/a}  # $(openssl version)"
else
    echo "openssl_speed_rsa2048_sign_per_sec_multi_2=n/a  # no openssl command on this machine"
fi
echo "load_average_1min=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo n/a)"
