"""Alembic from its own scaffolding: `alembic init` writes the project, whose
env.py and alembic.ini are edited as README.md shows (the edits are the
README's blocks of alembic_init/env_edits.py) and beside which goes the
README's models.py (alembic_init/models.py); `alembic revision
--autogenerate` on a database without idgen writes the migration, which is
run as written: `alembic upgrade head` as the database's owner (not a
superuser) creates the extension, the domains and the tables, rows go in and
out, `alembic check` finds nothing to do and `alembic downgrade base` leaves
nothing."""
import importlib.util
import os
import re
import subprocess
import sys
import uuid

import psycopg
import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from idgen import ULID, PrefixedId, TypeId
from idgen.decode import snowflake_shard, uuid_v7_time
from idgen.sqlalchemy import PrefixedId as PrefixedIdType, TypeId as TypeIdType, ULID as UlidType

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "alembic_init")
TABLES = ("accounts", "orders")
DOMAINS = ("acct_id", "user_id")


def readme_blocks(path):
    """The README blocks of a file (readme_snippets.pl's markers), each as its text."""
    marker = "# README python %s"  # not spelled whole here: this file marks no block
    found, current = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip() == marker % "begins":
                current = []
            elif line.strip() == marker % "ends":
                found.append("".join(current))
                current = None
            elif current is not None:
                current.append(line)
    return found


def alembic(project, db, *args):
    """`alembic ARGS` in the project, as the database's owner (a role of its name); its stdout."""
    env = dict(os.environ, PGDATABASE=db, PGUSER=db)
    done = subprocess.run([sys.executable, "-m", "alembic", *args], cwd=project, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def project(tmp_path_factory, owner_dbname):
    project = str(tmp_path_factory.mktemp("alembic_init"))
    alembic(project, owner_dbname, "init", "migrations")
    top, configure = readme_blocks(os.path.join(HERE, "env_edits.py"))
    env_py = os.path.join(project, "migrations", "env.py")
    with open(env_py, encoding="utf-8") as f:
        text = f.read()
    # the configure call of run_migrations_online(), as `alembic init` writes it
    written_configure = re.compile(r"^( *)context\.configure\(\n\s*connection=connection, "
                                   r"target_metadata=target_metadata\n\s*\)\n", re.M)
    assert text.count("target_metadata = None\n") == 1 and len(written_configure.findall(text)) == 1, text
    text = text.replace("target_metadata = None\n", top)
    text = written_configure.sub(lambda m: re.sub("^ {8}", m.group(1), configure, flags=re.M), text)
    with open(env_py, "w", encoding="utf-8") as f:
        f.write(text)
    ini = os.path.join(project, "alembic.ini")
    with open(ini, encoding="utf-8") as f:
        text = f.read()
    # README: the database from libpq's environment (PGHOST, PGDATABASE...)
    assert text.count("sqlalchemy.url = driver://user:pass@localhost/dbname\n") == 1
    with open(ini, "w", encoding="utf-8") as f:
        f.write(text.replace("sqlalchemy.url = driver://user:pass@localhost/dbname\n",
                             "sqlalchemy.url = postgresql+psycopg://\n"))
    with open(os.path.join(HERE, "models.py"), encoding="utf-8") as f:
        models = f.read()
    with open(os.path.join(project, "models.py"), "w", encoding="utf-8") as f:
        f.write(models)
    alembic(project, owner_dbname, "revision", "--autogenerate", "-m", "first")
    return project


@pytest.fixture(scope="module")
def revision(project):
    (name,) = os.listdir(os.path.join(project, "migrations", "versions"))
    with open(os.path.join(project, "migrations", "versions", name), encoding="utf-8") as f:
        return f.read()


@pytest.fixture(scope="module")
def models():
    spec = importlib.util.spec_from_file_location("alembic_init_models", os.path.join(HERE, "models.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def migrated(project, owner_dbname, revision):
    alembic(project, owner_dbname, "upgrade", "head")
    return owner_dbname


@pytest.fixture(scope="module")
def engine(migrated):
    engine = sa.create_engine("postgresql+psycopg://%s@/%s" % (migrated, migrated))
    yield engine
    engine.dispose()


def test_autogenerate_writes_the_imports_extension_and_domains_before_the_tables(revision):
    upgrade, downgrade = revision.split("def downgrade()")
    assert re.search(r"^import idgen\.sqlalchemy$", revision, re.M), revision
    statements = re.findall(r"op\.(execute\(.*\)|create_table\('\w+')", upgrade)
    assert statements == ["execute('CREATE EXTENSION IF NOT EXISTS idgen')",
                          "execute(\"SELECT prefixed_id_define('acct_id', 'acct')\")",
                          "execute(\"SELECT typeid_define('user_id', 'user')\")",
                          "create_table('accounts'", "create_table('orders'"], upgrade
    statements = re.findall(r"op\.(execute\(.*\)|drop_table\('\w+'\))", downgrade)
    assert statements == ["drop_table('orders')", "drop_table('accounts')", "execute('DROP DOMAIN user_id')",
                          "execute('DROP DOMAIN acct_id')", "execute('DROP EXTENSION idgen')"], downgrade


def test_upgrade_head_creates_the_extension_domains_and_tables(migrated, engine):
    with engine.connect() as conn:
        superuser, owner = conn.exec_driver_sql(
            "SELECT rolsuper, (SELECT extowner::regrole::text FROM pg_extension WHERE extname = 'idgen')"
            " FROM pg_roles WHERE rolname = current_user").one()
        assert (superuser, owner) == (False, migrated)
        domains = conn.exec_driver_sql(
            "SELECT t.typname::text, t.typbasetype::regtype::text, t.typdefault"
            " FROM pg_type t WHERE t.typtype = 'd' AND t.typname IN ('acct_id', 'user_id') ORDER BY 1").all()
        assert [(name, base) for name, base, _ in domains] == [("acct_id", "prefixed_id"), ("user_id", "typeid")]
        assert "'acct'" in domains[0][2] and "'user'" in domains[1][2], domains
        columns = conn.exec_driver_sql(
            "SELECT c.relname::text, a.attname::text, format_type(a.atttypid, a.atttypmod),"
            " pg_get_expr(d.adbin, d.adrelid), a.attnotnull"
            " FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
            " LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
            " WHERE c.relname IN ('accounts', 'orders') AND a.attnum > 0 AND NOT a.attisdropped"
            " ORDER BY c.relname, a.attnum").all()
        assert [tuple(c) for c in columns] == [
            ("accounts", "id", "uuid", "uuid_v7()", True),
            ("accounts", "public_id", "acct_id", None, True),  # the domain's DEFAULT
            ("accounts", "name", "character varying", None, True),
            ("orders", "id", "bigint", "snowflake(1)", True),
            ("orders", "account_id", "uuid", None, True),
            ("orders", "receipt", "ulid", "ulid()", True),
            ("orders", "placed_by", "user_id", None, True)]


def test_rows_go_in_and_come_out(engine, models):
    with Session(engine) as session:
        account = models.Account(name="Ada")
        session.add(account)
        session.flush()  # INSERT ... RETURNING the DEFAULTs
        order = models.Order(account_id=account.id)
        session.add(order)
        session.commit()
        account_id, public_id, order_id, receipt, placed_by = account.id, account.public_id, order.id, \
            order.receipt, order.placed_by
    assert uuid_v7_time(account_id) is not None
    assert type(public_id) is PrefixedId and public_id.prefix == "acct"
    assert type(order_id) is int and snowflake_shard(order_id) == 1
    assert type(receipt) is ULID and type(placed_by) is TypeId and placed_by.prefix == "user"
    with Session(engine) as session:
        read = session.scalars(sa.select(models.Order).where(models.Order.receipt == receipt)).one()
        assert (read.id, read.account_id, read.placed_by) == (order_id, account_id, placed_by)
        by_public_id = session.scalars(sa.select(models.Account).where(models.Account.public_id == public_id)).one()
        assert by_public_id.id == account_id
        texts = session.connection().exec_driver_sql(
            "SELECT a.public_id::text, o.receipt::text, o.placed_by::text FROM accounts a JOIN orders o"
            " ON o.account_id = a.id").one()
        assert tuple(texts) == (str(public_id), str(receipt), str(placed_by))


def test_alembic_check_finds_nothing_to_do(project, migrated):
    assert "No new upgrade operations detected" in alembic(project, migrated, "check")


def test_downgrade_base_leaves_nothing(project, migrated, engine):
    engine.dispose()  # the downgrade drops what pooled connections hold
    alembic(project, migrated, "downgrade", "base")
    with engine.connect() as conn:
        left = conn.exec_driver_sql(
            "SELECT (SELECT count(*) FROM pg_extension WHERE extname = 'idgen'),"
            " (SELECT count(*) FROM pg_class WHERE relname IN ('accounts', 'orders')),"
            " (SELECT count(*) FROM pg_type WHERE typname IN ('acct_id', 'user_id'))").one()
    engine.dispose()
    assert tuple(left) == (0, 0, 0)


def directives_for(db, metadata):
    """The upgrade and downgrade operations autogenerate makes for metadata
    on database db, with idgen.alembic's process_revision_directives."""
    from alembic.autogenerate import produce_migrations
    from alembic.migration import MigrationContext

    from idgen.alembic import autogenerate_options
    engine = sa.create_engine("postgresql+psycopg:///" + db)
    try:
        with engine.connect() as conn:
            opts = dict(autogenerate_options(conn), target_metadata=metadata)
            context = MigrationContext.configure(conn, opts=opts)
            script = produce_migrations(context, metadata)
            opts["process_revision_directives"](context, None, [script])
            return script.upgrade_ops.ops, script.downgrade_ops.ops
    finally:
        engine.dispose()


def test_define_calls_of_a_token_domain_and_a_domain_in_a_schema_run(bare_dbname):
    from alembic.operations.ops import ExecuteSQLOp
    metadata = sa.MetaData()
    sa.Table("invites", metadata,
             sa.Column("token", PrefixedIdType("invite_token", prefix="inv", token=True), primary_key=True),
             sa.Column("member", TypeIdType("app.member_id", prefix="member")))
    upgrade, downgrade = directives_for(bare_dbname, metadata)
    statements = [op.sqltext for op in upgrade if isinstance(op, ExecuteSQLOp)]
    assert statements == ["CREATE EXTENSION IF NOT EXISTS idgen",
                          "SELECT prefixed_id_define('invite_token', 'inv', token => true)",
                          "SELECT typeid_define('member_id', 'member', type_schema => 'app')"]
    assert [op.sqltext for op in downgrade if isinstance(op, ExecuteSQLOp)] == [
        "DROP DOMAIN app.member_id", "DROP DOMAIN invite_token", "DROP EXTENSION idgen"]
    with psycopg.connect(dbname=bare_dbname) as conn:  # run, then rolled back
        conn.execute("CREATE SCHEMA app")
        for statement in statements:
            conn.execute(statement)
        made = conn.execute("SELECT prefixed_id_new('inv')::text LIKE 'inv_%', typeid_new('member')::text::app.member_id"
                            " IS NOT NULL, (SELECT typdefault LIKE '%prefixed_id_token%' FROM pg_type"
                            " WHERE typname = 'invite_token')").fetchone()
        assert made == (True, True, True)
        conn.rollback()


@pytest.mark.parametrize("column_type", [PrefixedIdType("acct_id"), UlidType("ulid_ref")], ids=repr)
def test_a_missing_domain_autogenerate_cannot_define_is_refused_by_name(bare_dbname, column_type):
    metadata = sa.MetaData()
    sa.Table("refused", metadata, sa.Column("id", column_type, primary_key=True))
    with pytest.raises(ValueError, match=re.escape(repr(column_type)) + " names a domain that the database lacks"):
        directives_for(bare_dbname, metadata)
