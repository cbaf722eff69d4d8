"""游客绑定账号: a guest saves its account as a registered one (``POST /api/account``) and keeps what it played —
the same id, points, history, seat — with its new name at the table, in its deals, after a restart and at log-in."""

from __future__ import annotations

import os
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from qipai.server import auth

from server_helpers import Client, Database, LiveServer, StartServer, fast_settings

KW = {"ready_timeout": 60.0, "restore_grace": 60.0}
"""A seat stays taken between deals (no ready step runs out) and over a restart."""


async def save(c: Client, body: dict[str, Any], status: int = 200) -> Any:
    """``POST /api/account`` as ``c``, answered ``status``; the answer's body."""
    async with c.api() as h:
        r = await h.post("/api/account", json=body)
    assert r.status_code == status, r.text
    return r.json()


def seat_name(m: dict[str, Any], seat: int) -> Any:
    s = m["table"]["seats"][seat]
    return None if s is None else s["name"]


async def test_a_guest_saves_its_account_and_keeps_everything(start_server: StartServer) -> None:
    server = await start_server(**KW)
    g = await Client.guest(server)
    guest_name = g.user["name"]
    assert g.user["is_guest"] is True and str(guest_name).startswith("guest-")
    await g.connect()
    await g.send({"type": "quick_match", "room": "classic-1"})
    joined = await g.wait_for(lambda m: m["type"] == "joined")
    tid, seat = joined["table"], joined["seat"]
    over = await g.play_until_over()
    before = await g.get("/api/me")
    points = before["games"]["doudizhu"]["points"]
    assert before["games"]["doudizhu"]["games_played"] == 1 and points == 1000 + over["outcome"]["scores"][seat]
    hist = (await g.get("/api/history"))["deals"]
    assert len(hist) == 1 and hist[0]["players"][seat] == guest_name

    mark = g.mark()
    user = (await save(g, {"name": "Keeper", "password": "keep-pw-1"}))["user"]
    assert user["id"] == g.user["id"] and user["name"] == "Keeper" and user["is_guest"] is False
    assert user["games"]["doudizhu"]["points"] == points and user["table"] == tid
    # the session goes on: the same token answers the new name, and the socket stays open
    me = await g.get("/api/me")
    assert me["id"] == g.user["id"] and me["name"] == "Keeper" and me["is_guest"] is False
    assert me["games"]["doudizhu"] == before["games"]["doudizhu"] and me["table"] == tid
    # the seat shows the new name in the next table message, sent at once
    msg = await g.wait_for(lambda m: m["type"] == "table" and seat_name(m, seat) == "Keeper", since=mark)
    assert msg["table"]["results"][-1]["players"][seat] == "Keeper"
    table = server.lobby.tables[tid]
    assert table.seats[seat].name == "Keeper" and table.last_result["changes"][seat]["name"] == "Keeper"
    assert [c.user.name for c in server.lobby.conns_of(g.user["id"])] == ["Keeper"]
    # every window of the account is told its new name and kind (another one shows it without a reload)
    told = await g.wait_for(lambda m: m["type"] == "account", since=mark)
    assert told["user"] == {"id": g.user["id"], "name": "Keeper", "is_guest": False, "is_bot": False}
    # its history and deals name it so too; it is on the leaderboard now
    hist = (await g.get("/api/history"))["deals"]
    assert len(hist) == 1 and hist[0]["deal_id"] == over["deal"] and hist[0]["players"][seat] == "Keeper"
    rec = await g.get(f"/api/deals/{over['deal']}")
    assert rec["you"] == seat and rec["seats"][seat]["name"] == "Keeper"
    board = (await g.get("/api/leaderboard"))["users"]
    assert [u["name"] for u in board] == ["Keeper"] and board[0]["points"] == points
    await g.close()

    # a restart between deals keeps the seat, by its new name
    await server.stop()
    second = await start_server(**KW)
    restored = second.lobby.tables[tid]
    assert restored.seats[seat].name == "Keeper" and restored.results[-1]["players"][seat] == "Keeper"
    again = Client(second, g.token, g.user)
    await again.connect()
    snap = await again.wait_for(lambda m: m["type"] == "snapshot")
    assert seat_name(snap, seat) == "Keeper"
    await again.close()

    # log out, and back in with the new name and password: the same account
    async with httpx.AsyncClient(base_url=second.http) as h:
        r = await h.post("/api/logout", json={}, headers={"Authorization": f"Bearer {g.token}"})
        assert r.status_code == 200
        assert (await h.get("/api/me", headers={"Authorization": f"Bearer {g.token}"})).status_code == 401
        r = await h.post("/api/login", json={"name": "keeper", "password": "wrong-pw"})
        assert r.status_code == 401
        r = await h.post("/api/login", json={"name": "keeper", "password": "keep-pw-1"})
        assert r.status_code == 200, r.text
        u = r.json()["user"]
        assert u["id"] == g.user["id"] and u["name"] == "Keeper" and u["is_guest"] is False
        assert u["games"]["doudizhu"]["points"] == points and u["games"]["doudizhu"]["games_played"] == 1
        assert u["table"] == tid


async def test_what_cannot_be_saved(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as h:
        r = await h.post("/api/account", json={"name": "Nobody", "password": "pw-123456"})
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    taken = await Client.register(server, "Taken")
    g = await Client.guest(server)

    def code(out: Any) -> str:
        return str(out["error"]["code"])

    # a registered account is no guest
    assert code(await save(taken, {"name": "Other", "password": "pw-123456"}, 409)) == "not_a_guest"
    # the checks of a sign-up
    out = await save(g, {"name": "taken", "password": "pw-123456"}, 409)
    assert code(out) == "name_taken" and out["error"]["params"]["name"] == "taken"
    assert code(await save(g, {"name": "ＴＡＫＥＮ", "password": "pw-123456"}, 409)) == "name_taken"
    assert code(await save(g, {"name": "guest-mine", "password": "pw-123456"}, 400)) == "bad_name"
    assert code(await save(g, {"name": "Mine", "password": "123"}, 400)) == "bad_password"
    assert code(await save(g, {"name": "Mine"}, 400)) == "missing_field"
    out = await save(g, {"name": "Mine", "password": "pw-123456", "email": "x@y"}, 400)
    assert code(out) == "bad_field" and out["error"]["params"]["field"] == "email"
    # none of it changed the guest
    me = await g.get("/api/me")
    assert me["name"] == g.user["name"] and me["is_guest"] is True
    # a bot's account is no guest either
    store = server.lobby.store
    bot = await store.bot_account("random")
    token, digest = auth.new_token()
    await store.add_token(digest, bot.id, datetime.now(UTC) + timedelta(days=1))
    async with httpx.AsyncClient(base_url=server.http, headers={"Authorization": f"Bearer {token}"}) as h:
        r = await h.post("/api/account", json={"name": "BotSaved", "password": "pw-123456"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_a_guest"
    # saved once: a second time is refused, and the name is taken for everybody else
    assert (await save(g, {"name": "Mine", "password": "pw-123456"}))["user"]["name"] == "Mine"
    assert code(await save(g, {"name": "Mine2", "password": "pw-123456"}, 409)) == "not_a_guest"
    other = await Client.guest(server)
    assert code(await save(other, {"name": "mine", "password": "pw-123456"}, 409)) == "name_taken"
    async with httpx.AsyncClient(base_url=server.http) as h:
        r = await h.post("/api/register", json={"name": "MINE", "password": "pw-123456"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"


async def test_the_seat_takes_the_new_name_mid_deal(start_server: StartServer) -> None:
    """Saved during a deal: the players and spectators of the table see the new name at once, the running deal's
    stored seats carry it, and a restart mid-deal rebuilds the seat with it."""
    server = await start_server(**KW)
    g = await Client.guest(server)
    await g.connect()
    await g.send({"type": "quick_match", "room": "classic-1"})
    joined = await g.wait_for(lambda m: m["type"] == "joined")
    tid, seat = joined["table"], joined["seat"]
    await g.wait_for(lambda m: m["type"] == "state")
    watcher = await Client.register(server, "watcher")
    await watcher.connect()
    await watcher.send({"type": "spectate", "table": tid})
    snap = await watcher.wait_for(lambda m: m["type"] == "snapshot")
    assert seat_name(snap, seat) == g.user["name"]
    table = server.lobby.tables[tid]
    assert table.running
    mark, wmark = g.mark(), watcher.mark()
    await save(g, {"name": "MidDeal", "password": "pw-123456"})
    await g.wait_for(lambda m: m["type"] == "table" and seat_name(m, seat) == "MidDeal", since=mark)
    await watcher.wait_for(lambda m: m["type"] == "table" and seat_name(m, seat) == "MidDeal", since=wmark)
    running = await server.lobby.store.running_deal(tid)
    assert running is not None and running.seats[seat]["name"] == "MidDeal"
    assert [s["name"] for i, s in enumerate(running.seats) if i != seat] == \
        [s.name for i, s in enumerate(table.seats) if i != seat and s is not None]
    deal_id = table.deal_id
    await server.stop()  # before the players' sockets close (auto-play would end the deal)
    await watcher.close()
    await g.close()
    second = await start_server(**KW)
    restored = second.lobby.tables[tid]
    assert restored.deal_id == deal_id and restored.seats[seat].name == "MidDeal"
    again = Client(second, g.token, g.user)
    await again.connect()
    snap = await again.wait_for(lambda m: m["type"] == "snapshot")
    assert snap["state"]["deal"] == deal_id and seat_name(snap, seat) == "MidDeal"
    await again.close()


async def test_a_seat_on_another_node_takes_the_new_name(pg_db: Database) -> None:
    """Several nodes: the guest's table runs on node A and it saves its account through node B; A renames the
    seat (told on the bus) and its players see the new name."""
    url = os.environ.get("QIPAI_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    r = aioredis.from_url(url)
    try:
        await r.ping()
    except Exception as e:
        pytest.fail(f"Redis at {url} is not reachable ({e}): run ./scripts/test.sh, which starts one")
    finally:
        await r.aclose()
    prefix = f"qt{uuid.uuid4().hex[:10]}:"
    nodes: list[LiveServer] = []
    try:
        for name in ("a", "b"):
            s = LiveServer(fast_settings(pg_db, redis_url=url, redis_prefix=prefix, node_id=name, lease_seconds=1.5,
                                         **KW))
            nodes.append(await s.start())
        a, b = nodes
        g = await Client.guest(a)
        await g.connect()
        await g.send({"type": "quick_match", "room": "classic-1"})
        joined = await g.wait_for(lambda m: m["type"] == "joined")
        tid, seat = joined["table"], joined["seat"]
        assert tid in a.lobby.tables and tid not in b.lobby.tables
        mark = g.mark()
        on_b = Client(b, g.token, g.user)
        out = await save(on_b, {"name": "FarAway", "password": "pw-123456"})
        assert out["user"]["name"] == "FarAway" and out["user"]["table"] == tid
        await g.wait_for(lambda m: m["type"] == "table" and seat_name(m, seat) == "FarAway", since=mark)
        assert a.lobby.tables[tid].seats[seat].name == "FarAway"
        assert [c.user.name for c in a.lobby.conns_of(g.user["id"])] == ["FarAway"]
        told = await g.wait_for(lambda m: m["type"] == "account", since=mark)
        assert told["user"]["name"] == "FarAway" and told["user"]["is_guest"] is False
        await g.close()
    finally:
        for s in reversed(nodes):
            await s.stop()
