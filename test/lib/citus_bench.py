#!/usr/bin/python3
"""Medians and ratios of test/integration/citus.pl's distributed insert benchmark.

Reads lines "NAME<TAB>REP<TAB>TPS" (one pgbench run each; the reps interleave
every table, as test/bench does) from the file given, and prints one line per
table: the median TPS over the reps and its ratio to bigserial's median, as
TAP comments. Ratios only: the test never judges a time.
"""
import statistics
import sys

runs = {}
for line in open(sys.argv[1]):
    name, _rep, tps = line.split("\t")
    runs.setdefault(name, []).append(float(tps))
base = statistics.median(runs["bigserial"])
print(f"# one-row INSERT per transaction through the coordinator, key from its DEFAULT, "
      f"median of {len(runs['bigserial'])} interleaved pgbench runs")
for name, values in runs.items():
    median = statistics.median(values)
    print(f"# {name:12} {median:9.1f} tps   x bigserial {median / base:5.2f}   "
          f"(runs: {', '.join(f'{v:.0f}' for v in values)})")
