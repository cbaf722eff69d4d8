"""玩法说明 in Python (``qipai.games.<game>.explain``, behind :class:`qipai.core.game.Explains`): every preset and
random valid option values word without error in both languages, and the words follow the options."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from qipai.core.explain import LANGS, Lang, Section, Words
from qipai.core.game import Explains, explain_rules
from qipai.core.options import Option, OptionError
from qipai.core.registry import game_names, get_factory

from toygames import CountFactory

SLOT = re.compile(r"\{\w+(\|[^{}]*)?\}")
CJK = re.compile(r"[\u4e00-\u9fff]")


def check_words(sections: list[Section], lang: Lang) -> None:
    """Sections with ids, titles and items; every text filled in (no ``{slot}`` left, no ``None``) and in
    ``lang`` (a Chinese title begins in Chinese, an English one in English)."""
    assert sections
    ids = [s.id for s in sections]
    assert len(set(ids)) == len(ids), ids
    for s in sections:
        assert s.title and s.items, s
        assert bool(CJK.search(s.title[0])) == (lang == "zh"), s.title  # (English may name the Chinese term)
        for text in s.texts():
            assert isinstance(text, str) and text.strip(), s
            assert not SLOT.search(text), text
            assert not re.search(r"\bNone\b(?! of)|undefined|NaN", text), text
        for item in s.items:
            assert isinstance(item, str) or (isinstance(item, tuple) and item), s  # (no empty list)


def test_every_game_words_its_rules() -> None:
    """Every registered game implements the interface (its factory is :class:`Explains`)."""
    for name in game_names():
        assert isinstance(get_factory(name), Explains), name


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("game", "preset"), [(g, p) for g in game_names() for p in get_factory(g).info.presets])
def test_every_preset_in_both_languages(game: str, preset: str, lang: Lang) -> None:
    f = get_factory(game)
    by_name = explain_rules(f, {"preset": preset}, lang)
    check_words(by_name, lang)
    # the words come from the values: the preset's full option values word the same
    assert explain_rules(f, f.options({"preset": preset}), lang) == by_name
    # JSON-ready, list items as lists
    js = [s.to_json() for s in by_name]
    assert all(isinstance(i, str | list) for s in js for i in s["items"])


def test_the_languages_have_the_same_sections() -> None:
    for name in game_names():
        f = get_factory(name)
        for p in f.info.presets:
            zh, en = (explain_rules(f, {"preset": p}, lang) for lang in LANGS)
            assert [s.id for s in zh] == [s.id for s in en], (name, p)
            assert [len(s.items) for s in zh] == [len(s.items) for s in en], (name, p)


def option_value(o: Option) -> st.SearchStrategy[Any]:
    """Any value the declaration allows."""
    if o.kind is bool:
        s: st.SearchStrategy[Any] = st.booleans()
    elif o.kind is list:
        assert o.choices is not None
        s = st.lists(st.sampled_from(o.choices), unique=True)
    elif o.choices:
        s = st.sampled_from(o.choices)
    elif o.kind is int:
        assert o.lo is not None and o.hi is not None
        s = st.integers(int(o.lo), int(o.hi))
    else:
        s = st.floats(o.lo, o.hi, allow_nan=False, allow_infinity=False)
    return st.one_of(st.none(), s) if o.nullable else s


@st.composite
def table_options(draw: st.DrawFn, game: str) -> dict[str, Any]:
    """A preset with random overrides of any of its declared options, as a private table may set them."""
    f = get_factory(game)
    raw: dict[str, Any] = {"preset": draw(st.sampled_from(f.info.presets))}
    for o in f.info.options:
        if draw(st.booleans()):
            raw[o.name] = draw(option_value(o))
    return raw


@pytest.mark.parametrize("game", game_names())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(data=st.data(), lang=st.sampled_from(LANGS))
def test_random_valid_options_word_without_error(game: str, data: st.DataObject, lang: Lang) -> None:
    f = get_factory(game)
    raw = data.draw(table_options(game))
    try:
        f.options(raw)
    except OptionError:
        assume(False)
    check_words(explain_rules(f, raw, lang), lang)


def test_bad_options_are_refused_with_the_options_error() -> None:
    for name in game_names():
        f = get_factory(name)
        with pytest.raises(OptionError):
            explain_rules(f, {"no_such_option": 1}, "en")
        with pytest.raises(OptionError):
            explain_rules(f, {"preset": "no_such_preset"}, "en")


def test_a_game_without_words_has_no_sections() -> None:
    """The host asks the interface: a game that words nothing (a toy) gives no sections, not an error."""
    assert not isinstance(CountFactory, Explains)
    assert explain_rules(CountFactory, {"preset": "default"}, "zh") == []
    with pytest.raises(OptionError):
        explain_rules(CountFactory, {"stake": 0}, "zh")


def test_words_need_both_languages() -> None:
    with pytest.raises(ValueError, match="one language only"):
        Words({"a": "甲", "b": "乙"}, {"a": "A"})


# ---------------------------------------------------------------------------------------------- words follow
def words(game: str, lang: Lang = "zh", **overrides: Any) -> dict[str, str]:
    """Section id → its whole text, for the game's first preset with ``overrides``."""
    f = get_factory(game)
    sections = explain_rules(f, {"preset": f.info.presets[0], **overrides}, lang)
    return {s.id: s.plain() for s in sections}


def test_doudizhu_words_follow_the_options() -> None:
    classic = words("doudizhu")
    assert "doubling" not in classic and "牌局中离开不扣分" in classic["scoring"] and "逃跑" not in classic["scoring"]
    assert "每打出一个炸弹，×2" in classic["scoring"] and "春天" in classic["scoring"]
    assert "叫 3 分立即结束" in classic["bidding"] and "每人 17 张" in classic["overview"]
    chengdu = words("doudizhu", chengdu_doubling=True, escape_penalty=True, escape_factor=5)
    assert "“倒”" in chengdu["doubling"] and "倒、反、斡、垒各 ×2" in chengdu["scoring"]
    assert "扣 5 × 底分" in chengdu["scoring"] and "牌局中离开不扣分" not in chengdu["scoring"]
    no_bombs = words("doudizhu", kinds=["single", "pair", "straight"], spring=False, anti_spring=False)
    assert "炸弹：" not in no_bombs["kinds"] and "火箭（王炸）" not in no_bombs["kinds"]
    assert "×2" not in no_bombs["scoring"] and "留在手里" not in no_bombs["scoring"]
    assert "三带一对" not in no_bombs["kinds"] and "顺子：至少 5 张" in no_bombs["kinds"]
    short = words("doudizhu", "en", straight_max=8, pair_straight_max=5, plane_max=3)
    assert "Straight: 5 to 8 singles" in short["kinds"]
    assert "Pair straight: 3 to 5 pairs" in short["kinds"] and "Plane: 2 to 3 triples" in short["kinds"]
    assert "or more" not in short["kinds"]
    call = words(
        "doudizhu",
        "en",
        bidding="call",
        first_bidder="spade_five",
        all_pass="redeal_then_dissolve",
        dissolve_after=4,
        forced_bid_hands=True,
    )
    assert "calls the landlord or passes" in call["bidding"] and "♠5" in call["bidding"]
    assert "after 4 deals in a row" in call["bidding"] and "all 2 jokers" in call["bidding"]
    timers = words("doudizhu", "en", bid_seconds=12, first_play_seconds=40, play_seconds=25, autoplay="smart")
    assert "12 s for each bid" in timers["time"] and "40 s for the landlord's first play" in timers["time"]
    assert "a bot plays for you" in timers["time"]
    four = words("doudizhu", "en", preset="four_player")
    assert "Two decks, 108 cards, 4 players, 25 cards each and 8 left" in four["overview"]
    assert "both small and both big jokers" in four["kinds"] and "8 cards ×3" in four["scoring"]
    assert "no score" in four["bidding"]  # (redeal_then_dissolve)


def test_doudizhu_examples_are_chains_the_table_allows() -> None:
    """A chain's example is of a length the table plays: a straight of 6 at least read "e.g. 34567", a bomb of 6
    at least "e.g. 88888", a plane of 3 at least "e.g. 333444+57"; the usual example where the table allows it."""
    classic = words("doudizhu", "en")["kinds"]
    for eg in ("e.g. 34567.", "e.g. 334455.", "e.g. 333444.", "e.g. 333444+57.", "e.g. 333444+5577."):
        assert eg in classic, eg
    longer = words("doudizhu", "zh", straight_min=6, pair_straight_min=4, plane_min=3)["kinds"]
    assert "顺子：至少 6 张点数相连的单牌，如 345678。" in longer
    assert "连对：至少 4 对点数相连的对子，如 33445566。" in longer
    assert "飞机：至少 3 个点数相连的三张，如 333444555。" in longer
    assert "飞机带单：飞机的每个三张各带一张，如 333444555+68Q。" in longer
    assert "飞机带对：飞机的每个三张各带一对，如 333444555+6688QQ。" in longer
    shorter = words("doudizhu", "en", straight_min=3, straight_max=4)["kinds"]
    assert "Straight: 3 to 4 singles in a row, e.g. 3456." in shorter
    big = words("doudizhu", "en", preset="four_player", bomb_min=6)["kinds"]
    assert "Bomb: 6 to 8 of a rank, e.g. 888888." in big
    assert "e.g. 88888." in words("doudizhu", "en", preset="four_player")["kinds"]


def test_doudizhu_names_only_the_chains_and_kickers_the_table_plays() -> None:
    """四人亮牌 has no straights, and a private table may have no chains or no kickers at all: the words said
    "straights, pair straights and planes use 3 to A" and told the kickers' rules all the same."""
    show = words("doudizhu", "en", preset="four_player_show")["kinds"]
    assert "Pair straights and planes use 3 to A only" in show and "Straights," not in show
    assert "A kicker never has the rank of the main part" in show
    straights = words("doudizhu", "zh", kinds=["single", "pair", "straight", "bomb", "rocket"])["kinds"]
    assert "\n顺子只用 3 到 A 的牌，不能有 2 和王。\n火箭最大" in straights and "带的牌不能" not in straights
    plain = words("doudizhu", "en", kinds=["single", "pair", "bomb"])["kinds"]
    assert "3 to A" not in plain and "kicker never" not in plain
    kicked = words("doudizhu", "en", kinds=["single", "plane_singles"])["kinds"]
    assert "Planes use 3 to A only" in kicked and "A kicker never" in kicked


def test_doudizhu_says_what_beats_what_with_the_bombs_and_rocket_the_table_has() -> None:
    """A table without bombs or a rocket read "the rocket beats everything. A bomb beats anything but the rocket"."""
    none = words("doudizhu", "en", kinds=["single", "pair", "straight"])["kinds"]
    assert "rocket" not in none and "bomb" not in none.lower()
    assert "A play is beaten only by the same combination" in none
    bombs = words("doudizhu", "zh", kinds=["single", "bomb"])["kinds"]
    assert "炸弹比其他的牌都大，炸弹之间比点数。其余的牌只能用" in bombs and "火箭" not in bombs
    rocket = words("doudizhu", "en", kinds=["single", "rocket"])["kinds"]
    assert "The rocket beats everything. Anything else is beaten only" in rocket and "A bomb" not in rocket
    assert "A bomb beats anything but the rocket; bombs compare by rank." in words("doudizhu", "en")["kinds"]


def test_doudizhu_times_a_double_only_where_the_table_has_one() -> None:
    """A table without a doubling phase read "20 s for each bid or double": a double it has no way to make."""
    assert "20 s for each bid, 20 s for each play." in words("doudizhu", "en")["time"]
    assert "叫牌每次 20 秒，地主的第一手 30 秒" in words("doudizhu", "zh", preset="jj")["time"]
    assert "20 s for each bid or double," in words("doudizhu", "en", preset="chengdu")["time"]
    assert "叫牌和加倍每次 20 秒" in words("doudizhu", "zh", show_hand=True)["time"]


def test_shengji_words_follow_the_options() -> None:
    preset = words("shengji")
    assert "罚 10 分" in preset["throws"] and "甩牌罚分" in preset["points"]
    assert "最多打" not in preset["levels"] and "必打 A" in preset["levels"]
    assert "牌局中离开不扣分" in preset["scoring"] and "再得" not in preset["scoring"]
    no_throws = words("shengji", throws=False)
    assert "throws" not in no_throws and "本桌不能甩牌" in no_throws["play"], no_throws["play"]
    assert "跟甩牌" not in no_throws["play"] and "甩牌罚分" not in no_throws["points"]
    assert "罚 20 分" in words("shengji", throw_penalty=20)["throws"]
    free = words("shengji", throw_penalty=0)
    assert "不罚分" in free["throws"] and "甩牌罚分" not in free["points"]
    other = words(
        "shengji",
        ace_rule="pass",
        hand_limit=8,
        start_level="T",
        escape_penalty=True,
        match_bonus=5,
        deal_step_ms=300,
        final_declare_s=8,
        first_lead_s=40,
        play_s=25,
        auto_play="smart",
    )
    assert "过 A 即胜" in other["levels"] and "必打 A" not in other["levels"] and "最多打 8 局" in other["levels"]
    assert "都从 10 开始" in other["overview"]
    assert "扣 3 × 底注" in other["scoring"] and "再得 5 × 底注" in other["scoring"]
    for w in ("0.3 秒", "最后叫主 8 秒", "第一手 40 秒", "出牌 25 秒", "由电脑替你打"):
        assert w in other["time"], (w, other["time"])
    assert "At most 1 hand: after 1 hand" in words("shengji", "en", hand_limit=1)["levels"]
    assert "At most 2 hands: after 2 hands" in words("shengji", "en", hand_limit=2)["levels"]


def test_mahjong_words_follow_the_options() -> None:
    preset = words("mahjong", "en")
    everything = "\n".join(preset.values())
    for w in ("(支对)", "(3·7夹)", "(单调夹)", "(不夹不胡)", "(红中满天飞)", "(刮大风)", "(带漏)", "he alone pays"):
        assert w not in everything, w
    assert "an edge wait (1-2 waiting" in preset["jia"] and "(a ready claim first, 听牌优先)" in preset["claims"]
    assert "base 1 × 2^fans" in preset["scoring"] and "drawn at random" in preset["overview"]
    jia = words("mahjong", "en", zhi_dui=True, jia_37=True, dan_diao_jia=True, bu_jia_bu_hu=True, need_sequence=True)
    for w in ("(支对)", "(3·7夹)", "(单调夹)"):
        assert w in jia["jia"], w
    assert "an edge wait (1-2" not in jia["jia"] and "a single wait (completing" not in jia["jia"]
    assert "(不夹不胡)" in jia["win"] and "A sequence: at least one" in jia["win"]
    bao = words("mahjong", "zh", hongzhong_wild=True, gua_da_feng=True, dai_lou=True)
    for w in ("红中满天飞", "刮大风", "带漏", "或是你有刻子的牌、或是红中"):
        assert w in bao["bao"], w
    other = words(
        "mahjong",
        "zh",
        hu_requires_ting=False,
        ting_claim_first=False,
        ready_feeder_pays="feeder_own",
        auto_hu=False,
        base=10,
        turn_seconds=20,
        claim_seconds=10,
        first_dealer="seat0",
    )
    assert "碰（碰听也一样）" in other["claims"] and "听牌优先" not in other["claims"]
    assert "没听牌也可以胡" in other["ting"] and "只有听了牌才能胡" not in other["ting"]
    assert "只有他付自己那一份" in other["scoring"] and "底分 10 × 2^番数" in other["scoring"]
    assert "庄家付 40" in other["scoring"]
    assert "由你选择胡还是过" in other["time"] and "每次 20 秒" in other["time"] and "选择 10 秒" in other["time"]
    assert "第一个座位坐庄" in other["overview"]
