"""Every worked example of RULES-shengji.md §11, one test each (numbered as there)."""

from __future__ import annotations

import pytest
from shengji_helpers import deal_hands, run_deal

from qipai.core.game import IllegalAction
from qipai.games.shengji.cards import TRUMP, counts, format_cards, order, parse_cards, points
from qipai.games.shengji.combos import combination, is_tractor, read_lead, trick_winner
from qipai.games.shengji.follow import follow_error, passive_follow
from qipai.games.shengji.game import ShengjiGame
from qipai.games.shengji.scoring import hand_result, last_trick_amount, settle_scores


def c(text: str) -> list[int]:
    return parse_cards(text)


def test_01_order() -> None:
    o = order("5", "H")
    trumps = "R B 5H 5S 5C 5D 2H 2S 2C 2D AH KH QH JH TH 9H 8H 7H 6H 4H 3H"
    vals = [o.value[f] for f in c(trumps)]
    assert all(o.esuit[f] == TRUMP for f in c(trumps))
    assert vals == sorted(vals, reverse=True)
    # strict steps except among 副级 (5S = 5C = 5D) and 副2 (2S = 2C = 2D)
    assert vals[3] == vals[4] == vals[5] and vals[7] == vals[8] == vals[9]
    assert len(set(vals)) == len(vals) - 4
    spades = c("AS KS QS JS TS 9S 8S 7S 6S 4S 3S")
    assert all(o.esuit[f] == 0 for f in spades)
    sv = [o.value[f] for f in spades]
    assert sv == sorted(sv, reverse=True) and len(set(sv)) == 11
    assert o.is_trump(c("5C")[0]) and o.is_trump(c("2S")[0])
    assert format_cards(c("3H 4S 2S 5D 5H AH R B 2H"), o) == "R B 5H 5D 2H 2S AH 3H 4S"


@pytest.mark.parametrize("text", ["AH AH 2C 2C", "2H 2H 3S 3S", "3C 3C B B", "B B R R", "4S 4S 5S 5S"])
def test_02_tractors(text: str) -> None:
    assert is_tractor(c(text), order("3", "H"))


@pytest.mark.parametrize("text", ["2C 2C 2H 2H", "3S 3S 3H 3H", "KH KH 2H 2H", "AS AS 2S 2S", "4S 4S 6S 6S"])
def test_02_not_tractors(text: str) -> None:
    assert not is_tractor(c(text), order("3", "H"))


def test_02_level_8_gap() -> None:
    assert is_tractor(c("7C 7C 9C 9C"), order("8", "H"))
    assert not is_tractor(c("7C 7C 9C 9C"), order("3", "H"))


def test_03_tractor_values() -> None:
    o = order("3", "H")
    chain = ["2H 2H 3H 3H", "2S 2S 3S 3S", "AH AH 2H 2H", "AH AH 2C 2C", "KH KH AH AH"]
    vals = [combination(c(t), o).values for t in chain]  # type: ignore[union-attr]
    assert all(vals[i] > vals[i + 1] for i in range(len(vals) - 1))
    a, b = combination(c("2C 2C 3D 3D"), o), combination(c("2S 2S 3C 3C"), o)
    assert a is not None and b is not None and a.values == b.values
    # the first played wins between equals
    lead = read_lead(c("KD KD AD AD"), o)
    plays = [c("KD KD AD AD"), c("2C 2C 3D 3D"), c("2S 2S 3C 3C"), c("4D 4D 5D 5D")]
    assert trick_winner(lead, plays, o) == 1


def test_04_table_6_choice() -> None:
    o = order("3", "H")
    lead = read_lead(c("7S 7S 8S 8S"), o)
    hand = counts(c("9S 9S 9S 9S JS JS QS QS 4S"))
    assert follow_error(hand, lead, c("JS JS QS QS"), o) is None
    assert follow_error(hand, lead, c("9S 9S 9S 9S"), o) is None
    assert follow_error(hand, lead, c("9S 9S JS JS"), o) is not None
    assert follow_error(hand, lead, c("JS JS QS 4S"), o) is not None


def test_05_table_3_quad_before_tractor() -> None:
    o = order("7", "D")
    lead = read_lead(c("3C 3C 4C 4C 5C 5C"), o)
    hand = counts(c("KC KC KC KC 9C 9C 8C 8C 6C"))
    assert follow_error(hand, lead, c("KC KC KC KC 9C 9C"), o) is None
    assert follow_error(hand, lead, c("KC KC KC KC 8C 8C"), o) is None
    err = follow_error(hand, lead, c("9C 9C 8C 8C KC KC"), o)
    assert err is not None and "Q + P" in err
    assert sorted(passive_follow(hand, lead, o)) == sorted(c("KC KC KC KC 8C 8C"))


def test_06_table_5() -> None:
    o = order("9", "S")
    lead = read_lead(c("4H 4H 4H 4H"), o)
    hand = counts(c("AH AH AH KH QH QH JH 3H"))
    assert follow_error(hand, lead, c("AH AH QH QH"), o) is None
    err = follow_error(hand, lead, c("AH AH AH KH"), o)
    assert err is not None and "2P" in err


def test_07_table_1_triple_before_four_pairs() -> None:
    o = order("3", "H")
    lead = read_lead(c("5S 5S 6S 6S 7S 7S 8S 8S"), o)
    hand = counts(c("9S 9S 9S KS KS JS JS 4S 4S AS"))
    assert follow_error(hand, lead, c("9S 9S 9S KS KS JS JS AS"), o) is None
    assert follow_error(hand, lead, c("9S 9S 9S JS JS 4S 4S KS"), o) is None
    err = follow_error(hand, lead, c("9S 9S KS KS JS JS 4S 4S"), o)
    assert err is not None and "rank 11" in err and "T + 2P + S" in err


def test_08_general_rule_triple() -> None:
    o = order("4", "C")
    lead = read_lead(c("8D 8D 8D"), o)
    hand = counts(c("KD KD 9D 9D 3D"))
    assert follow_error(hand, lead, c("KD KD 3D"), o) is None
    assert follow_error(hand, lead, c("9D 9D KD"), o) is None
    assert follow_error(hand, lead, c("KD 9D 3D"), o) is not None


def test_09_short_of_the_suit() -> None:
    o = order("5", "H")
    lead = read_lead(c("AS AS"), o)
    hand = counts(c("3S 7H 8H B 9D"))
    assert follow_error(hand, lead, c("3S 7H"), o) is None
    assert follow_error(hand, lead, c("3S B"), o) is None
    assert follow_error(hand, lead, c("7H 8H"), o) is not None
    # at level 3, 3S is a trump and the follower is void in spades: anything goes
    o3 = order("3", "H")
    assert o3.is_trump(c("3S")[0])
    assert follow_error(hand, read_lead(c("AS AS"), o3), c("7H 8H"), o3) is None


def test_10_trumping() -> None:
    o = order("5", "H")
    plays = [c("KS KS"), c("3S 4S"), c("9H 9H"), c("2C 2C")]
    lead = read_lead(plays[0], o)
    assert trick_winner(lead, plays, o) == 3
    assert sum(points(p) for p in plays) == 20


def test_11_quad_beats_p2() -> None:
    o = order("3", "H")
    # seats 1, 2, 3, 0
    plays = [c("7D 7D 8D 8D"), c("4D 4D 4D 4D"), c("QD QD KD KD"), c("AD AD AD AD")]
    lead = read_lead(plays[0], o)
    assert trick_winner(lead, plays[:2], o) == 1
    assert trick_winner(lead, plays[:3], o) == 1
    assert trick_winner(lead, plays, o) == 3  # seat 0
    assert sum(points(p) for p in plays) == 20


def test_12_triple_tractor_beats_pair_tractor() -> None:
    o = order("6", "S")
    plays = [c("9C 9C TC TC JC JC"), c("3S 3S 4S 4S 5S 5S"), c("7S 7S 7S 8S 8S 8S"), c("KC KC AC AC QC QC")]
    lead = read_lead(plays[0], o)
    assert trick_winner(lead, plays, o) == 2
    assert trick_winner(lead, plays[:2], o) == 1
    assert sum(points(p) for p in plays) == 50


def test_13_equal_cards() -> None:
    o = order("5", "H")
    plays = [c("KS"), c("5C"), c("5D"), c("AS")]  # seats 2, 3, 0, 1
    assert trick_winner(read_lead(plays[0], o), plays, o) == 1  # seat 3
    assert sum(points(p) for p in plays) == 20


def _ex14_deal() -> list[int]:
    # seat 2 gets 3D in its first card, seat 1 3S 3S, seat 3 3C 3C 3C, seat 0 3H 3H 3H
    return deal_hands({0: "3H 3H 3H", 1: "3S 3S", 2: "3D", 3: "3C 3C 3C"}, first=0, seed=14)


def test_14_declaration() -> None:
    g = ShengjiGame({}, 0, {}, deal=_ex14_deal(), first=0)
    while g.dealt < 20:
        g.timeout(0)
    g.apply("declare 3D", 2)
    assert g.observe(0)["declarations"] == [[2, 1, 20]]
    assert "3D" not in str(g.observe(0)["declarations"]) and g.observe(0)["trump"] is None
    assert g.observe(2)["my_declarations"] == [[20, "3D"]]
    while g.dealt < 57:
        g.timeout(0)
    g.apply("declare 3S 3S", 1)
    g.timeout(0)
    assert g.check("declare 3S 3S", 1) is not None  # equal count, and its own standing declaration
    with pytest.raises(IllegalAction, match="overcall yourself"):
        g.apply("declare 3S 3S", 1)
    while g.dealt < 90:
        g.timeout(0)
    g.apply("declare 3C 3C 3C", 3)  # the partner may overcall
    while g.dealt < 120:
        g.timeout(0)
    with pytest.raises(IllegalAction, match="more than 3"):
        g.apply("declare 3H 3H 3H", 0)
    assert [d[:3] for d in g.observe(1)["declarations"]] == [[2, 1, 20], [1, 2, 57], [3, 3, 90]]
    run_deal(g)
    assert g.phase == "play" and g.trump == 2 and g.banker == 3 and g.acting == (3,)
    assert g.observe(0)["revealed"] == {"seat": 3, "cards": "3C 3C 3C"}
    assert g.observe(0)["trump"] == "C"


def test_14_nobody_declares() -> None:
    g = ShengjiGame({}, 0, {}, deal=_ex14_deal(), first=0)
    run_deal(g)
    assert g.trump == 0 and g.banker == 0 and g.acting == (0,) and g.observe(1)["revealed"] is None


def test_15_failed_throw() -> None:
    deal = deal_hands({0: "4D AS AS KS", 1: "AS"}, first=0, seed=15)
    g = ShengjiGame({}, 0, {"hand": 2, "levels": ["4", "4"], "banker": 0}, deal=deal, first=0)
    run_deal(g, {1: [(0, "declare 4D")]})
    assert g.trump == 3 and g.banker == 0
    assert g.check("play AS AS KS", 0) is None  # a throw is a legal lead; it fails on the real hands
    g.apply("play AS AS KS", 0)
    assert g.trick == [(0, tuple(c("KS")))]
    assert g.failed == [{"seat": 0, "cards": "AS AS KS", "forced": "KS", "penalty": 10, "trick": 1}]
    assert g.penalties == 10  # the banker side threw: attackers +10
    assert g.hands[0][c("AS")[0]] == 2


def test_16_level_change_attackers_win() -> None:
    r = hand_result((4, 7), banker=0, score=145 + last_trick_amount(15, 1, True))
    assert r.new_levels == (4, 8) and r.next_banker == 1 and not r.banker_won and r.d_nominal == 1
    assert settle_scores(r, stake=1) == [-1, 1, -1, 1]


def test_17_koudi_by_the_banker_side() -> None:
    o = order("Q", "H")
    plays = [c("KS KS JS JS"), c("TS TS 4S 4S"), c("9S 9S 5S 5S"), c("8S 7S 6S 5S")]  # seats 2, 3, 0, 1
    lead = read_lead(plays[0], o)
    assert lead.combo is not None and lead.combo.fmt == (2, 2)  # Q removed: J and K adjacent
    assert trick_winner(lead, plays, o) == 0
    pts = sum(points(p) for p in plays)
    assert pts == 55
    s = 60 + last_trick_amount(pts, 4, attackers_won=False)
    assert s == -160
    r = hand_result((10, 5), banker=2, score=s)
    assert r.d_nominal == 3 and r.d_applied == 2 and r.new_levels == (12, 5) and r.next_banker == 0
    assert not r.match_over
    assert settle_scores(r, stake=1) == [3, -3, 3, -3]


@pytest.mark.parametrize(("before", "banker_wins", "d"), [(100, False, 1), (95, False, 1), (70, True, 1)])
def test_18_koudi_by_the_attackers(before: int, banker_wins: bool, d: int) -> None:
    s = before + last_trick_amount(25, 3, attackers_won=True)
    r = hand_result((4, 4), banker=0, score=s)
    assert (r.banker_won, r.d_nominal) == (banker_wins, d)


def test_19_match_end() -> None:
    r = hand_result((12, 5), banker=0, score=155)
    assert r.banker_won and r.match_over and r.match_winner == 0
    r = hand_result((12, 5), banker=0, score=160)
    assert not r.match_over and r.new_levels == (12, 6)
