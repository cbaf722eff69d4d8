"""Running the server under uvicorn: :func:`serve` (blocking) and :class:`Server` (embedding, tests)."""

from __future__ import annotations

import errno
import json
import logging
import os
import re
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvicorn

from qipai.host.settings import Settings
from qipai.server.app import create_app


class Server(uvicorn.Server):
    """uvicorn's server, telling the lobby it is closing before connections drop, so a shutdown does not put
    every player into auto-play: their deals are restored as they were at the next start.

    ``on_started(port)`` is called once the server listens (after the lobby's start-up), while uvicorn's own
    SIGINT/SIGTERM handlers are in place: a Ctrl-C from then on is a clean shutdown.  (``qipai serve`` said
    "serving on" before uvicorn started; a Ctrl-C in between could land in a finaliser, which swallows it, and
    the server went on serving.)"""

    def __init__(self, config: uvicorn.Config, on_started: Callable[[int], None] | None = None) -> None:
        super().__init__(config)
        self.on_started = on_started

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and self.on_started is not None:
            self.on_started(self.bound_port())

    def bound_port(self) -> int:
        """The port the server listens on (the one the system chose for port 0)."""
        for srv in getattr(self, "servers", []):
            for sock in srv.sockets:
                name = sock.getsockname()
                if isinstance(name, tuple):
                    return int(name[1])
        return int(self.config.port)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        app: Any = self.config.app
        lobby = getattr(getattr(app, "state", None), "lobby", None)
        if lobby is not None:
            lobby.closing = True
        await super().shutdown(sockets)


class RedactSecrets(logging.Filter):
    """Access-log lines never show a ``token=``/``password=`` query value (clients should not send them in a
    URL at all; the server does not read them there)."""

    PATTERN = re.compile(r"((?:token|password|pw)=)[^&\s\"]+", re.IGNORECASE)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args and isinstance(record.args, tuple):
            record.args = tuple(self.PATTERN.sub(r"\1[redacted]", a) if isinstance(a, str) else a
                                for a in record.args)
        if isinstance(record.msg, str):
            record.msg = self.PATTERN.sub(r"\1[redacted]", record.msg)
        return True


LOG_TIME = "%(asctime)s.%(msecs)03d"
LOG_DATE = "%Y-%m-%d %H:%M:%S"
"""Every log line starts with its local time to the millisecond: an operator lines up the nodes' logs of a
failover by it."""


def uvicorn_log_config() -> dict[str, Any]:
    """uvicorn's own logging set-up with the time in front of each line (as the server's own lines have it)."""
    import copy

    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    for formatter in config["formatters"].values():
        formatter["fmt"] = f"{LOG_TIME} {formatter['fmt']}"
        formatter["datefmt"] = LOG_DATE
    return config


def make_config(settings: Settings, **kwargs: Any) -> uvicorn.Config:
    """uvicorn's configuration.  ``X-Forwarded-For``/``X-Forwarded-Proto`` are believed only from
    ``trusted_proxies`` (none by default: a client cannot pick its own address for the rate limits)."""
    ours = logging.getLogger("qipai")  # the server's own log lines, at the same level as uvicorn's
    ours.setLevel(settings.log_level.upper())
    if not ours.handlers and "log_config" not in kwargs:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter(f"{LOG_TIME} %(levelname)s:     %(name)s: %(message)s",
                                               datefmt=LOG_DATE))
        ours.addHandler(handler)
        ours.propagate = False
    for name in ("uvicorn.access", "uvicorn.error"):  # uvicorn logs each WebSocket's path on uvicorn.error
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())
    if "log_config" not in kwargs:
        kwargs["log_config"] = uvicorn_log_config()
    trusted = settings.trusted_proxies
    return uvicorn.Config(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        proxy_headers=bool(trusted),
        forwarded_allow_ips=",".join(trusted) if trusted else "",
        log_level=settings.log_level,
        ws_max_size=max(65536, settings.max_message_bytes * 2),
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        ws_per_message_deflate=settings.ws_compression,
        timeout_graceful_shutdown=5,
        lifespan="on",
        **kwargs,
    )


DATABASE_URLS = "sqlite+aiosqlite:///PATH or postgresql+asyncpg://USER:PASSWORD@HOST:5432/DB"
"""The database URLs a server takes, as its refusals name them."""


def check_database_url(value: str, flag: str = "--database-url", accepted: str = DATABASE_URLS) -> Any:
    """The SQLAlchemy URL ``value`` (given as ``flag``), or a one-line :class:`ValueError` when it is no URL or
    names no async driver installed here (``accepted``: what the message offers instead)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        url = make_url(value)
    except (ArgumentError, ValueError):
        raise ValueError(f"{flag} is not a database URL: expected {accepted}") from None
    shown = url.render_as_string(hide_password=True)
    try:
        dialect = url.get_dialect()
    except NoSuchModuleError:
        raise ValueError(f"{flag} {shown}: no database {url.drivername!r}; expected {accepted}") from None
    if not getattr(dialect, "is_async", False):
        raise ValueError(f"{flag} {shown}: {url.drivername} is not an async driver; expected {accepted}")
    try:
        dialect.import_dbapi()
    except ImportError:
        raise ValueError(f"{flag} {shown}: the {url.drivername} driver is not installed") from None
    return url


def check_settings(settings: Settings) -> None:
    """Raise a one-line :class:`ValueError` for what would only fail once the server starts (a traceback from
    uvicorn or the database driver then): a port out of range, a database URL that is no URL or names no async
    driver installed here, or a SQLite file whose folder cannot be there."""
    if not 0 <= settings.port <= 65535:
        raise ValueError(f"--port must be 0 to 65535 (0: any free port), got {settings.port}")
    _check_values(settings)
    url = check_database_url(settings.db_url())
    shown = url.render_as_string(hide_password=True)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:" \
            or "mode=memory" in str(url.query):
        return
    if not settings.database_url:  # the default SQLite file in --data-dir, made at start-up
        folder = settings.data_dir
        if folder.exists() and not folder.is_dir():
            raise ValueError(f"--data-dir {folder} is a file; it names the folder for the database")
        top = folder
        while not top.exists() and top != top.parent:
            top = top.parent
        if not top.is_dir() or not os.access(top, os.W_OK):
            raise ValueError(f"--data-dir {folder}: cannot make it in {top}")
        return
    folder = Path(url.database).parent
    if not folder.is_dir():
        raise ValueError(f"--database-url {shown}: no folder {folder} for the SQLite file")
    if Path(url.database).is_dir():
        raise ValueError(f"--database-url {shown}: {url.database} is a folder; name the SQLite file in it")


POSITIVE = ("lease_seconds", "chat_rate", "time_scale", "relief_hours", "bot_budget", "rate_limit",
            "auth_rate_limit", "ws_auth_timeout", "session_check_every", "chat_burst", "unattended_actions",
            "deserted_close", "max_user_connections", "max_address_connections",
            "login_backoff_after", "rate_burst", "flood_close", "token_days")
"""Settings that must be above 0 (a time scale of 0 made every timer fire at once)."""
NOT_NEGATIVE = ("bot_fill_wait", "bot_delay", "autoplay_delay", "next_deal_delay", "ready_timeout", "forced_delay",
                "restore_grace", "sqlite_busy_ms", "start_points", "guest_points", "bot_points", "relief_points",
                "bot_processes")
"""Settings that may be 0 but not below."""
MIN_MESSAGE_BYTES = 1024
"""The smallest ``max_message_bytes``: below it not even an action fits."""
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


def _check_values(settings: Settings) -> None:
    """Each setting within what it means (every one also comes from ``QIPAI_<NAME>``, read as its type only)."""
    import math

    from qipai.bots import bot_names
    from qipai.core.registry import game_names
    from qipai.host.director import parse_pools
    from qipai.host.periods import zone

    def flag(name: str) -> str:
        return "--" + name.replace("_", "-")

    for name in POSITIVE + NOT_NEGATIVE:
        v = getattr(settings, name)
        if not math.isfinite(v) or v < 0 or (v == 0 and name in POSITIVE):
            raise ValueError(f"{flag(name)} must be {'above' if name in POSITIVE else 'at least'} 0, got {v}")
    if settings.max_message_bytes < MIN_MESSAGE_BYTES:
        raise ValueError(f"--max-message-bytes must be at least {MIN_MESSAGE_BYTES}, got {settings.max_message_bytes}")
    try:
        zone(settings.leaderboard_tz)
    except ValueError as e:
        raise ValueError(f"--leaderboard-tz: {e}") from None
    if settings.log_level.lower() not in LOG_LEVELS:
        raise ValueError(f"--log-level must be one of {', '.join(LOG_LEVELS)}, not {settings.log_level!r}")
    known = {name for g in game_names() for name in bot_names(g)}
    for name in ("seat_bot", "autoplay_bot"):
        bot = getattr(settings, name)
        if bot and bot not in known:
            raise ValueError(f"{flag(name)}: no game has a bot {bot!r}; known bots are {', '.join(sorted(known))}")
    if settings.redis_url is not None and not settings.redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError("--redis-url must be redis://HOST:PORT/DB, rediss://… or unix://PATH, "
                         f"not {settings.redis_url!r}")
    if settings.redis_url is not None and not settings.public_url:
        raise ValueError("--public-url is needed with --redis-url: players of this node's tables are sent there "
                         "(docs/deploy.md)")
    try:
        parse_pools(settings.matches)
    except json.JSONDecodeError as e:
        raise ValueError(f"--matches: a JSON list of match definitions that is no JSON: {e}") from None
    except ValueError as e:  # a ConfigError is one (parse_pools's own errors begin "matches: ")
        raise ValueError(f"--matches: {str(e).removeprefix('matches: ')}") from None


CONNECT_TIMEOUT = 5.0
"""Seconds :func:`check_database` waits for the database server to accept a connection."""


def check_database(settings: Settings, timeout: float = CONNECT_TIMEOUT) -> None:
    """Raise a one-line :class:`ValueError` when a database server (PostgreSQL) cannot be connected to: refused,
    an unknown host, no answer within ``timeout`` seconds, or refused by the server itself (no such database or
    role, a wrong password); when an existing SQLite file is no database; or when the database was made by a
    newer qipai (a schema revision these migrations do not know, which they cannot upgrade from).  Without it
    each is a traceback from inside uvicorn's start-up (exit 3).  A SQLite file that is not there yet is not
    opened (it is made at start-up; :func:`check_settings` checked its folder)."""
    import asyncio

    from sqlalchemy import inspect, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import DBAPIError

    from ..store.db import known_revision, newest_revision, unpooled_engine

    url = make_url(settings.db_url())
    sqlite = url.get_backend_name() == "sqlite"
    if sqlite and (not url.database or url.database == ":memory:" or "mode=memory" in str(url.query)
                   or not Path(url.database).is_file()):
        return  # a new database: made at start-up
    shown = url.render_as_string(hide_password=True)
    schema = settings.database_schema

    async def connect() -> str | None:
        """The database's schema revision (None: no qipai tables yet)."""
        engine = unpooled_engine(url, None if sqlite else schema)
        try:
            async with asyncio.timeout(timeout), engine.connect() as conn:
                has = await conn.run_sync(lambda c: inspect(c).has_table("alembic_version"))
                if not has:
                    return None
                return (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar()
        finally:
            await engine.dispose()

    try:
        revision = asyncio.run(connect())
    except DBAPIError as e:  # the server answered and refused, or the SQLite file is no database
        what = "open" if sqlite else "connect to"
        raise ValueError(f"cannot {what} the database at {shown}: {_first_line(e.orig)}") from None
    except ConnectionRefusedError:
        raise ValueError(f"cannot reach the database at {shown}: connection refused") from None
    except TimeoutError:
        raise ValueError(f"cannot reach the database at {shown}: no answer within {timeout:g} s") from None
    except socket.gaierror as e:
        reason = f"unknown host {url.host}" if e.errno in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", None)) \
            else f"cannot look up host {url.host}: {e.strerror or e}"
        raise ValueError(f"cannot reach the database at {shown}: {reason}") from None
    except OSError as e:  # e.g. asyncio's "Multiple exceptions: …" when each of a host's addresses failed
        if f"[Errno {errno.ECONNREFUSED}]" in str(e):
            raise ValueError(f"cannot reach the database at {shown}: connection refused") from None
        reason = _first_line(e.strerror or e)
        raise ValueError(f"cannot reach the database at {shown}: {reason[:1].lower()}{reason[1:]}") from None
    except Exception as e:  # another driver's own error class, not wrapped by SQLAlchemy
        raise ValueError(f"cannot connect to the database at {shown}: {_first_line(e)}") from None
    if revision is not None and not known_revision(revision):
        raise ValueError(f"the database at {shown} has schema revision {revision!r}, which this qipai does not "
                         f"know (its newest is {newest_revision()!r}): a newer qipai made it; run that one, or "
                         "give another database")


def check_services(settings: Settings, timeout: float = CONNECT_TIMEOUT) -> None:
    """Raise a one-line :class:`ValueError` for what the start-up would otherwise fail on with a traceback
    after migrating and restoring tables: an address it cannot listen on; a Redis server it cannot reach; a
    node id a running node of the cluster already has; a database another server holds (two servers without
    a cluster on one database, or one without and a cluster); a PostgreSQL schema (``--database-schema``)
    that does not exist.  Call it after :func:`check_database`."""
    import asyncio

    _check_listen(settings)
    if settings.redis_url is not None:
        _check_redis(settings, timeout)

    async def held() -> None:
        from sqlalchemy import text
        from sqlalchemy.engine import make_url

        from ..store.db import unpooled_engine
        from ..store.repo import StoreInUse, advisory_lock, lock_file

        alone = settings.redis_url is None
        sql = make_url(settings.db_url())
        try:
            if sql.get_backend_name() == "sqlite":
                if sql.database and Path(sql.database).is_file():  # (a new database: nobody holds it)
                    lock_file(sql.database, alone, settings.cluster_key()).close()
                return
            schema = settings.database_schema
            # one connection, closed in full here (a pooled one left a transport to the garbage collector, whose
            # finaliser could swallow a Ctrl-C sent right after start-up)
            engine = unpooled_engine(sql, schema)
            try:
                async with engine.connect() as conn:
                    if schema:
                        found = await conn.execute(text("SELECT 1 FROM information_schema.schemata "
                                                        "WHERE schema_name = :s"), {"s": schema})
                        if found.scalar() is None:
                            raise ValueError(f"--database-schema {schema!r}: the database has no such schema; "
                                             "create it (CREATE SCHEMA …) or leave the option out")
                    await advisory_lock(conn, alone, settings.cluster_key())  # released as the connection closes
            finally:
                await engine.dispose()
        except StoreInUse as e:
            raise ValueError(str(e)) from None

    asyncio.run(held())
    if settings.redis_url is not None:
        _check_cluster_database(settings, timeout)
    import gc

    gc.collect()  # what the checks left is finalised now, not when a signal may arrive during the finaliser


def _check_listen(settings: Settings) -> None:
    if settings.port == 0:
        return
    where = f"{settings.host}:{settings.port}"
    try:
        infos = socket.getaddrinfo(settings.host, settings.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror:
        raise ValueError(f"--host {settings.host!r} is no address of this machine") from None
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            s.bind(addr)
        except OSError as e:
            reason = "the port is in use" if e.errno == errno.EADDRINUSE else (e.strerror or str(e)).lower()
            raise ValueError(f"cannot listen on {where}: {reason}") from None


def _check_redis(settings: Settings, timeout: float) -> None:
    """Redis answers, and no running node of the cluster has this node's id (a crashed node's presence runs
    out within a lease: wait that long before calling the id taken)."""
    import time

    import redis

    shown = re.sub(r"(//[^/@]*?:)[^/@]*@", r"\1***@", str(settings.redis_url))
    r = redis.Redis.from_url(str(settings.redis_url), socket_connect_timeout=timeout, socket_timeout=timeout)
    try:
        r.ping()
        key = f"{settings.redis_prefix}node:{settings.node_id}"
        end = time.monotonic() + settings.lease_seconds + 1
        while r.exists(key):
            if time.monotonic() > end:
                raise ValueError(f"--node-id {settings.node_id!r} is in use by a running node of the cluster "
                                 f"(Redis at {shown}): give every node its own id")
            time.sleep(0.25)
    except redis.RedisError as e:
        raise ValueError(f"cannot reach Redis at {shown}: {_first_line(e)}") from None
    finally:
        r.close()


def _database_id(settings: Settings, timeout: float) -> str | None:
    """The database's own id (``meta.database_id``), ``None`` for a database without one yet (new, or made by a
    qipai before migration 0010)."""
    import asyncio

    from sqlalchemy import inspect, text
    from sqlalchemy.engine import make_url

    from ..store.db import unpooled_engine

    url = make_url(settings.db_url())
    sqlite = url.get_backend_name() == "sqlite"
    if sqlite and (not url.database or not Path(url.database).is_file()):
        return None

    async def read() -> str | None:
        engine = unpooled_engine(url, None if sqlite else settings.database_schema)
        try:
            async with asyncio.timeout(timeout), engine.connect() as conn:
                if not await conn.run_sync(lambda c: inspect(c).has_table("meta")):
                    return None
                found = await conn.execute(text("SELECT value FROM meta WHERE key = 'database_id'"))
                return found.scalar()
        finally:
            await engine.dispose()

    return asyncio.run(read())


def _check_cluster_database(settings: Settings, timeout: float) -> None:
    """No running node of the cluster (the same Redis and prefix) runs on another database: a node on another
    one would seat its own accounts in the cluster's tables by their ids."""
    import redis

    from ..host.cluster import database_refusal

    mine = _database_id(settings, timeout)
    prefix = settings.redis_prefix
    r = redis.Redis.from_url(str(settings.redis_url), socket_connect_timeout=timeout, socket_timeout=timeout,
                             decode_responses=True)
    try:
        members: set[str] = r.smembers(f"{prefix}nodes")  # type: ignore[assignment]
        ids = sorted(members)
        raws: list[str | None] = [r.get(f"{prefix}node:{nid}") for nid in ids]  # type: ignore[misc]
        why = database_refusal(zip(ids, raws, strict=True), settings.node_id, mine, prefix)
        if why is not None:
            raise ValueError(why)
    except redis.RedisError as e:
        raise ValueError(f"cannot reach Redis: {_first_line(e)}") from None
    finally:
        r.close()


def _first_line(error: object) -> str:
    """The first line of an error's text, or its class's name when it has none."""
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def serve(settings: Settings | None = None, **overrides: Any) -> None:
    """Run the server until interrupted.  ``overrides`` are :class:`Settings` fields (from CLI flags);
    unset ones come from ``QIPAI_*`` environment variables, then the defaults."""
    settings = settings or Settings.from_env(**overrides)
    Server(make_config(settings)).run()
