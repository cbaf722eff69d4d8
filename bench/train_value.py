"""Train the search's learned evaluation (``qipai.games.doudizhu.bots.value``) from self-play data made here.

Data recipe (all seeded, so a run writes the same weights again):

1. ``--games`` random three-player deals from ``make_deals(games, seed=DATA_SEED)`` (the research protocol's deal
   maker with a different seed: no deal of the evaluation set is in the training data); the landlord (seat 0)
   takes the kitty.
2. Each deal is played to the end with every hand open (a perfect-information play-out, exactly what the
   search's play-outs are: the ``Sim`` class with the heuristic policy at every seat).  Every position before a
   move is one example: ``position_features(...)`` → 1 if the landlord's side won the play-out, else 0.
3. The last ``--valid`` share of the deals is held out; the network (``HIDDEN`` units, ReLU, sigmoid) is trained
   with Adam (learning rate 1e-3, batches of 512, ``--epochs``) on the cross-entropy, from
   ``ValueNet.random(TRAIN_SEED)``, examples shuffled by ``numpy.random.default_rng(TRAIN_SEED)``.  One BLAS
   thread, so the arithmetic is the same on every run.
4. The weights go to ``src/qipai/data/ddz_value.npz`` (a zip with fixed timestamps).

    python bench/train_value.py                     # about 2 minutes on one core
    python bench/train_value.py --games 2000 --out /tmp/v.npz
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import io
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

DATA_SEED = 77_000_001
TRAIN_SEED = 5
OUT = Path(__file__).resolve().parents[1] / "src" / "qipai" / "data" / "ddz_value.npz"


def make_data(games: int) -> tuple[Any, Any, Any]:
    """Features, labels and each example's game index."""
    from qipai.games.doudizhu.bots.research import make_deals
    from qipai.games.doudizhu.bots.search import Sim
    from qipai.games.doudizhu.bots.value import position_features
    from qipai.games.doudizhu.bots.view import counts_of_text
    from qipai.games.doudizhu.rules import PRESETS

    rules = PRESETS["classic"]
    xs: list[list[float]] = []
    ys: list[float] = []
    gs: list[int] = []
    for gi, deal in enumerate(make_deals(games, seed=DATA_SEED)):
        hands = [counts_of_text(h) for h in deal.hands]
        for r, k in enumerate(counts_of_text(deal.kitty)):
            hands[0][r] += k
        sim = Sim(rules, hands, 0, 0, None, -1, fast=False)
        start = len(xs)
        for _ in range(400):
            xs.append(position_features(sim.hands, 0, sim.to_act, sim.last, sim.last_by))
            out = sim.apply(sim.policy())
            if out is not None:
                break
        won = 1.0 if out == 0 else 0.0
        ys += [won] * (len(xs) - start)
        gs += [gi] * (len(xs) - start)
    return np.asarray(xs, dtype=np.float32), np.asarray(ys, dtype=np.float32), np.asarray(gs)


def train(x: Any, y: Any, epochs: int, log: bool = True) -> Any:
    from qipai.games.doudizhu.bots.value import ValueNet

    net = ValueNet.random(TRAIN_SEED)
    params = [net.w[0], net.b[0], net.w[1], net.b[1], net.w[2], net.b[2]]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    rng = np.random.default_rng(TRAIN_SEED)
    lr, b1, b2, eps = 1e-3, 0.9, 0.999, 1e-8
    step = 0
    n = len(x)
    for ep in range(epochs):
        order = rng.permutation(n)
        total = 0.0
        for s in range(0, n, 512):
            idx = order[s:s + 512]
            xb, yb = x[idx], y[idx]
            # forward
            h1p = xb @ net.w[0] + net.b[0]
            h1 = np.maximum(h1p, 0)
            h2p = h1 @ net.w[1] + net.b[1]
            h2 = np.maximum(h2p, 0)
            z = (h2 @ net.w[2] + net.b[2])[:, 0]
            p = 1 / (1 + np.exp(-np.clip(z, -30, 30)))
            total += float(-np.sum(yb * np.log(p + 1e-7) + (1 - yb) * np.log(1 - p + 1e-7)))
            # backward (mean cross-entropy)
            dz = ((p - yb) / len(idx))[:, None].astype(np.float32)
            gw2 = h2.T @ dz
            gb2 = dz.sum(0)
            dh2 = (dz @ net.w[2].T) * (h2p > 0)
            gw1 = h1.T @ dh2
            gb1 = dh2.sum(0)
            dh1 = (dh2 @ net.w[1].T) * (h1p > 0)
            gw0 = xb.T @ dh1
            gb0 = dh1.sum(0)
            grads = [gw0, gb0, gw1, gb1, gw2, gb2]
            step += 1
            for i, (pp, g) in enumerate(zip(params, grads, strict=True)):
                m[i] = b1 * m[i] + (1 - b1) * g
                v[i] = b2 * v[i] + (1 - b2) * g * g
                mh = m[i] / (1 - b1 ** step)
                vh = v[i] / (1 - b2 ** step)
                pp -= (lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        if log:
            print(f"epoch {ep + 1}: train log-loss {total / n:.4f}")
    return net


def save(net: Any, path: Path) -> None:
    """The network's weights as :func:`write_npz` writes them."""
    write_npz(net.params(), path)


def write_npz(arrays: dict[str, Any], path: Path, dtype: Any = None) -> None:
    """``np.savez`` layout with fixed timestamps, so the same arrays give the same bytes (as ``dtype`` when one
    is given).  Written beside ``path`` and moved into place: a run stopped while writing leaves the old file."""
    tmp = path.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, arr in arrays.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.ascontiguousarray(arr, dtype=dtype), allow_pickle=False)
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, buf.getvalue())
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6000)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--valid", type=float, default=0.1)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    x, y, g = make_data(args.games)
    print(f"{len(x)} positions from {args.games} games in {time.perf_counter() - t0:.0f} s; "
          f"landlord won {float(y[np.r_[0, np.flatnonzero(np.diff(g)) + 1]].mean()):.3f} of the games")
    cut = int(args.games * (1 - args.valid))
    tr, va = g < cut, g >= cut
    net = train(x[tr], y[tr], args.epochs)
    p = net.predict(x[va])
    yv = y[va]
    ll = float(-np.mean(yv * np.log(p + 1e-7) + (1 - yv) * np.log(1 - p + 1e-7)))
    base = float(yv.mean())
    ll0 = float(-(base * np.log(base) + (1 - base) * np.log(1 - base)))
    acc = float(((p > 0.5) == (yv > 0.5)).mean())
    print(f"held-out {int(va.sum())} positions: log-loss {ll:.4f} (constant {ll0:.4f}), accuracy {acc:.3f}")
    save(net, args.out)
    print(f"weights: {args.out} ({args.out.stat().st_size:,} bytes), {time.perf_counter() - t0:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
