// Picking cards in a hand with the mouse and by touch (RULES.md §9), for the card games' views: a click or tap
// raises or lowers one card; pressing and dragging (a swipe) over several cards raises them all, or lowers them
// all when they are all raised already; a right click plays the raised cards; a click on bare felt lowers them
// all.  The view keeps its own state: `raised` (a Set of card keys), `handCards` (the hand in display order,
// each with a `key`), `model`, and the methods `playSelected()`, `lowerAll()` and `paintRaised()`.

import { t } from "./i18n.js";

/**
 * Install the picking handlers on `view.s.root` and `view.s.hand`.
 * @param {object} view the game's table view
 * @param {object} how `card`: the selector of one card element (each with `data-i`, its index in `handCards`);
 *   `indexAt(event)`: the index of the card under a moving pointer, or -1; `changed()`: called after the raised
 *   cards changed (default: `view.paintRaised()`).
 */
export function installHandPicking(view, { card, indexAt, changed = () => view.paintRaised() }) {
  const root = view.s.root;
  const hand = view.s.hand;
  let drag = null;
  let justPressed = false;
  const paint = () => {
    const lo = Math.min(drag.start, drag.cur), hi = Math.max(drag.start, drag.cur);
    for (const el of hand.querySelectorAll(card)) {
      const i = Number(el.dataset.i);
      el.classList.toggle("dragging", i >= lo && i <= hi);
    }
  };
  root.addEventListener("contextmenu", (e) => {
    if (e.target.closest("input, textarea, .dialog, .chat-pop")) return;
    e.preventDefault();
    view.playSelected();
  });
  root.addEventListener("click", (e) => {
    if (justPressed && e.target.closest(".hand")) {
      justPressed = false;
      return;
    }
    if (e.target.closest(`.hand ${card}, button, a, input, select, .dialog, .chat-pop`)) return;
    view.lowerAll();
  });
  root.addEventListener("pointerdown", () => { justPressed = false; }, true);
  hand.addEventListener("pointerdown", (e) => {
    if (view.model?.spectating) return;
    if (e.pointerType === "mouse" && e.button !== 0) return;
    const c = e.target.closest(card);
    if (!c) return;
    e.preventDefault();
    const i = Number(c.dataset.i);
    drag = { start: i, cur: i, id: e.pointerId, moved: false };
    try { hand.setPointerCapture(e.pointerId); } catch { /* a synthetic pointer */ }
    paint();
  });
  hand.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const i = indexAt(e);
    if (i >= 0 && i !== drag.cur) {
      drag.cur = i;
      drag.moved = drag.moved || i !== drag.start;
      paint();
    }
  });
  const finish = (e, cancel) => {
    const d = drag;
    if (!d || e.pointerId !== d.id) return;
    drag = null;
    justPressed = true;
    for (const el of hand.querySelectorAll(`${card}.dragging`)) el.classList.remove("dragging");
    if (cancel) return;
    const lo = Math.min(d.start, d.cur), hi = Math.max(d.start, d.cur);
    const keys = view.handCards.slice(lo, hi + 1).map((x) => x.key);
    if (!d.moved) {
      const k = keys[0];
      if (view.raised.has(k)) view.raised.delete(k);
      else view.raised.add(k);
    } else if (keys.every((k) => view.raised.has(k))) {
      for (const k of keys) view.raised.delete(k);
    } else {
      for (const k of keys) view.raised.add(k);
    }
    changed();
  };
  hand.addEventListener("pointerup", (e) => finish(e, false));
  hand.addEventListener("pointercancel", (e) => finish(e, true));
}

/**
 * The keyboard's picking (for players without a mouse, and screen readers): ← → move a cursor along the hand
 * (shown by a ring, said in the hand's live region with the card's name and whether it is raised), Space raises
 * or lowers the card under it, ↑ raises it, ↓ lowers it.  `rankKey(key)`, where a game gives it, maps a typed
 * key to a rank: that key raises the next lowered card of the rank (Dou Dizhu: 3 … 9, 0 or T for 10, J Q K A 2).
 * A view calls it first from its `key(e)`; it answers whether it took the key.  The cursor is kept by the card's
 * key (a new deal or a played card moves it to the nearest place), and painted by `paintCursor` from the view's
 * `paintRaised()`.
 * @param {object} view the game's table view (`handCards`, `raised`, `s.hand`)
 * @param {KeyboardEvent} e the key
 * @param {object} how `card`: the selector of one card element; `changed()`: after the raised cards changed;
 *   `rankKey(key)`: the rank a typed key stands for, or null
 */
export function keyPick(view, e, { card, changed = () => view.paintRaised(), rankKey = null }) {
  const cards = view.handCards || [];
  if (!cards.length || view.model?.spectating || !view.live) return false;
  const k = e.key;
  let i = cursorIndex(view);
  if (k === "ArrowLeft" || k === "ArrowRight") {
    const step = k === "ArrowLeft" ? -1 : 1;
    i = i < 0 ? (step > 0 ? 0 : cards.length - 1) : Math.max(0, Math.min(cards.length - 1, i + step));
    setCursor(view, i);
    paintCursor(view, card);
    e.preventDefault();
    return true;
  }
  let target = -1, raise = null;
  if (k === " " || k === "Spacebar" || k === "ArrowUp" || k === "ArrowDown") {
    if (i < 0) return k === " " ? (e.preventDefault(), true) : false;
    target = i;
    raise = k === "ArrowUp" ? true : k === "ArrowDown" ? false : !view.raised.has(cards[i].key);
  } else if (rankKey && k.length === 1) {
    const rank = rankKey(k);
    if (!rank) return false;
    target = cards.findIndex((x) => x.card[0] === rank && !view.raised.has(x.key));
    if (target < 0) {  // every card of the rank is raised: typing it again lowers them
      const all = cards.filter((x) => x.card[0] === rank);
      if (!all.length) return false;
      for (const x of all) view.raised.delete(x.key);
      setCursor(view, cards.indexOf(all[0]));
      changed();
      paintCursor(view, card);
      e.preventDefault();
      return true;
    }
    raise = true;
  } else {
    return false;
  }
  e.preventDefault();
  const key = cards[target].key;
  if (raise) view.raised.add(key);
  else view.raised.delete(key);
  setCursor(view, target);
  changed();
  paintCursor(view, card);
  return true;
}

function setCursor(view, i) {
  view.cursor = { key: view.handCards[i].key, i, said: false };
}

function cursorIndex(view) {
  const c = view.cursor;
  if (!c) return -1;
  const at = view.handCards.findIndex((x) => x.key === c.key);
  if (at >= 0) return at;
  // the card left the hand: the nearest place
  return view.handCards.length ? Math.min(c.i, view.handCards.length - 1) : -1;
}

/** Ring the card under the keyboard's cursor and say it (its name; raised or not) in the hand's live region. */
export function paintCursor(view, card) {
  const hand = view.s.hand;
  const i = cursorIndex(view);
  let said = hand.parentElement?.querySelector(":scope > .hand-said");
  if (!said && hand.parentElement) {
    said = document.createElement("div");
    said.className = "sr-only hand-said";
    said.setAttribute("aria-live", "polite");
    hand.after(said);
  }
  for (const el of hand.querySelectorAll(`${card}.kbd-cursor`)) el.classList.remove("kbd-cursor");
  if (i < 0) return;
  const el = hand.querySelector(`${card}[data-i="${i}"]`);
  if (!el) return;
  el.classList.add("kbd-cursor");
  const x = view.handCards[i];
  view.cursor = { key: x.key, i, said: view.cursor?.said };
  const text = (el.getAttribute("aria-label") || "") + (view.raised.has(x.key) ? ` · ${t("card_raised")}` : "");
  if (said && said.textContent !== text) said.textContent = text;
}

/** What a table drawn again in place (a language switch: shell/main.js) keeps of the hand: its raised cards. */
export function keepRaised(view) {
  return { raised: [...view.raised] };
}

/** The raised cards `keepRaised` kept, raised again in the new view where the hand still holds them. */
export function restoreRaised(view, kept) {
  const present = new Set((view.handCards || []).map((x) => x.key));
  for (const k of kept.raised || []) if (present.has(k)) view.raised.add(k);
}
