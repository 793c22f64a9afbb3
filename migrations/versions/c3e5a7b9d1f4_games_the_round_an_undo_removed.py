"""games: the round the last undo removed, so that it can be put back (issue 13)

After an undo the scorer's page says which round was removed and offers to put it back
until the next save. The removed round (its number and round object, game-format.md) is
kept on the game's row in a nullable JSON column; the next save, edit or undo replaces or
clears it. Games stored before have none.

Revision ID: c3e5a7b9d1f4
Revises: a9c1e3f5b7d9
Create Date: 2026-12-01 02:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "c3e5a7b9d1f4"
down_revision = "a9c1e3f5b7d9"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("undone", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("undone")
