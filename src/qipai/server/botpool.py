"""Bots thinking in worker processes, so a slow bot never holds up other tables (``--bot-processes``)."""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from qipai.server.settings import Bot, BotLookup

_bots: dict[tuple[str, int], Bot] = {}


def init_worker(parent: int) -> None:
    """Worker start-up: exit when the server process is gone (even killed), never lingering as an orphan."""

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(0)
            time.sleep(1.0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def remote_act(lookup: BotLookup, name: str, seed: int, observation: dict[str, Any], legal: list[str]) -> str:
    """Run in a worker process: the bot ``(name, seed)`` (kept between calls) chooses an action."""
    bot = _bots.get((name, seed))
    if bot is None:
        if len(_bots) > 5000:
            _bots.clear()
        bot = _bots[(name, seed)] = lookup(name, seed)
    return bot.act(observation, legal)
