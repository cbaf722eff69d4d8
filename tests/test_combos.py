"""Combinations (RULES.md §3): every kind and kicker decision by example, comparison, move notation, and
property tests of classification and legal-move generation over random hands."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.games.doudizhu import KINDS, PRESETS, Move, MoveError, Rules, beats, classify, legal_moves, parse_move
from qipai.games.doudizhu.cards import (
    CARDS_PER_DECK,
    NUM_RANKS,
    NotationError,
    counts_of,
    deck,
    format_ranks,
    parse_ranks,
)
from qipai.games.doudizhu.combos import as_counts

CLASSIC = PRESETS["classic"]
FOUR = PRESETS["four_player"]
FOUR_SHOW = PRESETS["four_player_show"]
CANTONESE = PRESETS["cantonese"]
# two decks with every kind, to see the kicker rules where a two-deck preset has no kicker kind
FOUR_ALL = FOUR.replace(kinds=list(KINDS))


def readings(cards: str, rules: Rules) -> set[str]:
    """Every reading as ``kind MAINxLENGTH``."""
    return {m.describe() for m in classify(cards, rules)}


# --- every kind, and every kicker decision, by example ---------------------------------------------------

CASES: list[tuple[Rules, str, set[str]]] = [
    # single 单牌
    (CLASSIC, "5", {"single 5x1"}),
    (CLASSIC, "2", {"single 2x1"}),
    (CLASSIC, "B", {"single Bx1"}),
    (CLASSIC, "R", {"single Rx1"}),
    # pair 对牌
    (CLASSIC, "55", {"pair 5x1"}),
    (CLASSIC, "22", {"pair 2x1"}),
    (CLASSIC, "56", set()),
    (FOUR, "BB", {"pair Bx1"}),
    (FOUR, "RR", {"pair Rx1"}),
    (FOUR, "BR", set()),  # BR is never a pair, and with two decks not the rocket either
    (FOUR_ALL, "BR", set()),
    (FOUR, "BBR", set()),
    (FOUR, "BRR", set()),
    # triple 三张
    (CLASSIC, "555", {"triple 5x1"}),
    (CLASSIC, "222", {"triple 2x1"}),
    (FOUR, "555", {"triple 5x1"}),
    # triple_single 三带一
    (CLASSIC, "5556", {"triple_single 5x1"}),
    (CLASSIC, "3555", {"triple_single 5x1"}),
    (CLASSIC, "222B", {"triple_single 2x1"}),
    (CLASSIC, "5552", {"triple_single 5x1"}),
    (CLASSIC, "33334", set()),  # no 3334 + 3 (a kicker never has the main part's rank)
    (CLASSIC, "3333", {"bomb 3x1"}),  # ... and 333 + 3 is a bomb, not a triple with one
    (FOUR_ALL, "3333", {"bomb 3x1"}),
    # triple_pair 三带一对
    (CLASSIC, "55566", {"triple_pair 5x1"}),
    (CLASSIC, "33555", {"triple_pair 5x1"}),
    (CLASSIC, "555BR", set()),  # BR is not a pair
    (CLASSIC, "55567", set()),
    (FOUR, "555BB", {"triple_pair 5x1"}),  # with two decks BB is a pair and can be the pair
    (FOUR, "55555", {"bomb 5x1"}),  # five of a rank: a bomb, never 555 + 55
    (FOUR, "55566", {"triple_pair 5x1"}),
    # straight 单顺
    (CLASSIC, "34567", {"straight 7x5"}),
    (CLASSIC, "3456789TJQKA", {"straight Ax12"}),  # the longest: 3..A
    (CLASSIC, "TJQKA", {"straight Ax5"}),
    (CLASSIC, "3456", set()),
    (CLASSIC, "JQKA2", set()),  # never 2
    (CLASSIC, "TJQKA2", set()),
    (CLASSIC, "A2345", set()),  # no wrap-around
    (CLASSIC, "23456", set()),
    (CLASSIC, "QKA2B", set()),
    (CLASSIC, "34568", set()),
    (FOUR, "34567", {"straight 7x5"}),
    (FOUR_SHOW, "34567", set()),  # four_player_show has no straight
    # pair_straight 双顺
    (CLASSIC, "334455", {"pair_straight 5x3"}),
    (CLASSIC, "QQKKAA", {"pair_straight Ax3"}),
    (CLASSIC, "3344", set()),
    (CLASSIC, "KKAA22", set()),
    (CLASSIC, "AA2233", set()),
    (CLASSIC, "33445566778899TTJJ", {"pair_straight Jx9"}),
    (CLASSIC, "33445566778899TTJJQQ", {"pair_straight Qx10"}),  # the longest a one-deck hand can hold
    (FOUR, "33445566778899TTJJQQKKAA", {"pair_straight Ax12"}),
    (FOUR, "334455BB", set()),
    # plane 三顺
    (CLASSIC, "333444", {"plane 4x2"}),
    (CLASSIC, "KKKAAA", {"plane Ax2"}),
    (CLASSIC, "AAA222", set()),
    (CLASSIC, "333555", set()),
    (CLASSIC, "333444555", {"plane 5x3"}),
    (FOUR, "333444", {"plane 4x2"}),
    (FOUR, "33334444", set()),  # two bombs' worth is no plane
    # plane_singles 飞机带单
    (CLASSIC, "33344456", {"plane_singles 4x2"}),
    (CLASSIC, "33344455", {"plane_singles 4x2"}),  # single kickers may share a rank
    (CLASSIC, "3334445B", {"plane_singles 4x2"}),
    (CLASSIC, "333444BR", set()),  # the two jokers together are never kickers
    (CLASSIC, "KKKAAA2B", {"plane_singles Ax2"}),
    (CLASSIC, "KKKAAA22", {"plane_singles Ax2"}),
    (CLASSIC, "KKKAAABR", set()),
    (CLASSIC, "33344434", set()),  # no 333444 + 34
    (CLASSIC, "33334444", set()),  # ... and no 333444 + 3 + 4 either way
    (CLASSIC, "333444555678", {"plane_singles 5x3"}),
    (CLASSIC, "3334445557", set()),
    (CLASSIC, "4445556667779993", {"plane_singles 7x4"}),  # four triples + 9,9,9,3
    (CLASSIC, "3334445556667788", {"plane_singles 6x4"}),
    (CLASSIC, "3334445556667777", {"plane_singles 6x4"}),  # even four of a kind as single kickers
    (CLASSIC, "33344455566677788899", {"plane_singles 7x5", "plane_singles 8x5"}),
    (CLASSIC, "222333", set()),
    (FOUR, "33344456", set()),  # not a four_player kind
    (FOUR_ALL, "333444BR", {"plane_singles 4x2"}),  # with two decks BR is not the rocket
    (FOUR_ALL, "333444BB", {"plane_singles 4x2"}),
    # plane_pairs 飞机带对
    (CLASSIC, "3334445566", {"plane_pairs 4x2"}),
    (CLASSIC, "3334445555", set()),  # never 5555 as two pairs
    (CLASSIC, "333444555667799", {"plane_pairs 5x3"}),
    (CLASSIC, "3334442255", {"plane_pairs 4x2"}),
    (FOUR, "3334445566", {"plane_pairs 4x2"}),
    (FOUR, "3334445555", set()),
    (FOUR, "333444BBRR", set()),  # the rocket's cards are never kickers
    (FOUR, "333444BB55", {"plane_pairs 4x2"}),
    (FOUR, "333444555BBRR66", set()),
    (FOUR, "333444555BB6677", {"plane_pairs 5x3"}),
    (CANTONESE, "3334445566", set()),
    # four_two_singles 四带二
    (CLASSIC, "555534", {"four_two_singles 5x1"}),
    (CLASSIC, "555533", {"four_two_singles 5x1"}),
    (CLASSIC, "55552B", {"four_two_singles 5x1"}),
    (CLASSIC, "5555BR", set()),  # BR is the rocket, never two kickers
    (CLASSIC, "2222BR", set()),
    (FOUR_ALL, "BBRR34", set()),  # the rocket is never the four of a four-with-two
    (FOUR_ALL, "BBRR3344", set()),
    (FOUR_ALL, "555555", {"bomb 5x1"}),  # six of a rank is a bomb, not 5555 + 5 + 5
    # four_two_pairs 四带两对
    (CLASSIC, "55553344", {"four_two_pairs 5x1"}),
    (CLASSIC, "55553333", set()),  # never 3333 as two pairs
    (CLASSIC, "55554444", set()),
    (CLASSIC, "5555334B", set()),
    (FOUR_ALL, "5555BBRR", set()),
    (FOUR_ALL, "5555BB33", {"four_two_pairs 5x1"}),
    (CANTONESE, "55553344", set()),
    (CANTONESE, "555533", {"four_two_singles 5x1"}),
    # bomb 炸弹 and rocket 火箭
    (CLASSIC, "5555", {"bomb 5x1"}),
    (CLASSIC, "2222", {"bomb 2x1"}),
    (CLASSIC, "BR", {"rocket Rx1"}),
    (FOUR, "5555", {"bomb 5x1"}),
    (FOUR, "55555555", {"bomb 5x1"}),
    (FOUR, "BBRR", {"rocket Rx1"}),
    # a kind the preset does not have gives no reading
    (FOUR, "5556", set()),
    (FOUR, "555534", set()),
    (FOUR, "55553344", set()),
    (CANTONESE, "55566", set()),
    (CANTONESE, "5556", {"triple_single 5x1"}),
    # the famous three readings
    (CLASSIC, "333444555666", {"plane 6x4", "plane_singles 5x3", "plane_singles 6x3"}),
    (CANTONESE, "333444555666", {"plane 6x4", "plane_singles 5x3", "plane_singles 6x3"}),
    (FOUR, "333444555666", {"plane 6x4"}),
]


@pytest.mark.parametrize(
    ("rules", "cards", "want"), CASES, ids=[f"{i}-{c}" for i, (_, c, _) in enumerate(CASES)]
)
def test_reading(rules: Rules, cards: str, want: set[str]) -> None:
    assert readings(cards, rules) == want


def test_every_kind_has_an_example() -> None:
    seen = {d.split()[0] for _, _, want in CASES for d in want}
    assert seen == set(KINDS)


def test_bombs_of_every_size_with_two_decks() -> None:
    for n in range(4, 9):
        (m,) = classify("9" * n, FOUR)
        assert (m.kind, m.main_letter, m.size, m.length) == ("bomb", "9", n, 1)
    with pytest.raises(NotationError):
        classify("9" * 9, FOUR)
    with pytest.raises(NotationError):
        classify("99999", CLASSIC)


def test_move_fields() -> None:
    (m,) = classify("4445556667779993", CLASSIC)
    assert (m.kind, m.main, m.length, m.size) == ("plane_singles", 4, 4, 16)
    assert str(m) == "3444555666777999"
    assert m.counts == counts_of(parse_ranks("4445556667779993"))
    assert m.ranks == tuple(parse_ranks("3444555666777999"))
    assert m.kind_zh == "飞机带单"
    assert not m.is_bomb
    (r,) = classify("BBRR", FOUR)
    assert r.is_bomb and r.kind_zh == "火箭" and r.size == 4
    (b,) = classify("777777", FOUR)
    assert b.is_bomb and b.size == 6
    # moves are interned: equal readings are the same object
    assert classify("3334", CLASSIC)[0] is classify("4333", CLASSIC)[0]


def test_chain_length_options() -> None:
    short = CLASSIC.replace(straight_max=6, pair_straight_min=4, plane_min=3)
    assert readings("345678", short) == {"straight 8x6"}
    assert readings("3456789", short) == set()
    assert readings("334455", short) == set()
    assert readings("33445566", short) == {"pair_straight 6x4"}
    assert readings("333444", short) == set()
    assert readings("33344456", short) == set()
    assert readings("333444555", short) == {"plane 5x3"}


def test_single_kickers_may_not_share_rank_option() -> None:
    strict = CLASSIC.replace(single_kickers_share_rank=False)
    assert readings("33344455", strict) == set()
    assert readings("33344456", strict) == {"plane_singles 4x2"}
    assert readings("555533", strict) == set()
    assert readings("555534", strict) == {"four_two_singles 5x1"}


def test_rocket_is_not_a_kind_when_removed() -> None:
    no_rocket = CLASSIC.replace(kinds=[k for k in KINDS if k != "rocket"])
    assert classify("BR", no_rocket) == []
    assert "BR" not in [str(m) for m in legal_moves("BR3", no_rocket)]


# --- comparison ------------------------------------------------------------------------------------------

BEATS: list[tuple[Rules, str, str, bool]] = [
    # same kind, higher main rank
    (CLASSIC, "6", "5", True),
    (CLASSIC, "5", "5", False),
    (CLASSIC, "5", "6", False),
    (CLASSIC, "2", "A", True),
    (CLASSIC, "B", "2", True),
    (CLASSIC, "R", "B", True),
    (CLASSIC, "66", "55", True),
    (CLASSIC, "66", "5", False),  # kind differs
    (CLASSIC, "6", "55", False),
    (CLASSIC, "666", "555", True),
    (CLASSIC, "666", "5553", False),
    (FOUR, "RR", "BB", True),
    (FOUR, "BB", "22", True),
    # kickers do not count (带的牌不影响大小)
    (CLASSIC, "4443", "333A", True),
    (CLASSIC, "3332", "4445", False),
    (CLASSIC, "44433", "333AA", True),
    (CLASSIC, "33322", "44455", False),
    (CLASSIC, "44445566", "333322AA", True),
    (CLASSIC, "444435", "3333B2", True),
    (CLASSIC, "333444B2", "44455566", False),
    (CLASSIC, "44455536", "33344422", True),
    (CLASSIC, "4445553366", "333444AA22", True),
    # same kind, same length, same size
    (CLASSIC, "56789", "34567", True),
    (CLASSIC, "456789", "34567", False),  # longer straight
    (CLASSIC, "45678", "345678", False),
    (CLASSIC, "445566", "334455", True),
    (CLASSIC, "44556677", "334455", False),
    (CLASSIC, "444555", "333444", True),
    (CLASSIC, "444555666", "333444", False),
    (CLASSIC, "4443", "33344", False),  # triple_single against triple_pair
    (CLASSIC, "44455", "3334", False),
    (CLASSIC, "444456", "33334455", False),  # four_two_singles against four_two_pairs
    (CLASSIC, "33344455", "3456789T", False),  # same size, other kind
    # bombs and the rocket
    (CLASSIC, "3333", "2", True),
    (CLASSIC, "3333", "QQKKAA", True),
    (CLASSIC, "3333", "222234", True),  # four-with-two is not a bomb
    (CLASSIC, "222234", "3333", False),
    (CLASSIC, "4444", "3333", True),
    (CLASSIC, "3333", "4444", False),
    (CLASSIC, "4444", "4444", False),
    (CLASSIC, "BR", "2222", True),
    (CLASSIC, "BR", "3", True),
    (CLASSIC, "2222", "BR", False),
    (CLASSIC, "BR", "BR", False),
    (CLASSIC, "3456789TJQKA", "BR", False),
    # two decks: bombs compare size first, then rank
    (FOUR, "55555", "22222", False),
    (FOUR, "22222", "55555", True),
    (FOUR, "333333", "22222", True),
    (FOUR, "22222", "333333", False),
    (FOUR, "33333", "2222", True),
    (FOUR, "44444444", "33333333", True),
    (FOUR, "33333333", "2222222", True),
    (FOUR, "BBRR", "22222222", True),
    (FOUR, "22222222", "BBRR", False),
    (FOUR, "3333", "BB", True),
    (FOUR, "BBRR", "BBRR", False),
]


@pytest.mark.parametrize(("rules", "move", "last", "want"), BEATS, ids=[f"{m}>{la}" for _, m, la, _ in BEATS])
def test_beats(rules: Rules, move: str, last: str, want: bool) -> None:
    m = parse_move(move, rules)
    la = parse_move(last, rules)
    assert beats(m, la, rules) is want
    assert beats(m, la) is want
    if want:
        assert not beats(la, m, rules)  # the order is strict


def test_beats_between_readings_of_the_same_cards() -> None:
    p6 = parse_move("333444555666:plane_singles:6", CLASSIC)
    p5 = parse_move("333444555666:plane_singles:5", CLASSIC)
    plane = parse_move("333444555666:plane", CLASSIC)
    other = parse_move("333444555789", CLASSIC)
    assert beats(p6, p5) and not beats(p5, p6)
    assert beats(p6, other) and not beats(p5, other) and not beats(other, p5)
    assert not beats(plane, p6) and not beats(p6, plane)
    assert beats(parse_move("444555666777:plane", CLASSIC), plane)


# --- move notation ---------------------------------------------------------------------------------------


def test_labels() -> None:
    assert parse_move("34567", CLASSIC).label(CLASSIC) == "34567"
    assert parse_move("333444555666:plane", CLASSIC).label(CLASSIC) == "333444555666:plane"
    p5 = parse_move("666555444333:plane_singles:5", CLASSIC)
    assert p5.label(CLASSIC) == "333444555666:plane_singles:5"
    assert p5.describe() == "plane_singles 5x3"
    # under a preset where the cards read one way, the label is the bare cards
    assert parse_move("333444555666", FOUR).label(FOUR) == "333444555666"
    assert parse_move("33344455566677788899:plane_singles:7", CLASSIC).main_letter == "7"
    assert parse_move("10 10 10 J J J 3 4", CLASSIC).label(CLASSIC) == "34TTTJJJ"


@pytest.mark.parametrize(
    ("text", "rules", "words"),
    [
        (
            "333444555666",
            CLASSIC,
            ["more than one way", "333444555666:plane", ":plane_singles:5", ":plane_singles:6"],
        ),
        (
            "333444555666:plane_singles",
            CLASSIC,
            ["more than one way", ":plane_singles:5", ":plane_singles:6"],
        ),
        ("3456", CLASSIC, ["'3456'", "not a valid combination"]),
        ("3334", FOUR, ["'3334'", "not a valid combination"]),
        ("3334:triple_pair", CLASSIC, ["does not read as triple_pair"]),
        ("3334:triples", CLASSIC, ["unknown kind 'triples'"]),
        ("333444555666:plane_singles:7", CLASSIC, ["no reading with main rank 7"]),
        ("333444555666:plane_singles:56", CLASSIC, ["bad main rank"]),
        ("3334:triple_single:3:3", CLASSIC, ["expected cards[:kind[:main rank]]"]),
        ("", CLASSIC, ["not a valid combination"]),
    ],
)
def test_parse_move_errors(text: str, rules: Rules, words: list[str]) -> None:
    with pytest.raises(MoveError) as e:
        parse_move(text, rules)
    for w in words:
        assert w in str(e.value)


def test_parse_move_notation_errors() -> None:
    with pytest.raises(NotationError, match="'X'"):
        parse_move("33X", CLASSIC)
    with pytest.raises(NotationError):
        parse_move("33333", CLASSIC)
    assert issubclass(MoveError, ValueError)


def test_parse_move_accepts_loose_notation() -> None:
    want = parse_move("TTTJJJQQQKKK:plane_singles:K", CLASSIC)
    assert parse_move(" 10,10,10 j j j q q q k k k : plane_singles : k ", CLASSIC) is want


# --- property tests -----------------------------------------------------------------------------------------

PROPERTY_PRESETS = ["classic", "cantonese", "four_player", "four_player_show"]
SETTINGS = settings(max_examples=60, deadline=None)


@st.composite
def hands(draw: st.DrawFn, rules: Rules, sizes: tuple[int, int]) -> tuple[int, ...]:
    """A random hand: ``sizes`` cards drawn without replacement from the rules' decks."""
    n = draw(st.integers(*sizes))
    ids = draw(
        st.lists(st.integers(0, rules.decks * CARDS_PER_DECK - 1), unique=True, min_size=n, max_size=n)
    )
    return counts_of(deck(rules.decks)[i].rank for i in ids)


def full_size(rules: Rules) -> tuple[int, int]:
    return (rules.hand_size, rules.hand_size + rules.kitty_size)


def _within(sub: tuple[int, ...], hand: tuple[int, ...]) -> bool:
    return all(a <= b for a, b in zip(sub, hand, strict=True))


def _check_move(m: Move, rules: Rules) -> None:
    readings_ = classify(m.counts, rules)
    assert m in readings_
    assert m.kind in rules.kinds
    # the move's notation and its label both read back as the move
    assert parse_move(m.label(rules), rules) is m
    assert counts_of(parse_ranks(str(m))) == m.counts


@pytest.mark.parametrize("preset", PROPERTY_PRESETS)
def test_leads_and_answers(preset: str) -> None:
    rules = PRESETS[preset]

    @SETTINGS
    @given(hands(rules, full_size(rules)), hands(rules, full_size(rules)), st.randoms(use_true_random=False))
    def check(hand: tuple[int, ...], other: tuple[int, ...], rnd) -> None:
        leads = legal_moves(hand, rules)
        assert len(leads) == len(set(leads)), "duplicate leads"
        assert leads, "a non-empty hand always has a lead"
        for m in leads:
            assert _within(m.counts, hand), m
        for m in rnd.sample(leads, min(40, len(leads))):
            _check_move(m, rules)
        for last in rnd.sample(legal_moves(other, rules), 4):
            answers = legal_moves(hand, rules, to_beat=last)
            assert len(answers) == len(set(answers)), "duplicate answers"
            for a in answers:
                assert beats(a, last, rules), (a, last)
                assert _within(a.counts, hand)
            # the answers are exactly the leads that beat the last play
            assert set(answers) == {m for m in leads if beats(m, last, rules)}

    check()


@pytest.mark.parametrize("preset", PROPERTY_PRESETS)
def test_classify_random_sets(preset: str) -> None:
    rules = PRESETS[preset]

    @settings(max_examples=150, deadline=None)
    @given(hands(rules, (1, 16)))
    def check(cards: tuple[int, ...]) -> None:
        found = classify(cards, rules)
        assert len(found) == len(set(found))
        assert found == sorted(found)
        text = format_ranks(r for r in range(NUM_RANKS) for _ in range(cards[r]))
        assert classify(text, rules) == found
        for m in found:
            assert m.counts == cards
            assert m.size == sum(cards)
            assert str(m) == text
            assert m.kind in rules.kinds
            assert parse_move(m.label(rules), rules) is m
        if len(found) == 1:
            assert found[0].label(rules) == text
            assert parse_move(text, rules) is found[0]

    check()


@pytest.mark.parametrize("preset", PROPERTY_PRESETS)
def test_readings_of_lead_cards_round_trip(preset: str) -> None:
    """Lead cards often read several ways: every reading's label names exactly that reading."""
    rules = PRESETS[preset]

    @SETTINGS
    @given(hands(rules, full_size(rules)), st.randoms(use_true_random=False))
    def check(hand: tuple[int, ...], rnd) -> None:
        leads = legal_moves(hand, rules)
        by_cards: dict[tuple[int, ...], set[Move]] = {}
        for m in leads:
            by_cards.setdefault(m.counts, set()).add(m)
        for counts in rnd.sample(sorted(by_cards), min(30, len(by_cards))):
            found = classify(counts, rules)
            # every reading of cards in hand is a lead
            assert set(found) == by_cards[counts]
            labels = [m.label(rules) for m in found]
            assert len(set(labels)) == len(labels)
            for m, lab in zip(found, labels, strict=True):
                assert parse_move(lab, rules) is m

    check()


def test_as_counts_of_cards_matches_notation() -> None:
    cards = deck(2)[:30]
    assert as_counts(cards) == counts_of(c.rank for c in cards)
    assert legal_moves(cards, FOUR) == legal_moves(as_counts(cards), FOUR)


# --- a pair straight is at most ten pairs with one deck (§3), whatever the kitty ---------------------------
ELEVEN_PAIRS = "33445566778899TTJJQQKK"
TWELVE_PAIRS = "33445566778899TTJJQQKKAA"


def test_one_deck_pair_straight_is_at_most_ten_pairs_in_the_classifier() -> None:
    assert [m.describe() for m in classify(ELEVEN_PAIRS[:-2], CLASSIC)] == ["pair_straight Qx10"]
    assert classify(ELEVEN_PAIRS, CLASSIC) == []
    assert classify(TWELVE_PAIRS, CLASSIC) == []


def test_one_deck_pair_straight_of_eleven_pairs_is_no_lead_with_a_big_kitty() -> None:
    # kitty_size is a rule option: with a 9-card kitty the landlord holds 24 cards and can hold 11 or 12 pairs
    rules = CLASSIC.replace(kitty_size=9)
    leads = legal_moves(TWELVE_PAIRS, rules)
    assert max(m.length for m in leads if m.kind == "pair_straight") == 10


def test_two_decks_keep_longer_pair_straights() -> None:
    # the ten-pair cap is for one deck only: two decks (33-card landlord) may chain every rank 3..A
    assert [m.describe() for m in classify(TWELVE_PAIRS, FOUR)] == ["pair_straight Ax12"]
