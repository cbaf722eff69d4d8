"""Match tables (what a tournament director uses): seated by the director, each deal started on its word with
the seed, context and table points it gives, nothing started or closed on their own, events tagged with the
match, and restored as match tables after a restart."""

from __future__ import annotations

import asyncio
from typing import Any

from qipai.host.events import DEAL_SETTLED

from server_helpers import Client, StartServer


async def test_a_director_starts_each_deal_of_a_match_table(start_server: StartServer) -> None:
    server = await start_server()
    lobby = server.lobby
    settled: list[Any] = []
    lobby.bus.subscribe(DEAL_SETTLED, settled.append)
    human = await Client.guest(server)
    await human.connect()
    tags = {"match_id": "m-1", "table_key": "r1-t1"}
    t = await lobby.open_managed_table("doudizhu", {"preset": "jj_match", "stake": 20},
                                       [{"user_id": human.user["id"]}, {"bot": "heuristic"}, {"bot": "heuristic"}],
                                       tags)
    await human.wait_for(lambda m: m["type"] == "joined" and m["table"] == t.id)
    assert t.managed and not t.running and t.info.room is None and not t.info.for_points
    await asyncio.sleep(0.5)
    assert not t.running  # nothing starts on its own
    async with t.lock:
        deal_id = await t.start_managed_deal(424242, {}, [1000, 80, 500])
    over = await human.play_until_over()
    assert over["deal"] == deal_id
    for _ in range(100):
        if settled:
            break
        await asyncio.sleep(0.05)
    ev = settled[0]
    assert ev.tags["match_id"] == "m-1" and ev.tags["managed"] and ev.deal_id == deal_id
    deal = await human.get(f"/api/deals/{deal_id}")
    assert deal["seed"] == 424242 and deal["context"]["table_points"] == [1000, 80, 500]
    me = await human.get("/api/me")
    assert me["games"]["doudizhu"]["points"] == 1000  # a match table moves no platform points
    await asyncio.sleep(0.5)
    assert not t.running and not t.closed  # no ready step, no next deal: the director decides
    # leaving a match keeps the seat, played in auto-play
    await human.send({"type": "leave", "table": t.id})
    await human.wait_for(lambda m: m["type"] == "left" and m["reason"] == "left_match")
    assert t.seats[0] is not None and t.seats[0].leaving
    async with t.lock:
        await t.start_managed_deal(7, {}, None)
    assert t.game is not None and t.game.in_autoplay(0)
    await human.close()


async def test_match_tables_come_back_after_a_restart(start_server: StartServer) -> None:
    first = await start_server()
    t = await first.lobby.open_managed_table("doudizhu", {"preset": "classic"}, [{"bot": "random"}] * 3,
                                             {"match_id": "m-2", "table_key": "k"})
    tid = t.id
    await first.stop()
    second = await start_server()
    t2 = second.lobby.tables.get(tid)
    assert t2 is not None and t2.managed and t2.tags["match_id"] == "m-2"
    assert [s.bot for s in t2.seats if s is not None] == ["random"] * 3


async def test_bot_entrants_keep_their_numbers_when_a_match_table_is_restored(start_server: StartServer) -> None:
    """A match table's bot entrants play as their entrant numbers (b5 as 电脑5号, as the standings name them);
    restored from the database — after a restart, or taken over by another node after its own died — they kept
    only their seats' numbers (电脑1号, 电脑2号).  The numbers are in the table's stored tags, not in the memory
    of the node that opened it."""
    first = await start_server()
    t = await first.lobby.open_managed_table("doudizhu", {"preset": "classic"},
                                             [{"bot": "random", "number": 5}, {"bot": "random", "number": 12},
                                              {"bot": "random"}], {"match_id": "m-7", "table_key": "1.1.2"})
    tid = t.id
    want = ["bot:random:5", "bot:random:12", "bot:random:3"]
    assert [s.name for s in t.seats if s is not None] == want
    await first.stop()
    second = await start_server()
    t2 = second.lobby.tables[tid]
    assert [s.name for s in t2.seats if s is not None] == want
    # the failover path: a node that did not open the table takes it over from the database alone
    old = second.lobby.tables.pop(tid)
    if old.task is not None:
        old.task.cancel()
    assert await second.lobby.restore_table(tid, None)
    t3 = second.lobby.tables[tid]
    assert t3 is not old and [s.name for s in t3.seats if s is not None] == want


async def test_a_match_leaver_stays_gone_after_restarts(start_server: StartServer) -> None:
    """A player who left a match mid-deal is remembered across a restart mid-deal and one between deals: the
    seat stays in auto-play for the match, the player is seated nowhere and cannot take it back (the flag
    lived in memory only once, so a restart gave the seat back)."""
    # bots slow enough here that the deal is still on when this server stops (a quick one could finish it while
    # a loaded machine stopped the server: a CI flake)
    first = await start_server(bot_delay=1.0)
    human = await Client.guest(first)
    await human.connect()
    uid = human.user["id"]
    t = await first.lobby.open_managed_table("doudizhu", {"preset": "classic"},
                                             [{"user_id": uid}, {"bot": "heuristic"}, {"bot": "heuristic"}],
                                             {"match_id": "m-3", "table_key": "k"})
    await human.wait_for(lambda m: m["type"] == "joined" and m["table"] == t.id)
    async with t.lock:
        deal_id = await t.start_managed_deal(31337, {}, None)
    await human.wait_for(lambda m: m["type"] == "state" and m["deal"] == deal_id)
    await human.send({"type": "leave", "table": t.id})
    await human.wait_for(lambda m: m["type"] == "left" and m["reason"] == "left_match")
    await human.close()
    await first.stop()

    second = await start_server(bot_delay=0.05)
    t2 = second.lobby.tables[t.id]
    assert t2.deal_id == deal_id and t2.left_match(0) and t2.game is not None and t2.game.in_autoplay(0)
    assert second.lobby.user_table.get(uid) is None
    again = Client(second, human.token, human.user)
    await again.connect()
    mark = again.mark()
    await again.send({"type": "autoplay", "table": t.id, "on": False, "id": "back"})
    assert (await again.error("left_match", mark))["ref"] == "back"
    for _ in range(400):  # the deal plays out in auto-play
        if t2.game is None or t2.game.is_over:
            break
        await asyncio.sleep(0.05)
    assert t2.game is None or t2.game.is_over
    await again.close()
    await asyncio.sleep(0.3)  # settled
    await second.stop()

    third = await start_server(bot_delay=0.05)
    t3 = third.lobby.tables[t.id]
    assert not t3.running and t3.left_match(0) and third.lobby.user_table.get(uid) is None
    async with t3.lock:
        await t3.start_managed_deal(7, {}, None)
    assert t3.game is not None and t3.game.in_autoplay(0)


async def test_a_match_table_shows_each_seats_match_points_not_the_platform_points(start_server: StartServer) -> None:
    """RULES-matches.md §4, §7: at a match table the table points are the match points, and that is what its
    seats show — the director's figures for the deal in play, each moved by the deal's score once it is
    settled (the player's platform points stay as they were, and stay apart).  A table for lobby points shows
    no match points."""
    server = await start_server()
    lobby = server.lobby
    human = await Client.guest(server)
    await human.connect()
    t = await lobby.open_managed_table("doudizhu", {"preset": "jj_match", "stake": 20},
                                       [{"user_id": human.user["id"]}, {"bot": "heuristic"}, {"bot": "heuristic"}],
                                       {"match_id": "m-9", "table_key": "1.1.1"})
    await human.wait_for(lambda m: m["type"] == "snapshot" and m["table"]["id"] == t.id)
    me = await human.get("/api/me")
    platform = me["games"]["doudizhu"]["points"]
    match_points = [640, 75, 1285]  # in the match: nothing like the platform points
    assert platform not in match_points
    mark = human.mark()
    async with t.lock:
        await t.start_managed_deal(424242, {}, match_points)
    view = (await human.wait_for(lambda m: m["type"] in ("snapshot", "table") and m["table"]["id"] == t.id
                                 and m["table"]["status"] == "playing", since=mark))["table"]
    assert view["match_id"] == "m-9"
    assert [s["match_points"] for s in view["seats"]] == match_points
    assert view["seats"][0]["points"] == platform  # the platform's, kept apart
    over = await human.play_until_over()
    scores = over["outcome"]["scores"]
    after = [p + d for p, d in zip(match_points, scores, strict=True)]
    assert any(scores) and sum(scores) == 0
    assert [c["match_points"] for c in sorted(over["changes"], key=lambda c: c["seat"])] == after
    assert over["changes"][0]["points"] == platform  # the platform points did not move
    i = human.msgs.index(over)
    table_after = await human.wait_for(lambda m: m["type"] == "table" and m["table"]["id"] == t.id, since=i + 1)
    assert [s["match_points"] for s in table_after["table"]["seats"]] == after
    # a reconnecting player's snapshot says the same
    again = Client(server, human.token, human.user)
    await again.connect()
    snap = await again.wait_for(lambda m: m["type"] == "snapshot" and m["table"]["id"] == t.id)
    assert [s["match_points"] for s in snap["table"]["seats"]] == after
    assert [c["match_points"] for c in sorted(snap["last_result"]["changes"], key=lambda c: c["seat"])] == after
    await again.close()
    await human.close()
    # a lobby table: no match, no match points
    other = await Client.guest(server)
    await other.connect()
    await other.send({"type": "quick_match", "room": "classic-1"})
    snap = await other.wait_for(lambda m: m["type"] == "snapshot")
    assert snap["table"]["match_id"] is None
    assert all(s is None or s["match_points"] is None for s in snap["table"]["seats"])
    await other.close()


async def test_match_points_come_back_with_a_table_restored_between_deals(start_server: StartServer) -> None:
    """A restart after a match deal settled and before the director starts the next: the table's seats show
    their match points as they stood after that deal (they showed none until the next deal began)."""
    first = await start_server()
    human = await Client.guest(first)
    await human.connect()
    t = await first.lobby.open_managed_table("doudizhu", {"preset": "jj_match", "stake": 20},
                                             [{"user_id": human.user["id"]}, {"bot": "heuristic"},
                                              {"bot": "heuristic"}], {"match_id": "m-5", "table_key": "1.1.1"})
    await human.wait_for(lambda m: m["type"] == "joined" and m["table"] == t.id)
    match_points = [640, 75, 1285]
    async with t.lock:
        await t.start_managed_deal(99, {}, match_points)
    over = await human.play_until_over()
    after = [p + d for p, d in zip(match_points, over["outcome"]["scores"], strict=True)]
    assert t.match_points == after and after != match_points
    await human.close()
    await first.stop()
    second = await start_server()
    t2 = second.lobby.tables[t.id]
    assert not t2.running and t2.match_points == after
    again = Client(second, human.token, human.user)
    await again.connect()
    snap = await again.wait_for(lambda m: m["type"] == "snapshot" and m["table"]["id"] == t.id)
    assert [s["match_points"] for s in snap["table"]["seats"]] == after
    await again.close()
