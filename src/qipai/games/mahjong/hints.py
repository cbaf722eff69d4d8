"""Hints from public information only: 向听, useful tiles and waits, with how many of each a seat has not seen.

A seat about to discard gets the discards that keep its best 向听 (the lowest any discard reaches), each with the
tile kinds that would then lower it and how many of each are still unseen from that seat; a discard that leaves
a ready hand lists its waits instead.  A seat waiting (13 − 3·melds tiles) gets its own useful tiles, or its
waits when it is ready.

>>> from .hand import meld_sig
>>> from .melds import parse_melds
>>> from .tiles import parse_tiles, to_counts
>>> h = hints(to_counts(parse_tiles("234m 678p 24m ZZ")), meld_sig(parse_melds("chi 567s")), [4] * 28)
>>> h["shanten"], h["waits"]
(0, [{'tile': '3m', 'unseen': 4}])
>>> h = hints(to_counts(parse_tiles("234m 678p 24m ZZ 9s")), meld_sig(parse_melds("chi 567s")), [4] * 28)
>>> [(d["tile"], d["shanten"], d["ting"]) for d in h["discards"]]
[('9s', 0, True)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .hand import MeldSig, discard_shanten, draw_shanten, shanten_counts, wait_kinds
from .rules import DAQING, Rules
from .tiles import tile_name as tn

JSON = dict[str, Any]


def useful_tiles(counts: Sequence[int], sig: MeldSig, rules: Rules = DAQING, current: int | None = None,
                 kinds: Iterable[int] | None = None) -> list[int]:
    """The kinds (among ``kinds``, default all) whose draw would lower the 向听 of the waiting hand ``counts``
    (13 − 3·melds tiles)."""
    if current is None:
        current = shanten_counts(counts, sig, rules)
    return [y for y, s in draw_shanten(counts, sig, rules, kinds).items() if s < current]


def _tiles(kinds: Sequence[int], unseen: Sequence[int]) -> tuple[list[JSON], int]:
    items: list[JSON] = [{"tile": tn(k), "unseen": max(0, unseen[k])} for k in kinds]
    return items, sum(max(0, unseen[k]) for k in kinds)


def waiting_hints(counts: Sequence[int], sig: MeldSig, unseen: Sequence[int], rules: Rules = DAQING, *,
                  zhidui: int | None = None, ready: bool = False) -> JSON:
    """Hints for a hand of 13 − 3·melds tiles."""
    if ready:
        ws, total = _tiles(wait_kinds(counts, sig, rules, zhidui), unseen)
        return {"shanten": 0, "ready": True, "waits": ws, "unseen": total}
    s = shanten_counts(counts, sig, rules)
    if s == 0:
        ws, total = _tiles(wait_kinds(counts, sig, rules), unseen)
        if ws:
            return {"shanten": 0, "ready": False, "waits": ws, "unseen": total, "can_ting": sig.count > 0}
    useful, total = _tiles(useful_tiles(counts, sig, rules, s), unseen)
    return {"shanten": s, "ready": False, "useful": useful, "kinds": len(useful), "unseen": total}


def hints(counts: Sequence[int], sig: MeldSig, unseen: Sequence[int], rules: Rules = DAQING, *,
          zhidui: int | None = None, ready: bool = False) -> JSON:
    """The hints for concealed ``counts`` with melds ``sig`` (see the module text).  ``unseen[k]`` is how many
    copies of kind ``k`` the seat has not seen."""
    n = sum(counts) + 3 * sig.count
    if n != 14 or ready:
        return waiting_hints(counts, sig, unseen, rules, zhidui=zhidui, ready=ready)
    c = list(counts)
    after = discard_shanten(counts, sig, rules)
    best = min(after.values())
    discards = []
    for x, s in after.items():
        if s != best:
            continue
        c[x] -= 1
        d: JSON = {"tile": tn(x), "shanten": s}
        ws = wait_kinds(c, sig, rules) if s == 0 else []
        if ws:
            d["waits"], d["unseen"] = _tiles(ws, unseen)
            d["ting"] = sig.count > 0
        else:
            d["useful"], d["unseen"] = _tiles(useful_tiles(c, sig, rules, s), unseen)
            d["kinds"] = len(d["useful"])
            d["ting"] = False
        c[x] += 1
        discards.append(d)
    discards.sort(key=lambda d: (-d["unseen"], -len(d.get("waits") or d.get("useful") or [])))
    return {"shanten": best, "discards": discards}


__all__ = ["hints", "useful_tiles", "waiting_hints"]
