"""What one seat may see (RULES.md §2, §5, §6): its own hand, the others' card counts, public history.

A spectator (``seat=None``) sees no hand.  Plays show the cards played, suits included: a player chooses them,
and a rank-only play takes copies drawn from the deal's seed, so they tell nothing of the rest of a hand.  The kitty
shows once taken, to everybody if the rules show it and always to the landlord; a shown hand (亮牌) is
public.  Two deals that differ only in cards a seat cannot see give that seat equal observations until the deal
is over, when every remaining hand is turned face up.
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING

from ...core.game import JSON
from .cards import NUM_RANKS, RANK_LETTERS
from .rules import preset_name
from .settle import common_factors

if TYPE_CHECKING:
    from .state import Game


def _public(event: JSON) -> JSON:
    """A log event as every seat may see it (every event is public, played cards with their suits)."""
    return dict(event)


def observe(game: Game, seat: int | None) -> JSON:
    """The JSON-ready view of ``game`` for ``seat`` (``None``: spectator).

    The part every seat shares is built once per game version (one more accepted action) and shared between
    the seats' views: treat an observation as read-only (its ``history`` list is the caller's own).
    """
    shared, own = observe_parts(game, seat)
    obs = dict(shared)
    obs.update(own)
    obs["history"] = list(obs["history"])
    return obs


def observe_parts(game: Game, seat: int | None) -> tuple[JSON, JSON]:
    """``observe(game, seat)`` in two parts, ``(shared, own)``: ``shared`` is the same object for every seat
    (and spectators) until the next accepted action, ``own`` holds the keys that may differ between seats
    (``seat``, ``hand``, ``kitty``, ``legal_actions``).  A server can then
    encode the shared part once per action instead of once per seat.  Both are read-only.

    >>> from qipai.games.doudizhu.rules import PRESETS
    >>> from qipai.games.doudizhu.state import Game
    >>> g = Game.new(PRESETS["classic"], seed=1)
    >>> (s0, own0), (s1, own1) = observe_parts(g, 0), observe_parts(g, 1)
    >>> s0 is s1, sorted(own0), len(own0["hand"])
    (True, ['hand', 'kitty', 'legal_actions', 'seat'], 17)
    """
    r = game.rules
    if seat is not None and not 0 <= seat < r.players:
        raise ValueError(f"no such seat {seat}")
    version = len(game.actions)
    cached = game.public_cache
    if cached is None or cached[0] != version:
        shared = _public_view(game)
        cached = game.public_cache = (version, shared, shared.pop("kitty"))
    _, shared, kitty = cached
    own: JSON = {"seat": seat, "hand": None, "kitty": kitty, "legal_actions": []}
    if seat is not None:
        own["hand"] = [str(c) for c in game.hand(seat)]
        if seat == game.landlord and game.kitty_taken and kitty is None:
            own["kitty"] = [str(c) for c in game.kitty]  # the landlord always sees the kitty he took
        if seat == game.to_act:
            own["legal_actions"] = game.legal_actions()
    return shared, own


def _public_history(game: Game) -> list[JSON]:
    """The public log, extended in place as the game's log grows (the log only ever grows)."""
    hist = game.public_history
    log = game.log
    for ev in log[len(hist):]:
        hist.append(_public(ev))
    return hist


def _public_view(game: Game) -> JSON:
    """Everything every seat may see (``kitty``: what all of them see of it; no ``seat``, ``hand`` or
    ``legal_actions``, which are each seat's own)."""
    r = game.rules
    over = game.phase == "over"
    landlord = game.landlord
    kitty = None
    if game.kitty_taken and (r.kitty_visible or over):
        kitty = [str(c) for c in game.kitty]
    played = [0] * NUM_RANKS
    for ev in game.log:
        if ev["event"] == "redeal":
            played = [0] * NUM_RANKS
        elif ev["event"] == "play":
            for ch in ev["move"]:
                played[RANK_LETTERS.index(ch)] += 1
    factors = common_factors(game)
    t = game.trick
    hands = game.hands
    return {
        "game": "doudizhu",
        "preset": preset_name(r),
        "rules": game.rules_options,
        "players": r.players,
        "phase": game.phase,
        "to_act": game.to_act,
        "card_counts": [len(h) for h in hands],
        "first_bidder": game.first_bidder,
        "face_up": str(game.face_up) if game.face_up else None,
        "redeals": game.redeals,
        "bids": [{"seat": s, "value": v} for s, v in game.bids],
        "landlord": landlord,
        "bid": game.bid,
        "kitty": kitty,
        "shown_hand": [str(c) for c in hands[landlord]] if game.shown and landlord is not None else None,
        "doubling": [{"seat": s, "name": nm} for s, nm in game.doubling],
        "farmer_factors": list(game.farmer_factors),
        "factors": [str(f) for f in factors],
        "multiplier": prod(f.factor for f in factors),
        "trick": {
            "last": t.last.text if t.last else None,
            "kind": t.last.kind if t.last else None,
            "by": t.by if t.last else None,
            "plays": [[s, m] for s, m in t.plays],
        },
        "last_trick": [[s, m] for s, m in game.last_trick],
        "played": {RANK_LETTERS[k]: played[k] for k in range(NUM_RANKS) if played[k]},
        "moves_played": list(game.moves_played),
        "autoplay": list(game.autoplay),
        "history": _public_history(game),
        "time_limit": game.time_limit(),
        "outcome": game.outcome(),
        "hands": [[str(c) for c in h] for h in hands] if over else None,
    }
