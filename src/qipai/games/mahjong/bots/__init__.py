"""Mahjong bots: ``random``, ``passive`` (the auto-play of RULES-mahjong.md §9), ``efficiency`` and the strength
levels ``easy``, ``normal`` and ``hard`` (:class:`~.hard.HardBot`).

A bot sees only a seat's observation and its legal actions.  :data:`BOTS` builds one by name from a seed.

>>> sorted(BOTS)
['easy', 'efficiency', 'hard', 'normal', 'passive', 'random']
>>> BOTS["passive"](0).act({"phase": "claim"}, ["chi 456m", "pass"])
'pass'
"""

from __future__ import annotations

from collections.abc import Callable

from ....bots.base import NoisyBot
from .base import Bot, PassiveBot, RandomBot
from .efficiency import EfficiencyBot
from .hard import HardBot

BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "passive": PassiveBot,
    "efficiency": EfficiencyBot,
    # the strength levels a player may choose for bot seats (GameInfo.levels)
    "easy": lambda seed: NoisyBot(EfficiencyBot(seed), seed, 0.3),
    "normal": EfficiencyBot,
    "hard": HardBot,
}

__all__ = ["BOTS", "Bot", "EfficiencyBot", "HardBot", "PassiveBot", "RandomBot"]
