"""The interface every game implements, so that bots, the host (tables, timers, auto-play, matches), the store
and the server serve any game unchanged.

A game is a deterministic state machine driven by text actions: ``(options, seed, context, actions)``
determines it, and that is its record.  Its parts:

* :class:`Game` — one deal (or hand).  **Several seats may have a decision open at once** (:attr:`Game.acting`):
  a mahjong claim window, a Shengji declaration window.  Each acting seat answers with :meth:`Game.apply`; the
  game resolves the joint decision by its own rules once every seat needed has answered (or timed out).
* :class:`GameFactory` — creates, restores and describes games of one kind (:class:`GameInfo`), and carries
  the **match** from hand to hand as an explicit JSON state (:meth:`GameFactory.match_start`,
  :meth:`GameFactory.deal_context`, :meth:`GameFactory.match_after`), which the host persists between hands.

The host owns auto-play, timeouts and leaving.  It tells the game through three methods, not magic actions:
:meth:`Game.timeout` (the seat's time ran out: the game says what that means), :meth:`Game.set_autoplay`
(the game only records it, for settlements that depend on it) and :meth:`Game.leave` (the game says what
leaving costs).  In a journal or record these host events are written with the texts of :data:`HOST_EVENTS`
and replayed by :func:`apply_step`, which every game shares.

Illegal input raises :class:`IllegalAction` with the reason and leaves the state untouched;
:meth:`Game.check` gives the same reason without applying anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from .explain import Lang, Section
from .options import Option, OptionSet

JSON = dict[str, Any]


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why (in English) and ``rule`` names the rule it
    broke, for a client to word it (``not_your_turn``, ``does_not_beat``…; ``illegal`` when a game gives none).
    The game state is left untouched."""

    def __init__(self, message: str = "", rule: str = "illegal") -> None:
        super().__init__(message)
        self.rule = rule


TIMEOUT = "timeout"
AUTOPLAY_ON = "autoplay on"
AUTOPLAY_OFF = "autoplay off"
LEAVE = "leave"
HOST_EVENTS = (TIMEOUT, AUTOPLAY_ON, AUTOPLAY_OFF, LEAVE)
"""Journal texts of the host's events.  A client never sends them as actions (it uses the ``autoplay`` and
``leave`` messages); the host applies them through :func:`apply_step`."""

LEGACY_HOST_EVENTS = {"escape": LEAVE}
"""Texts that journals and records of format version 1 used for host events."""


@runtime_checkable
class Game(Protocol):
    """One deal (or hand) of a game for ``players`` seats numbered ``0..players-1`` in turn order."""

    @property
    def players(self) -> int:
        """Number of seats."""
        ...

    @property
    def phase(self) -> str:
        """The current phase: one of the game's :attr:`GameInfo.phases`."""
        ...

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        ...

    @property
    def acting(self) -> tuple[int, ...]:
        """The seats with a decision open now, in seat order: one in a turn, several in a joint decision,
        none once over."""
        ...

    def public_acting(self) -> tuple[int, ...]:
        """The acting seats every seat may know about (a claim window keeps who may claim to itself)."""
        ...

    def decision_index(self, seat: int) -> int:
        """A number that changes whenever a new decision opens for ``seat``: a host restarts the seat's clock
        when it changes (a seat still thinking in a joint decision keeps its clock)."""
        ...

    def legal_actions(self, seat: int) -> list[str]:
        """The actions ``seat`` may take now ([] when it does not act).  Where :attr:`GameInfo.complete_legal`
        is false the list may be partial (e.g. a few hints among millions of throws); it then holds at least
        one legal action whenever the seat acts, and :meth:`check` is the authority."""
        ...

    def check(self, action: str, seat: int) -> str | None:
        """``None`` if ``seat`` may take ``action`` now, else the reason it may not.  Changes nothing."""
        ...

    def apply(self, action: str, seat: int) -> None:
        """Apply one action of ``seat``.  Raises :class:`IllegalAction` with the reason, changing nothing."""
        ...

    def time_limit(self, seat: int) -> float | None:
        """Seconds the rules give ``seat`` for its open decision, or ``None`` (no limit / not acting)."""
        ...

    def timeout(self, seat: int) -> None:
        """``seat``'s time ran out: do what the rules say (pass, play the smallest card, close a window…),
        including putting the seat into auto-play where they say so.  Only for an acting seat."""
        ...

    def set_autoplay(self, seat: int, on: bool) -> None:
        """Record that the host put ``seat`` into (or out of) auto-play (托管).  Raises :class:`IllegalAction` when
        nothing would change.  The host, not the game, chooses and runs the auto-play bot."""
        ...

    def in_autoplay(self, seat: int) -> bool:
        """Whether ``seat`` is in auto-play."""
        ...

    def leave(self, seat: int) -> None:
        """``seat`` leaves the running deal on purpose (逃跑): the rules say what it costs — the deal may end
        with a penalty, or the seat goes on in auto-play."""
        ...

    def observe(self, seat: int | None) -> JSON:
        """What ``seat`` may see, as JSON-ready data; ``None`` is a spectator (no hidden holding)."""
        ...

    def outcome(self) -> JSON | None:
        """Once over: ``scores`` (each seat's change), ``roles`` (each seat's role name, or ``None``), ``won``
        (``True``/``False``/``None`` per seat), plus game-specific detail.  ``None`` before."""
        ...

    def record(self) -> JSON:
        """The JSON record: enough for the factory's :meth:`GameFactory.replay` to rebuild this exact game."""
        ...

    def clone(self) -> Game:
        """An independent copy (for search)."""
        ...

    def resample(self, seat: int, seed: int) -> Game:
        """A game with the same history as ``seat`` saw it, everything hidden from ``seat`` drawn anew (from
        ``seed``) consistently with it: ``resample(s, k).observe(s) == observe(s)``.  Search bots sample with it;
        the conformance suite checks with it that an observation holds nothing its seat may not see."""
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


def apply_step(game: Game, seat: int, text: str) -> None:
    """Apply one journal or record step: a host event of :data:`HOST_EVENTS` (or a legacy text) through its
    method, anything else through :meth:`Game.apply`."""
    event = LEGACY_HOST_EVENTS.get(text, text)
    if event == TIMEOUT:
        game.timeout(seat)
    elif event == AUTOPLAY_ON:
        game.set_autoplay(seat, True)
    elif event == AUTOPLAY_OFF:
        game.set_autoplay(seat, False)
    elif event == LEAVE:
        game.leave(seat)
    else:
        game.apply(text, seat)


def is_host_event(text: str) -> bool:
    """Whether ``text`` is a host event (which a client may not send as an action)."""
    t = " ".join(text.lower().split())
    return t in HOST_EVENTS or t in LEGACY_HOST_EVENTS or t.split(" ", 1)[0] in ("timeout", "autoplay", "leave",
                                                                               "escape")


class AutoplayFlags:
    """Auto-play bookkeeping a game can inherit: one flag per seat plus the seats ever in auto-play.

    Override :meth:`_autoplay_changed` to react (Dou Dizhu: a seat going into auto-play with one card left
    does not count as in auto-play for the settlement).
    """

    autoplay: list[bool]

    def _init_autoplay(self, players: int) -> None:
        self.autoplay = [False] * players

    def in_autoplay(self, seat: int) -> bool:
        return self.autoplay[seat]

    def set_autoplay(self, seat: int, on: bool) -> None:
        if not 0 <= seat < len(self.autoplay):
            raise IllegalAction(f"no such seat {seat}")
        if self.autoplay[seat] == on:
            raise IllegalAction(f"seat {seat} is {'already' if on else 'not'} in auto-play")
        self.autoplay[seat] = on
        self._autoplay_changed(seat, on)

    def _autoplay_changed(self, seat: int, on: bool) -> None:
        """Hook: the flag of ``seat`` just changed to ``on``."""


@dataclass(frozen=True)
class GameInfo:
    """The static description of one game: what a lobby, a tournament or the conformance suite needs to know
    before a deal exists."""

    name: str
    """Registry name (``doudizhu``)."""
    titles: Mapping[str, str]
    """The game's display name by language (``{"zh": "斗地主", "en": "Dou Dizhu"}``)."""
    min_players: int
    max_players: int
    phases: tuple[str, ...]
    """Every phase name :attr:`Game.phase` may take."""
    options: OptionSet
    """The declared rule options (types, ranges, which move points)."""
    presets: tuple[str, ...]
    """Named option sets, default first; ``{"preset": name}`` selects one."""
    roles: tuple[str, ...] = ()
    """Role names outcomes use (Dou Dizhu: landlord, farmer)."""
    zero_sum: bool = True
    """Every settled deal's scores sum to zero, except as :attr:`zero_sum_exceptions` says."""
    zero_sum_exceptions: str = ""
    """When a deal's scores may not sum to zero (Dou Dizhu: the escape penalty leaves the table)."""
    max_actions: int = 10_000
    """No deal takes more accepted actions than this (host events included)."""
    complete_legal: bool = True
    """Whether :meth:`Game.legal_actions` always lists every legal action."""
    simultaneous: bool = False
    """Whether several seats may act at once."""
    bots: tuple[str, ...] = ("random",)
    """Bot names this game's bots register under (``qipai.bots.get_bot(name, seed, game=...)``)."""
    seat_bot: str = "random"
    """The bot that fills empty seats by default."""
    levels: tuple[str, ...] = ()
    """Strengths a player may choose for bot seats, weakest first (bot names the game registers: Dou Dizhu's
    ``easy``, ``normal``, ``hard``, ``expert``)."""
    autoplay_bot: str = "random"
    """The bot that plays for a human in auto-play by default (the seed's behaviour)."""
    autoplay_option: str | None = None
    """The rule option that chooses the auto-play style (Dou Dizhu ``autoplay``: ``passive``/``smart``)."""
    autoplay_bots: Mapping[str, str] = field(default_factory=dict)
    """The bot that plays each auto-play style (``{"passive": "passive", "smart": "heuristic"}``)."""
    match_seats: bool = False
    """A seat belongs to its player for the whole match (Shengji: fixed partners carrying their levels from hand
    to hand): a player who leaves, or is not connected when the next hand starts, keeps the seat in auto-play
    until the match ends (:meth:`GameFactory.match_after` sets ``over``); nobody else takes it meanwhile."""
    title_table: tuple[tuple[int, str], ...] = ()
    """(points needed, title), lowest first: what :meth:`GameFactory.title` reads, for showing progress."""
    routes: str | None = None
    """Module with the game's own HTTP routes (``routes: list``), mounted under ``/api/games/<name>/``."""
    web: str | None = None
    """The game's folder under the browser client's ``js/games/``."""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> JSON:
        """JSON-ready description (``/api/games``)."""
        return {
            "name": self.name,
            "titles": dict(self.titles),
            "min_players": self.min_players,
            "max_players": self.max_players,
            "phases": list(self.phases),
            "presets": list(self.presets),
            "roles": list(self.roles),
            "zero_sum": self.zero_sum,
            "simultaneous": self.simultaneous,
            "match_seats": self.match_seats,
            "complete_legal": self.complete_legal,
            "options": self.options.describe(),
            "bots": list(self.bots),
            "levels": list(self.levels),
            "seat_bot": self.seat_bot,
            "titles_table": [list(x) for x in self.title_table],
            "web": self.web,
        }


class GameFactory(Protocol):
    """How a host creates, restores and describes games of one kind, and carries a match from hand to hand."""

    info: GameInfo

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Every option's value for ``raw`` (``preset`` plus overrides), checked against the declarations;
        raises :class:`~qipai.core.options.OptionError` naming the bad option."""
        ...

    def players(self, options: Mapping[str, Any]) -> int:
        """Number of seats under these options."""
        ...

    def teams(self, options: Mapping[str, Any]) -> tuple[tuple[int, ...], ...] | None:
        """Fixed partnerships as tuples of seats (Shengji: ``((0, 2), (1, 3))``), or ``None`` when sides are
        decided in each deal (Dou Dizhu)."""
        ...

    def new(self, options: Mapping[str, Any], seed: int, context: Mapping[str, Any]) -> Game:
        """A new deal.  ``context`` comes from :meth:`deal_context` plus table facts (``table_points``)."""
        ...

    def replay(self, record: Mapping[str, Any]) -> Game:
        """Rebuild a game from its record; refuses a record with an illegal action, naming it."""
        ...

    def match_start(self, options: Mapping[str, Any]) -> JSON:
        """The match state before the first hand (JSON-ready; the host persists it)."""
        ...

    def deal_context(self, options: Mapping[str, Any], match: Mapping[str, Any]) -> JSON:
        """The context of the next deal under the match state (who bids first, the levels, the dealer…)."""
        ...

    def match_after(self, options: Mapping[str, Any], match: Mapping[str, Any], outcome: Mapping[str, Any]) -> JSON:
        """The match state after a settled hand.  Its ``over`` key is true once the match has ended (a
        Shengji team passed A); a game whose tables play on for ever never sets it."""
        ...

    def title(self, points: int) -> str:
        """The title (称号) a player with ``points`` of this game holds."""
        ...


@runtime_checkable
class Assist(Protocol):
    """Optional for a :class:`GameFactory`: help for a human player, which a host shows and may act on."""

    def hints(self, game: Game, seat: int) -> list[str]:
        """提示: some of ``seat``'s legal actions, best first."""
        ...

    def forced(self, game: Game, seat: int) -> str | None:
        """An action ``seat`` will surely take (要不起: nothing beats the table), which a host may take for it after
        a moment, or ``None``."""
        ...


@runtime_checkable
class Explains(Protocol):
    """Optional for a :class:`GameFactory`: the game's rules in words (玩法说明, :mod:`qipai.core.explain`), which
    every client shows — the browser through ``/api/rules/<game>``, the terminal's ``rules`` command."""

    def explain(self, options: Mapping[str, Any], lang: Lang) -> list[Section]:
        """The rules of a table with ``options`` (``preset`` plus overrides, or every value as
        :meth:`GameFactory.options` gives them) in ``lang``, worded from the option values, never from a preset's
        name; raises :class:`~qipai.core.options.OptionError` for options the game refuses."""
        ...


def explain_rules(factory: GameFactory, options: Mapping[str, Any], lang: Lang) -> list[Section]:
    """``factory``'s rules in words for ``options`` in ``lang`` (:class:`Explains`); no sections for a game that
    has none.  Bad options raise :class:`~qipai.core.options.OptionError` either way (the factory checks them).

    >>> from qipai.core.registry import get_factory
    >>> [s.id for s in explain_rules(get_factory("doudizhu"), {"preset": "chengdu"}, "en")][:3]
    ['overview', 'bidding', 'doubling']
    """
    full = factory.options(options)
    if not isinstance(factory, Explains):
        return []
    return factory.explain(full, lang)


def autoplay_bot_for(info: GameInfo, options: Mapping[str, Any]) -> str:
    """The auto-play bot a table with ``options`` uses: the style its ``autoplay_option`` names, else the
    game's default.

    >>> info = GameInfo("g", {}, 2, 2, ("p",), OptionSet([]), ("x",), autoplay_option="auto",
    ...                 autoplay_bots={"passive": "passive", "smart": "heuristic"}, autoplay_bot="passive")
    >>> autoplay_bot_for(info, {"auto": "smart"}), autoplay_bot_for(info, {})
    ('heuristic', 'passive')
    """
    if info.autoplay_option:
        style = options.get(info.autoplay_option)
        if isinstance(style, str) and style in info.autoplay_bots:
            return info.autoplay_bots[style]
    return info.autoplay_bot


def option_values(options: OptionSet, presets: Mapping[str, Mapping[str, Any]], raw: Mapping[str, Any],
                  default_preset: str) -> dict[str, Any]:
    """The full option values for ``raw`` = ``{"preset": name, **overrides}`` (a helper for factories whose
    presets are option dicts).

    >>> opts = OptionSet([Option("stake", int, 1, lo=1, hi=100)])
    >>> option_values(opts, {"basic": {"stake": 1}, "big": {"stake": 10}}, {"preset": "big"}, "basic")
    {'stake': 10, 'preset': 'big'}
    """
    from .options import OptionError

    raw = dict(raw)
    preset = raw.pop("preset", default_preset)
    if not isinstance(preset, str) or preset not in presets:
        raise OptionError(f"unknown preset {preset!r}: expected one of {', '.join(sorted(presets))}")
    checked = options.check(raw)
    out = {o.name: o.default for o in options}
    out.update(presets[preset])
    out.update(checked)
    out["preset"] = preset
    return out


def seats_of_teams(teams: Sequence[Sequence[int]] | None, players: int) -> list[int]:
    """Each seat's team index (``None`` teams: every seat its own).

    >>> seats_of_teams(((0, 2), (1, 3)), 4), seats_of_teams(None, 3)
    ([0, 1, 0, 1], [0, 1, 2])
    """
    if teams is None:
        return list(range(players))
    out = [0] * players
    for i, t in enumerate(teams):
        for s in t:
            out[s] = i
    return out


__all__ = [
    "AUTOPLAY_OFF",
    "AUTOPLAY_ON",
    "HOST_EVENTS",
    "JSON",
    "LEAVE",
    "TIMEOUT",
    "Assist",
    "AutoplayFlags",
    "Explains",
    "Game",
    "GameFactory",
    "GameInfo",
    "IllegalAction",
    "Option",
    "OptionSet",
    "SplitObservation",
    "apply_step",
    "autoplay_bot_for",
    "explain_rules",
    "is_host_event",
    "option_values",
    "seats_of_teams",
]
