"""How fast ``bench/train_dmc.py`` plays a round of self-play: one game at a time against ``--lockstep`` blocks.

The same 200-game round (the committed weights, ε = 0.01, the round's own deals and random sources) is played
one by one and side by side in blocks of each size, the variants interleaved, several times; the best CPU time of
each counts, and the ratios to one-by-one play are printed (this machine is shared: quote ratios).  Every variant
must produce the same examples (it checks), so the speed is all that differs.

    python bench/dmc_selfplay.py                  # blocks of 25, 50, 100, 200; 3 repeats
    python bench/dmc_selfplay.py --blocks 50 --repeats 5
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import sys
import time

import numpy as np

import train_dmc as tr


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--blocks", default="25,50,100,200", help="block sizes, comma-separated")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--games", type=int, default=200)
    args = ap.parse_args(argv)
    try:
        blocks = [int(b) for b in args.blocks.split(",")]
    except ValueError:
        ap.error(f"--blocks must be comma-separated sizes, got {args.blocks!r}")
    if args.repeats < 1 or args.games < 1 or min(blocks) < 1:
        ap.error("--repeats, --games and every block size must be at least 1")

    from qipai.games.doudizhu.bots.dmc import load_qnet
    from qipai.games.doudizhu.bots.research import make_deals

    params = load_qnet().params()
    round_no = 30_001
    deals = make_deals(args.games, seed=tr.DATA_SEED + round_no)
    variants = [0, *blocks]
    best = {v: float("inf") for v in variants}
    ref: tuple[bytes, bytes] | None = None
    for _ in range(args.repeats):
        for v in variants:
            t = time.process_time()
            x, y = tr.play_round(None, 1, params, deals, round_no, 0.01, 0, v)
            best[v] = min(best[v], time.process_time() - t)
            got = (np.ascontiguousarray(x).tobytes(), np.ascontiguousarray(y).tobytes())
            if ref is None:
                ref = got
            elif got != ref:
                print(f"lockstep {v}: other examples than one-by-one play (values tied within float rounding)")
    print(f"{args.games} self-play games, best of {args.repeats} (CPU seconds):")
    for v in variants:
        name = "one by one" if v == 0 else f"lockstep {v}"
        print(f"  {name:<14} {best[v]:6.2f} s  {args.games / best[v]:6.0f} games/s  {best[0] / best[v]:4.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
