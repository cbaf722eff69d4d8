"""Daqing mahjong's rules in words (玩法说明, RULES-mahjong.md §1–§9), built from a table's option values: what the
browser's rules page and table dialog and the terminal's ``rules`` command show (:mod:`qipai.core.explain`).
Branches on option fields, never on a preset's name, so a private table's own options read right too.

>>> parts = explain({"preset": "daqing"}, "en")
>>> [s.id for s in parts]
['overview', 'play', 'claims', 'ting', 'bao', 'win', 'jia', 'scoring', 'time']
>>> parts[6].items[1][:60]
'Not a middle wait: an edge wait (1-2 waiting on 3, 8-9 on 7)'
>>> explain({"jia_37": True, "dan_diao_jia": True}, "zh")[6].items[1]
'这些不算夹：两面（4 5 胡 3 或 6）、对倒（两对等一张，胡成刻子）。'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.explain import Item, Lang, Section, Words
from .rules import Rules

ZH: dict[str, str] = {
    "overview": "概要",
    "tiles": (
        "一副牌 112 张：万、筒、条三门，每门 1 到 9，每种四张；再加四张红中。没有东南西北风、发财、白板和花牌。"
        "红中不算哪一门：不能组顺子、不能吃，但可以碰。"
    ),
    "players": (
        "四人各打各的。庄家先拿 14 张，其他三家各 13 张。目标是凑成四组加一对（组是顺子或刻子）胡牌，从输家那里收分。"
    ),
    "dealer_random": "第一局随机定庄。",
    "dealer_seat0": "第一局由桌上的第一个座位坐庄。",
    "dealer_next": "庄家胡牌或荒庄，庄家连庄；别人胡牌，庄家的下家坐庄。",
    "play": "摸牌与打牌",
    "turns": (
        "庄家先打出一张（这一手不能胡，也不能听）。以后逆时针轮流：先从牌墙摸一张，再打出一张。打出的牌摆在自己的牌河"
        "里，大家都看得到。"
    ),
    "no_kong": (
        "没有杠：四张一样的牌只是四张牌，可以当一个刻子再加一张组顺子；碰过的牌再摸到第四张，也只是一张普通的牌。"
    ),
    "exhausted": "荒庄：该摸牌时牌墙已经摸完，这局没人胡，谁也不付分，庄家连庄。",
    "claims": "吃、碰、胡",
    "claims_intro": "有人打出一张牌后，其他人可以要这张牌：",
    "chi": "吃：只有下家可以，用手里两张和这张组成顺子（比如打出 5万，用 3万4万、4万6万 或 6万7万 吃）。",
    "peng": "碰：任何一家手里有两张一样的，都可以碰（红中也可以碰）。",
    "chi_ting": (
        "吃听、碰听：吃或碰以后打一张就能听牌时，可以吃听、碰听，然后必须打一张牌听牌。吃听可以吃任意一家打出的牌，"
        "不只是上家。"
    ),
    "hu_discard": "胡：听了牌的人，这张牌能让他胡，就胡（点炮），三家打的牌都可以胡。",
    "hu_discard_any": "胡：这张牌能让你胡，就可以胡（点炮），三家打的牌都可以胡；听牌不是必须的。",
    "after_claim": (
        "吃或碰以后不摸牌，直接打一张（或听牌），然后从你的下家接着摸；中间被跳过的人这一轮不摸牌。没人要的牌留在牌河"
        "里，下家摸牌。"
    ),
    "three_melds": "最多吃碰三口：第四口会让手里只剩一张（手把一），不可以。已经听牌的人不能吃、碰。",
    "priority_ting": (
        "几家都要同一张牌时：胡 > 碰听 > 吃听 > 碰 > 吃（听牌优先）；一样的按逆时针离打牌的人近的优先。一张牌只有一个"
        "人胡（没有一炮多响）。"
    ),
    "priority_plain": (
        "几家都要同一张牌时：胡 > 碰（碰听也一样）> 吃（吃听也一样）；一样的按逆时针离打牌的人近的优先。"
        "一张牌只有一个人胡（没有一炮多响）。"
    ),
    "ting": "听牌",
    "ting_what": (
        "听（上听）：轮到你打牌时，如果打出一张后只差一张就能胡，可以选择「听」：打出这张并宣布听牌。自己已经有四张的"
        "牌不算你听的牌。"
    ),
    "ting_open": "听牌必须开门：至少吃或碰过一口（门清不能听牌）。",
    "ting_needed": "只有听了牌才能胡。",
    "ting_not_needed": "本桌没听牌也可以胡（但用不上宝）。",
    "ting_lock": "听牌以后手牌锁定：不能再吃、碰，摸到不能胡的牌自动打出，一直听到这局结束。",
    "ting_feed": "听牌以后打出的牌（包括听牌时打的那张）被别人胡了，不算点炮，也不包三家（见计分）。",
    "bao": "宝",
    "bao_set": (
        "第一家听牌时，从牌墙尾拿一张扣着放在一边，这张牌就是宝。只有听了牌的人看得到宝（从自己听牌起）；"
        "这局结束时大家都看得到。"
    ),
    "mo_bao": (
        "摸宝：听牌的人摸到和宝一样的牌就胡，不管这张牌本来合不合手：它可以当作你听的任意一张牌（按番最多的算）"
        "。摸宝算自摸，另加宝番。别人打出的宝牌只是普通的牌。"
    ),
    "bzb": "宝中宝：宝正好是你听的牌，而且胡这张是夹，摸到它就是宝中宝（自摸、夹、宝、宝中宝四番）。",
    "huan_bao": (
        "换宝：宝这种牌已经亮出三张（牌河里、吃碰的牌里、换下来的旧宝）时，宝就死了：旧宝翻开给大家看，再从牌墙尾取一"
        "张作新宝。"
    ),
    "hongzhong_wild": "红中满天飞：听牌的人摸到红中，也算摸宝胡（红中本身是宝时才可能是宝中宝）。",
    "gua_da_feng": "刮大风：听牌的人摸到自己有刻子的牌（手里有三张，或者碰过），也算摸宝胡。",
    "dai_lou": (
        "带漏：听牌时看到的宝正好是你听的牌{extra}，立即胡牌（算自摸，加宝番）。只在听牌那一刻算，换宝以后不算。"
    ),
    "dai_lou_gua": "、或是你有刻子的牌",
    "dai_lou_hz": "、或是红中",
    "win": "胡牌",
    "shape": (
        "胡牌的牌型：四组加一对，共 14 张（吃、碰的算组）。组是顺子（同一门三张相连，如 3万4万5万，红中不能组顺子，"
        "9 和 1 不相连）或刻子（三张一样，三张红中也算）。没有七对、十三幺等其他牌型。"
    ),
    "conditions": "还要同时满足：",
    "two_suits": "两门以上：万、筒、条至少有两门（红中不算门），清一色不能胡。",
    "triplet": "有刻子：至少有一个刻子（碰的或手里的），或者将（那一对）是两张红中。",
    "yaojiu": "有幺九：至少有一张 1 或 9，或者有红中。",
    "open": "开门：至少吃或碰过一口，门清不能胡；最多三口。",
    "need_seq": "有顺子：至少有一组顺子（吃的或手里的）。",
    "bu_jia_bu_hu": "不夹不胡：胡的那张必须是夹（见下）。",
    "win_example": (
        "例：手里 2万3万4万、6筒7筒8筒、2万4万、红中红中，吃过 5条6条7条，胡 3万：三门都有，一对红中既当刻子也当幺九"
        "，3万是夹。"
    ),
    "jia": "夹",
    "jia_what": "夹（卡）：胡的那张在手里顺子的中间，如 4万6万 胡 5万。同一手牌有几种拆法时，只要有一种是夹就算夹。",
    "not_jia": "这些不算夹：{list}。",
    "place_edge": "边张（1 2 胡 3、8 9 胡 7）",
    "place_two": "两面（4 5 胡 3 或 6）",
    "place_single": "单调（胡那一对）",
    "place_pair": "对倒（两对等一张，胡成刻子）",
    "list_sep": "、",
    "jia_37": "3·7夹：边张（胡 3 或 7）也算夹。",
    "dan_diao_jia": "单调夹：单调也算夹。",
    "zhi_dui": (
        "支对：听牌时手里是对倒（两对等其中一张），可以支对其中一对：以后只能胡这一张（宝也只能当这一张），胡了算夹。"
    ),
    "scoring": "计分",
    "share": "每一番翻一倍：每个输家应付 = 底分 {base} × 2^番数（没有番就是 {base}）。",
    "fans": "番种：",
    "fan_self": "自摸：自己摸到胡牌（摸宝也算）。",
    "fan_jia": "夹：胡的那张是夹。",
    "fan_bao": "宝：摸宝胡{extra}。",
    "fan_bao_hz": "、红中满天飞",
    "fan_bao_gua": "、刮大风",
    "fan_bao_dl": "、带漏",
    "fan_bzb": "宝中宝：见上。",
    "fan_dealer": "庄：胡牌的人是庄家，三家都加这一番；输家是庄家，只有他加。",
    "fan_closed": "门清：输家自己没吃没碰过，他加这一番。",
    "fan_pao": "点炮：输家没听牌就打出了胡的那张，他加这一番。",
    "who_pays": "谁付：",
    "pay_self": "自摸：三家各付自己的一份。",
    "pay_bao": (
        "点炮（没听牌的人打出了胡的那张）：包三家，三家的份都由点炮的人一个人付（他自己那份加点炮番，另外两家的按他们"
        "自己的番算），另外两家不付。"
    ),
    "pay_ready_all": "听牌的人打出了胡的那张：不算点炮、不包三家，三家各付自己的一份。",
    "pay_ready_own": "听牌的人打出了胡的那张：不算点炮、不包三家，只有他付自己那一份，另外两家不付。",
    "no_cap": "没有封顶。荒庄大家都不付。",
    "pay_example": "例：三家都吃碰过，庄家以外的一家自摸，不夹：庄家付 {a}（自摸、庄两番），另外两家各付 {b}。",
    "levels": (
        "级别：按你在大庆麻将里的总积分，200 分以下是新手，200 分入门，以后每升一级分数翻一倍，一共 21 级，"
        "最高是麻将主席。"
    ),
    "time": "时间与托管",
    "timers": "打牌（或听牌）每次 {turn} 秒，吃、碰、胡的选择 {claim} 秒。",
    "timeout": (
        "打牌超时：系统替你打出刚摸的牌（吃碰以后打手里排在最后的一张；吃听、碰听以后替你听牌），并进入托管。"
        "吃碰的选择超时只算过，不进入托管。"
    ),
    "auto_hu": "系统自动胡牌：能胡的时候系统立即替你胡，不能放弃。",
    "no_auto_hu": "能胡时由你选择胡还是过；放弃以后，到你下一次摸牌以前不能再胡别人打的牌。",
    "autoplay": "托管（可以随时开关）：摸什么打什么，不吃、不碰、不听，能胡就胡。掉线时自动托管，回来后恢复。",
    "leave": "牌局中离开：系统托管打完这局，照常结算，不另外罚分。",
}

EN: dict[str, str] = {
    "overview": "The game",
    "tiles": (
        "112 tiles: three suits — characters (万), dots (筒) and bamboo (条) — ranks 1 to 9, four of each,"
        " and four red dragons (红中). No winds, no other dragons, no flowers. The red dragon belongs to "
        "no suit: it never makes a sequence and cannot be chowed, but it can be punged."
    ),
    "players": (
        "Four players, each for himself. The dealer (庄家) starts with 14 tiles, the others with 13. The "
        "aim is a hand of four sets and a pair (a set is a sequence or a triplet), and a win is paid by "
        "the losers."
    ),
    "dealer_random": "The first dealer is drawn at random.",
    "dealer_seat0": "The first dealer is the table's first seat.",
    "dealer_next": (
        "If the dealer wins, or nobody wins, the dealer deals again; if another player wins, the dealer's "
        "next player deals."
    ),
    "play": "Drawing and discarding",
    "turns": (
        "The dealer first discards a tile (he can neither win nor declare ready on it). Then the turn goes "
        "counter-clockwise: draw a tile from the wall, then discard one. Discards lie in front of each player "
        "(牌河), in view of all."
    ),
    "no_kong": (
        "There are no kongs: four identical tiles are just four tiles — a triplet and one tile of a sequence,"
        " say; drawing the fourth tile of a pung gives an ordinary tile."
    ),
    "exhausted": (
        "Exhausted wall (荒庄): when a player should draw and the wall is empty, the deal ends with no winner,"
        " nobody pays, and the dealer deals again."
    ),
    "claims": "Chow, pung and win",
    "claims_intro": "When a tile is discarded, the others may claim it:",
    "chi": (
        "Chow (吃): only the discarder's next player (下家), with two tiles of his that make a sequence "
        "with it (on a discarded 5 characters: 3–4, 4–6 or 6–7 characters)."
    ),
    "peng": "Pung (碰): any player holding two identical tiles (red dragons too).",
    "chi_ting": (
        "Chow & declare ready (吃听), pung & declare ready (碰听): when after the chow or pung one discard "
        "leaves a ready hand, the claim may be made so, and the claimer must then declare ready with his "
        "discard. A chow & declare ready may take any player's discard, not only the previous player's."
    ),
    "hu_discard": (
        "Win (胡): a player who has declared ready and whose hand wins with the tile wins on it (点炮, someone "
        "fed the win) — the discard of any of the three others."
    ),
    "hu_discard_any": (
        "Win (胡): a player whose hand wins with the tile may win on it (点炮, someone fed the win) — the "
        "discard of any of the three others; declaring ready is not needed."
    ),
    "after_claim": (
        "After a chow or pung you do not draw: you discard (or declare ready), and play goes on from your "
        "next player; the players passed over miss that draw. A tile nobody claims stays in the discards "
        "and the next player draws."
    ),
    "three_melds": (
        "At most three chows and pungs: a fourth would leave a single tile in hand (手把一), which is not "
        "allowed. A player who has declared ready cannot chow or pung."
    ),
    "priority_ting": (
        "When several players claim a tile: win > pung & declare ready > chow & declare ready > pung > chow "
        "(a ready claim first, 听牌优先); between equals, the one nearest after the discarder, counter-clockwise. "
        "Only one player wins on a tile."
    ),
    "priority_plain": (
        "When several players claim a tile: win > pung (with or without declaring ready) > chow (with or "
        "without); between equals, the one nearest after the discarder, counter-clockwise. Only one player "
        "wins on a tile."
    ),
    "ting": "Declaring ready (听)",
    "ting_what": (
        "Declare ready (听, 上听): in your turn, when one discard leaves you a single tile from winning,"
        " you may declare ready: discard that tile and declare. A tile of which you hold all four is not "
        "one you wait on."
    ),
    "ting_open": (
        "To declare ready you need at least one chow or pung (an open hand): a closed hand cannot declare ready."
    ),
    "ting_needed": "Only a player who has declared ready can win.",
    "ting_not_needed": "At this table a player may win without having declared ready (but without the treasure).",
    "ting_lock": (
        "Once ready, the hand is frozen: no more chows or pungs; every drawn tile that does not win is discarded "
        "for you, to the end of the deal."
    ),
    "ting_feed": (
        "A winning tile you discard once ready (the declaring discard included) does not count as feeding "
        "the win, and you do not pay for all three (see Scoring)."
    ),
    "bao": "The treasure (宝)",
    "bao_set": (
        "When the first player declares ready, the tile at the end of the wall is set aside face down: its "
        "kind is the treasure. Only players who have declared ready see it (each from his own declaration);"
        " everybody sees it when the deal ends."
    ),
    "mo_bao": (
        "Treasure draw (摸宝): a ready player who draws a tile of the treasure's kind wins, whether or not "
        "it fits his hand: it stands for any one of the tiles he waits on (the reading with the most fans "
        "is taken). It counts as self-drawn, with the treasure fan on top. A treasure tile someone discards "
        "is only its face."
    ),
    "bzb": (
        "Treasure in treasure (宝中宝): the treasure is itself a tile you wait on, as a middle wait, and "
        "you draw it (fans: self-drawn, middle wait, treasure, treasure in treasure)."
    ),
    "huan_bao": (
        "Replacing the treasure (换宝): when three tiles of its kind are in view (in the discards, in chows "
        "and pungs, among old treasures) the treasure is dead: it is turned face up for all, and the tile "
        "now at the end of the wall becomes the new treasure."
    ),
    "hongzhong_wild": (
        "Red dragons everywhere (红中满天飞): a ready player who draws a red dragon wins as by a treasure "
        "draw (treasure in treasure only when the red dragon is the treasure)."
    ),
    "gua_da_feng": (
        "Big wind (刮大风): a ready player who draws a tile of which he has a triplet (three in hand, or "
        "a pung) wins as by a treasure draw."
    ),
    "dai_lou": (
        "Ready on the treasure (带漏): if the treasure you see when you declare ready is a tile you wait "
        "on{extra}, you win at once (self-drawn, with the treasure fan). Only at the moment of declaring,"
        " not after a replaced treasure."
    ),
    "dai_lou_gua": ", or one you have a triplet of",
    "dai_lou_hz": ", or a red dragon",
    "win": "A winning hand",
    "shape": (
        "A winning hand is four sets and a pair, 14 tiles (chows and pungs count as sets). A set is a sequence "
        "(three running ranks of one suit, e.g. 3-4-5 characters; never with a red dragon, and 9 does not "
        "run on to 1) or a triplet (three identical tiles, red dragons too). No other hand wins: no seven "
        "pairs, no thirteen orphans."
    ),
    "conditions": "It also needs all of these:",
    "two_suits": (
        "Two suits or three: at least two of characters, dots and bamboo (red dragons are no suit); a one-suit "
        "hand cannot win."
    ),
    "triplet": "A triplet: at least one triplet (a pung or three in hand), or a pair of red dragons as the pair.",
    "yaojiu": "A 1 or 9 (幺九): at least one 1 or 9, or a red dragon.",
    "open": "Open: at least one chow or pung, never closed; at most three.",
    "need_seq": "A sequence: at least one sequence (a chow or one in hand).",
    "bu_jia_bu_hu": "No win without a middle wait (不夹不胡): the winning tile must be a middle wait (see below).",
    "win_example": (
        "Example: in hand 2-3-4 characters, 6-7-8 dots, 2 and 4 characters and two red dragons, with a chow "
        "of 5-6-7 bamboo; a 3 characters wins: three suits, and the red dragon pair is both the triplet "
        "and the 1-or-9; the 3 is a middle wait."
    ),
    "jia": "Middle wait (夹)",
    "jia_what": (
        "Middle wait (夹, 卡): the winning tile is the middle of a sequence in hand, as a 5 on 4 and 6. "
        "When the hand can be read several ways, one reading with a middle wait is enough."
    ),
    "not_jia": "Not a middle wait: {list}.",
    "place_edge": "an edge wait (1-2 waiting on 3, 8-9 on 7)",
    "place_two": "a two-sided wait (4-5 waiting on 3 or 6)",
    "place_single": "a single wait (completing the pair)",
    "place_pair": "a pair wait (two pairs waiting to make a triplet)",
    "list_sep": "; ",
    "jia_37": "3·7 middle wait (3·7夹): an edge wait (on a 3 or a 7) counts as a middle wait.",
    "dan_diao_jia": "Single-wait middle (单调夹): a single wait counts as a middle wait.",
    "zhi_dui": (
        "Naming the pair (支对): declaring ready on a pair wait (two pairs, waiting on either), you may "
        "name one of the pairs: from then on you win only on that tile (the treasure too stands only for "
        "it), and the win counts as a middle wait."
    ),
    "scoring": "Scoring",
    "share": "Every fan doubles: each loser owes base {base} × 2^fans (with no fan, {base}).",
    "fans": "Fans:",
    "fan_self": "Self-drawn (自摸): the winner drew the winning tile himself (a treasure draw too).",
    "fan_jia": "Middle wait (夹): the winning tile is a middle wait.",
    "fan_bao": "Treasure (宝): a treasure draw{extra}.",
    "fan_bao_hz": ", red dragons everywhere",
    "fan_bao_gua": ", big wind",
    "fan_bao_dl": ", ready on the treasure",
    "fan_bzb": "Treasure in treasure (宝中宝): see above.",
    "fan_dealer": "Dealer (庄): the winner is the dealer — for all three; a loser is the dealer — for him.",
    "fan_closed": "Closed hand (门清): a loser who has no chow or pung — for him.",
    "fan_pao": "Fed the win (点炮): a loser who discarded the winning tile before declaring ready — for him.",
    "who_pays": "Who pays:",
    "pay_self": "Self-drawn: each loser pays his own share.",
    "pay_bao": (
        "Fed by a player who had not declared ready: he pays for all three (包三家) — his own share with "
        "the fed-the-win fan and the other two's with their own fans; the other two pay nothing."
    ),
    "pay_ready_all": (
        "Fed by a player who had declared ready: no fed-the-win fan and no paying for all three; each loser "
        "pays his own share."
    ),
    "pay_ready_own": (
        "Fed by a player who had declared ready: no fed-the-win fan and no paying for all three; he alone "
        "pays, his own share."
    ),
    "no_cap": "There is no cap. An exhausted wall pays nothing.",
    "pay_example": (
        "Example: everybody has a chow or pung, and a player other than the dealer wins self-drawn, no middle "
        "wait: the dealer pays {a} (self-drawn and dealer), the two others {b} each."
    ),
    "levels": (
        "Levels (级别): by your total points in Daqing mahjong — below 200 Novice (新手), 200 Beginner (入门),"
        " then each level at twice the points, 21 levels up to Mahjong chairman (麻将主席)."
    ),
    "time": "Time and auto-play",
    "timers": "{turn} s for each discard (or declaring ready), {claim} s to chow, pung or win on a discard.",
    "timeout": (
        "Out of time in your turn: the system discards the tile you drew (after a chow or pung, the last "
        "tile of your hand; after a ready claim, it declares ready for you) and auto-play takes over. Out "
        "of time on a claim: a pass, no auto-play."
    ),
    "auto_hu": (
        "Automatic win (系统自动胡牌): whenever you can win, the system wins for you at once; a win cannot be declined."
    ),
    "no_auto_hu": (
        "When you can win, you choose to win or pass; after passing you cannot win on a discard again until "
        "your next draw."
    ),
    "autoplay": (
        "Auto-play (托管; on and off at will): discards what it draws, never chows, pungs or declares ready,"
        " and wins whenever it can. A lost connection turns it on; coming back gives you the seat again."
    ),
    "leave": "Leaving during a deal: auto-play finishes it and it settles as usual; no extra penalty.",
}

WORDS = Words(ZH, EN)
"""Every text of Daqing mahjong's rules, in Chinese and English."""


def explain(options: Mapping[str, Any], lang: Lang) -> list[Section]:
    """The rules of a table with ``options`` (``preset`` plus overrides, or every value) in ``lang``, as sections:
    the overview, drawing and discarding, claims, declaring ready, the treasure, the winning hand, the middle
    wait, scoring and time."""
    o = Rules.from_options(options)

    def w(key: str, **params: object) -> str:
        return WORDS(lang, key, **params)

    base = o.base
    need_ting = o.hu_requires_ting
    not_jia = [
        w(k)
        for k, on in (
            ("place_edge", not o.jia_37),
            ("place_two", True),
            ("place_single", not o.dan_diao_jia),
            ("place_pair", True),
        )
        if on
    ]
    bao_options: list[str] = []
    if o.hongzhong_wild:
        bao_options.append(w("hongzhong_wild"))
    if o.gua_da_feng:
        bao_options.append(w("gua_da_feng"))
    if o.dai_lou:
        extra = (w("dai_lou_gua") if o.gua_da_feng else "") + (w("dai_lou_hz") if o.hongzhong_wild else "")
        bao_options.append(w("dai_lou", extra=extra))
    bao: list[Item] = [w("bao_set"), w("mo_bao"), w("bzb"), w("huan_bao")]
    if bao_options:
        bao.append(tuple(bao_options))
    conditions = [w("two_suits"), w("triplet"), w("yaojiu"), w("open")]
    if o.need_sequence:
        conditions.append(w("need_seq"))
    if o.bu_jia_bu_hu:
        conditions.append(w("bu_jia_bu_hu"))
    jia: list[Item] = [w("jia_what"), w("not_jia", list=w("list_sep").join(not_jia))]
    jia += [w(k) for k, on in (("jia_37", o.jia_37), ("dan_diao_jia", o.dan_diao_jia), ("zhi_dui", o.zhi_dui)) if on]
    bao_fan = (
        (w("fan_bao_hz") if o.hongzhong_wild else "")
        + (w("fan_bao_gua") if o.gua_da_feng else "")
        + (w("fan_bao_dl") if o.dai_lou else "")
    )
    return [
        Section(
            "overview",
            w("overview"),
            (
                w("tiles"),
                w("players"),
                (w("dealer_seat0" if o.first_dealer == "seat0" else "dealer_random"), w("dealer_next")),
            ),
        ),
        Section("play", w("play"), (w("turns"), w("no_kong"), w("exhausted"))),
        Section(
            "claims",
            w("claims"),
            (
                w("claims_intro"),
                (w("chi"), w("peng"), w("chi_ting"), w("hu_discard" if need_ting else "hu_discard_any")),
                w("after_claim"),
                w("three_melds"),
                w("priority_ting" if o.ting_claim_first else "priority_plain"),
            ),
        ),
        Section(
            "ting",
            w("ting"),
            (
                w("ting_what"),
                (w("ting_open"), w("ting_needed" if need_ting else "ting_not_needed"), w("ting_lock"), w("ting_feed")),
            ),
        ),
        Section("bao", w("bao"), tuple(bao)),
        Section("win", w("win"), (w("shape"), w("conditions"), tuple(conditions), w("win_example"))),
        Section("jia", w("jia"), tuple(jia)),
        Section(
            "scoring",
            w("scoring"),
            (
                w("share", base=base),
                w("fans"),
                (
                    w("fan_self"),
                    w("fan_jia"),
                    w("fan_bao", extra=bao_fan),
                    w("fan_bzb"),
                    w("fan_dealer"),
                    w("fan_closed"),
                    w("fan_pao"),
                ),
                w("who_pays"),
                (
                    w("pay_self"),
                    w("pay_bao"),
                    w("pay_ready_own" if o.ready_feeder_pays == "feeder_own" else "pay_ready_all"),
                ),
                w("no_cap"),
                w("pay_example", a=base * 4, b=base * 2),
                w("levels"),
            ),
        ),
        Section(
            "time",
            w("time"),
            (
                w("timers", turn=o.turn_seconds, claim=o.claim_seconds),
                w("timeout"),
                w("auto_hu" if o.auto_hu else "no_auto_hu"),
                w("autoplay"),
                w("leave"),
            ),
        ),
    ]
