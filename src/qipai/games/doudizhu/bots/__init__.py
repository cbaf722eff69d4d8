"""Dou Dizhu bots: ``random``, ``passive`` (the seed's auto-play), ``heuristic`` (a hand planner), ``search``
(sampled deals with heuristic play-outs), ``dmc`` (learned action values; needs NumPy), and the baselines
``rlcard``/``douzero`` where those packages are installed.  :data:`BOTS` maps each name to ``make(seed)``."""

from __future__ import annotations

from collections.abc import Callable

from ....bots.base import Bot, RandomBot
from .passive import PassiveBot

BOTS: dict[str, Callable[[int], Bot]] = {
    "random": lambda seed: RandomBot(seed),
    "passive": lambda seed: PassiveBot(seed),
}
"""Bot name → ``make(seed)``."""


def register(name: str, make: Callable[[int], Bot]) -> None:
    """Add a Dou Dizhu bot (the bot modules below call this when imported)."""
    BOTS[name] = make


from . import baselines, bidding, heuristic, levels, resnet, search  # noqa: E402,F401  (each registers its bots)


def _dmc(seed: int) -> Bot:
    try:
        from .dmc import dmc_bot
    except ImportError as e:
        raise ImportError(f"the dmc bot needs NumPy ({e}): pip install numpy") from None
    return dmc_bot(seed)


register("dmc", _dmc)

__all__ = ["BOTS", "PassiveBot", "register"]
