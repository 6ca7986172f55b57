"""SQLAlchemy 2 with idgen.sqlalchemy and idgen.alembic: the ORM on
postgresql+psycopg and postgresql+asyncpg, and autogenerate with no
difference after the tables were built (and with one when a DEFAULT or type
changes). SQLModel on the same types, where it is installed."""
import asyncio
import uuid

import pytest
import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from idgen.sqlalchemy import KSUID, XID, ObjectId, ksuid_default, objectid_default, xid_default

from idgen import KSUID as KsuidValue, ObjectId as ObjectIdValue, XID as XidValue
from idgen import ULID as UlidValue, PrefixedId as PrefixedIdValue, TypeId as TypeIdValue
# README snippet begins
from idgen.sqlalchemy import (ULID, PrefixedId, Snowflake, TypeId, domain_default, snowflake_default,
                              typeid_default, ulid_default, uuid_v7_default)


class Base(DeclarativeBase):
    pass


class Account(Base):
    __tablename__ = "accounts"
    __mapper_args__ = {"eager_defaults": True}  # read the server's DEFAULTs back (RETURNING)
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
    trace: Mapped[TypeIdValue] = mapped_column(TypeId(), server_default=typeid_default("trace"))
# README snippet ends


class Import(Base):
    __tablename__ = "imports"
    __mapper_args__ = {"eager_defaults": True}
    id: Mapped[KsuidValue] = mapped_column(KSUID(), primary_key=True, server_default=ksuid_default())
    mongo_id: Mapped[ObjectIdValue] = mapped_column(ObjectId(), unique=True, server_default=objectid_default())
    trace: Mapped[XidValue] = mapped_column(XID(), server_default=xid_default())


@pytest.fixture(scope="module")
def url(dbname):
    engine = sa.create_engine("postgresql+psycopg:///" + dbname)
    with engine.begin() as conn:
        conn.exec_driver_sql("SELECT prefixed_id_define('acct_id', 'acct')")
        Base.metadata.create_all(conn)
    engine.dispose()
    return dbname


def test_orm_on_psycopg(url):
    engine = sa.create_engine("postgresql+psycopg:///" + url)
    with Session(engine) as session:
        account = Account(name="Ada")
        session.add(account)
        session.flush()
        order = Order(account_id=account.id)
        session.add(order)
        session.flush()
        assert isinstance(account.public_id, PrefixedIdValue) and account.public_id.prefix == "acct"
        assert isinstance(order.receipt, UlidValue) and isinstance(order.trace, TypeIdValue)
        assert order.id >= 1 << 53
        assert session.scalars(sa.select(Order).where(Order.receipt == order.receipt)).one() is order
        assert session.scalars(sa.select(Order).where(Order.receipt == str(order.receipt))).one() is order
        assert session.scalars(sa.select(Order).where(Order.receipt == order.receipt.to_uuid())).one() is order
        got = session.scalars(sa.select(Account).where(Account.public_id == str(account.public_id))).one()
        assert got is account
        session.commit()
    engine.dispose()


def test_readme_session(url):
    engine = sa.create_engine("postgresql+psycopg:///" + url)
    # README python begins
    with Session(engine) as session:
        account = Account(name="Ada")
        session.add(account)
        session.flush()  # INSERT ... RETURNING: the server's DEFAULTs come back (eager_defaults)
        order = Order(account_id=account.id)
        session.add(order)
        session.commit()
        found = session.scalars(sa.select(Order).where(Order.receipt == order.receipt)).one()
        assert found is order and isinstance(order.receipt, UlidValue)
    # README python ends
    engine.dispose()


def test_orm_on_asyncpg(url):
    from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine

    async def main():
        engine = create_async_engine("postgresql+asyncpg:///" + url)
        async with AsyncSession(engine, expire_on_commit=False) as session:
            account = Account(name="Bo")
            session.add(account)
            await session.flush()
            order = Order(account_id=account.id, trace=TypeIdValue("trace", uuid.uuid4()))
            session.add(order)
            await session.flush()
            found = (await session.scalars(sa.select(Order).where(Order.receipt == order.receipt))).one()
            await session.commit()
        await engine.dispose()
        return account, order, found
    account, order, found = asyncio.run(main())
    assert isinstance(account.public_id, PrefixedIdValue) and isinstance(order.receipt, UlidValue)
    assert found is order


@pytest.mark.parametrize("driver", ["psycopg", "psycopg2", "asyncpg"])
def test_ksuid_objectid_xid_on_each_driver(url, driver):
    import bson
    import ksuid
    theirs, their_ksuid = bson.ObjectId(), ksuid.Ksuid()

    def add(session):
        minted = Import()
        given = Import(id=their_ksuid, mongo_id=theirs)  # the other libraries' values
        session.add_all([minted, given])
        return minted, given

    def queries(minted, given):
        return (sa.select(Import.id).where(Import.id.in_([minted.id, str(given.id)]), Import.mongo_id != theirs),
                sa.select(Import.id).where(Import.mongo_id.in_([theirs, minted.mongo_id])).order_by(Import.id))

    def seen(minted, given, found, both):
        return (minted.id, minted.mongo_id, minted.trace, str(given.id), str(given.mongo_id), found, both)

    if driver == "asyncpg":
        from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine

        async def main():
            engine = create_async_engine("postgresql+asyncpg:///" + url)
            async with AsyncSession(engine) as session:
                minted, given = add(session)
                await session.flush()
                found, both = [(await session.scalars(q)).all() for q in queries(minted, given)]
                result = seen(minted, given, found, both)
                await session.rollback()
            await engine.dispose()
            return result
        result = asyncio.run(main())
    else:
        engine = sa.create_engine("postgresql+%s:///%s" % (driver, url))
        with Session(engine) as session:
            minted, given = add(session)
            session.flush()
            found, both = [session.scalars(q).all() for q in queries(minted, given)]
            result = seen(minted, given, found, both)
            session.rollback()
        engine.dispose()
    k, o, x, given_k, given_o, found, both = result
    assert (type(k), type(o), type(x)) == (KsuidValue, ObjectIdValue, XidValue)
    assert (given_k, given_o) == (str(their_ksuid), str(theirs))
    assert found == [k] and both == sorted([k, KsuidValue(given_k)])


def test_bad_parameter_is_refused_before_sending(url):
    engine = sa.create_engine("postgresql+psycopg:///" + url)
    with Session(engine) as session:
        with pytest.raises(sa.exc.StatementError, match="invalid ULID text"):
            session.scalars(sa.select(Order).where(Order.receipt == "nope")).all()
        with pytest.raises(sa.exc.StatementError, match="invalid XID text"):
            session.scalars(sa.select(Import).where(Import.trace == "9M4E2MR0UI3E8A215N4G")).all()
    engine.dispose()


def _diff(url, metadata):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from idgen.alembic import autogenerate_options
    engine = sa.create_engine("postgresql+psycopg:///" + url)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts=autogenerate_options(conn))
        diff = compare_metadata(context, metadata)
    engine.dispose()
    return diff


def test_autogenerate_finds_no_difference(url):
    assert _diff(url, Base.metadata) == []


def test_autogenerate_finds_a_changed_default_and_type(url):
    changed = sa.MetaData()
    for table in Base.metadata.tables.values():
        table.to_metadata(changed)
    orders = changed.tables["orders"]
    orders.c.trace.server_default = sa.schema.DefaultClause(typeid_default("span"))
    orders.c.receipt.type = TypeId()
    kinds = sorted(d[0][0] if isinstance(d, list) else d[0] for d in _diff(url, changed))
    assert kinds == ["modify_default", "modify_type"]
    # objectid and rsxid are both 12 bytes, and still two types
    imports = changed.tables["imports"]
    imports.c.trace.type = ObjectId()
    kinds = sorted(d[0][0] if isinstance(d, list) else d[0] for d in _diff(url, changed))
    assert kinds == ["modify_default", "modify_type", "modify_type"]


def test_sqlmodel(url):
    sqlmodel = pytest.importorskip("sqlmodel", reason="SQLModel is in the newest set only")
    from sqlmodel import Field, SQLModel

    class Ticket(SQLModel, table=True):
        id: int | None = Field(default=None, primary_key=True)
        ref: UlidValue | None = Field(default=None, sa_type=ULID(),
                                      sa_column_kwargs={"server_default": ulid_default()})

    engine = sa.create_engine("postgresql+psycopg:///" + url)
    SQLModel.metadata.create_all(engine)
    with sqlmodel.Session(engine) as session:
        ticket = Ticket()
        session.add(ticket)
        session.commit()
        session.refresh(ticket)
        assert isinstance(ticket.ref, UlidValue)
        assert session.exec(sqlmodel.select(Ticket).where(Ticket.ref == ticket.ref)).one().id == ticket.id
    engine.dispose()
