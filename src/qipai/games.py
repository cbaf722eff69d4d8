"""The registry of games a host can run, each behind the :class:`~qipai.game.GameFactory` interface.

>>> f = get_factory("doudizhu")
>>> g = f.new({"preset": "classic"}, seed=1, context={})
>>> g.players, g.phase
(3, 'bid')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .game import GameFactory, TurnGame


class DoudizhuFactory:
    """Dou Dizhu deals (``options`` are :class:`~qipai.doudizhu.rules.Rules` options, e.g. ``{"preset": "jj"}``).

    ``context`` keys: ``first_bidder`` (int, for ``random_then_rotate`` tables after their first deal; see
    :func:`~qipai.doudizhu.state.next_first_bidder`), ``table_points`` (list of ints, for minimisation).
    """

    name = "doudizhu"

    def new(self, options: Mapping[str, Any], seed: int, context: Mapping[str, Any]) -> TurnGame:
        from .doudizhu.state import game_from_options

        return game_from_options(options, seed, context)

    def replay(self, record: Mapping[str, Any]) -> TurnGame:
        from .doudizhu.record import replay

        return replay(record)

    def players(self, options: Mapping[str, Any]) -> int:
        from .doudizhu.rules import Rules

        return Rules.from_options(options).players

    def next_context(self, options: Mapping[str, Any], previous: TurnGame | None) -> dict[str, Any]:
        """Context for a table's next deal: who bids first after ``previous`` under the rules' rotation."""
        from .doudizhu.rules import Rules
        from .doudizhu.state import Game, next_first_bidder

        rules = Rules.from_options(options)
        prev = previous if isinstance(previous, Game) else None
        fb = next_first_bidder(rules, prev)
        return {} if fb is None else {"first_bidder": fb}


_FACTORIES: dict[str, GameFactory] = {"doudizhu": DoudizhuFactory()}


def get_factory(name: str) -> GameFactory:
    """The factory for game ``name``; an unknown name raises ``KeyError`` listing the known ones."""
    try:
        return _FACTORIES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}: known games are {sorted(_FACTORIES)}") from None
