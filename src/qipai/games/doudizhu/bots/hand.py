"""Hand evaluation: split a hand into the fewest, strongest plays (拆牌).

A *plan* is a partition of a hand into legal moves.  Its score is the sum of the moves' values less
:data:`ROUND_COST` for every move, so a plan with fewer moves scores higher unless its moves are much weaker:

- singles, pairs and triples are worth their rank less 7 (a ``3`` is -7, a ``T`` 0, an ``A`` 4, a ``2`` 5,
  the jokers 6 and 7): low cards are liabilities, high cards win tricks;
- a straight or pair straight is worth its top rank less 6; a plane half its top rank plus a half;
- bombs and the rocket are worth far more than anything else (they win any trick);
- kickers (带的牌) ride along with a triple or plane: a triple takes the lowest spare single or pair below
  ``A``, which removes one move from the plan.

The search for the best plan removes the lowest rank first: that rank either forms a single, pair or triple
on its own, or starts a chain (every chain through the lowest rank starts there).  Results are memoised on the
chain ranks' counts, so sub-hands that recur across positions are solved once.  Bombs and the rocket are never
split.

>>> from qipai.games.doudizhu.rules import PRESETS
>>> from qipai.games.doudizhu.bots.view import counts_of_text
>>> p = best_plan(tuple(counts_of_text("3456789TTJJQQKK22")), PRESETS["classic"])
>>> [str(m) for m in p.moves]
['3456789', 'TTJJQQKK', '22']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import BLACK_JOKER, NUM_RANKS, RED_JOKER, TWO
from ..combos import TOP_CHAIN_RANK, Move
from ..rules import Rules

ROUND_COST = 7.0
"""What one more move in a plan costs, in value units (one rank step is one unit)."""

ACE = 11
TOP_K = 2
"""How many chain decompositions are kept per sub-hand (kickers are attached afterwards)."""

_MEMO_LIMIT = 400_000
_PLAN_LIMIT = 200_000


def move_value(m: Move) -> float:
    """The value of one move in a plan (see the module docstring)."""
    k = m.kind
    if k == "rocket":
        return 25.0
    if k == "bomb":
        return 12.0 + m.main + 4.0 * (m.size - 4)
    if k == "straight" or k == "pair_straight":
        return m.main - 6.0
    if k == "plane" or k == "plane_singles" or k == "plane_pairs":
        return (m.main + 1) / 2.0
    return m.main - 7.0


@dataclass(frozen=True, slots=True)
class Plan:
    """A partition of a hand into moves, with its score (higher is better)."""

    moves: tuple[Move, ...]
    score: float

    @property
    def rounds(self) -> int:
        """Number of moves in the plan."""
        return len(self.moves)


def _unit(r: int, n: int) -> tuple[int, ...]:
    c = [0] * NUM_RANKS
    c[r] = n
    return tuple(c)


_Link = tuple[Move, "_Link"] | None
_Entry = tuple[float, _Link]
_EMPTY: list[_Entry] = [(0.0, None)]


def _first(e: _Entry) -> float:
    return e[0]


def _unlink(ms: _Link) -> list[Move]:
    out = []
    while ms is not None:
        out.append(ms[0])
        ms = ms[1]
    return out


class _Kit:
    """Per-rules tables of the moves a plan is built from, and the memo of chain decompositions."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        kinds = rules.kinds
        self.decks = rules.decks
        self.bomb_min = rules.bomb_min
        self.groups: list[list[Move | None]] = []
        for r in range(NUM_RANKS):
            row: list[Move | None] = [None]
            for n, kind in ((1, "single"), (2, "pair"), (3, "triple")):
                ok = kind in kinds and n <= (self.decks if r >= BLACK_JOKER else 4 * self.decks)
                row.append(Move.make(kind, r, 1, _unit(r, n)) if ok else None)
            self.groups.append(row)
        # chains starting at each rank: (width, length, move), by width then length
        self.chains: list[list[tuple[int, int, Move, int]]] = [[] for _ in range(TOP_CHAIN_RANK + 1)]
        spec = []
        if "straight" in kinds:
            spec.append(("straight", 1, rules.straight_min, rules.straight_max))
        if "pair_straight" in kinds:
            spec.append(("pair_straight", 2, rules.pair_straight_min, rules.pair_straight_longest))
        if "plane" in kinds:
            spec.append(("plane", 3, rules.plane_min, rules.plane_max))
        for kind, width, lo_len, hi_len in spec:
            for lo in range(TOP_CHAIN_RANK + 1):
                for length in range(max(lo_len, 2 if width > 1 else 1), hi_len + 1):
                    hi = lo + length - 1
                    if hi > TOP_CHAIN_RANK:
                        break
                    c = [0] * NUM_RANKS
                    for r in range(lo, hi + 1):
                        c[r] = width
                    mask = sum(width << (2 * r) for r in range(lo, hi + 1))
                    self.chains[lo].append((width, length, Move.make(kind, hi, length, tuple(c)), mask))
        self.ts = "triple_single" in kinds
        self.tp = "triple_pair" in kinds
        self.ps = "plane_singles" in kinds
        self.pp = "plane_pairs" in kinds
        self.memo: dict[int, list[_Entry]] = {}
        self.plans: dict[tuple[int, ...], Plan] = {}
        self.rocket = Move.make(
            "rocket", RED_JOKER, 1, tuple([0] * BLACK_JOKER + [self.decks, self.decks])
        ) if "rocket" in kinds else None

    # ---------------------------------------------------------------- chain ranks
    def best(self, st: int) -> list[_Entry]:
        """Top decompositions (score, moves as a linked list) of the chain ranks packed in ``st``: two bits
        per rank, rank ``r`` at bits ``2r``, counts 0..3."""
        got = self.memo.get(st)
        if got is not None:
            return got
        if st == 0:
            return _EMPTY
        low = st & -st
        r = (low.bit_length() - 1) >> 1
        c = (st >> (2 * r)) & 3
        out: list[_Entry] = []
        g = self.groups[r][c]
        if g is not None:
            v = move_value(g) - ROUND_COST
            sub = st - (c << (2 * r))
        else:  # a kind is missing at this table: split into singles
            g = self.groups[r][1]
            assert g is not None
            v = move_value(g) - ROUND_COST
            sub = st - (1 << (2 * r))
        for sc, ms in self.best(sub):
            out.append((sc + v, (g, ms)))
        chains = self.chains[r]
        if chains:
            run = [0, 0, 0, 0]
            for w in (1, 2, 3):
                k = r
                while k <= TOP_CHAIN_RANK and ((st >> (2 * k)) & 3) >= w:
                    k += 1
                run[w] = k - r
            for width, length, m, mask in chains:
                if length > run[width]:
                    continue
                v = move_value(m) - ROUND_COST
                for sc, ms in self.best(st - mask):
                    out.append((sc + v, (m, ms)))
        if len(out) > 1:
            out.sort(key=_first, reverse=True)
            del out[TOP_K:]
        if len(self.memo) > _MEMO_LIMIT:
            self.memo.clear()
        self.memo[st] = out
        return out

    # ---------------------------------------------------------------- whole hand
    def plan(self, counts: tuple[int, ...]) -> Plan:
        got = self.plans.get(counts)
        if got is not None:
            return got
        fixed: list[Move] = []
        rest = list(counts)
        # rocket and bombs are never split
        if self.rocket is not None and rest[BLACK_JOKER] >= self.decks and rest[RED_JOKER] >= self.decks:
            fixed.append(self.rocket)
            rest[BLACK_JOKER] -= self.decks
            rest[RED_JOKER] -= self.decks
        st = 0
        bomb_min = self.bomb_min
        for r in range(BLACK_JOKER):
            n = rest[r]
            if n >= bomb_min:
                c = [0] * NUM_RANKS
                c[r] = n
                fixed.append(Move.make("bomb", r, 1, tuple(c)))
            elif n and r <= TOP_CHAIN_RANK:
                st |= n << (2 * r)
        for r in (TWO, BLACK_JOKER, RED_JOKER):
            n = rest[r]
            if r == TWO and n >= bomb_min:
                continue
            while n:
                take = min(n, 3)
                while take and self.groups[r][take] is None:
                    take -= 1
                g = self.groups[r][take]
                assert g is not None
                fixed.append(g)
                n -= take
        fixed_score = 0.0
        for m in fixed:
            fixed_score += move_value(m) - ROUND_COST
        best: Plan | None = None
        for sc, ms in self.best(st):
            moves = _unlink(ms)
            moves += fixed
            moves, gain = self.attach(moves)
            score = sc + fixed_score + gain
            if best is None or score > best.score:
                best = Plan(tuple(moves), score)
        assert best is not None
        if len(self.plans) > _PLAN_LIMIT:
            self.plans.clear()
        self.plans[counts] = best
        return best

    def attach(self, moves: list[Move]) -> tuple[list[Move], float]:
        """Give triples and planes the lowest spare singles or pairs (below ``A``) as kickers; returns the new
        moves and the score gained (each kicker stops being a move of its own)."""
        heads: list[Move] = []
        singles: list[Move] = []
        pairs: list[Move] = []
        for m in moves:
            k = m.kind
            if k == "triple" or k == "plane":
                heads.append(m)
            elif k == "single":
                if m.main < ACE:
                    singles.append(m)
            elif k == "pair" and m.main < ACE:
                pairs.append(m)
        if not heads or not (singles or pairs):
            return moves, 0.0
        singles.sort(key=_main)
        pairs.sort(key=_main)
        if len(heads) > 1:
            heads.sort(key=_head_order)
        used: list[Move] = []
        out_heads: list[Move] = []
        gain = 0.0
        for h in heads:
            n = h.length
            is_plane = h.kind == "plane"
            can_s = self.ps if is_plane else self.ts
            can_p = self.pp if is_plane else self.tp
            best_opt: tuple[int, int, list[Move], str] | None = None
            if can_s and len(singles) >= n:
                best_opt = (sum(m.main for m in singles[:n]), 0, singles[:n],
                            "plane_singles" if is_plane else "triple_single")
            if can_p and len(pairs) >= n:
                o = (sum(m.main for m in pairs[:n]), 1, pairs[:n], "plane_pairs" if is_plane else "triple_pair")
                if best_opt is None or (o[0], o[1]) < (best_opt[0], best_opt[1]):
                    best_opt = o
            if best_opt is None:
                out_heads.append(h)
                continue
            pick, kind = best_opt[2], best_opt[3]
            if best_opt[1] == 0:
                del singles[:n]
            else:
                del pairs[:n]
            used += pick
            c = list(h.counts)
            for m in pick:
                gain += ROUND_COST - move_value(m)
                for r in m.ranks:
                    c[r] += 1
            out_heads.append(Move.make(kind, h.main, h.length, tuple(c)))
        if not used:
            return moves, 0.0
        drop = {id(m) for m in used}
        drop.update(id(h) for h in heads)
        return [m for m in moves if id(m) not in drop] + out_heads, gain


def _main(m: Move) -> int:
    return m.main


def _head_order(m: Move) -> tuple[int, int]:
    return (-m.length, m.main)


_KITS: dict[Rules, _Kit] = {}
"""The kit of each rule set, by value (its ``rules`` is the first object seen with that value: the canonical one)."""

_BY_ID: dict[int, tuple[Rules, _Kit]] = {}
"""The same by object identity: hashing a 45-field ``Rules`` on every lookup costs more than the lookup."""


def _kit(rules: Rules) -> _Kit:
    e = _BY_ID.get(id(rules))
    if e is not None and e[0] is rules:
        return e[1]
    k = _KITS.get(rules)
    if k is None:
        k = _KITS[rules] = _Kit(rules)
    if len(_BY_ID) > 4096:
        _BY_ID.clear()
    _BY_ID[id(rules)] = (rules, k)  # holds the object, so its id is not reused while the entry lives
    return k


def rules_key(rules: Rules) -> int:
    """A small, cheaply hashed key for ``rules`` in caches: equal rules give the same key.

    >>> from qipai.games.doudizhu.rules import PRESETS
    >>> c = PRESETS["classic"]
    >>> rules_key(c) == rules_key(c.replace(stake=c.stake)), rules_key(c) == rules_key(PRESETS["jj"])
    (True, False)
    """
    return id(_kit(rules).rules)


def best_plan(counts: Sequence[int], rules: Rules) -> Plan:
    """The best plan for a hand (15 rank counts) under ``rules``."""
    c = counts if isinstance(counts, tuple) else tuple(counts)
    return _kit(rules).plan(c)


def plan_score(counts: Sequence[int], rules: Rules) -> float:
    """The score of the best plan (an empty hand scores ``ROUND_COST``: it has gone out)."""
    c = counts if isinstance(counts, tuple) else tuple(counts)
    if not any(c):
        return ROUND_COST
    return _kit(rules).plan(c).score


def minus(counts: Sequence[int], m: Move) -> tuple[int, ...]:
    """The hand left after playing ``m``."""
    mc = m.counts
    return tuple([counts[r] - mc[r] for r in range(NUM_RANKS)])
