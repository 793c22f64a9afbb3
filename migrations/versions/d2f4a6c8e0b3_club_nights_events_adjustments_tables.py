"""club nights: events, their adjustments, and games as a night's tables (issue 14)

A club night (club-format.md "Club night") is a row of ``events`` (its players, seating,
preset, the digests of its director and view tokens, closed or not) with the director's
``adjustments``; each table of each session is an ordinary game that names its night,
session and table (nullable: a game of its own has none). ``ix_games_event_updated`` holds
(event_id, updated_at): a night's games and their latest save come from the index alone (the
event board's ETag). Games stored before belong to no night.

Revision ID: d2f4a6c8e0b3
Revises: b8d0f2a4c6e8
Create Date: 2026-12-01 05:10:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "d2f4a6c8e0b3"
down_revision = "b8d0f2a4c6e8"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=80), nullable=True),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=True),
        sa.Column("preset", sa.JSON(), nullable=False),
        sa.Column("sessions", sa.Integer(), nullable=False),
        sa.Column("ranking", sa.String(length=10), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("seating", sa.JSON(), nullable=False),
        sa.Column("director_digest", sa.String(length=64), nullable=False),
        sa.Column("view_digest", sa.String(length=64), nullable=False),
        sa.Column("closed", sa.Boolean(), nullable=False),
        sa.Column("creator_device", sa.String(length=64), nullable=True),
        sa.Column("creator_address", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_events_director_digest"), ["director_digest"], unique=True)
        batch_op.create_index(batch_op.f("ix_events_view_digest"), ["view_digest"], unique=True)
        batch_op.create_index(batch_op.f("ix_events_creator_device"), ["creator_device"], unique=False)
        batch_op.create_index(batch_op.f("ix_events_creator_address"), ["creator_address"], unique=False)

    op.create_table(
        "adjustments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("adjustments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_adjustments_event_id"), ["event_id"], unique=False)

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("event_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("session_number", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("table_number", sa.Integer(), nullable=True))
        batch_op.create_foreign_key("fk_games_event_id_events", "events", ["event_id"], ["id"], ondelete="CASCADE")
        batch_op.create_index("ix_games_event_updated", ["event_id", "updated_at"], unique=False)


def downgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_event_updated")
        batch_op.drop_constraint("fk_games_event_id_events", type_="foreignkey")
        batch_op.drop_column("table_number")
        batch_op.drop_column("session_number")
        batch_op.drop_column("event_id")
    with op.batch_alter_table("adjustments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_adjustments_event_id"))
    op.drop_table("adjustments")
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_events_creator_address"))
        batch_op.drop_index(batch_op.f("ix_events_creator_device"))
        batch_op.drop_index(batch_op.f("ix_events_view_digest"))
        batch_op.drop_index(batch_op.f("ix_events_director_digest"))
    op.drop_table("events")
