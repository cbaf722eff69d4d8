"""``ix_deals_game_finished``: an index on ``deals (game, finished_at)``.

The period leaderboards (周榜 / 月榜, ``GET /api/leaderboard?period=week|month``) add up the deals of one game
settled since a date; without the index every deal of every game was read for each board.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_deals_game_finished", "deals", ["game", "finished_at"])


def downgrade() -> None:
    op.drop_index("ix_deals_game_finished", table_name="deals")
