"""The bot interface and the one bot every game shares.

A bot receives what its seat may see — the observation of :meth:`~qipai.core.game.Game.observe` — and the
legal actions, and returns one action.  It never receives the game object, so it cannot reach hidden cards.
"""

from __future__ import annotations

import random
from typing import Any, Protocol


class Bot(Protocol):
    """Anything with ``act(observation, legal_actions) -> action``."""

    name: str

    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        """Choose an action (one of ``legal_actions`` where the game lists them all)."""
        ...


class RandomBot:
    """Uniform over the legal actions (seeded, so games with it are reproducible).

    >>> RandomBot(1).act({}, ["pass", "bid 1"]) in ("pass", "bid 1")
    True
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        return self.rng.choice(legal_actions)
