#!/usr/bin/python3
"""Every idgen type through psycopg 3 (Debian's python3-psycopg), for real.

Text and binary parameters and results, COPY ... (FORMAT binary) in and out,
and arrays, for uuid_v7(), snowflake bigints, ulid, prefixed_id, typeid and
domains of prefixed_id_define() and typeid_define(). Every value must round
trip byte for byte: what the client dumps is compared with the server's own
*_send() bytes and text output. Connects with the PG* environment variables
to a database that already has the extension. Prints one verdict line per
check (test/lib/verdicts.py), which psycopg.pl turns into TAP.

The block between the README markers is docs/drivers.md's
psycopg snippet, verbatim.
"""
import os
import sys
import traceback
import uuid

import psycopg
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from verdicts import note, plan, say  # noqa: E402

# README snippet begins
from dataclasses import dataclass

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def b32_decode(text):  # 26 Crockford characters -> 16 bytes
    n = 0
    for c in text.upper():
        n = n * 32 + CROCKFORD.index(c)
    return n.to_bytes(16, "big")


def b32_encode(bits):
    n = int.from_bytes(bits, "big")
    return "".join(CROCKFORD[(n >> (5 * (25 - i))) & 31] for i in range(26))


def b36_encode(bits):  # 25 lowercase base36 digits, zero-padded
    n, out = int.from_bytes(bits, "big"), ""
    for _ in range(25):
        n, d = divmod(n, 36)
        out = "0123456789abcdefghijklmnopqrstuvwxyz"[d] + out
    return out


@dataclass(frozen=True)
class Ulid:
    bits: bytes  # 16 bytes, most significant first

    def __str__(self):
        return b32_encode(self.bits)


@dataclass(frozen=True)
class PrefixedId:
    prefix: str
    bits: bytes

    def __str__(self):
        return f"{self.prefix}_{b36_encode(self.bits)}"


@dataclass(frozen=True)
class TypeId:
    prefix: str  # may be empty
    bits: bytes

    def __str__(self):
        body = b32_encode(self.bits).lower()
        return f"{self.prefix}_{body}" if self.prefix else body


def parse_ulid(text):
    return Ulid(b32_decode(text))


def parse_prefixed_id(text):
    prefix, _, body = text.rpartition("_")
    return PrefixedId(prefix, int(body, 36).to_bytes(16, "big"))


def parse_typeid(text):
    prefix, _, body = text.rpartition("_")
    return TypeId(prefix, b32_decode(body))


def unframe(data):
    """prefixed_id and typeid binary: length byte L, L prefix bytes, 16 bytes."""
    data = bytes(data)
    length = data[0]
    if len(data) != 1 + length + 16:
        raise ValueError("badly framed idgen value")
    return data[1:1 + length].decode("ascii"), data[1 + length:]


TYPES = {  # type name: (class, text parser, from binary, to binary)
    "ulid": (Ulid, parse_ulid, lambda d: Ulid(bytes(d)), lambda v: v.bits),
    "prefixed_id": (PrefixedId, parse_prefixed_id, lambda d: PrefixedId(*unframe(d)),
                    lambda v: bytes([len(v.prefix)]) + v.prefix.encode() + v.bits),
    "typeid": (TypeId, parse_typeid, lambda d: TypeId(*unframe(d)),
               lambda v: bytes([len(v.prefix)]) + v.prefix.encode() + v.bits),
}


def register_idgen(conn):
    """Text and binary loaders and dumpers for ulid, prefixed_id and typeid,
    and their arrays. A domain's values (prefixed_id_define, typeid_define)
    arrive with the base type's OID, but an array of a domain carries the
    domain's OIDs, so every domain over these types gets the loaders too:
    call this again after defining new ones."""
    for name, (cls, parse, from_binary, to_binary) in TYPES.items():
        info = TypeInfo.fetch(conn, name)
        info.register(conn)  # arrays, and the name for copy.set_types()
        domains = [TypeInfo.fetch(conn, d) for (d,) in conn.execute(
            "SELECT oid::regtype::text FROM pg_type WHERE typtype = 'd' AND typbasetype = %s",
            [info.oid])]
        for d in domains:
            d.register(conn)

        class TextLoader(Loader):
            def load(self, data, parse=parse):
                return parse(bytes(data).decode())

        class BinaryLoader(Loader):
            format = Format.BINARY

            def load(self, data, from_binary=from_binary):
                return from_binary(data)

        class TextDumper(Dumper):
            oid = info.oid

            def dump(self, obj):
                return str(obj).encode()

        class BinaryDumper(Dumper):
            format = Format.BINARY
            oid = info.oid

            def dump(self, obj, to_binary=to_binary):
                return to_binary(obj)

        for oid in [info.oid] + [d.oid for d in domains]:
            conn.adapters.register_loader(oid, TextLoader)
            conn.adapters.register_loader(oid, BinaryLoader)
        conn.adapters.register_dumper(cls, TextDumper)
        conn.adapters.register_dumper(cls, BinaryDumper)
# README snippet ends


def readme_usage(conn):
    """docs/drivers.md's psycopg usage snippet, verbatim between the markers."""
    # README usage begins
    register_idgen(conn)          # once per connection, and again after defining new domains
    cur = conn.cursor(binary=True)
    tid = cur.execute("SELECT typeid_new('user')").fetchone()[0]  # TypeId(prefix='user', bits=b'\x01…')
    same = cur.execute("SELECT %b::typeid", [tid]).fetchone()[0]  # a binary parameter
    with cur.copy("COPY users (id, email) FROM STDIN (FORMAT binary)") as copy:
        copy.set_types(["typeid", "text"])                         # base type names, also for domains
        copy.write_row([tid, "ada@example.com"])
    # README usage ends
    return tid, same


def ok(cond, what, extra=""):
    """One verdict; on a failure, extra follows it as a note."""
    say(cond, what)
    if not cond and extra:
        note(extra)


def check(what, fn):
    """One verdict for fn(); an exception is a failure, not a crash."""
    try:
        cond, extra = fn()
    except Exception as e:  # noqa: BLE001 - reported as a failed check
        cond, extra = False, f"{type(e).__name__}: {e}"
    ok(cond, what, extra)


def binary_of(name, value):
    """What psycopg's binary dumper writes for value of SQL type name."""
    if name == "uuid":
        return value.bytes
    if name == "bigint":
        return value.to_bytes(8, "big", signed=True)
    return TYPES[name][3](value)


# name, SQL type to cast parameters to, generating expression, send function
CASES = [
    ("uuid_v7()", "uuid", "uuid", "uuid_v7()", "uuid_send"),
    ("snowflake bigint", "bigint", "bigint", "snowflake(1)", "int8send"),
    ("snowflake53 bigint", "bigint", "bigint", "snowflake53(1)", "int8send"),
    ("ulid", "ulid", "ulid", "ulid()", "ulid_send"),
    ("prefixed_id", "prefixed_id", "prefixed_id", "prefixed_id_new('acct')", "prefixed_id_send"),
    ("typeid", "typeid", "typeid", "typeid_new('user')", "typeid_send"),
    ("typeid, empty prefix", "typeid", "typeid", "typeid_new('')", "typeid_send"),
    ("prefixed_id_define domain", "prefixed_id", "acct_id", "prefixed_id_new('acct')::acct_id",
     "prefixed_id_send"),
    ("typeid_define domain", "typeid", "user_id", "typeid_new('user')::user_id", "typeid_send"),
]


def main():
    conn = psycopg.connect("", autocommit=True)
    conn.execute("SELECT prefixed_id_define('acct_id', 'acct')")
    conn.execute("SELECT typeid_define('user_id', 'user')")
    register_idgen(conn)
    text_cur = conn.cursor()
    bin_cur = conn.cursor(binary=True)

    # A value the client must get right that a naive parser would not: a
    # prefix with an underscore (split at the last one), all-zero and all-one bits.
    extremes = {
        "prefixed_id": ["user_session_000000000000000000000000a",
                        "a_0000000000000000000000000", "z_f5lxx1zz5pnorynqglhzmsp33"],
        "typeid": ["user_session_01h455vb4pex5vsknk084sn02q",
                   "00000000000000000000000000", "zz_7zzzzzzzzzzzzzzzzzzzzzzzzz"],
        "ulid": ["00000000000000000000000000", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"],
    }
    # one verdict an extreme, 10 a case, then COPY (4), the bad frame, the
    # unregistered result and the README usage
    plan(sum(len(texts) for texts in extremes.values()) + 10 * len(CASES) + 7)
    for name, texts in extremes.items():
        for t in texts:
            def extreme(name=name, t=t):
                row = bin_cur.execute(
                    f"SELECT %t::{name}, %t::{name}::text, {name}_send(%t::{name})", [t, t, t]).fetchone()
                parsed = TYPES[name][1](t)
                return (row[0] == parsed and str(parsed) == row[1]
                        and binary_of(name, parsed) == row[2], repr(row))
            check(f"{name} {t}: binary result, text and send agree with the client's parser", extreme)

    for label, base, sqltype, gen, send in CASES:
        # Results: the same value read in text and in binary.
        row_t = text_cur.execute(
            f"SELECT x, x::text, {send}(x) FROM (SELECT {gen} AS x) s").fetchone()
        value = row_t[0]
        check(f"{label}: text result parses to the server's text and send bytes",
              lambda: (str(value) == row_t[1] and binary_of(base, value) == row_t[2],
                       f"{value!r} vs {row_t[1]!r}"))
        check(f"{label}: loaded as a {type(value).__name__}, not left a string",
              lambda: (not isinstance(value, str), repr(value)))
        row_b = bin_cur.execute(
            f"SELECT x, x::text, {send}(x) FROM (SELECT {gen} AS x) s").fetchone()
        check(f"{label}: binary result equals its server text and send bytes",
              lambda: (str(row_b[0]) == row_b[1] and binary_of(base, row_b[0]) == row_b[2],
                       f"{row_b!r}"))
        check(f"{label}: a binary result re-read in text is the same value",
              lambda: (text_cur.execute(f"SELECT %t::{sqltype}", [row_b[0]]).fetchone()[0] == row_b[0], ""))

        # Parameters: the server sees exactly the bytes and text we meant.
        for fmt in ("t", "b"):
            def param(fmt=fmt):
                got = bin_cur.execute(
                    f"SELECT (%{fmt}::{sqltype})::text, {send}(%{fmt}::{sqltype}), %{fmt}::{sqltype} = x"
                    f" FROM (SELECT %t::{sqltype} AS x) s", [value, value, value, row_t[1]]).fetchone()
                return (got[0] == row_t[1] and got[1] == row_t[2] and got[2] is True, repr(got))
            check(f"{label}: {'binary' if fmt == 'b' else 'text'} parameter round-trips byte for byte",
                  param)

        # Arrays, both directions, both formats.
        arr_sql = (f"SELECT array_agg(x ORDER BY n), array_agg(x::text ORDER BY n),"
                   f" array_agg({send}(x) ORDER BY n)"
                   f" FROM (SELECT n, {gen} AS x FROM generate_series(1, 3) n) s")
        for cur, fmt_name in ((text_cur, "text"), (bin_cur, "binary")):
            def arr_result(cur=cur):
                values, texts, sends = cur.execute(arr_sql).fetchone()
                return (len(values) == 3 and [str(v) for v in values] == texts
                        and [binary_of(base, v) for v in values] == sends, repr(values))
            check(f"{label}[]: {fmt_name} array result", arr_result)
        values = text_cur.execute(arr_sql).fetchone()[0]
        for fmt in ("t", "b"):
            def arr_param(fmt=fmt):
                got = bin_cur.execute(
                    f"SELECT array(SELECT {send}(e) FROM unnest(%{fmt}::{base}[]) WITH ORDINALITY u(e, i)"
                    f" ORDER BY i), array(SELECT e::text FROM unnest(%{fmt}::{base}[]) WITH ORDINALITY"
                    f" u(e, i) ORDER BY i)", [values, values]).fetchone()
                return (got[0] == [binary_of(base, v) for v in values]
                        and got[1] == [str(v) for v in values], repr(got))
            check(f"{label}[]: {'binary' if fmt == 'b' else 'text'} array parameter", arr_param)

    # COPY ... (FORMAT binary) in and out, every type in one table.
    cols = [("u", "uuid", "uuid", "uuid_send", "uuid_v7()"),
            ("s", "bigint", "bigint", "int8send", "snowflake(1)"),
            ("l", "ulid", "ulid", "ulid_send", "ulid()"),
            ("p", "prefixed_id", "prefixed_id", "prefixed_id_send", "prefixed_id_new('acct')"),
            ("t", "typeid", "typeid", "typeid_send", "typeid_new('user')"),
            ("e", "typeid", "typeid", "typeid_send", "typeid_new('')"),
            ("a", "acct_id", "prefixed_id", "prefixed_id_send", "prefixed_id_new('acct')"),
            ("d", "user_id", "typeid", "typeid_send", "typeid_new('user')")]
    conn.execute("DROP TABLE IF EXISTS copy_src, copy_dst")
    conn.execute("CREATE TABLE copy_src (n int, " + ", ".join(f"{c} {t}" for c, t, *_ in cols) + ")")
    conn.execute("CREATE TABLE copy_dst (LIKE copy_src)")
    conn.execute("INSERT INTO copy_src SELECT n, " + ", ".join(g for *_, g in cols)
                 + " FROM generate_series(1, 50) n")
    conn.execute("INSERT INTO copy_src (n) VALUES (51)")  # NULLs too
    names = ", ".join(c for c, *_ in cols)
    types = ["int4"] + [b for _, _, b, _, _ in cols]
    rows = text_cur.execute(f"SELECT n, {names} FROM copy_src ORDER BY n").fetchall()

    def copy_out():
        got = []
        with bin_cur.copy(f"COPY (SELECT n, {names} FROM copy_src ORDER BY n) TO STDOUT (FORMAT binary)") as cp:
            cp.set_types(types)
            got = list(cp.rows())
        return got == rows, f"{len(got)} rows"
    check("COPY TO STDOUT (FORMAT binary): every type read back equal to the text results", copy_out)

    def copy_raw():
        # The raw COPY stream carries each field as the server's send bytes; the
        # client's binary dump of the row must be the same bytes.
        with bin_cur.copy(f"COPY (SELECT {names} FROM copy_src WHERE n = 1) TO STDOUT (FORMAT binary)") as cp:
            raw = b"".join(bytes(b) for b in cp)
        body = raw[19:]  # signature (11), flags (4), extension length (4)
        want = len(cols).to_bytes(2, "big")
        for (c, _, base, _, _), v in zip(cols, rows[0][1:]):
            field = binary_of(base, v)
            want += len(field).to_bytes(4, "big") + field
        return body == want + b"\xff\xff", f"{body.hex()} vs {want.hex()}"
    check("COPY TO STDOUT (FORMAT binary): raw fields equal the client's binary dumps", copy_raw)

    def copy_in():
        with bin_cur.copy(f"COPY copy_dst (n, {names}) FROM STDIN (FORMAT binary)") as cp:
            cp.set_types(types)
            for r in rows:
                cp.write_row(r)
        sends = ", ".join(f"{s}({c})" for c, _, _, s, _ in cols)
        src = conn.execute(f"SELECT n, {sends}, {names.replace(', ', '::text, ')}::text"
                           " FROM copy_src ORDER BY n").fetchall()
        dst = conn.execute(f"SELECT n, {sends}, {names.replace(', ', '::text, ')}::text"
                           " FROM copy_dst ORDER BY n").fetchall()
        return src == dst and len(dst) == 51, f"{len(dst)} rows"
    check("COPY FROM STDIN (FORMAT binary): stored values equal the originals (send bytes and text)",
          copy_in)

    def copy_in_domain_check():
        # The domain's CHECK holds for binary COPY too: a user_ id into acct_id.
        try:
            with bin_cur.copy("COPY copy_dst (n, a) FROM STDIN (FORMAT binary)") as cp:
                cp.set_types(["int4", "prefixed_id"])
                cp.write_row([99, parse_prefixed_id("user_03hac0ak0qz34ymxtifhcn9eq")])
        except psycopg.errors.CheckViolation:
            return True, ""
        return False, "accepted"
    check("COPY FROM STDIN (FORMAT binary) into a prefixed_id_define domain enforces its prefix",
          copy_in_domain_check)

    def bad_frame():
        # A dumper that leaves out the length byte (the pre-0.5.0 form) is refused, not misread.
        try:
            conn.cursor().execute("SELECT %b::prefixed_id", [OldPrefixed()])
        except psycopg.errors.InvalidBinaryRepresentation:
            return True, ""
        return False, "accepted"

    class OldPrefixed:
        pass

    class OldDumper(Dumper):
        format = Format.BINARY
        oid = TypeInfo.fetch(conn, "prefixed_id").oid

        def dump(self, obj):
            return b"acct" + bytes(16)
    conn.adapters.register_dumper(OldPrefixed, OldDumper)
    check("a prefixed_id binary parameter without its length byte is refused with 22P03", bad_frame)

    conn.close()

    # A new connection: unregistered, values are their text; then docs/drivers.md's usage lines.
    conn = psycopg.connect("", autocommit=True)
    row = conn.execute("SELECT x, x::text FROM (SELECT typeid_new('user') AS x) s").fetchone()
    ok(isinstance(row[0], str) and row[0] == row[1], "unregistered, a typeid result is a str, its text",
       repr(row))
    conn.execute("CREATE TABLE users (id user_id PRIMARY KEY, email text)")

    def usage():
        tid, echoed = readme_usage(conn)
        got = conn.execute("SELECT typeid_send(id), id::text FROM users WHERE email = 'ada@example.com'"
                           ).fetchone()
        return (isinstance(tid, TypeId) and echoed == tid and got[0] == binary_of("typeid", tid)
                and got[1] == str(tid), repr((tid, got)))
    check("README usage: binary result, binary parameter and binary COPY into a typeid_define domain", usage)
    conn.close()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:  # noqa: BLE001 - a failed check, not a silent crash
        say(False, "the test stopped")
        note(f"{type(e).__name__}: {e}")
        note(traceback.format_exc())
        sys.exit(1)
