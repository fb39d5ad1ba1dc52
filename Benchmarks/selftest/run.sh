#!/usr/bin/env bash
# Self-test of token-benchmark.sh + token.lua against fake-siwa (a Python
# stand-in for the server): checks that no authorization code reaches the
# token endpoint twice, that every code presented was minted, that the form
# bodies are well formed, that the benchmark's warnings fire, and that
# ENDPOINT=authorize loads the headless authorization with the demo client.
#
#   bash Benchmarks/selftest/run.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
failures=0

# run_benchmark NAME ENV... : runs the benchmark with the fakes (its output in $OUT/NAME.out, .err and
# the fake's report in .report.json); non-zero, counted as a failure, when the benchmark fails.
run_benchmark() {
    local name="$1"; shift
    echo "--- case: $name"
    env SKIP_BUILD=1 SIWA_BIN="$HERE/fake-siwa" RSA_SIGN_RATE_BIN="$HERE/fake-rsa-sign-rate" \
        RSA_SECONDS=1 FAKE_SIWA_REPORT="$OUT/$name.report.json" "$@" \
        bash "$HERE/../token-benchmark.sh" >"$OUT/$name.out" 2>"$OUT/$name.err" \
        || { echo "benchmark exited non-zero"; cat "$OUT/$name.err"; failures=$((failures + 1)); return 1; }
    cat "$OUT/$name.out"
}

# run_case NAME ENV... : runs the token benchmark with the fakes, then checks the fake's report.
run_case() {
    local name="$1"
    run_benchmark "$@" || return 0
    python3 - "$OUT/$name.report.json" <<'PY' || failures=$((failures + 1))
import json, sys
r = json.load(open(sys.argv[1]))
print("fake server saw:", r)
assert r["token_requests"] > 0, "no token requests"
assert not r["duplicates"], "codes sent twice: %s" % r["duplicates"]
assert not r["unknown"], "codes never minted: %s" % r["unknown"]
assert r["bad_form"] == 0, "malformed token requests"
PY
}

expect_in_err() { # NAME PATTERN
    if grep -q "$2" "$OUT/$1.err"; then echo "ok: $1 warns '$2'"; else
        echo "FAIL: $1 lacks warning '$2'"; failures=$((failures + 1)); fi
}
expect_not_in_err() {
    if grep -q "$2" "$OUT/$1.err"; then echo "FAIL: $1 warns '$2'"; failures=$((failures + 1)); else
        echo "ok: $1 does not warn '$2'"; fi
}

run_case plenty TOTAL_CODES=30000 DURATION=3s
expect_not_in_err plenty "ran out of authorization codes"
expect_not_in_err plenty "non-2xx"

run_case exhausted TOTAL_CODES=301 DURATION=2s
expect_in_err exhausted "ran out of authorization codes"

run_case failing TOTAL_CODES=20000 DURATION=2s FAKE_SIWA_FAIL_EVERY=10
expect_in_err failing "non-2xx responses"
expect_in_err failing "injected failure"

if run_benchmark authorize ENDPOINT=authorize DURATION=2s; then
    python3 - "$OUT/authorize.report.json" "$OUT/authorize.out" <<'PY' || failures=$((failures + 1))
import json, re, sys
r = json.load(open(sys.argv[1]))
print("fake server saw:", r)
assert r["authorize_requests"] > 0 and r["bad_authorize"] == 0, "authorize requests missing or malformed"
assert r["token_requests"] == 0 and r["minted"] == 0, "the authorize load minted codes or called the token endpoint"
rate = float(re.search(r"authorize_req_per_sec=([0-9.]+)", open(sys.argv[2]).read()).group(1))
assert rate > 0, "no approved authorizations counted"
PY
fi

if (( failures )); then echo "SELFTEST FAILED ($failures)"; exit 1; fi
echo "SELFTEST PASSED"
