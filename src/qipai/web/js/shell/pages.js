// The pages other than the table: log in / sign up / guest, lobby, invite links, profile, leaderboard.
import { h, add, fill, clear, morph, api, toast, modal, fmtDelta, fmtTime } from "./util.js";
import { t, lang, displayName, errorText } from "./i18n.js";
import { conn } from "./conn.js";
import { store, setUser, spectate, subscribe, notify, refreshUser, seated } from "./store.js";
import { loadAllViews, gameInfo, gameName, presetName, presetDesc, roleName, titleName } from "./games.js";
import { matchName, entrantState } from "./matches.js";
import { playerLink } from "./player.js";

function cardFace(label, red) {
  return h("div.hero-face", { class: red ? "red" : undefined }, label);
}

// ---------------------------------------------------------------------------------------------- auth
export function authPage(root, { onLoggedIn }) {
  let mode = "login";
  const err = h("p.form-error", { role: "alert" });
  const name = h("input", { name: "name", autocomplete: "username", required: true, maxlength: 24, placeholder: t("name_hint") });
  const pw = h("input", { name: "password", type: "password", autocomplete: "current-password", required: true, minlength: 6 });
  const pw2 = h("input", { name: "password2", type: "password", autocomplete: "new-password", minlength: 6 });
  const pw2row = h("label.row", h("span", t("password2")), pw2);
  const submit = h("button.btn.primary.wide", { type: "submit", "data-action": "submit" }, t("login"));
  const tabLogin = h("button.tab", { type: "button", "data-tab": "login" }, t("login"));
  const tabSignup = h("button.tab", { type: "button", "data-tab": "signup" }, t("signup"));
  const setMode = (m) => {
    mode = m;
    tabLogin.classList.toggle("on", m === "login");
    tabSignup.classList.toggle("on", m === "signup");
    pw2row.hidden = m !== "signup";
    pw.autocomplete = m === "signup" ? "new-password" : "current-password";
    submit.textContent = t(m === "signup" ? "signup" : "login");
    err.textContent = "";
  };
  tabLogin.onclick = () => setMode("login");
  tabSignup.onclick = () => setMode("signup");
  const form = h("form.auth-form", { novalidate: true },
    h("label.row", h("span", t("name")), name),
    h("label.row", h("span", t("password")), pw),
    pw2row, err, submit);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    if (mode === "signup" && pw.value !== pw2.value) {
      err.textContent = t("passwords_differ");
      return;
    }
    submit.disabled = true;
    try {
      const r = await api("POST", mode === "signup" ? "register" : "login", { name: name.value.trim(), password: pw.value });
      onLoggedIn(r.user);
    } catch (ex) {
      err.textContent = errorText(ex.code, ex.params);
      err.dataset.code = ex.code;
    } finally {
      submit.disabled = false;
    }
  });
  const guestBtn = h("button.btn.ghost.wide", { type: "button", "data-action": "guest", onclick: async () => {
    guestBtn.disabled = true;
    try {
      const r = await api("POST", "guest");
      onLoggedIn(r.user);
    } catch (ex) {
      err.textContent = errorText(ex.code, ex.params);
    } finally {
      guestBtn.disabled = false;
    }
  } }, t("guest"));
  const hero = [["★", true], ["2", false], ["A", true], ["K", false]];
  fill(root, h("section.auth",
    h("div.auth-hero", h("div.hero-cards", hero.map(([l, red], i) => h("div.hero-card", { style: { transform: `rotate(${(i - 1.5) * 12}deg)` } }, cardFace(l, red)))),
      h("h1", t("welcome_title")), h("p", t("welcome_text")),
      h("p.hero-rules", h("a", { href: "#/rules", "data-action": "rules" }, t("rules_how")))),
    h("div.auth-card", h("div.tabs", tabLogin, tabSignup), form, h("div.or", t("or")), guestBtn)));
  setMode("login");
  name.focus();
}

// ---------------------------------------------------------------------------------------------- save a guest
/** 保存账号: the guest's form (the sign-up form's fields) that turns its account into a registered one
 * (``POST /api/account``).  The account stays the same — points, history, titles, the table it sits at — so the
 * page goes on: the user's new name and state reach every page listening for ``user`` (the header, the lobby's
 * card, the profile), and the table shows the new name from the server's next table message. */
export function openSaveAccount() {
  const err = h("p.form-error", { role: "alert" });
  const name = h("input", { name: "name", autocomplete: "username", required: true, maxlength: 24, placeholder: t("name_hint") });
  const pw = h("input", { name: "password", type: "password", autocomplete: "new-password", required: true, minlength: 6,
    placeholder: t("password_hint") });
  const pw2 = h("input", { name: "password2", type: "password", autocomplete: "new-password", required: true, minlength: 6 });
  const submit = h("button.btn.primary.wide", { type: "submit", "data-action": "save-account-submit" }, t("save_account"));
  const form = h("form.auth-form.save-account-form", { novalidate: true },
    h("p.save-account-text", t("save_account_text")),
    h("label.row", h("span", t("name")), name),
    h("label.row", h("span", t("password")), pw),
    h("label.row", h("span", t("password2")), pw2),
    err, submit);
  const dlg = modal({ id: "save-account", title: t("save_account_title"), body: form,
    buttons: [{ text: t("cancel"), action: "cancel" }] });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    delete err.dataset.code;
    if (pw.value !== pw2.value) {
      err.textContent = t("passwords_differ");
      err.dataset.code = "passwords_differ";
      return;
    }
    submit.disabled = true;
    try {
      const r = await api("POST", "account", { name: name.value.trim(), password: pw.value });
      setUser({ ...store.user, ...r.user }, store.table?.game);
      dlg.close();
      notify("user", store.user);
      toast(() => t("save_account_done", { name: r.user.name }), "info", 5000, "account-saved");
    } catch (ex) {
      err.textContent = errorText(ex.code, ex.params);
      err.dataset.code = ex.code;
      if (ex.code === "not_a_guest") refreshUser(); // saved in another window meanwhile
    } finally {
      submit.disabled = false;
    }
  });
  name.focus();
  return dlg;
}

function saveAccountButton(extra = "") {
  return h("button.btn.small.primary" + extra, { type: "button", "data-action": "save-account", onclick: () => openSaveAccount() },
    t("save_account"));
}

// ---------------------------------------------------------------------------------------------- lobby
function groupRooms(rooms) {
  const games = new Map();
  for (const r of rooms) {
    const g = r.game;
    if (!games.has(g)) games.set(g, new Map());
    const p = r.options?.preset || r.id;
    const byPreset = games.get(g);
    if (!byPreset.has(p)) byPreset.set(p, []);
    byPreset.get(p).push(r);
  }
  return games;
}

export function lobbyPage(root, { go }) {
  const roomsBox = h("div.rooms-by-game");
  const tablesBox = h("div.public-tables");
  const notes = h("div.lobby-notes");
  const roomSel = h("select", { name: "room", "aria-label": t("room") });
  const botsSel = h("select", { name: "bots", "aria-label": t("bots_after") },
    h("option", { value: "" }, t("bots_never")),
    h("option", { value: "0" }, t("bots_secs", { n: 0 })),
    h("option", { value: "10" }, t("bots_secs", { n: 10 })),
    h("option", { value: "30" }, t("bots_secs", { n: 30 })));
  // 局数: a table played for a set number of deals closes with a final summary (大结算); open-ended by default
  const dealsSel = h("select", { name: "deals", "aria-label": t("deals_count") },
    h("option", { value: "" }, t("deals_open")),
    [4, 8, 16].map((n) => h("option", { value: String(n) }, t("deals_n", { n }))));
  // the strength of the bots that fill the seats, for a game that offers levels (/api/games: Dou Dizhu's
  // easy, normal, hard, expert; mahjong's and Shengji's easy, normal, hard); hidden for the others
  const levelSel = h("select", { name: "bot-level", "aria-label": t("bot_strength") });
  const levelRow = h("label.row", { hidden: true }, h("span", t("bot_strength")), levelSel);
  // the server plays a table for points only with the room's bots or stronger: weaker ones make it a table for
  // no points (said under the choice)
  const noPoints = h("div.msg.small.no-points", { hidden: true }, t("bot_strength_no_points"));
  function weaker() {
    const info = gameInfo(rooms.find((r) => r.id === roomSel.value)?.game);
    const levels = info?.levels || [];
    const base = levels.indexOf(info?.seat_bot);
    return base > 0 && levelSel.value !== "" && levels.indexOf(levelSel.value) < base;
  }
  levelSel.addEventListener("change", () => { noPoints.hidden = !weaker(); });
  function drawLevels() {
    const game = rooms.find((r) => r.id === roomSel.value)?.game;
    const levels = (game && gameInfo(game)?.levels) || [];
    const prev = levelSel.value;
    morph(levelSel, h("div", h("option", { value: "" }, t("bot_strength_default")),
      levels.map((l) => h("option", { value: l }, t("bot_kind_" + l)))));
    levelSel.value = levels.includes(prev) ? prev : "";
    levelRow.hidden = levels.length === 0;
    noPoints.hidden = levelRow.hidden || !weaker();
  }
  roomSel.addEventListener("change", drawLevels);
  const code = h("input", { name: "invite", placeholder: t("invite_code"), maxlength: 8, autocomplete: "off",
    autocapitalize: "characters", spellcheck: "false" });
  const joinForm = h("form.inline", code, h("button.btn.primary", { type: "submit", "data-action": "join" }, t("join")));
  joinForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const c = code.value.trim().toUpperCase();
    if (c) go("#/invite/" + c);
  });
  const createForm = h("form.stack",
    h("label.row", h("span", t("room")), roomSel),
    h("label.row", h("span", t("bots_after")), botsSel),
    h("label.row", h("span", t("deals_count")), dealsSel),
    levelRow, noPoints,
    // (pressed before the rooms came, it sent no room: refused as unknown_room; it waits for them)
    h("button.btn.primary", { type: "submit", "data-action": "create", disabled: true }, t("create")));
  createForm.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!roomSel.value) return;
    const msg = { type: "create_table", room: roomSel.value };
    if (botsSel.value !== "") msg.fill_bots_after = Number(botsSel.value);
    if (dealsSel.value !== "") msg.deals = Number(dealsSel.value);
    if (!levelRow.hidden && levelSel.value) msg.seat_bot = levelSel.value;
    if (!levelRow.hidden && weaker()) msg.for_points = false;
    conn.send(msg);
  });
  const banner = store.user?.table || store.tableId
    ? h("a.banner", { href: "#/table", "data-action": "back-to-table" }, t("back_to_table"))
    : null;
  const meCard = h("div.me-card");
  const privatePanel = h("section.panel.private-panel", h("h2", t("private_tables")),
    h("h3", t("join_by_code")), joinForm,
    h("h3", t("create_table")), createForm);
  const publicPanel = h("section.panel.public-panel", h("h2", t("public_tables")), tablesBox);
  // a narrow window puts the side panels under every game's rooms (a phone scrolls thousands of pixels to them):
  // a button at the top goes straight to each (style.css hides them where the panels sit beside the rooms)
  const jump = (panel, action, words) => h("button.btn.small", { type: "button", "data-action": action,
    onclick: () => panel.scrollIntoView({ block: "start" }) }, words, " ↓");
  fill(root, h("section.lobby",
    banner, notes,
    h("div.lobby-head", h("h1", t("nav_lobby")), meCard),
    h("nav.lobby-jumps", jump(privatePanel, "jump-private", t("private_tables")), jump(publicPanel, "jump-public", t("public_tables"))),
    h("div.lobby-grid",
      h("section.panel.rooms-panel", h("h2", t("rooms")), roomsBox),
      h("aside.side", privatePanel, publicPanel))));

  let rooms = [];
  function drawMe() {
    const user = store.user;
    clear(meCard);
    if (!user) return;
    add(meCard, h("span.name", displayName(user.name)), user.is_guest ? h("span.badge", t("guest_tag")) : null,
      h("span.title-tag", titleName(user.pointsGame, user.title)), h("span.pts", `${t("you_have")} `, h("b", String(user.points ?? ""))),
      user.is_guest ? saveAccountButton() : null);
  }
  function drawNotes() {
    clear(notes);
    const esc = store.lastEscape;
    if (esc) {
      add(notes, h("div.note-box.escape", { "data-escape-cost": -esc.delta },
        h("span", t("escaped_cost", { n: Math.abs(esc.delta) })),
        h("button.x", { type: "button", "aria-label": t("close"), onclick: () => { store.lastEscape = null; drawNotes(); } }, "×")));
    }
    const user = store.user;
    if (!user || !rooms.length) return;
    for (const [game] of groupRooms(rooms)) {
      const mins = rooms.filter((r) => r.game === game).map((r) => r.min_points);
      const pts = user.games?.[game]?.points;
      // the server says whether it is due (/api/me relief_due: below the lowest room's minimum, and not claimed
      // within relief_hours — a reload offered it again, and the press was refused); else its rule on points
      const due = user.games?.[game]?.relief_due;
      if (pts === undefined || due === false || pts >= Math.max(Math.min(...mins), 1) || store.reliefClaimed?.[game]) continue;
      const btn = h("button.btn.primary", { type: "button", "data-action": "relief", "data-game": game, onclick: async () => {
        btn.disabled = true;
        try {
          const r = await api("POST", "relief", { game });
          toast(() => t("relief_got", { n: r.granted }));
          store.reliefClaimed = { ...(store.reliefClaimed || {}), [game]: true };
          const me = await api("GET", "me");
          setUser(me, game);
          drawMe();
          drawNotes();
          load();
        } catch (ex) {
          toast(() => errorText(ex.code, ex.params), "error", 5000);
          btn.disabled = false;
        }
      } }, t("relief"));
      add(notes, h("div.note-box.relief", { "data-game": game }, h("span", `${gameName(game)} · ${t("relief_due")}`), btn));
    }
  }
  async function load() {
    try {
      // (friends: the tables they sit at come first, marked)
      const [, r1, r2, fr] = await Promise.all([loadAllViews(), api("GET", "rooms"), api("GET", "tables"),
        store.user?.is_guest ? null : api("GET", "friends?recent=0").catch(() => null)]);
      rooms = r1.rooms;
      drawRooms(rooms);
      drawTables(r2.tables, fr?.friends || []);
      drawMe();
      drawNotes();
    } catch (ex) {
      toast(() => errorText(ex.code, ex.params), "error", 5000, "lobby");
    }
  }
  // the rooms and tables are drawn again every 8 s, morphed in (util.js): a button pressed as they are drawn
  // again is still clicked, and the room chosen in an open list stays
  function drawRooms(list) {
    const prevRoom = roomSel.value;
    const box = h("div");
    const options = h("div");  // (not a select: one would pass its selection on to every option moved out of it)
    const user = store.user;
    for (const [game, byPreset] of groupRooms(list)) {
      const info = gameInfo(game);
      const section = h("section.game-rooms", { dataset: { game } }, h("h3.game-title", gameName(game)));
      if (info && !info.web) add(section, h("p.muted", t("no_view")));
      const grid = h("div.rooms");
      const pts = user?.games?.[game]?.points ?? user?.points ?? 0;
      for (const [p, rs] of byPreset) {
        const seats = rs[0].seats || null;
        const card = h("div.preset-card", { dataset: { preset: p, game } },
          h("div.pc-head", h("h3", presetName(game, p)), seats ? h("span.players", t("seats_n", { n: seats })) : null,
            h("a.rules-link", { href: `#/rules/${encodeURIComponent(game)}/${encodeURIComponent(p)}`,
              "aria-label": `${t("rules_title")} · ${presetName(game, p)}` }, t("rules_link"))),
          h("p.desc", presetDesc(game, p)));
        const stakes = h("div.stakes");
        for (const r of rs) {
          const tooPoor = pts < r.min_points;
          add(stakes, h("div.stake-row", { class: tooPoor ? "locked" : undefined },
            h("span.st", `${t("stake")} `, h("b", String(r.stake))),
            h("span.mp", `${t("min_points")} ${r.min_points}`),
            h("span.cnt", r.players ? t("players_n", { n: r.players }) : ""),
            // (named by its room for a screen reader: 28 buttons read 快速开始 alike)
            h("button.btn.small.primary", { type: "button", "data-action": "quick-match", "data-room": r.id,
              "aria-label": `${t("quick_match")} · ${presetName(game, p)} · ${t("stake")} ${r.stake}`
                + (tooPoor ? ` · ${t("min_points")} ${r.min_points}` : ""),
              disabled: tooPoor || (info && !info.web), onclick: () => conn.send({ type: "quick_match", room: r.id }) }, t("quick_match"))));
          if (!info || info.web) add(options, h("option", { value: r.id }, `${presetName(game, p)} · ${t("stake")} ${r.stake}`));
        }
        add(card, stakes);
        add(grid, card);
      }
      add(section, grid);
      add(box, section);
    }
    morph(roomsBox, box);
    morph(roomSel, options);
    if (prevRoom) roomSel.value = prevRoom;
    createForm.querySelector('[data-action="create"]').disabled = !roomSel.value;
    drawLevels();
  }
  function drawTables(tables, friends = []) {
    const box = h("div");
    fillTables(box, tables, friends);
    morph(tablesBox, box);
  }
  function fillTables(box, tables, friends) {
    if (!tables.length) {
      add(box, h("p.muted", t("no_tables")));
      return;
    }
    const friendsAt = new Map(); // table id → the names of the friends seated there
    for (const f of friends) if (f.table) friendsAt.set(f.table, [...(friendsAt.get(f.table) || []), displayName(f.name)]);
    const ordered = [...tables].sort((a, b) => (friendsAt.has(b.id) ? 1 : 0) - (friendsAt.has(a.id) ? 1 : 0));
    for (const tb of ordered) {
      const room = rooms.find((r) => r.id === tb.room);
      const game = tb.game || room?.game;
      const mates = friendsAt.get(tb.id);
      add(box, h("div.ptable", { dataset: mates ? { table: tb.id, friends: "1" } : { table: tb.id } },
        h("span.pn", mates ? h("span.badge.friend-here", t("friend_here", { names: mates.join("、") })) : null,
          mates ? " " : null, presetName(game, room?.options?.preset)),
        h("span.who", tb.players.map((p) => (p ? displayName(p) : "—")).join(" · ")),
        h("span.st", t(tb.status === "playing" ? "status_playing" : "status_waiting"),
          tb.spectators ? " · " + t("spectators_n", { n: tb.spectators }) : ""),
        h("button.btn.small", { type: "button", "data-action": "watch", disabled: seated(), onclick: () => {
          spectate(tb.id);
          go("#/table");
        } }, t("watch"))));
    }
  }
  drawMe();
  load();
  const timer = setInterval(load, 8000);
  const off = subscribe((what) => { if (what === "user") drawMe(); }); // a guest saved its account
  return () => {
    clearInterval(timer);
    off();
  };
}

// ---------------------------------------------------------------------------------------------- invite
/** #/invite/CODE: sit at the table when a seat is free between deals, else watch it. */
export function invitePage(root, { code, go }) {
  const msg = h("p.muted", t("invite_opening"));
  fill(root, h("section.invite.panel", msg));
  let cancelled = false;
  (async () => {
    try {
      const info = await api("GET", `invites/${encodeURIComponent(code)}`);
      if (cancelled) return;
      if (store.tableId === info.table && !store.spectating) {
        go("#/table");
        return;
      }
      if (info.can_sit) {
        const ref = conn.send({ type: "join", invite: code });
        // "joined" takes the player to the table; a refusal (already seated elsewhere…) is said here
        const off = subscribe((what, m) => {
          if (what === "error" && m.ref === ref) {
            off();
            if (cancelled) return;
            msg.className = "form-error";
            msg.textContent = errorText(m.code, m.params);
            msg.dataset.code = m.code;
          } else if (what === "joined") off();
        });
        return;
      }
      if (seated()) {
        // seated at another table: watching this one would put his own out of reach (its deal going on without him)
        msg.className = "form-error";
        msg.textContent = errorText("already_seated", {});
        msg.dataset.code = "already_seated";
        add(root.firstChild, h("a.btn.small", { href: "#/table", "data-action": "back-to-table" }, t("back_to_table")));
        return;
      }
      spectate(info.table, code);
      toast(() => t("invite_watching"), "info", 4000, "invite");
      go("#/table");
    } catch (ex) {
      if (cancelled) return;
      msg.className = "form-error";
      msg.textContent = errorText(ex.code, ex.params);
      msg.dataset.code = ex.code;
      add(root.firstChild, h("a.btn.small", { href: "#/lobby" }, t("nav_lobby")));
    }
  })();
  return () => { cancelled = true; };
}

// ---------------------------------------------------------------------------------------------- profile
function pct(won, played) {
  return played ? `${Math.round((100 * won) / played)}%` : "—";
}

/** The next title above ``points`` in a game's titles table ([[points, title], …]), or null at the top.  A row
 * of the title the player holds is not next (below a table's first row, a player holds its title already). */
export function nextTitle(table, points, current) {
  const rows = [...(table || [])].sort((a, b) => a[0] - b[0]);
  let prev = null;
  for (const [need, title] of rows) {
    if (points < need && title !== current) return { need, title, from: prev ? prev[0] : 0, left: need - points };
    prev = [need, title];
  }
  return null;
}

/** A match's fee in the profile's list: shown as refunded when it came back — withdrawn before the start (the
 * entry ``removed``) or the match cancelled; a quit once it ran (``withdrawn``, ``quitting``) keeps no refund. */
function feeCell(m) {
  const fee = m.fee ?? 0;
  const refunded = fee > 0 && (m.status === "removed" || m.status === "cancelled" || m.match_status === "cancelled");
  return h("td.fee", { dataset: { refunded: refunded ? "1" : "0" } }, refunded ? t("match_fee_refunded", { fee }) : String(fee));
}

/** One's own result in a match of the profile's list: once the match is over, one's final place (and the prize
 * won), not that the match is over; a cancelled match says so; before the end, one's state in it. */
function matchResult(m) {
  if (m.match_status === "cancelled") return t("match_phase_cancelled");
  if (m.match_status === "finished" && m.place) {
    const place = t("match_result_place", { n: m.place });
    return m.prize > 0 ? `${place} · ${t("match_result_prize", { n: m.prize })}` : place;
  }
  if (m.match_status === "finished" && (m.status === "removed" || m.status === "declined" || m.status === "invited")) {
    return entrantState(m.status, m.match_status);
  }
  if (m.match_status === "finished") return t("match_phase_finished");
  return entrantState(m.status, m.match_status);
}

/** Deals a page of the profile's history holds (更多 fetches the next). */
const HISTORY_PAGE = 50;

export function profilePage(root) {
  const box = h("section.profile", h("p.muted", "…"));
  fill(root, box);
  let cancelled = false;
  let offUser = null; // the card redraws when the account changes (a guest saved it)
  const load = async () => {
    try {
      const [rawMe, hist, games, mine] = await Promise.all([api("GET", "me"), api("GET", `history?limit=${HISTORY_PAGE}`), loadAllViews(),
        api("GET", "matches/mine").catch(() => ({ matches: [] }))]);
      if (cancelled) return;
      setUser({ ...store.user, ...rawMe }, store.table?.game);
      const me = rawMe;
      const cards = [];
      for (const info of games) {
        const g = me.games?.[info.name];
        if (!g) continue;
        const roles = Object.entries(g.roles || {});
        const nt = nextTitle(info.titles_table, g.points, g.title);
        const progress = nt
          ? h("div.title-progress", { dataset: { next: nt.title, left: nt.left } },
            h("div.bar", h("div.fill", { style: { width: `${Math.max(0, Math.min(100, (100 * (g.points - nt.from)) / Math.max(1, nt.need - nt.from)))}%` } })),
            h("span", t("next_title", { title: titleName(info.name, nt.title), n: nt.left })))
          : h("div.title-progress.top", h("span", t("top_title")));
        cards.push(h("div.panel.game-card", { dataset: { game: info.name } },
          h("h2", gameName(info.name)),
          h("div.stats",
            stat(t("points"), g.points, "points"),
            stat(t("title"), titleName(info.name, g.title), "title"),
            stat(t("games_played"), g.games_played, "games"),
            stat(t("wins"), g.wins ?? 0, "wins"),
            stat(t("win_rate"), pct(g.wins ?? 0, g.games_played), "rate")),
          progress,
          roles.length ? h("table.grid.roles", h("thead", h("tr", h("th", t("role")), h("th", t("games_played")), h("th", t("wins")), h("th", t("win_rate")))),
            h("tbody", roles.map(([role, r]) => h("tr", { dataset: { role } }, h("td", roleName(info.name, role) || role),
              h("td", String(r.played ?? 0)), h("td", String(r.won ?? 0)), h("td.rate", pct(r.won ?? 0, r.played ?? 0)))))) : null));
      }
      const historyRow = (d) => h("tr", { dataset: { deal: d.deal_id, escaped: d.escaped ? "1" : "0" } },
        h("td", fmtTime(d.finished_at)),
        h("td", presetName(d.game, d.options?.preset)),
        h("td", roleName(d.game, d.role)),
        h("td", d.escaped ? h("span.badge.off.esc", t("escape_mark")) : d.won === true ? t("won") : d.won === false ? t("lost") : ""),
        h("td.delta", { class: d.delta > 0 ? "pos" : d.delta < 0 ? "neg" : undefined }, fmtDelta(d.delta)),
        h("td", d.points_after ?? ""),
        // (the others lead to their profiles, as a name does wherever it is shown)
        h("td.who", (d.players || []).flatMap((n, i) => [i ? " · " : null, n === me.name ? displayName(n) : playerLink(n)])),
        h("td", h("a.btn.small.ghost", { href: `#/replay/${d.deal_id}`, "data-action": "replay" }, t("replay"))));
      const rows = hist.deals.map(historyRow);
      // 更多: the next 50 older deals (the page showed the latest 50 and no way to the others)
      const tbody = h("tbody", rows);
      let last = hist.deals.at(-1)?.id;
      const more = h("button.btn.small.ghost.history-more", { type: "button", "data-action": "history-more",
        hidden: hist.deals.length < HISTORY_PAGE, onclick: async () => {
          more.disabled = true;
          try {
            const page = await api("GET", `history?limit=${HISTORY_PAGE}&before=${last}`);
            if (cancelled) return;
            add(tbody, page.deals.map(historyRow));
            last = page.deals.at(-1)?.id ?? last;
            more.hidden = page.deals.length < HISTORY_PAGE;
          } catch (ex) {
            toast(() => errorText(ex.code, ex.params), "error", 5000);
          } finally {
            more.disabled = false;
          }
        } }, t("history_more"));
      const card = h("div.panel.profile-card");
      const drawCard = (u) => fill(card,
        h("div.avatar.big", displayName(u.name).slice(0, 1).toUpperCase()),
        h("div.grow", h("h1", displayName(u.name), u.is_guest ? h("span.badge", t("guest_tag")) : null),
          u.is_guest ? h("p.muted.save-account-hint", t("save_account_hint")) : null),
        u.is_guest ? saveAccountButton() : null,
        // (on a phone the header has no room for 好友: the profile leads there)
        h("a.btn.small", { href: "#/friends", "data-action": "open-friends" }, t("nav_friends")),
        h("button.btn.small.ghost", { type: "button", "data-action": "logout-profile",
          onclick: () => document.querySelector('#userbox [data-action="logout"]')?.click() }, t("logout")));
      drawCard(me);
      offUser?.();
      offUser = subscribe((what, u) => {
        if (what !== "user" || !u || u.id !== me.id) return;
        drawCard(u);
        // a new name: the history's player lists name the account so too (the server renamed its deals)
        if (u.name !== me.name && !cancelled) load();
      });
      fill(box,
        card,
        h("div.game-cards", cards),
        mine.matches.length ? h("div.panel.my-matches", h("h2", t("my_matches")),
          h("div.scroll", h("table.grid", h("thead", h("tr", h("th", t("match_name")), h("th", t("match_result")),
            h("th", t("rank")), h("th", t("match_fee")), h("th", t("match_prize")))),
          h("tbody", mine.matches.map((m) => h("tr", { dataset: { match: m.match, status: m.status } },
            h("td", h("a", { href: `#/matches/${encodeURIComponent(m.match)}` }, matchName(m.name, m.game))),
            h("td.state", { dataset: { place: m.place ?? "" } }, matchResult(m)),
            h("td.place", m.place ? String(m.place) : "—"), feeCell(m),
            h("td.prize", String(m.prize ?? 0)))))))) : null,
        h("div.panel", h("h2", t("history_title")),
          rows.length
            ? h("div.scroll", h("table.grid.history-table", h("thead", h("tr", h("th", t("when")), h("th", t("game_col")),
              h("th", t("role")), h("th", t("won_col")), h("th", t("delta")), h("th", t("points")), h("th", t("player")), h("th", ""))),
            tbody)) : h("p.muted", t("no_deals")),
          more));
    } catch (ex) {
      fill(box, h("p.form-error", errorText(ex.code, ex.params)));
    }
  };
  load();
  return () => {
    cancelled = true;
    offUser?.();
  };
}

function stat(label, value, key) {
  return h("div.stat", { dataset: { stat: key } }, h("span.v", String(value ?? "")), h("span.l", label));
}

// ---------------------------------------------------------------------------------------------- leaderboard
/** The boards of a game: 总榜 (points now), 周榜 and 月榜 (points won this ISO week / calendar month, as the server
 * counts them in its operator's time zone). */
export const LB_PERIODS = ["all", "week", "month"];

/** ``#/leaderboard/GAME[/PERIOD]`` (the all-time board has no period in its address). */
export function leaderboardHref(game, period = "all") {
  return `#/leaderboard/${game}` + (period && period !== "all" ? `/${period}` : "");
}

/** The time zones whose time is Beijing time (北京时间). */
const BEIJING = ["Asia/Shanghai", "PRC", "Asia/Chongqing", "Asia/Harbin"];

/** When a period board began (``since``, an ISO instant) as a date in the server's time zone ``tz``. */
function lbSince(since, tz, weekday) {
  try {
    return new Date(since).toLocaleDateString(lang === "zh" ? "zh-CN" : "en-GB",
      { timeZone: tz, month: "long", day: "numeric", weekday: weekday ? "short" : undefined });
  } catch {
    return fmtTime(since);
  }
}

export function leaderboardPage(root, { game, period } = {}) {
  const box = h("section.leaderboard", h("p.muted", "…"));
  fill(root, box);
  let cancelled = false;
  period = LB_PERIODS.includes(period) ? period : "all";
  (async () => {
    try {
      const games = await loadAllViews();
      const name = game || games.find((g) => g.web)?.name || games[0]?.name;
      const data = await api("GET", `leaderboard?limit=100&game=${encodeURIComponent(name)}&period=${period}`);
      const { users, me } = data;
      if (cancelled) return;
      const all = period === "all";
      const pts = (n) => (all ? String(n) : fmtDelta(n) || "0");
      // 我的排名: the viewer's own place, above the table (he may be far below its hundred rows)
      const mine = me ? h("p.lb-me", { "data-rank": me.rank }, t(`lb_my_rank_${period}`, { n: me.rank, points: pts(me.points) }))
        : store.user ? h("p.lb-me.muted", t(store.user.is_guest ? "lb_guest" : `lb_not_ranked_${period}`)) : null;
      const tabs = games.length > 1 ? h("div.tabs.game-tabs", games.map((g) => h("a.tab", { href: leaderboardHref(g.name, period),
        class: g.name === name ? "on" : undefined, "data-game": g.name }, gameName(g.name)))) : null;
      const periods = h("div.tabs.period-tabs", { role: "tablist" }, LB_PERIODS.map((p) => h("a.tab", {
        href: leaderboardHref(name, p), class: p === period ? "on" : undefined, "data-period": p,
        "aria-selected": p === period ? "true" : "false" }, t(`lb_period_${p}`))));
      const zone = BEIJING.includes(data.tz) ? t("lb_tz_beijing") : ["UTC", "Etc/UTC"].includes(data.tz) ? t("lb_tz_utc")
        : t("lb_tz", { tz: data.tz });
      const since = all ? null : h("p.muted.lb-since", t(`lb_since_${period}`, { date: lbSince(data.since, data.tz, period === "week"), tz: zone }));
      fill(box, h("div.panel", h("h1", t("leaderboard")), tabs, periods, since, mine,
        h("table.grid.lb", { dataset: { game: name, period } }, h("thead", h("tr", h("th", t("rank")), h("th", t("player")),
          h("th.lb-title", t("title")), h("th", t(all ? "points" : `lb_points_${period}`)), h("th", t("games_played")),
          all ? null : h("th", t("lb_wins")))),
        h("tbody", users.map((u) => h("tr", { class: store.user && u.id === store.user.id ? "me" : undefined },
          h("td", String(u.rank)), h("td.name", playerLink(u.name)), h("td.lb-title", titleName(name, u.title)),
          h("td.lb-points", { class: all ? undefined : u.points > 0 ? "pos" : u.points < 0 ? "neg" : undefined }, pts(u.points)),
          h("td", String(u.games_played)), all ? null : h("td", String(u.wins)))))),
        users.length ? null : h("p.muted.lb-empty", t(`lb_empty_${period}`))));
    } catch (ex) {
      fill(box, h("p.form-error", errorText(ex.code, ex.params)));
    }
  })();
  return () => { cancelled = true; };
}
