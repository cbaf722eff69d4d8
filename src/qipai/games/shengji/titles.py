"""Shengji titles (military ranks, 军衔: :data:`qipai.games.shengji.factory.TITLES`) in English.

The server names a title in Chinese (``/api/me``, a table's seats, ``deal_over``'s ``changes``); a client words
it in the player's language.  These are the browser's words (``title_<name>`` in
``web/js/games/shengji/words.js``), for the terminal client's English output.

>>> from qipai.games.shengji.factory import TITLES
>>> ENGLISH[TITLES[0][1]], all(name in ENGLISH for _, name in TITLES)
('Recruit', True)
"""

from __future__ import annotations

ENGLISH: dict[str, str] = {
    "新兵": "Recruit",
    "列兵": "Private",
    "上等兵": "Private first class",
    "下士": "Corporal",
    "中士": "Sergeant",
    "上士": "Staff sergeant",
    "少尉": "Second lieutenant",
    "中尉": "Lieutenant",
    "上尉": "Captain",
    "少校": "Major",
    "中校": "Lieutenant colonel",
    "上校": "Colonel",
    "将军": "General",
}
"""Each title's English name, by its Chinese name."""
