"""Bad and hostile input: each refused with a clear error, nothing changed, the table still playable."""

from __future__ import annotations

import asyncio
import contextlib
import json

import httpx

from qipai.games.doudizhu.cards import RANK_LETTERS

from server_helpers import Client, LiveServer, StartServer


async def test_each_bad_input_is_refused(start_server: StartServer) -> None:
    server = await start_server(bot_delay=0.3, rate_limit=20.0, rate_burst=40, flood_close=200)
    alice = await Client.register(server, "alice")
    bob = await Client.register(server, "bob")
    await alice.connect()
    await bob.connect()
    await alice.send({"type": "quick_match", "room": "classic-1"})
    joined = await alice.wait_for(lambda m: m["type"] == "joined")
    table_id, seat = joined["table"], joined["seat"]
    table = server.lobby.tables[table_id]

    async def refused(client: Client, msg: object, code: str) -> dict:
        before = (table.deal_id, table.version)
        mark = client.mark()
        await client.send(msg if isinstance(msg, str) else json.dumps(msg))
        err = await client.error(code, mark)
        assert err["message"]
        assert (table.deal_id, table.version) == before or code == "stale"
        return err

    await refused(alice, "{not json", "bad_json")
    # a number past what a double holds is said to be too large (it was "number is infinity when parsed as double")
    err = await refused(alice, '{"type": "ping", "id": ' + "1" * 5000 + "}", "bad_json")
    assert "too large" in err["message"] and "infinity" not in err["message"], err
    await refused(alice, "[1, 2]", "bad_message")
    await refused(alice, {"type": "dance", "id": "d1"}, "unknown_type")
    await refused(alice, {"type": "action"}, "bad_message")
    await refused(alice, {"type": "ping", "v": 2}, "bad_version")
    for not_one in (True, 1.0, "1"):  # (true and 1.0 were taken for version 1: they equal 1 in Python)
        await refused(alice, {"type": "ping", "v": not_one}, "bad_version")
    # an id the message is refused for is not echoed back as its ref
    for bad_id in ("i" * 100, -9007199254740993, True):
        err = await refused(alice, {"type": "ping", "id": bad_id}, "bad_message")
        assert err["ref"] is None, err
    # the size limit counts bytes, not characters (4,000 CJK characters are 12,000 bytes)
    err = await refused(alice, {"type": "ping", "id": "x", "pad": "牌" * 4000}, "too_large")
    assert err["params"] == {"limit": 8192}, err  # as the protocol's error list says
    # what was asked for is named, not echoed whole
    err = await refused(alice, {"type": "quick_match", "room": "r" * 60}, "unknown_room")
    assert len(err["message"]) < 120 and len(json.dumps(err["params"])) < 100
    err = await refused(alice, {"type": "create_table", "room": "classic-1", "for_points": False,
                                "options": {"k" * 2000: 1}}, "bad_options")
    assert len(err["message"]) < 200, err["message"]
    await refused(alice, {"type": "ping", "extra": 1}, "bad_message")
    await refused(alice, {"type": "ping", "id": "x" * 9000}, "too_large")
    err = await refused(alice, {"type": "autoplay", "table": table_id, "on": "yes", "id": 7}, "bad_message")
    assert err["ref"] == 7
    await refused(alice, {"type": "quick_match", "room": "no-such-room"}, "unknown_room")
    await refused(alice, {"type": "quick_match", "room": "jj-1"}, "already_seated")
    await refused(alice, {"type": "snapshot", "table": "nope"}, "unknown_table")

    # the deal: wait for alice's turn in the play phase, refusing bad actions along the way
    since = 0
    last_ok = None
    while True:
        st = await alice.wait_for(
            lambda m: m["type"] == "state" and m["to_act"] == m["you"] and not m["autoplay"][m["you"]],
            20,
            since,
        )
        since = alice.msgs.index(st) + 1
        if st["phase"] == "play" and st["observation"]["trick"]["last"] is None:
            break
        action = alice.choose(st["legal"])
        last_ok = {"type": "action", "table": table_id, "deal": st["deal"], "version": st["version"], "action": action}
        await alice.send(last_ok)
    base = {"type": "action", "table": table_id, "deal": st["deal"], "version": st["version"]}
    hand = st["observation"]["hand"]
    missing = next(r for r in RANK_LETTERS if sum(c[0] == r for c in hand) < 4 and r not in "BR")
    await refused(alice, {**base, "action": f"play {missing * 4}"}, "illegal_action")
    await refused(alice, {**base, "action": "play 3:rocket"}, "illegal_action")
    await refused(alice, {**base, "action": "timeout"}, "bad_action")
    await refused(alice, {**base, "action": "escape"}, "bad_action")
    await refused(alice, {**base, "version": st["version"] - 1, "action": st["legal"][0]}, "stale")
    await refused(alice, {**base, "deal": st["deal"] + 1000, "action": st["legal"][0]}, "stale")
    if last_ok is not None:
        await refused(alice, last_ok, "stale")  # a replay of an old message
    # someone else's table
    await refused(bob, {**base, "action": st["legal"][0]}, "not_seated")
    await refused(bob, {"type": "autoplay", "table": table_id, "on": True}, "not_seated")
    await refused(bob, {"type": "leave", "table": table_id}, "not_seated")
    # out of turn: alice acts, then answers again while the bot after her thinks (slowly, for the test)
    server.lobby.settings.bot_delay = 30.0
    await alice.send({**base, "action": alice.choose(st["legal"])})
    nxt = await alice.wait_for(lambda m: m["type"] == "state" and m["version"] == st["version"] + 1, 5, since)
    assert nxt["to_act"] != seat
    await refused(alice, {**base, "version": nxt["version"], "action": "pass"}, "not_your_turn")
    server.lobby.settings.bot_delay = 0.0  # the rest can go fast
    table.kick()

    # a flood: the rate limit refuses the excess with an error, the connection lives on
    mark = alice.mark()
    for i in range(100):
        await alice.send({"type": "ping", "id": i})
    await alice.error("rate_limited", mark)
    # every ping is answered, a pong or a refusal naming it (most refusals once went unanswered)
    await alice.wait_for(lambda m: m.get("ref") == 99, since=mark)
    answered = {m["ref"]: m["type"] if m["type"] == "pong" else m["code"] for m in alice.msgs[mark:]
                if m.get("ref") is not None}
    assert sorted(answered) == list(range(100))
    assert set(answered.values()) == {"pong", "rate_limited"} and list(answered.values()).count("pong") < 100

    # a worse flood closes that connection only
    pest = await Client.guest(server)
    await pest.connect()
    mark = pest.mark()
    for _ in range(400):
        try:
            await pest.send({"type": "ping"})
        except Exception:
            break
    await pest.error("flood", mark)
    await pest.wait_for(lambda m: m["type"] == "_closed", since=mark)
    pest.violations.clear()

    # bad HTTP input
    async with httpx.AsyncClient(base_url=server.http) as h:
        r = await h.post("/api/register", content=b"{oops", headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
        r = await h.post("/api/register", json={"name": "x", "password": "secret-pw"})
        assert r.json()["error"]["code"] == "bad_name"
        r = await h.get("/api/nothing-here")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
        r = await h.get("/api/me")
        assert r.status_code == 401
    # a WebSocket without a login is told so
    anon = Client(server, "bad-token", {})
    with contextlib.suppress(AssertionError):
        await anon.connect()
    assert anon.msgs[0]["code"] == "unauthorized"
    anon.violations.clear()

    # and the table is still playable to the end
    await asyncio.sleep(1.0)  # the rate limit refills
    over = await alice.play_until_over(timeout=90)
    assert over["table"] == table_id
    me = await alice.get("/api/me")
    settled = sum(1 for m in alice.msgs if m["type"] == "deal_over")
    assert 1 <= me["games"]["doudizhu"]["games_played"] <= settled + 1  # the next deal may end meanwhile
    await alice.close()
    await bob.close()


async def test_not_enough_points(server: LiveServer) -> None:
    poor = await Client.register(server, "poor")
    async with poor.api() as h:
        r = await h.post("/api/quick-match", json={"room": "classic-100"})
        assert r.status_code == 403
        err = r.json()["error"]
        assert err["code"] == "not_enough_points" and "2000" in err["message"] and "1000" in err["message"]
        r = await h.post("/api/tables", json={"room": "classic-100"})
        assert r.status_code == 403
    await poor.connect()
    mark = poor.mark()
    await poor.send({"type": "quick_match", "room": "classic-100"})
    await poor.error("not_enough_points", mark)
    rooms = (await poor.get("/api/rooms"))["rooms"]
    assert {"id": "classic-100", "min_points": 2000}.items() <= next(
        r for r in rooms if r["id"] == "classic-100"
    ).items()
    await poor.close()


async def test_text_with_a_nul_character_names_nothing(start_server: StartServer) -> None:
    """PostgreSQL's text holds no NUL character: a name or a match id with one, looked up as it came, failed in
    the database with an encoding error and was answered 500 — the log-in too, before any session.  Such text
    names nobody and no match, on every database alike."""
    server = await start_server()
    c = await Client.register(server, "nul-probe")
    async with httpx.AsyncClient(base_url=server.http) as h:
        r = await h.post("/api/login", json={"name": "nul\x00probe", "password": "secret-pw"})
        assert r.status_code == 401 and r.json()["error"]["code"] == "bad_login", r.text
    async with c.api() as h:
        for method, path, body, status, code in (
            ("GET", "/api/users?name=nul%00probe", None, 404, "unknown_user"),
            ("POST", "/api/friends", {"name": "nul\x00probe"}, 404, "unknown_user"),
            ("POST", "/api/matches/m1/register", {"partner_name": "a\x00b"}, 404, "unknown_user"),
            ("GET", "/api/matches/m%00x", None, 404, "unknown_match"),
            ("GET", "/api/matches/m%00x/deals", None, 404, "unknown_match"),
            ("POST", "/api/matches/m%00x/register", {}, 404, "unknown_match"),
            ("POST", "/api/matches/m%00x/withdraw", {}, 404, "unknown_match"),
        ):
            r = await h.request(method, path, json=body)
            assert r.status_code == status and r.json()["error"]["code"] == code, (path, r.status_code, r.text)
    assert (await c.get("/api/me"))["name"] == "nul-probe"  # (and the account answers as before)
