"""Four-deck Shengji through the real server with real WebSocket clients (SQLite and PostgreSQL): four humans
through a whole match, humans with bots, timeouts, a player who leaves keeping the seat to the match's end, a
reconnect, and restarts in the middle of a hand and between hands with the match (levels, banker) carried on.

Timers are short: private tables set ``deal_step_ms``/``final_declare_s``/``play_s``/``first_lead_s``, quick
match tables run the room's options under ``time_scale``.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from typing import Any

from qipai.core.registry import get_factory
from qipai.games.shengji.cards import parse_cards

from server_helpers import (
    SQLITE_ONLY,
    Client,
    DecisionPlayer,
    LiveServer,
    Msg,
    StartServer,
    deal_overs,
    follow_views,
    st_of,
)
from server_helpers import private_table as room_table

SJ = get_factory("shengji")
FAST = {"deal_step_ms": 4, "final_declare_s": 0.3, "first_lead_s": 3, "play_s": 3}
"""Private-table timers: a 4 ms deal pace, short play clocks (the test clients answer at once)."""
FAST_CLIENTS = {"rate_limit": 1000.0, "rate_burst": 2000}
"""Test clients answer every window as fast as the server deals (a person, at 150 ms a card, sends under 7
messages a second): the per-connection rate limit is raised for them."""


@dataclass
class Player(DecisionPlayer):
    """A test client playing Shengji: answers every open decision of its seat from the legal list (declaring
    now and then in the windows), with the decision id, so answers stay valid while others answer."""

    declare: float = 0.05
    sent: int = 0

    def answering(self, st: Msg) -> None:
        self.sent += 1

    def choose(self, st: Msg) -> str:
        legal: list[str] = st["legal"]
        if st["phase"] in ("deal", "final"):
            decl = [a for a in legal if a.startswith("declare")]
            return self.rng.choice(decl) if decl and self.rng.random() < self.declare else "pass"
        return self.rng.choice(legal)


def check_views(c: Client, deal: dict[str, Any], seat: int | None) -> int:
    """Every state the connection got for this deal is the game's own view for the seat at some point of the
    deal (:func:`follow_views`): nothing of another seat's hand or concealed declarations ever arrived.
    Returns the number of states checked."""
    g = SJ.new(deal["options"], deal["seed"], deal["context"])
    n = 0
    for st in follow_views(c, deal["id"], g, deal["record"]["actions"], seat):
        n += 1
        if seat is not None:
            assert len(parse_cards(st["observation"]["hand"])) == sum(g.hands[seat])  # type: ignore[attr-defined]
    return n


async def private_table(server: LiveServer, names: list[str], options: dict[str, Any],
                        bots: bool = False) -> tuple[list[Client], str]:
    """Registered players at one private four_deck table (see :func:`server_helpers.private_table`)."""
    return await room_table(server, "four_deck-1", names, options, bots)


def journal_of(deal: dict[str, Any], seat: int) -> list[str]:
    return [t for s, t in deal["record"]["actions"] if s == seat]


@SQLITE_ONLY
async def test_rooms_and_quick_match_with_bots(start_server: StartServer) -> None:
    """Shengji rooms stand next to Dou Dizhu's; a quick match fills three seats with the rule bot and plays a
    whole hand at the room's pace (scaled), settled in the database."""
    server = await start_server(time_scale=0.03, **FAST_CLIENTS)
    alice = await Client.register(server, "alice")
    rooms = {r["id"]: r for r in (await alice.get("/api/rooms"))["rooms"]}
    assert {"classic-1", "four_deck-1", "four_deck-10", "four_deck-100"} <= set(rooms)
    assert rooms["four_deck-10"]["game"] == "shengji" and rooms["four_deck-10"]["options"] == {
        "preset": "four_deck", "stake": 10}
    assert rooms["four_deck-100"]["min_points"] == 2000
    me = await alice.get("/api/me")
    assert me["games"]["shengji"]["points"] == 1000 and me["games"]["shengji"]["title"] == SJ.title(1000) == "中尉"
    await alice.connect()
    await alice.send({"type": "quick_match", "room": "four_deck-1"})
    joined = await alice.wait_for(lambda m: m["type"] == "joined")
    seat = joined["seat"]
    p = Player(alice, declare=0.2).start()
    over = (await deal_overs(alice, 1))[0]
    await p.stop()
    assert not p.refusals(), p.refusals()
    table = server.lobby.tables[joined["table"]]
    assert [s.bot for s in table.seats if s is not None].count("rule") == 3
    out = over["outcome"]
    assert sum(out["scores"]) == 0 and len(out["tricks"]) >= 1
    assert sum(len(parse_cards(c)) for t in out["tricks"] for _, c in t["plays"]) == 216
    assert over["match"]["hands"] == 1 and over["match"]["banker"] == out["next_banker"]
    deal = await alice.get(f"/api/deals/{over['deal']}")
    full = SJ.replay(deal["record"]).outcome()
    assert full is not None and {**full, "declarations": out["declarations"]} == out
    # everyone was told each declaration's seat, count and time, not its cards (§3.2; the record has them)
    assert [[s, len(parse_cards(c)), at] for s, c, at in full["declarations"]] == out["declarations"]
    assert check_views(alice, deal, seat) > 300
    # the three bots' answers to a window went to the journal in one commit
    steps = len(deal["record"]["actions"])
    assert server.lobby.journal.batches <= steps - 2 * 200
    me = await alice.get("/api/me")
    assert me["games"]["shengji"]["points"] == 1000 + out["scores"][seat]
    assert me["games"]["shengji"]["games_played"] == 1
    await alice.close()


@SQLITE_ONLY
async def test_four_humans_play_a_whole_match(start_server: StartServer) -> None:
    """Four humans, no bots: every window answered by all four (declarations and overcalls as they come), a
    match of one hand (``hand_limit`` 1) that ends with a winner or a draw; each player saw only their own cards;
    the next match starts from the start level."""
    server = await start_server(next_deal_delay=30, **FAST_CLIENTS)
    # windows long enough that the four answer each one themselves (it closes as soon as all four have)
    options = {**FAST, "deal_step_ms": 1000, "hand_limit": 1}
    clients, table = await private_table(server, ["ann", "bob", "cat", "dan"], options)
    players = [Player(c, rng=random.Random(i), declare=0.3).start() for i, c in enumerate(clients)]
    overs = [(await deal_overs(c, 1))[0] for c in clients]
    for p in players:
        await p.stop()
        assert not p.refusals(), p.refusals()
    assert all(o["outcome"] == overs[0]["outcome"] for o in overs)
    over = overs[0]
    out, match = over["outcome"], over["match"]
    assert over["match_over"] and match["over"] and match["hands"] == 1
    levels = match["levels"]
    order = "3456789TJQKA"
    if levels[0] == levels[1]:
        assert match["winner"] is None
    else:
        assert match["winner"] == (0 if order.index(levels[0]) > order.index(levels[1]) else 1)
    deal = await clients[0].get(f"/api/deals/{over['deal']}")
    record = deal["record"]
    # the windows were answered by the four players themselves (a timeout only where a loaded machine was slow)
    play_at = next(i for i, a in enumerate(record["actions"]) if a[1].startswith("play"))
    window_steps = [t for _, t in record["actions"][:play_at]]
    assert window_steps.count("timeout") <= 3 and len(window_steps) >= 4 * 216 - 12
    assert any(t.startswith("declare") for t in window_steps)
    assert SJ.replay(record).observe(None)["outcome"] == out
    for seat, c in enumerate(clients):
        assert check_views(c, deal, seat) > 300
        me = await c.get("/api/me")
        assert me["games"]["shengji"]["points"] == 1000 + out["scores"][seat]
    # the match is over: the table's next match starts again from the start level, with no banker
    t = server.lobby.tables[table]
    assert t.match == SJ.match_start(t.info.options)
    for c in clients:
        await c.close()


@SQLITE_ONLY
async def test_bots_a_timeout_and_a_leaver_keeps_the_seat(start_server: StartServer) -> None:
    """Two humans and two bots over a two-hand match.  Deal windows close on their timer for everybody and
    put nobody into auto-play; a play timer that runs out plays for the seat and starts auto-play.  Bob leaves
    during the first hand: his seat stays his, in auto-play, through the second hand, and is freed when the
    match ends."""
    server = await start_server(next_deal_delay=0.2, ready_timeout=0.3, bot_fill_wait=30, **FAST_CLIENTS)
    options = {**FAST, "play_s": 1, "first_lead_s": 1, "hand_limit": 2}
    (ann, bob), table = await private_table(server, ["ann", "bob"], options, bots=True)
    t = server.lobby.tables[table]
    pa = Player(ann, silent=lambda st: st["phase"] in ("deal", "final")).start()  # she only plays
    # nor does bob answer a window, and he makes no play: the windows close on their timer, his first play times out
    await bob.wait_for(lambda m: m["type"] == "state" and m["phase"] == "play" and m["your_turn"], 30)
    on = await bob.wait_for(lambda m: m["type"] == "state" and m["autoplay"][1], 10)
    assert on["observation"]["phase"] == "play"
    await bob.send({"type": "leave", "table": table})
    await bob.wait_for(lambda m: m["type"] == "left" and m["reason"] == "left_match")
    gone = bob.mark()
    assert server.lobby.user_table.get(bob.user["id"]) is None  # free to play elsewhere
    await bob.send({"type": "leave", "table": table, "id": "again"})  # leaving twice is refused, with an answer
    assert (await bob.error("left_match", gone))["ref"] == "again"
    first = (await deal_overs(ann, 1))[0]
    # in a later hand he cannot take the seat back, nor play for it (a hostile client once did both)
    await ann.wait_for(lambda m: m["type"] == "state" and m["deal"] != first["deal"], 30)
    mark = bob.mark()
    await bob.send({"type": "autoplay", "table": table, "on": False, "id": "back"})
    assert (await bob.error("left_match", mark))["ref"] == "back"
    await bob.send({"type": "snapshot", "table": table, "id": "look"})
    assert (await bob.error("not_at_table", mark))["ref"] == "look"
    assert t.game is not None and t.game.in_autoplay(1)
    assert t.seats[1] is not None and t.seats[1].user_id == bob.user["id"]  # the seat is kept for the match
    deal1 = await ann.get(f"/api/deals/{first['deal']}")
    play_at = next(i for i, a in enumerate(deal1["record"]["actions"]) if a[1].startswith("play"))
    deal_part = [a for a in deal1["record"]["actions"][:play_at]]
    assert all(a[0] in (2, 3) or a[1] == "timeout" for a in deal_part)  # the humans never answered: timeouts
    assert deal_part.count([0, "timeout"]) + deal_part.count([1, "timeout"]) == 216  # one closed each window
    assert not any(a[1] == "autoplay on" for a in deal_part)  # and nobody went into auto-play for that
    bob_play = [a[1] for a in deal1["record"]["actions"][play_at:] if a[0] == 1]
    assert bob_play[0] == "timeout" and "leave" in bob_play  # his play timed out: played for him, auto-play on
    assert SJ.replay(deal1["record"]).observe(None)["outcome"] == first["outcome"]
    # the second hand: bob's seat plays in auto-play from its start; the match then ends and frees it
    second = (await deal_overs(ann, 2))[1]
    await pa.stop()
    assert not pa.refusals(), pa.refusals()
    deal2 = await ann.get(f"/api/deals/{second['deal']}")
    assert deal2["seats"][1]["user_id"] == bob.user["id"]
    assert journal_of(deal2, 1)[0] == "autoplay on"
    assert deal2["context"]["levels"] == first["match"]["levels"]
    assert deal2["context"]["banker"] == first["match"]["banker"]
    assert second["match_over"] and second["match"]["hands"] == 2
    for _ in range(100):
        if t.seats[1] is None or t.seats[1].user_id != bob.user["id"]:
            break
        await asyncio.sleep(0.05)
    assert t.seats[1] is None or t.seats[1].user_id != bob.user["id"]
    # nothing of the table reached bob after he left it (his seat's hands were his no more)
    assert not [m for m in bob.msgs[gone:] if m["type"] in ("state", "table", "snapshot")]
    me = await bob.get("/api/me")  # bob played both hands of the match (in auto-play) and was settled for them
    assert me["games"]["shengji"]["games_played"] == 2
    assert me["games"]["shengji"]["points"] == 1000 + first["outcome"]["scores"][1] + second["outcome"]["scores"][1]
    await ann.close()
    await bob.close()


async def test_reconnect_mid_deal_gives_back_the_hand_and_control(start_server: StartServer) -> None:
    server = await start_server(**FAST_CLIENTS)
    options = {**FAST, "deal_step_ms": 20}
    (ann,), table = await private_table(server, ["ann"], options, bots=True)
    p = Player(ann).start()
    await ann.wait_for(lambda m: m["type"] == "state" and m["observation"]["dealt"] >= 40, 20)
    await p.stop()
    await ann.close()
    t = server.lobby.tables[table]
    for _ in range(100):
        if t.game is not None and t.game.in_autoplay(0):
            break
        await asyncio.sleep(0.02)
    assert t.game is not None and t.game.in_autoplay(0)  # disconnecting turned auto-play on
    again = await Client(server, ann.token, ann.user).connect()
    snap = await again.wait_for(lambda m: m["type"] == "snapshot")
    st = snap["state"]
    assert snap["table"]["id"] == table and st["autoplay"][0] is False
    obs = st["observation"]
    dealt_to_me = sum(1 for i in range(obs["dealt"]) if (obs["first"] + i) % 4 == 0)
    assert len(parse_cards(obs["hand"])) == dealt_to_me and obs["seat"] == 0
    p = Player(again).start()
    over = (await deal_overs(again, 1))[0]
    await p.stop()
    deal = await again.get(f"/api/deals/{over['deal']}")
    mine = journal_of(deal, 0)
    assert mine.index("autoplay off") > mine.index("autoplay on")
    assert SJ.replay(deal["record"]).observe(None)["outcome"] == over["outcome"]
    await again.close()


async def test_restart_mid_hand_and_between_hands_keeps_the_match(start_server: StartServer) -> None:
    """A quick-match table (the room's own options, scaled): the server stops in the middle of the second hand
    and again between the second and the third; each time the table comes back with its deal or its match, and
    the next hand is played at the levels and with the banker the match says."""
    settings = {"time_scale": 0.03, "next_deal_delay": 0.2, "restore_grace": 0.5}
    first = await start_server(**settings, **FAST_CLIENTS)
    alice = await Client.register(first, "alice")
    await alice.connect()
    await alice.send({"type": "quick_match", "room": "four_deck-1"})
    table = (await alice.wait_for(lambda m: m["type"] == "joined"))["table"]
    p = Player(alice).start()
    hand1 = (await deal_overs(alice, 1))[0]
    match1 = hand1["match"]
    assert match1["hands"] == 1
    # the second hand: stop the server once the play has begun
    await alice.wait_for(lambda m: m["type"] == "state" and m["deal"] != hand1["deal"]
                         and m["phase"] == "play" and len(m["observation"]["tricks"]) >= 2, 60)
    await p.stop()
    seen = max(st["version"] for m in alice.msgs if (st := st_of(m)) is not None and st["deal"] != hand1["deal"])
    deal2_id = alice.latest_state()["deal"]
    await first.stop()
    await alice.close()

    second = await start_server(**{**settings, "next_deal_delay": 30}, **FAST_CLIENTS)
    t = second.lobby.tables[table]
    assert t.deal_id == deal2_id and t.version >= seen and t.match == match1
    again = await Client(second, alice.token, alice.user).connect()
    snap = await again.wait_for(lambda m: m["type"] == "snapshot")
    assert snap["state"]["deal"] == deal2_id and snap["state"]["version"] >= seen
    assert snap["table"]["match"] == match1
    p = Player(again).start()
    hand2 = (await deal_overs(again, 1))[0]
    await p.stop()
    assert hand2["deal"] == deal2_id
    deal2 = await again.get(f"/api/deals/{deal2_id}")
    assert deal2["context"]["levels"] == match1["levels"] and deal2["context"]["banker"] == match1["banker"]
    match2 = SJ.match_after(t.info.options, match1, hand2["outcome"])
    assert hand2["match"] == match2 and match2["hands"] == 2
    assert SJ.replay(deal2["record"]).observe(None)["outcome"] == hand2["outcome"]
    # stop again between hands (the next one waits 30 s here): the match state comes back from the database
    await second.stop()
    await again.close()

    third = await start_server(**settings, **FAST_CLIENTS)
    t3 = third.lobby.tables[table]
    assert not t3.running and t3.match == match2
    back = await Client(third, alice.token, alice.user).connect()
    await back.wait_for(lambda m: m["type"] == "snapshot")
    await back.send({"type": "ready", "table": table})
    st = await back.wait_for(lambda m: m["type"] == "state" and m["deal"] not in (hand1["deal"], deal2_id), 20)
    obs = st["observation"]
    assert obs["hand_no"] == 3 and obs["levels"] == match2["levels"] and obs["banker"] == match2["banker"]
    me = (await back.get("/api/me"))["games"]["shengji"]
    assert me["games_played"] == 2
    assert me["points"] == 1000 + hand1["outcome"]["scores"][obs["seat"]] + hand2["outcome"]["scores"][obs["seat"]]
    await back.close()


async def test_a_seat_bot_setting_of_another_game_leaves_shengji_its_own(start_server: StartServer) -> None:
    """``--seat-bot heuristic`` (Dou Dizhu's bot) once made every Shengji and mahjong table fail to fill: the
    setting serves each game that has the bot, the others keep their default."""
    server = await start_server(seat_bot="heuristic", autoplay_bot="heuristic")
    lobby = server.lobby
    assert lobby.seat_bot("doudizhu") == "heuristic" and lobby.autoplay_bot("doudizhu") == "heuristic"
    assert lobby.seat_bot("shengji") == "rule" and lobby.seat_bot("mahjong") == "efficiency"
    assert lobby.autoplay_bot("shengji") == "passive"
    await server.stop()  # (two servers without a cluster may not share a database)
    shared = await start_server(seat_bot="easy")  # a level every game has
    assert {shared.lobby.seat_bot(g) for g in ("doudizhu", "shengji", "mahjong")} == {"easy"}
