"""玩法说明: a game's rules in words, built from a table's option values — one source for every client (the
browser's rules page and table dialog through ``/api/rules/<game>``, the terminal's ``rules`` command and
``qipai rules --explain``).

A game that words its rules implements :class:`~qipai.core.game.Explains` on its factory (``explain(options,
lang)``), as it gives its titles through :meth:`~qipai.core.game.GameFactory.title`; its words live in its own
folder (``qipai/games/<game>/explain.py``) and branch on option fields only, never on a preset's name, so a
private table's own options read right too.  What comes back is a list of :class:`Section`: a title and its
items, each a paragraph or a list of lines.

>>> w = Words({"cards": "每人 {n} 张"}, {"cards": "{n} {n|card|cards} each"})
>>> w("en", "cards", n=1), w("en", "cards", n=17), w("zh", "cards", n=17)
('1 card each', '17 cards each', '每人 17 张')
>>> s = Section("overview", "The game", ("One deck.", ("a", "b")))
>>> s.to_json()
{'id': 'overview', 'title': 'The game', 'items': ['One deck.', ['a', 'b']]}
>>> print(s.plain())
The game
One deck.
  • a
  • b
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeGuard

Lang = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = ("zh", "en")
"""The languages every game's words come in."""

Item = str | tuple[str, ...]
"""A paragraph, or a list of lines (drawn as a bulleted list)."""


def is_lang(value: object) -> TypeGuard[Lang]:
    """Whether ``value`` is one of :data:`LANGS`.

    >>> is_lang("en"), is_lang("fr"), is_lang(None)
    (True, False, False)
    """
    return value in LANGS


@dataclass(frozen=True, slots=True)
class Section:
    """One part of a game's rules: ``id`` (stable, e.g. ``scoring``: what a client may link or test), its
    ``title`` and its ``items`` in order."""

    id: str
    title: str
    items: tuple[Item, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: ``{"id", "title", "items"}``, a list item as a list of strings."""
        return {
            "id": self.id,
            "title": self.title,
            "items": [item if isinstance(item, str) else list(item) for item in self.items],
        }

    def texts(self) -> list[str]:
        """The title and every paragraph and line, flat."""
        out = [self.title]
        for item in self.items:
            out.extend([item] if isinstance(item, str) else item)
        return out

    def plain(self) -> str:
        """The section as plain text: its title, its paragraphs, its lists' lines bulleted."""
        lines = [self.title]
        for item in self.items:
            lines.extend([item] if isinstance(item, str) else [f"  • {x}" for x in item])
        return "\n".join(lines)


_PLURAL = re.compile(r"\{(\w+)\|([^|{}]*)\|([^{}]*)\}")
_SLOT = re.compile(r"\{(\w+)\}")


def number(value: object) -> str:
    """A number as the rules say it: a whole float without its ``.0`` (``5.0`` → ``5``), others as they are.

    >>> number(5.0), number(0.15), number(20), number(True), number("T")
    ('5', '0.15', '20', 'True', 'T')
    """
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return str(int(value))
    return str(value)


def fill(text: str, params: Mapping[str, object]) -> str:
    """``text`` with ``{name}`` filled from ``params`` and each ``{n|one|many}`` made its first word when ``n``
    is 1, else its second (English plurals); a slot without a value stays as it is.

    >>> fill("{n} {n|hand|hands}, {x}", {"n": 2})
    '2 hands, {x}'
    """

    def one(m: re.Match[str]) -> str:
        v = params.get(m[1])
        return m[2] if v is not None and not isinstance(v, bool) and v == 1 else m[3]

    def slot(m: re.Match[str]) -> str:
        return number(params[m[1]]) if m[1] in params else m[0]

    return _SLOT.sub(slot, _PLURAL.sub(one, text))


class Words:
    """A game's rules words in both languages: ``words(lang, key, **params)``.  Both tables must have the same
    keys (a missing English text is a bug, not a fallback)."""

    def __init__(self, zh: Mapping[str, str], en: Mapping[str, str]) -> None:
        if set(zh) != set(en):
            raise ValueError(f"words in one language only: {sorted(set(zh) ^ set(en))}")
        self.tables: dict[str, Mapping[str, str]] = {"zh": zh, "en": en}

    def __call__(self, lang: Lang, key: str, **params: object) -> str:
        return fill(self.tables[lang][key], params)


def sections_json(sections: Sequence[Section]) -> list[dict[str, Any]]:
    """Every section JSON-ready (:meth:`Section.to_json`)."""
    return [s.to_json() for s in sections]


__all__ = ["LANGS", "Item", "Lang", "Section", "Words", "fill", "is_lang", "number", "sections_json"]
