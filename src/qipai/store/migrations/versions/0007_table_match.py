"""Tables name the match they belong to in a column of their own (``match_id``, indexed), so that a match's
deals can be listed without reading every table's tags; existing match tables get it from their tags.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("match_id", sa.String(32), nullable=True))
        batch.create_index("ix_tables_match_id", ["match_id"])
    bind = op.get_bind()
    tables = sa.table("tables", sa.column("id", sa.String), sa.column("tags", sa.JSON),
                      sa.column("match_id", sa.String))
    for tid, tags in bind.execute(sa.select(tables.c.id, tables.c.tags).where(tables.c.tags.is_not(None))).all():
        if isinstance(tags, str):
            tags = json.loads(tags)
        mid = (tags or {}).get("match_id")
        if isinstance(mid, str):
            bind.execute(sa.update(tables).where(tables.c.id == tid).values(match_id=mid[:32]))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_match_id")
        batch.drop_column("match_id")
