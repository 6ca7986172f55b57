#!/usr/bin/env python3
"""The suite's check inventory (docs/development.md, "No check lost"): every
check a run of `test/run-tests.sh --pg all` counted, by major and file, so that
a port or a move of tests can be shown to lose none.

    python3 test/inventory.py take LOG [--moves MOVES] [--unit-list FILE] > INVENTORY
    python3 test/inventory.py expect INVENTORY MAJOR FILE
    python3 test/inventory.py compare INVENTORY LOG

`take` reads the output of a run and writes one line per check: major, the
file (or section) that counted it, where that file lives now (MOVES: lines
"old<TAB>new", applied to the file column), and its name with digits folded
to '#', so that names carrying a run's figures still match. The core unit
tests print only their total: --unit-list names them (the unit binary's
--gtest_list_tests output).

`expect` prints how many checks INVENTORY holds for FILE (its current path) on
MAJOR: the lower bound that test/run-tests.sh holds each test file to.

`compare` prints, per major and in total, the checks of a new run's LOG
against INVENTORY, and exits 1 when a major that the inventory covers and the
log tested counted fewer.
"""

import argparse
import re
import sys
from collections import Counter

MAJOR = re.compile(r"^######## PostgreSQL (\d+)$")
SECTION = re.compile(r"^== (.*)$")
FILE_START = re.compile(r"^# (test/\S+|sql/\S+)$")
FILE_END = re.compile(r"^# (test/\S+) took \d+ s$")
TAP = re.compile(r"^(not ok|ok)\b(?: \d+)?(?: -)? ?(.*)$")
REGRESS = re.compile(r"^\s+(?:test\s+)?(\S+)\s+\.\.\. (ok|FAILED)")
REGRESS_TAP = re.compile(r"^(not ok|ok) \d+\s+[-+]\s+(\S+)")
UNIT_TOTAL = re.compile(r"^\[==========\] (\d+) tests? from")


def fold(name):
    """A check's name with its run-dependent figures folded."""
    return re.sub(r"\d+", "#", name.strip())


def section_label(heading):
    """The inventory's file column for checks printed outside a test file."""
    for key, label in (
        ("build for PostgreSQL", "build"),
        ("core unit tests", "test/unit"),
        ("fuzzing", "test/fuzz"),
        ("build checks", "test/tap/build_checks.pl"),
        ("install and start", "cluster start"),
        ("pg_regress", "pg_regress"),
        ("benchmark", "test/bench/bench.sh"),
    ):
        if key in heading:
            return label
    return heading


def take(log, unit_names):
    """(major, file, name) of every check in a run's output."""
    checks = []
    major = None
    label = None
    in_file = None
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = MAJOR.match(line)
            if m:
                major, label, in_file = m.group(1), None, None
                continue
            if major is None:
                continue
            m = SECTION.match(line)
            if m:
                label, in_file = section_label(m.group(1)), None
                continue
            m = FILE_END.match(line)
            if m:
                in_file = None
                continue
            m = FILE_START.match(line)
            if m and label not in ("pg_regress",):
                in_file = m.group(1)
                continue
            where = in_file or label
            if label == "test/unit":
                m = UNIT_TOTAL.match(line)
                if m and unit_names:
                    checks.extend((major, "test/unit", name) for name in unit_names)
                elif m:
                    checks.extend((major, "test/unit", f"unit test {i + 1}") for i in range(int(m.group(1))))
                continue
            if label == "pg_regress":
                m = REGRESS.match(line) or REGRESS_TAP.match(line.strip())
                if m:
                    name = m.group(1) if m.re is REGRESS else m.group(2)
                    checks.append((major, f"sql/{name}.sql", name))
                continue
            m = TAP.match(line)
            if m and where:
                checks.append((major, where, fold(m.group(2))))
    return checks


def unit_list(path):
    """Suite.Test names from --gtest_list_tests output."""
    names, suite = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            if not line.startswith(" "):
                suite = line.strip().split()[0]
            else:
                names.append(suite + line.strip().split()[0])
    return names


def read_inventory(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            major, old, new, name = line.rstrip("\n").split("\t", 3)
            rows.append((major, old, new, name))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    t = sub.add_parser("take")
    t.add_argument("log")
    t.add_argument("--moves")
    t.add_argument("--unit-list")
    t.add_argument("--source", default="", help="a comment line naming the run")
    e = sub.add_parser("expect")
    e.add_argument("inventory")
    e.add_argument("major")
    e.add_argument("file")
    c = sub.add_parser("compare")
    c.add_argument("inventory")
    c.add_argument("log")
    args = ap.parse_args()

    if args.command == "take":
        moves = {}
        if args.moves:
            with open(args.moves, encoding="utf-8") as f:
                moves = dict(line.rstrip("\n").split("\t", 1) for line in f if line.strip())
        names = unit_list(args.unit_list) if args.unit_list else None
        checks = take(args.log, names)
        print("# major\tfile at the inventory's run\tfile now\tcheck (digits folded to #)")
        if args.source:
            print(f"# {args.source}")
        for major, where, name in checks:
            print(f"{major}\t{where}\t{moves.get(where, where)}\t{name}")
        return 0

    rows = read_inventory(args.inventory)
    if args.command == "expect":
        print(sum(1 for major, _, new, _ in rows if major == args.major and new == args.file))
        return 0

    before = Counter(major for major, _, _, _ in rows)
    after = Counter(major for major, _, _ in take(args.log, None))
    short = False
    for major in sorted(before, key=int):
        if major not in after:
            print(f"PostgreSQL {major}: {before[major]} checks in the inventory, not tested in this run")
            continue
        verdict = "ok" if after[major] >= before[major] else "FEWER"
        short |= after[major] < before[major]
        print(f"PostgreSQL {major}: {after[major]} checks now, {before[major]} in the inventory: {verdict}")
    print(f"total: {sum(after.values())} checks now, {sum(before.values())} in the inventory")
    return 1 if short else 0


if __name__ == "__main__":
    sys.exit(main())
