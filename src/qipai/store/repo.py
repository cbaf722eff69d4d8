"""The repository the server uses: every database read and write goes through :class:`Store`.

Methods return plain frozen dataclasses or dicts, never ORM objects, so nothing loads lazily outside a
session.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from qipai.store.db import make_engine, upgrade
from qipai.store.models import Deal, DealPlayer, GameTable, JournalEntry, Seat, Token, User, utcnow
from qipai.store.titles import title_for


class NameTaken(ValueError):
    """A user with that name (in any case) already exists."""


@dataclass(frozen=True, slots=True)
class UserInfo:
    id: int
    name: str
    is_guest: bool
    points: int
    title: str
    games_played: int
    landlord_wins: int
    farmer_wins: int

    def public(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class TableInfo:
    id: str
    game: str
    room: str | None
    options: dict[str, Any]
    private: bool
    invite_code: str | None
    autoplay_bot: str
    seat_bot: str
    min_points: int
    created_by: int | None
    fill_bots_after: float | None = None
    """Seconds after which empty seats are filled with bots (``None``: only when the creator asks)."""


@dataclass(frozen=True, slots=True)
class JournalRow:
    deal_id: int
    n: int
    seat: int | None
    action: str


@dataclass(frozen=True, slots=True)
class SettleRow:
    user_id: int
    seat: int
    delta: int
    role: str | None
    won: bool | None


@dataclass(frozen=True, slots=True)
class RunningDeal:
    """A deal that was running when the server stopped, with everything needed to restore it."""

    table: TableInfo
    deal_id: int
    deal_index: int
    options: dict[str, Any]
    seed: int
    context: dict[str, Any]
    seats: list[dict[str, Any]]
    journal: list[JournalRow]


def _user(u: User) -> UserInfo:
    return UserInfo(
        id=u.id,
        name=u.name,
        is_guest=u.is_guest,
        points=u.points,
        title=u.title,
        games_played=u.games_played,
        landlord_wins=u.landlord_wins,
        farmer_wins=u.farmer_wins,
    )


def _table(t: GameTable) -> TableInfo:
    return TableInfo(
        id=t.id,
        game=t.game,
        room=t.room,
        options=dict(t.options),
        private=t.private,
        invite_code=t.invite_code,
        autoplay_bot=t.autoplay_bot,
        seat_bot=t.seat_bot,
        min_points=t.min_points,
        created_by=t.created_by,
        fill_bots_after=t.fill_bots_after,
    )


def _iso(dt: datetime | None) -> str | None:
    if dt is None:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.isoformat()


class Store:
    """Async access to the database; one per server."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.sessions = async_sessionmaker(engine, expire_on_commit=False, class_=AsyncSession)

    @classmethod
    async def open(cls, url: str, *, schema: str | None = None, migrate: bool = True) -> Store:
        """Connect to ``url`` and (by default) apply the migrations."""
        engine = make_engine(url, schema=schema)
        if migrate:
            await upgrade(engine)
        return cls(engine)

    async def close(self) -> None:
        await self.engine.dispose()

    # ----------------------------------------------------------------- users and tokens
    async def create_user(self, name: str, password_hash: str | None, *, is_guest: bool, points: int) -> UserInfo:
        u = User(
            name=name,
            name_key=name.casefold(),
            password_hash=password_hash,
            is_guest=is_guest,
            points=points,
            title=title_for(points),
            games_played=0,
            landlord_wins=0,
            farmer_wins=0,
            created_at=utcnow(),
        )
        try:
            async with self.sessions.begin() as s:
                s.add(u)
        except IntegrityError as e:
            raise NameTaken(name) from e
        return _user(u)

    async def user(self, user_id: int) -> UserInfo | None:
        async with self.sessions() as s:
            u = await s.get(User, user_id)
            return None if u is None else _user(u)

    async def users(self, ids: Sequence[int]) -> dict[int, UserInfo]:
        if not ids:
            return {}
        async with self.sessions() as s:
            rows = (await s.scalars(select(User).where(User.id.in_(list(ids))))).all()
            return {u.id: _user(u) for u in rows}

    async def login_info(self, name: str) -> tuple[UserInfo, str | None] | None:
        """The user called ``name`` (any case) and their password hash."""
        async with self.sessions() as s:
            u = await s.scalar(select(User).where(User.name_key == name.casefold()))
            return None if u is None else (_user(u), u.password_hash)

    async def set_password_hash(self, user_id: int, password_hash: str) -> None:
        async with self.sessions.begin() as s:
            await s.execute(update(User).where(User.id == user_id).values(password_hash=password_hash))

    async def add_token(self, token_hash: str, user_id: int, expires_at: datetime) -> None:
        async with self.sessions.begin() as s:
            s.add(Token(token_hash=token_hash, user_id=user_id, created_at=utcnow(), expires_at=expires_at))

    async def user_for_token(self, token_hash: str) -> UserInfo | None:
        async with self.sessions() as s:
            row = (
                await s.execute(
                    select(User, Token.expires_at)
                    .join(Token, Token.user_id == User.id)
                    .where(Token.token_hash == token_hash)
                )
            ).first()
            if row is None:
                return None
            user, expires = row
            if expires.tzinfo is None:
                expires = expires.replace(tzinfo=UTC)
            if expires <= utcnow():
                return None
            return _user(user)

    async def drop_token(self, token_hash: str) -> None:
        async with self.sessions.begin() as s:
            await s.execute(delete(Token).where(Token.token_hash == token_hash))

    async def leaderboard(self, limit: int = 50, offset: int = 0) -> list[UserInfo]:
        async with self.sessions() as s:
            rows = await s.scalars(
                select(User)
                .where(User.is_guest.is_(False))
                .order_by(User.points.desc(), User.id)
                .limit(limit)
                .offset(offset)
            )
            return [_user(u) for u in rows]

    # ----------------------------------------------------------------- history and records
    async def history(self, user_id: int, limit: int = 50, before: int | None = None) -> list[dict[str, Any]]:
        """The user's settled deals, newest first (``before``: a deal-player id for paging)."""
        async with self.sessions() as s:
            q = (
                select(DealPlayer, Deal)
                .join(Deal, Deal.id == DealPlayer.deal_id)
                .where(DealPlayer.user_id == user_id)
                .order_by(DealPlayer.id.desc())
                .limit(limit)
            )
            if before is not None:
                q = q.where(DealPlayer.id < before)
            out = []
            for dp, d in (await s.execute(q)).all():
                out.append(
                    {
                        "id": dp.id,
                        "deal_id": d.id,
                        "table_id": d.table_id,
                        "deal_index": d.deal_index,
                        "game": d.game,
                        "options": d.options,
                        "seat": dp.seat,
                        "role": dp.role,
                        "won": dp.won,
                        "delta": dp.delta,
                        "points_after": dp.points_after,
                        "finished_at": _iso(d.finished_at),
                        "players": [p.get("name") for p in d.seats],
                    }
                )
            return out

    async def deal(self, deal_id: int) -> dict[str, Any] | None:
        async with self.sessions() as s:
            d = await s.get(Deal, deal_id)
            if d is None:
                return None
            return {
                "id": d.id,
                "table_id": d.table_id,
                "deal_index": d.deal_index,
                "game": d.game,
                "options": d.options,
                "seed": d.seed,
                "context": d.context,
                "seats": d.seats,
                "status": d.status,
                "started_at": _iso(d.started_at),
                "finished_at": _iso(d.finished_at),
                "outcome": d.outcome,
                "record": d.record,
            }

    async def journal(self, deal_id: int) -> list[JournalRow]:
        async with self.sessions() as s:
            rows = await s.scalars(select(JournalEntry).where(JournalEntry.deal_id == deal_id).order_by(JournalEntry.n))
            return [JournalRow(r.deal_id, r.n, r.seat, r.action) for r in rows]

    async def table_results(self, table_id: str) -> list[dict[str, Any]]:
        """Every settled deal of a table, oldest first, with each seat's score (RULES.md §9 history)."""
        async with self.sessions() as s:
            rows = await s.scalars(
                select(Deal).where(Deal.table_id == table_id, Deal.status == "over").order_by(Deal.id)
            )
            return [
                {
                    "deal_id": d.id,
                    "deal_index": d.deal_index,
                    "scores": (d.outcome or {}).get("scores"),
                    "players": [p.get("name") for p in d.seats],
                }
                for d in rows
            ]

    # ----------------------------------------------------------------- tables
    async def create_table(self, t: TableInfo, seats: int) -> None:
        async with self.sessions.begin() as s:
            s.add(
                GameTable(
                    id=t.id,
                    game=t.game,
                    room=t.room,
                    options=t.options,
                    private=t.private,
                    invite_code=t.invite_code,
                    autoplay_bot=t.autoplay_bot,
                    seat_bot=t.seat_bot,
                    min_points=t.min_points,
                    fill_bots_after=t.fill_bots_after,
                    status="open",
                    created_by=t.created_by,
                    created_at=utcnow(),
                )
            )
            await s.flush()
            for i in range(seats):
                s.add(Seat(table_id=t.id, seat=i, user_id=None, bot=None))

    async def set_seat(self, table_id: str, seat: int, user_id: int | None, bot: str | None) -> None:
        async with self.sessions.begin() as s:
            await s.execute(
                update(Seat).where(Seat.table_id == table_id, Seat.seat == seat).values(user_id=user_id, bot=bot)
            )

    async def close_table(self, table_id: str) -> None:
        async with self.sessions.begin() as s:
            await s.execute(
                update(GameTable)
                .where(GameTable.id == table_id)
                .values(status="closed", closed_at=utcnow(), invite_code=None)
            )
            await s.execute(update(Seat).where(Seat.table_id == table_id).values(user_id=None, bot=None))

    async def invite_code_free(self, code: str) -> bool:
        async with self.sessions() as s:
            return (await s.scalar(select(GameTable.id).where(GameTable.invite_code == code))) is None

    # ----------------------------------------------------------------- deals
    async def start_deal(
        self,
        table_id: str,
        deal_index: int,
        game: str,
        options: dict[str, Any],
        seed: int,
        context: dict[str, Any],
        seats: list[dict[str, Any]],
    ) -> int:
        d = Deal(
            table_id=table_id,
            deal_index=deal_index,
            game=game,
            options=options,
            seed=seed,
            context=context,
            seats=seats,
            status="running",
            started_at=utcnow(),
        )
        async with self.sessions.begin() as s:
            s.add(d)
        return d.id

    async def append_journal(self, rows: Sequence[JournalRow]) -> None:
        """Write journal entries in one transaction (the journal writer batches many tables' actions)."""
        if not rows:
            return
        now = utcnow()
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(JournalEntry),
                [{"deal_id": r.deal_id, "n": r.n, "seat": r.seat, "action": r.action, "created_at": now} for r in rows],
            )

    async def settle(
        self, deal_id: int, outcome: dict[str, Any], record: dict[str, Any], rows: Sequence[SettleRow]
    ) -> dict[int, UserInfo]:
        """Settle a deal in one transaction: the deal's outcome and record, each human's score change and
        history row, and their new points, title and counts.  Settling twice changes nothing the second time.

        Returns each settled user's new profile.
        """
        now = utcnow()
        out: dict[int, UserInfo] = {}
        async with self.sessions.begin() as s:
            res = await s.execute(
                update(Deal)
                .where(Deal.id == deal_id, Deal.status == "running")
                .values(status="over", outcome=outcome, record=record, finished_at=now)
            )
            if res.rowcount != 1:  # type: ignore[attr-defined]
                return out
            for r in rows:
                u = await s.get(User, r.user_id, with_for_update=True)
                if u is None:
                    continue
                u.points += r.delta
                u.title = title_for(u.points)
                u.games_played += 1
                if r.won and r.role == "landlord":
                    u.landlord_wins += 1
                elif r.won and r.role == "farmer":
                    u.farmer_wins += 1
                s.add(
                    DealPlayer(
                        deal_id=deal_id,
                        user_id=r.user_id,
                        seat=r.seat,
                        role=r.role,
                        won=r.won,
                        delta=r.delta,
                        points_after=u.points,
                        created_at=now,
                    )
                )
                await s.flush()
                out[u.id] = _user(u)
        return out

    async def abort_deal(self, deal_id: int) -> None:
        async with self.sessions.begin() as s:
            await s.execute(
                update(Deal)
                .where(Deal.id == deal_id, Deal.status == "running")
                .values(status="aborted", finished_at=utcnow())
            )

    async def running_deals(self) -> list[RunningDeal]:
        """Every deal still running, with its table and journal (for restoring after a restart)."""
        async with self.sessions() as s:
            deals = (await s.scalars(select(Deal).where(Deal.status == "running").order_by(Deal.id))).all()
            out = []
            for d in deals:
                t = await s.get(GameTable, d.table_id)
                if t is None:
                    continue
                journal = (
                    await s.scalars(select(JournalEntry).where(JournalEntry.deal_id == d.id).order_by(JournalEntry.n))
                ).all()
                out.append(
                    RunningDeal(
                        table=_table(t),
                        deal_id=d.id,
                        deal_index=d.deal_index,
                        options=dict(d.options),
                        seed=d.seed,
                        context=dict(d.context),
                        seats=list(d.seats),
                        journal=[JournalRow(j.deal_id, j.n, j.seat, j.action) for j in journal],
                    )
                )
            return out

    async def close_idle_tables(self, keep: Sequence[str]) -> int:
        """Close every open table not in ``keep`` (at start: tables without a running deal are gone)."""
        async with self.sessions.begin() as s:
            q = update(GameTable).where(GameTable.status == "open")
            if keep:
                q = q.where(GameTable.id.not_in(list(keep)))
            res = await s.execute(q.values(status="closed", closed_at=utcnow(), invite_code=None))
            sq = select(GameTable.id).where(GameTable.status == "closed")
            await s.execute(update(Seat).where(Seat.table_id.in_(sq), Seat.user_id.is_not(None)).values(user_id=None))
            return int(res.rowcount)  # type: ignore[attr-defined]

    async def count(self, what: str) -> int:
        model = {"users": User, "deals": Deal, "journal": JournalEntry}[what]
        async with self.sessions() as s:
            return int(await s.scalar(select(func.count()).select_from(model)) or 0)
