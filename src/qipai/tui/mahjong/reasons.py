"""Why the mahjong engine refused an action, in the player's words.

The engine says why in English (:meth:`~qipai.games.mahjong.state.MahjongGame.check`), naming the player as
``seat 0``.  An English player reads that sentence as it is; a Chinese player reads the common reasons in
Chinese with the tiles they name (as the table writes them: ``5m``, ``Z``).  A reason no pattern knows is a
general Chinese phrase with the engine's sentence in parentheses, so nothing is lost.

>>> reason_words("zh", "you hold no 5m")
'你手里没有 5m'
>>> reason_words("zh", "seat 0 is not ready (上听) and cannot win")
'还没听牌（上听），不能胡'
>>> reason_words("en", "you hold no 5m")
'you hold no 5m'
>>> reason_words("zh", "something new")
'规则不允许（something new）'
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..reasons import translate
from .view import action_words


def _act(text: str) -> str:
    """``chi 345m, chi 456m`` → ``吃 345m、吃 456m``."""
    return "、".join(action_words(a.strip(), "zh") for a in text.split(","))


_REASONS: list[tuple[str, Callable[[re.Match[str]], str]]] = [
    (r"the deal is over", lambda m: "这一局已经结束"),
    (r"seat \d+ has already answered this claim window", lambda m: "这张牌你已经回答过了（吃、碰、胡或过）"),
    (r"seat \d+'s claims can no longer be chosen: a higher claim was made",
     lambda m: "别家的吃碰胡优先：你的已经不能选了"),
    (r"seat \d+ has no decision open now", lambda m: "现在没有轮到你"),
    (r"seat \d+ is ready: the choice is hu or pass, not (\w+)",
     lambda m: f"你已听牌：现在只能 胡 或 过，不能{action_words(m[1], 'zh')}"),
    (r"seat \d+ is not ready \(上听\) and cannot win", lambda m: "还没听牌（上听），不能胡"),
    (r"seat \d+'s hand does not win", lambda m: "这手牌还不能胡"),
    (r"after a ting claim seat \d+ must declare: ting X", lambda m: "吃听/碰听后必须听牌：听 牌（例如 听 5m）"),
    (r"you hold no (\S+)", lambda m: f"你手里没有 {m[1]}"),
    (r"ting needs a meld: a closed hand cannot be ready.*", lambda m: "门清不可以听牌：要先吃或碰一次才能听"),
    (r"discarding (\S+) does not leave a ready hand", lambda m: f"打 {m[1]} 后还没听牌，不能听"),
    (r"zhidui needs the option zhi_dui", lambda m: "本桌规则不能支对（zhi_dui）"),
    (r"zhidui (\S+): after (\S+) the hand does not hold the pair or \S+ does not win as the third of a triplet"
     r"(?: \(a kind whose four copies he holds is no wait\))?",
     lambda m: f"不能支对 {m[1]}：打 {m[2]} 后手里没有这一对，或 {m[1]} 不能作为刻子的第三张胡"
               "（四张都在自己手里的牌不算听）"),
    (r"after (\S+) the hand waits only with a 支对 declaration \(不夹不胡\): ting \S+ zhidui Y",
     lambda m: f"打 {m[1]} 后只有支对才算听牌（不夹不胡）：听 {m[1]} 支对 某张"),
    (r"pass answers a claim window or an offered win; on your turn discard a tile",
     lambda m: "轮到你打牌，不能过：请打一张牌"),
    (r"(\w+) is a claim on a discard; it is seat \d+'s turn to discard",
     lambda m: f"{action_words(m[1], 'zh')} 是对别人打出的牌说的；现在该你打牌"),
    (r"a claim window is open on (\S+): claim it or pass",
     lambda m: f"别人刚打出 {m[1]}：要吃、碰、胡就说，不要就过"),
    (r"seat \d+ declined a win and may not win on a discard before his next draw",
     lambda m: "你刚过了胡：自己再摸牌以前不能胡别人打的牌"),
    (r"(\S+) does not win for seat \d+", lambda m: f"{m[1]} 不能让你胡"),
    (r"seat \d+ is ready: his hand is frozen and he can only win", lambda m: "你已听牌：手牌不能再动，只能胡"),
    (r"the discard is (\S+), not (\S+)", lambda m: f"打出的是 {m[1]}，不是 {m[2]}"),
    (r"a fourth meld is not allowed.*", lambda m: "不能吃碰第四次（不能手把一）"),
    (r"seat \d+ does not hold two (\S+)", lambda m: f"你手里没有两张 {m[1]}，不能碰"),
    (r"after peng no discard leaves seat \d+ ready, so no peng ting", lambda m: "碰了以后打哪张都听不了牌：不能碰听"),
    (r"several sequences are possible: name one, e\.g\. (.*)",
     lambda m: f"有几种吃法：说明吃哪一组，例如 {_act(m[1])}"),
    (r"chi (\S+) does not contain the discard (\S+)", lambda m: f"吃 {m[1]} 里没有打出的 {m[2]}"),
    (r"红中 is never chowed", lambda m: "红中不能吃"),
    (r"seat \d+ does not hold (.+)", lambda m: f"你手里没有 {m[1]}"),
    (r"only seat \d+ \(the next seat\) may chow without 听 \(chi … ting\)",
     lambda m: "只有下家能直接吃；别家要吃就得吃听（吃听 456m）"),
    (r"after that chow no discard leaves a ready hand, so no chi ting",
     lambda m: "这样吃了以后打哪张都听不了牌：不能吃听"),
    (r"seat \d+ cannot chow (\S+)", lambda m: f"你不能吃 {m[1]}"),
    (r"empty action", lambda m: "请输入要做的动作"),
    (r"bad action '.*': a chi names three consecutive tiles of one suit.*",
     lambda m: "吃要写同一花色的三张连续的牌，例如 吃 456m"),
    (r"bad action '.*': peng names at most one tile.*", lambda m: "碰最多写一张牌：碰、碰 5m、碰听"),
    (r"bad action '.*': (\w+) names one tile.*",
     lambda m: f"{action_words(m[1], 'zh')}要写一张牌，例如 {action_words(m[1], 'zh')} 5m"),
    (r"bad action '.*': (\w+) takes nothing after it", lambda m: f"{action_words(m[1], 'zh')}后面不能再写别的"),
    (r"bad action '.*': zhidui follows ting X.*", lambda m: "支对要写在听牌后面：听 5m 支对 7p"),
    (r"bad action '(.*)': (.*)", lambda m: f"看不懂 {m[1]}（{m[2]}）"),
]
_COMPILED = [(re.compile(p), f) for p, f in _REASONS]


def reason_words(lang: str, why: str) -> str:
    """The engine's reason ``why`` for ``lang`` (:func:`~qipai.tui.reasons.translate`, with the tiles they name);
    in English said to the player (seat 0) as "you".

    >>> reason_words("en", "seat 0 is not ready (上听) and cannot win")
    'you are not ready (上听) and cannot win'
    >>> reason_words("en", "seat 0's hand does not win"), reason_words("en", "seat 0 cannot chow 5m")
    ('your hand does not win', 'you cannot chow 5m')
    """
    return translate(lang, why, _COMPILED)
