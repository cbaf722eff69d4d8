"""Account names: what a name may look like, and the key that makes look-alike names collide.

A name is compared by its *key*: NFKC-normalised (full-width ``ｇｕｅｓｔ`` becomes ``guest``), case-folded, and
with letters that look like Latin ones in other scripts mapped onto them (Cyrillic ``а`` → ``a``, Greek ``ο``
→ ``o``; a Greek capital by the Latin capital it looks like, ``Η`` → ``h``, before the case is folded), so
``Ａｌｉｃｅ01``, ``аlice01`` and ``ALICE01`` are all taken once ``alice01`` is.
A name may not mix scripts within its letters (Latin with Cyrillic, say), since that is how look-alikes are made;
Chinese with Latin letters and digits is fine (``小明abc``).

>>> name_key("Ａｌｉｃｅ01"), name_key("аlice01") == name_key("alice01")
('alice01', True)
>>> name_key("ΝΙΚΕ263") == name_key("NIKE263"), name_key("ΜΑΥΑ") == name_key("maya")
(True, True)
>>> check_name("ｂｏｔ1")
Traceback (most recent call last):
...
qipai.store.names.BadName: names starting with 'guest' or 'bot' (or 电脑, 游客) are reserved
>>> check_name("аlice01")
Traceback (most recent call last):
...
qipai.store.names.BadName: a name may not mix letters of different scripts (Cyrillic and Latin)
>>> check_name("官方客服")
Traceback (most recent call last):
...
qipai.store.names.BadName: a name may not pass for the server's staff (admin, system, 官方, 客服…)
>>> check_name("  小明abc ")
'小明abc'
"""

from __future__ import annotations

import re
import unicodedata

RESERVED_PREFIXES = ("guest", "bot", "电脑", "電腦", "游客", "遊客")
"""What guests' and bots' names begin with, and how the Chinese client words them (``电脑1号`` for a bot seat,
``游客0427`` for a guest): a player named so would pass for one."""
RESERVED_WORDS = ("admin", "moderator", "official", "system", "管理员", "管理員", "官方", "客服", "系统", "系統")
"""Words a name may not hold anywhere (``Admin_Li``, ``官方客服``, ``系统消息``): such a name passes, in the chat or
a friend request, for the server's operator or its staff."""
MIN_LEN, MAX_LEN = 2, 24

# Letters of other scripts that are drawn like Latin letters (the common confusables of Cyrillic and Greek).
_CONFUSABLE = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
        "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w",
        "ɡ": "g", "һ": "h", "ӏ": "l", "ь": "b",
        # Greek
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
        "υ": "u", "χ": "x", "ω": "w", "γ": "y", "ϲ": "c", "ϳ": "j",
        # digits and signs that read as letters
        "０": "0", "ı": "i",
    }
)

# Capitals drawn like Latin capitals whose small letters are drawn like other Latin letters (Greek Η is an H but η
# an n; Ν an N but ν a v): mapped before the case is folded, or ``ΝΙΚΕ`` would key as ``vike``, not ``nike``.
_CONFUSABLE_CAPITALS = str.maketrans(
    {
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
        "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    }
)

_ALLOWED = re.compile(r"^[\w.-]+$")

INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
"""The Hangul fillers: letters to Unicode (``isalnum``, general category Lo) that draw nothing.  ``ㅤㅤ`` made a
blank name, and ``ㅤalice01`` one drawn as ``alice01`` under another key (U+3164 and U+FFA0 are U+1160 after
NFKC; all four are Default_Ignorable_Code_Points, like the format characters refused by category)."""


class BadName(ValueError):
    """A name that may not be used; the message says why and ``reason`` names the rule it broke (``length``,
    ``characters``, ``invisible``, ``mixed_scripts``, ``reserved``, ``staff``)."""

    def __init__(self, message: str, reason: str = "characters") -> None:
        super().__init__(message)
        self.reason = reason


def name_key(name: str) -> str:
    """The key names are unique by (see the module docstring)."""
    n = unicodedata.normalize("NFKC", name).translate(_CONFUSABLE_CAPITALS).casefold()
    return unicodedata.normalize("NFKC", n.translate(_CONFUSABLE))


def _script(ch: str) -> str | None:
    """A letter's script, coarsely (``None`` for digits, marks and punctuation)."""
    if not ch.isalpha():
        return None
    try:
        uname = unicodedata.name(ch)
    except ValueError:
        return "OTHER"
    if "CJK" in uname or "HIRAGANA" in uname or "KATAKANA" in uname or "HANGUL" in uname or "BOPOMOFO" in uname:
        return "CJK"
    return uname.split(" ", 1)[0]


def check_name(name: str) -> str:
    """The name as it will be stored (NFKC, trimmed), or :class:`BadName` saying what is wrong."""
    if not isinstance(name, str):
        raise BadName("a name is text", "characters")
    n = unicodedata.normalize("NFKC", name).strip()
    if not MIN_LEN <= len(n) <= MAX_LEN:
        raise BadName(f"a name is {MIN_LEN} to {MAX_LEN} characters long", "length")
    if not _ALLOWED.match(n) or not (n[0].isalnum()):
        raise BadName("a name is letters, digits, '_', '-' or '.', starting with a letter or digit", "characters")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") or c in INVISIBLE_LETTERS for c in n):
        raise BadName("a name may not hold control or invisible characters", "invisible")
    scripts = {s for s in (_script(c) for c in n) if s is not None and s != "CJK"}
    if len(scripts) > 1:
        names = " and ".join(sorted(s.title() for s in scripts))
        raise BadName(f"a name may not mix letters of different scripts ({names})", "mixed_scripts")
    key = name_key(n)
    if key.startswith(RESERVED_PREFIXES):
        raise BadName("names starting with 'guest' or 'bot' (or 电脑, 游客) are reserved", "reserved")
    if any(w in key for w in RESERVED_WORDS):
        raise BadName("a name may not pass for the server's staff (admin, system, 官方, 客服…)", "staff")
    return n
