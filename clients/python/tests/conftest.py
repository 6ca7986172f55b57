"""Fixtures: the suite's server through libpq's environment (PGHOST, PGPORT,
PGDATABASE, PGUSER), a database with idgen per test module."""
import os
import uuid

import psycopg
import pytest


def _admin():
    return psycopg.connect(dbname=os.environ.get("IDGEN_ADMIN_DB", "postgres"), autocommit=True)


@pytest.fixture(scope="module")
def dbname(request):
    """A fresh database with idgen, dropped after the module."""
    name = "idgen_py_%s_%s" % (request.module.__name__.rsplit(".", 1)[-1][:20], uuid.uuid4().hex[:8])
    with _admin() as admin:
        admin.execute('CREATE DATABASE "%s"' % name)
    with psycopg.connect(dbname=name, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION idgen")
    yield name
    with _admin() as admin:
        admin.execute('DROP DATABASE "%s" WITH (FORCE)' % name)


@pytest.fixture(scope="module")
def bare_dbname(request):
    """A fresh database without idgen, dropped after the module."""
    name = "idgen_py_bare_%s" % uuid.uuid4().hex[:8]
    with _admin() as admin:
        admin.execute('CREATE DATABASE "%s"' % name)
    yield name
    with _admin() as admin:
        admin.execute('DROP DATABASE "%s" WITH (FORCE)' % name)


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
