"""Dou Dizhu titles by points (RULES.md §9).

>>> title_for(0), title_for(19), title_for(20), title_for(1000), title_for(2599), title_for(10**9)
('包身工', '包身工', '包身工', '商人', '商人', '帝王')
>>> title_for(50), title_for(-40)
('短工', '包身工')
>>> ENGLISH[title_for(1000)], all(name in ENGLISH for _, name in TITLES)
('Merchant', True)
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

ENGLISH: dict[str, str] = {
    "包身工": "Bonded labourer",
    "短工": "Day labourer",
    "长工": "Farmhand",
    "佃户": "Tenant farmer",
    "贫农": "Poor peasant",
    "渔夫": "Fisherman",
    "猎人": "Hunter",
    "中农": "Middle peasant",
    "富农": "Rich peasant",
    "掌柜": "Shopkeeper",
    "商人": "Merchant",
    "小财主": "Small squire",
    "大财主": "Great squire",
    "小地主": "Minor landlord",
    "大地主": "Great landlord",
    "知县": "County magistrate",
    "通判": "Assistant prefect",
    "知府": "Prefect",
    "总督": "Viceroy",
    "巡抚": "Governor",
    "丞相": "Chancellor",
    "帝王": "Emperor",
}
"""Each title's English name (the browser's ``title_<name>`` words in ``web/js/games/doudizhu/words.js``), for
the English output of the terminal client."""

_THRESHOLDS = [t for t, _ in TITLES]


def title_for(points: int) -> str:
    """The title a player with ``points`` holds; below 20 points a player is 包身工 (RULES.md §9 decision)."""
    i = bisect.bisect_right(_THRESHOLDS, points) - 1
    return TITLES[max(i, 0)][1]
