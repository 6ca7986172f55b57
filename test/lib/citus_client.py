#!/usr/bin/python3
"""Router lookups through a real client's extended protocol (psycopg 3).

Reads lines "table<TAB>type<TAB>id as text" and, for each, looks the row up
by its ID as a bound parameter of a server-side prepared statement (psycopg's
prepare=True: Parse once, then Bind/Execute), six times so that the server
switches to its generic plan; uuid and bigint IDs are also sent in binary.
Connects with the PG* environment variables to the Citus coordinator.
Prints its plan (one lookup for each line, two for a uuid or bigint ID), then
one verdict a lookup (test/lib/verdicts.py) for test/integration/citus.pl.
"""
import os
import sys
import uuid

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verdicts import plan, say  # noqa: E402


def lookups(conn, table, param, fmt, cast):
    """The (id::text, n) rows of six executions of one prepared statement."""
    query = f"SELECT id::text, n FROM {table} WHERE id = %{fmt}{cast}"
    return [conn.execute(query, [param], prepare=True).fetchall() for _ in range(6)]


def main():
    with open(sys.argv[1]) as f:
        ids = [line.rstrip("\n").split("\t") for line in f]
    plan(sum(2 if typ in ('uuid', 'bigint') else 1 for _, typ, _ in ids))
    with psycopg.connect(autocommit=True) as conn:
        conn.prepare_threshold = 0
        for table, typ, text in ids:
            # a domain's constant is cast to it (docs/multi-server.md: Citus prunes every
            # shard for an uncast one)
            cast = f"::{typ}" if typ in ("order_id", "user_id") else ""
            params = [("text", text, "s")]
            if typ == "uuid":
                params.append(("a binary uuid.UUID", uuid.UUID(text), "b"))
            elif typ == "bigint":
                params.append(("a binary int8", int(text), "b"))
            for label, param, fmt in params:
                try:
                    got = lookups(conn, table, param, fmt, cast)
                    good = all(rows == [(text, 777)] for rows in got)
                    detail = "" if good else f" (got {got[0]!r})"
                except psycopg.Error as e:
                    good, detail = False, f" ({e.sqlstate}: {e})"
                say(good, f"{table}: psycopg's extended protocol, ID as {label} parameter of a prepared "
                    f"statement{' (cast to ' + typ + ')' if cast else ''}, returns the row on each of 6 executions{detail}")


main()
