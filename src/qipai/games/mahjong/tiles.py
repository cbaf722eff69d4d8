"""Tiles and notation (RULES-mahjong.md §1).

A tile *kind* is an integer ``0..27`` in canonical order: ``0..8`` = ``1m..9m`` (万), ``9..17`` = ``1p..9p`` (筒),
``18..26`` = ``1s..9s`` (条), ``27`` = ``Z`` (红中).  A hand is handled either as a list of kinds or as a list
of 28 counts.

>>> parse_tiles("234m 24m zz")
[1, 1, 2, 3, 3, 27, 27]
>>> format_tiles(parse_tiles("ZZ 678p 22344m"))
'22344m 678p ZZ'
>>> tile_name(27), tile_name(8), parse_tile("中")
('Z', '9m', 27)
>>> parse_tiles("12x")
Traceback (most recent call last):
...
qipai.games.mahjong.tiles.TileError: bad tile group '12x': digits must be followed by one of m, p, s
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

Z = 27
"""红中 (red dragon)."""
KINDS = 28
"""Number of tile kinds."""
SUITS = "mps"
SUIT_NAMES_ZH = {"m": "万", "p": "筒", "s": "条"}
COPIES = 4
TOTAL_TILES = KINDS * COPIES
"""112 tiles: 3 suits × 9 ranks × 4 + 4 红中 (§1.1 decision)."""


class TileError(ValueError):
    """Text that is not a tile, a group of tiles, a hand or a meld; the message names the bad token."""


def suit_of(kind: int) -> int:
    """0 (m), 1 (p), 2 (s), or -1 for 红中.

    >>> suit_of(0), suit_of(13), suit_of(26), suit_of(27)
    (0, 1, 2, -1)
    """
    return -1 if kind == Z else kind // 9


def rank_of(kind: int) -> int:
    """The rank 1..9 of a suited kind, 0 for 红中.

    >>> rank_of(0), rank_of(13), rank_of(27)
    (1, 5, 0)
    """
    return 0 if kind == Z else kind % 9 + 1


def is_terminal(kind: int) -> bool:
    """A suited 1 or 9 (幺九).  红中 is not a terminal.

    >>> [is_terminal(k) for k in (0, 8, 9, 4, 27)]
    [True, True, True, False, False]
    """
    return kind != Z and kind % 9 in (0, 8)


YAOJIU = frozenset(k for k in range(KINDS) if is_terminal(k) or k == Z)
"""The kinds that satisfy the 幺九 condition (§6.2.4): suited 1s and 9s, and 红中."""


def tile_name(kind: int) -> str:
    """Notation of one kind: ``5m``, ``Z``."""
    if not 0 <= kind < KINDS:
        raise TileError(f"no tile kind {kind}")
    return "Z" if kind == Z else f"{kind % 9 + 1}{SUITS[kind // 9]}"


TILE_NAMES = tuple(tile_name(k) for k in range(KINDS))
_BY_NAME = {n.lower(): k for k, n in enumerate(TILE_NAMES)}
_BY_NAME["中"] = Z


def parse_tile(text: str) -> int:
    """One tile: ``5m`` / ``5M`` / ``Z`` / ``z`` / ``中``.

    >>> parse_tile(" 9S ")
    26
    >>> parse_tile("0m")
    Traceback (most recent call last):
    ...
    qipai.games.mahjong.tiles.TileError: bad tile '0m': expected a rank 1-9 and m, p or s, or Z
    """
    t = text.strip().lower()
    k = _BY_NAME.get(t)
    if k is None:
        raise TileError(f"bad tile {text.strip()!r}: expected a rank 1-9 and m, p or s, or Z")
    return k


_GROUP = re.compile(r"([1-9]+)([mps])|([z中]+)", re.IGNORECASE)


def parse_tiles(text: str) -> list[int]:
    """Tiles in group notation (``123m 456p 99s ZZ``; any spacing, upper or lower case), sorted."""
    out: list[int] = []
    for token in text.replace(",", " ").split():
        pos = 0
        while pos < len(token):
            m = _GROUP.match(token, pos)
            if m is None:
                raise TileError(_bad_group(token[pos:]))
            if m.group(3):
                out.extend(Z for _ in m.group(3))
            else:
                base = SUITS.index(m.group(2).lower()) * 9
                out.extend(base + int(d) - 1 for d in m.group(1))
            pos = m.end()
    out.sort()
    return out


def _bad_group(rest: str) -> str:
    digits = re.match(r"[0-9]*", rest)
    d = digits.group(0) if digits else ""
    if d and "0" in d:
        return f"bad tile group {rest!r}: ranks are 1-9"
    if d:
        return f"bad tile group {rest!r}: digits must be followed by one of m, p, s"
    return f"bad tile group {rest!r}: expected digits and a suit letter (m, p, s) or Z"


def format_tiles(kinds: Iterable[int]) -> str:
    """Canonical form: one group per suit in the order m, p, s, then the Zs (§1.2).

    >>> format_tiles([27, 0, 9, 0])
    '11m 1p Z'
    >>> format_tiles([])
    ''
    """
    ks = sorted(kinds)
    parts: list[str] = []
    for s, letter in enumerate(SUITS):
        digits = "".join(str(k - 9 * s + 1) for k in ks if k // 9 == s and k != Z)
        if digits:
            parts.append(digits + letter)
    zs = sum(1 for k in ks if k == Z)
    if zs:
        parts.append("Z" * zs)
    return " ".join(parts)


def to_counts(kinds: Iterable[int]) -> list[int]:
    """28 counts from a list of kinds.

    >>> to_counts([0, 0, 27])[0], to_counts([0, 0, 27])[27]
    (2, 1)
    """
    c = [0] * KINDS
    for k in kinds:
        c[k] += 1
    return c


def from_counts(counts: Sequence[int]) -> list[int]:
    """The sorted kinds of 28 counts.

    >>> from_counts(to_counts([5, 1, 1]))
    [1, 1, 5]
    """
    return [k for k in range(KINDS) for _ in range(counts[k])]


def full_set() -> list[int]:
    """All 112 tiles in canonical order (the unshuffled wall)."""
    return [k for k in range(KINDS) for _ in range(COPIES)]


__all__ = [
    "COPIES",
    "KINDS",
    "SUITS",
    "TILE_NAMES",
    "TOTAL_TILES",
    "YAOJIU",
    "TileError",
    "Z",
    "format_tiles",
    "from_counts",
    "full_set",
    "is_terminal",
    "parse_tile",
    "parse_tiles",
    "rank_of",
    "suit_of",
    "tile_name",
    "to_counts",
]
