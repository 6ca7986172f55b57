#!/usr/bin/python3
r"""Binary COPY streams for the prefixed_id tests (sql/prefixed_binary.sql).

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
import sys

import copy_binary  # beside this script


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
    try:
        rows = copy_binary.read_file(path)
    except ValueError as e:
        raise SystemExit(str(e)) from None
    for row in rows:
        fields = ["\\N" if value is None else "\\\\x" + value.hex() for value in row]
        sys.stdout.write("\t".join(fields) + "\n")


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
        data = copy_binary.encode(rows)
        if argv[0] == "write":
            sys.stdout.buffer.write(data)
        else:
            print("printf '" + "".join(f"\\{byte:03o}" for byte in data) + "'")
    elif argv == ["valid"]:
        sys.stdout.buffer.write(copy_binary.encode(valid_rows()))
    elif len(argv) == 2 and argv[0] == "read":
        read_stream(argv[1])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
