#!/usr/bin/env python3
"""Sums up a test run over PostgreSQL majors: a table per major, the skips and
their reasons, where each server's source came from, each phase's wall time,
then the closing line "N passed, N failed, N skipped". Exits 1 when anything
failed.

Each argument is a record that test/run-tests.sh wrote for one major, as
key=value lines (repeated keys: skip, tried, why, phase):

    major=17  required=yes  set=version  files=32  status=tested
    version=17.11-0+deb13u1  source=vendored  from=...  orig_sha256=...
    passed=640  failed=0  skipped=1  skip=test/integration/routing.pl: reason
    phase=server 312

What a major that was not tested adds to the closing line:
- required (a supported major), not available: its test files count as
  skipped; under CI it also counts as one failure, so the run fails;
- required, its server build failed: one failure, and its files as skipped;
- optional (required=optional: tested whenever its server can be had), not
  available or not built: its test files count as skipped, under CI too;
- not required (tried, not required): nothing; its row says what was tried.
A tested major counts, required or optional; one that is neither is shown
but kept out of the closing line.

    python3 test/matrix.py [--ci yes|no] RECORD...

It also counts one TAP log for test/run-tests.sh: prints "PASSED FAILED
SKIPPED" and appends a skip=LABEL: REASON line to RECORD for each skip.

    python3 test/matrix.py --count-tap LOG --label LABEL --record RECORD
"""

import argparse
from collections import Counter
import re
import sys

TAP_SKIP = re.compile(r"^ok\b[^#]*#\s*skip\b:?\s*(.*)$", re.IGNORECASE)


def count_tap(log, label, record):
    """(passed, failed, skipped) of a TAP log; each skip's reason goes to the record."""
    passed = failed = 0
    reasons = []
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            skip = TAP_SKIP.match(line)
            if skip:
                reasons.append(skip.group(1).strip() or "no reason given")
            elif line.startswith("ok "):
                passed += 1
            elif line.startswith("not ok "):
                failed += 1
    with open(record, "a", encoding="utf-8") as f:
        for reason in reasons:
            f.write(f"skip={label}: {reason}\n")
    return passed, failed, len(reasons)


def read_record(path):
    """Parses one record: single keys to strings, repeated ones to lists (phases
    as (name, seconds))."""
    record = {"skip": [], "tried": [], "why": [], "phase": [], "deb": []}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if "=" not in line:
                continue
            key, value = line.split("=", 1)
            if key == "phase":
                name, _, seconds = value.rpartition(" ")
                record[key].append((name, int(seconds) if seconds.isdigit() else 0))
            elif key in ("skip", "tried", "why", "deb"):
                record[key].append(value)
            else:
                record[key] = value
    return record


def number(record, key):
    try:
        return int(record.get(key, "0"))
    except ValueError:
        return 0


def judge(record, ci):
    """(passed, failed, skipped, note) that a record adds to the closing line."""
    status = record.get("status", "aborted")
    required = record.get("required") == "yes"
    optional = record.get("required") == "optional"
    files = number(record, "files")
    if status == "tested":
        if "passed" not in record:
            return 0, 1, 0, "the suite stopped before its summary"
        counts = number(record, "passed"), number(record, "failed"), number(record, "skipped")
        if optional:
            return counts + ("optional: tested, counted",)
        if not required:
            return 0, 0, 0, "not required: its counts are not in the closing line"
        return counts + ("",)
    if optional and status in ("unavailable", "build_failed"):
        what = "no source could be had" if status == "unavailable" else "its server build failed"
        return 0, 0, files, f"optional, {what}: {files} test files skipped"
    if status == "unavailable":
        if not required:
            return 0, 0, 0, "tried, not required: no source could be had"
        if ci:
            return 0, 1, files, f"required and unavailable: fails under CI ({files} test files not run)"
        return 0, 0, files, f"UNAVAILABLE: {files} test files not run"
    if status == "build_failed":
        if not required:
            return 0, 0, 0, "tried, not required: its server build failed"
        return 0, 1, files, f"server build failed ({files} test files not run)"
    return 0, 1, 0, "the run of this major stopped without a record"


def minutes(seconds):
    return f"{seconds // 60}m{seconds % 60:02d}s"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ci", choices=("yes", "no"), default="no")
    parser.add_argument("--count-tap", metavar="LOG")
    parser.add_argument("--label")
    parser.add_argument("--record")
    parser.add_argument("records", nargs="*")
    args = parser.parse_args()
    if args.count_tap:
        if not (args.label and args.record):
            parser.error("--count-tap needs --label and --record")
        print(*count_tap(args.count_tap, args.label, args.record))
        return 0
    if not args.records:
        parser.error("no record given")
    ci = args.ci == "yes"

    records = sorted((read_record(p) for p in args.records), key=lambda r: number(r, "major"))
    totals = [0, 0, 0]
    rows = []
    for record in records:
        passed, failed, skipped, note = judge(record, ci)
        totals = [totals[0] + passed, totals[1] + failed, totals[2] + skipped]
        tested = record.get("status") == "tested"
        seconds = sum(phase_seconds for _, phase_seconds in record["phase"])
        rows.append([
            record.get("major", "?"),
            record.get("version", "-"),
            record.get("source", "-"),
            record.get("set", "-") if tested else "-",
            record.get("passed", "-") if tested else "-",
            record.get("failed", "-") if tested else "-",
            record.get("skipped", "-") if tested else str(skipped) if skipped else "-",
            minutes(seconds),
            note,
        ])

    header = ["major", "version", "source", "set", "passed", "failed", "skipped", "time", "note"]
    widths = [max(len(str(row[i])) for row in rows + [header]) for i in range(len(header))]
    print("PostgreSQL matrix" + (" (CI: every required major must be tested)" if ci else ""))
    for row in [header] + rows:
        print("  " + "  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip())

    details = []
    for record in records:
        major = record.get("major", "?")
        # One line per reason, with the number of checks it skipped when more than one.
        for skip, times in Counter(record["skip"]).items():
            details.append(f"  {major} skipped: {skip}" + (f" ({times} checks)" if times > 1 else ""))
        for tried in record["tried"]:
            details.append(f"  {major} tried: {tried}")
        for why in record["why"]:
            details.append(f"  {major} build: {why}")
        if record.get("status") == "tested" and record["deb"]:
            # Binary packages (a root's): each named with its SHA-256.
            debs = ", ".join(f"{name} SHA-256 {checksum}" for name, _, checksum in
                             (deb.partition(" ") for deb in record["deb"]))
            details.append(f"  {major} source: {record.get('from', '-')}; {debs}; "
                           f"configure {record.get('configure', '-')}")
        elif record.get("status") == "tested":
            checksum = record.get("orig_sha256") or record.get("deb_sha256") or "-"
            what = record.get("orig") or "package"
            details.append(f"  {major} source: {record.get('from', '-')}; {what} SHA-256 {checksum}; "
                           f"configure {record.get('configure', '-')}")
        if record["phase"]:
            phases = ", ".join(f"{name} {phase_seconds} s" for name, phase_seconds in record["phase"])
            details.append(f"  {major} phases: {phases}")
    if details:
        print("\n".join(details))
    print(f"{totals[0]} passed, {totals[1]} failed, {totals[2]} skipped")
    return 1 if totals[1] else 0


if __name__ == "__main__":
    sys.exit(main())
