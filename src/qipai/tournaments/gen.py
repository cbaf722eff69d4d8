"""A random tournament generator for property tests and fuzzing: a valid definition (any game profile, one to
three stages of any format with random parameters, entry options, prize tables), a field, and a script of late
registrations and withdrawals — all a pure function of one seed.

>>> sc = random_scenario(11)
>>> from .definition import parse_definition
>>> parse_definition(sc.definition).stages[0].format in ("dali", "fixed", "swiss")
True
>>> random_scenario(11) == sc
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.rng import Rng
from .ranking import TIEBREAK_KEYS
from .simulate import Command, EntrantSpec

START = 1_700_000_000
"""The virtual time a generated scenario's registration opens (pass it to ``simulate(start=...)``)."""

_GAMES = [("ddz3", 3, False), ("ddz4", 4, False), ("mahjong", 4, False), ("shengji", 4, True), ("tri", 3, False)]


@dataclass
class Scenario:
    """One generated match: ``definition`` data, ``entrants`` to register when registration opens, a ``script``
    of later commands, the simulator's ``seed`` and the stand-in's options."""

    definition: dict[str, Any]
    entrants: list[EntrantSpec]
    script: list[Command] = field(default_factory=list)
    seed: int = 0
    cap: bool = True
    early_end: float = 0.0


def _pick(rng: Rng, items: list[Any]) -> Any:
    return items[rng.below(len(items))]


def _chance(rng: Rng, percent: int) -> bool:
    return rng.below(100) < percent


def _tiebreaks(rng: Rng, fmt: str) -> list[str] | None:
    if _chance(rng, 50):
        return None
    keys = [k for k in TIEBREAK_KEYS if k != "registration"]
    rng.shuffle(keys)
    chosen = keys[:rng.below(len(keys) + 1)]
    if _chance(rng, 20):
        chosen.append("registration")
    return chosen


def _carry(rng: Rng) -> str:
    kind = _pick(rng, ["keep", "keep", "reset", "sqrt", "scale"])
    if kind in ("keep", "reset"):
        return str(kind)
    if _chance(rng, 40):
        return str(kind)
    return f"{kind} {1 + rng.below(10)}/{1 + rng.below(10)}"


def random_scenario(seed: int, *, max_field: int = 30, max_stages: int = 3) -> Scenario:
    """A random valid scenario (see the module docstring)."""
    rng = Rng(seed)
    game, seats, teams = _pick(rng, _GAMES)
    s = seats // 2 if teams else seats
    when_full = _chance(rng, 50)
    field_max = s * (1 + rng.below(max(1, max_field // s))) if when_full else s + rng.below(max_field - s + 1)
    n_stages = 1 + rng.below(max_stages)
    stages: list[dict[str, Any]] = []
    cur = field_max
    stack = _pick(rng, [0, 100, 1000])
    for i in range(n_stages):
        last = i == n_stages - 1
        fmt = _pick(rng, ["dali", "fixed", "swiss"])
        st: dict[str, Any] = {"format": fmt}
        if _chance(rng, 30):
            st["start_stack"] = _pick(rng, [0, 50, 500, 1000])
        elif i == 0:
            st["start_stack"] = stack
        if i > 0:
            st["carry"] = _carry(rng)
        tb = _tiebreaks(rng, fmt)
        if tb is not None:
            st["tiebreaks"] = tb
        if fmt != "dali":
            st["base"] = 1 + rng.below(20)
        adv = None
        if not last:
            adv = s * (1 + rng.below(max(1, cur // s + 1)))
            st["advance"] = adv
        if fmt == "dali":
            n_lv = 1 + rng.below(5)
            base = 1 + rng.below(10)
            levels = []
            for _ in range(n_lv):
                levels.append(base)
                base += 1 + rng.below(base + 5)
            st["levels"] = levels
            st["level_step"] = {"deals": 1 + rng.below(8)} if _chance(rng, 50) else {"seconds": 30 + rng.below(300)}
            st["out_factor"] = rng.below(5)
            st["ass_deals"] = 1 + rng.below(3)
            if last:
                adv = 1 + rng.below(max(1, cur))
                st["advance"] = adv
        elif fmt == "fixed":
            rounds = []
            n_r = 1 + rng.below(3)
            for j in range(n_r):
                r: dict[str, Any] = {"deals": 1 + rng.below(3)}
                if j < n_r - 1:
                    r["advance"] = s * (1 + rng.below(max(1, cur // s + 1)))
                rounds.append(r)
            st["rounds"] = rounds
            st["seating"] = _pick(rng, ["snake", "by_score", "random"])
            st["odd_field"] = _pick(rng, ["bots", "cut", "sit_out"])
        else:
            n_r = 1 + rng.below(4)
            st["rounds"] = n_r
            st["deals"] = 1 + rng.below(2)
            st["odd_field"] = _pick(rng, ["sit_out", "sit_out", "bots", "cut"])
            if _chance(rng, 30):
                st["bye_points"] = rng.below(30) - 10
            st["swap_window"] = 1 + rng.below(3)
            if n_r >= 2 and _chance(rng, 30):
                st["swiss_cut"] = {"after_round": 1 + rng.below(n_r - 1),
                                   "keep": s * (1 + rng.below(max(1, cur // s + 1)))}
        stages.append(st)
        if adv is not None:
            cur = max(min(cur, adv), s)
    entry: dict[str, Any] = {"start": "when_full" if when_full else "at_time"}
    fee = _pick(rng, [0, 0, 10, 100])
    entry["fee"] = fee
    entry["start_delay_s"] = _pick(rng, [0, 10])
    humans = field_max
    if when_full:
        entry["max_entrants"] = field_max
        if _chance(rng, 30):
            entry["bots"] = "fill_after"
            entry["fill_after_s"] = 60
            humans = 1 + rng.below(field_max)
    else:
        entry["min_entrants"] = 1 + rng.below(2 * s)
        entry["reg_opens_s"] = 600
        if _chance(rng, 30):
            entry["max_entrants"] = max(entry["min_entrants"], field_max - rng.below(3))
            humans = min(humans, entry["max_entrants"])
        if stages[0]["format"] == "dali" and _chance(rng, 50):
            entry["late_reg"] = 1 + rng.below(len(stages[0]["levels"]))
    pr = rng.below(4)
    if pr == 1:
        entry["prizes"] = {"kind": "fixed", "amounts": [100 * (5 - i) for i in range(1 + rng.below(5))]}
    elif pr == 2:
        entry["prizes"] = {"kind": "pool", "brackets": "standard", "rake_pct": rng.below(30),
                           "guarantee": _pick(rng, [0, 500])}
    elif pr == 3:
        entry["prizes"] = {"kind": "pool", "brackets": [{"min_entrants": 1, "percents": [100]},
                                                        {"min_entrants": 4, "percents": [50, 30, 20]}]}
    definition: dict[str, Any] = {"game": game, "entry": entry, "stages": stages,
                                  "round_gap_s": _pick(rng, [0, 15]), "stage_gap_s": _pick(rng, [0, 30])}
    if game == "tri":
        definition["seats"] = 3
    n_bots = min(rng.below(3), humans - 1) if _chance(rng, 20) else 0
    entrants = []
    for k in range(1, humans + 1):
        eid = f"e{k}"
        bot = k > humans - n_bots
        entrants.append(EntrantSpec(eid, (eid + "a", eid + "b") if teams else (eid,), bot))
    script: list[Command] = []
    t_start = START if when_full else START + 600
    if entry.get("bots") == "fill_after":
        t_start += entry["fill_after_s"] + entry["start_delay_s"]
    if not when_full and _chance(rng, 40):
        for _ in range(1 + rng.below(3)):
            victim = entrants[rng.below(len(entrants))].id
            script.append(Command(START + 1 + rng.below(598), "withdraw", entrant_id=victim))
    if _chance(rng, 50):
        for _ in range(1 + rng.below(4)):
            victim = entrants[rng.below(len(entrants))].id
            script.append(Command(t_start + 1 + rng.below(900), "withdraw", entrant_id=victim))
    if entry.get("late_reg"):
        for k in range(rng.below(5)):
            eid = f"late{k}"
            script.append(Command(t_start + rng.below(400), "register",
                                  EntrantSpec(eid, (eid + "a", eid + "b") if teams else (eid,))))
    if _chance(rng, 3):
        script.append(Command(t_start + rng.below(1200), "cancel"))
    return Scenario(definition, entrants, script, seed=rng.below(1 << 30), cap=_chance(rng, 70),
                    early_end=0.2 if teams and _chance(rng, 50) else 0.0)
