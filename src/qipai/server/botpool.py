"""Bots thinking in worker processes, so a slow bot never holds up other tables (``--bot-processes``)."""

from __future__ import annotations

from typing import Any

from qipai.server.settings import Bot, BotLookup

_bots: dict[tuple[str, int], Bot] = {}


def remote_act(lookup: BotLookup, name: str, seed: int, observation: dict[str, Any], legal: list[str]) -> str:
    """Run in a worker process: the bot ``(name, seed)`` (kept between calls) chooses an action."""
    bot = _bots.get((name, seed))
    if bot is None:
        if len(_bots) > 5000:
            _bots.clear()
        bot = _bots[(name, seed)] = lookup(name, seed)
    return bot.act(observation, legal)
