"""Alembic's own workflow with idgen.sqlalchemy and idgen.alembic: the
alembic command (the project in alembic_project/) upgrades a database owned
by a plain role, in one transaction; `alembic check` finds no difference;
the ORM and Core then mint, read, filter, update and delete by every family
in the migrated tables; `alembic downgrade base` leaves nothing and the
upgrade runs again. Revision 0002 (ksuid, objectid and rsxid columns) is what
autogenerate renders for its table, and runs as rendered."""
import os
import subprocess
import sys
import uuid
import warnings

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from idgen import KSUID, ULID, XID, ObjectId, PrefixedId, TypeId
from idgen.decode import snowflake53_shard, snowflake_shard, uuid_v7_time

PROJECT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "alembic_project")
sys.path.insert(0, PROJECT)
import models  # noqa: E402
from models import Account, Event, Import, Order  # noqa: E402


def alembic(db, *args, as_owner=True):
    """`alembic ARGS` on the project, as the database's owner (as_owner: a role of
    the database's name) or as the suite's user; its stdout."""
    env = dict(os.environ, PGDATABASE=db, **({"PGUSER": db} if as_owner else {}))
    done = subprocess.run([sys.executable, "-m", "alembic", "-c", os.path.join(PROJECT, "alembic.ini"), *args],
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def migrated(owner_dbname):
    alembic(owner_dbname, "upgrade", "head")
    return owner_dbname


@pytest.fixture(scope="module")
def engine(migrated):
    engine = sa.create_engine("postgresql+psycopg://%s@/%s" % (migrated, migrated))
    yield engine
    engine.dispose()


def server_text(conn, table, column, key_column, key):
    """The server's own text of one value, found by a key given as text."""
    return conn.exec_driver_sql(f"SELECT {column}::text FROM {table} WHERE {key_column}::text = %(k)s",
                                {"k": str(key)}).scalar_one()


def test_upgrade_head_as_the_database_owner(migrated, engine):
    assert "0002 (head)" in alembic(migrated, "current")
    with engine.connect() as conn:
        superuser, owner, version = conn.exec_driver_sql(
            "SELECT rolsuper, (SELECT extowner::regrole::text FROM pg_extension WHERE extname = 'idgen'),"
            " (SELECT version_num FROM alembic_version) FROM pg_roles WHERE rolname = current_user").one()
        assert (superuser, owner, version) == (False, migrated, "0002")
        # CREATE EXTENSION, the domains, the tables and alembic_version: one transaction (Alembic's)
        writers = conn.exec_driver_sql(
            "SELECT count(DISTINCT x) FROM (SELECT xmin::text x FROM pg_extension WHERE extname = 'idgen'"
            " UNION ALL SELECT xmin::text FROM alembic_version UNION ALL SELECT xmin::text FROM pg_class"
            " WHERE relname IN ('accounts', 'orders', 'events', 'imports')"
            " UNION ALL SELECT xmin::text FROM pg_type WHERE typname IN ('acct_id', 'user_id')) s").scalar_one()
        assert writers == 1
        columns = conn.exec_driver_sql(
            "SELECT a.attname, format_type(a.atttypid, a.atttypmod), pg_get_expr(d.adbin, d.adrelid)"
            " FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
            " WHERE a.attrelid = 'imports'::regclass AND a.attnum > 0 ORDER BY a.attnum").all()
        assert [tuple(c) for c in columns] == [("id", "ksuid", "ksuid()"), ("mongo_id", "objectid", "objectid()"),
                                               ("trace", "rsxid", "xid()"), ("order_id", "bigint", None)]


def test_alembic_check_finds_no_difference(migrated):
    assert "No new upgrade operations detected" in alembic(migrated, "check")


def test_autogenerate_without_idgen_options_drops_idgen_tables(engine):
    # Why env.py passes autogenerate_options(): Alembic's own comparisons
    # report idgen's tables (members of the extension) as tables to drop.
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    with engine.connect() as conn, warnings.catch_warnings():
        warnings.simplefilter("ignore", sa.exc.SAWarning)  # regtype in prefixed_id_registry
        diff = compare_metadata(MigrationContext.configure(conn, opts={
            "compare_type": True, "compare_server_default": True}), models.Base.metadata)
        own_tables = conn.exec_driver_sql(
            "SELECT c.relname FROM pg_depend d JOIN pg_class c ON c.oid = d.objid"
            " WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_extension'::regclass"
            " AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')"
            " AND d.deptype = 'e' AND c.relkind = 'r'"
            # the key table is in a schema of its own (idgen_secret), which Alembic does not read
            " AND c.relnamespace = (SELECT extnamespace FROM pg_extension WHERE extname = 'idgen')").scalars().all()
    removed = sorted(d[1].name for d in diff if isinstance(d, tuple) and d[0] == "remove_table")
    assert len(own_tables) >= 2 and removed == sorted(own_tables), diff


def test_a_typeid_default_without_its_cast_is_a_change(engine):
    # The database prints typeid_new('trace'::text); Alembic compares a default
    # spelled otherwise by running both, and two calls of a generator never
    # compare equal: hence the ::text that typeid_default() writes.
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from idgen.alembic import autogenerate_options
    spelled = sa.MetaData()
    for table in models.Base.metadata.tables.values():
        table.to_metadata(spelled)
    spelled.tables["events"].c.trace.server_default = sa.schema.DefaultClause(sa.text("typeid_new('trace')"))
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts=autogenerate_options(conn)), spelled)
    assert [(op[0], op[2], op[3]) for d in diff for op in d] == [("modify_default", "events", "trace")]


@pytest.fixture(scope="module")
def at_0001(request):
    """A database upgraded to revision 0001 only (as the superuser: autogenerate reads it)."""
    from conftest import _fresh_database
    for name in _fresh_database("idgen_py_alembic_0001_%s" % uuid.uuid4().hex[:8], None):
        alembic(name, "upgrade", "0001", as_owner=False)
        yield name


def code_lines(text):
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


def test_revision_0002_is_what_autogenerate_renders(at_0001):
    # Alembic renders the types by their repr in their module (idgen.sqlalchemy.KSUID()), and the
    # DEFAULTs as the server prints them; 0002's upgrade() is that rendering, line for line.
    import inspect

    from alembic.autogenerate import produce_migrations, render_python_code
    from alembic.migration import MigrationContext
    from alembic.script import ScriptDirectory

    from idgen.alembic import autogenerate_options
    engine = sa.create_engine("postgresql+psycopg:///" + at_0001)
    with engine.connect() as conn:
        ops = produce_migrations(MigrationContext.configure(conn, opts=autogenerate_options(conn)),
                                 models.Base.metadata).upgrade_ops
    engine.dispose()
    rendered = render_python_code(ops)
    script = ScriptDirectory(PROJECT).get_revision("0002")
    written = inspect.getsource(script.module.upgrade)
    assert code_lines(rendered) == code_lines(written)[1:]  # after "def upgrade():"
    assert "idgen.sqlalchemy.KSUID()" in rendered and "sa.text('xid()')" in rendered


def test_orm_mints_every_family(engine):
    with Session(engine) as session:
        account = Account(name="Ada")
        session.add(account)
        session.flush()  # INSERT ... RETURNING the DEFAULTs
        order, event = Order(account_id=account.id, note="first"), Event(kind="signup")
        session.add_all([order, event])
        session.flush()
        conn = session.connection()
        assert isinstance(account.id, uuid.UUID) and uuid_v7_time(account.id) is not None
        assert str(account.id) == server_text(conn, "accounts", "id", "name", "Ada")
        assert type(account.public_id) is PrefixedId and account.public_id.prefix == "acct"
        assert str(account.public_id) == server_text(conn, "accounts", "public_id", "name", "Ada")
        assert type(order.id) is int and order.id >= 2**53 and snowflake_shard(order.id) == 1
        assert str(order.id) == server_text(conn, "orders", "id", "note", "first")
        assert type(order.receipt) is ULID
        assert str(order.receipt) == server_text(conn, "orders", "receipt", "note", "first")
        assert type(event.id) is int and 0 < event.id < 2**53 and snowflake53_shard(event.id) == 2
        assert type(event.user_ref) is TypeId and event.user_ref.prefix == "user"
        assert str(event.user_ref) == server_text(conn, "events", "user_ref", "kind", "signup")
        assert type(event.trace) is TypeId and event.trace.prefix == "trace"
        imported = Import(order_id=order.id)
        session.add(imported)
        session.flush()
        assert (type(imported.id), type(imported.mongo_id), type(imported.trace)) == (KSUID, ObjectId, XID)
        for column in ("id", "mongo_id", "trace"):
            assert str(getattr(imported, column)) == server_text(conn, "imports", column, "order_id", order.id)
        session.commit()


FILTERS = [("uuid", Account, "id"), ("acct_id", Account, "public_id"), ("snowflake", Order, "id"),
           ("ulid", Order, "receipt"), ("snowflake53", Event, "id"), ("user_id", Event, "user_ref"),
           ("typeid", Event, "trace"), ("ksuid", Import, "id"), ("objectid", Import, "mongo_id"),
           ("rsxid", Import, "trace")]


@pytest.mark.parametrize("label,model,attribute", FILTERS, ids=[f[0] for f in FILTERS])
def test_fresh_read_filters_by_each_type(engine, label, model, attribute):
    with Session(engine) as session:
        minted = model(name="filter") if model is Account else (
            Order(account_id=session.scalars(sa.select(Account.id).limit(1)).one()) if model is Order
            else Import() if model is Import else Event(kind="filter"))
        session.add(minted)
        session.commit()
        value = getattr(minted, attribute)
        session.expunge_all()  # no identity map: read from the server
        column = getattr(model, attribute)
        got = session.scalars(sa.select(model).where(column == value)).all()
        assert len(got) == 1 and getattr(got[0], attribute) == value
        assert type(getattr(got[0], attribute)) is type(value)


def test_update_insert_returning_and_delete_by_each_type(engine):
    with Session(engine) as session:
        account = Account(name="Bo")
        session.add(account)
        session.flush()
        order, event = Order(account_id=account.id), Event(kind="x")
        session.add_all([order, event])
        session.commit()
        conn = session.connection()
        new_receipt = ULID(conn.exec_driver_sql("SELECT ulid()::text").scalar_one())
        new_user = TypeId(conn.exec_driver_sql("SELECT typeid_new('user')::text").scalar_one())
        counts = [session.execute(statement).rowcount for statement in (
            sa.update(Order).where(Order.receipt == order.receipt).values(receipt=new_receipt, note="second"),
            sa.update(Event).where(Event.user_ref == event.user_ref).values(user_ref=new_user),
            sa.update(Event).where(Event.trace == event.trace).values(kind="renamed"),
            sa.update(Account).where(Account.public_id == account.public_id).values(name="Bo L."),
            sa.update(Account).where(Account.id == account.id).values(name="Bo Lee"),
            sa.update(Order).where(Order.id == order.id).values(note="third"),
            sa.update(Event).where(Event.id == event.id).values(kind="final"))]
        session.commit()
        conn = session.connection()
        assert counts == [1] * 7
        assert (server_text(conn, "orders", "receipt", "id", order.id), server_text(conn, "orders", "note", "id", order.id),
                server_text(conn, "events", "user_ref", "id", event.id), server_text(conn, "events", "kind", "id", event.id),
                server_text(conn, "accounts", "name", "id", account.id)) == (
                    str(new_receipt), "third", str(new_user), "final", "Bo Lee")

        bulk = [session.execute(sa.insert(Order).values(account_id=account.id, note=f"bulk {i}")
                                .returning(Order.id, Order.receipt)).one() for i in range(3)]
        session.commit()
        assert len({r.id for r in bulk}) == 3 and all(type(r.id) is int and type(r.receipt) is ULID for r in bulk)

        spare, by_id, by_trace = Account(name="spare"), Event(kind="a"), Event(kind="b")
        session.add_all([spare, by_id, by_trace])
        session.commit()
        counts = [session.execute(statement).rowcount for statement in (
            sa.delete(Account).where(Account.id == spare.id),
            sa.delete(Event).where(Event.id == by_id.id),
            sa.delete(Event).where(Event.trace == by_trace.trace),
            sa.delete(Order).where(Order.receipt == new_receipt),
            sa.delete(Order).where(Order.id.in_([r.id for r in bulk])),
            sa.delete(Event).where(Event.user_ref == new_user),
            sa.delete(Account).where(Account.public_id == account.public_id))]
        session.commit()
        assert counts == [1, 1, 1, 1, 3, 1, 1]
        left = session.connection().exec_driver_sql(
            "SELECT (SELECT count(*) FROM accounts WHERE name IN ('Bo Lee', 'spare'))"
            " + (SELECT count(*) FROM events WHERE kind IN ('a', 'b', 'final'))").scalar_one()
        assert left == 0


def test_update_and_delete_by_ksuid_objectid_xid_and_bson(engine):
    import bson
    with Session(engine) as session:
        theirs = bson.ObjectId()
        row = Import(mongo_id=theirs)  # PyMongo's ObjectId as the value
        session.add(row)
        session.commit()
        conn = session.connection()
        assert server_text(conn, "imports", "mongo_id", "id", row.id) == str(theirs)
        new_trace = XID(conn.exec_driver_sql("SELECT xid()::text").scalar_one())
        counts = [session.execute(statement).rowcount for statement in (
            sa.update(Import).where(Import.mongo_id == theirs).values(trace=new_trace),
            sa.update(Import).where(Import.id == str(row.id)).values(order_id=None),
            sa.delete(Import).where(Import.trace == new_trace, Import.mongo_id == ObjectId(theirs)))]
        session.commit()
        assert counts == [1, 1, 1]
        assert session.connection().exec_driver_sql(
            "SELECT count(*) FROM imports WHERE mongo_id = %(m)s::objectid", {"m": str(theirs)}).scalar_one() == 0


def test_downgrade_base_and_upgrade_again(migrated, engine):
    engine.dispose()  # the downgrade drops what the pooled connections hold
    alembic(migrated, "downgrade", "base")
    with engine.connect() as conn:
        left = conn.exec_driver_sql(
            "SELECT (SELECT count(*) FROM pg_extension WHERE extname = 'idgen')"
            " + (SELECT count(*) FROM pg_class WHERE relname IN ('accounts', 'orders', 'events', 'imports'))"
            " + (SELECT count(*) FROM pg_type WHERE typname IN ('acct_id', 'user_id'))").scalar_one()
    engine.dispose()
    assert left == 0
    alembic(migrated, "upgrade", "head")
    assert "0002 (head)" in alembic(migrated, "current")
