"""A generic arena: two bots play duplicate deals of any registered game, and the result is measured per bot and
per role with 95% confidence intervals (``qipai arena --game shengji A B --deals N``).

**Duplicate deals.**  Deal ``i`` is made from a seed drawn from the arena seed and ``i``, with the context of the
first hand of a fresh match (:meth:`~qipai.core.game.GameFactory.deal_context` of
:meth:`~qipai.core.game.GameFactory.match_start`), and is played twice with the sides swapped:

- a game with fixed teams (:meth:`~qipai.core.game.GameFactory.teams`, Shengji's seats 0+2 against 1+3): in the
  first half team ``i mod teams`` is bot A's and the other seats bot B's, in the second half the other way round —
  the same cards, the teams swapped;
- otherwise seat ``i mod players`` is A's and every other seat B's, then the other way round.

Each seat gets its own bot (seeded from the arena seed, the deal, the half and the seat), which sees only its
seat's observation (a copy) and the legal actions.  In a joint decision every acting seat answers in seat order.
A bot that answers with an illegal action is timed out instead (the game's own rule for a silent seat) and counted
under ``illegal``.

**Measures.**  A bot's *score* in a game is the sum of its seats' score changes (the game's points, e.g. stakes);
its *win rate* is the share of the seats it held that won (with fixed teams, the share of games won; in a game of
each for himself, such as mahjong, where a bot holds one seat in one half and three in the other and only one
player wins, the rate at which a seat it held won).  For each bot: the mean score per game and the win rate; the
**duplicate
difference** — A's score over both halves of a deal, averaged over deals, with its interval — which is what the
swap makes precise; and per role (the outcome's ``roles``: Shengji's ``banker``/``attacker``), over the games
where that bot alone held the role, WP (the share of those seats that won) and the mean score per seat.
Intervals: ``1.96 × standard error`` for means; Wilson's score interval for rates where every game was won or lost
whole, else the ratio estimator's interval over games (the seats of one game are not independent trials).
Runs are reproducible for any number of jobs.

The Dou Dizhu arena with its research protocol stays in :mod:`qipai.games.doudizhu.bots.arena`.

>>> r = run_game_arena("shengji", "rule", "passive", deals=1, context={"banker": "rotate"}, progress=False)
>>> r["games"], r["bots"]["A"]["name"], sorted(r["roles"]["A"]), r["roles"]["A"]["banker"]["wp"]["n"]
(2, 'rule', ['attacker', 'banker'], 1)
"""

from __future__ import annotations

import json
import math
import multiprocessing as mp
import random
import time
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .bots import get_bot
from .core.game import IllegalAction
from .core.registry import get_factory
from .core.stats import Z95, Estimate
from .jsonfile import write_json


def _mix(*parts: object) -> int:
    return random.Random(":".join(str(p) for p in parts)).getrandbits(62)


@dataclass(frozen=True)
class Setup:
    """What every game of a run shares."""

    game: str
    bot_a: str
    bot_b: str
    options: dict[str, Any]
    seed: int
    context: dict[str, Any] = field(default_factory=dict)
    """Entries over the first hand's context; the value ``"rotate"`` is the seat ``deal mod players``."""


@dataclass
class GameResult:
    """One finished game (deal ``deal``, half 0 or 1)."""

    deal: int
    half: int
    seats: list[str]
    """``A`` or ``B`` for each seat."""
    deal_seed: int
    """The seed the deal was made from: the same in both halves."""
    scores: list[int]
    roles: list[str | None]
    won: list[bool | None]
    decisions: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    illegal: dict[str, int] = field(default_factory=dict)


def seats_for(teams: tuple[tuple[int, ...], ...] | None, players: int, deal: int, half: int) -> list[str]:
    """Which bot holds each seat (``A``/``B``) in deal ``deal``, half 0 or 1.

    >>> seats_for(((0, 2), (1, 3)), 4, 0, 0), seats_for(((0, 2), (1, 3)), 4, 0, 1)
    (['A', 'B', 'A', 'B'], ['B', 'A', 'B', 'A'])
    >>> seats_for(((0, 2), (1, 3)), 4, 1, 0)
    ['B', 'A', 'B', 'A']
    >>> seats_for(None, 3, 4, 0), seats_for(None, 3, 4, 1)
    (['B', 'A', 'B'], ['A', 'B', 'A'])
    """
    mine = set(teams[deal % len(teams)]) if teams else {deal % players}
    first, other = ("A", "B") if half == 0 else ("B", "A")
    return [first if s in mine else other for s in range(players)]


def play_game(setup: Setup, deal: int, half: int) -> GameResult:
    """Play one game of the arena."""
    factory = get_factory(setup.game)
    options = factory.options(setup.options)
    players = factory.players(options)
    seats = seats_for(factory.teams(options), players, deal, half)
    context = factory.deal_context(options, factory.match_start(options))
    context.update({k: deal % players if v == "rotate" else v for k, v in setup.context.items()})
    deal_seed = _mix("deal", setup.seed, deal)
    g = factory.new(options, deal_seed, context)
    names = {"A": setup.bot_a, "B": setup.bot_b}
    bots = [get_bot(names[seats[s]], _mix("bot", setup.seed, deal, half, s) & 0xFFFFFFFF, game=setup.game)
            for s in range(players)]
    decisions = {"A": 0, "B": 0}
    seconds = {"A": 0.0, "B": 0.0}
    illegal = {"A": 0, "B": 0}
    steps = 0
    limit = 4 * factory.info.max_actions
    while not g.is_over:
        steps += 1
        if steps > limit:
            raise RuntimeError(f"{setup.game} deal {deal} half {half} did not end in {limit} decisions")
        seat = g.acting[0]
        side = seats[seat]
        view = json.loads(json.dumps(g.observe(seat)))  # the bot gets its own copy, never the game
        t0 = time.perf_counter()
        action = bots[seat].act(view, list(g.legal_actions(seat)))
        seconds[side] += time.perf_counter() - t0
        decisions[side] += 1
        try:
            g.apply(action, seat)
        except IllegalAction:
            illegal[side] += 1
            g.timeout(seat)
    out = g.outcome()
    assert out is not None
    return GameResult(deal, half, seats, deal_seed, [int(x) for x in out["scores"]],
                      list(out.get("roles") or [None] * players), list(out.get("won") or [None] * players),
                      decisions, seconds, illegal)


# ---------------------------------------------------------------------------------------------- statistics
def seat_wins(r: GameResult, seats: list[int]) -> tuple[float, float]:
    """How many of ``seats`` won game ``r``, and how many seats that is."""
    return float(sum(1 for s in seats if r.won[s] is True)), float(len(seats))


def rate_of(games: list[tuple[float, float]]) -> Estimate:
    """The share of seats that won over ``games`` (seats won, seats held): with Wilson's interval when every game
    was won or lost whole by the same number of seats, else the ratio estimator's ``1.96 × standard error`` over
    games (with one game lost and one won added for the interval only, so that no wins at all still has one).

    >>> e = rate_of([(1.0, 1.0), (1.0, 3.0), (0.0, 1.0), (0.0, 3.0)]); round(e.mean, 3), e.n
    (0.25, 4)
    >>> e = rate_of([(0.0, 1.0), (0.0, 3.0)] * 4); e.mean, round(e.ci, 2)
    (0.0, 0.2)
    """
    games = [(w, n) for w, n in games if n > 0]
    if not games:
        return Estimate.of_rate([])
    if len({n for _, n in games}) == 1 and all(w in (0.0, n) for w, n in games):
        return Estimate.of_rate([w / n for w, n in games])
    k = len(games)
    total = sum(n for _, n in games)
    rate = sum(w for w, _ in games) / total
    mean_n = total / k
    # the interval of the games with one lost and one won whole added (as Estimate.of_shares does): a few
    # games all lost do not read as certainty (no seat won in 8 games said 0.0% ± 0.0)
    padded = [*games, (0.0, mean_n), (mean_n, mean_n)]
    p_rate = sum(w for w, _ in padded) / (total + 2 * mean_n)
    var = sum((w - p_rate * n) ** 2 for w, n in padded) / ((k + 2) * (k + 1) * mean_n * mean_n)
    return Estimate(rate, Z95 * math.sqrt(var), k)


def summarize(setup: Setup, results: list[GameResult]) -> dict[str, Any]:
    """The measures of a run (see the module doc)."""
    bots: dict[str, Any] = {}
    roles: dict[str, dict[str, Any]] = {"A": {}, "B": {}}
    for side, name in (("A", setup.bot_a), ("B", setup.bot_b)):
        scores: list[float] = []
        wins: list[tuple[float, float]] = []
        by_role: dict[str, tuple[list[tuple[float, float]], list[float]]] = {}
        for r in results:
            mine = [s for s, x in enumerate(r.seats) if x == side]
            scores.append(float(sum(r.scores[s] for s in mine)))
            wins.append(seat_wins(r, mine))
            for role in {x for x in r.roles if x is not None}:
                holders = [s for s, x in enumerate(r.roles) if x == role]
                if all(r.seats[s] == side for s in holders):
                    w, sc = by_role.setdefault(role, ([], []))
                    w.append(seat_wins(r, holders))
                    sc.append(sum(r.scores[s] for s in holders) / len(holders))
        dec = sum(r.decisions.get(side, 0) for r in results)
        secs = sum(r.seconds.get(side, 0.0) for r in results)
        bots[side] = {"name": name, "score": asdict(Estimate.of(scores)), "wp": asdict(rate_of(wins)),
                      "decisions": dec, "ms_per_decision": round(1000 * secs / dec, 4) if dec else None,
                      "illegal": sum(r.illegal.get(side, 0) for r in results)}
        for role, (w, sc) in sorted(by_role.items()):
            roles[side][role] = {"wp": asdict(rate_of(w)), "score": asdict(Estimate.of(sc))}
    a_sum: dict[int, float] = {}
    b_sum: dict[int, float] = {}
    halves: dict[int, int] = {}
    for r in results:
        a_sum[r.deal] = a_sum.get(r.deal, 0.0) + sum(r.scores[s] for s, x in enumerate(r.seats) if x == "A")
        b_sum[r.deal] = b_sum.get(r.deal, 0.0) + sum(r.scores[s] for s, x in enumerate(r.seats) if x == "B")
        halves[r.deal] = halves.get(r.deal, 0) + 1
    complete = [d for d in sorted(halves) if halves[d] == 2]
    return {"game": setup.game, "options": setup.options, "context": setup.context, "seed": setup.seed,
            "games": len(results),
            "deals": len(complete), "bots": bots, "roles": roles,
            "duplicate": {"a_minus_b_per_deal": asdict(Estimate.of([a_sum[d] - b_sum[d] for d in complete])),
                          "a_per_deal": asdict(Estimate.of([a_sum[d] for d in complete]))}}


_SETUP: Setup | None = None


def _init(setup: Setup) -> None:
    global _SETUP
    _SETUP = setup


def _task(args: tuple[int, int]) -> GameResult:
    assert _SETUP is not None
    return play_game(_SETUP, *args)


def _run(setup: Setup, tasks: list[tuple[int, int]], jobs: int) -> Iterator[GameResult]:
    if jobs <= 1:
        for d, h in tasks:
            yield play_game(setup, d, h)
        return
    with mp.get_context("spawn").Pool(jobs, initializer=_init, initargs=(setup,)) as pool:
        yield from pool.imap(_task, tasks, chunksize=2)


def run_game_arena(game: str, bot_a: str, bot_b: str, *, deals: int = 100, seed: int = 0,
                   options: Mapping[str, Any] | None = None, context: Mapping[str, Any] | None = None,
                   jobs: int = 1, json_path: Path | str | None = None, progress: bool = True) -> dict[str, Any]:
    """Play ``deals`` duplicate deals of ``game`` between bots ``bot_a`` and ``bot_b`` (names of the game's bots)
    and return the measures (also written to ``json_path`` as JSON).  ``context`` overrides entries of the first
    hand's context: Shengji's ``{"banker": "rotate"}`` fixes the banker at seat ``deal mod 4``, whose team is A's in
    the first half and B's in the second, so both bots bank the same cards (without it the first hand's banker is
    whoever declares last).  Unknown games, bots or options raise ``KeyError``/``ValueError`` naming them."""
    if deals < 1:
        raise ValueError("--deals must be at least 1")
    factory = get_factory(game)
    raw = dict(options or {})
    raw.setdefault("preset", factory.info.presets[0])
    factory.options(raw)  # bad options fail here, naming the option
    for b in (bot_a, bot_b):
        get_bot(b, 0, game=game)
    setup = Setup(game, bot_a, bot_b, raw, seed, dict(context or {}))
    try:  # a context the game refuses fails here, with the game's reason
        opts = factory.options(raw)
        ctx = factory.deal_context(opts, factory.match_start(opts))
        unknown = sorted(set(setup.context) - set(ctx))
        if unknown:
            raise ValueError(f"unknown context entry {unknown[0]!r}: {game}'s deal context has "
                             f"{', '.join(sorted(ctx)) or 'no entries'}")
        ctx.update({k: 0 if v == "rotate" else v for k, v in setup.context.items()})
        factory.new(opts, 0, ctx)
    except IllegalAction as e:
        raise ValueError(str(e)) from None
    tasks = [(d, h) for d in range(deals) for h in (0, 1)]
    results: list[GameResult] = []
    t0 = time.monotonic()
    for i, r in enumerate(_run(setup, tasks, min(jobs, len(tasks))), start=1):  # no idle workers
        results.append(r)
        if progress and (i % 10 == 0 or i == len(tasks)):
            import sys

            print(f"\r{game}: {i}/{len(tasks)} games, {time.monotonic() - t0:.0f} s", end="", file=sys.stderr,
                  flush=True)
    if progress:
        import sys

        print(file=sys.stderr)
    out = summarize(setup, results)
    out["seconds"] = round(time.monotonic() - t0, 2)
    if json_path is not None:
        write_json(json_path, {**out, "results": [asdict(r) for r in results]})
    return out


def run_from_cli(game: str, bot_a: str, bot_b: str, *, options: list[str] | None = None,
                 context: list[str] | None = None, preset: str | None = None, **kw: Any) -> list[str]:
    """``qipai arena --game GAME``: ``-o KEY=VALUE`` options read by their declared types, ``--context KEY=VALUE``
    entries read as JSON where they can be (``rotate`` stays text); returns the report's lines.  Bad input raises
    ``ValueError``/``KeyError`` saying what was wrong."""
    from .core.options import options_from_text, pairs_from_text

    opts = options_from_text(get_factory(game).info.options, pairs_from_text(options))
    if preset is not None:
        opts["preset"] = preset
    ctx: dict[str, Any] = {}
    for k, v in pairs_from_text(context, "--context").items():
        try:
            ctx[k] = json.loads(v)
        except json.JSONDecodeError:
            ctx[k] = v
    return report_lines(run_game_arena(game, bot_a, bot_b, options=opts, context=ctx, **kw))


def report_lines(result: Mapping[str, Any]) -> list[str]:
    """The measures as text."""

    def pm(e: Mapping[str, Any], pct: bool = False) -> str:
        if pct:
            return f"{100 * e['mean']:5.1f}% ± {100 * e['ci']:.1f}"
        return f"{e['mean']:+.3f} ± {e['ci']:.3f}"

    bots = result["bots"]
    lines = [f"{result['game']}: {bots['A']['name']} (A) vs {bots['B']['name']} (B), {result['deals']} duplicate "
             f"deals, {result['games']} games, seed {result['seed']}"]
    for side in ("A", "B"):
        b = bots[side]
        lines.append(f"  {side} {b['name']:<10} score/game {pm(b['score'])}  WP {pm(b['wp'], True)}  "
                     f"{b['ms_per_decision']} ms/decision  illegal {b['illegal']}")
        for role, m in result["roles"][side].items():
            lines.append(f"      as {role:<10} WP {pm(m['wp'], True)}  score/seat {pm(m['score'])}  "
                         f"({m['wp']['n']} games)")
    d = result["duplicate"]["a_minus_b_per_deal"]
    lines.append(f"  duplicate: A − B per deal (both halves) {pm(d)}")
    return lines
