"""The value classes without a server: parsing, errors, immutability, order."""
import pickle
import uuid

import pytest

from idgen import ULID, PrefixedId, TypeId


def test_ulid_round_trips():
    u = ULID("01arz3ndektsv4rrffq69g5fav")
    assert str(u) == "01ARZ3NDEKTSV4RRFFQ69G5FAV"
    assert ULID(u.uuid) == u == ULID(u.bytes) == ULID(u)
    assert u.uuid == uuid.UUID("01563e3a-b5d3-d676-4c61-efb99302bd5b")
    assert u.time.isoformat() == "2016-07-30T23:54:10.259000+00:00"


@pytest.mark.parametrize("text", ["", "01ARZ3NDEKTSV4RRFFQ69G5FA", "81ARZ3NDEKTSV4RRFFQ69G5FAV",
                                  "01ARZ3NDEKTSV4RRFFQ69G5FAI", "01ARZ3NDEKTSV4RRFFQ69G5FAV0"])
def test_ulid_bad_text(text):
    with pytest.raises(ValueError):
        ULID(text)


def test_ulid_bad_bytes():
    with pytest.raises(ValueError):
        ULID(b"\0" * 15)
    with pytest.raises(TypeError):
        ULID(12)


def test_immutable_and_hashable():
    u, p = ULID("01ARZ3NDEKTSV4RRFFQ69G5FAV"), PrefixedId("acct_039srkj01e44uynszf2f2njh3")
    with pytest.raises(AttributeError):
        u.bytes = b"\0" * 16
    with pytest.raises(AttributeError):
        p.prefix = "x"
    assert len({u, ULID(str(u)), p, PrefixedId(str(p))}) == 2
    assert pickle.loads(pickle.dumps(p)) == p


def test_prefixed_id_binary_form():
    p = PrefixedId("acct_039srkj01e44uynszf2f2njh3")
    assert p.to_binary().hex() == "046163637401890a5dac96774bbcceb302099a8057"
    assert PrefixedId.from_binary(p.to_binary()) == p
    assert PrefixedId("acct", p.uuid) == p
    assert p.time.isoformat() == "2023-06-30T03:34:18.518000+00:00"


@pytest.mark.parametrize("data", [b"", b"\x00" + b"\1" * 16, b"\x04acct" + b"\1" * 15,
                                  b"\x04acct" + b"\1" * 17, b"\x40" + b"a" * 64 + b"\1" * 16])
def test_prefixed_id_bad_binary(data):
    with pytest.raises(ValueError):
        PrefixedId.from_binary(data)


@pytest.mark.parametrize("text", ["acct039srkj01e44uynszf2f2njh3", "Acct_039srkj01e44uynszf2f2njh3",
                                  "acct_039srkj01e44uynszf2f2njh", "acct_g5lxx1zz5pnorynqglhzmsp33",
                                  "_acct_039srkj01e44uynszf2f2njh3", "acct__039srkj01e44uynszf2f2njh3"])
def test_prefixed_id_bad_text(text):
    with pytest.raises(ValueError):
        PrefixedId(text)


def test_typeid_forms():
    t = TypeId("user_01h455vb4pex5vsknk084sn02q")
    assert (t.prefix, str(TypeId("", t.uuid))) == ("user", "01h455vb4pex5vsknk084sn02q")
    assert TypeId.from_binary(t.to_binary()) == t
    assert TypeId.from_binary(b"\x00" + t.bytes).prefix == ""
    assert TypeId("user", PrefixedId("acct", t.bytes).uuid) == t
    assert t != PrefixedId("user", t.bytes)
    assert sorted([TypeId("b", t.bytes), TypeId("a", t.bytes), TypeId("", t.bytes)])[0].prefix == ""


@pytest.mark.parametrize("text", ["user_01H455VB4PEX5VSKNK084SN02Q", "user_81h455vb4pex5vsknk084sn02q",
                                  "user01h455vb4pex5vsknk084sn02q", "_01h455vb4pex5vsknk084sn02q",
                                  "user_01h455vb4pex5vsknk084sn0iq"])
def test_typeid_bad_text(text):
    with pytest.raises(ValueError):
        TypeId(text)


def test_python_ulid_interop():
    import ulid
    theirs = ulid.ULID()
    ours = ULID(theirs)
    assert str(ours) == str(theirs) and ours.uuid == theirs.to_uuid()


def test_prefix_rules():
    with pytest.raises(ValueError):
        PrefixedId("", uuid.uuid4())
    with pytest.raises(ValueError):
        PrefixedId("a" * 64, uuid.uuid4())
    assert PrefixedId("a" * 63, uuid.UUID(int=0)).prefix == "a" * 63
    assert str(PrefixedId("z", uuid.UUID(int=2**128 - 1))) == "z_f5lxx1zz5pnorynqglhzmsp33"
