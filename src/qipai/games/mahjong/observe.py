"""What a seat may see (RULES-mahjong.md §2.8): its own tiles (the drawn tile apart), every river and meld, the
wall count, who is ready, the old 宝 tiles turned up, the current 宝 only while the seat is ready, and its hints.
A spectator (``None``) sees no concealed tile.  Everything is revealed when the deal ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.game import IllegalAction
from .hints import hints as make_hints
from .tiles import format_tiles, from_counts
from .tiles import tile_name as tn

if TYPE_CHECKING:
    from .state import MahjongGame

JSON = dict[str, Any]


def observe(game: MahjongGame, seat: int | None, *, hints: bool = True) -> JSON:
    """The observation of ``seat`` (``None``: a spectator)."""
    from .state import unseen_counts

    if seat is not None and not 0 <= seat < len(game.hands):  # (-1 read seat 3's hand, 4 an IndexError)
        raise IllegalAction(f"no such seat {seat!r}")
    over = game.phase == "over"
    sees_bao = over or (seat is not None and game.ready[seat])
    obs: JSON = {
        "game": "mahjong",
        "seat": seat,
        "phase": game.phase,
        "dealer": game.dealer,
        "turn": game.turn,
        "wall": game.wall_count,
        "bao_set": game.bao is not None,
        "bao": tn(game.bao) if sees_bao and game.bao is not None else None,
        "old_bao": [tn(k) for k in game.old_bao],
        "ready": list(game.ready),
        "zhidui": [None if z is None else tn(z) for z in game.zhidui],
        "melds": [[m.to_json() for m in ms] for ms in game.melds],
        "rivers": [[tn(k) for k in r] for r in game.rivers],
        "concealed": [sum(h) for h in game.hands],
        "autoplay": list(game.autoplay),
        "left": list(game.left),
        "rules": game.rules.to_options(),
    }
    w = game.window
    if game.phase == "claim" and w is not None:
        obs["discard"] = {"seat": w.discarder, "tile": tn(w.tile)}
    log = []
    for e in game.log:
        if e["action"] == "draw" and e["seat"] != seat and not over:
            e = {k: v for k, v in e.items() if k != "tile"}
        log.append(e)
    obs["log"] = log
    if seat is not None:
        h = list(game.hands[seat])
        d = game.drawn[seat]
        if d is not None:
            h[d] -= 1
        obs["hand"] = format_tiles(from_counts(h))
        obs["drawn"] = None if d is None else tn(d)
        if game.phase == "play" and game.turn == seat:
            obs["must"] = game.need
        if game.phase == "claim" and w is not None and seat in w.answers:
            a = w.answers[seat]
            obs["answered"] = "pass" if a is None else str(a)
        if hints and not over:
            obs["hints"] = make_hints(game.hands[seat], game.sig(seat), unseen_counts(game, seat), game.rules,
                                      zhidui=game.zhidui[seat], ready=game.ready[seat])
    if over:
        obs["hands"] = [format_tiles(from_counts(h)) for h in game.hands]
        obs["outcome"] = game.outcome()
    return obs


__all__ = ["observe"]
