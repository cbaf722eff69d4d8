"""Fixtures: a database (a SQLite file, or a fresh PostgreSQL schema) and a running server on it.

PostgreSQL: every test run creates a database of its own (``qipai_test_<random>``) on the server named by
``QIPAI_TEST_PG_URL`` (default ``postgresql+asyncpg://postgres@127.0.0.1:5432/postgres``: only the server and
credentials are used, the database is made here), gives each test a fresh schema in it, and drops the
database at the end — so two runs, or a developer's own data, never meet.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from server_helpers import Database, LiveServer, StartServer, fast_settings

SERVER_URL = os.environ.get("QIPAI_TEST_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres")


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def admin_url() -> str:
    """The database tests connect to for creating and dropping theirs."""
    return with_database(SERVER_URL, urlsplit(SERVER_URL).path.lstrip("/") or "postgres")


def dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _pg_available(url: str) -> str | None:
    import asyncpg

    try:
        conn = await asyncpg.connect(dsn(url), timeout=3)
    except Exception as e:
        return f"{type(e).__name__}: {e}"
    await conn.close()
    return None


@pytest.fixture(scope="session")
def pg_run_database() -> Iterator[str]:
    """This run's own PostgreSQL database (created now, dropped at the end); its URL."""
    import asyncio
    import concurrent.futures

    import asyncpg

    name = "qipai_test_" + uuid.uuid4().hex[:12]
    admin = admin_url()

    async def create() -> str | None:
        why = await _pg_available(admin)
        if why is not None:
            return why
        conn = await asyncpg.connect(dsn(admin))
        await conn.execute(f'CREATE DATABASE "{name}"')
        await conn.close()
        return None

    async def drop() -> None:
        conn = await asyncpg.connect(dsn(admin))
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.close()

    def run(coro: Any) -> Any:  # in a thread of its own: an event loop may be running here already
        with concurrent.futures.ThreadPoolExecutor(1) as ex:
            return ex.submit(asyncio.run, coro).result()

    why = run(create())
    if why is not None:
        pytest.fail(
            f"PostgreSQL at {SERVER_URL} is not reachable ({why}). Run ./scripts/test.sh, which starts one (or "
            "installs Debian's postgresql), or point QIPAI_TEST_PG_URL at a server where you may create databases."
        )
    try:
        yield with_database(SERVER_URL, name)
    finally:
        run(drop())


@pytest.fixture(params=["sqlite", "postgresql"])
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    if request.param == "sqlite":
        yield Database(f"sqlite+aiosqlite:///{tmp_path / 'qipai.db'}")
        return
    url = request.getfixturevalue("pg_run_database")
    import asyncpg

    schema = "t_" + uuid.uuid4().hex[:12]
    conn = await asyncpg.connect(dsn(url))
    await conn.execute(f'CREATE SCHEMA "{schema}"')
    await conn.close()
    try:
        yield Database(url, schema)
    finally:
        conn = await asyncpg.connect(dsn(url))
        await conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
        await conn.close()


@pytest.fixture
async def pg_db(pg_run_database: str) -> AsyncIterator[Database]:
    """A PostgreSQL database of this test's own (not a schema: for tests that cut its connections)."""
    import asyncpg

    name = "qipai_t_" + uuid.uuid4().hex[:12]
    conn = await asyncpg.connect(dsn(admin_url()))
    await conn.execute(f'CREATE DATABASE "{name}"')
    await conn.close()
    try:
        yield Database(with_database(pg_run_database, name))
    finally:
        conn = await asyncpg.connect(dsn(admin_url()))
        await conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.close()


@pytest.fixture
async def sqlite_db(tmp_path: Path) -> Database:
    return Database(f"sqlite+aiosqlite:///{tmp_path / 'qipai.db'}")


async def _servers(db: Database) -> AsyncIterator[StartServer]:
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
async def start_server(db: Database) -> AsyncIterator[StartServer]:
    """``await start_server(**settings)``: a live server on the test's database (stopped at the end)."""
    async for start in _servers(db):
        yield start


@pytest.fixture
async def start(sqlite_db: Database) -> AsyncIterator[StartServer]:
    """``await start(**settings)``: a live server on a SQLite database of the test's own, for what does not
    depend on the storage (stopped at the end)."""
    async for go in _servers(sqlite_db):
        yield go


@pytest.fixture
async def server(start_server: StartServer) -> LiveServer:
    return await start_server()
