"""SQLAlchemy: a column that refers to a domain key mints nothing. Given the
base type, PrefixedId() or TypeId(), beside its ForeignKey, it has no
DEFAULT: a row that leaves it out fails NOT NULL, and a nullable one reads
NULL. Without a type, SQLAlchemy copies the key's domain type, whose DEFAULT
would mint an ID that matches no row (the reason docs/frameworks.md gives the type)."""
import pytest
import sqlalchemy as sa
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from idgen import PrefixedId as PrefixedIdValue, TypeId as TypeIdValue
from idgen.sqlalchemy import PrefixedId, TypeId, domain_default


class Base(DeclarativeBase):
    pass


class Team(Base):
    __tablename__ = "teams"
    __mapper_args__ = {"eager_defaults": True}
    id: Mapped[PrefixedIdValue] = mapped_column(PrefixedId("team_id"), primary_key=True,
                                                server_default=domain_default())


class Member(Base):
    __tablename__ = "members"
    __mapper_args__ = {"eager_defaults": True}
    id: Mapped[TypeIdValue] = mapped_column(TypeId("member_id"), primary_key=True, server_default=domain_default())


# README snippet begins
class Seat(Base):
    __tablename__ = "seats"
    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    # references take the base type: the domain's DEFAULT would mint a new ID
    team_id: Mapped[PrefixedIdValue] = mapped_column(PrefixedId(), sa.ForeignKey("teams.id"))
    member_id: Mapped[TypeIdValue | None] = mapped_column(TypeId(), sa.ForeignKey("members.id"))
# README snippet ends


class Copied(Base):
    """A ForeignKey alone: SQLAlchemy gives the column the key's type."""
    __tablename__ = "copied"
    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    team_id = mapped_column(sa.ForeignKey("teams.id"), nullable=False)


@pytest.fixture(scope="module")
def engine(dbname):
    engine = sa.create_engine("postgresql+psycopg:///" + dbname)
    with engine.begin() as conn:
        conn.exec_driver_sql("SELECT prefixed_id_define('team_id', 'team')")
        conn.exec_driver_sql("SELECT typeid_define('member_id', 'member')")
        Base.metadata.create_all(conn)
    yield engine
    engine.dispose()


def columns(engine, table):
    with engine.connect() as conn:
        return {name: (type_, default) for name, type_, default in conn.exec_driver_sql(
            "SELECT a.attname, format_type(a.atttypid, a.atttypmod), pg_get_expr(d.adbin, d.adrelid)"
            " FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
            " WHERE a.attrelid = %s::regclass AND a.attnum > 0", (table,))}


def test_a_reference_of_the_base_type_has_no_default(engine):
    assert columns(engine, "seats") == {"id": ("integer", None), "team_id": ("prefixed_id", None),
                                        "member_id": ("typeid", None)}
    # the key columns keep their domains and DEFAULTs
    assert columns(engine, "teams") == {"id": ("team_id", None)}
    with engine.connect() as conn:
        # (qualified with the extension's schema)
        assert conn.exec_driver_sql("SELECT typdefault FROM pg_type WHERE typname = 'team_id'").scalar() \
            .endswith(".prefixed_id_new('team'::text)")


def test_a_reference_left_out_fails_not_null_and_a_nullable_one_reads_null(engine):
    with Session(engine) as session:
        team = Team()
        session.add(team)
        session.flush()
        seat = Seat(id=1, team_id=team.id)
        session.add(seat)
        session.flush()
        assert session.execute(sa.text("SELECT team_id::text, member_id FROM seats WHERE id = 1")).one() \
            == (str(team.id), None)
        session.commit()
    with engine.connect() as conn:
        with pytest.raises(sa.exc.IntegrityError) as refused:
            conn.execute(sa.insert(Seat).values(id=2))
        assert refused.value.orig.sqlstate == "23502"


def test_a_foreign_key_alone_copies_the_domain_and_mints(engine):
    assert columns(engine, "copied")["team_id"] == ("team_id", None)
    with engine.connect() as conn:
        # the domain's DEFAULT fills the left-out column with an ID no team has
        with pytest.raises(sa.exc.IntegrityError) as refused:
            conn.execute(sa.insert(Copied).values(id=1))
        assert refused.value.orig.sqlstate == "23503"
