"""Bots thinking in worker processes, so a slow bot never holds up other tables (``--bot-processes``)."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from typing import Any

from qipai.host.settings import Bot, BotLookup, GameLookup

_bots: dict[tuple[str, str, int], Bot] = {}


def init_worker(parent: int) -> None:
    """Worker start-up: exit when the server process is gone (even killed), never lingering as an orphan."""

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(0)
            time.sleep(1.0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def init_background(parent: int) -> None:
    """A worker for slow background work (deal reviews): lowest priority, so live tables' bots come first."""
    init_worker(parent)
    with contextlib.suppress(OSError):
        os.nice(19)


def remote_review(lookup: GameLookup, game: str, record: dict[str, Any], seat: int, samples: int) -> dict[str, Any]:
    """Run in a background worker: the game's review of a finished deal."""
    review: Any = lookup(game).review  # type: ignore[attr-defined]
    result: dict[str, Any] = review(record, seat, samples)
    return result


def remote_act(lookup: BotLookup, game: str, name: str, seed: int, observation: dict[str, Any],
               legal: list[str]) -> str:
    """Run in a worker process: the bot ``(game, name, seed)`` (kept between calls) chooses an action."""
    key = (game, name, seed)
    bot = _bots.get(key)
    if bot is None:
        if len(_bots) > 5000:
            _bots.clear()
        bot = _bots[key] = lookup(game, name, seed)
    return bot.act(observation, legal)
