"""asyncpg with register_types(): binary codecs, parameters of every accepted
kind, domains, arrays, pools."""
import asyncio
import os
import uuid

import asyncpg
import pytest

import idgen.asyncpg
from conftest import DOMAINS
from idgen import KSUID, ULID, XID, ObjectId, PrefixedId, TypeId


def run(dbname, body):
    async def main():
        conn = await asyncpg.connect(database=dbname, host=os.environ["PGHOST"], port=os.environ["PGPORT"],
                                     user=os.environ.get("PGUSER"))
        try:
            await conn.execute("SET TIME ZONE 'UTC'")
            return await body(conn)
        finally:
            await conn.close()
    return asyncio.run(main())


@pytest.fixture(scope="module", autouse=True)
def schema(dbname):
    async def body(conn):
        await conn.execute("""SELECT prefixed_id_define('acct_id', 'acct');
            CREATE TABLE t (u ulid DEFAULT ulid(), p prefixed_id DEFAULT prefixed_id_token('tok'),
                            y typeid DEFAULT typeid_new('user'), a acct_id);
            INSERT INTO t SELECT FROM generate_series(1, 20)""")
        await conn.execute(DOMAINS)
    run(dbname, body)


def test_results_and_send_bytes(dbname):
    async def body(conn):
        await idgen.asyncpg.register_types(conn)
        rows = await conn.fetch("SELECT u, p, y, a, u::text, p::text, y::text, a::text,"
                                " ulid_send(u), prefixed_id_send(p), typeid_send(y) FROM t")
        for r in rows:
            assert [type(v) for v in r[:4]] == [ULID, PrefixedId, TypeId, PrefixedId]
            assert [str(v) for v in r[:4]] == list(r[4:8])
            assert (r[0].bytes, r[1].to_binary(), r[2].to_binary()) == tuple(r[8:])
        return len(rows)
    assert run(dbname, body) == 20


def test_parameters_of_every_kind(dbname):
    async def body(conn):
        await idgen.asyncpg.register_types(conn)
        u, p, y, a = await conn.fetchrow("SELECT u, p, y, a FROM t LIMIT 1")
        import ulid
        for value in (u, str(u), u.to_uuid(), ulid.ULID.from_bytes(u.bytes)):
            assert await conn.fetchval("SELECT count(*) FROM t WHERE u = $1", value) == 1
        for column, value in (("p", p), ("p", str(p)), ("y", y), ("y", str(y)), ("a", a), ("a", str(a))):
            assert await conn.fetchval("SELECT count(*) FROM t WHERE %s = $1" % column, value) == 1
        got = await conn.fetchval("SELECT array_agg(u) FROM t")
        assert await conn.fetchval("SELECT count(*) FROM t WHERE u = ANY($1::ulid[])", got) == 20
        await conn.executemany("INSERT INTO t (u, a) VALUES ($1, $2)",
                               [(ULID(uuid.uuid4()), PrefixedId("acct", uuid.uuid4())) for _ in range(3)])
        assert await conn.fetchval("SELECT count(*) FROM t") == 23
    run(dbname, body)


RAW = [("ksuid", "ksuid()", KSUID), ("objectid", "objectid()", ObjectId), ("rsxid", "xid()", XID)]


@pytest.mark.parametrize("name,gen,cls", RAW, ids=[r[0] for r in RAW])
def test_ksuid_objectid_xid(dbname, name, gen, cls):
    async def body(conn):
        await idgen.asyncpg.register_types(conn)
        value, text, sent, values = await conn.fetchrow(
            f"SELECT x, x::text, {name}_send(x), ARRAY[x, {gen}] FROM (SELECT {gen} AS x) s")
        assert type(value) is cls and (str(value), value.bytes) == (text, sent)
        assert [type(v) for v in values] == [cls, cls] and values[0] == value
        for param in (value, str(value), value.bytes):
            assert await conn.fetchval(f"SELECT $1::{name}::text", param) == text
        assert await conn.fetchval(f"SELECT array_agg(e::text) FROM unnest($1::{name}[]) e", values) == [
            str(v) for v in values]
        with pytest.raises(asyncpg.exceptions.DataError, match="invalid %s text" % cls.name):
            await conn.fetchval(f"SELECT $1::{name}", "not an id")
        with pytest.raises(asyncpg.exceptions.DataError, match="a %s is %d bytes" % (cls.name, cls.size)):
            await conn.fetchval(f"SELECT $1::{name}", b"short")
    run(dbname, body)


def test_other_libraries_values_as_parameters(dbname):
    import bson
    import ksuid

    async def body(conn):
        await idgen.asyncpg.register_types(conn)
        oid, theirs = bson.ObjectId(), ksuid.Ksuid()
        got = await conn.fetchrow("SELECT $1::objectid::text, $2::ksuid::text, $1::objectid", oid, theirs)
        assert tuple(got[:2]) == (str(oid), str(theirs)) and bson.ObjectId(got[2].bytes) == oid
    run(dbname, body)


def test_bad_parameters(dbname):
    async def body(conn):
        await idgen.asyncpg.register_types(conn)
        with pytest.raises(asyncpg.exceptions.DataError, match="invalid ULID text"):
            await conn.fetchval("SELECT $1::ulid", "not a ulid")
        with pytest.raises(asyncpg.exceptions.DataError, match="invalid typeid text"):
            await conn.fetchval("SELECT $1::typeid", "User_01h455vb4pex5vsknk084sn02q")
        with pytest.raises(asyncpg.exceptions.CheckViolationError):
            await conn.execute("INSERT INTO t (a) VALUES ($1)", PrefixedId("inv", uuid.uuid4()))
    run(dbname, body)


def test_without_codecs_values_are_text(dbname):
    async def body(conn):
        return await conn.fetchval("SELECT ulid()")
    assert type(run(dbname, body)) is str


def test_pool_init(dbname):
    async def main():
        async with asyncpg.create_pool(database=dbname, host=os.environ["PGHOST"], port=os.environ["PGPORT"],
                                       user=os.environ.get("PGUSER"), min_size=1, max_size=2,
                                       init=idgen.asyncpg.register_types) as pool:
            return await pool.fetchval("SELECT typeid_new('x')")
    assert type(asyncio.run(main())) is TypeId


def test_domains_over_domains(dbname):
    async def body(conn):
        await idgen.asyncpg.register_types(conn)
        rows = await conn.fetch("SELECT r, rr, m, ARRAY[rr], r::text, rr::text, m::text FROM domain_values")
        for r in rows:
            assert [type(v) for v in (r[0], r[1], r[2], r[3][0])] == [ULID, ULID, TypeId, ULID]
            assert [str(v) for v in r[:3]] == list(r[4:])
        return len(rows)
    assert run(dbname, body) == 3


def test_older_extension(old_dbname):
    async def body(conn):
        with pytest.raises(RuntimeError, match=r"idgen 0\.7\.0 is installed"):
            await idgen.asyncpg.register_types(conn)
    run(old_dbname, body)


def test_without_extension(bare_dbname):
    async def body(conn):
        with pytest.raises(RuntimeError, match="not installed"):
            await idgen.asyncpg.register_types(conn)
    run(bare_dbname, body)
