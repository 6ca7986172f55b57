#!/usr/bin/python3
"""Clients, measurements and checks of test/integration/ha_patroni.sh (idgen under
Patroni). The shell starts etcd and Patroni and causes the events; this file

  cluster  prints the members Patroni's REST API reports (name, role, state,
           timeline, PostgreSQL port), one a line, tab-separated;
  load     runs the clients: each inserts one row per transaction through a
           libpq multi-host connection string (target_session_attrs=read-write)
           and, when its connection breaks, reconnects through the same string;
           it logs every row whose commit it saw, every statement whose outcome
           it could not know (the connection broke during it) and every failed
           connection attempt, with the wall-clock time;
  judge    compares those logs with the table the last leader holds and prints
           one line per check: "ok<TAB>what", "not ok<TAB>what" or
           "#<TAB>comment"; the shell numbers them.

Why a client of our own and not pgbench: pgbench does not reconnect. A client
whose connection fails is finished for the rest of the run, so after the first
event there would be no load left to measure. These clients reconnect the way an
application does, and know exactly which rows they saw committed."""
import argparse
import json
import os
import sys
import threading
import time
import urllib.request

import psycopg
from verdicts import note, say

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


# --- cluster -----------------------------------------------------------------
def cluster(args):
    for port in args.rest_ports.split(","):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/cluster", timeout=2) as r:
                data = json.load(r)
        except OSError:
            continue
        for m in data.get("members", []):
            print("\t".join(str(x) for x in (m["name"], m.get("role", ""), m.get("state", ""),
                                             m.get("timeline", ""), m.get("port", ""))))
        return 0
    return 1


# --- load --------------------------------------------------------------------
def client(k, args, deadline):
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
    ok, doubt, _ = read_clients(args.dir, args.clients)
    rows = read_table(f"{args.dir}/table.tsv")
    events = read_events(f"{args.dir}/events.tsv")
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
    say(not missing, f"every row a client saw committed is in the table ({len(missing)} missing"
        + (f", e.g. client/seq {missing[:3]}" if missing else "") + ")")
    say(not twice, f"no row is in the table twice ({len(twice)})")
    say(not unknown, f"the table holds no row that no client inserted ({len(unknown)})")
    kept = sum(1 for key in doubt if seen.get(key, 0) == 1)
    note(f"of the {len(doubt)} statements in doubt, {kept} had committed")
    by_key = {(r["client"], r["seq"]): r for r in rows}
    differ = [key for key, (_, tli, sf) in ok.items() if key in by_key
              and (by_key[key]["sf"], by_key[key]["tli"]) != (sf, tli)]
    say(not differ, f"each committed row holds the snowflake and timeline its client was told ({len(differ)} differ)")

    for fam in FAMILIES:
        values = [r[fam] for r in rows]
        dups = len(values) - len(set(values))
        say(dups == 0, f"0 duplicate {FAMILY_NAME[fam]} IDs among {len(values)} rows (got {dups})")

    # Timelines: one before the events, one more for each event.
    tlis = sorted({r["tli"] for r in rows})
    say(len(tlis) == len(events) + 1,
        f"rows were committed on {len(events) + 1} timelines, one per leader term (got {tlis})")
    commit_times = sorted(t for t, _, _ in ok.values())
    worst_gap = None
    for i, (name, at) in enumerate(events):
        if i + 1 >= len(tlis):
            say(False, f"{name}: rows were committed after it")
            continue
        before = [r for r in rows if r["tli"] <= tlis[i]]
        after = [r for r in rows if r["tli"] == tlis[i + 1]]
        later = [r for r in rows if r["tli"] >= tlis[i + 1]]
        for fam in ("sf", "sf53"):
            lo_after = min(r[fam] for r in later)
            hi_before = max(r[fam] for r in before)
            say(lo_after > hi_before,
                f"{name}: every {FAMILY_NAME[fam]} minted after it (timeline {tlis[i + 1]} on) is greater "
                f"than every one minted before it ({len(later)} after, {len(before)} before)")
        # uuid_v7 and ulid text sorts as their bytes do; the clock lease, also
        # replayed from WAL, keeps them above too.
        for fam in ("u", "l"):
            say(min(r[fam] for r in later) > max(r[fam] for r in before),
                f"{name}: every {FAMILY_NAME[fam]} minted after it is greater than every one minted before it")
        gap_ms = (min(r["sf"] for r in after) >> SNOWFLAKE_TIME_SHIFT) - \
            (max(r["sf"] for r in before if r["tli"] == tlis[i]) >> SNOWFLAKE_TIME_SHIFT)
        worst_gap = gap_ms if worst_gap is None else max(worst_gap, gap_ms)
        # Each client: its first commit on the new leader after the event.
        firsts = {}
        for (k, _), (t, tli, _) in ok.items():
            if tli == tlis[i + 1] and t >= at and (k not in firsts or t < firsts[k]):
                firsts[k] = t
        say(len(firsts) == args.clients,
            f"{name}: all {args.clients} clients reconnected and committed on the new leader "
            f"({len(firsts)} did)")
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
                say(first - at <= args.bound,
                    f"{name}: writes resume within {args.bound:g} s ({first - at:.2f} s)")
    if worst_gap is not None:
        note(f"FIGURE largest gap between an old leader's last snowflake and the new leader's first: {worst_gap} ms")
    return 0


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cluster")
    c.add_argument("--rest-ports", required=True)
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
    args = p.parse_args()
    return {"cluster": cluster, "load": load, "judge": judge}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
