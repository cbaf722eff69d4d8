"""Mahjong bots: ``random``, ``passive`` (the auto-play of RULES-mahjong.md §9) and ``efficiency``.

A bot sees only a seat's observation and its legal actions.  :data:`BOTS` builds one by name from a seed.

>>> sorted(BOTS)
['efficiency', 'passive', 'random']
>>> BOTS["passive"](0).act({"phase": "claim"}, ["chi 456m", "pass"])
'pass'
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, PassiveBot, RandomBot
from .efficiency import EfficiencyBot

BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "passive": PassiveBot,
    "efficiency": EfficiencyBot,
}

__all__ = ["BOTS", "Bot", "EfficiencyBot", "PassiveBot", "RandomBot"]
