"""Matches and tournaments (比赛): each match's persisted state, its players' records, and its money moves.

``matches`` holds a match's definition and its tournament state as JSON text (written after every step, in the
same transaction as the fees, refunds and prizes of that step); ``match_players`` each player's entry, status,
final place and prize (the match history); ``match_money`` every platform-points move of a match by its
idempotency key (written once, never twice).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("platform_game", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("source", sa.String(64), nullable=True),
        sa.Column("definition", sa.JSON(), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("start_at", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_matches"),
    )
    op.create_index("ix_matches_status", "matches", ["status"])
    op.create_table(
        "match_players",
        sa.Column("match_id", sa.String(32), nullable=False),
        sa.Column("user_id", BigId, nullable=False),
        sa.Column("entrant", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("prize", sa.BigInteger(), nullable=False),
        sa.Column("fee", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_match_players_match_id_matches",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_match_players_user_id_users",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "user_id", name="pk_match_players"),
    )
    op.create_index("ix_match_players_user", "match_players", ["user_id", "updated_at"])
    op.create_table(
        "match_money",
        sa.Column("key", sa.String(160), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=False),
        sa.Column("user_id", BigId, nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("delta", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_match_money_match_id_matches",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_match_money_user_id_users", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("key", name="pk_match_money"),
    )
    op.create_index("ix_match_money_match", "match_money", ["match_id"])


def downgrade() -> None:
    op.drop_index("ix_match_money_match", "match_money")
    op.drop_table("match_money")
    op.drop_index("ix_match_players_user", "match_players")
    op.drop_table("match_players")
    op.drop_index("ix_matches_status", "matches")
    op.drop_table("matches")
