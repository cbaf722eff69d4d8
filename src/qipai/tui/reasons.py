"""The engine's reasons for refusing an action, in the player's words: each game's terminal session keeps a table
of patterns (``tui/shengji/reasons.py``, ``tui/mahjong/reasons.py``) and reads a reason with :func:`translate`.

>>> import re
>>> table = [(re.compile(r"you hold no (\\S+)"), lambda m: f"你手里没有 {m[1]}")]
>>> translate("zh", "you hold no 5m", table), translate("en", "you hold no 5m", table)
('你手里没有 5m', 'you hold no 5m')
>>> translate("zh", "something new", table)
'规则不允许（something new）'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

Patterns = Sequence[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]]
"""A game's reasons: a pattern of the engine's English sentence and the Chinese words for a match."""


_YOU_EN = [(re.compile(p), r) for p, r in (
    (r"\bnot seat 0's\b", "not yours"), (r"\bseat 0's\b", "your"), (r"\bseat 0 is\b", "you are"),
    (r"\bseat 0 has\b", "you have"), (r"\bseat 0 does\b", "you do"), (r"\bhis next draw\b", "your next draw"),
    (r"\bhis hand is frozen and he can\b", "your hand is frozen and you can"), (r"\bseat 0\b", "you"))]
"""The engine's sentences about ``seat 0`` (the terminal player) as an English player reads them."""


def to_you(why: str) -> str:
    """An engine's sentence about seat 0, the terminal's player, said to that player.

    >>> to_you("it is seat 2's turn, not seat 0's"), to_you("seat 0 is not ready (上听) and cannot win")
    ("it is seat 2's turn, not yours", 'you are not ready (上听) and cannot win')
    >>> to_you("seat 0's hand does not win"), to_you("seat 0 declined a win before his next draw")
    ('your hand does not win', 'you declined a win before your next draw')
    """
    for pat, rep in _YOU_EN:
        why = pat.sub(rep, why)
    return why


def translate(lang: str, why: str, table: Patterns, english: Patterns = ()) -> str:
    """``why`` for ``lang``: in English the first pattern of ``english`` that matches it whole (a game whose
    engine speaks in its own notation rewords its sentences), else the engine's sentence, said to the player
    (seat 0) as "you" (:func:`to_you`); in Chinese the first pattern of ``table`` that matches it whole, or a
    general phrase with the engine's sentence in parentheses (nothing is lost)."""
    said = _reworded(why, table if lang == "zh" else english)
    if said is not None:
        return said
    return f"规则不允许（{why}）" if lang == "zh" else to_you(why)


def _reworded(why: str, table: Patterns) -> str | None:
    """``why`` in the words of the first pattern of ``table`` that matches it whole (``None``: none does)."""
    for rx, words in table:
        m = rx.fullmatch(why.strip())
        if m is not None:
            return words(m)
    return None
