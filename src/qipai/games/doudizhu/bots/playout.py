"""A learned play-out policy: the heuristic's choice, corrected where the search disagrees with it.

The search's play-outs (:class:`~qipai.games.doudizhu.bots.search.Sim`) model every seat as the heuristic bot.
This module offers a policy for them that is learned here from the search's own decisions (one step of expert
iteration): at each decision a few candidate moves are scored by a linear function of named features (being
the heuristic's choice is one of them, so a policy of that weight alone *is* the heuristic), and a move is
drawn with probability ∝ exp(score) (or, without a random stream, the best-scoring one is played).
``bench/train_playout.py`` fits the weights by softmax regression on the moves the search chose in self-play
and writes ``src/qipai/data/ddz_playout.json`` (named weights, readable).  Measured in ``docs/bots.md``
(tenth session): it makes the search weaker, so it is off by default (``search:playout=learned``).

Everything here works on a :class:`~qipai.games.doudizhu.bots.heuristic.Situation`, so the same features are
computed at a real decision (what a seat may see) and inside a play-out (the other hands together as its
unseen cards).

>>> from qipai.games.doudizhu.rules import PRESETS
>>> from qipai.games.doudizhu.bots.heuristic import Situation
>>> from qipai.games.doudizhu.bots.view import counts_of_text
>>> rules = PRESETS["classic"]
>>> hand = tuple(counts_of_text("33456789TJQ"))
>>> pool = tuple(counts_of_text("44556677889TJQKKAA22BR"))
>>> s = Situation(rules, 1, 3, 0, hand, [20, 11, 17], None, 0, pool)
>>> p = PlayoutPolicy({"pick": 1.0})   # only the heuristic's choice counts: the heuristic itself
>>> p.choose(s) == candidates(s, CANDIDATES)[0]
True
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..cards import ACE, TWO
from ..combos import Move
from ..moves import legal_moves
from .hand import best_plan, minus, plan_score
from .heuristic import Situation, _lead_key, choose_play, unbeatable

CANDIDATES = 6
"""Moves compared at one play-out decision: the heuristic's choice first."""

WEIGHTS = Path(__file__).resolve().parents[3] / "data" / "ddz_playout.json"
"""The committed weights (written by ``bench/train_playout.py``)."""

_GROUP = {
    "single": "single", "pair": "pair", "triple": "triple", "triple_single": "triple", "triple_pair": "triple",
    "straight": "straight", "pair_straight": "chain", "plane": "chain", "plane_singles": "chain",
    "plane_pairs": "chain", "four_two_singles": "four", "four_two_pairs": "four", "bomb": "bomb", "rocket": "bomb",
}
GROUPS = ("single", "pair", "triple", "straight", "chain", "four", "bomb")


def _feature_names() -> tuple[str, ...]:
    names = ["pick", "pass", "pass_vs_enemy", "pass_enemy_low", "overtake_partner", "size", "out_after",
             "bomb_enemy_low"]
    for when in ("lead", "answer"):
        names += [f"{when}_main", f"{when}_high", f"{when}_plan", f"{when}_sure"]
        for role in ("landlord", "farmer"):
            names += [f"{when}_{role}_{g}" for g in GROUPS]
    names += ["lead_single_enemy_low", "lead_farmer_next_landlord_single", "lead_farmer_next_landlord_pair",
              "lead_farmer_partner_low_single"]
    return tuple(names)


FEATURES = _feature_names()
"""The names of the features, in order (the weights file names them too)."""
_INDEX = {n: i for i, n in enumerate(FEATURES)}


_PICK: Any = object()


def candidates(s: Situation, k: int = CANDIDATES, first: Move | None = _PICK,
               plan: Sequence[Move] | None = None) -> list[Move | None]:
    """At most ``k`` moves for situation ``s``: ``first`` (by default the heuristic's choice), then when leading
    the plays of the plan (``plan``, by default the hand's best plan; weakest first), when answering passing,
    the highest answer, the smallest bomb, then the others from the lowest."""
    pick = choose_play(s) if first is _PICK else first
    out: list[Move | None] = [pick]
    seen = {None if pick is None else pick.counts}

    def add(m: Move | None) -> None:
        key = None if m is None else m.counts
        if len(out) < k and key not in seen:
            seen.add(key)
            out.append(m)

    if s.last is None:
        for g in sorted(best_plan(s.hand, s.rules).moves if plan is None else plan, key=_lead_key):
            add(g)
        return out
    add(None)
    answers = legal_moves(s.hand, s.rules, s.last)
    normal = [a for a in answers if not a.is_bomb]
    if normal:
        add(max(normal, key=lambda a: (a.main, -a.size)))
    bombs = [a for a in answers if a.is_bomb]
    if bombs:
        add(min(bombs, key=lambda a: (a.size, a.main)))
    for a in sorted(normal, key=lambda a: (a.main, -a.size)):
        add(a)
    return out


def features(s: Situation, m: Move | None, is_pick: bool, base: float | None = None) -> list[tuple[int, float]]:
    """The non-zero features of playing ``m`` (``None``: pass) in ``s``, as (index, value) pairs.  ``base`` is
    the plan score of the hand before the move (computed when not given)."""
    f: list[tuple[int, float]] = []
    ix = _INDEX
    if is_pick:
        f.append((ix["pick"], 1.0))
    farmer = s.seat != s.landlord
    counts = s.card_counts
    enemies = [s.landlord] if farmer else [o for o in range(s.players) if o != s.seat]
    enemy_low = min(counts[e] for e in enemies) <= 2
    if m is None:
        f.append((ix["pass"], 1.0))
        if s.last is not None and (not farmer or s.last_by == s.landlord):
            f.append((ix["pass_vs_enemy"], 1.0))
            if enemy_low:
                f.append((ix["pass_enemy_low"], 1.0))
        return f
    when = "lead" if s.last is None else "answer"
    role = "farmer" if farmer else "landlord"
    f.append((ix[f"{when}_{role}_{_GROUP.get(m.kind, 'chain')}"], 1.0))
    f.append((ix[f"{when}_main"], m.main / 14.0))
    if m.main >= TWO and not m.is_bomb:
        f.append((ix[f"{when}_high"], 1.0))
    f.append((ix["size"], m.size / 10.0))
    after = minus(s.hand, m)
    left = sum(after)
    f.append((ix["out_after"], left / 20.0))
    if base is None:
        base = plan_score(s.hand, s.rules)
    f.append((ix[f"{when}_plan"], (plan_score(after, s.rules) - base) / 10.0))
    mx = max(counts[e] for e in enemies)
    if m.main >= ACE and unbeatable(m, s.pool, mx, s.rules):
        f.append((ix[f"{when}_sure"], 1.0))
    if m.is_bomb and enemy_low:
        f.append((ix["bomb_enemy_low"], 1.0))
    if s.last is not None and farmer and s.last_by != s.landlord:
        f.append((ix["overtake_partner"], 1.0))
    if s.last is None:
        if m.kind == "single" and enemy_low:
            f.append((ix["lead_single_enemy_low"], 1.0))
        if farmer:
            nxt = (s.seat + 1) % s.players
            if nxt == s.landlord and m.kind in ("single", "pair"):
                f.append((ix[f"lead_farmer_next_landlord_{m.kind}"], 1.0))
            partner = next((o for o in range(s.players) if o not in (s.seat, s.landlord)), None)
            if partner is not None and counts[partner] <= 2 and m.kind == "single":
                f.append((ix["lead_farmer_partner_low_single"], 1.0))
    return f


class PlayoutPolicy:
    """A linear policy over :func:`candidates`: a move drawn with probability ∝ exp(score), or the one whose
    features score highest (ties: the earlier)."""

    __slots__ = ("k", "w")

    def __init__(self, weights: dict[str, float], k: int = CANDIDATES) -> None:
        unknown = sorted(set(weights) - set(FEATURES))
        if unknown:
            raise ValueError(f"unknown play-out features {', '.join(map(repr, unknown))}; "
                             f"expected some of {', '.join(FEATURES)}")
        self.w = [float(weights.get(n, 0.0)) for n in FEATURES]
        self.k = k

    def scores(self, s: Situation, moves: Sequence[Move | None]) -> list[float]:
        """The score of each of ``moves`` (the first is taken as the heuristic's choice)."""
        w = self.w
        base = plan_score(s.hand, s.rules)
        return [sum(w[i] * x for i, x in features(s, m, j == 0, base)) for j, m in enumerate(moves)]

    def choose(self, s: Situation, rng: random.Random | None = None) -> Move | None:
        """The move to play in ``s``: drawn from the policy's distribution (each candidate's probability
        ∝ exp(score)) with ``rng``, else the highest-scoring one."""
        moves = candidates(s, self.k)
        if len(moves) == 1:
            return moves[0]
        sc = self.scores(s, moves)
        if rng is not None:
            top = max(sc)
            ws = [math.exp(x - top) for x in sc]
            u = rng.random() * sum(ws)
            for j, x in enumerate(ws):
                u -= x
                if u < 0:
                    return moves[j]
            return moves[-1]
        best = 0
        for j in range(1, len(moves)):
            if sc[j] > sc[best]:
                best = j
        return moves[best]


def load_policy(path: Path | None = None) -> PlayoutPolicy:
    """The committed (or the given) weights as a policy."""
    p = path or WEIGHTS
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(f"no play-out weights at {p}: run bench/train_playout.py") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError(f"{p} is not play-out weights (not JSON)") from None
    try:
        weights = {str(k): float(v) for k, v in data["weights"].items()}
        k = int(data.get("candidates", CANDIDATES))
    except (TypeError, KeyError, AttributeError, ValueError):
        raise ValueError(f"{p} is not play-out weights (want {{\"weights\": {{feature: number}}, "
                         f"\"candidates\": n}})") from None
    return PlayoutPolicy(weights, k)


_LOADED: dict[Path, PlayoutPolicy] = {}


def cached_policy(path: Path | None = None) -> PlayoutPolicy:
    """The committed (or the given) weights as a policy, loaded once per process."""
    p = path or WEIGHTS
    got = _LOADED.get(p)
    if got is None:
        got = _LOADED[p] = load_policy(p)
    return got
