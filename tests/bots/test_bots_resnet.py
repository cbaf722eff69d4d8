"""DouZero-ResNet's adapter: the encoding on fixed positions, the network's arithmetic, one batched call per
decision with a small stand-in network, and nothing hidden in the inputs.  No weights are needed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from qipai.games.doudizhu.bots.research import ResearchDeal, load_deals, research_game
from qipai.games.doudizhu.bots.resnet import (
    BID_VECTOR,
    PARAMETERS,
    WEIGHTS_FILE,
    DouZeroResNetBot,
    ResNetQ,
    card_row,
    encode,
    load_networks,
    parameter_count,
    position_of,
)
from qipai.games.doudizhu.bots.view import counts_of_text
from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game


def row_of(text: str) -> list[float]:
    return card_row(counts_of_text(text))


def fixed_game() -> Game:
    """A research-protocol deal with hands we choose: the landlord (seat 0) holds 17 cards plus the kitty."""
    deal = ResearchDeal.parse("33456789TJQKAA22B 445566778899TTJJQ 33456789TJQKKAA22 QKR")
    return research_game(deal)


def test_card_slots() -> None:
    assert row_of("3") == [1.0] + [0.0] * 53
    r = row_of("2222BR")
    assert [i for i, v in enumerate(r) if v] == [48, 49, 50, 51, 52, 53]
    r = row_of("TTT")
    assert [i for i, v in enumerate(r) if v] == [28, 29, 30]
    assert sum(row_of("")) == 0


def test_encoding_of_a_fixed_position() -> None:
    g = fixed_game()
    # the landlord plays a K (a kitty rank), landlord_down cannot beat it, landlord_up plays an A, ...
    for a, seat in (("play K", 0), ("pass", 1), ("play A", 2), ("play 2", 0), ("pass", 1), ("pass", 2),
                     ("play 3", 0)):
        assert g.to_act == seat, (a, g.to_act)
        g.apply(a, seat)
    seat = g.to_act
    assert seat == 1  # landlord_down to answer the landlord's 3
    obs = g.observe(1)
    z, x, actions = encode(obs, g.legal_actions())
    assert z.shape == (len(actions), 40, 54) and z.dtype == np.float32
    assert x.tolist() == list(BID_VECTOR)
    assert sorted(actions) == sorted(g.legal_actions())
    # row 0: the candidate action
    for i, a in enumerate(actions):
        want = [0.0] * 54 if a == "pass" else row_of(a.split()[1])
        assert z[i, 0].tolist() == want
    ctx = z[0, 1:]
    assert all((z[i, 1:] == ctx).all() for i in range(len(actions)))  # the rest is the same for all
    # row 1: cards left one-hot: landlord 17 of 20, landlord_up (seat 2) 16 of 17, landlord_down (seat 1) 17
    left = z[0, 1].tolist()
    assert [i for i, v in enumerate(left) if v] == [16, 20 + 15, 37 + 16]
    # row 2: own hand; row 3: the other two hands together
    assert z[0, 2].tolist() == row_of("445566778899TTJJQ")
    others = "".join(sorted([str(c)[0] for s in (0, 2) for c in g.hands[s]], key="3456789TJQKA2BR".index))
    assert z[0, 3].tolist() == row_of(others)
    # row 4: the landlord's kitty Q K R less the K played (removed by rank)
    assert z[0, 4].tolist() == row_of("QR")
    # rows 5-7: played by landlord, landlord_up, landlord_down
    assert z[0, 5].tolist() == row_of("3K2")
    assert z[0, 6].tolist() == row_of("A")
    assert z[0, 7].tolist() == [0.0] * 54
    # rows 8-39: 25 padding rows of -1 first, then the 7 moves most recent first (passes all zero)
    hist = z[0, 8:]
    assert (hist[:25] == -1).all()
    moves = ["3", None, None, "2", "A", None, "K"]
    for j, m in enumerate(moves):
        assert hist[25 + j].tolist() == ([0.0] * 54 if m is None else row_of(m)), j


def test_history_keeps_the_last_32_moves() -> None:
    g = research_game(load_deals(3)[2])
    n = 0
    while n < 40 and not g.is_over:
        g.apply(g.legal_actions()[0] if g.legal_actions()[0] != "pass" else g.legal_actions()[-1])
        n += 1
    if g.is_over:
        pytest.fail("the deal ended before 40 moves")
    obs = g.observe(g.to_act)
    z, _, _ = encode(obs, g.legal_actions())
    assert (z[0, 8:] != -1).any(axis=1).all()  # no padding once 32 moves are there
    last = g.log[-1]
    want = [0.0] * 54 if last["event"] == "pass" else row_of(last["move"])
    assert z[0, 8].tolist() == want


def test_positions() -> None:
    assert [position_of(s, 0) for s in range(3)] == ["landlord", "landlord_down", "landlord_up"]
    assert [position_of(s, 2) for s in range(3)] == ["landlord_down", "landlord_up", "landlord"]


def test_inputs_hold_no_hidden_card() -> None:
    """Two deals differing only in the farmers' hands give the landlord the same inputs."""
    r = PRESETS["classic"]
    base = Game.new(r, 11)
    hands = [[str(c) for c in h] for h in base.hands]
    swapped = [list(h) for h in hands]
    swapped[1][:6], swapped[2][:6] = hands[2][:6], hands[1][:6]
    kitty = " ".join(str(c) for c in base.kitty)
    inputs = []
    for hs in (hands, swapped):
        g = Game.from_deal(r, [" ".join(h) for h in hs], kitty, first_bidder=0)
        g.apply("bid 3")
        g.apply(g.legal_actions()[0])
        g.apply("pass")
        g.apply("pass")
        z, x, actions = encode(g.observe(0), g.legal_actions())
        inputs.append((z, x, actions))
    (za, xa, aa), (zb, xb, ab) = inputs
    assert aa == ab and (za == zb).all() and (xa == xb).all()


def random_params(seed: int) -> dict[str, Any]:
    """Random weights in the published layer shapes (no real weights needed)."""
    rng = np.random.default_rng(seed)
    p: dict[str, Any] = {}

    def conv(name: str, o: int, c: int, k: int) -> None:
        p[name + ".weight"] = rng.normal(0, 0.2, (o, c, k)).astype(np.float32)

    def bn(name: str, c: int) -> None:
        p[name + ".weight"] = rng.uniform(0.5, 1.5, c).astype(np.float32)
        p[name + ".bias"] = rng.normal(0, 0.1, c).astype(np.float32)
        p[name + ".running_mean"] = rng.normal(0, 0.1, c).astype(np.float32)
        p[name + ".running_var"] = rng.uniform(0.5, 2.0, c).astype(np.float32)

    conv("conv1", 80, 40, 3)
    bn("bn1", 80)
    c_in = 80
    for layer, c in (("layer1", 80), ("layer2", 160), ("layer3", 320)):
        for i in range(2):
            q = f"{layer}.{i}"
            conv(q + ".conv1", c, c_in, 3)
            bn(q + ".bn1", c)
            conv(q + ".conv2", c, c, 3)
            bn(q + ".bn2", c)
            if i == 0:
                conv(q + ".shortcut.0", c, c_in, 1)
                bn(q + ".shortcut.1", c)
            c_in = c
    for i, (o, n) in enumerate(((1024, 1340), (512, 1024), (256, 512), (1, 256)), start=1):
        p[f"linear{i}.weight"] = rng.normal(0, 1 / np.sqrt(n), (o, n)).astype(np.float32)
        p[f"linear{i}.bias"] = rng.normal(0, 0.1, o).astype(np.float32)
    return p


def reference_values(p: dict[str, Any], z: Any, x: Any) -> Any:
    """The architecture written the slow, obvious way (loops over positions; batch norm unfolded)."""

    def conv(h: Any, w: Any, stride: int, pad: int) -> Any:
        _, length = h.shape
        hp = np.pad(h, ((0, 0), (pad, pad)))
        k = w.shape[2]
        out_len = (length + 2 * pad - k) // stride + 1
        out = np.zeros((w.shape[0], out_len), dtype=np.float64)
        for t in range(out_len):
            out[:, t] = np.einsum("ock,ck->o", w, hp[:, t * stride:t * stride + k])
        return out

    def bn(h: Any, name: str) -> Any:
        return ((h - p[name + ".running_mean"][:, None]) / np.sqrt(p[name + ".running_var"][:, None] + 1e-5)
                * p[name + ".weight"][:, None] + p[name + ".bias"][:, None])

    out = []
    for b in range(z.shape[0]):
        h = np.maximum(bn(conv(z[b].astype(np.float64), p["conv1.weight"], 2, 1), "bn1"), 0)
        for layer in ("layer1", "layer2", "layer3"):
            for i in range(2):
                q = f"{layer}.{i}"
                s = 2 if i == 0 else 1
                y = np.maximum(bn(conv(h, p[q + ".conv1.weight"], s, 1), q + ".bn1"), 0)
                y = bn(conv(y, p[q + ".conv2.weight"], 1, 1), q + ".bn2")
                sc = bn(conv(h, p[q + ".shortcut.0.weight"], s, 0), q + ".shortcut.1") if i == 0 else h
                h = np.maximum(y + sc, 0)
        assert h.shape == (320, 4)
        a = np.concatenate([x, x, x, x, h.reshape(-1)])
        for i in range(1, 5):
            a = p[f"linear{i}.weight"] @ a + p[f"linear{i}.bias"]
            a = np.where(a > 0, a, 0.01 * a)
        out.append(a[0])
    return np.array(out)


def test_network_matches_the_architecture_written_out() -> None:
    p = random_params(1)
    assert parameter_count(p) == PARAMETERS
    net = ResNetQ(p)
    g = research_game(load_deals(1)[0])
    z, x, _ = encode(g.observe(0), g.legal_actions())
    z = z[:5]
    got = net.values(z, x)
    want = reference_values(p, z, x)
    assert got.shape == (5,)
    assert np.allclose(got, want, rtol=1e-3, atol=1e-3), (got, want)
    # one candidate alone gets the value it gets in the batch
    assert np.allclose(net.values(z[2:3], x), got[2:3], rtol=1e-4, atol=1e-5)


class StandIn:
    """A small stand-in network: values a candidate by the cards it plays, and records its batches."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    def __call__(self, z: Any, x: Any) -> Any:
        assert z.shape[1:] == (40, 54) and x.shape == (15,)
        self.batches.append(z.shape[0])
        return z[:, 0, :].sum(axis=1) + 0.001 * (z[:, 0, :] * np.arange(54)).sum(axis=1) / 54


def test_bot_plays_the_argmax_with_one_batched_call_per_decision() -> None:
    nets = {p: StandIn() for p in ("landlord", "landlord_up", "landlord_down")}
    bot = DouZeroResNetBot(nets, seed=0)  # type: ignore[arg-type]
    for deal in load_deals(3):
        g = research_game(deal)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            legal = g.legal_actions()
            before = sum(len(n.batches) for n in nets.values())
            a = bot.act(g.observe(seat), list(legal))
            assert a in legal
            if len(legal) > 1:
                assert sum(len(n.batches) for n in nets.values()) == before + 1
                net = nets[position_of(seat, 0)]
                assert net.batches[-1] == len(legal)
                vals = bot.last_values
                assert vals[a] == max(vals.values())
                # the stand-in prefers the most cards: no legal play has more
                cards = 0 if a == "pass" else len(a.split()[1])
                assert all(cards >= (0 if b == "pass" else len(b.split()[1])) for b in legal)
            g.apply(a, seat)
    assert all(n.batches for n in nets.values())


def test_missing_or_wrong_weights_are_reported(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="fetch_douzero_resnet"):
        load_networks(tmp_path)
    p = random_params(2)
    del p["linear4.bias"]
    np.savez(tmp_path / WEIGHTS_FILE, **{f"{pos}/{k}": v for pos in ("landlord", "landlord_up", "landlord_down")
                                         for k, v in p.items()})
    with pytest.raises(ValueError, match="parameters"):
        load_networks(tmp_path)


def test_bidding_falls_back_to_the_heuristic() -> None:
    g = Game.new(PRESETS["classic"], 5)
    bot = DouZeroResNetBot({}, seed=0)
    a = bot.act(g.observe(g.to_act), g.legal_actions())
    assert a in g.legal_actions()
    with pytest.raises(ValueError, match="three-player"):
        g4 = Game.new(PRESETS["four_player"], 1)
        while g4.phase != "play":
            g4.apply(g4.legal_actions()[-1])
        encode(g4.observe(g4.to_act), g4.legal_actions())
