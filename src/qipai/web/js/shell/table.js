// The table frame every game shares: the top bar (table name, stake, invite link, menu), the seats around the
// felt (name, title, points, badges, timer, ready mark, chat bubbles), the viewer's bar, the action row and the
// hand area, the ready step between deals, the settlement, history and leave dialogs, quick chat and sound.
// A game's view (games.js) fills the slots it is given; the frame never looks inside an observation.
import { h, add, fill, clear, morph, modal, toast, fmtDelta, api } from "./util.js";
import { t, displayName, phraseText, hasWords, errorText } from "./i18n.js";
import { conn } from "./conn.js";
import { store } from "./store.js";
import { gameName, titleName } from "./games.js";
import { pref, setPref } from "./prefs.js";
import * as sound from "./sound.js";
import { icon, isEmote } from "./icons.js";
import { matchBar } from "./matches.js";
import { openRules } from "./rules.js";
import { hasProfile, playerHref, playerLink } from "./player.js";

/** qipai.host.table.PHRASES: the quick-chat phrases and emotes (ids; the words are in i18n.js). */
export const PHRASES = ["hurry", "nice_play", "well_played", "sorry", "oops", "again", "thanks", "wait", "good_luck", "bye"];
export const EMOTES = ["emote:smile", "emote:cry", "emote:angry", "emote:shock", "emote:thumbs_up", "emote:flower"];
const CHAT_COOLDOWN = 1500;
const CHAT_SHOWN = 3500;

export function inviteLink(code) {
  return `${location.origin}${location.pathname}#/invite/${code}`;
}

export class TableFrame {
  /** ``module``: the game's view module (games.js); ``mode``: "live" or "replay". */
  constructor(root, { module, info, mode = "live" }) {
    this.root = root;
    this.live = mode === "live";
    this.info = info;
    this.model = null;
    this.lastChatSent = -Infinity;
    this.prevMyTurn = null; // (no "your turn" chime for a table just drawn: only when the turn comes)
    this.lastTick = -1;
    this.match = null; // a match table: its match's card and live standings, for the top bar (followMatch)
    if (this.live) this.offMatch = conn.on((msg) => this.matchMessage(msg));
    this.build();
    this.view = module.mount(this.slots, this.ctx());
    this.tick = setInterval(() => this.updateTimers(), 250);
    this.onKey = (e) => this.key(e);
    // whether the focused element was reached by a click (then Enter is still 出牌) or by the keyboard
    this.lastInput = "";
    this.onPointer = () => { this.lastInput = "pointer"; };
    this.onKeyFirst = () => { this.lastInput = "key"; };
    this.onFocus = (e) => { e.target.__byPointer = this.lastInput === "pointer"; };
    if (this.live) {
      document.addEventListener("keydown", this.onKeyFirst, true);
      document.addEventListener("keydown", this.onKey);
      document.addEventListener("pointerdown", this.onPointer, true);
      document.addEventListener("focusin", this.onFocus, true);
    }
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.tick);
    this.offMatch?.();
    document.removeEventListener("keydown", this.onKey);
    document.removeEventListener("keydown", this.onKeyFirst, true);
    document.removeEventListener("pointerdown", this.onPointer, true);
    document.removeEventListener("focusin", this.onFocus, true);
    this.view?.destroy?.();
    document.getElementById("settlement")?._close?.();
  }

  ctx() {
    return {
      live: this.live,
      info: this.info,
      root: this.el,
      send: (action) => this.sendAction(action),
      sendRaw: (msg) => conn.send(msg),
      seatEl: (seat) => this.seatEl(seat),
      seatName: (seat) => this.seatName(seat),
      sound: (name) => { if (this.live) sound.play(name); },
      toast: (text, kind, ms, key) => this.feltToast(text, kind, ms, key),
      prefs: { get: pref, set: setPref },
    };
  }

  // ------------------------------------------------------------------------------------------ skeleton
  build() {
    clear(this.root);
    const s = (this.slots = {});
    this.el = h("div.tablev", { class: this.live ? "live" : "replay", dataset: { game: this.info?.name || "" } });
    s.root = this.el;
    this.tinfo = h("div.tinfo");
    s.info = h("div.tgame");
    s.menu = h("div.tmenu-game");
    this.tmenuShell = h("div.tmenu-shell");
    this.tbar = h("div.tbar", this.tinfo, s.info, h("div.tmenu", s.menu, this.tmenuShell));
    this.seatLayer = h("div.seat-layer");
    s.center = h("div.center-game");
    this.centerShell = h("div.center-msg");
    s.mine = h("div.myplay");
    s.fx = h("div.fx-layer", { "aria-hidden": "true" });
    this.chatLayer = h("div.chat-layer", { "aria-live": "polite" });
    // the notice that another window took the seat sits in the action row (which has no moves then), never over
    // a seat or the cards on the felt
    this.banner = h("div.table-banner", { "aria-live": "polite" });
    this.felt = h("div.felt", this.seatLayer, s.center, this.centerShell, s.mine, this.chatLayer, s.fx);
    this.meInfo = h("div.me-info");
    s.meGame = h("div.me-game");
    this.turnLine = h("div.turn-line");
    s.reason = h("div.reason", { id: "play-reason", "aria-live": "polite" });
    this.said = h("div.sr-only.table-said", { "aria-live": "polite" });
    // what the other seats did, said to a screen reader as it happens (the view's announce())
    this.heard = h("div.sr-only.table-heard", { "aria-live": "polite" });
    this.mebar = h("div.mebar", this.meInfo, s.meGame, this.turnLine, s.reason, this.said, this.heard);
    s.actMain = h("div.act-main");
    s.tools = h("div.act-tools-game");
    this.toolsShell = h("div.act-tools-shell");
    this.chatPop = h("div.chat-pop", { hidden: true, role: "menu" });
    this.actions = h("div.actions", this.banner, s.actMain, h("div.act-tools", s.tools, this.toolsShell), this.chatPop);
    s.hand = h("div.hand", { role: "group", "aria-label": t("hand_label") });
    add(this.el, this.tbar, this.felt, this.mebar, this.actions, s.hand);
    add(this.root, this.el);
  }

  /** A game's notice at the table (甩牌失败): a toast over the middle of the felt, where no seat and no play lies,
   * rather than at the top of the window over the top bar (whose points it is about). */
  feltToast(text, kind, ms, key) {
    const el = toast(text, kind, ms, key);
    const box = el.parentElement?.getBoundingClientRect();
    const felt = this.felt.getBoundingClientRect();
    if (!box || !felt.height) return el;
    el.classList.add("at-felt");
    el.style.top = `${Math.max(0, felt.top + felt.height * 0.45 - box.top)}px`;
    return el;
  }

  seatEl(seat) {
    if (seat === this.you) return this.meInfo;
    return this.seatLayer.querySelector(`.seat[data-seat="${seat}"]`);
  }

  seatName(seat) {
    const s = this.model?.table?.seats?.[seat];
    return s ? displayName(s.name) : t("empty_seat");
  }

  pos(seat) {
    const n = this.n;
    const rel = (seat - this.base + n) % n;
    if (rel === 0) return "bottom";
    if (n === 2) return "top";
    if (n === 3) return rel === 1 ? "right" : "left";
    return ["bottom", "right", "top", "left"][rel] || "top";
  }

  // ------------------------------------------------------------------------------------------ model
  /** model: {table, state, lastResult, dealOver, spectating, user} */
  update(model) {
    const st = model.state;
    const table = model.table;
    const n = table?.players || st?.observation?.players || 3;
    const you = st ? st.you : table ? table.you : null;
    this.n = n;
    this.you = you ?? null;
    this.base = you ?? 0;
    // a seat another window took over (store.takenOver) is read-only here: no turn, no moves, no clock of one's own
    const takenOver = this.live && !model.spectating && you !== null && you !== undefined && !!(model.takenOver ?? store.takenOver);
    this.model = { ...model, info: this.info, you: this.you, n, stateAt: model.stateAt ?? store.stateAt ?? 0, takenOver };
    const e = this.el;
    const phase = st?.observation?.phase || st?.phase || (table?.status === "waiting" ? "waiting" : "");
    e.dataset.players = n;
    e.dataset.table = table?.id || "";
    e.dataset.deal = st?.deal ?? "";
    e.dataset.version = st?.version ?? "";
    e.dataset.phase = phase;
    e.dataset.you = you ?? "";
    e.dataset.toAct = st?.to_act ?? "";
    const myTurn = this.myTurn();
    e.dataset.myTurn = myTurn ? "1" : "0";
    e.dataset.autoplay = this.inAutoplay() ? "1" : "0";
    e.dataset.between = this.between() ? "1" : "0";
    e.classList.toggle("spectating", !!model.spectating && this.live);
    e.classList.toggle("taken-over", takenOver);
    e.dataset.takenOver = takenOver ? "1" : "0";
    this.renderMark();
    this.followMatch();
    this.renderTop();
    this.renderSeats();
    this.renderMe();
    this.view.update(this.model);
    this.announceMoves();
    this.renderCenter();
    this.renderTools();
    this.fitFelt();
    this.updateTimers();
    if (this.live && myTurn && this.prevMyTurn === false) {
      sound.play("turn");
      this.said.textContent = t("your_turn");  // (said to a screen reader once a turn, not at every message)
    } else if (!myTurn && this.said.textContent) {
      this.said.textContent = "";
    }
    this.prevMyTurn = myTurn;
    if (this.live) this.settlementLifecycle();
  }

  /** The other seats' moves since the last state of the same deal, in the view's words (``view.announce``), put in
   * the polite live region a screen reader reads; nothing for a new deal, a table just drawn or a replay. */
  announceMoves() {
    const st = this.model?.state;
    const obs = st?.observation;
    const prev = this.heardFrom;
    this.heardFrom = st && obs ? { table: st.table, deal: st.deal, version: st.version, obs } : null;
    if (!this.live || !this.view.announce || !prev || !obs || prev.table !== st.table || prev.deal !== st.deal
        || !(st.version > prev.version)) return;
    let text = "";
    try {
      text = this.view.announce(prev.obs, obs, this.model) || "";
    } catch (err) {
      console.error(err);  // (words for a screen reader never stop the table)
    }
    if (!text) return;
    // the same words as last time (both farmers passed again) are read again only if the region's text changes:
    // a no-break space at the end comes and goes
    this.heard.textContent = this.heard.textContent === text ? text + "\u00a0" : text;
  }

  /** A replay's table is as tall as what it holds (the page scrolls; the window's height does not size it), but
   * seat boxes placed over the felt (position: absolute) take no room there: the felt grows until every such box,
   * with what it says and shows under or beside it, the word in the middle (叫分: under the boxes on a narrow
   * screen, style.css) and the viewer's own play at the felt's foot fit in it — never over each other, nor over
   * the viewer's bar below the felt.  It never shrinks within a replay (the page does not jump from step to
   * step).  A live table fills the window and is not touched. */
  fitFelt() {
    if (this.live) return;
    const felt = this.felt.getBoundingClientRect();
    if (!felt.height) return;
    let boxes = 0;
    let bottom = 0;
    for (const seat of this.seatLayer.querySelectorAll(".seat")) {
      if (getComputedStyle(seat).position !== "absolute") continue; // a seat in the felt's flow (mahjong) makes room
      boxes = Math.max(boxes, seat.getBoundingClientRect().bottom - felt.top);
      for (const el of [seat, ...seat.querySelectorAll("*")]) {
        const r = el.getBoundingClientRect();
        if (r.height) bottom = Math.max(bottom, r.bottom - felt.top);
      }
    }
    if (!bottom) return;
    this.felt.style.setProperty("--seats-bottom", `${Math.ceil(boxes)}px`);
    for (const el of this.felt.querySelectorAll(".center-msg")) {
      const r = el.getBoundingClientRect();
      if (r.height && el.childElementCount) bottom = Math.max(bottom, r.bottom - felt.top);
    }
    const need = bottom + this.slots.mine.getBoundingClientRect().height + 12;
    // the table (not the felt: a grid's flexible row) grows, and the felt takes the room
    if (need > felt.height) this.el.style.minHeight = `${Math.ceil(this.el.getBoundingClientRect().height + need - felt.height)}px`;
  }

  myTurn() {
    const m = this.model;
    if (!this.live || !m?.state || m.state.you === null || m.state.you === undefined || m.takenOver) return false;
    if (this.view?.myTurn) return !!this.view.myTurn(m);
    const st = m.state;
    return !!(st.your_turn && st.legal && st.legal.length && st.observation.phase !== "over");
  }

  inAutoplay() {
    const st = this.model?.state;
    return !!(st && st.you !== null && st.you !== undefined && st.autoplay && st.autoplay[st.you]);
  }

  /** Between deals: no deal is running (the ready step's time). */
  between() {
    const { table, state } = this.model;
    if (!table) return false;
    return !state || state.observation?.phase === "over" || table.status === "waiting";
  }

  readyList() {
    const r = this.model?.table?.ready;
    return Array.isArray(r) && this.between() ? r : null;
  }

  /** The game's name across the felt, in the page's language. */
  renderMark() {
    const mark = this.info?.name ? gameName(this.info.name) : "";
    if (this.felt.dataset.mark === mark) return;
    this.felt.dataset.mark = mark;
    // its width in em (a CJK character and the letter spacing 1.2, a letter about .8)
    const w = [...mark].reduce((n, c) => n + (c.charCodeAt(0) > 0x2e80 ? 1.2 : 0.8), 0);
    this.felt.style.setProperty("--mark-w", String(Math.max(1, w)));
  }

  // ------------------------------------------------------------------------------------------ top bar
  /** A match table names its match (``match_id``): read the match's card (its name, round, standings) for the
   * top bar, once per match; the match's players get its standings pushed (matchMessage), a spectator does not
   * and reads the card again at each new deal. */
  followMatch() {
    const id = this.live ? this.model?.table?.match_id : null;
    if (!id) { this.match = null; return; }
    const deal = this.model.state?.deal ?? null;
    if (this.match?.id === id) {
      if (this.model.spectating && deal !== this.match.deal) { this.match.deal = deal; this.loadMatch(); }
      return;
    }
    this.match = { id, card: null, view: null, deal, pushes: 0 };
    this.loadMatch();
  }

  async loadMatch() {
    const m = this.match;
    if (!m) return;
    const before = m.pushes;
    try {
      const card = await api("GET", `matches/${encodeURIComponent(m.id)}`);
      if (this.destroyed || this.match !== m) return;
      m.card = card;
      if (m.pushes === before) m.view = null; // the card read now is newer than any push before it
      this.renderTop();
    } catch {
      // (the bar just says less)
    }
  }

  matchMessage(msg) {
    const m = this.match;
    if (!m || this.destroyed) return;
    if (msg.type === "match_standings" && msg.match === m.id) {
      m.view = msg;
      m.pushes += 1;
      if (m.card) this.renderTop();
    } else if (msg.type === "_gap") this.loadMatch();
  }

  /** The match in the top bar: its name, the round (or 打立 level) and one's place in the live standings. */
  matchBarEl() {
    const m = this.match;
    if (!m || !m.card) return null;
    const bar = matchBar({ ...m.card, ...(m.view || {}) }, store.user?.id);
    // a phone gives it one line (style.css): the name cut short, the stage left out; the whole of it in the title
    const round = [bar.stage, bar.round].filter(Boolean).join(" ");
    return h("span.match-bar", { dataset: { match: m.id }, title: [bar.name, round, bar.place].filter(Boolean).join(" · ") },
      h("b.match-bar-name", bar.name),
      bar.round ? h("span.match-bar-round", bar.stage ? [h("span.match-bar-stage", bar.stage), " "] : null, bar.round) : null,
      bar.place ? h("span.match-bar-place", bar.place) : null);
  }

  /** 第 3/8 局 at a table played for a set number of deals: the running deal, else the one just played (its
   * settlement is on show until the next starts), 第 1 局 before the first; nothing at an open-ended table. */
  dealsEl() {
    const table = this.model.table;
    const total = table?.deals_total;
    if (!total) return null;
    const index = table.deal_index || 0;
    const n = Math.max(1, Math.min(total, table.status === "playing" ? index + 1 : index));
    return h("span.deals-of", { dataset: { deal: n, total }, title: t("deal_of_title", { total }) }, t("deal_of", { n, total }));
  }

  renderTop() {
    const { table, spectating } = this.model;
    const opts = table?.options || {};
    const code = table?.invite_code;
    const title = this.view.tableTitle ? this.view.tableTitle(this.model) : "";
    // the buttons here and below stay the same elements from message to message (morph): a click across a message
    morph(this.tinfo, h("div",
      this.matchBarEl(),
      // the table's name opens its 玩法说明 (this table's options): a button of its own had no room on a phone's
      // bar (the menu went down a line, and the felt lost it)
      // (a replay's too: the rules its deal was played by)
      table?.game
        ? h("button.preset.rules-open", { type: "button", "data-action": "rules", title: t("rules_title"),
          "aria-label": `${t("rules_title")} · ${title}`, onclick: () => openRules(table?.game, table?.options, { forPoints: table?.for_points !== false }) }, title,
        icon("help", 13))
        : h("span.preset", title),
      opts.stake !== undefined ? h("span.stake", `${t("stake")} ${opts.stake}`) : null,
      // a table for no points (bots weaker than the room's): its stake moves no one's points, and it says so
      table?.for_points === false ? h("span.badge.practice", { title: t("no_points_title") }, t("no_points")) : null,
      this.dealsEl(),
      code && this.live ? h("span.invite", { title: t("invite_code") }, `${t("invite_code")} `, h("b.code", code),
        h("button.btn.tiny.ghost", { type: "button", "data-action": "copy-invite", title: inviteLink(code),
          "aria-label": t("copy_link"), onclick: () => this.copyInvite(code) }, icon("link", 14))) : null,
      spectating && this.live ? h("span.badge.watch", t("spectating")) : null,
      table?.paused ? h("span.badge.off", { "data-notice": "paused" }, t("paused")) : null,
    ));
    if (!this.live) {
      clear(this.tmenuShell);
      return;
    }
    const muted = sound.isMuted();
    morph(this.tmenuShell, h("div",
      h("button.btn.small.ghost", { type: "button", "data-action": "history", onclick: () => this.showHistory() }, t("history")),
      h("button.btn.small.ghost", { type: "button", "data-action": "result", onclick: () => this.showResult() }, t("result")),
      h("button.btn.small.ghost.icon", { type: "button", "data-action": "sound", "aria-pressed": muted ? "false" : "true",
        title: muted ? t("sound_off") : t("sound_on"), "aria-label": muted ? t("sound_off") : t("sound_on"),
        onclick: () => { sound.setMuted(!sound.isMuted()); this.renderTop(); } }, icon(muted ? "mute" : "sound", 18)),
      h("button.btn.small.ghost.leave", { type: "button", "data-action": "leave", onclick: () => this.leave() },
        spectating ? t("stop_watching") : t("leave")),
    ));
  }

  async copyInvite(code) {
    const link = inviteLink(code);
    try {
      await navigator.clipboard.writeText(link);
      toast(() => t("copied"), "info", 2500, "copied");
    } catch {
      modal({ id: "invite-dialog", title: t("invite_link"), body: h("div.invite-box",
        h("p", t("invite_share", { code })), h("input.invite-url", { value: link, readonly: true, onfocus: (e) => e.target.select() })) });
    }
  }

  // ------------------------------------------------------------------------------------------ seats
  seatHead(seat, box) {
    const { table, state } = this.model;
    const s = table?.seats?.[seat] || null;
    const name = s ? displayName(s.name) : t("empty_seat");
    const badges = h("div.badges");
    if (state?.autoplay?.[seat]) add(badges, h("span.badge.auto", t("autoplay_badge")));
    // a bot's level as the table's creator chose it (入门 … 大师), else just that it is a bot
    if (s && s.bot) {
      const said = t("bot_badge") + (hasWords("bot_kind_" + s.bot) ? " · " + t("bot_kind_" + s.bot) : "");
      add(badges, h("span.badge.bot", { dataset: { bot: s.bot }, title: said }, said)); // (a narrow box may cut it short)
    }
    if (s && !s.connected && !s.bot) add(badges, h("span.badge.off", t("offline_badge")));
    if (s && s.leaving) add(badges, h("span.badge.off", t("leaving_badge")));
    const ready = this.readyList();
    if (ready && ready[seat]) add(badges, h("span.badge.ready", { "data-ready": seat }, "✓ " + t("ready_done")));
    // another player's avatar opens his card (加好友, 拉黑: as JJ and 欢乐斗地主 do from the seat)
    const person = s && !s.bot && s.user_id && s.user_id !== store.user?.id;
    // in a replay (no table to stay at) another registered player's avatar leads to his profile
    const profile = !this.live && person && hasProfile(s.name);
    const avatar = h(profile ? "a.avatar" : "div.avatar", { class: s ? undefined : "empty",
      ...(person && this.live ? { role: "button", tabindex: "0", "data-action": "seat-card", "aria-label": t("seat_card_of", { name }),
        onclick: () => this.seatCard(s), onkeydown: (e) => {
          if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); this.seatCard(s); }
        } } : {}),
      ...(profile ? { href: playerHref(s.name), "data-action": "seat-profile", "aria-label": `${t("seat_view_profile")} · ${name}`,
        title: t("seat_view_profile") } : {}) },
      s ? (name || "?").slice(0, 1).toUpperCase() : "?");
    // a player's title and points; at a match table every seat's (a bot's too) match points instead of the points
    // of the lobby, which that table does not move (RULES-matches.md §4)
    const title = s && !s.bot && s.title ? h("span.title-tag", titleName(this.info?.name, s.title)) : null;
    const mp = this.matchPoints(s);
    const standing = !s ? null : this.matchTable()
      ? (mp !== null ? h("div.standing", { dataset: { seat } }, title, this.matchPointsEl("span.spts", mp)) : null)
      : title ? h("div.standing", { dataset: { seat } }, title, h("span.spts", `${s.points} ${t("points_short")}`)) : null;
    add(box, avatar, h("div.sinfo", h("div.sname", { title: name }, name), standing, badges));
    return { avatar, badges };
  }

  /** Another player's card, from his seat: his title and points, 加好友 (a registered viewer and player) and
   * 拉黑 / 解除拉黑 (his quick chat no longer reaches the viewer, at any table). */
  seatCard(s) {
    const name = displayName(s.name);
    const blocked = store.blocked?.has(s.user_id);
    const guest = (x) => /^guest-/i.test(x || "");
    const act = async (path, body, said) => {
      try {
        const r = await api("POST", path, body);
        if (path.endsWith("/block")) store.blocked = new Set([...(store.blocked || []), s.user_id]);
        if (path.endsWith("/unblock")) store.blocked?.delete(s.user_id);
        toast(() => said(r), "info", 3000, "seat-card");
      } catch (ex) {
        toast(() => errorText(ex.code, ex.params), "error", 5000, "seat-card");
      }
    };
    const buttons = [];
    if (!store.user?.is_guest && !guest(s.name)) {
      buttons.push({ text: t("friends_add"), action: "seat-add-friend", onClick: () => {
        act("friends", { name: s.name }, (r) => t(r.state === "requested" ? "friends_sent" : "friends_now"));
      } });
    }
    buttons.push(blocked
      ? { text: t("seat_unblock"), action: "seat-unblock", onClick: () => { act(`friends/${s.user_id}/unblock`, undefined, () => t("seat_unblocked", { name })); } }
      : { text: t("friends_block"), action: "seat-block", danger: true, onClick: () => {
        act(`friends/${s.user_id}/block`, undefined, () => t("friends_blocked_now", { name }));
      } });
    // 查看资料: his public profile (the table stays: 牌桌 in the header leads back)
    if (hasProfile(s.name)) buttons.unshift({ text: t("seat_view_profile"), action: "seat-profile", onClick: () => { location.hash = playerHref(s.name); } });
    buttons.push({ text: t("close"), primary: true });
    const title = s.title ? titleName(this.info?.name, s.title) : "";
    modal({ id: "seat-card", title: name, buttons,
      body: h("div.seat-card", { dataset: { user: s.user_id } },
        title ? h("span.title-tag", title) : null,
        this.matchTable() ? null : h("span.pts", ` ${s.points} ${t("points_short")}`),
        blocked ? h("p.muted", t("seat_is_blocked")) : null) });
  }

  /** A match table (the server names its match): its seats show match points, never the lobby's. */
  matchTable() {
    return !!this.model?.table?.match_id;
  }

  /** A seat's match points at a match table (null elsewhere, and until the match gives them). */
  matchPoints(s) {
    return this.matchTable() && Number.isInteger(s?.match_points) ? s.match_points : null;
  }

  matchPointsEl(tag, n) {
    return n === null ? null : h(`${tag}.match-pts`, { dataset: { matchPoints: n }, title: t("match_pts_hint") }, t("match_pts", { n }));
  }

  renderSeats() {
    clear(this.seatLayer);
    const { table, state } = this.model;
    for (let seat = 0; seat < this.n; seat++) {
      if (seat === this.you) continue;
      const s = table?.seats?.[seat] || null;
      const box = h("div.seat", { dataset: { seat, pos: this.pos(seat) }, class: s ? undefined : "empty" });
      this.seatHead(seat, box);
      const slot = h("div.seat-game");
      add(box, slot);
      if (this.clockSeats().includes(seat)) {
        box.classList.add("active");
        add(box, h("div.timer", { dataset: { seat } }));
      }
      add(this.seatLayer, box);
      if (state || s) this.view.seat?.(seat, slot, this.model, box);
    }
  }

  acting() {
    const st = this.model?.state;
    if (!st || st.observation?.phase === "over") return [];
    if (Array.isArray(st.acting) && st.acting.length) return st.acting;
    return st.to_act !== null && st.to_act !== undefined ? [st.to_act] : [];
  }

  /** Whether the state's deadline is the acting seats' own decision (the game's view may say not: Shengji's
   * deal, where every seat may declare and the deadline is only the pace of the cards). */
  clocked() {
    return !this.view?.clocked || !!this.view.clocked(this.model);
  }

  /** The seats marked as deciding, each with its countdown: the acting seats while they are on a clock. */
  clockSeats() {
    return this.clocked() ? this.acting() : [];
  }

  renderMe() {
    clear(this.meInfo);
    clear(this.turnLine);
    const { table, state, user } = this.model;
    const you = this.you;
    if (you === null) return;
    const s = table?.seats?.[you];
    const own = displayName(s?.name || user?.name || "");
    // a replay names the viewer's seat as its captions do (你 / You: seatName), its initial stays the account's
    const name = this.live ? own : this.seatName(you);
    this.meInfo.dataset.seat = you;
    const badges = [];
    if (state?.autoplay?.[you]) badges.push(h("span.badge.auto", t("autoplay_badge")));
    const ready = this.readyList();
    if (ready && ready[you]) badges.push(h("span.badge.ready", { "data-ready": you }, "✓ " + t("ready_done")));
    add(this.meInfo,
      h("div.avatar.me-av", own.slice(0, 1).toUpperCase()),
      h("span.sname", name),
      s?.title ? h("span.title-tag", { dataset: { seat: you } }, titleName(this.info?.name, s.title)) : null,
      !s || !this.live ? null : this.matchTable() ? this.matchPointsEl("span.pts", this.matchPoints(s))
        : h("span.pts", `${s.points} ${t("points_short")}`),
      ...badges);
    add(this.turnLine, this.myTurn() && this.clocked() ? h("span.yourturn", t("your_turn")) : null,
      this.model.takenOver ? null : h("div.timer.me-timer", { dataset: { seat: you } }));
  }

  renderCenter() {
    const center = h("div");  // morphed in: 准备 stays the same button while the others get ready (a click across a message)
    const banner = h("div");
    this.fillCenter(center, banner);
    morph(this.centerShell, center);
    morph(this.banner, banner);
  }

  fillCenter(center, banner) {
    const { table, state, spectating, takenOver } = this.model;
    if (!this.live || !table) return;
    if (takenOver) {
      add(banner, h("div.taken", h("span", t("taken_over")),
        h("button.btn.small.primary", { type: "button", "data-action": "take-over",
          onclick: () => conn.send({ type: "take_over" }) }, t("take_back"))));
    }
    if (table.paused) add(center, h("div.msg.small", t("paused")));
    const filled = table.seats.filter(Boolean).length;
    if (!state && table.status === "waiting" && filled < table.players) {
      add(center, h("div.msg", t("waiting_players")));
      if (table.invite_code) {
        add(center, h("div.msg.small", t("invite_share", { code: table.invite_code })),
          h("button.btn.small", { type: "button", "data-action": "copy-invite-center",
            onclick: () => this.copyInvite(table.invite_code) }, icon("link", 14), t("copy_link")));
      }
      // (only its creator calls in bots: the friend he invited was offered a button the server refuses)
      if (table.private && !spectating && table.created_by === table.seats[this.you]?.user_id) {
        add(center, h("button.btn.primary", { type: "button", "data-action": "fill-bots",
          onclick: () => conn.send({ type: "fill_bots", table: table.id }) }, t("add_bots")));
      }
      return;
    }
    const ready = this.readyList();
    if (ready && this.you !== null && !spectating && !document.getElementById("settlement")) {
      if (ready[this.you] === false) {
        add(center, h("button.btn.primary.big", { type: "button", "data-action": "ready",
          onclick: () => this.sendReady() }, t("ready")), h("div.msg.small.ready-left"));
      } else if (ready[this.you]) {
        add(center, h("div.msg.small", t("ready_wait")));
      }
    } else if (!ready && this.between() && state && filled === table.players) {
      add(center, h("div.msg.small", t("next_deal")));
    }
  }

  sendReady() {
    const table = this.model?.table;
    if (!table) return;
    conn.send({ type: "ready", table: table.id });
    sound.play("ready");
  }

  renderTools() {
    const { state, spectating } = this.model;
    const tools = h("div");  // morphed in: 托管 stays the same button while the bots play (a click across a message)
    if (this.live && !spectating && this.you !== null) this.fillTools(tools, state);
    morph(this.toolsShell, tools);
  }

  fillTools(tools, state) {
    if (state && state.observation?.phase !== "over") {
      const auto = this.inAutoplay();
      add(tools, h("button.btn.small", {
        type: "button", "data-action": "autoplay", class: auto ? "warn" : "ghost", disabled: !!this.model.takenOver,
        onclick: () => this.toggleAutoplay(),
      }, auto ? t("auto_off") : t("auto_on")));
    }
    add(tools, h("button.btn.small.ghost", { type: "button", "data-action": "chat", "aria-expanded": this.chatPop.hidden ? "false" : "true",
      onclick: () => this.toggleChat() }, icon("chat", 16), t("chat")));
  }

  toggleAutoplay() {
    const st = this.model.state;
    if (!st || st.you === null) return;
    conn.send({ type: "autoplay", table: st.table, on: !st.autoplay[st.you] });
  }

  // ------------------------------------------------------------------------------------------ chat
  toggleChat(open) {
    const show = open ?? this.chatPop.hidden;
    if (!show) {
      const inside = this.chatPop.contains(document.activeElement);
      this.chatPop.hidden = true;
      this.renderTools();
      // the focus was in the closed list: back to 快捷语 (it fell to the page)
      if (inside) this.actions.querySelector('.act-tools [data-action="chat"]')?.focus({ preventScroll: true });
      return;
    }
    const cool = performance.now() - this.lastChatSent < CHAT_COOLDOWN;
    fill(this.chatPop,
      h("div.chat-head", t("chat_title")),
      h("div.phrases", PHRASES.map((p) => h("button.btn.small.ghost", { type: "button", "data-phrase": p, disabled: cool,
        onclick: () => this.sendChat(p) }, phraseText(p)))),
      h("div.emotes", EMOTES.map((p) => h("button.emote", { type: "button", "data-phrase": p, disabled: cool,
        "aria-label": phraseText(p), title: phraseText(p), onclick: () => this.sendChat(p) }, icon(p, 30)))));
    this.chatPop.hidden = false;
    // as tall as the room between the site's bar and the buttons' row, scrolled within past that (a phone held
    // sideways: its first phrases lay under the bar)
    const bar = document.getElementById("topbar")?.getBoundingClientRect().bottom ?? 0;
    this.chatPop.style.maxHeight = `${Math.max(120, Math.floor(this.actions.getBoundingClientRect().top - bar - 12))}px`;
    this.renderTools();
  }

  sendChat(phrase) {
    const table = this.model?.table;
    if (!table) return;
    if (performance.now() - this.lastChatSent < CHAT_COOLDOWN) return;
    this.lastChatSent = performance.now();
    conn.send({ type: "chat", table: table.id, phrase });
    this.toggleChat(false);
  }

  /** A chat message from the server: a bubble by the seat for a few seconds (``shown``: for the rest of them,
   * silently — a phrase said just before the table was drawn). */
  showChat(seat, phrase, shown = 0) {
    const pos = seat === this.you ? "bottom" : this.pos(seat);
    const emote = isEmote(phrase);
    const el = h("div.chat-bubble", { dataset: { seat, pos, phrase }, class: emote ? "emote" : undefined, title: phraseText(phrase) },
      h("b.who", this.seatName(seat)), emote ? icon(phrase, 40) : h("span.said-text", phraseText(phrase)));
    for (const old of this.chatLayer.querySelectorAll(`.chat-bubble[data-seat="${seat}"]`)) old.remove();
    add(this.chatLayer, el);
    if (!shown) sound.play("chat");
    setTimeout(() => el.remove(), CHAT_SHOWN - shown);
  }

  /** The phrases said at the table in the last few seconds, before it was drawn (the page was elsewhere). */
  showRecentChats(chats) {
    const now = performance.now();
    for (const c of chats) if (now - c.at < CHAT_SHOWN - 300) this.showChat(c.seat, c.phrase, now - c.at);
  }

  // ------------------------------------------------------------------------------------------ timers
  updateTimers() {
    if (!this.live || !this.model) return;
    const st = this.model.state;
    const els = this.el.querySelectorAll(".timer");
    const acting = this.clockSeats();
    let left = null;
    if (st && st.deadline_ms !== null && st.deadline_ms !== undefined) {
      left = Math.max(0, Math.ceil((st.deadline_ms - (performance.now() - (this.model.stateAt || 0))) / 1000));
    }
    for (const el of els) {
      const seat = Number(el.dataset.seat);
      if (!acting.includes(seat)) {
        el.textContent = "";
        el.classList.remove("on", "low");
        continue;
      }
      el.classList.add("on");
      if (left === null) {
        el.textContent = "…";
        el.classList.remove("low");
      } else {
        el.textContent = String(left);
        el.classList.toggle("low", left <= 5);
      }
    }
    if (left !== null && left <= 5 && left > 0 && this.myTurn() && acting.includes(this.you) && left !== this.lastTick) {
      this.lastTick = left;
      sound.play("tick");
    }
    this.view.tick?.();
    const rl = this.el.querySelector(".ready-left");
    const table = this.model.table;
    if (rl && table?.ready_deadline_ms !== null && table?.ready_deadline_ms !== undefined) {
      const at = store.tableAt || performance.now();
      const secs = Math.max(0, Math.ceil((table.ready_deadline_ms - (performance.now() - at)) / 1000));
      rl.textContent = t("ready_in", { n: secs });
    }
  }

  // ------------------------------------------------------------------------------------------ dialogs
  settlementLifecycle() {
    const over = store.dealOver;
    const open = document.getElementById("settlement");
    if (open && open.dataset.deal && over && open.dataset.deal !== String(over.deal)) open._close?.();
    if (open && !over && open.dataset.live === "1") open._close?.();
    if (over && !store.dismissed.has(over.deal) && !document.getElementById("settlement")) {
      this.showSettlement({ deal: over.deal, outcome: over.outcome, changes: over.changes }, { live: true });
    }
    const dlg = document.getElementById("settlement");
    if (dlg) this.readyButtons(dlg);
  }

  /** The settlement's 准备 button shows where the table has a ready step and the player is not ready yet;
   * 继续 otherwise. */
  readyButtons(dlg) {
    const ready = dlg.querySelector('[data-action="ready"]');
    const cont = dlg.querySelector('[data-action="continue"]');
    if (!ready || !cont) return;
    const table = this.model?.table;
    const has = !!table && "ready" in table && dlg.dataset.live === "1";
    const mine = this.readyList()?.[this.you];
    ready.hidden = !has || mine === true;
    cont.hidden = !ready.hidden;
  }

  showSettlement(result, { live = false } = {}) {
    const content = this.view.settlement(result, this.model);
    // a server with the ready step (准备) has ``ready`` in its table view (null while a deal runs): the live
    // settlement then readies the player; both buttons are made and the lifecycle shows the one that applies
    const buttons = [];
    if (live && this.you !== null && !this.model.spectating) {
      buttons.push({ text: t("ready"), primary: true, action: "ready", onClick: () => this.sendReady() });
    }
    buttons.push({ text: t("continue"), primary: true, action: "continue" });
    const head = h("div.settle-head", { class: content.cls || undefined }, h("span.big", content.title || t("settlement")),
      content.sub ? h("span.sub", content.sub) : null);
    const m = modal({ id: "settlement", title: t("settlement"), body: h("div.settle", { class: content.cls || undefined }, head, content.body),
      wide: true, buttons, onClose: () => {
        if (store.redrawing || this.destroyed) return;
        store.dismissed.add(result.deal);
        this.renderCenter();
      } });
    m.el.dataset.deal = result.deal;
    m.el.dataset.live = live ? "1" : "0";
    this.readyButtons(m.el);
    if (live && store.soundedDeal !== result.deal) {
      store.soundedDeal = result.deal;
      if (content.cls === "win") sound.play("win");
      else if (content.cls === "lose") sound.play("lose");
    }
    return m;
  }

  showResult() {
    const r = this.model.lastResult;
    if (!r) {
      modal({ id: "settlement", title: t("result"), body: h("p.muted", t("no_result")) });
      return;
    }
    this.showSettlement(r);
  }

  showHistory() {
    const table = this.model.table;
    const results = table?.results || [];
    const body = h("div.history");
    if (!results.length) {
      add(body, h("p.muted", t("no_history")));
    } else {
      const n = table.players;
      const totals = new Array(n).fill(0);
      const names = results[results.length - 1].players;
      // (another registered player's name leads to his profile: one who left the table is named nowhere else here)
      const head = h("tr", h("th", "#"), names.map((nm) => h("th", nm && nm !== store.user?.name && hasProfile(nm)
        ? playerLink(nm) : displayName(nm) || "—")));
      const rows = results.map((r) => {
        r.scores.forEach((s, i) => { totals[i] += s; });
        const esc = r.escaped ?? store.escapes[r.deal];
        return h("tr", { dataset: { deal: r.deal } }, h("td", t("deal_n", { n: r.deal_index + 1 })),
          r.scores.map((s, i) => h("td", { class: s > 0 ? "pos" : s < 0 ? "neg" : undefined, dataset: esc === i ? { escaped: "1" } : undefined },
            fmtDelta(s), esc === i ? h("span.badge.off.esc", t("escape_mark")) : null)));
      });
      const foot = h("tr.total", h("td", "Σ"), totals.map((s) => h("td", { class: s > 0 ? "pos" : s < 0 ? "neg" : undefined }, fmtDelta(s))));
      add(body, h("table.grid", h("thead", head), h("tbody", rows, foot)));
    }
    modal({ id: "history-dialog", title: t("history"), body });
  }

  leave() {
    const { table, state, spectating } = this.model;
    if (!table) return;
    if (spectating) {
      conn.send({ type: "unspectate", table: table.id });
      return;
    }
    const running = state && state.observation.phase !== "over";
    // at a match table leaving is a disconnection, never an escape (RULES-matches §4, §6.2): the seat plays in
    // auto-play to the table's end, between deals too, so the player is always asked, in those words
    const match = this.matchTable();
    if (!running && !match) {
      conn.send({ type: "leave", table: table.id });
      return;
    }
    modal({
      id: "leave-dialog",
      title: t("leave"),
      body: h("p", t(match ? "leave_confirm_match" : "leave_confirm")),
      buttons: [
        { text: t("cancel") },
        { text: t("leave_ok"), danger: true, action: "confirm-leave", onClick: () => conn.send({ type: "leave", table: table.id }) },
      ],
    });
  }

  // ------------------------------------------------------------------------------------------ input
  sendAction(action) {
    const st = this.model?.state;
    if (!st) return null;
    const msg = { type: "action", table: st.table, deal: st.deal, version: st.version, action };
    if (st.decision !== null && st.decision !== undefined) msg.decision = st.decision;
    const id = conn.send(msg);
    if (id === null) toast(() => t("net_offline"), "error", 3000, "net");
    return id;
  }

  key(e) {
    // the browser's own (Ctrl+P printed and sent 不出) and what a focused element does with the key
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest && e.target.closest("input, textarea, select")) return;
    // Enter or Space on a button or link the keyboard moved to is that button's (Enter on 不出 played the raised
    // cards); on a button just clicked, Enter is still 出牌
    if ((e.key === "Enter" || e.key === " ") && e.target.closest?.("button, a[href], [role=button], summary")
        && !e.target.__byPointer) return;
    if (document.querySelector(".backdrop")) return;
    if (e.key === "Escape" && !this.chatPop.hidden) {
      this.toggleChat(false);
      return;
    }
    // in the open quick chat (a menu) the keys are its own: the arrows move along its phrases (they raised cards
    // behind it and moved the hand's ring), other keys pick nothing
    if (!this.chatPop.hidden && this.chatPop.contains(e.target)) {
      const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[e.key];
      if (step) {
        e.preventDefault();
        const items = [...this.chatPop.querySelectorAll("button:not([disabled])")];
        const at = items.indexOf(e.target.closest("button"));
        items[(at + step + items.length) % items.length]?.focus();
      }
      return;
    }
    this.view.key?.(e);
  }

  clearPending() {
    this.view.clearPending?.();
  }
}
