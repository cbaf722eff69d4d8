"""What ``qipai online`` asks of each game's view: turn the server's ``state`` messages (this seat's
observation, the legal actions, hints) into lines and a screen, read what the player types into an action from
the legal list, and word the settlement of a ``deal_over``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.console import RenderableType
from rich.text import Text

State = Mapping[str, Any]
"""A ``state`` message (docs/protocol.md §4.4)."""


@dataclass
class Reply:
    """What a typed line means at one's turn: an ``action`` to send (or ``None``) and lines to show first;
    ``check``: the action is not in the state's legal list, which is partial (a Shengji play): the server is asked
    first (``check``) and the action goes only if it is legal, else its reason is shown."""

    action: str | None = None
    out: list[RenderableType] = field(default_factory=list)
    check: bool = False


@dataclass
class Seats:
    """The table's seats as the view names them: ``names`` (display names, yours as "You"), ``me`` (your seat)
    and ``points`` (each seat's platform points, ``None`` for an empty seat)."""

    names: list[str]
    me: int
    points: list[int | None]

    @property
    def watching(self) -> bool:
        """Whether the view is a spectator's (no seat of one's own: ``me`` is -1)."""
        return self.me < 0


class GameView:
    """The base of a game's observation-based view; a game overrides what it shows and reads."""

    game = ""

    def __init__(self, lang: str, seats: Seats) -> None:
        self.lang = lang
        self.seats = seats
        self.deal: int | None = None
        self.last_obs: Mapping[str, Any] | None = None

    @property
    def names(self) -> list[str]:
        """The seats' display names."""
        return self.seats.names

    def begin(self, state: State, fresh: bool) -> None:
        """A state of a deal not seen before (``fresh``: joined in the middle of it: its past is not told)."""
        self.deal = state["deal"]

    def events(self, state: State) -> list[RenderableType]:
        """A line for each public event since the last state."""
        self.last_obs = state["observation"]
        return []

    def screen(self, state: State) -> list[RenderableType]:
        """The table as this seat sees it, drawn at its turn."""
        return []

    def redraw(self, state: State) -> bool:
        """Whether a turn of this state draws the screen (not every declaration window of a Shengji deal)."""
        return True

    def prompt(self, state: State) -> str:
        """What the prompt asks at this seat's turn (without the time left and ``>``)."""
        return "/".join(state.get("legal") or [])

    def read(self, line: str, state: State) -> Reply:
        """A typed line at this seat's turn."""
        legal = list(state.get("legal") or [])
        text = line.strip()
        if text in legal:
            return Reply(text)
        return Reply(None, [Text(text, style="bold red")])

    def info(self, line: str, state: State | None) -> list[RenderableType] | None:
        """A command that only shows something (``hand``, ``last`` …), at any time; ``None`` if it is none."""
        return None

    def settlement(self, msg: Mapping[str, Any]) -> list[RenderableType]:
        """The settlement of a ``deal_over`` message."""
        return []

    def refusal(self, params: Mapping[str, Any]) -> str | None:
        """Why the rules refused an action (``illegal_action``'s ``params``), in words; ``None``: the general
        wording."""
        reason = params.get("reason")
        return str(reason) if reason else None

    def help(self) -> str:
        """The game's own commands."""
        return ""
