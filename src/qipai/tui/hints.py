"""Hints (提示): the legal choices of the human seat, good ones first.

When the ``heuristic`` bot is available its choice comes first; then every other legal play, ordered so that
plays which keep the hand's groups together come before those that break pairs, triples or bombs, longer
plays before shorter ones, lower ranks before higher ones, and bombs and the rocket last.

>>> from qipai.doudizhu.rules import PRESETS
>>> from qipai.doudizhu.combos import classify
>>> from qipai.cards import counts_of, parse_ranks
>>> r = PRESETS["classic"]
>>> hand = counts_of(parse_ranks("34567992222"))
>>> [str(m) for m in order_moves(hand, [classify(x, r)[0] for x in ("3", "9", "99", "2222", "34567")])]
['34567', '99', '3', '9', '2222']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..bots import Bot
from ..cards import NUM_RANKS
from ..doudizhu.combos import Move


def move_key(counts: Sequence[int], move: Move) -> tuple[int, int, int, int, int]:
    """Sort key of one play from a hand with rank counts ``counts`` (smaller is better)."""
    splits = 0
    for r in range(NUM_RANKS):
        used = move.counts[r]
        if used and used < counts[r]:
            splits += 1
            if counts[r] >= 4 and not move.is_bomb:
                splits += 2  # breaks a bomb
        if used and r >= 13 and not move.is_bomb and counts[13] and counts[14]:
            splits += 2  # breaks the rocket
    return (1 if move.is_bomb else 0, splits, -move.size, move.main, sum(move.ranks))


def order_moves(counts: Sequence[int], moves: Sequence[Move]) -> list[Move]:
    """``moves`` ordered best first (see the module docstring)."""
    return sorted(moves, key=lambda m: move_key(counts, m))


def hint_actions(
    legal: list[str],
    moves: Sequence[Move],
    label: dict[Move, str],
    counts: Sequence[int],
    observation: dict[str, Any],
    advisor: Bot | None,
) -> list[str]:
    """Every legal action as a hint list, best first.

    ``legal`` are the legal text actions, ``moves`` the legal plays with ``label[move]`` their action text
    (without ``play``), ``counts`` the hand, and ``advisor`` an optional bot whose choice goes first.
    """
    out: list[str] = []
    if advisor is not None and legal:
        try:
            pick = advisor.act(observation, list(legal))
        except Exception:  # a hint must never end the game
            pick = None
        if pick in legal:
            out.append(pick)
    if moves:
        for m in order_moves(counts, moves):
            a = "play " + label[m]
            if a not in out:
                out.append(a)
    else:
        for a in legal:
            if a not in out:
                out.append(a)
    return out
