"""Tables remember which node claimed them and the fencing token of that claim (several nodes).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("owner_node", sa.String(64), nullable=True))
        batch.add_column(sa.Column("lease_token", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("lease_token")
        batch.drop_column("owner_node")
