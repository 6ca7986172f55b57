#!/usr/bin/env python3
"""Verdict lines (test/lib/verdicts.py) from the JUnit XML reports that a
client package's own test runner writes: pytest --junitxml, Maven Surefire,
node --test's junit reporter, gotestsum, cargo2junit and the like.

    python3 test/lib/junit_verdicts.py [--prefix TEXT] REPORT.xml|DIR...

Each test case is one verdict, "CLASS NAME", ok when it neither failed nor
errored; a skipped case is a verdict of its own, not ok, since a package's
test that skips in the suite hides what it was meant to show. The plan is the
number of test cases found. A report that is missing or cannot be parsed is one
not-ok verdict, as is a set of reports with no test case at all. A directory
stands for every *.xml file in it (Surefire's target/surefire-reports)."""

import argparse
import glob
import os
import sys
import xml.etree.ElementTree as ElementTree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verdicts import note, plan, say  # noqa: E402


def report_files(paths):
    """Each path as itself, or a directory as its *.xml files, sorted."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            files.extend(sorted(glob.glob(os.path.join(path, "*.xml"))))
        else:
            files.append(path)
    return files


def cases(path):
    """(name, passed, why) for each <testcase> of one report."""
    found = []
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        name = " ".join(x for x in (case.get("classname"), case.get("name")) if x)
        why = None
        for outcome in ("failure", "error", "skipped"):
            element = case.find(outcome)
            if element is not None:
                detail = element.get("message") or (element.text or "").strip()
                why = outcome + (": " + detail.splitlines()[0] if detail else "")
                break
        found.append((name or "(unnamed test case)", why is None, why))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prefix", default="", help="text put before each verdict")
    parser.add_argument("reports", nargs="+")
    args = parser.parse_args()

    results, broken = [], []
    files = report_files(args.reports)
    if not files:
        broken.append("no JUnit report in " + ", ".join(args.reports))
    for path in files:
        try:
            results.extend(cases(path))
        except (OSError, ElementTree.ParseError) as error:
            broken.append("JUnit report %s cannot be read: %s" % (path, error))
    if files and not broken and not results:
        broken.append("the JUnit reports hold no test case: " + ", ".join(files))

    plan(len(results) + len(broken))
    for name, passed, why in results:
        if why:
            note("%s: %s" % (name, why))
        say(passed, args.prefix + name)
    for why in broken:
        say(False, args.prefix + why)


if __name__ == "__main__":
    main()
