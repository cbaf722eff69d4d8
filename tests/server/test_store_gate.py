"""The store's gate in front of SQLite's one connection: the journal's commits go before other transactions that
wait, each kind in arrival order; a waiter that gives up loses nothing; the health figures name who held it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from qipai.store import JournalRow, Store, TableInfo
from qipai.store.gate import Gate, GateTimeout


async def test_urgent_waiters_go_first_but_never_twice_in_a_row_while_others_wait() -> None:
    g = Gate()
    await g.acquire(False)
    order: list[str] = []

    async def take(name: str, urgent: bool) -> None:
        await g.acquire(urgent)
        order.append(name)
        await asyncio.sleep(0)
        g.release()

    tasks = []
    for name, urgent in [("a", False), ("J1", True), ("b", False), ("J2", True), ("c", False)]:
        tasks.append(asyncio.create_task(take(name, urgent)))
        await asyncio.sleep(0)
    g.release()
    await asyncio.gather(*tasks)
    assert order == ["J1", "a", "J2", "b", "c"]
    assert not g.held


async def test_urgent_waiters_alone_follow_each_other() -> None:
    g = Gate()
    await g.acquire(False)
    order: list[str] = []

    async def take(name: str) -> None:
        await g.acquire(True)
        order.append(name)
        await asyncio.sleep(0)
        g.release()

    tasks = [asyncio.create_task(take(n)) for n in ("J1", "J2", "J3")]
    await asyncio.sleep(0)
    g.release()
    await asyncio.gather(*tasks)
    assert order == ["J1", "J2", "J3"] and not g.held and not g.jumped


async def test_a_waiter_that_gives_up_or_is_cancelled_leaves_the_gate_working() -> None:
    g = Gate()
    await g.acquire(False)
    with pytest.raises(GateTimeout, match=r"waited 0\.05 s for the database"):
        await g.acquire(True, timeout=0.05)
    cancelled = asyncio.create_task(g.acquire(False))
    await asyncio.sleep(0)
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    later = asyncio.create_task(g.acquire(False))
    await asyncio.sleep(0)
    g.release()
    await asyncio.wait_for(later, 1)  # the turn went past the two that gave up
    assert g.held
    g.release()
    assert not g.held and not g.urgent and not g.normal


async def test_on_sqlite_a_journal_commit_overtakes_queued_writes(tmp_path: Path) -> None:
    """While a long transaction holds the database, three account writes queue, then a journal commit: the
    journal commits as soon as the long one ends, before the three."""
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'q.db'}")
    try:
        assert store.sessions.gate is not None
        t = TableInfo(id="T1", game="doudizhu", room=None, options={}, private=True, invite_code=None,
                      autoplay_bot="heuristic", seat_bot="heuristic", min_points=0, created_by=None)
        await store.create_table(t, 3)
        deal = await store.start_deal("T1", 0, "doudizhu", {}, 1, {}, [])
        done: list[str] = []
        release = asyncio.Event()

        async def long_one() -> None:
            async with store.sessions.begin():
                await release.wait()

        async def user(i: int) -> None:
            await store.create_user(f"u{i}", None)
            done.append(f"user{i}")

        async def journal() -> None:
            await store.append_journal([JournalRow(deal, 0, 0, "pass")])
            done.append("journal")

        holder = asyncio.create_task(long_one())
        await asyncio.sleep(0.01)
        tasks = [asyncio.create_task(user(i)) for i in range(3)]
        await asyncio.sleep(0.01)
        tasks.append(asyncio.create_task(journal()))
        await asyncio.sleep(0.01)
        assert done == []
        release.set()
        await asyncio.gather(holder, *tasks)
        assert done == ["journal", "user0", "user1", "user2"]
        assert [r.action for r in await store.journal(deal)] == ["pass"]
        figures = store.sessions.timings.summary(lambda xs: {"max": max(xs)})
        assert "long_one" in figures["hold_ms"] and "create_user" in figures["wait_ms"]
    finally:
        await store.close()


async def test_open_tables_come_with_their_own_seats_in_order(tmp_path: Path) -> None:
    """``open_tables`` (what a starting node restores) reads every table's seats in one query: each table gets
    its own seats, in seat order, and a closed or excluded table is left out."""
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'q.db'}")
    try:
        for i, n in enumerate((3, 4, 3)):
            t = TableInfo(id=f"T{i}", game="doudizhu", room=None, options={}, private=True, invite_code=None,
                          autoplay_bot="heuristic", seat_bot="heuristic", min_points=0, created_by=None)
            await store.create_table(t, n, taken=[(None, f"bot{i}{s}") for s in range(n)])
        await store.close_table("T1")
        got = await store.open_tables()
        assert [t.id for t, _ in got] == ["T0", "T2"]
        assert [[s["bot"] for s in seats] for _, seats in got] == [["bot00", "bot01", "bot02"],
                                                                  ["bot20", "bot21", "bot22"]]
        assert [t.id for t, _ in await store.open_tables(exclude=["T0"])] == ["T2"]
    finally:
        await store.close()
