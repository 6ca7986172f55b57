"""The models of test_alembic_init.py, as README.md shows them: the models.py
beside the env.py of `alembic init`."""
# README python begins
import uuid

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from idgen import PrefixedId as PrefixedIdValue, TypeId as TypeIdValue, ULID as UlidValue
from idgen.sqlalchemy import (ULID, PrefixedId, Snowflake, TypeId, domain_default, snowflake_default,
                              ulid_default, uuid_v7_default)


class Base(DeclarativeBase):
    pass


class Account(Base):
    __tablename__ = "accounts"
    __mapper_args__ = {"eager_defaults": True}
    id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True, server_default=uuid_v7_default())
    # a domain of prefixed_id_define('acct_id', 'acct'): autogenerate writes the call
    public_id: Mapped[PrefixedIdValue] = mapped_column(PrefixedId("acct_id", prefix="acct"), unique=True,
                                                       server_default=domain_default())
    name: Mapped[str]


class Order(Base):
    __tablename__ = "orders"
    __mapper_args__ = {"eager_defaults": True}
    id: Mapped[int] = mapped_column(Snowflake, primary_key=True, server_default=snowflake_default(1))
    account_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("accounts.id"))  # a reference: no DEFAULT
    receipt: Mapped[UlidValue] = mapped_column(ULID(), unique=True, server_default=ulid_default())
    # typeid_define('user_id', 'user')
    placed_by: Mapped[TypeIdValue] = mapped_column(TypeId("user_id", prefix="user"),
                                                   server_default=domain_default())
# README python ends
