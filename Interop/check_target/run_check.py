#!/usr/bin/env python3
"""`siwa check` against a check target (config.TARGETS: the tutorial app, app.py, or Authlib's, authlib_app.py):
with no flaw, once per way of verifying id_tokens (the target's clean_advice, for the tutorial
config.ID_TOKEN_ADVICE: no required check may fail, exactly the declared advice does, exit 0), the tutorial's
token-response way again with --strict (its advice then fails the run), and once per flaw (the checks
the target's flaw_checks says must fail do, as required checks, exit 1, or for a flaw of its advice_flaws,
a drift the app would not survive, as advice, exit 0; no required check outside the flaw's declared set fails).

Usage:  python3 Interop/check_target/run_check.py --siwa BIN --data-dir DIR --app-port PORT [--app authlib] [--flaw F ...]
Exit 0 only when every run is as expected. Each `siwa check` run is bounded by CHECK_TIMEOUT.

The JSON report is read leniently, since its shape is the checker's: a list of check results (at the
top level or under "checks" / "results"), each naming its check ("id", "check" or "name") and its
result ("result", "status" or "outcome"); a result starting with "fail" is a failure, one starting
with "pass" a pass (anything else, such as "not run", is neither). A check's "class" is "required" or
"advice" (issue 37); a checker that names no class has only required checks.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from config import TARGETS, Target
from harness import Facts, FlaskApp, prepared



def must_pass(target: Target) -> frozenset[str]:
    """The clean run must also show deletion revoking and a Work & School account signing in (no flaw of
    the app breaks them, so only a pass proves they were tested), and every check that names a flaw."""
    return frozenset({"callback.baseline", "notify.baseline", "delete.revoke", "trust.managed-account"}).union(
        *(must for must, _ in target.flaw_checks.values()))

CHECK_TIMEOUT = 300  # seconds for one `siwa check` run (the issue asks for at most 60 against Juice)


def results(report: Any) -> dict[str, str]:
    """check id -> result, from the checker's JSON (the classes of this run: a rule of the checker can
    lower a check to advice in one run and not in another)."""
    DETAILS.clear()
    ADVICE.clear()
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
            if entry.get("class") == "advice":
                ADVICE.add(check)
    return named


DETAILS: dict[str, str] = {}  # check id -> what the checker saw, for the failures this script names
ADVICE: set[str] = set()  # the checks the checker classes as advice (never failing a run without --strict)


class Run:
    """One `siwa check` run: the app's flaw (or none), its way of verifying id_tokens, --strict or not."""

    def __init__(self, flaw: str | None, id_tokens: str = "both", strict: bool = False) -> None:
        self.flaw, self.id_tokens, self.strict = flaw, id_tokens, strict

    @property
    def label(self) -> str:
        words = [self.flaw or "no flaw"] + ([f"ID_TOKENS={self.id_tokens}"] if self.id_tokens != "both" else [])
        return ", ".join(words + (["--strict"] if self.strict else []))


def run_check(siwa: str, facts: Facts, data_dir: str, help_text: str, target: Target, strict: bool = False) -> tuple[dict[str, str], int]:
    app = facts.app_url
    command = [siwa, "check", "--server", facts.server, "--start", f"{app}{target.start}", "--probe", f"{app}/me", "--json"]
    if strict:
        command.append("--strict")
    # The admin token as the other verbs find it (demo.json in --data-dir), and the notification and
    # deletion checks, when this checker offers them.
    if "--notifications" in help_text and target.serves_notifications:
        command += ["--notifications", f"{app}/apple/notifications"]
    if "--data-dir" in help_text:
        command += ["--data-dir", data_dir]
    if "--delete" in help_text and target.serves_notifications:
        command += ["--delete", f"{app}/delete"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=CHECK_TIMEOUT, check=False)
    try:
        named = results(json.loads(done.stdout))
    except ValueError:
        named = {}
    if not named:
        raise RuntimeError(f"siwa check (exit {done.returncode}) printed no check results: {done.stderr.strip()[-1000:]}")
    return named, done.returncode


def uncovered(checks: frozenset[str], named: dict[str, str]) -> list[str]:
    """The checks the checker reported as not run: it does not test them (yet), so a flaw only they
    would name is not covered. Never counted as passed."""
    return sorted(check for check in checks if named.get(check, "").startswith("not"))


def judge(target: Target, run: Run, named: dict[str, str], exit_status: int) -> list[str]:
    """What is wrong with this run; empty when it is as expected."""
    must, may = target.flaw_checks[run.flaw] if run.flaw else (frozenset(), frozenset())
    failed = {check for check, result in named.items() if result.startswith("fail")}
    required_failed = failed - ADVICE
    not_run = set(uncovered(must, named))
    problems = [f"{check} did not fail (it was {named.get(check, 'not reported')})" for check in sorted(must - failed - not_run)]
    if run.flaw in target.advice_flaws:
        # A drift the app would not survive: named as advice, the run still passes.
        problems += [f"{check} failed as required: the flaw's check is advice" for check in sorted((must & failed) - ADVICE)]
    else:
        problems += [f"{check} failed only as advice: the flaw must fail a required check" for check in sorted(must & failed & ADVICE)]
    problems += [
        f"{check} failed, outside the flaw's declared set ({DETAILS.get(check, '')})" for check in sorted(required_failed - must - may)
    ]
    if run.flaw is None:
        # A correct app: exactly the declared advice fails (it is still seen, never a required failure).
        advice = target.clean_advice[run.id_tokens]
        problems += [f"advice {check} did not fail (it was {named.get(check, 'not reported')})" for check in sorted(advice - failed)]
        problems += [f"{check} failed as advice, not declared for ID_TOKENS={run.id_tokens}" for check in sorted((failed & ADVICE) - advice)]
        # A clean run proves something only if the checks that name the flaws, and the baselines they
        # stand on, really ran and passed (or, as declared, failed as advice: allauth's nonce checks
        # with PKCE on); the sign-in baseline must always run.
        checks = must_pass(target) - advice
        missing = sorted(
            check for check in checks
            if not named.get(check, "").startswith("pass") and (check == "callback.baseline" or check not in uncovered(checks, named)))
        problems += [f"{check} did not pass (it was {named.get(check, 'not reported')})" for check in missing]
    # Required failures fail the run; advice only with --strict.
    should_fail = bool(required_failed) or (run.strict and bool(failed & ADVICE))
    if should_fail != (exit_status != 0):
        problems.append(f"siwa check exited {exit_status}, expected {'non-zero' if should_fail else '0'}")
    return problems


def main() -> int:
    options, facts = prepared(__doc__.splitlines()[0], with_siwa=True)
    help_text = subprocess.run([options.siwa, "check", "--help"], capture_output=True, text=True, timeout=30, check=False).stdout
    target = TARGETS[options.app]
    if target.return_path != "/callback":
        facts.admin("POST", f"/clients/{facts.services_id}/return-urls", {"url": facts.app_url + target.return_path})
    clean = [Run(None, id_tokens) for id_tokens in target.clean_advice]
    if "token-response" in target.clean_advice:
        clean.append(Run(None, "token-response", strict=True))
    runs = [Run(flaw) for flaw in options.flaw] if options.flaw else clean + [Run(flaw) for flaw in target.flaw_checks]
    bad = not_covered = 0
    for run in runs:
        named: dict[str, str] = {}
        with FlaskApp(facts, [run.flaw] if run.flaw else [], id_tokens=run.id_tokens, script=target.script):
            try:
                named, exit_status = run_check(options.siwa, facts, options.data_dir, help_text, target, strict=run.strict)
                problems = judge(target, run, named, exit_status)
            except (RuntimeError, subprocess.TimeoutExpired) as error:
                problems = [str(error)]
        must = target.flaw_checks[run.flaw][0] if run.flaw else frozenset()
        if not problems and run.flaw and set(uncovered(must, named)) == set(must):
            not_covered += 1
            print(f"NOT COVERED {run.label}: siwa check does not run {', '.join(sorted(must))} yet", flush=True)
        elif problems:
            bad += 1
            print(f"FAIL {run.label}: " + "; ".join(problems), flush=True)
        else:
            failed = sorted(check for check, result in named.items() if result.startswith("fail") and check not in ADVICE)
            advice = sorted(check for check, result in named.items() if result.startswith("fail") and check in ADVICE)
            drift = sorted(f"{check} {result}" for check, result in named.items() if check.startswith("drift."))
            print(f"ok   {run.label}: failed exactly as declared: {', '.join(failed) or 'nothing'}; advice: {', '.join(advice) or 'none'}"
                  f"; drift: {', '.join(drift) or 'not reported'}", flush=True)
            for check in sorted(must):
                print(f"       {check}: {DETAILS.get(check, '')}", flush=True)
    print(f"{len(runs) - bad - not_covered} runs as expected, {bad} not, {not_covered} flaws not covered by siwa check yet")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
