"""The bench scripts refuse a bad bot, preset or count before any work, in one line: they were tracebacks
(``KeyError: 'nosuch'``, ``ZeroDivisionError``), a result of ``nan`` for ``--deals -1``, or a run that measured
nothing for an unknown ``--only`` engine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.mark.parametrize(("script", "args", "said"), [
    ("disagree", ["--bot", "nosuch", "--deals", "1"], "bot 'nosuch': unknown bot 'nosuch' for doudizhu"),
    ("disagree", ["--deals", "-1"], "--deals must be at least 1, got -1"),
    ("calibrate_bidding", ["--preset", "nosuch", "--deals", "1"], "unknown preset 'nosuch': expected one of"),
    ("calibrate_bidding", ["--deals", "0"], "--deals must be at least 1, got 0"),
    ("mahjong_levels", ["--bot", "nosuch", "--deals", "1"], "unknown bot 'nosuch' for mahjong"),
    ("mahjong_levels", ["--deals", "0"], "--deals must be at least 1, got 0"),
    ("oracle", ["--deals", "-1", "--json", "x.json"], "--deals must be at least 1, got -1"),
    ("shengji", ["--hands", "0"], "--hands and --bot-hands must be at least 1, got 0 and 6"),
    ("mahjong", ["--hands", "-5"], "--hands and --deals must be at least 1"),
    ("engine", ["--only", "nosuch", "--quick"], "unknown engine 'nosuch': --only takes some of qipai,"),
])
def test_a_bad_argument_is_one_line(script: str, args: list[str], said: str, tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, str(BENCH / f"{script}.py"), *args], capture_output=True, text=True,
                       timeout=120, cwd=tmp_path)
    assert p.returncode == 1 and p.stderr.strip().startswith(said), p.stderr[-2000:]
    assert len(p.stderr.strip().splitlines()) == 1 and not p.stdout, (p.stdout, p.stderr)
    assert not list(tmp_path.iterdir())  # nothing written
