"""Action texts (RULES-mahjong.md §1.3): parsing and the canonical form the engine records.

>>> str(parse_action("  chi 4m 5m  6M ting"))
'chi 456m ting'
>>> str(parse_action("ting 5m zhidui 7p")), str(parse_action("peng 5m")), str(parse_action("PASS"))
('ting 5m zhidui 7p', 'peng', 'pass')
>>> parse_action("chi 458m")
Traceback (most recent call last):
...
qipai.core.game.IllegalAction: bad action 'chi 458m': a chi names three consecutive tiles of one suit, e.g. chi 456m
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.game import IllegalAction
from .tiles import TileError, Z, format_tiles, parse_tile, parse_tiles, suit_of, tile_name

VERBS = ("discard", "ting", "chi", "peng", "hu", "pass")


@dataclass(frozen=True, slots=True)
class Action:
    """One parsed action.  ``seq`` is a chi's sequence (``None`` for a bare ``chi``); ``tile`` is the tile of a
    discard or ting, or the optional tile named by ``peng 5m``; ``ting`` marks ``chi … ting`` / ``peng ting``."""

    verb: str
    tile: int | None = None
    seq: tuple[int, int, int] | None = None
    ting: bool = False
    zhidui: int | None = None

    def __str__(self) -> str:
        v = self.verb
        if v in ("discard", "ting"):
            assert self.tile is not None
            s = f"{v} {tile_name(self.tile)}"
            if self.zhidui is not None:
                s += f" zhidui {tile_name(self.zhidui)}"
            return s
        if v == "chi":
            s = "chi" if self.seq is None else f"chi {format_tiles(self.seq)}"
            return s + (" ting" if self.ting else "")
        if v == "peng":
            return "peng ting" if self.ting else "peng"
        return v


def _bad(text: str, why: str) -> IllegalAction:
    return IllegalAction(f"bad action {text.strip()!r}: {why}")


def parse_action(text: str) -> Action:
    """Parse an action text (extra spaces, upper or lower case and every tile spelling of §1.2 accepted)."""
    if not isinstance(text, str):
        raise IllegalAction(f"an action is text, got {type(text).__name__}")
    words = text.split()
    if not words:
        raise IllegalAction("empty action")
    verb = words[0].lower()
    rest = words[1:]
    try:
        if verb in ("hu", "pass"):
            if rest:
                raise _bad(text, f"{verb} takes nothing after it")
            return Action(verb)
        if verb in ("discard", "ting"):
            zhidui = None
            low = [w.lower() for w in rest]
            if "zhidui" in low:
                i = low.index("zhidui")
                if verb != "ting" or i + 2 != len(rest):
                    raise _bad(text, "zhidui follows ting X and names one tile: ting 5m zhidui 7p")
                zhidui = parse_tile(rest[i + 1])
                rest = rest[:i]
            if len(rest) != 1:
                raise _bad(text, f"{verb} names one tile, e.g. {verb} 5m")
            return Action(verb, tile=parse_tile(rest[0]), zhidui=zhidui)
        if verb in ("chi", "peng"):
            ting = bool(rest) and rest[-1].lower() == "ting"
            if ting:
                rest = rest[:-1]
            if verb == "peng":
                if len(rest) > 1:
                    raise _bad(text, "peng names at most one tile: peng, peng 5m, peng ting")
                return Action("peng", tile=parse_tile(rest[0]) if rest else None, ting=ting)
            if not rest:
                return Action("chi", ting=ting)
            ts = parse_tiles(" ".join(rest))
            if (len(ts) != 3 or ts[0] == Z or suit_of(ts[0]) != suit_of(ts[2]) or ts[1] != ts[0] + 1
                    or ts[2] != ts[0] + 2):
                raise _bad(text, "a chi names three consecutive tiles of one suit, e.g. chi 456m")
            return Action("chi", seq=(ts[0], ts[1], ts[2]), ting=ting)
    except TileError as e:
        raise _bad(text, str(e)) from None
    raise _bad(text, f"unknown verb {words[0]!r}: expected one of {', '.join(VERBS)}")


__all__ = ["VERBS", "Action", "parse_action"]
