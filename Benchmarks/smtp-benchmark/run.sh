#!/usr/bin/env bash
# The relay benchmark: builds siwa (release, unless SIWA_BIN is set) and runs smtp_benchmark.py
# (8 clients, 5,000 messages of 10 KB by default; arguments go to the script).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${SIWA_BIN:-}" ]; then
    swift build -c release --product siwa
    SIWA_BIN="$(swift build -c release --show-bin-path)/siwa"
fi
SIWA_BIN="$SIWA_BIN" python3 Benchmarks/smtp-benchmark/smtp_benchmark.py "$@"
