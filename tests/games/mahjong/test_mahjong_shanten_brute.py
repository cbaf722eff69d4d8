"""The Daqing 向听 against a brute-force search: the fewest draws (each followed by the best discard) that make the
hand complete under the §6.2 shape conditions, over every tile kind, minus one."""

from __future__ import annotations

import functools
import random

import pytest

from qipai.games.mahjong.hand import MeldSig, _hand_conditions, _shape_ok, meld_sig, shanten_counts, shape_mask
from qipai.games.mahjong.melds import parse_melds
from qipai.games.mahjong.rules import DAQING, Rules


def brute_shanten(counts: list[int], sig: MeldSig, rules: Rules, depth: int) -> int | None:
    """向听 by search up to ``depth`` draws (``None`` beyond); being open is not asked (as 向听 leaves it out)."""
    open_sig = MeldSig(max(sig.count, 1), sig.features, sig.suits, sig.copies, sig.pengs)

    def complete(c: tuple[int, ...]) -> bool:
        return _hand_conditions(c, open_sig) and _shape_ok(shape_mask(c), open_sig, rules)

    @functools.cache
    def d14(c: tuple[int, ...], left: int) -> int:
        if complete(c):
            return 0
        if left == 0:
            return 99
        best = 99
        for x in range(28):
            if c[x]:
                cc = list(c)
                cc[x] -= 1
                best = min(best, d13(tuple(cc), left))
        return best

    @functools.cache
    def d13(c: tuple[int, ...], left: int) -> int:
        best = 99
        for y in range(28):
            if c[y] < 4:
                cc = list(c)
                cc[y] += 1
                best = min(best, 1 + d14(tuple(cc), left - 1))
        return best

    t = tuple(counts)
    d = d14(t, depth) if (sum(counts) + 3 * sig.count) % 3 == 2 else d13(t, depth)
    return d - 1 if d < 90 else None


MELDS = ["chi 123m | peng 999p | chi 456s", "peng 555p | chi 345m | chi 567m", "peng ZZZ | chi 234p | chi 678s",
         "chi 345p | chi 567p | chi 678p", "peng 111s | peng 222m | chi 789p"]


@pytest.mark.parametrize("rules", [DAQING, DAQING.replace(need_sequence=True)])
def test_daqing_shanten_matches_the_search(rules: Rules) -> None:
    rng = random.Random(17 + rules.need_sequence)
    checked = 0
    for _ in range(20):
        ms = parse_melds(rng.choice(MELDS))
        sig = meld_sig(ms)
        n = 13 - 3 * sig.count + rng.choice([0, 1])
        pool = [k for k in range(28) for _ in range(4 - sig.copies[k])]
        c = [0] * 28
        for k in rng.sample(pool, n):
            c[k] += 1
        bf = brute_shanten(c, sig, rules, 3)
        ours = shanten_counts(c, sig, rules)
        if bf is None:
            assert ours >= 3
        else:
            assert ours == bf, (c, [str(m) for m in ms])
            checked += 1
    assert checked >= 12
