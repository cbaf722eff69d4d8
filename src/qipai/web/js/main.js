// The app shell: header, routes (#/login, #/lobby, #/table, #/profile, #/leaderboard, #/replay/ID), session.
import { h, add, fill, clear, api, toast } from "./util.js";
import { t, setLang, lang, onLang } from "./i18n.js";
import { conn } from "./conn.js";
import { store, subscribe, resetTable } from "./store.js";
import { TableView, showSettlement } from "./table.js";
import { authPage, lobbyPage, profilePage, leaderboardPage, replayPage } from "./pages.js";

const app = document.getElementById("app");
let cleanup = null;
let tableView = null;
let route = "";

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
  const link = (hash, key) => h("a", { href: hash, class: cur === hash.slice(2) ? "on" : undefined, "data-nav": hash.slice(2) }, t(key));
  add(nav, link("#/lobby", "nav_lobby"), link("#/leaderboard", "nav_leaderboard"), link("#/profile", "nav_profile"));
  if (store.tableId) add(nav, h("a.table-link", { href: "#/table", class: cur === "table" ? "on" : undefined }, "♠"));
  add(userbox, 
    h("a.user", { href: "#/profile", title: store.user.title },
      h("span.uname", store.user.name), h("span.upts", String(store.user.points))),
    h("button.btn.small.ghost", { type: "button", "data-action": "logout", onclick: logout }, t("logout")));
}

async function logout() {
  try { await api("POST", "logout"); } catch { /* ignore */ }
  conn.stop();
  store.user = null;
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

// ------------------------------------------------------------------------------------------------ routes
function render() {
  route = location.hash.replace(/^#/, "") || "/lobby";
  if (cleanup) {
    cleanup();
    cleanup = null;
  }
  if (tableView) {
    tableView.destroy();
    tableView = null;
  }
  // dialogs belong to the page they were opened on
  for (const d of document.querySelectorAll("#modal-root .dialog")) d._close?.();
  document.body.dataset.route = route.split("/")[1];
  renderHeader();
  if (!store.user && route !== "/login") {
    go("#/login");
    return;
  }
  const parts = route.split("/");
  switch (parts[1]) {
    case "login":
      if (store.user) return go("#/lobby");
      authPage(app, { onLoggedIn: loggedIn });
      break;
    case "lobby":
      cleanup = lobbyPage(app, { go });
      break;
    case "table":
      if (!store.tableId) {
        go("#/lobby");
        return;
      }
      clear(app);
      tableView = new TableView(app, { mode: "live" });
      tableView.update(model());
      if (store.dealOver && store.state?.observation.phase === "over") {
        showSettlement(store.lastResult, store.table, store.table?.you ?? null, store.state?.observation);
      }
      break;
    case "profile":
      cleanup = profilePage(app);
      break;
    case "leaderboard":
      cleanup = leaderboardPage(app);
      break;
    case "replay":
      cleanup = replayPage(app, { id: Number(parts[2]) });
      break;
    default:
      go("#/lobby");
  }
}

function loggedIn(user) {
  store.user = user;
  conn.start();
  if (user.table) {
    store.tableId = user.table;
    go("#/table");
  } else {
    go("#/lobby");
  }
}

subscribe((what, msg) => {
  if (what === "welcome" || what === "deal_over") renderHeader();
  if (what === "joined") {
    if (route !== "/table") go("#/table");
    else tableView?.update(model());
    return;
  }
  if (what === "left" || what === "closed") {
    toast(t(what === "left" ? "left_table" : "table_closed"));
    if (route === "/table") go("#/lobby");
    else renderHeader();
    return;
  }
  if (what === "unauthorized") {
    store.user = null;
    go("#/login");
    return;
  }
  if (what === "error") {
    if (msg.code !== "stale" && msg.code !== "no_change") toast(t("server_error", { msg: msg.message }), "error", 5000);
    tableView?.clearPending();
    return;
  }
  if (what === "welcome" && route === "/table" && !store.tableId) {
    go("#/lobby");
    return;
  }
  if (tableView && ["snapshot", "table", "state", "deal_over", "welcome"].includes(what)) {
    tableView.update(model());
    if (what === "deal_over") {
      showSettlement(store.lastResult, store.table, store.table?.you ?? null, store.state?.observation);
    }
  }
});

conn.onStatus((s) => {
  renderNet(s);
  if (s === "open" && conn.everOpened && conn.retry === 0 && document.body.dataset.wasLost === "1") {
    document.body.dataset.wasLost = "0";
    toast(t("reconnected"));
  }
  if (s === "lost") document.body.dataset.wasLost = "1";
});

document.getElementById("langbtn").addEventListener("click", () => setLang(lang === "zh" ? "en" : "zh"));
onLang(() => render());
window.addEventListener("hashchange", render);

async function boot() {
  document.title = t("title");
  try {
    const me = await api("GET", "me");
    store.user = me;
    conn.start();
    if (me.table) store.tableId = me.table;
    if (me.table && (!location.hash || location.hash === "#/lobby" || location.hash === "#/login")) go("#/table");
    else render();
  } catch (ex) {
    if (ex.status !== 401) toast(ex.message, "error");
    store.user = null;
    if (location.hash !== "#/login") go("#/login");
    else render();
  }
}

boot();
