// Cards: notation (3456789TJQKA2BR, suits S H C D), drawing them, sorting a hand, and ordering hints.
import { h } from "../../shell/util.js";
import { t } from "./words.js";

export const RANKS = "3456789TJQKA2BR";
const SUIT_SYMBOL = { S: "♠", H: "♥", C: "♣", D: "♦" };
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3, "": 4 };
const RANK_LABEL = { T: "10" };

export const rankIndex = (r) => RANKS.indexOf(r);
export const rankOf = (card) => card[0];
export const suitOf = (card) => card.slice(1, 2);
export const rankLabel = (r) => RANK_LABEL[r] || r;

/** Sorted rank text of cards ("TH", "5S", "B" → "5TB"), the form legal plays use. */
export function rankText(cards) {
  return cards.map(rankOf).sort((a, b) => rankIndex(a) - rankIndex(b)).join("");
}

/** A card as an element.  ``card`` is "TH", "5S", "B", "R" or a bare rank ("5") for plays (suits unknown). */
export function cardEl(card, { size = "", back = false } = {}) {
  if (back) return h("div.card.back", { class: size || undefined }, h("div.back-pattern"));
  const r = rankOf(card);
  const s = suitOf(card);
  // (a screen reader reads the card by its name: ♠5, 大王; its corners and pips are drawing)
  const el = h("div.card", { class: size || undefined, dataset: { rank: r, card }, role: "img" });
  if (r === "B" || r === "R") {
    el.classList.add("joker", r === "R" ? "big" : "small");
    el.title = t(r === "R" ? "joker_big" : "joker_small");
    el.setAttribute("aria-label", el.title);
    el.append(
      h("div.corner.jk", "JOKER"),
      h("div.joker-face", h("span.star", "★"), h("span.jname", t(r === "R" ? "joker_face_big" : "joker_face_small")))
    );
    return el;
  }
  const sym = SUIT_SYMBOL[s] || "";
  el.setAttribute("aria-label", sym + rankLabel(r));
  if (s === "H" || s === "D") el.classList.add("red");
  if (!s) el.classList.add("nosuit");
  el.append(h("div.corner", h("span.r", rankLabel(r)), sym ? h("span.s", sym) : null));
  if (size === "sm" && sym) el.append(h("div.pip-sm", sym));
  if (!size || size === "md") {
    if ("JQK".includes(r)) el.append(h("div.face", h("span.fl", r), h("span.fs", sym)));
    else el.append(h("div.pip", sym || rankLabel(r)));
    el.append(h("div.corner.br", h("span.r", rankLabel(r)), sym ? h("span.s", sym) : null));
  }
  return el;
}

const SUIT_LETTER = { "♠": "S", "♥": "H", "♣": "C", "♦": "D" };

/** The cards a play's text names, in either form the server writes (actions.py): rank letters ("33344", "10 10 J",
 * the ranks only: each a bare rank) or suited tokens ("8H 9H TH", "10h", "3♠"), jokers "B"/"R" (also "BJ"/"RJ");
 * a ":kind:main" tail is dropped.  An array of cards (["TH", "5S", "B"]) is read the same way. */
export function playCards(cards) {
  const text = Array.isArray(cards) ? cards.join(" ") : String(cards ?? "").split(":")[0];
  const out = [];
  for (const tok of text.trim().split(/[\s,]+/)) {
    if (!tok) continue;
    const up = tok.toUpperCase().replace(/[♠♥♣♦]/g, (m) => SUIT_LETTER[m]);
    const jk = /^([BR])J$/.exec(up);
    if (jk) { out.push(jk[1]); continue; }
    const suited = /^(10|[2-9TJQKA])([SHCD])$/.exec(up);
    if (suited) { out.push((suited[1] === "10" ? "T" : suited[1]) + suited[2]); continue; }
    // rank letters ("33344", "10" for ten)
    for (let i = 0; i < up.length; i++) {
      if (up[i] === "1" && up[i + 1] === "0") { out.push("T"); i++; }
      else if (RANKS.includes(up[i])) out.push(up[i]);
    }
  }
  return out;
}

/** The ranks of a play's cards (any form :func:`playCards` reads), e.g. "8H 9H TH" → ["8", "9", "T"]. */
export const playRanks = (cards) => playCards(cards).map(rankOf);

/** The cards of a play as small cards: suited cards (["3S", "3H"], "3S 3H") when known, else the move's ranks
 * ("33344456", drawn without suits). */
export function playEl(cards, size = "sm") {
  const list = playCards(cards);
  const box = h("div.play-cards", { dataset: { cards: list.join(" ") } });
  for (const c of sortHand(list, "count")) box.append(cardEl(c, { size }));
  return box;
}

/** A play's cards in words for captions: "6789T" or "6S 7H 8H 9C TD" → "6 7 8 9 10" (bigger groups first, then by
 * rank), jokers by name. */
export function cardsText(cards) {
  const list = playRanks(cards);
  const counts = {};
  for (const r of list) counts[r] = (counts[r] || 0) + 1;
  const ordered = [...list].sort((a, b) => counts[b] - counts[a] || rankIndex(a) - rankIndex(b));
  return ordered.map((r) => (r === "B" ? t("joker_small") : r === "R" ? t("joker_big") : rankLabel(r))).join(" ");
}

/** Hand order.  mode "rank": big to small; mode "count": bigger groups first (bombs, triples, pairs, singles). */
export function sortHand(cards, mode) {
  const counts = {};
  for (const c of cards) counts[rankOf(c)] = (counts[rankOf(c)] || 0) + 1;
  return [...cards].sort((a, b) => {
    if (mode === "count") {
      const d = counts[rankOf(b)] - counts[rankOf(a)];
      if (d) return d;
    }
    const dr = rankIndex(rankOf(b)) - rankIndex(rankOf(a));
    if (dr) return dr;
    return SUIT_ORDER[suitOf(a)] - SUIT_ORDER[suitOf(b)];
  });
}

/** {cards, kind, main, label} of a legal action "play 33344456:plane_singles:4". */
export function parsePlay(action) {
  const label = action.replace(/^play\s+/, "");
  const [cards, kind, main] = label.split(":");
  return { cards, kind: kind || null, main: main || null, label };
}

function countsOf(ranks) {
  const c = new Array(RANKS.length).fill(0);
  for (const r of ranks) c[rankIndex(r)]++;
  return c;
}

function bombClass(cards) {
  const c = countsOf(cards);
  const present = c.map((n, i) => (n ? i : -1)).filter((i) => i >= 0);
  const B = rankIndex("B"), R = rankIndex("R");
  if (present.every((i) => i === B || i === R) && c[B] && c[R] && c[B] === c[R]) return 2; // rocket
  if (present.length === 1 && present[0] < B && c[present[0]] >= 4) return 1; // bomb
  return 0;
}

function mainRank(p) {
  if (p.main) return rankIndex(p.main);
  const c = countsOf(p.cards);
  const top = Math.max(...c);
  let best = -1;
  c.forEach((n, i) => { if (n === top) best = i; });
  return best;
}

/**
 * The legal plays in the order 提示 offers them when the server sends no ``hints`` (its heuristic bot's plan
 * order comes first when it does): never bombs or the rocket before other plays, never spending a bomb's cards
 * in another play while something else works, 2s and jokers kept for later; when following, the smallest play
 * that beats, then fewer split groups; when leading, the lowest cards first, keeping groups whole, shedding as
 * many cards as possible.
 */
export function orderHints(legal, hand) {
  const held = countsOf(hand.map(rankOf));
  const plays = legal.filter((a) => a.startsWith("play ")).map(parsePlay);
  const leading = !legal.includes("pass");
  const TWO = rankIndex("2");
  const keyOf = (p) => {
    const c = countsOf(p.cards);
    const bomb = bombClass(p.cards);
    let breaksBomb = 0, splits = 0, lowest = 99, high = 0;
    c.forEach((n, i) => {
      if (!n) return;
      lowest = Math.min(lowest, i);
      if (i >= TWO && !bomb && p.cards.length > 1) high += n;
      if (held[i] >= 4 && !bomb) breaksBomb = 1;
      if (n < held[i]) splits++;
    });
    if (leading) return [bomb, breaksBomb, high, lowest, splits, -p.cards.length, mainRank(p)];
    return [bomb, breaksBomb, mainRank(p), high, splits, p.cards.length, lowest];
  };
  const keyed = plays.map((p) => ({ p, k: keyOf(p) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < a.k.length; i++) if (a.k[i] !== b.k[i]) return a.k[i] - b.k[i];
    return a.p.label < b.p.label ? -1 : 1;
  });
  // the same cards read two ways (a plane or a plane with kickers) are one hint
  const seen = new Set();
  return keyed.map((x) => x.p).filter((p) => !seen.has(p.cards) && seen.add(p.cards));
}
