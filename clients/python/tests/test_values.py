"""The value classes without a server: parsing, errors, immutability, order.
The cases come from the extension's vectors file (tests/id_vectors.py), as
the C++ cores answer them."""
import pickle
import uuid
from datetime import datetime, timedelta, timezone

import pytest

from id_vectors import FAMILIES, cases, ids
from idgen import KSUID, ULID, XID, ObjectId, PrefixedId, TypeId

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
DATETIME_MAX_MS = (datetime.max.replace(tzinfo=timezone.utc) - EPOCH) // timedelta(milliseconds=1)


def v7_time(ms):
    return None if ms is None else EPOCH + timedelta(milliseconds=ms)


def check_ulid_time(u, ms):
    """u.time is the case's millisecond; past Python's year 9999, OverflowError."""
    if ms > DATETIME_MAX_MS:
        with pytest.raises(OverflowError):
            u.time
    else:
        assert u.time == EPOCH + timedelta(milliseconds=ms)


def test_alphabets_are_the_vectors():
    # the package's own constants (src/idgen/_values.py), against the file's
    from idgen import _values
    assert _values.CROCKFORD == FAMILIES["ulid"]["alphabet"]
    assert _values.CROCKFORD.lower() == FAMILIES["typeid"]["alphabet"]
    assert _values._BASE36 == FAMILIES["prefixed_id"]["alphabet"]
    assert _values._BASE36_MAX == FAMILIES["prefixed_id"]["max_body"]
    assert "^%s$" % _values._PREFIX.pattern == FAMILIES["prefix"]["pattern"].replace("(", "(?:", 1)


ULID_TEXT = cases("ulid", "text", ok=True)


@pytest.mark.parametrize("case", ULID_TEXT, ids=ids(ULID_TEXT))
def test_ulid_text(case):
    u = ULID(case["text"])
    bits = bytes.fromhex(case["bits"])
    assert (u.bytes, str(u), u.to_uuid(), u.timestamp_ms) == (
        bits, case["canonical"], uuid.UUID(bytes=bits), case["unix_ms"])
    assert ULID.from_uuid(u.to_uuid()) == u == ULID.from_bytes(bits) == ULID(u) == ULID.from_text(case["canonical"])
    assert hash(ULID.from_bytes(bits)) == hash(u)
    check_ulid_time(u, case["unix_ms"])


ULID_BITS = cases("ulid", "bits")


@pytest.mark.parametrize("case", ULID_BITS, ids=ids(ULID_BITS))
def test_ulid_bits(case):
    bits = bytes.fromhex(case["bits"])
    u = ULID.from_bytes(bits)
    assert (str(u), u.bytes, u.to_uuid(), ULID(case["text"]), ULID.from_uuid(uuid.UUID(bytes=bits))) == (
        case["text"], bits, uuid.UUID(bytes=bits), u, u)
    check_ulid_time(u, case["unix_ms"])


def test_ulid_order():
    # ordered as their bytes and as their text, as the server orders them
    values = {ULID(c["text"]) for c in ULID_TEXT} | {ULID.from_bytes(bytes.fromhex(c["bits"])) for c in ULID_BITS}
    ordered = sorted(values)
    assert len(ordered) > 4
    assert ordered == sorted(values, key=lambda u: u.bytes) == sorted(values, key=str)
    assert all(a < b and b > a and a <= b and not a >= b for a, b in zip(ordered, ordered[1:]))


def test_ulid_from_uuid_takes_a_uuid():
    with pytest.raises(TypeError):
        ULID.from_uuid(b"\0" * 16)


ULID_REFUSED = cases("ulid", "text", ok=False, not_ascii=False)


@pytest.mark.parametrize("case", ULID_REFUSED, ids=ids(ULID_REFUSED))
def test_ulid_bad_text(case):
    with pytest.raises(ValueError, match="^invalid ULID text: "):
        ULID(case["text"])


def test_ulid_bad_bytes():
    with pytest.raises(ValueError):
        ULID(b"\0" * 15)
    with pytest.raises(TypeError):
        ULID(12)


def test_immutable_and_hashable():
    u, p = ULID(ULID_TEXT[0]["text"]), PrefixedId(PREFIXED_TEXT[0]["text"])
    with pytest.raises(AttributeError):
        u.bytes = b"\0" * 16
    with pytest.raises(AttributeError):
        p.prefix = "x"
    assert len({u, ULID(str(u)), p, PrefixedId(str(p))}) == 2
    assert pickle.loads(pickle.dumps(p)) == p


PREFIXED_TEXT = cases("prefixed_id", "text", ok=True)


def check_text(cls, case):
    """A valid prefixed_id or typeid case: its parts, text and binary forms, and the ways back."""
    v = cls(case["text"])
    assert (v.prefix, v.bytes.hex(), str(v), v.to_binary().hex(), v.time) == (
        case["prefix"], case["bits"], case["canonical"], case["binary"], v7_time(case["unix_ms"]))
    assert cls.from_binary(v.to_binary()) == v == cls(v.prefix, v.to_uuid()) == cls.from_text(str(v))


@pytest.mark.parametrize("case", PREFIXED_TEXT, ids=ids(PREFIXED_TEXT))
def test_prefixed_id_text(case):
    check_text(PrefixedId, case)


PREFIXED_REFUSED = cases("prefixed_id", "text", ok=False, not_ascii=False)


@pytest.mark.parametrize("case", PREFIXED_REFUSED, ids=ids(PREFIXED_REFUSED))
def test_prefixed_id_bad_text(case):
    with pytest.raises(ValueError, match="^invalid prefixed_id text: "):
        PrefixedId(case["text"])


BINARY = [(cls, c) for cls, f in ((PrefixedId, "prefixed_id"), (TypeId, "typeid")) for c in cases(f, "binary")]


@pytest.mark.parametrize("cls,case", BINARY, ids=["%s: %s" % (cls.__name__, c["what"]) for cls, c in BINARY])
def test_binary_form(cls, case):
    data = bytes.fromhex(case["binary"])
    if case["ok"]:
        v = cls.from_binary(data)
        assert (v.prefix, v.bytes.hex(), str(v), v.to_binary()) == (case["prefix"], case["bits"], case["canonical"], data)
    else:
        with pytest.raises(ValueError):
            cls.from_binary(data)


TYPEID_TEXT = cases("typeid", "text", ok=True)


@pytest.mark.parametrize("case", TYPEID_TEXT, ids=ids(TYPEID_TEXT))
def test_typeid_text(case):
    check_text(TypeId, case)


def test_typeid_forms():
    bits = bytes.fromhex(TYPEID_TEXT[0]["bits"])
    assert TypeId("user", PrefixedId("acct", bits).to_uuid()) == TypeId("user", bits)
    assert TypeId("user", bits) != PrefixedId("user", bits)
    assert sorted([TypeId("b", bits), TypeId("a", bits), TypeId("", bits)])[0].prefix == ""


TYPEID_REFUSED = cases("typeid", "text", ok=False, not_ascii=False)


@pytest.mark.parametrize("case", TYPEID_REFUSED, ids=ids(TYPEID_REFUSED))
def test_typeid_bad_text(case):
    with pytest.raises(ValueError, match="^invalid typeid text: "):
        TypeId(case["text"])


def test_python_ulid_interop():
    import ulid
    theirs = ulid.ULID()
    ours = ULID(theirs)
    assert str(ours) == str(theirs) and ours.to_uuid() == theirs.to_uuid()


PREFIXES = cases("prefix", "check")


@pytest.mark.parametrize("case", PREFIXES, ids=ids(PREFIXES))
def test_prefix_rule(case):
    # a prefixed_id needs a prefix; a TypeID takes the empty one too
    bits = uuid.UUID(int=0)
    for cls in (PrefixedId, TypeId):
        if case["ok"] or (cls is TypeId and case["reason"] == "empty"):
            assert cls(case["prefix"], bits).prefix == case["prefix"]
        else:
            with pytest.raises(ValueError, match="^invalid %s prefix: " % cls.__name__):
                cls(case["prefix"], bits)


# Text the server refuses because a character is not ASCII, a look-alike that
# Unicode case mapping or digit tables turn into a digit or letter of the
# alphabet (issue 51): the vectors file's not_ascii cases of each family the
# package parses (it takes uuid.UUID and int, not uuid or snowflake text).
NOT_ASCII = [(f, c) for f in ("ulid", "prefixed_id", "typeid", "ksuid", "objectid", "xid")
             for c in cases(f, "text", ok=False, not_ascii=True)]
_TEXT_PARSERS = {"ulid": (ULID, "ULID"), "prefixed_id": (PrefixedId, "prefixed_id"), "typeid": (TypeId, "typeid"),
                 "ksuid": (KSUID, "KSUID"), "objectid": (ObjectId, "ObjectId"), "xid": (XID, "XID")}


@pytest.mark.parametrize("family,text", [(f, c["text"]) for f, c in NOT_ASCII],
                         ids=["%s: %s" % (f, c["what"]) for f, c in NOT_ASCII])
def test_not_ascii_refused(family, text):
    # refused by the class's own check, before any case folding or int()
    cls, name = _TEXT_PARSERS[family]
    with pytest.raises(ValueError, match="^invalid %s text: " % name):
        cls(text)


# KSUID, ObjectId and XID: raw bytes whose first 4 are seconds. The fields
# each class reads, by the vectors file's names: case key -> (attribute, as the
# file writes it).
RAW = {"ksuid": KSUID, "objectid": ObjectId, "xid": XID}
RAW_FIELDS = {"ksuid": {"payload": lambda v: v.payload.hex()},
              "objectid": {"process": lambda v: v.process.hex(), "counter": lambda v: v.counter},
              "xid": {"machine": lambda v: v.machine.hex(), "pid": lambda v: v.pid, "counter": lambda v: v.counter}}


def test_raw_alphabets_and_layouts_are_the_vectors():
    from idgen import _values
    assert _values.BASE62 == FAMILIES["ksuid"]["alphabet"]
    assert str(KSUID(b"\xff" * 20)) == FAMILIES["ksuid"]["max_text"]
    assert _values._B32HEX.lower() == FAMILIES["xid"]["alphabet"]
    assert {_values.xid_text(bytes(11) + bytes([b]))[-1] for b in range(256)} == set(FAMILIES["xid"]["last_digits"])
    assert bytes(range(256)).hex() == "".join(a + b for a in FAMILIES["objectid"]["alphabet"]
                                               for b in FAMILIES["objectid"]["alphabet"])
    for family, cls in RAW.items():
        layout = FAMILIES[family]
        assert (cls.size * 8, len(str(cls(bytes(cls.size)))), layout["fields"][0]["bits"]) == (
            layout["bits"], layout["digits"], 32)
        assert cls(bytes(cls.size)).unix_s == layout["epoch_unix_s"]
    assert _values.KSUID_EPOCH == EPOCH + timedelta(seconds=FAMILIES["ksuid"]["epoch_unix_s"])


def check_raw(family, value, case):
    cls = RAW[family]
    bits = bytes.fromhex(case["bits"])
    assert (value.bytes, str(value), value.unix_s, value.time) == (
        bits, case["canonical"], case["unix_s"], EPOCH + timedelta(seconds=case["unix_s"]))
    assert {name: read(value) for name, read in RAW_FIELDS[family].items()} == {
        name: case[name] for name in RAW_FIELDS[family]}
    assert cls.from_bytes(bits) == value == cls(bits) == cls(value) == cls.from_text(case["canonical"])
    assert hash(cls(case["canonical"])) == hash(value) and pickle.loads(pickle.dumps(value)) == value
    assert value.int == int(case["bits"], 16)


RAW_TEXT = [(f, c) for f in RAW for c in cases(f, "text", ok=True)]


@pytest.mark.parametrize("family,case", RAW_TEXT, ids=["%s: %s" % (f, c["what"]) for f, c in RAW_TEXT])
def test_raw_text(family, case):
    check_raw(family, RAW[family](case["text"]), case)


RAW_BITS = [(f, c) for f in RAW for c in cases(f, "bits")]


@pytest.mark.parametrize("family,case", RAW_BITS, ids=["%s: %s" % (f, c["what"]) for f, c in RAW_BITS])
def test_raw_bits(family, case):
    check_raw(family, RAW[family].from_bytes(bytes.fromhex(case["bits"])), case)


RAW_REFUSED = [(f, c) for f in RAW for c in cases(f, "text", ok=False, not_ascii=False)]


@pytest.mark.parametrize("family,case", RAW_REFUSED, ids=["%s: %s" % (f, c["what"]) for f, c in RAW_REFUSED])
def test_raw_bad_text(family, case):
    cls, name = _TEXT_PARSERS[family]
    with pytest.raises(ValueError, match="^invalid %s text: " % name):
        cls(case["text"])


@pytest.mark.parametrize("family", list(RAW))
def test_raw_order_is_the_bytes(family):
    cls = RAW[family]
    values = {cls(c["text"]) for c in cases(family, "text", ok=True)} | {
        cls.from_bytes(bytes.fromhex(c["bits"])) for c in cases(family, "bits")}
    ordered = sorted(values)
    assert len(ordered) >= 3 and ordered == sorted(values, key=lambda v: v.bytes)
    assert all(a < b and b > a and a <= b and not a >= b for a, b in zip(ordered, ordered[1:]))
    if family != "objectid":  # hex in either case: only the lowercase text orders as the bytes
        assert ordered == sorted(values, key=str)


@pytest.mark.parametrize("family", list(RAW))
def test_raw_bad_values(family):
    cls = RAW[family]
    for wrong in (bytes(cls.size - 1), bytes(cls.size + 1), b""):
        with pytest.raises(ValueError, match="^a %s is %d bytes, not %d$" % (cls.name, cls.size, len(wrong))):
            cls(wrong)
        with pytest.raises(ValueError):
            cls.from_bytes(wrong)
    for other in (12, 3.5, None, uuid.UUID(int=0)):
        with pytest.raises(TypeError, match="^cannot make a %s of " % cls.name):
            cls(other)
    value = cls(bytes(cls.size))
    with pytest.raises(AttributeError):
        value.bytes = bytes(cls.size)
    assert value != bytes(cls.size) and len({value, cls(str(value))}) == 1
    assert ObjectId(bytes(12)) != XID(bytes(12))  # the same bytes, another type


def test_bson_objectid_both_ways():
    import bson
    theirs = bson.ObjectId()
    ours = ObjectId(theirs)
    assert (ours.bytes, str(ours)) == (theirs.binary, str(theirs))
    # README: the way back
    assert bson.ObjectId(ours.bytes) == theirs == bson.ObjectId(str(ours))
    assert ours.time == theirs.generation_time


def test_svix_ksuid_both_ways():
    import ksuid
    theirs = ksuid.Ksuid()
    ours = KSUID(theirs)
    assert (ours.bytes, str(ours), ours.payload) == (bytes(theirs), str(theirs), theirs.payload)
    assert ksuid.Ksuid.from_bytes(ours.bytes) == theirs
    with pytest.raises(TypeError):
        XID(theirs)  # an XID takes no other library's value
