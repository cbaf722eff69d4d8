"""The match state machine (RULES-matches.md §2–§6): pure transitions ``f(state, …) -> (state, events)``.

Each transition works on a copy of the state (pass ``copy=False`` to update the given state in place, e.g. in a
simulator) and returns the new state with the events the host must act on (:mod:`qipai.tournaments.events`).
Bad input raises a :class:`~qipai.tournaments.errors.TournamentError` subclass with the reason and changes
nothing.  The core has no clock: every transition that depends on time is given ``now`` (whole seconds), and
:func:`next_wakeup` says when the host must call :func:`tick` next.

The host's loop (the match director)::

    state = new_match(definition, match_id=..., seed=..., now=...)
    state, events = register(state, "alice", ["alice"], now)          # and withdraw(...)
    state, events = tick(state, now)                                   # at next_wakeup(state)
    state, events = report(state, table_key, deal, scores, now)        # on every settled deal
    # after every step: persist state_to_json(state), then act on events (open tables, start deals, pay)

A small sit-and-go for six with two tables of three (``by_score`` seating, one round of one deal):

>>> d = {"game": "ddz3", "entry": {"start": "when_full", "max_entrants": 6, "start_delay_s": 0},
...      "stages": [{"format": "fixed", "seating": "by_score", "rounds": [{"deals": 1}]}]}
>>> st = new_match(d, match_id="m1", seed=7, now=0)
>>> for p in "ABCDEF":
...     st, ev = register(st, p, [p], now=1)
>>> st.phase, next_wakeup(st)
('starting', 1)
>>> st, ev = tick(st, now=1)
>>> [e.table.entrants for e in ev if isinstance(e, TableFormed)]
[('A', 'B', 'C'), ('D', 'E', 'F')]
>>> st, ev = report(st, "1.1.1", 1, [40, -20, -20], now=60)
>>> st, ev = report(st, "1.1.2", 1, [-10, 20, -10], now=70)
>>> [e.ranking for e in ev if isinstance(e, MatchOver)]
[('A', 'E', 'D', 'F', 'B', 'C')]
>>> report(st, "1.1.2", 1, [-10, 20, -10], now=70)[1]      # reported twice: nothing happens
[]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.rng import Rng
from .dali import exact_cut, form_tables, level_base, level_index
from .definition import Definition, Stage, definition_data, parse_definition
from .errors import EntryError, ReportError, StateError
from .events import (
    BotsAdded,
    DealCounted,
    DealStart,
    Eliminated,
    Event,
    FeeCharged,
    ForcedFinish,
    LevelChanged,
    MatchCancelled,
    MatchOver,
    MatchStarted,
    PrizePaid,
    PrizesFixed,
    QuitRequested,
    Refund,
    Registered,
    RegistrationClosed,
    Removed,
    RoundOver,
    RoundStarted,
    StageOver,
    StageStarted,
    TableAssignment,
    TableDone,
    TableFormed,
    derive,
)
from .prizes import award, prize_amounts, split_team
from .ranking import RankRow, carry_value, final_places, normalize_tiebreaks, sort_key
from .seating import choose_byes, seat_fixed, swiss_seating, team_seats
from .state import EliminationRecord, EntrantState, MatchState, StageResult, StageState, TableState, clone

Result = tuple[MatchState, list[Event]]


# ============================================================================================ public API

def new_match(definition: Mapping[str, object] | Definition, *, match_id: str, seed: int, now: int,
              start_at: int | None = None) -> MatchState:
    """A new match, open for registration.  ``start_at`` (epoch seconds) is the start time of an ``at_time``
    match (default: the definition's ``entry.start_at``)."""
    d = parse_definition(definition)
    at = start_at if start_at is not None else d.entry.start_at
    if d.entry.start == "at_time" and at is None:
        raise StateError("an at_time match needs its start time (start_at)")
    if d.entry.start == "when_full":
        at = None
    return MatchState(match_id=match_id, seed=seed & ((1 << 64) - 1), definition=definition_data(d),
                      created_at=now, start_at=at)


def register(state: MatchState, entrant: str, players: Sequence[str], now: int, *, bot: bool = False,
             balances: Mapping[str, int] | None = None, copy: bool = True) -> Result:
    """Register ``entrant`` (one player, or a team ``[captain, partner]``) — §2.3.  ``balances`` (optional): the
    players' platform points, checked against ``max(fee, min_balance)``.  Bots pay no fee.  During a 打立 first
    stage with ``late_reg`` the entrant joins the queue at once."""
    return _run(state, copy, lambda m: m.register(entrant, list(players), now, bot, balances))


def withdraw(state: MatchState, entrant: str, now: int, *, copy: bool = True) -> Result:
    """Withdraw (before the start: full refund, §2.3) or quit (退赛 after the start, §6.2: the entrant plays on in
    auto-play until the current deal — 打立 — or round ends, then leaves with the place of that moment).
    Withdrawing twice changes nothing."""
    return _run(state, copy, lambda m: m.withdraw(entrant, now))


def tick(state: MatchState, now: int, *, busy: Iterable[str] = (), copy: bool = True) -> Result:
    """Do what is due at ``now``: start an ``at_time`` match (or cancel it below ``min_entrants``), fill a
    ``when_full`` match with bots, start a full one after ``start_delay_s``, start the next round or stage after
    its gap, raise the 打立 level, close late registration, force the 打立 finish.  ``busy``: players active in
    another started match (§2.3.4), removed with a refund when this match starts."""
    busy_set = frozenset(busy)
    return _run(state, copy, lambda m: m.tick(now, busy_set))


def start(state: MatchState, now: int, *, busy: Iterable[str] = (), copy: bool = True) -> Result:
    """Start the match now, whatever its start rule says (an operator's "start now"); registration closes unless
    late registration keeps it open."""
    busy_set = frozenset(busy)
    return _run(state, copy, lambda m: m.begin(now, busy_set, forced=True))


def report(state: MatchState, table: str, deal: int, scores: Sequence[int], now: int, *,
           absent: Iterable[int] = (), ended: bool = False, copy: bool = True) -> Result:
    """Count deal ``deal`` (1-based) of ``table``: ``scores`` is each game seat's change of match points as the
    game settled it.  ``absent``: seats whose player made no action of their own in the deal (for
    ``forfeit_absent``).  ``ended``: the table's game ended with this deal (a Shengji match reaching its end
    before ``deals`` hands).  A deal already counted is ignored (no events)."""
    absent_set = frozenset(absent)
    return _run(state, copy, lambda m: m.report(table, deal, list(scores), now, absent_set, ended))


def cancel(state: MatchState, now: int, reason: str = "operator", *, copy: bool = True) -> Result:
    """Cancel (§6.4): refund every entry fee still held, pay no prize.  A finished (paid) match cannot be."""
    return _run(state, copy, lambda m: m.cancel(now, reason))


COMMANDS = ("register", "withdraw", "tick", "start", "report", "cancel")


def apply(state: MatchState, command: Mapping[str, Any], *, copy: bool = True) -> Result:
    """Apply one command given as JSON — what a host journals before applying (§6.3) and replays after a
    restart from its last snapshot.  ``op`` names the transition; the other keys are its arguments:

    * ``{"op": "register", "entrant", "players", "now", "bot"?, "balances"?}``
    * ``{"op": "withdraw", "entrant", "now"}``
    * ``{"op": "tick" | "start", "now", "busy"?}``
    * ``{"op": "report", "table", "deal", "scores", "now", "absent"?, "ended"?}``
    * ``{"op": "cancel", "now", "reason"?}``

    >>> st = new_match({"preset": "sit_and_go_9"}, match_id="m", seed=1, now=0)
    >>> st, ev = apply(st, {"op": "register", "entrant": "a", "players": ["a"], "now": 0})
    >>> [type(e).__name__ for e in ev]
    ['Registered', 'FeeCharged']
    >>> apply(st, {"op": "fly", "now": 0})
    Traceback (most recent call last):
    ...
    qipai.tournaments.errors.StateError: unknown command 'fly' (known: register, withdraw, tick, start, report, cancel)
    """
    op = command.get("op")
    try:
        now = command["now"]
        if op == "register":
            return register(state, command["entrant"], command["players"], now, bot=command.get("bot", False),
                            balances=command.get("balances"), copy=copy)
        if op == "withdraw":
            return withdraw(state, command["entrant"], now, copy=copy)
        if op == "tick":
            return tick(state, now, busy=command.get("busy", ()), copy=copy)
        if op == "start":
            return start(state, now, busy=command.get("busy", ()), copy=copy)
        if op == "report":
            return report(state, command["table"], command["deal"], command["scores"], now,
                          absent=command.get("absent", ()), ended=command.get("ended", False), copy=copy)
        if op == "cancel":
            return cancel(state, now, command.get("reason", "operator"), copy=copy)
    except KeyError as e:
        raise StateError(f"command {op!r} needs {e.args[0]!r}") from None
    raise StateError(f"unknown command {op!r} (known: {', '.join(COMMANDS)})")


def next_wakeup(state: MatchState) -> int | None:
    """When the host must call :func:`tick` next (``None``: nothing is due by time alone)."""
    st = state
    d = st.defn()
    if st.phase == "registration":
        if d.entry.start == "at_time":
            return st.start_at
        if d.entry.bots == "fill_after" and st.first_reg_at is not None \
                and any(not e.bot and e.status == "in" for e in st.entrants.values()):
            return st.first_reg_at + d.entry.fill_after_s
        return None
    if st.phase == "starting":
        return st.start_at
    if st.phase != "running":
        return None
    out = st.wake_at
    stg = st.stage
    if stg is not None and st.wake_at is None:
        sd = d.stages[stg.index]
        if sd.format == "dali" and sd.level_seconds and not stg.stopping:
            t = stg.started_at + (stg.level + 1) * sd.level_seconds
            out = t if out is None else min(out, t)
    return out


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings."""

    place: int
    entrant: str
    reg: int
    points: int
    bot: bool
    status: str
    where: str
    table: str | None
    last_deal: int
    deals_won: int
    buchholz: int
    quitting: bool


def standings(state: MatchState, *, with_out: bool = False) -> list[StandingRow]:
    """The live standings: before the start, the entrants in registration order; while running, the current
    stage's entrants in standings order (§5); once finished, the final ranking (§5.4).  ``with_out``: while
    running, those already out (eliminated, or withdrawn after the start) follow the field, each with the place
    it finishes in (§5.4: every elimination event ranks below those still in, the latest first)."""
    st = state
    if st.phase == "finished" or (st.phase == "cancelled" and st.ranking):
        ids = st.ranking
    elif st.stage is None:
        ids = [e.id for e in sorted(st.entrants.values(), key=lambda e: e.reg) if e.status == "in"]
    else:
        ids = _Machine(st).ranked_ids(st.stage.index)
        if with_out and st.phase == "running":
            listed = set(ids)
            for ev in reversed(st.eliminations):
                for eid in ev.entrants:
                    e = st.entrants.get(eid)
                    if e is not None and eid not in listed and e.status in ("eliminated", "withdrawn"):
                        listed.add(eid)
                        ids = [*ids, eid]
    m = _Machine(st)
    out = []
    for i, eid in enumerate(ids, start=1):
        e = st.entrants[eid]
        out.append(StandingRow(i, eid, e.reg, e.points, e.bot, e.status, e.where, e.table, e.last_deal,
                               e.deals_won, m.buchholz(e), e.quitting))
    return out


def entered(state: MatchState) -> int:
    """How many entered the match, those already out included (not those removed before the start): what
    ``max_entrants`` caps (§2.1), also during late registration."""
    return sum(1 for x in state.entrants.values() if x.status != "removed")


def final_ranking(state: MatchState) -> list[str]:
    """The final ranking (best first) once the match is finished."""
    if state.phase != "finished":
        raise StateError("the match has not finished")
    return list(state.ranking)


def in_play(state: MatchState) -> list[tuple[TableAssignment, int]]:
    """The tables in play with the deal each is playing now (``played + 1``): what a restarted host resumes."""
    return [(_assignment(t), t.played + 1) for t in state.tables.values()]


def assignment(state: MatchState, table: str) -> TableAssignment:
    """The assignment of a table in play."""
    t = state.tables.get(table)
    if t is None:
        raise ReportError(f"table {table!r} is not in play")
    return _assignment(t)


# ============================================================================================ internals

def _run(state: MatchState, copy: bool, fn: object) -> Result:
    work = clone(state) if copy else state
    m = _Machine(work)
    fn(m)  # type: ignore[operator]
    return work, m.events


def _assignment(t: TableState) -> TableAssignment:
    return TableAssignment(t.key, t.stage, None if t.round < 0 else t.round, t.number, tuple(t.entrants),
                           tuple(t.seats), tuple(t.seat_entrants), t.deals, t.base, t.line, tuple(t.points),
                           t.seed)


class _Machine:
    """Applies one transition to ``st`` in place, collecting events."""

    def __init__(self, st: MatchState) -> None:
        self.st = st
        self.d = st.defn()
        self.events: list[Event] = []

    # ------------------------------------------------------------------ helpers

    def emit(self, ev: Event) -> None:
        self.events.append(ev)

    def stage_def(self) -> Stage:
        assert self.st.stage is not None
        return self.d.stages[self.st.stage.index]

    def active(self) -> list[EntrantState]:
        return [e for e in self.st.entrants.values() if e.status == "in"]

    def buchholz(self, e: EntrantState) -> int:
        ents = self.st.entrants
        return sum(ents[m].points * n for m, n in e.mates.items())

    def row(self, e: EntrantState, keys: Sequence[str]) -> RankRow:
        return RankRow(e.id, e.points, e.reg, e.last_deal, e.deals_won,
                       self.buchholz(e) if "buchholz" in keys else 0, e.prev_rank)

    def rank(self, ids: Iterable[str], stage: int | None = None) -> list[str]:
        """``ids`` in the standings order of ``stage`` (default: the current one)."""
        k = self.st.stage.index if stage is None and self.st.stage is not None else (stage or 0)
        keys = normalize_tiebreaks(self.d.stages[k].tiebreaks)
        ents = self.st.entrants
        return sorted(ids, key=lambda i: sort_key(self.row(ents[i], keys), keys))

    def ranked_ids(self, stage: int) -> list[str]:
        return self.rank([e.id for e in self.st.entrants.values() if e.status == "in" and e.stage == stage], stage)

    def money_key(self, what: str, e: EntrantState, player: str) -> str:
        return f"{what}:{self.st.match_id}:{e.id}:{e.reg}:{player}"

    def refund(self, e: EntrantState, reason: str) -> None:
        if e.refunded or e.fee <= 0:
            return
        e.refunded = True
        for p in e.players:
            self.emit(Refund(e.id, p, e.fee, self.money_key("refund", e, p), reason))

    def remove(self, e: EntrantState, reason: str) -> None:
        """Take an entrant out before the start, with a full refund; it is not ranked."""
        e.status = "removed"
        e.where = "out"
        for p in e.players:
            if self.st.players.get(p) == e.id:
                del self.st.players[p]
        self.emit(Removed(e.id, reason))
        self.refund(e, reason)

    def eliminate(self, ids: Sequence[str], kind: str, now: int, rescued: Sequence[str] = ()) -> None:
        if not ids:
            return
        st = self.st
        assert st.stage is not None
        for i in ids:
            e = st.entrants[i]
            e.status = "withdrawn" if kind == "withdrawal" else "eliminated"
            e.where = "out"
            e.table = None
            for p in e.players:
                if st.players.get(p) == e.id:
                    del st.players[p]
        st.eliminations.append(EliminationRecord(st.seq, st.stage.index, kind, list(ids), now))
        self.emit(Eliminated(st.stage.index, kind, tuple(ids), st.seq, tuple(rescued)))

    def new_bots(self, count: int, points: int) -> list[str]:
        st = self.st
        made = []
        for _ in range(count):
            st.bots_made += 1
            bid = f"bot:{st.bots_made}"
            while bid in st.entrants:
                st.bots_made += 1
                bid = f"bot:{st.bots_made}"
            players = [bid] if not self.d.teams else [bid + "a", bid + "b"]
            e = EntrantState(bid, st.next_reg, players, bot=True, points=points)
            st.next_reg += 1
            st.entrants[bid] = e
            for p in players:
                st.players[p] = bid
            self.emit(Registered(bid, e.reg, tuple(players), True))
            made.append(bid)
        return made

    # ------------------------------------------------------------------ registration

    def register(self, eid: str, players: list[str], now: int, bot: bool,
                 balances: Mapping[str, int] | None) -> None:
        st, d = self.st, self.d
        ent = d.entry
        late = False
        if st.phase == "registration":
            if ent.start == "at_time":
                assert st.start_at is not None
                opens = st.start_at - ent.reg_opens_s
                if now < opens:
                    raise EntryError(f"registration opens at {opens} ({opens - now} s from now)")
                if now >= st.start_at and ent.late_reg is None:
                    raise EntryError("registration closed at the start time")
        elif st.phase == "running" and st.reg_open:
            late = True
            stg = st.stage
            sd = self.stage_def()
            k = level_index(sd.level_seconds, sd.level_deals, elapsed_s=now - stg.started_at,
                            settled=stg.settled) if stg is not None else 0
            if stg is None or stg.stopping or st.wake_at is not None or k >= (ent.late_reg or 0):
                raise EntryError("late registration has closed")
        else:
            raise EntryError("registration is closed")
        if not isinstance(eid, str) or not eid:
            raise EntryError("an entrant needs a non-empty id")
        old = st.entrants.get(eid)
        if old is not None and old.status != "removed":
            raise EntryError(f"entrant {eid!r} is already registered")
        need = d.players_per_entrant
        if len(players) != need:
            raise EntryError(f"an entrant of this match is {need} player(s), got {len(players)}")
        if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
            raise EntryError("a team's players must be two different, non-empty ids")
        for p in players:
            if p in st.players:
                raise EntryError(f"player {p!r} is already registered (entrant {st.players[p]!r})")
        if ent.max_entrants is not None and entered(st) >= ent.max_entrants:
            raise EntryError(f"the match is full ({ent.max_entrants} entrants)")
        fee = 0 if bot else ent.fee
        if balances is not None and not bot:
            need_bal = max(ent.fee, ent.min_balance)
            for p in players:
                bal = balances.get(p)
                if bal is None or bal < need_bal:
                    raise EntryError(f"player {p!r} needs at least {need_bal} points to register, has {bal}")
        e = EntrantState(eid, st.next_reg, players, bot=bot, fee=fee, registered_at=now)
        st.next_reg += 1
        if old is not None:
            del st.entrants[eid]
        st.entrants[eid] = e
        for p in players:
            st.players[p] = eid
        if st.first_reg_at is None:
            st.first_reg_at = now
        self.emit(Registered(eid, e.reg, tuple(players), bot))
        if fee > 0:
            for p in players:
                self.emit(FeeCharged(eid, p, fee, self.money_key("fee", e, p)))
        if late:
            assert st.stage is not None
            self.dali_clock(now)
            sd = self.stage_def()
            e.stage = st.stage.index
            e.points = sd.start_stack
            e.where = "queue"
            st.stage.entered[eid] = e.points
            st.stage.queue.append(eid)
            st.stage.remaining += 1
            self.dali_form(now)
        elif ent.start == "when_full" and ent.max_entrants is not None and entered(st) >= ent.max_entrants:
            self.fill(now)

    def fill(self, now: int) -> None:
        """A ``when_full`` match is full: close registration; it starts ``start_delay_s`` later."""
        st = self.st
        self.close(now)
        st.phase = "starting"
        st.start_at = now + self.d.entry.start_delay_s

    def close(self, now: int) -> None:
        st = self.st
        if not st.reg_open:
            return
        st.reg_open = False
        st.closed_at = now
        self.emit(RegistrationClosed(now, len(self.active())))

    def fix_prizes(self) -> None:
        st, ent = self.st, self.d.entry
        humans = [e for e in st.entrants.values() if e.status != "removed" and not e.bot]
        st.paying = sum(len(e.players) for e in humans if e.fee > 0)
        st.humans = len(humans)
        st.prize_amounts = prize_amounts(ent.prizes, ent.fee, st.paying, st.humans)
        st.prizes_fixed = True
        self.emit(PrizesFixed(st.paying, st.humans, tuple(st.prize_amounts)))

    def withdraw(self, eid: str, now: int) -> None:
        st = self.st
        e = st.entrants.get(eid)
        if e is None:
            raise EntryError(f"unknown entrant {eid!r}")
        if e.status != "in":
            return
        if st.phase == "registration":
            if self.d.entry.start == "at_time" and st.start_at is not None and now >= st.start_at:
                # the close of registration is the start time (§2.1): no refund after it (§2.3.3)
                raise EntryError("registration closed at the start time: the match is starting")
            self.remove(e, "withdrawn")
            return
        if st.phase == "starting":
            raise EntryError("a when_full match cannot be left once full")
        if st.phase != "running":
            raise StateError(f"the match is {st.phase}")
        if e.quitting:
            return
        e.quitting = True
        stg = st.stage
        assert stg is not None
        if e.where in ("queue", "idle"):
            self.emit(QuitRequested(eid, "now"))
            if e.where == "queue":
                stg.queue.remove(eid)
                stg.remaining -= 1
            if eid in st.next_field:
                st.next_field.remove(eid)
            self.eliminate([eid], "withdrawal", now)
            if self.stage_def().format == "dali" and st.wake_at is None:
                self.dali_clock(now)
                self.dali_check_stop(now)
                if not stg.stopping:
                    self.dali_form(now)
            elif st.wake_at is None and not self.ranked_ids(stg.index):
                self.stage_end(now)
        else:
            fmt = self.stage_def().format
            self.emit(QuitRequested(eid, "after_deal" if fmt == "dali" else "round_end"))

    # ------------------------------------------------------------------ time

    def tick(self, now: int, busy: frozenset[str]) -> None:
        st, ent = self.st, self.d.entry
        for _ in range(10_000):
            before = (st.phase, st.wake_at, st.stage.index if st.stage else -1,
                      st.stage.level if st.stage else -1, st.reg_open, len(self.events))
            if st.phase == "registration":
                if ent.start == "at_time":
                    assert st.start_at is not None
                    if now >= st.start_at:
                        self.begin(now, busy)
                elif (ent.bots == "fill_after" and st.first_reg_at is not None
                      and now >= st.first_reg_at + ent.fill_after_s):
                    act = self.active()
                    if any(not e.bot for e in act) and ent.max_entrants is not None \
                            and len(act) < ent.max_entrants:
                        self.new_bots(ent.max_entrants - len(act), 0)
                        self.fill(now)
            if st.phase == "starting":
                assert st.start_at is not None
                if now >= st.start_at:
                    self.begin(now, busy)
            if st.phase == "running":
                if st.wake_at is not None and now >= st.wake_at:
                    kind = st.wake_kind
                    st.wake_at, st.wake_kind = None, ""
                    if kind == "round":
                        assert st.stage is not None
                        self.start_round(st.stage.round + 1, now)
                    else:
                        assert st.stage is not None
                        self.start_stage(st.stage.index + 1, list(st.next_field), now)
                elif st.wake_at is None:
                    self.dali_clock(now)
            after = (st.phase, st.wake_at, st.stage.index if st.stage else -1,
                     st.stage.level if st.stage else -1, st.reg_open, len(self.events))
            if after == before:
                return
        raise AssertionError("tick did not settle")  # pragma: no cover

    def begin(self, now: int, busy: frozenset[str], forced: bool = False) -> None:
        st, d = self.st, self.d
        if st.phase not in ("registration", "starting"):
            raise StateError(f"the match is {st.phase}, it cannot start")
        for e in sorted(self.active(), key=lambda e: e.reg):
            if any(p in busy for p in e.players):
                self.remove(e, "active in another match")
        field = sorted(self.active(), key=lambda e: e.reg)
        if not field or (d.entry.start == "at_time" and len(field) < d.entry.min_entrants and not forced):
            self.cancel(now, f"too few entrants ({len(field)} of {d.entry.min_entrants})")
            return
        st.phase = "running"
        st.started_at = now
        if d.entry.late_reg is None:
            self.close(now)
        self.emit(MatchStarted(now, len(field)))
        self.start_stage(0, [e.id for e in field], now)
        if not st.reg_open and not st.prizes_fixed and st.phase == "running":
            self.fix_prizes()

    # ------------------------------------------------------------------ stages and rounds

    def start_stage(self, k: int, field_ids: list[str], now: int) -> None:
        st, d = self.st, self.d
        sd = d.stages[k]
        ents = st.entrants
        field_ids = [i for i in field_ids if ents[i].status == "in"]
        prev_place: dict[str, int] = {}
        if k > 0:
            prev = st.stage_results[k - 1]
            prev_place = {eid: i + 1 for i, eid in enumerate(prev.ids)}
        stg = StageState(index=k, started_at=now)
        st.stage = stg
        st.next_field = []
        for eid in field_ids:
            e = ents[eid]
            x = e.points
            e.points = sd.start_stack if k == 0 else carry_value(x, sd.carry, sd.start_stack)
            e.stage = k
            e.last_deal = e.deals = e.deals_won = e.byes = 0
            e.mates = {}
            e.prev_rank = prev_place.get(eid)
            e.prev_table = e.table = None
            e.where = "idle"
            e.round_deals = e.round_absent = e.absent_run = 0
            stg.entered[eid] = e.points
        if sd.format != "dali":
            self.fit_stage(k, now)
        ranked = self.ranked_ids(k)
        self.emit(StageStarted(k, sd.format, tuple(ranked), tuple(ents[i].points for i in ranked)))
        if not ranked:
            self.stage_end(now)
            return
        if sd.format == "dali":
            stg.remaining = len(ranked)
            assert sd.advance is not None
            if stg.remaining <= sd.advance:
                stg.stopping = "exact"
                self.stage_end(now)
                return
            stg.queue = list(ranked)
            for eid in ranked:
                ents[eid].where = "queue"
            self.dali_clock(now)
            if not stg.stopping:
                self.dali_form(now)
            elif not self.stage_tables():
                self.dali_finish(now)
        else:
            self.start_round(0, now)

    def fit_stage(self, k: int, now: int) -> None:
        """§2.4 at the start of a ``fixed``/``swiss`` stage."""
        st, d = self.st, self.d
        sd = d.stages[k]
        s = d.s
        field = [e for e in self.active() if e.stage == k]
        r = len(field) % s
        if not r:
            return
        if sd.odd_field == "cut" and k == 0 and len(field) >= s:
            humans = sorted((e for e in field if not e.bot), key=lambda e: e.reg)
            if len(humans) >= r:
                for e in humans[len(humans) - r:]:
                    self.remove(e, "field fitting (cut)")
                    st.stage.entered.pop(e.id, None)  # type: ignore[union-attr]
                return
        if sd.odd_field in ("bots", "cut") or len(field) < s:
            self.add_fitting_bots(k, s - r)

    def add_fitting_bots(self, k: int, count: int) -> None:
        st = self.st
        sd = self.d.stages[k]
        assert st.stage is not None
        pts = sd.start_stack if k == 0 else min(st.stage.entered.values(), default=sd.start_stack)
        made = self.new_bots(count, pts)
        for b in made:
            e = st.entrants[b]
            e.stage = k
            e.fitted = True
            st.stage.entered[b] = pts
        self.emit(BotsAdded(tuple(made), pts))

    def start_round(self, r: int, now: int) -> None:
        st, d = self.st, self.d
        stg = st.stage
        assert stg is not None
        k = stg.index
        sd = d.stages[k]
        s = d.s
        stg.round = r
        field = self.ranked_ids(k)
        if not field:
            self.stage_end(now)
            return
        if len(field) % s and (sd.odd_field in ("bots", "cut") or len(field) < s):
            self.add_fitting_bots(k, s - len(field) % s)
            field = self.ranked_ids(k)
        ents = st.entrants
        byes: list[str] = []
        if len(field) % s:
            byes = choose_byes(field, {i: ents[i].byes for i in field}, len(field) % s)
            for i in byes:
                ents[i].byes += 1
                ents[i].points += sd.bye_points
                ents[i].where = "bye"
            bye_set = set(byes)
            field = self.rank(i for i in field if i not in bye_set)
        if sd.format == "swiss":
            def met(a: str, b: str) -> int:
                return ents[a].mates.get(b, 0)
            tables = swiss_seating(field, s, met, sd.swap_window)
        else:
            rng = Rng(derive(st.seed, f"seating:{k}:{r}"))
            tables = seat_fixed(field, s, sd.seating, rng)
        keys = []
        stg.round_tables = len(tables)
        stg.byes = byes
        for t, members in enumerate(tables):
            keys.append(self.open_table(f"{k + 1}.{r + 1}.{t + 1}", k, r, t + 1, members,
                                        sd.rounds[r].deals, sd.base, None, defer=True))
        self.emit(RoundStarted(k, r, tuple(keys), tuple(byes)))
        for key in keys:
            self.announce(st.tables[key])

    def open_table(self, key: str, k: int, r: int, number: int, members: list[str], deals: int, base: int,
                   line: int | None, defer: bool = False) -> str:
        st, d = self.st, self.d
        ents = st.entrants
        if d.teams:
            a, b = self.rank(members)
            members = [a, b]
            seats = team_seats(ents[a].players, ents[b].players)
            seat_entrants = [a, b, a, b]
        else:
            seats = [ents[m].players[0] for m in members]
            seat_entrants = list(members)
        t = TableState(key, k, r, number, list(members), seats, seat_entrants, deals, base, line,
                       derive(st.seed, f"table:{key}"), [ents[m].points for m in members])
        st.tables[key] = t
        track = self.d.stages[k].format == "swiss" or "buchholz" in self.d.stages[k].tiebreaks
        for m in members:
            e = ents[m]
            e.where = "table"
            e.table = key
            if track:
                for o in members:
                    if o != m:
                        e.mates[o] = e.mates.get(o, 0) + 1
        if not defer:
            self.announce(t)
        return key

    def announce(self, t: TableState) -> None:
        self.emit(TableFormed(_assignment(t)))
        self.start_deal(t)

    def start_deal(self, t: TableState) -> None:
        ents = self.st.entrants
        n = t.played + 1
        self.emit(DealStart(t.key, n, derive(t.seed, f"deal:{n}"), t.base,
                            tuple(ents[e].points for e in t.seat_entrants)))

    def stage_tables(self) -> list[TableState]:
        st = self.st
        assert st.stage is not None
        return [t for t in st.tables.values() if t.stage == st.stage.index]

    def round_end(self, now: int) -> None:
        st, d = self.st, self.d
        stg = st.stage
        assert stg is not None
        k, r = stg.index, stg.round
        sd = d.stages[k]
        for e in self.active():
            if e.stage != k:
                continue
            if d.forfeit_absent and e.round_deals > 0 and e.round_absent >= e.round_deals and not e.bot:
                e.quitting = True
            e.round_deals = e.round_absent = 0
            e.where = "idle"
        ranked = self.ranked_ids(k)
        keep = sd.cut_after(r)
        if keep is not None and len(ranked) > keep:
            self.eliminate(ranked[keep:], "cut" if sd.format == "fixed" else "swiss_cut", now)
            ranked = ranked[:keep]
        quitters = [i for i in ranked if st.entrants[i].quitting]
        self.eliminate(quitters, "withdrawal", now)
        stg.byes = []
        left = [i for i in ranked if st.entrants[i].status == "in"]
        more = r + 1 < len(sd.rounds) and bool(left)
        nxt = now + d.round_gap_s if more else None
        self.emit(RoundOver(k, r, nxt))
        if more:
            st.wake_at, st.wake_kind = nxt, "round"
        else:
            self.stage_end(now)

    def stage_end(self, now: int) -> None:
        st, d = self.st, self.d
        stg = st.stage
        assert stg is not None
        k = stg.index
        sd = d.stages[k]
        if st.reg_open:
            self.close(now)
        if not st.prizes_fixed:
            self.fix_prizes()
        ranked = self.ranked_ids(k)
        for i in ranked:
            st.entrants[i].where = "idle"
        stg.queue = []
        st.stage_results.append(StageResult(k, list(ranked), [st.entrants[i].points for i in ranked]))
        last = k == len(d.stages) - 1
        if last or not ranked:
            self.emit(StageOver(k, tuple(ranked), (), None))
            self.match_end(now)
            return
        assert sd.advance is not None
        adv, rest = ranked[:sd.advance], ranked[sd.advance:]
        nxt = now + d.stage_gap_s
        self.emit(StageOver(k, tuple(ranked), tuple(adv), nxt))
        self.eliminate(rest, "stage_cut", now)
        st.next_field = list(adv)
        st.wake_at, st.wake_kind = nxt, "stage"

    def match_end(self, now: int) -> None:
        st = self.st
        ranked = self.ranked_ids(st.stage.index) if st.stage is not None else []
        ranking = final_places(ranked, [ev.entrants for ev in st.eliminations])
        st.ranking = ranking
        st.phase = "finished"
        st.wake_at, st.wake_kind = None, ""
        ents = st.entrants
        for eid, place, amount in award([(i, ents[i].bot) for i in ranking], st.prize_amounts):
            e = ents[eid]
            shares = list(split_team(amount)) if len(e.players) == 2 else [amount]
            for p, a in zip(e.players, shares, strict=True):
                if a > 0:
                    self.emit(PrizePaid(eid, p, place, a, f"prize:{st.match_id}:{eid}:{place}:{p}"))
        self.emit(MatchOver(tuple(ranking)))

    # ------------------------------------------------------------------ reports

    def issued(self, key: str) -> bool:
        """Whether ``key`` names a table this match has opened (now finished)."""
        st = self.st
        parts = key.split(".")
        try:
            k = int(parts[0]) - 1
        except (ValueError, IndexError):
            return False
        if st.stage is None or k < 0 or k > st.stage.index:
            return False
        if k < st.stage.index:
            return True
        stg = st.stage
        if len(parts) == 2 and parts[1].startswith("d"):
            try:
                return 1 <= int(parts[1][1:]) <= stg.tables_formed
            except ValueError:
                return False
        if len(parts) == 3:
            try:
                r, t = int(parts[1]) - 1, int(parts[2])
            except ValueError:
                return False
            return 0 <= r < stg.round or (r == stg.round and 1 <= t <= stg.round_tables)
        return False

    def report(self, key: str, deal: int, scores: list[int], now: int, absent: frozenset[int],
               ended: bool) -> None:
        st, d = self.st, self.d
        if st.phase in ("finished", "cancelled"):
            return
        t = st.tables.get(key)
        if t is None:
            if st.phase == "running" and self.issued(key):
                return
            raise ReportError(f"unknown table {key!r}")
        if isinstance(deal, bool) or not isinstance(deal, int):
            raise ReportError(f"the deal number must be a whole number, got {deal!r}")
        if deal <= t.played:
            return
        if deal != t.played + 1:
            raise ReportError(f"table {key} is playing deal {t.played + 1}, got a result for deal {deal}")
        if len(scores) != d.seats or any(isinstance(x, bool) or not isinstance(x, int) for x in scores):
            raise ReportError(f"a result has {d.seats} whole-number scores (one per seat), got {scores!r}")
        if any(not isinstance(a, int) or not 0 <= a < d.seats for a in absent):
            raise ReportError(f"absent seats must be in 0..{d.seats - 1}, got {sorted(absent)}")
        if d.teams and (scores[0] != scores[2] or scores[1] != scores[3]):
            raise ReportError(f"partners score alike (seats 0/2 and 1/3), got {scores!r}")
        ents = st.entrants
        changes = []
        for i, eid in enumerate(t.entrants):
            c = scores[i]
            e = ents[eid]
            e.points += c
            e.last_deal = c
            e.deals += 1
            if c > 0:
                e.deals_won += 1
            seats = [j for j, se in enumerate(t.seat_entrants) if se == eid]
            gone = all(j in absent for j in seats)
            e.round_deals += 1
            if gone:
                e.round_absent += 1
                e.absent_run += 1
            else:
                e.absent_run = 0
            changes.append(c)
        st.seq += 1
        t.played += 1
        t.points = [ents[i].points for i in t.entrants]
        self.emit(DealCounted(key, deal, st.seq, tuple(t.entrants), tuple(changes)))
        if t.round < 0:
            self.dali_after_deal(t, now, ended)
        elif t.played >= t.deals or ended:
            self.table_done(t)
            assert st.stage is not None
            if not self.stage_tables():
                self.round_end(now)
        else:
            self.start_deal(t)

    def table_done(self, t: TableState) -> None:
        del self.st.tables[t.key]
        for eid in t.entrants:
            e = self.st.entrants[eid]
            if e.status == "in":
                e.table = None
                e.where = "done" if t.round >= 0 else "idle"
        self.emit(TableDone(t.key, t.played))

    def cancel(self, now: int, reason: str) -> None:
        st = self.st
        if st.phase == "finished":
            raise StateError("the match has finished and its prizes are paid: it can no longer be cancelled")
        if st.phase == "cancelled":
            return
        for e in sorted(st.entrants.values(), key=lambda e: e.reg):
            if e.status != "removed":
                self.refund(e, "match cancelled")
        tables = tuple(st.tables)
        st.tables = {}
        if st.stage is not None:
            st.stage.queue = []
        for e in st.entrants.values():
            if e.status == "in":
                e.where, e.table = "idle", None
        st.phase = "cancelled"
        st.reg_open = False
        st.wake_at, st.wake_kind = None, ""
        st.cancel_reason = reason
        self.emit(MatchCancelled(reason, tables))

    # ------------------------------------------------------------------ 打立出局

    def dali_clock(self, now: int) -> None:
        """Bring the 打立 level up to date: announce a new level, close late registration, force the finish."""
        st = self.st
        stg = st.stage
        if stg is None or st.phase != "running" or st.wake_at is not None:
            return
        sd = self.d.stages[stg.index]
        if sd.format != "dali" or len(st.stage_results) > stg.index:
            return
        k = level_index(sd.level_seconds, sd.level_deals, elapsed_s=now - stg.started_at, settled=stg.settled)
        if k != stg.level:
            stg.level = k
            if k < len(sd.levels):
                base = level_base(sd.levels, k)
                self.emit(LevelChanged(stg.index, k, base, sd.out_factor * base))
        late = self.d.entry.late_reg
        if st.reg_open and stg.index == 0 and (late is None or k >= late or stg.stopping):
            self.close(now)
            self.fix_prizes()
        if k >= len(sd.levels) and not stg.stopping:
            stg.stopping = "forced"
            if st.reg_open:
                self.close(now)
                self.fix_prizes()
            self.emit(ForcedFinish(stg.index))
            if not self.stage_tables():
                self.dali_finish(now)

    def dali_check_stop(self, now: int) -> None:
        st = self.st
        stg = st.stage
        assert stg is not None
        sd = self.stage_def()
        assert sd.advance is not None
        if stg.remaining <= sd.advance and not stg.stopping:
            stg.stopping = "exact"
            if st.reg_open:
                self.close(now)
                self.fix_prizes()
        if stg.stopping and not self.stage_tables():
            self.dali_finish(now)

    def dali_form(self, now: int) -> None:
        st, d = self.st, self.d
        stg = st.stage
        assert stg is not None
        sd = d.stages[stg.index]
        if stg.stopping or st.phase != "running":
            return
        ents = st.entrants
        in_play = bool(self.stage_tables())
        tables, rest = form_tables(stg.queue, [ents[i].prev_table for i in stg.queue], d.s, in_play)
        stg.queue = rest
        base = level_base(sd.levels, stg.level)
        for members in tables:
            stg.tables_formed += 1
            n = stg.tables_formed
            self.open_table(f"{stg.index + 1}.d{n}", stg.index, -1, n, members, sd.ass_deals, base,
                            sd.out_factor * base)
        assert sd.advance is not None
        if not self.stage_tables() and stg.remaining > sd.advance:
            # nobody can sit down and nothing is in play (fewer than s left): finish now (decision)
            stg.stopping = "forced"
            self.emit(ForcedFinish(stg.index))
            self.dali_finish(now)

    def dali_after_deal(self, t: TableState, now: int, ended: bool) -> None:
        st, d = self.st, self.d
        stg = st.stage
        assert stg is not None
        sd = d.stages[stg.index]
        assert sd.advance is not None
        stg.settled += 1
        ents = st.entrants
        left = False
        if stg.stopping != "exact":
            assert t.line is not None
            below = self.rank([i for i in t.entrants if ents[i].points < t.line])
            if below:
                out = exact_cut(below, stg.remaining, sd.advance)
                rescued = [i for i in below if i not in out]
                if out:
                    self.eliminate(out, "dali", now, rescued)
                    stg.remaining -= len(out)
                    left = True
        quit_ids = [i for i in self.rank(t.entrants) if ents[i].status == "in" and (
            ents[i].quitting or (d.forfeit_absent and not ents[i].bot and ents[i].absent_run >= 3))]
        if quit_ids:
            for i in quit_ids:
                ents[i].quitting = True
            self.eliminate(quit_ids, "withdrawal", now)
            stg.remaining -= len(quit_ids)
            left = True
        if stg.remaining <= sd.advance and not stg.stopping:
            stg.stopping = "exact"
            if st.reg_open:
                self.close(now)
                self.fix_prizes()
        self.dali_clock(now)
        done = bool(stg.stopping) or left or t.played >= t.deals or ended
        if not done:
            self.start_deal(t)
            return
        self.table_done(t)
        survivors = self.rank([i for i in t.entrants if ents[i].status == "in"])
        for i in survivors:
            ents[i].prev_table = t.key
            ents[i].where = "queue"
        stg.queue.extend(survivors)
        if stg.stopping:
            if not self.stage_tables():
                self.dali_finish(now)
        else:
            self.dali_form(now)

    def dali_finish(self, now: int) -> None:
        st = self.st
        stg = st.stage
        assert stg is not None
        if st.stage_results and len(st.stage_results) > stg.index:
            return
        sd = self.stage_def()
        assert sd.advance is not None
        ranked = self.ranked_ids(stg.index)
        if stg.stopping == "forced" and len(ranked) > sd.advance:
            self.eliminate(ranked[sd.advance:], "forced", now)
            stg.remaining = sd.advance
        stg.queue = []
        self.stage_end(now)
