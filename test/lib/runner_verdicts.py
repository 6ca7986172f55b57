#!/usr/bin/env python3
"""Verdict lines (test/lib/verdicts.py) from a client package's own test
runner, for the runners that write no JUnit XML (junit_verdicts.py):

    python3 test/lib/runner_verdicts.py go-json FILE   # the output of `go test -json`
    python3 test/lib/runner_verdicts.py libtest FILE   # the output of `cargo test` (libtest's plain lines)
    python3 test/lib/runner_verdicts.py minitest FILE  # the output of a minitest run with --verbose

go-json: each test and subtest with a final result is a verdict ("PACKAGE
TestName"), ok when it passed; a skipped test is not ok, since a package's
test that skips in the suite hides what it was meant to show. Each package is
one more verdict (its own pass or fail: a build failure or a failing TestMain
shows only there). libtest: each "test NAME ... ok|FAILED|ignored" line is a
verdict, prefixed by the test binary named in cargo's "Running" line before
it ("ignored" is not ok). minitest: each "CLASS#test_NAME = T s = R" line of
--verbose is a verdict, "CLASS NAME" (a leading "test_" and the order number
of "test_01_" dropped), ok when R is "." ("S", skipped, is not ok); the
summary's message for a failure, an error or a skip is its note. --prefix TEXT
puts TEXT before each verdict. Output with no result at all is one not-ok
verdict, with its last lines as notes."""

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


MINITEST = re.compile(r"^([\w:]+)#(\w+) = .*?[\d.]+ s = ([.FES])$", re.M | re.S)
MINITEST_DETAIL = re.compile(r"^ +\d+\) (?:Failure|Error|Skipped):\n([\w:]+)#(\w+)\b.*?\n(.*?)(?:\n\n|\Z)", re.M | re.S)
MINITEST_CODES = {".": None, "F": "failed", "E": "error", "S": "skipped"}


def minitest(text):
    """(name, passed, why) for each test of a minitest --verbose run."""
    details = {(m.group(1), m.group(2)): m.group(3).strip() for m in MINITEST_DETAIL.finditer(text)}
    results = []
    for m in MINITEST.finditer(text):
        klass, method, code = m.groups()
        why = MINITEST_CODES[code]
        if why and details.get((klass, method)):
            why += ": " + "; ".join(details[(klass, method)].splitlines()[:12])
        name = re.sub(r"^test_(?:\d+_)?", "", method)
        results.append((klass + " " + name, code == ".", why))
    return results


PARSERS = {"go-json": go_json, "libtest": libtest, "minitest": minitest}


def main():
    args = sys.argv[1:]
    prefix = ""
    if args[:1] == ["--prefix"] and len(args) > 1:
        prefix, args = args[1], args[2:]
    if len(args) != 2 or args[0] not in PARSERS:
        sys.exit("usage: runner_verdicts.py [--prefix TEXT] go-json|libtest|minitest FILE")
    with open(args[1], encoding="utf-8", errors="replace") as f:
        text = f.read()
    results = PARSERS[args[0]](text)
    if not results:
        plan(1)
        for line in text.splitlines()[-20:]:
            note(line)
        say(False, "%s%s: no test result in %s" % (prefix, args[0], args[1]))
        return
    plan(len(results))
    for name, passed, why in results:
        if why:
            note("%s: %s" % (name, why))
        say(passed, prefix + name)


if __name__ == "__main__":
    main()
