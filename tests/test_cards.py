"""Card notation (RULES.md §1): round trips, card identity across decks, accepted spellings and errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.games.doudizhu import PRESETS, classify
from qipai.games.doudizhu.cards import (
    BLACK_JOKER,
    CARDS_PER_DECK,
    NUM_RANKS,
    RANK_LETTERS,
    RED_JOKER,
    SUITS,
    Card,
    NotationError,
    check_counts,
    counts_of,
    deck,
    format_cards,
    format_ranks,
    parse_cards,
    parse_ranks,
    rank_of,
    ranks_of_counts,
)
from qipai.games.doudizhu.combos import as_counts

FAST = settings(max_examples=150, deadline=None)

# --- ranks ------------------------------------------------------------------------------------------------


def test_rank_order_is_dou_dizhu_order() -> None:
    assert RANK_LETTERS == "3456789TJQKA2BR"
    assert NUM_RANKS == 15
    assert [rank_of(x) for x in "3TA2BR"] == [0, 7, 11, 12, BLACK_JOKER, RED_JOKER]
    assert rank_of("10") == rank_of("T") == rank_of("t") == 7


def test_accepted_spellings() -> None:
    want = parse_ranks("TTJQKA2BR")
    assert parse_ranks("10 10 j q k a 2 b r") == want
    assert parse_ranks("10,10,J,Q,K,A,2,B,R") == want
    assert parse_ranks("1010jqKa2bR") == want
    assert parse_ranks("  10, 10\tJ\nQ ,K, A, 2, B, R ") == want
    assert parse_ranks("") == []
    assert parse_ranks(" , ") == []


def test_parse_ranks_sorts() -> None:
    assert parse_ranks("R3B3") == [0, 0, BLACK_JOKER, RED_JOKER]
    assert format_ranks(parse_ranks("2A3")) == "3A2"


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("33X4", "X"),
        ("3 1", "1"),  # a lone 1 is not ten
        ("0", "0"),
        ("11", "1"),
        ("3;4", ";"),
        ("5S", "S"),  # suits are not rank letters
        ("3♠", "♠"),
        ("JOKER", "O"),
        ("3-4", "-"),
    ],
)
def test_bad_rank_token_is_named(text: str, token: str) -> None:
    with pytest.raises(NotationError) as e:
        parse_ranks(text)
    assert repr(token) in str(e.value)


def test_rank_of_rejects_unknown() -> None:
    with pytest.raises(NotationError, match="'X'"):
        rank_of("X")
    with pytest.raises(NotationError, match="'1'"):
        rank_of("1")


rank_lists = st.lists(st.integers(0, NUM_RANKS - 1), max_size=40)


@FAST
@given(rank_lists)
def test_ranks_round_trip(ranks: list[int]) -> None:
    text = format_ranks(ranks)
    assert len(text) == len(ranks)
    assert parse_ranks(text) == sorted(ranks)
    assert format_ranks(parse_ranks(text)) == text
    assert ranks_of_counts(counts_of(ranks)) == sorted(ranks)


def _spell_rank(r: int, variant: int) -> str:
    letter = RANK_LETTERS[r]
    if r == 7 and variant % 3 == 0:
        return "10"
    return letter.lower() if variant % 2 else letter


@FAST
@given(
    st.lists(
        st.tuples(
            st.integers(0, NUM_RANKS - 1), st.integers(0, 5), st.sampled_from(["", " ", ",", ", ", "  ,\t"])
        ),
        max_size=30,
    )
)
def test_loose_rank_spellings_round_trip(items: list[tuple[int, int, str]]) -> None:
    text = "".join(_spell_rank(r, v) + sep for r, v, sep in items)
    ranks = [r for r, _, _ in items]
    assert parse_ranks(text) == sorted(ranks)


# --- single cards -------------------------------------------------------------------------------------------


def test_card_fields() -> None:
    c = Card.parse("5S")
    assert (c.rank, c.suit, c.deck, str(c)) == (2, "S", 0, "5S")
    assert Card.parse("10h") == Card.parse("TH") == Card.parse(" th ") == Card.make(7, "H")
    assert Card.parse("B").suit is None and Card.parse("b").rank == BLACK_JOKER
    assert Card.parse("r").rank == RED_JOKER
    assert str(Card.parse("5S", deck=1)) == "5S"
    assert Card.parse("5S", deck=1) != Card.parse("5S")
    assert Card.parse("5S", deck=1).deck == 1


@given(st.integers(0, 2 * CARDS_PER_DECK - 1))
@FAST
def test_card_round_trip(card_id: int) -> None:
    c = Card(card_id)
    assert Card.parse(str(c), deck=c.deck) == c
    assert Card.parse(str(c).lower(), deck=c.deck) == c
    assert Card.make(c.rank, c.suit, c.deck) == c
    assert (c.suit is None) == (c.rank >= BLACK_JOKER)


def test_every_card_of_two_decks_is_distinct() -> None:
    cards = deck(2)
    assert len(cards) == len(set(cards)) == 108
    names = [str(c) for c in cards]
    # every name occurs once per deck
    assert all(names.count(n) == 2 for n in set(names))
    assert len(set(names)) == 54
    assert sum(1 for c in cards if c.rank == BLACK_JOKER) == 2
    assert sorted({c.suit for c in cards if c.suit}) == sorted(SUITS)


@pytest.mark.parametrize(
    ("token", "why"),
    [
        ("BS", "joker has no suit"),
        ("rh", "joker has no suit"),
        ("5", "needs a suit"),
        ("10", "needs a suit"),
        ("5X", "'5X'"),
        ("1S", "'1S'"),
        ("11S", "'11S'"),
        ("5SH", "'5SH'"),
        ("", "''"),
    ],
)
def test_bad_card_token_is_named(token: str, why: str) -> None:
    with pytest.raises(NotationError) as e:
        Card.parse(token)
    assert why in str(e.value)
    assert repr(token) in str(e.value)


def test_card_make_errors() -> None:
    with pytest.raises(NotationError, match="joker has no suit"):
        Card.make(BLACK_JOKER, "S")
    with pytest.raises(NotationError, match="suit"):
        Card.make(2, None)
    with pytest.raises(NotationError, match="suit"):
        Card.make(2, "X")
    with pytest.raises(NotationError, match="out of range"):
        Card.make(15, None)


# --- card lists ---------------------------------------------------------------------------------------------


def test_two_copies_come_from_two_decks() -> None:
    a, b, j = parse_cards("5S 5s B", decks=2)
    assert str(a) == str(b) == "5S"
    assert a != b and a.id != b.id
    assert (a.deck, b.deck, j.deck) == (0, 1, 0)
    assert parse_cards("B, B", decks=2)[1].deck == 1


def test_parse_cards_separators_and_case() -> None:
    want = parse_cards("TH 5S B")
    assert parse_cards("10h,5s,b") == want
    assert parse_cards(" 10H ,  5S\tB ") == want
    assert parse_cards("") == []


@pytest.mark.parametrize(
    ("text", "decks", "token"),
    [
        ("5S 5S", 1, "5S"),
        ("B B", 1, "B"),
        ("5S 5S 5s", 2, "5s"),
        ("R R R", 2, "R"),
        ("5S BS", 1, "BS"),
        ("5S 5X", 1, "5X"),
        ("5S;6S", 1, "5S;6S"),
        ("5S5H", 1, "5S5H"),
    ],
)
def test_parse_cards_errors_name_the_token(text: str, decks: int, token: str) -> None:
    with pytest.raises(NotationError) as e:
        parse_cards(text, decks=decks)
    assert repr(token) in str(e.value)


def _canonical(cards: list[Card]) -> list[Card]:
    """What notation can keep of a card set: the k-th copy of a card is taken to come from deck k."""
    seen: dict[int, int] = {}
    out = []
    for c in sorted(cards, key=lambda c: c.id % CARDS_PER_DECK):
        base = c.id % CARDS_PER_DECK
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.append(Card(base + n * CARDS_PER_DECK))
    return sorted(out)


@st.composite
def card_sets(draw: st.DrawFn) -> tuple[int, list[Card]]:
    decks = draw(st.sampled_from([1, 2]))
    ids = draw(st.lists(st.integers(0, decks * CARDS_PER_DECK - 1), unique=True, max_size=40))
    return decks, [Card(i) for i in ids]


@FAST
@given(card_sets())
def test_cards_round_trip(item: tuple[int, list[Card]]) -> None:
    decks, cards = item
    text = format_cards(cards)
    back = parse_cards(text, decks=decks)
    assert len(back) == len(cards) == len(set(back))
    assert sorted(map(str, back)) == sorted(map(str, cards))
    assert sorted(back) == _canonical(cards)
    assert format_cards(back) == text
    assert counts_of(c.rank for c in back) == counts_of(c.rank for c in cards)
    # the rank notation of the same cards reads back as the same ranks
    assert parse_ranks(format_ranks(c.rank for c in cards)) == sorted(c.rank for c in cards)


@FAST
@given(card_sets(), st.randoms(use_true_random=False))
def test_cards_loose_spelling(item: tuple[int, list[Card]], rnd) -> None:
    decks, cards = item
    cards = _canonical(cards)
    rnd.shuffle(cards)  # order of tokens does not matter beyond which copy is which deck
    toks = []
    for c in cards:
        t = str(c)
        if t[0] == "T" and rnd.random() < 0.5:
            t = "10" + t[1:]
        if rnd.random() < 0.5:
            t = t.lower()
        toks.append(t + rnd.choice([" ", ",", ", ", " ,\t"]))
    assert sorted(parse_cards("".join(toks), decks=decks)) == sorted(cards)


def test_format_cards_order() -> None:
    cards = parse_cards("B 3D 2S 3S 3s TH", decks=2)
    assert format_cards(cards) == "3S 3S 3D TH 2S B"


# --- counts and deck limits ---------------------------------------------------------------------------------


def test_counts_helpers() -> None:
    assert counts_of(parse_ranks("3334BR")) == (3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1)
    assert ranks_of_counts((0,) * 14 + (1,)) == [RED_JOKER]


@pytest.mark.parametrize(
    ("text", "decks", "words"),
    [
        ("AAAAA", 1, ["5", "rank A", "only 4"]),
        ("BB", 1, ["2", "rank B", "only 1"]),
        ("3RR", 1, ["rank R"]),
        ("BBB", 2, ["3", "rank B", "only 2"]),
        ("999999999", 2, ["9 cards", "rank 9", "only 8"]),
    ],
)
def test_too_many_copies(text: str, decks: int, words: list[str]) -> None:
    counts = counts_of(parse_ranks(text))
    with pytest.raises(NotationError) as e:
        check_counts(counts, decks)
    for w in words:
        assert w in str(e.value)
    rules = PRESETS["classic"] if decks == 1 else PRESETS["four_player"]
    with pytest.raises(NotationError, match=f"rank {text[-1]}"):
        as_counts(text, rules)
    with pytest.raises(NotationError):
        classify(text, rules)


def test_deck_limits_accept_full_decks() -> None:
    check_counts(counts_of(c.rank for c in deck(1)), 1)
    check_counts(counts_of(c.rank for c in deck(2)), 2)
    assert as_counts("AAAAAAAA", PRESETS["four_player"])[11] == 8
    # without rules there is no deck limit
    assert as_counts("AAAAA")[11] == 5


def test_as_counts_accepts_every_form() -> None:
    want = counts_of(parse_ranks("33B"))
    assert as_counts("33B") == want
    assert as_counts(list(want)) == want
    assert as_counts(want) == want
    assert as_counts(parse_cards("3S 3H B")) == want
    assert as_counts([]) == (0,) * NUM_RANKS
    with pytest.raises(NotationError):
        as_counts([1, 2, 3])
