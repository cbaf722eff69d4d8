"""The terminal's words tables, one language at a time: every key of each table is in both languages (a key in one
only fell back to the other, or raised a KeyError), and the English words hold no Chinese but deliberate glosses —
as the browser's (tests/web/test_web_language.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from qipai.tui import i18n
from qipai.tui.mahjong import words as mahjong_words
from qipai.tui.online import words as online_words
from qipai.tui.shengji import words as shengji_words

TABLES: dict[str, Mapping[str, Mapping[str, str]]] = {
    "doudizhu (qipai.tui.i18n)": i18n._WORDS,
    "shengji": shengji_words.WORDS,
    "mahjong": mahjong_words.WORDS,
    "online": {"en": online_words._EN, "zh": online_words._ZH},
}

EN_GLOSSES = [
    # a Chinese term in parentheses after its English words: "Auto-play on (托管)", "Treasure (宝)", "(包三家)"
    r"\([^()\n]*\)",
    # what a player may type for the jokers, as the Dou Dizhu help lists it ("also 小王, 大王, and 王炸 / 火箭")
    r"小王|大王|王炸|火箭",
    # Daqing mahjong's names for a drawn deal and for the feeder paying for all, each followed by its meaning
    # ("荒庄: nobody won", "包三家: {name} fed the win …")
    r"荒庄: |包三家: ",
    # the words a name may not hold or start with, which a player must know as they are ("a name may not hold
    # admin, …, 管理员, 官方, 客服 or 系统", "names starting with bot, guest, 电脑 or 游客")
    r"管理员|官方|客服|系统|电脑|游客",
]
"""What CJK an English value may hold: each pattern is removed before the check."""

CJK = re.compile(r"[\u4e00-\u9fff]")
PARAMS: dict[str, Any] = {"name": "alice", "need": 100, "have": 40, "seconds": 30, "limit": 5, "room": "classic-1",
                          "invite": "ABC123", "invite_code": "ABC123", "field": "name", "param": "game"}


def chinese_left(text: str) -> str:
    for p in EN_GLOSSES:
        text = re.sub(p, " ", text)
    return "".join(CJK.findall(text))


def worded(w: str | Callable[[Mapping[str, Any]], str], **params: Any) -> str:
    return w({**PARAMS, **params}) if callable(w) else w


@pytest.mark.parametrize("name", list(TABLES))
def test_every_key_is_in_both_languages(name: str) -> None:
    words = TABLES[name]
    assert set(words) == {"en", "zh"}, name
    assert not set(words["en"]) - set(words["zh"]), f"{name}: in English only: {set(words['en']) - set(words['zh'])}"
    assert not set(words["zh"]) - set(words["en"]), f"{name}: in Chinese only: {set(words['zh']) - set(words['en'])}"


@pytest.mark.parametrize("name", list(TABLES))
def test_the_english_words_hold_no_chinese_but_glosses(name: str) -> None:
    bad = {k: v for k, v in TABLES[name]["en"].items() if chinese_left(v)}
    assert not bad, f"{name}: Chinese in English: {bad}"


def test_the_online_errors_phrases_and_names_in_english_hold_no_chinese_but_glosses() -> None:
    texts = {f"error {code}": worded(en) for code, (_zh, en) in online_words.ERROR_WORDS.items()}
    for reason in ("staff", "reserved", "other", "control"):
        texts[f"error bad_name/{reason}"] = worded(online_words.ERROR_WORDS["bad_name"][1], reason=reason)
        texts[f"error bad_password/{reason}"] = worded(online_words.ERROR_WORDS["bad_password"][1], reason=reason)
    texts["error unknown code"] = online_words.error_words("en", "no_such_code")
    texts.update({f"phrase {p}": online_words.phrase_words(p, "en") for p in online_words.PHRASES})
    texts.update({f"name {n}": online_words.display_name(n, "en") for n in ("bot:heuristic:2", "bot:search",
                                                                             "guest-00ab12cd")})
    texts.update({f"bot {b}": i18n.bot_name(b, "en") for b in i18n.BOT_NAMES["zh"]})
    texts.update({f"kind {k}": i18n.kind_name(k, "en") for k in i18n.KIND_NAMES_EN})
    texts.update({f"doubling {k}": v for k, v in i18n.DOUBLING_EN.items()})
    bad = {k: v for k, v in texts.items() if chinese_left(v)}
    assert not bad, f"Chinese in English: {bad}"
    # every phrase the server accepts has its words, and every bot its name, in both languages
    assert set(online_words.PHRASE_WORDS) == set(online_words.PHRASES)
    assert set(i18n.BOT_NAMES["en"]) == set(i18n.BOT_NAMES["zh"])
    assert set(i18n.KIND_NAMES_EN) == set(i18n.KIND_NAMES_ZH)
