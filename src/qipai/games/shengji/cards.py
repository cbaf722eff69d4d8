"""Cards, notation and card order of four-deck Shengji (RULES-shengji.md §1, §4, §5.2).

A card is a *face*: an ``int`` in ``0..53``.  Suited faces are ``suit * 13 + rank`` with suits ``S H C D``
(0..3) and ranks ``2 3 4 5 6 7 8 9 T J Q K A`` (0..12); ``52`` is the small joker ``B`` (小王), ``53`` the big
joker ``R`` (大王).  Identical copies are indistinguishable (a hand is a multiset), so a hand is a list of 54
counts (:func:`counts`), a play a list of faces.

>>> parse_cards("7S 7s, 10H  B")
[5, 5, 21, 52]
>>> format_cards(parse_cards("3S TH R 2C"))
'R 3S TH 2C'

:class:`Order` holds everything that depends on the level and the trump suit: each face's effective suit
(``TRUMP`` or its own suit), its order value inside that suit (§4) and its chain position (§5.2).

>>> o = order(5, "H")          # level 5, trump hearts (§11 example 1)
>>> [o.is_trump(f) for f in parse_cards("5C 2S AS AH")]
[True, True, False, True]
>>> o.value[card("5S")] == o.value[card("5D")], o.value[card("5H")] > o.value[card("5S")]
(True, True)
>>> format_cards(parse_cards("3H 4S 2H 5D 5H AH R B 2S"), o)
'R B 5H 5D 2H 2S AH 3H 4S'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

SUITS = "SHCD"
"""Suit letters in display order 黑红梅方 (index = suit number)."""
SUIT_SYMBOLS = "♠♥♣♦"
RANKS = "23456789TJQKA"
"""Rank letters, natural order low → high (index = rank number)."""
SMALL_JOKER = 52
BIG_JOKER = 53
NUM_FACES = 54
DECKS = 4
DECK_SIZE = NUM_FACES * DECKS
"""216 cards."""
TRUMP = 4
"""The effective suit of trumps; off suits are ``0..3`` (their suit numbers)."""
LEVELS = "3456789TJQKA"
"""The levels a team can be at (§2.2: 2 is never played)."""

_TIEBREAK_LOW = {3: 0, 2: 1, 1: 2, 0: 3}
"""Suit order ``D C H S`` (lowest first) for ties in §9.2's "lowest"."""

_SEP = re.compile(r"[\s,]+")


class NotationError(ValueError):
    """Card text that cannot be read; the message names the bad token."""


def face_text(face: int) -> str:
    """``7S``, ``TH``, ``B``, ``R``.

    >>> face_text(0), face_text(12), face_text(52), face_text(53)
    ('2S', 'AS', 'B', 'R')
    """
    if face == SMALL_JOKER:
        return "B"
    if face == BIG_JOKER:
        return "R"
    if not 0 <= face < 52:
        raise ValueError(f"no such face {face}")
    return RANKS[face % 13] + SUITS[face // 13]


_TEXT = {face_text(f): f for f in range(NUM_FACES)}


def card(text: str) -> int:
    """One card from its text (``7S``, ``10h``, ``b``).

    >>> card("10h") == card("TH"), card("r")
    (True, 53)
    >>> card("1S")
    Traceback (most recent call last):
    ...
    qipai.games.shengji.cards.NotationError: bad card '1S': expected rank 2-9/T/J/Q/K/A (or 10) and suit S/H/C/D, or B/R
    """
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    f = _TEXT.get(t)
    if f is None:
        raise NotationError(f"bad card {text!r}: expected rank 2-9/T/J/Q/K/A (or 10) and suit S/H/C/D, or B/R")
    return f


def parse_cards(text: str) -> list[int]:
    """Cards separated by spaces or commas, in the order written.  Empty text is no cards.

    >>> parse_cards("")
    []
    >>> parse_cards("7S 7X")
    Traceback (most recent call last):
    ...
    qipai.games.shengji.cards.NotationError: bad card '7X': expected rank 2-9/T/J/Q/K/A (or 10) and suit S/H/C/D, or B/R
    """
    return [card(t) for t in _SEP.split(text.strip()) if t]


def counts(cards: Iterable[int]) -> list[int]:
    """The multiset of ``cards`` as 54 counts.

    >>> counts(parse_cards("7S 7S B"))[card("7S")], counts([52])[52]
    (2, 1)
    """
    c = [0] * NUM_FACES
    for f in cards:
        c[f] += 1
    return c


def expand(cnt: Sequence[int]) -> list[int]:
    """The faces of a count list, each as often as counted, in face order.

    >>> expand(counts([5, 2, 5]))
    [2, 5, 5]
    """
    return [f for f in range(NUM_FACES) for _ in range(cnt[f])]


def card_points(face: int) -> int:
    """Points of one card (§7): every ``5`` is 5, every ``T`` and ``K`` 10.

    >>> [card_points(card(t)) for t in ("5D", "TS", "KH", "AS", "R")]
    [5, 10, 10, 0, 0]
    """
    return _POINTS[face]


_POINTS = tuple(5 if f < 52 and f % 13 == 3 else 10 if f < 52 and f % 13 in (8, 11) else 0 for f in range(54))


def points(cards: Iterable[int]) -> int:
    """Points of some cards (§7).

    >>> points(parse_cards("KS KS 3S 4S"))
    20
    >>> points(full_deck())
    400
    """
    p = _POINTS
    return sum(p[f] for f in cards)


def full_deck() -> list[int]:
    """The 216 cards of four decks, in face order."""
    return [f for f in range(NUM_FACES) for _ in range(DECKS)]


def level_rank(level: int | str) -> int:
    """A level as a rank number (``3``..``A`` → 1..12).  Accepts the letter (``3``..``9``, ``T``/``10``, ``J``,
    ``Q``, ``K``, ``A``, any case) or the number printed on the card (``3``..``10``).

    >>> level_rank("3"), level_rank("T"), level_rank("10"), level_rank(5), level_rank("a")
    (1, 8, 8, 3, 12)
    >>> level_rank("2")
    Traceback (most recent call last):
    ...
    ValueError: bad level '2': levels run 3..A (2 is a permanent trump)
    """
    if isinstance(level, bool):
        raise ValueError(f"bad level {level!r}")
    t = str(level).strip().upper()
    if t == "10":
        t = "T"
    if len(t) == 1 and t in LEVELS:
        return RANKS.index(t)
    raise ValueError(f"bad level {level!r}: levels run 3..A (2 is a permanent trump)")


def level_text(rank: int) -> str:
    """A level's letter (``1`` → ``3``)."""
    return RANKS[rank]


def suit_number(suit: int | str) -> int:
    """A suit letter (``S H C D``, any case) or number as a suit number."""
    if isinstance(suit, int) and not isinstance(suit, bool):
        if 0 <= suit < 4:
            return suit
    elif isinstance(suit, str) and len(suit.strip()) == 1 and suit.strip().upper() in SUITS:
        return SUITS.index(suit.strip().upper())
    raise ValueError(f"bad suit {suit!r}: expected one of S, H, C, D")


class Order:
    """The card order of one hand: level ``L`` (rank number) and trump suit ``X`` (§4, §5.2).

    Per face: ``esuit`` (``TRUMP`` or the suit number), ``value`` (order inside the effective suit; equal values
    tie: 副级 with each other, 副2 with each other), ``pos`` (chain position inside the effective suit; 主2 and
    the 副2s share one, 主级 and the 副级s share one), ``low`` (the §9.2 "lowest" key: off-suit cards before
    trumps, then value, then suit order ``D C H S``).  ``faces[e]`` lists the faces of effective suit ``e`` from
    the lowest up, ``at[e][p]`` the faces at position ``p`` from the highest value down, ``npos[e]`` the number of
    positions.  Build it with :func:`order` (cached).
    """

    __slots__ = ("at", "esuit", "faces", "high", "level", "low", "npos", "pos", "trump", "value")

    def __init__(self, level: int, trump: int) -> None:
        self.level = level
        self.trump = trump
        esuit = [0] * NUM_FACES
        value = [0] * NUM_FACES
        pos = [0] * NUM_FACES
        plain = [r for r in range(1, 13) if r != level]  # 3..A without L, natural order
        for s in range(4):
            for i, r in enumerate(plain):
                f = s * 13 + r
                esuit[f] = TRUMP if s == trump else s
                value[f] = pos[f] = i
        n = len(plain)  # 11
        for s in range(4):
            two, lev = s * 13, s * 13 + level
            esuit[two] = esuit[lev] = TRUMP
            value[two] = n + (1 if s == trump else 0)
            value[lev] = n + 2 + (1 if s == trump else 0)
            pos[two], pos[lev] = n, n + 1
        esuit[SMALL_JOKER] = esuit[BIG_JOKER] = TRUMP
        value[SMALL_JOKER], value[BIG_JOKER] = n + 4, n + 5
        pos[SMALL_JOKER], pos[BIG_JOKER] = n + 2, n + 3
        self.esuit = tuple(esuit)
        self.value = tuple(value)
        self.pos = tuple(pos)
        tb = [_TIEBREAK_LOW[f // 13] if f < 52 else 0 for f in range(NUM_FACES)]
        self.low = tuple((100 if esuit[f] == TRUMP else 0) + value[f] * 4 + tb[f] for f in range(NUM_FACES))
        # printing: trumps first, then S H C D; high → low; ties S H C D
        self.high = tuple((0 if esuit[f] == TRUMP else 1 + esuit[f], -value[f], f // 13 if f < 52 else 0)
                          for f in range(NUM_FACES))
        self.faces = tuple(tuple(sorted((f for f in range(NUM_FACES) if esuit[f] == e), key=self.low.__getitem__))
                           for e in range(5))
        self.npos = tuple(n if e != TRUMP else n + 4 for e in range(5))
        at: list[list[list[int]]] = [[[] for _ in range(self.npos[e])] for e in range(5)]
        for f in range(NUM_FACES):
            at[esuit[f]][pos[f]].append(f)
        self.at = tuple(tuple(tuple(sorted(p, key=lambda f: (-value[f], f))) for p in e) for e in at)

    def is_trump(self, face: int) -> bool:
        """Whether ``face`` is a trump (§4)."""
        return self.esuit[face] == TRUMP

    @property
    def level_letter(self) -> str:
        return RANKS[self.level]

    @property
    def trump_letter(self) -> str:
        return SUITS[self.trump]

    def __repr__(self) -> str:
        return f"order({self.level_letter!r}, {self.trump_letter!r})"


_ORDERS: dict[tuple[int, int], Order] = {}


def order(level: int | str, trump: int | str) -> Order:
    """The (cached) :class:`Order` for a level (``3``..``A``) and trump suit (``S H C D``).

    >>> o = order("3", "H")
    >>> o.pos[card("AH")] + 1 == o.pos[card("2C")] == o.pos[card("2H")], o.pos[card("3S")] == o.pos[card("2S")] + 1
    (True, True)
    >>> o.esuit[card("AS")], o.esuit[card("3S")] == TRUMP
    (0, True)
    """
    return order_of(level_rank(level), suit_number(trump))


def order_of(level: int, trump: int) -> Order:
    """:func:`order` from a level's rank number (1..12) and a suit number (0..3)."""
    o = _ORDERS.get((level, trump))
    if o is None:
        if not (1 <= level <= 12 and 0 <= trump < 4):
            raise ValueError(f"bad level rank {level} or trump suit {trump}")
        o = _ORDERS[(level, trump)] = Order(level, trump)
    return o


def format_cards(cards: Iterable[int], o: Order | None = None) -> str:
    """The canonical text of some cards: with an :class:`Order`, trumps first and then the off suits in order
    ``S H C D``, each from highest to lowest (§1, §4; equal cards in suit order ``S H C D``).  Without one (the
    trump is not known yet): jokers, then ``S H C D``, each ``A`` down to ``2``.

    >>> format_cards(parse_cards("2S 3S AS R 5H"))
    'R AS 3S 2S 5H'
    """
    table: Sequence[object] = _PLAIN_KEY if o is None else o.high
    return " ".join(_TEXTS[f] for f in sorted(cards, key=table.__getitem__))  # type: ignore[arg-type]


_TEXTS = tuple(face_text(f) for f in range(NUM_FACES))
_PLAIN_KEY = tuple((0, -f) if f >= 52 else (1 + f // 13, -(f % 13)) for f in range(NUM_FACES))


def format_counts(cnt: Sequence[int], o: Order | None = None) -> str:
    """:func:`format_cards` of a count list."""
    return format_cards(expand(cnt), o)
