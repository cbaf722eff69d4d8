"""Expert iteration for the ``dmc`` bot: the rollouts' values taught back to the network they improve.

The learned bot with rollouts (``dmc:samples=S``) wins more than the network alone (docs/bots.md, twentieth
session): at each decision it plays the network's :data:`~qipai.games.doudizhu.bots.dmc.ROLLOUT_TOP` most
valued moves out on deals sampled from what the seat has seen, the network at every seat, and keeps the one that
wins most often.  Those win rates are better estimates of the moves' values than the network's own, made from
the seat's honest view.  This script

1. ``collect``: plays research-protocol deals (``make_deals(n, seed)``, never the evaluation deals' seed
   20210611) with the rollouts bot at the chosen roles (``--roles landlord`` or ``all``) and the network alone
   at the others; at each rollout decision it keeps the state, the candidates' action rows with their targets
   ``2 × win rate − 1`` (the acting side's expected result, the network's scale), and every other legal
   action's row with the network's current value as its target (an anchor: the fine-tuning should move the
   candidates, not everything else).  ``--workers`` processes share the deals; the file is an ``.npz``.
2. ``fit``: fine-tunes the network (``--init``, default the committed one) on the collected decisions by Adam on
   the squared error, each batch half candidates and half anchors, holding out ``--holdout`` of the decisions
   to report the candidates' error before and after; writes the weights as ``bench/train_dmc.py`` does.

    python bench/expert_iter.py collect --deals 2000 --samples 32 --workers 2 --out ei.npz
    python bench/expert_iter.py fit ei.npz --epochs 4 --lr 3e-5 --out ei_net.npz
    qipai arena dmc:weights=ei_net.npz douzero_resnet --research --deals 1000 --jobs 2 --json ei.json.gz
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

COLLECT_SEED = 93_000_001
"""The collected deals' default seed (training: 91_000_001 and up; evaluation: 20210611)."""


def collect_chunk(job: tuple[list[str], int, str, int, str | None]) -> dict[str, Any]:
    """Play the research deals ``lines`` (their text form); return the rollout decisions' arrays."""
    from qipai.games.doudizhu.bots.dmc import STATE, DmcBot, action_rows, load_qnet, view_state
    from qipai.games.doudizhu.bots.research import ResearchDeal, research_game
    from qipai.games.doudizhu.bots.view import action_moves, card_actions, read_view

    lines, samples, roles, seed, weights = job
    net = load_qnet(weights)
    states: list[Any] = []
    rows: list[Any] = []
    dec: list[int] = []
    ys: list[float] = []
    cand: list[bool] = []
    games = wins = 0
    for i, line in enumerate(lines):
        g = research_game(ResearchDeal.parse(line))
        ll = g.landlord
        assert ll is not None
        bots = {}
        for s in range(3):
            role = (s - ll) % 3
            expert = roles == "all" or role == 0
            bots[s] = DmcBot(seed + 7 * i + s, net=net, samples=samples if expert else 0, margin=0.03)
        while not g.is_over:
            s = g.to_act
            assert s is not None
            obs = g.observe(s)
            legal = list(g.legal_actions())
            bot = bots[s]
            bot.last_rollouts = {}
            action = bot.act(obs, legal)
            if bot.last_rollouts:
                v = read_view(obs)
                moves = action_moves(legal, v.rules)
                acts = card_actions(legal, moves)
                r = action_rows(v.hand, [moves.get(a) for a in acts])
                k = len(states)
                states.append(view_state(v, obs.get("kitty")).astype(np.float16))
                for j, a in enumerate(acts):
                    rows.append(r[j].astype(np.float16))
                    dec.append(k)
                    if a in bot.last_rollouts:
                        ys.append(2.0 * bot.last_rollouts[a] - 1.0)
                        cand.append(True)
                    else:
                        ys.append(bot.last_values[a])
                        cand.append(False)
            g.apply(action, s)
        out = g.outcome()
        assert out is not None
        games += 1
        wins += int(out["winner"] == "landlord")
    return {"states": np.array(states, dtype=np.float16).reshape(-1, STATE),
            "rows": np.array(rows, dtype=np.float16), "dec": np.array(dec, dtype=np.int64),
            "y": np.array(ys, dtype=np.float32), "cand": np.array(cand, dtype=bool),
            "games": games, "landlord_wins": wins}


def collect(args: Any) -> int:
    from qipai.games.doudizhu.bots.research import make_deals

    deals = make_deals(args.deals, args.seed)
    lines = [d.line() for d in deals]
    size = max(1, args.chunk)
    jobs = [(lines[i:i + size], args.samples, args.roles, args.seed + i, args.weights)
            for i in range(0, len(lines), size)]
    t0 = time.time()
    parts: list[dict[str, Any]] = []
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for p in pool.imap(collect_chunk, jobs):
            parts.append(p)
            done = sum(q["games"] for q in parts)
            decisions = sum(len(q["states"]) for q in parts)
            print(f"{done} games, {decisions} decisions, {time.time() - t0:.0f} s", flush=True)
            save_parts(parts, Path(args.out))
    return 0


def save_parts(parts: list[dict[str, Any]], out: Path) -> None:
    """Join the chunks' arrays (decision indices shifted) and write them to ``out``."""
    offset = 0
    decs = []
    for p in parts:
        decs.append(p["dec"] + offset)
        offset += len(p["states"])
    tmp = out.with_name(out.name + ".tmp.npz")
    np.savez(tmp, states=np.concatenate([p["states"] for p in parts]),
             rows=np.concatenate([p["rows"] for p in parts]), dec=np.concatenate(decs),
             y=np.concatenate([p["y"] for p in parts]), cand=np.concatenate([p["cand"] for p in parts]),
             games=sum(p["games"] for p in parts), landlord_wins=sum(p["landlord_wins"] for p in parts))
    tmp.replace(out)


def fit(args: Any) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from qipai.games.doudizhu.bots.dmc import QNet, load_qnet, qnet_of
    from train_dmc import Adam, save

    data: dict[str, Any] = {}
    for path in args.data:
        with np.load(path) as z:
            part = {k: z[k] for k in DATA_ARRAYS}
        part["dec"] = part["dec"] + (len(data["states"]) if data else 0)
        for k, a in part.items():
            data[k] = np.concatenate([data[k], a]) if k in data else a
    base = load_qnet(args.init)
    if not isinstance(base, QNet):
        raise SystemExit("fit takes a single network (not a split one)")
    net = qnet_of(base.params())
    assert isinstance(net, QNet)
    rng = np.random.default_rng(args.seed)
    n_dec = len(data["states"])

    def x_of(idx: Any) -> Any:
        return np.concatenate([data["states"][data["dec"][idx]], data["rows"][idx]], axis=1)

    if args.centered:  # keep the network's mean over each decision's candidates; learn only their differences
        c_idx = np.flatnonzero(data["cand"])
        now = np.concatenate([np.asarray(net.values(x_of(c_idx[i:i + 20000]).astype(np.float32))).reshape(-1)
                              for i in range(0, len(c_idx), 20000)])
        d = data["dec"][c_idx]
        shift = (np.bincount(d, now, n_dec) - np.bincount(d, data["y"][c_idx], n_dec)) / np.maximum(
            1, np.bincount(d, None, n_dec))
        data["y"] = data["y"].copy()
        data["y"][c_idx] += shift[d]
    held = rng.random(n_dec) < args.holdout
    row_held = held[data["dec"]]
    cand = data["cand"]
    train_c = np.flatnonzero(cand & ~row_held)
    train_a = np.flatnonzero(~cand & ~row_held)
    test_c = np.flatnonzero(cand & row_held)

    def error(model: Any, idx: Any) -> float:
        out = model.values(x_of(idx).astype(np.float32))
        return float(np.mean((np.asarray(out).reshape(-1) - data["y"][idx]) ** 2))

    def agreement(model: Any) -> float:
        """Held-out decisions where the network's best candidate is the rollouts' best."""
        hits = total = 0
        by_dec: dict[int, list[int]] = {}
        for i in test_c:
            by_dec.setdefault(int(data["dec"][i]), []).append(int(i))
        for idxs in by_dec.values():
            if len(idxs) < 2:
                continue
            out = np.asarray(model.values(x_of(np.array(idxs)).astype(np.float32))).reshape(-1)
            hits += int(np.argmax(out) == np.argmax(data["y"][idxs]))
            total += 1
        return hits / max(1, total)

    print(f"{n_dec} decisions ({int(held.sum())} held out), {len(train_c)} candidate and {len(train_a)} anchor "
          f"rows to train on", flush=True)
    print(f"before: held-out candidates' MSE {error(net, test_c):.4f}, best-move agreement {agreement(net):.3f}",
          flush=True)
    opt = Adam(net, args.lr)
    half = args.batch // 2
    steps = int(args.epochs * len(train_c) / half)
    total = 0.0
    for step in range(1, steps + 1):
        idx = np.concatenate([rng.choice(train_c, half), rng.choice(train_a, args.batch - half)])
        total += opt.step(x_of(idx), data["y"][idx])
        if step % 500 == 0 or step == steps:
            print(f"step {step}/{steps}: train loss {total / 500:.4f}, held-out candidates' MSE "
                  f"{error(net, test_c):.4f}", flush=True)
            total = 0.0
    print(f"after: held-out candidates' MSE {error(net, test_c):.4f}, best-move agreement {agreement(net):.3f}",
          flush=True)
    save(net, Path(args.out))
    print(f"wrote {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect", help="play deals with rollouts and keep their values")
    c.add_argument("--deals", type=int, default=1000)
    c.add_argument("--seed", type=int, default=COLLECT_SEED)
    c.add_argument("--samples", type=int, default=32, help="sampled deals a rollout decision")
    c.add_argument("--roles", choices=("landlord", "all"), default="landlord")
    c.add_argument("--workers", type=int, default=1)
    c.add_argument("--chunk", type=int, default=20, help="deals a worker's job")
    c.add_argument("--weights", default=None, help="the network (default the committed one)")
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fine-tune the network on collected rollout values")
    f.add_argument("data", nargs="+")
    f.add_argument("--init", default=None)
    f.add_argument("--lr", type=float, default=3e-5)
    f.add_argument("--epochs", type=float, default=4.0, help="passes over the candidate rows")
    f.add_argument("--batch", type=int, default=512)
    f.add_argument("--holdout", type=float, default=0.1)
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--centered", action="store_true",
                   help="shift each decision's candidate targets to the network's mean over them (learn only "
                        "their differences)")
    f.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    check_files(args)
    return collect(args) if args.cmd == "collect" else fit(args)


DATA_ARRAYS = ("states", "rows", "dec", "y", "cand")
"""The arrays of a ``collect`` file that ``fit`` reads."""


def check_files(args: Any) -> None:
    """Refuse a missing or junk weights or data file in one line, before any work."""
    from qipai.games.doudizhu.bots.dmc import load_qnet

    for flag, path in (("--weights", getattr(args, "weights", None)), ("--init", getattr(args, "init", None))):
        if path is not None:
            try:
                load_qnet(path)
            except (OSError, ValueError, KeyError) as e:
                raise SystemExit(f"{flag} {path}: {e}") from None
    for path in getattr(args, "data", None) or ():
        try:
            z = np.load(path)
        except OSError as e:
            raise SystemExit(f"{path}: {e}") from None
        except ValueError:  # numpy: "contains pickled (object) data"
            raise SystemExit(f"{path}: not a file of collected rollouts (not an .npz file of arrays)") from None
        if not isinstance(z, np.lib.npyio.NpzFile):
            raise SystemExit(f"{path}: not a file of collected rollouts (one array, not an .npz file)")
        with z:
            missing = [k for k in DATA_ARRAYS if k not in z.files]
        if missing:
            raise SystemExit(f"{path}: not a file of collected rollouts (no {', '.join(missing)})")


if __name__ == "__main__":
    sys.exit(main())
