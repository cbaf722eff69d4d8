"""Shengji bots, built by name and seed: ``BOTS[name](seed)``.  Each sees only its seat's observation and the
legal-action list (a partial list in play: a bot may build its own plays from its hand, and returns a legal one).

>>> sorted(BOTS)
['easy', 'hard', 'normal', 'passive', 'random', 'rule']
>>> BOTS["passive"](0).act({"phase": "deal"}, ["pass", "declare 3S"])
'pass'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ....bots.base import NoisyBot
from .basic import PassiveBot, RandomBot
from .hard import HardBot
from .rule import RuleBot


class Bot(Protocol):
    name: str

    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str: ...


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "passive": PassiveBot,
    "rule": RuleBot,
    # the strength levels a player may choose for bot seats (GameInfo.levels)
    "easy": lambda seed: NoisyBot(RuleBot(seed), seed, 0.3),
    "normal": RuleBot,
    "hard": HardBot,
}

__all__ = ["BOTS", "Bot", "HardBot", "PassiveBot", "RandomBot", "RuleBot"]
