"""The ``state`` message text a table sends: the spliced encoding (shared part once per version) says exactly what
the plain encoding of each seat's view says, for every preset, seat and spectator, and for a game that does not
split its observation."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from typing import Any

import pytest

from qipai.games.doudizhu.factory import FACTORY
from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game
from qipai.host.jsonenc import dumps
from qipai.host.settings import Settings
from qipai.host.table import Table
from qipai.store import TableInfo

from toygames import CountFactory, CountGame


def make_table(game: Any, players: int) -> Table:
    factory: Any = CountFactory if isinstance(game, CountGame) else FACTORY
    info = TableInfo("t1", factory.info.name, None, {}, False, None, "passive", "heuristic", 0, None)
    lobby = SimpleNamespace(settings=Settings(), storage_ok=True)
    t = Table(lobby, info, factory, players, fill_bots_after=None)  # type: ignore[arg-type]
    t.now = lambda: 100.0  # type: ignore[method-assign]
    t.game = game
    t.deal_id = 7
    return t


def plain(t: Table, seat: int | None) -> dict[str, Any]:
    view = t.state_view(seat)
    assert view is not None
    return json.loads(dumps({"type": "state", **view}))  # type: ignore[no-any-return]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_spliced_state_equals_each_seats_view(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(preset)
    g = Game.new(rules, seed=rng.randrange(1 << 30))
    t = make_table(g, rules.players)
    steps = 0
    while True:
        for seat in [*range(rules.players), None]:
            body = t.state_body(seat)
            assert body is not None
            got = json.loads(body)
            assert got == plain(t, seat)
            assert got["observation"]["seat"] == seat
            if seat is None:
                assert got["observation"]["hand"] is None
            else:
                assert got["observation"]["hand"] == [str(c) for c in g.hands[seat]]
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
        t.version += 1
        steps += 1
    assert steps > 3


def test_observation_parts_are_disjoint_and_shared() -> None:
    g = Game.new(PRESETS["classic"], seed=11)
    rng = random.Random(3)
    while not g.is_over:
        parts = [g.observe_parts(s) for s in (0, 1, 2, None)]
        shared = parts[0][0]
        for s, (sh, own) in zip((0, 1, 2, None), parts, strict=True):
            assert sh is shared
            assert not set(sh) & set(own)
            assert {**sh, **own} == g.observe(s)
        g.apply(rng.choice(g.legal_actions()))
    # the next version builds a new shared part
    assert g.observe_parts(0)[0] is not shared


def test_a_game_without_split_observations_is_sent_whole() -> None:
    g = CountGame(5)
    t = make_table(g, 3)
    for seat in (0, 1, 2, None):
        body = t.state_body(seat)
        assert body is not None
        got = json.loads(body)
        assert got == plain(t, seat)
        assert got["observation"]["secret"] == (None if seat is None else g.secrets[seat])
