"""The claim window (RULES-mahjong.md §3): examples 16–21 of §11, the pitfall of §3.3.4, and claim legality."""

from __future__ import annotations

import pytest
from mahjong_positions import position, snapshot

from qipai.core.game import IllegalAction
from qipai.games.mahjong.rules import DAQING
from qipai.games.mahjong.tiles import parse_tile

NO_AUTO = DAQING.replace(auto_hu=False)


def test_example_16_nearest_ready_seat_wins_automatically() -> None:
    g = position(hands={0: "3m 147p 258s 369s 58m 7m 9m", 1: "159m 159p 159s ZZZ 7s",
                        2: "234m 678p 24m ZZ", 3: "24m 456p 999s 55p"},
                 melds={2: "chi 567s", 3: "chi 789s"}, ready={2: True, 3: True})
    g.apply("discard 3m", 0)
    assert g.is_over
    out = g.outcome()
    assert out is not None
    assert out["winner"] == 2 and out["feeder"] == 0 and out["how"] == "discard"
    assert out["won"] == [False, False, True, False]
    assert g.log[-1] == {"seat": 2, "action": "hu", "auto": True}
    assert all(e["seat"] != 3 or e["action"] != "hu" for e in g.log)


def _ex17() -> object:
    return position(NO_AUTO, hands={0: "5p 147m 258s 369s 88m 9p Z", 1: "46p 19m 19s 258m 258s Z",
                                    2: "11m 99p 11s 99s 3m 7m 3p 7p Z", 3: "46p 123m 999s 77s"},
                    melds={3: "chi 789m"}, ready={3: True})


def test_example_17_a_lower_answer_waits_for_the_winner_who_then_passes() -> None:
    g = _ex17()
    g.apply("discard 5p", 0)
    assert g.phase == "claim" and g.acting == (1, 3)
    assert g.public_acting() == ()
    assert g.legal_actions(3) == ["hu", "pass"]
    assert "chi 456p" in g.legal_actions(1)
    g.apply("chi 456p", 1)
    # nothing happens yet: seat 3 could still win
    assert g.phase == "claim" and g.acting == (3,) and g.melds[1] == []
    g.apply("pass", 3)
    assert g.phase == "play" and g.turn == 1 and [str(m) for m in g.melds[1]] == ["chi 456p"]
    assert g.rivers[0] == []


def test_example_17_the_winner_takes_it() -> None:
    g = _ex17()
    g.apply("discard 5p", 0)
    g.apply("chi 456p", 1)
    g.apply("hu", 3)
    assert g.is_over and g.outcome()["winner"] == 3 and g.melds[1] == []


def test_example_17_a_timeout_of_the_winner_passes_without_autoplay() -> None:
    g = _ex17()
    g.apply("discard 5p", 0)
    g.apply("chi 456p", 1)
    g.timeout(3)
    assert [str(m) for m in g.melds[1]] == ["chi 456p"] and not g.in_autoplay(3)


def test_pitfall_a_pass_on_ones_own_win_first_does_not_block_or_cancel_lower_claims() -> None:
    g = _ex17()
    g.apply("discard 5p", 0)
    g.apply("pass", 3)
    assert g.phase == "claim" and g.acting == (1,)
    g.apply("chi 456p", 1)
    assert [str(m) for m in g.melds[1]] == ["chi 456p"]
    # and seat 3, having declined, may not win on a discard before his next draw
    assert g.declined[3]


def test_pitfall_the_lower_seat_passing_first_leaves_the_winner_to_decide() -> None:
    g = _ex17()
    g.apply("discard 5p", 0)
    g.apply("pass", 1)
    assert g.acting == (3,)
    g.apply("pass", 3)
    assert g.phase == "play" and g.turn == 1 and g.melds[1] == [] and g.rivers[0] == [parse_tile("5p")]


def test_answers_are_private_and_answer_once() -> None:
    g = _ex17()
    g.apply("discard 5p", 0)
    g.apply("chi 456p", 1)
    assert g.observe(1)["answered"] == "chi 456p"
    assert "answered" not in g.observe(3)
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="already answered"):
        g.apply("pass", 1)
    assert snapshot(g) == before


def _ex18(rules: object = DAQING) -> object:
    return position(rules, hands={0: "6s 147m 258p 369p 88m 9s Z", 1: "45s 19m 19p 1s 9s 258p Z 5m",
                                  2: "57s 234m 678p 24m ZZ 9p", 3: "11m 99p 11s 99s 3m 7m 3p 7p Z"})


def test_example_18_chi_ting_beats_the_next_seats_chi() -> None:
    g = _ex18()
    g.apply("discard 6s", 0)
    assert g.acting == (1, 2)
    assert "chi 567s ting" in g.legal_actions(2) and "chi 567s" not in g.legal_actions(2)
    g.apply("chi 456s", 1)
    assert g.acting == (2,)
    g.apply("chi 567s ting", 2)
    assert g.turn == 2 and g.need == "ting" and [str(m) for m in g.melds[2]] == ["chi 567s"]
    assert g.legal_actions(2) == ["ting 6p", "ting 9p"]
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="must declare"):
        g.apply("discard 9p", 2)
    assert snapshot(g) == before
    g.apply("ting 9p", 2)
    assert g.ready[2]


def test_example_18_without_ting_claim_first_the_nearer_seat_wins() -> None:
    g = _ex18(DAQING.replace(ting_claim_first=False))
    g.apply("discard 6s", 0)
    g.apply("chi 456s", 1)
    assert g.phase == "play" and g.turn == 1 and [str(m) for m in g.melds[1]] == ["chi 456s"]


def test_example_19_peng_beats_chi_and_the_skipped_seats_lose_their_turn() -> None:
    g = position(hands={0: "4m 147p 258s 369s 88p 9s Z", 1: "35m 19p 19s 258p Z 1m 9m 7s",
                        2: "19m 19p 19s 258p Z 2s 8s 7s", 3: "44m 19p 19s 258p Z 2s 8s 9m"},
                 wall="6p 7p 8p")
    g.apply("discard 4m", 0)
    g.apply("chi 345m", 1)
    assert g.acting == (3,)
    g.apply("peng", 3)
    assert g.turn == 3 and [str(m) for m in g.melds[3]] == ["peng 444m"] and g.melds[1] == []
    assert g.drawn[3] is None
    g.apply("discard 9m", 3)
    # seat 0 (after seat 3) draws next; seats 1 and 2 lost their turn
    assert g.turn == 0 and g.log[-1]["action"] == "draw" and g.log[-1]["seat"] == 0


def test_example_20_chi_ting_beats_peng() -> None:
    g = position(hands={0: "4m 147p 258s 369s 88p 9s Z", 1: "23m 46m 678p 567s ZZ 9p",
                        2: "44m 19p 19s 258p Z 2s 8s 9m", 3: "19m 19p 19s 258p 2s 8s 7s Z"})
    g.apply("discard 4m", 0)
    assert g.legal_actions(1)[0] == "chi 234m ting"
    g.apply("peng", 2)
    assert g.acting == (1,)
    g.apply("chi 234m ting", 1)
    assert g.turn == 1 and g.need == "ting" and g.melds[2] == []


def test_example_21_only_the_next_seat_chows_without_ting() -> None:
    g = position(hands={0: "4m 147p 258s 369s 88p 9s Z", 1: "19m 19p 19s 258p 2s 8s 7s Z",
                        2: "35m 44m 19p 19s 258p 9m Z", 3: "19m 19p 19s 258p 2s 8s 7s Z"})
    g.apply("discard 4m", 0)
    assert g.acting == (2,)
    before = snapshot(g)
    with pytest.raises(IllegalAction, match=r"only seat 1 \(the next seat\) may chow without 听"):
        g.apply("chi 345m", 2)
    assert snapshot(g) == before
    assert g.check("chi 345m", 2) is not None and g.check("peng", 2) is None


def test_no_fourth_meld_example_15() -> None:
    g = position(hands={0: "4p 147m 258s 369s 88m 9p Z", 1: "44p 78s", 2: "19m 19p 19s 258p 2s 8s 7s Z",
                        3: "19m 19p 19s 258p 2s 8s 7s Z"},
                 melds={1: "chi 123m | peng 222p | chi 678m"})
    g.apply("discard 4p", 0)
    # seat 1 may not pung 4p (a fourth meld) and nobody else may claim: the window does not open
    assert g.phase == "play" and g.turn == 1


def test_hongzhong_is_pung_but_never_chowed() -> None:
    g = position(hands={0: "Z 147m 258s 369s 88m 9p 5p", 1: "ZZ 19m 19p 19s 258p 7s 3m",
                        2: "19m 19p 19s 258p 2s 8s 7s 4m", 3: "19m 19p 19s 258p 2s 8s 7s 6m"})
    g.apply("discard Z", 0)
    assert g.legal_actions(1) == ["peng", "pass"]
    g.apply("peng Z", 1)
    assert [str(m) for m in g.melds[1]] == ["peng ZZZ"]


def test_bare_chi_and_ambiguous_chi() -> None:
    g = position(hands={0: "5p 147m 258s 369s 88m 9p Z", 1: "3467p 19m 19s 258m 9p Z",
                        2: "19m 19p 19s 258m 2s 8s 7s Z", 3: "19m 19p 19s 258m 2s 8s 7s Z"})
    g.apply("discard 5p", 0)
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="several sequences"):
        g.apply("chi", 1)
    assert snapshot(g) == before
    g.apply("chi 4p 5p 6p", 1)
    assert [str(m) for m in g.melds[1]] == ["chi 456p"]
