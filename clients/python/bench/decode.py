#!/usr/bin/env python3
"""Per family, decodes ROWS rows (1,000,000 by default) through each driver's
text and binary forms in one run, and prints the seconds and the ratio
binary/text (below 1: binary is faster).

    PGHOST=... PGDATABASE=... python bench/decode.py [ROWS]

Needs the idgen package installed (the wheel), psycopg 3 and asyncpg, and a
database with idgen. Each figure is the best of 3 fetches of the same rows,
from a temporary table, so minting is not measured."""
import asyncio
import os
import sys
import time

import asyncpg
import psycopg

import idgen
import idgen.asyncpg
import idgen.psycopg

ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
FAMILIES = {"ulid": "ulid()", "prefixed_id": "prefixed_id_new('acct')", "typeid": "typeid_new('user')"}


def best(fn, times=3):
    out = []
    for _ in range(times):
        start = time.perf_counter()
        n = fn()
        out.append(time.perf_counter() - start)
        assert n == ROWS, n
    return min(out)


def psycopg_figures(conn):
    idgen.psycopg.register_types(conn)
    figures = {}
    for family in FAMILIES:
        for binary in (False, True):
            def fetch():
                with conn.cursor(binary=binary) as cur:
                    cur.execute("SELECT v FROM bench_%s" % family)
                    return len(cur.fetchall())
            figures[family, binary] = best(fetch)
    return figures


async def asyncpg_figures():
    conn = await asyncpg.connect()
    figures = {}
    for family in FAMILIES:
        # str: asyncpg's own text codec, values as str (no value objects)
        figures[family, "str"] = await abest(conn, family)
    # text: a text codec building the same value objects as the binary codecs
    for family, cls in (("ulid", idgen.ULID), ("prefixed_id", idgen.PrefixedId), ("typeid", idgen.TypeId)):
        await conn.set_type_codec(family, encoder=str, decoder=cls.from_text, format="text")
        figures[family, False] = await abest(conn, family)
    await conn.close()
    conn = await asyncpg.connect()
    await idgen.asyncpg.register_types(conn)
    for family in FAMILIES:
        figures[family, True] = await abest(conn, family)
    await conn.close()
    return figures


async def abest(conn, family, times=3):
    out = []
    for _ in range(times):
        start = time.perf_counter()
        rows = await conn.fetch("SELECT v FROM bench_%s" % family)
        out.append(time.perf_counter() - start)
        assert len(rows) == ROWS
    return min(out)


def main():
    with psycopg.connect(autocommit=True) as conn:
        for family, mint in FAMILIES.items():
            conn.execute("DROP TABLE IF EXISTS bench_%s" % family)
            conn.execute("CREATE TABLE bench_%s AS SELECT %s AS v FROM generate_series(1, %d)"
                         % (family, mint, ROWS))
        figures = {"psycopg": psycopg_figures(conn), "asyncpg": asyncio.run(asyncpg_figures())}
        print("driver\tfamily\trows\ttext s\tbinary s\tbinary/text\tstr s (asyncpg's own text)")
        for driver, by in figures.items():
            for family in FAMILIES:
                text, binary = by[family, False], by[family, True]
                plain = "%.3f" % by[family, "str"] if (family, "str") in by else "-"
                print("%s\t%s\t%d\t%.3f\t%.3f\t%.2f\t%s" % (driver, family, ROWS, text, binary,
                                                          binary / text, plain))
        for family in FAMILIES:
            conn.execute("DROP TABLE bench_%s" % family)


if __name__ == "__main__":
    main()
