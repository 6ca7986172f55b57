"""imports: ksuid, objectid and rsxid columns

Revision ID: 0002
Revises: 0001
"""
from alembic import op
import sqlalchemy as sa

import idgen.sqlalchemy

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    # the body as autogenerate renders it (test_alembic_workflow.py holds it to that)
    op.create_table('imports',
    sa.Column('id', idgen.sqlalchemy.KSUID(), server_default=sa.text('ksuid()'), nullable=False),
    sa.Column('mongo_id', idgen.sqlalchemy.ObjectId(), server_default=sa.text('objectid()'), nullable=False),
    sa.Column('trace', idgen.sqlalchemy.XID(), server_default=sa.text('xid()'), nullable=False),
    sa.Column('order_id', idgen.sqlalchemy.Snowflake(), nullable=True),
    sa.ForeignKeyConstraint(['order_id'], ['orders.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('mongo_id')
    )


def downgrade():
    op.drop_table('imports')
