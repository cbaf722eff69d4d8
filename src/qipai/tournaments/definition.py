"""Match definitions (RULES-matches.md §2.1, §3): what an operator writes, checked and completed with the spec's
defaults.

A definition is JSON with the spec's option names::

    {"game": "ddz3",
     "entry": {"start": "when_full", "max_entrants": 9, "fee": 100, "prizes": {"kind": "pool"}},
     "stages": [{"format": "fixed", "rounds": [{"deals": 3, "advance": 3}, {"deals": 3}]}]}

or a preset with overrides (``{"preset": "sit_and_go_9", "entry": {"fee": 50}}``, §8).  :func:`parse_definition`
checks it (a :class:`ConfigError` says what is wrong) and fills in every default; :func:`definition_data` gives
the completed JSON back (parsing it again gives the same definition).

The core knows nothing of a game but its table: ``seats`` (3 or 4) and ``teams`` (two-player team entrants
sitting as partners).  The four games of §1 have profiles with the spec's ``start_stack`` and ``base`` defaults;
any other game name must say ``seats`` (and may say ``teams``).

>>> d = parse_definition({"preset": "sit_and_go_9"})
>>> d.s, d.entry.max_entrants, [st.format for st in d.stages], d.stages[0].tiebreaks
(3, 9, ['fixed'], ('last_deal', 'registration'))
>>> parse_definition(definition_data(d)) == d
True
>>> parse_definition({"game": "ddz3", "entry": {"start": "when_full", "max_entrants": 10},
...                   "stages": [{"format": "swiss", "rounds": 3, "deals": 2}]})
Traceback (most recent call last):
...
qipai.tournaments.errors.ConfigError: entry.max_entrants: a when_full match needs a multiple of 3 entrants, got 10
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .dali import DEFAULT_LEVELS
from .errors import ConfigError
from .prizes import STANDARD_BRACKETS, PrizeTable, parse_prizes
from .ranking import Carry, normalize_tiebreaks, parse_carry
from .schedule import DEFAULT_TZ, check_timezone, parse_cron

FORMATS = ("dali", "fixed", "swiss")
ODD_FIELD = ("bots", "cut", "sit_out")


@dataclass(frozen=True, slots=True)
class GameProfile:
    """What the tournament core needs to know of a game: seats per table, team entrants, and the defaults of
    ``start_stack`` and ``base`` (§3.1)."""

    seats: int
    teams: bool
    start_stack: int
    base: int


GAME_PROFILES: dict[str, GameProfile] = {
    "ddz3": GameProfile(3, False, 1000, 10),
    "ddz4": GameProfile(4, False, 1000, 10),
    "mahjong": GameProfile(4, False, 0, 1),
    "shengji": GameProfile(4, True, 0, 1),
}


@dataclass(frozen=True, slots=True)
class FixedRound:
    """One round of a ``fixed`` stage: ``deals`` per table, then the first ``advance`` stay (none: no cut)."""

    deals: int
    advance: int | None = None


@dataclass(frozen=True, slots=True)
class SwissCut:
    """A cut inside a Swiss stage: after round ``after_round`` (1-based) the first ``keep`` stay."""

    after_round: int
    keep: int


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage (§3.1): common options, then those of its format.  In a ``swiss`` stage ``rounds`` holds one
    :class:`FixedRound` per round (all with the stage's ``deals``, no ``advance``)."""

    format: str
    start_stack: int
    carry: Carry
    advance: int | None
    tiebreaks: tuple[str, ...]
    base: int
    odd_field: str
    rounds: tuple[FixedRound, ...] = ()
    seating: str = "snake"
    bye_points: int = 0
    swap_window: int = 2
    swiss_cut: SwissCut | None = None
    levels: tuple[int, ...] = DEFAULT_LEVELS
    level_seconds: int | None = 120
    level_deals: int | None = None
    out_factor: int = 3
    ass_deals: int = 1

    def cut_after(self, round_index: int) -> int | None:
        """How many stay after round ``round_index`` (0-based) of this stage, or ``None`` (no cut then)."""
        if self.format == "fixed":
            return self.rounds[round_index].advance
        if self.format == "swiss" and self.swiss_cut and self.swiss_cut.after_round == round_index + 1:
            return self.swiss_cut.keep
        return None


@dataclass(frozen=True, slots=True)
class Entry:
    """Entry parameters (§2.1).  ``start_at`` (epoch seconds) is the start time of an ``at_time`` match; it may
    also be given when the match is created (a series computes it from ``schedule``)."""

    start: str
    min_entrants: int
    max_entrants: int | None = None
    reg_opens_s: int = 1800
    start_delay_s: int = 10
    late_reg: int | None = None
    fee: int = 0
    min_balance: int = 0
    bots: str = "off"
    fill_after_s: int = 120
    prizes: PrizeTable = field(default_factory=PrizeTable)
    start_at: int | None = None
    schedule: str | None = None
    timezone: str = DEFAULT_TZ


@dataclass(frozen=True, slots=True)
class Definition:
    """A complete, checked match definition.  ``host`` holds options the core passes through untouched (e.g.
    ``spectate``, ``restart_grace_s``, ``game_preset``)."""

    game: str
    seats: int
    teams: bool
    entry: Entry
    stages: tuple[Stage, ...]
    round_gap_s: int = 15
    stage_gap_s: int = 30
    forfeit_absent: bool = False
    name: str = ""
    host: dict[str, Any] = field(default_factory=dict)

    @property
    def s(self) -> int:
        """Entrants per table: ``seats``, or ``seats / 2`` with team entrants."""
        return self.seats // 2 if self.teams else self.seats

    @property
    def players_per_entrant(self) -> int:
        """2 with team entrants, else 1."""
        return 2 if self.teams else 1


# ---------------------------------------------------------------------------------------------- parsing

_TOP = {"preset", "name", "game", "seats", "teams", "entry", "stages", "round_gap_s", "stage_gap_s",
        "forfeit_absent", "host"}
_ENTRY = {"start", "min_entrants", "max_entrants", "reg_opens_s", "start_delay_s", "late_reg", "fee",
          "min_balance", "bots", "fill_after_s", "prizes", "start_at", "schedule", "timezone"}
_COMMON = {"format", "start_stack", "carry", "advance", "tiebreaks", "base", "odd_field"}
_BY_FORMAT = {
    "dali": _COMMON | {"levels", "level_step", "out_factor", "ass_deals"},
    "fixed": _COMMON | {"rounds", "seating"},
    "swiss": _COMMON | {"rounds", "deals", "bye_points", "swap_window", "swiss_cut"},
}
_ATOMIC = {"prizes", "levels", "level_step", "rounds", "tiebreaks", "swiss_cut", "carry"}


MAX_NUMBER = 10**12
"""The largest number a definition may hold (points, fees, times): well inside the store's 64-bit integers."""

DAY = 86_400
MAX_DEALS = 100
"""The most deals a round (or the 打立 stage's last deals, ``ass_deals``) may ask of a table."""

MAX_ROUNDS = 100
MAX_BASE = 10**9
"""The largest base or stack: a deal's multiplier times it stays well inside 64-bit integers."""
MAX_ENTRANTS = 100_000


def _int(v: Any, where: str, lo: int | None = None, *, none: bool = False, hi: int = MAX_NUMBER) -> Any:
    if v is None and none:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise ConfigError(f"{where} must be a whole number, got {_short(v)}")
    if lo is not None and v < lo:
        raise ConfigError(f"{where} must be at least {lo}, got {v}")
    if v > hi:
        raise ConfigError(f"{where} must be at most {hi}, got {_short(v)}")
    if v < -MAX_NUMBER:
        raise ConfigError(f"{where} must be at least {-MAX_NUMBER}, got {_short(v)}")
    return v


def _short(v: Any) -> str:
    from ..core.options import short_repr

    return short_repr(v)


def _keys(d: Any, allowed: set[str], where: str) -> Mapping[str, Any]:
    if not isinstance(d, Mapping):
        raise ConfigError(f"{where} must be an object, got {d!r}")
    extra = set(d) - allowed
    if extra:
        raise ConfigError(f"{where}: unknown option(s) {', '.join(sorted(map(str, extra)))}")
    return d


def merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """Overlay ``over`` on ``base``: objects merge key by key, ``stages`` merge item by item (extra items are
    appended), and lists and the options in ``_ATOMIC`` (``prizes``, ``rounds``, ``levels`` …) are replaced.

    >>> merge({"entry": {"fee": 1, "start": "at_time"}}, {"entry": {"fee": 5}})
    {'entry': {'fee': 5, 'start': 'at_time'}}
    """
    out = dict(base)
    for k, v in over.items():
        old = out.get(k)
        if k == "stages" and isinstance(old, list) and isinstance(v, list):
            merged = [merge(a, b) if isinstance(a, Mapping) and isinstance(b, Mapping) else b
                      for a, b in zip(old, v, strict=False)]
            merged += v[len(old):] if len(v) > len(old) else old[len(v):]
            out[k] = merged
        elif k not in _ATOMIC and isinstance(old, Mapping) and isinstance(v, Mapping):
            out[k] = merge(old, v)
        else:
            out[k] = v
    return out


def parse_definition(data: Mapping[str, Any] | Definition) -> Definition:
    """Check a definition (JSON data, or a preset name under ``preset`` with overrides) and fill in defaults."""
    if isinstance(data, Definition):
        return data
    top = _keys(data, _TOP, "definition")
    if "preset" in top:
        from .presets import PRESETS

        name = top["preset"]
        if not isinstance(name, str) or name not in PRESETS:
            raise ConfigError(f"unknown preset {name!r} (known: {', '.join(PRESETS)})")
        top = merge(PRESETS[name], {k: v for k, v in top.items() if k != "preset"})
    game = top.get("game")
    if not isinstance(game, str) or not game:
        raise ConfigError("definition.game must name the game (ddz3, ddz4, mahjong, shengji or another)")
    prof = GAME_PROFILES.get(game)
    seats = _int(top.get("seats", prof.seats if prof else None), "definition.seats", none=True)
    if seats is None:
        raise ConfigError(f"game {game!r} has no profile: say its seats (3 or 4)")
    if seats not in (3, 4):
        raise ConfigError(f"definition.seats must be 3 or 4, got {seats}")
    teams = top.get("teams", prof.teams if prof else False)
    if not isinstance(teams, bool):
        raise ConfigError(f"definition.teams must be true or false, got {teams!r}")
    if teams and seats != 4:
        raise ConfigError("team entrants need 4 seats (two teams of two partners)")
    if prof is not None and seats != prof.seats:  # §1: a game of the spec plays its own table
        raise ConfigError(f"definition.seats: {game} is played {prof.seats} to a table, got {seats}")
    if prof is not None and teams != prof.teams:  # §1: a shengji entrant is a team of two, the others' a player
        raise ConfigError(f"definition.teams: {game} entrants are " + (
            "teams of two (partners), it must be true" if prof.teams else "single players, it must be false"))
    s = seats // 2 if teams else seats
    stack0 = prof.start_stack if prof else 0
    base0 = prof.base if prof else 1

    raw_stages = top.get("stages")
    if not isinstance(raw_stages, list) or not raw_stages:
        raise ConfigError("definition.stages must be a non-empty list")
    stages = tuple(_stage(st, i, len(raw_stages), s, stack0, base0) for i, st in enumerate(raw_stages))
    entry = _entry(top.get("entry"), s, stages)
    host = top.get("host", {})
    if not isinstance(host, Mapping):
        raise ConfigError("definition.host must be an object")
    if game in ("ddz3", "ddz4") and "game_preset" not in host:
        for i, st in enumerate(stages):
            if st.start_stack < 0:  # §4: Dou Dizhu match points never go below 0
                raise ConfigError(f"stages[{i}].start_stack must be at least 0 in {game}, got {st.start_stack}")
    forfeit = top.get("forfeit_absent", False)
    if not isinstance(forfeit, bool):
        raise ConfigError("definition.forfeit_absent must be true or false")
    name = top.get("name", "")
    if not isinstance(name, str):
        raise ConfigError("definition.name must be a string")
    return Definition(game, seats, teams, entry, stages,
                      _int(top.get("round_gap_s", 15), "definition.round_gap_s", 0, hi=DAY),
                      _int(top.get("stage_gap_s", 30), "definition.stage_gap_s", 0, hi=DAY),
                      forfeit, name, dict(host))


def _entry(raw: Any, s: int, stages: tuple[Stage, ...]) -> Entry:
    e = _keys(raw, _ENTRY, "entry")
    start = e.get("start")
    if start not in ("when_full", "at_time"):
        raise ConfigError(f"entry.start must be when_full or at_time, got {start!r}")
    max_e = _int(e.get("max_entrants"), "entry.max_entrants", 1, none=True, hi=MAX_ENTRANTS)
    min_e = _int(e.get("min_entrants", 2 * s), "entry.min_entrants", 1, hi=MAX_ENTRANTS)
    if start == "when_full":
        if max_e is None:
            raise ConfigError("entry.max_entrants: a when_full match starts when this many have entered; say it")
        if max_e % s or max_e < s:
            raise ConfigError(f"entry.max_entrants: a when_full match needs a multiple of {s} entrants, got {max_e}")
        min_e = min(min_e, max_e)  # it starts full: its card must not ask for more than it takes
    elif max_e is not None and max_e < min_e:
        raise ConfigError(f"entry.max_entrants ({max_e}) is below entry.min_entrants ({min_e})")
    late = _int(e.get("late_reg"), "entry.late_reg", 1, none=True)
    if late is not None:
        if stages[0].format != "dali":
            raise ConfigError("entry.late_reg: late registration needs a dali first stage")
        if start != "at_time":
            raise ConfigError("entry.late_reg: late registration is for at_time matches")
        if late > len(stages[0].levels):
            raise ConfigError(f"entry.late_reg must be at most the number of levels ({len(stages[0].levels)})")
    bots = e.get("bots", "off")
    if bots not in ("off", "fill_after"):
        raise ConfigError(f"entry.bots must be off or fill_after, got {bots!r}")
    if bots == "fill_after" and start != "when_full":
        raise ConfigError("entry.bots: fill_after is for when_full matches")
    sched = e.get("schedule")
    if sched is not None:
        if not isinstance(sched, str):
            raise ConfigError("entry.schedule must be a cron string")
        parse_cron(sched)
        if start != "at_time":
            raise ConfigError("entry.schedule: a recurring schedule is for at_time matches")
    tz = e.get("timezone", DEFAULT_TZ)
    if not isinstance(tz, str):
        raise ConfigError("entry.timezone must be a string")
    check_timezone(tz)  # an unknown time zone is a ConfigError now, not when the series first asks for its start
    return Entry(start, min_e, max_e,
                 _int(e.get("reg_opens_s", 1800), "entry.reg_opens_s", 0, hi=30 * DAY),
                 _int(e.get("start_delay_s", 10), "entry.start_delay_s", 0, hi=DAY),
                 late,
                 _int(e.get("fee", 0), "entry.fee", 0),
                 _int(e.get("min_balance", 0), "entry.min_balance", 0),
                 bots,
                 _int(e.get("fill_after_s", 120), "entry.fill_after_s", 0, hi=DAY),
                 parse_prizes(e.get("prizes")),
                 _int(e.get("start_at"), "entry.start_at", 0, none=True),
                 sched, tz)


def _multiple(v: int, s: int, where: str) -> None:
    if v <= 0 or v % s:
        raise ConfigError(f"{where} must be a positive multiple of the table size {s}, got {v}")


def _stage(raw: Any, i: int, count: int, s: int, stack0: int, base0: int) -> Stage:
    where = f"stages[{i}]"
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where} must be an object")
    fmt = raw.get("format")
    if fmt not in FORMATS:
        raise ConfigError(f"{where}.format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    st = _keys(raw, _BY_FORMAT[fmt], where)
    last = i == count - 1
    advance = _int(st.get("advance"), f"{where}.advance", 1, none=True)
    if fmt == "dali":
        if advance is None:
            raise ConfigError(f"{where}.advance: a dali stage ends with exactly this many entrants; say it")
        if not last:
            _multiple(advance, s, f"{where}.advance")
    elif last:
        if advance is not None:
            raise ConfigError(f"{where}.advance: the last stage has no advance")
    else:
        if advance is None:
            raise ConfigError(f"{where}.advance: say how many go on to the next stage")
        _multiple(advance, s, f"{where}.advance")
    tb_default = ["registration"] if fmt == "swiss" else ["last_deal", "registration"]
    tb = st.get("tiebreaks", tb_default)
    if not isinstance(tb, list) or not all(isinstance(k, str) for k in tb):
        raise ConfigError(f"{where}.tiebreaks must be a list of key names")
    common: dict[str, Any] = {
        "format": fmt,
        "start_stack": _int(st.get("start_stack", stack0), f"{where}.start_stack", hi=MAX_BASE),
        "carry": parse_carry(st.get("carry", "keep")),
        "advance": advance,
        "tiebreaks": normalize_tiebreaks(tb),
        "base": _int(st.get("base", base0), f"{where}.base", 1, hi=MAX_BASE),
    }
    if fmt == "dali":
        if "odd_field" in st:
            raise ConfigError(f"{where}.odd_field: a dali stage needs no field fitting (players queue)")
        levels = st.get("levels", list(DEFAULT_LEVELS))
        if not isinstance(levels, list) or not levels:
            raise ConfigError(f"{where}.levels must be a non-empty list of bases")
        if len(levels) > MAX_ROUNDS:
            raise ConfigError(f"{where}.levels: at most {MAX_ROUNDS} levels, got {len(levels)}")
        lv = tuple(_int(x, f"{where}.levels[]", 1, hi=MAX_BASE) for x in levels)
        step = st.get("level_step", {"seconds": 120})
        if not isinstance(step, Mapping) or len(step) != 1 or next(iter(step)) not in ("seconds", "deals"):
            raise ConfigError(f"{where}.level_step must be {{seconds: t}} or {{deals: k}}, got {step!r}")
        secs = _int(step.get("seconds"), f"{where}.level_step.seconds", 1, none=True, hi=DAY)
        deals = _int(step.get("deals"), f"{where}.level_step.deals", 1, none=True)
        return Stage(**common, odd_field="none", levels=lv, level_seconds=secs, level_deals=deals,
                     out_factor=_int(st.get("out_factor", 3), f"{where}.out_factor", 0),
                     ass_deals=_int(st.get("ass_deals", 1), f"{where}.ass_deals", 1, hi=MAX_DEALS))
    odd = st.get("odd_field", "bots" if fmt == "fixed" else "sit_out")
    if odd not in ODD_FIELD:
        raise ConfigError(f"{where}.odd_field must be one of {', '.join(ODD_FIELD)}, got {odd!r}")
    if fmt == "fixed":
        rounds = st.get("rounds")
        if not isinstance(rounds, list) or not rounds:
            raise ConfigError(f"{where}.rounds must be a non-empty list of {{deals, advance}}")
        if len(rounds) > MAX_ROUNDS:
            raise ConfigError(f"{where}.rounds: at most {MAX_ROUNDS} rounds, got {len(rounds)}")
        rs: list[FixedRound] = []
        for j, r in enumerate(rounds):
            rw = f"{where}.rounds[{j}]"
            r = _keys(r, {"deals", "advance"}, rw)
            adv = _int(r.get("advance"), f"{rw}.advance", 1, none=True)
            if j == len(rounds) - 1:
                if adv is not None:
                    raise ConfigError(f"{rw}.advance: the stage's last round has no advance (the stage's "
                                      "advance says who goes on)")
            else:
                if adv is None:
                    raise ConfigError(f"{rw}.advance: every round but the last says how many stay")
                _multiple(adv, s, f"{rw}.advance")
            rs.append(FixedRound(_int(r.get("deals"), f"{rw}.deals", 1, hi=MAX_DEALS), adv))
        seating = st.get("seating", "snake")
        if seating not in ("snake", "by_score", "random"):
            raise ConfigError(f"{where}.seating must be snake, by_score or random, got {seating!r}")
        return Stage(**common, odd_field=odd, rounds=tuple(rs), seating=seating)
    n_rounds = _int(st.get("rounds"), f"{where}.rounds", 1, hi=MAX_ROUNDS)
    deals = _int(st.get("deals"), f"{where}.deals", 1, hi=MAX_DEALS)
    cut = st.get("swiss_cut")
    sc = None
    if cut is not None:
        cut = _keys(cut, {"after_round", "keep"}, f"{where}.swiss_cut")
        after = _int(cut.get("after_round"), f"{where}.swiss_cut.after_round", 1)
        if after >= n_rounds:
            raise ConfigError(f"{where}.swiss_cut.after_round must be before the last round ({n_rounds})")
        keep = _int(cut.get("keep"), f"{where}.swiss_cut.keep", 1)
        _multiple(keep, s, f"{where}.swiss_cut.keep")
        sc = SwissCut(after, keep)
    return Stage(**common, odd_field=odd, rounds=tuple(FixedRound(deals) for _ in range(n_rounds)),
                 bye_points=_int(st.get("bye_points", 0), f"{where}.bye_points"),
                 swap_window=_int(st.get("swap_window", 2), f"{where}.swap_window", 1), swiss_cut=sc)


# ---------------------------------------------------------------------------------------------- back to JSON

def _prizes_data(p: PrizeTable) -> Any:
    if p.kind == "none":
        return None
    if p.kind == "fixed":
        return {"kind": "fixed", "amounts": list(p.amounts)}
    brackets: Any = "standard" if p.brackets == STANDARD_BRACKETS else [
        {"min_entrants": b.min_entrants, "percents": list(b.percents)} for b in p.brackets]
    return {"kind": "pool", "rake_pct": p.rake_pct, "guarantee": p.guarantee, "brackets": brackets}


def _stage_data(st: Stage) -> dict[str, Any]:
    d: dict[str, Any] = {"format": st.format, "start_stack": st.start_stack, "carry": str(st.carry),
                         "tiebreaks": list(st.tiebreaks), "base": st.base}
    if st.advance is not None:
        d["advance"] = st.advance
    if st.format == "dali":
        d.update(levels=list(st.levels), out_factor=st.out_factor, ass_deals=st.ass_deals,
                 level_step={"seconds": st.level_seconds} if st.level_seconds else {"deals": st.level_deals})
    elif st.format == "fixed":
        d.update(odd_field=st.odd_field, seating=st.seating,
                 rounds=[{"deals": r.deals, **({"advance": r.advance} if r.advance else {})} for r in st.rounds])
    else:
        d.update(odd_field=st.odd_field, rounds=len(st.rounds), deals=st.rounds[0].deals,
                 bye_points=st.bye_points, swap_window=st.swap_window)
        if st.swiss_cut:
            d["swiss_cut"] = {"after_round": st.swiss_cut.after_round, "keep": st.swiss_cut.keep}
    return d


def definition_data(d: Definition) -> dict[str, Any]:
    """The completed definition as JSON in the input layout (every default written out)."""
    e = d.entry
    entry: dict[str, Any] = {"start": e.start, "min_entrants": e.min_entrants, "reg_opens_s": e.reg_opens_s,
                             "start_delay_s": e.start_delay_s, "fee": e.fee, "min_balance": e.min_balance,
                             "bots": e.bots, "fill_after_s": e.fill_after_s, "prizes": _prizes_data(e.prizes),
                             "timezone": e.timezone}
    for k in ("max_entrants", "late_reg", "start_at", "schedule"):
        v = getattr(e, k)
        if v is not None:
            entry[k] = v
    return {"name": d.name, "game": d.game, "seats": d.seats, "teams": d.teams, "entry": entry,
            "stages": [_stage_data(st) for st in d.stages], "round_gap_s": d.round_gap_s,
            "stage_gap_s": d.stage_gap_s, "forfeit_absent": d.forfeit_absent, "host": dict(d.host)}
