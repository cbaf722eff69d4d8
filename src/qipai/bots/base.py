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


class NoisyBot:
    """Another bot, except that with probability ``p`` a decision is a uniformly random legal action (seeded:
    games stay reproducible): the ``easy`` level of a game, a gentle opponent that still plays sensibly most of
    the time.

    >>> bot = NoisyBot(RandomBot(1), seed=2, p=0.0)
    >>> bot.act({}, ["pass", "bid 1"]) == RandomBot(1).act({}, ["pass", "bid 1"])
    True
    """

    name = "noisy"

    def __init__(self, inner: Bot, seed: int = 0, p: float = 0.3) -> None:
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"the noise p must be between 0 and 1, not {p}")
        self.inner = inner
        self.rng = random.Random(seed ^ 0x5EED)
        self.p = p

    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        """The inner bot's choice, or with probability ``p`` a random legal action."""
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        if len(legal_actions) > 1 and self.rng.random() < self.p:
            return self.rng.choice(legal_actions)
        return self.inner.act(observation, legal_actions)
