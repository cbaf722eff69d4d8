"""What ``serve`` checks before it starts (one line instead of a traceback after migrating and restoring
tables), and what a running server holds: the database against a second server without a cluster, a storage
probe that asks for a write."""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import threading
import uuid
from pathlib import Path

import pytest

from qipai.host.settings import Settings
from qipai.server.run import check_services, check_settings
from qipai.store import Store, StoreInUse

from server_helpers import Database, free_port

REDIS_URL = os.environ.get("QIPAI_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def settings_on(db: Database, **kw: object) -> Settings:
    return Settings(database_url=db.url, database_schema=db.schema, port=free_port(), **kw)  # type: ignore[arg-type]


async def test_a_second_server_without_a_cluster_is_refused(db: Database) -> None:
    """Two servers without --redis-url on one database would both restore and run the same tables."""
    first = await Store.open(db.url, schema=db.schema)
    try:
        await first.hold(alone=True)
        settings = settings_on(db)
        with pytest.raises(ValueError, match="another qipai server uses"):
            await asyncio.to_thread(check_services, settings)
        second = await Store.open(db.url, schema=db.schema, migrate=False)
        try:
            with pytest.raises(StoreInUse):
                await second.hold(alone=True)
            with pytest.raises(StoreInUse):  # nor a node of a cluster beside it
                await second.hold(alone=False)
        finally:
            await second.close()
    finally:
        await first.close()
    # once the first is closed the database is free again, and nodes of a cluster share it
    a = await Store.open(db.url, schema=db.schema, migrate=False)
    b = await Store.open(db.url, schema=db.schema, migrate=False)
    try:
        await a.hold(alone=False)
        await b.hold(alone=False)
    finally:
        await a.close()
        await b.close()


async def test_nodes_of_another_cluster_on_the_database_are_refused(db: Database) -> None:
    """A node started with another --redis-url or --redis-prefix beside a running cluster took over its tables
    and matches, which then went back and forth between the two (split brain, held off only by the fences)."""
    here = Settings(redis_url="redis://127.0.0.1:6379/9", redis_prefix="qt-one:").cluster_key()
    there = Settings(redis_url="redis://127.0.0.1:6379/10", redis_prefix="qt-one:").cluster_key()
    assert here and there and here != there
    a, b, c = [await Store.open(db.url, schema=db.schema, migrate=i == 0) for i in range(3)]
    try:
        await a.hold(alone=False, cluster=here)
        await b.hold(alone=False, cluster=here)  # the same cluster shares it
        with pytest.raises(StoreInUse, match=r"another cluster .*this node: redis://127\.0\.0\.1:6379/10 qt-one:"):
            await c.hold(alone=False, cluster=there)
        other = settings_on(db, redis_url="redis://127.0.0.1:6379/10", redis_prefix="qt-one:",
                            public_url="http://127.0.0.1:1", node_id=f"n{uuid.uuid4().hex[:8]}")
        with pytest.raises(ValueError, match="nodes of another cluster"):
            await asyncio.to_thread(check_services, other)
        same = settings_on(db, redis_url="redis://127.0.0.1:6379/9", redis_prefix="qt-one:",
                           public_url="http://127.0.0.1:1", node_id=f"n{uuid.uuid4().hex[:8]}")
        await asyncio.to_thread(check_services, same)  # another node of the running cluster: fine
    finally:
        for x in (a, b, c):
            await x.close()
    # the first cluster gone, the other may use the database
    d = await Store.open(db.url, schema=db.schema, migrate=False)
    try:
        await d.hold(alone=False, cluster=there)
    finally:
        await d.close()


async def test_a_node_on_another_database_with_the_clusters_redis_is_refused(db: Database, tmp_path: Path) -> None:
    """A node started on another database with a cluster's --redis-url and --redis-prefix joined it, and a player
    of that database was seated in the cluster's table as the cluster's account of the same id (another person)."""
    from qipai.host.cluster import RedisCluster

    prefix = f"qt{uuid.uuid4().hex[:10]}:"
    store = await Store.open(db.url, schema=db.schema)
    running = RedisCluster(REDIS_URL, "n1", "http://127.0.0.1:1", prefix=prefix)
    try:
        running.database_id = await store.database_id()
        assert running.database_id and len(running.database_id) == 32
        await running.start()  # the cluster's node, on `db`
        base = {"redis_url": REDIS_URL, "redis_prefix": prefix, "public_url": "http://127.0.0.1:2", "node_id": "n2"}
        elsewhere = Settings(data_dir=tmp_path / "new", port=free_port(), **base)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"node 'n1' of this cluster .* runs on another database"):
            await asyncio.to_thread(check_services, elsewhere)  # a new database: none of the cluster's
        other = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'other.db'}")
        try:
            assert await other.database_id() not in (None, running.database_id)  # each database its own
        finally:
            await other.close()
        on_other = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'other.db'}", port=free_port(),
                            **base)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="runs on another database"):  # nor an existing other one
            await asyncio.to_thread(check_services, on_other)
        joining = RedisCluster(REDIS_URL, "n3", "http://127.0.0.1:3", prefix=prefix)
        joining.database_id = "another"
        with pytest.raises(RuntimeError, match="runs on another database"):  # checked again as the node starts
            await joining.start()
        await joining.stop()
        same = settings_on(db, **base)
        await asyncio.to_thread(check_services, same)  # a node on the cluster's database: fine
    finally:
        await running.stop()
        await store.close()


def test_an_address_that_cannot_be_listened_on(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        taken = Settings(data_dir=tmp_path, host="127.0.0.1", port=port)
        with pytest.raises(ValueError, match=rf"^cannot listen on 127.0.0.1:{port}: the port is in use$"):
            check_services(taken)
    with pytest.raises(ValueError, match="is no address of this machine"):
        check_services(Settings(data_dir=tmp_path, host="999.1.1.1", port=free_port()))
    check_services(Settings(data_dir=tmp_path, host="127.0.0.1", port=free_port()))  # a fresh data dir: fine


def test_redis_that_cannot_be_reached_and_a_node_id_in_use(tmp_path: Path) -> None:
    import redis

    base = {"data_dir": tmp_path, "port": free_port(), "public_url": "http://127.0.0.1:1"}
    dead = f"redis://:secret@127.0.0.1:{free_port()}/0"
    with pytest.raises(ValueError, match=r"^cannot reach Redis at redis://:\*\*\*@127.0.0.1:\d+/0: ") as e:
        check_services(Settings(redis_url=dead, **base), timeout=1)  # type: ignore[arg-type]
    assert "secret" not in str(e.value)
    prefix = f"qt{uuid.uuid4().hex[:10]}:"
    r = redis.Redis.from_url(REDIS_URL)
    try:
        r.set(f"{prefix}node:n1", "{}", px=60_000)  # a running node's presence
        live = Settings(redis_url=REDIS_URL, redis_prefix=prefix, node_id="n1", lease_seconds=0.5,
                        **base)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="--node-id 'n1' is in use by a running node"):
            check_services(live)
        r.set(f"{prefix}node:n1", "{}", px=300)  # a crashed node's presence runs out within its lease: fine
        check_services(live)
    finally:
        r.delete(f"{prefix}node:n1")
        r.close()


def test_a_cluster_node_needs_its_public_url(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="--public-url is needed with --redis-url"):
        check_settings(Settings(data_dir=tmp_path, redis_url=REDIS_URL))


async def test_a_schema_that_does_not_exist(pg_db: Database) -> None:
    settings = Settings(database_url=pg_db.url, database_schema="nosuch", port=free_port())
    with pytest.raises(ValueError, match="--database-schema 'nosuch': the database has no such schema"):
        await asyncio.to_thread(check_services, settings)


async def test_the_storage_probe_asks_for_a_write(tmp_path: Path) -> None:
    """A read answers while another process holds SQLite's write lock; the probe must not call that recovered."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'q.db'}"
    store = await Store.open(url, busy_ms=100)
    try:
        await store.ping()
        held = threading.Event()
        done = threading.Event()

        def lock() -> None:
            c = sqlite3.connect(tmp_path / "q.db")
            c.execute("BEGIN EXCLUSIVE")
            held.set()
            done.wait(10)
            c.rollback()
            c.close()

        th = threading.Thread(target=lock)
        th.start()
        held.wait(5)
        try:
            with pytest.raises(Exception, match="locked"):
                await store.ping()
        finally:
            done.set()
            th.join()
        await store.ping()
    finally:
        await store.close()
