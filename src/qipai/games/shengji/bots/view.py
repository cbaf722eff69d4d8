"""What a Shengji bot reads from its seat's observation (and nothing else): its hand, the order, the trick, the
cards still unseen (not in its hand and not played), each seat's known voids."""

from __future__ import annotations

from typing import Any

from ..cards import NUM_FACES, TRUMP, Order, counts, order, parse_cards
from ..combos import Lead, read_lead, trick_winner


class View:
    """A seat's view of the hand, built from :meth:`ShengjiGame.observe` output."""

    def __init__(self, obs: dict[str, Any], cache: dict[str, Any] | None = None) -> None:
        self.obs = obs
        self.seat: int = obs["seat"]
        self.phase: str = obs["phase"]
        self.hand = counts(parse_cards(obs.get("hand", "")))
        self.level: str = obs["level"]
        self.trump: str | None = obs["trump"]
        self.o: Order | None = order(self.level, self.trump) if self.trump else None
        self.banker: int | None = obs["banker"]
        self.partner = (self.seat + 2) % 4
        self.trick: list[tuple[int, list[int]]] = [(s, parse_cards(t)) for s, t in obs["trick"]]
        self.lead: Lead | None = None
        if self.o is not None and self.trick:
            self.lead = read_lead(self.trick[0][1], self.o)
        self._cache = cache if cache is not None else {}
        self.played, self.voids = self._history()

    def _history(self) -> tuple[list[int], list[set[int]]]:
        """Counts of every card played so far (tricks and the current trick) and each seat's voids."""
        obs = self.obs
        key = (obs.get("hand_no"), obs.get("first"), obs.get("levels") and tuple(obs["levels"]), self.trump)
        c = self._cache
        if c.get("key") != key or c.get("n", 0) > len(obs["tricks"]):
            c.clear()
            c.update(key=key, n=0, played=[0] * NUM_FACES, voids=[set() for _ in range(4)])
        played: list[int] = c["played"]
        voids: list[set[int]] = c["voids"]
        o = self.o
        tricks = obs["tricks"]
        for rec in tricks[c["n"]:]:
            plays = [(s, parse_cards(t)) for s, t in rec["plays"]]
            self._note(plays, played, voids, o)
        c["n"] = len(tricks)
        cur_played = list(played)
        cur_voids = [set(v) for v in voids]
        if self.trick:
            self._note(self.trick, cur_played, cur_voids, o)
        return cur_played, cur_voids

    @staticmethod
    def _note(plays: list[tuple[int, list[int]]], played: list[int], voids: list[set[int]], o: Order | None) -> None:
        for _, cards in plays:
            for f in cards:
                played[f] += 1
        if o is None or not plays:
            return
        lead = read_lead(plays[0][1], o)
        for s, cards in plays[1:]:
            if sum(1 for f in cards if o.esuit[f] == lead.esuit) < lead.n:
                voids[s].add(lead.esuit)

    @property
    def unseen(self) -> list[int]:
        """Counts of the cards this seat has not seen: in the other three hands (or undealt)."""
        h, p = self.hand, self.played
        return [4 - h[f] - p[f] for f in range(NUM_FACES)]

    @property
    def banker_side(self) -> bool:
        return self.banker is not None and (self.seat - self.banker) % 2 == 0

    def winner_so_far(self) -> int | None:
        """The seat holding the trick now, or None when leading."""
        if not self.trick or self.lead is None or self.o is None:
            return None
        i = trick_winner(self.lead, [c for _, c in self.trick], self.o)
        return self.trick[i][0]

    def suit_cards(self, e: int) -> dict[int, int]:
        """This seat's cards of effective suit ``e``."""
        assert self.o is not None
        return {f: self.hand[f] for f in self.o.faces[e] if self.hand[f]}

    def hand_size(self) -> int:
        return sum(self.hand)


__all__ = ["TRUMP", "View"]
