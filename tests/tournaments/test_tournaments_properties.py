"""Property tests: thousands of random matches (random definitions, fields, withdrawals, late entries and deal
results) through the checker, and the pure functions against their definitions.

The default run keeps to well under a minute.  ``QIPAI_TOURNAMENTS_PROFILE=large`` runs many more examples and
larger fields (20 000 matches of up to 120 entrants: tens of minutes); ``QIPAI_TOURNAMENTS_MATCHES=N`` sets the
number of random matches."""

from __future__ import annotations

import json
import os
from datetime import datetime
from itertools import combinations, pairwise
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qipai.core.rng import Rng
from qipai.tournaments import (
    Bracket,
    RankRow,
    award,
    bracket_for,
    by_score,
    can_form,
    carry_value,
    choose_byes,
    definition_data,
    event_data,
    exact_cut,
    form_tables,
    next_start,
    parse_carry,
    parse_cron,
    parse_definition,
    rank,
    repeats,
    snake,
    sort_key,
    split_pool,
    state_from_json,
    state_to_json,
    swiss_seating,
)
from qipai.tournaments.check import Checker
from qipai.tournaments.gen import START, random_scenario
from qipai.tournaments.simulate import RandomPlayer, simulate

LARGE = os.environ.get("QIPAI_TOURNAMENTS_PROFILE") == "large"
MATCHES = int(os.environ.get("QIPAI_TOURNAMENTS_MATCHES", 20_000 if LARGE else 1_500))
pytestmark = pytest.mark.timeout(4 * 3600 if LARGE else 300)
FIELD = 120 if LARGE else 30
PURE = 3_000 if LARGE else 300
SETTINGS: Any = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
seeds = st.integers(min_value=0, max_value=2**48)


def run(seed: int, max_field: int = FIELD, **kw: Any):  # type: ignore[no-untyped-def]
    sc = random_scenario(seed, max_field=max_field)
    chk = Checker(sc.definition)
    res = simulate(sc.definition, sc.entrants, RandomPlayer(sc.seed, cap=sc.cap, early_end=sc.early_end),
                   seed=sc.seed, start=START, script=sc.script, observer=chk.observe, **kw)
    return sc, chk, res


# ------------------------------------------------------------------------------------------- whole matches

@settings(max_examples=MATCHES, **SETTINGS)
@given(seeds)
def test_random_matches_pass_the_checker(seed: int) -> None:
    _sc, chk, res = run(seed)
    assert chk.finish(res.state) == []
    assert res.state.phase in ("finished", "cancelled")
    if res.state.phase == "finished":
        ranked = [e.id for e in res.state.entrants.values() if e.status != "removed"]
        assert sorted(res.ranking) == sorted(ranked)


@settings(max_examples=MATCHES // 10, **SETTINGS)
@given(seeds)
def test_restarts_and_duplicate_reports_change_nothing(seed: int) -> None:
    _, _, a = run(seed)
    _, chk, b = run(seed, restart_every=1 + seed % 5)
    assert chk.finish(b.state) == []
    assert [event_data(e) for e in a.events] == [event_data(e) for e in b.events]


@settings(max_examples=MATCHES // 20, **SETTINGS)
@given(seeds)
def test_every_state_survives_json(seed: int) -> None:
    sc = random_scenario(seed, max_field=FIELD)
    checked = [0]

    def observe(state: Any, command: str, events: Any) -> None:
        data = json.loads(json.dumps(state_to_json(state)))
        assert state_from_json(data) == state
        checked[0] += 1

    simulate(sc.definition, sc.entrants, RandomPlayer(sc.seed), seed=sc.seed, start=START, script=sc.script,
             observer=observe)
    assert checked[0] > 0


@settings(max_examples=MATCHES // 30, **SETTINGS)
@given(seeds)
def test_transitions_never_change_the_state_they_are_given(seed: int) -> None:
    sc = random_scenario(seed, max_field=min(FIELD, 20))
    a = simulate(sc.definition, sc.entrants, RandomPlayer(sc.seed), seed=sc.seed, start=START, script=sc.script,
                 pure=True)
    b = simulate(sc.definition, sc.entrants, RandomPlayer(sc.seed), seed=sc.seed, start=START, script=sc.script)
    assert [event_data(e) for e in a.events] == [event_data(e) for e in b.events]


@settings(max_examples=PURE, **SETTINGS)
@given(seeds)
def test_definitions_round_trip(seed: int) -> None:
    d = parse_definition(random_scenario(seed).definition)
    assert parse_definition(json.loads(json.dumps(definition_data(d)))) == d


# ------------------------------------------------------------------------------------------- ranking

rows = st.lists(st.tuples(st.integers(-50, 50), st.integers(-5, 5), st.integers(0, 3), st.integers(-9, 9),
                          st.none() | st.integers(1, 5)), min_size=1, max_size=12)
keysets = st.lists(st.sampled_from(["last_deal", "deals_won", "buchholz", "prev_stage_rank"]), unique=True)


@settings(max_examples=PURE, **SETTINGS)
@given(rows, keysets, st.randoms(use_true_random=False))
def test_standings_are_a_total_order(data: list[Any], keys: list[str], rnd: Any) -> None:
    rs = [RankRow(f"e{i}", p, i + 1, ld, dw, bh, pr) for i, (p, ld, dw, bh, pr) in enumerate(data)]
    out = rank(rs, keys)
    shuffled = list(rs)
    rnd.shuffle(shuffled)
    assert rank(shuffled, keys) == out
    ks = [sort_key(r, (*keys, "registration")) for r in out]
    assert all(a < b for a, b in pairwise(ks))
    assert all(a.points >= b.points for a, b in pairwise(out))


@settings(max_examples=PURE, **SETTINGS)
@given(st.integers(-10**9, 10**9), st.sampled_from(["sqrt", "scale"]), st.integers(1, 50), st.integers(1, 50))
def test_carry_is_exact_odd_and_monotone(x: int, kind: str, p: int, q: int) -> None:
    rule = parse_carry(f"{kind} {p}/{q}")
    v = carry_value(x, rule, 0)
    assert carry_value(-x, rule, 0) == -v
    assert carry_value(x + 1, rule, 0) >= v
    a = abs(x)
    w = abs(v)
    lo, hi = 2 * q * w - q, 2 * q * w + q  # w = ⌊y + 1/2⌋  ⇔  lo ≤ 2q·y < hi  with y = p√a/q or p·a/q
    if kind == "sqrt":
        assert (lo <= 0 or lo * lo <= 4 * p * p * a) and 4 * p * p * a < hi * hi
    else:
        assert lo <= 2 * p * a < hi


# ------------------------------------------------------------------------------------------- seating

@settings(max_examples=PURE, **SETTINGS)
@given(st.integers(2, 4), st.integers(1, 12))
def test_snake_and_by_score_are_partitions(s: int, t: int) -> None:
    ranked = list(range(s * t))
    for tables in (snake(ranked, s), by_score(ranked, s)):
        assert sorted(x for tb in tables for x in tb) == ranked and all(len(tb) == s for tb in tables)
    for i, tb in enumerate(snake(ranked, s)):
        for row, e in enumerate(tb):
            col = e % t
            assert e // t == row and i == (col if row % 2 == 0 else t - 1 - col)


@settings(max_examples=PURE, **SETTINGS)
@given(st.integers(3, 20), st.integers(2, 4), st.integers(1, 12), st.integers(0, 2**32))
def test_byes_go_round_before_anyone_gets_two(n: int, s: int, rounds: int, seed: int) -> None:
    b = n % s
    rng = Rng(seed)
    had: dict[int, int] = {}
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        chosen = choose_byes(order, had, b)
        assert len(set(chosen)) == b
        rest = [had.get(i, 0) for i in order if i not in chosen]
        assert all(had.get(c, 0) <= min(rest, default=99) for c in chosen)
        for c in chosen:
            had[c] = had.get(c, 0) + 1
        counts = [had.get(i, 0) for i in range(n)]
        assert max(counts) - min(counts) <= 1


def brute_min(people: list[int], s: int, met: Any) -> int:
    if not people:
        return 0
    first, rest = people[0], people[1:]
    best = 10**9
    for mates in combinations(rest, s - 1):
        left = [p for p in rest if p not in mates]
        r = sum(met(a, b) for a, b in combinations((first, *mates), 2))
        best = min(best, r + brute_min(left, s, met))
    return best


@settings(max_examples=PURE, **SETTINGS)
@given(st.sampled_from([(2, 2), (2, 3), (2, 4), (3, 2), (3, 3), (4, 2)]), st.integers(1, 4), st.integers(0, 2**32),
       st.integers(1, 3))
def test_swiss_seating_properties(shape: tuple[int, int], prior: int, seed: int, window: int) -> None:
    s, t = shape
    n = s * t
    rng = Rng(seed)
    m: dict[tuple[int, int], int] = {}
    for _ in range(prior):
        people = list(range(n))
        rng.shuffle(people)
        for tb in by_score(people, s):
            for a, b in combinations(tb, 2):
                k = (min(a, b), max(a, b))
                m[k] = m.get(k, 0) + 1

    def met(a: int, b: int) -> int:
        return m.get((min(a, b), max(a, b)), 0)

    ranked = list(range(n))
    rng.shuffle(ranked)
    idx = {e: i for i, e in enumerate(ranked)}
    cut = by_score(ranked, s)
    got = swiss_seating(ranked, s, met, window)
    assert sorted(x for tb in got for x in tb) == sorted(ranked)
    assert all(len(tb) == s and [idx[e] for e in tb] == sorted(idx[e] for e in tb) for tb in got)
    r = repeats(got, met)
    assert r <= repeats(cut, met)
    if repeats(cut, met) == 0:
        assert got == cut
    # a local optimum: no swap inside the window lowers R
    for i, j in combinations(range(t), 2):
        if j - i > window:
            continue
        for a in range(s):
            for b in range(s):
                alt = [list(tb) for tb in got]
                alt[i][a], alt[j][b] = alt[j][b], alt[i][a]
                assert repeats(alt, met) >= r
    assert r >= brute_min(ranked, s, met)


# ------------------------------------------------------------------------------------------- 打立

@settings(max_examples=PURE, **SETTINGS)
@given(st.lists(st.sampled_from(["a", "b", "c", "d", None]), max_size=14), st.sampled_from([2, 3, 4]), st.booleans())
def test_queue_forming(prevs: list[str | None], s: int, in_play: bool) -> None:
    queue = [f"q{i}" for i in range(len(prevs))]
    tables, rest = form_tables(queue, prevs, s, in_play)
    seated = [x for tb in tables for x in tb]
    assert all(len(tb) == s for tb in tables)
    assert sorted(seated + rest) == sorted(queue) and len(set(seated)) == len(seated)
    assert rest == [q for q in queue if q not in seated]  # the queue keeps its order
    pv = dict(zip(queue, prevs, strict=True))
    assert not can_form([pv[q] for q in rest], s, in_play or bool(tables))
    for tb in tables:
        assert tb[0] == next(q for q in queue if q not in {x for t2 in tables[:tables.index(tb)] for x in t2})


@settings(max_examples=PURE, **SETTINGS)
@given(st.integers(0, 8), st.integers(1, 30), st.integers(1, 30))
def test_exact_cut_never_drops_below_n(k: int, r: int, n: int) -> None:
    below = [f"b{i}" for i in range(min(k, r))]
    out = exact_cut(below, r, n)
    assert out == below[len(below) - len(out):]
    assert r - len(out) >= min(r, n)
    if r - len(below) >= n:
        assert out == below


# ------------------------------------------------------------------------------------------- prizes

@settings(max_examples=PURE, **SETTINGS)
@given(st.integers(0, 10**7), st.lists(st.integers(1, 40), min_size=1, max_size=8))
def test_pool_split_sums_to_the_pool(pool: int, parts: list[int]) -> None:
    percents = [*parts[:-1], 0]
    total = sum(percents)
    if total > 100:
        return
    percents[-1] = 100 - total
    out = split_pool(pool, percents)
    assert sum(out) == pool and all(x >= 0 for x in out)
    assert out[1:] == [pool * p // 100 for p in percents[1:]]


@settings(max_examples=PURE, **SETTINGS)
@given(st.lists(st.booleans(), max_size=20), st.lists(st.integers(0, 500), max_size=8), st.integers(0, 100))
def test_award_pays_humans_in_order(bots: list[bool], amounts: list[int], humans: int) -> None:
    ranking = [(f"e{i}", b) for i, b in enumerate(bots)]
    paid = award(ranking, amounts)
    human_order = [e for e, b in ranking if not b]
    assert [p[0] for p in paid] == [e for e, a in zip(human_order, amounts, strict=False) if a > 0]
    assert all(not dict(ranking)[e] for e, _, _ in paid)
    assert [p[1] for p in paid] == sorted(p[1] for p in paid)
    b = bracket_for([Bracket(3, (100,)), Bracket(9, (60, 40))], humans)
    assert b.min_entrants == (9 if humans >= 9 else 3)


# ------------------------------------------------------------------------------------------- schedules

crons = st.tuples(st.sampled_from(["*", "*/15", "0", "30", "5,35"]), st.sampled_from(["*", "*/6", "9", "20-22"]),
                  st.sampled_from(["*", "1", "15"]), st.sampled_from(["*", "*/3", "12"]),
                  st.sampled_from(["*", "1-5", "0", "sat"]))


@settings(max_examples=PURE // 3, **SETTINGS)
@given(crons, st.integers(1_600_000_000, 1_900_000_000))
def test_next_start_is_the_first_match(fields: tuple[str, ...], t: int) -> None:
    text = " ".join(fields)
    cron = parse_cron(text)
    nxt = next_start(text, t)
    zone = ZoneInfo("Asia/Shanghai")

    def matches(ts: int) -> bool:
        dt = datetime.fromtimestamp(ts, zone)
        return dt.minute in cron.minutes and dt.hour in cron.hours and cron.day_matches(dt.date())

    assert nxt > t and nxt % 60 == 0 and matches(nxt)
    if nxt - t <= 3 * 86400:
        first = (t // 60 + 1) * 60
        assert not any(matches(x) for x in range(first, nxt, 60))


def test_next_start_every_hour() -> None:
    # every hour at :00 from each minute of an hour gives the next hour
    base = 1_700_000_000 - 1_700_000_000 % 3600
    assert {next_start("0 * * * *", base + k * 60) for k in range(60)} == {base + 3600}
