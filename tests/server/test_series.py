"""A private table played for a set number of deals (好友房局数): its count in the table view, the final summary
(大结算) when the last deal is settled, the table closing, the summary read again later, bad counts refused,
and the count surviving a restart."""

from __future__ import annotations

import asyncio
from typing import Any

from server_helpers import SQLITE_ONLY, Client, LiveServer, StartServer


async def _two_deal_table(server: LiveServer, name: str, deals: int = 2) -> tuple[Client, str, str]:
    """A player alone at a private Dou Dizhu table for ``deals`` deals, the other seats bots; (client, table,
    invite)."""
    c = await Client.register(server, name)
    await c.connect()
    made = await c.post("/api/tables", {"room": "classic-1", "deals": deals})
    await c.post(f"/api/tables/{made['table']}/bots")
    return c, made["table"], made["invite_code"]


def _totals(overs: list[dict[str, Any]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for o in overs:
        for ch in o["changes"]:
            out[ch["seat"]] = out.get(ch["seat"], 0) + ch["score"]
    return out


@SQLITE_ONLY
async def test_a_two_deal_table_ends_with_its_summary_and_closes(start_server: StartServer) -> None:
    server = await start_server(ready_timeout=0.3)
    c, table, invite = await _two_deal_table(server, "series")
    watcher = await Client.guest(server)
    await watcher.connect()
    await watcher.send({"type": "spectate", "table": table, "invite": invite})
    snap = await c.wait_for(lambda m: m["type"] == "snapshot" or (m["type"] == "table" and m["table"]["status"]
                                                                  == "playing"))
    view = snap["table"]
    assert view["deals_total"] == 2 and view["deal_index"] == 0
    first = await c.play_until_over()
    mid = await c.wait_for(lambda m: m["type"] == "table" and m["table"]["deal_index"] == 1)
    assert mid["table"]["deals_total"] == 2 and mid["table"]["status"] != "closed"
    assert table in server.lobby.tables  # one deal of two: the table goes on
    second = await c.play_until_over()
    closed = await c.wait_for(lambda m: m["type"] == "closed")
    assert closed["table"] == table and closed["reason"] == "finished"
    summary = closed["summary"]
    assert summary["deals_total"] == 2 and summary["deals_played"] == 2
    totals = _totals([first, second])
    rows = summary["players"]
    assert {r["seat"]: r["total"] for r in rows} == totals
    assert [r["total"] for r in rows] == sorted(totals.values(), reverse=True)  # ranked
    assert all(r["deals"] == 2 for r in rows)
    last = {ch["seat"]: ch["score"] for ch in second["changes"]}
    assert {r["seat"]: r["last"] for r in rows} == last
    won = {s: sum(1 for o in (first, second) for ch in o["changes"] if ch["seat"] == s and ch["score"] > 0)
           for s in totals}
    assert {r["seat"]: r["won"] for r in rows} == won
    top = max(totals.values())
    assert summary["winners"] == [s for s, v in sorted(totals.items()) if v == top]
    assert rows[0]["rank"] == 1 and rows[0]["winner"] == (len(set(totals.values())) > 1)
    me = next(r for r in rows if r["seat"] == 0)
    assert me["name"] == "series" and me["user_id"] == c.user["id"]
    best = max(ch["score"] for o in (first, second) for ch in o["changes"])
    assert summary["best_deal"]["score"] == best
    # the spectator is told too
    wclosed = await watcher.wait_for(lambda m: m["type"] == "closed")
    assert wclosed["summary"] == summary
    # the table is gone and the seat freed; the summary can still be read by who played
    assert table not in server.lobby.tables
    async with c.api() as h:
        assert (await h.get(f"/api/tables/{table}")).status_code == 404
    assert (await c.get("/api/me")).get("table") is None
    again = await c.get(f"/api/tables/{table}/summary")
    assert again["finished"] and again["status"] == "closed" and again["summary"] == summary
    async with watcher.api() as h:
        r = await h.get(f"/api/tables/{table}/summary")
        assert r.status_code == 403 and r.json()["error"]["code"] == "private_table"
    made = await c.post("/api/tables", {"room": "classic-1"})  # free to sit elsewhere
    assert made["table"] != table
    await c.close()
    await watcher.close()


@SQLITE_ONLY
async def test_bad_deal_counts_are_refused(start_server: StartServer) -> None:
    server = await start_server()
    c = await Client.register(server, "counts")
    for bad in (0, 65, -1, "8", 2.5, True, [4]):
        r = await c.post("/api/tables", {"room": "classic-1", "deals": bad}, status=400)
        assert r["error"]["code"] == "bad_field" and r["error"]["params"]["field"] == "deals", bad
        assert "1..64" in r["error"]["message"]
    assert server.lobby.tables == {}
    made = await c.post("/api/tables", {"room": "classic-1", "deals": None})  # open-ended, as before
    view = await c.get(f"/api/tables/{made['table']}")
    assert view["deals_total"] is None
    async with c.api() as h:  # an open-ended table has no final summary
        assert (await h.get(f"/api/tables/{made['table']}/summary")).status_code == 404
    await c.post(f"/api/tables/{made['table']}/leave")
    made = await c.post("/api/tables", {"room": "classic-1", "deals": 64})
    assert (await c.get(f"/api/tables/{made['table']}"))["deals_total"] == 64
    await c.post(f"/api/tables/{made['table']}/leave")
    # the same over the socket (the web client's create_table)
    await c.connect()
    mark = c.mark()
    await c.send({"type": "create_table", "room": "classic-1", "deals": 0, "id": 5})
    err = await c.error("bad_message", mark)
    assert err["ref"] == 5 and "deals" in err["message"]
    await c.send({"type": "create_table", "room": "classic-1", "deals": 4, "id": 6})
    joined = await c.wait_for(lambda m: m["type"] == "joined", since=mark)
    snap = await c.wait_for(lambda m: m["type"] == "snapshot" and m["table"]["id"] == joined["table"], since=mark)
    assert snap["table"]["deals_total"] == 4
    await c.close()


async def test_a_restart_mid_series_keeps_the_count(start_server: StartServer) -> None:
    """A restart after deal 1 of 2: the table comes back with its count and its deal index, the player comes back,
    plays deal 2, and the table closes with the summary of both deals."""
    kw = {"ready_timeout": 60.0, "restore_grace": 60.0}
    first = await start_server(**kw)
    c, table, _ = await _two_deal_table(first, "restarted")
    one = await c.play_until_over()
    await c.close()
    await first.stop()
    second = await start_server(**kw)
    restored = second.lobby.tables.get(table)
    assert restored is not None and restored.info.deals_total == 2 and restored.deal_index == 1
    again = Client(second, c.token, c.user)
    await again.connect()
    snap = await again.wait_for(lambda m: m["type"] == "snapshot")
    assert snap["table"]["deals_total"] == 2 and snap["table"]["deal_index"] == 1
    await again.send({"type": "ready", "table": table})
    two = await again.play_until_over()
    closed = await again.wait_for(lambda m: m["type"] == "closed")
    assert closed["reason"] == "finished" and closed["summary"]["deals_played"] == 2
    assert {r["seat"]: r["total"] for r in closed["summary"]["players"]} == _totals([one, two])
    assert table not in second.lobby.tables
    await again.close()


@SQLITE_ONLY
async def test_a_table_restored_with_all_its_deals_settled_closes(start_server: StartServer) -> None:
    """The server stopped between a table's last settlement and its closing (here: a 2-deal table after deal 1,
    its count then written down as 1): restored, it closes at once, and its summary is there to read."""
    import sqlite3

    kw = {"ready_timeout": 60.0, "restore_grace": 60.0}
    first = await start_server(**kw)
    c, table, _ = await _two_deal_table(first, "cutoff")
    one = await c.play_until_over()
    await c.close()
    await first.stop()
    path = first.settings.database_url.split("///", 1)[1]
    with sqlite3.connect(path) as db:
        db.execute("UPDATE tables SET deals_total = 1 WHERE id = ?", (table,))
    second = await start_server(**kw)
    for _ in range(200):
        if table not in second.lobby.tables:
            break
        await asyncio.sleep(0.02)
    assert table not in second.lobby.tables
    again = Client(second, c.token, c.user)
    got = await again.get(f"/api/tables/{table}/summary")
    assert got["status"] == "closed" and got["finished"] and got["summary"]["deals_played"] == 1
    assert {r["seat"]: r["total"] for r in got["summary"]["players"]} == _totals([one])
    assert (await again.get("/api/me")).get("table") is None
