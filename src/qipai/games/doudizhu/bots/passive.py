"""The seed's auto-play for Dou Dizhu (托管, RULES.md §6)."""

from __future__ import annotations

from typing import Any

from ..cards import RANK_LETTERS


def _rank_key(action: str) -> tuple[int, int]:
    cards = action.split()[1].split(":")[0]
    return len(cards), RANK_LETTERS.index(cards[0])


class PassiveBot:
    """The seed's auto-play (托管, RULES.md §6): pass whenever passing is allowed, lead the smallest single, and
    with exactly one card left play it whenever it is legal.  Declines every bid and doubling unless forced.

    >>> PassiveBot().act({"phase": "play", "hand": ["3S", "9H"]}, ["play 3", "play 9", "play 39"])
    'play 3'
    >>> PassiveBot().act({"phase": "play", "hand": ["9H"]}, ["pass", "play 9"])
    'play 9'
    """

    name = "passive"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        hand = observation.get("hand") or []
        if observation.get("phase") == "play" and len(hand) == 1:
            for a in legal_actions:
                if a.startswith("play "):
                    return a
        if "pass" in legal_actions:
            return "pass"
        plays = [a for a in legal_actions if a.startswith("play ")]
        if plays:
            singles = [a for a in plays if len(a.split()[1].split(":")[0]) == 1]
            return min(singles or plays, key=_rank_key)
        return legal_actions[0]  # a forced bid: the lowest one is listed first
