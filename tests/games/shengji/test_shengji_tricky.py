"""Tricky positions of four-deck Shengji, pinned (a review of the rules core against RULES-shengji.md found no
discrepancy; these are the positions it probed).  Positions are built as in test_shengji_audit.py: the deal is
run without declarations, then the trump suit, the hands and the leader are set."""

from __future__ import annotations

from shengji_helpers import c, in_play

from qipai.games.shengji.cards import counts, order
from qipai.games.shengji.combos import read_lead, trick_winner
from qipai.games.shengji.follow import follow_error


def test_trump_tractor_across_the_level_gap_must_be_followed() -> None:
    """§5.2/§6.4 table 6: level 8, trump H: 7H 7H 9H 9H is a tractor (8 removed) and must follow a trump P2."""
    o = order("8", "H")
    lead = read_lead(c("3H 3H 4H 4H"), o)
    hand = counts(c("7H 7H 9H 9H JH QH"))
    assert follow_error(hand, lead, c("7H 7H 9H 9H"), o) is None
    assert follow_error(hand, lead, c("7H 7H JH QH"), o) is not None


def test_joker_tractor_with_the_level_pair_must_be_followed() -> None:
    """§5.2: 副级 pair + B B is a tractor at level 3 (positions L, B)."""
    o = order("3", "H")
    lead = read_lead(c("4H 4H 5H 5H"), o)
    hand = counts(c("3D 3D B B 7H 9H"))
    assert follow_error(hand, lead, c("3D 3D B B"), o) is None
    assert follow_error(hand, lead, c("3D 3D 7H 9H"), o) is not None


def test_void_trump_quad_over_trump_p2_over_suit_quad() -> None:
    """§6.7: on a P2 lead a suit quad (stronger kind) holds, a void seat's trump P2 takes it, a trump quad takes
    that."""
    o = order("5", "H")
    plays = [c("7D 7D 8D 8D"), c("KD KD KD KD"), c("3H 3H 4H 4H"), c("3H 3H 3H 3H")]
    lead = read_lead(plays[0], o)
    assert trick_winner(lead, plays[:2], o) == 1
    assert trick_winner(lead, plays[:3], o) == 2
    assert trick_winner(lead, plays, o) == 3


def test_failed_throw_forces_the_beatable_tractor() -> None:
    """§5.5: a throw P2(A K) + S(Q) where another seat holds a quad (stronger format than P2): the P2 is forced."""
    g = in_play(("3", "3"), banker=0, trump="H", hands={
        0: "AS AS KS KS QS", 1: "6S 6S 6S 6S 4C", 2: "4D 5D 6D 7D 8D", 3: "4C 5C 6C 7C 8C"})
    g.apply("play AS AS KS KS QS", 0)
    assert g.failed and g.failed[0]["forced"] == "AS AS KS KS" and g.penalties == 10
    assert g.trick[0][0] == 0 and sorted(g.trick[0][1]) == sorted(c("AS AS KS KS"))
    assert g.hands[0][c("QS")[0]] == 1  # the rest of the throw stays in hand


def test_valid_throw_trumped_on_the_last_trick_multiplies_by_its_size() -> None:
    """§6.7/§8.2: a valid off-suit throw taken by a void seat's matching trump split; m = 4 on the last trick."""
    g = in_play(("4", "4"), banker=0, trump="D", att_points=100, hands={
        0: "AS AS KS QS", 1: "3D 3D 5D 6D", 2: "7S 8S 9S JS", 3: "3C 4C 5C 6C"})
    g.apply("play AS AS KS QS", 0)
    assert g.failed == []
    for seat, text in ((1, "3D 3D 5D 6D"), (2, "7S 8S 9S JS"), (3, "3C 4C 5C 6C")):
        g.apply("play " + text, seat)
    out = g.outcome()
    assert out is not None
    assert out["last_trick"] == {"points": 20, "m": 4, "winner": 1, "side": "attackers", "amount": 80}
    assert out["score"] == 180 and out["new_levels"] == ["4", "5"] and out["next_banker"] == 1
