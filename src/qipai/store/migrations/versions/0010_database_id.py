"""The database's own id (``meta.database_id``, random): the nodes of a cluster report it in their Redis heartbeat,
so that a node started on another database with the cluster's Redis is refused instead of seating its accounts in
the cluster's tables by their ids.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    meta = op.create_table(
        "meta",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
    )
    op.bulk_insert(meta, [{"key": "database_id", "value": uuid.uuid4().hex}])


def downgrade() -> None:
    op.drop_table("meta")
