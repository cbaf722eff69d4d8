"""Are games lost in the endgame?  Perfect-information blunders in recorded research games.

At every recorded decision with a choice and at most ``--cards`` cards in all hands together, the exact solver
(the ``search`` bot's, every hand known) says whether the acting side could force a win before its move, and
whether it still can after the move it made.  A *blunder* is a won position given away.  The farmers' moves
cannot turn a landlord's forced win into a loss (nor the reverse), so a game a side lost after holding a forced
win at some point is a game lost by one of its own blunders; the count of such games bounds what an exact
endgame (with every card known, so more than a bot can have) could win back.

    python bench/endgame.py results/dmc21_r05_vs_douzero_resnet.json.gz --cards 22

Prints, for each bot (``A``, ``B``) and role, the decisions solved, the forced wins held, the blunders, and the
games lost with a blunder beside the games lost.  Positions past the node limit are counted and skipped.
"""

from __future__ import annotations

import argparse
import collections
from typing import Any

from qipai.games.doudizhu.bots.research import load_deals, research_game
from qipai.games.doudizhu.bots.search import Solver, _TooBig
from qipai.games.doudizhu.cards import NUM_RANKS
from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game
from recorded import research_records


def counts(g: Game) -> tuple[tuple[int, ...], ...]:
    """Every seat's hand as rank counts."""
    hands = [[0] * NUM_RANKS for _ in g.hands]
    for seat, hand in enumerate(g.hands):
        for c in hand:
            hands[seat][c.rank] += 1
    return tuple(tuple(h) for h in hands)


def landlord_wins(solver: Solver, g: Game) -> bool:
    """Whether the landlord's side can force a win from ``g`` (a game over: whether it won)."""
    if g.is_over:
        return g.winner == g.landlord
    assert g.to_act is not None
    return solver.landlord_wins(counts(g), g.to_act, g.trick.last, g.trick.by)


Tally = collections.Counter[tuple[str, str, str]]


def tally(records: list[dict[str, Any]], cards: int = 20, nodes: int = 200_000) -> Tally:
    """The counts, by ``(bot, role, what)``: ``solved``, ``too big``, ``forced wins held``, ``blunders``,
    ``games lost`` and ``lost with a blunder`` (the farmers' game counted once)."""
    deals = load_deals(max(r["deal"] for r in records) + 1)
    rules = PRESETS["classic"]
    stats: Tally = collections.Counter()
    for r in records:
        g = research_game(deals[r["deal"]], rules)
        assert g.landlord is not None
        blundered: set[tuple[str, str]] = set()
        for action in r["actions"]:
            seat = g.to_act
            assert seat is not None
            who, role = r["seats"][seat], "landlord" if seat == g.landlord else "farmers"
            if sum(map(sum, counts(g))) > cards or len(g.legal_actions(seat)) < 2:
                g.apply(action, seat)
                continue
            solver = Solver(rules, g.landlord, g.players, node_limit=nodes)
            try:
                before = landlord_wins(solver, g)
            except _TooBig:
                stats[(who, role, "too big")] += 1
                g.apply(action, seat)
                continue
            g.apply(action, seat)
            try:
                after = landlord_wins(solver, g)
            except _TooBig:
                stats[(who, role, "too big")] += 1
                continue
            stats[(who, role, "solved")] += 1
            mine = role == "landlord"
            if before == mine:
                stats[(who, role, "forced wins held")] += 1
                if after != mine:
                    stats[(who, role, "blunders")] += 1
                    blundered.add((who, role))
        for seat, who in enumerate(r["seats"]):
            role = "landlord" if seat == g.landlord else "farmers"
            if role == "farmers" and seat != (g.landlord + 1) % g.players:
                continue  # count the farmers' game once
            if (g.winner == g.landlord) != (role == "landlord"):
                stats[(who, role, "games lost")] += 1
                stats[(who, role, "lost with a blunder")] += (who, role) in blundered
    return stats


KEYS = ("solved", "too big", "forced wins held", "blunders", "games lost", "lost with a blunder")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("result", help="an arena result of the research protocol (JSON, may be gzipped)")
    ap.add_argument("--cards", type=int, default=20, help="solve positions with at most this many cards left")
    ap.add_argument("--nodes", type=int, default=200_000, help="node limit of one solve")
    args = ap.parse_args(argv)
    stats = tally(research_records(args.result), args.cards, args.nodes)
    print(f"{'bot':4} {'role':9} " + " ".join(f"{k:>19}" for k in KEYS))
    for who in ("A", "B"):
        for role in ("landlord", "farmers"):
            print(f"{who:4} {role:9} " + " ".join(f"{stats[(who, role, k)]:>19}" for k in KEYS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
