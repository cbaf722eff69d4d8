"""Prize tables (RULES-matches.md §2.6): fixed lists and pools split by brackets — pure functions.

§9 example 16:

>>> table = PrizeTable(kind="pool", rake_pct=10)
>>> prize_amounts(table, fee=100, paying=9, humans=9)
[405, 243, 162]
>>> prize_amounts(table, fee=50, paying=23, humans=23)
[416, 258, 155, 103, 103]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..core.options import short_repr
from .errors import ConfigError


@dataclass(frozen=True, slots=True)
class Bracket:
    """One bracket of a pool: used when at least ``min_entrants`` human entrants are in at the close."""

    min_entrants: int
    percents: tuple[int, ...]


STANDARD_BRACKETS: tuple[Bracket, ...] = (
    Bracket(3, (100,)),
    Bracket(6, (60, 40)),
    Bracket(9, (50, 30, 20)),
    Bracket(18, (40, 25, 15, 10, 10)),
    Bracket(27, (30, 20, 13, 10, 8, 7, 6, 6)),
    Bracket(54, (25, 15, 10, 8, 7, 6, 5, 4, 4, 4, 3, 3, 3, 3)),
)
"""The ``standard`` brackets of §2.6."""


@dataclass(frozen=True, slots=True)
class PrizeTable:
    """``kind`` is ``none``, ``fixed`` (``amounts`` per place) or ``pool`` (``rake_pct``, ``guarantee``,
    ``brackets``)."""

    kind: str = "none"
    amounts: tuple[int, ...] = ()
    rake_pct: int = 10
    guarantee: int = 0
    brackets: tuple[Bracket, ...] = field(default=STANDARD_BRACKETS)

    def __post_init__(self) -> None:
        if self.kind not in ("none", "fixed", "pool"):
            raise ConfigError(f"prize table kind must be none, fixed or pool, got {self.kind!r}")
        if any(a < 0 for a in self.amounts):
            raise ConfigError("prize amounts must not be negative")
        if self.kind == "fixed" and not self.amounts:
            raise ConfigError("a fixed prize table needs its amounts")
        if not 0 <= self.rake_pct <= 100:
            raise ConfigError(f"rake_pct must be 0..100, got {self.rake_pct}")
        if self.guarantee < 0:
            raise ConfigError("guarantee must not be negative")
        if self.kind == "pool":
            if not self.brackets:
                raise ConfigError("a pool needs at least one bracket")
            last = 0
            for b in self.brackets:
                if b.min_entrants <= last:
                    raise ConfigError("bracket min_entrants must be positive and strictly increasing")
                last = b.min_entrants
                if not b.percents or sum(b.percents) != 100 or any(p < 0 for p in b.percents):
                    raise ConfigError(f"bracket {b.min_entrants}: percents must be whole numbers summing to 100")


def parse_prizes(data: object) -> PrizeTable:
    """A :class:`PrizeTable` from definition data: ``None``/``"none"``, a list (``fixed``),
    ``{"kind": "fixed", "amounts": [...]}`` or ``{"kind": "pool", "brackets": "standard" | [...],
    "rake_pct": 10, "guarantee": 0}``.

    >>> parse_prizes([300, 200, 100]).amounts
    (300, 200, 100)
    >>> parse_prizes({"kind": "pool", "brackets": [{"min_entrants": 2, "percents": [70, 30]}]}).brackets
    (Bracket(min_entrants=2, percents=(70, 30)),)
    """
    if data is None or data == "none":
        return PrizeTable()
    if isinstance(data, PrizeTable):
        return data
    if isinstance(data, list):
        return PrizeTable("fixed", tuple(_int(a, "prize amount") for a in data))
    if not isinstance(data, dict):
        raise ConfigError(f"prizes must be none, a list or an object, got {data!r}")
    known = {"kind", "amounts", "rake_pct", "guarantee", "brackets"}
    extra = set(data) - known
    if extra:
        raise ConfigError(f"unknown prize option(s): {', '.join(sorted(extra))}")
    kind = data.get("kind", "pool" if "brackets" in data else "fixed")
    if kind == "fixed":
        for k in ("rake_pct", "guarantee", "brackets"):
            if k in data:
                raise ConfigError(f"a fixed prize table has no {k}")
        return PrizeTable("fixed", tuple(_int(a, "prize amount") for a in _list(data.get("amounts"), "amounts")))
    if kind == "pool":
        if "amounts" in data:
            raise ConfigError("a pool has no amounts (its split comes from brackets)")
        raw = data.get("brackets", "standard")
        brackets = STANDARD_BRACKETS if raw == "standard" else tuple(_bracket(b) for b in _list(raw, "brackets"))
        return PrizeTable("pool", (), _int(data.get("rake_pct", 10), "rake_pct"),
                          _int(data.get("guarantee", 0), "guarantee"), brackets)
    if kind == "none":
        return PrizeTable()
    raise ConfigError(f"prize table kind must be none, fixed or pool, got {kind!r}")


def _int(v: object, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ConfigError(f"{what} must be a whole number, got {short_repr(v)}")
    if abs(v) > 10**12:  # the store keeps points in 64-bit integers
        raise ConfigError(f"{what} must be at most 10**12 in size, got {short_repr(v)}")
    return v


def _list(v: object, what: str) -> list[object]:
    if not isinstance(v, (list, tuple)):
        raise ConfigError(f"{what} must be a list, got {v!r}")
    return list(v)


def _bracket(b: object) -> Bracket:
    if not isinstance(b, dict) or set(b) != {"min_entrants", "percents"}:
        raise ConfigError(f"a bracket is {{min_entrants, percents}}, got {b!r}")
    return Bracket(_int(b["min_entrants"], "min_entrants"),
                   tuple(_int(p, "percent") for p in _list(b["percents"], "percents")))


def pool_size(fee: int, paying: int, rake_pct: int = 10, guarantee: int = 0) -> int:
    """``max(guarantee, ⌊fee × paying × (100 − rake_pct) / 100⌋)``.

    >>> pool_size(100, 9, 10), pool_size(0, 9, 10, guarantee=500)
    (810, 500)
    """
    return max(guarantee, fee * paying * (100 - rake_pct) // 100)


def bracket_for(brackets: Sequence[Bracket], humans: int) -> Bracket:
    """The bracket with the largest ``min_entrants`` not above ``humans``.  **(decision, spec silent)** A field
    smaller than every bracket uses the first (smallest) bracket, so a pool is always paid out.

    >>> bracket_for(STANDARD_BRACKETS, 23).percents
    (40, 25, 15, 10, 10)
    >>> bracket_for(STANDARD_BRACKETS, 2).percents
    (100,)
    """
    chosen = brackets[0]
    for b in brackets:
        if b.min_entrants <= humans:
            chosen = b
    return chosen


def split_pool(pool: int, percents: Sequence[int]) -> list[int]:
    """Place ``i`` gets ``⌊pool × percents[i] / 100⌋``; the flooring remainder goes to place 1.

    >>> split_pool(1035, [40, 25, 15, 10, 10])
    [416, 258, 155, 103, 103]
    """
    out = [pool * p // 100 for p in percents]
    if out:
        out[0] += pool - sum(out)
    return out


def prize_amounts(table: PrizeTable, fee: int, paying: int, humans: int) -> list[int]:
    """The amount of each prize place, fixed at the close of registration.  ``paying`` counts paying players
    (a team counts 2), ``humans`` counts human entrants (a team counts 1).

    >>> prize_amounts(PrizeTable("fixed", (300, 200, 100)), fee=0, paying=0, humans=40)
    [300, 200, 100]
    >>> prize_amounts(PrizeTable(), fee=100, paying=9, humans=9)
    []
    """
    if table.kind == "none":
        return []
    if table.kind == "fixed":
        return list(table.amounts)
    pool = pool_size(fee, paying, table.rake_pct, table.guarantee)
    return split_pool(pool, bracket_for(table.brackets, humans).percents)


def award(ranking: Sequence[tuple[str, bool]], amounts: Sequence[int]) -> list[tuple[str, int, int]]:
    """Give the prize places to the humans in final order, skipping bots (§2.6).  ``ranking`` is
    ``(entrant, is_bot)`` best first; the result is ``(entrant, final place, amount)`` for each paid place
    (places are 1-based final ranks; zero amounts are left out).

    §9 example 17: H3, Bot1, H1, … with amounts 378, 252:

    >>> award([("H3", False), ("Bot1", True), ("H1", False), ("H2", False)], [378, 252])
    [('H3', 1, 378), ('H1', 3, 252)]
    """
    out: list[tuple[str, int, int]] = []
    prize = 0
    for place, (entrant, bot) in enumerate(ranking, start=1):
        if prize >= len(amounts):
            break
        if bot:
            continue
        if amounts[prize] > 0:
            out.append((entrant, place, amounts[prize]))
        prize += 1
    return out


def split_team(amount: int) -> tuple[int, int]:
    """A team's prize: the captain gets ``⌈a/2⌉``, the partner ``⌊a/2⌋``.

    >>> split_team(405)
    (203, 202)
    """
    return (amount + 1) // 2, amount // 2
