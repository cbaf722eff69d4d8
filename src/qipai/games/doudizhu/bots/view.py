"""What a bot knows, read from its observation: a compact view on rank-count vectors.

Bots work on 15-entry rank-count vectors (see :mod:`qipai.games.doudizhu.cards`) because the move generator
(:func:`~qipai.games.doudizhu.moves.legal_moves`) is fastest on them.  :func:`read_view` turns one observation
(the dict of :meth:`~qipai.games.doudizhu.state.Game.observe`) into a :class:`View`: own hand, every seat's card
count, the move to beat, each seat's played cards, the cards nobody has shown yet (``unseen``), cards known to
be in a seat's hand (the landlord's remaining kitty cards, a shown hand) and the play sequence, which the
search bot uses for inference.  Everything here is derived from the observation alone: a view cannot hold
anything the seat may not see.

>>> from qipai.games.doudizhu.rules import PRESETS
>>> from qipai.games.doudizhu.state import Game
>>> g = Game.new(PRESETS["classic"], seed=7)
>>> g.apply("bid 3")
>>> v = read_view(g.observe(2))
>>> v.seat, v.landlord, v.role, sum(v.hand), sum(v.unseen)
(2, 2, 'landlord', 20, 34)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import NUM_RANKS, RANK_LETTERS, Card
from ..combos import Move, classify, parse_move
from ..rules import PRESETS, Rules, RulesError
from .hand import rules_key

Counts = tuple[int, ...]
"""A 15-entry rank-count vector."""

_RANK = {ch: i for i, ch in enumerate(RANK_LETTERS)}


def counts_of_text(text: str) -> list[int]:
    """Rank counts of canonical notation (``"334BR"``)."""
    c = [0] * NUM_RANKS
    for ch in text:
        c[_RANK[ch]] += 1
    return c


def counts_of_tokens(tokens: list[str]) -> list[int]:
    """Rank counts of suited card tokens (``["5S", "B"]``)."""
    c = [0] * NUM_RANKS
    for t in tokens:
        r = _RANK.get(t[0]) if t else None
        if r is None or (len(t) != 2 and r < 13):
            r = Card.parse(t).rank
        c[r] += 1
    return c


def rules_of(observation: dict[str, Any]) -> Rules:
    """The rules of the observed table: its preset, or for a custom table (``preset`` is ``None``) the full
    options the observation carries under ``rules``.  Without either (an observation from elsewhere) it falls
    back to ``classic`` for three players and ``four_player`` for four: bots only ever return actions from the
    legal list, so a wrong guess can cost strength, never legality.
    """
    name = observation.get("preset")
    if isinstance(name, str) and name in PRESETS:
        return PRESETS[name]
    options = observation.get("rules")
    if isinstance(options, dict):
        hit = _RULES_BY_ID.get(id(options))
        if hit is not None and hit[0] is options:
            return hit[1]
        try:
            rules = Rules.from_options(options)
        except RulesError:
            rules = None
        if rules is not None:
            if len(_RULES_BY_ID) > 256:
                _RULES_BY_ID.clear()
            _RULES_BY_ID[id(options)] = (options, rules)
            return rules
    players = observation.get("players") or 3
    return PRESETS["classic"] if players == 3 else PRESETS["four_player"]


_RULES_BY_ID: dict[int, tuple[dict[str, Any], Rules]] = {}
"""Rules read from an observation's options, by the options dict (which a game shares across its views)."""


def move_of_text(text: str, kind: str | None, rules: Rules) -> Move:
    """The move for played cards as shown in the history (cards and kind; the main rank is not shown).

    When a kind still reads two ways (``333444555666`` as plane_singles with main ``5`` or ``6``) the higher
    reading is taken: it is the harder one to beat.
    """
    key = (text, kind, rules_key(rules))
    got = _SEEN_MOVES.get(key)
    if got is not None:
        return got
    readings = classify(text, rules)
    if kind is not None:
        readings = [m for m in readings if m.kind == kind] or readings
    if not readings:
        raise ValueError(f"{text!r} is not a move under these rules")
    m = max(readings, key=lambda m: m.main)
    if len(_SEEN_MOVES) > 100_000:
        _SEEN_MOVES.clear()
    _SEEN_MOVES[key] = m
    return m


_SEEN_MOVES: dict[tuple[str, str | None, int], Move] = {}
_LABELS: dict[tuple[str, int], Move] = {}


@dataclass
class PlayEvent:
    """One decision of the play phase: ``move`` is ``None`` for a pass; ``facing`` is the move it answered."""

    seat: int
    move: Move | None
    facing: Move | None
    facing_by: int


@dataclass
class View:
    """A seat's knowledge, as rank counts.  See the module docstring."""

    rules: Rules
    players: int
    seat: int
    phase: str
    hand: Counts
    card_counts: list[int]
    landlord: int | None
    bid: int
    last: Move | None
    last_by: int
    played: list[list[int]]
    unseen: list[int]
    known: dict[int, list[int]] = field(default_factory=dict)
    plays: list[PlayEvent] = field(default_factory=list)
    bids: list[tuple[int, int]] = field(default_factory=list)
    bombs_played: int = 0

    @property
    def role(self) -> str:
        """``landlord``, ``farmer``, or ``undecided`` while bidding."""
        if self.landlord is None:
            return "undecided"
        return "landlord" if self.seat == self.landlord else "farmer"

    def is_partner(self, other: int) -> bool:
        """Whether ``other`` (not this seat) is on this seat's side: both farmers."""
        return (
            other != self.seat
            and self.landlord is not None
            and self.seat != self.landlord
            and other != self.landlord
        )

    def enemies(self) -> list[int]:
        """The seats on the other side."""
        if self.landlord is None:
            return [s for s in range(self.players) if s != self.seat]
        if self.seat == self.landlord:
            return [s for s in range(self.players) if s != self.seat]
        return [self.landlord]

    def partners(self) -> list[int]:
        """The other seats on this seat's side."""
        return [s for s in range(self.players) if self.is_partner(s)]

    def team_of(self, seat: int) -> int:
        """0 for the landlord's side, 1 for the farmers."""
        return 0 if seat == self.landlord else 1


def read_view(observation: dict[str, Any]) -> View:
    """Build the :class:`View` of one observation (own seat only; a spectator has no view)."""
    rules = rules_of(observation)
    n = int(observation["players"])
    seat = observation["seat"]
    if seat is None:
        raise ValueError("a spectator's observation has no hand to play")
    hand = counts_of_tokens(observation.get("hand") or [])
    landlord = observation.get("landlord")
    played = [[0] * NUM_RANKS for _ in range(n)]
    plays: list[PlayEvent] = []
    bids: list[tuple[int, int]] = []
    last: Move | None = None
    last_by = -1
    bombs = 0
    for ev in observation.get("history") or []:
        e = ev.get("event")
        if e == "redeal" or e == "deal":
            played = [[0] * NUM_RANKS for _ in range(n)]
            plays = []
            bids = []
            last, last_by, bombs = None, -1, 0
        elif e == "bid":
            bids.append((int(ev["seat"]), int(ev["value"])))
        elif e == "play":
            s = int(ev["seat"])
            m = move_of_text(ev["move"], ev.get("kind"), rules)
            plays.append(PlayEvent(s, m, last, last_by))
            for r in range(NUM_RANKS):
                played[s][r] += m.counts[r]
            if m.is_bomb:
                bombs += 1
            last, last_by = m, s
        elif e == "pass" and last is not None:
            plays.append(PlayEvent(int(ev["seat"]), None, last, last_by))
        elif e == "trick":
            last, last_by = None, -1
    # the trick as the observation states it (authoritative for the move to beat)
    trick = observation.get("trick") or {}
    if trick.get("last"):
        last = move_of_text(trick["last"], trick.get("kind"), rules)
        last_by = int(trick["by"])
    else:
        last, last_by = None, -1
    total = [rules.decks * (1 if r >= 13 else 4) for r in range(NUM_RANKS)]
    unseen = [total[r] - hand[r] - sum(played[s][r] for s in range(n)) for r in range(NUM_RANKS)]
    known: dict[int, list[int]] = {}
    if landlord is not None and landlord != seat:
        shown = observation.get("shown_hand")
        if shown:
            known[landlord] = counts_of_tokens(shown)
        elif observation.get("kitty"):
            # plays are public by rank only: the landlord still holds at least (kitty cards of a rank) − (cards
            # of that rank it has played); DouZero tracks its kitty the same way
            kc = counts_of_tokens(list(observation["kitty"]))
            known[landlord] = [max(0, kc[r] - played[landlord][r]) for r in range(NUM_RANKS)]
    return View(
        rules=rules,
        players=n,
        seat=int(seat),
        phase=str(observation.get("phase")),
        hand=tuple(hand),
        card_counts=[int(x) for x in observation["card_counts"]],
        landlord=landlord,
        bid=int(observation.get("bid") or 0),
        last=last,
        last_by=last_by,
        played=played,
        unseen=unseen,
        known=known,
        plays=plays,
        bids=bids,
        bombs_played=bombs,
    )


def action_moves(legal_actions: list[str], rules: Rules) -> dict[str, Move]:
    """The move of every ``play ...`` action in ``legal_actions``."""
    out: dict[str, Move] = {}
    rk = rules_key(rules)
    for a in legal_actions:
        if a.startswith("play "):
            key = (a, rk)
            m = _LABELS.get(key)
            if m is None:
                m = parse_move(a[5:], rules)
                if len(_LABELS) > 200_000:
                    _LABELS.clear()
                _LABELS[key] = m
            out[a] = m
    return out


def card_actions(legal_actions: Sequence[str], moves: dict[str, Move]) -> list[str]:
    """The plays (those of ``moves``, :func:`action_moves`) and the pass among ``legal_actions``, in their order:
    the actions of the play phase that move cards or pass, without bids, doubles or the like.

    >>> legal = ["pass", "play 3", "double"]
    >>> card_actions(legal, action_moves(legal, PRESETS["classic"]))
    ['pass', 'play 3']
    """
    return [a for a in legal_actions if a in moves or a == "pass"]
