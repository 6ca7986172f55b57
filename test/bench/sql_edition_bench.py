#!/usr/bin/python3
"""Measures the SQL edition against the C++ edition and bigserial (issue 25)
on the server in the PG* environment (database with the C++ edition in schema
cpp and the SQL edition in schema sqled, as sql_edition_bench.sh makes it), and
writes a Markdown report to argv[1].

Per call: `SELECT count(f) FROM generate_series(1, CALLS)`, timed in the server
(clock_timestamp around EXECUTE), each expression REPS times in interleaved
rounds; the median per call, and the median over the rounds of its ratio to
the C++ edition's and to nextval() of a bigserial's sequence in the same round.
Bulk load: `INSERT INTO t (n) SELECT g FROM generate_series(1, ROWS)` into a
fresh table whose primary key's DEFAULT is the generator, timed in the server,
once per family and edition, each family right after a bigserial load of its
own, which its ratios use.
Figures and ratios are printed and saved; nothing here passes or fails on speed.
Standard library only (psql runs the SQL).
"""
import os
import platform
import statistics
import subprocess
import sys
import time

CALLS = int(os.environ.get("SQLED_BENCH_CALLS", "100000"))
ROWS = int(os.environ.get("SQLED_BENCH_ROWS", "2000000"))
REPS = int(os.environ.get("SQLED_BENCH_REPS", "3"))

# family: (column type in the C++ edition, in the SQL edition, generator expression with @ for the schema)
FAMILIES = [
    ("uuid_v7", "uuid", "uuid", "@uuid_v7()"),
    ("snowflake", "bigint", "bigint", "@snowflake(1)"),
    ("snowflake53", "bigint", "bigint", "@snowflake53(1)"),
    ("ulid", "cpp.ulid", "sqled.ulid", "@ulid()"),
    ("prefixed_id", "cpp.prefixed_id", "sqled.prefixed_id", "@prefixed_id_new('acct')"),
    ("typeid", "cpp.typeid", "sqled.typeid", "@typeid_new('user')"),
]

SETUP = """
SET idgen.allowed_shards = '0-8191';
CREATE OR REPLACE FUNCTION public.bench_seconds(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN EXECUTE q; RETURN extract(epoch FROM clock_timestamp() - t0); END $$;
CREATE SEQUENCE IF NOT EXISTS public.bench_seq AS bigint;
"""


def psql(sql):
    done = subprocess.run(["psql", "-XAtq", "-v", "ON_ERROR_STOP=1"], input=SETUP + sql,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"psql failed: {done.stderr.strip()}\n{sql}")
    return done.stdout.strip().splitlines()


def seconds(query):
    q = query.replace("'", "''")
    return float(psql(f"SELECT public.bench_seconds('{q}');")[-1])


def per_call_us(expr):
    return seconds(f"SELECT count({expr}) FROM generate_series(1, {CALLS})") / CALLS * 1e6


def main(out):
    load_start = os.getloadavg()
    version = psql("SELECT version();")[-1]
    started = time.time()
    # per call: interleaved rounds
    exprs = {"bigserial (nextval)": "nextval('public.bench_seq')"}
    for name, _, _, gen in FAMILIES:
        exprs[f"{name} C++"] = gen.replace("@", "cpp.")
        exprs[f"{name} SQL"] = gen.replace("@", "sqled.")
    samples = {k: [] for k in exprs}
    for _ in range(REPS):
        for k, e in exprs.items():
            samples[k].append(per_call_us(e))
    call = {k: statistics.median(v) for k, v in samples.items()}
    # bulk loads: per family, bigserial, then the C++ edition, then the SQL
    # edition, so that each family's ratios use a bigserial load next to it
    load = {}
    for name, cpp_type, sql_type, gen in FAMILIES:
        for label, col, g in ((f"{name} bigserial", "bigserial", None), (f"{name} C++", cpp_type, gen.replace("@", "cpp.")),
                              (f"{name} SQL", sql_type, gen.replace("@", "sqled."))):
            psql("DROP TABLE IF EXISTS public.bench_load;")
            if g is None:
                psql("CREATE TABLE public.bench_load (id bigserial PRIMARY KEY, n integer);")
            else:
                psql(f"CREATE TABLE public.bench_load (id {col} PRIMARY KEY DEFAULT {g}, n integer);")
            load[label] = seconds(f"INSERT INTO public.bench_load (n) SELECT g FROM generate_series(1, {ROWS}) g")
            rows = int(psql("SELECT count(*) FROM public.bench_load;")[-1])
            if rows != ROWS:
                sys.exit(f"{label}: {rows} rows loaded, not {ROWS}")
    psql("DROP TABLE IF EXISTS public.bench_load;")
    load_end = os.getloadavg()
    elapsed = time.time() - started

    lines = [
        "# SQL edition against the C++ edition and bigserial",
        "",
        f"`test/bench/sql_edition_bench.sh`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {version}; "
        f"{platform.machine()}, {os.cpu_count()} CPUs shared with other work: load average "
        f"{load_start[0]:.2f} / {load_start[1]:.2f} / {load_start[2]:.2f} at the start, "
        f"{load_end[0]:.2f} / {load_end[1]:.2f} / {load_end[2]:.2f} at the end ({elapsed:.0f} s). "
        f"Only the ratios within this run mean anything; absolute times depend on the load.",
        "",
        f"## Per call (`SELECT count(f) FROM generate_series(1, {CALLS})`, median of {REPS} interleaved rounds)",
        "",
        "| family | C++ µs | SQL µs | SQL / C++ | SQL / bigserial |",
        "|---|---:|---:|---:|---:|",
    ]
    base = call["bigserial (nextval)"]
    for name, *_ in FAMILIES:
        c, s = call[f"{name} C++"], call[f"{name} SQL"]
        # ratios within each round (the load of a shared machine changes between rounds), then their median
        r_cpp = statistics.median(x / y for x, y in zip(samples[f"{name} SQL"], samples[f"{name} C++"]))
        r_base = statistics.median(x / y for x, y in zip(samples[f"{name} SQL"], samples["bigserial (nextval)"]))
        lines.append(f"| {name} | {c:.2f} | {s:.2f} | {r_cpp:.1f} | {r_base:.1f} |")
    lines.append(f"| bigserial (nextval) | {base:.2f} | | | 1.0 |")
    lines += [
        "",
        f"## Bulk load of {ROWS} rows (`INSERT ... SELECT` into a table whose primary key defaults to the generator; "
        "per family a bigserial load, then the C++ edition's, then the SQL edition's)",
        "",
        "| family | bigserial s | C++ s | SQL s | SQL / C++ | SQL / bigserial | C++ / bigserial |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, *_ in FAMILIES:
        b, c, s = load[f"{name} bigserial"], load[f"{name} C++"], load[f"{name} SQL"]
        lines.append(f"| {name} | {b:.2f} | {c:.2f} | {s:.2f} | {s / c:.1f} | {s / b:.1f} | {c / b:.1f} |")
    lines += ["", "Raw per-call samples (µs): " + "; ".join(
        f"{k} {', '.join(f'{x:.2f}' for x in v)}" for k, v in samples.items()), ""]
    text = "\n".join(lines)
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main(sys.argv[1])
