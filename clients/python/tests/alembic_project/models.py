"""The application's models: tables keyed by every idgen family, with
idgen.sqlalchemy's types and DEFAULTs (acct_id and user_id are the domains
of prefixed_id_define() and typeid_define(), whose DEFAULTs the columns take);
imports (revision 0002) holds the ksuid, objectid and rsxid columns."""
import uuid

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from idgen import KSUID as KsuidValue, ObjectId as ObjectIdValue, XID as XidValue
from idgen import ULID as UlidValue, PrefixedId as PrefixedIdValue, TypeId as TypeIdValue
from idgen.sqlalchemy import (ULID, PrefixedId, Snowflake, TypeId, domain_default, snowflake53_default,
                              snowflake_default, typeid_default, ulid_default, uuid_v7_default)


class Base(DeclarativeBase):
    pass


class Account(Base):
    __tablename__ = "accounts"
    __mapper_args__ = {"eager_defaults": True}
    id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True, server_default=uuid_v7_default())
    public_id: Mapped[PrefixedIdValue] = mapped_column(PrefixedId("acct_id"), unique=True,
                                                       server_default=domain_default())
    name: Mapped[str]


class Order(Base):
    __tablename__ = "orders"
    __mapper_args__ = {"eager_defaults": True}
    id: Mapped[int] = mapped_column(Snowflake, primary_key=True, server_default=snowflake_default(1))
    account_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("accounts.id"))
    receipt: Mapped[UlidValue] = mapped_column(ULID(), unique=True, server_default=ulid_default())
    note: Mapped[str | None] = mapped_column(sa.Text)


class Event(Base):
    __tablename__ = "events"
    __mapper_args__ = {"eager_defaults": True}
    id: Mapped[int] = mapped_column(Snowflake, primary_key=True, server_default=snowflake53_default(2))
    user_ref: Mapped[TypeIdValue] = mapped_column(TypeId("user_id"), server_default=domain_default())
    trace: Mapped[TypeIdValue] = mapped_column(TypeId(), server_default=typeid_default("trace"))
    kind: Mapped[str]


# README python begins
from idgen.sqlalchemy import KSUID, XID, ObjectId, ksuid_default, objectid_default, xid_default


class Import(Base):
    __tablename__ = "imports"
    __mapper_args__ = {"eager_defaults": True}
    id: Mapped[KsuidValue] = mapped_column(KSUID(), primary_key=True, server_default=ksuid_default())
    mongo_id: Mapped[ObjectIdValue] = mapped_column(ObjectId(), unique=True, server_default=objectid_default())
    trace: Mapped[XidValue] = mapped_column(XID(), server_default=xid_default())  # the rsxid type
    order_id: Mapped[int | None] = mapped_column(Snowflake, sa.ForeignKey("orders.id"))
# README python ends
