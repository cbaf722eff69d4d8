"""Bots thinking in worker processes, so a slow bot never holds up other tables (``--bot-processes``)."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import os
import threading
import time
from collections.abc import Awaitable, Callable
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
               legal: list[str], hurry: bool = False) -> tuple[str, float]:
    """Run in a worker process: the bot ``(game, name, seed)`` (kept between calls) chooses an action; in a
    ``hurry`` (the server is behind) by its quick answer where it has one (:func:`act_in_hurry`).  Returns the
    action and the seconds the bot took over it (its making not counted)."""
    key = (game, name, seed)
    bot = _bots.get(key)
    if bot is None:
        if len(_bots) > 5000:
            _bots.clear()
        bot = _bots[key] = lookup(game, name, seed)
    t0 = time.perf_counter()
    action = act_in_hurry(bot, observation, legal) if hurry else bot.act(observation, legal)
    return action, time.perf_counter() - t0


def act_in_hurry(bot: Bot, observation: dict[str, Any], legal: list[str]) -> str:
    """The bot's answer in a few milliseconds: its ``act_quickly`` (a strong bot's choice without its search,
    e.g. the learned values without their rollouts), else its ordinary ``act``."""
    quick = getattr(bot, "act_quickly", None)
    return str(quick(observation, legal)) if callable(quick) else bot.act(observation, legal)


SLOW = 0.05
"""Seconds a bot's decision takes on average above which it is a slow bot (queued behind the quick ones)."""
HURRY_AFTER = 1.0
"""Seconds a slow bot's decision may wait for a worker before it is made in a hurry (:func:`act_in_hurry`)."""


class BotQueue:
    """Bot decisions waiting for the worker processes, at most ``slots`` of them running at once.

    The next to run is a quick bot's (one whose decisions took under :data:`SLOW` seconds on average) before a
    slow one's, each kind in the order they came: a table of ordinary bots never waits behind a queue of
    strong bots' half-second searches.  A slow bot's decision that waited :data:`HURRY_AFTER` seconds, or so
    long that its usual time would take it past half its ``budget``, is made in a hurry: the server answers
    late players' tables with a weaker move rather than with a time-out.  Decisions whose caller gave up
    (its budget spent) are dropped unrun."""

    def __init__(self, slots: int, budget: float) -> None:
        self.slots = slots
        self.budget = budget
        self.running = 0
        self.waiting: list[tuple[int, int, float, str, Callable[[bool], Awaitable[tuple[str, float]]],
                                 asyncio.Future[str]]] = []
        self.took: dict[str, float] = {}
        """An average of each bot's decision time, in seconds (what decides quick or slow)."""
        self.hurried = 0
        """Decisions made in a hurry so far."""
        self._order = itertools.count()
        self._tasks: set[asyncio.Future[None]] = set()

    def slow(self, name: str) -> bool:
        return self.took.get(name, 0.0) >= SLOW

    async def run(self, name: str, work: Callable[[bool], Awaitable[tuple[str, float]]]) -> str:
        """``work(hurry)`` in its turn: the bot's decision and the seconds it took."""
        fut: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        heapq.heappush(self.waiting, (int(self.slow(name)), next(self._order), time.monotonic(), name, work, fut))
        self._next()
        return await fut

    def _next(self) -> None:
        while self.running < self.slots and self.waiting:
            _, _, queued, name, work, fut = heapq.heappop(self.waiting)
            if fut.done():  # its caller stopped waiting
                continue
            waited = time.monotonic() - queued
            hurry = self.slow(name) and (waited >= HURRY_AFTER or waited + self.took[name] > self.budget / 2)
            self.hurried += hurry
            self.running += 1
            task = asyncio.ensure_future(self._one(name, work, hurry, fut))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _one(self, name: str, work: Callable[[bool], Awaitable[tuple[str, float]]], hurry: bool,
                   fut: asyncio.Future[str]) -> None:
        try:
            action, took = await work(hurry)
        except asyncio.CancelledError:
            fut.cancel()
            raise
        except Exception as e:
            if not fut.done():
                fut.set_exception(e)
        else:
            if not hurry:
                self.took[name] = took if name not in self.took else (self.took[name] + took) / 2
            if not fut.done():
                fut.set_result(action)
        finally:
            self.running -= 1
            self._next()
