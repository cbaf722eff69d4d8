"""Cards, ranks, suits, decks and the card notation shared by every game.

Rank letters run from lowest to highest in Dou Dizhu order::

    3 4 5 6 7 8 9 T J Q K A 2 B R

``T`` is ten (``10`` is accepted too), ``B`` the black (small) joker 小王 and ``R`` the red (big) joker 大王.
A rank is an ``int`` index into that string: ``0`` is ``3`` and ``14`` is ``R``.

Suits are ``S`` spades ♠, ``H`` hearts ♥, ``C`` clubs ♣, ``D`` diamonds ♦ (the seeds' order 黑红梅方).

A :class:`Card` is one physical card: it has a rank, a suit (``None`` for a joker) and the deck it came from,
so the two ♠5 of a two-deck game are different cards.  Card ids are small integers, which keeps hands cheap
to copy and compare.

>>> c = Card.parse("5S")
>>> c.rank, c.suit, str(c)
(2, 'S', '5S')
>>> format_ranks(parse_ranks("10 10 j q k a 2 b r"))
'TTJQKA2BR'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

RANK_LETTERS = "3456789TJQKA2BR"
"""Rank letters, lowest first; a rank is the index of its letter."""

NUM_RANKS = 15
BLACK_JOKER = 13
RED_JOKER = 14
TWO = 12
ACE = 11
SUITS = "SHCD"
"""Suit letters in the seeds' order 黑红梅方 (spades, hearts, clubs, diamonds)."""

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
RANK_NAMES_EN = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "Black Joker", "Red Joker")
RANK_NAMES_ZH = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "小王", "大王")

CARDS_PER_DECK = 54


class NotationError(ValueError):
    """A card or rank string could not be read; the message names the bad token."""


_RANK_OF_LETTER = {ch: i for i, ch in enumerate(RANK_LETTERS)}
_RANK_OF_LETTER.update({ch.lower(): i for i, ch in enumerate(RANK_LETTERS)})
_SEPARATORS = " ,\t\n"


def rank_of(letter: str) -> int:
    """The rank index of one rank letter (``'10'`` and lower case accepted).

    >>> rank_of('3'), rank_of('t'), rank_of('10'), rank_of('R')
    (0, 7, 7, 14)
    """
    if letter == "10":
        return 7
    try:
        return _RANK_OF_LETTER[letter]
    except KeyError:
        raise NotationError(f"unknown rank {letter!r}: expected one of {RANK_LETTERS} (or 10)") from None


def _tokens(text: str) -> Iterable[tuple[str, int]]:
    """Split notation into (token, position) pairs: a rank letter or ``10``, separators skipped."""
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in _SEPARATORS:
            i += 1
            continue
        if ch == "1" and i + 1 < n and text[i + 1] == "0":
            yield "10", i
            i += 2
            continue
        yield ch, i
        i += 1


def parse_ranks(text: str) -> list[int]:
    """Read a string of rank letters into a sorted list of ranks.

    Accepts ``10`` for ``T``, lower case, spaces and commas; anything else is an error naming the bad token.

    >>> parse_ranks("33 10 b")
    [0, 0, 7, 13]
    >>> parse_ranks("3X")
    Traceback (most recent call last):
    ...
    qipai.games.doudizhu.cards.NotationError: bad token 'X' at position 1 in '3X': expected a rank letter from ...
    """
    out = []
    for tok, pos in _tokens(text):
        r = _RANK_OF_LETTER.get(tok, 7 if tok == "10" else -1)
        if r < 0:
            raise NotationError(
                f"bad token {tok!r} at position {pos} in {text!r}: "
                f"expected a rank letter from {RANK_LETTERS} (or 10)"
            )
        out.append(r)
    out.sort()
    return out


def format_ranks(ranks: Iterable[int]) -> str:
    """Canonical notation of ranks: ascending rank letters, no separators.

    >>> format_ranks([4, 0, 0])
    '337'
    """
    return "".join(RANK_LETTERS[r] for r in sorted(ranks))


def counts_of(ranks: Iterable[int]) -> tuple[int, ...]:
    """The rank-count vector (15 entries) of some ranks.

    >>> counts_of(parse_ranks("3334BR"))
    (3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1)
    """
    c = [0] * NUM_RANKS
    for r in ranks:
        c[r] += 1
    return tuple(c)


def ranks_of_counts(counts: Sequence[int]) -> list[int]:
    """The ascending ranks described by a rank-count vector."""
    return [r for r in range(NUM_RANKS) for _ in range(counts[r])]


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One physical card: ``id`` encodes deck, rank and suit.

    ``id = deck * 54 + k`` where ``k = rank * 4 + suit_index`` for suited cards and ``52``/``53`` for the
    black/red joker.  Ordering by ``id`` within one deck is ordering by rank then suit.
    """

    id: int

    @property
    def deck(self) -> int:
        """Which deck (0-based) this card comes from."""
        return self.id // CARDS_PER_DECK

    @property
    def rank(self) -> int:
        """The rank index (``0`` = 3 … ``12`` = 2, ``13`` = black joker, ``14`` = red joker)."""
        k = self.id % CARDS_PER_DECK
        return k >> 2 if k < 52 else k - 39

    @property
    def suit(self) -> str | None:
        """``'S'``, ``'H'``, ``'C'``, ``'D'``, or ``None`` for a joker."""
        k = self.id % CARDS_PER_DECK
        return SUITS[k & 3] if k < 52 else None

    @classmethod
    def make(cls, rank: int, suit: str | None = None, deck: int = 0) -> Card:
        """Build a card from its rank, suit (``None`` for jokers) and deck.

        >>> Card.make(2, 'S', deck=1).id
        62
        """
        if not 0 <= rank < NUM_RANKS:
            raise NotationError(f"rank {rank} out of range 0..14")
        if rank >= BLACK_JOKER:
            if suit is not None:
                raise NotationError(f"a joker has no suit, got {suit!r}")
            k = rank + 39
        else:
            if suit is None or suit.upper() not in SUITS:
                raise NotationError(f"suit {suit!r} is not one of {SUITS}")
            k = rank * 4 + SUITS.index(suit.upper())
        return cls(deck * CARDS_PER_DECK + k)

    @classmethod
    def parse(cls, token: str, deck: int = 0) -> Card:
        """Parse one card token: rank then suit (``5S``, ``10h``, ``TD``), or a joker (``B``, ``R``)."""
        t = token.strip()
        m = re.fullmatch(r"(10|[3-9TJQKA2BRtjqkabr])([SHCDshcd]?)", t)
        if not m:
            raise NotationError(f"bad card {token!r}: expected a rank letter and a suit letter (S H C D), or B/R")
        rank = rank_of(m.group(1))
        suit = m.group(2).upper() or None
        if rank < BLACK_JOKER and suit is None:
            raise NotationError(f"bad card {token!r}: a suited card needs a suit letter (S H C D)")
        if rank >= BLACK_JOKER and suit is not None:
            raise NotationError(f"bad card {token!r}: a joker has no suit")
        return cls.make(rank, suit, deck)

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank] + (self.suit or "")

    def __repr__(self) -> str:
        d = self.deck
        return f"Card({self!s}{'' if d == 0 else f', deck={d}'})"

    def pretty(self) -> str:
        """Display form with a suit symbol, e.g. ``10♥``, ``小王`` is left to the UI layers."""
        name = RANK_NAMES_EN[self.rank] if self.rank < BLACK_JOKER else RANK_LETTERS[self.rank]
        return name + (SUIT_SYMBOLS[self.suit] if self.suit else "")


def deck(decks: int = 1) -> list[Card]:
    """All cards of ``decks`` standard 54-card decks, in id order.

    >>> len(deck(2)), len(set(deck(2)))
    (108, 108)
    """
    if not 1 <= decks <= 4:
        raise ValueError(f"decks must be 1..4, got {decks}")
    return [Card(i) for i in range(decks * CARDS_PER_DECK)]


def parse_cards(text: str, decks: int = 1) -> list[Card]:
    """Parse suited card tokens separated by spaces or commas (``'3S 3H BR'`` is not valid; use ``'3S 3H B R'``).

    Repeated cards are taken from the next deck (the second ``5S`` is deck 1's ♠5); more copies than decks
    is an error.

    >>> [str(c) for c in parse_cards("5S 5s B", decks=2)]
    ['5S', '5S', 'B']
    """
    seen: dict[int, int] = {}
    out = []
    for tok in re.split(r"[\s,]+", text.strip()):
        if not tok:
            continue
        base = Card.parse(tok)
        n = seen.get(base.id, 0)
        if n >= decks:
            raise NotationError(f"too many copies of {tok!r}: there are at most {decks}")
        seen[base.id] = n + 1
        out.append(Card(base.id + n * CARDS_PER_DECK))
    return out


def card_order(card: Card) -> tuple[int, int]:
    """Sort key: by rank, then suit (黑红梅方), then deck."""
    return card.id % CARDS_PER_DECK, card.deck


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as suited tokens, ascending by rank then suit, space-separated."""
    return " ".join(str(c) for c in sorted(cards, key=card_order))


def check_counts(counts: Sequence[int], decks: int) -> None:
    """Raise :class:`NotationError` if ``counts`` holds more of a rank than ``decks`` decks have.

    >>> check_counts(counts_of(parse_ranks("AAAAA")), 1)
    Traceback (most recent call last):
    ...
    qipai.games.doudizhu.cards.NotationError: 5 cards of rank A but 1 deck(s) hold only 4
    """
    for r, n in enumerate(counts):
        cap = decks * (1 if r >= BLACK_JOKER else 4)
        if n > cap:
            raise NotationError(f"{n} cards of rank {RANK_LETTERS[r]} but {decks} deck(s) hold only {cap}")
