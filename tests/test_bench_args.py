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


@pytest.mark.parametrize(("script", "args", "said"), [
    ("train_dmc", ["--init", "{junk}"], "--init {junk}: not an .npz file of arrays"),
    ("train_dmc", ["--init", "{missing}"], "--init {missing}: [Errno 2] No such file or directory"),
    ("expert_iter", ["fit", "{junk}", "--out", "w.npz"], "{junk}: not a file of collected rollouts (not an .npz"),
    ("expert_iter", ["fit", "{wrong}", "--out", "w.npz"],
     "{wrong}: not a file of collected rollouts (no states, rows, dec, y, cand)"),
    ("expert_iter", ["collect", "--weights", "{junk}", "--out", "d.npz"], "--weights {junk}: not an .npz file"),
    ("train_playout", ["--train-only", "--data", "{junk}"], "--data {junk}: not this script's examples"),
    ("train_playout", ["--policy", "{junk}"], "--policy: {junk} is not play-out weights (not JSON)"),
    ("train_playout", ["--duel", "3", "--out", "{wrong_json}"], "--out: {wrong_json} is not play-out weights (want"),
])
def test_a_junk_input_file_is_one_line(script: str, args: list[str], said: str, tmp_path: Path) -> None:
    """The training scripts read weights and data files a user names: a missing or junk one was a traceback
    (numpy's pickle words, ``KeyError: 'weights'``) after the imports, or after minutes of work."""
    import numpy as np

    given, run = tmp_path / "given", tmp_path / "run"
    given.mkdir()
    run.mkdir()
    files = {"junk": given / "junk.npz", "wrong": given / "wrong.npz", "missing": given / "nofile.npz",
             "wrong_json": given / "w.json"}
    files["junk"].write_text("junk")
    np.savez(files["wrong"], a=np.zeros(3))
    files["wrong_json"].write_text('{"candidates": 4}')
    fill = {k: str(v) for k, v in files.items()}
    p = subprocess.run([sys.executable, str(BENCH / f"{script}.py"), *(a.format(**fill) for a in args)],
                       capture_output=True, text=True, timeout=120, cwd=run)
    assert p.returncode == 1 and p.stderr.strip().startswith(said.format(**fill)), p.stderr[-2000:]
    assert len(p.stderr.strip().splitlines()) == 1 and not p.stdout, (p.stdout, p.stderr)
    assert not list(run.iterdir())  # nothing written
