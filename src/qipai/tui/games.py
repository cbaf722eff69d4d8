"""The terminal sessions of the games other than Dou Dizhu (whose table is :mod:`qipai.tui.table`): each is a
package here exposing ``run_from_cli(**options)`` (the ``qipai play`` options) and ``record_lines(outcome,
lang)`` (and optionally ``replay_lines(record, lang)``, a record step by step); the command line finds them by
game name.

>>> sorted(TERMINAL_GAMES)
['mahjong', 'shengji']
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from ..core.game import IllegalAction
from ..core.registry import get_factory
from .records import record_names

TERMINAL_GAMES = {"mahjong": "qipai.tui.mahjong", "shengji": "qipai.tui.shengji"}
"""Game name → the package of its terminal session."""


def play(game: str, **options: Any) -> int:
    """``qipai play --game GAME``: the game's terminal session with the command's options; an unknown game (or bad
    options) raises :class:`~qipai.tui.table.SetupError`."""
    from .table import SetupError

    if game not in TERMINAL_GAMES:
        names = ["doudizhu", *sorted(TERMINAL_GAMES)]
        raise SetupError(f"no terminal game {game!r}: choose {', '.join(names[:-1])} or {names[-1]}")
    code: int = importlib.import_module(TERMINAL_GAMES[game]).run_from_cli(**options)
    return code


def replay_lines(record: Mapping[str, Any], lang: str) -> list[str]:
    """A record of one of :data:`TERMINAL_GAMES` replayed by its factory and described; raises ``ValueError``
    naming the first illegal step (or what is wrong with the record).

    A game package that exposes ``replay_lines(record, lang)`` (mahjong) tells the record step by step itself,
    an unfinished record included; for the others the finished hand is described by ``record_lines(outcome,
    lang)`` and a record that ends before the hand is over is refused."""
    name = str(record.get("game"))
    if name not in TERMINAL_GAMES:
        raise ValueError(f"no terminal replay for game {name!r}: known games are doudizhu, "
                         f"{', '.join(sorted(TERMINAL_GAMES))}")
    mod = importlib.import_module(TERMINAL_GAMES[name])
    steps = getattr(mod, "replay_lines", None)
    players = record.get("players")
    # the seats by the players' names where the record carries them (docs/records.md), else the game's own words
    # (one per seat of the game's table, however many the record lists: a seat it does not name stays "", which
    # the game's view numbers as it numbers the seats of a record without players)
    seats = get_factory(name).info.max_players
    names = record_names(record, lang, [""] * seats) if isinstance(players, list) else None
    try:
        if steps is not None:
            return [t.plain for t in steps(record, lang, names)]
        game = get_factory(name).replay(record)
    except IllegalAction as e:
        raise ValueError(str(e)) from None
    out = game.outcome()
    if out is None:
        raise ValueError("the record ends before the hand is over")
    return [t.plain for t in mod.record_lines(out, lang, names)]
