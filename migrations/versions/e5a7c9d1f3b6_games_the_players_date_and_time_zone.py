"""games: the players' date and time zone (issue 11)

A game is dated with the local calendar day it was played (club-format.md "Game document
additions"): the phone sends its date and IANA time zone when the game starts, and the
sheet, the exports and the file names use that date. Games stored before this revision
get the day of their ``created_at`` in UTC, which is the date their sheets and file names
showed until now; their time zone stays unknown (NULL).

Revision ID: e5a7c9d1f3b6
Revises: d4f6a8c0e2b4
Create Date: 2026-11-30 19:50:00

"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e5a7c9d1f3b6"
down_revision = "d4f6a8c0e2b4"
branch_labels = None
depends_on = None


def utc_day(created_at):
    """The UTC calendar day of a stored ``created_at`` (SQLite may hand it back naive: it is UTC)."""
    if isinstance(created_at, str):
        created_at = datetime.fromisoformat(created_at)
    if created_at.tzinfo is None:
        return created_at.date()
    return created_at.astimezone(UTC).date()


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("date", sa.Date(), nullable=True))
        batch_op.add_column(sa.Column("timezone", sa.String(length=64), nullable=True))

    games = sa.table(
        "games",
        sa.column("id", sa.Integer),
        sa.column("created_at", sa.DateTime(timezone=True)),
        sa.column("date", sa.Date),
    )
    connection = op.get_bind()
    for game_id, created_at in connection.execute(sa.select(games.c.id, games.c.created_at)).all():
        connection.execute(games.update().where(games.c.id == game_id).values(date=utc_day(created_at)))

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.alter_column("date", existing_type=sa.Date(), nullable=False)


def downgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("timezone")
        batch_op.drop_column("date")
