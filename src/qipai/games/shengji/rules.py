"""The rule options of four-deck Shengji (§10) as declared data, and the preset ``four_deck`` (seed 003).

>>> opts = resolve_options({"stake": 5})
>>> opts["preset"], opts["stake"], opts["start_level"], opts["hand_limit"]
('four_deck', 5, '3', None)
>>> resolve_options({"start_level": "2"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
qipai.core.options.OptionError: start_level must be one of 3, 4, ..., A, got '2'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.game import option_values
from ...core.options import Option, OptionError, OptionSet
from .cards import LEVELS

OPTIONS = OptionSet([
    Option("decks", int, 4, lo=4, hi=4, doc="number of decks (4 only in this spec)"),
    Option("start_level", str, "3", choices=tuple(LEVELS), doc="both teams' level at the start of a match"),
    Option("ace_rule", str, "defend", choices=("defend", "pass"),
           doc="defend: the match ends when the banker side wins a hand at A; pass: the first team past A wins"),
    Option("hand_limit", int, None, lo=1, hi=10_000, nullable=True,
           doc="end the match after this many hands (higher level wins; equal is a draw)"),
    Option("throws", bool, True, doc="throws (甩牌) allowed when no component can be beaten"),
    Option("throw_penalty", int, 10, lo=0, hi=400, doc="points per failed throw, against the thrower's side"),
    Option("deal_step_ms", int, 150, lo=0, hi=60_000, doc="deal pace: a declaration window's length, ms"),
    Option("final_declare_s", float, 5.0, lo=0.0, hi=600.0, doc="the final declaration window, seconds"),
    Option("first_lead_s", float, 30.0, lo=1.0, hi=3600.0, doc="the banker's first lead, seconds"),
    Option("play_s", float, 20.0, lo=1.0, hi=3600.0, doc="every other play, seconds"),
    Option("auto_play", str, "passive", choices=("passive", "smart"),
           doc="who plays for a seat in auto-play: the seed's lowest legal play, or a bot"),
    Option("escape_penalty", bool, False, points=True,
           doc="leaving a running hand ends the match; the escaper loses 3 × stake"),
    Option("stake", int, 1, lo=1, hi=1_000_000, points=True, doc="platform points per level gained"),
    Option("match_bonus", int, 0, lo=0, hi=1_000, points=True, doc="× stake to each winner when the match ends"),
])
"""Every option of §10.  ``points=True`` on the three that change how many platform points move: ``stake``,
``match_bonus`` and ``escape_penalty``.  ``throw_penalty`` changes the game score (and so the levels), not the
stake, like every other rule option."""

PRESETS: dict[str, dict[str, Any]] = {"four_deck": {}}
"""Named option sets, default first: ``four_deck`` is every default (seed 003)."""

DEFAULT_PRESET = "four_deck"


def resolve_options(raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every option's value for ``raw`` (``preset`` plus overrides), checked; raises
    :class:`~qipai.core.options.OptionError` naming the bad option."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise OptionError("rule options must be an object of option names and values")
    return option_values(OPTIONS, PRESETS, raw, DEFAULT_PRESET)
