#!/usr/bin/python3
"""The TypeID spec's valid and invalid cases against the SQL edition, in the
schema named by argv[1] of the database in the PG* environment (from the
directory in IDGEN_TYPEID_SPEC, read by typeid_spec.py's reader; left out when
it is empty, the caller having counted that). The RFC 9562 and ULID spec
examples are cases of test/data/id_vectors.json, which sql_edition_vectors.py
checks. Prints its plan and verdict lines (verdicts.py) for IdgenTest::verdicts
(test/tap/sql_edition.pl). Standard library only.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from typeid_spec import DATA, literal, read_cases  # noqa: E402
from verdicts import plan, say  # noqa: E402

SCHEMA = sys.argv[1]


def run_sql(sql):
    env = dict(os.environ, PGOPTIONS=f"-c search_path={SCHEMA}")
    done = subprocess.run(["psql", "-XAtq", "-v", "ON_ERROR_STOP=1", "-F", "|"], input=sql,
                          capture_output=True, text=True, encoding="utf-8", env=env)
    if done.returncode != 0:
        say(False, "psql: " + done.stderr.strip())
        sys.exit(1)
    return [line.split("|") for line in done.stdout.splitlines()]


SQLSTATE_OF = ("CREATE FUNCTION pg_temp.sqlstate_of(sql text) RETURNS text LANGUAGE plpgsql AS $$ "
               "BEGIN EXECUTE sql; RETURN 'accepted'; EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE; END $$;")


# check_typeid_spec: the TypeID specification's cases, from DATA.
def check_typeid_spec():
    valid = read_cases(os.path.join(DATA, "valid.yml"))
    invalid = read_cases(os.path.join(DATA, "invalid.yml"))
    rows = [f"({literal(c['name'])}, {literal(c['typeid'])}, {literal(c['prefix'])}, {literal(c['uuid'])}::uuid)"
            for c in valid]
    got = run_sql("SELECT name, (t::typeid)::text, typeid_prefix(t::typeid), typeid_uuid(t::typeid)::text, "
                  "typeid_from_uuid(p, u)::text "
                  f"FROM (VALUES {', '.join(rows)}) AS v(name, t, p, u) ORDER BY name")
    by_name = {row[0]: row[1:] for row in got}
    bad = [c["name"] for c in valid
           if by_name.get(c["name"]) != [c["typeid"], c["prefix"], c["uuid"], c["typeid"]]]
    say(len(valid) >= 9 and not bad,
        f"TypeID spec: {len(valid)} valid cases read, decode to their prefix and uuid and encode back"
        + (f" (failed: {bad})" if bad else ""))

    rows = [f"({literal(c['name'])}, {literal('SELECT ' + literal(c['typeid']) + '::typeid')})" for c in invalid]
    got = run_sql(SQLSTATE_OF + "SELECT name, pg_temp.sqlstate_of(q) "
                  f"FROM (VALUES {', '.join(rows)}) AS v(name, q) ORDER BY name;")
    bad = [f"{name}={state}" for name, state in got if state != "22P02"]
    say(len(invalid) >= 20 and len(got) == len(invalid) and not bad,
        f"TypeID spec: {len(invalid)} invalid cases refused with 22P02" + (f" (not: {bad})" if bad else ""))


def main():
    plan(2 if DATA else 0)
    if DATA:
        check_typeid_spec()
    return 0


if __name__ == "__main__":
    sys.exit(main())
