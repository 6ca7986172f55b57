#!/usr/bin/python3
"""Spec cases against the SQL edition, in the schema named by argv[1] of the
database in the PG* environment: the TypeID spec's valid and invalid cases
(from the directory in IDGEN_TYPEID_SPEC, read by typeid_spec.py's reader; left
out when it is empty, the caller having counted that), the RFC 9562
UUIDv7 test vector, and ULID cases from the ULID spec. Prints its plan and verdict lines
(verdicts.py) for IdgenTest::verdicts (test/tap/sql_edition.pl). Standard library only.
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
    # check_typeid_spec's 2 verdicts when there is spec data, then this function's 3
    plan((2 if DATA else 0) + 3)
    if DATA:
        check_typeid_spec()

    # RFC 9562 appendix A.6: 017F22E2-79B0-7CC3-98C4-DC0C0C07398F is 2022-02-22 19:22:22 UTC
    got = run_sql("SELECT uuid_v7_time('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') = '2022-02-22 19:22:22+00', "
                  "uuid_v7_boundary('2022-02-22 19:22:22+00') < '017F22E2-79B0-7CC3-98C4-DC0C0C07398F'::uuid, "
                  "uuid_v7_boundary('2022-02-22 19:22:22.001+00') > '017F22E2-79B0-7CC3-98C4-DC0C0C07398F'::uuid, "
                  "uuid_v7_time('017F22E2-79B0-4CC3-98C4-DC0C0C07398F') IS NULL")
    say(got == [["t", "t", "t", "t"]], f"RFC 9562 test vector: time, boundaries around it, a v4 decodes to NULL (got {got})")

    # ULID spec: a time prefix of 01ARYZ6S41 is 1469918176385 ms; either case reads
    got = run_sql("SELECT ulid_time(ulid_from_text('01ARYZ6S410000000000000000')) = '2016-07-30 22:36:16.385+00', "
                  "ulid_to_text(ulid_from_text('01arz3ndektsv4rrffq69g5fav')) = '01ARZ3NDEKTSV4RRFFQ69G5FAV', "
                  "ulid_to_text(ulid_from_text('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')) = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', "
                  "ulid_from_text('7ZZZZZZZZZZZZZZZZZZZZZZZZZ') = 'ffffffff-ffff-ffff-ffff-ffffffffffff', "
                  "ulid_to_text(ulid_from_text('00000000000000000000000000')) = '00000000000000000000000000'")
    say(got == [["t"] * 5], f"ULID spec: the spec's example time, either case, the largest and smallest ULID (got {got})")
    cases = {"too short": "01ARZ3NDEKTSV4RRFFQ69G5FA", "too long": "01ARZ3NDEKTSV4RRFFQ69G5FAVV",
             "above 7ZZ...": "8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "I": "01ARZ3NDEKTSV4RRFFQ69G5FAI",
             "L": "01ARZ3NDEKTSV4RRFFQ69G5FAL", "O": "01ARZ3NDEKTSV4RRFFQ69G5FAO",
             "U": "01ARZ3NDEKTSV4RRFFQ69G5FAU", "punctuation": "01ARZ3NDEKTSV4RRFFQ69G5FA-"}
    rows = [f"({literal(k)}, {literal('SELECT ulid_from_text(' + literal(v) + ')')})" for k, v in cases.items()]
    got = run_sql(SQLSTATE_OF + f"SELECT name, pg_temp.sqlstate_of(q) FROM (VALUES {', '.join(rows)}) AS v(name, q);")
    bad = [f"{name}={state}" for name, state in got if state != "22P02"]
    say(len(got) == len(cases) and not bad, f"ULID: {len(cases)} invalid texts refused with 22P02" + (f" (not: {bad})" if bad else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
