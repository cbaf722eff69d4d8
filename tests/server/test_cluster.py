"""Several machines: three server processes on loopback sharing one PostgreSQL database and one Redis, with real
WebSocket clients — a quick match whose players connected to different nodes, a spectator on a third node, a
node killed mid-deal and the deal finished on another with the same observations, a paused node fenced out
after its lease passed, and a graceful drain.

Needs Redis at ``QIPAI_TEST_REDIS_URL`` (default ``redis://127.0.0.1:6379/0``); ``./scripts/test.sh`` starts one
(or installs Debian's ``redis-server``).  Each test uses keys of its own (a random prefix) and a PostgreSQL
database of its own."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server_helpers import Client, Database

REDIS_URL = os.environ.get("QIPAI_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
LEASE = 1.5
ADMIN = "test-admin-token"


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return int(port)


class Node:
    """One ``qipai serve`` process of the cluster."""

    def __init__(self, name: str, db: Database, prefix: str, tmp: Path, origins: str) -> None:
        self.name = name
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp / f"{name}.log"
        self.args = [
            sys.executable, "-m", "qipai.server", "--port", str(self.port), "--node-id", name,
            "--database-url", db.url, "--redis-url", REDIS_URL, "--redis-prefix", prefix,
            "--public-url", self.url, "--lease-seconds", str(LEASE), "--bot-fill-wait", "30",
            "--bot-delay", "0.05", "--autoplay-delay", "0.05", "--bot-processes", "0", "--ready-timeout", "30",
            "--allowed-origins", origins, "--admin-token", ADMIN, "--log-level", "info",
            "--restore-grace", "30",
        ]
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> Node:
        self.proc = subprocess.Popen(self.args, stdout=self.log.open("wb"), stderr=subprocess.STDOUT)
        async with httpx.AsyncClient() as h:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if (await h.get(self.url + "/api/health", timeout=1)).status_code == 200:
                        return self
                if self.proc.poll() is not None:
                    raise AssertionError(f"{self.name} exited: {self.log.read_text()[-3000:]}")
                await asyncio.sleep(0.1)
        raise AssertionError(f"{self.name} did not start: {self.log.read_text()[-3000:]}")

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)

    async def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.terminate()
            try:
                await asyncio.to_thread(self.proc.wait, 20)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    async def health(self) -> dict[str, Any]:
        async with httpx.AsyncClient() as h:
            r = await h.get(self.url + "/api/health", timeout=3)
            data: dict[str, Any] = r.json()
            return data


class Cluster:
    def __init__(self, nodes: list[Node]) -> None:
        self.nodes = nodes
        self.by_url = {n.url: n for n in nodes}


@pytest.fixture
async def cluster(pg_db: Database, tmp_path: Path) -> AsyncIterator[Cluster]:
    import redis.asyncio as aioredis

    r = aioredis.from_url(REDIS_URL)
    try:
        await r.ping()
    except Exception as e:
        pytest.fail(f"Redis at {REDIS_URL} is not reachable ({e}): run ./scripts/test.sh, which starts one, or set "
                    "QIPAI_TEST_REDIS_URL")
    prefix = f"qt{uuid.uuid4().hex[:10]}:"
    nodes: list[Node] = []
    ports = [free_port() for _ in range(3)]
    origins = ",".join(f"http://127.0.0.1:{p}" for p in ports)
    for i in range(3):
        n = Node(f"n{i + 1}", pg_db, prefix, tmp_path, origins)
        nodes.append(n)
    # the first node creates the schema alone; then the others
    await nodes[0].start()
    await asyncio.gather(*(n.start() for n in nodes[1:]))
    try:
        yield Cluster(nodes)
    finally:
        for n in nodes:
            await n.stop()
        async for key in r.scan_iter(match=prefix + "*"):
            await r.delete(key)
        await r.aclose()


class Player(Client):
    """A client that follows its table from node to node (as the browser does)."""

    node: Node

    @classmethod
    async def on(cls, node: Node) -> Player:
        async with httpx.AsyncClient(base_url=node.url) as h:
            r = await h.post("/api/guest", json={})
            data = r.json()
        p = cls(_Server(node), data["token"], data["user"])
        p.node = node
        return p

    async def reconnect_to(self, node: Node) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
            if self.reader is not None:
                with contextlib.suppress(Exception):
                    await self.reader
        self.violations.clear()
        self.node = node
        self.server = _Server(node)  # type: ignore[assignment]
        self.msgs.clear()
        self.last_seq = 0
        self.ws = await connect(node.url.replace("http", "ws") + "/ws",
                                additional_headers={"Authorization": f"Bearer {self.token}"}, max_size=2**22)
        self.reader = asyncio.create_task(self._read())
        await self.wait_for(lambda m: m["type"] == "welcome")

    async def follow(self, cluster: Cluster, timeout: float = 30.0) -> Node:
        """Connect to whichever node ``welcome`` says runs our table (trying every node while one is dying)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            for n in cluster.nodes:
                if n.proc is None or n.proc.poll() is not None:
                    continue
                try:
                    await self.reconnect_to(n)
                except Exception:
                    continue
                w = next(m for m in self.msgs if m["type"] == "welcome")
                if w["table"] is not None and w.get("url") is None and w.get("node") == n.name:
                    return n  # this node runs it (node None: no node does right now)
                if w.get("url") in cluster.by_url:
                    target = cluster.by_url[w["url"]]
                    try:
                        await self.reconnect_to(target)
                    except Exception:
                        continue
                    w = next(m for m in self.msgs if m["type"] == "welcome")
                    if w["table"] is not None and w.get("url") is None and w.get("node") == target.name:
                        return target
            await asyncio.sleep(0.3)
        health = []
        for n in cluster.nodes:
            with contextlib.suppress(Exception):
                async with httpx.AsyncClient() as h:
                    listed = (await h.get(n.url + "/api/tables")).json()["tables"]
                health.append((n.name, (await n.health())["tables"], listed))
        raise AssertionError(f"the table was not found on any node: tables per node {health}, "
                             f"last welcome {next((m for m in self.msgs if m['type'] == 'welcome'), None)}")


class _Server:
    """What :class:`Client` needs of a server: its URLs."""

    def __init__(self, node: Node) -> None:
        self.http = node.url
        self.ws = node.url.replace("http", "ws") + "/ws"


async def _listed_on(node: Node, table: str, name: str, timeout: float = 15.0) -> None:
    """Wait until ``node`` lists ``table`` as waiting with ``name`` seated (the directory is eventually consistent:
    a fixed half second was too short on a loaded CI machine)."""
    end = asyncio.get_running_loop().time() + timeout
    listed: list[dict[str, Any]] = []
    async with httpx.AsyncClient() as h:
        while asyncio.get_running_loop().time() < end:
            listed = (await h.get(node.url + "/api/tables")).json()["tables"]
            if any(t["id"] == table and t["status"] == "waiting" and name in (t["players"] or []) for t in listed):
                return
            await asyncio.sleep(0.1)
    raise AssertionError(f"{node.name} never listed table {table} waiting with {name}: {listed}")


async def seated_pair(cluster: Cluster, *, deal: bool = False) -> tuple[Player, Player, str]:
    """Alice quick-matches on node 1, Bob on node 2: Bob is sent to Alice's table on node 1 (with ``deal``, Alice,
    who made the table, calls in a bot for the last seat and the deal starts)."""
    n1, n2, _ = cluster.nodes
    alice = await Player.on(n1)
    await alice.reconnect_to(n1)
    await alice.send({"type": "quick_match", "room": "classic-1"})
    joined = await alice.wait_for(lambda m: m["type"] == "joined")
    assert joined.get("url") is None  # her table is on the node she asked
    table = joined["table"]
    await _listed_on(n2, table, alice.user["name"])  # the directory hears of the waiting table
    bob = await Player.on(n2)
    await bob.reconnect_to(n2)
    mark = bob.mark()
    await bob.send({"type": "quick_match", "room": "classic-1"})
    bj = await bob.wait_for(lambda m: m["type"] == "joined", since=mark)
    assert bj["table"] == table and bj["url"] == n1.url and bj["node"] == "n1"
    await bob.reconnect_to(n1)
    if deal:
        await alice.post(f"/api/tables/{table}/bots", {})
    return alice, bob, table


async def test_quick_match_across_nodes_and_a_spectator_on_a_third(cluster: Cluster) -> None:
    n1, _n2, n3 = cluster.nodes
    alice, bob, table = await seated_pair(cluster)
    snap = await bob.wait_for(lambda m: m["type"] == "snapshot")
    assert snap["table"]["id"] == table and [s["name"] for s in snap["table"]["seats"] if s][:2] == [
        alice.user["name"], bob.user["name"]]
    # the tables list is the same from every node
    async with httpx.AsyncClient() as h:
        lists = [(await h.get(n.url + "/api/tables")).json()["tables"] for n in cluster.nodes]
    assert all(any(t["id"] == table for t in lst) for lst in lists), lists
    # carol, on node 3, watches: she is told where the table runs, and watches it there
    carol = await Player.on(n3)
    await carol.reconnect_to(n3)
    mark = carol.mark()
    await carol.send({"type": "spectate", "table": table})
    err = await carol.error("table_elsewhere", mark)
    assert err["params"]["url"] == n1.url
    await carol.reconnect_to(n1)
    await carol.send({"type": "spectate", "table": table})
    watch = await carol.wait_for(lambda m: m["type"] == "snapshot")
    assert watch["table"]["id"] == table and watch["table"]["you"] is None
    for p in (alice, bob, carol):
        await p.close()


async def test_a_node_killed_mid_deal_and_the_deal_finished_elsewhere(cluster: Cluster) -> None:
    n1 = cluster.nodes[0]
    alice, bob, _ = await seated_pair(cluster, deal=True)
    st = await alice.wait_for(lambda m: m["type"] == "state", timeout=40)
    # play a few moves, then kill node 1 without warning
    for p in (alice, bob):
        p.rng.seed(3)
    play = [asyncio.create_task(p.play_until_over(timeout=120)) for p in (alice, bob)]
    # a few moves (not a fixed time: a quick deal could end in a second), then the humans stop answering, so the
    # deal waits for one of them (30 s turns) while the node dies
    for _ in range(400):
        latest = alice.latest_state()
        if latest is None or latest["version"] >= 6:
            break
        await asyncio.sleep(0.01)
    for t in play:
        t.cancel()
    await asyncio.sleep(0.3)
    seen = {p.user["id"]: p.latest_state() for p in (alice, bob)}
    assert all(v is not None for v in seen.values()), "the deal ended before the kill"
    n1.signal(signal.SIGKILL)
    await asyncio.to_thread(n1.proc.wait, 10)  # type: ignore[union-attr]
    # the players find their table on whichever node took it over, at the same deal and version
    for _ in range(100):
        counts = [(await n.health())["tables"] for n in cluster.nodes[1:]]
        if sum(counts):
            break
        await asyncio.sleep(0.2)
    assert sorted(counts) == [0, 1], counts  # exactly one node took the table over
    new = await alice.follow(cluster)
    assert new is not n1
    await bob.reconnect_to(new)
    for p in (alice, bob):
        snap = await p.wait_for(lambda m: m["type"] == "snapshot", timeout=20)
        last = seen[p.user["id"]]
        state = snap["state"]
        assert state is not None and state["deal"] == st["deal"]
        assert last is not None and state["version"] >= last["version"]
        if state["version"] == last["version"]:
            assert state["observation"] == last["observation"]  # the same view, nothing lost
    overs = await asyncio.gather(*(p.play_until_over(timeout=120) for p in (alice, bob)))
    assert overs[0]["deal"] == st["deal"] and sum(overs[0]["outcome"]["scores"]) == 0
    record = (await alice.get(f"/api/deals/{st['deal']}"))["record"]
    from qipai.core.registry import get_factory

    assert get_factory("doudizhu").replay(record).outcome() == overs[0]["outcome"]
    for p in (alice, bob):
        await p.close()


async def test_a_paused_node_is_fenced_out_after_its_lease_passed(cluster: Cluster, pg_db: Database) -> None:
    n1 = cluster.nodes[0]
    alice, bob, table = await seated_pair(cluster, deal=True)
    st = await alice.wait_for(lambda m: m["type"] == "state", timeout=40)
    n1.signal(signal.SIGSTOP)
    try:
        new = await alice.follow(cluster, timeout=30)  # another node claims the table while node 1 sleeps
        assert new is not n1
    finally:
        n1.signal(signal.SIGCONT)
    # node 1 wakes up believing it owns the table: it must notice and write nothing
    for _ in range(100):
        if (await n1.health())["tables"] == 0:
            break
        await asyncio.sleep(0.1)
    assert (await n1.health())["tables"] == 0
    import asyncpg

    from conftest import dsn

    conn = await asyncpg.connect(dsn(pg_db.url))
    row = await conn.fetchrow("SELECT owner_node, lease_token FROM tables WHERE id = $1", table)
    journal = await conn.fetch("SELECT n FROM journal WHERE deal_id = $1 ORDER BY n", st["deal"])
    await conn.close()
    assert row["owner_node"] == new.name and row["lease_token"] >= 2
    assert [r["n"] for r in journal] == list(range(1, len(journal) + 1))
    await bob.reconnect_to(new)
    overs = await asyncio.gather(*(p.play_until_over(timeout=120) for p in (alice, bob)))
    assert overs[0]["deal"] == st["deal"]
    for p in (alice, bob):
        await p.close()
    # the fenced node answered whoever reached it with an error, without a failed connection in its log
    assert "Traceback" not in cluster.nodes[0].log.read_text()


async def test_a_graceful_drain_moves_tables_between_deals(cluster: Cluster) -> None:
    n1 = cluster.nodes[0]
    alice, bob, table = await seated_pair(cluster, deal=True)
    st = await alice.wait_for(lambda m: m["type"] == "state", timeout=40)
    async with httpx.AsyncClient(base_url=n1.url) as h:
        r = await h.post("/api/admin/drain", json={}, headers={"X-Admin-Token": "wrong"})
        assert r.status_code == 403
        r = await h.post("/api/admin/drain", json={}, headers={"X-Admin-Token": ADMIN})
        assert r.status_code == 200 and r.json()["draining"] is True
        r = await h.post("/api/quick-match", json={"room": "classic-10"},
                         headers={"Authorization": f"Bearer {(await Player.on(n1)).token}"})
        assert r.status_code in (200, 503)  # a new table is never made on a draining node
        if r.status_code == 200:
            assert r.json().get("url") not in (None, n1.url)
    # the running deal finishes where it is, then the table moves
    overs = await asyncio.gather(*(p.play_until_over(timeout=120) for p in (alice, bob)))
    assert overs[0]["deal"] == st["deal"]
    moved = await alice.wait_for(lambda m: m["type"] == "moved", timeout=20)
    assert moved["table"] == table
    new = await alice.follow(cluster)
    assert new is not n1
    snap = await alice.wait_for(lambda m: m["type"] == "snapshot", timeout=20)
    assert snap["table"]["id"] == table and snap["table"]["deal_index"] == 1
    assert (await n1.health())["tables"] == 0
    for p in (alice, bob):
        with contextlib.suppress(AssertionError):
            await p.close()


async def test_the_directory_comes_back_and_a_player_waiting_for_a_new_owner_is_sent_there(
        cluster: Cluster) -> None:
    """Redis loses the directory (a restart without persistence): each node publishes its seats and invite codes
    again.  A player who reconnects while the table's node is gone and no other has taken it over yet keeps the
    table (``welcome`` names it, with no node), and once a node takes it over gets its snapshot there or is sent
    there."""
    import redis.asyncio as aioredis

    n1 = cluster.nodes[0]
    alice, bob, table = await seated_pair(cluster, deal=True)
    st = await alice.wait_for(lambda m: m["type"] == "state", timeout=40)
    prefix = n1.args[n1.args.index("--redis-prefix") + 1]
    r = aioredis.from_url(REDIS_URL, decode_responses=True)
    try:
        seat_key = f"{prefix}seat:{alice.user['id']}"
        assert await r.get(seat_key) == table
        lost = [k async for k in r.scan_iter(match=prefix + "seat:*")] + \
            [k async for k in r.scan_iter(match=prefix + "invite:*")]
        await r.delete(*lost)
        for _ in range(100):
            if await r.get(seat_key) == table:
                break
            await asyncio.sleep(0.1)
        assert await r.get(seat_key) == table, "the seat was not published again"
        # node 2 drains (it takes over no table) and node 3 is paused; node 1 dies and its lease runs out:
        # Alice, back on node 2, finds her table owned by no node
        n2, n3 = cluster.nodes[1], cluster.nodes[2]
        async with httpx.AsyncClient() as h:
            d = await h.post(n2.url + "/api/admin/drain", json={}, headers={"X-Admin-Token": ADMIN})
            assert d.status_code == 200
        n3.signal(signal.SIGSTOP)
        n1.signal(signal.SIGKILL)
        await asyncio.to_thread(n1.proc.wait, 10)  # type: ignore[union-attr]
        for _ in range(100):
            if await r.get(f"{prefix}lease:{table}") is None:
                break
            await asyncio.sleep(0.1)
        await alice.reconnect_to(n2)
        w = next(m for m in alice.msgs if m["type"] == "welcome")
        assert (w["table"], w["node"], w["url"]) == (table, None, None)
        mark = alice.mark()
        n3.signal(signal.SIGCONT)  # node 3 takes the table over: Alice is sent there
        err = await alice.error("table_elsewhere", mark, timeout=30)
        assert err["params"]["table"] == table and err["params"]["url"] == n3.url
        await alice.reconnect_to(n3)
        msg = await alice.wait_for(lambda m: m["type"] == "snapshot", timeout=20)
        assert msg["table"]["id"] == table and msg["state"]["deal"] == st["deal"]
        # the taking node published the seat again too
        owner = await r.get(f"{prefix}lease:{table}")
        assert owner is not None and owner.startswith("n3:")
        assert await r.get(seat_key) == table
    finally:
        await r.aclose()
        for p in (alice, bob):
            await p.close()



async def test_invite_links_and_the_profile_know_tables_of_other_nodes(cluster: Cluster) -> None:
    n1, n2, _ = cluster.nodes
    alice = await Player.on(n1)
    await alice.reconnect_to(n1)
    await alice.send({"type": "create_table", "room": "classic-1"})
    joined = await alice.wait_for(lambda m: m["type"] == "joined")
    code, table = joined["invite_code"], joined["table"]
    assert code
    bob = await Player.on(n2)
    async with httpx.AsyncClient(base_url=n2.url, headers={"Authorization": f"Bearer {bob.token}"}) as h:
        info = None
        for _ in range(50):  # the directory hears of the new table
            r = await h.get(f"/api/invites/{code.lower()}")
            if r.status_code == 200:
                info = r.json()
                break
            await asyncio.sleep(0.1)
        assert info is not None, r.text
        assert (info["table"], info["game"], info["room"], info["players"], info["seated"], info["can_sit"]) == (
            table, "doudizhu", "classic-1", 3, 1, True)
        assert (await h.get("/api/invites/NOSUCH")).json()["error"]["code"] == "unknown_invite"
    async with httpx.AsyncClient(base_url=n2.url, headers={"Authorization": f"Bearer {alice.token}"}) as h:
        assert (await h.get("/api/me")).json()["table"] == table  # asked of a node that does not run it
    for p in (alice, bob):
        await p.close()


async def test_friends_on_two_nodes_see_each_other_online_and_are_told(cluster: Cluster) -> None:
    """好友 across nodes: a request made on one node reaches the friend connected to another, and the friends
    list shows a friend connected (not seated) on another node as online, then offline once he leaves."""
    n1, n2, _ = cluster.nodes
    users = []
    for name, node in (("fann", n1), ("fbob", n2)):
        async with httpx.AsyncClient(base_url=node.url) as h:
            data = (await h.post("/api/register", json={"name": name, "password": "secret-pw"})).json()
        users.append(Player(_Server(node), data["token"], data["user"]))  # type: ignore[arg-type]
    ann, bob = users
    await bob.reconnect_to(n2)
    await ann.post("/api/friends", {"name": "fbob"}, status=201)  # asked on n1
    note = await bob.wait_for(lambda m: m["type"] == "friend", timeout=10)
    assert note["event"] == "request" and note["user"]["name"] == "fann"
    await bob.post(f"/api/friends/{ann.user['id']}/accept")  # on n2

    async def bob_online() -> bool:
        return bool((await ann.get("/api/friends"))["friends"][0]["online"])  # asked of n1

    for _ in range(100):  # n2 publishes who is connected to it every lease
        if await bob_online():
            break
        await asyncio.sleep(0.1)
    assert await bob_online()
    # at a private table of n2: n1's list says where, but not to watch it (its invite is its players' to give)
    await bob.send({"type": "create_table", "room": "classic-1"})
    made = await bob.wait_for(lambda m: m["type"] == "joined")
    seen: dict[str, Any] = {}
    for _ in range(100):
        seen = (await ann.get("/api/friends"))["friends"][0]
        if seen["table"] is not None:
            break
        await asyncio.sleep(0.1)
    assert seen["table"] == made["table"] and seen["watchable"] is False, seen
    await bob.post(f"/api/tables/{made['table']}/leave")
    await bob.close()
    for _ in range(100):
        if not await bob_online():
            break
        await asyncio.sleep(0.1)
    assert not await bob_online()


async def test_failed_log_ins_count_over_every_node(cluster: Cluster) -> None:
    """A guesser who spreads wrong passwords over the nodes is held back as on one node."""
    n1, _n2, n3 = cluster.nodes
    async with httpx.AsyncClient(base_url=n1.url) as h:
        assert (await h.post("/api/register", json={"name": "spread", "password": "right-pw"})).status_code == 201
    codes = []
    for i in range(7):
        node = cluster.nodes[i % 3]
        async with httpx.AsyncClient(base_url=node.url) as h:
            r = await h.post("/api/login", json={"name": "spread", "password": "wrong-pw"})
            codes.append(r.status_code)
    assert codes[:5] == [401] * 5 and codes[5:] == [429, 429], codes  # 5 failures, wherever they were made
    async with httpx.AsyncClient(base_url=n3.url) as h:
        r = await h.post("/api/login", json={"name": "spread", "password": "right-pw"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "login_backoff"


async def test_a_seat_the_directory_lost_is_found_in_the_database(cluster: Cluster) -> None:
    """A Redis that lost its keys (restarted without persistence) while no node can publish them again yet: a
    player who reconnects meanwhile is still told where they sit (the database knows the seat), not that they
    sit nowhere (the browser then dropped the table, and its clock ran out in auto-play)."""
    import redis.asyncio as aioredis

    n1, n2, n3 = cluster.nodes
    alice, bob, table = await seated_pair(cluster)
    prefix = n1.args[n1.args.index("--redis-prefix") + 1]
    r = aioredis.from_url(REDIS_URL, decode_responses=True)
    try:
        assert await r.get(f"{prefix}seat:{alice.user['id']}") == table
        # node 2 takes over no table (draining), node 3 and node 1 are paused: nobody publishes the directory
        async with httpx.AsyncClient() as h:
            d = await h.post(n2.url + "/api/admin/drain", json={}, headers={"X-Admin-Token": ADMIN})
            assert d.status_code == 200
        n3.signal(signal.SIGSTOP)
        n1.signal(signal.SIGSTOP)
        try:
            # Redis comes back empty: the seats, invites and leases are gone
            lost = []
            for pat in ("seat:*", "invite:*", "lease:*"):
                lost += [k async for k in r.scan_iter(match=prefix + pat)]
            await r.delete(*lost)
            await alice.reconnect_to(n2)
            w = next(m for m in alice.msgs if m["type"] == "welcome")
            assert w["table"] == table, w  # her seat is still hers, though no node runs the table this moment
            assert (w["node"], w["url"]) == (None, None)
            mark = alice.mark()
        finally:
            n1.signal(signal.SIGCONT)
            n3.signal(signal.SIGCONT)
        # a node claims the table again: Alice is sent there
        err = await alice.error("table_elsewhere", mark, timeout=30)
        assert err["params"]["table"] == table and err["params"]["url"] in (n1.url, n3.url)
    finally:
        await r.aclose()
        for p in (alice, bob):
            await p.close()


async def test_one_user_sits_at_one_table_when_two_nodes_seat_him_at_once(cluster: Cluster) -> None:
    """A quick match through node 1 and a new private table through node 2 at the same moment, for one user: one
    of them seats him, the other says where he sits (each node checked the directory before the other's seat was
    written to it, and both answered 200)."""
    import redis.asyncio as aioredis

    n1, n2, _n3 = cluster.nodes
    prefix = n1.args[n1.args.index("--redis-prefix") + 1]
    r = aioredis.from_url(REDIS_URL, decode_responses=True)
    try:
        for _ in range(4):
            async with httpx.AsyncClient(base_url=n1.url) as h:
                guest = (await h.post("/api/guest", json={})).json()
            auth = {"Authorization": f"Bearer {guest['token']}"}
            async with httpx.AsyncClient(headers=auth, timeout=30) as h:
                quick, private = await asyncio.gather(
                    h.post(n1.url + "/api/quick-match", json={"room": "classic-1"}),
                    h.post(n2.url + "/api/tables", json={"room": "jj-1"}))
            answers = sorted([quick, private], key=lambda x: x.status_code)
            assert [a.status_code for a in answers] == [200, 409], [(a.status_code, a.text) for a in answers]
            seat = answers[0].json()["table"]
            err = answers[1].json()["error"]
            assert err["code"] == "already_seated" and err["params"]["table"] == seat, err
            assert await r.get(f"{prefix}seat:{guest['user']['id']}") == seat
    finally:
        await r.aclose()


@contextlib.asynccontextmanager
async def node_on_own_redis(pg_db: Database,
                            tmp_path: Path) -> AsyncIterator[tuple[Node, subprocess.Popen[bytes]]]:
    """A node started on a Redis of its own (the test may stop it): the node and the Redis process."""
    import redis.asyncio as aioredis

    port = free_port()
    redis_proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                   "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    node = Node("solo", pg_db, f"qt{uuid.uuid4().hex[:10]}:", tmp_path, "")
    node.args[node.args.index("--redis-url") + 1] = f"redis://127.0.0.1:{port}/0"
    node.args[node.args.index("--allowed-origins") + 1] = node.url
    try:
        r = aioredis.from_url(f"redis://127.0.0.1:{port}/0")
        for _ in range(100):
            with contextlib.suppress(Exception):
                await r.ping()
                break
            await asyncio.sleep(0.1)
        await r.aclose()
        await node.start()
        yield node, redis_proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            redis_proc.send_signal(signal.SIGCONT)
        await node.stop()
        if redis_proc.poll() is None:
            redis_proc.kill()
            redis_proc.wait()


async def test_a_node_whose_redis_went_away_answers_server_busy(pg_db: Database, tmp_path: Path) -> None:
    """The cluster's Redis stops: every call that needs it is answered with the documented error (503
    ``server_busy``, JSON), not a plain-text 500 with a traceback logged; a WebSocket is told ``server_busy``
    before it closes (it closed with 1008 and no word)."""
    async with node_on_own_redis(pg_db, tmp_path) as (node, redis_proc):
        async with httpx.AsyncClient(base_url=node.url, timeout=30) as h:
            r1 = await h.post("/api/register", json={"name": "redisless", "password": "secret-pw"})
            assert r1.status_code == 201, r1.text
            token = r1.json()["token"]
            redis_proc.terminate()
            await asyncio.to_thread(redis_proc.wait, 10)
            auth = {"Authorization": f"Bearer {token}"}
            for method, path, data in (("GET", "/api/rooms", None), ("GET", "/api/tables", None),
                                       ("GET", "/api/cluster", None), ("GET", "/api/me", None),
                                       ("POST", "/api/login", {"name": "redisless", "password": "secret-pw"}),
                                       ("POST", "/api/guest", {})):
                resp = await h.request(method, path, json=data, headers=auth)
                assert resp.status_code == 503, (path, resp.status_code, resp.text)
                assert resp.json()["error"]["code"] == "server_busy", (path, resp.text)
        async with connect(node.url.replace("http", "ws") + "/ws",
                           additional_headers={"Authorization": f"Bearer {token}"}) as ws:
            msgs = []
            with contextlib.suppress(ConnectionClosed):
                async for m in ws:
                    msgs.append(m)
        assert any('"server_busy"' in str(m) for m in msgs), msgs
        await asyncio.sleep(2.5)  # the loops that use Redis (the match director's: every second) have met it gone
        log = node.log.read_text()
        assert "match director" in log and "Traceback" not in log, log[-3000:]


async def test_a_node_whose_redis_hangs_answers_server_busy_in_time(pg_db: Database, tmp_path: Path) -> None:
    """The cluster's Redis stops answering without closing its connections (a stopped process, a network that
    drops packets): a call that needs it is answered ``503 server_busy`` within seconds, not held."""
    async with node_on_own_redis(pg_db, tmp_path) as (node, redis_proc), \
            httpx.AsyncClient(base_url=node.url, timeout=25) as h:
        assert (await h.get("/api/rooms")).status_code == 200
        redis_proc.send_signal(signal.SIGSTOP)
        started = time.monotonic()
        resp = await h.get("/api/tables")
        assert resp.status_code == 503 and resp.json()["error"]["code"] == "server_busy", resp.text
        assert time.monotonic() - started < 15


async def test_a_slow_takeover_does_not_cost_a_node_its_own_tables(cluster: Cluster, pg_db: Database) -> None:
    """Node 1 dies while its table's row is locked in the database for four leases (another transaction holds
    it): the node that claims the table waits that long to write it. Its own tables keep their leases meanwhile
    (the scan held up the renewals: its own tables lapsed, were dropped as "claimed by another node" and their
    players sent away with ``moved``); the dead node's table is taken over once the row is free."""
    import asyncpg
    import redis.asyncio as aioredis

    from conftest import dsn

    n1, n2, n3 = cluster.nodes
    prefix = n1.args[n1.args.index("--redis-prefix") + 1]
    players, tables = [], []
    for node in (n1, n2, n3):
        p = await Player.on(node)
        await p.reconnect_to(node)
        made = await p.post("/api/tables", {"room": "classic-1"})
        players.append(p)
        tables.append(made["table"])
    red = aioredis.from_url(REDIS_URL, decode_responses=True)
    leases = {t: await red.get(f"{prefix}lease:{t}") for t in tables[1:]}
    assert [v.split(":")[0] for v in leases.values()] == ["n2", "n3"], leases
    conn = await asyncpg.connect(dsn(pg_db.url))
    try:
        tr = conn.transaction()
        await tr.start()
        await conn.execute("SELECT id FROM tables WHERE id = $1 FOR UPDATE", tables[0])
        n1.signal(signal.SIGKILL)
        await asyncio.sleep(4 * LEASE + 2)  # the orphan is claimed meanwhile, and its claim waits on the row
        await tr.commit()
        for _ in range(100):
            if str(await red.get(f"{prefix}lease:{tables[0]}") or "").split(":")[0] in ("n2", "n3"):
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the dead node's table was not taken over")
        # the survivors' own tables were never dropped: the same leases, and their players were not sent away
        assert {t: await red.get(f"{prefix}lease:{t}") for t in tables[1:]} == leases
        for p in players[1:]:
            assert not [m for m in p.msgs if m["type"] == "moved"], p.msgs
        for node in (n2, n3):
            assert "stopping here without writing" not in node.log.read_text()
    finally:
        await conn.close()
        await red.aclose()
        for p in players:
            await p.close()


async def test_logging_out_and_a_new_password_close_sockets_on_every_node_at_once(cluster: Cluster) -> None:
    """A log-out through node 1 closes that session's socket on node 2 at once (``logged_out``), and a new password
    through node 1 the other sessions' sockets there (``password_changed``): node 2 closed them only at its next
    session check (30 s), as ``session_expired``. A session that did not end keeps its socket."""
    n1, n2, _n3 = cluster.nodes
    async with httpx.AsyncClient(base_url=n1.url) as h:
        r = await h.post("/api/register", json={"name": "twonodes", "password": "secret-pw"})
        assert r.status_code == 201, r.text
        user = r.json()["user"]
        tokens = [r.json()["token"]]
        for _ in range(2):
            r = await h.post("/api/login", json={"name": "twonodes", "password": "secret-pw"})
            tokens.append(r.json()["token"])
    sockets = []
    for token in tokens[:2]:
        p = Player(_Server(n2), token, user)
        p.node = n2
        await p.reconnect_to(n2)
        sockets.append(p)
    gone, other = sockets
    async with httpx.AsyncClient(base_url=n1.url) as h:
        r = await h.post("/api/logout", json={}, headers={"Authorization": f"Bearer {tokens[0]}"})
        assert r.status_code == 200, r.text
        closed = await gone.wait_for(lambda m: m["type"] == "closed_session", timeout=5)
        assert closed["reason"] == "logged_out"
        await asyncio.sleep(0.5)
        assert not [m for m in other.msgs if m["type"] == "closed_session"]
        r = await h.post("/api/password", json={"old": "secret-pw", "new": "newer-pw"},
                         headers={"Authorization": f"Bearer {tokens[2]}"})
        assert r.status_code == 200, r.text
        closed = await other.wait_for(lambda m: m["type"] == "closed_session", timeout=5)
        assert closed["reason"] == "password_changed"
    for p in sockets:
        await p.close()
