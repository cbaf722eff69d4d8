"""Brute force agrees with the generator: classifying every sub-multiset of a hand gives exactly its moves."""

from __future__ import annotations

import itertools
import random

import pytest

from qipai.games.doudizhu import PRESETS, beats, classify, legal_moves
from qipai.games.doudizhu.cards import NUM_RANKS, deck
from qipai.games.doudizhu.combos import Move


def random_hand(rules, size: int, rng: random.Random) -> tuple[int, ...]:
    cards = rng.sample(deck(rules.decks), size)
    c = [0] * NUM_RANKS
    for card in cards:
        c[card.rank] += 1
    return tuple(c)


def all_readings(hand: tuple[int, ...], rules) -> set[Move]:
    out: set[Move] = set()
    for sub in itertools.product(*(range(n + 1) for n in hand)):
        if any(sub):
            out.update(classify(tuple(sub), rules))
    return out


def sub_count(hand):
    n = 1
    for x in hand:
        n *= x + 1
    return n


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_leads_equal_brute_force(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(f"leads-{preset}")
    checked = 0
    while checked < 25:
        size = rng.randint(4, 16 if rules.decks == 1 else 18)
        hand = random_hand(rules, size, rng)
        if sub_count(hand) > 40_000:
            continue
        moves = legal_moves(hand, rules)
        assert len(moves) == len(set(moves)), "duplicate moves"
        assert set(moves) == all_readings(hand, rules), hand
        checked += 1


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_answers_equal_brute_force(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(f"answers-{preset}")
    checked = 0
    while checked < 25:
        size = rng.randint(4, 16 if rules.decks == 1 else 18)
        hand = random_hand(rules, size, rng)
        if sub_count(hand) > 40_000:
            continue
        everything = all_readings(hand, rules)
        other = random_hand(rules, rng.randint(6, 20), rng)
        leads = legal_moves(other, rules)
        for last in rng.sample(leads, min(5, len(leads))):
            answers = legal_moves(hand, rules, to_beat=last)
            assert len(answers) == len(set(answers))
            assert set(answers) == {m for m in everything if beats(m, last, rules)}, (hand, last)
        checked += 1
