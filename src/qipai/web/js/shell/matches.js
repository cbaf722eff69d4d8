// The match lobby (比赛): matches upcoming, open for registration, running and finished; register and withdraw;
// a match's live standings (pushed over the WebSocket with match_watch) with one's own line marked.
import { h, fill, morph, keep, api, toast, modal, fmtDelta, fmtTime } from "./util.js";
import { t, displayName, errorText, hasWords } from "./i18n.js";
import { conn } from "./conn.js";
import { store, spectate, refreshUser } from "./store.js";
import { playerLink } from "./player.js";

const STATUSES = ["open", "upcoming", "running", "finished"];

/** A match game in words (``ddz3`` → 斗地主); an unknown one as it is. */
const gameWords = (g) => (hasWords("match_game_" + g) ? t("match_game_" + g) : g);

/** A match's name as a player reads it: the server names a match the operator did not name after its preset
 * (``quick_sit_and_go``, ``hourly``: docs/matches.md §1) or, with neither, its game (``ddz3``); those are worded
 * (斗地主快速赛), with the match's own game; a name the operator gave is shown as given. */
export function matchName(name, game) {
  const key = "match_preset_" + name;
  if (hasWords(key)) return t(key, { game: gameWords(game) });
  if (name && name === game) return gameWords(game);
  return name ?? "";
}

/** An entrant's state in words: one still in a match that has not started yet is registered and waits for the
 * start, not playing. */
export function entrantState(status, phase, quitting = false) {
  // quitting: still seated in auto-play until its deal or round ends; once out it has withdrawn (已退赛)
  if (quitting && status === "in") return t("match_entrant_quitting");
  if (status === "in" && (phase === "registration" || phase === "starting")) return t("match_entrant_registered");
  if (status === "in" && phase === "finished") return t("match_entrant_done");
  return t("match_entrant_" + status);
}

/** The start time as the profile writes times (2026-12-06 12:18), whatever the browser's locale. */
function fmtStart(m) {
  if (!m.start_at) return m.max_entrants ? t("match_when_full", { n: m.max_entrants }) : "";
  return fmtTime(m.start_at * 1000);
}

/** What the prize places pay, in words: ``amounts`` as "第1名 300 · 第2名 200" (the first ``max``, then "…"). */
function placesWords(amounts, max = 9) {
  const shown = amounts.slice(0, max).map((a, i) => t("match_prize_place", { n: i + 1, amount: a }));
  return shown.join(" · ") + (amounts.length > max ? " · …" : "");
}

/** A match's prizes in words (RULES-matches §2.6): none; a fixed table's places; a pool — its share of the fees
 * (and guarantee) and what it pays with the field registered so far (``prizes_now``), or once fixed
 * (``prizes``) what it pays.  ``short``: one line for the list. */
export function prizeWords(m, short = false) {
  const table = m.prize_table;
  const fixed = Array.isArray(m.prizes) ? m.prizes : null;
  if (!table && !(fixed && fixed.length)) return t("match_prize_none");
  const amounts = fixed || m.prizes_now || [];
  const paid = amounts.filter((a) => a > 0);
  if (table && table.kind === "pool" && !fixed) {
    const pool = [t("match_prize_pool", { pct: 100 - (table.rake_pct ?? 10) })];
    if (table.guarantee) pool.push(t("match_prize_guarantee", { n: table.guarantee }));
    if (short) return pool.join(" · ") + (paid.length ? ` · ${t("match_prize_total", { n: paid.reduce((a, b) => a + b, 0) })}` : "");
    return pool.join(" · ") + (paid.length ? ` · ${t("match_prize_now", { places: placesWords(amounts) })}` : "");
  }
  if (!paid.length) return t("match_prize_none");
  return short ? placesWords(amounts, 3) : placesWords(amounts);
}

/** A match's stages in words: each one's format and how it runs (定局: its rounds' deals and who goes on;
 * 瑞士: rounds × deals; 打立: its levels, how they rise, the line), and how many go on to the next. */
export function stageWords(st) {
  const parts = [];
  if (st.format === "dali") {
    const levels = st.levels || [];
    if (levels.length) parts.push(t("match_plan_levels", { n: levels.length, first: levels[0], last: levels[levels.length - 1] }));
    const step = st.level_step || {};
    if (step.seconds) parts.push(t("match_plan_step_s", { n: step.seconds }));
    else if (step.deals) parts.push(t("match_plan_step_deals", { n: step.deals }));
    if (st.out_factor) parts.push(t("match_plan_line", { n: st.out_factor }));
  } else if (Array.isArray(st.rounds)) {
    st.rounds.forEach((r, i) => parts.push(t("match_plan_round", { n: i + 1, deals: r.deals })
      + (r.advance ? " " + t("match_plan_advance", { n: r.advance }) : "")));
  } else if (st.rounds) {
    parts.push(t("match_plan_swiss", { rounds: st.rounds, deals: st.deals }));
  }
  if (st.advance) parts.push(t("match_plan_advance", { n: st.advance }));
  return t("match_format_" + st.format) + (parts.length ? t("match_plan_colon") + parts.join(t("match_plan_sep")) : "");
}

/** How the match starts and how large its field is: full at ``max_entrants`` (with bots after a while), or at
 * its time with at least ``min_entrants`` (and late registration in an 打立 first stage). */
function startWords(info, defn) {
  const entry = defn?.entry || {};
  const parts = [];
  if (info.start === "when_full") {
    parts.push(t("match_rule_when_full", { n: info.max_entrants }));
    if (entry.bots === "fill_after") parts.push(t("match_rule_fill_bots", { s: entry.fill_after_s }));
  } else {
    if (info.start_at) parts.push(t("match_rule_at_time", { time: fmtTime(info.start_at * 1000) }));
    parts.push(info.max_entrants ? t("match_rule_field", { min: info.min_entrants, max: info.max_entrants })
      : t("match_rule_min", { min: info.min_entrants }));
    if (entry.late_reg) parts.push(t("match_rule_late", { n: entry.late_reg }));
  }
  if (info.teams) parts.push(t("match_rule_teams"));
  return parts.join(t("match_plan_sep"));
}

/** The match's plan on its card: how it starts, its stages, its prizes (what the server knows before the start). */
function planBox(info) {
  const defn = info.definition || {};
  const stages = defn.stages || [];
  return h("div.match-plan",
    h("p.match-rule", h("span.l", t("match_plan_start")), " ", startWords(info, defn)),
    stages.length ? h("div.match-structure", h("span.l", t("match_plan_stages")),
      h("ol", stages.map((st, i) => h("li", { dataset: { format: st.format, stage: i + 1 } }, stageWords(st))))) : null,
    h("p.match-prizes", h("span.l", t("match_prize")), " ", prizeWords(info)));
}

/** The match as the table's top bar shows it: its name, where it is (the stage, when there are several, apart:
 * a phone leaves it out; the round or 打立 level) and the player's place in the live standings (``view``: the
 * match's card or its last pushed standings). */
export function matchBar(view, userId) {
  const parts = { name: matchName(view.name, view.game), stage: null, round: null, place: null };
  const si = view.stage_info;
  if (si) {
    parts.stage = si.stages > 1 ? t("match_bar_stage", { n: si.index + 1 }) : null;
    if (si.format === "dali") parts.round = t("match_bar_level", { n: si.level, base: si.base });
    else if (view.round !== null && view.round !== undefined) {
      parts.round = t("match_bar_round", { n: view.round + 1, of: si.rounds });
    } else if (parts.stage) [parts.round, parts.stage] = [parts.stage, null]; // the stage alone: never left out
  }
  const rows = (view.standings || []).filter((r) => r.status !== "removed");
  const mine = userId !== undefined && userId !== null ? rows.find((r) => (r.users || []).includes(userId)) : null;
  if (mine && mine.place) parts.place = t("match_bar_place", { n: mine.place, of: rows.length });
  return parts;
}

function buttons(m, refresh) {
  const act = async (what) => {
    try {
      const r = await api("POST", `matches/${encodeURIComponent(m.id)}/${what}`);
      // a withdrawal before the start is refunded (``removed``); once the match runs it is a quit (``quitting``)
      const key = what === "register" ? "match_registered" : r && r.status && r.status !== "removed" ? "match_quit_done" : "match_withdrawn";
      toast(() => t(key), "info", 3500, "match-" + what);
    } catch (ex) {
      toast(() => errorText(ex.code, ex.params), "error", 5000);
    }
    refreshUser(m.platform_game); // the fee was taken or given back: the header's points in the match's game
    refresh(true);
  };
  // 退赛 once the match runs: the fee stays with the match and the seat plays on in auto-play; ask first
  const quit = () => modal({
    id: "match-quit-dialog",
    title: t("match_quit"),
    body: h("p", t("match_quit_confirm")),
    buttons: [
      { text: t("cancel"), action: "cancel-quit" },
      { text: t("match_quit_ok"), danger: true, action: "confirm-quit", onClick: () => { act("withdraw"); } },
    ],
  });
  if (m.status !== "open" && !(m.status === "running" && m.me)) return null;
  // the match card knows the entrant's state: one already out (eliminated, withdrawn) or quitting has nothing
  // to quit any more
  if (m.status === "running" && m.me && typeof m.me === "object" && (m.me.status !== "in" || m.me.quitting)) return null;
  // a team match is entered with a partner, on the match's card (teamEntry): the list leads there
  if (!m.me && m.teams && !m.me_invited_by) {
    return h("a.btn.small.primary", { href: `#/matches/${m.id}`, dataset: { action: "register", match: m.id } }, t("match_register"));
  }
  if (m.me) return h("button.btn.small", { type: "button", dataset: { action: "withdraw", match: m.id },
    onclick: () => (m.status === "open" ? act("withdraw") : quit()) },
    t(m.status === "open" ? "match_withdraw" : "match_quit"));
  return h("button.btn.small.primary", { type: "button", dataset: { action: "register", match: m.id }, onclick: () => act("register") },
    t("match_register"));
}

/** A team match's entry on its card, for one not registered: the invitations to answer (接受 registers the
 * team), the partner invited and not answering yet, and the form to invite a partner by user name.  ``input``
 * is kept by the card from draw to draw (a push redraws the card while one types). */
function teamEntry(m, input, refresh) {
  if (m.status !== "open" || m.me || !store.user) return null;
  const send = async (data, key) => {
    try {
      await api("POST", `matches/${encodeURIComponent(m.id)}/register`, data);
      toast(() => t(key), "info", 3500, "match-register");
      if (data.partner_name) input.value = "";
    } catch (ex) {
      toast(() => errorText(ex.code, ex.params), "error", 5000, "match-register");
    }
    refreshUser(m.platform_game); // a confirmed team paid its fee
    refresh(true);
  };
  // 谢绝: the invitation ends for both, and the captain is told
  const decline = async (captain) => {
    try {
      await api("POST", `matches/${encodeURIComponent(m.id)}/decline`, { captain });
      toast(() => t("match_team_decline_done"), "info", 3500, "match-decline");
    } catch (ex) {
      toast(() => errorText(ex.code, ex.params), "error", 5000, "match-decline");
    }
    refresh(true);
  };
  const invitedBy = (m.me_invited_by || []).map((c) => h("p.team-invited-by", { dataset: { captain: c.id } },
    t("match_team_invited_by", { name: displayName(c.name) }), " ",
    h("button.btn.small.primary", { type: "button", dataset: { action: "accept-team", captain: c.id },
      onclick: (e) => { e.currentTarget.disabled = true; send({ captain: c.id }, "match_registered"); } }, t("match_team_accept")), " ",
    h("button.btn.small.ghost", { type: "button", dataset: { action: "decline-team", captain: c.id },
      onclick: (e) => { e.currentTarget.disabled = true; decline(c.id); } }, t("match_team_decline"))));
  const inviting = m.me_inviting ? h("p.team-inviting", { dataset: { partner: m.me_inviting.id } },
    t("match_team_waiting", { name: displayName(m.me_inviting.name) })) : null;
  const declined = (m.me_declined_by || []).map((p) => h("p.team-declined", { dataset: { partner: p.id } },
    t("match_team_declined_by", { name: displayName(p.name) })));
  input.placeholder = t("match_team_partner");
  const form = h("form.team-invite", {
    onsubmit: (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (name) send({ partner_name: name }, "match_team_invited");
    },
  }, keep(input), " ", h("button.btn.small.primary", { type: "submit", dataset: { action: "invite-team", match: m.id } }, t("match_team_invite")));
  return h("div.team-entry", { dataset: { match: m.id } }, h("p.muted", t("match_team_note")), ...invitedBy, ...declined,
    inviting, form);
}

/** Each bot entrant's number (电脑1, 电脑2, …): the server's (``bot_number``, the number its tables name it by,
 * 电脑5号), unique in the match and kept from table to table; a row without one (an older server) counts among
 * the bots in registration order. */
function botNumbers(rows) {
  const bots = rows.filter((r) => r.bot);
  const byReg = [...bots].sort((a, b) => (a.reg ?? 0) - (b.reg ?? 0) || String(a.entrant).localeCompare(String(b.entrant)));
  const out = new Map();
  bots.forEach((r) => out.set(r.entrant, Number.isInteger(r.bot_number) ? r.bot_number : byReg.indexOf(r) + 1));
  return out;
}

/** Reads of a page's data that may cross (a timer's, one after a click): ``ask(after)`` numbers a read, ``fresh(n)``
 * says whether read ``n``'s answer may still be drawn — not when a later read's was drawn already, nor when a read
 * asked ``after`` a change (a registration) was begun after it: the list read just before 报名 came back after the
 * one read after it, and the card said 人数 0 and 报名 again under the 报名成功 toast. */
function reads() {
  let asked = 0, drawn = 0, since = 0;
  return {
    ask(after) { asked += 1; if (after) since = asked; return asked; },
    fresh(n) { if (n < drawn || n < since) return false; drawn = n; return true; },
  };
}

/** #/matches: every match by status. */
export function matchesPage(root) {
  const box = h("section.matches", h("p.muted", "…"));
  fill(root, box);
  let cancelled = false;
  const order = reads();
  // ``after``: a registration or withdrawal was just made (no answer read before it is drawn any more)
  const refresh = async (after = false) => {
    const n = order.ask(after);
    try {
      const { matches } = await api("GET", "matches");
      if (cancelled || !order.fresh(n)) return;
      const sections = STATUSES.map((st) => {
        const rows = matches.filter((m) => m.status === st);
        return h("div.panel", { dataset: { status: st } }, h("h2", t("match_status_" + st)),
          // on a phone each match is a card (css: table.match-list), the cells named by their data-label
          rows.length ? h("div.scroll", h("table.grid.match-list", h("thead", h("tr", h("th", t("match_name")), h("th", t("match_game")),
            h("th", t("match_entrants")), h("th", t("match_fee")), h("th", t("match_start")), h("th", t("match_format")),
            h("th", t("match_prize")), h("th", ""))),
          h("tbody", rows.map((m) => h("tr", { dataset: { match: m.id } },
            h("td.name", h("a", { href: `#/matches/${m.id}` }, matchName(m.name, m.game))), h("td.game", { dataset: { label: t("match_game") } }, gameWords(m.game)),
            h("td.entrants", { dataset: { label: t("match_entrants") } },
              m.entrants !== undefined ? `${m.entrants}${m.max_entrants ? " / " + m.max_entrants : ""}` : ""),
            h("td.fee", { dataset: { label: t("match_fee") } }, m.fee !== undefined ? String(m.fee) : ""),
            h("td.start", { dataset: { label: t("match_start") } }, fmtStart(m)),
            h("td.format", { dataset: { label: t("match_format") } }, (m.stages || []).map((f) => t("match_format_" + f)).join(" → ")),
            h("td.prize", { dataset: { label: t("match_prize") } }, prizeWords(m, true)),
            h("td.act", buttons(m, refresh))))))) : h("p.muted", t("match_none")));
      });
      morph(box, h("div", h("h1", t("nav_matches")), ...sections));  // 报名 pressed as the list is read again: still a click
    } catch (ex) {
      if (!cancelled && order.fresh(n)) fill(box, h("p.form-error", errorText(ex.code, ex.params)));
    }
  };
  refresh();
  const timer = setInterval(() => refresh(), 3000);
  return () => { cancelled = true; clearInterval(timer); };
}

/** "mm:ss" (or "h:mm:ss") until epoch second ``at`` (never below zero). */
function remaining(at) {
  const s = Math.max(0, Math.round(at - Date.now() / 1000));
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${two(mm)}:${two(ss)}`;
}

/** The countdown line: to the start (registration, or a full match about to start), or to the next round or
 * stage while the players wait between them (its text is refreshed every second). */
function countdown(view, info) {
  const phase = view.phase;
  let at = null, key = null;
  if ((phase === "registration" || phase === "starting") && info.start_at) { at = info.start_at; key = "match_starts_in"; }
  else if (phase === "running" && view.next_at) {
    at = view.next_at;
    key = view.next_kind === "stage" ? "match_next_stage_in" : "match_next_round_in";
  }
  if (!at) return null;
  return h("p.match-countdown", { dataset: { at: String(at), key } }, t(key, { time: remaining(at) }));
}

/** The running stage in words: which of how many, its format; 打立出局: level, base, the line, how many are left. */
export function stageLine(view) {
  const si = view.stage_info;
  if (!si) return null;
  const parts = [t("match_stage_n", { n: si.index + 1, of: si.stages }) + " " + t("match_format_" + si.format)];
  if (si.format === "dali") {
    parts.push(t("match_dali_level", { n: si.level, base: si.base }));
    parts.push(t("match_dali_line", { line: si.line }));
    parts.push(t("match_dali_left", { n: si.remaining, advance: si.advance }));
    if (si.stopping === "forced") parts.push(t("match_dali_forced"));  // 强制排名: the last level is used up
  } else if (view.round !== null && view.round !== undefined && si.rounds) {
    parts.push(t("match_round_n", { n: view.round + 1, of: si.rounds }));
  }
  return h("p.match-stage", { dataset: { format: si.format } }, parts.join(" · "));
}

/** Where a match table sits in its match, from its key (``1.2.3``: stage, round, table; ``1.d7``: 打立 table 7). */
function tableWords(key) {
  const parts = String(key || "").split(".");
  if (parts.length === 2 && parts[1].startsWith("d")) {
    return t("match_deal_where_dali", { stage: parts[0], table: parts[1].slice(1) });
  }
  if (parts.length === 3) return t("match_deal_where", { stage: parts[0], round: parts[1], table: parts[2] });
  return String(key || "");
}

/** The match's settled deals (one's own when one plays in it), newest first, each with a replay link; more
 * on request. */
function dealsSection(id, mine) {
  const list = h("tbody");
  const more = h("button.btn.small.ghost", { type: "button", dataset: { action: "more-deals" }, hidden: true }, t("match_deals_more"));
  const empty = h("p.muted.match-deals-empty", { hidden: true }, t("match_deals_none"));
  let last = null;
  const page = async (reset) => {
    const q = new URLSearchParams({ limit: "20" });
    if (mine) q.set("mine", "1");
    if (!reset && last) q.set("before", String(last));
    let rows = [];
    try {
      rows = (await api("GET", `matches/${encodeURIComponent(id)}/deals?${q}`)).deals || [];
    } catch (ex) {
      fill(list, h("tr", h("td", { colSpan: 4 }, errorText(ex.code, ex.params))));
      return;
    }
    if (reset) fill(list);
    for (const d of rows) {
      const me = store.user ? (d.users || []).indexOf(store.user.id) : -1;
      const score = me >= 0 && d.scores ? d.scores[me] : null;
      list.append(h("tr", { dataset: { deal: d.deal_id, key: d.table_key || "" } },
        h("td", tableWords(d.table_key), h("div.sub", t("match_deal_n", { n: d.deal_index + 1 }))),
        h("td.players", (d.players || []).map((n, i) => [i ? " · " : null,
          h("span.p", displayName(n) + (d.scores ? " " + fmtDelta(d.scores[i]) : ""))])),
        h("td.delta", { class: score > 0 ? "pos" : score < 0 ? "neg" : undefined }, fmtDelta(score)),
        h("td", h("a.btn.small.ghost", { href: `#/replay/${d.deal_id}`, dataset: { action: "replay" } }, t("replay")))));
    }
    if (rows.length) last = rows[rows.length - 1].deal_id;
    more.hidden = rows.length < 20;
    empty.hidden = list.children.length > 0;
  };
  more.onclick = () => page(false);
  const box = h("section.match-deals.panel", { dataset: { mine: mine ? "1" : "0" } },
    h("h2", t(mine ? "match_deals_mine" : "match_deals_all")),
    h("div.scroll", h("table.grid.match-deal-list", list)), empty, more);
  return { box, refresh: () => page(true) };
}

/** #/matches/ID: a match's card, register/withdraw, and its live standings. */
export function matchPage(root, { id }) {
  const box = h("section.match", { dataset: { match: id } }, h("p.muted", "…"));
  fill(root, box);
  let cancelled = false;
  let info = null;
  let standings = null;
  const partnerInput = h("input.team-partner", { type: "text", name: "partner_name", maxlength: "64", autocomplete: "off",
    "aria-label": t("match_team_partner") });
  const draw = () => {
    if (cancelled || !info) return;
    const rows = (standings || info).standings || [];
    const phase = (standings || info).phase;
    const prizes = (standings || info).prizes || info.prizes || [];
    let human = 0;
    const prizeOf = (r) => (r.bot || phase !== "finished" ? 0 : (prizes[human++] || 0));
    const view = standings || info;
    const botNo = botNumbers(rows);
    const mine = rows.find((r) => store.user && (r.users || []).includes(store.user.id));
    // (not the table one left: its seat plays in auto-play to the table's end, nothing there is ours any more)
    const myTable = mine ? (mine.table && mine.table !== info.me?.left_table ? mine.table : null) : (info.me && info.me.table);
    // in the match, between tables: say so (the next table comes by itself)
    const waiting = phase === "running" && mine && mine.status === "in" && !myTable
      ? h("p.match-waiting", t(mine.where === "queue" ? "match_wait_queue" : mine.where === "bye" ? "match_wait_bye" : "match_wait")) : null;
    const typing = document.activeElement === partnerInput; // a redraw moves the input: keep it focused
    // morphed in: a button pressed as a push draws the card again is still clicked; the partner's name being
    // typed and the deals' list stay themselves (keep)
    morph(box, h("div", h("div.panel",
      h("h1", matchName(info.name, info.game)), h("p.match-phase", { dataset: { phase } }, t("match_phase_" + phase)),
      h("p.match-facts", `${gameWords(info.game)} · ${t("match_fee")} ${info.fee ?? 0} · ${t("match_entrants")} ${rows.length}`),
      stageLine(view), countdown(view, info), waiting, planBox({ ...info, prizes: view.prizes ?? info.prizes }),
      myTable ? h("p", h("a.btn.small", { href: "#/table", onclick: () => { store.tableId = myTable; } }, t("match_my_table"))) : null,
      info.teams && !info.me ? teamEntry(info, partnerInput, load) : buttons({ ...info, status: info.status }, load),
      h("table.grid.standings", h("thead", h("tr", h("th", t("rank")), h("th", t("player")), h("th", t("points")),
        h("th", t("match_state")), phase === "finished" ? h("th", t("match_prize")) : null)),
      h("tbody", rows.map((r) => h("tr", { class: store.user && (r.users || []).includes(store.user.id) ? "me" : undefined,
        dataset: { entrant: r.entrant, place: r.place } },
        h("td", String(r.place)), h("td.name", r.bot ? t("match_bot_n", { n: botNo.get(r.entrant) })
          // (a player's name leads to his profile; a team's two names stay words)
          : (r.users || []).length === 1 ? playerLink(r.name) : displayName(r.name)), h("td.points", String(r.points)),
        h("td.state", { dataset: { state: r.status } }, entrantState(r.status, phase, r.quitting),
          r.table && !store.tableId ? h("button.btn.small.ghost", { type: "button", dataset: { action: "watch", table: r.table },
            onclick: () => { spectate(r.table); location.hash = "#/table"; } }, t("watch")) : null),
        phase === "finished" ? h("td.prize", String(prizeOf(r))) : null))))),
      deals ? keep(deals.box) : null));
    if (typing && partnerInput.isConnected) partnerInput.focus();
  };
  let deals = null;
  let dealsAt = 0;
  const refreshDeals = (force) => {
    if (!info || info.phase === "registration" || info.phase === "cancelled") return;
    const mine = !!info.me;
    if (!deals || deals.mine !== mine) {
      deals = { ...dealsSection(id, mine), mine };
      dealsAt = 0;
    }
    const now = Date.now();
    if (!force && now - dealsAt < 5000) return; // live standings move often: the list follows every 5 s at most
    dealsAt = now;
    deals.refresh();
  };
  let pushes = 0;
  const order = reads();
  const load = async (after = false) => {
    const n = order.ask(after);
    try {
      const before = pushes;
      const read = await api("GET", `matches/${encodeURIComponent(id)}`);
      if (cancelled || !order.fresh(n)) return; // a later read's answer is drawn already
      info = read;
      // the card read now is newer than any push that came before the request: it is what to show (a push
      // that came while the request was out may be newer still, and is kept)
      if (pushes === before) standings = null;
      refreshDeals(true);
      draw();
    } catch (ex) {
      if (!cancelled && order.fresh(n)) fill(box, h("p.form-error", errorText(ex.code, ex.params)));
    }
  };
  const off = conn.on((msg) => {
    if (msg.type === "_gap" && !cancelled) load(); // messages were lost: read the card again
    // a team invitation to this match (the card shows it, with 接受 and 谢绝), or one's own declined
    else if (msg.type === "match_event" && msg.match === id && !cancelled
      && ["team_invite", "team_declined"].includes((msg.event || {}).type)) load();
    else if (msg.type === "match_standings" && msg.match === id) {
      standings = msg;
      pushes += 1;
      // one's own entry came or went (a partner confirmed one's team invitation): the card's ``me`` with it
      const inNow = !!store.user && (msg.standings || []).some((r) => r.status !== "removed" && (r.users || []).includes(store.user.id));
      if (info && (msg.phase !== info.phase || inNow !== !!info.me)) load();
      else { refreshDeals(false); draw(); }
    }
  });
  load().then(() => { if (!cancelled) conn.send({ type: "match_watch", match: id }); });
  // a new socket (a reconnect) watches nothing: watch again, and read the card again for what was missed
  const offStatus = conn.onStatus((s) => {
    if (s === "open" && !cancelled && info) { conn.send({ type: "match_watch", match: id }); load(); }
  });
  const tick = setInterval(() => {
    for (const el of box.querySelectorAll(".match-countdown")) {
      el.textContent = t(el.dataset.key, { time: remaining(Number(el.dataset.at)) });
    }
  }, 1000);
  return () => {
    cancelled = true;
    clearInterval(tick);
    off();
    offStatus();
    conn.send({ type: "match_unwatch", match: id });
  };
}
