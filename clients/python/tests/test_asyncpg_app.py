"""asyncpg as an application uses it: as the owner of its database, a plain
role, a migration in one asyncpg transaction creates idgen, two domains and
tables keyed by every family; then, without the package's codecs (every type
as its text, a str) and with register_types(), each type's values as results
and parameters against the server's text and *_send() bytes, the DEFAULTs
read back with RETURNING, filters, executemany, UPDATE and DELETE by each
type."""
import asyncio
import os
import uuid

import asyncpg
import psycopg
import pytest

import idgen.asyncpg
from idgen import ULID, PrefixedId, TypeId

# README snippet begins
MIGRATION = """
CREATE EXTENSION IF NOT EXISTS idgen;
SELECT prefixed_id_define('acct_id', 'acct');
SELECT typeid_define('evt_id', 'evt');
CREATE TABLE accounts (
    id        uuid PRIMARY KEY DEFAULT uuid_v7(),
    public_id acct_id NOT NULL UNIQUE,          -- the domain's DEFAULT: prefixed_id_new('acct')
    name      text NOT NULL
);
CREATE TABLE orders (
    id         bigint PRIMARY KEY DEFAULT snowflake(1),
    account_id uuid NOT NULL REFERENCES accounts,
    receipt    ulid NOT NULL UNIQUE DEFAULT ulid(),
    note       text
);
CREATE TABLE events (
    id        bigint PRIMARY KEY DEFAULT snowflake53(2),
    public_id evt_id NOT NULL UNIQUE,           -- the domain's DEFAULT: typeid_new('evt')
    trace     typeid NOT NULL DEFAULT typeid_new('trace'),
    kind      text NOT NULL
);
"""


async def migrate(conn):
    async with conn.transaction():  # all or nothing, CREATE EXTENSION included
        await conn.execute(MIGRATION)
# README snippet ends

# (label, SQL type, send function, generator) of each type's round trip
CASES = [("ulid", "ulid", "ulid_send", "ulid()"),
         ("prefixed_id", "prefixed_id", "prefixed_id_send", "prefixed_id_new('acct')"),
         ("prefixed_id token", "prefixed_id", "prefixed_id_send", "prefixed_id_token('inv')"),
         ("acct_id domain", "acct_id", "prefixed_id_send", "prefixed_id_new('acct')"),
         ("typeid", "typeid", "typeid_send", "typeid_new('trace')"),
         ("typeid without prefix", "typeid", "typeid_send", "typeid_new('')"),
         ("evt_id domain", "evt_id", "typeid_send", "typeid_new('evt')")]
CLASSES = {"ulid": ULID, "prefixed_id": PrefixedId, "acct_id": PrefixedId, "typeid": TypeId, "evt_id": TypeId}
MODES = ["text", "codecs"]


@pytest.fixture(scope="module")
def app_db():
    """A database owned by a role of the same name that is not a superuser,
    without idgen, which the migration (the first test) creates."""
    name = "idgen_py_app_%s" % uuid.uuid4().hex[:8]
    with psycopg.connect(dbname=os.environ.get("IDGEN_ADMIN_DB", "postgres"), autocommit=True) as admin:
        admin.execute('CREATE ROLE "%s" LOGIN' % name)
        admin.execute('CREATE DATABASE "%s" OWNER "%s"' % (name, name))
    yield name
    with psycopg.connect(dbname=os.environ.get("IDGEN_ADMIN_DB", "postgres"), autocommit=True) as admin:
        admin.execute('DROP DATABASE "%s" WITH (FORCE)' % name)
        admin.execute('DROP ROLE "%s"' % name)


def run(app_db, mode, body):
    """body(conn) on a connection as the database's owner, with the package's
    codecs registered in mode "codecs"."""
    async def main():
        conn = await asyncpg.connect(database=app_db, user=app_db, host=os.environ["PGHOST"],
                                     port=os.environ["PGPORT"])
        try:
            if mode == "codecs":
                await idgen.asyncpg.register_types(conn)
            return await body(conn)
        finally:
            await conn.close()
    return asyncio.run(main())


def as_text(value, mode, sqltype):
    """A result as the application sees its text: a str without the codecs,
    the package's value class with them."""
    if mode == "text":
        assert type(value) is str
    else:
        assert isinstance(value, CLASSES[sqltype])
    return str(value)


def test_migration_as_a_plain_owner_in_one_transaction(app_db):
    async def body(conn):
        me, rolsuper = await conn.fetchrow("SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user")
        assert rolsuper is False
        with pytest.raises(asyncpg.UndefinedFunctionError):
            async with conn.transaction():
                await conn.execute("CREATE EXTENSION idgen")
                await conn.execute("SELECT no_such_function()")
        assert await conn.fetchval("SELECT count(*) FROM pg_extension WHERE extname = 'idgen'") == 0, \
            "a failing migration transaction leaves no idgen behind"
        await migrate(conn)
        owner, xids = await conn.fetchrow(
            "SELECT (SELECT extowner::regrole::text FROM pg_extension WHERE extname = 'idgen'),"
            " (SELECT count(DISTINCT x) FROM (SELECT xmin::text x FROM pg_extension WHERE extname = 'idgen'"
            " UNION ALL SELECT xmin::text FROM pg_class WHERE relname IN ('accounts', 'orders', 'events')"
            " UNION ALL SELECT xmin::text FROM pg_type WHERE typname IN ('acct_id', 'evt_id')) s)")
        assert (owner, xids) == (me, 1), "idgen owned by the database owner, one transaction for all"
    run(app_db, "text", body)


@pytest.mark.parametrize("mode", MODES)
def test_round_trips_against_the_server_text_and_send_bytes(app_db, mode):
    async def body(conn):
        for label, sqltype, send, gen in CASES:
            rows = await conn.fetch(f"SELECT x, x::text AS t, {send}(x) AS b FROM"
                                    f" (SELECT ({gen})::{sqltype} AS x FROM generate_series(1, 20)) s")
            assert len(rows) == 20
            for r in rows:
                assert as_text(r["x"], mode, sqltype) == r["t"], label
                if mode == "codecs":
                    assert (r["x"].bytes if sqltype == "ulid" else r["x"].to_binary()) == r["b"], label
            # a str parameter arrives unchanged: its text and *_send() bytes
            text, sent = await conn.fetchrow(f"SELECT x::text, {send}(x) FROM (SELECT ({gen})::{sqltype} AS x) s")
            got = await conn.fetchrow(f"SELECT $1::{sqltype}::text AS t, {send}($1::{sqltype}) AS b,"
                                      f" $1::{sqltype} AS x", text)
            assert (got["t"], got["b"], as_text(got["x"], mode, sqltype)) == (text, sent, text), label
    run(app_db, mode, body)


@pytest.mark.parametrize("mode", MODES)
def test_defaults_filters_executemany_updates_and_deletes_by_each_type(app_db, mode):
    async def body(conn):
        account = await conn.fetchrow(
            "INSERT INTO accounts (name) VALUES ($1) RETURNING id, public_id, id::text AS id_t,"
            " public_id::text AS public_t", f"ada {mode}")
        assert isinstance(account["id"], uuid.UUID) and account["id"].version == 7
        assert str(account["id"]) == account["id_t"]
        assert as_text(account["public_id"], mode, "acct_id") == account["public_t"]
        assert account["public_t"].startswith("acct_")
        order = await conn.fetchrow(
            "INSERT INTO orders (account_id, note) VALUES ($1, 'first') RETURNING id, receipt,"
            " id::text AS id_t, receipt::text AS receipt_t", account["id"])
        assert type(order["id"]) is int and order["id"] >= 2**53 and str(order["id"]) == order["id_t"]
        assert as_text(order["receipt"], mode, "ulid") == order["receipt_t"] and len(order["receipt_t"]) == 26
        event = await conn.fetchrow(
            "INSERT INTO events (kind) VALUES ('signup') RETURNING id, public_id, trace, id::text AS id_t,"
            " public_id::text AS evt_t, trace::text AS trace_t")
        assert type(event["id"]) is int and 0 < event["id"] < 2**53 and str(event["id"]) == event["id_t"]
        assert as_text(event["public_id"], mode, "evt_id") == event["evt_t"] and event["evt_t"].startswith("evt_")
        assert as_text(event["trace"], mode, "typeid") == event["trace_t"] and event["trace_t"].startswith("trace_")

        # filters with parameters, by each type
        for label, sql, value, want in (
                ("uuid", "SELECT name FROM accounts WHERE id = $1", account["id"], f"ada {mode}"),
                ("acct_id", "SELECT name FROM accounts WHERE public_id = $1", account["public_id"], f"ada {mode}"),
                ("snowflake", "SELECT receipt::text FROM orders WHERE id = $1", order["id"], order["receipt_t"]),
                ("ulid", "SELECT id FROM orders WHERE receipt = $1", order["receipt"], order["id"]),
                ("snowflake53", "SELECT public_id::text FROM events WHERE id = $1", event["id"], event["evt_t"]),
                ("evt_id", "SELECT trace::text FROM events WHERE public_id = $1", event["public_id"], event["trace_t"]),
                ("typeid", "SELECT id FROM events WHERE trace = $1", event["trace"], event["id"])):
            assert [tuple(r) for r in await conn.fetch(sql, value)] == [(want,)], label

        # executemany with values of every idgen type given as str, read back
        values = await conn.fetch("SELECT ulid()::text AS r, typeid_new('evt')::text AS u,"
                                  " typeid_new('trace')::text AS t FROM generate_series(1, 5)")
        await conn.executemany("INSERT INTO orders (account_id, receipt, note) VALUES ($1, $2, $3)",
                               [(account["id"], v["r"], f"many {mode}") for v in values])
        await conn.executemany("INSERT INTO events (public_id, trace, kind) VALUES ($1, $2, $3)",
                               [(v["u"], v["t"], f"many {mode}") for v in values])
        got_r = await conn.fetch("SELECT receipt::text FROM orders WHERE note = $1 ORDER BY receipt", f"many {mode}")
        got_e = await conn.fetch("SELECT public_id::text, trace::text FROM events WHERE kind = $1 ORDER BY trace",
                                 f"many {mode}")
        assert [r[0] for r in got_r] == sorted(v["r"] for v in values)
        assert [tuple(r) for r in got_e] == sorted((v["u"], v["t"]) for v in values)

        # UPDATE: SET and WHERE by each type
        new_receipt = await conn.fetchval("SELECT ulid()::text")
        new_public = await conn.fetchval("SELECT typeid_new('evt')::text")
        statuses = [
            await conn.execute("UPDATE orders SET receipt = $1 WHERE receipt = $2", new_receipt, order["receipt"]),
            await conn.execute("UPDATE orders SET note = 'second' WHERE id = $1", order["id"]),
            await conn.execute("UPDATE events SET public_id = $1 WHERE public_id = $2", new_public, event["public_id"]),
            await conn.execute("UPDATE events SET kind = 'renamed' WHERE trace = $1", event["trace"]),
            await conn.execute("UPDATE events SET kind = 'final' WHERE id = $1", event["id"]),
            await conn.execute("UPDATE accounts SET name = name || '!' WHERE public_id = $1", account["public_id"]),
            await conn.execute("UPDATE accounts SET name = name || '?' WHERE id = $1", account["id"])]
        assert statuses == ["UPDATE 1"] * 7
        after = await conn.fetchrow(
            "SELECT o.receipt::text, o.note, e.public_id::text, e.kind, a.name FROM orders o, events e, accounts a"
            " WHERE o.id = $1 AND e.id = $2 AND a.id = $3", order["id"], event["id"], account["id"])
        assert tuple(after) == (new_receipt, "second", new_public, "final", f"ada {mode}!?")

        # DELETE by each type, arrays of str included: no row left
        many_receipts = [r[0] for r in await conn.fetch("SELECT receipt::text FROM orders WHERE note = $1",
                                                        f"many {mode}")]
        many_public = [r[0] for r in await conn.fetch("SELECT public_id::text FROM events WHERE kind = $1",
                                                     f"many {mode}")]
        statuses = [
            await conn.execute("DELETE FROM orders WHERE receipt = ANY($1::ulid[])", many_receipts),
            await conn.execute("DELETE FROM orders WHERE id = $1", order["id"]),
            await conn.execute("DELETE FROM events WHERE trace = $1", event["trace"]),
            await conn.execute("DELETE FROM events WHERE public_id = ANY($1::evt_id[])", many_public),
            await conn.execute("DELETE FROM accounts WHERE public_id = $1", account["public_id"])]
        extra = await conn.fetchval("INSERT INTO events (kind) VALUES ('tmp') RETURNING id")
        statuses.append(await conn.execute("DELETE FROM events WHERE id = $1", extra))
        spare = await conn.fetchval("INSERT INTO accounts (name) VALUES ('spare') RETURNING id")
        statuses.append(await conn.execute("DELETE FROM accounts WHERE id = $1", spare))
        assert statuses == ["DELETE 5", "DELETE 1", "DELETE 1", "DELETE 5", "DELETE 1", "DELETE 1", "DELETE 1"]
        assert await conn.fetchval("SELECT (SELECT count(*) FROM orders) + (SELECT count(*) FROM events)"
                                   " + (SELECT count(*) FROM accounts)") == 0
    run(app_db, mode, body)


def test_the_server_refuses_a_prefixed_id_without_its_length_byte(app_db):
    async def body(conn):
        # a frame without its length byte (the form before 0.5.0) is refused (22P03), not misread
        await conn.set_type_codec("prefixed_id", encoder=lambda t: b"acct" + bytes(16), decoder=bytes,
                                  format="binary")
        with pytest.raises(asyncpg.InvalidBinaryRepresentationError):
            await conn.fetchval("SELECT $1::prefixed_id::text", "acct_00000000000000000000000000")
    run(app_db, "text", body)
