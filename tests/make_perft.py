"""Regenerate ``tests/data/perft.json``, the golden move counts checked by ``tests/test_perft.py``.

Run ``.venv/bin/python tests/make_perft.py`` from the repository root.

**Only regenerate for a deliberate rules change** (a new preset, a changed kind or kicker rule in RULES.md).
The file exists to catch accidental changes in legal-move generation: if ``test_perft.py`` fails after an
optimisation or a refactor, the code is wrong, not the file.  After regenerating, review the diff of the JSON
and say in the commit message which rule changed and why the counts moved.

For every preset the file holds 12 hands from a fixed seed (``perft-<preset>``): six of the dealt size
(17 cards with three players, 25 with four) and six of the landlord's size after taking the kitty (20 or 33),
written in rank notation.  For each hand it records the number of legal leads and, for every fixed previous
move in ``TO_BEAT`` that is a valid move under the preset, the number of legal answers (passing not counted).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from qipai.games.doudizhu import PRESETS, MoveError, Rules, legal_moves, parse_move
from qipai.games.doudizhu.cards import NotationError, deck, format_ranks

PATH = Path(__file__).with_name("data") / "perft.json"
HANDS_PER_PRESET = 12

TO_BEAT = [
    "6",  # single
    "2",  # a high single: only jokers, bombs and the rocket answer
    "TT",  # pair
    "888",  # triple
    "8883",  # triple_single
    "88833",  # triple_pair
    "56789",  # straight of five
    "9TJQK",  # a high straight
    "556677",  # pair_straight of three
    "555666",  # plane of two
    "55566634",  # plane_singles of two
    "5556663344",  # plane_pairs of two
    "444555666789",  # plane_singles of three (the cards read one way)
    "666634",  # four_two_singles
    "66663344",  # four_two_pairs
    "6666",  # bomb of four
    "66666",  # bomb of five (two decks)
    "666666",  # bomb of six (two decks)
]


def to_beat(rules: Rules) -> list[str]:
    """The labels of ``TO_BEAT`` that are moves under ``rules``."""
    out = []
    for label in TO_BEAT:
        try:
            parse_move(label, rules)
        except (MoveError, NotationError):
            continue
        out.append(label)
    return out


def hands(name: str) -> list[str]:
    rules = PRESETS[name]
    rng = random.Random(f"perft-{name}")
    cards = deck(rules.decks)
    sizes = [rules.hand_size] * (HANDS_PER_PRESET // 2)
    sizes += [rules.hand_size + rules.kitty_size] * (HANDS_PER_PRESET - len(sizes))
    return [format_ranks(c.rank for c in rng.sample(cards, n)) for n in sizes]


def counts(hand: str, rules: Rules, labels: list[str]) -> dict[str, Any]:
    return {
        "hand": hand,
        "leads": len(legal_moves(hand, rules)),
        "answers": {lab: len(legal_moves(hand, rules, to_beat=parse_move(lab, rules))) for lab in labels},
    }


def build() -> dict[str, Any]:
    presets = {}
    for name in sorted(PRESETS):
        rules = PRESETS[name]
        labels = to_beat(rules)
        presets[name] = {"to_beat": labels, "hands": [counts(h, rules, labels) for h in hands(name)]}
    return {
        "about": "Golden legal-move counts per preset; see tests/make_perft.py. Regenerate only for a "
        "deliberate rules change.",
        "presets": presets,
    }


def dump(data: dict[str, Any]) -> str:
    """JSON with one line per hand, so that a diff shows which hand's counts moved."""
    lines = ["{", f' "about": {json.dumps(data["about"])},', ' "presets": {']
    names = list(data["presets"])
    for i, name in enumerate(names):
        p = data["presets"][name]
        lines.append(f"  {json.dumps(name)}: {{")
        lines.append(f'   "to_beat": {json.dumps(p["to_beat"])},')
        lines.append('   "hands": [')
        rows = [f"    {json.dumps(h)}" for h in p["hands"]]
        lines.append(",\n".join(rows))
        lines.append("   ]")
        lines.append("  }" + ("," if i < len(names) - 1 else ""))
    lines += [" }", "}", ""]
    text = "\n".join(lines)
    assert json.loads(text) == data
    return text


def main() -> int:
    data = build()
    PATH.parent.mkdir(exist_ok=True)
    PATH.write_text(dump(data))
    n = sum(len(p["hands"]) for p in data["presets"].values())
    print(f"wrote {PATH} ({n} hands)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
