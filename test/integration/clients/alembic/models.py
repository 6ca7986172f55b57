"""The application's models: SQLAlchemy 1.4 types for idgen's ulid, prefixed_id
and typeid (and their domains), and three tables keyed by every idgen family.
Migrations (versions/) and the test (app_test.py) import it."""
from sqlalchemy import BigInteger, Column, FetchedValue, ForeignKey, Text, text
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.dialects.postgresql.base import ischema_names
from sqlalchemy.orm import declarative_base
from sqlalchemy.types import UserDefinedType


# README snippet begins
class Ulid(str):
    """A ULID as its 26-character text."""


class PrefixedId(str):
    """A prefixed_id (acct_...) or a typeid (user_...) as its text."""

    @property
    def prefix(self):
        return self.rpartition("_")[0]


class IdgenType(UserDefinedType):
    """An idgen type, or a domain over one: text on the wire (psycopg2 sends
    parameters as untyped literals, which PostgreSQL reads as the column's
    type), a str subclass in Python."""
    cache_ok = True
    base = None
    value_class = str

    def __init__(self, name=None):
        self.name = name or self.base  # a domain's name, or the base type's

    def get_col_spec(self, **kw):
        return self.name

    def bind_processor(self, dialect):
        return lambda value: None if value is None else str(value)

    def result_processor(self, dialect, coltype):
        return lambda value: None if value is None else self.value_class(value)

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r})"


class UlidType(IdgenType):
    cache_ok = True
    base, value_class = "ulid", Ulid


class PrefixedIdType(IdgenType):
    cache_ok = True
    base, value_class = "prefixed_id", PrefixedId


class TypeIdType(IdgenType):
    cache_ok = True
    base, value_class = "typeid", PrefixedId


# Reflection (autogenerate) then knows the base types instead of NullType.
for _type in (UlidType, PrefixedIdType, TypeIdType):
    ischema_names[_type.base] = _type
# README snippet ends


Base = declarative_base()


# README snippet begins
class Account(Base):
    __tablename__ = "accounts"
    __mapper_args__ = {"eager_defaults": True}  # read server defaults back (RETURNING)
    id = Column(UUID(as_uuid=True), primary_key=True, server_default=text("uuid_v7()"))
    # acct_id is prefixed_id_define('acct_id', 'acct'): the domain has the DEFAULT
    public_id = Column(PrefixedIdType("acct_id"), nullable=False, unique=True,
                       server_default=FetchedValue())
    name = Column(Text, nullable=False)


class Order(Base):
    __tablename__ = "orders"
    __mapper_args__ = {"eager_defaults": True}
    id = Column(BigInteger, primary_key=True, server_default=text("snowflake(1)"))
    account_id = Column(UUID(as_uuid=True), ForeignKey("accounts.id"), nullable=False)
    receipt = Column(UlidType(), nullable=False, unique=True, server_default=text("ulid()"))
    note = Column(Text)


class Event(Base):
    __tablename__ = "events"
    __mapper_args__ = {"eager_defaults": True}
    id = Column(BigInteger, primary_key=True, server_default=text("snowflake53(2)"))
    # user_id is typeid_define('user_id', 'user')
    user_ref = Column(TypeIdType("user_id"), nullable=False, server_default=FetchedValue())
    trace = Column(TypeIdType(), nullable=False, server_default=text("typeid_new('trace'::text)"))
    kind = Column(Text, nullable=False)
# README snippet ends


# README snippet begins
def compare_idgen_type(context, inspected_column, metadata_column, inspected_type, metadata_type):
    """autogenerate's compare_type: a column of a domain reflects as its base
    type (acct_id as prefixed_id), so compare idgen types by base type."""
    if isinstance(metadata_type, IdgenType):
        return not isinstance(inspected_type, IdgenType) or inspected_type.base != metadata_type.base
    return None  # Alembic's own comparison


def compare_idgen_default(context, inspected_column, metadata_column,
                          inspected_default, metadata_default, rendered_metadata_default):
    """autogenerate's compare_server_default: a FetchedValue() column's default
    belongs to its domain (reflection reports the domain's DEFAULT), so no diff."""
    if type(metadata_column.server_default) is FetchedValue:
        return False
    return None  # Alembic's own comparison


def autogenerate_options(connection):
    """MigrationContext options for autogenerate, shared by env.py and the test."""
    extension_tables = {name for (name,) in connection.exec_driver_sql(
        "SELECT c.relname FROM pg_depend d JOIN pg_class c ON c.oid = d.objid"
        " WHERE d.classid = 'pg_class'::regclass AND d.deptype = 'e'")}
    return {
        "compare_type": compare_idgen_type,
        "compare_server_default": compare_idgen_default,
        # the extension's own tables (prefixed_id_registry...) are not the app's
        "include_name": lambda name, type_, parents: not (
            type_ == "table" and name in extension_tables),
    }
# README snippet ends
