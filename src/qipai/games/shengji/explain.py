"""Shengji's rules in words (玩法说明, RULES-shengji.md §2–§9), built from a table's option values: what the
browser's rules page and table dialog and the terminal's ``rules`` command show (:mod:`qipai.core.explain`).
Branches on option fields, never on a preset's name, so a private table's own options read right too.

>>> parts = explain({"preset": "four_deck"}, "en")
>>> [s.id for s in parts]
['overview', 'deal', 'trumps', 'combos', 'play', 'throws', 'trick', 'points', 'levels', 'scoring', 'time']
>>> [s.id for s in explain({"throws": False}, "en")][4:6]
['play', 'trick']
>>> explain({"hand_limit": 1}, "en")[8].items[-1]
'At most 1 hand: after 1 hand the match ends; the team with the higher level wins, equal levels are a draw.'
>>> explain({"deal_step_ms": 150}, "zh")[-1].items[0]
'发牌每张 0.15 秒，发完后最后叫主 5 秒；庄家的第一手 30 秒，以后每次出牌 20 秒。'
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ...core.explain import Item, Lang, Section, Words
from .rules import resolve_options

ZH: dict[str, str] = {
    "overview": "概要",
    "cards": (
        "四人两方，对面坐的两人是一方（对家）。四副牌共 216 张（每副 52 张加小王、大王），一张一张发完，"
        "每人 54 张，不留底牌。逆时针轮流出牌。"
    ),
    "sides": (
        "每局有一位庄家，庄家和他的对家是庄家方，另一方是闲家。闲家抓分，庄家方守分：闲家抓到多少分，决定这局哪一方升"
        "级、升几级。"
    ),
    "levels_intro": (
        "两方各有自己的级，都从 {start} 开始，依次是 3 4 5 6 7 8 9 10 J Q K A（2 永远是主牌，不打 2）。每局打庄家方的"
        "级，这个点数的 16 张牌叫级牌。"
    ),
    "banker_first": "第一局由发牌结束时叫主成立的人坐庄；没人叫主，由第一个拿牌的人坐庄。",
    "banker_next": "以后：庄家方赢了这局，庄家的对家坐庄；闲家赢了，庄家的下家坐庄。",
    "deal": "发牌与叫主",
    "deal_order": "每局随机一家先拿牌，四家轮流一张一张地拿，发牌时随时可以叫主。",
    "declare": (
        "叫主：亮出 1 到 4 张同花色的级牌（比如打 3 时亮 ♦3，或 ♠3 ♠3），这门花色就要当主。大小王不能叫，"
        "也没有无主。亮的牌还在手里，照常出。"
    ),
    "overcall": (
        "反主：要比现有的叫主多亮至少一张；张数一样不能反，先叫的算。自己不能反自己，对家可以。反主可以叫同一门花色（"
        "只换了叫主的人）。"
    ),
    "concealed": "暗叫：别人只看得到谁叫了几张，看不到花色。",
    "final": (
        "发完最后一张后还有 {final} 秒可以叫主（有人叫就重新计时）。然后亮出最后成立的叫主，它的花色为主；"
        "没人叫主，黑桃为主。"
    ),
    "deal_banker": "第一局叫主成立的人坐庄；以后各局叫主只决定哪门花色为主。",
    "trumps": "主牌与大小",
    "trump_cards": (
        "主牌：大王、小王、全部级牌、全部 2，再加主花色的所有牌，合起来算一门。其余三门花色（去掉它们的 "
        "2 和级牌）是副牌，各算一门。"
    ),
    "trump_order": (
        "主牌从大到小：大王 > 小王 > 主花色的级牌 > 另外三门的级牌（一样大）> 主花色的 2 > 另外三门的 2（一样大）"
        "> 主花色的 A K Q J 10 … 3（去掉级牌）。"
    ),
    "plain_order": "副牌从大到小：A K Q J 10 … 3（去掉级牌）。",
    "trump_example": "例：打 5、红桃为主时，♣5 和 ♠2 都是主牌，不算梅花、黑桃。",
    "equal": "一样大的牌（比如两张 ♠K，或两张副级牌）在同一轮里，先出的大。",
    "combos": "牌型",
    "single": "单张：任意一张。",
    "pair": "对子：两张完全一样的牌（点数、花色都相同），如 ♠7 ♠7；两张小王、两张大王也是对子；♠5 ♦5、小王加大王不是。",
    "triple": "三张：三张完全一样的牌。",
    "quad": "四张：四张完全一样的牌（同一张牌最多四张）。",
    "tractor": (
        "拖拉机：同一门里点数相连的两个或更多对子（或三张、四张，大小一样），如 ♠7 ♠7 ♠8 ♠8、♠9 ♠9 ♠9 ♠10 "
        "♠10 ♠10。级牌不在顺序里：打 8 时 ♣7 ♣7 ♣9 ♣9 也相连；副牌的 2 是主牌，也不在副牌的顺序里。"
    ),
    "trump_chain": (
        "主牌的顺序是：主花色的 3 … A（去掉级牌）→ 2 → 级牌 → 小王 → 大王。所以打 3、红桃为主时，♥A ♥A ♣2 "
        "♣2、♥2 ♥2 ♠3 ♠3、♣3 ♣3 小王 小王、小王 小王 大王 大王 都是拖拉机；同一个位置上的牌不相连（♣2 ♣2 "
        "♥2 ♥2 不是拖拉机）。"
    ),
    "stronger": (
        "张数一样时：三张的拖拉机大过对子的拖拉机，四张的拖拉机大过三张的拖拉机；四张（如 ♠4 ♠4 ♠4 ♠4）也大过两对的拖"
        "拉机，不管点数。"
    ),
    "play": "出牌与跟牌",
    "lead_first": "庄家先出第一轮，以后每轮由上一轮最大的人先出。",
    "lead_throws": "首家出同一门（主牌算一门）的一个牌型，或者甩牌（见下）。其他三家按顺序各出同样多的张数。",
    "lead_no_throws": "首家出同一门（主牌算一门）的一个牌型；本桌不能甩牌。其他三家按顺序各出同样多的张数。",
    "follow_enough": (
        "这门牌够数：必须出这门牌，并且尽量跟首家的牌型：首家出对子，有对子就要出对子；出三张，先出三张，"
        "没有就出一对加一张；出两对的拖拉机，先出拖拉机或四张，再出两个对子，再出一对。更长的牌型也一样，"
        "按固定的先后先出拖拉机和对子。出不对时出牌按钮会说明原因，「提示」给出可以出的牌。"
    ),
    "follow_short": "这门牌不够：把这门的牌全部出上，再用别的牌补足。",
    "follow_void": "这门牌没有了：出任意的牌；首家出的是副牌、你出的全是主牌，就是毙牌，可以赢这一轮。",
    "follow_throw": (
        "跟甩牌：这门牌够数时，出的对子不能比甩牌里的少（凑不够就出能凑出的最多对子；三张算一对，四张算两对）。"
    ),
    "throws": "甩牌",
    "throw_what": (
        "甩牌：一次出同一门的几个牌型，如 ♠A ♠A ♠K（一对加一张）。只有其他三家这门的牌都管不上其中任何一部分时才算成"
        "功，系统按各家手里真实的牌检查。"
    ),
    "throw_fail": (
        "甩牌失败：牌亮给大家看后收回，系统替你改出其中能被管上的、张数最少（一样多就最小）的那一部分，甩牌的一方罚 "
        "{n} 分：庄家方甩失败，闲家得分加 {n}；闲家甩失败，闲家得分减 {n}。"
    ),
    "throw_fail_free": (
        "甩牌失败：牌亮给大家看后收回，系统替你改出其中能被管上的、张数最少（一样多就最小）的那一部分；本桌不罚分。"
    ),
    "throw_win": "甩牌成功后：副牌的甩牌只有没这门牌的人用同样组合的主牌才能毙；主牌的甩牌一定最大。",
    "trick": "谁赢这一轮",
    "trick_compete": (
        "要管上，必须出首家的牌型（或同张数更强的牌型），并且全是首家那一门的牌；或者首家出副牌、你这门没有了，"
        "全出主牌（毙）。垫牌、拆开的牌型管不上。"
    ),
    "trick_higher": (
        "主牌大过副牌；同一门里牌型强的大（如四张大过两对的拖拉机），牌型一样比大小（拖拉机从最大的一组比起）"
        "。一样大时先出的大。"
    ),
    "trick_example": (
        "例：打 5、红桃为主，首家出 ♠K ♠K，第二家垫 ♠3 ♠4，第三家没有黑桃出 ♥9 ♥9，第四家没有黑桃出 ♣2 ♣2："
        "第四家赢（♣2 ♣2 是主牌里更大的对子），得 20 分。"
    ),
    "trick_points": "这一轮的分归赢的一方，赢的人先出下一轮。",
    "points": "分与扣底",
    "point_cards": (
        "分牌：每张 5 算 5 分，每张 10 和 K 算 10 分（主牌也一样），216 张里共 400 分。只算闲家抓到的分，"
        "庄家方抓到的不算。"
    ),
    "kou_di": (
        "扣底：最后一轮的分要乘以每家出的张数（单张 ×1，对子 ×2，三张 ×3，两对的拖拉机 ×4，依此类推）：闲家赢最后一轮"
        "，加到闲家得分上；庄家方赢最后一轮，从闲家得分里减掉。"
    ),
    "score": "闲家得分 = 闲家在最后一轮以前抓的分 + 扣底 + 甩牌罚分，可能是 0 或负数。",
    "score_no_pen": "闲家得分 = 闲家在最后一轮以前抓的分 + 扣底，可能是 0 或负数。",
    "levels": "升级",
    "lv_zero": "闲家得分 ≤ 0：庄家方升 3 级。",
    "lv_80": "0 < 得分 < 80：庄家方升 2 级。",
    "lv_160": "80 ≤ 得分 < 160：庄家方升 1 级。",
    "lv_att": "得分 ≥ 160：闲家赢，上台坐庄，升 1 级；以后每多 80 分多升 1 级（240 升 2 级，320 升 3 级……）。",
    "lv_other": "另一方的级不变，级不会降。",
    "ace_defend": "必打 A：级升到 A 为止。庄家方打 A 并赢了这一局，就赢得整场比赛。",
    "ace_pass": "过 A 即胜：哪一方的级先要超过 A（坐庄或做闲家都算），立即赢得整场比赛。",
    "hand_limit": "最多打 {n} 局：打满 {n} 局比赛结束，级高的一方赢，一样高算平局。",
    "scoring": "积分",
    "settle": (
        "每局结算：赢的一方每人得 升级数 × 底注（房间定的，见桌上），输的一方每人扣同样多；按应升的级数算（升到 "
        "A 为止时也照算）。"
    ),
    "match_bonus": "比赛结束时，赢的一方每人再得 {n} × 底注，输的一方每人扣 {n} × 底注（平局不算）。",
    "escape": "逃跑：牌局中离开，比赛立即结束，逃跑的人扣 3 × 底注，其他人不加不减。",
    "leave": "牌局中离开不扣分：你的座位由系统托管，一直打到比赛结束。",
    "time": "时间与托管",
    "timers": "发牌每张 {deal} 秒，发完后最后叫主 {final} 秒；庄家的第一手 {first} 秒，以后每次出牌 {play} 秒。",
    "timeout": "叫主时间到只算不叫，不进入托管。出牌超时，系统替你出最小的合法牌，并进入托管。",
    "auto_passive": "托管（可以随时开关，掉线时自动托管）：不叫主，每次出最小的合法牌。",
    "auto_smart": "托管（可以随时开关，掉线时自动托管）：由电脑替你打。",
}

EN: dict[str, str] = {
    "overview": "The game",
    "cards": (
        "Four players in two teams: partners sit opposite. Four decks, 216 cards (52 and two jokers each),"
        " dealt one at a time until each player has 54; there is no kitty. Play goes counter-clockwise."
    ),
    "sides": (
        "Each hand has a banker: the banker and partner are the banker side (庄家方), the other team the "
        "attackers (闲家). The attackers collect points and the banker side keeps them from it: the attackers' "
        "points decide which team goes up in level, and by how much."
    ),
    "levels_intro": (
        "Each team has a level, both starting at {start}, in the order 3 4 5 6 7 8 9 10 J Q K A (the 2s "
        "are always trumps, so 2 is never a level). A hand is played at the banker side's level; the 16 "
        "cards of that rank are the level cards."
    ),
    "banker_first": (
        "In the first hand the player whose declaration stands when the deal ends is the banker; if nobody "
        "declared, the player who got the first card."
    ),
    "banker_next": (
        "After that: if the banker side won the hand, the banker's partner banks next; if the attackers "
        "won, the banker's next player (下家)."
    ),
    "deal": "The deal and declaring trumps",
    "deal_order": (
        "Each hand a random player gets the first card; the four take one card at a time in turn, and anyone "
        "may declare at any moment of the deal."
    ),
    "declare": (
        "Declaring (叫主): show 1 to 4 identical level cards of one suit (at level 3, say, ♦3 or ♠3 ♠3) "
        "to make that suit trumps. Jokers cannot be declared, and there is no no-trump hand. The cards shown "
        "stay in your hand and are played as usual."
    ),
    "overcall": (
        "Overcalling (反主): show at least one card more than the standing declaration; an equal count never "
        "overcalls, the first shown stands. You cannot overcall yourself; your partner can. An overcall "
        "may name the same suit (only the declarer changes)."
    ),
    "concealed": "Declarations are concealed: the others see who declared and how many cards, not the suit.",
    "final": (
        "After the last card there are {final} s more to declare (the clock starts again after each declaration). "
        "Then the standing declaration is shown and its suit is trumps; if nobody declared, spades are trumps."
    ),
    "deal_banker": (
        "In the first hand the standing declarer becomes the banker; in later hands a declaration only chooses "
        "the trump suit."
    ),
    "trumps": "Trumps and card order",
    "trump_cards": (
        "Trumps: both jokers, all the level cards, all the 2s, and every card of the trump suit; together "
        "they count as one suit. The other three suits (without their 2s and level cards) are plain suits,"
        " each a suit of its own."
    ),
    "trump_order": (
        "Trumps, high to low: big joker > small joker > the trump suit's level card > the other three level "
        "cards (equal) > the trump suit's 2 > the other three 2s (equal) > the trump suit's A K Q J 10 … "
        "3 (without the level rank)."
    ),
    "plain_order": "Plain suits, high to low: A K Q J 10 … 3 (without the level rank).",
    "trump_example": "For example at level 5 with hearts trumps, ♣5 and ♠2 are trumps, not clubs or spades.",
    "equal": "Between equal cards in a trick (two ♠K, or two plain-suit level cards) the one played first is higher.",
    "combos": "Combinations",
    "single": "Single: any one card.",
    "pair": (
        "Pair: two identical cards (same rank and same suit), e.g. ♠7 ♠7; two small or two big jokers are "
        "a pair too; ♠5 ♦5, or a small and a big joker, are not."
    ),
    "triple": "Triple: three identical cards.",
    "quad": "Quad: four identical cards (there are at most four of a card).",
    "tractor": (
        "Tractor (拖拉机): two or more pairs (or triples, or quads, all of one size) of consecutive ranks "
        "in one suit, e.g. ♠7 ♠7 ♠8 ♠8 or ♠9 ♠9 ♠9 ♠10 ♠10 ♠10. The level rank is left out of the run: at "
        "level 8, ♣7 ♣7 ♣9 ♣9 is consecutive; a plain suit's 2 is a trump and not in its run either."
    ),
    "trump_chain": (
        "In trumps the run is: the trump suit's 3 … A (without the level rank) → the 2s → the level cards "
        "→ small joker → big joker. So at level 3 with hearts trumps ♥A ♥A ♣2 ♣2, ♥2 ♥2 ♠3 ♠3, ♣3 ♣3 + two "
        "small jokers, and two small + two big jokers are tractors; cards in the same place are not consecutive "
        "(♣2 ♣2 ♥2 ♥2 is no tractor)."
    ),
    "stronger": (
        "With the same number of cards, a tractor of triples beats a tractor of pairs and a tractor of quads "
        "beats a tractor of triples; a quad (e.g. ♠4 ♠4 ♠4 ♠4) also beats a tractor of two pairs, whatever "
        "the ranks."
    ),
    "play": "Leading and following",
    "lead_first": "The banker leads the first trick; the winner of each trick leads the next.",
    "lead_throws": (
        "The leader plays one combination of one suit (all trumps count as one suit), or a throw (see below). "
        "The other three follow in turn, each with the same number of cards."
    ),
    "lead_no_throws": (
        "The leader plays one combination of one suit (all trumps count as one suit); there are no throws "
        "at this table. The other three follow in turn, each with the same number of cards."
    ),
    "follow_enough": (
        "Enough cards of the led suit: you must play that suit, as close to the lead's shape as you can: "
        "on a pair, a pair if you have one; on a triple, a triple, else a pair and a card; on a tractor "
        "of two pairs, a tractor or a quad, else two pairs, else one pair. Longer leads work the same way,"
        " tractors and pairs first, in a fixed order. A play that is not allowed is explained on the Play "
        "button, and Hint offers one that is."
    ),
    "follow_short": "Not enough of the led suit: play all you have of it and fill up with other cards.",
    "follow_void": (
        "None of the led suit: play any cards; when a plain suit was led and all your cards are trumps, "
        "you trump it and may win the trick."
    ),
    "follow_throw": (
        "Following a throw: with enough of the suit, play at least as many pairs as the throw holds (or "
        "as many as your cards make; a triple counts as one pair, a quad as two)."
    ),
    "throws": "Throws (甩牌)",
    "throw_what": (
        "A throw leads several combinations of one suit at once, e.g. ♠A ♠A ♠K (a pair and a single). It "
        "stands only if no other player can beat any part of it with cards of that suit: the system checks "
        "the real hands."
    ),
    "throw_fail": (
        "A failed throw is shown to all and taken back; the system leads instead its beatable part with "
        "the fewest cards (then the lowest), and the thrower's side loses {n} points: a banker-side throw "
        "adds {n} to the attackers' score, an attacker's throw takes {n} from it."
    ),
    "throw_fail_free": (
        "A failed throw is shown to all and taken back; the system leads instead its beatable part with "
        "the fewest cards (then the lowest). There is no penalty at this table."
    ),
    "throw_win": (
        "A throw that stands: a plain-suit throw can be beaten only by a player out of that suit with trumps "
        "of the same combinations; a trump throw always wins."
    ),
    "trick": "Winning a trick",
    "trick_compete": (
        "To beat the trick a play must have the lead's shape (or a stronger one of the same size) and be "
        "all of the led suit — or, when a plain suit was led and you have none of it, all trumps. Discards "
        "and broken shapes never win."
    ),
    "trick_higher": (
        "Trumps beat a plain suit; within a suit the stronger kind is higher (a quad over a tractor of two "
        "pairs), then the higher cards (tractors compare from their top group). Between equal plays the "
        "first one holds."
    ),
    "trick_example": (
        "Example, level 5, hearts trumps: ♠K ♠K is led; the second player follows ♠3 ♠4; the third, out "
        "of spades, plays ♥9 ♥9; the fourth, out of spades, plays ♣2 ♣2 and wins (♣2 ♣2 is the higher trump "
        "pair): 20 points."
    ),
    "trick_points": "The trick's points go to the winner's side, and the winner leads next.",
    "points": "Points and the last trick (扣底)",
    "point_cards": (
        "Point cards: every 5 is worth 5, every 10 and K 10 (trumps too): 400 points in the 216 cards. Only "
        "the attackers' points count; what the banker side takes is not counted."
    ),
    "kou_di": (
        "Last-trick bonus (扣底): the last trick's points are multiplied by the number of cards each player "
        "played in it (single ×1, pair ×2, triple ×3, a tractor of two pairs ×4, and so on). If the attackers "
        "win the last trick, that is added to their score; if the banker side wins it, it is taken from "
        "the attackers' score."
    ),
    "score": (
        "Attackers' score = their points before the last trick + the last-trick bonus + throw penalties;"
        " it can be 0 or negative."
    ),
    "score_no_pen": (
        "Attackers' score = their points before the last trick + the last-trick bonus; it can be 0 or negative."
    ),
    "levels": "Going up in level",
    "lv_zero": "Attackers' score ≤ 0: the banker side goes up 3 levels.",
    "lv_80": "0 < score < 80: the banker side goes up 2.",
    "lv_160": "80 ≤ score < 160: the banker side goes up 1.",
    "lv_att": (
        "Score ≥ 160: the attackers win and take the bank, up 1 level, and 1 more for every further 80 (240: "
        "up 2, 320: up 3, …)."
    ),
    "lv_other": "The other team's level stays; levels never go down.",
    "ace_defend": (
        "A must be played (必打A): no level goes above A. The banker side that wins a hand played at A wins the match."
    ),
    "ace_pass": (
        "Past A wins: the first team whose level would go above A (as banker or as attackers) wins the match at once."
    ),
    "hand_limit": (
        "At most {n} {n|hand|hands}: after {n} {n|hand|hands} the match ends; the team with the higher level "
        "wins, equal levels are a draw."
    ),
    "scoring": "Scoring",
    "settle": (
        "Each hand: every player of the winning team gets levels gained × stake (the room's, shown at the "
        "table), every player of the losing team loses as much; the gain counts in full even where A stops "
        "the level."
    ),
    "match_bonus": (
        "When the match ends each winner gets {n} × stake more and each loser loses {n} × stake (nothing on a draw)."
    ),
    "escape": (
        "Escaping: leaving during a hand ends the match at once; the escaper loses 3 × stake and nobody "
        "else's score changes."
    ),
    "leave": "Leaving during a hand costs nothing extra: auto-play plays your seat to the end of the match.",
    "time": "Time and auto-play",
    "timers": (
        "The deal goes at {deal} s a card, then {final} s to declare at the end; {first} s for the banker's "
        "first lead, {play} s for every other play."
    ),
    "timeout": (
        "Out of time while declaring: a pass, no auto-play. Out of time to play: the system plays your lowest "
        "legal play and auto-play takes over."
    ),
    "auto_passive": (
        "Auto-play (托管; on and off at will, on when you disconnect): never declares, plays the lowest legal play."
    ),
    "auto_smart": "Auto-play (托管; on and off at will, on when you disconnect): a bot plays for you.",
}

WORDS = Words(ZH, EN)
"""Every text of Shengji's rules, in Chinese and English."""


def seconds(value: float) -> str:
    """Seconds to the millisecond, without a trailing ``.0``.

    >>> seconds(5.0), seconds(0.15), seconds(0.0004), seconds(0.0005), seconds(3599.9996)
    ('5', '0.15', '0', '0.001', '3600')
    """
    ms = math.floor(value * 1000 + 0.5)
    return str(ms // 1000) if ms % 1000 == 0 else str(ms / 1000)


def level_text(level: str) -> str:
    """A level as a player reads it (``T`` is 10)."""
    return "10" if level == "T" else level


def explain(options: Mapping[str, Any], lang: Lang) -> list[Section]:
    """The rules of a table with ``options`` (``preset`` plus overrides, or every value) in ``lang``, as sections:
    the overview, the deal and declaring, trumps, combinations, leading and following, throws (where the table
    has them), tricks, points, levels, scoring and time."""
    o = resolve_options(options)

    def w(key: str, **params: object) -> str:
        return WORDS(lang, key, **params)

    throws = bool(o["throws"])
    penalty = int(o["throw_penalty"])
    final = seconds(float(o["final_declare_s"]))
    follow = [w("follow_enough"), w("follow_short"), w("follow_void")]
    if throws:
        follow.append(w("follow_throw"))
    sections = [
        Section(
            "overview",
            w("overview"),
            (
                w("cards"),
                w("sides"),
                w("levels_intro", start=level_text(str(o["start_level"]))),
                (w("banker_first"), w("banker_next")),
            ),
        ),
        Section(
            "deal",
            w("deal"),
            (w("deal_order"), (w("declare"), w("overcall"), w("concealed")), w("final", final=final), w("deal_banker")),
        ),
        Section(
            "trumps",
            w("trumps"),
            (w("trump_cards"), (w("trump_order"), w("plain_order")), w("trump_example"), w("equal")),
        ),
        Section(
            "combos",
            w("combos"),
            ((w("single"), w("pair"), w("triple"), w("quad"), w("tractor")), w("trump_chain"), w("stronger")),
        ),
        Section("play", w("play"), (w("lead_first"), w("lead_throws" if throws else "lead_no_throws"), tuple(follow))),
    ]
    if throws:
        sections.append(
            Section(
                "throws",
                w("throws"),
                (w("throw_what"), w("throw_fail", n=penalty) if penalty else w("throw_fail_free"), w("throw_win")),
            )
        )
    levels: list[Item] = [
        (w("lv_zero"), w("lv_80"), w("lv_160"), w("lv_att")),
        w("lv_other"),
        w("ace_pass" if o["ace_rule"] == "pass" else "ace_defend"),
    ]
    if o["hand_limit"]:
        levels.append(w("hand_limit", n=int(o["hand_limit"])))
    scoring: list[Item] = [w("settle")]
    if o["match_bonus"]:
        scoring.append(w("match_bonus", n=int(o["match_bonus"])))
    scoring.append(w("escape" if o["escape_penalty"] else "leave"))
    sections += [
        Section("trick", w("trick"), (w("trick_compete"), w("trick_higher"), w("trick_example"), w("trick_points"))),
        Section(
            "points", w("points"), (w("point_cards"), w("kou_di"), w("score" if throws and penalty else "score_no_pen"))
        ),
        Section("levels", w("levels"), tuple(levels)),
        Section("scoring", w("scoring"), tuple(scoring)),
        Section(
            "time",
            w("time"),
            (
                w(
                    "timers",
                    deal=seconds(int(o["deal_step_ms"]) / 1000),
                    final=final,
                    first=seconds(float(o["first_lead_s"])),
                    play=seconds(float(o["play_s"])),
                ),
                w("timeout"),
                w("auto_smart" if o["auto_play"] == "smart" else "auto_passive"),
            ),
        ),
    ]
    return sections
