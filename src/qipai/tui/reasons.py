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


def translate(lang: str, why: str, table: Patterns) -> str:
    """``why`` for ``lang``: in English the engine's sentence as it is; in Chinese the first pattern of ``table``
    that matches it whole, or a general phrase with the engine's sentence in parentheses (nothing is lost)."""
    if lang != "zh":
        return why
    for rx, words in table:
        m = rx.fullmatch(why.strip())
        if m is not None:
            return words(m)
    return f"规则不允许（{why}）"
