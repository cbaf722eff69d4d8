"""The simplest Shengji bots: ``random`` (uniform over a sample of legal plays, seeded) and ``passive`` (the
seed's auto-play, §9.2: never declares, plays the lowest legal play)."""

from __future__ import annotations

from typing import Any

from ....core.rng import Rng
from ..cards import format_cards
from ..follow import passive_follow, passive_lead
from .view import View


class PassiveBot:
    """Exactly the §9.2 auto-play: ``pass`` in every window; the lowest single as a lead; the lowest legal follow.
    Computed from the observation alone."""

    name = "passive"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._cache: dict[str, Any] = {}

    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        if observation["phase"] in ("deal", "final"):
            return "pass"
        v = View(observation, self._cache)
        assert v.o is not None
        cards = passive_lead(v.hand, v.o) if v.lead is None else passive_follow(v.hand, v.lead, v.o)
        return "play " + format_cards(cards, v.o)


class RandomBot:
    """Uniform over the legal-action list (a sample for plays), seeded.  In the windows it passes nine times in
    ten and otherwise declares at random; as a leader it sometimes tries a random throw (a random set of cards of
    one effective suit, legal as a lead even when it fails)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        rng = self.rng
        if observation["phase"] in ("deal", "final"):
            if len(legal_actions) == 1 or rng.below(10):
                return legal_actions[0] if "pass" in legal_actions else legal_actions[rng.below(len(legal_actions))]
            return legal_actions[1 + rng.below(len(legal_actions) - 1)]
        if (not observation["trick"] and observation["options"].get("throws", True) and rng.below(8) == 0
                and observation.get("trump")):
            throw = self._throw(observation)
            if throw:
                return throw
        return legal_actions[rng.below(len(legal_actions))]

    def _throw(self, observation: dict[str, Any]) -> str | None:
        v = View(observation)
        o = v.o
        assert o is not None
        suits = [e for e in range(5) if sum(v.hand[f] for f in o.faces[e]) >= 2]
        if not suits:
            return None
        e = suits[self.rng.below(len(suits))]
        cards = [f for f in o.faces[e] for _ in range(v.hand[f])]
        k = 2 + self.rng.below(min(len(cards), 6) - 1)
        self.rng.shuffle(cards)
        return "play " + format_cards(cards[:k], o)

