"""The server runs any game behind the TurnGame interface: a tiny counting game plugs in unchanged."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from server_helpers import Client, StartServer

from qipai.game import IllegalAction, TurnGame
from qipai.games import get_factory
from qipai.server.settings import Room


class CountGame:
    """Seats take turns adding 1 or 2 to a total; whoever reaches 10 wins.  Each seat holds a secret."""

    def __init__(self, seed: int, players: int = 3) -> None:
        rng = random.Random(seed)
        self.n = players
        self.total = 0
        self.turn = 0
        self.auto = [False] * players
        self.secrets = [rng.randrange(1000) for _ in range(players)]
        self.actions: list[dict[str, Any]] = []
        self.seed = seed

    players = property(lambda self: self.n)
    phase = property(lambda self: "over" if self.is_over else "count")
    to_act = property(lambda self: None if self.is_over else self.turn)
    is_over = property(lambda self: self.total >= 10)

    def legal_actions(self) -> list[str]:
        return [] if self.is_over else ["add 1", "add 2"]

    def apply(self, action: str, seat: int | None = None) -> None:
        seat = self.turn if seat is None else seat
        if action in ("autoplay on", "autoplay off"):
            if self.auto[seat] == (action == "autoplay on"):
                raise IllegalAction("no change")
            self.auto[seat] = action == "autoplay on"
        elif action == "escape":
            self.auto[seat] = True
        elif self.is_over or seat != self.turn:
            raise IllegalAction("not your turn")
        elif action in ("add 1", "add 2", "timeout"):
            self.total += 1 if action == "timeout" else int(action[-1])
            if action == "timeout":
                self.auto[seat] = True
            if not self.is_over:
                self.turn = (self.turn + 1) % self.n
        else:
            raise IllegalAction(f"unknown action {action!r}")
        self.actions.append({"seat": seat, "action": action})

    def time_limit(self) -> int | None:
        return None if self.is_over else 5

    def in_autoplay(self, seat: int) -> bool:
        return self.auto[seat]

    def observe(self, seat: int | None) -> dict[str, Any]:
        return {"total": self.total, "secret": None if seat is None else self.secrets[seat]}

    def outcome(self) -> dict[str, Any] | None:
        if not self.is_over:
            return None
        return {"scores": [2 if s == self.turn else -1 for s in range(self.n)]}

    def record(self) -> dict[str, Any]:
        return {"seed": self.seed, "actions": list(self.actions)}


class CountFactory:
    name = "count"

    def new(self, options: Mapping[str, Any], seed: int, context: Mapping[str, Any]) -> TurnGame:
        return CountGame(seed)

    def replay(self, record: Mapping[str, Any]) -> TurnGame:
        g = CountGame(record["seed"])
        for a in record["actions"]:
            g.apply(a["action"], a["seat"])
        return g

    def players(self, options: Mapping[str, Any]) -> int:
        return 3


def games(name: str) -> Any:
    return CountFactory() if name == "count" else get_factory(name)


async def test_a_new_game_plugs_in(start_server: StartServer) -> None:
    room = Room("count-1", "count", {}, 1, 0, "counting")
    server = await start_server(rooms=[room], games=games)
    c = await Client.guest(server)
    await c.connect()
    await c.send({"type": "quick_match", "room": "count-1"})
    snap = await c.wait_for(lambda m: m["type"] == "snapshot")
    assert snap["table"]["game"] == "count"
    over = await c.play_until_over()
    assert sum(over["outcome"]["scores"]) == 0
    deal = await c.get(f"/api/deals/{over['deal']}")
    assert CountFactory().replay(deal["record"]).outcome() == over["outcome"]
    secrets = {m["observation"]["secret"] for m in c.msgs if m["type"] == "state"}
    assert len(secrets) == 1  # only this seat's secret ever arrived
    await c.close()
