"""psycopg 3 with register_types(), held to the server's own bytes: every
family (uuid_v7(), snowflake bigints, ulid, prefixed_id, typeid with and
without a prefix, the domains of prefixed_id_define() and typeid_define(),
ksuid, objectid, rsxid)
as text and binary results and parameters, in arrays both ways, and through
COPY ... (FORMAT binary), compared with the server's text output and
*_send() bytes; the extreme values; and, unregistered, a typeid as its text.
The block between the README markers is docs/drivers.md's psycopg example."""
import uuid

import psycopg
import pytest

import idgen.psycopg
from id_vectors import cases
from idgen import KSUID, ULID, XID, ObjectId, PrefixedId, TypeId

SETUP = """
SELECT prefixed_id_define('acct_id', 'acct');
SELECT typeid_define('user_id', 'user');
CREATE TABLE users (id user_id PRIMARY KEY, email text);
"""

# label, base type, SQL type of the parameters, generating expression, send function
CASES = [
    ("uuid_v7", "uuid", "uuid", "uuid_v7()", "uuid_send"),
    ("snowflake", "bigint", "bigint", "snowflake(1)", "int8send"),
    ("snowflake53", "bigint", "bigint", "snowflake53(1)", "int8send"),
    ("ulid", "ulid", "ulid", "ulid()", "ulid_send"),
    ("prefixed_id", "prefixed_id", "prefixed_id", "prefixed_id_new('acct')", "prefixed_id_send"),
    ("typeid", "typeid", "typeid", "typeid_new('user')", "typeid_send"),
    ("typeid, empty prefix", "typeid", "typeid", "typeid_new('')", "typeid_send"),
    ("prefixed_id_define domain", "prefixed_id", "acct_id", "prefixed_id_new('acct')::acct_id",
     "prefixed_id_send"),
    ("typeid_define domain", "typeid", "user_id", "typeid_new('user')::user_id", "typeid_send"),
    ("ksuid", "ksuid", "ksuid", "ksuid()", "ksuid_send"),
    ("objectid", "objectid", "objectid", "objectid()", "objectid_send"),
    ("rsxid", "rsxid", "rsxid", "xid()", "rsxid_send"),
]
CLASSES = {"uuid": uuid.UUID, "bigint": int, "ulid": ULID, "prefixed_id": PrefixedId, "typeid": TypeId,
           "ksuid": KSUID, "objectid": ObjectId, "rsxid": XID}
FORMATS = {"text": "%t", "binary": "%b"}


@pytest.fixture(scope="module", autouse=True)
def schema(dbname):
    with psycopg.connect(dbname=dbname, autocommit=True) as c:
        c.execute(SETUP)


@pytest.fixture
def reg(conn):
    idgen.psycopg.register_types(conn)
    return conn


def binary_of(base, value):
    """What the server's *_send() writes for value of the base type."""
    if base == "uuid":
        return value.bytes
    if base == "bigint":
        return value.to_bytes(8, "big", signed=True)
    return value.to_binary() if base in ("prefixed_id", "typeid") else value.bytes


# A prefix with an underscore (split at the last one), all-zero and all-one bits
EXTREMES = [("prefixed_id", "user_session_000000000000000000000000a"),
            ("prefixed_id", "a_0000000000000000000000000"),
            ("prefixed_id", "z_f5lxx1zz5pnorynqglhzmsp33"),
            ("typeid", "user_session_01h455vb4pex5vsknk084sn02q"),
            ("typeid", "00000000000000000000000000"),
            ("typeid", "zz_7zzzzzzzzzzzzzzzzzzzzzzzzz"),
            ("ulid", "00000000000000000000000000"),
            ("ulid", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"),
            ("ksuid", "000000000000000000000000000"),
            ("ksuid", "aWgEPTl1tmebfsQzFP4bxwgy80V"),
            ("objectid", "000000000000000000000000"),
            ("objectid", "FFFFFFFFFFFFFFFFFFFFFFFF"),  # read in either case, written lowercase
            ("rsxid", "00000000000000000000"),
            ("rsxid", "vvvvvvvvvvvvvvvvvvvg")]


@pytest.mark.parametrize("name,text", EXTREMES, ids=[f"{n} {t}" for n, t in EXTREMES])
def test_extreme_values_agree_with_the_server(reg, name, text):
    value, server_text, send = reg.cursor(binary=True).execute(
        f"SELECT %t::{name}, %t::{name}::text, {name}_send(%t::{name})", [text] * 3).fetchone()
    parsed = CLASSES[name](text)
    assert (value, str(parsed), binary_of(name, parsed)) == (parsed, server_text, send)


# The vectors file's cases of the raw-byte families, through the server: each
# valid text read by both to the same bytes and written back the same, in text
# and binary results and parameters; each refused text refused by both.
RAW_TYPES = {"ksuid": "ksuid", "objectid": "objectid", "xid": "rsxid"}
RAW_VALID = [(f, c) for f in RAW_TYPES for c in cases(f, "text", ok=True)]
RAW_REFUSED = [(f, c) for f in RAW_TYPES for c in cases(f, "text", ok=False) if "\0" not in c["text"]]


@pytest.mark.parametrize("binary", [False, True], ids=["text", "binary"])
@pytest.mark.parametrize("family,case", RAW_VALID, ids=["%s: %s" % (f, c["what"]) for f, c in RAW_VALID])
def test_raw_vectors_through_the_server(reg, family, case, binary):
    name = RAW_TYPES[family]
    value, text, sent = reg.cursor(binary=binary).execute(
        f"SELECT %t::{name}, %t::{name}::text, {name}_send(%t::{name})", [case["text"]] * 3).fetchone()
    assert type(value) is CLASSES[name]
    assert (value.bytes.hex(), str(value), text, sent.hex()) == (case["bits"], case["canonical"],
                                                                  case["canonical"], case["bits"])
    back = reg.cursor(binary=True).execute(f"SELECT %b::{name}::text, %t::{name}::text",
                                           [CLASSES[name](case["text"])] * 2).fetchone()
    assert back == (case["canonical"],) * 2


@pytest.mark.parametrize("family,case", RAW_REFUSED, ids=["%s: %s" % (f, c["what"]) for f, c in RAW_REFUSED])
def test_raw_refused_vectors_through_the_server(reg, family, case):
    name = RAW_TYPES[family]
    with pytest.raises(ValueError):
        CLASSES[name](case["text"])
    with pytest.raises(psycopg.errors.InvalidTextRepresentation):
        reg.execute(f"SELECT %t::{name}", [case["text"]])


@pytest.mark.parametrize("binary", [False, True], ids=["text", "binary"])
@pytest.mark.parametrize("label,base,sqltype,gen,send", CASES, ids=[c[0] for c in CASES])
def test_result_is_the_servers_text_and_bytes(reg, label, base, sqltype, gen, send, binary):
    value, text, sent = reg.cursor(binary=binary).execute(
        f"SELECT x, x::text, {send}(x) FROM (SELECT {gen} AS x) s").fetchone()
    assert type(value) is CLASSES[base]
    assert (str(value), binary_of(base, value)) == (text, sent)


@pytest.mark.parametrize("fmt", FORMATS, ids=list(FORMATS))
@pytest.mark.parametrize("label,base,sqltype,gen,send", CASES, ids=[c[0] for c in CASES])
def test_parameter_round_trips_byte_for_byte(reg, label, base, sqltype, gen, send, fmt):
    # a value read in binary, sent back in either format
    value, text, sent = reg.cursor(binary=True).execute(
        f"SELECT x, x::text, {send}(x) FROM (SELECT {gen} AS x) s").fetchone()
    p = FORMATS[fmt]
    got = reg.cursor(binary=True).execute(
        f"SELECT ({p}::{sqltype})::text, {send}({p}::{sqltype}), {p}::{sqltype} = %t::{sqltype}",
        [value, value, value, text]).fetchone()
    assert got == (text, sent, True)


def array_sql(gen, send):
    return (f"SELECT array_agg(x ORDER BY n), array_agg(x::text ORDER BY n), array_agg({send}(x) ORDER BY n)"
            f" FROM (SELECT n, {gen} AS x FROM generate_series(1, 3) n) s")


@pytest.mark.parametrize("binary", [False, True], ids=["text", "binary"])
@pytest.mark.parametrize("label,base,sqltype,gen,send", CASES, ids=[c[0] for c in CASES])
def test_array_result(reg, label, base, sqltype, gen, send, binary):
    values, texts, sends = reg.cursor(binary=binary).execute(array_sql(gen, send)).fetchone()
    assert len(values) == 3 and all(type(v) is CLASSES[base] for v in values)
    assert ([str(v) for v in values], [binary_of(base, v) for v in values]) == (texts, sends)


@pytest.mark.parametrize("fmt", FORMATS, ids=list(FORMATS))
@pytest.mark.parametrize("label,base,sqltype,gen,send", CASES, ids=[c[0] for c in CASES])
def test_array_parameter(reg, label, base, sqltype, gen, send, fmt):
    values = reg.execute(array_sql(gen, send)).fetchone()[0]
    p = FORMATS[fmt]
    sends, texts = reg.cursor(binary=True).execute(
        f"SELECT array(SELECT {send}(e) FROM unnest({p}::{base}[]) WITH ORDINALITY u(e, i) ORDER BY i),"
        f" array(SELECT e::text FROM unnest({p}::{base}[]) WITH ORDINALITY u(e, i) ORDER BY i)",
        [values, values]).fetchone()
    assert (sends, texts) == ([binary_of(base, v) for v in values], [str(v) for v in values])


# every family in one table, for COPY (snowflake53 is a bigint as snowflake is): column, column
# type, base type, send function, generator
COLUMNS = [(column, sqltype, base, send, gen)
           for column, (_, base, sqltype, gen, send)
           in zip("uslpteadkox", [c for c in CASES if c[0] != "snowflake53"], strict=True)]
NAMES = ", ".join(c for c, *_ in COLUMNS)
COPY_TYPES = ["int4"] + [base for _, _, base, _, _ in COLUMNS]


@pytest.fixture(scope="module")
def copy_source(schema, dbname):
    with psycopg.connect(dbname=dbname, autocommit=True) as c:
        c.execute("CREATE TABLE copy_src (n int, " + ", ".join(f"{c} {t}" for c, t, *_ in COLUMNS) + ")")
        c.execute("CREATE TABLE copy_dst (LIKE copy_src)")
        c.execute("INSERT INTO copy_src SELECT n, " + ", ".join(g for *_, g in COLUMNS)
                  + " FROM generate_series(1, 50) n")
        c.execute("INSERT INTO copy_src (n) VALUES (51)")  # NULLs too


def text_rows(reg):
    return reg.execute(f"SELECT n, {NAMES} FROM copy_src ORDER BY n").fetchall()


def test_binary_copy_out_reads_every_type(reg, copy_source):
    with reg.cursor(binary=True).copy(
            f"COPY (SELECT n, {NAMES} FROM copy_src ORDER BY n) TO STDOUT (FORMAT binary)") as copy:
        copy.set_types(COPY_TYPES)
        got = list(copy.rows())
    assert got == text_rows(reg) and len(got) == 51


def test_binary_copy_out_bytes_are_the_dumpers(reg, copy_source):
    # the raw COPY stream carries each field as the server's send bytes: the
    # client's binary dump of the row must be the same bytes
    with reg.cursor(binary=True).copy(
            f"COPY (SELECT {NAMES} FROM copy_src WHERE n = 1) TO STDOUT (FORMAT binary)") as copy:
        raw = b"".join(bytes(block) for block in copy)
    row = text_rows(reg)[0][1:]
    want = len(COLUMNS).to_bytes(2, "big")
    for (_, _, base, _, _), value in zip(COLUMNS, row):
        field = binary_of(base, value)
        want += len(field).to_bytes(4, "big") + field
    signature, trailer = b"PGCOPY\n\xff\r\n\x00" + bytes(8), b"\xff\xff"
    assert raw == signature + want + trailer


def test_binary_copy_in_stores_every_type(reg, copy_source):
    rows = text_rows(reg)
    with reg.cursor(binary=True).copy(f"COPY copy_dst (n, {NAMES}) FROM STDIN (FORMAT binary)") as copy:
        copy.set_types(COPY_TYPES)
        for row in rows:
            copy.write_row(row)
    sends = ", ".join(f"{send}({c})" for c, _, _, send, _ in COLUMNS)
    texts = ", ".join(f"{c}::text" for c, *_ in COLUMNS)
    src, dst = (reg.execute(f"SELECT n, {sends}, {texts} FROM {t} ORDER BY n").fetchall()
                for t in ("copy_src", "copy_dst"))
    assert src == dst and len(dst) == 51


def test_binary_copy_into_a_domain_enforces_its_prefix(reg, copy_source):
    with pytest.raises(psycopg.errors.CheckViolation):
        with reg.cursor(binary=True).copy("COPY copy_dst (n, a) FROM STDIN (FORMAT binary)") as copy:
            copy.set_types(["int4", "prefixed_id"])
            copy.write_row([99, PrefixedId("user_03hac0ak0qz34ymxtifhcn9eq")])


def test_unregistered_a_typeid_is_its_text(conn):
    value, text = conn.execute("SELECT x, x::text FROM (SELECT typeid_new('user') AS x) s").fetchone()
    assert type(value) is str and value == text


def test_drivers_usage(conn):
    # README snippet begins
    import idgen.psycopg
    from idgen import TypeId

    idgen.psycopg.register_types(conn)  # once per connection, and again after defining new domains
    cur = conn.cursor(binary=True)
    tid = cur.execute("SELECT typeid_new('user')").fetchone()[0]  # TypeId('user_01h4…')
    same = cur.execute("SELECT %b::typeid", [tid]).fetchone()[0]  # a binary parameter
    with cur.copy("COPY users (id, email) FROM STDIN (FORMAT binary)") as copy:
        copy.set_types(["typeid", "text"])  # base type names, also for a domain (users.id is user_id)
        copy.write_row([tid, "ada@example.com"])
    # README snippet ends
    assert type(tid) is TypeId and same == tid
    stored = conn.execute("SELECT typeid_send(id), id::text FROM users WHERE email = 'ada@example.com'").fetchone()
    assert stored == (tid.to_binary(), str(tid))
