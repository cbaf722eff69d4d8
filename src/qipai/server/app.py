"""The Starlette application: JSON API under ``/api/``, each game's own routes under ``/api/games/<game>/``,
the WebSocket at ``/ws``, the browser client at ``/``.

Every response carries the security headers of :data:`SECURITY_HEADERS`.  A state-changing request
(``POST``/``PUT``/``PATCH``/``DELETE``) is refused unless it is JSON (``Content-Type: application/json``) and,
when it names an ``Origin``, comes from this server's own origin or one of ``allowed_origins``: a page on
another site cannot make a logged-in browser act (CSRF).
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from qipai.core.registry import game_names
from qipai.host.director import Director
from qipai.host.lobby import Lobby
from qipai.host.settings import Settings
from qipai.server import api, auth
from qipai.server.jsonin import BadJson, loads_limited
from qipai.server.ws import websocket_endpoint
from qipai.store import Store

log = logging.getLogger("qipai.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>qipai</title>
<h1>qipai 棋牌</h1><p>The server is running; the browser client is not installed.
See <a href="/api/rooms">/api/rooms</a> and docs/protocol.md.</p>"""

SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "media-src 'self' data: blob:; connect-src 'self'; font-src 'self' data:; object-src 'none'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
}
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _refusal(code: str, message: str, status: int) -> Response:
    resp = JSONResponse({"error": {"code": code, "message": message, "params": {}}}, status_code=status)
    return resp


class Guard:
    """ASGI middleware: security headers on every HTTP response; CSRF and content-type checks on state-changing
    requests."""

    def __init__(self, app: ASGIApp, allowed_origins: tuple[str, ...]) -> None:
        self.app = app
        self.allowed = allowed_origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                hs = list(message.get("headers", []))
                have = {k.decode("latin-1").lower() for k, _ in hs}
                for k, v in SECURITY_HEADERS.items():
                    if k not in have:
                        hs.append((k.encode(), v.encode()))
                message["headers"] = hs
            await send(message)

        if scope["method"] in STATE_CHANGING:
            refusal = self._refuse(headers)
            if refusal is not None:
                await refusal(scope, receive, send_with_headers)
                return
        await self.app(scope, receive, send_with_headers)

    def _refuse(self, headers: dict[str, str]) -> Response | None:
        origin = headers.get("origin")
        if origin is not None and origin != "null" and origin not in self.allowed:
            if urlsplit(origin).netloc != headers.get("host", ""):
                return _refusal("bad_origin", "this request comes from another site: refused", 403)
        elif origin == "null":
            return _refusal("bad_origin", "this request comes from an opaque origin: refused", 403)
        ctype = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if ctype != "application/json":
            return _refusal("not_json", "send JSON: Content-Type: application/json", 415)
        return None


async def _placeholder(_request: object) -> Response:
    return HTMLResponse(PLACEHOLDER)


async def _api_not_found(_request: object) -> Response:
    return JSONResponse({"error": {"code": "not_found", "message": "no such API endpoint", "params": {}}},
                        status_code=404)


def _game_route(game: str, name: str, fn: Any) -> Route:
    """``POST /api/games/<game>/<name>``: a game's pure JSON route (a ``ValueError`` is a 400)."""

    async def endpoint(request: Request) -> Response:
        raw = await api.read_limited(request, 8192)
        if raw is None:
            return _refusal("too_large", "request body too large", 413)
        try:
            data = loads_limited(raw or b"{}")
        except BadJson as e:
            return _refusal("bad_json", f"the body is not valid JSON: {e}", 400)
        if not isinstance(data, dict):
            return _refusal("bad_json", "the body must be a JSON object", 400)
        try:
            return JSONResponse(fn(data))
        except ValueError as e:
            return _refusal("bad_request", str(e), 400)

    return Route(f"/api/games/{game}/{name}", endpoint, methods=["POST"])


def game_routes(settings: Settings) -> list[BaseRoute]:
    """Each registered game's own routes (its :attr:`~qipai.core.game.GameInfo.routes` module's ``ROUTES``)."""
    out: list[BaseRoute] = []
    for game in game_names():
        try:
            info = settings.games(game).info
        except Exception:
            log.exception("game %s could not be loaded", game)
            continue
        if info.routes:
            module = importlib.import_module(info.routes)
            for name, fn in getattr(module, "ROUTES", {}).items():
                out.append(_game_route(game, name, fn))
    return out


def create_app(settings: Settings | None = None) -> Starlette:
    """The server application.  The database is opened (and migrated) and unfinished deals are restored
    from the journal when the app starts; everything is closed when it stops."""
    settings = settings or Settings.from_env()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        url = settings.db_url()
        if url.startswith("sqlite") and not settings.database_url:
            settings.data_dir.mkdir(parents=True, exist_ok=True)
        store = await Store.open(url, schema=settings.database_schema, busy_ms=settings.sqlite_busy_ms)
        try:
            await store.hold(alone=settings.redis_url is None, cluster=settings.cluster_key())
        except BaseException:
            await store.close()
            raise
        lobby = Lobby(settings, store)
        app.state.store = store
        app.state.lobby = lobby
        app.state.auth_limiter = auth.RateLimiter(settings.auth_rate_limit, settings.auth_rate_limit * 20)
        app.state.ws_per_address = {}
        app.state.invite_misses = auth.invite_limiter()
        shared = getattr(lobby.cluster, "redis", None)  # several nodes: one count for all of them
        app.state.login_backoff = auth.SharedLoginBackoff(shared, settings.redis_prefix, settings.login_backoff_after) \
            if lobby.cluster.networked and shared is not None else auth.LoginBackoff(settings.login_backoff_after)
        await lobby.start()
        director = Director(lobby)
        lobby.director = director
        app.state.director = director
        await director.start()
        # Many long-lived objects (connections, tables): move them out of the collector's way and collect less
        # often, so full collections do not stall every table at once.
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 20, 50)
        log.info("qipai server ready (%s)", url.split("@")[-1])
        try:
            yield
        finally:
            await director.stop()
            await lobby.stop()
            await store.close()

    routes: list[BaseRoute] = [
        *api.routes,
        *game_routes(settings),
        Route("/api/{rest:path}", _api_not_found, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
        WebSocketRoute("/ws", websocket_endpoint),
    ]
    static = settings.static_dir or WEB_DIR
    if static.is_dir() and any(static.iterdir()):
        routes.append(Mount("/", StaticFiles(directory=static, html=True), name="web"))
    else:
        routes.append(Route("/", _placeholder))
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(Guard, allowed_origins=settings.allowed_origins)
    app.state.settings = settings
    return app
