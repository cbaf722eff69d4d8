"""Shengji benchmarks (run on demand, not a test):

    PYTHONPATH=src python bench/shengji.py [--hands 50] [--bot-hands 6]

* legal-play generation and checking per second (hint lists, follow checks, whole ``check`` calls);
* whole random four-deck hands per second: the deal with its 216 declaration windows (random declarations, each
  window closed by the host's ``deal()`` = ``timeout``), then every trick with random legal plays; also with all
  four seats answering every window (``pass``), as four bots at a table do;
* the rule bot's time per move (mean, median, p99, max).

Rates are per CPU second (``time.process_time``), the steadier figure on a shared machine; the hands and the bot
also show wall-clock time.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from qipai.core.rng import Rng
from qipai.games.shengji.bots import BOTS
from qipai.games.shengji.cards import parse_cards
from qipai.games.shengji.follow import follow_error, follow_options
from qipai.games.shengji.game import ShengjiGame, lead_options


def random_hand(seed: int, answer_all: bool = False) -> ShengjiGame:
    rng = Rng(seed)
    g = ShengjiGame({}, seed)
    while g.phase in ("deal", "final"):
        if g.dealt % 8 == 0:  # now and then a seat that can declares
            s = rng.below(4)
            if s in g.acting:
                la = g.legal_actions(s)
                if len(la) > 1:
                    g.apply(la[1 + rng.below(len(la) - 1)], s)
        if answer_all:
            for s in g.acting:
                g.apply("pass", s)
                if g.phase == "play":
                    break
        elif g.acting:
            g.timeout(g.acting[0])
    while not g.is_over:
        s = g.acting[0]
        la = g.legal_actions(s)
        g.apply(la[rng.below(len(la))], s)
    return g


def bench_hands(n: int, answer_all: bool) -> tuple[float, float]:
    """(wall seconds, CPU seconds) per hand; on a shared machine the CPU time is the steadier figure."""
    t, c = time.perf_counter(), time.process_time()
    for i in range(n):
        random_hand(i, answer_all)
    return (time.perf_counter() - t) / n, (time.process_time() - c) / n


def bench_legal(n_hands: int) -> dict[str, float]:
    """Per play position of random hands: hint-list generation and follow checks."""
    states: list[tuple[Any, ...]] = []
    for i in range(n_hands):
        g = ShengjiGame({}, 10_000 + i)
        rng = Rng(i)
        while g.phase != "play":
            g.timeout(g.acting[0])
        while not g.is_over:
            s = g.acting[0]
            la = g.legal_actions(s)
            states.append((list(g.hands[s]), g.lead, g.order, la))
            g.apply(la[rng.below(len(la))], s)
    t = time.process_time()
    gens = 0
    for hand, lead, o, _ in states:
        if lead is None:
            lead_options(hand, o)
        else:
            follow_options(hand, lead, o)
        gens += 1
    t_gen = time.process_time() - t
    follows = [(h, lead, o, [parse_cards(a[5:]) for a in la]) for h, lead, o, la in states if lead is not None]
    t = time.process_time()
    checks = 0
    for hand, lead, o, plays in follows:
        for p in plays:
            follow_error(hand, lead, p, o)
            checks += 1
    t_chk = time.process_time() - t
    # whole Game.check on the play states of one hand
    g = ShengjiGame({}, 1)
    while g.phase != "play":
        g.timeout(g.acting[0])
    calls = 0
    t = time.process_time()
    while not g.is_over:
        s = g.acting[0]
        la = g.legal_actions(s)
        for a in la:
            g.check(a, s)
            calls += 1
        g.apply(la[0], s)
    t_game = time.process_time() - t
    return {"hint lists / s": gens / t_gen, "follow checks / s": checks / t_chk,
            "legal_actions + check per action / s": calls / t_game}


def bench_bot(hands: int) -> dict[str, float]:
    times: list[float] = []
    for i in range(hands):
        g = ShengjiGame({}, 20_000 + i)
        bots = [BOTS["rule"](i * 4 + s) for s in range(4)]
        while not g.is_over:
            if g.phase in ("deal", "final"):
                for s in g.acting:
                    t = time.process_time()
                    a = bots[s].act(g.observe(s), g.legal_actions(s))
                    times.append(time.process_time() - t)
                    g.apply(a, s)
                    if g.phase == "play":
                        break
                continue
            s = g.acting[0]
            obs, la = g.observe(s), g.legal_actions(s)
            t = time.process_time()
            a = bots[s].act(obs, la)
            times.append(time.process_time() - t)
            g.apply(a, s)
    play_times = times  # every decision, windows included
    q = sorted(play_times)
    return {"mean ms": 1000 * statistics.mean(q), "median ms": 1000 * q[len(q) // 2],
            "p99 ms": 1000 * q[int(len(q) * 0.99)], "max ms": 1000 * q[-1], "decisions": len(q)}


def bench_bot_play(hands: int) -> dict[str, float]:
    """The rule bot's time per play-phase move only (wall clock, and the thread's CPU time)."""
    times: list[float] = []
    cpu: list[float] = []
    for i in range(hands):
        g = ShengjiGame({}, 30_000 + i)
        bots = [BOTS["rule"](i * 4 + s) for s in range(4)]
        while g.phase != "play":
            g.timeout(g.acting[0])
        while not g.is_over:
            s = g.acting[0]
            obs, la = g.observe(s), g.legal_actions(s)
            t, c = time.perf_counter(), time.thread_time()
            a = bots[s].act(obs, la)
            times.append(time.perf_counter() - t)
            cpu.append(time.thread_time() - c)
            g.apply(a, s)
    q = sorted(times)
    qc = sorted(cpu)
    return {"mean ms": 1000 * statistics.mean(q), "median ms": 1000 * q[len(q) // 2],
            "p99 ms": 1000 * q[int(len(q) * 0.99)], "max ms": 1000 * q[-1],
            "CPU mean ms": 1000 * statistics.mean(qc), "CPU p99 ms": 1000 * qc[int(len(qc) * 0.99)],
            "CPU max ms": 1000 * qc[-1], "moves": len(q)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=50)
    ap.add_argument("--bot-hands", type=int, default=6)
    args = ap.parse_args()
    if args.hands < 1 or args.bot_hands < 1:
        raise SystemExit(f"--hands and --bot-hands must be at least 1, got {args.hands} and {args.bot_hands}")
    for label, answer_all, n in (("deal() closes each window", False, args.hands),
                                 ("all four seats answer every window", True, max(1, args.hands // 2))):
        wall, cpu = bench_hands(n, answer_all)
        print(f"random hand ({label}): {wall * 1000:.1f} ms wall, {cpu * 1000:.1f} ms CPU per hand, "
              f"{1 / cpu:.0f} hands/s (CPU)")
    for k, v in bench_legal(max(1, args.hands // 10)).items():
        print(f"{k}: {v:,.0f}")
    for k, v in bench_bot_play(args.bot_hands).items():
        print(f"rule bot, play moves, {k}: {v:.2f}" if "ms" in k else f"rule bot, {k}: {v:.0f}")
    for k, v in bench_bot(max(1, args.bot_hands // 2)).items():
        print(f"rule bot, every decision (windows too), {k}: {v:.3f}" if "ms" in k else f"rule bot, {k}: {v:.0f}")


if __name__ == "__main__":
    main()
