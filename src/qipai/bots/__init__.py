"""Bots: each sees only its seat's observation and the legal actions, never hidden cards.

>>> bot = get_bot("passive", seed=1)
>>> bot.act({"phase": "bid", "hand": []}, ["pass", "bid 1"])
'pass'
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, PassiveBot, RandomBot

_REGISTRY: dict[str, Callable[[int], Bot]] = {
    "random": lambda seed: RandomBot(seed),
    "passive": lambda seed: PassiveBot(seed),
}


def register(name: str, make: Callable[[int], Bot]) -> None:
    """Make a bot available by name (``make(seed)`` builds one)."""
    _REGISTRY[name] = make


def bot_names() -> list[str]:
    """Names accepted by :func:`get_bot`."""
    _load_optional()
    return sorted(_REGISTRY)


def get_bot(name: str, seed: int = 0) -> Bot:
    """A new bot by name; an unknown name raises ``KeyError`` listing the known ones."""
    _load_optional()
    try:
        make = _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown bot {name!r}: known bots are {sorted(_REGISTRY)}") from None
    return make(seed)


def _load_optional() -> None:
    """Import bot modules that register themselves (they may not exist yet in every build)."""
    import importlib

    for mod in ("heuristic", "search", "baselines"):
        try:
            importlib.import_module(f"{__name__}.{mod}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{mod}":
                raise


__all__ = ["Bot", "PassiveBot", "RandomBot", "bot_names", "get_bot", "register"]
