"""Accounts can be blocked by the operator (``qipai users block``): when (``blocked_at``, ``NULL``: not blocked) and
the operator's note why (``blocked_reason``).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("blocked_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("blocked_reason", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("blocked_reason")
        batch.drop_column("blocked_at")
