"""玩家资料: ``GET /api/players/{name}`` — a player's public profile over real HTTP on a real database: his standing
in every registered game, his latest finished deals with a replay link only where the replay rules allow it, what
he is to the caller, and the refusals (guests, bots, blocked accounts, nobody)."""

from __future__ import annotations

import asyncio
from urllib.parse import quote

import httpx

from qipai.core.registry import game_names

from server_helpers import Client, StartServer, private_table


async def refusal(c: Client, name: str, status: int, code: str) -> dict:
    async with c.api() as h:
        r = await h.get(f"/api/players/{quote(name, safe='')}")
    assert r.status_code == status, (name, r.status_code, r.text)
    assert r.json()["error"]["code"] == code, r.text
    return dict(r.json()["error"])


async def test_a_players_profile_shows_every_game_his_deals_and_the_relation(start_server: StartServer) -> None:
    server = await start_server(bot_delay=0.05)
    (ann, bob), _ = await private_table(server, "classic-1", ["Ann", "bob"], {}, bots=True)
    await asyncio.gather(ann.play_until_over(), bob.play_until_over())
    cy = await Client.register(server, "cy")

    seen = await cy.get("/api/players/ANN")  # any case, as the friends API finds names
    assert seen["user"] == {"id": ann.user["id"], "name": "Ann", "is_guest": False, "is_bot": False}
    assert set(seen["games"]) == set(game_names())  # every registered game, played or not
    ddz = seen["games"]["doudizhu"]
    assert ddz["games_played"] == 1 and ddz["wins"] in (0, 1) and ddz["win_rate"] == float(ddz["wins"])
    assert ddz["title"] and isinstance(ddz["points"], int)
    board = (await cy.get("/api/leaderboard?game=doudizhu"))["users"]
    assert ddz["rank"] == next(u["rank"] for u in board if u["name"] == "Ann")  # as the leaderboard ranks her
    assert seen["games"]["mahjong"]["games_played"] == 0 and seen["games"]["mahjong"]["win_rate"] is None
    assert seen["games"]["mahjong"]["rank"] is None  # not on that leaderboard
    await server.lobby.store.standing(ann.user["id"], "shengji", 1000)  # opened (a seat taken), never played
    assert (await cy.get("/api/players/Ann"))["games"]["shengji"]["rank"] is None  # the leaderboard's rule
    me = await ann.get("/api/me")
    assert ddz["points"] == me["games"]["doudizhu"]["points"] and ddz["title"] == me["games"]["doudizhu"]["title"]
    assert "table" not in seen and "relief_due" not in ddz  # not where she sits, nor her relief

    [deal] = seen["recent"]
    hist = (await ann.get("/api/history"))["deals"][0]
    assert deal["deal_id"] == hist["deal_id"] and deal["delta"] == hist["delta"] and deal["won"] == hist["won"]
    assert deal["game"] == "doudizhu" and deal["finished_at"] and deal["match"] is False
    # cy did not play it: no replay for him (the replay itself refuses him too); bob did
    assert deal["replay"] is False
    async with cy.api() as h:
        assert (await h.get(f"/api/deals/{deal['deal_id']}/replay")).status_code == 403
    assert (await bob.get("/api/players/Ann"))["recent"][0]["replay"] is True
    assert seen["relation"] == "none" and (await ann.get("/api/players/ann"))["relation"] == "self"

    # the relation as it changes: asked, asking, friends, blocked
    await cy.post("/api/friends", {"name": "ann"}, status=201)
    assert (await cy.get("/api/players/ann"))["relation"] == "outgoing"
    assert (await ann.get("/api/players/cy"))["relation"] == "incoming"
    await ann.post(f"/api/friends/{cy.user['id']}/accept")
    assert (await cy.get("/api/players/ann"))["relation"] == "friend"
    await ann.post(f"/api/friends/{bob.user['id']}/block")
    assert (await ann.get("/api/players/bob"))["relation"] == "blocked"
    assert (await ann.get("/api/players/bob"))["recent"]  # she still sees his deals
    # who blocked him shows him no deals and no sign of the block; her standing stays as public as the leaderboard
    hers = await bob.get("/api/players/ann")
    assert hers["relation"] == "none" and hers["recent"] == [] and hers["games"]["doudizhu"]["games_played"] == 1
    for c in (ann, bob):
        await c.close()


async def test_guests_bots_blocked_accounts_and_nobody_have_no_profile(start_server: StartServer) -> None:
    server = await start_server()
    ann = await Client.register(server, "ann")
    guest = await Client.guest(server)
    err = await refusal(ann, guest.user["name"], 404, "no_profile")
    assert err["params"] == {"name": guest.user["name"], "reason": "guest"}
    bot = await server.lobby.store.bot_account("random")
    assert (await refusal(ann, bot.name, 404, "no_profile"))["params"]["reason"] == "bot"
    assert (await refusal(ann, "nobody-here", 404, "unknown_user"))["params"] == {"name": "nobody-here"}
    await refusal(ann, "x" * 65, 404, "unknown_user")
    # a name with a "/" (no name has one) is nobody's, not a path the server lacks ("no such endpoint")
    for odd in ("a/b", "ann/", "../ann"):
        assert (await refusal(ann, odd, 404, "unknown_user"))["params"] == {"name": odd}
    # an account the operator blocked is as one that is not (nobody else is told he is blocked)
    bob = await Client.register(server, "bob")
    await ann.get("/api/players/bob")
    await server.lobby.store.block_user(bob.user["id"], "spam")
    assert (await refusal(ann, "bob", 404, "unknown_user"))["params"] == {"name": "bob"}
    # a guest may look (he has no relation to anybody); nobody logged out may
    assert (await guest.get("/api/players/ann"))["relation"] == "none"
    async with httpx.AsyncClient(base_url=server.http) as h:
        assert (await h.get("/api/players/ann")).status_code == 401
