#!/usr/bin/python3
"""The application side of the Alembic test: after alembic.pl ran
`alembic upgrade head` as the database's owner (not a superuser), SQLAlchemy
1.4's ORM and Core (psycopg2 driver: Debian's SQLAlchemy 1.4 has no psycopg 3
dialect) mint, read back, filter, update and delete by every idgen family;
autogenerate finds no difference between models.py and the migrated
database; psycopg 3 reads the same rows in text and binary. Connects with the
PG* environment. Prints its plan, then one verdict line per check (test/lib/verdicts.py).
"""
import os
import sys
import traceback
import uuid
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))                   # psycopg_test (adapters)
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "lib"))  # verdicts

import sqlalchemy as sa  # noqa: E402
from alembic.autogenerate import compare_metadata  # noqa: E402
from alembic.migration import MigrationContext  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

import models  # noqa: E402
from models import Account, Event, Order, PrefixedId, Ulid  # noqa: E402
from verdicts import note, plan, say  # noqa: E402


def ok(cond, what, extra=""):
    say(cond, what)
    if not cond and extra:
        note(extra)


def check(what, fn):
    """One verdict for fn() -> (condition, detail); an exception fails it."""
    try:
        cond, extra = fn()
    except Exception as e:  # noqa: BLE001 - reported as a failed check
        cond, extra = False, f"{type(e).__name__}: {e}"
    ok(cond, what, extra)


def server_text(conn, table, column, key_column, key):
    """The server's own text of one value, found by a key given as text."""
    return conn.exec_driver_sql(
        f"SELECT {column}::text FROM {table} WHERE {key_column}::text = %(k)s", {"k": str(key)}
    ).scalar_one()


def diffs(conn, metadata):
    context = MigrationContext.configure(conn, opts=models.autogenerate_options(conn))
    return compare_metadata(context, metadata)


def main():
    # 6 checks of the migrations, 8 of the session's values, 7 filters, UPDATE,
    # insert().returning() and DELETE, then psycopg3_checks' 5
    plan(6 + 8 + 7 + 3 + 5)
    engine = sa.create_engine("postgresql+psycopg2://", future=True)
    with engine.connect() as conn:
        row = conn.exec_driver_sql(
            "SELECT current_user, rolsuper, (SELECT extowner::regrole::text FROM pg_extension"
            " WHERE extname = 'idgen') FROM pg_roles WHERE rolname = current_user").one()
        ok(row[1] is False and row[2] == row[0],
           "the migrations' role is not a superuser and owns the idgen extension", repr(row))
        same = conn.exec_driver_sql(
            "SELECT count(DISTINCT x) FROM (SELECT xmin::text x FROM pg_extension WHERE extname = 'idgen'"
            " UNION ALL SELECT xmin::text FROM alembic_version UNION ALL SELECT xmin::text FROM"
            " pg_class WHERE relname IN ('accounts', 'orders', 'events')"
            " UNION ALL SELECT xmin::text FROM pg_type WHERE typname IN ('acct_id', 'user_id')) s"
        ).scalar_one()
        ok(same == 1, "CREATE EXTENSION, the domains, the tables and alembic_version 0001 were "
           "written by one transaction (Alembic's)", f"{same} transactions")

        found = diffs(conn, models.Base.metadata)
        ok(found == [], "autogenerate (compare_metadata) finds no difference after upgrade head",
           repr(found))

        # Why env.py passes autogenerate_options(): Alembic's own comparisons
        # (compare_type and compare_server_default on) report the extension's
        # tables and the domain columns as differences.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", sa.exc.SAWarning)  # regtype in prefixed_id_registry
            plain = compare_metadata(MigrationContext.configure(conn, opts={
                "compare_type": True, "compare_server_default": True}), models.Base.metadata)
        kinds = sorted([(d[0], d[1].name) for d in plain if isinstance(d, tuple)]
                       + [(op[0], op[2], op[3]) for d in plain if isinstance(d, list) for op in d])
        # idgen's own tables, as the catalog lists the extension's members.
        own_tables = conn.exec_driver_sql(
            "SELECT c.relname FROM pg_depend d JOIN pg_class c ON c.oid = d.objid"
            " WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_extension'::regclass"
            " AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')"
            " AND d.deptype = 'e' AND c.relkind = 'r'").scalars().all()
        ok(len(own_tables) >= 2 and kinds == sorted(
               [("modify_default", "accounts", "public_id"), ("modify_default", "events", "user_ref"),
                ("modify_type", "accounts", "public_id"), ("modify_type", "events", "user_ref")]
               + [("remove_table", t) for t in own_tables]),
           "without the idgen options, autogenerate reports idgen's own tables and the domain columns "
           "(type and DEFAULT) as differences", repr(plain))

        # The comparison can fail: a model that differs from the database is noticed.
        changed = sa.MetaData()
        for table in models.Base.metadata.tables.values():
            table.to_metadata(changed)
        changed.tables["orders"].c.id.server_default = sa.schema.DefaultClause(sa.text("snowflake(3)"))
        changed.tables["orders"].c.receipt.type = models.TypeIdType()
        changed.tables["accounts"].c.public_id.type = models.UlidType()
        found = diffs(conn, changed)
        kinds = sorted((op[0], op[2], op[3]) for d in found if isinstance(d, list) for op in d)
        kinds += [d[0] for d in found if isinstance(d, tuple)]
        ok(kinds == [("modify_default", "orders", "id"), ("modify_type", "accounts", "public_id"),
                     ("modify_type", "orders", "receipt")],
           "autogenerate notices a changed server default and changed idgen types", repr(found))

        # A server default must be written as PostgreSQL prints it back: otherwise
        # Alembic's PostgreSQL comparison runs SELECT <db default> = <model default>,
        # and two calls of a volatile generator never compare equal.
        spelled = sa.MetaData()
        for table in models.Base.metadata.tables.values():
            table.to_metadata(spelled)
        spelled.tables["events"].c.trace.server_default = sa.schema.DefaultClause(
            sa.text("typeid_new('trace')"))
        found = diffs(conn, spelled)
        ok([op[:4] if isinstance(d, list) else d[0] for d in found for op in (d if isinstance(d, list) else [d])]
           == [("modify_default", None, "events", "trace")],
           "autogenerate reports typeid_new('trace') against the database's typeid_new('trace'::text)"
           " as a change (a known pitfall, hence the ::text in the model)", repr(found))

    with Session(engine) as session:
        # README snippet begins
        account = Account(name="Ada")
        session.add(account)
        session.flush()  # INSERT ... RETURNING id, public_id
        order = Order(account_id=account.id, note="first")
        event = Event(kind="signup")
        session.add_all([order, event])
        session.flush()
        by_receipt = session.query(Order).filter_by(receipt=order.receipt).one()
        by_public_id = session.query(Account).filter(Account.public_id == account.public_id).one()
        # README snippet ends
        session.commit()
        conn = session.connection()

        ok(isinstance(account.id, uuid.UUID) and account.id.version == 7
           and str(account.id) == server_text(conn, "accounts", "id", "name", "Ada"),
           "uuid_v7() DEFAULT fires and comes back as a uuid.UUID (version 7) equal to the server's",
           repr(account.id))
        ok(isinstance(account.public_id, PrefixedId) and account.public_id.prefix == "acct"
           and account.public_id == server_text(conn, "accounts", "public_id", "name", "Ada"),
           "the acct_id domain's DEFAULT fires and comes back (RETURNING) as a PrefixedId 'acct_...'",
           repr(account.public_id))
        ok(type(order.id) is int and order.id >= 2**53
           and str(order.id) == server_text(conn, "orders", "id", "note", "first"),
           "snowflake(1) DEFAULT fires and comes back as an int above 2^53", repr(order.id))
        ok(isinstance(order.receipt, Ulid) and len(order.receipt) == 26
           and order.receipt == server_text(conn, "orders", "receipt", "note", "first"),
           "ulid() DEFAULT fires and comes back as a Ulid of 26 characters", repr(order.receipt))
        ok(type(event.id) is int and 0 < event.id < 2**53
           and str(event.id) == server_text(conn, "events", "id", "kind", "signup"),
           "snowflake53(2) DEFAULT fires and comes back as an int below 2^53", repr(event.id))
        ok(isinstance(event.user_ref, PrefixedId) and event.user_ref.prefix == "user"
           and event.user_ref == server_text(conn, "events", "user_ref", "kind", "signup"),
           "the user_id typeid domain's DEFAULT fires and comes back as 'user_...'", repr(event.user_ref))
        ok(isinstance(event.trace, PrefixedId) and event.trace.prefix == "trace"
           and event.trace == server_text(conn, "events", "trace", "kind", "signup"),
           "typeid_new('trace') DEFAULT on a plain typeid column comes back as 'trace_...'",
           repr(event.trace))
        ok(by_receipt is order and by_public_id is account,
           "the ORM finds rows by a ulid and by a prefixed_id domain value")

        # Fresh reads (no identity map) by each type, values as the tool's types.
        session.expunge_all()
        for label, model, column, value in (
                ("uuid", Account, Account.id, account.id),
                ("acct_id", Account, Account.public_id, account.public_id),
                ("snowflake bigint", Order, Order.id, order.id),
                ("ulid", Order, Order.receipt, order.receipt),
                ("snowflake53 bigint", Event, Event.id, event.id),
                ("user_id typeid", Event, Event.user_ref, event.user_ref),
                ("plain typeid", Event, Event.trace, event.trace)):
            def read(model=model, column=column, value=value):
                got = session.query(model).filter(column == value).all()
                return (len(got) == 1 and getattr(got[0], column.key) == value
                        and type(getattr(got[0], column.key)) is type(value), repr(got))
            check(f"filter by {label}: one row, the value read back with the same Python type", read)
        session.rollback()

        # A Ulid / PrefixedId given from Python, in INSERT, SET and WHERE.
        core = session.connection()
        new_receipt = Ulid(core.exec_driver_sql("SELECT ulid()::text").scalar_one())
        new_user = PrefixedId(core.exec_driver_sql("SELECT typeid_new('user')::text").scalar_one())

        def update_each():
            counts = [
                session.execute(sa.update(Order).where(Order.receipt == order.receipt)
                                .values(receipt=new_receipt, note="second")).rowcount,
                session.execute(sa.update(Event).where(Event.user_ref == event.user_ref)
                                .values(user_ref=new_user)).rowcount,
                session.execute(sa.update(Event).where(Event.trace == event.trace)
                                .values(kind="renamed")).rowcount,
                session.execute(sa.update(Account).where(Account.public_id == account.public_id)
                                .values(name="Ada L.")).rowcount,
                session.execute(sa.update(Account).where(Account.id == account.id)
                                .values(name="Ada Lovelace")).rowcount,
                session.execute(sa.update(Order).where(Order.id == order.id)
                                .values(note="third")).rowcount,
                session.execute(sa.update(Event).where(Event.id == event.id)
                                .values(kind="final")).rowcount]
            session.commit()
            c = session.connection()
            after = (server_text(c, "orders", "receipt", "id", order.id),
                     server_text(c, "orders", "note", "id", order.id),
                     server_text(c, "events", "user_ref", "id", event.id),
                     server_text(c, "events", "kind", "id", event.id),
                     server_text(c, "accounts", "name", "id", account.id))
            return (counts == [1] * 7 and after == (new_receipt, "third", new_user, "final",
                                                    "Ada Lovelace"), repr((counts, after)))
        check("UPDATE by each type (WHERE and SET take Ulid/PrefixedId values): one row each", update_each)

        # Core INSERT ... RETURNING, several rows, then DELETE by each type.
        bulk_ids = []

        def core_returning():
            rows = [session.execute(
                sa.insert(Order).values(account_id=account.id, note=f"bulk {i}")
                .returning(Order.id, Order.receipt)).one() for i in range(3)]
            session.commit()
            bulk_ids.extend(r.id for r in rows)
            return (len({r.id for r in rows}) == 3 and all(type(r.id) is int and isinstance(
                r.receipt, Ulid) for r in rows), repr(rows))
        check("Core insert().returning() gives snowflake ints and Ulids", core_returning)

        def delete_each():
            explicit = Ulid(session.connection().exec_driver_sql("SELECT ulid()::text").scalar_one())
            session.add(Order(account_id=account.id, receipt=explicit, note="explicit"))
            spare_account, by_id, by_trace = Account(name="spare"), Event(kind="a"), Event(kind="b")
            session.add_all([spare_account, by_id, by_trace])
            session.commit()
            spare_id = spare_account.id
            counts = [
                session.execute(sa.delete(Account).where(Account.id == spare_id)).rowcount,
                session.execute(sa.delete(Event).where(Event.id == by_id.id)).rowcount,
                session.execute(sa.delete(Event).where(Event.trace == by_trace.trace)).rowcount,
                session.execute(sa.delete(Order).where(Order.receipt == explicit)).rowcount,
                session.execute(sa.delete(Order).where(Order.receipt == new_receipt)).rowcount,
                session.execute(sa.delete(Order).where(Order.id.in_(bulk_ids))).rowcount,
                session.execute(sa.delete(Event).where(Event.user_ref == new_user)).rowcount,
                session.execute(sa.delete(Account).where(Account.public_id == account.public_id)).rowcount,
            ]
            session.commit()
            left = session.connection().exec_driver_sql(
                "SELECT (SELECT count(*) FROM accounts WHERE id = %(a)s)"
                " + (SELECT count(*) FROM orders WHERE account_id = %(a)s)"
                " + (SELECT count(*) FROM events WHERE id = %(e)s)",
                {"a": account.id, "e": event.id}).scalar_one()
            left += session.connection().exec_driver_sql(
                "SELECT count(*) FROM accounts WHERE id = %(a)s OR name = 'spare'",
                {"a": spare_id}).scalar_one()
            left += session.connection().exec_driver_sql(
                "SELECT count(*) FROM events WHERE kind IN ('a', 'b')").scalar_one()
            return counts == [1, 1, 1, 1, 1, 3, 1, 1] and left == 0, repr((counts, left))
        check("DELETE by uuid, snowflake53, plain typeid, ulid (one inserted from Python too), "
              "snowflake, typeid domain and acct_id domain: every row gone", delete_each)

    psycopg3_checks()
    return 0


def psycopg3_checks():
    """The migrated tables through psycopg 3 directly, text and binary."""
    import psycopg
    from psycopg_test import TYPES, register_idgen

    with psycopg.connect("", autocommit=True) as conn:
        acct = conn.execute("INSERT INTO accounts (name) VALUES ('Grace') RETURNING id, public_id, "
                            "public_id::text").fetchone()
        order = conn.execute("INSERT INTO orders (account_id) VALUES (%s) RETURNING id, receipt, "
                             "receipt::text", [acct[0]]).fetchone()
        event = conn.execute("INSERT INTO events (kind) VALUES ('x') RETURNING id, user_ref, "
                             "user_ref::text, trace").fetchone()
        ok(isinstance(acct[0], uuid.UUID) and acct[1] == acct[2] and isinstance(order[0], int)
           and order[1] == order[2] and isinstance(event[0], int) and event[1] == event[2],
           "psycopg 3 text results, unregistered: uuid.UUID, int, and the idgen types as their text",
           repr((acct, order, event)))

        # A binary str parameter is typed text: stored into a ulid column through
        # the assignment cast (0.7.0), but compared with one it has no operator.
        conn.cursor(binary=True).execute("UPDATE orders SET receipt = %b WHERE id = %b",
                                          [order[2], order[0]])
        stored = conn.execute("SELECT receipt::text FROM orders WHERE id = %s", [order[0]]).fetchone()[0]
        ok(stored == order[2], "psycopg 3: a binary str parameter is stored into a ulid column "
           "(assignment cast from text)")
        try:
            with conn.transaction():
                conn.cursor(binary=True).execute("SELECT 1 FROM orders WHERE receipt = %b", [order[2]])
            compared = "accepted"
        except psycopg.errors.UndefinedFunction as e:
            compared = e.sqlstate
        ok(compared == "42883", "psycopg 3: a binary str parameter compared with a ulid column has no "
           "operator (42883): register the adapters or write %b::ulid", compared)

        register_idgen(conn)
        cur = conn.cursor(binary=True)
        got = cur.execute("SELECT o.id, o.receipt, a.id, a.public_id, ulid_send(o.receipt),"
                          " prefixed_id_send(a.public_id) FROM orders o JOIN accounts a"
                          " ON a.id = o.account_id WHERE o.id = %b", [order[0]]).fetchone()
        ulid_cls, prefixed_cls = TYPES["ulid"][0], TYPES["prefixed_id"][0]
        ok(isinstance(got[1], ulid_cls) and str(got[1]) == order[2] and got[4] == got[1].bits
           and isinstance(got[3], prefixed_cls) and str(got[3]) == acct[2]
           and got[5] == TYPES["prefixed_id"][3](got[3]) and got[0] == order[0] and got[2] == acct[0],
           "psycopg 3 binary cursor: the migrated ulid and acct_id columns equal their text and *_send bytes",
           repr(got))
        tid = TYPES["typeid"][1](event[2])
        n = cur.execute("UPDATE events SET kind = 'binary' WHERE user_ref = %b AND trace = %b",
                        [tid, TYPES["typeid"][1](event[3])]).rowcount
        d = cur.execute("DELETE FROM orders WHERE receipt = %b", [got[1]]).rowcount
        ok(n == 1 and d == 1, "psycopg 3 binary parameters filter UPDATE (typeid domain, typeid) and "
           "DELETE (ulid)", repr((n, d)))


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:  # noqa: BLE001 - a failed check, not a silent crash
        say(False, "the test stopped")
        note(f"{type(e).__name__}: {e}")
        note(traceback.format_exc())
        sys.exit(1)
