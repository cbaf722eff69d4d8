"""打立出局 (``dali``, rising-line elimination, RULES-matches.md §3.3): levels, the line, table forming from the
queue and the exact cut — pure functions.

§9 example 15:

>>> levels = [10, 20, 30, 50, 80, 120, 200, 300]
>>> k = level_index(120, None, elapsed_s=4 * 60 + 59, settled=0)
>>> k, level_base(levels, k), line(3, level_base(levels, k))
(2, 30, 90)
>>> level_index(120, None, elapsed_s=16 * 60, settled=0) >= len(levels)   # forced finish
True
>>> k = level_index(None, 9, elapsed_s=0, settled=40)
>>> k, level_base(levels, k), line(3, level_base(levels, k))
(4, 80, 240)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

H = TypeVar("H", bound=Hashable)
DEFAULT_LEVELS = (10, 20, 30, 50, 80, 120, 200, 300)


def level_index(seconds: int | None, deals: int | None, *, elapsed_s: int, settled: int) -> int:
    """The level index ``k`` (§3.3.2): ``elapsed // seconds`` with ``{seconds: t}``, ``settled // deals`` with
    ``{deals: d}``.  ``k ≥ len(levels)`` means the last level is used up (forced finish)."""
    if (seconds is None) == (deals is None):
        raise ValueError("level_step is {seconds: t} or {deals: d}")
    if seconds is not None:
        return max(0, elapsed_s) // seconds
    assert deals is not None
    return max(0, settled) // deals


def level_base(levels: Sequence[int], k: int) -> int:
    """The base in effect at level ``k``: ``levels[min(k, len(levels) − 1)]``."""
    return levels[min(k, len(levels) - 1)]


def line(out_factor: int, base: int) -> int:
    """The elimination line of a deal: ``out_factor × base``; points strictly below it are below the line."""
    return out_factor * base


def can_form(queue_prev: Sequence[str | None], s: int, table_in_play: bool) -> bool:
    """Whether a table may be formed now (§3.3.3 rule 3): at least ``s`` queued, and not (every queued entrant
    has the same previous table while some table of the stage is in play).  ``None`` (no previous table yet)
    is nobody's table, so it never counts as "the same".

    >>> can_form(["a", "a", "a"], 3, True), can_form(["a", "a", "a"], 3, False), can_form([None] * 3, 3, True)
    (False, True, True)
    """
    if len(queue_prev) < s:
        return False
    first = queue_prev[0]
    same = first is not None and all(p == first for p in queue_prev)
    return not (same and table_in_play)


def take_table(queue: Sequence[H], prev: Sequence[str | None], s: int) -> list[int]:
    """The queue positions of one new table (§3.3.3 rule 4), in seat order: the head; then, scanning in order,
    each entrant whose previous table is shared by nobody already taken; then the earliest remaining."""
    if len(queue) < s:
        raise ValueError("not enough entrants queued")
    taken = [0]
    tables = {prev[0]} if prev[0] is not None else set()
    for i in range(1, len(queue)):
        if len(taken) == s:
            break
        p = prev[i]
        if p is None or p not in tables:
            taken.append(i)
            if p is not None:
                tables.add(p)
    i = 1
    while len(taken) < s:
        if i not in taken:
            taken.append(i)
        i += 1
    return taken


def form_tables(queue: Sequence[H], prev: Sequence[str | None], s: int,
                table_in_play: bool) -> tuple[list[list[H]], list[H]]:
    """Form tables from the queue while :func:`can_form` holds.  Returns the new tables (seat order) and what
    is left of the queue.  ``prev[i]`` is ``queue[i]``'s previous table.

    §9 example 14 (one table in play):

    >>> q = ["A1", "A2", "A3", "B1", "B2", "B3", "C1"]
    >>> form_tables(q, [e[0] for e in q], 3, True)
    ([['A1', 'B1', 'C1'], ['A2', 'B2', 'A3']], ['B3'])
    >>> form_tables(["A1", "A2", "A3"], ["A", "A", "A"], 3, True)
    ([], ['A1', 'A2', 'A3'])
    """
    q = list(queue)
    pv = list(prev)
    if len(q) != len(pv):
        raise ValueError("queue and previous tables differ in length")
    tables: list[list[H]] = []
    in_play = table_in_play
    while can_form(pv, s, in_play):
        pos = take_table(q, pv, s)
        tables.append([q[i] for i in pos])
        drop = set(pos)
        q = [e for i, e in enumerate(q) if i not in drop]
        pv = [p for i, p in enumerate(pv) if i not in drop]
        in_play = True
    return tables, q


def exact_cut(below: Sequence[H], remaining: int, advance: int) -> list[H]:
    """Who of the entrants below the line is eliminated (§3.3.4 rule 1).  ``below`` is in standings order (best
    first), ``remaining`` is ``R`` before the cut and ``advance`` is ``N``: all go if ``R − len(below) ≥ N``,
    otherwise only the ``R − N`` worst.  The result keeps standings order.

    §9 example 13:

    >>> exact_cut(["B", "A"], remaining=10, advance=9)
    ['A']
    >>> exact_cut(["B", "A"], remaining=12, advance=9)
    ['B', 'A']
    """
    k = len(below) if remaining - len(below) >= advance else max(0, remaining - advance)
    return list(below[len(below) - k:]) if k else []
