// Small DOM helpers, the JSON API client, toasts and dialogs.
import { t } from "./i18n.js";


/** h("div.cls#id", {attrs}, children...) builds an element; text children are text nodes (never HTML). */
export function h(spec, attrs, ...children) {
  const m = /^([a-z0-9]+)?((?:[.#][\w-]+)*)$/i.exec(spec);
  const el = document.createElement((m && m[1]) || "div");
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === ".") el.classList.add(part.slice(1));
      else el.id = part.slice(1);
    }
  }
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") listen(el, k.slice(2).toLowerCase(), v);
    else if (k === "class") el.className += (el.className ? " " : "") + v;
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Append children to el, skipping null/undefined/false (unlike Element.append, which writes "null"). */
export function add(el, ...children) {
  append(el, children);
  return el;
}

/** An ``on…`` handler of :func:`h`: one listener per event type that calls the element's current handler, so
 * :func:`morph` can hand a kept element the handler of the element built in its place. */
function listen(el, type, fn) {
  if (!el.__on) el.__on = {};
  if (!(type in el.__on)) el.addEventListener(type, (e) => el.__on[type]?.(e));
  el.__on[type] = fn;
}

/** Make ``el``'s children those of ``fresh`` (an element built with :func:`h`, not in the page), keeping the
 * elements already there where the new one is the same kind (same tag and ``data-action``): their attributes,
 * text and handlers become the new ones'.  A button redrawn by every message must stay the same element, or a
 * click whose press came before a message and whose release after it is lost (the press's element is gone),
 * and keyboard focus with it.  Only for elements built with :func:`h` (handlers set any other way are not moved). */
export function morph(el, fresh) {
  const want = [...fresh.childNodes].map((n) => n.__standFor || n);
  want.forEach((n, i) => {
    const old = el.childNodes[i];
    if (old === n) return;  // a kept element (keep) already in its place
    if (old && !n.__keptByMorph && !old.__keptByMorph && sameKind(old, n)) {
      patch(old, n);
      return;
    }
    unstand(n);  // n goes in as it is (a kept element is never another's to patch)
    if (!old) el.appendChild(n);
    else if (n.__keptByMorph || old.__keptByMorph) el.insertBefore(n, old);
    else el.replaceChild(n, old);
  });
  while (el.childNodes.length > want.length) el.removeChild(el.lastChild);
  return el;
}

/** Put the kept elements in place of their stand-ins in a new subtree going into the page as it is. */
function unstand(n) {
  if (n.nodeType !== Node.ELEMENT_NODE) return;
  const walk = document.createTreeWalker(n, NodeFilter.SHOW_COMMENT);
  const stands = [];
  while (walk.nextNode()) if (walk.currentNode.__standFor) stands.push(walk.currentNode);
  for (const c of stands) c.replaceWith(c.__standFor);
}

/** A stand-in for ``el`` in a tree to :func:`morph` in: ``el`` itself goes there, as it is (an input being typed
 * in, a list that keeps its own rows), where building the tree around ``el`` would take it out of the page. */
export function keep(el) {
  el.__keptByMorph = true;
  const stand = document.createComment("kept");
  stand.__standFor = el;
  return stand;
}

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return a.nodeType === Node.TEXT_NODE;
  return a.tagName === b.tagName && a.getAttribute("data-action") === b.getAttribute("data-action");
}

function patch(old, n) {
  if (old.nodeType === Node.TEXT_NODE) {
    if (old.nodeValue !== n.nodeValue) old.nodeValue = n.nodeValue;
    return;
  }
  for (const a of [...old.attributes]) if (!n.hasAttribute(a.name)) old.removeAttribute(a.name);
  for (const a of n.attributes) if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
  for (const type of Object.keys(old.__on || {})) if (!n.__on || !(type in n.__on)) old.__on[type] = null;
  for (const [type, fn] of Object.entries(n.__on || {})) listen(old, type, fn);
  morph(old, n);
}

/** Replace el's children. */
export function fill(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export class ApiError extends Error {
  constructor(status, code, message, params = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params || {};
  }
}

/** Call the JSON API (cookie session).  Throws ApiError with the server's code, params and (English) message:
 * word it for the player with ``errorText(e.code, e.params)`` (i18n.js), never show ``message``. */
export async function api(method, path, body) {
  let r;
  try {
    r = await fetch("/api/" + path.replace(/^\//, ""), {
      method,
      credentials: "same-origin",
      // Every state-changing request is JSON (the server refuses anything else: CSRF protection).
      headers: method !== "GET" ? { "Content-Type": "application/json" } : {},
      body: method !== "GET" ? JSON.stringify(body === undefined ? {} : body) : undefined,
    });
  } catch (e) {
    throw new ApiError(0, "network", String(e.message || e));
  }
  let data = null;
  try {
    data = await r.json();
  } catch {
    data = null;
  }
  if (!r.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(r.status, err.code || "http_" + r.status, err.message || r.statusText, err.params);
  }
  return data;
}

/** A short message at the top of the page.  A dialog opening clears every toast (they never linger over
 * it); ``key`` replaces an older toast with the same key instead of stacking a second one. */
export function toast(text, kind = "info", ms = 3500, key = undefined) {
  const box = document.getElementById("toasts");
  if (key) for (const old of box.querySelectorAll(".toast")) if (old.dataset.key === key) old.remove();
  const el = h("div.toast", { class: kind, role: kind === "error" ? "alert" : "status", dataset: key ? { key } : undefined });
  const fill = () => el.replaceChildren(...[].concat(typeof text === "function" ? text() : text));
  fill();
  if (typeof text === "function") el._relang = fill; // said again in the other language when it is switched
  box.append(el);
  setTimeout(() => el.classList.add("out"), ms);
  setTimeout(() => el.remove(), ms + 400);
  return el;
}

/** Say the toasts on screen again in the language just chosen (those made from a function: ``toast(() => t(…))``). */
export function relangToasts() {
  const box = document.getElementById("toasts");
  if (box) for (const el of box.querySelectorAll(".toast")) el._relang?.();
}

/** Take away the toasts with ``key`` now (what they said no longer holds). */
export function dropToasts(key) {
  const box = document.getElementById("toasts");
  if (box) for (const old of box.querySelectorAll(".toast")) if (old.dataset.key === key) old.remove();
}

export function clearToasts() {
  const box = document.getElementById("toasts");
  if (box) clear(box);
}

/** A dialog over the page.  Returns {el, close}.  ``id`` replaces an open dialog with the same id. */
let dialogs = 0;

export function modal({ id, title, body, buttons = [], onClose, wide = false, dismissable = true }) {
  const root = document.getElementById("modal-root");
  if (id) {
    const old = document.getElementById(id);
    if (old) old._close?.();
  }
  // the keyboard's focus goes into the dialog, stays there (Tab cycles through its controls) and goes back to
  // where it was when the dialog closes
  const opener = document.activeElement;
  const close = () => {
    if (!back.isConnected) return;
    back.remove();
    document.removeEventListener("keydown", onKey, true);
    onClose?.();
    if (opener && opener !== document.body && opener.isConnected && !document.querySelector("#modal-root .backdrop")
        && (document.activeElement === document.body || !document.activeElement)) {
      opener.focus({ preventScroll: true });
    }
  };
  const onKey = (e) => {
    const all = document.querySelectorAll("#modal-root .backdrop");
    if (all[all.length - 1] !== back) return;
    if (e.key === "Tab") {
      const items = [...dialog.querySelectorAll("button, a[href], input, select, textarea, [tabindex]:not([tabindex='-1'])")]
        .filter((x) => !x.disabled && x.offsetParent !== null);
      if (!items.length) return;
      const at = items.indexOf(document.activeElement);
      if (e.shiftKey && at <= 0) {
        e.preventDefault();
        items[items.length - 1].focus();
      } else if (!e.shiftKey && (at < 0 || at === items.length - 1)) {
        e.preventDefault();
        items[0].focus();
      }
      return;
    }
    if (e.key !== "Escape" || !dismissable) return;
    e.stopPropagation();
    close();
  };
  document.addEventListener("keydown", onKey, true);
  clearToasts();
  const btns = buttons.length ? buttons : [{ text: t("close"), primary: true }];
  const titleId = `dialog-title-${++dialogs}`;
  const dialog = h(
    "div.dialog",
    { id, role: "dialog", "aria-modal": "true", "aria-labelledby": titleId, tabindex: "-1", class: wide ? "wide" : undefined },
    h("div.dialog-head", h("h2", { id: titleId }, title || ""),
      dismissable ? h("button.x", { type: "button", "aria-label": t("close"), onclick: close }, "×") : null),
    h("div.dialog-body", body),
    h(
      "div.dialog-foot",
      btns.map((b) =>
        h("button.btn", {
          type: "button",
          class: b.primary ? "primary" : b.danger ? "danger" : "ghost",
          "data-action": b.action,
          disabled: b.disabled,
          onclick: () => {
            if (b.onClick?.() !== false) close();
          },
        }, b.text)
      )
    )
  );
  const back = h("div.backdrop", dialog);
  if (dismissable) back.addEventListener("click", (e) => { if (e.target === back) close(); });
  back.addEventListener("contextmenu", (e) => e.stopPropagation());
  dialog._close = close;
  root.append(back);
  dialog.focus({ preventScroll: true });
  return { el: dialog, close };
}

export function fmtDelta(n) {
  if (n === null || n === undefined) return "";
  return n > 0 ? "+" + n : String(n);
}

/** A time (an ISO string or epoch milliseconds) as 2026-12-06 12:18, whatever the browser's locale. */
export function fmtTime(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (isNaN(d)) return iso;
  const p = (x) => String(x).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}
