"""Disconnection and reconnection, timeouts and auto-play, and a server restart in the middle of a deal."""

from __future__ import annotations

import asyncio
import itertools
import signal
import subprocess
from typing import Any

import pytest

from qipai.core.registry import get_factory
from qipai.host import table as host_table

from server_helpers import (
    SQLITE_ONLY,
    Client,
    Database,
    Msg,
    Remote,
    StartServer,
    free_port,
    private_table,
    spawn_server,
)


def seat_actions(record: dict[str, Any], seat: int) -> list[str]:
    return [a["action"] for a in record["actions"] if a["seat"] == seat]


def versions(msgs: list[Msg]) -> list[int]:
    out = []
    for m in msgs:
        st = m.get("state") if m["type"] == "snapshot" else m if m["type"] == "state" else None
        if st is not None:
            out.append(st["version"])
    return out


async def my_turn(c: Client, timeout: float = 20.0, since: int = 0) -> Msg:
    return await c.wait_for(
        lambda m: m["type"] == "state" and m["to_act"] == m["you"] and not m["autoplay"][m["you"]],
        timeout,
        since,
    )


async def act_a_few_times(c: Client, table: str, times: int) -> None:
    since = 0
    for _ in range(times):
        st = await my_turn(c, since=since)
        since = c.msgs.index(st) + 1
        await c.send(
            {
                "type": "action",
                "table": table,
                "deal": st["deal"],
                "version": st["version"],
                "action": c.choose(st["legal"]),
            }
        )
        await c.wait_for(lambda m, v=st["version"]: m["type"] == "state" and m["version"] > v, since=since)


async def test_disconnect_autoplay_reconnect(start_server: StartServer) -> None:
    server = await start_server(bot_delay=0.05, autoplay_delay=0.3)
    alice = await Client.register(server, "alice")
    await alice.connect()
    await alice.send({"type": "quick_match", "room": "classic-1"})
    joined = await alice.wait_for(lambda m: m["type"] == "joined")
    table, seat = joined["table"], joined["seat"]
    watcher = await Client.guest(server)
    await watcher.connect()
    await watcher.send({"type": "spectate", "table": table})
    await watcher.wait_for(lambda m: m["type"] == "snapshot")

    # a second tab: closing one of two connections changes nothing
    tab2 = await Client(server, alice.token, alice.user).connect()
    await my_turn(alice)
    await tab2.close()
    await asyncio.sleep(0.2)
    assert not server.lobby.tables[table].game.in_autoplay(seat)

    # the last connection drops: auto-play takes the seat and plays for it
    await alice.close()
    on = await watcher.wait_for(lambda m: m["type"] == "state" and m["autoplay"][seat])
    await watcher.wait_for(lambda m: m["type"] == "state" and m["version"] > on["version"] + 3)

    # reconnecting (a new connection, same account) gives back the full view and control
    again = Client(server, alice.token, alice.user)
    await again.connect()
    welcome = again.msgs[0]
    assert welcome["table"] == table
    snap = await again.wait_for(lambda m: m["type"] == "snapshot")
    assert snap["table"]["id"] == table and snap["state"] is not None
    assert snap["state"]["autoplay"][seat] is False
    # the snapshot is the first thing after the welcome: no state or table view of the take-back ahead of it
    assert [m["type"] for m in again.msgs[: again.msgs.index(snap) + 1]] == ["welcome", "snapshot"]
    over = await again.play_until_over()
    vs = versions(again.msgs)
    assert all(b - a in (0, 1) for a, b in itertools.pairwise(vs)), vs
    deal = await again.get(f"/api/deals/{over['deal']}")
    mine = seat_actions(deal["record"], seat)
    i_on, i_off = mine.index("autoplay on"), mine.index("autoplay off")
    assert i_off > i_on + 1, mine  # auto-play acted for the seat in between
    assert get_factory("doudizhu").replay(deal["record"]).outcome() == over["outcome"]
    await again.close()
    await watcher.close()


async def test_timeout_puts_seat_into_autoplay(start_server: StartServer) -> None:
    server = await start_server(bot_delay=0.05)
    alice = await Client.register(server, "alice")
    await alice.connect()
    await alice.send({"type": "prefs", "auto_pass": False})  # no 要不起 pass for her: her time must run out
    fast = {"bid_seconds": 1, "play_seconds": 1, "first_play_seconds": 1}
    await alice.send({"type": "create_table", "room": "classic-1", "options": fast, "fill_bots_after": 0})
    joined = await alice.wait_for(lambda m: m["type"] == "joined")
    seat = joined["seat"]
    turn = await my_turn(alice)
    assert 0 < turn["deadline_ms"] <= 1000
    # say nothing: the time runs out
    timed = await alice.wait_for(
        lambda m: m["type"] == "state" and m["autoplay"][seat] and m["version"] > turn["version"], 5
    )
    assert timed["version"] == turn["version"] + 1
    mark = alice.mark()
    await alice.send({"type": "autoplay", "table": joined["table"], "on": False})
    await alice.wait_for(lambda m: m["type"] == "state" and not m["autoplay"][seat], since=mark)
    over = await alice.play_until_over()
    deal = await alice.get(f"/api/deals/{over['deal']}")
    mine = seat_actions(deal["record"], seat)
    assert mine[0] == "timeout" and "autoplay off" in mine
    # a player can also turn auto-play on and off at will
    await alice.close()


async def alice_bidding(start_server: StartServer, bid_seconds: int) -> tuple[Client, int, str, Msg]:
    """Alice at a private table of bots, her bid open (auto-play never answers for her: it waits 30 s)."""
    server = await start_server(bot_delay=0.05, autoplay_delay=30.0)
    alice = await Client.register(server, "alice")
    await alice.connect()
    await alice.send({"type": "create_table", "room": "classic-1", "options": {"bid_seconds": bid_seconds},
                      "fill_bots_after": 0})
    joined = await alice.wait_for(lambda m: m["type"] == "joined")
    return alice, joined["seat"], joined["table"], await my_turn(alice)


@SQLITE_ONLY
async def test_taking_control_back_gives_an_open_decision_its_time_again_once(start_server: StartServer) -> None:
    """Auto-play off starts the open decision's clock again once, not every time: a player turning auto-play on
    and off twice a second kept his bid open for ever, and the table waited with him."""
    alice, seat, table, turn = await alice_bidding(start_server, bid_seconds=2)
    mark = alice.mark()
    loop = asyncio.get_running_loop()
    began = loop.time()

    def answered() -> bool:
        return any(m["type"] == "state" and m["version"] > turn["version"] and m["to_act"] != seat
                   for m in alice.msgs[mark:])

    while not answered() and loop.time() - began < 12:  # 2 s, and 2 s again once: 4 s, not for ever
        await alice.send({"type": "autoplay", "table": table, "on": True})
        await asyncio.sleep(0.1)
        await alice.send({"type": "autoplay", "table": table, "on": False})
        await asyncio.sleep(0.15)
    assert answered(), "the bid stayed open while auto-play went on and off"
    await alice.close()


@SQLITE_ONLY
async def test_auto_play_turned_on_too_often_in_a_deal_is_refused(start_server: StartServer,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Each change of auto-play is a journal row: a seat turns it on at most ``MAX_AUTOPLAY_ONS`` times a deal
    (then it is refused, saying so; off is never refused)."""
    monkeypatch.setattr(host_table, "MAX_AUTOPLAY_ONS", 3)
    alice, seat, table, _ = await alice_bidding(start_server, bid_seconds=60)
    for i in range(3):
        for on in (True, False):
            mark = alice.mark()
            await alice.send({"type": "autoplay", "table": table, "on": on, "id": f"a{i}{on}"})
            await alice.wait_for(lambda m, on=on: m["type"] == "state" and m["autoplay"][seat] is on, since=mark)
    mark = alice.mark()
    await alice.send({"type": "autoplay", "table": table, "on": True, "id": "once-more"})
    refused = await alice.wait_for(lambda m: m["type"] == "error" and m.get("ref") == "once-more", since=mark)
    assert refused["code"] == "autoplay_limit" and refused["params"]["limit"] == 3, refused
    assert "3 times" in refused["message"]
    snap_mark = alice.mark()
    await alice.send({"type": "snapshot", "table": table})
    snap = await alice.wait_for(lambda m: m["type"] == "snapshot", since=snap_mark)
    assert snap["state"]["autoplay"][seat] is False and snap["state"]["to_act"] == seat  # nothing changed
    await alice.close()


async def test_restart_mid_deal(start_server: StartServer) -> None:
    first = await start_server(bot_delay=0.05)
    alice = await Client.register(first, "alice")
    await alice.connect()
    await alice.send({"type": "quick_match", "room": "classic-1"})
    joined = await alice.wait_for(lambda m: m["type"] == "joined")
    table = joined["table"]
    await act_a_few_times(alice, table, 2)
    seen = max(versions(alice.msgs))
    deal_id = alice.latest_state()["deal"]
    # a private table whose creator asked for bots after 0.3 s keeps that choice across the restart
    bob = await Client.register(first, "bob")
    await bob.connect()
    await bob.send({"type": "create_table", "room": "classic-1", "fill_bots_after": 0.3, "id": 1})
    bob_table = (await bob.wait_for(lambda m: m["type"] == "joined"))["table"]
    await bob.wait_for(lambda m: m["type"] == "state" and m["table"] == bob_table)
    await first.stop()
    await alice.close()
    await bob.close()

    second = await start_server(bot_delay=0.05)
    assert second.lobby.tables[bob_table].fill_bots_after == 0.3
    t = second.lobby.tables[table]
    assert t.deal_id == deal_id and t.version >= seen  # every state a player saw was journaled first
    again = Client(second, alice.token, alice.user)
    await again.connect()
    snap = await again.wait_for(lambda m: m["type"] == "snapshot")
    assert snap["state"]["deal"] == deal_id and snap["state"]["version"] >= seen
    over = await again.play_until_over()
    assert over["deal"] == deal_id
    me = await again.get("/api/me")
    assert me["games"]["doudizhu"]["games_played"] == 1
    deal = await again.get(f"/api/deals/{deal_id}")
    assert get_factory("doudizhu").replay(deal["record"]).outcome() == over["outcome"]
    await again.close()


async def test_a_restored_deals_clocks_go_on_but_leave_time_to_reconnect(start_server: StartServer) -> None:
    """A deal taken over (or restored) mid-deal: its clocks go on from the last action, but a player cut off
    while no node ran the table keeps TAKEOVER_GRACE seconds (a 15 s clock was all but gone by the time a
    takeover let the player back: a time-out, auto-play, and in jj_match the whole loss)."""
    from qipai.host.table import TAKEOVER_GRACE

    server = await start_server(bot_delay=0.05)
    alice = await Client.register(server, "alice")
    await alice.connect()
    await alice.send({"type": "prefs", "auto_pass": False})
    await alice.send({"type": "create_table", "room": "classic-1", "fill_bots_after": 0,
                      "options": {"bid_seconds": 20, "play_seconds": 20, "first_play_seconds": 20}})
    joined = await alice.wait_for(lambda m: m["type"] == "joined")
    await my_turn(alice)
    t = server.lobby.tables[joined["table"]]
    seat = joined["seat"]
    async with t.lock:
        assert t.game is not None and seat in t.game.acting

        def restored_with(elapsed: float) -> float:
            t.restore(t.deal_id or 0, t.deal_index, t.deal_seed, t.deal_context, t.game, t.steps, elapsed=elapsed)
            left = t.seat_deadline(seat)
            assert left is not None
            return left - t.now()

        assert 20 - 3 - 1 < restored_with(3.0) <= 20 - 3  # the clock went on: 3 s of 20 are gone
        assert TAKEOVER_GRACE - 1 < restored_with(60.0) <= TAKEOVER_GRACE  # all gone: still the grace to answer
    await alice.close()


async def _spawn(db: Database, port: int) -> subprocess.Popen[bytes]:
    return await spawn_server(["-m", "qipai.server", "--bot-delay", "0.05", "--bot-fill-wait", "0.2",
                               "--log-level", "warning", "--bot-processes", "0"], port, db, tries=300)


async def test_crash_mid_deal_loses_nothing(db: Database) -> None:
    """SIGKILL in the middle of a deal: every state a player saw was journaled; the deal goes on."""
    port = free_port()
    proc = await _spawn(db, port)
    try:
        remote: Any = Remote(port)
        alice = await Client.guest(remote)
        await alice.connect()
        await alice.send({"type": "quick_match", "room": "classic-1"})
        joined = await alice.wait_for(lambda m: m["type"] == "joined")
        await act_a_few_times(alice, joined["table"], 3)
        # killed while the deal waits for alice (bots acting at once could otherwise end it first)
        turn = await my_turn(alice, since=len(alice.msgs) - 1)
        seen = max(versions(alice.msgs))
        deal_id = turn["deal"]
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        await alice.close()
        proc = await _spawn(db, port)
        again = Client(remote, alice.token, alice.user)
        await again.connect()
        snap = await again.wait_for(lambda m: m["type"] == "snapshot")
        assert snap["state"] is not None, snap
        assert snap["state"]["deal"] == deal_id and snap["state"]["version"] >= seen
        over = await again.play_until_over()
        assert over["deal"] == deal_id
        assert (await again.get("/api/me"))["games"]["doudizhu"]["games_played"] == 1
        await again.close()
    finally:
        proc.kill()
        proc.wait()


async def test_a_deal_nobody_attends_is_abandoned(start_server: StartServer) -> None:
    """Three humans leave during the bidding of a redeal table: auto-play passes for ever, so after
    ``unattended_actions`` actions with nobody connected the table closes and the deal is aborted."""
    server = await start_server(unattended_actions=30, next_deal_delay=30)
    a, b, c = [await Client.register(server, n) for n in ("amy", "ben", "cy")]
    for x in (a, b, c):
        await x.connect()
    made = await a.post("/api/tables", {"room": "classic-1"})
    table = made["table"]
    await b.post("/api/tables/join", {"invite": made["invite_code"]})
    await c.post("/api/tables/join", {"invite": made["invite_code"]})
    state = await a.wait_for(lambda m: m["type"] == "state" and m["observation"]["phase"] == "bid")
    deal = state["deal"]
    for x in (a, b, c):
        await x.close()
    for _ in range(200):
        async with a.api() as h:
            if (await h.get(f"/api/tables/{table}")).status_code == 404:
                break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the unattended table did not close")
    async with a.api() as h:
        r = await h.get(f"/api/deals/{deal}")
    assert r.status_code == 409 and r.json()["error"]["code"] == "deal_aborted"
    me = await a.get("/api/me")
    ddz = me["games"]["doudizhu"]
    assert ddz["points"] == 1000 and ddz["games_played"] == 0  # nothing was settled


async def test_a_deserted_private_table_closes_and_frees_its_host(start_server: StartServer) -> None:
    """A private table left waiting for friends whose host closed the browser closes after ``deserted_close``
    seconds (it used to stay open, its host seated, for ever); while its host is connected it waits on."""
    server = await start_server(deserted_close=0.5)
    host = await Client.register(server, "lonely")
    await host.connect()
    made = await host.post("/api/tables", {"room": "classic-1"})
    table = made["table"]
    await asyncio.sleep(1.0)
    assert table in server.lobby.tables  # its host is here: it waits for the friends
    await host.close()
    for _ in range(100):
        if table not in server.lobby.tables:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the deserted table did not close")
    async with host.api() as h:
        assert (await h.get(f"/api/tables/{table}")).status_code == 404
    await host.connect()
    again = await host.post("/api/tables", {"room": "classic-1"})  # free to sit elsewhere
    assert again["table"] != table


async def test_restart_between_deals_keeps_the_table_and_its_match(start_server: StartServer) -> None:
    """A restart after a deal and before the next: the table comes back with its seats and its match state (who
    bids first next under random_then_rotate), the player reconnects and readies, and the rotation goes on."""
    kw = {"ready_timeout": 60.0, "restore_grace": 60.0}
    first = await start_server(**kw)
    alice = await Client.register(first, "between")
    await alice.connect()
    await alice.send({"type": "quick_match", "room": "classic-1"})
    joined = await alice.wait_for(lambda m: m["type"] == "joined")
    over = await alice.play_until_over()
    fb = over["outcome"]["first_bidder"]
    table = first.lobby.tables[joined["table"]]
    assert not table.running and table.match["next_first_bidder"] == (fb + 1) % 3
    await alice.close()
    await first.stop()
    second = await start_server(**kw)
    restored = second.lobby.tables.get(joined["table"])
    assert restored is not None and not restored.running
    assert restored.match["next_first_bidder"] == (fb + 1) % 3 and restored.deal_index == 1
    again = Client(second, alice.token, alice.user)
    await again.connect()
    snap = await again.wait_for(lambda m: m["type"] == "snapshot")
    assert snap["table"]["id"] == joined["table"] and snap["table"]["you"] == joined["seat"]
    await again.send({"type": "ready", "table": joined["table"]})
    st = await again.wait_for(lambda m: m["type"] == "state")
    assert st["observation"]["first_bidder"] == (fb + 1) % 3
    await again.close()


async def test_a_leaver_mid_deal_is_let_go_after_a_restart(start_server: StartServer) -> None:
    """Leaving during a deal frees the seat when the deal ends, also when the server restarts in between (the
    player once came back seated, and was dealt the next hand)."""
    # (the first server's bots and auto-play wait: its deal must still run when it stops, however slow the
    # machine — under CI's load fast ones once finished the deal first, and the empty table closed)
    first = await start_server(bot_delay=5.0, autoplay_delay=5.0)
    alice = await Client.register(first, "goer")
    await alice.connect()
    await alice.send({"type": "quick_match", "room": "classic-1"})
    joined = await alice.wait_for(lambda m: m["type"] == "joined")
    table, seat = joined["table"], joined["seat"]
    await alice.wait_for(lambda m: m["type"] == "state")
    await alice.send({"type": "leave", "table": table})
    await alice.wait_for(lambda m: m["type"] == "left" and m["reason"] == "leaving_after_deal")
    deal_id = first.lobby.tables[table].deal_id
    await alice.close()
    await first.stop()

    second = await start_server(bot_delay=0.05)
    t = second.lobby.tables[table]
    s = t.seats[seat]
    assert t.deal_id == deal_id and s is not None and s.leaving and not s.auto_by_disconnect
    again = Client(second, alice.token, alice.user)
    await again.connect()
    await again.wait_for(lambda m: m["type"] == "left" and m["reason"] == "left", 60)
    assert t.seats[seat] is None or t.seats[seat].user_id != alice.user["id"]
    me = await again.get("/api/me")
    assert me["table"] is None and me["games"]["doudizhu"]["games_played"] == 1
    await again.close()


async def test_a_leaver_whose_deal_is_gone_is_let_go_between_deals(start_server: StartServer) -> None:
    """Between deals, a seat still marked as left (its deal ended unsettled, or could not be rebuilt after a
    restart) is freed when the table comes back, not kept for the next deal."""
    kw = {"ready_timeout": 60.0, "restore_grace": 60.0}
    first = await start_server(**kw)
    alice = await Client.register(first, "stale")
    await alice.connect()
    await alice.send({"type": "quick_match", "room": "classic-1"})
    joined = await alice.wait_for(lambda m: m["type"] == "joined")
    await alice.play_until_over()
    await first.lobby.store.set_seat(joined["table"], joined["seat"], alice.user["id"], None, leaving=True)
    await alice.close()
    await first.stop()
    second = await start_server(**kw)
    t = second.lobby.tables.get(joined["table"])
    assert t is None or t.seats[joined["seat"]] is None  # (a table left with bots only is closed)
    assert second.lobby.user_table.get(alice.user["id"]) is None
    again = Client(second, alice.token, alice.user)
    assert (await again.get("/api/me"))["table"] is None


async def test_a_draining_node_plays_an_unwatched_deal_without_pauses(start_server: StartServer) -> None:
    """A node asked to drain hands its tables over between deals; a deal nobody watches (its player gone, every
    seat bots or auto-play) must not keep the node for minutes of paced moves, while a watched one keeps its
    pace."""
    server = await start_server(bot_delay=3.0, autoplay_delay=3.0)
    alice = await Client.register(server, "alice")
    await alice.connect()
    await alice.send({"type": "quick_match", "room": "classic-1"})
    joined = await alice.wait_for(lambda m: m["type"] == "joined")
    table, seat = joined["table"], joined["seat"]
    await alice.wait_for(lambda m: m["type"] == "state", timeout=20)
    t = server.lobby.tables[table]
    game = t.game
    assert game is not None and not game.is_over
    watcher = await Client.guest(server)
    await watcher.connect()
    await watcher.send({"type": "spectate", "table": table})
    await watcher.wait_for(lambda m: m["type"] == "snapshot")
    await alice.close()
    await watcher.wait_for(lambda m: m["type"] == "state" and m["autoplay"][seat])
    await server.lobby.drain()
    assert t.watched() and t._delay_for(seat) == 3.0  # someone watches: the deal keeps its pace
    await watcher.close()
    for _ in range(100):
        if not t.watched():
            break
        await asyncio.sleep(0.05)
    assert not t.watched() and t._delay_for(seat) == 0.0
    # paced, the rest of the deal would take a minute or more (3 s a move); unwatched it is over in moments
    for _ in range(200):
        if game.is_over:
            break
        await asyncio.sleep(0.05)
    assert game.is_over


async def test_a_ready_before_a_restart_is_kept(start_server: StartServer) -> None:
    """准备 before a restart between deals: the table comes back with the player ready, and deals the next hand
    once the others ready, without asking him again (the ready flags lived only in the stopped node: a player
    who had readied waited ``restore_grace`` seconds, or had to ready again)."""
    kw = {"ready_timeout": 60.0, "restore_grace": 60.0, "next_deal_delay": 0.2, "bot_delay": 0.05}
    first = await start_server(**kw)
    (ann, bob), table = await private_table(first, "classic-1", ["ann", "bob"], {}, bots=True)
    overs = await asyncio.gather(ann.play_until_over(), bob.play_until_over())
    seat, bob_seat = (first.lobby.tables[table].seat_of(c.user["id"]) for c in (ann, bob))
    since = len(ann.msgs)
    await ann.send({"type": "ready", "table": table})
    await ann.wait_for(lambda m: m["type"] == "table" and m["table"]["ready"][seat] is True, since=since)
    for c in (ann, bob):
        await c.close()
    await first.stop()
    second = await start_server(**kw)
    restored = second.lobby.tables[table]
    assert not restored.running and restored.ready is not None
    assert restored.ready.get(seat) is True and restored.ready.get(bob_seat) is False
    again = [Client(second, c.token, c.user) for c in (ann, bob)]
    for c in again:
        await c.connect()
        await c.wait_for(lambda m: m["type"] == "snapshot")
    await again[1].send({"type": "ready", "table": table})  # only bob readies on the new node
    st = await again[0].wait_for(lambda m: m["type"] == "state", timeout=20)  # (the grace is a minute)
    assert st["deal"] != overs[0]["deal"]
    for c in again:
        await c.close()
