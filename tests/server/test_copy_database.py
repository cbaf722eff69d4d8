"""``qipai copy-database``: a club's SQLite database, made by a real server, moved to PostgreSQL and served from
there (same passwords, points, history, records, match entries, tables; new rows get new ids); back to SQLite;
the refusals (each one line, nothing written); an interrupted copy leaves the target as it was."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, inspect, select
from typer.testing import CliRunner, Result

from qipai.cli import app
from qipai.store import Store
from qipai.store.copy import OWN_TABLES, CopyRefused, Side, copy_database
from qipai.store.db import make_engine, newest_revision, upgrade
from qipai.store.models import Base

from server_helpers import Client, Database, LiveServer, fast_settings


class Alias(Side):
    """A URL that names the same database as another in a way :meth:`Side.key` cannot see."""

    def key(self) -> tuple[str]:
        return ("alias",)


def qipai(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


async def copy(*args: str) -> Result:
    """``qipai copy-database ARGS`` in this process (in a thread: it runs an event loop of its own)."""
    return await asyncio.to_thread(qipai, "copy-database", *args)


async def counts(db: Database) -> dict[str, int]:
    engine = make_engine(db.url, schema=db.schema)
    try:
        async with engine.connect() as conn:
            return {t.name: int((await conn.execute(select(func.count()).select_from(t))).scalar() or 0)
                    for t in Base.metadata.sorted_tables if t.name not in OWN_TABLES}
    finally:
        await engine.dispose()


async def table_names(db: Database) -> list[str]:
    engine = make_engine(db.url, schema=db.schema)
    try:
        async with engine.connect() as conn:
            return list(await conn.run_sync(lambda c: inspect(c).get_table_names()))
    finally:
        await engine.dispose()


def sqlite_path(db: Database) -> str:
    return db.url.removeprefix("sqlite+aiosqlite:///")


async def login(server: LiveServer, name: str, password: str) -> Client:
    async with httpx.AsyncClient(base_url=server.http) as h:
        r = await h.post("/api/login", json={"name": name, "password": password})
        assert r.status_code == 200, r.text
        data = r.json()
    return Client(server, data["token"], data["user"])


async def test_a_sqlite_club_moves_to_postgresql_and_back(tmp_path: Path, pg_db: Database) -> None:
    src = Database(f"sqlite+aiosqlite:///{tmp_path / 'qipai.db'}")
    # ---- a club on SQLite: accounts (one a guest), a played deal, a match entry, tables between deals
    server = await LiveServer(fast_settings(src, matches="quick_sit_and_go", next_deal_delay=60)).start()
    alice = await Client.register(server, "alice", "alice-pw")
    guest = await Client.guest(server)
    bob = await Client.register(server, "bob", "bob-pw")
    await alice.connect()
    await alice.send({"type": "quick_match", "room": "classic-1", "id": "q"})
    joined = await alice.wait_for(lambda m: m["type"] == "joined")
    over = await alice.play_until_over()
    deal_id = over["deal"]
    matches = (await alice.get("/api/matches?status=open"))["matches"]
    mid = matches[0]["id"]
    await alice.post(f"/api/matches/{mid}/register")
    made = await bob.post("/api/tables", {"room": "classic-1"})  # a private table waiting for players
    before = {
        "me": await alice.get("/api/me"),
        "history": await alice.get("/api/history"),
        "record": await alice.get(f"/api/deals/{deal_id}"),
        "matches": await alice.get("/api/matches/mine"),
        "guest": await guest.get("/api/me"),
    }
    assert before["history"]["deals"] and before["matches"]["matches"][0]["match"] == mid

    # the source is refused while its server runs, and nothing is made at the target
    refused = await copy("--from", sqlite_path(src), "--to", str(tmp_path / "early.db"))
    assert refused.exit_code == 1 and "in use by a running qipai server" in refused.stderr, refused.output
    assert len(refused.stderr.strip().splitlines()) == 1 and not (tmp_path / "early.db").exists()
    await alice.close()
    await server.stop()

    # ---- the copy
    source_counts = await counts(src)
    assert source_counts["deals"] >= 1 and source_counts["journal"] > 0 and source_counts["match_players"] == 1
    out = await copy("--from", src.url, "--to", pg_db.url)
    assert out.exit_code == 0, out.output
    assert "copied" in out.stdout and "row count matches" in out.stdout
    shown = {line.split()[0]: int(line.split()[1].replace(",", "")) for line in out.stdout.splitlines()
             if line.startswith("  ")}
    assert shown == source_counts
    assert await counts(pg_db) == source_counts
    # the copy is another database: its own id, so that a node on it is no node of the source's cluster
    ids = []
    for side in (src, pg_db):
        s = await Store.open(side.url, schema=side.schema, migrate=False)
        try:
            ids.append(await s.database_id())
        finally:
            await s.close()
    assert None not in ids and ids[0] != ids[1]

    # ---- served from PostgreSQL
    target = await LiveServer(fast_settings(pg_db, matches="quick_sit_and_go", next_deal_delay=60)).start()
    try:
        a = await login(target, "alice", "alice-pw")
        assert a.user["id"] == alice.user["id"]
        assert await a.get("/api/me") == before["me"]
        assert await a.get("/api/history") == before["history"]
        assert await a.get(f"/api/deals/{deal_id}") == before["record"]
        steps = (await a.get(f"/api/deals/{deal_id}/replay"))["steps"]
        assert steps[-1]["observation"]["outcome"] == over["outcome"]
        assert await a.get("/api/matches/mine") == before["matches"]
        g = Client(target, guest.token, guest.user)  # the guest's session still works: tokens came along
        assert await g.get("/api/me") == before["guest"]
        b = await login(target, "bob", "bob-pw")
        assert (await b.get(f"/api/tables/{made['table']}"))["id"] == made["table"]
        assert (await a.get(f"/api/tables/{joined['table']}"))["id"] == joined["table"]
        # new rows: every id sequence was moved past the copied ids
        carol = await Client.register(target, "carol", "carol-pw")
        assert carol.user["id"] > max(alice.user["id"], bob.user["id"], guest.user["id"])
        await carol.connect()
        await carol.send({"type": "quick_match", "room": "classic-1", "id": "q2"})
        await carol.wait_for(lambda m: m["type"] == "joined")
        second = await carol.play_until_over()
        assert second["deal"] > deal_id
        hist = (await carol.get("/api/history"))["deals"]
        assert [d["deal_id"] for d in hist] == [second["deal"]]
        await carol.close()
        dave = await Client.register(target, "dave", "dave-pw")
        new_table = await dave.post("/api/tables", {"room": "classic-1"})
        assert new_table["table"] not in (made["table"], joined["table"])
        # a running server's database is refused as a target too
        refused = await copy("--from", src.url, "--to", pg_db.url)
        assert refused.exit_code == 1 and "in use by a running qipai server" in refused.stderr, refused.output
    finally:
        await target.stop()
    # ... and once it stopped, it holds data
    refused = await copy("--from", src.url, "--to", pg_db.url)
    assert refused.exit_code == 1 and "already holds data" in refused.stderr, refused.output
    # the same PostgreSQL database under a name the URLs do not tell apart is found out (by the lock it holds)
    with pytest.raises(CopyRefused, match="the same database"):
        await copy_database(Alias.of(pg_db.url), Side.of(pg_db.url, role="target"))

    # ---- and back: PostgreSQL to SQLite, then SQLite to SQLite (a backup), the same rows
    back = Database(f"sqlite+aiosqlite:///{tmp_path / 'back.db'}")
    pg_counts = await counts(pg_db)
    out = await copy("--from", pg_db.url, "--to", sqlite_path(back))
    assert out.exit_code == 0, out.output
    assert await counts(back) == pg_counts
    backup = Database(f"sqlite+aiosqlite:///{tmp_path / 'backup.db'}")
    out = await copy("--from", sqlite_path(back), "--to", backup.url)
    assert out.exit_code == 0, out.output
    assert await counts(backup) == pg_counts
    with sqlite3.connect(tmp_path / "backup.db") as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [(newest_revision(),)]
    # the rows the club had are there as they were, byte for byte after two copies: ids, times, JSON text (a
    # JSON null, as the store writes for a table without tags, stays one; an SQL NULL stays one)
    with sqlite3.connect(tmp_path / "qipai.db") as old, sqlite3.connect(tmp_path / "backup.db") as new:
        assert old.execute("SELECT count(*) FROM tables WHERE tags = 'null'").fetchone()[0] >= 1
        top = max(alice.user["id"], bob.user["id"], guest.user["id"])
        for sql, args in (
                # (but for the last log-in: alice and bob logged in on PostgreSQL meanwhile)
                ("SELECT id, name, name_key, password_hash, is_guest, created_at, is_bot, blocked_at, blocked_reason "
                 "FROM users WHERE id <= ? ORDER BY id", (top,)),
                ("SELECT * FROM deals WHERE id <= ? ORDER BY id", (deal_id,)),
                ("SELECT * FROM journal WHERE deal_id <= ? ORDER BY id", (deal_id,)),
                ("SELECT * FROM deal_players WHERE deal_id <= ? ORDER BY id", (deal_id,)),
                ("SELECT * FROM ledger WHERE id <= 3 ORDER BY id", ()),
                ("SELECT id, game, options, tags, created_by, created_at FROM tables WHERE id IN (?, ?) ORDER BY id",
                 (made["table"], joined["table"]))):
            rows = old.execute(sql, args).fetchall()
            assert rows and new.execute(sql, args).fetchall() == rows, sql


async def test_refusals_write_nothing(tmp_path: Path, pg_db: Database) -> None:
    src = tmp_path / "qipai.db"
    store = await Store.open(f"sqlite+aiosqlite:///{src}")
    await store.create_user("someone", "hash")
    await store.close()

    async def refused(*args: str) -> str:
        r = await copy(*args)
        assert r.exit_code in (1, 2), r.output
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), r.output
        return lines[0]

    # the same database, however spelled
    assert "the same database" in await refused("--from", str(src), "--to", f"sqlite+aiosqlite:///{tmp_path}/./qipai.db")
    alias = pg_db.url.replace("127.0.0.1", "localhost")
    assert "the same database" in await refused("--from", pg_db.url, "--to", alias)
    # not a qipai database: another SQLite database, a file that is no database, no file at all
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (x TEXT)")
    assert "not a qipai database" in await refused("--from", str(other), "--to", str(tmp_path / "t1.db"))
    (tmp_path / "text.db").write_text("hello")
    assert "cannot open" in await refused("--from", str(tmp_path / "text.db"), "--to", str(tmp_path / "t2.db"))
    assert "no source database" in await refused("--from", str(tmp_path / "nope.db"), "--to", str(tmp_path / "t3.db"))
    # a folder for either (the target's was a traceback from the driver)
    (tmp_path / "folder").mkdir()
    assert "is a folder" in await refused("--from", str(src), "--to", str(tmp_path / "folder"))
    assert "is a folder" in await refused("--from", str(tmp_path / "folder"), "--to", str(tmp_path / "t3.db"))
    # an empty PostgreSQL database is no qipai database either
    assert "not a qipai database" in await refused("--from", pg_db.url, "--to", str(tmp_path / "t4.db"))
    # an older schema: upgrade it first
    old = tmp_path / "old.db"
    engine = make_engine(f"sqlite+aiosqlite:///{old}")
    await upgrade(engine, "0007")
    await engine.dispose()
    line = await refused("--from", str(old), "--to", str(tmp_path / "t5.db"))
    assert "older than this qipai's" in line and "qipai serve" in line
    # a database that cannot be reached: said without its password
    line = await refused("--from", str(src), "--to", "postgresql+asyncpg://qipai:sekrit@127.0.0.1:1/qipai")
    assert "cannot reach" in line and "sekrit" not in line and "***" in line
    # a target with data
    full = tmp_path / "full.db"
    store = await Store.open(f"sqlite+aiosqlite:///{full}")
    await store.create_user("other", "hash")
    await store.close()
    assert "already holds data" in await refused("--from", str(src), "--to", str(full))
    # a schema for SQLite, a schema that is not there
    assert "--to-schema is for PostgreSQL" in await refused("--from", str(src), "--to", str(tmp_path / "t6.db"),
                                                            "--to-schema", "x")
    line = await refused("--from", str(src), "--to", pg_db.url, "--to-schema", "nope")
    assert "--to-schema 'nope': the target database has no such schema" in line
    for n in range(1, 7):
        assert not (tmp_path / f"t{n}.db").exists()
    # the empty PostgreSQL database is still empty: no table made
    assert await table_names(pg_db) == []


@pytest.mark.parametrize("when", ["schema", "users", "journal"])
async def test_an_interrupted_copy_leaves_the_target_as_it_was(tmp_path: Path, db: Database, when: str) -> None:
    """Cancelled (as Ctrl-C cancels ``asyncio.run``'s task) while creating the schema or part way through the
    tables: the target has no table (SQLite's DDL too), and a second try copies everything."""
    src = tmp_path / "source.db"
    store = await Store.open(f"sqlite+aiosqlite:///{src}")
    for i in range(5):
        await store.create_user(f"user{i}", "hash")
    await store.close()
    source = Side.of(f"sqlite+aiosqlite:///{src}")
    target = Side.of(db.url, db.schema, "target")
    stop = asyncio.Event()

    def progress(table: str, rows: int) -> None:
        if table == when:
            stop.set()

    task = asyncio.create_task(copy_database(source, target, progress=progress, batch=2,
                                             starting=stop.set if when == "schema" else None))
    await stop.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await table_names(db) == []
    done = dict(await copy_database(source, target))
    assert done["users"] == 5 and set(done) == {t.name for t in Base.metadata.sorted_tables} - OWN_TABLES
    with pytest.raises(CopyRefused, match="already holds data"):
        await copy_database(source, target)

