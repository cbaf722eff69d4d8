"""Hints (提示): the legal choices of the human seat, good ones first.

When the ``heuristic`` bot is available its choice comes first; then every other legal play, ordered so that
plays which keep the hand's groups together come before those that break pairs, triples or bombs, longer
plays before shorter ones, lower ranks before higher ones, and bombs and the rocket last.

>>> from qipai.games.doudizhu.rules import PRESETS
>>> from qipai.games.doudizhu.combos import classify
>>> from qipai.games.doudizhu.cards import counts_of, parse_ranks
>>> r = PRESETS["classic"]
>>> hand = counts_of(parse_ranks("34567992222"))
>>> [str(m) for m in order_moves(hand, [classify(x, r)[0] for x in ("3", "9", "99", "2222", "34567")])]
['34567', '99', '3', '9', '2222']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...bots.base import Bot
from .cards import NUM_RANKS
from .combos import Move


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


_ADVISORS: dict[int, Bot] = {}


def game_hints(game: Any, seat: int) -> list[str]:
    """The hints of ``seat`` in a running :class:`~qipai.games.doudizhu.state.Game`: the heuristic bot's choice
    first, then every other legal action best first (cheapest sensible play first, bombs last).

    >>> from qipai.games.doudizhu.rules import PRESETS
    >>> from qipai.games.doudizhu.state import Game
    >>> g = Game.from_deal(PRESETS["classic"], ["3S 3H 4S 4H 4C 4D 8S 8H 2S 2H 6S 7S 9S TS JS QS KS",
    ...     "3C 3D 5S 5H 5C 5D 6H 6C 6D 7H 7C 7D 8C 8D 9H 9C 9D",
    ...     "TH TC TD JH JC JD QH QC QD KH KC KD AS AH AC AD B"], "2C 2D R", first_bidder=0)
    >>> g.apply("bid 3")
    >>> hints = game_hints(g, 0)
    >>> hints[-2:]  # bombs last
    ['play 4444', 'play 2222']
    >>> hints[0] in ('play 44448822', 'play 2222', 'play 4444')
    False
    """
    if seat not in game.acting:
        return []
    legal = game.legal_actions(seat)
    if game.phase != "play":
        return list(legal)
    from .bots.heuristic import HeuristicBot

    advisor = _ADVISORS.get(seat)
    if advisor is None:
        advisor = _ADVISORS[seat] = HeuristicBot(0)
    moves = game.legal_moves()
    labels = {m: m.label(game.rules) for m in moves}
    moves = [m for m in moves if "play " + labels[m] in legal]
    return hint_actions(legal, moves, labels, game.counts[seat], game.observe(seat), advisor)


def forced_action(game: Any, seat: int) -> str | None:
    """The action ``seat`` will surely take, which a table may take for it after a moment: ``pass`` when nothing
    beats the table (要不起), or the last card when it may be played.

    >>> from qipai.games.doudizhu.rules import PRESETS
    >>> from qipai.games.doudizhu.state import Game
    >>> g = Game.new(PRESETS["classic"], seed=7)
    >>> forced_action(g, 2) is None   # bidding is a choice
    True
    """
    if seat not in game.acting or game.phase != "play":
        return None
    legal = game.legal_actions(seat)
    if legal == ["pass"]:
        return "pass"
    if sum(game.counts[seat]) == 1:
        plays: list[str] = [a for a in legal if a != "pass"]
        if len(plays) == 1:
            return plays[0]
    return None
