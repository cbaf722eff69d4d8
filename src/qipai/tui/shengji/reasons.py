"""Why the Shengji engine refused a play or a declaration, in the player's words.

The engine says why in English (:meth:`~qipai.games.shengji.game.ShengjiGame.check`), in its own notation (cards
as ``AS``, shapes as ``P2`` or ``2P + 2S``, "rank 2 of its requirement list").  An English player reads the
common reasons reworded in plain words, the cards as the table shows them (``A♠``); a Chinese player reads them
in Chinese with the cards, suits and counts they name — the same patterns the browser's table reads (``REASONS``
and ``reasonWords`` in ``web/js/games/shengji/view.js``, worded as in ``words.js``).  A reason no pattern knows
is the engine's sentence (in Chinese: a general phrase with it in parentheses), so nothing is lost.

>>> reason_words("zh", "play 2 cards (the lead has 2), not 4")
'张数不对：要出 2 张（首家出了 2 张），不是 4 张'
>>> reason_words("zh", "you hold 7 cards of hearts: play 2 of them")
'有同门的牌必须跟同门：你有 7 张红桃，要出其中 2 张'
>>> reason_words("en", "you hold 7 cards of hearts: play 2 of them")
'you hold 7 cards of hearts: play 2 of them'
>>> print(reason_words("en", "following a P2: your spades can form 2P (rank 2 of its requirement list); "
...                          "AS KS QS JS does not match")[25:])
the lead is a tractor of 2 pairs; your spades can give 2 pairs, so play them (A♠ K♠ Q♠ J♠ does not)
>>> reason_words("zh", "something new")
'规则不允许（something new）'
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..reasons import translate
from .view import cards_plain
from .words import tr

_SUIT_KEYS = {"spades": "S", "hearts": "H", "clubs": "C", "diamonds": "D"}
_SHAPE_WORDS = {"pairs": "对子", "triples": "三张", "quads": "四张"}


def _suit(name: str) -> str:
    """``hearts`` → 红桃, ``trumps`` → 主牌."""
    if name == "trumps":
        return "主牌"
    return tr("zh", "suit_" + _SUIT_KEYS[name]) if name in _SUIT_KEYS else name


def _cards(text: str, lang: str = "zh") -> str:
    """Card tokens in the engine's notation (``TH AS B``) as the table shows them (``10♥ A♠ 小王``)."""
    try:
        return cards_plain(text.split(), lang)
    except (ValueError, IndexError):
        return text


def _lv(level: str) -> str:
    return "10" if level == "T" else level


def _where(text: str) -> str:
    """``AS is in spades, AH is a trump`` → ``A♠ 是黑桃；A♥ 是主牌``."""
    out = []
    for part in text.split(", "):
        m = re.fullmatch(r"(\S+) is (?:a (trump)|in (\w+))", part.strip())
        if m is None:
            return text
        out.append(f"{_cards(m[1])} 是主牌" if m[2] else f"{_cards(m[1])} 是{_suit(m[3])}")
    return "；".join(out)


_UNITS = {"S": "单张", "P": "对子", "T": "三张", "Q": "四张"}
_TRACTORS = {"P": "对", "T": "组三张", "Q": "组四张"}


def _shape(text: str) -> str:
    """The engine's shape notation in words: ``P2 | Q`` → ``2 对的拖拉机 或 四张``, ``2P + S`` → ``2 个对子 加
    单张``."""
    def one(m: re.Match[str]) -> str:
        count, unit, k = m[1], m[2], m[3]
        if k and unit in _TRACTORS:
            return f"{k} {_TRACTORS[unit]}的拖拉机"
        return f"{count} 个{_UNITS[unit]}" if count else _UNITS[unit]

    words = re.sub(r"\b(\d*)([SPTQ])(\d*)\b", one, text)
    return re.sub(r"\s*\+\s*", " 加 ", re.sub(r"\s*\|\s*", " 或 ", words))


_FOLLOW_SUIT = "有同门的牌必须跟同门"
_FOLLOW_SHAPE = "要按首家的牌型跟（能出对子、拖拉机的先出）"
_NOT_HELD = "手里没有这些牌"
_COUNT = "张数不对"

_REASONS: list[tuple[str, Callable[[re.Match[str]], str]]] = [
    # the play
    (r"a lead must be of one effective suit: (.*)",
     lambda m: f"首家出的牌要是同一门（主牌算一门）：{_where(m[1])}"),
    (r"you hold (\d+) cards? of (\w+): play (\d+) of them",
     lambda m: f"{_FOLLOW_SUIT}：你有 {m[1]} 张{_suit(m[2])}，要出其中 {m[3]} 张"),
    (r"you hold only (\d+) cards? of (\w+) \(fewer than (\d+)\): play (?:it|all \d+) and fill up with other cards",
     lambda m: f"{_FOLLOW_SUIT}：你只有 {m[1]} 张{_suit(m[2])}（不到 {m[3]} 张），要全部出上，再用别的牌补足"),
    (r"following a P: your (\w+) can form P .*; play a pair",
     lambda m: f"{_FOLLOW_SHAPE}：首家出对子，你的{_suit(m[1])}有对子，要出对子"),
    (r"following a throw with (\d+) pairs?: your (\w+) can give (\d+), so play at least (\d+) pairs?",
     lambda m: f"{_FOLLOW_SHAPE}：首家甩的牌里有 {m[1]} 个对子，你的{_suit(m[2])}能出 {m[3]} 对，至少要出 {m[4]} 对"),
    (r"following an? (\S+): your (\w+) can form nothing before rank (\d+), by the key \(([^)]*)\): .*",
     lambda m: f"{_FOLLOW_SHAPE}：首家出 {_shape(m[1])}，你的{_suit(m[2])}要尽量多出"
               + "、".join(_SHAPE_WORDS.get(w.strip(), w.strip()) for w in m[4].split(","))),
    (r"following an? (\S+): your (\w+) can form (.*) \(rank (\d+) of its requirement list\); (.*) "
     r"(?:matches none of them|does not match)",
     lambda m: f"{_FOLLOW_SHAPE}：首家出 {_shape(m[1])}，你的{_suit(m[2])}能组成 {_shape(m[3])}，"
               f"{_cards(m[5])} 不合要求"),
    (r"following .*|.*requirement list.*", lambda m: _FOLLOW_SHAPE),
    (r"throws are off at this table: (.*) is not one combination",
     lambda m: f"本桌不能甩牌：{_cards(m[1])} 不是一手牌型"),
    (r"you hold no (\S+)", lambda m: f"{_NOT_HELD}：你没有 {_cards(m[1])}"),
    (r"you hold only (\d+) (\S+), not (\d+)",
     lambda m: f"{_NOT_HELD}：{_cards(m[2])} 你只有 {m[1]} 张，不是 {m[3]} 张"),
    (r"play (\d+) cards? \(the lead has (\d+)\), not (\d+)",
     lambda m: f"{_COUNT}：要出 {m[1]} 张（首家出了 {m[2]} 张），不是 {m[3]} 张"),
    (r"play \d+ cards?.*", lambda m: _COUNT),
    (r"play at least one card|a lead needs at least one card|play some cards", lambda m: "请至少出一张牌"),
    # the phases
    (r"the cards are being dealt: declare <level cards> or pass", lambda m: "现在是叫主的时候：只能叫主或不叫"),
    (r"it is the play: play <cards>", lambda m: "现在是出牌的时候：请出牌"),
    (r"it is seat (\d+)'s turn, not seat (\d+)'s", lambda m: f"还没轮到你（该 {m[1]} 号出牌）"),
    (r"seat \d+ has already answered this window", lambda m: "这次叫主你已经回答过了"),
    (r"the hand is over", lambda m: "这一局已经结束"),
    (r"pass takes nothing after it", lambda m: "不叫（pass）后面不能再写别的"),
    # declarations
    (r"declare shows 1 to 4 identical level cards \(level (\w+)\), e\.g\. declare (\S+)",
     lambda m: f"叫主要亮 1 到 4 张相同的级牌（打 {_lv(m[1])}），例如 declare {m[2]}"),
    (r"jokers cannot be declared", lambda m: "王不能用来叫主"),
    (r"a declaration shows identical cards: (.*) are not", lambda m: f"叫主要亮相同的牌：{_cards(m[1])} 不是相同的牌"),
    (r"(\S+) is not a level card: the level is (\w+)", lambda m: f"{_cards(m[1])} 不是级牌：现在打 {_lv(m[2])}"),
    (r"you hold (\d+) (\S+), not (\d+)", lambda m: f"你只有 {m[1]} 张 {_cards(m[2])}，亮不出 {m[3]} 张"),
    (r"your declaration stands: you may not overcall yourself", lambda m: "你的叫主还在：不能自己反自己"),
    (r"the standing declaration shows (\d+) cards?: an overcall needs more than \d+",
     lambda m: f"现在的叫主亮了 {m[1]} 张：反主要多于 {m[1]} 张"),
    # the notation
    (r"bad card '(.*)': .*", lambda m: f"看不懂的牌 {m[1]}：牌写作 7S、10H、B、R"),
]
_COMPILED = [(re.compile(p), f) for p, f in _REASONS]


# ---------------------------------------------------------------- in English
def _en_cards(text: str) -> str:
    return _cards(text, "en")


def _en_where(text: str) -> str:
    """``AS is in spades, AH is a trump`` → ``A♠ is in spades, A♥ is a trump``."""
    return re.sub(r"(\S+)(?= is )", lambda m: _en_cards(m[1]), text)


_EN_UNITS = {"S": ("a single", "singles"), "P": ("a pair", "pairs"), "T": ("a triple", "triples"),
             "Q": ("a set of four", "sets of four")}
_EN_KEY = {"quads": "sets of four", "triples": "triples", "pairs": "pairs"}


def _en_shape(text: str) -> str:
    """The engine's shape notation in words: ``P2`` → ``a tractor of 2 pairs``, ``2P + 2S`` → ``2 pairs and 2
    singles``, ``P2 | Q`` → ``a tractor of 2 pairs or a set of four``."""
    def one(m: re.Match[str]) -> str:
        count, unit, k = m[1], m[2], m[3]
        one_, many = _EN_UNITS[unit]
        if k and unit != "S":
            return f"a tractor of {k} {many}"
        return f"{count} {many}" if count and count != "1" else one_

    words = re.sub(r"\b(\d*)([SPTQ])(\d*)\b", one, text)
    return re.sub(r"\s*\+\s*", " and ", re.sub(r"\s*\|\s*", " or ", words))


_EN_FOLLOW = "follow the lead's shape"
_EN_REASONS: list[tuple[str, Callable[[re.Match[str]], str]]] = [
    (r"a lead must be of one effective suit: (.*)",
     lambda m: f"a lead must be all of one suit (all trumps count as one suit): {_en_where(m[1])}"),
    (r"following a P: your (\w+) can form P .*; play a pair",
     lambda m: f"{_EN_FOLLOW}: the lead is a pair and you hold a pair in {m[1]}, so play a pair"),
    (r"following a throw with (\d+) pairs?: your (\w+) can give (\d+), so play at least (\d+) (pairs?)",
     lambda m: f"{_EN_FOLLOW}: the throw has {m[1]} pair{'s' if m[1] != '1' else ''} and your {m[2]} can give "
               f"{m[3]}, so play at least {m[4]} {m[5]}"),
    (r"following an? (\S+): your (\w+) can form nothing before rank \d+, by the key \(([^)]*)\): .*",
     lambda m: f"{_EN_FOLLOW}: the lead is {_en_shape(m[1])}; play as many "
               + ", then ".join(_EN_KEY.get(w.strip(), w.strip()) for w in m[3].split(","))
               + f" of your {m[2]} as you can"),
    (r"following an? (\S+): your (\w+) can form (.*) \(rank \d+ of its requirement list\); (.*) "
     r"(?:matches none of them|does not match)",
     lambda m: f"{_EN_FOLLOW}: the lead is {_en_shape(m[1])}; your {m[2]} can give {_en_shape(m[3])}, so play "
               f"{'them' if '|' not in m[3] else 'one of these'} ({_en_cards(m[4])} does not)"),
    (r"following .*|.*requirement list.*", lambda m: f"{_EN_FOLLOW}: play pairs and tractors where you can"),
    (r"throws are off at this table: (.*) is not one combination",
     lambda m: f"throws are off at this table: {_en_cards(m[1])} is not one combination"),
    (r"you hold no (\S+)", lambda m: f"you hold no {_en_cards(m[1])}"),
    (r"you hold only (\d+) (\S+), not (\d+)", lambda m: f"you hold only {m[1]} {_en_cards(m[2])}, not {m[3]}"),
    (r"declare shows 1 to 4 identical level cards \(level (\w+)\), e\.g\. declare (\S+)",
     lambda m: f"a declaration shows 1 to 4 identical level cards (level {_lv(m[1])}), e.g. declare "
               f"{_lv(m[2][:-1])}{m[2][-1:]}"),
    (r"a declaration shows identical cards: (.*) are not",
     lambda m: f"a declaration shows identical cards: {_en_cards(m[1])} are not"),
    (r"(\S+) is not a level card: the level is (\w+)",
     lambda m: f"{_en_cards(m[1])} is not a level card: the level is {_lv(m[2])}"),
    (r"you hold (\d+) (\S+), not (\d+)",
     lambda m: f"you hold only {m[1]} {_en_cards(m[2])}, so you cannot show {m[3]}"),
]
_EN_COMPILED = [(re.compile(p), f) for p, f in _EN_REASONS]


def reason_words(lang: str, why: str) -> str:
    """The engine's reason ``why`` for ``lang`` (:func:`~qipai.tui.reasons.translate`; the cards and counts it
    names stay)."""
    return translate(lang, why, _COMPILED, _EN_COMPILED)
