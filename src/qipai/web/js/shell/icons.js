// Small inline SVG icons and emotes (drawn here, so they look the same on every system, with or without an
// emoji font).  Static markup only: nothing from the server goes into it.

const FACE = '<circle cx="16" cy="16" r="14" fill="#ffcf40" stroke="#c98a10" stroke-width="1.5"/>';
const EYES = '<circle cx="11" cy="13" r="2" fill="#4a3100"/><circle cx="21" cy="13" r="2" fill="#4a3100"/>';

const SVG = {
  "emote:smile": `${FACE}${EYES}<path d="M9 19 Q16 26 23 19" fill="none" stroke="#4a3100" stroke-width="2.2" stroke-linecap="round"/>`,
  "emote:cry": `${FACE}${EYES}<path d="M10 23 Q16 18 22 23" fill="none" stroke="#4a3100" stroke-width="2.2" stroke-linecap="round"/>` +
    '<path d="M11 16 Q9 20 11 22 Q13 20 11 16Z" fill="#3b8fe0"/><path d="M21 16 Q19 20 21 22 Q23 20 21 16Z" fill="#3b8fe0"/>',
  "emote:angry": '<circle cx="16" cy="16" r="14" fill="#ff7a45" stroke="#b3261e" stroke-width="1.5"/>' +
    '<path d="M7 10 L13 13 M25 10 L19 13" stroke="#4a1000" stroke-width="2.4" stroke-linecap="round"/>' +
    '<circle cx="11" cy="15" r="1.8" fill="#4a1000"/><circle cx="21" cy="15" r="1.8" fill="#4a1000"/>' +
    '<path d="M10 23 Q16 19 22 23" fill="none" stroke="#4a1000" stroke-width="2.2" stroke-linecap="round"/>',
  "emote:shock": '<circle cx="16" cy="16" r="14" fill="#ffcf40" stroke="#c98a10" stroke-width="1.5"/>' +
    '<circle cx="11" cy="12" r="2.6" fill="#fff" stroke="#4a3100" stroke-width="1.4"/><circle cx="21" cy="12" r="2.6" fill="#fff" stroke="#4a3100" stroke-width="1.4"/>' +
    '<ellipse cx="16" cy="22" rx="3.2" ry="4" fill="#4a3100"/>',
  "emote:thumbs_up": '<path d="M5 14 h5 v13 h-5z" fill="#e0a528" stroke="#8a5a00" stroke-width="1.2"/>' +
    '<path d="M11 14 L16 4 Q19 3 19 7 L18 12 H26 Q29 12 28 16 L26 25 Q25 27 22 27 H11 Z" fill="#ffcf40" stroke="#8a5a00" stroke-width="1.4" stroke-linejoin="round"/>',
  "emote:flower": '<path d="M16 18 Q15 25 17 30" stroke="#2e8b3e" stroke-width="2.2" fill="none"/>' +
    '<path d="M16 25 Q21 21 24 23 Q20 27 16 25Z" fill="#3aa34a"/>' +
    '<circle cx="16" cy="7" r="5" fill="#e0364b"/><circle cx="10.5" cy="11.5" r="5" fill="#e0364b"/>' +
    '<circle cx="21.5" cy="11.5" r="5" fill="#e0364b"/><circle cx="12.5" cy="17" r="4.5" fill="#c9253a"/>' +
    '<circle cx="19.5" cy="17" r="4.5" fill="#c9253a"/><circle cx="16" cy="12.5" r="3.5" fill="#ffd34d"/>',
  sound: '<path d="M5 12 h5 l7 -6 v20 l-7 -6 h-5z" fill="currentColor"/>' +
    '<path d="M21 11 Q24 16 21 21 M24 8 Q29 16 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
  mute: '<path d="M5 12 h5 l7 -6 v20 l-7 -6 h-5z" fill="currentColor"/>' +
    '<path d="M21 12 L28 20 M28 12 L21 20" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>',
  link: '<path d="M13 19 L19 13" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>' +
    '<path d="M15 9 l2 -2 a5 5 0 0 1 7 7 l-2 2 M17 23 l-2 2 a5 5 0 0 1 -7 -7 l2 -2" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>',
  help: '<circle cx="16" cy="16" r="12" fill="none" stroke="currentColor" stroke-width="2.2"/>' +
    '<path d="M12 12.5 a4 4 0 1 1 5.5 3.7 q-1.5 .7 -1.5 2.3 v1" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>' +
    '<circle cx="16" cy="23.5" r="1.6" fill="currentColor"/>',
  chat: '<path d="M5 7 h22 v14 h-12 l-6 5 v-5 h-4z" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linejoin="round"/>' +
    '<circle cx="11" cy="14" r="1.6" fill="currentColor"/><circle cx="16" cy="14" r="1.6" fill="currentColor"/><circle cx="21" cy="14" r="1.6" fill="currentColor"/>',
};

/** An <svg> element for ``name`` (an emote id or an icon name), ``size`` CSS pixels square. */
export function icon(name, size = 20) {
  const body = SVG[name];
  const el = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  el.setAttribute("viewBox", "0 0 32 32");
  el.setAttribute("width", String(size));
  el.setAttribute("height", String(size));
  el.setAttribute("aria-hidden", "true");
  el.setAttribute("class", "icon");
  if (body) el.innerHTML = body;
  return el;
}

export function isEmote(phrase) {
  return typeof phrase === "string" && phrase.startsWith("emote:") && SVG[phrase] !== undefined;
}
