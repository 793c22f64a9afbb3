"""games: looked up by the SHA-256 digest of their tokens (issue 7)

The edit and view tokens are capabilities. Looking a game up by the token itself lets the
index comparison's timing hint at how much of a guessed token was right; looking it up by
the token's digest does not (scorepad.models.token_digest). Existing games get their
digests computed from their tokens here, so every stored link keeps working.

Revision ID: b1d3e5f7a9c2
Revises: 6376e862baf5
Create Date: 2026-11-29 17:00:00

"""

import hashlib

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b1d3e5f7a9c2"
down_revision = "6376e862baf5"
branch_labels = None
depends_on = None


def digest(token):
    return hashlib.sha256(token.encode()).hexdigest()


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("edit_digest", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("view_digest", sa.String(length=64), nullable=True))

    games = sa.table(
        "games",
        sa.column("id", sa.Integer),
        sa.column("edit_token", sa.String),
        sa.column("view_token", sa.String),
        sa.column("edit_digest", sa.String),
        sa.column("view_digest", sa.String),
    )
    connection = op.get_bind()
    rows = connection.execute(sa.select(games.c.id, games.c.edit_token, games.c.view_token)).all()
    for game_id, edit_token, view_token in rows:
        connection.execute(
            games.update()
            .where(games.c.id == game_id)
            .values(edit_digest=digest(edit_token), view_digest=digest(view_token))
        )

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.alter_column("edit_digest", existing_type=sa.String(length=64), nullable=False)
        batch_op.alter_column("view_digest", existing_type=sa.String(length=64), nullable=False)
        batch_op.create_index(batch_op.f("ix_games_edit_digest"), ["edit_digest"], unique=True)
        batch_op.create_index(batch_op.f("ix_games_view_digest"), ["view_digest"], unique=True)


def downgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_view_digest"))
        batch_op.drop_index(batch_op.f("ix_games_edit_digest"))
        batch_op.drop_column("view_digest")
        batch_op.drop_column("edit_digest")
