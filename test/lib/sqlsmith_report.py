#!/usr/bin/python3
"""Reads what sqlsmith --verbose wrote to stderr (test/integration/sqlsmith.pl keeps it)
and prints its figures as NAME=VALUE lines, then a summary as "# " lines.

sqlsmith prints one character per query it ran ('.' no error, 'e' error,
't' statement timeout, 'S' syntax error, 'C' connection lost; lowercase 's'
and 'c' in later versions), and every 800
queries, and once more when --max-queries is reached, a report: "queries: N",
then "COUNT<TAB>first line of an error" for each error seen so far (cumulative),
then "error rate: X". Standard library only (Debian's /usr/bin/python3).
"""

import collections
import re
import sys

# Error messages that name idgen's types, functions or settings: the errors
# idgen itself raised for the random arguments it was given.
IDGEN_WORDS = re.compile(r"ulid|prefixed|snowflake|uuid_v7|idgen|base36|shard|account_id|session_token")


def kind_of(message):
    """An error's kind: its message without names, types, numbers and the part after a
    colon (sqlsmith keeps only the first 80 characters of a message, so a cut-off end
    must not make a kind of its own)."""
    kind = message.removeprefix("ERROR:  ")
    kind = re.sub(r'"[^"]*("|$)', '"…"', kind)
    kind = kind.split(": ")[0]
    kind = re.sub(r"\b\d+(\.\d+)?\b", "N", kind)
    kind = re.sub(r"^(permission denied for \w+) .*", r"\1 …", kind)
    kind = re.sub(r"^function \S+\(.*", "function … does not exist", kind)
    kind = re.sub(r"^argument declared .*", "argument declared … is not … but type …", kind)
    kind = re.sub(r"^(\w+) types .* cannot be matched", r"\1 types … cannot be matched", kind)
    kind = re.sub(r"^cannot cast type .* to .*", "cannot cast type … to …", kind)
    kind = re.sub(r"^null value in column .*", "null value in column … violates not-null constraint", kind)
    kind = re.sub(r"^duplicate key value violates .*", "duplicate key value violates unique constraint …", kind)
    kind = re.sub(r"(of|for|to) type \S+", r"\1 type …", kind)
    return kind


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: sqlsmith_report.py SQLSMITH_STDERR_FILE")
    outcomes = collections.Counter()
    queries = None
    errors = {}
    loaded = False
    with open(sys.argv[1], errors="replace") as f:
        block = None
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("Generating indexes...done"):
                loaded = True
            elif re.fullmatch(r"[.etsScC]+", line):
                outcomes.update(line.lower())
            elif m := re.fullmatch(r"queries: (\d+)", line):
                queries = int(m.group(1))
                block = {}
            elif block is not None and (m := re.fullmatch(r"(\d+)\t(.*)", line)):
                block[m.group(2)] = int(m.group(1))
            elif line.startswith("error rate:") and block is not None:
                errors = block  # the last complete report counts every error so far
                block = None

    print(f"schema_loaded={int(loaded)}")
    print(f"queries={queries if queries is not None else 0}")
    print(f"outcomes={sum(outcomes.values())}")
    for name, char in (("ok", "."), ("errors", "e"), ("timeouts", "t"), ("syntax", "s"), ("broken", "c")):
        print(f"{name}={outcomes[char]}")

    total = sum(outcomes.values())
    if total:
        print(f"# {total} queries: {outcomes['.']} ran without error, {outcomes['e']} errors, "
              f"{outcomes['t']} statement timeouts, {outcomes['s']} syntax errors, "
              f"{outcomes['c']} lost connections")
    kinds = collections.Counter()
    for message, count in errors.items():
        kinds[kind_of(message)] += count
    print(f"# errors by kind ({len(kinds)} kinds):")
    for kind, count in kinds.most_common(15):
        print(f"#   {count:7d}  {kind}")
    rest = kinds.most_common()[15:]
    if rest:
        print(f"#   {sum(c for _, c in rest):7d}  {len(rest)} other kinds")
    own = sorted(((count, message) for message, count in errors.items() if IDGEN_WORDS.search(message)),
                 reverse=True)
    print(f"# errors naming idgen's types or functions ({len(own)} distinct messages):")
    for count, message in own[:25]:
        print(f"#   {count:7d}  {message.removeprefix('ERROR:  ')}")
    if len(own) > 25:
        print(f"#   {sum(c for c, _ in own[25:]):7d}  {len(own) - 25} other messages")


if __name__ == "__main__":
    main()
