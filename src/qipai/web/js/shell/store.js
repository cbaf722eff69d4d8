// What the client knows: the user, the registered games, and the table it sits at or watches (table view, deal
// state, last result, chat), kept up to date from server messages.  Game-agnostic: a game's view reads the
// observation inside ``state``.
import { conn } from "./conn.js";
import { pref, setPrefUser } from "./prefs.js";
import { api } from "./util.js";

export const store = {
  user: null,
  games: [], // GET /api/games: every registered game's description
  tableId: null,
  table: null, // TableView
  state: null, // StateView (observation inside)
  lastResult: null, // {deal, outcome, changes}
  spectating: false,
  spectateInvite: null,
  dealOver: null, // the deal_over message of the deal that just ended (until the next deal starts)
  dismissed: new Set(), // deals whose settlement the player closed (never shown again)
  escapes: {}, // deal id → seat that escaped (from deal_over outcomes), for the history dialog
  lastEscape: null, // {deal, delta}: the player's own last escape, shown in the lobby
  chats: [], // [{seat, phrase, at}] of the current table
  blocked: new Set(), // ids of the players the user blocked (拉黑): their quick chat is not shown
  invites: [], // friends' invitations to their private tables this session, the latest first: {user, code, game, room}
  takenOver: false,
  welcomes: 0, // how many welcome messages this page has had (the server's answer to the socket's hello)
  notice: null, // the table's last notice code (storage_unavailable / storage_restored)
  listeners: new Set(),
};

const quiet = new Set(); // ids of messages whose refusal is not worth telling (optional features)

/** Whether the user sits at a table (not watching one): watching another would put his seat out of reach. */
export function seated() {
  return !!(store.tableId && !store.spectating);
}

/** The game whose points the header shows: the table's, else the first registered game with a browser view,
 * else the first the account has standing in. */
export function homeGame(user = store.user) {
  return store.table?.game || store.games.find((g) => g.web)?.name || Object.keys(user?.games || {})[0] || null;
}

/** The account as a page reads it for ``game``: its points, title and counts in that game laid flat, and which game
 * that is (``pointsGame``: a title is named in the words of its own game — the header and the lobby drawn after
 * leaving a Shengji table named its 中尉 as Dou Dizhu's, and an English page showed it in Chinese). */
export function withGame(user, game) {
  if (!user) return user;
  const name = game ?? homeGame(user);
  const g = (user.games || {})[name];
  if (!g) return user;
  return { ...user, pointsGame: name, points: g.points, title: g.title, games_played: g.games_played, wins: g.wins,
    roles: g.roles || {} };
}

export function setUser(user, game) {
  store.user = user ? withGame(user, game) : null;
  setPrefUser(store.user?.id);
}

/** Read the account again (``GET /api/me``) after something the server changed outside any table message — a
 * match's fee taken or refunded, a prize paid — and tell the listeners (``user``: the header redraws its points).
 * The header then shows ``game``'s points (a match's fee or refund, in the match's game), else the game it showed
 * (a prize paid after the last table of a mahjong match closed is in mahjong's points, not Dou Dizhu's). */
export async function refreshUser(game) {
  if (!store.user) return;
  const id = store.user.id;
  try {
    const me = await api("GET", "me");
    if (!store.user || store.user.id !== id) return; // logged out (or in as another) meanwhile
    setUser({ ...store.user, ...me }, store.table?.game || game || store.user.pointsGame);
    notify("user", store.user);
  } catch { /* the next read or table message brings the points */ }
}

export function subscribe(fn) {
  store.listeners.add(fn);
  return () => store.listeners.delete(fn);
}

export function notify(what, msg) {
  for (const fn of [...store.listeners]) {
    try { fn(what, msg); } catch (e) { console.error(e); }
  }
}

/** Send a message whose refusal (e.g. by a server that does not know it yet) is not shown to the player. */
export function sendQuiet(msg) {
  const id = conn.send(msg);
  if (id !== null) quiet.add(id);
  return id;
}

/** The per-user preferences the server keeps for this connection (要不起 auto-pass). */
export function sendPrefs() {
  sendQuiet({ type: "prefs", auto_pass: !!pref("auto_pass", true) });
}

export function resetTable() {
  store.tableId = null;
  store.table = null;
  store.state = null;
  store.lastResult = null;
  store.spectating = false;
  store.spectateInvite = null;
  store.dealOver = null;
  store.chats = [];
  store.takenOver = false;
  store.notice = null;
}

/** Watch a table (``invite``: the code a private table needs). */
export function spectate(tableId, invite = null) {
  resetTable();
  store.tableId = tableId;
  store.spectating = true;
  store.spectateInvite = invite;
  conn.send({ type: "spectate", table: tableId, invite: invite || undefined });
}

function acceptState(st) {
  if (!st) return;
  const cur = store.state;
  // messages come in order on one connection, but a snapshot may cross a state: never go back in time on one
  // socket (a new one, after a server restarted mid-deal, numbers the deal's views afresh: protocol.md §3)
  if (cur && cur.deal === st.deal && cur.version > st.version && store.stateSocket === store.welcomes) return;
  store.state = st;
  store.stateSocket = store.welcomes;
  store.stateAt = performance.now();
  if (store.dealOver && store.dealOver.deal !== st.deal && st.observation.phase !== "over") {
    // the next deal started: its settlement is history now
    store.dismissed.add(store.dealOver.deal);
    store.dealOver = null;
  }
}

function mySeat() {
  if (!store.user || !store.table) return null;
  const s = store.table.seats.findIndex((x) => x && x.user_id === store.user.id);
  return s < 0 ? null : s;
}

conn.on((msg) => {
  switch (msg.type) {
    case "welcome":
      store.welcomes += 1;
      setUser({ ...(store.user || {}), ...msg.user });
      sendPrefs();
      if (msg.table) {
        if (store.tableId !== msg.table) {
          resetTable();
          store.tableId = msg.table;
        }
      } else if (seated()) {
        // our seat is gone (table closed while we were away): a table played for a set number of deals may have
        // ended meanwhile (its final summary is still to be read)
        const gone = store.tableId;
        resetTable();
        notify("table_gone", { table: gone });
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
      store.tableAt = performance.now();
      store.spectating = msg.table.you === null;
      if (msg.state) acceptState(msg.state);
      else store.state = store.state && store.state.observation.phase === "over" ? store.state : null;
      store.lastResult = msg.last_result;
      store.takenOver = false;
      notify("snapshot", msg);
      break;
    case "table":
      if (msg.table.id !== store.tableId) break;
      store.table = msg.table;
      store.tableAt = performance.now();
      notify("table", msg);
      break;
    case "state":
      if (msg.table !== store.tableId) break;
      acceptState(msg);
      notify("state", msg);
      break;
    case "deal_over": {
      if (msg.table !== store.tableId) break;
      store.lastResult = { deal: msg.deal, outcome: msg.outcome, changes: msg.changes };
      store.dealOver = msg;
      const esc = msg.outcome?.escaped;
      if (esc !== null && esc !== undefined) store.escapes[msg.deal] = esc;
      const me = mySeat();
      for (const c of msg.changes) {
        if (c.seat === me && store.user && c.points !== null && c.points !== undefined) {
          store.user.points = c.points;
          store.user.title = c.title;
          store.user.pointsGame = store.table.game;
          if (store.user.games?.[store.table.game]) {
            store.user.games[store.table.game].points = c.points;
            store.user.games[store.table.game].title = c.title;
            // /api/me's word on relief was for the points before this deal: the lobby goes by its rule on points
            // until the account is read again (one gone broke here was offered no relief)
            delete store.user.games[store.table.game].relief_due;
          }
        }
        if (c.seat === me && esc === me) store.lastEscape = { deal: msg.deal, delta: c.delta ?? c.score };
      }
      notify("deal_over", msg);
      break;
    }
    case "chat":
      if (msg.table !== store.tableId) break;
      if (store.blocked.has(store.table?.seats?.[msg.seat]?.user_id)) break; // 拉黑: muted
      store.chats.push({ seat: msg.seat, phrase: msg.phrase, at: performance.now() });
      if (store.chats.length > 30) store.chats.shift();
      notify("chat", msg);
      break;
    case "notice":
      if (msg.table !== store.tableId) break;
      store.notice = msg.code;
      notify("notice", msg);
      break;
    case "taken_over":
      store.takenOver = true;
      notify("taken_over", msg);
      break;
    case "took_over":
      store.takenOver = false;
      notify("took_over", msg);
      break;
    case "closed_session":
      notify("closed_session", msg);
      break;
    case "account":
      // changed from another window (a guest saved as an account): the header and pages show it at once
      if (store.user && msg.user?.id === store.user.id) refreshUser();
      break;
    case "left":
    case "closed":
      if (msg.table === store.tableId) {
        if (msg.type === "left" && msg.reason === "leaving_after_deal") {
          notify("leaving", msg);
          break;
        }
        resetTable();
        // the seat /api/me gave when the page loaded is gone too: the lobby offered 回到牌桌 onto it
        if (store.user?.table === msg.table) store.user.table = null;
        notify(msg.type, msg);
      }
      break;
    case "checked":
      notify("checked", msg);
      break;
    case "error":
      if (msg.ref !== null && msg.ref !== undefined && quiet.has(msg.ref)) {
        quiet.delete(msg.ref);
        break;
      }
      if (msg.code === "stale" && store.tableId) conn.send({ type: "snapshot", table: store.tableId });
      if (msg.code === "taken_over") store.takenOver = true;
      if (msg.code === "not_at_table" && store.spectating && msg.params?.table === store.tableId) {
        // stopped watching already (the table moved or the server forgot this window): back to the lobby
        resetTable();
        notify("left", { type: "left", table: msg.params.table, reason: "unspectated" });
        break;
      }
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
