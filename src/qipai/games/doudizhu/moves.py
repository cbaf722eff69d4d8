"""Legal-move generation: every lead, or every answer to the last play, each exactly once.

The generator works on rank-count vectors.  Per rule set it precomputes, once, the moves that depend on a
single rank or on a run of consecutive ranks, so most of a hand's moves are looked up rather than built;
moves with kickers are taken from per-rank tables, and only plane kickers are enumerated as multisets.

>>> from qipai.games.doudizhu.rules import PRESETS
>>> classic = PRESETS["classic"]
>>> [str(m) for m in legal_moves("3345", classic)]
['3', '33', '4', '5']
>>> last = legal_moves("44", classic)[-1]
>>> [str(m) for m in legal_moves("3355BR", classic, to_beat=last)]
['55', 'BR']
"""

from __future__ import annotations

from itertools import combinations

from .cards import BLACK_JOKER, NUM_RANKS, RED_JOKER, check_counts
from .combos import TOP_CHAIN_RANK, HandLike, Move, as_counts, kickers_hold_rocket
from .rules import Rules

_Tuple = tuple[Move, ...]


def _unit_counts(lo: int, hi: int, width: int) -> list[int]:
    c = [0] * NUM_RANKS
    for r in range(lo, hi + 1):
        c[r] = width
    return c


_LO_RANKS = 8
"""Kicker tables split rank masks in two halves: ranks 3..T (8 bits) and J..R (7 bits)."""
_LO_MASKS = range(1 << _LO_RANKS)
_HI_MASKS = range(1 << (NUM_RANKS - _LO_RANKS))
_RANKS_LO = [[r for r in range(_LO_RANKS) if m >> r & 1] for m in _LO_MASKS]
_RANKS_HI = [[r + _LO_RANKS for r in range(NUM_RANKS - _LO_RANKS) if m >> r & 1] for m in _HI_MASKS]


class _OneKicker:
    """Moves of one main part with one kicker rank, by the half-masks of the ranks available as kickers."""

    __slots__ = ("hi", "lo")

    def __init__(self, row: list[Move | None]) -> None:
        self.lo = [tuple(m for k in _RANKS_LO[mask] if (m := row[k]) is not None) for mask in _LO_MASKS]
        self.hi = [tuple(m for k in _RANKS_HI[mask] if (m := row[k]) is not None) for mask in _HI_MASKS]


class _TwoKickers:
    """Moves of one main part with two kickers (two ranks, or one rank twice), by half-masks of kicker ranks."""

    __slots__ = ("cross", "hi", "lo", "twin_hi", "twin_lo")

    def __init__(self, table: list[list[Move | None]]) -> None:
        def pairs_of(ranks: list[int]) -> tuple[Move, ...]:
            return tuple(m for i, a in enumerate(ranks) for b in ranks[i + 1:] if (m := table[a][b]) is not None)

        self.lo = [pairs_of(_RANKS_LO[mask]) for mask in _LO_MASKS]
        self.hi = [pairs_of(_RANKS_HI[mask]) for mask in _HI_MASKS]
        self.cross = [
            [tuple(m for b in _RANKS_HI[mask] if (m := table[a][b]) is not None) for mask in _HI_MASKS]
            for a in range(_LO_RANKS)
        ]
        self.twin_lo = [tuple(m for a in _RANKS_LO[mask] if (m := table[a][a]) is not None) for mask in _LO_MASKS]
        self.twin_hi = [tuple(m for a in _RANKS_HI[mask] if (m := table[a][a]) is not None) for mask in _HI_MASKS]

    def add(self, out: list[Move], kick: int, twins: int) -> None:
        """Append the moves whose two kicker ranks are in mask ``kick``, and twins from mask ``twins``."""
        lo = kick & 0xFF
        hi = kick >> _LO_RANKS
        out += self.lo[lo]
        out += self.hi[hi]
        cross = self.cross
        for a in _RANKS_LO[lo]:
            out += cross[a][hi]
        if twins:
            out += self.twin_lo[twins & 0xFF]
            out += self.twin_hi[twins >> _LO_RANKS]


class _Tables:
    """Moves precomputed for one rule set (only the fields that shape combinations matter)."""

    def __deepcopy__(self, memo: dict[int, object]) -> _Tables:
        return self  # shared, read-only caches: a cloned game keeps using them

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        kinds = rules.kinds
        self.decks = rules.decks
        self.rank_cap = 4 * rules.decks
        self.labels: dict[Move, str] = {}
        self.play_text: dict[Move, str] = {}
        self.play_move: dict[str, Move] = {}
        """``play LABEL`` texts of moves and back (for the text API), filled as they are asked for."""
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
            ("pair_straight", 2, rules.pair_straight_min, rules.pair_straight_longest),
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
        def one_kicker_rows(kind: str, per: int) -> list[list[Move | None]] | None:
            """``rows[t][k]``: the triple ``t`` with kicker rank ``k`` (``per`` cards of it)."""
            if kind not in kinds:
                return None
            rows: list[list[Move | None]] = [[None] * NUM_RANKS for _ in range(NUM_RANKS)]
            for tr in range(BLACK_JOKER):
                for k in range(NUM_RANKS):
                    if k != tr:
                        c = z.copy()
                        c[tr] = 3
                        c[k] = per
                        rows[tr][k] = Move.make(kind, tr, 1, tuple(c))
            return rows

        self.ts = one_kicker_rows("triple_single", 1)
        self.tp = one_kicker_rows("triple_pair", 2)
        self.share = rules.single_kickers_share_rank
        self.f2s = "four_two_singles" in kinds
        self.f2p = "four_two_pairs" in kinds
        self.ps = "plane_singles" in kinds
        self.pp = "plane_pairs" in kinds
        self.plane_min, self.plane_max = rules.plane_min, rules.plane_max
        self._two: dict[tuple[str, int, int], list[list[Move | None]]] = {}
        self._two_split: dict[tuple[str, int, int], _TwoKickers] = {}
        self.ts1 = [_OneKicker(row) for row in self.ts] if self.ts is not None else None
        self.tp1 = [_OneKicker(row) for row in self.tp] if self.tp is not None else None

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

    def two(self, kind: str, lo: int, hi: int, width: int) -> _TwoKickers:
        """The two-kicker moves of ``kind`` whose main part is ranks lo..hi, ``width`` deep."""
        key = (kind, lo, hi)
        t = self._two_split.get(key)
        if t is None:
            t = self._two_split[key] = _TwoKickers(self.two_kicker_table(kind, lo, hi, width))
        return t

    def four_two(self, out: list[Move], f: int, singles: int, pairs: int) -> None:
        """Append four-with-two moves with four ``f``; ``singles``/``pairs`` are the masks of ranks held once
        or more / twice or more."""
        keep = ~(1 << f)
        if self.f2s:
            self.two("four_two_singles", f, f, 4).add(out, singles & keep, pairs & keep if self.share else 0)
        if self.f2p:
            self.two("four_two_pairs", f, f, 4).add(out, pairs & keep, 0)

    def planes(self, out: list[Move], c: tuple[int, ...], lo: int, hi: int, singles: int, pairs: int) -> None:
        """Append planes with kickers whose triples are exactly ranks ``lo..hi`` (each ``c[r] >= 3``);
        ``singles``/``pairs`` are the masks of ranks held once or more / twice or more."""
        k = hi - lo + 1
        if k < self.plane_min or k > self.plane_max:
            return
        if k == 2:
            keep = ~(3 << lo)
            if self.ps:
                self.two("plane_singles", lo, hi, 3).add(out, singles & keep, pairs & keep if self.share else 0)
            if self.pp:
                self.two("plane_pairs", lo, hi, 3).add(out, pairs & keep, 0)
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
            pair_ranks = [r for r in outside if c[r] >= 2]
            if len(pair_ranks) >= k:
                for combo in combinations(pair_ranks, k):
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


_ALL_RANKS = range(NUM_RANKS)
_CHAIN_RANGE = range(TOP_CHAIN_RANK + 1)
_CHAIN_MASK = (1 << (TOP_CHAIN_RANK + 1)) - 1
_RUNS_BY_MASK = [_mask_runs(m) for m in range(1 << (TOP_CHAIN_RANK + 1))]


def _leads(t: _Tables, c: tuple[int, ...]) -> list[Move]:
    out: list[Move] = []
    simple = t.simple
    triples: list[int] = []
    s1 = s2 = s3 = 0  # masks of ranks held at least once, twice, three times
    bit = 1
    for r in _ALL_RANKS:
        n = c[r]
        if n:
            out += simple[r][n]
            s1 |= bit
            if n >= 2:
                s2 |= bit
                if n >= 3:
                    s3 |= bit
                    triples.append(r)
        bit <<= 1
    if t.rocket is not None and c[BLACK_JOKER] >= t.decks and c[RED_JOKER] >= t.decks:
        out.append(t.rocket)
    by_mask = t.chains_by_width
    out += by_mask[0][s1 & _CHAIN_MASK]
    out += by_mask[1][s2 & _CHAIN_MASK]
    m3 = s3 & _CHAIN_MASK
    out += by_mask[2][m3]
    if triples:
        lo1, hi1 = s1 & 0xFF, s1 >> _LO_RANKS
        ts = t.ts1
        if ts is not None:
            for tr in triples:
                k1 = ts[tr]
                out += k1.lo[lo1]
                out += k1.hi[hi1]
        tp = t.tp1
        if tp is not None:
            lo2, hi2 = s2 & 0xFF, s2 >> _LO_RANKS
            for tr in triples:
                k1 = tp[tr]
                out += k1.lo[lo2]
                out += k1.hi[hi2]
        if (t.ps or t.pp) and m3 & (m3 >> 1):
            for lo, hi in _RUNS_BY_MASK[m3]:
                for a in range(lo, hi):
                    for b in range(a + 1, hi + 1):
                        t.planes(out, c, a, b, s1, s2)
        if t.f2s or t.f2p:
            for f in triples:
                if c[f] >= 4:
                    t.four_two(out, f, s1, s2)
    return out


def _masks(c: tuple[int, ...]) -> tuple[int, int]:
    """Masks of the ranks held at least once and at least twice."""
    s1 = s2 = 0
    for r in _ALL_RANKS:
        n = c[r]
        if n:
            s1 |= 1 << r
            if n >= 2:
                s2 |= 1 << r
    return s1, s2


def _answers(t: _Tables, c: tuple[int, ...], last: Move, top: int = 8) -> list[Move]:
    """Every move in ``c`` that beats ``last``; ``top`` is ``max(c)`` (bombs need 4 of a rank)."""
    kind = last.kind
    if kind == "rocket":
        return []
    main = last.main
    if kind == "single":
        row = t.single
        out = [m for r in range(main + 1, NUM_RANKS) if c[r] and (m := row[r]) is not None]
    elif kind == "pair":
        row = t.pair
        out = [m for r in range(main + 1, NUM_RANKS) if c[r] >= 2 and (m := row[r]) is not None]
    elif kind == "triple":
        row = t.triple
        out = [m for r in range(main + 1, BLACK_JOKER) if c[r] >= 3 and (m := row[r]) is not None]
    elif kind == "straight" or kind == "pair_straight" or kind == "plane":
        out = []
        width = 1 if kind == "straight" else 2 if kind == "pair_straight" else 3
        length = last.length
        by_hi = t.chain.get(kind)
        if by_hi is not None:
            run = 0
            for r in _CHAIN_RANGE:
                run = run + 1 if c[r] >= width else 0
                if r > main and run >= length and (m := by_hi[r][length]) is not None:
                    out.append(m)
    elif kind == "triple_single" or kind == "triple_pair":
        out = []
        one = t.ts1 if kind == "triple_single" else t.tp1
        if one is not None:
            mask = -1
            for tr in range(main + 1, BLACK_JOKER):
                if c[tr] >= 3:
                    if mask < 0:
                        s1, s2 = _masks(c)
                        mask = s1 if kind == "triple_single" else s2
                    k1 = one[tr]
                    out += k1.lo[mask & 0xFF]
                    out += k1.hi[mask >> _LO_RANKS]
    elif kind == "four_two_singles" or kind == "four_two_pairs":
        out = []
        if top >= 4:
            tmp: list[Move] = []
            s1, s2 = _masks(c)
            for f in range(main + 1, BLACK_JOKER):
                if c[f] >= 4:
                    t.four_two(tmp, f, s1, s2)
            out += [m for m in tmp if m.kind == kind]
    elif kind == "plane_singles" or kind == "plane_pairs":
        out = []
        length = last.length
        tmp = []
        s1, s2 = _masks(c)
        for hi in range(main + 1, TOP_CHAIN_RANK + 1):
            lo = hi - length + 1
            if lo >= 0 and all(c[r] >= 3 for r in range(lo, hi + 1)):
                t.planes(tmp, c, lo, hi, s1, s2)
        out += [m for m in tmp if m.kind == kind]
    else:
        out = []
    # bombs and the rocket
    if top >= 4:
        bombs = t.bombs
        if kind != "bomb":
            for r in range(BLACK_JOKER):
                n = c[r]
                if n >= 4:
                    out += [b for b in bombs[r] if b.size <= n]
        else:
            size = last.size
            for r in range(BLACK_JOKER):
                n = c[r]
                if n >= 4:
                    out += [b for b in bombs[r] if b.size <= n and (b.size > size or (b.size == size and r > main))]
    decks = t.decks
    if t.rocket is not None and c[BLACK_JOKER] >= decks and c[RED_JOKER] >= decks:
        out.append(t.rocket)
    return out


def legal_moves(hand: HandLike, rules: Rules, to_beat: Move | None = None) -> list[Move]:
    """Every legal lead of ``hand``, or every legal answer to ``to_beat`` (passing not counted), once each.

    ``hand`` is rank notation, a 15-entry rank-count vector (fastest) or
    :class:`~qipai.games.doudizhu.cards.Card` objects.
    More copies of a rank than the rules' decks hold is an error.  The order is stable (by kind family, then
    rank) but not part of the contract.
    """
    c = hand if type(hand) is tuple and len(hand) == NUM_RANKS else as_counts(hand)
    entry = _BY_ID.get(id(rules))
    t = entry[1] if entry is not None and entry[0] is rules else _tables(rules)
    top = max(c)
    if top > t.rank_cap or c[BLACK_JOKER] > t.decks or c[RED_JOKER] > t.decks:
        check_counts(c, rules.decks)
    if to_beat is None:
        return _leads(t, c)
    return _answers(t, c, to_beat, top)
