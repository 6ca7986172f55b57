#!/usr/bin/python3
"""Binary COPY streams for the prefixed_id tests (sql/prefixed_binary.sql).

Standard library only; run with Debian's /usr/bin/python3.

  prefixed_copy_binary.py write [--with-bytes] FIELD...
      Writes a COPY (FORMAT binary) stream to stdout with one row per FIELD.
      A FIELD is "null" or parts joined by commas, each part one of
          b:HEX    bytes given in hex        (b:04)
          t:TEXT   ASCII characters          (t:acct)
          seq:N    N bytes 01 02 03 ... N    (seq:16, a payload filler)
      and "" is an empty field. With --with-bytes each row has two columns:
      the FIELD's bytes as a bytea, then the FIELD itself.

  prefixed_copy_binary.py printf FIELD...
      Writes, instead of the stream, a shell command that writes it: printf
      and the stream's bytes as octal escapes. psql's \set can hold it for a
      server-side COPY ... FROM PROGRAM, which sets LAST_ERROR_SQLSTATE on
      failure where psql 15's \copy does not.

  prefixed_copy_binary.py valid
      Writes rows (bytes bytea, id prefixed_id) of well-framed values: every
      prefix length from 1 to 63, prefixes with inner underscores, and the
      smallest, largest and seeded pseudo-random payloads.

  prefixed_copy_binary.py read FILE
      Reads a COPY (FORMAT binary) stream from FILE and writes it as COPY text:
      each field as bytea text (\\x and hex), NULL as \\N. The stream must be
      well formed (signature, flags, header extension, tuples, trailer, end),
      or the script exits with status 1.
"""
import random
import struct
import sys

SIGNATURE = b"PGCOPY\n\xff\r\n\x00"


def field_bytes(spec):
    """The bytes of a FIELD spec; None for null."""
    if spec == "null":
        return None
    out = bytearray()
    for part in spec.split(",") if spec else []:
        kind, _, value = part.partition(":")
        if kind == "b":
            out += bytes.fromhex(value)
        elif kind == "t":
            out += value.encode("ascii")
        elif kind == "seq":
            out += bytes(i % 256 for i in range(1, int(value) + 1))
        else:
            raise SystemExit(f"unknown part {part!r} in field {spec!r}")
    return bytes(out)


def stream(rows):
    """A binary COPY stream of rows, each a tuple of bytes (or None)."""
    out = bytearray(SIGNATURE)
    out += struct.pack("!ii", 0, 0)  # flags, header extension length
    for row in rows:
        out += struct.pack("!h", len(row))
        for value in row:
            if value is None:
                out += struct.pack("!i", -1)
            else:
                out += struct.pack("!i", len(value)) + value
    out += struct.pack("!h", -1)
    return bytes(out)


def valid_rows():
    """(bytes, bytes) rows of well-framed prefixed_id values."""
    rng = random.Random(14)
    letters = "abcdefghijklmnopqrstuvwxyz"
    prefixes = ["".join(letters[(n + i) % 26] for i in range(n)) for n in range(1, 64)]
    prefixes += ["a_b", "a__b", "user_session", "x_y_z", "a" + "_" * 61 + "b"]
    payloads = [bytes(16), b"\xff" * 16, bytes(range(1, 17))]
    rows = []
    for n, prefix in enumerate(prefixes):
        for payload in payloads + [rng.randbytes(16) for _ in range(3)]:
            if n % 7 and payload in payloads[1:]:
                continue  # the fixed payloads under every 7th prefix only
            field = bytes([len(prefix)]) + prefix.encode("ascii") + payload
            rows.append((field, field))
    return rows


def read_stream(path):
    """Prints the fields of a binary COPY file as COPY text of bytea columns."""
    with open(path, "rb") as f:
        data = f.read()
    def fail(why):
        raise SystemExit(f"{path}: not a well-formed binary COPY stream: {why}")
    if not data.startswith(SIGNATURE):
        fail("no signature")
    pos = len(SIGNATURE)
    if len(data) < pos + 8:
        fail("no header")
    flags, extension = struct.unpack_from("!ii", data, pos)
    if flags != 0:
        fail(f"flags {flags:#x}")
    pos += 8 + extension
    lines = []
    while True:
        if len(data) < pos + 2:
            fail("no trailer")
        (count,) = struct.unpack_from("!h", data, pos)
        pos += 2
        if count == -1:
            break
        fields = []
        for _ in range(count):
            if len(data) < pos + 4:
                fail("a field length is cut off")
            (length,) = struct.unpack_from("!i", data, pos)
            pos += 4
            if length == -1:
                fields.append("\\N")
                continue
            if length < 0 or len(data) < pos + length:
                fail("a field is cut off")
            fields.append("\\\\x" + data[pos:pos + length].hex())
            pos += length
        lines.append("\t".join(fields))
    if pos != len(data):
        fail(f"{len(data) - pos} bytes after the trailer")
    sys.stdout.write("".join(line + "\n" for line in lines))


def main(argv):
    if len(argv) >= 1 and argv[0] in ("write", "printf"):
        specs = argv[1:]
        with_bytes = bool(specs) and specs[0] == "--with-bytes"
        if with_bytes:
            specs = specs[1:]
        rows = []
        for spec in specs:
            value = field_bytes(spec)
            rows.append((value, value) if with_bytes else (value,))
        data = stream(rows)
        if argv[0] == "write":
            sys.stdout.buffer.write(data)
        else:
            print("printf '" + "".join(f"\\{byte:03o}" for byte in data) + "'")
    elif argv == ["valid"]:
        sys.stdout.buffer.write(stream(valid_rows()))
    elif len(argv) == 2 and argv[0] == "read":
        read_stream(argv[1])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
