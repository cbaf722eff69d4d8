"""Standings, tie-breaks, carry-over and the final ranking (RULES-matches.md §3.7, §5): pure functions.

Standings order entrants by points (higher first), then by the stage's tie-break keys, then by registration;
registration is always the last key, so two entrants never tie.

The seed's 判定一 (``last_deal``) before 判定二 (``registration``), §9 example 1:

>>> a = RankRow("A", points=1180, reg=3, last_deal=40)
>>> b = RankRow("B", points=1180, reg=1, last_deal=-20)
>>> c = RankRow("C", points=640, reg=2)
>>> [r.id for r in rank([c, b, a], ["last_deal", "registration"])]
['A', 'B', 'C']
>>> [r.id for r in rank([c, b, a], ["registration"])]
['B', 'A', 'C']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import isqrt

from .errors import ConfigError

TIEBREAK_KEYS = ("last_deal", "deals_won", "buchholz", "prev_stage_rank", "registration")
"""The tie-break keys of §5.2 (``last_deal`` is 判定一, ``registration`` is 判定二)."""

CARRY_KINDS = ("keep", "reset", "sqrt", "scale")
_NO_RANK = 1 << 62


@dataclass(frozen=True, slots=True)
class RankRow:
    """What the standings of one entrant depend on (§5.2).  ``prev_stage_rank`` is ``None`` when the entrant
    has no place in a previous stage (it then counts after everyone)."""

    id: str
    points: int
    reg: int
    last_deal: int = 0
    deals_won: int = 0
    buchholz: int = 0
    prev_stage_rank: int | None = None


def normalize_tiebreaks(keys: Iterable[str]) -> tuple[str, ...]:
    """The effective key list: unknown keys are a :class:`ConfigError`; ``registration`` is appended if missing
    and keys after it are dropped (they could never decide anything).

    >>> normalize_tiebreaks(["deals_won", "buchholz"])
    ('deals_won', 'buchholz', 'registration')
    >>> normalize_tiebreaks(["registration", "last_deal"])
    ('registration',)
    >>> normalize_tiebreaks(["luck"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    qipai.tournaments.errors.ConfigError: unknown tie-break 'luck' (known: last_deal, deals_won, ...)
    """
    out: list[str] = []
    for k in keys:
        if k not in TIEBREAK_KEYS:
            raise ConfigError(f"unknown tie-break {k!r} (known: {', '.join(TIEBREAK_KEYS)})")
        if k in out:
            raise ConfigError(f"tie-break {k!r} is listed twice")
        out.append(k)
        if k == "registration":
            break
    else:
        out.append("registration")
    return tuple(out)


def sort_key(row: RankRow, keys: Sequence[str]) -> tuple[int, ...]:
    """The ascending sort key of ``row`` under ``keys`` (already normalised): best entrant first."""
    out = [-row.points]
    for k in keys:
        if k == "last_deal":
            out.append(-row.last_deal)
        elif k == "deals_won":
            out.append(-row.deals_won)
        elif k == "buchholz":
            out.append(-row.buchholz)
        elif k == "prev_stage_rank":
            out.append(_NO_RANK if row.prev_stage_rank is None else row.prev_stage_rank)
        else:  # registration, always last
            out.append(row.reg)
    return tuple(out)


def rank(rows: Iterable[RankRow], tiebreaks: Iterable[str]) -> list[RankRow]:
    """``rows`` in standings order (§5.1), best first.  ``tiebreaks`` is normalised first.

    §9 example 3 (equal last deal: registration decides between the two winning farmers):

    >>> rows = [RankRow("P", 900, 7, 30), RankRow("Q", 900, 4, 30), RankRow("R", 900, 2, -60)]
    >>> [r.id for r in rank(rows, ["last_deal"])]
    ['Q', 'P', 'R']
    """
    keys = normalize_tiebreaks(tiebreaks)
    return sorted(rows, key=lambda r: sort_key(r, keys))


def buchholz(mates: dict[str, int], points: dict[str, int]) -> int:
    """Sum of the tablemates' points, one term per tablemate per sitting (``mates``: id → times sat together).

    >>> buchholz({"X": 1, "Y": 2}, {"X": 50, "Y": -40})
    -30
    """
    return sum(points[m] * n for m, n in mates.items())


@dataclass(frozen=True, slots=True)
class Carry:
    """A carry-over rule (§3.7): ``keep``, ``reset``, ``sqrt p/q`` or ``scale p/q``."""

    kind: str = "keep"
    p: int = 1
    q: int = 1

    def __str__(self) -> str:
        return self.kind if self.kind in ("keep", "reset") else f"{self.kind} {self.p}/{self.q}"


def parse_carry(text: str | dict[str, object] | Carry) -> Carry:
    """A :class:`Carry` from ``"keep"``, ``"reset"``, ``"sqrt"``, ``"sqrt 10/1"``, ``"scale 1/10"`` or
    ``{"kind": "sqrt", "p": 10, "q": 1}``.  Defaults: ``sqrt`` 10/1, ``scale`` 1/10.

    >>> parse_carry("sqrt"), parse_carry("scale 3/4")
    (Carry(kind='sqrt', p=10, q=1), Carry(kind='scale', p=3, q=4))
    >>> parse_carry("sqrt 0/1")
    Traceback (most recent call last):
    ...
    qipai.tournaments.errors.ConfigError: carry 'sqrt 0/1': p and q must be positive whole numbers
    """
    if isinstance(text, Carry):
        return text
    if isinstance(text, dict):
        kind = text.get("kind")
        p, q = text.get("p"), text.get("q")
        label = repr(text)
    else:
        if not isinstance(text, str):
            raise ConfigError(f"carry must be a string like 'sqrt 10/1', got {text!r}")
        label = repr(text)
        parts = text.split()
        kind = parts[0] if parts else ""
        p = q = None
        if len(parts) == 2:
            num, sep, den = parts[1].partition("/")
            if not sep or not all(x.isascii() and x.isdigit() and len(x) <= 12 for x in (num, den)):
                raise ConfigError(f"carry {label}: the ratio must be written p/q, e.g. 'sqrt 10/1'")
            p, q = int(num), int(den)
        elif len(parts) > 2:
            raise ConfigError(f"carry {label}: expected '<kind>' or '<kind> p/q'")
    if kind not in CARRY_KINDS:
        raise ConfigError(f"carry {label}: kind must be one of {', '.join(CARRY_KINDS)}")
    if kind in ("keep", "reset"):
        if p is not None or q is not None:
            raise ConfigError(f"carry {label}: {kind} takes no ratio")
        return Carry(str(kind))
    if p is None and q is None:
        p, q = (10, 1) if kind == "sqrt" else (1, 10)
    if not isinstance(p, int) or not isinstance(q, int) or isinstance(p, bool) or isinstance(q, bool) \
            or p <= 0 or q <= 0:
        raise ConfigError(f"carry {label}: p and q must be positive whole numbers")
    return Carry(str(kind), p, q)


def carry_value(x: int, rule: Carry, start_stack: int) -> int:
    """The points an entrant with ``x`` points enters the next stage with (§3.7, exact integer formulas;
    rounding half up on the absolute value, so ``carry(−x) = −carry(x)``).

    §9 example 8:

    >>> sq = parse_carry("sqrt 10/1")
    >>> [carry_value(x, sq, 0) for x in (1000, 2500, 1234, 99, 1, 0)]
    [316, 500, 351, 99, 10, 0]
    >>> [carry_value(x, parse_carry("sqrt 1/2"), 0) for x in (9, 25, 1000, -1000)]
    [2, 3, 16, -16]
    >>> [carry_value(x, parse_carry("scale 1/10"), 0) for x in (1234, 1235, 1245, -1235, 5)]
    [123, 124, 125, -124, 1]
    >>> carry_value(777, parse_carry("reset"), 1000), carry_value(777, parse_carry("keep"), 1000)
    (1000, 777)
    """
    if rule.kind == "keep":
        return x
    if rule.kind == "reset":
        return start_stack
    a = abs(x)
    p, q = rule.p, rule.q
    v = (isqrt(4 * p * p * a) + q) // (2 * q) if rule.kind == "sqrt" else (2 * p * a + q) // (2 * q)
    return -v if x < 0 else v


def final_places(final_standings: Sequence[str], events: Sequence[Sequence[str]]) -> list[str]:
    """The final ranking (§5.4): the last stage's final standings, then the elimination events latest first,
    each in its recorded order.  ``events`` is in chronological order.  Every entrant must appear once.

    §9 example 19 (shortened): the 打立 events {E1}, {E2, E3}, then {E31}; the cut {F4 … F9}; the final table.

    >>> places = final_places(["W1", "W2", "W3"], [["E1"], ["E2", "E3"], ["E31"], ["F4", "F5"]])
    >>> places
    ['W1', 'W2', 'W3', 'F4', 'F5', 'E31', 'E2', 'E3', 'E1']
    """
    out = list(final_standings)
    for ev in reversed(events):
        out.extend(ev)
    if len(set(out)) != len(out):
        raise ValueError("an entrant appears twice in the final ranking")
    return out
