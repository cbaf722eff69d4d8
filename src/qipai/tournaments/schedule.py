"""Recurring schedules (RULES-matches.md §2.2): five-field cron ``minute hour day-of-month month day-of-week``
evaluated in the platform's time zone (default ``Asia/Shanghai``), as pure functions of the time asked about.

Times are whole seconds since the Unix epoch (UTC).  1700000000 is 2023-11-15 06:13:20 in Shanghai:

>>> t = 1700000000
>>> nxt = next_start("0 * * * *", t)          # every hour at :00
>>> nxt - t, describe(nxt)
(2800, '2023-11-15 07:00 Asia/Shanghai')
>>> describe(next_start("30 20 * * *", t))     # every day at 20:30
'2023-11-15 20:30 Asia/Shanghai'
>>> describe(next_start("0 9 * * mon", t))
'2023-11-20 09:00 Asia/Shanghai'
>>> registration_opens(nxt, 1800) == nxt - 1800
True
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .errors import ConfigError

DEFAULT_TZ = "Asia/Shanghai"
_MONTHS = {m: i for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], start=1)}
_DAYS = {d: i for i, d in enumerate(["sun", "mon", "tue", "wed", "thu", "fri", "sat"])}
_MONTH_DAYS = {1: 31, 2: 29, 3: 31, 4: 30, 5: 31, 6: 30, 7: 31, 8: 31, 9: 30, 10: 31, 11: 30, 12: 31}
_SEARCH_DAYS = 366 * 9  # long enough for "29 February on a Monday"


@dataclass(frozen=True, slots=True)
class Cron:
    """A parsed schedule: the allowed values of each field; ``dom_any``/``dow_any`` say the field was ``*``
    (cron's rule: if both day fields are restricted, a day matches if either does)."""

    minutes: frozenset[int]
    hours: frozenset[int]
    doms: frozenset[int]
    months: frozenset[int]
    dows: frozenset[int]
    dom_any: bool
    dow_any: bool

    def day_matches(self, d: date) -> bool:
        """Whether the local date ``d`` is a day of the schedule."""
        if d.month not in self.months:
            return False
        dom_ok = d.day in self.doms
        dow_ok = (d.isoweekday() % 7) in self.dows
        if self.dom_any and self.dow_any:
            return True
        if self.dom_any:
            return dow_ok
        if self.dow_any:
            return dom_ok
        return dom_ok or dow_ok


def _field(text: str, lo: int, hi: int, names: dict[str, int] | None, what: str) -> frozenset[int]:
    out: set[int] = set()

    def value(v: str) -> int:
        v = v.lower()
        if names and v in names:
            return names[v]
        if not (v.isascii() and v.isdigit()) or len(v) > 4:
            raise ConfigError(f"schedule {what}: {v!r} is not a number")
        return int(v)

    for part in text.split(","):
        rng, _, step_s = part.partition("/")
        step = 1
        if step_s:
            if not (step_s.isascii() and step_s.isdigit()) or len(step_s) > 4 or int(step_s) == 0:
                raise ConfigError(f"schedule {what}: bad step {step_s!r}")
            step = int(step_s)
        if rng == "*":
            a, b = lo, hi
        elif "-" in rng:
            x, _, y = rng.partition("-")
            a, b = value(x), value(y)
        else:
            a = value(rng)
            b = hi if step_s else a
        if not (lo <= a <= hi and lo <= b <= hi and a <= b):
            raise ConfigError(f"schedule {what}: {part!r} is outside {lo}..{hi}")
        out.update(range(a, b + 1, step))
    return frozenset(out)


def parse_cron(text: str) -> Cron:
    """Parse five-field cron (``*``, ``a``, ``a-b``, ``*/n``, ``a-b/n``, lists; month and weekday names;
    weekday 0 and 7 are Sunday).

    >>> sorted(parse_cron("*/15 * * * *").minutes)
    [0, 15, 30, 45]
    >>> parse_cron("0 25 * * *")
    Traceback (most recent call last):
    ...
    qipai.tournaments.errors.ConfigError: schedule hour: '25' is outside 0..23
    """
    parts = text.split()
    if len(parts) != 5:
        raise ConfigError(f"a schedule has five fields (minute hour day-of-month month day-of-week), got {text!r}")
    m, h, dom, mon, dow = parts
    dows = _field(dow, 0, 7, _DAYS, "day-of-week")
    dows = frozenset(d % 7 for d in dows)
    cron = Cron(_field(m, 0, 59, None, "minute"), _field(h, 0, 23, None, "hour"),
                _field(dom, 1, 31, None, "day-of-month"), _field(mon, 1, 12, _MONTHS, "month"), dows,
                dom == "*", dow == "*")
    if not cron.dom_any and cron.dow_any and not any(d <= _MONTH_DAYS[mo] for mo in cron.months for d in cron.doms):
        raise ConfigError(f"schedule {text!r} has no occurrence (no such day in its months)")
    return cron


def _zone(tz: str) -> ZoneInfo:
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError) as e:
        raise ConfigError(f"unknown time zone {tz!r}") from e


def check_timezone(tz: str) -> None:
    """A :class:`ConfigError` unless ``tz`` names a known time zone."""
    _zone(tz)


def next_start(schedule: str | Cron, after: int, tz: str = DEFAULT_TZ) -> int:
    """The first occurrence strictly after ``after`` (epoch seconds).  **(decision)** A local time that does not
    exist (a daylight-saving gap) is skipped; an ambiguous one is taken at its first occurrence."""
    cron = parse_cron(schedule) if isinstance(schedule, str) else schedule
    zone = _zone(tz)
    local = datetime.fromtimestamp(after, zone)
    day = local.date()
    hours = sorted(cron.hours)
    minutes = sorted(cron.minutes)
    for _ in range(_SEARCH_DAYS):
        if cron.day_matches(day):
            for h in hours:
                for mi in minutes:
                    cand = datetime(day.year, day.month, day.day, h, mi, tzinfo=zone)
                    ts = int(cand.timestamp())
                    back = datetime.fromtimestamp(ts, zone)
                    if (back.hour, back.minute, back.date()) != (h, mi, day):
                        continue
                    if ts > after:
                        return ts
        day += timedelta(days=1)
    raise ConfigError(f"schedule {schedule!r} has no occurrence")


def occurrences(schedule: str | Cron, start: int, end: int, tz: str = DEFAULT_TZ) -> list[int]:
    """Every occurrence ``t`` with ``start < t ≤ end``.

    >>> [describe(t) for t in occurrences("0 */8 * * *", 1700000000, 1700000000 + 86400)]
    ['2023-11-15 08:00 Asia/Shanghai', '2023-11-15 16:00 Asia/Shanghai', '2023-11-16 00:00 Asia/Shanghai']
    """
    cron = parse_cron(schedule) if isinstance(schedule, str) else schedule
    out: list[int] = []
    t = start
    while True:
        t = next_start(cron, t, tz)
        if t > end:
            return out
        out.append(t)


def registration_opens(start_at: int, reg_opens_s: int) -> int:
    """When registration opens for a match starting at ``start_at`` (``reg_opens_s`` before it)."""
    return start_at - reg_opens_s


def describe(ts: int, tz: str = DEFAULT_TZ) -> str:
    """``ts`` as local ``YYYY-MM-DD HH:MM zone`` (for display and tests)."""
    return datetime.fromtimestamp(ts, _zone(tz)).strftime("%Y-%m-%d %H:%M ") + tz


def utc(ts: int) -> str:
    """``ts`` as UTC ``YYYY-MM-DD HH:MM:SS``."""
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M:%S")
