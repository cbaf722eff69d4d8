"""The WebSocket endpoint ``/ws``: one :class:`Connection` per socket (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketDisconnect

from qipai.server import auth
from qipai.server.jsonenc import dumps
from qipai.server.protocol import (
    Action,
    Autoplay,
    CreateTable,
    FillBots,
    Join,
    Leave,
    Ping,
    ProtocolError,
    QuickMatch,
    Snapshot,
    Spectate,
    Unspectate,
    parse_client,
)
from qipai.server.table import TableError
from qipai.store import UserInfo

if TYPE_CHECKING:
    from qipai.server.lobby import Lobby

log = logging.getLogger("qipai.server.ws")

QUEUE_LIMIT = 5000


class Connection:
    """One WebSocket: numbers every outgoing message and sends them in order from its own writer task."""

    def __init__(self, ws: WebSocket, user: UserInfo, lobby: Lobby) -> None:
        self.ws = ws
        self.user = user
        self.lobby = lobby
        s = lobby.settings
        self.bucket = auth.Bucket(s.rate_limit, s.rate_burst)
        self.seq = 0
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.spectating: set[str] = set()
        self.closed = False
        self.refused = 0

    def send(self, msg: dict[str, Any]) -> None:
        self.send_body(dumps(msg))

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

    def error(self, code: str, message: str, ref: Any = None) -> None:
        self.send({"type": "error", "code": code, "message": message, "ref": ref})

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    async def writer(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    with contextlib.suppress(Exception):
                        await self.ws.close(1008)
                    return
                await self.ws.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed = True


def _origin_ok(ws: WebSocket, allowed: tuple[str, ...]) -> bool:
    origin = ws.headers.get("origin")
    if not origin:
        return True  # not a browser
    if origin in allowed:
        return True
    host = ws.headers.get("host", "")
    return urlsplit(origin).netloc == host


async def websocket_endpoint(ws: WebSocket) -> None:
    lobby: Lobby = ws.app.state.lobby
    if not _origin_ok(ws, lobby.settings.allowed_origins):
        await ws.close(4403)
        return
    token = auth.token_from(ws.headers, ws.cookies, ws.query_params)
    user = await lobby.store.user_for_token(auth.token_hash(token)) if token else None
    await ws.accept()
    if user is None:
        await ws.send_text(
            json.dumps(
                {
                    "v": 1,
                    "seq": 1,
                    "type": "error",
                    "code": "unauthorized",
                    "message": "log in first: send the session cookie, a bearer token or ?token=",
                    "ref": None,
                }
            )
        )
        await ws.close(4401)
        return
    conn = Connection(ws, user, lobby)
    writer = asyncio.create_task(conn.writer(), name=f"ws-writer-{user.id}")
    try:
        await lobby.connect(conn)
        while not conn.closed:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            text = msg.get("text")
            if text is None:
                text = (msg.get("bytes") or b"").decode("utf-8", "replace")
            await handle(conn, text)
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
        elif conn.refused == 1 or conn.refused % 20 == 0:
            conn.error("rate_limited", f"slow down: at most {s.rate_limit:g} messages a second")
        return
    if len(text) > s.max_message_bytes:
        conn.refused += 1
        conn.error("too_large", f"a message is at most {s.max_message_bytes} bytes")
        return
    ref: Any = None
    try:
        try:
            raw = json.loads(text)
        except ValueError as e:
            raise ProtocolError("bad_json", f"not valid JSON: {e}") from None
        msg = parse_client(raw)
        ref = msg.id
        await dispatch(conn, msg)
        conn.refused = 0
    except ProtocolError as e:
        conn.refused += 1
        conn.error(e.code, e.message, e.ref)
    except TableError as e:
        conn.error(e.code, e.message, ref)
    except Exception:
        log.exception("message from user %s failed: %.200s", conn.user.id, text)
        conn.error("server_error", "the server failed on this message; nothing was changed", ref)


async def dispatch(conn: Connection, msg: Any) -> None:
    lobby = conn.lobby
    uid = conn.user.id
    ref = msg.id
    match msg:
        case Ping():
            conn.send({"type": "pong", "ref": ref})
        case Action():
            t = lobby.table(msg.table)
            async with t.lock:
                await t.client_action(uid, msg.deal, msg.version, msg.action)
        case Autoplay():
            t = lobby.table(msg.table)
            async with t.lock:
                await t.set_autoplay(uid, msg.on)
        case Snapshot():
            t = lobby.table(msg.table)
            seat = t.seat_of(uid)
            if seat is None and conn not in t.spectators:
                raise TableError("not_at_table", "you neither sit at nor watch this table")
            async with t.lock:
                conn.send(t.snapshot(seat, ref))
        case QuickMatch():
            t, seat = await lobby.quick_match(uid, msg.room)
            lobby.announce_seat(uid, t, seat, conn, ref)
        case CreateTable():
            t, seat = await lobby.create_private(uid, msg.room, msg.options, msg.fill_bots_after, msg.autoplay_bot)
            lobby.announce_seat(uid, t, seat, conn, ref)
        case Join():
            t, seat = await lobby.join_invite(uid, msg.invite)
            lobby.announce_seat(uid, t, seat, conn, ref)
        case Leave():
            await lobby.leave(uid, msg.table, conn, ref)
        case Spectate():
            await lobby.spectate(conn, msg.table, msg.invite, ref)
        case Unspectate():
            lobby.unspectate(conn, msg.table)
            conn.send({"type": "left", "table": msg.table, "reason": "unspectated", "ref": ref})
        case FillBots():
            t = lobby.table(msg.table)
            async with t.lock:
                await t.fill_bots_now(uid)
        case _:  # pragma: no cover - parse_client only returns the types above
            raise ProtocolError("unknown_type", "unknown message type", ref)
