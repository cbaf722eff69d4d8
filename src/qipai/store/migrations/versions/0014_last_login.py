"""``users.last_login_at``: when the account's newest session began, kept when its sessions end.

``qipai users list`` said when the newest *live* session began, so an account whose sessions a block, a new
password or a log-out had ended read ``-``, as if it had never logged in.  Filled from the sessions there are.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("last_login_at", sa.DateTime(timezone=True), nullable=True))
    users = sa.table("users", sa.column("id"), sa.column("last_login_at"))
    tokens = sa.table("tokens", sa.column("user_id"), sa.column("created_at"))
    newest = sa.select(sa.func.max(tokens.c.created_at)).where(tokens.c.user_id == users.c.id).scalar_subquery()
    op.execute(sa.update(users).values(last_login_at=newest))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("last_login_at")
