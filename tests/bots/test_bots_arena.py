"""The arena: duplicate deals really swap roles, statistics are sane, runs are reproducible, the CLI works."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qipai.cli import app
from qipai.core.stats import Estimate
from qipai.games.doudizhu.bots.arena import BotSpec, GameRecord, _mix, make_bot, run_arena, seats_for, summarize
from qipai.games.doudizhu.bots.research import DEALS_COUNT, load_deals, make_deals, research_game, research_points
from qipai.games.doudizhu.rules import PRESETS


@pytest.mark.parametrize("protocol,players", [("research", 3), ("duplicate", 3), ("duplicate", 4)])
def test_halves_swap_every_seat(protocol: str, players: int) -> None:
    for deal in range(8):
        a, b = seats_for(protocol, players, deal, 0), seats_for(protocol, players, deal, 1)
        assert all({x, y} == {"A", "B"} for x, y in zip(a, b, strict=True))
        assert a.count("A") == 1


def test_research_duplicate_deals_swap_roles() -> None:
    r = run_arena("heuristic", "random", deals=4, protocol="research", progress=False)
    recs = r["records"]
    assert r["games"] == len(recs) == 8
    for d in range(4):
        h0, h1 = [x for x in recs if x["deal"] == d]
        assert h0["cards"] == h1["cards"]  # the same cards
        assert h0["landlord"] == h1["landlord"] == 0
        assert h0["seats"][0] == "A" and h1["seats"][0] == "B"  # A is landlord, then B
        assert h0["seats"][1:] == ["B", "B"] and h1["seats"][1:] == ["A", "A"]
    a = r["bots"]["A"]["roles"]
    assert a["landlord"]["wp"]["n"] == a["farmers"]["wp"]["n"] == 4


def test_records_hold_the_actions_that_replay_the_game() -> None:
    from qipai.games.doudizhu.state import Game

    r = run_arena("heuristic", "random", deals=2, protocol="research", progress=False)
    deals = load_deals(2)
    for x in r["records"]:
        g = research_game(deals[x["deal"]])
        assert x["actions"]
        for a in x["actions"]:
            g.apply(a)
        assert g.is_over and len(g.bombs) == x["bombs"] and research_points(g) == x["points"]
    b = run_arena("heuristic", "random", deals=2, rules="four_player", progress=False, seed=4)
    for x in b["records"]:
        g = Game.new(PRESETS["four_player"], _mix("deal", 4, x["deal"]))
        for a in x["actions"]:
            g.apply(a)
        assert g.is_over and g.outcome()["scores"] == x["scores"]


def test_results_written_before_actions_were_recorded_still_resume(tmp_path: Path) -> None:
    first = tmp_path / "old.json"
    run_arena("heuristic", "random", deals=2, protocol="research", progress=False, json_path=first)
    data = json.loads(first.read_text())
    for x in data["records"]:
        del x["actions"]
    first.write_text(json.dumps(data))
    r = run_arena("heuristic", "random", deals=3, protocol="research", progress=False, resume=first)
    assert r["deals"] == 3 and [len(x["actions"]) > 0 for x in r["records"]] == [False] * 4 + [True] * 2


def test_a_gz_result_is_gzipped_and_resumes(tmp_path: Path) -> None:
    """``--json run.json.gz`` writes gzip (it wrote plain JSON under a .gz name), which ``load_result`` and a
    resumed run read; the same object gives the same bytes (no timestamp in the gzip header)."""
    import gzip

    from qipai.games.doudizhu.bots.arena import load_result
    from qipai.jsonfile import write_json

    out = tmp_path / "run.json.gz"
    run_arena("heuristic", "random", deals=2, protocol="research", progress=False, json_path=out)
    raw = out.read_bytes()
    assert raw[:2] == b"\x1f\x8b" and json.loads(gzip.decompress(raw))["deals"] == 2
    assert load_result(out)["deals"] == 2
    r = run_arena("heuristic", "random", deals=3, protocol="research", progress=False, resume=out, json_path=out)
    assert r["deals"] == 3 and load_result(out)["deals"] == 3
    broken = bytearray(out.read_bytes())
    broken[len(broken) // 2] ^= 0xFF  # corrupt deflate data was a zlib.error traceback
    out.write_bytes(bytes(broken))
    with pytest.raises(ValueError, match="is not an arena result"):
        load_result(out)
    a, b = tmp_path / "a.json.gz", tmp_path / "b.json.gz"
    write_json(a, {"x": [1, 2]})
    write_json(b, {"x": [1, 2]})
    assert a.read_bytes() == b.read_bytes()
    plain = tmp_path / "p.json"
    write_json(plain, {"x": 1})
    assert json.loads(plain.read_text()) == {"x": 1}


def test_bidding_duplicate_deals_use_the_same_cards() -> None:
    r = run_arena("heuristic", "random", deals=3, rules="four_player", progress=False)
    recs = r["records"]
    for d in range(3):
        h0, h1 = [x for x in recs if x["deal"] == d]
        assert h0["cards"] == h1["cards"]
        assert [{x, y} for x, y in zip(h0["seats"], h1["seats"], strict=True)] == [{"A", "B"}] * 4


def test_results_do_not_depend_on_jobs() -> None:
    one = run_arena("heuristic", "random", deals=6, jobs=1, protocol="research", progress=False, seed=3)
    two = run_arena("heuristic", "random", deals=6, jobs=2, protocol="research", progress=False, seed=3)
    strip = [{k: v for k, v in x.items() if k != "seconds"} for x in one["records"]]
    assert strip == [{k: v for k, v in x.items() if k != "seconds"} for x in two["records"]]
    assert (one["workers"], two["workers"]) == (1, 2)
    # no more workers than games: one deal (two games) asked of 64 jobs runs on 2, and the report says so
    few = run_arena("heuristic", "random", deals=1, jobs=64, protocol="research", progress=False, seed=3)
    assert few["workers"] == 2 and few["settings"]["jobs"] == 64
    from qipai.games.doudizhu.bots.arena import report_lines

    assert "on 2 job(s)" in report_lines(few)[0]


def test_confidence_intervals_shrink_with_the_count() -> None:
    small = Estimate.of_rate([1.0, 0.0] * 50)
    big = Estimate.of_rate([1.0, 0.0] * 800)
    assert small.n == 100 and big.n == 1600
    assert small.mean == big.mean == 0.5
    assert abs(small.ci / big.ci - 4.0) < 0.1  # 16 times the games, a quarter of the interval
    assert abs(big.ci - 1.96 * math.sqrt(0.25 / 1600)) < 1e-3
    m = Estimate.of([2.0, -2.0] * 100)
    assert m.mean == 0 and abs(m.ci - 1.96 * 2 / math.sqrt(200)) < 0.01
    # all wins: the interval stays open (Wilson), it does not collapse to zero
    assert Estimate.of_rate([1.0] * 10).ci > 0.1


def test_summary_counts_and_both_roles() -> None:
    r = run_arena("heuristic", "passive", deals=5, protocol="research", progress=False)
    s = summarize([], "research")
    assert math.isnan(s["bots"]["A"]["both"]["wp"]["mean"])
    a, b = r["bots"]["A"], r["bots"]["B"]
    assert a["both"]["wp"]["n"] == 5
    # zero-sum: B's landlord games are A's farmer games
    assert b["roles"]["landlord"]["wp"]["mean"] == pytest.approx(1 - a["roles"]["farmers"]["wp"]["mean"])
    both = (a["roles"]["landlord"]["wp"]["mean"] + a["roles"]["farmers"]["wp"]["mean"]) / 2
    assert a["both"]["wp"]["mean"] == pytest.approx(both)
    assert a["decisions"] > 0 and a["ms_per_decision"] > 0


def test_research_deals_file_is_the_fixed_seed() -> None:
    first = load_deals(50)
    assert first == make_deals(50)
    assert len(load_deals()) == DEALS_COUNT
    g = research_game(first[0])
    assert g.landlord == 0 and len(g.hands[0]) == 20 and g.phase == "play"
    while not g.is_over:
        g.apply(g.legal_actions()[-1])
    assert abs(research_points(g)) == 2 * 2 ** len(g.bombs)


def test_bot_specs() -> None:
    sp = BotSpec.parse("search:time=0.5,samples=4")
    assert sp.name == "search" and dict(sp.options) == {"time": "0.5", "samples": "4"}
    assert str(sp) == "search:time=0.5,samples=4"
    bot = make_bot(sp, 1)
    assert getattr(bot, "samples", None) == 4
    with pytest.raises(ValueError):
        make_bot("search:width=3", 1)
    with pytest.raises(ValueError):
        make_bot("heuristic:x=1", 1)
    for nameless in (":x=1", "", "  "):  # (":x=1" said "bot '' takes no options")
        with pytest.raises(ValueError, match="starts with the bot's name"):
            BotSpec.parse(nameless)
    with pytest.raises(ValueError):
        make_bot("douzero", 1)
    with pytest.raises(FileNotFoundError):
        make_bot("douzero:weights=/nonexistent", 1)
    with pytest.raises(KeyError):
        make_bot("nobody", 1)


def test_cli_arena(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    res = CliRunner().invoke(app, ["arena", "heuristic", "random", "--research", "--deals", "3", "--no-progress",
                                   "--json", str(out)])
    assert res.exit_code == 0, res.output
    assert "landlord" in res.output and "WP" in res.output
    data = json.loads(out.read_text())
    assert data["games"] == 6 and data["settings"]["protocol"] == "research"
    bad = CliRunner().invoke(app, ["arena", "heuristic", "nobody", "--deals", "1", "--no-progress"])
    assert bad.exit_code == 2


def test_a_deals_file_of_held_out_deals(tmp_path: Path) -> None:
    """``--deals-file``: the research protocol on other deals (e.g. held out from tuning), checked line by line,
    recorded in the settings and kept on resume."""
    held = [d.line() for d in make_deals(3, seed=99)]
    path = tmp_path / "held.txt"
    path.write_text("\n".join(held) + "\n")
    out = tmp_path / "r.json"
    res = CliRunner().invoke(app, ["arena", "heuristic", "random", "--research", "--deals", "3", "--no-progress",
                                   "--deals-file", str(path), "--json", str(out)])
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    assert data["settings"]["deals_file"] == str(path) and data["games"] == 6
    fixed = run_arena("heuristic", "random", deals=3, protocol="research", progress=False)
    assert fixed["settings"]["deals_file"] is None
    assert {r["cards"] for r in data["records"]}.isdisjoint({r["cards"] for r in fixed["records"]})
    with pytest.raises(ValueError, match="deals_file"):
        run_arena("heuristic", "random", deals=3, protocol="research", progress=False, resume=out)
    again = run_arena("heuristic", "random", deals=3, protocol="research", progress=False, resume=out,
                      deals_file=path)
    assert _games(again) == _games(data)
    for text, why in [("3456789TJQKA2BR33 3456789TJQKA2XX44 3456789TJQKA25566 777", "'X' is not a rank"),
                      (held[0].replace("B", "3"), "not one deck"), ("too short", "expected 17 17 17 3")]:
        bad = tmp_path / "bad.txt"
        bad.write_text(text + "\n")
        res = CliRunner().invoke(app, ["arena", "heuristic", "random", "--research", "--deals", "1",
                                       "--no-progress", "--deals-file", str(bad)])
        assert res.exit_code != 0 and why in res.output, res.output
    res = CliRunner().invoke(app, ["arena", "heuristic", "random", "--research", "--deals", "1", "--no-progress",
                                   "--deals-file", str(tmp_path / "missing.txt")])
    assert res.exit_code != 0 and "no deals file at" in res.output
    res = CliRunner().invoke(app, ["arena", "heuristic", "random", "--deals", "1", "--no-progress",
                                   "--deals-file", str(path)])
    assert res.exit_code != 0 and "research protocol" in res.output


def _games(r: dict[str, object]) -> list[dict[str, object]]:
    recs = r["records"]
    assert isinstance(recs, list)
    return [{k: v for k, v in x.items() if k != "seconds"} for x in recs]


def test_target_ci_stops_once_the_interval_is_narrow_enough() -> None:
    r = run_arena("heuristic", "random", deals=200, protocol="research", progress=False, target_ci=0.2,
                  min_deals=5)
    assert r["stopped"] == "target_ci" and not r["partial"]
    assert 5 <= r["deals"] < 200 and r["games"] == 2 * r["deals"]
    for b in ("A", "B"):
        assert r["bots"][b]["both"]["wp"]["ci"] <= 0.2
    # one deal fewer and the interval was still too wide (or the minimum not reached)
    fewer = summarize([GameRecord(**x) for x in r["records"] if x["deal"] != max(x["deal"] for x in r["records"])],
                      "research")
    assert r["deals"] == 5 or fewer["bots"]["A"]["both"]["wp"]["ci"] > 0.2
    with pytest.raises(ValueError, match="target_ci"):
        run_arena("heuristic", "random", deals=2, progress=False, target_ci=0)


def test_resume_carries_on_to_the_same_result(tmp_path: Path) -> None:
    whole = run_arena("heuristic", "random", deals=8, protocol="research", progress=False, seed=5)
    first = tmp_path / "first.json"
    part = run_arena("heuristic", "random", deals=3, protocol="research", progress=False, seed=5, json_path=first)
    assert part["deals"] == 3 and json.loads(first.read_text())["stopped"] == "deals"
    rest = run_arena("heuristic", "random", deals=8, protocol="research", progress=False, seed=5, resume=first)
    assert rest["deals"] == 8
    assert _games(rest) == _games(whole)
    assert rest["bots"]["A"]["both"] == whole["bots"]["A"]["both"]
    with pytest.raises(ValueError, match="seed"):
        run_arena("heuristic", "random", deals=8, protocol="research", progress=False, seed=6, resume=first)
    with pytest.raises(FileNotFoundError):
        run_arena("heuristic", "random", deals=8, progress=False, resume=tmp_path / "none.json")


def test_search_budget_clock() -> None:
    from qipai.games.doudizhu.bots.search import CLOCKS, SearchBot

    assert make_bot("search:time=0.1", 1).clock is CLOCKS["cpu"]  # type: ignore[attr-defined]
    assert make_bot("search:clock=wall", 1).clock is CLOCKS["wall"]  # type: ignore[attr-defined]
    assert SearchBot(1).clock is CLOCKS["wall"]
    with pytest.raises(ValueError, match="clock"):
        make_bot("search:clock=sundial", 1)


def test_bench_disagree_tabulates_where_two_bots_decide_differently() -> None:
    """``bench/disagree.py``: every play decision of the bot with a choice is counted once, by role and
    situation, and a bot against itself agrees everywhere."""
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[2] / "bench" / "disagree.py"

    def run(*args: str) -> list[list[str]]:
        out = subprocess.run([sys.executable, str(script), "--deals", "2", "--min-share", "0", *args],
                             capture_output=True, text=True, check=True, timeout=300).stdout
        return [line.split() for line in out.splitlines() if not line.startswith(" ")]

    same = run("--bot", "heuristic", "--reference", "heuristic")
    assert same and all(row[2] == "same" and row[-1] == "1.00" for row in same)
    rows = run("--bot", "heuristic", "--reference", "random")
    assert {r[0] for r in rows} == {"L", "Fdown", "Fup"}
    assert any(r[2] == "H" for r in rows)  # some decisions differ from a random player's
    totals: dict[tuple[str, str], int] = {}
    for r in rows:
        totals[(r[0], r[1])] = totals.get((r[0], r[1]), 0) + int(r[-2])
    for r in rows:  # each share is the count over its role and situation's decisions
        assert float(r[-1]) == pytest.approx(int(r[-2]) / totals[(r[0], r[1])], abs=0.006)


def test_bench_disagree_reads_decisions_back_from_records(tmp_path: Path) -> None:
    """``bench/disagree.py --records``: the recorded heuristic agrees with the heuristic asked again at every
    decision, and the games won and lost together are all the games."""
    import subprocess
    import sys

    path = tmp_path / "run.json"
    run_arena("heuristic", "random", deals=3, protocol="research", json_path=path, progress=False)
    script = Path(__file__).resolve().parents[2] / "bench" / "disagree.py"

    def count(*args: str) -> int:
        out = subprocess.run([sys.executable, str(script), "--records", str(path), "--reference", "heuristic",
                              "--min-share", "0", *args], capture_output=True, text=True, check=True,
                             timeout=300).stdout
        rows = [line.split() for line in out.splitlines() if not line.startswith(" ")]
        assert all(r[2] == "same" for r in rows)
        return sum(int(r[-2]) for r in rows)

    assert count() == count("--only", "won") + count("--only", "lost") > 0


def test_bench_paired_net_scores_match_the_arena(tmp_path: Path) -> None:
    """``bench/paired.py --net``: A's net score per deal of a run with bidding is the arena's own figure, and a
    run paired with itself differs by exactly nothing."""
    import subprocess
    import sys

    from qipai.games.doudizhu.bots.arena import run_arena

    path = tmp_path / "run.json"
    result = run_arena("heuristic", "random", rules="classic", deals=4, seed=3, json_path=path, progress=False)
    script = Path(__file__).resolve().parents[2] / "bench" / "paired.py"
    out = subprocess.run([sys.executable, str(script), "--net", str(path), str(path)], capture_output=True,
                         text=True, check=True, timeout=120).stdout
    net = json.loads(path.read_text())["net_a_per_deal"]["mean"]
    assert f"A({path}) {net:+.2f}" in out and "difference +0.00 ± 0.00 over 4 deals" in out, (out, result)


def test_bench_bombs_groups_deals_by_bombs_held_and_pairs_runs(tmp_path: Path) -> None:
    """``bench/bombs.py``: every game is counted once per role in "all" and once in each split, the win rate is
    the arena's, and a run paired with itself differs by nothing."""
    import subprocess
    import sys

    path = tmp_path / "run.json"
    result = run_arena("heuristic", "random", deals=6, protocol="research", json_path=path, progress=False)
    script = Path(__file__).resolve().parents[2] / "bench" / "bombs.py"
    out = subprocess.run([sys.executable, str(script), str(path), "--reference", str(path)], capture_output=True,
                         text=True, check=True, timeout=120).stdout
    for role, block in zip(("landlord", "farmers"), out.split("A as ")[1:], strict=True):
        rows = {ln.split()[0] if not ln.split()[1].startswith("F") else " ".join(ln.split()[:2]):
                ln.split() for ln in block.splitlines()[2:] if ln.startswith("  ")}
        assert int(rows["all"][1]) == 6
        assert sum(int(v[1]) for k, v in rows.items() if k in ("L0", "L1", "L2+")) == 6
        assert sum(int(v[2]) for k, v in rows.items() if " " in k) == 6
        wp = result["bots"]["A"]["roles"][role]["wp"]["mean"]
        assert float(rows["all"][4]) == float(rows["all"][5]) == pytest.approx(wp, abs=0.001)
        assert rows["all"][6:] == ["+0.000", "±", "0.000"]
    for bad, said in ((tmp_path / "none.json", "no arena result at"), (tmp_path, "is not an arena result")):
        p = subprocess.run([sys.executable, str(script), str(bad)], capture_output=True, text=True, timeout=60)
        assert p.returncode == 1 and said in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("jobs", [1, 2])
def test_sigterm_stops_a_background_run_and_keeps_its_deals(tmp_path: Path, jobs: int) -> None:
    """A run started in the background ignores SIGINT (``nohup qipai arena … &``); ``kill PID`` stops it as
    Ctrl-C does: the finished deals are written, marked interrupted, and resume carries on from them.  With one
    job too (the games are played in the main process, which used to drop its handler and die unwritten)."""
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "run.json"
    p = subprocess.Popen([sys.executable, "-m", "qipai.cli", "arena", "heuristic", "random", "--research",
                          "--deals", "5000", "--jobs", str(jobs), "--json", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    time.sleep(6)
    p.send_signal(signal.SIGINT)  # ignored, as in the background
    time.sleep(1)
    assert p.poll() is None
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    data = json.loads(out.read_text())
    assert data["stopped"] == "interrupted" and not data["partial"]
    assert 0 < data["deals"] < 5000 and data["games"] == 2 * data["deals"]
    again = run_arena("heuristic", "random", deals=data["deals"] + 1, protocol="research", progress=False,
                      resume=out)
    assert again["deals"] == data["deals"] + 1


def test_resume_refuses_a_result_with_foreign_or_corrupt_games_before_playing(tmp_path: Path) -> None:
    """A result whose games are not arena games is a one-line error naming the game and the field, before any
    deal is played (it used to be a traceback, or one after the whole run when the summary was made)."""
    first = tmp_path / "r.json"
    run_arena("heuristic", "random", deals=2, progress=False, json_path=first)
    good = json.loads(first.read_text())
    cases: list[tuple[object, object, str]] = [
        ("settings", [1], "settings are not a JSON object"),
        ("records", "junk", "records are not a list"),
        ("records", [1], "game 1 of its records is not a JSON object"),
        ("records", [{**good["records"][0], "x": 1}], "unknown field(s) x"),
        ("records", [{k: v for k, v in good["records"][0].items() if k != "seats"}], "lacks seats"),
        ("records", [good["records"][0], {**good["records"][1], "seats": None}], "game 2 of its records has bad"),
        ("records", [{**good["records"][0], "landlord": 7, "scores": [1]}], "landlord, scores"),
        ("seconds", "abc", "seconds are not a number"),
    ]
    for key, value, words in cases:
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps({**good, key: value}))
        res = CliRunner().invoke(app, ["arena", "heuristic", "random", "--deals", "3", "--no-progress",
                                       "--resume", str(bad)])
        assert res.exit_code == 2 and words in res.output, (key, value, res.output, res.exception)
        assert "cannot resume" in res.output or "not an arena result" in res.output


def test_another_games_result_or_a_record_is_named_as_such(tmp_path: Path) -> None:
    """A Shengji result of the generic arena, or a game record, given to --resume or a bench script was "holds no
    games" or "its run differs in bot_a (None there, …)"; it says what the file is."""
    from qipai.arena import run_game_arena
    from qipai.games.doudizhu.bots.arena import load_result
    from qipai.games.doudizhu.state import Game

    shengji, record = tmp_path / "shengji.json", tmp_path / "deal.json"
    run_game_arena("shengji", "rule", "passive", deals=1, progress=False, json_path=shengji)
    record.write_text(json.dumps(Game.new(PRESETS["classic"], seed=1).record()))
    for path, words in ((shengji, "is a result of the generic arena (shengji)"), (record, "is a game record")):
        with pytest.raises(ValueError, match=re.escape(f"{path} {words}, not a result of Dou Dizhu's arena")):
            load_result(path)
        res = CliRunner().invoke(app, ["arena", "heuristic", "random", "--deals", "1", "--no-progress",
                                       "--resume", str(path)])
        assert res.exit_code == 2 and words in res.output, res.output


def test_a_run_without_a_terminal_logs_its_progress_in_lines(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    import qipai.games.doudizhu.bots.arena as arena

    monkeypatch.setattr(arena, "PROGRESS_SECONDS", 0.0)
    arena.run_arena("heuristic", "random", deals=3, protocol="research", progress=True)
    lines = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert lines[0].startswith("heuristic vs random: 1/6 games, 0:") and "left" in lines[0]
    assert lines[-1].startswith("heuristic vs random: 6/6 games") and lines[-1].endswith("about 0:00 left")
    assert not any("━" in x for x in lines)  # no bar drawn into a log


def test_bench_endgame_counts_the_games_lost_and_the_forced_wins_given_away(tmp_path: Path) -> None:
    """``bench/endgame.py``: the games lost are the records' own, a blunder is counted only in a forced win held
    and a forced win only in a position solved, and the heuristic reaches forced wins against the random bot."""
    from benchscripts import bench_script
    from qipai.games.doudizhu.bots.arena import run_arena

    path = tmp_path / "run.json"
    run_arena("heuristic", "random", deals=4, protocol="research", json_path=path, progress=False)
    endgame = bench_script("endgame")
    records = endgame.research_records(path)
    stats = endgame.tally(records, cards=24, nodes=50_000)
    for who in ("A", "B"):
        for role in ("landlord", "farmers"):
            lost = sum(1 for r in records if r["seats"][r["landlord"] if role == "landlord" else
                                                         (r["landlord"] + 1) % 3] == who
                       and (r["winner"] == "landlord") != (role == "landlord"))
            assert stats[(who, role, "games lost")] == lost
            assert stats[(who, role, "lost with a blunder")] <= lost
            assert stats[(who, role, "blunders")] <= stats[(who, role, "forced wins held")] <= stats[
                (who, role, "solved")]
    assert sum(stats[(w, r, "solved")] for w in "AB" for r in ("landlord", "farmers")) > 0
    assert sum(stats[("A", r, "forced wins held")] for r in ("landlord", "farmers")) > 0


def test_the_arena_writes_its_result_to_a_path_given_as_text(tmp_path: Path) -> None:
    """``run_arena(json_path="run.json.gz")`` (a path as a string, as a notebook would pass it) writes the same
    result as a :class:`~pathlib.Path` does."""
    from qipai.games.doudizhu.bots.arena import load_result

    result = run_arena("heuristic", "random", deals=2, json_path=str(tmp_path / "run.json.gz"), progress=False)
    assert load_result(tmp_path / "run.json.gz")["games"] == result["games"] == 4
