"""Bombs held and played, by role: where a bot wins and loses, paired with another run on the same deals.

Reads an arena result of the research protocol whose games hold their actions (the arena records them since
the ninth session) and replays every game.  For each of A's roles, deals are grouped by the bombs (a rocket
counts as one) each side was dealt: ``L0``/``L1``/``L2+`` the landlord's, ``F0``/``F1``/``F2+`` the two
farmers' together, and both.  Each row gives the games, how often the side played at least one bomb it held,
and A's win rate in the role.  With ``--reference REF`` the same deals' win rate of A in the same role in the
other run is shown beside it, with the paired difference and its 95% interval (the duplicate deals' luck
cancels): a reference of DouZero-ResNet playing itself shows where a bot falls short of the model's own level.

    qipai arena douzero_resnet douzero_resnet --research --deals 558 --json dzself.json
    python bench/bombs.py s1belief.json --reference dzself.json
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path
from typing import Any

from qipai.core.stats import Estimate
from qipai.games.doudizhu.bots.research import load_deals, research_game
from recorded import research_records

ROLES = ("landlord", "farmers")


def bombs_in(counts: list[int]) -> int:
    """Bombs (four of a rank) and the rocket in a hand of rank counts (15 ranks, jokers last).

    >>> bombs_in([4] + [1] * 12 + [1, 1])
    2
    """
    return sum(1 for r in range(13) if counts[r] >= 4) + (1 if counts[13] and counts[14] else 0)


def games_of(path: Path) -> dict[tuple[int, str], dict[str, Any]]:
    """``(deal, A's role)`` → ``won``, ``groups`` (the deal's rows) and ``played`` (did each side bomb)."""
    recs = research_records(path)
    deals = load_deals(max((r["deal"] for r in recs), default=0) + 1)
    out: dict[tuple[int, str], dict[str, Any]] = {}
    for r in recs:
        g = research_game(deals[r["deal"]])
        held_l = bombs_in(g.counts[0])
        held_f = bombs_in(g.counts[1]) + bombs_in(g.counts[2])
        for a in r["actions"]:
            g.apply(a)
        role = "landlord" if r["seats"][0] == "A" else "farmers"
        tag_l, tag_f = f"L{min(held_l, 2)}" + "+" * (held_l >= 2), f"F{min(held_f, 2)}" + "+" * (held_f >= 2)
        out[(r["deal"], role)] = {
            "won": float(r["winner"] == role),
            "groups": ("all", tag_l, tag_f, f"{tag_l} {tag_f}"),
            "played": {"landlord": any(s == 0 for s, _, _ in g.bombs), "farmers": any(s != 0 for s, _, _ in g.bombs)},
            "held": {"landlord": held_l > 0, "farmers": held_f > 0},
        }
    return out


def table(run: Path, reference: Path | None) -> list[str]:
    """The report's lines (see the module docstring)."""
    mine = games_of(run)
    ref = games_of(reference) if reference is not None else {}
    lines = []
    for role in ROLES:
        rows: dict[str, list[tuple[int, str]]] = defaultdict(list)
        for key, x in mine.items():
            if key[1] == role:
                for grp in x["groups"]:
                    rows[grp].append(key)
        lines.append(f"A as {role}" + (f"; reference: {reference}" if reference is not None else ""))
        lines.append(f"  {'deals':9} {'games':>5} {'L bombed':>9} {'F bombed':>9} {'A wins':>7}"
                     + ("  reference  paired difference" if reference is not None else ""))
        order = sorted(rows, key=lambda k: (k != "all", len(k), k))
        for grp in order:
            keys = rows[grp]
            n = len(keys)
            share = {side: sum(mine[k]["played"][side] for k in keys) / max(1, sum(mine[k]["held"][side]
                                                                                   for k in keys))
                     for side in ROLES}
            held = {side: any(mine[k]["held"][side] for k in keys) for side in ROLES}
            won = sum(mine[k]["won"] for k in keys) / n
            text = (f"  {grp:9} {n:5} {share['landlord'] if held['landlord'] else float('nan'):9.2f} "
                    f"{share['farmers'] if held['farmers'] else float('nan'):9.2f} {won:7.3f}")
            both = [k for k in keys if k in ref]
            if reference is not None and both:
                e = Estimate.of([mine[k]["won"] - ref[k]["won"] for k in both])
                text += f"  {sum(ref[k]['won'] for k in both) / len(both):9.3f}  {e.mean:+.3f}"
                text += f" ± {e.ci:.3f}" if len(both) > 1 else " (one deal)"
                if len(both) < n:
                    text += f" ({len(both)} deals)"
            lines.append(text)
    lines.append("(L/F bombed: the share of games where that side held a bomb in which it played one)")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--reference", type=Path, help="another run on the same deals, paired deal by deal")
    args = ap.parse_args(argv)
    print("\n".join(table(args.run, args.reference)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
