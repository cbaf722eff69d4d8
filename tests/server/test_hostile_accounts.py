"""A hostile user's pass over accounts, sessions and records (names that draw as other names, reviews queued
without end, ...): each finding proved against a real server on SQLite (none depends on the storage)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from server_helpers import Database, LiveServer, fast_settings


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
