"""What would perfect inference be worth?  The search with the real hands, against a bot, on the research deals.

The search samples the hidden hands; how much better could it play if every sample were the real deal?  Here
bot A is ``search`` whose sampler deals the real hands (a cheat: it is a bound for research, never a bot of the
platform), against bot B (``douzero_resnet`` by default), on the research deals, both halves, as the arena
plays them.  Every sample being the same deal, a handful is enough (``--search search:samples=8``, the
default; any option of the search may be given there).  The result file is an arena result
(``bench/paired.py`` pairs it with a run of the honest search on the same deals), so the gap between the two
is what better inference of the hidden hands could buy at most with these play-outs.  With three players a
farmer who knew its partner's hand would know every hand: for the farmers this is also what perfect inference
of the partner is worth.

``--known rollout:OWN/OTHER`` goes further: each candidate is played out once on the real deal, this side's
seats by bot OWN and the other side's by bot OTHER (``rollout:heuristic/douzero_resnet``: what an exact model
of the opponents, on top of perfect information, would be worth).  ``--known none`` makes A the honest search
(a control on the same code path; with a time budget it is as slow as the arena).  ``--known
sampled:OWN/OTHER:N`` is honest again: the same play-outs on N deals from the search's sampler, rebuilt from the
public history (does the opponents' model still count when the cards are guessed?).

``--search dmc:samples=N,...`` makes A the learned bot with rollouts (``dmc:rollouts``) instead, its rollouts'
deals the real one with ``--known all`` (``samples=1`` is enough: every seat of a play-out plays the network's
greedy move, so a play-out of the real deal always ends the same), the honest rollouts with ``--known none``.

    python bench/oracle.py --deals 300 --jobs 2 --json oracle.json
    python bench/oracle.py --deals 300 --search search:samples=8,solve=0 --json oracle_solve0.json
    python bench/paired.py oracle.json search025_cover_vs_douzero_resnet.json.gz
    python bench/oracle.py --deals 200 --search dmc:samples=1,margin=0.03 --json oracle_dmc.json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

from qipai.games.doudizhu.bots.arena import BotSpec, GameRecord, make_bot, search_arguments, seats_for, summarize
from qipai.games.doudizhu.bots.research import ResearchDeal, load_deals, research_game, research_points
from qipai.games.doudizhu.bots.search import Sampler, SearchBot
from qipai.games.doudizhu.bots.view import View, action_moves, read_view
from qipai.games.doudizhu.cards import NUM_RANKS, RANK_LETTERS
from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game


class _Truth(Sampler):
    """A sampler whose every deal is the real one."""

    def __init__(self, view: View, rng: random.Random, hands: list[list[int]]) -> None:
        super().__init__(view, rng)
        self.hands = hands

    def deal(self) -> list[list[int]]:
        return [list(h) for h in self.hands]


class _Hinted(Sampler):
    """A sampler told where a share ``q`` of the hidden cards are (each copy drawn once per decision, so the
    hint stands for what a model of inference could know); the rest are dealt as usual.  Research only."""

    def __init__(self, view: View, rng: random.Random, hands: list[list[int]], q: float) -> None:
        super().__init__(view, rng)
        for seat, hand in enumerate(hands):
            if seat == view.seat:
                continue
            for r in range(NUM_RANKS):
                for _ in range(hand[r] - self.known[seat][r]):
                    if rng.random() < q and r in self.cards:
                        self.cards.remove(r)
                        self.known[seat][r] += 1
                        self.need[seat] -= 1


class OracleSearch(SearchBot):
    """``search`` whose samples are the real hands (set :attr:`game` before each decision)."""

    game: Game | None = None

    def sampler(self, v: View) -> Sampler:
        assert self.game is not None
        return _Truth(v, self.rng, _hands(self.game))


def _hands(g: Game) -> list[list[int]]:
    """Every seat's hand as rank counts."""
    hands = [[0] * NUM_RANKS for _ in g.hands]
    for seat, hand in enumerate(g.hands):
        for c in hand:
            hands[seat][c.rank] += 1
    return hands


class OracleRollout:
    """The real deal played on from each candidate (the search's candidates), once, by named bots on real game
    copies: this side's seats by ``own``, the other side's by ``other``; the candidate whose play-out wins is
    played (the heuristic's choice on a tie).  With ``other`` a strong bot it measures what an exact model of the
    opponents would be worth (set :attr:`game` before each decision)."""

    def __init__(self, seed: int, own: str, other: str, candidates: int = 8) -> None:
        self.search = SearchBot(seed, samples=1, max_candidates=candidates)
        self.own = make_bot(own, seed)
        self.other = make_bot(other, seed + 1)
        self.game: Game | None = None

    def act(self, observation: dict[str, Any], legal: list[str]) -> str:
        if observation.get("phase") != "play" or len(legal) == 1:
            return self.own.act(observation, legal)
        g, _, cands, me = self.decision(observation, legal)
        for a, _ in cands:
            if self.wins(g, a, me):
                return a
        return cands[0][0]

    def decision(self, observation: dict[str, Any], legal: list[str]) -> tuple[Game, View, list[Any], int]:
        """The real game, the seat's view, the search's candidates and the seat to act."""
        g = self.game
        assert g is not None and g.to_act is not None
        v = read_view(observation)
        return g, v, self.search.candidates(v, action_moves(legal, v.rules), legal), g.to_act

    def wins(self, start: Game, action: str, me: int) -> bool:
        """Whether ``me``'s side wins ``start`` played on from ``action``: this side by ``own``, the other by
        ``other``."""
        sim = start.clone()
        sim.apply(action, me)
        mine = me == sim.landlord
        while not sim.is_over:
            s = sim.to_act
            assert s is not None
            bot = self.own if (s == sim.landlord) == mine else self.other
            sim.apply(bot.act(sim.observe(s), list(sim.legal_actions())), s)
        return (sim.winner == sim.landlord) == mine


class SampledRollout(OracleRollout):
    """Honest: like :class:`OracleRollout`, but each of ``samples`` deals comes from the search's sampler (what
    this seat could know), rebuilt as a game from the public history; every candidate is played out once on each
    sampled deal (common samples) and the one winning most is played (the heuristic's choice first on a tie).
    With ``other`` a strong bot it measures what an exact model of the opponents is worth *without* knowing the
    cards: whether the oracle's gain survives sampling (set :attr:`game` before each decision, for its public
    history and kitty only)."""

    def __init__(self, seed: int, own: str, other: str, samples: int, candidates: int = 8,
                 truth: float = 0.0) -> None:
        super().__init__(seed, own, other, candidates)
        self.samples = samples
        self.truth = truth

    def rebuild(self, v: View, hands: list[list[int]]) -> Game:
        """The game of this deal from its start, every seat dealt its sampled hand plus what it has played."""
        g = self.game
        assert g is not None and g.landlord == 0  # research games: seat 0 is the landlord
        kitty = "".join(RANK_LETTERS[c.rank] for c in g.kitty)
        start = []
        for s in range(v.players):
            counts = [hands[s][r] + v.played[s][r] for r in range(NUM_RANKS)]
            if s == 0:
                for ch in kitty:
                    counts[RANK_LETTERS.index(ch)] -= 1
            start.append("".join(RANK_LETTERS[r] * k for r, k in enumerate(counts)))
        sim = research_game(ResearchDeal((start[0], start[1], start[2]), kitty), PRESETS["classic"])
        for seat, a in g.actions[len(sim.actions):]:
            sim.apply(a, seat)
        return sim

    def act(self, observation: dict[str, Any], legal: list[str]) -> str:
        if observation.get("phase") != "play" or len(legal) == 1:
            return self.own.act(observation, legal)
        g, v, cands, me = self.decision(observation, legal)
        sampler = Sampler(v, self.search.rng) if not self.truth else _Hinted(v, self.search.rng, _hands(g),
                                                                             self.truth)
        wins = [0] * len(cands)
        for _ in range(self.samples):
            start = self.rebuild(v, sampler.deal())
            for j, (a, _) in enumerate(cands):
                wins[j] += self.wins(start, a, me)
        best = max(range(len(cands)), key=lambda j: (wins[j], -j))
        return cands[best][0]


def _truth_of(bot: Any, g: Game) -> Any:
    """A ``sampler`` for a ``dmc`` bot's rollouts whose every deal is the game's real one (as it is when the
    bot decides)."""
    return lambda v: _Truth(v, bot._rng, _hands(g))


def play(args: tuple[int, int, str, str, str, float]) -> dict[str, Any]:
    deal, half, spec_a, spec_b, known, truth = args
    g = research_game(load_deals(deal + 1)[deal], PRESETS["classic"])
    seats = seats_for("research", 3, deal, half)
    bots: list[Any] = []
    for s in range(3):
        seed = deal * 10 + half * 3 + s
        if seats[s] == "A" and known.startswith("sampled:"):
            spec, n = known.split(":", 1)[1].rsplit(":", 1)
            own, other = spec.split("/")
            bots.append(SampledRollout(seed, own, other, int(n), truth=truth))
        elif seats[s] == "A" and known.startswith("rollout:"):
            own, other = known.split(":", 1)[1].split("/")
            bots.append(OracleRollout(seed, own, other))
        elif seats[s] == "A" and BotSpec.parse(spec_a).name == "dmc":
            bots.append(make_bot(spec_a, seed))
            if known == "all":
                bots[-1].sampler = _truth_of(bots[-1], g)
        elif seats[s] == "A":
            kwargs = search_arguments(dict(BotSpec.parse(spec_a).options))
            bots.append(OracleSearch(seed, **kwargs) if known == "all" else SearchBot(seed, **kwargs))
        else:
            bots.append(make_bot(spec_b, seed))
    actions: list[str] = []
    while not g.is_over:
        s = g.to_act
        assert s is not None
        bot = bots[s]
        if isinstance(bot, OracleSearch | OracleRollout):  # SampledRollout reads only the public history
            bot.game = g
        a = bot.act(g.observe(s), list(g.legal_actions()))
        g.apply(a, s)
        actions.append(a)
    out = g.outcome()
    assert out is not None
    return {"deal": deal, "half": half, "seats": seats, "landlord": g.landlord, "winner": out["winner"],
            "points": research_points(g), "scores": list(out["scores"]), "bombs": len(g.bombs), "actions": actions}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bot", default="douzero_resnet", help="bot B")
    ap.add_argument("--deals", type=int, default=224)
    ap.add_argument("--known", default="all",
                    help="all: A's samples are the real hands; none: the honest search (a control); rollout:OWN/OTHER: "
                         "each candidate played out once on the real deal, this side by bot OWN, the other by OTHER")
    ap.add_argument("--search", default="search:samples=8",
                    help="bot A's search spec (as in the arena; with --known all, a fixed number of samples)")
    ap.add_argument("--truth", type=float, default=0.0,
                    help="with --known sampled: the sampler is told where this share of the hidden cards are "
                         "(a cheat: how much would better inference be worth?)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", required=True, help="where the result goes (an arena result with its games)")
    args = ap.parse_args(argv)
    if args.deals < 1:
        raise SystemExit(f"--deals must be at least 1, got {args.deals}")
    try:
        spec = BotSpec.parse(args.search)
        if spec.name not in ("search", "dmc"):
            raise SystemExit(f"--search takes a search or dmc spec, not {args.search!r}")
        if spec.name == "dmc":
            make_bot(spec, 0)  # checked here, once, before any deal
            kwargs = {"samples": dict(spec.options).get("samples")}
            if args.known not in ("all", "none") or not kwargs["samples"]:
                raise SystemExit("a dmc spec is for --known all or none, with samples=N (its rollouts' deals)")
        else:
            kwargs = search_arguments(dict(spec.options))  # checked here, once, before any deal
    except ValueError as e:  # OptionError is one
        raise SystemExit(f"--search {args.search}: {e}") from None
    sampled = re.fullmatch(r"sampled:([^/:]+)/([^/:]+):([1-9][0-9]*)", args.known)
    if args.known not in ("all", "none") and not sampled and not (args.known.startswith("rollout:")
                                                                  and args.known.count("/") == 1):
        raise SystemExit(f"--known takes all, none, rollout:OWN/OTHER or sampled:OWN/OTHER:N, not {args.known!r}")
    if args.known == "all" and kwargs["samples"] is None:
        raise SystemExit("--known all needs samples=N in --search: every sample is the same deal")
    names = [args.bot, *(args.known[8:].split("/") if args.known.startswith("rollout:") else []),
             *(sampled.group(1, 2) if sampled else [])]
    for name in names:  # each bot is built once here, so a bad name is one line, not a traceback in a worker
        try:
            make_bot(name, 0)
        except (KeyError, ValueError) as e:
            raise SystemExit(f"bot {name!r}: {e.args[0] if e.args else e}") from None
    if args.truth and not sampled:
        raise SystemExit("--truth is for --known sampled:OWN/OTHER:N")
    if not 0.0 <= args.truth <= 1.0:
        raise SystemExit(f"--truth is a share from 0 to 1, not {args.truth}")
    tasks = [(d, h, args.search, args.bot, args.known, args.truth) for h in (0, 1) for d in range(args.deals)]
    t0 = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        records = list(pool.imap_unordered(play, tasks))
    records.sort(key=lambda r: (r["deal"], r["half"]))
    spec_a = f"{args.search} (samples are the real hands)" if args.known == "all" else args.search \
        if args.known == "none" else f"one play-out per candidate on the real deal ({args.known[8:]})" \
        if not sampled else (f"one play-out per candidate on each of {sampled.group(3)} sampled deals "
                             f"({sampled.group(1)}/{sampled.group(2)})"
                             + (f", told where {args.truth:g} of the hidden cards are" if args.truth else ""))
    result = {"settings": {"bot_a": spec_a, "bot_b": args.bot, "rules": "classic", "protocol": "research",
                           "deals": args.deals, "jobs": args.jobs, "seed": 0},
              "deals": args.deals, "games": len(records), "seconds": time.perf_counter() - t0, "records": records}
    Path(args.json).write_text(json.dumps(result))
    a = summarize([GameRecord(**r) for r in records], "research")["bots"]["A"]
    wp = {role: a["roles"][role]["wp"] for role in ("landlord", "farmers")}
    print(f"{spec_a} vs {args.bot}, {args.deals} deals: A's WP landlord {wp['landlord']['mean']:.3f} ± "
          f"{wp['landlord']['ci']:.3f}, farmers {wp['farmers']['mean']:.3f} ± {wp['farmers']['ci']:.3f}, both "
          f"{a['both']['wp']['mean']:.3f} ± {a['both']['wp']['ci']:.3f} ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    raise SystemExit(main())
