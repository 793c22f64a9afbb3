"""presets: a keyed hash of the address that saved them, to cap how many one client saves (issue 7)

Nullable: presets saved before have none, and count for nobody.

Revision ID: d4f6a8c0e2b4
Revises: b1d3e5f7a9c2
Create Date: 2026-11-29 17:10:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "d4f6a8c0e2b4"
down_revision = "b1d3e5f7a9c2"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("presets", schema=None) as batch_op:
        batch_op.add_column(sa.Column("creator_address", sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f("ix_presets_creator_address"), ["creator_address"], unique=False)


def downgrade():
    with op.batch_alter_table("presets", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_presets_creator_address"))
        batch_op.drop_column("creator_address")
