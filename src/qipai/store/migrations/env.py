"""Alembic environment.

Used two ways: programmatically (:func:`qipai.store.db.upgrade` passes an open connection in
``config.attributes["connection"]``), or from the ``alembic`` command line, where the URL comes from the
``sqlalchemy.url`` option or the ``QIPAI_DATABASE_URL`` environment variable.
"""

from __future__ import annotations

import asyncio
import os

from alembic import context
from alembic.config import Config
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from qipai.store.models import Base

config: Config | None
try:
    config = context.config
except (NameError, AttributeError):  # imported outside Alembic (pytest --doctest-modules collects every module)
    config = None
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async(url: str) -> None:
    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.run_sync(_run)
    await engine.dispose()


def run() -> None:
    assert config is not None
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url") or os.environ.get("QIPAI_DATABASE_URL")
    if not url:
        raise RuntimeError("set sqlalchemy.url or QIPAI_DATABASE_URL")
    if context.is_offline_mode():
        context.configure(url=url, target_metadata=target_metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    asyncio.run(_run_async(url))


if config is not None:
    run()
