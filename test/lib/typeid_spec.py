#!/usr/bin/python3
"""The TypeID specification's own test cases, through SQL.

Standard library only; run with Debian's /usr/bin/python3 against the server
in the PG* environment, in a database that has idgen.

Reads valid.yml and invalid.yml (the specification's spec/ files) from the
directory in IDGEN_TYPEID_SPEC, ../shared/data/typeid-spec beside the checkout
(IdgenTest::shared_data finds it; the project keeps no copy). They use a small YAML subset, read here: "#"
comment lines, blank lines, "- name: NAME" starting a case and "  key: "value""
lines, values in double quotes without escapes. Anything else stops the test.

Every valid case must read as a typeid whose text, prefix and uuid are the
case's, and typeid_from_uuid(prefix, uuid) must write the case's text. Every
invalid case must be refused with SQLSTATE 22P02, by the cast from text and
by the input function. Prints its plan and verdict lines (test/lib/verdicts.py) for
IdgenTest::verdicts (test/tap/typeid_spec.pl); exits non-zero only when it
cannot run its checks.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verdicts import plan, say  # noqa: E402

DATA = os.environ.get("IDGEN_TYPEID_SPEC", "")
CASE_START = re.compile(r'^- name: "?([A-Za-z0-9_-]+)"?$')
FIELD = re.compile(r'^  ([a-z]+): "([^"\\]*)"$')


def read_cases(path):
    cases = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            start = CASE_START.match(line)
            field = FIELD.match(line)
            if start:
                cases.append({"name": start.group(1)})
            elif field and cases:
                cases[-1][field.group(1)] = field.group(2)
            else:
                sys.exit(f"{path}:{number}: outside the YAML subset this test reads: {line!r}")
    return cases


def literal(s):
    return "'" + s.replace("'", "''") + "'"


def run_sql(sql):
    done = subprocess.run(["psql", "-XAtq", "-v", "ON_ERROR_STOP=1", "-F", "|"],
                          input=sql, capture_output=True, text=True, encoding="utf-8")
    if done.returncode != 0:
        sys.exit("psql failed: " + done.stderr)
    return [line.split("|") for line in done.stdout.splitlines()]


def report(ok, what):
    """One verdict, its runs of blanks kept: two invalid cases' quoted typeids hold them."""
    say(ok, what, fold=False)


def main():
    if not os.path.isdir(DATA):
        sys.exit(f"IDGEN_TYPEID_SPEC names no directory: {DATA!r}")
    valid = read_cases(os.path.join(DATA, "valid.yml"))
    invalid = read_cases(os.path.join(DATA, "invalid.yml"))
    # the two counts, then one verdict a case
    plan(2 + len(valid) + len(invalid))
    report(len(valid) >= 9 and all({"typeid", "prefix", "uuid"} <= set(c) for c in valid),
           f"valid.yml: {len(valid)} cases, each with typeid, prefix and uuid")
    report(len(invalid) >= 20 and all("typeid" in c for c in invalid),
           f"invalid.yml: {len(invalid)} cases, each with typeid")

    rows = [f"({literal(c['name'])}, {literal(c['typeid'])}, {literal(c['prefix'])}, "
            f"{literal(c['uuid'])}::uuid)" for c in valid]
    got = run_sql(
        "SELECT name, (t::typeid)::text, typeid_prefix(t::typeid), typeid_uuid(t::typeid)::text, "
        "typeid_from_uuid(p, u)::text, (t::typeid) = typeid_from_uuid(p, u) "
        f"FROM (VALUES {', '.join(rows)}) AS v(name, t, p, u) ORDER BY name")
    by_name = {row[0]: row[1:] for row in got}
    for c in valid:
        row = by_name.get(c["name"])
        expected = [c["typeid"], c["prefix"], c["uuid"], c["typeid"], "t"]
        report(row == expected,
               f"valid {c['name']}: {c['typeid']!r} decodes to prefix {c['prefix']!r} and "
               f"uuid {c['uuid']}, and encodes back" + ("" if row == expected else f" (got {row})"))

    sql = ["CREATE FUNCTION pg_temp.sqlstate_of(t text, via_input boolean) RETURNS text "
           "LANGUAGE plpgsql AS $$ BEGIN "
           "IF via_input THEN PERFORM typeid_in(t::cstring); ELSE PERFORM t::typeid; END IF; "
           "RETURN 'accepted'; EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE; END $$;"]
    rows = [f"({literal(c['name'])}, {literal(c['typeid'])})" for c in invalid]
    sql.append("SELECT name, pg_temp.sqlstate_of(t, false), pg_temp.sqlstate_of(t, true) "
               f"FROM (VALUES {', '.join(rows)}) AS v(name, t) ORDER BY name;")
    by_name = {row[0]: row[1:] for row in run_sql("\n".join(sql))}
    for c in invalid:
        row = by_name.get(c["name"])
        report(row == ["22P02", "22P02"],
               f"invalid {c['name']}: {c['typeid']!r} is refused with 22P02"
               + ("" if row == ["22P02", "22P02"] else f" (got {row})"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
