"""Definitions, presets, prize tables, schedules and series: defaults, every configuration error, round trips."""

from __future__ import annotations

from typing import Any

import pytest

from qipai.tournaments import (
    PRESETS,
    ConfigError,
    apply,
    definition_data,
    new_match,
    next_occurrence,
    next_start,
    occurrence_definition,
    open_occurrences,
    parse_carry,
    parse_cron,
    parse_definition,
    parse_prizes,
    tick,
)
from qipai.tournaments.schedule import describe


def base(**over: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"game": "ddz3", "entry": {"start": "when_full", "max_entrants": 9},
                         "stages": [{"format": "fixed", "rounds": [{"deals": 3, "advance": 3}, {"deals": 3}]}]}
    d.update(over)
    return d


def test_defaults_follow_the_spec() -> None:
    d = parse_definition(base())
    st = d.stages[0]
    assert (d.s, st.start_stack, st.base, st.odd_field, st.seating, str(st.carry)) == (3, 1000, 10, "bots", "snake",
                                                                                       "keep")
    assert st.tiebreaks == ("last_deal", "registration")
    assert (d.entry.min_entrants, d.entry.reg_opens_s, d.entry.start_delay_s, d.entry.fee) == (6, 1800, 10, 0)
    assert (d.round_gap_s, d.stage_gap_s) == (15, 30)
    sw = parse_definition(base(stages=[{"format": "swiss", "rounds": 3, "deals": 2}])).stages[0]
    assert (sw.tiebreaks, sw.odd_field, sw.bye_points, sw.swap_window) == (("registration",), "sit_out", 0, 2)
    dl = parse_definition(base(entry={"start": "at_time"}, stages=[{"format": "dali", "advance": 9}])).stages[0]
    assert (dl.levels, dl.level_seconds, dl.out_factor, dl.ass_deals) == ((10, 20, 30, 50, 80, 120, 200, 300), 120,
                                                                          3, 1)
    sj = parse_definition({"game": "shengji", "entry": {"start": "when_full", "max_entrants": 4},
                           "stages": [{"format": "swiss", "rounds": 1, "deals": 1}]})
    assert (sj.s, sj.seats, sj.teams, sj.stages[0].start_stack, sj.stages[0].base) == (2, 4, True, 0, 1)
    assert sj.entry.min_entrants == 4


def test_every_preset_parses_and_round_trips() -> None:
    for name in PRESETS:
        d = parse_definition({"preset": name})
        assert parse_definition(definition_data(d)) == d
    assert parse_definition({"preset": "swiss_27"}).stages[0].rounds[0].deals == 3
    m = parse_definition({"preset": "mahjong_swiss_16"})
    assert (m.seats, m.s, m.entry.max_entrants, len(m.stages[0].rounds)) == (4, 4, 16, 4)


def test_preset_overrides_merge() -> None:
    d = parse_definition({"preset": "hourly", "entry": {"fee": 5}, "stages": [{"advance": 12}]})
    assert d.entry.fee == 5 and d.entry.late_reg == 2 and d.stages[0].advance == 12
    assert str(d.stages[1].carry) == "sqrt 10/1"
    with pytest.raises(ConfigError, match="unknown preset 'nope'"):
        parse_definition({"preset": "nope"})


@pytest.mark.parametrize(("over", "msg"), [
    ({"game": ""}, "must name the game"),
    ({"game": "poker"}, "has no profile: say its seats"),
    ({"game": "poker", "seats": 5}, "seats must be 3 or 4"),
    ({"game": "poker", "seats": 3, "teams": True}, "team entrants need 4 seats"),
    ({"game": "mahjong", "seats": 3}, "mahjong is played 4 to a table"),
    ({"game": "ddz3", "seats": 4}, "ddz3 is played 3 to a table"),
    ({"game": "mahjong", "teams": True}, "mahjong entrants are single players"),
    ({"game": "shengji", "teams": False}, "shengji entrants are teams of two"),
    ({"colour": "red"}, "unknown option"),
    ({"stages": []}, "non-empty list"),
    ({"entry": {"start": "soon"}}, "when_full or at_time"),
    ({"entry": {"start": "when_full"}}, "starts when this many have entered"),
    ({"entry": {"start": "when_full", "max_entrants": 10}}, "multiple of 3"),
    ({"entry": {"start": "at_time", "min_entrants": 9, "max_entrants": 6}}, "below entry.min_entrants"),
    ({"entry": {"start": "at_time", "late_reg": 1}}, "needs a dali first stage"),
    ({"entry": {"start": "at_time", "bots": "fill_after"}}, "fill_after is for when_full"),
    ({"entry": {"start": "when_full", "max_entrants": 9, "bots": "many"}}, "off or fill_after"),
    ({"entry": {"start": "when_full", "max_entrants": 9, "fee": -1}}, "at least 0"),
    ({"entry": {"start": "when_full", "max_entrants": 9, "schedule": "0 * * *"}}, "five fields"),
    ({"entry": {"start": "when_full", "max_entrants": 9, "schedule": "0 * * * *"}}, "for at_time matches"),
    ({"entry": {"start": "when_full", "max_entrants": 9, "prizes": {"kind": "pool", "brackets": [
        {"min_entrants": 3, "percents": [60, 30]}]}}}, "summing to 100"),
    ({"entry": {"start": "when_full", "max_entrants": 9, "prizes": {"kind": "fixed", "rake_pct": 5}}},
     "has no rake_pct"),
    ({"stages": [{"format": "knockout"}]}, "format must be one of"),
    ({"stages": [{"format": "fixed", "rounds": [{"deals": 3}], "advance": 3}]}, "last stage has no advance"),
    ({"stages": [{"format": "fixed", "rounds": [{"deals": 3, "advance": 3}]}]}, "last round has no advance"),
    ({"stages": [{"format": "fixed", "rounds": [{"deals": 3}, {"deals": 3}]}]}, "says how many stay"),
    ({"stages": [{"format": "fixed", "rounds": [{"deals": 3, "advance": 4}, {"deals": 3}]}]}, "multiple of"),
    ({"stages": [{"format": "fixed", "rounds": [{"deals": 0}]}]}, "at least 1"),
    ({"stages": [{"format": "fixed", "rounds": [{"deals": 1}], "seating": "spiral"}]}, "snake, by_score"),
    ({"stages": [{"format": "fixed", "rounds": [{"deals": 1}], "odd_field": "wait"}]}, "odd_field must be"),
    ({"stages": [{"format": "fixed", "rounds": [{"deals": 1}], "tiebreaks": ["luck"]}]}, "unknown tie-break"),
    ({"stages": [{"format": "fixed", "rounds": [{"deals": 1}], "levels": [10]}]}, "unknown option"),
    ({"stages": [{"format": "swiss", "rounds": 2, "deals": 1, "swiss_cut": {"after_round": 2, "keep": 3}}]},
     "before the last round"),
    ({"stages": [{"format": "swiss", "rounds": 3, "deals": 1, "swiss_cut": {"after_round": 1, "keep": 4}}]},
     "multiple of"),
    ({"stages": [{"format": "dali"}]}, "ends with exactly this many"),
    ({"stages": [{"format": "dali", "advance": 3, "odd_field": "bots"}]}, "needs no field fitting"),
    ({"stages": [{"format": "dali", "advance": 3, "level_step": {"minutes": 2}}]}, "seconds: t"),
    ({"stages": [{"format": "dali", "advance": 3, "levels": []}]}, "non-empty list of bases"),
    ({"stages": [{"format": "dali", "advance": 4}, {"format": "swiss", "rounds": 1, "deals": 1}]}, "multiple of"),
    ({"stages": [{"format": "swiss", "rounds": 1, "deals": 1}, {"format": "swiss", "rounds": 1, "deals": 1}]},
     "say how many go on"),
    ({"stages": [{"format": "swiss", "rounds": 1, "deals": 1, "carry": "sqrt 1/0"}]}, "positive whole numbers"),
    # bounds: a definition cannot ask for an endless match or numbers the store cannot hold
    ({"stages": [{"format": "fixed", "rounds": [{"deals": 10**9}]}]}, "deals must be at most 100"),
    ({"stages": [{"format": "fixed", "rounds": [{"deals": 1, "advance": 3}] * 100 + [{"deals": 1}]}]},
     "at most 100 rounds"),
    ({"stages": [{"format": "swiss", "rounds": 10**6, "deals": 1}]}, "rounds must be at most 100"),
    ({"stages": [{"format": "swiss", "rounds": 2, "deals": 101}]}, "deals must be at most 100"),
    ({"stages": [{"format": "dali", "advance": 3, "ass_deals": 10**4}]}, "ass_deals must be at most 100"),
    ({"stages": [{"format": "dali", "advance": 3, "levels": [10] * 101}]}, "at most 100 levels"),
    ({"stages": [{"format": "swiss", "rounds": 1, "deals": 1, "base": 10**10}]}, "base must be at most"),
    ({"entry": {"start": "when_full", "max_entrants": 9, "fee": 10**30}}, r"fee must be at most 10+, got 1000"),
    ({"entry": {"start": "when_full", "max_entrants": 9, "prizes": [10**20]}}, "at most 10"),
    ({"entry": {"start": "at_time", "max_entrants": 10**7}}, "max_entrants must be at most 100000"),
    ({"round_gap_s": 10**8}, "round_gap_s must be at most 86400"),
])
def test_configuration_errors(over: dict[str, Any], msg: str) -> None:
    d = base()
    for k, v in over.items():
        d[k] = v
    with pytest.raises(ConfigError, match=msg):
        parse_definition(d)


def test_late_reg_at_most_the_levels() -> None:
    with pytest.raises(ConfigError, match="at most the number of levels"):
        parse_definition(base(entry={"start": "at_time", "late_reg": 3},
                              stages=[{"format": "dali", "advance": 3, "levels": [10, 20]}]))


def test_carry_and_prize_parsing() -> None:
    assert str(parse_carry("scale")) == "scale 1/10" and str(parse_carry({"kind": "reset"})) == "reset"
    with pytest.raises(ConfigError, match="takes no ratio"):
        parse_carry("keep 1/2")
    with pytest.raises(ConfigError, match="written p/q"):
        parse_carry("sqrt 10")
    assert parse_prizes(None).kind == "none"
    assert parse_prizes({"kind": "pool"}).brackets[0].percents == (100,)
    with pytest.raises(ConfigError, match="strictly increasing"):
        parse_prizes({"kind": "pool", "brackets": [{"min_entrants": 5, "percents": [100]},
                                                   {"min_entrants": 5, "percents": [100]}]})


# ------------------------------------------------------------------------------------------- schedules

def test_cron_parsing_and_errors() -> None:
    c = parse_cron("0,30 9-17/2 * jan-mar mon-fri")
    assert sorted(c.minutes) == [0, 30] and sorted(c.hours) == [9, 11, 13, 15, 17]
    assert sorted(c.months) == [1, 2, 3] and sorted(c.dows) == [1, 2, 3, 4, 5]
    assert sorted(parse_cron("0 0 * * 7").dows) == [0]
    for bad in ["* * * *", "60 * * * *", "*/0 * * * *", "x * * * *", "5-1 * * * *"]:
        with pytest.raises(ConfigError):
            parse_cron(bad)


def test_next_start_in_a_zone_with_daylight_saving() -> None:
    # Europe/Berlin skips 02:00–03:00 on 2024-03-31: a 02:30 schedule skips that day
    t = 1711843200  # 2024-03-31 00:00 UTC = 01:00 CET
    nxt = next_start("30 2 * * *", t, "Europe/Berlin")
    assert describe(nxt, "Europe/Berlin") == "2024-04-01 02:30 Europe/Berlin"
    # day-of-month and day-of-week both restricted: either matches (cron's rule)
    n2 = next_start("0 12 13 * fri", 1700000000, "UTC")
    assert describe(n2, "UTC") in ("2023-11-17 12:00 UTC",)
    with pytest.raises(ConfigError, match="unknown time zone"):
        next_start("0 * * * *", t, "Mars/Olympus")
    with pytest.raises(ConfigError, match="no occurrence"):
        next_start("0 0 31 2 *", t, "UTC")


def test_series_create_each_occurrence() -> None:
    hourly = {"preset": "hourly"}
    occ = next_occurrence(hourly, 1_700_000_000)
    data = occurrence_definition(hourly, occ.start_at)
    st = new_match(data, match_id="h1", seed=1, now=occ.registration_opens)
    assert st.start_at == occ.start_at
    st, ev = apply(st, {"op": "register", "entrant": "a", "players": ["a"], "now": occ.registration_opens})
    assert [type(e).__name__ for e in ev] == ["Registered"]
    st, ev = tick(st, now=occ.start_at)
    assert st.phase == "cancelled" and type(ev[-1]).__name__ == "MatchCancelled"  # one entrant, min_entrants 9
    assert [o.start_at for o in open_occurrences(hourly, occ.start_at + 1800, after=occ.start_at)] == [
        occ.start_at + 3600]
    with pytest.raises(ConfigError, match="not a series"):
        next_occurrence(base(), 0)
