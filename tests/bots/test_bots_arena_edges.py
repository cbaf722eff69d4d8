"""The arena at its edges: the early stop (--target-ci) does not depend on the order workers finish deals in, nor
on a resume of a run that stopped there; the research protocol plays only the classic rules it documents, a bot
option given twice is refused, and bench/paired.py refuses runs whose deals are other cards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from qipai.games.doudizhu.bots import arena
from qipai.games.doudizhu.bots.arena import GameRecord, run_arena


def _games(r: dict[str, object]) -> list[dict[str, object]]:
    recs = r["records"]
    assert isinstance(recs, list)
    return [{k: v for k, v in x.items() if k != "seconds"} for x in recs]


def test_target_ci_stop_is_the_same_whatever_order_the_games_finish_in(monkeypatch: pytest.MonkeyPatch) -> None:
    kw = dict(deals=120, protocol="duplicate", progress=False, target_ci=0.12, min_deals=5, seed=1)
    in_order = run_arena("heuristic", "noisy", **kw)  # type: ignore[arg-type]
    assert in_order["stopped"] == "target_ci"
    original = arena._run

    def out_of_order(setup: arena._Setup, tasks: list[tuple[int, int]], jobs: int) -> Iterator[GameRecord]:
        # as worker processes may: blocks of games finish in another order (here each block of 16 reversed)
        games = list(original(setup, tasks, 1))
        for i in range(0, len(games), 16):
            yield from reversed(games[i:i + 16])

    monkeypatch.setattr(arena, "_run", out_of_order)
    shuffled = run_arena("heuristic", "noisy", **kw)  # type: ignore[arg-type]
    assert shuffled["stopped"] == "target_ci"
    assert shuffled["deals"] == in_order["deals"]
    assert sorted({x["deal"] for x in shuffled["records"]}) == list(range(in_order["deals"]))
    assert _games(shuffled) == _games(in_order)
    assert shuffled["bots"]["A"]["both"] == in_order["bots"]["A"]["both"]


@pytest.mark.parametrize("preset", ["chengdu", "jj"])
def test_research_protocol_refuses_other_rules(preset: str) -> None:
    with pytest.raises(ValueError, match="classic"):
        run_arena("heuristic", "random", deals=1, protocol="research", rules=preset, progress=False)
    r = run_arena("heuristic", "random", deals=1, protocol="research", rules="classic", progress=False)
    assert r["deals"] == 1


def test_a_bot_option_given_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        arena.BotSpec.parse("search:time=0.05,time=0.1")
    with pytest.raises(ValueError, match="twice"):
        run_arena("search:samples=2,samples=4", "random", deals=1, progress=False)


def test_bench_paired_refuses_runs_on_other_deals(tmp_path: Path) -> None:
    """``bench/paired.py`` pairs deal numbers; two runs with other seeds (or protocols) hold other cards under the
    same numbers, and a "paired" difference of them is meaningless: it is refused."""
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[2] / "bench" / "paired.py"
    one, other, research = tmp_path / "s3.json", tmp_path / "s4.json", tmp_path / "r.json"
    run_arena("heuristic", "random", deals=3, seed=3, json_path=one, progress=False)
    run_arena("heuristic", "random", deals=3, seed=4, json_path=other, progress=False)
    run_arena("heuristic", "random", deals=3, protocol="research", json_path=research, progress=False)
    for args, said in ((["--net", one, other], "deal 0 holds other cards"), ([one, research], "protocol differ")):
        p = subprocess.run([sys.executable, str(script), *map(str, args)], capture_output=True, text=True,
                           timeout=120)
        assert p.returncode == 1 and said in p.stderr, (p.stdout, p.stderr)
    ok = subprocess.run([sys.executable, str(script), "--net", str(one), str(one)], capture_output=True, text=True,
                        timeout=120)
    assert ok.returncode == 0 and "difference +0.00 ± 0.00 over 3 deals" in ok.stdout


def test_resuming_with_fewer_deals_into_the_same_file_is_refused(tmp_path: Path) -> None:
    """``--resume r.json --deals 2 --json r.json`` on a result of 4 deals dropped 2 finished deals for good."""
    path = tmp_path / "r.json"
    run_arena("heuristic", "random", deals=4, json_path=path, progress=False)
    with pytest.raises(ValueError, match=r"holds deals up to 4, more than --deals 2: .* drop 2 finished deals"):
        run_arena("heuristic", "random", deals=2, resume=path, json_path=path, progress=False)
    assert len(arena.load_result(path)["records"]) == 8  # untouched
    fewer = run_arena("heuristic", "random", deals=2, resume=path, json_path=tmp_path / "two.json", progress=False)
    assert fewer["games"] == 4  # into another file: the first two deals, as before


def test_resuming_a_run_stopped_by_target_ci_plays_no_more_deals(tmp_path: Path) -> None:
    """A run that stopped once its interval was narrow enough, resumed with the same target, stops where it did
    with the same result (it used to play one deal more, the resumed deals never being looked at)."""
    path = tmp_path / "r.json"
    kw = dict(deals=120, protocol="duplicate", progress=False, target_ci=0.12, min_deals=5, seed=1)
    first = run_arena("heuristic", "noisy", json_path=path, **kw)  # type: ignore[arg-type]
    assert first["stopped"] == "target_ci" and first["deals"] < 120
    again = run_arena("heuristic", "noisy", resume=path, **kw)  # type: ignore[arg-type]
    assert again["stopped"] == "target_ci" and again["deals"] == first["deals"]
    assert _games(again) == _games(first) and again["bots"]["A"]["both"] == first["bots"]["A"]["both"]
