"""The match director in the host, in-process: bot-only matches of every game played to the end on real
managed tables (Dou Dizhu, a Shengji team Swiss, a mahjong Swiss)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import pytest

from qipai.host.events import DEAL_SETTLED
from qipai.host.table import TableError

from server_helpers import SQLITE_ONLY, Client, LiveServer, StartServer


async def finish(server: LiveServer, run: Any, timeout: float = 60.0) -> None:
    for _ in range(int(timeout * 10)):
        if run.state.phase in ("finished", "cancelled"):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"match {run.id} did not finish: phase {run.state.phase}, tables {list(run.state.tables)},"
                         f" errors {server.lobby.director.errors}")


async def test_a_bot_only_sit_and_go_is_played_to_the_end_on_match_tables(start_server: StartServer) -> None:
    server = await start_server()
    director = server.lobby.director
    run = await director.create({"preset": "sit_and_go_9", "entry": {"fee": 0, "start_delay_s": 0},
                                 "round_gap_s": 0,
                                 "stages": [{"rounds": [{"deals": 2, "advance": 3}, {"deals": 1}]}]})
    await director.add_bots(run.id, 9)
    names: dict[str, set[str]] = {}  # each match table's bot names, as the players see them
    for _ in range(200):
        for t in [t for t in server.lobby.tables.values() if t.tags.get("match_id") == run.id]:
            names[t.tags["table_key"]] = {s.name for s in t.seats if s is not None}
        if names:
            break
        await asyncio.sleep(0.05)
    assert names
    for key, seen in names.items():  # a bot entrant b5 plays as bot 5 (电脑5号), as the standings name it
        entrants = {eid for eid, e in run.state.entrants.items() if e.table == key} or None
        numbers = {n.rsplit(":", 1)[1] for n in seen}
        if entrants is not None:
            assert numbers == {e[1:] for e in entrants}, (key, seen, entrants)
    await finish(server, run)
    st = run.state
    assert st.phase == "finished" and len(st.ranking) == 9
    assert director.summary(run)["entrants"] == 9  # the whole field, not the last table's 3
    row = await server.lobby.store.match(run.id)
    assert row is not None and row.status == "finished"
    # every counted deal is a settled deal of one of the match's tables, each counted once
    assert st.seq == 3 * 2 + 1
    assert sum(e.points for e in st.entrants.values()) == 9 * 1000
    assert not [t for t in server.lobby.tables.values() if t.tags.get("match_id") == run.id]


async def keep_playing(c: Client) -> None:
    while True:
        with contextlib.suppress(TimeoutError):
            await c.play_until_over(timeout=30)


@SQLITE_ONLY
async def test_a_shengji_team_swiss_with_a_human_team_and_bot_teams(start_server: StartServer) -> None:
    server = await start_server()
    director = server.lobby.director
    run = await director.create({"preset": "shengji_teams_swiss", "round_gap_s": 0,
                                 "entry": {"start": "when_full", "max_entrants": 4, "fee": 20, "start_delay_s": 0},
                                 "stages": [{"rounds": 2, "deals": 1}],
                                 # dealt at once: the deal's pace (150 ms a card) was most of the test's minute
                                 "host": {"game_options": {"deal_step_ms": 0, "final_declare_s": 0.2}}})
    a, b = await Client.guest(server), await Client.guest(server)
    for c in (a, b):
        await c.connect()
    await director.register(run.id, a.user["id"], partner=b.user["id"])
    assert run.state.entrants[f"t{a.user['id']}"].players == [f"u{a.user['id']}", f"u{b.user['id']}"]
    tasks = [asyncio.create_task(keep_playing(c)) for c in (a, b)]
    try:
        await director.add_bots(run.id, 3)
        joined = await a.wait_for(lambda m: m["type"] == "joined", timeout=20)
        t = server.lobby.tables[joined["table"]]
        # partners sit opposite (seats 0/2 or 1/3), the round's table is one Shengji match of one hand
        seats = sorted(i for i, s in enumerate(t.seats) if s is not None and s.user_id in (a.user["id"],
                                                                                              b.user["id"]))
        assert seats in ([0, 2], [1, 3]) and t.info.options["hand_limit"] == 1 and t.info.game == "shengji"
        await finish(server, run, timeout=240)
    finally:
        for task in tasks:
            task.cancel()
    st = run.state
    assert st.phase == "finished" and len(st.ranking) == 4 and st.seq == 2 * 2
    # team points: partners scored alike, zero-sum over the field
    assert sum(e.points for e in st.entrants.values()) == 0
    # the pool (2 paying players × 20 × 90 % = 36) goes to the only human team, split captain/partner
    place = st.ranking.index(f"t{a.user['id']}") + 1
    hist_a = await server.lobby.store.match_history(a.user["id"])
    hist_b = await server.lobby.store.match_history(b.user["id"])
    assert hist_a[0]["place"] == hist_b[0]["place"] == place
    assert (hist_a[0]["prize"], hist_b[0]["prize"]) == (18, 18)
    for c in (a, b):
        await c.close()


@SQLITE_ONLY
async def test_a_mahjong_swiss_with_bots_runs_through_the_director(start_server: StartServer) -> None:
    server = await start_server()
    director = server.lobby.director
    run = await director.create({"preset": "mahjong_swiss_16", "round_gap_s": 0,
                                 "entry": {"max_entrants": 8, "fee": 0, "start_delay_s": 0},
                                 "stages": [{"rounds": 2, "deals": 2}]})
    seen: list[Any] = []
    server.lobby.bus.subscribe(DEAL_SETTLED, lambda e: seen.append(e) if e.tags.get("match_id") == run.id else None)
    await director.add_bots(run.id, 8)
    await finish(server, run, timeout=240)
    st = run.state
    assert st.phase == "finished" and len(st.ranking) == 8 and st.seq == 2 * 2 * 2
    assert len(seen) == 8 and {e.game for e in seen} == {"mahjong"}
    # two tables a round, each playing its two deals; the match points are the sum of the settled scores
    tables: dict[str, Any] = {}
    for e in seen:
        tables.setdefault(e.tags["table_key"], []).append(e)
    assert sorted(tables) == ["1.1.1", "1.1.2", "1.2.1", "1.2.2"]
    assert all(len(v) == 2 for v in tables.values())
    assert sum(sum(e.outcome["scores"]) for e in seen) == sum(x.points for x in st.entrants.values())


async def test_a_series_creates_scheduled_matches_that_start_on_time_or_are_cancelled(
        start_server: StartServer) -> None:
    server = await start_server()
    d = server.lobby.director
    base = (int(time.time()) // 60 + 5) * 60  # a minute boundary ahead; the director's clock is moved by hand
    clock = [float(base - 100)]
    d.clock = lambda: clock[0]

    async def at(t: int) -> None:
        clock[0] = float(t)
        await d.tick_all()
        await d.fill_pools()

    d.pools = [("minutely", {"name": "minutely", "game": "ddz3", "round_gap_s": 0,
                             "entry": {"start": "at_time", "schedule": "* * * * *", "reg_opens_s": 30,
                                       "min_entrants": 3, "max_entrants": 9, "fee": 10},
                             "stages": [{"format": "fixed", "seating": "by_score", "rounds": [{"deals": 1}]}]})]
    await at(base - 100)
    first = [r for r in d.runs.values() if r.source == "series:minutely"]
    assert [r.state.start_at for r in first] == [base - 60]
    run = first[0]
    assert d.summary(run)["status"] == "upcoming"
    assert d.summary(run)["reg_open"] is False  # (it said true while 报名 was refused)
    guest = await Client.guest(server)
    with pytest.raises(TableError) as e:
        await d.register(run.id, guest.user["id"])
    assert e.value.code == "match_entry" and "registration opens" in e.value.message
    await at(base - 85)
    assert d.summary(run)["status"] == "open" and d.summary(run)["reg_open"] is True
    await d.register(run.id, guest.user["id"])
    await d.add_bots(run.id, 5)
    await at(base - 60)  # on the minute: it starts with six
    assert run.state.phase == "running" and len(run.state.tables) == 2
    await finish(server, run)
    # the next occurrence exists already; with one entrant at its start time it is cancelled, the fee refunded
    nxt = next(r for r in d.runs.values() if r.source == "series:minutely" and r.state.start_at == base)
    other = await Client.guest(server)
    await at(base - 20)
    await d.register(nxt.id, other.user["id"])
    me = await other.get("/api/me")
    assert me["games"]["doudizhu"]["points"] == 990
    await at(base)
    assert nxt.state.phase == "cancelled"
    me = await other.get("/api/me")
    assert me["games"]["doudizhu"]["points"] == 1000
    hist = await server.lobby.store.match_history(other.user["id"])
    assert hist[0]["match"] == nxt.id and hist[0]["status"] == "cancelled"


async def test_a_team_registers_when_the_partner_confirms_the_captains_invitation(start_server: StartServer) -> None:
    server = await start_server()
    run = await server.lobby.director.create({"preset": "shengji_teams_swiss", "entry": {"start": "when_full",
                                                                                           "max_entrants": 4}})
    a, b, c = await Client.guest(server), await Client.guest(server), await Client.guest(server)
    await b.connect()
    r = await c.post(f"/api/matches/{run.id}/register", {"captain": a.user["id"]}, status=409)
    assert r["error"]["code"] == "match_entry" and r["error"]["params"]["reason"] == "no_invite"
    r = await a.post(f"/api/matches/{run.id}/register", status=409)  # alone in a team match
    assert r["error"]["code"] == "match_entry"
    r = await a.post(f"/api/matches/{run.id}/register", {"partner": b.user["id"]})
    assert r["invited"] == b.user["id"] and not run.state.entrants
    inv = await b.wait_for(lambda m: m["type"] == "match_event" and m["event"]["type"] == "team_invite")
    assert inv["event"]["captain"] == a.user["id"]
    r = await b.post(f"/api/matches/{run.id}/register", {"captain": a.user["id"]})
    assert r["entrant"] == f"t{a.user['id']}"
    for x in (a, b):
        me = await x.get("/api/me")
        assert me["games"]["shengji"]["points"] == 1000 - 20  # each member pays the fee
    card = await a.get(f"/api/matches/{run.id}")
    assert card["standings"][0]["users"] == [a.user["id"], b.user["id"]]
    await b.close()



async def test_a_captain_names_the_partner_and_the_card_shows_the_open_invitation(start_server: StartServer) -> None:
    """The browser's way: the captain names the partner by account name (``partner_name``); the match's card
    tells each of them about the invitation (``me_invited_by``, ``me_inviting``) until the partner confirms."""
    server = await start_server()
    run = await server.lobby.director.create({"preset": "shengji_teams_swiss", "entry": {"start": "when_full",
                                                                                           "max_entrants": 4}})
    a, b, c = await Client.guest(server), await Client.guest(server), await Client.guest(server)
    url = f"/api/matches/{run.id}"
    card = await a.get(url)
    assert card["me_invited_by"] == [] and card["me_inviting"] is None
    r = await a.post(f"{url}/register", {"partner_name": "nobody-called-this"}, status=404)
    assert r["error"]["code"] == "unknown_user" and r["error"]["params"]["name"] == "nobody-called-this"
    r = await a.post(f"{url}/register", {"partner_name": 7}, status=400)
    assert r["error"]["code"] == "bad_field"
    r = await a.post(f"{url}/register", {"partner_name": b.user["name"], "partner": c.user["id"]}, status=400)
    assert r["error"]["code"] == "bad_field"
    # inviting and confirming at once: refused, not the captain quietly dropped
    r = await a.post(f"{url}/register", {"partner": b.user["id"], "captain": c.user["id"]}, status=400)
    assert r["error"]["code"] == "bad_field" and r["error"]["params"]["field"] == "captain", r
    assert (await a.get(url))["me_inviting"] is None  # nothing was sent
    r = await a.post(f"{url}/register", {"partner_name": b.user["name"].upper()})  # any case
    assert r["invited"] == b.user["id"] and not run.state.entrants
    card = await a.get(url)
    assert card["me_inviting"] == {"id": b.user["id"], "name": b.user["name"]} and card["me_invited_by"] == []
    card = await b.get(url)
    assert card["me_invited_by"] == [{"id": a.user["id"], "name": a.user["name"]}] and card["me_inviting"] is None
    card = await c.get(url)
    assert card["me_invited_by"] == [] and card["me_inviting"] is None
    r = await b.post(f"{url}/register", {"captain": a.user["id"]})
    assert r["entrant"] == f"t{a.user['id']}"
    for x in (a, b):
        card = await x.get(url)
        assert card["me_invited_by"] == [] and card["me_inviting"] is None and card["me"]["entrant"] == r["entrant"]
    # a blocked partner is refused by name as by id
    d = await Client.guest(server)
    await server.lobby.store.block_user(c.user["id"], None)
    r = await d.post(f"{url}/register", {"partner_name": c.user["name"]}, status=403)
    assert r["error"]["code"] == "account_blocked" and r["error"]["params"]["user"] == c.user["id"]


async def test_the_invited_partner_declines_and_the_captain_is_told(start_server: StartServer) -> None:
    """The partner may say no (谢绝): only the invited player can decline, declining ends the invitation for
    both (nobody registers or pays; confirming it afterwards finds nothing), and the captain is told at once and
    reads it on the match's card, until inviting again."""
    server = await start_server()
    run = await server.lobby.director.create({"preset": "shengji_teams_swiss", "entry": {"start": "when_full",
                                                                                           "max_entrants": 4}})
    a, b, c = await Client.guest(server), await Client.guest(server), await Client.guest(server)
    await a.connect()
    url = f"/api/matches/{run.id}"
    await a.post(f"{url}/register", {"partner": b.user["id"]})
    # nobody else declines it for the partner, nor the captain its own invitation
    r = await c.post(f"{url}/decline", {"captain": a.user["id"]}, status=409)
    assert r["error"]["code"] == "match_entry" and r["error"]["params"]["reason"] == "no_invite"
    r = await a.post(f"{url}/decline", {"captain": b.user["id"]}, status=409)
    assert r["error"]["params"]["reason"] == "no_invite"
    r = await b.post(f"{url}/decline", {"captain": "a"}, status=400)
    assert r["error"]["code"] == "bad_field"
    assert (await a.get(url))["me_inviting"] == {"id": b.user["id"], "name": b.user["name"]}
    r = await b.post(f"{url}/decline", {"captain": a.user["id"]})
    assert r["declined"] == a.user["id"]
    told = await a.wait_for(lambda m: m["type"] == "match_event" and m["event"]["type"] == "team_declined")
    assert told["match"] == run.id and told["event"]["partner"] == b.user["id"]
    assert told["event"]["name"] == b.user["name"]
    card = await a.get(url)
    assert card["me_inviting"] is None and card["me_invited_by"] == []
    assert card["me_declined_by"] == [{"id": b.user["id"], "name": b.user["name"]}]
    card = await b.get(url)
    assert card["me_invited_by"] == [] and card["me_inviting"] is None and card["me_declined_by"] == []
    assert await server.lobby.store.match_invites(run.id) == {}
    r = await b.post(f"{url}/register", {"captain": a.user["id"]}, status=409)  # nothing left to confirm
    assert r["error"]["params"]["reason"] == "no_invite"
    r = await b.post(f"{url}/decline", {"captain": a.user["id"]}, status=409)  # nor to decline twice
    assert r["error"]["params"]["reason"] == "no_invite"
    assert not run.state.entrants
    for x in (a, b):
        assert (await x.get("/api/me"))["games"]["shengji"]["points"] == 1000
    hist = await b.get("/api/matches/mine")
    assert [(m["match"], m["status"]) for m in hist["matches"]] == [(run.id, "declined")]
    # invited again, the partner may accept this time; the card no longer says it was declined
    await a.post(f"{url}/register", {"partner": b.user["id"]})
    assert (await a.get(url))["me_declined_by"] == []
    r = await b.post(f"{url}/register", {"captain": a.user["id"]})
    assert r["entrant"] == f"t{a.user['id']}"
    await a.close()


async def test_the_card_tells_the_prizes_before_registration_closes(start_server: StartServer) -> None:
    """Before the close the prizes are not fixed (``prizes`` is null): the card and the list say what the
    prize table is (``prize_table``) and what it would pay with the field registered so far (``prizes_now``);
    once fixed, ``prizes_now`` is what is paid."""
    server = await start_server()
    d = server.lobby.director
    pool = await d.create({"preset": "sit_and_go_9", "entry": {"fee": 100, "start_delay_s": 0}})
    fixed = await d.create({"name": "fixed", "game": "ddz3", "entry": {"start": "when_full", "max_entrants": 3,
                                                                        "prizes": [300, 200], "start_delay_s": 0},
                            "stages": [{"format": "fixed", "rounds": [{"deals": 1}]}]})
    bare = await d.create({"name": "bare", "game": "ddz3", "entry": {"start": "when_full", "max_entrants": 3},
                           "stages": [{"format": "fixed", "rounds": [{"deals": 1}]}]})
    players = [await Client.guest(server) for _ in range(3)]
    card = await players[0].get(f"/api/matches/{pool.id}")
    assert card["prizes"] is None and card["prize_table"] == {"kind": "pool", "rake_pct": 10, "guarantee": 0}
    assert card["prizes_now"] == [0]
    for p in players:
        await p.post(f"/api/matches/{pool.id}/register")
    card = await players[0].get(f"/api/matches/{pool.id}")
    assert card["prizes"] is None and card["prizes_now"] == [270]  # 3 × 100 × 90 %, one place for 3 humans
    listed = {m["id"]: m for m in (await players[0].get("/api/matches"))["matches"]}
    assert listed[pool.id]["prizes_now"] == [270] and listed[pool.id]["prize_table"]["kind"] == "pool"
    assert listed[fixed.id]["prize_table"] == {"kind": "fixed", "amounts": [300, 200]}
    assert listed[fixed.id]["prizes_now"] == [300, 200]
    assert listed[bare.id]["prize_table"] is None and listed[bare.id]["prizes_now"] == []


async def test_a_captain_cannot_flood_players_with_invitations(start_server: StartServer) -> None:
    """Each team invitation is a notice to somebody: a captain has at most five open in a match (a sixth ends
    the oldest, so unanswered ones never leave the captain stuck), and sends ten at once, then one a minute."""
    from qipai.host.director import MAX_OPEN_INVITES

    server = await start_server()
    run = await server.lobby.director.create({"preset": "shengji_teams_swiss", "entry": {"start": "when_full",
                                                                                           "max_entrants": 4}})
    cap = await Client.guest(server)
    others = [await Client.guest(server) for _ in range(11)]
    for o in others[:MAX_OPEN_INVITES + 1]:
        await cap.post(f"/api/matches/{run.id}/register", {"partner": o.user["id"]})
    open_ = await server.lobby.store.match_invites(run.id)
    assert sorted(open_) == sorted(o.user["id"] for o in others[1:MAX_OPEN_INVITES + 1])
    r = await others[0].post(f"/api/matches/{run.id}/register", {"captain": cap.user["id"]}, status=409)
    assert r["error"]["params"]["reason"] == "no_invite"  # the oldest was ended by the sixth
    # inviting one already invited again keeps five open
    await cap.post(f"/api/matches/{run.id}/register", {"partner": others[1].user["id"]})
    assert len(await server.lobby.store.match_invites(run.id)) == MAX_OPEN_INVITES
    for o in others[2:5]:
        await cap.post(f"/api/matches/{run.id}/register", {"partner": o.user["id"]})
    # ten sent: the eleventh waits
    r = await cap.post(f"/api/matches/{run.id}/register", {"partner": others[10].user["id"]}, status=429)
    assert r["error"]["code"] == "rate_limited"
    assert others[10].user["id"] not in await server.lobby.store.match_invites(run.id)
    # the newest invitation still registers the team
    r = await others[4].post(f"/api/matches/{run.id}/register", {"captain": cap.user["id"]})
    assert r["entrant"] == f"t{cap.user['id']}"


async def test_a_captain_who_withdrew_is_not_registered_again_by_an_old_invitation(start_server: StartServer) -> None:
    """A captain invited two players; one confirmed, then the team withdrew: the other's invitation, confirmed
    later, registered and charged the captain again (and it stayed open while the captain played with the first)."""
    server = await start_server()
    run = await server.lobby.director.create({"preset": "shengji_teams_swiss", "entry": {"start": "when_full",
                                                                                           "max_entrants": 4}})
    cap, p, q = await Client.guest(server), await Client.guest(server), await Client.guest(server)
    for partner in (p, q):
        await cap.post(f"/api/matches/{run.id}/register", {"partner": partner.user["id"]})
    await p.post(f"/api/matches/{run.id}/register", {"captain": cap.user["id"]})
    assert (run.id, q.user["id"]) not in server.lobby.director.invites  # the captain is taken
    await p.post(f"/api/matches/{run.id}/withdraw", {})  # the partner withdraws the team: both refunded
    r = await q.post(f"/api/matches/{run.id}/register", {"captain": cap.user["id"]}, status=409)
    assert r["error"]["params"]["reason"] == "no_invite"
    for x in (cap, p, q):
        assert (await x.get("/api/me"))["games"]["shengji"]["points"] == 1000
    assert not run.state.players and q.user["id"] not in await server.lobby.store.match_invites(run.id)


async def test_registering_for_several_matches_at_once_cannot_overdraw(start_server: StartServer) -> None:
    """Three registrations sent together, each fee 400 from 1,000 points: each read the same balance (each match
    has its own lock), all three were taken, and the player went to -200 and was due relief."""
    server = await start_server()
    director = server.lobby.director
    runs = [await director.create({"preset": "sit_and_go_9", "entry": {"fee": 400}}) for _ in range(3)]
    u = await Client.guest(server)

    async def register(match_id: str) -> Any:
        async with u.api() as h:
            return (await h.post(f"/api/matches/{match_id}/register", json={})).json()

    answers = await asyncio.gather(*(register(r.id) for r in runs))
    codes = sorted(str(a.get("error", {}).get("code", "ok")) for a in answers)
    assert codes == ["not_enough_points", "ok", "ok"], answers
    assert (await u.get("/api/me"))["games"]["doudizhu"]["points"] == 200


async def test_an_hourly_dali_then_fixed_pipeline_with_bots(start_server: StartServer) -> None:
    server = await start_server()
    d = server.lobby.director
    # (six seconds to register the twelve bots: one second was too few for postgresql on a loaded machine)
    start = int(time.time()) + 6
    run = await d.create({"preset": "hourly", "round_gap_s": 0, "stage_gap_s": 0,
                          "entry": {"reg_opens_s": 60, "late_reg": None},
                          "stages": [{"levels": [10, 100, 300], "level_step": {"deals": 3}},
                                     {"rounds": [{"deals": 1, "advance": 3}, {"deals": 1}]}]}, start_at=start)
    events: list[str] = []
    server.lobby.bus.subscribe(DEAL_SETTLED, lambda e: events.append(e.tags["table_key"])
                               if e.tags.get("match_id") == run.id else None)
    await d.add_bots(run.id, 12)
    await finish(server, run, timeout=180)
    st = run.state
    assert st.phase == "finished" and len(st.ranking) == 12
    dali = [k for k in events if ".d" in k]
    fixed = [k for k in events if ".d" not in k]
    assert dali and all(k.startswith("1.d") for k in dali)  # 打立 sittings: one deal each
    assert len(dali) == len(set(dali))
    assert sorted(fixed) == ["2.1.1", "2.1.2", "2.1.3", "2.2.1"]
    assert st.seq == len(events)
    assert [e.stage for e in st.eliminations][-1] == 1


async def test_a_restart_between_rounds_gives_the_gap_again_plus_the_grace(start_server: StartServer) -> None:
    first = await start_server()
    run = await first.lobby.director.create({
        "preset": "sit_and_go_9", "entry": {"fee": 0, "start_delay_s": 0}, "round_gap_s": 3,
        "host": {"restart_grace_s": 2}, "stages": [{"rounds": [{"deals": 1, "advance": 3}, {"deals": 1}]}]})
    await first.lobby.director.add_bots(run.id, 9)
    for _ in range(600):
        if run.state.wake_kind == "round":
            break
        await asyncio.sleep(0.05)
    assert run.state.wake_kind == "round" and not run.state.tables  # waiting for round 2
    await first.stop()
    second = await start_server()
    restarted = time.time()
    again = second.lobby.director.runs[run.id]
    assert again.state.wake_kind == "round" and again.state.stage.round == 0
    assert second.lobby.director.hold[run.id] >= int(restarted) + 3 + 2
    # the card says so (its countdown showed the time from before the restart)
    assert second.lobby.director.standings_view(again)["next_at"] == second.lobby.director.hold[run.id]
    await asyncio.sleep(3.5)
    assert again.state.stage.round == 0 and not again.state.tables  # still waiting: the gap again + the grace
    await finish(second, again)
    assert again.state.phase == "finished" and again.state.seq == 3 + 1
    # once restarted again the finished match is no longer loaded: acting on it is still match_closed, as
    # before the restart (it became unknown_match)
    await second.stop()
    third = await start_server()
    u = await Client.guest(third)
    r = await u.post(f"/api/matches/{run.id}/register", status=409)
    assert r["error"]["code"] == "match_closed"
    r = await u.post(f"/api/matches/{'x' * 5000}/register", status=404)
    assert r["error"]["code"] == "unknown_match" and len(r["error"]["message"]) < 100  # not echoed whole


async def test_deals_settled_while_the_director_is_busy_are_counted_in_one_write(start_server: StartServer) -> None:
    """Three tables settle their deal while the director holds the match (as a large 打立 stage does all the
    time): once it is free, one step counts all three, in one write of the state, and the match goes on."""
    from qipai.tournaments import state_from_json

    server = await start_server()
    director = server.lobby.director
    run = await director.create({"preset": "sit_and_go_9", "entry": {"fee": 0, "start_delay_s": 0},
                                 "round_gap_s": 0, "stages": [{"rounds": [{"deals": 1, "advance": 3}, {"deals": 1}]}]})
    store = server.lobby.store
    saved: list[int] = []
    plain = store.save_match

    async def counting(match_id: str, **kw: Any) -> int:
        saved.append(state_from_json(json.loads(kw["state"])).seq)
        return await plain(match_id, **kw)

    store.save_match = counting  # type: ignore[method-assign]
    await director.add_bots(run.id, 9)

    def tables() -> list[Any]:
        return [t for t in server.lobby.tables.values() if t.tags.get("match_id") == run.id and not t.closed]

    for _ in range(1200):
        if len(tables()) == 3 and all(t.running for t in tables()):
            break
        await asyncio.sleep(0.05)
    async with run.lock:
        held = tables()
        assert len(held) == 3 and all(t.running for t in held)  # (else a deal waits for the director: never ends)
        for _ in range(600):
            if all(t.results for t in held):
                break
            await asyncio.sleep(0.05)
        assert all(len(t.results) == 1 for t in held)  # all three settled, none counted yet
        assert run.state.seq == 0
        before = len(saved)
    await finish(server, run, timeout=180)
    assert saved[before] == 3, saved  # the first write after the lock counts all three deals
    assert run.state.seq == 4 and len(run.state.ranking) == 9


@pytest.mark.parametrize("forfeit", [True, False])
async def test_forfeit_absent_withdraws_a_player_who_made_no_action_for_a_round(start_server: StartServer,
                                                                                forfeit: bool) -> None:
    """A registered player who never comes to the table: auto-play plays the seat.  With ``forfeit_absent`` a
    round without one action of the player's own withdraws the entrant (RULES-matches §6); without it the
    entrant plays on to the end."""
    server = await start_server()
    director = server.lobby.director
    run = await director.create({"preset": "sit_and_go_9", "forfeit_absent": forfeit, "round_gap_s": 0,
                                 "entry": {"fee": 0, "start_delay_s": 0},
                                 "stages": [{"rounds": [{"deals": 1, "advance": 9}, {"deals": 1}]}]})
    away = await Client.guest(server)  # registers, never connects a socket
    await director.register(run.id, away.user["id"])
    await director.add_bots(run.id, 8)
    await finish(server, run)
    e = run.state.entrants[f"u{away.user['id']}"]
    assert e.deals == (1 if forfeit else 2), e
    assert e.status != "in" and (e.quitting or e.status == "out") if forfeit else e.deals == 2
    assert sorted(run.state.ranking) == sorted(run.state.entrants)  # everyone placed once


async def test_the_default_quick_sit_and_go_starts_with_bots_for_a_lone_player(start_server: StartServer) -> None:
    """The pool ``qipai serve`` keeps open by default: one player registers, nobody else comes; after
    ``fill_after_s`` bots fill the field, the match is played (the player's seat in auto-play: not connected) and
    the only human takes the whole prize pool (1 × 20 × 90 %)."""
    server = await start_server()
    director = server.lobby.director
    run = await director.create({"preset": "quick_sit_and_go", "entry": {"fill_after_s": 1, "start_delay_s": 0},
                                 "round_gap_s": 0})
    lone = await Client.guest(server)
    before = (await lone.get("/api/me"))["games"]["doudizhu"]["points"]
    await director.register(run.id, lone.user["id"])
    await finish(server, run, timeout=120)
    st = run.state
    assert len(st.entrants) == 9 and sum(1 for e in st.entrants.values() if e.bot) == 8
    assert sorted(st.ranking) == sorted(st.entrants)
    after = (await lone.get("/api/me"))["games"]["doudizhu"]["points"]
    assert after == before - 20 + 18


async def test_a_pool_no_longer_offered_is_withdrawn_unless_someone_registered(start_server: StartServer) -> None:
    """A restart with another ``--matches`` (``''``: none) left the old pools' open matches on offer for ever; now
    those nobody registered in are cancelled, and one with a player runs as created."""
    first = await start_server(matches="sit_and_go_9,quick_sit_and_go")
    director = first.lobby.director
    runs = {r.source: r for r in director.runs.values()}
    assert {"pool:sit_and_go_9", "pool:quick_sit_and_go"} <= set(runs)
    kept, dropped = runs["pool:quick_sit_and_go"], runs["pool:sit_and_go_9"]
    lone = await Client.guest(first)
    await director.register(kept.id, lone.user["id"])
    await first.stop()
    second = await start_server(matches="")
    director = second.lobby.director
    assert director.runs[kept.id].state.phase == "registration"  # a player is in it
    assert dropped.id not in director.runs or director.runs[dropped.id].state.phase == "cancelled"
    again = Client(second, lone.token, lone.user)
    listed = {m["id"]: m["status"] for m in (await again.get("/api/matches"))["matches"]}
    assert kept.id in listed and listed.get(dropped.id) in (None, "cancelled")
    assert not any(r.source == "pool:sit_and_go_9" and r.state.phase == "registration"
                   for r in director.runs.values())  # and no new one opened


async def test_a_team_invitation_survives_a_restart(start_server: StartServer) -> None:
    """The captain invites, the server restarts before the partner answers: the partner still confirms, the team
    registers and both pay; the partner's match history showed the invitation meanwhile."""
    first = await start_server()
    run = await first.lobby.director.create({"preset": "shengji_teams_swiss", "entry": {"start": "when_full",
                                                                                          "max_entrants": 4}})
    a, b = await Client.guest(first), await Client.guest(first)
    r = await a.post(f"/api/matches/{run.id}/register", {"partner": b.user["id"]})
    assert r["invited"] == b.user["id"]
    hist = await b.get("/api/matches/mine")
    assert [(m["match"], m["status"]) for m in hist["matches"]] == [(run.id, "invited")]
    await first.stop()
    second = await start_server()
    b.server = second
    r = await b.post(f"/api/matches/{run.id}/register", {"captain": a.user["id"]})
    assert r["entrant"] == f"t{a.user['id']}"
    again = second.lobby.director.runs[run.id]
    assert again.state.entrants[f"t{a.user['id']}"].players == [f"u{a.user['id']}", f"u{b.user['id']}"]
    hist = await b.get("/api/matches/mine")
    assert [(m["match"], m["status"]) for m in hist["matches"]] == [(run.id, "in")]


async def test_settlements_at_once_for_a_player_new_to_the_game_both_count(start_server: StartServer) -> None:
    """Match tables of bots share one bot account: the first settlements of it in a game, at several tables at
    once, each found no standing row and inserted one — on PostgreSQL one failed on the duplicate key, its deal
    was marked failed and the table closed.  The rows are made first now; every settlement counts."""
    from qipai.store.repo import SettleRow

    server = await start_server()
    lobby, store = server.lobby, server.lobby.store
    account = await lobby.bot_account("random")
    deals = []
    for n in range(6):
        t = await lobby.open_managed_table("doudizhu", {"preset": "jj_match"}, [{"bot": "random"}] * 3,
                                           {"match_id": "mx", "table_key": f"k{n}"})
        deals.append(await store.start_deal(t.id, 0, "doudizhu", {}, n, {}, [{"user_id": None, "bot": "random",
                                                                            "name": "r"}] * 3))
        await t.close("test")
    rows = [SettleRow(user_id=account, seat=i, delta=0, role="farmer", won=i > 0, score=i) for i in range(3)]
    await asyncio.gather(*(store.settle(d, "doudizhu", {"scores": [0, 1, 2]}, {}, rows) for d in deals))
    me = await store.user(account)
    assert me is not None
    history = await store.history(account, limit=50)
    assert len({h["deal_id"] for h in history}) == 6  # all six settled


async def test_watchers_learn_each_entrants_table_as_soon_as_the_tables_open(start_server: StartServer) -> None:
    """The standings pushed at the start of a round name every entrant's table (to watch it) without waiting
    for a deal to be counted: the bots here take seconds a move, so no deal ends meanwhile."""
    server = await start_server(bot_delay=5.0)
    director = server.lobby.director
    # (the start comes 2 s after the field is full: the push of the start is not folded into the last one of
    # the registration, which would go out a moment later, when the tables are open anyway)
    run = await director.create({"preset": "sit_and_go_9", "entry": {"fee": 0, "start_delay_s": 2},
                                 "round_gap_s": 0, "stages": [{"rounds": [{"deals": 2, "advance": 3}, {"deals": 1}]}]})
    fan = await Client.guest(server)
    await fan.connect()
    await fan.send({"type": "match_watch", "match": run.id, "id": 1})
    await fan.wait_for(lambda m: m["type"] == "match_standings" and m.get("ref") == 1)
    await director.add_bots(run.id, 9)
    pushed = await fan.wait_for(lambda m: m["type"] == "match_standings" and m["phase"] == "running"
                                and all(r["table"] for r in m["standings"]), timeout=8)
    tables = {r["table"] for r in pushed["standings"]}
    assert len(tables) == 3 and tables <= set(server.lobby.tables)
    assert run.state.seq == 0  # nothing counted yet
    await fan.close()
    await director.cancel(run.id)


async def test_a_player_in_a_quick_match_deal_is_seated_at_once_when_the_match_starts(
        start_server: StartServer) -> None:
    """§2.3.5, nobody waits: a player still in a deal at an ordinary table when their match starts leaves it (its
    deal is played out in auto-play) and sits at the match table at once; the table opened only when that deal
    ended, and the director logged an error every two seconds meanwhile."""
    server = await start_server(bot_delay=2.0)  # a slow deal elsewhere: it is still running when the match starts
    director = server.lobby.director
    busy = await Client.register(server, "busy")
    await busy.connect()
    await busy.send({"type": "quick_match", "room": "classic-1"})
    joined = await busy.wait_for(lambda m: m["type"] == "joined")
    await busy.wait_for(lambda m: m["type"] == "state")  # its deal runs
    outside = server.lobby.tables[joined["table"]]
    run = await director.create({"preset": "sit_and_go_9", "entry": {"fee": 0, "start_delay_s": 0,
                                                                     "max_entrants": 3},
                                 "round_gap_s": 0, "stages": [{"rounds": [{"deals": 1}]}]})
    await director.register(run.id, busy.user["id"])
    await director.add_bots(run.id, 2)
    for _ in range(50):
        if run.state.tables:
            break
        await asyncio.sleep(0.1)
    assert outside.running, "the outside deal ended first: the test proves nothing"
    assert run.state.tables, f"no match table while the outside deal runs: {director.errors}"
    cur = server.lobby._current(busy.user["id"])
    assert cur is not None and cur[0].tags.get("match_id") == run.id
    assert not director.errors


async def test_a_player_who_watches_their_own_match_gets_each_event_once(start_server: StartServer) -> None:
    """The browser's match card watches the match; its entrant got every match_event and standings twice."""
    server = await start_server()
    director = server.lobby.director
    run = await director.create({"preset": "sit_and_go_9", "entry": {"fee": 0, "max_entrants": 3,
                                                                     "start_delay_s": 0}})
    c = await Client.guest(server)
    await c.connect()
    await director.register(run.id, c.user["id"])
    await c.send({"type": "match_watch", "match": run.id})
    await c.wait_for(lambda m: m["type"] == "match_standings")
    mark = c.mark()
    await director.add_bots(run.id, 2)
    await c.wait_for(lambda m: m["type"] == "match_event" and m["event"]["type"] == "match_started", since=mark)
    await asyncio.sleep(0.5)
    events = [json.dumps(m["event"], sort_keys=True) for m in c.msgs[mark:] if m["type"] == "match_event"]
    assert sum('"match_started"' in e for e in events) == 1 and len(events) == len(set(events)), events
    await c.close()


async def test_the_store_refuses_a_fee_that_would_overdraw_and_writes_nothing(start_server: StartServer) -> None:
    """The registration lock is per node; two nodes registering one player for different matches at once each read
    the same balance.  The fee is checked again under the row lock where it is taken."""
    from qipai.store import MoneyMove, Overdrawn

    server = await start_server()
    director = server.lobby.director
    run = await director.create({"preset": "sit_and_go_9", "entry": {"fee": 400}})
    u = await Client.guest(server)
    uid = u.user["id"]
    store = server.lobby.store
    info = await store.user(uid)
    assert info is not None and await server.lobby.points_of(info, "doudizhu") == 1000  # opens the standing
    row = await store.match(run.id)
    assert row is not None
    with pytest.raises(Overdrawn):
        await store.save_match(run.id, state=row.state, status=row.status, version=row.version,
                               start_at=row.start_at, money=[MoneyMove("k-over", uid, -1001, "fee")])
    assert (await store.match(run.id)).version == row.version  # type: ignore[union-attr]
    assert (await u.get("/api/me"))["games"]["doudizhu"]["points"] == 1000


async def test_an_operator_match_refuses_a_start_time_it_would_ignore_or_that_has_passed(
        start_server: StartServer) -> None:
    server = await start_server()
    d = server.lobby.director
    now = int(time.time())
    with pytest.raises(TableError) as e:
        await d.create({"preset": "sit_and_go_9"}, start_at=now + 600, source="operator")
    assert e.value.code == "bad_options" and "starts when full" in e.value.message
    hourly = {"preset": "hourly", "entry": {"reg_opens_s": 60, "late_reg": None}}
    with pytest.raises(TableError) as e:
        await d.create(hourly, start_at=now - 60, source="operator")
    assert e.value.code == "bad_options" and "in the past" in e.value.message
    assert not [r for r in d.runs.values() if r.source == "operator"]  # nothing was created by either
    run = await d.create(hourly, start_at=now + 600, source="operator")
    assert run.state.start_at == now + 600


def test_a_failure_repeated_every_round_is_logged_once_with_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    """Redis away for a while: the director's loop fails every round; it logged a traceback each time (13 on a
    node in 8 s). Now the first in one line (a connection refused says it all: no traceback), the same again
    one line every 30 s, and the recovery; another failure, not a connection's, with its traceback."""
    import logging

    from qipai.host.director import Director

    d = Director.__new__(Director)  # only the loop's logging is exercised
    now = [0.0]
    d.clock = lambda: now[0]  # type: ignore[method-assign]
    d._failing = None
    caplog.set_level(logging.WARNING, logger="qipai")
    for _ in range(20):  # 20 rounds of 1 s
        try:
            raise ConnectionError("Redis is away")
        except ConnectionError as e:
            d._log_failure(e)
        now[0] += 1.0
    now[0] += 20.0
    try:
        raise ConnectionError("Redis is away")
    except ConnectionError as e:
        d._log_failure(e)
    records = [r for r in caplog.records if r.name.startswith("qipai")]
    assert [bool(r.exc_info) for r in records] == [False, False]
    assert "Redis is away" in records[0].getMessage() and "still failing" in records[1].getMessage()
    try:
        raise ValueError("something else")
    except ValueError as e:
        d._log_failure(e)  # another failure: its own traceback
    assert caplog.records[-1].exc_info and "something else" in caplog.records[-1].getMessage()


def test_a_forced_finish_shows_the_last_level_not_one_past_it() -> None:
    """At a 打立 forced finish the level index runs past the last level (k >= len(levels)): the card said "level 5"
    of four. It shows the last level, whose base is in play, and says the stage is stopping."""
    from types import SimpleNamespace

    from qipai.host.director import Director

    stage = SimpleNamespace(index=0, level=4, remaining=7, stopping="forced")
    sd = SimpleNamespace(format="dali", rounds=(), advance=3, levels=(10, 100, 300, 600), out_factor=3)
    run = SimpleNamespace(state=SimpleNamespace(stage=stage, phase="running"), defn=SimpleNamespace(stages=[sd]))
    info = Director.stage_info(run)  # type: ignore[arg-type]
    assert info is not None
    assert (info["level"], info["levels"], info["base"], info["line"]) == (4, 4, 600, 1800)
    assert info["stopping"] == "forced"
    stage.level, stage.stopping = 1, ""
    assert Director.stage_info(run)["level"] == 2  # type: ignore[arg-type,index]


async def test_team_invitations_refuse_a_bot_a_closed_match_and_an_id_past_the_database(
        start_server: StartServer) -> None:
    """Found by a hostile pass: a bot account could be invited as a partner (an invitation nobody can confirm,
    taking one of the captain's open ones); an invitation was sent after registration closed (the partner's
    confirmation then failed); a partner id of 2**63 crashed the request with a 500."""
    server = await start_server()
    d = server.lobby.director
    run = await d.create({"preset": "shengji_teams_swiss", "entry": {"start": "when_full", "max_entrants": 2}})
    a, b = await Client.guest(server), await Client.guest(server)
    url = f"/api/matches/{run.id}/register"
    bot = await server.lobby.store.bot_account("rule")
    r = await a.post(url, {"partner": bot.id}, status=409)
    assert r["error"]["code"] == "match_entry" and r["error"]["params"]["reason"] == "bot_partner", r
    for huge in (2**63, 2**64 - 1, 0, -5, 987_654):  # (no such account: 404, as for an unknown partner_name)
        r = await a.post(url, {"partner": huge}, status=404)
        assert r["error"]["code"] == "unknown_user", (huge, r)
    assert d.invites == {}
    await d.add_bots(run.id, 2)  # full: the match starts
    r = await a.post(url, {"partner": b.user["id"]}, status=409)
    assert r["error"]["code"] == "match_closed", r
    assert d.invites == {} and (await b.get(f"/api/matches/{run.id}"))["me_invited_by"] == []


async def test_a_bot_fitted_in_after_the_operators_bots_has_its_own_number_at_the_table_and_in_the_standings(
        start_server: StartServer) -> None:
    """An operator's bots (entrants b1, b2, b3) and the one field fitting adds at the start (bot:1) were numbered
    apart: the fitted bot sat as 电脑<seat>号 (its id did not match the table's b<n> pattern) while the browser
    called it 电脑3 or 电脑1 — two bots could share a number. Now every bot has one number, unique in the match,
    the same at the table (its seat name and the stored ``bot_numbers`` tag) and in the standings."""
    server = await start_server()
    d = server.lobby.director
    run = await d.create({"game": "mahjong", "entry": {"start": "at_time", "min_entrants": 3},
                          "stages": [{"format": "fixed", "rounds": [{"deals": 1}]}]}, start_at=int(d.now()) + 1)
    assert await d.add_bots(run.id, 3) == ["b1", "b2", "b3"]
    table = None
    for _ in range(200):
        table = next((t for t in server.lobby.tables.values() if t.tags.get("match_id") == run.id), None)
        if table is not None:
            break
        await asyncio.sleep(0.05)
    assert table is not None, d.errors
    assert "bot:1" in run.state.entrants  # the fitted bot
    rows = {r["entrant"]: r for r in d.standings_view(run)["standings"]}
    numbers = {e: r["bot_number"] for e, r in rows.items()}
    assert sorted(numbers.values()) == [1, 2, 3, 4], numbers
    assert numbers == {"b1": 1, "b2": 2, "b3": 3, "bot:1": 4}  # registration order, kept once given
    a = run.state.tables[table.tags["table_key"]]
    for seat, eid in enumerate(a.seat_entrants):
        s = table.seats[seat]
        assert s is not None and s.name.rsplit(":", 1)[1] == str(numbers[eid]), (seat, eid, s.name)
    assert table.tags["bot_numbers"] == [numbers[e] for e in a.seat_entrants]
    await finish(server, run)


async def test_the_entrants_count_is_the_registered_never_past_max_entrants(start_server: StartServer) -> None:
    """A bot field fitting adds after the close of registration (§2.4) is in the field and the standings, but not
    an entrant as ``max_entrants`` counts them: the list read "4 / 3" (the tester's "9 / 8", a quitter's place
    filled by a bot), while running and once over."""
    server = await start_server()
    d = server.lobby.director
    run = await d.create({"game": "mahjong", "entry": {"start": "at_time", "min_entrants": 3, "max_entrants": 3},
                          "stages": [{"format": "fixed", "rounds": [{"deals": 1}]}]}, start_at=int(d.now()) + 1)
    await d.add_bots(run.id, 3)
    assert d.summary(run)["entrants"] == 3
    for _ in range(200):
        if run.state.phase == "running":
            break
        await asyncio.sleep(0.05)
    assert "bot:1" in run.state.entrants and run.state.entrants["bot:1"].fitted
    assert (d.summary(run)["entrants"], d.summary(run)["max_entrants"]) == (3, 3)
    assert len(d.standings_view(run)["standings"]) == 4  # the fitted bot plays and is ranked
    await finish(server, run)
    assert d.summary(run)["entrants"] == 3
    assert len(run.state.ranking) == 4


async def test_a_player_who_left_the_match_table_has_no_table_to_go_back_to(start_server: StartServer) -> None:
    """After ``leave`` (answered ``left``, reason ``left_match``: the seat plays on in auto-play) the card still
    gave ``me: {table, seat}``, so the browser offered 回到我的牌桌 onto a table that shows the player nothing."""
    server = await start_server()
    d = server.lobby.director
    run = await d.create({"game": "mahjong", "entry": {"start": "when_full", "max_entrants": 4, "start_delay_s": 0},
                          "stages": [{"format": "fixed", "rounds": [{"deals": 4}]}]})
    a = await Client.guest(server)
    await a.connect()
    await a.post(f"/api/matches/{run.id}/register")
    await d.add_bots(run.id, 3)
    joined = await a.wait_for(lambda m: m["type"] == "joined", timeout=20)
    tid = joined["table"]
    me = (await a.get(f"/api/matches/{run.id}"))["me"]
    assert (me["table"], me["seat"], me["left_table"]) == (tid, joined["seat"], None)
    await a.send({"type": "leave", "table": tid})
    await a.wait_for(lambda m: m["type"] == "left" and m.get("reason") == "left_match")
    t = server.lobby.tables[tid]
    assert t.left_match(joined["seat"])  # the seat is still the player's, in auto-play
    me = (await a.get(f"/api/matches/{run.id}"))["me"]
    assert (me["table"], me["seat"], me["left_table"]) == (None, None, tid), me
    assert me["status"] == "in"  # still in the match: leaving a table is not quitting it (§6.2)
    await d.cancel(run.id)
    await a.close()


async def test_bots_past_the_room_left_register_none(start_server: StartServer) -> None:
    """Asking for more bots than the match has room for registered those that fitted (and started the match),
    then answered with an error: now it is all or nothing."""
    server = await start_server()
    d = server.lobby.director
    run = await d.create({"preset": "sit_and_go_9", "entry": {"start": "when_full", "max_entrants": 6, "fee": 0}})
    a = await Client.guest(server)
    await a.post(f"/api/matches/{run.id}/register")
    with pytest.raises(TableError) as e:
        await d.add_bots(run.id, 10)
    assert e.value.code == "match_full" and e.value.params["room"] == 5
    assert len(run.state.entrants) == 1 and run.state.phase == "registration"
    assert len(await d.add_bots(run.id, 5)) == 5 and run.state.phase != "registration"
    with pytest.raises(TableError) as e:
        await d.add_bots(run.id, 1)
    assert e.value.code == "match_closed"


@pytest.mark.parametrize("host", [{"game_options": {"bid_seconds": -5}}, {"game_options": {"foo": {"bar": [1]}}},
                                  {"game_preset": "nope"}, {"bot": "nope"}, {"bot": 7}])
async def test_a_definitions_host_block_is_checked_when_the_match_is_made(start_server: StartServer,
                                                                          host: dict[str, Any]) -> None:
    """Bad rule options, an unknown preset or bot in the host block were accepted: the match took its fees and
    then stood still, its first table unable to open."""
    server = await start_server()
    definition = {"game": "ddz3", "entry": {"start": "when_full", "max_entrants": 3, "fee": 10, "start_delay_s": 0},
                  "stages": [{"format": "fixed", "rounds": [{"deals": 1}]}], "host": host}
    with pytest.raises(TableError) as e:
        await server.lobby.director.create(definition)
    assert e.value.code == "bad_options"
    assert server.lobby.director.runs == {}


_MJ = {"game": "mahjong", "entry": {"start": "when_full", "max_entrants": 4, "fee": 10, "start_delay_s": 0},
       "stages": [{"format": "swiss", "rounds": 1, "deals": 1}]}
_SJ = {**_MJ, "game": "shengji"}


async def refused_definition(start_server: StartServer, definition: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """An operator's match definition refused at creation (400): the server and the error."""
    server = await start_server(admin_token="adm")
    a = await Client.guest(server)
    async with a.api() as h:
        r = await h.post("/api/admin/matches", json={"definition": definition}, headers={"X-Admin-Token": "adm"})
    assert r.status_code == 400, r.text
    return server, dict(r.json()["error"])


@pytest.mark.parametrize(("definition", "option"), [
    ({**_MJ, "stages": [{"format": "fixed", "rounds": [{"deals": 1}], "base": 2_000_000}]}, "stages[0].base"),
    ({**_SJ, "stages": [{"format": "swiss", "rounds": 1, "deals": 1, "base": 2_000_000}]}, "stages[0].base"),
    ({**_MJ, "stages": [{"format": "dali", "advance": 4, "levels": [1, 2_000_000]}]}, "stages[0].levels[1]"),
    ({**_MJ, "host": {"stake_option": "nonexistent"}}, "host.stake_option"),
    ({**_MJ, "host": {"stake_option": "first_dealer"}}, "host.stake_option"),
    ({**_MJ, "host": {"platform_game": "doudizhu"}}, "host.stake_option"),
    ({**_MJ, "host": {"platform_game": "doudizhu", "stake_option": "stake"}}, "seats"),
    ({**_MJ, "host": {"game_options": "x"}}, "host.game_options"),
    ({**_MJ, "host": {"game_preset": 5}}, "host.game_preset"),
    ({**_MJ, "host": {"game_options": {"nonsense": 1}}}, "host.game_options"),
    ({**_SJ, "host": {"deals_option": "start_level"}}, "stages[0].deals"),
])
async def test_the_operators_match_refuses_what_its_game_cannot_play(start_server: StartServer,
                                                                     definition: dict[str, Any],
                                                                     option: str) -> None:
    """Each of these was answered 201 and then stood "running" for ever with the fees held: a stake past what the
    game's stake option takes (a stage's base, a 打立 level), a stake option that is no stake, a platform game
    with other rule options or another number of seats, a host block of the wrong type (silently ignored)."""
    server, err = await refused_definition(start_server, definition)
    assert err["code"] == "bad_options" and err["params"]["option"] == option, err
    assert option in err["message"], err
    assert server.lobby.director.runs == {}


@pytest.mark.parametrize("definition", [{**_MJ, "teams": True}, {**_MJ, "seats": 3}, {**_SJ, "teams": False}])
async def test_the_operators_match_refuses_a_table_or_entrant_its_game_has_not(start_server: StartServer,
                                                                              definition: dict[str, Any]) -> None:
    """Mahjong with team entrants failed at its first deal ("partners score alike"), with 3 seats ("mahjong needs
    4 seats"); a Shengji entrant is a team of two (RULES-matches §1)."""
    server, err = await refused_definition(start_server, definition)
    assert err["code"] == "bad_options" and ("definition.teams" in err["message"]
                                             or "definition.seats" in err["message"]), err
    assert server.lobby.director.runs == {}


async def test_the_operators_match_plays_at_the_stakes_its_game_takes(start_server: StartServer) -> None:
    """The checks refuse only what cannot play: the largest stake the game takes, a 打立 level at it, and a stake
    option named explicitly are made."""
    server = await start_server(admin_token="adm")
    d = server.lobby.director
    await d.create({**_MJ, "stages": [{"format": "fixed", "rounds": [{"deals": 1}], "base": 1_000_000}]})
    await d.create({**_MJ, "stages": [{"format": "dali", "advance": 4, "levels": [1, 1_000_000]}],
                    "host": {"stake_option": "base", "game_options": {}}})
    await d.create({**_SJ, "stages": [{"format": "fixed", "rounds": [{"deals": 3, "advance": 2}, {"deals": 1}]}],
                    "entry": {**_SJ["entry"], "max_entrants": 4}})
    assert len(d.runs) == 3


async def test_withdraw_and_the_operators_match_refuse_unknown_fields(start_server: StartServer) -> None:
    """As register and decline do: a misspelt field is refused, not ignored."""
    server = await start_server(admin_token="adm")
    run = await server.lobby.director.create({"preset": "sit_and_go_9"})
    a = await Client.guest(server)
    await a.post(f"/api/matches/{run.id}/register")
    r = await a.post(f"/api/matches/{run.id}/withdraw", {"x": 1}, status=400)
    assert r["error"]["code"] == "bad_field" and r["error"]["params"]["field"] == "x"
    assert a.user["id"] in {int(p[1:]) for p in run.state.players}  # still registered
    assert (await a.post(f"/api/matches/{run.id}/withdraw"))["status"] == "removed"
    async with a.api() as h:
        r2 = await h.post("/api/admin/matches", json={"definition": {"preset": "sit_and_go_9"}, "nmae": "typo"},
                          headers={"X-Admin-Token": "adm"})
    assert r2.status_code == 400 and r2.json()["error"]["params"]["field"] == "nmae", r2.text


async def test_the_operators_match_bounds_its_start_its_name_and_its_bots_fields(start_server: StartServer) -> None:
    """A start past what a database row holds was a 500 (SQLite's OverflowError); one a hundred years ahead sat
    there for ever; a 10,000-character name was cut to 64 without a word, an empty one taken; a misspelt field of
    the bots' request was ignored.  Each is refused, saying what is wanted, and nothing is made."""
    server = await start_server(admin_token="adm")
    d = server.lobby.director
    at_time = {"game": "ddz3", "entry": {"start": "at_time", "max_entrants": 6, "fee": 0},
               "stages": [{"format": "fixed", "rounds": [{"deals": 1}]}]}
    a = await Client.guest(server)
    adm = {"X-Admin-Token": "adm"}
    async with a.api() as h:
        for body, field in (({"start_at": 2**63}, "start_at"), ({"start_at": int(d.now()) + 100 * 366 * 86400},
                                                                "start_at"),
                            ({"start_at": -1}, "start_at"), ({"name": "x" * 10_000}, "name"), ({"name": "  "}, "name")):
            r = await h.post("/api/admin/matches", json={"definition": at_time, **body}, headers=adm)
            assert r.status_code == 400 and r.json()["error"]["params"]["field"] == field, (body, r.text[:300])
        assert d.runs == {}
        r = await h.post("/api/admin/matches", json={"definition": at_time, "start_at": int(d.now()) + 3600,
                                                     "name": " 周末赛 "}, headers=adm)
        assert r.status_code == 201 and r.json()["name"] == "周末赛", r.text
        mid = r.json()["id"]
        r = await h.post(f"/api/admin/matches/{mid}/bots", json={"count": 1, "zzz": 1}, headers=adm)
        assert r.status_code == 400 and r.json()["error"]["params"]["field"] == "zzz", r.text
        assert not d.runs[mid].state.players  # no bot came


async def test_cancelling_twice_refunds_once_and_a_finished_match_cannot_be_cancelled(
        start_server: StartServer) -> None:
    """The operator's cancel, retried (a lost answer): the same answer, the fee refunded once.  A finished
    match's prizes are paid: its cancel is refused (409 match_closed), its standings kept."""
    server = await start_server(admin_token="adm")
    d = server.lobby.director
    admin = {"X-Admin-Token": "adm"}
    a = await Client.guest(server)
    run = await d.create({"preset": "sit_and_go_9", "entry": {"fee": 30}})
    await a.post(f"/api/matches/{run.id}/register")
    assert (await a.get("/api/me"))["games"]["doudizhu"]["points"] == 970
    async with a.api() as h:
        for _ in range(2):
            r = await h.post(f"/api/admin/matches/{run.id}/cancel", json={}, headers=admin)
            assert r.status_code == 200 and r.json() == {"cancelled": True}, r.text
    assert (await a.get("/api/me"))["games"]["doudizhu"]["points"] == 1000  # once, not 1030
    done = await d.create({"preset": "sit_and_go_9", "entry": {"fee": 0, "start_delay_s": 0},
                           "stages": [{"rounds": [{"deals": 1, "advance": 3}, {"deals": 1}]}]})
    await d.add_bots(done.id, 9)
    for _ in range(600):
        if d.runs[done.id].state.phase == "finished":
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError(f"the bots' match never finished: {d.runs[done.id].state.phase}")
    async with a.api() as h:
        r = await h.post(f"/api/admin/matches/{done.id}/cancel", json={}, headers=admin)
    assert r.status_code == 409 and r.json()["error"]["code"] == "match_closed", r.text
    assert (await a.get(f"/api/matches/{done.id}"))["phase"] == "finished"
