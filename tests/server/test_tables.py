"""Private tables of humans, spectators, and what each connection may see."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from qipai.core.registry import get_factory

from server_helpers import Client, LiveServer, Msg, StartServer


def game_at(deal: dict[str, Any], n: int) -> Any:
    """The deal's game after its first ``n`` actions, rebuilt from the stored seed and record."""
    g = get_factory(deal["game"]).new(deal["options"], deal["seed"], deal["context"])
    for a in deal["record"]["actions"][:n]:
        g.apply(a["action"], a["seat"])
    return g


def check_views(msgs: list[Msg], deal: dict[str, Any], seat: int | None) -> int:
    """Every state a connection received equals the game's own view for that seat at that version, and no
    message but ``deal_over`` carries anything else about the deal.  Returns the number of states checked."""
    checked = 0
    for m in msgs:
        st = m.get("state") if m["type"] == "snapshot" else m if m["type"] == "state" else None
        if st is None or st["deal"] != deal["id"]:
            continue
        assert st["you"] == seat
        g = game_at(deal, st["version"])
        assert st["observation"] == g.observe(seat), (seat, st["version"])
        assert st["legal"] == (g.legal_actions() if seat is not None and g.to_act == seat else None)
        obs = st["observation"]
        if seat is None:
            assert obs["hand"] is None
        if obs["phase"] != "over":
            assert obs["hands"] is None
        checked += 1
    return checked


async def test_private_table_three_humans_and_a_spectator(start_server: StartServer) -> None:
    server = await start_server(next_deal_delay=30)
    a, b, c = [await Client.register(server, n) for n in ("ann", "bob", "cat")]
    watcher = await Client.guest(server)
    for x in (a, b, c, watcher):
        await x.connect()
    made = await a.post("/api/tables", {"room": "classic-1"})
    code, table = made["invite_code"], made["table"]
    assert len(code) == 6 and made["seat"] == 0
    # what the invite link shows before joining (the code read in any case)
    info = await b.get(f"/api/invites/{code.lower()}")
    assert info == {"table": table, "game": "doudizhu", "room": "classic-1", "players": 3, "seated": 1,
                    "can_sit": True, "running": False}
    async with b.api() as h:
        assert (await h.get("/api/invites/NOSUCH")).json()["error"]["code"] == "unknown_invite"
    await b.send({"type": "join", "invite": code.lower(), "id": 1})
    jb = await b.wait_for(lambda m: m["type"] == "joined")
    assert jb["ref"] == 1 and jb["seat"] == 1 and jb["table"] == table
    # the spectator needs the code for a private table
    mark = watcher.mark()
    await watcher.send({"type": "spectate", "table": table})
    await watcher.error("private_table", mark)
    await watcher.send({"type": "spectate", "table": table, "invite": code})
    snap = await watcher.wait_for(lambda m: m["type"] == "snapshot", since=mark)
    assert snap["table"]["invite_code"] is None and snap["table"]["you"] is None
    r = await c.post("/api/tables/join", {"invite": code})
    assert r["seat"] == 2
    overs = await asyncio.gather(a.play_until_over(), b.play_until_over(), c.play_until_over())
    assert overs[0]["outcome"] == overs[1]["outcome"] == overs[2]["outcome"]
    w_over = await watcher.wait_for(lambda m: m["type"] == "deal_over")
    deal_id = w_over["deal"]
    deal = await a.get(f"/api/deals/{deal_id}")
    assert [s["name"] for s in deal["seats"]] == ["ann", "bob", "cat"]
    for seat, x in enumerate((a, b, c)):
        assert check_views(x.msgs, deal, seat) > 0
    assert check_views(watcher.msgs, deal, None) > 0
    # a spectator cannot read the record of a deal it did not play
    async with watcher.api() as h:
        assert (await h.get(f"/api/deals/{deal_id}")).status_code == 403
    scores = deal["outcome"]["scores"]
    for seat, x in enumerate((a, b, c)):
        me = await x.get("/api/me")
        assert me["games"]["doudizhu"]["points"] == 1000 + scores[seat] and me["games"]["doudizhu"]["games_played"] == 1
    # leaving between deals frees the seat at once; the table lives on with the others
    mark = c.mark()
    assert (await c.post(f"/api/tables/{table}/leave"))["result"] == "left"
    left = await c.wait_for(lambda m: m["type"] == "left", since=mark)
    assert left["reason"] == "left"
    seats = (await a.wait_for(lambda m: m["type"] == "table" and m["table"]["seats"][2] is None))["table"]
    assert seats["status"] == "waiting"
    for x in (a, b, c, watcher):
        await x.close()


async def test_four_player_quick_match(server: LiveServer) -> None:
    """The four-player preset runs through the same server unchanged."""
    p = await Client.guest(server)
    await p.connect()
    await p.send({"type": "quick_match", "room": "four_player-1"})
    joined = await p.wait_for(lambda m: m["type"] == "snapshot")
    assert joined["table"]["players"] == 4
    over = await p.play_until_over()
    assert len(over["outcome"]["scores"]) == 4
    await p.close()


async def mid_deal(server: LiveServer, name: str, room: str) -> tuple[Client, dict[str, Any]]:
    """A new player seated by quick match (bots fill the table) once the deal's first state has come."""
    p = await Client.register(server, name)
    await p.connect()
    await p.send({"type": "quick_match", "room": room})
    joined = await p.wait_for(lambda m: m["type"] == "joined")
    await p.wait_for(lambda m: m["type"] == "state")
    return p, joined


async def test_leaving_mid_deal_is_an_escape(start_server: StartServer) -> None:
    """Chengdu's escape penalty: leaving during a deal ends it, the escaper pays, the seat is freed after."""
    p, joined = await mid_deal(await start_server(bot_delay=0.2), "runner", "chengdu-1")
    mark = p.mark()
    await p.send({"type": "leave", "table": joined["table"]})
    await p.wait_for(lambda m: m["type"] == "left" and m["reason"] == "leaving_after_deal", since=mark)
    over = await p.wait_for(lambda m: m["type"] == "deal_over", since=mark)
    assert over["outcome"]["escaped"] == joined["seat"]
    assert over["outcome"]["scores"][joined["seat"]] < 0
    await p.wait_for(lambda m: m["type"] == "left" and m["reason"] == "left", since=mark)
    me = await p.get("/api/me")
    assert me["table"] is None and me["games"]["doudizhu"]["points"] < 1000
    await p.close()


async def test_leaving_twice_mid_deal_is_answered_both_times(start_server: StartServer) -> None:
    """Without an escape penalty a leaver's seat plays the deal out in auto-play; asking again gets the same
    answer (it once got none: a client waiting on its request id hung)."""
    p, joined = await mid_deal(await start_server(bot_delay=0.3), "twice", "classic-1")
    mark = p.mark()
    for ref in ("first", "second"):
        await p.send({"type": "leave", "table": joined["table"], "id": ref})
        left = await p.wait_for(lambda m, ref=ref: m["type"] == "left" and m["ref"] == ref, since=mark)
        assert left["reason"] == "leaving_after_deal"
    # the leave stands: asking for the seat again is refused, saying why (it was answered "joined", and the
    # seat was freed anyway when the deal ended)
    await p.send({"type": "quick_match", "room": "classic-1", "id": "back"})
    refused = await p.error("leaving_table", mark)
    assert refused["ref"] == "back" and refused["params"]["table"] == joined["table"]
    await p.wait_for(lambda m: m["type"] == "left" and m["reason"] == "left", 60, since=mark)
    await p.close()


async def test_a_leaver_cannot_take_the_seat_back_from_auto_play(start_server: StartServer) -> None:
    """A seat left during a deal plays on in auto-play (protocol §5): its player once turned auto-play off again
    and held the table up until the turn's time ran out."""
    p, joined = await mid_deal(await start_server(bot_delay=0.3), "changed_mind", "classic-1")
    tid = joined["table"]
    mark = p.mark()
    await p.send({"type": "leave", "table": tid, "id": "go"})
    await p.wait_for(lambda m: m["type"] == "left" and m["ref"] == "go", since=mark)
    await p.send({"type": "autoplay", "table": tid, "on": False, "id": "back"})
    refused = await p.error("leaving_table", mark)
    assert refused["ref"] == "back" and refused["params"]["table"] == tid
    await p.send({"type": "snapshot", "table": tid, "id": "look"})
    snap = await p.wait_for(lambda m: m["type"] == "snapshot" and m["ref"] == "look", since=mark)
    assert snap["table"]["seats"][joined["seat"]]["leaving"] is True
    if snap["state"] is not None:  # still the deal: in auto-play, and no longer asked to act
        assert snap["state"]["autoplay"][joined["seat"]] is True
        assert snap["state"]["your_turn"] is False and snap["state"]["legal"] is None
    await p.send({"type": "action", "table": tid, "deal": 0, "version": 0, "action": "pass", "id": "act"})
    refused = await p.wait_for(lambda m: m["type"] == "error" and m["ref"] == "act", since=mark)
    assert refused["code"] in ("leaving_table", "not_seated"), refused  # not_seated: the deal has ended
    await p.wait_for(lambda m: m["type"] == "left" and m["reason"] == "left", 60, since=mark)
    await p.close()


async def test_unspectate_says_when_there_was_nothing_to_stop(start_server: StartServer) -> None:
    """``unspectate`` answered ``left`` even for a table one sits at (still seated) or no table at all."""
    server = await start_server(next_deal_delay=30)
    a, b = [await Client.register(server, n) for n in ("sitter", "looker")]
    for x in (a, b):
        await x.connect()
    made = await a.post("/api/tables", {"room": "classic-1"})
    tid = made["table"]
    mark = a.mark()
    await a.send({"type": "unspectate", "table": tid, "id": 1})
    assert (await a.error("seated_here", mark))["ref"] == 1
    await a.send({"type": "unspectate", "table": "zz", "id": 2})
    assert (await a.error("not_at_table", mark))["params"]["table"] == "zz"
    assert (await a.get("/api/me"))["table"] == tid
    mark = b.mark()
    await b.send({"type": "spectate", "table": tid, "invite": made["invite_code"]})
    await b.wait_for(lambda m: m["type"] == "snapshot", since=mark)
    await b.send({"type": "unspectate", "table": tid, "id": 3})
    left = await b.wait_for(lambda m: m["type"] == "left", since=mark)
    assert (left["table"], left["reason"], left["ref"]) == (tid, "unspectated", 3)
    await b.send({"type": "unspectate", "table": tid, "id": 4})
    assert (await b.error("not_at_table", mark))["ref"] == 4
    for x in (a, b):
        await x.close()


async def test_a_spectator_who_sits_down_gets_only_the_players_view(start_server: StartServer) -> None:
    """Joining a table one watches takes the connection off its spectators: once every message came twice,
    the spectator's copy (no hand, no legal actions) last, and a client keeping the latest state lost its turn."""
    server = await start_server(next_deal_delay=30)
    a, b = [await Client.register(server, n) for n in ("host", "watcher")]
    for x in (a, b):
        await x.connect()
    made = await a.post("/api/tables", {"room": "classic-1"})
    await b.send({"type": "spectate", "table": made["table"], "invite": made["invite_code"]})
    await b.wait_for(lambda m: m["type"] == "snapshot")
    mark = b.mark()
    await b.send({"type": "join", "invite": made["invite_code"]})
    joined = await b.wait_for(lambda m: m["type"] == "joined", since=mark)
    await a.send({"type": "fill_bots", "table": made["table"]})
    await asyncio.gather(a.play_until_over(), b.play_until_over())  # the host plays too: no turn times out
    states = [m for m in b.msgs[mark:] if m["type"] == "state"]
    assert states and all(m["you"] == joined["seat"] for m in states)
    for x in (a, b):
        await x.close()


async def test_leave_by_websocket_echoes_the_request_id(server: LiveServer) -> None:
    p = await Client.guest(server)
    await p.connect()
    made = await p.post("/api/tables", {"room": "classic-1"})
    mark = p.mark()
    await p.send({"type": "leave", "table": made["table"], "id": "bye-1"})
    left = await p.wait_for(lambda m: m["type"] == "left", since=mark)
    assert left["ref"] == "bye-1" and left["reason"] == "left" and left["table"] == made["table"]
    await p.close()


async def test_a_creator_who_left_cannot_call_bots_into_the_others_table(start_server: StartServer) -> None:
    """Found by a hostile pass: the creator of a private table, gone from it, could still fill it with bots and
    start a deal for the players left."""
    server = await start_server()
    a, b = await Client.register(server, "maker"), await Client.register(server, "stayer")
    made = await a.post("/api/tables", {"room": "classic-1"})
    await b.post("/api/tables/join", {"invite": made["invite_code"]})
    assert (await a.post(f"/api/tables/{made['table']}/leave"))["result"] == "left"
    r = await a.post(f"/api/tables/{made['table']}/bots", status=409)
    assert r["error"]["code"] == "not_seated", r
    t = server.lobby.tables[made["table"]]
    assert not t.running and sum(1 for s in t.seats if s is not None) == 1


async def test_a_new_window_gets_its_snapshot_before_any_state_of_its_table(start_server: StartServer) -> None:
    """Protocol §4.2: a connection's first message about its table is the snapshot.  Found by a hostile pass: a
    window opened while the table was busy (its lock held by a bot's move) got the table's broadcasts before
    its snapshot, as it was only held back once it had the lock."""
    from websockets.asyncio.client import connect as ws_connect

    server = await start_server(bot_fill_wait=0.0, autoplay_delay=0.0)
    a = await Client.guest(server)
    await a.connect()
    await a.send({"type": "quick_match", "room": "classic-1"})
    joined = await a.wait_for(lambda m: m["type"] == "joined")
    await a.send({"type": "autoplay", "table": joined["table"], "on": True})  # bots play every seat, at once
    wrong = []
    for _ in range(30):
        async with ws_connect(server.ws, additional_headers={"Authorization": f"Bearer {a.token}"}) as ws:
            kinds = []
            async with asyncio.timeout(10):
                while not kinds or kinds[-1] != "snapshot":
                    m = json.loads(await ws.recv())
                    if m["type"] in ("state", "table", "snapshot"):
                        kinds.append(m["type"])
            if kinds != ["snapshot"]:
                wrong.append(kinds)
        await asyncio.sleep(0.01)
    assert not wrong, wrong
