"""Engines and migrations.

:func:`make_engine` opens SQLite (``sqlite+aiosqlite:///path``, the default) or PostgreSQL
(``postgresql+asyncpg://user@host/db``); :func:`upgrade` applies the Alembic migrations up to the newest one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

MIGRATIONS = Path(__file__).with_name("migrations")


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


def unpooled_engine(url: Any, schema: str | None = None) -> AsyncEngine:
    """An engine without a pool (each connection is closed in full when its block ends; for a check or a copy,
    not for serving), on ``schema`` (PostgreSQL's search path) when one is given."""
    kwargs: dict[str, Any] = {"poolclass": NullPool}
    if schema is not None:
        kwargs["connect_args"] = {"server_settings": {"search_path": schema}}
    return create_async_engine(url, **kwargs)


def make_engine(url: str, *, schema: str | None = None, echo: bool = False, busy_ms: int = 5000) -> AsyncEngine:
    """An async engine for ``url``.

    SQLite gets WAL journaling, a busy timeout (``busy_ms``: how long a write waits for a lock another process
    holds before it fails) and foreign keys.  ``schema`` (PostgreSQL only) puts every
    table in that schema through the connection's ``search_path``: tests use it for a fresh schema each.
    """
    kwargs: dict[str, Any] = {"echo": echo}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"timeout": busy_ms / 1000}
        if ":memory:" not in url and "mode=memory" not in url:
            # One connection: SQLite has one writer at a time, and a second connection that finds the database
            # locked sleeps in its busy handler (1, 2, 5, 10, … ms) instead of queueing.  Transactions wait
            # their turn for the connection in order instead, which keeps journal commits prompt.
            kwargs.update(pool_size=1, max_overflow=0, pool_timeout=60)
    elif schema is not None:
        kwargs["connect_args"] = {"server_settings": {"search_path": schema}}
    if url.startswith("postgresql"):
        kwargs.update(pool_size=10, max_overflow=20, pool_pre_ping=True)
    engine = create_async_engine(url, **kwargs)
    if url.startswith("sqlite"):

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            for pragma in (
                "PRAGMA journal_mode=WAL",
                "PRAGMA synchronous=NORMAL",
                "PRAGMA foreign_keys=ON",
                f"PRAGMA busy_timeout={int(busy_ms)}",
            ):
                cur.execute(pragma)
            cur.close()

    return engine


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def _upgrade_sync(connection: Connection, revision: str) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        # SQLite alters a table by copying it; with foreign keys on, dropping the old copy of a table that other
        # rows point at fails (or cascades).  Checked again below once the migrations are done.
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
    try:
        command.upgrade(cfg, revision)
        if sqlite:
            bad = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if bad:
                raise RuntimeError(f"the migrations left rows pointing nowhere: {bad[:5]}")
    finally:
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")


def newest_revision() -> str:
    """The newest schema revision this code's migrations make."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def known_revision(revision: str) -> bool:
    """Whether ``revision`` (a database's ``alembic_version``) is one of this code's migrations: a database made
    by a newer qipai holds one this code cannot upgrade from (or run on)."""
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    try:
        return ScriptDirectory.from_config(alembic_config()).get_revision(revision) is not None
    except CommandError:
        return False


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Apply the migrations to ``revision`` (default: the newest) in one transaction.  On PostgreSQL one node at a
    time (a transaction's advisory lock on the schema): nodes started together on a new database wait for the
    first to make the schema and find it made (racing, one failed on ``alembic_version``'s unique type name)."""
    async with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            await conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('qipai.migrate.' || current_schema()))"))
        await conn.run_sync(_upgrade_sync, revision)
