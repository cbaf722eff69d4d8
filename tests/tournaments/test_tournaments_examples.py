"""Every worked example of RULES-matches.md §9, as a test (numbers in the test names are the example numbers).

Most examples are checked twice: on the pure function the spec names, and through the state machine."""

from __future__ import annotations

import pytest

from qipai.tournaments import (
    BotsAdded,
    DealStart,
    Eliminated,
    ForcedFinish,
    LevelChanged,
    MatchOver,
    PrizePaid,
    PrizesFixed,
    RankRow,
    Refund,
    Removed,
    RoundStarted,
    StageOver,
    TableFormed,
    award,
    buchholz,
    by_score,
    carry_value,
    choose_byes,
    displacement,
    exact_cut,
    final_places,
    form_tables,
    level_base,
    level_index,
    line,
    new_match,
    next_wakeup,
    parse_carry,
    parse_prizes,
    prize_amounts,
    rank,
    register,
    repeats,
    report,
    simulate,
    snake,
    standings,
    swiss_seating,
    tick,
)
from qipai.tournaments.check import Checker
from qipai.tournaments.simulate import RandomPlayer


def ids(rows: list[RankRow]) -> list[str]:
    return [r.id for r in rows]


def met_from(rounds: list[list[set[str]]]):  # type: ignore[no-untyped-def]
    def met(a: str, b: str) -> int:
        return sum(1 for tables in rounds for t in tables if a in t and b in t)
    return met


def play_round(st, scores_by_table, now):  # type: ignore[no-untyped-def]
    """Report ``scores_by_table[key] = [deal1_scores, deal2_scores, …]`` in deal order; returns state, events."""
    events = []
    longest = max(len(v) for v in scores_by_table.values())
    for n in range(longest):
        for key, deals in scores_by_table.items():
            if n < len(deals):
                st, ev = report(st, key, n + 1, deals[n], now)
                events.extend(ev)
    return st, events


# ------------------------------------------------------------------------------------------- 1–5 ranking

A = RankRow("A", 1180, reg=3, last_deal=40)
B = RankRow("B", 1180, reg=1, last_deal=-20)
C = RankRow("C", 640, reg=2)


def test_01_pan_ding_yi_last_deal_before_registration() -> None:
    assert ids(rank([B, C, A], ["last_deal", "registration"])) == ["A", "B", "C"]


def test_02_pan_ding_er_for_swiss() -> None:
    assert ids(rank([A, C, B], ["registration"])) == ["B", "A", "C"]


def _final_table(stage: dict[str, object]) -> list[str]:
    """A, B, C registered as B (reg 1), C (reg 2), A (reg 3); two deals leave A 1180 (+40 last), B 1180 (−20),
    C 640."""
    d = {"game": "ddz3", "entry": {"start": "when_full", "max_entrants": 3, "start_delay_s": 0},
         "stages": [stage]}
    st = new_match(d, match_id="ex1", seed=1, now=0)
    for p in ["B", "C", "A"]:
        st, _ = register(st, p, [p], now=0)
    st, ev = tick(st, now=0)
    (table,) = [e.table for e in ev if isinstance(e, TableFormed)]
    order = list(table.entrants)
    deals = [{"A": 140, "B": 200, "C": -340}, {"A": 40, "B": -20, "C": -20}]
    st, ev = play_round(st, {table.key: [[dl[x] for x in order] for dl in deals]}, now=100)
    assert {r.entrant: r.points for r in standings(st)} == {"A": 1180, "B": 1180, "C": 640}
    (over,) = [e for e in ev if isinstance(e, MatchOver)]
    return list(over.ranking)


def test_01_02_through_the_machine() -> None:
    fixed = {"format": "fixed", "rounds": [{"deals": 2}]}
    swiss = {"format": "swiss", "rounds": 1, "deals": 2}
    assert _final_table(fixed) == ["A", "B", "C"]
    assert _final_table(swiss) == ["B", "A", "C"]


def test_03_equal_last_deal_falls_to_registration() -> None:
    rows = [RankRow("P", 900, 7, 30), RankRow("Q", 900, 4, 30), RankRow("R", 900, 2, -60)]
    assert ids(rank(rows, ["last_deal"])) == ["Q", "P", "R"]


def test_04_different_last_deals_no_deal_counts_zero() -> None:
    rows = [RankRow("K", 1500, 5, 0), RankRow("L", 1500, 9), RankRow("M", 1500, 2, -15)]
    assert ids(rank(rows, ["last_deal"])) == ["K", "L", "M"]
    # without 判定一 registration alone decides: M first
    assert ids(rank(rows, ["registration"])) == ["M", "K", "L"]


def test_05_custom_list_deals_won_then_buchholz() -> None:
    pts = {"X": 50, "U": 30, "V": 30, "W": 30, "Y": -40, "Z": -100}
    mates = {"U": {"X": 1, "Y": 1, "Z": 1, "W": 1}, "W": {"X": 1, "Y": 1, "U": 1, "V": 1}}
    assert buchholz(mates["U"], pts) == -60
    assert buchholz(mates["W"], pts) == 70
    won = {"X": 3, "U": 4, "V": 5, "W": 4, "Y": 1, "Z": 0}
    rows = [RankRow(i, pts[i], reg, deals_won=won[i], buchholz=buchholz(mates.get(i, {}), pts))
            for reg, i in enumerate("XUVWYZ", start=1)]
    assert ids(rank(rows, ["deals_won", "buchholz"])) == ["X", "V", "W", "U", "Y", "Z"]


# ------------------------------------------------------------------------------------------- 6–7 fixed

def test_06_snake_and_by_score() -> None:
    ranks = list(range(1, 13))
    assert snake(ranks, 3) == [[1, 8, 9], [2, 7, 10], [3, 6, 11], [4, 5, 12]]
    assert by_score(ranks, 3) == [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]
    assert snake(list(range(1, 10)), 3) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]


def test_07_fixed_cut_sit_and_go_9() -> None:
    st = new_match({"preset": "sit_and_go_9", "entry": {"start_delay_s": 0}}, match_id="ex7", seed=7, now=0)
    for p in "ABCDEFGHI":
        st, _ = register(st, p, [p], now=0)
    st, ev = tick(st, now=0)
    tables = {e.table.key: list(e.table.entrants) for e in ev if isinstance(e, TableFormed)}
    # all at 1000, registration order: snake gives {A, F, G}, {B, E, H}, {C, D, I}
    assert list(tables.values()) == [["A", "F", "G"], ["B", "E", "H"], ["C", "D", "I"]]
    want = {"A": [0, 0, 460], "F": [0, 0, -70], "G": [0, 0, -300],
            "B": [100, 50, 60], "E": [0, 0, 0], "H": [-300, -310, 0],
            "C": [240, 0, -30], "D": [100, 0, 0], "I": [-1000, 0, 0]}
    st, ev = play_round(st, {k: [[want[x][n] for x in v] for n in range(3)] for k, v in tables.items()}, now=300)
    pts = {r.entrant: r.points for r in standings(st)}
    assert pts == {"A": 1460, "B": 1210, "C": 1210}
    (cut,) = [e for e in ev if isinstance(e, Eliminated)]
    assert cut.kind == "cut" and list(cut.entrants) == ["D", "E", "F", "G", "H", "I"]
    assert [r.entrant for r in standings(st)] == ["A", "B", "C"]  # B (+60 last) before C (−30)
    st, ev = tick(st, now=400)
    (final,) = [e.table for e in ev if isinstance(e, TableFormed)]
    assert final.entrants == ("A", "B", "C")
    st, ev = play_round(st, {final.key: [[10, 0, -10]] * 3}, now=600)
    (over,) = [e for e in ev if isinstance(e, MatchOver)]
    assert list(over.ranking)[3:] == ["D", "E", "F", "G", "H", "I"]  # places 4..9


# ------------------------------------------------------------------------------------------- 8 carry-over

def test_08_carry_over() -> None:
    sq = parse_carry("sqrt 10/1")
    assert [carry_value(x, sq, 0) for x in (1000, 2500, 1234, 99, 1, 0)] == [316, 500, 351, 99, 10, 0]
    half = parse_carry("sqrt 1/2")
    assert [carry_value(x, half, 0) for x in (9, 25, 1000, -1000)] == [2, 3, 16, -16]
    sc = parse_carry("scale 1/10")
    assert [carry_value(x, sc, 0) for x in (1234, 1235, 1245, -1235, 5)] == [123, 124, 125, -124, 1]


def test_08_carry_over_through_the_machine() -> None:
    """hourly's final stage enters with sqrt 10/1 of the 打立 points: the checker compares every entrant."""
    chk = Checker({"preset": "hourly"})
    res = simulate({"preset": "hourly"}, 30, RandomPlayer(8), seed=8, observer=chk.observe)
    assert chk.finish(res.state) == []
    first, second = res.state.stage_results[0], res.state.stage_results[1]
    entered = {i: carry_value(p, sq, 0) for i, p in zip(first.ids, first.points, strict=True)
               for sq in [parse_carry("sqrt 10/1")]}
    started = [e for e in res.events if type(e).__name__ == "StageStarted"][1]
    assert {i: p for i, p in zip(started.field, started.points, strict=True)} == {i: entered[i] for i in first.ids}
    assert len(second.ids) == 3


# ------------------------------------------------------------------------------------------- 9–12 Swiss

def test_09_bye_distribution() -> None:
    rounds = ["ABCDEFGHIJ", "BAJDCEGFHI", "JABCDIEFGH", "ABJCHDEFGI", "ABCDEFGHIJ"]
    byes: dict[str, int] = {}
    got = []
    for order in rounds:
        (b,) = choose_byes(list(order), byes, 1)
        byes[b] = byes.get(b, 0) + 1
        got.append(b)
    assert got == ["J", "I", "H", "G", "F"]


def test_09_byes_through_the_machine_nobody_twice_before_all() -> None:
    d = {"game": "ddz3", "entry": {"start": "at_time", "min_entrants": 3, "reg_opens_s": 10},
         "stages": [{"format": "swiss", "rounds": 12, "deals": 1}], "round_gap_s": 0}
    st = new_match(d, match_id="ex9", seed=9, now=0, start_at=10)
    for p in "ABCDEFGHIJ":
        st, _ = register(st, p, [p], now=0)
    st, ev = tick(st, now=10)
    seen: list[str] = []
    player = RandomPlayer(9)
    now = 10
    while st.phase == "running":
        byes = [e for e in ev if isinstance(e, RoundStarted)]
        for r in byes:
            assert len(r.byes) == 1
            seen.extend(r.byes)
        tables = [e.table for e in ev if isinstance(e, TableFormed)]
        now += 60
        ev = []
        for t in tables:
            st, e1 = report(st, t.key, 1, player(t)[0], now)
            ev.extend(e1)
        st, e2 = tick(st, now)
        ev.extend(e2)
    assert sorted(seen[:10]) == list("ABCDEFGHIJ")  # ten rounds: each had one bye before anyone had two
    assert seen[0] == "J"  # R1, everyone at 1000: the worst in registration order


def test_10_swiss_round_two_nine_entrants() -> None:
    met = met_from([[set("ABC"), set("DEF"), set("GHI")]])
    ranked = list("ADBGECHFI")
    idx = {e: i for i, e in enumerate(ranked)}
    cut = by_score(ranked, 3)
    assert cut == [list("ADB"), list("GEC"), list("HFI")] and repeats(cut, met) == 2
    got = swiss_seating(ranked, 3, met)
    assert got == [list("ADH"), list("GEC"), list("BFI")]
    assert repeats(got, met) == 0 and displacement(got, idx, 3) == 4


def test_11_mahjong_swiss_round_two_twelve_entrants() -> None:
    met = met_from([[set("ABCD"), set("EFGH"), set("IJKL")]])
    ranked = list("AEBFCIGJDKHL")
    idx = {e: i for i, e in enumerate(ranked)}
    assert repeats(by_score(ranked, 4), met) == 4
    got = swiss_seating(ranked, 4, met)
    assert got == [list("AEBI"), list("FCGJ"), list("DKHL")]
    assert repeats(got, met) == 3 and displacement(got, idx, 4) == 2


def test_11_three_is_the_minimum_for_any_seating() -> None:
    """Brute force: every seating of the twelve into three tables of four repeats at least three pairs."""
    from itertools import combinations

    met = met_from([[set("ABCD"), set("EFGH"), set("IJKL")]])
    people = list("ABCDEFGHIJKL")
    best = 99
    first = people[0]
    for t1 in combinations(people[1:], 3):
        rest = [p for p in people if p not in t1 and p != first]
        for t2 in combinations(rest[1:], 3):
            t3 = [p for p in rest if p not in t2 and p != rest[0]]
            tables = [[first, *t1], [rest[0], *t2], t3]
            best = min(best, repeats(tables, met))
    assert best == 3


def test_12_team_swiss() -> None:
    met = met_from([[{"T1", "T2"}, {"T3", "T4"}, {"T5", "T6"}]])
    assert swiss_seating(["T1", "T3", "T2", "T5", "T4", "T6"], 2, met) == [["T1", "T3"], ["T2", "T5"], ["T4", "T6"]]


def test_12_team_swiss_through_the_machine() -> None:
    d = {"game": "shengji", "entry": {"start": "when_full", "max_entrants": 6, "start_delay_s": 0},
         "stages": [{"format": "swiss", "rounds": 2, "deals": 1}], "round_gap_s": 0}
    st = new_match(d, match_id="ex12", seed=12, now=0)
    for k in range(1, 7):
        st, _ = register(st, f"T{k}", [f"T{k}a", f"T{k}b"], now=0)
    st, ev = tick(st, now=0)
    r1 = {e.table.key: e.table for e in ev if isinstance(e, TableFormed)}
    assert [t.entrants for t in r1.values()] == [("T1", "T2"), ("T3", "T4"), ("T5", "T6")]
    gain = {"T1": 5, "T2": 3, "T3": 4, "T4": 1, "T5": 2, "T6": 0}
    ev = []
    for t in r1.values():
        a, b = t.entrants
        st, e = report(st, t.key, 1, [gain[a], gain[b], gain[a], gain[b]], now=60)
        ev.extend(e)
    st, e = tick(st, now=60)
    ev.extend(e)
    r2 = [e.table for e in ev if isinstance(e, TableFormed)]
    assert [t.entrants for t in r2] == [("T1", "T3"), ("T2", "T5"), ("T4", "T6")]
    assert r2[0].seats == ("T1a", "T3a", "T1b", "T3b")  # T1 at seats 0 and 2
    assert r2[0].seat_entrants == ("T1", "T3", "T1", "T3")


# ------------------------------------------------------------------------------------------- 13–15 打立

def test_13_exact_cut() -> None:
    assert exact_cut(["B", "A"], remaining=10, advance=9) == ["A"]
    assert exact_cut(["B", "A"], remaining=12, advance=9) == ["B", "A"]


def _dali(n: int, advance: int, **stage: object) -> dict[str, object]:
    return {"game": "ddz3", "entry": {"start": "at_time", "min_entrants": 3, "reg_opens_s": 100},
            "stages": [{"format": "dali", "advance": advance, "start_stack": 100, **stage}]}


def test_13_exact_cut_through_the_machine() -> None:
    """R = 10, N = 9, line 50: a deal leaves two below the line; only the worse goes, no table is formed, and
    the stage ends when the tables in play finish."""
    d = _dali(10, 9, levels=[10], out_factor=5, level_step={"deals": 1000})
    st = new_match(d, match_id="ex13", seed=13, now=0, start_at=100)
    names = ["X1", "B", "A", "X4", "X5", "X6", "X7", "X8", "X9", "X10"]
    for p in names:
        st, _ = register(st, p, [p], now=0)
    st, ev = tick(st, now=100)
    tables = [e.table for e in ev if isinstance(e, TableFormed)]
    assert [t.entrants for t in tables] == [("X1", "B", "A"), ("X4", "X5", "X6"), ("X7", "X8", "X9")]
    assert tables[0].line == 50
    st, ev = report(st, "1.d1", 1, [1245, -55, -70], now=160)  # X1 1345, B 45, A 30
    (out,) = [e for e in ev if isinstance(e, Eliminated)]
    assert out.entrants == ("A",) and out.rescued == ("B",)
    assert st.stage is not None and st.stage.remaining == 9
    assert not [e for e in ev if isinstance(e, TableFormed)]  # no new table: R = N
    st, ev = report(st, "1.d2", 1, [10, -10, 0], now=170)
    assert not [e for e in ev if isinstance(e, StageOver)]
    st, ev = report(st, "1.d3", 1, [-100, 50, 50], now=180)  # X7 at 0 is below the line but R = N: stays
    (over,) = [e for e in ev if isinstance(e, StageOver)]
    assert len(over.standings) == 9 and "X7" in over.standings
    assert final_ranking_tail(ev) == ["A"]


def final_ranking_tail(ev: list[object]) -> list[str]:
    (m,) = [e for e in ev if isinstance(e, MatchOver)]
    return list(m.ranking[9:])


def test_13_with_r_12_both_go() -> None:
    d = _dali(12, 9, levels=[10], out_factor=5, level_step={"deals": 1000})
    st = new_match(d, match_id="ex13b", seed=13, now=0, start_at=100)
    for p in ["X1", "B", "A"] + [f"Y{k}" for k in range(9)]:
        st, _ = register(st, p, [p], now=0)
    st, ev = tick(st, now=100)
    st, ev = report(st, "1.d1", 1, [1245, -55, -70], now=160)
    (out,) = [e for e in ev if isinstance(e, Eliminated)]
    assert out.entrants == ("B", "A")  # B ranked above A in the event


def test_14_queue_forming() -> None:
    assert form_tables(["A1", "A2", "A3"], ["a", "a", "a"], 3, True) == ([], ["A1", "A2", "A3"])
    q = ["A1", "A2", "A3", "B1", "B2", "B3", "C1"]
    assert form_tables(q, ["a", "a", "a", "b", "b", "b", "c"], 3, True) == (
        [["A1", "B1", "C1"], ["A2", "B2", "A3"]], ["B3"])
    # once no table is in play any three may sit
    assert form_tables(["A1", "A2", "A3"], ["a", "a", "a"], 3, False) == ([["A1", "A2", "A3"]], [])


def test_15_levels() -> None:
    levels = [10, 20, 30, 50, 80, 120, 200, 300]
    k = level_index(120, None, elapsed_s=0, settled=0)
    assert (level_base(levels, k), line(3, level_base(levels, k))) == (10, 30)
    k = level_index(120, None, elapsed_s=4 * 60 + 59, settled=0)
    assert (k, level_base(levels, k), line(3, level_base(levels, k))) == (2, 30, 90)
    assert level_index(120, None, elapsed_s=16 * 60, settled=0) == 8  # k ≥ 8: forced finish
    k = level_index(None, 9, elapsed_s=0, settled=40)
    assert (k, level_base(levels, k), line(3, level_base(levels, k))) == (4, 80, 240)


def test_15_levels_through_the_machine() -> None:
    d = _dali(9, 3)  # default levels, {seconds: 120}, out_factor 3
    d["stages"][0]["start_stack"] = 1000  # type: ignore[index]
    st = new_match(d, match_id="ex15", seed=15, now=0, start_at=100)
    for k in range(9):
        st, _ = register(st, f"P{k}", [f"P{k}"], now=0)
    st, ev = tick(st, now=100)
    assert {(e.table.base, e.table.line) for e in ev if isinstance(e, TableFormed)} == {(10, 30)}
    assert next_wakeup(st) == 100 + 120  # the host ticks when the level goes up
    st, ev = tick(st, now=100 + 4 * 60 + 59)  # a late tick announces the level in effect now
    assert [(e.level, e.base, e.line) for e in ev if isinstance(e, LevelChanged)] == [(2, 30, 90)]
    st, ev = report(st, "1.d1", 1, [0, 0, 0], now=100 + 4 * 60 + 59)
    assert not [e for e in ev if isinstance(e, TableFormed)]  # the same three while another table plays
    st, ev = report(st, "1.d2", 1, [0, 0, 0], now=100 + 4 * 60 + 59)
    formed = [e.table for e in ev if isinstance(e, TableFormed)]
    assert [(t.base, t.line) for t in formed] == [(30, 90), (30, 90)]
    st, ev = tick(st, now=100 + 16 * 60)
    assert [e for e in ev if isinstance(e, ForcedFinish)]
    for key in list(st.tables):
        st, ev = report(st, key, 1, [0, 0, 0], now=100 + 16 * 60 + 30)
    (over,) = [e for e in ev if isinstance(e, StageOver)]
    assert len(over.standings) == 3  # forced finish: the top N advance
    assert [e.kind for e in ev if isinstance(e, Eliminated)] == ["forced"]


# ------------------------------------------------------------------------------------------- 16–17 prizes

def test_16_prize_split() -> None:
    pool = parse_prizes({"kind": "pool", "brackets": "standard", "rake_pct": 10})
    assert prize_amounts(pool, fee=100, paying=9, humans=9) == [405, 243, 162]
    assert prize_amounts(pool, fee=50, paying=23, humans=23) == [416, 258, 155, 103, 103]


def test_16_prize_split_through_the_machine() -> None:
    chk = Checker({"preset": "sit_and_go_9"})
    res = simulate({"preset": "sit_and_go_9"}, 9, RandomPlayer(16), seed=16, observer=chk.observe)
    assert chk.finish(res.state) == []
    (fixed,) = [e for e in res.events if isinstance(e, PrizesFixed)]
    assert fixed.amounts == (405, 243, 162) and fixed.paying == 9
    paid = [(e.player, e.amount) for e in res.events if isinstance(e, PrizePaid)]
    assert paid == list(zip(res.ranking[:3], [405, 243, 162], strict=True))


def test_17_bots_skip_prizes() -> None:
    assert award([("H3", False), ("Bot1", True), ("H1", False), ("H2", False)], [378, 252]) == [
        ("H3", 1, 378), ("H1", 3, 252)]


def test_17_fill_after_through_the_machine() -> None:
    d = {"preset": "sit_and_go_9", "entry": {"bots": "fill_after"}}
    st = new_match(d, match_id="ex17", seed=17, now=0)
    for k in range(1, 8):
        st, _ = register(st, f"H{k}", [f"H{k}"], now=k)
    st, ev = tick(st, now=100)
    assert not ev  # 120 s after the first registration, not before
    st, ev = tick(st, now=1 + 120)
    bots = [e for e in ev if type(e).__name__ == "Registered" and e.bot]  # type: ignore[attr-defined]
    assert len(bots) == 2 and st.phase == "starting"
    st, ev = tick(st, now=1 + 120 + 10)  # start_delay_s
    (fixed,) = [e for e in ev if isinstance(e, PrizesFixed)]
    assert fixed.amounts == (378, 252) and fixed.paying == 7 and fixed.humans == 7


# ------------------------------------------------------------------------------------------- 18 fitting

def _fit(mode: str) -> tuple[object, list[object]]:
    d = {"game": "ddz3", "entry": {"start": "at_time", "reg_opens_s": 60, "fee": 10},
         "stages": [{"format": "fixed", "odd_field": mode, "rounds": [{"deals": 1}]}]}
    st = new_match(d, match_id="ex18", seed=18, now=0, start_at=60)
    for k in range(1, 15):
        st, _ = register(st, f"R{k}", [f"R{k}"], now=0)
    return tick(st, now=60)


def test_18_field_fitting_bots() -> None:
    st, ev = _fit("bots")
    (bots,) = [e for e in ev if isinstance(e, BotsAdded)]
    assert len(bots.entrants) == 1 and st.entrants[bots.entrants[0]].reg == 15  # type: ignore[attr-defined]
    assert len([e for e in ev if isinstance(e, TableFormed)]) == 5


def test_18_field_fitting_cut() -> None:
    _, ev = _fit("cut")
    assert [e.entrant for e in ev if isinstance(e, Removed)] == ["R13", "R14"]
    assert sorted((e.player, e.amount) for e in ev if isinstance(e, Refund)) == [("R13", 10), ("R14", 10)]
    assert len([e for e in ev if isinstance(e, TableFormed)]) == 4


# ------------------------------------------------------------------------------------------- 19 final ranking

def test_19_final_ranking() -> None:
    dali_events = [["E1"], ["E2", "E3"]] + [[f"E{k}"] for k in range(4, 31)] + [["E31"]]
    events = [*dali_events, [f"F{k}" for k in range(4, 10)]]
    places = final_places(["W1", "W2", "W3"], events)
    assert len(places) == 40
    assert places[:9] == ["W1", "W2", "W3", "F4", "F5", "F6", "F7", "F8", "F9"]
    assert places[9] == "E31"
    assert places[-3:] == ["E2", "E3", "E1"]  # E2 38, E3 39, E1 40


def test_19_final_ranking_through_the_machine() -> None:
    chk = Checker({"preset": "hourly"})
    res = simulate({"preset": "hourly"}, 40, RandomPlayer(19), seed=19, observer=chk.observe)
    assert chk.finish(res.state) == []
    ev = [e for e in res.events if isinstance(e, Eliminated)]
    want = [x for x in res.state.stage_results[-1].ids]
    for e in reversed(ev):
        want.extend(e.entrants)
    assert res.ranking == want and len(res.ranking) == 40
    assert ev[-1].kind == "cut" and len(ev[-1].entrants) == 6  # the final stage's cut: places 4..9


# ------------------------------------------------------------------------------------------- 20 minimisation

def _ddz():  # type: ignore[no-untyped-def]
    from qipai.games.doudizhu.rules import PRESETS
    from qipai.games.doudizhu.state import Game

    return PRESETS, Game


def cards(text: str) -> list[str]:
    return text.split()


ALL = cards("3S 3H 3C 3D 4S 4H 4C 4D 5S 5H 5C 5D 6S 6H 6C 6D 7S 7H 7C 7D 8S 8H 8C 8D 9S 9H 9C 9D TS TH TC TD "
            "JS JH JC JD QS QH QC QD KS KH KC KD AS AH AC AD 2S 2H 2C 2D B R")


def test_20_minimisation_landlord_wins_and_the_line() -> None:
    presets, game = _ddz()
    rules = presets["jj_match"].replace(stake=20)
    lord = cards("3S 2S 7S 7H 7C 7D 8S 9S TS JS QS KS AS 5S 5H 5C 6S 6H 4S 4H")
    rest = [c for c in ALL if c not in lord]
    f1 = ["4C", *[c for c in rest if c != "4C"][:16]]
    f2 = [c for c in rest if c not in f1]
    g = game.from_deal(rules, [" ".join(lord[:17]), " ".join(f1), " ".join(f2)], " ".join(lord[17:]),
                       first_bidder=0, table_points=[1000, 80, 500])
    for a in ["bid 3", "play 3", "play 4", "pass", "play 2", "pass", "pass", "play 7777", "pass", "pass",
              "play 89TJQKA", "pass", "pass", "play 55566", "pass", "pass", "play 44"]:
        g.apply(a)
    assert [str(f) for f in g.result.factors] == ["bombs ×2"]  # one bomb: ×(1 + 1)
    assert g.result.scores == [200, -80, -120]  # F1 pays min(120, 1000, 80) = 80, F2 pays 120
    after = [1000 + 200, 80 - 80, 500 - 120]
    assert after == [1200, 0, 380]
    below = rank([RankRow("F1", after[1], 2)], ["last_deal"])
    assert [r.id for r in below if r.points < line(3, 20)] == ["F1"]  # under a 打立 line of 60


def test_20_minimisation_farmers_win_with_f2_in_autoplay() -> None:
    presets, game = _ddz()
    rules = presets["jj_match"].replace(stake=20)
    f1 = cards("7S 8S 8H 8C 8D 9S TS JS QS KS AS 4S 4H 4C 5S 5H 6S")
    lord = ["3S", "2S", "3H", *[c for c in ALL if c not in f1 and c not in ("3S", "2S", "3H")][:17]]
    f2 = [c for c in ALL if c not in f1 and c not in lord]
    g = game.from_deal(rules, [" ".join(lord[:17]), " ".join(f1), " ".join(f2)], " ".join(lord[17:]),
                       first_bidder=0, table_points=[1000, 80, 500])
    g.apply("bid 3")
    g.set_autoplay(2, True)
    for a in ["play 3", "play 7", "pass", "play 2", "pass", "pass", "play 3", "play 8888", "pass", "pass",
              "play 9TJQKA", "pass", "pass", "play 44455", "pass", "pass", "play 6"]:
        g.apply(a)
    assert g.result.winner == "farmers"
    assert g.result.scores == [-80, 80, 0]  # the whole gain goes to F1, capped by F1's 80 points


@pytest.mark.parametrize("name", ["sit_and_go_9", "hourly", "swiss_27", "shengji_teams_swiss", "mahjong_swiss_16"])
def test_presets_play_through_with_the_checker(name: str) -> None:
    n = {"sit_and_go_9": 9, "hourly": 60, "swiss_27": 27, "shengji_teams_swiss": 9, "mahjong_swiss_16": 16}[name]
    chk = Checker({"preset": name})
    res = simulate({"preset": name}, n, RandomPlayer(3, early_end=0.2), seed=3, observer=chk.observe)
    assert chk.finish(res.state) == [] and res.state.phase == "finished"
    assert sorted(res.ranking) == sorted(res.state.entrants)
    assert any(isinstance(e, DealStart) for e in res.events)
