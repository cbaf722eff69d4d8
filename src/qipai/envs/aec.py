"""A PettingZoo AEC environment for every registered game (optional extra: ``pip install pettingzoo``).

The environment drives any game of :mod:`qipai.core.registry` through the generic interface
(:class:`~qipai.core.game.Game`): agents are ``seat_0`` … ``seat_{n-1}``; the agent to move is an acting seat
(:attr:`Game.acting`; in a joint decision, where several seats act at once, each acting seat answers in seat
order and the game resolves the decision once all have, as a host would).

**Actions** are indices into the seat's current legal actions, ``Game.legal_actions(seat)`` in the game's own
order: ``Discrete(max_legal)``, and the **action mask** (``observation["action_mask"]``, int8) has a 1 for each
index that names a listed action.  The text of each index is in ``infos[agent]["legal_actions"]``.

- Where the game lists every legal action (:attr:`GameInfo.complete_legal`, Dou Dizhu), the mask is exactly
  the legal actions, unless a decision has more than ``max_legal`` of them: then only the first ``max_legal``
  are offered and ``infos[agent]["legal_truncated"]`` says so.  Dou Dizhu decisions have at most a few
  thousand (a long hand's leads with every kicker choice); the default leaves room for that.
- Where the game's list is partial (``complete_legal`` false: e.g. a few hints among millions of throws), the
  mask covers the listed actions only: every masked-in index is legal, but not every legal action has an
  index.  :meth:`QipaiAEC.step_text` takes any action as text and is checked by the game (``Game.check``).

**Observations** are ``{"observation": ARRAY, "action_mask": MASK}``, made from the seat's observation
(``Game.observe(seat)``: only what it may see; :meth:`QipaiAEC.observation_json` gives it as it is):

- a game whose bots package has a ``features`` module (``qipai.games.<game>.bots.features`` with ``SIZE`` and
  ``features(observation) -> list[float]``) gets that numeric view, ``Box(0, 1, (SIZE,), float32)``
  (Dou Dizhu: :mod:`qipai.games.doudizhu.bots.features`);
- any other game gets the observation's JSON text as UTF-8 bytes, zero-padded to ``max_obs_bytes``
  (``Box(0, 255, (max_obs_bytes,), uint8)``; a longer text is cut and ``infos[agent]["obs_truncated"]`` says so);
- ``encode=(space, function)`` plugs in any other encoding: the function maps the observation's dict to an
  element of ``space``.

**Rewards** come once, when the deal ends: each seat's score change (``outcome()["scores"]``), or with
``reward="win"`` +1 for a seat that won, −1 for one that lost, 0 otherwise.  A deal that runs past
``max_steps`` actions is truncated (the game's own :attr:`GameInfo.max_actions` by default).

Games are seeded: ``reset(seed=S)`` deals from ``S``; without a seed each reset draws the next seed from the
environment's own generator (itself seeded by the first seeded reset), so runs are reproducible.

>>> import pytest; _ = pytest.importorskip("pettingzoo")
>>> env = aec_env("doudizhu", {"preset": "classic"})
>>> env.reset(seed=1)
>>> env.agent_selection, int(env.action_space("seat_0").n)
('seat_0', 8192)
>>> obs, reward, term, trunc, info = env.last()
>>> info["legal_actions"][:2], int(obs["action_mask"].sum()) == len(info["legal_actions"])
(['pass', 'bid 1'], True)
"""

from __future__ import annotations

import importlib
import json
import operator
import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from ..core.game import Game, apply_step
from ..core.registry import get_factory

_MISSING: ImportError | None = None
_Base: Any = object
try:
    import numpy as np
    import pettingzoo  # type: ignore[import-untyped,import-not-found,unused-ignore]
    from gymnasium import spaces  # type: ignore[import-untyped,import-not-found,unused-ignore]
except ImportError as e:  # pragma: no cover - depends on the environment
    _MISSING = ImportError(f"qipai.envs needs the 'pettingzoo' extra ({e}): pip install pettingzoo")
else:
    _Base = pettingzoo.AECEnv

MAX_LEGAL = 8192
"""The default size of the action space (and of the mask)."""

MAX_OBS_BYTES = 1 << 16
"""The default length of the byte observation of games without a numeric view."""


class QipaiAEC(_Base):  # type: ignore[misc]
    """One seat per agent, one deal per episode (see the module docstring).

    ``game``: a registered game's name; ``options``: its options (``{"preset": ...}``); ``context``: the deal
    context (default: the factory's for a new match); ``max_legal``: the action space's size; ``reward``:
    ``"score"`` or ``"win"``; ``encode``: an optional ``(space, function)`` for numeric observations.
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "qipai_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str = "doudizhu", options: Mapping[str, Any] | None = None, *,
                 context: Mapping[str, Any] | None = None, max_legal: int = MAX_LEGAL, reward: str = "score",
                 max_steps: int | None = None, max_obs_bytes: int = MAX_OBS_BYTES,
                 encode: tuple[Any, Callable[[dict[str, Any]], Any]] | None = None,
                 render_mode: str | None = None) -> None:
        if _MISSING is not None:
            raise _MISSING
        super().__init__()
        if reward not in ("score", "win"):
            raise ValueError(f"reward must be 'score' or 'win', not {reward!r}")
        if max_legal < 1:
            raise ValueError("max_legal must be at least 1")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.factory = get_factory(game)
        self.game_name = game
        self.options = self.factory.options(dict(options or {}))
        self.context = dict(context) if context is not None else dict(
            self.factory.deal_context(self.options, self.factory.match_start(self.options)))
        self.players = self.factory.players(self.options)
        self.max_legal = max_legal
        self.reward_kind = reward
        self.max_steps = max_steps if max_steps is not None else self.factory.info.max_actions
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{s}" for s in range(self.players)]
        self.agents: list[str] = []
        self.max_obs_bytes = max_obs_bytes
        if encode is None:
            encode = _game_features(game)
        self.encode = encode
        obs_space = encode[0] if encode is not None else spaces.Box(0, 255, (max_obs_bytes,), dtype=np.uint8)
        self._obs_spaces = {a: spaces.Dict({"observation": obs_space,
                                            "action_mask": spaces.Box(0, 1, (max_legal,), dtype=np.int8)})
                            for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(max_legal) for a in self.possible_agents}
        self._rng = random.Random()
        self.game: Game | None = None
        self._legal: dict[int, list[str]] = {}
        self.steps = 0
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = ""

    # ------------------------------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> Any:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self._act_spaces[agent]

    # ------------------------------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game (from ``seed``, or the environment's next seed)."""
        if seed is not None:
            self._rng = random.Random(seed)
            for i, a in enumerate(self.possible_agents):
                self._act_spaces[a].seed(seed + i)
                self._obs_spaces[a].seed(seed + i)
            deal_seed = seed
        else:
            deal_seed = self._rng.getrandbits(62)
        self.game = self.factory.new(self.options, deal_seed, self.context)
        self.deal_seed = deal_seed
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._next_turn()

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _next_turn(self) -> None:
        """Select the next acting seat and refresh the legal lists and infos."""
        g = self.game
        assert g is not None
        acting = g.acting
        self._legal = {s: g.legal_actions(s) for s in acting}
        for a in self.agents:
            s = self._seat(a)
            legal = self._legal.get(s, [])
            self.infos[a] = {"legal_actions": legal[: self.max_legal], "legal_truncated": len(legal) > self.max_legal,
                             "acting": s in self._legal, "phase": g.phase}
        if acting:
            self.agent_selection = self.possible_agents[acting[0]]

    def observe(self, agent: str) -> Any:
        g = self.game
        assert g is not None
        s = self._seat(agent)
        obs = g.observe(s)
        mask = np.zeros(self.max_legal, dtype=np.int8)
        n = min(len(self._legal.get(s, [])), self.max_legal)
        if agent == self.agent_selection and not g.is_over:
            mask[:n] = 1
        if self.encode is not None:
            value = self.encode[1](obs)
        else:
            raw = json.dumps(obs, ensure_ascii=False, separators=(",", ":")).encode()
            self.infos[agent]["obs_truncated"] = len(raw) > self.max_obs_bytes
            value = np.zeros(self.max_obs_bytes, dtype=np.uint8)
            cut = raw[: self.max_obs_bytes]
            value[: len(cut)] = np.frombuffer(cut, dtype=np.uint8)
        return {"observation": value, "action_mask": mask}

    def observation_json(self, agent: str) -> dict[str, Any]:
        """The seat's observation as the game gives it (``Game.observe``)."""
        assert self.game is not None
        return self.game.observe(self._seat(agent))

    def step(self, action: Any) -> None:
        """The selected agent takes the action with index ``action`` among its legal actions."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self._seat(agent)
        legal = self._legal.get(s, [])
        try:  # an integer (NumPy's too, as action_space.sample() gives), not a float or a text that int() reads
            index = None if isinstance(action, bool) else operator.index(action)
        except TypeError:
            index = None
        if index is None or not 0 <= index < min(len(legal), self.max_legal):
            raise ValueError(f"{agent}: action {action!r} is not the index of a legal action "
                             f"(0..{min(len(legal), self.max_legal) - 1}; see the action mask)")
        self._apply(s, legal[index])

    def step_text(self, text: str) -> None:
        """The selected agent takes an action given as text (any action the game accepts, listed or not);
        an illegal one raises :class:`~qipai.core.game.IllegalAction` and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            raise ValueError(f"{agent} is done; step it with None")
        self._apply(self._seat(agent), text)

    def _apply(self, seat: int, text: str) -> None:
        g = self.game
        assert g is not None
        agent = self.possible_agents[seat]
        self._cumulative_rewards[agent] = 0.0
        apply_step(g, seat, text)
        self.steps += 1
        self.rewards = {a: 0.0 for a in self.agents}
        if g.is_over:
            out = g.outcome() or {}
            for a in self.agents:
                i = self._seat(a)
                if self.reward_kind == "win":
                    won = (out.get("won") or [None] * self.players)[i]
                    self.rewards[a] = 1.0 if won is True else -1.0 if won is False else 0.0
                else:
                    self.rewards[a] = float((out.get("scores") or [0] * self.players)[i])
                self.terminations[a] = True
                self.infos[a] = {"legal_actions": [], "legal_truncated": False, "acting": False, "phase": g.phase,
                                 "outcome": out}
            self._legal = {}
        elif self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
            self._legal = {}
        else:
            self._next_turn()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """``ansi``: the spectator's view as JSON text."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        return json.dumps(self.game.observe(None), ensure_ascii=False)

    def close(self) -> None:
        self.game = None


def _game_features(game: str) -> tuple[Any, Callable[[dict[str, Any]], Any]] | None:
    """The numeric view a game's bots package offers (``qipai.games.<game>.bots.features``), if any."""
    try:
        mod = importlib.import_module(f"qipai.games.{game}.bots.features")
    except ModuleNotFoundError:
        return None
    size = int(mod.SIZE)
    fn = mod.features

    def encode(obs: dict[str, Any]) -> Any:
        return np.asarray(fn(obs), dtype=np.float32)

    return spaces.Box(0.0, 1.0, (size,), dtype=np.float32), encode


def aec_env(game: str = "doudizhu", options: Mapping[str, Any] | None = None, **kw: Any) -> QipaiAEC:
    """A :class:`QipaiAEC` for ``game`` (keyword arguments as there)."""
    return QipaiAEC(game, options, **kw)


__all__ = ["MAX_LEGAL", "QipaiAEC", "aec_env"]
