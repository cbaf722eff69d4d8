"""The text form of Dou Dizhu actions, used everywhere: CLI, records, server, bots.

``pass``, ``bid 2``, ``call``, ``double``, ``redouble``, ``show``, ``play 33344`` (optionally with the reading:
``play 333444555666:plane``).  The host's events are written ``autoplay on``, ``autoplay off``, ``timeout`` and
``leave`` (``escape`` in records of version 1).

>>> a = parse_action("play 10 10 J J Q Q")
>>> a.verb, a.cards, format_action(a)
('play', 'TTJJQQ', 'play TTJJQQ')
>>> format_action(parse_action(" Bid   3 "))
'bid 3'
>>> a = parse_action("play 3h 3S 4♦")
>>> a.cards, format_action(a)
('334', 'play 3S 3H 4D')
>>> parse_action("bid 4")
Traceback (most recent call last):
...
qipai.core.game.IllegalAction: bad bid 'bid 4': a bid is 1, 2 or 3
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ...core.game import IllegalAction
from .cards import CARDS_PER_DECK, Card, NotationError, format_ranks, parse_cards, parse_ranks
from .rules import KINDS, MAX_DECKS

VERBS = ("pass", "bid", "call", "double", "redouble", "show", "play", "autoplay", "timeout", "escape", "leave")
"""Every verb; ``autoplay``, ``timeout``, ``escape`` and ``leave`` are read only to be refused: they are the host's
events (:mod:`qipai.core.game`), not actions."""


@dataclass(frozen=True, slots=True)
class Action:
    """A parsed action: ``verb`` plus ``value`` (bid amount, ``on``/``off``) or ``cards``/``kind``/``main``.

    A play may name the physical cards (``play 3S 3H 4D``): ``suited`` holds their ids within one deck
    (``Card.id % 54``), sorted, and ``cards`` their ranks as always."""

    verb: str
    value: int | str | None = None
    cards: str = ""
    kind: str | None = None
    main: str | None = None
    suited: tuple[int, ...] = ()


_SUITED = re.compile(r"(?:10|[2-9TJQKAtjqka])[SHCDshcd♠♥♣♦]")


@lru_cache(maxsize=8192)
def parse_action(text: str) -> Action:
    """Read an action's text form; an unreadable action raises :class:`~qipai.core.game.IllegalAction`."""
    words = text.strip().split(None, 1)
    if not words:
        raise IllegalAction("empty action: expected pass, bid N, call, double, redouble, show, play CARDS, ...")
    verb = words[0].lower()
    rest = words[1].strip() if len(words) > 1 else ""
    if verb not in VERBS:
        raise IllegalAction(f"unknown action {words[0]!r}: expected one of {', '.join(VERBS)}")
    if verb == "bid":
        if rest not in ("1", "2", "3"):
            raise IllegalAction(f"bad bid {text.strip()!r}: a bid is 1, 2 or 3")
        return Action("bid", int(rest))
    if verb == "autoplay":
        if rest.lower() not in ("on", "off"):
            raise IllegalAction(f"bad action {text.strip()!r}: say 'autoplay on' or 'autoplay off'")
        return Action("autoplay", rest.lower())
    if verb == "play":
        parts = rest.split(":")
        if not rest or len(parts) > 3:
            raise IllegalAction(f"bad play {text.strip()!r}: expected 'play CARDS' or 'play CARDS:kind'")
        suited: tuple[int, ...] = ()
        try:
            if _SUITED.search(parts[0]):
                cards = parse_cards(parts[0].replace("♠", "S").replace("♥", "H").replace("♣", "C")
                                    .replace("♦", "D"), decks=MAX_DECKS)
                suited = tuple(sorted(c.id % CARDS_PER_DECK for c in cards))
                ranks = [c.rank for c in cards]
            else:
                ranks = parse_ranks(parts[0])
        except NotationError as e:
            raise IllegalAction(str(e)) from None
        if not ranks:
            raise IllegalAction("a play needs at least one card; to pass, say 'pass'")
        kind = parts[1].strip() if len(parts) > 1 else None
        if kind is not None and kind not in KINDS:
            raise IllegalAction(f"unknown kind {kind!r}: expected one of {', '.join(KINDS)}")
        main = None
        if len(parts) == 3:
            try:
                m = parse_ranks(parts[2])
            except NotationError as e:
                raise IllegalAction(str(e)) from None
            if len(m) != 1:
                raise IllegalAction(f"bad main rank {parts[2]!r}: expected one rank letter")
            main = format_ranks(m)
        return Action("play", None, format_ranks(ranks), kind, main, suited)
    if rest:
        raise IllegalAction(f"bad action {text.strip()!r}: {verb!r} takes nothing after it")
    return Action(verb)


def format_action(action: Action) -> str:
    """The canonical text of an action (``parse_action(format_action(a)) == a``)."""
    if action.verb == "bid" or action.verb == "autoplay":
        return f"{action.verb} {action.value}"
    if action.verb == "play":
        s = f"play {action.cards}" if not action.suited else \
            "play " + " ".join(str(Card(i)) for i in action.suited)
        if action.kind:
            s += f":{action.kind}"
            if action.main:
                s += f":{action.main}"
        return s
    return action.verb
