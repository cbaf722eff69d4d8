"""The ``heuristic`` bot: plan the hand, count cards, play with the partner, keep bombs for when they matter.

The ideas, each one rule rather than a pile of special cases:

1. **Plan** (拆牌).  The hand is split into the fewest, strongest plays (:mod:`~qipai.games.doudizhu.bots.hand`).
   A lead is a play of the plan, the weakest first (chains and triples before loose low cards, high cards kept back).
   An answer is scored by how much it damages the plan: ``score(hand - answer) - score(hand)``.  An answer
   that is a play of the plan costs nothing; one that breaks a pair or a chain costs its damage.
2. **Card counting.**  The cards not yet seen are the other hands together.  A play is a *sure winner* when
   no legal answer can be made from those cards by a seat that still holds enough of them.  With all but one
   play of the plan sure winners, the bot plays them out and goes out (it also finishes with a bomb).
3. **Team play** (farmers).  A farmer does not overtake a partner who is winning the trick unless that lets
   it go out or leaves it a hand of sure winners, or it sits just before the landlord (he plays next) and the
   partner's play is a single or pair below ``2``: then it *covers* it (顶牌) with a single or pair from ``Q``
   up, so the landlord cannot shed a low card on it.  The farmer just after the landlord leads its lowest single
   up to ``10`` when its plan has one (下家走小牌), which gives the partner that cover.  With a partner down to one
   or two cards it leads its smallest single or pair for the partner to finish.
4. **Danger.**  An enemy with one or two cards is close to going out: the bot then answers with its highest
   answer, uses a bomb if that is all it has, and avoids leading a play of the size the enemy could finish on.
   A farmer is more willing to spend cards against the landlord than against nobody.
5. **Bombs** are kept for when they matter: to stop an enemy who is close to going out, or when the rest of
   the hand then goes out.  A partner is never bombed.
6. **Bidding** from hand strength: the plan score of the dealt hand, plus bonuses for jokers, twos and bombs;
   thresholds bid 1, 2 or 3 (or call).  The Chengdu doubling and the show-hand decision use the same measure.

Decisions take well under 5 ms on average (plans and answers are memoised per hand).

>>> from qipai.games.doudizhu.rules import PRESETS
>>> from qipai.games.doudizhu.state import Game
>>> g = Game.new(PRESETS["classic"], seed=3)
>>> bot = HeuristicBot(seed=1)
>>> while not g.is_over:
...     g.apply(bot.act(g.observe(g.to_act), g.legal_actions()))
>>> g.outcome()["winner"] in ("landlord", "farmers")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import BLACK_JOKER, RED_JOKER, TWO
from ..combos import Move, classify
from ..moves import legal_moves
from ..rules import Rules
from .hand import ROUND_COST, best_plan, minus, move_value, plan_score, rules_key
from .view import action_moves, read_view

ACE = 11

COVER_MIN = 9
"""The lowest rank a farmer covers a partner's single or pair with (rank indices: ``3`` is 0, ``Q`` is 9)."""
COVER_BELOW = 12
"""A partner's single or pair from this rank up is high enough: it is not covered."""
COVER_DAMAGE = -8.0
"""The most plan damage a cover may do (breaking a pair costs about 4)."""
LOW_LEAD_MAX = 7
"""The farmer after the landlord leads a single of its plan up to this rank (``10``) before other plays."""
LOW_LEAD_LANDLORD = 3
"""... while the landlord holds at least this many cards."""


@dataclass
class Situation:
    """Everything a play decision needs, as rank counts: who I am, my hand, the trick, and the cards I cannot
    see (``pool``: the other hands together).  Built from a :class:`~qipai.games.doudizhu.bots.view.View` for real
    decisions and from a sampled world for the search bot's play-outs."""

    rules: Rules
    seat: int
    players: int
    landlord: int
    hand: tuple[int, ...]
    card_counts: Sequence[int]
    last: Move | None
    last_by: int
    pool: tuple[int, ...]

    def partner(self, s: int) -> bool:
        return s != self.seat and self.seat != self.landlord and s != self.landlord

    def enemies(self) -> list[int]:
        if self.seat == self.landlord:
            return [s for s in range(self.players) if s != self.seat]
        return [self.landlord]


_UNBEATABLE: dict[tuple[tuple[int, ...], Move, int, int], bool] = {}


def unbeatable(m: Move, pool: tuple[int, ...], max_cards: int, rules: Rules) -> bool:
    """Whether no answer to ``m`` can be made from ``pool`` by a seat holding at most ``max_cards`` cards."""
    key = (pool, m, max_cards, rules_key(rules))
    got = _UNBEATABLE.get(key)
    if got is None:
        got = max_cards <= 0 or not any(a.size <= max_cards for a in legal_moves(pool, rules, m))
        if len(_UNBEATABLE) > 200_000:
            _UNBEATABLE.clear()
        _UNBEATABLE[key] = got
    return got


def can_finish(moves: Sequence[Move], s: Situation) -> bool:
    """Whether a plan goes out for sure once the bot leads: all its plays but one are sure winners."""
    if len(moves) <= 1:
        return True
    mx = max(s.card_counts[e] for e in s.enemies())
    losers = 0
    for m in moves:
        if not unbeatable(m, s.pool, mx, s.rules):
            losers += 1
            if losers > 1:
                return False
    return True


def _lead_key(m: Move) -> tuple[float, int]:
    return (move_value(m) - 0.8 * (m.size - 1) + (30.0 if m.is_bomb else 0.0), -m.size)


def choose_lead(s: Situation) -> Move:
    """The lead for situation ``s`` (see the module docstring)."""
    rules = s.rules
    hand = s.hand
    plan = best_plan(hand, rules).moves
    whole = classify(hand, rules)
    if whole:
        return whole[-1]
    if len(plan) == 1:
        return plan[0]
    enemies = s.enemies()
    mx = max(s.card_counts[e] for e in enemies)
    mn = min(s.card_counts[e] for e in enemies)
    winners = [m for m in plan if unbeatable(m, s.pool, mx, rules)]
    if len(plan) - len(winners) <= 1 and winners:
        # play the sure winners (bombs last), then the one play left
        return min(winners, key=lambda m: (m.is_bomb, -m.size))
    # a partner close to going out: feed him
    if s.seat != s.landlord:
        for p in range(s.players):
            if s.partner(p) and s.card_counts[p] <= 2 and s.card_counts[s.landlord] > 1:
                want = 1 if s.card_counts[p] == 1 else 2
                low = _lowest_of_size(hand, want, rules)
                if low is not None:
                    return low
    safe = [m for m in plan if not m.is_bomb] or list(plan)
    if mn <= 2:
        # do not lead a play the enemy could answer to go out: prefer other sizes, else the highest
        other = [m for m in safe if m.size != mn or m in winners]
        if other:
            safe = other
        else:
            return max(safe, key=lambda m: m.main)
    keep_back = [m for m in safe if m not in winners or len(safe) == 1]
    if (s.landlord + 1) % s.players == s.seat and s.card_counts[s.landlord] >= LOW_LEAD_LANDLORD:
        # the farmer after the landlord: a low single, for the partner to cover before the landlord plays
        small = [m for m in keep_back if m.kind == "single" and m.main <= LOW_LEAD_MAX]
        if small:
            return min(small, key=lambda m: m.main)
    return min(keep_back or safe, key=_lead_key)


def _lowest_of_size(hand: tuple[int, ...], size: int, rules: Rules) -> Move | None:
    for m in sorted(legal_moves(hand, rules), key=lambda m: (m.main, m.size)):
        if m.size == size and (m.kind == "single" or m.kind == "pair"):
            return m
    return None


def least_damage(answers: Sequence[Move], hand: tuple[int, ...], rules: Rules,
                 base: float) -> tuple[Move | None, float]:
    """The answer that damages the plan of ``hand`` (scored ``base``) least, the lower on a tie, and its damage
    (``score(hand - answer) - base``; ``(None, -1e9)`` for no answer)."""
    best: Move | None = None
    best_delta = -1e9
    for a in answers:
        d = plan_score(minus(hand, a), rules) - base
        if d > best_delta or (d == best_delta and best is not None and a.main < best.main):
            best, best_delta = a, d
    return best, best_delta


def choose_answer(s: Situation) -> Move | None:
    """The answer to ``s.last`` (``None`` passes)."""
    rules = s.rules
    last = s.last
    assert last is not None
    hand = s.hand
    answers = legal_moves(hand, rules, last)
    if not answers:
        return None
    total = sum(hand)
    for a in answers:
        if a.size == total:
            return a
    base = plan_score(hand, rules)
    normal = [a for a in answers if not a.is_bomb]
    bombs = [a for a in answers if a.is_bomb]
    by = s.last_by
    ally = s.partner(by)
    enemies = s.enemies()
    mx = max(s.card_counts[e] for e in enemies)

    def after_finishes(a: Move) -> bool:
        rest = minus(hand, a)
        return can_finish(best_plan(rest, rules).moves, s) and unbeatable(a, s.pool, mx, rules)

    if ally:
        # only overtake a partner to go out, or into a hand of sure winners
        if s.card_counts[by] <= 2:
            return None
        for a in normal:
            if plan_score(minus(hand, a), rules) - base >= ROUND_COST - move_value(a) - 0.01 and after_finishes(a):
                return a
        return _cover(s, normal, base)
    danger = s.card_counts[by] <= 2 or (
        s.seat != s.landlord and s.card_counts[by] <= 4 and last.size >= 2
    )
    if danger and normal:
        # an enemy close to going out: take the trick with the highest answer
        return max(normal, key=lambda a: (a.main, -a.size))
    best, best_delta = least_damage(normal, hand, rules, base)
    # how much plan damage is acceptable to take the trick
    limit = -3.0 if s.seat != s.landlord else -2.0
    if s.seat != s.landlord and by == s.landlord:
        nxt = (s.seat + 1) % s.players
        if nxt == s.landlord:  # the last farmer to act before the trick returns to the landlord
            limit = -5.0
    if total <= 6:
        limit -= 3.0
    # don't spend a top card early on a cheap trick unless it keeps the plan intact
    if best is not None and best_delta >= limit and not (
        best.main >= TWO and best_delta < 0 and total > 8 and last.main < ACE
    ):
        return best
    if bombs:
        small = min(bombs, key=lambda b: (b.size, b.main))
        # the more bombs in hand, the earlier they matter; four players (two decks) have many bombs
        held = sum(1 for m in best_plan(hand, rules).moves if m.is_bomb)
        near = 3 + 3 * (held - 1) + (2 if s.players == 4 else 0) + (2 if last.size >= 5 else 0)
        if danger or s.card_counts[by] <= near or after_finishes(small):
            return small
        if s.seat == s.landlord and min(s.card_counts[e] for e in enemies) <= near:
            return small
    return None


def _cover(s: Situation, answers: list[Move], base: float) -> Move | None:
    """The cover (顶牌) of a partner's single or pair below ``2`` by the farmer just before the landlord, or
    ``None``.

    Without it the landlord sheds a low card on the partner's play and takes the lead cheaply; with it he has
    to spend a high card or let the farmers keep the lead.  The cover is the answer of the same kind from
    :data:`COVER_MIN` up that damages the plan least (the lower on a tie), and at most :data:`COVER_DAMAGE`.
    """
    last = s.last
    if last is None or (s.seat + 1) % s.players != s.landlord or last.main >= COVER_BELOW:
        return None
    if last.kind != "single" and last.kind != "pair":
        return None
    covers = [a for a in answers if a.kind == last.kind and a.main >= COVER_MIN]
    best, best_delta = least_damage(covers, s.hand, s.rules, base)
    return best if best is not None and best_delta >= COVER_DAMAGE else None


def choose_play(s: Situation) -> Move | None:
    """Lead or answer."""
    if s.last is None:
        return choose_lead(s)
    return choose_answer(s)


# ---------------------------------------------------------------------------------------------- bidding
def hand_strength(hand: Sequence[int], rules: Rules) -> float:
    """A bidding measure: the plan score of the hand, plus bonuses for the cards that win tricks.

    Scaled so that 0 is an average dealt hand; positive hands are worth playing as landlord.
    """
    c = tuple(hand)
    s = plan_score(c, rules)
    d = rules.decks
    bonus = 0.0
    bonus += 4.0 * c[RED_JOKER] / d + 3.0 * c[BLACK_JOKER] / d + 2.0 * c[TWO] / d
    bonus += sum(6.0 for r in range(BLACK_JOKER) if c[r] >= rules.bomb_min)
    n = sum(c)
    # normalise by hand size: longer hands have more plays
    return s + bonus + 2.2 * n


BID_THRESHOLDS = {3: (-2.0, 6.0, 14.0), 4: (35.0, 45.0, 55.0)}
"""Strength needed to bid 1, 2 and 3 (by number of players); calibrated by self-play (see docs/bots.md)."""


def bid_value(strength: float, players: int) -> int:
    """The highest bid (0..3) a hand of this strength is worth."""
    t1, t2, t3 = BID_THRESHOLDS[3 if players == 3 else 4]
    return 3 if strength >= t3 else 2 if strength >= t2 else 1 if strength >= t1 else 0


class HeuristicBot:
    """The ``heuristic`` bot (see the module docstring).  Deterministic: the seed is kept for the interface."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        """Choose one of ``legal_actions`` from what the seat may see."""
        easy = outside_play(observation, legal_actions)
        return easy if easy is not None else self._play(observation, legal_actions)

    def _play(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        v = read_view(observation)
        moves = action_moves(legal_actions, v.rules)
        s = situation_of(v)
        m = choose_play(s)
        return action_for(m, moves, legal_actions)


def situation_of(v: Any) -> Situation:
    """The :class:`Situation` of a :class:`~qipai.games.doudizhu.bots.view.View` in the play phase."""
    assert v.landlord is not None
    return Situation(
        rules=v.rules,
        seat=v.seat,
        players=v.players,
        landlord=v.landlord,
        hand=v.hand,
        card_counts=v.card_counts,
        last=v.last,
        last_by=v.last_by,
        pool=tuple(v.unseen),
    )


def action_for(m: Move | None, moves: dict[str, Move], legal_actions: list[str]) -> str:
    """The legal action text for move ``m`` (``None``: pass).  Falls back to a legal action if ``m`` is not
    offered (it always is when the bot's rules match the table's)."""
    if m is None:
        if "pass" in legal_actions:
            return "pass"
        return min(moves, key=lambda a: (moves[a].main, -moves[a].size))
    for a, mv in moves.items():
        if mv is m:
            return a
    for a, mv in moves.items():
        if mv.counts == m.counts:
            return a
    if "pass" in legal_actions:
        return "pass"
    return min(moves, key=lambda a: (moves[a].main, -moves[a].size))


def outside_play(observation: dict[str, Any], legal_actions: list[str]) -> str | None:
    """What a card-play bot answers without thinking: a ``ValueError`` with no legal action, the only legal
    action, and outside the play phase the heuristic's bid, double or show; ``None`` when there is a play to
    choose.

    >>> outside_play({"phase": "play"}, ["pass"]), outside_play({"phase": "play"}, ["pass", "play 3"])
    ('pass', None)
    """
    if not legal_actions:
        raise ValueError("no legal actions to choose from")
    if len(legal_actions) == 1:
        return legal_actions[0]
    if observation.get("phase") != "play":
        return decide_non_play(observation, legal_actions)
    return None


def decide_non_play(observation: dict[str, Any], legal_actions: list[str]) -> str:
    """Bid or call, double or redouble, show the hand or not, from the strength of the hand."""
    v = read_view(observation)
    strength = hand_strength(v.hand, v.rules)
    phase = observation.get("phase")
    if phase == "bid":
        want = bid_value(strength, v.players)
        if "call" in legal_actions:
            return "call" if want >= 1 or "pass" not in legal_actions else "pass"
        bids = sorted(int(a.split()[1]) for a in legal_actions if a.startswith("bid "))
        ok = [b for b in bids if b <= want]
        if ok:
            return f"bid {max(ok)}"
        if "pass" in legal_actions:
            return "pass"
        return f"bid {bids[0]}"
    if phase == "double":
        # farmers double (倒/斡) with a strong hand, the landlord answers (反/垒) with a very strong one
        landlord = v.landlord == v.seat
        need = 34.0 if landlord else 20.0
        if v.players == 4:
            need += 18.0
        verb = next((a for a in legal_actions if a != "pass"), "pass")
        return verb if strength >= need else "pass"
    if phase == "show":
        s = situation_of(v)
        plan = best_plan(v.hand, v.rules).moves
        return "show" if "show" in legal_actions and can_finish(plan, s) else "pass"
    return "pass" if "pass" in legal_actions else legal_actions[0]


def strength_table(hands: list[tuple[int, ...]], rules: Rules) -> list[float]:
    """Strength of many hands (for calibration scripts)."""
    return [hand_strength(h, rules) for h in hands]


def _register() -> None:
    from . import register

    register("heuristic", lambda seed: HeuristicBot(seed))


_register()

__all__ = ["HeuristicBot", "Situation", "choose_play", "hand_strength"]
