#!/usr/bin/python3
"""Samples one backend's memory while it makes a long run of ID calls in one
statement, and judges whether the memory stayed flat.

test/lib/IdgenTest.pm (check_memory_flat) starts a psql session that warms up, writes
its backend's pid to DIR/pid and its memory-context total to
DIR/contexts_before, then waits for DIR/go before the long statement, and
afterwards writes the statement's result to DIR/result and its memory-context
total to DIR/contexts_after, and stays connected until DIR/done exists. This
script:

- reads the pid, and the backend's idgen_stats.ids_minted for FAMILY through
  one psql session of its own (the progress of the statement, in calls);
- creates DIR/go and, until the backend has minted CALLS more IDs or the
  statement has ended, samples RssAnon (private anonymous memory: what palloc
  and malloc take) and VmRSS from /proc/PID/status together with the calls
  made so far; then creates DIR/done;
- takes the samples made after the warm-up (the first WARMUP_FRACTION of the
  calls) and compares the largest RssAnon among them with the first one.

It prints one summary line and exits 0 when the growth after warm-up is at most
--max-growth-kb, 1 when it is more, and 2 when the measurement is unusable (the
backend vanished, never reached CALLS, or too few samples fell after the
warm-up), so that no outcome passes by default. The memory-context totals
(pg_backend_memory_contexts after the statement against before it) are reported
and held to --max-context-growth-kb as well. Standard library only.
"""

import argparse
import os
import re
import subprocess
import sys
import time

WARMUP_FRACTION = 0.1
MIN_SAMPLES = 5


def read_status(pid):
    """RssAnon and VmRSS in kB from /proc/PID/status, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            text = f.read()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = dict(re.findall(r"^(RssAnon|VmRSS):\s+(\d+) kB", text, re.M))
    if "VmRSS" not in fields:
        return None
    # RssAnon exists since Linux 4.5; VmRSS (which also counts touched shared
    # buffers) stands in for it before that.
    return int(fields.get("RssAnon", fields["VmRSS"])), int(fields["VmRSS"])


def process_ended(pid):
    """True once process PID has exited (gone, or a zombie not yet waited for)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except (FileNotFoundError, ProcessLookupError):
        return True


def wait_for_file(path, timeout, session_pid=None):
    """The stripped contents of PATH once it is non-empty, or None after TIMEOUT s
    or once the session's psql (SESSION_PID) has exited without writing it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ended = session_pid is not None and process_ended(session_pid)
        try:
            with open(path) as f:
                text = f.read().strip()
            if text:
                return text
        except FileNotFoundError:
            pass
        if ended:
            return None
        time.sleep(0.01)
    return None


class Progress:
    """ids_minted of one backend and family, read through a psql session of our own."""

    def __init__(self, pid, family):
        self.query = ("SELECT coalesce((SELECT ids_minted FROM idgen_stats "
                      f"WHERE pid = {int(pid)} AND family = '{family}'), -1);\n")
        self.psql = subprocess.Popen(["psql", "-XAtq", "-v", "ON_ERROR_STOP=1"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def minted(self):
        self.psql.stdin.write(self.query)
        self.psql.stdin.flush()
        line = self.psql.stdout.readline()
        if not line:
            raise RuntimeError("the sampling psql session ended")
        return int(line)

    def close(self):
        self.psql.stdin.close()
        self.psql.wait()


def least_squares_slope(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return 0.0
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", required=True, help="directory shared with the psql session")
    ap.add_argument("--family", required=True, help="idgen_stats family the calls count under")
    ap.add_argument("--calls", type=int, required=True, help="calls the long statement makes")
    ap.add_argument("--session-pid", type=int, help="the psql client running the statement")
    ap.add_argument("--label", default="", help="what is measured, for the summary line")
    ap.add_argument("--max-growth-kb", type=int, default=1024)
    ap.add_argument("--max-context-growth-kb", type=int, default=64)
    ap.add_argument("--interval", type=float, default=0.002, help="seconds between samples")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds the statement may take")
    args = ap.parse_args()
    label = args.label or args.family

    def unusable(why):
        print(f"{label}: measurement unusable: {why}")
        sys.exit(2)

    pid_text = wait_for_file(os.path.join(args.dir, "pid"), 120, args.session_pid)
    if pid_text is None or not pid_text.isdigit():
        unusable(f"no backend pid in {args.dir}/pid")
    pid = int(pid_text)
    if read_status(pid) is None:
        unusable(f"/proc/{pid}/status cannot be read (is the server on another machine?)")

    progress = Progress(pid, args.family)
    base = progress.minted()
    if base < 0:
        base = 0  # the warm-up is counted; a family row appears with its first ID
    samples = []  # (seconds, calls made, RssAnon kB, VmRSS kB)
    start = time.monotonic()
    open(os.path.join(args.dir, "go"), "w").close()
    result = os.path.join(args.dir, "result")
    calls = 0
    while True:
        if time.monotonic() - start > args.timeout:
            unusable(f"the statement made {calls} of {args.calls} calls in {args.timeout:.0f} s")
        ended = os.path.exists(result)  # before the sample, so that the sample sees every call
        memory = read_status(pid)
        minted = progress.minted()
        if memory is None or minted < 0:
            unusable(f"backend {pid} ended after {calls} of {args.calls} calls")
        calls = minted - base
        samples.append((time.monotonic() - start, calls, memory[0], memory[1]))
        if calls >= args.calls or ended:
            break
        time.sleep(args.interval)
    progress.close()
    seconds = samples[-1][0]
    if calls != args.calls:
        unusable(f"the backend minted {calls} IDs in the statement, not {args.calls}")

    before = wait_for_file(os.path.join(args.dir, "contexts_before"), 10, args.session_pid)
    after = wait_for_file(os.path.join(args.dir, "contexts_after"), args.timeout, args.session_pid)
    open(os.path.join(args.dir, "done"), "w").close()
    if before is None or after is None or not (before.isdigit() and after.isdigit()):
        unusable("no memory-context totals from the session")
    context_growth = int(after) - int(before)

    # Samples whose calls are past the warm-up; the last one (all calls made,
    # possibly after the statement ended) is kept: memory must not have grown by then either.
    warm = [s for s in samples if s[1] >= WARMUP_FRACTION * args.calls]
    if len(warm) < MIN_SAMPLES:
        unusable(f"only {len(warm)} samples after warm-up ({len(samples)} in all, {seconds:.2f} s)")
    first_anon = warm[0][2]
    peak_anon = max(s[2] for s in warm)
    growth = peak_anon - first_anon
    span = warm[-1][1] - warm[0][1]
    slope = least_squares_slope([s[1] for s in warm], [s[2] * 1024 for s in warm])
    flat = growth <= args.max_growth_kb and context_growth <= args.max_context_growth_kb * 1024
    print(f"{label}: {args.calls} calls in {seconds:.2f} s, {len(samples)} samples "
          f"({len(warm)} after the first {WARMUP_FRACTION:.0%}); RssAnon {first_anon} kB "
          f"at {warm[0][1]} calls, peak {peak_anon} kB, growth {growth} kB over {span} calls "
          f"(bound {args.max_growth_kb} kB; fitted {slope:+.4f} B/call); "
          f"VmRSS {warm[0][3]} -> {warm[-1][3]} kB; memory contexts {int(before)} -> {int(after)} B "
          f"({context_growth:+d} B, bound {args.max_context_growth_kb} kB)")
    sys.exit(0 if flat else 1)


if __name__ == "__main__":
    main()
