"""Accounts, sessions, profiles, leaderboard; the store's migrations; minimisation of table points."""

from __future__ import annotations

import httpx
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from qipai.games.doudizhu.titles import title_for
from qipai.host.settings import Room
from qipai.store import Store
from qipai.store.models import Base

from server_helpers import Client, Database, LiveServer, StartServer, standing_of_a_player


async def test_register_login_logout_guest(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as h:
        r = await h.post("/api/register", json={"name": "Dora", "password": "pw-123456"})
        assert r.status_code == 201
        assert "httponly" in r.headers["set-cookie"].lower()
        assert r.json()["user"]["games"]["doudizhu"]["points"] == 1000
        # the cookie alone authenticates
        me = await h.get("/api/me")
        assert me.status_code == 200 and me.json()["name"] == "Dora"
        r = await h.post("/api/register", json={"name": "dora", "password": "pw-123456"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"
        r = await h.post("/api/register", json={"name": "guest-me", "password": "pw-123456"})
        assert r.json()["error"]["code"] == "bad_name"
        r = await h.post("/api/register", json={"name": "Eve", "password": "123"})
        assert r.json()["error"]["code"] == "bad_password"
        for pw in ("\x00" * 6, "secret\tpw", "pass\nword"):  # six NULs once made an account
            r = await h.post("/api/register", json={"name": "Eve", "password": pw})
            assert r.status_code == 400 and r.json()["error"]["params"]["reason"] == "control", pw
        assert (await h.post("/api/register", json={"name": "Eve", "password": "秘密 密码 pw"})).status_code == 201
        h.cookies.clear()
        assert (await h.post("/api/logout", json={})).status_code == 200
        h.cookies.clear()
        assert (await h.get("/api/me")).status_code == 401
        r = await h.post("/api/login", json={"name": "DORA", "password": "wrong-pw"})
        assert r.status_code == 401 and r.json()["error"]["code"] == "bad_login"
        r = await h.post("/api/login", json={"name": "DORA", "password": "pw-123456"})
        assert r.status_code == 200
        token = r.json()["token"]
        h.cookies.clear()
        me = await h.get("/api/me", headers={"Authorization": f"Bearer {token}"})
        assert me.json()["name"] == "Dora"
        # a logged-out token no longer works
        await h.post("/api/logout", json={}, headers={"Authorization": f"Bearer {token}"})
        assert (await h.get("/api/me", headers={"Authorization": f"Bearer {token}"})).status_code == 401
        g = await h.post("/api/guest", json={})
        assert g.status_code == 201 and g.json()["user"]["is_guest"] is True
        # a game's leaderboard ranks the registered players who have played it (no guests, no bots)
        store = server.lobby.store
        for u in (me.json(), g.json()["user"]):
            await standing_of_a_player(store, u["id"], "doudizhu", 1000)
        await store.bot_account("heuristic")
        board = (await h.get("/api/leaderboard?game=doudizhu")).json()["users"]
        assert [u["name"] for u in board] == ["Dora"]
        assert board[0]["points"] == 1000 and board[0]["title"] == "商人"
        prof = await h.get(f"/api/users/{board[0]['id']}", headers={"Authorization": f"Bearer {g.json()['token']}"})
        assert prof.json()["name"] == "Dora" and prof.json()["games"]["doudizhu"]["points"] == 1000
        assert "relief_due" not in prof.json()["games"]["doudizhu"] and "table" not in prof.json()  # his own
        await store.block_user(board[0]["id"], "cheating")  # blocked by the operator: nobody, as on the boards
        prof = await h.get(f"/api/users/{board[0]['id']}", headers={"Authorization": f"Bearer {g.json()['token']}"})
        assert prof.status_code == 404 and prof.json()["error"]["code"] == "unknown_user", prof.text
        assert (await h.get("/api/leaderboard?game=nope")).status_code == 404
        assert (await h.get("/")).status_code == 200


async def test_migrations_match_models(db: Database) -> None:
    store = await Store.open(db.url, schema=db.schema)
    try:
        async with store.engine.connect() as conn:
            diff = await conn.run_sync(lambda c: compare_metadata(MigrationContext.configure(c), Base.metadata))
        assert diff == []
        # applying the migrations again is a no-op
        store2 = await Store.open(db.url, schema=db.schema)
        await store2.close()
    finally:
        await store.close()


def test_titles() -> None:
    assert title_for(-5) == "包身工"
    assert title_for(79) == "短工"
    assert title_for(80) == "长工"
    assert title_for(80000) == "帝王"


async def test_minimisation_caps_payments(start_server: StartServer) -> None:
    """A jj_match table at a high stake: each payment is capped by the players' table points (RULES.md §7)."""
    room = Room("mini", "doudizhu", {"preset": "jj_match", "stake": 50}, 50, 0, "mini")
    server = await start_server(rooms=[room], start_points=30, seat_bot="random")
    p = await Client.register(server, "penny")
    await p.connect()
    await p.send({"type": "quick_match", "room": "mini"})
    joined = await p.wait_for(lambda m: m["type"] == "joined")
    over = await p.play_until_over()
    seat = joined["seat"]
    deal = await p.get(f"/api/deals/{over['deal']}")
    assert deal["context"]["table_points"][seat] == 30
    delta = over["outcome"]["scores"][seat]
    assert -30 <= delta <= 60
    me = await p.get("/api/me")
    assert me["games"]["doudizhu"]["points"] == 30 + delta >= 0
    assert me["games"]["doudizhu"]["title"] == title_for(me["games"]["doudizhu"]["points"])
    await p.close()


async def test_the_leaderboard_ranks_ties_alike_and_says_the_viewers_place(start: StartServer) -> None:
    """Equal points took different ranks (by account id: one place higher for nothing), and a player below the first
    hundred could not learn his place.  Ties share a rank (1, 2, 2, 4) on every page, and a logged-in ranked
    player is told his own place (``me``); a guest or a stranger is not."""
    server = await start()
    store = server.lobby.store
    points = {"ana": 1500, "bob": 1200, "cy": 1200, "dee": 900, "eve": 1200}
    users = {}
    for name, p in points.items():
        users[name] = await Client.register(server, name, "secret-pw")
        await standing_of_a_player(store, users[name].user["id"], "doudizhu", p)
    async with httpx.AsyncClient(base_url=server.http) as h:
        board = (await h.get("/api/leaderboard?game=doudizhu")).json()
        assert [(u["rank"], u["points"]) for u in board["users"]] == [(1, 1500), (2, 1200), (2, 1200), (2, 1200),
                                                                      (5, 900)], board
        assert "me" not in board  # nobody logged in
        page = (await h.get("/api/leaderboard?game=doudizhu&limit=2&offset=2")).json()["users"]
        assert [(u["rank"], u["points"]) for u in page] == [(2, 1200), (2, 1200)], page  # a tie across pages
        me = (await h.get("/api/leaderboard?game=doudizhu&limit=1",
                          headers={"Authorization": f"Bearer {users['dee'].token}"})).json()
        assert [u["name"] for u in me["users"]] == ["ana"] and me["me"]["name"] == "dee" and me["me"]["rank"] == 5, me
        guest = await Client.guest(server)
        board = (await h.get("/api/leaderboard?game=doudizhu",
                             headers={"Authorization": f"Bearer {guest.token}"})).json()
        assert "me" not in board, board


async def test_only_players_who_have_played_are_ranked(start: StartServer) -> None:
    """A standing is opened before any deal is played: when a player sits down, registers for a match (its fee) or
    takes relief.  Its starting points were ranked: a player who sat down once and left (or was still in his first
    deal) stood above every player who had lost a point.  A board ranks those who have played a deal of its game;
    the others are told they are not on it."""
    server = await start()
    store = server.lobby.store
    player = await Client.register(server, "player", "secret-pw")
    visitor = await Client.register(server, "visitor", "secret-pw")
    await standing_of_a_player(store, player.user["id"], "doudizhu", 990)
    await store.standing(visitor.user["id"], "doudizhu", 1000)  # as the lobby when the visitor sits down
    await store.standing(visitor.user["id"], "mahjong", 1000)
    async with httpx.AsyncClient(base_url=server.http) as h:
        board = (await h.get("/api/leaderboard?game=doudizhu",
                             headers={"Authorization": f"Bearer {visitor.token}"})).json()
        assert [(u["rank"], u["name"]) for u in board["users"]] == [(1, "player")], board
        assert "me" not in board, board
        assert (await h.get("/api/leaderboard?game=mahjong")).json()["users"] == []
