#!/usr/bin/env bash
# Self-test of token-benchmark.sh + token.lua against fake-siwa (a Python
# stand-in for the server): checks that no authorization code reaches the
# token endpoint twice, that every code presented was minted, that the form
# bodies are well formed, that the benchmark's warnings fire, and that
# ENDPOINT=authorize loads the headless authorization with the demo client, that the server's CPU
# per request and the cost beside the signature are printed, and that STEADY=1 offers a constant
# rate with h2load.
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

# expect_cpu NAME SIGNATURES : the summary's CPU figures are numbers, and overhead_us is
# cpu_us_per_request less SIGNATURES of the fake signer's 250 µs.
expect_cpu() {
    python3 - "$OUT/$1.out" "$2" <<'PY' || { echo "FAIL: $1's CPU figures"; failures=$((failures + 1)); }
import re, sys
text, signatures = open(sys.argv[1]).read(), int(sys.argv[2])
value = lambda key: float(re.search(key + r"=([0-9.-]+)", text).group(1))
cpu, signer, overhead = value("cpu_us_per_request"), value("signer_us"), value("overhead_us")
assert cpu > 0 and signer == 250.0, (cpu, signer)
assert abs(overhead - (cpu - signatures * signer)) < 0.2, (cpu, signer, overhead)
assert value("signatures_per_request") == signatures and value("answered") > 0
print("ok: %s cpu_us_per_request=%.1f overhead_us=%.1f" % (sys.argv[1].rsplit("/", 1)[-1], cpu, overhead))
PY
}

run_case plenty TOTAL_CODES=30000 DURATION=3s
expect_not_in_err plenty "ran out of authorization codes"
expect_not_in_err plenty "non-2xx"
expect_cpu plenty 1

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
    expect_cpu authorize 0
fi

if run_benchmark steady ENDPOINT=authorize DURATION=2s STEADY=1 STEADY_RATE=64 STEADY_SECONDS=2 STEADY_CLIENTS=4; then
    python3 - "$OUT/steady.out" <<'PY' || failures=$((failures + 1))
import re, sys
text = open(sys.argv[1]).read()
answered = float(re.search(r"steady_answered_per_sec=([0-9.]+)", text).group(1))
assert re.search(r"steady_offered_per_sec=64 ", text), "offered rate not printed"
assert 32 <= answered <= 96, "a steady 64/s answered %.1f/s" % answered
assert re.search(r"steady_p50_ms=[0-9.]+ steady_p99_ms=[0-9.]+ ", text), "no steady percentiles"
assert "steady_failed=0" in text, "steady requests failed"
print("ok: steady answered %.1f/s" % answered)
PY
fi
if env SKIP_BUILD=1 SIWA_BIN="$HERE/fake-siwa" RSA_SIGN_RATE_BIN="$HERE/fake-rsa-sign-rate" STEADY=1 \
    bash "$HERE/../token-benchmark.sh" >/dev/null 2>"$OUT/steady-code.err"; then
    echo "FAIL: STEADY=1 ran with the code grant"; failures=$((failures + 1))
else
    expect_in_err steady-code "a code is single-use"
fi

if (( failures )); then echo "SELFTEST FAILED ($failures)"; exit 1; fi
echo "SELFTEST PASSED"
