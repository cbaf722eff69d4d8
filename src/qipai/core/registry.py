"""The registry of games a host can run, each behind :class:`~qipai.core.game.GameFactory`.

A game is one folder under ``qipai/games/`` and one line in :data:`GAMES` (or a call to :func:`register`, for a
game that lives elsewhere, e.g. a test's toy game).

>>> f = get_factory("doudizhu")
>>> g = f.new({"preset": "classic"}, seed=1, context={})
>>> g.players, g.phase
(3, 'bid')
>>> "doudizhu" in game_names()
True
"""

from __future__ import annotations

import importlib

from .game import GameFactory

GAMES: dict[str, str] = {
    "doudizhu": "qipai.games.doudizhu.factory:FACTORY",
    "shengji": "qipai.games.shengji.factory:FACTORY",
    "mahjong": "qipai.games.mahjong.factory:FACTORY",
}
"""Game name → ``module:attribute`` of its factory (imported when first asked for)."""

_LOADED: dict[str, GameFactory] = {}


def register(name: str, factory: GameFactory) -> None:
    """Make ``factory`` available as game ``name`` (replacing any game of that name)."""
    _LOADED[name] = factory
    GAMES.setdefault(name, "")


def unregister(name: str) -> None:
    """Forget a game added with :func:`register` (tests)."""
    _LOADED.pop(name, None)
    if GAMES.get(name) == "":
        del GAMES[name]


def game_names() -> list[str]:
    """Every registered game, in registry order."""
    return list(GAMES)


def get_factory(name: str) -> GameFactory:
    """The factory for game ``name``; an unknown name raises ``KeyError`` listing the known ones."""
    loaded = _LOADED.get(name)
    if loaded is not None:
        return loaded
    where = GAMES.get(name)
    if not where:
        raise KeyError(f"unknown game {name!r}: known games are {', '.join(sorted(GAMES))}")
    module, _, attr = where.partition(":")
    f: GameFactory = getattr(importlib.import_module(module), attr)
    _LOADED[name] = f
    return f
