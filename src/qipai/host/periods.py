"""The periods of the leaderboards (周榜 / 月榜): where the current ISO week (from Monday 00:00) or calendar month
(from the 1st, 00:00) begins and ends in the operator's time zone (``--leaderboard-tz``), as UTC instants."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

PERIODS = ("all", "week", "month")
"""``all``: the all-time board (points now); ``week``, ``month``: the points won in the current period."""


def zone(name: str) -> ZoneInfo:
    """The IANA time zone ``name`` (``UTC``, ``Asia/Shanghai``); :class:`ValueError` for one not known here."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"no time zone {name!r} (an IANA name such as UTC or Asia/Shanghai)") from None


def period_bounds(period: str, tz: ZoneInfo, now: datetime) -> tuple[datetime, datetime]:
    """``[since, until)`` of the ``week`` or ``month`` holding ``now``, midnights in ``tz``, given in UTC.

    >>> sh = zone("Asia/Shanghai")
    >>> [t.isoformat() for t in period_bounds("week", sh, datetime(2026, 12, 6, 16, 30, tzinfo=UTC))]
    ['2026-12-06T16:00:00+00:00', '2026-12-13T16:00:00+00:00']
    >>> [t.isoformat() for t in period_bounds("week", zone("UTC"), datetime(2026, 12, 6, 16, 30, tzinfo=UTC))]
    ['2026-11-30T00:00:00+00:00', '2026-12-07T00:00:00+00:00']
    >>> [t.isoformat() for t in period_bounds("month", sh, datetime(2026, 12, 31, 16, 0, tzinfo=UTC))]
    ['2026-12-31T16:00:00+00:00', '2027-01-31T16:00:00+00:00']
    """
    local = now.astimezone(tz)
    day = local.date()
    if period == "week":
        start = day - timedelta(days=day.weekday())
        end = start + timedelta(days=7)
    elif period == "month":
        start = day.replace(day=1)
        end = (start + timedelta(days=32)).replace(day=1)
    else:
        raise ValueError(f"no period {period!r}")

    def midnight(d: date) -> datetime:
        return datetime(d.year, d.month, d.day, tzinfo=tz).astimezone(UTC)

    return midnight(start), midnight(end)
