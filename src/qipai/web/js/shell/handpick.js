// Picking cards in a hand with the mouse and by touch (RULES.md §9), for the card games' views: a click or tap
// raises or lowers one card; pressing and dragging (a swipe) over several cards raises them all, or lowers them
// all when they are all raised already; a right click plays the raised cards; a click on bare felt lowers them
// all.  The view keeps its own state: `raised` (a Set of card keys), `handCards` (the hand in display order,
// each with a `key`), `model`, and the methods `playSelected()`, `lowerAll()` and `paintRaised()`.

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
