// Motion that never blocks input: the Web Animations API on elements already in place (the state is drawn
// first, then animated from where it came from), effect banners with pointer-events: none, and nothing at
// all when the player asks for reduced motion (prefers-reduced-motion).

/** What ran, for tests and debugging: [{kind, name}] (also kept when motion is reduced, with reduced: true). */
export const motionLog = [];

export function reducedMotion() {
  return !!window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

function log(kind, name) {
  motionLog.push({ kind, name, reduced: reducedMotion(), at: Math.round(performance.now()) });
  if (motionLog.length > 200) motionLog.splice(0, 100);
}

/** Animate ``el`` from the rectangle ``from`` (a DOMRect of where it came from) to where it is now. */
export function flyFrom(el, from, { duration = 320, delay = 0, scale = true, name = "fly" } = {}) {
  log("fly", name);
  if (reducedMotion() || !from || !el.animate) return null;
  const to = el.getBoundingClientRect();
  if (!to.width || !from.width) return null;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const s = scale ? Math.max(0.3, Math.min(2.5, from.width / to.width)) : 1;
  return el.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${s})`, opacity: 0.6 }, { transform: "none", opacity: 1 }],
    { duration, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
  );
}

/** Cards dealt: each element in ``els`` comes from ``from`` one after another. */
export function deal(els, from) {
  log("deal", "deal");
  if (reducedMotion() || !from) return;
  [...els].forEach((el, i) => {
    if (!el.animate) return;
    const to = el.getBoundingClientRect();
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    el.animate(
      [{ transform: `translate(${dx}px, ${dy}px) rotate(-12deg) scale(.5)`, opacity: 0 }, { transform: "none", opacity: 1 }],
      { duration: 220, delay: i * 18, easing: "ease-out", fill: "backwards" },
    );
  });
}

/** A short banner over the felt (炸弹!, 王炸, 飞机, 春天): ``layer`` is the felt's effect layer. */
export function banner(layer, kind, text) {
  log("effect", kind);
  if (!layer) return null;
  for (const old of layer.querySelectorAll(".fx")) old.remove(); // one banner at a time: the newest
  const el = document.createElement("div");
  el.className = `fx fx-${kind}` + (reducedMotion() ? " still" : "");
  el.dataset.fx = kind;
  el.setAttribute("aria-hidden", "true");
  const span = document.createElement("span");
  span.textContent = text;
  el.append(span);
  layer.append(el);
  setTimeout(() => el.remove(), reducedMotion() ? 1200 : 1700);
  return el;
}
