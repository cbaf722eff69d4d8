"""Daqing mahjong titles (the 21 levels, 级别: :data:`qipai.games.mahjong.levels.LEVEL_NAMES`) in English.

The server names a title in Chinese (``/api/me``, a table's seats, ``deal_over``'s ``changes``); a client words
it in the player's language.  These are the browser's words (``title_<name>`` in
``web/js/games/mahjong/words.js``), for the terminal client's English output.

>>> from qipai.games.mahjong.levels import LEVEL_NAMES
>>> ENGLISH[LEVEL_NAMES[0]], all(name in ENGLISH for name in LEVEL_NAMES)
('Novice', True)
"""

from __future__ import annotations

ENGLISH: dict[str, str] = {
    "新手": "Novice",
    "入门": "Beginner",
    "初级": "Elementary",
    "中级": "Intermediate",
    "高级": "Advanced",
    "三流好手": "Third-rate player",
    "二流好手": "Second-rate player",
    "一流好手": "First-rate player",
    "三流高手": "Third-rate expert",
    "二流高手": "Second-rate expert",
    "一流高手": "First-rate expert",
    "县级大师": "County master",
    "市级大师": "City master",
    "省级大师": "Provincial master",
    "国家大师": "National master",
    "国际大师": "International master",
    "特级大师": "Grandmaster",
    "顶级大师": "Top grandmaster",
    "麻将部长": "Mahjong minister",
    "麻将总理": "Mahjong premier",
    "麻将主席": "Mahjong chairman",
}
"""Each title's English name, by its Chinese name."""
