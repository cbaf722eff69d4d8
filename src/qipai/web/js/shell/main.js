// The app shell: header, routes (#/login, #/lobby, #/table, #/invite/CODE, #/profile, #/player/NAME,
// #/leaderboard[/GAME[/week|month]], #/replay/ID), session, and the table page (a TableFrame around the view of the table's game).
import { h, add, fill, clear, api, toast, dropToasts, relangToasts } from "./util.js";
import { t, setLang, lang, onLang, displayName, errorText } from "./i18n.js";
import { conn } from "./conn.js";
import { store, subscribe, resetTable, setUser, sendPrefs, refreshUser } from "./store.js";
import { loadGames, gameInfo, loadView, titleName } from "./games.js";
import { TableFrame } from "./table.js";
import { authPage, lobbyPage, invitePage, profilePage, leaderboardPage, openSaveAccount } from "./pages.js";
import { replayPage } from "./replay.js";
import { showFinalSummary } from "./summary.js";
import { playerPage } from "./player.js";
import { rulesPage } from "./rules.js";
import { matchesPage, matchPage } from "./matches.js";
import { friendsPage, friendNotices, loadBlocked } from "./friends.js";
import { soundLog, isMuted } from "./sound.js";
import { motionLog } from "./motion.js";
import { pref, setPref } from "./prefs.js";

const app = document.getElementById("app");
let cleanup = null;
let frame = null;
let route = "";
let afterLogin = null; // the page a logged-out visitor asked for (an invite link, a replay, a match…)
let finalSummary = null; // 大结算 of a table that just ended, opened over the lobby once it is drawn

/** The page a hash names (``#/rules/mahjong`` → ``rules``). */
const pageOf = (hash) => hash.replace(/^#\/?/, "").split("/")[0];

/** A part of the hash as it was typed before its percent-encoding (one badly encoded by hand, ``#/rules/%``, is
 * read as it is: decodeURIComponent threw, and the page was never drawn). */
function unhash(part) {
  try {
    return decodeURIComponent(part || "");
  } catch {
    return part || "";
  }
}

/** The pages a logged-out visitor may open: the log-in, and the rules (open to everyone). */
const OPEN_PAGES = ["login", "rules"];

/** Whether a logged-out visitor's page is opened once he logs in: any but those open to him already (one who read
 * the rules and logs in comes to play), the lobby and the table (where one sits is the server's to say). A replay
 * or match link sent to a friend led to the lobby. */
const keptForLogin = (hash) => !["", "lobby", "table", ...OPEN_PAGES].includes(pageOf(hash));

function go(hash) {
  if (location.hash === hash) render();
  else location.hash = hash;
}

function model() {
  return {
    table: store.table,
    state: store.state,
    lastResult: store.lastResult,
    dealOver: store.dealOver,
    spectating: store.spectating,
    user: store.user,
    stateAt: store.stateAt || 0,
  };
}

// ------------------------------------------------------------------------------------------------ header
function renderHeader() {
  const nav = clear(document.getElementById("nav"));
  const userbox = clear(document.getElementById("userbox"));
  document.querySelector(".logo [data-i18n]").textContent = t("app_name");
  document.getElementById("langbtn").textContent = t("lang_other");
  if (!store.user) return;
  const cur = route.split("/")[1] || "";
  // a narrow screen shows a word's short form where the language has one (nav_profile_short: "Me")
  const link = (hash, key) => {
    const full = t(key), short = t(`${key}_short`);
    const words = short && short !== `${key}_short` && short !== full
      ? [h("span.nav-full", full), h("span.nav-short", short)] : [full];
    return h("a", { href: hash, class: cur === hash.slice(2) ? "on" : undefined, "data-nav": hash.slice(2), title: full }, ...words);
  };
  add(nav, link("#/lobby", "nav_lobby"), link("#/matches", "nav_matches"), link("#/leaderboard", "nav_leaderboard"),
    link("#/friends", "nav_friends"), link("#/profile", "nav_profile"));
  if (store.tableId) add(nav, h("a.table-link", { href: "#/table", class: cur === "table" ? "on" : undefined, "aria-label": t("nav_table"), title: t("nav_table") }, "♠"));
  // a guest may save its account (保存账号) from any page: the lobby and the profile show it by the guest badge
  const saveBtn = store.user.is_guest && cur !== "lobby" && cur !== "profile"
    ? h("button.btn.small.primary", { type: "button", "data-action": "save-account", onclick: () => openSaveAccount() }, t("save_account"))
    : null;
  add(userbox,
    h("a.user", { href: "#/profile", title: titleName(store.user.pointsGame, store.user.title) },
      h("span.uname", displayName(store.user.name)), store.user.points !== undefined ? h("span.upts", String(store.user.points)) : null),
    saveBtn,
    h("button.btn.small.ghost", { type: "button", "data-action": "logout", onclick: logout }, t("logout")));
}

async function logout() {
  try { await api("POST", "logout"); } catch { /* ignore */ }
  conn.stop();
  setUser(null);
  resetTable();
  go("#/login");
}

function renderNet(status) {
  const el = document.getElementById("netstate");
  if (status === "lost") {
    el.hidden = false;
    el.textContent = t("net_offline");
    el.className = "netstate lost";
  } else if (status === "connecting") {
    el.hidden = false;
    el.textContent = t("net_connecting");
    el.className = "netstate";
  } else {
    el.hidden = true;
  }
  document.body.dataset.net = status;
}

// ------------------------------------------------------------------------------------------------ the table page
let mounting = null;

/** What the table's view kept when the page was drawn again in place (``view.keep()``), for the new view. */
let keptView = null;

async function mountTable() {
  const table = store.table;
  if (!table || frame || mounting) return;
  const token = (mounting = {});
  try {
    await loadGames();
    const info = gameInfo(table.game);
    const mod = await loadView(info);
    if (mounting !== token || route !== "/table") return;
    if (!mod) {
      fill(app, h("section.panel.no-view", h("p", t("no_view"))));
      return;
    }
    clear(app);
    frame = new TableFrame(app, { module: mod, info, mode: "live" });
    frame.update(model());
    if (keptView?.state && keptView.tableId === store.tableId) frame.view?.restore?.(keptView.state);
    keptView = null;
    frame.showRecentChats(store.chats);
  } catch (ex) {
    toast(() => errorText(ex.code, ex.params), "error", 5000);
  } finally {
    if (mounting === token) mounting = null;
  }
}

/** The final summary of a table that just ended, if one waits (返回大厅 or closing it leaves the player in the
 * lobby). */
function openFinalSummary() {
  const summary = finalSummary;
  finalSummary = null;
  if (!summary) return;
  showFinalSummary(summary, () => {
    if (store.redrawing) finalSummary = summary; // the lobby drawn again (a new language): it opens again
    else if (route === "/table") go("#/lobby");
  });
}

// ------------------------------------------------------------------------------------------------ routes
/** The words naming a page in the window's title (大厅 · 棋牌); pages without are the site's name alone. */
const PAGE_NAMES = { lobby: "nav_lobby", matches: "nav_matches", leaderboard: "nav_leaderboard",
  friends: "nav_friends", profile: "nav_profile", table: "nav_table", rules: "rules_title", player: "nav_player" };

function render() {
  const before = route;
  route = location.hash.replace(/^#/, "") || "/lobby";
  if (cleanup) {
    cleanup();
    cleanup = null;
  }
  // the table drawn again in place (a language switch): its view keeps what the player had raised
  keptView = frame && before === route ? { tableId: store.tableId, state: frame.view?.keep?.() } : null;
  if (frame) {
    frame.destroy();
    frame = null;
  }
  mounting = null;
  // dialogs belong to the page they were opened on (closed here, they are not dismissed: a redrawn table may
  // open its settlement again)
  store.redrawing = true;
  for (const d of document.querySelectorAll("#modal-root .dialog")) d._close?.();
  store.redrawing = false;
  const parts = route.split("/");
  document.body.dataset.route = parts[1];
  renderHeader();
  if (!store.user && !OPEN_PAGES.includes(parts[1])) {
    if (keptForLogin("#" + route)) afterLogin = "#" + route;
    go("#/login");
    return;
  }
  switch (parts[1]) {
    case "login":
      if (store.user) return go("#/lobby");
      authPage(app, { onLoggedIn: loggedIn });
      break;
    case "lobby":
      cleanup = lobbyPage(app, { go });
      break;
    case "invite":
      cleanup = invitePage(app, { code: unhash(parts[2]).toUpperCase(), go });
      break;
    case "table":
      if (!store.tableId) {
        go("#/lobby");
        return;
      }
      fill(app, h("div.loading", "…"));
      mountTable();
      break;
    case "profile":
      cleanup = profilePage(app);
      break;
    case "player": {
      // (a name badly percent-encoded by hand is read as it is: the server says nobody is called so)
      const name = unhash(parts.slice(2).join("/"));
      if (!name.trim()) return go("#/leaderboard");
      cleanup = playerPage(app, { name });
      break;
    }
    case "friends":
      cleanup = friendsPage(app, { go });
      break;
    case "leaderboard":
      cleanup = leaderboardPage(app, { game: parts[2], period: parts[3] });
      break;
    case "matches":
      cleanup = parts[2] ? matchPage(app, { id: unhash(parts[2]) }) : matchesPage(app);
      break;
    case "replay":
      cleanup = replayPage(app, { id: Number(parts[2]) });
      break;
    case "rules":
      cleanup = rulesPage(app, { game: unhash(parts[2]), preset: unhash(parts[3]) });
      break;
    default:
      go("#/lobby");
      return;
  }
  if (parts[1] === "lobby") openFinalSummary();
  const name = PAGE_NAMES[parts[1]];
  document.title = name ? `${t(name)} · ${t("app_name")}` : t("app_name");
  // a new page takes the focus (it stayed on the link or button that went there, now gone or behind: a screen
  // reader went on reading the old page), unless the page put it in a field of its own; the same page drawn again
  // (a new language) keeps it
  if (before && before !== route && !app.contains(document.activeElement)) {
    app.tabIndex = -1;
    app.focus({ preventScroll: true });
  }
}

function loggedIn(user) {
  setUser(user);
  conn.start();
  loadBlocked();
  if (afterLogin) {
    const next = afterLogin;
    afterLogin = null;
    go(next);
  } else if (user.table) {
    store.tableId = user.table;
    go("#/table");
  } else {
    go("#/lobby");
  }
}

subscribe((what, msg) => {
  if (what === "welcome" || what === "deal_over" || what === "user") renderHeader();
  if (what === "user") return;
  if (what === "joined") {
    // seated (again, or at another table): what was said about leaving a table is over (a 你离开了牌桌 of the
    // table just left would stay for seconds over the new one)
    dropToasts("left");
    if (route !== "/table") go("#/table");
    else frame?.update(model());
    return;
  }
  if (what === "closed" && msg && msg.reason === "match_table_done") {
    toast(() => t("match_wait"), "info", 3500, "left");
    if (route === "/table") go(msg.match ? `#/matches/${encodeURIComponent(msg.match)}` : "#/matches");
    else renderHeader();
    return;
  }
  if (what === "closed" && msg && msg.reason === "finished" && msg.summary) {
    // a table played for a set number of deals ended: its final summary (大结算) over the lobby
    finalSummary = msg.summary;
    if (route === "/table" || route === "/lobby") go("#/lobby");
    else openFinalSummary();
    renderHeader();
    return;
  }
  if (what === "table_gone" && msg?.table) {
    // back online to find our table gone: one played for a set number of deals ended meanwhile (大结算)
    api("GET", `tables/${encodeURIComponent(msg.table)}/summary`).then((r) => {
      if (!r?.finished || store.tableId) return;
      finalSummary = r.summary;
      if (route === "/table" || route === "/lobby") go("#/lobby");
      else openFinalSummary();
    }).catch(() => { /* an open-ended table, or gone for another reason */ });
    return;
  }
  if (what === "left" || what === "closed") {
    toast(() => t(what === "left" ? "left_table" : "table_closed"), "info", 3500, "left");
    if (route === "/table") go("#/lobby");
    else renderHeader();
    return;
  }
  if (what === "leaving") {
    toast(() => t("leaving_after_deal"), "info", 3500, "left");
    return;
  }
  if (what === "unauthorized" || what === "closed_session") {
    if (what === "closed_session") {
      // the operator blocked the account: say so (not "log in again", which would be refused)
      toast(() => (msg?.reason === "account_blocked" ? errorText("account_blocked", {}) : t("session_closed")), "error", 8000);
    }
    conn.stop();
    setUser(null);
    resetTable();
    go("#/login");
    return;
  }
  if (what === "error") {
    if (msg.code !== "stale" && msg.code !== "no_change") toast(() => errorText(msg.code, msg.params), "error", 5000, "err-" + msg.code);
    frame?.clearPending();
    if (route === "/table" && !store.table && !store.tableId) go("#/lobby");
    return;
  }
  if (what === "notice") {
    if (msg.code === "storage_restored") toast(() => t("resumed"));
  }
  if (what === "chat") {
    frame?.showChat(msg.seat, msg.phrase);
    return;
  }
  if (what === "welcome" && route === "/table" && !store.tableId) {
    go("#/lobby");
    return;
  }
  if (route === "/table" && !frame && store.table) {
    mountTable();
    return;
  }
  if (frame && ["snapshot", "table", "state", "deal_over", "welcome", "notice", "taken_over", "took_over"].includes(what)) {
    frame.update(model());
  }
});

// match notices (比赛): started, out (eliminated or withdrawn), advanced, over — wherever the player is; the
// header's points read again when a match pays or refunds
conn.on((msg) => {
  if (msg.type !== "match_event" || !store.user) return;
  const ev = msg.event || {};
  const mine = (ids) => (ids || []).some((e) => e === `u${store.user.id}` || e === `t${store.user.id}`);
  if (ev.type === "match_started") toast(() => t("match_notice_started"), "info", 3500, "match");
  else if (ev.type === "eliminated" && mine(ev.entrants)) toast(() => t("match_notice_out"), "info", 5000, "match");
  else if (ev.type === "stage_over" && mine(ev.advancing)) toast(() => t("match_notice_advanced"), "info", 4000, "match");
  else if (ev.type === "match_over") toast(() => t("match_notice_over"), "info", 5000, "match");
  else if (ev.type === "team_invite") {
    // the invitation is answered on the match's card: the toast leads there
    const href = `#/matches/${encodeURIComponent(msg.match)}`;
    const el = toast(() => [t("match_notice_invite", { name: displayName(ev.name) }), " ",
      h("a", { href, dataset: { action: "open-match" } }, t("match_notice_invite_open"))], "info", 15000, "match");
    el.dataset.match = msg.match;
    el.classList.add("link");
    el.addEventListener("click", () => { location.hash = href; el.remove(); });
  } else if (ev.type === "team_declined") {
    // one's own invitation, declined by the partner: say so wherever the captain is
    const el = toast(() => t("match_team_declined_by", { name: displayName(ev.name) }), "info", 8000, "match-declined");
    el.dataset.match = msg.match;
  }
  // the points the header shows moved outside any table: prizes paid at the end, fees refunded (a cancelled
  // match, or one's entry removed at the start)
  if (ev.type === "match_over" || ev.type === "match_cancelled" || (ev.type === "removed" && mine([ev.entrant]))) refreshUser();
});

friendNotices({ go });

conn.onStatus((s) => {
  renderNet(s);
  if (s === "open" && conn.everOpened && conn.retry === 0 && document.body.dataset.wasLost === "1") {
    document.body.dataset.wasLost = "0";
    toast(() => t("reconnected"), "info", 2500, "net");
  }
  if (s === "lost") document.body.dataset.wasLost = "1";
});

document.getElementById("langbtn").addEventListener("click", () => setLang(lang === "zh" ? "en" : "zh"));
onLang(() => { render(); relangToasts(); });
window.addEventListener("hashchange", render);

// for tests and debugging: the live state, read-only by convention
window.qipai = { store, conn, soundLog, motionLog, prefs: { get: pref, set: setPref }, isMuted, sendPrefs,
  frame: () => frame };

async function boot() {
  document.title = t("app_name");
  try {
    const me = await api("GET", "me");
    setUser(me);
    conn.start();
    loadBlocked();
    loadGames().then(() => { setUser(store.user); renderHeader(); }).catch(() => {});
    if (me.table) store.tableId = me.table;
    if (me.table && (!location.hash || location.hash === "#/lobby" || location.hash === "#/login")) go("#/table");
    else render();
  } catch (ex) {
    if (ex.status !== 401) toast(() => errorText(ex.code, ex.params), "error");
    setUser(null);
    if (keptForLogin(location.hash)) afterLogin = location.hash;
    if (!OPEN_PAGES.includes(pageOf(location.hash))) go("#/login");
    else render();
  }
}

boot();
