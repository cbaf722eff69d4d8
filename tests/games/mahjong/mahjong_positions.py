"""Building Daqing mahjong positions for tests: a game from a given deal, then the seats' tiles, melds, rivers,
ready flags and the 宝 set as a test needs them (the deal's own tiles are only filler)."""

from __future__ import annotations

from collections.abc import Mapping

from qipai.games.mahjong.melds import parse_melds
from qipai.games.mahjong.rules import DAQING, Rules
from qipai.games.mahjong.state import MahjongGame
from qipai.games.mahjong.tiles import parse_tile, parse_tiles, to_counts

FILLER = ["123456789m 12345p", "6789p 123456789s 9m", "11223344556677m", "8899m 1122334455p"]


def position(rules: Rules = DAQING, *, hands: Mapping[int, str], melds: Mapping[int, str] | None = None,
             ready: Mapping[int, bool] | None = None, rivers: Mapping[int, str] | None = None, turn: int = 0,
             wall: str = "1m 2m 3m 4m 5m 6m 7m 8m", bao: str | None = None, dealer: int = 0,
             drawn: str | None = None) -> MahjongGame:
    """Seat ``turn`` is to discard (its hand holds 14 − 3·melds tiles; ``drawn`` marks one as just drawn)."""
    deal = []
    for s in range(4):
        ks = parse_tiles(FILLER[s])
        deal.append(ks[:14] if s == dealer else ks[:13])
    g = MahjongGame.from_deal(rules, deal, wall, dealer=dealer)
    for s in range(4):
        g.hands[s] = to_counts(parse_tiles(hands.get(s, "")))
        g.melds[s] = parse_melds(melds.get(s, "")) if melds else []
        g.rivers[s] = parse_tiles(rivers.get(s, "")) if rivers else []
    for s, on in (ready or {}).items():
        g.ready[s] = on
        g.ready_at[s] = -1
    if bao is not None:
        g.bao = parse_tile(bao)
        g.bao_set = True
    elif ready and any(ready.values()):
        g.bao_set = True
    for s in range(4):
        want = (14 if s == turn else 13) - 3 * len(g.melds[s])
        if sum(g.hands[s]) != want:
            raise ValueError(f"test position: seat {s} needs {want} concealed tiles, got {sum(g.hands[s])}")
    g.turn = turn
    g.phase = "play"
    g.need = "discard"
    g.first_turn = False
    g.drawn = [None] * 4
    if drawn is not None:
        g.drawn[turn] = parse_tile(drawn)
    return g


def snapshot(g: MahjongGame) -> tuple[object, ...]:
    """Everything an illegal action must leave unchanged."""
    return (tuple(tuple(h) for h in g.hands), [list(m) for m in g.melds], [list(r) for r in g.rivers],
            list(g.ready), g.bao, list(g.old_bao), g.phase, g.turn, g.need, list(g.actions), len(g.log),
            g.head, g.tail, None if g.window is None else dict(g.window.answers), g.decision_no)
