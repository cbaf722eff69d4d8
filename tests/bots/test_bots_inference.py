"""How well the search's samples match the hidden hands: the sampler's belief seats, ``bench/inference.py`` (the
samples scored against the real hands) and ``bench/oracle.py`` (a search whose samples are the real hands)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchscripts import bench_script
from qipai.games.doudizhu.bots.arena import run_arena
from qipai.games.doudizhu.bots.research import load_deals, research_game
from qipai.games.doudizhu.bots.search import Sampler
from qipai.games.doudizhu.bots.view import read_view
from qipai.games.doudizhu.cards import NUM_RANKS
from qipai.games.doudizhu.state import Game

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _midgame(moves: int = 12) -> Game:
    """A research game after some heuristic moves, a farmer to act."""
    from qipai.bots import get_bot

    g = research_game(load_deals(1)[0])
    bot = get_bot("heuristic", 1)
    while not g.is_over and (moves > 0 or g.to_act == g.landlord):
        s = g.to_act
        assert s is not None
        g.apply(bot.act(g.observe(s), list(g.legal_actions())), s)
        moves -= 1
    assert not g.is_over
    return g


def _truth(g: Game) -> list[list[int]]:
    hands = [[0] * NUM_RANKS for _ in range(3)]
    for seat, hand in enumerate(g.hands):
        for c in hand:
            hands[seat][c.rank] += 1
    return hands


def test_belief_seats_choose_whose_decisions_weigh_the_samples() -> None:
    g = _midgame()
    seat = g.to_act
    assert seat is not None and seat != g.landlord
    v = read_view(g.observe(seat))
    partner = 3 - seat  # seats 1 and 2 are the farmers
    seats = {}
    for who in ("all", "partner", "enemy"):
        s = Sampler(v, random.Random(1), belief=0.3, belief_seats=who)
        seats[who] = {d[0] for d in s.decisions}
    assert seats["partner"] == {partner} and seats["enemy"] == {0}
    assert seats["all"] == {0, partner}
    with pytest.raises(ValueError, match="belief seats must be one of all, partner, enemy"):
        Sampler(v, random.Random(1), belief_seats="friends")


def test_accuracy_counts_the_hidden_cards_dealt_to_their_holder() -> None:
    inference = bench_script("inference")
    truth = [[0] * NUM_RANKS, [2, 1] + [0] * 13, [0, 1, 3] + [0] * 12]
    known = [[0] * NUM_RANKS, [1] + [0] * 14, [0] * NUM_RANKS]
    assert inference.accuracy(truth, truth, known, 0) == 1.0
    # one of the two 4s swapped with one of the 5s: 2 of the 6 hidden cards (the known 3 left out) misplaced
    swapped = [[0] * NUM_RANKS, [2, 0, 1] + [0] * 12, [0, 2, 2] + [0] * 12]
    assert inference.accuracy(swapped, truth, known, 0) == pytest.approx(4 / 6)


def test_bench_inference_scores_every_setting_on_the_same_decisions(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    run_arena("heuristic", "random", deals=2, protocol="research", json_path=path, progress=False)
    out = subprocess.run([sys.executable, str(BENCH / "inference.py"), str(path), "--samples", "4",
                          "--settings", "uniform,passes,partner,enemy"], capture_output=True, text=True,
                         check=True, timeout=300).stdout
    rows = [ln.split() for ln in out.splitlines()[2:]]
    assert {r[0] for r in rows} == {"landlord", "farmer"} and len(rows) == 8
    for role in ("landlord", "farmer"):
        mine = [r for r in rows if r[0] == role]
        assert len({r[2] for r in mine}) == 1 and int(mine[0][2]) > 0  # the same decisions for every setting
        assert all(0.0 < float(r[3]) <= 1.0 for r in mine)
        assert mine[0][1] == "uniform" and mine[0][4:] == ["+0.0000", "±", "0.0000"]
    bad = subprocess.run([sys.executable, str(BENCH / "inference.py"), str(path), "--settings", "psychic"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "unknown setting psychic: expected uniform" in bad.stderr


def _oracle_run(path: Path, *args: str) -> dict[str, Any]:
    """``bench/oracle.py`` against the heuristic, one job, its result read back."""
    subprocess.run([sys.executable, str(BENCH / "oracle.py"), "--bot", "heuristic", "--jobs", "1", *args,
                    "--json", str(path)], capture_output=True, text=True, check=True, timeout=300)
    result: dict[str, Any] = json.loads(path.read_text())
    return result


def test_the_oracle_search_samples_the_real_hands_and_its_runs_replay(tmp_path: Path) -> None:
    oracle = bench_script("oracle")
    g = _midgame()
    seat = g.to_act
    assert seat is not None
    bot = oracle.OracleSearch(1, samples=4)
    bot.game = g
    v = read_view(g.observe(seat))
    assert bot.sampler(v).deal() == _truth(g)
    path = tmp_path / "oracle.json"
    result = _oracle_run(path, "--deals", "2", "--search", "search:samples=2,candidates=3")
    assert result["settings"]["protocol"] == "research" and len(result["records"]) == 4
    for r in result["records"]:  # each game's actions replay to its recorded winner
        game = research_game(load_deals(r["deal"] + 1)[r["deal"]])
        for a in r["actions"]:
            game.apply(a, game.to_act)
        assert game.is_over and (game.winner == game.landlord) == (r["winner"] == "landlord")
    paired = subprocess.run([sys.executable, str(BENCH / "paired.py"), str(path), str(path)], capture_output=True,
                            text=True, check=True, timeout=60).stdout
    assert "+0.000 ± 0.000 over 2 deals" in paired
    # one play-out per candidate on the real deal, with named bots for each side
    rolled = tmp_path / "rollout.json"
    got = _oracle_run(rolled, "--deals", "1", "--known", "rollout:heuristic/heuristic")
    assert len(got["records"]) == 2 and got["settings"]["bot_a"].startswith("one play-out per candidate")
    for args, said in ((("--search", "search:time=0.1"), "needs samples=N"),
                       (("--search", "search:samples=0"), "samples must be at least 1"),
                       (("--known", "rollout:heuristic/nobody"), "unknown bot 'nobody'"),
                       (("--known", "sampled:heuristic/heuristic:0"), "sampled:OWN/OTHER:N"),
                       (("--known", "sampled:heuristic/nobody:2"), "unknown bot 'nobody'"),
                       (("--truth", "0.5"), "--truth is for --known sampled"),
                       (("--known", "sampled:heuristic/heuristic:2", "--truth", "2"), "--truth is a share from 0 to 1"),
                       (("--known", "psychic"), "--known takes all, none, rollout:OWN/OTHER")):
        bad = subprocess.run([sys.executable, str(BENCH / "oracle.py"), *args, "--json", str(tmp_path / "x.json")],
                             capture_output=True, text=True, timeout=60)
        assert bad.returncode == 1 and said in bad.stderr and "Traceback" not in bad.stderr, (args, bad.stderr)


def test_the_sampled_rollout_rebuilds_each_sample_from_the_public_history(tmp_path: Path) -> None:
    oracle = bench_script("oracle")
    g = _midgame()
    seat = g.to_act
    assert seat is not None
    bot = oracle.SampledRollout(1, "heuristic", "heuristic", 2)
    bot.game = g
    v = read_view(g.observe(seat))
    sim = bot.rebuild(v, _truth(g))  # the real hands rebuild the real game, to the same position
    assert sim.to_act == g.to_act and _truth(sim) == _truth(g) and sim.actions == g.actions
    assert sorted(sim.legal_actions()) == sorted(g.legal_actions())
    sample = Sampler(v, random.Random(3)).deal()
    assert sample != _truth(g)
    told = oracle._Hinted(v, random.Random(3), _truth(g), 1.0)  # told where every hidden card is: the real deal
    assert told.deal() == _truth(g)
    other = bot.rebuild(v, sample)  # a sampled deal: the same history, this seat's hand, the sampled others
    assert _truth(other) == sample and other.actions == g.actions and other.to_act == seat
    path = tmp_path / "sampled.json"
    got = _oracle_run(path, "--deals", "1", "--known", "sampled:heuristic/heuristic:2")
    assert len(got["records"]) == 2 and "on each of 2 sampled deals" in got["settings"]["bot_a"]


def test_the_oracle_rollouts_of_the_learned_bot_play_out_the_real_deal(tmp_path: Path) -> None:
    """``--search dmc:samples=N`` with ``--known all``: the learned bot whose rollouts' deals are the real one."""
    pytest.importorskip("numpy")
    oracle = bench_script("oracle")
    from qipai.games.doudizhu.bots.arena import make_bot

    g = _midgame()
    seat = g.to_act
    assert seat is not None
    bot: Any = make_bot("dmc:samples=1", 1)
    v = read_view(g.observe(seat))
    assert bot.sampler(v).deal() != _truth(g)  # the honest rollouts sample
    bot.sampler = oracle._truth_of(bot, g)
    assert bot.sampler(v).deal() == _truth(g)
    got = _oracle_run(tmp_path / "dmc.json", "--deals", "1", "--search", "dmc:samples=1,top=3")
    assert len(got["records"]) == 2 and got["settings"]["bot_a"].startswith("dmc:samples=1,top=3 (samples are the real")
    for args in (("--search", "dmc:rollouts=0.1"), ("--search", "dmc:samples=1", "--known", "rollout:dmc/dmc")):
        bad = subprocess.run([sys.executable, str(BENCH / "oracle.py"), *args, "--json", str(tmp_path / "x.json")],
                             capture_output=True, text=True, timeout=60)
        assert bad.returncode == 1 and "a dmc spec is for --known all or none" in bad.stderr, (args, bad.stderr)
