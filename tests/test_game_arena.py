"""The generic arena (``qipai arena --game …``): duplicate deals with the sides swapped, reproducible runs,
measures that add up, illegal bot answers timed out, and the command line."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from qipai.arena import Setup, play_game, run_game_arena, seats_for, summarize
from qipai.bots import register
from qipai.cli import app


@given(st.integers(0, 1000), st.sampled_from([((0, 2), (1, 3)), None]))
def test_the_second_half_swaps_every_seat(deal: int, teams: tuple[tuple[int, ...], ...] | None) -> None:
    a, b = seats_for(teams, 4, deal, 0), seats_for(teams, 4, deal, 1)
    assert all({x, y} == {"A", "B"} for x, y in zip(a, b, strict=True))
    if teams:  # partners always share a bot
        assert all(a[s] == a[t[0]] for t in teams for s in t)
    else:
        assert a.count("A") == 1


def test_duplicate_deals_and_measures() -> None:
    setup = Setup("shengji", "rule", "random", {"preset": "four_deck"}, 5, {"banker": "rotate"})
    games = [play_game(setup, d, h) for d in range(2) for h in (0, 1)]
    assert games[0].deal_seed == games[1].deal_seed != games[2].deal_seed == games[3].deal_seed
    for g in games:
        banker = g.deal % 4
        assert g.roles[banker] == "banker" and g.roles[(banker + 2) % 4] == "banker"
        assert sum(g.scores) == 0
    # with the banker fixed, each bot banks the same cards once per deal
    assert games[0].seats[0] != games[1].seats[0] and games[0].roles == games[1].roles
    out = summarize(setup, games)
    a = sum(sum(g.scores[s] for s, x in enumerate(g.seats) if x == "A") for g in games)
    assert abs(out["bots"]["A"]["score"]["mean"] - a / 4) < 1e-9
    assert abs(out["duplicate"]["a_minus_b_per_deal"]["mean"] - 2 * a / 2) < 1e-9
    assert out["roles"]["A"]["banker"]["wp"]["n"] == 2 and out["roles"]["B"]["attacker"]["wp"]["n"] == 2
    # the same seed gives the same run
    again = [play_game(setup, d, h) for d in range(2) for h in (0, 1)]
    assert [(g.scores, g.roles) for g in again] == [(g.scores, g.roles) for g in games]


def test_a_game_of_each_for_himself_counts_each_seats_win() -> None:
    """Mahjong: one player wins, and a bot holds one seat in one half and three in the other. Its rate once
    needed all its seats to win (never, with three), and A's player role was scored on B's seats."""
    setup = Setup("mahjong", "random", "efficiency", {}, 3)
    games = [play_game(setup, d, h) for d in range(6) for h in (0, 1)]
    out = summarize(setup, games)
    for side in ("A", "B"):
        held = [(s, g) for g in games for s, x in enumerate(g.seats) if x == side]
        assert abs(out["bots"][side]["wp"]["mean"] - sum(g.won[s] is True for s, g in held) / len(held)) < 1e-9
        assert out["bots"][side]["wp"]["n"] == len(games)
    # the efficiency bot wins nearly every game against random ones, from one seat or three: half its seats
    assert out["bots"]["B"]["wp"]["mean"] > 0.3 and out["bots"]["B"]["wp"]["ci"] < 0.3
    for side, role in (("B", "dealer"), ("A", "player"), ("B", "player")):  # B holds the players' seats when A deals
        games_held = [g for g in games if all(g.seats[s] == side for s, x in enumerate(g.roles) if x == role)]
        seats = [(s, g) for g in games_held for s, x in enumerate(g.roles) if x == role]
        assert out["roles"][side][role]["wp"]["n"] == len(games_held)
        assert abs(out["roles"][side][role]["wp"]["mean"] - sum(g.won[s] is True for s, g in seats) / len(seats)) \
            < 1e-9


def test_an_illegal_answer_is_timed_out_and_counted() -> None:
    class Stubborn:
        def act(self, observation: dict, legal_actions: list[str]) -> str:
            return "play nonsense" if observation["phase"] == "play" else legal_actions[0]

    register("stubborn", lambda seed: Stubborn(), game="shengji")
    r = play_game(Setup("shengji", "stubborn", "passive", {"preset": "four_deck"}, 1), 0, 0)
    # A's two seats answered all 216 windows each, and every one of their plays was refused and timed out
    assert r.illegal["A"] == r.decisions["A"] - 2 * 216 > 0 and r.illegal["B"] == 0 and sum(r.scores) == 0


def test_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    res = CliRunner().invoke(app, ["arena", "--game", "shengji", "rule", "passive", "--deals", "1", "--context",
                                   "banker=rotate", "-o", "throw_penalty=20", "--json", str(out), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "shengji: rule (A) vs passive (B), 1 duplicate deals, 2 games" in res.output
    data = json.loads(out.read_text())
    assert data["options"]["throw_penalty"] == 20 and len(data["results"]) == 2
    bad = CliRunner().invoke(app, ["arena", "--game", "shengji", "rule", "nobody", "--deals", "1"])
    assert bad.exit_code == 2 and "unknown bot 'nobody'" in bad.output
    bad = CliRunner().invoke(app, ["arena", "--game", "shengji", "rule", "rule", "--research"])
    assert bad.exit_code == 2 and "are for Dou Dizhu's arena" in bad.output
    bad = CliRunner().invoke(app, ["arena", "--game", "shengji", "rule", "rule", "--context", "banker=9"])
    assert bad.exit_code == 2 and "banker must be a seat" in bad.output
    # a context entry the game does not have, or a dealer that is no seat, is refused (both were ignored)
    bad = CliRunner().invoke(app, ["arena", "--game", "shengji", "rule", "rule", "--context", "zz=1"])
    assert bad.exit_code == 2 and "unknown context entry 'zz'" in bad.output and "banker" in bad.output
    bad = CliRunner().invoke(app, ["arena", "--game", "mahjong", "efficiency", "efficiency", "--context", "dealer=x"])
    assert bad.exit_code == 2 and "the dealer is a seat" in bad.output, bad.output


def test_other_games_run_in_it_too() -> None:
    r = run_game_arena("doudizhu", "heuristic", "random", deals=2, progress=False)
    assert r["games"] == 4 and set(r["roles"]["A"]) | set(r["roles"]["B"]) <= {"landlord", "farmer"}


def test_the_shengji_arena_example_in_the_docs_is_what_the_command_prints() -> None:
    """docs/shengji.md shows a run and calls it reproducible; it had drifted from what the command prints."""
    import re
    import shlex

    doc = (Path(__file__).resolve().parents[1] / "docs" / "shengji.md").read_text()
    block = re.search(r"\$ (qipai arena --game shengji [^\n]*)\n(.*?)```", doc, re.S)
    assert block is not None
    args = shlex.split(block.group(1))[1:]
    out = CliRunner().invoke(app, args)
    assert out.exit_code == 0, out.output

    def norm(line: str) -> str:  # the times differ from run to run
        return re.sub(r"[0-9.]+ ms/decision", "T ms/decision", line.rstrip())

    shown = [norm(x) for x in block.group(2).splitlines() if x.strip() and x.strip() != "…"]
    printed = [norm(x) for x in out.output.splitlines()]
    assert all(x in printed for x in shown), (shown, printed)
