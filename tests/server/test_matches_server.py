"""Matches (比赛) through the real server: a ``qipai serve`` process, real WebSocket clients playing their seats.

A sit-and-go of nine (three humans and six bots, Dou Dizhu) is played to its end with the standings pushed over
the WebSocket, fees and prizes checked in the players' points; a withdrawal gives the fee back; a player who
drops is played by auto-play and the match goes on; the server is killed mid-round and a new process continues
the match exactly (no deal played twice, no result counted twice, no fee or prize paid twice).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import signal
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server_helpers import Client

ADMIN = "match-admin-secret"
POOL = {"name": "sng", "preset": "sit_and_go_9", "entry": {"fee": 100, "start_delay_s": 0}, "round_gap_s": 1,
        "stages": [{"rounds": [{"deals": 2, "advance": 3}, {"deals": 2}]}]}
TOTAL_DEALS = 3 * 2 + 2


def free_port() -> int:
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = int(s.getsockname()[1])
    s.close()
    return port


class Serve:
    """One ``python -m qipai.server`` process on a SQLite file (started again on the same port and file)."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.db = tmp / "qipai.db"
        self.log = tmp / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.args = [
            sys.executable, "-m", "qipai.server", "--port", str(self.port),
            "--database-url", f"sqlite+aiosqlite:///{self.db}", "--admin-token", ADMIN,
            "--bot-delay", "0", "--autoplay-delay", "0", "--next-deal-delay", "0.2", "--bot-processes", "0",
            "--time-scale", "0.1", "--restore-grace", "1", "--log-level", "warning", "--auth-rate-limit", "1000",
            "--matches", json.dumps([POOL]),
        ]

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    async def start(self) -> Serve:
        self.proc = subprocess.Popen(self.args, stdout=self.log.open("ab"), stderr=subprocess.STDOUT)
        async with httpx.AsyncClient() as h:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if (await h.get(self.http + "/api/health", timeout=1)).status_code == 200:
                        return self
                if self.proc.poll() is not None:
                    raise AssertionError(f"the server exited: {self.log.read_text()[-3000:]}")
                await asyncio.sleep(0.1)
        raise AssertionError(f"the server did not start: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    async def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                await asyncio.to_thread(self.proc.wait, 20)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    async def admin(self, path: str, body: dict[str, Any], status: int = 200) -> Any:
        async with httpx.AsyncClient(base_url=self.http, headers={"X-Admin-Token": ADMIN}) as h:
            r = await h.post(path, json=body)
            assert r.status_code == status, r.text
            return r.json()

    def query(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        con = sqlite3.connect(self.db)
        try:
            return con.execute(sql, args).fetchall()
        finally:
            con.close()


@pytest.fixture
async def serve(tmp_path: Path) -> AsyncIterator[Serve]:
    s = await Serve(tmp_path).start()
    try:
        yield s
    finally:
        await s.stop()


async def open_match(c: Client) -> str:
    data = await c.get("/api/matches?status=open")
    mine = [m for m in data["matches"] if m["source"] == "pool:sng"]
    assert len(mine) == 1, data
    return str(mine[0]["id"])


async def keep_playing(c: Client) -> None:
    """Play this seat's turns deal after deal, table after table, until cancelled."""
    while True:
        with contextlib.suppress(TimeoutError):
            await c.play_until_over(timeout=30)


async def points(c: Client) -> int:
    me = await c.get("/api/me")
    return int(me["games"]["doudizhu"]["points"])


async def wait_match(c: Client, mid: str, pred: Any, timeout: float = 120.0) -> dict[str, Any]:
    for _ in range(int(timeout * 5)):
        info = await c.get(f"/api/matches/{mid}")
        if pred(info):
            return dict(info)
        await asyncio.sleep(0.2)
    raise AssertionError(f"match {mid} never got there: {info['phase']}, {info['standings'][:3]}")


def match_deals(serve: Serve, mid: str) -> list[tuple[Any, ...]]:
    return serve.query(
        "SELECT d.table_id, d.deal_index, d.status FROM deals d JOIN tables t ON t.id = d.table_id "
        "WHERE t.tags LIKE ? ORDER BY d.id", f'%"match_id": "{mid}"%')


async def test_a_sit_and_go_of_nine_with_three_humans_plays_to_the_end_with_prizes(serve: Serve) -> None:
    humans = [await Client.register(serve, f"Player{i}") for i in range(1, 5)]  # type: ignore[arg-type]
    for c in humans:
        await c.connect()
    mid = await open_match(humans[0])
    # a withdrawal before the start gives the fee back
    d = humans[3]
    await d.post(f"/api/matches/{mid}/register")
    assert await points(d) == 900
    r = await d.post(f"/api/matches/{mid}/register", status=409)
    assert r["error"]["code"] == "already_registered"
    assert (await d.post(f"/api/matches/{mid}/withdraw"))["status"] == "removed"
    assert await points(d) == 1000
    hist = await d.get("/api/matches/mine")
    assert hist["matches"][0]["match"] == mid and hist["matches"][0]["status"] == "removed"
    players = humans[:3]
    for c in players:
        await c.post(f"/api/matches/{mid}/register")
        assert await points(c) == 900
    watch = humans[3]
    mark = watch.mark()
    await watch.send({"type": "match_watch", "match": mid, "id": 5})
    first = await watch.wait_for(lambda m: m["type"] == "match_standings" and m.get("ref") == 5, since=mark)
    assert first["phase"] == "registration" and len(first["standings"]) == 3
    assert [r["name"] for r in first["standings"]] == ["Player1", "Player2", "Player3"]
    tasks = [asyncio.create_task(keep_playing(c)) for c in players]
    try:
        await serve.admin(f"/api/admin/matches/{mid}/bots", {"count": 6})
        # the match fills and starts: every human is seated at a match table like a quick match
        for c in players:
            joined = await c.wait_for(lambda m: m["type"] == "joined", timeout=20)
            assert joined["table"]
        # while in the match a player sits nowhere else
        r = await players[0].post("/api/quick-match", {"room": "classic-1"}, status=409)
        assert r["error"]["code"] == "in_match" and r["error"]["params"]["match"] == mid
        # the third player drops during round 1: auto-play plays the seat, the match does not wait
        gone = players[2]
        tasks[2].cancel()
        await gone.close()
        info = await wait_match(watch, mid, lambda i: i["phase"] == "finished", timeout=240)
    finally:
        for t in tasks:
            t.cancel()
    rows = info["standings"]
    assert [r["place"] for r in rows] == list(range(1, 10))
    assert sum(1 for r in rows if r["bot"]) == 6
    assert sum(r["points"] for r in rows[:3]) + sum(r["points"] for r in rows[3:]) == 9000
    # live standings were pushed while it ran, the final one included
    pushed = [m for m in watch.msgs if m["type"] == "match_standings" and m["match"] == mid]
    # (coalesced: at most one push a second, and the last at once)
    running = [m for m in pushed if m["phase"] == "running"]
    assert any(len({r["points"] for r in m["standings"]}) > 1 for m in running), running  # after a counted deal
    assert pushed[-1]["phase"] == "finished"
    assert pushed[-1]["standings"] == rows
    # prizes: 3 paying × 100 × 90 % = 270, bracket 3 → all of it to the best human (bots take none)
    assert info["prizes"] == [270]
    assert sorted(r["name"] for r in rows if not r["bot"]) == ["Player1", "Player2", "Player3"]
    best = next(r for r in rows if not r["bot"])
    ids = {c.user["id"]: c for c in players}
    assert len(best["users"]) == 1
    for r in rows:
        if r["bot"]:
            continue
        c = ids[r["users"][0]]
        expect = 900 + (270 if r is best else 0)
        assert await points(c) == expect, (r, expect)
        hist = await c.get("/api/matches/mine")
        h = next(x for x in hist["matches"] if x["match"] == mid)
        assert h["place"] == r["place"] and h["prize"] == (270 if r is best else 0) and h["fee"] == 100
    # every deal of the match was played once and settled; the dropped player's seat was played for him
    deals = match_deals(serve, mid)
    assert len(deals) == TOTAL_DEALS and all(st == "over" for _, _, st in deals)
    assert len({(t, i) for t, i, _ in deals}) == TOTAL_DEALS
    gid = gone.user["id"]
    auto = serve.query("SELECT COUNT(*) FROM journal j JOIN deals d ON d.id = j.deal_id JOIN tables t ON "
                       "t.id = d.table_id WHERE t.tags LIKE ? AND d.seats LIKE ? AND j.action = 'autoplay on'",
                       f'%"match_id": "{mid}"%', f'%"user_id": {gid},%')
    assert auto[0][0] >= 1
    money = serve.query("SELECT kind, COUNT(*), SUM(delta) FROM match_money WHERE match_id = ? GROUP BY kind "
                        "ORDER BY kind", mid)
    assert money == [("fee", 4, -400), ("prize", 1, 270), ("refund", 1, 100)]
    # a new sit-and-go of the pool is open again
    assert await open_match(watch) != mid
    await check_match_deals(serve, mid, watch, players[0], deals)
    for c in humans:
        if c.ws is not None:
            await c.close()


async def test_a_server_killed_mid_round_continues_the_match_exactly(serve: Serve) -> None:
    players = [await Client.register(serve, f"Kill{i}") for i in range(1, 4)]  # type: ignore[arg-type]
    for c in players:
        await c.connect()
    mid = await open_match(players[0])
    for c in players:
        await c.post(f"/api/matches/{mid}/register")
    tasks = [asyncio.create_task(keep_playing(c)) for c in players]
    await serve.admin(f"/api/admin/matches/{mid}/bots", {"count": 6})
    # wait until round 1 has a counted deal and a deal in play
    info = await wait_match(players[0], mid, lambda i: i["phase"] == "running" and any(
        r["last_deal"] != 0 for r in i["standings"]), timeout=120)
    for t in tasks:
        t.cancel()
    serve.kill()
    before = serve.query("SELECT state FROM matches WHERE id = ?", mid)
    st_before = json.loads(before[0][0])
    assert st_before.get("seq", 0) >= 1 and st_before["tables"]  # mid-round: tables in play
    deals_before = match_deals(serve, mid)
    print("killed with", st_before["seq"], "counted;", deals_before)
    for c in players:
        with contextlib.suppress(Exception):
            await c.close()
    await serve.start()
    for c in players:
        c.msgs.clear()
        await c.connect()
    tasks = [asyncio.create_task(keep_playing(c)) for c in players]
    try:
        info = await wait_match(players[0], mid, lambda i: i["phase"] == "finished", timeout=240)
    finally:
        for t in tasks:
            t.cancel()
    rows = info["standings"]
    assert [r["place"] for r in rows] == list(range(1, 10))
    state = json.loads(serve.query("SELECT state FROM matches WHERE id = ?", mid)[0][0])
    assert state["seq"] == TOTAL_DEALS  # every deal counted once
    deals = match_deals(serve, mid)
    # the deals from before the kill are the same rows (a running one finished from its journal), none again
    assert deals[:len(deals_before)] == [(t, i, "over") if s == "running" else (t, i, s)
                                         for t, i, s in deals_before]
    assert len(deals) == TOTAL_DEALS and all(s == "over" for _, _, s in deals)
    money = serve.query("SELECT kind, COUNT(*), SUM(delta) FROM match_money WHERE match_id = ? GROUP BY kind "
                        "ORDER BY kind", mid)
    assert money == [("fee", 3, -300), ("prize", 1, 270)]
    ledger = serve.query("SELECT reason, COUNT(*) FROM ledger WHERE ref = ? GROUP BY reason ORDER BY reason", mid)
    assert ledger == [("fee", 3), ("prize", 1)]
    total = sum([await points(c) for c in players])
    assert total == 3 * 900 + 270
    for c in players:
        await c.close()


async def test_quitting_a_running_match_reconnecting_and_refusals(serve: Serve) -> None:
    players = [await Client.register(serve, f"Quit{i}") for i in range(1, 5)]  # type: ignore[arg-type]
    for c in players:
        await c.connect()
    a, b, c3, late = players
    async with a.api() as h:
        r = await h.post("/api/matches/nope/register", json={})
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_match"
        r = await h.get("/api/matches?status=soon")
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_param"
    mid = await open_match(a)
    r = await a.post(f"/api/matches/{mid}/withdraw", status=409)
    assert r["error"]["code"] == "not_registered"
    for c in (a, b, c3):
        await c.post(f"/api/matches/{mid}/register")
    tasks = {c.user["id"]: asyncio.create_task(keep_playing(c)) for c in (a, b, c3)}
    try:
        await serve.admin(f"/api/admin/matches/{mid}/bots", {"count": 6})
        r = await late.post(f"/api/matches/{mid}/register", status=409)
        assert r["error"]["code"] in ("match_closed", "match_full")
        joined = await a.wait_for(lambda m: m["type"] == "joined", timeout=20)
        # A quits (退赛): plays on in auto-play to the end of the round, then is out with a place, no refund
        q = await a.post(f"/api/matches/{mid}/withdraw")
        assert q["status"] == "quitting"
        info = await a.get(f"/api/matches/{mid}")
        # (his seat plays on without him: no table to go back to, the one he left named as such)
        assert info["me"]["quitting"] and info["me"]["table"] is None and info["me"]["left_table"] == joined["table"]
        tasks.pop(a.user["id"]).cancel()
        # B drops and comes back: the welcome names its match table and the snapshot gives the seat back
        bj = await b.wait_for(lambda m: m["type"] == "joined", timeout=20)
        tasks.pop(b.user["id"]).cancel()
        await b.close()
        b.msgs.clear()
        await b.connect()
        welcome = next(m for m in b.msgs if m["type"] == "welcome")
        binfo = await b.get(f"/api/matches/{mid}")
        if binfo["me"]["table"] is not None:
            assert welcome["table"] == binfo["me"]["table"]
            await b.wait_for(lambda m: m["type"] == "snapshot" and m["table"]["id"] == welcome["table"])
        else:
            assert bj["table"]  # B's round-1 table was already done: nothing to come back to
        tasks[b.user["id"]] = asyncio.create_task(keep_playing(b))
        info = await wait_match(b, mid, lambda i: i["phase"] == "finished", timeout=240)
    finally:
        for t in tasks.values():
            t.cancel()
    hist = await a.get("/api/matches/mine")
    h = next(x for x in hist["matches"] if x["match"] == mid)
    # out at the end of round 1: by the cut if it fell below it (the cut comes first), else as a withdrawal
    assert h["status"] in ("withdrawn", "eliminated") and h["place"] is not None and h["fee"] == 100
    assert h["place"] > 3 or h["status"] == "withdrawn"
    row = next(r for r in info["standings"] if a.user["id"] in r["users"])
    assert row["status"] == h["status"] and row["place"] == h["place"]
    final = [r for r in info["standings"] if r["status"] == "in"]
    assert a.user["id"] not in {u for r in final for u in r["users"]}
    refunds = serve.query("SELECT COUNT(*) FROM match_money WHERE match_id = ? AND kind = 'refund'", mid)
    assert refunds == [(0,)]
    for c in players:
        if c.ws is not None:
            await c.close()


async def check_match_deals(serve: Serve, mid: str, outsider: Client, player: Client,
                            deals: list[tuple[Any, ...]]) -> None:
    """``/api/matches/{id}/deals``: every settled deal of the match, newest first, paged; a player's own; and
    each replayable by anybody signed in (a spectator's view for one who did not play it), though only a
    player may ask for its review."""
    listed = (await outsider.get(f"/api/matches/{mid}/deals?limit=200"))["deals"]
    assert len(listed) == len(deals)
    ids = [d["deal_id"] for d in listed]
    assert ids == sorted(ids, reverse=True)
    assert {(d["table_id"], d["deal_index"]) for d in listed} == {(t, i) for t, i, _ in deals}
    assert all(re.fullmatch(r"\d+\.\d+\.\d+", d["table_key"]) for d in listed), listed
    assert all(len(d["players"]) == len(d["users"]) == len(d["scores"]) == 3 for d in listed)
    # paging by deal id
    first = (await outsider.get(f"/api/matches/{mid}/deals?limit=3"))["deals"]
    rest = (await outsider.get(f"/api/matches/{mid}/deals?limit=200&before={first[-1]['deal_id']}"))["deals"]
    assert [d["deal_id"] for d in first + rest] == ids
    # a player's own deals
    uid = player.user["id"]
    own = (await player.get(f"/api/matches/{mid}/deals?mine=1"))["deals"]
    assert own and all(uid in d["users"] for d in own)
    assert len(own) == sum(1 for d in listed if uid in d["users"])
    # anybody signed in replays a match deal; one who did not play it sees it as a spectator
    did = ids[0]
    rec = await outsider.get(f"/api/deals/{did}")
    assert rec["match_id"] == mid and rec["you"] is None
    rep = await outsider.get(f"/api/deals/{did}/replay")
    assert rep["you"] is None and len(rep["steps"]) > 1
    assert "hand" not in rep["steps"][1]["observation"] or rep["steps"][1]["observation"]["hand"] is None
    # the player's profile (玩家资料) offers his match deals' replays to the outsider too: the replay's own rule
    prof = await outsider.get(f"/api/players/{player.user['name']}")
    assert prof["recent"] and all(d["match"] and d["replay"] for d in prof["recent"]), prof["recent"]
    assert [d["deal_id"] for d in prof["recent"]] == [d["deal_id"] for d in own][: len(prof["recent"])]
    async with outsider.api() as h:
        r = await h.get(f"/api/deals/{did}/review?seat=0")
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_deal"
    async with httpx.AsyncClient(base_url=serve.http) as anon:
        r = await anon.get(f"/api/matches/{mid}/deals?mine=1")
        assert r.status_code == 401
        r = await anon.get("/api/matches/nosuchmatch/deals")
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_match"
        r = await anon.get(f"/api/matches/{mid}/deals?limit=0")
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_param"
