#!/usr/bin/env bash
# Builds every libFuzzer harness (ASan + libFuzzer, debug) and runs each for SECONDS (default 30),
# one after the other, from its seed corpus in Fuzz/Corpus/<harness>. New inputs go to a scratch
# folder (FUZZ_SCRATCH, default a new temporary one), never into the repository.
# Prints the executions of each harness; exits non-zero if any harness crashed or broke an invariant
# (the crashing input is kept in the scratch folder as <harness>-crash-*).
#
#   bash Fuzz/run.sh [SECONDS] [HARNESS...]
set -euo pipefail
cd "$(dirname "$0")"

seconds="${1:-30}"
shift || true
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
    harnesses=(FuzzForm FuzzClaims FuzzToken FuzzKeySet FuzzClientSecret FuzzNotification FuzzSMTP)
fi
scratch="${FUZZ_SCRATCH:-$(mktemp -d -t siwa-fuzz.XXXXXX)}"
mkdir -p "$scratch"

echo "== Building the harnesses (debug, -sanitize=fuzzer,address)"
flags=(-c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
# The linker warns about every ASan symbol it cannot export; those lines say nothing. (The build's own
# status decides: after `| grep … || true`, PIPESTATUS was `true`'s, and a failed build ran on.)
build_log="$scratch/build.log"
build_status=0
swift build "${flags[@]}" > "$build_log" 2>&1 || build_status=$?
grep -v "Cannot export local symbol" "$build_log" || true
[ "$build_status" -eq 0 ] || { echo "the harnesses did not build"; exit 1; }
bin="$(swift build "${flags[@]}" --show-bin-path)"

failed=0
summary=()
for harness in "${harnesses[@]}"; do
    mkdir -p "$scratch/corpus/$harness"
    log="$scratch/$harness.log"
    echo "== $harness for ${seconds} s (log: $log)"
    status=0
    # Swift's runtime keeps caches for the life of the process, which LeakSanitizer would report
    # as leaks of every input: leak detection is off, memory errors are what ASan is here for.
    "$bin/$harness" "$scratch/corpus/$harness" "Corpus/$harness" \
        -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=4096 -detect_leaks=0 \
        -print_final_stats=1 -artifact_prefix="$scratch/$harness-" >"$log" 2>&1 || status=$?
    executions="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)"
    if [ "$status" -ne 0 ]; then
        failed=$((failed + 1))
        grep -E "ERROR|Fatal error|invariant broken|SUMMARY|Test unit written" "$log" | head -20 || true
        summary+=("$harness: CRASHED after ${executions:-?} executions (exit $status)")
    else
        summary+=("$harness: ${executions} executions in ${seconds} s, no crash")
    fi
done

echo "== Fuzzing summary (scratch: $scratch)"
printf '%s\n' "${summary[@]}"
echo "$(( ${#harnesses[@]} - failed )) passed, $failed failed"
[ "$failed" -eq 0 ]
