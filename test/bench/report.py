#!/usr/bin/env python3
"""The idgen benchmark's statistics and report.

bench.sh runs the measurements and writes every figure raw into one
tab-separated file; this script reads it (and the per-transaction logs of
pgbench's same-run comparisons), computes medians and ratios, and writes the
markdown report (also to stdout), its summary and targets tables, and the
data of part 6 that plot.gp draws.

    report.py --raw RAW --dir DIR --names latest[,idgen-STAMP]
    report.py --raw RAW --check PNG     # --quick: every figure a positive number

Raw lines (the first field says what the rest is):
    meta KEY VALUE
    generator NAME EXPRESSION TYPE KEY_EXPRESSION
    scale_generators "NAME NAME ..."                   (the ones part 6 grows)
    snowflake_before | snowflake_after "WAITS BORROWED_MS CLOCK_REGRESSIONS"
    call LABEL REP SECONDS                             part 1
    text LABEL REP SECONDS QUERY_EXPRESSION            part 2
    text_size LABEL COLUMN TYPE STORED_BYTES CHARACTERS
    index COLUMN TYPE REP SECONDS INDEX_MB             part 3
    bulk NAME REP SECONDS                              part 4
    pkey NAME PKEY_MB AVG_LEAF_DENSITY
    tps MODE NAME REP TPS TRANSACTIONS                 part 5
    mixed REP LOG_DIR "NAME NAME ..."                  (script order)
    scale NAME POINT TARGET ROWS TPS TRANSACTIONS TOTAL_MB WAL_BYTES   part 6
    format_text LABEL REP SECONDS EXPRESSION           part 7
    format_call LABEL idgen|peer REP SECONDS EXPRESSION

Python 3 standard library only (Debian's python3). Informational: the exit
status is non-zero only for a broken run (missing or malformed figures).
"""

import argparse
import glob
import math
import os
import statistics
import sys

# The idgen targets the report evaluates, as the report shows them.
# Informational only.
TARGET_CALL_RATIO = "0.20"   # uuid_v7(), ulid(), prefixed_id_new(), typeid_new() ns/call <= this x gen_random_uuid()
TARGET_SF_NEXTVAL = "0.6"    # snowflake(n), snowflake53(n) ns/call <= this x nextval()
TARGET_SF_CLOCK = "1.3"      # snowflake(n), snowflake53(n) ns/call <= this x clock_timestamp()
TARGET_TEXT_RATIO = "1.5"    # ulid_out and prefixed_id_out ns/value (output function alone) <= this x uuid_out
TARGET_ULID_INDEX = "1.1"    # CREATE INDEX on ulid <= this x on uuid (same bytes)
TARGET_BULK_RATIO = "1.25"   # uuid_v7, ulid, prefixed_id and typeid bulk insert <= this x bigserial
TARGET_SF_BULK = "1.05"      # snowflake and snowflake53 bulk insert <= this x bigserial
TARGET_LEAF_DENSITY = "88"   # every idgen key's pkey avg_leaf_density >= this %
TARGET_TPS_RATIO = "0.97"    # every idgen key's pgbench TPS (synchronous_commit off) >= this x bigserial
TARGET_SF_TPS = "1.0"        # snowflake's and snowflake53's, which have no UUID to build, >= this x bigserial
# typeid and the 53-bit snowflake (new in 0.5.0), each against its sibling in the same run:
TARGET_TYPEID_CALL = "1.1"   # typeid_new() ns/call <= this x prefixed_id_new() (both loop included)
TARGET_TYPEID_TEXT = "0.8"   # typeid_out ns/value (output function alone) <= this x uuid_out
TARGET_SF53_CALL = "1.1"     # snowflake53(n) ns/call <= this x snowflake(n) (both loop included)
# "Bulk load and leaf density of typeid keys match prefixed_id's within noise":
# the same bytes in the same order, so any difference is noise; we allow what
# separate loads of one key move by here (a few %) and a point of density.
TARGET_TYPEID_BULK = "1.1"   # typeid bulk insert <= this x prefixed's
TARGET_TYPEID_LEAF = "1.0"   # |typeid leaf density - prefixed's| <= this many points
TARGET_SCALE_RATIO = "2"     # uuid_v7 TPS >= this x gen_random_uuid() at part 6's largest size
# Against core uuidv7() (PostgreSQL 18 and later), all within one run:
TARGET_CORE_CALL = "0.20"     # uuid_v7() ns/call <= this x uuidv7()
TARGET_CORE_BULK = "1.0"     # uuid_v7 bulk insert <= this x uuidv7()'s
TARGET_CORE_TPS = "1.0"      # uuid_v7 TPS, same run, >= this x uuidv7()'s
# issue 53's generators, ns/call <= this x gen_random_uuid() (part 1, loop included)
TARGET_FORMAT_CALL = {"objectid": "0.20", "xid": "0.20", "uuid_v6": "0.20", "ksuid": "0.25",
                      "nanoid": "0.30",   # issue 54's: nanoid(), timeflake() and push_id()
                      "timeflake": "0.20", "push_id": "0.20",
                      "cuid2": "1.0"}   # issue 54's cuid2()
# issue 54: uuid_encode(u, 'base62') net of the scan <= this x uuid_out's (part 7)
TARGET_BASE62_TEXT = "2"
# uuid_v7_mask and uuid_v7_unmask net of the scan <= this x uuid_out's (part 7)
TARGET_UUIDV47 = "1.5"
# Part 6's target is judged only when its tables outgrew the memory that
# could cache them: the server ran under a memory cap and gen_random_uuid()'s
# table (heap and key) was at least this many times the cap at the largest
# point. The default sizes reach about 2.7 times; smaller runs (--quick, the
# demo, --scratch at small sizes) or uncapped servers read "not judged at
# this size".
SCALE_JUDGED_CAP_MULTIPLE = 2

# issue 55: snowflake_layout_new('twitter', n) ns/call <= this x snowflake(n) (loop included)
TARGET_LAYOUT_CALL = "1.2"
LAYOUT_CALL = "snowflake_layout_new('twitter', n)"

# The generators the report and targets name (bench.sh's GENERATORS).
IDGEN = ["uuid_v7", "ulid", "prefixed", "typeid", "snowflake", "snowflake53"]
V7, V4, SERIAL, SF, CORE = "uuid_v7", "uuid_v4", "bigserial", "snowflake", "core_uuidv7"
PEER = "pg_uuidv7"   # pg_uuidv7's uuid_generate_v7(), Debian's postgresql-18-pg-uuidv7 (peer_pg_uuidv7.sh)
PREFIXED, TYPEID, SF53 = "prefixed", "typeid", "snowflake53"
UUID_KEYS = [V7, "ulid", PREFIXED, TYPEID]   # the idgen keys that carry 128 bits
SNOWFLAKES = [SF, SF53]
CLOCK, EMPTY, SERVER_ORDER = "clock_timestamp()", "empty loop", "uuid_v7() [server order]"
ULID_SERVER_ORDER = "ulid() [server order]"
TEXT_SCAN, ULID_OUT, UUID_OUT, PREFIXED_OUT = "scan only", "ulid_out", "uuid_out", "prefixed_id_out"
TYPEID_OUT = "typeid_out"
# part 7: each text conversion of issue 53's types, and uuid's beside it
FORMAT_OUTPUTS = ["ksuid_out", "objectid_out", "rsxid_out"]
FORMAT_INPUTS = ["ksuid_in", "objectid_in", "rsxid_in"]
BASE62_OUT, BASE62_IN = "base62_out", "base62_in"   # uuid_encode / uuid_decode, issue 54
UUIDV47_MASK, UUIDV47_UNMASK = "uuid_v7_mask", "uuid_v7_unmask"   # UUIDv47's facade, beside uuid_out
FORMAT_PEERS = ["ksuid", "objectid", "xid", "uuid_v6", "sqids"]
MODES = ["off", "on"]
NOT_JUDGED = "not judged at this size"


class Broken(Exception):
    """The raw data is incomplete or malformed: the run is void."""


def number(text, what):
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise Broken(f"{what}: not a number: {text!r}") from None
    if math.isnan(value) or math.isinf(value):
        raise Broken(f"{what}: not a finite number: {text!r}")
    return value


def median(values):
    if not values:
        raise Broken("median of no values")
    return statistics.median(values)


def fmt(decimals, value):
    return f"{value:.{decimals}f}"


def ratio(num, den):
    """num / den to 2 decimals, the way every "ratio to" column shows it."""
    return fmt(2, num / den) if den else "n/a"


def ratio_if_positive(num, den):
    """num / den, or n/a unless both are above zero (a net figure can be zero
    or negative in a noisy small run)."""
    return ratio(num, den) if num > 0 and den > 0 else "n/a"


def verdict(shown, op, goal):
    """met or missed, judged on the figure as the report shows it."""
    if shown == "n/a":
        return "n/a"
    value, goal = float(shown), float(goal)
    return "met" if (value <= goal if op == "<=" else value >= goal) else "missed"


class Run:
    """Every figure of one run, raw and derived."""

    def __init__(self, path):
        self.meta = {}
        self.generators = []        # names, in order
        self.scale_generators = None  # the ones part 6 grew (all, in runs that do not say)
        self.expr = {}              # name -> expression (with @shard@)
        self.type = {}
        self.key_expr = {}
        self.call = {}              # label -> [seconds], in order of appearance
        self.text = {}              # label -> [seconds]
        self.text_expr = {}
        self.text_size = {}         # label -> (column, type, stored, chars)
        self.index = {}             # column -> [seconds]
        self.index_type = {}
        self.index_mb = {}          # column -> MB of the last rep's build
        self.bulk = {}              # name -> [seconds]
        self.pkey = {}              # name -> (MB, leaf density)
        self.tps = {}               # (mode, name) -> [tps]
        self.mixed = []             # (rep, log dir, [names])
        self.scale = {}             # name -> [dict], by point
        self.snowflake = {}
        self.format_text = {}       # label -> [seconds]           part 7
        self.format_text_expr = {}
        self.format_call = {}       # (label, idgen|peer) -> [seconds]
        self.format_call_expr = {}
        self.read(path)

    def read(self, path):
        index_last_rep = {}
        with open(path, encoding="utf-8") as raw:
            for lineno, line in enumerate(raw, 1):
                fields = line.rstrip("\n").split("\t")
                kind, rest = fields[0], fields[1:]
                where = f"{path}:{lineno} ({kind})"
                try:
                    if kind == "meta":
                        self.meta[rest[0]] = rest[1] if len(rest) > 1 else ""
                    elif kind == "generator":
                        name, expr, typ, key = rest
                        self.generators.append(name)
                        self.expr[name], self.type[name], self.key_expr[name] = expr, typ, key
                    elif kind == "scale_generators":
                        self.scale_generators = rest[0].split() if rest else []
                    elif kind in ("snowflake_before", "snowflake_after"):
                        self.snowflake[kind] = [int(x) for x in rest[0].split()]
                    elif kind == "call":
                        self.call.setdefault(rest[0], []).append(number(rest[2], where))
                    elif kind == "text":
                        self.text.setdefault(rest[0], []).append(number(rest[2], where))
                        self.text_expr[rest[0]] = rest[3]
                    elif kind == "text_size":
                        self.text_size[rest[0]] = (rest[1], rest[2], number(rest[3], where), number(rest[4], where))
                    elif kind == "index":
                        column, typ, rep = rest[0], rest[1], int(rest[2])
                        self.index.setdefault(column, []).append(number(rest[3], where))
                        self.index_type[column] = typ
                        if rep >= index_last_rep.get(column, 0):
                            index_last_rep[column] = rep
                            self.index_mb[column] = number(rest[4], where)
                    elif kind == "bulk":
                        self.bulk.setdefault(rest[0], []).append(number(rest[2], where))
                    elif kind == "pkey":
                        self.pkey[rest[0]] = (number(rest[1], where), number(rest[2], where))
                    elif kind == "tps":
                        self.tps.setdefault((rest[0], rest[1]), []).append(number(rest[3], where))
                    elif kind == "mixed":
                        self.mixed.append((int(rest[0]), rest[1], rest[2].split()))
                    elif kind == "scale":
                        name = rest[0]
                        transactions = number(rest[5], where)
                        self.scale.setdefault(name, []).append({
                            "point": int(rest[1]), "target": int(rest[2]), "rows": int(rest[3]),
                            "tps": number(rest[4], where), "transactions": transactions,
                            "mb": number(rest[6], where),
                            "wal": number(rest[7], where) / transactions if transactions > 0 else float("nan"),
                        })
                    elif kind == "format_text":
                        self.format_text.setdefault(rest[0], []).append(number(rest[2], where))
                        self.format_text_expr[rest[0]] = rest[3]
                    elif kind == "format_call":
                        self.format_call.setdefault((rest[0], rest[1]), []).append(number(rest[3], where))
                        self.format_call_expr[(rest[0], rest[1])] = rest[4]
                    elif kind == "":
                        continue
                    else:
                        raise Broken(f"{where}: unknown line")
                except (IndexError, ValueError) as error:
                    raise Broken(f"{where}: malformed line: {error}") from None
        for key in ("calls", "reps", "rows", "clients", "pgbench_seconds", "scale_rows", "scale_seconds",
                    "index_rows", "text_rows"):
            if key not in self.meta:
                raise Broken(f"no meta {key} in {path}")
        self.calls = int(self.meta["calls"])
        self.reps = int(self.meta["reps"])
        self.capped_reps = min(self.reps, 3)   # parts 4 and 5
        self.index_reps = min(self.reps, 4)    # part 3
        self.percents = [int(p) for p in self.meta.get("scale_percents", "").split()]
        if self.scale_generators is None:
            self.scale_generators = list(self.generators)
        self.derive()

    def has(self, name):
        return name in self.expr

    def call_label(self, name):
        """A generator's row in part 1: its expression, shard as n."""
        return self.expr[name].replace("@shard@", "n")

    def label(self, name):
        """A generator as the summary names it: its expression, after its
        name when the expression does not say it."""
        call = self.call_label(name)
        return f"`{call}`" if name in call else f"{name} (`{call}`)"

    def plot_label(self, name):
        """A generator in part 6's tables, its data and the plot: its
        expression when that says its name, else its name. plot.gp splits
        the generators at blanks, so the label has none."""
        call = self.call_label(name)
        return (call if name in call else name).replace(" ", "")

    def derive(self):
        text_rows = int(self.meta["text_rows"])
        self.call_ns = {label: median(s) * 1e9 / self.calls for label, s in self.call.items()}
        self.text_ns = {label: median(s) * 1e9 / text_rows for label, s in self.text.items()}
        scan = self.text_ns.get(TEXT_SCAN, 0.0)
        self.text_net_ns = {label: ns - scan for label, ns in self.text_ns.items()}
        # Each conversion net of reading its column ("read COLUMN", count(COLUMN)):
        # the output function alone, whatever the column's place in the row.
        self.text_out_ns = {label: self.text_ns[label] - self.text_ns[f"read {column}"]
                            for label, (column, _, _, _) in self.text_size.items()
                            if f"read {column}" in self.text_ns}
        format_rows = int(self.meta.get("format_rows", "1"))
        format_calls = int(self.meta.get("format_peer_calls", "1"))
        self.format_text_ns = {label: median(s) * 1e9 / format_rows for label, s in self.format_text.items()}
        self.format_call_ns = {key: median(s) * 1e9 / format_calls for key, s in self.format_call.items()}
        self.index_median = {column: median(s) for column, s in self.index.items()}
        self.bulk_median = {name: median(s) for name, s in self.bulk.items()}
        self.tps_median = {key: median(s) for key, s in self.tps.items()}
        # Same-run comparison: each key's mean latency per rep, from pgbench's
        # per-transaction logs; bigserial's (or core uuidv7()'s) mean latency
        # divided by the key's is the key's TPS as a multiple of that one's
        # under identical conditions.
        self.mixed_latency = {}     # name -> [µs per rep]
        self.mixed_ratio = {}       # name -> [bigserial latency / name latency per rep]
        self.mixed_core = []        # per rep: core uuidv7() latency / uuid_v7 latency
        for rep, log_dir, names in sorted(self.mixed):
            latencies = mixed_latencies(log_dir, names)
            for name in names:
                self.mixed_latency.setdefault(name, []).append(latencies[name])
                self.mixed_ratio.setdefault(name, []).append(latencies[SERIAL] / latencies[name])
            if CORE in latencies and V7 in latencies:
                self.mixed_core.append(latencies[CORE] / latencies[V7])
        self.mixed_median = {name: median(r) for name, r in self.mixed_ratio.items()}

    # Part 6 helpers
    def last_point(self, name):
        return self.scale[name][-1]

    def scale_memory_mb(self):
        value = self.meta.get("scale_memory_mb", "")
        return float(value) if value else None

    def scale_words(self):
        cap = self.meta.get("scale_memory_mb", "")
        shown = self.meta.get("scale_buffers_shown", "?")
        if cap:
            return f"shared_buffers {shown}, server memory capped at {cap}MB"
        return f"shared_buffers {shown}, server memory not capped"

    def scale_judged(self):
        """Whether part 6's tables outgrew the memory cap (see
        SCALE_JUDGED_CAP_MULTIPLE), and the words that say why or why not."""
        cap = self.scale_memory_mb()
        if cap is None:
            return False, "the server's memory was not capped, so the tables could stay cached"
        if not self.has(V4) or V4 not in self.scale:
            return False, "no gen_random_uuid() table"
        multiple = self.last_point(V4)["mb"] / cap
        if multiple >= SCALE_JUDGED_CAP_MULTIPLE:
            return True, (f"gen_random_uuid()'s table reached {multiple:.2f} times the memory cap, "
                          f"at least {SCALE_JUDGED_CAP_MULTIPLE}")
        return False, (f"gen_random_uuid()'s table reached {multiple:.2f} times the memory cap, "
                       f"under {SCALE_JUDGED_CAP_MULTIPLE}")


def mixed_latencies(log_dir, names):
    """Mean transaction latency (µs) per script of one same-run pgbench run.
    pgbench -l writes pgbench_log.PID (and .PID.N per extra thread) under the
    prefix: "client transaction latency_us script_index epoch us"."""
    count = [0] * len(names)
    total = [0.0] * len(names)
    files = sorted(glob.glob(os.path.join(log_dir, "pgbench_log.*")))
    if not files:
        raise Broken(f"no pgbench log in {log_dir}")
    for path in files:
        with open(path, encoding="utf-8") as log:
            for line in log:
                fields = line.split()
                if len(fields) < 4:
                    continue
                try:
                    latency, script = float(fields[2]), int(fields[3])
                except ValueError:
                    raise Broken(f"{path}: a transaction without a latency: {line.strip()}") from None
                if not 0 <= script < len(names):
                    raise Broken(f"{path}: script index {script} of {len(names)}")
                count[script] += 1
                total[script] += latency
    for i, name in enumerate(names):
        if not count[i]:
            raise Broken(f"the same-run log in {log_dir} has no transactions for {name}")
    return {name: total[i] / count[i] for i, name in enumerate(names)}


# ---------------------------------------------------------------------------
# Report


def report(run, png, scale_tsv):
    m = run.meta
    out = []
    w = out.append
    quick = " (--quick)" if m.get("quick") == "1" else ""
    server = f"PostgreSQL {m.get('server_version', '?')}"
    if m.get("icu") == "f":
        server += " (built without ICU)"
    w("# idgen benchmark\n")
    w(f"{m.get('date', '?')} · {server} · idgen {m.get('extversion', '?')} · nproc {m.get('nproc', '?')} · "
      f"calls {run.calls}, text rows {m['text_rows']}, index rows {m['index_rows']}, rows {m['rows']}, "
      f"reps {run.reps}, pgbench {m['clients']} clients x {m['pgbench_seconds']}s, "
      f"scale rows {m['scale_rows']} x {m['scale_seconds']}s{quick}\n")
    if run.has(CORE):
        w(f"This server has core `{run.call_label(CORE)}`, measured as a reference in the same interleaved "
          f"runs as the other generators (parts 1, 2, 4, 5 and 6).\n")
    else:
        w(f"Core `uuidv7()` (PostgreSQL 18 and later) is not on this server, so it is not measured.\n")
    peers(run, w)
    summary(run, w, png)
    per_call(run, w)
    text_output(run, w)
    create_index(run, w)
    bulk_load(run, w)
    pgbench(run, w)
    scale(run, w, png, scale_tsv)
    formats(run, w)
    targets(run, w)
    return "\n".join(out)


def peers(run, w):
    """The registry peer: what was installed, or why it is not measured (a
    counted skip, or not part of this major's run), and, when measured,
    uuid_v7() against it and core uuidv7() in the same run."""
    m = run.meta
    state, note = m.get("peer_pg_uuidv7", ""), m.get("peer_pg_uuidv7_note", "")
    skips = [s for s in m.get("peer_skips", "").split(";") if s]
    if run.has(PEER):
        source = f" from {note}" if state == "ready" else " (installed in the server measured)"
        w(f"The registry peer pg_uuidv7's `{run.call_label(PEER)}`{source} is measured in the same interleaved "
          f"runs of parts 1, 4 and 5 (per call, bulk load and index size, single-row inserts); part 6 leaves it "
          f"out to keep the run's length.\n")
    elif state == "absent":
        w(f"The registry peer pg_uuidv7 is not part of this run: {note}.\n")
    if skips:
        w(f"Skipped peers: {len(skips)} ({'; '.join(skips)}).\n")
    if not (run.has(PEER) and run.has(V7)):
        return
    refs = [n for n in (PEER, CORE) if run.has(n)]
    header = ["`uuid_v7()` against"] + [f"`{run.call_label(n)}`" for n in refs]
    v7 = run.call_label(V7)
    mixed = lambda n: fmt(3, median([a / b for a, b in zip(run.mixed_latency[n], run.mixed_latency[V7])]))
    rows = [
        ["ns/call ratio (below 1: uuid_v7 cheaper)"] + [ratio(run.call_ns[v7], run.call_ns[run.call_label(n)]) for n in refs],
        ["bulk seconds ratio (below 1: uuid_v7 faster)"] + [ratio(run.bulk_median[V7], run.bulk_median[n]) for n in refs],
        ["TPS ratio, sync off, same run (above 1: uuid_v7 faster)"] + [mixed(n) for n in refs],
        ["pkey MB ratio"] + [ratio(run.pkey[V7][0], run.pkey[n][0]) for n in refs],
    ]
    table(w, header, "l" + "r" * len(refs), rows)


def table(w, header, align, rows):
    w("| " + " | ".join(header) + " |")
    w("|" + "|".join("---" if a == "l" else "---:" for a in align) + "|")
    for row in rows:
        w("| " + " | ".join(row) + " |")
    w("")


def summary(run, w, png):
    m = run.meta
    v4 = run.call_ns[run.call_label(V4)]
    bulk_base = run.bulk_median[SERIAL]
    off_base, on_base = run.tps_median[("off", SERIAL)], run.tps_median[("on", SERIAL)]
    scale_v4 = run.last_point(V4)
    w("## Summary\n")
    w(f"ns/call: part 1 (median, loop included). Bulk: part 4, {m['rows']} rows into a primary key. "
      f"TPS: part 5, single-row inserts, {m['clients']} clients, `synchronous_commit` off and on, separate runs; "
      f"same run: TPS with `synchronous_commit` off as a multiple of bigserial's when all keys share one run. "
      f"At scale: part 6, TPS once the table holds about {scale_v4['rows']} rows ({run.scale_words()})"
      f"{not_scaled_words(run)}.\n")
    rows = []
    for name in run.generators:
        call = run.call_ns[run.call_label(name)]
        scaled = name in run.scale_generators
        rows.append([
            run.label(name), fmt(1, call), ratio(call, v4),
            fmt(3, run.bulk_median[name]), ratio(run.bulk_median[name], bulk_base),
            fmt(1, run.pkey[name][0]), fmt(1, run.pkey[name][1]),
            fmt(0, run.tps_median[("off", name)]), ratio(run.tps_median[("off", name)], off_base),
            fmt(2, run.mixed_median[name]),
            fmt(0, run.tps_median[("on", name)]), ratio(run.tps_median[("on", name)], on_base),
            fmt(0, run.last_point(name)["tps"]) if scaled else "-",
            ratio(run.last_point(name)["tps"], scale_v4["tps"]) if scaled else "-",
        ])
    table(w, ["generator", "ns/call", "x gen_random_uuid()", "bulk s", "x bigserial", "pkey MB", "leaf density %",
              "TPS sync off", "x bigserial", "x bigserial, same run", "TPS sync on", "x bigserial",
              "TPS at scale", "x gen_random_uuid()"], "l" + "r" * 13, rows)
    w(f"![single-row insert throughput against table size, one line per generator]({png})\n")


def per_call(run, w):
    m = run.meta
    base = int(m.get("sf_call_shard_base", 1000))
    v4 = run.call_ns[run.call_label(V4)]
    nextval = run.call_ns[run.call_label(SERIAL)]
    clock = run.call_ns[CLOCK]
    core = run.call_ns[run.call_label(CORE)] if run.has(CORE) else None
    w("## Per-call cost\n")
    w(f"`SELECT count(f) FROM generate_series(1, {run.calls})`, timed inside the server; median of {run.reps} "
      f"interleaved reps. Figures include the loop itself (see `empty loop`). `snowflake(n)` uses shard "
      f"n = {base + 1}, {base + 2}, ... (a quiet shard each rep)"
      + (f", `snowflake53(n)` shards {m.get('sf53_call_shards', '2-15')} in turn" if run.has(SF53) else "")
      + ".\n")
    header = ["function", "ns/call (median)", "ratio to gen_random_uuid()", "ratio to nextval()",
              "ratio to clock_timestamp()"]
    if core is not None:
        header.append(f"ratio to {run.call_label(CORE)}")
    rows = []
    for label, ns in run.call_ns.items():
        row = [f"`{label}`", fmt(1, ns), ratio(ns, v4), ratio(ns, nextval), ratio(ns, clock)]
        if core is not None:
            row.append(ratio(ns, core))
        rows.append(row)
    table(w, header, "l" + "r" * (len(header) - 1), rows)
    empty = run.call_ns[EMPTY]
    net = [f"{run.call_label(name)} {fmt(1, run.call_ns[run.call_label(name)] - empty)} ns"
           for name in run.generators]
    net.append(f"clock_timestamp() {fmt(1, clock - empty)} ns")
    w("Net of the empty loop: " + ", ".join(net) + ".\n")


def text_output(run, w):
    m = run.meta
    prefix = m.get("text_prefix", "acct")
    core_col = ""
    if run.has(CORE):
        core_col = f" and, on this server, `c uuid` filled by `{run.call_label(CORE)}`"
    w("## Text output\n")
    w(f"`SELECT count(x::text) FROM bench_text` over {m['text_rows']} rows "
      f"`(id ulid, u uuid, p prefixed_id, t typeid)` with ids from `ulid()`, `u = id::uuid` (the same 16 bytes), "
      f"`p = prefixed_id_from_uuid('{prefix}', u)` and `t = typeid_from_uuid('{prefix}', u)` "
      f"(the same 128 bits){core_col}, timed inside the server with `max_parallel_workers_per_gather = 0` and "
      f"`jit = off`; median of {run.reps} interleaved reps. `count(*)` over the same table is the scan alone; "
      f"\"net\" subtracts its median. `count(column)` reads the column without converting it: a column placed "
      f"after a variable-width one costs more to reach, so \"output function\" subtracts that read and leaves "
      f"the conversion alone, which is what the text targets compare.\n")
    table(w, ["query", "ns/value (median)", "net of the scan, ns/value", "output function, ns/value"], "lrrr",
          [[f"`{run.text_expr[label]}` ({label})", fmt(1, ns), fmt(1, run.text_net_ns[label]),
            fmt(1, run.text_out_ns[label]) if label in run.text_out_ns else "-"]
           for label, ns in run.text_ns.items()])
    out = run.text_out_ns
    w(f"Output functions alone: ulid_out / uuid_out = {ratio_if_positive(out[ULID_OUT], out[UUID_OUT])}, "
      f"prefixed_id_out / uuid_out = {ratio_if_positive(out[PREFIXED_OUT], out[UUID_OUT])}, "
      f"typeid_out / uuid_out = {ratio_if_positive(out[TYPEID_OUT], out[UUID_OUT])}.")
    net, gross = run.text_net_ns, run.text_ns
    w(f"ulid_out / uuid_out = {ratio_if_positive(net[ULID_OUT], net[UUID_OUT])} on the net figures "
      f"(the scan both share left out); {ratio(gross[ULID_OUT], gross[UUID_OUT])} on the figures with the scan.")
    w(f"prefixed_id_out / uuid_out = {ratio_if_positive(net[PREFIXED_OUT], net[UUID_OUT])} on the net figures; "
      f"{ratio(gross[PREFIXED_OUT], gross[UUID_OUT])} on the figures with the scan.")
    w(f"typeid_out / uuid_out = {ratio_if_positive(net[TYPEID_OUT], net[UUID_OUT])} on the net figures; "
      f"{ratio(gross[TYPEID_OUT], gross[UUID_OUT])} on the figures with the scan.\n")
    w("Size of a value, averaged over the table: stored (`pg_column_size` of the column) and as text "
      "(`length` of `column::text`, ASCII, so characters and bytes alike).\n")
    table(w, ["column", "stored bytes", "text characters"], "lrr",
          [[f"{column} {typ}", fmt(1, stored), fmt(1, chars)]
           for column, typ, stored, chars in run.text_size.values()])


def create_index(run, w):
    m = run.meta
    rows, per_ms = m["index_rows"], m.get("index_ids_per_ms", "4")
    w("## CREATE INDEX\n")
    w(f"`CREATE INDEX ON bench_index (column)` over {rows} rows `(id ulid, u uuid)` with `u = id::uuid` "
      f"(the same 16 bytes); `id = ulid_at('2025-01-01 00:00:00+00' + (g / {per_ms}) ms)` for g = 1..{rows} "
      f"({per_ms} IDs per millisecond), stored in random order so that the build sorts for real. "
      f"`maintenance_work_mem = '{m.get('index_memory', '?')}'`, `max_parallel_maintenance_workers = 0`; "
      f"each build after DROP INDEX and CHECKPOINT, timed inside the server; one untimed build of each first, "
      f"then the median of {run.index_reps} reps alternating which type builds first. "
      f"Sizes are from the last build.\n")
    table(w, ["column", "build seconds (median)", "ratio to uuid", "index MB"], "lrrr",
          [[f"{column} {run.index_type[column]}", fmt(3, seconds), ratio(seconds, run.index_median["u"]),
            fmt(1, run.index_mb[column])] for column, seconds in run.index_median.items()])


def bulk_load(run, w):
    m = run.meta
    base = run.bulk_median[SERIAL]
    keys = ", ".join(f"{name} `{run.type[name]} DEFAULT {run.key_expr[name]}`" for name in run.generators)
    w("## Bulk load\n")
    w(f"`INSERT INTO t (n) SELECT g FROM generate_series(1, {m['rows']}) g` after TRUNCATE and CHECKPOINT, "
      f"timed inside the server; median of {run.capped_reps} interleaved reps. Index figures are from the last "
      f"load. Each table is `(id TYPE PRIMARY KEY DEFAULT EXPRESSION, n int)`: {keys}.\n")
    header = ["key", "insert seconds (median)", "ratio to bigserial", "pkey MB", "leaf density %"]
    core = run.bulk_median.get(CORE) if run.has(CORE) else None
    if core:
        header.insert(3, f"ratio to {run.call_label(CORE)}")
    rows = []
    for name in run.generators:
        seconds = run.bulk_median[name]
        row = [name, fmt(3, seconds), ratio(seconds, base), fmt(1, run.pkey[name][0]), fmt(1, run.pkey[name][1])]
        if core:
            row.insert(3, ratio(seconds, core))
        rows.append(row)
    table(w, header, "l" + "r" * (len(header) - 1), rows)


def pgbench(run, w):
    m = run.meta
    clients, seconds = m["clients"], m["pgbench_seconds"]
    w("## Single-row inserts (pgbench)\n")
    w(f"`INSERT INTO t DEFAULT VALUES` into the bulk-load tables, `pgbench -n -M prepared -c {clients} "
      f"-j {clients} -T {seconds}`, with `synchronous_commit` off and on; each run after TRUNCATE and "
      f"CHECKPOINT; median of {run.capped_reps} interleaved reps.\n")
    rows = []
    for name in run.generators:
        row = [name]
        for mode in MODES:
            tps = run.tps_median[(mode, name)]
            row += [fmt(0, tps), ratio(tps, run.tps_median[(mode, SERIAL)])]
        rows.append(row)
    table(w, ["key", "TPS, sync off (median)", "ratio to bigserial", "TPS, sync on (median)", "ratio to bigserial"],
          "lrrrr", rows)
    w(f"Same-run comparison: after each rep's separate runs, one `pgbench -n -M prepared -c {clients} "
      f"-j {clients} -T {seconds} -l` run with `synchronous_commit = off` takes all {len(run.generators)} insert "
      f"scripts (`-f` each, equal weights), so every client picks a table at random for each transaction and all "
      f"keys share the same seconds of the machine. From pgbench's per-transaction log: each key's mean latency, "
      f"and bigserial's mean latency divided by the key's, which is the key's TPS as a multiple of bigserial's "
      f"under identical conditions; median of {run.capped_reps} reps. Separate runs of the same script move by "
      f"10 % or more from one run to the next on a small VM; this ratio moves by about 1 %.\n")
    header = ["key", "mean latency µs, per rep", "TPS ratio to bigserial, same run (median)"]
    if run.has(CORE):
        header.append(f"TPS ratio to {run.call_label(CORE)}, same run (median)")
    rows = []
    for name in run.generators:
        row = [name, " / ".join(fmt(1, v) for v in run.mixed_latency[name]), fmt(3, run.mixed_median[name])]
        if run.has(CORE):
            row.append(fmt(3, median([a / b for a, b in zip(run.mixed_latency[CORE], run.mixed_latency[name])])))
        rows.append(row)
    table(w, header, "l" + "r" * (len(header) - 1), rows)
    before, after = run.snowflake.get("snowflake_before"), run.snowflake.get("snowflake_after")
    if before and after:
        waits, borrowed, regressions = (a - b for a, b in zip(after, before))
        w(f"Snowflake shards used by this run (idgen_snowflake_shards): {waits} waits for the clock, "
          f"{borrowed} ms borrowed ahead of the clock, {regressions} clock regressions.\n")


def scale(run, w, png, scale_tsv):
    m = run.meta
    clients = m["clients"]
    percents = " ".join(fmt_fraction(p) for p in run.percents)
    w("## Single-row inserts as the table grows\n")
    w(f"Each table (the part 4 tables, emptied) is grown by bulk loads to {m['scale_rows']} x ({percents}) rows; "
      f"at each point, after a CHECKPOINT, `pgbench -n -M prepared -c {clients} -j {clients} "
      f"-T {m['scale_seconds']}` inserts single rows with `synchronous_commit = off` (which also grows the "
      f"table). All tables are measured at one point before the next. Server: {m.get('scale_setting', '?')} "
      f"(shows {m.get('scale_buffers_shown', '?')}); memory {m.get('scale_memory_setting', '?')}. TPS by point "
      f"(the rows the bulk loads grew each table to; earlier runs may have added more, which the plot counts):\n")
    scaled = run.scale_generators
    first = scaled[0]
    rows = []
    for i, point in enumerate(run.scale[first]):
        rows.append([str(point["target"])] + [fmt(0, run.scale[name][i]["tps"]) for name in scaled])
    table(w, ["grown to rows"] + [run.plot_label(name) for name in scaled], "r" * (len(scaled) + 1), rows)
    w("Size of each table (heap and primary key, `pg_total_relation_size`) when its last run started, and the WAL "
      "its inserts wrote, per insert, in the first and the last run (from `pg_current_wal_lsn()` around the run; "
      "after the checkpoint, the first change to a page writes its full image):\n")
    buffers_mb = float(m.get("scale_buffers_mb") or "nan")
    cap = run.scale_memory_mb()
    rows = []
    for name in scaled:
        first_point, last = run.scale[name][0], run.last_point(name)
        rows.append([run.plot_label(name), str(last["rows"]), fmt(1, last["mb"]), ratio(last["mb"], buffers_mb),
                     ratio(last["mb"], cap) if cap else "-", fmt(0, first_point["wal"]), fmt(0, last["wal"])])
    table(w, ["generator", "rows", "MB", "x shared_buffers", "x memory cap", "WAL bytes per insert, first run",
              "last run"], "lrrrrrr", rows)
    w(f"The rows and TPS of every point are in `{scale_tsv}`, plotted in `{png}`{not_scaled_words(run)}.\n")


def not_scaled_words(run):
    """The generators part 6 left out, in words (bench.sh's GENERATORS says
    why: their keys order and append as another generator's do)."""
    left_out = [name for name in run.generators if name not in run.scale_generators]
    if not left_out:
        return ""
    why = "keys stored and ordered as another generator's: typeid as prefixed, snowflake53 as snowflake"
    if PEER in left_out:
        why += "; pg_uuidv7, a peer measured in parts 1, 4 and 5 only"
    return f"; part 6 leaves out {', '.join(left_out)} ({why})"


def fmt_fraction(percent):
    return f"{percent / 100:g}"


def targets(run, w):
    call = run.call_ns
    rows = []

    def row(name, shown, op, goal, judged=True):
        rows.append([name, shown, f"{op} {goal}", verdict(shown, op, goal) if judged else NOT_JUDGED])

    if run.has(V4):
        for name in UUID_KEYS:
            if run.has(name):
                row(f"{run.label(name)} ns/call / gen_random_uuid()",
                    ratio(call[run.call_label(name)], call[run.call_label(V4)]), "<=", TARGET_CALL_RATIO)
    for name in SNOWFLAKES:
        if run.has(name) and run.has(SERIAL):
            row(f"{run.call_label(name)} ns/call / nextval()",
                ratio(call[run.call_label(name)], call[run.call_label(SERIAL)]), "<=", TARGET_SF_NEXTVAL)
            row(f"{run.call_label(name)} ns/call / clock_timestamp()", ratio(call[run.call_label(name)], call[CLOCK]),
                "<=", TARGET_SF_CLOCK)
    if run.has(TYPEID) and run.has(PREFIXED):
        row(f"`{run.call_label(TYPEID)}` ns/call / `{run.call_label(PREFIXED)}`",
            ratio(call[run.call_label(TYPEID)], call[run.call_label(PREFIXED)]), "<=", TARGET_TYPEID_CALL)
    if run.has(SF53) and run.has(SF):
        row(f"`{run.call_label(SF53)}` ns/call / `{run.call_label(SF)}`",
            ratio(call[run.call_label(SF53)], call[run.call_label(SF)]), "<=", TARGET_SF53_CALL)
    if LAYOUT_CALL in call and run.has(SF):
        row(f"`{LAYOUT_CALL}` ns/call / `{run.call_label(SF)}`",
            ratio(call[LAYOUT_CALL], call[run.call_label(SF)]), "<=", TARGET_LAYOUT_CALL)
    for name, goal in TARGET_FORMAT_CALL.items():
        if run.has(name) and run.has(V4):
            row(f"{run.label(name)} ns/call / gen_random_uuid()",
                ratio(call[run.call_label(name)], call[run.call_label(V4)]), "<=", goal)
    if run.has(CORE) and run.has(V7):
        row(f"`uuid_v7()` ns/call / core `{run.call_label(CORE)}`",
            ratio(call[run.call_label(V7)], call[run.call_label(CORE)]), "<=", TARGET_CORE_CALL)
    fmt_ns = run.format_text_ns
    if BASE62_OUT in fmt_ns and UUID_OUT in fmt_ns:
        scan = fmt_ns.get(TEXT_SCAN, 0.0)
        row("uuid_encode(u, 'base62') / uuid_out, net of the scan",
            ratio_if_positive(fmt_ns[BASE62_OUT] - scan, fmt_ns[UUID_OUT] - scan), "<=", TARGET_BASE62_TEXT)
    for label in (UUIDV47_MASK, UUIDV47_UNMASK):
        if label in fmt_ns and UUID_OUT in fmt_ns:
            scan = fmt_ns.get(TEXT_SCAN, 0.0)
            row(f"{label}(id, key_name) / uuid_out, net of the scan",
                ratio_if_positive(fmt_ns[label] - scan, fmt_ns[UUID_OUT] - scan), "<=", TARGET_UUIDV47)
    out = run.text_out_ns
    row("ulid_out / uuid_out, output functions alone", ratio_if_positive(out[ULID_OUT], out[UUID_OUT]), "<=",
        TARGET_TEXT_RATIO)
    row("prefixed_id_out / uuid_out, output functions alone", ratio_if_positive(out[PREFIXED_OUT], out[UUID_OUT]),
        "<=", TARGET_TEXT_RATIO)
    row("typeid_out / uuid_out, output functions alone", ratio_if_positive(out[TYPEID_OUT], out[UUID_OUT]), "<=",
        TARGET_TYPEID_TEXT)
    row("CREATE INDEX ulid / uuid", ratio(run.index_median["id"], run.index_median["u"]), "<=", TARGET_ULID_INDEX)
    base = run.bulk_median[SERIAL]
    for name in UUID_KEYS:
        if run.has(name):
            row(f"{name} bulk / bigserial", ratio(run.bulk_median[name], base), "<=", TARGET_BULK_RATIO)
    for name in SNOWFLAKES:
        if run.has(name):
            row(f"{name} bulk / bigserial", ratio(run.bulk_median[name], base), "<=", TARGET_SF_BULK)
    if run.has(TYPEID) and run.has(PREFIXED):
        row("typeid bulk / prefixed bulk", ratio(run.bulk_median[TYPEID], run.bulk_median[PREFIXED]), "<=",
            TARGET_TYPEID_BULK)
        row("typeid leaf density - prefixed's, points (absolute)",
            fmt(1, abs(run.pkey[TYPEID][1] - run.pkey[PREFIXED][1])), "<=", TARGET_TYPEID_LEAF)
    if run.has(CORE) and run.has(V7):
        row(f"uuid_v7 bulk / core {run.call_label(CORE)}", ratio(run.bulk_median[V7], run.bulk_median[CORE]),
            "<=", TARGET_CORE_BULK)
    for name in IDGEN:
        if run.has(name):
            row(f"{name} leaf density %", fmt(1, run.pkey[name][1]), ">=", TARGET_LEAF_DENSITY)
    for name in IDGEN:
        if run.has(name):
            row(f"{name} TPS / bigserial, sync off, same run", fmt(2, run.mixed_median[name]), ">=",
                TARGET_SF_TPS if name in SNOWFLAKES else TARGET_TPS_RATIO)
    if run.has(CORE) and run.has(V7):
        row(f"uuid_v7 TPS / core {run.call_label(CORE)}, sync off, same run", fmt(2, median(run.mixed_core)), ">=",
            TARGET_CORE_TPS)
    judged, why = run.scale_judged()
    if run.has(V7) and run.has(V4):
        row("uuid_v7 TPS / gen_random_uuid() at the largest size",
            ratio(run.last_point(V7)["tps"], run.last_point(V4)["tps"]), ">=", TARGET_SCALE_RATIO, judged)
    w("## idgen targets\n")
    table(w, ["target", "measured", "goal", "verdict"], "lrrl", rows)
    w(f"The last target is judged only when part 6's tables outgrew the memory that could cache them: the server "
      f"ran under a memory cap and gen_random_uuid()'s table (heap and key) reached at least "
      f"{SCALE_JUDGED_CAP_MULTIPLE} times the cap at the largest point (the default sizes reach about 2.7 times); "
      f"otherwise it reads \"{NOT_JUDGED}\". In this run {why}.")


def formats(run, w):
    """Part 7: issue 53's types as text, and their generators next to PL/pgSQL."""
    if not run.format_text:
        return
    m = run.meta
    scan = run.format_text_ns.get(TEXT_SCAN, 0.0)
    w("## KSUID, ObjectId, XID, UUIDv6, base62 text and UUIDv47 facades\n")
    w(f"Their per-call cost against `gen_random_uuid()`, bulk load and single-row inserts are in the tables "
      f"above. Text: `SELECT count(...) FROM bench_formats` over {m['format_rows']} rows of `ksuid()`, "
      f"`objectid()`, `xid()`, `gen_random_uuid()` and `uuid_v7()` values, their text and the UUIDv7s' facades, settings as in part 2; median of "
      f"{run.reps} interleaved reps; \"net\" subtracts the scan (`count(*)`).\n")
    rows = []
    for label, ns in run.format_text_ns.items():
        if label == TEXT_SCAN:
            rows.append([f"`{run.format_text_expr[label]}` ({label})", fmt(1, ns), "-", "-"])
            continue
        reference = "uuid_out" if label.endswith("_out") or label in (UUIDV47_MASK, UUIDV47_UNMASK) else "uuid_in"
        rows.append([f"`{run.format_text_expr[label]}` ({label})", fmt(1, ns), fmt(1, ns - scan),
                     ratio_if_positive(ns - scan, run.format_text_ns[reference] - scan)])
    table(w, ["query", "ns/value (median)", "net of the scan", "net x uuid's"], "lrrr", rows)
    w(f"Each generator against the PL/pgSQL a user would paste instead (test/bench/format_peers.sql, "
      f"written from each format's spec; text for KSUID, ObjectId and XID, as such a snippet stores them; "
      f"for Sqids, the code of one bigint under the default options, checked to be idgen's): "
      f"`SELECT count(f) FROM generate_series(1, {m['format_peer_calls']})`, median of {run.reps} reps.\n")
    rows = []
    for label in FORMAT_PEERS:
        idgen, peer = run.format_call_ns[(label, "idgen")], run.format_call_ns[(label, "peer")]
        rows.append([label, f"`{run.format_call_expr[(label, 'idgen')]}`", fmt(1, idgen),
                     f"`{run.format_call_expr[(label, 'peer')]}`", fmt(1, peer), ratio(idgen, peer)])
    table(w, ["format", "idgen", "ns/call", "PL/pgSQL", "ns/call", "idgen x PL/pgSQL"], "llrlrr", rows)


def scale_tsv_text(run):
    """One line per generator and point, with a header; plot.gp reads it."""
    lines = ["generator\trows\ttps\ttotal_mb\twal_bytes_per_insert"]
    for name in run.scale_generators:
        for point in run.scale[name]:
            lines.append(f"{run.plot_label(name)}\t{point['rows']}\t{point['tps']:.6f}\t{point['mb']:.4f}\t"
                         f"{point['wal']:.4f}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# --check: the quick run's proof that the benchmark itself works


def check(run, png):
    bad = []

    def positive(what, value):
        if not (isinstance(value, float) or isinstance(value, int)) or not value > 0 or math.isinf(value):
            bad.append(f"{what}={value!r}")

    def count(what, values, expected):
        if len(values) != expected:
            bad.append(f"{what}: {len(values)} figures, expected {expected}")

    reps, capped, index_reps = run.reps, run.capped_reps, run.index_reps

    # A timed part: every expected label has a time per rep, all positive.
    def timed(part, labels, seconds_by_label, per_value, unit):
        for label in labels:
            count(f"{part} [{label}]", seconds_by_label.get(label, []), reps)
        for label, values in seconds_by_label.items():
            for v in values:
                positive(f"seconds[{label}]", v)
            positive(f"{unit}[{label}]", per_value[label])

    if not run.generators:
        bad.append("no generators")
    if not run.scale_generators or not set(run.scale_generators) <= set(run.generators):
        bad.append(f"part 6 generators {run.scale_generators} not a non-empty subset of {run.generators}")
    expected_calls = [run.call_label(name) for name in run.generators] + [SERVER_ORDER, ULID_SERVER_ORDER, LAYOUT_CALL,
                                                                    CLOCK, EMPTY]
    timed("part 1", expected_calls, run.call, run.call_ns, "ns/call")
    expected_outputs = [ULID_OUT, UUID_OUT, PREFIXED_OUT, TYPEID_OUT] + (
        [f"uuid_out, {run.call_label(CORE)}"] if run.has(CORE) else [])
    expected_reads = ["read id", "read u", "read p", "read t"] + (["read c"] if run.has(CORE) else [])
    timed("part 2", [TEXT_SCAN] + expected_outputs + expected_reads, run.text, run.text_ns, "ns/value")
    count("part 2 sizes", run.text_size, len(expected_outputs))
    count("part 2 output functions", run.text_out_ns, len(expected_outputs))
    for label, (_, _, stored, chars) in run.text_size.items():
        positive(f"stored bytes[{label}]", stored)
        positive(f"text characters[{label}]", chars)
    for column in ("id", "u"):
        count(f"part 3 [{column}]", run.index.get(column, []), index_reps)
        for v in run.index.get(column, []):
            positive(f"seconds[index on {column}]", v)
        positive(f"index MB[{column}]", run.index_mb.get(column))
    for name in run.generators:
        count(f"part 4 [{name}]", run.bulk.get(name, []), capped)
        for v in run.bulk.get(name, []):
            positive(f"seconds[{name}]", v)
        mb, density = run.pkey.get(name, (None, None))
        positive(f"pkey MB[{name}]", mb)
        positive(f"leaf density[{name}]", density)
        for mode in MODES:
            count(f"part 5 [{mode} {name}]", run.tps.get((mode, name), []), capped)
            for v in run.tps.get((mode, name), []):
                positive(f"tps[{mode} {name}]", v)
        count(f"same run [{name}]", run.mixed_latency.get(name, []), capped)
        for v in run.mixed_latency.get(name, []) + run.mixed_ratio.get(name, []):
            positive(f"same run[{name}]", v)
        points = run.scale.get(name, [])
        count(f"part 6 [{name}]", points, len(run.percents) if name in run.scale_generators else 0)
        for point in points:
            i = point["point"]
            if point["rows"] < 0:
                bad.append(f"rows[{name} point {i}]={point['rows']}")
            positive(f"tps[{name} point {i}]", point["tps"])
            positive(f"MB[{name} point {i}]", point["mb"])
            positive(f"WAL per insert[{name} point {i}]", point["wal"])
    if any(run.has(name) for name in TARGET_FORMAT_CALL):
        expected = [TEXT_SCAN] + FORMAT_OUTPUTS + ["uuid_out", BASE62_OUT, UUIDV47_MASK, UUIDV47_UNMASK] \
            + FORMAT_INPUTS + ["uuid_in", BASE62_IN]
        timed("part 7 text", expected, run.format_text, run.format_text_ns, "ns/value")
        timed("part 7 calls", [(label, which) for label in FORMAT_PEERS for which in ("idgen", "peer")],
              run.format_call, run.format_call_ns, "ns/call")
    try:
        with open(png, "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                bad.append(f"plot {png} is not a PNG file")
    except OSError as error:
        bad.append(f"plot {png}: {error}")
    return bad


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--raw", required=True, help="the raw TSV bench.sh wrote")
    parser.add_argument("--dir", help="where the report and the plot data go")
    parser.add_argument("--names", default="latest",
                        help="comma-separated base names: NAME.md and NAME-scale.tsv for each (the first is printed)")
    parser.add_argument("--check", metavar="PNG", help="check that every figure is a positive number instead")
    args = parser.parse_args()
    try:
        run = Run(args.raw)
        if args.check:
            bad = check(run, args.check)
            for item in bad:
                print(f"bench: the benchmark itself is broken, bad figure: {item}", file=sys.stderr)
            return 1 if bad else 0
        if not args.dir:
            parser.error("--dir is needed to write the report")
        for i, name in enumerate(args.names.split(",")):
            text = report(run, f"{name}.png", f"{name}-scale.tsv")
            with open(os.path.join(args.dir, f"{name}.md"), "w", encoding="utf-8") as f:
                f.write(text + "\n")
            with open(os.path.join(args.dir, f"{name}-scale.tsv"), "w", encoding="utf-8") as f:
                f.write(scale_tsv_text(run))
            if i == 0:
                print(text)
    except Broken as error:
        print(f"report.py: broken run: {error}", file=sys.stderr)
        return 1
    except (KeyError, ZeroDivisionError) as error:
        print(f"report.py: a figure is missing: {error!r}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
