"""Running the server under uvicorn: :func:`serve` (blocking) and :class:`Server` (embedding, tests)."""

from __future__ import annotations

import socket
from typing import Any

import uvicorn

from qipai.server.app import create_app
from qipai.server.settings import Settings


class Server(uvicorn.Server):
    """uvicorn's server, telling the lobby it is closing before connections drop, so a shutdown does not put
    every player into auto-play: their deals are restored as they were at the next start."""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        app: Any = self.config.app
        lobby = getattr(getattr(app, "state", None), "lobby", None)
        if lobby is not None:
            lobby.closing = True
        await super().shutdown(sockets)


def make_config(settings: Settings, **kwargs: Any) -> uvicorn.Config:
    return uvicorn.Config(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        ws_max_size=max(65536, settings.max_message_bytes * 2),
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        ws_per_message_deflate=settings.ws_compression,
        timeout_graceful_shutdown=5,
        lifespan="on",
        **kwargs,
    )


def serve(settings: Settings | None = None, **overrides: Any) -> None:
    """Run the server until interrupted.  ``overrides`` are :class:`Settings` fields (from CLI flags);
    unset ones come from ``QIPAI_*`` environment variables, then the defaults."""
    settings = settings or Settings.from_env(**overrides)
    Server(make_config(settings)).run()
