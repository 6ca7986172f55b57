"""ULID, PrefixedId and TypeId: immutable values holding idgen's 128 bits
(and a prefix), with the text forms the server reads and writes and the
binary forms of docs/internals.md ("Binary formats")."""

import re
import uuid
from datetime import datetime, timedelta, timezone

__all__ = ["ULID", "PrefixedId", "TypeId"]

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


class _Value:
    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError("%s is immutable" % type(self).__name__)

    __delattr__ = __setattr__

    def to_uuid(self):
        """The 128 bits as a uuid.UUID."""
        return uuid.UUID(bytes=self.bytes)

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
