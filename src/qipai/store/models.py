"""SQLAlchemy models of the platform's database.

The schema knows no game: a game is a name in a column.  Tables: ``users`` (people, guests and the bots'
accounts), ``tokens`` (session tokens, stored hashed), ``user_games`` (each account's points and counts per
game: the leaderboards), ``user_roles`` (games played and won per game and role, as each game names its roles),
``ledger`` (every change of an account's points, with its reason: the points can be checked as a whole),
``tables`` and ``seats`` (game tables, their match state between deals, who sits where), ``deals`` (one row per
deal: seed, options, context, seats, and once over its outcome and JSON record), ``journal`` (every accepted
action of a running deal, written before it is broadcast) and ``deal_players`` (each seat's score change per
deal, bots included: the history); ``matches``, ``match_players`` and ``match_money`` (tournaments: each match's
state, its players' records with the final place, and its fees, refunds and prizes by idempotency key);
``friends`` (好友: friendships and friend requests).

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
    Text,
    UniqueConstraint,
    false,
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


class Meta(Base):
    """Facts about the database itself, by key: ``database_id``, a random id made with the schema (migration
    0010; a copy gets its own), which the nodes of a cluster report in Redis (:meth:`Store.database_id`)."""

    __tablename__ = "meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    """The name normalised for uniqueness (NFKC, case-folded, look-alike letters mapped): see
    :func:`qipai.store.names.name_key`."""
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False)
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    """The account of a bot (its seats' points land here)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    blocked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the operator blocked the account (``qipai users block``); ``None``: not blocked.  A blocked account
    cannot log in, its sessions are gone, and it cannot sit down or register for a match."""
    blocked_reason: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """The operator's note on why (shown by ``qipai users list``, never to the player)."""
    last_login_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the account's newest session began (log-in, sign-up, a guest's start), kept when sessions end."""


class UserGame(Base):
    """One account's standing in one game."""

    __tablename__ = "user_games"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    points: Mapped[int] = mapped_column(BigInteger, default=0)
    games_played: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    relief_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the account last received relief (救济) points in this game."""

    __table_args__ = (Index("ix_user_games_game_points", "game", "points"),)


class UserRole(Base):
    """Deals played and won in one role (as the game names it: landlord, farmer, banker, …)."""

    __tablename__ = "user_roles"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    role: Mapped[str] = mapped_column(String(32), primary_key=True)
    played: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)


class LedgerEntry(Base):
    """One change of an account's points in a game: ``start`` (the first grant), ``deal`` (a settlement),
    ``relief`` (救济), ``fee``/``prize``/``refund`` (matches), ``migration`` (points carried into a new schema)."""

    __tablename__ = "ledger"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    delta: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(16))
    deal_id: Mapped[int | None] = mapped_column(ForeignKey("deals.id", ondelete="SET NULL"), nullable=True)
    ref: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """What else the change belongs to (a match id), if anything."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_ledger_user_game", "user_id", "game"), Index("ix_ledger_deal", "deal_id"))


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
    for_points: Mapped[bool] = mapped_column(Boolean, default=True)
    """Whether deals here move the players' points (a private table may play for none)."""
    match_state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The game's match state between deals (who bids first next, team levels, the dealer…)."""
    deals_total: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """A private table played for a set number of deals (好友房局数): it closes once that many are settled, with
    a final summary (``None``: it goes on until its players leave)."""
    owner_node: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The node that last claimed the table (several nodes: see :mod:`qipai.host.cluster`)."""
    lease_token: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """The fencing token of that claim: a write for the table with an older token is refused."""
    tags: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """What the table belongs to (a tournament's ``match_id`` and table key; ``managed``: its deals are started
    by a match director, not by the table itself)."""
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The match the table belongs to (its tags' ``match_id``, as a column: a match's deals are listed by it)."""
    status: Mapped[str] = mapped_column(String(16), default="open")
    """``open`` while the table exists, ``closed`` afterwards."""
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (Index("ix_tables_status", "status"), Index("ix_tables_match_id", "match_id"))


class Seat(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    leaving: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """The seat's player has left: of a match, whose seat plays on in auto-play to its end; or during a deal,
    the seat being freed when the deal ends (kept here so that a restart does not forget it)."""
    ready: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """准备 between deals: its player readied for the next deal (sitting down is readying); cleared when a deal
    starts, kept here so that the node bringing the table back after a restart or a takeover does not ask again."""


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

    __table_args__ = (Index("ix_deals_status", "status"), Index("ix_deals_game_finished", "game", "finished_at"))
    """``ix_deals_game_finished``: a game's deals settled in a period (周榜 / 月榜: ``Store.period_leaderboard``)."""


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
    role: Mapped[str | None] = mapped_column(String(32), nullable=True)
    won: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    score: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """The seat's score as the game settled it (``delta`` is 0 at a table that plays for no points)."""
    delta: Mapped[int] = mapped_column(BigInteger)
    points_after: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_deal_players_user", "user_id", "id"),)


class Match(Base):
    """A match (比赛): its definition and its tournament state (JSON text), written after every step."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(32))
    """The match game (``ddz3``, ``shengji``, …) as the tournament core names it."""
    platform_game: Mapped[str] = mapped_column(String(32))
    """The registered game its tables play and whose platform points pay its fees and prizes."""
    status: Mapped[str] = mapped_column(String(16))
    """The state's phase: ``registration``, ``starting``, ``running``, ``finished``, ``cancelled``."""
    source: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """What made it: a sit-and-go pool (``pool:<name>``), a series occurrence, or an operator."""
    definition: Mapped[dict[str, Any]] = mapped_column(JSON)
    state: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer, default=0)
    """Steps written so far."""
    start_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_matches_status", "status"),)


class MatchPlayer(Base):
    """One player's entry in a match: the match history with the final place and prize."""

    __tablename__ = "match_players"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    entrant: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))
    """``in``, ``removed`` (withdrew before the start), ``eliminated``, ``withdrawn``, ``cancelled``; ``invited``: a
    team match's partner invited by ``entrant`` (``t<captain>``) who has not confirmed yet; ``declined``: one who
    declined that invitation."""
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
    prize: Mapped[int] = mapped_column(BigInteger, default=0)
    fee: Mapped[int] = mapped_column(BigInteger, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_match_players_user", "user_id", "updated_at"),)


class MatchMoney(Base):
    """A fee, refund or prize of a match, by its idempotency key (RULES-matches §2.6, §6.3)."""

    __tablename__ = "match_money"

    key: Mapped[str] = mapped_column(String(160), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    delta: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_match_money_match", "match_id"),)


class Friend(Base):
    """好友: ``user_id`` asked ``friend_id`` to be friends (``requested``), or they are (``friends``: then the row
    exists both ways), or ``user_id`` blocked ``friend_id`` (``blocked``)."""

    __tablename__ = "friends"

    user_id: Mapped[int] = mapped_column(BigId, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    friend_id: Mapped[int] = mapped_column(BigId, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    state: Mapped[str] = mapped_column(String(16))
    """``requested`` (waiting for ``friend_id`` to accept), ``friends``, or ``blocked`` (拉黑: ``user_id`` takes no
    requests from ``friend_id``)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_friends_friend", "friend_id", "state"),)
