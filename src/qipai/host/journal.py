"""The journal writer: every table's accepted actions, written in batches (group commit) before they are
broadcast; each table awaits its own entry."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque

from qipai.store import FencedOut, JournalRow, Store

log = logging.getLogger("qipai.host.journal")


def _fail(entries: list[tuple[JournalRow, asyncio.Future[None]]], error: BaseException) -> None:
    """Tell the writers of ``entries`` still waiting that their entries were not written."""
    for _, f in entries:
        if not f.done():
            f.set_exception(error)


class JournalWriter:
    """Writes journal entries in batches; :meth:`write` returns once its entry is committed."""

    def __init__(self, store: Store, max_batch: int = 2000) -> None:
        self.store = store
        self.max_batch = max_batch
        self.pending: list[tuple[JournalRow, asyncio.Future[None]]] = []
        self.event = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.stopping = False
        self.batches = 0
        self.waits: deque[float] = deque(maxlen=5000)
        """Seconds from :meth:`write` to its commit, for the latest writes."""
        self.commits: deque[float] = deque(maxlen=1000)
        """Seconds each of the latest batch commits took."""

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name="journal-writer")

    async def write(self, row: JournalRow) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((row, fut))
        self.event.set()
        t0 = time.perf_counter()
        await fut
        self.waits.append(time.perf_counter() - t0)

    async def _flush(self) -> None:
        while self.pending:
            batch, self.pending = self.pending[: self.max_batch], self.pending[self.max_batch :]
            t0 = time.perf_counter()
            try:
                fenced = await self.store.append_journal([r for r, _ in batch])
                self.commits.append(time.perf_counter() - t0)
            except asyncio.CancelledError:
                # stopped mid-commit (a shutdown the store did not answer in time): its writers must not wait on
                _fail(batch, ConnectionError("the journal was stopped while this entry was written"))
                raise
            except Exception as e:
                log.exception("journal: a batch of %d entries failed", len(batch))
                _fail(batch, e)
            else:
                self.batches += 1
                for r, f in batch:
                    if f.done():
                        continue
                    if r.fence is not None and r.fence[0] in fenced:
                        f.set_exception(FencedOut(f"table {r.fence[0]} belongs to another node now"))
                    else:
                        f.set_result(None)

    async def _run(self) -> None:
        while not self.stopping:
            await self.event.wait()
            self.event.clear()
            await self._flush()

    async def stop(self, timeout: float = 10.0) -> None:
        """Write what is pending and stop: the batch being committed is let finish (cancelling it could leave
        a row written whose writer was told it failed), for up to ``timeout`` seconds, and so is a last flush of
        what came meanwhile.  A store that does not answer by then does not hold the shutdown: the writers still
        waiting are told their entries were not written."""
        self.stopping = True
        self.event.set()
        if self.task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self.task), timeout)
            except (TimeoutError, Exception):
                log.warning("journal: the writer did not finish within %.0f s of the shutdown", timeout)
                self.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self.task
        try:
            await asyncio.wait_for(self._flush(), timeout)
        except TimeoutError:
            log.error("journal: %d entries were not written: the store did not answer within %.0f s of the "
                      "shutdown", len(self.pending), timeout)
            failed, self.pending = self.pending, []
            _fail(failed, ConnectionError("the journal was stopped before this entry was written"))
