"""The Starlette application: JSON API under ``/api/``, WebSocket at ``/ws``, browser client at ``/``."""

from __future__ import annotations

import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from qipai.server import api, auth, webapi
from qipai.server.lobby import Lobby
from qipai.server.settings import Settings
from qipai.server.ws import websocket_endpoint
from qipai.store import Store

log = logging.getLogger("qipai.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>qipai</title>
<h1>qipai 棋牌</h1><p>The server is running; the browser client is not installed.
See <a href="/api/rooms">/api/rooms</a> and docs/protocol.md.</p>"""


async def _placeholder(_request: object) -> Response:
    return HTMLResponse(PLACEHOLDER)


async def _api_not_found(_request: object) -> Response:
    return JSONResponse({"error": {"code": "not_found", "message": "no such API endpoint"}}, status_code=404)


def create_app(settings: Settings | None = None) -> Starlette:
    """The server application.  The database is opened (and migrated) and unfinished deals are restored
    from the journal when the app starts; everything is closed when it stops."""
    settings = settings or Settings.from_env()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        url = settings.db_url()
        if url.startswith("sqlite") and not settings.database_url:
            settings.data_dir.mkdir(parents=True, exist_ok=True)
        store = await Store.open(url, schema=settings.database_schema)
        lobby = Lobby(settings, store)
        app.state.store = store
        app.state.lobby = lobby
        app.state.auth_limiter = auth.RateLimiter(settings.auth_rate_limit, settings.auth_rate_limit * 20)
        await lobby.start()
        # Many long-lived objects (connections, tables): move them out of the collector's way and collect less
        # often, so full collections do not stall every table at once.
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 20, 50)
        log.info("qipai server ready (%s)", url.split("@")[-1])
        try:
            yield
        finally:
            await lobby.stop()
            await store.close()

    routes: list[BaseRoute] = [
        *api.routes,
        *webapi.routes,
        Route("/api/{rest:path}", _api_not_found, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
        WebSocketRoute("/ws", websocket_endpoint),
    ]
    static = settings.static_dir or WEB_DIR
    if static.is_dir() and any(static.iterdir()):
        routes.append(Mount("/", StaticFiles(directory=static, html=True), name="web"))
    else:
        routes.append(Route("/", _placeholder))
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.settings = settings
    return app
