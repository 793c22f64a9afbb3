"""rounds: idempotency key of the phone that sent them (issue 6)

A retried save (the phone was offline, or the first answer was lost) carries the same
key: the round stored the first time is returned instead of a second one. Nullable:
rounds saved before, by an edit or without JavaScript have none.

Revision ID: 6376e862baf5
Revises: c7ffeb74ff6d
Create Date: 2026-11-29 14:48:06.946336

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "6376e862baf5"
down_revision = "c7ffeb74ff6d"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(sa.Column("client_key", sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f("ix_rounds_client_key"), ["client_key"], unique=True)


def downgrade():
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rounds_client_key"))
        batch_op.drop_column("client_key")
