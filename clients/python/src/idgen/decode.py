"""The server's decoders in Python: the same answers as uuid_v7_time(),
snowflake_time(id[, epoch]), snowflake_shard(), snowflake_seq(), their
snowflake53 forms and ulid_time(), the ULID <-> uuid <-> text conversions,
and the fields of KSUIDs, ObjectIds and XIDs (ksuid_time(), ksuid_payload(),
objectid_time(), objectid_process(), objectid_counter(), xid_time(),
xid_machine(), xid_pid(), xid_counter()), and the times of Timeflakes and
Firebase push IDs (timeflake_time(), timeflake_random(), push_id_time(),
push_id_is_valid()), and other systems' 64-bit snowflakes in a layout
(SnowflakeLayout: snowflake_layout_decompose(), _compose(), _boundary()).
Bit layouts: docs/internals.md."""

import re
import uuid as _uuid
from datetime import datetime, timedelta, timezone

from ._values import KSUID, ULID, XID, ObjectId, _bits_of, _ms_time, _v7_time, b32_text

__all__ = ["uuid_v7_time", "snowflake_time", "snowflake_shard", "snowflake_seq",
           "snowflake53_time", "snowflake53_shard", "snowflake53_seq", "ulid_time",
           "ulid_to_uuid", "uuid_to_ulid", "ulid_text", "ulid_from_text",
           "ksuid_time", "ksuid_payload", "objectid_time", "objectid_process", "objectid_counter",
           "xid_time", "xid_machine", "xid_pid", "xid_counter", "timeflake_time", "timeflake_random",
           "push_id_time", "push_id_is_valid", "DEFAULT_SNOWFLAKE_EPOCH", "SnowflakeLayout",
           "SnowflakeLayoutError", "PREDEFINED_SNOWFLAKE_LAYOUTS"]

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


# ---- snowflake layouts: other systems' 64-bit IDs ----

class SnowflakeLayoutError(ValueError):
    """A refused layout, ID, time or field value. reason is the extension's
    core's (its vectors file's: "too_wide", "negative", "above_layout",
    "field_range", "before_epoch", ...), field the field concerned or None."""

    def __init__(self, reason, message, field=None):
        super().__init__(message)
        self.reason, self.field = reason, field


# The predefined layouts of the extension (its snowflake_layout.hpp): epoch in
# Unix ms (instagram's is idgen.snowflake_epoch), unit in ms, fields from the
# most significant bit; tests/test_snowflake_layout.py holds them to the
# extension's vectors file.
PREDEFINED_SNOWFLAKE_LAYOUTS = {
    "instagram": (None, 1, (("time", 40), ("shard", 13), ("sequence", 10))),
    "twitter": (1288834974657, 1, (("time", 41), ("datacenter", 5), ("worker", 5), ("sequence", 12))),
    "discord": (1420070400000, 1, (("time", 42), ("worker", 5), ("process", 5), ("sequence", 12))),
    "sonyflake": (1409529600000, 10, (("time", 39), ("sequence", 8), ("machine", 16))),
    "pgedge": (1672531200000, 1, (("time", 41), ("node", 10), ("sequence", 12))),
}

_LAYOUT_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}\Z")
_LAYOUT_END_OF_TIME_MS = 253402300800000  # 10000-01-01
_UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def _unix_ms(when):
    """Unix ms of an aware datetime (floored) or an int."""
    if isinstance(when, datetime):
        _check_epoch(when)
        return (when - _UNIX_EPOCH) // timedelta(milliseconds=1)
    if isinstance(when, int) and not isinstance(when, bool):
        return when
    raise TypeError("a time is an aware datetime or Unix milliseconds")


class SnowflakeLayout:
    """A snowflake layout: an epoch, the length of one unit of the time field
    (ms) and the fields from the most significant bit, one named "time" and
    one "sequence", checked as snowflake_layout_define() checks them. Decodes,
    composes and bounds IDs as the server's snowflake_layout_* functions do;
    minting in these layouts is the systems' own libraries'."""

    def __init__(self, epoch, time_unit_ms, fields, _allow_64=False):
        """epoch: an aware datetime or Unix ms; fields: (name, bits) pairs."""
        self.epoch_unix_ms = _unix_ms(epoch)
        self.time_unit_ms = time_unit_ms
        self.fields = tuple((name, bits) for name, bits in fields)
        self.total_bits, self.end_unix_ms = self._check(_allow_64)
        self._shifts = {}
        shift = 0
        for name, bits in reversed(self.fields):
            self._shifts[name] = shift
            shift += bits

    @classmethod
    def predefined(cls, name, instagram_epoch=DEFAULT_SNOWFLAKE_EPOCH):
        """A predefined layout by name; instagram's epoch is the server's idgen.snowflake_epoch."""
        if name not in PREDEFINED_SNOWFLAKE_LAYOUTS:
            raise SnowflakeLayoutError("unknown_layout", "no predefined snowflake layout %r" % (name,))
        epoch, unit, fields = PREDEFINED_SNOWFLAKE_LAYOUTS[name]
        return cls(instagram_epoch if epoch is None else epoch, unit, fields, _allow_64=True)

    def _check(self, allow_64):
        # the core's layout_validate, in its order
        if len(self.fields) > 8:
            raise SnowflakeLayoutError("too_many_fields", "a layout has at most 8 fields: time, sequence and 6 node fields")
        for name, bits in self.fields:
            if len(name) > 63:
                raise SnowflakeLayoutError("bad_name", "field name %r is longer than 63 characters" % name, name)
            if not isinstance(bits, int) or not 1 <= bits <= 63:
                raise SnowflakeLayoutError("bad_width", "field %r is %r bits wide: 1 to 63" % (name, bits), name)
        seen = set()
        for name, _ in self.fields:
            if not _LAYOUT_NAME.match(name):
                raise SnowflakeLayoutError("bad_name", "field name %r is not lowercase letters, digits and underscores" % name, name)
            if name in ("unix_ms", "timestamp"):
                raise SnowflakeLayoutError("reserved_name", "a node field cannot be named %r" % name, name)
            if name in seen:
                raise SnowflakeLayoutError("duplicate_name", "two fields are named %r" % name, name)
            seen.add(name)
        if "time" not in seen:
            raise SnowflakeLayoutError("no_time", 'a layout has one field named "time"')
        if "sequence" not in seen:
            raise SnowflakeLayoutError("no_sequence", 'a layout has one field named "sequence"')
        total = sum(bits for _, bits in self.fields)
        if total > 64 or (total == 64 and not (allow_64 and self.fields[0][0] == "time")):
            raise SnowflakeLayoutError("too_wide", "the fields take %d bits: 63 at most" % total)
        unit, epoch = self.time_unit_ms, self.epoch_unix_ms
        if not isinstance(unit, int) or not 1 <= unit <= 86400000:
            raise SnowflakeLayoutError("bad_unit", "a time unit of %r ms: 1 ms to a day" % (unit,))
        if not 0 <= epoch < _LAYOUT_END_OF_TIME_MS:
            raise SnowflakeLayoutError("bad_epoch", "an epoch of %d ms: from 1970 to 9999" % epoch)
        time_bits = dict(self.fields)["time"] - (total == 64)  # a 64-bit layout's sign bit
        if time_bits > 48 or 1 << time_bits > (_LAYOUT_END_OF_TIME_MS - epoch) // unit:
            raise SnowflakeLayoutError("outlasts_year_9999", "the time field would hold times from the year 10000 on", "time")
        return total, epoch + unit * (1 << time_bits)

    def _max(self, name):
        bits = dict(self.fields)[name]
        return (1 << (bits - (name == "time" and self.total_bits == 64))) - 1

    def decompose(self, id):
        """An ID's fields by name ("time" as the count of units) with unix_ms and
        timestamp (an aware datetime), as snowflake_layout_decompose(id, layout)."""
        if id < 0:
            raise SnowflakeLayoutError("negative", "snowflake id %d is negative" % id)
        if id >> min(self.total_bits, 63):
            raise SnowflakeLayoutError("above_layout", "snowflake id %d is out of range for a layout of %d bits"
                                       % (id, self.total_bits))
        out = {name: (id >> self._shifts[name]) & ((1 << bits) - 1) for name, bits in self.fields}
        out["unix_ms"] = self.epoch_unix_ms + out["time"] * self.time_unit_ms
        out["timestamp"] = _UNIX_EPOCH + timedelta(milliseconds=out["unix_ms"])
        return out

    def time(self, id):
        """The start of the time unit an ID was made in, as snowflake_layout_time()."""
        return self.decompose(id)["timestamp"]

    def _time_value(self, when):
        ms = _unix_ms(when)
        if ms < self.epoch_unix_ms:
            raise SnowflakeLayoutError("before_epoch", "%r is before the layout's epoch" % (when,), "time")
        if ms >= self.end_unix_ms:
            raise SnowflakeLayoutError("after_end", "%r is at or after the layout's end" % (when,), "time")
        return (ms - self.epoch_unix_ms) // self.time_unit_ms

    def compose(self, when, fields=None):
        """The ID of the time unit holding when (an aware datetime or Unix ms)
        with the node fields and sequence given (missing ones 0), as
        snowflake_layout_compose(): for backfills and tests."""
        values = {"time": self._time_value(when)}
        for name, value in (fields or {}).items():
            if name not in self._shifts:
                raise SnowflakeLayoutError("unknown_field", "the layout has no field %r to set" % name, name)
            if name == "time":
                raise SnowflakeLayoutError("time_field", "the time field is set by the time argument", name)
            if not 0 <= value <= self._max(name):
                raise SnowflakeLayoutError("field_range", "field %r is out of range: %d (0 to %d)"
                                           % (name, value, self._max(name)), name)
            values[name] = value
        return sum(values.get(name, 0) << self._shifts[name] for name, _ in self.fields)

    def boundary(self, when, largest=False):
        """The smallest ID of the time unit holding when, as snowflake_layout_boundary(),
        for range predicates (id >= boundary(t1) AND id < boundary(t2)); with
        largest, the largest ID of that unit."""
        t = self._time_value(when)
        return sum((t if name == "time" else self._max(name) if largest else 0) << self._shifts[name]
                   for name, _ in self.fields)

    def __repr__(self):
        return "SnowflakeLayout(%d, %d, %r)" % (self.epoch_unix_ms, self.time_unit_ms, self.fields)
