"""The repository the server uses: every database read and write goes through :class:`Store`.

Methods return plain frozen dataclasses or dicts, never ORM objects, so nothing loads lazily outside a
session.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import case, delete, func, insert, or_, select, text, true, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from qipai.store.db import make_engine, upgrade
from qipai.store.gate import Gate, Sessions
from qipai.store.models import (
    Deal,
    DealPlayer,
    Friend,
    GameTable,
    JournalEntry,
    LedgerEntry,
    Match,
    MatchMoney,
    MatchPlayer,
    Meta,
    Seat,
    Token,
    User,
    UserGame,
    UserRole,
    utcnow,
)
from qipai.store.names import name_key


class NameTaken(ValueError):
    """A user with that name (in any case) already exists."""


class NotAGuest(ValueError):
    """The account is not a guest (a registered account or a bot's): it cannot be saved as a new one."""


@dataclass(frozen=True, slots=True)
class UserInfo:
    """An account: a person, a guest, or a bot (whose seats' points land on it)."""

    id: int
    name: str
    is_guest: bool
    is_bot: bool = False
    blocked: bool = False
    """Blocked by the operator (``qipai users block``): it may not log in, sit down or register for a match.
    Not part of :meth:`public` (nobody else is told)."""

    def public(self) -> dict[str, Any]:
        out = asdict(self)
        del out["blocked"]
        return out


@dataclass(frozen=True, slots=True)
class AccountRow:
    """An account as the operator's ``qipai users list`` shows it."""

    id: int
    name: str
    kind: str
    """``registered``, ``guest`` or ``bot``."""
    created_at: str | None
    last_login: str | None
    """When its newest session began, kept when its sessions end (``None``: none began since migration 0014,
    which filled it from the sessions then live)."""
    sessions: int
    blocked_at: str | None
    blocked_reason: str | None
    points: dict[str, int]
    """Its points in every game it has a standing in."""


@dataclass(frozen=True, slots=True)
class Standing:
    """An account's points and counts in one game (``roles``: role → ``(played, won)``)."""

    user_id: int
    game: str
    points: int
    games_played: int
    wins: int
    roles: dict[str, tuple[int, int]]

    def public(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "points": self.points,
            "games_played": self.games_played,
            "wins": self.wins,
            "roles": {r: {"played": p, "won": w} for r, (p, w) in self.roles.items()},
        }


@dataclass(frozen=True)
class MatchRow:
    """A stored match: its definition and its tournament state (JSON text)."""

    id: str
    name: str
    game: str
    platform_game: str
    status: str
    source: str | None
    definition: dict[str, Any]
    state: str
    version: int
    start_at: int | None
    created_at: str | None
    updated_at: str | None


@dataclass(frozen=True)
class MoneyMove:
    """A fee (negative), refund or prize of a match, written once per ``key``."""

    key: str
    user_id: int
    delta: int
    kind: str


@dataclass(frozen=True)
class MatchRecord:
    """One player's entry in a match (the match history)."""

    user_id: int
    entrant: str
    status: str
    place: int | None = None
    prize: int = 0
    fee: int = 0


class StaleMatch(RuntimeError):
    """A match was written by somebody else since it was read (its version moved on)."""


class Overdrawn(RuntimeError):
    """A match fee more than the player has (two registrations at once on different nodes): written nowhere."""

    def __init__(self, user_id: int, have: int, fee: int) -> None:
        super().__init__(f"user {user_id} has {have} points, fewer than the fee {fee}")
        self.user_id, self.have, self.fee = user_id, have, fee


class TooManyFriends(RuntimeError):
    """A friend request or acceptance past the cap on friends and requests sent: written nowhere."""

    def __init__(self, user_id: int, limit: int) -> None:
        super().__init__(f"user {user_id} has {limit} friends and requests already")
        self.user_id, self.limit = user_id, limit


class FencedOut(RuntimeError):
    """A write for a table another node has claimed since (its fencing token is newer): nothing was written."""


class StoreInUse(RuntimeError):
    """Another server holds the database in a way this one may not share (:meth:`Store.hold`)."""


def _other_cluster(key: str) -> StoreInUse:
    return StoreInUse(f"nodes of another cluster (another --redis-url or --redis-prefix) use this database: every "
                      f"node on it must give the same ones (this node: {key})")


def lock_file(db: str, alone: bool, cluster: str | None = None) -> Any:
    """Lock ``<db>.lock`` (exclusively when ``alone``, else shared) and return the open file, which holds the
    lock until it is closed; :class:`StoreInUse` when another process holds it otherwise.  A node of cluster
    ``cluster`` (:meth:`~qipai.host.settings.Settings.cluster_key`) also holds ``<db>.cluster-<hash>.lock``
    shared, and is refused while a node of another cluster holds its own."""
    import fcntl
    import glob
    import hashlib

    f = open(db + ".lock", "a+")  # noqa: SIM115 - the caller keeps it open
    try:
        fcntl.flock(f, (fcntl.LOCK_EX if alone else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise StoreInUse(f"another qipai server uses the database {db} (it holds {db}.lock): stop it first, or "
                         "run several nodes with --redis-url") from None
    if cluster is None:
        return f
    mine = f"{db}.cluster-{hashlib.sha256(cluster.encode()).hexdigest()[:16]}.lock"
    held = contextlib.ExitStack()
    held.enter_context(f)
    try:
        c = held.enter_context(open(mine, "a+"))  # noqa: SIM115 - kept open with the first
        try:
            fcntl.flock(c, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:  # held exclusively a moment: a node of another cluster checking whether ours is alive
            raise _other_cluster(cluster) from None
        for other in glob.glob(glob.escape(db) + ".cluster-*.lock"):
            if other == mine:
                continue
            with open(other, "a+") as o:
                try:
                    fcntl.flock(o, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    raise _other_cluster(cluster) from None
                fcntl.flock(o, fcntl.LOCK_UN)  # a cluster gone: nobody holds its file
    except BaseException:
        held.close()
        raise
    return held


async def advisory_lock(conn: Any, alone: bool, cluster: str | None = None) -> None:
    """Take the schema's advisory lock on PostgreSQL connection ``conn`` (an ``AsyncConnection``), exclusive when
    ``alone``; it lasts as long as the connection.  :class:`StoreInUse` when another server holds it otherwise.
    A node of cluster ``cluster`` (:meth:`~qipai.host.settings.Settings.cluster_key`) also takes a shared lock
    of the schema and the cluster, and is refused while a node of another cluster holds one."""
    fn = "pg_try_advisory_lock" if alone else "pg_try_advisory_lock_shared"
    got = (await conn.execute(text(f"SELECT {fn}(hashtext('qipai:' || current_schema()))"))).scalar()
    await conn.commit()
    if not got:
        what = "another qipai server" if alone else "a qipai server without --redis-url"
        raise StoreInUse(f"{what} uses this database: stop it first, or run every node with --redis-url")
    if cluster is None:
        return
    row = (await conn.execute(text(
        "SELECT hashtext('qipai-cluster:' || current_schema()), hashtext(:k), "
        "pg_try_advisory_lock_shared(hashtext('qipai-cluster:' || current_schema()), hashtext(:k))"),
        {"k": cluster})).one()
    await conn.commit()
    space, key = int(row[0]) & 0xFFFFFFFF, int(row[1]) & 0xFFFFFFFF  # as pg_locks shows them (oid)
    others = (await conn.execute(text(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2 "
        "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
        "AND classid::bigint = :space AND objid::bigint <> :key"), {"space": space, "key": key})).scalar()
    if others:
        await conn.execute(text("SELECT pg_advisory_unlock_shared(hashtext('qipai-cluster:' || current_schema()), "
                                "hashtext(:k))"), {"k": cluster})
        await conn.commit()
        raise _other_cluster(cluster)
    await conn.commit()


class StoreFull(RuntimeError):
    """A value the database cannot hold (a settlement beyond 64-bit points): written nowhere."""


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
    for_points: bool = True
    """Whether deals here move the players' points."""
    match_state: dict[str, Any] | None = None
    """The game's match state between deals, as last saved."""
    tags: dict[str, Any] | None = None
    """What the table belongs to (tournaments); ``managed`` tables start deals only when told."""
    deals_total: int | None = None
    """How many deals the table plays before it closes with a final summary (``None``: open-ended)."""


@dataclass(frozen=True, slots=True)
class PeriodStanding:
    """An account's row of a period board (周榜 / 月榜): the points its deals of ``game`` settled in the period won
    it, those deals and its wins among them; ``total``: its points in the game now (its title)."""

    user_id: int
    game: str
    points: int
    deals: int
    wins: int
    total: int


@dataclass(frozen=True, slots=True)
class JournalRow:
    deal_id: int
    n: int
    seat: int | None
    action: str
    fence: tuple[str, int] | None = None
    """``(table_id, lease token)``: with several nodes, written only while that token is the table's."""


Fence = tuple[str, int] | None
"""``(table_id, lease token)`` of a write that must happen only while the table's claim is that one (several
nodes), or ``None`` (one node)."""


@dataclass(frozen=True, slots=True)
class SettleRow:
    """One seat's settlement: ``score`` as the game settled it, ``delta`` the points that move (0 at a table
    that plays for no points)."""

    user_id: int
    seat: int
    delta: int
    role: str | None
    won: bool | None
    score: int | None = None


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
    last_at: str | None = None
    """When the latest action (or the deal's start) was written, ISO 8601: clocks go on from there."""
    leaving: tuple[int, ...] = ()
    """The seats whose player has left (of the match, or during this deal): see :meth:`Store.set_seat`."""


def _seat(x: Seat) -> dict[str, Any]:
    return {"user_id": x.user_id, "bot": x.bot, "leaving": bool(x.leaving), "ready": bool(x.ready)}


def _user(u: User) -> UserInfo:
    return UserInfo(id=u.id, name=u.name, is_guest=u.is_guest, is_bot=u.is_bot, blocked=u.blocked_at is not None)


POINTS_LIMIT = 2**62
"""Points beyond this are refused (the columns are 64-bit)."""


def _credit(s: Any, ug: UserGame, delta: int, reason: str, ref: str | None, at: datetime) -> int:
    """Move a locked standing's points by ``delta`` with its ledger entry (in the caller's transaction ``s``);
    the new points."""
    new = ug.points + delta
    if abs(new) >= POINTS_LIMIT:
        raise StoreFull(f"points of user {ug.user_id} would leave the 64-bit range")
    ug.points = new
    s.add(LedgerEntry(user_id=ug.user_id, game=ug.game, delta=delta, reason=reason, ref=ref, created_at=at))
    return new


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
        for_points=t.for_points,
        match_state=None if t.match_state is None else dict(t.match_state),
        tags=None if t.tags is None else dict(t.tags),
        deals_total=t.deals_total,
    )


def _match_of(tags: dict[str, Any] | None) -> str | None:
    """The match a table's tags name (``None`` for a table of no match)."""
    mid = (tags or {}).get("match_id")
    return mid[:32] if isinstance(mid, str) else None


def _storable(key: str) -> bool:
    """Whether a client's text can name a row: PostgreSQL's text holds no NUL character (a query with one fails
    with an encoding error, which was a 500), and no name or id ever stored has one (names refuse control
    characters, ids are made here): such text names nothing, on every database alike."""
    return "\x00" not in key


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
        self._held: Any = None
        """What :meth:`hold` keeps open: a lock file (SQLite) or a connection holding an advisory lock."""
        # SQLite: one connection, one transaction at a time, the journal's first (see qipai.store.gate)
        gate = Gate() if engine.url.drivername.startswith("sqlite") else None
        self.sessions = Sessions(async_sessionmaker(engine, expire_on_commit=False, class_=AsyncSession), gate)

    @classmethod
    async def open(cls, url: str, *, schema: str | None = None, migrate: bool = True, busy_ms: int = 5000) -> Store:
        """Connect to ``url`` and (by default) apply the migrations."""
        engine = make_engine(url, schema=schema, busy_ms=busy_ms)
        if migrate:
            await upgrade(engine)
        return cls(engine)

    async def close(self) -> None:
        held, self._held = self._held, None
        if held is not None:
            with contextlib.suppress(Exception):
                await held.close() if hasattr(held, "execute") else held.close()
        await self.engine.dispose()

    async def hold(self, alone: bool, cluster: str | None = None) -> None:
        """Hold this database for as long as the store is open: ``alone`` for a server without a cluster (no
        other server may use the database then), else shared with the other nodes of a cluster.  Raises
        :class:`StoreInUse` when another server holds it otherwise (two servers without a cluster on one
        database would run the same tables twice).  SQLite: a lock on ``<file>.lock``; PostgreSQL: an
        advisory lock of the schema, on a connection kept open.  ``cluster`` names a node's cluster: nodes of
        another one on the same database are refused (:func:`advisory_lock`, :func:`lock_file`)."""
        url = self.engine.url
        if url.get_backend_name() == "sqlite":
            db = url.database
            if db and db != ":memory:" and "mode=memory" not in str(url.query):
                self._held = lock_file(db, alone, cluster)
            return
        conn = await self.engine.connect()
        try:
            await advisory_lock(conn, alone, cluster)
        except BaseException:
            await conn.invalidate()  # not back to the pool: a lock it took would stay held
            await conn.close()
            raise
        self._held = conn

    # ----------------------------------------------------------------- users and tokens
    async def ping(self) -> None:
        """Raise unless the database takes a write now: a write that changes nothing, rolled back (a read
        still answers while another process holds the write lock, or on a full disk)."""
        async with self.engine.connect() as conn:
            await conn.execute(text("UPDATE alembic_version SET version_num = version_num"))
            await conn.rollback()

    async def create_user(self, name: str, password_hash: str | None, *, is_guest: bool = False,
                          is_bot: bool = False) -> UserInfo:
        u = User(
            name=name,
            name_key=name_key(name),
            password_hash=password_hash,
            is_guest=is_guest,
            is_bot=is_bot,
            created_at=utcnow(),
        )
        try:
            async with self.sessions.begin() as s:
                s.add(u)
        except IntegrityError as e:
            raise NameTaken(name) from e
        return _user(u)

    async def bot_account(self, bot: str) -> UserInfo:
        """The account of bot ``bot`` (``bot-<name>``), made on first use."""
        name = f"bot-{bot}"
        async with self.sessions() as s:
            u = await s.scalar(select(User).where(User.name_key == name_key(name)))
            if u is not None:
                return _user(u)
        try:
            return await self.create_user(name, None, is_bot=True)
        except NameTaken:
            async with self.sessions() as s:
                u = await s.scalar(select(User).where(User.name_key == name_key(name)))
                assert u is not None
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
        if not _storable(name):
            return None
        async with self.sessions() as s:
            u = await s.scalar(select(User).where(User.name_key == name_key(name), User.is_bot.is_(False)))
            return None if u is None else (_user(u), u.password_hash)

    async def register_guest(self, user_id: int, name: str, password_hash: str) -> UserInfo:
        """Turn guest ``user_id`` into a registered account in place (游客绑定账号): the same id, so its points,
        history, titles, match entries and seats stay; it takes ``name`` and the password, and is a guest no more.
        The name in the seats of every deal it played (and of a running one) becomes ``name`` too, so that its
        history, a table's results and a deal rebuilt after a restart name it so.  Raises :class:`NameTaken`, or
        :class:`NotAGuest` when the account is not a guest (or no longer exists)."""
        try:
            async with self.sessions.begin() as s:
                u = await s.scalar(select(User).where(User.id == user_id).with_for_update())
                if u is None or not u.is_guest or u.is_bot:
                    raise NotAGuest(user_id)
                u.name = name
                u.name_key = name_key(name)
                u.password_hash = password_hash
                u.is_guest = False
                await s.flush()
                await self._rename_in_deals(s, user_id, name)
                return _user(u)
        except IntegrityError as e:
            raise NameTaken(name) from e

    async def rename_in_deals(self, user_id: int, name: str, deal_ids: Sequence[int]) -> None:
        """Write ``name`` for the user's seats in these deals (a deal a table started while the account was being
        renamed)."""
        async with self.sessions.begin() as s:
            await self._rename_in_deals(s, user_id, name, deal_ids)

    @staticmethod
    async def _rename_in_deals(s: AsyncSession, user_id: int, name: str,
                               deal_ids: Sequence[int] | None = None) -> None:
        """The user's seats in the deals it played and the running deals (or in ``deal_ids``) take ``name``."""
        if deal_ids is None:
            played = select(DealPlayer.deal_id).where(DealPlayer.user_id == user_id)
            q = select(Deal.id, Deal.seats).where(or_(Deal.id.in_(played), Deal.status == "running"))
        else:
            q = select(Deal.id, Deal.seats).where(Deal.id.in_(list(deal_ids)))
        for deal_id, seats in (await s.execute(q)).all():
            rows = [dict(p) if isinstance(p, dict) else p for p in seats or []]
            hit = False
            for p in rows:
                if isinstance(p, dict) and p.get("user_id") == user_id and p.get("bot") is None \
                        and p.get("name") != name:
                    p["name"] = name
                    hit = True
            if hit:
                await s.execute(update(Deal).where(Deal.id == deal_id).values(seats=rows))

    async def set_password_hash(self, user_id: int, password_hash: str, *, was: str | None = None) -> None:
        """Write the account's password hash; with ``was``, only if it is still that one (a log-in rehashing the
        password it checked must not write the old password over a change made meanwhile)."""
        async with self.sessions.begin() as s:
            q = update(User).where(User.id == user_id).values(password_hash=password_hash)
            if was is not None:
                q = q.where(User.password_hash == was)
            await s.execute(q)

    async def change_password(self, user_id: int, password_hash: str, *, was: str, keep: str | None) -> bool:
        """The player's own password change: the new hash is written, and every session of the account but
        ``keep`` (a token hash: the one that asked) dropped, in one transaction — only if the hash is still
        ``was``, the one the old password was checked against.  ``False`` (nothing written) when it changed
        meanwhile: two changes sent at once from two sessions each checked the old password, both went through,
        and each dropped the other's session."""
        async with self.sessions.begin() as s:
            res = await s.execute(update(User).where(User.id == user_id, User.password_hash == was)
                                  .values(password_hash=password_hash))
            if int(res.rowcount) != 1:  # type: ignore[attr-defined]
                return False
            q = delete(Token).where(Token.user_id == user_id)
            if keep is not None:
                q = q.where(Token.token_hash != keep)
            await s.execute(q)
        return True

    async def add_token(self, token_hash: str, user_id: int, expires_at: datetime, *,
                        password_hash: str | None = None) -> bool:
        """A new session of the user (and its start as the account's last log-in).  ``password_hash``: a log-in's,
        the hash its password was checked against — the session is written only if the account's password is
        still that one, checked on the locked row as the session is written (a password changed meanwhile ended
        the account's other sessions, and this one, made with the old password, would have outlived the change);
        ``False`` then, and nothing is written."""
        now = utcnow()
        async with self.sessions.begin() as s:
            q = update(User).where(User.id == user_id).values(last_login_at=now)
            if password_hash is not None:
                q = q.where(User.password_hash == password_hash)
            res = await s.execute(q)
            if password_hash is not None and int(res.rowcount) != 1:  # type: ignore[attr-defined]
                return False
            s.add(Token(token_hash=token_hash, user_id=user_id, created_at=now, expires_at=expires_at))
        return True

    async def user_for_token(self, token_hash: str) -> UserInfo | None:
        found = await self.token_info(token_hash)
        return None if found is None else found[0]

    async def token_info(self, token_hash: str) -> tuple[UserInfo, datetime] | None:
        """The user of an unexpired session token, and when it expires."""
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
            return _user(user), expires

    async def token_alive(self, token_hashes: Sequence[str]) -> set[str]:
        """Which of these token hashes still exist and have not expired, and are not of a blocked account."""
        if not token_hashes:
            return set()
        async with self.sessions() as s:
            rows = (await s.execute(select(Token.token_hash, Token.expires_at)
                                    .join(User, User.id == Token.user_id)
                                    .where(Token.token_hash.in_(list(token_hashes)), User.blocked_at.is_(None)))
                    ).all()
        now = utcnow()
        out = set()
        for h, exp in rows:
            if exp.tzinfo is None:
                exp = exp.replace(tzinfo=UTC)
            if exp > now:
                out.add(h)
        return out

    async def drop_token(self, token_hash: str) -> None:
        async with self.sessions.begin() as s:
            await s.execute(delete(Token).where(Token.token_hash == token_hash))

    async def blocked_among(self, user_ids: Sequence[int]) -> set[int]:
        """Which of these accounts are blocked."""
        if not user_ids:
            return set()
        async with self.sessions() as s:
            return set((await s.scalars(select(User.id).where(User.id.in_(list(user_ids)),
                                                              User.blocked_at.is_not(None)))).all())

    # ----------------------------------------------------------------- friends (好友)
    async def friends_of(self, user_id: int) -> dict[str, list[UserInfo]]:
        """The user's ``friends``, the requests others sent him (``incoming``), those he sent (``outgoing``) and
        the players he blocked (``blocked``), each by name."""
        async with self.sessions() as s:
            mine = (await s.execute(select(Friend.friend_id, Friend.state, User)
                                    .join(User, User.id == Friend.friend_id)
                                    .where(Friend.user_id == user_id))).all()
            theirs = (await s.execute(select(User).join(Friend, Friend.user_id == User.id)
                                      .where(Friend.friend_id == user_id, Friend.state == "requested"))).scalars().all()
        out: dict[str, list[UserInfo]] = {
            "friends": [_user(u) for _, st, u in mine if st == "friends"],
            "incoming": [_user(u) for u in theirs],
            "outgoing": [_user(u) for _, st, u in mine if st == "requested"],
            "blocked": [_user(u) for _, st, u in mine if st == "blocked"],
        }
        for v in out.values():
            v.sort(key=lambda u: u.name.casefold())
        return out

    async def recent_players(self, user_id: int, limit: int = 20, deals: int = 100) -> list[UserInfo]:
        """The people (no bots, no guests) the user sat with in his latest ``deals`` deals, the latest first:
        whom to ask to be friends (最近同桌)."""
        mine = (select(DealPlayer.deal_id).where(DealPlayer.user_id == user_id)
                .order_by(DealPlayer.id.desc()).limit(deals).subquery())
        last = func.max(DealPlayer.id).label("last")
        q = (select(User, last).join(DealPlayer, DealPlayer.user_id == User.id)
             .where(DealPlayer.deal_id.in_(select(mine.c.deal_id)), User.id != user_id, User.is_bot.is_(False),
                    User.is_guest.is_(False))
             .group_by(User.id).order_by(last.desc()).limit(limit))
        async with self.sessions() as s:
            return [_user(u) for u, _ in (await s.execute(q)).all()]

    @staticmethod
    async def _lock_friends(s: AsyncSession, *user_ids: int) -> None:
        """Make the friend writes of these users one at a time: a write to each one's row first, in id order
        (PostgreSQL locks the rows, SQLite the database, until the transaction ends), before anything is read.
        Every friend write locks both of its users: two requests at once cannot both pass the cap, and two
        writes about the same pair (an acceptance and a withdrawal, two players asking each other) do not read
        the same rows and then each write on what the other changed (a one-sided friendship, both requests left
        open, an acceptance failing on the row the withdrawal deleted)."""
        for uid in sorted(set(user_ids)):
            await s.execute(update(User).where(User.id == uid).values(is_guest=User.is_guest))

    @staticmethod
    async def _check_cap(s: AsyncSession, user_id: int, limit: int | None) -> None:
        """Raise :class:`TooManyFriends` when one more friend or request would pass ``limit``."""
        if limit is None:
            return
        n = await s.scalar(select(func.count()).select_from(Friend)
                           .where(Friend.user_id == user_id, Friend.state != "blocked"))
        if int(n or 0) >= limit:
            raise TooManyFriends(user_id, limit)

    async def request_friend(self, user_id: int, friend_id: int, limit: int | None = None) -> str:
        """``user_id`` asks ``friend_id`` to be friends: ``requested`` (asked, or asked before), ``accepted`` (the
        other had asked him: they are friends now), ``friends`` (they were already) or ``blocked`` (the other
        blocked him: nothing is written).  Asking somebody one blocked lifts the block.  With ``limit``, a
        request or acceptance that would give him more friends and requests than that raises
        :class:`TooManyFriends` (checked and written in one transaction, his writes one at a time)."""
        async with self.sessions.begin() as s:
            await self._lock_friends(s, user_id, friend_id)
            theirs = await s.get(Friend, (friend_id, user_id))
            if theirs is not None and theirs.state == "blocked":
                return "blocked"
            mine = await s.get(Friend, (user_id, friend_id))
            if mine is not None and mine.state != "blocked":
                return "friends" if mine.state == "friends" else "requested"
            await self._check_cap(s, user_id, limit)
            if theirs is not None:
                theirs.state = "friends"
                if mine is None:
                    s.add(Friend(user_id=user_id, friend_id=friend_id, state="friends"))
                else:
                    mine.state = "friends"
                return "accepted"
            if mine is None:
                s.add(Friend(user_id=user_id, friend_id=friend_id, state="requested"))
            else:
                mine.state = "requested"
            return "requested"

    async def accept_friend(self, user_id: int, requester_id: int, limit: int | None = None) -> bool | None:
        """Accept ``requester_id``'s request: ``True``; ``None`` when they were friends already; ``False`` when
        there is no request.  With ``limit``: :class:`TooManyFriends` when it would give ``user_id`` more friends
        and requests than that (as :meth:`request_friend`)."""
        async with self.sessions.begin() as s:
            await self._lock_friends(s, user_id, requester_id)
            theirs = await s.get(Friend, (requester_id, user_id))
            if theirs is None or theirs.state == "blocked":
                return False
            if theirs.state == "friends":
                return None
            mine = await s.get(Friend, (user_id, requester_id))
            if mine is None or mine.state == "blocked":
                await self._check_cap(s, user_id, limit)
            theirs.state = "friends"
            if mine is None:
                s.add(Friend(user_id=user_id, friend_id=requester_id, state="friends"))
            else:
                mine.state = "friends"
            return True

    async def remove_friend(self, user_id: int, other_id: int) -> bool:
        """Unfriend, decline a request or withdraw one: the friendship and requests between the two go (not a
        block, which :meth:`unblock` lifts); ``False`` if there were none."""
        async with self.sessions.begin() as s:
            await self._lock_friends(s, user_id, other_id)
            gone = await s.execute(delete(Friend).where(Friend.state != "blocked", or_(
                (Friend.user_id == user_id) & (Friend.friend_id == other_id),
                (Friend.user_id == other_id) & (Friend.friend_id == user_id))))
            return bool(getattr(gone, "rowcount", 0))

    async def block(self, user_id: int, other_id: int) -> bool:
        """拉黑: ``user_id`` takes no friend requests from ``other_id`` any more; a friendship or requests between
        them end.  Returns whether there was one (the other is told it ended)."""
        async with self.sessions.begin() as s:
            await self._lock_friends(s, user_id, other_id)
            gone = await s.execute(delete(Friend).where(Friend.state != "blocked", or_(
                (Friend.user_id == user_id) & (Friend.friend_id == other_id),
                (Friend.user_id == other_id) & (Friend.friend_id == user_id))))
            mine = await s.get(Friend, (user_id, other_id))
            if mine is None:
                s.add(Friend(user_id=user_id, friend_id=other_id, state="blocked"))
            return bool(getattr(gone, "rowcount", 0))

    async def unblock(self, user_id: int, other_id: int) -> bool:
        """Lift ``user_id``'s block of ``other_id``; ``False`` when there was none."""
        async with self.sessions.begin() as s:
            await self._lock_friends(s, user_id, other_id)
            gone = await s.execute(delete(Friend).where(Friend.user_id == user_id, Friend.friend_id == other_id,
                                                        Friend.state == "blocked"))
            return bool(getattr(gone, "rowcount", 0))

    async def blockers_of(self, user_id: int) -> set[int]:
        """The users who blocked ``user_id`` (his quick chat does not reach them)."""
        async with self.sessions() as s:
            rows = await s.execute(select(Friend.user_id).where(Friend.friend_id == user_id,
                                                                Friend.state == "blocked"))
            return {int(r) for r in rows.scalars()}

    async def relation(self, user_id: int, other_id: int) -> tuple[str | None, str | None]:
        """What the two are to each other: the state of ``user_id``'s row toward ``other_id`` and of the other's
        toward him (``friends``, ``requested``, ``blocked`` or ``None``)."""
        async with self.sessions() as s:
            mine = await s.get(Friend, (user_id, other_id))
            theirs = await s.get(Friend, (other_id, user_id))
        return (mine.state if mine is not None else None), (theirs.state if theirs is not None else None)

    async def are_friends(self, user_id: int, other_id: int) -> bool:
        async with self.sessions() as s:
            row = await s.get(Friend, (user_id, other_id))
            return row is not None and row.state == "friends"

    # ----------------------------------------------------------------- the operator's account commands
    async def find_user(self, name: str) -> UserInfo | None:
        """The account called ``name`` (any case, look-alike letters too: its name key), bots' and guests'
        included; ``#<id>`` names an account by its id."""
        if not _storable(name):
            return None
        async with self.sessions() as s:
            if name.startswith("#") and name[1:].isascii() and name[1:].isdigit():  # not "#²", "#٣"
                uid = int(name[1:])
                u = await s.get(User, uid) if uid < 2**63 else None
            else:
                u = await s.scalar(select(User).where(User.name_key == name_key(name)))
            return None if u is None else _user(u)

    async def list_users(self, pattern: str | None = None, limit: int = 100) -> tuple[list[AccountRow], int]:
        """Accounts by id (at most ``limit``), those whose name matches ``pattern`` only if given (any case; ``*``
        and ``?`` are wildcards, else a part of the name), and how many match in all."""
        cond: Any = true()
        if pattern:
            like = "".join("\\" + c if c in "%_\\" else "%" if c == "*" else "_" if c == "?" else c
                           for c in pattern.lower())
            if "*" not in pattern and "?" not in pattern:
                like = f"%{like}%"
            cond = func.lower(User.name).like(like, escape="\\")
        async with self.sessions() as s:
            total = int(await s.scalar(select(func.count()).select_from(User).where(cond)) or 0)
            users = (await s.scalars(select(User).where(cond).order_by(User.id).limit(limit))).all()
            ids = [u.id for u in users]
            points: dict[int, dict[str, int]] = {}
            sessions: dict[int, int] = {}
            if ids:
                for uid, game, pts in (await s.execute(select(UserGame.user_id, UserGame.game, UserGame.points)
                                                       .where(UserGame.user_id.in_(ids))
                                                       .order_by(UserGame.game))).all():
                    points.setdefault(uid, {})[game] = int(pts)
                now = utcnow()
                for uid, n in (await s.execute(
                        select(Token.user_id, func.count())
                        .where(Token.user_id.in_(ids), Token.expires_at > now).group_by(Token.user_id))).all():
                    sessions[uid] = int(n)
        rows = [AccountRow(id=u.id, name=u.name, kind="bot" if u.is_bot else "guest" if u.is_guest else "registered",
                           created_at=_iso(u.created_at), last_login=_iso(u.last_login_at),
                           sessions=sessions.get(u.id, 0), blocked_at=_iso(u.blocked_at),
                           blocked_reason=u.blocked_reason, points=points.get(u.id, {}))
                for u in users]
        return rows, total

    async def reset_password(self, user_id: int, password_hash: str) -> int:
        """The operator sets a new password: written, and every session of the account dropped, in one
        transaction (a running server closes their sockets at its next session check).  Returns how many
        sessions ended."""
        async with self.sessions.begin() as s:
            await s.execute(update(User).where(User.id == user_id).values(password_hash=password_hash))
            res = await s.execute(delete(Token).where(Token.user_id == user_id))
            return int(res.rowcount)  # type: ignore[attr-defined]

    async def block_user(self, user_id: int, reason: str | None) -> tuple[datetime, int]:
        """Block the account (kept blocked since the first time, the reason replaced when one is given) and drop
        every session of it, in one transaction.  Returns since when it is blocked and how many sessions ended."""
        now = utcnow()
        async with self.sessions.begin() as s:
            # the write comes first: SQLite takes its write lock now, waiting (busy timeout) for a server's write
            values: dict[str, Any] = {"blocked_at": func.coalesce(User.blocked_at, now)}
            if reason is not None:
                values["blocked_reason"] = reason
            await s.execute(update(User).where(User.id == user_id).values(**values))
            res = await s.execute(delete(Token).where(Token.user_id == user_id))
            since = await s.scalar(select(User.blocked_at).where(User.id == user_id))
        assert since is not None
        if since.tzinfo is None:
            since = since.replace(tzinfo=UTC)
        return since, int(res.rowcount)  # type: ignore[attr-defined]

    async def unblock_user(self, user_id: int) -> bool:
        """Unblock the account; ``False`` when it was not blocked."""
        async with self.sessions.begin() as s:
            res = await s.execute(update(User).where(User.id == user_id, User.blocked_at.is_not(None))
                                  .values(blocked_at=None, blocked_reason=None))
            return int(res.rowcount) == 1  # type: ignore[attr-defined]

    async def purge_expired_tokens(self) -> int:
        """Delete the session tokens that have expired (they no longer log anyone in); returns how many."""
        async with self.sessions.begin() as s:
            res = await s.execute(delete(Token).where(Token.expires_at <= utcnow()))
            return int(res.rowcount)  # type: ignore[attr-defined]

    async def purge_guests(self, created_before: datetime, *, dry_run: bool = False) -> list[tuple[int, str]]:
        """Delete the guest accounts made before ``created_before`` that nobody can use and nothing refers to:
        no unexpired session (a guest has no password, so without one it can never log in again), never seated
        in a deal (running, aborted or settled), no seat, no table made, no match entry or prize, no points
        change beyond the starting grant.  Their points rows and starting-grant ledger entries go with them.
        Returns the accounts (id, name) deleted, or that would be with ``dry_run``."""
        now = utcnow()

        def unused() -> list[Any]:
            return [
                User.is_guest.is_(True), User.is_bot.is_(False), User.created_at < created_before,
                ~select(Token.token_hash).where(Token.user_id == User.id, Token.expires_at > now).exists(),
                ~select(DealPlayer.id).where(DealPlayer.user_id == User.id).exists(),
                ~select(Seat.table_id).where(Seat.user_id == User.id).exists(),
                ~select(GameTable.id).where(GameTable.created_by == User.id).exists(),
                ~select(MatchPlayer.match_id).where(MatchPlayer.user_id == User.id).exists(),
                ~select(MatchMoney.key).where(MatchMoney.user_id == User.id).exists(),
                ~select(LedgerEntry.id).where(LedgerEntry.user_id == User.id, LedgerEntry.reason != "start").exists(),
            ]

        async with self.sessions.begin() as s:
            rows = [(int(i), str(n)) for i, n in
                    (await s.execute(select(User.id, User.name).where(*unused()).order_by(User.id))).all()]
            if not rows:
                return []
            # a deal that never settled (running, or aborted at a restore) names its seats only in its record
            seated: set[int] = set()
            for seats in (await s.scalars(select(Deal.seats).where(Deal.status != "over"))).all():
                seated.update(int(x["user_id"]) for x in seats or [] if x.get("user_id") is not None)
            rows = [r for r in rows if r[0] not in seated]
            if dry_run or not rows:
                return rows
            ids = [i for i, _ in rows]
            for chunk in range(0, len(ids), 500):
                part = ids[chunk:chunk + 500]
                for model in (Token, LedgerEntry, UserGame, UserRole):
                    await s.execute(delete(model).where(model.user_id.in_(part)))
                # the conditions again in the delete: should an account have changed meanwhile, the whole purge
                # is rolled back (its dependent rows too)
                res = await s.execute(delete(User).where(User.id.in_(part), *unused()))
                if int(res.rowcount) != len(part):  # type: ignore[attr-defined]
                    raise RuntimeError("guest accounts changed while being purged; nothing was deleted, run it again")
            return rows

    async def database_id(self) -> str | None:
        """The database's own random id (``meta.database_id``, made by the schema's migration 0010)."""
        async with self.sessions() as s:
            return await s.scalar(select(Meta.value).where(Meta.key == "database_id"))

    async def schema_revision(self) -> str | None:
        """The database's schema revision (``None``: no qipai schema in it)."""
        from sqlalchemy import inspect

        async with self.engine.connect() as conn:
            if not await conn.run_sync(lambda c: inspect(c).has_table("alembic_version")):
                return None
            return (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar()

    async def password_hash(self, user_id: int) -> str | None:
        async with self.sessions() as s:
            return await s.scalar(select(User.password_hash).where(User.id == user_id))

    # ----------------------------------------------------------------- points per game
    async def standing(self, user_id: int, game: str, start: int) -> Standing:
        """The account's standing in ``game``; the first time, it is opened with ``start`` points (a ``start``
        ledger entry)."""
        out = await self.standings([user_id], game, lambda _uid: start)
        return out[user_id]

    async def standings(self, user_ids: Sequence[int], game: str, start: Any) -> dict[int, Standing]:
        """Standings of several accounts in ``game``; missing ones are opened with ``start(user_id)`` points."""
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return {}
        async with self.sessions() as s:
            rows = {r.user_id: r for r in (await s.scalars(
                select(UserGame).where(UserGame.game == game, UserGame.user_id.in_(ids)))).all()}
        missing = [u for u in ids if u not in rows]
        if missing:
            now = utcnow()
            for uid in missing:
                pts = int(start(uid))
                try:
                    async with self.sessions.begin() as s:
                        s.add(UserGame(user_id=uid, game=game, points=pts, games_played=0, wins=0))
                        s.add(LedgerEntry(user_id=uid, game=game, delta=pts, reason="start", created_at=now))
                except IntegrityError:
                    pass  # opened meanwhile by another request
            async with self.sessions() as s:
                rows = {r.user_id: r for r in (await s.scalars(
                    select(UserGame).where(UserGame.game == game, UserGame.user_id.in_(ids)))).all()}
        roles = await self._roles(ids, game)
        return {uid: Standing(uid, game, r.points, r.games_played, r.wins, roles.get(uid, {}))
                for uid, r in rows.items()}

    async def _roles(self, ids: Sequence[int], game: str) -> dict[int, dict[str, tuple[int, int]]]:
        async with self.sessions() as s:
            rows = (await s.scalars(select(UserRole).where(UserRole.game == game, UserRole.user_id.in_(list(ids))))
                    ).all()
        out: dict[int, dict[str, tuple[int, int]]] = {}
        for r in rows:
            out.setdefault(r.user_id, {})[r.role] = (r.played, r.won)
        return out

    async def all_standings(self, user_id: int) -> list[Standing]:
        """The account's standing in every game it has played or opened."""
        async with self.sessions() as s:
            rows = (await s.scalars(select(UserGame).where(UserGame.user_id == user_id).order_by(UserGame.game))
                    ).all()
        out = []
        for r in rows:
            roles = (await self._roles([user_id], r.game)).get(user_id, {})
            out.append(Standing(user_id, r.game, r.points, r.games_played, r.wins, roles))
        return out

    async def grant(self, user_id: int, game: str, delta: int, reason: str, *, ref: str | None = None) -> int:
        """Add ``delta`` points (a prize, a fee when negative) with its ledger entry; returns the new points.  The
        account must have a standing in ``game``."""
        async with self.sessions.begin() as s:
            ug = await s.get(UserGame, (user_id, game), with_for_update=True)
            if ug is None:
                raise KeyError(f"user {user_id} has no standing in {game}")
            return _credit(s, ug, delta, reason, ref, utcnow())

    async def grant_relief(self, user_id: int, game: str, amount: int, below: int,
                           every: timedelta) -> int | None:
        """救济: add ``amount`` points with a ``relief`` ledger entry, if the account's points in ``game`` are below
        ``below`` and its last relief is at least ``every`` ago — checked in the same transaction as the grant,
        on the locked row, so that requests sent together cannot each pass the check and each be paid.  Returns
        the new points, or ``None`` when relief is not due."""
        async with self.sessions.begin() as s:
            ug = await s.get(UserGame, (user_id, game), with_for_update=True, populate_existing=True)
            if ug is None or ug.points >= below:
                return None
            last = ug.relief_at
            if last is not None and last.tzinfo is None:
                last = last.replace(tzinfo=UTC)
            now = utcnow()
            if last is not None and now - last < every:
                return None
            ug.relief_at = now
            return _credit(s, ug, amount, "relief", None, now)

    async def last_relief(self, user_id: int, game: str) -> datetime | None:
        async with self.sessions() as s:
            at = await s.scalar(select(UserGame.relief_at).where(UserGame.user_id == user_id, UserGame.game == game))
        if at is not None and at.tzinfo is None:
            at = at.replace(tzinfo=UTC)
        return at

    async def ledger_check(self, game: str) -> dict[str, int]:
        """Totals that let the points be checked as a whole: ``points`` (every account's points), ``ledger``
        (the sum of every ledger entry: equal to ``points``), ``by_reason`` sums, and ``deal_leak`` (the sum of
        all deal settlements: zero but for the escape penalties that leave the table)."""
        async with self.sessions() as s:
            points = int(await s.scalar(select(func.coalesce(func.sum(UserGame.points), 0))
                                        .where(UserGame.game == game)) or 0)
            ledger = int(await s.scalar(select(func.coalesce(func.sum(LedgerEntry.delta), 0))
                                        .where(LedgerEntry.game == game)) or 0)
            reasons = (await s.execute(select(LedgerEntry.reason, func.sum(LedgerEntry.delta))
                                       .where(LedgerEntry.game == game).group_by(LedgerEntry.reason))).all()
        out = {"points": points, "ledger": ledger}
        for reason, total in reasons:
            out[f"reason:{reason}"] = int(total or 0)
        out["deal_leak"] = out.get("reason:deal", 0)
        return out

    @staticmethod
    def _ranked(game: str) -> Any:
        """Who a leaderboard of ``game`` ranks: registered players who have played a deal of it (no guests, no
        bots, no account the operator blocked; a standing opened by a visit, a relief or a match fee alone does not
        rank its starting points above the players who lost some)."""
        return (UserGame.game == game, UserGame.games_played > 0, User.is_guest.is_(False), User.is_bot.is_(False),
                User.blocked_at.is_(None))

    async def leaderboard(self, game: str, limit: int = 50, offset: int = 0) -> list[tuple[UserInfo, Standing]]:
        """The best registered players of ``game`` by points (see :meth:`_ranked`)."""
        async with self.sessions() as s:
            rows = (await s.execute(
                select(User, UserGame)
                .join(UserGame, UserGame.user_id == User.id)
                .where(*self._ranked(game))
                .order_by(UserGame.points.desc(), User.id)
                .limit(limit)
                .offset(offset)
            )).all()
        return [(_user(u), Standing(u.id, game, g.points, g.games_played, g.wins, {})) for u, g in rows]

    async def leaderboard_rank(self, game: str, points: int) -> int:
        """The rank ``points`` has on ``game``'s leaderboard: 1 + the ranked players with more (ties share it)."""
        async with self.sessions() as s:
            above = await s.scalar(select(func.count()).select_from(User).join(UserGame, UserGame.user_id == User.id)
                                   .where(*self._ranked(game), UserGame.points > points))
        return 1 + int(above or 0)

    async def leaderboard_entry(self, game: str, user_id: int) -> tuple[UserInfo, Standing] | None:
        """``user_id``'s row of ``game``'s leaderboard, or ``None`` where it is not ranked."""
        async with self.sessions() as s:
            row = (await s.execute(select(User, UserGame).join(UserGame, UserGame.user_id == User.id)
                                   .where(*self._ranked(game), User.id == user_id))).first()
        if row is None:
            return None
        u, g = row
        return _user(u), Standing(u.id, game, g.points, g.games_played, g.wins, {})

    @staticmethod
    def _period_board(game: str, since: datetime, until: datetime) -> Any:
        """The period board of ``game`` as a subquery, in one aggregate over the deals settled in
        ``[since, until)``: per ranked player (registered, no bot, not blocked by the operator) ``uid``,
        ``points`` (the sum of his seats' settled points: deal results only — no relief, no start grant, no match
        fee, refund or prize, which are ledger entries without a deal), ``deals`` and ``wins``, and his ``rank``
        (1 + the players with more points: ties share it).  Served by ``ix_deals_game_finished`` (the period's
        deals of the game) and ``ix_deal_players_deal_id`` (their seats); a deal that was aborted or failed has no
        seats and counts nothing."""
        since, until = since.astimezone(UTC), until.astimezone(UTC)  # (SQLite compares the UTC text)
        wins = func.coalesce(func.sum(case((DealPlayer.won.is_(True), 1), else_=0)), 0)
        agg = (select(DealPlayer.user_id.label("uid"), func.coalesce(func.sum(DealPlayer.delta), 0).label("points"),
                      func.count().label("deals"), wins.label("wins"))
               .join(Deal, Deal.id == DealPlayer.deal_id)
               .join(User, User.id == DealPlayer.user_id)
               .where(Deal.game == game, Deal.finished_at >= since, Deal.finished_at < until,
                      User.is_guest.is_(False), User.is_bot.is_(False), User.blocked_at.is_(None))
               .group_by(DealPlayer.user_id)).subquery()
        return select(agg, func.rank().over(order_by=agg.c.points.desc()).label("rank")).subquery()

    @classmethod
    def period_query(cls, game: str, since: datetime, until: datetime, limit: int = 50, offset: int = 0,
                     user_id: int | None = None) -> Any:
        """The query of :meth:`period_leaderboard` (a page, or ``user_id``'s row)."""
        board = cls._period_board(game, since, until)
        q = (select(board.c.rank, board.c.points, board.c.deals, board.c.wins, User, UserGame.points)
             .join(User, User.id == board.c.uid)
             .outerjoin(UserGame, (UserGame.user_id == board.c.uid) & (UserGame.game == game)))
        if user_id is not None:
            return q.where(board.c.uid == user_id)
        return q.order_by(board.c.points.desc(), User.id).limit(limit).offset(offset)

    async def period_leaderboard(self, game: str, since: datetime, until: datetime, limit: int = 50,
                                 offset: int = 0, *, user_id: int | None = None
                                 ) -> list[tuple[int, UserInfo, PeriodStanding]]:
        """周榜 / 月榜: the registered players who played ``game`` in ``[since, until)``, ranked by the points its
        deals won them (see :meth:`_period_board`), as ``(rank, user, standing)``; ``user_id``: only his row
        (none where he did not play then)."""
        async with self.sessions() as s:
            rows = (await s.execute(self.period_query(game, since, until, limit, offset, user_id))).all()
        return [(int(rank), _user(u), PeriodStanding(u.id, game, int(points), int(deals), int(wins), int(total or 0)))
                for rank, points, deals, wins, u, total in rows]

    # ----------------------------------------------------------------- history and records
    async def history(self, user_id: int, limit: int = 50, before: int | None = None,
                      game: str | None = None) -> list[dict[str, Any]]:
        """The user's settled deals, newest first (``before``: a deal-player id for paging; ``game``: one game); each
        with its seats' ``players`` (names) and ``users`` (user ids) and the ``match_id`` of a match deal."""
        async with self.sessions() as s:
            q = (
                select(DealPlayer, Deal, GameTable.match_id)
                .join(Deal, Deal.id == DealPlayer.deal_id)
                .outerjoin(GameTable, GameTable.id == Deal.table_id)
                .where(DealPlayer.user_id == user_id)
                .order_by(DealPlayer.id.desc())
                .limit(limit)
            )
            if game is not None:
                q = q.where(Deal.game == game)
            if before is not None:
                q = q.where(DealPlayer.id < before)
            out = []
            for dp, d, match_id in (await s.execute(q)).all():
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
                        "score": dp.score,
                        "delta": dp.delta,
                        "escaped": (d.outcome or {}).get("escaped") == dp.seat,
                        "points_after": dp.points_after,
                        "finished_at": _iso(d.finished_at),
                        "players": [p.get("name") for p in d.seats],
                        "users": [p.get("user_id") for p in d.seats],
                        "match_id": match_id,
                    }
                )
            return out

    async def match_deals(self, match_id: str, *, user_id: int | None = None, limit: int = 50,
                          before: int | None = None) -> list[dict[str, Any]]:
        """A match's settled deals, newest first: each with its table's key in the match (``1.2.3``: stage 1,
        round 2, table 3; ``1.d7``: the 7th table of a 打立出局 stage), the players, their user ids and scores.
        ``user_id``: only the deals that user played; ``before``: a deal id, for paging."""
        if not _storable(match_id):
            return []
        async with self.sessions() as s:
            q = (
                select(Deal, GameTable.tags)
                .join(GameTable, GameTable.id == Deal.table_id)
                .where(GameTable.match_id == match_id, Deal.status == "over")
                .order_by(Deal.id.desc())
                .limit(limit)
            )
            if user_id is not None:
                q = q.where(select(DealPlayer.id).where(DealPlayer.deal_id == Deal.id,
                                                        DealPlayer.user_id == user_id).exists())
            if before is not None:
                q = q.where(Deal.id < before)
            return [
                {
                    "deal_id": d.id,
                    "table_id": d.table_id,
                    "table_key": (tags or {}).get("table_key"),
                    "deal_index": d.deal_index,
                    "game": d.game,
                    "finished_at": _iso(d.finished_at),
                    "players": [p.get("name") for p in d.seats],
                    "users": [p.get("user_id") for p in d.seats],
                    "scores": (d.outcome or {}).get("scores"),
                }
                for d, tags in (await s.execute(q)).all()
            ]

    async def deal(self, deal_id: int) -> dict[str, Any] | None:
        async with self.sessions() as s:
            found = (await s.execute(select(Deal, GameTable.match_id).join(GameTable, GameTable.id == Deal.table_id)
                                     .where(Deal.id == deal_id))).first()
            if found is None:
                return None
            d, match_id = found
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
                "match_id": match_id,
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
                    "escaped": (d.outcome or {}).get("escaped"),
                    "players": [p.get("name") for p in d.seats],
                    "user_ids": [p.get("user_id") for p in d.seats],
                }
                for d in rows
            ]

    async def finished_table(self, table_id: str) -> tuple[TableInfo, str, list[dict[str, Any]]] | None:
        """A table played for a set number of deals (好友房局数), with its status (``open`` or ``closed``) and its
        settled deals (:meth:`table_results`), for its final summary; ``None`` for an unknown table or one that is
        open-ended."""
        async with self.sessions() as s:
            t = await s.get(GameTable, table_id)
            if t is None or t.deals_total is None:
                return None
            info, status = _table(t), t.status
        return info, status, await self.table_results(table_id)

    async def points_after_last_deal(self, table_id: str) -> list[int] | None:
        """A match table's points after its last settled deal (each seat's table points when it began, moved
        by its scores), or ``None`` when it has none or its deals carried no table points."""
        async with self.sessions() as s:
            d = await s.scalar(select(Deal).where(Deal.table_id == table_id, Deal.status == "over")
                               .order_by(Deal.id.desc()).limit(1))
            if d is None:
                return None
            before = (d.context or {}).get("table_points")
            scores = (d.outcome or {}).get("scores")
        if not (isinstance(before, list) and isinstance(scores, list) and len(before) == len(scores)
                and all(isinstance(x, int) and not isinstance(x, bool) for x in [*before, *scores])):
            return None
        return [int(p) + int(x) for p, x in zip(before, scores, strict=True)]

    # ----------------------------------------------------------------- ownership (several nodes)
    @staticmethod
    async def _fence(s: AsyncSession, fence: Fence) -> None:
        """Refuse (:class:`FencedOut`) unless the table's claim is still ``fence``'s; locks its row until the
        transaction ends, so a newer claim waits for this write."""
        if fence is None:
            return
        table_id, token = fence
        cur = await s.scalar(select(GameTable.lease_token).where(GameTable.id == table_id).with_for_update())
        if cur != token:
            raise FencedOut(f"table {table_id} is claimed with token {cur}, not {token}")

    async def claim_table(self, table_id: str, node: str, token: int) -> None:
        """Record that ``node`` holds the table under ``token`` (newer than any before, else :class:`FencedOut`)."""
        async with self.sessions.begin() as s:
            res = await s.execute(
                update(GameTable)
                .where(GameTable.id == table_id,
                       (GameTable.lease_token.is_(None)) | (GameTable.lease_token < token))
                .values(owner_node=node, lease_token=token)
            )
            if res.rowcount != 1:  # type: ignore[attr-defined]
                raise FencedOut(f"table {table_id}: a claim newer than {token} exists")

    async def lease_token(self, table_id: str) -> int:
        """The fencing token of the table's last claim (0 if never claimed)."""
        async with self.sessions() as s:
            return int(await s.scalar(select(GameTable.lease_token).where(GameTable.id == table_id)) or 0)

    async def disown_table(self, table_id: str, fence: Fence) -> None:
        """No node holds the table now (handed over): the next claim takes it."""
        async with self.sessions.begin() as s:
            await self._fence(s, fence)
            await s.execute(update(GameTable).where(GameTable.id == table_id).values(owner_node=None))

    async def orphan_tables(self, live_nodes: Sequence[str]) -> list[str]:
        """Open tables whose last owner is not among ``live_nodes`` (candidates for a claim)."""
        async with self.sessions() as s:
            q = select(GameTable.id).where(GameTable.status == "open")
            if live_nodes:
                q = q.where((GameTable.owner_node.is_(None)) | (GameTable.owner_node.not_in(list(live_nodes))))
            return list((await s.scalars(q)).all())

    async def table_info(self, table_id: str) -> tuple[TableInfo, list[dict[str, Any]]] | None:
        """An open table and its seats (for a node taking it over)."""
        async with self.sessions() as s:
            t = await s.get(GameTable, table_id)
            if t is None or t.status != "open":
                return None
            seats = (await s.scalars(select(Seat).where(Seat.table_id == t.id).order_by(Seat.seat))).all()
            return _table(t), [_seat(x) for x in seats]

    async def seated_at(self, user_id: int) -> str | None:
        """The open table where the user holds a seat (not one they left), if any: the seat directory's source
        of truth, for a node that finds the cluster's directory without it (a Redis that lost its keys)."""
        async with self.sessions() as s:
            return await s.scalar(
                select(Seat.table_id).join(GameTable, GameTable.id == Seat.table_id)
                .where(Seat.user_id == user_id, Seat.leaving.is_(False), GameTable.status == "open")
                .order_by(Seat.table_id).limit(1))

    async def running_deal(self, table_id: str) -> RunningDeal | None:
        """The table's running deal with its journal, if one is running."""
        async with self.sessions() as s:
            d = await s.scalar(select(Deal).where(Deal.table_id == table_id, Deal.status == "running")
                               .order_by(Deal.id.desc()).limit(1))
            t = await s.get(GameTable, table_id)
            if d is None or t is None:
                return None
            journal = (await s.scalars(select(JournalEntry).where(JournalEntry.deal_id == d.id)
                                       .order_by(JournalEntry.n))).all()
            return RunningDeal(table=_table(t), deal_id=d.id, deal_index=d.deal_index, options=dict(d.options),
                               seed=d.seed, context=dict(d.context), seats=list(d.seats),
                               journal=[JournalRow(j.deal_id, j.n, j.seat, j.action) for j in journal],
                               last_at=_iso(journal[-1].created_at if journal else d.started_at),
                               leaving=await self._leaving(s, table_id))

    # ----------------------------------------------------------------- tables
    async def create_table(self, t: TableInfo, seats: int, owner: tuple[str, int] | None = None,
                           taken: Sequence[tuple[int | None, str | None]] | None = None) -> None:
        """Write a new open table with ``seats`` empty seats; ``owner`` (node, lease token): the node that already
        holds its lease (several nodes), so that no other node's orphan scan takes the new table.  ``taken``:
        each seat's ``(user_id, bot)`` written with it, in the same transaction (a match table, seated whole)."""
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
                    for_points=t.for_points,
                    match_state=t.match_state,
                    tags=t.tags,
                    match_id=_match_of(t.tags),
                    deals_total=t.deals_total,
                    status="open",
                    created_by=t.created_by,
                    created_at=utcnow(),
                    owner_node=None if owner is None else owner[0],
                    lease_token=None if owner is None else owner[1],
                )
            )
            await s.flush()
            for i in range(seats):
                user_id, bot = taken[i] if taken is not None and i < len(taken) else (None, None)
                taken_seat = user_id is not None or bot is not None
                s.add(Seat(table_id=t.id, seat=i, user_id=user_id, bot=bot, ready=taken_seat))

    async def set_seat(self, table_id: str, seat: int, user_id: int | None, bot: str | None,
                       fence: Fence = None, *, leaving: bool = False) -> None:
        """Who holds the seat; ``leaving``: its player has left (a match seat kept in auto-play to the match's
        end, or a seat to free when the deal ends), which a restart must not forget.  Taking a seat is readying
        for the next deal (准备); a freed seat is not ready."""
        async with self.sessions.begin() as s:
            await self._fence(s, fence)
            await s.execute(
                update(Seat).where(Seat.table_id == table_id, Seat.seat == seat)
                .values(user_id=user_id, bot=bot, leaving=leaving, ready=user_id is not None or bot is not None)
            )

    async def set_ready(self, table_id: str, seat: int, fence: Fence = None) -> None:
        """准备: the seat's player is ready for the next deal (until a deal starts: :meth:`start_deal`)."""
        async with self.sessions.begin() as s:
            await self._fence(s, fence)
            await s.execute(update(Seat).where(Seat.table_id == table_id, Seat.seat == seat).values(ready=True))

    @staticmethod
    async def _leaving(s: AsyncSession, table_id: str) -> tuple[int, ...]:
        rows = await s.scalars(select(Seat.seat).where(Seat.table_id == table_id, Seat.leaving.is_(True))
                               .order_by(Seat.seat))
        return tuple(rows.all())

    async def close_table(self, table_id: str, fence: Fence = None) -> None:
        async with self.sessions.begin() as s:
            await self._fence(s, fence)
            await s.execute(
                update(GameTable)
                .where(GameTable.id == table_id)
                .values(status="closed", closed_at=utcnow(), invite_code=None)
            )
            await s.execute(update(Seat).where(Seat.table_id == table_id).values(user_id=None, bot=None,
                                                                                   leaving=False, ready=False))

    async def set_match_state(self, table_id: str, state: dict[str, Any], fence: Fence = None) -> None:
        async with self.sessions.begin() as s:
            await self._fence(s, fence)
            await s.execute(update(GameTable).where(GameTable.id == table_id).values(match_state=state))

    async def match_tables(self, match_id: str) -> dict[str, tuple[str, list[int | None], list[int]]]:
        """A match's open tables by table key: each table's id, its seats' user ids and the users who left it for
        the rest of the match (their seats play on in auto-play; a node that does not run the tables shows a
        match's standings and card with them)."""
        async with self.sessions() as s:
            tables = (await s.scalars(select(GameTable).where(GameTable.match_id == match_id,
                                                              GameTable.status == "open"))).all()
            seats: dict[str, dict[int, int | None]] = {}
            left: dict[str, list[int]] = {}
            if tables:  # every table's seats in one read
                for x in (await s.scalars(select(Seat).where(Seat.table_id.in_([t.id for t in tables])))).all():
                    seats.setdefault(x.table_id, {})[x.seat] = x.user_id
                    if x.leaving and x.user_id is not None:
                        left.setdefault(x.table_id, []).append(x.user_id)
            out: dict[str, tuple[str, list[int | None], list[int]]] = {}
            for t in sorted(tables, key=lambda x: x.created_at):
                key = (t.tags or {}).get("table_key")
                if key is None or str(key) in out:
                    continue
                mine = seats.get(t.id, {})
                out[str(key)] = (t.id, [mine.get(i) for i in range(max(mine, default=-1) + 1)], left.get(t.id, []))
            return out

    async def open_tables(self, exclude: Sequence[str] = ()) -> list[tuple[TableInfo, list[dict[str, Any]]]]:
        """Open tables without a running deal (between deals), each with its seats (``user_id``/``bot``)."""
        async with self.sessions() as s:
            q = select(GameTable).where(GameTable.status == "open")
            if exclude:
                q = q.where(GameTable.id.not_in(list(exclude)))
            tables = (await s.scalars(q.order_by(GameTable.created_at))).all()
            seats: dict[str, list[dict[str, Any]]] = {t.id: [] for t in tables}
            ids = list(seats)
            for at in range(0, len(ids), 500):  # one query for every table's seats, in chunks of 500 ids
                rows = await s.scalars(select(Seat).where(Seat.table_id.in_(ids[at:at + 500]))
                                       .order_by(Seat.table_id, Seat.seat))
                for x in rows:
                    seats[x.table_id].append(_seat(x))
            return [(_table(t), seats[t.id]) for t in tables]

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
        fence: Fence = None,
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
            await self._fence(s, fence)
            s.add(d)
            # 准备 is for one deal: the next one asks again
            await s.execute(update(Seat).where(Seat.table_id == table_id, Seat.ready.is_(True)).values(ready=False))
        return d.id

    async def append_journal(self, rows: Sequence[JournalRow]) -> set[str]:
        """Write journal entries in one transaction (the journal writer batches many tables' actions).  Rows
        with a ``fence`` are written only if their table's claim is still that one; returns the tables whose
        rows were refused for that (nothing of theirs was written)."""
        if not rows:
            return set()
        now = utcnow()
        fenced: set[str] = set()
        async with self.sessions.begin(urgent=True) as s:  # moves wait for it: before other transactions
            fences = {r.fence for r in rows if r.fence is not None}
            if fences:
                ids = sorted({f[0] for f in fences})
                current = dict((await s.execute(select(GameTable.id, GameTable.lease_token)
                                                .where(GameTable.id.in_(ids)).with_for_update())).all())
                fenced = {tid for tid, tok in fences if current.get(tid) != tok}
            good = [r for r in rows if r.fence is None or r.fence[0] not in fenced]
            if good:
                await s.execute(
                    insert(JournalEntry),
                    [{"deal_id": r.deal_id, "n": r.n, "seat": r.seat, "action": r.action, "created_at": now}
                     for r in good],
                )
        return fenced

    async def settle(
        self,
        deal_id: int,
        game: str,
        outcome: dict[str, Any],
        record: dict[str, Any],
        rows: Sequence[SettleRow],
        *,
        table_id: str | None = None,
        match_state: dict[str, Any] | None = None,
        fence: Fence = None,
    ) -> dict[int, int]:
        """Settle a deal in one transaction: the deal's outcome and record, every seat's history row, its
        points change with a ledger entry, its counts per role, and the table's new match state.  Settling
        twice changes nothing the second time.  Points that would leave the 64-bit range raise
        :class:`StoreFull` before anything is written.

        Returns each settled account's new points.
        """
        now = utcnow()
        out: dict[int, int] = {}
        for r in rows:
            if abs(r.delta) >= POINTS_LIMIT or (r.score is not None and abs(r.score) >= POINTS_LIMIT):
                raise StoreFull(f"seat {r.seat}'s score {r.delta} does not fit in 64 bits")
        await self._ensure_standings(game, rows)
        async with self.sessions.begin() as s:
            await self._fence(s, fence)
            res = await s.execute(
                update(Deal)
                .where(Deal.id == deal_id, Deal.status == "running")
                .values(status="over", outcome=outcome, record=record, finished_at=now)
            )
            if res.rowcount != 1:  # type: ignore[attr-defined]
                return out
            for r in rows:
                ug = await s.get(UserGame, (r.user_id, game), with_for_update=True)
                if ug is None:
                    ug = UserGame(user_id=r.user_id, game=game, points=0, games_played=0, wins=0)
                    s.add(ug)
                if abs(ug.points + r.delta) >= POINTS_LIMIT:
                    raise StoreFull(f"user {r.user_id}'s points would leave the 64-bit range")
                ug.points += r.delta
                ug.games_played += 1
                if r.won:
                    ug.wins += 1
                if r.role is not None:
                    ur = await s.get(UserRole, (r.user_id, game, r.role), with_for_update=True)
                    if ur is None:
                        ur = UserRole(user_id=r.user_id, game=game, role=r.role, played=0, won=0)
                        s.add(ur)
                    ur.played += 1
                    if r.won:
                        ur.won += 1
                s.add(
                    DealPlayer(
                        deal_id=deal_id,
                        user_id=r.user_id,
                        seat=r.seat,
                        role=r.role,
                        won=r.won,
                        score=r.score,
                        delta=r.delta,
                        points_after=ug.points,
                        created_at=now,
                    )
                )
                if r.delta:
                    s.add(LedgerEntry(user_id=r.user_id, game=game, delta=r.delta, reason="deal", deal_id=deal_id,
                                      created_at=now))
                await s.flush()
                out[r.user_id] = ug.points
            if table_id is not None and match_state is not None:
                await s.execute(update(GameTable).where(GameTable.id == table_id).values(match_state=match_state))
        return out

    async def _ensure_standings(self, game: str, rows: Sequence[SettleRow]) -> None:
        """Create the missing standing rows (points, per role) of a settlement's players, each in a transaction
        of its own, before the settlement locks them: two tables settling at once for a player new to the game
        (a bot account at several match tables) would otherwise both insert the same row, and one settlement
        would fail on the duplicate key."""
        async with self.sessions() as s:
            ids = sorted({r.user_id for r in rows})
            have = set((await s.scalars(select(UserGame.user_id).where(UserGame.game == game,
                                                                       UserGame.user_id.in_(ids)))).all())
            roles = {(r.user_id, r.role) for r in rows if r.role is not None}
            have_roles = set() if not roles else {
                (u, role) for u, role in (await s.execute(select(UserRole.user_id, UserRole.role).where(
                    UserRole.game == game, UserRole.user_id.in_(ids)))).all()}
        for uid in ids:
            if uid not in have:
                with contextlib.suppress(IntegrityError):  # made meanwhile by another settlement
                    async with self.sessions.begin() as s:
                        s.add(UserGame(user_id=uid, game=game, points=0, games_played=0, wins=0))
        for uid, role in sorted(roles - have_roles):
            with contextlib.suppress(IntegrityError):
                async with self.sessions.begin() as s:
                    s.add(UserRole(user_id=uid, game=game, role=role, played=0, won=0))

    async def fail_deal(self, deal_id: int, outcome: dict[str, Any] | None, fence: Fence = None) -> None:
        """Mark a deal whose settlement could not be written ``failed`` (kept for the operator, nobody paid)."""
        async with self.sessions.begin() as s:
            await self._fence(s, fence)
            await s.execute(
                update(Deal)
                .where(Deal.id == deal_id, Deal.status == "running")
                .values(status="failed", finished_at=utcnow(), outcome={"error": "settlement_failed",
                                                                        "unsettled": outcome})
            )

    async def abort_deal(self, deal_id: int, fence: Fence = None) -> None:
        async with self.sessions.begin() as s:
            await self._fence(s, fence)
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
                        leaving=await self._leaving(s, t.id),
                    )
                )
            return out

    async def close_idle_tables(self, keep: Sequence[str]) -> int:
        """Close every open table not in ``keep``."""
        async with self.sessions.begin() as s:
            q = update(GameTable).where(GameTable.status == "open")
            if keep:
                q = q.where(GameTable.id.not_in(list(keep)))
            res = await s.execute(q.values(status="closed", closed_at=utcnow(), invite_code=None))
            sq = select(GameTable.id).where(GameTable.status == "closed")
            await s.execute(update(Seat).where(Seat.table_id.in_(sq), Seat.user_id.is_not(None)).values(user_id=None))
            return int(res.rowcount)  # type: ignore[attr-defined]

    # ----------------------------------------------------------------- matches (tournaments)
    @staticmethod
    def _match(m: Match) -> MatchRow:
        return MatchRow(m.id, m.name, m.game, m.platform_game, m.status, m.source, dict(m.definition), m.state,
                        m.version, m.start_at, _iso(m.created_at), _iso(m.updated_at))

    async def create_match(self, match_id: str, *, name: str, game: str, platform_game: str, status: str,
                           definition: dict[str, Any], state: str, start_at: int | None,
                           source: str | None = None) -> None:
        now = utcnow()
        async with self.sessions.begin() as s:
            s.add(Match(id=match_id, name=name, game=game, platform_game=platform_game, status=status,
                        source=source, definition=definition, state=state, version=0, start_at=start_at,
                        created_at=now, updated_at=now))

    async def save_match(self, match_id: str, *, state: str, status: str, version: int, start_at: int | None,
                         money: Sequence[MoneyMove] = (), players: Sequence[MatchRecord] = ()) -> int:
        """Write a match's new state (``version``: the one it was read at; the row moves to ``version + 1``)
        together with its money moves — each applied to the player's points with a ledger entry, once per key —
        and its players' records, in one transaction.  Returns the players' new points by user id."""
        now = utcnow()
        async with self.sessions.begin() as s:
            res = await s.execute(update(Match).where(Match.id == match_id, Match.version == version).values(
                state=state, status=status, version=version + 1, start_at=start_at, updated_at=now))
            if int(res.rowcount) != 1:  # type: ignore[attr-defined]
                raise StaleMatch(f"match {match_id} is not at version {version}")
            game = await s.scalar(select(Match.platform_game).where(Match.id == match_id))
            assert game is not None
            for mv in money:
                if await s.get(MatchMoney, mv.key) is not None:
                    continue
                ug = await s.get(UserGame, (mv.user_id, game), with_for_update=True)
                if ug is None:
                    raise KeyError(f"user {mv.user_id} has no standing in {game}")
                new = ug.points + mv.delta
                if mv.kind == "fee" and new < 0:  # checked under the row lock: no balance is overdrawn
                    raise Overdrawn(mv.user_id, ug.points, -mv.delta)
                if abs(new) >= POINTS_LIMIT:
                    raise StoreFull(f"points of user {mv.user_id} would leave the 64-bit range")
                ug.points = new
                s.add(MatchMoney(key=mv.key, match_id=match_id, user_id=mv.user_id, game=game, delta=mv.delta,
                                 kind=mv.kind, created_at=now))
                s.add(LedgerEntry(user_id=mv.user_id, game=game, delta=mv.delta, reason=mv.kind, ref=match_id,
                                  created_at=now))
            for r in players:
                row = await s.get(MatchPlayer, (match_id, r.user_id))
                if row is None:
                    s.add(MatchPlayer(match_id=match_id, user_id=r.user_id, entrant=r.entrant, status=r.status,
                                      place=r.place, prize=r.prize, fee=r.fee, updated_at=now))
                else:
                    row.entrant, row.status, row.place, row.updated_at = r.entrant, r.status, r.place, now
                    row.prize, row.fee = r.prize, r.fee
        return version + 1

    async def save_match_invite(self, match_id: str, partner: int, captain: int) -> None:
        """A team match: ``captain`` invited ``partner`` (kept as the partner's record, status ``invited``, entrant
        ``t<captain>``, until the team registers and the record becomes the entry's)."""
        async with self.sessions.begin() as s:
            row = await s.get(MatchPlayer, (match_id, partner))
            if row is None:
                s.add(MatchPlayer(match_id=match_id, user_id=partner, entrant=f"t{captain}", status="invited",
                                  place=None, prize=0, fee=0, updated_at=utcnow()))
            elif row.status in ("invited", "removed", "declined"):
                row.entrant, row.status, row.updated_at = f"t{captain}", "invited", utcnow()

    async def decline_match_invite(self, match_id: str, partner: int, captain: int) -> bool:
        """A team match: ``partner`` declined ``captain``'s open invitation; the record stays, status ``declined``
        (the captain's card says so, the partner's history too), until either is invited again.  ``False``: no
        such open invitation."""
        async with self.sessions.begin() as s:
            row = await s.get(MatchPlayer, (match_id, partner))
            if row is None or row.status != "invited" or row.entrant != f"t{captain}":
                return False
            row.status, row.updated_at = "declined", utcnow()
            return True

    async def drop_match_invites(self, match_id: str, pairs: Sequence[tuple[int, int]]) -> None:
        """End open invitations (partner, captain) of a team match (see :meth:`save_match_invite`); a record that
        became an entry's is kept."""
        async with self.sessions.begin() as s:
            for partner, captain in pairs:
                row = await s.get(MatchPlayer, (match_id, partner))
                if row is not None and row.status == "invited" and row.entrant == f"t{captain}":
                    await s.delete(row)

    async def match_invites(self, match_id: str) -> dict[int, int]:
        """The open invitations of a team match: partner → captain (see :meth:`save_match_invite`)."""
        async with self.sessions() as s:
            rows = (await s.scalars(select(MatchPlayer).where(MatchPlayer.match_id == match_id,
                                                              MatchPlayer.status == "invited"))).all()
            return {r.user_id: int(r.entrant[1:]) for r in rows if r.entrant[:1] == "t" and r.entrant[1:].isdigit()}

    async def match_declines(self, match_id: str) -> dict[int, int]:
        """The invitations of a team match that were declined: partner → captain (see
        :meth:`decline_match_invite`)."""
        async with self.sessions() as s:
            rows = (await s.scalars(select(MatchPlayer).where(MatchPlayer.match_id == match_id,
                                                              MatchPlayer.status == "declined"))).all()
            return {r.user_id: int(r.entrant[1:]) for r in rows if r.entrant[:1] == "t" and r.entrant[1:].isdigit()}

    async def match(self, match_id: str) -> MatchRow | None:
        if not _storable(match_id):
            return None
        async with self.sessions() as s:
            m = await s.get(Match, match_id)
            return None if m is None else self._match(m)

    async def matches(self, statuses: Sequence[str] | None = None, limit: int = 100) -> list[MatchRow]:
        """Matches (newest first), those in ``statuses`` only if given."""
        async with self.sessions() as s:
            q = select(Match).order_by(Match.created_at.desc(), Match.id).limit(limit)
            if statuses is not None:
                q = q.where(Match.status.in_(list(statuses)))
            return [self._match(m) for m in (await s.scalars(q)).all()]

    async def started_matches_of(self, user_id: int) -> list[MatchRow]:
        """The started matches (``starting`` or ``running``) the user has an entry in, whatever its status (the
        match's state says whether he still plays)."""
        async with self.sessions() as s:
            q = (select(Match).join(MatchPlayer, MatchPlayer.match_id == Match.id)
                 .where(MatchPlayer.user_id == user_id, Match.status.in_(["starting", "running"]))
                 .order_by(Match.created_at, Match.id))
            return [self._match(m) for m in (await s.scalars(q)).all()]

    async def started_matches_among(self, user_ids: Sequence[int], *, exclude: str | None = None) -> list[MatchRow]:
        """The started matches (``starting`` or ``running``) any of these users has an entry in, but ``exclude``
        (each match's state says whether they still play there)."""
        ids = sorted(set(user_ids))
        if not ids:
            return []
        entered = select(MatchPlayer.match_id).where(MatchPlayer.user_id.in_(ids))
        q = select(Match).where(Match.status.in_(["starting", "running"]), Match.id.in_(entered)).order_by(Match.id)
        if exclude is not None:
            q = q.where(Match.id != exclude)
        async with self.sessions() as s:
            return [self._match(m) for m in (await s.scalars(q)).all()]

    async def match_money(self, match_id: str) -> list[dict[str, Any]]:
        async with self.sessions() as s:
            rows = (await s.scalars(select(MatchMoney).where(MatchMoney.match_id == match_id)
                                    .order_by(MatchMoney.created_at, MatchMoney.key))).all()
            return [{"key": r.key, "user_id": r.user_id, "delta": r.delta, "kind": r.kind} for r in rows]

    async def match_history(self, user_id: int, limit: int = 50) -> list[dict[str, Any]]:
        """The user's matches, newest first: each with its status, the user's status, place, prize and fee."""
        async with self.sessions() as s:
            rows = (await s.execute(
                select(MatchPlayer, Match).join(Match, Match.id == MatchPlayer.match_id)
                .where(MatchPlayer.user_id == user_id).order_by(Match.created_at.desc()).limit(limit))).all()
            return [{"match": m.id, "name": m.name, "game": m.game, "match_status": m.status,
                     "entrant": p.entrant, "status": p.status, "place": p.place, "prize": p.prize, "fee": p.fee,
                     "updated_at": _iso(p.updated_at)} for p, m in rows]

    async def count(self, what: str) -> int:
        model = {"users": User, "deals": Deal, "journal": JournalEntry, "ledger": LedgerEntry}[what]
        async with self.sessions() as s:
            return int(await s.scalar(select(func.count()).select_from(model)) or 0)
