#!/usr/bin/python3
"""Binary input fuzzing of idgen's recv functions (test/tap/recv_fuzz.pl runs it).

Feeds byte strings to every binary input function of idgen's types through
COPY ... FROM 'file' (FORMAT binary), one COPY per value so that each value
gets its own outcome: random bytes of every length 0-64 (pure random, and
random over an alphabet that looks like prefixes and small length bytes), and
near misses built from the server's own binary form of known values (one byte
short or long, a header kept with garbage after it, garbage before a kept
body, one byte changed, two values glued, another type's value). It does not
assume any binary layout: valid encodings come from COPY ... TO (FORMAT
binary), and every property is checked on what the server does:

- every COPY ends (the connection survives every value);
- every rejection carries a SQLSTATE from the clean set below;
- an accepted value comes back byte for byte from COPY ... TO (FORMAT binary),
  and its text form parses to an equal value with the same binary form;
- ulid takes exactly the 16-byte inputs (any 128 bits are a ULID), ksuid
  exactly the 20-byte ones (any 160 bits are a KSUID), objectid and rsxid the
  12-byte ones;
- every valid encoding is accepted by its own type.

Standard library only (Debian's /usr/bin/python3). psql comes from PATH and
the server from the PG* variables; files are exchanged in --dir, which the
server (user postgres) must be able to read and write. Prints its plan, twelve,
then one verdict a check and its diagnostics as notes (test/lib/verdicts.py).
"""

import argparse
import collections
import os
import random
import struct
import subprocess
import sys

import copy_binary  # beside this script
from verdicts import note, plan, say  # beside this script

# The clean rejections: bad binary (22P03) or text (22P02) representation,
# bad argument (22023), a message shorter than a recv function reads
# ("insufficient data left in message", 08P01), a domain's CHECK (23514),
# a number out of range (22003), a byte sequence invalid in the encoding
# (22021), a wrong element type inside an array (42804).
CLEAN_SQLSTATES = {"22P03", "22P02", "22023", "08P01", "23514", "22003", "22021", "42804"}

# Each target: the table test/tap/recv_fuzz.pl creates (one column v), its SQL
# type, and SQL expressions of known values whose binary form seeds the near
# misses (fixed values, so that a seed always makes the same inputs). account_id is the domain prefixed_id_define('account_id', 'acct')
# makes: its recv is domain_recv, prefixed_id_recv and then the CHECK; user_tid
# is typeid_define('user_tid', 'user')'s, over typeid_recv.
TARGETS = {
    "ulid": ("recv_ulid", "ulid", [
        "'00000000000000000000000000'::ulid",
        "'7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid",
        "'01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid",
        "ulid_boundary('2024-01-01 00:00+00')",
        "'01JD6ZQ3TW8R5YB1XK0M2N4P6S'::ulid",
    ]),
    "ksuid": ("recv_ksuid", "ksuid", [
        "'000000000000000000000000000'::ksuid",
        "'aWgEPTl1tmebfsQzFP4bxwgy80V'::ksuid",
        "'0ujtsYcgvSTl8PAuAdqWYSMnLOv'::ksuid",
        "ksuid_boundary('2024-01-01 00:00+00')",
    ]),
    "objectid": ("recv_objectid", "objectid", [
        "'000000000000000000000000'::objectid",
        "'ffffffffffffffffffffffff'::objectid",
        "'56e1fc72e0c917e9c4714161'::objectid",
        "objectid_boundary('2024-01-01 00:00+00')",
    ]),
    "rsxid": ("recv_rsxid", "rsxid", [
        "'00000000000000000000'::rsxid",
        "'vvvvvvvvvvvvvvvvvvvg'::rsxid",
        "'9m4e2mr0ui3e8a215n4g'::rsxid",
        "xid_boundary('2024-01-01 00:00+00')",
    ]),
    "prefixed_id": ("recv_prefixed", "prefixed_id", [
        "'acct_0000000000000000000000000'::prefixed_id",
        "'acct_f5lxx1zz5pnorynqglhzmsp33'::prefixed_id",
        "'x_00000000000000000000000zz'::prefixed_id",
        "'user_session_0123456789abcdefghijklmno'::prefixed_id",
        "(repeat('a', 63) || '_0000000000000000000000001')::prefixed_id",
        "prefixed_id_from_uuid('inv', '01936dfb-8f5c-7a3e-9b1d-4c2e8f0a6b7d')",
        "prefixed_id_from_uuid('tok', 'f47ac10b-58cc-4372-a567-0e02b2c3d479')",
    ]),
    "typeid": ("recv_typeid", "typeid", [
        "'00000000000000000000000000'::typeid",
        "'7zzzzzzzzzzzzzzzzzzzzzzzzz'::typeid",
        "'user_01h455vb4pex5vsknk084sn02q'::typeid",
        "'user_session_00000000000000000000000001'::typeid",
        "(repeat('a', 63) || '_00000000000000000000000001')::typeid",
    ]),
    "user_tid": ("recv_typeid_domain", "user_tid", [
        "'user_01h455vb4pex5vsknk084sn02q'::user_tid",
        "typeid_from_uuid('user', 'f47ac10b-58cc-4372-a567-0e02b2c3d479')::user_tid",
    ]),
    "account_id": ("recv_domain", "account_id", [
        "'acct_0000000000000000000000000'::account_id",
        "'acct_f5lxx1zz5pnorynqglhzmsp33'::account_id",
        "prefixed_id_from_uuid('acct', '01936dfb-8f5c-7a3e-9b1d-4c2e8f0a6b7d')::account_id",
    ]),
}
# Array columns: array_recv hands each element to the element type's recv
# through a buffer of its own.
ARRAY_TARGETS = {
    "ulid[]": ("recv_ulid_array", "ulid[]", "ulid"),
    "ksuid[]": ("recv_ksuid_array", "ksuid[]", "ksuid"),
    "objectid[]": ("recv_objectid_array", "objectid[]", "objectid"),
    "rsxid[]": ("recv_rsxid_array", "rsxid[]", "rsxid"),
    "prefixed_id[]": ("recv_prefixed_array", "prefixed_id[]", "prefixed_id"),
    "typeid[]": ("recv_typeid_array", "typeid[]", "typeid"),
}

MAX_LENGTH = 64
# Bytes that look like prefix characters, underscores, small lengths and
# their neighbours: random strings over them get accepted now and then.
PLAUSIBLE = bytes(range(ord("a"), ord("z") + 1)) + b"_`{" + bytes(range(0, 20)) + b"\x3f\x40\x41\xff"


def run_psql(script_path, stdout_path, stderr_path):
    with open(stdout_path, "w") as out, open(stderr_path, "w") as err:
        return subprocess.run(["psql", "-X", "-q", "-At", "-f", script_path],
                              stdout=out, stderr=err).returncode


def sql_literal(text):
    return "'" + text.replace("'", "''") + "'"


def valid_encodings(work):
    """Runs COPY ... TO (FORMAT binary) of each known value: {target: [bytes]}."""
    script = []
    names = {}
    for target, (_table, _type, samples) in TARGETS.items():
        for k, expression in enumerate(samples):
            path = os.path.join(work, f"valid-{target}-{k}.bin")
            names.setdefault(target, []).append(path)
            script.append(f"COPY (SELECT {expression}) TO {sql_literal(path)} (FORMAT binary);")
    script_path = os.path.join(work, "valid.sql")
    with open(script_path, "w") as f:
        f.write("\\set ON_ERROR_STOP 1\n" + "\n".join(script) + "\n")
    status = run_psql(script_path, os.path.join(work, "valid.out"), os.path.join(work, "valid.err"))
    if status != 0:
        with open(os.path.join(work, "valid.err")) as f:
            sys.stderr.write(f.read())
        raise RuntimeError("COPY of the known values failed")
    encodings = {}
    for target, paths in names.items():
        encodings[target] = []
        for path in paths:
            rows = copy_binary.read_file(path)
            if len(rows) != 1 or len(rows[0]) != 1 or rows[0][0] is None:
                raise RuntimeError(f"{path}: expected one non-NULL value")
            encodings[target].append(rows[0][0])
    return encodings


ELEMENT_TYPES = ["ulid", "prefixed_id", "typeid", "ksuid", "objectid", "rsxid"]


def element_oids(work):
    """The type OIDs of the array targets' elements (array headers name them)."""
    out = subprocess.run(["psql", "-X", "-At", "-v", "ON_ERROR_STOP=1", "-c",
                          "SELECT " + " || ' ' || ".join(f"'{t}'::regtype::oid" for t in ELEMENT_TYPES)],
                         capture_output=True, text=True, check=True).stdout.split()
    return {t: int(oid) for t, oid in zip(ELEMENT_TYPES, out)}


def array_of_one(element_oid, element):
    """The binary form of a one-dimensional array holding one element, as array_send writes it."""
    return struct.pack("!iiIii", 1, 0, element_oid, 1, 1) + struct.pack("!i", len(element)) + element


def near_misses(rng, encoding):
    """Inputs one step away from a valid encoding: (kind, bytes)."""
    n = len(encoding)
    out = [
        ("one byte short", encoding[:-1]),
        ("first byte dropped", encoding[1:]),
        ("one letter more at the end", encoding + b"a"),
        ("one random byte more at the end", encoding + bytes([rng.randrange(256)])),
        ("one letter more at the start", b"a" + encoding),
        ("one letter inserted after the first byte", encoding[:1] + b"a" + encoding[1:]),
        ("half of it", encoding[:n // 2]),
        ("twice", encoding + encoding),
        ("all zero, same length", bytes(n)),
        ("all 0xff, same length", b"\xff" * n),
    ]
    for keep in (1, 2, 4, 8):
        if keep < n:
            out.append((f"first {keep} bytes kept, garbage after",
                        encoding[:keep] + rng.randbytes(n - keep)))
            out.append((f"garbage in the first {keep} bytes, the rest kept",
                        rng.randbytes(keep) + encoding[keep:]))
    for position in range(n):
        changed = bytearray(encoding)
        changed[position] = rng.choice([0, 0xff, ord("_"), ord("A"), changed[position] ^ 0x20,
                                        rng.randrange(256)])
        if bytes(changed) != encoding:
            out.append(("one byte changed", bytes(changed)))
    for delta in (-2, -1, 1, 2):  # a first byte read as a length, off by a little
        if n and 0 <= encoding[0] + delta < 256:
            out.append((f"first byte {delta:+d}", bytes([encoding[0] + delta]) + encoding[1:]))
    return out


def make_cases(rng, per_length, encodings, oids):
    """Every input: a list of (target, kind, bytes)."""
    cases = []
    for target in TARGETS:
        for length in range(MAX_LENGTH + 1):
            for i in range(per_length):
                if i % 2 == 0:
                    cases.append((target, "random", rng.randbytes(length)))
                else:
                    cases.append((target, "random over prefix-like bytes",
                                  bytes(rng.choice(PLAUSIBLE) for _ in range(length))))
        for encoding in encodings[target]:
            cases.append((target, "valid", encoding))
            for kind, data in near_misses(rng, encoding):
                cases.append((target, kind, data))
        for other, others in encodings.items():  # another type's values
            if other != target:
                for encoding in others:
                    cases.append((target, f"a valid {other}", encoding))
    for target, (_table, _type, element) in ARRAY_TARGETS.items():
        for length in range(MAX_LENGTH + 1):
            for _ in range(max(1, per_length // 3)):
                cases.append((target, "array of one random element",
                              array_of_one(oids[element], rng.randbytes(length))))
        for encoding in encodings[element]:
            cases.append((target, "array of one valid element", array_of_one(oids[element], encoding)))
            cases.append((target, "array of one element one byte short",
                          array_of_one(oids[element], encoding[:-1])))
    return cases


def table_and_type(target):
    if target in TARGETS:
        return TARGETS[target][0], TARGETS[target][1]
    return ARRAY_TARGETS[target][0], ARRAY_TARGETS[target][1]


def run_cases(work, cases):
    """One psql session: for each case a COPY FROM, its SQLSTATE, and for what was
    accepted COPY TO of the value and of its text form parsed again."""
    for sub in ("in", "out", "reparsed"):
        os.makedirs(os.path.join(work, sub), exist_ok=True)
        os.chmod(os.path.join(work, sub), 0o777)  # the server writes the COPY TO files
    lines = []
    for i, (target, _kind, data) in enumerate(cases):
        table, sql_type = table_and_type(target)
        in_path = os.path.join(work, "in", f"{i}.bin")
        with open(in_path, "wb") as f:
            f.write(copy_binary.encode([(data,)]))
        out_path = os.path.join(work, "out", f"{i}.bin")
        reparsed_path = os.path.join(work, "reparsed", f"{i}.bin")
        lines += [
            f"DELETE FROM {table};",
            f"COPY {table} FROM {sql_literal(in_path)} (FORMAT binary);",
            f"\\echo @@ {i} :SQLSTATE :LAST_ERROR_MESSAGE",
            f"COPY {table} TO {sql_literal(out_path)} (FORMAT binary);",
            f"COPY (SELECT v::text::{sql_type} FROM {table}) TO {sql_literal(reparsed_path)} (FORMAT binary);",
            f"SELECT 'TXT', {i}, v::text, v::text::{sql_type} = v FROM {table};",
        ]
    script_path = os.path.join(work, "cases.sql")
    with open(script_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    stdout_path = os.path.join(work, "cases.out")
    stderr_path = os.path.join(work, "cases.err")
    status = run_psql(script_path, stdout_path, stderr_path)
    outcomes = {}
    texts = {}
    # A wrongly accepted value may print any bytes: read them without failing.
    with open(stdout_path, errors="backslashreplace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("@@ "):
                parts = line.split(" ", 3)
                outcomes[int(parts[1])] = (parts[2], parts[3] if len(parts) > 3 else "")
            elif line.startswith("TXT|") and line.count("|") >= 3:
                _, i, rest = line.split("|", 2)
                text, equal = rest.rsplit("|", 1)
                texts[int(i)] = (text, equal)
    with open(stderr_path, errors="backslashreplace") as f:
        stderr = f.read()
    return status, outcomes, texts, stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True, help="a directory the server can read and write")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--per-length", type=int, default=6, help="random inputs per length and type")
    args = parser.parse_args()
    plan(12)  # the twelve check() calls below

    rng = random.Random(args.seed)
    encodings = valid_encodings(args.dir)
    oids = element_oids(args.dir)
    cases = make_cases(rng, args.per_length, encodings, oids)
    status, outcomes, texts, stderr = run_cases(args.dir, cases)

    def check(ok, what, details=()):
        if not say(ok, what):
            for line in list(details)[:10]:
                note(line)

    def case_name(i):
        target, kind, data = cases[i]
        return f"case {i}: {target}, {kind}, {len(data)} bytes {data.hex()}"

    per_target = collections.Counter(target for target, _, _ in cases)
    note(f"seed {args.seed}: {len(cases)} inputs, one COPY each: "
         + ", ".join(f"{t} {n}" for t, n in per_target.items()))

    missing = [i for i in range(len(cases)) if i not in outcomes]
    lost = "server closed the connection" in stderr or "connection to server was lost" in stderr
    check(status == 0 and not missing and not lost,
          f"all {len(cases)} COPY statements ran to their end on one connection (psql status {status})",
          [f"no outcome for {case_name(i)}" for i in missing[:5]] + stderr.splitlines()[-5:])

    accepted = [i for i, (state, _) in outcomes.items() if state == "00000"]
    rejected = {i: o for i, o in outcomes.items() if o[0] != "00000"}
    seen = collections.Counter(state for state, _ in rejected.values())
    note("SQLSTATEs of rejected inputs: "
         + ", ".join(f"{state} x{n}" for state, n in sorted(seen.items())))
    messages = collections.Counter((cases[i][0], state, message) for i, (state, message) in rejected.items())
    for (target, state, message), n in sorted(messages.items()):
        note(f"  {target}: {state} {message} (x{n})")
    unclean = [i for i, (state, _) in rejected.items() if state not in CLEAN_SQLSTATES]
    check(not unclean,
          f"every rejection has a clean SQLSTATE (seen: {' '.join(sorted(seen))}; "
          f"allowed: {' '.join(sorted(CLEAN_SQLSTATES))})",
          [f"{case_name(i)} -> {rejected[i]}" for i in unclean])
    check("22P03" in seen, "malformed binary input is rejected with 22P03 (incorrect binary data format)")
    check(any(cases[i][0] == "account_id" and state == "23514" for i, (state, _) in rejected.items()),
          "the domain account_id rejects other prefixes with its CHECK (23514)")

    counts = collections.Counter(cases[i][0] for i in accepted)
    note("accepted: " + ", ".join(f"{t} {counts[t]}" for t in per_target))
    accepted_kinds = collections.Counter((cases[i][0], cases[i][1]) for i in accepted)
    for target in per_target:
        kinds = sorted((kind, n) for (t, kind), n in accepted_kinds.items() if t == target)
        note(f"  {target}: " + ", ".join(f"{kind} x{n}" for kind, n in kinds))

    wrong_ulid = [i for i, (target, _, data) in enumerate(cases)
                  if target == "ulid" and i in outcomes and (outcomes[i][0] == "00000") != (len(data) == 16)]
    check(not wrong_ulid, "ulid accepts every 16-byte input and nothing else",
          [f"{case_name(i)} -> {outcomes[i]}" for i in wrong_ulid])

    for fixed, length in (("ksuid", 20), ("objectid", 12), ("rsxid", 12)):
        wrong = [i for i, (target, _, data) in enumerate(cases)
                 if target == fixed and i in outcomes and (outcomes[i][0] == "00000") != (len(data) == length)]
        check(not wrong, f"{fixed} accepts every {length}-byte input and nothing else",
              [f"{case_name(i)} -> {outcomes[i]}" for i in wrong])

    refused_valid = [i for i, (_, kind, _) in enumerate(cases)
                     if kind in ("valid", "array of one valid element") and outcomes.get(i, ("?",))[0] != "00000"]
    check(not refused_valid, "every type accepts the binary form of each of its known values",
          [f"{case_name(i)} -> {outcomes.get(i)}" for i in refused_valid])

    bad_round_trip = []
    for i in range(len(cases)):
        if i not in outcomes:
            continue
        path = os.path.join(args.dir, "out", f"{i}.bin")
        try:
            rows = copy_binary.read_file(path)
        except (OSError, ValueError) as e:
            bad_round_trip.append(f"{case_name(i)}: COPY TO output unreadable: {e}")
            continue
        expected = [[cases[i][2]]] if i in accepted else []
        if rows != expected:
            bad_round_trip.append(f"{case_name(i)}: COPY TO gave {[[f and f.hex() for f in r] for r in rows]}")
    check(not bad_round_trip,
          f"COPY TO (FORMAT binary) gives back exactly the bytes of each of the {len(accepted)} "
          "accepted inputs (and nothing for a rejected one)", bad_round_trip)

    bad_text = []
    for i in accepted:
        text = texts.get(i)
        if text is None or text[1] != "t":
            bad_text.append(f"{case_name(i)}: text form {text} does not parse to an equal value")
            continue
        try:
            rows = copy_binary.read_file(os.path.join(args.dir, "reparsed", f"{i}.bin"))
        except (OSError, ValueError) as e:
            bad_text.append(f"{case_name(i)}: text form {text[0]} did not parse back: {e}")
            continue
        if rows != [[cases[i][2]]]:
            bad_text.append(f"{case_name(i)}: text form {text[0]} parses to other bytes")
    check(not bad_text,
          "the text form of each accepted value parses to an equal value with the same binary form",
          bad_text)

    # Issue 14, item 7: a valid encoding one byte short or long must not be
    # read as another value (before 0.5.0, acct + 15 bytes was an acc_ value).
    misframed = [
        case_name(i) for i in accepted
        if cases[i][1] in ("one byte short", "one letter more at the end", "one random byte more at the end",
                           "array of one element one byte short")]
    check(not misframed, "no valid encoding one byte short or one byte long is accepted", misframed)

    return 0


if __name__ == "__main__":
    sys.exit(main())
