"""Daqing mahjong rule options as declared data, and the preset ``daqing`` (RULES-mahjong.md §10).

:class:`Rules` is a frozen dataclass with one field per option of §10; code branches on the fields, never on a
preset's name.  :data:`OPTIONS` declares every option (type, range, whether it moves points) for the host.

>>> r = PRESETS["daqing"]
>>> r.base, r.auto_hu, r.ting_claim_first, r.ready_feeder_pays
(1, True, True, 'all_three')
>>> Rules.from_options({"preset": "daqing", "jia_37": True, "base": 10}).jia_37
True
>>> Rules.from_options({"base": 0})
Traceback (most recent call last):
...
qipai.core.options.OptionError: base must be at least 1, got 0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...core.options import Option, OptionError, OptionSet

FIRST_DEALER = ("random", "seat0")
READY_FEEDER_PAYS = ("all_three", "feeder_own")

OPTIONS = OptionSet([
    Option("first_dealer", str, "random", choices=FIRST_DEALER,
           doc="who deals the first deal of a table: drawn at random, or seat 0 (§2.2)"),
    Option("base", int, 1, lo=1, hi=1_000_000, points=True, doc="底分: the table's base (§7.2)"),
    Option("hu_requires_ting", bool, True, doc="only ready (上听) players may win (§4.3)"),
    Option("auto_hu", bool, True, doc="系统自动胡牌: the engine declares every possible win (§3.3, §9)"),
    Option("ting_claim_first", bool, True,
           doc="听牌优先: hu > peng ting > chi ting > peng > chi; off: hu > peng > chi (§3.2)"),
    Option("ready_feeder_pays", str, "all_three", choices=READY_FEEDER_PAYS, points=True,
           doc="a ready feeder: every loser pays his own share, or only the feeder pays his (§7.2)"),
    Option("need_sequence", bool, False, doc="a winning hand needs a sequence (§6.2.6)"),
    Option("bu_jia_bu_hu", bool, False, points=True, doc="不夹不胡: only 夹 wins count (§6.2.7)"),
    Option("jia_37", bool, False, points=True, doc="3·7夹: an edge wait (边) counts as 夹 (§6.3)"),
    Option("dan_diao_jia", bool, False, points=True, doc="单调夹: a single wait (单调) counts as 夹 (§6.3)"),
    Option("zhi_dui", bool, False, points=True, doc="支对: ting X zhidui Y narrows a 对倒 wait to Y, a 夹 (§6.6)"),
    Option("hongzhong_wild", bool, False, points=True, doc="红中满天飞: a ready player drawing 红中 wins as by 摸宝"),
    Option("gua_da_feng", bool, False, points=True,
           doc="刮大风: a ready player drawing a kind he has a triplet of wins as by 摸宝 (§5.4)"),
    Option("dai_lou", bool, False, points=True,
           doc="带漏: declaring 听 when the 宝 he then sees is one of his waits wins at once (§5.4)"),
    Option("turn_seconds", int, 15, lo=1, hi=600, doc="seconds for a discard or ting (§9)"),
    Option("claim_seconds", int, 8, lo=1, hi=120, doc="seconds for a claim window (§9)"),
])
"""Every option of §10 with its type, range and whether it changes how many points move."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option of one Daqing mahjong table; the defaults are the ``daqing`` preset."""

    first_dealer: str = "random"
    base: int = 1
    hu_requires_ting: bool = True
    auto_hu: bool = True
    ting_claim_first: bool = True
    ready_feeder_pays: str = "all_three"
    need_sequence: bool = False
    bu_jia_bu_hu: bool = False
    jia_37: bool = False
    dan_diao_jia: bool = False
    zhi_dui: bool = False
    hongzhong_wild: bool = False
    gua_da_feng: bool = False
    dai_lou: bool = False
    turn_seconds: int = 15
    claim_seconds: int = 8

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (checked like :meth:`from_options`)."""
        OPTIONS.check(changes)
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_options(cls, raw: Mapping[str, Any]) -> Rules:
        """Rules from ``{"preset": name, **overrides}``; raises :class:`OptionError` naming a bad option."""
        raw = dict(raw)
        preset = raw.pop("preset", "daqing")
        if preset not in PRESETS:
            raise OptionError(f"unknown preset {preset!r}: expected one of {', '.join(sorted(PRESETS))}")
        checked = OPTIONS.check(raw)
        return dataclasses.replace(PRESETS[preset], **checked)

    def to_options(self) -> dict[str, Any]:
        """Every option's value (JSON-ready)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


PRESETS: dict[str, Rules] = {"daqing": Rules()}
"""The named option sets; ``daqing`` (the default) is the column of §10."""
PRESET_OPTIONS: dict[str, dict[str, Any]] = {name: r.to_options() for name, r in PRESETS.items()}

DAQING = PRESETS["daqing"]


def preset_name(rules: Rules) -> str | None:
    """The preset whose options equal ``rules`` exactly, else ``None``.

    >>> preset_name(DAQING), preset_name(DAQING.replace(base=2))
    ('daqing', None)
    """
    for name, r in PRESETS.items():
        if r == rules:
            return name
    return None


__all__ = ["DAQING", "OPTIONS", "PRESETS", "PRESET_OPTIONS", "Rules", "preset_name"]
