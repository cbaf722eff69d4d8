// Dou Dizhu's rules in words (玩法说明), built from a table's option values (RULES.md §2–§7): the shell's rules
// page and the table's ? dialog draw what ``rules(options)`` returns.  Branches on option fields, never on a
// preset's name, so a private table's own options read right too.
import { scoped } from "../../shell/i18n.js";

const zh = {
  r_overview: "概要",
  r_cards1: "一副牌 54 张（52 张加小王、大王），{players} 人，每人 {hand} 张，留 {kitty} 张底牌。",
  r_cards2: "两副牌 108 张，{players} 人，每人 {hand} 张，留 {kitty} 张底牌。",
  r_sides: "先叫牌定地主：地主拿走底牌，一个人对其余 {farmers} 家农民。谁先出完手里的牌，谁那一方赢——地主先出完地主赢，任何一家农民先出完农民一起赢。",
  r_kitty_seen: "地主拿底牌时，底牌亮给所有人看。",
  r_kitty_hidden: "底牌只有地主看得到。",
  r_order: "大小：3 < 4 < 5 < … < K < A < 2 < 小王 < 大王，不分花色。",
  r_bidding: "叫地主",
  r_bid_score: "每人轮流叫一次：1 分、2 分、3 分或不叫，叫的分必须比前面的高，叫 3 分立即结束；一轮下来叫分最高的当地主，叫的分就是这局的底分。",
  r_bid_call: "每人轮流选择叫地主或不叫，第一个叫的当地主，底分为 1。",
  r_first_random_then_rotate: "第一局随机一家先叫，以后每局轮到下一家先叫。",
  r_first_random: "每局随机一家先叫。",
  r_first_face_up_card: "发牌时翻开一张牌（不会是底牌），拿到这张牌的人先叫。",
  r_first_spade_five: "拿到黑桃 5 的人先叫；黑桃 5 在底牌里时，依次看红桃 5、梅花 5、方块 5。",
  r_pass_redeal: "都不叫就重新发牌，还是同一家先叫。",
  r_pass_starter_is_landlord: "都不叫时，先叫的人当地主，底分 1。",
  r_pass_redeal_then_forced: "都不叫就重新发牌；重发 {n} 次以后，前面的人都不叫时，最后一家必须叫（至少 1 分）。",
  r_pass_redeal_then_dissolve: "都不叫就重新发牌；连续 {n} 副牌没人叫，这局解散，不计分。",
  r_forced_hands: "手里有全部 {jokers} 张王或三个炸弹、前面又没人叫时，必须叫（至少 1 分）。",
  r_doubling: "加倍",
  r_chengdu: "地主拿了底牌以后，农民依次可以“倒”（加倍）；有农民倒，地主可以“反”（再加倍）；倒过的农民可以“斡”（再加倍）；有农民斡，地主可以“垒”（再加倍）。先叫却没当上地主的农民不能倒。每家农民和地主的倍数分开算。",
  r_show: "出第一手牌以前，地主可以亮牌：整副手牌给所有人看到底，这局得分 ×{factor}。",
  r_kinds: "牌型",
  r_kind_single: "单牌：任意一张，如 5。",
  r_kind_pair: "对子：两张同点，如 77。",
  r_kind_pair2: "对子：两张同点，如 77；两张小王或两张大王也是对子（一小一大不是）。",
  r_kind_triple: "三张：三张同点，如 999。",
  r_kind_triple_single: "三带一：三张同点带一张，如 999+3。",
  r_kind_triple_pair: "三带一对：三张同点带一对，如 999+33。",
  r_kind_straight: "顺子：至少 {min} 张点数相连的单牌，如 34567。",
  r_kind_straight_max: "顺子：{min} 到 {max} 张点数相连的单牌，如 34567。",
  r_kind_pair_straight: "连对：至少 {min} 对点数相连的对子，如 334455。",
  r_kind_plane: "飞机：至少 {min} 个点数相连的三张，如 333444。",
  r_kind_plane_singles: "飞机带单：飞机的每个三张各带一张，如 333444+57。",
  r_kind_plane_pairs: "飞机带对：飞机的每个三张各带一对，如 333444+5577。",
  r_kind_four_two_singles: "四带二：四张同点带两张，如 6666+39（不算炸弹）。",
  r_kind_four_two_pairs: "四带两对：四张同点带两对，如 6666+3399（不算炸弹）。",
  r_kind_bomb: "炸弹：四张同点，如 8888。",
  r_kind_bomb2: "炸弹：{min} 到 8 张同点，如 88888。",
  r_kind_rocket: "火箭（王炸）：小王加大王。",
  r_kind_rocket2: "天王炸：两张小王加两张大王。",
  r_chains: "顺子、连对和飞机只用 3 到 A 的牌，不能有 2 和王。带的牌不能和主体同点，两张王不能一起当带牌。",
  r_beats: "火箭最大，谁也管不了。炸弹比火箭以外的牌都大，炸弹之间比点数。其余的牌只能用同一牌型、同样张数、点数更大的牌管上：顺子、连对、飞机比最大的那一组，带牌的比三张或四张的部分，带的牌不管大小。",
  r_beats2: "天王炸最大，谁也管不了。炸弹比天王炸以外的牌都大；炸弹之间张数多的大，张数一样比点数。其余的牌只能用同一牌型、同样张数、点数更大的牌管上：顺子、连对、飞机比最大的那一组，带牌的比三张或四张的部分，带的牌不管大小。",
  r_play: "出牌",
  r_play_text: "地主先出。轮到你时，可以出一手管得上的牌，也可以不出；其他人都不要了，最后出牌的人重新出，出什么牌型都行。轮到自己首出时必须出牌。",
  r_scoring: "计分",
  r_score_base: "每家农民和地主之间的输赢 = 底注（房间定的，见桌上） × 底分 × 倍数：地主赢，每家农民付给地主这么多；地主输，地主付给每家农民这么多。倍数从 1 开始，下面的翻倍都乘在一起。",
  r_bomb_double: "每打出一个炸弹，×2。",
  r_bomb_linear: "炸弹不是每个翻倍：打出 n 个炸弹，合起来 ×(1+n)。",
  r_bomb_by_size: "炸弹按张数算：6、7 张的 ×2，8 张的 ×3，4、5 张的不加倍。",
  r_rocket: "每打出一个{rocket}，×{factor}。",
  r_rocket_name1: "火箭",
  r_rocket_name2: "天王炸",
  r_effective: "只有管上了别人的牌的炸弹和{rocket}才算倍数，首出的不算。",
  r_kept: "留在手里没打出的炸弹不算。",
  r_spring: "春天：地主出完了，农民一张牌都没出过，×2。",
  r_anti_spring: "反春：农民出完了，地主只出过一手牌，×2。",
  r_show_mult: "亮牌 ×{factor}。",
  r_chengdu_mult: "倒、反、斡、垒各 ×2，按每家农民分开算。",
  r_autoplay_split: "托管：农民输了，全部输分由托管的农民分摊；农民赢了，没托管的农民平分全部赢分，托管的得 0（剩一张牌时进入托管不算）。地主托管照常算。",
  r_cap: "积分最小化：每一笔支付不超过赢家和输家当时的积分。",
  r_escape: "逃跑：牌局中离开，这局立即结束，逃跑的人扣 {factor} × 底分 × 倍数 × 底注（还没人叫时扣 {factor} × 底注），其他人不加分。",
  r_leave: "牌局中离开不扣分：系统替你托管打完这局。",
  r_time: "时间与托管",
  r_timers: "叫牌和加倍每次 {bid} 秒，出牌每次 {play} 秒。",
  r_timers_first: "叫牌和加倍每次 {bid} 秒，地主的第一手 {first} 秒，以后出牌每次 {play} 秒。",
  r_timeout: "超时：叫牌算不叫，首出打最小的一张单牌，跟牌算不要，并且进入托管。",
  r_auto_passive: "托管（可以随时开关）：能不出就不出，首出打最小的单牌，只剩一张时能出就出。",
  r_auto_smart: "托管（可以随时开关）：由电脑替你打。",
};

const en = {
  r_overview: "The game",
  r_cards1: "One deck of 54 cards (52 and two jokers), {players} players, {hand} cards each and {kitty} left as the kitty.",
  r_cards2: "Two decks, 108 cards, {players} players, {hand} cards each and {kitty} left as the kitty.",
  r_sides: "The bidding decides the landlord, who takes the kitty and plays alone against the other {farmers}, the farmers. The side of whoever plays out first wins: the landlord out first, the landlord wins; any farmer out first, the farmers win together.",
  r_kitty_seen: "When the landlord takes the kitty, everyone sees it.",
  r_kitty_hidden: "Only the landlord sees the kitty.",
  r_order: "Ranks: 3 < 4 < 5 < … < K < A < 2 < small joker < big joker; suits do not count.",
  r_bidding: "Bidding",
  r_bid_score: "Each player bids once in turn: 1, 2, 3 or pass, each bid higher than the ones before; a 3 ends the bidding at once. After one round the highest bidder is the landlord, and the bid is the deal's base.",
  r_bid_call: "Each player in turn calls the landlord or passes; the first to call is the landlord, at a base of 1.",
  r_first_random_then_rotate: "A random player bids first in the first deal, then the next player each deal.",
  r_first_random: "A random player bids first in each deal.",
  r_first_face_up_card: "One card is turned face up as the cards are dealt (never a kitty card): its holder bids first.",
  r_first_spade_five: "The holder of the ♠5 bids first; if it is in the kitty, the ♥5's, then the ♣5's, then the ♦5's.",
  r_pass_redeal: "If nobody bids, the cards are dealt again and the same player bids first.",
  r_pass_starter_is_landlord: "If nobody bids, the first bidder is the landlord, at a base of 1.",
  r_pass_redeal_then_forced: "If nobody bids, the cards are dealt again; after {n} redeals, when everyone before has passed, the last player must bid (1 at least).",
  r_pass_redeal_then_dissolve: "If nobody bids, the cards are dealt again; after {n} deals in a row without a bid the game ends, with no score.",
  r_forced_hands: "A player holding all {jokers} jokers or three bombs, with nobody before having bid, must bid (1 at least).",
  r_doubling: "Doubling",
  r_chengdu: "Once the landlord has the kitty, each farmer in turn may double (倒); if one did, the landlord may redouble (反); each farmer who doubled may double again (斡); if one did, the landlord may double again (垒). A farmer who bid first and passed on being landlord may not double. Each farmer's factor with the landlord is kept apart.",
  r_show: "Before the first play the landlord may show his hand: everyone sees it for the rest of the deal, and the deal's score is ×{factor}.",
  r_kinds: "Combinations",
  r_kind_single: "Single: any one card, e.g. 5.",
  r_kind_pair: "Pair: two of a rank, e.g. 77.",
  r_kind_pair2: "Pair: two of a rank, e.g. 77; two small jokers or two big jokers are a pair too (one of each is not).",
  r_kind_triple: "Triple: three of a rank, e.g. 999.",
  r_kind_triple_single: "Triple + single: a triple with one card, e.g. 999+3.",
  r_kind_triple_pair: "Triple + pair: a triple with a pair, e.g. 999+33.",
  r_kind_straight: "Straight: {min} or more singles in a row, e.g. 34567.",
  r_kind_straight_max: "Straight: {min} to {max} singles in a row, e.g. 34567.",
  r_kind_pair_straight: "Pair straight: {min} or more pairs in a row, e.g. 334455.",
  r_kind_plane: "Plane: {min} or more triples in a row, e.g. 333444.",
  r_kind_plane_singles: "Plane + singles: a plane with one card for each triple, e.g. 333444+57.",
  r_kind_plane_pairs: "Plane + pairs: a plane with a pair for each triple, e.g. 333444+5577.",
  r_kind_four_two_singles: "Four + two singles: four of a rank with two cards, e.g. 6666+39 (not a bomb).",
  r_kind_four_two_pairs: "Four + two pairs: four of a rank with two pairs, e.g. 6666+3399 (not a bomb).",
  r_kind_bomb: "Bomb: four of a rank, e.g. 8888.",
  r_kind_bomb2: "Bomb: {min} to 8 of a rank, e.g. 88888.",
  r_kind_rocket: "Rocket: the small and the big joker.",
  r_kind_rocket2: "Rocket: both small and both big jokers.",
  r_chains: "Straights, pair straights and planes use 3 to A only: never a 2 or a joker. A kicker never has the rank of the main part, and the two jokers are never kickers together.",
  r_beats: "The rocket beats everything. A bomb beats anything but the rocket; bombs compare by rank. Anything else is beaten only by the same combination, the same number of cards, higher: chains by their highest part, combinations with kickers by their triple or four (kickers do not count).",
  r_beats2: "The rocket beats everything. A bomb beats anything but the rocket; a bomb of more cards beats one of fewer, equal sizes compare by rank. Anything else is beaten only by the same combination, the same number of cards, higher: chains by their highest part, combinations with kickers by their triple or four (kickers do not count).",
  r_play: "Play",
  r_play_text: "The landlord leads. In your turn, play something that beats the last play, or pass; when everyone else has passed, whoever played last leads again, any combination. The player who leads may not pass.",
  r_scoring: "Scoring",
  r_score_base: "Between each farmer and the landlord: stake (the room's, shown at the table) × base × multiplier. The landlord wins: each farmer pays him that; the landlord loses: he pays each farmer that. The multiplier starts at 1 and every factor below multiplies it.",
  r_bomb_double: "Each bomb played: ×2.",
  r_bomb_linear: "Bombs do not double one by one: n bombs played make ×(1+n) together.",
  r_bomb_by_size: "Bombs count by size: 6 or 7 cards ×2, 8 cards ×3, 4 or 5 cards nothing.",
  r_rocket: "Each {rocket} played: ×{factor}.",
  r_rocket_name1: "rocket",
  r_rocket_name2: "rocket",
  r_effective: "A bomb or {rocket} counts only when it beat another play; one led counts for nothing.",
  r_kept: "Bombs kept in hand count for nothing.",
  r_spring: "Spring: the landlord went out and no farmer played a card: ×2.",
  r_anti_spring: "Anti-spring: a farmer went out and the landlord had played once only: ×2.",
  r_show_mult: "Showing the hand: ×{factor}.",
  r_chengdu_mult: "Each 倒, 反, 斡 and 垒: ×2, for each farmer apart.",
  r_autoplay_split: "Auto-play: when the farmers lose, the farmers in auto-play pay the farmers' whole loss between them; when they win, the farmers not in auto-play share the whole gain and those in auto-play get nothing (going into auto-play with one card left does not count). A landlord in auto-play settles as usual.",
  r_cap: "Score minimisation: no payment is more than the winner or the loser has.",
  r_escape: "Escaping: leaving during a deal ends it, and the escaper loses {factor} × base × multiplier × stake ({factor} × stake if nobody had bid yet); nobody else wins anything.",
  r_leave: "Leaving during a deal costs nothing extra: auto-play finishes the deal for you.",
  r_time: "Time and auto-play",
  r_timers: "{bid} s for each bid or double, {play} s for each play.",
  r_timers_first: "{bid} s for each bid or double, {first} s for the landlord's first play, {play} s for every other play.",
  r_timeout: "Out of time: a bid counts as a pass, a lead plays the lowest single, a follow passes — and auto-play takes over.",
  r_auto_passive: "Auto-play (on and off at will): passes whenever it may, leads the lowest single, and plays the last card whenever it can.",
  r_auto_smart: "Auto-play (on and off at will): a bot plays for you.",
};

const r = scoped({ zh, en });

const KIND_ORDER = ["single", "pair", "triple", "triple_single", "triple_pair", "straight", "pair_straight", "plane",
  "plane_singles", "plane_pairs", "four_two_singles", "four_two_pairs", "bomb", "rocket"];

/** The rules for ``o`` (every option's value) as sections ``{id, title, items}``: an item is a paragraph, or a
 * list (an array of lines). */
export function rules(o) {
  const two = o.decks === 2;
  const kinds = new Set(o.kinds || KIND_ORDER);
  const hand = (54 * o.decks - o.kitty_size) / o.players;
  const bidding = [
    r(o.bidding === "call" ? "r_bid_call" : "r_bid_score"),
    [r("r_first_" + o.first_bidder),
      r("r_pass_" + o.all_pass, { n: o.all_pass === "redeal_then_forced" ? o.forced_bid_from_redeal : o.dissolve_after }),
      o.forced_bid_hands ? r("r_forced_hands", { jokers: 2 * o.decks }) : null].filter(Boolean),
  ];
  const combos = KIND_ORDER.filter((k) => kinds.has(k)).map((k) => {
    const key = `r_kind_${k}`;
    if (k === "pair" && two) return r("r_kind_pair2");
    if (k === "straight") return r(o.straight_max < 12 ? "r_kind_straight_max" : key, { min: o.straight_min, max: o.straight_max });
    if (k === "pair_straight") return r(key, { min: o.pair_straight_min });
    if (k === "plane") return r(key, { min: o.plane_min });
    if (k === "bomb" && two) return r("r_kind_bomb2", { min: o.bomb_min });
    if (k === "rocket" && two) return r("r_kind_rocket2");
    return r(key);
  });
  const rocket = r(two ? "r_rocket_name2" : "r_rocket_name1");
  const mult = [
    kinds.has("bomb") ? r("r_bomb_" + o.bomb_factor) : null,
    kinds.has("rocket") ? r("r_rocket", { rocket, factor: o.rocket_factor }) : null,
    o.effective_bombs_only ? r("r_effective", { rocket }) : null,
    kinds.has("bomb") || kinds.has("rocket") ? r("r_kept") : null,
    o.spring ? r("r_spring") : null,
    o.anti_spring ? r("r_anti_spring") : null,
    o.show_hand ? r("r_show_mult", { factor: o.show_hand_factor }) : null,
    o.chengdu_doubling ? r("r_chengdu_mult") : null,
  ].filter(Boolean);
  const sections = [
    { id: "overview", title: r("r_overview"), items: [
      r(two ? "r_cards2" : "r_cards1", { players: o.players, hand, kitty: o.kitty_size }),
      r("r_sides", { farmers: o.players - 1 }),
      r(o.kitty_visible ? "r_kitty_seen" : "r_kitty_hidden"),
      r("r_order")] },
    { id: "bidding", title: r("r_bidding"), items: bidding },
  ];
  if (o.chengdu_doubling || o.show_hand) {
    sections.push({ id: "doubling", title: r("r_doubling"), items: [
      o.chengdu_doubling ? r("r_chengdu") : null, o.show_hand ? r("r_show", { factor: o.show_hand_factor }) : null,
    ].filter(Boolean) });
  }
  sections.push(
    { id: "kinds", title: r("r_kinds"), items: [combos, r("r_chains"), r(two ? "r_beats2" : "r_beats")] },
    { id: "play", title: r("r_play"), items: [r("r_play_text")] },
    { id: "scoring", title: r("r_scoring"), items: [
      r("r_score_base"), mult,
      ...(o.autoplay_split ? [r("r_autoplay_split")] : []),
      ...(o.cap_by_table_points ? [r("r_cap")] : []),
      o.escape_penalty ? r("r_escape", { factor: o.escape_factor }) : r("r_leave")] },
    { id: "time", title: r("r_time"), items: [
      o.first_play_seconds !== o.play_seconds
        ? r("r_timers_first", { bid: o.bid_seconds, first: o.first_play_seconds, play: o.play_seconds })
        : r("r_timers", { bid: o.bid_seconds, play: o.play_seconds }),
      r("r_timeout"), r(o.autoplay === "smart" ? "r_auto_smart" : "r_auto_passive")] },
  );
  return sections;
}
