// The Dou Dizhu table view: hand, plays, bidding and playing controls, kitty and multiplier, card counter
// (记牌器), 要不起, 报单/报双, motion and sound cues.  It fills the slots of the shell's table frame (see
// shell/games.js for the interface) and reads everything from the observation and the table's options.
import { h, add, fill, clear, morph, api, modal } from "../../shell/util.js";
import { flyFrom, deal as dealMotion, banner } from "../../shell/motion.js";
import { installHandPicking, keepRaised, keyPick, paintCursor, restoreRaised } from "../../shell/handpick.js";
import { TableView } from "../../shell/tableview.js";
import { t, kindName, factorName, parseFactor } from "./words.js";
import { cardEl, playEl, sortHand, rankText, parsePlay, orderHints, rankOf, RANKS, rankLabel } from "./cards.js";

export const DOUBLE_KEYS = { 倒: "dao", 反: "fan", 斡: "wo", 垒: "lei" };
const FX = { bomb: "bomb", rocket: "rocket", plane: "plane", plane_singles: "plane", plane_pairs: "plane" };
const AUTO_PASS_MS = 1200;
/** The keys that raise a card of a rank (typed upper-cased): 3 … 9, 0 or T for 10, J Q K A 2. */
const RANK_KEYS = Object.fromEntries([..."3456789JQKA2"].map((r) => [r, r]).concat([["0", "T"], ["T", "T"]]));

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
        out[ev.seat] = { play: ev.cards || ev.move, kind: ev.kind };
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

/** The last finished trick from the history: [[seat, cards or "pass"], …] in play order. */
export function previousTrick(obs) {
  const hist = obs.history || [];
  let end = -1;
  for (let i = hist.length - 1; i >= 0; i--) {
    if (hist[i].event === "trick") { end = i; break; }
    if (hist[i].event === "redeal" || hist[i].event === "deal") return [];
  }
  if (end < 0) return [];
  const out = [];
  for (let i = end - 1; i >= 0; i--) {
    const ev = hist[i];
    if (ev.event === "trick" || ev.event === "start_play" || ev.event === "landlord") break;
    if (ev.event === "play") out.unshift([ev.seat, ev.cards || ev.move, ev.kind]);
    else if (ev.event === "pass") out.unshift([ev.seat, "pass", null]);
  }
  return out;
}

/** Whether the table bids by calling the landlord (叫地主) rather than by score (叫分): read from the rules. */
export function isCalling(obs, table) {
  const b = obs?.rules?.bidding || table?.options?.bidding;
  return b === "call";
}

/** The number of cards in the kitty, from the rules. */
export function kittySize(obs) {
  const k = obs?.rules?.kitty_size;
  return typeof k === "number" ? k : (obs?.kitty || []).length;
}

/** 记牌器: how many of each rank are neither played nor in the viewer's hand (public information and one's own
 * cards only).  {rank: count} over every rank of the deck. */
export function unseenCounts(obs) {
  const decks = obs?.rules?.decks || 1;
  const mine = {};
  for (const c of obs?.hand || []) mine[rankOf(c)] = (mine[rankOf(c)] || 0) + 1;
  const out = {};
  for (const r of RANKS) {
    const total = r === "B" || r === "R" ? decks : 4 * decks;
    out[r] = Math.max(0, total - ((obs?.played || {})[r] || 0) - (mine[r] || 0));
  }
  return out;
}

/** One farmer's own doubling factors (倒/反/斡/垒) as the settlement names them, from the public doubling. */
export function doublingFactors(obs, farmer) {
  const did = new Set((obs.doubling || []).filter((d) => d.seat === farmer).map((d) => d.name));
  const byLord = new Set((obs.doubling || []).filter((d) => d.seat === obs.landlord).map((d) => d.name));
  const out = [];
  for (const [own, answer] of [["倒", "反"], ["斡", "垒"]]) {
    if (did.has(own)) {
      out.push({ name: own, factor: 2 });
      if (byLord.has(answer)) out.push({ name: answer, factor: 2 });
    }
  }
  return out;
}

export function factorsText(list) {
  return list.map((f) => `${factorName(f.name)}×${f.factor}`).join(" · ");
}

function handKeys(hand) {
  const seen = {};
  return hand.map((c) => {
    seen[c] = (seen[c] || 0) + 1;
    return `${c}#${seen[c]}`;
  });
}

function presetOf(model) {
  return model.table?.options?.preset || model.state?.observation?.preset || null;
}

export class DoudizhuView extends TableView {
  constructor(slots, ctx) {
    super(slots, ctx);
    this.sortMode = ctx.prefs.get("sort", "rank");
    this.raised = new Set();
    this.handSig = "";
    this.handCards = [];
    this.hintIdx = 0;
    this.hintFor = "";
    this.hints = [];
    this.checkCache = new Map();
    this.seenDeal = null;
    this.seenLen = 0;
    this.prevCounts = null;
    this.sentRects = null;
    this.autoPassTimer = null;
    this.onResize = () => this.layoutHand();
    window.addEventListener("resize", this.onResize);
    if (this.live) this.installMouse();
    if (this.live) this.s.hand.setAttribute("aria-description", t("keys_help"));  // (how to pick by keyboard)
  }

  destroy() {
    clearTimeout(this.autoPassTimer);
    window.removeEventListener("resize", this.onResize);
  }

  // ------------------------------------------------------------------------------------------ model
  tableTitle(model) {
    const p = presetOf(model);
    return p && t.has("preset_" + p) ? t("preset_" + p) : t("game_name");
  }

  myTurn(model = this.model) {
    return super.myTurn(model, (st) => st.your_turn ?? st.to_act === st.you);
  }

  update(model) {
    const st = model.state;
    if (st !== this.lastStateRef) {
      this.lastStateRef = st;
      if (this.pending && (!st || st.version !== this.pending.version || st.deal !== this.pending.deal)) this.pending = null;
      clearTimeout(this.autoPassTimer);
      this.autoPassTimer = null;
    }
    this.model = model;
    this.you = model.you;
    const obs = this.obs();
    this.s.root.classList.toggle("show-counter", !!(obs && this.counterOn()));
    this.renderInfo();
    this.renderMenu();
    this.renderCenter();
    this.renderMine();
    this.renderMeGame();
    this.renderHand();
    this.renderActions();
    this.cues();
    this.forcedMove();
  }

  counterOn() {
    return !!this.ctx.prefs.get("counter", true);
  }

  // ------------------------------------------------------------------------------------------ top bar
  renderInfo() {
    const info = clear(this.s.info);
    const obs = this.obs();
    if (!obs) return;
    const kitty = h("div.kitty-box");
    const cards = h("div.kitty-cards");
    if (obs.kitty) for (const c of obs.kitty) add(cards, cardEl(c, { size: "xs" }));
    else for (let i = 0; i < kittySize(obs); i++) add(cards, cardEl("", { size: "xs", back: true }));
    add(kitty, h("span.lbl", t("kitty")), cards);
    if (obs.face_up && obs.phase === "bid") {
      add(kitty, h("span.lbl", t("face_up")), h("div.kitty-cards", cardEl(obs.face_up, { size: "xs" })));
    }
    const mult = h("div.mult-box");
    const factors = (obs.factors || []).map(parseFactor);
    add(mult,
      h("span.m", t("base"), " ", h("b.bid", obs.bid ? String(obs.bid) : "—")),
      h("span.m", t("multiplier"), " ", h("b.mult", "×" + (obs.multiplier ?? 1))),
      factors.length ? h("span.factors", factors.map((f) => h("span.chip", `${factorName(f.name)} ×${f.factor}`))) : null);
    const you = this.you;
    if (you !== null && you !== undefined && obs.landlord !== null && obs.landlord !== undefined && obs.landlord !== you) {
      const own = doublingFactors(obs, you);
      if (own.length) {
        const total = (obs.multiplier ?? 1) * own.reduce((a, f) => a * f.factor, 1);
        add(mult, h("span.chip.dbl", { "data-my-mult": total }, `${t("my_mult")} ×${total} = ${factorsText([...factors, ...own]) || "×1"}`));
      }
    }
    if (obs.redeals) add(mult, h("span.chip.redeal", t("redeal_n", { n: obs.redeals })));
    add(info, kitty, mult);
  }

  renderMenu() {
    morph(this.s.menu, h("div", this.live ? h("button.btn.small.ghost", { type: "button", "data-action": "prev-trick",
      onclick: () => this.showPrevTrick() }, t("prev_trick")) : null));
  }

  // ------------------------------------------------------------------------------------------ seats
  /** The game's part of a seat box: role, cards left (报单/报双 at one or two), what it said or played, face-up
   * cards (a shown hand, every hand in a replay or once the deal is over). */
  seat(seat, el, model, box) {
    this.model = model;
    const obs = model.state?.observation;
    if (!obs) return;
    const isLord = obs.landlord === seat;
    if (obs.landlord !== null && obs.landlord !== undefined) {
      const badges = box.querySelector(".badges");
      badges?.prepend(h("span.badge.role", { class: isLord ? "landlord" : "farmer" }, t(isLord ? "landlord" : "farmer")));
      if (isLord) {
        const av = box.querySelector(".avatar");
        av?.classList.add("lord");
        av?.append(h("span.hat", "♛"));
      }
    }
    const cnt = obs.card_counts[seat];
    add(el, h("div.count", { title: t("cards_n", { n: cnt }) }, h("span.mini-back"), h("b", String(cnt))));
    if (cnt > 0 && cnt <= 2 && obs.phase === "play") {
      box.classList.add("warn");
      add(el, h("span.report", { dataset: { report: cnt } }, t(cnt === 1 ? "report1" : "report2")));
    }
    add(el, this.saidEl(seatActs(obs)[seat], obs, seat));
    let faceUp = null;
    if (obs.all_hands) faceUp = obs.all_hands[seat];
    else if (obs.hands && obs.phase === "over") faceUp = obs.hands[seat];
    else if (obs.shown_hand && obs.landlord === seat) faceUp = obs.shown_hand;
    if (faceUp && faceUp.length) {
      const row = h("div.shown", { dataset: { seat } });
      for (const c of sortHand(faceUp, "rank")) add(row, cardEl(c, { size: "xs" }));
      add(el, row);
    }
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
      text = act.bid === 0 ? t(isCalling(obs, this.model?.table) ? "call_pass" : "bid_pass")
        : isCalling(obs, this.model?.table) ? t("call") : t("bid_n", { n: act.bid });
    } else if (act.double) {
      text = act.double === "pass" ? t("said_no_double") : t("double_" + (DOUBLE_KEYS[act.double] || "dao"));
    } else if (act.show) text = t("said_show");
    if (text) add(el, h("span.bubble", { class: act.pass ? "pass" : undefined }, text));
    return el;
  }

  renderMine() {
    clear(this.s.mine);
    const obs = this.obs();
    if (this.you === null || this.you === undefined || !obs) return;
    add(this.s.mine, this.saidEl(seatActs(obs)[this.you], obs, this.you));
  }

  renderMeGame() {
    const el = clear(this.s.meGame);
    const obs = this.obs();
    const you = this.you;
    if (you === null || you === undefined || !obs) return;
    if (obs.landlord !== null && obs.landlord !== undefined) {
      const lord = obs.landlord === you;
      add(el, h("span.badge.role", { class: lord ? "landlord" : "farmer" }, t(lord ? "landlord" : "farmer")));
    }
    const cnt = obs.card_counts[you];
    add(el, h("span.count-me", t("cards_n", { n: cnt })));
    if (cnt > 0 && cnt <= 2 && obs.phase === "play") add(el, h("span.report", { dataset: { report: cnt } }, t(cnt === 1 ? "report1" : "report2")));
  }

  renderCenter() {
    const c = clear(this.s.center);
    const obs = this.obs();
    if (!obs) return;
    if (this.counterOn()) add(c, this.counterEl(obs));
    const msg = h("div.center-msg.game");
    if (obs.phase === "bid" || obs.phase === "double" || obs.phase === "show") {
      const key = obs.phase === "bid" ? (isCalling(obs, this.model.table) ? "phase_call" : "phase_bid") : "phase_" + obs.phase;
      add(msg, h("div.msg.phase", t(key)));
    } else if (obs.phase === "over" && this.live) {
      add(msg, h("div.msg", t("phase_over")));
    }
    const st = this.model.state;
    if (this.live && st && st.you !== null && st.autoplay?.[st.you] && obs.phase !== "over") add(msg, h("div.msg.small.auto", t("auto_on_msg")));
    add(c, msg);
  }

  counterEl(obs) {
    const left = unseenCounts(obs);
    const order = [...RANKS].reverse();
    const joker = (r) => t(r === "R" ? "counter_big" : "counter_small");
    return h("div.counter", { "aria-label": t("counter"), role: "group" },
      h("span.counter-title", t("counter")),
      order.map((r) => h("div.cc", { dataset: { rank: r, left: left[r] }, class: left[r] === 0 ? "gone" : undefined },
        h("span.cr", { class: r === "R" ? "red" : undefined }, r === "B" || r === "R" ? joker(r) : rankLabel(r)),
        h("span.cn", String(left[r])))));
  }

  // ------------------------------------------------------------------------------------------ cues
  /** Sounds, motion and effects for what changed since the last update (never delaying the drawing). */
  cues() {
    const st = this.model.state;
    const obs = this.obs();
    if (!st || !obs) return;
    const hist = obs.history || [];
    if (st.deal !== this.seenDeal) {
      // a deal that just started (not one found on drawing the table again after a language switch)
      const fresh = this.seenDeal !== null || (hist.length <= 2 && performance.now() - (this.model.stateAt || 0) < 1500);
      this.seenDeal = st.deal;
      this.seenLen = hist.length;
      this.prevCounts = [...obs.card_counts];
      if (fresh && this.live && obs.phase === "bid" && (obs.hand || []).length) {
        const from = this.s.center.getBoundingClientRect();
        dealMotion(this.s.hand.querySelectorAll(".card"), { left: from.left + from.width / 2 - 20, top: from.top + from.height / 3, width: 40, height: 56 });
        this.ctx.sound("deal");
      }
      return;
    }
    const fresh = hist.slice(this.seenLen);
    this.seenLen = hist.length;
    if (!this.live) return; // a replay steps back and forth: no effects
    for (const ev of fresh) {
      if (ev.event === "play") {
        const fx = FX[ev.kind];
        if (fx) {
          banner(this.s.fx, fx, t("fx_" + fx));
          this.ctx.sound(fx);
        } else {
          this.ctx.sound(ev.kind === "straight" || ev.kind === "pair_straight" ? "straight" : "play");
        }
        if (this.live) this.flyPlay(ev.seat);
      } else if (ev.event === "pass") {
        this.ctx.sound("pass");
      }
    }
    if (obs.phase === "play" && this.prevCounts) {
      obs.card_counts.forEach((n, seat) => {
        const before = this.prevCounts[seat];
        if ((n === 1 || n === 2) && before > n) this.ctx.sound(n === 1 ? "alarm1" : "alarm2");
      });
    }
    this.prevCounts = [...obs.card_counts];
    if (fresh.length && obs.phase === "over") {
      const o = obs.outcome || {};
      if (o.spring) { banner(this.s.fx, "spring", t("fx_spring")); this.ctx.sound("spring"); }
      else if (o.anti_spring) { banner(this.s.fx, "spring", t("fx_anti_spring")); this.ctx.sound("spring"); }
    }
  }

  flyPlay(seat) {
    const mine = seat === this.you;
    const target = mine ? this.s.mine.querySelector(".said.has-play") : this.ctx.seatEl(seat)?.querySelector(".said.has-play");
    if (!target) return;
    const cards = [...target.querySelectorAll(".card")];
    if (mine && this.sentRects) {
      const rects = this.sentRects;
      this.sentRects = null;
      for (const el of cards) flyFrom(el, rects[el.dataset.card]?.shift() || rects._any, { name: "play" });
      return;
    }
    const from = this.ctx.seatEl(seat)?.querySelector(".avatar")?.getBoundingClientRect();
    cards.forEach((el, i) => flyFrom(el, from, { delay: i * 18, name: "play" }));
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
    const el = clear(this.s.hand);
    this.handCards.forEach((x, i) => {
      const c = cardEl(x.card);
      c.dataset.i = i;
      c.dataset.key = x.key;
      add(el, c);
    });
    el.classList.toggle("readonly", !this.live || !!this.model.spectating);
    this.layoutHand();
    this.paintRaised();
  }

  layoutHand() {
    const cards = this.s.hand.children;
    const n = cards.length;
    if (!n) return;
    const width = this.s.hand.clientWidth - 16;
    const cw = cards[0].offsetWidth || 70;
    const maxStep = cw * 0.52;
    const step = n > 1 ? Math.max(8, Math.min(maxStep, (width - cw) / (n - 1))) : 0;
    this.s.hand.style.setProperty("--step", step + "px");
    this.s.hand.style.setProperty("--overlap", (step - cw) + "px");
  }

  paintRaised() {
    for (const el of this.s.hand.children) el.classList.toggle("raised", this.raised.has(el.dataset.key));
    paintCursor(this, ".card");
    this.renderActions();
  }

  /** What the page drawn again in place (a language switch) keeps: the raised cards (shell/handpick.js). */
  keep() {
    return keepRaised(this);
  }

  restore(kept) {
    restoreRaised(this, kept);
    this.paintRaised();
  }

  selectedCards() {
    return this.handCards.filter((x) => this.raised.has(x.key)).map((x) => x.card);
  }

  lowerAll() {
    if (!this.raised.size) return;
    this.raised.clear();
    this.paintRaised();
  }

  raiseOnly(ranks) {
    this.raised.clear();
    const need = [...ranks];
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
    const cards = [...this.s.hand.children];
    for (let i = cards.length - 1; i >= 0; i--) {
      const r = cards[i].getBoundingClientRect();
      if (clientX >= r.left && clientX <= r.right) return i;
    }
    return -1;
  }

  /** Mouse and touch (RULES.md §9): see shell/handpick.js. */
  installMouse() {
    installHandPicking(this, { card: ".card", indexAt: (e) => this.cardIndexAt(e.clientX) });
  }

  // ------------------------------------------------------------------------------------------ actions
  plays() {
    return this.legal().filter((a) => a.startsWith("play ")).map(parsePlay);
  }

  /** Nothing beats the table: the only move is to pass (要不起). */
  cannotBeat() {
    const legal = this.legal();
    return this.myTurn() && this.obs()?.phase === "play" && legal.includes("pass") && !legal.some((a) => a.startsWith("play "));
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
      api("POST", "games/doudizhu/check", { cards: ranks, options: this.model.table?.options || { preset: this.obs().preset },
        last: trick.last || "", last_kind: trick.kind || null })
        .then((r) => {
          const reason = ["invalid", "too_low", "wrong_kind"].includes(r.reason) ? "reason_" + r.reason : "reason_not_allowed";
          this.checkCache.set(ck, reason);
        })
        .catch(() => this.checkCache.set(ck, "reason_not_allowed"))
        .finally(() => this.renderActions());
      return { ok: false, reason: "reason_checking", matches: [] };
    }
    return { ok: false, reason: got || "reason_checking", matches: [] };
  }

  /** The action text for a legal play made of the raised cards, with their suits ("play 3S 3H 4D:kind"): the
   * felt then shows the very cards the player chose. */
  playAction(p) {
    const i = p.label.indexOf(":");
    return "play " + this.selectedCards().join(" ") + (i >= 0 ? p.label.slice(i) : "");
  }

  rememberRaised() {
    const rects = {};
    for (const el of this.s.hand.querySelectorAll(".card.raised")) {
      const c = el.dataset.card;
      (rects[c] = rects[c] || []).push(el.getBoundingClientRect());
      rects._any = rects._any || el.getBoundingClientRect();
    }
    this.sentRects = rects;
  }

  playSelected() {
    if (!this.myTurn() || this.obs()?.phase !== "play") return;
    const j = this.judge();
    if (!j.ok) {
      const r = this.s.reason;
      r.textContent = t(j.reason);
      r.classList.remove("flash");
      void r.offsetWidth;
      r.classList.add("flash");
      return;
    }
    if (j.matches.length === 1) {
      this.rememberRaised();
      this.send(this.playAction(j.matches[0]));
      return;
    }
    const m = modal({
      id: "readings",
      title: t("choose_reading"),
      body: h("div.readings", j.matches.map((p) => h("button.btn.primary", { type: "button", "data-kind": p.kind, onclick: () => {
        m.close();
        this.rememberRaised();
        this.send(this.playAction(p));
      } }, `${kindName(p.kind)}${p.main ? " · " + rankLabel(p.main) : ""}`))),
      buttons: [{ text: t("cancel") }],
    });
  }

  /** 提示: the server's hints in its order (the heuristic bot's plan: cheapest sensible play first, bombs last);
   * pressed again, the next one.  A server without hints gets the same idea done here. */
  hint() {
    if (!this.myTurn() || this.obs()?.phase !== "play") return;
    const st = this.model.state;
    const sig = `${st.deal}:${st.version}`;
    if (sig !== this.hintFor) {
      this.hintFor = sig;
      this.hintIdx = 0;
      const given = Array.isArray(st.hints) ? st.hints.filter((a) => a.startsWith("play ")).map(parsePlay) : null;
      this.hints = given || orderHints(this.legal(), this.obs().hand);
    }
    if (!this.hints.length) {
      this.lowerAll();
      this.s.reason.textContent = t("no_bigger");
      this.s.actMain.querySelector('[data-action="pass"]')?.classList.add("pulse");
      return;
    }
    const p = this.hints[this.hintIdx % this.hints.length];
    this.hintIdx++;
    this.raiseOnly(p.cards.split(""));
  }

  toggleSort() {
    this.sortMode = this.sortMode === "rank" ? "count" : "rank";
    this.ctx.prefs.set("sort", this.sortMode);
    this.handSig = "";
    this.renderHand();
  }

  toggleCounter() {
    this.ctx.prefs.set("counter", !this.counterOn());
    this.s.root.classList.toggle("show-counter", this.counterOn());
    this.renderCenter();
    this.renderActions();
  }

  toggleAutoPass() {
    this.ctx.prefs.set("auto_pass", !this.ctx.prefs.get("auto_pass", true));
    this.ctx.sendRaw({ type: "prefs", auto_pass: !!this.ctx.prefs.get("auto_pass", true) });
    this.renderActions();
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

  /** The action bar, morphed in (shell/util.js): a button stays the same element from message to message. */
  renderActions() {
    if (!this.model) return;
    const main = h("div");
    const tools = h("div");
    this.fillActions(main, tools);
    morph(this.s.actMain, main);
    morph(this.s.tools, tools);
  }

  fillActions(main, tools) {
    const obs = this.obs();
    const reasonEl = this.s.reason;
    reasonEl.textContent = "";
    reasonEl.dataset.forced = "";
    if (!this.live || !obs) return;
    if (!this.model.spectating) {
      const busy = !!this.pending;
      if (this.myTurn() && obs.phase !== "play") {
        for (const a of this.legal()) {
          add(main, h("button.btn", {
            type: "button", class: a === "pass" ? "ghost" : "primary", "data-action": a, disabled: busy,
            onclick: () => this.send(a),
          }, this.actionLabel(a, obs)));
        }
      } else if (this.cannotBeat()) {
        add(main, h("button.btn.primary.yaobuqi", { type: "button", "data-action": "pass", disabled: busy,
          title: "P", onclick: () => this.send("pass") }, t("yaobuqi"), h("kbd", "P")));
        reasonEl.textContent = this.forcedText() || t("yaobuqi");
        reasonEl.dataset.forced = "pass";
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
          "data-reason": j.ok ? "" : j.reason, onclick: () => this.playSelected(),
        }, t("play"), h("kbd", "⏎")));
        const forced = this.forcedText();
        reasonEl.textContent = forced || reason;
        if (forced) reasonEl.dataset.forced = "play";
      }
    }
    if (!this.model.spectating && this.you !== null && this.you !== undefined) {
      const ap = !!this.ctx.prefs.get("auto_pass", true);
      add(tools, h("button.btn.small", { type: "button", "data-action": "auto-pass", class: ap ? "on" : "ghost",
        "aria-pressed": ap ? "true" : "false", onclick: () => this.toggleAutoPass() }, (ap ? "✓ " : "") + t("auto_pass")));
      add(tools, h("button.btn.small.ghost", { type: "button", "data-action": "sort", onclick: () => this.toggleSort() }, t("sort")));
    }
    const on = this.counterOn();
    add(tools, h("button.btn.small", { type: "button", "data-action": "counter", class: on ? "on" : "ghost",
      "aria-pressed": on ? "true" : "false", onclick: () => this.toggleCounter() }, t("counter")));
  }

  // ------------------------------------------------------------------------------------------ forced moves
  /** The server's forced move (要不起 / the last card), counting down; or, from a server without it, a pass
   * this view makes itself after a moment when the player keeps auto-pass on. */
  forcedMove() {
    const st = this.model.state;
    if (!st || !this.myTurn() || this.obs()?.phase !== "play") return;
    if (typeof st.forced === "string" && st.forced.startsWith("play ")) {
      const p = parsePlay(st.forced);
      if (!this.raised.size) this.raiseOnly(p.cards.split(""));
      return;
    }
    if (st.forced === undefined && this.cannotBeat() && this.ctx.prefs.get("auto_pass", true) && !this.autoPassTimer) {
      const v = st.version, d = st.deal;
      this.autoPassTimer = setTimeout(() => {
        this.autoPassTimer = null;
        const now = this.model?.state;
        if (now && now.version === v && now.deal === d && this.cannotBeat()) this.send("pass");
      }, AUTO_PASS_MS);
    }
  }

  forcedText() {
    const st = this.model.state;
    if (!st || st.forced === null || st.forced === undefined || st.forced_in_ms === null || st.forced_in_ms === undefined) return "";
    const secs = Math.max(0, Math.ceil((st.forced_in_ms - (performance.now() - (this.model.stateAt || 0))) / 1000));
    return st.forced === "pass" ? t("yaobuqi_in", { n: secs }) : t("last_card_in", { n: secs });
  }

  tick() {
    const r = this.s.reason;
    if (r.dataset.forced) {
      const text = this.forcedText();
      if (text) r.textContent = text;
    }
  }

  key(e) {
    // ← → Space ↑ ↓ and the ranks' keys pick cards (shell/handpick.js)
    if (keyPick(this, e, { card: ".card", rankKey: (k) => RANK_KEYS[k.toUpperCase()] || null })) return;
    if (e.key === "Enter") {
      e.preventDefault();
      this.playSelected();
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
    const trick = obs ? previousTrick(obs) : [];
    const body = h("div.ddz-prev-trick");
    if (!trick.length) add(body, h("p.muted", t("no_prev_trick")));
    for (const [seat, move, kind] of trick) {
      add(body, h("div.pt-row", { dataset: { seat } }, h("span.pt-name", this.ctx.seatName(seat)),
        move === "pass" ? h("span.bubble.pass", t("said_pass"))
          : h("div.pt-play", playEl(move, "sm"), kind && !["single", "pair", "triple"].includes(kind) ? h("span.kind", kindName(kind)) : null)));
    }
    modal({ id: "prev-trick-dialog", title: t("prev_trick"), body });
  }
}
