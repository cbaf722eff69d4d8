"""One table's runtime: seats, the running deal, timers, bots, auto-play, journal and settlement.

A table talks to its game only through :class:`~qipai.game.TurnGame` (new game via the factory, legal actions,
apply, observe, outcome, record, time limit, auto-play flag), so any game plugs in unchanged.

Every change to a table happens under its lock.  One asyncio task per table (:meth:`Table.run`) wakes when
something is due — a bot's or auto-play's move, a turn's time running out, bots filling empty seats, the next
deal starting — and otherwise sleeps.  An accepted action is applied to the game, written to the journal
(awaited), and only then broadcast, so a restart loses nothing that anybody has seen.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from qipai.game import GameFactory, IllegalAction, TurnGame
from qipai.server.jsonenc import dumps
from qipai.store import JournalRow, SettleRow, TableInfo, UserInfo

if TYPE_CHECKING:
    from qipai.server.lobby import Lobby
    from qipai.server.settings import Bot
    from qipai.server.ws import Connection

log = logging.getLogger("qipai.server.table")

HOST_ACTIONS = ("timeout", "autoplay", "escape")
"""Action verbs the host applies itself; a client uses the ``autoplay`` and ``leave`` messages instead."""


class TableError(Exception):
    """A request the table refuses; ``code`` names the error for clients."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class SeatState:
    user_id: int | None
    bot: str | None
    name: str
    bot_obj: Bot | None = None
    """The bot playing this seat now: the seat's bot, or the auto-play bot of a human seat."""
    bot_name: str | None = None
    bot_seed: int = field(default_factory=lambda: secrets.randbits(31))
    auto_by_disconnect: bool = False
    """The seat went into auto-play because its last connection dropped: reconnecting takes it back."""
    leaving: bool = False
    """The player asked to leave during a deal: the seat is freed when the deal ends."""
    points: int = 0

    @property
    def human(self) -> bool:
        return self.user_id is not None


@dataclass
class Deadline:
    at: float
    what: str


@dataclass
class TableStats:
    actions: int = 0
    deals: int = 0
    journal_wait: list[float] = field(default_factory=list)


def role_of(outcome: dict[str, Any], seat: int, delta: int) -> tuple[str | None, bool | None]:
    """(role, won) of ``seat`` from a Dou Dizhu-style outcome (``landlord`` seat, ``winner`` side); games
    without roles give ``(None, delta > 0)``."""
    landlord = outcome.get("landlord")
    winner = outcome.get("winner")
    if not isinstance(landlord, int):
        return None, (delta > 0 if delta else None)
    role = "landlord" if seat == landlord else "farmer"
    if winner is None:
        return role, None
    return role, winner == ("landlord" if role == "landlord" else "farmers")


class Table:
    """A table with its seats and (between ``start_deal`` and settlement) one running game."""

    def __init__(
        self,
        lobby: Lobby,
        info: TableInfo,
        factory: GameFactory,
        players: int,
        *,
        fill_bots_after: float | None,
    ) -> None:
        self.lobby = lobby
        self.settings = lobby.settings
        self.info = info
        self.factory = factory
        self.players = players
        self.seats: list[SeatState | None] = [None] * players
        self.spectators: set[Connection] = set()
        self.game: TurnGame | None = None
        self.deal_id: int | None = None
        self.deal_index = 0
        self.version = 0
        self.turn_started = 0.0
        self.fill_bots_after = fill_bots_after
        self.fill_at: float | None = None
        self.start_at = 0.0
        self.results: list[dict[str, Any]] = []
        self.last_result: dict[str, Any] | None = None
        self.previous: TurnGame | None = None
        self.closed = False
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.stats = TableStats()
        self._shared_json: tuple[Any, str] | None = None
        self.unattended = 0
        """Bot and auto-play actions in a row while no human at the table is connected."""

    # ------------------------------------------------------------------------------------------ helpers
    @property
    def id(self) -> str:
        return self.info.id

    @property
    def running(self) -> bool:
        return self.game is not None

    def now(self) -> float:
        return time.monotonic()

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s is not None and s.user_id == user_id:
                return i
        return None

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is not None and s.human]

    def empty_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None]

    def connected(self, seat: int) -> bool:
        s = self.seats[seat]
        if s is None:
            return False
        if s.bot is not None:
            return True
        return bool(self.lobby.conns_of(s.user_id))

    def _conns(self, seat: int) -> set[Connection]:
        s = self.seats[seat]
        if s is None or s.user_id is None:
            return set()
        return self.lobby.conns_of(s.user_id)

    def kick(self) -> None:
        self.wake.set()

    def start(self) -> None:
        self.task = asyncio.create_task(self.run(), name=f"table-{self.id}")

    # ------------------------------------------------------------------------------------------ views
    def table_view(self, viewer: int | None) -> dict[str, Any]:
        seats: list[dict[str, Any] | None] = []
        for i, s in enumerate(self.seats):
            if s is None:
                seats.append(None)
            else:
                seats.append(
                    {
                        "seat": i,
                        "name": s.name,
                        "user_id": s.user_id,
                        "bot": s.bot,
                        "connected": self.connected(i),
                        "leaving": s.leaving,
                    }
                )
        return {
            "id": self.id,
            "game": self.info.game,
            "room": self.info.room,
            "options": self.info.options,
            "private": self.info.private,
            "invite_code": self.info.invite_code if viewer is not None else None,
            "min_points": self.info.min_points,
            "players": self.players,
            "seats": seats,
            "status": "closed" if self.closed else ("playing" if self.running else "waiting"),
            "deal_index": self.deal_index,
            "you": viewer,
            "results": self.results[-20:],
        }

    def deadline_ms(self) -> int | None:
        d = self.deadline()
        if d is None or d.what != "timeout":
            return None
        return max(0, int((d.at - self.now()) * 1000))

    def state_view(self, seat: int | None) -> dict[str, Any] | None:
        view = self._state_head(seat)
        if view is not None:
            assert self.game is not None
            view["observation"] = self.game.observe(seat)
        return view

    def _state_head(self, seat: int | None) -> dict[str, Any] | None:
        """A ``state`` message without its observation."""
        g = self.game
        if g is None or self.deal_id is None:
            return None
        to_act = g.to_act
        return {
            "table": self.id,
            "deal": self.deal_id,
            "version": self.version,
            "phase": g.phase,
            "to_act": to_act,
            "you": seat,
            "deadline_ms": self.deadline_ms(),
            "autoplay": [g.in_autoplay(i) for i in range(self.players)],
            "legal": g.legal_actions() if seat is not None and to_act == seat else None,
        }

    def state_body(self, seat: int | None) -> str | None:
        """The ``state`` message for ``seat`` as JSON text (``v``/``seq`` are added per connection).

        Games that split their observation (``observe_parts``, :class:`~qipai.game.SplitObservation`) have
        the shared part encoded once per version and spliced into every seat's message.
        """
        head = self._state_head(seat)
        if head is None:
            return None
        g = self.game
        assert g is not None
        parts = getattr(g, "observe_parts", None)
        if parts is None:
            return dumps({"type": "state", **head, "observation": g.observe(seat)})
        shared, own = parts(seat)
        cached = self._shared_json
        if cached is None or cached[0] is not shared:
            cached = self._shared_json = (shared, dumps(shared))
        shared_text = cached[1]
        own_text = dumps(own)
        if shared_text == "{}":
            obs_text = own_text
        elif own_text == "{}":
            obs_text = shared_text
        else:
            obs_text = own_text[:-1] + "," + shared_text[1:]
        return dumps({"type": "state", **head})[:-1] + ',"observation":' + obs_text + "}"

    def snapshot(self, seat: int | None, ref: Any = None) -> dict[str, Any]:
        return {
            "type": "snapshot",
            "table": self.table_view(seat),
            "state": self.state_view(seat),
            "last_result": self.last_result,
            "ref": ref,
        }

    # ------------------------------------------------------------------------------------------ broadcast
    def broadcast_state(self) -> None:
        for seat in range(self.players):
            conns = self._conns(seat)
            if conns:
                body = self.state_body(seat)
                if body is not None:
                    for c in conns:
                        c.send_body(body)
        if self.spectators:
            body = self.state_body(None)
            if body is not None:
                for c in list(self.spectators):
                    c.send_body(body)

    def broadcast_table(self) -> None:
        for seat in range(self.players):
            conns = self._conns(seat)
            if conns:
                body = dumps({"type": "table", "table": self.table_view(seat)})
                for c in conns:
                    c.send_body(body)
        if self.spectators:
            body = dumps({"type": "table", "table": self.table_view(None)})
            for c in list(self.spectators):
                c.send_body(body)

    def broadcast(self, msg: dict[str, Any]) -> None:
        body = dumps(msg)
        for seat in range(self.players):
            for c in self._conns(seat):
                c.send_body(body)
        for c in list(self.spectators):
            c.send_body(body)

    # ------------------------------------------------------------------------------------------ timing
    def _delay_for(self, seat: int) -> float:
        s = self.seats[seat]
        return self.settings.bot_delay if s is not None and s.bot is not None else self.settings.autoplay_delay

    def deadline(self) -> Deadline | None:
        """The next moment something is due at this table, and what."""
        if self.closed:
            return None
        g = self.game
        if g is not None:
            if g.is_over:
                return Deadline(self.now(), "settle")
            seat = g.to_act
            if seat is None:
                return None
            s = self.seats[seat]
            if s is None:
                return None
            if s.bot is not None or g.in_autoplay(seat):
                return Deadline(self.turn_started + self._delay_for(seat), "bot")
            limit = g.time_limit()
            if limit is None:
                return None
            return Deadline(self.turn_started + limit * self.settings.time_scale, "timeout")
        if not self.humans():
            return Deadline(self.now(), "close")
        if not self.empty_seats():
            return Deadline(self.start_at, "start")
        if self.fill_at is not None:
            return Deadline(self.fill_at, "fill")
        return None

    async def run(self) -> None:
        """The table's task: sleep until something is due, do it, repeat."""
        while not self.closed:
            d = self.deadline()
            timeout = None if d is None else max(0.0, d.at - self.now())
            if timeout is None or timeout > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), timeout)
            self.wake.clear()
            if self.closed:
                break
            try:
                async with self.lock:
                    await self._due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: error while running; retrying in 1 s", self.id)
                await asyncio.sleep(1.0)
            await asyncio.sleep(0)

    async def _due(self) -> None:
        d = self.deadline()
        if d is None or d.at > self.now():
            return
        if d.what == "settle":
            await self._settle()
        elif d.what == "bot":
            await self._bot_move()
        elif d.what == "timeout":
            g = self.game
            assert g is not None and g.to_act is not None
            await self._apply(g.to_act, "timeout", turn=True)
        elif d.what == "close":
            await self.close("empty")
        elif d.what == "start":
            await self._start_deal()
        elif d.what == "fill":
            await self._fill_bots()

    # ------------------------------------------------------------------------------------------ seats
    async def sit(self, user: UserInfo) -> int:
        """Seat ``user`` in the first empty seat (caller holds the lock)."""
        if self.closed:
            raise TableError("table_closed", "this table is closed")
        if user.points < self.info.min_points:
            raise TableError(
                "not_enough_points",
                f"this table needs at least {self.info.min_points} points; you have {user.points}",
            )
        empty = self.empty_seats()
        if not empty:
            raise TableError("table_full", "this table has no free seat")
        seat = empty[0]
        self.seats[seat] = SeatState(user_id=user.id, bot=None, name=user.name, points=user.points)
        self.lobby.user_table[user.id] = self.id
        await self.lobby.store.set_seat(self.id, seat, user.id, None)
        if self.fill_bots_after is not None:
            self.fill_at = self.now() + self.fill_bots_after
        if not self.empty_seats():
            self.start_at = max(self.start_at, self.now())
        self.broadcast_table()
        self.kick()
        return seat

    async def vacate(self, seat: int, reason: str, origin: Connection | None = None, ref: Any = None) -> None:
        """Free a seat, telling the player's connections (``ref`` goes to ``origin``, the one that asked)."""
        s = self.seats[seat]
        if s is None:
            return
        self.seats[seat] = None
        await self.lobby.store.set_seat(self.id, seat, None, None)
        if s.user_id is not None:
            if self.lobby.user_table.get(s.user_id) == self.id:
                del self.lobby.user_table[s.user_id]
            self._tell_left(s.user_id, reason, origin, ref)
        if self.fill_bots_after is not None and self.humans():
            self.fill_at = self.now() + self.fill_bots_after
        self.broadcast_table()
        self.kick()

    def _tell_left(self, user_id: int, reason: str, origin: Connection | None, ref: Any) -> None:
        for c in self.lobby.conns_of(user_id):
            c.send({"type": "left", "table": self.id, "reason": reason, "ref": ref if c is origin else None})

    async def leave(self, user_id: int, origin: Connection | None = None, ref: Any = None) -> str:
        """The player leaves: between deals at once; during a deal it is an escape (the rules decide what
        that costs: RULES.md §6) and the seat is freed when the deal ends.

        Returns ``left`` or ``leaving``."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated", "you have no seat at this table")
        g = self.game
        if g is None:
            await self.vacate(seat, "left", origin, ref)
            return "left"
        s = self.seats[seat]
        assert s is not None
        if s.leaving:
            return "leaving"
        s.leaving = True
        s.auto_by_disconnect = False
        try:
            await self._apply(seat, "escape", turn=False)
        except TableError as e:
            if e.code != "illegal_action":
                raise
        self._tell_left(user_id, "leaving_after_deal", origin, ref)
        self.broadcast_table()
        return "leaving"

    async def _fill_bots(self) -> None:
        for seat in self.empty_seats():
            name = self.info.seat_bot
            self.seats[seat] = SeatState(
                user_id=None, bot=name, name=f"{name} bot {seat + 1}", points=self.settings.bot_points
            )
            await self.lobby.store.set_seat(self.id, seat, None, name)
        self.fill_at = None
        self.start_at = max(self.start_at, self.now())
        self.broadcast_table()

    async def fill_bots_now(self, user_id: int) -> None:
        if self.info.created_by != user_id:
            raise TableError("not_allowed", "only the table's creator can call in bots")
        if self.running:
            raise TableError("deal_running", "a deal is running")
        await self._fill_bots()
        self.kick()

    # ------------------------------------------------------------------------------------------ connections
    async def user_connected(self, user_id: int) -> None:
        """A connection of a seated user opened: take back control if auto-play came from a disconnect."""
        seat = self.seat_of(user_id)
        if seat is None:
            return
        s = self.seats[seat]
        assert s is not None
        g = self.game
        if g is not None and s.auto_by_disconnect and not g.is_over:
            s.auto_by_disconnect = False
            if g.in_autoplay(seat):
                await self._apply(seat, "autoplay off", turn=False)
                if g.to_act == seat:
                    self.turn_started = self.now()
                    self.broadcast_state()
        self.broadcast_table()

    async def user_disconnected(self, user_id: int) -> None:
        """The user's last connection closed: auto-play takes over during a deal (RULES.md §6)."""
        seat = self.seat_of(user_id)
        if seat is None:
            return
        s = self.seats[seat]
        assert s is not None
        g = self.game
        if g is not None and not g.is_over and not g.in_autoplay(seat) and not self.lobby.closing:
            s.auto_by_disconnect = True
            await self._apply(seat, "autoplay on", turn=False)
        self.broadcast_table()

    # ------------------------------------------------------------------------------------------ actions
    async def client_action(self, user_id: int, deal: int, version: int, action: str) -> None:
        seat = self.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated", "you have no seat at this table")
        g = self.game
        if g is None or self.deal_id is None:
            raise TableError("no_deal", "no deal is running at this table")
        if deal != self.deal_id or version != self.version:
            raise TableError(
                "stale",
                f"this action answers deal {deal} version {version}, but the table is at deal {self.deal_id} "
                f"version {self.version}: ask for a snapshot",
            )
        verb = action.split(maxsplit=1)[0].lower() if action.strip() else ""
        if verb in HOST_ACTIONS:
            raise TableError("bad_action", f"{verb!r} is not sent as an action: use the autoplay or leave message")
        if g.to_act != seat:
            raise TableError("not_your_turn", f"it is seat {g.to_act}'s turn, not yours (seat {seat})")
        await self._apply(seat, action, turn=True)

    async def set_autoplay(self, user_id: int, on: bool) -> None:
        seat = self.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated", "you have no seat at this table")
        g = self.game
        if g is None:
            raise TableError("no_deal", "no deal is running at this table")
        s = self.seats[seat]
        assert s is not None
        s.auto_by_disconnect = False
        if g.in_autoplay(seat) == on:
            raise TableError("no_change", f"auto-play is already {'on' if on else 'off'}")
        await self._apply(seat, "autoplay on" if on else "autoplay off", turn=False)
        if not on and g.to_act == seat:
            self.turn_started = self.now()
            self.broadcast_state()

    async def _apply(self, seat: int, action: str, *, turn: bool) -> None:
        """Apply, journal, then broadcast.  ``IllegalAction`` leaves everything untouched."""
        g = self.game
        if g is None or self.deal_id is None:
            raise TableError("no_deal", "no deal is running at this table")
        try:
            g.apply(action, seat)
        except IllegalAction as e:
            raise TableError("illegal_action", str(e)) from None
        self.version += 1
        t0 = time.perf_counter()
        try:
            await self.lobby.journal.write(JournalRow(self.deal_id, self.version, seat, action))
        except Exception:
            log.exception("table %s: journal write failed; closing the table", self.id)
            await self.close("server_error", abort=True)
            raise TableError("server_error", "the server could not save this action") from None
        self.stats.journal_wait.append(time.perf_counter() - t0)
        if len(self.stats.journal_wait) > 1000:
            del self.stats.journal_wait[:500]
        self.stats.actions += 1
        if turn:
            self.turn_started = self.now()
        self.broadcast_state()
        self.kick()

    async def _bot_move(self) -> None:
        g = self.game
        assert g is not None and g.to_act is not None
        if any(self.connected(i) for i in self.humans()):
            self.unattended = 0
        else:
            self.unattended += 1
            if self.unattended > self.settings.unattended_actions:
                log.info("table %s: %d actions with nobody connected; abandoning the deal", self.id, self.unattended)
                await self.close("abandoned", abort=True)
                return
        seat = g.to_act
        s = self.seats[seat]
        assert s is not None
        name = s.bot if s.bot is not None else self.info.autoplay_bot
        if s.bot_obj is None or s.bot_name != name:
            s.bot_obj = self.lobby.bot(name, s.bot_seed)
            s.bot_name = name
        obs = g.observe(seat)
        legal = g.legal_actions()
        action: str | None = None
        try:
            action = await self.lobby.think(name, s.bot_obj, s.bot_seed, obs, legal)
        except TimeoutError:
            log.warning("table %s: bot %s over its %.1f s budget", self.id, name, self.settings.bot_budget)
        except Exception:
            log.exception("table %s: bot %s failed", self.id, name)
        if action is not None:
            try:
                await self._apply(seat, action, turn=True)
                return
            except TableError as e:
                if e.code != "illegal_action":
                    raise
                log.warning("table %s: bot %s chose an illegal action %r: %s", self.id, name, action, e)
        await self._apply(seat, "timeout", turn=True)

    # ------------------------------------------------------------------------------------------ deals
    async def _start_deal(self) -> None:
        ids = [s.user_id for s in self.seats if s is not None and s.user_id is not None]
        users = await self.lobby.store.users(ids)
        for i, s in enumerate(self.seats):
            if s is None or s.user_id is None:
                continue
            u = users.get(s.user_id)
            if u is None:
                await self.vacate(i, "account_gone")
                continue
            s.points = u.points
            if not self.lobby.conns_of(s.user_id) and (s.auto_by_disconnect or self.previous is not None):
                await self.vacate(i, "disconnected")
            elif u.points < self.info.min_points:
                await self.vacate(i, "not_enough_points")
        if self.empty_seats() or not self.humans():
            return
        seed = secrets.randbits(62)
        context: dict[str, Any] = {"deal_index": self.deal_index}
        next_context = getattr(self.factory, "next_context", None)
        if callable(next_context):
            context.update(next_context(self.info.options, self.previous))
        seats = [s for s in self.seats if s is not None]
        context["table_points"] = [s.points for s in seats]
        game = self.factory.new(self.info.options, seed, context)
        seat_rows = [{"user_id": s.user_id, "bot": s.bot, "name": s.name} for s in seats]
        self.deal_id = await self.lobby.store.start_deal(
            self.id, self.deal_index, self.info.game, self.info.options, seed, context, seat_rows
        )
        self.game = game
        self.version = 0
        self.turn_started = self.now()
        for s in seats:
            s.auto_by_disconnect = False
            s.leaving = False
        self.stats.deals += 1
        self.broadcast_table()
        self.broadcast_state()

    def restore(self, deal_id: int, deal_index: int, game: TurnGame, version: int) -> None:
        """Put a deal rebuilt from the journal back on this table (at start-up)."""
        self.game = game
        self.deal_id = deal_id
        self.deal_index = deal_index
        self.version = version
        self.turn_started = self.now()
        for i, s in enumerate(self.seats):
            if s is not None and s.human:
                # Reconnecting after a restart gives control back (RULES.md §6).
                s.auto_by_disconnect = game.in_autoplay(i)

    async def _settle(self) -> None:
        g = self.game
        assert g is not None and self.deal_id is not None
        outcome = g.outcome() or {}
        record = g.record()
        scores = outcome.get("scores") or [0] * self.players
        rows = []
        for i, s in enumerate(self.seats):
            if s is None or s.user_id is None:
                continue
            delta = int(scores[i])
            role, won = role_of(outcome, i, delta)
            rows.append(SettleRow(user_id=s.user_id, seat=i, delta=delta, role=role, won=won))
        profiles = await self.lobby.store.settle(self.deal_id, outcome, record, rows)
        changes = []
        for i, s in enumerate(self.seats):
            if s is None:
                continue
            u = profiles.get(s.user_id) if s.user_id is not None else None
            if u is not None:
                s.points = u.points
            changes.append(
                {
                    "seat": i,
                    "name": s.name,
                    "delta": int(scores[i]),
                    "points": u.points if u is not None else None,
                    "title": u.title if u is not None else None,
                }
            )
        deal_id = self.deal_id
        self.results.append(
            {
                "deal": deal_id,
                "deal_index": self.deal_index,
                "scores": list(scores),
                "players": [s.name if s else None for s in self.seats],
            }
        )
        self.last_result = {"deal": deal_id, "outcome": outcome, "changes": changes}
        self.previous = g
        self.game = None
        self.deal_id = None
        self.deal_index += 1
        self.version = 0
        self.start_at = self.now() + self.settings.next_deal_delay
        self.broadcast({"type": "deal_over", "table": self.id, "deal": deal_id, "outcome": outcome, "changes": changes})
        for i, s in enumerate(self.seats):
            if s is not None and s.leaving:
                await self.vacate(i, "left")
        if self.fill_bots_after is not None and self.humans() and self.empty_seats():
            self.fill_at = self.now() + self.fill_bots_after
        self.broadcast_table()

    # ------------------------------------------------------------------------------------------ closing
    async def close(self, reason: str, *, abort: bool = False) -> None:
        if self.closed:
            return
        self.closed = True
        if abort and self.deal_id is not None:
            try:
                await self.lobby.store.abort_deal(self.deal_id)
            except Exception:
                log.exception("table %s: could not mark deal %s aborted", self.id, self.deal_id)
        body = dumps({"type": "closed", "table": self.id, "reason": reason})
        for seat in range(self.players):
            for c in self._conns(seat):
                c.send_body(body)
        for c in list(self.spectators):
            c.send_body(body)
            c.spectating.discard(self.id)
        self.spectators.clear()
        for s in self.seats:
            if s is not None and s.user_id is not None and self.lobby.user_table.get(s.user_id) == self.id:
                del self.lobby.user_table[s.user_id]
        self.lobby.forget(self)
        try:
            await self.lobby.store.close_table(self.id)
        except Exception:
            log.exception("table %s: could not mark it closed", self.id)
        self.kick()
