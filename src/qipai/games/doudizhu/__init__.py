"""Dou Dizhu (斗地主): rules as data, combinations, legal moves, the deal flow and settlement."""

from .combos import Move, MoveError, beats, classify, parse_move
from .moves import legal_moves
from .rules import KINDS, PRESETS, Rules, RulesError, preset_name

__all__ = [
    "KINDS",
    "PRESETS",
    "Move",
    "MoveError",
    "Rules",
    "RulesError",
    "beats",
    "classify",
    "legal_moves",
    "parse_move",
    "preset_name",
]
