"""A fixed-length numeric view of a Dou Dizhu observation, for learning code (the PettingZoo environment's
observation, the learned evaluation's input).  Pure Python; every value is in ``[0, 1]``.

Seats are taken relative to the observing seat (``0`` = itself, ``1`` = the next to play, …), so one model
serves every seat.  Layout (:data:`SIZE` floats, ``R`` = 15 ranks, counts divided by the most a rank can
have, 4 per deck for 3…2 and 1 per deck for each joker):

=====================  =====  ====================================================================
part                   size   content
=====================  =====  ====================================================================
phase                  5      one-hot: bid, double, show, play, over
role                   5      one-hot: the landlord's seat relative to this seat (0–3), or undecided
hand                   R      own hand
unseen                 R      the cards nobody has shown (the other hands together)
played                 4 × R  cards played by each relative seat (seats past the table's size: zero)
known                  R      cards known to be in the landlord's hand (kitty cards not played, a shown hand)
trick                  R      the move to beat (zero when leading)
trick_by               5      one-hot: who made it (relative seat), or nobody
card_counts            4      each relative seat's cards left ÷ 33
bid, multiplier, bombs 3      bid ÷ 3; log2(multiplier) ÷ 10 (capped at 1); bombs played ÷ 8 (capped)
=====================  =====  ====================================================================

>>> from qipai.games.doudizhu.rules import PRESETS
>>> from qipai.games.doudizhu.state import Game
>>> g = Game.new(PRESETS["classic"], seed=1)
>>> v = features(g.observe(0))
>>> len(v) == SIZE, min(v) >= 0.0, max(v) <= 1.0, v[0]
(True, True, True, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..cards import NUM_RANKS
from .view import View, read_view

PHASES = ("bid", "double", "show", "play", "over")
R = NUM_RANKS
SIZE = 5 + 5 + R + R + 4 * R + R + R + 5 + 4 + 3
"""Length of :func:`features`."""


def _scaled(counts: Sequence[int], decks: int) -> list[float]:
    return [min(1.0, counts[r] / (decks * (1 if r >= 13 else 4))) for r in range(R)]


def view_features(v: View, phase: str, multiplier: int = 1) -> list[float]:
    """:func:`features` of a :class:`~qipai.games.doudizhu.bots.view.View`."""
    n = v.players
    d = v.rules.decks
    out = [1.0 if phase == p else 0.0 for p in PHASES]
    role = [0.0] * 5
    role[4 if v.landlord is None else (v.landlord - v.seat) % n] = 1.0
    out += role
    out += _scaled(v.hand, d)
    out += _scaled(v.unseen, d)
    for k in range(4):
        out += _scaled(v.played[(v.seat + k) % n], d) if k < n else [0.0] * R
    known = v.known.get(v.landlord, [0] * R) if v.landlord is not None else [0] * R
    out += _scaled(known, d)
    out += _scaled(v.last.counts, d) if v.last is not None else [0.0] * R
    by = [0.0] * 5
    by[4 if v.last is None else (v.last_by - v.seat) % n] = 1.0
    out += by
    out += [v.card_counts[(v.seat + k) % n] / 33.0 if k < n else 0.0 for k in range(4)]
    out += [v.bid / 3.0, min(1.0, math.log2(max(1, multiplier)) / 10.0), min(1.0, v.bombs_played / 8.0)]
    return out


def features(observation: dict[str, Any]) -> list[float]:
    """The numeric view of one seat's observation (see the module docstring)."""
    v = read_view(observation)
    return view_features(v, str(observation.get("phase")), int(observation.get("multiplier") or 1))


__all__ = ["SIZE", "features", "view_features"]
