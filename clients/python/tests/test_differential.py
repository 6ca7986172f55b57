"""Differential tests against the formats' reference libraries on PyPI (issue
53): pymongo's bson.ObjectId and svix-ksuid. What the server mints, the library
reads to the same bytes, time and fields; what the library mints, the server
reads to the same bytes and sorts in the same order. IDGEN_DIFFERENTIAL_COUNT
overrides how many values go each way."""
import datetime
import json
import os

import psycopg
import pytest
from bson import ObjectId
from bson.errors import InvalidId
from ksuid import Ksuid

COUNT = int(os.environ.get("IDGEN_DIFFERENTIAL_COUNT", "100000"))


@pytest.fixture(scope="module")
def conn(dbname):
    with psycopg.connect(dbname=dbname, autocommit=True) as conn:
        yield conn


def shared(path):
    """A file of the third-party vectors, in IDGEN_SHARED_DATA (../shared/data beside a checkout)."""
    directory = os.environ.get("IDGEN_SHARED_DATA")
    if not directory:
        pytest.skip("IDGEN_SHARED_DATA is not set")
    with open(os.path.join(directory, path), encoding="utf-8") as f:
        return json.load(f)


def parse_on_server(conn, type_name, texts):
    """The bytes the server reads from each text as the type, and the texts'
    positions in the server's order of the values."""
    raws, order = conn.execute(
        f"""SELECT array_agg(t::{type_name}::bytea ORDER BY i),
                   (SELECT array_agg(i::int - 1 ORDER BY t::{type_name}, i)
                    FROM unnest(%(t)s::text[]) WITH ORDINALITY AS v (t, i))
            FROM unnest(%(t)s::text[]) WITH ORDINALITY AS u (t, i)""",
        {"t": texts}).fetchone()
    return [bytes(r) for r in raws], order


def test_server_objectids_parse_in_pymongo(conn):
    minted = conn.execute(
        """SELECT o::text, o::bytea, extract(epoch FROM objectid_time(o))::bigint,
                  objectid_process(o), objectid_counter(o)
           FROM (SELECT objectid() FROM generate_series(1, %s)) s (o)""", (COUNT,)).fetchall()
    assert len(minted) == COUNT
    for text, raw, unix, process, counter in minted:
        oid = ObjectId(text)
        got = (oid.binary, int(oid.generation_time.timestamp()), oid.binary[4:9],
               int.from_bytes(oid.binary[9:], "big"), str(oid))
        want = (bytes(raw), unix, bytes(process), counter, text)
        if got != want:
            assert got == want, text


def test_pymongo_objectids_parse_on_server(conn):
    ids = [ObjectId.from_datetime(datetime.datetime.fromtimestamp(1_000_000_000 + i, datetime.timezone.utc))
           if i % 10 == 9 else ObjectId() for i in range(COUNT)]
    raws, order = parse_on_server(conn, "objectid", [str(o) for o in ids])
    for oid, raw in zip(ids, raws):
        if raw != oid.binary:
            assert raw.hex() == oid.binary.hex(), str(oid)
    for a, b in zip(order, order[1:]):
        if ids[a].binary > ids[b].binary:
            pytest.fail(f"the server sorts {ids[a]} before {ids[b]}; bson after")


def test_objectid_refused_by_both(conn):
    """The spec's refused ObjectId (a value of 10 bytes): pymongo refuses the
    bytes and their hex, the server the bytes (22P03) and the hex (22P02)."""
    cases = shared("objectid/spec_invalid.json")
    assert cases, "spec_invalid.json lists no input"
    for case in cases:
        raw = bytes.fromhex(case["oid_bytes_hex"])
        for value in (raw, raw.hex()):
            with pytest.raises((InvalidId, TypeError)):
                ObjectId(value)
        with pytest.raises(psycopg.errors.InvalidBinaryRepresentation):
            conn.execute("SELECT %s::bytea::objectid", (raw,))
        with pytest.raises(psycopg.errors.InvalidTextRepresentation):
            conn.execute("SELECT %s::text::objectid", (raw.hex(),))


def test_server_ksuids_parse_in_svix_ksuid(conn):
    minted = conn.execute(
        """SELECT k::text, k::bytea, extract(epoch FROM ksuid_time(k))::bigint, ksuid_payload(k)
           FROM (SELECT ksuid() FROM generate_series(1, %s)) s (k)""", (COUNT,)).fetchall()
    assert len(minted) == COUNT
    for text, raw, unix, payload in minted:
        k = Ksuid.from_base62(text)
        got = (bytes(k), int(k.timestamp), k.payload, str(k))
        want = (bytes(raw), unix, bytes(payload), text)
        if got != want:
            assert got == want, text


def test_svix_ksuids_parse_on_server(conn):
    ids = [Ksuid() for _ in range(COUNT)]
    raws, order = parse_on_server(conn, "ksuid", [str(k) for k in ids])
    for k, raw in zip(ids, raws):
        if raw != bytes(k):
            assert raw.hex() == bytes(k).hex(), str(k)
    for a, b in zip(order, order[1:]):
        if bytes(ids[a]) > bytes(ids[b]):
            pytest.fail(f"the server sorts {ids[a]} before {ids[b]}; svix-ksuid after")
