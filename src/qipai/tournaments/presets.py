"""The match presets of RULES-matches.md §8, as definition data (options not named take the defaults of §2–§5),
and ``quick_sit_and_go`` (ours: the pool ``qipai serve`` keeps open by default — nine seats, bots fill the
field a minute after the first registration, 20 points in, 90 % back as prizes to the humans).

>>> from .definition import parse_definition
>>> sorted(PRESETS)
['hourly', 'mahjong_swiss_16', 'quick_sit_and_go', 'shengji_teams_swiss', 'sit_and_go_9', 'swiss_27']
>>> h = parse_definition({"preset": "hourly"})
>>> [st.format for st in h.stages], str(h.stages[1].carry), h.entry.prizes.amounts[:3], h.entry.late_reg
(['dali', 'fixed'], 'sqrt 10/1', (300, 200, 100), 2)
"""

from __future__ import annotations

from typing import Any

PRESETS: dict[str, dict[str, Any]] = {
    "sit_and_go_9": {
        "name": "sit_and_go_9",
        "game": "ddz3",
        "entry": {"start": "when_full", "max_entrants": 9, "fee": 100,
                  "prizes": {"kind": "pool", "brackets": "standard", "rake_pct": 10}},
        "stages": [{"format": "fixed", "seating": "snake",
                    "rounds": [{"deals": 3, "advance": 3}, {"deals": 3}]}],
    },
    "quick_sit_and_go": {
        "name": "quick_sit_and_go",
        "game": "ddz3",
        "entry": {"start": "when_full", "max_entrants": 9, "fee": 20, "bots": "fill_after", "fill_after_s": 60,
                  "prizes": {"kind": "pool", "brackets": "standard", "rake_pct": 10}},
        "stages": [{"format": "fixed", "seating": "snake",
                    "rounds": [{"deals": 2, "advance": 3}, {"deals": 3}]}],
    },
    "hourly": {
        "name": "hourly",
        "game": "ddz3",
        "entry": {"start": "at_time", "schedule": "0 * * * *", "min_entrants": 9, "max_entrants": 999,
                  "fee": 0, "late_reg": 2,
                  "prizes": {"kind": "fixed", "amounts": [300, 200, 100, 50, 50, 50, 20, 20, 20]}},
        "stages": [{"format": "dali", "advance": 9},
                   {"format": "fixed", "carry": "sqrt 10/1", "seating": "snake",
                    "rounds": [{"deals": 2, "advance": 3}, {"deals": 3}]}],
    },
    "swiss_27": {
        "name": "swiss_27",
        "game": "ddz3",
        "entry": {"start": "when_full", "max_entrants": 27, "fee": 50,
                  "prizes": {"kind": "pool", "brackets": "standard"}},
        "stages": [{"format": "swiss", "rounds": 5, "deals": 3, "base": 10}],
    },
    "shengji_teams_swiss": {
        "name": "shengji_teams_swiss",
        "game": "shengji",
        "entry": {"start": "at_time", "min_entrants": 4, "max_entrants": 64, "fee": 20,
                  "prizes": {"kind": "pool", "brackets": "standard"}},
        "stages": [{"format": "swiss", "rounds": 4, "deals": 4, "base": 1, "odd_field": "sit_out"}],
    },
    "mahjong_swiss_16": {
        "name": "mahjong_swiss_16",
        "game": "mahjong",
        "entry": {"start": "when_full", "max_entrants": 16, "fee": 50,
                  "prizes": {"kind": "pool", "brackets": "standard"}},
        "stages": [{"format": "swiss", "rounds": 4, "deals": 4, "base": 1}],
    },
}
"""Preset name → definition data; use as ``parse_definition({"preset": name, **overrides})``."""
