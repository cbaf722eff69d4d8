"""The bot interface, the random bot and the passive bot (托管, RULES-mahjong.md §9), plus what bots share:
reading a seat's tiles and melds and the unseen counts out of an observation."""

from __future__ import annotations

import random
from typing import Any, Protocol

from ..hand import MeldSig, meld_sig
from ..melds import Meld, parse_meld
from ..tiles import KINDS, parse_tile, parse_tiles, to_counts

JSON = dict[str, Any]


class Bot(Protocol):
    """Anything with ``act(observation, legal_actions) -> action``."""

    name: str

    def act(self, observation: JSON, legal_actions: list[str]) -> str:
        """Choose one of ``legal_actions``."""
        ...


class RandomBot:
    """Uniform over the legal actions (seeded)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: JSON, legal_actions: list[str]) -> str:
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        return self.rng.choice(legal_actions)


class PassiveBot:
    """Auto-play exactly as §9 says: win whenever it can, never chow or pung (pass every claim window), never
    declare 听 unless a ``… ting`` claim obliges it (then the first ready-making tile in canonical order), and
    otherwise discard the drawn tile, or after a claim the last tile of the hand in canonical order.

    >>> b = PassiveBot()
    >>> b.act({"phase": "play", "hand": "123m 5p", "drawn": "9s"}, ["discard 1m", "discard 9s", "ting 9s"])
    'discard 9s'
    >>> b.act({"phase": "play", "hand": "123m 5p", "drawn": None}, ["discard 1m", "discard 5p"])
    'discard 5p'
    >>> b.act({"phase": "play", "must": "ting"}, ["ting 5p", "ting 1m", "ting 1m zhidui 3s"])
    'ting 1m'
    """

    name = "passive"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: JSON, legal_actions: list[str]) -> str:
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        if "hu" in legal_actions:
            return "hu"
        if "pass" in legal_actions:
            return "pass"
        discards = [a for a in legal_actions if a.startswith("discard ")]
        if not discards:
            tings = [a for a in legal_actions if a.startswith("ting ") and "zhidui" not in a]
            return min(tings or legal_actions, key=lambda a: parse_tile(a.split()[1]))
        drawn = observation.get("drawn")
        if drawn is not None and f"discard {drawn}" in discards:
            return f"discard {drawn}"
        return max(discards, key=lambda a: parse_tile(a.split()[1]))


def own_tiles(obs: JSON) -> list[int]:
    """The seat's 28 concealed counts (the drawn tile included)."""
    ks = parse_tiles(obs.get("hand") or "")
    if obs.get("drawn"):
        ks.append(parse_tile(obs["drawn"]))
    return to_counts(ks)


def own_melds(obs: JSON, seat: int | None = None) -> list[Meld]:
    """A seat's melds (default: the observing seat's)."""
    s = obs["seat"] if seat is None else seat
    return [parse_meld(f"{m['type']} {m['tiles']}") for m in obs["melds"][s]]


def own_sig(obs: JSON) -> MeldSig:
    return meld_sig(own_melds(obs))


def unseen_from(obs: JSON) -> list[int]:
    """Per kind, the copies the observing seat has not seen."""
    own = own_tiles(obs)
    c = [4 - own[k] for k in range(KINDS)]
    for r in obs["rivers"]:
        for t in r:
            c[parse_tile(t)] -= 1
    for ms in obs["melds"]:
        for m in ms:
            for k in parse_tiles(m["tiles"]):
                c[k] -= 1
    for t in obs.get("old_bao") or []:
        c[parse_tile(t)] -= 1
    if obs.get("bao"):
        c[parse_tile(obs["bao"])] -= 1
    return [max(0, x) for x in c]


def passed_tiles(obs: JSON) -> dict[int, set[int]]:
    """For each ready seat, the kinds that did not win for it since its 听 (so discarding them is safe while the
    engine declares every win: ``auto_hu``)."""
    start: dict[int, int] = {}
    out: dict[int, set[int]] = {}
    for i, e in enumerate(obs.get("log") or []):
        act = e["action"]
        verb = act.split()[0]
        if verb == "ting" and e["seat"] is not None:
            start[e["seat"]] = i
            out[e["seat"]] = set()
        if verb in ("discard", "ting"):
            k = parse_tile(act.split()[1])
            for r, s0 in start.items():
                if i > s0:
                    out[r].add(k)
    return out


__all__ = ["Bot", "PassiveBot", "RandomBot", "own_melds", "own_sig", "own_tiles", "passed_tiles", "unseen_from"]
