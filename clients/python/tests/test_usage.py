"""The usage the package's README (clients/python/README.md) shows, run as
written: the blocks between the "README python" markers are checked line for
line against the page by test/integration/clients/readme_snippets.pl."""
import asyncio
from datetime import datetime, timezone

import asyncpg
import psycopg
import pytest


def test_psycopg_usage(dbname):
    # README python begins
    import idgen.psycopg
    from idgen import ULID, PrefixedId

    with psycopg.connect(dbname=dbname) as conn:
        idgen.psycopg.register_types(conn)
        conn.execute("SELECT prefixed_id_define('acct_id', 'acct')")
        conn.execute("CREATE TABLE accounts (id acct_id PRIMARY KEY, ref ulid DEFAULT ulid())")
        account, ref = conn.execute("INSERT INTO accounts DEFAULT VALUES RETURNING id, ref").fetchone()
        assert isinstance(account, PrefixedId) and account.prefix == "acct"
        assert isinstance(ref, ULID) and ref.time is not None
        # parameters: the value classes, in text (%s) or binary (%b)
        found = conn.cursor(binary=True).execute(
            "SELECT count(*) FROM accounts WHERE id = %b AND ref = %b", (account, ref)).fetchone()[0]
        assert found == 1
    # README python ends


def test_asyncpg_usage(dbname):
    # README python begins
    import idgen.asyncpg
    from idgen import TypeId

    async def main():
        pool = await asyncpg.create_pool(database=dbname, init=idgen.asyncpg.register_types)
        async with pool:
            user = await pool.fetchval("SELECT typeid_new('user')")
            assert isinstance(user, TypeId) and str(user).startswith("user_")
            return await pool.fetchval("SELECT typeid_time($1)", user) == user.time

    assert asyncio.run(main())
    # README python ends


def test_decoder_usage():
    # README python begins
    from idgen.decode import snowflake_shard, snowflake_time

    snowflake_id = 770074215431805957
    assert snowflake_time(snowflake_id) == datetime(2026, 11, 28, 12, 0, 0, 123000, tzinfo=timezone.utc)
    epoch = datetime(2020, 1, 1, tzinfo=timezone.utc)  # a server whose idgen.snowflake_epoch is 2020-01-01
    assert snowflake_time(snowflake_id, epoch=epoch) == datetime(2022, 11, 28, 12, 0, 0, 123000, tzinfo=timezone.utc)
    assert snowflake_shard(snowflake_id) == 7
    # README python ends


def test_readme_first_example(dbname, monkeypatch):
    monkeypatch.setenv("PGDATABASE", dbname)  # psycopg.connect() reads libpq's environment
    # README python begins
    import psycopg
    import idgen.psycopg

    with psycopg.connect() as conn:
        idgen.psycopg.register_types(conn)
        ref = conn.execute("SELECT ulid()").fetchone()[0]   # idgen.ULID
        print(ref, ref.to_uuid(), ref.time)
    # README python ends
    assert isinstance(ref, idgen.ULID)


def test_readme_psycopg_pool(dbname):
    pytest.importorskip("psycopg_pool", reason="psycopg_pool is not installed")
    conninfo = "dbname=" + dbname
    # README python begins
    from psycopg_pool import ConnectionPool
    import idgen.psycopg

    pool = ConnectionPool(conninfo, min_size=1, open=False)
    idgen.psycopg.register_types(pool)  # before the pool opens: every connection it makes registers
    pool.open()
    with pool.connection() as conn:
        ref = conn.execute("SELECT ulid()").fetchone()[0]  # idgen.ULID
    # README python ends
    pool.close()
    assert type(ref) is idgen.ULID


def test_readme_psycopg2(dbname):
    # README python begins
    import psycopg2
    import idgen.psycopg2
    from idgen import TypeId

    conn = psycopg2.connect(dbname=dbname)
    idgen.psycopg2.register_types(conn)
    with conn, conn.cursor() as cur:
        cur.execute("CREATE TABLE members (id typeid PRIMARY KEY DEFAULT typeid_new('user'), email text)")
        cur.execute("INSERT INTO members (email) VALUES (%s) RETURNING id", ("ada@example.com",))
        member = cur.fetchone()[0]
        assert isinstance(member, TypeId) and member.prefix == "user"
        cur.execute("SELECT email FROM members WHERE id = %s", (member,))  # sent as a typeid literal
        assert cur.fetchone()[0] == "ada@example.com"
    conn.close()
    # README python ends


def test_readme_ksuid_objectid_xid(dbname):
    # README python begins
    import bson  # PyMongo's
    import idgen.psycopg
    from idgen import KSUID, XID, ObjectId

    with psycopg.connect(dbname=dbname) as conn:
        idgen.psycopg.register_types(conn)
        conn.execute("CREATE TABLE imports (id ksuid PRIMARY KEY DEFAULT ksuid(),"
                     " mongo_id objectid UNIQUE, trace rsxid DEFAULT xid())")
        mongo_id = bson.ObjectId()  # a document's _id, from MongoDB
        key, trace = conn.execute("INSERT INTO imports (mongo_id) VALUES (%s) RETURNING id, trace",
                                  (mongo_id,)).fetchone()
        assert isinstance(key, KSUID) and isinstance(trace, XID)
        stored = conn.execute("SELECT mongo_id FROM imports WHERE id = %s", (key,)).fetchone()[0]
        assert isinstance(stored, ObjectId) and stored.time == mongo_id.generation_time
        assert bson.ObjectId(stored.bytes) == mongo_id  # back to PyMongo's type
    # README python ends


def test_readme_raw_decoders():
    # README python begins
    from idgen.decode import ksuid_payload, ksuid_time, objectid_counter, objectid_time, xid_machine, xid_pid

    assert ksuid_time("0ujtsYcgvSTl8PAuAdqWYSMnLOv") == datetime(2017, 10, 10, 4, 0, 47, tzinfo=timezone.utc)
    assert ksuid_payload("0ujtsYcgvSTl8PAuAdqWYSMnLOv").hex() == "b5a1cd34b5f99d1154fb6853345c9735"
    assert objectid_time("56e1fc72e0c917e9c4714161") == datetime(2016, 3, 10, 23, 0, 2, tzinfo=timezone.utc)
    assert objectid_counter("56e1fc72e0c917e9c4714161") == 7422305
    assert (xid_machine("9m4e2mr0ui3e8a215n4g").hex(), xid_pid("9m4e2mr0ui3e8a215n4g")) == ("60f486", 58408)
    # README python ends


def test_readme_text_id_decoders(dbname):
    # README python begins
    import uuid
    from datetime import timedelta
    from idgen.decode import push_id_is_valid, push_id_time, timeflake_random, timeflake_time

    with psycopg.connect(dbname=dbname) as conn:
        push_id, flake = conn.execute("SELECT push_id(), timeflake()").fetchone()  # str, uuid.UUID
    assert push_id_is_valid(push_id) and not push_id_is_valid(push_id[:19])
    assert abs(push_id_time(push_id) - timeflake_time(flake)) < timedelta(seconds=1)

    readme_flake = uuid.UUID("016fb420-9023-b444-fd07-590f81b7b0eb")  # Timeflake's README
    assert timeflake_time(readme_flake) == datetime(2020, 1, 17, 15, 30, 30, 563000, tzinfo=timezone.utc)
    assert timeflake_random(readme_flake) == 851298578153087956398315
    assert push_id_time("-Lyo78-Y" + "-" * 12) == timeflake_time(readme_flake)
    # README python ends
