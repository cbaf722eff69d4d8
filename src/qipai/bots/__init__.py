"""Bots of every game: each sees only its seat's observation and the legal actions, never hidden cards.

Each game keeps its bots in ``qipai.games.<game>.bots`` as ``BOTS`` (name → ``make(seed)``); this module finds
them by game.

>>> bot = get_bot("passive", seed=1, game="doudizhu")
>>> bot.act({"phase": "bid", "hand": []}, ["pass", "bid 1"])
'pass'
>>> "heuristic" in bot_names("doudizhu")
True
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from .base import Bot, RandomBot

if TYPE_CHECKING:
    from ..core.game import Game

Maker = Callable[[int], Bot]
_EXTRA: dict[str, dict[str, Maker]] = {}


def register(name: str, make: Maker, *, game: str) -> None:
    """Make a bot available by name for ``game`` (``make(seed)`` builds one)."""
    _EXTRA.setdefault(game, {})[name] = make


def game_bots(game: str) -> Mapping[str, Maker]:
    """Every bot of ``game``: its own (``qipai.games.<game>.bots.BOTS``) plus any registered here."""
    out: dict[str, Maker] = {"random": lambda seed: RandomBot(seed)}
    try:
        mod = importlib.import_module(f"qipai.games.{game}.bots")
    except ModuleNotFoundError as e:
        if e.name not in (f"qipai.games.{game}", f"qipai.games.{game}.bots"):
            raise
    else:
        out.update(getattr(mod, "BOTS", {}))
    out.update(_EXTRA.get(game, {}))
    return out


def split_bots(text: str, flag: str = "--bots") -> list[str]:
    """A comma-separated list of bots, one per seat, as typed (``--bots heuristic,search:time=0.5``): a bot's
    options (``NAME:key=value,key=value``) stay with it; an empty entry is a ``ValueError`` naming ``flag``.

    >>> split_bots(" heuristic, search:time=0.5,samples=8 ,random")
    ['heuristic', 'search:time=0.5,samples=8', 'random']
    >>> split_bots("heuristic,,random")
    Traceback (most recent call last):
    ...
    ValueError: --bots 'heuristic,,random' has an empty entry (number 2): name a bot for each seat
    """
    out: list[str] = []
    for i, part in enumerate(text.split(","), start=1):
        piece = part.strip()
        if not piece:
            raise ValueError(f"{flag} {text!r} has an empty entry (number {i}): name a bot for each seat")
        key, eq, _ = piece.partition("=")
        if eq and ":" not in key and out and ":" in out[-1]:  # another option of the bot before
            out[-1] += "," + piece
        else:
            out.append(piece)
    return out


def bot_names(game: str = "doudizhu") -> list[str]:
    """Names accepted by :func:`get_bot` for ``game``."""
    return sorted(game_bots(game))


def get_bot(name: str, seed: int = 0, game: str = "doudizhu") -> Bot:
    """A new bot of ``game`` by name; an unknown name raises ``KeyError`` listing the known ones."""
    bots = game_bots(game)
    try:
        make = bots[name]
    except KeyError:
        raise KeyError(f"unknown bot {name!r} for {game}: known bots are {', '.join(sorted(bots))}") from None
    return make(seed)


def play_out(game: Game, bots: Sequence[Bot], limit: int, what: str = "the deal") -> None:
    """Play ``game`` to its end with one bot a seat (the first acting seat answers in a joint decision).  Each
    bot gets its own copy of its seat's observation; an illegal answer counts as that seat's timeout, as at a
    table.  More than ``limit`` decisions raise ``RuntimeError`` naming ``what``."""
    from ..core.game import IllegalAction

    steps = 0
    while not game.is_over:
        steps += 1
        if steps > limit:
            raise RuntimeError(f"{what} did not end in {limit} decisions")
        seat = game.acting[0]
        view = json.loads(json.dumps(game.observe(seat)))  # the bot's own copy, never the game's
        try:
            game.apply(bots[seat].act(view, list(game.legal_actions(seat))), seat)
        except IllegalAction:
            game.timeout(seat)


__all__ = ["Bot", "RandomBot", "bot_names", "game_bots", "get_bot", "play_out", "register", "split_bots"]
