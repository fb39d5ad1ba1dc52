#!/usr/bin/env bash
# The private relay against real peers: builds siwa (unless SIWA_BIN is set) and runs
# Interop/smtp_check.py (smtplib as the client, aiosmtpd as the smarthost; pip install -r
# Interop/requirements.txt). The check starts and kill -9s its own servers on free loopback ports.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ -z "${SIWA_BIN:-}" ]; then
    swift build -c debug --product siwa
    SIWA_BIN="$(swift build -c debug --show-bin-path)/siwa"
fi
SIWA_BIN="$SIWA_BIN" "$PYTHON" Interop/smtp_check.py
