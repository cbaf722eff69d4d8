"""``qipai users …``: the operator's account commands, run while a server runs on the same database (SQLite and
PostgreSQL) — a forgotten password set anew (the old sessions end, their sockets close at the next session
check), an account blocked (no log-in, socket closed, its seat in auto-play to the end of the deal, which
settles) and unblocked, the list, and the refusals (one line each, never a traceback, never the URL's
password)."""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner, Result
from websockets.asyncio.client import connect

from qipai.cli import app
from qipai.host.table import TableError
from qipai.server import auth
from qipai.store import Store

from server_helpers import Client, Database, LiveServer, StartServer, private_table, st_of

CHECK_EVERY = 0.2
"""The servers' session check interval here (30 s by default)."""


def qipai_users(db: Database, *args: str, stdin: str | None = None) -> Result:
    flags = ["--database-url", db.url, *(["--database-schema", db.schema] if db.schema else [])]
    return CliRunner().invoke(app, ["users", *args, *flags], input=stdin)


async def users(db: Database, *args: str, stdin: str | None = None) -> Result:
    """``qipai users ARGS`` on the test's database, in this process (in a thread: it runs an event loop of its
    own, and opens the database on its own, as another process would)."""
    return await asyncio.to_thread(qipai_users, db, *args, stdin=stdin)


def refused(r: Result, *words: str, code: int = 1) -> None:
    """One line on standard error, saying ``words``; no traceback."""
    assert r.exit_code == code, (r.exit_code, r.output)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    assert "Traceback" not in r.output


async def log_in(server: LiveServer, name: str, password: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.http) as h:
        return await h.post("/api/login", json={"name": name, "password": password})


def code_of(r: httpx.Response) -> str:
    return str(r.json()["error"]["code"])


async def test_set_password_ends_every_session(db: Database, start_server: StartServer) -> None:
    server = await start_server(session_check_every=CHECK_EVERY)
    alice = await Client.register(server, "alice", "old-password")
    await alice.connect()
    second = await log_in(server, "Alice", "old-password")
    assert second.status_code == 200
    r = await users(db, "set-password", "ALICE", "--password-stdin", stdin="new-password\n")
    assert r.exit_code == 0, r.output
    assert "password of alice (#" in r.stdout and "2 sessions ended" in r.stdout, r.stdout
    # the open socket closes at the server's next session check
    closed = await alice.wait_for(lambda m: m["type"] == "closed_session", timeout=CHECK_EVERY * 10 + 2)
    assert closed["reason"] == "session_expired"
    await alice.wait_for(lambda m: m["type"] == "_closed")
    alice.violations.clear()
    for token in (alice.token, second.json()["token"]):
        async with httpx.AsyncClient(base_url=server.http, headers={"Authorization": f"Bearer {token}"}) as h:
            assert (await h.get("/api/me")).status_code == 401
    old = await log_in(server, "alice", "old-password")
    assert old.status_code == 401 and code_of(old) == "bad_login"
    new = await log_in(server, "alice", "new-password")
    assert new.status_code == 200 and new.json()["user"]["name"] == "alice"
    # the rules are registration's
    refused(await users(db, "set-password", "alice", "--password-stdin", stdin="short\n"), "6 to 128 characters")
    refused(await users(db, "set-password", "alice", "--password-stdin", stdin="one-line\ntwo-lines\n"), "one line")
    refused(await users(db, "set-password", "alice"), "--password-stdin")  # no terminal to ask on
    assert (await log_in(server, "alice", "new-password")).status_code == 200


async def test_block_closes_the_socket_and_the_seat_plays_on(db: Database, start_server: StartServer) -> None:
    server = await start_server(session_check_every=CHECK_EVERY, next_deal_delay=30)
    (alice, bob), table = await private_table(server, "classic-1", ["alice", "bob"], {}, bots=True)
    bob_id = bob.user["id"]
    seat = server.lobby.tables[table].seat_of(bob_id)
    # the deal runs: bob does not act, so it waits for him
    await bob.wait_for(lambda m: st_of(m) is not None)
    playing = asyncio.create_task(alice.play_until_over(timeout=90))
    r = await users(db, "block", "bob", "--reason", "  rude   in chat ")
    assert r.exit_code == 0, r.output
    assert "bob (#" in r.stdout and "blocked since" in r.stdout and "(rude in chat)" in r.stdout, r.stdout
    assert "1 session ended" in r.stdout
    closed = await bob.wait_for(lambda m: m["type"] == "closed_session", timeout=CHECK_EVERY * 10 + 2)
    assert closed["reason"] == "account_blocked"
    await bob.wait_for(lambda m: m["type"] == "_closed")
    bob.violations.clear()
    # his seat goes to auto-play, as for a disconnection, and the deal finishes and settles
    await alice.wait_for(lambda m: (st := st_of(m)) is not None and st["autoplay"][seat], timeout=10)
    over = await playing
    deal = await alice.get(f"/api/deals/{over['deal']}")
    assert deal["status"] == "over" and deal["seats"][seat]["user_id"] == bob_id
    store: Store = server.lobby.store
    standing = await store.standing(bob_id, "doudizhu", 0)
    assert standing.games_played == 1 and standing.points == 1000 + deal["outcome"]["scores"][seat]
    check = await store.ledger_check("doudizhu")
    assert check["points"] == check["ledger"]
    # no log-in (told only with the right password), no session, no socket, no seat, no match
    blocked = await log_in(server, "bob", "secret-pw")
    assert blocked.status_code == 403 and code_of(blocked) == "account_blocked"
    wrong = await log_in(server, "bob", "not-his-pw")
    assert wrong.status_code == 401 and code_of(wrong) == "bad_login"
    token, digest = auth.new_token()  # a session that slipped through (made as the block was written)
    await store.add_token(digest, bob_id, datetime.now(UTC) + timedelta(days=1))
    async with httpx.AsyncClient(base_url=server.http, headers={"Authorization": f"Bearer {token}"}) as h:
        me = await h.get("/api/me")
        assert me.status_code == 403 and code_of(me) == "account_blocked"
        reg = await h.post("/api/matches/any/register", json={})
        assert reg.status_code == 403 and code_of(reg) == "account_blocked"
    async with connect(server.ws, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        first = json.loads(await ws.recv())
        assert first["type"] == "error" and first["code"] == "account_blocked"
    assert await store.token_alive([digest]) == set()  # and a running server's session check closes its sockets
    with pytest.raises(TableError) as e:
        await server.lobby.quick_match(bob_id, "classic-1")
    assert e.value.code == "account_blocked"
    # the list shows it; unblocking lets him log in again
    listed = await users(db, "list", "--name", "bo?")
    assert listed.exit_code == 0, listed.output
    row = next(line for line in listed.stdout.splitlines() if " bob " in line)
    assert "registered" in row and "since " in row and "rude in chat" in row and "doudizhu:" in row
    again = await users(db, "block", "#" + str(bob_id))
    assert again.exit_code == 0 and "was blocked already" in again.stdout, again.output
    r = await users(db, "unblock", "BOB")
    assert r.exit_code == 0 and "unblocked bob (#" in r.stdout, r.output
    assert (await log_in(server, "bob", "secret-pw")).status_code == 200
    r = await users(db, "unblock", "bob")
    assert r.exit_code == 0 and "is not blocked: nothing to do" in r.stdout, r.output
    await alice.close()


async def test_list_shows_kinds_points_and_blocks(db: Database, server: LiveServer) -> None:
    alice = await Client.register(server, "alice")
    await alice.get("/api/me")
    guest = await Client.guest(server)
    store: Store = server.lobby.store
    await store.standing(alice.user["id"], "doudizhu", 1000)
    bot = await store.bot_account("random")
    assert (await users(db, "block", guest.user["name"])).exit_code == 0  # a misbehaving guest may be blocked
    r = await users(db, "list")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].split()[:3] == ["ID", "NAME", "KIND"]
    rows = {line.split()[1]: line for line in lines[1:]}
    assert rows["alice"].split()[2] == "registered" and "doudizhu:1000" in rows["alice"]
    assert " no " in rows["alice"]  # not blocked
    assert rows[guest.user["name"]].split()[2] == "guest" and "since " in rows[guest.user["name"]]
    assert rows[bot.name].split()[2] == "bot"
    r = await users(db, "list", "--json", "--name", "ALI")
    found = [json.loads(line) for line in r.stdout.splitlines()]
    assert [x["name"] for x in found] == ["alice"] and found[0]["kind"] == "registered"
    assert found[0]["points"] == {"doudizhu": 1000} and found[0]["sessions"] == 1 and found[0]["last_login"]
    # the last log-in stays when the sessions end (it read "-" after a block, as if she had never logged in)
    assert (await users(db, "block", "alice")).exit_code == 0
    r = await users(db, "list", "--json", "--name", "alice")
    after = json.loads(r.stdout.splitlines()[0])
    assert after["sessions"] == 0 and after["last_login"] == found[0]["last_login"], after
    assert (await users(db, "unblock", "alice")).exit_code == 0
    r = await users(db, "list", "--limit", "1")
    assert r.exit_code == 0 and "(1 of " in r.stdout and len(r.stdout.splitlines()) == 3, r.output
    r = await users(db, "list", "--name", "nobody*")
    assert r.exit_code == 0 and "no accounts" in r.stdout
    # unblocking the guest does not promise a log-in a guest cannot make (no password; its sessions ended)
    r = await users(db, "unblock", guest.user["name"])
    assert r.exit_code == 0 and "cannot log in again" in r.stdout and "may log in" not in r.stdout, r.output


async def test_refusals_are_one_line(db: Database, server: LiveServer) -> None:
    guest = await Client.guest(server)
    bot = await server.lobby.store.bot_account("random")
    refused(await users(db, "set-password", "nobody", "--password-stdin", stdin="pw-123456\n"),
            "no account called 'nobody'")
    refused(await users(db, "block", "nobody"), "no account called 'nobody'")
    refused(await users(db, "unblock", "#999999"), "no account called '#999999'")
    refused(await users(db, "set-password", bot.name, "--password-stdin", stdin="pw-123456\n"), "a bot's account")
    refused(await users(db, "block", bot.name), "a bot's account")
    refused(await users(db, "set-password", guest.user["name"], "--password-stdin", stdin="pw-123456\n"),
            "is a guest", "saves the account first")
    refused(await users(db, "block", "x", "--reason", "y" * 201), "at most 200")


async def test_no_database_and_the_password_is_never_shown(tmp_path: Path) -> None:
    r = await asyncio.to_thread(CliRunner().invoke, app, ["users", "list", "--data-dir", str(tmp_path / "none")])
    refused(r, "no database at sqlite+aiosqlite:///", "--data-dir", "qipai serve")
    url = "postgresql+asyncpg://qipai:sekrit-pw@127.0.0.1:1/club"
    r = await asyncio.to_thread(CliRunner().invoke, app, ["users", "block", "bob", "--database-url", url])
    refused(r, "postgresql+asyncpg://qipai:***@127.0.0.1:1/club")
    assert "sekrit" not in r.output
    # a database of an older schema is not upgraded under a running server: the server does that
    from qipai.store.db import make_engine, upgrade

    old = Database(f"sqlite+aiosqlite:///{tmp_path / 'old.db'}")
    engine = make_engine(old.url)
    await upgrade(engine, "0008")
    await engine.dispose()
    refused(await users(old, "list"), "schema revision '0008'", "qipai serve")


def test_set_password_asks_twice_without_echo(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'qipai.db'}")

    async def make() -> int:
        store = await Store.open(db.url)
        try:
            return (await store.create_user("carol", await auth.hash_password("first-pw"))).id
        finally:
            await store.close()

    uid = asyncio.run(make())
    child = pexpect.spawn(sys.executable, ["-m", "qipai.cli", "users", "set-password", "carol", "--database-url",
                                           db.url], encoding="utf-8", timeout=60, env={"LANG": "C.UTF-8",
                                                                                       "PATH": "/usr/bin:/bin"})
    child.expect("New password: ")
    child.sendline("second-pw")
    child.expect("Repeat for confirmation: ")
    child.sendline("second-pw")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert "second-pw" not in (child.before or "") and "password of carol" in (child.before or "")

    async def check() -> bool:
        store = await Store.open(db.url)
        try:
            return await auth.verify_password(await store.password_hash(uid), "second-pw")
        finally:
            await store.close()

    assert asyncio.run(check())


async def test_sqlite_waits_for_the_servers_write(tmp_path: Path) -> None:
    """SQLite has one writer: a command's write waits (busy timeout) for another process's write to end, instead
    of failing with "database is locked"."""
    import sqlite3

    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'qipai.db'}")
    store = await Store.open(db.url)
    await store.create_user("dave", await auth.hash_password("first-pw"))
    await store.close()
    held = sqlite3.connect(tmp_path / "qipai.db", isolation_level=None)
    held.execute("BEGIN IMMEDIATE")  # as a server's transaction holds the write lock
    held.execute("UPDATE users SET name = name")
    blocking = asyncio.create_task(users(db, "block", "dave"))
    await asyncio.sleep(1.0)
    assert not blocking.done()
    held.execute("COMMIT")
    held.close()
    r = await blocking
    assert r.exit_code == 0 and "dave (#1) blocked since" in r.stdout, r.output


async def test_purge_deletes_expired_sessions_and_unused_guests_only(db: Database, server: LiveServer) -> None:
    """``qipai users purge``: expired tokens go; a guest goes only when it is old, can never log in again (no
    live session) and nothing refers to it; a guest whose points changed, a live one, a new one and registered
    accounts stay; the ledger still adds up."""
    from sqlalchemy import func, select, update

    from qipai.store.models import LedgerEntry, Token, User, UserGame

    store: Store = server.lobby.store
    alice = await Client.register(server, "alice")
    unused, played, live, new = [await Client.guest(server) for _ in range(4)]
    for g in (unused, played, live, new, alice):
        await store.standing(g.user["id"], "doudizhu", 1000)
    await store.grant(played.user["id"], "doudizhu", 50, "relief")
    long_ago = datetime.now(UTC) - timedelta(days=40)
    old_ids = [g.user["id"] for g in (unused, played, live, alice)]
    expired_ids = [g.user["id"] for g in (unused, played, new, alice)]
    async with store.sessions.begin() as s:
        await s.execute(update(User).where(User.id.in_(old_ids)).values(created_at=long_ago))
        await s.execute(update(Token).where(Token.user_id.in_(expired_ids)).values(expires_at=long_ago))

    async def count(model: Any, uid: int) -> int:
        async with store.sessions() as s:
            return int(await s.scalar(select(func.count()).select_from(model).where(model.user_id == uid)) or 0)

    dry = await users(db, "purge", "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert "would delete 1 unused guest account" in dry.stdout and f"(#{unused.user['id']})" in dry.stdout
    assert await store.user(unused.user["id"]) is not None and await count(Token, unused.user["id"]) == 1
    r = await users(db, "purge")
    assert r.exit_code == 0, r.output
    assert "deleted 4 expired sessions and 1 unused guest account" in r.stdout, r.stdout
    assert unused.user["name"] in r.stdout
    assert await store.user(unused.user["id"]) is None
    assert await count(UserGame, unused.user["id"]) == 0 and await count(LedgerEntry, unused.user["id"]) == 0
    for kept in (played, live, new, alice):
        assert await store.user(kept.user["id"]) is not None
    assert await count(Token, live.user["id"]) == 1 and await count(Token, alice.user["id"]) == 0
    assert (await store.standing(played.user["id"], "doudizhu", 0)).points == 1050
    check = await store.ledger_check("doudizhu")
    assert check["points"] == check["ledger"]
    # the live guest still plays on; nothing more to delete
    assert (await live.get("/api/me"))["name"] == live.user["name"]
    again = await users(db, "purge", "--guests-older-than", "1")
    assert again.exit_code == 0 and "deleted 0 expired sessions and 0 unused guest accounts" in again.stdout
    bad = await users(db, "purge", "--guests-older-than", "0")
    assert bad.exit_code == 2 and "--guests-older-than" in bad.output


async def test_a_server_deletes_expired_tokens_itself(db: Database, start_server: StartServer,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy import func, select, update

    from qipai.host import lobby
    from qipai.store.models import Token

    monkeypatch.setattr(lobby, "TOKEN_PURGE_EVERY", 0.0)
    server = await start_server(session_check_every=CHECK_EVERY)
    alice, bob = await Client.register(server, "alice"), await Client.register(server, "bob")
    store: Store = server.lobby.store
    async with store.sessions.begin() as s:
        await s.execute(update(Token).where(Token.user_id == alice.user["id"])
                        .values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    for _ in range(100):
        async with store.sessions() as s:
            left = int(await s.scalar(select(func.count()).select_from(Token)) or 0)
        if left == 1:
            break
        await asyncio.sleep(0.05)
    assert left == 1
    assert (await bob.get("/api/me"))["name"] == "bob"


def test_a_refused_command_does_not_write_into_a_file_without_qipai_tables(tmp_path: Path) -> None:
    """``users list`` on a 0-byte qipai.db refused ("holds no qipai tables") yet the file had grown to 4096 bytes
    (opening it set WAL journaling); a SQLite file of another program's tables was changed the same way."""
    import sqlite3

    empty = tmp_path / "qipai.db"
    empty.touch()
    r = CliRunner().invoke(app, ["users", "list", "--data-dir", str(tmp_path)])
    refused(r, "holds no qipai tables")
    assert empty.stat().st_size == 0
    other = tmp_path / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE notes (x)")
    con.commit()
    con.close()
    before = other.read_bytes()
    r = CliRunner().invoke(app, ["users", "block", "bob", "--database-url", f"sqlite+aiosqlite:///{other}"])
    refused(r, "holds no qipai tables")
    assert other.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["other.db", "qipai.db"]
