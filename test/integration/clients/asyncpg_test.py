#!/usr/bin/python3
"""Every idgen family through asyncpg (Debian's python3-asyncpg), for real.

As the database's owner (a plain role), a migration script runs in one
asyncpg transaction and creates idgen, two domains and tables keyed by every
family. Then, first with asyncpg's defaults (extension types in text, as
str) and then with binary codecs for ulid, prefixed_id and typeid
(set_type_codec(format='binary'), checked byte for byte against the server's
text output and *_send() bytes): INSERT ... RETURNING with the DEFAULTs,
filters with parameters, executemany, UPDATE and DELETE by each type.
Connects with the PG* environment. Prints one verdict line per check
(test/lib/verdicts.py), which asyncpg.pl turns into TAP.
"""
import asyncio
import os
import sys
import traceback
import uuid

import asyncpg

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from verdicts import note, plan, say  # noqa: E402

# README snippet begins
MIGRATION = """
CREATE EXTENSION IF NOT EXISTS idgen;
SELECT prefixed_id_define('acct_id', 'acct');
SELECT typeid_define('user_id', 'user');
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
    id       bigint PRIMARY KEY DEFAULT snowflake53(2),
    user_ref user_id NOT NULL,                   -- typeid_new('user')
    trace    typeid NOT NULL DEFAULT typeid_new('trace'),
    kind     text NOT NULL
);
"""


async def migrate(conn):
    async with conn.transaction():  # all or nothing, CREATE EXTENSION included
        await conn.execute(MIGRATION)
# README snippet ends


# README snippet begins
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def b32_text(bits):  # 16 bytes -> 26 Crockford characters
    n = int.from_bytes(bits, "big")
    return "".join(CROCKFORD[(n >> (5 * (25 - i))) & 31] for i in range(26))


def b32_bits(text):
    n = 0
    for c in text.upper():
        n = n * 32 + CROCKFORD.index(c)
    return n.to_bytes(16, "big")


def b36_text(bits):  # 16 bytes -> 25 base36 digits, zero-padded
    n, out = int.from_bytes(bits, "big"), ""
    for _ in range(25):
        n, d = divmod(n, 36)
        out = BASE36[d] + out
    return out


def framed(prefix, bits):  # prefixed_id and typeid: length byte, prefix, 16 bytes
    return bytes([len(prefix)]) + prefix.encode("ascii") + bits


def unframed(data):
    if len(data) != 1 + data[0] + 16:
        raise ValueError("badly framed idgen value")
    return data[1:1 + data[0]].decode("ascii"), data[1 + data[0]:]


def typeid_text(data):
    prefix, bits = unframed(data)
    body = b32_text(bits).lower()
    return f"{prefix}_{body}" if prefix else body


def typeid_binary(text):
    prefix, _, body = text.rpartition("_")
    return framed(prefix, b32_bits(body))


CODECS = {  # type: (encoder str -> bytes, decoder bytes -> str, the server's text)
    "ulid": (b32_bits, b32_text),
    "prefixed_id": (lambda t: framed(t.rpartition("_")[0], int(t.rpartition("_")[2], 36)
                                     .to_bytes(16, "big")),
                    lambda d: "%s_%s" % (unframed(d)[0], b36_text(unframed(d)[1]))),
    "typeid": (typeid_binary, typeid_text),
}


async def use_idgen_binary(conn, schema="public"):
    """ulid, prefixed_id and typeid (and their domains) in binary; values stay str."""
    for name, (encoder, decoder) in CODECS.items():
        await conn.set_type_codec(name, schema=schema, encoder=encoder, decoder=decoder,
                                  format="binary")
# README snippet ends


def ok(cond, what, extra=""):
    say(cond, what)
    if not cond and extra:
        note(extra)


async def check(what, coro_fn):
    """One verdict for await coro_fn() -> (condition, detail); an exception fails it."""
    try:
        cond, extra = await coro_fn()
    except Exception as e:  # noqa: BLE001 - reported as a failed check
        cond, extra = False, f"{type(e).__name__}: {e}"
    ok(cond, what, extra)


async def round_trips(conn, mode):
    """Each type's values as results and as parameters, against the server's
    text and *_send() bytes."""
    cases = [("ulid", "ulid", "ulid_send", "ulid()"),
             ("prefixed_id", "prefixed_id", "prefixed_id_send", "prefixed_id_new('acct')"),
             ("prefixed_id token", "prefixed_id", "prefixed_id_send", "prefixed_id_token('inv')"),
             ("acct_id domain", "acct_id", "prefixed_id_send", "prefixed_id_new('acct')"),
             ("typeid", "typeid", "typeid_send", "typeid_new('trace')"),
             ("typeid without prefix", "typeid", "typeid_send", "typeid_new('')"),
             ("user_id domain", "user_id", "typeid_send", "typeid_new('user')")]
    for label, sqltype, send, gen in cases:
        base = send[:-len("_send")]
        encoder = CODECS[base][0]

        async def result(sqltype=sqltype, send=send, gen=gen, encoder=encoder):
            rows = await conn.fetch(f"SELECT x, x::text AS t, {send}(x) AS b FROM"
                                    f" (SELECT ({gen})::{sqltype} AS x FROM generate_series(1, 20)) s")
            good = all(type(r["x"]) is str and r["x"] == r["t"]
                       and (mode == "text" or encoder(r["x"]) == r["b"]) for r in rows)
            return good and len(rows) == 20, repr(rows[:2])
        await check(f"{mode}: {label} results equal the server's text"
                    + (" and the encoder gives its *_send() bytes" if mode == "binary" else ""), result)

        async def param(sqltype=sqltype, send=send, gen=gen):
            text, sent = await conn.fetchrow(f"SELECT x::text, {send}(x) FROM (SELECT ({gen})::{sqltype} AS x) s")
            got = await conn.fetchrow(f"SELECT $1::{sqltype}::text AS t, {send}($1::{sqltype}) AS b,"
                                      f" $1::{sqltype} AS x", text)
            return (got["t"] == text and got["b"] == sent and got["x"] == text, repr((text, got)))
        await check(f"{mode}: {label} as a parameter arrives unchanged (text and *_send() bytes)", param)


async def app_checks(conn, mode):
    """Defaults, RETURNING, filters, executemany, UPDATE, DELETE by each type."""
    tag = f"{mode}:"
    account = await conn.fetchrow(
        "INSERT INTO accounts (name) VALUES ($1) RETURNING id, public_id, id::text AS id_t,"
        " public_id::text AS public_t", f"ada {mode}")
    ok(isinstance(account["id"], uuid.UUID) and account["id"].version == 7
       and str(account["id"]) == account["id_t"],
       f"{tag} uuid_v7() DEFAULT comes back (RETURNING) as a uuid.UUID, version 7", repr(account))
    ok(type(account["public_id"]) is str and account["public_id"] == account["public_t"]
       and account["public_id"].startswith("acct_"),
       f"{tag} the acct_id domain's DEFAULT comes back as 'acct_...', the server's text", repr(account))
    order = await conn.fetchrow(
        "INSERT INTO orders (account_id, note) VALUES ($1, 'first') RETURNING id, receipt,"
        " id::text AS id_t, receipt::text AS receipt_t", account["id"])
    ok(type(order["id"]) is int and order["id"] >= 2**53 and str(order["id"]) == order["id_t"],
       f"{tag} snowflake(1) DEFAULT comes back as an int above 2^53", repr(order))
    ok(type(order["receipt"]) is str and order["receipt"] == order["receipt_t"]
       and len(order["receipt"]) == 26, f"{tag} ulid() DEFAULT comes back as its 26 characters", repr(order))
    event = await conn.fetchrow(
        "INSERT INTO events (kind) VALUES ('signup') RETURNING id, user_ref, trace, id::text AS id_t,"
        " user_ref::text AS user_t, trace::text AS trace_t")
    ok(type(event["id"]) is int and 0 < event["id"] < 2**53 and str(event["id"]) == event["id_t"],
       f"{tag} snowflake53(2) DEFAULT comes back as an int below 2^53", repr(event))
    ok(event["user_ref"] == event["user_t"] and event["user_ref"].startswith("user_")
       and event["trace"] == event["trace_t"] and event["trace"].startswith("trace_"),
       f"{tag} the user_id domain's and typeid_new('trace') DEFAULTs come back as their text", repr(event))

    # Filters with parameters, by each type.
    for label, sql, value, want in (
            ("uuid", "SELECT name FROM accounts WHERE id = $1", account["id"], f"ada {mode}"),
            ("acct_id", "SELECT name FROM accounts WHERE public_id = $1", account["public_id"], f"ada {mode}"),
            ("snowflake", "SELECT receipt FROM orders WHERE id = $1", order["id"], order["receipt"]),
            ("ulid", "SELECT id FROM orders WHERE receipt = $1", order["receipt"], order["id"]),
            ("snowflake53", "SELECT user_ref FROM events WHERE id = $1", event["id"], event["user_ref"]),
            ("user_id", "SELECT trace FROM events WHERE user_ref = $1", event["user_ref"], event["trace"]),
            ("typeid", "SELECT id FROM events WHERE trace = $1", event["trace"], event["id"])):
        async def find(sql=sql, value=value, want=want):
            rows = await conn.fetch(sql, value)
            return len(rows) == 1 and rows[0][0] == want, repr(rows)
        await check(f"{tag} a parameter filters by {label}", find)

    # executemany with explicit values of every idgen type, then read them back.
    async def many():
        values = await conn.fetch("SELECT ulid()::text AS r, typeid_new('user')::text AS u,"
                                  " typeid_new('trace')::text AS t FROM generate_series(1, 5)")
        await conn.executemany("INSERT INTO orders (account_id, receipt, note) VALUES ($1, $2, $3)",
                               [(account["id"], v["r"], f"many {mode}") for v in values])
        await conn.executemany("INSERT INTO events (user_ref, trace, kind) VALUES ($1, $2, $3)",
                               [(v["u"], v["t"], f"many {mode}") for v in values])
        got_r = await conn.fetch("SELECT receipt::text FROM orders WHERE note = $1 ORDER BY receipt",
                                 f"many {mode}")
        got_e = await conn.fetch("SELECT user_ref::text, trace::text FROM events WHERE kind = $1"
                                 " ORDER BY trace", f"many {mode}")
        return ([r[0] for r in got_r] == sorted(v["r"] for v in values)
                and [tuple(r) for r in got_e] == sorted((v["u"], v["t"]) for v in values),
                repr((values, got_r, got_e)))
    await check(f"{tag} executemany inserts ulid, typeid-domain and typeid values given as str", many)

    # UPDATE: SET and WHERE by each type.
    async def update():
        new_receipt = await conn.fetchval("SELECT ulid()::text")
        new_user = await conn.fetchval("SELECT typeid_new('user')::text")
        statuses = [
            await conn.execute("UPDATE orders SET receipt = $1 WHERE receipt = $2", new_receipt, order["receipt"]),
            await conn.execute("UPDATE orders SET note = 'second' WHERE id = $1", order["id"]),
            await conn.execute("UPDATE events SET user_ref = $1 WHERE user_ref = $2", new_user, event["user_ref"]),
            await conn.execute("UPDATE events SET kind = 'renamed' WHERE trace = $1", event["trace"]),
            await conn.execute("UPDATE events SET kind = 'final' WHERE id = $1", event["id"]),
            await conn.execute("UPDATE accounts SET name = name || '!' WHERE public_id = $1", account["public_id"]),
            await conn.execute("UPDATE accounts SET name = name || '?' WHERE id = $1", account["id"])]
        after = await conn.fetchrow(
            "SELECT o.receipt::text, o.note, e.user_ref::text, e.kind, a.name FROM orders o, events e, accounts a"
            " WHERE o.id = $1 AND e.id = $2 AND a.id = $3", order["id"], event["id"], account["id"])
        return (statuses == ["UPDATE 1"] * 7
                and tuple(after) == (new_receipt, "second", new_user, "final", f"ada {mode}!?"),
                repr((statuses, after)))
    await check(f"{tag} UPDATE by uuid, acct_id, snowflake, ulid, snowflake53, user_id and typeid", update)

    # DELETE by each type.
    async def delete():
        statuses = [
            await conn.execute("DELETE FROM orders WHERE receipt = ANY($1::ulid[])", [
                r[0] for r in await conn.fetch("SELECT receipt::text FROM orders WHERE note = $1", f"many {mode}")]),
            await conn.execute("DELETE FROM orders WHERE id = $1", order["id"]),
            await conn.execute("DELETE FROM events WHERE trace = $1", event["trace"]),
            await conn.execute("DELETE FROM events WHERE user_ref = ANY($1::user_id[])", [
                r[0] for r in await conn.fetch("SELECT user_ref::text FROM events WHERE kind = $1", f"many {mode}")]),
            await conn.execute("DELETE FROM accounts WHERE public_id = $1", account["public_id"])]
        extra = await conn.fetchrow("INSERT INTO events (kind) VALUES ('tmp') RETURNING id")
        statuses.append(await conn.execute("DELETE FROM events WHERE id = $1", extra["id"]))
        spare = await conn.fetchval("INSERT INTO accounts (name) VALUES ('spare') RETURNING id")
        statuses.append(await conn.execute("DELETE FROM accounts WHERE id = $1", spare))
        left = await conn.fetchval(
            "SELECT (SELECT count(*) FROM orders) + (SELECT count(*) FROM events)"
            " + (SELECT count(*) FROM accounts)")
        return (statuses == ["DELETE 5", "DELETE 1", "DELETE 1", "DELETE 5", "DELETE 1", "DELETE 1",
                             "DELETE 1"] and left == 0, repr((statuses, left)))
    await check(f"{tag} DELETE by ulid[], snowflake, typeid, user_id[], acct_id, snowflake53 and uuid:"
                " no row left", delete)


async def main():
    # 3 checks of the migration, the wire and the refusal, then in each of the
    # two modes round_trips' 2 a case (7 cases) and app_checks' 16
    plan(3 + 2 * (2 * 7 + 16) + 2)
    conn = await asyncpg.connect()
    row = await conn.fetchrow("SELECT current_user AS me, rolsuper FROM pg_roles WHERE rolname = current_user")
    ok(row["rolsuper"] is False, "connected as a role that is not a superuser", repr(row))

    async def rolled_back():
        try:
            async with conn.transaction():
                await conn.execute("CREATE EXTENSION idgen")
                await conn.execute("SELECT no_such_function()")
        except asyncpg.UndefinedFunctionError:
            pass
        return (await conn.fetchval("SELECT count(*) FROM pg_extension WHERE extname = 'idgen'") == 0, "")
    await check("a failing migration transaction leaves no idgen behind", rolled_back)

    await migrate(conn)
    owner, same = await conn.fetchrow(
        "SELECT (SELECT extowner::regrole::text FROM pg_extension WHERE extname = 'idgen'),"
        " (SELECT count(DISTINCT x) FROM (SELECT xmin::text x FROM pg_extension WHERE extname = 'idgen'"
        " UNION ALL SELECT xmin::text FROM pg_class WHERE relname IN ('accounts', 'orders', 'events')"
        " UNION ALL SELECT xmin::text FROM pg_type WHERE typname IN ('acct_id', 'user_id')) s)")
    ok(owner == row["me"] and same == 1,
       "the migration created idgen (owned by the database owner), domains and tables in one transaction",
       repr((owner, same)))

    await round_trips(conn, "text")
    await app_checks(conn, "text")
    await conn.close()

    conn = await asyncpg.connect()
    await use_idgen_binary(conn)

    async def wire():
        # Decoders that record what asyncpg hands them: the *_send() bytes, so binary.
        seen = []
        for name, (encoder, decoder) in CODECS.items():
            await conn.set_type_codec(name, encoder=encoder, format="binary",
                                      decoder=lambda d, decoder=decoder: seen.append(d) or decoder(d))
        got = await conn.fetchrow(
            "SELECT u, p, t, d, ulid_send(u), prefixed_id_send(p), typeid_send(t), typeid_send(d)"
            " FROM (SELECT ulid() u, prefixed_id_new('acct') p, typeid_new('trace') t,"
            " typeid_new('user')::user_id d) s")
        await use_idgen_binary(conn)
        return seen == list(got[4:]) and all(type(d) is bytes for d in seen), repr((seen, got))
    await check("binary: asyncpg hands the decoders the *_send() bytes of ulid, prefixed_id, typeid"
                " and a typeid domain", wire)
    await round_trips(conn, "binary")
    await app_checks(conn, "binary")

    async def refused():
        # A frame without its length byte (the form before 0.5.0) is refused, not misread.
        await conn.set_type_codec("prefixed_id", encoder=lambda t: b"acct" + bytes(16),
                                  decoder=CODECS["prefixed_id"][1], format="binary")
        try:
            await conn.fetchval("SELECT $1::prefixed_id::text", "acct_00000000000000000000000000")
        except asyncpg.InvalidBinaryRepresentationError:
            return True, ""
        return False, "accepted"
    await check("binary: the server refuses a prefixed_id without its length byte (22P03)", refused)
    await conn.close()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as e:  # noqa: BLE001 - a failed check, not a silent crash
        say(False, "the test stopped")
        note(f"{type(e).__name__}: {e}")
        note(traceback.format_exc())
        sys.exit(1)
