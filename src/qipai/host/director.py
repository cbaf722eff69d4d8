"""The match director (比赛): runs tournaments of :mod:`qipai.tournaments` on the platform's tables.

It knows games only through :mod:`qipai.host.matchplay` (which platform game and options a match table plays)
and the table runtime's managed tables (:meth:`Lobby.open_managed_table`, :meth:`Table.start_managed_deal`).

**Every step is persisted before it takes effect.**  A step is one transition of the tournament core — a
registration, a withdrawal, a tick at :func:`~qipai.tournaments.next_wakeup`, a settled deal's report — computed
on a copy of the state and written with :meth:`Store.save_match` in one transaction together with its fees,
refunds and prizes (each by its idempotency key) and the players' records.  Only then does the director act, and
what it does is derived from the state alone (:meth:`Director.drive`): every table the state has in play is
open on the platform (found by its tags, opened if missing), and each plays exactly the deal the state expects
— started with the match's seed for it and the seats' match points as table points, or, if the table already
settled it (the result was not counted yet, e.g. the server stopped in between), reported from the table's
stored result.  Tables the state no longer has are closed.  So a restart at any moment continues the match
exactly: a settled deal is never replayed, a result is never counted twice (the core ignores a repeated one),
and nobody is left at a table that will not run.

Players who are not connected, who left, or who quit the match play in auto-play (the table's rules); seats of
bot entrants are played by the game's seat bot.  Sit-and-go pools (``Settings.matches``) keep one match of each
configured definition open for registration at all times.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from qipai.core.options import short_repr
from qipai.host.events import DEAL_SETTLED, TABLE_CLOSED, DealSettled, TableClosed
from qipai.host.jsonenc import dumps
from qipai.host.limits import RateLimiter
from qipai.host.matchplay import MatchGame, MatchGameError, check_match_game, deal_seed, match_game, table_game
from qipai.host.table import Table, TableError, transient
from qipai.store import MatchRecord, MatchRow, MoneyMove, Overdrawn, StaleMatch, UserInfo
from qipai.tournaments import (
    PRESETS,
    Definition,
    EntryError,
    Event,
    FeeCharged,
    MatchState,
    PrizePaid,
    Refund,
    StateError,
    TournamentError,
    assignment,
    cancel,
    definition_data,
    entered,
    event_data,
    in_play,
    new_match,
    next_wakeup,
    occurrence_definition,
    open_occurrences,
    parse_definition,
    prize_amounts,
    register,
    report,
    standings,
    state_from_json,
    state_to_json,
    tick,
    withdraw,
)
from qipai.tournaments.dali import level_base
from qipai.tournaments.dali import line as dali_line
from qipai.tournaments.state import clone

Report = tuple[str, int, list[int], bool, list[int]]
"""A settled deal to count: table key, deal number (1-based), each seat's score, whether the table's game ended,
the seats whose player made no action of their own in it (``forfeit_absent``)."""

USER_MESSAGE = "user_message"
"""The lobby's bus topic for a message to a user's connections on any node (:data:`qipai.host.lobby.USER_MESSAGE`)."""

if TYPE_CHECKING:
    from qipai.host.lobby import Lobby

log = logging.getLogger("qipai.host.director")

MAX_OPEN_INVITES = 5
"""A team match: how many partners one captain may have invited at once; a further invitation ends the oldest
(a partner confirming, or the captain's team registering or withdrawing, ends them all)."""

INVITES_PER_CAPTAIN = (1 / 60, 10)
"""Team invitations one player may send (a second, burst), over all matches: ten at once, then one a minute."""

NOTICE_EVENTS = ("registered", "removed", "quit_requested", "registration_closed", "prizes_fixed",
                 "match_started", "bots_added", "stage_started", "round_started", "table_formed", "eliminated",
                 "round_over", "stage_over", "level_changed", "forced_finish", "match_over", "match_cancelled")
"""Core events told to a match's players as ``match_event`` messages."""

STANDINGS_EVERY = 1.0
"""The live standings of a match are pushed at most this often (seconds): a large 打立 stage counts several deals
a second, and every push goes to every player and watcher of the match.  The last push of a match (finished or
cancelled) goes at once."""

COUNT_EVERY = 0.25
"""Settled deals are counted at most this often per match (seconds): a settlement that comes sooner after the
last write waits that long, and whatever else settles meanwhile is counted with it.  Each write of a large
match's state costs the event loop some milliseconds; a 打立 stage of 999 settles about 20 deals a second."""

STEPS: dict[str, Callable[..., tuple[MatchState, list[Event]]]] = {
    "register": register, "withdraw": withdraw, "tick": tick, "report": report, "cancel": cancel}


def player_id(user_id: int) -> str:
    """The tournament core's id of a user (entrant id and player id of a one-player entrant)."""
    return f"u{user_id}"


def bot_numbers(state: MatchState) -> dict[str, int]:
    """Each bot entrant's number (电脑1, 电脑2, …), the same at its tables, in the standings and in the browser:
    its place among the match's bots in registration order. Unique in the match and never changed, whoever
    made the bot: an operator's (entrant ``b1``, ``b2``, …) and field fitting's (``bot:1``, ``bot:2``, …) ids
    number apart and could both give 1; registration numbers are never reused, and a later bot's is larger."""
    bots = sorted((e for e in state.entrants.values() if e.bot), key=lambda e: e.reg)
    return {e.id: n for n, e in enumerate(bots, 1)}


def user_of(player: str) -> int | None:
    """The user behind a core player id (``None``: a bot)."""
    if player.startswith("u") and player[1:].isdigit():
        return int(player[1:])
    return None


@dataclass
class MatchRun:
    """A match the director drives: its state (as last written), definition and platform game."""

    id: str
    name: str
    state: MatchState
    defn: Definition
    game: MatchGame
    version: int
    source: str | None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Any] = field(default_factory=set)
    """Connections that asked for this match's standings (besides its players)."""
    names: dict[str, str] = field(default_factory=dict)
    """Each human entrant's name as shown (a team: both names)."""
    poked: bool = False
    """A settled deal (or a closed table) asked for a drive that waits for the lock: later ones need not wait."""
    standings_at: float = 0.0
    """When the standings were last pushed (monotonic seconds)."""
    standings_due: asyncio.TimerHandle | None = None
    """The push of the standings scheduled for later (they moved less than ``STANDINGS_EVERY`` after the last)."""
    committed_at: float = 0.0
    """When the state was last written (monotonic seconds)."""
    tables_opened: int = 0
    """Platform tables opened for the match by this server (a new one moves the standings: its table)."""


class Director:
    """Runs every match of this server (one node: matches are not shared between nodes yet)."""

    def __init__(self, lobby: Lobby, *, clock: Callable[[], float] = time.time) -> None:
        self.lobby = lobby
        self.store = lobby.store
        self.clock = clock
        self.runs: dict[str, MatchRun] = {}
        self.pools: list[tuple[str, dict[str, Any]]] = []
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self._unsub: list[Callable[[], None]] = []
        self._closing_tables: set[str] = set()
        self.errors: list[str] = []
        self.leases: dict[str, int] = {}
        """Several nodes: the lease token of each match this node drives (key ``match:<id>``; ``pools``: this
        node fills the sit-and-go pools and series)."""
        self._upkeep_at = 0.0
        self._renewed_at = 0.0
        self._heal_at = 0.0
        self._failing: tuple[str, float] | None = None
        """The loop's current failure (its text, when last logged): the same again is not logged each round."""
        self.hold: dict[str, int] = {}
        """Matches whose timers were running when this node loaded them (a restart, a take-over): no tick before
        this time — the timer's full length again plus ``restart_grace_s`` (RULES-matches §6.3)."""
        self.invites: dict[tuple[str, int], int] = {}
        """Team matches: ``(match, partner) → captain`` for each invitation not yet confirmed (§2.3.1), oldest
        first."""
        self.invite_limiter = RateLimiter(*INVITES_PER_CAPTAIN)
        """Team invitations per captain (:data:`INVITES_PER_CAPTAIN`)."""
        self._paying = asyncio.Lock()
        """Held from reading a registrant's balance to taking the fee: registrations for several matches at once
        (each match has its own lock) each read the same balance and overdrew it."""

    def now(self) -> int:
        return int(self.clock())

    # ------------------------------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        """Load every unfinished match, bring its tables in line with its state, and start the timer loop."""
        self.pools = parse_pools(self.lobby.settings.matches)
        self._unsub.append(self.lobby.bus.subscribe(DEAL_SETTLED, self._on_settled))
        self._unsub.append(self.lobby.bus.subscribe(TABLE_CLOSED, self._on_closed))
        if self.networked:
            self.lobby.cluster.serve("match", self._rpc)
            await self.upkeep()
        else:
            for row in await self.store.matches(["registration", "starting", "running"], limit=10_000):
                await self._load(row)
        await self.fill_pools()
        self.task = asyncio.create_task(self._loop(), name="match-director")

    @property
    def networked(self) -> bool:
        return bool(self.lobby.cluster.networked)

    async def _load(self, row: MatchRow) -> MatchRun | None:
        try:
            run = run_from_row(row)
        except Exception:
            log.exception("match %s cannot be loaded; it is left as it is", row.id)
            return None
        if self.networked and not await self.adopt_tables(run):
            return None  # a table of the match is still held elsewhere (its node's lease runs out soon): later
        await self.load_names(run)
        if run.defn.teams and run.state.phase == "registration":
            for partner, captain in (await self.store.match_invites(run.id)).items():
                self.invites[(run.id, partner)] = captain
        self.hold_timers(run)
        self.runs[run.id] = run
        async with run.lock:
            await self.drive(run)
        return run

    async def load_names(self, run: MatchRun) -> None:
        """The names of a loaded match's human entrants."""
        uids = {u for e in run.state.entrants.values() for p in e.players for u in [user_of(p)] if u is not None}
        users = await self.store.users(sorted(uids))
        for e in run.state.entrants.values():
            names = [users[u].name for p in e.players for u in [user_of(p)] if u is not None and u in users]
            if names:
                run.names[e.id] = " & ".join(names)

    def hold_timers(self, run: MatchRun) -> None:
        """A match loaded with a timer running (the gap before a round or stage, a full match's start delay):
        the timer runs its full length again, plus ``restart_grace_s`` (host option, default 60) for the
        players to come back (§6.3)."""
        st, d = run.state, run.defn
        if st.phase == "starting" and st.start_at is not None:
            length = d.entry.start_delay_s
        elif st.phase == "running" and st.wake_at is not None:
            length = d.round_gap_s if st.wake_kind == "round" else d.stage_gap_s
        else:
            return
        grace = d.host.get("restart_grace_s", 60)
        self.hold[run.id] = self.now() + length + (int(grace) if isinstance(grace, int | float) else 60)

    async def upkeep(self) -> None:
        """Several nodes: renew this node's match leases (a match whose lease was lost is dropped here: another
        node drives it now), and claim the unfinished matches nobody drives (a node died) with their tables."""
        cl = self.lobby.cluster
        await self.renew_leases()
        if self.lobby.draining:
            await self.hand_over_matches()
            return  # a draining node takes nothing on: the other nodes claim what it lets go
        if "pools" not in self.leases:
            got = await cl.claim("pools")
            if got is not None:
                self.leases["pools"] = got
        for row in await self.store.matches(["registration", "starting", "running"], limit=10_000):
            key = f"match:{row.id}"
            if row.id in self.runs or await cl.owner(key) is not None:
                continue
            await self.renew_leases(due=True)  # (loading matches with many tables takes a while: the leases held)
            claimed = await cl.claim(key)
            if claimed is None:
                continue
            self.leases[key] = claimed
            fresh = await self.store.match(row.id)  # read after the claim: what the last owner wrote
            if fresh is None or await self._load(fresh) is None:
                if self.leases.pop(key, None) is not None:
                    await cl.release(key, claimed)
            elif key not in self.leases:  # lost while its tables were taken over (a lease renewed too late)
                self.runs.pop(row.id, None)
            else:
                log.info("match %s: driven here now", row.id)

    async def renew_leases(self, due: bool = False) -> None:
        """Several nodes: renew this node's match leases; a match whose lease was lost is dropped here (another
        node drives it now).  ``due``: only if a third of a lease has passed since they were last renewed (a long
        claim — many matches, or a match with many tables to restore — let the first ones lapse)."""
        if due and self.clock() - self._renewed_at < self.lobby.settings.lease_seconds / 3:
            return
        self._renewed_at = self.clock()
        cl = self.lobby.cluster
        for key, token in list(self.leases.items()):
            if not await cl.renew(key, token):
                del self.leases[key]
                mid = key.split(":", 1)[1] if key.startswith("match:") else None
                if mid is not None:
                    self.runs.pop(mid, None)
                    log.warning("match %s: lease lost; another node drives it", mid)

    async def adopt_tables(self, run: MatchRun) -> bool:
        """Take over the open tables of a match (they follow their match's director).  ``False`` if one is still
        held by another node: the match is then not driven here yet (it would open that table again)."""
        cl = self.lobby.cluster
        ok = True
        for info, _seats in await self.store.open_tables(exclude=list(self.lobby.tables)):
            if (info.tags or {}).get("match_id") != run.id:
                continue
            await self.renew_leases(due=True)
            if await cl.owner(info.id) is not None:
                ok = False
                continue
            token = await cl.claim(info.id, await self.store.lease_token(info.id))
            if token is None:
                ok = False
                continue
            try:
                await self.store.claim_table(info.id, cl.node_id, token)
                if not await self.lobby.restore_table(info.id, token):
                    await cl.release(info.id, token)
            except Exception:
                log.exception("match %s: could not take over table %s", run.id, info.id)
                await cl.release(info.id, token)
                ok = False
        return ok

    async def hand_over_matches(self) -> int:
        """Draining (several nodes): let another node drive this node's matches — the pools first, then each
        match none of whose tables here is in a deal (its tables are handed over, between deals, and its lease
        released: another node's director claims it with its tables, as after a node's death).  Meanwhile no
        table of a match is opened and no deal started here (:meth:`_reconcile`).  Returns how many matches are
        still driven here."""
        cl = self.lobby.cluster
        pools = self.leases.pop("pools", None)
        if pools is not None:
            await cl.release("pools", pools)
        for run in list(self.runs.values()):
            if any(t.running for t in self.tables_by_key(run.id).values()):
                continue  # a deal in progress: the match goes once it settled
            async with run.lock:
                if self.runs.get(run.id) is not run or any(t.running for t in self.tables_by_key(run.id).values()):
                    continue
                del self.runs[run.id]
                self.hold.pop(run.id, None)
                for t in list(self.tables_by_key(run.id).values()):
                    await self.lobby.hand_over(t)
                token = self.leases.pop(f"match:{run.id}", None)
                if token is not None:
                    await cl.release(f"match:{run.id}", token)
                log.info("match %s: handed over (this node drains)", run.id)
        return len(self.runs)

    def wants_table(self, tags: Mapping[str, Any] | None) -> bool:
        """Whether a table is a match table (taken over by its match's director, not by any node)."""
        return bool(tags and tags.get("match_id"))

    async def _rpc(self, args: dict[str, Any]) -> dict[str, Any]:
        """Another node passes on a player's registration or withdrawal, or an operator's bots or cancellation,
        for a match driven here."""
        op, mid = str(args.get("op")), str(args.get("match"))
        if op == "bots":
            return {"bots": await self.add_bots(mid, int(args["count"]))}
        if op == "cancel":
            await self.cancel(mid)
            return {"cancelled": True}
        uid = int(args["user_id"])
        if op == "register":
            partner, captain = args.get("partner"), args.get("captain")
            if partner is not None:
                return await self.invite(mid, uid, int(partner))
            run = await (self.confirm(mid, uid, int(captain)) if captain is not None else self.register(mid, uid))
            return {"match": run.id, "entrant": self.entrant_of(run, uid), "phase": run.state.phase}
        if op == "decline":
            return await self.decline(mid, uid, int(args["captain"]))
        if op == "withdraw":
            return {"match": mid, "status": await self.withdraw(mid, uid)}
        raise TableError("bad_request", f"unknown match operation {op!r}")

    async def remote(self, match_id: str, op: str, **args: Any) -> dict[str, Any] | None:
        """Pass an operation to the node that drives the match (``None``: no other node does)."""
        if not self.networked or match_id in self.runs:
            return None
        cl = self.lobby.cluster
        node = await cl.owner(f"match:{match_id}")
        if node is None or node == cl.node_id:
            return None
        from qipai.host.cluster import ClusterError, RemoteError

        try:
            return await cl.call(node, "match", {"op": op, "match": match_id, **args})
        except RemoteError as e:
            raise TableError(e.code, e.message, **e.params) from None
        except ClusterError as e:
            raise TableError("server_busy", f"the match's server did not answer: {e}") from None

    async def stop(self) -> None:
        for u in self._unsub:
            u()
        self._unsub.clear()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        for key, token in list(self.leases.items()):
            with contextlib.suppress(Exception):
                await self.lobby.cluster.release(key, token)
        self.leases.clear()

    def _log_failure(self, e: Exception) -> None:
        """A failed round of the loop: the first of a kind with its traceback (one line where Redis or the database
        is away: a connection refused, timed out), the same again (retried every second) in one line at most every
        30 s."""
        what = f"{type(e).__name__}: {e}"
        now = self.clock()
        if self._failing is None or self._failing[0] != what:
            if transient(e):  # Redis or the database away (a connection refused): its words say it all
                log.warning("match director: %s", e)
            else:
                log.exception("match director: %s", e)
            self._failing = (what, now)
        elif now - self._failing[1] >= 30.0:
            log.warning("match director: still failing (%s)", what)
            self._failing = (what, now)

    async def _loop(self) -> None:
        while True:
            try:
                if self.networked and self.clock() >= self._upkeep_at:
                    self._upkeep_at = self.clock() + max(0.2, self.lobby.settings.lease_seconds / 3)
                    await self.upkeep()
                await self.tick_all()
                await self.fill_pools()
                if self.clock() >= self._heal_at:
                    self._heal_at = self.clock() + 2.0
                    await self.heal()
                if self._failing is not None:
                    log.warning("match director: working again after %s", self._failing[0])
                    self._failing = None
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self._log_failure(e)
            due = [w for r in self.runs.values() if r.state.phase not in ("finished", "cancelled")
                   for w in [next_wakeup(r.state)] if w is not None]
            wait = 1.0 if not due else min(1.0, max(0.05, min(due) - self.clock()))
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), wait)

    async def heal(self) -> None:
        """Bring every running match's tables in line again (a table that could not open or start a deal
        before — e.g. a player still seated elsewhere — is tried again)."""
        for run in list(self.runs.values()):
            if run.state.phase == "running" and not run.lock.locked():
                async with run.lock:
                    await self.drive(run)

    async def tick_all(self) -> None:
        now = self.now()
        for run in list(self.runs.values()):
            w = next_wakeup(run.state)
            if w is None or w > now or run.state.phase in ("finished", "cancelled"):
                continue
            if now < self.hold.get(run.id, 0):
                continue
            async with run.lock:
                w = next_wakeup(run.state)
                if w is not None and w <= now:
                    await self.step(run, "tick", now, busy=await self.busy(run))

    async def busy(self, run: MatchRun) -> list[str]:
        """Players active in another started match (§2.3.4): one this node drives, or (several nodes, when ``run``
        may begin now) one another node drives, as the database has it — a match starting here kept, and seated,
        a player active in a match of another node."""
        out: list[str] = []
        for r in self.runs.values():
            if r.id == run.id or r.state.phase != "running":
                continue
            out.extend(p for e in r.state.entrants.values() if e.status == "in" and not e.bot for p in e.players)
        if self.networked and run.state.phase in ("registration", "starting"):
            users = {u for e in run.state.entrants.values() if not e.bot for p in e.players
                     if (u := user_of(p)) is not None}
            for row in await self.store.started_matches_among(list(users), exclude=run.id):
                if row.id in self.runs:  # (counted above, as this node has it now)
                    continue
                other = run_from_row(row)
                out.extend(player_id(u) for u in sorted(users) if _plays_in(other, u))
        return out

    # ------------------------------------------------------------------------------------------ matches
    async def create(self, definition: Mapping[str, Any], *, name: str | None = None, source: str | None = None,
                     start_at: int | None = None, match_id: str | None = None) -> MatchRun:
        """A new match open for registration (``start_at``: an ``at_time`` match's start, epoch seconds)."""
        try:
            d = parse_definition(definition)
            mg = match_game(d)
            factory = self.lobby.factory(mg.game)
            # the host block, the stakes and deals of every stage and the seats are checked against the game now,
            # not when the first table cannot open (the match then stood still with the fees taken)
            check_match_game(d, factory)
            bot = d.host.get("bot")
            if bot is not None and not (isinstance(bot, str) and self.lobby.has_bot(mg.game, bot)):
                raise MatchGameError("host.bot", f"{mg.game} has no bot {str(bot)[:40]!r}")
        except MatchGameError as e:
            raise TableError("bad_options", f"this match definition does not work: {e}", option=e.option,
                             reason=e.reason) from None
        except (TournamentError, ValueError, KeyError, TypeError) as e:
            raise TableError("bad_options", f"this match definition does not work: {e}", reason=str(e)) from None
        mid = match_id or "m" + secrets.token_hex(5)
        now = self.now()
        if start_at is not None and d.entry.start != "at_time":
            why = "start_at is for a match that starts at a time (entry.start at_time); this one starts when full"
            raise TableError("bad_options", why, reason=why)
        try:
            st = new_match(d, match_id=mid, seed=secrets.randbits(63), now=now, start_at=start_at)
        except TournamentError as e:
            raise TableError("bad_options", str(e), reason=str(e)) from None
        if source == "operator" and st.start_at is not None and st.start_at < now:
            why = f"the start time {st.start_at} (epoch seconds) is in the past: it is {now} now"
            raise TableError("bad_options", why, reason=why)
        title = (name or d.name or str(definition.get("preset") or d.game))[:64]
        await self.store.create_match(mid, name=title, game=d.game, platform_game=mg.game, status=st.phase,
                                      definition=definition_data(d), state=json.dumps(state_to_json(st)),
                                      start_at=st.start_at, source=source)
        run = MatchRun(mid, title, st, d, mg, 0, source)
        if self.networked:
            token = await self.lobby.cluster.claim(f"match:{mid}")
            if token is not None:
                self.leases[f"match:{mid}"] = token
        self.runs[mid] = run
        self.wake.set()
        return run

    async def fill_pools(self) -> None:
        """Keep one match of each sit-and-go pool open for registration, and create each occurrence of every
        series (a definition with ``entry.schedule``) one registration window ahead of its opening: it is listed
        as upcoming, then open for registration ``reg_opens_s`` before its start (§2.2)."""
        if self.networked and "pools" not in self.leases:
            return  # another node fills them
        now = self.now()
        await self.withdraw_unoffered(now)
        for name, definition in self.pools:
            d = parse_definition(definition)
            if d.entry.schedule is not None:
                src = f"series:{name}"
                last = max((r.state.start_at or 0 for r in self.runs.values() if r.source == src), default=now)
                for occ in open_occurrences(d, now + d.entry.reg_opens_s, after=last):
                    await self.create(occurrence_definition(d, occ.start_at), name=name, source=src,
                                      start_at=occ.start_at)
                continue
            src = f"pool:{name}"
            if any(r.source == src and r.state.phase == "registration" for r in self.runs.values()):
                continue
            await self.create(definition, name=name, source=src)

    async def withdraw_unoffered(self, now: int) -> None:
        """Cancel the matches a pool or series no longer configured (``--matches`` changed since they were made)
        put on offer while nobody has registered in them yet; one with entrants runs as created."""
        offered = {f"{'series' if parse_definition(d).entry.schedule is not None else 'pool'}:{name}"
                   for name, d in self.pools}
        for run in list(self.runs.values()):
            src = run.source or ""
            if src.startswith(("pool:", "series:")) and src not in offered and run.state.phase == "registration" \
                    and not any(e.status != "removed" for e in run.state.entrants.values()):
                async with run.lock:
                    if run.state.phase == "registration" and not any(
                            e.status != "removed" for e in run.state.entrants.values()):
                        await self.step(run, "cancel", now, "withdrawn")

    def run_of(self, match_id: str) -> MatchRun:
        run = self.runs.get(match_id)
        if run is None:
            raise TableError("unknown_match", f"no match {short_repr(match_id, 40)} is open or running",
                             match=match_id[:40])
        return run

    async def open_run(self, match_id: str) -> MatchRun:
        """:meth:`run_of` for a request to act on a match: one finished or cancelled before a restart (no longer
        loaded) is ``match_closed``, as it was before the restart, not ``unknown_match``."""
        try:
            return self.run_of(match_id)
        except TableError:
            row = await self.store.match(match_id) if len(match_id) <= 64 else None
            if row is not None and row.status in ("finished", "cancelled"):
                raise TableError("match_closed", f"the match is {row.status}", match=match_id) from None
            raise

    async def register(self, match_id: str, user_id: int, partner: int | None = None) -> MatchRun:
        """Register a user (with ``partner``: a team, the user its captain) — §2.3: the fee is taken now.
        (With several nodes a match driven elsewhere is registered there: :meth:`remote`.)"""
        run = await self.open_run(match_id)
        lobby = self.lobby
        ids = [user_id] if partner is None else [user_id, partner]
        if run.defn.teams != (partner is not None):
            raise TableError("match_entry", "this match takes teams of two: name a partner" if run.defn.teams
                             else "this match takes single players, not teams", reason="team")
        users: list[UserInfo] = []
        for uid in ids:
            u = await self.store.user(uid)
            if u is None:
                raise TableError("unknown_user", f"no user {uid}", user=uid)
            users.append(u)
        async with self._paying, run.lock:
            balances = {player_id(u.id): await lobby.points_of(u, run.game.game) for u in users}
            st = run.state
            self._refuse_closed(run)
            for u in users:
                if player_id(u.id) in st.players:
                    raise TableError("already_registered", f"{u.name} is registered in this match already",
                                     match=match_id)
            ent = run.defn.entry
            if ent.max_entrants is not None and entered(st) >= ent.max_entrants:
                raise TableError("match_full", f"the match is full ({ent.max_entrants} entrants)",
                                 match=match_id)
            need = max(ent.fee, ent.min_balance)
            for u in users:
                have = balances[player_id(u.id)]
                if have < need:
                    raise TableError("not_enough_points", f"registering needs {need} points; {u.name} has {have}",
                                     need=need, have=have)
            eid = player_id(user_id) if partner is None else f"t{user_id}"
            await self.step(run, "register", eid, [player_id(u.id) for u in users], self.now(), balances=balances)
            run.names[eid] = " & ".join(u.name for u in users)
        return run

    @staticmethod
    def _refuse_closed(run: MatchRun) -> None:
        st = run.state
        if st.phase != "registration" and not st.reg_open:
            raise TableError("match_closed", "registration for this match has closed", match=run.id)

    async def invite(self, match_id: str, captain: int, partner: int) -> dict[str, Any]:
        """A team match: the captain invites a partner; the team registers (and both pay) when the partner
        confirms with :meth:`confirm` (§2.3.1).  The partner is told with a ``match_event`` ``team_invite``."""
        run = await self.open_run(match_id)
        if not run.defn.teams:
            raise TableError("match_entry", "this match takes single players, not teams", reason="team")
        if partner == captain:
            raise TableError("match_entry", "a team is two different players", reason="team")
        u = await self.store.user(partner)
        if u is None:
            raise TableError("unknown_user", f"no user {partner}", user=partner)
        if u.is_bot:  # (an invitation nobody can confirm, taking one of the captain's open ones)
            raise TableError("match_entry", f"{u.name} is a bot: a partner is a player", reason="bot_partner")
        self._refuse_closed(run)  # (the partner could never confirm it)
        me = await self.store.user(captain)
        for uid in (captain, partner):
            if player_id(uid) in run.state.players:
                raise TableError("already_registered", "already registered in this match", match=match_id)
        # each invitation is a notice to somebody: no flooding other players with them
        if not self.invite_limiter.allow(str(captain)):
            raise TableError("rate_limited", "too many team invitations: wait a minute")
        open_ = [p for (m, p), c in self.invites.items() if m == match_id and c == captain and p != partner]
        if len(open_) >= MAX_OPEN_INVITES:  # the oldest goes: a captain is never stuck with unanswered ones
            oldest = open_[: len(open_) - MAX_OPEN_INVITES + 1]
            for p in oldest:
                self.invites.pop((match_id, p), None)
            await self.store.drop_match_invites(match_id, [(p, captain) for p in oldest])
        self.invites.pop((match_id, partner), None)  # (re-inserted last: the newest)
        await self.store.save_match_invite(match_id, partner, captain)  # kept over a restart or a take-over
        self.invites[(match_id, partner)] = captain
        self.lobby.tell_user(partner, {"type": "match_event", "match": match_id, "event": {
            "type": "team_invite", "captain": captain, "name": me.name if me else f"#{captain}"}})
        return {"match": match_id, "invited": partner, "phase": run.state.phase}

    async def confirm(self, match_id: str, partner: int, captain: int) -> MatchRun:
        """The partner confirms the captain's invitation: the team registers now."""
        if self.invites.get((match_id, partner)) != captain:
            raise TableError("match_entry", "no invitation from this captain to confirm", reason="no_invite")
        run = await self.register(match_id, captain, partner)
        await self._drop_invites(match_id, {captain, partner})
        return run

    async def decline(self, match_id: str, partner: int, captain: int) -> dict[str, Any]:
        """The partner declines the captain's invitation: it ends for both (nobody registers, nobody pays), and
        the captain is told (a ``match_event`` ``team_declined`` now; the match's card says so meanwhile).  Only
        the invited player can decline: the invitation is looked up by the caller as its partner."""
        run = await self.open_run(match_id)
        if not run.defn.teams:
            raise TableError("match_entry", "this match takes single players, not teams", reason="team")
        if self.invites.get((match_id, partner)) != captain:
            raise TableError("match_entry", "no invitation from this captain to decline", reason="no_invite")
        self.invites.pop((match_id, partner), None)
        await self.store.decline_match_invite(match_id, partner, captain)  # the captain's card reads it there
        me = await self.store.user(partner)
        self.lobby.tell_user(captain, {"type": "match_event", "match": match_id, "event": {
            "type": "team_declined", "partner": partner, "name": me.name if me else f"#{partner}"}})
        return {"match": match_id, "declined": captain, "phase": run.state.phase}

    async def _drop_invites(self, match_id: str, captains: set[int]) -> None:
        """End the open invitations of these captains in a match (their team registered, or withdrew): an old
        invitation confirmed later registered, and charged, a captain who had withdrawn."""
        pairs = [(p, c) for (m, p), c in self.invites.items() if m == match_id and (c in captains or p in captains)]
        for p, _ in pairs:
            self.invites.pop((match_id, p), None)
        if pairs:
            await self.store.drop_match_invites(match_id, pairs)

    async def add_bots(self, match_id: str, count: int) -> list[str]:
        """Register ``count`` bot entrants (where the match allows bots: an operator's fill-in)."""
        run = await self.open_run(match_id)
        made = []
        async with run.lock:
            # all or nothing: a count past the room left registered some and then answered with an error
            self._refuse_closed(run)
            ent, have = run.defn.entry, entered(run.state)
            if ent.max_entrants is not None and have + count > ent.max_entrants:
                raise TableError("match_full", f"the match has room for {ent.max_entrants - have} more entrants, "
                                 f"not {count}", match=match_id, room=ent.max_entrants - have)
            for _ in range(count):
                n = 1 + sum(1 for e in run.state.entrants if e.startswith("b"))
                eid = f"b{n}"
                players = [eid] if not run.defn.teams else [eid + "a", eid + "b"]
                await self.step(run, "register", eid, players, self.now(), bot=True)
                made.append(eid)
        return made

    async def withdraw(self, match_id: str, user_id: int) -> str:
        """Withdraw before the start (refund), or quit after it (退赛: auto-play to the end of the deal or
        round, then out with that moment's place).  Returns the entrant's status afterwards."""
        run = await self.open_run(match_id)
        async with run.lock:
            eid = run.state.players.get(player_id(user_id))
            if eid is None:
                raise TableError("not_registered", "you are not an entrant of this match", match=match_id)
            await self.step(run, "withdraw", eid, self.now())
            e = run.state.entrants[eid]
            if run.defn.teams:
                await self._drop_invites(match_id, {u for u in map(user_of, e.players) if u is not None})
            if e.quitting and e.table is not None:
                t = self.table_of(run.id, e.table)
                if t is not None:
                    async with t.lock:
                        seat = t.seat_of(user_id)
                        s = t.seats[seat] if seat is not None else None
                        if s is not None and not s.leaving:
                            await t.leave(user_id)
            return e.status if not e.quitting else "quitting"

    async def cancel(self, match_id: str, reason: str = "operator") -> None:
        run = await self.open_run(match_id)
        async with run.lock:
            await self.step(run, "cancel", self.now(), reason)

    # ------------------------------------------------------------------------------------------ steps
    async def step(self, run: MatchRun, op: str, *args: Any, **kw: Any) -> list[Event]:
        """Apply one transition, write it (state, money, records) and then act on it (caller holds the lock)."""
        try:
            new, events = STEPS[op](run.state, *args, **kw)
        except EntryError as e:
            raise TableError("match_entry", str(e), reason=str(e)) from None
        except StateError as e:
            raise TableError("match_closed", str(e), match=run.id) from None
        if not events and op == "report":
            return events
        await self._commit(run, new, events)
        await self.drive(run)
        return events

    async def _commit(self, run: MatchRun, new: MatchState, events: Sequence[Event]) -> None:
        """Write a new state with the money and records its events carry, in one transaction; then it is the
        run's state and the players are told."""
        money = self.money(events)
        records = self.records(new, events)
        try:
            run.version = await self.store.save_match(run.id, state=dumps(state_to_json(new)),
                                                      status=new.phase, version=run.version, start_at=new.start_at,
                                                      money=money, players=records)
        except StaleMatch:
            self.runs.pop(run.id, None)  # another node wrote it: it drives the match now
            raise TableError("server_busy", "this match moved to another server; try again") from None
        except Overdrawn as e:  # the balance read before the fee moved meanwhile (another node's registration)
            raise TableError("not_enough_points", f"registering needs {e.fee} points; you have {e.have}",
                             need=e.fee, have=e.have) from None
        run.state = new
        run.committed_at = time.monotonic()
        self.notify(run, events)
        self.wake.set()

    @staticmethod
    def money(events: Iterable[Event]) -> list[MoneyMove]:
        out = []
        for ev in events:
            if isinstance(ev, FeeCharged | Refund | PrizePaid):
                uid = user_of(ev.player)
                if uid is None:
                    continue
                if isinstance(ev, FeeCharged):
                    out.append(MoneyMove(ev.key, uid, -ev.amount, "fee"))
                elif isinstance(ev, Refund):
                    out.append(MoneyMove(ev.key, uid, ev.amount, "refund"))
                else:
                    out.append(MoneyMove(ev.key, uid, ev.amount, "prize"))
        return out

    @staticmethod
    def records(st: MatchState, events: Sequence[Event]) -> list[MatchRecord]:
        """The players' records the events touch (all of them when the match ends or is cancelled)."""
        kinds = {ev.TYPE for ev in events}
        touched: set[str] = set()
        if kinds & {"match_over", "match_cancelled"}:
            touched = set(st.entrants)
        else:
            for ev in events:
                for k in ("entrant",):
                    v = getattr(ev, k, None)
                    if isinstance(v, str):
                        touched.add(v)
                if ev.TYPE == "eliminated":
                    touched.update(getattr(ev, "entrants", ()))
        prizes: dict[str, int] = {}
        for ev in events:
            if isinstance(ev, PrizePaid):
                prizes[ev.player] = prizes.get(ev.player, 0) + ev.amount
        place = {eid: i + 1 for i, eid in enumerate(st.ranking)} if st.phase == "finished" else {}
        out = []
        for eid in sorted(touched):
            e = st.entrants.get(eid)
            if e is None or e.bot:
                continue
            status = "cancelled" if st.phase == "cancelled" else e.status
            if e.quitting and e.status == "in":
                status = "quitting"
            for p in e.players:
                uid = user_of(p)
                if uid is not None:
                    out.append(MatchRecord(uid, eid, status, place.get(eid), prizes.get(p, 0), e.fee))
        return out

    # ------------------------------------------------------------------------------------------ acting
    def table_of(self, match_id: str, key: str) -> Table | None:
        for t in self.lobby.tables.values():
            if t.tags.get("match_id") == match_id and t.tags.get("table_key") == key and not t.closed:
                return t
        return None

    def tables_by_key(self, match_id: str) -> dict[str, Table]:
        """The open tables of a match by table key, in one pass over the lobby's tables (what :meth:`table_of`
        finds for each key: calling that for every table or entrant of a large match costs tables × entrants)."""
        out: dict[str, Table] = {}
        for t in self.lobby.tables.values():
            if t.tags.get("match_id") == match_id and not t.closed:
                out.setdefault(str(t.tags.get("table_key")), t)
        return out

    async def drive(self, run: MatchRun) -> None:
        """Bring the platform's tables in line with the state: close those it no longer has, open those it has,
        start the deal each is to play, and count the deals tables settled that were not counted yet — all of
        them in one step, one write (a large 打立 stage settles several deals a second; one write each would
        keep the players waiting) — then again, until nothing is left to do.  Caller holds the run's lock."""
        for _ in range(10_000):
            opened = run.tables_opened
            pending = await self._reconcile(run)
            if run.tables_opened != opened:
                # the standings name each entrant's table to watch: the push the step made went out before
                # its tables were open
                self._standings_soon(run)
            if not pending:
                return
            new, events = self._count(run, pending)
            if not events:
                return
            await self._commit(run, new, events)

    def _count(self, run: MatchRun, pending: Sequence[Report]) -> tuple[MatchState, list[Event]]:
        """The state after counting every pending report in order, with their events (one copy of the state:
        a report the core refuses is checked before it changes anything, and is left out, loudly)."""
        work = clone(run.state)
        events: list[Event] = []
        now = self.now()
        for key, deal, scores, ended, absent in pending:
            try:
                _, evs = report(work, key, deal, scores, now, ended=ended, absent=absent, copy=False)
            except TournamentError as e:
                log.error("match %s table %s: deal %d cannot be counted: %s", run.id, key, deal, e)
                self.errors.append(f"{key}: {e}")
                continue
            events.extend(evs)
        return work, events

    async def _reconcile(self, run: MatchRun) -> list[Report]:
        """Close, open and start tables as the state says; the settled deals not counted yet, in table order."""
        st = run.state
        keys = set(st.tables)
        for t in list(self.lobby.tables.values()):
            if t.tags.get("match_id") != run.id or t.closed:
                continue
            if t.tags.get("table_key") not in keys:
                await self._close_table(t, abort=t.running)
        pending: list[Report] = []
        if st.phase != "running":
            return pending
        here = self.tables_by_key(run.id)
        for a, n in in_play(st):
            found = here.get(a.key)
            if found is not None and not found.running and found.empty_seats():
                # half opened when the server stopped (its seats not all written): open it afresh
                await self._close_table(found)
                found = None
            if found is None:
                if self.lobby.draining:
                    continue  # the node that drives the match next opens it (this one hands the match over)
                found = await self._open_table(run, a.key, n)
                if found is None:
                    continue
                run.tables_opened += 1
            t = found
            if t.running or t.closed:
                # a deal in progress: nothing to do here until it settles (its settlement drives again); the
                # table's lock is held through each bot move and commit, and waiting for it at every table of
                # a large stage made each pass take seconds
                continue
            async with t.lock:
                if t.running or t.closed:
                    continue
                first = int(t.tags.get("first_deal", 1))  # a table opened again after an error starts later
                done = first - 1 + t.deal_index
                if done >= n:
                    i = n - first
                    res = t.results[i] if 0 <= i < len(t.results) else None
                    scores = res.get("scores") if res else None
                    if not isinstance(scores, list):
                        log.error("match %s table %s: deal %d settled without scores", run.id, a.key, n)
                        continue
                    over = done == n and t.match == t.factory.match_start(t.info.options)
                    # (a result read back from the store after a restart names nobody absent)
                    absent = [int(x) for x in (res or {}).get("absent") or () if isinstance(x, int)]
                    pending.append((a.key, n, [int(x) for x in scores], over, absent))
                    continue
                if done == n - 1:
                    if self.lobby.draining:
                        continue  # the next deal is the next driver's (see hand_over_matches)
                    pts = [st.entrants[e].points for e in a.seat_entrants]
                    try:
                        await t.start_managed_deal(deal_seed(a, n), {}, pts)
                    except TableError as e:
                        log.warning("match %s table %s: deal %d not started: %s", run.id, a.key, n, e.message)
                else:
                    log.error("match %s table %s: the table played %d deals, the match expects deal %d",
                              run.id, a.key, done, n)
        return pending

    async def _open_table(self, run: MatchRun, key: str, deal: int) -> Table | None:
        a = assignment(run.state, key)
        game, options = table_game(run.defn, a)
        bot = str(run.defn.host.get("bot") or self.lobby.seat_bot(game))
        seats: list[dict[str, Any]] = []
        numbers = bot_numbers(run.state)
        for p, eid in zip(a.seats, a.seat_entrants, strict=True):
            uid = user_of(p)
            # a bot entrant keeps its number at the table (电脑5号, as the standings name it)
            number = numbers.get(eid) if uid is None else None
            seats.append({"user_id": uid} if uid is not None else
                         {"bot": bot, "number": number} if number is not None else {"bot": bot})
        tags: dict[str, Any] = {"match_id": run.id, "table_key": key}
        if deal > 1:
            tags["first_deal"] = deal
        for attempt in range(3):
            try:
                t = await self.lobby.open_managed_table(game, options, seats, tags)
                self._tell_remote_seats(t)
                return t
            except TableError as e:
                if e.code != "already_seated" or attempt == 2:
                    log.error("match %s: table %s could not open: %s", run.id, key, e.message)
                    self.errors.append(f"{key}: {e.code}")
                    return None
                for s in seats:  # a player still sits at another (non-match) table: leave it for the match
                    uid = s.get("user_id")
                    cur = self.lobby._current(uid) if uid is not None else None
                    if cur is not None and uid is not None and cur[0].tags.get("match_id") != run.id:
                        with contextlib.suppress(TableError):
                            await self.lobby.leave(uid, cur[0].id)
                    elif cur is not None:
                        await self._close_table(cur[0], abort=cur[0].running)
        return None

    def _tell_remote_seats(self, t: Table) -> None:
        """Several nodes: players connected to another node are told where their match table runs."""
        if not self.networked:
            return
        cl = self.lobby.cluster
        for i, seat in enumerate(t.seats):
            if seat is None or seat.user_id is None or self.lobby.conns_of(seat.user_id):
                continue
            msg = {"type": "joined", "table": t.id, "seat": i, "invite_code": None, "node": cl.node_id,
                   "url": cl.public_url, "ref": None}
            self.lobby.bus.publish(USER_MESSAGE, {"user_id": seat.user_id, "message": msg, "from": cl.node_id})

    async def _close_table(self, t: Table, *, abort: bool = False) -> None:
        self._closing_tables.add(t.id)
        async with t.lock:
            await t.close("match_table_done", abort=abort)

    async def _on_settled(self, ev: DealSettled) -> None:
        mid = ev.tags.get("match_id") if ev.tags else None
        run = self.runs.get(mid) if isinstance(mid, str) else None
        if run is None:
            return
        await self._poke(run)

    async def _poke(self, run: MatchRun) -> None:
        """Drive the match once its lock is free (and :data:`COUNT_EVERY` after its last write).  One drive
        waiting covers every table that settles meanwhile (it looks at all of them once it has the lock), so later
        pokes return at once."""
        if run.poked:
            return
        run.poked = True
        try:
            wait = run.committed_at + COUNT_EVERY - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)  # let more tables settle: they are counted in the same write
            async with run.lock:
                run.poked = False
                await self.drive(run)
        finally:
            run.poked = False

    async def _on_closed(self, ev: TableClosed) -> None:
        """A match table closed by itself (an error): open it again (its unsettled deal is played again from
        its seed; nothing of it was counted)."""
        mid = ev.tags.get("match_id") if ev.tags else None
        run = self.runs.get(mid) if isinstance(mid, str) else None
        if run is None or ev.table_id in self._closing_tables:
            self._closing_tables.discard(ev.table_id)
            return
        await self._poke(run)

    # ------------------------------------------------------------------------------------------ telling
    def notify(self, run: MatchRun, events: Sequence[Event]) -> None:
        """Tell the match's players (and watchers) what happened, and push the standings when they moved."""
        msgs = [{"type": "match_event", "match": run.id, "event": event_data(ev)} for ev in events
                if ev.TYPE in NOTICE_EVENTS]
        moved = any(ev.TYPE in ("deal_counted", "round_started", "stage_started", "eliminated", "match_over",
                                "registered", "removed", "match_started", "match_cancelled", "bots_added")
                    for ev in events)
        if not msgs and not moved:
            return
        users = self.users_of(run)
        for m in msgs:
            self._tell(run, users, m)
        if moved:
            self._standings_soon(run)

    def _tell(self, run: MatchRun, users: Sequence[int], message: dict[str, Any]) -> None:
        """One message to every player and watcher of the match (encoded once)."""
        self.lobby.tell_users(users, message, also=list(run.watchers))

    def _standings_soon(self, run: MatchRun) -> None:
        """Push the standings now, or — if the last push was less than :data:`STANDINGS_EVERY` ago — once that
        time is up (whatever moves meanwhile goes in the same push).  A finished match's go at once."""
        if run.standings_due is not None:
            if run.state.phase not in ("finished", "cancelled"):
                return
            run.standings_due.cancel()
            run.standings_due = None
        wait = run.standings_at + STANDINGS_EVERY - time.monotonic()
        if wait > 0 and run.state.phase not in ("finished", "cancelled"):
            run.standings_due = asyncio.get_running_loop().call_later(wait, self._push_standings, run)
            return
        self._push_standings(run)

    def _push_standings(self, run: MatchRun) -> None:
        run.standings_due = None
        run.standings_at = time.monotonic()
        self._tell(run, self.users_of(run), {"type": "match_standings", **self.standings_view(run)})

    def forget_conn(self, conn: Any) -> None:
        for run in self.runs.values():
            run.watchers.discard(conn)

    def users_of(self, run: MatchRun) -> list[int]:
        return sorted({u for e in run.state.entrants.values() for p in e.players
                       for u in [user_of(p)] if u is not None})

    def next_at(self, run: MatchRun) -> int | None:
        """When the next round or stage starts: the state's wake-up, or later while a restart's hold lasts (§6.3:
        the timer's full length again plus the grace; the card showed the time from before the restart)."""
        wake = run.state.wake_at
        hold = self.hold.get(run.id)
        return wake if wake is None or hold is None or hold <= wake else hold

    def standings_view(self, run: MatchRun, elsewhere: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The standings; each entrant's ``table`` is the id of the table it plays at, from this node's tables or
        (a match another node drives) ``elsewhere``, its table ids by key (:meth:`Store.match_tables`)."""
        st = run.state
        rows = []
        names = self.names(run)
        numbers = bot_numbers(st)
        here = {key: t.id for key, t in self.tables_by_key(run.id).items()}
        if elsewhere:
            here = {**elsewhere, **here}
        # those already out keep their line below the field with the place they finish in: a player just
        # eliminated reads it at once instead of vanishing from the standings until the match is over
        for r in standings(st, with_out=True):
            e = st.entrants[r.entrant]
            rows.append({"place": r.place, "entrant": r.entrant, "name": names.get(r.entrant, r.entrant),
                         "users": [u for p in e.players for u in [user_of(p)] if u is not None],
                         "reg": r.reg, "points": r.points, "bot": r.bot, "bot_number": numbers.get(r.entrant),
                         "status": r.status, "where": r.where,
                         "table": None if r.table is None else here.get(r.table),
                         "quitting": r.quitting,
                         "last_deal": r.last_deal, "deals_won": r.deals_won})
        stg = st.stage
        return {"match": run.id, "phase": st.phase, "stage": None if stg is None else stg.index,
                "round": None if stg is None or stg.round < 0 else stg.round, "standings": rows,
                "next_at": self.next_at(run), "next_kind": st.wake_kind or None,
                "prizes": list(st.prize_amounts) if st.prizes_fixed else None, "stage_info": self.stage_info(run)}

    @staticmethod
    def stage_info(run: MatchRun) -> dict[str, Any] | None:
        """The running stage: its format, number of rounds, and for 打立出局 the level, its base, the elimination
        line (``out_factor × base``: whoever is below it after a deal is out), how many are still in the stage
        and how many go on (``advance``)."""
        st, stg = run.state, run.state.stage
        if stg is None or st.phase != "running":
            return None
        sd = run.defn.stages[stg.index]
        info: dict[str, Any] = {"index": stg.index, "stages": len(run.defn.stages), "format": sd.format,
                                "rounds": len(sd.rounds) if sd.format != "dali" else None, "advance": sd.advance}
        if sd.format == "dali":
            base = level_base(sd.levels, stg.level)
            # a forced finish counts past the last level (k >= len(levels)): the base in play is the last one's
            info.update({"level": min(stg.level, len(sd.levels) - 1) + 1, "levels": len(sd.levels), "base": base,
                         "line": dali_line(sd.out_factor, base), "remaining": stg.remaining,
                         "stopping": stg.stopping or None})
        return info

    def names(self, run: MatchRun) -> dict[str, str]:
        out: dict[str, str] = dict(run.names)
        for t in self.lobby.tables.values():
            if t.tags.get("match_id") != run.id:
                continue
            for s in t.seats:
                if s is not None and s.user_id is not None:
                    out[player_id(s.user_id)] = s.name
        return out

    def platform_table(self, run: MatchRun, key: str | None) -> str | None:
        if key is None:
            return None
        t = self.table_of(run.id, key)
        return None if t is None else t.id

    def summary(self, run: MatchRun) -> dict[str, Any]:
        st = run.state
        d = run.defn
        ent = d.entry
        # the entrants, as max_entrants counts them (RULES-matches §7: entrants so far / max_entrants): while it
        # runs, those still in; once over, everyone who took part (a finished sit-and-go read "3 / 9", counting
        # only the last table's players). Bots field fitting added after the close (§2.4) are in the standings
        # but never counted here: a quitter's place filled by one read "9 / 8"
        field = [e for e in st.entrants.values() if not e.fitted and
                 (e.status == "in" if st.phase not in ("finished", "cancelled") else e.status != "removed")]
        status = {"registration": "open", "starting": "running", "running": "running"}.get(st.phase, st.phase)
        if st.phase == "registration" and ent.start == "at_time" and st.start_at is not None \
                and self.now() < st.start_at - ent.reg_opens_s:
            status = "upcoming"
        return {"id": run.id, "name": run.name, "game": d.game, "platform_game": run.game.game, "status": status,
                "phase": st.phase, "start": ent.start, "start_at": st.start_at, "fee": ent.fee,
                "entrants": len(field), "max_entrants": ent.max_entrants, "min_entrants": ent.min_entrants,
                "teams": d.teams, "stages": [s.format for s in d.stages],
                # (an at_time match listed upcoming is not open yet: register is refused until reg_opens_s)
                "reg_open": status == "open" or (st.phase == "running" and st.reg_open),  # (late registration)
                "prizes": list(st.prize_amounts) if st.prizes_fixed else None,
                "prize_table": self.prize_table(run), "prizes_now": self.prizes_now(run), "source": run.source}

    @staticmethod
    def prize_table(run: MatchRun) -> dict[str, Any] | None:
        """The match's prize table as the card shows it before the prizes are fixed (RULES-matches §2.6):
        ``{"kind": "fixed", "amounts"}`` or ``{"kind": "pool", "rake_pct", "guarantee"}``; ``None``: no prizes."""
        p = run.defn.entry.prizes
        if p.kind == "fixed":
            return {"kind": "fixed", "amounts": list(p.amounts)}
        if p.kind == "pool":
            return {"kind": "pool", "rake_pct": p.rake_pct, "guarantee": p.guarantee}
        return None

    @staticmethod
    def prizes_now(run: MatchRun) -> list[int]:
        """What each prize place pays: once fixed, the fixed amounts; before, what the prize table would pay if
        registration closed now (a pool grows with the paying entrants and its split with the human field)."""
        st = run.state
        if st.prizes_fixed:
            return list(st.prize_amounts)
        ent = run.defn.entry
        humans = [e for e in st.entrants.values() if e.status != "removed" and not e.bot]
        paying = sum(len(e.players) for e in humans if e.fee > 0)
        return prize_amounts(ent.prizes, ent.fee, paying, len(humans))

    def active_match(self, user_id: int) -> str | None:
        """The started match (starting or running) driven here in which the user is an active entrant, not
        quitting."""
        return next((run.id for run in self.runs.values() if _plays_in(run, user_id)), None)

    async def active_match_anywhere(self, user_id: int) -> str | None:
        """:meth:`active_match`, for the matches every node drives (several nodes: another node's match is read
        from the database, as its driver last wrote it)."""
        mid = self.active_match(user_id)
        if mid is not None or not self.networked:
            return mid
        for row in await self.store.started_matches_of(user_id):
            if row.id not in self.runs and _plays_in(run_from_row(row), user_id):
                return row.id
        return None

    async def invitations_of(self, run: MatchRun, user_id: int
                             ) -> tuple[list[dict[str, Any]], dict[str, Any] | None, list[dict[str, Any]]]:
        """A team match's invitations that concern ``user_id``: the captains waiting for the user's answer
        (``{"id", "name"}`` each), the partner the user invited last (or ``None``) — this node's when it
        drives the match, else the database's (kept there over a restart or a take-over) — and the partners who
        declined the user's invitations (while the user is not registered: from the database)."""
        if not run.defn.teams or run.state.phase in ("finished", "cancelled"):
            return [], None, []
        if self.runs.get(run.id) is run:
            pairs = [(p, c) for (m, p), c in self.invites.items() if m == run.id]
        else:
            pairs = list((await self.store.match_invites(run.id)).items())

        async def who(uid: int) -> dict[str, Any]:
            u = await self.store.user(uid)
            return {"id": uid, "name": u.name if u is not None else f"#{uid}"}

        declined: list[dict[str, Any]] = []
        if run.state.phase == "registration" and self.entrant_of(run, user_id) is None:
            declined = [await who(p) for p, c in (await self.store.match_declines(run.id)).items() if c == user_id]
        mine = [p for p, c in pairs if c == user_id]
        return [await who(c) for p, c in pairs if p == user_id], await who(mine[-1]) if mine else None, declined

    def entrant_of(self, run: MatchRun, user_id: int) -> str | None:
        for e in run.state.entrants.values():
            if player_id(user_id) in e.players and e.status != "removed":
                return e.id
        return None


def _plays_in(run: MatchRun, user_id: int) -> bool:
    """Whether the user is an active entrant, not quitting, of this started (starting or running) match."""
    if run.state.phase not in ("starting", "running"):
        return False
    eid = run.state.players.get(player_id(user_id))
    e = run.state.entrants.get(eid) if eid is not None else None
    return e is not None and e.status == "in" and not e.quitting


def run_from_row(row: MatchRow) -> MatchRun:
    """A stored match as a :class:`MatchRun` (to read a finished one)."""
    d = parse_definition(row.definition)
    return MatchRun(row.id, row.name, state_from_json(json.loads(row.state)), d, match_game(d), row.version,
                    row.source)


def parse_pools(text: str) -> list[tuple[str, dict[str, Any]]]:
    """``Settings.matches``: comma-separated preset names (``sit_and_go_9``, ``hourly``), or a JSON list of
    definitions (each may have a ``name``): a sit-and-go pool kept open for registration, or — with
    ``entry.schedule`` — a series with one match per occurrence.

    >>> parse_pools("sit_and_go_9")
    [('sit_and_go_9', {'preset': 'sit_and_go_9'})]
    >>> parse_pools('[{"name": "quick", "preset": "sit_and_go_9", "entry": {"fee": 0}}]')[0][0]
    'quick'
    """
    text = (text or "").strip()
    if not text:
        return []
    if text.startswith("["):
        items = json.loads(text)
        out = []
        for i, d in enumerate(items):
            if not isinstance(d, dict):
                raise ValueError("matches: each item is a match definition (a JSON object)")
            parse_definition(d)
            out.append((str(d.get("name") or d.get("preset") or f"pool{i + 1}"), d))
        return out
    names = [x.strip() for x in text.split(",") if x.strip()]
    for n in names:
        if n not in PRESETS:
            raise ValueError(f"matches: unknown preset {n!r} (known: {', '.join(PRESETS)})")
    return [(n, {"preset": n}) for n in names]
