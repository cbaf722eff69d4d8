"""The multiplayer server: Starlette on uvicorn, JSON API under ``/api/``, WebSocket protocol at ``/ws``.

Start it with ``qipai serve`` or :func:`serve`; embed it with :func:`create_app`.  The server is a thin shell:
a table runs a game through :class:`~qipai.core.game.Game` only, and the rules decide everything.
"""

from qipai.host.settings import Room, Settings
from qipai.server.app import create_app
from qipai.server.run import serve

__all__ = ["Room", "Settings", "create_app", "serve"]
