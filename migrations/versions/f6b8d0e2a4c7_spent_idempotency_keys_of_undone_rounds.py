"""rounds: the digest of the request that stored them; spent_keys: the keys of undone rounds (issue 11)

A round's idempotency key is stored with the SHA-256 of the request that stored it, so the
same key with another round is refused (422). When a round is undone its key moves to
spent_keys, so a late retry of its save is a 409 instead of the round coming back. Nullable
digest: keys stored before have none and match any request.

Revision ID: f6b8d0e2a4c7
Revises: e5a7c9d1f3b6
Create Date: 2026-11-30 20:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "f6b8d0e2a4c7"
down_revision = "e5a7c9d1f3b6"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(sa.Column("key_digest", sa.String(length=64), nullable=True))
    op.create_table(
        "spent_keys",
        sa.Column("client_key", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("key_digest", sa.String(length=64), nullable=True),
        sa.Column("spent_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("client_key"),
    )
    with op.batch_alter_table("spent_keys", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_spent_keys_game_id"), ["game_id"], unique=False)


def downgrade():
    with op.batch_alter_table("spent_keys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_spent_keys_game_id"))
    op.drop_table("spent_keys")
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_column("key_digest")
