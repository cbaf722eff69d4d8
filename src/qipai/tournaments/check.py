"""A checker for whole matches: it follows the events of a run with its own shadow model of points and tie-break
data (built from the events alone, ranked with the pure functions of :mod:`ranking`, :mod:`seating`,
:mod:`dali`, :mod:`prizes`) and checks the spec's invariants:

* every entrant of a round is placed exactly once (at one table of ``s``, or on a bye), and tables are full;
* byes: exactly ``n mod s`` per round with ``sit_out``, chosen by §3.5.3, and nobody gets a second bye before
  everyone has had one;
* every cut is exact (a ``fixed`` / Swiss cut keeps exactly ``keep``; a 打立 deal eliminates exactly what
  §3.3.4 says, never dropping ``R`` below ``N``; a forced finish and a stage's ``advance`` keep exactly ``N``);
* standings are a total order and match the shadow ranking; the final ranking has places ``1..n``, no gaps;
* carry-over is as specified (§3.7), points are the sum of counted deals and byes, each deal counted once;
* prizes are paid as declared (§2.6: humans only, in order, amounts as fixed, team splits), and a cancelled
  match refunds every fee it holds.

Use it as the ``observer`` of :func:`~qipai.tournaments.simulate.simulate`, then call :meth:`Checker.finish`:

>>> from .simulate import simulate, RandomPlayer
>>> chk = Checker({"preset": "sit_and_go_9"})
>>> res = simulate({"preset": "sit_and_go_9"}, 9, RandomPlayer(4), seed=1, observer=chk.observe)
>>> chk.finish(res.state)
[]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .dali import exact_cut
from .definition import Definition, parse_definition
from .events import (
    BotsAdded,
    DealCounted,
    DealStart,
    Eliminated,
    Event,
    FeeCharged,
    MatchCancelled,
    MatchOver,
    PrizePaid,
    PrizesFixed,
    QuitRequested,
    Refund,
    Registered,
    Removed,
    RoundStarted,
    StageOver,
    StageStarted,
    TableDone,
    TableFormed,
)
from .prizes import award, pool_size, prize_amounts, split_team
from .ranking import RankRow, carry_value, normalize_tiebreaks, sort_key
from .seating import choose_byes
from .state import MatchState


@dataclass
class _Shadow:
    reg: int
    bot: bool
    players: tuple[str, ...]
    status: str = "in"
    stage: int = -1
    points: int = 0
    last_deal: int = 0
    deals_won: int = 0
    byes: int = 0
    mates: dict[str, int] = field(default_factory=dict)
    prev_rank: int | None = None
    quit: bool = False


class CheckFailure(AssertionError):
    """The checker found a broken invariant; the message lists them."""


class Checker:
    """Follows one match's events; :attr:`errors` collects what is wrong (empty for a correct run)."""

    def __init__(self, definition: Mapping[str, Any] | Definition, *, strict: bool = True) -> None:
        self.d = parse_definition(definition)
        self.strict = strict
        self.errors: list[str] = []
        self.ents: dict[str, _Shadow] = {}
        self.stage = -1
        self.format = ""
        self.fees: dict[tuple[str, str], int] = {}
        self.refunds: dict[tuple[str, str], int] = {}
        self.keys: set[str] = set()
        self.tables: dict[str, TableFormed] = {}
        self.counted: dict[str, int] = {}
        self.started_deal: dict[str, int] = {}
        self.events: list[list[str]] = []
        self.prev_result: dict[str, int] = {}
        self.prev_standings: list[str] = []
        self.advancing: list[str] = []
        self.withdrawals = 0
        self.entered = 0
        self.expect_dali: tuple[list[str], list[str]] | None = None
        self.amounts: list[int] | None = None
        self.paid: list[PrizePaid] = []
        self.ranking: list[str] | None = None
        self.cancelled = False
        self.bots_this_stage: list[str] = []
        self.round_check: tuple[int, list[str], set[str]] | None = None
        self.stage_bots: set[str] = set()
        self.stage_open = False
        self.carried: list[int] = []
        self.steps = 0

    # ------------------------------------------------------------------ helpers

    def fail(self, msg: str) -> None:
        self.errors.append(msg)
        if self.strict:
            raise CheckFailure(msg)

    def in_stage(self) -> list[str]:
        return [i for i, e in self.ents.items() if e.status == "in" and e.stage == self.stage]

    def ranked(self, ids: Sequence[str] | None = None) -> list[str]:
        sd = self.d.stages[self.stage]
        keys = normalize_tiebreaks(sd.tiebreaks)
        ents = self.ents

        def row(i: str) -> RankRow:
            e = ents[i]
            b = sum(ents[m].points * n for m, n in e.mates.items()) if "buchholz" in keys else 0
            return RankRow(i, e.points, e.reg, e.last_deal, e.deals_won, b, e.prev_rank)

        rows = [row(i) for i in (self.in_stage() if ids is None else ids)]
        ks = [sort_key(r, keys) for r in rows]
        if len(set(ks)) != len(ks):
            self.fail("two entrants share every ranking key (standings are not a total order)")
        return [r.id for _, r in sorted(zip(ks, rows, strict=True), key=lambda p: p[0])]

    # ------------------------------------------------------------------ the observer

    def observe(self, state: MatchState, command: str, events: list[Event]) -> None:
        """Check one step: ``events`` as they came from the transition, ``state`` after it."""
        self.steps += 1
        for ev in events:
            self.event(ev)
        self.flush_round()
        if self.expect_dali is not None and self.expect_dali[0]:
            self.fail(f"a 打立 deal should have eliminated {self.expect_dali[0]}")
        self.expect_dali = None
        self.check_state(state)

    def event(self, ev: Event) -> None:
        if self.expect_dali is not None and not (isinstance(ev, Eliminated) and ev.kind == "dali"):
            if self.expect_dali[0]:
                self.fail(f"a 打立 deal should have eliminated {self.expect_dali[0]}, next came {ev.TYPE}")
            self.expect_dali = None
        d = self.d
        if isinstance(ev, Registered):
            self.ents[ev.entrant] = _Shadow(ev.reg, ev.bot, ev.players)
            if self.stage >= 0 and self.format == "dali" and not ev.bot:
                e = self.ents[ev.entrant]
                e.stage = self.stage
                e.points = d.stages[0].start_stack
                self.entered += 1
        elif isinstance(ev, FeeCharged):
            self.money_key(ev.key)
            k = (ev.entrant, ev.player)
            self.fees[k] = self.fees.get(k, 0) + ev.amount
            if ev.amount != d.entry.fee:
                self.fail(f"fee {ev.amount} is not the entry fee {d.entry.fee}")
        elif isinstance(ev, Refund):
            self.money_key(ev.key)
            k = (ev.entrant, ev.player)
            self.refunds[k] = self.refunds.get(k, 0) + ev.amount
            if self.refunds[k] > self.fees.get(k, 0):
                self.fail(f"refund to {k} exceeds the fee taken")
        elif isinstance(ev, Removed):
            e = self.ents[ev.entrant]
            if e.status != "in":
                self.fail(f"{ev.entrant} removed twice")
            e.status = "removed"
        elif isinstance(ev, QuitRequested):
            self.ents[ev.entrant].quit = True
        elif isinstance(ev, BotsAdded):
            if self.stage_open:
                sd = d.stages[self.stage]
                want = sd.start_stack if self.stage == 0 else min(self.carried, default=sd.start_stack)
                if ev.points != want:
                    self.fail(f"bots {ev.entrants} added with {ev.points}, not {want}")
            else:
                self.bots_this_stage.extend(ev.entrants)
            for b in ev.entrants:
                self.ents[b].points = ev.points
                self.ents[b].stage = self.stage if self.stage_open else self.stage + 1
        elif isinstance(ev, StageStarted):
            self.stage_started(ev)
        elif isinstance(ev, RoundStarted):
            self.flush_round()
            self.round_started(ev)
        elif isinstance(ev, TableFormed):
            self.table_formed(ev)
        elif isinstance(ev, DealStart):
            if ev.table not in self.tables:
                self.fail(f"deal started at {ev.table}, which is not open")
            elif ev.deal != self.counted.get(ev.table, 0) + 1 or ev.deal > self.tables[ev.table].table.deals:
                self.fail(f"deal {ev.deal} started at {ev.table} out of order")
            self.started_deal[ev.table] = ev.deal
            a = self.tables.get(ev.table)
            if a is not None:
                seat_pts = tuple(self.ents[e].points for e in a.table.seat_entrants)
                if ev.points != seat_pts:
                    self.fail(f"deal start at {ev.table}: seat points {ev.points}, shadow {seat_pts}")
        elif isinstance(ev, DealCounted):
            self.deal_counted(ev)
        elif isinstance(ev, TableDone):
            if ev.table not in self.tables:
                self.fail(f"table {ev.table} closed twice")
            else:
                del self.tables[ev.table]
        elif isinstance(ev, Eliminated):
            self.eliminated(ev)
        elif isinstance(ev, StageOver):
            self.stage_over(ev)
        elif isinstance(ev, PrizesFixed):
            self.prizes_fixed(ev)
        elif isinstance(ev, PrizePaid):
            self.money_key(ev.key)
            self.paid.append(ev)
        elif isinstance(ev, MatchOver):
            self.match_over(ev)
        elif isinstance(ev, MatchCancelled):
            self.cancelled = True
            for k, fee in self.fees.items():
                if self.refunds.get(k, 0) != fee:
                    self.fail(f"cancelled match: {k} paid {fee}, refunded {self.refunds.get(k, 0)}")
            if self.paid:
                self.fail("a cancelled match paid prizes")

    def money_key(self, key: str) -> None:
        if key in self.keys:
            self.fail(f"money event key {key} used twice")
        self.keys.add(key)

    # ------------------------------------------------------------------ stages and rounds

    def stage_started(self, ev: StageStarted) -> None:
        d = self.d
        k = ev.stage
        if k != self.stage + 1:
            self.fail(f"stage {k} started after stage {self.stage}")
        sd = d.stages[k]
        prev_in = self.in_stage() if self.stage >= 0 else []
        self.stage, self.format = k, sd.format
        bots = set(self.bots_this_stage)
        self.bots_this_stage = []
        self.stage_bots = bots
        self.withdrawals = 0
        field_set = set(ev.field)
        if len(field_set) != len(ev.field):
            self.fail("an entrant is twice in a stage's field")
        if k == 0:
            want = {i for i, e in self.ents.items() if e.status == "in"}
        else:
            want = {i for i in self.advancing if self.ents[i].status == "in"} | bots
            del prev_in
        if field_set != want:
            self.fail(f"stage {k} field {sorted(field_set)} is not {sorted(want)}")
        carried = []
        for i, p in zip(ev.field, ev.points, strict=True):
            e = self.ents[i]
            if i in bots:
                continue
            exp = sd.start_stack if k == 0 else carry_value(self.prev_result[i], sd.carry, sd.start_stack)
            if p != exp:
                self.fail(f"stage {k}: {i} entered with {p}, carry-over gives {exp}")
            carried.append(exp)
        self.carried = carried
        self.stage_open = True
        for i in bots:
            exp = sd.start_stack if k == 0 else min(carried, default=sd.start_stack)
            if self.ents[i].points != exp:
                self.fail(f"bot {i} entered with {self.ents[i].points}, not {exp}")
        place = {x: n + 1 for n, x in enumerate(self.prev_standings)} if k > 0 else {}
        for i, p in zip(ev.field, ev.points, strict=True):
            e = self.ents[i]
            e.stage, e.points, e.last_deal, e.deals_won, e.byes = k, p, 0, 0, 0
            e.mates = {}
            e.prev_rank = place.get(i)
        self.entered = len(ev.field)
        if list(ev.field) != self.ranked(list(ev.field)):
            self.fail(f"stage {k} field is not in standings order")

    def round_started(self, ev: RoundStarted) -> None:
        sd = self.d.stages[self.stage]
        s = self.d.s
        field = self.in_stage()
        n = len(field)
        b = n % s
        if len(ev.byes) != b or (b and sd.odd_field != "sit_out"):
            self.fail(f"round {ev.round}: {len(ev.byes)} byes for {n} entrants at tables of {s}")
        if ev.byes:
            had = {i: self.ents[i].byes for i in field}
            want = choose_byes(self.ranked(field), had, b)
            if list(ev.byes) != want:
                self.fail(f"round {ev.round}: byes {list(ev.byes)}, §3.5.3 gives {want}")
            chosen = set(ev.byes)
            low = min((c for i, c in had.items() if i not in chosen), default=None)
            for i in ev.byes:
                if low is not None and had[i] > low:
                    self.fail(f"{i} gets bye {had[i] + 1} while someone else has had only {low}")
                self.ents[i].byes += 1
                self.ents[i].points += sd.bye_points
        self.round_check = (ev.round, list(ev.tables), set(field) - set(ev.byes))

    def flush_round(self) -> None:
        if self.round_check is None:
            return
        r, keys, players = self.round_check
        self.round_check = None
        seen: list[str] = []
        for k in keys:
            tf = self.tables.get(k)
            if tf is None:
                self.fail(f"round {r}: table {k} was announced but not formed")
                continue
            seen.extend(tf.table.entrants)
        if sorted(seen) != sorted(players):
            self.fail(f"round {r}: placed {sorted(seen)}, expected each of {sorted(players)} once")

    def table_formed(self, ev: TableFormed) -> None:
        a = ev.table
        s = self.d.s
        if a.key in self.tables:
            self.fail(f"table {a.key} formed twice")
        if len(a.entrants) != s or len(set(a.entrants)) != s:
            self.fail(f"table {a.key} has entrants {a.entrants}, not {s} different ones")
        for other in self.tables.values():
            both = set(other.table.entrants) & set(a.entrants)
            if both:
                self.fail(f"{sorted(both)} seated at {a.key} while at {other.table.key}")
        for i in a.entrants:
            e = self.ents.get(i)
            if e is None or e.status != "in" or e.stage != self.stage:
                self.fail(f"{i} seated at {a.key} but not in the stage")
        if len(a.seats) != self.d.seats:
            self.fail(f"table {a.key} has {len(a.seats)} seats")
        if self.d.teams:
            x, y = a.entrants
            want = [self.ents[x].players[0], self.ents[y].players[0], self.ents[x].players[1],
                    self.ents[y].players[1]]
            if list(a.seats) != want or list(a.seat_entrants) != [x, y, x, y]:
                self.fail(f"team table {a.key}: seats {a.seats} are not {want}")
            if self.ranked([x, y]) != [x, y]:
                self.fail(f"team table {a.key}: the better-ranked team must sit at seats 0 and 2")
        elif list(a.seat_entrants) != list(a.entrants):
            self.fail(f"table {a.key}: seat entrants differ from its entrants")
        if a.points != tuple(self.ents[i].points for i in a.entrants):
            self.fail(f"table {a.key}: points {a.points} differ from the shadow")
        if self.format == "dali":
            sd = self.d.stages[self.stage]
            if a.line != sd.out_factor * a.base or a.base not in sd.levels:
                self.fail(f"table {a.key}: base {a.base} / line {a.line} are not a level's")
        for i in a.entrants:
            for o in a.entrants:
                if o != i:
                    self.ents[i].mates[o] = self.ents[i].mates.get(o, 0) + 1
        self.tables[a.key] = ev
        self.counted.setdefault(a.key, 0)

    def deal_counted(self, ev: DealCounted) -> None:
        tf = self.tables.get(ev.table)
        if tf is None:
            self.fail(f"deal counted at {ev.table}, which is not open")
            return
        if ev.deal != self.counted[ev.table] + 1 or ev.deal != self.started_deal.get(ev.table):
            self.fail(f"deal {ev.deal} of {ev.table} counted out of order (or twice)")
        self.counted[ev.table] = ev.deal
        if tuple(ev.entrants) != tf.table.entrants:
            self.fail(f"deal at {ev.table} counted for {ev.entrants}")
        for i, c in zip(ev.entrants, ev.changes, strict=True):
            e = self.ents[i]
            e.points += c
            e.last_deal = c
            if c > 0:
                e.deals_won += 1
        if self.format == "dali":
            sd = self.d.stages[self.stage]
            assert sd.advance is not None and tf.table.line is not None
            line = tf.table.line
            below = self.ranked([i for i in ev.entrants if self.ents[i].points < line])
            r = len(self.in_stage())
            self.expect_dali = (exact_cut(below, r, sd.advance), [])

    def eliminated(self, ev: Eliminated) -> None:
        ids = list(ev.entrants)
        if ev.kind == "dali":
            exp = self.expect_dali[0] if self.expect_dali else None
            self.expect_dali = None
            if exp is None or ids != exp:
                self.fail(f"打立 elimination {ids}, §3.3.4 gives {exp}")
        elif ev.kind in ("cut", "swiss_cut", "stage_cut", "forced"):
            sd = self.d.stages[self.stage]
            ranked = self.ranked()
            keep = len(ranked) - len(ids)
            if ranked[keep:] != ids:
                self.fail(f"{ev.kind}: eliminated {ids}, the standings' tail is {ranked[keep:]}")
            if ev.kind in ("stage_cut", "forced") and keep != sd.advance:
                self.fail(f"{ev.kind} kept {keep}, not advance {sd.advance}")
        elif ev.kind == "withdrawal":
            self.withdrawals += len(ids)
            for i in ids:
                if not self.ents[i].quit and not self.d.forfeit_absent:
                    self.fail(f"{i} withdrawn without asking")
            if ids != self.ranked(ids):
                self.fail(f"withdrawal event {ids} is not in standings order")
        else:
            self.fail(f"unknown elimination kind {ev.kind}")
        for i in ids:
            e = self.ents[i]
            if e.status != "in":
                self.fail(f"{i} eliminated while not in")
            e.status = "out"
            for tf in self.tables.values():
                if i in tf.table.entrants and ev.kind not in ("dali", "withdrawal", "forced"):
                    self.fail(f"{i} eliminated ({ev.kind}) while seated at {tf.table.key}")
        if ids:
            self.events.append(ids)

    def stage_over(self, ev: StageOver) -> None:
        self.stage_open = False
        sd = self.d.stages[self.stage]
        ranked = self.ranked()
        if list(ev.standings) != ranked:
            self.fail(f"stage {self.stage} standings {list(ev.standings)}, shadow {ranked}")
        if sd.format == "dali":
            assert sd.advance is not None
            if len(ranked) > sd.advance:
                self.fail(f"打立 stage ended with {len(ranked)} > advance {sd.advance}")
            if not self.withdrawals and len(ranked) != min(sd.advance, self.entered):
                self.fail(f"打立 stage ended with {len(ranked)}, not exactly {min(sd.advance, self.entered)}")
        if ev.advancing and list(ev.advancing) != ranked[:len(ev.advancing)]:
            self.fail("advancing entrants are not the head of the standings")
        if sd.advance is not None and self.stage < len(self.d.stages) - 1 \
                and len(ev.advancing) != min(sd.advance, len(ranked)):
            self.fail(f"{len(ev.advancing)} advance, not {min(sd.advance, len(ranked))}")
        self.prev_result = {i: self.ents[i].points for i in ranked}
        self.prev_standings = ranked
        self.advancing = list(ev.advancing)
        if self.tables and any(tf.table.stage == self.stage for tf in self.tables.values()):
            self.fail("a stage ended with tables in play")

    def prizes_fixed(self, ev: PrizesFixed) -> None:
        e = self.d.entry
        humans = [i for i, x in self.ents.items() if not x.bot and x.status != "removed"]
        paying = sum(len(self.ents[i].players) for i in humans if self.fees.get((i, self.ents[i].players[0])))
        if ev.humans != len(humans) or ev.paying != paying:
            self.fail(f"prizes fixed for {ev.humans} humans / {ev.paying} paying, shadow {len(humans)} / {paying}")
        want = prize_amounts(e.prizes, e.fee, paying, len(humans))
        if list(ev.amounts) != want:
            self.fail(f"prize amounts {list(ev.amounts)}, §2.6 gives {want}")
        if e.prizes.kind == "pool" and sum(want) != pool_size(e.fee, paying, e.prizes.rake_pct, e.prizes.guarantee):
            self.fail("pool split does not sum to the pool")
        self.amounts = list(ev.amounts)

    def match_over(self, ev: MatchOver) -> None:
        final = self.ranked() if self.stage >= 0 else []
        want = list(final)
        for ids in reversed(self.events):
            want.extend(ids)
        ranking = list(ev.ranking)
        if ranking != want:
            self.fail(f"final ranking {ranking}, §5.4 gives {want}")
        everyone = {i for i, e in self.ents.items() if e.status != "removed"}
        if sorted(ranking) != sorted(everyone) or len(set(ranking)) != len(ranking):
            self.fail("the final ranking does not place every entrant exactly once")
        self.ranking = ranking
        if self.amounts is None:
            self.fail("prizes were never fixed")
            return
        exp: list[tuple[str, str, int, int]] = []
        for i, place, amount in award([(x, self.ents[x].bot) for x in ranking], self.amounts):
            players = self.ents[i].players
            shares = split_team(amount) if len(players) == 2 else (amount,)
            exp.extend((i, p, place, a) for p, a in zip(players, shares, strict=True) if a > 0)
        got = [(p.entrant, p.player, p.place, p.amount) for p in self.paid]
        if got != exp:
            self.fail(f"prizes paid {got}, §2.6 gives {exp}")
        for p in self.paid:
            if self.ents[p.entrant].bot:
                self.fail(f"bot {p.entrant} took a prize")

    # ------------------------------------------------------------------ the state itself

    def check_state(self, st: MatchState) -> None:
        s = self.d.s
        seated: dict[str, str] = {}
        for key, t in st.tables.items():
            if len(t.entrants) != s:
                self.fail(f"state: table {key} has {len(t.entrants)} entrants")
            for i in t.entrants:
                if i in seated:
                    self.fail(f"state: {i} at {key} and {seated[i]}")
                seated[i] = key
        queue = st.stage.queue if st.stage else []
        if len(set(queue)) != len(queue):
            self.fail("state: an entrant is twice in the queue")
        qs = set(queue)
        count = 0
        for e in st.entrants.values():
            if e.status != "in":
                if e.id in seated or e.id in qs:
                    self.fail(f"state: {e.id} is {e.status} but seated or queued")
                continue
            if st.stage is not None and e.stage == st.stage.index:
                count += 1
            at = e.id in seated
            if at != (e.where == "table") or (at and e.table != seated[e.id]):
                self.fail(f"state: {e.id} where={e.where} table={e.table} but seated at {seated.get(e.id)}")
            if (e.id in qs) != (e.where == "queue"):
                self.fail(f"state: {e.id} where={e.where} but queued={e.id in qs}")
            if st.phase == "running" and st.stage is not None and self.stage == st.stage.index \
                    and e.stage == self.stage and e.id in self.ents and e.points != self.ents[e.id].points:
                self.fail(f"state: {e.id} has {e.points} points, the events give {self.ents[e.id].points}")
        stg = st.stage
        if stg is not None and st.phase == "running" and self.d.stages[stg.index].format == "dali" \
                and st.wake_at is None and stg.remaining != count:
            self.fail(f"state: R = {stg.remaining} but {count} entrants are in the stage")

    def finish(self, st: MatchState) -> list[str]:
        """Final checks once the run is over; returns the list of errors (raises in strict mode)."""
        if st.phase == "finished" and self.ranking is None:
            self.fail("the match finished without a final ranking")
        if st.phase == "finished" and list(st.ranking) != self.ranking:
            self.fail("the state's ranking differs from the MatchOver event")
        if st.phase == "cancelled" and not self.cancelled:
            self.fail("the match is cancelled but no MatchCancelled event came")
        if st.phase == "finished":
            for (i, p), fee in self.fees.items():
                if self.ents[i].status == "removed" and self.refunds.get((i, p), 0) != fee:
                    self.fail(f"{i} was removed before the start but {p} was not refunded")
        return list(self.errors)
