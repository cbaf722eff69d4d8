"""The 21 levels (级别, RULES-mahjong.md §8): a player's level by his points in this game.

Row ``n >= 2`` needs ``200 × 2^(n−2)`` points; below 200 (negative included) a player is 新手.

>>> [title(p) for p in (-35, 199, 200, 12799, 104857599, 104857600, 10**12)]
['新手', '新手', '入门', '二流好手', '麻将总理', '麻将主席', '麻将主席']
>>> level(400)
(3, '初级')
"""

from __future__ import annotations

import bisect

LEVEL_NAMES = (
    "新手", "入门", "初级", "中级", "高级", "三流好手", "二流好手", "一流好手", "三流高手", "二流高手", "一流高手",
    "县级大师", "市级大师", "省级大师", "国家大师", "国际大师", "特级大师", "顶级大师", "麻将部长", "麻将总理",
    "麻将主席",
)
THRESHOLDS = tuple(200 * 2 ** (n - 2) for n in range(2, 22))
"""Points needed for rows 2..21."""


def level(points: int) -> tuple[int, str]:
    """``(row, name)`` of the highest row whose points ``points`` reaches."""
    i = bisect.bisect_right(THRESHOLDS, points)
    return i + 1, LEVEL_NAMES[i]


def title(points: int) -> str:
    """The level name for ``points``."""
    return level(points)[1]


TITLE_TABLE: tuple[tuple[int, str], ...] = ((0, LEVEL_NAMES[0]), *zip(THRESHOLDS, LEVEL_NAMES[1:], strict=True))
"""(points needed, name), lowest first, for the platform's title progress (row 1 from 0: below 0 is 新手 too).

>>> TITLE_TABLE[:3]
((0, '新手'), (200, '入门'), (400, '初级'))
"""

__all__ = ["LEVEL_NAMES", "THRESHOLDS", "TITLE_TABLE", "level", "title"]
