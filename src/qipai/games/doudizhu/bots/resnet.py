"""DouZero-ResNet as a baseline bot (``douzero_resnet``): the public 2024 ResNet re-release of DouZero's card-play
model, three per-position Q-networks, run in NumPy with the user's weights.

The weights are not part of qipai.  ``scripts/fetch_douzero_resnet.py`` takes them from PyPI's ``pymecli==0.2.4``
wheel (``baselines/resnet/resnet_{landlord,landlord_up,landlord_down}.ckpt``, Apache-2.0), checks them
(``torch.load(..., weights_only=True)``, 3,536,129 parameters each) and stores them as NumPy arrays in a cache
folder outside the repository (:func:`default_weights_dir`).  Playing needs only NumPy.

**The network** (from the published architecture): the input is a 40×54 plane (40 channels of 54 card slots)
and a 15-float vector.  A 1-D convolution (40→80 channels, kernel 3, stride 2, padding 1, batch norm, ReLU) is
followed by three stages of two residual blocks each (80, 160 and 320 channels; the first block of each stage
has stride 2 and a 1×1 projection shortcut with batch norm; each block is conv-BN-ReLU-conv-BN, plus the
shortcut, ReLU): the length goes 54 → 27 → 14 → 7 → 4.  The 320×4 features (flattened channel by channel)
follow the 15-float vector repeated four times (1,340 inputs) into dense layers of 1,024, 512, 256 and 1
units, each followed by a leaky ReLU (slope 0.01).  The output is the value of the candidate action; the bot
plays the candidate with the highest value.  Batch norm uses its running statistics (``eps = 1e-5``).

**The encoding** (:func:`encode`), one row per candidate action, each row 54 card slots: 4 slots for each rank
3…2 in order (the first ``n`` of them set for ``n`` cards of that rank), then the black and the red joker.

====  ==================================================================================================
row   content
====  ==================================================================================================
0     the candidate action's cards (all zero for a pass)
1     cards left, one-hot: the landlord's (20 slots, slot ``n-1``), landlord_up's (17), landlord_down's (17)
2     own hand
3     the other two hands together (the unseen cards: public by card counting)
4     the kitty cards the landlord has not played yet (removed by rank as the landlord plays, as DouZero does)
5–7   the cards played by the landlord, landlord_up and landlord_down
8–39  the last 32 moves, most recent first (a pass is an all-zero row); with fewer than 32 moves so far the
      rows *before* them are padding, all −1
====  ==================================================================================================

The 15-float vector is DouZero-ResNet's bid/multiply information (4 bidding rounds × 3 positions, then 3
doubling factors).  Our deals reach play with the landlord decided by our own bidding, which the model's
bidding format does not describe; the bot gives it :data:`BID_VECTOR`, the vector DouZero-ResNet's own
environment starts from, with which the model reproduces its published strength (docs/bots.md).

>>> import numpy as np
>>> from qipai.games.doudizhu.bots.research import load_deals, research_game
>>> g = research_game(load_deals(1)[0])
>>> z, x, actions = encode(g.observe(0), g.legal_actions())
>>> z.shape[1:], x.shape, len(actions) == len(g.legal_actions())
((40, 54), (15,), True)
>>> int(z[0, 2].sum()), int(z[0, 8:].min())   # 20 cards in the landlord's hand; no move yet: padding
(20, -1)
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..cards import NUM_RANKS
from .view import action_moves, card_actions, counts_of_tokens, read_view

if "numpy" not in sys.modules:  # one BLAS thread: small matrices, and one core per bot as the arena measures
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

POSITIONS = ("landlord", "landlord_up", "landlord_down")
"""DouZero's position names; ``landlord_down`` plays right after the landlord, ``landlord_up`` right before."""

PARAMETERS = 3_536_129
"""Trainable parameters of one position's network (running batch-norm statistics not counted)."""

HISTORY = 32
"""Moves of the history the network sees."""

BID_VECTORS: dict[str, tuple[float, ...]] = {
    "ones": (1.0,) * 15,
    "pymecli": (1.0, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -4.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0),
    "zeros": (0.0,) * 15,
}
"""Named bid/multiply vectors (``douzero_resnet:bid=NAME``): all ones, as the re-release's bidding-free
environment starts; the values ``pymecli``'s play environment passes; all zeros."""

BID_VECTOR = BID_VECTORS["ones"]
"""The 15 bid/multiply floats given to the network by default (see the module docstring)."""

BN_EPS = 1e-5
LEAKY = 0.01

WEIGHTS_FILE = "douzero_resnet.npz"
"""The NumPy file, in the weights folder, holding all three networks (keys ``POSITION/LAYER``)."""

INSTALL_HINT = "python scripts/fetch_douzero_resnet.py"


def default_weights_dir() -> Path:
    """Where the fetch script puts the weights: ``$QIPAI_CACHE/douzero_resnet`` (``QIPAI_CACHE`` defaults to
    ``$XDG_CACHE_HOME/qipai``, that to ``~/.cache/qipai``)."""
    base = os.environ.get("QIPAI_CACHE")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        base = str(Path(xdg) / "qipai")
    return Path(base) / "douzero_resnet"


def position_of(seat: int, landlord: int) -> str:
    """DouZero's position of ``seat`` at a three-player table.

    >>> [position_of(s, 1) for s in range(3)]
    ['landlord_up', 'landlord', 'landlord_down']
    """
    return ("landlord", "landlord_down", "landlord_up")[(seat - landlord) % 3]


# ------------------------------------------------------------------------------------------------ encoding
def card_row(counts: Sequence[int]) -> list[float]:
    """54 card slots for a rank-count vector (see the module docstring).

    >>> r = card_row([2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1])
    >>> [i for i, v in enumerate(r) if v]
    [0, 1, 48, 53]
    """
    row = [0.0] * 54
    for r in range(13):
        for j in range(min(4, counts[r])):
            row[4 * r + j] = 1.0
    if counts[13]:
        row[52] = 1.0
    if counts[14]:
        row[53] = 1.0
    return row


def _one_hot(n: int, size: int) -> list[float]:
    row = [0.0] * size
    row[(n - 1) % size] = 1.0  # DouZero's index n-1 (0 cards would wrap to the last slot; never seen in play)
    return row


def context_rows(observation: Mapping[str, Any]) -> list[list[float]]:
    """Rows 1–39 of the plane for the seat's observation (everything but the candidate action)."""
    v = read_view(dict(observation))
    if v.players != 3 or v.landlord is None or v.rules.decks != 1:
        raise ValueError("DouZero-ResNet plays the three-player one-deck game, after the landlord is known")
    ll = v.landlord
    seats = {p: next(s for s in range(3) if position_of(s, ll) == p) for p in POSITIONS}
    left = (_one_hot(v.card_counts[seats["landlord"]], 20) + _one_hot(v.card_counts[seats["landlord_up"]], 17)
            + _one_hot(v.card_counts[seats["landlord_down"]], 17))
    # the kitty cards the landlord still holds, as DouZero tracks them: removed by rank when the landlord plays
    kitty = observation.get("kitty")
    three: list[int] = []
    if kitty:
        kc = counts_of_tokens(list(kitty))
        three = [r for r in range(NUM_RANKS) for _ in range(kc[r])]
    seq: list[list[int] | None] = []  # None: a pass
    for ev in v.plays:
        if ev.move is None:
            seq.append(None)
            continue
        mc = list(ev.move.counts)
        seq.append(mc)
        if ev.seat == ll and three:
            for r in range(NUM_RANKS):
                for _ in range(mc[r]):
                    if not three:
                        break
                    if r in three:
                        three.remove(r)
    three_counts = [0] * NUM_RANKS
    for r in three:
        three_counts[r] += 1
    rows = [left, card_row(v.hand), card_row(v.unseen), card_row(three_counts)]
    rows += [card_row(v.played[seats[p]]) for p in POSITIONS]
    recent = seq[-HISTORY:][::-1]
    pad = [[-1.0] * 54 for _ in range(HISTORY - len(recent))]
    rows += pad + [[0.0] * 54 if m is None else card_row(m) for m in recent]
    return rows


def encode(observation: Mapping[str, Any], legal_actions: Sequence[str],
           bid_vector: Sequence[float] = BID_VECTOR) -> tuple[Any, Any, list[str]]:
    """The network's inputs for every candidate: ``z`` (candidates × 40 × 54, float32), ``x`` (15 floats) and
    the candidates (our legal actions: every play, and ``pass`` where legal) in the order of ``z``'s rows."""
    import numpy as np

    rules = read_view(dict(observation)).rules
    moves = action_moves(list(legal_actions), rules)
    actions = card_actions(legal_actions, moves)
    if not actions:
        raise ValueError("no play or pass among the legal actions")
    ctx = np.asarray(context_rows(observation), dtype=np.float32)
    z = np.empty((len(actions), 40, 54), dtype=np.float32)
    z[:, 1:, :] = ctx
    for i, a in enumerate(actions):
        z[i, 0, :] = card_row(moves[a].counts) if a in moves else [0.0] * 54
    if len(bid_vector) != 15:
        raise ValueError("the bid/multiply vector has 15 floats")
    return z, np.asarray(bid_vector, dtype=np.float32), actions


# ------------------------------------------------------------------------------------------------ network
def _conv1d(x: Any, w: Any, stride: int, pad: int) -> Any:
    """1-D convolution without bias, channels first: ``x`` (C, B, L), ``w`` (O, C, K) → (O, B, L').  One matrix
    product for the whole batch."""
    import numpy as np

    c, b, length = x.shape
    o, _, k = w.shape
    if pad:
        x = np.pad(x, ((0, 0), (0, 0), (pad, pad)))
    out_len = (length + 2 * pad - k) // stride + 1
    span = stride * (out_len - 1) + 1
    cols = np.stack([x[:, :, j:j + span:stride] for j in range(k)], axis=1)  # C, K, B, L'
    return (w.reshape(o, c * k) @ cols.reshape(c * k, b * out_len)).reshape(o, b, out_len)


class ResNetQ:
    """One position's network, batch norm folded into the convolutions (see the module docstring).

    ``params`` maps the layer names of the published checkpoints (``conv1.weight``, ``bn1.running_mean``,
    ``layer2.0.shortcut.0.weight``, ``linear1.bias`` …) to arrays.
    """

    def __init__(self, params: Mapping[str, Any]) -> None:
        import numpy as np

        def folded(conv: str, bn: str) -> tuple[Any, Any]:
            w = np.asarray(params[conv + ".weight"], dtype=np.float32)
            scale = np.asarray(params[bn + ".weight"], dtype=np.float32) / np.sqrt(
                np.asarray(params[bn + ".running_var"], dtype=np.float32) + BN_EPS)
            bias = np.asarray(params[bn + ".bias"], dtype=np.float32) - scale * np.asarray(
                params[bn + ".running_mean"], dtype=np.float32)
            return (w * scale[:, None, None]).astype(np.float32), bias[:, None, None].astype(np.float32)

        self.stem = folded("conv1", "bn1")
        self.blocks: list[tuple[int, tuple[Any, Any], tuple[Any, Any], tuple[Any, Any] | None]] = []
        for layer, first_stride in (("layer1", 2), ("layer2", 2), ("layer3", 2)):
            for i in range(2):
                p = f"{layer}.{i}"
                short = folded(p + ".shortcut.0", p + ".shortcut.1") if p + ".shortcut.0.weight" in params else None
                self.blocks.append((first_stride if i == 0 else 1, folded(p + ".conv1", p + ".bn1"),
                                    folded(p + ".conv2", p + ".bn2"), short))
        self.dense = [(np.asarray(params[f"linear{i}.weight"], dtype=np.float32).T.copy(),
                       np.asarray(params[f"linear{i}.bias"], dtype=np.float32)) for i in range(1, 5)]

    def values(self, z: Any, x: Any) -> Any:
        """The value of each candidate: ``z`` (B, 40, 54), ``x`` (15,) or (B, 15) → (B,)."""
        import numpy as np

        w, b = self.stem
        h = np.maximum(_conv1d(np.ascontiguousarray(np.asarray(z, dtype=np.float32).transpose(1, 0, 2)), w, 2, 1)
                       + b, 0.0)
        for stride, (w1, b1), (w2, b2), short in self.blocks:
            out = np.maximum(_conv1d(h, w1, stride, 1) + b1, 0.0)
            out = _conv1d(out, w2, 1, 1) + b2
            out = out + (h if short is None else _conv1d(h, short[0], stride, 0) + short[1])
            h = np.maximum(out, 0.0)
        feats = h.transpose(1, 0, 2).reshape(h.shape[1], -1)  # per candidate: channel by channel
        xb = np.broadcast_to(np.asarray(x, dtype=np.float32).reshape(-1, 15), (feats.shape[0], 15))
        a = np.concatenate([xb, xb, xb, xb, feats], axis=1)
        for w, bias in self.dense:
            a = a @ w + bias
            a = np.where(a > 0, a, LEAKY * a)
        return a[:, 0]


def parameter_count(params: Mapping[str, Any]) -> int:
    """Trainable parameters in a checkpoint's arrays (batch-norm running statistics not counted)."""
    import numpy as np

    return int(sum(int(np.asarray(v).size) for k, v in params.items()
                   if not k.endswith(("running_mean", "running_var", "num_batches_tracked"))))


Valuer = Callable[[Any, Any], Any]
"""Anything that maps ``(z, x)`` to one value per candidate (a :class:`ResNetQ`'s ``values``, or a stand-in)."""


def load_networks(weights: str | Path | None = None) -> dict[str, ResNetQ]:
    """The three networks from the weights folder (default :func:`default_weights_dir`)."""
    import numpy as np

    folder = Path(weights) if weights is not None else default_weights_dir()
    path = folder / WEIGHTS_FILE
    if not path.is_file():
        raise FileNotFoundError(f"DouZero-ResNet weights not found at {path}: fetch them with {INSTALL_HINT}")
    data = np.load(path)
    out = {}
    for p in POSITIONS:
        params = {k.split("/", 1)[1]: data[k] for k in data.files if k.startswith(p + "/")}
        if parameter_count(params) != PARAMETERS:
            raise ValueError(f"{path}: the {p} network has {parameter_count(params)} parameters, "
                             f"not {PARAMETERS}; fetch the weights again with {INSTALL_HINT}")
        out[p] = ResNetQ(params)
    return out


# ------------------------------------------------------------------------------------------------ the bot
class DouZeroResNetBot:
    """DouZero-ResNet's card play, seeing only what our seat may see (three-player one-deck games).

    ``networks`` maps each position to a :data:`Valuer`.  Bidding, doubling and showing use the ``heuristic``
    bot's rules (the model plays cards only).  Deterministic: the seed is kept for the interface.
    """

    name = "douzero_resnet"

    def __init__(self, networks: Mapping[str, Valuer], seed: int = 0,
                 bid_vector: Sequence[float] = BID_VECTOR) -> None:
        self.networks = dict(networks)
        self.seed = seed
        self.bid_vector = tuple(float(v) for v in bid_vector)
        self.last_values: dict[str, float] = {}

    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        """Choose one of ``legal_actions``: the candidate the position's network values most."""
        from .heuristic import outside_play

        easy = outside_play(observation, legal_actions)
        if easy is not None:
            return easy
        seat = observation["seat"]
        landlord = observation["landlord"]
        z, x, actions = encode(observation, legal_actions, self.bid_vector)
        vals = self.networks[position_of(int(seat), int(landlord))](z, x)
        best = max(range(len(actions)), key=lambda i: (float(vals[i]), -i))
        self.last_values = {a: float(vals[i]) for i, a in enumerate(actions)}
        return actions[best]


_NETWORKS: dict[str, dict[str, ResNetQ]] = {}


def resnet_bot(seed: int, weights: str | Path | None = None, bid: str = "ones") -> DouZeroResNetBot:
    """A bot over the networks in ``weights`` (loaded once per process and folder), with the named bid
    vector of :data:`BID_VECTORS`."""
    if bid not in BID_VECTORS:
        raise ValueError(f"unknown bid vector {bid!r}: expected one of {', '.join(sorted(BID_VECTORS))}")
    key = str(Path(weights) if weights is not None else default_weights_dir())
    if key not in _NETWORKS:
        _NETWORKS[key] = load_networks(key)
    return DouZeroResNetBot({p: net.values for p, net in _NETWORKS[key].items()}, seed, BID_VECTORS[bid])


def _register() -> None:
    from . import register

    register("douzero_resnet", lambda seed: resnet_bot(seed))


_register()

__all__ = ["BID_VECTOR", "POSITIONS", "DouZeroResNetBot", "ResNetQ", "card_row", "context_rows",
           "default_weights_dir", "encode", "load_networks", "position_of", "resnet_bot"]

