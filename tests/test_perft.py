"""Golden move counts ("perft"): the number of leads and answers of fixed hands must not drift.

``tests/data/perft.json`` is written by ``tests/make_perft.py``; regenerate it only for a deliberate rules
change.  Before being frozen the counts were checked against :func:`closed_form`, an independent count by
formula (no enumeration of card sets) of RULES.md §3, which this file also runs on every hand, and by hand:

- cantonese, ``33467788TTTJJKA2R``: 11 ranks give 11 singles; ``33 77 88 TT JJ`` 5 pairs; ``TTT`` 1 triple and
  10 triple_singles (any of the 10 other ranks as kicker; cantonese has no triple_pair); no run of five ranks,
  three pairs or two triples, no bomb, no ``B``: 27 leads.  Against ``6``: ``7 8 T J K A 2 R`` = 8.
- four_player, ``3344568TJJJJQQQKKKAA22222``: 11 singles, 7 pairs, 4 triples (J Q K 2), 3 bombs (``JJJJ``,
  ``2222``, ``22222``), 1 straight (``TJQKA``), 3 pair straights (JQK, QKA, JQKA), 3 planes (JQ, QK, JQK),
  24 triple_pairs (4 triples x 6 other pairs), 24 plane_pairs (JQ and QK each with C(5,2) = 10 choices of two
  pairs, JQK with C(4,3) = 4): 80 leads.  Against ``88833``: 24 triple_pairs + 3 bombs = 27.
- classic, ``355678899TJQKKA2R``: 13 singles, 4 pairs, and the run 5..A of ten ranks holds
  6 + 5 + 4 + 3 + 2 + 1 = 21 straights: 38 leads.  Against ``56789``: five-card straights topped by T..A = 5.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from math import comb
from pathlib import Path
from typing import Any

import pytest

from qipai.games.doudizhu import KINDS, PRESETS, Move, Rules, legal_moves, parse_move
from qipai.games.doudizhu.cards import BLACK_JOKER, NUM_RANKS, RED_JOKER, counts_of, deck, parse_ranks

DATA = json.loads((Path(__file__).with_name("data") / "perft.json").read_text())
TOP_CHAIN = 11  # A

Key = tuple[str, int, int, int]  # kind, main rank, length, size


def _multisets(caps: list[int], k: int) -> int:
    """Ways to choose ``k`` cards from ranks holding ``caps`` cards each (ranks matter, suits do not)."""
    poly = [1]
    for cap in caps:
        nxt = [0] * (len(poly) + cap)
        for i, a in enumerate(poly):
            for j in range(cap + 1):
                nxt[i + j] += a
        poly = nxt
    return poly[k] if k < len(poly) else 0


def _single_kickers(c: tuple[int, ...], main: range, k: int, decks: int, share: bool) -> int:
    """Ways to add ``k`` single kickers of ranks outside ``main``, never holding the rocket's cards."""
    caps = [min(c[r], k) if share else min(c[r], 1) for r in range(NUM_RANKS) if c[r] and r not in main]
    total = _multisets(caps, k)
    if c[BLACK_JOKER] >= decks and c[RED_JOKER] >= decks and (share or decks == 1) and 2 * decks <= k:
        # kicker sets holding >= decks of each joker: fix those, choose the rest from the other ranks
        others = [min(c[r], k) if share else 1 for r in range(BLACK_JOKER) if c[r] and r not in main]
        jb = c[BLACK_JOKER] - decks if share else 0
        jr = c[RED_JOKER] - decks if share else 0
        total -= _multisets([*others, jb, jr], k - 2 * decks)
    return total


def _pair_kickers(c: tuple[int, ...], main: range, k: int, decks: int) -> int:
    """Ways to add ``k`` pairs of distinct ranks outside ``main``; ``BB`` + ``RR`` together are the rocket."""
    p = sum(1 for r in range(NUM_RANKS) if c[r] >= 2 and r not in main)
    total = comb(p, k)
    if decks == 2 and c[BLACK_JOKER] >= 2 and c[RED_JOKER] >= 2 and k >= 2:
        total -= comb(p - 2, k - 2)
    return total


def closed_form(c: tuple[int, ...], rules: Rules) -> Counter[Key]:
    """Every lead of hand ``c``, counted per (kind, main, length, size) by formula from RULES.md §3."""
    d, kinds, share = rules.decks, rules.kinds, rules.single_kickers_share_rank
    out: Counter[Key] = Counter()
    for r in range(NUM_RANKS):
        n = c[r]
        if n >= 1:
            out["single", r, 1, 1] += 1
        if n >= 2:
            out["pair", r, 1, 2] += 1
        if r < BLACK_JOKER:
            if n >= 3:
                out["triple", r, 1, 3] += 1
                out["triple_single", r, 1, 4] += sum(1 for x in range(NUM_RANKS) if c[x] and x != r)
                out["triple_pair", r, 1, 5] += sum(1 for x in range(NUM_RANKS) if c[x] >= 2 and x != r)
            for size in range(rules.bomb_min, n + 1):
                out["bomb", r, 1, size] += 1
            if n >= 4:
                out["four_two_singles", r, 1, 6] += _single_kickers(c, range(r, r + 1), 2, d, share)
                out["four_two_pairs", r, 1, 8] += _pair_kickers(c, range(r, r + 1), 2, d)
    if c[BLACK_JOKER] >= d and c[RED_JOKER] >= d:
        out["rocket", RED_JOKER, 1, 2 * d] += 1
    for kind, width, lo_len, hi_len in (
        ("straight", 1, rules.straight_min, rules.straight_max),
        ("pair_straight", 2, rules.pair_straight_min, rules.pair_straight_max),
        ("plane", 3, rules.plane_min, rules.plane_max),
    ):
        for hi in range(TOP_CHAIN + 1):
            for length in range(lo_len, min(hi_len, hi + 1) + 1):
                main = range(hi - length + 1, hi + 1)
                if all(c[r] >= width for r in main):
                    out[kind, hi, length, width * length] += 1
                    if kind == "plane":
                        out["plane_singles", hi, length, 4 * length] += _single_kickers(
                            c, main, length, d, share
                        )
                        out["plane_pairs", hi, length, 5 * length] += _pair_kickers(c, main, length, d)
    return Counter({k: n for k, n in out.items() if n and k[0] in kinds})


def closed_form_answers(moves: Counter[Key], last: Move) -> int:
    """How many of the counted moves beat ``last`` (RULES.md §3, comparison)."""
    total = 0
    for (kind, main, length, size), n in moves.items():
        if last.kind == "rocket":
            ok = False
        elif kind == "rocket":
            ok = True
        elif kind == "bomb":
            ok = last.kind != "bomb" or size > last.size or (size == last.size and main > last.main)
        else:
            ok = (kind, length, size) == (last.kind, last.length, last.size) and main > last.main
        total += n if ok else 0
    return total


CASES = [(name, i) for name in sorted(DATA["presets"]) for i in range(len(DATA["presets"][name]["hands"]))]


def test_file_covers_every_preset() -> None:
    assert set(DATA["presets"]) == set(PRESETS)
    for name, p in DATA["presets"].items():
        rules = PRESETS[name]
        sizes = [len(h["hand"]) for h in p["hands"]]
        assert len(sizes) == 12
        assert set(sizes) == {rules.hand_size, rules.hand_size + rules.kitty_size}
        kinds = {parse_move(lab, rules).kind for lab in p["to_beat"]}
        # a previous move of every kind the preset has, but the rocket (nothing answers it)
        assert kinds == rules.kinds - {"rocket"}


@pytest.mark.parametrize(("preset", "index"), CASES, ids=[f"{p}-{i}" for p, i in CASES])
def test_perft(preset: str, index: int) -> None:
    rules = PRESETS[preset]
    entry: dict[str, Any] = DATA["presets"][preset]["hands"][index]
    hand = counts_of(parse_ranks(entry["hand"]))
    leads = legal_moves(hand, rules)
    assert len(leads) == entry["leads"], "leads"
    for label, want in entry["answers"].items():
        got = len(legal_moves(hand, rules, to_beat=parse_move(label, rules)))
        assert got == want, f"answers to {label}"


@pytest.mark.parametrize(("preset", "index"), CASES, ids=[f"{p}-{i}" for p, i in CASES])
def test_perft_by_formula(preset: str, index: int) -> None:
    """The frozen counts agree with counting by formula, kind by kind."""
    rules = PRESETS[preset]
    entry = DATA["presets"][preset]["hands"][index]
    hand = counts_of(parse_ranks(entry["hand"]))
    expected = closed_form(hand, rules)
    assert sum(expected.values()) == entry["leads"]
    got = Counter((m.kind, m.main, m.length, m.size) for m in legal_moves(hand, rules))
    assert got == expected
    for label, want in entry["answers"].items():
        assert closed_form_answers(expected, parse_move(label, rules)) == want, label


def test_closed_form_small_examples() -> None:
    """The formula itself, on hands small enough to count in one's head."""
    classic = PRESETS["classic"]

    def total(text: str, rules: Rules = classic) -> int:
        return sum(closed_form(counts_of(parse_ranks(text)), rules).values())

    # 3,4,B,R singles + rocket
    assert total("34BR") == 5
    # 5555 + B + R: singles 5, B, R; pair 55; triple 555; bomb 5555; rocket; triple_single 555+B, 555+R;
    # no four_two_singles (its only kicker pair would be BR, the rocket)
    assert total("5555BR") == 3 + 1 + 1 + 1 + 1 + 2
    # 333444 + 5: singles 3; pairs 33 44; triples 2; triple_single 333+4, 333+5, 444+3, 444+5;
    # triple_pair 333+44, 444+33; plane 333444; no plane_singles (3 and 4 are main ranks, 5 is one card)
    assert total("3334445") == 3 + 2 + 2 + 4 + 2 + 1
    # two decks: BBRR is the rocket, BB and RR are pairs, B and R singles
    assert total("BBRR", PRESETS["four_player"]) == 2 + 2 + 1


FORMULA_RULES = {
    "classic": PRESETS["classic"],
    "cantonese": PRESETS["cantonese"],
    "four_player": PRESETS["four_player"],
    "four_player_show": PRESETS["four_player_show"],
    "classic_strict_kickers": PRESETS["classic"].replace(single_kickers_share_rank=False),
    # two decks with every kind: single kickers, BB/RR and BR among kickers, the BBRR rocket as a "four"
    "two_decks_all_kinds": PRESETS["four_player"].replace(kinds=list(KINDS)),
    "two_decks_strict": PRESETS["four_player"].replace(kinds=list(KINDS), single_kickers_share_rank=False),
    "two_decks_bomb_min_5": PRESETS["four_player"].replace(kinds=list(KINDS), bomb_min=5),
}


@pytest.mark.parametrize("name", sorted(FORMULA_RULES))
def test_formula_on_random_hands(name: str) -> None:
    """Beyond the frozen hands: random hands (half of them with extra jokers) agree with the formula."""
    rules = FORMULA_RULES[name]
    rng = random.Random(f"formula-{name}")
    cards = deck(rules.decks)
    jokers = [c for c in cards if c.rank >= BLACK_JOKER]
    plain = [c for c in cards if c.rank < BLACK_JOKER]
    for i in range(40):
        n = rng.randint(4, rules.hand_size + rules.kitty_size)
        k = rng.randint(0, len(jokers)) if i % 2 else 0
        hand = counts_of(c.rank for c in rng.sample(jokers, k) + rng.sample(plain, n - k))
        got = Counter((m.kind, m.main, m.length, m.size) for m in legal_moves(hand, rules))
        assert got == closed_form(hand, rules), hand
