"""games: the game each was played again as, so that Play again starts one game (issue 13)

Two phones at a table tapping Play again on the same finished game, or one phone's double
tap, started two games and the phones scored different ones. The first rematch's edit token
is now kept on the finished game, sealed with a key from that game's edit token
(scorepad.tokens.seal, purpose "rematch"), in a nullable column: a later Play again opens it.
Games stored before have none.

Revision ID: b8d0f2a4c6e8
Revises: c3e5a7b9d1f4
Create Date: 2026-12-01 03:10:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b8d0f2a4c6e8"
down_revision = "c3e5a7b9d1f4"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rematch_sealed", sa.String(length=200), nullable=True))


def downgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("rematch_sealed")
