"""``bench/matches.py`` at a tiny size: a real server, a 12-entrant 打立出局 → 定局积分 → Swiss match with three
human WebSocket clients and a probe table; the report's figures are all there and sane."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_match_benchmark_runs_a_tiny_three_stage_match_and_reports_it(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    cmd = [sys.executable, str(ROOT / "bench" / "matches.py"), "--entrants", "12", "--humans", "3",
           "--probe-tables", "1", "--think", "0.03", "--level-deals", "2", "--round-gap", "0", "--stage-gap", "0",
           "--next-deal-delay", "0.1", "--reg-lead", "3", "--timeout", "150", "--health-every", "1", "--json", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=200, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    rep = json.loads(out.read_text())
    assert rep["entrants"] == 12 and rep["sizes"] == [9, 6, 6]
    assert [s["format"] for s in rep["stages"]] == ["dali", "fixed", "swiss"]
    assert [s["field"] for s in rep["stages"]] == [12, 9, 6]
    for s in rep["stages"]:
        assert s["seconds"] > 0 and s["tables"] >= 1 and s["deals"] >= s["tables"], s
        assert s["latency_ms"]["probe"]["n"] > 0, s  # the probe table plays through every stage
    assert sum(s["seconds"] for s in rep["stages"]) <= rep["total_s"] + 1
    # fixed: 3 tables × 2 deals, then 2 × 2; swiss: 3 rounds × 2 tables × 2 deals
    assert rep["stages"][1]["deals"] == 10 and rep["stages"][2]["deals"] == 12
    g = rep["gaps"]
    assert g["max_gap_s"] is not None and g["max_gap_s"] >= 0
    assert all(g["by_kind"][k]["n"] > 0 for k in ("queue", "round", "stage")), g["by_kind"]
    assert g["max_gap_s"] == max(v["max_s"] for v in g["by_kind"].values())
    assert len(g["seating_after_gap"]) == 4  # 2.2, 3.1, 3.2, 3.3
    lat = rep["latency_ms"]
    assert lat["n"] == rep["latency_ms_match"]["n"] + rep["latency_ms_probe"]["n"]
    assert rep["latency_ms_match"]["n"] > 0  # the human entrants played their seats
    assert 0 < lat["p50"] <= lat["p99"] <= lat["max"]
    assert rep["p99_under_100ms"] == (lat["p99"] < 100)
    assert rep["human_deals"] > 0 and rep["final"]["places"] == 12
    assert rep["server_health_end"]["ok"] is True and rep["load_avg_1m_max"] >= 0
