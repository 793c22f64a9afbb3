"""games and presets: keep only the digests of their tokens (issue 12, "At rest")

A leaked backup must give no write access, so no capability token stays in the database:
the games' edit_token and view_token and the presets' edit_token columns go. Games and
presets are looked up by the tokens' SHA-256 digests (the games' digests exist since
b1d3e5f7a9c2; the presets get theirs here, computed from their tokens).

A new game's view token is derived from its edit token (scorepad.tokens.derive_token), so
the scorer's page computes the view link again. A game stored before has a random view token
its players already have (boards on screens, printed QR codes): it stays valid (its digest is
kept) and is sealed with a key from the game's edit token into view_sealed
(scorepad.services.games.seal_view_token), so only the holder of the edit token sees it again.

Downgrading cannot give the tokens back: they are gone. It refuses while games or presets are
stored (the code of the revision before would fail on every one of their links); restore the
backup taken before upgrading instead. An empty database downgrades.

Revision ID: a9c1e3f5b7d9
Revises: a3c5e7f9b1d2
Create Date: 2026-11-30 23:00:00

"""

import hashlib

import sqlalchemy as sa
from alembic import op

from scorepad.services.games import seal_view_token

# revision identifiers, used by Alembic.
revision = "a9c1e3f5b7d9"
down_revision = "a3c5e7f9b1d2"
branch_labels = None
depends_on = None


def digest(token):
    return hashlib.sha256(token.encode()).hexdigest()


games = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("edit_token", sa.String),
    sa.column("view_token", sa.String),
    sa.column("view_sealed", sa.String),
)
presets = sa.table(
    "presets",
    sa.column("id", sa.Integer),
    sa.column("edit_token", sa.String),
    sa.column("edit_digest", sa.String),
)


def upgrade():
    connection = op.get_bind()
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("view_sealed", sa.String(length=200), nullable=True))
    for game_id, edit_token, view_token in connection.execute(
        sa.select(games.c.id, games.c.edit_token, games.c.view_token)
    ).all():
        sealed = seal_view_token(edit_token, view_token)
        connection.execute(games.update().where(games.c.id == game_id).values(view_sealed=sealed))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_view_token"))
        batch_op.drop_index(batch_op.f("ix_games_edit_token"))
        batch_op.drop_column("view_token")
        batch_op.drop_column("edit_token")

    with op.batch_alter_table("presets", schema=None) as batch_op:
        batch_op.add_column(sa.Column("edit_digest", sa.String(length=64), nullable=True))
    for preset_id, edit_token in connection.execute(sa.select(presets.c.id, presets.c.edit_token)).all():
        connection.execute(presets.update().where(presets.c.id == preset_id).values(edit_digest=digest(edit_token)))
    with op.batch_alter_table("presets", schema=None) as batch_op:
        batch_op.alter_column("edit_digest", existing_type=sa.String(length=64), nullable=False)
        batch_op.create_index(batch_op.f("ix_presets_edit_digest"), ["edit_digest"], unique=True)
        batch_op.drop_index(batch_op.f("ix_presets_edit_token"))
        batch_op.drop_column("edit_token")


def downgrade():
    connection = op.get_bind()
    stored = sum(connection.scalar(sa.select(sa.func.count()).select_from(table)) or 0 for table in (games, presets))
    if stored:
        raise RuntimeError(
            f"cannot downgrade below {revision}: the database keeps only digests of the tokens of its "
            f"{stored} games and presets, and the revision before needs the tokens themselves (every link "
            "would fail). Restore the backup taken before upgrading instead."
        )
    with op.batch_alter_table("presets", schema=None) as batch_op:
        batch_op.add_column(sa.Column("edit_token", sa.String(length=64), nullable=False))
        batch_op.create_index(batch_op.f("ix_presets_edit_token"), ["edit_token"], unique=True)
        batch_op.drop_index(batch_op.f("ix_presets_edit_digest"))
        batch_op.drop_column("edit_digest")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("edit_token", sa.String(length=64), nullable=False))
        batch_op.add_column(sa.Column("view_token", sa.String(length=64), nullable=False))
        batch_op.create_index(batch_op.f("ix_games_edit_token"), ["edit_token"], unique=True)
        batch_op.create_index(batch_op.f("ix_games_view_token"), ["view_token"], unique=True)
        batch_op.drop_column("view_sealed")
