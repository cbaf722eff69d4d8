"""SQLAlchemy models of the platform's database.

Tables: ``users``, ``tokens`` (session tokens, stored hashed), ``tables`` and ``seats`` (game tables and
who sits where), ``deals`` (one row per deal: seed, options, context, seats, and once over its outcome and
JSON record), ``journal`` (every accepted action of a running deal, written before it is broadcast) and
``deal_players`` (each human's score change per deal: the history and the leaderboard's source).

The schema is created and upgraded by the Alembic migrations in :mod:`qipai.store.migrations`; a test
checks that the migrations and these models agree.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# An auto-incrementing 64-bit key; SQLite only auto-increments a column declared INTEGER.
BigId = BigInteger().with_variant(Integer(), "sqlite")


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    """The name folded to lower case: names are unique regardless of case."""
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False)
    points: Mapped[int] = mapped_column(BigInteger, default=0)
    title: Mapped[str] = mapped_column(String(16))
    games_played: Mapped[int] = mapped_column(Integer, default=0)
    landlord_wins: Mapped[int] = mapped_column(Integer, default=0)
    farmer_wins: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_users_points", "is_guest", "points"),)


class Token(Base):
    __tablename__ = "tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameTable(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    room: Mapped[str | None] = mapped_column(String(64), nullable=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    invite_code: Mapped[str | None] = mapped_column(String(16), nullable=True, unique=True)
    autoplay_bot: Mapped[str] = mapped_column(String(32), default="passive")
    seat_bot: Mapped[str] = mapped_column(String(32), default="random")
    min_points: Mapped[int] = mapped_column(BigInteger, default=0)
    fill_bots_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Seconds after which empty seats are filled with bots (``None``: only when the creator asks)."""
    status: Mapped[str] = mapped_column(String(16), default="open")
    """``open`` while the table exists, ``closed`` afterwards."""
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (Index("ix_tables_status", "status"),)


class Seat(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)


class Deal(Base):
    __tablename__ = "deals"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    deal_index: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    context: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """One entry per seat: ``{"user_id": int | None, "bot": str | None, "name": str}``."""
    status: Mapped[str] = mapped_column(String(16), default="running")
    """``running``, ``over`` (settled) or ``aborted`` (could not be restored)."""
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)

    __table_args__ = (Index("ix_deals_status", "status"),)


class JournalEntry(Base):
    __tablename__ = "journal"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    deal_id: Mapped[int] = mapped_column(ForeignKey("deals.id", ondelete="CASCADE"))
    n: Mapped[int] = mapped_column(Integer)
    """1, 2, 3, … within the deal: the deal's version after this action."""
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (UniqueConstraint("deal_id", "n", name="uq_journal_deal_id_n"),)


class DealPlayer(Base):
    __tablename__ = "deal_players"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    deal_id: Mapped[int] = mapped_column(ForeignKey("deals.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    role: Mapped[str | None] = mapped_column(String(16), nullable=True)
    won: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    delta: Mapped[int] = mapped_column(BigInteger)
    points_after: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_deal_players_user", "user_id", "id"),)
