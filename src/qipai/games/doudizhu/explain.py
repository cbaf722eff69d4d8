"""Dou Dizhu's rules in words (玩法说明, RULES.md §2–§7), built from a table's option values: what the browser's
rules page and table dialog and the terminal's ``rules`` command show (:mod:`qipai.core.explain`).  Branches on
option fields, never on a preset's name, so a private table's own options read right too.

>>> parts = explain({"preset": "classic"}, "en")
>>> [s.id for s in parts]
['overview', 'bidding', 'kinds', 'play', 'scoring', 'time']
>>> parts[0].items[0]
'One deck of 54 cards (52 and two jokers), 3 players, 17 cards each and 3 left as the kitty.'
>>> [s.id for s in explain({"preset": "chengdu"}, "zh")][:3]
['overview', 'bidding', 'doubling']
>>> "逃跑" in explain({"preset": "chengdu"}, "zh")[-2].plain()
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from ...core.explain import Item, Lang, Section, Words
from .rules import KINDS, Rules

ZH: dict[str, str] = {
    "overview": "概要",
    "cards1": "一副牌 54 张（52 张加小王、大王），{players} 人，每人 {hand} 张，留 {kitty} 张底牌。",
    "cards2": "两副牌 108 张，{players} 人，每人 {hand} 张，留 {kitty} 张底牌。",
    "sides": (
        "先叫牌定地主：地主拿走底牌，一个人对其余 {farmers} 家农民。谁先出完手里的牌，谁那一方赢——地主先出完地主赢，"
        "任何一家农民先出完农民一起赢。"
    ),
    "kitty_seen": "地主拿底牌时，底牌亮给所有人看。",
    "kitty_hidden": "底牌只有地主看得到。",
    "order": "大小：3 < 4 < 5 < … < K < A < 2 < 小王 < 大王，不分花色。",
    "bidding": "叫地主",
    "bid_score": (
        "每人轮流叫一次：1 分、2 分、3 分或不叫，叫的分必须比前面的高，叫 3 分立即结束；一轮下来叫分最高的当地主，"
        "叫的分就是这局的底分。"
    ),
    "bid_call": "每人轮流选择叫地主或不叫，第一个叫的当地主，底分为 1。",
    "first_random_then_rotate": "第一局随机一家先叫，以后每局轮到下一家先叫。",
    "first_random": "每局随机一家先叫。",
    "first_face_up_card": "发牌时翻开一张牌（不会是底牌），拿到这张牌的人先叫。",
    "first_spade_five": "拿到黑桃 5 的人先叫；黑桃 5 在底牌里时，依次看红桃 5、梅花 5、方块 5。",
    "pass_redeal": "都不叫就重新发牌，还是同一家先叫。",
    "pass_starter_is_landlord": "都不叫时，先叫的人当地主，底分 1。",
    "pass_redeal_then_forced": "都不叫就重新发牌；重发 {n} 次以后，前面的人都不叫时，最后一家必须叫（至少 1 分）。",
    "pass_redeal_then_dissolve": "都不叫就重新发牌；连续 {n} 副牌没人叫，这局解散，不计分。",
    "forced_hands": "手里有全部 {jokers} 张王或三个炸弹、前面又没人叫时，必须叫（至少 1 分）。",
    "doubling": "加倍",
    "chengdu": (
        "地主拿了底牌以后，农民依次可以“倒”（加倍）；有农民倒，地主可以“反”（再加倍）；倒过的农民可以“斡”（再加倍）"
        "；有农民斡，地主可以“垒”（再加倍）。先叫却没当上地主的农民不能倒。每家农民和地主的倍数分开算。"
    ),
    "show": "出第一手牌以前，地主可以亮牌：整副手牌给所有人看到底，这局得分 ×{factor}。",
    "kinds": "牌型",
    "kind_single": "单牌：任意一张，如 5。",
    "kind_pair": "对子：两张同点，如 77。",
    "kind_pair2": "对子：两张同点，如 77；两张小王或两张大王也是对子（一小一大不是）。",
    "kind_triple": "三张：三张同点，如 999。",
    "kind_triple_single": "三带一：三张同点带一张，如 999+3。",
    "kind_triple_pair": "三带一对：三张同点带一对，如 999+33。",
    "kind_straight": "顺子：至少 {min} 张点数相连的单牌，如 {eg}。",
    "kind_straight_max": "顺子：{min} 到 {max} 张点数相连的单牌，如 {eg}。",
    "kind_pair_straight": "连对：至少 {min} 对点数相连的对子，如 {eg}。",
    "kind_pair_straight_max": "连对：{min} 到 {max} 对点数相连的对子，如 {eg}。",
    "kind_plane": "飞机：至少 {min} 个点数相连的三张，如 {eg}。",
    "kind_plane_max": "飞机：{min} 到 {max} 个点数相连的三张，如 {eg}。",
    "kind_plane_singles": "飞机带单：飞机的每个三张各带一张，如 {eg}。",
    "kind_plane_pairs": "飞机带对：飞机的每个三张各带一对，如 {eg}。",
    "kind_four_two_singles": "四带二：四张同点带两张，如 6666+39（不算炸弹）。",
    "kind_four_two_pairs": "四带两对：四张同点带两对，如 6666+3399（不算炸弹）。",
    "kind_bomb": "炸弹：四张同点，如 8888。",
    "kind_bomb2": "炸弹：{min} 到 8 张同点，如 {eg}。",
    "kind_rocket": "火箭（王炸）：小王加大王。",
    "kind_rocket2": "天王炸：两张小王加两张大王。",
    "chains": "{names}只用 3 到 A 的牌，不能有 2 和王。",
    "chain_straight": "顺子",
    "chain_pair_straight": "连对",
    "chain_plane": "飞机",
    "and": "和",
    "kickers": "带的牌不能和主体同点，两张王不能一起当带牌。",
    "beats_rocket": "{rocket}最大，谁也管不了。",
    "beats_bomb": "炸弹比{over}都大，炸弹之间比点数。",
    "beats_bomb2": "炸弹比{over}都大；炸弹之间张数多的大，张数一样比点数。",
    "over_rocket": "{rocket}以外的牌",
    "over_all": "其他的牌",
    "beats_rest": (
        "{what}只能用同一牌型、同样张数、点数更大的牌管上：顺子、连对、飞机比最大的那一组，带牌的比三张或四张的部分，"
        "带的牌不管大小。"
    ),
    "rest_other": "其余的牌",
    "rest_all": "每一手牌",
    "play": "出牌",
    "play_text": (
        "地主先出。轮到你时，可以出一手管得上的牌，也可以不出；其他人都不要了，最后出牌的人重新出，出什么牌型都行。"
        "轮到自己首出时必须出牌。"
    ),
    "scoring": "计分",
    "score_base": (
        "每家农民和地主之间的输赢 = 底注（房间定的，见桌上） × 底分 × 倍数：地主赢，每家农民付给地主这么多；"
        "地主输，地主付给每家农民这么多。倍数从 1 开始，下面的翻倍都乘在一起。"
    ),
    "bomb_double": "每打出一个炸弹，×2。",
    "bomb_linear": "炸弹不是每个翻倍：打出 n 个炸弹，合起来 ×(1+n)。",
    "bomb_by_size": "炸弹按张数算：6、7 张的 ×2，8 张的 ×3，4、5 张的不加倍。",
    "rocket": "每打出一个{rocket}，×{factor}。",
    "rocket_name1": "火箭",
    "rocket_name2": "天王炸",
    "effective": "只有管上了别人的牌的炸弹和{rocket}才算倍数，首出的不算。",
    "kept": "留在手里没打出的炸弹不算。",
    "spring": "春天：地主出完了，农民一张牌都没出过，×2。",
    "anti_spring": "反春：农民出完了，地主只出过一手牌，×2。",
    "show_mult": "亮牌 ×{factor}。",
    "chengdu_mult": "倒、反、斡、垒各 ×2，按每家农民分开算。",
    "autoplay_split": (
        "托管：农民输了，全部输分由托管的农民分摊；农民赢了，没托管的农民平分全部赢分，托管的得 0（剩一张牌时进入托管"
        "不算）。地主托管照常算。"
    ),
    "cap": "积分最小化：每一笔支付不超过赢家和输家当时的积分。",
    "escape": (
        "逃跑：牌局中离开，这局立即结束，逃跑的人扣 {factor} × 底分 × 倍数 × 底注（还没人叫时扣 {factor} "
        "× 底注），其他人不加分。"
    ),
    "leave": "牌局中离开不扣分：系统替你托管打完这局。",
    "time": "时间与托管",
    "timers": "{what}每次 {bid} 秒，出牌每次 {play} 秒。",
    "timers_first": "{what}每次 {bid} 秒，地主的第一手 {first} 秒，以后出牌每次 {play} 秒。",
    "timed_bid": "叫牌",
    "timed_bid_double": "叫牌和加倍",
    "timeout": "超时：叫牌算不叫，首出打最小的一张单牌，跟牌算不要，并且进入托管。",
    "auto_passive": "托管（可以随时开关）：能不出就不出，首出打最小的单牌，只剩一张时能出就出。",
    "auto_smart": "托管（可以随时开关）：由电脑替你打。",
}

EN: dict[str, str] = {
    "overview": "The game",
    "cards1": (
        "One deck of 54 cards (52 and two jokers), {players} players, {hand} cards each and {kitty} left as the kitty."
    ),
    "cards2": "Two decks, 108 cards, {players} players, {hand} cards each and {kitty} left as the kitty.",
    "sides": (
        "The bidding decides the landlord, who takes the kitty and plays alone against the other {farmers},"
        " the farmers. The side of whoever plays out first wins: the landlord out first, the landlord wins;"
        " any farmer out first, the farmers win together."
    ),
    "kitty_seen": "When the landlord takes the kitty, everyone sees it.",
    "kitty_hidden": "Only the landlord sees the kitty.",
    "order": "Ranks: 3 < 4 < 5 < … < K < A < 2 < small joker < big joker; suits do not count.",
    "bidding": "Bidding",
    "bid_score": (
        "Each player bids once in turn: 1, 2, 3 or pass, each bid higher than the ones before; a 3 ends "
        "the bidding at once. After one round the highest bidder is the landlord, and the bid is the deal's "
        "base."
    ),
    "bid_call": "Each player in turn calls the landlord or passes; the first to call is the landlord, at a base of 1.",
    "first_random_then_rotate": "A random player bids first in the first deal, then the next player each deal.",
    "first_random": "A random player bids first in each deal.",
    "first_face_up_card": (
        "One card is turned face up as the cards are dealt (never a kitty card): its holder bids first."
    ),
    "first_spade_five": (
        "The holder of the ♠5 bids first; if it is in the kitty, the ♥5's, then the ♣5's, then the ♦5's."
    ),
    "pass_redeal": "If nobody bids, the cards are dealt again and the same player bids first.",
    "pass_starter_is_landlord": "If nobody bids, the first bidder is the landlord, at a base of 1.",
    "pass_redeal_then_forced": (
        "If nobody bids, the cards are dealt again; after {n} redeals, when everyone before has passed, "
        "the last player must bid (1 at least)."
    ),
    "pass_redeal_then_dissolve": (
        "If nobody bids, the cards are dealt again; after {n} deals in a row without a bid the game ends,"
        " with no score."
    ),
    "forced_hands": (
        "A player holding all {jokers} jokers or three bombs, with nobody before having bid, must bid (1 at least)."
    ),
    "doubling": "Doubling",
    "chengdu": (
        "Once the landlord has the kitty, each farmer in turn may double (倒); if one did, the landlord "
        "may redouble (反); each farmer who doubled may double again (斡); if one did, the landlord may "
        "double again (垒). A farmer who bid first and passed on being landlord may not double. Each farmer's "
        "factor with the landlord is kept apart."
    ),
    "show": (
        "Before the first play the landlord may show his hand: everyone sees it for the rest of the deal,"
        " and the deal's score is ×{factor}."
    ),
    "kinds": "Combinations",
    "kind_single": "Single: any one card, e.g. 5.",
    "kind_pair": "Pair: two of a rank, e.g. 77.",
    "kind_pair2": (
        "Pair: two of a rank, e.g. 77; two small jokers or two big jokers are a pair too (one of each is not)."
    ),
    "kind_triple": "Triple: three of a rank, e.g. 999.",
    "kind_triple_single": "Triple + single: a triple with one card, e.g. 999+3.",
    "kind_triple_pair": "Triple + pair: a triple with a pair, e.g. 999+33.",
    "kind_straight": "Straight: {min} or more singles in a row, e.g. {eg}.",
    "kind_straight_max": "Straight: {min} to {max} singles in a row, e.g. {eg}.",
    "kind_pair_straight": "Pair straight: {min} or more pairs in a row, e.g. {eg}.",
    "kind_pair_straight_max": "Pair straight: {min} to {max} pairs in a row, e.g. {eg}.",
    "kind_plane": "Plane: {min} or more triples in a row, e.g. {eg}.",
    "kind_plane_max": "Plane: {min} to {max} triples in a row, e.g. {eg}.",
    "kind_plane_singles": "Plane + singles: a plane with one card for each triple, e.g. {eg}.",
    "kind_plane_pairs": "Plane + pairs: a plane with a pair for each triple, e.g. {eg}.",
    "kind_four_two_singles": "Four + two singles: four of a rank with two cards, e.g. 6666+39 (not a bomb).",
    "kind_four_two_pairs": "Four + two pairs: four of a rank with two pairs, e.g. 6666+3399 (not a bomb).",
    "kind_bomb": "Bomb: four of a rank, e.g. 8888.",
    "kind_bomb2": "Bomb: {min} to 8 of a rank, e.g. {eg}.",
    "kind_rocket": "Rocket: the small and the big joker.",
    "kind_rocket2": "Rocket: both small and both big jokers.",
    "chains": "{names} use 3 to A only: never a 2 or a joker.",
    "chain_straight": "Straights",
    "chain_pair_straight": "pair straights",
    "chain_plane": "planes",
    "and": " and ",
    "kickers": "A kicker never has the rank of the main part, and the two jokers are never kickers together.",
    "beats_rocket": "The {rocket} beats everything.",
    "beats_bomb": "A bomb beats {over}; bombs compare by rank.",
    "beats_bomb2": "A bomb beats {over}; a bomb of more cards beats one of fewer, equal sizes compare by rank.",
    "over_rocket": "anything but the {rocket}",
    "over_all": "any other play",
    "beats_rest": (
        "{what} is beaten only by the same combination, the same number of cards, higher: chains by their "
        "highest part, combinations with kickers by their triple or four (kickers do not count)."
    ),
    "rest_other": "Anything else",
    "rest_all": "A play",
    "play": "Play",
    "play_text": (
        "The landlord leads. In your turn, play something that beats the last play, or pass; when everyone "
        "else has passed, whoever played last leads again, any combination. The player who leads may not "
        "pass."
    ),
    "scoring": "Scoring",
    "score_base": (
        "Between each farmer and the landlord: stake (the room's, shown at the table) × base × multiplier. "
        "The landlord wins: each farmer pays him that; the landlord loses: he pays each farmer that. The "
        "multiplier starts at 1 and every factor below multiplies it."
    ),
    "bomb_double": "Each bomb played: ×2.",
    "bomb_linear": "Bombs do not double one by one: n bombs played make ×(1+n) together.",
    "bomb_by_size": "Bombs count by size: 6 or 7 cards ×2, 8 cards ×3, 4 or 5 cards nothing.",
    "rocket": "Each {rocket} played: ×{factor}.",
    "rocket_name1": "rocket",
    "rocket_name2": "rocket",
    "effective": "A bomb or {rocket} counts only when it beat another play; one led counts for nothing.",
    "kept": "Bombs kept in hand count for nothing.",
    "spring": "Spring: the landlord went out and no farmer played a card: ×2.",
    "anti_spring": "Anti-spring: a farmer went out and the landlord had played once only: ×2.",
    "show_mult": "Showing the hand: ×{factor}.",
    "chengdu_mult": "Each 倒, 反, 斡 and 垒: ×2, for each farmer apart.",
    "autoplay_split": (
        "Auto-play: when the farmers lose, the farmers in auto-play pay the farmers' whole loss between "
        "them; when they win, the farmers not in auto-play share the whole gain and those in auto-play get "
        "nothing (going into auto-play with one card left does not count). A landlord in auto-play settles "
        "as usual."
    ),
    "cap": "Score minimisation: no payment is more than the winner or the loser has.",
    "escape": (
        "Escaping: leaving during a deal ends it, and the escaper loses {factor} × base × multiplier × stake "
        "({factor} × stake if nobody had bid yet); nobody else wins anything."
    ),
    "leave": "Leaving during a deal costs nothing extra: auto-play finishes the deal for you.",
    "time": "Time and auto-play",
    "timers": "{bid} s for each {what}, {play} s for each play.",
    "timers_first": "{bid} s for each {what}, {first} s for the landlord's first play, {play} s for every other play.",
    "timed_bid": "bid",
    "timed_bid_double": "bid or double",
    "timeout": (
        "Out of time: a bid counts as a pass, a lead plays the lowest single, a follow passes — and auto-play "
        "takes over."
    ),
    "auto_passive": (
        "Auto-play (on and off at will): passes whenever it may, leads the lowest single, and plays the "
        "last card whenever it can."
    ),
    "auto_smart": "Auto-play (on and off at will): a bot plays for you.",
}

WORDS = Words(ZH, EN)
"""Every text of Dou Dizhu's rules, in Chinese and English."""

Say = Callable[..., str]
"""``w(key, **params)``: one text in the language being written."""


def explain(options: Mapping[str, Any], lang: Lang) -> list[Section]:
    """The rules of a table with ``options`` (``preset`` plus overrides, or every value) in ``lang``, as sections:
    the overview, bidding, doubling (where the table has it), combinations, play, scoring and time."""
    o = Rules.from_options(options)

    def w(key: str, **params: object) -> str:
        return WORDS(lang, key, **params)

    two = o.decks == 2
    kinds = o.kinds
    n = o.forced_bid_from_redeal if o.all_pass == "redeal_then_forced" else o.dissolve_after
    bidding_rules = [w("first_" + o.first_bidder), w("pass_" + o.all_pass, n=n)]
    if o.forced_bid_hands:
        bidding_rules.append(w("forced_hands", jokers=2 * o.decks))
    sections = [
        Section(
            "overview",
            w("overview"),
            (
                w("cards2" if two else "cards1", players=o.players, hand=o.hand_size, kitty=o.kitty_size),
                w("sides", farmers=o.players - 1),
                w("kitty_seen" if o.kitty_visible else "kitty_hidden"),
                w("order"),
            ),
        ),
        Section("bidding", w("bidding"), (w("bid_call" if o.bidding == "call" else "bid_score"), tuple(bidding_rules))),
    ]
    timed = w("timed_bid_double" if o.chengdu_doubling or o.show_hand else "timed_bid")
    if o.chengdu_doubling or o.show_hand:
        doubling: list[Item] = []
        if o.chengdu_doubling:
            doubling.append(w("chengdu"))
        if o.show_hand:
            doubling.append(w("show", factor=o.show_hand_factor))
        sections.append(Section("doubling", w("doubling"), tuple(doubling)))
    sections += [
        Section(
            "kinds",
            w("kinds"),
            (
                tuple(_kind(w, o, k) for k in KINDS if k in kinds),
                *_chains(w, lang, kinds),
                _beats(w, lang, o),
            ),
        ),
        Section("play", w("play"), (w("play_text"),)),
        Section("scoring", w("scoring"), _scoring(w, o)),
        Section(
            "time",
            w("time"),
            (
                # (a table with no doubling has no double to time: "each bid or double" puzzled)
                w("timers_first", what=timed, bid=o.bid_seconds, first=o.first_play_seconds, play=o.play_seconds)
                if o.first_play_seconds != o.play_seconds
                else w("timers", what=timed, bid=o.bid_seconds, play=o.play_seconds),
                w("timeout"),
                w("auto_smart" if o.autoplay == "smart" else "auto_passive"),
            ),
        ),
    ]
    return sections


_LABELS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
"""The ranks a chain or a kicker of an example may use, low to high (a chain stops at A)."""


def _eg(units: int, width: int, kickers: int = 0) -> str:
    """An example of a chain of ``units`` ranks from 3, each ``width`` times, and ``kickers`` cards (1) or pairs
    (2) a unit of other ranks (``_eg(2, 3, 1)`` → ``333444+57``): the table's own lengths, never a chain it
    refuses (a straight of 6 at least read "e.g. 34567")."""
    chain = "".join(r * width for r in _LABELS[:units])
    if not kickers:
        return chain
    rest = _LABELS[units:]
    # (5 and 7 after 333444: kickers apart, as a player shows them; a 10 last, where it reads as 1 and 0)
    spare = sorted(rest[::2] + rest[1::2], key=lambda r: r == "10")[:units]
    return chain + "+" + "".join(r * kickers for r in sorted(spare, key=_LABELS.index))


def _beats(w: Say, lang: Lang, o: Rules) -> str:
    """What beats what, for the bombs and rocket the table has (one without either read "the rocket beats
    everything")."""
    rocket = w("rocket_name2" if o.decks == 2 else "rocket_name1")
    rockets, bombs = "rocket" in o.kinds, "bomb" in o.kinds
    parts = [w("beats_rocket", rocket=rocket)] if rockets else []
    if bombs:
        over = w("over_rocket", rocket=rocket) if rockets else w("over_all")
        parts.append(w("beats_bomb2" if o.decks == 2 else "beats_bomb", over=over))
    parts.append(w("beats_rest", what=w("rest_other" if rockets or bombs else "rest_all")))
    return ("" if lang == "zh" else " ").join(parts)


def _length(default: int, low: int, high: int) -> int:
    """An example's length: the usual one (a straight of 5) where the table allows it, else its nearest bound."""
    return max(low, min(default, high))


CHAINS = ("straight", "pair_straight", "plane")
KICKERS = ("triple_single", "triple_pair", "plane_singles", "plane_pairs", "four_two_singles", "four_two_pairs")


def _chains(w: Say, lang: Lang, kinds: Collection[str]) -> list[str]:
    """What chains and kickers may hold, for the kinds the table plays only (a table without straights read
    "straights … use 3 to A")."""
    out: list[str] = []
    chains = [
        w("chain_" + k)
        for k in CHAINS
        if k in kinds or (k == "plane" and {"plane_singles", "plane_pairs"} & set(kinds))
    ]
    if chains:
        sep = "、" if lang == "zh" else ", "
        names = chains[0] if len(chains) == 1 else sep.join(chains[:-1]) + w("and") + chains[-1]
        out.append(w("chains", names=names[:1].upper() + names[1:]))
    if any(k in kinds for k in KICKERS):
        out.append(w("kickers"))
    return [" ".join(out) if lang == "en" else "".join(out)] if out else []


def _kind(w: Say, o: Rules, kind: str) -> str:
    """One combination's line, its example of a length the table allows."""
    two = o.decks == 2
    if kind == "pair" and two:
        return w("kind_pair2")
    if kind == "straight":
        return w(
            "kind_straight_max" if o.straight_max < 12 else "kind_straight",
            min=o.straight_min,
            max=o.straight_max,
            eg=_eg(_length(5, o.straight_min, o.straight_max), 1),
        )
    if kind == "pair_straight":  # (the JS words said "or more" whatever the longest: wrong at a table with one)
        return w(
            "kind_pair_straight_max" if o.pair_straight_max < 12 else "kind_pair_straight",
            min=o.pair_straight_min,
            max=o.pair_straight_max,
            eg=_eg(_length(3, o.pair_straight_min, o.pair_straight_max), 2),
        )
    plane = _length(2, o.plane_min, o.plane_max)
    if kind == "plane":
        return w(
            "kind_plane_max" if o.plane_max < 12 else "kind_plane", min=o.plane_min, max=o.plane_max, eg=_eg(plane, 3)
        )
    if kind in ("plane_singles", "plane_pairs"):
        return w("kind_" + kind, eg=_eg(plane, 3, 1 if kind == "plane_singles" else 2))
    if kind == "bomb" and two:
        return w("kind_bomb2", min=o.bomb_min, eg="8" * max(5, o.bomb_min))
    if kind == "rocket" and two:
        return w("kind_rocket2")
    return w("kind_" + kind)


def _scoring(w: Say, o: Rules) -> tuple[Item, ...]:
    """The scoring section: the base, the multipliers the table has, its penalties."""
    rocket = w("rocket_name2" if o.decks == 2 else "rocket_name1")
    bombs, rockets = "bomb" in o.kinds, "rocket" in o.kinds
    mult: list[str] = []
    if bombs:
        mult.append(w("bomb_" + o.bomb_factor))
    if rockets:
        mult.append(w("rocket", rocket=rocket, factor=o.rocket_factor))
    if o.effective_bombs_only:
        mult.append(w("effective", rocket=rocket))
    if bombs or rockets:
        mult.append(w("kept"))
    if o.spring:
        mult.append(w("spring"))
    if o.anti_spring:
        mult.append(w("anti_spring"))
    if o.show_hand:
        mult.append(w("show_mult", factor=o.show_hand_factor))
    if o.chengdu_doubling:
        mult.append(w("chengdu_mult"))
    items: list[Item] = [w("score_base")]
    if mult:
        items.append(tuple(mult))
    if o.autoplay_split:
        items.append(w("autoplay_split"))
    if o.cap_by_table_points:
        items.append(w("cap"))
    items.append(w("escape", factor=o.escape_factor) if o.escape_penalty else w("leave"))
    return tuple(items)
