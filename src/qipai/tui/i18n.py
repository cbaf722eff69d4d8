"""Every word the terminal game prints, in English and Chinese.

>>> tr("en", "cards", n=3), tr("zh", "cards", n=3)
('3 cards', '3 张')
>>> kind_name("plane_singles", "en"), kind_name("plane_singles", "zh")
('plane with singles', '飞机带单')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from string import Formatter

from rich.text import Text

from ..games.doudizhu.rules import KIND_NAMES_ZH

LANGS = ("en", "zh")

KIND_NAMES_EN = {
    "single": "single",
    "pair": "pair",
    "triple": "triple",
    "triple_single": "triple with single",
    "triple_pair": "triple with pair",
    "straight": "straight",
    "pair_straight": "pair straight",
    "plane": "plane",
    "plane_singles": "plane with singles",
    "plane_pairs": "plane with pairs",
    "four_two_singles": "four with two singles",
    "four_two_pairs": "four with two pairs",
    "bomb": "bomb",
    "rocket": "rocket",
}

DOUBLING_EN = {"倒": "double", "反": "redouble", "斡": "double again", "垒": "redouble again"}

_EN: dict[str, str] = {
    # table and screen
    "title": "qipai · Dou Dizhu",
    "rules": "rules {preset}",
    "deal_no": "deal {n}",
    "seed": "seed {seed}",
    "table_seed": "Table seed {seed} (play the same table again with --seed {seed}).",
    "you": "You",
    "bot": "Bot {i} ({bot})",
    "bot_seat": "Bot {i}",
    "you_named": "{name} (you)",
    "player": "Player",
    "bot_account": "Bot ({bot})",
    "guest": "Guest {id}",
    "rule_not_your_turn": "It is not your turn",
    "rule_lead_may_not_pass": "You lead: you may not pass",
    "rule_must_bid": "This hand must bid",
    "rule_bid_too_low": "A bid must be higher than the last one",
    "rule_not_held": "You do not hold those cards",
    "rule_not_a_combination": "Those cards are no combination at this table",
    "rule_does_not_beat": "That does not beat the last play",
    "rule_ambiguous": "Those cards read more than one way: add the kind (e.g. 333444555666:plane)",
    "rule_deal_over": "The deal is over",
    "bot_short": "Bot {i}",
    "auto_tag": "[auto]",
    "landlord": "landlord",
    "farmer": "farmer",
    "no_role": "-",
    "cards": "{n} {n|card|cards}",
    "col_seat": "Seat",
    "col_role": "Role",
    "col_cards": "Cards",
    "col_last": "Last",
    "col_total": "Total",
    "col_points": "Points",
    "col_score": "Score",
    "col_mult": "Multiplier",
    "col_deal": "Deal",
    "col_landlord": "Landlord",
    "col_bid": "Bid",
    "col_seed": "Seed",
    "col_payer": "Payer",
    "col_payee": "Payee",
    "col_owed": "Owed",
    "col_paid": "Paid",
    "col_left": "Cards left",
    "bid_line": "Bid {bid} · stake {stake} · multiplier ×{mult}",
    "no_bid_yet": "Bid - · stake {stake} · multiplier ×{mult}",
    "factors": "factors: {factors}",
    "kitty": "Kitty: {cards}",
    "kitty_hidden": "Kitty: {n} {n|card|cards}, face down",
    "kitty_hidden_shown_later": "Kitty: {n} cards, hidden from the farmers",
    "face_up": "Face-up card: {card} (first to bid: {name})",
    "first_bidder": "First to bid: {name}.",
    "no_dao": "{name} declined the landlord as first bidder, so {pron} may not double (倒) this deal.",
    "shown_hand": "The landlord's open hand: {cards}",
    "your_hand": "Your hand ({mode}): ",
    "by_rank": "by rank",
    "by_count": "by count",
    "legend": "Play by typing ranks: 3-9 10 J Q K A 2 B R (B, R: black, red joker). Type help for more.",
    "this_trick": "This trick: {plays}",
    "prev_trick": "Previous trick: {plays} (won by {name})",
    "no_plays": "nothing yet",
    "turn_you": "Your turn.",
    "turn_other": "{name} to act.",
    "pass": "pass",
    "bid_pass": "no bid",
    "bid_v": "bid {v}",
    "call": "call landlord",
    "show": "show the hand (×{f})",
    "doubling_word": "{name} ({en})",
    # prompts
    "prompt_bid": "Your bid [{choices}]",
    "prompt_double": "Double? [{choices}]",
    "prompt_show": "Show your hand to all for ×{f}? [{choices}]",
    "prompt_lead": "You lead — your play",
    "prompt_follow": "Beat {cards} ({kind}) or pass",
    "prompt_time": " ({s} s)",
    "prompt_next": "Enter: next deal · history · result · rules · quit",
    "prompt_confirm": "Type yes to confirm, anything else to stay: ",
    "choice_pass": "pass",
    # actions as they happen
    "act_bid": "{name}: {what}",
    "act_play": "{name}: {cards} ({kind})",
    "act_pass": "{name}: pass",
    "act_double": "{name}: {what}",
    "act_show": "Open hand of {name}: {cards}",
    "act_trick": "  Trick to {name}.",
    "act_landlord": "Landlord: {name} (bid {bid}).",
    "act_kitty": "Kitty: {cards}",
    "act_redeal": "Nobody bid: the cards are dealt again (redeal {n}).",
    "act_dissolved": "Nobody bid three times: the game is dissolved.",
    "act_autoplay_on": "{name}: auto-play on.",
    "act_autoplay_off": "{name}: auto-play off.",
    "act_escape": "{name} left the deal.",
    "act_left": " — {n} left!",
    "kind_paren": " ({kind})",
    "act_double_pass": "no double",
    # messages to the player
    "err_unreadable": "Cannot read {token!r}: type ranks 3-9, 10, J, Q, K, A, 2, B, R, or pass, hint, help.",
    "err_unknown_kind": "Unknown kind {kind!r}: use one of {kinds}.",
    "err_not_held": "You do not hold {cards}: missing {missing}.",
    "err_not_combo": "{cards} is not a combination at this table.",
    "err_not_kind": "{cards} is not a {kind} at this table.",
    "err_main": "{cards} has no {kind} reading with main rank {main}.",
    "err_not_beat": "{cards} ({kind}) does not beat {last} ({last_kind}).",
    "err_ambiguous": "{cards} reads more than one way: type one of {options}.",
    "err_must_lead": "You lead, so you may not pass: play any combination.",
    "err_choice": "{text!r} is not a choice now: type one of {choices}.",
    "err_past": "{text!r}: the bidding and doubling are over; type the cards to play (e.g. 3 3), pass or hint.",
    "err_empty": "Type your cards, or pass, hint, help.",
    "err_empty_choice": "Type one of {choices} (or help).",
    "err_auto_on": "Auto-play is on: type auto to take back control first.",
    "err_core": "Not allowed: {msg}",
    "no_result": "No deal has finished yet at this table.",
    "no_last": "No trick has finished yet in this deal.",
    "no_hint_bot": "",
    "hint": "Hint {i}/{n}: {what} — press Enter to play it, or type hint for the next one.",
    "hint_pass": "Hint: pass — press Enter to pass.",
    "hint_pass_more": "Hint: pass — press Enter to pass, or type hint again for a play.",
    "hint_choice": "Hint: {what} — press Enter to choose it.",
    "auto_on": "Auto-play on (托管): the table plays for you. Type auto to take back control.",
    "auto_off": "Auto-play off: you play again.",
    "timeout": "Time is up: {what}. Auto-play is on — type auto to take back control.",
    "timeout_pass": "you passed",
    "timeout_play": "you played {cards}",
    "sorted": "Hand sorted {mode}.",
    "quit_penalty": "Quit this deal? Escaping costs you {n} {n|point|points} (the escape penalty of these rules).",
    "quit_plain": "Quit? These rules have no escape penalty: the bots finish this deal with you in auto-play, "
                  "and the table ends after it.",
    "quit_cancel": "Not quitting: the game goes on.",
    "quit_between": "Leaving the table.",
    "abandoned": "Nobody bids after you left: the deal is abandoned, unsettled.",
    "leaving": "You left: the deal finishes in auto-play, then the table ends.",
    "fallback_bots": "Note: the heuristic bot is not available in this build; you play against the random bot.",
    "timer_unsupported": "Note: time limits need a terminal that supports select(); playing without them.",
    # settlement
    "deal_over": "Deal {n} is over.",
    "win_landlord": "The landlord ({name}) wins.",
    "win_farmers": "The farmers win.",
    "escaped": "{name} escaped: {n} {n|point|points} (escape penalty).",
    "dissolved": "The game was dissolved: no scores.",
    "you_won": "You win {n}.",
    "you_lost": "You lose {n}.",
    "you_even": "Your score does not change.",
    "spring": "Spring!",
    "anti_spring": "Anti-spring!",
    "in_auto": "in auto-play",
    "totals": "Running totals after {n} deal(s):",
    "history_title": "Scores of every deal at this table (历史得分)",
    "result_title": "Settlement of deal {n} (结果)",
    "last_title": "Previous trick (上手牌): ",
    "payments": "Payments:",
    "total_row": "Total",
    "escape_row": "escape",
    "dissolved_row": "dissolved",
    "no_points": "No points left for {name}: the table ends.",
    "table_over": "The table is over after {n} deal(s).",
    "records": "Game records ({n}), one JSON file per deal:",
    "record_failed": "Could not write the record ({error}); the table goes on",
    "replay_with": "Replay one with: qipai replay {path}",
    "records_off": "No records were written.",
    "help": (
        "Commands (type one and press Enter):\n"
        "  33344, 10 10 J J Q Q, 3334:triple_single   play these ranks (add :kind when cards read two ways)\n"
        "  B, R                    the black (small) and red (big) joker; also 小王, 大王, and 王炸 / 火箭 for both\n"
        "  pass, p                 pass (不出 / 不叫)\n"
        "  hint, h                 suggest a play; again for the next one; Enter plays it (提示)\n"
        "  auto                    auto-play on or off (托管)\n"
        "  sort                    sort your hand by rank or by count (排序)\n"
        "  last                    the previous trick (上手牌)\n"
        "  history                 every deal's scores at this table (历史得分)\n"
        "  result                  the last deal's full settlement (结果)\n"
        "  rules                   how to play: this table's rules in words (玩法说明)\n"
        "  help, ?                 this help\n"
        "  quit, q                 leave the table (逃跑 costs a penalty where the rules have one)\n"
        "Bidding: 1, 2, 3 or pass; call or pass.  Doubling: double / redouble or pass.  Show: show or pass."
    ),
}

_ZH: dict[str, str] = {
    "title": "棋牌 · 斗地主",
    "rules": "规则 {preset}",
    "deal_no": "第 {n} 局",
    "seed": "种子 {seed}",
    "table_seed": "本桌种子 {seed}（用 --seed {seed} 可重玩同一桌）。",
    "you": "你",
    "bot": "电脑{i}号（{bot}）",
    "bot_seat": "电脑{i}号",
    "you_named": "{name}（你）",
    "player": "玩家",
    "bot_account": "电脑（{bot}）",
    "guest": "游客{id}",
    "rule_not_your_turn": "还没轮到你",
    "rule_lead_may_not_pass": "你先出牌，不能不出",
    "rule_must_bid": "这手牌必须叫",
    "rule_bid_too_low": "叫分要比前面的高",
    "rule_not_held": "你手里没有这些牌",
    "rule_not_a_combination": "这些牌在本桌不成牌型",
    "rule_does_not_beat": "管不上上家的牌",
    "rule_ambiguous": "这些牌有几种读法：请加上牌型（例如 333444555666:plane）",
    "rule_deal_over": "这一局已经结束",
    "bot_short": "电脑{i}号",
    "auto_tag": "[托管]",
    "landlord": "地主",
    "farmer": "农民",
    "no_role": "-",
    "cards": "{n} 张",
    "col_seat": "座位",
    "col_role": "身份",
    "col_cards": "张数",
    "col_last": "最近",
    "col_total": "总分",
    "col_points": "积分",
    "col_score": "得分",
    "col_mult": "倍数",
    "col_deal": "局",
    "col_landlord": "地主",
    "col_bid": "底分",
    "col_seed": "种子",
    "col_payer": "付方",
    "col_payee": "收方",
    "col_owed": "应付",
    "col_paid": "实付",
    "col_left": "剩余手牌",
    "bid_line": "底分 {bid} · 基数 {stake} · 倍数 ×{mult}",
    "no_bid_yet": "底分 - · 基数 {stake} · 倍数 ×{mult}",
    "factors": "加倍：{factors}",
    "kitty": "底牌：{cards}",
    "kitty_hidden": "底牌：{n} 张，未翻开",
    "kitty_hidden_shown_later": "底牌：{n} 张，农民看不到",
    "face_up": "明牌：{card}（{name} 先叫）",
    "first_bidder": "{name} 先叫。",
    "no_dao": "{name}是首家，没叫地主，本局不能倒。",
    "shown_hand": "地主亮牌：{cards}",
    "your_hand": "你的手牌（{mode}）：",
    "by_rank": "按点数",
    "by_count": "按张数",
    "legend": "输入点数出牌：3-9 10 J Q K A 2 B R（B 或 小王，R 或 大王）。输入 help 查看命令。",
    "this_trick": "本轮：{plays}",
    "prev_trick": "上一轮：{plays}（{name} 赢）",
    "no_plays": "还没有人出牌",
    "turn_you": "轮到你。",
    "turn_other": "等待 {name}。",
    "pass": "不出",
    "bid_pass": "不叫",
    "bid_v": "叫 {v} 分",
    "call": "叫地主",
    "show": "亮牌（×{f}）",
    "doubling_word": "{name}",
    "prompt_bid": "叫分 [{choices}]",
    "prompt_double": "加倍？[{choices}]",
    "prompt_show": "亮牌（×{f}）？[{choices}]",
    "prompt_lead": "你先出",
    "prompt_follow": "压过 {cards}（{kind}）或不出",
    "prompt_time": "（{s} 秒）",
    "prompt_next": "回车：下一局 · history 历史 · result 结果 · rules 玩法 · quit 退出",
    "prompt_confirm": "输入 yes 确认，其他任意输入继续：",
    "choice_pass": "pass",
    "act_bid": "{name}：{what}",
    "act_play": "{name}：{cards}（{kind}）",
    "act_pass": "{name}：不出",
    "act_double": "{name}：{what}",
    "act_show": "{name} 亮牌：{cards}",
    "act_trick": "  {name} 赢得本轮。",
    "act_landlord": "{name} 当地主（{bid} 分）。",
    "act_kitty": "底牌：{cards}",
    "act_redeal": "无人叫牌：重新发牌（第 {n} 次）。",
    "act_dissolved": "三次无人叫牌：本局解散。",
    "act_autoplay_on": "{name}：托管。",
    "act_autoplay_off": "{name}：解除托管。",
    "act_escape": "{name} 离开了本局。",
    "act_left": " —— 只剩 {n} 张！",
    "kind_paren": "（{kind}）",
    "act_double_pass": "不加倍",
    "err_unreadable": "看不懂 {token!r}：请输入点数 3-9、10、J、Q、K、A、2、B、R，或 pass、hint、help。",
    "err_unknown_kind": "没有 {kind!r} 这种牌型：可用 {kinds}。",
    "err_not_held": "你没有 {cards}：缺 {missing}。",
    "err_not_combo": "{cards} 不是本桌允许的牌型。",
    "err_not_kind": "{cards} 不能当作{kind}出。",
    "err_main": "{cards} 没有以 {main} 为主的{kind}读法。",
    "err_not_beat": "{cards}（{kind}）压不过 {last}（{last_kind}）。",
    "err_ambiguous": "{cards} 有多种读法：请输入 {options} 之一。",
    "err_must_lead": "你先出牌，不能不出。",
    "err_choice": "{text!r} 现在不能选：请输入 {choices} 之一。",
    "err_past": "{text!r}：叫分和加倍已经结束；请输入要出的牌（如 3 3）、pass 或 hint。",
    "err_empty": "请输入要出的牌，或 pass、hint、help。",
    "err_empty_choice": "请输入 {choices} 之一（或 help）。",
    "err_auto_on": "正在托管：先输入 auto 解除托管。",
    "err_core": "不允许：{msg}",
    "no_result": "本桌还没有打完的牌局。",
    "no_last": "本局还没有打完的一轮。",
    "no_hint_bot": "",
    "hint": "提示 {i}/{n}：{what} —— 回车出这手，再输入 hint 看下一个。",
    "hint_pass": "提示：不出 —— 回车不出。",
    "hint_pass_more": "提示：不出 —— 回车不出，或再输入 hint 看能出的牌。",
    "hint_choice": "提示：{what} —— 回车选它。",
    "auto_on": "已托管：系统替你出牌。输入 auto 解除托管。",
    "auto_off": "已解除托管：由你出牌。",
    "timeout": "超时：{what}。已托管 —— 输入 auto 解除托管。",
    "timeout_pass": "视为不出",
    "timeout_play": "自动出 {cards}",
    "sorted": "手牌已{mode}排序。",
    "quit_penalty": "确定逃跑？按本桌规则要扣 {n} 分（逃跑扣分）。",
    "quit_plain": "确定退出？本桌规则没有逃跑扣分：本局由系统托管打完，然后牌桌结束。",
    "quit_cancel": "不退出，继续游戏。",
    "quit_between": "离开牌桌。",
    "abandoned": "你离开后无人叫牌：本局作废，不结算。",
    "leaving": "你已离开：本局托管打完后牌桌结束。",
    "fallback_bots": "注意：本版本还没有 heuristic 电脑，对手使用 random 电脑。",
    "timer_unsupported": "注意：此终端不支持计时，本桌不限时。",
    "deal_over": "第 {n} 局结束。",
    "win_landlord": "地主（{name}）胜。",
    "win_farmers": "农民胜。",
    "escaped": "{name} 逃跑：{n} 分（逃跑扣分）。",
    "dissolved": "本局解散：不计分。",
    "you_won": "你赢 {n} 分。",
    "you_lost": "你输 {n} 分。",
    "you_even": "你的积分不变。",
    "spring": "春天！",
    "anti_spring": "反春！",
    "in_auto": "托管中",
    "totals": "{n} 局后的总分：",
    "history_title": "历史得分（本桌每局）",
    "result_title": "第 {n} 局结果",
    "last_title": "上手牌：",
    "payments": "支付：",
    "total_row": "合计",
    "escape_row": "逃跑",
    "dissolved_row": "解散",
    "no_points": "{name} 积分用完：牌桌结束。",
    "table_over": "牌桌结束，共 {n} 局。",
    "records": "牌局记录（{n} 个，每局一个 JSON 文件）：",
    "record_failed": "牌局记录没能写下（{error}），牌局照常继续",
    "replay_with": "回放：qipai replay {path}",
    "records_off": "没有写牌局记录。",
    "help": (
        "命令（输入后回车）：\n"
        "  33344、10 10 J J Q Q、3334:triple_single   出这些点数（一手牌有多种读法时加 :牌型）\n"
        "  B 或 小王，R 或 大王     小王、大王；王炸 或 火箭：两张王\n"
        "  pass、p、不出            不出 / 不叫\n"
        "  hint、h、提示            提示一手牌；再输入看下一个；直接回车出提示的牌\n"
        "  auto、托管               托管 / 解除托管\n"
        "  sort、排序               手牌按点数或按张数排序\n"
        "  last、上手牌             上一轮的出牌\n"
        "  history、历史            本桌每局得分（历史得分）\n"
        "  result、结果             上一局的完整结算\n"
        "  rules、规则、玩法        玩法说明：本桌规则\n"
        "  help、?、帮助            本帮助\n"
        "  quit、q、退出            离开牌桌（有逃跑扣分的规则会扣分）\n"
        "叫分：1、2、3 或 pass；叫地主：call 或 pass。加倍：double / redouble 或 pass。亮牌：show 或 pass。"
    ),
}

_WORDS = {"en": _EN, "zh": _ZH}


_PLURAL = re.compile(r"\{(\w+)\|([^|{}]*)\|([^{}]*)\}")


def plural(text: str, kw: Mapping[str, object]) -> str:
    """``text`` with each ``{n|card|cards}`` made its first word when ``kw["n"]`` is 1, else its second (English
    plurals; the ``{n}`` slots are left to fill).

    >>> plural("{n} {n|card|cards}", {"n": 1}), fill("{n} {n|card|cards}", {"n": 3})
    ('{n} card', '3 cards')
    """
    return _PLURAL.sub(lambda m: m[2] if kw.get(m[1]) == 1 else m[3], text)


def fill(text: str, kw: Mapping[str, object]) -> str:
    """``text`` filled from ``kw`` (``str.format``), its plurals chosen first (:func:`plural`)."""
    return plural(text, kw).format(**kw)


def tr(lang: str, key: str, **kw: object) -> str:
    """The text ``key`` in ``lang`` with ``kw`` filled in (English when ``lang`` is unknown)."""
    words = _WORDS.get(lang, _EN)
    return fill(words.get(key, _EN[key]), kw)


def template(lang: str, key: str) -> str:
    """The unfilled text ``key`` in ``lang``."""
    return _WORDS.get(lang, _EN).get(key, _EN[key])


def tr_text(lang: str, key: str, style: str = "", **kw: object) -> Text:
    """Like :func:`tr`, but a Rich :class:`~rich.text.Text` in which ``Text`` values keep their own styles.

    >>> tr_text("en", "act_pass", name="Bot 1").plain
    'Bot 1: pass'
    """
    out = Text(style=style)
    for literal, fname, spec, conv in Formatter().parse(plural(template(lang, key), kw)):
        out.append(literal)
        if fname is None:
            continue
        value = kw[fname]
        if isinstance(value, Text):
            out.append_text(value)
        else:
            value = repr(value) if conv == "r" else value
            out.append(format(value, spec or ""))
    return out


BOT_NAMES = {
    "zh": {"random": "随机", "passive": "托管", "heuristic": "普通", "search": "高手", "rule": "普通",
           "efficiency": "普通", "easy": "入门", "normal": "普通", "hard": "高手", "expert": "大师", "dmc": "自学"},
    "en": {"random": "random", "passive": "auto-play", "heuristic": "normal", "search": "strong", "rule": "normal",
           "efficiency": "normal", "easy": "easy", "normal": "normal", "hard": "hard", "expert": "expert",
           "dmc": "learned"},
}
"""How a bot is named to a player (the engine's names are for researchers)."""


def bot_name(name: str, lang: str) -> str:
    """A bot's name in words (``heuristic`` → 普通 / normal); unknown names as they are.

    >>> bot_name("search", "zh"), bot_name("douzero", "en")
    ('高手', 'douzero')
    """
    return BOT_NAMES.get(lang, BOT_NAMES["en"]).get(name, name)


def refusal(lang: str, rule: str, message: str) -> str:
    """Why the rules refused an action, in ``lang``: in English the engine's own precise reason; in Chinese the
    rule's words (the engine's reason for a rule without words).

    >>> refusal("zh", "does_not_beat", "55 does not beat the last play 66 (pair)")
    '管不上上家的牌'
    >>> refusal("en", "does_not_beat", "55 does not beat the last play 66 (pair)")
    '55 does not beat the last play 66 (pair)'
    """
    key = "rule_" + rule
    if lang == "en" or key not in _EN:
        return message
    return tr(lang, key)


def kind_name(kind: str, lang: str) -> str:
    """A combination kind as a player reads it."""
    return KIND_NAMES_ZH[kind] if lang == "zh" else KIND_NAMES_EN[kind]
