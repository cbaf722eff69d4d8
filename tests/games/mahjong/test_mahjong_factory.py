"""The factory and its GameInfo: options of §10 declared with types and ranges, the preset, the match from deal to
deal (the dealer, §2.2), levels as titles (§8)."""

from __future__ import annotations

import dataclasses

import pytest

from qipai.core.game import GameFactory, GameInfo
from qipai.core.options import OptionError
from qipai.games.mahjong import FACTORY, MahjongFactory
from qipai.games.mahjong.rules import DAQING, OPTIONS, Rules

SECTION_10 = {
    "first_dealer": "random", "base": 1, "hu_requires_ting": True, "auto_hu": True, "ting_claim_first": True,
    "ready_feeder_pays": "all_three", "need_sequence": False, "bu_jia_bu_hu": False, "jia_37": False,
    "dan_diao_jia": False, "zhi_dui": False, "hongzhong_wild": False, "gua_da_feng": False, "dai_lou": False,
    "turn_seconds": 15, "claim_seconds": 8,
}


def test_info() -> None:
    info = FACTORY.info
    assert isinstance(info, GameInfo)
    assert info.name == "mahjong" and info.titles == {"zh": "大庆麻将", "en": "Daqing mahjong"}
    assert (info.min_players, info.max_players) == (4, 4)
    assert info.phases == ("play", "claim", "over")
    assert info.presets == ("daqing",)
    assert info.zero_sum and info.simultaneous and info.complete_legal
    assert set(info.bots) == {"random", "passive", "efficiency"}
    assert info.roles == ("dealer", "player")
    assert info.describe()["name"] == "mahjong"
    f: GameFactory = MahjongFactory()
    for name in ("options", "players", "teams", "new", "replay", "match_start", "deal_context", "match_after",
                 "title"):
        assert callable(getattr(f, name))


def test_every_option_of_section_10_is_declared_with_the_preset_value() -> None:
    assert {o.name: o.default for o in OPTIONS} == SECTION_10
    assert {f.name for f in dataclasses.fields(Rules)} == set(SECTION_10)
    assert DAQING.to_options() == SECTION_10
    assert FACTORY.options({}) == {**SECTION_10, "preset": "daqing"}


def test_points_options() -> None:
    pts = set(OPTIONS.points_options())
    assert "base" in pts and "ready_feeder_pays" in pts
    assert {"jia_37", "dan_diao_jia", "zhi_dui", "hongzhong_wild", "gua_da_feng", "dai_lou", "bu_jia_bu_hu"} <= pts
    assert not pts & {"turn_seconds", "claim_seconds", "first_dealer", "auto_hu"}


@pytest.mark.parametrize("raw,msg", [
    ({"base": 0}, "base must be at least 1"),
    ({"ready_feeder_pays": "nobody"}, "ready_feeder_pays must be one of"),
    ({"jia_37": "yes"}, "jia_37 must be true or false"),
    ({"colour": 1}, "unknown rule option 'colour'"),
    ({"preset": "harbin"}, "unknown preset"),
])
def test_bad_options_are_named(raw: dict, msg: str) -> None:
    with pytest.raises(OptionError, match=msg):
        FACTORY.options(raw)


def test_every_option_is_settable_on_its_own() -> None:
    for o in OPTIONS:
        if o.kind is bool:
            value: object = not o.default
        elif o.kind is int:
            value = int(o.hi) if o.hi is not None else o.default
        else:
            assert o.choices
            value = o.choices[-1]
        opts = FACTORY.options({o.name: value})
        assert opts[o.name] == value
        g = FACTORY.new(opts, seed=1, context={"dealer": 0})
        assert getattr(g.rules, o.name) == value


def test_match_state_carries_the_dealer() -> None:
    opts = FACTORY.options({})
    m = FACTORY.match_start(opts)
    assert m["dealer"] is None
    assert FACTORY.match_start(FACTORY.options({"first_dealer": "seat0"}))["dealer"] == 0
    ctx = FACTORY.deal_context(opts, m)
    g = FACTORY.new(opts, seed=5, context=ctx)
    assert 0 <= g.dealer < 4
    m2 = FACTORY.match_after(opts, m, {"next_dealer": 3, "scores": [1, -1, 0, 0]})
    assert m2["dealer"] == 3 and m2["deals"] == 1 and m2["totals"] == [1, -1, 0, 0] and not m2.get("over")
    assert FACTORY.new(opts, seed=5, context=FACTORY.deal_context(opts, m2)).dealer == 3


def test_a_dealer_win_keeps_the_dealer_and_replays() -> None:
    from qipai.games.mahjong.bots import BOTS

    opts = FACTORY.options({})
    m = FACTORY.match_start(opts)
    for seed in range(6):
        g = FACTORY.new(opts, seed=seed, context=FACTORY.deal_context(opts, m))
        bots = [BOTS["efficiency"](i) for i in range(4)]
        while not g.is_over:
            s = g.acting[0]
            g.apply(bots[s].act(g.observe(s, hints=False), g.legal_actions(s)), s)
        out = g.outcome()
        assert out is not None
        expect = g.dealer if out["winner"] in (None, g.dealer) else (g.dealer + 1) % 4
        m = FACTORY.match_after(opts, m, out)
        assert m["dealer"] == expect
        assert FACTORY.replay(g.record()).outcome() == out
        assert FACTORY.teams(opts) is None and FACTORY.players(opts) == 4


def test_titles() -> None:
    assert FACTORY.title(0) == "新手" and FACTORY.title(1600) == "高级" and FACTORY.title(10**9) == "麻将主席"
