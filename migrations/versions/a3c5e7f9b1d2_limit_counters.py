"""limit_counters: atomic counts of games started and presets saved per bucket and window (issue 12)

The limits counted the rows a client had created in the last 24 hours, then created: two
requests at once could both pass the count (610 games of 600). Now each bucket (what, whose,
window length) has one row per fixed window, raised by one atomic INSERT … ON CONFLICT DO
UPDATE in the creation's transaction. Counters start empty: the first day after the upgrade
does not count the games started before it.

Revision ID: a3c5e7f9b1d2
Revises: f6b8d0e2a4c7
Create Date: 2026-11-30 23:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "a3c5e7f9b1d2"
down_revision = "f6b8d0e2a4c7"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "limit_counters",
        sa.Column("bucket", sa.String(length=80), nullable=False),
        sa.Column("window_start", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("window_end", sa.BigInteger(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("bucket", "window_start"),
    )
    with op.batch_alter_table("limit_counters", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_limit_counters_window_end"), ["window_end"], unique=False)


def downgrade():
    with op.batch_alter_table("limit_counters", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_limit_counters_window_end"))
    op.drop_table("limit_counters")
