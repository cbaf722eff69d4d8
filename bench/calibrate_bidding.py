"""Calibrate the ``odds`` bidding (``qipai.games.doudizhu.bots.bidding``) from the strong bot's self-play.

For each deal (seeded: deal ``i`` of preset P comes from ``Game.new(rules, seed=SEED + i, first_bidder=0)``),
seat 0's dealt hand gets the raw estimate ``p̂ = landlord_odds(hand)`` (heuristic play-outs, its own seeded
generator); then seat 0 is made landlord (``bid 3``) and the deal is played to the end by the ``search`` bot at
every seat (``--bot``, default ``search:samples=6,candidates=4``: the search at a small fixed budget, so the
run is reproducible).  A logistic regression of "the landlord won" on ``logit(p̂)`` gives the ``(a, b)`` of
``CALIBRATION``; the script prints them, a table of win rates by bins of ``p̂`` with 95% intervals, and with
``--json`` every deal.

    python bench/calibrate_bidding.py --preset classic --deals 300 --jobs 2
    python bench/calibrate_bidding.py --preset four_player --deals 200 --jobs 2
    python bench/calibrate_bidding.py --preset classic --deals 3000 --bot dmc --estimator net   # dmc's bid=net
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing as mp
import random
import sys
import time
from pathlib import Path
from typing import Any

SEED = 20240601


def one_deal(args: tuple[str, int, str, str]) -> dict[str, Any]:
    from qipai.games.doudizhu.bots.arena import make_bot
    from qipai.games.doudizhu.bots.bidding import landlord_odds
    from qipai.games.doudizhu.bots.view import counts_of_tokens
    from qipai.games.doudizhu.rules import PRESETS
    from qipai.games.doudizhu.state import Game

    preset, i, spec, estimator = args
    rules = PRESETS[preset]
    g = Game.new(rules, SEED + i, first_bidder=0)
    hand = counts_of_tokens([str(c) for c in g.hands[0]])
    if estimator == "net":
        from qipai.games.doudizhu.bots.dmc import landlord_value, load_qnet

        p_hat = landlord_value(load_qnet(), hand, rules, random.Random(SEED * 7 + i))
    else:
        p_hat = landlord_odds(hand, rules, random.Random(SEED * 7 + i))
    g.apply("bid 3", 0)
    bots = [make_bot(spec, SEED + 31 * i + s) for s in range(rules.players)]
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        g.apply(bots[seat].act(g.observe(seat), g.legal_actions()), seat)
    return {"deal": i, "p_hat": p_hat, "won": g.winner == g.landlord}


def logistic(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """Maximum-likelihood ``(a, b)`` of ``P(y=1) = σ(a + b x)`` by Newton's method."""
    a, b = 0.0, 1.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys, strict=True):
            p = 1.0 / (1.0 + math.exp(-(a + b * x)))
            ga += y - p
            gb += (y - p) * x
            w = p * (1 - p)
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        if det <= 1e-12:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-9:
            break
    return a, b


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--bot", default="search:samples=6,candidates=4")
    ap.add_argument("--estimator", choices=("playout", "net"), default="playout",
                    help="the raw estimate: heuristic play-outs (landlord_odds) or the dmc network's values "
                         "(landlord_value, dmc's bid=net)")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    from qipai.games.doudizhu.bots.arena import make_bot
    from qipai.games.doudizhu.rules import PRESETS

    if args.preset not in PRESETS:
        raise SystemExit(f"unknown preset {args.preset!r}: expected one of {', '.join(PRESETS)}")
    if args.deals < 1:
        raise SystemExit(f"--deals must be at least 1, got {args.deals}")
    try:
        make_bot(args.bot, 0)  # before any deal
    except (KeyError, ValueError, ImportError) as e:
        raise SystemExit(f"bot {args.bot!r}: {e.args[0] if e.args else e}") from None
    tasks = [(args.preset, i, args.bot, args.estimator) for i in range(args.deals)]
    t0 = time.perf_counter()
    rows: list[dict[str, Any]] = []
    with mp.get_context("fork").Pool(max(1, args.jobs)) as pool:
        for row in pool.imap_unordered(one_deal, tasks):
            rows.append(row)
            if len(rows) % 20 == 0:
                print(f"{len(rows)} deals, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    rows.sort(key=lambda r: r["deal"])
    xs = [math.log(min(max(r["p_hat"], 0.02), 0.98) / (1 - min(max(r["p_hat"], 0.02), 0.98))) for r in rows]
    ys = [1.0 if r["won"] else 0.0 for r in rows]
    a, b = logistic(xs, ys)
    print(f"{args.preset}: {len(rows)} deals, bot {args.bot}, estimator {args.estimator}, "
          f"{time.perf_counter() - t0:.0f} s; "
          f"landlord won {sum(ys) / len(ys):.3f}")
    print(f"CALIBRATION[{PRESETS[args.preset].players}] = ({a:.3f}, {b:.3f})")
    print(f"{'p_hat bin':<12} {'deals':>6} {'won':>7} {'95% CI':>8} {'calibrated':>11}")
    edges = [0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.01]
    for lo, hi in itertools.pairwise(edges):
        sel = [(x, y) for x, y, r in zip(xs, ys, rows, strict=True) if lo <= r["p_hat"] < hi]
        if not sel:
            continue
        w = sum(y for _, y in sel) / len(sel)
        ci = 1.96 * math.sqrt(max(w * (1 - w), 0.25 / len(sel)) / len(sel))
        mid = sum(x for x, _ in sel) / len(sel)
        cal = 1 / (1 + math.exp(-(a + b * mid)))
        print(f"{lo:.1f}–{min(hi, 1.0):.1f}{'':<5} {len(sel):>6} {w:>7.3f} {ci:>8.3f} {cal:>11.3f}")
    if args.json:
        args.json.write_text(json.dumps({"preset": args.preset, "bot": args.bot, "a": a, "b": b, "rows": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
