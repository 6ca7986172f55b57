"""idgen, its per-entity domains, and tables keyed by every family

Revision ID: 0001
Revises:
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from idgen.sqlalchemy import (ULID, PrefixedId, Snowflake, TypeId, snowflake53_default, snowflake_default,
                              typeid_default, ulid_default, uuid_v7_default)

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    # idgen is trusted: the database owner creates it, in this migration's transaction
    op.execute("CREATE EXTENSION IF NOT EXISTS idgen")
    op.execute("SELECT prefixed_id_define('acct_id', 'acct')")
    op.execute("SELECT typeid_define('user_id', 'user')")
    op.create_table(
        "accounts",
        sa.Column("id", postgresql.UUID(), primary_key=True, server_default=uuid_v7_default()),
        sa.Column("public_id", PrefixedId("acct_id"), nullable=False, unique=True),
        sa.Column("name", sa.String(), nullable=False),
    )
    op.create_table(
        "orders",
        sa.Column("id", Snowflake(), primary_key=True, server_default=snowflake_default(1)),
        sa.Column("account_id", postgresql.UUID(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("receipt", ULID(), nullable=False, unique=True, server_default=ulid_default()),
        sa.Column("note", sa.Text()),
    )
    op.create_table(
        "events",
        sa.Column("id", Snowflake(), primary_key=True, server_default=snowflake53_default(2)),
        sa.Column("user_ref", TypeId("user_id"), nullable=False),
        sa.Column("trace", TypeId(), nullable=False, server_default=typeid_default("trace")),
        sa.Column("kind", sa.String(), nullable=False),
    )


def downgrade():
    op.drop_table("events")
    op.drop_table("orders")
    op.drop_table("accounts")
    op.execute("DROP DOMAIN user_id")
    op.execute("DROP DOMAIN acct_id")
    op.execute("DROP EXTENSION idgen")
