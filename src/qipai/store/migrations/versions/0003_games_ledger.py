"""The schema knows no game: points, counts and roles per game; a ledger of every points change; bot
accounts; match state and play-for-points on tables; look-alike-proof name keys.

Today's data moves across with nothing lost: each user's points become their Dou Dizhu points (with a
``migration`` ledger entry of that amount, so the ledger sums to the points), their games and wins become
Dou Dizhu counts, and the per-role counts are rebuilt from ``deal_players``.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    from qipai.store.names import name_key

    op.create_table(
        "user_games",
        sa.Column("user_id", BigId, nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("points", sa.BigInteger(), nullable=False),
        sa.Column("games_played", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("relief_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_user_games_user_id_users", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "game", name="pk_user_games"),
    )
    op.create_index("ix_user_games_game_points", "user_games", ["game", "points"])
    op.create_table(
        "user_roles",
        sa.Column("user_id", BigId, nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("role", sa.String(32), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_user_roles_user_id_users", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "game", "role", name="pk_user_roles"),
    )
    op.create_table(
        "ledger",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("user_id", BigId, nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("delta", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("deal_id", BigId, nullable=True),
        sa.Column("ref", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_ledger_user_id_users", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["deal_id"], ["deals.id"], name="fk_ledger_deal_id_deals", ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name="pk_ledger"),
    )
    op.create_index("ix_ledger_user_game", "ledger", ["user_id", "game"])
    op.create_index("ix_ledger_deal", "ledger", ["deal_id"])

    bind = op.get_bind()
    now = datetime.now(UTC)
    users = sa.table(
        "users",
        sa.column("id", sa.BigInteger),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
        sa.column("points", sa.BigInteger),
        sa.column("games_played", sa.Integer),
        sa.column("landlord_wins", sa.Integer),
        sa.column("farmer_wins", sa.Integer),
    )
    rows = bind.execute(sa.select(users)).all()
    if rows:
        op.bulk_insert(
            sa.table("user_games", *(sa.column(c) for c in ("user_id", "game", "points", "games_played", "wins"))),
            [{"user_id": r.id, "game": "doudizhu", "points": r.points, "games_played": r.games_played,
              "wins": r.landlord_wins + r.farmer_wins} for r in rows],
        )
        op.bulk_insert(
            sa.table("ledger", *(sa.column(c) for c in ("user_id", "game", "delta", "reason", "created_at"))),
            [{"user_id": r.id, "game": "doudizhu", "delta": r.points, "reason": "migration", "created_at": now}
             for r in rows],
        )
    dp = sa.table("deal_players", sa.column("user_id"), sa.column("role"), sa.column("won"))
    counts = bind.execute(
        sa.select(dp.c.user_id, dp.c.role, sa.func.count(), sa.func.sum(sa.case((dp.c.won == sa.true(), 1), else_=0)))
        .where(dp.c.role.is_not(None))
        .group_by(dp.c.user_id, dp.c.role)
    ).all()
    if counts:
        op.bulk_insert(
            sa.table("user_roles", *(sa.column(c) for c in ("user_id", "game", "role", "played", "won"))),
            [{"user_id": u, "game": "doudizhu", "role": role, "played": n, "won": int(w or 0)}
             for u, role, n, w in counts],
        )

    # names: the new key (NFKC + case fold + look-alikes); a second account whose key collides keeps its old key
    seen: set[str] = set()
    keys: dict[int, str] = {}
    for r in sorted(rows, key=lambda r: r.id):
        k = name_key(r.name)
        if k in seen:
            k = r.name_key
        seen.add(k)
        keys[r.id] = k

    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("is_bot", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.alter_column("name_key", type_=sa.String(64), existing_type=sa.String(32), existing_nullable=False)
        batch.drop_index("ix_users_points")
        for col in ("points", "title", "games_played", "landlord_wins", "farmer_wins"):
            batch.drop_column(col)
    ukeys = sa.table("users", sa.column("id", sa.BigInteger), sa.column("name_key", sa.String))
    for uid, k in keys.items():
        bind.execute(ukeys.update().where(ukeys.c.id == uid).values(name_key=k))

    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("for_points", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("match_state", sa.JSON(), nullable=True))
    with op.batch_alter_table("deal_players") as batch:
        batch.alter_column("role", type_=sa.String(32), existing_type=sa.String(16), existing_nullable=True)
        batch.add_column(sa.Column("score", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    raise NotImplementedError("0003 moves data into per-game tables; restore a backup to go back")
