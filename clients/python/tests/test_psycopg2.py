"""psycopg2 with register_types(): results as the value classes, parameters
as typed literals."""
import uuid

import psycopg2
import pytest

import idgen.psycopg2
from conftest import DOMAINS
from idgen import KSUID, ULID, XID, ObjectId, PrefixedId, TypeId


@pytest.fixture
def pg2(dbname):
    c = psycopg2.connect(dbname=dbname)
    c.autocommit = True
    yield c
    c.close()


def test_results_and_parameters(pg2):
    idgen.psycopg2.register_types(pg2)
    cur = pg2.cursor()
    cur.execute("SELECT ulid(), prefixed_id_new('acct'), typeid_new(''), ARRAY[ulid(), ulid()]")
    u, p, y, arr = cur.fetchone()
    assert (type(u), type(p), type(y), [type(v) for v in arr]) == (ULID, PrefixedId, TypeId, [ULID, ULID])
    cur.execute("SELECT %s::text, %s::text, %s::text, pg_typeof(%s)::text", (u, p, y, u))
    assert cur.fetchone() == (str(u), str(p), str(y), "ulid")
    import ulid
    cur.execute("SELECT %s = %s, %s = %s::ulid", (u, ulid.ULID.from_bytes(u.bytes), u, str(u)))
    assert cur.fetchone() == (True, True)


def test_ksuid_objectid_xid(pg2):
    import bson
    import ksuid
    idgen.psycopg2.register_types(pg2)
    cur = pg2.cursor()
    cur.execute("SELECT ksuid(), objectid(), xid(), ARRAY[ksuid()], ARRAY[objectid(), objectid()], ARRAY[xid()],"
                " ksuid_send(ksuid()), 1")
    k, o, x, ks, os_, xs, _, _ = cur.fetchone()
    assert [type(v) for v in (k, o, x, ks[0], os_[1], xs[0])] == [KSUID, ObjectId, XID, KSUID, ObjectId, XID]
    cur.execute("SELECT %s::text, %s::text, %s::text, pg_typeof(%s)::text, pg_typeof(%s)::text, pg_typeof(%s)::text,"
                " ksuid_send(%s), objectid_send(%s), rsxid_send(%s)", (k, o, x, k, o, x, k, o, x))
    texts, types, sends = (lambda r: (r[:3], r[3:6], r[6:]))(cur.fetchone())
    assert texts == (str(k), str(o), str(x)) and types == ("ksuid", "objectid", "rsxid")
    assert [bytes(b) for b in sends] == [k.bytes, o.bytes, x.bytes]
    # PyMongo's and svix-ksuid's values as parameters
    oid, theirs = bson.ObjectId(), ksuid.Ksuid()
    cur.execute("SELECT %s::text, pg_typeof(%s)::text, %s::text, pg_typeof(%s)::text", (oid, oid, theirs, theirs))
    assert cur.fetchone() == (str(oid), "objectid", str(theirs), "ksuid")


def test_domains(pg2):
    idgen.psycopg2.register_types(pg2)
    cur = pg2.cursor()
    cur.execute("SELECT prefixed_id_define('org_id', 'org')")
    cur.execute("CREATE TABLE o (id org_id PRIMARY KEY)")
    cur.execute("INSERT INTO o DEFAULT VALUES RETURNING id")
    (got,) = cur.fetchone()
    assert type(got) is PrefixedId and got.prefix == "org"
    with pytest.raises(psycopg2.errors.CheckViolation):
        cur.execute("INSERT INTO o VALUES (%s)", (PrefixedId("acct", uuid.uuid4()),))


def test_domains_over_domains(pg2):
    cur = pg2.cursor()
    cur.execute(DOMAINS)
    idgen.psycopg2.register_types(pg2)
    cur.execute("SELECT r, rr, m, ARRAY[rr], r::text, rr::text, m::text FROM domain_values")
    rows = cur.fetchall()
    assert len(rows) == 3
    for r, rr, m, arr, *texts in rows:
        assert [type(v) for v in (r, rr, m, arr[0])] == [ULID, ULID, TypeId, ULID]
        assert [str(v) for v in (r, rr, m)] == texts


def test_older_extension(old_dbname):
    c = psycopg2.connect(dbname=old_dbname)
    try:
        with pytest.raises(RuntimeError, match=r"idgen 0\.7\.0 is installed"):
            idgen.psycopg2.register_types(c)
    finally:
        c.close()
