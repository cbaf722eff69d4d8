"""Audit scenarios: each rule of RULES.md §3–§8 checked on the presets that use it (rules-lawyer cases)."""

from __future__ import annotations

import pytest

from qipai.core.game import IllegalAction
from qipai.games.doudizhu.combos import beats, classify
from qipai.games.doudizhu.moves import legal_moves
from qipai.games.doudizhu.rules import KINDS, PRESETS, Rules
from qipai.games.doudizhu.settle import common_factors
from qipai.games.doudizhu.state import Game

from ddz_deals import game, hand_ranks, landlord_plays_out

CLASSIC = PRESETS["classic"]
FOUR = PRESETS["four_player"]
FOUR_SHOW = PRESETS["four_player_show"]
CHENGDU = PRESETS["chengdu"]


def readings(cards: str, rules: Rules) -> set[str]:
    return {m.describe() for m in classify(cards, rules)}


def one(cards: str, rules: Rules, kind: str | None = None) -> object:
    ms = [m for m in classify(cards, rules) if kind is None or m.kind == kind]
    assert len(ms) == 1, (cards, ms)
    return ms[0]


def factors(g: Game) -> list[str]:
    assert g.result is not None
    return [str(f) for f in g.result.factors]


def bid_and_pass(g: Game, value: int) -> None:
    g.apply(f"bid {value}")
    while g.phase == "bid":
        g.apply("pass")


# --- §3 combinations -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("rules", "cards", "want"), [
    (CLASSIC, "TJQKA2", set()),  # 2 never in a straight
    (CLASSIC, "QKA2B", set()),
    (CLASSIC, "JJQQKKAA22", set()),  # nor in a pair straight
    (CLASSIC, "KKKAAA222", set()),  # nor in a plane
    (CLASSIC, "AAA222", set()),
    (CLASSIC, "KKKAAA", {"plane Ax2"}),
    (CLASSIC, "3456789TJQKA", {"straight Ax12"}),  # a straight is at most 12 long (3..A)
    (CLASSIC, "4444BR", set()),  # the jokers together are never kickers
    (CLASSIC, "4444B2", {"four_two_singles 4x1"}),  # one joker is a fine kicker
    (CLASSIC, "333444BR", set()),
    (CLASSIC, "3334BR", set()),
    (CLASSIC, "333444B2", {"plane_singles 4x2"}),
    (CLASSIC, "333444555666" + "7777", {"plane_singles 6x4"}),  # a "bomb" as four single kickers
    (CLASSIC, "33334444", set()),  # no 3333 + 44 44, no 4444 used as two pairs
    (CLASSIC, "33334", set()),  # kicker of the triple's own rank
    (CLASSIC, "3333444", set()),
    (CLASSIC, "3334445", set()),
    (CLASSIC, "222B", {"triple_single 2x1"}),
    (CLASSIC, "22233", {"triple_pair 2x1"}),
    (FOUR, "BB", {"pair Bx1"}),  # two decks: BB and RR are pairs
    (FOUR, "RR", {"pair Rx1"}),
    (FOUR, "BR", set()),  # BR never is
    (FOUR, "BBR", set()),
    (FOUR, "BBRR", {"rocket Rx1"}),
    (FOUR, "33333", {"bomb 3x1"}),
    (FOUR, "3334", set()),  # four_player has no triple_single
    (FOUR, "333BB", {"triple_pair 3x1"}),
    (FOUR, "3334444", set()),
    (FOUR, "33344455BB", {"plane_pairs 4x2"}),
    (FOUR, "3334445555", set()),  # 5555 is not two pairs
    (FOUR_SHOW, "34567", set()),  # four_player_show has no straight
    (FOUR_SHOW, "334455", {"pair_straight 5x3"}),
    (PRESETS["cantonese"], "33344", set()),  # no triple_pair
    (PRESETS["cantonese"], "3334", {"triple_single 3x1"}),
    (PRESETS["cantonese"], "44445566", set()),  # no four_two_pairs
    (PRESETS["cantonese"], "444456", {"four_two_singles 4x1"}),
    (PRESETS["cantonese"], "3334445566", set()),  # no plane_pairs
])
def test_audit_readings(rules: Rules, cards: str, want: set[str]) -> None:
    assert readings(cards, rules) == want


def test_every_preset_has_exactly_its_kinds() -> None:
    all_kinds = frozenset(KINDS)
    four = frozenset({"single", "pair", "triple", "triple_pair", "straight", "pair_straight", "plane",
                      "plane_pairs", "bomb", "rocket"})
    want = {
        "classic": all_kinds, "jj": all_kinds, "jj_match": all_kinds, "effective_bombs": all_kinds,
        "chengdu": all_kinds,
        "cantonese": all_kinds - {"triple_pair", "plane_pairs", "four_two_pairs"},
        "four_player": four, "four_player_show": four - {"straight"},
    }
    assert {name: r.kinds for name, r in PRESETS.items()} == want


# --- §3 comparison ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("rules", "move", "last", "want"), [
    (CLASSIC, "BR", "2222", True),  # the rocket beats everything
    (CLASSIC, "2222", "BR", False),
    (CLASSIC, "3333", "BR", False),
    (CLASSIC, "3333", "34567", True),  # a bomb beats every non-bomb
    (CLASSIC, "3333", "444455", True),  # a four-with-two is not a bomb
    (CLASSIC, "444455", "3333", False),
    (CLASSIC, "4444", "3333", True),
    (CLASSIC, "45678", "34567", True),  # chains by highest unit, same length
    (CLASSIC, "456789", "34567", False),  # other length
    (CLASSIC, "3335", "2224", False),  # kickers do not count
    (CLASSIC, "AAA3", "KKK2", True),
    (CLASSIC, "2", "A", True),
    (CLASSIC, "B", "2", True),
    (CLASSIC, "R", "B", True),
    (CLASSIC, "33344456", "3334445566:plane_pairs", False),  # other kind
    (FOUR, "33333", "2222", True),  # a bomb of more cards beats one of fewer
    (FOUR, "2222", "33333", False),
    (FOUR, "44444", "33333", True),  # equal sizes compare by rank
    (FOUR, "33333333", "2222222", True),
    (FOUR, "BBRR", "22222222", True),  # 天王炸弹 beats everything
    (FOUR, "22222222", "BBRR", False),
    (FOUR, "RR", "BB", True),
    (FOUR, "BB", "22", True),
])
def test_audit_beats(rules: Rules, move: str, last: str, want: bool) -> None:
    def parse(text: str) -> object:
        cards, _, kind = text.partition(":")
        return one(cards, rules.replace(kinds=frozenset(KINDS)) if kind else rules, kind or None)

    m, lm = parse(move), parse(last)
    assert beats(m, lm, rules) is want  # type: ignore[arg-type]


# --- §5 Chengdu doubling 倒/反/斡/垒 ------------------------------------------------------------------------------
def _chengdu_landlord_seat0(lord: str = "5", kitty: str = "") -> Game:
    """Seat 0 holds ♠5 (so bids first) and calls: both farmers keep the right to 倒."""
    g = game(CHENGDU, [lord, "", ""], kitty, first_bidder=None)
    assert g.first_bidder == 0
    g.apply("call")
    assert (g.landlord, g.bid, g.phase, g.to_act) == (0, 1, "double", 1)
    return g


def test_chengdu_both_farmers_double_and_landlord_answers_both() -> None:
    g = _chengdu_landlord_seat0()
    g.apply("double")  # seat 1 倒
    g.apply("double")  # seat 2 倒
    assert g.to_act == 0 and g.legal_actions() == ["pass", "redouble"]
    g.apply("redouble")  # 反: both farmers ×2 again
    assert g.farmer_factors == [1, 4, 4]
    assert g.to_act == 1
    g.apply("pass")  # seat 1 does not 斡
    g.apply("double")  # seat 2 斡
    g.apply("redouble")  # 垒: only seat 2, who 斡'd
    assert g.phase == "play" and g.farmer_factors == [1, 4, 16]


def test_chengdu_no_double_means_no_answer_and_factor_one() -> None:
    g = _chengdu_landlord_seat0()
    g.apply("pass")
    g.apply("pass")
    assert g.phase == "play" and g.farmer_factors == [1, 1, 1] and g.doubling == []


def test_chengdu_redouble_only_for_the_farmer_who_doubled() -> None:
    g = _chengdu_landlord_seat0()
    g.apply("pass")  # seat 1
    g.apply("double")  # seat 2 倒
    g.apply("redouble")  # 反
    assert g.farmer_factors == [1, 1, 4]
    assert g.to_act == 2  # only the farmer who doubled may 斡
    g.apply("pass")
    assert g.phase == "play"


def test_chengdu_settlement_per_farmer_with_bomb_and_spring() -> None:
    # landlord: a bomb and singles; farmers always pass → bomb ×2, spring ×2
    g = _chengdu_landlord_seat0("59999")
    g.apply("double")  # seat 1 倒
    g.apply("double")  # seat 2 倒
    g.apply("redouble")  # 反 → 4, 4
    g.apply("double")  # seat 1 斡 → 8
    g.apply("pass")  # seat 2
    g.apply("redouble")  # 垒 → seat 1: 16
    assert g.farmer_factors == [1, 16, 4]
    rest = hand_ranks(g, 0).replace("9999", "")
    landlord_plays_out(g, ["9999", *rest])
    out = g.result
    assert out is not None and out.winner == "landlord"
    assert factors(g) == ["bomb ×2", "spring ×2"] and out.multiplier == 4
    assert out.seat_multipliers == {1: 64, 2: 16}
    assert out.scores == [64 + 16, -64, -16]
    assert [str(f) for f in out.farmer_factors[1]] == ["倒 ×2", "反 ×2", "斡 ×2", "垒 ×2"]
    assert [str(f) for f in out.farmer_factors[2]] == ["倒 ×2", "反 ×2"]


def test_chengdu_first_bidder_who_passed_cannot_double_even_when_landlord_is_last() -> None:
    g = game(CHENGDU, ["5", "", ""], first_bidder=None)
    g.apply("pass")  # seat 0, the first bidder, passes
    g.apply("pass")
    g.apply("call")  # seat 2 is landlord
    assert g.phase == "double" and g.to_act == 1  # seat 0 skipped
    g.apply("pass")
    assert g.phase == "play"


# --- §6 escape -----------------------------------------------------------------------------------------------
def test_escape_penalty_uses_bombs_so_far() -> None:
    g = _chengdu_landlord_seat0("59999")
    g.apply("pass")
    g.apply("pass")
    g.apply("play 9999")  # a bomb so far: multiplier 2
    g.leave(2)
    out = g.result
    assert out is not None and out.escaped == 2
    assert out.scores == [0, 0, -3 * 1 * 2]  # 3 × bid × multiplier × stake; nobody else changes


# --- §5 show hand, §7 four-player settlement ---------------------------------------------------------------------
def test_four_player_show_hand_triples_and_share_is_three() -> None:
    g = game(FOUR_SHOW, ["", "", "", ""], first_bidder=0)
    bid_and_pass(g, 2)
    assert g.landlord == 0 and g.phase == "show"
    g.apply("show")
    landlord_plays_out(g, list(reversed(hand_ranks(g, 0))))
    assert factors(g) == ["spring ×2", "show hand ×3"]
    assert g.result is not None and g.result.scores == [3 * 2 * 6, -12, -12, -12]


def test_four_player_show_led_bombs_are_not_effective_but_beating_ones_are() -> None:
    g = game(FOUR_SHOW, ["33333", "44444", "", ""], first_bidder=0)
    bid_and_pass(g, 1)
    g.apply("pass")  # no show
    g.apply("play 33333")  # led: counts for nothing
    g.apply("play 44444")  # beats a play: effective
    assert [str(f) for f in common_factors(g)] == ["bomb ×2"]


def test_four_player_five_card_bomb_is_x1_and_rocket_x3() -> None:
    g = game(FOUR, ["33333BBRR", "", "", ""], first_bidder=0)
    bid_and_pass(g, 1)
    rest = hand_ranks(g, 0).replace("33333", "").replace("BBRR", "")
    landlord_plays_out(g, ["33333", "BBRR", *rest])
    assert factors(g) == ["rocket ×3", "spring ×2"]
    assert g.result is not None and g.result.scores == [18, -6, -6, -6]


def test_four_player_anti_spring() -> None:
    g = game(FOUR, ["3", "456789TJQKA2", "", ""], first_bidder=0)
    bid_and_pass(g, 1)
    g.apply("play 3")
    farmer = list(reversed(hand_ranks(g, 1)))
    for ch in farmer:
        if g.is_over:
            break
        while g.to_act != 1:
            g.apply("pass")
        g.apply(f"play {ch}")
    out = g.result
    assert out is not None and out.winner == "farmers" and out.anti_spring
    assert out.scores == [-3 * 2, 2, 2, 2]


# --- §7 bomb factors ---------------------------------------------------------------------------------------------
def test_linear_bombs_and_rocket_separately() -> None:
    g = game(PRESETS["jj_match"], ["33334444BR", "", ""], first_bidder=0)
    bid_and_pass(g, 1)
    rest = hand_ranks(g, 0).replace("3333", "").replace("4444", "").replace("BR", "")
    landlord_plays_out(g, ["3333", "4444", "BR", *rest])
    assert factors(g) == ["bombs ×3", "rocket ×2", "spring ×2"]
    assert g.result is not None and g.result.multiplier == 12


def test_effective_bombs_rocket_led_counts_nothing_beating_counts() -> None:
    rules = PRESETS["effective_bombs"]
    g = game(rules, ["BR", "", ""], first_bidder=0)
    bid_and_pass(g, 1)
    g.apply("play BR")
    assert common_factors(g) == []
    g = game(rules, ["3", "BR", ""], first_bidder=0)
    bid_and_pass(g, 1)
    g.apply("play 3")
    g.apply("play BR")
    assert [str(f) for f in common_factors(g)] == ["rocket ×2"]


# --- §7 minimisation: order and the landlord's shrinking points ---------------------------------------------------
def test_minimisation_landlord_loses_pays_in_turn_order_from_next_seat() -> None:
    rules = CLASSIC.replace(cap_by_table_points=True, stake=50, anti_spring=False)
    # landlord seat 1 (bids), farmer seat 2 goes out; landlord holds 60 points, owes 100 to each farmer
    g = game(rules, ["", "34", "56789TJQKA2"], first_bidder=1, table_points=[1000, 60, 1000])
    g.apply("bid 2")
    g.apply("pass")
    g.apply("pass")
    assert g.landlord == 1
    g.apply("play 3")
    g.apply("pass")
    g.apply("pass")
    g.apply("play 4")
    for ch in reversed(hand_ranks(g, 2)):
        if g.is_over:
            break
        while g.to_act != 2:
            g.apply("pass")
        g.apply(f"play {ch}")
    out = g.result
    assert out is not None and out.winner == "farmers"
    # seat 2 (the landlord's next seat) is paid first, then seat 0 with what the landlord has left
    assert [(p.payer, p.payee, p.owed, p.paid) for p in out.payments] == [(1, 2, 100, 60), (1, 0, 100, 0)]
    assert out.scores == [0, -60, 60]


# --- §4 bidding ------------------------------------------------------------------------------------------------
def test_score_bidding_all_bid_highest_wins_after_one_round() -> None:
    g = Game.new(FOUR, seed=4, first_bidder=1)
    g.apply("bid 1")
    g.apply("pass")
    g.apply("bid 2")
    assert g.phase == "bid" and g.to_act == 0
    g.apply("pass")
    assert (g.landlord, g.bid) == (3, 2) and len(g.hands[3]) == 33


def test_call_bidding_cannot_bid_a_number() -> None:
    g = Game.new(PRESETS["cantonese"], seed=4)
    assert g.legal_actions() == ["pass", "call"]
    with pytest.raises(IllegalAction):
        g.apply("bid 2")


def test_forced_bid_on_timeout_bids_one() -> None:
    g = Game.new(PRESETS["jj"], seed=21, first_bidder=0)
    for _ in range(9):
        g.apply("pass")
    g.apply("pass")
    g.apply("pass")
    g.timeout(2)
    assert (g.landlord, g.bid) == (2, 1) and g.autoplay[2]


def test_leading_bomb_in_hand_is_a_legal_lead_and_follow_can_pass() -> None:
    g = game(CLASSIC, ["3333", "", ""], first_bidder=0)
    bid_and_pass(g, 1)
    assert "play 3333" in g.legal_actions() and "pass" not in g.legal_actions()
    assert any(m.kind == "bomb" for m in legal_moves(hand_ranks(g, 0), CLASSIC))


# --- §7 auto-play settlement belongs to the deal that is settled ------------------------------------------------
def test_autoplay_in_a_redealt_deal_does_not_count_in_the_next() -> None:
    """A redeal after an all-pass is a new deal (重新开始一局): a seat that timed out while bidding in the
    abandoned deal, then left auto-play, was not in auto-play in the deal being settled."""
    rules = PRESETS["jj"].replace(autoplay_split=True)
    g = Game.new(rules, seed=3, first_bidder=0)
    g.timeout(0)  # seat 0 times out: passes and goes into auto-play
    g.apply("pass")
    g.set_autoplay(0, False)  # back in control while the abandoned deal is still being bid
    g.apply("pass")
    assert g.redeals == 1 and not g.autoplay[0]
    g.apply("pass")  # seat 0
    g.apply("bid 1")  # seat 1
    g.apply("pass")
    assert g.landlord == 1
    while not g.is_over:  # the landlord leads its highest single, farmers pass
        if g.to_act == 1:
            g.apply(f"play {hand_ranks(g, 1)[-1]}")
        else:
            g.apply("pass")
    out = g.result
    assert out is not None and out.winner == "landlord"
    assert out.autoplay == [False, False, False]
    assert out.scores == [-2, 4, -2]  # spring ×2, split normally: seat 0 was never in auto-play in this deal


def test_autoplay_still_on_at_a_redeal_counts_in_the_new_deal() -> None:
    rules = PRESETS["jj"].replace(autoplay_split=True)
    g = Game.new(rules, seed=3, first_bidder=0)
    g.timeout(0)
    g.apply("pass")
    g.apply("pass")
    assert g.redeals == 1 and g.autoplay[0]
    g.apply("pass")  # seat 0 (the host's auto-play bot passes for it)
    g.apply("bid 1")
    g.apply("pass")
    while not g.is_over:
        g.apply(f"play {hand_ranks(g, 1)[-1]}" if g.to_act == 1 else "pass")
    out = g.result
    assert out is not None and out.autoplay == [True, False, False]
    assert out.scores == [-4, 4, 0]  # the auto-player pays the farmers' whole loss
