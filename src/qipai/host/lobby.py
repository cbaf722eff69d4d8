"""The lobby: rooms, tables, who sits where, connections, quick match, private tables, spectators, restore.

It knows games only through their factories (:mod:`qipai.core.registry`): the rooms name a game and options,
the tables run whatever the factory makes.  It also watches the database: when a write fails for a reason that
may pass (the connection is gone, the file is locked or full), every table pauses — no moves are accepted, no
bot moves or timeouts happen — until a probe finds the database answering again.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import logging
import multiprocessing
import os
import secrets
import sqlite3
import time
from collections import deque
from collections.abc import AsyncIterator, Collection, Iterable
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

from qipai.core.game import Game, GameFactory, apply_step, autoplay_bot_for
from qipai.core.options import OptionError, short_repr
from qipai.host.botpool import BotQueue, init_background, init_worker, remote_act, remote_review
from qipai.host.cluster import Cluster, ClusterError, LocalCluster, RemoteError
from qipai.host.events import TABLE_CLOSED, Bus, TableClosed
from qipai.host.journal import JournalWriter
from qipai.host.jsonenc import dumps
from qipai.host.series import DEALS_MAX, DEALS_MIN
from qipai.host.settings import Bot, Room, Settings
from qipai.host.table import Conn, SeatState, Table, TableError
from qipai.store import FencedOut, RunningDeal, Store, TableInfo, UserInfo

log = logging.getLogger("qipai.host.lobby")

STOP_TIMEOUT = 10.0
"""Seconds a shutdown waits for the cancelled table tasks, and for the journal's last writes."""

TOKEN_PURGE_EVERY = 3600.0
"""Seconds between two deletions of expired session tokens (at the session checks)."""

POOL_STOP_TIMEOUT = 5.0
"""Seconds a stopping server waits for its bot and review worker processes to exit."""

USER_LOCK_WAIT = 10.0
"""Several nodes: seconds a seat change waits for another node's change of the same user's seat to end before it is
refused (``server_busy``)."""

SESSIONS_ENDED = "sessions_ended"
"""Bus topic: sessions of a user ended (``{"user_id", "reason", "token", "keep", "from"}``: the session with that
token hash, or all but ``keep``): every node closes their connections at once (:meth:`Lobby.end_sessions`)."""

INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
PROTECTED_OPTIONS = ("preset",)
"""Options a private table never sets: the room's preset is the room."""


USER_MESSAGE = "user_message"
"""Bus topic: a message for a user's connections on whichever node holds them."""

USER_RENAMED = "user_renamed"
"""Bus topic: an account took a new name (a guest saved as a registered account), ``{"user", "from"}``: every
node renames its seats and connections of that user (:meth:`Lobby.user_renamed`)."""


@dataclasses.dataclass(frozen=True)
class RemoteSeat:
    """A seat at a table another node owns: the client is to reconnect to ``url`` (that node)."""

    table_id: str
    seat: int
    invite_code: str | None
    node: str
    url: str | None

    @property
    def id(self) -> str:
        return self.table_id


def make_cluster(settings: Settings) -> Cluster:
    """The cluster a server's settings describe: Redis when ``redis_url`` is set, else one node alone."""
    if settings.redis_url:
        from qipai.host.cluster import RedisCluster

        return RedisCluster(settings.redis_url, settings.node_id, settings.public_url,
                            lease_ms=int(settings.lease_seconds * 1000), prefix=settings.redis_prefix)
    return LocalCluster(settings.node_id, settings.public_url)


class Lobby:
    """Everything live on the server: tables, seats and connections.  With several nodes it shares seats,
    invites and the tables list through its :class:`~qipai.host.cluster.Cluster`, holds a lease on each table
    it runs, and takes over the tables of nodes that died."""

    def __init__(self, settings: Settings, store: Store, bus: Bus | None = None,
                 cluster: Cluster | None = None) -> None:
        self.settings = settings
        self.store = store
        self.cluster: Cluster = cluster or make_cluster(settings)
        self.bus: Bus = bus or self.cluster.bus
        self.draining = False
        self._advertise: set[str] = set()
        self._cluster_task: asyncio.Task[None] | None = None
        self._takeover_task: asyncio.Task[None] | None = None
        self.rooms: dict[str, Room] = {r.id: r for r in settings.rooms}
        self.tables: dict[str, Table] = {}
        self.invites: dict[str, str] = {}
        self.user_table: dict[int, str] = {}
        self.conns: dict[int, set[Conn]] = {}
        self.joining: set[Conn] = set()
        """Connections whose snapshot is being made: the tables send them nothing until it is sent."""
        self.closing = False
        self.journal = JournalWriter(store)
        self._seat_locks: dict[int, asyncio.Lock] = {}
        self._seat_users: dict[int, int] = {}
        self._room_locks: dict[str, asyncio.Lock] = {}
        self.cluster_ok = True
        """Several nodes: whether the last renewal of leases and presence reached Redis."""
        self.storage_ok = True
        """False while the database does not answer: every table waits."""
        self.storage_error: str | None = None
        self._probe: asyncio.Task[None] | None = None
        self._failures: deque[float] = deque(maxlen=8)
        """When the latest storage failures happened (the probe waits longer when they come back fast)."""
        self._factories: dict[str, GameFactory] = {}
        self._bot_accounts: dict[str, int] = {}
        self._bot_known: dict[tuple[str, str], bool] = {}  # (game, bot name): whether the game has it
        self.prefs: dict[int, dict[str, Any]] = {}
        self._pending: set[asyncio.Task[Any]] = set()
        """Each user's table preferences for this server run (``auto_pass``: 要不起 passes by itself)."""
        self._pool: ProcessPoolExecutor | None = None
        self.bot_queue = BotQueue(max(1, settings.bot_processes), settings.bot_budget)
        """Bot decisions waiting for the worker processes: quick bots first, late slow ones in a hurry."""
        self._background: ProcessPoolExecutor | None = None
        self._reviews: dict[tuple[int, int, int], asyncio.Future[dict[str, Any]]] = {}
        self._reviewing: dict[int, tuple[int, int, int]] = {}
        """The review each player asked for that is being made (deal, seat): one at a time per player."""
        self._lag_task: asyncio.Task[None] | None = None
        self._session_task: asyncio.Task[None] | None = None
        self.lag: list[float] = []
        self.full_gc: deque[float] = deque(maxlen=100)
        """Seconds each of the latest full garbage collections stopped the process (the event loop with it)."""
        self._gc_started = 0.0
        self.director: Any = None
        """The match director (:class:`qipai.host.director.Director`) once the server started it."""

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        elif info.get("generation") == 2:
            self.full_gc.append(time.perf_counter() - self._gc_started)

    # ------------------------------------------------------------------------------------------ lookups
    def factory(self, game: str) -> GameFactory:
        f = self._factories.get(game)
        if f is None:
            f = self._factories[game] = self.settings.games(game)
        return f

    def seat_bot(self, game: str) -> str:
        """The bot that fills empty seats of ``game``'s tables (the setting where ``game`` has that bot — one
        setting serves every game, and ``heuristic`` is Dou Dizhu's only — else the game's default)."""
        name = self.settings.seat_bot
        return name if name and self.has_bot(game, name) else self.factory(game).info.seat_bot

    def autoplay_bot(self, game: str, options: dict[str, Any] | None = None) -> str:
        """The bot that plays for a human in auto-play: the setting (where ``game`` has that bot), else the style
        the table's options choose, else the game's seed behaviour."""
        name = self.settings.autoplay_bot
        return name if name and self.has_bot(game, name) else autoplay_bot_for(self.factory(game).info, options or {})

    def has_bot(self, game: str, name: str) -> bool:
        """Whether ``game`` has a bot called ``name`` (asked of the settings' bot factory once, then cached)."""
        key = (game, name)
        if key not in self._bot_known:
            try:
                self.settings.bots(game, name, 0)
                self._bot_known[key] = True
            except KeyError:
                self._bot_known[key] = False
        return self._bot_known[key]

    def bot(self, game: str, name: str, seed: int) -> Bot:
        return self.settings.bots(game, name, seed)

    def bot_display_name(self, name: str, seat: int) -> str:
        """A bot seat's name at the table (the client words it per language: ``bot:<name>:<seat>``)."""
        return f"bot:{name}:{seat + 1}"

    def bot_seat_name(self, name: str, seat: int, numbers: object = None) -> str:
        """A bot seat's name: after the bot entrant's own number where the table has one for the seat
        (``numbers``: a match table's ``bot_numbers`` tag, one entry per seat), else after the seat."""
        number = numbers[seat] if isinstance(numbers, list) and 0 <= seat < len(numbers) else None
        if isinstance(number, int) and not isinstance(number, bool) and number > 0:
            return self.bot_display_name(name, number - 1)
        return self.bot_display_name(name, seat)

    async def bot_account(self, name: str) -> int:
        """The account id of bot ``name`` (its winnings and losses land there)."""
        uid = self._bot_accounts.get(name)
        if uid is None:
            uid = self._bot_accounts[name] = (await self.store.bot_account(name)).id
        return uid

    def start_points(self, user: UserInfo) -> int:
        if user.is_bot:
            return self.settings.bot_points
        return self.settings.guest_points if user.is_guest else self.settings.start_points

    async def points_of(self, user: UserInfo, game: str) -> int:
        return (await self.store.standing(user.id, game, self.start_points(user))).points

    async def points_many(self, users: Iterable[UserInfo], game: str) -> dict[int, int]:
        us = {u.id: u for u in users}
        got = await self.store.standings(list(us), game, lambda uid: self.start_points(us[uid]))
        return {uid: st.points for uid, st in got.items()}

    async def think(self, game: str, name: str, bot: Bot, seed: int, observation: dict[str, Any],
                    legal: list[str]) -> str:
        """The bot's action: on the event loop for fast bots, else in a worker process (``bot_processes``, in
        the turn :class:`~qipai.host.botpool.BotQueue` gives it) or a thread, within ``bot_budget`` seconds
        (``TimeoutError`` past it)."""
        s = self.settings
        if name in s.inline_bots:
            return bot.act(observation, legal)
        if s.bot_processes > 0:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    s.bot_processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=init_worker,
                    initargs=(os.getpid(),),
                )
            pool = self._pool

            def work(hurry: bool) -> asyncio.Future[tuple[str, float]]:
                return asyncio.get_running_loop().run_in_executor(
                    pool, remote_act, s.bots, game, name, seed, observation, legal, hurry)

            return await asyncio.wait_for(self.bot_queue.run(f"{game}/{name}", work), s.bot_budget)
        return await asyncio.wait_for(asyncio.to_thread(bot.act, observation, legal), s.bot_budget)

    def can_review(self, game: str) -> bool:
        return callable(getattr(self.factory(game), "review", None))

    async def review(self, game: str, deal_id: int, record: dict[str, Any], seat: int,
                     samples: int = 120, user_id: int | None = None) -> dict[str, Any]:
        """复盘: the game's review of a finished deal's seat, in a background process of lowest priority (live
        tables never wait for it); one at a time per deal, seat and number of samples, kept once made.

        ``user_id``: who asks.  A player has one review in the making at a time (``rate_limited`` while another
        one he asked for is not made yet; asking for the same one again waits for it): the background process
        makes one review at a time for everybody, and a player of many deals could queue thousands."""
        key = (deal_id, seat, samples)  # (another player's quick review of the seat is not the seat's own)
        fut = self._reviews.get(key)
        if fut is None and user_id is not None:
            busy = self._reviewing.get(user_id)
            if busy is not None and busy != key and busy in self._reviews and not self._reviews[busy].done():
                raise TableError("rate_limited", "your review of another deal or seat is still being made: wait for "
                                 "it first", deal=busy[0], seat=busy[1])
        if fut is None:
            if self._background is None:
                self._background = ProcessPoolExecutor(
                    1, mp_context=multiprocessing.get_context("spawn"), initializer=init_background,
                    initargs=(os.getpid(),))
            fut = asyncio.ensure_future(asyncio.get_running_loop().run_in_executor(
                self._background, remote_review, self.settings.games, game, record, seat, samples))
            self._reviews[key] = fut
            if user_id is not None:  # (until it is made, whether or not the asking request is still there)
                self._reviewing[user_id] = key
                fut.add_done_callback(lambda _f, u=user_id: self._reviewing.pop(u, None)
                                      if self._reviewing.get(u) == key else None)
            if len(self._reviews) > 500:
                for k in list(self._reviews)[:250]:
                    if self._reviews[k].done():
                        del self._reviews[k]
        try:
            return await asyncio.shield(fut)
        except Exception:
            self._reviews.pop(key, None)
            raise

    def prefs_of(self, user_id: int | None) -> dict[str, Any]:
        return self.prefs.get(user_id, {}) if user_id is not None else {}

    def set_prefs(self, user_id: int, prefs: dict[str, Any]) -> None:
        self.prefs.setdefault(user_id, {}).update(prefs)
        cur = self._current(user_id)
        if cur is not None:
            cur[0].kick()

    def conns_of(self, user_id: int | None) -> set[Conn]:
        if user_id is None:
            return set()
        return self.conns.get(user_id) or set()

    def room(self, room_id: str) -> Room:
        r = self.rooms.get(room_id)
        if r is None:
            raise TableError("unknown_room", f"no room {short_repr(room_id, 40)}: see /api/rooms",
                             room=room_id[:64])
        return r

    def table(self, table_id: str) -> Table:
        t = self.tables.get(table_id)
        if t is None or t.closed:
            raise TableError("unknown_table", f"no open table {short_repr(table_id, 40)}", table=table_id[:64])
        return t

    def forget(self, table: Table, reason: str = "closed") -> None:
        self.tables.pop(table.id, None)
        if table.info.invite_code:
            self.invites.pop(table.info.invite_code, None)
        if self.cluster.networked:
            self._soon(self.cluster.advertise(table.id, None))
            if table.info.invite_code:
                self._soon(self.cluster.set_invite(table.info.invite_code, None))
            if table.lease_token is not None:
                self._soon(self.cluster.release(table.id, table.lease_token))
        self.bus.publish(TABLE_CLOSED, TableClosed(table.id, reason, dict(table.tags)))

    def drop_local(self, table: Table) -> None:
        """Forget a table here only (another node runs it now): nothing written, nothing published."""
        self.tables.pop(table.id, None)
        if table.info.invite_code:
            self.invites.pop(table.info.invite_code, None)
        for uid, tid in list(self.user_table.items()):
            if tid == table.id:
                del self.user_table[uid]

    def seat_user(self, user_id: int, table_id: str) -> None:
        self.user_table[user_id] = table_id
        if self.cluster.networked:
            self._soon(self.cluster.set_seat(user_id, table_id))

    def unseat_user(self, user_id: int, table_id: str) -> None:
        if self.user_table.get(user_id) == table_id:
            del self.user_table[user_id]
            if self.cluster.networked:
                self._soon(self.cluster.set_seat(user_id, None))

    def _soon(self, coro: Any) -> None:
        """Run a directory update in the background (logged if it fails)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._pending.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._pending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("cluster directory update failed: %s", task.exception())

    def summary(self, t: Table) -> dict[str, Any]:
        """What other nodes' lobbies show of a table (and quick match looks for)."""
        return {"id": t.id, "room": t.info.room, "game": t.info.game, "private": t.info.private,
                "status": "playing" if t.running else "waiting", "players": [s.name if s else None for s in t.seats],
                "humans": len(t.humans()), "empty": len(t.empty_seats()), "spectators": len(t.spectators),
                "managed": t.managed, "tags": {k: v for k, v in t.tags.items() if k != "managed"}}

    def advertise_soon(self, t: Table) -> None:
        if self.cluster.networked and not t.closed and t.id not in self._advertise:
            self._advertise.add(t.id)

            async def send() -> None:
                await asyncio.sleep(0.05)  # one update for a burst of changes
                self._advertise.discard(t.id)
                if not t.closed and self.tables.get(t.id) is t:
                    await self.cluster.advertise(t.id, self.summary(t))

            self._soon(send())

    async def all_tables(self) -> list[dict[str, Any]]:
        """Every open table's summary: this node's, and (several nodes) every other node's from the directory."""
        mine = [{**self.summary(t), "node": self.cluster.node_id} for t in self.tables.values() if not t.closed]
        if not self.cluster.networked:
            return mine
        here = {s["id"] for s in mine}
        return mine + [s for s in await self.cluster.tables() if s.get("id") not in here]

    async def list_rooms(self) -> list[dict[str, Any]]:
        """The rooms with their tables and players on every node."""
        tables = await self.all_tables()
        out = []
        for r in self.rooms.values():
            mine = [s for s in tables if s.get("room") == r.id]
            out.append({"id": r.id, "name": r.name, "game": r.game, "options": r.options, "stake": r.stake,
                        "min_points": r.min_points, "seats": self._seats_of(r), "tables": len(mine),
                        "players": sum(int(s.get("humans", 0)) for s in mine)})
        return out

    def _seats_of(self, r: Room) -> int | None:
        try:
            return self.factory(r.game).players(r.options)
        except Exception:
            return None

    async def list_public_tables(self) -> list[dict[str, Any]]:
        """Public tables on every node, for spectators."""
        return [{"id": s["id"], "room": s.get("room"), "game": s.get("game"), "status": s.get("status"),
                 "players": s.get("players"), "spectators": s.get("spectators", 0), "node": s.get("node"),
                 "match": s.get("tags") or None}
                for s in await self.all_tables() if not s.get("private")]

    # ------------------------------------------------------------------------------------------ storage
    def storage_failed(self, error: BaseException) -> None:
        """A write failed for a reason that may pass: pause every table until the database answers."""
        if self.storage_ok:
            log.error("the database stopped answering (%s); tables pause until it is back", error)
            self.storage_ok = False
            self.storage_error = storage_reason(error)
            for t in list(self.tables.values()):
                t.broadcast({"type": "notice", "table": t.id, "code": "storage_unavailable", "params": {}})
                t.broadcast_table()
        if self._probe is None or self._probe.done():
            self._probe = asyncio.create_task(self._probe_storage(), name="storage-probe")

    async def _probe_storage(self) -> None:
        now = time.monotonic()
        self._failures.append(now)
        recent = sum(1 for t in self._failures if now - t < 120)
        every = min(30.0, 2.0 ** (recent - 1))  # 1 s; 2, 4, … s when the database keeps failing soon after
        while not self.storage_ok:
            await asyncio.sleep(every)
            try:
                await self.store.ping()
            except Exception as e:
                self.storage_error = storage_reason(e)
                continue
            log.warning("the database answers again; tables resume")
            self.storage_ok = True
            self.storage_error = None
            for t in list(self.tables.values()):
                t.restart_clocks()  # everybody's time starts again: nobody loses the paused seconds
                t.broadcast({"type": "notice", "table": t.id, "code": "storage_restored", "params": {}})
                t.broadcast_table()
                t.broadcast_state()
                t.kick()

    # ------------------------------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        # What exists now (modules, the app, settings) lives as long as the process: keep it out of every
        # future full garbage collection, which would otherwise walk it again each time.
        gc.collect()
        gc.freeze()
        self.journal.start()
        self.cluster.database_id = await self.store.database_id()
        await self.cluster.start()
        self.bus.subscribe(USER_MESSAGE, self._user_message)
        self.bus.subscribe(USER_RENAMED, self._on_renamed)
        self.bus.subscribe(SESSIONS_ENDED, self._on_sessions_ended)
        if self.cluster.networked:
            self.cluster.serve("sit", self._rpc_sit)
            self.cluster.serve("join", self._rpc_join)
            await self.claim_orphans()
            self._cluster_task = asyncio.create_task(self._cluster_loop(), name="cluster")
            self._takeover_task = asyncio.create_task(self._takeover_loop(), name="takeover")
        else:
            await self.restore()
        self._lag_task = asyncio.create_task(self._watch_lag(), name="loop-lag")
        self._session_task = asyncio.create_task(self._watch_sessions(), name="sessions")
        gc.callbacks.append(self._on_gc)

    async def _watch_lag(self, every: float = 0.05) -> None:
        """Measure how late the event loop wakes up (a stalled loop delays every table)."""
        loop = asyncio.get_running_loop()
        while True:
            t = loop.time()
            await asyncio.sleep(every)
            lag = max(0.0, loop.time() - t - every)
            self.lag.append(lag)
            if len(self.lag) > 1200:
                del self.lag[:600]

    async def _watch_sessions(self) -> None:
        loop = asyncio.get_running_loop()
        purged = loop.time()
        while True:
            await asyncio.sleep(self.settings.session_check_every)
            try:
                await self.check_sessions()
            except Exception as e:
                log.warning("could not check sessions: %s", e)
            if loop.time() - purged >= TOKEN_PURGE_EVERY:
                purged = loop.time()
                try:
                    n = await self.store.purge_expired_tokens()
                    if n:
                        log.info("deleted %d expired session tokens", n)
                except Exception as e:
                    log.warning("could not delete expired session tokens: %s", e)

    async def check_sessions(self) -> int:
        """Close every connection whose session token expired or was dropped (an operator's ``qipai users
        set-password`` or ``block`` drops them from another process), or whose account is blocked; returns how
        many.  A seat whose player's last connection closes this way goes to auto-play, as for any disconnection."""
        conns = [c for cs in self.conns.values() for c in cs]
        if not conns:
            return 0
        alive = await self.store.token_alive(list({c.token_hash for c in conns}))
        dead = [c for c in conns if c.token_hash not in alive]
        if not dead:
            return 0
        blocked = await self.store.blocked_among(sorted({c.user.id for c in dead}))
        for c in dead:
            reason = "account_blocked" if c.user.id in blocked else "session_expired"
            c.send({"type": "closed_session", "reason": reason})
            c.close()
        return len(dead)

    async def stop(self) -> None:
        self.closing = True
        for task in (self._lag_task, self._probe, self._session_task, self._cluster_task, self._takeover_task):
            if task is not None:
                task.cancel()
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._on_gc)
        tasks = [t.task for t in self.tables.values() if t.task is not None]
        for task in tasks:
            task.cancel()
        if tasks:
            # a table task ends at its next await once cancelled; one that does not (stuck in a store call that
            # ignores cancellation) must not hold the shutdown: its deal goes on from the journal at the next start
            _, stuck = await asyncio.wait(tasks, timeout=STOP_TIMEOUT)
            if stuck:
                log.warning("%d table task(s) did not stop within %.0f s: %s", len(stuck),
                            STOP_TIMEOUT, ", ".join(sorted(t.get_name() for t in stuck))[:500])
        await self.journal.stop(STOP_TIMEOUT)
        if self.cluster.networked:
            # hand the tables over at once (their deals go on elsewhere from the journal)
            for table in list(self.tables.values()):
                if table.lease_token is not None:
                    with contextlib.suppress(Exception):
                        await self.cluster.release(table.id, table.lease_token)
            for task in list(self._pending):
                task.cancel()
        await self.cluster.stop()
        for pool in (self._pool, self._background):
            if pool is not None:
                # let the workers finish their decision and exit (at most a bot's budget) before the process
                # does: workers killed at exit leave "leaked semaphore" warnings behind.  (One call: a second
                # shutdown no longer waits.)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True),
                                           POOL_STOP_TIMEOUT)

    # ------------------------------------------------------------------------------------------ several nodes
    async def _cluster_loop(self) -> None:
        """Renew this node's leases and presence (the tables of nodes that are gone: :meth:`_takeover_loop`)."""
        every = max(0.2, self.settings.lease_seconds / 3)
        scans = 0
        while True:
            await asyncio.sleep(every)
            try:
                await self.cluster.heartbeat(len(self.tables))
                held = [t for t in list(self.tables.values()) if t.lease_token is not None and not t.closed]
                kept = await self.cluster.renew_all([(t.id, int(t.lease_token or 0)) for t in held])
                for table, ok in zip(held, kept, strict=True):
                    if not ok:
                        owner = await self.cluster.owner(table.id)
                        why = (f"claimed by node {owner}" if owner is not None and owner != self.cluster.node_id
                               else "its lease ran out before this node renewed it")
                        async with table.lock:
                            await table.fenced_out(why)
                if scans % 3 == 0:
                    mine = [t for t, ok in zip(held, kept, strict=True) if ok and not t.closed]
                    await self.cluster.advertise_all({t.id: self.summary(t) for t in mine})
                    # the directory again (a restarted Redis has lost it): who sits here, and the invite codes
                    await self.cluster.publish_directory(
                        {uid: tid for uid, tid in self.user_table.items() if tid in self.tables},
                        {t.info.invite_code: t.id for t in mine if t.info.invite_code})
                    # and who is connected here (friends on other nodes see them online)
                    await self.cluster.publish_online([uid for uid, cs in self.conns.items() if cs])
                scans += 1
                if not self.cluster_ok:
                    log.warning("cluster upkeep works again")
                self.cluster_ok = True
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self.cluster_ok = False
                log.warning("cluster upkeep failed: %s", e)

    async def _takeover_loop(self) -> None:
        """Take over the tables of nodes that are gone, in a task of its own: a scan that takes long (a table's
        row locked in the database, many orphans) must not hold up the renewal of this node's own leases — it
        did, and the node's own tables lapsed and were dropped as if another node had claimed them."""
        every = max(0.2, self.settings.lease_seconds / 3)
        while True:
            await asyncio.sleep(every)
            if self.draining:
                continue
            try:
                await self.claim_orphans()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("taking over the tables of nodes that are gone failed: %s", e)

    async def claim_orphans(self) -> int:
        """Claim the open tables whose owner is not alive and run them here; returns how many."""
        live = [n.id for n in await self.cluster.nodes() if n.id != self.cluster.node_id]
        n = 0
        for tid in await self.store.orphan_tables(live):  # this node's own too: from before a restart
            if tid in self.tables or await self.cluster.owner(tid) is not None:
                continue
            if self.director is not None:
                found = await self.store.table_info(tid)
                if found is not None and self.director.wants_table(found[0].tags):
                    continue  # a match table goes with its match: the director that drives it takes it over
            token = await self.cluster.claim(tid, await self.store.lease_token(tid))
            if token is None:
                continue
            try:
                async with self._keeping(tid, token):  # the write may wait on the row (held by a transaction)
                    await self.store.claim_table(tid, self.cluster.node_id, token)
                    restored = await self.restore_table(tid, token)
                if restored:
                    n += 1
                else:
                    await self.cluster.release(tid, token)
            except FencedOut:
                await self.cluster.release(tid, token)
            except Exception:
                log.exception("could not take over table %s", tid)
                await self.cluster.release(tid, token)
        return n

    @contextlib.asynccontextmanager
    async def _keeping(self, table_id: str, token: int) -> AsyncIterator[None]:
        """Renew the lease of a table being taken over until it runs here (then the cluster loop renews it with
        the others): writing its row or rebuilding it may take longer than a lease, and a lease that ran out
        meanwhile dropped the table again as soon as it ran."""
        async def renew() -> None:
            while True:
                await asyncio.sleep(max(0.2, self.settings.lease_seconds / 3))
                with contextlib.suppress(Exception):
                    await self.cluster.renew(table_id, token)

        task = asyncio.create_task(renew(), name=f"keep-{table_id}")
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _between_deals(self, t: Table, seats: list[dict[str, Any]]) -> None:
        """A table restored between deals (start-up or take-over): its history, its match points (a match
        table's seats show them until the director starts the next deal), and its players come back and ready
        (准备), or have ``restore_grace`` seconds to; those who readied before (``seats``' stored ``ready``) are
        not asked again."""
        t.results = await self.store.table_results(t.id)
        t.deal_index = len(t.results)
        if t.managed:
            t._match_points_from(await self.store.points_after_last_deal(t.id))
        t.start_at = t.now() + self.settings.next_deal_delay
        t.ready_until = t.now() + self.settings.restore_grace
        readied = {i for i, x in enumerate(seats) if x.get("ready")}
        t.ready = None if t.managed else {i: s is not None and (not s.human or i in readied)
                                          for i, s in enumerate(t.seats)}

    async def restore_table(self, table_id: str, token: int | None) -> bool:
        """Run here a table from the database: its running deal rebuilt from the journal (clocks going on from
        the last action's time), or between deals with its match state."""
        rd = await self.store.running_deal(table_id)
        if rd is not None:
            t, game, steps = self._rebuilt(rd)
            if t is None:
                return False
            t.lease_token = token
            t.results = await self.store.table_results(t.id)
            elapsed = 0.0
            if rd.last_at:
                elapsed = max(0.0, (datetime.now(UTC) - datetime.fromisoformat(rd.last_at)).total_seconds())
            t.restore(rd.deal_id, rd.deal_index, rd.seed, dict(rd.context), game, steps, elapsed=elapsed)
            await self._attach(t)
            log.info("took over table %s at deal %s version %d", t.id, rd.deal_id, t.version)
            await self._welcome_back(t)
            return True
        found = await self.store.table_info(table_id)
        if found is None:
            return False
        info, seats = found
        names = {u.id: u.name for u in (await self.store.users(
            [s["user_id"] for s in seats if s.get("user_id") is not None])).values()}
        for s in seats:
            if s.get("user_id") is not None:
                s["name"] = names.get(s["user_id"], f"#{s['user_id']}")
        t = self._restored_table(info, seats)
        if t is not None:
            t.lease_token = token
            await self._free_leavers(t)
        if t is None or (not t.humans() and not t.managed):
            await self.store.close_table(info.id, None if token is None else (info.id, token))
            return False
        await self._between_deals(t, seats)
        await self._attach(t)
        log.info("took over table %s between deals", t.id)
        await self._welcome_back(t)
        return True

    async def _lease_new(self, table_id: str) -> tuple[str, int] | None:
        """Several nodes: take the lease of a table about to be written, before its row exists, so that another
        node's orphan scan never sees it open and unowned; ``(node, token)`` for :meth:`Store.create_table`."""
        if not self.cluster.networked:
            return None
        token = await self.cluster.claim(table_id)
        if token is None:
            raise TableError("server_busy", "could not take the new table's lease; try again")
        return self.cluster.node_id, token

    async def _claim_new(self, t: Table, owner: tuple[str, int] | None) -> None:
        """A new table of this node, written with its lease (:meth:`_lease_new`): announce it to the others."""
        if owner is None:
            return
        t.lease_token = owner[1]
        if t.info.invite_code:
            await self.cluster.set_invite(t.info.invite_code, t.id)
        await self.cluster.advertise(t.id, self.summary(t))

    async def _rpc_sit(self, args: dict[str, Any]) -> dict[str, Any]:
        """Another node seats one of its users at this node's table (quick match across nodes)."""
        t = self.table(str(args["table"]))
        user = await self._fresh_user(int(args["user_id"]))
        async with self.seating(user.id, cluster=False):  # the calling node holds the user's cluster lock
            cur = self._current(user.id)
            if cur is not None and cur[0] is not t:
                raise self._seated_elsewhere(cur)
            if cur is not None:  # asked twice: the seat it has
                seat = self._rejoin(cur)[1]
            else:
                async with t.lock:
                    if t.closed or t.running or not t.empty_seats():
                        raise TableError("table_full", "this table has no free seat")
                    seat = await t.sit(user)
        if self.cluster.networked:
            await self.cluster.set_seat(user.id, t.id)
        return {"table": t.id, "seat": seat, "invite_code": t.info.invite_code, "url": self.cluster.public_url}

    async def _rpc_join(self, args: dict[str, Any]) -> dict[str, Any]:
        t, seat = await self.join_invite(int(args["user_id"]), str(args["invite"]))
        assert isinstance(t, Table)
        if self.cluster.networked:
            await self.cluster.set_seat(int(args["user_id"]), t.id)
        return {"table": t.id, "seat": seat, "invite_code": t.info.invite_code, "url": self.cluster.public_url}

    async def _remote(self, node: str, method: str, args: dict[str, Any]) -> RemoteSeat:
        try:
            r = await self.cluster.call(node, method, args)
        except RemoteError as e:
            raise TableError(e.code, e.message, **e.params) from None
        except ClusterError as e:
            raise TableError("server_busy", f"the table's server did not answer: {e}") from None
        return RemoteSeat(str(r["table"]), int(r["seat"]), r.get("invite_code"), node, r.get("url"))

    async def where(self, table_id: str) -> tuple[str, str | None] | None:
        """The node running a table elsewhere and its URL, or ``None`` (here, or nowhere)."""
        if table_id in self.tables or not self.cluster.networked:
            return None
        node = await self.cluster.owner(table_id)
        if node is None or node == self.cluster.node_id:
            return None
        return node, await self.cluster.node_url(node)

    async def elsewhere(self, table_id: str) -> TableError | None:
        """The error that sends a client to the node running ``table_id``, if another node runs it."""
        found = await self.where(table_id)
        if found is None:
            return None
        node, url = found
        return TableError("table_elsewhere", f"table {table_id} runs on node {node}: connect there",
                          table=table_id, node=node, url=url)

    def _user_message(self, event: Any) -> None:
        """A message for a user's connections here, from another node (a seat there, a match notice)."""
        if not isinstance(event, dict) or event.get("from") == self.cluster.node_id:
            return
        for c in self.conns_of(int(event["user_id"])):
            c.send(event["message"])

    async def user_renamed(self, user: UserInfo) -> None:
        """``user`` was renamed in the store (a guest saved as a registered account, same id): this node's
        connections of the user know it by its new name and state, its seats here show the new name (each table
        tells its players and spectators at once), and match standings name it so; other nodes are told on the
        bus and do the same for what they run."""
        await self._rename_here(user)
        if self.cluster.networked:
            self.bus.publish(USER_RENAMED, {"user": user.public(), "from": self.cluster.node_id})

    async def _on_renamed(self, event: Any) -> None:
        """Another node renamed an account (:meth:`user_renamed`)."""
        if not isinstance(event, dict) or event.get("from") == self.cluster.node_id:
            return
        u = event.get("user")
        if not isinstance(u, dict):
            return
        await self._rename_here(UserInfo(id=int(u["id"]), name=str(u["name"]), is_guest=bool(u["is_guest"]),
                                         is_bot=bool(u.get("is_bot"))))

    async def _rename_here(self, user: UserInfo) -> None:
        for c in self.conns_of(user.id):
            c.user = user
            c.send({"type": "account", "user": user.public()})  # its other windows show the new name at once
        for t in list(self.tables.values()):
            if t.closed or t.seat_of(user.id) is None:
                continue
            async with t.lock:
                await t.rename(user.id, user.name)
        director = self.director
        if director is not None:  # a match's standings name its entrants from what it loaded
            me = f"u{user.id}"
            for run in list(getattr(director, "runs", {}).values()):
                try:
                    if any(me in e.players for e in run.state.entrants.values()):
                        await director.load_names(run)
                except Exception:
                    log.warning("could not rename user %s in match %s", user.id, getattr(run, "id", "?"),
                                exc_info=True)

    def tell_user(self, user_id: int, message: dict[str, Any]) -> None:
        """Send ``message`` to the user's connections on every node."""
        self.tell_users([user_id], message)

    def tell_users(self, user_ids: Iterable[int], message: dict[str, Any], also: Iterable[Conn] = ()) -> None:
        """Send ``message`` to these users' connections on every node, and to the connections ``also`` (encoded
        once for all of them; one that cannot be encoded goes through each connection's own ``send``, which
        reports it)."""
        try:
            body: str | None = dumps(message)
        except Exception:
            body = None

        def give(c: Conn) -> None:
            if body is None:
                c.send(message)
            else:
                c.send_body(body)
        sent: set[int] = set()  # a player who also watches the match gets each message once
        for uid in user_ids:
            for c in self.conns_of(uid):
                give(c)
                sent.add(id(c))
            if self.cluster.networked:
                self.bus.publish(USER_MESSAGE, {"user_id": uid, "message": message, "from": self.cluster.node_id})
        for c in also:
            if id(c) not in sent:
                give(c)

    async def drain(self) -> int:
        """Move this node's tables to other nodes between deals (a running deal finishes here first); new
        tables are made elsewhere meanwhile.  Returns how many tables are left to move."""
        self.draining = True
        if self.director is not None and self.cluster.networked:
            await self.director.hand_over_matches()  # its tables go with it (or after their deals)
        for t in list(self.tables.values()):
            if not t.running:
                await self.hand_over(t)
            else:
                t.kick()  # a deal nobody watches now plays on without pauses (``Table._delay_for``)
        return len(self.tables)

    def hand_over_soon(self, t: Table) -> None:
        self._soon(self.hand_over(t))

    async def hand_over(self, t: Table) -> None:
        """Give a table between deals to whichever node claims it next (its players reconnect there)."""
        async with t.lock:
            if t.running or t.closed or t.lease_token is None:
                return
            t.closed = True
            t.broadcast({"type": "moved", "table": t.id, "node": None, "url": None})
            self.drop_local(t)
            await self.cluster.release(t.id, t.lease_token)
            await self.store.disown_table(t.id, (t.id, t.lease_token))
            t.kick()

    def _rebuilt(self, rd: RunningDeal) -> tuple[Table | None, Game, list[tuple[int, str]]]:
        """A running deal's table, its game replayed from the journal, and the journal's steps."""
        game = self.factory(rd.table.game).new(rd.options, rd.seed, rd.context)
        steps = [(-1 if j.seat is None else j.seat, j.action) for j in rd.journal]
        for seat, text in steps:
            apply_step(game, seat, text)
        return self._restored_table(rd.table, rd.seats, rd.leaving), game, steps

    def _restored_table(self, info: TableInfo, seats: list[dict[str, Any]],
                        leaving: Collection[int] = ()) -> Table | None:
        """A table rebuilt from its stored row and seats (``leaving``: seats whose player had left, when the
        seats are a deal's list, which does not say)."""
        factory = self.factory(info.game)
        players = factory.players(info.options)
        fill = info.fill_bots_after
        if fill is None and not info.private:  # a public table from before the column existed
            fill = self.settings.bot_fill_wait
        t = Table(self, info, factory, players, fill_bots_after=fill)
        for i, s in enumerate(seats[:players]):
            uid, bot = s.get("user_id"), s.get("bot")
            if uid is None and bot is None:
                continue
            # (a running deal's seats name each seat; a table's stored seats do not: a match table's bot entrants
            # keep their numbers in its tags)
            name = str(s.get("name") or (self.bot_seat_name(bot, i, (info.tags or {}).get("bot_numbers"))
                                         if bot else f"#{uid}"))
            t.seats[i] = SeatState(user_id=uid, bot=bot, name=name, account_id=uid,
                                   leaving=bool(s.get("leaving")) or i in leaving)
        return t

    async def restore(self) -> None:
        """Rebuild every table that was open when the server stopped: running deals from their journal, tables
        between deals with their match state (their players have ``restore_grace`` seconds to come back)."""
        restored: list[str] = []
        for rd in await self.store.running_deals():
            try:
                t, game, steps = self._rebuilt(rd)
            except Exception:
                log.exception("could not restore deal %s of table %s; marking it aborted", rd.deal_id, rd.table.id)
                await self.store.abort_deal(rd.deal_id)
                continue
            assert t is not None
            t.results = await self.store.table_results(t.id)
            t.restore(rd.deal_id, rd.deal_index, rd.seed, dict(rd.context), game, steps)
            await self._attach(t)
            restored.append(t.id)
            log.info("restored table %s deal %s at version %d", t.id, rd.deal_id, t.version)
        for info, seats in await self.store.open_tables(exclude=restored):
            names = {u.id: u.name for u in (await self.store.users(
                [s["user_id"] for s in seats if s.get("user_id") is not None])).values()}
            for s in seats:
                if s.get("user_id") is not None:
                    s["name"] = names.get(s["user_id"], f"#{s['user_id']}")
            try:
                t = self._restored_table(info, seats)
            except Exception:
                log.exception("could not restore table %s; closing it", info.id)
                await self.store.close_table(info.id)
                continue
            if t is not None:
                await self._free_leavers(t)
            if t is None or (not t.humans() and not t.managed):
                await self.store.close_table(info.id)
                continue
            await self._between_deals(t, seats)
            await self._attach(t)
            restored.append(t.id)
            log.info("restored table %s between deals (deal %d next)", t.id, t.deal_index)

    async def _free_leavers(self, t: Table) -> None:
        """Between deals a seat whose player left during a deal is free (the deal ended, or could not be
        rebuilt); a match seat stays its player's, in auto-play (:meth:`Table.left_match`)."""
        for i, s in enumerate(t.seats):
            if s is not None and s.leaving and not t.left_match(i):
                t.seats[i] = None
                await self.store.set_seat(t.id, i, None, None, t.fence)

    async def _attach(self, t: Table) -> None:
        for i, s in enumerate(t.seats):
            if s is not None and s.bot is not None:
                s.account_id = await self.bot_account(s.bot)
                s.points = self.settings.bot_points
            elif s is not None and s.user_id is not None:
                u = await self.store.user(s.user_id)
                if u is None:
                    t.seats[i] = None
                    continue
                s.points = await self.points_of(u, t.info.game)
        # the table and where its players sit become known together (a connection arriving while the table was
        # being rebuilt must not see its seat without its table, and drop it)
        self.tables[t.id] = t
        for i, s in enumerate(t.seats):
            if s is not None and s.user_id is not None and not t.left_match(i):
                # (a player who left a match sits there no more; the directory of several nodes already says so)
                self.user_table[s.user_id] = t.id
        if t.info.invite_code:
            self.invites[t.info.invite_code] = t.id
        if self.cluster.networked:
            # taken over from a node that went away: the directory may have lost its seats and invite (Redis
            # restarted), and another node must find the table from either
            for i, s in enumerate(t.seats):
                if s is not None and s.user_id is not None and not t.left_match(i):
                    await self.cluster.set_seat(s.user_id, t.id)
            if t.info.invite_code:
                await self.cluster.set_invite(t.info.invite_code, t.id)
        t.start()

    # ------------------------------------------------------------------------------------------ tables
    def table_options(self, room: Room, overrides: dict[str, Any], *, for_points: bool) -> dict[str, Any]:
        """A private table's options: the room's, with the overrides checked against the game's declared
        options.  At a table that plays for points, options that move points keep the room's values."""
        factory = self.factory(room.game)
        if not isinstance(overrides, dict):
            raise TableError("bad_options", "options must be an object of option names and values")
        bad = [k for k in overrides if k in PROTECTED_OPTIONS]
        if bad:
            raise TableError("bad_options", f"the room sets {', '.join(bad)}; choose another room instead",
                             options=bad)
        declared = factory.info.options
        unknown = [k for k in overrides if k not in declared]
        if unknown:
            raise TableError("bad_options", f"unknown rule option {short_repr(unknown[0], 40)}",
                             option=str(unknown[0])[:40])
        options = {**room.options, **overrides}
        try:
            full = factory.options(options)
        except OptionError as e:
            raise TableError("bad_options", f"these table options do not work: {e}", reason=str(e),
                             option=next((k for k in overrides if k in str(e)), None)) from None
        if for_points:
            base = factory.options(room.options)
            moving = [k for k in overrides if declared[k].points and full.get(k) != base.get(k)]
            if moving:
                raise TableError(
                    "points_option",
                    f"{', '.join(moving)} change how many points move: a table that plays for points keeps the "
                    "room's value (create it with for_points false to play for no points)",
                    options=moving,
                )
        return options

    async def _new_table(
        self,
        room: Room,
        creator: UserInfo,
        *,
        private: bool,
        options: dict[str, Any],
        fill_bots_after: float | None,
        autoplay_bot: str,
        for_points: bool = True,
        tags: dict[str, Any] | None = None,
        seat_bot: str | None = None,
        deals_total: int | None = None,
    ) -> Table:
        factory = self.factory(room.game)
        try:
            players = factory.players(options)
            factory.new(options, 0, factory.deal_context(options, factory.match_start(options)))
        except Exception as e:
            raise TableError("bad_options", f"these table options do not work: {e}", reason=str(e)) from None
        invite = None
        if private:
            while True:
                invite = "".join(secrets.choice(INVITE_ALPHABET) for _ in range(6))
                if invite not in self.invites and await self.store.invite_code_free(invite):
                    break
        info = TableInfo(
            id=secrets.token_urlsafe(6),
            game=room.game,
            room=room.id,
            options=options,
            private=private,
            invite_code=invite,
            autoplay_bot=autoplay_bot,
            seat_bot=seat_bot or self.seat_bot(room.game),
            min_points=room.min_points if for_points else 0,
            created_by=creator.id,
            fill_bots_after=fill_bots_after,
            for_points=for_points,
            match_state=factory.match_start(options),
            deals_total=deals_total,
        )
        owner = await self._lease_new(info.id)
        await self.store.create_table(info, players, owner)
        t = Table(self, info, factory, players, fill_bots_after=fill_bots_after, tags=tags)
        await self._claim_new(t, owner)
        self.tables[t.id] = t
        if invite:
            self.invites[invite] = t.id
        return t

    async def _fresh_user(self, user_id: int, *, blocked_ok: bool = False) -> UserInfo:
        """The user as the database has it now: a player sitting down must exist and, unless ``blocked_ok`` (a
        match table seating its entrants), not be blocked."""
        u = await self.store.user(user_id)
        if u is None:
            raise TableError("unauthorized", "your account no longer exists")
        if u.blocked and not blocked_ok:
            raise TableError("account_blocked", "this account is blocked by the server's operator")
        return u

    async def _check_points(self, user: UserInfo, room: Room) -> None:
        points = await self.points_of(user, room.game)
        if points < room.min_points:
            raise TableError(
                "not_enough_points",
                f"room {room.id} needs at least {room.min_points} points to sit down; you have {points}",
                need=room.min_points,
                have=points,
            )

    def _current(self, user_id: int) -> tuple[Table, int] | None:
        tid = self.user_table.get(user_id)
        if tid is None:
            return None
        t = self.tables.get(tid)
        if t is None or t.closed:
            self.user_table.pop(user_id, None)
            return None
        seat = t.seat_of(user_id)
        if seat is None:
            self.user_table.pop(user_id, None)
            return None
        return t, seat

    @contextlib.asynccontextmanager
    async def seating(self, *user_ids: int, cluster: bool = True) -> AsyncIterator[None]:
        """Serialise the seat changes of these users (a user sits at one table at most). Per user, not one lock for
        the node: a seat change that waits on the database or on another node (quick match across nodes) holds up
        only its own users, and two nodes seating at each other's tables cannot wait on each other. Locks are taken
        in user order, so several users (a managed table) cannot deadlock.

        Several nodes: the lock is the cluster's (:meth:`Cluster.lock_user`), taken before this node's own, and
        the directory says where the users sit before it is released — a seat change on another node at the same
        moment waits, then finds the seat (the directory was written in the background: two nodes both seated one
        user). ``cluster=False``: the calling node holds it (another node seats its user here, :meth:`_rpc_sit`)."""
        ids = sorted(set(user_ids))
        held: list[tuple[int, str]] = []
        if cluster and self.cluster.networked:
            try:
                for u in ids:
                    token = await self.cluster.lock_user(u, USER_LOCK_WAIT)
                    if token is None:
                        raise TableError("server_busy", "another server is changing this player's seat; try again")
                    held.append((u, token))
            except BaseException:
                await self._unlock_users(held)
                raise
        for u in ids:
            self._seat_users[u] = self._seat_users.get(u, 0) + 1
        try:
            async with contextlib.AsyncExitStack() as stack:
                for u in ids:
                    await stack.enter_async_context(self._seat_locks.setdefault(u, asyncio.Lock()))
                yield
                if held:
                    seated = {u: self.user_table[u] for u in ids if self.user_table.get(u) in self.tables}
                    if seated:
                        await self.cluster.publish_directory(seated, {})
        finally:
            for u in ids:
                left = self._seat_users[u] - 1
                if left:
                    self._seat_users[u] = left
                else:
                    del self._seat_users[u]
                    self._seat_locks.pop(u, None)
            await self._unlock_users(held)

    async def _unlock_users(self, held: list[tuple[int, str]]) -> None:
        for u, token in held:
            try:
                await self.cluster.unlock_user(u, token)
            except Exception as e:  # it lapses by itself
                log.warning("could not release the seat lock of user %s: %s", u, e)

    def _room_lock(self, room_id: str) -> asyncio.Lock:
        """Quick match in one room on this node: one user at a time looks for a waiting table or opens one, so that
        players arriving together sit together."""
        return self._room_locks.setdefault(room_id, asyncio.Lock())

    def _seated_elsewhere(self, cur: tuple[Table, int]) -> TableError:
        t = cur[0]
        if self._left(cur):
            return self._leaving(t)
        return TableError("already_seated", f"you already sit at table {t.id}: leave it first", table=t.id)

    def _rejoin(self, cur: tuple[Table, int]) -> tuple[Table, int]:
        """A player asks again for the seat they hold: the same seat, unless they left it during the deal."""
        if self._left(cur):
            raise self._leaving(cur[0])
        return cur

    @staticmethod
    def _left(cur: tuple[Table, int]) -> bool:
        """Whether the player of this seat left it during the deal (it is freed when the deal ends)."""
        s = cur[0].seats[cur[1]]
        return s is not None and s.leaving

    @staticmethod
    def _leaving(t: Table) -> TableError:
        """The answer to a player who left ``t`` during its deal and asks for a seat (there or anywhere) before
        the deal ends: the leave stands (the game has already settled it as an escape or auto-play)."""
        return TableError("leaving_table", f"you left table {t.id} during its deal: your seat there is freed "
                                           "when the deal ends; sit down again after that", table=t.id)

    async def quick_match(self, user_id: int, room_id: str) -> tuple[Table | RemoteSeat, int]:
        """Seat the user now at a waiting table of the room — here, or on another node (then the answer is a
        :class:`RemoteSeat` and the client reconnects there) — or at a new one here; bots fill the empty seats
        after ``bot_fill_wait`` seconds."""
        room = self.room(room_id)
        self._storage_or_refuse()
        await self._refuse_if_blocked(user_id)
        await self._refuse_if_in_match(user_id)
        async with self.seating(user_id):
            cur = self._current(user_id)
            if cur is not None:
                if cur[0].info.room == room_id and not cur[0].info.private and not cur[0].tags:
                    return self._rejoin(cur)
                raise self._seated_elsewhere(cur)
            await self._refuse_if_seated_remotely(user_id)
            user = await self._fresh_user(user_id)
            await self._check_points(user, room)
            async with self._room_lock(room_id):
                found = await self._sit_waiting(user, room_id)
            if found is not None:
                return found
            if self.cluster.networked:
                # not under the room lock: another node's answer may take a while, and it may be asking us
                remote = await self._remote_quick_match(user.id, room_id)
                if remote is not None:
                    return remote, remote.seat
            async with self._room_lock(room_id):
                found = await self._sit_waiting(user, room_id)  # opened here while we asked the others
                if found is not None:
                    return found
                self._refuse_if_draining()
                t = await self._new_table(
                    room,
                    user,
                    private=False,
                    options=dict(room.options),
                    fill_bots_after=self.settings.bot_fill_wait,
                    autoplay_bot=self.autoplay_bot(room.game, room.options),
                )
                async with t.lock:
                    seat = await t.sit(user)
                t.start()
                return t, seat

    async def _sit_waiting(self, user: UserInfo, room_id: str) -> tuple[Table, int] | None:
        """Seat the user at this node's fullest waiting table of the room (``None``: there is none)."""
        candidates = [
            t
            for t in self.tables.values()
            if t.info.room == room_id
            and not t.info.private
            and not t.tags
            and not t.closed
            and not t.running
            and t.empty_seats()
            and t.humans()
        ]
        candidates.sort(key=lambda t: len(t.empty_seats()))
        for t in candidates:
            async with t.lock:
                if t.closed or t.running or not t.empty_seats():
                    continue
                return t, await t.sit(user)
        return None

    async def _refuse_if_seated_remotely(self, user_id: int) -> None:
        if not self.cluster.networked:
            return
        tid = await self.cluster.seat_of(user_id)
        if tid is not None and tid not in self.tables and await self.cluster.owner(tid) is not None:
            raise TableError("already_seated", f"you already sit at table {tid}: leave it first", table=tid)

    async def _refuse_if_blocked(self, user_id: int) -> None:
        """A blocked account (``qipai users block``) sits nowhere, not even back at the seat it holds (which plays
        on in auto-play).  Its sessions are dropped as it is blocked: this catches one that slipped through."""
        if await self.store.blocked_among([user_id]):
            raise TableError("account_blocked", "this account is blocked by the server's operator")

    async def _refuse_if_in_match(self, user_id: int) -> None:
        """A player in a started match plays only the match's tables (the director seats them), whichever node
        drives the match."""
        mid = await self.director.active_match_anywhere(user_id) if self.director is not None else None
        if mid is not None:
            raise TableError("in_match", "you play in a match now: its tables seat you (withdraw to leave it)",
                             match=mid)

    def _refuse_if_draining(self) -> None:
        if self.draining:
            raise TableError("node_draining", "this server is handing its tables over: try again in a moment")

    async def _remote_quick_match(self, user_id: int, room_id: str) -> RemoteSeat | None:
        """A waiting table of the room on another node with a free seat, and the seat it gave the user."""
        found = [s for s in await self.cluster.tables()
                 if s.get("room") == room_id and not s.get("private") and not s.get("managed")
                 and s.get("status") == "waiting" and s.get("empty", 0) > 0 and s.get("humans", 0) > 0
                 and s.get("node") != self.cluster.node_id]
        found.sort(key=lambda s: s.get("empty", 0))
        for s in found:
            try:
                return await self._remote(str(s["node"]), "sit", {"table": s["id"], "user_id": user_id})
            except TableError as e:
                if e.code in ("already_seated", "not_enough_points", "storage_unavailable"):
                    raise
        return None

    def _storage_or_refuse(self) -> None:
        if not self.storage_ok:
            raise TableError("storage_unavailable", "the server cannot save games right now; try again in a moment")

    async def create_private(
        self,
        user_id: int,
        room_id: str,
        overrides: dict[str, Any],
        fill_bots_after: float | None,
        autoplay_bot: str | None,
        for_points: bool = True,
        seat_bot: str | None = None,
        deals_total: int | None = None,
    ) -> tuple[Table, int]:
        """A private table in a room (its game, preset and stake), reached by its invite code; the creator sits.

        ``overrides`` change rule options within their declared ranges; at a table that plays for points
        (``for_points``) options that move points keep the room's values.  ``deals_total``: the number of deals
        the table plays (好友房局数, :data:`~qipai.host.series.DEALS_MIN`..:data:`~qipai.host.series.DEALS_MAX`)
        before it closes with a final summary; ``None``: until its players leave."""
        if deals_total is not None and (isinstance(deals_total, bool) or not isinstance(deals_total, int)
                                        or not DEALS_MIN <= deals_total <= DEALS_MAX):
            raise TableError("bad_options", f"deals: a number of deals ({DEALS_MIN}..{DEALS_MAX}) or null",
                             option="deals", reason=f"{DEALS_MIN}..{DEALS_MAX}")
        room = self.room(room_id)
        self._storage_or_refuse()
        self._refuse_if_draining()
        await self._refuse_if_blocked(user_id)
        await self._refuse_if_in_match(user_id)
        options = self.table_options(room, overrides, for_points=for_points)
        bot = autoplay_bot or self.autoplay_bot(room.game, options)
        for what, name in (("autoplay_bot", bot), ("seat_bot", seat_bot)):
            if name is None:
                continue
            try:
                self.bot(room.game, name, 0)
            except Exception as e:
                # a KeyError's str() is its message in quotes
                why = str(e.args[0]) if isinstance(e, KeyError) and e.args else str(e)
                raise TableError("bad_options", f"{what}: {why}", option=what, reason=why) from None
        if for_points:
            self._refuse_easy_points(room, options, autoplay_bot, seat_bot)
        async with self.seating(user_id):
            cur = self._current(user_id)
            if cur is not None:
                raise self._seated_elsewhere(cur)
            await self._refuse_if_seated_remotely(user_id)
            user = await self._fresh_user(user_id)
            if for_points:
                await self._check_points(user, room)
            t = await self._new_table(
                room,
                user,
                private=True,
                options=options,
                fill_bots_after=fill_bots_after,
                autoplay_bot=bot,
                for_points=for_points,
                seat_bot=seat_bot,
                deals_total=deals_total,
            )
            async with t.lock:
                seat = await t.sit(user)
            t.start()
            return t, seat

    def _refuse_easy_points(self, room: Room, options: dict[str, Any], autoplay_bot: str | None,
                            seat_bot: str | None) -> None:
        """At a private table played for points the bots are not the creator's to make points easy: auto-play is
        the room's own, whether chosen by name or by the game's auto-play option (a strong one chosen played for
        an absent player and won points with no play at all), and the bots in the seats are the room's level or
        stronger (weaker ones play at a table for no points)."""
        game = room.game
        own = self.autoplay_bot(game, room.options)
        chosen = autoplay_bot if autoplay_bot is not None else self.autoplay_bot(game, options)
        if chosen != own:
            by_option = self.factory(game).info.autoplay_option
            what = "autoplay_bot" if autoplay_bot is not None or not by_option else by_option
            why = (f"at a table played for points auto-play is the room's own ({own}); choose another at a table "
                   "for no points (for_points false)")
            raise TableError("bad_options", f"{what}: {why}", option=what, reason=why)
        if seat_bot is None:
            return
        levels = list(self.factory(game).info.levels)
        base = self.seat_bot(game)
        allowed = levels[levels.index(base):] if base in levels else levels
        if seat_bot not in allowed:
            shown = ", ".join(allowed) if allowed else "the room's own"
            why = f"at a table played for points the bots are {shown}; {seat_bot} plays at a table for no points " \
                  "(for_points false)"
            raise TableError("bad_options", f"seat_bot: {why}", option="seat_bot", reason=why)

    async def open_managed_table(self, game: str, options: dict[str, Any], seats: list[dict[str, Any]],
                                 tags: dict[str, Any], *, autoplay_bot: str | None = None) -> Table:
        """A match table for a director: ``seats`` name each seat's entrant (``{"user_id": id}`` or
        ``{"bot": name}``, with the bot entrant's ``number`` for its name at the table), ``tags`` what it
        belongs to (a ``match_id`` and table key; ``managed`` is set).  It is
        listed for spectators, plays for no platform points (the match keeps its own scores), and starts each
        deal only when the director calls :meth:`Table.start_managed_deal`.  A seated user must not sit elsewhere.
        """
        factory = self.factory(game)
        try:
            full = factory.options(options)
            players = factory.players(options)
        except Exception as e:
            raise TableError("bad_options", f"these table options do not work: {e}", reason=str(e)) from None
        if len(seats) != players:
            raise TableError("bad_options", f"{game} needs {players} seats, got {len(seats)}")
        del full
        # each bot entrant's own number, kept in the table's stored tags: a node that restores the table (a
        # restart, or another node taking it over) names the bot as the standings do, not after its seat
        numbers = [s.get("number") if s.get("user_id") is None and isinstance(s.get("number"), int)
                   and not isinstance(s.get("number"), bool) else None for s in seats]
        extra: dict[str, Any] = {"bot_numbers": numbers} if any(n is not None for n in numbers) else {}
        info = TableInfo(
            id=secrets.token_urlsafe(6), game=game, room=None, options=dict(options), private=False,
            invite_code=None, autoplay_bot=autoplay_bot or self.autoplay_bot(game, options),
            seat_bot=self.seat_bot(game), min_points=0, created_by=None, fill_bots_after=None, for_points=False,
            match_state=factory.match_start(options), tags={**tags, **extra, "managed": True},
        )
        async with self.seating(*(int(s["user_id"]) for s in seats if s.get("user_id") is not None)):
            for s in seats:
                uid = s.get("user_id")
                if uid is not None:
                    cur = self._current(int(uid))
                    # a player who left another table during its deal is free for the match (that seat plays
                    # its deal out in auto-play, and its end does not unseat them here): nobody waits (§2.3.5)
                    if cur is not None and not self._left(cur):
                        raise self._seated_elsewhere(cur)
            states: list[SeatState] = []
            for i, s in enumerate(seats):
                uid, bot = s.get("user_id"), s.get("bot")
                if uid is not None:
                    # a blocked entrant keeps the seat the match gives it, in auto-play (it cannot connect)
                    u = await self._fresh_user(int(uid), blocked_ok=True)
                    states.append(SeatState(user_id=u.id, bot=None, name=u.name, account_id=u.id,
                                            points=await self.points_of(u, game)))
                elif isinstance(bot, str):
                    self.bot(game, bot, 0)  # an unknown bot is refused here
                    shown = self.bot_seat_name(bot, i, numbers)  # the bot entrant's number, else the seat's
                    states.append(SeatState(user_id=None, bot=bot, name=shown,
                                            points=self.settings.bot_points, account_id=await self.bot_account(bot)))
                else:
                    raise TableError("bad_options", f"seat {i}: name a user_id or a bot")
            # the table and all its seats in one write (a large 打立 stage opens tables many times a second)
            owner = await self._lease_new(info.id)
            await self.store.create_table(info, players, owner, [(x.user_id, x.bot) for x in states])
            t = Table(self, info, factory, players, fill_bots_after=None)
            await self._claim_new(t, owner)
            for i, x in enumerate(states):
                t.seats[i] = x
                if x.user_id is not None:
                    self.seat_user(x.user_id, t.id)
            self.tables[t.id] = t
        t.start()
        for i, seat in enumerate(t.seats):
            if seat is not None and seat.user_id is not None:
                self.announce_seat(seat.user_id, t, i, None, None)
        return t

    def invite_table(self, code: str) -> Table:
        tid = self.invites.get(code.strip().upper())
        if tid is None or tid not in self.tables:
            raise TableError("unknown_invite", f"no open table has the invite code {short_repr(code, 40)}",
                             invite=code[:16])
        return self.tables[tid]

    async def invite_info(self, code: str) -> dict[str, Any]:
        """What an invite code leads to: the table's game, room, seats and whether one may still sit down (a
        table of another node from the directory's summary of it)."""
        key = code.strip().upper()
        found = None
        if key not in self.invites and self.cluster.networked:
            tid = await self.cluster.invite(key)
            found = next((x for x in await self.cluster.tables() if x.get("id") == tid), None) if tid else None
        if found is None:  # a table of this node, as the directory would summarise it
            found = self.summary(self.invite_table(code))
        seats = len(found.get("players") or [])
        empty = int(found.get("empty", 0))
        running = found.get("status") == "playing"
        return {"table": found.get("id"), "game": found.get("game"), "room": found.get("room"), "players": seats,
                "seated": seats - empty, "can_sit": empty > 0 and not running, "running": running}

    async def join_invite(self, user_id: int, code: str) -> tuple[Table | RemoteSeat, int]:
        code = code.strip().upper()
        if code not in self.invites and self.cluster.networked:
            tid = await self.cluster.invite(code)
            node = await self.cluster.owner(tid) if tid is not None else None
            if tid is not None and node is not None and node != self.cluster.node_id:
                remote = await self._remote(node, "join", {"user_id": user_id, "invite": code})
                return remote, remote.seat
        t = self.invite_table(code)
        self._storage_or_refuse()
        await self._refuse_if_blocked(user_id)
        await self._refuse_if_in_match(user_id)
        async with self.seating(user_id):
            cur = self._current(user_id)
            if cur is not None:
                if cur[0] is t:
                    return self._rejoin(cur)
                raise self._seated_elsewhere(cur)
            await self._refuse_if_seated_remotely(user_id)
            user = await self._fresh_user(user_id)
            async with t.lock:
                if t.running:
                    raise TableError("deal_running", "a deal is running at this table; join between deals or watch")
                return t, await t.sit(user)

    async def leave(self, user_id: int, table_id: str, origin: Conn | None = None, ref: Any = None) -> str:
        t = self.table(table_id)
        async with t.lock:
            return await t.leave(user_id, origin, ref)

    def announce_seat(self, user_id: int, table: Table | RemoteSeat, seat: int, origin: Conn | None,
                      ref: Any) -> None:
        """Tell every connection of the user where they now sit, with a full snapshot (a seat on another node:
        where to reconnect)."""
        if isinstance(table, RemoteSeat):
            for c in self.conns_of(user_id):
                c.send({"type": "joined", "table": table.table_id, "seat": seat, "invite_code": table.invite_code,
                        "node": table.node, "url": table.url, "ref": ref if c is origin else None})
            return
        for c in self.conns_of(user_id):
            r = ref if c is origin else None
            c.send(
                {
                    "type": "joined",
                    "table": table.id,
                    "seat": seat,
                    "invite_code": table.info.invite_code,
                    "ref": r,
                }
            )
            c.send(table.snapshot(seat, r))

    # ------------------------------------------------------------------------------------------ connections
    async def connect(self, conn: Conn) -> None:
        """A new connection of a user.  The newest connection controls the seat: older ones are told they
        were taken over (they may take it back with ``take_over``)."""
        uid = conn.user.id
        older = list(self.conns.get(uid) or ())
        cur = self._current(uid)
        if cur is not None:
            # held back from the table's messages until its snapshot (protocol §4.2): a state or table message
            # sent while this waited for the table's lock came before the snapshot
            self.joining.add(conn)
        self.conns.setdefault(uid, set()).add(conn)
        try:
            await self._connect(conn, uid, older, cur)
        finally:
            self.joining.discard(conn)

    async def _connect(self, conn: Conn, uid: int, older: list[Conn], cur: tuple[Table, int] | None) -> None:
        welcome = self._welcome(conn, cur[0].id if cur else None)
        waiting: str | None = None
        if cur is None and self.cluster.networked:
            tid = await self.cluster.seat_of(uid)
            if tid is None:
                # the directory may have lost the seat (a restarted Redis, until the owner publishes it again;
                # a table whose node just dropped it and that no node has taken over yet): the database knows
                tid = await self.store.seated_at(uid)
            found = await self.where(tid) if tid is not None else None
            if tid is not None and found is not None:
                welcome.update(table=tid, node=found[0], url=found[1])  # connect there to play
            elif tid is not None and tid not in self.tables and await self.store.table_info(tid) is not None:
                # its node just went away and no other has taken it over yet: the seat is still the player's,
                # and a snapshot (taken over here) or a redirect (elsewhere) follows
                welcome.update(table=tid, node=None)
                waiting = tid
        conn.send(welcome)
        if waiting is not None:
            self._soon(self._await_owner(conn, waiting))
        self._take_over(conn, older)
        if cur is not None:
            t, _seat = cur
            async with t.lock:
                try:  # (taking the seat back changes the state: the snapshot says it first)
                    await t.user_connected(uid)
                except TableError as e:
                    # the table moved to another node or the database is away: say so, keep the connection
                    conn.send({"type": "error", "code": e.code, "message": e.message, "params": e.params,
                               "ref": None})
                    return
                conn.send(t.snapshot(t.seat_of(uid)))
                self.joining.discard(conn)  # (under the lock: nothing of the table's comes in between)

    def _welcome(self, conn: Conn, table_id: str | None) -> dict[str, Any]:
        """``welcome``: who the connection is, and the table it sits at (run by this node)."""
        return {"type": "welcome", "protocol": 1, "user": conn.user.public(), "table": table_id,
                "node": self.cluster.node_id, "url": None}

    async def _await_owner(self, conn: Conn, table_id: str) -> None:
        """A player whose table had no node (:meth:`connect`): once one takes it over, send the player there;
        taken over here, :meth:`_welcome_back` sends the snapshot.  No owner after a few leases: the table is
        gone, and the player is told it sits nowhere."""
        uid = conn.user.id
        deadline = time.monotonic() + 3 * self.settings.lease_seconds + 5
        while conn in self.conns_of(uid) and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
            if table_id in self.tables:
                return
            err = await self.elsewhere(table_id)
            if err is not None:
                conn.send({"type": "error", "code": err.code, "message": err.message, "params": err.params,
                           "ref": None})
                return
        if conn in self.conns_of(uid) and self._current(uid) is None:
            conn.send(self._welcome(conn, None))

    async def _welcome_back(self, t: Table) -> None:
        """A table just taken over here: its players connected to this node (they reconnected while it had no
        owner) get its snapshot, and their seats back from the auto-play their disconnection started."""
        for i, seat in enumerate(t.seats):
            if seat is None or seat.user_id is None or t.left_match(i):
                continue
            conns = [c for c in self.conns_of(seat.user_id) if c.active]
            if not conns:
                continue
            async with t.lock:
                with contextlib.suppress(TableError):
                    await t.user_connected(seat.user_id)
                for c in conns:
                    c.send(t.snapshot(t.seat_of(seat.user_id)))

    def _take_over(self, conn: Conn, others: Iterable[Conn]) -> None:
        for c in others:
            if c is not conn and c.active:
                c.active = False
                c.send({"type": "taken_over", "reason": "another_connection"})
        conn.active = True

    def take_over(self, conn: Conn) -> None:
        """``conn`` takes control of its user's seat back from the user's other connections."""
        self._take_over(conn, list(self.conns_of(conn.user.id)))

    async def disconnect(self, conn: Conn) -> None:
        uid = conn.user.id
        conns = self.conns.get(uid)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.conns[uid]
            elif conn.active and not any(c.active for c in conns):
                heir = max(conns, key=lambda c: c.opened)  # the newest window left takes the seat, and is told
                heir.active = True
                heir.send({"type": "took_over", "ref": None})
        if self.director is not None:
            self.director.forget_conn(conn)
        for tid in list(conn.spectating):
            t = self.tables.get(tid)
            if t is not None:
                t.spectators.discard(conn)
                t.kick()
        conn.spectating.clear()
        if not self.conns_of(uid):
            cur = self._current(uid)
            if cur is not None:
                t = cur[0]
                async with t.lock:
                    await t.user_disconnected(uid)

    async def spectate(self, conn: Conn, table_id: str, invite: str | None, ref: Any) -> None:
        away = await self.elsewhere(table_id)
        if away is not None:
            raise away
        t = self.table(table_id)
        if t.player_seat(conn.user.id) is not None:
            raise TableError("seated_here", "you sit at this table: you already see it as a player")
        if t.info.private and (invite or "").strip().upper() != t.info.invite_code:
            raise TableError("private_table", "this table is private: spectating needs its invite code")
        async with t.lock:
            t.spectators.add(conn)
            t.kick()
            conn.spectating.add(t.id)
            conn.send(t.snapshot(None, ref))

    def unspectate(self, conn: Conn, table_id: str) -> None:
        t = self.tables.get(table_id)
        if t is not None:
            t.spectators.discard(conn)
            t.kick()
        conn.spectating.discard(table_id)

    def end_sessions(self, user_id: int, reason: str, *, token_hash: str | None = None,
                     keep: str | None = None) -> int:
        """Sessions of the user just ended (logged out, a new password): close their connections on every node at
        once — :meth:`close_connections` here, and on the other nodes as the bus tells them (they closed them
        only at their next session check, as ``session_expired``).  Returns how many closed here."""
        if self.cluster.networked:
            self.bus.publish(SESSIONS_ENDED, {"user_id": user_id, "reason": reason, "token": token_hash,
                                              "keep": keep, "from": self.cluster.node_id})
        return self.close_connections(user_id, token_hash, reason, keep=keep)

    def _on_sessions_ended(self, event: Any) -> None:
        if not isinstance(event, dict) or event.get("from") == self.cluster.node_id:
            return
        with contextlib.suppress(KeyError, TypeError, ValueError):
            self.close_connections(int(event["user_id"]), event.get("token"), str(event["reason"]),
                                   keep=event.get("keep"))

    def close_connections(self, user_id: int, token_hash: str | None = None, reason: str = "logged_out", *,
                          keep: str | None = None) -> int:
        """Close the user's connections on this node (only those opened with ``token_hash``, when given; not those
        opened with ``keep``); returns how many."""
        n = 0
        for c in list(self.conns_of(user_id)):
            if (token_hash is None or c.token_hash == token_hash) and (keep is None or c.token_hash != keep):
                c.send({"type": "closed_session", "reason": reason})
                c.close()
                n += 1
        return n

    # ------------------------------------------------------------------------------------------ relief
    async def relief_due(self, user: UserInfo, game: str, points: int | None = None) -> bool:
        """Whether 救济 is due: ``relief_points`` once every ``relief_hours`` to a player whose points in ``game``
        are below the lowest room's minimum (below 1 where every room is free)."""
        if self.settings.relief_points <= 0 or user.is_bot:
            return False
        if (points if points is not None else await self.points_of(user, game)) >= self._relief_floor(game):
            return False
        last = await self.store.last_relief(user.id, game)
        return last is None or datetime.now(UTC) - last >= timedelta(hours=self.settings.relief_hours)

    async def relief(self, user: UserInfo, game: str) -> int | None:
        """Grant 救济 when due (see :meth:`relief_due`); returns the new points, or ``None``.  The store checks
        again as it pays, in the same transaction: requests sent together were each paid (the check and the grant
        were apart, and every request passed the check before the first grant was written)."""
        if not await self.relief_due(user, game):  # (which opens the account's standing in the game if need be)
            return None
        return await self.store.grant_relief(user.id, game, self.settings.relief_points, self._relief_floor(game),
                                             timedelta(hours=self.settings.relief_hours))

    def _relief_floor(self, game: str) -> int:
        """Points below which 救济 is due: the lowest room's minimum in ``game`` (1 where every room is free)."""
        rooms = [r.min_points for r in self.rooms.values() if r.game == game]
        return max(min(rooms) if rooms else 0, 1)

    def stats(self) -> dict[str, Any]:
        return {
            "journal_wait_ms": _percentiles(self.journal.waits),
            "journal_commit_ms": _percentiles(self.journal.commits),
            "full_gc_ms": _percentiles(self.full_gc),
            "tables": len(self.tables),
            "playing": sum(1 for t in self.tables.values() if t.running),
            "connections": sum(len(c) for c in self.conns.values()),
            "journal_batches": self.journal.batches,
            "loop_lag_ms": _percentiles(self.lag[-600:]),
            "db": self.store.sessions.timings.summary(_percentiles),
            "storage_ok": self.storage_ok,
            "storage_error": self.storage_error,
            "node": self.cluster.node_id,
            "networked": self.cluster.networked,
            "cluster_ok": self.cluster_ok,
            "draining": self.draining,
            "bots_waiting": len(self.bot_queue.waiting),
            "bots_hurried": self.bot_queue.hurried,
        }


def storage_reason(error: BaseException) -> str:
    """What the public ``/api/health`` says of a database failure (``storage_error``): the kind of error — and
    SQLite's own words, which name no data (``database is locked``, ``database or disk is full``) — never the
    whole message: SQLAlchemy's holds the statement and its parameters, and a PostgreSQL driver's the database
    server's address or user.  The whole message is in the log (:meth:`Lobby.storage_failed`).

    >>> storage_reason(sqlite3.OperationalError("database is locked"))
    'OperationalError: database is locked'
    >>> storage_reason(ConnectionRefusedError(111, "Connect call failed ('10.0.0.5', 5432)"))
    'ConnectionRefusedError'
    """
    orig = getattr(error, "orig", None)
    inner = orig if isinstance(orig, BaseException) else None
    kind = type(error).__name__
    if inner is not None and type(inner).__name__ != kind:
        kind += f" ({type(inner).__name__})"
    driver = inner if inner is not None else error
    if isinstance(driver, sqlite3.Error):
        words = str(driver).split("\n", 1)[0][:100]
        return f"{kind}: {words}" if words else kind
    return kind


def _percentiles(xs: Any) -> dict[str, float | None]:
    """p50, p99 and max of durations in seconds, in milliseconds."""
    v = sorted(xs)
    if not v:
        return {"p50": None, "p99": None, "max": None}
    return {"p50": round(1000 * v[len(v) // 2], 2), "p99": round(1000 * v[int(len(v) * 0.99)], 2),
            "max": round(1000 * v[-1], 2)}

