"""Series: a recurring schedule that creates one match per occurrence (RULES-matches.md §2.2) — pure functions of
the time asked about.  Occurrences never merge or wait for each other.

>>> hourly = {"preset": "hourly"}
>>> occ = next_occurrence(hourly, 1_700_000_000)          # 06:13:20 in Shanghai
>>> describe(occ.start_at), occ.start_at - occ.registration_opens
('2023-11-15 07:00 Asia/Shanghai', 1800)
>>> [describe(o.start_at) for o in open_occurrences(hourly, 1_700_000_000 + 4800, after=1_700_000_000)]
['2023-11-15 07:00 Asia/Shanghai', '2023-11-15 08:00 Asia/Shanghai']
>>> occurrence_definition(hourly, occ.start_at)["entry"]["start_at"] == occ.start_at
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .definition import Definition, definition_data, parse_definition
from .errors import ConfigError
from .schedule import describe, next_start

__all__ = ["Occurrence", "describe", "next_occurrence", "occurrence_definition", "open_occurrences"]


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One match of a series: its start time and when its registration opens (epoch seconds)."""

    start_at: int
    registration_opens: int


def _series(definition: Mapping[str, Any] | Definition) -> Definition:
    d = parse_definition(definition)
    if d.entry.schedule is None:
        raise ConfigError("this definition has no entry.schedule: it is not a series")
    return d


def next_occurrence(definition: Mapping[str, Any] | Definition, after: int) -> Occurrence:
    """The first occurrence starting strictly after ``after``."""
    d = _series(definition)
    assert d.entry.schedule is not None
    t = next_start(d.entry.schedule, after, d.entry.timezone)
    return Occurrence(t, t - d.entry.reg_opens_s)


def open_occurrences(definition: Mapping[str, Any] | Definition, now: int, *, after: int) -> list[Occurrence]:
    """Every occurrence starting after ``after`` whose registration has opened by ``now``, in start order: the
    matches the host must create now (``after``: the start time of the last occurrence it created).  An
    occurrence whose start time has passed is still listed (the host creates it and its first :func:`tick`
    starts or cancels it)."""
    out: list[Occurrence] = []
    t = after
    while True:
        occ = next_occurrence(definition, t)
        if occ.registration_opens > now:
            return out
        out.append(occ)
        t = occ.start_at


def occurrence_definition(definition: Mapping[str, Any] | Definition, start_at: int) -> dict[str, Any]:
    """The definition of the occurrence starting at ``start_at`` (``entry.start_at`` set), for
    :func:`~qipai.tournaments.machine.new_match`."""
    d = _series(definition)
    data = definition_data(d)
    data["entry"]["start_at"] = start_at
    return data
