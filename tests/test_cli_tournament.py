"""``qipai tournament``: a whole bot-only match from the command line, as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

QIPAI = [sys.executable, "-m", "qipai.cli"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120"}
    return subprocess.run([*QIPAI, "tournament", *args], capture_output=True, text=True, timeout=300, env=env)


def test_a_sit_and_go_of_nine_bots_prints_the_final_standings_with_the_prizes(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    p = run("--preset", "sit_and_go_9", "--seed", "4", "--bots", "heuristic,random", "--json", str(out))
    assert p.returncode == 0, p.stderr
    assert "finished, 12 deals at 4 tables" in p.stdout
    data = json.loads(out.read_text())
    rows = data["standings"]
    assert [r["place"] for r in rows] == list(range(1, 10))
    assert sorted(r["entrant"] for r in rows) == [f"p{i}" for i in range(1, 10)]
    # RULES-matches §9.16: 9 paying, pool 810, bracket 9 → 405, 243, 162 to places 1..3
    assert [r["prize"] for r in rows] == [405, 243, 162, 0, 0, 0, 0, 0, 0]
    assert sum(r["points"] for r in rows) == 9 * 1000  # Dou Dizhu match points are zero-sum
    assert {r["program"] for r in rows} == {"heuristic", "random"}
    # the same seed gives the same match
    again = tmp_path / "again.json"
    assert run("--preset", "sit_and_go_9", "--seed", "4", "--bots", "heuristic,random", "--json", str(again),
               "--no-progress").returncode == 0
    assert json.loads(again.read_text())["standings"] == rows
    for r in rows[:3]:
        assert r["entrant"] in p.stdout


def test_team_and_mahjong_matches_run_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "sj.json"
    p = run("--preset", "shengji_teams_swiss", "--entrants", "4", "--seed", "2", "--no-progress", "--json",
            str(out), "--set", '{"stages": [{"rounds": 2, "deals": 1}]}')
    assert p.returncode == 0, p.stderr
    rows = json.loads(out.read_text())["standings"]
    assert sorted(r["entrant"] for r in rows) == ["t1", "t2", "t3", "t4"]
    assert sum(r["prize"] for r in rows) == 144  # 8 paying players × 20 × 90 %
    out = tmp_path / "mj.json"
    p = run("--preset", "mahjong_swiss_16", "--seed", "2", "--no-progress", "--json", str(out),
            "--set", '{"entry": {"max_entrants": 8}, "stages": [{"rounds": 2, "deals": 1}]}')
    assert p.returncode == 0, p.stderr
    data = json.loads(out.read_text())
    assert data["deals"] == 4 and len(data["standings"]) == 8


def test_bad_input_is_refused_with_a_reason() -> None:
    p = run("--preset", "nope")
    assert p.returncode == 2 and "unknown match preset" in p.stderr
    p = run("--bots", "nobody")
    assert p.returncode == 2 and "unknown bot 'nobody'" in p.stderr
    p = run("--set", "[1]")
    assert p.returncode == 2 and "JSON object" in p.stderr
    p = run("--entrants", "10")
    assert p.returncode == 2 and "at most 9" in p.stderr
    # a field the match cannot start with: it waited for ever ("cannot progress"), or was cancelled and still
    # printed places
    p = run("--entrants", "8")
    assert p.returncode == 2 and "starts when full: it needs exactly 9 entrants, got 8" in p.stderr
    p = run("--preset", "shengji_teams_swiss", "--entrants", "3")
    assert p.returncode == 2 and "needs at least 4 entrants" in p.stderr and "place" not in p.stdout


def test_a_json_path_it_cannot_write_is_refused_before_the_match_is_played(tmp_path: Path) -> None:
    for path, words in [(tmp_path / "missing" / "s.json", "no folder"), (tmp_path, "is a folder")]:
        p = run("--preset", "sit_and_go_9", "--no-progress", "--json", str(path))
        assert p.returncode == 2 and p.stderr.startswith("error: --json") and words in p.stderr, p.stderr
        assert "Traceback" not in p.stderr and "place" not in p.stdout


def test_set_with_a_number_too_long_or_nesting_too_deep_is_a_one_line_error() -> None:
    for text, words in [('{"stages": [{"rounds": [{"deals": 1' + "0" * 5000 + "}]}]}", "number too long"),
                        ("[" * 20_000 + "]" * 20_000, "nested too deeply")]:
        p = run("--no-progress", "--set", text)
        assert p.returncode == 2 and p.stderr.startswith("error: --set") and words in p.stderr, p.stderr[-500:]
        assert "Traceback" not in p.stderr
