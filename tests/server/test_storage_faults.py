"""The database going away mid-deal: PostgreSQL refusing and dropping connections, SQLite locked by another
process, SQLite full.  Each time the table refuses the move with ``storage_unavailable`` (nothing is accepted
that cannot be journaled), pauses, resumes when the database is back, and loses nothing."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from conftest import admin_url, dsn
from qipai.core.registry import get_factory

from server_helpers import Client, Database, LiveServer, SqliteLock, fast_settings


@pytest.fixture
async def live(request: pytest.FixtureRequest) -> AsyncIterator[Callable[[Database], Awaitable[LiveServer]]]:
    servers: list[LiveServer] = []

    async def start(db: Database) -> LiveServer:
        s = await LiveServer(fast_settings(db, sqlite_busy_ms=300, bot_fill_wait=0.1)).start()
        servers.append(s)
        return s

    yield start
    for s in servers:
        if not s.server.should_exit:
            await s.stop()


async def my_turn(c: Client, since: int = 0) -> dict[str, Any]:
    return await c.wait_for(lambda m: m["type"] == "state" and m["your_turn"] and not m["autoplay"][m["you"]],
                            timeout=20, since=since)


async def refused_then_resumed(c: Client, server: LiveServer, cut: Callable[[], Awaitable[None]],
                               mend: Callable[[], Awaitable[None]], *, gradual: bool = False) -> None:
    """Wait for this seat's turn, cut the database, see the move refused and nothing change, mend it, see the
    table resume and the same move accepted, then finish the deal and check its record replays.

    ``gradual``: the database fails only once it needs room it has not got (a full disk), so moves may still
    be accepted for a while: play on until the table pauses."""
    await c.send({"type": "quick_match", "room": "classic-1"})
    st = await my_turn(c)
    table = server.lobby.tables[st["table"]]
    await cut()
    start = c.mark()
    for _ in range(400):
        mark = c.mark()
        move = {"type": "action", "table": st["table"], "deal": st["deal"], "version": st["version"],
                "action": st["legal"][-1], "id": f"m{st['deal']}-{st['version']}"}
        await c.send(move)
        sent = move["version"]
        reply = await c.wait_for(lambda m, sent=sent: m["type"] in ("error", "deal_over")
                                 or (m["type"] == "state" and m["version"] > sent), since=mark, timeout=20)
        if reply["type"] == "error":
            break
        assert gradual, f"the move was not refused: {reply['type']}"
        nxt = await c.wait_for(lambda m: (m["type"] == "state" and m["your_turn"] and not m["autoplay"][m["you"]])
                               or (m["type"] == "notice" and m["code"] == "storage_unavailable"), since=mark,
                               timeout=20)
        if nxt["type"] == "notice":
            move = {**move, "version": table.version, "deal": table.deal_id or move["deal"]}
            await c.send(move)
            reply = await c.wait_for(lambda m: m["type"] == "error", since=mark, timeout=20)
            break
        st = nxt
    assert reply["type"] == "error" and reply["code"] == "storage_unavailable", reply
    version = table.version
    if table.running:
        assert len(table.steps) == version  # the refused move was not applied
    await c.wait_for(lambda m: m["type"] == "notice" and m["code"] == "storage_unavailable", since=start)
    assert not server.lobby.storage_ok
    await asyncio.sleep(0.3)
    assert table.version == version  # nothing moves while the database is away (no bots, no timeouts)
    mark = c.mark()
    await mend()
    await c.wait_for(lambda m: m["type"] == "notice" and m["code"] == "storage_restored", since=mark, timeout=30)
    over = await c.play_until_over(timeout=60)
    deal = await c.get(f"/api/deals/{over['deal']}")
    game = get_factory("doudizhu").replay(deal["record"])
    assert game.outcome() == over["outcome"]
    journal = await server.lobby.store.journal(over["deal"])
    assert [j.n for j in journal] == list(range(1, len(journal) + 1))  # nothing lost, nothing twice
    assert len(journal) == len(deal["record"]["actions"])


async def test_postgresql_stopping_mid_deal(pg_db: Database, live: Any) -> None:
    import asyncpg

    server = await live(pg_db)
    name = pg_db.url.rsplit("/", 1)[1]
    c = await Client.guest(server)
    await c.connect()

    async def cut() -> None:
        conn = await asyncpg.connect(dsn(admin_url()))
        await conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name)
        await conn.close()

    async def mend() -> None:
        conn = await asyncpg.connect(dsn(admin_url()))
        await conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        await conn.close()

    await refused_then_resumed(c, server, cut, mend)
    await c.close()


async def test_sqlite_locked_by_another_process(sqlite_db: Database, live: Any) -> None:
    server = await live(sqlite_db)
    c = await Client.guest(server)
    await c.connect()
    holder: list[SqliteLock] = []

    async def cut() -> None:
        holder.append(await SqliteLock.take(sqlite_db.url))

    async def mend() -> None:
        await holder.pop().release()

    await refused_then_resumed(c, server, cut, mend)
    await c.close()


async def test_sqlite_disk_full(sqlite_db: Database, live: Any) -> None:
    server = await live(sqlite_db)
    store = server.lobby.store
    c = await Client.guest(server)
    await c.connect()

    async def sql(text: str, *args: Any) -> Any:
        async with store.engine.begin() as conn:  # the server's one SQLite connection
            res = await conn.exec_driver_sql(text, *args)
            return res.scalar() if res.returns_rows else None

    async def cut() -> None:
        """The database may not grow (as on a full disk), and its last free bytes are taken."""
        await sql("CREATE TABLE filler (x BLOB)")
        pages = await sql("PRAGMA page_count")
        await sql(f"PRAGMA max_page_count = {pages + 2}")
        for size in (4000, 400, 40, 4):
            with contextlib.suppress(Exception):
                for _ in range(10_000):
                    await sql("INSERT INTO filler VALUES (?)", (b"x" * size,))

    async def mend() -> None:
        await sql("PRAGMA max_page_count = 1073741823")
        await sql("DROP TABLE filler")

    await refused_then_resumed(c, server, cut, mend, gradual=True)
    await c.close()
