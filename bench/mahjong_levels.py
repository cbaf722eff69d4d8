"""Decision times of a mahjong bot (a strength level): whole deals with the bot in all four seats.

    PYTHONPATH=src python bench/mahjong_levels.py [--bot hard] [--deals 30] [--seed 1000]

Every decision the engine asks of a seat is timed (CPU time of this process, ``time.process_time``, so other jobs
on a shared machine inflate nothing): the mean, the 95th percentile and the largest, over all decisions and over
the discard decisions with a choice (``play`` phase, more than one legal action).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence

from qipai.bots import get_bot
from qipai.core.registry import get_factory


def line(label: str, xs: list[float]) -> str:
    xs = sorted(xs)
    return (f"{label}: {len(xs)} decisions, mean {1000 * statistics.mean(xs):.2f} ms, "
            f"p95 {1000 * xs[int(0.95 * len(xs))]:.2f} ms, max {1000 * xs[-1]:.2f} ms")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="hard")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1000)
    a = ap.parse_args(argv)
    if a.deals < 1:
        raise SystemExit(f"--deals must be at least 1, got {a.deals}")
    try:
        get_bot(a.bot, 0, game="mahjong")  # before any deal
    except KeyError as e:
        raise SystemExit(e.args[0]) from None
    f = get_factory("mahjong")
    opts = f.options({"preset": "daqing"})
    every: list[float] = []
    discards: list[float] = []
    for d in range(a.deals):
        g = f.new(opts, a.seed + d, f.deal_context(opts, f.match_start(opts)))
        bots = [get_bot(a.bot, 4 * d + s, game="mahjong") for s in range(4)]
        while not g.is_over:
            s = g.acting[0]
            view = json.loads(json.dumps(g.observe(s)))
            legal = list(g.legal_actions(s))
            t0 = time.process_time()
            act = bots[s].act(view, legal)
            dt = time.process_time() - t0
            every.append(dt)
            if view.get("phase") == "play" and len(legal) > 1:
                discards.append(dt)
            g.apply(act, s)
    print(f"mahjong {a.bot}, {a.deals} deals (seeds {a.seed}..{a.seed + a.deals - 1})")
    print(line("  every decision", every))
    print(line("  discards with a choice", discards))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
