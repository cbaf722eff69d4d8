"""A rules audit of the Shengji core against RULES-shengji.md: one scenario per rule, each setting up a position
(a deal with chosen cards, or a hand in play with chosen hands) and asserting the spec's outcome."""

from __future__ import annotations

import pytest
from shengji_helpers import c, deal_hands, in_play, run_deal

from qipai.core.game import IllegalAction
from qipai.core.options import OptionError
from qipai.games.shengji.cards import counts, order
from qipai.games.shengji.combos import combination, failed_throw, is_tractor, read_lead, trick_winner
from qipai.games.shengji.follow import follow_error
from qipai.games.shengji.game import ShengjiGame
from qipai.games.shengji.rules import resolve_options


def play(g: ShengjiGame, *moves: str) -> None:
    for text in moves:
        g.apply("play " + text, g.turn)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------- §2, §3: the deal


def test_later_hand_declares_with_the_banker_teams_level() -> None:
    """§2.2/§3.2: the level of a hand is the banker team's level; a declaration shows level cards of that rank
    and only chooses the trump suit (the banker stays)."""
    deal = deal_hands({1: "9S 5H", 3: "9H 9H"}, first=0, seed=3)
    g = ShengjiGame({}, 0, {"hand": 3, "levels": ["5", "9"], "banker": 1}, deal=deal, first=0)
    while g.dealt < 8:
        g.timeout(0)
    assert g.check("declare 5H", 1) == "5H is not a level card: the level is 9"
    g.apply("declare 9S", 1)
    g.timeout(0)
    g.apply("declare 9H 9H", 3)  # the partner overcalls: trump changes, the banker does not
    run_deal(g)
    assert (g.trump, g.banker, g.turn) == (1, 1, 1) and g.order is not None and g.order.level_letter == "9"


def test_no_declaration_later_hand_is_spades_and_keeps_the_banker() -> None:
    g = ShengjiGame({}, 0, {"hand": 4, "levels": ["7", "J"], "banker": 2})
    run_deal(g)
    assert g.trump == 0 and g.banker == 2 and g.turn == 2 and g.order is not None and g.order.level_letter == "7"


def test_declaration_limits() -> None:
    """§3.2: 1..4 identical level cards of one suit, no jokers, an overcall needs more cards, no self-overcall."""
    deal = deal_hands({0: "3S 3S 3S 3S", 1: "3H 3H B"}, first=0, seed=5)
    g = ShengjiGame({}, 0, {}, deal=deal, first=0)
    while g.dealt < 16:
        g.timeout(0)
    assert g.check("declare B", 1) == "jokers cannot be declared"
    assert g.check("declare 3H 3H 3H", 1) == "you hold 2 3H, not 3"
    g.apply("declare 3H 3H", 1)
    assert "more than 2" in (g.check("declare 3S 3S", 0) or "")
    g.apply("declare 3S 3S 3S 3S", 0)
    assert g.legal_actions(0) == []  # answered this window
    g.timeout(2)
    assert g.legal_actions(1) == ["pass"] and g.legal_actions(0) == ["pass"]  # nothing beats 4 / own standing


# ---------------------------------------------------------------------------------------------- §4, §5: order, tractors


def test_level_a_chains() -> None:
    """§5.2 with level A: the trump chain runs … K, 2, A, B, R; off suits end at K."""
    o = order("A", "S")
    assert is_tractor(c("KS KS 2S 2S"), o) and is_tractor(c("KS KS 2D 2D"), o)
    assert is_tractor(c("2H 2H AS AS"), o) and is_tractor(c("AD AD B B"), o)
    assert not is_tractor(c("KH KH 2H 2H"), o)  # KH is an off-suit card
    assert is_tractor(c("QH QH KH KH"), o)
    # tractor values: top group first (主A > 副A)
    a, b = combination(c("2C 2C AS AS"), o), combination(c("2S 2S AH AH"), o)
    assert a is not None and b is not None and a.values > b.values


def test_jokers_and_level_cards_as_tractor_positions() -> None:
    o = order("7", "C")
    assert is_tractor(c("7H 7H B B R R"), o)  # 副级, B, R
    assert is_tractor(c("2D 2D 7C 7C B B"), o)
    assert not is_tractor(c("7C 7C 7H 7H"), o)  # 主级 and 副级 share a position
    assert not is_tractor(c("B B 2C 2C"), o)  # the level position lies between


# ---------------------------------------------------------------------------------------------- §6: following


@pytest.mark.parametrize(("lead", "hand", "play", "ok"), [
    # P3 lead, the follower has a P2 and a separate pair: rank 3 P2 + P
    ("6S 6S 7S 7S 8S 8S", "9S 9S TS TS KS KS 4S", "9S 9S TS TS KS KS", True),
    ("6S 6S 7S 7S 8S 8S", "9S 9S TS TS KS KS 4S", "9S 9S KS KS TS 4S", False),
    # P3 lead, only a P2 and singles: rank 5 2P + 2S, which the P2 satisfies
    ("6S 6S 7S 7S 8S 8S", "9S 9S TS TS KS QS 4S", "9S 9S TS TS KS 4S", True),
    ("6S 6S 7S 7S 8S 8S", "9S 9S TS TS KS QS 4S", "9S 9S TS KS QS 4S", False),
    # P2 lead, a triple and singles: rank 3 P + 2S, the triple's third card is a filler
    ("6S 6S 7S 7S", "9S 9S 9S KS 4S", "9S 9S 9S KS", True),
    ("6S 6S 7S 7S", "9S 9S 9S KS 4S", "9S KS 4S 9S", True),
    ("6S 6S 7S 7S", "9S 9S 9S KS 4S QS", "9S KS 4S QS", False),
    # trump P2 lead, level 3 trump H: AH AH 2C 2C is a tractor and must be played
    ("4H 4H 5H 5H", "AH AH 2C 2C 7H 8H", "AH AH 2C 2C", True),
    ("4H 4H 5H 5H", "AH AH 2C 2C 7H 8H", "AH AH 7H 8H", False),
    # 3S 3S B B (副级, small joker) is a tractor too
    ("4H 4H 5H 5H", "3S 3S B B 7H 8H", "3S 3S 7H 8H", False),
    # 2H 2H 2S 2S is not: rank 2 2P
    ("4H 4H 5H 5H", "2H 2H 2S 2S 7H 8H", "2H 2H 2S 2S", True),
    ("4H 4H 5H 5H", "2H 2H 2S 2S 7H 8H", "2H 2H 7H 8H", False),
    # quad lead, a T2 and nothing else: rank 2 P2 (T + S is rank 4)
    ("AS AS AS AS", "5S 5S 5S 6S 6S 6S", "5S 5S 6S 6S", True),
    ("AS AS AS AS", "5S 5S 5S 6S 6S 6S", "5S 5S 5S 6S", False),
    # P4 lead: two separate quads are rank 1 with P4
    ("5S 5S 6S 6S 7S 7S 8S 8S", "9S 9S 9S 9S QS QS QS QS JS JS KS KS", "9S 9S 9S 9S QS QS QS QS", True),
    ("5S 5S 6S 6S 7S 7S 8S 8S", "9S 9S 9S 9S QS QS QS QS JS JS KS KS", "QS QS QS QS JS JS KS KS", False),
])
def test_follow_with_part_of_the_shape(lead: str, hand: str, play: str, ok: bool) -> None:
    o = order("3", "H")
    err = follow_error(counts(c(hand)), read_lead(c(lead), o), c(play), o)
    assert (err is None) == ok, err


def test_follow_a_throw_keeps_pairs() -> None:
    """§6.6: at least min(pairs(throw), pairs the n cards can hold)."""
    o = order("3", "H")
    lead = read_lead(c("AS AS KS KS QS 9S 9S"), o)  # P2(A K) + P(9) + S: 3 pairs
    assert lead.is_throw and lead.pairs == 3
    hand = counts(c("JS JS TS TS TS TS 4S 5S"))  # 3 pairs (a quad gives 2)
    assert follow_error(hand, lead, c("JS JS TS TS TS TS 4S"), o) is None
    assert follow_error(hand, lead, c("JS JS TS TS 4S 5S TS"), o) is not None  # 2 pairs < 3
    assert follow_error(hand, lead, c("JS TS TS 4S 5S TS TS"), o) is not None  # the quad's 2 pairs < 3
    hand = counts(c("JS JS TS 8S 7S 6S 5S"))
    assert follow_error(hand, lead, c("JS JS TS 8S 7S 6S 5S"), o) is None


# ---------------------------------------------------------------------------------------------- §6.7: the winner


def test_equal_trump_tractors_first_played_wins() -> None:
    """§4/§5.3: 2S 2S 3C 3C and 2C 2C 3D 3D are equal (副级 over 副2): the first played keeps the trick; 2H 2H 3D 3D
    (same top group, then 主2 > 副2) is higher."""
    o = order("3", "H")
    plays = [c("KD KD AD AD"), c("2S 2S 3C 3C"), c("2C 2C 3D 3D"), c("2H 2H 3D 3D")]
    lead = read_lead(plays[0], o)
    assert trick_winner(lead, plays[:3], o) == 1
    assert trick_winner(lead, plays, o) == 3


def test_overtrumping_a_pair_tractor() -> None:
    """§6.7: void seats trump a P2; a higher trump P2 over-trumps; a trump quad beats both (stronger kind); a
    quad in the led suit does not beat a trump play."""
    o = order("5", "H")
    lead = read_lead(c("7D 7D 8D 8D"), o)
    plays = [c("7D 7D 8D 8D"), c("3H 3H 4H 4H"), c("AH AH 2S 2S"), c("KD KD KD KD")]
    assert trick_winner(lead, plays, o) == 2
    plays = [c("7D 7D 8D 8D"), c("AH AH 2S 2S"), c("6H 6H 6H 6H"), c("2H 2H 5C 5C")]
    assert trick_winner(lead, plays, o) == 2
    plays = [c("7D 7D 8D 8D"), c("AH AH 2S 2S"), c("AH AH 2D 2D"), c("3H 3H 6H 6H")]  # equal, not a tractor
    assert trick_winner(lead, plays, o) == 1


def test_mixed_or_broken_plays_never_compete() -> None:
    """§6.7: a play mixing suits (short of the led suit) or breaking the format never takes the trick, however
    high its cards; nor does an off-suit play on a trump lead."""
    o = order("5", "H")
    lead = read_lead(c("3D 3D"), o)
    assert trick_winner(lead, [c("3D 3D"), c("AD R"), c("R B"), c("AH KH")], o) == 0
    lead = read_lead(c("3H 3H"), o)
    assert trick_winner(lead, [c("3H 3H"), c("AS AS"), c("4H 4H"), c("AD AD")], o) == 2


def test_trumping_a_throw_and_overtrumping() -> None:
    """§6.7: a trump play competes against an off-suit throw only in the throw's formats; the split with the
    highest values in reading order; equal is not higher."""
    o = order("5", "H")
    lead = read_lead(c("AS AS KS"), o)
    assert [p.fmt for p in lead.parts] == [(2, 1), (1, 1)]
    plays = [c("AS AS KS"), c("3H 3H 4H"), c("9H 9H 3H"), c("9H 9H 3H")]
    assert trick_winner(lead, plays, o) == 2
    plays = [c("AS AS KS"), c("9H 9H 3H"), c("3H 4H 6H"), c("3H 3H AH")]  # no pair: does not compete
    assert trick_winner(lead, plays, o) == 1
    plays = [c("AS AS KS"), c("QS 3S 4S"), c("3H 3H 4H"), c("3H 3H AH")]  # second component decides
    assert trick_winner(lead, plays, o) == 3


def test_a_valid_trump_throw_always_wins() -> None:
    o = order("5", "H")
    lead = read_lead(c("R R B"), o)
    assert lead.is_throw
    assert trick_winner(lead, [c("R R B"), c("B B R"), c("5H 5H 5H"), c("AH AH AH")], o) == 0


# ---------------------------------------------------------------------------------------------- §5.5: throws in play


def test_failed_throw_by_an_attacker_is_a_negative_penalty() -> None:
    g = in_play(("4", "4"), banker=0, trump="D", leader=1, hands={
        0: "AS 3C 4C 5C", 1: "KS KS QS 3D", 2: "7C 8C 9C 6C", 3: "JC JC QC QC"})
    g.apply("play KS KS QS", 1)  # QS is beatable by seat 0's AS; KS KS is not beatable (no higher pair)
    assert g.failed == [{"seat": 1, "cards": "KS KS QS", "forced": "QS", "penalty": -10, "trick": 1}]
    assert g.trick == [(1, tuple(c("QS")))] and g.penalties == -10
    play(g, "6C", "JC")  # seats 2, 3: void in spades
    assert g.check("play 3C", 0) is not None  # seat 0 must follow with its spade
    play(g, "AS")
    assert g.tricks[-1]["winner"] == 0 and g.turn == 0 and sum(g.hands[1]) == 3


def test_throw_with_a_beatable_tractor_by_a_quad() -> None:
    """§5.5: a P2 component is beatable by any quad of its suit (a stronger format), whatever its rank."""
    o = order("4", "D")
    lead = read_lead(c("AS AS KS KS 9S"), o)
    others = [counts(c("3S 3S 3S 3S")), counts(c("8S")), counts(c("5S"))]
    forced = failed_throw(lead, others, o)
    assert forced is not None and forced.text(o) == "AS AS KS KS"
    assert failed_throw(lead, [counts(c("3S 3S 5S 5S")), counts(c("8S")), counts(c("6S"))], o) is None


def test_throws_off() -> None:
    g = in_play(("4", "4"), banker=0, trump="D", options={"throws": False}, hands={
        0: "AS AS KS 3C", 1: "5C 6C 7C 8C", 2: "5C 6C 7C 8C", 3: "5C 6C 7C 8C"})
    with pytest.raises(IllegalAction, match="throws are off"):
        g.apply("play AS AS KS", 0)


# ---------------------------------------------------------------------------------------------- §8: the end of a hand


def test_example_17_koudi_by_the_banker_side_end_to_end() -> None:
    g = in_play(("Q", "7"), banker=2, trump="H", att_points=60, hands={
        2: "KS KS JS JS", 3: "TS TS 4S 4S", 0: "9S 9S 5S 5S", 1: "8S 7S 6S 5S"})
    play(g, "KS KS JS JS", "TS TS 4S 4S", "9S 9S 5S 5S", "8S 7S 6S 5S")
    out = g.outcome()
    assert out is not None and g.is_over
    assert out["last_trick"] == {"points": 55, "m": 4, "winner": 2, "side": "banker", "amount": -220}
    assert out["score"] == -160 and out["d_nominal"] == 3 and out["d_applied"] == 2
    assert out["new_levels"] == ["A", "7"] and out["next_banker"] == 0 and not out["match_over"]
    assert out["scores"] == [3, -3, 3, -3]


def test_example_16_attackers_win_end_to_end() -> None:
    g = in_play(("6", "9"), banker=0, trump="H", att_points=145, hands={
        0: "3S", 1: "KS", 2: "4S", 3: "5S"})
    play(g, "3S", "KS", "4S", "5S")
    out = g.outcome()
    assert out is not None and out["last_trick"]["amount"] == 15 and out["score"] == 160
    assert out["new_levels"] == ["6", "T"] and out["next_banker"] == 1 and out["scores"] == [-1, 1, -1, 1]


def test_last_trick_multiplier_of_a_throw_and_of_a_triple() -> None:
    g = in_play(("4", "4"), banker=0, trump="D", att_points=100, leader=1, hands={
        1: "AS AS AS", 2: "KS 5S 3S", 3: "TS 9S 8S", 0: "3C 6C 7C"})
    play(g, "AS AS AS", "KS 5S 3S", "TS 9S 8S", "3C 6C 7C")
    out = g.outcome()
    assert out is not None and out["last_trick"]["m"] == 3 and out["last_trick"]["amount"] == 75
    assert out["score"] == 175 and out["new_levels"] == ["4", "5"]
    g = in_play(("4", "4"), banker=0, trump="D", leader=1, hands={
        1: "AS AS KS KS QS", 2: "TS 9S 8S 7S 6S", 3: "3C 5C 6C 7C 8C", 0: "3H 5H 6H 7H 8H"})
    g.apply("play AS AS KS KS QS", 1)  # nobody else holds spades above: a valid throw
    play(g, "TS 9S 8S 7S 6S", "3C 5C 6C 7C 8C", "3H 5H 6H 7H 8H")
    out = g.outcome()
    assert out is not None and out["last_trick"]["m"] == 5 and out["last_trick"]["points"] == 40
    assert out["score"] == 200


def test_match_end_at_a_defend_and_pass() -> None:
    g = in_play(("A", "5"), banker=0, trump="H", att_points=150, hands={0: "3S", 1: "4S", 2: "5S", 3: "6S"})
    play(g, "3S", "4S", "5S", "6S")  # seat 3 (attacker) wins 5: s = 155
    out = g.outcome()
    assert out is not None and out["score"] == 155 and out["match_over"] and out["match_winner"] == 0
    g = in_play(("K", "5"), banker=0, trump="H", att_points=0, options={"ace_rule": "pass"},
                hands={0: "3S", 1: "4S", 2: "6S", 3: "7S"})
    play(g, "3S", "4S", "6S", "7S")  # s = 0: banker team +3 from K passes A
    out = g.outcome()
    assert out is not None and out["match_over"] and out["match_winner"] == 0 and out["new_levels"] == ["A", "5"]


# ---------------------------------------------------------------------------------------------- §10: options


@pytest.mark.parametrize(("name", "value"), [
    ("decks", 2), ("decks", 8), ("start_level", "2"), ("start_level", "10"), ("start_level", 3),
    ("ace_rule", "none"), ("hand_limit", 0), ("hand_limit", 2.5), ("throws", 1), ("throw_penalty", -5),
    ("deal_step_ms", -1), ("final_declare_s", float("inf")), ("first_lead_s", 0), ("play_s", 0),
    ("auto_play", "bot"), ("escape_penalty", "yes"), ("stake", 0), ("match_bonus", -1), ("kitty", 8),
])
def test_options_out_of_range_are_refused(name: str, value: object) -> None:
    with pytest.raises(OptionError):
        resolve_options({name: value})
    with pytest.raises(OptionError):
        ShengjiGame({name: value}, 0)


def test_options_in_range() -> None:
    opts = resolve_options({"start_level": "A", "hand_limit": 1, "throw_penalty": 0, "ace_rule": "pass",
                            "auto_play": "smart", "match_bonus": 3})
    assert opts["start_level"] == "A" and opts["throw_penalty"] == 0 and opts["decks"] == 4
    g = ShengjiGame({"start_level": "K"}, 0)
    assert g.level == 11 and g.context["levels"] == ["K", "K"]

