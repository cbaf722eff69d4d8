"""The ``hard`` level (:class:`qipai.games.shengji.bots.hard.HardBot`): a level of the game, legal on any position,
and better than the rule bot where its wider choice of follows matters."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shengji_helpers import recorded_position

from qipai.bots import get_bot
from qipai.games.shengji import FACTORY
from qipai.games.shengji.bots import BOTS, HardBot
from qipai.games.shengji.cards import parse_cards
from qipai.games.shengji.combos import read_lead, trick_winner
from qipai.games.shengji.game import ShengjiGame


def test_hard_is_a_level() -> None:
    assert FACTORY.info.levels == ("easy", "normal", "hard")
    assert isinstance(get_bot("hard", 3, game="shengji"), HardBot)
    assert all(level in BOTS for level in FACTORY.info.levels)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), mix=st.lists(st.sampled_from(["random", "rule", "hard", "passive"]),
                                                      min_size=4, max_size=4))
def test_hard_answers_legally_everywhere(seed: int, mix: list[str]) -> None:
    """A whole hand with the ``hard`` bot asked at every decision of every seat (whoever then plays): each answer
    is legal — in the windows one of the listed actions, in play one the game accepts (the list there is partial)."""
    g = ShengjiGame({}, seed)
    hard = [BOTS["hard"](seed + s) for s in range(4)]
    others = [BOTS[name](seed * 4 + s) for s, name in enumerate(mix)]
    while not g.is_over:
        s = g.acting[0]
        legal = g.legal_actions(s)
        a = hard[s].act(json.loads(json.dumps(g.observe(s))), legal)
        if g.phase in ("deal", "final"):
            assert a in legal
        else:
            assert g.check(a, s) is None, (a, g.check(a, s))
        g.apply(others[s].act(g.observe(s), legal), s)
    assert g.outcome() is not None


def test_hard_wins_a_trick_cheaply_where_normal_spends_a_big_joker() -> None:
    """Seed 104 at its 928th action (the rule bots' own deal): ♣K led, ♣K, then an opponent trumps with ♥5
    (hearts are trumps) — 25 points on the trick; the last seat takes it with its big joker as ``normal`` (its
    follows are only its lowest card and its highest trump).  ``hard`` takes it as surely with a small trump and
    keeps the joker."""
    g, _rec, seat = recorded_position("shengji_hard_wins_cheaply")
    obs = g.observe(seat)
    assert seat == 2 and [p for _, p in obs["trick"]] == ["KC", "KC", "5H"] and obs["trump"] == "H", obs
    legal = g.legal_actions(seat)
    normal = get_bot("normal", 0, game="shengji").act(obs, legal)
    hard = get_bot("hard", 0, game="shengji").act(obs, legal)
    assert normal == "play R"
    assert g.check(hard, seat) is None and "R" not in hard.split() and "B" not in hard.split(), hard
    o = g.order
    assert o is not None
    plays = [parse_cards(p) for _, p in obs["trick"]] + [parse_cards(hard[5:])]
    assert trick_winner(read_lead(plays[0], o), plays, o) == 3  # it wins the trick all the same
    g.apply(hard, seat)
    assert g.observe(seat)["last_trick"]["winner"] == seat
