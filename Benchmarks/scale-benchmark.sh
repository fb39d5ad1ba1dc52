#!/usr/bin/env bash
# The server at scale: /auth/token and /auth/authorize with USERS Apple IDs and USERS×GRANTS refresh
# tokens, against 1,000 Apple IDs, in one run (scale_benchmark.py does the work; see Benchmarks/README.md).
#
#   bash Benchmarks/scale-benchmark.sh
#
# Environment: USERS=1000000  GRANTS=10  DURATION=10s  CONNECTIONS=32  CODES=20000
#   SKIP_BUILD=1                 use the existing binary
#   WORK=DIR                     keep the databases in DIR and reuse them on the next run
#   PREPARE_ONLY=1               only seed the databases (into WORK)
#   SIWA_BIN=…                   the server binary (default .build/release/siwa)
#   POSTGRES_SMALL=postgres://…  POSTGRES_LARGE=postgres://…   two empty databases: measure PostgreSQL
#                                instead of SQLite
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SIWA_BIN="${SIWA_BIN:-$ROOT/.build/release/siwa}"
if [[ "${SKIP_BUILD:-0}" != "1" ]]; then
    (cd "$ROOT" && swift build -c release --product siwa)
fi
[[ -x "$SIWA_BIN" ]] || { echo "ERROR: server binary not found: $SIWA_BIN" >&2; exit 1; }
if ! command -v wrk >/dev/null; then
    [[ "$(id -u)" == "0" ]] || { echo "ERROR: wrk is not installed (apt-get install wrk)" >&2; exit 1; }
    DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq wrk >/dev/null
fi
ARGS=(--siwa "$SIWA_BIN" --users "${USERS:-1000000}" --grants "${GRANTS:-10}" --duration "${DURATION:-10s}"
    --connections "${CONNECTIONS:-32}" --codes "${CODES:-20000}")
[[ -z "${WORK:-}" ]] || ARGS+=(--work "$WORK")
[[ "${PREPARE_ONLY:-0}" != "1" ]] || ARGS+=(--prepare-only)
if [[ -n "${POSTGRES_SMALL:-}" && -n "${POSTGRES_LARGE:-}" ]]; then
    ARGS+=(--postgres-small "$POSTGRES_SMALL" --postgres-large "$POSTGRES_LARGE")
fi
exec python3 "$ROOT/Benchmarks/scale_benchmark.py" "${ARGS[@]}"
