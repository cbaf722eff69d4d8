"""The learned evaluation: features, the committed weights, reproducible training, and the search with it."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from benchscripts import bench_script
from qipai.games.doudizhu.bots.research import load_deals, research_game
from qipai.games.doudizhu.bots.search import SearchBot
from qipai.games.doudizhu.bots.value import INPUTS, ValueNet, load_value, position_features
from qipai.games.doudizhu.bots.view import counts_of_text
from qipai.games.doudizhu.combos import classify
from qipai.games.doudizhu.rules import PRESETS

ROOT = Path(__file__).resolve().parents[2]


def trainer() -> ModuleType:
    return bench_script("train_value")


def test_features_are_relative_to_the_landlord() -> None:
    hands = [counts_of_text("33"), counts_of_text("4"), counts_of_text("BR")]
    pair = classify(tuple(counts_of_text("33")), PRESETS["classic"])[0]
    a = position_features(hands, 0, 1, pair, 0)
    rotated = [hands[2], hands[0], hands[1]]  # the same position with the landlord at seat 1
    b = position_features(rotated, 1, 2, pair, 1)
    assert a == b and len(a) == INPUTS
    assert a[0] == 0.5 and a[15 + 1] == 0.25  # two 3s for the landlord, one 4 for landlord_down
    assert a[45] == 0.5 and a[60:64] == [1.0, 0.0, 0.0, 0.0] and a[64:67] == [0.0, 1.0, 0.0]


def test_committed_weights_load_fast_and_predict() -> None:
    import time

    t = time.thread_time()  # CPU time, not the machine's load
    net = load_value(ROOT / "src" / "qipai" / "data" / "ddz_value.npz")
    assert time.thread_time() - t < 0.5
    strong = position_features([counts_of_text("BR22"), counts_of_text("3456789TJQK3"),
                                counts_of_text("3456789TJQK4")], 0, 0, None, -1)
    weak = position_features([counts_of_text("3456789TJQK3"), counts_of_text("BR22"),
                              counts_of_text("3456789TJQK4")], 0, 1, None, -1)
    p = net.predict(np.array([strong, weak], dtype=np.float32))
    assert p.shape == (2,) and p[0] > p[1]


def test_training_is_reproducible(tmp_path: Path) -> None:
    tv = trainer()
    x, y, g = tv.make_data(30)
    assert x.shape[1] == INPUTS and len(x) == len(y) == len(g) and set(np.unique(y)) <= {0.0, 1.0}
    a = tv.train(x, y, 1, log=False)
    b = tv.train(x, y, 1, log=False)
    for k, v in a.params().items():
        assert np.array_equal(v, b.params()[k])
    tv.save(a, tmp_path / "a.npz")
    tv.save(b, tmp_path / "b.npz")
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()
    assert load_value(tmp_path / "a.npz").w[0].shape == (INPUTS, 128)
    assert not np.array_equal(a.w[0], ValueNet.random(5).w[0])  # it did learn something


def test_search_with_value_leaves_plays_legally() -> None:
    g = research_game(load_deals(2)[1])
    bot = SearchBot(3, samples=6, leaf="value", depth=2)
    for _ in range(6):
        a = bot.act(g.observe(g.to_act), g.legal_actions())
        assert a in g.legal_actions()
        g.apply(a)
    with pytest.raises(ValueError, match="leaf"):
        SearchBot(1, leaf="oracle")
