"""Two toy games behind :mod:`qipai.core.game`, used to show that the host, the server and the conformance suite
serve any game: nothing in them is Dou Dizhu.

* :class:`CountGame` — seats take turns adding 1 or 2 to a total; whoever reaches 10 wins.  One actor at a time.
* :class:`ClaimGame` — a tiny "claim window" game in the shape of a mahjong discard: each round one seat turns
  over a card and **every other seat at once** may ``claim`` or ``pass``; the nearest claimer after the turner
  takes the card (a claimer may be outranked only by a nearer seat that has not answered yet: a lower claim
  waits for it, a pass releases it).  A timeout in the window is a pass.  First to 3 cards wins.

Both keep a secret per seat (so the conformance suite can check observations hide it) and implement
``resample``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from qipai.core.game import JSON, AutoplayFlags, GameInfo, IllegalAction, apply_step
from qipai.core.options import Option, OptionSet


class _Base(AutoplayFlags):
    """What both toys share: seats, secrets, the action log, auto-play."""

    name = "toy"

    def __init__(self, seed: int, players: int = 3) -> None:
        rng = random.Random(seed)
        self.n = players
        self.seed = seed
        self.secrets = [rng.randrange(1000) for _ in range(players)]
        self.actions: list[dict[str, Any]] = []
        self._init_autoplay(players)
        self.decisions = 0

    @property
    def players(self) -> int:
        return self.n

    def public_acting(self) -> tuple[int, ...]:
        return self.acting  # type: ignore[attr-defined,no-any-return]

    def decision_index(self, seat: int) -> int:
        return self.decisions

    def check(self, action: str, seat: int) -> str | None:
        c = self.clone()
        try:
            c.apply(action, seat)
        except IllegalAction as e:
            return str(e)
        return None

    def set_autoplay(self, seat: int, on: bool) -> None:
        super().set_autoplay(seat, on)
        self.actions.append({"seat": seat, "action": "autoplay on" if on else "autoplay off"})

    def leave(self, seat: int) -> None:
        if not self.autoplay[seat]:
            AutoplayFlags.set_autoplay(self, seat, True)
        self.actions.append({"seat": seat, "action": "leave"})

    def time_limit(self, seat: int) -> float | None:
        return 5.0 if seat in self.acting else None  # type: ignore[attr-defined]

    def clone(self) -> Any:
        import copy

        return copy.deepcopy(self)

    def resample(self, seat: int, seed: int) -> Any:
        g = self.clone()
        rng = random.Random(seed)
        for s in range(self.n):
            if s != seat:
                g.secrets[s] = rng.randrange(1000)
        return g

    def record(self) -> JSON:
        return {"game": self.name, "seed": self.seed, "actions": list(self.actions)}


class CountGame(_Base):
    """Seats take turns adding 1 or 2; reaching 10 wins (+2, the others −1)."""

    name = "count"

    def __init__(self, seed: int, players: int = 3) -> None:
        super().__init__(seed, players)
        self.total = 0
        self.turn = 0

    phase = property(lambda self: "over" if self.is_over else "count")
    is_over = property(lambda self: self.total >= 10)

    @property
    def acting(self) -> tuple[int, ...]:
        return () if self.is_over else (self.turn,)

    def legal_actions(self, seat: int) -> list[str]:
        return ["add 1", "add 2"] if seat in self.acting else []

    def _add(self, seat: int, k: int, how: str) -> None:
        self.total += k
        if not self.is_over:
            self.turn = (self.turn + 1) % self.n
        self.decisions += 1
        self.actions.append({"seat": seat, "action": how})

    def apply(self, action: str, seat: int) -> None:
        if self.is_over or seat != self.turn:
            raise IllegalAction(f"not your turn: seat {self.turn} adds")
        if action not in ("add 1", "add 2"):
            raise IllegalAction(f"unknown action {action!r}: say 'add 1' or 'add 2'")
        self._add(seat, int(action[-1]), action)

    def timeout(self, seat: int) -> None:
        if seat != self.turn or self.is_over:
            raise IllegalAction("not your turn")
        if not self.autoplay[seat]:
            AutoplayFlags.set_autoplay(self, seat, True)
        self._add(seat, 1, "timeout")

    def observe(self, seat: int | None) -> JSON:
        full = self.outcome()
        shown = None if full is None else {k: v for k, v in full.items() if k != "secrets"}
        return {"total": self.total, "turn": self.turn, "secret": None if seat is None else self.secrets[seat],
                "outcome": shown}

    def outcome(self) -> JSON | None:
        """The result, with every seat's secret (which the outcome in the observation keeps hidden, as Shengji
        keeps the cards of overcalled declarations)."""
        if not self.is_over:
            return None
        w = self.turn
        return {"scores": [2 if s == w else -1 for s in range(self.n)],
                "roles": ["counter"] * self.n, "won": [s == w for s in range(self.n)], "winner": w,
                "secrets": list(self.secrets)}


class ClaimGame(_Base):
    """Turn a card, let every other seat claim it at once; the nearest claimer after the turner wins the card.

    Phases ``turn`` (the turner says ``turn``) and ``claim`` (a joint decision of the other seats).
    """

    name = "claim"
    TARGET = 3

    def __init__(self, seed: int, players: int = 3) -> None:
        super().__init__(seed, players)
        self.turner = 0
        self.won = [0] * players
        self.answers: dict[int, str] = {}
        self.window = False
        self.rounds = 0
        self.winner: int | None = None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def phase(self) -> str:
        return "over" if self.is_over else ("claim" if self.window else "turn")

    def _order(self) -> list[int]:
        """The other seats, nearest after the turner first."""
        return [(self.turner + i) % self.n for i in range(1, self.n)]

    @property
    def acting(self) -> tuple[int, ...]:
        if self.is_over:
            return ()
        if not self.window:
            return (self.turner,)
        return tuple(sorted(s for s in self._order() if s not in self.answers))

    def public_acting(self) -> tuple[int, ...]:
        return () if self.window else self.acting  # who may claim is nobody else's business

    def decision_index(self, seat: int) -> int:
        return self.rounds * 2 + (1 if self.window else 0)

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.acting:
            return []
        return ["claim", "pass"] if self.window else ["turn"]

    def apply(self, action: str, seat: int) -> None:
        if self.is_over:
            raise IllegalAction("the game is over")
        if seat not in self.acting:
            raise IllegalAction(f"seat {seat} has no decision open")
        if not self.window:
            if action != "turn":
                raise IllegalAction("say 'turn'")
            self.window = True
        else:
            if action not in ("claim", "pass"):
                raise IllegalAction("say 'claim' or 'pass'")
            self.answers[seat] = action
        self.actions.append({"seat": seat, "action": action})
        self._resolve()

    def _resolve(self) -> None:
        """Close the window once the nearest claim so far cannot be outranked (every nearer seat answered)."""
        if not self.window:
            return
        for s in self._order():
            a = self.answers.get(s)
            if a is None:
                return  # a nearer seat has not answered: lower claims wait for it
            if a == "claim":
                self._take(s)
                return
        self._take(None)

    def _take(self, seat: int | None) -> None:
        if seat is not None:
            self.won[seat] += 1
            if self.won[seat] >= self.TARGET:
                self.winner = seat
        self.window = False
        self.answers = {}
        self.rounds += 1
        self.turner = (self.turner + 1) % self.n
        if self.rounds >= 200 and self.winner is None:
            self.winner = max(range(self.n), key=lambda s: (self.won[s], -s))

    def timeout(self, seat: int) -> None:
        if seat not in self.acting:
            raise IllegalAction(f"seat {seat} has no decision open")
        if self.window:
            self.answers[seat] = "pass"
            self.actions.append({"seat": seat, "action": "timeout"})
            self._resolve()
        else:
            if not self.autoplay[seat]:
                AutoplayFlags.set_autoplay(self, seat, True)
            self.window = True
            self.actions.append({"seat": seat, "action": "timeout"})

    def observe(self, seat: int | None) -> JSON:
        mine = seat is not None and seat in self.acting
        return {"won": list(self.won), "turner": self.turner, "window": self.window, "rounds": self.rounds,
                "answered": seat in self.answers if seat is not None else None, "my_turn": mine,
                "secret": None if seat is None else self.secrets[seat]}

    def outcome(self) -> JSON | None:
        if self.winner is None:
            return None
        w = self.winner
        return {"scores": [2 if s == w else -1 for s in range(self.n)], "roles": ["player"] * self.n,
                "won": [s == w for s in range(self.n)], "winner": w}


class ToyFactory:
    """The factory of one toy game (``CountFactory`` / ``ClaimFactory`` below)."""

    def __init__(self, cls: type[_Base], info: GameInfo) -> None:
        self.cls = cls
        self.info = info

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return self.info.options.check({k: v for k, v in raw.items() if k != "preset"})

    def players(self, options: Mapping[str, Any]) -> int:
        return 3

    def teams(self, options: Mapping[str, Any]) -> None:
        return None

    def new(self, options: Mapping[str, Any], seed: int, context: Mapping[str, Any]) -> Any:
        return self.cls(seed)

    def replay(self, record: Mapping[str, Any]) -> Any:
        g = self.cls(record["seed"])
        for a in record["actions"]:
            apply_step(g, a["seat"], a["action"])
        return g

    def match_start(self, options: Mapping[str, Any]) -> JSON:
        return {"hands": 0, "over": False}

    def deal_context(self, options: Mapping[str, Any], match: Mapping[str, Any]) -> JSON:
        return {"hand": match.get("hands", 0)}

    def match_after(self, options: Mapping[str, Any], match: Mapping[str, Any], outcome: Mapping[str, Any]) -> JSON:
        return {"hands": int(match.get("hands", 0)) + 1, "over": False}

    def title(self, points: int) -> str:
        return "counter" if points >= 0 else "debtor"


def _info(name: str, phases: tuple[str, ...], simultaneous: bool) -> GameInfo:
    return GameInfo(name=name, titles={"zh": name, "en": name}, min_players=3, max_players=3, phases=phases,
                    options=OptionSet([Option("stake", int, 1, lo=1, hi=100, points=True)]), presets=("default",),
                    max_actions=2000, simultaneous=simultaneous, bots=("random",), seat_bot="random",
                    autoplay_bot="random")


CountFactory = ToyFactory(CountGame, _info("count", ("count", "over"), False))
ClaimFactory = ToyFactory(ClaimGame, _info("claim", ("turn", "claim", "over"), True))
