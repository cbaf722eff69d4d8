"""Dou Dizhu combinations (牌型): moves, classification and comparison (RULES.md §3).

A :class:`Move` is one reading of a set of cards: its kind, its main rank (the rank compared), its length (the
number of chained units, 1 if unchained) and its cards as a rank-count vector.  Moves are interned: the same
reading is always the same object, so moves compare and hash cheaply and cost no memory twice.

>>> from qipai.games.doudizhu.rules import PRESETS
>>> classic = PRESETS["classic"]
>>> [m.describe() for m in classify("333444555666", classic)]
['plane 6x4', 'plane_singles 5x3', 'plane_singles 6x3']
>>> m = classify("33344456", classic)[0]
>>> str(m), m.kind, m.main_letter, m.length
('33344456', 'plane_singles', '4', 2)
>>> beats(classify("BR", classic)[0], classify("2222", classic)[0])
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from .cards import (
    BLACK_JOKER,
    NUM_RANKS,
    RANK_LETTERS,
    RED_JOKER,
    Card,
    NotationError,
    check_counts,
    counts_of,
    parse_ranks,
)
from .rules import KIND_NAMES_ZH, KINDS, Rules

HandLike = str | Sequence[int] | Iterable[Card]
"""A hand or a set of cards: rank notation, a 15-entry rank-count vector, or :class:`Card` objects."""

TOP_CHAIN_RANK = 11
"""Chains use ranks ``3``..``A`` only (index 0..11): never ``2`` or a joker."""

CHAIN_KINDS = frozenset({"straight", "pair_straight", "plane", "plane_singles", "plane_pairs"})
KICKER_KINDS = frozenset({"triple_single", "triple_pair", "plane_singles", "plane_pairs", "four_two_singles",
                          "four_two_pairs"})
_KIND_INDEX = {k: i for i, k in enumerate(KINDS)}


class MoveError(ValueError):
    """Cards that do not form the named move, or a move that is not allowed under the rules."""


_PARTS = [[(r, n) for n in range(9)] for r in range(NUM_RANKS)]
"""Shared ``(rank, count)`` pairs for :attr:`Move.parts`."""


class Move:
    """One reading of a set of cards as a combination.

    Attributes: ``kind`` (a name from RULES.md §3), ``main`` (the rank compared), ``length`` (chained units, 1 if
    unchained), ``counts`` (rank-count vector of the cards), ``parts`` (``(rank, count)`` for each rank present),
    ``size`` (number of cards), ``ranks`` (the cards' ranks, ascending).  ``str(move)`` is the canonical
    notation: rank letters ascending.

    Build moves with :func:`classify` or :meth:`Move.make`; never with the constructor.
    """

    __slots__ = ("_hash", "counts", "kind", "kind_index", "length", "main", "parts", "size", "text")

    kind: str
    main: int
    length: int
    counts: tuple[int, ...]
    size: int
    text: str
    kind_index: int
    parts: tuple[tuple[int, int], ...]
    _hash: int

    _interned: ClassVar[dict[tuple[str, int, int, tuple[int, ...]], Move]] = {}

    @classmethod
    def make(cls, kind: str, main: int, length: int, counts: tuple[int, ...]) -> Move:
        """The interned move with these fields.  The caller vouches that the fields are consistent."""
        key = (kind, main, length, counts)
        m = cls._interned.get(key)
        if m is None:
            m = object.__new__(cls)
            m.kind = kind
            m.kind_index = _KIND_INDEX[kind]
            m.main = main
            m.length = length
            m.counts = counts
            m.size = sum(counts)
            m.parts = tuple(_PARTS[r][n] for r, n in enumerate(counts) if n)
            m.text = "".join(RANK_LETTERS[r] * n for r, n in enumerate(counts))
            m._hash = hash(key)
            cls._interned[key] = m
        return m

    def __hash__(self) -> int:
        return self._hash

    @property
    def key(self) -> tuple[str, int, int, tuple[int, ...]]:
        """``(kind, main, length, counts)``: what makes two readings the same move."""
        return (self.kind, self.main, self.length, self.counts)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The cards' ranks, ascending."""
        return tuple(r for r, n in self.parts for _ in range(n))

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Move) and self.key == other.key)

    def __lt__(self, other: Move) -> bool:
        return (self.kind_index, self.length, self.main, self.counts) < (
            other.kind_index,
            other.length,
            other.main,
            other.counts,
        )

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r}, {self.kind}, main={self.main_letter}, length={self.length})"

    def __reduce__(self) -> tuple[object, tuple[str, int, int, tuple[int, ...]]]:
        return (Move.make, self.key)

    @property
    def main_letter(self) -> str:
        """The main rank as its letter."""
        return RANK_LETTERS[self.main]

    @property
    def is_bomb(self) -> bool:
        """Bombs and the rocket: the moves that beat other kinds."""
        return self.kind == "bomb" or self.kind == "rocket"

    @property
    def kind_zh(self) -> str:
        """The kind's Chinese name (e.g. 飞机带单)."""
        return KIND_NAMES_ZH[self.kind]

    def describe(self) -> str:
        """``kind MAINxLENGTH``, e.g. ``plane_singles 5x3``."""
        return f"{self.kind} {self.main_letter}x{self.length}"

    def label(self, rules: Rules) -> str:
        """The shortest text that names this move among every reading of its cards.

        The bare notation when the cards read one way, ``cards:kind`` when the kind decides, and
        ``cards:kind:MAIN`` when two readings share a kind (e.g. ``333444555666:plane_singles:6``).
        """
        readings = classify(self.counts, rules)
        if len(readings) <= 1:
            return self.text
        same_kind = [m for m in readings if m.kind == self.kind]
        if len(same_kind) == 1:
            return f"{self.text}:{self.kind}"
        return f"{self.text}:{self.kind}:{self.main_letter}"


def as_counts(cards: HandLike, rules: Rules | None = None) -> tuple[int, ...]:
    """The rank-count vector of a hand given as notation, counts or :class:`Card` objects.

    With ``rules``, more copies of a rank than the rules' decks hold is an error.
    """
    if type(cards) is tuple and len(cards) == NUM_RANKS:  # the fast path: a rank-count vector
        counts = cards
    elif isinstance(cards, str):
        counts = counts_of(parse_ranks(cards))
    else:
        items = list(cards)
        if items and all(isinstance(x, Card) for x in items):
            counts = counts_of(c.rank for c in items if isinstance(c, Card))
        elif len(items) == NUM_RANKS and all(isinstance(x, int) and x >= 0 for x in items):
            counts = tuple(x for x in items if isinstance(x, int))
        elif not items:
            counts = (0,) * NUM_RANKS
        else:
            raise NotationError(f"cannot read {cards!r} as cards: expected notation, counts or Card objects")
    if rules is not None:
        check_counts(counts, rules.decks)
    return counts


def _is_rocket(counts: Sequence[int], decks: int) -> bool:
    return counts[BLACK_JOKER] == decks and counts[RED_JOKER] == decks and sum(counts) == 2 * decks


def kickers_hold_rocket(counts: Sequence[int], decks: int) -> bool:
    """Whether kicker cards contain the rocket's cards (never allowed: ``BR`` is the rocket)."""
    return counts[BLACK_JOKER] >= decks and counts[RED_JOKER] >= decks


def _chain_of(counts: Sequence[int], width: int) -> tuple[int, int] | None:
    """If every non-zero count equals ``width`` on consecutive chain ranks, return (lowest, highest)."""
    ranks = [r for r in range(NUM_RANKS) if counts[r]]
    if any(counts[r] != width for r in ranks):
        return None
    lo, hi = ranks[0], ranks[-1]
    if hi > TOP_CHAIN_RANK or hi - lo + 1 != len(ranks):
        return None
    return lo, hi


def classify(cards: HandLike, rules: Rules) -> list[Move]:
    """Every reading of ``cards`` as a move under ``rules``, sorted; empty if the cards form none.

    >>> from qipai.games.doudizhu.rules import PRESETS
    >>> [m.describe() for m in classify("3334", PRESETS["classic"])]
    ['triple_single 3x1']
    >>> classify("3334", PRESETS["four_player"])
    []
    """
    counts = as_counts(cards, rules)
    kinds = rules.kinds
    n = sum(counts)
    out: list[Move] = []
    if n == 0:
        return out
    present = [r for r in range(NUM_RANKS) if counts[r]]
    if len(present) == 1:
        r = present[0]
        if n == 1:
            out.append(Move.make("single", r, 1, counts))
        elif n == 2:
            out.append(Move.make("pair", r, 1, counts))
        elif n == 3:
            out.append(Move.make("triple", r, 1, counts))
        elif r < BLACK_JOKER and n >= rules.bomb_min:
            out.append(Move.make("bomb", r, 1, counts))
    if _is_rocket(counts, rules.decks):
        out.append(Move.make("rocket", RED_JOKER, 1, counts))
    # unchained with kickers
    if n == 4 or n == 5:
        for t in present:
            if counts[t] == 3 and t < BLACK_JOKER:
                rest = [r for r in present if r != t]
                if n == 4:
                    out.append(Move.make("triple_single", t, 1, counts))
                elif len(rest) == 1 and counts[rest[0]] == 2:
                    out.append(Move.make("triple_pair", t, 1, counts))
    if n == 6 or n == 8:
        for f in present:
            if counts[f] == 4 and f < BLACK_JOKER:
                rest = [r for r in present if r != f]
                if n == 6:
                    if (
                        not kickers_hold_rocket(counts, rules.decks)
                        and (rules.single_kickers_share_rank or len(rest) == 2)
                    ):
                        out.append(Move.make("four_two_singles", f, 1, counts))
                elif len(rest) == 2 and all(counts[r] == 2 for r in rest) and not kickers_hold_rocket(
                    counts, rules.decks
                ):
                    out.append(Move.make("four_two_pairs", f, 1, counts))
    # chains
    for kind, width in (("straight", 1), ("pair_straight", 2), ("plane", 3)):
        if n % width == 0 and n // width >= 2:
            span = _chain_of(counts, width)
            if span:
                out.append(Move.make(kind, span[1], span[1] - span[0] + 1, counts))
    for per in (4, 5):  # plane_singles: 4 cards a unit; plane_pairs: 5
        if n % per:
            continue
        k = n // per
        if k < 2:
            continue
        for lo in range(TOP_CHAIN_RANK - k + 2):
            hi = lo + k - 1
            if all(counts[r] == 3 for r in range(lo, hi + 1)):
                kick = [0 if lo <= r <= hi else counts[r] for r in range(NUM_RANKS)]
                if kickers_hold_rocket(kick, rules.decks):
                    continue
                kick_ranks = [r for r in range(NUM_RANKS) if kick[r]]
                if per == 4:
                    if rules.single_kickers_share_rank or all(kick[r] == 1 for r in kick_ranks):
                        out.append(Move.make("plane_singles", hi, k, counts))
                elif len(kick_ranks) == k and all(kick[r] == 2 for r in kick_ranks):
                    out.append(Move.make("plane_pairs", hi, k, counts))
    out = [m for m in out if m.kind in kinds and _length_ok(m, rules)]
    out.sort()
    return out


def _length_ok(m: Move, rules: Rules) -> bool:
    kind = m.kind
    if kind == "straight":
        return rules.straight_min <= m.length <= rules.straight_max
    if kind == "pair_straight":
        return rules.pair_straight_min <= m.length <= rules.pair_straight_longest
    if kind in ("plane", "plane_singles", "plane_pairs"):
        return rules.plane_min <= m.length <= rules.plane_max
    if kind == "bomb":
        return m.size >= rules.bomb_min
    return True


def beats(move: Move, last: Move, rules: Rules | None = None) -> bool:
    """Whether ``move`` may be played on ``last`` (RULES.md §3, comparison).

    The rocket beats everything; a bomb beats every non-bomb; bombs compare by size (two decks), then rank;
    any other move must have the same kind, length and card count and a higher main rank.

    >>> from qipai.games.doudizhu.rules import PRESETS
    >>> r = PRESETS["four_player"]
    >>> beats(classify("333333", r)[0], classify("22222", r)[0], r)
    True
    """
    if last.kind == "rocket":
        return False
    if move.kind == "rocket":
        return True
    if move.kind == "bomb":
        if last.kind != "bomb":
            return True
        return move.size > last.size or (move.size == last.size and move.main > last.main)
    if last.kind == "bomb":
        return False
    return (
        move.kind == last.kind and move.length == last.length and move.size == last.size and move.main > last.main
    )


def parse_move(text: str, rules: Rules) -> Move:
    """Read a move written as ``cards``, ``cards:kind`` or ``cards:kind:MAIN`` (see :meth:`Move.label`).

    Bare cards that read more than one way are an error that lists the readings.

    >>> from qipai.games.doudizhu.rules import PRESETS
    >>> parse_move("333444555666:plane_singles:6", PRESETS["classic"]).describe()
    'plane_singles 6x3'
    """
    parts = text.strip().split(":")
    if len(parts) > 3:
        raise MoveError(f"bad move {text!r}: expected cards[:kind[:main rank]]")
    readings = classify(parts[0], rules)
    if not readings:
        raise MoveError(f"{parts[0].strip()!r} is not a valid combination under these rules")
    if len(parts) >= 2:
        kind = parts[1].strip()
        if kind not in KINDS:
            raise MoveError(f"unknown kind {kind!r}: expected one of {', '.join(KINDS)}")
        readings = [m for m in readings if m.kind == kind]
        if not readings:
            raise MoveError(f"{parts[0].strip()!r} does not read as {kind} under these rules")
    if len(parts) == 3:
        main = parse_ranks(parts[2])
        if len(main) != 1:
            raise MoveError(f"bad main rank {parts[2]!r}: expected one rank letter")
        readings = [m for m in readings if m.main == main[0]]
        if not readings:
            raise MoveError(f"{text!r}: no reading with main rank {parts[2].strip()}")
    if len(readings) > 1:
        options = ", ".join(m.label(rules) for m in readings)
        raise MoveError(f"{parts[0].strip()!r} reads more than one way; say which: {options}")
    return readings[0]
