"""Dou Dizhu titles by points (RULES.md §9).

>>> title_for(0), title_for(19), title_for(20), title_for(1000), title_for(2599), title_for(10**9)
('包身工', '包身工', '包身工', '商人', '商人', '帝王')
>>> title_for(50), title_for(-40)
('短工', '包身工')
"""

from __future__ import annotations

import bisect

TITLES: tuple[tuple[int, str], ...] = (
    (20, "包身工"),
    (50, "短工"),
    (80, "长工"),
    (120, "佃户"),
    (180, "贫农"),
    (200, "渔夫"),
    (300, "猎人"),
    (450, "中农"),
    (600, "富农"),
    (800, "掌柜"),
    (1000, "商人"),
    (2600, "小财主"),
    (3000, "大财主"),
    (3500, "小地主"),
    (5000, "大地主"),
    (7000, "知县"),
    (10000, "通判"),
    (15000, "知府"),
    (20000, "总督"),
    (30000, "巡抚"),
    (45000, "丞相"),
    (80000, "帝王"),
)
"""(points needed, title), lowest first."""

_THRESHOLDS = [t for t, _ in TITLES]


def title_for(points: int) -> str:
    """The title a player with ``points`` holds; below 20 points a player is 包身工 (RULES.md §9 decision)."""
    i = bisect.bisect_right(_THRESHOLDS, points) - 1
    return TITLES[max(i, 0)][1]
