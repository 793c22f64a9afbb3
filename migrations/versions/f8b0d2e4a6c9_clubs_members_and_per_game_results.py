"""clubs, members and per-game results (issue 16)

A club keeps its members and, per seat of each of its games, the result as it stands
(``results``: final, rank, per contract, doubles; the member's rating after the game), rewritten
inside every round write so that no page recomputes a season. A game and a club night may
belong to a club (``club_id``) with a member id per player (``members``). Nothing existing
belongs to a club, so nothing is filled in.

Revision ID: f8b0d2e4a6c9
Revises: e7a9c1d3f5b8
Create Date: 2026-12-01 11:45:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "f8b0d2e4a6c9"
down_revision = "e7a9c1d3f5b8"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "clubs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("ladder", sa.JSON(), nullable=False),
        sa.Column("admin_digest", sa.String(length=64), nullable=False),
        sa.Column("view_digest", sa.String(length=64), nullable=False),
        sa.Column("stamp", sa.Integer(), server_default="0", nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("clubs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_clubs_public_id"), ["public_id"], unique=True)
        batch_op.create_index(batch_op.f("ix_clubs_admin_digest"), ["admin_digest"], unique=True)
        batch_op.create_index(batch_op.f("ix_clubs_view_digest"), ["view_digest"], unique=True)
    op.create_table(
        "members",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("merged_into", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["merged_into"], ["members.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_members_public_id"), ["public_id"], unique=True)
        batch_op.create_index(batch_op.f("ix_members_club_id"), ["club_id"], unique=False)
    for table in ("games", "events"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("club_id", sa.Integer(), nullable=True))
            batch_op.add_column(sa.Column("members", sa.JSON(), nullable=True))
            batch_op.create_index(batch_op.f(f"ix_{table}_club_id"), ["club_id"], unique=False)
            batch_op.create_foreign_key(f"fk_{table}_club_id_clubs", "clubs", ["club_id"], ["id"], ondelete="SET NULL")
    op.create_table(
        "results",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=True),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("complete", sa.Boolean(), nullable=False),
        sa.Column("rounds_played", sa.Integer(), nullable=False),
        sa.Column("final", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("by_contract", sa.JSON(), nullable=False),
        sa.Column("given", sa.Integer(), nullable=False),
        sa.Column("received", sa.Integer(), nullable=False),
        sa.Column("net", sa.Integer(), nullable=False),
        sa.Column("against", sa.JSON(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=True),
        sa.Column("sigma", sa.Float(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.create_index("ix_results_club_member", ["club_id", "member_id"], unique=False)
        batch_op.create_index("ix_results_club_order", ["club_id", "date", "created_at", "game_id"], unique=False)
        batch_op.create_index("ix_results_club_rated", ["club_id", "rated"], unique=False)


def downgrade():
    op.drop_table("results")
    for table in ("events", "games"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(f"fk_{table}_club_id_clubs", type_="foreignkey")
            batch_op.drop_index(batch_op.f(f"ix_{table}_club_id"))
            batch_op.drop_column("members")
            batch_op.drop_column("club_id")
    op.drop_table("members")
    op.drop_table("clubs")
