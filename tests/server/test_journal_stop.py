"""A shutdown while the database does not answer: the journal writer gives up after its timeout instead of
holding the server's exit, and every writer still waiting is told its entry was not written (none waits on)."""

from __future__ import annotations

import asyncio
import time

import asyncpg
from sqlalchemy import text

from conftest import dsn
from qipai.host.journal import JournalWriter
from qipai.store import JournalRow, Store

from server_helpers import Database


async def test_a_journal_stop_does_not_hang_on_a_database_that_does_not_answer(pg_db: Database) -> None:
    store = await Store.open(pg_db.url)
    lock = await asyncpg.connect(dsn(pg_db.url))
    try:
        journal = JournalWriter(store)
        journal.start()
        tx = lock.transaction()
        await tx.start()
        await lock.execute("LOCK TABLE journal IN ACCESS EXCLUSIVE MODE")
        first = asyncio.create_task(journal.write(JournalRow(deal_id=1, n=0, seat=0, action="pass")))
        await asyncio.sleep(0.3)  # the first batch is being committed, and waits on the lock
        later = asyncio.create_task(journal.write(JournalRow(deal_id=1, n=1, seat=1, action="pass")))
        await asyncio.sleep(0)
        assert not first.done() and not later.done()
        t0 = time.perf_counter()
        await asyncio.wait_for(journal.stop(timeout=0.5), 5)
        assert time.perf_counter() - t0 < 3
        for w in (first, later):
            err = await asyncio.wait_for(asyncio.gather(w, return_exceptions=True), 1)
            assert isinstance(err[0], ConnectionError) and "journal was stopped" in str(err[0])
        await tx.rollback()
        async with store.sessions() as s:
            assert (await s.execute(text("SELECT count(*) FROM journal"))).scalar() == 0
    finally:
        await lock.close()
        await store.close()
