"""Fit the search's learned play-out policy (``qipai.games.doudizhu.bots.playout``) to the search's own choices.

One step of expert iteration, on CPU, from data this project makes:

1. ``--games`` research deals from ``make_deals(games, seed=DATA_SEED)`` (another seed than the evaluation
   deals') are played to the end by three ``search`` bots with a fixed number of samples per decision
   (``--samples``; bot seeds from the deal and the seat), so the data are the same on every run.  With
   ``--policy FILE`` the bots' play-outs use those weights (the next iteration).
2. Every decision the search evaluated (two candidates or more) is an example: that seat's situation (what it
   could see, the other hands together as its unseen cards: exactly what a play-out seat sees) and which of the
   play-out policy's candidates for it (``playout.candidates``) the search played.  A decision whose move is not
   among the candidates is left out (counted).  The data keep the situations, so the features (computed when
   fitting) may change without playing the games again (``--train-only``).
3. The last ``--valid`` share of the games is held out.  The weights are fitted by softmax regression (the
   probability of a candidate ∝ exp(w · features)), full batch, Adam (``--steps``, learning rate 0.05) with an
   L2 penalty ``--l2``, from the heuristic (``pick`` = 1, the rest 0).  One BLAS thread.
4. The weights go to ``src/qipai/data/ddz_playout.json`` (named, rounded to 4 places) with the recipe.

    python bench/train_playout.py --games 1200 --jobs 2 --data /tmp/playout_data.json.gz
    python bench/train_playout.py --data /tmp/playout_data.json.gz --train-only   # refit from the saved data
    python bench/train_playout.py --duel 500 --jobs 2     # the policy's likeliest moves against the heuristic
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import gzip
import json
import multiprocessing as mp
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

DATA_SEED = 78_000_001
OUT = Path(__file__).resolve().parents[1] / "src" / "qipai" / "data" / "ddz_playout.json"

_ARGS: dict[str, Any] = {}


def _init(samples: int, policy: str) -> None:
    _ARGS["samples"] = samples
    _ARGS["policy"] = policy


def play_deal(job: tuple[int, str]) -> dict[str, Any]:
    """Play one deal with three search bots; its examples and counts."""
    from qipai.games.doudizhu.bots.arena import _mix
    from qipai.games.doudizhu.bots.heuristic import situation_of
    from qipai.games.doudizhu.bots.playout import candidates, load_policy
    from qipai.games.doudizhu.bots.research import ResearchDeal, research_game
    from qipai.games.doudizhu.bots.search import SearchBot
    from qipai.games.doudizhu.bots.view import action_moves, read_view

    index, line = job
    policy = load_policy(Path(_ARGS["policy"])) if _ARGS["policy"] else None
    g = research_game(ResearchDeal.parse(line))
    bots = [SearchBot(_mix("playout-data", index, s) & 0xFFFFFFFF, samples=_ARGS["samples"], clock="cpu",
                      playout_policy=policy) for s in range(3)]
    examples: list[dict[str, Any]] = []
    missed = 0
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        obs = g.observe(seat)
        legal = list(g.legal_actions())
        bot = bots[seat]
        bot.last_stats = {}
        action = bot.act(obs, legal)
        if bot.last_stats:
            v = read_view(obs)
            s = situation_of(v)
            moves = action_moves(legal, v.rules)
            chosen = moves.get(action)
            cands = candidates(s)
            key = None if chosen is None else chosen.counts
            at = next((j for j, m in enumerate(cands) if (None if m is None else m.counts) == key), None)
            if at is None:
                missed += 1
            elif len(cands) > 1:
                examples.append({"s": situation_record(s), "y": at})
        g.apply(action, seat)
    return {"game": index, "examples": examples, "missed": missed}


def situation_record(s: Any) -> list[Any]:
    """A situation as JSON (the features are computed from it when training, so they may change without
    playing the games again)."""
    last = None if s.last is None else [s.last.kind, s.last.main, s.last.length, list(s.last.counts)]
    return [s.seat, s.players, s.landlord, list(s.hand), list(s.card_counts), last, s.last_by, list(s.pool)]


def situation_of_record(r: list[Any]) -> Any:
    from qipai.games.doudizhu.bots.heuristic import Situation
    from qipai.games.doudizhu.combos import Move
    from qipai.games.doudizhu.rules import PRESETS

    seat, players, landlord, hand, counts, last, last_by, pool = r
    m = None if last is None else Move.make(last[0], last[1], last[2], tuple(last[3]))
    return Situation(PRESETS["classic"], seat, players, landlord, tuple(hand), counts, m, last_by, tuple(pool))


def example_features(e: dict[str, Any]) -> list[list[tuple[int, float]]]:
    """Each candidate's features for an example."""
    from qipai.games.doudizhu.bots.playout import candidates, features

    if "f" in e:  # data of the first run stored the features themselves
        return [[(int(i), float(v)) for i, v in fs] for fs in e["f"]]
    s = situation_of_record(e["s"])
    return [features(s, m, j == 0) for j, m in enumerate(candidates(s))]


def make_data(games: int, samples: int, jobs: int, policy: str) -> list[dict[str, Any]]:
    from qipai.games.doudizhu.bots.research import make_deals

    lines = [d.line() for d in make_deals(games, seed=DATA_SEED)]
    out: list[dict[str, Any]] = []
    t0 = time.time()
    jobs_list = list(enumerate(lines))
    with mp.get_context("fork").Pool(jobs, initializer=_init, initargs=(samples, policy)) as pool:
        for i, r in enumerate(pool.imap(play_deal, jobs_list, chunksize=1)):
            out.append(r)
            if (i + 1) % 50 == 0:
                n = sum(len(x["examples"]) for x in out)
                print(f"  {i + 1}/{games} games, {n} examples, {time.time() - t0:.0f} s", file=sys.stderr)
    return out


def tensors(data: list[dict[str, Any]], nf: int) -> tuple[Any, Any, Any]:
    """Dense features [N, K, F], a mask of real candidates [N, K] and the labels [N]."""
    ex = [example_features(e) for d in data for e in d["examples"]]
    ys = [e["y"] for d in data for e in d["examples"]]
    k = max(len(e) for e in ex)
    x = np.zeros((len(ex), k, nf), dtype=np.float64)
    mask = np.zeros((len(ex), k), dtype=bool)
    y = np.zeros(len(ex), dtype=np.int64)
    for n, e in enumerate(ex):
        for j, fs in enumerate(e):
            mask[n, j] = True
            for i, val in fs:
                x[n, j, i] = val
        y[n] = ys[n]
    return x, mask, y


def loss_grad(w: Any, x: Any, mask: Any, y: Any, l2: float) -> tuple[float, Any, Any]:
    z = np.einsum("nkf,f->nk", x, w)
    z = np.where(mask, z, -1e9)
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z) * mask
    p /= p.sum(axis=1, keepdims=True)
    n = len(y)
    loss = -np.log(p[np.arange(n), y] + 1e-12).mean() + l2 * float(w @ w)
    onehot = np.zeros_like(p)
    onehot[np.arange(n), y] = 1.0
    g = np.einsum("nk,nkf->f", p - onehot, x) / n + 2 * l2 * w
    return float(loss), g, p


def fit(x: Any, mask: Any, y: Any, w0: Any, steps: int, l2: float) -> Any:
    w = w0.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    lr, b1, b2 = 0.05, 0.9, 0.999
    for t in range(1, steps + 1):
        _, g, _ = loss_grad(w, x, mask, y, l2)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        w -= lr * (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + 1e-8)
    return w


def accuracy(w: Any, x: Any, mask: Any, y: Any) -> float:
    z = np.where(mask, np.einsum("nkf,f->nk", x, w), -1e9)
    # ties go to the earlier candidate, as in PlayoutPolicy.choose
    return float((z.argmax(axis=1) == y).mean())


def duel(weights: Path, deals: int, jobs: int) -> None:
    """The policy as a bot of its own (its likeliest move at every play) against the heuristic, in the arena's
    research protocol."""
    from qipai.bots import register
    from qipai.games.doudizhu.bots.arena import report_lines, run_arena
    from qipai.games.doudizhu.bots.heuristic import HeuristicBot, action_for, situation_of
    from qipai.games.doudizhu.bots.playout import load_policy
    from qipai.games.doudizhu.bots.view import action_moves, read_view

    policy = load_policy(weights)

    class PolicyBot(HeuristicBot):
        name = "playout_policy"

        def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
            if observation.get("phase") != "play" or len(legal_actions) == 1:
                return super().act(observation, legal_actions)
            v = read_view(observation)
            return action_for(policy.choose(situation_of(v)), action_moves(legal_actions, v.rules), legal_actions)

    register("playout_policy", PolicyBot, game="doudizhu")  # worker processes are forked: they have it too
    r = run_arena("playout_policy", "heuristic", deals=deals, jobs=jobs, protocol="research", progress=False,
                  keep_games=False)
    print("\n".join(report_lines(r)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1200)
    ap.add_argument("--samples", type=int, default=96)
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 1)))
    ap.add_argument("--policy", default="", help="weights the data's play-outs use (the next iteration)")
    ap.add_argument("--data", type=Path, help="save the examples here (or read them with --train-only)")
    ap.add_argument("--train-only", action="store_true")
    ap.add_argument("--valid", type=float, default=0.1)
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--duel", type=int, metavar="DEALS", help="play the weights of --out against the heuristic")
    a = ap.parse_args(argv)
    from qipai.games.doudizhu.bots.playout import CANDIDATES, FEATURES, load_policy

    for flag, path in (("--out", a.out if a.duel else None), ("--policy", a.policy or None)):
        if path is not None:  # a missing or junk weights file is one line, before any work
            try:
                load_policy(Path(path))
            except (OSError, ValueError) as e:
                raise SystemExit(f"{flag}: {e}") from None
    if a.duel:
        duel(a.out, a.duel, a.jobs)
        return 0
    if a.train_only:
        if a.data is None:
            ap.error("--train-only needs --data")
        try:
            saved = json.loads(gzip.decompress(a.data.read_bytes()))
            data, recipe = saved["games"], saved["recipe"]
        except (OSError, EOFError, ValueError, TypeError, KeyError) as e:
            raise SystemExit(f"--data {a.data}: not this script's examples (a .json.gz it saved): {e}") from None
    else:
        t0 = time.time()
        data = make_data(a.games, a.samples, a.jobs, a.policy)
        recipe = {"games": a.games, "data_seed": DATA_SEED, "samples": a.samples, "policy": a.policy or None,
                  "seconds": round(time.time() - t0)}
        if a.data is not None:
            a.data.write_bytes(gzip.compress(json.dumps({"games": data, "recipe": recipe}).encode(), mtime=0))
    data.sort(key=lambda d: d["game"])
    cut = int(len(data) * (1 - a.valid))
    nf = len(FEATURES)
    xt, mt, yt = tensors(data[:cut], nf)
    xv, mv, yv = tensors(data[cut:], nf)
    missed = sum(d["missed"] for d in data)
    print(f"examples: {len(yt)} train, {len(yv)} held out; {missed} decisions outside the candidates")
    w0 = np.zeros(nf)
    w0[FEATURES.index("pick")] = 1.0
    w = fit(xt, mt, yt, w0, a.steps, a.l2)
    for name, ww in (("heuristic", w0), ("learned", w)):
        lt, _, _ = loss_grad(ww, xt, mt, yt, 0.0)
        lv, _, _ = loss_grad(ww, xv, mv, yv, 0.0)
        print(f"{name:10s} train: log-loss {lt:.4f} agree {accuracy(ww, xt, mt, yt):.4f}   "
              f"held out: log-loss {lv:.4f} agree {accuracy(ww, xv, mv, yv):.4f}")
    weights = {n: round(float(x), 4) for n, x in zip(FEATURES, w, strict=True) if round(float(x), 4) != 0.0}
    kept = {k: v for k, v in recipe.items() if k != "seconds"}  # the weights file is the same on every run
    doc = {"candidates": CANDIDATES, "weights": weights,
           "recipe": {**kept, "valid": a.valid, "steps": a.steps, "l2": a.l2, "script": "bench/train_playout.py"}}
    a.out.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {a.out}")
    for n in sorted(weights, key=lambda n: -abs(weights[n]))[:15]:
        print(f"  {n:36s} {weights[n]:+.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
