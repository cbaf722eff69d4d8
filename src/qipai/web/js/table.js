// The card table: seats, hand, plays, bidding and playing controls, dialogs.  One TableView draws a live table
// (mode "live") or a step of a replay (mode "replay", read-only).
import { h, add, fill, clear, api, modal, toast, fmtDelta } from "./util.js";
import { t, presetName, kindName, factorName, parseFactor } from "./i18n.js";
import { cardEl, playEl, sortHand, rankText, parsePlay, orderHints, rankOf } from "./cards.js";
import { conn } from "./conn.js";

const DOUBLE_NAMES = ["倒", "反", "斡", "垒"];
const DOUBLE_KEYS = { 倒: "dao", 反: "fan", 斡: "wo", 垒: "lei" };

/** Per seat, what it last said or played in the current part of the deal (bids, doubling, the trick). */
export function seatActs(obs) {
  const n = obs.players;
  let out = new Array(n).fill(null);
  for (const ev of obs.history || []) {
    switch (ev.event) {
      case "deal":
      case "redeal":
      case "landlord":
      case "start_play":
      case "trick":
        out = new Array(n).fill(null);
        break;
      case "bid":
        out[ev.seat] = { bid: ev.value };
        break;
      case "double":
        out[ev.seat] = { double: ev.name };
        break;
      case "show":
        out[ev.seat] = { show: true };
        break;
      case "play":
        out[ev.seat] = { play: ev.move, kind: ev.kind };
        break;
      case "pass":
        out[ev.seat] = { pass: true };
        break;
      default:
        break;
    }
  }
  return out;
}

function handKeys(hand) {
  const seen = {};
  return hand.map((c) => {
    seen[c] = (seen[c] || 0) + 1;
    return `${c}#${seen[c]}`;
  });
}

/** Whether the table bids by calling the landlord (叫地主) rather than by score (叫分). */
function isCalling(obs, table) {
  const o = table?.options || {};
  if (o.bidding) return o.bidding === "call";
  return ["cantonese", "chengdu"].includes(o.preset || obs?.preset);
}

function seatName(table, seat) {
  const s = table?.seats?.[seat];
  return s ? s.name : t("empty_seat");
}

export class TableView {
  constructor(root, { mode = "live" } = {}) {
    this.root = root;
    this.mode = mode;
    this.live = mode === "live";
    this.model = null;
    this.sortMode = localStorage.getItem("qipai.sort") || "rank";
    this.raised = new Set();
    this.handSig = "";
    this.handCards = []; // display order: [{card, key}]
    this.hintIdx = 0;
    this.hintFor = "";
    this.checkCache = new Map();
    this.pending = null;
    this.stateAt = 0;
    this.lastStateRef = null;
    this.build();
    this.tick = setInterval(() => this.updateTimers(), 250);
    this.onKey = (e) => this.key(e);
    this.onResize = () => this.layoutHand();
    if (this.live) document.addEventListener("keydown", this.onKey);
    window.addEventListener("resize", this.onResize);
  }

  destroy() {
    clearInterval(this.tick);
    clearTimeout(this.dlgTimer);
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.onResize);
    document.getElementById("settlement")?._close?.();
  }

  // ------------------------------------------------------------------------------------------ skeleton
  build() {
    clear(this.root);
    this.el = h("div.tablev", { class: this.live ? "live" : "replay" });
    this.tbar = h("div.tbar");
    this.tinfo = h("div.tinfo");
    this.kittyBox = h("div.kitty-box");
    this.multBox = h("div.mult-box");
    this.tmenu = h("div.tmenu");
    add(this.tbar, this.tinfo, this.kittyBox, this.multBox, this.tmenu);
    this.felt = h("div.felt");
    this.seatLayer = h("div.seat-layer");
    this.centerMsg = h("div.center-msg");
    this.myPlay = h("div.myplay");
    add(this.felt, this.seatLayer, this.centerMsg, this.myPlay);
    this.mebar = h("div.mebar");
    this.actions = h("div.actions");
    this.handEl = h("div.hand", { "aria-label": "hand" });
    add(this.el, this.tbar, this.felt, this.mebar, this.actions, this.handEl);
    add(this.root, this.el);
    if (this.live) {
      this.installMouse();
      this.el.addEventListener("contextmenu", (e) => {
        if (e.target.closest("input, textarea, .dialog")) return;
        e.preventDefault();
        this.playSelected("mouse");
      });
      this.el.addEventListener("click", (e) => {
        // the click that ends a press on the hand (a drag ends over the hand, which holds the pointer capture)
        if (this.justPressed && e.target.closest(".hand")) {
          this.justPressed = false;
          return;
        }
        if (e.target.closest(".hand .card, button, a, input, select, .dialog")) return;
        this.lowerAll();
      });
    }
  }

  // ------------------------------------------------------------------------------------------ model
  /** model: {table, state, lastResult, dealOver, spectating, user} */
  update(model) {
    this.model = model;
    const st = model.state;
    if (st !== this.lastStateRef) {
      this.lastStateRef = st;
      this.stateAt = performance.now();
      if (this.pending && (!st || st.version !== this.pending.version || st.deal !== this.pending.deal)) {
        this.pending = null;
      }
    }
    const obs = st?.observation || null;
    const table = model.table;
    const n = table?.players || obs?.players || 3;
    const you = st ? st.you : table ? table.you : null;
    this.n = n;
    this.you = you;
    this.base = you ?? 0;
    const e = this.el;
    e.dataset.players = n;
    e.dataset.table = table?.id || "";
    e.dataset.deal = st?.deal ?? "";
    e.dataset.version = st?.version ?? "";
    e.dataset.phase = obs?.phase || (table?.status === "waiting" ? "waiting" : "");
    e.dataset.you = you ?? "";
    e.dataset.toAct = st?.to_act ?? "";
    e.dataset.myTurn = this.myTurn() ? "1" : "0";
    e.dataset.autoplay = this.inAutoplay() ? "1" : "0";
    this.renderTop();
    this.renderSeats();
    this.renderMe();
    this.renderHand();
    this.renderActions();
    this.renderCenter();
    this.updateTimers();
    // the last deal's settlement gives way when the next deal needs this player (after a few seconds to read it)
    const dlg = document.getElementById("settlement");
    if (dlg && st && dlg.dataset.deal !== String(st.deal) && this.myTurn() && obs.phase !== "over") {
      const left = 6000 - (performance.now() - Number(dlg.dataset.opened || 0));
      if (left <= 0) dlg._close();
      else {
        clearTimeout(this.dlgTimer);
        this.dlgTimer = setTimeout(() => this.model && this.update(this.model), left + 50);
      }
    }
  }

  obs() {
    return this.model?.state?.observation || null;
  }

  myTurn() {
    const st = this.model?.state;
    return !!(this.live && st && st.you !== null && st.to_act === st.you && st.legal && st.legal.length
      && st.observation.phase !== "over");
  }

  inAutoplay() {
    const st = this.model?.state;
    return !!(st && st.you !== null && st.autoplay && st.autoplay[st.you]);
  }

  pos(seat) {
    const rel = (seat - this.base + this.n) % this.n;
    if (rel === 0) return "bottom";
    if (this.n === 3) return rel === 1 ? "right" : "left";
    return ["bottom", "right", "top", "left"][rel];
  }

  // ------------------------------------------------------------------------------------------ top bar
  renderTop() {
    const { table } = this.model;
    const obs = this.obs();
    const opts = table?.options || {};
    fill(this.tinfo, 
      h("span.preset", presetName(opts.preset || obs?.preset)),
      h("span.stake", `${t("stake")} ${opts.stake ?? 1}`),
      table?.invite_code ? h("span.invite", { title: t("invite_code") }, `${t("invite_code")} `, h("b.code", table.invite_code)) : null,
      this.model.spectating && this.live ? h("span.badge.watch", t("spectating")) : null,
    );
    clear(this.kittyBox);
    if (obs) {
      const kittyN = obs.players === 4 ? 8 : 3;
      const cards = h("div.kitty-cards");
      if (obs.kitty) for (const c of obs.kitty) add(cards, cardEl(c, { size: "xs" }));
      else for (let i = 0; i < kittyN; i++) add(cards, cardEl("", { size: "xs", back: true }));
      add(this.kittyBox, h("span.lbl", t("kitty")), cards);
      if (obs.face_up && obs.phase === "bid") {
        add(this.kittyBox, h("span.lbl", t("face_up")), h("div.kitty-cards", cardEl(obs.face_up, { size: "xs" })));
      }
    }
    clear(this.multBox);
    if (obs) {
      const factors = (obs.factors || []).map(parseFactor);
      add(this.multBox, 
        h("span.m", t("base"), " ", h("b.bid", obs.bid ? String(obs.bid) : "—")),
        h("span.m", t("multiplier"), " ", h("b.mult", "×" + (obs.multiplier ?? 1))),
        factors.length ? h("span.factors", factors.map((f) => h("span.chip", `${factorName(f.name)} ×${f.factor}`))) : null,
      );
      const you = this.you;
      if (you !== null && obs.farmer_factors && obs.farmer_factors[you] > 1 && obs.landlord !== you) {
        add(this.multBox, h("span.chip.dbl", `${DOUBLE_NAMES.filter((d) => (obs.doubling || []).some((x) => x.seat === you && x.name === d)).join("")} ×${obs.farmer_factors[you]}`));
      }
      if (obs.redeals) add(this.multBox, h("span.chip.redeal", t("redeal_n", { n: obs.redeals })));
    }
    clear(this.tmenu);
    if (this.live) {
      add(this.tmenu, 
        h("button.btn.small.ghost", { type: "button", "data-action": "prev-trick", onclick: () => this.showPrevTrick() }, t("prev_trick")),
        h("button.btn.small.ghost", { type: "button", "data-action": "history", onclick: () => this.showHistory() }, t("history")),
        h("button.btn.small.ghost", { type: "button", "data-action": "result", onclick: () => this.showResult() }, t("result")),
        h("button.btn.small.ghost.leave", { type: "button", "data-action": "leave", onclick: () => this.leave() },
          this.model.spectating ? t("stop_watching") : t("leave")),
      );
    }
  }

  // ------------------------------------------------------------------------------------------ seats
  seatBox(seat, acts) {
    const { table, state } = this.model;
    const obs = this.obs();
    const s = table?.seats?.[seat] || null;
    const pos = this.pos(seat);
    const box = h("div.seat", { dataset: { seat, pos } });
    if (!s && !obs) {
      box.classList.add("empty");
      add(box, h("div.avatar", "?"), h("div.sinfo", h("div.sname", t("empty_seat"))));
      return box;
    }
    const name = s ? s.name : `#${seat + 1}`;
    const isLandlord = obs && obs.landlord === seat;
    const badges = h("div.badges");
    if (obs && obs.landlord !== null && obs.landlord !== undefined) {
      add(badges, h("span.badge.role", { class: isLandlord ? "landlord" : "farmer" }, t(isLandlord ? "landlord" : "farmer")));
    }
    if (state?.autoplay?.[seat]) add(badges, h("span.badge.auto", t("autoplay_badge")));
    if (s && s.bot) add(badges, h("span.badge.bot", t("bot_badge")));
    if (s && !s.connected) add(badges, h("span.badge.off", t("offline_badge")));
    if (s && s.leaving) add(badges, h("span.badge.off", t("leaving_badge")));
    const avatar = h("div.avatar", { class: isLandlord ? "lord" : undefined }, (name || "?").slice(0, 1).toUpperCase());
    if (isLandlord) add(avatar, h("span.hat", "♛"));
    const info = h("div.sinfo", h("div.sname", { title: name }, name), badges);
    add(box, avatar, info);
    if (obs) {
      const cnt = obs.card_counts[seat];
      add(box, h("div.count", { title: t("cards_n", { n: cnt }) }, h("span.mini-back"), h("b", String(cnt))));
      if (cnt > 0 && cnt <= 2 && obs.phase === "play") box.classList.add("warn");
    }
    if (state && state.to_act === seat && obs && obs.phase !== "over") {
      box.classList.add("active");
      add(box, h("div.timer", { dataset: { seat } }));
    }
    add(box, this.saidEl(acts?.[seat], obs, seat));
    // face-up cards: a shown hand (亮牌) or every hand once the deal is over
    let faceUp = null;
    if (obs?.hands && obs.phase === "over") faceUp = obs.hands[seat];
    else if (obs?.shown_hand && obs.landlord === seat && seat !== this.you) faceUp = obs.shown_hand;
    if (faceUp && faceUp.length && seat !== this.you) {
      const row = h("div.shown");
      for (const c of sortHand(faceUp, "rank")) add(row, cardEl(c, { size: "xs" }));
      add(box, row);
    }
    return box;
  }

  saidEl(act, obs, seat) {
    const el = h("div.said", { dataset: { seat } });
    if (!act || !obs) return el;
    if (act.play) {
      el.classList.add("has-play");
      add(el, playEl(act.play, "sm"));
      if (act.kind && !["single", "pair", "triple"].includes(act.kind)) add(el, h("span.kind", kindName(act.kind)));
      return el;
    }
    let text = "";
    if (act.pass) text = t("said_pass");
    else if (act.bid !== undefined) {
      text = act.bid === 0 ? t("bid_pass") : isCalling(obs, this.model.table) ? t("call") : t("bid_n", { n: act.bid });
    } else if (act.double) {
      text = act.double === "pass" ? t("said_no_double") : t("double_" + (DOUBLE_KEYS[act.double] || "dao"));
    } else if (act.show) text = t("said_show");
    if (text) add(el, h("span.bubble", text));
    return el;
  }

  renderSeats() {
    clear(this.seatLayer);
    const obs = this.obs();
    const acts = obs ? seatActs(obs) : null;
    this.acts = acts;
    for (let seat = 0; seat < this.n; seat++) {
      if (seat === this.you) continue;
      add(this.seatLayer, this.seatBox(seat, acts));
    }
    clear(this.myPlay);
    if (this.you !== null && acts) add(this.myPlay, this.saidEl(acts[this.you], obs, this.you));
  }

  renderMe() {
    clear(this.mebar);
    const { table, state, user } = this.model;
    const obs = this.obs();
    const you = this.you;
    if (you === null || you === undefined) return;
    const s = table?.seats?.[you];
    const name = s?.name || user?.name || "";
    const badges = [];
    if (obs && obs.landlord !== null && obs.landlord !== undefined) {
      const lord = obs.landlord === you;
      badges.push(h("span.badge.role", { class: lord ? "landlord" : "farmer" }, t(lord ? "landlord" : "farmer")));
    }
    if (state?.autoplay?.[you]) badges.push(h("span.badge.auto", t("autoplay_badge")));
    add(this.mebar, 
      h("div.me-info", { dataset: { seat: you } },
        h("div.avatar.me-av", { class: obs && obs.landlord === you ? "lord" : undefined }, name.slice(0, 1).toUpperCase()),
        h("span.sname", name), ...badges,
        user && this.live ? h("span.pts", `${user.points} ${t("points_short")}`) : null,
        obs ? h("span.count-me", t("cards_n", { n: obs.card_counts[you] })) : null),
      h("div.turn-line", this.myTurn() ? h("span.yourturn", t("your_turn")) : null,
        h("div.timer.me-timer", { dataset: { seat: you } })),
      h("div.reason", { id: "play-reason", "aria-live": "polite" }),
    );
  }

  renderCenter() {
    clear(this.centerMsg);
    const { table, state } = this.model;
    const obs = this.obs();
    if (!this.live) return;
    if (!table) return;
    if (!state || !obs) {
      if (table.status === "waiting") {
        const filled = table.seats.filter(Boolean).length;
        add(this.centerMsg, h("div.msg", filled < table.players ? t("waiting_players") : t("next_deal")));
        if (table.invite_code && filled < table.players) {
          add(this.centerMsg, h("div.msg.small", t("invite_share", { code: table.invite_code })));
        }
        if (table.private && filled < table.players && !this.model.spectating) {
          add(this.centerMsg, h("button.btn.primary", { type: "button", "data-action": "fill-bots", onclick: () => {
            conn.send({ type: "fill_bots", table: table.id });
          } }, t("add_bots")));
        }
      }
      return;
    }
    if (obs.phase === "over" && this.model.dealOver) {
      add(this.centerMsg, h("div.msg", t("phase_over")), h("div.msg.small", t("next_deal")));
    } else if (obs.phase === "bid" || obs.phase === "double" || obs.phase === "show") {
      const key = obs.phase === "bid" ? (isCalling(obs, table) ? "phase_call" : "phase_bid") : "phase_" + obs.phase;
      add(this.centerMsg, h("div.msg.phase", t(key)));
    }
    if (this.inAutoplay()) add(this.centerMsg, h("div.msg.small.auto", t("auto_on_msg")));
  }

  updateTimers() {
    if (!this.live) return;
    const st = this.model?.state;
    const els = this.el.querySelectorAll(".timer");
    if (!st) return;
    const obs = st.observation;
    let left = null;
    if (st.deadline_ms !== null && st.deadline_ms !== undefined) {
      left = Math.max(0, Math.ceil((st.deadline_ms - (performance.now() - this.stateAt)) / 1000));
    }
    for (const el of els) {
      const seat = Number(el.dataset.seat);
      if (seat !== st.to_act || obs.phase === "over") {
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
  }

  // ------------------------------------------------------------------------------------------ hand
  renderHand() {
    const obs = this.obs();
    const hand = obs?.hand || [];
    const sig = this.sortMode + "|" + hand.join(",");
    if (sig === this.handSig) {
      this.paintRaised();
      return;
    }
    const sameCards = this.handSig.split("|")[1] === hand.join(",");
    this.handSig = sig;
    const keys = handKeys(hand);
    const byCard = hand.map((c, i) => ({ card: c, key: keys[i] }));
    const order = sortHand(hand, this.sortMode);
    const used = new Set();
    this.handCards = order.map((c) => {
      const x = byCard.find((y) => y.card === c && !used.has(y.key));
      used.add(x.key);
      return x;
    });
    if (!sameCards) {
      const present = new Set(keys);
      for (const k of [...this.raised]) if (!present.has(k)) this.raised.delete(k);
      if (this.raised.size && hand.length !== this.prevHandLen) this.raised.clear();
    }
    this.prevHandLen = hand.length;
    clear(this.handEl);
    this.handCards.forEach((x, i) => {
      const el = cardEl(x.card);
      el.dataset.i = i;
      el.dataset.key = x.key;
      add(this.handEl, el);
    });
    this.handEl.classList.toggle("readonly", !this.live || this.model.spectating);
    this.layoutHand();
    this.paintRaised();
  }

  layoutHand() {
    const cards = this.handEl.children;
    const n = cards.length;
    if (!n) return;
    const width = this.handEl.clientWidth - 16;
    const cw = cards[0].offsetWidth || 70;
    const maxStep = cw * 0.52;
    const step = n > 1 ? Math.max(8, Math.min(maxStep, (width - cw) / (n - 1))) : 0;
    this.handEl.style.setProperty("--step", step + "px");
    this.handEl.style.setProperty("--overlap", (step - cw) + "px");
  }

  paintRaised() {
    for (const el of this.handEl.children) el.classList.toggle("raised", this.raised.has(el.dataset.key));
    this.renderActions();
  }

  selectedCards() {
    return this.handCards.filter((x) => this.raised.has(x.key)).map((x) => x.card);
  }

  lowerAll() {
    if (!this.raised.size) return;
    this.raised.clear();
    this.paintRaised();
  }

  raiseOnly(cards) {
    this.raised.clear();
    const need = [...cards];
    for (const x of this.handCards) {
      const i = need.indexOf(rankOf(x.card));
      if (i >= 0) {
        this.raised.add(x.key);
        need.splice(i, 1);
      }
    }
    this.paintRaised();
  }

  cardIndexAt(clientX) {
    const cards = [...this.handEl.children];
    for (let i = cards.length - 1; i >= 0; i--) {
      const r = cards[i].getBoundingClientRect();
      if (clientX >= r.left && clientX <= r.right) return i;
    }
    return -1;
  }

  /** Mouse and touch on the hand (RULES.md §9): click/tap raises or lowers a card; press and drag (swipe)
   * over several cards raises them all (or lowers them all when they are all raised already). */
  installMouse() {
    this.drag = null;
    this.justPressed = false;
    this.el.addEventListener("pointerdown", () => { this.justPressed = false; }, true);
    const hand = this.handEl;
    hand.addEventListener("pointerdown", (e) => {
      if (this.model?.spectating) return;
      if (e.pointerType === "mouse" && e.button !== 0) return;
      const cardEl = e.target.closest(".card");
      if (!cardEl) return;
      e.preventDefault();
      const i = Number(cardEl.dataset.i);
      this.drag = { start: i, cur: i, id: e.pointerId, moved: false };
      try { hand.setPointerCapture(e.pointerId); } catch { /* synthetic pointer */ }
      this.paintDrag();
    });
    hand.addEventListener("pointermove", (e) => {
      const d = this.drag;
      if (!d || e.pointerId !== d.id) return;
      const i = this.cardIndexAt(e.clientX);
      if (i >= 0 && i !== d.cur) {
        d.cur = i;
        d.moved = d.moved || i !== d.start;
        this.paintDrag();
      }
    });
    const finish = (e, cancel) => {
      const d = this.drag;
      if (!d || e.pointerId !== d.id) return;
      this.drag = null;
      this.justPressed = true;
      for (const el of hand.children) el.classList.remove("dragging");
      if (cancel) return;
      const lo = Math.min(d.start, d.cur), hi = Math.max(d.start, d.cur);
      const keys = this.handCards.slice(lo, hi + 1).map((x) => x.key);
      if (!d.moved) {
        const k = keys[0];
        if (this.raised.has(k)) this.raised.delete(k);
        else this.raised.add(k);
      } else if (keys.every((k) => this.raised.has(k))) {
        for (const k of keys) this.raised.delete(k);
      } else {
        for (const k of keys) this.raised.add(k);
      }
      this.paintRaised();
    };
    hand.addEventListener("pointerup", (e) => finish(e, false));
    hand.addEventListener("pointercancel", (e) => finish(e, true));
  }

  paintDrag() {
    const d = this.drag;
    const lo = Math.min(d.start, d.cur), hi = Math.max(d.start, d.cur);
    [...this.handEl.children].forEach((el, i) => el.classList.toggle("dragging", i >= lo && i <= hi));
  }

  // ------------------------------------------------------------------------------------------ actions
  legal() {
    return this.model?.state?.legal || [];
  }

  plays() {
    return this.legal().filter((a) => a.startsWith("play ")).map(parsePlay);
  }

  /** {ok, reason, matches} for the raised cards. */
  judge() {
    const sel = this.selectedCards();
    if (!this.myTurn() || this.obs()?.phase !== "play") return { ok: false, reason: "reason_not_turn", matches: [] };
    if (!sel.length) return { ok: false, reason: "reason_empty", matches: [] };
    const ranks = rankText(sel);
    const matches = this.plays().filter((p) => p.cards === ranks);
    if (matches.length) return { ok: true, reason: null, matches };
    const trick = this.obs().trick || {};
    const ck = `${ranks}|${trick.last || ""}|${trick.kind || ""}`;
    const got = this.checkCache.get(ck);
    if (got === undefined) {
      this.checkCache.set(ck, null);
      api("POST", "check", { cards: ranks, options: this.model.table?.options || { preset: this.obs().preset },
        last: trick.last || "", last_kind: trick.kind || null })
        .then((r) => {
          const reason = r.reason === "invalid" || r.reason === "too_low" || r.reason === "wrong_kind" ? "reason_" + r.reason : "reason_not_allowed";
          this.checkCache.set(ck, reason);
        })
        .catch(() => this.checkCache.set(ck, "reason_not_allowed"))
        .finally(() => this.renderActions());
      return { ok: false, reason: "reason_checking", matches: [] };
    }
    return { ok: false, reason: got || "reason_checking", matches: [] };
  }

  send(action) {
    const st = this.model.state;
    if (!st || this.pending) return;
    const id = conn.send({ type: "action", table: st.table, deal: st.deal, version: st.version, action });
    if (id === null) {
      toast(t("net_offline"), "error");
      return;
    }
    this.pending = { deal: st.deal, version: st.version, id };
    this.renderActions();
  }

  clearPending() {
    this.pending = null;
    this.renderActions();
  }

  playSelected(how) {
    if (!this.myTurn() || this.obs()?.phase !== "play") return;
    const j = this.judge();
    if (!j.ok) {
      const r = document.getElementById("play-reason");
      if (r) {
        r.textContent = t(j.reason);
        r.classList.remove("flash");
        void r.offsetWidth;
        r.classList.add("flash");
      }
      return;
    }
    if (j.matches.length === 1) {
      this.send("play " + j.matches[0].label);
      return;
    }
    const m = modal({
      id: "readings",
      title: t("choose_reading"),
      body: h("div.readings", j.matches.map((p) => h("button.btn.primary", { type: "button", onclick: () => {
        m.close();
        this.send("play " + p.label);
      } }, `${kindName(p.kind)}${p.main ? " · " + p.main : ""}`))),
      buttons: [{ text: t("cancel") }],
    });
    void how;
  }

  hint() {
    if (!this.myTurn() || this.obs()?.phase !== "play") return;
    const st = this.model.state;
    const sig = `${st.deal}:${st.version}`;
    if (sig !== this.hintFor) {
      this.hintFor = sig;
      this.hintIdx = 0;
      this.hints = orderHints(this.legal(), this.obs().hand);
    }
    if (!this.hints.length) {
      toast(t("no_bigger"));
      this.lowerAll();
      const b = this.actions.querySelector('[data-action="pass"]');
      b?.classList.add("pulse");
      return;
    }
    const p = this.hints[this.hintIdx % this.hints.length];
    this.hintIdx++;
    this.raiseOnly(p.cards.split(""));
  }

  toggleAutoplay() {
    const st = this.model.state;
    if (!st || st.you === null) return;
    conn.send({ type: "autoplay", table: st.table, on: !st.autoplay[st.you] });
  }

  toggleSort() {
    this.sortMode = this.sortMode === "rank" ? "count" : "rank";
    localStorage.setItem("qipai.sort", this.sortMode);
    this.handSig = "";
    this.renderHand();
  }

  actionLabel(a, obs) {
    if (obs.phase === "bid") {
      if (a === "pass") return t(isCalling(obs, this.model.table) ? "call_pass" : "bid_pass");
      if (a === "call") return t("call");
      const m = /^bid (\d)$/.exec(a);
      if (m) return t("bid_n", { n: m[1] });
    }
    if (obs.phase === "double") {
      const said = (obs.doubling || []).map((d) => d.name);
      const stage = this.legal().includes("redouble") ? (said.includes("斡") ? "lei" : "fan") : said.includes("反") ? "wo" : "dao";
      return a === "pass" ? t("double_pass_" + stage) : t("double_" + stage);
    }
    if (obs.phase === "show") return a === "show" ? t("show") : t("show_pass");
    return a;
  }

  renderActions() {
    if (!this.actions || !this.model) return;
    clear(this.actions);
    const obs = this.obs();
    const st = this.model.state;
    const main = h("div.act-main");
    const tools = h("div.act-tools");
    add(this.actions, main, tools);
    const reasonEl = document.getElementById("play-reason");
    if (reasonEl) reasonEl.textContent = "";
    if (!this.live || !obs || this.model.spectating) return;
    const busy = !!this.pending;
    if (this.myTurn() && obs.phase !== "play") {
      for (const a of this.legal()) {
        add(main, h("button.btn", {
          type: "button", class: a === "pass" ? "ghost" : "primary", "data-action": a, disabled: busy,
          onclick: () => this.send(a),
        }, this.actionLabel(a, obs)));
      }
    } else if (this.myTurn() && obs.phase === "play") {
      const canPass = this.legal().includes("pass");
      add(main, h("button.btn.ghost", {
        type: "button", "data-action": "pass", disabled: busy || !canPass,
        title: canPass ? "P" : t("must_lead"), onclick: () => this.send("pass"),
      }, t("pass"), h("kbd", "P")));
      add(main, h("button.btn", { type: "button", "data-action": "hint", onclick: () => this.hint(), title: "H" },
        t("hint"), h("kbd", "H")));
      const j = this.judge();
      const reason = j.ok ? "" : t(j.reason);
      add(main, h("button.btn.primary", {
        type: "button", "data-action": "play", disabled: busy || !j.ok, title: reason || "Enter",
        "data-reason": j.ok ? "" : j.reason, onclick: () => this.playSelected("button"),
      }, t("play"), h("kbd", "⏎")));
      if (reasonEl) reasonEl.textContent = reason;
      if (!this.plays().length && canPass && reasonEl && j.reason === "reason_empty") reasonEl.textContent = t("no_bigger");
    }
    if (st && st.you !== null && obs.phase !== "over") {
      const auto = this.inAutoplay();
      add(tools, h("button.btn.small", {
        type: "button", "data-action": "autoplay", class: auto ? "warn" : "ghost", onclick: () => this.toggleAutoplay(),
      }, auto ? t("auto_off") : t("auto_on")));
    }
    add(tools, h("button.btn.small.ghost", { type: "button", "data-action": "sort", onclick: () => this.toggleSort() }, t("sort")));
  }

  key(e) {
    if (e.target.closest && e.target.closest("input, textarea, select")) return;
    if (document.querySelector(".backdrop")) return;
    if (e.key === "Enter") {
      e.preventDefault();
      this.playSelected("key");
    } else if (e.key === "p" || e.key === "P") {
      if (this.myTurn() && this.legal().includes("pass") && this.obs().phase === "play") this.send("pass");
    } else if (e.key === "h" || e.key === "H") {
      this.hint();
    } else if (e.key === "Escape") {
      this.lowerAll();
    }
  }

  // ------------------------------------------------------------------------------------------ dialogs
  showPrevTrick() {
    const obs = this.obs();
    const trick = obs?.last_trick || [];
    const body = h("div.prev-trick");
    if (!trick.length) add(body, h("p.muted", t("no_prev_trick")));
    for (const [seat, move] of trick) {
      add(body, h("div.pt-row", h("span.pt-name", seatName(this.model.table, seat)), playEl(move, "sm")));
    }
    modal({ id: "prev-trick-dialog", title: t("prev_trick"), body });
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
      const head = h("tr", h("th", "#"), names.map((nm) => h("th", nm || "—")));
      const rows = results.map((r) => {
        r.scores.forEach((s, i) => { totals[i] += s; });
        return h("tr", h("td", t("deal_n", { n: r.deal_index + 1 })),
          r.scores.map((s) => h("td", { class: s > 0 ? "pos" : s < 0 ? "neg" : undefined }, fmtDelta(s))));
      });
      const foot = h("tr.total", h("td", "Σ"), totals.map((s) => h("td", { class: s > 0 ? "pos" : s < 0 ? "neg" : undefined }, fmtDelta(s))));
      add(body, h("table.grid", h("thead", head), h("tbody", rows, foot)));
    }
    modal({ id: "history-dialog", title: t("history"), body });
  }

  showResult() {
    const r = this.model.lastResult;
    if (!r) {
      modal({ id: "settlement", title: t("result"), body: h("p.muted", t("no_result")) });
      return;
    }
    showSettlement(r, this.model.table, this.you, this.model.state?.observation);
  }

  leave() {
    const { table, state, spectating } = this.model;
    if (!table) return;
    if (spectating) {
      conn.send({ type: "unspectate", table: table.id });
      return;
    }
    const running = state && state.observation.phase !== "over";
    if (!running) {
      conn.send({ type: "leave", table: table.id });
      return;
    }
    modal({
      id: "leave-dialog",
      title: t("leave"),
      body: h("p", t("leave_confirm")),
      buttons: [
        { text: t("cancel") },
        { text: t("leave_ok"), danger: true, action: "confirm-leave", onClick: () => conn.send({ type: "leave", table: table.id }) },
      ],
    });
  }
}

/** The settlement dialog: winner, each factor of the multiplier, each seat's score and points. */
export function showSettlement(result, table, you, obs) {
  const o = result.outcome || {};
  const changes = result.changes || [];
  const n = table?.players || changes.length || 3;
  let title;
  let cls = "";
  if (o.dissolved) title = t("dissolved");
  else if (you !== null && you !== undefined && o.scores) {
    const d = o.scores[you];
    title = d > 0 ? t("you_win") : d < 0 ? t("you_lose") : o.winner === "landlord" ? t("landlord_wins") : t("farmers_win");
    cls = d > 0 ? "win" : d < 0 ? "lose" : "";
  } else title = o.winner === "landlord" ? t("landlord_wins") : o.winner === "farmers" ? t("farmers_win") : t("settlement");
  const body = h("div.settle", { class: cls });
  add(body, h("div.settle-head", { class: cls },
    h("span.big", title),
    o.winner ? h("span.sub", o.winner === "landlord" ? t("landlord_wins") : t("farmers_win")) : null));
  if (o.escaped !== null && o.escaped !== undefined) {
    add(body, h("p.note", t("escaped", { name: seatName(table, o.escaped) })));
  }
  // the multiplier, factor by factor
  const fl = h("ul.factors");
  add(fl, h("li.factor", { dataset: { name: "base" } }, h("span", t("base_row", { stake: o.stake ?? 1, bid: o.bid ?? 0 })),
    h("b", String((o.stake ?? 1) * (o.bid ?? 0)))));
  for (const f of (o.factors || []).map(parseFactor)) {
    add(fl, h("li.factor", { dataset: { name: f.name } }, h("span", factorName(f.name) +
      (f.seat !== undefined && f.seat !== null ? ` · ${seatName(table, f.seat)}` : "")), h("b", "×" + f.factor)));
  }
  for (const [seat, list] of Object.entries(o.farmer_factors || {})) {
    for (const f of list.map(parseFactor)) {
      add(fl, h("li.factor.farmer", { dataset: { name: f.name } },
        h("span", `${factorName(f.name)} · ${seatName(table, Number(seat))}`), h("b", "×" + f.factor)));
    }
  }
  add(fl, h("li.factor.total", { dataset: { name: "total" } }, h("span", t("total_mult")), h("b", "×" + (o.multiplier ?? 1))));
  add(body, fl);
  // the seats
  const rows = [];
  for (let seat = 0; seat < n; seat++) {
    const c = changes.find((x) => x.seat === seat) || {};
    const lord = o.landlord === seat;
    const mult = lord ? o.multiplier : (o.seat_multipliers || {})[String(seat)] ?? o.multiplier;
    const delta = o.scores ? o.scores[seat] : c.delta;
    rows.push(h("tr", { class: seat === you ? "me" : undefined, dataset: { seat } },
      h("td", c.name || seatName(table, seat), o.autoplay && o.autoplay[seat] ? h("span.badge.auto", t("autoplay_note")) : null),
      h("td", o.landlord === null || o.landlord === undefined ? "" : t(lord ? "landlord" : "farmer")),
      h("td", mult !== undefined ? "×" + mult : ""),
      h("td.delta", { class: delta > 0 ? "pos" : delta < 0 ? "neg" : undefined }, fmtDelta(delta)),
      h("td", c.points ?? "—"),
      h("td", c.title ?? "")));
  }
  add(body, h("table.grid.settle-table", h("thead", h("tr", h("th", t("player")), h("th", t("role")),
    h("th", t("seat_mult")), h("th", t("delta")), h("th", t("points")), h("th", t("title_col")))), h("tbody", rows)));
  for (const p of o.payments || []) {
    if (p.paid !== p.owed) add(body, h("p.note", `${seatName(table, p.payer)} → ${seatName(table, p.payee)}: ${t("capped", { owed: p.owed, paid: p.paid })}`));
  }
  const flags = [];
  if (o.spring) flags.push(t("spring"));
  if (o.anti_spring) flags.push(t("anti_spring"));
  if (flags.length) add(body, h("p.flags", flags.map((f) => h("span.chip.big", f))));
  if (obs && obs.hands && you !== null && you !== undefined) {
    const mine = obs.hands[you] || [];
    if (mine.length) add(body, h("div.remaining", h("span", t("remaining")), h("div.kitty-cards", sortHand(mine, "rank").map((c) => cardEl(c, { size: "xs" })))));
  }
  const m = modal({ id: "settlement", title: t("settlement"), body, wide: true,
    buttons: [{ text: t("continue"), primary: true, action: "continue" }] });
  m.el.dataset.deal = result.deal;
  m.el.dataset.opened = String(performance.now());
  return m;
}

