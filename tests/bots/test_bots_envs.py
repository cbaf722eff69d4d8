"""The PettingZoo AEC environment: PettingZoo's own api_test on every registered game (and a toy game with a
joint decision and partial legal lists), seeded episodes, rewards from the outcome, masks from the legal list."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pettingzoo  # noqa: F401 - the optional extra `envs`: scripts/test.sh installs it
import pytest
from pettingzoo.test import api_test, seed_test

from qipai.core import registry
from qipai.core.game import GameInfo, IllegalAction
from qipai.core.options import OptionSet
from qipai.envs import aec_env
from qipai.games.doudizhu.bots.features import SIZE
from qipai.games.doudizhu.rules import PRESETS


class GuessGame:
    """Two seats pick a number 0..99 at the same time, three rounds; the higher total wins.  The legal list is
    partial (three hints), as with games whose actions cannot all be listed."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.round = 0
        self.picks: dict[int, int] = {}
        self.totals = [0, 0]
        self.log: list[tuple[int, str]] = []

    players = 2

    @property
    def phase(self) -> str:
        return "over" if self.is_over else "guess"

    @property
    def is_over(self) -> bool:
        return self.round >= 3

    @property
    def acting(self) -> tuple[int, ...]:
        return () if self.is_over else tuple(s for s in (0, 1) if s not in self.picks)

    def legal_actions(self, seat: int) -> list[str]:
        return ["0", "50", str(self.seed % 100)] if seat in self.acting else []

    def check(self, action: str, seat: int) -> str | None:
        if seat not in self.acting:
            return f"seat {seat} does not act now"
        if not action.isdigit() or not 0 <= int(action) <= 99:
            return f"{action!r} is not a number from 0 to 99"
        return None

    def apply(self, action: str, seat: int) -> None:
        why = self.check(action, seat)
        if why:
            raise IllegalAction(why)
        self.picks[seat] = int(action)
        self.log.append((seat, action))
        if len(self.picks) == 2:
            for s, v in self.picks.items():
                self.totals[s] += v
            self.picks = {}
            self.round += 1

    def observe(self, seat: int | None) -> dict[str, Any]:
        return {"round": self.round, "totals": list(self.totals), "seat": seat,
                "mine": self.picks.get(seat) if seat is not None else None}

    def outcome(self) -> dict[str, Any] | None:
        if not self.is_over:
            return None
        a, b = self.totals
        won = [a > b, b > a] if a != b else [None, None]
        return {"scores": [1 if w else -1 if w is False else 0 for w in won], "won": won, "roles": [None, None]}


class GuessFactory:
    info = GameInfo(name="guess", titles={"en": "Guess"}, min_players=2, max_players=2, phases=("guess", "over"),
                    options=OptionSet([]), presets=("basic",), complete_legal=False, simultaneous=True,
                    max_actions=50)

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return {"preset": "basic"}

    def players(self, options: Mapping[str, Any]) -> int:
        return 2

    def match_start(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def deal_context(self, options: Mapping[str, Any], match: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def new(self, options: Mapping[str, Any], seed: int, context: Mapping[str, Any]) -> GuessGame:
        return GuessGame(seed)


@pytest.fixture
def guess() -> Iterator[str]:
    registry.register("guess", GuessFactory())  # type: ignore[arg-type]
    yield "guess"
    registry.unregister("guess")


@pytest.mark.parametrize("game", registry.game_names())
def test_api_test_passes_for_every_registered_game(game: str) -> None:
    api_test(aec_env(game), num_cycles=200)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_api_test_passes_for_every_dou_dizhu_preset(preset: str) -> None:
    env = aec_env("doudizhu", {"preset": preset})
    assert env.observation_space("seat_0")["observation"].shape == (SIZE,)
    api_test(env, num_cycles=200)


def test_api_test_passes_for_a_joint_decision_with_partial_legal_lists(guess: str) -> None:
    env = aec_env(guess)
    api_test(env, num_cycles=50)
    env.reset(seed=7)
    assert env.agent_selection == "seat_0"
    obs, *_ , info = env.last()
    assert info["legal_actions"] == ["0", "50", "7"] and obs["action_mask"][:4].tolist() == [1, 1, 1, 0]
    # no numeric view for this game: the observation is its JSON as bytes
    raw = bytes(obs["observation"]).rstrip(b"\0")
    assert json.loads(raw) == env.observation_json("seat_0")
    env.step(2)  # seat 0 picks 7; seat 1 still to answer the same decision
    assert env.agent_selection == "seat_1"
    env.step_text("99")  # an action no hint lists, checked by the game
    with pytest.raises(IllegalAction, match="0 to 99"):
        env.step_text("100")
    assert env.game.totals == [7, 99]  # type: ignore[union-attr]


def test_seed_test() -> None:
    seed_test(lambda: aec_env("doudizhu"), num_cycles=100)


def play_out(env: Any, seed: int) -> tuple[list[str], dict[str, float]]:
    env.reset(seed=seed)
    texts: list[str] = []
    total = {a: 0.0 for a in env.possible_agents}
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() == len(info["legal_actions"]) == len(env.game.legal_actions(env.possible_agents.index(agent)))
        i = int(rng.choice(np.flatnonzero(mask)))
        texts.append(info["legal_actions"][i])
        env.step(i)
    return texts, total


def test_episodes_are_seeded_and_rewards_are_the_scores() -> None:
    env = aec_env("doudizhu", {"preset": "classic"})
    a, ra = play_out(env, 3)
    g = env.game
    assert g is not None and g.is_over
    scores = g.outcome()["scores"]
    assert [ra[f"seat_{s}"] for s in range(3)] == [float(x) for x in scores]
    assert sum(ra.values()) == 0
    b, rb = play_out(aec_env("doudizhu", {"preset": "classic"}), 3)
    assert (a, ra) == (b, rb)
    win = aec_env("doudizhu", {"preset": "classic"}, reward="win")
    _, rw = play_out(win, 3)
    assert sorted(rw.values()) in ([-1.0, -1.0, 1.0], [-1.0, 1.0, 1.0])


def test_bad_steps_are_refused() -> None:
    env = aec_env("doudizhu")
    env.reset(seed=1)
    n = len(env.infos["seat_0"]["legal_actions"])
    with pytest.raises(ValueError, match="action mask"):
        env.step(n)
    for wrong in (0.7, "0", True, None):  # int() read 0.7 and "0" as the first action
        with pytest.raises(ValueError, match="is not the index of a legal action"):
            env.step(wrong)
    assert env.game is not None and env.game.legal_actions(0) == env.infos["seat_0"]["legal_actions"]  # unchanged
    env.step(np.int64(0))  # what action_space.sample() gives is an index
    with pytest.raises(ValueError, match="reward"):
        aec_env("doudizhu", reward="money")
    with pytest.raises(KeyError, match="unknown game"):
        aec_env("mahjong-on-mars")
