#!/usr/bin/env python3
"""`siwa check` against the check target: once with no flaw (no check may fail) and once per flaw
(the checks config.FLAW_CHECKS says must fail do, and nothing outside the flaw's declared set fails).

Usage:  python3 Interop/check_target/run_check.py --siwa BIN --data-dir DIR --app-port PORT [--flaw F ...]
Exit 0 only when every run is as expected. Each `siwa check` run is bounded by CHECK_TIMEOUT.

The JSON report is read leniently, since its shape is the checker's: a list of check results (at the
top level or under "checks" / "results"), each naming its check ("id", "check" or "name") and its
result ("result", "status" or "outcome"); a result starting with "fail" is a failure, one starting
with "pass" a pass (anything else, such as "not run", is neither).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from config import FLAW_CHECKS
from harness import Facts, FlaskApp, prepared

# The clean run must also show deletion revoking and a Work & School account signing in (no flaw of
# this app breaks them, so only a pass proves they were tested).
MUST_PASS = frozenset({"callback.baseline", "notify.baseline", "delete.revoke", "trust.managed-account"}).union(
    *(must for must, _ in FLAW_CHECKS.values()))
CHECK_TIMEOUT = 300  # seconds for one `siwa check` run (the issue asks for at most 60 against Juice)


def results(report: Any) -> dict[str, str]:
    """check id -> result, from the checker's JSON."""
    entries = report
    if isinstance(report, dict):
        entries = next((report[key] for key in ("checks", "results") if isinstance(report.get(key), list)), [])
    named: dict[str, str] = {}
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        check = next((entry[key] for key in ("id", "check", "name") if isinstance(entry.get(key), str)), None)
        result = next((entry[key] for key in ("result", "status", "outcome") if isinstance(entry.get(key), str)), None)
        if check and result:
            named[check] = result.lower()
            if isinstance(entry.get("detail"), str):
                DETAILS[check] = entry["detail"]
    return named


DETAILS: dict[str, str] = {}  # check id -> what the checker saw, for the failures this script names


def run_check(siwa: str, facts: Facts, data_dir: str, help_text: str) -> dict[str, str]:
    app = facts.app_url
    command = [siwa, "check", "--server", facts.server, "--start", f"{app}/login", "--probe", f"{app}/me", "--json"]
    # The admin token as the other verbs find it (demo.json in --data-dir), and the notification and
    # deletion checks, when this checker offers them.
    if "--notifications" in help_text:
        command += ["--notifications", f"{app}/apple/notifications"]
    if "--data-dir" in help_text:
        command += ["--data-dir", data_dir]
    if "--delete" in help_text:
        command += ["--delete", f"{app}/delete"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=CHECK_TIMEOUT, check=False)
    try:
        named = results(json.loads(done.stdout))
    except ValueError:
        named = {}
    if not named:
        raise RuntimeError(f"siwa check (exit {done.returncode}) printed no check results: {done.stderr.strip()[-1000:]}")
    return named


def uncovered(checks: frozenset[str], named: dict[str, str]) -> list[str]:
    """The checks the checker reported as not run: it does not test them (yet), so a flaw only they
    would name is not covered. Never counted as passed."""
    return sorted(check for check in checks if named.get(check, "").startswith("not"))


def judge(flaw: str | None, named: dict[str, str]) -> list[str]:
    """What is wrong with this run; empty when it is as expected."""
    must, may = FLAW_CHECKS[flaw] if flaw else (frozenset(), frozenset())
    failed = {check for check, result in named.items() if result.startswith("fail")}
    not_run = set(uncovered(must, named))
    problems = [f"{check} did not fail (it was {named.get(check, 'not reported')})" for check in sorted(must - failed - not_run)]
    problems += [f"{check} failed, outside the flaw's declared set ({DETAILS.get(check, '')})" for check in sorted(failed - must - may)]
    if flaw is None:
        # A clean run proves something only if the checks that name the flaws, and the baselines they
        # stand on, really ran and passed; the sign-in baseline must always run.
        missing = sorted(
            check for check in MUST_PASS
            if not named.get(check, "").startswith("pass") and (check == "callback.baseline" or check not in uncovered(MUST_PASS, named)))
        problems += [f"{check} did not pass (it was {named.get(check, 'not reported')})" for check in missing]
    return problems


def main() -> int:
    options, facts = prepared(__doc__.splitlines()[0], with_siwa=True)
    help_text = subprocess.run([options.siwa, "check", "--help"], capture_output=True, text=True, timeout=30, check=False).stdout
    runs: list[str | None] = options.flaw or [None, *FLAW_CHECKS]
    bad = not_covered = 0
    for flaw in runs:
        label = flaw or "no flaw"
        named: dict[str, str] = {}
        with FlaskApp(facts, [flaw] if flaw else []):
            try:
                named = run_check(options.siwa, facts, options.data_dir, help_text)
                problems = judge(flaw, named)
            except (RuntimeError, subprocess.TimeoutExpired) as error:
                problems = [str(error)]
        must = FLAW_CHECKS[flaw][0] if flaw else frozenset()
        if not problems and flaw and set(uncovered(must, named)) == set(must):
            not_covered += 1
            print(f"NOT COVERED {label}: siwa check does not run {', '.join(sorted(must))} yet", flush=True)
        elif problems:
            bad += 1
            print(f"FAIL {label}: " + "; ".join(problems), flush=True)
        else:
            failed = sorted(check for check, result in named.items() if result.startswith("fail"))
            print(f"ok   {label}: failed exactly as declared: {', '.join(failed) or 'nothing'}", flush=True)
    print(f"{len(runs) - bad - not_covered} runs as expected, {bad} not, {not_covered} flaws not covered by siwa check yet")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
