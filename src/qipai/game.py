"""The small interface every game implements, so bots, the server and the store serve any game unchanged.

A game is a deterministic state machine driven by text actions.  Everything a host needs goes through
:class:`Game`: who acts, what they may do, applying an action, what each seat may see, the outcome and the
record.  Dou Dizhu implements it in :mod:`qipai.games.doudizhu.state`; later games (Shengji, mahjong) do the same.

Seat actions that any seat may take at any time (not only on its turn) are ``autoplay on``, ``autoplay off``
and ``escape``; ``timeout`` is applied by the host for the seat whose turn it is when its time runs out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why.  The game state is left untouched."""


JSON = dict[str, Any]


@runtime_checkable
class Game(Protocol):
    """One deal (or hand) of a turn-based card game."""

    @property
    def players(self) -> int:
        """Number of seats, numbered ``0..players-1`` in turn order."""
        ...

    @property
    def phase(self) -> str:
        """The current phase name (Dou Dizhu: ``bid``, ``double``, ``show``, ``play``, ``over``)."""
        ...

    @property
    def to_act(self) -> int | None:
        """The seat whose decision it is, or ``None`` once the game is over."""
        ...

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (someone went out, it was dissolved, or a player escaped)."""
        ...

    def legal_actions(self) -> list[str]:
        """The text actions the seat to act may take now (turn actions only: no ``autoplay``/``escape``)."""
        ...

    def apply(self, action: str, seat: int | None = None) -> None:
        """Apply one text action by ``seat`` (default: the seat to act).

        Raises :class:`IllegalAction` with the reason, leaving the state untouched.
        """
        ...

    def time_limit(self) -> int | None:
        """Seconds the seat to act has for the current decision under the rules, or ``None``."""
        ...

    def in_autoplay(self, seat: int) -> bool:
        """Whether ``seat`` is in auto-play (托管)."""
        ...

    def observe(self, seat: int | None) -> JSON:
        """What ``seat`` may see, as JSON-ready data; ``None`` is a spectator who sees no hand."""
        ...

    def outcome(self) -> JSON | None:
        """The settlement once over (``scores``: each seat's change, plus game-specific detail), else ``None``."""
        ...

    def record(self) -> JSON:
        """The JSON game record: enough to rebuild this exact game with the game's ``replay``."""
        ...


@runtime_checkable
class SplitObservation(Protocol):
    """Optional for a :class:`Game`: its observation in a part all seats share and a part of their own.

    ``observe_parts(seat)`` returns ``(shared, own)`` with ``observe(seat) == {**shared, **own}``, no key in
    both, and ``shared`` the very same object for every seat until the next accepted action.  A server then
    encodes ``shared`` once per action instead of once per seat.
    """

    def observe_parts(self, seat: int | None) -> tuple[JSON, JSON]:
        """``(shared, own)`` as above."""
        ...


class GameFactory(Protocol):
    """How a host creates and restores games of one kind."""

    name: str

    def new(self, options: Mapping[str, Any], seed: int, context: Mapping[str, Any]) -> Game:
        """A new game.  ``options`` are rule options (``{"preset": "classic", ...}``); ``context`` carries
        table facts the rules may use (``deal_index``, ``previous_first_bidder``, ``table_points``)."""
        ...

    def replay(self, record: Mapping[str, Any]) -> Game:
        """Rebuild a game from its record; refuses a record with an illegal action, naming it."""
        ...

    def players(self, options: Mapping[str, Any]) -> int:
        """Number of seats under these options."""
        ...
