"""A hostile user's pass over accounts, sessions and records (names that draw as other names, reviews queued
without end, ...): each finding proved against a real server on SQLite (none depends on the storage)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from server_helpers import Client, Database, LiveServer, fast_settings


@pytest.fixture
async def start(sqlite_db: Database) -> AsyncIterator[Any]:
    servers: list[LiveServer] = []

    async def go(**kw: Any) -> LiveServer:
        s = await LiveServer(fast_settings(sqlite_db, **kw)).start()
        servers.append(s)
        return s

    yield go
    for s in servers:
        if not s.server.should_exit:
            await s.stop()


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
            if (deal, 0) in server.lobby._reviews:
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
        r = await h.get(f"/api/deals/{deal}/review?seat=0")  # made already: at once
        assert r.status_code == 200 and r.json() == r0.json()
    a.violations.clear()
    await a.close()
