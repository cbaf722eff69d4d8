"""Seating (RULES-matches.md §3.4.3, §3.5.3, §3.5.4, §3.6): pure functions of the ranked list.

The ranked list is best first.  A seating is a list of tables, each a list of entrants in seat order.

>>> snake(list(range(1, 10)), 3)
[[1, 6, 7], [2, 5, 8], [3, 4, 9]]
>>> by_score(list(range(1, 7)), 3)
[[1, 2, 3], [4, 5, 6]]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from itertools import combinations
from typing import TypeVar

from ..core.rng import Rng

T = TypeVar("T")
H = TypeVar("H", bound=Hashable)
SEATINGS = ("snake", "by_score", "random")


def _tables(n: int, s: int) -> int:
    if s <= 0:
        raise ValueError("table size must be positive")
    if n % s:
        raise ValueError(f"{n} entrants do not fill tables of {s}")
    return n // s


def snake(ranked: Sequence[T], s: int) -> list[list[T]]:
    """Snake seating (balanced tables): ``e_i`` has row ``i // T`` and column ``i mod T``; its table is the
    column on even rows and ``T − 1 − column`` on odd rows; its seat is its row.

    §9 example 6:

    >>> snake(list(range(1, 13)), 3)
    [[1, 8, 9], [2, 7, 10], [3, 6, 11], [4, 5, 12]]
    """
    t = _tables(len(ranked), s)
    tables: list[list[T]] = [[] for _ in range(t)]
    for i, e in enumerate(ranked):
        row, col = divmod(i, t)
        tables[col if row % 2 == 0 else t - 1 - col].append(e)
    return tables


def by_score(ranked: Sequence[T], s: int) -> list[list[T]]:
    """Similar scores together: table ``t`` takes ``e_{ts} … e_{ts+s−1}``.

    >>> by_score(list(range(1, 13)), 3)
    [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]
    """
    _tables(len(ranked), s)
    return [list(ranked[i:i + s]) for i in range(0, len(ranked), s)]


def random_seating(ranked: Sequence[T], s: int, rng: Rng) -> list[list[T]]:
    """A uniform random permutation from ``rng``, then :func:`by_score` on it.

    >>> random_seating(list(range(6)), 3, Rng(1)) == random_seating(list(range(6)), 3, Rng(1))
    True
    """
    items = list(ranked)
    rng.shuffle(items)
    return by_score(items, s)


def seat_fixed(ranked: Sequence[T], s: int, method: str, rng: Rng | None = None) -> list[list[T]]:
    """The seating of a ``fixed`` round by ``method`` (``snake``, ``by_score`` or ``random``)."""
    if method == "snake":
        return snake(ranked, s)
    if method == "by_score":
        return by_score(ranked, s)
    if method == "random":
        if rng is None:
            raise ValueError("random seating needs a random source")
        return random_seating(ranked, s, rng)
    raise ValueError(f"unknown seating {method!r}")


def choose_byes(standings: Sequence[H], byes_had: Mapping[H, int], b: int) -> list[H]:
    """The ``b`` entrants who sit out (§3.5.3): order everyone by (byes already had, fewest first; then current
    standings, worst first) and take the first ``b``.  ``standings`` is best first.

    §9 example 9, round 4: standings ``A B J C H D E F G I`` after byes for J, I, H:

    >>> choose_byes(list("ABJCHDEFGI"), {"J": 1, "I": 1, "H": 1}, 1)
    ['G']
    """
    if b < 0 or b > len(standings):
        raise ValueError(f"cannot give {b} byes to {len(standings)} entrants")
    n = len(standings)
    order = sorted(range(n), key=lambda i: (byes_had.get(standings[i], 0), n - i))
    return [standings[i] for i in order[:b]]


def repeats(tables: Sequence[Sequence[H]], met: Callable[[H, H], int]) -> int:
    """``R``: over tables, over unordered pairs at one table, the number of earlier rounds they sat together.

    >>> m = {frozenset("AB"): 1}
    >>> repeats([["A", "B", "C"], ["D", "E", "F"]], lambda a, b: m.get(frozenset((a, b)), 0))
    1
    """
    return sum(met(a, b) for table in tables for a, b in combinations(table, 2))


def displacement(tables: Sequence[Sequence[H]], index: Mapping[H, int], s: int) -> int:
    """``D``: over entrants, ``|table(e) − home(e)|`` with ``home(e) = idx(e) // s``."""
    return sum(abs(t - index[e] // s) for t, table in enumerate(tables) for e in table)


def swiss_seating(ranked: Sequence[H], s: int, met: Callable[[H, H], int],
                  swap_window: int = 2) -> list[list[H]]:
    """Swiss seating with repeat minimisation, the normative procedure of §3.5.4.

    1. Cut: table ``t`` takes ``e_{ts} … e_{ts+s−1}``.
    2. Repeat: among swaps of ``a`` at table ``i`` with ``b`` at table ``j`` (``i < j ≤ i + swap_window``)
       that strictly lower ``R``, apply the one with the smallest ``(R, D, |idx(a) − idx(b)|, −idx(a))``;
       stop when none lowers ``R``.  Tables stay sorted by ``idx`` (the seat order).

    ``met(a, b)`` is the number of earlier rounds of the stage in which ``a`` and ``b`` sat together.

    §9 example 10 (9 entrants, round 2):

    >>> r1 = [set("ABC"), set("DEF"), set("GHI")]
    >>> met = lambda a, b: sum(1 for t in r1 if a in t and b in t)
    >>> swiss_seating(list("ADBGECHFI"), 3, met)
    [['A', 'D', 'H'], ['G', 'E', 'C'], ['B', 'F', 'I']]
    """
    n = len(ranked)
    t_count = _tables(n, s)
    if swap_window < 1:
        raise ValueError("swap_window must be at least 1")
    idx = {e: i for i, e in enumerate(ranked)}
    if len(idx) != n:
        raise ValueError("an entrant is listed twice")
    tables: list[list[H]] = [list(ranked[t * s:(t + 1) * s]) for t in range(t_count)]
    cache: dict[tuple[H, H], int] = {}

    def m(a: H, b: H) -> int:
        key = (a, b) if idx[a] < idx[b] else (b, a)
        v = cache.get(key)
        if v is None:
            v = cache[key] = met(key[0], key[1])
        return v

    def home(e: H) -> int:
        return idx[e] // s

    r_now = sum(m(a, b) for table in tables for a, b in combinations(table, 2))
    d_now = 0
    while r_now > 0:
        best: tuple[int, int, int, int] | None = None
        best_swap: tuple[int, int, int, int] | None = None
        for i in range(t_count):
            ti = tables[i]
            for j in range(i + 1, min(t_count, i + swap_window + 1)):
                tj = tables[j]
                for ai, a in enumerate(ti):
                    ra = sum(m(a, x) for x in ti if x != a)
                    for bi, b in enumerate(tj):
                        rb = sum(m(b, x) for x in tj if x != b)
                        gain_i = sum(m(b, x) for x in ti if x != a)
                        gain_j = sum(m(a, x) for x in tj if x != b)
                        r_after = r_now - ra - rb + gain_i + gain_j
                        if r_after >= r_now:
                            continue
                        d_after = (d_now - abs(i - home(a)) - abs(j - home(b))
                                   + abs(j - home(a)) + abs(i - home(b)))
                        key = (r_after, d_after, abs(idx[a] - idx[b]), -idx[a])
                        if best is None or key < best:
                            best, best_swap = key, (i, ai, j, bi)
        if best is None or best_swap is None:
            break
        i, ai, j, bi = best_swap
        tables[i][ai], tables[j][bi] = tables[j][bi], tables[i][ai]
        tables[i].sort(key=idx.__getitem__)
        tables[j].sort(key=idx.__getitem__)
        r_now, d_now = best[0], best[1]
    return tables


def team_seats(team_a: Sequence[T], team_b: Sequence[T]) -> list[T]:
    """The seats of a team table (§3.6): team A (better ranked) at seats 0 (captain) and 2, team B at 1
    (captain) and 3.  Each team is ``[captain, partner]``.

    >>> team_seats(["a1", "a2"], ["b1", "b2"])
    ['a1', 'b1', 'a2', 'b2']
    """
    if len(team_a) != 2 or len(team_b) != 2:
        raise ValueError("a team has two players")
    return [team_a[0], team_b[0], team_a[1], team_b[1]]
