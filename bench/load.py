"""Load benchmark: N tables of bot clients over real WebSockets against a real server.

Each table is a private table of three guest clients (one creates it, two join with the invite code). Every
client plays like a slow human: when it is its turn it thinks ``--think`` seconds (±50 % jitter) and sends a
random legal action.  The benchmark measures, for every action, the time from sending it to receiving the
``state`` message it caused (action-to-broadcast latency: validation, journal commit, broadcast), and reports
actions per second and latency percentiles.

    python bench/load.py --tables 100 --duration 30            # spawns a server on SQLite in a temp folder
    python bench/load.py --tables 1000 --client-procs 2 --duration 60
    python bench/load.py --url http://127.0.0.1:8000 --tables 50   # an already running server
    python bench/load.py --nodes 3 --tables 3000 --database-url postgresql+asyncpg://postgres@127.0.0.1/bench \
        --redis-url redis://127.0.0.1:6379/0          # three nodes sharing PostgreSQL and Redis

With several nodes each table's creator talks to one node (in turn) and the two others log in at the next nodes
and join with the invite code: they are sent to the table's node (``joined`` with its ``url``) and reconnect
there, as a browser does.  Actions are also counted per node.

A spawned server gets flags suited to the benchmark (no auth rate limit).  An external server must allow many
guest log-ins from one address (``--auth-rate-limit``).  Results are printed and, with ``--json PATH``, saved.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing as mp
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    deals: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    messages: int = 0
    per_node: dict[str, int] = field(default_factory=dict)
    node_latencies: dict[str, list[float]] = field(default_factory=dict)
    setup_retries: int = 0


class BenchClient:
    def __init__(self, base: str, think: float, rng: random.Random, stats: Stats, measuring: asyncio.Event) -> None:
        self.base = base
        self.node = base
        self.ws_url = base.replace("http", "ws", 1) + "/ws"
        self.think = think
        self.rng = rng
        self.stats = stats
        self.measuring = measuring
        self.ws: ClientConnection | None = None
        self.pending: dict[tuple[int, int], float] = {}
        self.table: str | None = None
        self.seat: int | None = None
        self.acting: asyncio.Task[None] | None = None

    async def login(self, http: httpx.AsyncClient) -> None:
        for attempt in range(4):
            try:
                r = await http.post(self.base + "/api/guest", json={})
                break
            except httpx.TransportError:
                # a pooled keep-alive connection the server closed as it was reused (seen with several nodes,
                # whose connections sit idle in turn): a new guest on a new connection
                if attempt == 3:
                    raise
                self.stats.setup_retries += 1
                await asyncio.sleep(0.2)
        r.raise_for_status()
        self.token = r.json()["token"]
        await self.open(self.ws_url)

    async def open(self, url: str) -> None:
        if self.ws is not None:
            await self.ws.close()
        self.ws = await connect(
            url,
            additional_headers={"Authorization": f"Bearer {self.token}"},
            max_size=2**24,
            ping_interval=None,
            open_timeout=60,  # a saturated set-up burst on a 2-core machine can take longer than the default 10 s
        )

    async def follow(self, joined: dict[str, Any]) -> None:
        """A seat at another node's table: reconnect there (as the browser does)."""
        url = joined.get("url")
        if url:
            self.node = url
            await self.open(url.replace("http", "ws", 1) + "/ws")

    async def request(self, msg: dict[str, Any], want: str, tries: int = 4) -> dict[str, Any]:
        """Send a set-up request and wait for its answer; ``server_busy`` (another node did not answer in time
        while the machine is saturated by the set-up burst) is retried, as a client would, and counted."""
        assert self.ws is not None
        for attempt in range(tries):
            await self.ws.send(json.dumps(msg))
            while True:
                m = json.loads(await self.ws.recv())
                if m["type"] == want:
                    return m
                if m["type"] == "error":
                    break
            if m["code"] != "server_busy" or attempt == tries - 1:
                raise RuntimeError(f"{msg['type']}: {m['code']}: {m['message']}")
            self.stats.setup_retries += 1
            await asyncio.sleep(0.5 * (attempt + 1))
        raise AssertionError("unreachable")

    async def run(self, stop: asyncio.Event) -> None:
        assert self.ws is not None
        ws = self.ws
        try:
            async for raw in ws:
                now = time.perf_counter()
                m = json.loads(raw)
                self.stats.messages += 1
                t = m["type"]
                if t == "state":
                    key = (m["deal"], m["version"] - 1)
                    sent = self.pending.pop(key, None)
                    if sent is not None and self.measuring.is_set():
                        self.stats.latencies.append(now - sent)
                        self.stats.actions += 1
                        self.stats.per_node[self.node] = self.stats.per_node.get(self.node, 0) + 1
                        self.stats.node_latencies.setdefault(self.node, []).append(now - sent)
                    if m["your_turn"] and m["legal"] and not m["autoplay"][m["you"]] and not stop.is_set():
                        if self.acting is not None:
                            self.acting.cancel()
                        self.acting = asyncio.create_task(self.act(m))
                elif t == "deal_over":
                    if self.measuring.is_set():
                        self.stats.deals += 1
                    if not stop.is_set():  # 准备: ready for the next deal, as a player moving on
                        await ws.send(json.dumps({"type": "ready", "table": m["table"]}))
                elif t == "error":
                    self.stats.errors[m["code"]] = self.stats.errors.get(m["code"], 0) + 1
        except Exception:
            pass

    def mark_sent(self, st: dict[str, Any]) -> None:
        """Note when the action answering ``st`` goes out (its latency ends at the ``state`` it causes)."""
        self.pending[(st["deal"], st["version"])] = time.perf_counter()

    async def act(self, st: dict[str, Any]) -> None:
        await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        legal = st["legal"]
        plays = [a for a in legal if a.startswith("play")]
        action = self.rng.choice(plays) if plays and self.rng.random() < 0.7 else self.rng.choice(legal)
        self.mark_sent(st)
        assert self.ws is not None
        with contextlib.suppress(Exception):
            await self.ws.send(
                json.dumps(
                    {
                        "type": "action",
                        "table": st["table"],
                        "deal": st["deal"],
                        "version": st["version"],
                        "action": action,
                    }
                )
            )


SETUP_CONCURRENCY = 50
"""Tables set up at once (``--setup-concurrency``)."""


async def run_tables(
    base: str | list[str], tables: int, think: float, warmup: float, duration: float, seed: int, ramp: float,
    collect: bool = False,
) -> dict[str, Any]:
    bases = [base] if isinstance(base, str) else list(base)
    rng = random.Random(seed)
    stats = Stats()
    measuring = asyncio.Event()
    stop = asyncio.Event()
    clients: list[BenchClient] = []
    tasks: list[asyncio.Task[None]] = []
    limits = httpx.Limits(max_connections=50)
    sem = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def make_table(i: int, http: httpx.AsyncClient) -> None:
        async with sem:
            trio = [BenchClient(bases[(i + k) % len(bases)], think, random.Random(rng.random()), stats, measuring)
                    for k in range(3)]
            for c in trio:
                await c.login(http)
            made = await trio[0].request({"type": "create_table", "room": "classic-1"}, "joined")
            for c in trio[1:]:
                await c.follow(await c.request({"type": "join", "invite": made["invite_code"]}, "joined"))
            clients.extend(trio)
            for c in trio:
                tasks.append(asyncio.create_task(c.run(stop)))

    t0 = time.perf_counter()
    async with httpx.AsyncClient(limits=limits, timeout=60) as http:
        jobs = []
        for i in range(tables):
            jobs.append(asyncio.create_task(make_table(i, http)))
            if ramp:
                await asyncio.sleep(ramp / tables)
        await asyncio.gather(*jobs)
    setup = time.perf_counter() - t0
    await asyncio.sleep(warmup)
    lags: list[float] = []
    watcher = asyncio.create_task(_watch_lag(lags))
    gc_pauses: list[float] = []
    gc_started = [0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            gc_started[0] = time.perf_counter()
        elif info["generation"] == 2:
            gc_pauses.append(time.perf_counter() - gc_started[0])

    gc.callbacks.append(on_gc)
    if not collect:
        # The clients are the measuring instrument: a full collection over 3,000 connections stalls this
        # process for hundreds of milliseconds, and every reply that arrives meanwhile looks that much later.
        gc.freeze()
        gc.disable()
    measuring.set()
    t1 = time.perf_counter()
    await asyncio.sleep(duration)
    elapsed = time.perf_counter() - t1
    measuring.clear()
    watcher.cancel()
    gc.callbacks.remove(on_gc)
    gc.enable()
    server_stats: list[Any] = []
    for b in bases:  # the servers' own figures for the measured window, before the clients leave
        try:
            async with httpx.AsyncClient(timeout=10) as http:
                server_stats.append((await http.get(b + "/api/health")).json())
        except (httpx.HTTPError, ValueError):
            server_stats.append(None)
    stop.set()
    for c in clients:
        if c.ws is not None:
            await c.ws.close()
    for t in tasks:
        t.cancel()
    return {
        "latencies": stats.latencies,
        "actions": stats.actions,
        "deals": stats.deals,
        "errors": stats.errors,
        "elapsed": elapsed,
        "setup": setup,
        "setup_retries": stats.setup_retries,
        "messages": stats.messages,
        "client_lag": lags,
        "client_gc2": gc_pauses,
        "server": server_stats,
        "per_node": stats.per_node,
        "node_latencies": stats.node_latencies,
    }


async def _watch_lag(out: list[float], every: float = 0.05) -> None:
    """How late this client process's event loop wakes up: a late client inflates the latencies it measures."""
    loop = asyncio.get_running_loop()
    while True:
        t = loop.time()
        await asyncio.sleep(every)
        out.append(loop.time() - t - every)


def _worker(args: tuple[list[str], int, float, float, float, int, float, bool], out: Any) -> None:
    out.put(asyncio.run(run_tables(*args)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spawn_server(port: int, data_dir: str, database_url: str | None, cluster: list[str] | None = None,
                 log: str | None = None) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable,
        "-m",
        "qipai.server",
        "--port",
        str(port),
        "--data-dir",
        data_dir,
        "--auth-rate-limit",
        "1000000",
        "--max-address-connections",  # every client of the benchmark comes from this one address
        "1000000",
        "--rate-limit",
        "50",
        "--bot-fill-wait",
        "3600",
        "--next-deal-delay",
        "1",
        "--log-level",
        "warning",
    ]
    if database_url:
        cmd += ["--database-url", database_url]
    if cluster:
        cmd += cluster
    proc = subprocess.Popen(cmd, stderr=None if log is None else open(log, "ab"))  # noqa: SIM115
    for _ in range(600):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise SystemExit("the server did not start")
        time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start in time")


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--think", type=float, default=1.5, help="seconds a client thinks before acting (mean)")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--duration", type=float, default=30.0)
    ap.add_argument("--ramp", type=float, default=0.0, help="spread table creation over this many seconds")
    ap.add_argument("--client-procs", type=int, default=1, help="client processes (tables split among them)")
    ap.add_argument("--client-gc", action="store_true",
                    help="leave the clients' garbage collector on while measuring (default: off, see run_tables)")
    ap.add_argument("--url", help="an already running server (default: spawn one)")
    ap.add_argument("--database-url", help="for the spawned server (default: SQLite in a temp folder)")
    ap.add_argument("--nodes", type=int, default=1, help="spawn this many nodes (needs --database-url, --redis-url)")
    ap.add_argument("--redis-url", help="the Redis of a spawned cluster")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--setup-concurrency", type=int, default=50, help="tables set up at once")
    ap.add_argument("--log-dir", help="write each spawned node's log to <dir>/n<i>.log (default: the terminal)")
    ap.add_argument("--json", help="also write the results to this file")
    a = ap.parse_args()
    global SETUP_CONCURRENCY
    SETUP_CONCURRENCY = max(1, a.setup_concurrency)

    procs_: list[subprocess.Popen[bytes]] = []
    tmp = tempfile.TemporaryDirectory(prefix="qipai-bench-")
    if a.url:
        bases = [a.url.rstrip("/")]
    elif a.nodes > 1:
        if not (a.database_url and a.redis_url):
            raise SystemExit("--nodes needs --database-url (PostgreSQL) and --redis-url")
        ports = [free_port() for _ in range(a.nodes)]
        bases = [f"http://127.0.0.1:{p}" for p in ports]
        prefix = f"bench{os.getpid()}:"
        for i, p in enumerate(ports):
            procs_.append(spawn_server(p, tmp.name, a.database_url, [
                "--node-id", f"n{i + 1}", "--redis-url", a.redis_url, "--redis-prefix", prefix,
                "--public-url", bases[i], "--allowed-origins", ",".join(bases)],
                log=None if not a.log_dir else os.path.join(a.log_dir, f"n{i + 1}.log")))
    else:
        port = free_port()
        procs_.append(spawn_server(port, tmp.name, a.database_url))
        bases = [f"http://127.0.0.1:{port}"]
    try:
        procs = max(1, a.client_procs)
        shares = [a.tables // procs + (1 if i < a.tables % procs else 0) for i in range(procs)]
        if procs == 1:
            results = [asyncio.run(run_tables(bases, a.tables, a.think, a.warmup, a.duration, a.seed, a.ramp,
                                              a.client_gc))]
        else:
            q: Any = mp.get_context("spawn").Queue()
            workers = [
                mp.get_context("spawn").Process(
                    target=_worker,
                    args=((bases, n, a.think, a.warmup, a.duration, a.seed + i, a.ramp, a.client_gc), q),
                )
                for i, n in enumerate(shares)
                if n
            ]
            for w in workers:
                w.start()
            results = [q.get() for _ in workers]
            for w in workers:
                w.join()
        server_stats = results[0].get("server")
    finally:
        for proc in procs_:
            proc.terminate()
        for proc in procs_:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        tmp.cleanup()

    lat = [x for r in results for x in r["latencies"]]
    clag = [x for r in results for x in r["client_lag"]]
    actions = sum(r["actions"] for r in results)
    elapsed = max(r["elapsed"] for r in results)
    errors: dict[str, int] = {}
    for r in results:
        for k, v in r["errors"].items():
            errors[k] = errors.get(k, 0) + v
    report = {
        "tables": a.tables,
        "clients": 3 * a.tables,
        "think_s": a.think,
        "setup_s": round(max(r["setup"] for r in results), 2),
        "setup_retries": sum(r["setup_retries"] for r in results),
        "duration_s": round(elapsed, 2),
        "actions": actions,
        "actions_per_s": round(actions / elapsed, 1) if elapsed else 0.0,
        "deals_finished": sum(r["deals"] for r in results),
        "messages_received": sum(r["messages"] for r in results),
        "latency_ms": {
            "p50": round(pct(lat, 50) * 1000, 2),
            "p90": round(pct(lat, 90) * 1000, 2),
            "p99": round(pct(lat, 99) * 1000, 2),
            "max": round(max(lat) * 1000, 2) if lat else None,
            "mean": round(statistics.fmean(lat) * 1000, 2) if lat else None,
        },
        "errors": errors,
        "client_loop_lag_ms": {
            "p50": round(pct(clag, 50) * 1000, 2),
            "p99": round(pct(clag, 99) * 1000, 2),
            "max": round(max(clag) * 1000, 2) if clag else None,
        },
        "client_full_gc_ms": [round(x * 1000, 1) for r in results for x in r["client_gc2"]],
        "server": server_stats,
        "nodes": len(bases),
        "per_node": {
            node: {
                "actions_per_s": round(sum(r["per_node"].get(node, 0) for r in results) / elapsed, 1)
                if elapsed else 0.0,
                "p99_ms": round(pct([x for r in results for x in r["node_latencies"].get(node, [])], 99) * 1000, 2),
            }
            for node in bases
        },
        "cpus": os.cpu_count(),
    }
    print(json.dumps(report, indent=2))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()
