"""The state machine's flows: entry and withdrawal, refunds, cancellation, quitting, late registration,
overlapping matches, forfeits, bad input, persistence and restore mid-round, determinism."""

from __future__ import annotations

import json
from typing import Any

import pytest

from qipai.tournaments import (
    DealCounted,
    DealStart,
    Eliminated,
    EntryError,
    FeeCharged,
    MatchCancelled,
    MatchOver,
    MatchState,
    PrizePaid,
    PrizesFixed,
    QuitRequested,
    Refund,
    Removed,
    ReportError,
    StageOver,
    StateError,
    TableDone,
    TableFormed,
    assignment,
    cancel,
    event_data,
    event_from_data,
    in_play,
    new_match,
    next_wakeup,
    register,
    report,
    simulate,
    standings,
    start,
    state_from_json,
    state_to_json,
    tick,
    withdraw,
)
from qipai.tournaments.check import Checker
from qipai.tournaments.events import Event
from qipai.tournaments.simulate import Command, EntrantSpec, RandomPlayer, make_entrants


def snap(st: MatchState) -> str:
    return json.dumps(state_to_json(st), sort_keys=True)


def sng(n: int = 6, **entry: Any) -> dict[str, Any]:
    return {"game": "ddz3", "entry": {"start": "when_full", "max_entrants": n, "fee": 10, "start_delay_s": 0,
                                      **entry},
            "stages": [{"format": "fixed", "rounds": [{"deals": 2, "advance": 3}, {"deals": 1}]}]}


def timed(**entry: Any) -> dict[str, Any]:
    return {"game": "ddz3", "entry": {"start": "at_time", "reg_opens_s": 100, "fee": 10, "min_entrants": 6, **entry},
            "stages": [{"format": "fixed", "rounds": [{"deals": 2, "advance": 3}, {"deals": 1}]}]}


def of(events: list[Event], cls: type) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def full_sng(n: int = 6) -> tuple[MatchState, list[Event]]:
    st = new_match(sng(n), match_id="m", seed=1, now=0)
    for k in range(1, n + 1):
        st, _ = register(st, f"p{k}", [f"p{k}"], now=0)
    return tick(st, now=0)


# ------------------------------------------------------------------------------------------- entry

def test_register_charges_the_fee_and_errors_change_nothing() -> None:
    st = new_match(sng(), match_id="m", seed=1, now=0)
    st, ev = register(st, "a", ["a"], now=0)
    assert [(e.player, e.amount) for e in of(ev, FeeCharged)] == [("a", 10)]
    before = snap(st)
    for bad, msg in [
        (lambda: register(st, "a", ["z"], now=0), "already registered"),
        (lambda: register(st, "b", ["a"], now=0), "player 'a' is already registered"),
        (lambda: register(st, "b", ["b", "c"], now=0), "1 player"),
        (lambda: register(st, "b", ["b"], now=0, balances={"b": 9}), "needs at least 10"),
        (lambda: register(st, "", ["b"], now=0), "non-empty id"),
    ]:
        with pytest.raises(EntryError, match=msg):
            bad()
        assert snap(st) == before


def test_min_balance_is_checked() -> None:
    st = new_match(sng(min_balance=500), match_id="m", seed=1, now=0)
    with pytest.raises(EntryError, match="needs at least 500 points"):
        register(st, "a", ["a"], now=0, balances={"a": 499})
    st, _ = register(st, "a", ["a"], now=0, balances={"a": 500})
    assert st.entrants["a"].reg == 1


def test_at_time_registration_opens_and_closes_on_time() -> None:
    st = new_match(timed(max_entrants=7), match_id="m", seed=1, now=0, start_at=1000)
    with pytest.raises(EntryError, match="registration opens at 900"):
        register(st, "a", ["a"], now=899)
    for k in range(7):
        st, _ = register(st, f"p{k}", [f"p{k}"], now=900)
    with pytest.raises(EntryError, match="full"):
        register(st, "x", ["x"], now=901)
    assert next_wakeup(st) == 1000
    st, _ = tick(st, now=1000)
    assert st.phase == "running"
    with pytest.raises(EntryError, match="closed"):
        register(st, "x", ["x"], now=1001)


def test_withdraw_before_start_refunds_and_the_number_is_not_reused() -> None:
    st = new_match(timed(), match_id="m", seed=1, now=0, start_at=1000)
    st, _ = register(st, "a", ["a"], now=900)
    st, ev = withdraw(st, "a", now=901)
    assert [e.entrant for e in of(ev, Removed)] == ["a"]
    assert [(e.player, e.amount) for e in of(ev, Refund)] == [("a", 10)]
    assert withdraw(st, "a", now=902)[1] == []  # twice: nothing
    st, _ = register(st, "a", ["a"], now=903)
    assert st.entrants["a"].reg == 2
    keys = {e.key for e in of(ev, Refund)}
    st, ev2 = withdraw(st, "a", now=904)
    assert not keys & {e.key for e in of(ev2, Refund)}  # a new registration has its own money keys


def test_when_full_cannot_be_left_once_full() -> None:
    st = new_match(sng(start_delay_s=10), match_id="m", seed=1, now=0)
    for k in range(6):
        st, _ = register(st, f"p{k}", [f"p{k}"], now=0)
    assert st.phase == "starting" and next_wakeup(st) == 10
    with pytest.raises(EntryError, match="cannot be left once full"):
        withdraw(st, "p0", now=5)


def test_at_time_below_min_entrants_is_cancelled_with_refunds() -> None:
    st = new_match(timed(), match_id="m", seed=1, now=0, start_at=1000)
    for k in range(5):
        st, _ = register(st, f"p{k}", [f"p{k}"], now=900)
    st, ev = tick(st, now=1000)
    assert st.phase == "cancelled"
    assert of(ev, MatchCancelled)[0].reason.startswith("too few entrants")
    assert sorted(e.player for e in of(ev, Refund)) == [f"p{k}" for k in range(5)]


def test_operator_start_ignores_min_entrants() -> None:
    st = new_match(timed(), match_id="m", seed=1, now=0, start_at=1000)
    for k in range(3):
        st, _ = register(st, f"p{k}", [f"p{k}"], now=900)
    st, ev = start(st, now=950)
    assert st.phase == "running" and len(of(ev, TableFormed)) == 1


def test_active_in_another_match_is_removed_with_refund() -> None:
    st = new_match(timed(), match_id="m", seed=1, now=0, start_at=1000)
    for k in range(7):
        st, _ = register(st, f"p{k}", [f"p{k}"], now=900)
    st, ev = tick(st, now=1000, busy=["p3"])
    assert [e.entrant for e in of(ev, Removed)] == ["p3"]
    assert [e.player for e in of(ev, Refund)] == ["p3"]
    assert all("p3" not in t.table.entrants for t in of(ev, TableFormed))
    assert len(of(ev, TableFormed)) == 2  # six left: two tables, no fitting


def test_team_registration_and_fees() -> None:
    d = {"game": "shengji", "entry": {"start": "when_full", "max_entrants": 2, "fee": 20, "start_delay_s": 0,
                                      "prizes": {"kind": "fixed", "amounts": [101]}},
         "stages": [{"format": "swiss", "rounds": 1, "deals": 1}]}
    st = new_match(d, match_id="m", seed=1, now=0)
    st, ev = register(st, "t1", ["a", "b"], now=0)
    assert [(e.player, e.amount) for e in of(ev, FeeCharged)] == [("a", 20), ("b", 20)]
    st, _ = register(st, "t2", ["c", "d"], now=0)
    st, ev = tick(st, now=0)
    (t,) = of(ev, TableFormed)
    assert t.table.seats == ("a", "c", "b", "d")
    with pytest.raises(ReportError, match="partners score alike"):
        report(st, t.table.key, 1, [3, -3, 2, -3], now=10)
    st, ev = report(st, t.table.key, 1, [3, -3, 3, -3], now=10)
    assert [(e.player, e.amount) for e in of(ev, PrizePaid)] == [("a", 51), ("b", 50)]  # captain ⌈a/2⌉


# ------------------------------------------------------------------------------------------- reports

def test_bad_reports_are_refused_and_change_nothing() -> None:
    st, ev = full_sng()
    key = of(ev, TableFormed)[0].table.key
    before = snap(st)
    for args, msg in [
        (("9.9.9", 1, [0, 0, 0]), "unknown table"),
        ((key, 2, [0, 0, 0]), "playing deal 1"),
        ((key, 1, [0, 0]), "3 whole-number scores"),
        ((key, 1, [0, 0, 1.5]), "3 whole-number scores"),
    ]:
        with pytest.raises(ReportError, match=msg):
            report(st, *args, now=5)  # type: ignore[arg-type]
        assert snap(st) == before
    with pytest.raises(ReportError, match="absent seats"):
        report(st, key, 1, [0, 0, 0], now=5, absent=[3])


def test_duplicate_reports_are_ignored_even_after_the_table_closed() -> None:
    st, ev = full_sng()
    key = of(ev, TableFormed)[0].table.key
    st, ev1 = report(st, key, 1, [30, -10, -20], now=5)
    assert of(ev1, DealStart)[0].deal == 2
    assert report(st, key, 1, [30, -10, -20], now=6)[1] == []
    st, ev2 = report(st, key, 2, [30, -10, -20], now=7)
    assert of(ev2, TableDone)
    assert report(st, key, 2, [30, -10, -20], now=8)[1] == []
    assert report(st, key, 1, [30, -10, -20], now=8)[1] == []


def test_transitions_are_pure() -> None:
    st, ev = full_sng()
    key = of(ev, TableFormed)[0].table.key
    before = snap(st)
    st2, _ = report(st, key, 1, [30, -10, -20], now=5)
    assert snap(st) == before and snap(st2) != before


def test_restore_mid_round_continues_exactly() -> None:
    st, ev = full_sng()
    keys = [e.table.key for e in of(ev, TableFormed)]
    st, _ = report(st, keys[0], 1, [30, -10, -20], now=5)
    saved = json.dumps(state_to_json(st))
    restored = state_from_json(json.loads(saved))
    assert snap(restored) == snap(st)
    assert [(a.key, n) for a, n in in_play(restored)] == [(keys[0], 2), (keys[1], 1)]
    assert assignment(restored, keys[0]).points == (1030, 990, 980)
    assert report(restored, keys[0], 1, [30, -10, -20], now=6)[1] == []  # counted before the restart
    a = report(st, keys[0], 2, [0, 10, -10], now=9)
    b = report(restored, keys[0], 2, [0, 10, -10], now=9)
    assert [event_data(e) for e in a[1]] == [event_data(e) for e in b[1]]


def test_events_round_trip_through_json() -> None:
    res = simulate({"preset": "hourly"}, 20, RandomPlayer(2), seed=2)
    for e in res.events:
        data = json.loads(json.dumps(event_data(e)))
        assert event_from_data(data) == e


def test_ended_game_closes_a_team_table_early() -> None:
    d = {"game": "shengji", "entry": {"start": "when_full", "max_entrants": 4, "start_delay_s": 0},
         "stages": [{"format": "swiss", "rounds": 2, "deals": 4}]}
    st = new_match(d, match_id="m", seed=1, now=0)
    for k in range(4):
        st, _ = register(st, f"t{k}", [f"t{k}a", f"t{k}b"], now=0)
    st, ev = tick(st, now=0)
    key = of(ev, TableFormed)[0].table.key
    st, ev = report(st, key, 1, [2, -2, 2, -2], now=10, ended=True)
    assert of(ev, TableDone)[0].played == 1


# ------------------------------------------------------------------------------------------- quitting

def test_quit_mid_round_plays_on_and_leaves_at_the_round_end() -> None:
    st, ev = full_sng()
    tables = [e.table for e in of(ev, TableFormed)]
    quitter = tables[0].entrants[0]
    st, ev = withdraw(st, quitter, now=5)
    assert of(ev, QuitRequested)[0].effective == "round_end"
    assert st.entrants[quitter].status == "in"
    with pytest.raises(EntryError):
        register(st, "new", ["new"], now=5)
    gains = {tables[0].key: [[200, -100, -100]] * 2, tables[1].key: [[0, 0, 0]] * 2}
    for n in (1, 2):
        for k, g in gains.items():
            st, ev = report(st, k, n, g[n - 1], now=10 * n)
    cut, gone = of(ev, Eliminated)
    assert cut.kind == "cut" and quitter not in cut.entrants  # it was in the top 3: the cut keeps it
    assert gone.kind == "withdrawal" and gone.entrants == (quitter,)
    st, ev = tick(st, now=100)
    (final,) = of(ev, TableFormed)
    assert quitter not in final.table.entrants  # two left: a bot fills the final table
    assert len(final.table.entrants) == 3
    st, ev = report(st, final.table.key, 1, [0, 0, 0], now=200)
    ranking = of(ev, MatchOver)[0].ranking
    assert ranking.index(quitter) == 3  # after the final table, before the cut ones (a later event)


def test_quit_in_the_dali_queue_is_immediate_at_a_table_after_the_deal() -> None:
    d = {"game": "ddz3", "entry": {"start": "at_time", "reg_opens_s": 10, "min_entrants": 3},
         "stages": [{"format": "dali", "advance": 3, "level_step": {"deals": 100}}]}
    st = new_match(d, match_id="m", seed=1, now=0, start_at=10)
    for k in range(7):
        st, _ = register(st, f"p{k}", [f"p{k}"], now=0)
    st, ev = tick(st, now=10)
    assert st.stage is not None and st.stage.queue == ["p6"]
    st, ev = withdraw(st, "p6", now=11)
    assert of(ev, QuitRequested)[0].effective == "now" and of(ev, Eliminated)[0].entrants == ("p6",)
    st, ev = withdraw(st, "p0", now=12)
    assert of(ev, QuitRequested)[0].effective == "after_deal" and not of(ev, Eliminated)
    st, ev = report(st, "1.d1", 1, [10, -5, -5], now=20)
    assert [(e.kind, e.entrants) for e in of(ev, Eliminated)] == [("withdrawal", ("p0",))]
    assert of(ev, TableDone)


def test_forfeit_absent_withdraws_at_the_round_end() -> None:
    d = sng()
    d["forfeit_absent"] = True
    st = new_match(d, match_id="m", seed=1, now=0)
    for k in range(6):
        st, _ = register(st, f"p{k}", [f"p{k}"], now=0)
    st, ev = tick(st, now=0)
    t1, t2 = (e.table for e in of(ev, TableFormed))
    for n in (1, 2):  # t1's seat 2 never acts (auto-play wins for it); t2's seat 2 misses one deal only
        st, ev = report(st, t1.key, n, [-50, -50, 100], now=10 * n, absent=[2])
        st, ev = report(st, t2.key, n, [0, -10, 10], now=10 * n, absent=[2] if n == 1 else [])
    cut, withdrawn = of(ev, Eliminated)
    assert cut.kind == "cut" and t1.entrants[2] not in cut.entrants  # top of the standings: kept by the cut
    assert withdrawn.kind == "withdrawal" and withdrawn.entrants == (t1.entrants[2],)
    assert st.entrants[t2.entrants[2]].status == "in"


# ------------------------------------------------------------------------------------------- 打立 late entry

def test_late_registration_joins_the_queue_until_the_level() -> None:
    d = {"game": "ddz3", "entry": {"start": "at_time", "reg_opens_s": 10, "min_entrants": 3, "late_reg": 1,
                                   "fee": 5, "prizes": {"kind": "pool", "rake_pct": 0}},
         "stages": [{"format": "dali", "advance": 3, "level_step": {"seconds": 100}}]}
    st = new_match(d, match_id="m", seed=1, now=0, start_at=10)
    for k in range(6):
        st, _ = register(st, f"p{k}", [f"p{k}"], now=0)
    st, ev = tick(st, now=10)
    assert st.reg_open and not of(ev, PrizesFixed)
    st, ev = register(st, "late1", ["late1"], now=50)
    assert st.stage is not None and st.stage.queue == ["late1"] and st.entrants["late1"].points == 1000
    st, ev = register(st, "late2", ["late2"], now=60)
    st, ev = register(st, "late3", ["late3"], now=70)
    (t,) = of(ev, TableFormed)
    assert t.table.entrants == ("late1", "late2", "late3")
    st, ev = tick(st, now=110)
    (fixed,) = of(ev, PrizesFixed)
    assert fixed.paying == 9 and fixed.amounts == (23, 13, 9)  # pool 45, bracket 9: 50 30 20 (+1 to place 1)
    with pytest.raises(EntryError, match="closed"):
        register(st, "late4", ["late4"], now=111)


# ------------------------------------------------------------------------------------------- cancellation

def test_cancel_mid_match_refunds_everyone_and_pays_nothing() -> None:
    st, ev = full_sng()
    tables = [e.table for e in of(ev, TableFormed)]
    for n in (1, 2):
        for t in tables:
            st, ev = report(st, t.key, n, [50, -20, -30], now=10 * n)
    assert of(ev, Eliminated)
    st, ev = cancel(st, now=100)
    assert sorted(e.player for e in of(ev, Refund)) == [f"p{k}" for k in range(1, 7)]
    assert of(ev, MatchCancelled) and not of(ev, PrizePaid)
    assert cancel(st, now=101)[1] == []


def test_a_finished_match_cannot_be_cancelled() -> None:
    res = simulate(sng(), 6, RandomPlayer(1), seed=1)
    assert res.state.phase == "finished"
    with pytest.raises(StateError, match="can no longer be cancelled"):
        cancel(res.state, now=0)


# ------------------------------------------------------------------------------------------- simulator

def test_simulation_is_deterministic_and_seed_dependent() -> None:
    d: dict[str, Any] = {"preset": "swiss_27"}
    a = simulate(d, 27, RandomPlayer(5), seed=5)
    b = simulate(d, 27, RandomPlayer(5), seed=5)
    assert [event_data(e) for e in a.events] == [event_data(e) for e in b.events]
    c = simulate(d, 27, RandomPlayer(5), seed=6)
    seeds_a = [e.seed for e in a.events if isinstance(e, DealStart)]
    seeds_c = [e.seed for e in c.events if isinstance(e, DealStart)]
    assert seeds_a != seeds_c


def test_simulated_restarts_change_nothing() -> None:
    d: dict[str, Any] = {"preset": "hourly"}
    a = simulate(d, 40, RandomPlayer(7), seed=7)
    b = simulate(d, 40, RandomPlayer(7), seed=7, restart_every=3)
    assert a.ranking == b.ranking and a.prizes == b.prizes and a.deals == b.deals


def test_scripted_withdrawals_and_late_registrations_pass_the_checker() -> None:
    d = {"preset": "hourly", "entry": {"start_at": 1_700_000_000 + 1800}}
    script = [Command(1_700_000_000 + 1800 + 30, "register", EntrantSpec("late", ("late",))),
              Command(1_700_000_000 + 1800 + 40, "withdraw", entrant_id="p3"),
              Command(1_700_000_000 + 100, "withdraw", entrant_id="p4")]
    chk = Checker(d)
    res = simulate(d, make_entrants(30), RandomPlayer(3), seed=3, script=script, observer=chk.observe)
    assert chk.finish(res.state) == []
    assert "late" in res.ranking and "p3" in res.ranking and "p4" not in res.ranking
    assert st_status(res.state, "p3") == "withdrawn" and st_status(res.state, "p4") == "removed"


def st_status(st: MatchState, eid: str) -> str:
    return st.entrants[eid].status


def test_standings_rows() -> None:
    st, ev = full_sng()
    rows = standings(st)
    assert [r.place for r in rows] == [1, 2, 3, 4, 5, 6]
    assert all(r.where == "table" and r.table is not None for r in rows)
    key = of(ev, TableFormed)[0].table.key
    st, ev = report(st, key, 1, [30, -10, -20], now=5)
    assert standings(st)[0].points == 1030 and of(ev, DealCounted)[0].seq == 1
    assert not of(ev, StageOver)


# ------------------------------------------------------------------------------------------- 打立 details

def dali_match(n: int, **stage: Any) -> MatchState:
    d = {"game": "ddz3", "entry": {"start": "at_time", "reg_opens_s": 10, "min_entrants": 3},
         "stages": [{"format": "dali", "start_stack": 100, "levels": [10], "out_factor": 5,
                     "level_step": {"deals": 1000}, **stage}]}
    st = new_match(d, match_id="m", seed=1, now=0, start_at=10)
    for k in range(n):
        st, _ = register(st, f"p{k}", [f"p{k}"], now=0)
    return st


def test_ass_table_plays_on_until_someone_falls_below_the_line() -> None:
    st = dali_match(6, advance=3, ass_deals=3)
    st, ev = tick(st, now=10)
    assert [e.table.deals for e in of(ev, TableFormed)] == [3, 3]
    st, ev = report(st, "1.d1", 1, [20, -20, 0], now=20)  # 120, 80, 100: all above 50
    assert [e.deal for e in of(ev, DealStart)] == [2] and not of(ev, Eliminated)
    st, ev = report(st, "1.d1", 2, [40, -40, 0], now=30)  # p1 at 40 < 50: out, the table stops
    assert [e.entrants for e in of(ev, Eliminated)] == [("p1",)]
    assert of(ev, TableDone)[0].played == 2 and not of(ev, DealStart)
    assert st.stage is not None and st.stage.queue == ["p0", "p2"]  # survivors, best first


def test_a_dali_stage_that_starts_at_or_below_advance_is_skipped() -> None:
    st = dali_match(3, advance=3)
    st, ev = tick(st, now=10)
    assert not of(ev, TableFormed)
    assert of(ev, StageOver)[0].standings == ("p0", "p1", "p2") and st.phase == "finished"


def test_pipeline_with_reset_and_previous_stage_rank() -> None:
    d = {"game": "ddz3", "entry": {"start": "when_full", "max_entrants": 6, "start_delay_s": 0},
         "round_gap_s": 0, "stage_gap_s": 5,
         "stages": [{"format": "fixed", "seating": "by_score", "rounds": [{"deals": 1}], "advance": 3},
                    {"format": "swiss", "rounds": 1, "deals": 1, "carry": "reset", "start_stack": 500,
                     "tiebreaks": ["prev_stage_rank"]}]}
    chk = Checker(d)
    st = new_match(d, match_id="m", seed=1, now=0)
    for k in range(6):
        st, ev = register(st, f"p{k}", [f"p{k}"], now=0)
        chk.observe(st, "register", ev)
    st, ev = tick(st, now=0)
    chk.observe(st, "tick", ev)
    for t in of(ev, TableFormed):
        st, ev2 = report(st, t.table.key, 1, [-10, 30, -20], now=10)  # the second seat of each table wins
        chk.observe(st, "report", ev2)
    assert of(ev2, StageOver)[0].advancing == ("p1", "p4", "p0")
    assert next_wakeup(st) == 15
    st, ev = tick(st, now=15)
    chk.observe(st, "tick", ev)
    (t,) = of(ev, TableFormed)
    assert t.table.points == (500, 500, 500)  # reset: all equal, the previous stage's places decide
    assert t.table.entrants == ("p1", "p4", "p0")
    st, ev = report(st, t.table.key, 1, [0, 0, 0], now=30)
    chk.observe(st, "report", ev)
    assert of(ev, MatchOver)[0].ranking[:3] == ("p1", "p4", "p0")
    assert chk.finish(st) == []


def test_a_journal_of_commands_replays_to_the_same_state() -> None:
    """The host journals each command before applying it; replaying the journal from a snapshot (here: from
    the start, and again from a mid-match snapshot with one command repeated) rebuilds the same state."""
    from qipai.tournaments import apply

    d = {"preset": "sit_and_go_9", "entry": {"start_delay_s": 0}}
    journal: list[dict[str, Any]] = []

    def do(st: MatchState, cmd: dict[str, Any]) -> tuple[MatchState, list[Event]]:
        journal.append(cmd)
        return apply(st, cmd)

    st = new_match(d, match_id="j", seed=3, now=0)
    for k in range(9):
        st, ev = do(st, {"op": "register", "entrant": f"p{k}", "players": [f"p{k}"], "now": 0})
    st, ev = do(st, {"op": "tick", "now": 0})
    player = RandomPlayer(3)
    now = 0
    snapshot: tuple[int, str] | None = None
    while st.phase == "running":
        tables = [e.table for e in ev if isinstance(e, TableFormed)]
        results = {t.key: player(t) for t in tables}
        ev = []
        for n in range(max(t.deals for t in tables)):
            for t in tables:
                now += 60
                st, e = do(st, {"op": "report", "table": t.key, "deal": n + 1, "scores": results[t.key][n],
                                "now": now})
                ev.extend(e)
                if snapshot is None:
                    snapshot = (len(journal), json.dumps(state_to_json(st)))
        now += 60
        st, e = do(st, {"op": "tick", "now": now})
        ev.extend(e)
    assert st.phase == "finished"
    again = new_match(d, match_id="j", seed=3, now=0)
    for cmd in journal:
        again, _ = apply(again, cmd)
    assert snap(again) == snap(st)
    assert snapshot is not None
    at, text = snapshot
    restored = state_from_json(json.loads(text))
    for cmd in journal[at - 1:]:  # the last command before the snapshot is replayed too: it changes nothing
        restored, _ = apply(restored, cmd)
    assert snap(restored) == snap(st)
