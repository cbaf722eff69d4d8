"""One table's runtime: seats, the match and its running deal, clocks, bots, auto-play, journal, settlement.

A table talks to its game only through :class:`~qipai.core.game.Game` and its factory, so any game plugs in
unchanged.  Several seats may have a decision open at once (a claim window): each acting seat has its own clock,
restarted whenever the game opens a new decision for it (:meth:`~qipai.core.game.Game.decision_index`).  The
host owns auto-play, timeouts and leaving and tells the game through ``timeout``/``set_autoplay``/``leave``.

Every change to a table happens under its lock.  One asyncio task per table (:meth:`Table.run`) wakes when
something is due — a bot's or auto-play's move, a seat's time running out, bots filling empty seats, the next
deal starting — and otherwise sleeps.  An accepted action is applied to the game, written to the journal
(awaited), and only then broadcast, so a restart loses nothing anybody has seen.  If the journal cannot be
written the action is taken back, the player is told, and the table waits (no bot moves, no timeouts) until
the database answers again.

A table plays a *match*: the game's match state (who bids first, team levels, the dealer…) is saved with each
settlement and carried into the next deal's context, across restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from qipai.core.game import (
    AUTOPLAY_OFF,
    AUTOPLAY_ON,
    LEAVE,
    TIMEOUT,
    Assist,
    Game,
    GameFactory,
    IllegalAction,
    apply_step,
    is_host_event,
)
from qipai.host.events import (
    DEAL_SETTLED,
    DEAL_STARTED,
    MATCH_OVER,
    SEAT_LEFT,
    DealSettled,
    DealStarted,
    MatchOver,
    SeatLeft,
    SeatRef,
)
from qipai.host.jsonenc import dumps
from qipai.host.limits import Bucket
from qipai.host.series import final_summary
from qipai.store import FencedOut, JournalRow, SettleRow, StoreFull, TableInfo, UserInfo

if TYPE_CHECKING:
    from qipai.host.lobby import Lobby
    from qipai.host.settings import Bot

log = logging.getLogger("qipai.host.table")

PHRASES = (
    "hurry", "nice_play", "sorry", "again", "thanks", "bye", "wait", "good_luck", "well_played", "oops",
    "emote:smile", "emote:cry", "emote:angry", "emote:thumbs_up", "emote:flower", "emote:shock",
)
"""Quick-chat phrases (快捷语) and emotes a player may send; clients word them (no free text to moderate)."""


class Conn(Protocol):
    """What the host needs of a client connection (the server's WebSocket connection is one): who it is, the
    session it was opened with, whether it controls the user's seat (the newest window does), when it opened."""

    user: UserInfo
    spectating: set[str]
    token_hash: str
    active: bool
    opened: float

    def send(self, msg: dict[str, Any]) -> None: ...

    def send_body(self, body: str) -> None: ...

    def close(self) -> None: ...


TAKEOVER_GRACE = 10.0
"""Seconds an open decision's clock keeps at least when its table is restored or taken over mid-deal: its clock
goes on from the last action, but its player was cut off meanwhile and must reconnect first."""


MAX_AUTOPLAY_ONS = 50
"""How many times a seat may turn auto-play on in one deal (by asking for it; time-outs and disconnections count
too).  Turning it off is never refused.  Each change is a journal row: without a bound, a player toggling it
twice a second wrote rows for as long as he liked."""


class TableError(Exception):
    """A request the table refuses; ``code`` names the error for clients, ``params`` fill its wording."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


_TRANSIENT_SQLSTATES = ("08", "53", "57", "58")
"""SQLSTATE classes that pass by themselves: connection exceptions, insufficient resources (disk full),
operator intervention (shutdown, cannot connect now), system errors."""


def transient(e: BaseException) -> bool:
    """Whether a storage error may go away by itself: the connection is gone or refused, the database is locked,
    full or shutting down (SQLite's operational errors; PostgreSQL's connection, resource and operator SQLSTATEs,
    and a database that is not accepting connections)."""
    seen: set[int] = set()
    x: BaseException | None = e
    while x is not None and id(x) not in seen:
        seen.add(id(x))
        if isinstance(x, OperationalError | InterfaceError | TimeoutError | ConnectionError | OSError):
            return True
        if isinstance(x, DBAPIError) and x.connection_invalidated:
            return True
        state = getattr(x, "sqlstate", None) or getattr(x, "pgcode", None)
        if isinstance(state, str) and (state[:2] in _TRANSIENT_SQLSTATES or state in ("55000", "55P03")):
            return True
        nxt = getattr(x, "orig", None)
        x = nxt if isinstance(nxt, BaseException) else (x.__cause__ or x.__context__)
    return False


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
    """The seat's points in this game (its table points, for minimisation)."""
    account_id: int | None = None
    """The account the seat's points land on: the user, or the bot's account."""

    @property
    def human(self) -> bool:
        return self.user_id is not None


@dataclass
class Deadline:
    at: float
    what: str
    seat: int | None = None


@dataclass
class TableStats:
    actions: int = 0
    deals: int = 0
    journal_wait: list[float] = field(default_factory=list)


class Table:
    """A table with its seats, its match and (between ``start_deal`` and settlement) one running game."""

    def __init__(
        self,
        lobby: Lobby,
        info: TableInfo,
        factory: GameFactory,
        players: int,
        *,
        fill_bots_after: float | None,
        tags: dict[str, Any] | None = None,
    ) -> None:
        self.lobby = lobby
        self.settings = lobby.settings
        self.info = info
        self.factory = factory
        self.players = players
        self.seats: list[SeatState | None] = [None] * players
        self.spectators: set[Conn] = set()
        self.game: Game | None = None
        self.deal_id: int | None = None
        self.deal_seed = 0
        self.deal_context: dict[str, Any] = {}
        self.steps: list[tuple[int, str]] = []
        """This deal's journal as applied (to rebuild the game when a journal write fails)."""
        self.deal_index = 0
        self.version = 0
        self.clocks: dict[int, tuple[int, float]] = {}
        """Each acting seat's ``(decision_index, started)``."""
        self.clock_given: dict[int, int] = {}
        """Each seat's decision whose clock taking control back (auto-play off, a reconnection) started again: once
        a decision, or a player turning auto-play on and off would stall the table for ever."""
        self.fill_bots_after = fill_bots_after
        self.fill_at: float | None = None
        self.start_at = 0.0
        self.results: list[dict[str, Any]] = []
        self.present: set[int] = set()
        """Seats whose player made an action of their own in the running deal (a match's ``forfeit_absent``)."""
        self.last_result: dict[str, Any] | None = None
        self.match_points: list[int] | None = None
        """A match table: each seat's match points (比赛积分, RULES-matches.md §4) — what the director gave as the
        table points of the deal in play, plus its scores once settled — which its seats show instead of the
        players' platform points; ``None`` until the director gives them, and at every other table."""
        self.match: dict[str, Any] = dict(info.match_state) if info.match_state else factory.match_start(info.options)
        """The match state between deals, from the factory, saved with each settlement."""
        self.ready: dict[int, bool] | None = None
        """准备 between deals: each seat's state (``None``: no ready step pending, e.g. before the first deal)."""
        self.ready_until = 0.0
        self._assist: tuple[tuple[int, int, int], list[str] | None, str | None] | None = None
        self.chat_buckets: dict[int, Bucket] = {}
        self.tags: dict[str, Any] = dict(tags if tags is not None else (info.tags or {}))
        """What the table belongs to (a tournament), carried on its events."""
        self.lease_token: int | None = None
        """The fencing token of this node's claim on the table (several nodes; ``None`` alone)."""
        self.closed = False
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.stats = TableStats()
        self._shared_json: tuple[Any, str] | None = None
        self._last_sent: dict[int | None, tuple[str, str, float | None]] = {}
        """What each seat (``None``: the spectators) was last sent as its state (:meth:`_changed_for`)."""
        self.views: dict[int | None, int] = {}
        """The version of each seat's view of the deal (``None``: the spectators'), :meth:`_versioned`."""
        self.view_base = 0
        """Where every view's version starts: 0 at a deal's start; past any version given out before, when a
        deal is restored."""
        self._view_key: dict[int | None, str] = {}
        self._view_advice: dict[int | None, str] = {}
        """Each viewer's advice in the state last made for it (hints, the forced move): news, but no new view."""
        self._view_at: dict[tuple[int | None, int], int] = {}
        """``(viewer, view version)`` → the table's version (its steps) when that view was shown."""
        self.unattended = 0
        """Bot and auto-play decisions in a row, in this deal, while no human at the table is connected (the
        answers to one joint decision, such as a Shengji declaration window, count once)."""
        self._unattended_key: tuple[int | None, int] | None = None
        self._deserted_at: float | None = None
        """Since when nobody has watched this table between deals (:meth:`_deserted`)."""

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

    def left_match(self, seat: int) -> bool:
        """Whether the seat's player left a match that keeps the seat (RULES-matches §6.2, Shengji §9.3): the
        seat plays in auto-play to the match's end and its player no longer acts, sees or is told anything
        of it."""
        s = self.seats[seat]
        return s is not None and s.leaving and (self.managed or self.holds_seats())

    def player_seat(self, user_id: int) -> int | None:
        """The seat the user plays at this table: ``None`` when none, or when the user left it for the rest
        of a match (:meth:`left_match`)."""
        seat = self.seat_of(user_id)
        return None if seat is None or self.left_match(seat) else seat

    def _acting_seat(self, user_id: int) -> int:
        """The user's seat, for something only its player may do; a :class:`TableError` when the user has
        none or left it for the rest of the match."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated", "you have no seat at this table")
        if self.left_match(seat):
            raise TableError("left_match", "you left this match: your seat plays in auto-play to its end",
                             seat=seat)
        return seat

    def _playing_seat(self, user_id: int) -> int:
        """The user's seat, to play or set auto-play for; a :class:`TableError` also when the user left it during
        this deal (the seat goes on in auto-play until the deal ends, protocol.md §5)."""
        seat = self._acting_seat(user_id)
        s = self.seats[seat]
        if s is not None and s.leaving:
            raise TableError("leaving_table", f"you left table {self.id} during its deal: your seat plays on in "
                                              "auto-play and is freed when the deal ends", table=self.id)
        return seat

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

    def _conns(self, seat: int) -> set[Conn]:
        s = self.seats[seat]
        if s is None or s.user_id is None or self.left_match(seat):
            return set()
        conns = self.lobby.conns_of(s.user_id)
        joining = self.lobby.joining
        return conns - joining if joining else conns

    def kick(self) -> None:
        self.wake.set()

    def start(self) -> None:
        self.task = asyncio.create_task(self.run(), name=f"table-{self.id}")

    def title(self, points: int) -> str:
        return self.factory.title(points)

    def match_running(self) -> bool:
        """Whether this table's match has begun and not ended (a hand is running or was played)."""
        return self.running or self.match != self.factory.match_start(self.info.options)

    def holds_seats(self) -> bool:
        """Whether seats are held for the match now: the game binds a seat to its player for the whole match
        (:attr:`~qipai.core.game.GameInfo.match_seats`) and the match is under way."""
        return bool(self.factory.info.match_seats) and self.match_running()

    @property
    def fence(self) -> tuple[str, int] | None:
        """What every write of this table carries with several nodes: its id and this node's lease token."""
        return None if self.lease_token is None else (self.id, self.lease_token)

    @property
    def match_id(self) -> str | None:
        """The match a match table plays for (its seats show match points), else ``None``."""
        mid = self.tags.get("match_id") if self.managed else None
        return mid if isinstance(mid, str) else None

    def _match_points_from(self, table_points: Any) -> None:
        """Take a match deal's table points (one per seat: every seat of a match table is taken) as the seats'
        match points."""
        if self.managed and isinstance(table_points, list) and len(table_points) == self.players \
                and all(isinstance(x, int) and not isinstance(x, bool) for x in table_points):
            self.match_points = list(table_points)

    @property
    def managed(self) -> bool:
        """A match table: a director seats it and starts each deal (:meth:`start_managed_deal`); it never fills
        itself with bots, starts deals, asks for 准备 or closes on its own, and a player who leaves stays seated
        in auto-play for the rest of the match."""
        return bool(self.tags.get("managed"))

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
                        "points": s.points,
                        "title": self.title(s.points),
                        "match_points": None if self.match_points is None else self.match_points[i],
                    }
                )
        return {
            "id": self.id,
            "game": self.info.game,
            "room": self.info.room,
            "options": self.info.options,
            "private": self.info.private,
            "created_by": self.info.created_by,
            "for_points": self.info.for_points,
            "invite_code": self.info.invite_code if viewer is not None else None,
            "min_points": self.info.min_points,
            "players": self.players,
            "seats": seats,
            "status": "closed" if self.closed else ("playing" if self.running else "waiting"),
            "paused": not self.lobby.storage_ok,
            "ready": None if self.ready is None else [self.ready.get(i) if self.seats[i] is not None else None
                                                      for i in range(self.players)],
            "ready_deadline_ms": None if self.ready is None or self.running
            else max(0, int((self.ready_until - self.now()) * 1000)),
            "deal_index": self.deal_index,
            "deals_total": self.info.deals_total,
            "match": self.match,
            "match_id": self.match_id,
            "you": viewer,
            "results": self.results[-20:],
        }

    def seat_deadline(self, seat: int) -> float | None:
        """When ``seat``'s open decision times out (``None``: no limit, not acting, or a bot's seat)."""
        g = self.game
        if g is None or seat not in self.clocks:
            return None
        limit = g.time_limit(seat)
        if limit is None:
            return None
        return self.clocks[seat][1] + limit * self.settings.time_scale

    def deadline_at(self, viewer: int | None) -> float | None:
        """When the viewer's own decision times out, else the public actor's (``None``: no clock it sees)."""
        g = self.game
        if g is None:
            return None
        seats = [viewer] if viewer is not None and viewer in g.acting else list(g.public_acting())
        ats = [a for a in (self.seat_deadline(s) for s in seats) if a is not None]
        return min(ats) if ats else None

    def deadline_ms(self, viewer: int | None) -> int | None:
        """Milliseconds left for the viewer's own decision, else for the public actor's."""
        at = self.deadline_at(viewer)
        return None if at is None else max(0, int((at - self.now()) * 1000))

    def state_view(self, seat: int | None) -> dict[str, Any] | None:
        view = self._state_head(seat)
        if view is not None:
            obs_text = self._observation_text(seat)
            self._versioned(seat, view, obs_text)
            view["observation"] = json.loads(obs_text)
        return view

    def _reset_views(self, base: int) -> None:
        self.view_base = base
        self.views = {}
        self._view_key = {}
        self._view_advice = {}
        self._view_at = {}

    _NOT_NEWS = frozenset(("version", "deadline_ms", "forced_in_ms", "hints", "forced"))

    def _versioned(self, seat: int | None, head: dict[str, Any], obs_text: str) -> None:
        """Put the version of ``seat``'s view (``None``: the spectators') into ``head``: it goes up by one
        whenever what that viewer sees changes, and only then.  Not the table's version (its steps): an answer
        in a joint decision that the others do not see (a mahjong claim passed) would show them, by the step it
        adds, that somebody else could claim (protocol.md §3).  Advice (hints, the forced move) and the clocks
        are not news; so every new version has a step of its own, and a restored deal's views start past any
        version given out before (``view_base``)."""
        key = dumps({k: v for k, v in head.items() if k not in self._NOT_NEWS}) + obs_text
        self._view_advice[seat] = dumps((head.get("hints"), head.get("forced")))
        last = self._view_key.get(seat)
        v = self.views.get(seat, self.view_base)
        if last != key:
            if last is not None:
                v += 1
            self._view_key[seat] = key
            self.views[seat] = v
            self._view_at[(seat, v)] = self.version
        head["version"] = v

    def _observation_text(self, seat: int | None) -> str:
        """``seat``'s observation as JSON text.  Games that split their observation (``observe_parts``,
        :class:`~qipai.core.game.SplitObservation`) have the shared part encoded once per version and spliced
        into every seat's."""
        g = self.game
        assert g is not None
        parts = getattr(g, "observe_parts", None)
        if parts is None:
            return dumps(g.observe(seat))
        shared, own = parts(seat)
        cached = self._shared_json
        if cached is None or cached[0] is not shared:
            cached = self._shared_json = (shared, dumps(shared))
        shared_text = cached[1]
        own_text = dumps(own)
        if shared_text == "{}":
            return own_text
        if own_text == "{}":
            return shared_text
        return own_text[:-1] + "," + shared_text[1:]

    def _state_head(self, seat: int | None) -> dict[str, Any] | None:
        """A ``state`` message without its observation."""
        g = self.game
        if g is None or self.deal_id is None:
            return None
        acting = g.public_acting()
        left = seat is not None and (s := self.seats[seat]) is not None and s.leaving  # plays on in auto-play
        mine = seat is not None and seat in g.acting and not left
        hints, forced = self.assist(seat) if mine and seat is not None else (None, None)
        forced_at = self.forced_at(seat) if forced is not None and seat is not None else None
        return {
            "table": self.id,
            "deal": self.deal_id,
            "version": self.views.get(seat, self.view_base),  # the view's (_versioned), not the table's
            "phase": g.phase,
            "to_act": acting[0] if len(acting) == 1 else None,
            "acting": list(acting),
            "you": seat,
            "your_turn": mine,
            "decision": g.decision_index(seat) if mine and seat is not None else None,
            "deadline_ms": self.deadline_ms(seat),
            "autoplay": [g.in_autoplay(i) for i in range(self.players)],
            "legal": g.legal_actions(seat) if mine and seat is not None else None,
            "hints": hints,
            "forced": forced if forced_at is not None else None,
            "forced_in_ms": None if forced_at is None else max(0, int((forced_at - self.now()) * 1000)),
        }

    def assist(self, seat: int) -> tuple[list[str] | None, str | None]:
        """提示 and 要不起 for a human's open decision (games whose factory offers :class:`Assist`), cached per
        version."""
        g = self.game
        s = self.seats[seat]
        if g is None or s is None or not s.human or not isinstance(self.factory, Assist):
            return None, None
        key = (self.deal_id or 0, self.version, seat)
        if self._assist is None or self._assist[0] != key:
            try:
                hints: list[str] | None = self.factory.hints(g, seat)
                forced = self.factory.forced(g, seat)
            except Exception:
                log.exception("table %s: hints failed", self.id)
                hints, forced = None, None
            self._assist = (key, hints, forced)
        return self._assist[1], self._assist[2]

    def forced_at(self, seat: int) -> float | None:
        """When the host makes ``seat``'s forced move (要不起) for it, if the player wants that."""
        g = self.game
        s = self.seats[seat]
        clock = self.clocks.get(seat)
        if g is None or s is None or not s.human or clock is None or g.in_autoplay(seat):
            return None
        if not self.lobby.prefs_of(s.user_id).get("auto_pass", True):
            return None
        _, forced = self.assist(seat)
        if forced is None:
            return None
        return clock[1] + self.settings.forced_delay

    def state_body(self, seat: int | None) -> str | None:
        """The ``state`` message for ``seat`` as JSON text (``v``/``seq`` are added per connection)."""
        head = self._state_head(seat)
        if head is None:
            return None
        obs_text = self._observation_text(seat)
        self._versioned(seat, head, obs_text)
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
        """Send each seat (and the spectators) the new state, unless what it sees did not change: an answer in a
        joint decision that leaves it open (a mahjong claim window, a Shengji declaration window) changes only
        the answering seat's view, and a new version sent to the others told them that somebody had answered
        and somebody still could (that a seat held a pair of the discard).  They answer the same decision as
        before (``decision``); the next change reaches everyone."""
        for seat in range(self.players):
            conns = self._conns(seat)
            if conns:
                body = self.state_body(seat)
                if body is not None and self._changed_for(seat):
                    for c in conns:
                        c.send_body(body)
        if self.spectators:
            body = self.state_body(None)
            if body is not None and self._changed_for(None):
                for c in list(self.spectators):
                    c.send_body(body)

    def _changed_for(self, seat: int | None) -> bool:
        """Whether the state just made for ``seat`` (:meth:`state_body`) shows it anything the last one sent did
        not: its view (:meth:`_versioned`'s key), its advice (hints, the forced move) and its deadline; the
        version and the times left are no news."""
        seen = (self._view_key[seat], self._view_advice[seat], self.deadline_at(seat))
        if self._last_sent.get(seat) == seen:
            return False
        self._last_sent[seat] = seen
        return True

    def broadcast_table(self) -> None:
        self.lobby.advertise_soon(self)
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

    def broadcast(self, msg: dict[str, Any], skip: Collection[int] = ()) -> None:
        """``msg`` to every seat's connections and every spectator, save the users in ``skip``."""
        body = dumps(msg)
        for seat in range(self.players):
            for c in self._conns(seat):
                if c.user.id not in skip:
                    c.send_body(body)
        for c in list(self.spectators):
            if c.user.id not in skip:
                c.send_body(body)

    # ------------------------------------------------------------------------------------------ timing
    def _sync_clocks(self, restart: tuple[int, ...] = ()) -> None:
        """Start the clock of every seat with a new decision; keep those still thinking (``restart``: these
        seats took control back, and their open decision's clock starts again, once a decision)."""
        g = self.game
        if g is None or g.is_over:
            self.clocks = {}
            return
        now = self.now()
        clocks: dict[int, tuple[int, float]] = {}
        for seat in g.acting:
            di = g.decision_index(seat)
            old = self.clocks.get(seat)
            if old is None or old[0] != di:
                clocks[seat] = (di, now)
            elif seat in restart and self.clock_given.get(seat) != di:
                self.clock_given[seat] = di
                clocks[seat] = (di, now)
            else:
                clocks[seat] = old
        self.clocks = clocks

    def restart_clocks(self) -> None:
        """Every acting seat's time starts again now (after the table was paused)."""
        self.clocks = {}
        self._sync_clocks()

    def watched(self) -> bool:
        """Whether anyone follows this table now: a spectator, or a seated player with a connection."""
        if self.spectators:
            return True
        return any(s is not None and s.user_id is not None and self.lobby.conns_of(s.user_id) for s in self.seats)

    def _delay_for(self, seat: int) -> float:
        if self.lobby.draining and not self.watched():
            # this node is handing its tables over and nobody watches this deal: bots and auto-play answer at
            # once, so the table moves in seconds instead of after minutes of paced moves
            return 0.0
        s = self.seats[seat]
        delay = self.settings.bot_delay if s is not None and s.bot is not None else self.settings.autoplay_delay
        g = self.game
        limit = g.time_limit(seat) if g is not None else None
        if limit is not None:  # a short window (a deal step) is answered within its time
            delay = min(delay, 0.5 * limit * self.settings.time_scale)
        return delay

    def deadline(self) -> Deadline | None:
        """The next moment something is due at this table, and what."""
        if self.closed or not self.lobby.storage_ok:
            return None
        g = self.game
        if g is not None:
            if g.is_over:
                return Deadline(self.now(), "settle")
            best: Deadline | None = None
            for seat in g.acting:
                s = self.seats[seat]
                clock = self.clocks.get(seat)
                if s is None or clock is None:
                    continue
                if s.bot is not None or g.in_autoplay(seat):
                    d = Deadline(clock[1] + self._delay_for(seat), "bot", seat)
                else:
                    at = self.seat_deadline(seat)
                    forced = self.forced_at(seat)
                    if forced is not None and (at is None or forced < at):
                        d = Deadline(forced, "forced", seat)
                    elif at is None:
                        continue
                    else:
                        d = Deadline(at, "timeout", seat)
                if best is None or d.at < best.at:
                    best = d
            return best
        if self.series_over():
            return Deadline(self.now(), "finish")
        if self.managed:
            return None  # the director starts deals and closes the table
        if not self.humans():
            return Deadline(self.now(), "close")
        due: Deadline | None = None
        if not self.empty_seats():
            at = self.start_at
            if self.ready is not None and not all(self.ready.get(i, False) for i in range(self.players)):
                at = max(at, self.ready_until)
            due = Deadline(at, "start")
        elif self.fill_at is not None:
            due = Deadline(self.fill_at, "fill")
        deserted = self._deserted()
        if deserted is not None and (due is None or deserted.at < due.at):
            return deserted
        return due

    def series_over(self) -> bool:
        """Whether this table was played for a set number of deals (好友房局数) and has settled them all (it closes
        with its final summary); checked between deals, so also when a restart or another node restores it."""
        total = self.info.deals_total
        return total is not None and not self.running and not self.managed and self.deal_index >= total

    def final_summary(self) -> dict[str, Any]:
        """The final summary (大结算) of the table's deals so far (:func:`~qipai.host.series.final_summary`)."""
        return final_summary(self.results, self.info.deals_total)

    def _deserted(self) -> Deadline | None:
        """When this table, between deals, closes for want of anyone: none of its seated players connected and
        no spectator for ``deserted_close`` seconds (a private table left waiting for friends who never came, a
        room whose players closed the browser before 准备).  ``None`` while anyone is here."""
        if self.watched():
            self._deserted_at = None
            return None
        if self._deserted_at is None:
            self._deserted_at = self.now()
        return Deadline(self._deserted_at + self.settings.deserted_close, "deserted")

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
            except TableError as e:
                if e.code not in ("storage_unavailable", "table_moved"):
                    log.warning("table %s: %s (%s)", self.id, e.code, e.message)
            except FencedOut:
                await self.fenced_out()
            except Exception as e:
                if transient(e):
                    self.lobby.storage_failed(e)
                else:
                    log.exception("table %s: error while running; closing it", self.id)
                    await self._fail_closed()
            await asyncio.sleep(0)

    async def _fail_closed(self) -> None:
        """An error that will not go away: end the deal unsettled and close, so nobody is stuck here."""
        with contextlib.suppress(Exception):
            await self.close("server_error", abort=True)
        self.closed = True

    async def _due(self) -> None:
        d = self.deadline()
        if d is None or d.at > self.now():
            return
        if d.what == "settle":
            await self._settle()
        elif d.what == "bot":
            assert d.seat is not None
            await self._bot_move(d.seat)
        elif d.what == "timeout":
            assert d.seat is not None
            await self._apply(d.seat, TIMEOUT)
        elif d.what == "forced":
            assert d.seat is not None
            _, forced = self.assist(d.seat)
            if forced is not None:
                await self._apply(d.seat, forced)
        elif d.what == "close":
            await self.close("empty")
        elif d.what == "finish":
            await self.close("finished", summary=self.final_summary())
        elif d.what == "deserted":
            log.info("table %s: nobody here for %.0f s between deals; closing it", self.id,
                     self.settings.deserted_close)
            await self.close("deserted")
        elif d.what == "start":
            await self._start_deal()
        elif d.what == "fill":
            await self._fill_bots()

    # ------------------------------------------------------------------------------------------ seats
    async def sit(self, user: UserInfo) -> int:
        """Seat ``user`` in the first empty seat (caller holds the lock)."""
        if self.closed:
            raise TableError("table_closed", "this table is closed")
        points = await self.lobby.points_of(user, self.info.game)
        if points < self.info.min_points:
            raise TableError(
                "not_enough_points",
                f"this table needs at least {self.info.min_points} points; you have {points}",
                need=self.info.min_points,
                have=points,
            )
        empty = self.empty_seats()
        if not empty:
            raise TableError("table_full", "this table has no free seat")
        seat = empty[0]
        self.seats[seat] = SeatState(user_id=user.id, bot=None, name=user.name, points=points, account_id=user.id)
        for c in [c for c in self.spectators if c.user.id == user.id]:  # a player sees the table as a player
            self.spectators.discard(c)
            c.spectating.discard(self.id)
        if self.ready is not None:
            self.ready[seat] = True  # sitting down is being ready
        self.lobby.seat_user(user.id, self.id)
        await self.lobby.store.set_seat(self.id, seat, user.id, None, self.fence)
        if self.fill_bots_after is not None:
            self.fill_at = self.now() + self.fill_bots_after
        if not self.empty_seats():
            self.start_at = max(self.start_at, self.now())
        self.broadcast_table()
        self.kick()
        return seat

    async def rename(self, user_id: int, name: str) -> bool:
        """The user's account took a new name (a guest saved as a registered account): its seat here shows it from
        the next table message on — sent now — as do the table's results and last settlement, and the running
        deal's stored seats (which a restart rebuilds the seat from).  Returns whether the user sits here.  The
        caller holds the lock."""
        seat = self.seat_of(user_id)
        if seat is None:
            return False
        s = self.seats[seat]
        assert s is not None
        old, s.name = s.name, name
        for r in self.results:
            players = r.get("players")
            if isinstance(players, list) and seat < len(players) and players[seat] == old:
                players[seat] = name
        if self.last_result is not None:
            for c in self.last_result.get("changes") or ():
                if c.get("seat") == seat and c.get("name") == old:
                    c["name"] = name
        if self.deal_id is not None:
            # the store renamed the deals it knew of; this one may have started meanwhile
            try:
                await self.lobby.store.rename_in_deals(user_id, name, [self.deal_id])
            except Exception:
                log.warning("table %s: could not write the new name of user %s into deal %s", self.id, user_id,
                            self.deal_id, exc_info=True)
        self.broadcast_table()
        return True

    async def vacate(self, seat: int, reason: str, origin: Conn | None = None, ref: Any = None) -> None:
        """Free a seat, telling the player's connections (``ref`` goes to ``origin``, the one that asked)."""
        s = self.seats[seat]
        if s is None:
            return
        self.seats[seat] = None
        await self.lobby.store.set_seat(self.id, seat, None, None, self.fence)
        if s.user_id is not None and self.lobby.user_table.get(s.user_id) == self.id:
            # (a player who left a match and went elsewhere is not told again)
            self.lobby.unseat_user(s.user_id, self.id)
            self._tell_left(s.user_id, reason, origin, ref)
        if self.fill_bots_after is not None and self.humans():
            self.fill_at = self.now() + self.fill_bots_after
        self.broadcast_table()
        self.kick()

    def _tell_left(self, user_id: int, reason: str, origin: Conn | None, ref: Any, *,
                   only_origin: bool = False) -> None:
        """Tell the user's connections (or ``only_origin``, the one that asked) that the user left."""
        for c in [origin] if only_origin and origin is not None else self.lobby.conns_of(user_id):
            c.send({"type": "left", "table": self.id, "reason": reason, "ref": ref if c is origin else None})

    async def leave(self, user_id: int, origin: Conn | None = None, ref: Any = None) -> str:
        """The player leaves: between deals at once; during a deal the game decides what leaving costs (an
        escape with a penalty, or auto-play to the end) and the seat is freed when the deal ends.

        Returns ``left`` or ``leaving``."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated", "you have no seat at this table")
        g = self.game
        s = self.seats[seat]
        assert s is not None
        if self.managed or self.holds_seats():
            # a match seat stays: the rest of the match is played for it in auto-play (RULES-matches §6.2; a
            # game whose seats belong to their players for the match, such as Shengji §9.3)
            if s.leaving:
                raise TableError("left_match", "you already left this match: your seat plays in auto-play to "
                                               "its end", seat=seat)
            s.leaving = True
            if g is not None and not g.is_over:
                await self._apply(seat, LEAVE)
                if not g.is_over and not g.in_autoplay(seat):
                    await self._apply(seat, AUTOPLAY_ON)
            await self._store_leaving(seat)
            self.lobby.bus.publish(SEAT_LEFT, SeatLeft(self.id, seat, user_id, dict(self.tags)))
            self._tell_left(user_id, "left_match", origin, ref)
            self.lobby.unseat_user(user_id, self.id)
            self.broadcast_table()
            return "leaving"
        if g is None:
            await self.vacate(seat, "left", origin, ref)
            return "left"
        if s.leaving:
            # asked again: the same answer, to the one who asked
            if origin is not None:
                self._tell_left(user_id, "leaving_after_deal", origin, ref, only_origin=True)
            return "leaving"
        if not g.is_over:
            await self._apply(seat, LEAVE)
        s.leaving = True
        s.auto_by_disconnect = False
        await self._store_leaving(seat)
        self._tell_left(user_id, "leaving_after_deal", origin, ref)
        self.broadcast_table()
        return "leaving"

    async def _store_leaving(self, seat: int) -> None:
        """Write down that the seat's player left, so that a restart remembers it (the leave itself stands
        when the database is away: the deal's journal holds it, and the seat is freed or kept as usual)."""
        s = self.seats[seat]
        assert s is not None
        try:
            await self.lobby.store.set_seat(self.id, seat, s.user_id, s.bot, self.fence, leaving=True)
        except FencedOut:
            await self.fenced_out()
        except Exception as e:
            if not transient(e):
                raise
            self.lobby.storage_failed(e)

    async def _fill_bots(self) -> None:
        for seat in self.empty_seats():
            name = self.info.seat_bot
            account = await self.lobby.bot_account(name)
            points = self.settings.bot_points
            self.seats[seat] = SeatState(
                user_id=None,
                bot=name,
                name=self.lobby.bot_display_name(name, seat),
                points=points,
                account_id=account,
            )
            await self.lobby.store.set_seat(self.id, seat, None, name, self.fence)
            if self.ready is not None:
                self.ready[seat] = True
        self.fill_at = None
        self.start_at = max(self.start_at, self.now())
        self.broadcast_table()

    async def fill_bots_now(self, user_id: int) -> None:
        if self.info.created_by != user_id:
            raise TableError("not_allowed", "only the table's creator can call in bots")
        if self.seat_of(user_id) is None:  # he left: the table is the others' now
            raise TableError("not_seated", "you left this table: only its players call in bots")
        if self.running:
            raise TableError("deal_running", "a deal is running")
        await self._fill_bots()
        self.kick()

    async def set_ready(self, user_id: int) -> None:
        """准备: the player is ready for the next deal."""
        seat = self._acting_seat(user_id)
        if self.running:
            raise TableError("deal_running", "a deal is running")
        if self.ready is not None and not self.ready.get(seat):
            self.ready[seat] = True
            # kept for the node that brings the table back after a restart or a takeover (the ready counts here
            # even when the database cannot keep it now)
            try:
                await self.lobby.store.set_ready(self.id, seat, self.fence)
            except (DBAPIError, InterfaceError, OperationalError, OSError) as e:
                log.warning("table %s: could not store seat %d's ready: %s", self.id, seat, e)
        self.broadcast_table()
        self.kick()

    async def chat(self, user_id: int, phrase: str, muted_by: Callable[[], Awaitable[Collection[int]]] | None = None,
                   ) -> None:
        """A quick-chat phrase or emote from a seated player, shown to the table and its spectators, save the
        users ``muted_by()`` names once the phrase and the rate are checked (those who blocked the sender: 拉黑
        mutes his chat)."""
        seat = self._acting_seat(user_id)
        if phrase not in PHRASES:
            raise TableError("unknown_phrase", f"no phrase {phrase[:40]!r}: see the protocol's phrase list",
                             phrase=phrase[:40])
        bucket = self.chat_buckets.get(user_id)
        if bucket is None:
            bucket = self.chat_buckets[user_id] = Bucket(self.settings.chat_rate, self.settings.chat_burst)
        if not bucket.take():
            raise TableError("chat_rate_limited", "too many messages: wait a moment")
        skip = await muted_by() if muted_by is not None else ()
        self.broadcast({"type": "chat", "table": self.id, "seat": seat, "phrase": phrase}, skip=skip)

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
                await self._apply(seat, AUTOPLAY_OFF, restart=True)
        self.broadcast_table()
        self.kick()  # somebody is back: a deserted table's clock stops

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
            with contextlib.suppress(TableError):
                await self._apply(seat, AUTOPLAY_ON)
        self.broadcast_table()
        self.kick()  # between deals, the deserted table's clock starts (:meth:`_deserted`)

    # ------------------------------------------------------------------------------------------ actions
    def _check_storage(self) -> None:
        if not self.lobby.storage_ok:
            raise TableError(
                "storage_unavailable",
                "the server cannot save moves right now; nothing was changed — try again in a moment",
            )

    async def client_action(self, user_id: int, deal: int, version: int, action: str,
                            decision: int | None = None) -> None:
        """A player's action.  It answers the table at ``deal``/``version``; in a joint decision, where others
        answer meanwhile, it may instead name the ``decision`` it answers (the state message's ``decision``)."""
        seat = self._playing_seat(user_id)
        self._check_storage()
        g = self.game
        if g is None or self.deal_id is None:
            raise TableError("no_deal", "no deal is running at this table")
        same_decision = decision is not None and seat in g.acting and decision == g.decision_index(seat)
        seen = self.views.get(seat, self.view_base)  # the version of this seat's view (_versioned)
        current = deal == self.deal_id and (version == seen or same_decision)
        if not current:
            raise TableError(
                "stale",
                f"this action answers deal {deal} version {version}, but your view is at deal {self.deal_id} "
                f"version {seen}: ask for a snapshot",
                deal=self.deal_id,
                version=seen,
            )
        if is_host_event(action):
            verb = action.split(maxsplit=1)[0].lower()
            raise TableError("bad_action", f"{verb!r} is not sent as an action: use the autoplay or leave message",
                             verb=verb)
        if seat not in g.acting:
            raise TableError("not_your_turn", f"it is not your turn (seat {seat})", seat=seat)
        try:
            await self._apply(seat, action)
        except TableError as e:
            at = self._view_at.get((seat, version))  # the table's version when the seat was shown that view
            if e.code == "illegal_action" and at != self.version and (
                    at is None or not self._illegal_at(at, seat, action)):
                # a joint decision answered on a view that others' answers have changed since (an overcall
                # overtaken by a higher one): the action is out of date, not the player's mistake
                raise TableError(
                    "stale",
                    f"others answered meanwhile ({e.message}): ask for a snapshot",
                    deal=self.deal_id,
                    version=self.views.get(seat, self.view_base),
                ) from None
            raise
        self.present.add(seat)

    async def check_action(self, user_id: int, action: str) -> str | None:
        """Why ``action`` would be refused for the user's seat now (``None``: it would be accepted)."""
        seat = self._acting_seat(user_id)
        g = self.game
        if g is None:
            raise TableError("no_deal", "no deal is running at this table")
        if is_host_event(action):
            return "not an action: use the autoplay or leave message"
        return g.check(action, seat)

    async def set_autoplay(self, user_id: int, on: bool) -> None:
        seat = self._playing_seat(user_id)
        g = self.game
        if g is None:
            raise TableError("no_deal", "no deal is running at this table")
        s = self.seats[seat]
        assert s is not None
        s.auto_by_disconnect = False
        if g.in_autoplay(seat) == on:
            raise TableError("no_change", f"auto-play is already {'on' if on else 'off'}", on=on)
        if on and sum(1 for who, text in self.steps if who == seat and text == AUTOPLAY_ON) >= MAX_AUTOPLAY_ONS:
            raise TableError("autoplay_limit", f"auto-play was turned on {MAX_AUTOPLAY_ONS} times in this deal: "
                             "it can be turned on again in the next deal", limit=MAX_AUTOPLAY_ONS)
        await self._apply(seat, AUTOPLAY_ON if on else AUTOPLAY_OFF, restart=not on)
        if not on:
            self.present.add(seat)  # taking the seat back is an action of one's own

    def _illegal_at(self, version: int, seat: int, action: str) -> bool:
        """Whether ``action`` was already illegal for ``seat`` at ``version`` of this deal, the view it answered
        (then it is the player's mistake, not an answer that others' answers made out of date)."""
        if not 0 <= version < len(self.steps):
            return False
        g = self._rebuild(version)
        try:
            apply_step(g, seat, action)
        except IllegalAction:
            return True
        return False

    def _rebuild(self, upto: int | None = None) -> Game:
        """The deal's game from its seed, context and the steps applied so far (the first ``upto`` of them)."""
        g = self.factory.new(self.info.options, self.deal_seed, self.deal_context)
        for seat, text in self.steps[:upto]:
            apply_step(g, seat, text)
        return g

    async def _apply(self, seat: int, text: str, *, restart: bool = False) -> None:
        """Apply (an action or a host event), journal, then broadcast.  ``IllegalAction`` leaves everything
        untouched; so does a journal write that fails (the game is rebuilt without the step)."""
        g = self.game
        if g is None or self.deal_id is None:
            raise TableError("no_deal", "no deal is running at this table")
        self._check_storage()
        try:
            apply_step(g, seat, text)
        except IllegalAction as e:
            raise TableError("illegal_action", str(e), reason=str(e), rule=e.rule) from None
        self.version += 1
        self.steps.append((seat, text))
        await self._journal_and_broadcast(1, (seat,) if restart else ())

    async def _journal_and_broadcast(self, n: int, restart: tuple[int, ...] = ()) -> None:
        """Journal the last ``n`` applied steps (in one commit), then broadcast.  If the journal cannot be
        written they are taken back: the game is rebuilt without them."""
        assert self.deal_id is not None
        first = self.version - n + 1
        rows = [JournalRow(self.deal_id, first + i, seat, text, self.fence)
                for i, (seat, text) in enumerate(self.steps[-n:])]
        t0 = time.perf_counter()
        done = await asyncio.gather(*(self.lobby.journal.write(r) for r in rows), return_exceptions=True)
        failed = next((e for e in done if isinstance(e, BaseException)), None)
        if isinstance(failed, FencedOut):
            del self.steps[-n:]
            self.version -= n
            await self.fenced_out()
            raise TableError("table_moved", "this table is now run by another server: reconnect",
                             table=self.id) from None
        if failed is not None:
            del self.steps[-n:]
            self.version -= n
            self.game = self._rebuild()
            self._shared_json = None
            log.error("table %s: journal write failed (%s); the move was taken back", self.id, failed)
            if transient(failed):
                self.lobby.storage_failed(failed)
            self._check_storage()
            raise TableError("storage_unavailable", "the server could not save this move; nothing was changed") \
                from None
        self.stats.journal_wait.append(time.perf_counter() - t0)
        if len(self.stats.journal_wait) > 1000:
            del self.stats.journal_wait[:500]
        self.stats.actions += n
        self._sync_clocks(restart)
        self.broadcast_state()
        self.kick()

    def _bot_due(self, seat: int) -> bool:
        """Whether ``seat`` is a bot's or in auto-play and its move is due now."""
        g = self.game
        s = self.seats[seat]
        clock = self.clocks.get(seat)
        if g is None or s is None or clock is None or not (s.bot is not None or g.in_autoplay(seat)):
            return False
        return clock[1] + self._delay_for(seat) <= self.now()

    async def _bot_choice(self, seat: int) -> str | None:
        """What the seat's bot (or its auto-play bot) plays now; ``None`` if it failed or ran out of time."""
        g = self.game
        s = self.seats[seat]
        assert g is not None and s is not None
        name = s.bot if s.bot is not None else self.info.autoplay_bot
        if s.bot_obj is None or s.bot_name != name:
            s.bot_obj = self.lobby.bot(self.info.game, name, s.bot_seed)
            s.bot_name = name
        try:
            return await self.lobby.think(self.info.game, name, s.bot_obj, s.bot_seed, g.observe(seat),
                                          g.legal_actions(seat))
        except TimeoutError:
            log.warning("table %s: bot %s over its %.1f s budget", self.id, name, self.settings.bot_budget)
        except Exception:
            log.exception("table %s: bot %s failed", self.id, name)
        return None

    async def _bot_move(self, seat: int) -> None:
        """The bot's move for ``seat``; in a joint decision, the moves of every other bot seat that fall due now
        too, each chosen on the state the previous ones left, journaled in one commit and broadcast once (a
        Shengji deal window answered by three bots costs one write, not three)."""
        g = self.game
        assert g is not None and seat in g.acting
        if self.managed or any(self.connected(i) for i in self.humans()):
            self.unattended = 0  # a match table plays on to its end, whoever is connected
        else:
            key = (self.deal_id, g.decision_index(seat))
            if key != self._unattended_key:
                self._unattended_key = key
                self.unattended += 1
            if self.unattended > self.settings.unattended_actions:
                log.info("table %s: %d actions with nobody connected; abandoning the deal", self.id, self.unattended)
                await self.close("abandoned", abort=True)
                return
        seats = [seat]
        if len(g.acting) > 1:
            seats += [x for x in g.acting if x != seat and self._bot_due(x)]
        self._check_storage()
        applied = 0
        dix = g.decision_index(seat)
        for x in seats:
            if self.game is not g or x not in g.acting or (applied and g.decision_index(x) != dix):
                break  # the deal moved on (while a bot thought, or the joint decision closed)
            action = await self._bot_choice(x)
            if self.game is not g or x not in g.acting:
                break
            if action is not None:
                try:
                    apply_step(g, x, action)
                except IllegalAction as e:
                    sx = self.seats[x]
                    log.warning("table %s: bot %s chose an illegal action %r: %s", self.id,
                                sx.bot_name if sx is not None else None, action, e)
                    action = None
            if action is None:
                action = TIMEOUT
                try:
                    apply_step(g, x, action)
                except IllegalAction as e:
                    if applied:
                        break
                    raise TableError("illegal_action", str(e), reason=str(e)) from None
            self.version += 1
            self.steps.append((x, action))
            applied += 1
            if action == TIMEOUT:
                break  # a timeout may close the whole decision
        if applied:
            await self._journal_and_broadcast(applied)

    # ------------------------------------------------------------------------------------------ deals
    async def _start_deal(self) -> None:
        ids = [s.user_id for s in self.seats if s is not None and s.user_id is not None]
        users = await self.lobby.store.users(ids)
        points = await self.lobby.points_many([u for u in users.values()], self.info.game)
        # a match that binds seats keeps those who left or dropped, in auto-play, while somebody still plays
        hold = self.holds_seats() and any(
            s is not None and s.user_id is not None and not s.leaving and self.lobby.conns_of(s.user_id)
            for s in self.seats)
        absent: list[int] = []
        for i, s in enumerate(self.seats):
            if s is None or s.user_id is None:
                continue
            u = users.get(s.user_id)
            if u is None:
                await self.vacate(i, "account_gone")
                continue
            s.points = points.get(u.id, 0)
            gone = not self.lobby.conns_of(s.user_id) and (s.auto_by_disconnect or self.deal_index > 0)
            if hold and (s.leaving or gone):
                absent.append(i)
            elif s.leaving:
                await self.vacate(i, "left")
            elif gone:
                await self.vacate(i, "disconnected")
            elif s.points < self.info.min_points:
                await self.vacate(i, "not_enough_points")
        if self.empty_seats() or not self.humans():
            return
        context: dict[str, Any] = {"deal_index": self.deal_index}
        context.update(self.factory.deal_context(self.info.options, self.match))
        context["table_points"] = [s.points for s in self.seats if s is not None]
        await self._begin_deal(secrets.randbits(62), context)
        for i in absent:
            s = self.seats[i]
            assert s is not None
            s.auto_by_disconnect = not s.leaving
            await self._apply(i, AUTOPLAY_ON)

    async def _begin_deal(self, seed: int, context: dict[str, Any]) -> None:
        seats = [s for s in self.seats if s is not None]
        game = self.factory.new(self.info.options, seed, context)
        seat_rows = [{"user_id": s.user_id, "bot": s.bot, "name": s.name} for s in seats]
        self.deal_id = await self.lobby.store.start_deal(
            self.id, self.deal_index, self.info.game, self.info.options, seed, context, seat_rows, self.fence
        )
        self.game = game
        self.deal_seed = seed
        self.deal_context = context
        self.steps = []
        self.present = set()
        self.version = 0
        self.clocks = {}
        self.clock_given = {}
        self._reset_views(0)
        self.ready = None
        self._sync_clocks()
        hold = self.managed or self.holds_seats()
        for s in seats:
            s.auto_by_disconnect = False
            if not hold:
                s.leaving = False
        self.unattended = 0
        self._deserted_at = None
        self.stats.deals += 1
        self.broadcast_table()
        self.broadcast_state()
        self.lobby.bus.publish(DEAL_STARTED, DealStarted(self.id, self.deal_id, self.info.game, self.seat_refs(),
                                                         dict(self.tags)))

    async def start_managed_deal(self, seed: int, context: dict[str, Any] | None = None,
                                 table_points: list[int] | None = None) -> int:
        """Start a match table's next deal exactly as its director says: the seed, context entries (the base,
        a dealer) and each seat's match points as the table points.  Seats whose player is not connected (or
        left the match) play it in auto-play.  Returns the deal id.  The caller holds the lock."""
        if not self.managed:
            raise TableError("not_allowed", "only a match table's director starts its deals")
        if self.running:
            raise TableError("deal_running", "a deal is running")
        if self.empty_seats():
            raise TableError("table_full", "a match table starts a deal only with every seat taken")
        ctx: dict[str, Any] = {"deal_index": self.deal_index}
        ctx.update(self.factory.deal_context(self.info.options, self.match))
        ctx.update(context or {})
        seats = [s for s in self.seats if s is not None]
        ctx["table_points"] = list(table_points) if table_points is not None else [s.points for s in seats]
        if table_points is not None:
            self._match_points_from(ctx["table_points"])
        await self._begin_deal(seed, ctx)
        g = self.game
        assert g is not None and self.deal_id is not None
        for i, s in enumerate(self.seats):
            if s is not None and s.human and (s.leaving or not self.lobby.conns_of(s.user_id)):
                s.auto_by_disconnect = not s.leaving
                await self._apply(i, AUTOPLAY_ON)
        self.kick()  # the table's task sleeps with nothing due until now
        return self.deal_id

    def seat_refs(self) -> list[SeatRef]:
        return [SeatRef(i, s.user_id if s.user_id is not None else s.account_id, s.bot, s.name)
                for i, s in enumerate(self.seats) if s is not None]

    def restore(self, deal_id: int, deal_index: int, seed: int, context: dict[str, Any], game: Game,
                steps: list[tuple[int, str]], *, elapsed: float = 0.0) -> None:
        """Put a deal rebuilt from the journal back on this table (at start-up, or taking it over from a node
        that died: ``elapsed`` seconds have passed since its last action, so the open decisions' clocks go on
        from there instead of starting afresh, each keeping at least :data:`TAKEOVER_GRACE` seconds)."""
        self.game = game
        self.deal_id = deal_id
        self.deal_index = deal_index
        self.deal_seed = seed
        self.deal_context = context
        self._match_points_from(context.get("table_points"))  # a match deal's: its seats' match points
        self.steps = steps
        self.version = len(steps)
        self.clocks = {}
        self.clock_given = {}
        # a restored deal's views start past every version given out before: each was a step of its own,
        # or a seat's leaving (once a seat)
        self._reset_views(self.version + self.players)
        self._sync_clocks()
        if elapsed > 0:
            # the clocks go on, but each keeps at least TAKEOVER_GRACE seconds: the seat's player was cut off
            # while no node ran the table, and must reconnect before answering
            now, scale = self.now(), self.settings.time_scale
            clocks: dict[int, tuple[int, float]] = {}
            for seat, (di, at) in self.clocks.items():
                limit = game.time_limit(seat)
                at -= elapsed
                if limit is not None:
                    span = limit * scale
                    at = max(at, now - span + min(span, TAKEOVER_GRACE * scale))
                clocks[seat] = (di, at)
            self.clocks = clocks
        # who acted before the restart is not journalled: a seat not in auto-play counts as present
        self.present = {i for i, s in enumerate(self.seats) if s is not None and s.human and not game.in_autoplay(i)}
        for i, s in enumerate(self.seats):
            if s is not None and s.human:
                # Reconnecting after a restart gives control back (RULES.md §6), unless the player had left.
                s.auto_by_disconnect = game.in_autoplay(i) and not s.leaving

    async def _settle(self) -> None:
        g = self.game
        assert g is not None and self.deal_id is not None
        outcome = g.outcome() or {}
        # what everyone is told: the outcome as the spectators' observation shows it (a game may keep part of it
        # hidden, as Shengji the cards of overcalled declarations); the full one is the record's
        seen = g.observe(None).get("outcome")
        public = seen if isinstance(seen, dict) else outcome
        record = g.record()
        scores = [int(x) for x in (outcome.get("scores") or [0] * self.players)]
        roles = outcome.get("roles") or [None] * self.players
        won = outcome.get("won") or [None] * self.players
        rows = []
        for i, s in enumerate(self.seats):
            if s is None or s.account_id is None:
                continue
            delta = scores[i] if self.info.for_points else 0
            rows.append(SettleRow(user_id=s.account_id, seat=i, delta=delta, role=roles[i], won=won[i],
                                  score=scores[i]))
        match = self.factory.match_after(self.info.options, self.match, outcome)
        match_over = bool(match.get("over"))
        saved_match = self.factory.match_start(self.info.options) if match_over else match
        try:
            points = await self.lobby.store.settle(
                self.deal_id, self.info.game, outcome, record, rows, table_id=self.id, match_state=saved_match,
                fence=self.fence,
            )
        except FencedOut:
            await self.fenced_out()
            return
        except Exception as e:
            if transient(e):
                # the database is away: the deal stays over and unsettled until it answers again
                self.lobby.storage_failed(e)
                return
            await self._settle_failed(e, outcome)
            return
        if self.match_points is not None:  # a match's points move by the deal's scores (RULES-matches.md §4)
            self.match_points = [p + scores[i] for i, p in enumerate(self.match_points)]
        changes = []
        for i, s in enumerate(self.seats):
            if s is None:
                continue
            if s.account_id is not None and s.account_id in points and s.human:
                s.points = points[s.account_id]
            changes.append(
                {
                    "seat": i,
                    "name": s.name,
                    "score": scores[i],
                    "delta": scores[i] if self.info.for_points else 0,
                    "points": s.points if s.human else None,
                    "title": self.title(s.points) if s.human else None,
                    "match_points": None if self.match_points is None else self.match_points[i],
                }
            )
        deal_id = self.deal_id
        self.results.append(
            {
                "deal": deal_id,
                "deal_index": self.deal_index,
                "scores": list(scores),
                "escaped": outcome.get("escaped"),
                "players": [s.name if s else None for s in self.seats],
                "user_ids": [s.user_id if s else None for s in self.seats],
                "absent": [i for i, s in enumerate(self.seats) if s is not None and s.human and i not in self.present],
            }
        )
        self.last_result = {"deal": deal_id, "outcome": public, "changes": changes}
        self.game = None
        self.deal_id = None
        self.clocks = {}
        self.clock_given = {}
        self._reset_views(0)
        self.deal_index += 1
        self.version = 0
        self.match = saved_match
        self.start_at = self.now() + self.settings.next_deal_delay
        self.ready_until = self.now() + max(self.settings.ready_timeout, self.settings.next_deal_delay)
        # (no 准备 after the last deal of a table played for a set number of them: it closes)
        self.ready = None if self.managed or self.series_over() else {
            i: s is not None and (not s.human or s.leaving) for i, s in enumerate(self.seats)}
        self.broadcast({"type": "deal_over", "table": self.id, "deal": deal_id, "outcome": public, "changes": changes,
                        "match": match, "match_over": match_over})
        settled = DealSettled(self.id, deal_id, self.info.game, self.info.room, self.seat_refs(), outcome, match,
                              match_over, dict(self.tags))
        self.lobby.bus.publish(DEAL_SETTLED, settled)
        if match_over:
            self.lobby.bus.publish(MATCH_OVER, MatchOver(self.id, self.info.game, match, dict(self.tags)))
        hold = self.holds_seats()  # the next hand continues the match: who left keeps the seat in auto-play
        for i, s in enumerate(self.seats):
            if s is not None and s.leaving and not self.managed and not hold:
                await self.vacate(i, "left")
        if self.fill_bots_after is not None and self.humans() and self.empty_seats():
            self.fill_at = self.now() + self.fill_bots_after
        self.broadcast_table()
        if self.series_over():
            self.kick()  # the last of its deals: the table closes with its final summary
        elif self.lobby.draining:
            self.lobby.hand_over_soon(self)  # this node is handing its tables over: now, between deals

    async def _settle_failed(self, e: BaseException, outcome: dict[str, Any]) -> None:
        """A settlement the database refused for good (a value it cannot hold): say so once, keep the deal for
        the operator as ``failed``, pay nobody, and close the table so every player is free to go."""
        kind = "too large to record" if isinstance(e, StoreFull | OverflowError) else type(e).__name__
        log.error("table %s: deal %s could not be settled (%s: %s); the table closes and nobody is paid",
                  self.id, self.deal_id, kind, e)
        if self.deal_id is not None:
            try:
                await self.lobby.store.fail_deal(self.deal_id, outcome, self.fence)
            except Exception:
                log.exception("table %s: could not mark deal %s failed", self.id, self.deal_id)
        self.broadcast({"type": "error", "code": "settlement_failed", "ref": None, "params": {"deal": self.deal_id},
                        "message": "this deal's result could not be recorded; nobody was paid and the table closes"})
        self.deal_id = None
        self.game = None
        await self.close("settlement_failed")

    # ------------------------------------------------------------------------------------------ closing
    async def fenced_out(self, why: str = "claimed by another node") -> None:
        """Another node claimed this table, or may (this one was away past its lease): stop here without writing
        anything more, and send its players and spectators to reconnect (they will find the new owner)."""
        if self.closed:
            return
        log.warning("table %s: %s; stopping here without writing", self.id, why)
        self.closed = True
        self.broadcast({"type": "moved", "table": self.id, "node": None, "url": None})
        for c in list(self.spectators):
            c.spectating.discard(self.id)
        self.spectators.clear()
        self.lobby.drop_local(self)
        self.kick()

    async def close(self, reason: str, *, abort: bool = False, summary: dict[str, Any] | None = None) -> None:
        """Close the table, telling its players and spectators (``summary``: the final summary of a table played
        for a set number of deals, sent with the ``closed`` message)."""
        if self.closed:
            return
        self.closed = True
        if abort and self.deal_id is not None:
            try:
                await self.lobby.store.abort_deal(self.deal_id, self.fence)
            except Exception:
                log.exception("table %s: could not mark deal %s aborted", self.id, self.deal_id)
        closed: dict[str, Any] = {"type": "closed", "table": self.id, "reason": reason}
        if self.tags.get("match_id"):
            closed["match"] = self.tags["match_id"]  # a match table: the client shows the match meanwhile
        if summary is not None:
            closed["summary"] = summary
        body = dumps(closed)
        for seat in range(self.players):
            for c in self._conns(seat):
                c.send_body(body)
        for c in list(self.spectators):
            c.send_body(body)
            c.spectating.discard(self.id)
        self.spectators.clear()
        for s in self.seats:
            if s is not None and s.user_id is not None:
                self.lobby.unseat_user(s.user_id, self.id)
        self.lobby.forget(self, reason)
        try:
            await self.lobby.store.close_table(self.id, self.fence)
        except Exception:
            log.exception("table %s: could not mark it closed", self.id)
        self.kick()
