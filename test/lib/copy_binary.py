"""PostgreSQL's binary COPY format (COPY ... (FORMAT binary)) for the test scripts beside it.

A stream is the signature, a 32-bit flags word (0: no OIDs, nothing critical),
a 32-bit header extension length and that many bytes, then one tuple per row
(a 16-bit field count, then per field a 32-bit length, -1 for NULL, and the
bytes) and the trailer, a field count of -1; all integers in network order.
Standard library only (Debian's /usr/bin/python3); the scripts import it as
`import copy_binary`, which works because Python puts a script's own directory
first on sys.path.
"""
import struct

SIGNATURE = b"PGCOPY\n\xff\r\n\x00"


def encode(rows):
    """A binary COPY stream of rows, each a sequence of fields (bytes, or None for NULL)."""
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


def decode(data):
    """The rows of a binary COPY stream, each a list of fields (bytes, or None for NULL).

    Raises ValueError("not a well-formed binary COPY stream: ...") unless data is
    exactly one well-formed stream (signature, zero flags, header extension,
    tuples, trailer, and nothing after it).
    """
    def fail(why):
        raise ValueError(f"not a well-formed binary COPY stream: {why}")

    if not data.startswith(SIGNATURE):
        fail("no signature")
    pos = len(SIGNATURE)
    if len(data) < pos + 8:
        fail("no header")
    flags, extension = struct.unpack_from("!ii", data, pos)
    if flags != 0:
        fail(f"flags {flags:#x}")
    pos += 8
    if extension < 0:
        fail(f"header extension length {extension}")
    if len(data) < pos + extension:
        fail("the header extension is cut off")
    pos += extension
    rows = []
    while True:
        if len(data) < pos + 2:
            fail("no trailer")
        (count,) = struct.unpack_from("!h", data, pos)
        pos += 2
        if count == -1:
            break
        if count < 0:
            fail(f"field count {count}")
        row = []
        for _ in range(count):
            if len(data) < pos + 4:
                fail("a field length is cut off")
            (length,) = struct.unpack_from("!i", data, pos)
            pos += 4
            if length == -1:
                row.append(None)
                continue
            if length < 0 or len(data) < pos + length:
                fail("a field is cut off")
            row.append(data[pos:pos + length])
            pos += length
        rows.append(row)
    if pos != len(data):
        fail(f"{len(data) - pos} bytes after the trailer")
    return rows


def read_file(path):
    """decode() of the file at path; a ValueError's message starts with the path."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        return decode(data)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
