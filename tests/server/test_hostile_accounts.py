"""A hostile user's pass over accounts, sessions and records (names that draw as other names, reviews queued
without end, ...): each finding proved against a real server on SQLite (none depends on the storage)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from server_helpers import Client, Database, SqliteLock, standing_of_a_player


# ------------------------------------------------------------------------------ 1. names that draw nothing
async def test_a_name_may_not_hold_the_hangul_fillers_that_draw_nothing(start: Any) -> None:
    """The Hangul fillers (U+3164 ㅤ, U+FFA0, U+115F, U+1160) are letters to Unicode but draw nothing: ``ㅤㅤ``
    registered a blank name, and ``ㅤAlice01`` one drawn as ``Alice01`` under another key — at a table, in chat
    and on the leaderboard it passed for Alice01."""
    server = await start()
    async with httpx.AsyncClient(base_url=server.http) as h:
        assert (await h.post("/api/register", json={"name": "Alice01", "password": "secret-pw"})).status_code == 201
        for name in ("\u3164\u3164", "\u3164Alice01", "Alice01\u3164", "Ali\uffa0ce01", "\u115f\u1160ab",
                     "小明\u3164"):
            r = await h.post("/api/register", json={"name": name, "password": "secret-pw"})
            assert r.status_code == 400 and r.json()["error"]["params"]["reason"] == "invisible", (name, r.text)
        g = await h.post("/api/guest", json={})
        r = await h.post("/api/account", json={"name": "\u3164Alice01", "password": "secret-pw"},
                         headers={"Authorization": f"Bearer {g.json()['token']}"})
        assert r.status_code == 400 and r.json()["error"]["params"]["reason"] == "invisible", r.text
        # Korean names stay welcome
        assert (await h.post("/api/register", json={"name": "김철수", "password": "secret-pw"})).status_code == 201


# ------------------------------------------------------------------------------ 2. reviews queued without end
async def test_one_player_has_one_review_in_the_making_at_a_time(start: Any) -> None:
    """复盘 is seconds of a background process's work, one review at a time for the whole server, and a player
    of a deal may ask it for every seat: a player with a few hundred deals queued a thousand reviews with as
    many requests, and everybody else's review waited behind them (and the queue had no bound).  Now a player
    waits for one review before asking for another; asking again for the one being made only waits for it."""
    server = await start()
    a = await Client.guest(server)
    await a.connect()
    await a.send({"type": "quick_match", "room": "classic-1"})
    st = await a.wait_for(lambda m: m["type"] == "state")
    await a.play_until_over()
    deal = st["deal"]
    async with a.api() as h:
        first = asyncio.create_task(h.get(f"/api/deals/{deal}/review?seat=0&samples=10"))
        for _ in range(200):  # until it is being made
            if (deal, 0, 10) in server.lobby._reviews:
                break
            await asyncio.sleep(0.01)
        assert not first.done()
        r = await h.get(f"/api/deals/{deal}/review?seat=1&samples=10")
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited", r.text
        assert r.json()["error"]["params"]["deal"] == deal and r.json()["error"]["params"]["seat"] == 0
        again = await h.get(f"/api/deals/{deal}/review?seat=0&samples=10", timeout=120)  # the same one: it waits
        r0 = await first
        assert r0.status_code == 200 and again.status_code == 200 and again.json() == r0.json(), r0.text
        r = await h.get(f"/api/deals/{deal}/review?seat=1&samples=10", timeout=120)  # the first one is made
        assert r.status_code == 200 and r.json()["seat"] == 1, r.text
        r = await h.get(f"/api/deals/{deal}/review?seat=0&samples=10")  # made already: at once
        assert r.status_code == 200 and r.json() == r0.json()
        # the seat's review with the usual samples is its own (an opponent's quick one of the seat, made first,
        # was served to the seat's player as his, for as long as the server ran)
        r = await h.get(f"/api/deals/{deal}/review?seat=0", timeout=120)
        assert r.status_code == 200 and (deal, 0, 120) in server.lobby._reviews, r.text
    a.violations.clear()
    await a.close()


# ------------------------------------------------------------------------------ 3. an IPv6 client's addresses
async def test_an_ipv6_client_counts_as_its_64_network(start: Any) -> None:
    """Every limit per client address (log-ins, registrations and guests; the log-in backoff; wrong invite
    codes; WebSockets) counted each IPv6 address apart — but one home line is given a whole /64 (2^64
    addresses) and picks a new one per request at will: guests and accounts without end, and guesses at a
    password past the backoff of an address.  An IPv6 address now counts as its /64 (an IPv4-mapped one as
    the IPv4 address)."""
    server = await start(trusted_proxies=("127.0.0.1",), auth_rate_limit=0.05, login_backoff_after=2)
    await Client.register(server, "v6-owner", "right-pw")  # (before the limit is spent)
    async with httpx.AsyncClient(base_url=server.http) as h:
        codes = []
        for i in range(3):  # burst: 0.05 × 20 = 1 a /64
            r = await h.post("/api/guest", json={}, headers={"X-Forwarded-For": f"2001:db8:1:2::{i + 1:x}"})
            codes.append(r.status_code)
        assert codes == [201, 429, 429], codes
        r = await h.post("/api/guest", json={}, headers={"X-Forwarded-For": "2001:db8:1:3::1"})  # another /64
        assert r.status_code == 201, r.text
        r = await h.post("/api/guest", json={}, headers={"X-Forwarded-For": "::ffff:192.0.2.7"})
        assert r.status_code == 201, r.text
        r = await h.post("/api/guest", json={}, headers={"X-Forwarded-For": "192.0.2.7"})  # the same address
        assert r.status_code == 429, r.text
    # the log-in backoff of an account from a /64
    await server.stop()  # (two servers without a cluster may not share a database)
    server = await start(trusted_proxies=("127.0.0.1",), login_backoff_after=2)
    async with httpx.AsyncClient(base_url=server.http) as h:
        for i in range(2):
            r = await h.post("/api/login", json={"name": "v6-owner", "password": "wrong-pw"},
                             headers={"X-Forwarded-For": f"2001:db8:9:9::{i + 1}"})
            assert r.status_code == 401, r.text
        r = await h.post("/api/login", json={"name": "v6-owner", "password": "right-pw"},
                         headers={"X-Forwarded-For": "2001:db8:9:9:ffff::1"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "login_backoff", r.text
        r = await h.post("/api/login", json={"name": "v6-owner", "password": "right-pw"},
                         headers={"X-Forwarded-For": "2001:db8:9:a::1"})  # the owner, from another line
        assert r.status_code == 200, r.text


# ------------------------------------------------------------------------------ 4. blocked players ranked
async def test_a_blocked_account_leaves_the_leaderboard(start: Any) -> None:
    """An account the operator blocked (``qipai users block``: for cheating, say) kept its place on the
    leaderboards, at the top for ever if it cheated its way there; unblocked, it is back."""
    server = await start()
    store = server.lobby.store
    cheat = await Client.register(server, "cheater", "secret-pw")
    fair = await Client.register(server, "fairplayer", "secret-pw")
    await standing_of_a_player(store, cheat.user["id"], "doudizhu", 91000)
    await standing_of_a_player(store, fair.user["id"], "doudizhu", 1000)
    async with httpx.AsyncClient(base_url=server.http) as h:
        board = (await h.get("/api/leaderboard?game=doudizhu")).json()["users"]
        assert [u["name"] for u in board] == ["cheater", "fairplayer"]
        await store.block_user(cheat.user["id"], "cheating")
        board = (await h.get("/api/leaderboard?game=doudizhu")).json()["users"]
        assert [(u["rank"], u["name"]) for u in board] == [(1, "fairplayer")], board
        await store.unblock_user(cheat.user["id"])
        board = (await h.get("/api/leaderboard?game=doudizhu")).json()["users"]
        assert [u["name"] for u in board] == ["cheater", "fairplayer"]


# ------------------------------------------------------------------------------ 5. the database's error, public
async def test_the_public_health_check_does_not_show_the_databases_error(start: Any, sqlite_db: Database) -> None:
    """``GET /api/health`` (no log-in) showed the database's exception as it came, cut at 300 characters: for
    SQLAlchemy the statement and its parameters (``[SQL: INSERT INTO journal …] [parameters: (…)]``), for
    PostgreSQL the database server's address and user — for anybody to read while the tables paused.  It says
    what kind of failure it is; the whole message is in the server's log."""

    server = await start(sqlite_busy_ms=300, bot_fill_wait=0.1)
    c = await Client.guest(server)
    await c.connect()
    await c.send({"type": "quick_match", "room": "classic-1"})
    st = await c.wait_for(lambda m: m["type"] == "state" and m["your_turn"], timeout=20)
    lock = await SqliteLock.take(sqlite_db.url)
    try:
        mark = c.mark()
        await c.send({"type": "action", "table": st["table"], "deal": st["deal"], "version": st["version"],
                      "action": st["legal"][-1]})
        await c.wait_for(lambda m: m["type"] == "error" and m["code"] == "storage_unavailable", since=mark,
                         timeout=20)
        async with httpx.AsyncClient(base_url=server.http) as h:
            r = await h.get("/api/health")
        health = r.json()
        assert r.status_code == 503 and health["storage_ok"] is False
        error = health["storage_error"]
        assert error and "SQL" not in error and "INSERT" not in error and "parameters" not in error, error
        assert error == "OperationalError: database is locked", error
    finally:
        await lock.release()
    c.violations.clear()
    await c.close()
