// The pages other than the table: log in / sign up / guest, lobby, profile, leaderboard, replay viewer.
import { h, add, fill, clear, api, toast, fmtDelta, fmtTime } from "./util.js";
import { t, presetName } from "./i18n.js";
import { conn } from "./conn.js";
import { store } from "./store.js";
import { TableView } from "./table.js";
import { cardEl } from "./cards.js";

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
      err.textContent = ex.message;
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
      err.textContent = ex.message;
    } finally {
      guestBtn.disabled = false;
    }
  } }, t("guest"));
  fill(root, h("section.auth",
    h("div.auth-hero", h("div.hero-cards", ["R", "2S", "AH", "KD"].map((c, i) => heroCard(c, i))),
      h("h1", t("welcome_title")), h("p", t("welcome_text"))),
    h("div.auth-card", h("div.tabs", tabLogin, tabSignup), form, h("div.or", t("or")), guestBtn)));
  setMode("login");
  name.focus();
}

function heroCard(c, i) {
  return h("div.hero-card", { style: { transform: `rotate(${(i - 1.5) * 12}deg)` } }, cardEl(c));
}

// ---------------------------------------------------------------------------------------------- lobby
export function lobbyPage(root, { go }) {
  const user = store.user;
  const roomsBox = h("div.rooms");
  const tablesBox = h("div.public-tables");
  const roomSel = h("select", { name: "room", "aria-label": t("room") });
  const botsSel = h("select", { name: "bots", "aria-label": t("bots_after") },
    h("option", { value: "" }, t("bots_never")),
    h("option", { value: "0" }, t("bots_secs", { n: 0 })),
    h("option", { value: "10" }, t("bots_secs", { n: 10 })),
    h("option", { value: "30" }, t("bots_secs", { n: 30 })));
  const code = h("input", { name: "invite", placeholder: t("invite_code"), maxlength: 8, autocomplete: "off",
    autocapitalize: "characters", spellcheck: "false" });
  const joinForm = h("form.inline", h("input", { type: "hidden" }), code,
    h("button.btn.primary", { type: "submit", "data-action": "join" }, t("join")));
  joinForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const c = code.value.trim().toUpperCase();
    if (c) conn.send({ type: "join", invite: c });
  });
  const createForm = h("form.stack",
    h("label.row", h("span", t("room")), roomSel),
    h("label.row", h("span", t("bots_after")), botsSel),
    h("button.btn.primary", { type: "submit", "data-action": "create" }, t("create")));
  createForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const msg = { type: "create_table", room: roomSel.value };
    if (botsSel.value !== "") msg.fill_bots_after = Number(botsSel.value);
    conn.send(msg);
  });
  const banner = user?.table || store.tableId
    ? h("a.banner", { href: "#/table", "data-action": "back-to-table" }, t("back_to_table"))
    : null;
  fill(root, h("section.lobby",
    banner,
    h("div.lobby-head", h("h1", t("nav_lobby")),
      user ? h("div.me-card", h("span.name", user.name), user.is_guest ? h("span.badge", t("guest_tag")) : null,
        h("span.title-tag", user.title), h("span.pts", `${t("you_have")} `, h("b", String(user.points)))) : null),
    h("div.lobby-grid",
      h("section.panel.rooms-panel", h("h2", t("rooms")), roomsBox),
      h("aside.side",
        h("section.panel", h("h2", t("private_tables")),
          h("h3", t("join_by_code")), joinForm,
          h("h3", t("create_table")), createForm),
        h("section.panel", h("h2", t("public_tables")), tablesBox)))));

  async function load() {
    try {
      const [{ rooms }, { tables }] = await Promise.all([api("GET", "rooms"), api("GET", "tables")]);
      drawRooms(rooms);
      drawTables(tables);
    } catch (ex) {
      toast(ex.message, "error");
    }
  }
  function drawRooms(rooms) {
    const byPreset = new Map();
    for (const r of rooms) {
      const p = r.options?.preset || r.id;
      if (!byPreset.has(p)) byPreset.set(p, []);
      byPreset.get(p).push(r);
    }
    const prevRoom = roomSel.value;
    clear(roomsBox);
    clear(roomSel);
    for (const [p, list] of byPreset) {
      const card = h("div.preset-card", { dataset: { preset: p } },
        h("div.pc-head", h("h3", presetName(p)), h("span.players", list[0].options?.preset?.startsWith("four") ? "4P" : "3P")),
        h("p.desc", t("pdesc_" + p)));
      const stakes = h("div.stakes");
      for (const r of list) {
        const tooPoor = user && user.points < r.min_points;
        add(stakes, h("div.stake-row", { class: tooPoor ? "locked" : undefined },
          h("span.st", `${t("stake")} `, h("b", String(r.stake))),
          h("span.mp", `${t("min_points")} ${r.min_points}`),
          h("span.cnt", r.players ? t("players_n", { n: r.players }) : ""),
          h("button.btn.small.primary", { type: "button", "data-action": "quick-match", "data-room": r.id,
            disabled: tooPoor, onclick: () => conn.send({ type: "quick_match", room: r.id }) }, t("quick_match"))));
        add(roomSel, h("option", { value: r.id }, `${presetName(p)} · ${t("stake")} ${r.stake}`));
      }
      add(card, stakes);
      add(roomsBox, card);
    }
    if (prevRoom) roomSel.value = prevRoom;
  }
  function drawTables(tables) {
    clear(tablesBox);
    if (!tables.length) {
      add(tablesBox, h("p.muted", t("no_tables")));
      return;
    }
    for (const tb of tables) {
      const preset = tb.room ? tb.room.replace(/-\d+$/, "") : "";
      add(tablesBox, h("div.ptable", { dataset: { table: tb.id } },
        h("span.pn", presetName(preset)),
        h("span.who", tb.players.map((p) => p || "—").join(" · ")),
        h("span.st", t(tb.status === "playing" ? "status_playing" : "status_waiting")),
        h("button.btn.small", { type: "button", "data-action": "watch", disabled: !!(store.tableId && !store.spectating), onclick: () => {
          store.tableId = tb.id;
          store.spectating = true;
          store.table = null;
          store.state = null;
          conn.send({ type: "spectate", table: tb.id });
          go("#/table");
        } }, t("watch"))));
    }
  }
  load();
  const timer = setInterval(load, 8000);
  return () => clearInterval(timer);
}

// ---------------------------------------------------------------------------------------------- profile
export function profilePage(root) {
  const box = h("section.profile", h("p.muted", "…"));
  fill(root, box);
  let cancelled = false;
  (async () => {
    try {
      const [me, hist] = await Promise.all([api("GET", "me"), api("GET", "history?limit=100")]);
      if (cancelled) return;
      store.user = { ...store.user, ...me };
      const rows = hist.deals.map((d) => h("tr", { dataset: { deal: d.deal_id } },
        h("td", fmtTime(d.finished_at)),
        h("td", presetName(d.options?.preset)),
        h("td", d.role ? t(d.role) : ""),
        h("td", d.won === true ? t("won") : d.won === false ? t("lost") : ""),
        h("td.delta", { class: d.delta > 0 ? "pos" : d.delta < 0 ? "neg" : undefined }, fmtDelta(d.delta)),
        h("td", d.points_after ?? ""),
        h("td.who", (d.players || []).join(" · ")),
        h("td", h("a.btn.small.ghost", { href: `#/replay/${d.deal_id}`, "data-action": "replay" }, t("replay")))));
      fill(box, 
        h("div.panel.profile-card",
          h("div.avatar.big", me.name.slice(0, 1).toUpperCase()),
          h("div.grow",
            h("h1", me.name, me.is_guest ? h("span.badge", t("guest_tag")) : null),
            h("div.stats",
              stat(t("points"), me.points, "points"),
              stat(t("title"), me.title, "title"),
              stat(t("games_played"), me.games_played, "games"),
              stat(t("landlord_wins_n"), me.landlord_wins, "lw"),
              stat(t("farmer_wins_n"), me.farmer_wins, "fw"))),
          h("button.btn.small.ghost", { type: "button", "data-action": "logout-profile",
            onclick: () => document.querySelector('#userbox [data-action="logout"]')?.click() }, t("logout"))),
        h("div.panel", h("h2", t("history_title")),
          rows.length
            ? h("div.scroll", h("table.grid.history-table", h("thead", h("tr", h("th", t("when")), h("th", t("game_col")),
              h("th", t("role")), h("th", ""), h("th", t("delta")), h("th", t("points")), h("th", t("player")), h("th", ""))),
            h("tbody", rows)))
            : h("p.muted", t("no_deals"))));
    } catch (ex) {
      fill(box, h("p.form-error", ex.message));
    }
  })();
  return () => { cancelled = true; };
}

function stat(label, value, key) {
  return h("div.stat", { dataset: { stat: key } }, h("span.v", String(value)), h("span.l", label));
}

// ---------------------------------------------------------------------------------------------- leaderboard
export function leaderboardPage(root) {
  const box = h("section.leaderboard", h("p.muted", "…"));
  fill(root, box);
  api("GET", "leaderboard?limit=100").then(({ users }) => {
    fill(box, h("div.panel", h("h1", t("leaderboard")),
      h("table.grid.lb", h("thead", h("tr", h("th", t("rank")), h("th", t("player")), h("th", t("title")),
        h("th", t("points")), h("th", t("games_played")))),
      h("tbody", users.map((u) => h("tr", { class: store.user && u.id === store.user.id ? "me" : undefined },
        h("td", String(u.rank)), h("td", u.name), h("td", u.title), h("td", String(u.points)),
        h("td", String(u.games_played))))))));
  }).catch((ex) => fill(box, h("p.form-error", ex.message)));
}

// ---------------------------------------------------------------------------------------------- replay
export function replayPage(root, { id }) {
  const box = h("section.replay", h("p.muted", "…"));
  fill(root, box);
  let view = null;
  let timer = null;
  let cancelled = false;
  (async () => {
    try {
      const [deal, rep] = await Promise.all([api("GET", `deals/${id}`), api("GET", `deals/${id}/replay`)]);
      if (cancelled) return;
      const steps = rep.steps;
      const you = rep.you;
      const seats = deal.seats.map((s, i) => ({ seat: i, name: s.name, user_id: s.user_id, bot: s.bot, connected: true, leaving: false }));
      const table = { id: "", options: deal.options, players: seats.length, seats, results: [], invite_code: null, status: "playing", you };
      let i = 0;
      const holder = h("div.replay-table");
      const label = h("span.step-label");
      const what = h("span.step-what");
      const slider = h("input", { type: "range", min: 0, max: steps.length - 1, value: 0, "aria-label": "step" });
      const playBtn = h("button.btn.small", { type: "button", "data-action": "autoplay-replay" }, t("autoplay_replay"));
      const show = (k) => {
        i = Math.max(0, Math.min(steps.length - 1, k));
        const s = steps[i];
        const obs = s.observation;
        view.update({ table, user: null, spectating: false, lastResult: null, dealOver: null,
          state: { table: "", deal: deal.id, version: s.n, phase: obs.phase, to_act: obs.to_act, you, deadline_ms: null,
            autoplay: obs.autoplay, legal: null, observation: obs } });
        slider.value = i;
        label.textContent = t("step", { n: i, total: steps.length - 1 });
        what.textContent = s.action ? `${seats[s.seat]?.name ?? "#" + s.seat}: ${s.action}` : "";
        root.querySelector(".replay")?.setAttribute("data-step", String(i));
      };
      const stop = () => { clearInterval(timer); timer = null; playBtn.textContent = t("autoplay_replay"); };
      playBtn.onclick = () => {
        if (timer) return stop();
        playBtn.textContent = t("pause");
        timer = setInterval(() => { if (i >= steps.length - 1) stop(); else show(i + 1); }, 700);
      };
      slider.oninput = () => show(Number(slider.value));
      const controls = h("div.replay-controls",
        h("button.btn.small.ghost", { type: "button", "data-action": "first", onclick: () => show(0) }, "« " + t("first")),
        h("button.btn.small.ghost", { type: "button", "data-action": "prev", onclick: () => show(i - 1) }, "◀ " + t("prev")),
        playBtn,
        h("button.btn.small.ghost", { type: "button", "data-action": "next", onclick: () => show(i + 1) }, t("next") + " ▶"),
        h("button.btn.small.ghost", { type: "button", "data-action": "last", onclick: () => show(steps.length - 1) }, t("last") + " »"),
        slider, label, what);
      fill(box, h("div.replay-head", h("h1", t("replay_title", { id })), controls), holder);
      view = new TableView(holder, { mode: "replay" });
      show(0);
    } catch (ex) {
      fill(box, h("p.form-error", ex.message));
    }
  })();
  return () => {
    cancelled = true;
    clearInterval(timer);
    view?.destroy();
  };
}
