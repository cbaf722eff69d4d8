"""好友: friendships and friend requests (``friends``).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "friends",
        sa.Column("user_id", BigId, nullable=False),
        sa.Column("friend_id", BigId, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_friends_user_id_users", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["friend_id"], ["users.id"], name="fk_friends_friend_id_users", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "friend_id", name="pk_friends"),
    )
    op.create_index("ix_friends_friend", "friends", ["friend_id", "state"])


def downgrade() -> None:
    op.drop_index("ix_friends_friend", table_name="friends")
    op.drop_table("friends")
