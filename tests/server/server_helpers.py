"""Test helpers: a real uvicorn server in-process on a free port, and real WebSocket clients."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import random
import socket
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Self

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from qipai.core.game import Game, apply_step
from qipai.host.settings import Settings
from qipai.server.protocol import server_adapter
from qipai.server.run import Server, make_config

Msg = dict[str, Any]
StartServer = Callable[..., Awaitable["LiveServer"]]

SQLITE_ONLY = pytest.mark.parametrize("db", ["sqlite"], indirect=True)
"""For a test that plays whole deals or matches through the server and asks nothing of the database that the tests
run on both do not ask too (seats, journal, settlement, match rows): it runs on SQLite only. Running such tests on
PostgreSQL as well doubled a minute and a half of CI for no coverage. Tests of restarts, crashes, takeovers and
anything written or read concurrently stay on both."""


@dataclass
class Database:
    url: str
    schema: str | None = None


def fast_settings(db: Database, **kw: Any) -> Settings:
    base = Settings(
        database_url=db.url,
        database_schema=db.schema,
        bot_fill_wait=0.2,
        bot_delay=0.0,
        autoplay_delay=0.0,
        next_deal_delay=0.2,
        ready_timeout=0.3,
        time_scale=1.0,
        log_level="warning",
        auth_rate_limit=1000.0,
        bot_processes=0,
    )
    return replace(base, **kw)


class LiveServer:
    """uvicorn serving the app on 127.0.0.1 in this event loop."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server = Server(make_config(settings, log_config=None))
        self.task: asyncio.Task[None] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def app(self) -> Any:
        return self.server.config.app

    @property
    def lobby(self) -> Any:
        return self.app.state.lobby

    async def start(self) -> LiveServer:
        self.task = asyncio.create_task(self.server.serve(sockets=[self.sock]))
        for _ in range(500):
            if self.server.started:
                return self
            if self.task.done():
                self.task.result()
            await asyncio.sleep(0.01)
        raise RuntimeError("server did not start")

    async def stop(self) -> None:
        self.server.should_exit = True
        if self.task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self.task), 20)
            except TimeoutError:
                # say where the shutdown hangs: every task's stack, then give up on it
                out = io.StringIO()
                for t in asyncio.all_tasks():
                    t.print_stack(limit=12, file=out)
                self.task.cancel()
                raise AssertionError("the server did not stop within 20 s; its tasks:\n" + out.getvalue()) from None
        self.sock.close()


class ProtocolViolation(AssertionError):
    pass


@dataclass
class Client:
    """A logged-in user with an HTTP client and (after :meth:`connect`) a WebSocket."""

    server: LiveServer
    token: str
    user: Msg
    ws: ClientConnection | None = None
    msgs: list[Msg] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None
    last_seq: int = 0
    cond: asyncio.Condition = field(default_factory=asyncio.Condition)
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    violations: list[str] = field(default_factory=list)

    @classmethod
    async def register(cls, server: LiveServer, name: str, password: str = "secret-pw") -> Client:
        async with httpx.AsyncClient(base_url=server.http) as h:
            r = await h.post("/api/register", json={"name": name, "password": password})
            assert r.status_code == 201, r.text
            data = r.json()
        return cls(server, data["token"], data["user"])

    @classmethod
    async def guest(cls, server: LiveServer) -> Client:
        async with httpx.AsyncClient(base_url=server.http) as h:
            r = await h.post("/api/guest", json={})
            assert r.status_code == 201, r.text
            data = r.json()
        return cls(server, data["token"], data["user"])

    def api(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.server.http, headers={"Authorization": f"Bearer {self.token}"})

    async def get(self, path: str) -> Any:
        async with self.api() as h:
            r = await h.get(path)
            assert r.status_code == 200, (path, r.status_code, r.text)
            return r.json()

    async def post(self, path: str, body: Any = None, status: int = 200) -> Any:
        async with self.api() as h:
            r = await h.post(path, json=body if body is not None else {})
            assert r.status_code == status, (path, r.status_code, r.text)
            return r.json()

    # ------------------------------------------------------------------ websocket
    async def connect(self) -> Client:
        self.ws = await connect(
            self.server.ws, additional_headers={"Authorization": f"Bearer {self.token}"}, max_size=2**22
        )
        self.last_seq = 0
        self.reader = asyncio.create_task(self._read())
        await self.wait_for(lambda m: m["type"] == "welcome")
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                m = json.loads(raw)
                server_adapter.validate_python(m)
                if m["seq"] != self.last_seq + 1:
                    raise ProtocolViolation(f"seq gap: {self.last_seq} then {m['seq']}")
                self.last_seq = m["seq"]
                async with self.cond:
                    self.msgs.append(m)
                    self.cond.notify_all()
        except ProtocolViolation as e:
            self.violations.append(str(e))
        except Exception as e:
            if "ConnectionClosed" not in type(e).__name__:
                self.violations.append(f"{type(e).__name__}: {e}")
        async with self.cond:
            self.msgs.append({"type": "_closed"})
            self.cond.notify_all()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            if self.reader is not None:
                await self.reader
            self.ws = None
        assert not self.violations, self.violations

    async def send(self, msg: Msg | str) -> None:
        assert self.ws is not None
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    def mark(self) -> int:
        return len(self.msgs)

    async def wait_for(self, pred: Callable[[Msg], bool], timeout: float = 10.0, since: int = 0) -> Msg:
        async def find() -> Msg:
            async with self.cond:
                i = since
                while True:
                    while i < len(self.msgs):
                        m = self.msgs[i]
                        i += 1
                        if pred(m):
                            return m
                        if m["type"] == "_closed":
                            raise AssertionError("connection closed while waiting")
                    await self.cond.wait()

        return await asyncio.wait_for(find(), timeout)

    async def error(self, code: str, since: int, timeout: float = 5.0) -> Msg:
        return await self.wait_for(lambda m: m["type"] == "error" and m["code"] == code, timeout, since)

    def latest_state(self) -> Msg | None:
        for m in reversed(self.msgs):
            if m["type"] == "state":
                return m
            if m["type"] == "snapshot":
                return m["state"]
            if m["type"] == "deal_over":
                return None
        return None

    def choose(self, legal: list[str]) -> str:
        plays = [a for a in legal if a.startswith("play")]
        if plays and self.rng.random() < 0.7:
            return self.rng.choice(plays)
        return self.rng.choice(legal)

    async def play_until_over(self, timeout: float = 60.0, act: bool = True) -> Msg:
        """Answer every turn of this seat (random legal actions) until ``deal_over``."""
        acted: set[tuple[int, int]] = set()
        start = self.mark()
        for j in range(len(self.msgs) - 1, -1, -1):  # answer a turn that is already waiting
            if self.msgs[j]["type"] in ("state", "snapshot"):
                start = j
                break
            if self.msgs[j]["type"] == "deal_over":
                break

        async def loop() -> Msg:
            i = start
            while True:
                async with self.cond:
                    while i >= len(self.msgs):
                        await self.cond.wait()
                    m = self.msgs[i]
                    i += 1
                if m["type"] == "deal_over":
                    return m
                if m["type"] == "_closed":
                    raise AssertionError("connection closed during the deal")
                st = m["state"] if m["type"] == "snapshot" else m if m["type"] == "state" else None
                if not act or st is None or st["legal"] is None or not st["your_turn"]:
                    continue
                if st["autoplay"][st["you"]]:
                    continue
                key = (st["deal"], st["version"])
                if key in acted or (i < len(self.msgs) and self._newer_state_waiting(i)):
                    continue
                acted.add(key)
                await self.send(
                    {
                        "type": "action",
                        "table": st["table"],
                        "deal": st["deal"],
                        "version": st["version"],
                        "action": self.choose(st["legal"]),
                    }
                )

        return await asyncio.wait_for(loop(), timeout)

    def _newer_state_waiting(self, i: int) -> bool:
        return any(m["type"] in ("state", "snapshot") for m in self.msgs[i:])


def st_of(m: Msg) -> Msg | None:
    """The state a ``state`` or ``snapshot`` message carries (``None`` for other messages)."""
    return m["state"] if m["type"] == "snapshot" else m if m["type"] == "state" else None


def follow_views(c: Client, deal_id: int, g: Game, steps: Sequence[Sequence[Any]], seat: int | None) -> Iterator[Msg]:
    """Walk the connection's states of one deal, in the order they came, along the deal's ``steps`` applied to
    ``g`` (the deal's game from its seed): each state's observation is the game's own view for ``seat`` after some
    number of steps, that number never going back (nothing the seat could not see ever arrived), and its version
    is the last state's plus one exactly when the view changed (plus nothing or one otherwise: a head field, or
    a snapshot of the same view) — it counts the seat's views, not the table's steps.  Yields each state with
    ``g`` advanced to it."""
    n = 0
    prev: tuple[int, Any] | None = None
    for m in c.msgs:
        st = st_of(m)
        if st is None or st["deal"] != deal_id:
            continue
        assert st["you"] == seat
        obs = st["observation"]
        while obs != g.observe(seat):
            assert n < len(steps), (seat, st["version"], "a view the game never showed this seat")
            apply_step(g, steps[n][0], steps[n][1])
            n += 1
        if prev is not None:
            assert st["version"] - prev[0] in ((1,) if obs != prev[1] else (0, 1)), (seat, prev[0], st["version"])
        prev = (st["version"], obs)
        yield st


async def deal_overs(c: Client, n: int, timeout: float = 60.0) -> list[Msg]:
    """Wait for the connection's ``n``-th ``deal_over`` and return them all."""
    await c.wait_for(lambda m: m["type"] == "deal_over" and sum(x["type"] == "deal_over" for x in c.msgs) >= n,
                     timeout)
    return [m for m in c.msgs if m["type"] == "deal_over"][:n]


@dataclass
class DecisionPlayer:
    """A test client that answers every open decision of its seat, with the decision id (several seats may
    answer at once: claim windows, declarations), until its connection closes.  Subclasses choose the action
    (:meth:`choose`) and may note what they answer (:meth:`answering`)."""

    c: Client
    rng: random.Random = field(default_factory=lambda: random.Random(3))
    silent: Callable[[Msg], bool] = lambda st: False
    """States the player does not answer (its clock runs)."""
    task: asyncio.Task[None] | None = None
    errors: list[Msg] = field(default_factory=list)

    def choose(self, st: Msg) -> str:
        return self.rng.choice(st["legal"])

    def answering(self, st: Msg) -> None:
        """Called before each answer is sent."""

    async def run(self) -> None:
        c = self.c
        i = 0
        answered: set[tuple[int, int]] = set()
        while True:
            async with c.cond:
                while i >= len(c.msgs):
                    await c.cond.wait()
                m = c.msgs[i]
                i += 1
                newer = any(x["type"] in ("state", "snapshot") for x in c.msgs[i:])
            if m["type"] == "_closed":
                return
            if m["type"] == "error":
                self.errors.append(m)
            st = st_of(m)
            if st is None or newer or not st["your_turn"] or st["autoplay"][st["you"]] or not st["legal"]:
                continue
            key = (st["deal"], st["decision"])
            if key in answered or self.silent(st):
                continue
            answered.add(key)
            self.answering(st)
            await c.send({"type": "action", "table": st["table"], "deal": st["deal"], "version": st["version"],
                          "decision": st["decision"], "action": self.choose(st)})

    def start(self) -> Self:
        self.task = asyncio.create_task(self.run())
        return self

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        self.task = None

    def refusals(self) -> list[Msg]:
        """Errors other than answers overtaken by the window closing (a race the protocol allows)."""
        return [e for e in self.errors if e["code"] not in ("stale", "not_your_turn")]


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def spawn_server(args: list[str], port: int, db: Database, tries: int = 400) -> subprocess.Popen[bytes]:
    """A server in a process of its own (``python ARGS --port PORT --database-url …``) on the test's database,
    once its health check answers."""
    args = [sys.executable, *args, "--port", str(port), "--database-url", db.url]
    if db.schema:
        args += ["--database-schema", db.schema]
    proc = subprocess.Popen(args, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    async with httpx.AsyncClient() as h:
        for _ in range(tries):
            try:
                if (await h.get(f"http://127.0.0.1:{port}/api/health")).status_code == 200:
                    return proc
            except httpx.HTTPError:
                pass
            if proc.poll() is not None:
                raise RuntimeError(f"{' '.join(args[1:3])} exited")
            await asyncio.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"{' '.join(args[1:3])} did not start")


class Remote:
    """Enough of LiveServer for a Client: the addresses of a server in another process."""

    def __init__(self, port: int) -> None:
        self.http = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}/ws"


async def private_table(server: LiveServer, room: str, names: list[str], options: dict[str, Any],
                        bots: bool = False) -> tuple[list[Client], str]:
    """Registered players at one private table of ``room`` (the first creates it with ``options``, the others
    join by invite; ``bots``: then the creator calls bots into the empty seats)."""
    clients = [await Client.register(server, n) for n in names]
    for x in clients:
        await x.connect()
    made = await clients[0].post("/api/tables", {"room": room, "options": options})
    for x in clients[1:]:
        await x.post("/api/tables/join", {"invite": made["invite_code"]})
    if bots:
        await clients[0].post(f"/api/tables/{made['table']}/bots")
    return clients, made["table"]


class SqliteLock:
    """Another process holding an exclusive lock on a SQLite database (``await SqliteLock.take(url)``) until
    ``await lock.release()``: the server's writes meet "database is locked"."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc

    @classmethod
    async def take(cls, url: str) -> SqliteLock:
        path = url.split("///", 1)[1]
        p = subprocess.Popen(
            [sys.executable, "-c",
             "import sqlite3, sys\n"
             f"c = sqlite3.connect({path!r}, isolation_level=None)\n"
             "c.execute('BEGIN EXCLUSIVE')\n"
             "print('locked', flush=True)\n"
             "sys.stdin.readline()\n"
             "c.execute('COMMIT')\n"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert p.stdout is not None
        assert (await asyncio.to_thread(p.stdout.readline)).strip() == "locked"
        return cls(p)

    async def release(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        await asyncio.to_thread(self.proc.wait, 10)


async def standing_of_a_player(store: Any, user_id: int, game: str, points: int, played: int = 1) -> None:
    """Give ``user_id`` a standing of ``points`` in ``game`` as if he had played ``played`` deals of it (the
    leaderboards rank only players who have played), without playing them."""
    from sqlalchemy import update

    from qipai.store.models import UserGame

    await store.standing(user_id, game, 1000)
    await store.grant(user_id, game, points - 1000, "relief")
    async with store.sessions.begin() as s:
        await s.execute(update(UserGame).where(UserGame.user_id == user_id, UserGame.game == game)
                        .values(games_played=played))
