#!/usr/bin/python3
"""Measurements and checks of test/integration/multi_node.pl (3 writers, 1 consolidating
server, logical replication). The Perl test starts servers and runs pgbench; this
reads the servers through psycopg and prints its plan ("plan<TAB>N", the
number of checks the command makes, VERDICTS), then one line per check:
"ok<TAB>what", "not ok<TAB>what" or "#<TAB>comment"; IdgenTest::verdicts turns them into checks.

The nodes come from DIR/nodes.tsv: name, port, configured clock offset in ms
(libfaketime; empty for the consolidator) and the shards the writer owns."""
import argparse
import re
import statistics
import sys
import time

import psycopg
from verdicts import note, plan, say

TABLES = ("sf_ids", "uuid_ids", "ulid_ids", "order_ids")
FAMILY = {"sf_ids": "snowflake", "uuid_ids": "uuid_v7", "ulid_ids": "ulid", "order_ids": "order_id"}


def shard_set(text):
    out = set()
    for item in text.split(","):
        lo, _, hi = item.strip().partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


class Nodes:
    def __init__(self, directory):
        self.port, self.offset_ms, self.shards = {}, {}, {}
        with open(f"{directory}/nodes.tsv") as f:
            for line in f:
                name, port, offset, shards = line.rstrip("\n").split("\t")
                self.port[name] = int(port)
                self.offset_ms[name] = float(offset) if offset else 0.0
                self.shards[name] = shard_set(shards) if shards else set()
        self.conns = {}

    def conn(self, name):
        c = self.conns.get(name)
        if c is None or c.closed:
            c = psycopg.connect(host="127.0.0.1", port=self.port[name], user="postgres",
                                dbname="postgres", autocommit=True, connect_timeout=10)
            self.conns[name] = c
        return c

    def rows(self, name, sql, params=None):
        return self.conn(name).execute(sql, params).fetchall()

    def value(self, name, sql, params=None):
        return self.rows(name, sql, params)[0][0]


def measure_offset_ms(nodes, name):
    """A server's clock minus this process's (the real clock), in ms: the
    median of 15 round trips."""
    samples = []
    for _ in range(15):
        before = time.time()
        server = nodes.value(name, "SELECT extract(epoch FROM clock_timestamp())::float8")
        after = time.time()
        samples.append((server - (before + after) / 2) * 1000)
    return statistics.median(samples)


def clock(nodes, args):
    """Each named server's clock against the offset it was configured with."""
    for name in args.names:
        measured = measure_offset_ms(nodes, name)
        expected = float(args.expect.get(name, nodes.offset_ms[name])) if args.expect else nodes.offset_ms[name]
        say(abs(measured - expected) <= args.tolerance_ms,
            f"{name}'s clock runs {measured:+.1f} ms from the real clock "
            f"(configured {expected:+.0f} ms, tolerance {args.tolerance_ms} ms)")


def writer_counts(nodes, writers):
    return {(w, t): nodes.value(w, f"SELECT count(*) FROM {t}") for w in writers for t in TABLES}


def consolidated_counts(nodes, writers):
    out = {(w, t): 0 for w in writers for t in TABLES}
    for t in TABLES:
        for w, n in nodes.rows("c", f"SELECT writer, count(*) FROM {t} GROUP BY writer"):
            if w in writers:
                out[(w, t)] = n
    return out


def catchup(nodes, args):
    """Waits until the consolidator holds every row of every writer."""
    deadline = time.time() + args.timeout
    want = writer_counts(nodes, args.names)
    while True:
        got = consolidated_counts(nodes, args.names)
        if got == want or time.time() > deadline:
            break
        time.sleep(0.5)
    for w in args.names:
        mine = {t: want[(w, t)] for t in TABLES}
        there = {t: got[(w, t)] for t in TABLES}
        say(mine == there and all(mine.values()),
            f"every row of {w} reached the consolidator ({', '.join(f'{t} {there[t]}/{mine[t]}' for t in TABLES)})")


def owned_shards(nodes, args):
    """Every snowflake on the consolidator decodes to a shard its writer owns,
    and the consolidator holds each writer's claims under its system identifier."""
    for w in args.names:
        found = dict(nodes.rows("c", "SELECT snowflake_shard(id), count(*) FROM sf_ids WHERE writer = %s GROUP BY 1", (w,)))
        stray = {s: n for s, n in found.items() if s not in nodes.shards[w]}
        say(found and not stray,
            f"every snowflake of {w} decodes to one of its shards "
            f"({len(found)} shards used, {sum(found.values())} IDs; outside its shards: {stray or 'none'})")
        sysid = nodes.value(w, "SELECT system_identifier FROM pg_control_system()")
        claimed = {s for (s,) in nodes.rows("c", "SELECT shard FROM idgen_shard_claim WHERE family = 'snowflake' "
                                                 "AND system_identifier = %s", (sysid,))}
        say(claimed == nodes.shards[w],
            f"the consolidator holds {w}'s claims on its {len(nodes.shards[w])} shards under its system identifier "
            f"(got {len(claimed)})")


def unique(nodes, args):
    """No ID appears twice across the writers' own tables (independent of the
    consolidator's primary keys)."""
    for t in TABLES:
        seen, total = set(), 0
        for w in args.names:
            for (i,) in nodes.conn(w).execute(f"SELECT id::text FROM {t}"):
                seen.add(i)
                total += 1
        say(total > 0 and len(seen) == total,
            f"{FAMILY[t]}: the {len(args.names)} writers' {total} IDs are distinct ({total - len(seen)} repeated)")


def inversion(nodes, args):
    """ORDER BY id against the real time of insertion. Each row's t is
    clock_timestamp() on its writer; the real time is t minus the writer's
    clock offset, measured here against this process's clock. The largest
    inversion is the largest amount by which a row with a smaller ID was
    inserted after a row with a larger one. Bound: the spread of the offsets
    the writers were configured with (the IDs order the writers' clocks, not
    real time) plus a stated margin for the moments between computing a
    row's ID and its t."""
    spread = max(nodes.offset_ms[w] for w in args.names) - min(nodes.offset_ms[w] for w in args.names)
    measured = {w: measure_offset_ms(nodes, w) for w in args.names}
    note("measured clock offsets: " + ", ".join(f"{w} {measured[w]:+.1f} ms" for w in args.names))
    bound = spread + args.margin_ms
    for t in TABLES:
        rows = nodes.rows("c", f"SELECT writer, (extract(epoch FROM t) * 1000000)::int8 FROM {t} "
                               f"WHERE run = %s AND writer = ANY (%s) ORDER BY id", (args.run, list(args.names)))
        worst, worst_same = 0.0, 0.0
        running_max = None
        last_by_writer = {}
        for writer, t_us in rows:
            real_ms = t_us / 1000.0 - measured[writer]
            if running_max is not None:
                worst = max(worst, running_max - real_ms)
            running_max = real_ms if running_max is None else max(running_max, real_ms)
            prev = last_by_writer.get(writer)
            if prev is not None:
                worst_same = max(worst_same, prev - real_ms)
            last_by_writer[writer] = real_ms if prev is None else max(prev, real_ms)
        say(len(rows) > 0 and worst <= bound,
            f"{FAMILY[t]}: ORDER BY id inverts real insertion time by at most {worst:.1f} ms over {len(rows)} rows "
            f"(bound: clock spread {spread:.0f} ms + margin {args.margin_ms:.0f} ms)")
        note(f"{FAMILY[t]}: largest inversion within one writer {worst_same:.1f} ms (the time between a row's ID and its t)")
        say(worst >= spread / 2,
            f"{FAMILY[t]}: the measurement sees the clock skew (largest inversion {worst:.1f} ms >= half the spread)")


LOG_LINE = re.compile(r"^\S+ \S+ \S+ \[(\d+)\] ([^:]*): (LOG|ERROR|FATAL|WARNING|DETAIL|HINT|CONTEXT|STATEMENT):  (.*)$")
STARTED = re.compile(r'logical replication apply worker for subscription "([^"]+)" has started')
CONNECTION = ("could not receive data from WAL stream", "could not connect to the publisher",
              "could not send data to WAL stream", "server closed the connection unexpectedly",
              "terminating connection", "connection to server")
ORIGIN_HELD = re.compile(r"^replication origin with ID \d+ is already active for PID (\d+)$")


def read_log(path):
    """The consolidator's log by subscription (through the pid of each apply
    worker): its ERROR/FATAL lines, each with its pid, line number and the
    DETAIL that follows it; and the line numbers at which its apply workers
    started."""
    sub_of, by_sub, starts, last = {}, {}, {}, None
    with open(path, errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = LOG_LINE.match(line.rstrip("\n"))
            if not m:
                continue
            pid, _, level, text = m.groups()
            s = STARTED.search(text)
            if s:
                sub_of[pid] = s.group(1)
                starts.setdefault(s.group(1), []).append(number)
            if level in ("ERROR", "FATAL"):
                last = {"level": level, "text": text, "detail": "", "pid": pid, "line": number}
                by_sub.setdefault(sub_of.get(pid, f"pid {pid}"), []).append(last)
            elif level == "DETAIL" and last is not None:
                last["detail"] = text
            else:
                last = None
    return by_sub, starts


def origin_handover(e, mine, starts):
    """Whether error E of a subscription (MINE its errors, STARTS the lines at
    which its apply workers started) is PostgreSQL's transient one of a
    restart: the exiting apply worker frees its worker slot and wakes the
    launcher in a before_shmem_exit callback, but releases the replication
    origin only in a later on_shmem_exit one (launcher.c, origin.c), so the
    next worker can find the origin "already active for PID" of the old one,
    exit, and be started again after wal_retrieve_retry_interval. It is that
    when the PID named is an earlier worker of the same subscription that had
    already logged the error it exits on, and a worker of the subscription
    started after it (the last one of such errors is then followed by a worker
    that got past the origin)."""
    m = ORIGIN_HELD.match(e["text"])
    if not m:
        return False
    holder_exiting = any(o["pid"] == m.group(1) and o["line"] < e["line"] for o in mine)
    return holder_exiting and any(line > e["line"] for line in starts)


def guard_log(path, sub):
    """The errors of subscription SUB in the consolidator's log at PATH that
    the guard judge weighs, and those it leaves out: each retry is a new apply
    worker, which may first meet the one before still holding the origin
    (origin_handover), an error of PostgreSQL's restart, not of the guard."""
    by_sub, starts = read_log(path)
    mine = by_sub.get(sub, [])
    handovers = [e for e in mine if origin_handover(e, mine, starts.get(sub, []))]
    return [e for e in mine if e not in handovers], handovers


def sub_stats(nodes):
    cur = nodes.conn("c").execute("SELECT * FROM pg_stat_subscription_stats")
    cols = [d.name for d in cur.description]
    return {r[cols.index("subname")]: dict(zip(cols, r)) for r in cur.fetchall()}


def sync_errors(st):
    """A subscription's table synchronization errors: sync_error_count up to
    PostgreSQL 18; 19 counts tables and sequences apart (sync_table_error_count,
    sync_seq_error_count)."""
    return sum(v for k, v in st.items() if k.startswith("sync_") and k.endswith("error_count"))


def errors(nodes, args):
    """No apply error: pg_stat_subscription_stats (apply and sync errors; from
    PostgreSQL 18 also the conflict counters) and the consolidator's log. A
    subscription named in --connection-only may show errors that say its
    publisher went away (the failover), and a restarted worker's transient
    "replication origin ... is already active" (origin_handover), and nothing
    else."""
    stats = sub_stats(nodes)
    logged, starts = read_log(args.log)
    for sub in args.clean + args.connection_only:
        st = stats.get(sub)
        if st is None:
            say(False, f"{sub}: pg_stat_subscription_stats has a row")
            continue
        conflicts = {k: v for k, v in st.items() if k.startswith("confl_") and v}
        mine = logged.get(sub, [])
        if sub in args.clean:
            say(st["apply_error_count"] == 0 and sync_errors(st) == 0 and not conflicts and not mine,
                f"{sub}: 0 apply errors, 0 sync errors, 0 conflicts, no ERROR in the log "
                f"(apply {st['apply_error_count']}, sync {sync_errors(st)}, conflicts {conflicts or 0}, "
                f"log {[e['text'] for e in mine][:3]})")
        else:
            handovers = [e for e in mine if origin_handover(e, mine, starts.get(sub, []))]
            other = [e["text"] for e in mine
                     if not any(c in e["text"] for c in CONNECTION) and e not in handovers]
            note(f"{sub}: " + "; ".join(sorted({e["text"] for e in mine})))
            for e in handovers:
                note(f"{sub}: line {e['line']}, worker {e['pid']}: the worker before still held the origin, "
                     "and a worker started after it")
            say(not other and not conflicts and sync_errors(st) == 0,
                f"{sub}: its only errors say the publisher went away, or that the worker before still held "
                f"the origin ({len(mine)} logged, {len(handovers)} of them the origin; "
                f"apply_error_count {st['apply_error_count']}; others: {other[:3] or 'none'}; conflicts {conflicts or 0})")
    known = set(args.clean + args.connection_only + args.ignore)
    stray = {k: [e["text"] for e in v][:3] for k, v in logged.items() if k not in known}
    say(not stray, f"no other ERROR in the consolidator's log ({stray or 'none'})")


def guard(nodes, args):
    """The misconfigured writer's subscription stops at its claim: the
    consolidator reports the trigger's 23505, retries and fails again, and
    none of the writer's rows arrives."""
    w, sub = args.writer, args.subscription
    deadline = time.time() + args.timeout
    while True:
        st = sub_stats(nodes).get(sub, {})
        if st.get("apply_error_count", 0) >= 2 or time.time() > deadline:
            break
        time.sleep(0.5)
    minted = {t: nodes.value(w, f"SELECT count(*) FROM {t}") for t in TABLES}
    arrived = {t: nodes.value("c", f"SELECT count(*) FROM {t} WHERE writer = %s", (w,)) for t in TABLES}
    say(st.get("apply_error_count", 0) >= 2,
        f"{sub}: the apply worker failed at least twice, retrying the same transaction "
        f"(apply_error_count {st.get('apply_error_count')})")
    logged, handovers = guard_log(args.log, sub)
    for e in handovers:
        note(f"{sub}: line {e['line']}, worker {e['pid']}: the worker before still held the origin")
    expected = f"snowflake shard {args.shard} is already claimed by another server"
    clear = [e for e in logged if e["text"] == expected]
    note("consolidator: ERROR:  " + (clear[0]["text"] + "\nDETAIL:  " + clear[0]["detail"] if clear else
                                     "; ".join(e["text"] for e in logged[:3]) or "(no error logged)"))
    say(bool(clear) and len(clear) == len(logged),
        f'{sub}: every error is the guard\'s "{expected}" ({len(clear)} of {len(logged)}; '
        f'others: {[e["text"] for e in logged if e not in clear][:3] or "none"})')
    first_name = args.holder
    say(bool(clear) and f'Server "{first_name}"' in clear[0]["detail"] and f'server "{w}"' in clear[0]["detail"],
        f"{sub}: the error's detail names both servers ({first_name} holds it, {w} claims it)")
    say(sum(minted.values()) > 0 and sum(arrived.values()) == 0,
        f"{w} minted {sum(minted.values())} rows, {sum(arrived.values())} reached the consolidator "
        f"({', '.join(f'{t} {arrived[t]}' for t in TABLES)})")
    holder_sysid = nodes.value(args.holder, "SELECT system_identifier FROM pg_control_system()")
    say(nodes.value("c", "SELECT system_identifier FROM idgen_shard_claim WHERE family = 'snowflake' AND shard = %s",
                    (args.shard,)) == holder_sysid,
        f"the consolidator's claim on shard {args.shard} is still {args.holder}'s")


# each command's number of checks, from its arguments
VERDICTS = {
    "clock": lambda a: len(a.names),
    "catchup": lambda a: len(a.names),
    "owned": lambda a: 2 * len(a.names),
    "unique": lambda a: len(TABLES),
    "inversion": lambda a: 2 * len(TABLES),
    "errors": lambda a: len(a.clean) + len(a.connection_only) + 1,
    "guard": lambda a: 5,
}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dir", required=True)
    p.add_argument("--timeout", type=float, required=True,
                   help="seconds a wait may last before its condition counts as never met (the suite's timeout)")
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("clock")
    c.add_argument("names", nargs="+")
    c.add_argument("--tolerance-ms", type=float, default=15)
    c.add_argument("--expect", type=lambda s: dict(x.split("=") for x in s.split(",")), default=None,
                   help="name=ms,... instead of the configured offsets")
    for name in ("catchup", "owned", "unique"):
        s = sub.add_parser(name)
        s.add_argument("names", nargs="+")
    i = sub.add_parser("inversion")
    i.add_argument("names", nargs="+")
    i.add_argument("--run", type=int, required=True)
    i.add_argument("--margin-ms", type=float, required=True)
    e = sub.add_parser("errors")
    e.add_argument("--log", required=True)
    e.add_argument("--clean", nargs="*", default=[])
    e.add_argument("--connection-only", nargs="*", default=[])
    e.add_argument("--ignore", nargs="*", default=[])
    g = sub.add_parser("guard")
    g.add_argument("--log", required=True)
    g.add_argument("--writer", required=True)
    g.add_argument("--holder", required=True)
    g.add_argument("--subscription", required=True)
    g.add_argument("--shard", type=int, required=True)
    args = p.parse_args()
    plan(VERDICTS[args.cmd](args))
    nodes = Nodes(args.dir)
    try:
        {"clock": clock, "catchup": catchup, "owned": owned_shards, "unique": unique,
         "inversion": inversion, "errors": errors, "guard": guard}[args.cmd](nodes, args)
    except (psycopg.Error, OSError) as exc:
        say(False, f"{args.cmd}: {type(exc).__name__}: {str(exc).strip()}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
