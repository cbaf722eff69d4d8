"""Sessions that take their turn at the database, the journal first.

SQLite has one writer, and the store keeps one connection to it (see :func:`qipai.store.db.make_engine`).  Every
transaction waits its turn for that connection; in plain arrival order, a journal commit — which a player's
move waits for before anybody sees it — queues behind every settlement, table and match write that came first.
A :class:`Gate` in front of the connection lets the journal's writes go first, and counts how long each kind of
transaction waited for its turn and held it (the server's ``/api/health`` shows the worst).

With PostgreSQL (a pool of connections) there is no gate: transactions run side by side.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections import deque
from collections.abc import Callable
from types import TracebackType
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

GATE_TIMEOUT = 60.0
"""Seconds a transaction waits for its turn before it fails (as the connection pool's own timeout did)."""


class GateTimeout(TimeoutError):
    """A transaction waited :data:`GATE_TIMEOUT` seconds for the database."""


class Gate:
    """One holder at a time; an urgent waiter goes before the others, each kind in arrival order — but never
    twice in a row while others wait (so a move's journal commit waits for at most one other transaction, and
    a busy journal cannot starve the rest: the turns alternate).

    >>> async def demo() -> list[str]:
    ...     g, order = Gate(), []
    ...     await g.acquire(False)                    # somebody holds it
    ...     async def take(name: str, urgent: bool) -> None:
    ...         await g.acquire(urgent); order.append(name); g.release()
    ...     tasks = [asyncio.create_task(take(n, n.startswith("journal"))) for n in ("settle", "journal", "table")]
    ...     await asyncio.sleep(0); g.release(); await asyncio.gather(*tasks)
    ...     return order
    >>> asyncio.run(demo())
    ['journal', 'settle', 'table']
    """

    def __init__(self) -> None:
        self.held = False
        self.urgent: deque[asyncio.Future[None]] = deque()
        self.normal: deque[asyncio.Future[None]] = deque()
        self.jumped = False
        """The last turn went to an urgent waiter ahead of others waiting."""

    async def acquire(self, urgent: bool, timeout: float = GATE_TIMEOUT) -> None:
        if not self.held and not self.urgent and (urgent or not self.normal):
            self.held = True
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        (self.urgent if urgent else self.normal).append(fut)
        try:
            await asyncio.wait_for(asyncio.shield(fut), timeout)
        except BaseException as e:
            if fut.done() and not fut.cancelled():
                self.release()  # it was handed to us as we gave up: pass it on
            else:
                fut.cancel()
                with_queue = self.urgent if urgent else self.normal
                if fut in with_queue:
                    with_queue.remove(fut)
            if isinstance(e, TimeoutError):
                raise GateTimeout(f"waited {timeout:g} s for the database (another transaction held it)") from None
            raise

    def release(self) -> None:
        for q in (self.normal, self.urgent) if self.jumped else (self.urgent, self.normal):
            while q:
                fut = q.popleft()
                if not fut.done():
                    self.jumped = q is self.urgent and any(not f.done() for f in self.normal)
                    fut.set_result(None)  # handed over: still held
                    return
        self.held = False
        self.jumped = False


class Timings:
    """How long transactions of each kind (the store method that opened them) waited for their turn and held
    the database, for the latest ones."""

    def __init__(self, keep: int = 2000) -> None:
        self.keep = keep
        self.wait: dict[str, deque[float]] = {}
        self.hold: dict[str, deque[float]] = {}

    def add(self, kind: str, wait: float, hold: float) -> None:
        for book, x in ((self.wait, wait), (self.hold, hold)):
            q = book.get(kind)
            if q is None:
                q = book[kind] = deque(maxlen=self.keep)
            q.append(x)

    def summary(self, fmt: Callable[[list[float]], dict[str, Any]], top: int = 6) -> dict[str, Any]:
        """The ``top`` kinds that held the database longest and that waited longest for it (their worst time
        first), each as ``fmt`` gives its durations (seconds)."""
        def worst(book: dict[str, deque[float]]) -> dict[str, Any]:
            rows = sorted(((k, list(v)) for k, v in book.items() if v), key=lambda kv: -max(kv[1]))[:top]
            return {k: {"n": len(v), **fmt(v)} for k, v in rows}
        return {"hold_ms": worst(self.hold), "wait_ms": worst(self.wait)}


class _Turn:
    """``async with``: wait for the turn, open the session (and its transaction with ``begin``), give it back."""

    __slots__ = ("begin", "gate", "kind", "maker", "session", "t0", "t1", "timings", "tx", "urgent")

    def __init__(self, maker: async_sessionmaker[AsyncSession], gate: Gate | None, timings: Timings, kind: str,
                 urgent: bool, begin: bool) -> None:
        self.maker, self.gate, self.timings, self.kind = maker, gate, timings, kind
        self.urgent, self.begin = urgent, begin
        self.session: AsyncSession | None = None
        self.tx: Any = None
        self.t0 = self.t1 = 0.0

    async def __aenter__(self) -> AsyncSession:
        self.t0 = time.perf_counter()
        if self.gate is not None:
            await self.gate.acquire(self.urgent)
        self.t1 = time.perf_counter()
        try:
            self.session = self.maker()
            if self.begin:
                self.tx = self.session.begin()
                await self.tx.__aenter__()
        except BaseException:
            await self._close()
            raise
        return self.session

    async def __aexit__(self, et: type[BaseException] | None, ev: BaseException | None,
                        tb: TracebackType | None) -> None:
        try:
            if self.tx is not None:
                await self.tx.__aexit__(et, ev, tb)
        finally:
            await self._close()

    async def _close(self) -> None:
        try:
            if self.session is not None:
                await self.session.close()
        finally:
            if self.gate is not None:
                self.gate.release()
            t2 = time.perf_counter()
            self.timings.add(self.kind, self.t1 - self.t0, t2 - self.t1)


class Sessions:
    """Used like SQLAlchemy's ``async_sessionmaker``: ``async with sessions() as s`` and ``async with
    sessions.begin() as s`` — each waits its turn at the gate (if there is one) first.  ``urgent=True`` goes
    before the others (the journal)."""

    def __init__(self, maker: async_sessionmaker[AsyncSession], gate: Gate | None) -> None:
        self.maker = maker
        self.gate = gate
        self.timings = Timings()

    def __call__(self, *, urgent: bool = False) -> _Turn:
        return _Turn(self.maker, self.gate, self.timings, sys._getframe(1).f_code.co_name, urgent, False)

    def begin(self, *, urgent: bool = False) -> _Turn:
        return _Turn(self.maker, self.gate, self.timings, sys._getframe(1).f_code.co_name, urgent, True)
