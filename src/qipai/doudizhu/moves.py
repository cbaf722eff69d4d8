"""Legal-move generation: every lead, or every answer to the last play, each exactly once.

The generator works on rank-count vectors.  Per rule set it precomputes, once, the moves that depend on a
single rank or on a run of consecutive ranks, so most of a hand's moves are looked up rather than built;
moves with kickers are taken from per-rank tables, and only plane kickers are enumerated as multisets.

>>> from qipai.doudizhu.rules import PRESETS
>>> classic = PRESETS["classic"]
>>> [str(m) for m in legal_moves("3345", classic)]
['3', '33', '4', '5']
>>> last = legal_moves("44", classic)[-1]
>>> [str(m) for m in legal_moves("3355BR", classic, to_beat=last)]
['55', 'BR']
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ..cards import BLACK_JOKER, NUM_RANKS, RED_JOKER, check_counts
from .combos import TOP_CHAIN_RANK, HandLike, Move, as_counts, kickers_hold_rocket
from .rules import Rules

_Tuple = tuple[Move, ...]


def _unit_counts(lo: int, hi: int, width: int) -> list[int]:
    c = [0] * NUM_RANKS
    for r in range(lo, hi + 1):
        c[r] = width
    return c


class _Tables:
    """Moves precomputed for one rule set (only the fields that shape combinations matter)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        kinds = rules.kinds
        self.decks = rules.decks
        self.rank_cap = 4 * rules.decks
        self.labels: dict[Move, str] = {}
        """Move labels (see :meth:`Move.label`) under these rules, filled as they are asked for."""
        z = [0] * NUM_RANKS

        def one_rank(r: int, n: int) -> tuple[int, ...]:
            c = z.copy()
            c[r] = n
            return tuple(c)

        # simple[r][n]: the single/pair/triple/bomb moves of rank r using at most n cards (n up to 4*decks)
        top = 4 * rules.decks
        self.simple: list[list[_Tuple]] = []
        self.single: list[Move | None] = []
        self.pair: list[Move | None] = []
        self.triple: list[Move | None] = []
        self.bombs: list[list[Move]] = []  # bombs[r] = bombs of rank r by size, smallest first
        for r in range(NUM_RANKS):
            row: list[_Tuple] = [()]
            acc: list[Move] = []
            s = Move.make("single", r, 1, one_rank(r, 1)) if "single" in kinds else None
            p = Move.make("pair", r, 1, one_rank(r, 2)) if "pair" in kinds else None
            t = Move.make("triple", r, 1, one_rank(r, 3)) if "triple" in kinds and r < BLACK_JOKER else None
            self.single.append(s)
            self.pair.append(p)
            self.triple.append(t)
            bl: list[Move] = []
            for n in range(1, top + 1):
                if n == 1 and s:
                    acc.append(s)
                elif n == 2 and p:
                    acc.append(p)
                elif n == 3 and t:
                    acc.append(t)
                elif n >= rules.bomb_min and r < BLACK_JOKER and "bomb" in kinds:
                    b = Move.make("bomb", r, 1, one_rank(r, n))
                    acc.append(b)
                    bl.append(b)
                row.append(tuple(acc))
            self.simple.append(row)
            self.bombs.append(bl)
        rc = z.copy()
        rc[BLACK_JOKER] = rc[RED_JOKER] = rules.decks
        self.rocket = Move.make("rocket", RED_JOKER, 1, tuple(rc)) if "rocket" in kinds else None

        # chain tables: chains[kind][hi][length] = move; runs[kind][lo][hi] = every chain inside [lo, hi]
        self.chain_spec: list[tuple[str, int, int, int]] = []
        for kind, width, lo_len, hi_len in (
            ("straight", 1, rules.straight_min, rules.straight_max),
            ("pair_straight", 2, rules.pair_straight_min, rules.pair_straight_max),
            ("plane", 3, rules.plane_min, rules.plane_max),
        ):
            if kind in kinds:
                self.chain_spec.append((kind, width, lo_len, hi_len))
        self.chain: dict[str, list[list[Move | None]]] = {}
        self.chains_by_mask: dict[str, list[_Tuple]] = {}
        self.runs: dict[str, list[list[_Tuple]]] = {}
        for kind, width, lo_len, hi_len in self.chain_spec:
            by_hi: list[list[Move | None]] = [[None] * 13 for _ in range(TOP_CHAIN_RANK + 1)]
            for hi in range(TOP_CHAIN_RANK + 1):
                for length in range(lo_len, min(hi_len, hi + 1) + 1):
                    lo = hi - length + 1
                    by_hi[hi][length] = Move.make(kind, hi, length, tuple(_unit_counts(lo, hi, width)))
            self.chain[kind] = by_hi
            runs: list[list[_Tuple]] = [[()] * (TOP_CHAIN_RANK + 1) for _ in range(TOP_CHAIN_RANK + 1)]
            for lo in range(TOP_CHAIN_RANK + 1):
                for hi in range(lo, TOP_CHAIN_RANK + 1):
                    runs[lo][hi] = tuple(
                        m
                        for h in range(lo, hi + 1)
                        for length in range(lo_len, min(hi_len, h - lo + 1) + 1)
                        if (m := by_hi[h][length]) is not None
                    )
            self.runs[kind] = runs
            by_mask: list[_Tuple] = []
            for mask in range(1 << (TOP_CHAIN_RANK + 1)):
                acc2: list[Move] = []
                for lo, hi in _mask_runs(mask):
                    acc2.extend(runs[lo][hi])
                by_mask.append(tuple(acc2))
            self.chains_by_mask[kind] = by_mask

        empty: list[_Tuple] = [()] * (1 << (TOP_CHAIN_RANK + 1))
        self.chains_by_width = [self.chains_by_mask.get(k, empty) for k in ("straight", "pair_straight", "plane")]
        """Chain moves by the mask of ranks held once, twice and three times (empty where a kind is off)."""

        # kicker tables
        self.ts: list[list[Move | None]] | None = None
        self.tp: list[list[Move | None]] | None = None
        if "triple_single" in kinds:
            self.ts = [[None] * NUM_RANKS for _ in range(NUM_RANKS)]
            for tr in range(BLACK_JOKER):
                for k in range(NUM_RANKS):
                    if k != tr:
                        c = z.copy()
                        c[tr] = 3
                        c[k] = 1
                        self.ts[tr][k] = Move.make("triple_single", tr, 1, tuple(c))
        if "triple_pair" in kinds:
            self.tp = [[None] * NUM_RANKS for _ in range(NUM_RANKS)]
            for tr in range(BLACK_JOKER):
                for k in range(NUM_RANKS):
                    if k != tr:
                        c = z.copy()
                        c[tr] = 3
                        c[k] = 2
                        self.tp[tr][k] = Move.make("triple_pair", tr, 1, tuple(c))
        self.share = rules.single_kickers_share_rank
        self.f2s = "four_two_singles" in kinds
        self.f2p = "four_two_pairs" in kinds
        self.ps = "plane_singles" in kinds
        self.pp = "plane_pairs" in kinds
        self.plane_min, self.plane_max = rules.plane_min, rules.plane_max
        self._two: dict[tuple[str, int, int], list[list[Move | None]]] = {}

    # --- kicker moves --------------------------------------------------------------------------------------
    def two_kicker_table(self, kind: str, lo: int, hi: int, width: int) -> list[list[Move | None]]:
        """``table[a][b]`` (a <= b): the move whose main part is ranks lo..hi ``width`` deep, with two
        single kickers ``a``, ``b`` (``kind`` ends in ``singles``) or two pair kickers (``pairs``)."""
        key = (kind, lo, hi)
        table = self._two.get(key)
        if table is None:
            table = [[None] * NUM_RANKS for _ in range(NUM_RANKS)]
            per = 2 if kind.endswith("pairs") else 1
            for a in range(NUM_RANKS):
                if lo <= a <= hi:
                    continue
                for b in range(a, NUM_RANKS):
                    if lo <= b <= hi or (a == b and (per == 2 or not self.share)):
                        continue
                    c = [0] * NUM_RANKS
                    for r in range(lo, hi + 1):
                        c[r] = width
                    c[a] += per
                    c[b] += per
                    if kickers_hold_rocket(c, self.decks):
                        continue
                    table[a][b] = Move.make(kind, hi, hi - lo + 1, tuple(c))
            self._two[key] = table
        return table

    def add_two(self, out: list[Move], avail: list[int], c: tuple[int, ...], kind: str, lo: int, hi: int,
                width: int) -> None:
        """Append every move of ``kind`` with main part lo..hi and two kickers from ``avail`` (the ranks held
        once or more for single kickers, twice or more for pair kickers, outside lo..hi)."""
        table = self.two_kicker_table(kind, lo, hi, width)
        twin = self.share and not kind.endswith("pairs")  # two single kickers of one rank
        for i, a in enumerate(avail):
            row = table[a]
            if twin and c[a] >= 2:
                out.append(row[a])  # type: ignore[arg-type]
            if a >= BLACK_JOKER:  # B with R may be the rocket: the table holds None there
                out += [m for b in avail[i + 1:] if (m := row[b]) is not None]
            else:
                out += [row[b] for b in avail[i + 1:]]  # type: ignore[misc]

    def four_two(self, out: list[Move], c: tuple[int, ...], f: int, singles: list[int], pairs: list[int]) -> None:
        """Append four-with-two moves with four ``f`` (``c[f] >= 4``)."""
        if self.f2s:
            self.add_two(out, [r for r in singles if r != f], c, "four_two_singles", f, f, 4)
        if self.f2p:
            self.add_two(out, [r for r in pairs if r != f], c, "four_two_pairs", f, f, 4)

    def planes(self, out: list[Move], c: tuple[int, ...], lo: int, hi: int, singles: list[int],
               pairs: list[int]) -> None:
        """Append planes with kickers whose triples are exactly ranks ``lo..hi`` (each ``c[r] >= 3``)."""
        k = hi - lo + 1
        if k < self.plane_min or k > self.plane_max:
            return
        if k == 2:
            if self.ps:
                self.add_two(out, [r for r in singles if r < lo or r > hi], c, "plane_singles", lo, hi, 3)
            if self.pp:
                self.add_two(out, [r for r in pairs if r < lo or r > hi], c, "plane_pairs", lo, hi, 3)
            return
        decks = self.decks
        base = [0] * NUM_RANKS
        for r in range(lo, hi + 1):
            base[r] = 3
        outside = [r for r in range(NUM_RANKS) if c[r] and not lo <= r <= hi]
        if self.ps:
            caps = [(r, min(c[r], k) if self.share else 1) for r in outside]
            if sum(n for _, n in caps) >= k:
                for pick in _multisets(caps, k):
                    kc = base.copy()
                    for r, n in pick:
                        kc[r] += n
                    if kickers_hold_rocket(kc, decks):  # jokers never sit in the chain
                        continue
                    out.append(Move.make("plane_singles", hi, k, tuple(kc)))
        if self.pp:
            pairs = [r for r in outside if c[r] >= 2]
            if len(pairs) >= k:
                for combo in combinations(pairs, k):
                    if BLACK_JOKER in combo and RED_JOKER in combo:
                        continue
                    kc = base.copy()
                    for r in combo:
                        kc[r] = 2
                    out.append(Move.make("plane_pairs", hi, k, tuple(kc)))


def _multisets(caps: list[tuple[int, int]], k: int) -> list[list[tuple[int, int]]]:
    """Every way to pick ``k`` items from ranks with the given caps, as (rank, count) lists."""
    res: list[list[tuple[int, int]]] = []
    n = len(caps)
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + caps[i][1]
    pick: list[tuple[int, int]] = []

    def go(i: int, left: int) -> None:
        if left == 0:
            res.append(pick.copy())
            return
        if i == n or suffix[i] < left:
            return
        r, cap = caps[i]
        for take in range(min(cap, left), 0, -1):
            pick.append((r, take))
            go(i + 1, left - take)
            pick.pop()
        go(i + 1, left)

    go(0, k)
    return res


_TABLES: dict[Rules, _Tables] = {}
_BY_ID: dict[int, tuple[Rules, _Tables]] = {}
"""Tables by ``id(rules)``: hashing a 45-field dataclass on every call would cost more than the lookup.  The
entry keeps its rules object alive, so the id cannot be reused while the entry exists."""


def _tables(rules: Rules) -> _Tables:
    entry = _BY_ID.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    t = _TABLES.get(rules)
    if t is None:
        t = _TABLES[rules] = _Tables(rules)
    _BY_ID[id(rules)] = (rules, t)
    return t


def _mask_runs(mask: int) -> list[tuple[int, int]]:
    """Maximal runs of set bits in ``mask`` (chain ranks), as (lo, hi)."""
    out = []
    lo = -1
    for r in range(TOP_CHAIN_RANK + 2):
        if r <= TOP_CHAIN_RANK and mask >> r & 1:
            if lo < 0:
                lo = r
        elif lo >= 0:
            out.append((lo, r - 1))
            lo = -1
    return out


_CHAIN_RANKS = range(TOP_CHAIN_RANK + 1)
_TOP_RANKS = range(TOP_CHAIN_RANK + 1, NUM_RANKS)
_RUNS_BY_MASK = [_mask_runs(m) for m in range(1 << (TOP_CHAIN_RANK + 1))]


def _leads(t: _Tables, c: tuple[int, ...]) -> list[Move]:
    out: list[Move] = []
    simple = t.simple
    singles: list[int] = []
    pairs: list[int] = []
    triples: list[int] = []
    m1 = m2 = m3 = 0  # chain-rank masks of ranks held at least once, twice, three times
    bit = 1
    for r in _CHAIN_RANKS:
        n = c[r]
        if n:
            out += simple[r][n]
            singles.append(r)
            m1 |= bit
            if n >= 2:
                pairs.append(r)
                m2 |= bit
                if n >= 3:
                    triples.append(r)
                    m3 |= bit
        bit <<= 1
    for r in _TOP_RANKS:
        n = c[r]
        if n:
            out += simple[r][n]
            singles.append(r)
            if n >= 2:
                pairs.append(r)
                if n >= 3 and r < BLACK_JOKER:
                    triples.append(r)
    if t.rocket is not None and c[BLACK_JOKER] >= t.decks and c[RED_JOKER] >= t.decks:
        out.append(t.rocket)
    by_mask = t.chains_by_width
    out += by_mask[0][m1]
    out += by_mask[1][m2]
    out += by_mask[2][m3]
    if triples:
        ts = t.ts
        if ts is not None:
            for tr in triples:
                row = ts[tr]
                out += [row[k] for k in singles if k != tr]  # type: ignore[misc]
        tp = t.tp
        if tp is not None:
            for tr in triples:
                row = tp[tr]
                out += [row[k] for k in pairs if k != tr]  # type: ignore[misc]
        if (t.ps or t.pp) and m3 & (m3 >> 1):
            for lo, hi in _RUNS_BY_MASK[m3]:
                for a in range(lo, hi):
                    for b in range(a + 1, hi + 1):
                        t.planes(out, c, a, b, singles, pairs)
        if t.f2s or t.f2p:
            for f in triples:
                if c[f] >= 4:
                    t.four_two(out, c, f, singles, pairs)
    return out


def _answers(t: _Tables, c: tuple[int, ...], last: Move) -> list[Move]:
    out: list[Move] = []
    kind = last.kind
    if kind == "rocket":
        return out
    main = last.main
    decks = t.decks
    if kind == "single" or kind == "pair" or kind == "triple":
        table = t.single if kind == "single" else t.pair if kind == "pair" else t.triple
        need = 1 if kind == "single" else 2 if kind == "pair" else 3
        for r in range(main + 1, NUM_RANKS):
            if c[r] >= need and (m := table[r]) is not None:
                out.append(m)
    elif kind == "straight" or kind == "pair_straight" or kind == "plane":
        width = 1 if kind == "straight" else 2 if kind == "pair_straight" else 3
        length = last.length
        by_hi = t.chain.get(kind)
        if by_hi is not None:
            run = 0
            for r in range(TOP_CHAIN_RANK + 1):
                run = run + 1 if c[r] >= width else 0
                if r > main and run >= length and (m := by_hi[r][length]) is not None:
                    out.append(m)
    elif kind == "triple_single" or kind == "triple_pair":
        table2 = t.ts if kind == "triple_single" else t.tp
        if table2 is not None:
            need = 1 if kind == "triple_single" else 2
            ks = [r for r in range(NUM_RANKS) if c[r] >= need]
            for tr in range(main + 1, BLACK_JOKER):
                if c[tr] >= 3:
                    row = table2[tr]
                    out.extend([m for k in ks if k != tr and (m := row[k]) is not None])
    elif kind == "four_two_singles" or kind == "four_two_pairs":
        tmp: list[Move] = []
        singles = [r for r in range(NUM_RANKS) if c[r]]
        pairs = [r for r in singles if c[r] >= 2]
        for f in range(main + 1, BLACK_JOKER):
            if c[f] >= 4:
                t.four_two(tmp, c, f, singles, pairs)
        out.extend(m for m in tmp if m.kind == kind)
    elif kind == "plane_singles" or kind == "plane_pairs":
        length = last.length
        tmp = []
        singles = [r for r in range(NUM_RANKS) if c[r]]
        pairs = [r for r in singles if c[r] >= 2]
        for hi in range(main + 1, TOP_CHAIN_RANK + 1):
            lo = hi - length + 1
            if lo >= 0 and all(c[r] >= 3 for r in range(lo, hi + 1)):
                t.planes(tmp, c, lo, hi, singles, pairs)
        out.extend(m for m in tmp if m.kind == kind)
    # bombs and the rocket
    if kind != "bomb":
        for r in range(BLACK_JOKER):
            n = c[r]
            if n >= 4:
                bl = t.bombs[r]
                out.extend(b for b in bl if b.size <= n)
    else:
        for r in range(BLACK_JOKER):
            n = c[r]
            if n >= 4:
                out.extend(
                    b for b in t.bombs[r] if b.size <= n and (b.size > last.size or (b.size == last.size and r > main))
                )
    if t.rocket is not None and c[BLACK_JOKER] >= decks and c[RED_JOKER] >= decks:
        out.append(t.rocket)
    return out


def legal_moves(hand: HandLike, rules: Rules, to_beat: Move | None = None) -> list[Move]:
    """Every legal lead of ``hand``, or every legal answer to ``to_beat`` (passing not counted), once each.

    ``hand`` is rank notation, a 15-entry rank-count vector (fastest) or :class:`~qipai.cards.Card` objects.
    The order is stable (by kind family, then rank) but not part of the contract.
    """
    c = hand if type(hand) is tuple and len(hand) == NUM_RANKS else as_counts(hand)
    entry = _BY_ID.get(id(rules))
    t = entry[1] if entry is not None and entry[0] is rules else _tables(rules)
    if max(c) > t.rank_cap or c[BLACK_JOKER] > t.decks or c[RED_JOKER] > t.decks:
        check_counts(c, rules.decks)
    if to_beat is None:
        return _leads(t, c)
    return _answers(t, c, to_beat)


def _debug_tables(rules: Rules) -> Any:  # pragma: no cover - for interactive use
    return _tables(rules)
