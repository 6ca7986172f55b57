#!/usr/bin/python3
"""Clients, measurements and checks of test/integration/ha_patroni.pl (idgen under
Patroni). The test starts etcd and Patroni (test/lib/IdgenTest/Patroni.pm) and
causes the events; this file

  load     runs the clients: each inserts one row per transaction through a
           libpq multi-host connection string (target_session_attrs=read-write)
           and, when its connection breaks, reconnects through the same string;
           it logs every row whose commit it saw, every statement whose outcome
           it could not know (the connection broke during it) and every failed
           connection attempt, with the wall-clock time;
  judge    compares those logs with the table the last leader holds and prints
           its plan ("plan<TAB>N"), then one line per check: "ok<TAB>what", "not ok<TAB>what" or
           "#<TAB>comment" (test/lib/verdicts.py); the test turns them into
           checks. It prints the same checks whatever happened: a check whose
           data is missing (an event that did not happen, a log or the table
           absent, --not-run) fails, saying why.

Why a client of our own and not pgbench: pgbench does not reconnect. A client
whose connection fails is finished for the rest of the run, so after the first
event there would be no load left to measure. These clients reconnect the way an
application does, and know exactly which rows they saw committed."""
import argparse
import os
import sys
import threading
import time

from verdicts import note, plan, say

# The timeline a row was inserted on, read from the name of the WAL file being
# written: every promotion (switchover or failover) starts a new one.
INSERT = """
INSERT INTO ha_rows (client, seq, tli, sf, sf53, u, l)
VALUES (%s, %s, ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::int,
        snowflake(), snowflake53(), uuid_v7(), ulid())
RETURNING tli, sf"""

FAMILIES = ("sf", "sf53", "u", "l", "p")
FAMILY_NAME = {"sf": "snowflake()", "sf53": "snowflake53()", "u": "uuid_v7()", "l": "ulid()",
               "p": "order_id (prefixed)"}
SNOWFLAKE_TIME_SHIFT = 23  # a snowflake's time field: bits 23 and up (milliseconds)


# --- load --------------------------------------------------------------------
def client(k, args, deadline):
    import psycopg  # here, so that judge runs (and fails every check, saying why) without it
    lines, seq, conn = [], 0, None
    while time.time() < deadline and not os.path.exists(args.stop):
        if conn is None:
            try:
                conn = psycopg.connect(args.conninfo, autocommit=True)
                lines.append(f"connected\t{time.time():.6f}\t{conn.info.port}")
            except psycopg.Error as e:
                lines.append(f"connect-failed\t{time.time():.6f}\t{str(e).splitlines()[0] if str(e) else ''}")
                time.sleep(0.1)
                continue
        seq += 1
        try:
            tli, sf = conn.execute(INSERT, (k, seq)).fetchone()
            lines.append(f"ok\t{time.time():.6f}\t{seq}\t{tli}\t{sf}")
        except psycopg.Error as e:
            # The row may or may not have committed: in doubt.
            lines.append(f"doubt\t{time.time():.6f}\t{seq}\t{str(e).splitlines()[0] if str(e) else ''}")
            try:
                conn.close()
            except psycopg.Error:
                pass
            conn = None
        if args.pause:
            time.sleep(args.pause)
    if conn is not None:
        conn.close()
    with open(f"{args.dir}/client-{k}.log", "w") as f:
        f.write("\n".join(lines) + "\n")


def load(args):
    deadline = time.time() + args.seconds
    threads = [threading.Thread(target=client, args=(k, args, deadline)) for k in range(1, args.clients + 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return 0


# --- judge -------------------------------------------------------------------
def read_clients(directory, clients):
    ok, doubt, connects = {}, set(), []
    for k in range(1, clients + 1):
        with open(f"{directory}/client-{k}.log") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if parts[0] == "ok":
                    ok[(k, int(parts[2]))] = (float(parts[1]), int(parts[3]), int(parts[4]))
                elif parts[0] == "doubt":
                    doubt.add((k, int(parts[2])))
                elif parts[0] == "connected":
                    connects.append((k, float(parts[1])))
    return ok, doubt, connects


def read_table(path):
    rows = []
    with open(path) as f:
        for line in f:
            client, seq, tli, sf, sf53, u, l, p = line.rstrip("\n").split("\t")
            rows.append({"client": int(client), "seq": int(seq), "tli": int(tli), "sf": int(sf),
                         "sf53": int(sf53), "u": u, "l": l, "p": p})
    return rows


def read_events(path):
    events = []
    with open(path) as f:
        for line in f:
            name, at = line.rstrip("\n").split("\t")[:2]
            events.append((name, float(at)))
    return events


def rate(times, lo, hi):
    n = sum(1 for t in times if lo <= t < hi)
    return n / (hi - lo) if hi > lo else 0.0


def judge(args):
    # 4 checks of the rows, one a family, the timelines; for each event 2
    # snowflake, 2 uuid_v7/ulid and the reconnection checks, and with --bound 1 more
    plan(4 + len(FAMILIES) + 1 + len(args.event) * (5 + bool(args.bound)))
    # Why no check can pass: the test said so (--not-run), or an input is missing.
    problem = args.not_run
    ok, doubt, rows, happened = {}, set(), [], {}
    if problem is None:
        try:
            ok, doubt, _ = read_clients(args.dir, args.clients)
            rows = read_table(f"{args.dir}/table.tsv")
            happened = dict(read_events(f"{args.dir}/events.tsv"))
        except OSError as e:
            problem = f"cannot read {e.filename}: {e.strerror}"

    def check(passed, what):
        if problem is not None:
            return say(False, f"{what} (not judged: {problem})")
        return say(passed, what)

    note(f"{len(ok)} rows seen committed by {args.clients} clients, {len(doubt)} in doubt "
         f"(connection lost during the statement), {len(rows)} rows in the table")

    # Every row a client saw committed is there exactly once; nothing else is,
    # but rows in doubt (committed or not) may be.
    seen = {}
    for r in rows:
        seen[(r["client"], r["seq"])] = seen.get((r["client"], r["seq"]), 0) + 1
    missing = [key for key in ok if seen.get(key, 0) == 0]
    twice = [key for key, n in seen.items() if n > 1]
    unknown = [key for key in seen if key not in ok and key not in doubt]
    # With no commit seen at all, this check (and the next ones) would hold
    # of nothing: it fails.
    check(bool(ok) and not missing, f"every row a client saw committed is in the table ({len(missing)} missing"
          + (f", e.g. client/seq {missing[:3]}" if missing else "") + ")" + ("" if ok or problem else " (no client saw a commit)"))
    check(not twice, f"no row is in the table twice ({len(twice)})")
    check(not unknown, f"the table holds no row that no client inserted ({len(unknown)})")
    kept = sum(1 for key in doubt if seen.get(key, 0) == 1)
    note(f"of the {len(doubt)} statements in doubt, {kept} had committed")
    by_key = {(r["client"], r["seq"]): r for r in rows}
    differ = [key for key, (_, tli, sf) in ok.items() if key in by_key
              and (by_key[key]["sf"], by_key[key]["tli"]) != (sf, tli)]
    check(not differ, f"each committed row holds the snowflake and timeline its client was told ({len(differ)} differ)")

    for fam in FAMILIES:
        values = [r[fam] for r in rows]
        dups = len(values) - len(set(values))
        check(dups == 0, f"0 duplicate {FAMILY_NAME[fam]} IDs among {len(values)} rows (got {dups})")

    # Timelines: one before the events, one more for each event.
    tlis = sorted({r["tli"] for r in rows})
    check(len(tlis) == len(args.event) + 1,
          f"rows were committed on {len(args.event) + 1} timelines, one per leader term (got {tlis})")
    commit_times = sorted(t for t, _, _ in ok.values())
    worst_gap = None
    term = 0  # the leader term (index in tlis) that the next event to have happened ends
    for name in args.event:
        at = happened.get(name)
        # Each event's six checks, failed with the reason when it did not
        # happen or no row was committed after it.
        judged = problem is None and at is not None and term + 1 < len(tlis)
        if judged or problem is not None:
            why = ""
        elif at is None:
            why = " (it did not happen)"
        else:
            why = " (no row was committed after it)"
        i = term
        if at is not None:
            term += 1
        before = [r for r in rows if judged and r["tli"] <= tlis[i]]
        after = [r for r in rows if judged and r["tli"] == tlis[i + 1]]
        later = [r for r in rows if judged and r["tli"] >= tlis[i + 1]]
        timeline = tlis[i + 1] if judged else "?"
        for fam in ("sf", "sf53"):
            check(bool(before) and bool(later) and min(r[fam] for r in later) > max(r[fam] for r in before),
                  f"{name}: every {FAMILY_NAME[fam]} minted after it (timeline {timeline} on) is greater "
                  f"than every one minted before it ({len(later)} after, {len(before)} before)" + why)
        # uuid_v7 and ulid text sorts as their bytes do; the clock lease, also
        # replayed from WAL, keeps them above too.
        for fam in ("u", "l"):
            check(bool(before) and bool(later) and min(r[fam] for r in later) > max(r[fam] for r in before),
                  f"{name}: every {FAMILY_NAME[fam]} minted after it is greater than every one minted before it"
                  + why)
        gap_ms = None
        if judged:
            gap_ms = (min(r["sf"] for r in after) >> SNOWFLAKE_TIME_SHIFT) - \
                (max(r["sf"] for r in before if r["tli"] == tlis[i]) >> SNOWFLAKE_TIME_SHIFT)
            worst_gap = gap_ms if worst_gap is None else max(worst_gap, gap_ms)
        # Each client: its first commit on the new leader after the event.
        firsts = {}
        for (k, _), (t, tli, _) in ok.items():
            if judged and tli == tlis[i + 1] and t >= at and (k not in firsts or t < firsts[k]):
                firsts[k] = t
        check(len(firsts) == args.clients,
              f"{name}: all {args.clients} clients reconnected and committed on the new leader "
              f"({len(firsts)} did)" + why)
        if firsts:
            first, last = min(firsts.values()), max(firsts.values())
            before_rate = rate(commit_times, at - args.window, at)
            after_rate = rate(commit_times, first, first + args.window)
            note(f"FIGURE {name}: first commit on the new leader {first - at:.2f} s after the event; "
                 f"every client committing again after {last - at:.2f} s; "
                 f"{before_rate:.0f} rows/s in the {args.window:g} s before, {after_rate:.0f} rows/s in the "
                 f"{args.window:g} s after the first commit; the new leader's first snowflake is "
                 f"{gap_ms} ms (time field) above the old leader's last")
        if args.bound:
            if firsts:
                check(first - at <= args.bound, f"{name}: writes resume within {args.bound:g} s ({first - at:.2f} s)")
            else:
                check(False, f"{name}: writes resume within {args.bound:g} s" + (why or " (no commit after it on the new leader)"))
    if worst_gap is not None:
        note(f"FIGURE largest gap between an old leader's last snowflake and the new leader's first: {worst_gap} ms")
    return 0


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    lo = sub.add_parser("load")
    lo.add_argument("--dir", required=True)
    lo.add_argument("--conninfo", required=True)
    lo.add_argument("--clients", type=int, default=4)
    lo.add_argument("--seconds", type=float, default=120)
    lo.add_argument("--stop", required=True)
    lo.add_argument("--pause", type=float, default=0.0)
    j = sub.add_parser("judge")
    j.add_argument("--dir", required=True)
    j.add_argument("--clients", type=int, default=4)
    j.add_argument("--window", type=float, default=3.0)
    j.add_argument("--bound", type=float, default=0.0)
    j.add_argument("--event", action="append", required=True,
                   help="an event's name, as in events.tsv, in the order they were meant to happen")
    j.add_argument("--not-run", help="why the run's data cannot be judged: every check fails, saying so")
    args = p.parse_args()
    return {"load": load, "judge": judge}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
