"""A match on several nodes (three ``qipai serve`` processes, one PostgreSQL, one Redis): the node that drives
a match is killed mid-round and another node takes the match over with its tables and finishes it exactly."""

from __future__ import annotations

import asyncio
import json
import signal
from typing import Any

import asyncpg
import httpx
from test_cluster import ADMIN, Cluster, cluster  # noqa: F401 (the fixture)

from server_helpers import Database

DEFN = {"preset": "sit_and_go_9", "entry": {"fee": 0, "start_delay_s": 0}, "round_gap_s": 1,
        "stages": [{"rounds": [{"deals": 2, "advance": 3}, {"deals": 2}]}]}
TOTAL = 3 * 2 + 2


def dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def get(url: str, path: str) -> Any:
    async with httpx.AsyncClient(base_url=url) as h:
        r = await h.get(path, timeout=5)
        assert r.status_code == 200, r.text
        return r.json()


async def full_match(url: str, definition: dict[str, Any], entrant: dict[str, str] | None = None) -> str:
    """The operator creates a match through the node at ``url``, the player whose ``Authorization`` header is
    ``entrant`` (if any) registers, and bots fill the other places of nine; its id."""
    async with httpx.AsyncClient(base_url=url, headers={"X-Admin-Token": ADMIN}) as h:
        r = await h.post("/api/admin/matches", json={"definition": definition})
        assert r.status_code == 201, r.text
        mid = str(r.json()["id"])
        if entrant is not None:
            r = await h.post(f"/api/matches/{mid}/register", json={}, headers=entrant)
            assert r.status_code == 200, r.text
        r = await h.post(f"/api/admin/matches/{mid}/bots", json={"count": 9 if entrant is None else 8})
        assert r.status_code == 200, r.text
    return mid


async def test_a_match_survives_the_death_of_the_node_that_drives_it(
        cluster: Cluster, pg_db: Database) -> None:  # noqa: F811 (the imported fixture)
    n1, n2, _n3 = cluster.nodes
    mid = await full_match(n1.url, DEFN)
    # another node lists it (as last written) and its card
    listed = await get(n2.url, "/api/matches?status=open,running,finished")
    assert mid in [m["id"] for m in listed["matches"]]
    conn = await asyncpg.connect(dsn(pg_db.url))
    try:
        for _ in range(300):
            row = await conn.fetchrow("SELECT state FROM matches WHERE id = $1", mid)
            st = json.loads(row["state"])
            if st.get("seq", 0) >= 1 and st.get("tables"):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the match never got under way")
        # another node shows where each entrant plays (the table ids it does not run, from the database)
        for _ in range(100):
            info = await get(n2.url, f"/api/matches/{mid}")
            at = [r for r in info["standings"] if r["where"] == "table"]
            if at:
                break
            await asyncio.sleep(0.05)
        assert at and all(isinstance(r["table"], str) for r in at), info["standings"]
        n1.signal(signal.SIGKILL)
        for _ in range(1200):
            row = await conn.fetchrow("SELECT state, status FROM matches WHERE id = $1", mid)
            if row["status"] == "finished":
                break
            await asyncio.sleep(0.1)
        else:
            logs = "\n".join(f"--- {n.name}\n" + n.log.read_text()[-4000:] for n in cluster.nodes)
            tables = await conn.fetch("SELECT id, owner_node, status, tags::text FROM tables")
            raise AssertionError(f"the match did not finish after its node died: {row['status']} {st}\n"
                                 f"{[dict(t) for t in tables]}\n{logs}")
        st = json.loads(row["state"])
        assert st["seq"] == TOTAL and len(st["ranking"]) == 9
        deals = await conn.fetch(
            "SELECT d.table_id, d.deal_index, d.status FROM deals d JOIN tables t ON t.id = d.table_id "
            "WHERE t.tags::text LIKE $1", f'%"match_id": "{mid}"%')
        if not (len(deals) == TOTAL and {d["status"] for d in deals} == {"over"}):
            logs = "\n".join(f"--- {n.name}\n" + "\n".join(x for x in n.log.read_text().splitlines()
                                                           if "/api/health" not in x)[-6000:] for n in cluster.nodes)
            raise AssertionError(f"deals {[dict(d) for d in deals]}\n{logs}")
        assert len({(d["table_id"], d["deal_index"]) for d in deals}) == TOTAL
        owners = await conn.fetch("SELECT DISTINCT owner_node FROM tables WHERE tags::text LIKE $1",
                                  f'%"match_id": "{mid}"%')
        assert {o["owner_node"] for o in owners} - {"n1"}  # tables were run by a surviving node
    finally:
        await conn.close()
    card = await get(n2.url, f"/api/matches/{mid}")
    assert card["phase"] == "finished" and [r["place"] for r in card["standings"]] == list(range(1, 10))


async def test_the_operators_match_calls_work_on_any_node(cluster: Cluster) -> None:  # noqa: F811 (the fixture)
    """Behind a load balancer an operator's call reaches any node: adding bots to or cancelling a match another
    node drives answered ``unknown_match`` there; now it is passed on to the driving node."""
    n1, n2, n3 = cluster.nodes
    waiting = {"preset": "sit_and_go_9", "entry": {"fee": 0, "start_delay_s": 0}}
    async with httpx.AsyncClient(headers={"X-Admin-Token": ADMIN}) as h:
        made = []
        for _ in range(2):
            r = await h.post(n1.url + "/api/admin/matches", json={"definition": waiting})
            assert r.status_code == 201, r.text
            made.append(r.json()["id"])
        r = await h.post(f"{n2.url}/api/admin/matches/{made[0]}/bots", json={"count": 2})
        assert r.status_code == 200 and r.json()["bots"] == ["b1", "b2"], r.text
        r = await h.post(f"{n3.url}/api/admin/matches/{made[1]}/cancel", json={})
        assert r.status_code == 200 and r.json() == {"cancelled": True}, r.text
        r = await h.post(f"{n3.url}/api/admin/matches/nope/cancel", json={})
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_match", r.text
    first = await get(n1.url, f"/api/matches/{made[0]}")
    assert first["entrants"] == 2 and first["phase"] == "registration", first
    second = await get(n2.url, f"/api/matches/{made[1]}")
    assert second["phase"] == "cancelled", second


async def test_an_entrant_of_a_running_match_sits_nowhere_else_through_any_node(
        cluster: Cluster, pg_db: Database) -> None:  # noqa: F811 (the imported fixture)
    """A player in a running match plays only its tables: between two rounds (his first table closed, the next
    not open yet) a quick match or a new table asked of a node that does not drive the match is refused
    (``in_match``) as on the driving node. That node answered 200, and the match's director seated him at its
    next round as well: two seats."""
    import redis.asyncio as aioredis
    from test_cluster import REDIS_URL

    defn = {"preset": "sit_and_go_9", "entry": {"fee": 0, "start_delay_s": 0}, "round_gap_s": 30,
            "stages": [{"rounds": [{"deals": 1, "advance": 9}, {"deals": 1}]}]}
    n1 = cluster.nodes[0]
    async with httpx.AsyncClient(base_url=n1.url) as h:
        r = await h.post("/api/register", json={"name": "entrant", "password": "secret-pw"})
        assert r.status_code == 201, r.text
        me = r.json()["user"]["id"]
        auth = {"Authorization": f"Bearer {r.json()['token']}"}
    mid = await full_match(n1.url, defn, auth)
    prefix = n1.args[n1.args.index("--redis-prefix") + 1]
    red = aioredis.from_url(REDIS_URL, decode_responses=True)
    conn = await asyncpg.connect(dsn(pg_db.url))
    try:
        for _ in range(600):  # the first round's three deals are over and his table is closed: he sits nowhere
            over = await conn.fetchval(
                "SELECT count(*) FROM deals d JOIN tables t ON t.id = d.table_id WHERE t.tags::text LIKE $1 "
                "AND d.status = 'over'", f'%"match_id": "{mid}"%')
            if over >= 3 and await red.get(f"{prefix}seat:{me}") is None:
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the first round never ended")
        row = await conn.fetchrow("SELECT status FROM matches WHERE id = $1", mid)
        assert row["status"] == "running"
        driver = str(await red.get(f"{prefix}lease:match:{mid}")).rsplit(":", 1)[0]
        others = [n for n in cluster.nodes if n.name != driver]
        assert len(others) == 2, driver
        async with httpx.AsyncClient(headers=auth, timeout=30) as h:
            for node in others:
                for path, body in (("/api/quick-match", {"room": "jj-1"}), ("/api/tables", {"room": "classic-1"})):
                    r = await h.post(node.url + path, json=body)
                    assert r.status_code == 409, (node.name, path, r.status_code, r.text)
                    err = r.json()["error"]
                    assert err["code"] == "in_match" and err["params"]["match"] == mid, err
    finally:
        await conn.close()
        await red.aclose()


async def test_a_player_who_left_his_match_table_is_told_so_by_every_node(
        cluster: Cluster) -> None:  # noqa: F811 (the imported fixture)
    """After leaving his match table (its seat plays on in auto-play), the match's card on a node that does not
    drive the match still offered the way back to it (``me.table``): the seats stored there did not say who had
    left.  Every node now says ``left_table``, as the driving node does."""
    defn = {"preset": "sit_and_go_9", "entry": {"fee": 0, "start_delay_s": 0},
            "stages": [{"rounds": [{"deals": 40, "advance": 9}, {"deals": 1}]}]}
    n1 = cluster.nodes[0]
    async with httpx.AsyncClient(base_url=n1.url) as h:
        r = await h.post("/api/register", json={"name": "leaver", "password": "secret-pw"})
        assert r.status_code == 201, r.text
        auth = {"Authorization": f"Bearer {r.json()['token']}"}
    mid = await full_match(n1.url, defn, auth)
    async with httpx.AsyncClient(headers=auth, timeout=30) as h:
        me: dict[str, Any] = {}
        for _ in range(300):  # his first table is open
            me = (await h.get(f"{n1.url}/api/matches/{mid}")).json()["me"]
            if me and me["table"]:
                break
            await asyncio.sleep(0.1)
        tid = me["table"]
        assert tid and me["seat"] is not None, me
        cards = [(await h.get(f"{n.url}/api/matches/{mid}")).json()["me"] for n in cluster.nodes]
        assert all((c["table"], c["left_table"]) == (tid, None) for c in cards), cards
        r = await h.post(f"{n1.url}/api/tables/{tid}/leave", json={})
        assert r.status_code == 200, r.text
        for node in cluster.nodes:
            c = (await h.get(f"{node.url}/api/matches/{mid}")).json()["me"]
            assert (c["table"], c["seat"], c["left_table"], c["status"]) == (None, None, tid, "in"), (node.name, c)


async def test_draining_the_node_that_drives_a_match_hands_the_match_over(
        cluster: Cluster, pg_db: Database) -> None:  # noqa: F811 (the imported fixture)
    """``POST /api/admin/drain`` on the node that drives a running match: the match goes to another node with its
    tables (each after its deal) and finishes there, every deal played once; the drained node ends with no table.
    It never ended: each table handed over was opened again on the draining node for the same deal, hundreds of
    times."""
    import redis.asyncio as aioredis
    from test_cluster import REDIS_URL

    defn = {**DEFN, "host": {"restart_grace_s": 0}}
    n1 = cluster.nodes[0]
    mid = await full_match(n1.url, defn)
    prefix = n1.args[n1.args.index("--redis-prefix") + 1]
    red = aioredis.from_url(REDIS_URL, decode_responses=True)
    conn = await asyncpg.connect(dsn(pg_db.url))
    like = f'%"match_id": "{mid}"%'
    try:
        for _ in range(300):
            row = await conn.fetchrow("SELECT state FROM matches WHERE id = $1", mid)
            if json.loads(row["state"]).get("tables") and await conn.fetchval(
                    "SELECT count(*) FROM deals d JOIN tables t ON t.id = d.table_id WHERE t.tags::text LIKE $1",
                    like):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the match never got under way")
        driver_name = str(await red.get(f"{prefix}lease:match:{mid}")).rsplit(":", 1)[0]
        driver = next(n for n in cluster.nodes if n.name == driver_name)
        async with httpx.AsyncClient(headers={"X-Admin-Token": ADMIN}) as h:
            r = await h.post(driver.url + "/api/admin/drain", json={})
            assert r.status_code == 200, r.text
        for _ in range(1200):
            row = await conn.fetchrow("SELECT state, status FROM matches WHERE id = $1", mid)
            if row["status"] == "finished":
                break
            await asyncio.sleep(0.1)
        else:
            tables = await conn.fetch("SELECT id, owner_node, status FROM tables WHERE tags::text LIKE $1", like)
            logs = "\n".join(f"--- {n.name}\n" + "\n".join(x for x in n.log.read_text().splitlines()
                                                           if "/api/health" not in x)[-4000:] for n in cluster.nodes)
            raise AssertionError(f"the match did not finish: {row['status']} {[dict(t) for t in tables]}\n{logs}")
        st = json.loads(row["state"])
        assert st["seq"] == TOTAL and len(st["ranking"]) == 9
        deals = await conn.fetch(
            "SELECT d.table_id, d.deal_index, d.status FROM deals d JOIN tables t ON t.id = d.table_id "
            "WHERE t.tags::text LIKE $1", like)
        assert len(deals) == TOTAL and {d["status"] for d in deals} == {"over"}, [dict(d) for d in deals]
        assert len({(d["table_id"], d["deal_index"]) for d in deals}) == TOTAL
        tables = await conn.fetch("SELECT id, owner_node FROM tables WHERE tags::text LIKE $1", like)
        assert len(tables) == 3 + 1, [dict(t) for t in tables]  # the first round's three, the final's one
        assert driver_name not in {t["owner_node"] for t in tables}  # the last owner of each is another node
        for _ in range(100):
            health = await driver.health()
            if health["tables"] == 0:
                break
            await asyncio.sleep(0.1)
        assert health["tables"] == 0 and health["draining"], health
    finally:
        await conn.close()
        await red.aclose()


async def test_a_long_take_over_renews_the_leases_it_already_holds() -> None:
    """A node claims the matches nobody drives one after another, each loaded with its tables (a restore per
    table: slow).  The leases it took first were renewed only at its next upkeep, past their time when the claims
    took longer than a lease: another node could take a match this one was driving.  They are renewed as it goes."""
    import uuid
    from types import SimpleNamespace

    from test_cluster import REDIS_URL

    from qipai.host.cluster import RedisCluster
    from qipai.host.director import Director

    lease = 1.0
    cl = RedisCluster(REDIS_URL, "n1", "http://127.0.0.1:1", lease_ms=int(lease * 1000),
                      prefix=f"qt{uuid.uuid4().hex[:10]}:")
    rows = [SimpleNamespace(id=f"m{i}") for i in range(4)]

    class Store:
        async def matches(self, statuses: list[str], limit: int) -> list[Any]:
            return rows

        async def match(self, mid: str) -> Any:
            return SimpleNamespace(id=mid)

    lobby: Any = SimpleNamespace(store=Store(), cluster=cl, settings=SimpleNamespace(lease_seconds=lease),
                                 draining=False, tables={})
    d = Director(lobby)

    async def slow_load(row: Any) -> Any:
        await asyncio.sleep(0.6 * lease)  # its tables taken over
        run: Any = SimpleNamespace(id=row.id)
        d.runs[row.id] = run
        return run

    d._load = slow_load  # type: ignore[method-assign]
    try:
        await d.upkeep()
        assert sorted(d.runs) == [r.id for r in rows], d.runs
        owners = [await cl.owner(f"match:{r.id}") for r in rows]
        assert owners == ["n1"] * len(rows), owners  # the first lapsed 1.4 s before the last was loaded
        assert set(d.leases) == {"pools", *(f"match:{r.id}" for r in rows)}
    finally:
        for key, token in d.leases.items():
            await cl.release(key, token)
        await cl.redis.aclose()


async def test_a_player_active_in_a_match_another_node_drives_is_withdrawn_from_one_starting_here(
        cluster: Cluster, pg_db: Database) -> None:  # noqa: F811 (the imported fixture)
    """RULES-matches §2.3.4: a player may be registered in several matches, but active in one started match only;
    one that starts while he is active in another withdraws him with a full refund.  A node only looked at the
    matches it drives itself: a match starting on one node kept, and seated, a player active in a match another
    node drives — two matches, two seats at once."""
    defn = {"preset": "sit_and_go_9", "entry": {"fee": 10, "start_delay_s": 0}, "round_gap_s": 60,
            "stages": [{"rounds": [{"deals": 1, "advance": 9}, {"deals": 1}]}]}
    n1, n2, _n3 = cluster.nodes
    async with httpx.AsyncClient(base_url=n1.url) as h:
        r = await h.post("/api/register", json={"name": "two-matches", "password": "secret-pw"})
        assert r.status_code == 201, r.text
        me = r.json()["user"]["id"]
        auth = {"Authorization": f"Bearer {r.json()['token']}"}
    first = await full_match(n1.url, defn, auth)  # driven by n1: it starts at once, full
    conn = await asyncpg.connect(dsn(pg_db.url))
    try:
        for _ in range(300):
            if await conn.fetchval("SELECT status FROM matches WHERE id = $1", first) == "running":
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the first match did not start")
        second = await full_match(n2.url, defn, auth)  # driven by n2, while he plays the first
        for _ in range(300):
            if await conn.fetchval("SELECT status FROM matches WHERE id = $1", second) == "running":
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the second match did not start")
        async with httpx.AsyncClient(base_url=n2.url, headers=auth) as h:
            card = (await h.get(f"/api/matches/{second}")).json()
            mine = (await h.get("/api/matches/mine")).json()["matches"]
        assert card["me"] is None or card["me"]["status"] != "in", card["me"]
        money = await conn.fetch("SELECT kind, delta FROM match_money WHERE match_id = $1 AND user_id = $2 "
                                 "ORDER BY created_at", second, me)
        assert [(m["kind"], m["delta"]) for m in money] == [("fee", -10), ("refund", 10)], money
        assert {m["match"]: m["status"] for m in mine}[first] == "in", mine
    finally:
        await conn.close()
