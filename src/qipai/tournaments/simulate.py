"""A pure simulator: run a whole match on a virtual clock, given a callable that plays one table.

``play_table(assignment)`` returns the table's results, one list of per-seat score changes per deal, in deal
order (as many as ``assignment.deals``; fewer means the table's game ended early, e.g. a Shengji match).  It must
be deterministic given the assignment (use ``assignment.deal_seed(n)`` for deal ``n``; ``assignment.points`` are
the seats' entrants' points at the start, for the 积分最小化原则).  A 打立 table may be stopped early by an
elimination; its later results are then not used.

Each deal takes ``deal_seconds`` of virtual time; registrations happen when registration opens; ``script`` adds
host commands at given times (late registrations, withdrawals, a cancellation).

>>> res = simulate({"preset": "sit_and_go_9"}, 9, RandomPlayer(1), seed=5)
>>> res.state.phase, len(res.ranking), res.deals, sum(res.prizes.values())
('finished', 9, 12, 810)
>>> simulate({"preset": "sit_and_go_9"}, 9, RandomPlayer(1), seed=5).ranking == res.ranking
True
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.rng import Rng
from .definition import Definition, parse_definition
from .errors import EntryError, StateError, TournamentError
from .events import DealStart, Event, MatchCancelled, PrizePaid, Refund, TableAssignment, TableFormed
from .machine import cancel, new_match, next_wakeup, register, report, tick, withdraw
from .state import MatchState, state_from_json, state_to_json

PlayTable = Callable[[TableAssignment], Sequence[Sequence[int]]]
Observer = Callable[[MatchState, str, list[Event]], None]


@dataclass(frozen=True, slots=True)
class EntrantSpec:
    """An entrant to register: ``players`` is one id, or ``[captain, partner]`` for a team."""

    id: str
    players: tuple[str, ...]
    bot: bool = False


@dataclass(frozen=True, slots=True)
class Command:
    """A host command at virtual time ``at``: ``register`` (``entrant``), ``withdraw`` (``entrant_id``) or
    ``cancel``."""

    at: int
    op: str
    entrant: EntrantSpec | None = None
    entrant_id: str = ""


@dataclass
class SimulationResult:
    """The end state, every event in order, the final ranking, prizes and refunds by player, and counts."""

    state: MatchState
    events: list[Event]
    ranking: list[str]
    prizes: dict[str, int]
    refunds: dict[str, int]
    deals: int
    tables: int
    end: int
    errors: list[str] = field(default_factory=list)


def make_entrants(n: int, teams: bool = False, bots: int = 0, prefix: str = "p") -> list[EntrantSpec]:
    """``n`` entrants ``p1 … pn`` (teams ``t1`` = players ``t1a``, ``t1b``), the last ``bots`` of them bots.

    >>> [e.players for e in make_entrants(2, teams=True, prefix="t")]
    [('t1a', 't1b'), ('t2a', 't2b')]
    """
    out = []
    for i in range(1, n + 1):
        eid = f"{prefix}{i}"
        out.append(EntrantSpec(eid, (eid + "a", eid + "b") if teams else (eid,), bot=i > n - bots))
    return out


def simulate(definition: Mapping[str, Any] | Definition, entrants: int | Sequence[EntrantSpec],
             play_table: PlayTable, seed: int, *, deal_seconds: int = 60, start: int = 1_700_000_000,
             script: Sequence[Command] = (), observer: Observer | None = None, match_id: str = "sim",
             busy: Sequence[str] = (), max_steps: int = 1_000_000, restart_every: int = 0,
             pure: bool = False) -> SimulationResult:
    """Run a whole match.  ``entrants``: a count (see :func:`make_entrants`) or the entrants to register when
    registration opens.  ``observer(state, command, events)`` is called after every step (the checker uses it).
    Raises :class:`TournamentError` if the match can make no progress (e.g. a ``when_full`` match that never
    fills).

    ``restart_every = k > 0`` simulates a host restart after every ``k``-th step: the state is written to JSON
    text and read back, and the last deal result is delivered again (it must be ignored).  ``pure`` calls the
    transitions in their copying form and checks that each leaves the state it was given unchanged."""
    d = parse_definition(definition)
    specs = make_entrants(entrants, d.teams) if isinstance(entrants, int) else list(entrants)
    start_at = None
    t0 = start
    if d.entry.start == "at_time":
        start_at = d.entry.start_at if d.entry.start_at is not None else start + d.entry.reg_opens_s
        t0 = start_at - d.entry.reg_opens_s
    st = new_match(d, match_id=match_id, seed=seed, now=t0, start_at=start_at)
    events: list[Event] = []
    results: dict[str, Sequence[Sequence[int]]] = {}
    assigned: dict[str, TableAssignment] = {}
    heap: list[tuple[int, int, str, int]] = []
    counter = 0
    deals = tables = 0
    now = t0

    def step(fn: Callable[..., tuple[MatchState, list[Event]]], *args: Any, **kw: Any) -> list[Event]:
        nonlocal st
        if not pure:
            _, evs = fn(st, *args, copy=False, **kw)
            return evs
        before = json.dumps(state_to_json(st), sort_keys=True)
        new, evs = fn(st, *args, **kw)
        if json.dumps(state_to_json(st), sort_keys=True) != before:
            raise TournamentError(f"{fn.__name__} changed the state it was given")
        st = new
        return evs

    def handle(cmd: str, evs: list[Event]) -> None:
        nonlocal counter, tables
        if observer is not None:
            observer(st, cmd, evs)
        events.extend(evs)
        for ev in evs:
            if isinstance(ev, TableFormed):
                a = ev.table
                res = play_table(a)
                if not 1 <= len(res) <= a.deals:
                    raise TournamentError(f"play_table gave {len(res)} results for table {a.key} of {a.deals} deals")
                results[a.key] = res
                assigned[a.key] = a
                tables += 1
            elif isinstance(ev, DealStart):
                counter += 1
                heapq.heappush(heap, (now + deal_seconds, counter, ev.table, ev.deal))
            elif isinstance(ev, MatchCancelled):
                heap.clear()

    for spec in specs:
        if st.phase not in ("registration",):
            break
        evs = step(register, spec.id, list(spec.players), t0, bot=spec.bot)
        handle(f"register {spec.id}", evs)
    pending = sorted(script, key=lambda c: c.at)
    pi = 0
    last_report: tuple[str, int, list[int], bool] | None = None
    for n_step in range(max_steps):
        if st.phase in ("finished", "cancelled"):
            break
        if restart_every and n_step % restart_every == restart_every - 1:
            st = state_from_json(json.loads(json.dumps(state_to_json(st))))
            if last_report is not None:
                key, n, scores, ended = last_report
                again = step(report, key, n, scores, now, ended=ended)
                if again:
                    raise TournamentError(f"a deal reported again after a restart was counted: {key} {n}")
        wake = next_wakeup(st)
        cands = []
        if heap:
            cands.append((heap[0][0], 0))
        if wake is not None:
            cands.append((max(wake, now), 1))
        if pi < len(pending):
            cands.append((max(pending[pi].at, now), 2))
        if not cands:
            raise TournamentError(f"the match cannot progress (phase {st.phase}): nothing in play, nothing due")
        now, kind = min(cands)
        if kind == 0:
            _, _, key, n = heapq.heappop(heap)
            res = results[key]
            scores = list(res[n - 1])
            ended = n == len(res) and len(res) < assigned[key].deals
            evs = step(report, key, n, scores, now, ended=ended)
            last_report = (key, n, scores, ended)
            deals += 1
            handle(f"report {key} {n}", evs)
        elif kind == 1:
            evs = step(tick, now, busy=busy)
            if not evs and next_wakeup(st) == wake and not heap and pi >= len(pending):
                raise TournamentError(f"the match is stuck at {now} (phase {st.phase}): its wake-up does nothing")
            handle("tick", evs)
        else:
            c = pending[pi]
            pi += 1
            try:
                if c.op == "register" and c.entrant is not None:
                    evs = step(register, c.entrant.id, list(c.entrant.players), now, bot=c.entrant.bot)
                elif c.op == "withdraw":
                    evs = step(withdraw, c.entrant_id, now)
                elif c.op == "cancel":
                    evs = step(cancel, now, "script")
                else:
                    raise TournamentError(f"unknown command {c.op!r}")
            except (EntryError, StateError):
                continue  # a scripted command the match refuses now (full, closed, already out) is skipped
            handle(f"{c.op} {c.entrant.id if c.entrant else c.entrant_id}", evs)
    else:
        raise TournamentError("the simulation did not finish within max_steps")
    prizes: dict[str, int] = {}
    refunds: dict[str, int] = {}
    for ev in events:
        if isinstance(ev, PrizePaid):
            prizes[ev.player] = prizes.get(ev.player, 0) + ev.amount
        elif isinstance(ev, Refund):
            refunds[ev.player] = refunds.get(ev.player, 0) + ev.amount
    return SimulationResult(st, events, list(st.ranking), prizes, refunds, deals, tables, now)


class RandomPlayer:
    """A random-score stand-in for a game.  Three- and four-seat tables without teams play a Dou-Dizhu-like
    deal: one seat against the others, each other seat owing ``base × m`` (``m`` from 1, 2, 4, 8 …); with
    ``cap`` on, every payment is capped by the 积分最小化原则 (the winner's points before the deal, the loser's
    points left), so points stay ``≥ 0`` and each deal sums to 0.  Team tables (seats 0/2 against 1/3) give the
    winning team ``+d × base`` and the losers ``−d × base``; with ``early_end`` a team table's game may end
    before its last deal.  Deterministic given the assignment's seed.

    >>> a = TableAssignment("1.1.1", 0, 0, 1, ("x", "y", "z"), ("x", "y", "z"), ("x", "y", "z"), 2, 10, None,
    ...                     (1000, 5, 1000), 99)
    >>> res = RandomPlayer(3)(a)
    >>> len(res), all(sum(r) == 0 for r in res)
    (2, True)
    """

    def __init__(self, seed: int = 0, *, cap: bool = True, max_doublings: int = 3, early_end: float = 0.0) -> None:
        self.seed = seed
        self.cap = cap
        self.max_doublings = max_doublings
        self.early_end = early_end

    def __call__(self, a: TableAssignment) -> list[list[int]]:
        rng = Rng(a.seed ^ (self.seed * 0x9E3779B97F4A7C15))
        seats = len(a.seats)
        team = seats == 4 and len(a.entrants) == 2
        pts = [a.points[a.entrants.index(e)] for e in a.seat_entrants]
        out: list[list[int]] = []
        for _ in range(a.deals):
            if team:
                d = 1 + rng.below(3)
                sign = 1 if rng.below(2) else -1
                row = [sign * d * a.base, -sign * d * a.base] * 2
            else:
                lord = rng.below(seats)
                wins = rng.below(2) == 0
                m = 1 << rng.below(self.max_doublings + 1)
                row = [0] * seats
                before = list(pts)
                left = list(pts)
                for f in range(seats):
                    if f == lord:
                        continue
                    owed = a.base * m
                    payer, payee = (f, lord) if wins else (lord, f)
                    paid = max(0, min(owed, before[payee], left[payer])) if self.cap else owed
                    left[payer] -= paid
                    row[payer] -= paid
                    row[payee] += paid
            for i in range(seats):
                pts[i] += row[i]
            out.append(row)
            if team and self.early_end and rng.below(1000) < int(self.early_end * 1000):
                break
        return out
