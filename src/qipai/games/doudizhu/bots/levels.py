"""Strength levels for players: ``easy``, ``normal``, ``hard``, ``expert``, each a bot and a budget.

A server's bot seat (or a player choosing an opponent) names a level, not a bot.  :data:`LEVELS` maps each
level to an arena bot spec (:class:`~qipai.games.doudizhu.bots.arena.BotSpec`), :func:`level_bot` builds the
bot, and the levels are registered as bot names too (``qipai.bots.get_bot("hard", seed)``), so anything that
builds bots by name accepts them.

==========  ==========================================================  ===================================
level       bot                                                         time per move (one core)
==========  ==========================================================  ===================================
``easy``    ``heuristic``, a random legal action 30% of the time        under 1 ms
``normal``  ``heuristic``                                               under 1 ms
``hard``    ``dmc``, the learned values, bids by their odds; four       under 1 ms (four players: at most
            players: ``search``, 0.25 s per decision                    about 0.25 s)
``expert``  ``dmc``, 0.5 s of rollouts per decision, bids by the       about 0.5 s (four players: at
            values' odds; four players: ``search``, 1 s per decision    most about 1 s)
==========  ==========================================================  ===================================

The ``hard`` and ``expert`` levels bid by odds: on three-player tables the learned network's own chance of
winning the hand as landlord (``dmc:bid=net``, :func:`~qipai.games.doudizhu.bots.dmc.landlord_value`), elsewhere
the calibrated play-out odds (:mod:`~qipai.games.doudizhu.bots.bidding`) within their budget; on four-player
tables the heuristic's bidding takes the landlord far too rarely.  Both play
three-player tables with the learned values (:mod:`~qipai.games.doudizhu.bots.dmc`), ``expert`` with 0.5 s of
rollouts on top (the strongest bot here), and the tables the network was not trained for with the search.

At a table the budgets are elapsed time (what a player waits); most search decisions stop well before it,
when one candidate is clearly best.  The measured strength of each level against the one below is in
docs/bots.md.

>>> sorted(LEVELS)
['easy', 'expert', 'hard', 'normal']
>>> level_of_bot("dmc:bid=net,other=search,time=0.25,clock=wall")
'hard'
>>> bot = level_bot("easy", seed=3)
>>> bot.act({"phase": "bid", "hand": [], "players": 3, "seat": 0, "card_counts": [17, 17, 17]}, ["pass"])
'pass'
"""

from __future__ import annotations

from typing import Any

from ....bots.base import Bot
from ....bots.base import NoisyBot as _Noisy

LEVELS: dict[str, str] = {
    "easy": "noisy:p=0.3",
    "normal": "heuristic",
    "hard": "dmc:bid=net,other=search,time=0.25,clock=wall",
    "expert": "dmc:rollouts=0.5,margin=0.03,clock=wall,bid=net,other=search,time=1.0",
}
"""Level → the arena spec of its bot."""

LEVEL_ORDER = ("easy", "normal", "hard", "expert")
"""The levels from weakest to strongest."""


class NoisyBot(_Noisy):
    """``heuristic``, except that with probability ``p`` a decision is a uniformly random legal action
    (seeded: games stay reproducible).  A gentle opponent for beginners: it still bids and plays sensibly
    most of the time."""

    def __init__(self, seed: int = 0, p: float = 0.3) -> None:
        from .heuristic import HeuristicBot

        super().__init__(HeuristicBot(seed), seed, p)

    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        """As :class:`qipai.bots.base.NoisyBot`, except that a play that goes out (every card left) is always
        made: a bot that passes with its last card in hand looks broken, not gentle."""
        left = len(observation.get("hand") or ())
        for a in legal_actions:
            if left and a.startswith("play ") and len(a[5:].split(":")[0].replace(" ", "")) == left:
                return a
        return super().act(observation, legal_actions)


def level_bot(level: str, seed: int = 0) -> Bot:
    """The bot of a level; an unknown level raises ``KeyError`` naming the levels."""
    if level not in LEVELS:
        raise KeyError(f"unknown level {level!r}: expected one of {', '.join(LEVEL_ORDER)}")
    from .arena import make_bot

    return make_bot(LEVELS[level], seed)


def level_of_bot(spec: str) -> str | None:
    """The level whose bot ``spec`` is (``None`` when it is no level's)."""
    from .arena import BotSpec

    want = BotSpec.parse(spec)
    for level, s in LEVELS.items():
        have = BotSpec.parse(s)
        if have.name == want.name and sorted(have.options) == sorted(want.options):
            return level
    return None


def _register() -> None:
    from . import register

    register("noisy", lambda seed: NoisyBot(seed))
    for level in LEVEL_ORDER:
        register(level, lambda seed, level=level: level_bot(level, seed))  # type: ignore[misc]


_register()

__all__ = ["LEVELS", "LEVEL_ORDER", "NoisyBot", "level_bot", "level_of_bot"]
