"""The Python decoders give exactly the server's answers, on 100,000 values
of each family (random bits, so the cases the server refuses come too)."""
import json
import os
import random
import uuid
from datetime import datetime, timedelta, timezone

import pytest

from id_vectors import FAMILIES, cases, widths
from idgen import decode

N = int(os.environ.get("IDGEN_DECODER_VALUES", "100000"))
OTHER_EPOCH = datetime(2015, 6, 1, 12, 30, tzinfo=timezone.utc)
rng = random.Random(int(os.environ.get("IDGEN_DECODER_SEED", "20261128")))


def rows(conn, sql, values):
    with conn.cursor(binary=True) as cur:
        cur.execute("SET TIME ZONE 'UTC'")
        return cur.execute(sql, (values,)).fetchall()


def random_ms():  # within Python's datetime (year 9999) and the 48-bit field
    return rng.randrange(0, 253402300799999)


def test_uuid_v7_time(conn):
    values = []
    for i in range(N):
        bits = bytearray(random_ms().to_bytes(6, "big") + rng.randbytes(10))
        if i % 4:  # three in four a UUIDv7 with its version and variant, the rest any bits
            bits[6] = 0x70 | bits[6] & 0x0F
            bits[8] = 0x80 | bits[8] & 0x3F
        values.append(uuid.UUID(bytes=bytes(bits)))
    server = rows(conn, "SELECT uuid_v7_time(x) FROM unnest(%s::uuid[]) WITH ORDINALITY u(x, i) ORDER BY i",
                  values)
    assert len(server) == N
    mismatches = [(v, s) for v, (s,) in zip(values, server) if decode.uuid_v7_time(v) != s]
    assert mismatches == []
    assert sum(s is None for (s,) in server) > N // 8  # both kinds were there


def test_ulid_conversions(conn):
    values = [uuid.UUID(bytes=bytes(random_ms().to_bytes(6, "big") + rng.randbytes(10)))
              for _ in range(N)]
    server = rows(conn, "SELECT x::ulid::text, ulid_time(x::ulid), (x::ulid::text)::ulid::uuid"
                        " FROM unnest(%s::uuid[]) WITH ORDINALITY u(x, i) ORDER BY i", values)
    bad = [v for v, (text, time, back) in zip(values, server)
           if (decode.ulid_text(v), decode.ulid_time(v), decode.ulid_from_text(text.lower()))
           != (text, time, back)]
    assert bad == []


@pytest.mark.parametrize("family", ["snowflake", "snowflake53"])
def test_snowflake_fields(conn, family):
    low, high = (1 << 53, 1 << 63) if family == "snowflake" else (0, 1 << 53)
    values = [rng.randrange(low, high) for _ in range(N)]
    server = rows(conn, "SELECT {0}_time(x, '2024-01-01 00:00:00+00'), {0}_time(x, '2015-06-01 12:30:00+00'),"
                        " {0}_shard(x), {0}_seq(x)"
                        " FROM unnest(%s::bigint[]) WITH ORDINALITY u(x, i) ORDER BY i".format(family), values)
    time, shard, seq = (getattr(decode, family + suffix) for suffix in ("_time", "_shard", "_seq"))
    bad = [v for v, s in zip(values, server)
           if (time(v), time(v, epoch=OTHER_EPOCH), shard(v), seq(v)) != s]
    assert bad == []


@pytest.mark.parametrize("family", ["snowflake", "snowflake53"])
def test_snowflake_refuses_the_other_split(conn, family):
    other = 5 if family == "snowflake" else (1 << 53) + 5
    for fn in ("_time", "_shard", "_seq"):
        with pytest.raises(ValueError):
            getattr(decode, family + fn)(other)
    with pytest.raises(Exception) as server_error:
        conn.execute("SELECT %s_shard(%%s::bigint)" % family, (other,))
    assert getattr(server_error.value, "sqlstate", None) == "22003"


def test_snowflake_needs_an_aware_epoch():
    with pytest.raises(TypeError):
        decode.snowflake_time(1 << 60, epoch=datetime(2024, 1, 1))


def test_minted_values_decode(conn):
    """Values the server mints now decode to the server's own time."""
    conn.execute("SET TIME ZONE 'UTC'")
    u, s, s53, l = conn.execute("SELECT uuid_v7(), snowflake(3), snowflake53(2), ulid()::text").fetchone()
    got = conn.execute("SELECT uuid_v7_time(%s), snowflake_time(%s), snowflake53_time(%s), ulid_time(%s::ulid)",
                       (u, s, s53, l)).fetchone()
    assert (decode.uuid_v7_time(u), decode.snowflake_time(s), decode.snowflake53_time(s53),
            decode.ulid_time(l)) == got
    assert (decode.snowflake_shard(s), decode.snowflake53_shard(s53)) == (3, 2)
    assert abs(decode.uuid_v7_time(u) - datetime.now(timezone.utc)) < timedelta(minutes=5)


# The vectors file's cases (the C++ cores' answers), offline.
UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
DATETIME_MAX_MS = (datetime.max.replace(tzinfo=timezone.utc) - UNIX_EPOCH) // timedelta(milliseconds=1)
V7_BITS = cases("uuid_v7", "bits")


@pytest.mark.parametrize("case", V7_BITS, ids=[c["what"] for c in V7_BITS])
def test_uuid_v7_time_vectors(case):
    bits = bytes.fromhex(case["bits"])
    if case["unix_ms"] is not None and case["unix_ms"] > DATETIME_MAX_MS:
        with pytest.raises(OverflowError):  # past Python's year 9999
            decode.uuid_v7_time(bits)
        return
    want = None if case["unix_ms"] is None else UNIX_EPOCH + timedelta(milliseconds=case["unix_ms"])
    assert decode.uuid_v7_time(bits) == want == decode.uuid_v7_time(uuid.UUID(bytes=bits))


SNOWFLAKE_IDS = [(f, c) for f in ("snowflake", "snowflake53") for c in cases(f, "id")]


@pytest.mark.parametrize("family,case", SNOWFLAKE_IDS, ids=["%s: %s" % (f, c["what"]) for f, c in SNOWFLAKE_IDS])
def test_snowflake_vectors(family, case):
    id_ = int(case["id"])
    time, shard, seq = (getattr(decode, family + suffix) for suffix in ("_time", "_shard", "_seq"))
    if not case["ok"]:
        for fn in (time, shard, seq):
            with pytest.raises(ValueError):
                fn(id_)
        return
    # without an epoch, the default; with one, counted from it
    assert (time(id_) - decode.DEFAULT_SNOWFLAKE_EPOCH, time(id_, epoch=UNIX_EPOCH) - UNIX_EPOCH,
            shard(id_), seq(id_)) == (timedelta(milliseconds=case["ms"]),) * 2 + (case["shard"], case["seq"])


@pytest.mark.parametrize("family", ["snowflake", "snowflake53"])
def test_snowflake_layout_is_the_vectors(family):
    layout = FAMILIES[family]
    assert decode.LAYOUTS[family] == widths(family)
    assert decode.DEFAULT_SNOWFLAKE_EPOCH == UNIX_EPOCH + timedelta(milliseconds=layout["epoch_unix_ms"])
    assert decode.DEFAULT_SNOWFLAKE_EPOCH.utcoffset() == timedelta(0)
    assert (decode._SNOWFLAKE_MIN if family == "snowflake" else 0) == int(layout["min_id"])


# KSUID, ObjectId and XID: every field decoder against the server's, on N
# random values of each (any bits are valid), given as the value class, its
# text and its bytes.
RAW = {"ksuid": ("ksuid", 20, ("ksuid_time", "ksuid_payload")),
       "objectid": ("objectid", 12, ("objectid_time", "objectid_process", "objectid_counter")),
       "xid": ("rsxid", 12, ("xid_time", "xid_machine", "xid_pid", "xid_counter"))}


@pytest.mark.parametrize("family", list(RAW))
def test_raw_fields(conn, family):
    sql_type, size, functions = RAW[family]
    values = [rng.randbytes(size) for _ in range(N)]
    server = rows(conn, "SELECT x::text, %s FROM unnest(%%s::bytea[]) WITH ORDINALITY u(b, i),"
                        " LATERAL (SELECT b::%s AS x) v ORDER BY i"
                  % (", ".join("%s(x)" % f for f in functions), sql_type), values)
    assert len(server) == N
    decoders = [getattr(decode, f) for f in functions]
    bad = [v for v, (text, *fields) in zip(values, server)
           if [d(v) for d in decoders] != fields or [d(text) for d in decoders] != fields]
    assert bad == []


RAW_CASES = [(f, c) for f in RAW for c in cases(f, "bits")]


@pytest.mark.parametrize("family,case", RAW_CASES, ids=["%s: %s" % (f, c["what"]) for f, c in RAW_CASES])
def test_raw_field_vectors(family, case):
    bits = bytes.fromhex(case["bits"])
    got = {f[len(family) + 1:]: getattr(decode, f)(bits) for f in RAW[family][2]}
    want = {"time": UNIX_EPOCH + timedelta(seconds=case["unix_s"])}
    want.update({k: bytes.fromhex(case[k]) if isinstance(case[k], str) else case[k]
                 for k in got if k != "time"})
    assert got == want


def test_raw_decoders_take_other_libraries_values():
    import bson
    import ksuid
    oid, k = bson.ObjectId(), ksuid.Ksuid()
    assert (decode.objectid_time(oid), decode.objectid_process(oid)) == (oid.generation_time, oid.binary[4:9])
    assert (int(decode.ksuid_time(k).timestamp()), decode.ksuid_payload(k)) == (int(k.timestamp), k.payload)
    with pytest.raises(ValueError):
        decode.xid_time("9M4E2MR0UI3E8A215N4G")  # uppercase: refused, as the server refuses it
    with pytest.raises(TypeError):
        decode.ksuid_time(1507608047)


def test_minted_raw_values_decode(conn):
    conn.execute("SET TIME ZONE 'UTC'")
    k, o, x = conn.execute("SELECT ksuid()::text, objectid()::text, xid()::text").fetchone()
    got = conn.execute("SELECT ksuid_time(%s::ksuid), objectid_time(%s::objectid), xid_time(%s::rsxid)",
                       (k, o, x)).fetchone()
    assert (decode.ksuid_time(k), decode.objectid_time(o), decode.xid_time(x)) == got
    assert abs(decode.objectid_time(o) - datetime.now(timezone.utc)) < timedelta(minutes=5)


def test_timeflake_and_push_id_times(conn):
    """timeflake_time(), timeflake_random(), push_id_time() and push_id_is_valid()
    give the server's answers on N random values, a tenth of the texts not push IDs."""
    flakes = [uuid.UUID(bytes=random_ms().to_bytes(6, "big") + rng.randbytes(10)) for _ in range(N)]
    server = rows(conn, "SELECT timeflake_time(x), timeflake_random(x)::text"
                        " FROM unnest(%s::uuid[]) WITH ORDINALITY u(x, i) ORDER BY i", flakes)
    assert [(v, s) for v, s in zip(flakes, server)
            if (decode.timeflake_time(v), str(decode.timeflake_random(v))) != s] == []
    alphabet = decode.PUSH_ID_ALPHABET
    texts = []
    for i in range(N):
        ms = random_ms()
        text = "".join(alphabet[ms >> 6 * (7 - k) & 63] for k in range(8)) + "".join(rng.choices(alphabet, k=12))
        if i % 10 == 0:  # a character outside the alphabet, or another length
            text = rng.choice([text[:19], text + "-", text[:5] + rng.choice(".+/ \t\u00e9") + text[6:]])
        texts.append(text)
    server = rows(conn, "SELECT push_id_is_valid(x), CASE WHEN push_id_is_valid(x) THEN push_id_time(x) END"
                        " FROM unnest(%s::text[]) WITH ORDINALITY u(x, i) ORDER BY i", texts)
    assert sum(not valid for valid, _ in server) >= N // 20
    bad = [t for t, (valid, time) in zip(texts, server)
           if decode.push_id_is_valid(t) != valid or (valid and decode.push_id_time(t) != time)]
    assert bad == []
    with pytest.raises(ValueError, match="invalid push ID"):
        decode.push_id_time(texts[0][:19])


def test_timeflake_and_push_id_vectors():
    """Timeflake's README flakes and the push ID prefixes of ../shared/data."""
    directory = os.environ.get("IDGEN_SHARED_DATA")
    if not directory:
        pytest.skip("IDGEN_SHARED_DATA is not set")
    with open(os.path.join(directory, "timeflake-pushid", "timeflake.json")) as f:
        flakes = json.load(f)["cases"]
    with open(os.path.join(directory, "timeflake-pushid", "pushid_prefix.json")) as f:
        prefixes = json.load(f)["cases"]
    assert len(flakes) >= 2 and len(prefixes) >= 2
    epoch = datetime(1970, 1, 1, tzinfo=timezone.utc)
    for case in flakes:
        flake = uuid.UUID(case["uuid"])
        assert decode.timeflake_time(flake) == epoch + timedelta(milliseconds=case["timestamp_ms"])
        assert decode.timeflake_random(flake) == int(case["random"])
    for case in prefixes:
        text = case["prefix"] + "-" * 12
        assert decode.push_id_time(text) == epoch + timedelta(milliseconds=case["timestamp_ms"])
