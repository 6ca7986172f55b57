#!/usr/bin/env python3
"""The suite's check inventory (docs/development.md, "No check lost"): how
many checks each test file counts on each major in a full run of
`test/run-tests.sh --pg all`, the floor that test/run-tests.sh holds each
file to, and the skip reasons that count toward it.

    python3 test/inventory.py take LOG [--source TEXT] > INVENTORY
    python3 test/inventory.py hold INVENTORY MAJOR FILE TAPLOG
    python3 test/inventory.py compare INVENTORY LOG

An inventory line is `major<TAB>file<TAB>count`: the file (or section) counted
that many checks on that major, passed, failed or skipped for an allowed
reason; or `major<TAB>file<TAB># skip REASON`: a reason, its digits folded to
'#', for which the file may skip a check on any major (the major names where
it was seen).

`take` reads the output of a run and writes those lines: per major and file,
its count, then each reason it skipped for.

`hold` sets FILE's TAP output on MAJOR (TAPLOG) against the inventory and
prints one line, "missing N", then notes starting with "# ": N is how many
fewer checks this run counted than the inventory's count for FILE on MAJOR.
A passed or failed check counts; a skip counts only when its reason, folded,
is one the inventory holds for FILE: a test that skips for any other reason
falls short. A FILE the inventory has no count for on MAJOR is missing 1 (a
new test file: add its lines from a run, `take` on its log). Exits non-zero
when it cannot tell (no inventory, a malformed line, no TAPLOG): run-tests.sh
counts that as a failure too.

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


def take(log):
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
                if m:
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


def read_inventory(path):
    """(counts, reasons): the count of each (major, file), and the folded
    skip reasons of each file; dies on a malformed line."""
    counts, reasons = {}, {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            reason = skip_reason(fields[2]) if len(fields) == 3 else None
            if len(fields) != 3 or not fields[0].isdigit() or not (fields[2].isdigit() or reason):
                sys.exit(f"{path}:{number}: not 'major<TAB>file<TAB>count' "
                         f"or 'major<TAB>file<TAB># skip REASON': {line!r}")
            if reason and re.search(r"\d", reason):
                sys.exit(f"{path}:{number}: a skip reason with a digit, which a run's folded reason never "
                         f"has, so no skip would match it: write {fold(reason)!r}")
            if reason:
                reasons.setdefault(fields[1], set()).add(reason)
            elif (fields[0], fields[1]) in counts:
                sys.exit(f"{path}:{number}: a second count for {fields[1]} on {fields[0]}")
            else:
                counts[(fields[0], fields[1])] = int(fields[2])
    return counts, reasons


def skip_reason(name):
    """The folded reason of an inventoried skip ("# skip REASON"), else None."""
    return name[len("# skip"):].strip() or None if name.startswith("# skip") else None


def inventory_lines(checks):
    """The inventory's lines for the checks of a run, in the order seen."""
    counts, reasons = {}, {}
    for major, where, name in checks:
        counts[(major, where)] = counts.get((major, where), 0) + 1
        reason = skip_reason(name)
        if reason:
            reasons.setdefault((major, where), [])
            if reason not in reasons[(major, where)]:
                reasons[(major, where)].append(reason)
    for (major, where), count in counts.items():
        yield f"{major}\t{where}\t{count}"
        for reason in reasons.get((major, where), []):
            yield f"{major}\t{where}\t# skip {reason}"


def hold(inventory, major, test_file, taplog):
    """(missing, notes): how many fewer checks the TAP log counted for
    test_file on major than the inventory holds."""
    counts, reasons = inventory
    held = counts.get((major, test_file))
    allowed = reasons.get(test_file, set())
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
    if held is None:
        notes.append(f"the inventory holds nothing for {test_file} on {major}: add its count "
                     "(test/inventory.py take on its run's output)")
        return 1, notes
    if counted > held:
        notes.append(f"{test_file} counted {counted} checks on {major}, the inventory {held}: "
                     "raise its count")
    return max(0, held - counted), notes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    t = sub.add_parser("take")
    t.add_argument("log")
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
        print("# major\tfile\tcount of checks, or a skip reason that counts ('# skip REASON', digits folded to #)")
        if args.source:
            print(f"# {args.source}")
        for line in inventory_lines(take(args.log)):
            print(line)
        return 0

    inventory = read_inventory(args.inventory)
    if not inventory[0]:
        sys.exit(f"{args.inventory}: no counts")
    if args.command == "hold":
        missing, notes = hold(inventory, args.major, args.file, args.taplog)
        print(f"missing {missing}")
        for note in notes:
            print(f"# {note}")
        return 0

    before = Counter()
    for (major, _), count in inventory[0].items():
        before[major] += count
    after = Counter(major for major, _, _ in take(args.log))
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
