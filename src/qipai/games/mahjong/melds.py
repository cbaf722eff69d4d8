"""Melds (副露) and full-hand notation (RULES-mahjong.md §1.2).

>>> concealed, melds = parse_hand("22344m 678p ZZ | chi 567s")
>>> format_tiles(concealed), [str(m) for m in melds]
('22344m 678p ZZ', ['chi 567s'])
>>> format_hand(concealed, melds)
'22344m 678p ZZ | chi 567s'
>>> parse_meld("peng zzz"), parse_meld("chi 5s 6s 7s").tiles
(Meld(kind='peng', tiles=(27, 27, 27), claimed=27, source=None), (22, 23, 24))
>>> parse_meld("chi 568s")
Traceback (most recent call last):
...
qipai.games.mahjong.tiles.TileError: bad meld 'chi 568s': a chi is three consecutive tiles of one suit
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .tiles import YAOJIU, TileError, Z, format_tiles, parse_tiles, suit_of, tile_name


@dataclass(frozen=True, slots=True)
class Meld:
    """An open set: ``chi`` (a sequence claimed from a discard) or ``peng`` (a triplet claimed from a discard).

    ``claimed`` is the kind that was taken from ``source`` (the discarder's seat; ``None`` when not known).
    """

    kind: str
    tiles: tuple[int, int, int]
    claimed: int
    source: int | None = None

    def __str__(self) -> str:
        return f"{self.kind} {format_tiles(self.tiles)}"

    @property
    def is_chi(self) -> bool:
        return self.kind == "chi"

    @property
    def suit(self) -> int:
        """0, 1, 2 for a suited meld, -1 for ``peng ZZZ``."""
        return suit_of(self.tiles[0])

    def has_yaojiu(self) -> bool:
        """Whether the meld holds a 1, a 9 or 红中 (§6.2.4)."""
        return any(t in YAOJIU for t in self.tiles)

    def to_json(self) -> dict[str, object]:
        return {"type": self.kind, "tiles": format_tiles(self.tiles), "claimed": tile_name(self.claimed),
                "from": self.source}


def chi_meld(tiles: Sequence[int], claimed: int, source: int | None = None) -> Meld:
    """A chi meld of three kinds (checked)."""
    ts = tuple(sorted(tiles))
    if len(ts) != 3 or ts[0] == Z or suit_of(ts[0]) != suit_of(ts[2]) or ts[1] != ts[0] + 1 or ts[2] != ts[0] + 2:
        raise TileError(f"bad meld 'chi {format_tiles(ts)}': a chi is three consecutive tiles of one suit")
    if claimed not in ts:
        raise TileError(f"bad meld 'chi {format_tiles(ts)}': the claimed {tile_name(claimed)} is not in it")
    return Meld("chi", (ts[0], ts[1], ts[2]), claimed, source)


def peng_meld(kind: int, source: int | None = None) -> Meld:
    """A peng meld of ``kind``."""
    return Meld("peng", (kind, kind, kind), kind, source)


def parse_meld(text: str) -> Meld:
    """``chi 567s`` / ``peng 777p`` / ``peng ZZZ`` (the claimed tile is taken to be the lowest of a chi)."""
    parts = text.split(None, 1)
    if len(parts) != 2 or parts[0].lower() not in ("chi", "peng"):
        raise TileError(f"bad meld {text.strip()!r}: expected 'chi 567s' or 'peng 777p'")
    kind = parts[0].lower()
    try:
        ts = parse_tiles(parts[1])
    except TileError as e:
        raise TileError(f"bad meld {text.strip()!r}: {e}") from None
    if kind == "peng":
        if len(ts) != 3 or len(set(ts)) != 1:
            raise TileError(f"bad meld {text.strip()!r}: a peng is three identical tiles")
        return peng_meld(ts[0])
    if len(ts) != 3 or ts[0] == Z or suit_of(ts[0]) != suit_of(ts[2]) or ts[1] != ts[0] + 1 or ts[2] != ts[0] + 2:
        raise TileError(f"bad meld {text.strip()!r}: a chi is three consecutive tiles of one suit")
    return chi_meld(ts, ts[0])


def parse_melds(text: str | Iterable[Meld | str]) -> list[Meld]:
    """Melds separated by ``|`` (or a list of melds or meld texts)."""
    if isinstance(text, str):
        return [parse_meld(p) for p in text.split("|") if p.strip()]
    return [m if isinstance(m, Meld) else parse_meld(m) for m in text]


def parse_hand(text: str) -> tuple[list[int], list[Meld]]:
    """A full hand: concealed tiles, then each meld after `` | `` (§1.2)."""
    parts = text.split("|")
    return parse_tiles(parts[0]), [parse_meld(p) for p in parts[1:] if p.strip()]


def format_hand(concealed: Iterable[int], melds: Iterable[Meld] = ()) -> str:
    """Canonical full-hand text."""
    return " | ".join([format_tiles(concealed), *(str(m) for m in melds)])


__all__ = ["Meld", "chi_meld", "format_hand", "parse_hand", "parse_meld", "parse_melds", "peng_meld"]
