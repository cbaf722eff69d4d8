"""Scenario tests for the deal flow (RULES.md §2, §4–§6), built from given deals."""

from __future__ import annotations

import pytest

from qipai.core.game import IllegalAction
from qipai.games.doudizhu.cards import Card
from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game, next_first_bidder

from ddz_deals import game, hand_ranks, landlord_plays_out

CLASSIC = PRESETS["classic"]


# --- first bidder --------------------------------------------------------------------------------------------
def test_random_then_rotate_moves_to_next_seat_each_deal() -> None:
    g = Game.new(CLASSIC, seed=11)
    assert next_first_bidder(CLASSIC, g) == (g.first_bidder + 1) % 3
    g2 = Game.new(CLASSIC, seed=12, first_bidder=next_first_bidder(CLASSIC, g))
    assert g2.first_bidder == (g.first_bidder + 1) % 3 and g2.to_act == g2.first_bidder
    assert next_first_bidder(PRESETS["jj_match"], g) is None  # random each deal


@pytest.mark.parametrize("seat", [-1, 3])
def test_a_first_bidder_that_is_no_seat_is_refused(seat: int) -> None:
    """Game.new took it and made a deal no seat could act in ('no such seat 3' for every action); the PettingZoo
    environment with that context failed with an IndexError."""
    with pytest.raises(IllegalAction, match=r"first_bidder must be a seat 0\.\.2"):
        Game.new(CLASSIC, seed=1, first_bidder=seat)


def test_random_first_bidder_covers_every_seat() -> None:
    seen = {Game.new(PRESETS["jj_match"], seed=s).first_bidder for s in range(40)}
    assert seen == {0, 1, 2}


def test_face_up_card_holder_bids_first_and_card_is_never_in_kitty() -> None:
    rules = PRESETS["cantonese"]
    for seed in range(60):
        g = Game.new(rules, seed)
        assert g.face_up is not None
        assert g.face_up not in g.kitty
        assert g.face_up in g.hands[g.first_bidder]
        assert g.observe((g.first_bidder + 1) % 3)["face_up"] == str(g.face_up)


def test_spade_five_holder_bids_first_then_heart_five() -> None:
    rules = PRESETS["chengdu"]
    g = game(rules, ["", "5", ""], first_bidder=None)  # deck order gives ♠5 first
    assert any(c.rank == 2 and c.suit == "S" for c in g.hands[1])
    assert g.first_bidder == 1
    # ♠5 in the kitty: the holder of ♥5 bids first
    hands, kitty = [["5H"], [], []], ["5S"]
    g = _deal_with(rules, hands, kitty)
    assert g.first_bidder == 0


def _deal_with(rules, want_hands, want_kitty) -> Game:  # type: ignore[no-untyped-def]
    """Place specific suited cards, filling the rest in deck order."""
    used = {Card.parse(t).id for h in want_hands for t in h} | {Card.parse(t).id for t in want_kitty}
    rest = [c for c in (Card(i) for i in range(54)) if c.id not in used]
    hands = []
    for h in want_hands:
        cards = [Card.parse(t) for t in h]
        while len(cards) < rules.hand_size:
            cards.append(rest.pop(0))
        hands.append(cards)
    kitty = [Card.parse(t) for t in want_kitty]
    while len(kitty) < rules.kitty_size:
        kitty.append(rest.pop(0))
    return Game.from_deal(rules, hands, kitty, first_bidder=None)


# --- bidding -------------------------------------------------------------------------------------------------
def test_score_bidding_must_rise_and_highest_wins() -> None:
    g = Game.new(CLASSIC, seed=1, first_bidder=0)
    g.apply("bid 1")
    assert g.legal_actions() == ["pass", "bid 2", "bid 3"]
    with pytest.raises(IllegalAction, match="bid too low"):
        g.apply("bid 1")
    with pytest.raises(IllegalAction, match="not your turn"):
        g.apply("bid 2", seat=0)
    g.apply("bid 2")
    g.apply("pass")
    assert (g.landlord, g.bid, g.phase) == (1, 2, "play")
    assert len(g.hands[1]) == 20 and g.to_act == 1


def test_bid_three_ends_bidding_at_once() -> None:
    g = Game.new(CLASSIC, seed=1, first_bidder=1)
    g.apply("bid 3")
    assert (g.landlord, g.bid, g.phase) == (1, 3, "play")


def test_call_bidding_first_caller_is_landlord_with_bid_one() -> None:
    g = Game.new(PRESETS["cantonese"], seed=4)
    fb = g.first_bidder
    assert g.legal_actions() == ["pass", "call"]
    with pytest.raises(IllegalAction, match="calls the landlord"):
        g.apply("bid 2")
    g.apply("pass")
    g.apply("call")
    assert (g.landlord, g.bid) == ((fb + 1) % 3, 1)


def test_illegal_action_leaves_state_untouched() -> None:
    g = Game.new(CLASSIC, seed=5, first_bidder=0)
    g.apply("bid 3")
    before = g.observe(0)
    for bad in ["pass", "play 3X", "play AAAAA", "bid 2", "double", "play 34"]:
        with pytest.raises(IllegalAction):
            g.apply(bad)
        assert g.observe(0) == before


# --- all pass --------------------------------------------------------------------------------------------------
def test_redeal_keeps_first_bidder_and_counts() -> None:
    g = Game.new(CLASSIC, seed=9, first_bidder=2)
    first = [list(h) for h in g.hands]
    for _ in range(3):
        g.apply("pass")
    assert g.redeals == 1 and g.phase == "bid" and g.to_act == 2 and g.first_bidder == 2
    assert [list(h) for h in g.hands] != first
    for _ in range(3):
        g.apply("pass")
    assert g.redeals == 2


def test_starter_is_landlord_on_all_pass() -> None:
    g = Game.new(PRESETS["jj_match"], seed=3)
    fb = g.first_bidder
    for _ in range(3):
        g.apply("pass")
    assert (g.landlord, g.bid, g.phase) == (fb, 1, "play")


def test_jj_third_redeal_forces_last_bidder() -> None:
    g = Game.new(PRESETS["jj"], seed=21, first_bidder=0)
    for deal in range(3):
        g.apply("pass")
        g.apply("pass")
        assert "pass" in g.legal_actions(), f"deal {deal + 1}: the last bidder may still pass"
        g.apply("pass")
    assert g.redeals == 3
    g.apply("pass")
    g.apply("pass")
    assert g.legal_actions() == ["bid 1", "bid 2", "bid 3"]
    with pytest.raises(IllegalAction, match="must bid"):
        g.apply("pass")
    g.apply("bid 1")
    assert (g.landlord, g.bid) == (2, 1)


def test_jj_forced_bid_not_when_someone_bid() -> None:
    g = Game.new(PRESETS["jj"], seed=21, first_bidder=0)
    for _ in range(9):
        g.apply("pass")
    g.apply("bid 1")
    g.apply("pass")
    assert "pass" in g.legal_actions()


def test_dissolve_after_three_deals_without_bid() -> None:
    g = Game.new(PRESETS["four_player"], seed=2)
    for _ in range(3):
        assert g.phase == "bid"
        for _ in range(4):
            g.apply("pass")
    assert g.is_over and g.dissolved
    out = g.outcome()
    assert out is not None and out["dissolved"] and out["scores"] == [0, 0, 0, 0] and out["winner"] is None


def test_forced_bid_hands_all_jokers_or_three_bombs() -> None:
    rules = PRESETS["four_player_show"]
    g = game(rules, ["BBRR", "", "", ""], first_bidder=0)
    assert "pass" not in g.legal_actions()
    g = game(rules, ["", "333344445555", "", ""], first_bidder=0)
    g.apply("pass")
    assert g.legal_actions()[0] == "bid 1" and "pass" not in g.legal_actions()
    # somebody before him bid: no longer forced
    g = game(rules, ["", "333344445555", "", ""], first_bidder=0)
    g.apply("bid 1")
    assert "pass" in g.legal_actions()


# --- kitty, show hand -------------------------------------------------------------------------------------------
def test_kitty_visibility() -> None:
    g = Game.new(CLASSIC, seed=3, first_bidder=0)
    assert g.observe(1)["kitty"] is None
    g.apply("bid 3")
    assert g.observe(1)["kitty"] == [str(c) for c in g.kitty]
    h = Game.new(PRESETS["four_player_show"], seed=3, first_bidder=0)
    h.apply("bid 3")
    assert h.observe(0)["kitty"] == [str(c) for c in h.kitty]
    assert h.observe(1)["kitty"] is None and h.observe(None)["kitty"] is None


def test_show_hand_reveals_and_triples() -> None:
    rules = PRESETS["four_player_show"]
    g = game(rules, ["", "", "", ""], first_bidder=0)
    g.apply("bid 3")
    assert g.phase == "show" and g.legal_actions() == ["pass", "show"]
    g.apply("show")
    assert g.observe(2)["shown_hand"] == [str(c) for c in g.hands[0]]
    assert "show hand ×3" in g.observe(2)["factors"]


# --- Chengdu doubling ---------------------------------------------------------------------------------------------
def test_chengdu_doubling_per_farmer_and_first_bidder_loses_right() -> None:
    rules = PRESETS["chengdu"]
    g = Game.new(rules, seed=5)
    fb = g.first_bidder
    g.apply("pass")  # the first bidder passes: no right to 倒
    g.apply("call")
    landlord = (fb + 1) % 3
    other = (fb + 2) % 3
    assert g.landlord == landlord and g.phase == "double"
    assert g.to_act == other  # the first bidder is skipped
    g.apply("double")  # 倒
    assert g.to_act == landlord and g.legal_actions() == ["pass", "redouble"]
    g.apply("redouble")  # 反
    assert g.to_act == other and g.legal_actions() == ["pass", "double"]
    g.apply("double")  # 斡
    g.apply("redouble")  # 垒
    assert g.phase == "play"
    assert g.farmer_factors[other] == 16 and g.farmer_factors[fb] == 1


def test_chengdu_only_one_farmer_doubles_two_settlements() -> None:
    rules = PRESETS["chengdu"]
    # seat 0 holds ♠5 and bids first; seat 1 calls; seat 2 doubles
    g = game(rules, ["5", "3456789TJQKA2BR", ""], first_bidder=None)
    assert g.first_bidder == 0
    g.apply("pass")
    g.apply("call")
    g.apply("double")  # seat 2: 倒
    g.apply("pass")  # landlord does not 反
    assert g.phase == "play"
    plays = [str(m) for m in (g.legal_moves())]
    assert plays
    # landlord plays out as singles; farmers pass
    landlord_plays_out(g, list(hand_ranks(g, 1)))
    out = g.result
    assert out is not None and out.winner == "landlord"
    assert out.seat_multipliers[2] == 2 * out.multiplier and out.seat_multipliers[0] == out.multiplier
    assert out.scores[2] == 2 * out.scores[0] < 0
    assert out.scores[1] == -(out.scores[0] + out.scores[2])
    assert [str(f) for f in out.farmer_factors[2]] == ["倒 ×2"]


def test_doubling_refuses_wrong_word() -> None:
    g = Game.new(PRESETS["chengdu"], seed=5)
    g.apply("call")
    with pytest.raises(IllegalAction, match="may say 'double' or 'pass'"):
        g.apply("redouble")


# --- play ---------------------------------------------------------------------------------------------------------
def test_trick_passes_lead_to_last_player() -> None:
    g = game(CLASSIC, ["3", "4", "35"], first_bidder=0)
    g.apply("bid 3")
    g.apply("play 3")
    g.apply("play 4")
    with pytest.raises(IllegalAction, match="does not beat"):
        g.apply("play 3")
    g.apply("pass")
    g.apply("pass")
    assert g.to_act == 1 and g.trick.last is None
    assert g.observe(0)["last_trick"] == [[0, "3"], [1, "4"], [2, "pass"], [0, "pass"]]
    with pytest.raises(IllegalAction, match="may not pass"):
        g.apply("pass")


def test_play_errors_say_why() -> None:
    g = game(CLASSIC, ["333444555666", "", ""], first_bidder=0)
    g.apply("bid 3")
    with pytest.raises(IllegalAction, match="you do not hold"):
        g.apply("play 2222")
    with pytest.raises(IllegalAction, match="not a valid combination"):
        g.apply("play 34")
    with pytest.raises(IllegalAction, match="reads more than one way"):
        g.apply("play 333444555666")
    g.apply("play 333444555666:plane_singles:6")
    assert g.trick.last is not None and g.trick.last.describe() == "plane_singles 6x3"


# --- timeouts, auto-play, escape ------------------------------------------------------------------------------------
def test_timeout_while_bidding_passes_and_autoplays() -> None:
    g = Game.new(CLASSIC, seed=2, first_bidder=0)
    g.timeout(g.to_act)
    assert g.bids == [(0, 0)] and g.autoplay[0]
    assert g.actions[-1] == (0, "timeout")


def test_timeout_when_leading_plays_smallest_single_then_follow_passes() -> None:
    g = game(CLASSIC, ["", "", ""], first_bidder=0)
    g.apply("bid 3")
    low = min(c.rank for c in g.hands[0])
    g.timeout(g.to_act)
    assert g.trick.last is not None and g.trick.last.kind == "single" and g.trick.last.main == low
    assert g.autoplay[0]
    g.timeout(g.to_act)  # seat 1 follows: counts as pass
    assert g.trick.plays[-1] == (1, "pass") and g.autoplay[1]


def test_autoplay_on_off_any_time_and_errors() -> None:
    g = Game.new(CLASSIC, seed=2, first_bidder=0)
    g.set_autoplay(2, True)
    assert g.in_autoplay(2)
    with pytest.raises(IllegalAction, match="already"):
        g.set_autoplay(2, True)
    g.set_autoplay(2, False)
    assert not g.in_autoplay(2)


def test_escape_penalty_before_bidding() -> None:
    rules = PRESETS["chengdu"].replace(stake=5)
    g = Game.new(rules, seed=1)
    g.leave(1)
    out = g.result
    assert g.is_over and out is not None and out.escaped == 1
    assert out.scores == [0, -15, 0]  # 3 × stake


def test_escape_penalty_after_bidding() -> None:
    rules = PRESETS["chengdu"].replace(stake=2)
    g = game(rules, ["5", "", ""], first_bidder=None)
    g.apply("call")  # seat 0 is landlord, bid 1
    g.apply("double")  # seat 1 倒
    g.apply("pass")  # seat 2
    g.apply("pass")  # landlord does not 反
    g.apply("play 3")
    g.leave(1)
    out = g.result
    assert out is not None
    assert out.scores == [0, -3 * 1 * 2 * 2, 0]  # 3 × bid × multiplier (own 倒) × stake


def test_escape_without_penalty_is_autoplay() -> None:
    g = Game.new(CLASSIC, seed=1, first_bidder=0)
    g.leave(2)
    assert not g.is_over and g.autoplay[2]
