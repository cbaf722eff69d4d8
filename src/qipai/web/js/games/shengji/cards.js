// Shengji cards as the server writes them ("3H", "TS", "B" small joker, "R" big joker) and how they are drawn.
// The order of a hand is the server's (trumps first, then the off suits S H C D, each high to low, once the trump
// is known); this file only groups cards by their effective suit for drawing.
import { h } from "../../shell/util.js";
import { t } from "./words.js";

export const SUIT_SYM = { S: "♠", H: "♥", C: "♣", D: "♦" };
/** Four decks of 54: every card is dealt (no kitty), a quarter to each seat. */
export const DECK_SIZE = 216;
const RED = new Set(["H", "D"]);

export function splitCards(text) {
  if (Array.isArray(text)) return text;
  return String(text || "").trim().split(/\s+/).filter(Boolean);
}

export function rankOf(c) {
  return c === "B" || c === "R" ? c : c.slice(0, -1);
}

export function suitOf(c) {
  return c === "B" || c === "R" ? null : c.slice(-1);
}

export function rankLabel(r) {
  return r === "T" ? "10" : r;
}

/** A card in words: ♥10, 大王. */
export function cardText(c) {
  if (c === "R") return t("joker_big");
  if (c === "B") return t("joker_small");
  return SUIT_SYM[suitOf(c)] + rankLabel(rankOf(c));
}

export function cardsText(cards) {
  return splitCards(cards).map(cardText).join(" ");
}

/** Whether a card is a trump: a joker, a level card, a 2 (always trump), or of the trump suit (null while the
 * trump is not known: only jokers, level cards and 2s are then sure to be trumps). */
export function isTrump(c, level, trump) {
  const r = rankOf(c);
  if (r === "B" || r === "R" || r === level || r === "2") return true;
  return !!trump && suitOf(c) === trump;
}

/** The effective suit of a card ("T" for trump, else its suit). */
export function effSuit(c, level, trump) {
  return isTrump(c, level, trump) ? "T" : suitOf(c);
}

const PLAIN = ["T", "S", "H", "C", "D"];

/** The hand as groups by effective suit, trumps first: [{suit, cards:[…]}].  The server's order is kept inside
 * each group (during the deal, before the trump is known, the jokers, level cards and 2s are moved to the front
 * as the trump group, jokers then level cards then 2s). */
export function groupHand(hand, level, trump) {
  const groups = new Map(PLAIN.map((s) => [s, []]));
  for (const c of splitCards(hand)) groups.get(effSuit(c, level, trump)).push(c);
  if (!trump) {
    const w = (c) => (c === "R" ? 0 : c === "B" ? 1 : rankOf(c) === level ? 2 : 3);
    groups.get("T").sort((a, b) => w(a) - w(b));
  }
  return PLAIN.map((s) => ({ suit: s, cards: groups.get(s) })).filter((g) => g.cards.length);
}

/** A card element: ``size`` "" (the hand), "sm" (plays on the felt), "xs" (small rows). */
export function cardEl(c, { size = "", trump = false } = {}) {
  const r = rankOf(c);
  const s = suitOf(c);
  if (!s) {
    const corner = t(r === "R" ? "joker_corner_big" : "joker_corner_small");
    return h("div.sj-card.joker", { class: [size, r === "R" ? "big" : "small"].filter(Boolean).join(" "),
      dataset: { card: c, rank: r }, title: cardText(c), role: "img", "aria-label": cardText(c) },
    // the corner says which joker (大/小, BJ/SJ): a bare "J" read as a jack, the two told apart by colour only
    h("span.cr", { class: corner.length > 1 ? "ten" : undefined }, corner), h("span.cs", "★"),
    h("span.jk", r === "R" ? t("joker_big") : t("joker_small")));
  }
  return h("div.sj-card", { class: [size, RED.has(s) ? "red" : "", trump ? "trump" : ""].filter(Boolean).join(" ") || undefined,
    dataset: { card: c, rank: r, suit: s }, title: cardText(c), role: "img", "aria-label": cardText(c) },
  h("span.cr", { class: r === "T" ? "ten" : undefined }, rankLabel(r)), h("span.cs", SUIT_SYM[s]), h("span.pip", SUIT_SYM[s]));
}

export function playEl(cards, size = "sm") {
  return h("div.sj-play", splitCards(cards).map((c) => cardEl(c, { size })));
}

/** Whether two card lists are the same multiset. */
export function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort(), y = [...b].sort();
  return x.every((c, i) => c === y[i]);
}

