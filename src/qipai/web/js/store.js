// What the client knows: the user, and the table it sits at or watches (table view, deal state, last result),
// kept up to date from server messages.
import { conn } from "./conn.js";

export const store = {
  user: null,
  tableId: null,
  table: null, // TableView
  state: null, // StateView (observation inside)
  lastResult: null, // {deal, outcome, changes}
  spectating: false,
  dealOver: null, // the deal_over message of the deal that just ended
  listeners: new Set(),
  errors: [],
};

export function subscribe(fn) {
  store.listeners.add(fn);
  return () => store.listeners.delete(fn);
}

function notify(what, msg) {
  for (const fn of [...store.listeners]) {
    try { fn(what, msg); } catch (e) { console.error(e); }
  }
}

export function resetTable() {
  store.tableId = null;
  store.table = null;
  store.state = null;
  store.lastResult = null;
  store.spectating = false;
  store.dealOver = null;
}

function acceptState(st) {
  if (!st) return;
  const cur = store.state;
  // messages come in order on one connection, but a snapshot may cross a state: never go back in time
  if (cur && cur.deal === st.deal && cur.version > st.version) return;
  store.state = st;
  if (store.dealOver && store.dealOver.deal !== st.deal && st.observation.phase !== "over") {
    store.dealOver = null;
  }
}

conn.on((msg) => {
  switch (msg.type) {
    case "welcome":
      store.user = { ...(store.user || {}), ...msg.user };
      if (msg.table) {
        if (store.tableId !== msg.table) {
          resetTable();
          store.tableId = msg.table;
        }
      } else if (store.tableId && !store.spectating) {
        // our seat is gone (table closed while we were away)
        resetTable();
      } else if (store.tableId && store.spectating) {
        conn.send({ type: "spectate", table: store.tableId, invite: store.spectateInvite || undefined });
      }
      notify("welcome", msg);
      break;
    case "joined":
      if (store.tableId !== msg.table) resetTable();
      store.tableId = msg.table;
      store.spectating = false;
      notify("joined", msg);
      break;
    case "snapshot":
      if (store.tableId && msg.table.id !== store.tableId) break;
      store.tableId = msg.table.id;
      store.table = msg.table;
      store.spectating = msg.table.you === null;
      if (msg.state) acceptState(msg.state);
      else store.state = store.state && store.state.observation.phase === "over" ? store.state : null;
      store.lastResult = msg.last_result;
      notify("snapshot", msg);
      break;
    case "table":
      if (msg.table.id !== store.tableId) break;
      store.table = msg.table;
      notify("table", msg);
      break;
    case "state":
      if (msg.table !== store.tableId) break;
      acceptState(msg);
      notify("state", msg);
      break;
    case "deal_over":
      if (msg.table !== store.tableId) break;
      store.lastResult = { deal: msg.deal, outcome: msg.outcome, changes: msg.changes };
      store.dealOver = msg;
      for (const c of msg.changes) {
        if (store.user && store.table && store.table.seats[c.seat]?.user_id === store.user.id && c.points !== null) {
          store.user.points = c.points;
          store.user.title = c.title;
        }
      }
      notify("deal_over", msg);
      break;
    case "left":
    case "closed":
      if (msg.table === store.tableId) {
        resetTable();
        notify(msg.type, msg);
      }
      break;
    case "error":
      if (msg.code === "stale" && store.tableId) conn.send({ type: "snapshot", table: store.tableId });
      notify("error", msg);
      break;
    case "_gap":
      if (store.tableId) conn.send({ type: "snapshot", table: store.tableId });
      break;
    case "_unauthorized":
      notify("unauthorized", msg);
      break;
    default:
      break;
  }
});

// for tests and debugging: the live state, read-only by convention
window.qipai = { store, conn };
