"""The lobby: rooms, tables, who sits where, connections, quick match, private tables, spectators, restore.

Also the journal writer, which batches the journal entries of every table into one transaction at a time
(group commit): each table awaits its own entry before broadcasting.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
import os
import secrets
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

from qipai.game import GameFactory
from qipai.server.botpool import init_worker, remote_act
from qipai.server.settings import Bot, Room, Settings
from qipai.server.table import SeatState, Table, TableError
from qipai.store import JournalRow, Store, TableInfo, UserInfo

if TYPE_CHECKING:
    from qipai.server.ws import Connection

log = logging.getLogger("qipai.server.lobby")

INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
PROTECTED_OPTIONS = ("preset", "stake")


class JournalWriter:
    """Writes journal entries in batches; :meth:`write` returns once its entry is committed."""

    def __init__(self, store: Store, max_batch: int = 2000) -> None:
        self.store = store
        self.max_batch = max_batch
        self.pending: list[tuple[JournalRow, asyncio.Future[None]]] = []
        self.event = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.batches = 0
        self.waits: deque[float] = deque(maxlen=5000)
        """Seconds from :meth:`write` to its commit, for the latest writes."""
        self.commits: deque[float] = deque(maxlen=1000)
        """Seconds each of the latest batch commits took."""

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name="journal-writer")

    async def write(self, row: JournalRow) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((row, fut))
        self.event.set()
        t0 = time.perf_counter()
        await fut
        self.waits.append(time.perf_counter() - t0)

    async def _flush(self) -> None:
        while self.pending:
            batch, self.pending = self.pending[: self.max_batch], self.pending[self.max_batch :]
            t0 = time.perf_counter()
            try:
                await self.store.append_journal([r for r, _ in batch])
                self.commits.append(time.perf_counter() - t0)
            except Exception as e:
                log.exception("journal: a batch of %d entries failed", len(batch))
                for _, f in batch:
                    if not f.done():
                        f.set_exception(e)
            else:
                self.batches += 1
                for _, f in batch:
                    if not f.done():
                        f.set_result(None)

    async def _run(self) -> None:
        while True:
            await self.event.wait()
            self.event.clear()
            await self._flush()

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        await self._flush()


class Lobby:
    """Everything live on the server: tables, seats and connections."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.rooms: dict[str, Room] = {r.id: r for r in settings.rooms}
        self.tables: dict[str, Table] = {}
        self.invites: dict[str, str] = {}
        self.user_table: dict[int, str] = {}
        self.conns: dict[int, set[Connection]] = {}
        self.closing = False
        self.journal = JournalWriter(store)
        self.seating = asyncio.Lock()
        self._factories: dict[str, GameFactory] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._lag_task: asyncio.Task[None] | None = None
        self.lag: list[float] = []
        self.full_gc: deque[float] = deque(maxlen=100)
        """Seconds each of the latest full garbage collections stopped the process (the event loop with it)."""
        self._gc_started = 0.0

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

    def bot(self, name: str, seed: int) -> Bot:
        return self.settings.bots(name, seed)

    async def think(self, name: str, bot: Bot, seed: int, observation: dict[str, Any], legal: list[str]) -> str:
        """The bot's action: on the event loop for fast bots, else in a worker process (``bot_processes``) or
        a thread, within ``bot_budget`` seconds (``TimeoutError`` past it)."""
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
            fut = asyncio.get_running_loop().run_in_executor(
                self._pool, remote_act, s.bots, name, seed, observation, legal
            )
            return await asyncio.wait_for(fut, s.bot_budget)
        return await asyncio.wait_for(asyncio.to_thread(bot.act, observation, legal), s.bot_budget)

    def conns_of(self, user_id: int | None) -> set[Connection]:
        if user_id is None:
            return set()
        return self.conns.get(user_id) or set()

    def room(self, room_id: str) -> Room:
        r = self.rooms.get(room_id)
        if r is None:
            raise TableError("unknown_room", f"no room {room_id!r}: see /api/rooms")
        return r

    def table(self, table_id: str) -> Table:
        t = self.tables.get(table_id)
        if t is None or t.closed:
            raise TableError("unknown_table", f"no open table {table_id!r}")
        return t

    def forget(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        if table.info.invite_code:
            self.invites.pop(table.info.invite_code, None)

    def room_list(self) -> list[dict[str, Any]]:
        out = []
        for r in self.rooms.values():
            tables = [t for t in self.tables.values() if t.info.room == r.id and not t.closed]
            out.append(
                {
                    "id": r.id,
                    "name": r.name,
                    "game": r.game,
                    "options": r.options,
                    "stake": r.stake,
                    "min_points": r.min_points,
                    "tables": len(tables),
                    "players": sum(len(t.humans()) for t in tables),
                }
            )
        return out

    def public_tables(self) -> list[dict[str, Any]]:
        return [
            {
                "id": t.id,
                "room": t.info.room,
                "game": t.info.game,
                "status": "playing" if t.running else "waiting",
                "players": [s.name if s else None for s in t.seats],
                "spectators": len(t.spectators),
            }
            for t in self.tables.values()
            if not t.info.private and not t.closed
        ]

    # ------------------------------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        # What exists now (modules, the app, settings) lives as long as the process: keep it out of every
        # future full garbage collection, which would otherwise walk it again each time.
        gc.collect()
        gc.freeze()
        self.journal.start()
        await self.restore()
        self._lag_task = asyncio.create_task(self._watch_lag(), name="loop-lag")
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

    async def stop(self) -> None:
        self.closing = True
        if self._lag_task is not None:
            self._lag_task.cancel()
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._on_gc)
        tasks = [t.task for t in self.tables.values() if t.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.journal.stop()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    async def restore(self) -> None:
        """Rebuild every deal that was running when the server stopped, from its journal."""
        restored: list[str] = []
        for rd in await self.store.running_deals():
            try:
                factory = self.factory(rd.table.game)
                game = factory.new(rd.options, rd.seed, rd.context)
                for j in rd.journal:
                    game.apply(j.action, j.seat)
                players = factory.players(rd.table.options)
            except Exception:
                log.exception("could not restore deal %s of table %s; marking it aborted", rd.deal_id, rd.table.id)
                await self.store.abort_deal(rd.deal_id)
                continue
            fill = rd.table.fill_bots_after
            if fill is None and not rd.table.private:  # a public table from before the column existed
                fill = self.settings.bot_fill_wait
            t = Table(self, rd.table, factory, players, fill_bots_after=fill)
            for i, s in enumerate(rd.seats[:players]):
                t.seats[i] = SeatState(user_id=s.get("user_id"), bot=s.get("bot"), name=str(s.get("name")))
                uid = s.get("user_id")
                if uid is not None:
                    self.user_table[uid] = t.id
            t.results = await self.store.table_results(t.id)
            t.restore(rd.deal_id, rd.deal_index, game, len(rd.journal))
            self.tables[t.id] = t
            if t.info.invite_code:
                self.invites[t.info.invite_code] = t.id
            t.start()
            restored.append(t.id)
            log.info("restored table %s deal %s at version %d", t.id, rd.deal_id, t.version)
        await self.store.close_idle_tables(restored)

    # ------------------------------------------------------------------------------------------ tables
    async def _new_table(
        self,
        room: Room,
        creator: UserInfo,
        *,
        private: bool,
        options: dict[str, Any],
        fill_bots_after: float | None,
        autoplay_bot: str,
    ) -> Table:
        factory = self.factory(room.game)
        try:
            players = factory.players(options)
            factory.new(options, 0, {})
        except Exception as e:
            raise TableError("bad_options", f"these table options do not work: {e}") from None
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
            seat_bot=self.settings.seat_bot,
            min_points=room.min_points,
            created_by=creator.id,
            fill_bots_after=fill_bots_after,
        )
        await self.store.create_table(info, players)
        t = Table(self, info, factory, players, fill_bots_after=fill_bots_after)
        self.tables[t.id] = t
        if invite:
            self.invites[invite] = t.id
        return t

    async def _fresh_user(self, user_id: int) -> UserInfo:
        u = await self.store.user(user_id)
        if u is None:
            raise TableError("unauthorized", "your account no longer exists")
        return u

    def _check_points(self, user: UserInfo, room: Room) -> None:
        if user.points < room.min_points:
            raise TableError(
                "not_enough_points",
                f"room {room.id} needs at least {room.min_points} points to sit down; you have {user.points}",
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

    async def quick_match(self, user_id: int, room_id: str) -> tuple[Table, int]:
        """Seat the user now at a waiting table of the room (a new one if none); bots fill the empty seats
        after ``bot_fill_wait`` seconds."""
        room = self.room(room_id)
        async with self.seating:
            cur = self._current(user_id)
            if cur is not None:
                if cur[0].info.room == room_id and not cur[0].info.private:
                    return cur
                raise TableError("already_seated", f"you already sit at table {cur[0].id}: leave it first")
            user = await self._fresh_user(user_id)
            self._check_points(user, room)
            candidates = [
                t
                for t in self.tables.values()
                if t.info.room == room_id
                and not t.info.private
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
            t = await self._new_table(
                room,
                user,
                private=False,
                options=dict(room.options),
                fill_bots_after=self.settings.bot_fill_wait,
                autoplay_bot=self.settings.autoplay_bot,
            )
            async with t.lock:
                seat = await t.sit(user)
            t.start()
            return t, seat

    async def create_private(
        self,
        user_id: int,
        room_id: str,
        overrides: dict[str, Any],
        fill_bots_after: float | None,
        autoplay_bot: str | None,
    ) -> tuple[Table, int]:
        """A private table in a room (its preset and stake), reached by its invite code; the creator sits."""
        room = self.room(room_id)
        bad = [k for k in overrides if k in PROTECTED_OPTIONS]
        if bad:
            raise TableError("bad_options", f"the room sets {', '.join(bad)}; choose another room instead")
        bot = autoplay_bot or self.settings.autoplay_bot
        try:
            self.bot(bot, 0)
        except Exception as e:
            raise TableError("bad_options", f"autoplay_bot: {e}") from None
        async with self.seating:
            cur = self._current(user_id)
            if cur is not None:
                raise TableError("already_seated", f"you already sit at table {cur[0].id}: leave it first")
            user = await self._fresh_user(user_id)
            self._check_points(user, room)
            t = await self._new_table(
                room,
                user,
                private=True,
                options={**room.options, **overrides},
                fill_bots_after=fill_bots_after,
                autoplay_bot=bot,
            )
            async with t.lock:
                seat = await t.sit(user)
            t.start()
            return t, seat

    async def join_invite(self, user_id: int, code: str) -> tuple[Table, int]:
        tid = self.invites.get(code.strip().upper())
        if tid is None or tid not in self.tables:
            raise TableError("unknown_invite", f"no open table has the invite code {code!r}")
        t = self.tables[tid]
        async with self.seating:
            cur = self._current(user_id)
            if cur is not None:
                if cur[0] is t:
                    return cur
                raise TableError("already_seated", f"you already sit at table {cur[0].id}: leave it first")
            user = await self._fresh_user(user_id)
            async with t.lock:
                if t.running:
                    raise TableError("deal_running", "a deal is running at this table; join between deals")
                return t, await t.sit(user)

    async def leave(self, user_id: int, table_id: str, origin: Connection | None = None, ref: Any = None) -> str:
        t = self.table(table_id)
        async with t.lock:
            return await t.leave(user_id, origin, ref)

    def announce_seat(self, user_id: int, table: Table, seat: int, origin: Connection | None, ref: Any) -> None:
        """Tell every connection of the user where they now sit, with a full snapshot."""
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
    async def connect(self, conn: Connection) -> None:
        uid = conn.user.id
        self.conns.setdefault(uid, set()).add(conn)
        cur = self._current(uid)
        conn.send(
            {
                "type": "welcome",
                "protocol": 1,
                "user": conn.user.public(),
                "table": cur[0].id if cur else None,
            }
        )
        if cur is not None:
            t, _seat = cur
            async with t.lock:
                await t.user_connected(uid)
                conn.send(t.snapshot(t.seat_of(uid)))

    async def disconnect(self, conn: Connection) -> None:
        uid = conn.user.id
        conns = self.conns.get(uid)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.conns[uid]
        for tid in list(conn.spectating):
            t = self.tables.get(tid)
            if t is not None:
                t.spectators.discard(conn)
        conn.spectating.clear()
        if not self.conns_of(uid):
            cur = self._current(uid)
            if cur is not None:
                t = cur[0]
                async with t.lock:
                    await t.user_disconnected(uid)

    async def spectate(self, conn: Connection, table_id: str, invite: str | None, ref: Any) -> None:
        t = self.table(table_id)
        if t.seat_of(conn.user.id) is not None:
            raise TableError("seated_here", "you sit at this table: you already see it as a player")
        if t.info.private and (invite or "").strip().upper() != t.info.invite_code:
            raise TableError("private_table", "this table is private: spectating needs its invite code")
        async with t.lock:
            t.spectators.add(conn)
            conn.spectating.add(t.id)
            conn.send(t.snapshot(None, ref))

    def unspectate(self, conn: Connection, table_id: str) -> None:
        t = self.tables.get(table_id)
        if t is not None:
            t.spectators.discard(conn)
        conn.spectating.discard(table_id)

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
        }


def _percentiles(xs: Any) -> dict[str, float | None]:
    """p50, p99 and max of durations in seconds, in milliseconds."""
    v = sorted(xs)
    if not v:
        return {"p50": None, "p99": None, "max": None}
    return {"p50": round(1000 * v[len(v) // 2], 2), "p99": round(1000 * v[int(len(v) * 0.99)], 2),
            "max": round(1000 * v[-1], 2)}
