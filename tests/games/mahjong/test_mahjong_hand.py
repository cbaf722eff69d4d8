"""Winning hands, 夹, waits and fans: the worked examples 1–15 of RULES-mahjong.md §11 and the room options."""

from __future__ import annotations

import pytest

from qipai.games.mahjong.hand import (
    best_reading,
    decompositions,
    discard_shanten,
    draw_shanten,
    evaluate_win,
    fans,
    is_win,
    meld_sig,
    natural_win,
    place_of,
    shanten,
    shanten_counts,
    waits,
    zhidui_ok,
)
from qipai.games.mahjong.melds import parse_hand, parse_melds
from qipai.games.mahjong.rules import DAQING
from qipai.games.mahjong.tiles import parse_tile, parse_tiles, to_counts

EX1 = "234m 678p 24m ZZ | chi 567s"


# ---------------------------------------------------------------- examples 1-4: the seed's own hand
def test_example_1_win_on_a_discard_is_jia() -> None:
    assert is_win(EX1, "3m")
    assert fans(EX1, "3m") == ["jia"]
    assert waits(EX1) == ["3m"]


def test_example_2_self_drawn() -> None:
    assert fans(EX1, "3m", self_drawn=True) == ["self_drawn", "jia"]


def test_example_3_mobao_read_as_the_wait() -> None:
    assert fans(EX1, "8p", self_drawn=True, bao="8p") == ["self_drawn", "jia", "bao"]
    counts, melds = parse_hand(EX1)
    w = evaluate_win(counts_of(counts), meld_sig(melds), parse_tile("8p"), DAQING, self_drawn=True, ready=True,
                     bao=parse_tile("8p"))
    assert w is not None and w.wild and w.read_as == parse_tile("3m")


def test_example_4_bao_zhong_bao_and_a_discarded_bao() -> None:
    assert fans(EX1, "3m", self_drawn=True, bao="3m") == ["self_drawn", "jia", "bao", "bao_zhong_bao"]
    assert fans(EX1, "3m", self_drawn=False, bao="3m") == ["jia"]


def test_mobao_needs_a_ready_player_and_a_draw() -> None:
    assert fans(EX1, "8p", self_drawn=True, bao="8p", ready=False) is None
    assert fans(EX1, "8p", self_drawn=False, bao="8p") is None


def counts_of(kinds: list[int]) -> list[int]:
    return to_counts(kinds)


# ---------------------------------------------------------------- examples 5-8: conditions that fail
@pytest.mark.parametrize("hand,tile,why", [
    ("456m 789m 22m 55m | chi 123m", "5m", "one suit (清一色)"),
    ("345m 678m 55s 66s | chi 234p", "6s", "no 1, 9 or 红中"),
    ("456m 789s 23m 55p | chi 123p", "1m", "no triplet and the pair is not ZZ"),
    ("123m 456p 789s 111s 2m", "2m", "not open"),
])
def test_examples_5_to_8_no_win(hand: str, tile: str, why: str) -> None:
    assert not is_win(hand, tile), why
    assert fans(hand, tile, self_drawn=True) is None


def test_example_6_the_shape_itself_is_complete() -> None:
    # suits and triplet are fine there: only the 幺九 condition fails
    c, _ms = parse_hand("345m 678m 55s 66s 6s | chi 234p")
    from qipai.games.mahjong.hand import is_complete

    assert is_complete(to_counts(c))


def test_one_suit_with_hongzhong_is_still_one_suit() -> None:
    assert not is_win("234m 567m 888m Z | chi 123m", "Z")
    assert is_win("234m 567m 888m Z | chi 123p", "Z")


# ---------------------------------------------------------------- examples 9-11: 边, 单调, 两面 and the options
def test_example_9_edge() -> None:
    h = "12s 456m 99m | peng 777p | chi 345m"
    assert is_win(h, "3s")
    assert fans(h, "3s") == []
    assert fans(h, "3s", rules=DAQING.replace(jia_37=True)) == ["jia"]


def test_example_10_single() -> None:
    h = "5p 789s | chi 123m | peng 222p | chi 678m"
    assert is_win(h, "5p")
    assert fans(h, "5p") == []
    assert fans(h, "5p", rules=DAQING.replace(dan_diao_jia=True)) == ["jia"]


def test_example_11_two_sided_and_bu_jia_bu_hu() -> None:
    h = "45m 777s 99p | chi 123p | chi 678m"
    for t in ("3m", "6m"):
        assert is_win(h, t)
        assert fans(h, t) == []
    strict = DAQING.replace(bu_jia_bu_hu=True)
    assert not is_win(h, "3m", rules=strict) and not is_win(h, "6m", rules=strict)
    assert waits(h, rules=strict) == []
    assert waits(h) == ["3m", "6m"]


# ---------------------------------------------------------------- examples 12-15
def test_example_12_some_reading_is_jia() -> None:
    h = "4666m 789p 123s | peng 222s"
    assert waits(h) == ["4m", "5m"]
    assert fans(h, "5m") == ["jia"]
    assert fans(h, "4m") == []
    assert best_reading(to_counts(parse_tiles("44666m 789p 123s")), parse_tile("4m"),
                        meld_sig(parse_melds("peng 222s"))).place in ("single", "triplet")
    h2 = "4666m 789p 123s | chi 345s"
    assert waits(h2) == ["4m"]
    assert not is_win(h2, "5m")


def test_example_13_hongzhong_pung() -> None:
    assert is_win("234m 456m 678p 5s | peng ZZZ", "5s")
    assert waits("234m 456m 678p 5s | peng 666s") == []


def test_example_14_four_identical_tiles_no_kong() -> None:
    h = "4444m 567m | peng 111p | chi 789s"
    assert is_win(h, "7m")
    assert waits(h) == ["7m"]


def test_example_15_three_melds() -> None:
    h = "44p 78s | chi 123m | peng 222p | chi 678m"
    assert waits(h) == ["6s", "9s"]
    assert fans(h, "6s") == [] and fans(h, "9s") == []


def test_seed_example_red_pair_is_the_triplet_and_the_terminal() -> None:
    # 234 678 567 234 中中: four sequences and a 红中 pair
    assert is_win("234m 678p 234m Z | chi 567s", "Z")
    assert not is_win("234m 678p 234m 5p | chi 567s", "5p")


def test_all_triplets_and_need_sequence() -> None:
    h = "111m 777p 99s 5s | peng 999m"
    assert not is_win(h, "5s")
    h = "111m 777p 99s 55s | peng 333m"
    assert is_win(h, "5s")
    assert not is_win(h, "5s", rules=DAQING.replace(need_sequence=True))
    assert is_win("111m 777p 99s 55s | chi 345m", "5s", rules=DAQING.replace(need_sequence=True))


def test_at_most_three_melds() -> None:
    sig = meld_sig(parse_melds("chi 123m | peng 222p | chi 678m | chi 345s"))
    c = to_counts(parse_tiles("Z"))
    assert natural_win(c, parse_tile("Z"), sig) is None


# ---------------------------------------------------------------- places and readings
def test_places() -> None:
    assert place_of(("seq", parse_tile("4m")), parse_tile("5m")) == "middle"
    assert place_of(("seq", parse_tile("1s")), parse_tile("3s")) == "edge"
    assert place_of(("seq", parse_tile("7p")), parse_tile("7p")) == "edge"
    assert place_of(("seq", parse_tile("7p")), parse_tile("9p")) == "two_sided"
    assert place_of(("seq", parse_tile("1s")), parse_tile("1s")) == "two_sided"
    assert place_of(("pair", 3), 3) == "single"
    assert place_of(("trip", 3), 3) == "triplet"


def test_decompositions_of_a_triplet_of_sequences() -> None:
    ds = decompositions(to_counts(parse_tiles("111222333m 55p")))
    assert len(ds) == 2


# ---------------------------------------------------------------- zhi_dui
def test_zhi_dui() -> None:
    rules = DAQING.replace(zhi_dui=True)
    sig = meld_sig(parse_melds("chi 345s"))
    c = to_counts(parse_tiles("123m 456p 77s 99s"))
    assert zhidui_ok(c, parse_tile("7s"), sig, rules)
    assert zhidui_ok(c, parse_tile("9s"), sig, rules)
    assert not zhidui_ok(c, parse_tile("8s"), sig, rules)
    # after ting … zhidui 7s only 7s wins, and as 夹
    assert fans("123m 456p 77s 99s | chi 345s", "9s", rules=rules, zhidui="7s") is None
    assert fans("123m 456p 77s 99s | chi 345s", "7s", rules=rules, zhidui="7s") == ["jia"]
    assert waits("123m 456p 77s 99s | chi 345s", rules=rules, zhidui="7s") == ["7s"]
    # a 宝 is read as the 支对 tile only
    assert fans("123m 456p 77s 99s | chi 345s", "4m", rules=rules, zhidui="7s", self_drawn=True, bao="4m") == [
        "self_drawn", "jia", "bao"]


def test_zhidui_wins_under_bu_jia_bu_hu() -> None:
    rules = DAQING.replace(zhi_dui=True, bu_jia_bu_hu=True)
    assert waits("123m 456p 77s 99s | chi 345s", rules=rules) == []
    assert fans("123m 456p 77s 99s | chi 345s", "7s", rules=rules, zhidui="7s") == ["jia"]


# ---------------------------------------------------------------- 5.4 options
def test_hongzhong_wild_and_gua_da_feng() -> None:
    assert waits("234m 678p 24m 99s | chi 567s") == []     # 3m would leave no triplet
    h = "24m 678p 999s 55s | chi 567s"
    assert waits(h) == ["3m"]
    wild = DAQING.replace(hongzhong_wild=True)
    assert fans(h, "Z", self_drawn=True, rules=wild) == ["self_drawn", "jia", "bao"]
    assert fans(h, "Z", self_drawn=True) is None
    gua = DAQING.replace(gua_da_feng=True)
    assert fans(h, "9s", self_drawn=True, rules=gua) == ["self_drawn", "jia", "bao"]
    assert fans(h, "9s", self_drawn=True) is None
    h2 = "24m 678p 55s | chi 567s | peng 999p"
    assert fans(h2, "9p", self_drawn=True, rules=gua) == ["self_drawn", "jia", "bao"]


# ---------------------------------------------------------------- 向听
def test_shanten_examples() -> None:
    assert shanten(EX1) == 0
    assert shanten("234m 678p 24m ZZ 3m | chi 567s") == -1
    assert shanten("234m 456m 678p 5s | peng 666s") == 1
    assert shanten("234m 456m 678p 5s | peng 666s", plain=True) == 0
    assert shanten("123m 456p 789s 11s 55m") == 0


def test_discard_and_draw_shanten_agree_with_single_calls() -> None:
    c = to_counts(parse_tiles("2345m 678p 24s 9s Z"))
    sig = meld_sig(parse_melds("chi 567s"))
    d = discard_shanten(c, sig)
    for k, v in d.items():
        cc = list(c)
        cc[k] -= 1
        assert shanten_counts(cc, sig) == v
    c13 = list(c)
    c13[parse_tile("9s")] -= 1
    assert sum(c13) == 10
    for k, v in draw_shanten(c13, sig).items():
        cc = list(c13)
        cc[k] += 1
        assert shanten_counts(cc, sig) == v
