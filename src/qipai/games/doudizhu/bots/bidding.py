"""Bidding that knows its odds: estimate the chance of winning as landlord, calibrated by the strong bot's
self-play, and bid by the expected score.

1. **Estimate** (:func:`landlord_odds`): the hidden cards (every card not in the hand) are dealt at random
   many times: a kitty for this seat and hands for the others; each deal is played out from the landlord's
   first lead with the heuristic policy at every seat (the search bot's play-outs).  The share of deals the
   landlord wins is the raw estimate ``p̂``.
2. **Calibrate** (:data:`CALIBRATION`): play-outs by the heuristic are not the strong bot's play.  The
   calibration maps ``p̂`` to the landlord's win rate in self-play of the ``search`` bot (every seat), per
   number of players, by logistic regression on ``logit(p̂)``: ``p = σ(a + b·logit(p̂))``.  The data and its
   recipe: ``bench/calibrate_bidding.py`` (seeds in the script; it prints the coefficients written here).
3. **Decide** (:func:`odds_bid`): the landlord's score is ``± bid × stake`` per farmer, so a bid's expected
   value is proportional to ``bid × (2p − 1)``: worth bidding when ``p`` exceeds one half, and worth more the
   higher the bid.  The bot bids 1 from ``p ≥`` :data:`BID_AT` ``[0]``, 2 from ``[1]``, 3 from ``[2]`` (the
   margin above 0.5 for bid 3 keeps the estimate's noise from tripling a loss); with calling (叫地主) it calls
   from ``p ≥ 0.5``.  Doubling and showing the hand follow the heuristic's rules.

>>> from qipai.games.doudizhu.rules import PRESETS
>>> from qipai.games.doudizhu.bots.view import counts_of_text
>>> import random
>>> strong = landlord_odds(counts_of_text("3456789TJQKAA22BR"), PRESETS["classic"], random.Random(1), 24)
>>> weak = landlord_odds(counts_of_text("334466889TTJJQ579"), PRESETS["classic"], random.Random(1), 24)
>>> strong > 0.5 > weak
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from ..cards import NUM_RANKS
from ..rules import Rules
from .search import Sim

ODDS_SAMPLES = 48
"""Play-outs per estimate."""

MIN_SAMPLES = 16
"""Play-outs an estimate makes whatever its deadline."""

CALIBRATION: dict[int, tuple[float, float]] = {3: (-0.087, 0.941), 4: (-0.020, 0.724)}
"""``(a, b)`` of ``p = σ(a + b·logit(p̂))`` by number of players (see the module docstring)."""

BID_AT = (0.45, 0.50, 0.55)
"""The calibrated win probability from which the bot bids 1, 2 and 3."""

DOUBLE_AT = 0.55
"""The side's win probability from which ``dmc:bid=net`` doubles (倒/反/斡/垒: each doubles the stake, so worth it
above one half; the margin keeps the estimate's noise from doubling a loss)."""


def _deck(rules: Rules) -> list[int]:
    return [rules.decks * (1 if r >= 13 else 4) for r in range(NUM_RANKS)]


def landlord_odds(hand: Sequence[int], rules: Rules, rng: random.Random, samples: int = ODDS_SAMPLES,
                  deadline: tuple[Callable[[], float], float] | None = None) -> float:
    """The share of ``samples`` random deals of the hidden cards that this hand wins as landlord, the kitty
    added, played out by the heuristic policy at every seat (the raw estimate ``p̂``).

    ``deadline``, a clock and the time on it to stop by, ends the estimate sooner, after at least
    :data:`MIN_SAMPLES` deals (a bot with a time budget: four-player play-outs take about 8 ms each)."""
    n = rules.players
    deck = _deck(rules)
    rest = [r for r in range(NUM_RANKS) for _ in range(deck[r] - hand[r])]
    k = rules.kitty_size
    per = (len(rest) - k) // (n - 1)
    wins = 0
    done = 0
    for _ in range(samples):
        if deadline is not None and done >= MIN_SAMPLES and deadline[0]() >= deadline[1]:
            break
        rng.shuffle(rest)
        hands = [list(hand)]
        for r in rest[:k]:
            hands[0][r] += 1
        for s in range(1, n):
            h = [0] * NUM_RANKS
            for r in rest[k + (s - 1) * per: k + s * per]:
                h[r] += 1
            hands.append(h)
        sim = Sim(rules, hands, 0, 0, None, -1, fast=False)
        wins += sim.playout() == 0
        done += 1
    return wins / done


def calibrated(p_hat: float, players: int) -> float:
    """The calibrated win probability for a raw estimate (clipped away from 0 and 1 before the logit)."""
    a, b = CALIBRATION.get(players, (0.0, 1.0))
    q = min(max(p_hat, 0.02), 0.98)
    return 1.0 / (1.0 + math.exp(-(a + b * math.log(q / (1.0 - q)))))


def odds_bid(observation: dict[str, Any], legal_actions: list[str], rng: random.Random,
             samples: int = ODDS_SAMPLES, deadline: tuple[Callable[[], float], float] | None = None) -> str:
    """The bid (or call, or pass) for this hand's calibrated odds; other phases: the heuristic's decision.
    ``deadline`` as for :func:`landlord_odds`."""
    from .heuristic import decide_non_play
    from .view import read_view

    if observation.get("phase") != "bid":
        return decide_non_play(observation, legal_actions)
    v = read_view(observation)
    return bid_for(calibrated(landlord_odds(v.hand, v.rules, rng, samples, deadline), v.players), legal_actions)


def bid_for(p: float, legal_actions: list[str]) -> str:
    """The bid (or call, or pass) for a win probability ``p`` as landlord (:data:`BID_AT`; calling from 0.5).

    >>> bid_for(0.52, ["pass", "bid 1", "bid 2", "bid 3"]), bid_for(0.52, ["pass", "bid 3"])
    ('bid 2', 'pass')
    """
    if "call" in legal_actions:
        return "call" if p >= 0.5 or "pass" not in legal_actions else "pass"
    want = 3 if p >= BID_AT[2] else 2 if p >= BID_AT[1] else 1 if p >= BID_AT[0] else 0
    bids = sorted(int(a.split()[1]) for a in legal_actions if a.startswith("bid "))
    ok = [b for b in bids if b <= want]
    if ok:
        return f"bid {max(ok)}"
    if "pass" in legal_actions:
        return "pass"
    return f"bid {bids[0]}"


class OddsBot:
    """``heuristic`` play with bidding by calibrated odds (``odds``); ``play`` may be another bot for play."""

    name = "odds"

    def __init__(self, seed: int = 0, samples: int = ODDS_SAMPLES, play: Any = None) -> None:
        from .heuristic import HeuristicBot

        self.rng = random.Random(seed ^ 0x0DD5)
        self.samples = samples
        self.play = play if play is not None else HeuristicBot(seed)

    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        """Bid by the odds; everything else as the play bot does."""
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation.get("phase") == "bid":
            return odds_bid(observation, legal_actions, self.rng, self.samples)
        out: str = self.play.act(observation, legal_actions)
        return out


def _register() -> None:
    from . import register

    register("odds", lambda seed: OddsBot(seed))


_register()

__all__ = ["BID_AT", "CALIBRATION", "DOUBLE_AT", "MIN_SAMPLES", "OddsBot", "bid_for", "calibrated", "landlord_odds",
           "odds_bid"]
