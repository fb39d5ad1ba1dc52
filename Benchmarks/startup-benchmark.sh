#!/usr/bin/env bash
# Start-up benchmark (issue 36, part 5): time from exec of `siwa serve` to the first 200 of
# /.well-known/openid-configuration, on a fresh data directory and on a restart, RUNS times each
# (median, min, max). Goals: fresh <= 300 ms, restart <= 150 ms.
#
#   bash Benchmarks/startup-benchmark.sh                    # the release build in .build-release
#   bash Benchmarks/startup-benchmark.sh NEW_BIN OLD_BIN    # both, alternating run by run
#   RUNS=11 bash Benchmarks/startup-benchmark.sh ...
#
# Builds nothing: build first (`bash Packaging/build-dist.sh` or `swift build -c release
# --static-swift-stdlib --product siwa --scratch-path .build-release`). Measures, never judges.
# Other processes on the machine weigh on the numbers: the load average is printed with them.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ "$#" -eq 0 ]; then
    set -- "$ROOT/.build-release/release/siwa"
fi
for binary in "$@"; do
    [ -x "$binary" ] || { echo "ERROR: not an executable: $binary" >&2; exit 1; }
done
exec python3 "$ROOT/Benchmarks/startup_benchmark.py" --runs "${RUNS:-7}" "$@"
