"""confirmation and history: round statuses, the confirm token, the append-only history (issue 15)

A game (and a club night, for all its tables) says whether a second phone checks its rounds
(``confirmation``: off, optional, required; existing ones are ``optional``, the default). A game
keeps the digest of its confirm token (``confirm_digest``; the token is derived from the edit
token, so a game stored before gets it when its scorer's page is next opened). Each round has a
``status`` (existing rounds: ``provisional``) and the witness's dispute ``note``.

``history`` is the record of every change (club-format.md "Trust: confirmation and history").
A game stored before with rounds gets one ``import`` entry (by the scorer, at its last change)
holding its rounds as they are, with a note saying the history starts there: replaying a game's
history then gives its rounds for every game, old or new.

Revision ID: e7a9c1d3f5b8
Revises: d2f4a6c8e0b3
Create Date: 2026-12-01 08:30:00

"""

from collections import defaultdict

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e7a9c1d3f5b8"
down_revision = "d2f4a6c8e0b3"
branch_labels = None
depends_on = None

#: The note of the entry that starts the history of a game stored before it was kept.
BEFORE_HISTORY = "rounds recorded before the history was kept"


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("confirmation", sa.String(length=10), server_default="optional", nullable=False))
        batch_op.add_column(sa.Column("confirm_digest", sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f("ix_games_confirm_digest"), ["confirm_digest"], unique=True)
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(sa.Column("status", sa.String(length=12), server_default="provisional", nullable=False))
        batch_op.add_column(sa.Column("note", sa.String(length=200), nullable=True))
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("confirmation", sa.String(length=10), server_default="optional", nullable=False))
    history = op.create_table(
        "history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("action", sa.String(length=10), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("by", sa.String(length=10), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("note", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("history", schema=None) as batch_op:
        batch_op.create_index("ix_history_game_id", ["game_id", "id"], unique=False)
    _start_histories(history)


def _start_histories(history: sa.Table) -> None:
    """One ``import`` entry for every stored game with rounds: its rounds as they are now."""
    bind = op.get_bind()
    rounds = sa.table(
        "rounds",
        sa.column("game_id", sa.Integer),
        sa.column("number", sa.Integer),
        sa.column("contract", sa.String),
        sa.column("trump", sa.String),
        sa.column("start_rank", sa.String),
        sa.column("doubles", sa.JSON),
        sa.column("outcome", sa.JSON),
    )
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("updated_at", sa.DateTime(timezone=True)))
    by_game: dict[int, list[dict]] = defaultdict(list)
    query = sa.select(rounds).order_by(rounds.c.game_id, rounds.c.number)
    for row in bind.execute(query):
        doc: dict = {"contract": row.contract}
        if row.trump:
            doc["trump"] = row.trump
        if row.start_rank:
            doc["start_rank"] = row.start_rank
        doc["doubles"] = [list(pair) for pair in row.doubles or []]
        if row.outcome is not None:
            doc["outcome"] = row.outcome
        by_game[row.game_id].append(doc)
    if not by_game:
        return
    changed = dict(bind.execute(sa.select(games.c.id, games.c.updated_at)).all())
    op.bulk_insert(
        history,
        [
            {
                "game_id": game_id,
                "at": changed[game_id],
                "action": "import",
                "round": None,
                "by": "scorer",
                "before": None,
                "after": {"rounds": docs},
                "note": BEFORE_HISTORY,
            }
            for game_id, docs in by_game.items()
        ],
    )


def downgrade():
    with op.batch_alter_table("history", schema=None) as batch_op:
        batch_op.drop_index("ix_history_game_id")
    op.drop_table("history")
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_column("confirmation")
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_column("note")
        batch_op.drop_column("status")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_confirm_digest"))
        batch_op.drop_column("confirm_digest")
        batch_op.drop_column("confirmation")
