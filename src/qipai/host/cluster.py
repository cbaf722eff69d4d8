"""Several server processes (nodes) sharing one database: table ownership, a directory, presence, calls
between nodes and the event bus — on Redis.

PostgreSQL stays the source of truth (journal, match state, points). Redis carries what must be shared live and
may be lost without losing a game:

* **leases**: each table is owned by one node under a lease (``q:lease:<table>`` = ``<node>:<token>``, with an
  expiry the owner renews). Every claim takes a new **fencing token** (``INCR q:fence:<table>``), also written
  to the table's row in the database; every write of a table's journal, deals and seats checks that token in
  the same transaction, so a node that was paused past its lease and wakes up cannot write (it is *fenced*).
* **directory**: where each user sits, what each invite code opens, the open tables of every node (for the
  lobby lists and for quick match across nodes), and which nodes are alive (``q:node:<id>``, renewed).
* **calls**: a node asks a table's owner to seat a player (quick match, invites) with a request/reply over
  Redis pub/sub.
* **bus**: the host's events (deal settled, match over, table closed …) published to every node.

Why Redis and not NATS JetStream: leases with fencing tokens are two atomic scripts (claim, renew) on keys
with expiry; presence is a key with an expiry; the directory is a few hashes; and pub/sub covers calls and
events — one well-known service, one client library (redis-py), nothing to provision. JetStream would serve as
well (its key-value buckets have revisions for fencing and TTLs for presence); the :class:`Cluster` protocol and
:class:`~qipai.host.events.Bus` keep it possible: an implementation of both is all another engine needs.

With no Redis configured the node runs alone (:class:`LocalCluster`): no leases, no fencing, nothing shared —
exactly the single server it always was.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Collection, Iterable
from typing import Any, Protocol

from qipai.host import events as ev
from qipai.host.events import Bus, Handler, MemoryBus

log = logging.getLogger("qipai.host.cluster")

Rpc = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


class Fenced(RuntimeError):
    """A write for a table whose lease another node has since claimed: refused, nothing written."""


class ClusterError(RuntimeError):
    """A call to another node failed (it is gone, or did not answer in time)."""


def _unreachable() -> tuple[type[BaseException], ...]:
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return ClusterError, RedisConnectionError, RedisTimeoutError


CLUSTER_UNREACHABLE: tuple[type[BaseException], ...] = _unreachable()
"""What a request meets when the cluster's Redis cannot be reached (or another node does not answer): the server
answers ``server_busy`` (try again), not a failure of its own."""


@dataclasses.dataclass(frozen=True)
class NodeInfo:
    id: str
    url: str | None
    started: float
    tables: int = 0


class Cluster(Protocol):
    """What the lobby needs to share with the other nodes."""

    node_id: str
    public_url: str | None
    networked: bool
    bus: Bus
    database_id: str | None
    """The id of the database this node runs on (:meth:`~qipai.store.repo.Store.database_id`), set before
    :meth:`start`: every node of a cluster must run on the same database."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def claim(self, table_id: str, floor: int = 0) -> int | None:
        """Take the lease of a table nobody holds; its new fencing token (above ``floor``, the token the database
        last saw: a Redis that lost its data never hands out an old token), or ``None`` if another node has it."""
        ...

    async def renew(self, table_id: str, token: int) -> bool:
        """Keep holding it; ``False`` when the lease was lost (expired and claimed elsewhere)."""
        ...

    async def renew_all(self, leases: list[tuple[str, int]]) -> list[bool]:
        """:meth:`renew` for many tables in one round trip (a node renews all of its tables every few seconds)."""
        ...

    async def release(self, table_id: str, token: int) -> None: ...

    async def owner(self, table_id: str) -> str | None:
        """The node holding a table's lease, or ``None``."""
        ...

    async def nodes(self) -> list[NodeInfo]: ...

    async def node_url(self, node_id: str) -> str | None: ...

    async def set_seat(self, user_id: int, table_id: str | None) -> None: ...

    async def lock_user(self, user_id: int, wait: float) -> str | None:
        """Take the cluster-wide lock on a user's seat changes (a user sits at one table at a time, whichever node
        seats him): a token for :meth:`unlock_user`, or ``None`` when another node held it for ``wait`` seconds.
        It lapses by itself after a while (a node that died holding it)."""
        ...

    async def unlock_user(self, user_id: int, token: str) -> None: ...

    async def seat_of(self, user_id: int) -> str | None: ...

    async def seats_of(self, user_ids: Collection[int]) -> dict[int, str]:
        """:meth:`seat_of` for many users in one round trip (those seated only)."""
        ...

    async def set_invite(self, code: str, table_id: str | None) -> None: ...

    async def invite(self, code: str) -> str | None: ...

    async def advertise(self, table_id: str, summary: dict[str, Any] | None) -> None:
        """Publish (or with ``None`` withdraw) an open table's summary for every node's lobby lists."""
        ...

    async def advertise_all(self, summaries: dict[str, dict[str, Any]]) -> None:
        """:meth:`advertise` for many tables in one round trip."""
        ...

    async def publish_directory(self, seats: dict[int, str], invites: dict[str, str]) -> None:
        """:meth:`set_seat` and :meth:`set_invite` for many users and codes in one round trip."""
        ...

    async def tables(self) -> list[dict[str, Any]]: ...

    async def publish_online(self, user_ids: Collection[int]) -> None:
        """Who is connected to this node now (the friends lists of other nodes show them online); replaces the
        node's earlier list, and lapses with the node."""
        ...

    async def online_among(self, user_ids: Collection[int]) -> set[int]:
        """Which of these users are connected to a live node, as the nodes last published."""
        ...

    def serve(self, method: str, handler: Rpc) -> None: ...

    async def call(self, node_id: str, method: str, args: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
        ...

    async def heartbeat(self, tables: int) -> None: ...


class LocalCluster:
    """One node alone: nothing is shared and every claim succeeds (no fencing is needed with no rival)."""

    networked = False

    def __init__(self, node_id: str = "local", public_url: str | None = None, bus: Bus | None = None) -> None:
        self.node_id = node_id
        self.public_url = public_url
        self.bus: Bus = bus or MemoryBus()
        self.started = time.time()
        self.database_id: str | None = None

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def claim(self, table_id: str, floor: int = 0) -> int | None:
        return None

    async def renew(self, table_id: str, token: int) -> bool:
        return True

    async def renew_all(self, leases: list[tuple[str, int]]) -> list[bool]:
        return [True] * len(leases)

    async def release(self, table_id: str, token: int) -> None:
        return None

    async def owner(self, table_id: str) -> str | None:
        return self.node_id

    async def nodes(self) -> list[NodeInfo]:
        return [NodeInfo(self.node_id, self.public_url, self.started)]

    async def node_url(self, node_id: str) -> str | None:
        return self.public_url

    async def set_seat(self, user_id: int, table_id: str | None) -> None:
        return None

    async def lock_user(self, user_id: int, wait: float) -> str | None:
        return ""  # one node: its own per-user locks serialise every seat change

    async def unlock_user(self, user_id: int, token: str) -> None:
        return None

    async def seat_of(self, user_id: int) -> str | None:
        return None

    async def seats_of(self, user_ids: Collection[int]) -> dict[int, str]:
        return {}

    async def set_invite(self, code: str, table_id: str | None) -> None:
        return None

    async def invite(self, code: str) -> str | None:
        return None

    async def advertise(self, table_id: str, summary: dict[str, Any] | None) -> None:
        return None

    async def advertise_all(self, summaries: dict[str, dict[str, Any]]) -> None:
        return None

    async def publish_directory(self, seats: dict[int, str], invites: dict[str, str]) -> None:
        return None

    async def tables(self) -> list[dict[str, Any]]:
        return []

    async def publish_online(self, user_ids: Collection[int]) -> None:
        return None

    async def online_among(self, user_ids: Collection[int]) -> set[int]:
        return set()

    def serve(self, method: str, handler: Rpc) -> None:
        return None

    async def call(self, node_id: str, method: str, args: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
        raise ClusterError("a single node has nobody to call")

    async def heartbeat(self, tables: int) -> None:
        return None


def database_refusal(presence: Iterable[tuple[str, str | None]], node_id: str, database_id: str | None,
                   prefix: str) -> str | None:
    """Why node ``node_id`` on database ``database_id`` may not join a cluster whose nodes' presence entries
    (``(node id, its heartbeat JSON or None)``) are ``presence``: a running node reports another database.
    ``None``: it may."""
    for nid, raw in presence:
        theirs = json.loads(raw).get("database") if raw is not None and nid != node_id else None
        if theirs is not None and theirs != database_id:
            return (f"node {nid!r} of this cluster (the same --redis-url and --redis-prefix {prefix!r}) runs on "
                    "another database: every node of a cluster must use the same database (accounts and tables "
                    "are the database's); give this node that database, or another --redis-prefix for a cluster of "
                    "its own")
    return None


USER_LOCK_MS = 15000
"""How long a node's lock on a user's seat changes (:meth:`RedisCluster.lock_user`) lasts unreleased: a seat
change takes a few database writes and at most one call to another node (5 s)."""

_CLAIM = """
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
local tok = redis.call('INCR', KEYS[2])
if tok <= tonumber(ARGV[3]) then
  tok = tonumber(ARGV[3]) + 1
  redis.call('SET', KEYS[2], tok)
end
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. tok, 'PX', ARGV[2])
return tok
"""
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

EVENT_TYPES: dict[str, type] = {
    ev.DEAL_STARTED: ev.DealStarted,
    ev.DEAL_SETTLED: ev.DealSettled,
    ev.MATCH_OVER: ev.MatchOver,
    ev.TABLE_CLOSED: ev.TableClosed,
    ev.SEAT_LEFT: ev.SeatLeft,
}


def encode_event(topic: str, event: Any) -> str:
    data = dataclasses.asdict(event) if dataclasses.is_dataclass(event) and not isinstance(event, type) else event
    return json.dumps({"topic": topic, "event": data}, default=str)


def decode_event(text: str | bytes) -> tuple[str, Any]:
    msg = json.loads(text)
    topic, data = msg["topic"], msg["event"]
    cls = EVENT_TYPES.get(topic)
    if cls is None or not isinstance(data, dict):
        return topic, data
    if "seats" in data:
        data["seats"] = [ev.SeatRef(**s) for s in data["seats"]]
    return topic, cls(**data)


class RedisBus:
    """The host's events on Redis pub/sub: every node's subscribers get every node's events (their own too)."""

    def __init__(self, cluster: RedisCluster) -> None:
        self.cluster = cluster
        self.local = MemoryBus()

    def publish(self, topic: str, event: Any) -> None:
        self.cluster.publish_soon(f"{self.cluster.prefix}bus", encode_event(topic, event))

    def subscribe(self, topic: str, handler: Handler) -> Callable[[], None]:
        return self.local.subscribe(topic, handler)

    def deliver(self, text: str | bytes) -> None:
        try:
            topic, event = decode_event(text)
        except Exception:
            log.exception("cannot read a bus message")
            return
        self.local.publish(topic, event)

    async def drain(self) -> None:
        await self.local.drain()


class RedisCluster:
    """Leases, directory, presence, calls and the bus on one Redis (see the module docstring)."""

    networked = True

    def __init__(self, url: str, node_id: str, public_url: str | None, lease_ms: int = 15000,
                 prefix: str = "qipai:") -> None:
        import redis.asyncio as aioredis

        self.url = url
        self.node_id = node_id
        self.public_url = public_url
        self.lease_ms = lease_ms
        self.prefix = prefix
        # a bounded pool that waits for a free connection: redis-py's default pool raises "Too many connections"
        # past 100 commands in flight, which a busy node's directory updates and calls reach
        pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=128, timeout=20, decode_responses=True)
        self.redis: Any = aioredis.Redis.from_pool(pool)
        self.redis_bus = RedisBus(self)
        self.bus: Bus = self.redis_bus
        self.handlers: dict[str, Rpc] = {}
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.started = time.time()
        self.database_id: str | None = None
        self._listener: asyncio.Task[None] | None = None
        self._pubsub: Any = None
        self._sends: set[asyncio.Task[Any]] = set()
        self._claim = self.redis.register_script(_CLAIM)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    async def start(self) -> None:
        await self.redis.ping()
        other = await self.other_database()
        if other is not None:
            raise RuntimeError(other)
        self._pubsub = self.redis.pubsub()
        await self._pubsub.subscribe(self.key("bus"), self.key("rpc", self.node_id), self.key("reply", self.node_id))
        self._listener = asyncio.create_task(self._listen(), name="cluster-listener")
        await self.heartbeat(0)

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        with contextlib.suppress(Exception):
            await self.redis.delete(self.key("node", self.node_id))
            await self.redis.srem(self.key("nodes"), self.node_id)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _listen(self) -> None:
        bus_ch, rpc_ch, reply_ch = self.key("bus"), self.key("rpc", self.node_id), self.key("reply", self.node_id)
        while True:
            try:
                msg = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("cluster: lost Redis (%s); retrying", e)
                await asyncio.sleep(0.5)
                continue
            if msg is None:
                continue
            ch, data = msg["channel"], msg["data"]
            if ch == bus_ch:
                self.redis_bus.deliver(data)
            elif ch == rpc_ch:
                task = asyncio.create_task(self._answer(json.loads(data)))
                self._sends.add(task)
                task.add_done_callback(self._sends.discard)
            elif ch == reply_ch:
                rep = json.loads(data)
                fut = self.waiting.pop(rep.get("id", ""), None)
                if fut is not None and not fut.done():
                    fut.set_result(rep)

    def publish_soon(self, channel: str, text: str) -> None:
        task = asyncio.get_running_loop().create_task(self.redis.publish(channel, text))
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)

    # ------------------------------------------------------------------------------------------ leases
    async def claim(self, table_id: str, floor: int = 0) -> int | None:
        tok = await self._claim(keys=[self.key("lease", table_id), self.key("fence", table_id)],
                                args=[self.node_id, self.lease_ms, int(floor)])
        return None if tok is None else int(tok)

    async def renew(self, table_id: str, token: int) -> bool:
        return bool(await self._renew(keys=[self.key("lease", table_id)],
                                      args=[f"{self.node_id}:{token}", self.lease_ms]))

    async def renew_all(self, leases: list[tuple[str, int]]) -> list[bool]:
        out: list[bool] = []
        for i in range(0, len(leases), 500):  # pipelined: one round trip per 500 tables, however slow the loop
            pipe = self.redis.pipeline(transaction=False)
            for table_id, token in leases[i:i + 500]:
                await self._renew(keys=[self.key("lease", table_id)], args=[f"{self.node_id}:{token}", self.lease_ms],
                                  client=pipe)
            out.extend(bool(x) for x in await pipe.execute())
        return out

    async def release(self, table_id: str, token: int) -> None:
        await self._release(keys=[self.key("lease", table_id)], args=[f"{self.node_id}:{token}"])

    async def owner(self, table_id: str) -> str | None:
        v = await self.redis.get(self.key("lease", table_id))
        return None if v is None else str(v).rsplit(":", 1)[0]

    # ------------------------------------------------------------------------------------------ presence
    async def other_database(self) -> str | None:
        """Why this node may not join (a running node of the cluster runs on another database), or ``None``."""
        ids = sorted(await self.redis.smembers(self.key("nodes")))
        raws = [await self.redis.get(self.key("node", nid)) for nid in ids]
        return database_refusal(zip(ids, raws, strict=True), self.node_id, self.database_id, self.prefix)

    async def heartbeat(self, tables: int) -> None:
        info = json.dumps({"id": self.node_id, "url": self.public_url, "started": self.started, "tables": tables,
                           "database": self.database_id})
        await self.redis.set(self.key("node", self.node_id), info, px=self.lease_ms)
        await self.redis.sadd(self.key("nodes"), self.node_id)

    async def nodes(self) -> list[NodeInfo]:
        out = []
        for nid in sorted(await self.redis.smembers(self.key("nodes"))):
            raw = await self.redis.get(self.key("node", nid))
            if raw is None:
                await self.redis.srem(self.key("nodes"), nid)
                continue
            d = json.loads(raw)
            out.append(NodeInfo(d["id"], d.get("url"), d.get("started", 0.0), d.get("tables", 0)))
        return out

    async def node_url(self, node_id: str) -> str | None:
        raw = await self.redis.get(self.key("node", node_id))
        return None if raw is None else json.loads(raw).get("url")

    # ------------------------------------------------------------------------------------------ directory
    async def set_seat(self, user_id: int, table_id: str | None) -> None:
        k = self.key("seat", str(user_id))
        if table_id is None:
            await self.redis.delete(k)
        else:
            await self.redis.set(k, table_id)

    async def lock_user(self, user_id: int, wait: float) -> str | None:
        token = f"{self.node_id}:{secrets.token_hex(8)}"
        key = self.key("seatlock", str(user_id))
        end = time.monotonic() + wait
        while True:
            if await self.redis.set(key, token, nx=True, px=USER_LOCK_MS):
                return token
            if time.monotonic() >= end:
                return None
            await asyncio.sleep(0.02)

    async def unlock_user(self, user_id: int, token: str) -> None:
        await self._release(keys=[self.key("seatlock", str(user_id))], args=[token])

    async def seat_of(self, user_id: int) -> str | None:
        v = await self.redis.get(self.key("seat", str(user_id)))
        return None if v is None else str(v)

    async def seats_of(self, user_ids: Collection[int]) -> dict[int, str]:
        ids = list(user_ids)
        if not ids:
            return {}
        values = await self.redis.mget([self.key("seat", str(u)) for u in ids])
        return {u: str(v) for u, v in zip(ids, values, strict=True) if v is not None}

    async def set_invite(self, code: str, table_id: str | None) -> None:
        k = self.key("invite", code)
        if table_id is None:
            await self.redis.delete(k)
        else:
            await self.redis.set(k, table_id)

    async def invite(self, code: str) -> str | None:
        v = await self.redis.get(self.key("invite", code))
        return None if v is None else str(v)

    async def advertise(self, table_id: str, summary: dict[str, Any] | None) -> None:
        if summary is None:
            await self.redis.hdel(self.key("tables"), table_id)
        else:
            await self.redis.hset(self.key("tables"), table_id, json.dumps({**summary, "node": self.node_id}))

    async def publish_online(self, user_ids: Collection[int]) -> None:
        k = self.key("online", self.node_id)
        async with self.redis.pipeline(transaction=True) as p:
            p.delete(k)
            if user_ids:
                p.sadd(k, *[str(u) for u in user_ids])
                p.pexpire(k, 3 * self.lease_ms)
            await p.execute()

    async def online_among(self, user_ids: Collection[int]) -> set[int]:
        ids = [str(u) for u in user_ids]
        if not ids:
            return set()
        nodes = [n.id for n in await self.nodes()]
        async with self.redis.pipeline(transaction=False) as p:
            for nid in nodes:
                p.smismember(self.key("online", nid), ids)
            rows = await p.execute()
        return {int(u) for row in rows for u, there in zip(ids, row, strict=True) if there}

    async def publish_directory(self, seats: dict[int, str], invites: dict[str, str]) -> None:
        mapping = {self.key("seat", str(u)): t for u, t in seats.items()}
        mapping.update({self.key("invite", c): t for c, t in invites.items()})
        if mapping:
            await self.redis.mset(mapping)

    async def advertise_all(self, summaries: dict[str, dict[str, Any]]) -> None:
        if summaries:
            await self.redis.hset(self.key("tables"), mapping={
                tid: json.dumps({**summary, "node": self.node_id}) for tid, summary in summaries.items()})

    async def tables(self) -> list[dict[str, Any]]:
        raw = await self.redis.hgetall(self.key("tables"))
        return [json.loads(v) for v in raw.values()]

    # ------------------------------------------------------------------------------------------ calls
    def serve(self, method: str, handler: Rpc) -> None:
        self.handlers[method] = handler

    async def call(self, node_id: str, method: str, args: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
        rid = secrets.token_hex(8)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = fut
        req = json.dumps({"id": rid, "from": self.node_id, "method": method, "args": args})
        try:
            if not await self.redis.publish(self.key("rpc", node_id), req):
                raise ClusterError(f"node {node_id} is not listening")
            rep = await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            raise ClusterError(f"node {node_id} did not answer {method} in {timeout:g} s") from None
        finally:
            self.waiting.pop(rid, None)
        if not rep.get("ok"):
            err = rep.get("error") or {}
            raise RemoteError(str(err.get("code", "server_error")), str(err.get("message", "")),
                              dict(err.get("params") or {}))
        result: dict[str, Any] = rep.get("result") or {}
        return result

    async def _answer(self, req: dict[str, Any]) -> None:
        handler = self.handlers.get(str(req.get("method")))
        rep: dict[str, Any] = {"id": req.get("id")}
        if handler is None:
            rep.update(ok=False, error={"code": "server_error", "message": f"no method {req.get('method')!r}"})
        else:
            try:
                rep.update(ok=True, result=await handler(dict(req.get("args") or {})))
            except RemoteError as e:
                rep.update(ok=False, error={"code": e.code, "message": e.message, "params": e.params})
            except Exception as e:
                code = getattr(e, "code", "server_error")
                rep.update(ok=False, error={"code": code, "message": str(getattr(e, "message", e)),
                                            "params": getattr(e, "params", {})})
        with contextlib.suppress(Exception):
            await self.redis.publish(self.key("reply", str(req.get("from"))), json.dumps(rep, default=str))


class RemoteError(Exception):
    """Another node refused a call; ``code``/``params`` as its error said."""

    def __init__(self, code: str, message: str, params: dict[str, Any]) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params
