// Per-user preferences kept in this browser (localStorage): sound on or off, auto-pass (要不起), the card
// counter, hand sorting.  Keys carry the user's id, so two accounts on one computer keep their own choices.

let user = "anon";

/** Called by the store whenever the logged-in user changes. */
export function setPrefUser(id) {
  user = id === null || id === undefined ? "anon" : String(id);
}

function key(name) {
  return `qipai.u${user}.${name}`;
}

export function pref(name, dflt) {
  const raw = localStorage.getItem(key(name));
  if (raw === null) return dflt;
  try {
    return JSON.parse(raw);
  } catch {
    return dflt;
  }
}

export function setPref(name, value) {
  localStorage.setItem(key(name), JSON.stringify(value));
  for (const fn of [...watchers]) fn(name, value);
}

const watchers = new Set();

export function onPref(fn) {
  watchers.add(fn);
  return () => watchers.delete(fn);
}
