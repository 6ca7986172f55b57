"""The usage docs/frameworks.md shows for the package ("Python: the idgen
package"), run as written: the blocks between the README markers are checked
line for line against the page by test/integration/clients/readme_snippets.pl."""
import asyncio
from datetime import datetime, timezone

import asyncpg
import psycopg


def test_psycopg_usage(dbname):
    # README snippet begins
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
    # README snippet ends


def test_asyncpg_usage(dbname):
    # README snippet begins
    import idgen.asyncpg
    from idgen import TypeId

    async def main():
        pool = await asyncpg.create_pool(database=dbname, init=idgen.asyncpg.register_types)
        async with pool:
            user = await pool.fetchval("SELECT typeid_new('user')")
            assert isinstance(user, TypeId) and str(user).startswith("user_")
            return await pool.fetchval("SELECT typeid_time($1)", user) == user.time

    assert asyncio.run(main())
    # README snippet ends


def test_decoder_usage():
    # README snippet begins
    from idgen.decode import snowflake_shard, snowflake_time

    snowflake_id = 770074215431805957
    assert snowflake_time(snowflake_id) == datetime(2026, 11, 28, 12, 0, 0, 123000, tzinfo=timezone.utc)
    epoch = datetime(2020, 1, 1, tzinfo=timezone.utc)  # a server whose idgen.snowflake_epoch is 2020-01-01
    assert snowflake_time(snowflake_id, epoch=epoch) == datetime(2022, 11, 28, 12, 0, 0, 123000, tzinfo=timezone.utc)
    assert snowflake_shard(snowflake_id) == 7
    # README snippet ends
