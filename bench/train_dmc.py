"""Train the ``dmc`` bot's action values (``qipai.games.doudizhu.bots.dmc``) by Deep Monte-Carlo on self-play made
here, on CPU, in NumPy.

Recipe (all seeded; one BLAS thread, so a run with the same arguments writes the same weights):

1. **Warm start** (``--warm`` games): every seat plays the ``heuristic`` bot's move, except that with probability
   ``--deviate`` it plays a legal move drawn uniformly.  Every decision is one example: the input of the move
   played → +1 if the seat's side won the game, else −1.  The values so learned are the heuristic's own
   action values (what each move is worth if everyone plays the heuristic afterwards): greedy play on them is
   one step of policy improvement over the heuristic.
2. **Self-play** (``--iterations`` rounds): ``--games`` games with every seat playing the network greedily, a
   uniformly drawn legal move with probability ``--epsilon``; their examples join a replay buffer of the last
   ``--buffer`` examples, and the network takes ``--reuse`` × (new examples) ÷ ``--batch`` steps of Adam
   (learning rate ``--lr``) on the squared error, batches drawn uniformly from the buffer.
3. Deals are random three-player deals from ``make_deals(·, seed=DATA_SEED + round)`` (never the research
   protocol's evaluation deals, ``seed=20210611``); seat 0 is the landlord with the kitty, which all see.
4. Every ``--eval-every`` rounds the greedy network plays ``--eval`` duplicate deals against the heuristic
   (both roles) and the weights are written to ``--out`` (a zip with fixed timestamps).
5. ``--workers N`` plays each round's games (and the warm start's) in ``N`` processes, the learner waiting for
   the round (synchronous actors: the learner's steps take a small part of a round).  Each game then draws its
   moves from a random source of its own (seeded by the round and the game's number), so a run writes the same
   weights whatever ``N`` is (``--workers 1`` plays in this process); without the option the games of a round
   share one source, as the committed weights were made.
   ``--lockstep B`` (with ``--workers``) plays a worker's games side by side in blocks of ``B``, each step
   valuing every block game's decision in one batch: the same games (each game's random source unchanged) up to
   float rounding where two values nearly tie, several times fewer NumPy calls.  A block's batches do not
   depend on the number of workers, so neither do the weights.
6. ``--average D`` also keeps an exponential moving average of the weights (each Adam step moves it ``1 − D`` of
   the way to the weights) and writes it beside ``--out`` as ``NAME.avg.npz`` at each evaluation: averaged
   weights are often a little better than the last ones of a noisy run.
7. ``--hidden A,B,C`` sets the hidden layers (default the bot's ``HIDDEN``); with ``--init`` the start
   network is widened to them, new units silent at first (:meth:`QNet.widened`), so training goes on from the
   same values with more capacity.
8. ``--split sides`` (or ``roles``) gives the landlord a network of its own and the farmers one (or each role
   one, DouZero's way): each network learns only from its roles' decisions, with a replay buffer of its own
   (``--buffer`` shared among them in proportion to their roles), an Adam of its own and as many steps as its
   examples ask.  With a shared ``--init`` network every network starts as a copy of it; an ``--init`` that is
   split already goes on split.
9. ``--explore-opening P`` (with ``--lockstep``): with probability ``P`` a game's opening lead is drawn
   uniformly from the landlord's ``--explore-top K`` most valued leads (0: all of them) instead of greedily,
   the rest of the game played as before, so the opening's example values an alternative lead under the
   network's own play (exploring starts).  ``--lam L`` (with ``--lockstep``): each example's target is the
   λ-return over the highest values of its seat's later decisions (``lambda_returns``) instead of the game's
   result: less noise per target, some bias from the network's own values; 1 is Monte-Carlo, as before.

    python bench/train_dmc.py --minutes 60                 # stops after the round that passes 60 minutes
    python bench/train_dmc.py --iterations 120 --out /tmp/q.npz
    python bench/train_dmc.py --init /tmp/q.npz --first-round 121 --iterations 500 --out /tmp/q2.npz   # go on

The log prints each evaluation; the committed ``src/qipai/data/ddz_dmc.npz`` names its command in docs/bots.md.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import itertools
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

DATA_SEED = 91_000_001
EVAL_SEED = 92_000_001
TRAIN_SEED = 11
OUT = Path(__file__).resolve().parents[1] / "src" / "qipai" / "data" / "ddz_dmc.npz"


def _deal_counts(deal: Any) -> tuple[list[list[int]], list[int]]:
    from qipai.games.doudizhu.bots.view import counts_of_text

    hands = [counts_of_text(h) for h in deal.hands]
    kitty = counts_of_text(deal.kitty)
    for r, k in enumerate(kitty):
        hands[0][r] += k
    return hands, kitty


class Buffer:
    """The last ``cap`` examples (float16 inputs, float32 targets)."""

    def __init__(self, cap: int, width: int) -> None:
        self.x = np.zeros((cap, width), dtype=np.float16)
        self.y = np.zeros(cap, dtype=np.float32)
        self.cap = cap
        self.n = 0
        self.at = 0

    def add(self, x: Any, y: Any) -> None:
        for i in range(0, len(x), self.cap):
            xs, ys = x[i:i + self.cap], y[i:i + self.cap]
            k = len(xs)
            end = self.at + k
            if end <= self.cap:
                self.x[self.at:end], self.y[self.at:end] = xs, ys
            else:
                first = self.cap - self.at
                self.x[self.at:], self.y[self.at:] = xs[:first], ys[:first]
                self.x[:k - first], self.y[:k - first] = xs[first:], ys[first:]
            self.at = end % self.cap
            self.n = min(self.cap, self.n + k)


def play_games(deals: list[Any], rules: Any, choose_for: Any) -> tuple[Any, Any, list[int]]:
    """Examples of the games of ``deals`` (``choose_for(seat)`` is each seat's chooser) and the winners."""
    from qipai.games.doudizhu.bots.dmc import action_rows, self_play

    xs: list[Any] = []
    seats: list[int] = []
    ys: list[float] = []
    winners = []
    for deal in deals:
        hands, kitty = _deal_counts(deal)
        rows: list[Any] = []
        who: list[int] = []

        def record(d: Any, i: int, rows: list[Any] = rows, who: list[int] = who) -> None:
            if len(d.moves) > 1:
                rows.append(np.concatenate([d.state, action_rows(d.hand, [d.moves[i]])[0]]))
                who.append(d.seat)

        out = self_play(hands, kitty, rules, lambda d: choose_for(d.seat)(d), record)
        winners.append(out)
        landlord_won = out == 0
        xs += rows
        seats += who
        ys += [1.0 if (s == 0) == landlord_won else -1.0 for s in who]
    x = np.asarray(xs, dtype=np.float16) if xs else np.zeros((0, 1), dtype=np.float16)
    return x, np.asarray(ys, dtype=np.float32), winners


def game_rng(round_no: int, index: int) -> random.Random:
    """The random source of game ``index`` of round ``round_no`` (0: the warm start) under ``--workers``."""
    return random.Random(f"dmc:{TRAIN_SEED}:{round_no}:{index}")


def play_side_by_side(net: Any, deals: list[Any], rules: Any, rngs: list[random.Random], eps: float,
                      k: int, explore: float = 0.0, top: int = 0, lam: float = 1.0) -> tuple[Any, Any]:
    """The examples of ε-greedy games of ``deals`` played side by side (``--lockstep``): at each step every
    unfinished game's decision is taken, those played greedily valued together
    (:meth:`QNet.batch_action_values`).  Game ``j`` draws from ``rngs[j]`` exactly as :func:`epsilon_greedy`
    does, so the games are the ones :func:`play_games` plays with those sources, up to float rounding where two
    moves' values nearly tie.  Examples in game order, as :func:`play_games` gives them.

    ``explore`` (``--explore-opening``): with this probability the landlord's opening lead is drawn uniformly
    from its ``top`` most valued leads (0: from all), instead of ε-greedily.  ``lam`` below 1
    (``--lam``): each example's target is the λ-return (:func:`lambda_returns`) over the values of its seat's
    later decisions instead of the game's result; every decision is then valued, the ε-drawn ones too."""
    from qipai.games.doudizhu.bots.dmc import action_rows, fill_states, self_play_steps

    steps = []
    at = []
    for deal in deals:
        hands, kitty = _deal_counts(deal)
        g = self_play_steps(hands, kitty, rules)
        steps.append(g)
        at.append(next(g))
    rows: list[list[Any]] = [[] for _ in deals]
    seats: list[list[int]] = [[] for _ in deals]
    values: list[list[float]] = [[] for _ in deals]  # the highest value of each recorded decision (``lam`` < 1)
    winner = [-1] * len(deals)  # the seat that went out (-1: the game goes on)
    first = [True] * len(deals)
    active = list(range(len(deals)))
    while active:
        chosen: dict[int, int] = {}
        row_of: dict[int, Any] = {}  # the chosen action's row, where the batch made it
        best_of: dict[int, float] = {}
        want: list[tuple[int, list[int], str]] = []
        for j in active:
            d = at[j]
            if len(d.moves) <= 1:
                chosen[j] = 0
            else:
                idx = d.candidates(k)
                if first[j] and explore and rngs[j].random() < explore:
                    want.append((j, idx, "explore"))
                elif rngs[j].random() < eps:
                    chosen[j] = int(rngs[j].choice(idx))
                    if lam < 1.0:
                        want.append((j, idx, "value"))
                else:
                    want.append((j, idx, "greedy"))
            first[j] = False
        if want:
            counts = [len(idx) for _, idx, _ in want]
            batch = action_rows(np.repeat(np.array([at[j].hand for j, _, _ in want]), counts, axis=0),
                                [at[j].moves[i] for j, idx, _ in want for i in idx])
            vals = net.batch_action_values(fill_states([at[j] for j, _, _ in want]), batch, counts)
            start = 0
            for j, idx, how in want:
                v = vals[start:start + len(idx)]
                best = int(np.argmax(v))
                best_of[j] = float(v[best])
                if how == "explore":
                    order = np.argsort(-v, kind="stable")
                    best = int(order[rngs[j].randrange(min(top, len(idx)) if top else len(idx))])
                if how != "value":
                    chosen[j], row_of[j] = int(idx[best]), batch[start + best]
                start += len(idx)
        for j in active:
            d, i = at[j], chosen[j]
            if len(d.moves) > 1:
                row = row_of[j] if j in row_of else action_rows(d.hand, [d.moves[i]])[0]
                rows[j].append(np.concatenate([d.state, row]))
                seats[j].append(d.seat)
                values[j].append(best_of.get(j, 0.0))
            try:
                at[j] = steps[j].send(i)
            except StopIteration as done:
                winner[j] = int(done.value)
        active = [j for j in active if winner[j] < 0]
    xs = [r for game in rows for r in game]
    ys = [t for j in range(len(deals)) for t in lambda_returns(seats[j], values[j], winner[j], lam)]  # λ 1: ±1
    x = np.asarray(xs, dtype=np.float16) if xs else np.zeros((0, 1), dtype=np.float16)
    return x, np.asarray(ys, dtype=np.float32)


def lambda_returns(seats: list[int], values: list[float], winner: int, lam: float) -> list[float]:
    """The λ-return of each decision of one game (seats in play order, ``values`` each decision's highest
    action value, the seat that went out): a seat's last decision gets the result (+1 its side won, −1 not),
    an earlier one ``(1 − λ) V′ + λ G′`` where ``V′`` is the value of the seat's next decision (clipped to
    [−1, 1]) and ``G′`` that decision's return.  λ = 1 is the result everywhere, exactly (Monte-Carlo), λ = 0
    the one-step (Q-learning) target.

    >>> lambda_returns([0, 1, 0, 1], [0.0, -0.2, 0.5, 0.25], winner=0, lam=0.5)
    [0.75, -0.375, 1.0, -1.0]
    """
    out = [0.0] * len(seats)
    ret: dict[int, tuple[float, float]] = {}  # seat → (its next decision's value, its return)
    for t in range(len(seats) - 1, -1, -1):
        s = seats[t]
        if s in ret:
            v, g = ret[s]
            out[t] = (1.0 - lam) * v + lam * g
        else:
            out[t] = 1.0 if (s == 0) == (winner == 0) else -1.0
        ret[s] = (min(1.0, max(-1.0, values[t])), out[t])
    return out


def play_chunk(job: tuple[Any, ...]) -> tuple[Any, Any]:
    """A worker's share of a round: ``(params or None, deals, first game number, round, p, k, lockstep,
    explore, top, lam)``; with weights every seat plays ε-greedy (ε = ``p``), without them the heuristic
    deviating with probability ``p``.  The examples of its games in order."""
    from qipai.games.doudizhu.bots.dmc import qnet_of
    from qipai.games.doudizhu.rules import PRESETS

    params, deals, first, round_no, p, k, lockstep, explore, top, lam = job
    net = None if params is None else qnet_of(params)
    xs, ys = [], []
    if net is not None and lockstep:  # blocks of ``lockstep`` games by their number in the round
        for a in range(0, len(deals), lockstep):
            block = deals[a:a + lockstep]
            x, y = play_side_by_side(net, block, PRESETS["classic"],
                                     [game_rng(round_no, first + a + j) for j in range(len(block))], p, k,
                                     explore, top, lam)
            if len(x):
                xs.append(x)
                ys.append(y)
        deals = []
    for j, deal in enumerate(deals):
        rng = game_rng(round_no, first + j)
        if net is None:
            x, y, _ = play_games([deal], PRESETS["classic"], lambda s, rng=rng: heuristic_deviating(p, rng, k))
        else:
            x, y, _ = play_games([deal], PRESETS["classic"], lambda s, rng=rng: epsilon_greedy(net, p, rng, k))
        if len(x):
            xs.append(x)
            ys.append(y)
    if not xs:
        return np.zeros((0, 1), dtype=np.float16), np.zeros(0, dtype=np.float32)
    return np.concatenate(xs), np.concatenate(ys)


def play_round(pool: Any, workers: int, params: Any, deals: list[Any], round_no: int, p: float,
               k: int, lockstep: int = 0, explore: float = 0.0, top: int = 0,
               lam: float = 1.0) -> tuple[Any, Any]:
    """The examples of ``deals`` played under ``--workers`` (the same arrays for any number of workers; under
    ``--lockstep B`` each worker takes whole blocks of ``B`` games, so the blocks, and their values' rounding,
    are the same for any number)."""
    unit = lockstep if lockstep and params is not None else 1
    blocks = -(-len(deals) // unit)
    n = max(1, min(workers, blocks))
    bounds = [min(len(deals), unit * (blocks * i // n)) for i in range(n + 1)]
    jobs = [(params, deals[a:b], a, round_no, p, k, lockstep, explore, top, lam)
            for a, b in itertools.pairwise(bounds)]
    parts = list(pool.map(play_chunk, jobs)) if pool is not None else [play_chunk(j) for j in jobs]
    parts = [(x, y) for x, y in parts if len(x)]
    if not parts:
        return np.zeros((0, 1), dtype=np.float16), np.zeros(0, dtype=np.float32)
    return np.concatenate([x for x, _ in parts]), np.concatenate([y for _, y in parts])


def greedy(net: Any, k: int = 0) -> Any:
    """The move of the highest value (among the shortlist of ``k``; 0: every legal move)."""
    from qipai.games.doudizhu.bots.dmc import action_rows

    def choose(d: Any) -> int:
        idx = d.candidates(k)
        v = net.action_values(d.state, action_rows(d.hand, [d.moves[i] for i in idx]))
        return int(idx[int(np.argmax(v))])

    return choose


def epsilon_greedy(net: Any, eps: float, rng: random.Random, k: int = 0) -> Any:
    g = greedy(net, k)

    def choose(d: Any) -> int:
        if rng.random() < eps:
            return int(rng.choice(d.candidates(k)))
        return int(g(d))

    return choose


def heuristic_deviating(p: float, rng: random.Random, k: int = 0) -> Any:
    def choose(d: Any) -> int:
        if rng.random() < p:
            return int(rng.choice(d.candidates(k)))
        return int(d.heuristic())

    return choose


class Adam:
    """Adam on the network's weight lists, MSE loss, NumPy float32."""

    def __init__(self, net: Any, lr: float) -> None:
        self.net = net
        self.lr = lr
        self.m = [np.zeros_like(p) for p in self._params()]
        self.v = [np.zeros_like(p) for p in self._params()]
        self.t = 0
        self.average: tuple[Any, float] | None = None
        """``(network, decay)``: a moving average of the weights that each step updates."""

    def _params(self) -> list[Any]:
        out = []
        for w, b in zip(self.net.w, self.net.b, strict=True):
            out += [w, b]
        return out

    def step(self, xb: Any, yb: Any) -> float:
        net = self.net
        hs = [xb.astype(np.float32)]
        pre = []
        for i in range(len(net.w) - 1):
            z = hs[-1] @ net.w[i] + net.b[i]
            pre.append(z)
            hs.append(np.maximum(z, 0.0))
        out = (hs[-1] @ net.w[-1] + net.b[-1])[:, 0]
        err = out - yb
        loss = float(np.mean(err * err))
        d = (2.0 * err / len(yb))[:, None].astype(np.float32)
        grads: list[Any] = []
        for i in range(len(net.w) - 1, -1, -1):
            gw = hs[i].T @ d
            gb = d.sum(0)
            grads = [gw, gb, *grads]
            if i > 0:
                d = (d @ net.w[i].T) * (pre[i - 1] > 0)
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        for k, (p, g) in enumerate(zip(self._params(), grads, strict=True)):
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            mh = self.m[k] / (1 - b1 ** self.t)
            vh = self.v[k] / (1 - b2 ** self.t)
            p -= (self.lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        if self.average is not None:
            avg, decay = self.average
            for a, p in zip([*avg.w, *avg.b], [*net.w, *net.b], strict=True):
                a *= decay
                a += (1.0 - decay) * p
        return loss


def train_steps(opt: Adam, buf: Buffer, steps: int, batch: int, rng: Any) -> float:
    total = 0.0
    for _ in range(steps):
        idx = rng.integers(0, buf.n, batch)
        total += opt.step(buf.x[idx], buf.y[idx])
    return total / max(1, steps)


def evaluate(net: Any, deals: list[Any], rules: Any, k: int = 0) -> tuple[float, float]:
    """WP of the greedy network against the heuristic: as landlord, as the farmers (duplicate deals)."""
    g = greedy(net, k)

    def heur(d: Any) -> int:
        return int(d.heuristic())

    _, _, as_landlord = play_games(deals, rules, lambda s: g if s == 0 else heur)
    _, _, as_farmers = play_games(deals, rules, lambda s: heur if s == 0 else g)
    return (sum(1 for w in as_landlord if w == 0) / len(deals),
            sum(1 for w in as_farmers if w != 0) / len(deals))


def eval_chunk(job: tuple[Any, ...]) -> tuple[float, float]:
    """:func:`evaluate` of ``(params, deals, k)`` in a worker: the landlord's and the farmers' wins."""
    from qipai.games.doudizhu.bots.dmc import qnet_of
    from qipai.games.doudizhu.rules import PRESETS

    params, deals, k = job
    ll, ff = evaluate(qnet_of(params), deals, PRESETS["classic"], k)
    return ll * len(deals), ff * len(deals)


def evaluate_in(pool: Any, workers: int, net: Any, deals: list[Any], rules: Any, k: int) -> tuple[float, float]:
    """:func:`evaluate`, its deals shared among the pool's workers (the same numbers)."""
    if pool is None:
        return evaluate(net, deals, rules, k)
    bounds = [len(deals) * i // workers for i in range(workers + 1)]
    parts = pool.map(eval_chunk, [(net.params(), deals[a:b], k) for a, b in itertools.pairwise(bounds) if b > a])
    return (round(sum(a for a, _ in parts)) / len(deals), round(sum(b for _, b in parts)) / len(deals))


def learn(opts: list[Adam], bufs: list[Buffer], groups: tuple[int, ...], x: Any, y: Any, reuse: float,
          batch: int, rng: Any) -> float:
    """Add the examples to the replay buffers and take ``reuse`` × (new examples) ÷ ``batch`` steps: each
    network (``groups[role]`` its index; one network: all zero) its own roles' examples and steps.  The mean
    loss of the steps."""
    if not len(x):
        return 0.0
    from qipai.games.doudizhu.bots.dmc import role_groups

    net_of = role_groups(x, groups)
    total, steps = 0.0, 0
    for i, (opt, buf) in enumerate(zip(opts, bufs, strict=True)):
        mine = net_of == i
        if not mine.any():
            continue
        buf.add(x[mine], y[mine])
        n = int(reuse * int(mine.sum()) / batch)
        total += train_steps(opt, buf, n, batch, rng) * n
        steps += n
    return total / max(1, steps)


def _parts(net: Any) -> tuple[list[Any], tuple[int, ...]]:
    """The networks training moves and the index of each role's: a split network's, or the one network."""
    from qipai.games.doudizhu.bots.dmc import SplitQNet

    return (net.nets, net.groups) if isinstance(net, SplitQNet) else ([net], (0, 0, 0))


def average_path(out: Path) -> Path:
    """Where ``--average`` writes the averaged weights of a run writing ``out``: ``NAME.avg.npz``."""
    return out.with_name(out.name.removesuffix(".npz") + ".avg.npz")


def save(net: Any, path: Path) -> None:
    """The weights as ``train_value.write_npz`` writes them (the same bytes for the same weights), in float16
    (half the size; the bot computes in float32)."""
    from train_value import write_npz

    write_npz(net.params(), path, np.float16)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--warm", type=int, default=20000, help="warm-start games (heuristic with deviations)")
    ap.add_argument("--deviate", type=float, default=0.1)
    ap.add_argument("--warm-epochs", type=float, default=2.0)
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--minutes", type=float, default=0.0, help="stop after the round that passes this (0: never)")
    ap.add_argument("--games", type=int, default=200, help="self-play games a round")
    ap.add_argument("--epsilon", type=float, default=0.05)
    ap.add_argument("--buffer", type=int, default=300_000)
    ap.add_argument("--reuse", type=float, default=2.0)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--eval", type=int, default=300, help="duplicate deals of each evaluation")
    ap.add_argument("--eval-every", type=int, default=20)
    ap.add_argument("--candidates", type=int, default=0,
                    help="play and explore only a shortlist of this many moves (0: every legal move)")
    ap.add_argument("--init", type=Path, help="start from these weights (no warm start)")
    ap.add_argument("--first-round", type=int, default=1,
                    help="number of the first round (its deals' seed): go on from an --init run's last round + 1")
    ap.add_argument("--hidden", type=str, default="",
                    help="units of the hidden layers, comma-separated (default: the bot's HIDDEN); with --init, "
                         "the --init network widened to these (its values unchanged at the start)")
    ap.add_argument("--split", choices=["sides", "roles"], default=None,
                    help="a network for the landlord and one for the farmers (sides), or one for each role "
                         "(roles); each starts as the --init network (default: one network for every role)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--average", type=float, default=0.0,
                    help="also keep a moving average of the weights with this decay per step, written beside "
                         "--out as NAME.avg.npz (0: none)")
    ap.add_argument("--workers", type=int, default=0,
                    help="play each round's games in this many processes, each game with a random source of its "
                         "own (the same weights for any number; 0: one shared source, as the committed weights)")
    ap.add_argument("--lockstep", type=int, default=0,
                    help="with --workers: play each round's games side by side in blocks of this many, their "
                         "decisions valued together (faster; the same games up to float rounding; 0: one by one)")
    ap.add_argument("--explore-opening", type=float, default=0.0,
                    help="with --lockstep: the probability that a game's opening lead is drawn from the "
                         "landlord's --explore-top most valued leads instead of ε-greedily (0: never)")
    ap.add_argument("--explore-top", type=int, default=0,
                    help="how many of the most valued opening leads --explore-opening draws from (0: all)")
    ap.add_argument("--lam", type=float, default=1.0,
                    help="with --lockstep: λ of the λ-return targets, bootstrapped from the values of each seat's "
                         "later decisions (1: the game's result, Monte-Carlo, as the committed weights)")
    args = ap.parse_args(argv)
    if not 0.0 <= args.explore_opening <= 1.0 or args.explore_top < 0:
        ap.error(f"--explore-opening must be within 0 and 1 and --explore-top 0 or more, got "
                 f"{args.explore_opening} and {args.explore_top}")
    if not 0.0 <= args.lam <= 1.0:
        ap.error(f"--lam must be within 0 and 1, got {args.lam}")
    if (args.explore_opening or args.lam < 1.0) and not args.lockstep:
        ap.error("--explore-opening and --lam need --lockstep (side-by-side self-play)")
    if args.lockstep < 0 or (args.lockstep and not args.workers):
        ap.error(f"--lockstep must be 0 or more, and needs --workers (each game its own random source), "
                 f"got --lockstep {args.lockstep} --workers {args.workers}")
    if args.workers < 0:
        ap.error(f"--workers must be 0 or more, got {args.workers}")
    if not 0.0 <= args.average < 1.0:
        ap.error(f"--average must be at least 0 and below 1, got {args.average}")

    from qipai.games.doudizhu.bots.dmc import HIDDEN, INPUTS, SPLITS, QNet, SplitQNet, load_qnet, qnet_of

    if args.init is not None:  # a missing or junk file is one line, before any work
        try:
            load_qnet(args.init)
        except (OSError, ValueError, KeyError) as e:
            raise SystemExit(f"--init {args.init}: {e}") from None

    try:
        hidden = tuple(int(n) for n in args.hidden.split(",")) if args.hidden else None
    except ValueError:
        ap.error(f"--hidden must be comma-separated unit counts, got {args.hidden!r}")
    if hidden is not None and (not hidden or min(hidden) < 1):
        ap.error(f"--hidden needs at least one layer of at least one unit, got {args.hidden!r}")
    from qipai.games.doudizhu.bots.research import make_deals
    from qipai.games.doudizhu.rules import PRESETS

    rules = PRESETS["classic"]
    t0 = time.perf_counter()
    rng = random.Random(TRAIN_SEED)
    nrng = np.random.default_rng(TRAIN_SEED)
    # a copy of its own (load_qnet's network is shared in the process, and training changes it in place)
    net: Any = qnet_of({k: v.copy() for k, v in load_qnet(args.init).params().items()}) if args.init \
        else QNet.random(TRAIN_SEED, hidden or HIDDEN)
    if args.init and hidden is not None and hidden != net.hidden():
        if isinstance(net, SplitQNet):
            ap.error("--hidden cannot widen a split --init network")
        try:
            net = net.widened(hidden, TRAIN_SEED)
        except ValueError as e:
            ap.error(f"--hidden with --init: {e}")
    if args.split:
        if isinstance(net, SplitQNet) and net.groups != SPLITS[args.split]:
            ap.error(f"--split {args.split}: the --init network is split another way ({net.groups})")
        if not isinstance(net, SplitQNet):
            net = SplitQNet.of(net, args.split)
    parts, groups = _parts(net)
    opts = [Adam(n, args.lr) for n in parts]
    avg = qnet_of({k: v.copy() for k, v in net.params().items()}) if args.average else None
    if avg is not None:
        for opt, a in zip(opts, _parts(avg)[0], strict=True):
            opt.average = (a, args.average)
    bufs = [Buffer(max(1, args.buffer * groups.count(i) // 3), INPUTS) for i in range(len(parts))]
    eval_deals = make_deals(args.eval, seed=EVAL_SEED)

    pool = (multiprocessing.get_context("spawn").Pool(args.workers) if args.workers > 1 else None)

    def report(tag: str) -> None:
        ll, ff = evaluate_in(pool, args.workers, net, eval_deals, rules, args.candidates)
        save(net, args.out)
        if avg is not None:
            save(avg, average_path(args.out))
        print(f"{tag}: vs heuristic landlord {ll:.3f} farmers {ff:.3f} both {(ll + ff) / 2:.3f} "
              f"[{time.perf_counter() - t0:.0f} s]", flush=True)

    try:
        return _train(args, net, opts, bufs, groups, rng, nrng, report, rules, pool, t0)
    finally:
        if pool is not None:
            pool.close()
            pool.join()


def _train(args: Any, net: Any, opts: list[Adam], bufs: list[Buffer], groups: tuple[int, ...], rng: random.Random,
           nrng: Any, report: Any, rules: Any, pool: Any, t0: float) -> int:
    from qipai.games.doudizhu.bots.research import make_deals

    if not args.init and args.warm:
        if args.workers:
            x, y = play_round(pool, args.workers, None, make_deals(args.warm, seed=DATA_SEED), 0, args.deviate,
                              args.candidates)
        else:
            x, y, _ = play_games(make_deals(args.warm, seed=DATA_SEED), rules,
                                 lambda s: heuristic_deviating(args.deviate, rng, args.candidates))
        print(f"warm start: {len(x)} examples from {args.warm} games [{time.perf_counter() - t0:.0f} s]",
              flush=True)
        loss = learn(opts, bufs, groups, x, y, args.warm_epochs, args.batch, nrng)
        print(f"warm start: {int(args.warm_epochs * len(x) / args.batch)} steps, loss {loss:.4f}", flush=True)
        report("warm start")
    for it in range(args.first_round, args.first_round + args.iterations):
        if args.workers:
            x, y = play_round(pool, args.workers, net.params(), make_deals(args.games, seed=DATA_SEED + it), it,
                              args.epsilon, args.candidates, args.lockstep, args.explore_opening, args.explore_top,
                              args.lam)
        else:
            x, y, _ = play_games(make_deals(args.games, seed=DATA_SEED + it), rules,
                                 lambda s: epsilon_greedy(net, args.epsilon, rng, args.candidates))
        loss = learn(opts, bufs, groups, x, y, args.reuse, args.batch, nrng)
        done = args.minutes and time.perf_counter() - t0 > 60 * args.minutes
        if it % 5 == 0:
            print(f"round {it}: {len(x)} examples, loss {loss:.4f} [{time.perf_counter() - t0:.0f} s]", flush=True)
        if it % args.eval_every == 0 or it == args.first_round + args.iterations - 1 or done:
            report(f"round {it}")
        if done:
            print(f"stopped after round {it} (--iterations {it - args.first_round + 1} reproduces it)")
            break
    print(f"weights: {args.out} ({args.out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
