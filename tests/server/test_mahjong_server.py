"""Daqing mahjong (大庆麻将) through the real server with real WebSocket clients (SQLite and PostgreSQL): quick
match in the mahjong room with bots filling the seats, four humans answering the claim windows together (several
seats deciding at once on one discard), a claim window closed by its timer, a reconnect, and a restart of the
server in the middle of a deal that restores the deal from the journal and finishes it.

Timers: private tables set ``turn_seconds``/``claim_seconds``; quick-match tables run the room's options under
``time_scale``.
"""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
from dataclasses import dataclass, field
from typing import Any

from qipai.core.game import apply_step
from qipai.core.registry import get_factory
from qipai.games.mahjong.tiles import parse_tiles

from server_helpers import (
    SQLITE_ONLY,
    Client,
    Database,
    DecisionPlayer,
    LiveServer,
    Msg,
    Remote,
    StartServer,
    deal_overs,
    follow_views,
    free_port,
    spawn_server,
    st_of,
)
from server_helpers import (
    private_table as room_table,
)

MJ = get_factory("mahjong")
FAST_CLIENTS = {"rate_limit": 1000.0, "rate_burst": 2000}
"""Test clients answer at once; the per-connection rate limit is raised for them."""


@dataclass
class Player(DecisionPlayer):
    """A test client playing mahjong: answers every open decision of its seat from the legal list, with the
    decision id (several seats answer one claim window at once).  It wins whenever it may, claims now and then,
    declares 听 when it can."""

    claim: float = 0.5
    answered_windows: list[tuple[int, int, int]] = field(default_factory=list)
    """(deal, decision, version) of every claim window this player answered."""

    def answering(self, st: Msg) -> None:
        if st["phase"] == "claim":
            self.answered_windows.append((st["deal"], st["decision"], st["version"]))

    def choose(self, st: Msg) -> str:
        legal: list[str] = st["legal"]
        if "hu" in legal:
            return "hu"
        if st["phase"] == "claim":
            claims = [a for a in legal if a != "pass"]
            return self.rng.choice(claims) if claims and self.rng.random() < self.claim else "pass"
        tings = [a for a in legal if a.startswith("ting")]
        if tings:
            return self.rng.choice(tings)
        return self.rng.choice(legal)


def check_views(c: Client, deal: dict[str, Any], seat: int | None) -> int:
    """Every state the connection got for this deal is the game's own view for the seat at some point of the
    deal (:func:`follow_views`): no other seat's concealed tile, nor the 宝 before the seat was ready, nor a step
    the seat could not see, ever arrived.  Returns the number of states checked."""
    g = MJ.new(deal["options"], deal["seed"], deal["context"])
    n = 0
    for st in follow_views(c, deal["id"], g, steps_of(deal["record"]), seat):
        n += 1
        obs = st["observation"]
        if seat is not None and obs["phase"] != "over":
            mine = len(parse_tiles(obs["hand"])) + (obs["drawn"] is not None)
            assert mine == obs["concealed"][seat]
            if not obs["ready"][seat]:
                assert obs["bao"] is None
    return n


async def private_table(server: LiveServer, names: list[str], options: dict[str, Any],
                        bots: bool = False) -> tuple[list[Client], str]:
    """Registered players at one private mahjong table (see :func:`server_helpers.private_table`)."""
    return await room_table(server, "daqing-1", names, options, bots)


def steps_of(record: dict[str, Any]) -> list[tuple[int, str]]:
    """The record's steps as (seat, text)."""
    return [(a["seat"], a["action"]) for a in record["actions"]]


def journal_of(deal: dict[str, Any], seat: int) -> list[str]:
    return [t for s, t in steps_of(deal["record"]) if s == seat]


def windows(record: dict[str, Any]) -> list[list[tuple[int, str]]]:
    """The claim windows of a record: the answers given in each (seat, text), in order, replayed.  A window
    ends when its decision does: two windows may follow each other with no step between (all pass, and the next
    seat, ready (听), discards its draw by itself)."""
    g = MJ.new(record["rules"], record["seed"], {"dealer": record["dealer"]})
    out: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] | None = None
    for seat, text in steps_of(record):
        in_claim = g.phase == "claim"
        if in_claim:
            if current is None:
                current = []
                out.append(current)
            current.append((seat, text))
        decision = g.decision_index(seat)
        apply_step(g, seat, text)
        if g.phase != "claim" or not in_claim or g.decision_index(seat) != decision:
            current = None
    return out


def check_outcome(out: dict[str, Any]) -> None:
    """A settled deal: zero-sum, and when somebody won, the settlement names each loser's fans and share."""
    assert sum(out["scores"]) == 0
    if out["exhausted"]:
        assert out["winner"] is None and all(s == 0 for s in out["scores"])
        return
    w = out["winner"]
    st = out["settlement"]
    assert out["scores"][w] > 0
    losers = {x["seat"] for x in st["shares"]}
    assert losers == {s for s in range(4) if s != w}
    assert sum(p["amount"] for p in st["payments"]) == out["scores"][w]


@SQLITE_ONLY
async def test_quick_match_with_bots_plays_a_whole_deal(start_server: StartServer) -> None:
    """The mahjong room stands in the room list; a quick match fills three seats with the efficiency bot and
    plays a whole deal at the room's pace (scaled); the outcome replays from the stored record, every state the
    human got is his own view, and the points are settled in the database."""
    server = await start_server(time_scale=0.03, **FAST_CLIENTS)
    alice = await Client.register(server, "alice")
    rooms = {r["id"]: r for r in (await alice.get("/api/rooms"))["rooms"]}
    assert rooms["daqing-1"]["game"] == "mahjong" and rooms["daqing-1"]["options"] == {"preset": "daqing"}
    me = await alice.get("/api/me")
    assert me["games"]["mahjong"]["title"] == MJ.title(me["games"]["mahjong"]["points"])
    before = me["games"]["mahjong"]["points"]
    await alice.connect()
    await alice.send({"type": "quick_match", "room": "daqing-1"})
    joined = await alice.wait_for(lambda m: m["type"] == "joined")
    seat = joined["seat"]
    p = Player(alice).start()
    over = (await deal_overs(alice, 1))[0]
    await p.stop()
    assert not p.refusals(), p.refusals()
    table = server.lobby.tables[joined["table"]]
    assert [s.bot for s in table.seats if s is not None].count("efficiency") == 3
    out = over["outcome"]
    check_outcome(out)
    deal = await alice.get(f"/api/deals/{over['deal']}")
    assert MJ.replay(deal["record"]).outcome() == out
    # every state she was sent matched the record (a quick win can end a deal after a dozen draws)
    assert check_views(alice, deal, seat) > 8
    assert journal_of(deal, seat)  # alice played her own turns
    me = await alice.get("/api/me")
    assert me["games"]["mahjong"]["points"] == before + out["scores"][seat]
    assert me["games"]["mahjong"]["games_played"] == 1
    assert over["match"]["deals"] == 1 and over["match"]["dealer"] == out["next_dealer"]
    await alice.close()


async def test_four_humans_answer_claim_windows_together(start_server: StartServer) -> None:
    """Four humans, no bots, deal after deal until a claim window asked two or more of them at once: each of
    them got the window (``your_turn`` with the same decision id), each answered, and the window closed on the
    answers (no timeout) with the claim of the highest rank carried out; each saw only his own tiles."""
    server = await start_server(next_deal_delay=0.2, **FAST_CLIENTS)
    options = {"turn_seconds": 30, "claim_seconds": 30}
    clients, table = await private_table(server, ["ann", "bob", "cat", "dan"], options)
    players = [Player(c, rng=random.Random(i), claim=0.6).start() for i, c in enumerate(clients)]
    multi: list[list[tuple[int, str]]] = []
    deal: dict[str, Any] = {}
    overs: list[Msg] = []
    for n in range(1, 11):
        overs = [(await deal_overs(c, n))[-1] for c in clients]
        assert all(o["outcome"] == overs[0]["outcome"] for o in overs)
        check_outcome(overs[0]["outcome"])
        deal = await clients[0].get(f"/api/deals/{overs[0]['deal']}")
        assert MJ.replay(deal["record"]).outcome() == overs[0]["outcome"]
        multi = [w for w in windows(deal["record"]) if len({s for s, _ in w}) >= 2]
        if multi:
            break
    for p in players:
        await p.stop()
        assert not p.refusals(), p.refusals()
    assert multi, "no claim window asked two seats in ten deals"
    for w in multi:
        assert all(t != "timeout" for _, t in w)  # the humans answered it themselves
    # each asked seat saw the window as its own decision, with the same decision id
    did = overs[0]["deal"]
    asked = {s for s, _ in multi[0]}
    for s in asked:
        assert any(d == did for d, _, _ in players[s].answered_windows)
    for seat, c in enumerate(clients):  # every state each received is that seat's own view (a deal won early
        assert check_views(c, deal, seat) >= 5  # sends few: "> 20" failed on a 10-state deal)
    # a window where two seats were asked: they answered the same decision (at versions that may differ)
    decisions = [{dec for d, dec, _ in players[s].answered_windows if d == did} for s in asked]
    assert set.intersection(*decisions), (multi, {s: players[s].answered_windows for s in asked})
    assert server.lobby.tables[table].match["deals"] >= 1
    for c in clients:
        await c.close()


def timeouts(record: dict[str, Any], seat: int) -> list[tuple[str, bool]]:
    """The seat's timeouts in a record: (the phase it ran out in, whether the seat was in auto-play after)."""
    g = MJ.new(record["rules"], record["seed"], {"dealer": record["dealer"]})
    out: list[tuple[str, bool]] = []
    for s, text in steps_of(record):
        phase = g.phase
        apply_step(g, s, text)
        if s == seat and text == "timeout":
            out.append((phase, g.in_autoplay(seat)))
    return out


@SQLITE_ONLY
async def test_claim_window_timeout_and_turn_timeout(start_server: StartServer) -> None:
    """Two humans and two bots.  Bob answers no claim window: each window he is asked in closes on its timer
    (a ``timeout`` of his, his pass) and does not put him into auto-play; then he stops taking his turns too: the
    turn clock discards for him and auto-play starts (§9)."""
    server = await start_server(bot_fill_wait=30, next_deal_delay=0.2, **FAST_CLIENTS)
    options = {"turn_seconds": 2, "claim_seconds": 1}
    (ann, bob), table = await private_table(server, ["ann", "bob"], options, bots=True)
    pa = Player(ann, claim=0.0).start()
    pb = Player(bob, silent=lambda st: st["phase"] == "claim").start()  # he plays his turns, lets windows run out
    window_timeouts: list[tuple[str, bool]] = []
    for n in range(1, 5):
        over = (await deal_overs(ann, n, 120))[-1]
        deal = await ann.get(f"/api/deals/{over['deal']}")
        assert MJ.replay(deal["record"]).outcome() == over["outcome"]
        window_timeouts = [x for x in timeouts(deal["record"], 1) if x[0] == "claim"]
        if window_timeouts:
            break
    assert window_timeouts, "bob was never asked in a claim window in four deals"
    assert all(auto is False for _, auto in window_timeouts)  # a window timeout is a pass, not auto-play
    assert [x for x in timeouts(deal["record"], 1) if x[0] == "play"] == []
    await pb.stop()
    # now bob does nothing at all: his next turn times out, a tile is discarded for him, auto-play is on
    since = bob.mark()
    on = await bob.wait_for(lambda m: m["type"] == "state" and m["autoplay"][1], 60, since)
    assert on["observation"]["autoplay"][1]
    t = server.lobby.tables[table]
    last = t.deal_id
    over = await ann.wait_for(lambda m: m["type"] == "deal_over" and m["deal"] == last, 120)
    await pa.stop()
    assert not pa.refusals(), pa.refusals()
    deal = await ann.get(f"/api/deals/{over['deal']}")
    assert ("play", True) in timeouts(deal["record"], 1)  # the turn that ran out put him into auto-play
    assert MJ.replay(deal["record"]).outcome() == over["outcome"]
    check_outcome(over["outcome"])
    await ann.close()
    await bob.close()


async def test_reconnect_mid_deal_gives_back_the_hand_and_control(start_server: StartServer) -> None:
    """Ann plays with three bots, disconnects in the middle of the deal (auto-play takes her seat), and comes
    back: the snapshot holds her own concealed tiles, auto-play is off again, and she finishes the deal."""
    server = await start_server(bot_delay=0.1, autoplay_delay=0.1, **FAST_CLIENTS)
    options = {"turn_seconds": 10, "claim_seconds": 5}
    # a deal may end early on a quick win before the disconnect is seen: then try again at a new table
    for attempt in range(4):
        (ann,), table = await private_table(server, [f"ann{attempt}"], options, bots=True)
        p = Player(ann).start()
        await ann.wait_for(lambda m: m["type"] == "state" and m["observation"]["wall"] <= 52, 30)
        await p.stop()
        await ann.close()
        t = server.lobby.tables[table]
        for _ in range(200):
            if t.game is None or t.game.phase == "over" or t.game.in_autoplay(0):
                break
            await asyncio.sleep(0.02)
        if t.game is not None and t.game.phase != "over":
            break
    assert t.game is not None and t.game.phase != "over", "every deal ended before the reconnect"
    assert t.game.in_autoplay(0)  # disconnecting turned auto-play on
    again = await Client(server, ann.token, ann.user).connect()
    snap = await again.wait_for(lambda m: m["type"] == "snapshot")
    st = snap["state"]
    assert snap["table"]["id"] == table and st["autoplay"][0] is False
    obs = st["observation"]
    if obs["phase"] != "over":
        assert obs["seat"] == 0 and len(parse_tiles(obs["hand"])) + (obs["drawn"] is not None) == obs["concealed"][0]
        assert obs["hand"] == t.game.observe(0)["hand"]
    p = Player(again).start()
    over = (await deal_overs(again, 1))[0]
    await p.stop()
    deal = await again.get(f"/api/deals/{over['deal']}")
    mine = journal_of(deal, 0)
    assert mine.index("autoplay off") > mine.index("autoplay on")
    assert MJ.replay(deal["record"]).outcome() == over["outcome"]
    await again.close()


async def test_restart_mid_deal_restores_it_from_the_journal(start_server: StartServer) -> None:
    """A quick-match table: the server stops in the middle of the deal; the next server restores the deal from
    the journal (same deal, at least the version the player saw), the player reconnects to a snapshot of it and
    the deal finishes there, replayable from its record; the match goes on to the next deal."""
    # (turns of 15 × 0.2 = 3 s: the deal waits for alice while the first server stops, even on a busy machine)
    settings = {"time_scale": 0.2, "next_deal_delay": 0.2, "restore_grace": 0.5}
    first = await start_server(**settings, **FAST_CLIENTS)
    alice = await Client.register(first, "alice")
    await alice.connect()
    await alice.send({"type": "quick_match", "room": "daqing-1"})
    table = (await alice.wait_for(lambda m: m["type"] == "joined"))["table"]
    before = 0  # deals that ended before the one the server stops in
    def stop_here(st: Msg) -> bool:
        """Alice's own discard late in the deal: she holds it (the deal waits for her) while the server stops."""
        return st["phase"] == "play" and st["your_turn"] and st["observation"]["wall"] <= 50

    for _ in range(5):
        p = Player(alice, silent=stop_here).start()
        await alice.wait_for(lambda m: ((st := st_of(m)) is not None and stop_here(st))
                             or m["type"] == "deal_over", 60)
        await p.stop()
        if alice.latest_state() is not None:
            break
        # somebody won just then and the deal is over: stop in the middle of the next one
        before += 1
        alice.msgs.clear()
    seen = max(st["version"] for m in alice.msgs if (st := st_of(m)) is not None)
    deal_id = alice.latest_state()["deal"]  # type: ignore[index]
    hand_before = first.lobby.tables[table].game.observe(alice.latest_state()["you"])  # type: ignore[index]
    await first.stop()
    await alice.close()

    second = await start_server(**settings, **FAST_CLIENTS)
    t = second.lobby.tables[table]
    assert t.deal_id == deal_id and t.version >= seen and t.game is not None
    seat = next(i for i, s in enumerate(t.seats) if s is not None and s.user_id == alice.user["id"])
    if t.version == seen and t.game.phase != "over":
        assert t.game.observe(seat)["hand"] == hand_before["hand"]
    again = await Client(second, alice.token, alice.user).connect()
    snap = await again.wait_for(lambda m: m["type"] == "snapshot")
    assert snap["state"]["deal"] == deal_id and snap["state"]["version"] >= seen
    p = Player(again).start()
    over = (await deal_overs(again, 1))[0]
    assert over["deal"] == deal_id
    check_outcome(over["outcome"])
    deal = await again.get(f"/api/deals/{deal_id}")
    assert MJ.replay(deal["record"]).outcome() == over["outcome"]
    assert over["match"]["deals"] == before + 1
    nxt = await again.wait_for(lambda m: m["type"] == "state" and m["deal"] != deal_id, 30)
    assert nxt["observation"]["dealer"] == over["outcome"]["next_dealer"]
    await p.stop()
    await again.close()


async def _serve(db: Database, port: int) -> subprocess.Popen[bytes]:
    """``qipai serve`` in a process of its own on the test's database (a fast table: short bot waits, the
    room's clocks scaled down)."""
    return await spawn_server(["-m", "qipai.cli", "serve", "--bot-delay", "0.02", "--bot-fill-wait", "0.2",
                               "--time-scale", "0.05", "--restore-grace", "0.5", "--log-level", "warning",
                               "--bot-processes", "0", "--rate-limit", "1000", "--rate-burst", "2000"], port, db)


async def test_qipai_serve_killed_mid_deal_finishes_the_deal(db: Database) -> None:
    """``qipai serve`` as its own process: a quick match in the mahjong room, SIGKILL in the middle of the deal
    (after a claim window or two), a new ``qipai serve`` on the same database: the deal comes back from the
    journal at the version the player saw and is finished there."""
    port = free_port()
    proc = await _serve(db, port)
    try:
        remote: Any = Remote(port)
        alice = await Client.guest(remote)
        await alice.connect()
        await alice.send({"type": "quick_match", "room": "daqing-1"})
        await alice.wait_for(lambda m: m["type"] == "joined")

        def waiting_on_alice(st: Msg) -> bool:
            """Mid-deal, alice to discard (or 听) and nobody else with a decision: the deal stands still until
            she acts or her clock (0.75 s at this time scale) runs out, so the kill lands mid-deal (a bot
            could otherwise win, and the deal be settled, between her last state and the kill)."""
            return (st["observation"]["wall"] <= 50 and st["phase"] != "claim" and st["your_turn"]
                    and bool(st["legal"]) and not st["autoplay"][st["you"]] and st.get("forced") is None)

        p = Player(alice, silent=waiting_on_alice).start()
        # mid-deal: a few draws in (a deal can end early, on a quick win: then the next deal is the one)
        for _ in range(5):
            mark = alice.mark()
            got = await alice.wait_for(lambda m: m["type"] == "deal_over" or (
                m["type"] == "state" and waiting_on_alice(m)), 60, since=mark)
            if got["type"] == "state":
                break
        await p.stop()
        assert got["type"] == "state", "five deals in a row ended before alice's turn after the sixth draw"
        deal_id = got["deal"]
        seen = max(st["version"] for m in alice.msgs if (st := st_of(m)) is not None and st.get("deal") == deal_id)
        assert not any(m["type"] == "deal_over" and m.get("deal") == deal_id for m in alice.msgs)
        earlier = sum(1 for m in alice.msgs if m["type"] == "deal_over")  # deals that ended on a quick win
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        await alice.close()
        proc = await _serve(db, port)
        again = Client(remote, alice.token, alice.user)
        await again.connect()
        snap = await again.wait_for(lambda m: m["type"] == "snapshot")
        assert snap["state"]["deal"] == deal_id and snap["state"]["version"] >= seen
        p = Player(again).start()
        over = (await deal_overs(again, 1))[0]
        await p.stop()
        assert over["deal"] == deal_id
        check_outcome(over["outcome"])
        deal = await again.get(f"/api/deals/{deal_id}")
        assert MJ.replay(deal["record"]).outcome() == over["outcome"]
        assert (await again.get("/api/me"))["games"]["mahjong"]["games_played"] == earlier + 1
        await again.close()
    finally:
        proc.kill()
        proc.wait()
