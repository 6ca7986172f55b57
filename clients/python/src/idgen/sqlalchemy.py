"""SQLAlchemy 2: column types and server_default helpers.

    from idgen.sqlalchemy import ULID, PrefixedId, TypeId, KSUID, ObjectId, XID, Snowflake, ulid_default, ...

    id = mapped_column(UUID, primary_key=True, server_default=uuid_v7_default())
    ref = mapped_column(ULID(), server_default=ulid_default())
    public_id = mapped_column(PrefixedId("acct_id", prefix="acct"), server_default=FetchedValue())  # the domain's DEFAULT

ULID(), PrefixedId(name=None, prefix=None, token=False), TypeId(name=None,
prefix=None), KSUID(), ObjectId() and XID() (the rsxid type) are the types
(name: a domain of prefixed_id_define()/typeid_define(), whose arguments
prefix and token are, or of CREATE DOMAIN); values are the
idgen value classes of the same names, and parameters may also be their text
(and a uuid.UUID for ULID, a bson.ObjectId for ObjectId, svix-ksuid's Ksuid
for KSUID). They work on postgresql+psycopg (psycopg 3),
postgresql+psycopg2 and postgresql+asyncpg, in the text each driver uses by
default, and with the drivers' idgen registrations too. Importing the module
makes reflection know the six types (autogenerate: idgen.alembic)."""

import re

from sqlalchemy import BigInteger, FetchedValue, text
from sqlalchemy.dialects.postgresql.base import ischema_names
from sqlalchemy.types import TypeDecorator, UserDefinedType

from . import _values

__all__ = ["ULID", "PrefixedId", "TypeId", "KSUID", "ObjectId", "XID", "Snowflake", "uuid_v7_default",
           "ulid_default", "snowflake_default", "snowflake53_default", "prefixed_id_default",
           "typeid_default", "ksuid_default", "objectid_default", "xid_default", "domain_default"]

_PREFIX = re.compile(r"[a-z](?:[a-z_]{0,61}[a-z])?")


class IdgenType(UserDefinedType):
    """An idgen type, or a domain over one (name)."""

    cache_ok = True
    base = value_class = None

    def __init__(self, name=None):
        self.name = name or self.base

    def get_col_spec(self, **kw):
        return self.name

    def bind_processor(self, dialect):
        cls = self.value_class

        def process(value):
            if value is None:
                return None
            return str(value if type(value) is cls else cls(value))
        return process

    def result_processor(self, dialect, coltype):
        cls = self.value_class

        def process(value):
            if value is None or type(value) is cls:
                return value
            return cls.from_text(value) if isinstance(value, str) else cls(value)
        return process

    @property
    def python_type(self):
        return self.value_class

    def __repr__(self):
        return "%s(%r)" % (type(self).__name__, self.name) if self.name != self.base else "%s()" % type(self).__name__


class ULID(IdgenType):
    cache_ok = True
    base, value_class = "ulid", _values.ULID


class PrefixedId(IdgenType):
    """prefixed_id, or a domain (name); prefix (and token) say how
    prefixed_id_define() makes that domain, so that Alembic's autogenerate
    writes the call for a database that lacks it (idgen.alembic)."""

    cache_ok = True
    base, value_class = "prefixed_id", _values.PrefixedId

    def __init__(self, name=None, prefix=None, token=False):
        super().__init__(name)
        self.prefix = None if prefix is None else _prefix(prefix)
        self.token = bool(token)


class TypeId(IdgenType):
    """typeid, or a domain (name); prefix says how typeid_define() makes it."""

    cache_ok = True
    base, value_class = "typeid", _values.TypeId

    def __init__(self, name=None, prefix=None):
        super().__init__(name)
        self.prefix = None if prefix is None else _prefix(prefix)


class KSUID(IdgenType):
    cache_ok = True
    base, value_class = "ksuid", _values.KSUID


class ObjectId(IdgenType):
    cache_ok = True
    base, value_class = "objectid", _values.ObjectId


class XID(IdgenType):
    """rsxid, rs/xid's XID (named so in SQL: xid is PostgreSQL's transaction id)."""

    cache_ok = True
    base, value_class = "rsxid", _values.XID


class Snowflake(TypeDecorator):
    """bigint holding a snowflake() or snowflake53() ID (a Python int)."""

    impl = BigInteger
    cache_ok = True


for _type in (ULID, PrefixedId, TypeId, KSUID, ObjectId, XID):
    ischema_names[_type.base] = _type


def _prefix(prefix, empty=False):
    if not (_PREFIX.fullmatch(prefix) or (empty and prefix == "")):
        raise ValueError("invalid prefix: %r" % (prefix,))
    return prefix


# The DEFAULTs are written as PostgreSQL prints them back (pg_get_expr), so that
# autogenerate's comparison of server defaults finds them unchanged.
def uuid_v7_default():
    return text("uuid_v7()")


def ulid_default():
    return text("ulid()")


def ksuid_default():
    return text("ksuid()")


def objectid_default():
    return text("objectid()")


def xid_default():
    return text("xid()")


def snowflake_default(shard=None):
    return text("snowflake()" if shard is None else "snowflake(%d)" % int(shard))


def snowflake53_default(shard=None):
    return text("snowflake53()" if shard is None else "snowflake53(%d)" % int(shard))


def prefixed_id_default(prefix, token=False):
    return text("%s('%s'::text)" % ("prefixed_id_token" if token else "prefixed_id_new", _prefix(prefix)))


def typeid_default(prefix):
    return text("typeid_new('%s'::text)" % _prefix(prefix, empty=True))


def domain_default():
    """The column takes its domain's DEFAULT (prefixed_id_define(), typeid_define());
    INSERT ... RETURNING reads it back with eager_defaults."""
    return FetchedValue()
