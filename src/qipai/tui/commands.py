"""Reading what the player types: commands, choices and plays, each mistake explained in one line.

>>> parse_command("h", "play")
Command(name='hint', arg='')
>>> parse_command("玩法", "bid"), parse_command("rules", "between")
(Command(name='rules', arg=''), Command(name='rules', arg=''))
>>> parse_command("10 10 J J Q Q", "play")
Command(name='play', arg='10 10 J J Q Q')
>>> parse_command("2", "bid")
Command(name='choice', arg='bid 2')
>>> parse_command("叫三分", "bid")
Command(name='choice', arg='bid 3')
>>> read_ranks("33 10 j")
([0, 0, 7, 8], None)
>>> read_ranks("3x")
(None, '3x')
>>> parse_command("bid 3", "play")
Command(name='past', arg='bid 3')
>>> parse_command("double (倒)", "double")
Command(name='choice', arg='double*')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..games.doudizhu.cards import NUM_RANKS, RANK_LETTERS
from ..games.doudizhu.combos import Move, beats, classify
from ..games.doudizhu.rules import KIND_NAMES_ZH, KINDS, Rules
from .i18n import kind_name, tr

_ALIASES: dict[str, str] = {}
for _name, _words in {
    "pass": ("pass", "p", "不出", "不要", "要不起", "过", "不叫", "不加倍", "不亮"),
    "hint": ("hint", "h", "提示"),
    "auto": ("auto", "autoplay", "托管", "解除托管"),
    "sort": ("sort", "排序"),
    "last": ("last", "上手牌", "上手"),
    "history": ("history", "hist", "历史", "历史得分"),
    "result": ("result", "结果"),
    "help": ("help", "?", "？", "帮助"),
    "rules": ("rules", "规则", "玩法", "玩法说明"),
    "quit": ("quit", "q", "exit", "退出", "逃跑"),
}.items():
    for _w in _words:
        _ALIASES[_w] = _name

_CALL_WORDS = ("call", "c", "叫", "叫地主", "抢地主")
_DOUBLE_WORDS = ("double", "d", "倒", "斡", "加倍")
_REDOUBLE_WORDS = ("redouble", "r", "反", "垒", "加倍")
_SHOW_WORDS = ("show", "s", "亮牌", "明牌")
_PAST_WORDS = ("bid", "call", "double", "redouble", "show", "叫", "叫地主", "抢地主", "加倍", "亮牌", "明牌")
"""Words of the phases before play, typed in play (``bid 3``): said to be over, not read as cards."""

_ZH_DIGITS = str.maketrans({"一": "1", "二": "2", "两": "2", "三": "3"})
"""A bid typed in Chinese numerals (``一分``, ``叫三分``)."""

KIND_OF_NAME: dict[str, str] = {k: k for k in KINDS}
KIND_OF_NAME.update({v: k for k, v in KIND_NAMES_ZH.items()})


@dataclass(frozen=True)
class Command:
    """One line of input: ``name`` is a command (``hint``, ``quit`` …), ``play`` (``arg``: the typed cards),
    ``choice`` (``arg``: a text action such as ``bid 2``), ``past`` (a choice of an earlier phase typed in play),
    ``empty`` or ``unknown`` (``arg``: the text)."""

    name: str
    arg: str = ""


def parse_command(line: str, phase: str) -> Command:
    """Read one typed line in a phase (``bid``, ``double``, ``show``, ``play`` or ``between`` deals)."""
    text = line.strip()
    if not text:
        return Command("empty")
    low = text.lower()
    if low in _ALIASES:
        return Command(_ALIASES[low])
    if phase in ("bid", "double", "show"):  # a choice typed as the prompt shows it: ``double (倒)``, ``double（倒）``
        low = re.sub(r"\s*[(（][^()（）]*[)）]$", "", low) or low
        if low in _ALIASES:
            return Command(_ALIASES[low])
    if phase == "bid":
        words = low.replace("分", "").translate(_ZH_DIGITS).split()
        if words and words[0] in ("bid", "叫"):
            words = words[1:]
        elif len(words) == 1 and words[0][:1] == "叫":  # 叫三分, 叫3分, 叫3: the bid written as one word
            words = [words[0][1:]]
        if len(words) == 1 and words[0] in ("1", "2", "3"):
            return Command("choice", f"bid {words[0]}")
        if low in _CALL_WORDS:
            return Command("choice", "call")
        return Command("unknown", text)
    if phase == "double":
        if low in _DOUBLE_WORDS or low in _REDOUBLE_WORDS or low in ("y", "yes"):
            return Command("choice", "double*")
        return Command("unknown", text)
    if phase == "show":
        if low in _SHOW_WORDS or low in ("y", "yes"):
            return Command("choice", "show")
        return Command("unknown", text)
    if phase == "play":
        if low.startswith("play "):
            text = text[5:].strip()
        elif low.split()[0] in _PAST_WORDS:
            return Command("past", text)
        return Command("play", text)
    return Command("unknown", text)


_JOKER_WORDS = {"大王": "R", "小王": "B", "王炸": "BR", "火箭": "BR"}
"""The jokers as the Chinese table names them: 大王 the red (big) joker ``R``, 小王 the black (small) one ``B``,
王炸 / 火箭 one of each (the rocket with one deck; two decks' ``BBRR`` is 王炸王炸)."""


def read_ranks(text: str) -> tuple[list[int] | None, str | None]:
    """Ranks from what a person types (``10`` or ``T`` for ten, any case, spaces and commas; the jokers also as
    大王, 小王 and 王炸 / 火箭 for both), ascending; or ``(None, bad_token)``.

    >>> read_ranks("大王"), read_ranks("33 小王"), read_ranks("王炸")
    (([14], None), ([0, 0, 13], None), ([13, 14], None))
    """
    out: list[int] = []
    i = 0
    word = 0  # where the word being read began: a bad token is named whole (``bomb``, not ``omb``)
    while i < len(text):
        ch = text[i]
        if ch in " ,，\t":
            i += 1
            word = i
            continue
        if text.startswith("10", i):
            out.append(7)
            i += 2
            continue
        joker = next((w for w in _JOKER_WORDS if text.startswith(w, i)), None)
        if joker is not None:
            out += [RANK_LETTERS.index(letter) for letter in _JOKER_WORDS[joker]]
            i += len(joker)
            continue
        up = ch.upper()
        if up in RANK_LETTERS:
            out.append(RANK_LETTERS.index(up))
            i += 1
            continue
        j = i
        while j < len(text) and text[j] not in " ,，\t":
            j += 1
        return None, text[word:j]
    out.sort()
    return out, None


def ranks_label(ranks: list[int] | tuple[int, ...] | str, lang: str) -> str:
    """Ranks as a person reads them: ``TTJ`` → ``10 10 J`` (jokers named in Chinese)."""
    if isinstance(ranks, str):
        ranks = [RANK_LETTERS.index(ch) for ch in ranks]
    names = []
    for r in ranks:
        if r == 7:
            names.append("10")
        elif r >= 13 and lang == "zh":
            names.append("小王" if r == 13 else "大王")
        else:
            names.append(RANK_LETTERS[r])
    return " ".join(names)


def check_play(
    counts: list[int] | tuple[int, ...], text: str, last: Move | None, rules: Rules, lang: str
) -> tuple[str | None, str | None]:
    """Check a typed play against the hand ``counts`` and the move to beat.

    Returns ``(action, None)`` with the text action to apply (``play 33344``), or ``(None, message)`` with one
    line saying what is wrong.

    >>> from qipai.games.doudizhu.rules import PRESETS
    >>> from qipai.games.doudizhu.cards import counts_of, parse_ranks
    >>> hand = counts_of(parse_ranks("333445567"))
    >>> check_play(hand, "33344", None, PRESETS["classic"], "en")
    ('play 33344', None)
    >>> check_play(hand, "888", None, PRESETS["classic"], "en")[1]
    'You do not hold 8 8 8: missing 8 8 8.'
    >>> check_play(hand, "34", None, PRESETS["classic"], "en")[1]
    '3 4 is not a combination at this table.'
    """
    parts = text.split(":")
    if len(parts) > 3:
        return None, tr(lang, "err_unreadable", token=_cut(text))
    ranks, bad = read_ranks(parts[0])
    if ranks is None:
        return None, tr(lang, "err_unreadable", token=_cut(bad or ""))
    if not ranks:
        return None, tr(lang, "err_empty")
    kind = None
    if len(parts) >= 2:
        kname = parts[1].strip().lower().replace(" ", "_").replace("-", "_")
        kind = KIND_OF_NAME.get(kname) or KIND_OF_NAME.get(parts[1].strip())
        if kind is None:
            kinds = ", ".join(k for k in KINDS if k in rules.kinds)
            return None, tr(lang, "err_unknown_kind", kind=_cut(parts[1].strip()), kinds=kinds)
    main = None
    if len(parts) == 3:
        m_ranks, bad = read_ranks(parts[2])
        if m_ranks is None or len(m_ranks) != 1:
            return None, tr(lang, "err_unreadable", token=_cut(parts[2].strip()))
        main = m_ranks[0]
    want = [0] * NUM_RANKS
    for r in ranks:
        want[r] += 1
    shown = _cut(ranks_label(ranks, lang))
    missing = [r for r in range(NUM_RANKS) for _ in range(max(0, want[r] - counts[r]))]
    if missing:
        return None, tr(lang, "err_not_held", cards=shown, missing=_cut(ranks_label(missing, lang)))
    try:
        readings = classify(tuple(want), rules)
    except ValueError:
        readings = []
    if not readings:
        return None, tr(lang, "err_not_combo", cards=shown)
    if kind is not None:
        readings = [m for m in readings if m.kind == kind]
        if not readings:
            return None, tr(lang, "err_not_kind", cards=shown, kind=kind_name(kind, lang))
    if main is not None:
        readings = [m for m in readings if m.main == main]
        if not readings:
            return None, tr(lang, "err_main", cards=shown, kind=kind_name(kind or "single", lang),
                            main=ranks_label([main], lang))
    if last is not None:
        good = [m for m in readings if beats(m, last, rules)]
        if not good:
            return None, tr(lang, "err_not_beat", cards=shown, kind=kind_name(readings[0].kind, lang),
                            last=ranks_label(last.ranks, lang), last_kind=kind_name(last.kind, lang))
        readings = good
    if len(readings) > 1:
        options = ", ".join(m.label(rules) for m in readings)
        return None, tr(lang, "err_ambiguous", cards=shown, options=options)
    return "play " + readings[0].label(rules), None


def _cut(text: str, most: int = 60) -> str:
    """``text`` cut to ``most`` characters for an error line (a pasted run of cards is not echoed whole)."""
    return text if len(text) <= most else text[:most - 1] + "…"

