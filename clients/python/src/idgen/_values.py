"""ULID, PrefixedId and TypeId: immutable values holding idgen's 128 bits
(and a prefix); KSUID, ObjectId and XID: its 160-bit and 96-bit IDs; each
with the text forms the server reads and writes and the binary forms of
docs/internals.md ("Binary formats")."""

import re
import uuid
from datetime import datetime, timedelta, timezone

__all__ = ["ULID", "PrefixedId", "TypeId", "KSUID", "ObjectId", "XID"]

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_B32HEX = "0123456789ABCDEFGHIJKLMNOPQRSTUV"  # int(x, 32)'s digits, in the same order
# ASCII only, as the server reads text: both cases spelt out, no re.IGNORECASE,
# which in a str pattern also matches U+212A (Kelvin) for K, U+017F (long s)
# for S and U+0130/U+0131 (dotted and dotless I) for I.
_ULID_TEXT = re.compile(r"[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}")
_TYPEID_SUFFIX = re.compile(r"[0-7][0-9a-hjkmnp-tv-z]{25}")
_PREFIX = re.compile(r"[a-z](?:[a-z_]{0,61}[a-z])?")
_BASE36_BODY = re.compile(r"[0-9A-Za-z]{25}")
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"
_BASE36_MAX = "f5lxx1zz5pnorynqglhzmsp33"  # 2**128 - 1
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_set = object.__setattr__  # the value classes refuse their own __setattr__
_new = object.__new__


_PAIRS = [a + b for a in CROCKFORD for b in CROCKFORD]  # 10 bits -> 2 characters
_SHIFTS = tuple(range(120, -1, -10))  # 13 chunks of 10 bits: 130 bits, the first 2 zero
_FROM_CROCKFORD = str.maketrans(CROCKFORD + CROCKFORD.lower(), _B32HEX + _B32HEX)


def b32_text(bits):
    """16 bytes as 26 Crockford base32 characters (uppercase)."""
    n = int.from_bytes(bits, "big")
    return "".join([_PAIRS[(n >> s) & 1023] for s in _SHIFTS])


def b32_bits(text):
    """26 Crockford characters (checked by the caller) as 16 bytes: the
    characters mapped to int()'s base-32 digits, which are in the same order."""
    return int(text.translate(_FROM_CROCKFORD), 32).to_bytes(16, "big")


_B36_TRIPLES = None


def b36_text(bits):
    """16 bytes as 25 base36 digits, zero-padded."""
    global _B36_TRIPLES
    if _B36_TRIPLES is None:
        _B36_TRIPLES = [a + b + c for a in _BASE36 for b in _BASE36 for c in _BASE36]
    n = int.from_bytes(bits, "big")
    parts = []
    for _ in range(9):
        n, r = divmod(n, 46656)
        parts.append(_B36_TRIPLES[r])
    parts.reverse()
    return "".join(parts)[2:]


def _bits_of(value):
    """The 16 bytes of a uuid.UUID, 16 bytes, or any object with .bytes (python-ulid)."""
    if isinstance(value, uuid.UUID):
        return value.bytes
    if isinstance(value, (bytes, bytearray, memoryview)):
        value = bytes(value)
        if len(value) != 16:
            raise ValueError("128 bits are 16 bytes, not %d" % len(value))
        return value
    bits = getattr(value, "bytes", None)
    if isinstance(bits, bytes) and len(bits) == 16:
        return bits
    raise TypeError("cannot take 128 bits from %s" % type(value).__name__)


def _ms_time(bits):
    ms = int.from_bytes(bits[:6], "big")
    return _EPOCH + timedelta(milliseconds=ms)


def _v7_time(bits):
    """The millisecond of UUIDv7 bits, None when version or variant are not v7's."""
    if bits[6] >> 4 != 7 or bits[8] >> 6 != 2:
        return None
    return _ms_time(bits)


class _Ordered:
    """Immutable, hashable, ordered by _key(), pickled and validated as text."""

    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError("%s is immutable" % type(self).__name__)

    __delattr__ = __setattr__

    @property
    def int(self):
        return int.from_bytes(self.bytes, "big")

    def __hash__(self):
        return hash((type(self), self._key()))

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._key() >= other._key()

    def __repr__(self):
        return "%s(%r)" % (type(self).__name__, str(self))

    def __reduce__(self):
        return (type(self), (str(self),))

    @classmethod
    def __get_pydantic_core_schema__(cls, source, handler):
        """pydantic 2 (and SQLModel): validated from the text or a value, serialized as text."""
        from pydantic_core import core_schema
        return core_schema.no_info_plain_validator_function(
            lambda value: value if isinstance(value, cls) else cls(value),
            serialization=core_schema.to_string_ser_schema())


class _Value(_Ordered):
    """A value holding 128 bits."""

    __slots__ = ()

    def to_uuid(self):
        """The 128 bits as a uuid.UUID."""
        return uuid.UUID(bytes=self.bytes)


class ULID(_Value):
    """A ulid: 128 bits, text of 26 uppercase Crockford base32 characters.

    ULID(x) takes the text (either case), a ULID, a uuid.UUID, 16 bytes or
    python-ulid's ULID (anything with 16 .bytes)."""

    __slots__ = ("bytes", "_text")

    def __init__(self, value):
        if isinstance(value, ULID):
            bits, text = value.bytes, getattr(value, "_text", None)
        elif isinstance(value, str):
            if not _ULID_TEXT.fullmatch(value):
                raise ValueError("invalid ULID text: %r" % (value,))
            bits, text = b32_bits(value), None
        else:
            bits, text = _bits_of(value), None
        _set(self, "bytes", bits)
        if text is not None:
            _set(self, "_text", text)

    @classmethod
    def from_bytes(cls, bits):
        """From 16 bytes (the binary format), unchecked but for the length."""
        if len(bits) != 16:
            raise ValueError("a ulid is 16 bytes, not %d" % len(bits))
        self = _new(cls)
        _set(self, "bytes", bytes(bits))
        return self

    @classmethod
    def from_uuid(cls, value):
        """From a uuid.UUID's 128 bits (the server's uuid::ulid cast)."""
        if not isinstance(value, uuid.UUID):
            raise TypeError("ULID.from_uuid takes a uuid.UUID, not %s" % type(value).__name__)
        return cls.from_bytes(value.bytes)

    @classmethod
    def from_text(cls, text):
        """From the server's text (trusted: not checked)."""
        self = _new(cls)
        _set(self, "bytes", b32_bits(text))
        return self

    def _key(self):
        return self.bytes

    def __str__(self):
        try:
            return self._text
        except AttributeError:
            _set(self, "_text", b32_text(self.bytes))
            return self._text

    @property
    def timestamp_ms(self):
        """The 48-bit millisecond count since 1970 (what ulid_time() reads)."""
        return int.from_bytes(self.bytes[:6], "big")

    @property
    def time(self):
        """The millisecond as an aware UTC datetime (ulid_time()); years after
        9999 do not fit Python's datetime and raise OverflowError."""
        return _ms_time(self.bytes)


class _Prefixed(_Value):
    __slots__ = ("prefix", "bytes", "_text")
    _empty_prefix = False

    def __init__(self, value, bits=None):
        """(text) or (prefix, 128 bits as a uuid.UUID, 16 bytes, a ULID...)."""
        if bits is None:
            if isinstance(value, type(self)):
                prefix, bits = value.prefix, value.bytes
            elif isinstance(value, str):
                prefix, bits = self._parse(value)
            else:
                raise TypeError("%s takes its text, or a prefix and 128 bits" % type(self).__name__)
        else:
            prefix = value
            if not isinstance(prefix, str) or not (
                    _PREFIX.fullmatch(prefix) or (prefix == "" and self._empty_prefix)):
                raise ValueError("invalid %s prefix: %r" % (type(self).__name__, prefix))
            bits = _bits_of(bits)
        _set(self, "prefix", prefix)
        _set(self, "bytes", bits)

    @classmethod
    def _new(cls, prefix, bits):
        self = _new(cls)
        _set(self, "prefix", prefix)
        _set(self, "bytes", bits)
        return self

    @classmethod
    def from_binary(cls, data):
        """From the binary format: a length byte L, L prefix characters, 16 bytes;
        the prefix is checked as the server's recv checks it."""
        n = data[0] if data else -1
        if len(data) != n + 17 or n > 63 or (n == 0 and not cls._empty_prefix):
            raise ValueError("badly framed %s binary value (%d bytes)" % (cls.__name__, len(data)))
        prefix = str(data[1:1 + n], "ascii", "replace")
        if n and not _PREFIX.fullmatch(prefix):
            raise ValueError("invalid %s prefix in a binary value: %r" % (cls.__name__, prefix))
        self = _new(cls)
        _set(self, "prefix", prefix)
        _set(self, "bytes", bytes(data[1 + n:]))
        return self

    def to_binary(self):
        """The binary format (what *_send writes)."""
        return bytes((len(self.prefix),)) + self.prefix.encode("ascii") + self.bytes

    def _key(self):
        return (self.prefix, self.bytes)

    def __str__(self):
        try:
            return self._text
        except AttributeError:
            _set(self, "_text", self._format())
            return self._text

    @property
    def time(self):
        """The millisecond of UUIDv7 bits as an aware UTC datetime, None for other bits."""
        return _v7_time(self.bytes)


class PrefixedId(_Prefixed):
    """A prefixed_id: prefix, '_', 25 base36 digits.

    PrefixedId("acct_039srkj01e44uynszf2f2njh3"), or PrefixedId(prefix, bits)
    with the bits as a uuid.UUID, 16 bytes or a ULID."""

    __slots__ = ()

    @staticmethod
    def _parse(text):
        prefix, _, body = text.rpartition("_")
        if not _PREFIX.fullmatch(prefix) or not _BASE36_BODY.fullmatch(body) or body.lower() > _BASE36_MAX:
            raise ValueError("invalid prefixed_id text: %r" % (text,))
        return prefix, int(body, 36).to_bytes(16, "big")

    @classmethod
    def from_text(cls, text):
        """From the server's text (trusted: not checked)."""
        prefix, _, body = text.rpartition("_")
        return cls._new(prefix, int(body, 36).to_bytes(16, "big"))

    def _format(self):
        return "%s_%s" % (self.prefix, b36_text(self.bytes))


class TypeId(_Prefixed):
    """A typeid: prefix, '_', 26 lowercase base32 characters; the empty
    prefix is written without the '_'.

    TypeId("user_01h455vb4pex5vsknk084sn02q"), or TypeId(prefix, bits)."""

    __slots__ = ()
    _empty_prefix = True

    @staticmethod
    def _parse(text):
        prefix, sep, suffix = text.rpartition("_")
        if (sep and not _PREFIX.fullmatch(prefix)) or not _TYPEID_SUFFIX.fullmatch(suffix):
            raise ValueError("invalid typeid text: %r" % (text,))
        return prefix, b32_bits(suffix)

    @classmethod
    def from_text(cls, text):
        """From the server's text (trusted: not checked)."""
        prefix, _, suffix = text.rpartition("_")
        return cls._new(prefix, b32_bits(suffix))

    def _format(self):
        suffix = b32_text(self.bytes).lower()
        return "%s_%s" % (self.prefix, suffix) if self.prefix else suffix


# KSUID, ObjectId and XID: raw bytes, most significant first, whose first 4
# bytes are big-endian seconds (the vectors file's layouts).
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_BASE62_VALUE = {c: i for i, c in enumerate(BASE62)}
_BASE62_PAIRS = None
_KSUID_TEXT = re.compile(r"[0-9A-Za-z]{27}")
KSUID_EPOCH = datetime(2014, 5, 13, 16, 53, 20, tzinfo=timezone.utc)  # Unix second 1,400,000,000
_OBJECTID_TEXT = re.compile(r"[0-9A-Fa-f]{24}")
_XID_TEXT = re.compile(r"[0-9a-v]{19}[0g]")  # the last character holds 1 bit and 4 zero bits
_B32HEX_PAIRS = [a + b for a in _B32HEX.lower() for b in _B32HEX.lower()]


def base62_text(bits):
    """20 bytes as 27 base62 digits, zero-padded."""
    global _BASE62_PAIRS
    if _BASE62_PAIRS is None:
        _BASE62_PAIRS = [a + b for a in BASE62 for b in BASE62]
    n = int.from_bytes(bits, "big")
    parts = []
    for _ in range(14):  # 28 digits, the first always 0
        n, r = divmod(n, 3844)
        parts.append(_BASE62_PAIRS[r])
    parts.reverse()
    return "".join(parts)[1:]


def base62_bits(text):
    """27 base62 digits (checked by the caller) as 20 bytes; OverflowError past 2**160 - 1."""
    n = 0
    for c in text:
        n = n * 62 + _BASE62_VALUE[c]
    return n.to_bytes(20, "big")


def xid_text(bits):
    """12 bytes as 20 lowercase base32hex characters (96 bits and 4 zero bits)."""
    n = int.from_bytes(bits, "big") << 4
    return "".join([_B32HEX_PAIRS[(n >> s) & 1023] for s in range(90, -1, -10)])


def xid_bits(text):
    """20 base32hex characters (checked by the caller) as 12 bytes."""
    return (int(text, 32) >> 4).to_bytes(12, "big")


class _Raw(_Ordered):
    """An ID of `size` raw bytes, ordered as its bytes (and as the server orders it).

    Subclasses give name (in messages), size, _parse(text) -> bytes or None,
    _format(bytes) -> text, and _foreign(value) -> bytes or None for another
    library's value of the format."""

    __slots__ = ("bytes", "_text")
    name = size = None

    def __init__(self, value):
        if isinstance(value, type(self)):
            bits = value.bytes
        elif isinstance(value, str):
            bits = self._parse(value)
            if bits is None:
                raise ValueError("invalid %s text: %r" % (self.name, value))
        elif isinstance(value, (bytes, bytearray, memoryview)):
            bits = bytes(value)
            if len(bits) != self.size:
                raise ValueError("a %s is %d bytes, not %d" % (self.name, self.size, len(bits)))
        else:
            bits = self._foreign(value)
            if bits is None:
                raise TypeError("cannot make a %s of %s" % (self.name, type(value).__name__))
        _set(self, "bytes", bits)

    @classmethod
    def _foreign(cls, value):
        return None

    @classmethod
    def from_bytes(cls, bits):
        """From the binary format (the raw bytes), unchecked but for the length."""
        if len(bits) != cls.size:
            raise ValueError("a %s is %d bytes, not %d" % (cls.name, cls.size, len(bits)))
        self = _new(cls)
        _set(self, "bytes", bytes(bits))
        return self

    @classmethod
    def from_text(cls, text):
        """From the server's text (trusted: not checked)."""
        self = _new(cls)
        _set(self, "bytes", cls._decode(text))
        return self

    def _key(self):
        return self.bytes

    def __str__(self):
        try:
            return self._text
        except AttributeError:
            _set(self, "_text", self._format(self.bytes))
            return self._text

    @property
    def unix_s(self):
        """The Unix second the ID carries (a KSUID's 4 bytes count from second 1,400,000,000)."""
        return int.from_bytes(self.bytes[:4], "big") + self._epoch_s

    @property
    def time(self):
        """The second the ID carries, as an aware UTC datetime (*_time() of the server)."""
        return _EPOCH + timedelta(seconds=self.unix_s)


class KSUID(_Raw):
    """A ksuid: 20 bytes (4 of seconds since 2014-05-13 16:53:20 UTC, 16 of
    payload), text of 27 base62 characters (case matters).

    KSUID(x) takes the text, a KSUID, 20 bytes, or svix-ksuid's Ksuid (any
    object whose bytes() are 20 bytes)."""

    __slots__ = ()
    name, size, _epoch_s = "KSUID", 20, 1400000000

    @staticmethod
    def _parse(text):
        if not _KSUID_TEXT.fullmatch(text):
            return None
        try:
            return base62_bits(text)
        except OverflowError:  # above aWgEPTl1tmebfsQzFP4bxwgy80V
            return None

    _decode = staticmethod(base62_bits)
    _format = staticmethod(base62_text)

    @classmethod
    def _foreign(cls, value):
        if isinstance(value, (int, str)) or not hasattr(type(value), "__bytes__"):
            return None
        bits = bytes(value)
        return bits if len(bits) == 20 else None

    @property
    def payload(self):
        """The 16 bytes after the seconds (ksuid_payload())."""
        return self.bytes[4:]


class ObjectId(_Raw):
    """An objectid: 12 bytes (4 of Unix seconds, 5 of a process value, 3 of a
    counter), text of 24 hex digits (read in either case, written lowercase).

    ObjectId(x) takes the text, an ObjectId, 12 bytes, or PyMongo's
    bson.ObjectId (any object whose .binary is 12 bytes); bson.ObjectId(oid.bytes)
    is the way back."""

    __slots__ = ()
    name, size, _epoch_s = "ObjectId", 12, 0

    @staticmethod
    def _parse(text):
        return bytes.fromhex(text) if _OBJECTID_TEXT.fullmatch(text) else None

    _decode = staticmethod(bytes.fromhex)
    _format = staticmethod(bytes.hex)

    @classmethod
    def _foreign(cls, value):
        bits = getattr(value, "binary", None)
        return bits if isinstance(bits, bytes) and len(bits) == 12 else None

    @property
    def process(self):
        """The 5-byte process value (objectid_process())."""
        return self.bytes[4:9]

    @property
    def counter(self):
        """The 24-bit counter (objectid_counter())."""
        return int.from_bytes(self.bytes[9:], "big")


class XID(_Raw):
    """An rsxid (rs/xid's XID): 12 bytes (4 of Unix seconds, 3 of machine id,
    2 of process id, 3 of counter), text of 20 lowercase base32hex characters.

    XID(x) takes the text, an XID or 12 bytes."""

    __slots__ = ()
    name, size, _epoch_s = "XID", 12, 0

    @staticmethod
    def _parse(text):
        return xid_bits(text) if _XID_TEXT.fullmatch(text) else None

    _decode = staticmethod(xid_bits)
    _format = staticmethod(xid_text)

    @property
    def machine(self):
        """The 3-byte machine id (xid_machine())."""
        return self.bytes[4:7]

    @property
    def pid(self):
        """The 16-bit process id (xid_pid())."""
        return int.from_bytes(self.bytes[7:9], "big")

    @property
    def counter(self):
        """The 24-bit counter (xid_counter())."""
        return int.from_bytes(self.bytes[9:], "big")
