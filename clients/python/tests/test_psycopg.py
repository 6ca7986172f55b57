"""psycopg 3 with register_types(): text and binary, parameters, domains,
arrays, COPY, pools, and a database without idgen."""
import asyncio
import uuid

import psycopg
import pytest

import idgen.psycopg
from conftest import DOMAINS
from idgen import KSUID, ULID, XID, ObjectId, PrefixedId, TypeId

SETUP = """
SELECT prefixed_id_define('acct_id', 'acct');
SELECT typeid_define('user_id', 'user');
CREATE TABLE t (u ulid DEFAULT ulid(), p prefixed_id DEFAULT prefixed_id_new('inv'),
                y typeid DEFAULT typeid_new(''), a acct_id, m user_id);
INSERT INTO t DEFAULT VALUES; INSERT INTO t DEFAULT VALUES;
"""


@pytest.fixture(scope="module", autouse=True)
def schema(dbname):
    with psycopg.connect(dbname=dbname, autocommit=True) as c:
        c.execute(SETUP)
        c.execute(DOMAINS)


@pytest.fixture
def reg(conn):
    idgen.psycopg.register_types(conn)
    return conn


@pytest.mark.parametrize("binary", [False, True])
def test_results_are_value_classes(reg, binary):
    cur = reg.cursor(binary=binary)
    for row, texts in zip(cur.execute("SELECT u, p, y, a, m FROM t ORDER BY u").fetchall(),
                          reg.execute("SELECT u::text, p::text, y::text, a::text, m::text FROM t ORDER BY u")):
        assert [type(v) for v in row] == [ULID, PrefixedId, TypeId, PrefixedId, TypeId]
        assert [str(v) for v in row] == list(texts)
        assert row[3].prefix == "acct" and row[4].prefix == "user" and row[2].prefix == ""


@pytest.mark.parametrize("binary", [False, True])
def test_binary_results_match_send(reg, binary):
    cur = reg.cursor(binary=binary)
    u, p, y = cur.execute("SELECT u, p, y FROM t LIMIT 1").fetchone()
    sends = reg.execute("SELECT ulid_send(%s), prefixed_id_send(%s), typeid_send(%s)", (u, p, y)).fetchone()
    assert (u.bytes, p.to_binary(), y.to_binary()) == sends


@pytest.mark.parametrize("fmt", ["%s", "%t", "%b"])
def test_parameters(reg, fmt):
    u, p, y, a, m = reg.execute("SELECT u, p, y, a, m FROM t LIMIT 1").fetchone()
    q = "SELECT count(*) FROM t WHERE u = {0} AND p = {0} AND y = {0} AND a = {0} AND m = {0}".format(fmt)
    assert reg.execute(q, (u, p, y, a, m)).fetchone()[0] == 1
    # python-ulid's ULID and uuid.UUID through the ULID class, and str in text
    import ulid
    assert reg.execute("SELECT count(*) FROM t WHERE u = " + fmt, (ulid.ULID.from_bytes(u.bytes),)).fetchone()[0] == 1
    assert reg.execute("SELECT count(*) FROM t WHERE u = " + fmt, (ULID.from_uuid(u.to_uuid()),)).fetchone()[0] == 1
    assert reg.execute("SELECT %t::ulid = " + fmt, (str(u), u)).fetchone()[0] is True


@pytest.mark.parametrize("fmt", ["%s", "%t", "%b"])
def test_other_libraries_values_as_parameters(reg, fmt):
    # PyMongo's bson.ObjectId and svix-ksuid's Ksuid, registered by name
    import bson
    import ksuid
    oid, k = bson.ObjectId(), ksuid.Ksuid()
    got = reg.execute(f"SELECT {fmt}::text, {fmt}::text, pg_typeof({fmt})::text, pg_typeof({fmt})::text,"
                      f" {fmt} = %t::objectid", (oid, k, oid, k, oid, str(oid))).fetchone()
    assert got == (str(oid), str(k), "objectid", "ksuid", True)
    # and back: bson.ObjectId of the value's bytes
    back = reg.cursor(binary=True).execute("SELECT %s::objectid", (oid,)).fetchone()[0]
    assert type(back) is ObjectId and bson.ObjectId(back.bytes) == oid


def test_str_parameters_in_text(reg):
    u = reg.execute("SELECT u FROM t LIMIT 1").fetchone()[0]
    assert reg.execute("SELECT count(*) FROM t WHERE u = %s", (str(u),)).fetchone()[0] == 1


def test_insert_and_arrays(reg):
    new = [ULID(uuid.uuid4()), PrefixedId("acct", uuid.uuid4()), TypeId("user", uuid.uuid4())]
    reg.execute("INSERT INTO t (u, a, m) VALUES (%b, %b, %b)", new)
    got = reg.cursor(binary=True).execute("SELECT array_agg(u ORDER BY u), array_agg(a) FROM t").fetchone()
    assert new[0] in got[0] and new[1] in got[1] and all(type(v) is ULID for v in got[0])
    assert reg.execute("SELECT count(*) FROM t WHERE u = ANY(%s)", (got[0],)).fetchone()[0] == len(got[0])
    reg.execute("DELETE FROM t WHERE u = %s", (new[0],))


def test_domain_refuses_another_prefix(reg):
    with pytest.raises(psycopg.errors.CheckViolation):
        reg.execute("INSERT INTO t (a) VALUES (%s)", (PrefixedId("inv", uuid.uuid4()),))


def test_binary_copy(reg):
    with reg.cursor() as cur:
        rows = []
        with cur.copy("COPY (SELECT u, p, y FROM t) TO STDOUT (FORMAT BINARY)") as copy:
            copy.set_types(["ulid", "prefixed_id", "typeid"])
            rows = list(copy.rows())
        assert rows and all(type(r[0]) is ULID for r in rows)
        cur.execute("CREATE TEMP TABLE c (u ulid, p prefixed_id, y typeid)")
        with cur.copy("COPY c FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(["ulid", "prefixed_id", "typeid"])
            for r in rows:
                copy.write_row(r)
        assert cur.execute("SELECT count(*) FROM c JOIN t USING (u, p, y)").fetchone()[0] == len(rows)


def test_unregistered_binary_is_bytes(conn):
    assert type(conn.cursor(binary=True).execute("SELECT ulid()").fetchone()[0]) is bytes


def test_bad_binary_from_dumper_is_refused(reg):
    class Broken(PrefixedId):
        __slots__ = ()

        def to_binary(self):  # the framing before 0.5.0: no length byte
            return self.prefix.encode() + self.bytes
    with pytest.raises(psycopg.errors.InvalidBinaryRepresentation):
        reg.execute("SELECT %b::prefixed_id", (Broken("acct", uuid.uuid4()),))


@pytest.mark.parametrize("binary", [False, True])
def test_domains_over_domains(reg, binary):
    rows = reg.cursor(binary=binary).execute(
        "SELECT r, rr, m, ARRAY[rr], r::text, rr::text, m::text FROM domain_values").fetchall()
    assert len(rows) == 3
    for r, rr, m, arr, *texts in rows:
        assert [type(v) for v in (r, rr, m)] == [ULID, ULID, TypeId] and type(arr[0]) is ULID
        assert [str(v) for v in (r, rr, m)] == texts and m.prefix == "member"
    assert reg.execute("SELECT count(*) FROM domain_values WHERE rr = %b", (rows[0][1],)).fetchone()[0] == 1


@pytest.mark.parametrize("binary", [False, True])
def test_domains_over_ksuid_objectid_rsxid(conn, binary):
    # once for both parametrizations (the database is the module's)
    conn.execute("DO $$ BEGIN CREATE DOMAIN ksuid_ref AS ksuid; CREATE DOMAIN mongo_ref AS objectid;"
                 " CREATE DOMAIN xid_ref AS rsxid; EXCEPTION WHEN duplicate_object THEN NULL; END $$")
    idgen.psycopg.register_types(conn)
    row = conn.cursor(binary=binary).execute(
        "SELECT ksuid()::ksuid_ref, objectid()::mongo_ref, xid()::xid_ref, ARRAY[objectid()::mongo_ref]").fetchone()
    assert [type(v) for v in row[:3]] + [type(row[3][0])] == [KSUID, ObjectId, XID, ObjectId]
    assert conn.execute("SELECT %b::mongo_ref::text", (row[1],)).fetchone()[0] == str(row[1])


def test_older_extension(old_dbname):
    with psycopg.connect(dbname=old_dbname) as c:
        with pytest.raises(RuntimeError, match=r"idgen 0\.7\.0 is installed.*ALTER EXTENSION idgen UPDATE"):
            idgen.psycopg.register_types(c)


def test_without_extension(bare_dbname):
    with psycopg.connect(dbname=bare_dbname) as c:
        with pytest.raises(RuntimeError, match="not installed"):
            idgen.psycopg.register_types(c)


def test_pool(dbname):
    pool_mod = pytest.importorskip("psycopg_pool", reason="psycopg_pool is not installed")
    with pool_mod.ConnectionPool(conninfo="dbname=" + dbname, min_size=1, open=False) as pool:
        idgen.psycopg.register_types(pool)
        pool.open()
        with pool.connection() as c:
            assert type(c.execute("SELECT ulid()").fetchone()[0]) is ULID


def test_async_connection(dbname):
    async def main():
        async with await psycopg.AsyncConnection.connect(dbname=dbname) as c:
            await idgen.psycopg.register_types_async(c)
            cur = c.cursor(binary=True)
            await cur.execute("SELECT typeid_new('x')")
            return (await cur.fetchone())[0]
    assert type(asyncio.run(main())) is TypeId
