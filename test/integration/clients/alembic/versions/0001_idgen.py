"""idgen, its per-entity types, and tables keyed by every family

Revision ID: 0001
Revises:
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from models import PrefixedIdType, TypeIdType, UlidType

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    # README snippet begins
    # idgen is trusted: the database owner creates it, in this migration's transaction
    op.execute("CREATE EXTENSION IF NOT EXISTS idgen")
    op.execute("SELECT prefixed_id_define('acct_id', 'acct')")
    op.execute("SELECT typeid_define('user_id', 'user')")
    op.create_table(
        "accounts",
        sa.Column("id", postgresql.UUID(as_uuid=True), primary_key=True,
                  server_default=sa.text("uuid_v7()")),
        sa.Column("public_id", PrefixedIdType("acct_id"), nullable=False, unique=True),
        sa.Column("name", sa.Text(), nullable=False),
    )
    op.create_table(
        "orders",
        sa.Column("id", sa.BigInteger(), primary_key=True, server_default=sa.text("snowflake(1)")),
        sa.Column("account_id", postgresql.UUID(as_uuid=True), sa.ForeignKey("accounts.id"),
                  nullable=False),
        sa.Column("receipt", UlidType(), nullable=False, unique=True,
                  server_default=sa.text("ulid()")),
        sa.Column("note", sa.Text()),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.BigInteger(), primary_key=True,
                  server_default=sa.text("snowflake53(2)")),
        sa.Column("user_ref", TypeIdType("user_id"), nullable=False),
        sa.Column("trace", TypeIdType(), nullable=False,
                  server_default=sa.text("typeid_new('trace'::text)")),
        sa.Column("kind", sa.Text(), nullable=False),
    )
    # README snippet ends


def downgrade():
    op.drop_table("events")
    op.drop_table("orders")
    op.drop_table("accounts")
    op.execute("DROP DOMAIN user_id")
    op.execute("DROP DOMAIN acct_id")
    op.execute("DROP EXTENSION idgen")
