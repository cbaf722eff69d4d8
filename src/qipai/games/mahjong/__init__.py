"""Daqing mahjong (大庆麻将, seed 004; RULES-mahjong.md): 112 tiles (筒条万 and 红中), two or three suits, an open
hand, a triplet, a 1 or 9, no kong, 上听 and 吃听, the 宝 with 摸宝 and 宝中宝, 夹 wins, 包三家 and doubling fans.

Modules: :mod:`.tiles` (tiles and notation), :mod:`.melds`, :mod:`.rules` (options and the preset ``daqing``),
:mod:`.hand` (win check, readings and 夹, waits, fans, 向听), :mod:`.settle` (shares and payments),
:mod:`.levels`, :mod:`.actions`, :mod:`.state` (the game), :mod:`.observe`, :mod:`.hints`, :mod:`.resample`,
:mod:`.factory` and :mod:`.bots`.
"""

from .factory import FACTORY, INFO, MahjongFactory
from .hand import fans, is_win, shanten, waits
from .rules import DAQING, PRESETS, Rules
from .settle import settle
from .state import MahjongGame

__all__ = ["DAQING", "FACTORY", "INFO", "PRESETS", "MahjongFactory", "MahjongGame", "Rules", "fans", "is_win",
           "settle", "shanten", "waits"]
