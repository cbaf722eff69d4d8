"""What a transition tells the host (RULES-matches.md §6.3, §7): table assignments, deals to start, fees,
refunds, prizes, eliminations and notices.  Every event is a frozen dataclass; :func:`event_data` gives its JSON
with a ``type`` field, :func:`event_from_data` reads it back.

Money events carry an idempotency ``key``: the host writes each at most once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..core.rng import Rng
from .serial import from_data, to_data


def derive(seed: int, label: str) -> int:
    """A 64-bit number derived from ``seed`` and ``label`` (FNV-1a of the label, then SplitMix64): the seeds of
    tables, deals and random seatings.

    >>> derive(1, "deal:1.1.1:1") == derive(1, "deal:1.1.1:1") != derive(1, "deal:1.1.1:2")
    True
    """
    h = 0xCBF29CE484222325
    for b in label.encode():
        h = ((h ^ b) * 0x100000001B3) & ((1 << 64) - 1)
    return Rng(seed ^ h).next64()


@dataclass(frozen=True, slots=True)
class TableAssignment:
    """A table to open: its entrants in table order, the player and entrant at each game seat, how many deals
    it plays at most, the stake, and (打立) the elimination line.  ``points``: each entrant's match points at
    the formation (the table points of the 积分最小化原则 for the first deal; later deals get theirs in
    :class:`DealStart`).  ``round`` is ``None`` at a 打立 table."""

    key: str
    stage: int
    round: int | None
    number: int
    entrants: tuple[str, ...]
    seats: tuple[str, ...]
    seat_entrants: tuple[str, ...]
    deals: int
    base: int
    line: int | None
    points: tuple[int, ...]
    seed: int

    def deal_seed(self, deal: int) -> int:
        """The random seed of deal ``deal`` (1-based) at this table (same as :attr:`DealStart.seed`)."""
        return derive(self.seed, f"deal:{deal}")


class Event:
    """Base of all events."""

    TYPE: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class Registered(Event):
    TYPE: ClassVar[str] = "registered"
    entrant: str
    reg: int
    players: tuple[str, ...]
    bot: bool


@dataclass(frozen=True, slots=True)
class FeeCharged(Event):
    """Take ``amount`` platform points from ``player`` (held by the match)."""

    TYPE: ClassVar[str] = "fee_charged"
    entrant: str
    player: str
    amount: int
    key: str


@dataclass(frozen=True, slots=True)
class Refund(Event):
    """Give ``amount`` platform points back to ``player``."""

    TYPE: ClassVar[str] = "refund"
    entrant: str
    player: str
    amount: int
    key: str
    reason: str


@dataclass(frozen=True, slots=True)
class Removed(Event):
    """An entrant left before the start (withdrawal, field fitting ``cut``, active in another match): not
    ranked; its fees are refunded by the :class:`Refund` events next to this one."""

    TYPE: ClassVar[str] = "removed"
    entrant: str
    reason: str


@dataclass(frozen=True, slots=True)
class QuitRequested(Event):
    """An entrant pressed 退赛: it plays on in auto-play until ``effective`` (``now``, ``after_deal``,
    ``round_end``), then a ``withdrawal`` :class:`Eliminated` event follows."""

    TYPE: ClassVar[str] = "quit_requested"
    entrant: str
    effective: str


@dataclass(frozen=True, slots=True)
class RegistrationClosed(Event):
    TYPE: ClassVar[str] = "registration_closed"
    at: int
    entrants: int


@dataclass(frozen=True, slots=True)
class PrizesFixed(Event):
    """The prize places' amounts, fixed once the field is (``paying`` players, ``humans`` human entrants)."""

    TYPE: ClassVar[str] = "prizes_fixed"
    paying: int
    humans: int
    amounts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchStarted(Event):
    TYPE: ClassVar[str] = "match_started"
    at: int
    entrants: int


@dataclass(frozen=True, slots=True)
class BotsAdded(Event):
    TYPE: ClassVar[str] = "bots_added"
    entrants: tuple[str, ...]
    points: int


@dataclass(frozen=True, slots=True)
class StageStarted(Event):
    """Stage ``stage`` (0-based) starts with ``field`` (standings order) entering with ``points``."""

    TYPE: ClassVar[str] = "stage_started"
    stage: int
    format: str
    field: tuple[str, ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    TYPE: ClassVar[str] = "round_started"
    stage: int
    round: int
    tables: tuple[str, ...]
    byes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TableFormed(Event):
    """Open this table (create it in the table runtime, seat its players).  A :class:`DealStart` follows."""

    TYPE: ClassVar[str] = "table_formed"
    table: TableAssignment


@dataclass(frozen=True, slots=True)
class DealStart(Event):
    """Start deal ``deal`` (1-based) at ``table`` with ``seed``, stake ``base`` and each seat's match points
    (``points``, by game seat).  The host starts a deal only when told to."""

    TYPE: ClassVar[str] = "deal_start"
    table: str
    deal: int
    seed: int
    base: int
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealCounted(Event):
    """A reported deal was counted: settlement sequence number ``seq``, each entrant's change."""

    TYPE: ClassVar[str] = "deal_counted"
    table: str
    deal: int
    seq: int
    entrants: tuple[str, ...]
    changes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TableDone(Event):
    """The table plays no more deals: release it (its players go to the queue or wait for the next round)."""

    TYPE: ClassVar[str] = "table_done"
    table: str
    played: int


@dataclass(frozen=True, slots=True)
class LevelChanged(Event):
    TYPE: ClassVar[str] = "level_changed"
    stage: int
    level: int
    base: int
    line: int


@dataclass(frozen=True, slots=True)
class ForcedFinish(Event):
    """强制排名: the last 打立 level is used up; tables finish their deal, then the top ``advance`` go on."""

    TYPE: ClassVar[str] = "forced_finish"
    stage: int


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    """One elimination event (§5.4), entrants in standings order; ``rescued``: below the line but kept by the
    exact cut."""

    TYPE: ClassVar[str] = "eliminated"
    stage: int
    kind: str
    entrants: tuple[str, ...]
    seq: int
    rescued: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RoundOver(Event):
    TYPE: ClassVar[str] = "round_over"
    stage: int
    round: int
    next_round_at: int | None


@dataclass(frozen=True, slots=True)
class StageOver(Event):
    TYPE: ClassVar[str] = "stage_over"
    stage: int
    standings: tuple[str, ...]
    advancing: tuple[str, ...]
    next_stage_at: int | None


@dataclass(frozen=True, slots=True)
class PrizePaid(Event):
    """Pay ``amount`` platform points to ``player`` for final ``place``."""

    TYPE: ClassVar[str] = "prize_paid"
    entrant: str
    player: str
    place: int
    amount: int
    key: str


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    """The final ranking, best first (places 1, 2, …)."""

    TYPE: ClassVar[str] = "match_over"
    ranking: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MatchCancelled(Event):
    """The match is cancelled; close ``tables`` (still in play) without counting them.  Refunds precede."""

    TYPE: ClassVar[str] = "match_cancelled"
    reason: str
    tables: tuple[str, ...]


EVENT_TYPES: dict[str, type[Event]] = {c.TYPE: c for c in (
    Registered, FeeCharged, Refund, Removed, QuitRequested, RegistrationClosed, PrizesFixed, MatchStarted,
    BotsAdded, StageStarted, RoundStarted, TableFormed, DealStart, DealCounted, TableDone, LevelChanged,
    ForcedFinish, Eliminated, RoundOver, StageOver, PrizePaid, MatchOver, MatchCancelled)}


def event_data(ev: Event) -> dict[str, Any]:
    """An event as JSON with its ``type``.

    >>> event_data(TableDone("1.1.1", 3))
    {'type': 'table_done', 'table': '1.1.1', 'played': 3}
    >>> event_from_data(event_data(TableDone("1.1.1", 3)))
    TableDone(table='1.1.1', played=3)
    """
    return {"type": ev.TYPE, **to_data(ev)}


def event_from_data(data: dict[str, Any]) -> Event:
    """Read an event back from :func:`event_data` output."""
    cls = EVENT_TYPES.get(str(data.get("type")))
    if cls is None:
        raise ValueError(f"unknown event type {data.get('type')!r}")
    ev: Event = from_data(cls, {k: v for k, v in data.items() if k != "type"})
    return ev
