#!/usr/bin/env python3
"""Verdict lines (test/lib/verdicts.py) from a client package's own test
runner, for the runners that write no JUnit XML (junit_verdicts.py):

    python3 test/lib/runner_verdicts.py go-json FILE   # the output of `go test -json`
    python3 test/lib/runner_verdicts.py libtest FILE   # the output of `cargo test` (libtest's plain lines)

go-json: each test and subtest with a final result is a verdict ("PACKAGE
TestName"), ok when it passed; a skipped test is not ok, since a package's
test that skips in the suite hides what it was meant to show. Each package is
one more verdict (its own pass or fail: a build failure or a failing TestMain
shows only there). libtest: each "test NAME ... ok|FAILED|ignored" line is a
verdict, prefixed by the test binary named in cargo's "Running" line before
it ("ignored" is not ok). Output with no result at all is one not-ok verdict,
with its last lines as notes."""

import json
import re
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verdicts import note, plan, say  # noqa: E402


def go_json(text):
    """(name, passed, why) for each test and package of `go test -json`."""
    results, output, packages = [], {}, []
    for line in text.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        pkg, test, action = event.get("Package", ""), event.get("Test"), event.get("Action")
        key = (pkg, test)
        if action == "output":
            output.setdefault(key, []).append(event.get("Output", "").rstrip("\n"))
        elif action in ("pass", "fail", "skip"):
            lines = [x for x in output.get(key, []) if x.strip() and not x.startswith(("=== ", "--- ", "PASS", "FAIL", "ok "))]
            why = None if action == "pass" else action + (": " + "; ".join(x.strip() for x in lines[-3:]) if lines else "")
            if test is None:
                packages.append(("go test " + pkg, action == "pass", why))
            else:
                results.append((pkg + " " + test, action == "pass", why))
    return results + packages


LIBTEST = re.compile(r"^test (\S+) \.\.\. (ok|FAILED|ignored)")
RUNNING = re.compile(r"^\s*Running (?:unittests )?(\S+)")


def libtest(text):
    """(name, passed, why) for each test line of cargo test's output."""
    results, binary = [], ""
    for line in text.splitlines():
        m = RUNNING.match(line)
        if m:
            binary = m.group(1)
            continue
        m = LIBTEST.match(line)
        if m:
            name, outcome = m.groups()
            results.append((binary + " " + name, outcome == "ok", None if outcome == "ok" else outcome))
    return results


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("go-json", "libtest"):
        sys.exit("usage: runner_verdicts.py go-json|libtest FILE")
    with open(sys.argv[2], encoding="utf-8", errors="replace") as f:
        text = f.read()
    results = go_json(text) if sys.argv[1] == "go-json" else libtest(text)
    if not results:
        plan(1)
        for line in text.splitlines()[-20:]:
            note(line)
        say(False, "%s: no test result in %s" % (sys.argv[1], sys.argv[2]))
        return
    plan(len(results))
    for name, passed, why in results:
        if why:
            note("%s: %s" % (name, why))
        say(passed, name)


if __name__ == "__main__":
    main()
