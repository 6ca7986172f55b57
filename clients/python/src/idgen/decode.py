"""The server's decoders in Python: the same answers as uuid_v7_time(),
snowflake_time(id[, epoch]), snowflake_shard(), snowflake_seq(), their
snowflake53 forms and ulid_time(), the ULID <-> uuid <-> text conversions,
and the fields of KSUIDs, ObjectIds and XIDs (ksuid_time(), ksuid_payload(),
objectid_time(), objectid_process(), objectid_counter(), xid_time(),
xid_machine(), xid_pid(), xid_counter()), and the times of Timeflakes and
Firebase push IDs (timeflake_time(), timeflake_random(), push_id_time(),
push_id_is_valid()). Bit layouts: docs/internals.md."""

import uuid as _uuid
from datetime import datetime, timedelta, timezone

from ._values import KSUID, ULID, XID, ObjectId, _bits_of, _ms_time, _v7_time, b32_text

__all__ = ["uuid_v7_time", "snowflake_time", "snowflake_shard", "snowflake_seq",
           "snowflake53_time", "snowflake53_shard", "snowflake53_seq", "ulid_time",
           "ulid_to_uuid", "uuid_to_ulid", "ulid_text", "ulid_from_text",
           "ksuid_time", "ksuid_payload", "objectid_time", "objectid_process", "objectid_counter",
           "xid_time", "xid_machine", "xid_pid", "xid_counter", "timeflake_time", "timeflake_random",
           "push_id_time", "push_id_is_valid", "DEFAULT_SNOWFLAKE_EPOCH"]

DEFAULT_SNOWFLAKE_EPOCH = datetime(2024, 1, 1, tzinfo=timezone.utc)  # idgen.snowflake_epoch's default
_SNOWFLAKE_MIN = 1 << 53  # snowflake() IDs start here; below are snowflake53() IDs

# The two splits' fields from the most significant bit, (zero, ms, shard, seq)
# bits as the extension's vectors file states them (tests/test_decoders.py
# holds this table to it), and what the decoders shift and mask by.
LAYOUTS = {"snowflake": (1, 40, 13, 10), "snowflake53": (11, 40, 4, 9)}


def _split(family):
    _, _, shard_bits, seq_bits = LAYOUTS[family]
    return shard_bits + seq_bits, seq_bits, (1 << shard_bits) - 1, (1 << seq_bits) - 1


_S63_MS, _S63_SHARD, _S63_SHARD_MASK, _S63_SEQ_MASK = _split("snowflake")
_S53_MS, _S53_SHARD, _S53_SHARD_MASK, _S53_SEQ_MASK = _split("snowflake53")


def uuid_v7_time(value):
    """The millisecond of a UUIDv7 (uuid.UUID or 16 bytes) as an aware UTC
    datetime; None when it is not version 7 with the RFC variant."""
    return _v7_time(_bits_of(value))


def _check_epoch(epoch):
    if not isinstance(epoch, datetime) or epoch.tzinfo is None:
        raise TypeError("the epoch is an aware datetime (idgen.snowflake_epoch)")


def _check63(id):
    # IDs below 2**53 are snowflake53()'s: refused, as the server refuses them (22003)
    if not _SNOWFLAKE_MIN <= id < 1 << 63:
        raise ValueError("%d is not a snowflake() id: they are 2^53 to 2^63 - 1" % id)


def _check53(id):
    if not 0 <= id < _SNOWFLAKE_MIN:
        raise ValueError("%d is not a snowflake53() id: they are 0 to 2^53 - 1" % id)


def snowflake_time(id, epoch=DEFAULT_SNOWFLAKE_EPOCH):
    """The millisecond of a snowflake() ID counted from epoch, an aware datetime:
    the server's idgen.snowflake_epoch, which an ID does not carry."""
    _check_epoch(epoch)
    _check63(id)
    return epoch + timedelta(milliseconds=id >> _S63_MS)


def snowflake_shard(id):
    """The shard (0..8191) of a snowflake() ID."""
    _check63(id)
    return (id >> _S63_SHARD) & _S63_SHARD_MASK


def snowflake_seq(id):
    """The sequence (0..1023) of a snowflake() ID within its millisecond and shard."""
    _check63(id)
    return id & _S63_SEQ_MASK


def snowflake53_time(id, epoch=DEFAULT_SNOWFLAKE_EPOCH):
    """The millisecond of a snowflake53() ID counted from epoch."""
    _check_epoch(epoch)
    _check53(id)
    return epoch + timedelta(milliseconds=id >> _S53_MS)


def snowflake53_shard(id):
    """The shard (0..15) of a snowflake53() ID."""
    _check53(id)
    return (id >> _S53_SHARD) & _S53_SHARD_MASK


def snowflake53_seq(id):
    """The sequence (0..511) of a snowflake53() ID."""
    _check53(id)
    return id & _S53_SEQ_MASK


def ulid_time(value):
    """The millisecond a ULID (ULID, uuid.UUID, 16 bytes or text) carries."""
    if isinstance(value, str):
        value = ULID(value)
    return _ms_time(_bits_of(value))


def ulid_to_uuid(value):
    """A ULID's 16 bytes as a uuid.UUID (the ulid::uuid cast)."""
    return ULID(value).to_uuid()


def uuid_to_ulid(value):
    """A uuid.UUID as a ULID (the uuid::ulid cast)."""
    return ULID(value)


def ulid_text(value):
    """The 26-character text of 16 bytes, a uuid.UUID or a ULID."""
    return b32_text(_bits_of(value))


def ulid_from_text(text):
    """The uuid.UUID of a ULID's text (either case); ValueError for bad text."""
    return _uuid.UUID(bytes=ULID(text).bytes)



# KSUID, ObjectId and XID: each decoder takes the value class, its text or its
# raw bytes (and what the class itself takes: svix-ksuid's Ksuid, bson.ObjectId).
def _as(cls, value):
    return value if type(value) is cls else cls(value)


def ksuid_time(value):
    """The second a KSUID carries, an aware UTC datetime."""
    return _as(KSUID, value).time


def ksuid_payload(value):
    """The 16-byte payload of a KSUID."""
    return _as(KSUID, value).payload


def objectid_time(value):
    """The second an ObjectId carries, an aware UTC datetime."""
    return _as(ObjectId, value).time


def objectid_process(value):
    """The 5-byte process value of an ObjectId."""
    return _as(ObjectId, value).process


def objectid_counter(value):
    """The 24-bit counter of an ObjectId, 0 to 16777215."""
    return _as(ObjectId, value).counter


def xid_time(value):
    """The second an XID carries, an aware UTC datetime."""
    return _as(XID, value).time


def xid_machine(value):
    """The 3-byte machine id of an XID."""
    return _as(XID, value).machine


def xid_pid(value):
    """The 16-bit process id of an XID, 0 to 65535."""
    return _as(XID, value).pid


def xid_counter(value):
    """The 24-bit counter of an XID, 0 to 16777215."""
    return _as(XID, value).counter


# Timeflake (a uuid: 48-bit Unix ms, 80 random bits) and Firebase push IDs
# (20 characters: 8 of Unix ms in base 64, 12 random), as the server reads them.
def timeflake_time(value):
    """The millisecond in the high 48 bits of a Timeflake (uuid.UUID, 16 bytes,
    or timeflake's Timeflake, whose .bytes are its 16 bytes)."""
    return _ms_time(_bits_of(value))


def timeflake_random(value):
    """The low 80 bits of a Timeflake as an int (0 to 2**80 - 1)."""
    return int.from_bytes(_bits_of(value)[6:], "big")


PUSH_ID_ALPHABET = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
_PUSH_ID_DIGITS = {c: i for i, c in enumerate(PUSH_ID_ALPHABET)}
__all__.append("PUSH_ID_ALPHABET")


def push_id_is_valid(text):
    """Whether text is exactly 20 characters of -0-9A-Z_a-z (push_id_is_valid())."""
    return isinstance(text, str) and len(text) == 20 and all(c in _PUSH_ID_DIGITS for c in text)


def push_id_time(text):
    """The millisecond in a push ID's first 8 characters, an aware UTC datetime;
    ValueError unless text is a push ID (the server's 22P02). Times past the
    year 9999 do not fit Python's datetime and raise OverflowError."""
    if not push_id_is_valid(text):
        raise ValueError("invalid push ID %r: a push ID is 20 characters of -, 0-9, A-Z, _ and a-z" % (text,))
    ms = 0
    for c in text[:8]:
        ms = ms << 6 | _PUSH_ID_DIGITS[c]
    return _ms_time(ms.to_bytes(6, "big"))
