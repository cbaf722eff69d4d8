"""Registration at the edges of RULES-matches.md §2 (the start time, the entrant cap with late registration) and
definitions that must be refused when defined (a ConfigError, never a crash or a series that never runs)."""

from __future__ import annotations

from typing import Any

import pytest

from qipai.tournaments import (
    ConfigError,
    EntryError,
    Refund,
    TableFormed,
    new_match,
    next_occurrence,
    parse_carry,
    parse_definition,
    register,
    report,
    tick,
    withdraw,
)


def timed(**entry: Any) -> dict[str, Any]:
    return {"game": "ddz3",
            "entry": {"start": "at_time", "reg_opens_s": 100, "fee": 10, "min_entrants": 6, **entry},
            "stages": [{"format": "fixed", "rounds": [{"deals": 2, "advance": 3}, {"deals": 1}]}]}


# ------------------------------------------------------------------ §2.1: at_time registration closes at the start

def test_at_time_registration_after_the_start_time_is_refused() -> None:
    """§2.1: "at_time: registration opens reg_opens_s before the start time and closes at the start time"
    (no late_reg here).  A registration that arrives after the start time, before the host's tick, is
    accepted today and the entrant pays and plays."""
    st = new_match(timed(), match_id="m", seed=1, now=0, start_at=1000)
    for k in range(6):
        st, _ = register(st, f"p{k}", [f"p{k}"], now=950)
    with pytest.raises(EntryError):
        register(st, "late", ["late"], now=1060)


def test_at_time_withdrawal_after_the_start_time_is_not_refunded() -> None:
    """§2.3.2/§2.3.3: a refund on withdrawal only "before the close of registration"; "after the close there is
    no refund".  The close is the start time, but a withdrawal processed after it (before the tick) is refunded
    in full today."""
    st = new_match(timed(), match_id="m", seed=1, now=0, start_at=1000)
    for k in range(7):
        st, _ = register(st, f"p{k}", [f"p{k}"], now=950)
    try:
        _, ev = withdraw(st, "p6", now=1060)
    except EntryError:
        return  # refused: fine (the host ticks, then it is a quit)
    assert not [e for e in ev if isinstance(e, Refund)]


# ------------------------------------------------------------------ §2.1: max_entrants during late registration

def test_late_registration_never_takes_the_match_past_max_entrants() -> None:
    """§2.1 max_entrants, at_time: "registration refuses more".  During late registration the core counts
    only the entrants still in, so once some are eliminated more register: here 8 entrants in a match with
    max_entrants 6."""
    d = {"game": "ddz3",
         "entry": {"start": "at_time", "reg_opens_s": 100, "max_entrants": 6, "min_entrants": 3, "late_reg": 2},
         "stages": [{"format": "dali", "advance": 3, "level_step": {"seconds": 1000}}]}
    st = new_match(d, match_id="m", seed=1, now=0, start_at=1000)
    for k in range(6):
        st, _ = register(st, f"p{k}", [f"p{k}"], now=950)
    st, ev = tick(st, now=1000)
    t = next(e.table for e in ev if isinstance(e, TableFormed))
    st, _ = report(st, t.key, 1, [2000, -1000, -1000], now=1010)  # two fall below the line
    assert sum(e.status == "in" for e in st.entrants.values()) == 4
    with pytest.raises(EntryError, match="full"):  # six entrants already: a seventh is one too many
        register(st, "L0", ["L0"], now=1020)


# ------------------------------------------------------------------ bad definitions: ConfigError, never a crash

@pytest.mark.parametrize("schedule", ["\u00b2 * * * *", "0 \u00b9 * * *"])
def test_a_schedule_with_non_ascii_digits_is_a_config_error(schedule: str) -> None:
    """A schedule field such as '²' passes str.isdigit() and then crashes int() with ValueError."""
    d = {"preset": "hourly", "entry": {"schedule": schedule}}
    with pytest.raises(ConfigError):
        parse_definition(d)


@pytest.mark.parametrize("text", ["sqrt \u00b2/1", "scale 1/\u00b3", "sqrt " + "9" * 5000 + "/1"])
def test_a_carry_ratio_that_is_not_a_plain_number_is_a_config_error(text: str) -> None:
    """parse_carry: '²' passes isdigit() and a 5000-digit ratio exceeds int()'s digit limit: both raise
    ValueError instead of a ConfigError."""
    with pytest.raises(ConfigError):
        parse_carry(text)
    d = {"preset": "hourly", "stages": [{}, {"carry": text}]}
    with pytest.raises(ConfigError):
        parse_definition(d)


def test_a_preset_name_that_is_not_a_string_is_a_config_error() -> None:
    """{"preset": [...]} raises TypeError (unhashable) instead of a ConfigError."""
    with pytest.raises(ConfigError):
        parse_definition({"preset": ["sit_and_go_9"]})


@pytest.mark.parametrize("entry", [{"timezone": "Mars/Olympus"}, {"timezone": ""},
                                   {"schedule": "0 0 31 2 *"}])
def test_a_series_that_can_never_run_is_refused_when_defined(entry: dict[str, Any]) -> None:
    """§2.2: the schedule is evaluated in the time zone `timezone`.  An unknown zone, or a schedule with no
    occurrence (31 February), is accepted by parse_definition; the error only comes when the series is asked
    for its next occurrence, so a broken series is put on offer and silently never creates a match."""
    d = {"preset": "hourly", "entry": entry}
    try:
        parse_definition(d)
    except ConfigError:
        return
    with pytest.raises(ConfigError):  # it is broken, as shown here …
        next_occurrence(d, 1_700_000_000)
    pytest.fail("parse_definition accepted a series that has no occurrence")  # … but was accepted


# ------------------------------------------------------------------ §1/§4: ddz match points never go below 0

@pytest.mark.parametrize("game", ["ddz3", "ddz4"])
def test_a_negative_start_stack_is_refused_for_dou_dizhu(game: str) -> None:
    """§1 "Match points … may be 0 and, where the game has no cap (§4), negative"; §4 ddz3/ddz4: "match points
    never go below 0" (the 积分最小化原则 caps every payment by them).  A ddz definition with start_stack -500 is
    accepted and its tables are opened with negative table points."""
    d = {"game": game, "entry": {"start": "when_full", "max_entrants": 12},
         "stages": [{"format": "fixed", "start_stack": -500, "rounds": [{"deals": 1}]}]}
    with pytest.raises(ConfigError):
        parse_definition(d)


def test_a_when_full_match_never_asks_for_more_entrants_than_it_takes() -> None:
    """A when_full match of 3 showed min_entrants 6 (twice a table, the default) on its card."""
    d = parse_definition({"game": "ddz3", "entry": {"start": "when_full", "max_entrants": 3},
                          "stages": [{"format": "fixed", "rounds": [{"deals": 1}]}]})
    assert (d.entry.min_entrants, d.entry.max_entrants) == (3, 3)
    d = parse_definition({"game": "ddz3", "entry": {"start": "when_full", "max_entrants": 9},
                          "stages": [{"format": "fixed", "rounds": [{"deals": 1}]}]})
    assert (d.entry.min_entrants, d.entry.max_entrants) == (6, 9)
