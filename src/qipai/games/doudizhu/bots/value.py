"""A learned evaluation for the search: the chance that the landlord's side wins a perfect-information position
of a sampled deal, as a small neural network run in NumPy (optional: the search uses it only when asked,
``search:leaf=value``).

**What it learns.**  The search finishes each sampled deal with a heuristic play-out (about 1–3 ms).  The network
predicts the outcome of such a play-out from the position (all hands, who is to act, the move to beat) in a few
microseconds per position when many are evaluated together, so the search can stop its play-outs early: it
plays ``depth`` more moves and then asks the network.

**Inputs** (:func:`position_features`, :data:`INPUTS` floats, seats relative to the landlord: landlord, down,
up): each hand's rank counts ÷ 4 (3 × 15), the move to beat (15), who made it (one-hot over the three seats and
"nobody"), who is to act (3) and each hand's size ÷ 20 (3).  Three-player one-deck games only.

**Network**: two hidden layers (:data:`HIDDEN`, ReLU), a sigmoid output.  The weights are committed
(``qipai/data/ddz_value.npz``, about 80 KB) and made by ``bench/train_value.py`` from self-play data this
project generates (the recipe and the seeds are in the script; running it again writes the same file).

>>> import numpy as np
>>> net = ValueNet.random(seed=1)
>>> from qipai.games.doudizhu.rules import PRESETS
>>> x = position_features([[1] * 15, [2] * 15, [0] * 15], 0, 0, None, -1)
>>> len(x) == INPUTS, 0.0 < float(net.predict(np.array([x]))[0]) < 1.0
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from ..cards import NUM_RANKS
from ..combos import Move

INPUTS = 3 * NUM_RANKS + NUM_RANKS + 4 + 3 + 3
"""Length of :func:`position_features`."""

HIDDEN = (128, 64)
"""Units of the two hidden layers."""

WEIGHTS_FILE = "ddz_value.npz"
"""The committed weights, in ``qipai/data``."""


def position_features(hands: Sequence[Sequence[int]], landlord: int, to_act: int, last: Move | None,
                      last_by: int) -> list[float]:
    """The network's input for a three-player position (see the module docstring)."""
    out: list[float] = []
    for k in range(3):
        h = hands[(landlord + k) % 3]
        out += [h[r] / 4.0 for r in range(NUM_RANKS)]
    if last is not None:
        out += [c / 4.0 for c in last.counts]
    else:
        out += [0.0] * NUM_RANKS
    by = [0.0] * 4
    by[3 if last is None else (last_by - landlord) % 3] = 1.0
    out += by
    act = [0.0] * 3
    act[(to_act - landlord) % 3] = 1.0
    out += act
    out += [sum(hands[(landlord + k) % 3]) / 20.0 for k in range(3)]
    return out


class ValueNet:
    """The network: ``predict(X)`` maps rows of :func:`position_features` to P(the landlord's side wins)."""

    def __init__(self, params: dict[str, Any]) -> None:
        import numpy as np

        self.w = [np.asarray(params[f"w{i}"], dtype=np.float32) for i in range(3)]
        self.b = [np.asarray(params[f"b{i}"], dtype=np.float32) for i in range(3)]
        if self.w[0].shape[0] != INPUTS:
            raise ValueError(f"value network expects {self.w[0].shape[0]} inputs, the features have {INPUTS}")

    @classmethod
    def random(cls, seed: int = 0) -> ValueNet:
        """Untrained weights (He initialisation), for tests and as training's start."""
        import numpy as np

        rng = np.random.default_rng(seed)
        sizes = (INPUTS, *HIDDEN, 1)
        p = {}
        for i in range(3):
            p[f"w{i}"] = (rng.normal(0, (2.0 / sizes[i]) ** 0.5, (sizes[i], sizes[i + 1]))).astype(np.float32)
            p[f"b{i}"] = np.zeros(sizes[i + 1], dtype=np.float32)
        return cls(p)

    def params(self) -> dict[str, Any]:
        """The weights by name (``w0, b0, w1, b1, w2, b2``)."""
        out: dict[str, Any] = {}
        for i in range(3):
            out[f"w{i}"], out[f"b{i}"] = self.w[i], self.b[i]
        return out

    def logits(self, x: Any) -> Any:
        """Pre-sigmoid outputs for a batch."""
        import numpy as np

        h = np.asarray(x, dtype=np.float32)
        for i in range(2):
            h = np.maximum(h @ self.w[i] + self.b[i], 0.0)
        return (h @ self.w[2] + self.b[2])[:, 0]

    def predict(self, x: Any) -> Any:
        """P(the landlord's side wins) for each row."""
        import numpy as np

        z = np.clip(self.logits(x), -30.0, 30.0)
        return 1.0 / (1.0 + np.exp(-z))


_LOADED: dict[str, ValueNet] = {}


def read_weights(path: str | Path | None, committed: str) -> dict[str, Any]:
    """The arrays of an ``.npz`` weights file: ``path``, or the committed ``qipai/data/<committed>``."""
    import numpy as np

    if path is None:
        with resources.files("qipai").joinpath("data", committed).open("rb") as f:
            data = np.load(f)
            return {k: data[k] for k in data.files}
    try:
        data = np.load(path)
    except ValueError:  # numpy's words for a file of no arrays: it "contains pickled (object) data" (allow_pickle)
        raise ValueError("not an .npz file of arrays") from None
    if not isinstance(data, np.lib.npyio.NpzFile):  # one array (.npy): there were no .files
        raise ValueError("one array (.npy), not an .npz file of arrays")
    return {k: data[k] for k in data.files}


def load_value(path: str | Path | None = None) -> ValueNet:
    """The committed network (or the one at ``path``), loaded once per process."""
    key = str(path) if path is not None else ""
    net = _LOADED.get(key)
    if net is None:
        net = _LOADED[key] = ValueNet(read_weights(path, WEIGHTS_FILE))
    return net


__all__ = ["HIDDEN", "INPUTS", "ValueNet", "load_value", "position_features", "read_weights"]
