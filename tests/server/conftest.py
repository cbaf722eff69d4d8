"""Fixtures: a database (SQLite file, or a fresh PostgreSQL schema) and a running server on it."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Database, LiveServer, StartServer, fast_settings

PG_URL = os.environ.get("QIPAI_TEST_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


def _pg_dsn() -> str:
    return PG_URL.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _pg_available() -> str | None:
    import asyncpg

    try:
        conn = await asyncpg.connect(_pg_dsn(), timeout=3)
    except Exception as e:
        return f"{type(e).__name__}: {e}"
    await conn.close()
    return None


@pytest.fixture(params=["sqlite", "postgresql"])
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    if request.param == "sqlite":
        yield Database(f"sqlite+aiosqlite:///{tmp_path / 'qipai.db'}")
        return
    why = await _pg_available()
    if why is not None:
        pytest.fail(
            f"PostgreSQL at {PG_URL} is not reachable ({why}). Run ./scripts/test.sh, which starts one (or installs "
            "Debian's postgresql), or point QIPAI_TEST_PG_URL at a server whose database you may write to."
        )
    import asyncpg

    schema = "t_" + uuid.uuid4().hex[:12]
    conn = await asyncpg.connect(_pg_dsn())
    await conn.execute(f'CREATE SCHEMA "{schema}"')
    await conn.close()
    try:
        yield Database(PG_URL, schema)
    finally:
        conn = await asyncpg.connect(_pg_dsn())
        await conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
        await conn.close()


@pytest.fixture
async def sqlite_db(tmp_path: Path) -> Database:
    return Database(f"sqlite+aiosqlite:///{tmp_path / 'qipai.db'}")


@pytest.fixture
async def start_server(db: Database) -> AsyncIterator[StartServer]:
    """``await start_server(**settings)``: a live server on the test's database (stopped at the end)."""
    servers: list[LiveServer] = []

    async def start(**kw: Any) -> LiveServer:
        s = await LiveServer(fast_settings(db, **kw)).start()
        servers.append(s)
        return s

    yield start
    for s in servers:
        if not s.server.should_exit:
            await s.stop()


@pytest.fixture
async def server(start_server: StartServer) -> LiveServer:
    return await start_server()
