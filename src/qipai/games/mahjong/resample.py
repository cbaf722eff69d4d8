"""Resampling the tiles a seat cannot see (for search bots and the conformance suite).

:func:`resample` keeps everything ``seat`` saw — its own tiles and draws, every discard, claim, 听, 宝 event and
host event, in order — and draws the rest anew: the other seats' concealed tiles (and so what they drew), the
live wall and a face-down 宝 the seat does not see.  It builds an explicit deal that leads to the same public
history and replays the public steps (the seat's own claim answers included; the others' unexecuted answers,
which the seat never saw, are replaced by passes where the new tiles still let them claim).

How the deal is built: every tile a hidden seat is known to have let go (a discard, the two tiles it put into a
meld) is given to one of that seat's earlier slots — a dealt tile or a draw — at random; a draw that a ready
seat discarded at once keeps its tile.  The slots left over hold the seat's present concealed tiles, drawn from
the unseen tiles (for a ready seat: a random ready hand that does not win on what it let pass).  The attempt is
replayed and kept only if the seat's observation comes out identical; after a few failed attempts the true
hidden tiles are kept (still an exact answer, only not a fresh sample).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.game import IllegalAction, apply_step
from ...core.rng import Rng
from .hand import meld_sig, natural_win, shape_mask, wait_kinds, zhidui_ok
from .tiles import KINDS, Z, parse_tile, parse_tiles

if TYPE_CHECKING:
    from .state import MahjongGame

ATTEMPTS = 24


def resample(game: MahjongGame, seat: int, seed: int) -> MahjongGame:
    """A game whose observation for ``seat`` equals ``game``'s, with the hidden tiles drawn from ``seed``."""
    if game.is_over:
        return game.clone()
    target = game.observe(seat, hints=False)
    for attempt in range(ATTEMPTS):
        rng = Rng(seed * 7919 + attempt * 104729 + 17)
        g = _attempt(game, seat, rng)
        if g is not None and g.observe(seat, hints=False) == target:
            return g
    return game.clone()


class _Slot:
    __slots__ = ("kind", "time")

    def __init__(self, time: int, kind: int | None) -> None:
        self.time = time
        self.kind = kind


def _attempt(game: MahjongGame, seat: int, rng: Rng) -> MahjongGame | None:
    from .state import PLAYERS, MahjongGame

    dealer = game.dealer
    init_hands, init_live = game.initial
    # --- each seat's slots (dealt tiles at time -1, the dealer's 14th apart) and what it let go, from the log
    slots: list[list[_Slot]] = [[_Slot(-1, None) for _ in range(13)] for _ in range(PLAYERS)]
    first_slot = _Slot(-1, None)
    slots[dealer].append(first_slot)
    draws: list[tuple[int, _Slot]] = []
    outs: list[list[tuple[int, int, _Slot | None]]] = [[] for _ in range(PLAYERS)]
    last_draw: list[_Slot | None] = [None] * PLAYERS
    last_draw[dealer] = first_slot
    for i, e in enumerate(game.log):
        s = e["seat"]
        act: str = e["action"]
        if act == "draw":
            sl = _Slot(i, None)
            slots[s].append(sl)
            draws.append((s, sl))
            last_draw[s] = sl
            continue
        verb = act.split()[0]
        if verb in ("discard", "ting"):
            k = parse_tile(act.split()[1])
            fixed = last_draw[s] if e.get("auto") else None
            outs[s].append((i, k, fixed))
            last_draw[s] = None
        elif verb in ("chi", "peng"):
            t = parse_tile(e["tile"])
            if verb == "peng":
                used = [t, t]
            else:
                seq = parse_tiles(act.split()[1])
                seq.remove(t)
                used = seq
            for k in used:
                outs[s].append((i, k, None))
            last_draw[s] = None
    # --- the hidden pool
    pool: list[int] = []
    hidden_bao = game.bao is not None and not game.ready[seat]
    for j in range(PLAYERS):
        if j != seat:
            for k in range(KINDS):
                pool.extend([k] * game.hands[j][k])
    pool.extend(game.wall[game.head:game.tail])
    if hidden_bao:
        assert game.bao is not None
        pool.append(game.bao)
    rng.shuffle(pool)
    counts = [0] * KINDS
    for k in pool:
        counts[k] += 1
    new_hands: list[list[int] | None] = [None] * PLAYERS
    # ready seats first: a random ready hand that does not win on what it let pass
    for j in range(PLAYERS):
        if j == seat or not game.ready[j]:
            continue
        h = _ready_hand(game, j, counts, rng)
        if h is None:
            h = list(game.hands[j])
            if any(h[k] > counts[k] for k in range(KINDS)):
                return None
        for k in range(KINDS):
            counts[k] -= h[k]
        new_hands[j] = h
    rest = []
    for k in pool:
        rest.append(k)
    # remove the ready hands' tiles from the shuffled order
    taken = [0] * KINDS
    for j in range(PLAYERS):
        h = new_hands[j]
        if h is not None:
            for k in range(KINDS):
                taken[k] += h[k]
    order = []
    for k in rest:
        if taken[k]:
            taken[k] -= 1
        else:
            order.append(k)
    pos = 0
    for j in range(PLAYERS):
        if j == seat or new_hands[j] is not None:
            continue
        n = sum(game.hands[j])
        h = [0] * KINDS
        for k in order[pos:pos + n]:
            h[k] += 1
        pos += n
        new_hands[j] = h
    bao = game.bao
    if hidden_bao:
        bao = order[pos]
        pos += 1
    live = order[pos:]
    # --- give every hidden seat's let-go tiles to its earlier slots, the rest to its present hand
    for j in range(PLAYERS):
        if j == seat:
            continue
        free = list(slots[j])
        assigned: set[int] = set()
        for _t, k, fixed in outs[j]:
            if fixed is not None:
                fixed.kind = k
                assigned.add(id(fixed))
        for t, k, fixed in outs[j]:
            if fixed is not None:
                continue
            cands = [sl for sl in free if id(sl) not in assigned and sl.time < t]
            if not cands:
                return None
            sl = cands[rng.below(len(cands))]
            sl.kind = k
            assigned.add(id(sl))
        left = [sl for sl in free if id(sl) not in assigned]
        hj = new_hands[j]
        assert hj is not None
        mine = [k for k in range(KINDS) for _ in range(hj[k])]
        if len(mine) != len(left):
            return None
        rng.shuffle(mine)
        for sl, k in zip(left, mine, strict=True):
            sl.kind = k
    # the seat's own tiles are known
    own = list(init_hands[seat])
    if seat == dealer:
        first_slot.kind = own[-1]
        own_dealt = own[:-1]
    else:
        own_dealt = own
    for sl, k in zip(slots[seat][:13], own_dealt, strict=True):
        sl.kind = k
    for sl in slots[seat][13 if seat != dealer else 14:]:
        sl.kind = parse_tile(game.log[sl.time]["tile"])
    # --- the deal
    hands: list[list[int]] = []
    for j in range(PLAYERS):
        dealt = [sl.kind for sl in slots[j] if sl.time < 0 and sl is not first_slot]
        if j == dealer:
            dealt.append(first_slot.kind)
        if any(k is None for k in dealt):
            return None
        hands.append([k for k in dealt if k is not None])
    head = [sl.kind for _, sl in draws]
    baos = [*game.old_bao, *([bao] if bao is not None else [])]
    wall = [k for k in head if k is not None] + live + baos[::-1]
    if len(wall) != len(init_live):
        return None
    try:
        g = MahjongGame(game.rules, game.seed, dealer, hands, wall, given=True, first_drawn=hands[dealer][-1])
    except IllegalAction:
        return None
    # --- replay the public steps (and the seat's own answers)
    try:
        for i, (s, text) in enumerate(game.actions):
            kind = game.step_kinds[i]
            if kind == "answer" and s != seat and i not in game.carried:
                continue
            if kind != "host":
                _close_others(g, seat, s, kind)
            apply_step(g, s, text)
    except IllegalAction:
        return None
    if g.phase == "claim" and game.phase != "claim":
        return None
    return g


def _close_others(g: MahjongGame, seat: int, nxt: int, kind: str) -> None:
    """Pass for the other seats a claim window waits for, until ``nxt`` may take its step."""
    while g.phase == "claim":
        acting = g.acting
        if kind == "answer" and nxt in acting:
            return
        others = [a for a in acting if a != seat]
        if not others:
            return
        for a in others:
            if g.phase == "claim" and a in g.acting:
                g.apply("pass", a)


def _ready_hand(game: MahjongGame, j: int, counts: list[int], rng: Rng) -> list[int] | None:
    """A random ready hand for seat ``j`` from ``counts`` that wins on none of the tiles it let pass."""
    melds = game.melds[j]
    sig = meld_sig(melds)
    k_sets = 4 - len(melds)
    n = sum(game.hands[j])
    passed = _passed(game, j)
    z = game.zhidui[j]
    for _ in range(40):
        c = [0] * KINDS
        avail = list(counts)
        ok = True
        kinds2 = [k for k in range(KINDS) if avail[k] >= 2]
        if not kinds2:
            return None
        p = kinds2[rng.below(len(kinds2))]
        c[p] += 2
        avail[p] -= 2
        for _s in range(k_sets):
            opts: list[tuple[int, ...]] = []
            for k in range(KINDS):
                if avail[k] >= 3:
                    opts.append((k, k, k))
                if k != Z and k % 9 <= 6 and avail[k] and avail[k + 1] and avail[k + 2]:
                    opts.append((k, k + 1, k + 2))
            if not opts:
                ok = False
                break
            for t in opts[rng.below(len(opts))]:
                c[t] += 1
                avail[t] -= 1
        if not ok or not shape_mask(c):
            continue
        held = [k for k in range(KINDS) if c[k]]
        drop = held[rng.below(len(held))]
        c[drop] -= 1
        if sum(c) != n:
            continue
        if z is not None and not zhidui_ok(c, z, sig, game.rules):
            continue
        if not wait_kinds(c, sig, game.rules, z):
            continue
        if any(natural_win(c, t, sig, game.rules, z) is not None for t in passed):
            continue
        return c
    return None


def _passed(game: MahjongGame, j: int) -> set[int]:
    """Tiles seat ``j`` let pass while ready: discards by others after its 听 and its own draws since."""
    start = game.ready_at[j]
    out: set[int] = set()
    if start is None:
        return out
    for e in game.log[start + 1:]:
        act = e["action"]
        if e["seat"] == j and act == "draw":
            out.add(parse_tile(e["tile"]))
        elif e["seat"] != j and act.split()[0] in ("discard", "ting"):
            out.add(parse_tile(act.split()[1]))
    return out


__all__ = ["resample"]
