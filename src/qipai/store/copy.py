"""Copy a whole qipai database to another one: SQLite to PostgreSQL (a club that grew), PostgreSQL to SQLite, or
SQLite to SQLite (a backup).  ``qipai copy-database`` runs :func:`copy_database`.

What it does, in order:

1. Checks, writing nothing: the two are not the same database; neither is held by a running server (the lock
   :meth:`qipai.store.Store.hold` takes, which the copy then holds itself until it ends, so no server starts on
   either meanwhile); the source is a qipai database at this code's schema revision (an older one is upgraded by
   starting ``qipai serve`` on it once); the target holds no rows in any of the store's tables (an empty database,
   or one with just the schema, is fine).
2. In **one transaction on the target**: applies the migrations (as ``serve`` does at start, which also stamps the
   Alembic version), copies every table of :data:`qipai.store.models.Base.metadata` in foreign-key order, in
   batches read through a cursor from one snapshot of the source, with their ids; checks each table's row count
   against the source's; on PostgreSQL moves every id sequence past the largest copied id; then commits.  An
   interrupted or failed copy commits nothing: the target is as it was (SQLite's DDL is made transactional here
   too, by beginning the transaction explicitly).

Column values are copied as stored: JSON columns as their JSON text (a JSON ``null`` stays one, an SQL ``NULL``
stays one), times as UTC.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, Column, DateTime, Integer, MetaData, Table, Text, cast, event, func, select, text
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool
from sqlalchemy.types import TypeDecorator, TypeEngine

from qipai.store.db import _upgrade_sync, known_revision, newest_revision, unpooled_engine
from qipai.store.models import Base
from qipai.store.repo import StoreInUse, advisory_lock, lock_file

BATCH = 500
"""Rows read and written at a time (a deal's record may be tens of kilobytes)."""


class CopyRefused(ValueError):
    """The copy cannot start (one line saying why); nothing was written anywhere."""


class CopyFailed(RuntimeError):
    """The copy failed part way (one line saying why); its transaction was rolled back: the target is as it was."""


@dataclass(frozen=True)
class Side:
    """One end of a copy: a database URL and (PostgreSQL) a schema."""

    url: URL
    schema: str | None = None
    role: str = "source"

    @classmethod
    def of(cls, url: str | URL, schema: str | None = None, role: str = "source") -> Side:
        return cls(make_url(url) if isinstance(url, str) else url, schema, role)

    @property
    def sqlite(self) -> bool:
        return self.url.get_backend_name() == "sqlite"

    @property
    def path(self) -> str | None:
        """The SQLite file (``None`` for PostgreSQL or an in-memory database)."""
        db = self.url.database
        if not self.sqlite or not db or db == ":memory:" or "mode=memory" in str(self.url.query):
            return None
        return db

    @property
    def shown(self) -> str:
        """The URL without its password (and the schema, if any), for messages."""
        s = self.url.render_as_string(hide_password=True)
        return f"{s} (schema {self.schema})" if self.schema else s

    def key(self) -> tuple[Any, ...]:
        """What names the same database (and schema) whatever the spelling of the URL."""
        if self.sqlite:
            return ("sqlite", os.path.realpath(self.path or ":memory:"))
        host = (self.url.host or "localhost").lower()
        if host in ("127.0.0.1", "::1"):
            host = "localhost"
        return ("postgresql", host, self.url.port or 5432, self.url.database or self.url.username,
                self.schema or "public")


def _raw_json(t: TypeEngine[Any]) -> TypeEngine[Any]:
    return _RawJSON() if isinstance(t, JSON) else t


class _RawJSON(TypeDecorator[Any]):
    """A JSON column written as its JSON text, untouched (and read as text: cast to it, for asyncpg decodes JSON
    itself): a JSON ``null`` is not an SQL ``NULL``."""

    impl = JSON
    cache_ok = True

    def bind_processor(self, dialect: Any) -> None:
        return None

    def result_processor(self, dialect: Any, coltype: Any) -> None:
        return None


def _plain(t: Table) -> Table:
    """``t`` for copying: the same columns, JSON as text, no constraints."""
    return Table(t.name, MetaData(), *[Column(c.name, _raw_json(c.type), primary_key=c.primary_key)
                                       for c in t.columns])


def _fix_times(t: Table) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A function making a row's times (columns with a time zone) UTC and aware: SQLite keeps them as UTC
    without a zone, and asyncpg would read a time without one as the machine's local time."""
    cols = [c.name for c in t.columns if isinstance(c.type, DateTime) and c.type.timezone]

    def fix(row: dict[str, Any]) -> dict[str, Any]:
        for name in cols:
            v = row[name]
            if isinstance(v, datetime):
                row[name] = v.replace(tzinfo=UTC) if v.tzinfo is None else v.astimezone(UTC)
        return row

    return fix


def make_copy_engine(side: Side, *, target: bool = False) -> AsyncEngine:
    """An engine without a pool whose transactions are real ones on SQLite too (BEGIN at the start, so a
    ``CREATE TABLE`` is rolled back with the rest: the pysqlite driver would commit it at once).  A SQLite
    target has foreign keys off during the copy (the migrations rebuild tables, as :func:`upgrade` does) and is
    checked with ``PRAGMA foreign_key_check`` before the commit."""
    if not side.sqlite:
        return unpooled_engine(side.url, side.schema)
    engine = create_async_engine(side.url, poolclass=NullPool, connect_args={"timeout": 5.0})
    pragmas = ["PRAGMA busy_timeout=5000"]
    if target:
        pragmas += ["PRAGMA journal_mode=WAL", "PRAGMA foreign_keys=OFF"]

    @event.listens_for(engine.sync_engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # the driver begins no transaction by itself …
        cur = dbapi_conn.cursor()
        for p in pragmas:
            cur.execute(p)
        cur.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN")  # … this one does, before the first statement

    return engine


async def _has_schema(conn: AsyncConnection, schema: str) -> bool:
    found = await conn.execute(text("SELECT 1 FROM information_schema.schemata WHERE schema_name = :s"),
                               {"s": schema})
    return found.scalar() is not None


async def _tables(conn: AsyncConnection) -> set[str]:
    from sqlalchemy import inspect

    return set(await conn.run_sync(lambda c: inspect(c).get_table_names()))


async def _revision(conn: AsyncConnection, tables: set[str]) -> str | None:
    if "alembic_version" not in tables:
        return None
    return (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar()


async def _count(conn: AsyncConnection, t: Table) -> int:
    return int((await conn.execute(select(func.count()).select_from(t))).scalar() or 0)


@contextlib.asynccontextmanager
async def _held(side: Side, conn: AsyncConnection, other_pid: int | None = None) -> AsyncIterator[None]:
    """Hold ``side`` as a server would, alone (a SQLite lock file, or the schema's advisory lock on ``conn``),
    until the block ends; :class:`CopyRefused` when a running server holds it."""
    what = f"the {side.role} database {side.shown}"
    if side.sqlite:
        if side.path is None:
            yield
            return
        try:
            f = lock_file(side.path, alone=True)
        except StoreInUse:
            raise CopyRefused(f"{what} is in use by a running qipai server (it holds {side.path}.lock): stop it "
                              "first") from None
        try:
            yield
        finally:
            f.close()
        return
    try:
        await advisory_lock(conn, alone=True)  # released as the connection closes
    except StoreInUse:
        if other_pid is not None:
            mine = await conn.execute(text(
                "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = :pid AND database = "
                "(SELECT oid FROM pg_database WHERE datname = current_database())"), {"pid": other_pid})
            if mine.scalar() is not None:
                raise CopyRefused("--from and --to are the same database (and schema): give another target") \
                    from None
        raise CopyRefused(f"{what} is in use by a running qipai server: stop it first") from None
    yield


async def copy_database(source: Side, target: Side, *, batch: int = BATCH,
                        progress: Callable[[str, int], None] | None = None,
                        starting: Callable[[], None] | None = None) -> list[tuple[str, int]]:
    """Copy every table of the store from ``source`` to ``target`` (see the module's doc); the rows copied per
    table, in the order copied.  :class:`CopyRefused` before anything is written (one line each: the same
    database twice, a database a running server holds, a source that is no qipai database or not at this
    code's schema revision, a target that holds data); :class:`CopyFailed` when the copy failed part way and
    was rolled back.  ``starting()`` is called once the checks passed, ``progress(table, rows)`` as each table
    is copied (not yet committed)."""
    if source.key() == target.key():
        raise CopyRefused("--from and --to are the same database: give another target")
    for side in (source, target):
        if side.sqlite and side.schema is not None:
            flag = "--from-schema" if side.role == "source" else "--to-schema"
            raise CopyRefused(f"{flag} is for PostgreSQL; {side.shown} is a SQLite database")
        if side.sqlite and side.path is None:
            raise CopyRefused(f"the {side.role} {side.shown} is an in-memory database: give a file")
    if source.path is not None and Path(source.path).is_dir():
        raise CopyRefused(f"the source {source.path} is a folder: name the database file (e.g. "
                          f"{Path(source.path) / 'qipai.db'})")
    if source.path is not None and not Path(source.path).is_file():
        raise CopyRefused(f"no source database at {source.path}")
    if target.path is not None:
        if not Path(target.path).parent.is_dir():
            raise CopyRefused(f"no folder {Path(target.path).parent} for the target database {target.path}")
        if Path(target.path).is_dir():
            raise CopyRefused(f"the target {target.path} is a folder: name a database file in it (e.g. "
                              f"{Path(target.path) / 'qipai.db'})")
        if source.path is not None and Path(target.path).exists() and os.path.samefile(source.path, target.path):
            raise CopyRefused("--from and --to are the same database: give another target")
    head = newest_revision()
    src_engine = make_copy_engine(source)
    dst_engine = make_copy_engine(target, target=True)
    try:
        async with src_engine.connect() as src:
            if source.schema is not None and not await _has_schema(src, source.schema):
                raise CopyRefused(f"--from-schema {source.schema!r}: the source database has no such schema")
            src_pid = None if source.sqlite else (await src.execute(text("SELECT pg_backend_pid()"))).scalar()
            await src.rollback()
            async with _held(source, src):
                await _check_source(source, src, head)
                async with dst_engine.connect() as dst:
                    if target.schema is not None and not await _has_schema(dst, target.schema):
                        raise CopyRefused(f"--to-schema {target.schema!r}: the target database has no such "
                                          f"schema; create it (CREATE SCHEMA {target.schema}) or leave the option out")
                    await dst.rollback()
                    async with _held(target, dst, other_pid=src_pid):
                        await _check_target(target, dst)
                        if starting is not None:
                            starting()
                        return await _copy(source, src, target, dst, batch, progress)
    finally:
        await src_engine.dispose()
        await dst_engine.dispose()


async def _check_source(side: Side, conn: AsyncConnection, head: str) -> None:
    tables = await _tables(conn)
    revision = await _revision(conn, tables)
    await conn.rollback()
    if revision is None:
        raise CopyRefused(f"the source {side.shown} is not a qipai database (it has no alembic_version table)")
    if not known_revision(revision):
        raise CopyRefused(f"the source {side.shown} has schema revision {revision!r}, which this qipai does not "
                          f"know (its newest is {head!r}): a newer qipai made it; copy it with that one")
    if revision != head:
        raise CopyRefused(f"the source {side.shown} has schema revision {revision!r}, older than this qipai's "
                          f"{head!r}: upgrade it first — start `qipai serve` on it once (it upgrades the schema as "
                          "it starts), stop it, then copy")
    missing = [t.name for t in Base.metadata.sorted_tables if t.name not in tables]
    if missing:
        raise CopyRefused(f"the source {side.shown} is not a whole qipai database: it has no table "
                          f"{', '.join(missing)}")


OWN_TABLES = frozenset({"meta"})
"""Tables a database keeps its own rows in, never copied: ``meta`` holds the database's id, and a copy is another
database (a node on it must not pass for a node of the source's cluster)."""


async def _check_target(side: Side, conn: AsyncConnection) -> None:
    tables = await _tables(conn)
    revision = await _revision(conn, tables)
    ours = [t for t in Base.metadata.sorted_tables if t.name in tables]
    if revision is None and ours:
        await conn.rollback()
        names = ", ".join(t.name for t in ours)
        raise CopyRefused(f"the target {side.shown} holds tables named like qipai's ({names}) but is no qipai "
                          "database: give an empty database")
    if revision is not None and not known_revision(revision):
        await conn.rollback()
        raise CopyRefused(f"the target {side.shown} has schema revision {revision!r}, which this qipai does not "
                          "know: give an empty database")
    full: dict[str, int] = {}
    for t in ours:
        if t.name in OWN_TABLES:
            continue
        if (await conn.execute(select(text("1")).select_from(t).limit(1))).first() is not None:
            full[t.name] = await _count(conn, t)
    await conn.rollback()
    if full:
        raise CopyRefused(f"the target {side.shown} already holds data ({sum(full.values()):,} rows in "
                          f"{', '.join(full)}): copy only into an empty database — drop and re-create it, or give "
                          "another")


async def _copy(source: Side, src: AsyncConnection, target: Side, dst: AsyncConnection, batch: int,
                progress: Callable[[str, int], None] | None) -> list[tuple[str, int]]:
    from sqlalchemy.exc import DBAPIError

    if not source.sqlite:  # every table read from one snapshot
        await src.execution_options(isolation_level="REPEATABLE READ")
    done: list[tuple[str, int]] = []
    where = "creating the schema"
    try:
        async with src.begin(), dst.begin():
            await dst.run_sync(_upgrade_sync, "head")
            for full in Base.metadata.sorted_tables:
                if full.name in OWN_TABLES:
                    continue  # the target's own (its migration made its database id)
                where = f"copying table {full.name}"
                t = _plain(full)
                expected = await _count(src, t)
                fix = _fix_times(full)
                rows = 0
                order = [t.c[c.name] for c in full.primary_key.columns]
                cols = [cast(c, Text).label(c.name) if isinstance(c.type, _RawJSON) else c for c in t.columns]
                result = await src.stream(select(*cols).order_by(*order).execution_options(yield_per=batch))
                async for part in result.partitions(batch):
                    await dst.execute(t.insert(), [fix(dict(r._mapping)) for r in part])
                    rows += len(part)
                copied = await _count(dst, t)
                if not rows == copied == expected:
                    raise CopyFailed(f"table {full.name}: the source has {expected} rows, {rows} were read and the "
                                     f"target has {copied}; nothing was written to the target")
                done.append((full.name, rows))
                if progress is not None:
                    progress(full.name, rows)
            where = "setting the id sequences"
            if not target.sqlite:
                await _reset_sequences(dst)
            else:
                bad = (await dst.exec_driver_sql("PRAGMA foreign_key_check")).fetchall()
                if bad:
                    raise CopyFailed(f"the copied rows point nowhere ({bad[:3]}); nothing was written to the target")
            where = "committing"
    except DBAPIError as e:
        first = str(e.orig).strip().splitlines()[0] if str(e.orig).strip() else type(e.orig).__name__
        raise CopyFailed(f"{where} failed: {first}; nothing was written to the target") from None
    return done


async def _reset_sequences(conn: AsyncConnection) -> None:
    """Move every sequence that gives a copied table's column its values past the largest copied value (the
    next insert would take an id that is there already otherwise)."""
    quote = conn.dialect.identifier_preparer.quote
    for t in Base.metadata.sorted_tables:
        for c in t.columns:
            if not isinstance(c.type, Integer):
                continue
            seq = (await conn.execute(text("SELECT pg_get_serial_sequence(:t, :c)"),
                                      {"t": quote(t.name), "c": c.name})).scalar()
            if seq is None:
                continue
            await conn.execute(text(f"SELECT setval(:s, COALESCE(MAX({quote(c.name)}), 0) + 1, false) "
                                    f"FROM {quote(t.name)}"), {"s": seq})
