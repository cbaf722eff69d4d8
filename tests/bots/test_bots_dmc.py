"""The learned action-value bot (``dmc``): its inputs match between self-play and real observations, it plays
legally and reproducibly from what the seat sees, and its training is reproducible."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from benchscripts import bench_script
from qipai.games.doudizhu.bots import BOTS
from qipai.games.doudizhu.bots.arena import make_bot
from qipai.games.doudizhu.bots.dmc import (
    HIDDEN,
    INPUTS,
    ROLE_AT,
    SPLITS,
    STATE,
    DmcBot,
    QNet,
    SplitQNet,
    action_rows,
    index_of,
    inputs,
    load_qnet,
    planes,
    play_out,
    qnet_of,
    self_play,
    view_state,
    view_steps,
)
from qipai.games.doudizhu.bots.research import make_deals, research_game
from qipai.games.doudizhu.bots.view import action_moves, counts_of_text, counts_of_tokens, read_view
from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = PRESETS["classic"]


def trainer() -> ModuleType:
    return bench_script("train_dmc")


def _start(tr: ModuleType, tmp_path: Path, hidden: tuple[int, ...]) -> Path:
    """A random start network of these hidden sizes, saved for ``--init``."""
    start = tmp_path / "start.npz"
    tr.save(QNet.random(7, hidden=hidden), start)
    return start


def _same_weights(tr: ModuleType, args: list[str], tmp_path: Path, a: list[str], b: list[str]) -> Path:
    """Two training runs (``args`` plus ``a``, plus ``b``) write the same bytes; the first run's file."""
    assert tr.main([*args, *a, "--out", str(tmp_path / "a.npz")]) == 0
    assert tr.main([*args, *b, "--out", str(tmp_path / "b.npz")]) == 0
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()
    return tmp_path / "a.npz"


def _counts(deal: object) -> tuple[list[list[int]], list[int]]:
    hands = [counts_of_text(h) for h in deal.hands]  # type: ignore[attr-defined]
    kitty = counts_of_text(deal.kitty)  # type: ignore[attr-defined]
    for r, k in enumerate(kitty):
        hands[0][r] += k
    return hands, kitty


def test_planes_count_cards() -> None:
    p = planes(np.array([[4, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0]]))
    assert p.shape == (1, 54) and p.sum() == 8
    assert list(np.flatnonzero(p[0])) == [0, 1, 2, 3, 4, 48, 49, 52]


def test_self_play_states_are_what_the_seats_observe() -> None:
    """The training games' inputs are the ones the bot computes from real observations of the same game."""
    decisions = 0
    for deal in make_deals(6, seed=404):
        hands, kitty = _counts(deal)
        seen: list[tuple[object, object, int]] = []
        winner = self_play(hands, kitty, CLASSIC, lambda d: d.heuristic(),
                           lambda d, i, seen=seen: seen.append((d.state, d.moves[i], d.seat)))
        g = research_game(deal)
        for state, move, seat in seen:
            assert g.to_act == seat
            obs = g.observe(seat)
            assert np.array_equal(state, view_state(read_view(obs), obs.get("kitty")))
            legal = g.legal_actions()
            moves = action_moves(legal, CLASSIC)
            g.apply("pass" if move is None else next(a for a, m in moves.items() if m.counts == move.counts))
            decisions += 1
        assert g.is_over and len(g.hands[winner]) == 0
    assert decisions > 100


def test_action_rows_and_inputs() -> None:
    hand = counts_of_text("3345BR")
    moves = action_moves(["play 33", "play BR"], CLASSIC)
    rows = action_rows(hand, [moves["play 33"], None, moves["play BR"]])
    assert rows.shape == (3, INPUTS - STATE)
    assert rows[0, :54].sum() == 2 and rows[0, 54:108].sum() == 4  # two threes played, four cards kept
    assert rows[1, :54].sum() == 0 and rows[1, 108] == 1.0  # a pass
    assert rows[2, 110] == 1.0  # the rocket is a bomb
    x = inputs(np.zeros(STATE, dtype=np.float32), rows)
    assert x.shape == (3, INPUTS)


def test_action_values_are_the_values_of_the_inputs() -> None:
    """The first layer's state part computed once gives what the whole input rows give."""
    g = research_game(make_deals(1, seed=4)[0])
    v = read_view(g.observe(0))
    moves = action_moves(g.legal_actions(), CLASSIC)
    rows = action_rows(v.hand, [moves.get(a) for a in g.legal_actions()])
    state = view_state(v, g.observe(0).get("kitty"))
    for net in (QNet.random(seed=3), load_qnet()):
        whole = net.values(inputs(state, rows))
        assert len(whole) == len(g.legal_actions()) > 10 and np.ptp(whole) > 0
        np.testing.assert_allclose(net.action_values(state, rows), whole, rtol=1e-5, atol=1e-5)


def test_bot_plays_legally_and_reproducibly_in_every_preset() -> None:
    net = QNet.random(seed=2)
    for preset in ("classic", "jj", "four_player"):
        for seed in range(2):
            runs = []
            for _ in range(2):
                g = Game.new(PRESETS[preset], seed)
                bots = [DmcBot(s, net) for s in range(PRESETS[preset].players)]
                actions = []
                while not g.is_over:
                    seat = g.to_act
                    assert seat is not None
                    a = bots[seat].act(g.observe(seat), g.legal_actions())
                    assert a in g.legal_actions()
                    g.apply(a, seat)
                    actions.append(a)
                runs.append(actions)
            assert runs[0] == runs[1]


def test_bot_takes_the_highest_value() -> None:
    g = research_game(make_deals(1, seed=9)[0])
    obs = g.observe(0)
    bot = DmcBot(0, QNet.random(seed=5))
    a = bot.act(obs, g.legal_actions())
    assert bot.last_values[a] == max(bot.last_values.values())
    assert set(bot.last_values) == set(g.legal_actions())


def test_committed_weights_load_fast_and_beat_random_play() -> None:
    import time

    t = time.thread_time()
    net = load_qnet(ROOT / "src" / "qipai" / "data" / "ddz_dmc.npz")
    assert time.thread_time() - t < 0.5
    assert net.w[0].shape[0] == INPUTS
    assert "dmc" in BOTS
    # as the landlord against random farmers on ten deals, the trained values win most
    wins = 0
    rng = np.random.default_rng(1)
    for deal in make_deals(10, seed=505):
        hands, kitty = _counts(deal)

        def choose(d: object) -> int:
            if d.seat == 0:  # type: ignore[attr-defined]
                x = inputs(d.state, action_rows(d.hand, d.moves))  # type: ignore[attr-defined]
                return int(np.argmax(net.values(x)))
            return int(rng.integers(len(d.moves)))  # type: ignore[attr-defined]

        wins += self_play(hands, kitty, CLASSIC, choose) == 0
    assert wins >= 8


def test_arena_spec_takes_weights(tmp_path: Path) -> None:
    tr = trainer()
    net = QNet.random(seed=3)
    tr.save(net, tmp_path / "q.npz")
    bot = make_bot(f"dmc:weights={tmp_path / 'q.npz'}", 1)
    assert isinstance(bot, DmcBot) and np.array_equal(bot.net.w[0], net.w[0].astype(np.float16))
    assert bot.net.w[0].dtype == np.float32  # stored as halves, computed in single precision
    with pytest.raises(ValueError, match="dmc weights"):
        make_bot(f"dmc:weights={tmp_path / 'missing.npz'}", 1)
    with pytest.raises(ValueError, match="unknown dmc option"):
        make_bot("dmc:width=3", 1)
    short = make_bot(f"dmc:weights={tmp_path / 'q.npz'},candidates=3", 1)
    assert isinstance(short, DmcBot) and short.candidates == 3
    g = research_game(make_deals(1, seed=12)[0])
    a = short.act(g.observe(0), g.legal_actions())
    assert a in g.legal_actions() and len(short.last_values) <= 3 < len(g.legal_actions())
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match=r"dmc weights .*: not an .npz file of arrays$"):  # not numpy's allow_pickle
        make_bot(f"dmc:weights={tmp_path / 'bad.npz'}", 1)
    np.save(tmp_path / "one.npy", np.zeros(3))
    with pytest.raises(ValueError, match=r"dmc weights .*: one array \(.npy\)"):  # was an AttributeError
        make_bot(f"dmc:weights={tmp_path / 'one.npy'}", 1)


def test_search_takes_the_decisions_with_few_cards_left() -> None:
    """``dmc:search=N``: a decision with at most N cards in all hands is the search bot's (no learned values
    weighed), the others the network's; every move legal, to the end of the game."""
    bot = make_bot("dmc:search=40,time=0.02", 1)
    assert isinstance(bot, DmcBot) and bot.search_cards == 40
    g = research_game(make_deals(1, seed=5)[0])
    seen = {"dmc": 0, "search": 0}
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        obs = g.observe(seat)
        a = bot.act(obs, g.legal_actions())
        assert a in g.legal_actions()
        if len(g.legal_actions()) > 1:
            late = sum(obs["card_counts"]) <= 40
            assert (bot.last_values == {}) == late
            seen["search" if late else "dmc"] += 1
        g.apply(a, seat)
    assert seen["dmc"] and seen["search"]
    with pytest.raises(ValueError, match="search must be at most 54"):
        make_bot("dmc:search=60", 1)
    with pytest.raises(ValueError, match="time is the search's"):
        make_bot("dmc:time=0.5", 1)


def test_in_a_hurry_the_strong_bots_play_their_quick_choice() -> None:
    """``act_quickly`` (a server whose bot workers are behind): ``expert`` plays the learned values alone (no
    rollouts: no play-out counted), the search the heuristic's move; each goes back to its own play after."""
    from qipai.games.doudizhu.bots.heuristic import HeuristicBot
    from qipai.games.doudizhu.bots.search import SearchBot

    expert = make_bot("dmc:samples=8,bid=odds", 1)
    plain = make_bot("dmc", 1)
    search, heuristic = SearchBot(1, samples=4), HeuristicBot(1)
    assert isinstance(expert, DmcBot)
    g = research_game(make_deals(1, seed=9)[0])
    choices = 0
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        obs, legal = g.observe(seat), g.legal_actions()
        if len(legal) > 1:
            expert.last_rollouts = {}
            assert expert.act_quickly(obs, legal) == plain.act(obs, legal) and expert.last_rollouts == {}
            assert search.act_quickly(obs, legal) == heuristic.act(obs, legal)
            choices += 1
        a = expert.act(obs, legal)
        g.apply(a, seat)
    assert choices > 5 and expert.samples == 8 and expert.bidding == "odds" and expert.last_rollouts


def test_wrong_input_size_is_refused() -> None:
    p = QNet.random(seed=1).params()
    p["w0"] = p["w0"][:-1]
    with pytest.raises(ValueError, match="inputs"):
        QNet(p)


def test_mismatched_layers_are_refused() -> None:
    p = QNet.random(seed=1).params()
    p["b1"] = p["b1"][:-1]
    with pytest.raises(ValueError, match="layer 1 has weights"):
        QNet(p)
    q = QNet.random(seed=1).params()
    q["w2"] = q["w2"][:, :-1]
    with pytest.raises(ValueError, match="layer 2 has weights"):
        QNet(q)
    with pytest.raises(ValueError, match="at least two layers"):
        QNet({"w0": q["w0"], "b0": q["b0"]})


def test_widening_keeps_the_values_and_other_sizes_play() -> None:
    """A widened network (more units, new ones silent) values every input as before; networks of any hidden
    sizes load, play and report them."""
    net = QNet.random(seed=4)
    wide = net.widened((300, 256, 160), seed=5)
    assert wide.hidden() == (300, 256, 160) and net.hidden() == HIDDEN
    x = np.random.default_rng(1).random((12, INPUTS)).astype(np.float32)
    assert np.allclose(net.values(x), wide.values(x), atol=1e-5)
    assert np.allclose(wide.action_values(x[0, :STATE], x[:, STATE:]),
                       wide.values(np.concatenate([np.broadcast_to(x[0, :STATE], (12, STATE)), x[:, STATE:]], 1)),
                       atol=1e-5)
    assert not np.array_equal(wide.w[0][:, 256:], np.zeros_like(wide.w[0][:, 256:]))  # new units can learn
    with pytest.raises(ValueError, match="can only widen"):
        net.widened((128, 256, 128))
    with pytest.raises(ValueError, match="can only widen"):
        net.widened((256, 256))
    small = QNet.random(seed=2, hidden=(32, 16))
    g = Game.new(PRESETS["classic"], seed=5)
    g.apply("bid 3")
    bot = DmcBot(0, small)
    assert bot.act(g.observe(g.to_act), g.legal_actions()) in g.legal_actions()


def test_training_can_widen_the_network(tmp_path: Path) -> None:
    """``--hidden`` with ``--init``: training goes on from the start network widened to those layers (so the
    first evaluation's play is the start network's); a bad value is refused."""
    tr = trainer()
    start = tmp_path / "start.npz"
    tr.save(QNet.random(7), start)
    args = ["--init", str(start), "--iterations", "1", "--games", "6", "--eval", "4", "--eval-every", "1"]
    assert tr.main([*args, "--hidden", "300,256,128", "--out", str(tmp_path / "w.npz")]) == 0
    wide = load_qnet(tmp_path / "w.npz")
    assert wide.hidden() == (300, 256, 128)
    assert tr.main(["--warm", "20", "--iterations", "1", "--games", "4", "--eval", "2", "--eval-every", "1",
                    "--hidden", "40,20", "--out", str(tmp_path / "s.npz")]) == 0
    assert load_qnet(tmp_path / "s.npz").hidden() == (40, 20)
    for bad in ("300,x", "0,10", "100,100,100"):  # the last narrower than the start's 256
        with pytest.raises(SystemExit):
            tr.main([*args, "--hidden", bad, "--out", str(tmp_path / "bad.npz")])


def test_training_is_reproducible(tmp_path: Path) -> None:
    tr = trainer()
    args = ["--warm", "40", "--iterations", "2", "--games", "10", "--eval", "4", "--eval-every", "2"]
    assert tr.main([*args, "--out", str(tmp_path / "a.npz")]) == 0
    assert tr.main([*args, "--out", str(tmp_path / "b.npz")]) == 0
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()
    a = load_qnet(tmp_path / "a.npz")
    assert not np.array_equal(a.w[0], QNet.random(tr.TRAIN_SEED).w[0])  # it learned something


def test_training_can_average_the_weights(tmp_path: Path) -> None:
    """``--average D``: the averaged weights are written beside the last ones, between the start and them."""
    tr = trainer()
    start = tmp_path / "start.npz"
    tr.save(QNet.random(7), start)
    args = ["--init", str(start), "--iterations", "2", "--games", "10", "--eval", "4", "--eval-every", "2"]
    assert tr.main([*args, "--average", "0.9", "--out", str(tmp_path / "a.npz")]) == 0
    last, avg, first = (load_qnet(tmp_path / n) for n in ("a.npz", "a.avg.npz", "start.npz"))
    moved, lag = np.abs(last.w[0] - first.w[0]).sum(), np.abs(avg.w[0] - first.w[0]).sum()
    assert 0 < lag < moved
    with pytest.raises(SystemExit):
        tr.main([*args, "--average", "1", "--out", str(tmp_path / "b.npz")])


def test_training_with_workers_is_the_same_for_any_number_of_them(tmp_path: Path) -> None:
    """``--workers``: each game draws from a random source of its own, so one worker (in this process) and two
    (processes) write the same weights; and it still learns."""
    tr = trainer()
    args = ["--warm", "30", "--iterations", "2", "--games", "9", "--eval", "5", "--eval-every", "2"]
    assert tr.main([*args, "--workers", "1", "--out", str(tmp_path / "one.npz")]) == 0
    assert tr.main([*args, "--workers", "2", "--out", str(tmp_path / "two.npz")]) == 0
    assert (tmp_path / "one.npz").read_bytes() == (tmp_path / "two.npz").read_bytes()
    assert tr.main([*args, "--out", str(tmp_path / "shared.npz")]) == 0  # one shared source: other games
    assert (tmp_path / "shared.npz").read_bytes() != (tmp_path / "one.npz").read_bytes()
    assert not np.array_equal(load_qnet(tmp_path / "one.npz").w[0], QNet.random(tr.TRAIN_SEED).w[0])
    with pytest.raises(SystemExit):
        tr.main([*args, "--workers", "-1"])


def test_defer_plays_the_heuristics_choice_within_the_margin() -> None:
    """``dmc:defer=X``: the heuristic's choice is played when its learned value is within X of the best; a
    margin larger than any value gap makes the bot the heuristic, none leaves it the plain learned bot."""
    from qipai.games.doudizhu.bots.heuristic import HeuristicBot

    plain, always = make_bot("dmc:defer=0", 1), make_bot("dmc:defer=2", 1)
    assert isinstance(always, DmcBot) and always.defer == 2.0
    some = make_bot("dmc:defer=0.05", 1)
    differ = 0
    for deal in make_deals(6, seed=77):
        g = research_game(deal)
        heur = HeuristicBot(0)
        for _ in range(30):
            if g.is_over:
                break
            obs, legal = g.observe(g.to_act), g.legal_actions()
            mine, best, got = heur.act(obs, legal), plain.act(obs, legal), some.act(obs, legal)
            assert always.act(obs, legal) == mine
            vals = plain.last_values  # type: ignore[attr-defined]
            if mine in vals and best in vals:
                assert got == (mine if vals[mine] >= vals[best] - 0.05 else best)
            differ += mine != best
            g.apply(best)
    assert differ > 0  # the learned bot and the heuristic do disagree
    with pytest.raises(ValueError, match="dmc option defer must be at most 2"):
        make_bot("dmc:defer=3", 1)


def test_split_networks_value_each_role_by_its_own() -> None:
    """A split network (one per side, or per role) starts as copies of a shared one (the same values), values
    each decision by its role's network, survives its weights file, and plays."""
    net = QNet.random(seed=6, hidden=(32, 16))
    x = np.random.default_rng(2).random((30, INPUTS)).astype(np.float32)
    x[:, ROLE_AT:ROLE_AT + 3] = 0.0
    roles = np.arange(30) % 3
    x[np.arange(30), ROLE_AT + roles] = 1.0
    for split, groups in SPLITS.items():
        s = SplitQNet.of(net, split)
        assert s.groups == groups and len(s.nets) == max(groups) + 1
        assert np.allclose(s.values(x), net.values(x), atol=1e-6)
        s.nets[1].b[-1] += 1.0  # moves the down farmer's network only (and the up one's where they share it)
        moved = np.abs(s.values(x) - net.values(x)) > 0.5
        assert list(moved) == [groups[r] == 1 for r in roles]
        for r in range(3):  # one decision's actions by its role's network, as values() does
            row = x[roles == r]
            assert np.allclose(s.action_values(row[0, :STATE], row[:, STATE:]),
                               s.values(np.concatenate([np.broadcast_to(row[0, :STATE], (len(row), STATE)),
                                                        row[:, STATE:]], 1)), atol=1e-5)
        again = qnet_of(s.params())
        assert isinstance(again, SplitQNet) and np.array_equal(again.values(x), s.values(x))
    assert isinstance(qnet_of(net.params()), QNet)
    g = Game.new(PRESETS["classic"], seed=9)
    g.apply("bid 3")
    bot = DmcBot(0, SplitQNet.of(net, "roles"))
    for _ in range(40):
        if g.phase != "play":
            break
        seat = g.to_act
        a = bot.act(g.observe(seat), g.legal_actions())
        assert a in g.legal_actions()
        g.apply(a, seat)


def test_split_networks_refuse_bad_groups() -> None:
    p = SplitQNet.of(QNet.random(seed=1, hidden=(8, 4)), "roles").params()
    for bad in ([0, 1], [0, 2, 2], [0, 0.5, 1], [1, 1, 1], [0, float("nan"), 1], [0, float("inf"), 0]):
        with pytest.raises(ValueError, match="'groups' must name a network"):
            SplitQNet({**p, "groups": np.array(bad, dtype=np.float32)})
    with pytest.raises(ValueError, match="needs its 'groups'"):
        SplitQNet({k: v for k, v in p.items() if k != "groups"})
    with pytest.raises(ValueError, match=r"network n2 of the split: .*layers"):  # named by the groups, missing
        SplitQNet({k: v for k, v in p.items() if not k.startswith("n2.")})
    with pytest.raises(ValueError, match="unknown split 'seats'"):
        SplitQNet.of(QNet.random(seed=1), "seats")


def test_training_can_split_the_network(tmp_path: Path) -> None:
    """``--split sides``: the landlord's and the farmers' networks start as the shared --init network and each
    learns from its side's decisions only; the run is reproducible, a split --init goes on split, and a split
    of another kind, or widening a split network, is refused."""
    tr = trainer()
    start = _start(tr, tmp_path, (48, 24))
    args = ["--init", str(start), "--iterations", "2", "--games", "60", "--eval", "4", "--eval-every", "2",
            "--average", "0.9"]
    _same_weights(tr, args, tmp_path, ["--split", "sides"], ["--split", "sides"])
    first = load_qnet(start)
    for name in ("a.npz", "a.avg.npz"):
        split = load_qnet(tmp_path / name)
        assert isinstance(split, SplitQNet) and split.groups == (0, 1, 1) and isinstance(first, QNet)
        moved = [np.abs(n.w[0] - first.w[0]).sum() for n in split.nets]
        assert min(moved) > 0 and not np.array_equal(split.nets[0].w[0], split.nets[1].w[0])
    go_on = ["--init", str(tmp_path / "a.npz"), "--iterations", "1", "--games", "40", "--eval", "2",
             "--eval-every", "1"]
    assert tr.main([*go_on, "--out", str(tmp_path / "c.npz")]) == 0
    c = load_qnet(tmp_path / "c.npz")
    assert isinstance(c, SplitQNet) and c.groups == (0, 1, 1)
    with pytest.raises(SystemExit):
        tr.main([*go_on, "--split", "roles", "--out", str(tmp_path / "d.npz")])
    with pytest.raises(SystemExit):
        tr.main([*go_on, "--hidden", "64,24", "--out", str(tmp_path / "e.npz")])
    with pytest.raises(SystemExit):
        tr.main([*args, "--split", "seats", "--out", str(tmp_path / "f.npz")])


def test_batched_values_are_each_decisions_values() -> None:
    """``batch_action_values`` of several decisions equals ``action_values`` of each, for a shared and a split
    network; ``action_rows`` takes one hand per move as well as one hand."""
    rng = np.random.default_rng(5)
    counts = [3, 1, 4, 2]
    states = rng.random((4, STATE)).astype(np.float32)
    states[:, ROLE_AT:ROLE_AT + 3] = np.eye(3, dtype=np.float32)[[0, 2, 1, 0]]
    rows = rng.random((sum(counts), INPUTS - STATE)).astype(np.float32)
    for net in (QNet.random(seed=8, hidden=(32, 16)), SplitQNet.of(QNet.random(seed=8, hidden=(32, 16)), "roles")):
        if isinstance(net, SplitQNet):
            for i, part in enumerate(net.nets):
                part.b[-1] += float(i)  # the roles' networks differ
        each = np.concatenate([net.action_values(states[i], rows[sum(counts[:i]):sum(counts[:i + 1])])
                               for i in range(4)])
        assert np.allclose(net.batch_action_values(states, rows, counts), each, atol=1e-5)
    g = Game.new(PRESETS["classic"], seed=4)
    g.apply("bid 3")
    v = read_view(g.observe(g.to_act))
    moves = list(action_moves(g.legal_actions(), v.rules).values())[:5]
    one = action_rows(v.hand, moves)
    assert np.array_equal(action_rows(np.repeat([v.hand], len(moves), axis=0), moves), one)


def test_side_by_side_games_are_the_ones_played_one_by_one() -> None:
    """``--lockstep``'s games (decisions valued together) are the games played one at a time with the same
    random sources: the same examples in the same order."""
    import random

    tr = trainer()
    net = QNet.random(seed=11, hidden=(32, 16))
    deals = make_deals(7, seed=77)
    for eps in (0.0, 0.3):
        one_by_one = []
        for j, d in enumerate(deals):
            chooser = tr.epsilon_greedy(net, eps, random.Random(j))  # one source for the game's three seats
            one_by_one.append(tr.play_games([d], CLASSIC, lambda s, c=chooser: c))
        x, y = tr.play_side_by_side(net, deals, CLASSIC, [random.Random(j) for j in range(7)], eps, 0)
        assert np.array_equal(x, np.concatenate([a for a, _, _ in one_by_one]))
        assert np.array_equal(y, np.concatenate([b for _, b, _ in one_by_one]))
        assert len(x) > 7 * 10 and set(np.unique(y)) == {-1.0, 1.0}


def test_training_side_by_side_is_the_same_for_any_number_of_workers(tmp_path: Path) -> None:
    tr = trainer()
    start = _start(tr, tmp_path, (32, 16))
    args = ["--init", str(start), "--iterations", "2", "--games", "50", "--eval", "4", "--eval-every", "2",
            "--lockstep", "20"]
    one = _same_weights(tr, args, tmp_path, ["--workers", "1"], ["--workers", "2"])
    assert not np.array_equal(load_qnet(one).params()["w0"], load_qnet(start).params()["w0"])
    for bad in (["--lockstep", "20"], ["--lockstep", "-1", "--workers", "1"]):
        with pytest.raises(SystemExit):
            tr.main([*args[:-2], *bad, "--out", str(tmp_path / "bad.npz")])


def test_selfplay_benchmark_runs_and_checks_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    bench = bench_script("dmc_selfplay")
    assert bench.main(["--games", "6", "--blocks", "2,6", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert "lockstep 2" in out and "lockstep 6" in out and "other examples" not in out
    for bad in (["--blocks", "x"], ["--blocks", "0"], ["--repeats", "0"]):
        with pytest.raises(SystemExit):
            bench.main(bad)


def test_exploring_the_opening_draws_among_the_most_valued_leads() -> None:
    """``--explore-opening``: the opening lead drawn from the ``top`` most valued leads; ``top`` 1 is the
    greedy lead (the same games as without it, at ε 0), more draws other leads, and only the opening differs
    in kind (later decisions stay greedy)."""
    import random

    tr = trainer()
    net = QNet.random(seed=11, hidden=(32, 16))
    deal = make_deals(1, seed=78)[0]
    n = 12

    def openings(explore: float, top: int) -> tuple[set[bytes], tuple[object, object]]:
        firsts, x_all, y_all = set(), [], []
        for j in range(n):
            x, y = tr.play_side_by_side(net, [deal], CLASSIC, [random.Random(j)], 0.0, 0, explore, top)
            firsts.add(x[0].tobytes())
            x_all.append(x)
            y_all.append(y)
        return firsts, (np.concatenate(x_all), np.concatenate(y_all))

    greedy_first, greedy = openings(0.0, 0)
    assert len(greedy_first) == 1  # ε 0: every game the same
    top1_first, top1 = openings(1.0, 1)
    assert top1_first == greedy_first
    assert np.array_equal(top1[0], greedy[0]) and np.array_equal(top1[1], greedy[1])
    assert 1 < len(openings(1.0, 3)[0]) <= 3
    assert len(openings(1.0, 0)[0]) > 3


def test_lambda_returns_bootstrap_from_the_seats_next_values() -> None:
    """``--lam``: at λ 0 (and ε 0) a decision's target is the value of its seat's next decision (the value of
    the move played there, greedy), the last decision of a seat the game's result; at λ 1 every target is the
    result, the examples the same."""
    import random

    tr = trainer()
    assert tr.lambda_returns([0, 1, 0, 1], [0.0, -0.2, 0.5, 0.25], 0, 0.5) == [0.75, -0.375, 1.0, -1.0]
    assert tr.lambda_returns([1, 2, 1], [0.0, 0.0, 3.0], 0, 0.0) == [1.0, -1.0, -1.0]  # values clipped to ±1
    net = QNet.random(seed=12, hidden=(32, 16))
    for deal in make_deals(3, seed=79):
        x, y_mc = tr.play_side_by_side(net, [deal], CLASSIC, [random.Random(1)], 0.0, 0)
        x1, y1 = tr.play_side_by_side(net, [deal], CLASSIC, [random.Random(1)], 0.0, 0, lam=1.0)
        x0, y0 = tr.play_side_by_side(net, [deal], CLASSIC, [random.Random(1)], 0.0, 0, lam=0.0)
        assert np.array_equal(x, x1) and np.array_equal(y_mc, y1) and np.array_equal(x, x0)
        seats = np.argmax(x[:, ROLE_AT:ROLE_AT + 3], axis=1)
        values = np.clip(net.values(x.astype(np.float32)), -1.0, 1.0)
        bootstrapped = 0
        for t, s in enumerate(seats):
            later = [u for u in range(t + 1, len(seats)) if seats[u] == s]
            if later:
                assert y0[t] == pytest.approx(values[later[0]], abs=0.01)
                bootstrapped += 1
            else:
                assert y0[t] == y_mc[t] and abs(y0[t]) == 1.0
        assert bootstrapped > 10
        assert np.all(np.abs(y0) <= 1.0) and not np.array_equal(y0, y_mc)


def test_training_explores_and_bootstraps_the_same_for_any_number_of_workers(tmp_path: Path) -> None:
    tr = trainer()
    start = _start(tr, tmp_path, (32, 16))
    args = ["--init", str(start), "--iterations", "2", "--games", "40", "--eval", "4", "--eval-every", "2",
            "--lockstep", "20", "--explore-opening", "0.5", "--explore-top", "4", "--lam", "0.8"]
    one = _same_weights(tr, args, tmp_path, ["--workers", "1"], ["--workers", "2"])
    plain = tmp_path / "plain.npz"
    assert tr.main([*args[:-6], "--workers", "1", "--out", str(plain)]) == 0
    assert not np.array_equal(load_qnet(one).params()["w0"], load_qnet(plain).params()["w0"])
    for bad in (["--lam", "1.5"], ["--lam", "-0.1"], ["--explore-opening", "2"], ["--explore-top", "-1"]):
        with pytest.raises(SystemExit):
            tr.main([*args, *bad, "--workers", "1", "--out", str(tmp_path / "bad.npz")])
    for alone in (["--lam", "0.5"], ["--explore-opening", "0.5"]):  # without --lockstep
        with pytest.raises(SystemExit):
            tr.main(["--init", str(start), "--iterations", "1", *alone, "--out", str(tmp_path / "bad.npz")])


def test_rollouts_start_from_the_seats_view() -> None:
    """A rollout game built from a seat's view and the real hands (:func:`view_steps`) is the real game: its
    first decision has the state the bot computes from the observation and the real legal moves, and played on
    with the real game's moves it ends with the same seat out."""
    checked = 0
    games = [research_game(deal) for deal in make_deals(2, seed=77)]
    for seed in range(40):  # and bid games whose landlord is not seat 0 (seats by role differ from seats)
        g = Game.new(CLASSIC, seed=seed)
        bidder = DmcBot(seed)
        while g.phase != "play" and not g.is_over:
            seat = g.to_act
            assert seat is not None
            g.apply(bidder.act(g.observe(seat), g.legal_actions()), seat)
        if g.phase == "play" and g.landlord in (1, 2) and g.landlord not in [h.landlord for h in games[2:]]:
            games.append(g)
    assert len(games) == 4
    for g in games:
        follow: list[tuple[Any, Any]] = []  # rollout games started mid-deal, fed the real moves
        plain = DmcBot(2, QNet.random(seed=4))
        n = 0
        while not g.is_over:
            seat = g.to_act
            assert seat is not None and g.landlord is not None
            obs = g.observe(seat)
            v = read_view(obs)
            legal = g.legal_actions()
            hands = [counts_of_tokens([str(c) for c in g.hands[s]]) for s in range(3)]
            steps = view_steps(v, obs.get("kitty"), hands)
            d = next(steps)
            assert np.array_equal(d.state, view_state(v, obs.get("kitty")))
            assert d.seat == (seat - g.landlord) % 3
            moves = action_moves(legal, CLASSIC)
            assert sorted(m.counts for m in d.moves if m is not None) == sorted(m.counts for m in moves.values())
            assert (None in d.moves) == ("pass" in legal)
            if n in (0, 7, 19):
                follow.append((steps, d))
            a = plain.act(obs, legal)
            for i, (st, at) in enumerate(follow):
                if at is None:
                    continue
                assert at.seat == (seat - g.landlord) % 3 and at.hand == tuple(hands[seat])
                try:
                    follow[i] = (st, st.send(index_of(moves.get(a), at.moves)))
                except StopIteration as done:
                    follow[i] = (done.value, None)
            g.apply(a, seat)
            n += 1
        checked += n
        winner = next(s for s in range(3) if not g.hands[s])
        assert [w for w, at in follow] == [(winner - g.landlord) % 3] * 3
        assert all(at is None for _, at in follow)
    assert checked > 60


def test_play_out_finishes_every_game_with_the_networks_moves() -> None:
    """:func:`play_out` plays games side by side to the end, each from its given first move, every later move
    the network's greedy one: the same winners as the games played one decision at a time."""
    net = QNet.random(seed=9)
    g = research_game(make_deals(1, seed=31)[0])
    obs = g.observe(0)
    v = read_view(obs)
    hands = [counts_of_tokens([str(c) for c in g.hands[s]]) for s in range(3)]
    firsts = list(action_moves(g.legal_actions(), CLASSIC).values())[:5]
    winners = play_out(net, [view_steps(v, obs.get("kitty"), hands) for _ in firsts], firsts)
    for m, w in zip(firsts, winners, strict=True):
        steps = view_steps(v, obs.get("kitty"), hands)
        d = next(steps)
        i = index_of(m, d.moves)
        try:
            while True:
                d = steps.send(i)
                i = int(np.argmax(net.action_values(d.state, action_rows(d.hand, d.moves)))) if len(d.moves) > 1 \
                    else 0
        except StopIteration as done:
            assert float(done.value == 0) == w
    assert all(w in (0.0, 1.0) for w in winners)
    cut = play_out(net, [view_steps(v, obs.get("kitty"), hands) for _ in firsts], firsts, depth=3)
    assert all(0.0 <= p <= 1.0 for p in cut) and len(set(cut) - {0.0, 1.0}) >= 3  # valued, not played out


def test_rollouts_choose_among_the_best_valued_moves_reproducibly() -> None:
    """``dmc:samples=N``: the move played is one of the ``top`` most valued, chosen by the play-outs' win rates
    (the network's own choice unless another wins more by over ``margin``); the same seed, the same choice."""
    g = research_game(make_deals(1, seed=8)[0])
    obs, legal = g.observe(0), g.legal_actions()
    plain = DmcBot(0)
    best = plain.act(obs, legal)
    top = sorted(plain.last_values, key=lambda a: -plain.last_values[a])[:3]
    assert best == top[0]
    a = make_bot("dmc:samples=16,top=3", 5)
    b = make_bot("dmc:samples=16,top=3", 5)
    assert isinstance(a, DmcBot) and isinstance(b, DmcBot)
    pick = a.act(obs, legal)
    assert pick == b.act(obs, legal) and a.last_rollouts == b.last_rollouts
    assert set(a.last_rollouts) == set(top) and pick in top and a.last_samples == 16
    assert pick == max(top, key=lambda m: (a.last_rollouts[m], -top.index(m)))
    assert all(0.0 <= w <= 1.0 for w in a.last_rollouts.values())
    stubborn = make_bot("dmc:samples=16,top=3,margin=0.99", 5)
    assert stubborn.act(obs, legal) == best  # no move wins 99% more often
    cut = make_bot("dmc:samples=8,top=2,depth=4", 5)
    assert isinstance(cut, DmcBot) and cut.depth == 4 and cut.act(obs, legal) in legal
    assert any(w * 8 % 1 > 0.0 for w in cut.last_rollouts.values())  # valued four decisions on, not played out
    timed = make_bot("dmc:rollouts=0.05,top=2", 1)
    assert isinstance(timed, DmcBot) and timed.act(obs, legal) in legal and timed.last_samples >= 8
    with pytest.raises(ValueError, match="top must be at least 2"):
        make_bot("dmc:top=1", 1)
    with pytest.raises(ValueError, match="dmc option margin is the rollouts'"):
        make_bot("dmc:top=3,margin=0.1", 1)
    with pytest.raises(ValueError, match=r"margin must be at most 0\.99"):
        make_bot("dmc:margin=1", 1)
    # blend: the network's values weigh in beside the win rates: a move the play-outs favour a little but the
    # network values far lower is not played
    v = plain.last_values
    gap = v[top[0]] - v[top[1]]
    wins = [0.5, 0.5 + gap / 4, 0.0]  # top[1] wins more often, by less than half the network's gap
    for spec, want in (("dmc:samples=16,top=3", top[1]), ("dmc:samples=16,top=3,blend=1", top[0])):
        bot = make_bot(spec, 5)
        assert isinstance(bot, DmcBot)
        bot.rollout_wins = lambda *args, **kw: list(wins)  # type: ignore[method-assign]
        assert bot.act(obs, legal) == want, spec
    with pytest.raises(ValueError, match="dmc option blend is the rollouts'"):
        make_bot("dmc:blend=1", 1)
    with pytest.raises(ValueError, match=r"blend must be at most 4"):
        make_bot("dmc:samples=4,blend=5", 1)


def test_odds_bidding_and_the_search_on_tables_the_network_does_not_know(monkeypatch: pytest.MonkeyPatch) -> None:
    """``dmc:bid=odds`` bids by the calibrated odds (:func:`~.bidding.odds_bid`) and ``other=search`` hands every
    decision of a table the network was not trained for (four players) to the ``search`` bot, bids included;
    a three-player table's play stays the network's.  What the ``expert`` level is made of."""
    from qipai.games.doudizhu.bots import bidding
    from qipai.games.doudizhu.bots.search import SearchBot

    asked: list[str] = []

    def odds(observation: dict[str, Any], legal: list[str], rng: Any, samples: int = 48,
             deadline: Any = None) -> str:
        assert deadline is not None  # within the bot's budget
        asked.append("odds")
        return legal[-1]

    def search(self: SearchBot, observation: dict[str, Any], legal: list[str]) -> str:
        asked.append(f"search {self.time_budget} {self.bidding}")
        return legal[0]

    monkeypatch.setattr(bidding, "odds_bid", odds)
    monkeypatch.setattr(SearchBot, "act", search)
    three = Game.new(PRESETS["classic"], 3)
    assert len(three.legal_actions()) > 1
    plain, strong = make_bot("dmc", 1), make_bot("dmc:bid=odds,other=search,time=0.3,clock=wall", 1)
    assert isinstance(strong, DmcBot) and (strong.bidding, strong.other, strong.search_time) == ("odds", "search", 0.3)
    assert plain.act(three.observe(three.to_act), three.legal_actions()) in three.legal_actions() and asked == []
    assert strong.act(three.observe(three.to_act), three.legal_actions()) == three.legal_actions()[-1]
    assert asked == ["odds"]
    three.apply("bid 3")
    play = strong.act(three.observe(three.to_act), three.legal_actions())
    assert asked == ["odds"] and play in three.legal_actions() and strong.last_values  # the network's
    four = Game.new(PRESETS["four_player"], 3)
    while not four.is_over and len(asked) < 8:
        seat = four.to_act
        assert seat is not None
        legal = four.legal_actions()
        a = strong.act(four.observe(seat), legal)
        assert a in legal
        four.apply(a, seat)
    assert asked[1:] == ["search 0.3 odds"] * (len(asked) - 1) and len(asked) == 8
    with pytest.raises(ValueError, match="bid must be one of"):
        make_bot("dmc:bid=sometimes", 1)
    with pytest.raises(ValueError, match="other must be one of"):
        make_bot("dmc:other=random", 1)
    with pytest.raises(ValueError, match="time is the search's"):
        make_bot("dmc:bid=odds,time=0.5", 1)
    with pytest.raises(ValueError, match="clock is the rollouts'"):
        make_bot("dmc:clock=wall", 1)


def test_net_bidding_bids_by_the_networks_own_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    """``dmc:bid=net`` bids from :func:`landlord_value` (the network's value of its best opening lead over
    sampled kitties) through :func:`~.bidding.bid_for`; a table the network was not trained for (four players)
    bids by the calibrated play-out odds instead; every bid legal, the same seed the same bids."""
    import random

    from qipai.games.doudizhu.bots import bidding, dmc

    seen: list[float] = []
    real = dmc.landlord_value

    def spy(*args: Any, **kw: Any) -> float:
        p = real(*args, **kw)
        seen.append(p)
        return p

    monkeypatch.setattr(dmc, "landlord_value", spy)
    for seed in range(6):
        g = Game.new(PRESETS["classic"], seed)
        a, b = make_bot("dmc:bid=net", 4), make_bot("dmc:bid=net", 4)
        while g.phase == "bid":
            seat = g.to_act
            assert seat is not None
            obs, legal = g.observe(seat), g.legal_actions()
            choice = a.act(obs, legal)
            assert choice in legal and choice == b.act(obs, legal)
            if len(legal) > 1:
                assert choice == bidding.bid_for(seen[-2], legal)
            g.apply(choice, seat)
    assert seen and all(0.0 <= p <= 1.0 for p in seen) and len(set(seen)) > 5
    asked: list[str] = []
    monkeypatch.setattr(bidding, "odds_bid", lambda obs, legal, rng, **kw: asked.append("odds") or legal[-1])
    four = Game.new(PRESETS["four_player"], 3)
    before = len(seen)
    assert make_bot("dmc:bid=net", 1).act(four.observe(four.to_act), four.legal_actions()) == \
        four.legal_actions()[-1]
    assert asked == ["odds"] and len(seen) == before
    with pytest.raises(ValueError, match="trained for"):
        real(load_qnet(), [0] * 15, PRESETS["four_player"], random.Random(1))


def test_net_doubling_doubles_by_the_sides_own_odds() -> None:
    """``dmc:bid=netdouble`` on a table with doubling (``chengdu``: 倒/反/斡/垒) doubles when :func:`side_value`, the
    network's chance that the seat's side wins (the landlord from its own hand, a farmer over sampled landlord
    hands it would have bid on), reaches ``DOUBLE_AT``, else passes.  Weighing the bidding lowers a farmer's
    chance: the landlord's hand is no random one."""
    import random

    from qipai.games.doudizhu.bots.bidding import DOUBLE_AT
    from qipai.games.doudizhu.bots.dmc import side_value

    doubled = passed = 0
    for seed in range(8):
        g = Game.new(PRESETS["chengdu"], seed)
        bot = make_bot("dmc:bid=netdouble", 2)
        while g.phase in ("bid", "double"):
            seat = g.to_act
            assert seat is not None
            obs, legal = g.observe(seat), g.legal_actions()
            choice = bot.act(obs, legal)
            assert choice in legal
            if g.phase == "double" and len(legal) > 1:
                v = read_view(obs)
                kitty = counts_of_tokens(list(obs["kitty"])) if obs.get("kitty") else None
                p = side_value(load_qnet(), v, kitty, random.Random(0), called=v.seat != v.landlord)
                mine = "pass" if choice == "pass" else "double"
                if abs(p - DOUBLE_AT) > 0.08:  # (clear of the threshold: the bot's own samples agree)
                    assert mine == ("double" if p >= DOUBLE_AT else "pass"), (seed, seat, p, choice)
                doubled += mine == "double"
                passed += mine == "pass"
            g.apply(choice, seat)
    assert doubled and passed
    g = Game.new(PRESETS["chengdu"], 0)
    bidder = make_bot("normal", 0)
    while g.phase == "bid":
        seat = g.to_act
        assert seat is not None
        g.apply(bidder.act(g.observe(seat), g.legal_actions()), seat)
    obs = g.observe(g.to_act)
    v = read_view(obs)
    assert v.seat != v.landlord
    kitty = counts_of_tokens(list(obs["kitty"]))
    assert side_value(load_qnet(), v, kitty, random.Random(0), called=True) < \
        side_value(load_qnet(), v, kitty, random.Random(0)) - 0.05
