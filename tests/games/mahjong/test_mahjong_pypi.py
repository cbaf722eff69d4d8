"""Agreement with the PyPI ``mahjong`` package (riichi rules) on random hands, where its rules and ours coincide.

What coincides and is compared:

* **Plain shape distance** (``shanten(..., plain=True)``): four sets and a pair, sets being sequences or
  triplets, with the four-copy limit.  Its ``calculate_shanten_for_regular_hand`` (seven pairs and thirteen
  orphans left out: not Daqing shapes) on suited hands of 7, 8, 10, 11, 13 and 14 tiles.
* **Complete shape** (``is_complete``): its ``Agari.is_agari`` on suited hands (and with 红中 as its 中), on the
  hands that are not seven pairs (riichi counts those; §6.1 does not).
* **The Daqing win, 夹 and waits**: its ``HandDivider`` gives every split into blocks of a hand with declared
  melds; the Daqing conditions of §6.2 (two suits, a triplet or a 红中 pair, a 1/9/红中, open, at most three
  melds) are checked here on those splits and compared with ``is_win``, the 夹 fan and ``waits``.

The package must be installed (``/work/main/.venv/bin/pip install mahjong``); without it these tests fail.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from qipai.games.mahjong.hand import fans, is_complete, is_win, shanten_plain_counts, waits
from qipai.games.mahjong.melds import Meld, chi_meld, peng_meld
from qipai.games.mahjong.tiles import YAOJIU, Z, format_tiles, from_counts

try:
    from mahjong.agari import Agari
    from mahjong.hand_calculating.divider import HandDivider
    from mahjong.meld import Meld as PMeld
    from mahjong.shanten import Shanten
except ImportError:  # pragma: no cover - the failure below says how to install it
    Agari = HandDivider = PMeld = Shanten = None

CHUN = 33


def _need() -> None:
    if Shanten is None:
        pytest.fail("the PyPI package 'mahjong' is needed for this test: /work/main/.venv/bin/pip install mahjong")


def _to34(counts28: list[int]) -> list[int]:
    c = list(counts28[:27]) + [0] * 7
    c[CHUN] = counts28[Z]
    return c


def _random_hand(rng: random.Random, n: int, kinds: int = 27) -> list[int]:
    wall = [k for k in range(kinds) for _ in range(4)]
    c = [0] * 28
    for k in rng.sample(wall, n):
        c[k] += 1
    return c


@pytest.mark.parametrize("size", [13, 14, 10, 11, 7, 8])
def test_plain_shanten_agrees_on_random_suited_hands(size: int) -> None:
    _need()
    rng = random.Random(1000 + size)
    for _ in range(1500):
        c = _random_hand(rng, size)
        ours = shanten_plain_counts(c)
        theirs = Shanten.calculate_shanten_for_regular_hand(_to34(c))
        assert ours == theirs, (format_tiles(from_counts(c)), ours, theirs)


def _near_complete(rng: random.Random, sets: int, with_z: bool) -> list[int]:
    while True:
        c = [0] * 28
        for _ in range(sets):
            if rng.random() < 0.55:
                s, r = rng.randrange(3), rng.randrange(7)
                for j in range(3):
                    c[9 * s + r + j] += 1
            else:
                c[rng.choice(range(28) if with_z else range(27))] += 3
        c[rng.choice(range(28) if with_z else range(27))] += 2
        if rng.random() < 0.5:
            i = rng.choice([k for k in range(28) if c[k]])
            c[i] -= 1
            c[rng.choice(range(28) if with_z else range(27))] += 1
        if max(c) <= 4:
            return c


@pytest.mark.parametrize("with_z", [False, True])
def test_complete_shape_agrees_with_agari(with_z: bool) -> None:
    _need()
    rng = random.Random(7 if with_z else 8)
    agreed = wins = 0
    for _ in range(4000):
        c = _near_complete(rng, 4, with_z)
        c34 = _to34(c)
        seven_pairs = sum(1 for x in c34 if x == 2) == 7
        theirs = Agari.is_agari(c34)
        if seven_pairs and theirs and not is_complete(c):
            continue  # riichi's 七对; not a Daqing shape (§6.1)
        assert is_complete(c) == theirs, format_tiles(from_counts(c))
        agreed += 1
        wins += theirs
    assert agreed > 3900 and wins > 1000  # the sample holds plenty of complete hands


def _pmeld(m: Meld) -> Any:
    tiles = [(CHUN if k == Z else k) * 4 + i for i, k in enumerate(m.tiles)]
    return PMeld(meld_type=PMeld.CHI if m.is_chi else PMeld.PON, tiles=tiles)


def _daqing_by_divider(concealed: list[int], melds: list[Meld], w: int) -> tuple[bool, bool]:
    """(wins, 夹) by the package's splits and the §6.2 conditions checked here."""
    full = list(concealed)
    full[w] += 1
    for m in melds:
        for k in m.tiles:
            full[k] += 1
    if max(full) > 4 or not 1 <= len(melds) <= 3:
        return False, False
    suits = {k // 9 for k in range(27) if full[k]}
    if len(suits) < 2 or not any(full[k] for k in YAOJIU):
        return False, False
    wk = CHUN if w == Z else w
    meld_blocks = [[CHUN if k == Z else k for k in m.tiles] for m in melds]
    win = jia = False
    for div in HandDivider.divide_hand(_to34(full), [_pmeld(m) for m in melds]):
        blocks = [sorted(b) for b in div]
        concealed_blocks = list(blocks)
        for mb in meld_blocks:
            concealed_blocks.remove(sorted(mb))
        if len(blocks) != 5:
            continue
        pair = [b for b in blocks if len(b) == 2]
        has_t = any(len(b) == 3 and b[0] == b[2] for b in blocks) or (pair and pair[0][0] == CHUN)
        if not has_t:
            continue
        win = True
        if any(len(b) == 3 and b[0] != b[1] and b[1] == wk for b in concealed_blocks):
            jia = True
    return win, jia


def _random_melds(rng: random.Random) -> list[Meld]:
    out = []
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.5:
            s, r = rng.randrange(3), rng.randrange(7)
            k = 9 * s + r
            out.append(chi_meld((k, k + 1, k + 2), k))
        else:
            out.append(peng_meld(rng.randrange(28)))
    return out


def test_daqing_win_jia_and_waits_agree_with_the_divider() -> None:
    _need()
    rng = random.Random(99)
    wins = jias = checked = 0
    for _ in range(2500):
        melds = _random_melds(rng)
        c = _near_complete(rng, 4 - len(melds), True)
        if max(c[k] + sum(m.tiles.count(k) for m in melds) for k in range(28)) > 4:
            continue
        w = rng.choice([k for k in range(28) if c[k]])
        before = list(c)
        before[w] -= 1
        hand = from_counts(before)
        ours = is_win(hand, w, melds)
        theirs, jia = _daqing_by_divider(before, melds, w)
        assert ours == theirs, (format_tiles(hand), format_tiles([w]), [str(m) for m in melds])
        if ours:
            assert ("jia" in (fans(hand, w, melds) or [])) == jia, (format_tiles(hand), w)
            wins += 1
            jias += jia
            held = [before[k] + sum(m.tiles.count(k) for m in melds) for k in range(28)]
            expect = [k for k in range(28) if held[k] < 4 and _daqing_by_divider(before, melds, k)[0]]
            assert waits(hand, melds) == [format_tiles([k]) for k in expect]
        checked += 1
    assert checked > 2000 and wins > 300 and jias > 30
