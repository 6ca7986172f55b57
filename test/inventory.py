#!/usr/bin/env python3
"""The suite's check inventory (docs/development.md, "No check lost"): every
check a full run of `test/run-tests.sh --pg all` counted, by major and file,
and the floor that test/run-tests.sh holds each test file to.

    python3 test/inventory.py take LOG [--unit-list FILE] [--source TEXT] > INVENTORY
    python3 test/inventory.py hold INVENTORY MAJOR FILE TAPLOG
    python3 test/inventory.py compare INVENTORY LOG

`take` reads the output of a run and writes one line per check: major, the
file (or section) that counted it, and its name with digits folded to '#', so
that names carrying a run's figures still match. A skip is written as its TAP
form, "# skip REASON", folded the same way. The core unit tests print only
their total: --unit-list names them (the unit binary's --gtest_list_tests
output).

`hold` sets FILE's TAP output on MAJOR (TAPLOG) against the inventory and
prints one line, "missing N", then notes starting with "# ": N is how many of
the checks the inventory holds for FILE on MAJOR this run did not count. A
passed or failed check counts; a skip counts only when its reason, folded, is
one the inventory holds for FILE (on any major): a test that skips for any
other reason falls short. A FILE the inventory has nothing for on MAJOR is
missing 1 (a new test file: add its lines from a run, `take` on its log).
Exits non-zero when it cannot tell (no inventory, a malformed line, no
TAPLOG): run-tests.sh counts that as a failure too.

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
SKIP = re.compile(r"^ok\b[^#]*#\s*skip\b:?\s*(.*)$", re.IGNORECASE)
REGRESS = re.compile(r"^\s+(?:test\s+)?(\S+)\s+\.\.\. (ok|FAILED)")
REGRESS_TAP = re.compile(r"^(not ok|ok) \d+\s+[-+]\s+(\S+)")
# what hold_to_inventory (test/lib/lib.sh) prints of a file that fell short:
# a verdict on the run, not a check of the file
GUARD = re.compile(r": (\d+ of the checks the inventory .* did not run|the check inventory's guard failed)")
UNIT_TOTAL = re.compile(r"^\[==========\] (\d+) tests? from")


def fold(name):
    """A check's name with its run-dependent figures and absolute paths (a
    build's cache directory, a run's temporary one) folded."""
    name = re.sub(r"(?<![\w.~])/[^\s'\"(),;]+", "<path>", name.strip())
    return re.sub(r"\d+", "#", name)


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
            if m and where and not GUARD.search(m.group(2)):
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
    """(major, file, check) of each inventory line; dies on a malformed one."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 3 or not fields[0].isdigit():
                sys.exit(f"{path}:{number}: not 'major<TAB>file<TAB>check': {line!r}")
            rows.append(tuple(fields))
    return rows


def skip_reason(name):
    """The folded reason of an inventoried skip ("# skip REASON"), else None."""
    return name[len("# skip"):].strip() if name.startswith("# skip") else None


def hold(rows, major, test_file, taplog):
    """(missing, notes): how many of the checks the inventory holds for
    test_file on major the TAP log did not count."""
    held = [name for m, f, name in rows if m == major and f == test_file]
    allowed = {skip_reason(name) for _, f, name in rows if f == test_file} - {None}
    counted, skips_refused = 0, []
    with open(taplog, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            skip = SKIP.match(line)
            if skip:
                if fold(skip.group(1)) in allowed:
                    counted += 1
                else:
                    skips_refused.append(skip.group(1).strip())
            elif line.startswith("ok ") or line.startswith("not ok ") or line in ("ok", "not ok"):
                counted += 1
    notes = [f"a skip the inventory does not allow for {test_file}: {why}" for why in skips_refused]
    if not held:
        notes.append(f"the inventory holds nothing for {test_file} on {major}: add its checks "
                     "(test/inventory.py take on its run's output)")
        return 1, notes
    return max(0, len(held) - counted), notes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    t = sub.add_parser("take")
    t.add_argument("log")
    t.add_argument("--unit-list")
    t.add_argument("--source", default="", help="a comment line naming the run")
    h = sub.add_parser("hold")
    h.add_argument("inventory")
    h.add_argument("major")
    h.add_argument("file")
    h.add_argument("taplog")
    c = sub.add_parser("compare")
    c.add_argument("inventory")
    c.add_argument("log")
    args = ap.parse_args()

    if args.command == "take":
        names = unit_list(args.unit_list) if args.unit_list else None
        print("# major\tfile\tcheck (digits folded to #; a skip as '# skip REASON')")
        if args.source:
            print(f"# {args.source}")
        for major, where, name in take(args.log, names):
            print(f"{major}\t{where}\t{name}")
        return 0

    rows = read_inventory(args.inventory)
    if not rows:
        sys.exit(f"{args.inventory}: no checks")
    if args.command == "hold":
        missing, notes = hold(rows, args.major, args.file, args.taplog)
        print(f"missing {missing}")
        for note in notes:
            print(f"# {note}")
        return 0

    before = Counter(major for major, _, _ in rows)
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
