"""The server runs any game behind the game interface: toy games plug in unchanged, including one where several
seats decide at once (a claim window), with timeouts and a restart in the middle of a joint decision."""

from __future__ import annotations

import asyncio
from typing import Any

from qipai.core.registry import get_factory
from qipai.host.settings import Room

from server_helpers import Client, StartServer
from toygames import ClaimFactory, CountFactory

TOYS = {"count": CountFactory, "claim": ClaimFactory}


def games(name: str) -> Any:
    return TOYS.get(name) or get_factory(name)


async def test_a_new_game_plugs_in(start_server: StartServer) -> None:
    room = Room("count-1", "count", {}, 1, 0, "counting")
    server = await start_server(rooms=[room], games=games)
    c = await Client.guest(server)
    await c.connect()
    await c.send({"type": "quick_match", "room": "count-1"})
    snap = await c.wait_for(lambda m: m["type"] == "snapshot")
    assert snap["table"]["game"] == "count"
    over = await c.play_until_over()
    assert sum(over["outcome"]["scores"]) == 0
    deal = await c.get(f"/api/deals/{over['deal']}")
    full = CountFactory.replay(deal["record"]).outcome()
    assert full is not None and full == {**over["outcome"], "secrets": full["secrets"]}
    # the deal_over told everyone the outcome as the observation shows it, not the record's (Shengji's sent the
    # cards of overcalled declarations to every seat and spectator)
    assert "secrets" not in over["outcome"]
    mark = c.mark()
    await c.send({"type": "snapshot", "table": snap["table"]["id"], "id": "after"})
    after = await c.wait_for(lambda m: m["type"] == "snapshot" and m["ref"] == "after", since=mark)
    assert after["last_result"]["outcome"] == over["outcome"]  # the table's last result, as sent to newcomers
    secrets = {m["observation"]["secret"] for m in c.msgs if m["type"] == "state" and m["deal"] == over["deal"]}
    assert len(secrets) == 1  # only this seat's secret ever arrived
    await c.close()


async def answer_claims(c: Client, *, silent_every: int = 0, stop: asyncio.Event | None = None) -> None:
    """Answer this seat's decisions of the claim game: claim every third window, pass otherwise; with
    ``silent_every`` stay silent in every n-th window (its timeout answers)."""
    answered: set[tuple[int, int | None]] = set()
    i = 0
    n = 0
    while stop is None or not stop.is_set():
        async with c.cond:
            while i >= len(c.msgs):
                await c.cond.wait()
            m = c.msgs[i]
            i += 1
        if m["type"] in ("deal_over", "_closed"):
            return
        st = m["state"] if m["type"] == "snapshot" else m if m["type"] == "state" else None
        if st is None or not st["your_turn"] or st["autoplay"][st["you"]]:
            continue
        key = (st["deal"], st["decision"])
        if key in answered or any(x["type"] in ("state", "snapshot") for x in c.msgs[i:]):
            continue
        answered.add(key)
        n += 1
        if st["phase"] == "claim" and silent_every and n % silent_every == 0:
            continue
        action = "turn" if st["phase"] == "turn" else ("claim" if n % 3 == 0 else "pass")
        await c.send({"type": "action", "table": st["table"], "deal": st["deal"], "version": st["version"],
                      "decision": st["decision"], "action": action})


async def three_at_a_claim_table(server: Any) -> tuple[list[Client], dict[str, Any]]:
    """Three guests, connected, at one private table of the claim game (the first made it); its ``joined``."""
    a, b, c = [await Client.guest(server) for _ in range(3)]
    for x in (a, b, c):
        await x.connect()
    await a.send({"type": "create_table", "room": "claim-1"})
    joined = await a.wait_for(lambda m: m["type"] == "joined")
    for x in (b, c):
        await x.send({"type": "join", "invite": joined["invite_code"]})
        await x.wait_for(lambda m: m["type"] == "joined")
    return [a, b, c], joined


async def test_a_game_with_simultaneous_claims_plays_through_the_server(start_server: StartServer) -> None:
    """Three people at the claim game: windows where two seats answer at once, a seat that stays silent (its
    time runs out), nobody told who may claim, and a restart while a window is half answered."""
    room = Room("claim-1", "claim", {}, 1, 0, "claims")
    kw: dict[str, Any] = {"rooms": [room], "games": games}
    server = await start_server(**kw)  # first with 5 s windows: a window stays half answered long enough
    (a, b, c), joined = await three_at_a_claim_table(server)
    stop = asyncio.Event()
    players = [asyncio.create_task(answer_claims(x, silent_every=s, stop=stop)) for x, s in ((a, 0), (b, 2), (c, 0))]
    # wait for a claim window with one answer in and the silent seat's outstanding, then restart under it
    table = server.lobby.tables[joined["table"]]
    for _ in range(1000):
        g = table.game
        if g is not None and g.phase == "claim" and g.acting == (table.seat_of(b.user["id"]),) and g.answers:
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError("no half-answered claim window came")
    stop.set()
    for p in players:
        p.cancel()
    # the table's steps at the newest view anybody was shown (a version counts a seat's views, not the steps)
    seen = max(table._view_at[(table.seat_of(x.user["id"]), m["version"])] for x in (a, b, c) for m in x.msgs
               if m["type"] == "state" and m["deal"] == table.deal_id)
    await server.stop()
    for x in (a, b, c):
        x.violations.clear()
        await x.reader  # type: ignore[misc]
    again = await start_server(**kw, time_scale=0.06)  # now the silent seat's windows close on its clock
    restored = again.lobby.tables[joined["table"]]
    # everything anybody saw is there (and at most the one move journaled but not yet sent when it stopped)
    assert restored.version in (seen, seen + 1)
    if restored.version == seen:
        assert restored.game.phase == "claim" and restored.game.answers  # type: ignore[union-attr]
    clients = [Client(again, x.token, x.user) for x in (a, b, c)]
    for x in clients:
        await x.connect()
    tasks = [asyncio.create_task(answer_claims(x, silent_every=s)) for x, s in zip(clients, (0, 2, 0), strict=True)]
    over = await clients[0].wait_for(lambda m: m["type"] == "deal_over", timeout=60)
    await asyncio.gather(*tasks)
    assert sum(over["outcome"]["scores"]) == 0
    record = (await clients[0].get(f"/api/deals/{over['deal']}"))["record"]
    replayed = ClaimFactory.replay(record)
    assert replayed.outcome() == over["outcome"]
    texts = [x["action"] for x in record["actions"]]
    assert "timeout" in texts  # the silent seat's windows closed on its clock
    for x in clients:
        states = [m for m in x.msgs if m["type"] == "state" and m["phase"] == "claim"]
        assert states and all(m["acting"] == [] for m in states)  # who may claim is nobody else's business
        assert any(m["your_turn"] for m in states)
        await x.close()


async def test_an_answer_that_leaves_a_window_open_is_news_only_to_the_seat_that_gave_it(
        start_server: StartServer) -> None:
    """A mahjong claim window showed every seat and spectator a new state when one seat answered and another still
    could: that somebody held a claim on the discard.  The others now hear nothing until the window closes, and
    the seat still deciding answers the same decision."""
    room = Room("claim-1", "claim", {}, 1, 0, "claims")
    server = await start_server(rooms=[room], games=games)
    (a, b, c), joined = await three_at_a_claim_table(server)
    d = await Client.guest(server)
    await d.connect()
    tid = joined["table"]
    await d.send({"type": "spectate", "table": tid, "invite": joined["invite_code"]})
    await d.wait_for(lambda m: m["type"] == "snapshot")
    def seat(x: Client) -> int:
        s = server.lobby.tables[tid].seat_of(x.user["id"])
        assert s is not None
        return s

    turner = await a.wait_for(lambda m: m["type"] == "state" and m["phase"] == "turn", timeout=20)
    first = next(x for x in (a, b, c) if seat(x) == turner["to_act"])
    near, far = sorted((x for x in (a, b, c) if x is not first), key=lambda x: (seat(x) - seat(first)) % 3)
    mark = {id(x): x.mark() for x in (a, b, c, d)}
    await first.send({"type": "action", "table": tid, "deal": turner["deal"], "version": turner["version"],
                      "action": "turn"})
    window = await far.wait_for(lambda m: m["type"] == "state" and m["phase"] == "claim", since=mark[id(far)])
    assert window["your_turn"]
    # each one's view of the open window (the turner and the spectator are not asked)
    shown = {id(x): await x.wait_for(lambda m: m["type"] == "state" and m["phase"] == "claim", since=mark[id(x)])
             for x in (first, near, far, d)}
    mark = {id(x): x.mark() for x in (a, b, c, d)}
    await near.send({"type": "action", "table": tid, "deal": window["deal"], "version": window["version"],
                     "decision": window["decision"], "action": "pass"})  # the farther seat may still claim
    mine = await near.wait_for(lambda m: m["type"] == "state" and m["version"] > window["version"],
                               since=mark[id(near)])
    assert mine["phase"] == "claim" and not mine["your_turn"]
    await asyncio.sleep(0.5)
    for x in (first, far, d):  # nothing told them that one seat answered and another still may claim
        got = [m for m in x.msgs if m["type"] == "state" and m["version"] > window["version"]]
        assert not got, [(m["version"], m["phase"], m["your_turn"], m["observation"]) for m in got]
    # a word that was never an answer, sent on that older version, is the player's mistake, not "stale" (it was
    # called stale whenever the version had moved on, and the browser sends a stale answer again)
    await far.send({"type": "action", "table": tid, "deal": window["deal"], "version": window["version"],
                    "decision": window["decision"], "action": "dance", "id": "oops"})
    oops = await far.wait_for(lambda m: m["type"] == "error" and m["ref"] == "oops", since=mark[id(far)])
    assert oops["code"] == "illegal_action", oops
    # nor does the version tell them: theirs has not moved (it counts what each one sees, not the table's steps),
    # so the farther seat's view is still current, and a snapshot says the same
    snap_mark = d.mark()
    await d.send({"type": "snapshot", "table": tid})
    snap = await d.wait_for(lambda m: m["type"] == "snapshot", since=snap_mark)
    assert snap["state"]["version"] == shown[id(d)]["version"]
    # the farther seat answers the view it was shown, by its version alone
    await far.send({"type": "action", "table": tid, "deal": window["deal"], "version": window["version"],
                    "action": "claim"})
    for x in (first, near, far, d):
        closed = await x.wait_for(lambda m: m["type"] == "state" and m["phase"] == "turn", since=mark[id(x)])
        # one change more for each: the window closed (the passing seat had seen its own answer too)
        assert closed["version"] == (mine if x is near else shown[id(x)])["version"] + 1, (x is near, closed)
    assert not any(m["type"] == "error" and m.get("ref") != "oops" for x in (a, b, c) for m in x.msgs)
    for x in (a, b, c, d):
        await x.close()
