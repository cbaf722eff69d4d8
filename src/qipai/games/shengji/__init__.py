"""Four-deck Shengji (升级 / 拖拉机), seed 003 as specified in ``RULES-shengji.md``.

Rules core (pure, stdlib only): :mod:`.cards` (notation, card order), :mod:`.combos` (units, tractors, leads,
throws, trick winner), :mod:`.follow` (requirement lists, follow check, passive choice), :mod:`.scoring` (扣底,
level changes, match end, settlement).  The game: :class:`ShengjiGame`; the factory :data:`FACTORY`; bots in
:mod:`.bots`.

>>> g = FACTORY.new(FACTORY.options({}), seed=1, context={})
>>> g.players, g.phase, FACTORY.info.name
(4, 'deal', 'shengji')
"""

from __future__ import annotations

from .cards import (
    TRUMP,
    Order,
    card,
    counts,
    format_cards,
    order,
    parse_cards,
    points,
)
from .combos import Combo, Lead, combination, failed_throw, is_tractor, read_lead, tractors, trick_winner
from .factory import FACTORY, INFO, ShengjiFactory
from .follow import follow_error, follow_options, lead_error, passive_follow, passive_lead, requirement_list
from .game import ShengjiGame, lead_options
from .rules import OPTIONS, PRESETS, resolve_options
from .scoring import hand_result, last_trick_amount, level_change, settle_scores

__all__ = [
    "FACTORY",
    "INFO",
    "OPTIONS",
    "PRESETS",
    "TRUMP",
    "Combo",
    "Lead",
    "Order",
    "ShengjiFactory",
    "ShengjiGame",
    "card",
    "combination",
    "counts",
    "failed_throw",
    "follow_error",
    "follow_options",
    "format_cards",
    "hand_result",
    "is_tractor",
    "last_trick_amount",
    "lead_error",
    "lead_options",
    "level_change",
    "order",
    "parse_cards",
    "passive_follow",
    "passive_lead",
    "points",
    "read_lead",
    "requirement_list",
    "resolve_options",
    "settle_scores",
    "tractors",
    "trick_winner",
]
