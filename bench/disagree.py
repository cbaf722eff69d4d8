"""Where does a bot decide differently from a stronger one?  Ask both on the same observations.

The bot under study plays the research deals against the reference bot (both halves, roles swapped, as in the
arena).  At each of its play decisions with a choice, the reference bot is asked too, on the same observation
and legal actions, and the two answers are tabulated by role (landlord ``L``; ``Fdown``, the farmer after the
landlord; ``Fup``, the farmer before it), by situation (a lead; facing an enemy's play; facing the partner's)
and by what each did (``H`` the bot, ``R`` the reference).  A large cell is a habit of the reference the bot
lacks; the examples show hands and card counts.  This is how the fourth session found covering (顶牌): the
farmer before the landlord passed on its partner's low single where DouZero-ResNet covered it 43% of the time.

With ``--coverage`` it also asks whether the reference's choice is among the moves ``search`` would compare
(its candidates, at most 8, or ``--max-candidates``): a move the search never looks at is one it can never
find, however many samples it draws.

    python bench/disagree.py --bot heuristic --reference douzero_resnet --deals 100
    python bench/disagree.py --bot heuristic --reference douzero_resnet --deals 100 --coverage

With ``--records RESULT.json[.gz]`` (an arena result of the research protocol whose games hold their actions)
nothing is played: bot A's recorded decisions are read back and the reference asked on each, which is how a
slow bot (``search`` at 1 s) is studied without playing it again.  ``--only lost`` keeps the games A lost.

    python bench/disagree.py --records s1belief.json --only lost
"""

from __future__ import annotations

import argparse
import collections
from collections.abc import Iterator

from qipai.games.doudizhu.bots.arena import make_bot, seats_for
from qipai.games.doudizhu.bots.research import load_deals, research_game
from qipai.games.doudizhu.bots.search import SearchBot
from qipai.games.doudizhu.bots.view import action_moves, read_view
from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game
from recorded import research_records


def _recorded(path: str, only: str) -> Iterator[tuple[int, int, list[str], list[str]]]:
    """``(deal, half, seats, actions)`` of each recorded game (``only``: all, lost or won by A)."""
    for r in research_records(path):
        a_side = "landlord" if r["seats"][0] == "A" else "farmers"
        if only == "all" or (r["winner"] == a_side) == (only == "won"):
            yield r["deal"], r["half"], r["seats"], r["actions"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bot", default="heuristic")
    ap.add_argument("--reference", default="douzero_resnet")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--first", type=int, default=0, help="first research deal")
    ap.add_argument("--examples", type=int, default=3, help="examples shown per cell")
    ap.add_argument("--min-share", type=float, default=0.04, help="cells below this share are not shown")
    ap.add_argument("--coverage", action="store_true",
                    help="also count how often the reference's choice is among search's candidates")
    ap.add_argument("--max-candidates", type=int, default=8, help="search's candidate limit, for --coverage")
    ap.add_argument("--records", help="read bot A's decisions from this arena result instead of playing")
    ap.add_argument("--only", choices=("all", "lost", "won"), default="all", help="with --records: which games")
    args = ap.parse_args(argv)
    if args.deals < 1:
        raise SystemExit(f"--deals must be at least 1, got {args.deals}")
    for spec in ((args.reference,) if args.records else (args.bot, args.reference)):  # before any deal
        try:
            make_bot(spec, 0)
        except (KeyError, ValueError, ImportError) as e:
            raise SystemExit(f"bot {spec!r}: {e.args[0] if e.args else e}") from None
    searcher = SearchBot(samples=1, max_candidates=args.max_candidates)
    covered: collections.Counter[tuple[str, str, bool]] = collections.Counter()
    rules = PRESETS["classic"]
    deals = load_deals(args.first + args.deals) if not args.records else []
    table: collections.Counter[tuple[str, str, str]] = collections.Counter()
    examples: dict[tuple[str, str, str], list[str]] = collections.defaultdict(list)

    def games() -> Iterator[tuple[int, int, list[str], Game, Iterator[str] | None]]:
        if args.records:
            kept = list(_recorded(args.records, args.only))
            every = load_deals(max((x[0] for x in kept), default=0) + 1)
            for d, half, seats, actions in kept:
                yield d, half, seats, research_game(every[d], rules), iter(actions)
            return
        for half in (0, 1):
            for d in range(args.first, args.first + args.deals):
                yield d, half, seats_for("research", 3, d, half), research_game(deals[d], rules), None

    for d, half, seats, g, recorded in games():
        bots = [] if recorded is not None else [make_bot(args.bot if seats[s] == "A" else args.reference,
                                                          d * 10 + s) for s in range(3)]
        ref = make_bot(args.reference, d)
        while not g.is_over:
            s = g.to_act
            assert s is not None
            obs, legal = g.observe(s), list(g.legal_actions())
            a = next(recorded) if recorded is not None else bots[s].act(obs, legal)
            if seats[s] == "A" and obs.get("phase") == "play" and len(legal) > 1:
                r = ref.act(obs, list(legal))
                v = read_view(obs)
                moves = action_moves(legal, v.rules)
                role = "L" if s == 0 else "Fdown" if s == 1 else "Fup"
                sit = "lead" if v.last is None else "vsEnemy" if s == 0 or v.last_by == 0 else "vsPartner"
                ka, kr = (("pass" if x == "pass" else moves[x].kind) for x in (a, r))
                cat = "same" if a == r else f"H {ka}, R {kr}"
                if a != r and ka == kr:
                    ma, mr = moves[a], moves[r]
                    cat += (" (R longer)" if mr.size > ma.size else " (R shorter)" if mr.size < ma.size
                            else " (R higher)" if mr.main > ma.main else " (R lower)" if mr.main < ma.main
                            else " (other kicker)")
                if args.coverage and a != r:
                    cands = {x for x, _ in searcher.candidates(v, moves, list(legal))}
                    covered[(role, sit, r in cands)] += 1
                key = (role, sit, cat)
                table[key] += 1
                if cat != "same" and len(examples[key]) < args.examples:
                    hand = "".join(obs["hand"]) if isinstance(obs["hand"], list) else str(obs["hand"])
                    examples[key].append(f"deal {d} half {half}: hand {hand}, cards left "
                                         f"{list(v.card_counts)}, facing {v.last}: H {a}, R {r}")
            g.apply(a, s)
    totals: collections.Counter[tuple[str, str]] = collections.Counter()
    for (role, sit, _), n in table.items():
        totals[(role, sit)] += n
    for key in sorted(table, key=lambda k: (k[0], k[1], -table[k])):
        share = table[key] / totals[key[:2]]
        if share >= args.min_share or key[2] == "same":
            print(f"{key[0]:6} {key[1]:10} {key[2]:36} {table[key]:5} {share:5.2f}")
            for x in examples.get(key, []):
                print("       ", x)
    if args.coverage:
        print()
        print("where the two differ: is the reference's choice among search's candidates?")
        for role, sit in sorted(totals):
            yes, no = covered[(role, sit, True)], covered[(role, sit, False)]
            if yes + no:
                print(f"{role:6} {sit:10} in {yes:5}  not in {no:5}  share in {yes / (yes + no):5.2f}")
        yes = sum(n for k, n in covered.items() if k[2])
        no = sum(n for k, n in covered.items() if not k[2])
        if yes + no:
            print(f"all               in {yes:5}  not in {no:5}  share in {yes / (yes + no):5.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
