"""How well does the search's sampler guess the hidden hands?  Score its samples against the real ones.

The search bot is only as good as the deals it samples: a sample that puts the landlord's twos in the wrong
farmer's hand evaluates every candidate on the wrong game.  This script replays recorded arena games (a
research-protocol result whose games hold their actions) and, at each play decision of the chosen side, draws
samples with each sampler setting and scores them against the real hands of that moment: the **accuracy** is the
share of the hidden cards (not known to be in a hand) that a sample deals to the seat really holding them,
by rank, averaged over the samples.  Settings are compared on the same decisions (paired), so the small
differences between them are measured precisely; no game is played, so it takes minutes, not hours.

Settings (``--settings``, comma-separated): ``uniform`` (only the hard constraints: card counts, known cards, a
pass that could have gone out), ``passes`` (the search's default: a pass that held a clean answer is kept with
probability 0.35), ``belief`` (``search:belief=0.3``: the other seats' last decisions weighed under the
heuristic's policy), ``partner`` (the same, the partner's decisions only), ``enemy`` (the enemies' only);
``belief8`` and ``partner8`` weigh harder (0.1) among more proposals (8); ``net05``, ``net10``, ``net20`` and
``net40`` weigh ``--proposals`` of the ``passes`` sampler's deals under the learned network's model of the other
seats' last six decisions (:class:`NetBelief`; softmax temperature 0.05 to 0.4).

    python bench/inference.py search1s_c12_solve27_vs_douzero_resnet.json.gz --deals 100 --samples 32
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path
from typing import Any

from qipai.games.doudizhu.bots.research import load_deals, research_game
from qipai.games.doudizhu.bots.search import Sampler
from qipai.games.doudizhu.bots.view import counts_of_tokens, read_view
from qipai.games.doudizhu.cards import NUM_RANKS
from qipai.games.doudizhu.rules import PRESETS
from recorded import research_records

SETTINGS = {
    "uniform": {"evidence": 1.0},
    "passes": {},
    "belief": {"belief": 0.3},
    "partner": {"belief": 0.3, "belief_seats": "partner"},
    "enemy": {"belief": 0.3, "belief_seats": "enemy"},
    "partner8": {"belief": 0.1, "proposals": 8, "belief_seats": "partner"},
    "belief8": {"belief": 0.1, "proposals": 8},
}


NET_SETTINGS = {"net05": 0.05, "net10": 0.1, "net20": 0.2, "net40": 0.4}
"""Settings weighing samples under the learned network's model of play: the temperature of its softmax."""


class NetBelief:
    """Sampling-importance-resampling of the ``passes`` sampler's deals under the learned network's model of
    the other seats' play: each proposal's weight is the product over their last ``decisions`` plays and passes
    (where they had a choice) of the softmax (temperature ``tau``) of the network's values at that moment, the
    game replayed from the start of play on the proposal's cards (:func:`~qipai.games.doudizhu.bots.dmc.play_steps`,
    the states the network was trained on)."""

    def __init__(self, v: Any, kitty: list[int], rng: random.Random, tau: float, proposals: int = 8,
                 decisions: int = 6) -> None:
        from qipai.games.doudizhu.bots.dmc import load_qnet

        self.v = v
        self.kitty = kitty
        self.tau = tau
        self.proposals = proposals
        self.base = Sampler(v, rng)
        self.rng = rng
        self.net = load_qnet()
        self.known = self.base.known
        others = [i for i, ev in enumerate(v.plays) if ev.seat != v.seat]
        self.targets = set(others[-decisions:])

    def weights(self, props: list[list[list[int]]]) -> list[float]:
        import numpy as np

        from qipai.games.doudizhu.bots.dmc import decision_values, index_of, play_steps

        v = self.v
        ll = v.landlord
        assert ll is not None
        by_role = [(ll + k) % 3 for k in range(3)]
        decs: list[Any] = []
        picks: list[int] = []
        owner: list[int] = []
        for j, hands in enumerate(props):
            start = [[hands[s][r] + v.played[s][r] for r in range(NUM_RANKS)] for s in by_role]
            steps = play_steps(start, self.kitty, v.rules)
            d = next(steps)
            for i, ev in enumerate(v.plays):
                assert (ev.seat - ll) % 3 == d.seat
                k = index_of(ev.move, d.moves)
                if i in self.targets and len(d.moves) > 1:
                    decs.append(d)
                    picks.append(k)
                    owner.append(j)
                d = steps.send(k)
        logw = np.zeros(len(props))
        if decs:
            vals, counts = decision_values(self.net, decs)
            vals = np.asarray(vals).reshape(-1)
            at = 0
            for k, j, c in zip(picks, owner, counts, strict=True):
                z = vals[at:at + c] / self.tau
                z = z - z.max()
                logw[j] += z[k] - math.log(float(np.exp(z).sum()))
                at += c
        w = np.exp(logw - logw.max())
        return [float(x) for x in w]

    def deal(self) -> list[list[int]]:
        props = [self.base.deal() for _ in range(self.proposals)]
        return self.rng.choices(props, weights=self.weights(props))[0]


def accuracy(sample: list[list[int]], truth: list[list[int]], known: list[list[int]], seat: int) -> float:
    """Share of the hidden cards (by rank, known cards left out) that ``sample`` gives to their real holder."""
    right = total = 0
    for s, (h, t, k) in enumerate(zip(sample, truth, known, strict=True)):
        if s == seat:
            continue
        for r in range(NUM_RANKS):
            right += min(h[r], t[r]) - k[r]
            total += t[r] - k[r]
    return right / total if total else 1.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("result", help="an arena result of the research protocol with actions (JSON or .json.gz)")
    ap.add_argument("--side", choices=("A", "B"), default="A", help="whose decisions are scored")
    ap.add_argument("--deals", type=int, default=100, help="games of this many deals (both halves)")
    ap.add_argument("--samples", type=int, default=32, help="samples per decision and setting")
    ap.add_argument("--settings", default="uniform,passes,belief,partner,enemy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--proposals", type=int, default=8, help="candidate deals a sample (the net settings)")
    args = ap.parse_args(argv)
    names = args.settings.split(",")
    unknown = [n for n in names if n not in SETTINGS and n not in NET_SETTINGS]
    if unknown:
        raise SystemExit(f"unknown setting {unknown[0]}: expected {', '.join([*SETTINGS, *NET_SETTINGS])}")
    recs = [r for r in research_records(args.result) if r["deal"] < args.deals]
    deals = load_deals(max((r["deal"] for r in recs), default=0) + 1)
    rules = PRESETS["classic"]
    # per role (landlord, farmer), per setting: the accuracy of each decision
    scores: dict[str, dict[str, list[float]]] = {role: {n: [] for n in names} for role in ("landlord", "farmer")}
    rng = random.Random(args.seed)
    for rec in recs:
        g = research_game(deals[rec["deal"]], rules)
        seats = rec["seats"]
        for a in rec["actions"]:
            s = g.to_act
            assert s is not None
            if seats[s] == args.side and g.phase == "play" and len(g.legal_actions()) > 1:
                obs = g.observe(s)
                v = read_view(obs)
                truth = [[0] * NUM_RANKS for _ in range(v.players)]
                for seat, hand in enumerate(g.hands):
                    for c in hand:
                        truth[seat][c.rank] += 1
                role = "landlord" if s == v.landlord else "farmer"
                seed = rng.getrandbits(32)
                kitty = counts_of_tokens(list(obs.get("kitty") or []))
                for n in names:
                    sampler: Any
                    if n in NET_SETTINGS:
                        sampler = NetBelief(v, kitty, random.Random(seed), NET_SETTINGS[n], args.proposals)
                    else:
                        sampler = Sampler(v, random.Random(seed), **SETTINGS[n])  # type: ignore[arg-type]
                    known = sampler.known
                    acc = [accuracy(sampler.deal(), truth, known, s) for _ in range(args.samples)]
                    scores[role][n].append(sum(acc) / len(acc))
            g.apply(a, s)
    base = names[0]
    print(f"{args.result}: side {args.side}, {len(recs)} games, {args.samples} samples a decision and setting")
    print(f"{'role':9} {'setting':8} {'decisions':>9} {'accuracy':>9}   paired with {base}")
    for role, by in scores.items():
        for n in names:
            xs = by[n]
            if not xs:
                continue
            d = [x - y for x, y in zip(xs, by[base], strict=True)]
            md = sum(d) / len(d)
            se = math.sqrt(sum((x - md) ** 2 for x in d) / max(1, len(d) - 1) / len(d))
            print(f"{role:9} {n:8} {len(xs):9} {sum(xs) / len(xs):9.4f}   {md:+.4f} ± {1.96 * se:.4f}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    raise SystemExit(main())
