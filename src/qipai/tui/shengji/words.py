"""Every word the Shengji terminal game prints, in English and Chinese.

>>> tr("en", "points_line", att=35, bank=20, pen=0), tr("zh", "trump_none")
('attackers 35 · banker side 20 · throw penalties 0', '未定')
"""

from __future__ import annotations

from ..i18n import fill

_EN: dict[str, str] = {
    "title": "qipai · Shengji (four decks)",
    "table_seed": "Table seed {seed} (play the same table again with --seed {seed}).",
    "legend": "Cards are typed rank then suit: 7S 7S 8S 8S, 10H, B (small joker), R (big joker). "
              "Type help for more.",
    "you": "You",
    "bot": "Bot {i} ({bot})",
    "bot_short": "Bot {i}",
    "partner": "partner",
    "opponent": "opponent",
    "team_a": "team A",
    "team_b": "team B",
    "hand_no": "hand {n}",
    "seed": "seed {seed}",
    "banker": "banker",
    "attacker": "attacker",
    "dealing": "Dealing 216 cards, one at a time, first to {name}. Declare with your level cards ({level}) "
               "at any moment: type declare {example}.",
    "deal_progress": "{dealt}/216 cards dealt.",
    "got_level": "Card {dealt}: you got {card} · your level cards: {mine} · {how}",
    "type_declare": "type {action}",
    "cannot_overcall": "you cannot overcall now",
    "declared_other": "{name} declared ({k} card{s}, concealed).",
    "declared_you": "You declared {cards}.",
    "final_window": "All cards dealt. Final declaration window: every seat may still declare or overcall; it "
                    "closes once all four have passed since the last declaration",
    "final_window_time": " ({s} s for each answer)",
    "full_stop": ".",
    "or": " or ",
    "prompt_final": "Declare ({example}) or Enter to pass",
    "prompt_final_own": "Your declaration stands (you cannot overcall yourself): Enter to pass",
    "prompt_final_none": "Nothing you hold overcalls the standing declaration: Enter to pass",
    "revealed": "Trump {suit}, declared by {name}: {cards}.",
    "no_declaration": "Nobody declared: spades are trump.",
    "banker_is": "Banker: {name}, leading the first trick (level {level}).",
    "banker_tbd": "the last to declare",
    "status_line": "Hand {n} · level {level} · trump {trump} · banker {banker}",
    "teams_line": "Levels: {a} {la} · {b} {lb}",
    "points_line": "attackers {att} · banker side {bank} · throw penalties {pen}",
    "points_head": "Points: ",
    "trump_none": "not yet",
    "this_trick": "This trick: {plays}",
    "last_trick": "Last trick: {plays} → {name} ({points} points)",
    "no_trick": "nothing yet",
    "your_hand": "Your hand ({n} card{s}):",
    "trumps": "trumps",
    "jokers": "jokers",
    "suit_S": "spades",
    "suit_H": "hearts",
    "suit_C": "clubs",
    "suit_D": "diamonds",
    "prompt_lead": "You lead — your play",
    "prompt_follow": "Follow {cards} ({n} card{s})",
    "prompt_time": " ({s} s)",
    "prompt_next": "Enter: next hand · history · rules · quit",
    "prompt_confirm": "Type yes to confirm, anything else to stay: ",
    "act_play": "{name}: {cards}",
    "act_trick_att": "  Trick {k} to {name}: {points} points to the attackers{extra}.",
    "act_trick_bank": "  Trick {k} to {name}: {points} points stay with the banker's side{extra}.",
    "act_trick_none": "  Trick {k} to {name}: no points{extra}.",
    "act_trick_now": " (attackers now {att})",
    "act_trick_still": " (attackers still {att})",
    "failed_throw": "{name} threw {cards} and the throw fails: {forced} is played instead, {pen:+d} to the attackers.",
    "act_autoplay_on": "{name}: auto-play on.",
    "act_autoplay_off": "{name}: auto-play off.",
    "act_left": "{name} left the hand.",
    "hint": "Hint {i}/{n}: {cards} (Enter plays it, hint shows the next)",
    "refused": "Not allowed: {reason}",
    "refused_declare": "Not allowed: {reason}",
    "err_declare_legal": "You cannot declare {cards} now: {how}.",
    "err_unreadable": "Cannot read {token!r}: type cards as 7S, 10H, B, R (see help).",
    "err_empty": "Type the cards to play, or hint.",
    "err_phase": "The cards are being dealt: declare <level cards>, hand, help or quit (plays come later).",
    "err_final": "All cards are dealt: this is the last chance to declare or overcall (declare <level cards>), "
                 "or Enter to pass; also hand, help or quit (the play comes next).",
    "err_declare_over": "Declaring is over: play {n} card{s}.",
    "err_must_play": "You must play {n} card{s}: type them, or hint.",
    "err_unknown": "{text!r} is not a command now (type help).",
    "intro": "You sit in seat 0; your partner is {partner}. Opponents: {left} and {right}.",
    "err_auto_on": "Auto-play is on: type auto to take back control.",
    "err_not_now": "Nothing to answer now.",
    "auto_on": "Auto-play on: it plays for you (type auto to take back control).",
    "auto_off": "Auto-play off: your turn again.",
    "timeout": "Time is up: {what}; auto-play is on (type auto to take back control).",
    "timeout_play": "played {cards} for you",
    "quit_plain": "Leaving hands your seat to auto-play for the rest of the hand; then the table ends.",
    "quit_penalty": "Leaving now costs {n} {n|point|points} (escape penalty) and ends the match.",
    "quit_cancel": "You stay.",
    "quit_between": "Table closed.",
    "leaving": "You left: auto-play finishes the hand.",
    "settle_head": "Hand {n} over · {winner} win{s}",
    "settle_score": "Attackers' score {score} = {before} before the last trick {amount:+d} (last trick "
                    "{pts} points × {m}, won by {side}) {pen:+d} penalties",
    "settle_levels": "Levels: {a} {la} → {na} · {b} {lb} → {nb} (gain {d}{capped})",
    "settle_capped": ", applied {applied}",
    "settle_next": "Next banker: {name}.",
    "settle_scores": "Points: {scores}",
    "side_attackers": "the attackers",
    "side_banker": "the banker side",
    "escaped": "{name} escaped: the match ends.",
    "match_over": "Match over: {team} win{s} the match.",
    "match_draw": "Match over: a draw.",
    "history_head": "Hand  Banker  Level  Score  Winner  Levels after",
    "no_history": "No hand finished yet.",
    "table_over": "Table over after {n} hand{s}. Your points: {total:+d}.",
    "records": "Game records ({n}), one JSON file per hand:",
    "record_failed": "Could not write the record ({error}); the table goes on",
    "replay_with": "Replay one with: qipai replay {path}",
    "records_off": "No records were written.",
    "timer_unsupported": "This input cannot time out: playing without a timer.",
    "help": (
        "Commands (type, then Enter):\n"
        "  7S 7S 8S 8S, 10H, B R      play these cards (rank then suit; ♠♥♣♦ and 10 work too)\n"
        "  declare 3S 3S, d 3S 3S     declare trump with your level cards while the cards are dealt\n"
        "  pass, p                    pass in the final declaration window\n"
        "  hint, h                    suggest a play; again for the next; Enter plays the one shown\n"
        "  auto                       auto-play on or off (托管)\n"
        "  hand                       show your hand again\n"
        "  last                       the last trick\n"
        "  history                    every hand of this match\n"
        "  rules                      how to play: this table's rules in words (玩法说明)\n"
        "  help, ?                    this help\n"
        "  quit, q                    leave the table (auto-play finishes the hand)"
    ),
}

_ZH: dict[str, str] = {
    "title": "qipai · 升级（四副牌）",
    "table_seed": "牌桌种子 {seed}（用 --seed {seed} 可重玩同一桌）。",
    "legend": "输入牌：点数加花色，如 7S 7S 8S 8S、10H、B（小王）、R（大王）。输入 help 查看更多。",
    "you": "你",
    "bot": "电脑{i}号（{bot}）",
    "bot_short": "电脑{i}号",
    "partner": "对家",
    "opponent": "对手",
    "team_a": "A 方",
    "team_b": "B 方",
    "hand_no": "第 {n} 局",
    "seed": "种子 {seed}",
    "banker": "庄家",
    "attacker": "抓分方",
    "dealing": "发牌：216 张，一张一张发，先发给{name}。随时可用级牌（{level}）叫主：输入 declare {example}。",
    "deal_progress": "已发 {dealt}/216 张。",
    "got_level": "第 {dealt} 张：你拿到 {card} · 你的级牌：{mine} · {how}",
    "type_declare": "输入 {action}",
    "cannot_overcall": "现在不能反主",
    "declared_other": "{name} 叫主（{k} 张，暗叫）。",
    "declared_you": "你叫主：{cards}。",
    "final_window": "牌已发完。最后叫主时间：每家都还可以叫主或反主；最后一次叫主之后四家都不叫就结束",
    "final_window_time": "（每次回答 {s} 秒）",
    "full_stop": "。",
    "or": " 或 ",
    "prompt_final": "叫主（{example}）或直接回车不叫",
    "prompt_final_own": "你的叫主还在（不能自己反自己）：直接回车不叫",
    "prompt_final_none": "你的牌反不了现在的叫主：直接回车不叫",
    "revealed": "主牌 {suit}：{name} 叫的 {cards}。",
    "no_declaration": "无人叫主：黑桃为主。",
    "banker_is": "庄家：{name}，先出（打 {level}）。",
    "banker_tbd": "最后叫主者",
    "status_line": "第 {n} 局 · 打 {level} · 主 {trump} · 庄家 {banker}",
    "teams_line": "级：{a} {la} · {b} {lb}",
    "points_line": "抓分方 {att} · 庄家方 {bank} · 甩牌罚分 {pen}",
    "points_head": "得分：",
    "trump_none": "未定",
    "this_trick": "本轮：{plays}",
    "last_trick": "上一轮：{plays} → {name}（{points} 分）",
    "no_trick": "还没有",
    "your_hand": "你的手牌（{n} 张）：",
    "trumps": "主牌",
    "jokers": "王",
    "suit_S": "黑桃",
    "suit_H": "红桃",
    "suit_C": "梅花",
    "suit_D": "方块",
    "prompt_lead": "你先出",
    "prompt_follow": "跟 {cards}（{n} 张）",
    "prompt_time": "（{s} 秒）",
    "prompt_next": "回车：下一局 · history 历史 · rules 玩法 · quit 退出",
    "prompt_confirm": "输入 yes 确认，其他任意键留下：",
    "act_play": "{name}：{cards}",
    "act_trick_att": "  第 {k} 轮归{name}：抓分方得 {points} 分{extra}。",
    "act_trick_bank": "  第 {k} 轮归{name}：{points} 分留在庄家方{extra}。",
    "act_trick_none": "  第 {k} 轮归{name}：没有分{extra}。",
    "act_trick_now": "（抓分方共 {att} 分）",
    "act_trick_still": "（抓分方仍是 {att} 分）",
    "failed_throw": "{name} 甩牌 {cards} 失败：改出 {forced}，抓分方 {pen:+d} 分。",
    "act_autoplay_on": "{name}：托管。",
    "act_autoplay_off": "{name}：解除托管。",
    "act_left": "{name} 离开了本局。",
    "hint": "提示 {i}/{n}：{cards}（回车出这手牌，再输入 hint 看下一个）",
    "refused": "不能这样出：{reason}",
    "refused_declare": "不能这样叫主：{reason}",
    "err_declare_legal": "现在不能叫 {cards}：{how}。",
    "err_unreadable": "看不懂 {token!r}：牌写作 7S、10H、B、R（见 help）。",
    "err_empty": "请输入要出的牌，或输入 hint。",
    "err_phase": "正在发牌：可以 declare 叫主、hand、help 或 quit（出牌在后面）。",
    "err_final": "牌已发完：这是最后叫主/反主的机会（declare 级牌），直接回车不叫；"
                 "也可以 hand、help 或 quit（接着出牌）。",
    "err_declare_over": "叫主已结束：请出 {n} 张牌。",
    "err_must_play": "你必须出 {n} 张牌：输入牌，或输入 hint。",
    "err_unknown": "{text!r} 现在不是命令（输入 help）。",
    "intro": "你坐 0 号位；对家是{partner}。对手：{left}和{right}。",
    "err_auto_on": "正在托管：输入 auto 解除托管。",
    "err_not_now": "现在不需要回答。",
    "auto_on": "托管中：系统替你出牌（输入 auto 解除托管）。",
    "auto_off": "解除托管：轮到你了。",
    "timeout": "超时：{what}；已托管（输入 auto 解除托管）。",
    "timeout_play": "系统替你出了 {cards}",
    "quit_plain": "离开后本局剩下的牌由托管打完，然后牌桌结束。",
    "quit_penalty": "现在离开扣 {n} 分（逃跑罚分），比赛结束。",
    "quit_cancel": "你留下了。",
    "quit_between": "牌桌结束。",
    "leaving": "你离开了：托管打完本局。",
    "settle_head": "第 {n} 局结束 · {winner}获胜",
    "settle_score": "抓分方得分 {score} = 最后一轮前 {before} {amount:+d}（最后一轮 {pts} 分 × {m}，{side}赢）"
                    " {pen:+d} 罚分",
    "settle_levels": "级：{a} {la} → {na} · {b} {lb} → {nb}（升 {d} 级{capped}）",
    "settle_capped": "，实升 {applied}",
    "settle_next": "下一局庄家：{name}。",
    "settle_scores": "积分：{scores}",
    "side_attackers": "抓分方",
    "side_banker": "庄家方",
    "escaped": "{name} 逃跑：比赛结束。",
    "match_over": "比赛结束：{team}获胜。",
    "match_draw": "比赛结束：平局。",
    "history_head": "局   庄家    级   得分   胜方   之后的级",
    "no_history": "还没有打完的局。",
    "table_over": "牌桌结束，共 {n} 局。你的积分：{total:+d}。",
    "records": "牌局记录（{n} 个，每局一个 JSON 文件）：",
    "record_failed": "牌局记录没能写下（{error}），牌局照常继续",
    "replay_with": "回放：qipai replay {path}",
    "records_off": "没有写牌局记录。",
    "timer_unsupported": "这种输入不能计时：不计时进行。",
    "help": (
        "命令（输入后回车）：\n"
        "  7S 7S 8S 8S、10H、B R     出这些牌（点数加花色；也可用 ♠♥♣♦ 和 10）\n"
        "  declare 3S 3S、d 3S 3S    发牌时用级牌叫主（亮主）\n"
        "  pass、p、不叫             最后叫主时不叫\n"
        "  hint、h、提示             提示一手牌；再输入看下一个；直接回车出提示的牌\n"
        "  auto、托管                托管 / 解除托管\n"
        "  hand、手牌                再看手牌\n"
        "  last、上一轮              上一轮的出牌\n"
        "  history、历史             本场比赛每局的结果\n"
        "  rules、规则、玩法         玩法说明：本桌规则\n"
        "  help、?、帮助             本帮助\n"
        "  quit、q、退出             离开牌桌（托管打完本局）"
    ),
}

WORDS = {"en": _EN, "zh": _ZH}


def tr(lang: str, key: str, **kw: object) -> str:
    """The text ``key`` in ``lang`` with ``kw`` filled in (English when ``lang`` is unknown)."""
    words = WORDS.get(lang, _EN)
    return fill(words.get(key, _EN[key]), kw)
