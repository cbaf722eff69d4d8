"""A learned action-value bot for three-player Dou Dizhu card play, trained here by Deep Monte-Carlo (深度蒙特卡洛,
DouZero's method) on this project's own self-play, and played in NumPy.

**What it learns.**  ``Q(position, action)``: the expected result (+1 a win for the acting seat's side, −1 a
loss) of playing ``action`` from what the seat sees, then playing on as the training policy does.  The bot
plays the legal action of the highest value (greedy; bidding, doubling and showing use the ``heuristic`` bot's
rules, or with ``bidding="odds"`` bids follow the calibrated odds of :mod:`~qipai.games.doudizhu.bots.bidding`).
Tables it was not trained for (:func:`trained_for`) are played by the ``heuristic`` bot, or with
``other="search"`` by the ``search`` bot (what the ``expert`` level does on four-player tables).  Unlike the
``search`` bot it does not sample hidden hands: the values are averages over the deals the training games
really had, so whatever the history says about the hidden cards is in them.

**Inputs** (:func:`state_vector` and :func:`action_rows`, seats by role: landlord, down = the landlord's next,
up = the one after; card sets as 54 slots, each rank's count as up to four ones, then the two jokers):

==================  ========  =================================================================================
part                size      content
==================  ========  =================================================================================
card sets           13 × 54   own hand; the other hands together; the kitty cards the landlord still holds (by
                              rank: kitty cards of a rank less the landlord's plays of it); cards played by the
                              landlord, down, up; the last six decisions, most recent first (a pass is empty);
                              the move to beat
role                3         one-hot: landlord, down, up
history present     6         1 for each of the six decision slots that holds a decision
move to beat by     4         one-hot: the role that made it, or nobody (leading)
cards left          3 × 3     for each role: cards ÷ 20, one card left, two cards left
bombs               1         bombs and rockets played ÷ 4 (at most 1)
action              2 × 54    the action's cards; own hand after it
action kind         3         pass; cards ÷ 20; a bomb or rocket
==================  ========  =================================================================================

**Rollouts** (``rollouts`` or ``samples``): the :data:`ROLLOUT_TOP` most valued moves are each played out on
deals sampled from what the seat has seen, every seat of the play-outs playing the network's greedy move from
what it would see there (:func:`view_steps`, :func:`play_out`), and the move that wins most often is played:
one step of policy improvement over the network, with no seat playing cards it could not see.

**Network** (:class:`QNet`): :data:`HIDDEN` ReLU layers and a linear output, in NumPy (float32); the weights
(``qipai/data/ddz_dmc.npz``) are written by ``bench/train_dmc.py`` (recipe and seeds in the script).  A
:class:`SplitQNet` holds a network per side or per role (:data:`SPLITS`), each valuing its roles' decisions;
:func:`load_qnet` reads either kind of file.

>>> from qipai.games.doudizhu.rules import PRESETS
>>> from qipai.games.doudizhu.state import Game
>>> g = Game.new(PRESETS["classic"], seed=3)
>>> g.apply("bid 3")
>>> bot = DmcBot(0, QNet.random(seed=1))
>>> bot.act(g.observe(g.to_act), g.legal_actions()) in g.legal_actions()
True
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if "numpy" not in sys.modules:  # one BLAS thread: small matrices, and one core per bot as the arena measures
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # an optional extra: the package's bots module registers ``dmc`` without importing this one

from ..cards import NUM_RANKS
from ..combos import Move
from ..moves import legal_moves
from ..rules import Rules
from .heuristic import HeuristicBot, Situation, choose_play, outside_play, situation_of
from .playout import candidates
from .search import CLOCKS, Sampler
from .value import read_weights
from .view import View, action_moves, card_actions, counts_of_tokens, read_view, rules_of

SLOTS = 54
"""Card slots of one card set."""

HISTORY = 6
"""Decisions of the play phase in the input, most recent first."""

CARD_SETS = 7 + HISTORY
"""Card sets of the state: hand, unseen, kitty left, three played, the history and the move to beat."""

STATE = CARD_SETS * SLOTS + 3 + HISTORY + 4 + 9 + 1
"""Length of :func:`state_vector`."""

ACTION = 2 * SLOTS + 3
"""Length of one row of :func:`action_rows`."""

INPUTS = STATE + ACTION
"""The network's input: a state and one action."""

HIDDEN = (256, 256, 128)
"""Units of the hidden layers."""

ROLLOUT_TOP = 4
"""Moves a decision's rollouts compare by default (the network's most valued)."""

ROLLOUT_BLOCK = 8
"""Sampled deals played out side by side at a time (each with every candidate)."""

WEIGHTS_FILE = "ddz_dmc.npz"
"""The committed weights, in ``qipai/data``."""

_FOUR = np.arange(4)
_ZERO = (0,) * NUM_RANKS


def planes(counts: Any) -> Any:
    """Rank-count vectors (``(..., 15)``) as card sets (``(..., 54)``, float32).

    >>> p = planes(np.array([2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1]))
    >>> [int(i) for i in np.flatnonzero(p)]
    [0, 1, 48, 53]
    """
    c = np.asarray(counts)
    low = (c[..., :13, None] > _FOUR).reshape(*c.shape[:-1], 52)
    return np.concatenate([low, c[..., 13:15] > 0], axis=-1).astype(np.float32)


def state_vector(role: int, hand: Sequence[int], unseen: Sequence[int], kitty_left: Sequence[int],
                 played: Sequence[Sequence[int]], recent: Sequence[Sequence[int] | None],
                 last: Sequence[int] | None, last_role: int, left: Sequence[int], bombs: int) -> Any:
    """The state part of the input (see the module docstring).  ``played`` and ``left`` are by role
    (landlord, down, up); ``recent`` is the play phase's decisions, most recent first (``None`` a pass; only
    the first :data:`HISTORY` are used); ``last_role`` is ``-1`` when leading."""
    return state_vectors([(role, hand, unseen, kitty_left, played, recent, last, last_role, left, bombs)])[0]


StateArgs = tuple[int, Sequence[int], Sequence[int], Sequence[int], Sequence[Sequence[int]],
                  Sequence[Sequence[int] | None], Sequence[int] | None, int, Sequence[int], int]
"""The arguments of :func:`state_vector`, in its order."""


def state_vectors(args: Sequence[StateArgs]) -> Any:
    """:func:`state_vector` of each argument tuple, as the rows of one array (the same values, computed together:
    about three times faster a state for a batch of a hundred).

    >>> h = (1, 2, 0, 3, 1, 0, 2, 1, 1, 0, 2, 1, 1, 0, 1)
    >>> x = state_vectors([(1, h, h, [0] * 15, [h, h, h], [h, None], None, -1, [5, 6, 7], 1),
    ...                    (0, h, h, [0] * 15, [h, h, h], [], h, 2, [1, 2, 20], 9)])
    >>> x.shape == (2, STATE), int(x[0, :SLOTS].sum()), int(x[0, 6 * SLOTS:7 * SLOTS].sum())
    (True, 16, 16)
    >>> x[0, ROLE_AT:ROLE_AT + 3 + HISTORY + 4].tolist()  # role down; two decisions of history; leading
    [0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    >>> x[1, -10:].tolist()  # each role's cards left ÷ 20, one left, two left; bombs ÷ 4 (at most 1)
    [0.05000000074505806, 1.0, 0.0, 0.10000000149011612, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0]
    """
    zero = _ZERO
    cards = []
    extras = []
    for role, hand, unseen, kitty_left, played, recent, last, last_role, left, bombs in args:
        recent = recent[:HISTORY]
        pad = HISTORY - len(recent)
        cards.append([hand, unseen, kitty_left, played[0], played[1], played[2],
                      *[zero if m is None else m for m in recent], *[zero] * pad, zero if last is None else last])
        e = [0.0] * 17
        e[role] = 1.0
        e[3 + (3 if last_role < 0 else last_role)] = 1.0
        for k in range(3):
            e[7 + 3 * k] = left[k] / 20.0
            e[8 + 3 * k] = float(left[k] == 1)
            e[9 + 3 * k] = float(left[k] == 2)
        e[16] = min(1.0, bombs / 4.0)
        extras.append([*e[:3], *[1.0] * len(recent), *[0.0] * pad, *e[3:]])
    n = len(cards)
    card_part = planes(np.array(cards, dtype=np.int64)).reshape(n, CARD_SETS * SLOTS)
    return np.concatenate([card_part, np.array(extras, dtype=np.float32)], axis=1)


def action_rows(hand: Any, moves: Sequence[Move | None]) -> Any:
    """One row per action (``None`` passes): its cards, the hand after it, and its kind (module docstring).
    ``hand`` is the hand's rank counts, or one hand per move (the moves of several decisions at once)."""
    counts = np.array([_ZERO if m is None else m.counts for m in moves], dtype=np.int64).reshape(-1, NUM_RANKS)
    after = np.asarray(hand, dtype=np.int64).reshape(-1, NUM_RANKS) - counts
    kind = np.zeros((len(moves), 3), dtype=np.float32)
    for i, m in enumerate(moves):
        if m is None:
            kind[i, 0] = 1.0
        else:
            kind[i, 1] = m.size / 20.0
            kind[i, 2] = float(m.is_bomb)
    return np.concatenate([planes(counts), planes(after), kind], axis=1)


def inputs(state: Any, rows: Any) -> Any:
    """The network's input matrix: ``state`` beside each action row."""
    return np.concatenate([np.broadcast_to(state, (len(rows), STATE)), rows], axis=1)


# ------------------------------------------------------------------------------------------------ from a view
def view_state(v: View, kitty: Sequence[str] | None) -> Any:
    """:func:`state_vector` of a seat's view in the three-player play phase (``kitty``: the observation's
    shown kitty cards, if any)."""
    ll = v.landlord
    if ll is None or v.players != 3:
        raise ValueError("the learned action values are for three-player games after the landlord is known")
    kc = counts_of_tokens(list(kitty)) if kitty else [0] * NUM_RANKS
    kitty_left = [max(0, kc[r] - v.played[ll][r]) for r in range(NUM_RANKS)]
    by_role = [(ll + k) % 3 for k in range(3)]
    recent = [None if ev.move is None else ev.move.counts for ev in reversed(v.plays[-HISTORY:])]
    return state_vector((v.seat - ll) % 3, v.hand, v.unseen, kitty_left, [v.played[s] for s in by_role],
                        recent, None if v.last is None else v.last.counts,
                        -1 if v.last is None else (v.last_by - ll) % 3,
                        [v.card_counts[s] for s in by_role], v.bombs_played)


# ------------------------------------------------------------------------------------------------ network
class QNet:
    """The action-value network: ``values(X)`` maps input rows (:data:`INPUTS` floats) to values in about
    ``[-1, 1]``."""

    def __init__(self, params: dict[str, Any]) -> None:
        layers = 0
        while f"w{layers}" in params:
            layers += 1
        if layers < 2:
            raise ValueError(f"action-value network needs at least two layers (w0, w1, …), got {layers}")
        self.w = [np.asarray(params[f"w{i}"], dtype=np.float32) for i in range(layers)]
        self.b = [np.asarray(params[f"b{i}"], dtype=np.float32) for i in range(layers)]
        if self.w[0].shape[0] != INPUTS:
            raise ValueError(f"action-value network expects {self.w[0].shape[0]} inputs, the features have "
                             f"{INPUTS}")
        for i in range(layers):
            rows = INPUTS if i == 0 else self.w[i - 1].shape[1]
            cols = 1 if i == layers - 1 else self.w[i].shape[1]
            if self.w[i].shape != (rows, cols) or self.b[i].shape != (cols,):
                raise ValueError(f"action-value layer {i} has weights {self.w[i].shape} and biases "
                                 f"{self.b[i].shape}, expected ({rows}, {cols}) and ({cols},)")

    def hidden(self) -> tuple[int, ...]:
        """Units of the hidden layers (:data:`HIDDEN` for the committed weights).

        >>> QNet.random(hidden=(64, 32)).hidden()
        (64, 32)
        """
        return tuple(int(w.shape[1]) for w in self.w[:-1])

    def widened(self, hidden: Sequence[int], seed: int = 0) -> QNet:
        """The same function with wider hidden layers (at least as many units in each, as many layers): the new
        units take small random inputs, and their outputs start with weight zero, so every value is unchanged
        until training moves them (Net2Net-style widening).

        >>> import numpy as np
        >>> a = QNet.random(seed=2, hidden=(16, 8))
        >>> b = a.widened((32, 8), seed=3)
        >>> x = np.random.default_rng(0).random((4, INPUTS))
        >>> b.hidden(), bool(np.allclose(a.values(x), b.values(x), atol=1e-5))
        ((32, 8), True)
        """
        old = self.hidden()
        if len(hidden) != len(old) or any(n < o for n, o in zip(hidden, old, strict=True)):
            raise ValueError(f"can only widen hidden layers {old} to as many layers of at least as many units, "
                             f"not {tuple(hidden)}")
        rng = np.random.default_rng(seed)
        sizes = (INPUTS, *hidden, 1)
        p: dict[str, Any] = {}
        for i in range(len(sizes) - 1):
            w = np.zeros((sizes[i], sizes[i + 1]), dtype=np.float32)
            b = np.zeros(sizes[i + 1], dtype=np.float32)
            r, c = self.w[i].shape
            if i < len(sizes) - 2:  # the new units' inputs: small and random (their outputs are zero below)
                w[:, c:] = rng.normal(0, 0.1 * (2.0 / sizes[i]) ** 0.5, (sizes[i], sizes[i + 1] - c))
            w[:r, :c] = self.w[i]
            b[:c] = self.b[i]
            p[f"w{i}"], p[f"b{i}"] = w, b
        return QNet(p)

    @classmethod
    def random(cls, seed: int = 0, hidden: Sequence[int] = HIDDEN) -> QNet:
        """Untrained weights (He initialisation; a small last layer), for tests and as training's start."""
        rng = np.random.default_rng(seed)
        sizes = (INPUTS, *hidden, 1)
        p: dict[str, Any] = {}
        for i in range(len(sizes) - 1):
            scale = (2.0 / sizes[i]) ** 0.5 * (0.1 if i == len(sizes) - 2 else 1.0)
            p[f"w{i}"] = rng.normal(0, scale, (sizes[i], sizes[i + 1])).astype(np.float32)
            p[f"b{i}"] = np.zeros(sizes[i + 1], dtype=np.float32)
        return cls(p)

    def params(self) -> dict[str, Any]:
        """The weights by name (``w0, b0, …``)."""
        out: dict[str, Any] = {}
        for i in range(len(self.w)):
            out[f"w{i}"], out[f"b{i}"] = self.w[i], self.b[i]
        return out

    def values(self, x: Any) -> Any:
        """The value of each input row."""
        return self._after_first(np.maximum(np.asarray(x, dtype=np.float32) @ self.w[0] + self.b[0], 0.0))

    def action_values(self, state: Any, rows: Any) -> Any:
        """The values of one state's actions: ``values(inputs(state, rows))``, the same up to float rounding, with
        the first layer's state part computed once rather than once per action (the state is 725 of the 836
        inputs, so about 2.3 times less arithmetic for a decision of twenty actions)."""
        w0 = self.w[0]
        h = np.asarray(state, dtype=np.float32) @ w0[:STATE] + self.b[0]
        return self._after_first(np.maximum(np.asarray(rows, dtype=np.float32) @ w0[STATE:] + h, 0.0))

    def batch_action_values(self, states: Any, rows: Any, counts: Sequence[int]) -> Any:
        """The values of several decisions' actions at once: ``states`` one row per decision, ``rows`` their
        action rows one decision after another (``counts[i]`` of decision ``i``).  The same values as
        :meth:`action_values` of each, up to float rounding, in far fewer and larger matrix products.

        >>> import numpy as np
        >>> net = QNet.random(seed=2, hidden=(16, 8))
        >>> r = np.random.default_rng(0)
        >>> st, rows = r.random((2, STATE)), r.random((5, ACTION))
        >>> both = net.batch_action_values(st, rows, [2, 3])
        >>> bool(np.allclose(both, np.concatenate([net.action_values(st[0], rows[:2]),
        ...                                        net.action_values(st[1], rows[2:])]), atol=1e-5))
        True
        """
        w0 = self.w[0]
        h = np.asarray(states, dtype=np.float32) @ w0[:STATE] + self.b[0]
        h = np.repeat(h, np.asarray(counts, dtype=np.int64), axis=0)
        return self._after_first(np.maximum(np.asarray(rows, dtype=np.float32) @ w0[STATE:] + h, 0.0))

    def _after_first(self, h: Any) -> Any:
        """The values from the first hidden layer's output: the other hidden layers, then the linear output."""
        for i in range(1, len(self.w) - 1):
            h = np.maximum(h @ self.w[i] + self.b[i], 0.0)
        return (h @ self.w[-1] + self.b[-1])[:, 0]


ROLE_AT = CARD_SETS * SLOTS
"""Where the state's role (one-hot: landlord, down, up) starts."""

def role_groups(x: Any, groups: Sequence[int]) -> Any:
    """The network index (``groups[role]``) of each row of ``x``: states, or inputs (which start with the
    state), by the state's role one-hot.

    >>> s = np.zeros((2, STATE), dtype=np.float32)
    >>> s[0, ROLE_AT + 2] = s[1, ROLE_AT] = 1.0
    >>> role_groups(s, (0, 1, 1)).tolist()
    [1, 0]
    """
    return np.asarray(groups)[np.argmax(np.asarray(x)[:, ROLE_AT:ROLE_AT + 3], axis=1)]


SPLITS = {"sides": (0, 1, 1), "roles": (0, 1, 2)}
"""Ways to give roles networks of their own (:class:`SplitQNet`): the network of each role (landlord, down,
up): ``sides`` one for the landlord and one for both farmers, ``roles`` one for each role (DouZero's way)."""


class SplitQNet:
    """Action values from a network per group of roles: ``groups[role]`` is the index in ``nets`` of the network
    that values the decisions of that role (landlord 0, down 1, up 2; the role is the state's one-hot).  The same
    calls as :class:`QNet`; its weights file holds ``groups`` and each network's arrays prefixed ``n0.``,
    ``n1.``, ….

    >>> net = SplitQNet.of(QNet.random(seed=1, hidden=(8, 4)), "sides")
    >>> net.groups, len(net.nets), net.hidden()
    ((0, 1, 1), 2, (8, 4))
    >>> SplitQNet(SplitQNet.of(QNet.random(seed=1), "roles").params()).groups
    (0, 1, 2)
    """

    def __init__(self, params: dict[str, Any]) -> None:
        if "groups" not in params:
            raise ValueError("a split action-value network needs its 'groups' (the network of each role)")
        raw = np.asarray(params["groups"], dtype=np.float64).reshape(-1)
        groups = tuple(int(g) if np.isfinite(g) else -1 for g in raw)
        if len(groups) != 3 or any(g != float(r) for g, r in zip(groups, raw, strict=True)) \
                or sorted(set(groups)) != list(range(max(groups, default=-1) + 1)):
            raise ValueError(f"'groups' must name a network for each of the three roles, numbered from 0 with "
                             f"none skipped, got {raw.tolist()}")
        self.groups = groups
        self.nets = []
        for i in range(max(groups) + 1):
            try:
                self.nets.append(QNet({k.removeprefix(f"n{i}."): v for k, v in params.items()
                                       if k.startswith(f"n{i}.")}))
            except ValueError as e:
                raise ValueError(f"network n{i} of the split: {e}") from None

    @classmethod
    def of(cls, net: QNet, split: str) -> SplitQNet:
        """Copies of ``net`` for each group of the split named in :data:`SPLITS` (the same values at first)."""
        if split not in SPLITS:
            raise ValueError(f"unknown split {split!r}: one of {', '.join(SPLITS)}")
        groups = SPLITS[split]
        p: dict[str, Any] = {"groups": np.array(groups, dtype=np.float32)}
        for i in range(max(groups) + 1):
            p.update({f"n{i}.{k}": v.copy() for k, v in net.params().items()})
        return cls(p)

    def hidden(self) -> tuple[int, ...]:
        """Units of the hidden layers of the first network."""
        return self.nets[0].hidden()

    def params(self) -> dict[str, Any]:
        """The weights by name: ``groups``, then ``n0.w0, n0.b0, …`` for each network."""
        out: dict[str, Any] = {"groups": np.array(self.groups, dtype=np.float32)}
        for i, net in enumerate(self.nets):
            out.update({f"n{i}.{k}": v for k, v in net.params().items()})
        return out

    def net_of(self, state: Any) -> QNet:
        """The network that values the decisions of ``state``'s role."""
        return self.nets[int(role_groups(np.asarray(state)[None], self.groups)[0])]

    def values(self, x: Any) -> Any:
        """The value of each input row, each by its role's network."""
        x = np.asarray(x, dtype=np.float32)
        group = role_groups(x, self.groups)
        out = np.zeros(len(x), dtype=np.float32)
        for i, net in enumerate(self.nets):
            rows = group == i
            if rows.any():
                out[rows] = net.values(x[rows])
        return out

    def action_values(self, state: Any, rows: Any) -> Any:
        """The values of one state's actions, by its role's network (:meth:`QNet.action_values`)."""
        return self.net_of(state).action_values(state, rows)

    def batch_action_values(self, states: Any, rows: Any, counts: Sequence[int]) -> Any:
        """:meth:`QNet.batch_action_values`, each decision by its role's network."""
        states = np.asarray(states, dtype=np.float32)
        rows = np.asarray(rows, dtype=np.float32)
        n = np.asarray(counts, dtype=np.int64)
        group = role_groups(states, self.groups)
        row_group = np.repeat(group, n)
        out = np.zeros(len(rows), dtype=np.float32)
        for i, net in enumerate(self.nets):
            mine, mine_rows = group == i, row_group == i
            if mine.any():
                out[mine_rows] = net.batch_action_values(states[mine], rows[mine_rows], n[mine])
        return out


ActionValues = QNet | SplitQNet
"""A network the bot plays: one for every role, or one per group of roles."""


def qnet_of(params: dict[str, Any]) -> ActionValues:
    """The network of a weights file's arrays: a :class:`SplitQNet` when they name ``groups``, else a
    :class:`QNet`."""
    return SplitQNet(params) if "groups" in params else QNet(params)


_LOADED: dict[str, ActionValues] = {}


def load_qnet(path: str | Path | None = None) -> ActionValues:
    """The committed network (or the one at ``path``), loaded once per process."""
    key = str(path) if path is not None else ""
    net = _LOADED.get(key)
    if net is None:
        net = _LOADED[key] = qnet_of(read_weights(path, WEIGHTS_FILE))
    return net


# ------------------------------------------------------------------------------------------------ the bot
def most_valued(values: Sequence[float], k: int) -> list[int]:
    """The indices of the ``k`` highest ``values``, highest first (ties: the earlier first).

    >>> most_valued([0.1, 0.5, 0.1, 0.9], 3)
    [3, 1, 0]
    """
    return sorted(range(len(values)), key=lambda i: (-float(values[i]), i))[:k]


OTHERS = ("heuristic", "search")
"""Who plays the tables the network was not trained for (:attr:`DmcBot.other`)."""


NET_ODDS_SAMPLES = 32
"""Kitties a hand's :func:`landlord_value` deals it."""


def opening_values(net: ActionValues, deals: Sequence[tuple[Sequence[int], Sequence[int]]], rules: Rules) -> Any:
    """The landlord's value of its best opening lead (the expected result in ``[-1, 1]``) for each ``(hand,
    kitty)``: the landlord's whole hand, the kitty in it, as rank counts; all valued in one batch."""
    deck = [rules.decks * (1 if r >= 13 else 4) for r in range(NUM_RANKS)]
    per = rules.hand_size
    states, rows, counts = [], [], []
    for hand, kitty in deals:
        mine = tuple(hand)
        unseen = [d - m for d, m in zip(deck, mine, strict=True)]
        leads: list[Move | None] = list(legal_moves(mine, rules))
        states.append(state_vector(0, mine, unseen, kitty if rules.kitty_visible else _ZERO, [_ZERO] * 3, [],
                                   None, -1, [per + rules.kitty_size, per, per], 0))
        rows.append(action_rows(mine, leads))
        counts.append(len(leads))
    values = net.batch_action_values(np.stack(states), np.concatenate(rows), counts)
    at = np.cumsum([0, *counts])
    return np.array([values[at[i]:at[i + 1]].max() for i in range(len(deals))], dtype=np.float64)


def _three_trained(rules: Rules) -> None:
    if rules.players != 3 or not trained_for(rules):
        raise ValueError("the learned values are for the three-player tables the network was trained for")


def landlord_value(net: ActionValues, hand: Sequence[int], rules: Rules, rng: random.Random,
                   samples: int = NET_ODDS_SAMPLES) -> float:
    """The network's own chance of winning this (dealt) hand as landlord: ``samples`` times a kitty dealt at
    random from the cards the hand does not hold, the landlord's value of its best opening lead (the expected
    result in ``[-1, 1]``, so the chance is ``(1 + v) / 2``; :func:`opening_values`), averaged.  No play-out: the
    values already are what the network's self-play won from such positions, so bids follow the strong bot's
    own odds (``dmc``'s ``bid=net``; its self-play confirms them: a fit of its wins on 3,000 deals is
    ``σ(−0.013 + 1.025·logit(p))``).  Three-player tables the network was trained for (:func:`trained_for`).

    >>> from qipai.games.doudizhu.rules import PRESETS
    >>> from qipai.games.doudizhu.bots.view import counts_of_text
    >>> net, rules = load_qnet(), PRESETS["classic"]
    >>> strong = landlord_value(net, counts_of_text("3456789TJQKAA22BR"), rules, random.Random(1))
    >>> weak = landlord_value(net, counts_of_text("334466889TTJJQ579"), rules, random.Random(1))
    >>> strong > 0.5 > weak
    True
    """
    _three_trained(rules)
    deck = [rules.decks * (1 if r >= 13 else 4) for r in range(NUM_RANKS)]
    rest = [r for r in range(NUM_RANKS) for _ in range(deck[r] - hand[r])]
    deals = []
    for _ in range(samples):
        kitty = [0] * NUM_RANKS
        for r in rng.sample(rest, rules.kitty_size):
            kitty[r] += 1
        deals.append(([h + c for h, c in zip(hand, kitty, strict=True)], kitty))
    return float(np.clip((1.0 + opening_values(net, deals, rules).mean()) / 2.0, 0.0, 1.0))


def side_value(net: ActionValues, v: View, kitty: Sequence[int] | None, rng: random.Random,
               samples: int = NET_ODDS_SAMPLES, called: bool = False) -> float:
    """The network's chance that this seat's side wins, before the first lead (the doubling phase): the
    landlord's value of its best opening lead, for the landlord its own hand, for a farmer over ``samples``
    landlord hands dealt from the cards it cannot see (the shown kitty in each), as ``(1 ± v) / 2``.  ``called``:
    a farmer keeps only the hands the network would have bid on (:func:`_would_have_bid`: the landlord bid, so
    its hand is no random one; with a hidden kitty, every hand)."""
    _three_trained(v.rules)
    if v.landlord is None:
        raise ValueError("the side's odds are for a deal whose landlord is known")
    shown = list(kitty) if kitty is not None else [0] * NUM_RANKS
    if v.seat == v.landlord:
        return float(np.clip((1.0 + opening_values(net, [(v.hand, shown)], v.rules)[0]) / 2.0, 0.0, 1.0))
    pool = [r for r in range(NUM_RANKS) for _ in range(v.unseen[r] - shown[r])]
    deals = []
    for _ in range(samples * (CALLED_DRAWS if called else 1)):
        hand = list(shown)
        for r in rng.sample(pool, v.rules.hand_size + v.rules.kitty_size - sum(shown)):
            hand[r] += 1
        deals.append((hand, shown))
    if called and sum(shown) == v.rules.kitty_size:
        deals = _would_have_bid(net, deals, v.rules, rng)[:samples]
    return float(np.clip((1.0 - opening_values(net, deals, v.rules).mean()) / 2.0, 0.0, 1.0))


CALLED_DRAWS = 3
"""Landlord hands a farmer's :func:`side_value` draws for each one it keeps when it weighs the bidding."""


def _would_have_bid(net: ActionValues, deals: list[tuple[list[int], list[int]]], rules: Rules,
                    rng: random.Random, kitties: int = 4) -> list[tuple[list[int], list[int]]]:
    """The sampled landlord hands whose dealt cards (the hand less the shown kitty) the network would have bid
    on (its :func:`landlord_value` over ``kitties`` kitties at least the lowest bid's ``BID_AT[0]``): the hands a
    landlord who took the kitty by bidding may hold.  All of them when too few pass (under a quarter)."""
    from .bidding import BID_AT

    deck = [rules.decks * (1 if r >= 13 else 4) for r in range(NUM_RANKS)]
    trial = []
    for hand, kitty in deals:
        dealt = [h - k for h, k in zip(hand, kitty, strict=True)]
        rest = [r for r in range(NUM_RANKS) for _ in range(deck[r] - dealt[r])]
        for _ in range(kitties):
            extra = [0] * NUM_RANKS
            for r in rng.sample(rest, rules.kitty_size):
                extra[r] += 1
            trial.append(([d + e for d, e in zip(dealt, extra, strict=True)], extra))
    odds = (1.0 + opening_values(net, trial, rules).reshape(len(deals), kitties).mean(axis=1)) / 2.0
    kept = [d for d, p in zip(deals, odds, strict=True) if p >= BID_AT[0]]
    return kept if len(kept) * 4 >= len(deals) else deals


def trained_for(rules: Rules) -> bool:
    """Whether the network knows this table: three players, one deck, a kitty of three (what self-play plays;
    the kinds and straight lengths may differ, the legal moves are the engine's).

    >>> from qipai.games.doudizhu.rules import PRESETS
    >>> [p for p in sorted(PRESETS) if not trained_for(PRESETS[p])]
    ['four_player', 'four_player_show']
    """
    return rules.players == 3 and rules.decks == 1 and rules.kitty_size == 3


class DmcBot:
    """Plays the legal action of the highest learned value, from what the seat may see, or with rollouts the
    one of its best that wins most often played out.  Tables it was not trained for (:func:`trained_for`: four
    players, two decks) are played by the ``heuristic`` bot, or the ``search`` bot (``other="search"``, with
    ``search_time`` seconds a move and the same bidding).  Deterministic, except that rollouts within a time
    budget play as many deals as the time allows (``samples`` fixes the number)."""

    name = "dmc"

    def __init__(self, seed: int = 0, net: ActionValues | None = None, candidates: int = 0, defer: float = 0.0,
                 search_cards: int = 0, search_time: float = 1.0, rollouts: float = 0.0, top: int = ROLLOUT_TOP,
                 samples: int = 0, clock: str = "wall", margin: float = 0.0, depth: int = 0,
                 bidding: str = "heuristic", other: str = "heuristic", blend: float = 0.0) -> None:
        if bidding not in ("heuristic", "odds", "net", "netdouble"):
            raise ValueError(f"dmc bidding must be heuristic, odds, net or netdouble, not {bidding!r}")
        if other not in OTHERS:
            raise ValueError(f"dmc other must be one of {', '.join(OTHERS)}, not {other!r}")
        if not 0.0 <= blend <= 4.0:
            raise ValueError(f"dmc blend must be in [0, 4], not {blend}")
        if rollouts < 0 or samples < 0 or top < 2 or not 0.0 <= margin < 1.0 or depth < 0:
            raise ValueError(f"dmc rollouts need a time, samples and depth of at least 0, top of at least 2 and a "
                             f"margin in [0, 1), not {rollouts}, {samples}, {depth}, {top} and {margin}")
        if clock not in CLOCKS:
            raise ValueError(f"dmc clock must be one of {', '.join(sorted(CLOCKS))}, not {clock!r}")
        self.seed = seed
        self.rollouts = rollouts
        """Seconds a decision for rollouts (0: none, unless :attr:`samples`): the :attr:`top` most valued moves
        are each played out on sampled deals, every seat playing the network's greedy move, and the move that
        wins most often is played (one step of policy improvement over the network)."""
        self.top = top
        self.depth = depth
        """Decisions a play-out goes on before the network values it (0: to the end of the deal)."""
        self.margin = margin
        """How much more often another move must win in the rollouts than the network's choice to be played."""
        self.blend = blend
        """Weight of the network's own values beside the rollouts' win rates when they are compared: each
        candidate is scored ``win rate + blend × (its value − the network's choice's value) / 2`` (0: the
        rollouts alone)."""
        self.samples = samples
        """Sampled deals a decision for rollouts, instead of a time (reproducible)."""
        self.clock = CLOCKS[clock]
        self._rng = random.Random(seed)
        self.net = net if net is not None else load_qnet()
        self.candidates = candidates
        """Weigh only the :func:`shortlist` of this many moves (0: every legal action)."""
        self.defer = defer
        """Play the ``heuristic`` bot's choice when its value is within this much of the best (0: never)."""
        self.search_cards = search_cards
        """Hand the decisions with at most this many cards in all hands together to the ``search`` bot (with
        :attr:`search_time` seconds a move; 0: never)."""
        self.bidding = bidding
        """How bids are chosen: ``heuristic`` (the hand-strength rules), ``odds`` (:func:`~.bidding.odds_bid`,
        within the rollouts' time or :attr:`search_time` a bid), ``net`` (the network's own odds,
        :func:`landlord_value`, on the tables it was trained for; elsewhere ``odds``) or ``netdouble`` (``net``,
        and doubling from its side's odds, :func:`side_value`: measured weaker than the heuristic's doubling,
        docs/bots.md)."""
        self.other = other
        """Who plays the tables the network was not trained for: ``heuristic`` or ``search``."""
        self.search_time = search_time
        self._fallback = HeuristicBot(seed)
        self._search: Any = None
        if search_cards:
            from .search import SearchBot

            self._search = SearchBot(seed, time_budget=search_time)
        self._other: Any = None
        if other == "search":
            from .search import SearchBot

            self._other = SearchBot(seed, time_budget=search_time, clock=clock,
                                    bidding="odds" if bidding in ("net", "netdouble") else bidding)
        self.last_values: dict[str, float] = {}
        self.last_rollouts: dict[str, float] = {}
        self.last_samples = 0

    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        """Choose one of ``legal_actions``."""
        if self._other is not None and len(legal_actions) > 1 and not trained_for(rules_of(observation)):
            return str(self._other.act(observation, legal_actions))
        phase = observation.get("phase")
        if self.bidding in ("net", "netdouble") and phase in ("bid", "double") and len(legal_actions) > 1:
            rules = rules_of(observation)
            if rules.players == 3 and trained_for(rules):
                from .bidding import DOUBLE_AT, bid_for

                if phase == "bid":
                    hand = counts_of_tokens(observation.get("hand") or [])
                    return bid_for(landlord_value(self.net, hand, rules, self._rng), legal_actions)
                if self.bidding == "netdouble":
                    kitty = observation.get("kitty")
                    p = side_value(self.net, read_view(observation),
                                   counts_of_tokens(list(kitty)) if kitty else None, self._rng, called=True)
                    verb = next((a for a in legal_actions if a != "pass"), "pass")
                    return verb if p >= DOUBLE_AT else "pass"
        if self.bidding != "heuristic" and phase == "bid" and len(legal_actions) > 1:
            from .bidding import odds_bid

            budget = self.rollouts or self.search_time
            return odds_bid(observation, legal_actions, self._rng, deadline=(self.clock, self.clock() + budget))
        easy = outside_play(observation, legal_actions)
        if easy is not None:
            return easy
        v = read_view(observation)
        if not trained_for(v.rules) or v.landlord is None:
            return self._fallback.act(observation, legal_actions)
        if self._search is not None and sum(v.card_counts) <= self.search_cards:
            self.last_values = {}
            return str(self._search.act(observation, legal_actions))
        moves = action_moves(legal_actions, v.rules)
        actions = card_actions(legal_actions, moves)
        if not actions:
            return self._fallback.act(observation, legal_actions)
        if self.candidates and len(actions) > self.candidates:
            short = shortlist(situation_of(v), self.candidates)
            idx = sorted({index_of(m, [moves.get(a) for a in actions]) for m in short})
            actions = [actions[i] for i in idx]
        vals = self.values(v, observation.get("kitty"), [moves.get(a) for a in actions])
        self.last_values = {a: float(vals[i]) for i, a in enumerate(actions)}
        best = most_valued(vals, 1)[0]
        if (self.rollouts > 0 or self.samples > 0) and len(actions) > 1:
            order = most_valued(vals, self.top)
            wins = self.rollout_wins(v, observation.get("kitty"), [moves.get(actions[i]) for i in order])
            self.last_rollouts = {actions[i]: w for i, w in zip(order, wins, strict=True)}
            score = [w + self.blend * (float(vals[i]) - float(vals[order[0]])) / 2.0
                     for w, i in zip(wins, order, strict=True)]
            k = max(range(len(order)), key=lambda k: (score[k], -k))
            return actions[order[k] if score[k] > score[0] + self.margin else order[0]]
        if self.defer > 0:
            mine = index_of(choose_play(situation_of(v)), [moves.get(a) for a in actions])
            if float(vals[mine]) >= float(vals[best]) - self.defer:
                return actions[mine]
        return actions[best]

    def act_quickly(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        """The answer in about a millisecond, for a server that is behind
        (:func:`~qipai.host.botpool.act_in_hurry`): the learned values alone, without rollouts or search; bids
        and the tables the network was not trained for by the heuristic."""
        saved = (self.rollouts, self.samples, self.bidding, self._other, self._search)
        self.rollouts, self.samples, self.bidding, self._other, self._search = 0.0, 0, "heuristic", None, None
        try:
            return self.act(observation, legal_actions)
        finally:
            self.rollouts, self.samples, self.bidding, self._other, self._search = saved

    def estimate(self, observation: dict[str, Any], legal_actions: list[str],
                 include: list[str] | None = None) -> dict[str, float]:
        """This seat's side's estimated win probability after each of the network's :attr:`top` most valued
        actions (and each action of ``include``): the share of the same sampled deals each wins played out by
        the network at every seat (:meth:`rollout_wins`; :attr:`samples` of them, 200 if the bot has a time
        budget instead).  Play phase of a table the network was trained for only (:func:`trained_for`)."""
        if observation.get("phase") != "play":
            raise ValueError("estimates are for the play phase")
        v = read_view(observation)
        if not trained_for(v.rules) or v.landlord is None:
            raise ValueError("dmc estimates are for the three-player, one-deck tables the network was trained for")
        moves = action_moves(legal_actions, v.rules)
        actions = card_actions(legal_actions, moves)
        if not actions:
            raise ValueError("no legal play to estimate")
        vals = self.values(v, observation.get("kitty"), [moves.get(a) for a in actions])
        cands = [actions[i] for i in most_valued(vals, self.top)]
        cands += [a for a in dict.fromkeys(include or []) if a in actions and a not in cands]
        wins = self.rollout_wins(v, observation.get("kitty"), [moves.get(a) for a in cands], self.samples or 200)
        return dict(zip(cands, wins, strict=True))

    def values(self, v: View, kitty: Sequence[str] | None, moves: Sequence[Move | None]) -> Any:
        """The network's value of each of ``moves`` (``None`` passes) from the seat's view ``v``."""
        return self.net.action_values(view_state(v, kitty), action_rows(v.hand, moves))

    def sampler(self, v: View) -> Sampler:
        """Where the rollouts' deals come from: the search's :class:`~.search.Sampler` (every deal consistent
        with what this seat has seen)."""
        return Sampler(v, self._rng)

    def rollout_wins(self, v: View, kitty: Sequence[str] | None, cands: Sequence[Move | None],
                     samples: int = 0) -> list[float]:
        """The share of sampled deals each candidate move wins, played out by the network at every seat (greedy,
        side by side, :func:`play_out`, to the end or :attr:`depth` decisions on); every candidate on the same
        deals: ``samples`` of them (0: :attr:`samples`, or as many as :attr:`rollouts` seconds allow)."""
        assert v.landlord is not None
        sampler = self.sampler(v)
        role = (v.seat - v.landlord) % 3
        wins = [0.0] * len(cands)
        n = 0
        deadline = self.clock() + self.rollouts
        samples = samples or self.samples
        limit = samples or 1_000_000
        while n < limit:
            block = min(ROLLOUT_BLOCK, limit - n)
            games = []
            for _ in range(block):
                hands = sampler.deal()
                games += [view_steps(v, kitty, hands) for _ in cands]
            results = play_out(self.net, games, [m for _ in range(block) for m in cands], self.depth)
            for j, w in enumerate(results):
                wins[j % len(cands)] += w if role == 0 else 1.0 - w
            n += block
            if not samples and self.clock() >= deadline:
                break
        self.last_samples = n
        return [w / n for w in wins]


def view_steps(v: View, kitty: Sequence[str] | None,
               hands: Sequence[Sequence[int]]) -> Generator[Decision, int, int]:
    """:func:`play_steps` from a seat's view of the three-player play phase, every seat's hand (by seat) as
    ``hands`` (a sampled deal; ``kitty`` the observation's shown kitty cards, if any): its first decision is
    the view's, with the same state as :func:`view_state`.  Seats in its decisions are by role."""
    ll = v.landlord
    if ll is None or v.players != 3:
        raise ValueError("rollouts are for three-player games after the landlord is known")
    by_role = [(ll + k) % 3 for k in range(3)]
    kc = counts_of_tokens(list(kitty)) if kitty else [0] * NUM_RANKS
    return play_steps([hands[s] for s in by_role], kc, v.rules, [v.played[s] for s in by_role],
                      [None if ev.move is None else ev.move.counts for ev in v.plays], v.last,
                      -1 if v.last is None else (v.last_by - ll) % 3, v.bombs_played, (v.seat - ll) % 3)


def play_out(net: ActionValues, games: Sequence[Generator[Decision, int, int]], firsts: Sequence[Move | None],
             depth: int = 0) -> list[float]:
    """Play each game (a :func:`play_steps` not yet started) from its first decision, where it plays
    ``firsts[j]``, on to the end, every seat the network's greedy move, the games side by side (each step's
    decisions valued in one batch).  Returns the landlord's result in each: 1 a win, 0 a loss; with ``depth``
    above 0 a game still going after that many more decisions stops there, valued by the network (the highest
    value of the decision then, as the landlord's win probability)."""
    result = [-1.0] * len(games)
    at: dict[int, Decision] = {}
    for j, g in enumerate(games):
        d = next(g)
        try:
            at[j] = g.send(index_of(firsts[j], d.moves))
        except StopIteration as done:
            result[j] = float(done.value == 0)
    step = 0
    while at:
        step += 1
        cut = 0 < depth < step
        chosen = {j: 0 for j, d in at.items() if len(d.moves) <= 1 and not cut}
        want = [j for j, d in at.items() if len(d.moves) > 1 or cut]
        if want:
            vals, counts = decision_values(net, [at[j] for j in want])
            start = 0
            for j, c in zip(want, counts, strict=True):
                chosen[j] = int(np.argmax(vals[start:start + c]))
                if cut:  # the acting side's expected result, as the landlord's chance
                    p = (min(1.0, max(-1.0, float(vals[start + chosen[j]]))) + 1.0) / 2.0
                    result[j] = p if at[j].seat == 0 else 1.0 - p
                start += c
        if cut:
            break
        for j in list(at):
            try:
                at[j] = games[j].send(chosen[j])
            except StopIteration as done:
                result[j] = float(done.value == 0)
                del at[j]
    return result


def dmc_bot(seed: int, weights: str | Path | None = None, candidates: int = 0, defer: float = 0.0,
            search_cards: int = 0, search_time: float = 1.0, rollouts: float = 0.0, top: int = ROLLOUT_TOP,
            samples: int = 0, clock: str = "wall", margin: float = 0.0, depth: int = 0, bidding: str = "heuristic",
            other: str = "heuristic", blend: float = 0.0) -> DmcBot:
    """A bot over the committed weights (or the file ``weights``), weighing every legal action or only a
    shortlist of ``candidates``, deferring to the heuristic's choice within ``defer`` of the best value,
    leaving the decisions with at most ``search_cards`` cards in all hands to the ``search`` bot, and comparing
    its ``top`` moves by ``rollouts`` seconds (or ``samples`` deals) of play-outs, bidding by ``bidding`` and
    leaving the tables it was not trained for to ``other`` (:class:`DmcBot`)."""
    return DmcBot(seed, load_qnet(weights), candidates, defer, search_cards, search_time, rollouts, top, samples,
                  clock, margin, depth, bidding, other, blend)


# ------------------------------------------------------------------------------------------------ self-play
@dataclass(slots=True)
class Decision:
    """One decision of a self-play game (:func:`self_play`): the seat, the legal actions (``None`` passes), the
    seat's hand and what it cannot see, and the input state."""

    seat: int
    moves: list[Move | None]
    hand: tuple[int, ...]
    pool: tuple[int, ...]
    left: list[int]
    last: Move | None
    last_by: int
    landlord: int
    rules: Rules
    args: StateArgs
    """The arguments of :func:`state_vector` for :attr:`state`."""
    cached: Any = None

    @property
    def state(self) -> Any:
        """The input state (:func:`state_vector`), computed on first use (:func:`fill_states` computes many
        decisions' together)."""
        if self.cached is None:
            self.cached = state_vector(*self.args)
        return self.cached

    def situation(self) -> Situation:
        """The heuristic's :class:`~qipai.games.doudizhu.bots.heuristic.Situation` of this decision."""
        return Situation(self.rules, self.seat, 3, self.landlord, self.hand, self.left, self.last, self.last_by,
                         self.pool)

    def heuristic(self) -> int:
        """The index of the ``heuristic`` bot's choice among :attr:`moves`."""
        return index_of(choose_play(self.situation()), self.moves)

    def candidates(self, k: int) -> list[int]:
        """The indices of at most ``k`` candidate moves (:func:`shortlist`); all of them when ``k`` is 0."""
        if not k or len(self.moves) <= k:
            return list(range(len(self.moves)))
        return [index_of(m, self.moves) for m in shortlist(self.situation(), k)]


def decision_values(net: ActionValues, decisions: Sequence[Decision]) -> tuple[Any, list[int]]:
    """The network's value of every move of each of ``decisions``, valued in one batch: the values one after
    the other (each decision's moves in their order) and the number of each decision's moves."""
    counts = [len(d.moves) for d in decisions]
    rows = action_rows(np.repeat(np.array([d.hand for d in decisions]), counts, axis=0),
                       [m for d in decisions for m in d.moves])
    return net.batch_action_values(fill_states(decisions), rows, counts), counts


def fill_states(decisions: Sequence[Decision]) -> Any:
    """The input states of ``decisions`` stacked, those not yet computed computed together
    (:func:`state_vectors`)."""
    need = [d for d in decisions if d.cached is None]
    if need:
        for d, x in zip(need, state_vectors([d.args for d in need]), strict=True):
            d.cached = x
    return np.stack([d.cached for d in decisions])


def index_of(m: Move | None, moves: Sequence[Move | None]) -> int:
    """The index of ``m`` among ``moves`` (by its cards; a pass, or the first move, when it is not there)."""
    for i, g in enumerate(moves):
        if g is m or (g is not None and m is not None and g.counts == m.counts):
            return i
    return moves.index(None) if None in moves else 0


def shortlist(s: Situation, k: int) -> list[Move | None]:
    """At most ``k`` moves worth weighing: the heuristic's choice, then when leading the plays of its plan,
    when answering passing, the highest answer, the smallest bomb and the other answers from the lowest (the
    play-out policy's candidates, :func:`~qipai.games.doudizhu.bots.playout.candidates`)."""
    return candidates(s, k)


Chooser = Callable[[Decision], int]
"""A self-play policy: the index of the move to play among ``decision.moves``."""


def self_play(hands: Sequence[Sequence[int]], kitty: Sequence[int], rules: Rules, choose: Chooser,
              record: Callable[[Decision, int], None] | None = None, max_moves: int = 400) -> int:
    """Play a three-player deal (seat 0 the landlord, its hand with the kitty in it; ``kitty`` shown) with
    ``choose`` at every seat (asked only where there is a choice); ``record(decision, index)`` sees every
    decision.  Returns the seat that went out.  The states are the ones :func:`view_state` makes from the seats'
    observations of the same game."""
    steps = self_play_steps(hands, kitty, rules, max_moves)
    d = next(steps)
    while True:
        i = choose(d) if len(d.moves) > 1 else 0
        if record is not None:
            record(d, i)
        try:
            d = steps.send(i)
        except StopIteration as done:
            return int(done.value)


def self_play_steps(hands: Sequence[Sequence[int]], kitty: Sequence[int], rules: Rules,
                    max_moves: int = 400) -> Generator[Decision, int, int]:
    """:func:`self_play` as a generator: it yields each decision, is sent the index of the move played, and
    returns the seat that went out (so that many games can be played side by side, their decisions valued
    together)."""
    return play_steps(hands, kitty, rules, max_moves=max_moves)


def play_steps(hands: Sequence[Sequence[int]], kitty: Sequence[int], rules: Rules,
               played: Sequence[Sequence[int]] | None = None, history: Sequence[Sequence[int] | None] = (),
               last: Move | None = None, last_by: int = -1, bombs: int = 0, seat: int = 0,
               max_moves: int = 400) -> Generator[Decision, int, int]:
    """:func:`self_play_steps` from any position of the play phase, seats by role (0 the landlord): ``hands``
    the cards each seat holds now, ``played`` what each has played, ``history`` the play phase's decisions in
    order (``None`` a pass), ``last`` the move to beat and ``last_by`` its seat (``-1``: leading), ``bombs``
    the bombs and rockets played, ``seat`` the one to act (a rollout from a sampled deal,
    :class:`DmcBot`'s ``rollouts``)."""
    hs = [list(h) for h in hands]
    total = [sum(h[r] for h in hs) for r in range(NUM_RANKS)]
    spent = [list(p) for p in played] if played is not None else [[0] * NUM_RANKS for _ in range(3)]
    left = [sum(h) for h in hs]
    hist: list[tuple[int, ...] | None] = [None if m is None else tuple(m) for m in history]
    kitty_left = [max(0, kitty[r] - spent[0][r]) for r in range(NUM_RANKS)]
    for _ in range(max_moves):
        hand = tuple(hs[seat])
        moves: list[Move | None] = list(legal_moves(hand, rules, last))
        if last is not None:
            moves.append(None)
        pool = tuple(t - x for t, x in zip(total, hand, strict=True))
        now = list(left)
        args = (seat, hand, pool, kitty_left, [list(p) for p in spent], hist[:-HISTORY - 1:-1],
                None if last is None else last.counts, last_by, now, bombs)
        d = Decision(seat=seat, moves=moves, hand=hand, pool=pool, left=now, last=last,
                     last_by=last_by, landlord=0, rules=rules, args=args)
        i = yield d
        m = moves[i]
        nxt = (seat + 1) % 3
        if m is None:
            hist.append(None)
            if nxt == last_by:
                last, last_by = None, -1
        else:
            hist.append(m.counts)
            for r, k in m.parts:
                hs[seat][r] -= k
                total[r] -= k
                spent[seat][r] += k
            left[seat] -= m.size
            if seat == 0:
                kitty_left = [max(0, kitty[r] - spent[0][r]) for r in range(NUM_RANKS)]
            if m.is_bomb:
                bombs += 1
            if left[seat] == 0:
                return seat
            last, last_by = m, seat
        seat = nxt
    raise RuntimeError("self-play game did not finish")


__all__ = ["ACTION", "HIDDEN", "INPUTS", "OTHERS", "ROLE_AT", "SPLITS", "STATE", "ActionValues", "Chooser",
           "Decision", "DmcBot", "QNet", "SplitQNet", "StateArgs", "action_rows", "decision_values", "dmc_bot",
           "fill_states",
           "index_of", "inputs", "load_qnet", "most_valued", "planes", "play_out", "play_steps", "qnet_of",
           "role_groups", "self_play", "self_play_steps", "shortlist", "state_vector", "state_vectors", "trained_for",
           "view_state", "view_steps"]
