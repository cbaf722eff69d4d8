"""The learned play-out policy: its candidates, its features, the committed weights, reproducible training, and
the search and the arena with it."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from benchscripts import bench_script
from qipai.core.options import OptionError
from qipai.games.doudizhu.bots.arena import make_bot
from qipai.games.doudizhu.bots.heuristic import Situation, choose_play
from qipai.games.doudizhu.bots.playout import (
    CANDIDATES,
    FEATURES,
    WEIGHTS,
    PlayoutPolicy,
    candidates,
    features,
    load_policy,
)
from qipai.games.doudizhu.bots.research import load_deals, research_game
from qipai.games.doudizhu.bots.search import SearchBot, Sim
from qipai.games.doudizhu.bots.view import counts_of_text
from qipai.games.doudizhu.combos import beats
from qipai.games.doudizhu.moves import legal_moves
from qipai.games.doudizhu.rules import PRESETS

ROOT = Path(__file__).resolve().parents[2]
RULES = PRESETS["classic"]


def trainer() -> ModuleType:
    return bench_script("train_playout")


def situations(n_deals: int = 6) -> list[Situation]:
    """Situations met in heuristic play-outs of a few research deals (every seat's point of view)."""
    out: list[Situation] = []
    for d in load_deals(n_deals):
        hands = [counts_of_text(h) for h in d.hands]
        for r, k in enumerate(counts_of_text(d.kitty)):
            hands[0][r] += k
        sim = Sim(RULES, hands, 0, 0, None, -1, fast=False)
        for _ in range(400):
            s = sim.to_act
            out.append(Situation(RULES, s, 3, 0, tuple(sim.hands[s]), list(sim.left), sim.last, sim.last_by,
                                 sim.pool(s)))
            if sim.apply(sim.policy()) is not None:
                break
    return out


def test_candidates_are_legal_distinct_and_start_with_the_heuristic() -> None:
    for s in situations():
        cands = candidates(s)
        assert cands[0] == choose_play(s)
        assert 1 <= len(cands) <= CANDIDATES
        keys = [None if m is None else m.counts for m in cands]
        assert len(set(keys)) == len(keys)
        for m in cands:
            if m is None:
                assert s.last is not None  # no passing on a lead
                continue
            assert all(s.hand[r] >= k for r, k in m.parts)
            assert s.last is None or beats(m, s.last)


def test_a_policy_of_the_pick_alone_is_the_heuristic() -> None:
    p = PlayoutPolicy({"pick": 1.0})
    for s in situations(4):
        assert p.choose(s) == choose_play(s)


def test_features_name_what_a_move_is() -> None:
    s = Situation(RULES, 1, 3, 0, tuple(counts_of_text("33456789TJQ")), [2, 11, 17], None, 0,
                  tuple(counts_of_text("44556677889TJQKKAA22BR")))
    single = max((m for m in legal_moves(s.hand, RULES, None) if m.kind == "single"), key=lambda m: m.main)
    names = {FEATURES[i]: x for i, x in features(s, single, False)}
    assert names["lead_farmer_single"] == 1.0 and "pick" not in names
    assert names["lead_single_enemy_low"] == 1.0  # the landlord holds two cards
    assert names["out_after"] == pytest.approx(10 / 20)
    passing = {FEATURES[i] for i, _ in features(
        Situation(RULES, 1, 3, 0, s.hand, [2, 11, 17], single, 0, s.pool), None, True)}
    assert passing == {"pick", "pass", "pass_vs_enemy", "pass_enemy_low"}


def test_weights_of_unknown_features_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"unknown play-out features.*speed"):
        PlayoutPolicy({"pick": 1.0, "speed": 2.0})
    with pytest.raises(FileNotFoundError, match="train_playout"):
        load_policy(tmp_path / "none.json")


def test_the_committed_weights_load_and_differ_from_the_heuristic() -> None:
    doc = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    assert set(doc["weights"]) <= set(FEATURES) and doc["weights"]["pick"] > 0
    assert doc["recipe"]["script"] == "bench/train_playout.py"
    p = load_policy()
    import math

    least = 1.0
    for s in situations(8):
        moves = candidates(s)
        if len(moves) > 1:
            sc = p.scores(s, moves)
            least = min(least, 1 / sum(math.exp(x - sc[0]) for x in sc))
    assert least < 0.5  # somewhere the heuristic's choice is not the likelier move of the learned policy


def test_training_is_reproducible(tmp_path: Path) -> None:
    tp = trainer()
    args = ["--games", "3", "--samples", "4", "--jobs", "1", "--steps", "20", "--valid", "0.34"]
    assert tp.main([*args, "--data", str(tmp_path / "d.json.gz"), "--out", str(tmp_path / "a.json")]) == 0
    assert tp.main(["--train-only", "--data", str(tmp_path / "d.json.gz"), "--steps", "20", "--valid", "0.34",
                    "--out", str(tmp_path / "b.json")]) == 0
    a = json.loads((tmp_path / "a.json").read_text())
    b = json.loads((tmp_path / "b.json").read_text())
    assert a["weights"] == b["weights"] and a["weights"] != {"pick": 1.0}
    assert a["recipe"]["games"] == 3 and a["recipe"]["samples"] == 4
    load_policy(tmp_path / "a.json")


def test_search_with_learned_playouts_is_legal_and_reproducible() -> None:
    def play(seed: int) -> list[str]:
        g = research_game(load_deals(2)[1])
        bot = SearchBot(seed, samples=8, playout_policy=load_policy())
        out = []
        for _ in range(8):
            a = bot.act(g.observe(g.to_act), g.legal_actions())
            assert a in g.legal_actions()
            out.append(a)
            g.apply(a)
        return out

    assert play(4) == play(4)


def test_arena_specs_of_the_learned_playouts(tmp_path: Path) -> None:
    bot = make_bot("search:playout=learned,samples=4", 1)
    assert isinstance(bot, SearchBot) and bot.playout_policy is not None
    assert make_bot("search:samples=4", 1).playout_policy is None
    with pytest.raises(OptionError, match="weights is for playout=learned"):
        make_bot("search:weights=/tmp/x.json", 1)
    with pytest.raises(OptionError, match="no play-out weights at"):
        make_bot(f"search:playout=learned,weights={tmp_path / 'missing.json'}", 1)
    (tmp_path / "bad.json").write_text(json.dumps({"weights": {"pick": 1, "luck": 3}}))
    with pytest.raises(OptionError, match="unknown play-out features"):
        make_bot(f"search:playout=learned,weights={tmp_path / 'bad.json'}", 1)
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(OptionError, match=r"broken\.json"):
        make_bot(f"search:playout=learned,weights={tmp_path / 'broken.json'}", 1)


def test_drawn_moves_follow_the_policy_distribution() -> None:
    import math
    import random

    sure = PlayoutPolicy({"pick": 60.0})
    rng = random.Random(3)
    for s in situations(3):
        assert sure.choose(s, rng) == choose_play(s)  # one move holds all the probability
    p = load_policy()
    s = next(s for s in situations(8) if len(candidates(s)) >= 3)
    moves = candidates(s)
    sc = p.scores(s, moves)
    probs = [math.exp(x - max(sc)) for x in sc]
    probs = [x / sum(probs) for x in probs]
    rng = random.Random(5)
    n = 4000
    drawn = [p.choose(s, rng) for _ in range(n)]
    for m, q in zip(moves, probs, strict=True):
        share = sum(d == m for d in drawn) / n
        assert abs(share - q) < 4 * math.sqrt(q * (1 - q) / n) + 1e-9, (m, share, q)


def test_the_duel_plays_the_policy_against_the_heuristic(capsys: pytest.CaptureFixture[str]) -> None:
    tp = trainer()
    assert tp.main(["--duel", "2", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "A playout_policy" in out and "B heuristic" in out and "2 deals, 4 games" in out


def test_exploring_playouts_play_another_candidate_as_often_as_asked() -> None:
    """``search:explore=P``: at each heuristic play-out decision with a choice, another of the candidate moves is
    played with probability P (uniformly among them); P = 0 is the heuristic play-out, move for move."""
    import math
    import random

    d = load_deals(3)[2]
    hands = [counts_of_text(h) for h in d.hands]
    for r, k in enumerate(counts_of_text(d.kitty)):
        hands[0][r] += k

    def run(explore: float, seed: int) -> tuple[list[object], int, int]:
        sim = Sim(RULES, [list(h) for h in hands], 0, 0, None, -1, fast=False, rng=random.Random(seed),
                  explore=explore)
        moves: list[object] = []
        other = choices = 0
        for _ in range(400):
            s = sim.to_act
            sit = Situation(RULES, s, 3, 0, tuple(sim.hands[s]), list(sim.left), sim.last, sim.last_by, sim.pool(s))
            cands = candidates(sit)
            m = sim.policy()
            assert m in cands  # always one of the candidates
            if len(cands) > 1:
                choices += 1
                other += m != cands[0]
            moves.append(m)
            if sim.apply(m) is not None:
                break
        return moves, other, choices

    plain = Sim(RULES, [list(h) for h in hands], 0, 0, None, -1, fast=False)
    expected = []
    for _ in range(400):
        m = plain.policy()
        expected.append(m)
        if plain.apply(m) is not None:
            break
    assert run(0.0, 1)[0] == expected
    assert run(0.3, 7) == run(0.3, 7)  # the stream makes it reproducible
    other = choices = 0
    for seed in range(60):
        _, o, c = run(0.3, seed)
        other, choices = other + o, choices + c
    assert abs(other / choices - 0.3) < 4 * math.sqrt(0.3 * 0.7 / choices), (other, choices)


def test_explore_is_a_search_option_for_heuristic_playouts() -> None:
    bot = make_bot("search:explore=0.25,samples=4", 1)
    assert isinstance(bot, SearchBot) and bot.explore == 0.25
    g = research_game(load_deals(1)[0])
    assert bot.act(g.observe(g.to_act), g.legal_actions()) in g.legal_actions()
    with pytest.raises(OptionError, match="explore is for heuristic play-outs, not playout=fast"):
        make_bot("search:explore=0.2,playout=fast", 1)
    with pytest.raises(OptionError, match="explore must be at most 1"):
        make_bot("search:explore=2", 1)


def test_the_learned_policy_can_play_one_side_of_a_playout_only() -> None:
    """``search:playout=learned,learned=own|enemies``: the other side's seats play the heuristic, move for move."""
    import random

    d = load_deals(4)[3]
    hands = [counts_of_text(h) for h in d.hands]
    for r, k in enumerate(counts_of_text(d.kitty)):
        hands[0][r] += k
    policy = PlayoutPolicy({"pick": 0.5})  # often not the heuristic's move
    for side in (True, False):
        differed = 0
        for seed in range(5):
            sim = Sim(RULES, [list(h) for h in hands], 0, 0, None, -1, fast=False, learned=policy,
                      rng=random.Random(seed), learned_side=side)
            for _ in range(400):
                s = sim.to_act
                sit = Situation(RULES, s, 3, 0, tuple(sim.hands[s]), list(sim.left), sim.last, sim.last_by,
                                sim.pool(s))
                m = sim.policy()
                if (s == 0) != side:
                    assert m == choose_play(sit)
                else:
                    differed += m != choose_play(sit)
                if sim.apply(m) is not None:
                    break
        assert differed > 0  # the learned side did draw other moves
    assert make_bot("search:playout=learned,learned=enemies,samples=2", 1).learned_seats == "enemies"  # type: ignore[attr-defined]
    with pytest.raises(OptionError, match="learned is for playout=learned"):
        make_bot("search:learned=own", 1)
