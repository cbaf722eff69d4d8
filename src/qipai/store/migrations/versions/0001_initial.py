"""Initial schema: users, tokens, tables, seats, deals, journal, deal_players.

Revision ID: 0001
Revises:
Create Date: 2025-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", BigId, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("is_guest", sa.Boolean(), nullable=False),
        sa.Column("points", sa.BigInteger(), nullable=False),
        sa.Column("title", sa.String(16), nullable=False),
        sa.Column("games_played", sa.Integer(), nullable=False),
        sa.Column("landlord_wins", sa.Integer(), nullable=False),
        sa.Column("farmer_wins", sa.Integer(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_users"),
        sa.UniqueConstraint("name_key", name="uq_users_name_key"),
    )
    op.create_index("ix_users_points", "users", ["is_guest", "points"])

    op.create_table(
        "tokens",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("user_id", BigId, nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("expires_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("token_hash", name="pk_tokens"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_tokens_user_id_users", ondelete="CASCADE"),
    )
    op.create_index("ix_tokens_user_id", "tokens", ["user_id"])

    op.create_table(
        "tables",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("room", sa.String(64), nullable=True),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("invite_code", sa.String(16), nullable=True),
        sa.Column("autoplay_bot", sa.String(32), nullable=False),
        sa.Column("seat_bot", sa.String(32), nullable=False),
        sa.Column("min_points", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_by", BigId, nullable=True),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("closed_at", TS, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_tables"),
        sa.UniqueConstraint("invite_code", name="uq_tables_invite_code"),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"], name="fk_tables_created_by_users"),
    )
    op.create_index("ix_tables_status", "tables", ["status"])

    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", BigId, nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.PrimaryKeyConstraint("table_id", "seat", name="pk_seats"),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name="fk_seats_table_id_tables", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_seats_user_id_users"),
    )
    op.create_index("ix_seats_user_id", "seats", ["user_id"])

    op.create_table(
        "deals",
        sa.Column("id", BigId, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("deal_index", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("context", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("started_at", TS, nullable=False),
        sa.Column("finished_at", TS, nullable=True),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column("record", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_deals"),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name="fk_deals_table_id_tables"),
    )
    op.create_index("ix_deals_table_id", "deals", ["table_id"])
    op.create_index("ix_deals_status", "deals", ["status"])

    op.create_table(
        "journal",
        sa.Column("id", BigId, primary_key=True, autoincrement=True),
        sa.Column("deal_id", BigId, nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(255), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_journal"),
        sa.UniqueConstraint("deal_id", "n", name="uq_journal_deal_id_n"),
        sa.ForeignKeyConstraint(["deal_id"], ["deals.id"], name="fk_journal_deal_id_deals", ondelete="CASCADE"),
    )

    op.create_table(
        "deal_players",
        sa.Column("id", BigId, primary_key=True, autoincrement=True),
        sa.Column("deal_id", BigId, nullable=False),
        sa.Column("user_id", BigId, nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(16), nullable=True),
        sa.Column("won", sa.Boolean(), nullable=True),
        sa.Column("delta", sa.BigInteger(), nullable=False),
        sa.Column("points_after", sa.BigInteger(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_deal_players"),
        sa.ForeignKeyConstraint(["deal_id"], ["deals.id"], name="fk_deal_players_deal_id_deals", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_deal_players_user_id_users", ondelete="CASCADE"),
    )
    op.create_index("ix_deal_players_deal_id", "deal_players", ["deal_id"])
    op.create_index("ix_deal_players_user", "deal_players", ["user_id", "id"])


def downgrade() -> None:
    for name in ("deal_players", "journal", "deals", "seats", "tables", "tokens", "users"):
        op.drop_table(name)
