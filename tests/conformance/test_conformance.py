"""The conformance suite every registered game passes (and the toy games of ``toygames``), in the spirit of
PettingZoo's ``api_test`` and OpenSpiel's basic tests and playthroughs.

For every game and preset:

* random playthroughs to the end, with host events mixed in (auto-play on and off, timeouts, a seat leaving);
  they end within the game's declared ``max_actions``;
* at every step the acting seats have legal actions, each listed action passes :meth:`check`, and an action
  the game refuses — nonsense, or a legal action sent by a seat that does not act — raises ``IllegalAction``
  with a reason and changes nothing (observations and record stay equal);
* no observation holds what its seat may not see: ``resample(seat, k)`` redraws everything hidden from the seat
  and the seat's observation stays the same;
* the record replays exactly (every seat's view and the outcome), and everything is JSON;
* scores sum as the game declares (``zero_sum``, except after a seat left where the game names an exception);
* every bot the game lists plays whole deals;
* golden transcripts: a seeded playthrough of a few fixed seeds is compared line by line with
  ``golden/<game>.txt`` (``QIPAI_UPDATE_GOLDEN=1`` rewrites them after an intended change).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from qipai.bots import game_bots, get_bot
from qipai.core.game import (
    AUTOPLAY_OFF,
    AUTOPLAY_ON,
    LEAVE,
    TIMEOUT,
    Game,
    GameFactory,
    IllegalAction,
    apply_step,
)
from qipai.core.registry import game_names, get_factory

from toygames import ClaimFactory, CountFactory

GOLDEN = Path(__file__).with_name("golden")
TOYS: dict[str, GameFactory] = {"count": CountFactory, "claim": ClaimFactory}  # type: ignore[dict-item]


def factories() -> list[tuple[str, GameFactory]]:
    return [(name, get_factory(name)) for name in game_names()] + list(TOYS.items())


def cases() -> list[Any]:
    out = []
    for name, f in factories():
        for preset in f.info.presets:
            out.append(pytest.param(name, preset, id=f"{name}-{preset}"))
    return out


def _factory(name: str) -> GameFactory:
    return TOYS[name] if name in TOYS else get_factory(name)


def _options(f: GameFactory, preset: str) -> dict[str, Any]:
    return {} if preset == "default" else {"preset": preset}


def _new(f: GameFactory, preset: str, seed: int) -> Game:
    opts = _options(f, preset)
    return f.new(opts, seed, f.deal_context(opts, f.match_start(opts)))


def _snapshot(g: Game) -> str:
    views = [g.observe(s) for s in range(g.players)] + [g.observe(None)]
    return json.dumps({"views": views, "record": g.record(), "acting": list(g.acting)}, sort_keys=True, default=str)


def _host_events(g: Game, rng: random.Random) -> tuple[int, str] | None:
    """Now and then a host event: auto-play on/off for any seat, a timeout for an acting seat, or a leave."""
    roll = rng.random()
    if roll < 0.03:
        s = rng.randrange(g.players)
        return s, (AUTOPLAY_OFF if g.in_autoplay(s) else AUTOPLAY_ON)
    if roll < 0.06 and g.acting:
        return rng.choice(list(g.acting)), TIMEOUT
    if roll < 0.062:
        return rng.randrange(g.players), LEAVE
    return None


def playthrough(f: GameFactory, preset: str, seed: int, *, checks: bool = True,
                events: bool = True) -> tuple[Game, list[tuple[int, str]], bool]:
    """Play a random deal to the end; returns the game, the steps and whether a seat left."""
    rng = random.Random(seed)
    g = _new(f, preset, seed)
    steps: list[tuple[int, str]] = []
    left = False
    limit = f.info.max_actions
    while not g.is_over:
        assert len(steps) <= limit, f"{f.info.name}: no end after {limit} actions"
        acting = g.acting
        assert acting, "a running game has a seat to act"
        assert set(g.public_acting()) <= set(acting)
        ev = _host_events(g, rng) if events else None
        if ev is not None:
            seat, text = ev
            try:
                apply_step(g, seat, text)
            except IllegalAction as e:
                assert str(e), "an illegal host event says why"
                continue
            steps.append(ev)
            left = left or text == LEAVE
            continue
        seat = rng.choice(list(acting))
        legal = g.legal_actions(seat)
        assert legal, f"seat {seat} acts but has no legal action"
        if checks and rng.random() < 0.3:
            check_step(g, seat, legal, rng)
        action = rng.choice(legal)
        assert g.check(action, seat) is None, f"listed action {action!r} fails its own check"
        g.apply(action, seat)
        steps.append((seat, action))
    return g, steps, left


def check_step(g: Game, seat: int, legal: list[str], rng: random.Random) -> None:
    """Refusals say why and change nothing; every listed action checks; the seat's view hides what it must."""
    before = _snapshot(g)
    for a in legal[:20]:
        assert g.check(a, seat) is None, f"listed action {a!r} refused by check: {g.check(a, seat)}"
    others = [s for s in range(g.players) if s not in g.acting]
    bad = [(seat, "no such action at all"), (seat, "")]
    if others:
        bad.append((rng.choice(others), legal[0]))
    for s, a in bad:
        reason = g.check(a, s)
        assert reason, f"check accepted {a!r} from seat {s}"
        with pytest.raises(IllegalAction) as e:
            g.apply(a, s)
        assert str(e.value)
        assert _snapshot(g) == before, f"a refused action {a!r} changed the game"
    for s in range(g.players):
        view = g.observe(s)
        r = g.resample(s, rng.randrange(1 << 30))
        assert r.observe(s) == view, f"seat {s}'s observation depends on what it cannot see"
    assert _snapshot(g) == before, "checking or resampling changed the game"


@pytest.mark.parametrize(("game", "preset"), cases())
def test_random_playthroughs(game: str, preset: str) -> None:
    f = _factory(game)
    info = f.info
    for seed in range(4):
        g, _steps, left = playthrough(f, preset, seed * 7919 + 1)
        assert g.phase in info.phases and g.acting == ()
        out = g.outcome()
        assert out is not None
        json.dumps(out)
        scores = out["scores"]
        assert len(scores) == g.players and all(isinstance(x, int) for x in scores)
        if info.zero_sum and not (left and info.zero_sum_exceptions):
            assert sum(scores) == 0, f"scores {scores} do not sum to zero"
        for key in ("roles", "won"):
            assert key in out and len(out[key]) == g.players
        assert all(r is None or r in info.roles or not info.roles for r in out["roles"])
        # the record replays exactly
        rec = g.record()
        json.dumps(rec)
        again = f.replay(json.loads(json.dumps(rec)))
        assert again.outcome() == out
        assert [again.observe(s) for s in range(g.players)] == [g.observe(s) for s in range(g.players)]
        # the match goes on from this outcome
        opts = _options(f, preset)
        m = f.match_after(opts, f.match_start(opts), out)
        json.dumps(m)
        json.dumps(f.deal_context(opts, m))


@pytest.mark.parametrize(("game", "preset"), cases())
def test_phases_and_json_at_every_step(game: str, preset: str) -> None:
    f = _factory(game)
    g = _new(f, preset, 99)
    rng = random.Random(5)
    while not g.is_over:
        assert g.phase in f.info.phases
        for s in [*range(g.players), None]:
            json.dumps(g.observe(s))
        for s in g.acting:
            lim = g.time_limit(s)
            assert lim is None or lim > 0
        seat = rng.choice(list(g.acting))
        g.apply(rng.choice(g.legal_actions(seat)), seat)


@pytest.mark.parametrize("game", [name for name, _ in factories()])
def test_bots_play_whole_deals(game: str) -> None:
    f = _factory(game)
    preset = f.info.presets[0]
    for name in dict.fromkeys([*f.info.bots, *f.info.levels]):  # the bots and the strength levels
        g = _new(f, preset, 3)
        # seat 0 plays this bot, the others the game's seat bot (a table of auto-play bots that never bid
        # would redeal for ever under a redeal rule: that is the host's to stop, not the game's)
        names = [name] + [f.info.seat_bot] * (g.players - 1)
        bots = [get_bot(n, seed=i, game=game) if game not in TOYS else get_bot("random", seed=i)
                for i, n in enumerate(names)]
        n = 0
        while not g.is_over:
            n += 1
            assert n <= f.info.max_actions
            seat = g.acting[0]
            action = bots[seat].act(g.observe(seat), g.legal_actions(seat))
            assert g.check(action, seat) is None, f"bot {name} chose {action!r}: {g.check(action, seat)}"
            g.apply(action, seat)


@pytest.mark.parametrize("game", [name for name, _ in factories()])
def test_info_is_complete(game: str) -> None:
    f = _factory(game)
    info = f.info
    assert info.min_players <= info.max_players and info.phases and info.presets
    assert info.titles.get("zh") and info.titles.get("en")
    json.dumps(info.describe())
    if game not in TOYS:  # every bot and level it names is a bot of the game (the web offers the levels by name)
        known = set(game_bots(game))
        assert {*info.bots, *info.levels, info.seat_bot} <= known, {*info.bots, *info.levels} - known
    for preset in info.presets:
        opts = _options(f, preset)
        assert info.min_players <= f.players(opts) <= info.max_players
        full = f.options(opts)
        for name in full:
            assert name == "preset" or name in info.options, f"option {name} is not declared"
    teams = f.teams(_options(f, info.presets[0]))
    if teams is not None:
        seats = sorted(s for t in teams for s in t)
        assert seats == list(range(f.players(_options(f, info.presets[0]))))
    # the titles table (the profile's progress to the next title) says what the factory's title() says
    rows = list(info.title_table)
    assert rows == sorted(rows) and len({need for need, _ in rows}) == len(rows)
    for need, name in rows:
        assert f.title(need) == name, f"{need} points: title() says {f.title(need)!r}, the table {name!r}"
    for (_, name), (nxt, _) in itertools.pairwise(rows):
        assert f.title(nxt - 1) == name


def transcript(f: GameFactory, preset: str, seed: int) -> list[str]:
    """A playthrough written out: each step's seat and action and a short digest of every view after it."""
    _, steps, _ = playthrough(f, preset, seed, checks=False)
    replay = _new(f, preset, seed)
    lines = [f"# {f.info.name} {preset} seed {seed}"]
    for seat, text in steps:
        apply_step(replay, seat, text)
        views = json.dumps([replay.observe(s) for s in range(replay.players)], sort_keys=True, default=str)
        lines.append(f"{seat} {text} | {hashlib.sha256(views.encode()).hexdigest()[:12]}")
    lines.append(f"outcome {json.dumps((replay.outcome() or {}).get('scores'))}")
    return lines


GOLDEN_SEEDS = (11, 2024)


@pytest.mark.parametrize("game", [name for name, _ in factories()])
def test_golden_transcripts(game: str) -> None:
    f = _factory(game)
    got: list[str] = []
    for preset in f.info.presets[:3]:
        for seed in GOLDEN_SEEDS:
            got += transcript(f, preset, seed)
    path = GOLDEN / f"{game}.txt"
    if os.environ.get("QIPAI_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text("\n".join(got) + "\n")
    if not path.exists():
        pytest.fail(f"{path} is missing: run QIPAI_UPDATE_GOLDEN=1 pytest tests/conformance and commit it")
    want = path.read_text().splitlines()
    assert got == want, f"{game}: the playthrough differs from {path} (an engine change? QIPAI_UPDATE_GOLDEN=1)"
