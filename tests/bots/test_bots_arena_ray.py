"""The arena on Ray: a local cluster of two worker nodes plays the same games, with the same seeds and results,
as local processes, and resumes a run started locally."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray  # the optional extra `ray`: scripts/test.sh installs it
from ray.cluster_utils import Cluster

from qipai.games.doudizhu.bots.arena import run_arena


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    c.add_node(num_cpus=1)
    c.wait_for_nodes()
    ray.init(address=c.address, log_to_driver=False)
    try:
        assert sum(1 for n in ray.nodes() if n["Alive"]) == 2
        assert ray.cluster_resources()["CPU"] == 2
        yield c.address
    finally:
        ray.shutdown()
        c.shutdown()


def games(r: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in x.items() if k != "seconds"} for x in r["records"]]


def test_ray_plays_the_same_games_as_local_processes(cluster: str) -> None:
    local = run_arena("heuristic", "random", deals=10, jobs=2, protocol="research", progress=False, seed=4)
    dist = run_arena("heuristic", "random", deals=10, jobs=2, protocol="research", progress=False, seed=4,
                     engine="ray", ray_address=cluster)
    assert games(dist) == games(local)
    assert dist["bots"]["A"]["both"] == local["bots"]["A"]["both"]
    assert dist["settings"]["engine"] == "ray"
    bid = run_arena("heuristic", "passive", deals=4, rules="four_player", progress=False, seed=2, engine="ray")
    assert games(bid) == games(run_arena("heuristic", "passive", deals=4, rules="four_player", progress=False,
                                         seed=2))


def test_ray_resumes_a_local_run(cluster: str, tmp_path: Path) -> None:
    first = tmp_path / "part.json"
    run_arena("heuristic", "random", deals=3, protocol="research", progress=False, seed=9, json_path=first)
    assert json.loads(first.read_text())["deals"] == 3
    rest = run_arena("heuristic", "random", deals=8, protocol="research", progress=False, seed=9, resume=first,
                     engine="ray")
    whole = run_arena("heuristic", "random", deals=8, protocol="research", progress=False, seed=9)
    assert rest["deals"] == 8 and games(rest) == games(whole)


def test_ray_stops_at_the_target(cluster: str) -> None:
    r = run_arena("heuristic", "random", deals=300, protocol="research", progress=False, target_ci=0.2,
                  min_deals=5, engine="ray")
    assert r["stopped"] == "target_ci" and r["deals"] < 300
    with pytest.raises(ValueError, match="engine"):
        run_arena("heuristic", "random", deals=1, progress=False, engine="spark")
