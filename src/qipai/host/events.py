"""Events the host publishes, and the publish/subscribe bus they travel on.

Tables publish :class:`DealStarted`, :class:`DealSettled`, :class:`MatchOver` and :class:`TableClosed`; the
store's statistics, the lobby and tournaments' match directors subscribe.  :class:`MemoryBus` runs in one
process; a networked bus (Redis, NATS) implements the same :class:`Bus` protocol for several nodes.

>>> import asyncio
>>> async def demo() -> list[str]:
...     bus, seen = MemoryBus(), []
...     bus.subscribe(DEAL_SETTLED, lambda e: seen.append(e.table_id))
...     bus.publish(DEAL_SETTLED, DealSettled("t1", 7, "doudizhu", None, [], {}, {}, False, {}))
...     await bus.drain()
...     return seen
>>> asyncio.run(demo())
['t1']
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

log = logging.getLogger("qipai.host.events")

DEAL_STARTED = "deal_started"
DEAL_SETTLED = "deal_settled"
MATCH_OVER = "match_over"
TABLE_CLOSED = "table_closed"
SEAT_LEFT = "seat_left"


@dataclass(frozen=True)
class SeatRef:
    """Who sat in a seat: a user (``user_id``), or a bot (``bot`` name, ``user_id`` its account)."""

    seat: int
    user_id: int | None
    bot: str | None
    name: str


@dataclass(frozen=True)
class DealStarted:
    table_id: str
    deal_id: int
    game: str
    seats: list[SeatRef]
    tags: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DealSettled:
    """A deal was settled and written: its outcome, each seat's points change, the table's new match state."""

    table_id: str
    deal_id: int
    game: str
    room: str | None
    seats: list[SeatRef]
    outcome: dict[str, Any]
    match: dict[str, Any]
    match_over: bool
    tags: dict[str, Any]
    """What the table belongs to (a tournament's ``match_id`` and table key), as its creator tagged it."""


@dataclass(frozen=True)
class MatchOver:
    table_id: str
    game: str
    match: dict[str, Any]
    tags: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SeatLeft:
    """A player left a match table (its seat plays on in auto-play)."""

    table_id: str
    seat: int
    user_id: int
    tags: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TableClosed:
    table_id: str
    reason: str
    tags: dict[str, Any] = field(default_factory=dict)


Handler = Callable[[Any], Awaitable[None] | None]


class Bus(Protocol):
    """Publish/subscribe by topic.  ``publish`` never blocks the publisher; handlers run later, each on its
    own, and a failing handler is logged without touching the others."""

    def publish(self, topic: str, event: Any) -> None: ...

    def subscribe(self, topic: str, handler: Handler) -> Callable[[], None]:
        """Subscribe; returns a function that unsubscribes."""
        ...


class MemoryBus:
    """The in-process bus."""

    def __init__(self) -> None:
        self.handlers: dict[str, list[Handler]] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def subscribe(self, topic: str, handler: Handler) -> Callable[[], None]:
        self.handlers.setdefault(topic, []).append(handler)

        def unsubscribe() -> None:
            hs = self.handlers.get(topic, [])
            if handler in hs:
                hs.remove(handler)

        return unsubscribe

    def publish(self, topic: str, event: Any) -> None:
        for h in list(self.handlers.get(topic, ())):
            task = asyncio.get_running_loop().create_task(self._call(topic, h, event))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _call(self, topic: str, handler: Handler, event: Any) -> None:
        try:
            res = handler(event)
            if inspect.isawaitable(res):
                await res
        except Exception:
            log.exception("a %s handler failed", topic)

    async def drain(self) -> None:
        """Wait until every handler started so far has finished (tests, shutdown)."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)
