"""End to end: register, quick match against bots, a whole deal to settlement checked in the database."""

from __future__ import annotations

from qipai.core.registry import get_factory

from server_helpers import SQLITE_ONLY, Client, StartServer


async def test_quick_match_deal_to_settlement(start_server: StartServer) -> None:
    server = await start_server(bot_processes=1)  # heuristic bots think in a worker process
    alice = await Client.register(server, "alice")
    assert alice.user["games"]["doudizhu"]["points"] == 1000 and alice.user["games"]["doudizhu"]["title"] == "商人"
    await alice.connect()
    mark = alice.mark()
    await alice.send({"type": "quick_match", "room": "classic-1", "id": "q1"})
    joined = await alice.wait_for(lambda m: m["type"] == "joined", since=mark)
    assert joined["ref"] == "q1" and joined["seat"] == 0
    over = await alice.play_until_over()
    seat = joined["seat"]
    delta = over["outcome"]["scores"][seat]
    mine = next(c for c in over["changes"] if c["seat"] == seat)
    assert mine["delta"] == delta and mine["points"] == 1000 + delta

    # the database agrees: profile, history, record
    me = await alice.get("/api/me")
    assert me["games"]["doudizhu"]["points"] == 1000 + delta and me["games"]["doudizhu"]["games_played"] == 1
    outcome = over["outcome"]
    if outcome["winner"] == "landlord" and outcome["landlord"] == seat:
        assert me["games"]["doudizhu"]["roles"]["landlord"]["won"] == 1
    elif outcome["winner"] == "farmers" and outcome["landlord"] != seat:
        assert me["games"]["doudizhu"]["roles"]["farmer"]["won"] == 1
    else:
        roles = me["games"]["doudizhu"]["roles"]
        assert all(r["won"] == 0 for r in roles.values())
    hist = (await alice.get("/api/history"))["deals"]
    assert len(hist) == 1 and hist[0]["delta"] == delta and hist[0]["deal_id"] == over["deal"]
    rec = await alice.get(f"/api/deals/{over['deal']}")
    assert rec["status"] == "over" and rec["you"] == seat
    # the record names its players from the store (qipai replay names the seats by them) and its reader
    players = rec["record"]["players"]
    assert players == [{"name": s["name"], "bot": s["bot"]} for s in rec["seats"]] and rec["record"]["you"] == seat
    assert players[seat] == {"name": "alice", "bot": None} and all(p["bot"] for i, p in enumerate(players) if i != seat)
    replayed = get_factory("doudizhu").replay(rec["record"])
    assert replayed.is_over and replayed.outcome() == outcome
    steps = (await alice.get(f"/api/deals/{over['deal']}/replay"))["steps"]
    assert steps[-1]["observation"]["outcome"] == outcome
    board = (await alice.get("/api/leaderboard"))["users"]
    assert board[0]["name"] == "alice"
    # the operator's figures: every action of the deal waited for its journal commit
    health = await alice.get("/api/health")
    assert health["ok"] and health["tables"] >= 1
    for key in ("journal_wait_ms", "journal_commit_ms", "loop_lag_ms"):
        figures = health[key]
        assert figures["p50"] is not None and 0 <= figures["p50"] <= figures["p99"] <= figures["max"], key
    assert set(health["full_gc_ms"]) == {"p50", "p99", "max"}
    await alice.close()
    # a stopping server waits for its bot worker to exit (one killed at exit leaves leaked semaphores behind)
    pool = server.lobby._pool
    assert pool is not None
    workers = list(pool._processes.values())
    assert workers and all(p.is_alive() for p in workers)
    await server.stop()
    assert not any(p.is_alive() for p in workers)


@SQLITE_ONLY
async def test_expert_bots_play_a_deal_in_the_worker_process(start_server: StartServer) -> None:
    """The ``expert`` level (the learned values with rollouts, NumPy and the committed weights loaded in the
    bot worker process) fills a quick match's seats and plays a deal to its settlement within the bot budget."""
    server = await start_server(bot_processes=1, seat_bot="expert")
    alice = await Client.register(server, "alice")
    await alice.connect()
    mark = alice.mark()
    await alice.send({"type": "quick_match", "room": "classic-1", "id": "q1"})
    joined = await alice.wait_for(lambda m: m["type"] == "joined", since=mark)
    over = await alice.play_until_over(timeout=180.0)
    assert over["outcome"]["winner"] in ("landlord", "farmers")
    rec = await alice.get(f"/api/deals/{over['deal']}")
    bots = [p["bot"] for s, p in enumerate(rec["seats"]) if s != joined["seat"]]
    assert bots == ["expert", "expert"], rec["seats"]
    played = [a for a in rec["record"]["actions"] if a["seat"] != joined["seat"] and a["action"].startswith("play")]
    assert played  # the bots played cards, none of them timed out into auto-play
    assert not any(over["outcome"]["autoplay"])
    await alice.close()
    await server.stop()


@SQLITE_ONLY
async def test_quick_bots_go_first_and_late_strong_bots_answer_in_a_hurry(start_server: StartServer) -> None:
    """Strong bots' half-second decisions queued for one worker process: a quick bot's decision asked for
    meanwhile no longer waits behind them, and the strong ones that waited too long answer in a hurry (the
    learned values without their rollouts) instead of running past the budget into a time-out."""
    import asyncio
    import time

    server = await start_server(bot_processes=1, bot_budget=4.0)
    lobby = server.lobby
    factory = get_factory("doudizhu")
    from qipai.bots import get_bot
    from qipai.core.game import apply_step

    game = factory.new({}, 7, {"deal_index": 0})
    bidder = get_bot("normal", 0)
    while game.observe(game.acting[0])["phase"] != "play":  # the bidding, to the landlord's opening lead
        seat = game.acting[0]
        apply_step(game, seat, bidder.act(game.observe(seat), game.legal_actions(seat)))
    seat = game.acting[0]
    obs, legal = game.observe(seat), game.legal_actions(seat)
    assert len(legal) > 1
    # each bot answers once first, so the queue knows how long it takes
    for name in ("expert", "normal"):
        await lobby.think("doudizhu", name, lobby.bot("doudizhu", name, 1), 1, obs, legal)
    assert lobby.bot_queue.slow("doudizhu/expert") and not lobby.bot_queue.slow("doudizhu/normal")

    async def timed(name: str, seed: int) -> float:
        t0 = time.monotonic()
        action = await lobby.think("doudizhu", name, lobby.bot("doudizhu", name, seed), seed, obs, legal)
        assert action in legal
        return time.monotonic() - t0

    strong = [asyncio.ensure_future(timed("expert", s)) for s in range(2, 10)]
    await asyncio.sleep(0.1)
    quick = await timed("normal", 11)
    waits = await asyncio.gather(*strong)  # none timed out
    assert quick < 1.0, quick  # behind at most the one strong decision running
    assert max(waits) < 4.0 and lobby.bot_queue.hurried >= 3, (waits, lobby.bot_queue.hurried)
    health = await Client.register(server, "operator")
    figures = await health.get("/api/health")
    assert figures["bots_hurried"] == lobby.bot_queue.hurried and figures["bots_waiting"] == 0
    await server.stop()


async def test_the_bot_queue_orders_hurries_and_drops() -> None:
    """:class:`BotQueue` on its own: quick bots' work before slow bots', each kind in order; a slow bot's work
    that waited past ``HURRY_AFTER`` runs in a hurry; work whose caller gave up never runs."""
    import asyncio

    from qipai.host import botpool

    q = botpool.BotQueue(1, 100.0)
    q.took = {"slow": 0.2, "quick": 0.001}
    ran: list[tuple[str, bool]] = []

    def job(tag: str, pause: float) -> object:
        async def work(hurry: bool) -> tuple[str, float]:
            ran.append((tag, hurry))
            await asyncio.sleep(pause)
            return tag, pause
        return work

    first = asyncio.ensure_future(q.run("slow", job("s1", 0.3)))  # type: ignore[arg-type]
    await asyncio.sleep(0)
    later = [asyncio.ensure_future(q.run(n, job(t, 0.0))) for n, t in  # type: ignore[arg-type]
             (("slow", "s2"), ("quick", "q1"), ("slow", "s3"), ("quick", "q2"))]
    dropped = asyncio.ensure_future(q.run("slow", job("gone", 0.0)))  # type: ignore[arg-type]
    await asyncio.sleep(0.05)
    dropped.cancel()
    old = botpool.HURRY_AFTER
    botpool.HURRY_AFTER = 0.2
    try:
        assert await asyncio.gather(first, *later) == ["s1", "s2", "q1", "s3", "q2"]
    finally:
        botpool.HURRY_AFTER = old
    assert ran == [("s1", False), ("q1", False), ("q2", False), ("s2", True), ("s3", True)]
    assert q.hurried == 2 and q.running == 0 and not q.waiting
