"""The ``search`` bot: sample the hidden hands, try each candidate move on the samples, keep the best.

The idea (determinised Monte Carlo, "PIMC"): the cards this seat cannot see are dealt at random to the other
seats, consistent with everything public, many times over.  Each candidate move is then played on every
sampled deal and the deal is finished quickly; the move that wins most often across the samples is played.

1. **Sampling what is hidden** (:class:`Sampler`).  The unseen cards are the cards not in this hand and not
   yet played (card counting).  Each other seat gets as many as it holds; cards known to be in a hand (the
   landlord's remaining kitty cards when the kitty was shown, a shown hand) are placed first.  Passes narrow
   the deal: a player who passed on an enemy's play could not have gone out by beating it (such a sample is
   rejected), and probably held no answer made of whole ranks of its hand without a two or joker (such a
   sample is kept with probability :data:`PASS_EVIDENCE`).
2. **Candidates.**  The legal actions, or when there are many, the ones the heuristic bot ranks best: its own
   choice, passing, the plays of its plan, the cheapest and the highest answers and the smallest bomb.  With
   ``prior="dmc"`` the learned action values' (:mod:`~qipai.games.doudizhu.bots.dmc`) :data:`PRIOR_TOP` best
   moves come first, their best one ahead of the heuristic's choice.
3. **Evaluation.**  Every candidate is played on the same samples (common random numbers, so differences are
   measured precisely), and each sample is finished by a **play-out** in which every seat plays the heuristic
   bot's policy from its own point of view (its hand, and the other hands together as the unseen cards).
   ``fast_playouts=True`` uses a leaner policy instead (plan once, lead the weakest play of the plan, answer
   with the cheapest play of the plan that beats): five times faster, weaker; a ``playout_policy``
   (:mod:`~qipai.games.doudizhu.bots.playout`, learned from the search's own choices) draws the moves instead,
   for every seat or one side's (``learned_seats``); ``explore`` makes a heuristic play-out seat play another of
   its candidate moves with that probability.  Stochastic play-outs draw from a stream per sample, the same for
   every candidate (common random numbers).
   When few cards are left (:data:`SOLVE_CARDS` in all hands) the sample is instead **solved exactly** by a
   perfect-information AND/OR search with a transposition table.
4. **Budget.**  Samples are drawn until the time budget per move is spent (default 1 s on one core,
   ``time_budget``) or, for reproducible games, exactly ``samples`` of them.  Every 8 samples a candidate
   clearly worse than the best (its paired difference more than three standard errors) is dropped; when one
   candidate is left, or every candidate wins (or loses) at least 98% of the samples, the bot answers at once.
5. **Choice.**  The candidate with the best win rate over the samples, except that the first candidate (the
   heuristic's own choice, or the learned values' with ``prior="dmc"``) stands unless another beats it by more
   than :data:`MARGIN` and one standard error of the paired difference: a move that only looks better by noise
   is not taken.

Bidding, doubling and showing the hand use the heuristic bot's hand-strength rules, or with ``bidding="odds"``
bids follow the calibrated odds of :mod:`~qipai.games.doudizhu.bots.bidding`.

>>> from qipai.games.doudizhu.rules import PRESETS
>>> from qipai.games.doudizhu.state import Game
>>> g = Game.new(PRESETS["classic"], seed=3)
>>> bot = SearchBot(seed=1, samples=8)
>>> g.apply("bid 3")
>>> bot.act(g.observe(g.to_act), g.legal_actions()) in g.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ....core.options import Option, OptionSet
from ..cards import BLACK_JOKER, NUM_RANKS, TWO
from ..combos import Move, beats, classify
from ..moves import legal_moves
from ..rules import Rules
from .hand import best_plan, minus, plan_score, rules_key
from .heuristic import HeuristicBot, Situation, _lead_key, choose_play, decide_non_play, situation_of, unbeatable
from .playout import CANDIDATES, PlayoutPolicy, candidates
from .view import View, action_moves, card_actions, read_view

PASS_EVIDENCE = 0.35
"""Probability of keeping a sample in which a player who passed held a clean answer."""

BELIEF_DECISIONS = 8
"""How many of the other seats' latest decisions a sample is checked against (beliefs)."""

BELIEF_PROPOSALS = 3
"""Candidate deals drawn for each sample kept (beliefs)."""

BELIEF_SEATS = ("all", "partner", "enemy")
"""Whose decisions weigh the samples (beliefs): every other seat's, the partner's only, or the enemies' only."""

LEARNED_SEATS = ("all", "own", "enemies")
"""Which seats of a play-out play the learned policy (the others the heuristic): all, this side's, the other's."""

PRIORS = ("heuristic", "dmc")
"""Whose choice a search compares the other candidates against: the heuristic bot's, or the ``dmc`` bot's."""

PRIOR_TOP = 3
"""With the ``dmc`` prior, how many of its best moves are among the candidates."""

SOLVE_CARDS = 18
"""Samples with at most this many cards in all hands together are solved exactly."""

SOLVE_NODES = 3000
"""Node limit of one exact solve; beyond it the sample is played out instead."""

ACE = 11

MARGIN = 0.02
"""How much better (in win rate over the samples) a move must look to overrule the heuristic's choice; it
must also beat it by one standard error of the paired difference."""

OPTIONS = OptionSet([
    Option("time", float, 1.0, lo=0.001, hi=3600.0, doc="seconds per move"),
    Option("samples", int, None, lo=1, hi=10**7, nullable=True,
           doc="a fixed number of sampled deals per move (reproducible) instead of a time budget"),
    Option("playout", str, "heuristic", choices=("heuristic", "fast", "learned"),
           doc="the play-out policy (learned: the heuristic corrected by weights fitted to the search's choices)"),
    Option("weights", str, "", doc="the learned play-out policy's weights file (default: the committed ones)"),
    Option("candidates", int, 8, lo=1, hi=1000, doc="how many moves are compared at most"),
    Option("clock", str, "cpu", choices=("cpu", "wall"), doc="how the budget is measured (the arena: CPU time)"),
    Option("belief", float, 1.0, lo=0.001, hi=1.0, doc="weight of a deal per decision it does not explain"),
    Option("proposals", int, BELIEF_PROPOSALS, lo=1, hi=1000, doc="candidate deals per sample (beliefs)"),
    Option("bid", str, "heuristic", choices=("heuristic", "odds"), doc="how bids are chosen"),
    Option("leaf", str, "playout", choices=("playout", "value"), doc="how a sample is finished"),
    Option("depth", int, 8, lo=0, hi=1000, doc="play-out moves before the learned leaf value"),
    Option("solve", int, SOLVE_CARDS, lo=0, hi=200, doc="solve exactly with at most this many cards left"),
    Option("nodes", int, SOLVE_NODES, lo=1, hi=10**8, doc="node limit of one exact solve"),
    Option("margin", float, MARGIN, lo=0.0, hi=1.0, doc="how much better a move must look than the heuristic's"),
    Option("learned", str, "all", choices=LEARNED_SEATS,
           doc="which seats play the learned play-out policy: all, this side's or the other side's"),
    Option("explore", float, 0.0, lo=0.0, hi=1.0,
           doc="in heuristic play-outs, the chance that a seat plays another of its candidate moves instead"),
    Option("prior", str, "heuristic", choices=PRIORS,
           doc="whose choice is the move to beat (and whose best moves are compared): the heuristic's, or the "
               "learned action values' (dmc; three players, one deck)"),
    Option("blend", float, 0.0, lo=0.0, hi=0.9,
           doc="the weight of the learned action values (dmc) in a candidate's score, beside its play-outs' win "
               "rate (three players, one deck)"),
    Option("reply", int, 0, lo=0, hi=20,
           doc="the first enemy decision after a move picks the best for it of this many replies (0 or 1: its "
               "policy's)"),
])
"""The options of a ``search:key=value,...`` bot spec (see :func:`~qipai.games.doudizhu.bots.arena.make_bot`)."""


# --------------------------------------------------------------------------------------------- play-outs
class Sim:
    """A perfect-information deal in the play phase, played to the end by the fast play-out policy."""

    __slots__ = ("explore", "fast", "hands", "landlord", "last", "last_by", "learned", "learned_side", "left", "n",
                 "plans", "rng", "rules", "to_act", "total")

    def __init__(self, rules: Rules, hands: list[list[int]], landlord: int, to_act: int, last: Move | None,
                 last_by: int, fast: bool = True, learned: PlayoutPolicy | None = None,
                 rng: random.Random | None = None, explore: float = 0.0, learned_side: bool | None = None) -> None:
        self.fast = fast
        self.explore = explore
        self.learned_side = learned_side
        """With a learned policy: None, every seat plays it; True, the landlord's side only; False, the farmers."""
        self.learned = learned
        self.rng = rng
        self.rules = rules
        self.n = len(hands)
        self.hands = hands
        self.left = [sum(h) for h in hands]
        self.total = [sum(h[r] for h in hands) for r in range(NUM_RANKS)]
        self.landlord = landlord
        self.to_act = to_act
        self.last = last
        self.last_by = last_by
        self.plans: list[list[Move] | None] = [None] * self.n

    def copy(self) -> Sim:
        s = Sim.__new__(Sim)
        s.rules = self.rules
        s.n = self.n
        s.hands = [list(h) for h in self.hands]
        s.left = list(self.left)
        s.total = list(self.total)
        s.landlord = self.landlord
        s.to_act = self.to_act
        s.last = self.last
        s.last_by = self.last_by
        s.plans = [None if p is None else list(p) for p in self.plans]
        s.fast = self.fast
        s.explore = self.explore
        s.learned_side = self.learned_side
        s.learned = self.learned
        s.rng = self.rng
        return s

    def apply(self, m: Move | None) -> int | None:
        """The seat to act plays ``m`` (``None`` passes); returns the seat that went out, if any."""
        s = self.to_act
        nxt = (s + 1) % self.n
        if m is None:
            if nxt == self.last_by:
                self.last = None
            self.to_act = nxt
            return None
        h = self.hands[s]
        total = self.total
        for r, k in m.parts:
            h[r] -= k
            total[r] -= k
        self.left[s] -= m.size
        p = self.plans[s]
        if p is not None:
            for i, g in enumerate(p):
                if g is m:
                    del p[i]
                    break
            else:
                self.plans[s] = None
        self.last = m
        self.last_by = s
        self.to_act = nxt
        return s if self.left[s] == 0 else None

    def plan(self, s: int) -> list[Move]:
        p = self.plans[s]
        if p is None:
            p = self.plans[s] = list(best_plan(tuple(self.hands[s]), self.rules).moves)
        return p

    def partner(self, a: int, b: int) -> bool:
        return a != b and a != self.landlord and b != self.landlord

    def pool(self, s: int) -> tuple[int, ...]:
        """The other hands together (what seat ``s`` cannot see)."""
        h = self.hands[s]
        return tuple([t - x for t, x in zip(self.total, h, strict=True)])

    def policy(self) -> Move | None:
        """The play-out policy for the seat to act: the fast one, the heuristic bot's, or the learned one."""
        if not self.fast:
            s = self.to_act
            sit = Situation(self.rules, s, self.n, self.landlord, tuple(self.hands[s]), self.left, self.last,
                            self.last_by, self.pool(s))
            if self.learned is not None and (self.learned_side is None or (s == self.landlord) == self.learned_side):
                return self.learned.choose(sit, self.rng)
            pick = choose_play(sit)
            if self.explore and self.rng is not None and self.rng.random() < self.explore:
                # another of the moves the learned policy would weigh, uniformly
                others = candidates(sit, CANDIDATES, pick, self.plan(s))[1:]
                if others:
                    return others[int(self.rng.random() * len(others))]
            return pick
        return self.fast_policy()

    def fast_policy(self) -> Move | None:
        """The fast play-out policy for the seat to act."""
        s = self.to_act
        plan = self.plan(s)
        last = self.last
        left = self.left
        landlord = self.landlord
        farmer = s != landlord
        if last is None:
            if len(plan) == 1:
                return plan[0]
            if left[s] <= 6:
                whole = classify(tuple(self.hands[s]), self.rules)
                if whole:
                    return whole[-1]
            enemies = [landlord] if farmer else [o for o in range(self.n) if o != s]
            mn = min(left[e] for e in enemies)
            if len(plan) <= 3:
                mx = max(left[e] for e in enemies)
                pool = self.pool(s)
                winners = [g for g in plan if unbeatable(g, pool, mx, self.rules)]
                if winners and len(plan) - len(winners) <= 1:
                    return min(winners, key=lambda g: (g.is_bomb, -g.size))
            if farmer and left[landlord] > 1:
                nxt = (s + 1) % self.n
                if nxt != landlord and left[nxt] == 1:
                    singles = [g for g in plan if g.kind == "single"]
                    if singles:
                        return min(singles, key=lambda g: g.main)
                    h = self.hands[s]
                    r = next(k for k in range(NUM_RANKS) if h[k])
                    return legal_moves_single(r, self.rules)
            safe = [g for g in plan if not g.is_bomb] or plan
            if mn <= 2:
                other = [g for g in safe if g.size != mn]
                if other:
                    safe = other
                else:
                    return max(safe, key=lambda g: g.main)
            return min(safe, key=_lead_key)
        by = self.last_by
        if farmer and by != landlord:  # a partner is winning the trick
            if len(plan) == 1 and beats(plan[0], last):
                return plan[0]
            return None
        best: Move | None = None
        for g in plan:
            if not g.is_bomb and g.kind == last.kind and g.length == last.length and g.size == last.size \
                    and g.main > last.main and (best is None or g.main < best.main):
                best = g
        danger = left[by] <= 2 or (farmer and left[by] <= 4 and last.size >= 2)
        if danger:
            answers = legal_moves(tuple(self.hands[s]), self.rules, last)
            normal = [a for a in answers if not a.is_bomb]
            if normal:
                return max(normal, key=lambda a: (a.main, -a.size))
            if answers:
                return min(answers, key=lambda a: (a.size, a.main))
            return None
        if best is not None:
            if best.main >= TWO and last.main < ACE and left[s] > 8 and len(plan) > 3:
                return None
            return best
        if len(plan) <= 3:
            for g in plan:
                if g.is_bomb and beats(g, last):
                    return g
        if last.kind == "single" and last.main < TWO:
            # break a pair of twos or use a joker against a single when the plan has no single to give
            h = self.hands[s]
            for r in (TWO, BLACK_JOKER, BLACK_JOKER + 1):
                if r > last.main and h[r] and (r != TWO or h[r] < self.rules.bomb_min) \
                        and (farmer or len(plan) <= 5):
                    return legal_moves_single(r, self.rules)
        return None

    def replies(self, k: int) -> list[Move | None]:
        """At most ``k`` moves for the seat to act, its policy's first: passing, the highest answer and the
        smallest bomb when facing a play; the plays of its plan (lowest first) when leading."""
        first = self.policy()
        s = self.to_act
        sit = Situation(self.rules, s, self.n, self.landlord, tuple(self.hands[s]), self.left, self.last,
                        self.last_by, self.pool(s))
        return candidates(sit, k, first, self.plan(s))

    def playout_upto(self, moves: int) -> int | None:
        """Play at most ``moves`` moves; the seat that went out, or ``None`` if nobody has yet."""
        for _ in range(moves):
            out = self.apply(self.policy())
            if out is not None:
                return out
        return None

    def playout(self) -> int:
        """Play to the end; returns the seat that went out first."""
        for _ in range(400):
            out = self.apply(self.policy())
            if out is not None:
                return out
        raise RuntimeError("play-out did not finish")  # pragma: no cover


_SINGLES: dict[tuple[int, int], Move] = {}


def legal_moves_single(r: int, rules: Rules) -> Move:
    """The single of rank ``r``."""
    key = (r, rules_key(rules))
    m = _SINGLES.get(key)
    if m is None:
        c = [0] * NUM_RANKS
        c[r] = 1
        m = _SINGLES[key] = classify(tuple(c), rules)[0]
    return m


# --------------------------------------------------------------------------------------------- exact solver
class _TooBig(Exception):
    pass


class Solver:
    """Perfect-information AND/OR search: does the landlord's side win from this position?"""

    def __init__(self, rules: Rules, landlord: int, n: int, node_limit: int = SOLVE_NODES) -> None:
        self.rules = rules
        self.landlord = landlord
        self.n = n
        self.memo: dict[tuple[Any, ...], bool] = {}
        self.nodes = 0
        self.limit = node_limit

    def landlord_wins(self, hands: tuple[tuple[int, ...], ...], to_act: int, last: Move | None,
                      last_by: int) -> bool:
        """Raises ``_TooBig`` past the node limit."""
        if last is not None and to_act == last_by:
            last = None
        key = (hands, to_act, last, last_by if last is not None else -1)
        got = self.memo.get(key)
        if got is not None:
            return got
        self.nodes += 1
        if self.nodes > self.limit:
            raise _TooBig
        hand = hands[to_act]
        mine = to_act == self.landlord
        moves = legal_moves(hand, self.rules, last)
        total = sum(hand)
        nxt = (to_act + 1) % self.n
        result = not mine  # value if no move achieves the side's goal
        for mv in moves:
            if mv.size == total:
                result = mine
                self.memo[key] = result
                return result
        moves.sort(key=lambda mv: -mv.size)
        options: list[Move | None] = [*moves]
        if last is not None:
            options.append(None)
        for opt in options:
            if opt is None:
                v = self.landlord_wins(hands, nxt, last, last_by)
            else:
                h = tuple([hand[r] - opt.counts[r] for r in range(NUM_RANKS)])
                hs = (*hands[:to_act], h, *hands[to_act + 1:])
                v = self.landlord_wins(hs, nxt, opt, to_act)
            if v == mine:
                result = mine
                break
        self.memo[key] = result
        return result


# --------------------------------------------------------------------------------------------- sampling
class Sampler:
    """Deals the unseen cards to the other seats, consistent with what this seat has seen.

    With ``belief`` below 1, each sample is chosen among ``proposals`` candidate deals in proportion to how
    well it explains the other seats' recent decisions: for each of their last :data:`BELIEF_DECISIONS` plays
    and passes, the heuristic's policy is run from that seat's point of view at that moment (its hand then
    being the sampled hand plus what it played since); a decision the policy would have made counts 1, any
    other ``belief`` (sampling-importance-resampling under a model of their play).  ``belief_seats`` says whose
    decisions count (:data:`BELIEF_SEATS`; ``bench/inference.py`` compares them).
    """

    def __init__(self, view: View, rng: random.Random, evidence: float = PASS_EVIDENCE, belief: float = 1.0,
                 proposals: int = BELIEF_PROPOSALS, belief_seats: str = "all") -> None:
        if belief_seats not in BELIEF_SEATS:
            raise ValueError(f"belief seats must be one of {', '.join(BELIEF_SEATS)}, not {belief_seats!r}")
        self.v = view
        self.belief_seats = belief_seats
        self.rng = rng
        self.evidence = evidence
        self.belief = belief
        self.proposals = max(1, proposals)
        n = view.players
        self.known = [list(view.known.get(s, [0] * NUM_RANKS)) if s != view.seat else [0] * NUM_RANKS
                      for s in range(n)]
        pool = list(view.unseen)
        for s in range(n):
            for r in range(NUM_RANKS):
                k = min(self.known[s][r], pool[r])
                self.known[s][r] = k
                pool[r] -= k
        self.cards = [r for r in range(NUM_RANKS) for _ in range(pool[r])]
        self.need = [0 if s == view.seat else max(0, view.card_counts[s] - sum(self.known[s])) for s in range(n)]
        # passes on an enemy's play: (seat, the play, the cards that seat played since)
        self.checks: list[tuple[int, Move, list[int]]] = []
        later = [[0] * NUM_RANKS for _ in range(n)]
        for ev in reversed(view.plays):
            if ev.move is not None:
                for r in range(NUM_RANKS):
                    later[ev.seat][r] += ev.move.counts[r]
            elif ev.facing is not None and ev.seat != view.seat and not self._same_side(ev.seat, ev.facing_by):
                self.checks.append((ev.seat, ev.facing, list(later[ev.seat])))
            if len(self.checks) >= 12:
                break
        self.decisions = self._past_decisions() if belief < 1.0 else []

    def _past_decisions(self) -> list[tuple[int, list[int], list[int], Move | None, int, list[int], Move | None]]:
        """The other seats' recent play decisions: (seat, cards it played from then on, every seat's card
        count then, the move it faced, by whom, all cards played before it, what it did)."""
        v = self.v
        n = v.players
        counts = list(v.card_counts)
        played = [sum(v.played[s][r] for s in range(n)) for r in range(NUM_RANKS)]
        later = [[0] * NUM_RANKS for _ in range(n)]
        out: list[tuple[int, list[int], list[int], Move | None, int, list[int], Move | None]] = []
        for ev in reversed(v.plays):
            if ev.move is not None:
                for r, k in ev.move.parts:
                    later[ev.seat][r] += k
                    played[r] -= k
                counts[ev.seat] += ev.move.size
            if ev.seat != v.seat and self._believed(ev.seat):
                out.append((ev.seat, list(later[ev.seat]), list(counts), ev.facing, ev.facing_by, list(played),
                            ev.move))
                if len(out) >= BELIEF_DECISIONS:
                    break
        return out

    def _believed(self, seat: int) -> bool:
        """Whether ``seat``'s decisions weigh the samples (``belief_seats``)."""
        if self.belief_seats == "all":
            return True
        return self.v.is_partner(seat) == (self.belief_seats == "partner")

    def consistency(self, hands: list[list[int]]) -> float:
        """How well a sample explains the other seats' recent decisions under the heuristic's policy."""
        v = self.v
        assert v.landlord is not None
        rules = v.rules
        total = [rules.decks * (1 if r >= 13 else 4) for r in range(NUM_RANKS)]
        w = 1.0
        for seat, later, counts, facing, facing_by, played, move in self.decisions:
            h = hands[seat]
            then = tuple([h[r] + later[r] for r in range(NUM_RANKS)])
            pool = tuple([total[r] - then[r] - played[r] for r in range(NUM_RANKS)])
            pick = choose_play(Situation(rules, seat, v.players, v.landlord, then, counts, facing, facing_by, pool))
            same = (pick is None and move is None) or (pick is not None and move is not None
                                                        and pick.counts == move.counts)
            if not same:
                w *= self.belief
        return w

    def _same_side(self, a: int, b: int) -> bool:
        ll = self.v.landlord
        return (a == ll) == (b == ll)

    def deal(self) -> list[list[int]]:
        """One sample: every seat's hand as rank counts (this seat's own hand included)."""
        if self.belief >= 1.0 or not self.decisions or self.proposals == 1:
            return self._deal()
        props = [self._deal() for _ in range(self.proposals)]
        ws = [self.consistency(h) for h in props]
        return self.rng.choices(props, weights=ws)[0]

    def _deal(self) -> list[list[int]]:
        v = self.v
        best: list[list[int]] | None = None
        best_w = -1.0
        for _ in range(24):
            cards = self.cards[:]
            self.rng.shuffle(cards)
            hands: list[list[int]] = []
            i = 0
            for s in range(v.players):
                if s == v.seat:
                    hands.append(list(v.hand))
                    continue
                h = list(self.known[s])
                for r in cards[i:i + self.need[s]]:
                    h[r] += 1
                i += self.need[s]
                hands.append(h)
            w = self.weight(hands)
            if w >= 1.0 or self.rng.random() < w:
                return hands
            if w > best_w:
                best, best_w = hands, w
        assert best is not None
        return best

    def weight(self, hands: list[list[int]]) -> float:
        """How plausible a sample is given the passes (0: impossible)."""
        w = 1.0
        rules = self.v.rules
        for seat, facing, later in self.checks:
            h = hands[seat]
            then = tuple([h[r] + later[r] for r in range(NUM_RANKS)])
            answers = legal_moves(then, rules, facing)
            total = sum(then)
            for a in answers:
                if a.size == total:
                    return 0.0
            for a in answers:
                if a.is_bomb or a.main >= TWO:
                    continue
                if all(then[r] == a.counts[r] for r in range(NUM_RANKS) if a.counts[r]):
                    w *= self.evidence
                    break
        return w


# --------------------------------------------------------------------------------------------- the bot
CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}
"""How a time budget may be measured: elapsed time, or CPU time of the deciding thread."""


class SearchBot:
    """The ``search`` bot (see the module docstring).

    ``time_budget``: seconds per decision (default 1.0); ``samples``: a fixed number of samples per decision
    instead (reproducible); ``max_candidates``: how many moves are compared; ``clock``: how the budget is
    measured, ``"wall"`` (elapsed time: what a player waits; the default) or ``"cpu"`` (CPU time of the deciding
    thread: "1 s on one core" whatever else the machine is doing, as the arena measures it); ``solve_cards`` and
    ``solve_nodes``: samples with at most that many cards left in all hands are solved exactly, within that node
    limit (one solve past it sends the rest of the decision to play-outs); ``margin``: how much better another
    move must look than the heuristic's choice to be played instead (:data:`MARGIN`); ``playout_policy`` and
    ``learned_seats``: a learned play-out policy and which seats play it (:data:`LEARNED_SEATS`); ``explore``:
    the chance that a heuristic play-out seat plays another of its candidate moves.
    """

    name = "search"

    def __init__(self, seed: int = 0, time_budget: float = 1.0, samples: int | None = None,
                 max_candidates: int = 8, fast_playouts: bool = False, clock: str = "wall", belief: float = 1.0,
                 proposals: int = BELIEF_PROPOSALS, bidding: str = "heuristic", leaf: str = "playout",
                 depth: int = 8, solve_cards: int = SOLVE_CARDS, solve_nodes: int = SOLVE_NODES,
                 margin: float = MARGIN, reply: int = 0, playout_policy: PlayoutPolicy | None = None,
                 explore: float = 0.0, learned_seats: str = "all", prior: str = "heuristic",
                 blend: float = 0.0) -> None:
        if clock not in CLOCKS:
            raise ValueError(f"search clock must be one of {', '.join(sorted(CLOCKS))}, not {clock!r}")
        if not time_budget > 0 or (samples is not None and samples < 1) or max_candidates < 1:
            raise ValueError(f"search needs time > 0, samples >= 1 and candidates >= 1, not {time_budget}, "
                             f"{samples} and {max_candidates}")
        self.clock = CLOCKS[clock]
        self.fast_playouts = fast_playouts
        self.seed = seed
        self.rng = random.Random(seed)
        self.time_budget = time_budget
        self.samples = samples
        self.max_candidates = max_candidates
        if not 0.0 < belief <= 1.0:
            raise ValueError(f"search belief must be in (0, 1], not {belief}")
        self.belief = belief
        self.proposals = proposals
        if bidding not in ("heuristic", "odds"):
            raise ValueError(f"search bidding must be heuristic or odds, not {bidding!r}")
        self.bidding = bidding
        if leaf not in ("playout", "value"):
            raise ValueError(f"search leaf must be playout or value, not {leaf!r}")
        self.leaf = leaf
        self.depth = depth
        if solve_cards < 0 or solve_nodes < 1:
            raise ValueError(f"search solve needs cards >= 0 and nodes >= 1, not {solve_cards} and {solve_nodes}")
        self.solve_cards = solve_cards
        self.solve_nodes = solve_nodes
        if not 0.0 <= margin <= 1.0:
            raise ValueError(f"search margin must be between 0 and 1, not {margin}")
        self.margin = margin
        if reply < 0:
            raise ValueError(f"search reply must be 0 or more, not {reply}")
        self.reply = reply
        self.playout_policy = playout_policy
        if not 0.0 <= explore <= 1.0:
            raise ValueError(f"search explore must be between 0 and 1, not {explore}")
        self.explore = explore
        if learned_seats not in LEARNED_SEATS:
            raise ValueError(f"search learned must be one of {', '.join(LEARNED_SEATS)}, not {learned_seats!r}")
        self.learned_seats = learned_seats
        if prior not in PRIORS:
            raise ValueError(f"search prior must be one of {', '.join(PRIORS)}, not {prior!r}")
        self.prior = prior
        if not 0.0 <= blend < 1.0:
            raise ValueError(f"search blend must be at least 0 and below 1, not {blend}")
        self.blend = blend
        if prior == "dmc" or blend:
            try:
                import numpy  # noqa: F401  (the learned values are a NumPy network)
            except ImportError as e:
                raise ValueError(f"search prior=dmc and blend need NumPy ({e}): pip install numpy") from None
        self.last_stats: dict[str, Any] = {}
        self._quick: HeuristicBot | None = None

    def act_quickly(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        """The answer in about a millisecond, for a server that is behind
        (:func:`~qipai.host.botpool.act_in_hurry`): the heuristic's, which the search starts from."""
        if self._quick is None:
            self._quick = HeuristicBot(self.seed)
        return self._quick.act(observation, legal_actions)

    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        """Choose one of ``legal_actions`` from what the seat may see."""
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation.get("phase") != "play":
            if self.bidding == "odds" and observation.get("phase") == "bid":
                from .bidding import odds_bid

                # a time budget bounds the estimate too (four-player play-outs: 48 take about 0.4 s)
                clock = self.clock
                deadline = None if self.samples is not None else (clock, clock() + self.time_budget)
                return odds_bid(observation, legal_actions, self.rng, deadline=deadline)
            return decide_non_play(observation, legal_actions)
        v = read_view(observation)
        moves = action_moves(legal_actions, v.rules)
        # a play that empties the hand wins at once
        total = sum(v.hand)
        for a, m in moves.items():
            if m.size == total:
                return a
        learned = self._learned_values(v, moves, legal_actions, observation)
        first: list[Move | None] = []
        if learned and self.prior == "dmc":
            best = sorted(learned, key=lambda a: -learned[a])[:PRIOR_TOP]  # stable: ties keep the legal order
            first = [moves.get(a) for a in best]
        cands = self.candidates(v, moves, legal_actions, first)
        if len(cands) == 1:
            return cands[0][0]
        offsets = None
        if learned and self.blend:
            # score = (1 − blend) · win rate + blend · (Q + 1) / 2, ranked as win rate + offset
            k = self.blend / (1.0 - self.blend)
            offsets = [k * (learned.get(a, -1.0) + 1.0) / 2.0 for a, _ in cands]
        return self.evaluate(v, cands, offsets)

    # ------------------------------------------------------------------ candidates
    def _learned_values(self, v: View, moves: dict[str, Move], legal: list[str],
                        observation: dict[str, Any]) -> dict[str, float]:
        """With the ``dmc`` prior or a blend, in a three-player one-deck game: the learned value (−1 to 1) of
        every legal action, in the legal order; otherwise none."""
        if (self.prior != "dmc" and not self.blend) or v.players != 3 or v.rules.decks != 1:
            return {}
        from .dmc import action_rows, load_qnet, view_state

        actions = card_actions(legal, moves)
        vals = load_qnet().action_values(view_state(v, observation.get("kitty")),
                                         action_rows(v.hand, [moves.get(a) for a in actions]))
        return {a: float(vals[i]) for i, a in enumerate(actions)}

    def candidates(self, v: View, moves: dict[str, Move], legal: list[str],
                   first: list[Move | None] | None = None) -> list[tuple[str, Move | None]]:
        """The moves worth comparing: ``first`` (a prior's best moves, best first) then the heuristic's choice,
        or the heuristic's choice first."""
        by_move = {m: a for a, m in moves.items()}
        s = situation_of(v)
        pick = choose_play(s)
        out: list[tuple[str, Move | None]] = []
        seen: set[str] = set()

        def add(m: Move | None) -> None:
            if m is None:
                if "pass" in legal and "pass" not in seen:
                    seen.add("pass")
                    out.append(("pass", None))
                return
            a = by_move.get(m)
            if a is None:
                a = next((x for x, mm in moves.items() if mm.counts == m.counts), None)
            if a is not None and a not in seen:
                seen.add(a)
                out.append((a, moves[a]))

        if first:
            add(first[0])
        add(pick)
        for m in (first or [])[1:]:
            add(m)
        if len(moves) + ("pass" in legal) <= self.max_candidates:
            for m in sorted(moves.values(), key=lambda m: (m.is_bomb, m.main, -m.size)):
                add(m)
            add(None)
            return out
        add(None)
        hand = v.hand
        if v.last is None:
            for g in sorted(best_plan(hand, v.rules).moves, key=_lead_key):
                add(g)
            others = sorted(moves.values(), key=lambda m: (plan_score(minus(hand, m), v.rules) + m.size * 0.01),
                            reverse=True)
            for m in others:
                if len(out) >= self.max_candidates:
                    break
                add(m)
        else:
            normal = [m for m in moves.values() if not m.is_bomb]
            bombs = [m for m in moves.values() if m.is_bomb]
            if normal:
                add(max(normal, key=lambda m: (m.main, -m.size)))
                ranked = sorted(normal, key=lambda m: -plan_score(minus(hand, m), v.rules))
                for m in ranked:
                    if len(out) >= self.max_candidates - (1 if bombs else 0):
                        break
                    add(m)
            if bombs:
                add(min(bombs, key=lambda b: (b.size, b.main)))
        return out[: self.max_candidates]

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, v: View, cands: list[tuple[str, Move | None]], offsets: list[float] | None = None) -> str:
        """Compare candidates on sampled deals; the winner's action.  ``offsets``: added to each candidate's win
        rate when they are ranked (a learned value blended in)."""
        values, n, solved, alive = self._sample(v, cands, prune=True, offsets=offsets)
        k = len(cands)
        off = offsets or [0.0] * k
        means = {i: (sum(values[i]) / len(values[i]) if values[i] else 0.0) + off[i] for i in alive}
        best = max(alive, key=lambda i: (means[i], -i))
        if best != 0 and 0 in alive:
            # the prior's choice (candidate 0: the heuristic's, or dmc's) stands unless another is better by
            # more than the noise
            d = [values[best][j] - values[0][j] for j in range(min(len(values[best]), len(values[0])))]
            if d:
                md = sum(d) / len(d)
                var = sum((x - md) ** 2 for x in d) / max(1, len(d) - 1)
                md += off[best] - off[0]
                if md < max(self.margin, math.sqrt(var / len(d))):
                    best = 0
        self.last_stats = {"samples": n, "solved": solved, "candidates": k, "alive": len(alive),
                           "values": {cands[i][0]: means[i] for i in alive}, "compared": [a for a, _ in cands]}
        return cands[best][0]

    def estimate(self, observation: dict[str, Any], legal_actions: list[str],
                 include: list[str] | None = None) -> dict[str, float]:
        """This seat's side's estimated win probability after each candidate action (and each action of
        ``include``), over the same samples for all, none dropped: ``samples`` of them (200 if the bot has a
        time budget instead).  Play phase only; a single legal action is still estimated."""
        if observation.get("phase") != "play":
            raise ValueError("estimates are for the play phase")
        v = read_view(observation)
        moves = action_moves(legal_actions, v.rules)
        cands = self.candidates(v, moves, legal_actions) if len(legal_actions) > 1 else []
        have = {a for a, _ in cands}
        for a in [*(include or []), *([] if cands else legal_actions)]:
            if a not in have and a in legal_actions:
                have.add(a)
                cands.append((a, moves.get(a)))
        values, _, _, _ = self._sample(v, cands, prune=False, limit=self.samples or 200)
        return {cands[i][0]: (sum(values[i]) / len(values[i]) if values[i] else 0.0) for i in range(len(cands))}

    def _sample(self, v: View, cands: list[tuple[str, Move | None]], prune: bool,
                limit: int | None = None,
                offsets: list[float] | None = None) -> tuple[list[list[float]], int, int, list[int]]:
        """Play every alive candidate on sampled deals: per candidate its results (1 win, 0 loss), the samples
        drawn, the exact solves, and the candidates still alive."""
        assert v.landlord is not None
        sampler = self.sampler(v)
        k = len(cands)
        alive = list(range(k))
        values: list[list[float]] = [[] for _ in range(k)]
        now = self.clock
        deadline = now() + self.time_budget
        if limit is None:
            limit = self.samples if self.samples is not None else 1_000_000
        timed = self.samples is None and prune
        my_side_landlord = v.seat == v.landlord
        learned_side = None if self.learned_seats == "all" else my_side_landlord == (self.learned_seats == "own")
        net = None
        if self.leaf == "value" and v.players == 3 and v.rules.decks == 1:
            from .value import load_value, position_features

            net = load_value()
        solve_ok = True
        stochastic = self.playout_policy is not None or self.explore > 0  # play-outs draw from a stream
        n = 0
        solved = 0
        while n < limit and (len(alive) > 1 or not prune):
            if timed and n >= 2 and now() >= deadline:
                break
            hands = sampler.deal()
            stream_seed = self.rng.getrandbits(32) if stochastic else 0
            total_cards = sum(sum(h) for h in hands)
            solver = None
            if solve_ok and total_cards <= self.solve_cards:
                solver = Solver(v.rules, v.landlord, v.players, self.solve_nodes)
            pending: list[tuple[int, list[float]]] = []
            for i in alive:
                m = cands[i][1]
                win: bool | None = None
                if solver is not None:
                    try:
                        win = self._solve(solver, v, hands, m) == my_side_landlord
                        solved += 1
                    except _TooBig:
                        solver = None
                        solve_ok = False
                if win is None:
                    # a learned play-out draws its moves; every candidate's from the same stream (common
                    # random numbers)
                    stream = random.Random(stream_seed) if stochastic else None
                    sim = Sim(v.rules, [list(h) for h in hands], v.landlord, v.seat, v.last, v.last_by,
                              self.fast_playouts, self.playout_policy, stream, self.explore, learned_side)
                    out = sim.apply(m)
                    if out is None:
                        if net is not None:
                            out = sim.playout_upto(self.depth)
                            if out is None:
                                pending.append((i, position_features(sim.hands, v.landlord, sim.to_act, sim.last,
                                                                     sim.last_by)))
                                continue
                        elif self.reply > 1:
                            out = self._best_reply(sim, v.landlord, my_side_landlord)
                        else:
                            out = sim.playout()
                    win = (out == v.landlord) == my_side_landlord
                values[i].append(1.0 if win else 0.0)
            if pending:
                assert net is not None
                import numpy as np

                probs = net.predict(np.asarray([f for _, f in pending], dtype=np.float32))
                for (i, _), p in zip(pending, probs, strict=True):
                    values[i].append(float(p) if my_side_landlord else 1.0 - float(p))
            n += 1
            if prune and n % 8 == 0 and len(alive) > 1:
                alive = self._prune(alive, values, offsets)
                # the deal is decided whatever this move: every candidate wins (or loses) nearly always
                if n >= 16 and (all(sum(values[i]) >= 0.98 * n for i in alive)
                                or all(sum(values[i]) <= 0.02 * n for i in alive)):
                    break
        return values, n, solved, alive

    def sampler(self, v: View) -> Sampler:
        """What deals this decision's samples (``bench/oracle.py`` gives a bot one that knows the real hands)."""
        return Sampler(v, self.rng, belief=self.belief, proposals=self.proposals)

    def _best_reply(self, sim: Sim, landlord: int, my_side_landlord: bool) -> int:
        """Play on to the first enemy decision (at most 3 moves of this side), let the enemy choose the best for
        it of :meth:`Sim.replies` by play-outs, and return the seat that goes out on that line."""
        for _ in range(3):
            s = sim.to_act
            if (s == landlord) != my_side_landlord:
                break
            out = sim.apply(sim.policy())
            if out is not None:
                return out
        else:
            return sim.playout()
        worst: int | None = None
        for m in sim.replies(self.reply):
            branch = sim.copy()
            out = branch.apply(m)
            if out is None:
                out = branch.playout()
            if (out == landlord) != my_side_landlord:
                return out  # the enemy has a reply that wins: no better one is needed
            worst = out
        assert worst is not None
        return worst

    @staticmethod
    def _solve(solver: Solver, v: View, hands: list[list[int]], m: Move | None) -> bool:
        hs = [tuple(h) for h in hands]
        s = v.seat
        nxt = (s + 1) % v.players
        if m is None:
            return solver.landlord_wins(tuple(hs), nxt, v.last, v.last_by)
        hs[s] = minus(hs[s], m)
        if not any(hs[s]):
            return s == v.landlord
        return solver.landlord_wins(tuple(hs), nxt, m, s)

    @staticmethod
    def _prune(alive: list[int], values: list[list[float]], offsets: list[float] | None = None) -> list[int]:
        n = min(len(values[i]) for i in alive)
        off = offsets or [0.0] * len(values)
        means = {i: sum(values[i][:n]) / n + off[i] for i in alive}
        best = max(alive, key=lambda i: (means[i], -i))
        keep = []
        for i in alive:
            if i == best:
                keep.append(i)
                continue
            d = [values[best][j] - values[i][j] for j in range(n)]
            md = sum(d) / n
            var = sum((x - md) ** 2 for x in d) / max(1, n - 1)
            md += off[best] - off[i]
            se = math.sqrt(var / n) if var > 0 else 0.0
            if md > 0 and md > 3.0 * se + (0.0 if se > 0 else 1.0 / n):
                continue
            keep.append(i)
        return keep


def _register() -> None:
    from . import register

    register("search", lambda seed: SearchBot(seed))


_register()

__all__ = ["Sampler", "SearchBot", "Sim", "Solver"]
