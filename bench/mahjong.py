"""Daqing mahjong benchmark: win checks and 向听 against the PyPI ``mahjong`` package, and whole bot deals.

    PYTHONPATH=src python bench/mahjong.py [--hands 20000] [--deals 200] [--warmup 300] [--json out.json]

Workloads (fixed seeds; the same hands for both libraries, given to each in its own form before the clock starts):

- **complete shape**: suited hands of 14 tiles, half of them complete by construction and half one tile off.
  qipai ``is_complete(counts)`` vs the package's ``Agari.is_agari(tiles_34)`` (riichi also accepts seven pairs; on
  these hands the two agree except on seven pairs).  Also qipai's full Daqing check ``win_counts`` (two suits,
  a triplet, a 1/9/红中, one meld) on the same hands less one sequence given as a ``chi`` meld.
- **shanten**: random suited hands of 13 and 14 tiles.  qipai ``shanten_plain_counts`` (the same quantity:
  four sets and a pair) vs ``Shanten.calculate_shanten_for_regular_hand``; and qipai's Daqing 向听
  ``shanten_counts`` (with the §6.2 conditions), which the package has no counterpart for.
- qipai's numbers come in two passes: **cold** (a fresh process: every suit pattern is met for the first time,
  the memo tables fill as they go) and **warm** (the same hands again).  The package keeps no tables.
- **deals**: whole deals of four ``efficiency`` bots through the engine (``observe(seat, hints=False)`` and
  ``legal_actions`` for each decision): the first deals of the process (cold tables), then deals on new seeds
  after ``--warmup`` deals, and the same with the hints computed in every observation (what a host sends).

Times are CPU time of this process (``time.process_time``), so other jobs on a shared machine inflate nothing.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

# this file is bench/mahjong.py: keep its folder off the path so that ``import mahjong`` finds the package
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]


def _random_hands(n: int, size: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    wall = [k for k in range(27) for _ in range(4)]
    out = []
    for _ in range(n):
        c = [0] * 28
        for k in rng.sample(wall, size):
            c[k] += 1
        out.append(c)
    return out


def _complete_hands(n: int, seed: int) -> list[tuple[list[int], tuple[int, int, int] | None]]:
    """14-tile suited hands, complete or one tile off, each with one of its sequences (if any) to meld."""
    rng = random.Random(seed)
    out: list[tuple[list[int], tuple[int, int, int] | None]] = []
    while len(out) < n:
        c = [0] * 28
        seqs = []
        for _ in range(4):
            if rng.random() < 0.6:
                s, r = rng.randrange(3), rng.randrange(7)
                k = 9 * s + r
                for j in range(3):
                    c[k + j] += 1
                seqs.append((k, k + 1, k + 2))
            else:
                c[rng.randrange(27)] += 3
        c[rng.randrange(27)] += 2
        if len(out) % 2:
            i = rng.choice([k for k in range(27) if c[k]])
            c[i] -= 1
            c[rng.randrange(27)] += 1
        if max(c) <= 4:
            out.append((c, seqs[0] if seqs else None))
    return out


def _time(fn: Callable[[], Any]) -> float:
    gc.disable()
    try:
        t = time.process_time()
        fn()
        return time.process_time() - t
    finally:
        gc.enable()


def _to34(c: Sequence[int]) -> list[int]:
    return list(c[:27]) + [0] * 7


def bench_hands(n: int) -> dict[str, Any]:
    from qipai.games.mahjong.hand import is_complete, meld_sig, shanten_counts, shanten_plain_counts, win_counts
    from qipai.games.mahjong.melds import chi_meld

    res: dict[str, Any] = {}
    try:
        from mahjong.agari import Agari
        from mahjong.shanten import Shanten
    except ImportError:
        Agari = Shanten = None
        res["package"] = "not installed (pip install mahjong)"
    comp = _complete_hands(n, 1)
    counts = [c for c, _ in comp]
    c34 = [_to34(c) for c in counts]
    melded = []
    for c, seq in comp:
        if seq is None:
            continue
        cc = list(c)
        for k in seq:
            cc[k] -= 1
        melded.append((cc, meld_sig([chi_meld(seq, seq[0])])))
    rows: dict[str, dict[str, float]] = {}

    def rate(name: str, fn: Callable[[], Any], count: int) -> None:
        rows.setdefault(name, {})
        dt = _time(fn)
        rows[name]["cold" if "cold" not in rows[name] else "warm"] = count / dt if dt else float("inf")

    for _ in range(2):
        rate("qipai is_complete", lambda: [is_complete(c) for c in counts], len(counts))
        rate("qipai win_counts (Daqing, 1 meld)", lambda: [win_counts(c, s) for c, s in melded], len(melded))
    if Agari is not None:
        rows["mahjong Agari.is_agari"] = {"rate": len(c34) / _time(lambda: [Agari.is_agari(c) for c in c34])}
    for size in (13, 14):
        hands = _random_hands(n, size, 10 + size)
        h34 = [_to34(c) for c in hands]
        for _ in range(2):
            rate(f"qipai shanten plain ({size})", lambda h=hands: [shanten_plain_counts(c) for c in h], len(hands))
        for _ in range(2):
            rate(f"qipai shanten Daqing ({size})", lambda h=hands: [shanten_counts(c) for c in h], len(hands))
        if Shanten is not None:
            rows[f"mahjong Shanten regular ({size})"] = {
                "rate": len(h34) / _time(lambda h=h34: [Shanten.calculate_shanten_for_regular_hand(c) for c in h])}
    res["per_second"] = rows
    res["hands"] = n
    return res


def _deal(seed: int, hints: bool) -> int:
    from qipai.games.mahjong.bots import BOTS
    from qipai.games.mahjong.rules import DAQING
    from qipai.games.mahjong.state import MahjongGame

    g = MahjongGame.new(DAQING, seed)
    bots = [BOTS["efficiency"](seed * 4 + i) for i in range(4)]
    n = 0
    while not g.is_over:
        s = g.acting[0]
        g.apply(bots[s].act(g.observe(s, hints=hints), g.legal_actions(s)), s)
        n += 1
    return n


def bench_deals(deals: int, warmup: int) -> dict[str, Any]:
    res: dict[str, Any] = {}
    cold = min(deals, 50)
    t = _time(lambda: [_deal(100_000 + i, False) for i in range(cold)])
    res["cold_ms_per_deal"] = 1000 * t / cold
    for i in range(warmup):
        _deal(200_000 + i, False)
    steps = []
    t = _time(lambda: steps.extend(_deal(300_000 + i, False) for i in range(deals)))
    res["warm_ms_per_deal"] = 1000 * t / deals
    res["deals_per_second"] = deals / t
    res["decisions_per_deal"] = sum(steps) / len(steps)
    k = max(1, deals // 4)
    t = _time(lambda: [_deal(400_000 + i, True) for i in range(k)])
    res["warm_ms_per_deal_with_hints"] = 1000 * t / k
    res["deals"], res["warmup"] = deals, warmup
    return res


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=300)
    ap.add_argument("--json", help="write the results here too")
    ap.add_argument("--only", choices=("hands", "deals"))
    args = ap.parse_args(argv)
    if args.hands < 1 or args.deals < 1 or args.warmup < 0:
        raise SystemExit(f"--hands and --deals must be at least 1 and --warmup at least 0, got {args.hands}, "
                         f"{args.deals} and {args.warmup}")
    out: dict[str, Any] = {"python": sys.version.split()[0]}
    if args.only != "deals":
        out["hands"] = bench_hands(args.hands)
        for name, r in out["hands"]["per_second"].items():
            print(f"{name:40s} " + "  ".join(f"{k} {v:>10,.0f}/s" for k, v in r.items()))
    if args.only != "hands":
        out["deals"] = bench_deals(args.deals, args.warmup)
        d = out["deals"]
        print(f"deals of four efficiency bots: cold {d['cold_ms_per_deal']:.1f} ms, after {d['warmup']} warm-up "
              f"deals {d['warm_ms_per_deal']:.1f} ms ({d['deals_per_second']:.1f}/s, "
              f"{d['decisions_per_deal']:.0f} decisions), with hints {d['warm_ms_per_deal_with_hints']:.1f} ms")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
