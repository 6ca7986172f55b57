#!/usr/bin/python3
"""Measures the SQL edition against the C++ edition and bigserial, against the
SQL edition before the 0.7.0 speed work and against the functions users paste
in instead (test/bench/sql_edition_peers.sql, written in the project from
their published formulas), on the server in the PG* environment (database
with the C++ edition in schema cpp, the SQL edition in schema sqled, the one
before the 0.7.0 speed work in sqled_before, the peers in their schemas, as
sql_edition_bench.sh makes it), and writes a Markdown report to argv[1].

Per call: `SELECT count(f) FROM generate_series(1, CALLS)`, timed in the server
(clock_timestamp around EXECUTE), each expression REPS times in interleaved
rounds; the median per call, and the median over the rounds of its ratio to
the C++ edition's and to nextval() of a bigserial's sequence in the same round.
Bulk load: `INSERT INTO t (n) SELECT g FROM generate_series(1, ROWS)` into a
fresh table whose primary key's DEFAULT is the generator, timed in the server,
LOAD_REPS rounds per family of a bigserial load, the C++ edition's and the SQL
edition's; a ratio is the median over the rounds of the ratio within a round.
Each ratio to a peer or to the edition before is the median over the rounds
of the ratio within a round; the goals set for the SQL edition's speed in
0.7.0 are printed beside them.
What a guarantee costs: the edition's generators with one guarantee taken out
(test/bench/sql_edition_without.sql), per call against the peer and in bulk
loads against a bigserial load beside each.
The snowflake mints' lock: each family's mint (the owner-only lock table,
locked in a block rolled back on purpose) against a copy serialized as 0.7.0's
was (a session advisory lock and its unlock around nextval and setval in one
expression), against a copy with no lock at all (both copies from
sql_edition_without.sql) and against Instagram's next_id(), per call in
LOCK_REPS interleaved rounds and in LOAD_REPS rounds of bulk loads, the order
of the four reversed every other round; each ratio is the median over the
rounds of the ratio within a round.
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
# bulk loads: rounds of (bigserial, C++, SQL) per family; one load is noisy
# (a family's ratio moved from 1.86 to 2.09 between two runs of one load)
LOAD_REPS = int(os.environ.get("SQLED_BENCH_LOAD_REPS", "3"))
# per-call rounds of the snowflake mints' lock comparison (cheap: a few
# seconds a round; the difference measured is a few microseconds a call)
LOCK_REPS = int(os.environ.get("SQLED_BENCH_LOCK_REPS", "7"))

# family: (column type in the C++ edition, in the SQL edition, generator expression with @ for the schema)
FAMILIES = [
    ("uuid_v7", "uuid", "uuid", "@uuid_v7()"),
    ("snowflake", "bigint", "bigint", "@snowflake(1)"),
    ("snowflake53", "bigint", "bigint", "@snowflake53(1)"),
    ("ulid", "cpp.ulid", "sqled.ulid", "@ulid()"),
    ("prefixed_id", "cpp.prefixed_id", "sqled.prefixed_id", "@prefixed_id_new('acct')"),
    ("typeid", "cpp.typeid", "sqled.typeid", "@typeid_new('user')"),
]

# the goals set for the SQL edition's speed in 0.7.0: (family, reference,
# expression, goal: the edition's cost at most this many times the
# reference's). The TypeID peer's goal is the one first set against
# typeid-sql's text function, which the bench no longer installs.
PEERS = [
    ("uuid_v7", "PL/pgSQL UUIDv7 (RFC 9562 §5.7)", "peer_uuidv7_plpgsql.uuidv7()", None),
    ("uuid_v7", "inlinable `LANGUAGE sql` UUIDv7", "peer_uuidv7_sql.uuidv7()", 1.0),
    ("snowflake", "Instagram `next_id()`", "insta5.next_id()", 1.0),
    ("snowflake53", "Instagram `next_id()`", "insta5.next_id()", 1.0),
    ("ulid", "PL/pgSQL ULID (text)", "peer_ulid_plpgsql.generate_ulid()", None),
    ("typeid", "PL/pgSQL TypeID (UUIDv7, Crockford base32, text)", "peer_typeid_plpgsql.typeid_generate('user')", 1.0),
]
# goals against the edition itself: (family, reference label, reference key in the samples, goal)
SELF_GOALS = [
    ("ulid", "the SQL edition before the 0.7.0 speed work", "ulid before", 1.0),
    ("prefixed_id", "the SQL edition's `uuid_v7()`", "uuid_v7 SQL", 2.0),
    ("typeid", "the SQL edition's `uuid_v7()`", "uuid_v7 SQL", None),
]
# what a guarantee costs: the edition's own pieces, not shipped as they are
# here (test/bench/sql_edition_without.sql), per call against the family's peer
GUARANTEE_COSTS = [
    ("uuid_v7", "the same encoding from one clock reading, without the session's last tick (no strict order per session)",
     "(pg_catalog.overlay(pg_catalog.lpad(pg_catalog.to_hex(sqled.idgen_sql_unix_us(pg_catalog.clock_timestamp()) * 512 / 125),"
     " 15, '0'), '7', 13, 0) || pg_catalog.encode(pg_catalog.substr(pg_catalog.uuid_send(pg_catalog.gen_random_uuid()), 9), 'hex'))::uuid"),
    ("snowflake", "the mint without its lock (no LOCK TABLE, no rolled-back block, no read-only check, which only the lock needs; IDs may repeat across sessions)",
     "without_guarantee.snowflake_mint_unlocked(1)"),
    ("snowflake53", "the mint without its lock (as for snowflake)",
     "without_guarantee.snowflake53_mint_unlocked(1)"),
]
# the snowflake mints' lock: (family, [(label, expression)]), the edition's
# mint first; the copies are sql_edition_without.sql's
LOCKS = [
    (fam, [("the edition's mint: LOCK TABLE in a rolled-back block", f"sqled.{fam}(1)"),
           ("0.7.0's serialization: advisory lock and unlock in one expression", f"without_guarantee.{fam}_mint_advisory(1)"),
           ("no lock (IDs may repeat across sessions)", f"without_guarantee.{fam}_mint_unlocked(1)"),
           ("Instagram `next_id()`", "insta5.next_id()")])
    for fam in ("snowflake", "snowflake53")
]
# and in bulk loads against bigserial: (family, what is given up, column, DEFAULT)
BULK_COSTS = [
    ("uuid_v7", "no session order: the inlinable `LANGUAGE sql` UUIDv7 peer", "uuid", "peer_uuidv7_sql.uuidv7()"),
    ("uuid_v7", "no session order, random() (not a CSPRNG) for the random bits", "uuid",
     "without_guarantee.uuid_v7_random()"),
    ("prefixed_id", "no domain CHECK (the mint's text in a text column)", 'text COLLATE "C"',
     "sqled.idgen_sql_prefixed_id_mint('acct_', sqled.idgen_sql_base36_pairs())"),
    ("prefixed_id", "no domain CHECK, random() (not a CSPRNG) for the random bits", 'text COLLATE "C"',
     "without_guarantee.prefixed_id_mint_random('acct_', sqled.idgen_sql_base36_pairs())"),
    ("typeid", "no domain CHECK (the mint's text in a text column)", 'text COLLATE "C"',
     "sqled.idgen_sql_typeid_mint('user_', sqled.idgen_sql_crockford_pairs_lower())"),
    ("typeid", "no domain CHECK, random() (not a CSPRNG) for the random bits", 'text COLLATE "C"',
     "without_guarantee.typeid_mint_random('user_', sqled.idgen_sql_crockford_pairs_lower())"),
]
BULK_GOALS = {"uuid_v7": 2.0, "snowflake": 2.0, "snowflake53": 2.0, "ulid": 2.0, "prefixed_id": 3.0, "typeid": 3.0}

SETUP = """
SET idgen.allowed_shards = '0-8191';
SET search_path = public;
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


def median_ratio(xs, ys):
    """The median over rounds of the ratio within a round (the load of a shared
    machine changes between rounds)."""
    return statistics.median(x / y for x, y in zip(xs, ys))


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
        exprs[f"{name} before"] = gen.replace("@", "sqled_before.")
    for _, label, expr, _ in PEERS:
        exprs[label] = expr
    for _, label, expr in GUARANTEE_COSTS:
        exprs[label] = expr
    samples = {k: [] for k in exprs}
    for _ in range(REPS):
        for k, e in exprs.items():
            samples[k].append(per_call_us(e))
    call = {k: statistics.median(v) for k, v in samples.items()}
    # the snowflake mints' lock, per call: rounds of the four of each family,
    # in reversed order every other round
    lock_samples = {(fam, label): [] for fam, variants in LOCKS for label, _ in variants}
    for i in range(LOCK_REPS):
        for fam, variants in LOCKS:
            for label, e in (variants if i % 2 == 0 else variants[::-1]):
                lock_samples[(fam, label)].append(per_call_us(e))
    # bulk loads: per family and round, bigserial, then the C++ edition, then
    # the SQL edition, so that each ratio uses a bigserial load next to it
    load = {}

    def load_round(loads):
        for label, col, g in loads:
            psql("DROP TABLE IF EXISTS public.bench_load;")
            if g is None:
                psql("CREATE TABLE public.bench_load (id bigserial PRIMARY KEY, n integer);")
            else:
                psql(f"CREATE TABLE public.bench_load (id {col} PRIMARY KEY DEFAULT {g}, n integer);")
            load.setdefault(label, []).append(
                seconds(f"INSERT INTO public.bench_load (n) SELECT g FROM generate_series(1, {ROWS}) g"))
            rows = int(psql("SELECT count(*) FROM public.bench_load;")[-1])
            if rows != ROWS:
                sys.exit(f"{label}: {rows} rows loaded, not {ROWS}")

    for name, cpp_type, sql_type, gen in FAMILIES:
        for _ in range(LOAD_REPS):
            load_round(((f"{name} bigserial", "bigserial", None), (f"{name} C++", cpp_type, gen.replace("@", "cpp.")),
                        (f"{name} SQL", sql_type, gen.replace("@", "sqled."))))
    for name, label, col, g in BULK_COSTS:
        for _ in range(LOAD_REPS):
            load_round(((f"{name} {label} bigserial", "bigserial", None), (f"{name} {label}", col, g)))
    for fam, variants in LOCKS:
        for i in range(LOAD_REPS):
            loads = [(f"{fam} lock: {label}", "bigint", e) for label, e in variants]
            load_round(loads if i % 2 == 0 else loads[::-1])
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
        r_cpp = median_ratio(samples[f"{name} SQL"], samples[f"{name} C++"])
        r_base = median_ratio(samples[f"{name} SQL"], samples["bigserial (nextval)"])
        lines.append(f"| {name} | {c:.2f} | {s:.2f} | {r_cpp:.1f} | {r_base:.1f} |")
    lines.append(f"| bigserial (nextval) | {base:.2f} | | | 1.0 |")

    def ratio(key, ref):
        return median_ratio(samples[key], samples[ref])

    lines += [
        "",
        "## Per call against the peers users paste in",
        "",
        "The edition's median, the reference's median in the same rounds, and the median over the rounds of "
        "their ratio within a round; the goal is the one set for the SQL edition's speed in 0.7.0 "
        "(edition / reference at most that).",
        "",
        "| family | SQL edition µs | reference | reference µs | edition / reference | goal | met |",
        "|---|---:|---|---:|---:|---:|---|",
    ]
    refs = [(fam, label, label, goal) for fam, label, _, goal in PEERS] + SELF_GOALS
    for fam, label, key, goal in sorted(refs, key=lambda r: [f[0] for f in FAMILIES].index(r[0])):
        r = ratio(f"{fam} SQL", key)
        met = "" if goal is None else ("yes" if r <= goal else "no")
        lines.append(f"| {fam} | {call[f'{fam} SQL']:.2f} | {label} | {call[key]:.2f} | {r:.2f} | "
                     f"{'' if goal is None else f'≤ {goal:g}'} | {met} |")
    lines += [
        "",
        "What a guarantee costs (the same run; the second figure is not what the edition ships):",
        "",
        "| family | SQL edition µs | without the guarantee | µs | peer | peer µs | without / peer |",
        "|---|---:|---|---:|---|---:|---:|",
    ]
    goal_peer = {fam: label for fam, label, _, goal in PEERS if goal is not None}
    for fam, label, _ in GUARANTEE_COSTS:
        peer = goal_peer[fam]
        lines.append(f"| {fam} | {call[f'{fam} SQL']:.2f} | {label} | {call[label]:.2f} | {peer} | {call[peer]:.2f} | "
                     f"{ratio(label, peer):.2f} |")
    lines += [
        "",
        "## Per call: the SQL edition before the 0.7.0 speed work and now",
        "",
        "| family | before µs | now µs | now / before |",
        "|---|---:|---:|---:|",
    ]
    for name, *_ in FAMILIES:
        lines.append(f"| {name} | {call[f'{name} before']:.2f} | {call[f'{name} SQL']:.2f} | "
                     f"{ratio(f'{name} SQL', f'{name} before'):.2f} |")
    lines += [
        "",
        f"## Bulk load of {ROWS} rows (`INSERT ... SELECT` into a table whose primary key defaults to the generator; "
        f"per family {LOAD_REPS} rounds of a bigserial load, then the C++ edition's, then the SQL edition's: "
        "median seconds, and the median over the rounds of the ratio within a round)",
        "",
        "| family | bigserial s | C++ s | SQL s | SQL / C++ | SQL / bigserial | goal (0.7.0) | met | C++ / bigserial |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|",
    ]

    def load_ratio(key, ref):
        return median_ratio(load[key], load[ref])

    for name, *_ in FAMILIES:
        b, c, s = (statistics.median(load[f"{name} {k}"]) for k in ("bigserial", "C++", "SQL"))
        r_base = load_ratio(f"{name} SQL", f"{name} bigserial")
        goal = BULK_GOALS[name]
        lines.append(f"| {name} | {b:.2f} | {c:.2f} | {s:.2f} | {load_ratio(f'{name} SQL', f'{name} C++'):.1f} | "
                     f"{r_base:.2f} | ≤ {goal:g} | {'yes' if r_base <= goal else 'no'} | "
                     f"{load_ratio(f'{name} C++', f'{name} bigserial'):.1f} |")
    lines += [
        "",
        "What a guarantee costs in a bulk load (the same run; each load beside a bigserial load of its own, "
        f"{LOAD_REPS} rounds; not what the edition ships):",
        "",
        "| family | SQL edition / bigserial | without the guarantee | s | / bigserial | goal (0.7.0) |",
        "|---|---:|---|---:|---:|---:|",
    ]
    for name, label, _, _ in BULK_COSTS:
        key = f"{name} {label}"
        lines.append(f"| {name} | {load_ratio(f'{name} SQL', f'{name} bigserial'):.2f} | {label} | "
                     f"{statistics.median(load[key]):.2f} | {load_ratio(key, f'{key} bigserial'):.2f} | "
                     f"≤ {BULK_GOALS[name]:g} |")
    lines += [
        "",
        "## The snowflake mints' lock: the edition's against 0.7.0's advisory lock, no lock, and Instagram's `next_id()`",
        "",
        "The edition's mint locks its family's lock table (owner-only) with `LOCK TABLE ... IN SHARE UPDATE EXCLUSIVE "
        "MODE` in a PL/pgSQL block that it rolls back on purpose (a subtransaction: the rollback releases the lock and "
        "keeps nextval and setval). The copies (test/bench/sql_edition_without.sql, copied from the installed edition) "
        "replace that block with 0.7.0's serialization (`pg_advisory_lock`, nextval, setval when the clock is ahead, "
        "`pg_advisory_unlock` as one expression, no subtransaction) or with nextval and setval alone. "
        f"Per call: {LOCK_REPS} rounds of the four, in `SELECT count(f) FROM generate_series(1, {CALLS})`; "
        f"bulk: {LOAD_REPS} rounds of four {ROWS}-row loads into a bigint primary key defaulting to each; "
        "the order reversed every other round. Median µs or s, and the median over the rounds of the ratio within a round.",
        "",
        "| family | measure | edition | 0.7.0 | no lock | Instagram | edition / 0.7.0 | edition / no lock "
        "| 0.7.0 / no lock | edition / Instagram | 0.7.0 / Instagram |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for kind, data, unit in (("per call", lock_samples, "µs"), ("bulk", None, "s")):
        for fam, variants in LOCKS:
            if data is None:
                xs = [load[f"{fam} lock: {label}"] for label, _ in variants]
            else:
                xs = [data[(fam, label)] for label, _ in variants]
            new, old, bare, insta = xs
            lines.append(f"| {fam} | {kind} ({unit}) | " + " | ".join(f"{statistics.median(x):.2f}" for x in xs) + " | "
                         + " | ".join(f"{median_ratio(a, b):.2f}" for a, b in
                                      ((new, old), (new, bare), (old, bare), (new, insta), (old, insta))) + " |")
    lines += ["", "Raw per-call samples of the lock comparison (µs): " + "; ".join(
        f"{fam} {label} {', '.join(f'{x:.2f}' for x in v)}" for (fam, label), v in lock_samples.items())]
    lines += ["", "Raw per-call samples (µs): " + "; ".join(
        f"{k} {', '.join(f'{x:.2f}' for x in v)}" for k, v in samples.items()), "",
        "Raw load times (s): " + "; ".join(f"{k} {', '.join(f'{x:.2f}' for x in v)}" for k, v in load.items()), ""]
    text = "\n".join(lines)
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main(sys.argv[1])
