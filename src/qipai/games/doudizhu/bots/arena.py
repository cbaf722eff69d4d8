"""The arena: two bots play duplicate deals, and the result is measured per role with confidence intervals.

**Duplicate deals.**  Every deal is played twice with the roles swapped, so the luck of the cards cancels:

- ``protocol="research"`` (DouZero/PerfectDou, see :mod:`qipai.games.doudizhu.bots.research`): no bidding, seat 0 is the
  landlord.  First bot A is the landlord and bot B both farmers, then B is the landlord and A both farmers.
  Deals come from the fixed deals file.
- ``protocol="duplicate"`` (any preset, with bidding): deal ``i`` is shuffled from a seed made from the
  arena seed and ``i``.  One seat ``s = i mod players`` is A's and the others B's, then the other way round.
  Bidding decides who becomes the landlord, so in some games a side holds both bots (A and B as fellow
  farmers); those sides are left out of the per-role figures (the other side of the game still counts) and
  are counted as ``mixed``.

**Measures**, for each bot and role (``landlord``, ``farmers``), over the games where that bot alone held the
role: **WP**, the share of games won, and **ADP**, the side's average score (research protocol: DouZero's
``±2 × 2^bombs``; otherwise the settlement's score changes in stakes: the landlord's, or the farmers'
together).  Each comes with a 95% confidence interval (normal approximation: ``1.96 × standard error``).
"Both roles" averages the two roles; in the research protocol its interval comes from the per-deal average of
the two games of a deal (the duplicate pair), which is what makes duplicate deals precise.

Bots are built per game with seeds made from the arena seed, the deal, the half and the seat, so a run is
reproducible whatever the number of jobs (a bot with a time budget, like ``search``, is reproducible only
with a fixed number of samples).  Bots receive a copy of the observation and the legal actions, never the
game.

>>> r = run_arena("heuristic", "random", deals=2, progress=False)
>>> r["games"], r["bots"]["A"]["name"]
(4, 'heuristic')
"""

from __future__ import annotations

import gzip
import hashlib
import math
import multiprocessing as mp
import pickle
import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from ....bots import get_bot
from ....bots.base import Bot
from ....core.options import Option, OptionError, OptionSet, options_from_text
from ....core.stats import Estimate
from ....jsonfile import read_json_bytes, write_json
from ..rules import PRESETS, Rules
from ..state import Game

PROTOCOLS = ("duplicate", "research")
ENGINES = ("local", "ray")
"""Where the games run: ``local`` worker processes, or a Ray cluster (optional extra ``ray``)."""


# ---------------------------------------------------------------------------------------------- bot specs
@dataclass(frozen=True)
class BotSpec:
    """A bot as the arena names it: ``NAME`` or ``NAME:key=value,key=value``.

    Options: ``search:time=0.5`` (seconds per move), ``search:samples=200`` (a fixed number of sampled worlds
    per move: reproducible), ``douzero:weights=DIR`` (a folder with DouZero's three ``.ckpt`` files).
    """

    name: str
    options: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """Read a bot spec; a bad option is a ``ValueError`` that says what was expected."""
        name, _, rest = text.strip().partition(":")
        if not name.strip():  # (":x=1" said "bot '' takes no options")
            raise ValueError(f"a bot spec starts with the bot's name (NAME or NAME:key=value), not {text!r}")
        opts: list[tuple[str, str]] = []
        if rest:
            for part in rest.split(","):
                k, eq, v = part.partition("=")
                if not eq or not k.strip():
                    raise ValueError(f"bad bot option {part!r} in {text!r}: expected key=value")
                if any(k.strip() == seen for seen, _ in opts):  # (the last one won, silently)
                    raise ValueError(f"bot option {k.strip()} given twice in {text!r}")
                opts.append((k.strip(), v.strip()))
        return cls(name.strip(), tuple(opts))

    def __str__(self) -> str:
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.options)


_DOUZERO_CACHE: dict[str, Any] = {}


NOISY_OPTIONS = OptionSet([Option("p", float, 0.3, lo=0.0, hi=1.0, doc="probability of a random legal move")])
RESNET_OPTIONS = OptionSet([Option("weights", str, "", doc="a folder with the three checkpoints"),
                            Option("bid", str, "ones", doc="the bid/multiply vector the networks are shown")])
DOUZERO_OPTIONS = OptionSet([Option("weights", str, "", doc="a folder with DouZero's three .ckpt files")])
DMC_OPTIONS = OptionSet([Option("weights", str, "", doc="an .npz file of bench/train_dmc.py (default: committed)"),
                         Option("candidates", int, 0, lo=0, hi=64,
                                doc="weigh only a shortlist of this many moves (0: every legal action)"),
                         Option("defer", float, 0.0, lo=0.0, hi=2.0,
                                doc="play the heuristic's choice when its value is within this much of the best"),
                         Option("search", int, 0, lo=0, hi=54,
                                doc="play the search bot's move when all hands hold at most this many cards "
                                    "(0: never)"),
                         Option("time", float, 1.0, lo=0.01, hi=60.0,
                                doc="the search's seconds a move (with search=N or other=search)"),
                         Option("rollouts", float, 0.0, lo=0.0, hi=60.0,
                                doc="seconds a move of play-outs comparing the best moves (0: none)"),
                         Option("top", int, 4, lo=2, hi=32, doc="moves the rollouts compare"),
                         Option("samples", int, 0, lo=0, hi=100_000,
                                doc="sampled deals a move for the rollouts, instead of a time"),
                         Option("margin", float, 0.0, lo=0.0, hi=0.99,
                                doc="how much more often a move must win in the rollouts than the network's choice"),
                         Option("blend", float, 0.0, lo=0.0, hi=4.0,
                                doc="weight of the network's values beside the rollouts' win rates (0: none)"),
                         Option("depth", int, 0, lo=0, hi=400,
                                doc="decisions a play-out goes on before the network values it (0: to the end)"),
                         Option("clock", str, "cpu", choices=("cpu", "wall"),
                                doc="how the rollouts' (and the other bot's) time is measured (the arena: CPU "
                                    "time)"),
                         Option("bid", str, "heuristic", choices=("heuristic", "odds", "net", "netdouble"),
                                doc="how bids are chosen (net: the network's own odds of the hand; netdouble: "
                                    "doubling by them too)"),
                         Option("other", str, "heuristic", choices=("heuristic", "search"),
                                doc="who plays the tables the network was not trained for (four players)")])


def _usage(o: Option) -> str:
    if o.choices:
        return f"{o.name}={'|'.join(o.choices)}"
    if o.kind in (int, float):
        return f"{o.name}={'N' if o.kind is int else 'X'} ({o.lo:g} to {o.hi:g})"
    return f"{o.name}=TEXT"


def bot_options(bot: str, declared: OptionSet, raw: dict[str, str]) -> dict[str, Any]:
    """A bot spec's options read by their declared types and ranges, every declared option filled in.

    An unknown option, a value of the wrong kind or out of range is an :class:`OptionError` (a ``ValueError``)
    that names the bot, the option and what it accepts.

    >>> from .search import OPTIONS
    >>> o = bot_options("search", OPTIONS, {"time": "0.5", "samples": "none"})
    >>> o["time"], o["samples"], o["candidates"]
    (0.5, None, 8)
    >>> bot_options("search", OPTIONS, {"candidates": "0"})
    Traceback (most recent call last):
    ...
    qipai.core.options.OptionError: search option candidates must be at least 1, got 0
    """
    unknown = sorted(set(raw) - {o.name for o in declared})
    if unknown:
        raise OptionError(f"unknown {bot} option{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}: "
                          f"expected {', '.join(_usage(o) for o in declared)}")
    try:
        checked = declared.check(options_from_text(declared, raw))
    except OptionError as e:
        raise OptionError(f"{bot} option {e}") from None
    return {o.name: checked.get(o.name, o.default) for o in declared}


def make_bot(spec: BotSpec | str, seed: int) -> Bot:
    """Build the bot a spec names (see :class:`BotSpec`); its options are checked against the bot's declared
    ones (:func:`bot_options`)."""
    sp = BotSpec.parse(spec) if isinstance(spec, str) else spec
    opts = dict(sp.options)
    if sp.name == "search":
        from .search import SearchBot

        return SearchBot(seed, **search_arguments(opts))
    if sp.name == "douzero":
        from .baselines import DouZeroBot, load_douzero_agents

        w = bot_options("douzero", DOUZERO_OPTIONS, opts)["weights"]
        if not w:
            raise OptionError("the douzero bot needs its weights: douzero:weights=DIR")
        if w not in _DOUZERO_CACHE:
            _DOUZERO_CACHE[w] = load_douzero_agents(w)
        return DouZeroBot(_DOUZERO_CACHE[w], seed)
    if sp.name == "noisy":
        from .levels import NoisyBot

        return NoisyBot(seed, bot_options("noisy", NOISY_OPTIONS, opts)["p"])
    if sp.name == "douzero_resnet":
        from .resnet import resnet_bot

        o = bot_options("douzero_resnet", RESNET_OPTIONS, opts)
        return resnet_bot(seed, o["weights"] or None, o["bid"])
    if sp.name == "dmc" and opts:
        from .dmc import dmc_bot

        o = bot_options("dmc", DMC_OPTIONS, opts)
        searching = bool(o["search"]) or o["other"] == "search"
        if "time" in opts and not searching:
            raise OptionError("dmc option time is the search's, with search=N or other=search")
        # the clock is the rollouts' and the other search's
        needless = sorted(k for k in ("top", "margin", "blend", "depth", "clock")
                          if k in opts and not (k == "clock" and o["other"] == "search"))
        if needless and not (o["rollouts"] or o["samples"]):
            raise OptionError(f"dmc option {needless[0]} is the rollouts', with rollouts=X or samples=N")
        w = o["weights"]
        try:
            return dmc_bot(seed, w or None, o["candidates"], o["defer"], o["search"], o["time"], o["rollouts"],
                           o["top"], o["samples"], o["clock"], o["margin"], o["depth"], o["bid"], o["other"],
                           o["blend"])
        except (OSError, ValueError, KeyError) as e:
            raise OptionError(f"dmc weights {w}: {e}") from None
    if opts:
        raise OptionError(f"bot {sp.name!r} takes no options")
    return get_bot(sp.name, seed)


def search_arguments(opts: dict[str, str]) -> dict[str, Any]:
    """The keyword arguments of :class:`~qipai.games.doudizhu.bots.search.SearchBot` for the options of a
    ``search:...`` spec, checked (:func:`bot_options`)."""
    from .search import OPTIONS

    o = bot_options("search", OPTIONS, opts)
    if o["explore"] and o["playout"] == "fast":
        raise OptionError("search option explore is for heuristic play-outs, not playout=fast")
    if o["learned"] != "all" and o["playout"] != "learned":
        raise OptionError("search option learned is for playout=learned")
    # in the arena a budget is CPU time by default: a busy machine does not weaken the bot
    return {"time_budget": o["time"], "samples": o["samples"], "fast_playouts": o["playout"] == "fast",
            "max_candidates": o["candidates"], "clock": o["clock"], "belief": o["belief"],
            "proposals": o["proposals"], "bidding": o["bid"], "leaf": o["leaf"], "depth": o["depth"],
            "solve_cards": o["solve"], "solve_nodes": o["nodes"], "margin": o["margin"], "reply": o["reply"],
            "playout_policy": _playout_policy(o["playout"], o["weights"]), "explore": o["explore"],
            "learned_seats": o["learned"], "prior": o["prior"], "blend": o["blend"]}


def _playout_policy(playout: str, weights: str) -> Any:
    """The learned play-out policy a search spec names (``None`` for the others)."""
    if weights and playout != "learned":
        raise OptionError("search option weights is for playout=learned")
    if playout != "learned":
        return None
    from .playout import cached_policy

    try:
        return cached_policy(Path(weights) if weights else None)
    except (OSError, ValueError, KeyError) as e:
        raise OptionError(f"search play-out weights {weights or 'committed'}: {e}") from None


# ---------------------------------------------------------------------------------------------- one game
@dataclass
class GameRecord:
    """One finished game of the arena."""

    deal: int
    half: int
    seats: list[str]
    """``A`` or ``B`` for each seat."""
    landlord: int | None
    winner: str | None
    """``landlord``, ``farmers``, or ``None`` (a dissolved deal)."""
    points: int
    """The landlord side's points (research: ``±2 × 2^bombs``; otherwise the landlord's score change)."""
    scores: list[int]
    bombs: int
    cards: str = ""
    """A digest of the dealt cards: both games of a deal show the same digest."""
    decisions: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)
    """Every action the bots took, in order (in the research protocol, after its fixed ``bid 3``): with the rules
    and the deal, the whole game, for looking at lost deals.  Results written before the field existed have
    none."""


@dataclass(frozen=True)
class _Setup:
    spec_a: str
    spec_b: str
    rules: Rules
    protocol: str
    seed: int
    deal_lines: tuple[str, ...]


_SETUP: _Setup | None = None


def _init_worker(setup: _Setup) -> None:
    global _SETUP
    _SETUP = setup
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a worker just ends; the run stops in its main process


def _stop_on_sigterm() -> Callable[[], None]:
    """While a run lasts, ``kill PID`` (SIGTERM) stops it like Ctrl-C: the deals finished are written.  A run
    started in the background (``nohup qipai arena … &``) ignores SIGINT, so this is how it is stopped cleanly.
    Returns what puts the old handler back (nothing to do outside the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, stop)

    def restore() -> None:
        signal.signal(signal.SIGTERM, old)

    return restore


def _mix(*parts: object) -> int:
    return random.Random(":".join(str(p) for p in parts)).getrandbits(62)


def seats_for(protocol: str, players: int, deal: int, half: int) -> list[str]:
    """Which bot holds each seat: ``A``/``B`` per seat for deal ``deal`` and half 0 or 1.

    >>> seats_for("research", 3, 5, 0), seats_for("research", 3, 5, 1)
    (['A', 'B', 'B'], ['B', 'A', 'A'])
    >>> seats_for("duplicate", 3, 4, 0), seats_for("duplicate", 3, 4, 1)
    (['B', 'A', 'B'], ['A', 'B', 'A'])
    """
    lone = 0 if protocol == "research" else deal % players
    first, other = ("A", "B") if half == 0 else ("B", "A")
    return [first if s == lone else other for s in range(players)]


def play_game(setup: _Setup, deal: int, half: int) -> GameRecord:
    """Play one game of the arena (deal ``deal``, half 0 or 1)."""
    from .research import ResearchDeal, research_game, research_points

    rules = setup.rules
    n = rules.players
    seats = seats_for(setup.protocol, n, deal, half)
    if setup.protocol == "research":
        g = research_game(ResearchDeal.parse(setup.deal_lines[deal]), rules)
    else:
        g = Game.new(rules, _mix("deal", setup.seed, deal))
    digest = hashlib.sha1(repr((g.initial_hands, g.initial_kitty)).encode()).hexdigest()[:12]
    specs = {"A": setup.spec_a, "B": setup.spec_b}
    bots = [make_bot(specs[seats[s]], _mix("bot", setup.seed, deal, half, s) & 0xFFFFFFFF) for s in range(n)]
    decisions = {"A": 0, "B": 0}
    seconds = {"A": 0.0, "B": 0.0}
    actions: list[str] = []
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        obs = g.observe(seat)
        legal = g.legal_actions()
        view = pickle.loads(pickle.dumps(obs))  # the bot gets its own copy, never the game
        t0 = time.perf_counter()
        action = bots[seat].act(view, list(legal))
        seconds[seats[seat]] += time.perf_counter() - t0
        decisions[seats[seat]] += 1
        if action not in legal:
            raise RuntimeError(f"bot {specs[seats[seat]]} at seat {seat} chose {action!r}, not a legal action "
                               f"(deal {deal}, half {half})")
        g.apply(action, seat)
        actions.append(action)
    out = g.outcome()
    assert out is not None
    landlord = g.landlord
    winner = out["winner"]
    if setup.protocol == "research":
        points = research_points(g)
    else:
        points = out["scores"][landlord] if landlord is not None and winner is not None else 0
    return GameRecord(deal, half, seats, landlord, winner, points, list(out["scores"]), len(g.bombs), digest,
                      decisions, seconds, actions)


def _task(args: tuple[int, int]) -> GameRecord:
    assert _SETUP is not None
    return play_game(_SETUP, args[0], args[1])


# ---------------------------------------------------------------------------------------------- statistics
def side_entries(rec: GameRecord, protocol: str) -> list[tuple[str, str, bool, float]]:
    """``(bot, role, won, side points)`` for each side of a game that one bot held alone."""
    if rec.winner is None or rec.landlord is None:
        return []
    n = len(rec.seats)
    farmers = [s for s in range(n) if s != rec.landlord]
    out = []
    lb = rec.seats[rec.landlord]
    out.append((lb, "landlord", rec.winner == "landlord", float(rec.points)))
    fb = {rec.seats[s] for s in farmers}
    if len(fb) == 1:
        fpts = -float(rec.points) if protocol == "research" else float(sum(rec.scores[s] for s in farmers))
        out.append((fb.pop(), "farmers", rec.winner == "farmers", fpts))
    return out


def summarize(records: list[GameRecord], protocol: str) -> dict[str, Any]:
    """Per bot and role: WP and ADP with 95% intervals; both roles averaged; decision times."""
    bots: dict[str, Any] = {}
    mixed = sum(1 for r in records if r.winner is not None and r.landlord is not None
                and len({r.seats[s] for s in range(len(r.seats)) if s != r.landlord}) > 1)
    incomplete = sum(1 for r in records if r.winner is None)
    for b in ("A", "B"):
        wins: dict[str, list[float]] = {"landlord": [], "farmers": []}
        pts: dict[str, list[float]] = {"landlord": [], "farmers": []}
        per_deal: dict[int, dict[str, tuple[float, float]]] = {}
        for r in records:
            for bot, role, won, p in side_entries(r, protocol):
                if bot == b:
                    wins[role].append(1.0 if won else 0.0)
                    pts[role].append(p)
                    per_deal.setdefault(r.deal, {})[role] = (1.0 if won else 0.0, p)
        roles = {role: {"wp": asdict(Estimate.of_rate(wins[role])), "adp": asdict(Estimate.of(pts[role]))}
                 for role in ("landlord", "farmers")}
        paired = [d for d in per_deal.values() if len(d) == 2]
        if paired and len(paired) == len(per_deal):
            both_wp = Estimate.of_shares([(d["landlord"][0] + d["farmers"][0]) / 2 for d in paired])
            both_adp = Estimate.of([(d["landlord"][1] + d["farmers"][1]) / 2 for d in paired])
        else:
            el, ef = Estimate.of_rate(wins["landlord"]), Estimate.of_rate(wins["farmers"])
            al, af = Estimate.of(pts["landlord"]), Estimate.of(pts["farmers"])
            both_wp = Estimate((el.mean + ef.mean) / 2, math.hypot(el.ci, ef.ci) / 2, el.n + ef.n)
            both_adp = Estimate((al.mean + af.mean) / 2, math.hypot(al.ci, af.ci) / 2, al.n + af.n)
        dec = sum(r.decisions.get(b, 0) for r in records)
        sec = sum(r.seconds.get(b, 0.0) for r in records)
        bots[b] = {"roles": roles, "both": {"wp": asdict(both_wp), "adp": asdict(both_adp)},
                   "decisions": dec, "ms_per_decision": 1000.0 * sec / dec if dec else math.nan}
    # net score per deal (both halves together): what bot A gained from bot B, duplicate-cancelled
    net: dict[int, float] = {}
    for r in records:
        if r.winner is None or r.landlord is None:
            continue
        if protocol == "research":
            a = r.points if r.seats[r.landlord] == "A" else -r.points
        else:
            a = sum(r.scores[s] for s in range(len(r.seats)) if r.seats[s] == "A")
        net[r.deal] = net.get(r.deal, 0.0) + a
    return {"bots": bots, "mixed_sides": mixed, "incomplete": incomplete,
            "net_a_per_deal": asdict(Estimate.of(list(net.values())))}


# ---------------------------------------------------------------------------------------------- the run
def run_arena(
    bot_a: str,
    bot_b: str,
    *,
    rules: str = "classic",
    deals: int = 1000,
    jobs: int = 1,
    seed: int = 0,
    protocol: str = "duplicate",
    json_path: Path | str | None = None,
    progress: bool = True,
    deals_file: Path | None = None,
    keep_games: bool = True,
    target_ci: float | None = None,
    min_deals: int = 30,
    checkpoint_seconds: float = 60.0,
    resume: Path | None = None,
    engine: str = "local",
    ray_address: str | None = None,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals between ``bot_a`` and ``bot_b`` and return the full result.

    ``rules`` names a preset (the research protocol uses ``classic``); ``jobs`` worker processes share the
    games; ``json_path`` also writes the result there as JSON, and while the run lasts a partial result
    (``"partial": true``) every ``checkpoint_seconds``.  With ``target_ci`` the run stops early, once at least
    ``min_deals`` deals are complete and the 95% interval of the win rate over both roles is no wider than
    ``± target_ci`` for either bot; ``deals`` is then the most it plays.  An interrupt (Ctrl-C, or SIGTERM:
    ``kill PID`` of a run in the background) also stops it
    with the deals completed so far.  Only deals whose two games are both finished count.  ``resume`` names
    the JSON of an earlier run with the same bots, rules, protocol and seed (partial or stopped): its deals are
    kept and only the others are played.  The result holds
    the settings, the summary (see :func:`summarize`) and, with ``keep_games``, every game.

    ``engine="ray"`` plays the games as Ray tasks (``pip install ray``) on the cluster at ``ray_address``
    (default: ``RAY_ADDRESS``, else a local cluster of ``jobs`` CPUs): one task per CPU at a time, each a chunk
    of up to 8 games; the qipai package (and any weights a bot loads) must be installed on every node.
    Seeds, results, checkpoints and resume are the same as with local processes: every game's bots are seeded
    by the deal, the half and the seat, whichever machine plays it.
    """

    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}: expected one of {', '.join(ENGINES)}")
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}: expected one of {', '.join(PROTOCOLS)}")
    if rules not in PRESETS:
        raise ValueError(f"unknown preset {rules!r}: expected one of {', '.join(sorted(PRESETS))}")
    if deals < 1:
        raise ValueError("deals must be at least 1")
    r = PRESETS[rules]
    lines: tuple[str, ...] = ()
    if protocol == "research":
        from .research import load_deals

        if r.players != 3:
            raise ValueError("the research protocol is a three-player game")
        if rules != "classic":  # its deals, bid and score are DouZero's, on the classic rules (research.py)
            raise ValueError(f"the research protocol plays the classic rules, not {rules!r}: leave --rules out")
        try:
            lines = tuple(d.line() for d in load_deals(deals, deals_file))
        except FileNotFoundError:
            raise FileNotFoundError(f"no deals file at {deals_file}") from None
        except OSError as e:  # a folder, no permission
            raise ValueError(f"cannot read the deals file {deals_file}: {e.strerror or e}") from None
        except (UnicodeDecodeError, EOFError, gzip.BadGzipFile) as e:  # (a ValueError that said only "utf-8")
            raise ValueError(f"the deals file {deals_file} is not text of deals (one 'LANDLORD17 DOWN17 UP17 "
                             f"KITTY3' per line, optionally gzipped): {e}") from None
    for spec in (bot_a, bot_b):  # fail early on a bad name or a missing package
        make_bot(spec, 0)
    if target_ci is not None and not target_ci > 0:
        raise ValueError("target_ci must be a positive number, e.g. 0.02")
    if deals_file is not None and protocol != "research":
        raise ValueError("a deals file is for the research protocol (--research)")
    source = str(deals_file) if deals_file is not None else None
    setup = _Setup(bot_a, bot_b, r, protocol, seed, lines)
    records: list[GameRecord] = []
    halves: dict[int, int] = {}
    complete: list[int] = []
    earlier = 0.0
    if resume is not None:
        records, earlier = _resumed(Path(resume), bot_a, bot_b, rules, protocol, seed, source)
        beyond = {x.deal for x in records if x.deal >= deals}
        if beyond and json_path is not None and Path(json_path).resolve() == Path(resume).resolve():
            raise ValueError(f"{resume} holds deals up to {max(beyond) + 1}, more than --deals {deals}: writing "
                             f"the result over it would drop {len(beyond)} finished deals; give --deals "
                             f"{max(beyond) + 1} or more, or another --json file")
        records = [x for x in records if x.deal < deals]  # a run resumed with fewer deals keeps only those
        for x in records:
            halves[x.deal] = halves.get(x.deal, 0) + 1
        complete = sorted(d for d, k in halves.items() if k == 2)
    done = set(complete)
    tasks = [(d, h) for d in range(deals) if d not in done for h in (0, 1)]
    stopped = "deals"
    settings = {"bot_a": bot_a, "bot_b": bot_b, "rules": rules, "protocol": protocol, "deals": deals,
                "jobs": jobs, "seed": seed, "target_ci": target_ci, "engine": engine, "deals_file": source}
    t0 = time.perf_counter()
    last_write = t0
    workers = max(1, min(jobs, len(tasks)))  # no idle workers: --jobs 1000 for one deal started 1000

    def result_of(final: bool, deals_kept: set[int] | None = None) -> dict[str, Any]:
        done = set(complete) if deals_kept is None else deals_kept
        kept = sorted((x for x in records if x.deal in done), key=lambda x: (x.deal, x.half))
        summary = summarize(kept, protocol)
        summary["bots"]["A"]["name"] = bot_a
        summary["bots"]["B"]["name"] = bot_b
        out: dict[str, Any] = {
            "settings": settings,
            "deals": len(done),
            "games": len(kept),
            "seconds": earlier + time.perf_counter() - t0,
            "workers": workers,
            "stopped": stopped if final else None,
            "partial": not final,
            **summary,
        }
        if keep_games:
            out["records"] = [asdict(x) for x in kept]
        return out

    def write(res: dict[str, Any]) -> None:
        if json_path is not None:
            write_json(json_path, res, atomic=True)

    # The stopping rule looks at the deals in deal order, whatever order the workers finish them in, so a run
    # stops after the same deals (and gives the same result) for any --jobs or engine: deal k counts once
    # every deal before it has finished too.
    resumed = set(complete)
    if target_ci is not None and len(resumed) >= min_deals and _ci_reached(result_of(False, resumed), target_ci):
        tasks, stopped = [], "target_ci"  # resumed deals that reach it already (a run that stopped there): no more
    order = sorted({d for d, _ in tasks})
    in_order = 0
    restore = _stop_on_sigterm()
    try:
        games = _run(setup, tasks, workers) if engine == "local" else _run_ray(setup, tasks, workers, ray_address)
        for rec in _progress(games, len(tasks), progress, f"{bot_a} vs {bot_b}"):
            records.append(rec)
            halves[rec.deal] = halves.get(rec.deal, 0) + 1
            if halves[rec.deal] < 2:
                continue
            complete.append(rec.deal)
            if target_ci is not None:
                finished = set(complete)
                reached: set[int] | None = None
                while in_order < len(order) and order[in_order] in finished:
                    in_order += 1
                    kept = resumed | set(order[:in_order])
                    if len(kept) >= min_deals and _ci_reached(result_of(False, kept), target_ci):
                        reached = kept
                        break
                if reached is not None:
                    complete = sorted(reached)  # deals finished past the stopping point are left out
                    stopped = "target_ci"
                    break
            if json_path is not None and time.perf_counter() - last_write >= checkpoint_seconds:
                write(result_of(False))
                last_write = time.perf_counter()
    except KeyboardInterrupt:
        stopped = "interrupted"
    finally:
        restore()
    result = result_of(True)
    write(result)
    return result


def load_result(path: Path | str, games: bool = True) -> dict[str, Any]:
    """An arena result written with ``json_path`` (or the same gzipped, as in ``bench/results``).

    A missing file is a :class:`FileNotFoundError`, a file that is not one a ``ValueError``, each saying which;
    with ``games`` the result must hold its games (``records``)."""
    path = Path(path)
    try:
        data = read_json_bytes(path.read_bytes())
    except FileNotFoundError:
        raise FileNotFoundError(f"no arena result at {path}") from None
    except (OSError, ValueError) as e:  # a broken gzip is an OSError (gzip.BadGzipFile)
        raise ValueError(f"{path} is not an arena result (JSON): {e}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path} is not an arena result (a JSON object)")
    if "game" in data:  # a game record (qipai replay's), or a result of the generic arena (qipai.arena)
        what = "a game record" if "actions" in data else f"a result of the generic arena ({data['game']})"
        raise ValueError(f"{path} is {what}, not a result of Dou Dizhu's arena")
    if games and not isinstance(data.get("records"), list):
        raise ValueError(f"{path} holds no games (an arena result written with its games)")
    return data


def _resumed(path: Path, bot_a: str, bot_b: str, rules: str, protocol: str,
             seed: int, deals_file: str | None = None) -> tuple[list[GameRecord], float]:
    """The finished deals' games and the seconds spent of an earlier run to carry on."""
    try:
        data = load_result(path, games=False)
    except FileNotFoundError:
        raise FileNotFoundError(f"no arena result to resume at {path}") from None
    s = data.get("settings", {})
    if not isinstance(s, dict):
        raise ValueError(f"{path} is not an arena result: its settings are not a JSON object")
    want = {"bot_a": bot_a, "bot_b": bot_b, "rules": rules, "protocol": protocol, "seed": seed,
            "deals_file": deals_file}
    differ = {k: (s.get(k), v) for k, v in want.items() if s.get(k) != v}
    if differ:
        raise ValueError(f"cannot resume {path}: its run differs in "
                         + ", ".join(f"{k} ({a!r} there, {b!r} here)" for k, (a, b) in differ.items()))
    if "records" not in data:
        raise ValueError(f"cannot resume {path}: it holds no games (written without keep_games)")
    raw = data["records"]
    if not isinstance(raw, list):
        raise ValueError(f"cannot resume {path}: its records are not a list of games")
    players = PRESETS[rules].players
    records = []
    for i, r in enumerate(raw):
        why = _bad_record(r, players)
        if why:
            raise ValueError(f"cannot resume {path}: game {i + 1} of its records {why}")
        records.append(GameRecord(**r))
    seconds = data.get("seconds") or 0.0
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or not math.isfinite(seconds):
        raise ValueError(f"cannot resume {path}: its seconds are not a number")
    halves: dict[int, int] = {}
    for x in records:
        halves[x.deal] = halves.get(x.deal, 0) + 1
    return [x for x in records if halves[x.deal] == 2], float(seconds)


def _bad_record(r: object, players: int) -> str | None:
    """What is wrong with one game of a result read back for a resume (``None``: it is a game of ``players``
    seats), so a foreign or corrupt file is refused before any deal is played, not when the summary is made."""
    if not isinstance(r, dict):
        return "is not a JSON object"
    names = [f.name for f in fields(GameRecord)]
    extra = sorted(set(r) - set(names))
    if extra:
        return f"has unknown field(s) {', '.join(map(str, extra))}"
    missing = [n for n in names[:8] if n not in r]  # deal .. bombs; the later fields have defaults
    if missing:
        return f"lacks {', '.join(missing)}"

    def whole(x: object) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    checks = [
        ("deal", whole(r["deal"]) and r["deal"] >= 0),
        ("half", r["half"] in (0, 1) and whole(r["half"])),
        ("seats", isinstance(r["seats"], list) and len(r["seats"]) == players
         and all(x in ("A", "B") for x in r["seats"])),
        ("landlord", r["landlord"] is None or (whole(r["landlord"]) and 0 <= r["landlord"] < players)),
        ("winner", r["winner"] in (None, "landlord", "farmers")),
        ("points", whole(r["points"])),
        ("scores", isinstance(r["scores"], list) and len(r["scores"]) == players and all(map(whole, r["scores"]))),
        ("bombs", whole(r["bombs"])),
        ("cards", isinstance(r.get("cards", ""), str)),
        ("decisions", isinstance(r.get("decisions", {}), dict)
         and all(whole(v) for v in r.get("decisions", {}).values())),
        ("seconds", isinstance(r.get("seconds", {}), dict)
         and all(isinstance(v, (int, float)) for v in r.get("seconds", {}).values())),
        ("actions", isinstance(r.get("actions", []), list) and all(isinstance(a, str) for a in r.get("actions", []))),
    ]
    bad = [name for name, ok in checks if not ok]
    return f"has bad field(s) {', '.join(bad)} for an arena game of {players} seats" if bad else None


def _ci_reached(result: dict[str, Any], target: float) -> bool:
    """Whether both bots' win rate over both roles is known to within ``± target``."""
    for b in ("A", "B"):
        ci = result["bots"][b]["both"]["wp"]["ci"]
        if not (isinstance(ci, float) and ci <= target):
            return False
    return True


def _run(setup: _Setup, tasks: list[tuple[int, int]], jobs: int) -> Iterator[GameRecord]:
    global _SETUP
    if jobs == 1:
        _SETUP = setup  # not _init_worker: the main process keeps its SIGTERM handler (kill PID writes the deals)
        for t in tasks:
            yield _task(t)
        return
    chunk = max(1, min(8, len(tasks) // (jobs * 16)))
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    with ctx.Pool(jobs, initializer=_init_worker, initargs=(setup,)) as pool:
        yield from pool.imap_unordered(_task, tasks, chunksize=chunk)


def _chunk_games(setup: _Setup, chunk: list[tuple[int, int]]) -> list[GameRecord]:
    """Play a chunk of games (a Ray task's work)."""
    return [play_game(setup, d, h) for d, h in chunk]


def _run_ray(setup: _Setup, tasks: list[tuple[int, int]], jobs: int, address: str | None) -> Iterator[GameRecord]:
    """Play the games as Ray tasks, yielding each game's record as its chunk finishes."""
    try:
        import ray as ray_module  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(f"the ray engine needs the 'ray' package ({e}): pip install ray") from None
    ray: Any = ray_module
    started = False
    if not ray.is_initialized():
        if address is None and not _ray_address_from_env():
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
        started = True
    try:
        remote = ray.remote(num_cpus=1)(_chunk_games)
        setup_ref = ray.put(setup)
        size = max(1, min(8, len(tasks) // (max(1, int(ray.cluster_resources().get("CPU", jobs))) * 16)))
        chunks = [tasks[i:i + size] for i in range(0, len(tasks), size)]
        pending = [remote.remote(setup_ref, c) for c in chunks]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                yield from ray.get(done[0])
        finally:
            for ref in pending:  # stopped early (target reached, interrupted): drop the rest
                ray.cancel(ref, force=True)
    finally:
        if started:
            ray.shutdown()


def _ray_address_from_env() -> bool:
    import os

    return bool(os.environ.get("RAY_ADDRESS"))


PROGRESS_SECONDS = 60.0
"""How often a run whose standard error is not a terminal (a background run's log) reports its progress."""


def _progress(it: Iterator[GameRecord], total: int, show: bool, label: str) -> Iterator[GameRecord]:
    """Pass the games through, showing progress: a bar on a terminal, else a line on standard error every
    :data:`PROGRESS_SECONDS` and at the end (a log of ``nohup qipai arena ... &`` says how far the run is)."""
    if not show:
        yield from it
        return
    if not sys.stderr.isatty():
        t0 = last = time.monotonic()
        for done, rec in enumerate(it, 1):
            yield rec
            now = time.monotonic()
            if now - last >= PROGRESS_SECONDS or done == total:
                last = now
                took = now - t0
                left = took / done * (total - done)
                print(f"{label}: {done}/{total} games, {_clock(took)} elapsed, about {_clock(left)} left",
                      file=sys.stderr, flush=True)
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                  TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=False) as bar:
        task = bar.add_task(label, total=total)
        for rec in it:
            yield rec
            bar.advance(task)


def _clock(seconds: float) -> str:
    """``h:mm:ss`` (or ``m:ss``) of a duration."""
    m, sec = divmod(int(seconds + 0.5), 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def report_lines(result: dict[str, Any]) -> list[str]:
    """A plain-text table of an arena result."""
    s = result["settings"]
    deals = result.get("deals", s["deals"])
    why = {"target_ci": f"stopped: WP known to ± {s.get('target_ci')}", "interrupted": "stopped: interrupted",
           None: "partial result"}.get(result.get("stopped"), "")
    lines = [
        f"arena: A = {s['bot_a']}, B = {s['bot_b']}; rules {s['rules']}, protocol {s['protocol']}; "
        f"{deals} deals, {result['games']} games; "
        f"{result['seconds']:.0f} s on {result.get('workers', s['jobs'])} job(s)"
        + (f"; {why}" if why else ""),
        f"{'bot':<24} {'role':<10} {'games':>6}  {'WP (95% CI)':<17} {'ADP (95% CI)':<18} ms/move",
    ]
    for b in ("A", "B"):
        info = result["bots"][b]
        name = f"{b} {info['name']}"[:24]
        for role in ("landlord", "farmers"):
            wp = Estimate(**info["roles"][role]["wp"])
            adp = Estimate(**info["roles"][role]["adp"])
            lines.append(f"{name:<24} {role:<10} {wp.n:>6}  {wp.text():<17} {adp.text(2, True):<18}")
        wp = Estimate(**info["both"]["wp"])
        adp = Estimate(**info["both"]["adp"])
        ms = info["ms_per_decision"]
        lines.append(f"{name:<24} {'both':<10} {'':>6}  {wp.text():<17} {adp.text(2, True):<18} {ms:.2f}")
    net = Estimate(**result["net_a_per_deal"])
    lines.append(f"net score of A per deal (both games of a deal): {net.text(2, True)}")
    if result.get("mixed_sides"):
        lines.append(f"sides held by both bots (left out of the roles above): {result['mixed_sides']}")
    if result.get("incomplete"):
        lines.append(f"games without a winner (dissolved): {result['incomplete']}")
    return lines
