"""Fixtures: the suite's server through libpq's environment (PGHOST, PGPORT,
PGDATABASE, PGUSER), a database with idgen per test module."""
import os
import uuid

import psycopg
import pytest


def _admin():
    return psycopg.connect(dbname=os.environ.get("IDGEN_ADMIN_DB", "postgres"), autocommit=True)


def _fresh_database(name, extension):
    """Creates database name with extension (a CREATE EXTENSION statement,
    or None), yields its name, then drops it."""
    with _admin() as admin:
        admin.execute('CREATE DATABASE "%s"' % name)
    if extension:
        with psycopg.connect(dbname=name, autocommit=True) as conn:
            conn.execute(extension)
    yield name
    with _admin() as admin:
        admin.execute('DROP DATABASE "%s" WITH (FORCE)' % name)


@pytest.fixture(scope="module")
def dbname(request):
    """A fresh database with idgen, dropped after the module."""
    name = "idgen_py_%s_%s" % (request.module.__name__.rsplit(".", 1)[-1][:20], uuid.uuid4().hex[:8])
    yield from _fresh_database(name, "CREATE EXTENSION idgen")


@pytest.fixture(scope="module")
def bare_dbname(request):
    """A fresh database without idgen, dropped after the module."""
    yield from _fresh_database("idgen_py_bare_%s" % uuid.uuid4().hex[:8], None)


@pytest.fixture(scope="module")
def owner_dbname(request):
    """A fresh database without idgen, owned by a role of the same name that is
    not a superuser (an application's migrations run as it: idgen is trusted),
    dropped with the role after the module."""
    name = "idgen_py_owner_%s" % uuid.uuid4().hex[:8]
    with _admin() as admin:
        admin.execute('CREATE ROLE "%s" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE' % name)
        admin.execute('CREATE DATABASE "%s" OWNER "%s"' % (name, name))
    yield name
    with _admin() as admin:
        admin.execute('DROP DATABASE "%s" WITH (FORCE)' % name)
        admin.execute('DROP ROLE "%s"' % name)


@pytest.fixture(scope="module")
def old_dbname(request):
    """A fresh database with idgen 0.7.0, which has no idgen_types(), dropped after the module."""
    yield from _fresh_database("idgen_py_old_%s" % uuid.uuid4().hex[:8],
                               "CREATE EXTENSION idgen VERSION '0.7.0'")


# The domains every driver's tests decode (idgen_types() lists them): a plain
# CREATE DOMAIN over ulid, a domain over that domain, and typeid_define()'s.
DOMAINS = """
CREATE DOMAIN ulid_ref AS ulid;
CREATE DOMAIN ulid_ref_ref AS ulid_ref;
SELECT typeid_define('member_id', 'member');
CREATE TABLE domain_values (r ulid_ref, rr ulid_ref_ref, m member_id DEFAULT typeid_new('member'));
INSERT INTO domain_values (r, rr) SELECT ulid(), ulid() FROM generate_series(1, 3);
"""


@pytest.fixture
def conn(dbname):
    with psycopg.connect(dbname=dbname, autocommit=True) as c:
        yield c


def pytest_collection_modifyitems(config, items):
    """SQLModel is in the newest dependency set only: its test is left out
    (deselected, so not reported) where SQLModel is not installed."""
    try:
        import sqlmodel  # noqa: F401
        return
    except ImportError:
        pass
    left_out = [item for item in items if item.name == "test_sqlmodel"]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item not in left_out]
