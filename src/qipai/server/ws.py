"""The WebSocket endpoint ``/ws``: one :class:`Connection` per socket (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketDisconnect

from qipai.host.cluster import CLUSTER_UNREACHABLE
from qipai.host.jsonenc import dumps
from qipai.host.table import TableError
from qipai.server import auth
from qipai.server.jsonin import BadJson, loads_limited
from qipai.server.protocol import (
    Action,
    Auth,
    Autoplay,
    Chat,
    Check,
    CreateTable,
    FillBots,
    Join,
    Leave,
    MatchUnwatch,
    MatchWatch,
    Ping,
    Prefs,
    ProtocolError,
    QuickMatch,
    Ready,
    Snapshot,
    Spectate,
    TakeOver,
    Unspectate,
    parse_client,
    ref_of,
)
from qipai.store import UserInfo

if TYPE_CHECKING:
    from qipai.host.lobby import Lobby

log = logging.getLogger("qipai.server.ws")

QUEUE_LIMIT = 5000


class Connection:
    """One WebSocket: numbers every outgoing message and sends them in order from its own writer task.

    ``token_hash`` is the session it was opened with (logging out closes it); ``active`` is whether it controls
    the user's seat (the newest connection of a user does; an older one is told it was taken over)."""

    def __init__(self, ws: WebSocket, user: UserInfo, lobby: Lobby, token_hash: str,
                 expires_at: datetime | None = None) -> None:
        self.ws = ws
        self.user = user
        self.lobby = lobby
        self.token_hash = token_hash
        self.expires_at = expires_at
        self.opened = time.monotonic()
        self.active = True
        s = lobby.settings
        self.bucket = auth.Bucket(s.rate_limit, s.rate_burst)
        self.seq = 0
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.spectating: set[str] = set()
        self.closed = False
        self.refused = 0

    def send(self, msg: dict[str, Any]) -> None:
        try:
            body = dumps(msg)
        except Exception:
            log.exception("could not encode a message for user %s; closing the connection", self.user.id)
            self.close()
            return
        self.send_body(body)

    def send_body(self, body: str) -> None:
        """Queue a message given as a JSON object text without ``v``/``seq`` (added here)."""
        if self.closed:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            log.warning("connection of user %s is not reading; closing it", self.user.id)
            self.close()
            return
        self.seq += 1
        self.queue.put_nowait(f'{{"v":1,"seq":{self.seq},{body[1:]}')

    def error(self, code: str, message: str, ref: Any = None, params: dict[str, Any] | None = None) -> None:
        self.send({"type": "error", "code": code, "message": message, "params": params or {}, "ref": ref})

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    async def writer(self) -> None:
        """Send queued messages in order; a failure closes the socket (and says why in the log)."""
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    with contextlib.suppress(Exception):
                        await self.ws.close(1008 if not self.lobby.closing else 1001)
                    return
                await self.ws.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed = True
        except Exception:
            log.exception("connection of user %s: sending failed; closing it", self.user.id)
            self.closed = True
            with contextlib.suppress(Exception):
                await self.ws.close(1011)


def _origin_ok(ws: WebSocket, allowed: tuple[str, ...]) -> bool:
    origin = ws.headers.get("origin")
    if not origin:
        return True  # not a browser
    if origin in allowed:
        return True
    host = ws.headers.get("host", "")
    return urlsplit(origin).netloc == host


async def _first_message_token(ws: WebSocket, timeout: float) -> str | None:
    """The token of an ``auth`` first message (non-browser clients) sent within ``timeout`` s, or ``None``."""
    try:
        msg = await asyncio.wait_for(ws.receive(), timeout)
    except TimeoutError:
        return None
    if msg["type"] != "websocket.receive":
        return None
    text = _frame_text(msg)
    if len(text) > 1024:
        return None
    try:
        data = loads_limited(text)
    except BadJson:
        return None
    if isinstance(data, dict) and data.get("type") == "auth" and isinstance(data.get("token"), str):
        return str(data["token"])[:200]
    return None


def _frame_text(msg: Any) -> str:
    """A received frame as text: a binary frame is read as UTF-8, as the first (``auth``) message too (it was
    refused there, though taken after)."""
    text = msg.get("text")
    return text if text is not None else (msg.get("bytes") or b"").decode("utf-8", "replace")


async def _refuse(ws: WebSocket, code: str, message: str, close: int) -> None:
    """Say why and close; a client already gone (closed before logging in, or cut off for a frame too large)
    is no error of ours: nothing is logged."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await ws.send_text(json.dumps({"v": 1, "seq": 1, "type": "error", "code": code, "message": message,
                                       "params": {}, "ref": None}))
        await ws.close(close)


async def websocket_endpoint(ws: WebSocket) -> None:
    """``/ws``: a browser authenticates with its session cookie; other clients send ``Authorization: Bearer``
    or, as their first message, ``{"type": "auth", "token": ...}``.  A token in the URL is not read: URLs end
    up in logs."""
    lobby: Lobby = ws.app.state.lobby
    if not _origin_ok(ws, lobby.settings.allowed_origins):
        await ws.close(4403)
        return
    address = auth.address_key(ws.client.host) if ws.client else "?"
    open_here: dict[str, int] = ws.app.state.ws_per_address
    if open_here.get(address, 0) >= lobby.settings.max_address_connections:
        await ws.accept()
        await _refuse(ws, "too_many_connections",
                      f"this address has {lobby.settings.max_address_connections} connections open already: "
                      "close some first", 4429)
        return
    open_here[address] = open_here.get(address, 0) + 1
    try:
        await _serve(ws, lobby)
    finally:
        left = open_here.get(address, 1) - 1
        if left > 0:
            open_here[address] = left
        else:
            open_here.pop(address, None)


async def _serve(ws: WebSocket, lobby: Lobby) -> None:
    """A WebSocket from an address within its limit: authenticate it, then read its messages until it closes."""
    token = auth.token_from(ws.headers, ws.cookies)
    await ws.accept()
    if token is None:
        token = await _first_message_token(ws, lobby.settings.ws_auth_timeout)
    found = await lobby.store.token_info(auth.token_hash(token)) if token else None
    if found is None:
        await _refuse(ws, "unauthorized",
                      "log in first: send the session cookie, an Authorization: Bearer header, or "
                      '{"type": "auth", "token": "..."} as the first message', 4401)
        return
    user, expires = found
    if user.blocked:  # its sessions were dropped as it was blocked: one that slipped through
        await _refuse(ws, "account_blocked", "this account is blocked by the server's operator", 4403)
        return
    most = lobby.settings.max_user_connections
    if len(lobby.conns_of(user.id)) >= most:
        await _refuse(ws, "too_many_connections",
                      f"this account has {most} connections open already (windows, tabs or devices): close one "
                      "first", 4429)
        return
    conn = Connection(ws, user, lobby, auth.token_hash(token or ""), expires)
    writer = asyncio.create_task(conn.writer(), name=f"ws-writer-{user.id}")
    try:
        try:
            await lobby.connect(conn)
        except CLUSTER_UNREACHABLE as e:
            log.warning("connection of user %s: the cluster cannot be reached: %s", user.id, e)
            conn.error("server_busy", "the server cannot reach the other servers now; connect again in a moment")
            conn.close()
        while not conn.closed:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            await handle(conn, _frame_text(msg))
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("connection of user %s failed", user.id)
    finally:
        conn.closed = True
        conn.queue.put_nowait(None)
        try:
            await lobby.disconnect(conn)
        except Exception:
            log.exception("disconnect of user %s failed", user.id)
        try:
            await asyncio.wait_for(writer, 1.0)
        except (TimeoutError, asyncio.CancelledError, Exception):
            writer.cancel()


async def handle(conn: Connection, text: str) -> None:
    """Check, parse and carry out one client message; every refusal is an ``error`` message."""
    s = conn.lobby.settings
    if not conn.bucket.take():
        conn.refused += 1
        if conn.refused >= s.flood_close:
            conn.error("flood", "too many messages: closing this connection")
            conn.close()
        else:  # every refused message is answered, naming its id where it is plain to read
            conn.error("rate_limited", f"slow down: at most {s.rate_limit:g} messages a second",
                       _plain_ref(text, s.max_message_bytes))
        return
    if len(text) > s.max_message_bytes or len(text.encode("utf-8", "surrogatepass")) > s.max_message_bytes:
        conn.refused += 1
        conn.error("too_large", f"a message is at most {s.max_message_bytes} bytes",
                   params={"limit": s.max_message_bytes})
        return
    ref: Any = None
    try:
        try:
            raw = loads_limited(text)
        except BadJson as e:
            raise ProtocolError("bad_json", str(e)) from None
        msg = parse_client(raw)
        ref = msg.id
        await dispatch(conn, msg)
        conn.refused = 0
    except ProtocolError as e:
        conn.refused += 1
        conn.error(e.code, e.message, e.ref)
    except TableError as e:
        if e.code == "unknown_table" and isinstance(e.params.get("table"), str):
            e = await conn.lobby.elsewhere(e.params["table"]) or e  # it runs on another node: go there
        conn.error(e.code, e.message, ref, e.params)
    except CLUSTER_UNREACHABLE as e:
        log.warning("message from user %s: the cluster cannot be reached: %s", conn.user.id, e)
        conn.error("server_busy", "the server cannot reach the other servers now; nothing was changed: try again",
                   ref)
    except Exception:
        log.exception("message from user %s failed: %.200s", conn.user.id, text)
        conn.error("server_error", "the server failed on this message; nothing was changed", ref)


def _plain_ref(text: str, limit: int) -> Any:
    """The ``id`` of a message refused before it is read (too fast), where the text is within the size limit,
    valid JSON and an object; else ``None``."""
    if len(text) > limit:
        return None
    try:
        raw = loads_limited(text)
    except BadJson:
        return None
    return ref_of(raw.get("id")) if isinstance(raw, dict) else None


@contextlib.contextmanager
def _invite_guess(conn: Connection, miss: str) -> Iterator[None]:
    """Refuse a client address that tried too many wrong invite codes (``api._invite_guess``); count a wrong
    one (a refusal with the code ``miss``)."""
    limiter: auth.RateLimiter | None = getattr(conn.ws.app.state, "invite_misses", None)
    client = conn.ws.client
    address = auth.address_key(client.host) if client else "?"
    if limiter is not None and limiter.blocked(address):
        raise TableError("rate_limited", "too many wrong invite codes: wait a little")
    try:
        yield
    except TableError as e:
        if limiter is not None and e.code == miss:
            limiter.allow(address)
        raise


SEAT_CONTROL = (Action, Autoplay, QuickMatch, CreateTable, Join, Leave, FillBots, Ready, Chat)
"""Messages only the connection that controls the user's seat may send."""


async def dispatch(conn: Connection, msg: Any) -> None:
    lobby = conn.lobby
    uid = conn.user.id
    ref = msg.id
    if isinstance(msg, SEAT_CONTROL) and not conn.active:
        raise TableError("taken_over", "another window of yours controls your seat now: send take_over to "
                                       "take it back")
    match msg:
        case Ping():
            conn.send({"type": "pong", "ref": ref})
        case Auth():
            if auth.token_hash(msg.token) != conn.token_hash:  # the same session again is harmless
                raise TableError("already_authenticated", "this connection is logged in already: open a new "
                                                          "connection to use another session")
            conn.send({"type": "pong", "ref": ref})
        case TakeOver():
            lobby.take_over(conn)
            conn.send({"type": "took_over", "ref": ref})
            cur = lobby._current(uid)
            if cur is not None:
                t = cur[0]
                async with t.lock:
                    conn.send(t.snapshot(t.seat_of(uid), ref))
        case Action():
            t = lobby.table(msg.table)
            async with t.lock:
                await t.client_action(uid, msg.deal, msg.version, msg.action, msg.decision)
        case Check():
            t = lobby.table(msg.table)
            async with t.lock:
                reason = await t.check_action(uid, msg.action)
            conn.send({"type": "checked", "ref": ref, "action": msg.action, "legal": reason is None,
                       "reason": reason})
        case Autoplay():
            t = lobby.table(msg.table)
            async with t.lock:
                await t.set_autoplay(uid, msg.on)
        case Snapshot():
            t = lobby.table(msg.table)
            seat = t.player_seat(uid)  # a seat left for the rest of a match is not the user's to see
            if seat is None and conn not in t.spectators:
                raise TableError("not_at_table", "you neither sit at nor watch this table")
            async with t.lock:
                conn.send(t.snapshot(seat, ref))
        case QuickMatch():
            where, seat = await lobby.quick_match(uid, msg.room)
            lobby.announce_seat(uid, where, seat, conn, ref)
        case CreateTable():
            t, seat = await lobby.create_private(uid, msg.room, msg.options, msg.fill_bots_after, msg.autoplay_bot,
                                                 msg.for_points, msg.seat_bot, msg.deals)
            lobby.announce_seat(uid, t, seat, conn, ref)
        case Join():
            with _invite_guess(conn, "unknown_invite"):
                where, seat = await lobby.join_invite(uid, msg.invite)
            lobby.announce_seat(uid, where, seat, conn, ref)
        case Leave():
            await lobby.leave(uid, msg.table, conn, ref)
        case Spectate() if msg.invite is not None:
            with _invite_guess(conn, "private_table"):
                await lobby.spectate(conn, msg.table, msg.invite, ref)
        case Spectate():
            await lobby.spectate(conn, msg.table, msg.invite, ref)
        case Unspectate():
            if msg.table not in conn.spectating:
                watched = lobby.tables.get(msg.table)
                if watched is not None and watched.seat_of(uid) is not None:
                    raise TableError("seated_here", "you sit at this table: leave it instead", table=msg.table)
                raise TableError("not_at_table", "you are not watching this table", table=msg.table)
            lobby.unspectate(conn, msg.table)
            conn.send({"type": "left", "table": msg.table, "reason": "unspectated", "ref": ref})
        case Ready():
            t = lobby.table(msg.table)
            async with t.lock:
                await t.set_ready(uid)
        case Chat():
            async def blockers() -> set[int]:
                try:  # whoever blocked the sender does not get his chat (the store says, whichever node asks)
                    return await lobby.store.blockers_of(uid)
                except Exception as e:  # the database away: the chat goes, and the clients mute it as before
                    log.warning("chat: could not read who blocked user %d: %s", uid, e)
                    return set()

            await lobby.table(msg.table).chat(uid, msg.phrase, blockers)
        case Prefs():
            lobby.set_prefs(uid, {k: v for k, v in (("auto_pass", msg.auto_pass),) if v is not None})
            conn.send({"type": "pong", "ref": ref})
        case MatchWatch():
            run = lobby.director.run_of(msg.match)
            run.watchers.add(conn)
            conn.send({"type": "match_standings", "ref": ref, **lobby.director.standings_view(run)})
        case MatchUnwatch():
            run = lobby.director.run_of(msg.match)
            run.watchers.discard(conn)
            conn.send({"type": "pong", "ref": ref})
        case FillBots():
            t = lobby.table(msg.table)
            async with t.lock:
                await t.fill_bots_now(uid)
        case _:  # pragma: no cover - parse_client only returns the types above
            raise ProtocolError("unknown_type", "unknown message type", ref)
