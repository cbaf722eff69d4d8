"""玩法说明 in the terminal: a game's rules in words (the game's own, :mod:`qipai.core.explain`) drawn for the console —
headings, paragraphs and bulleted lists, wrapped to the terminal's width (a list line's continuation under its
text, not under the bullet).  ``rules`` at a table of ``qipai play`` and ``qipai online``, ``rules PRESET`` in the
online lobby and ``qipai rules --game G --explain PRESET`` print them.

>>> from rich.console import Console
>>> console = Console(width=48, highlight=False, markup=False, emoji=False, color_system=None)
>>> parts = [Section("x", "Scoring", ("Every fan doubles the share of each loser.", ("Self-drawn: the winner "
...          "drew the winning tile himself.", "Dealer.")))]
>>> with console.capture() as cap:
...     for r in rules_renderables(parts, "How to play · daqing"):
...         console.print(r)
>>> print("\\n".join(line.rstrip() for line in cap.get().splitlines()))
How to play · daqing
<BLANKLINE>
Scoring
Every fan doubles the share of each loser.
  • Self-drawn: the winner drew the winning tile
    himself.
  • Dealer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType
from rich.text import Text

from ..core.explain import Lang, Section, is_lang
from ..core.game import explain_rules
from ..core.registry import get_factory

TITLE = {"zh": "玩法说明", "en": "How to play"}
NONE = {"zh": "这个游戏还没有玩法说明。", "en": "This game has no rules in words yet."}


def heading(lang: str, game_title: str, preset: str | None = None) -> str:
    """``玩法说明 · 斗地主 · chengdu``: what the rules are of.

    >>> heading("en", "Dou Dizhu", "chengdu"), heading("zh", "升级")
    ('How to play · Dou Dizhu · chengdu', '玩法说明 · 升级')
    """
    parts = [TITLE.get(lang, TITLE["en"]), game_title, *([preset] if preset else [])]
    return " · ".join(parts)


def section_json(data: Mapping[str, Any]) -> Section:
    """A section as ``/api/rules`` sends it, read back (a list item as a tuple of lines)."""
    items = tuple(str(i) if isinstance(i, str) else tuple(str(x) for x in i) for i in data.get("items") or [])
    return Section(str(data.get("id", "")), str(data.get("title", "")), items)


_TOKEN = re.compile(r"\s+|[\x21-\x7e♠♥♣♦×…·→≤≥—–]+|.")
_CLOSING = set("，。、；：？！）」』》”’,.;:!?)")
_OPENING = set("（「『《“‘(")


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells: English breaks at spaces (a Chinese term in it stays whole),
    Chinese between any two characters (never before a closing mark such as ，or after an opening one such as （);
    a word longer than a line is cut.

    >>> wrap("Every fan doubles the share.", 12)
    ['Every fan', 'doubles the', 'share.']
    >>> wrap("the banker side (庄家方), the other", 22)
    ['the banker side', '(庄家方), the other']
    >>> wrap("先叫牌定地主：地主拿走底牌，一个人对其余 2 家农民。", 20)
    ['先叫牌定地主：地主拿', '走底牌，一个人对其余', '2 家农民。']
    """
    tokens: list[str] = []
    glue = False
    english = len(re.findall(r"[A-Za-z]", text)) > len(re.findall(r"[\u4e00-\u9fff]", text))
    for tok in re.findall(r"\s+|\S+", text) if english else _TOKEN.findall(text):
        if tokens and not tok.isspace() and (tok[0] in _CLOSING or glue):
            tokens[-1] += tok
        else:
            tokens.append(tok)
        glue = not tok.isspace() and tok[-1] in _OPENING
    lines: list[str] = []
    line = ""
    space = ""
    for tok in tokens:
        if tok.isspace():
            space = " " if line else ""
            continue
        if cell_len(line + space + tok) <= width:
            line += space + tok
        else:
            if line:
                lines.append(line)
            line = tok
            while cell_len(line) > width > 0:  # (a word longer than a line)
                cut = max(1, next(i for i in range(len(line), 0, -1) if cell_len(line[:i]) <= width))
                lines.append(line[:cut])
                line = line[cut:]
        space = ""
    if line:
        lines.append(line)
    return lines


class Wrapped:
    """A paragraph (``first`` before its first line, ``indent`` before the others) wrapped to the console's width
    at draw time."""

    def __init__(self, text: str, first: str = "", indent: str = "", style: str = "") -> None:
        self.text, self.first, self.indent, self.style = text, first, indent, style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        width = max(8, options.max_width - max(cell_len(self.first), cell_len(self.indent)))
        for i, line in enumerate(wrap(self.text, width) or [""]):
            yield Text((self.indent if i else self.first) + line, style=self.style, no_wrap=True, end="\n")


def rules_renderables(sections: Sequence[Section], head: str, lang: str = "en") -> list[RenderableType]:
    """The rules drawn: ``head`` (bold), then each section's title (bold) and items; a list's lines bulleted with a
    hanging indent.  No sections: one line saying the game has none."""
    out: list[RenderableType] = [Wrapped(head, style="bold")]
    if not sections:
        out.append(Wrapped(NONE.get(lang, NONE["en"]), style="dim"))
        return out
    for s in sections:
        out.append(Text(""))
        out.append(Wrapped(s.title, style="bold"))
        for item in s.items:
            if isinstance(item, str):
                out.append(Wrapped(item))
            else:
                out.extend(Wrapped(line, "  • ", "    ") for line in item)
    return out


def game_rules(game: str, options: Mapping[str, Any], lang: str, preset: str | None = None) -> list[RenderableType]:
    """The rules of a table of ``game`` with ``options`` in ``lang`` (the game's words through the registry),
    drawn; the heading names the game and ``preset`` (else the options' own)."""
    factory = get_factory(game)
    language: Lang = lang if is_lang(lang) else "en"
    sections = explain_rules(factory, options, language)
    name = factory.info.titles.get(language, factory.info.name)
    shown = preset if preset is not None else options.get("preset")
    return rules_renderables(sections, heading(language, name, shown if isinstance(shown, str) else None), language)
