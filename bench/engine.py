"""Side-by-side benchmark of qipai's Dou Dizhu engine and its peers: RLCard, DouZero, OpenSpiel.

    python bench/engine.py [--quick] [--json out.json]

Every engine is measured on the same random positions (fixed seeds), each in its own fresh subprocess
so that peak memory (``ru_maxrss``) is comparable and one engine's caches or garbage cannot slow another.

Workloads
---------
- **leads 20 / leads 17**: every leading move of a random 20- or 17-card hand (``random_hands`` from
  ``bench/peers.py``, seeds 20 and 17).
- **answers**: every answer of a 17-card hand to a previous move.  Each position comes from one random
  deal (``random_deal``, seed 3): the landlord (seat 0: 17 cards + kitty) leads ``prev``, drawn uniformly from
  its legal leads, and seat 1's 17 cards answer.  ``prev`` is restricted to moves that every engine reads the
  same way: one reading under qipai's ``classic`` rules, no four-with-two (OpenSpiel has none), no triple or
  four among a plane's single kickers (RLCard rejects some, DouZero mis-ranks them) and at most 19 cards
  (OpenSpiel cannot position a 20-card prev).  The positions depend only on the seed, not on which peers
  are installed.
- **self-play**: random games from the deal to the end, every decision uniform among the legal ones (pass
  included when following).  qipai runs ``Game`` with the ``classic`` preset, bidding included (random
  ``apply`` of ``legal_actions()`` until the play phase), twice: the fast path (``legal_moves()`` /
  ``apply_move``) and the text API (``legal_actions()`` / ``apply``).  Peers run their own game loops through
  ``bench/peers.py`` (``random_selfplay``): RLCard's env (no bidding, observations built every step), DouZero's
  ``GameEnv`` (no bidding), OpenSpiel's C++ game driven from Python (bidding included).

Only the generation call is timed, on input already converted to the engine's native form:

| engine | leads | answers |
|---|---|---|
| qipai | ``legal_moves(counts, rules)`` | ``legal_moves(counts, rules, to_beat=move)`` |
| RLCard | ``DoudizhuJudger.playable_cards_from_hand(str)`` | ``player.available_actions(greater_player)`` |
| DouZero | ``GameEnv.get_legal_card_play_actions()`` | same, with ``card_play_action_seq = [prev]`` |
| OpenSpiel | ``state.legal_actions()`` | ``state.legal_actions()`` |

OpenSpiel cannot be given a hand from Python: each position is reached by replaying a forced deal and
filler plays (``bench/peers.py``); that positioning is built before the clock starts and its cost is
reported separately.  Workloads are timed by the worker's CPU time (``time.process_time``; ``--clock wall``
for wall-clock time): on a small shared machine other jobs' load then inflates no engine's numbers, and no
engine here uses more than one thread.  Move generation runs with the garbage collector off (as ``timeit`` does); each
workload is repeated within a worker (generation 5 times, self-play 3 times) and the workers themselves run
in 3 rounds, engines alternating, so that a burst of other load on the machine spoils one run rather than
one engine; the best run of each workload is kept (``--quick``: one round, fewer repeats).  Throughput is
positions (or games) per second; the moves each engine generates per position are shown too (DouZero and
OpenSpiel list some moves more than once, RLCard's answers include ``pass``).

``import qipai.games.doudizhu`` is timed in fresh interpreters (median of several).  Peak memory is the peak
resident set size of each engine's benchmark subprocess after all its workloads: ``VmHWM`` on Linux, the
kernel's high-water mark behind ``ru_maxrss``, read from ``/proc`` because a spawned process's
``ru_maxrss`` also counts its parent's size at the fork (see ``peak_mb``); the bare-interpreter line is
this script's worker doing nothing.  Two peaks are shown: the timing worker's (all positions converted
to the engine's input up front, as the timing needs: 2,000 DouZero ``GameEnv`` objects, OpenSpiel states,
RLCard players), and the engine's own (``work_memory``: the same workloads once, each position converted just
before its call and dropped after).

A missing or broken peer is reported as missing; the run goes on.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RANKS = "3456789TJQKA2BR"
ENGINES = ("qipai", "rlcard", "douzero", "openspiel")
PEER_ENGINES = ("rlcard", "douzero", "openspiel")
WORKLOADS = ("leads20", "leads17", "answers", "selfplay")
SEEDS = {"leads20": 20, "leads17": 17, "answers": 3, "selfplay": 11}

FULL = {
    "hands": 2000,  # hands per lead workload
    "answers": 2000,  # answer positions
    "repeats": 5,  # best of N for move generation
    "game_repeats": 3,  # best of N for self-play
    "games": {"qipai": 1000, "qipai_text": 400, "rlcard": 150, "douzero": 400, "openspiel": 3000},
    "import_runs": 9,
    "rounds": 3,  # every worker runs this many times, alternating engines; the best run of each workload counts
}
QUICK = {
    "hands": 300,
    "answers": 300,
    "repeats": 3,
    "game_repeats": 1,
    "games": {"qipai": 100, "qipai_text": 50, "rlcard": 20, "douzero": 50, "openspiel": 300},
    "import_runs": 5,
    "rounds": 1,
}


def counts_of(cards: str) -> tuple[int, ...]:
    c = [0] * 15
    for ch in cards:
        c[RANKS.index(ch)] += 1
    return tuple(c)


def ru_maxrss_mb() -> float:
    """``ru_maxrss`` of this process in MiB (Linux reports KiB, macOS bytes)."""
    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return r / (1024 * 1024) if sys.platform == "darwin" else r / 1024


def peak_mb() -> float:
    """This process's peak resident set size in MiB.

    On Linux, ``ru_maxrss`` of a process started by another one also counts the parent's memory at the
    fork (the kernel carries the old address space's high-water mark across ``exec``), so a worker spawned
    by this benchmark would report at least the benchmark's own size.  ``VmHWM`` in ``/proc/self/status``
    is the same high-water mark for the worker's own address space only; elsewhere use ``ru_maxrss``.
    """
    try:
        for ln in Path("/proc/self/status").read_text().splitlines():
            if ln.startswith("VmHWM:"):
                return int(ln.split()[1]) / 1024
    except OSError:
        pass
    return ru_maxrss_mb()


# ------------------------------------------------------------------------------------------------
# positions (parent process)
# ------------------------------------------------------------------------------------------------


def make_spec(cfg: dict[str, Any]) -> dict[str, Any]:
    """The positions every worker measures: built from fixed seeds, independent of installed peers."""
    sys.path.insert(0, str(ROOT))
    from bench.peers import random_deal, random_hands

    from qipai.games.doudizhu import PRESETS, classify, legal_moves

    rules = PRESETS["classic"]
    n = cfg["hands"]
    spec: dict[str, Any] = {
        "leads20": random_hands(n, 20, seed=SEEDS["leads20"]),
        "leads17": random_hands(n, 17, seed=SEEDS["leads17"]),
        "answers": [],
        "repeats": cfg["repeats"],
        "game_repeats": cfg["game_repeats"],
        "games": cfg["games"],
        "seed": SEEDS["selfplay"],
    }
    rng = random.Random(SEEDS["answers"])
    while len(spec["answers"]) < cfg["answers"]:
        a, b, _c, kitty = random_deal(rng)
        lord = a + kitty
        cands = []
        for m in legal_moves(lord, rules):
            if m.kind in ("four_two_singles", "four_two_pairs") or m.size > 19:
                continue
            if len(classify(m.counts, rules)) != 1:
                continue
            if m.kind == "plane_singles":
                lo = m.main - m.length + 1
                if any(m.counts[r] >= 3 for r in range(15) if not lo <= r <= m.main):
                    continue
            cands.append(m)
        m = rng.choice(cands)
        spec["answers"].append([b, m.text, m.kind])
    return spec


# ------------------------------------------------------------------------------------------------
# workers (one subprocess per engine)
# ------------------------------------------------------------------------------------------------


CLOCK: Callable[[], float] = time.process_time  # set by --clock; the worker gets it through the spec


def best_of(repeats: int, fn: Callable[[], int]) -> tuple[float, int]:
    """Best time of ``repeats`` calls of ``fn`` (GC off), and what ``fn`` returned."""
    best = float("inf")
    out = 0
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        try:
            t = CLOCK()
            out = fn()
            dt = CLOCK() - t
        finally:
            gc.enable()
        best = min(best, dt)
    return best, out


def gen_result(n: int, seconds: float, moves: int, **extra: Any) -> dict[str, Any]:
    return {"n": n, "seconds": seconds, "per_s": n / seconds, "us_each": seconds / n * 1e6,
            "moves_each": moves / n, **extra}


def best_games(repeats: int, fn: Callable[[], int]) -> tuple[float, int]:
    """Best time of ``repeats`` runs of a seeded self-play loop (GC on), and its card plays."""
    best = float("inf")
    plays = 0
    for _ in range(repeats):
        gc.collect()
        t = CLOCK()
        plays = fn()
        best = min(best, CLOCK() - t)
    return best, plays


def game_result(games: int, seconds: float, plays: int, **extra: Any) -> dict[str, Any]:
    return {"n": games, "seconds": seconds, "per_s": games / seconds, "ms_each": seconds / games * 1e3,
            "plays": plays, "plays_per_s": plays / seconds, **extra}


def qipai_selfplay(games: int, seed: int, fast: bool) -> int:
    """Random games through ``Game``; returns the number of card plays."""
    from qipai.games.doudizhu import PRESETS
    from qipai.games.doudizhu.state import Game

    rules = PRESETS["classic"]
    rng = random.Random(seed)
    plays = 0
    for i in range(games):
        g = Game.new(rules, seed * 1_000_003 + i)
        if fast:
            while g.phase != "play" and g.phase != "over":  # bidding (and any doubling): text actions
                g.apply(rng.choice(g.legal_actions()))
            while g.phase == "play":
                moves = g.legal_moves()
                if g.trick.last is None:
                    move = rng.choice(moves)
                else:
                    k = rng.randrange(len(moves) + 1)
                    move = moves[k - 1] if k else None
                if move is not None:
                    plays += 1
                g.apply_move(move)
        else:
            while g.phase != "over":
                a = rng.choice(g.legal_actions())
                if a.startswith("play"):
                    plays += 1
                g.apply(a)
    return plays


def work_qipai(spec: dict[str, Any]) -> dict[str, Any]:
    t = time.perf_counter()
    from qipai.games.doudizhu import PRESETS, classify, legal_moves

    import_s = time.perf_counter() - t
    rules = PRESETS["classic"]
    t = time.perf_counter()
    legal_moves(counts_of("3334445556667778889"), rules)  # first call builds the rule set's tables
    first_call_s = time.perf_counter() - t
    rep = spec["repeats"]
    res: dict[str, Any] = {"version": _version("qipai"), "import_s": import_s, "first_call_s": first_call_s}
    for w in ("leads20", "leads17"):
        hands = [counts_of(h) for h in spec[w]]
        secs, moves = best_of(rep, lambda hands=hands: sum(len(legal_moves(c, rules)) for c in hands))
        res[w] = gen_result(len(hands), secs, moves)
    pos = []
    for hand, prev, kind in spec["answers"]:
        (m,) = [m for m in classify(prev, rules) if m.kind == kind]
        pos.append((counts_of(hand), m))
    secs, moves = best_of(rep, lambda: sum(len(legal_moves(c, rules, m)) for c, m in pos))
    res["answers"] = gen_result(len(pos), secs, moves)
    g = spec["games"]
    for key, fast in (("selfplay", True), ("selfplay_text", False)):
        n = g["qipai" if fast else "qipai_text"]
        secs, plays = best_games(spec["game_repeats"], lambda n=n, fast=fast: qipai_selfplay(n, spec["seed"], fast))
        res[key] = game_result(n, secs, plays)
    return res


def work_rlcard(spec: dict[str, Any]) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from bench.peers import RLCardPeer

    peer = RLCardPeer()
    if not peer.available():
        raise ModuleNotFoundError("rlcard is not installed")
    from rlcard.games.doudizhu.judger import DoudizhuJudger

    rep = spec["repeats"]
    res: dict[str, Any] = {"version": peer.version()}
    gen = DoudizhuJudger.playable_cards_from_hand  # what the judger runs for a fresh hand
    for w in ("leads20", "leads17"):
        hands = list(spec[w])  # RLCard's native hand string is our canonical notation
        gen(hands[0])
        secs, moves = best_of(rep, lambda hands=hands: sum(len(gen(h)) for h in hands))
        res[w] = gen_result(len(hands), secs, moves)
    pos = []
    for hand, prev, _kind in spec["answers"]:
        player = peer._player(hand, 0)
        greater = peer._player("", 1)
        greater.played_cards = prev
        pos.append((player, greater))
    secs, moves = best_of(rep, lambda: sum(len(p.available_actions(g)) for p, g in pos))
    res["answers"] = gen_result(len(pos), secs, moves, note="answers include 'pass'")
    n = spec["games"]["rlcard"]
    secs, plays = best_games(spec["game_repeats"], lambda: peer.random_selfplay(n, spec["seed"]))
    res["selfplay"] = game_result(n, secs, plays)
    return res


def work_douzero(spec: dict[str, Any]) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from bench.peers import DouZeroPeer, to_douzero

    peer = DouZeroPeer()
    if not peer.available():
        raise ModuleNotFoundError("douzero is not installed")
    rep = spec["repeats"]
    res: dict[str, Any] = {"version": peer.version()}
    for w in ("leads20", "leads17"):
        envs = [peer._env(h, []) for h in spec[w]]
        secs, moves = best_of(rep, lambda envs=envs: sum(len(e.get_legal_card_play_actions()) for e in envs))
        res[w] = gen_result(len(envs), secs, moves)
    envs = [peer._env(hand, [to_douzero(prev)]) for hand, prev, _kind in spec["answers"]]
    secs, moves = best_of(rep, lambda: sum(len(e.get_legal_card_play_actions()) for e in envs))
    res["answers"] = gen_result(len(envs), secs, moves, note="answers include pass")
    n = spec["games"]["douzero"]
    secs, plays = best_games(spec["game_repeats"], lambda: peer.random_selfplay(n, spec["seed"]))
    res["selfplay"] = game_result(n, secs, plays)
    return res


def work_openspiel(spec: dict[str, Any]) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from bench.peers import OpenSpielPeer, PeerError

    peer = OpenSpielPeer()
    if not peer.available():
        raise ModuleNotFoundError("pyspiel (open-spiel) is not installed")
    rep = spec["repeats"]
    res: dict[str, Any] = {"version": peer.version()}
    t = time.perf_counter()
    peer._tables()  # the adapter's action id -> cards table (adapter cost, not OpenSpiel's)
    res["adapter_table_s"] = time.perf_counter() - t
    for w in ("leads20", "leads17"):
        t = time.perf_counter()
        states = [peer._lead_state(h) for h in spec[w]]
        pos_s = time.perf_counter() - t
        secs, moves = best_of(rep, lambda states=states: sum(len(s.legal_actions()) for s in states))
        res[w] = gen_result(len(states), secs, moves, positioning_us_each=pos_s / len(states) * 1e6)
    states = []
    skipped = 0
    t = time.perf_counter()
    for hand, prev, kind in spec["answers"]:
        try:
            states.append(peer._answer_state(hand, prev, kind))
        except PeerError:
            skipped += 1
    pos_s = time.perf_counter() - t
    secs, moves = best_of(rep, lambda: sum(len(s.legal_actions()) for s in states))
    res["answers"] = gen_result(len(states), secs, moves, skipped=skipped, note="answers include pass",
                                positioning_us_each=pos_s / max(1, len(states)) * 1e6)
    n = spec["games"]["openspiel"]
    secs, plays = best_games(spec["game_repeats"], lambda: peer.random_selfplay(n, spec["seed"]))
    res["selfplay"] = game_result(n, secs, plays)
    return res


def work_memory(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    """Every workload once, converting each position just before its call and dropping it after, so that
    the peak memory is the engine's own (the timing workers keep all positions converted at once)."""
    leads = spec["leads20"] + spec["leads17"]
    if name == "qipai":
        from qipai.games.doudizhu import PRESETS, classify, legal_moves

        rules = PRESETS["classic"]
        for h in leads:
            legal_moves(counts_of(h), rules)
        for hand, prev, kind in spec["answers"]:
            legal_moves(counts_of(hand), rules, next(m for m in classify(prev, rules) if m.kind == kind))
        qipai_selfplay(spec["games"]["qipai"], spec["seed"], True)
        qipai_selfplay(spec["games"]["qipai_text"], spec["seed"], False)
        return {}
    sys.path.insert(0, str(ROOT))
    from bench.peers import PEERS, PeerError, to_douzero

    peer: Any = PEERS[name]()
    if not peer.available():
        raise ModuleNotFoundError(f"{name} is not installed")
    if name == "rlcard":
        from rlcard.games.doudizhu.judger import DoudizhuJudger

        for h in leads:
            DoudizhuJudger.playable_cards_from_hand(h)
        for hand, prev, _kind in spec["answers"]:
            greater = peer._player("", 1)
            greater.played_cards = prev
            peer._player(hand, 0).available_actions(greater)
    elif name == "douzero":
        for h in leads:
            peer._env(h, []).get_legal_card_play_actions()
        for hand, prev, _kind in spec["answers"]:
            peer._env(hand, [to_douzero(prev)]).get_legal_card_play_actions()
    else:
        for h in leads:
            peer._lead_state(h).legal_actions()
        for hand, prev, kind in spec["answers"]:
            with contextlib.suppress(PeerError):
                peer._answer_state(hand, prev, kind).legal_actions()
    peer.random_selfplay(spec["games"][name], spec["seed"])
    return {}


WORKERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "python": lambda spec: {},
    "qipai": work_qipai,
    "rlcard": work_rlcard,
    "douzero": work_douzero,
    "openspiel": work_openspiel,
}


def _version(dist: str) -> str | None:
    import importlib.metadata

    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def worker_main(name: str, spec_path: str) -> None:
    global CLOCK
    spec = json.loads(Path(spec_path).read_text())
    CLOCK = time.process_time if spec.get("clock", "cpu") == "cpu" else time.perf_counter
    try:
        res = work_memory(name, spec) if spec.get("memory_only") and name != "python" else WORKERS[name](spec)
        res["status"] = "ok"
    except ModuleNotFoundError as e:
        res = {"status": "missing", "error": str(e)}
    except Exception as e:  # a broken peer must not stop the benchmark
        res = {"status": "error", "error": f"{type(e).__name__}: {e}"}
    res["peak_mb"] = peak_mb()
    res["ru_maxrss_mb"] = ru_maxrss_mb()
    print(json.dumps(res))


# ------------------------------------------------------------------------------------------------
# parent
# ------------------------------------------------------------------------------------------------


def run_worker(name: str, spec_path: str) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", name, "--spec", spec_path]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode != 0 or not lines:
        tail = (p.stderr or p.stdout).strip().splitlines()[-3:]
        return {"status": "error", "error": f"worker exited {p.returncode}: " + " | ".join(tail)}
    return dict(json.loads(lines[-1]))


def merge(best: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """Keep the better run of each workload (higher throughput) and the higher peak memory."""
    if best is None or best.get("status") != "ok":
        return new
    if new.get("status") != "ok":
        return best
    out = dict(best)
    for k, v in new.items():
        if isinstance(v, dict) and "per_s" in v and (k not in out or v["per_s"] > out[k]["per_s"]):
            out[k] = v
    out["peak_mb"] = max(best["peak_mb"], new["peak_mb"])
    out["ru_maxrss_mb"] = max(best["ru_maxrss_mb"], new["ru_maxrss_mb"])
    out["rounds"] = best.get("rounds", 1) + 1
    return out


IMPORTS = {
    "qipai": "qipai.games.doudizhu",
    "rlcard": "rlcard.games.doudizhu.judger",
    "douzero": "douzero.env.game",
    "openspiel": "pyspiel",
}


def import_time(module: str, runs: int) -> dict[str, Any] | None:
    """Median seconds (wall clock and CPU) to import ``module`` in a fresh interpreter (start-up not counted)."""
    code = (f"import time; w = time.perf_counter(); c = time.process_time(); import {module}; "
            f"print(time.perf_counter() - w, time.process_time() - c)")
    wall, cpu = [], []
    for _ in range(runs):
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
        if p.returncode != 0:
            return None
        w, c = p.stdout.strip().splitlines()[-1].split()
        wall.append(float(w))
        cpu.append(float(c))
    return {"median_s": statistics.median(wall), "min_s": min(wall), "max_s": max(wall),
            "cpu_median_s": statistics.median(cpu), "runs": runs}


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for ln in Path("/proc/cpuinfo").read_text().splitlines():
            if ln.startswith("model name"):
                cpu = ln.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        rev = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True,
                             cwd=ROOT).stdout.strip() or None
    except OSError:
        rev = None
    return {"git": rev, "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
            "python": platform.python_version(), "implementation": platform.python_implementation(),
            "platform": platform.platform(), "cpu": cpu, "cpus": os.cpu_count()}


def ratio(a: dict[str, Any] | None, b: dict[str, Any] | None) -> float | None:
    if not a or not b:
        return None
    return float(a["per_s"] / b["per_s"])


def compute_ratios(results: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    q = results.get("qipai", {})
    for w in WORKLOADS:
        qa = q.get(w)
        row: dict[str, Any] = {}
        peers = [(e, results.get(e, {}).get(w)) for e in ("rlcard", "douzero")]
        peers = [(e, r) for e, r in peers if r]
        if peers:
            fe, fr = max(peers, key=lambda er: er[1]["per_s"])
            row["faster_of_rlcard_douzero"] = fe
            row["vs_faster"] = ratio(qa, fr)
        row["vs_openspiel"] = ratio(qa, results.get("openspiel", {}).get(w))
        if w == "selfplay":
            qt = q.get("selfplay_text")
            if peers:
                row["text_vs_faster"] = ratio(qt, fr)
            row["text_vs_openspiel"] = ratio(qt, results.get("openspiel", {}).get(w))
        out[w] = row
    return out


def fmt(x: float | None, spec: str = ".1f") -> str:
    return "—" if x is None else format(x, spec)


def report(data: dict[str, Any]) -> str:
    res = data["results"]
    lines = []
    m = data["machine"]
    lines.append(f"machine: {m['cpu']}, {m['cpus']} CPUs, {m['implementation']} {m['python']}, {m['platform']}")
    lines.append(f"qipai at git {m['git']}; load average at the end {m['load_average']}")
    lines.append(f"mode: {'quick' if data['quick'] else 'full'}, best of {data['rounds']} rounds, "
                 f"{data['clock']} time; seeds {SEEDS}")
    for e in ("python", *ENGINES):
        r = res.get(e, {})
        st = r.get("status", "missing")
        ver = r.get("version") or ""
        if st != "ok":
            lines.append(f"  {e:10s} {st.upper()}: {r.get('error', '')}")
        elif e != "python":
            lines.append(f"  {e:10s} {ver}")
    lines.append("")
    hdr = f"{'workload':<22}" + "".join(f"{e:>16}" for e in ENGINES)
    lines.append("throughput (per second; µs or ms each; moves generated per position)")
    lines.append(hdr)
    rows = [("leads20", "leads, 20 cards"), ("leads17", "leads, 17 cards"), ("answers", "answers, 17 cards")]
    for w, label in rows:
        cells = []
        for e in ENGINES:
            r = res.get(e, {}).get(w)
            cells.append(f"{r['per_s']:>10,.0f}/s" if r else "—")
        lines.append(f"{label:<22}" + "".join(f"{c:>16}" for c in cells))
        cells = []
        for e in ENGINES:
            r = res.get(e, {}).get(w)
            cells.append(f"{r['us_each']:.1f}µs {r['moves_each']:.0f}mv" if r else "")
        lines.append(f"{'':<22}" + "".join(f"{c:>16}" for c in cells))
    for w, label in (("selfplay", "self-play games"), ("selfplay_text", "self-play (text API)")):
        cells = []
        for e in ENGINES:
            r = res.get(e, {}).get(w)
            cells.append(f"{r['per_s']:>10,.0f}/s" if r else "—" if w == "selfplay" else "")
        lines.append(f"{label:<22}" + "".join(f"{c:>16}" for c in cells))
        cells = []
        for e in ENGINES:
            r = res.get(e, {}).get(w)
            cells.append(f"{r['ms_each']:.2f}ms {r['plays'] / r['n']:.0f}pl" if r else "")
        lines.append(f"{'':<22}" + "".join(f"{c:>16}" for c in cells))
    cells = [f"{res[e]['peak_mb']:.1f} MB" if res.get(e, {}).get("status") == "ok" else "—" for e in ENGINES]
    lines.append(f"{'peak RSS, timing run':<22}" + "".join(f"{c:>16}" for c in cells))
    cells = [f"{res[e]['engine_peak_mb']:.1f} MB" if "engine_peak_mb" in res.get(e, {}) else "—" for e in ENGINES]
    lines.append(f"{'peak RSS, engine only':<22}" + "".join(f"{c:>16}" for c in cells))
    imp = data["imports"]
    cells = [f"{imp[e]['median_s'] * 1000:.0f} ms" if imp.get(e) else "—" for e in ENGINES]
    lines.append(f"{'import, wall (median)':<22}" + "".join(f"{c:>16}" for c in cells))
    cells = [f"{imp[e]['cpu_median_s'] * 1000:.0f} ms" if imp.get(e) else "—" for e in ENGINES]
    lines.append(f"{'import, CPU (median)':<22}" + "".join(f"{c:>16}" for c in cells))
    base = res.get("python", {}).get("peak_mb")
    if base:
        lines.append(f"(bare interpreter running the worker: {base:.1f} MB)")
    os_ = res.get("openspiel", {})
    if os_.get("status") == "ok":
        lines.append(
            "OpenSpiel positioning (replaying deal + fillers, not timed above): "
            + ", ".join(f"{w} {os_[w]['positioning_us_each']:.0f}µs" for w in ("leads20", "leads17", "answers"))
            + f"; answers skipped: {os_['answers'].get('skipped', 0)}"
        )
    q = res.get("qipai", {})
    if q.get("status") == "ok":
        lines.append(f"qipai first legal_moves call (table build): {q['first_call_s'] * 1000:.0f} ms")
    lines.append("")
    lines.append("ratios (qipai throughput ÷ peer throughput)")
    for w in WORKLOADS:
        r = data["ratios"][w]
        s = f"  {w:<10} ÷ faster of RLCard/DouZero ({r.get('faster_of_rlcard_douzero', '—')}): "
        s += f"{fmt(r.get('vs_faster'), '.2f')}×; ÷ OpenSpiel: {fmt(r.get('vs_openspiel'), '.2f')}×"
        if w == "selfplay":
            s += (f"   [text API: {fmt(r.get('text_vs_faster'), '.2f')}×, "
                  f"÷ OpenSpiel {fmt(r.get('text_vs_openspiel'), '.2f')}×]")
        lines.append(s)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--quick", action="store_true", help="fewer positions and games (a few seconds)")
    ap.add_argument("--json", metavar="PATH", help="also write every number as JSON")
    ap.add_argument("--rounds", type=int, help="runs of every worker (default: 3, --quick: 1)")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="time workloads by the worker's CPU time (default; steadier on a shared machine) "
                    "or by wall-clock time")
    ap.add_argument("--only", metavar="ENGINES", help="comma-separated subset of " + ",".join(ENGINES))
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--spec", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker_main(args.worker, args.spec)
        return 0
    cfg = QUICK if args.quick else FULL
    unknown = sorted(set(args.only.split(",")) - set(ENGINES)) if args.only else []
    if unknown or (args.rounds is not None and args.rounds < 1):  # (an unknown engine measured nothing)
        raise SystemExit(f"unknown engine {unknown[0]!r}: --only takes some of {','.join(ENGINES)}" if unknown
                         else f"--rounds must be at least 1, got {args.rounds}")
    engines = [e for e in ENGINES if not args.only or e in args.only.split(",")]
    t0 = time.perf_counter()
    spec = make_spec(cfg)
    spec["clock"] = args.clock
    results: dict[str, dict[str, Any]] = {}
    rounds = args.rounds or cfg["rounds"]
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "spec.json")
        Path(path).write_text(json.dumps(spec))
        for i in range(rounds):
            for e in ("python", *engines):
                print(f"… round {i + 1}/{rounds}: {e}", file=sys.stderr, flush=True)
                results[e] = merge(results.get(e), run_worker(e, path))
        mem_path = str(Path(tmp) / "spec_memory.json")
        Path(mem_path).write_text(json.dumps({**spec, "memory_only": True}))
        for e in engines:
            print(f"… memory: {e}", file=sys.stderr, flush=True)
            r = run_worker(e, mem_path)
            if r.get("status") == "ok" and results[e].get("status") == "ok":
                results[e]["engine_peak_mb"] = r["peak_mb"]
    for e in ENGINES:
        if e not in engines:
            results[e] = {"status": "not run", "error": "not selected by --only"}
    imports = {e: import_time(IMPORTS[e], cfg["import_runs"]) for e in engines}
    data = {
        "command": " ".join(["python", "bench/engine.py", *(argv if argv is not None else sys.argv[1:])]),
        "quick": args.quick,
        "rounds": rounds,
        "clock": args.clock,
        "machine": machine(),
        "config": {k: v for k, v in cfg.items()},
        "seeds": SEEDS,
        "results": results,
        "imports": imports,
        "total_s": time.perf_counter() - t0,
    }
    data["ratios"] = compute_ratios(results)
    print(report(data))
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
