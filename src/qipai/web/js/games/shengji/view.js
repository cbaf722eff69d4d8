// The Shengji (升级, four decks) table view: the 54-card hand grouped by effective suit with the trumps apart,
// selection by click and by drag, the declaration buttons while the cards are dealt (every seat answers each
// window at once), the trump, level, banker, each team's level and the points won always in view, the current
// and the last trick.  It fills the slots of the shell's table frame (shell/games.js) and reads everything from
// the observation; what may be played is the server's word (the legal list, and the table's check endpoint
// for a selection the list does not name, e.g. a throw).
import { h, add, clear, morph, api, modal } from "../../shell/util.js";
import { installHandPicking, keepRaised, keyPick, paintCursor, restoreRaised } from "../../shell/handpick.js";
import { TableView } from "../../shell/tableview.js";
import { t } from "./words.js";
import { cardEl, playEl, groupHand, splitCards, sameCards, cardsText, SUIT_SYM, DECK_SIZE } from "./cards.js";

export const teamOf = (seat) => seat % 2;

/** The suit in words with its symbol ("♥ 红桃"). */
export function suitWords(s) {
  return s ? `${SUIT_SYM[s]} ${t("suit_" + s)}` : t("trump_none");
}

/** Per seat, what it has played in the trick on the table; when no trick runs, the last finished trick's plays
 * (marked ``done``) so a player sees how it ended. */
export function trickPlays(obs) {
  const out = [null, null, null, null];
  if (!obs) return out;
  if (obs.trick && obs.trick.length) {
    for (const [s, c] of obs.trick) out[s] = { cards: c, done: false };
  } else if (obs.last_trick && (obs.phase === "play" || obs.phase === "over")) {
    for (const [s, c] of obs.last_trick.plays) out[s] = { cards: c, done: true, won: s === obs.last_trick.winner };
  }
  return out;
}

/** ``key``'s words with the ``name`` in a span of its own (``.nm``: a phone cuts a long name short, not the words
 * after it). */
function nameIn(key, name, params) {
  const [before, after] = t(key, { ...params, name: "\u0000" }).split("\u0000");
  return [before, h("span.nm", name), after];
}

const SUIT_WORDS = { spades: "S", hearts: "H", clubs: "C", diamonds: "D" };

/** "5H is in hearts, B is a trump" (the server's reading of each card of a mixed lead) in words. */
function whereWords(text) {
  return String(text || "").split(/,\s*/).map((part) => {
    const m = /^(\S+) is (?:a (trump)|in (\w+))$/.exec(part.trim());
    if (!m) return null;
    const card = cardsText(m[1]);
    return m[2] ? t("why_is_trump", { card }) : SUIT_WORDS[m[3]] ? t("why_is_suit", { card, suit: t("suit_" + SUIT_WORDS[m[3]]) }) : null;
  }).filter(Boolean).join(t("cap_join"));
}

/** The server's reasons (English, from the rules): a key for the sentence, and the details it names in words
 * (``key + "_detail"``) where the sentence is regular enough to read. */
const REASONS = [
  [/^a lead must be of one effective suit: (.*)$/, "why_lead_suit", (m) => { const where = whereWords(m[1]); return where ? { where } : null; }],
  [/^you hold only (\d+) cards? of (\w+) \(fewer than (\d+)\)/, "why_follow_short",
    (m) => (SUIT_WORDS[m[2]] ? { held: m[1], suit: t("suit_" + SUIT_WORDS[m[2]]), n: m[3] } : m[2] === "trumps" ? { held: m[1], suit: t("trump_cards"), n: m[3] } : null)],
  [/^you hold (\d+) cards? of (\w+): play (\d+)/, "why_follow_suit",
    (m) => (SUIT_WORDS[m[2]] ? { held: m[1], suit: t("suit_" + SUIT_WORDS[m[2]]), n: m[3] } : m[2] === "trumps" ? { held: m[1], suit: t("trump_cards"), n: m[3] } : null)],
  [/requirement list|^following /, "why_follow_shape"],
  [/^throws are off/, "why_no_throws"],
  [/^you hold (no|only (\d+)) (\S+)(?:, not (\d+))?/, "why_not_held",
    (m) => (m[1] === "no" ? { card: cardsText(m[3]), held: 0, n: m[4] || 1 } : { card: cardsText(m[3]), held: m[2], n: m[4] || "" })],
  [/^play (\d+) cards? \(the lead has \d+\), not (\d+)/, "why_count", (m) => ({ n: m[1], got: m[2] })],
  [/^play \d+ cards?/, "why_count"],
  [/^play at least one card|^a lead needs at least one card/, "reason_empty"],
];

/** The server's reason (English, from the rules) in the player's words: the common ones translated with the
 * cards and counts the server named (``key + "_detail"``), in either language; where the sentence names nothing
 * the words can say, an English player also gets the server's own sentence after the short reason (never the
 * server's sentence after a detail that already says it: "follow suit … — you hold 19 cards of trumps …"). */
export function reasonWords(why) {
  for (const [re, key, detail] of REASONS) {
    const m = re.exec(why || "");
    if (!m) continue;
    const d = detail ? detail(m) : null;
    if (d && t.has(key + "_detail")) return t(key + "_detail", d);
    return t(key) + (t("why_detail_sep") && why !== t(key) ? t("why_detail_sep") + why : "");
  }
  return why && t("why_detail_sep") ? why : t("why_unknown");
}

/** The failed throw (甩牌失败) behind ``seat``'s play in the trick on the table (``done``: the last finished
 * trick), or null: the server played the card it was forced to and charged the penalty. */
export function failedThrowOf(obs, seat, done = false) {
  const n = (obs?.tricks || []).length + (done ? 0 : 1);
  return (obs?.failed_throws || []).find((f) => f.seat === seat && f.trick === n) || null;
}

/** "X 甩牌失败，罚 10 分" (the penalty is counted for the other side, whichever side threw). */
export function failedThrowText(f, name) {
  return t("failed_throw", { name: name(f.seat), n: Math.abs(f.penalty), cards: cardsText(f.cards), forced: cardsText(f.forced) });
}

function handKeys(cards) {
  const seen = {};
  return cards.map((c) => {
    seen[c] = (seen[c] || 0) + 1;
    return `${c}#${seen[c]}`;
  });
}

export class ShengjiView extends TableView {
  constructor(slots, ctx) {
    super(slots, ctx);
    this.raised = new Set();
    this.handSig = "";
    this.handCards = [];
    this.checks = new Map();
    this.actSig = "";
    this.hintIdx = 0;
    this.hintFor = "";
    this.seenDeal = null;
    this.seenTricks = 0;
    this.seenTrick = 0;
    this.seenFailed = 0;
    this.onResize = () => { this.handSig = ""; this.renderHand(); };
    window.addEventListener("resize", this.onResize);
    if (this.live) this.installMouse();
    if (this.live) this.s.hand.setAttribute("aria-description", t("keys_help"));  // (how to pick by keyboard)
  }

  destroy() {
    window.removeEventListener("resize", this.onResize);
  }

  name(seat) {
    return this.ctx.seatName(seat);
  }

  tableTitle(model) {
    const p = model.table?.options?.preset || model.state?.observation?.options?.preset;
    return p && t.has("preset_" + p) ? t("preset_" + p) : t("game_name");
  }

  myTurn(model = this.model) {
    return super.myTurn(model, (st) => st.your_turn ?? (st.acting || []).includes(st.you));
  }

  /** While the cards are dealt every seat may declare at each card, and the deadline is the next card's (the
   * deal's pace, ``deal_step_ms``): nobody's decision, no countdown.  The final window (最后叫主) is a real one. */
  clocked(model = this.model) {
    return model?.state?.observation?.phase !== "deal";
  }

  update(model) {
    const st = model.state;
    if (st !== this.lastStateRef) {
      this.lastStateRef = st;
      if (this.pending && (!st || st.deal !== this.pending.deal || st.version !== this.pending.version)) this.pending = null;
    }
    this.model = model;
    this.you = model.you;
    const obs = this.obs();
    this.s.root.dataset.trump = obs?.trump || "";
    this.s.root.dataset.level = obs?.level || "";
    this.s.root.dataset.banker = obs?.banker ?? "";
    this.renderInfo();
    this.renderMenu();
    this.renderCenter();
    this.renderMine();
    this.renderMeGame();
    this.renderHand();
    this.tryDeclare();
    this.renderActions();
    this.cues();
  }

  // ------------------------------------------------------------------------------------------ top bar
  /** Always in view: the trump (or the standing declaration while dealing), the level played, the banker, each
   * team's level and the points won by each side. */
  renderInfo() {
    const info = clear(this.s.info);
    const obs = this.obs();
    if (!obs) return;
    const you = this.you ?? 0;
    const mine = teamOf(you);
    // a spectator (or a replay without a seat) has no side: "我方/对方" would be seat 0's, so name the partners
    const seated = this.you !== null && this.you !== undefined;
    const dealing = obs.phase === "deal" || obs.phase === "final";
    let trumpText;
    if (obs.trump && !dealing) trumpText = suitWords(obs.trump);
    else if (obs.standing) trumpText = nameIn("decl_by", this.name(obs.standing[0]), { n: obs.standing[1] });
    else trumpText = t("trump_none");
    add(info,
      h("span.sj-chip.trump", { dataset: { info: "trump", suit: obs.trump && !dealing ? obs.trump : "" } },
        h("span.lbl", t("trump")), h("b", { class: obs.trump && !dealing && "HD".includes(obs.trump) ? "red" : undefined }, trumpText)),
      h("span.sj-chip.level", { dataset: { info: "level", level: obs.level } }, h("span.lbl", t("level_lbl")), h("b", obs.level === "T" ? "10" : obs.level)),
      h("span.sj-chip.banker", { dataset: { info: "banker", seat: obs.banker ?? "" } }, h("span.lbl", t("banker_lbl")),
        h("b", obs.banker === null || obs.banker === undefined ? t("banker_none") : this.name(obs.banker))),
      h("span.sj-chip.levels", { dataset: { info: "levels" } },
        [mine, 1 - mine].map((team) => h("span.tl", { dataset: { team, level: obs.levels[team] } },
          t("team_level", { team: seated ? t(team === mine ? "team_us" : "team_them") : t("team_n", { a: this.name(team), b: this.name(team + 2) }),
            level: obs.levels[team] === "T" ? "10" : obs.levels[team] })))),
      h("span.sj-chip.points", { dataset: { info: "points", attackers: obs.points.attackers, banker: obs.points.banker } },
        h("span.lbl", t("points_lbl")), h("b", String(obs.points.attackers)),
        h("span.lbl", t("banker_points_lbl")), h("b.bp", String(obs.points.banker)),
        obs.points.penalties ? h("span.pen", `${t("penalty_lbl")} ${obs.points.penalties}`) : null),
      dealing ? h("span.sj-chip.dealt", { dataset: { info: "dealt", dealt: obs.dealt } }, t("dealt_n", { n: obs.dealt })) : null);
  }

  renderMenu() {
    morph(this.s.menu, h("div", h("button.btn.small.ghost", { type: "button", "data-action": "last-trick", onclick: () => this.showLastTrick() }, t("last_trick"))));
  }

  // ------------------------------------------------------------------------------------------ seats
  seat(seat, el, model, box) {
    this.model = model;
    this.you = model.you;
    const obs = model.state?.observation;
    if (!obs) return;
    const banker = obs.banker;
    if (banker !== null && banker !== undefined) {
      const bankSide = teamOf(seat) === teamOf(banker);
      box.classList.add(bankSide ? "sj-bank-side" : "sj-att-side");
      const badges = box.querySelector(".badges");
      if (seat === banker) badges?.prepend(h("span.badge.role.banker", { dataset: { banker: seat } }, t("banker")));
    }
    box.dataset.team = teamOf(seat);
    if (this.you !== null && this.you !== undefined && teamOf(seat) === teamOf(this.you)) box.classList.add("sj-partner");
    add(el, h("div.sj-count", { title: t("cards_n", { n: obs.hand_sizes[seat] }) }, h("span.sj-mini-back"), h("b", String(obs.hand_sizes[seat]))));
    const decls = (obs.declarations || []).filter((d) => d[0] === seat);
    if ((obs.phase === "deal" || obs.phase === "final") && decls.length) {
      const top = decls[decls.length - 1];
      const standing = obs.standing && obs.standing[0] === seat;
      add(el, h("span.sj-decl", { class: standing ? "standing" : undefined, dataset: { seat, n: top[1] } }, t("decl_seat", { n: top[1] })));
    }
    if (obs.revealed && obs.revealed.seat === seat && obs.phase === "play" && !obs.tricks.length) {
      add(el, h("span.sj-decl.revealed", playEl(obs.revealed.cards, "xs")));
    }
    add(el, this.playSlot(trickPlays(obs)[seat], seat, obs));
    if (!this.live && obs.all_hands && obs.all_hands[seat]) {
      const row = h("div.sj-shown", { dataset: { seat } });
      for (const g of groupHand(obs.all_hands[seat], obs.level, obs.trump)) {
        add(row, h("div.sj-shown-group", { dataset: { group: g.suit } }, g.cards.map((c) => cardEl(c, { size: "xs", trump: g.suit === "T" }))));
      }
      add(el, row);
    }
  }

  playSlot(p, seat, obs) {
    const el = h("div.sj-said", { dataset: { seat } });
    if (!p) return el;
    el.classList.add("has-play");
    if (p.done) el.classList.add("done");
    add(el, playEl(p.cards, "sm"));
    const failed = failedThrowOf(obs, seat, p.done);
    if (failed) {
      el.classList.add("failed-throw");
      add(el, h("span.sj-failed", { dataset: { seat, penalty: failed.penalty }, title: failedThrowText(failed, (s) => this.name(s)) },
        t("failed_throw_mark", { n: Math.abs(failed.penalty) })));
    }
    if (p.won) add(el, h("span.sj-won", t("winner_mark")));
    else if (!p.done && obs.lead && obs.trick?.[0]?.[0] === seat && obs.lead.format === "throw") add(el, h("span.kind", t("throw_mark")));
    return el;
  }

  renderMine() {
    clear(this.s.mine);
    const obs = this.obs();
    if (this.you === null || this.you === undefined || !obs) return;
    add(this.s.mine, this.playSlot(trickPlays(obs)[this.you], this.you, obs));
  }

  renderMeGame() {
    const el = clear(this.s.meGame);
    const obs = this.obs();
    const you = this.you;
    if (you === null || you === undefined || !obs) return;
    if (obs.banker !== null && obs.banker !== undefined) {
      const bank = teamOf(you) === teamOf(obs.banker);
      add(el, h("span.badge.role", { class: bank ? "banker" : "attacker", dataset: { role: bank ? "banker" : "attacker" } },
        obs.banker === you ? t("banker") : t(bank ? "seat_team_banker" : "seat_team_attacker")));
    }
    add(el, h("span.count-me", t("cards_n", { n: obs.hand_sizes[you] })));
    for (const [, cards] of obs.my_declarations || []) add(el, h("span.sj-decl.mine", { dataset: { cards } }, t("decl_mine", { cards: cardsText(cards) })));
  }

  renderCenter() {
    const c = clear(this.s.center);
    const obs = this.obs();
    if (!obs) return;
    const msg = h("div.center-msg.game");
    if (obs.phase === "deal" || obs.phase === "final") {
      // the live prompt (可以叫主) is for a player at the table; a replay says what happened in its caption and
      // keeps the cards in sight (the top bar has the standing declaration and the count dealt)
      if (this.live) {
        add(msg, h("div.msg.phase", t(obs.phase === "deal" ? "phase_deal" : "phase_final")));
        add(msg, h("div.msg.small", obs.standing ? t("decl_by", { name: this.name(obs.standing[0]), n: obs.standing[1] }) : t("decl_none")));
      }
    } else if (obs.phase === "play" && !obs.tricks.length && !obs.trick.length) {
      add(msg, h("div.msg.small", obs.revealed
        ? t("decl_revealed", { name: this.name(obs.revealed.seat), cards: cardsText(obs.revealed.cards), suit: t("suit_" + obs.trump) })
        : t("no_decl_spades")));
    } else if (obs.phase === "over" && this.live) {
      add(msg, h("div.msg", t("phase_over")));
    }
    const st = this.model.state;
    if (this.live && st && st.you !== null && st.autoplay?.[st.you] && obs.phase !== "over") add(msg, h("div.msg.small.auto", t("auto_on_msg")));
    add(c, msg);
  }

  // ------------------------------------------------------------------------------------------ the hand
  cardSize() {
    const w = window.innerWidth, hgt = window.innerHeight;
    if (hgt < 520) return { w: 40, h: 56, min: 13 };
    if (w < 560) return { w: 44, h: 62, min: 15 };
    if (w >= 1100 && hgt >= 700) return { w: 68, h: 95, min: 19 };
    return { w: 58, h: 81, min: 17 };
  }

  /** The hand in rows (one on a wide screen, up to four on a phone), grouped by effective suit, trumps first;
   * each card keeps its index in the whole hand (data-i) for the mouse. */
  renderHand() {
    const el = this.s.hand;
    const obs = this.obs();
    const cards = obs && obs.hand ? splitCards(obs.hand) : [];
    const sig = `${obs?.trump || ""}|${obs?.level || ""}|${cards.join(" ")}|${this.live}`;
    if (sig === this.handSig) {
      this.paintRaised();
      return;
    }
    this.handSig = sig;
    clear(el);
    el.classList.add("sj-hand");
    if (!cards.length) {
      this.handCards = [];
      this.raised.clear();
      return;
    }
    const groups = groupHand(cards, obs.level, obs.trump);
    const flat = [];
    for (const g of groups) g.cards.forEach((c, k) => flat.push({ card: c, suit: g.suit, first: k === 0 }));
    const keys = handKeys(flat.map((x) => x.card));
    flat.forEach((x, i) => { x.key = keys[i]; });
    const keep = new Set(keys);
    for (const k of [...this.raised]) if (!keep.has(k)) this.raised.delete(k);
    this.handCards = flat;
    const size = this.cardSize();
    const gap = 10;
    const width = Math.max(200, (el.clientWidth || window.innerWidth) - 16);
    const n = flat.length;
    // while the cards are dealt, the rows are the whole hand's (the rows not yet reached kept empty): the buttons
    // and tools above the hand must not move up a row as cards come (a finger on 亮 would lift on the felt)
    const seats = obs.hand_sizes?.length || 4;
    const whole = obs.phase === "deal" ? n + Math.max(0, Math.ceil((DECK_SIZE - (obs.dealt || 0)) / seats)) : n;
    let rows = 1, vis = size.w;
    for (rows = 1; rows <= 4; rows++) {
      const per = Math.ceil(whole / rows);
      vis = (width - size.w - gap * (groups.length - 1)) / Math.max(1, per - 1);
      if (vis >= size.min) break;
    }
    rows = Math.min(rows, 4);
    vis = Math.max(8, Math.min(vis, size.w * 0.62));
    el.style.setProperty("--sjw", size.w + "px");
    el.style.setProperty("--sjh", size.h + "px");
    el.style.setProperty("--sjv", vis.toFixed(1) + "px");
    el.dataset.rows = rows;
    const per = Math.ceil(whole / rows);
    let row = null;
    flat.forEach((x, i) => {
      if (i % per === 0) row = add(el, h("div.sj-row"))?.lastChild;
      const c = cardEl(x.card, { trump: x.suit === "T" });
      c.classList.add("in-hand");
      c.dataset.i = i;
      c.dataset.key = x.key;
      c.dataset.group = x.suit;
      if (x.first && i % per !== 0) c.classList.add("group-start");
      if (i % per === 0) c.classList.add("row-start");
      add(row, c);
    });
    for (let k = Math.ceil(n / per); k < rows; k++) add(el, h("div.sj-row.spare", { "aria-hidden": "true" }));
    this.paintRaised();
  }

  paintRaised() {
    for (const el of this.s.hand.querySelectorAll(".sj-card")) el.classList.toggle("raised", this.raised.has(el.dataset.key));
    paintCursor(this, ".sj-card");
  }

  /** What the page drawn again in place (a language switch) keeps: the raised cards (shell/handpick.js). */
  keep() {
    return keepRaised(this);
  }

  restore(kept) {
    restoreRaised(this, kept);
    this.paintRaised();
    this.renderActions();
  }

  selectedCards() {
    return this.handCards.filter((x) => this.raised.has(x.key)).map((x) => x.card);
  }

  lowerAll() {
    if (!this.raised.size) return;
    this.raised.clear();
    this.paintRaised();
    this.renderActions();
  }

  raiseOnly(cards) {
    this.raised.clear();
    const need = [...cards];
    for (const x of this.handCards) {
      const i = need.indexOf(x.card);
      if (i >= 0) {
        this.raised.add(x.key);
        need.splice(i, 1);
      }
    }
    this.paintRaised();
    this.renderActions();
  }

  cardAt(x, y) {
    const el = document.elementFromPoint(x, y)?.closest?.(".sj-hand .sj-card");
    return el ? Number(el.dataset.i) : -1;
  }

  /** Click/tap raises or lowers a card; press and drag over several cards (a tractor, a suit) raises them all
   * (shell/handpick.js); after a change the action buttons follow the raised cards. */
  installMouse() {
    installHandPicking(this, {
      card: ".sj-card",
      indexAt: (e) => this.cardAt(e.clientX, e.clientY),
      changed: () => { this.paintRaised(); this.renderActions(); },
    });
  }

  // ------------------------------------------------------------------------------------------ actions
  /** {ok, reason, text} for the raised cards: a legal play the server listed, else the server's check. */
  judge() {
    const sel = this.selectedCards();
    const obs = this.obs();
    if (!this.myTurn() || obs?.phase !== "play") return { ok: false, reason: "reason_not_turn" };
    if (!sel.length) return { ok: false, reason: "reason_empty" };
    if (obs.lead && sel.length !== obs.lead.n) return { ok: false, reason: "reason_count", params: { n: obs.lead.n } };
    for (const a of this.legal()) {
      if (a.startsWith("play ") && sameCards(splitCards(a.slice(5)), sel)) return { ok: true, action: a };
    }
    const st = this.model.state;
    const action = "play " + sel.join(" ");
    const key = `${st.deal}:${st.version}:${[...sel].sort().join(" ")}`;
    const got = this.checks.get(key);
    if (got === undefined) {
      this.checks.set(key, null);
      const table = st.table || this.model.table?.id;
      api("POST", `tables/${table}/check`, { action })
        .then((r) => this.checks.set(key, r.legal ? { ok: true } : { ok: false, why: r.reason || "" }))
        .catch(() => this.checks.set(key, { ok: false, why: "" }))
        .finally(() => { if (this.model?.state === st) this.renderActions(true); });
      return { ok: false, reason: "reason_checking" };
    }
    if (got === null) return { ok: false, reason: "reason_checking" };
    if (got.ok) return { ok: true, action };
    return { ok: false, reason: "reason_illegal", params: { why: reasonWords(got.why) } };
  }

  clearPending() {
    this.pending = null;
    if (this.wantDecl) this.wantDecl.retry = true;
    this.tryDeclare();
    this.pendingChanged();
  }

  pendingChanged() {
    this.renderActions(true);
  }

  /** A declaration clicked while the window it answered closed (the server calls it stale: the deal moves on
   * every 150 ms) is sent again for the next window while it is still on offer; it is done once the server
   * lists it among the seat's own declarations. */
  declare(action) {
    const obs = this.obs();
    // between two windows of the deal the offer stands: the declaration goes with the next window (tryDeclare)
    const now = this.myTurn();
    this.wantDecl = { action, tries: 0, base: (obs?.my_declarations || []).length, retry: !now };
    if (now) this.send(action);
  }

  tryDeclare() {
    const w = this.wantDecl;
    const obs = this.obs();
    if (!w || !obs) return;
    if ((obs.my_declarations || []).length > w.base || (obs.phase !== "deal" && obs.phase !== "final")) {
      this.wantDecl = null;
      return;
    }
    if (!w.retry || this.pending || !this.myTurn()) return;
    if (!this.legal().includes(w.action) || w.tries >= 5) {
      this.wantDecl = null;
      return;
    }
    w.tries++;
    w.retry = false;
    this.send(w.action);
  }

  playSelected() {
    if (!this.myTurn() || this.obs()?.phase !== "play") return;
    const j = this.judge();
    if (!j.ok) {
      const r = this.s.reason;
      r.textContent = t(j.reason, j.params);
      r.classList.remove("flash");
      void r.offsetWidth;
      r.classList.add("flash");
      return;
    }
    this.send(j.action);
    this.raised.clear();
  }

  /** 提示: the server's legal plays in its order (its passive choice first); pressed again, the next one. */
  hint() {
    if (!this.myTurn() || this.obs()?.phase !== "play") return;
    const st = this.model.state;
    const sig = `${st.deal}:${st.version}`;
    if (sig !== this.hintFor) {
      this.hintFor = sig;
      this.hintIdx = 0;
    }
    const plays = (Array.isArray(st.hints) && st.hints.length ? st.hints : this.legal()).filter((a) => a.startsWith("play "));
    if (!plays.length) return;
    const p = plays[this.hintIdx % plays.length];
    this.hintIdx++;
    this.raiseOnly(splitCards(p.slice(5)));
  }

  /** 亮 ♥3 for a first declaration, 反主 ♥3 ♥3 for an overcall of another seat's standing one. */
  declareLabel(a) {
    const st = this.obs()?.standing;
    const over = st && st[0] !== this.you;
    return t(over ? "overcall_btn" : "declare_btn", { cards: cardsText(a.slice(8)) });
  }

  /** The move row.  While dealing, a button for each declaration the seat may make now (several seats answer
   * every window at once; the buttons stay put from window to window while the choice is the same, so a click
   * lands); in play 提示 and 出牌 with the reason a selection cannot be played. */
  renderActions(force = false) {
    if (!this.model) return;
    const obs = this.obs();
    const st = this.model.state;
    const legal = this.legal();
    const busy = !!this.pending;
    const sel = this.selectedCards();
    const dealing = obs && (obs.phase === "deal" || obs.phase === "final");
    const sig = [this.live, this.model.spectating, obs?.phase, dealing ? "" : st?.version, busy, this.myTurn(),
      legal.join(","), sel.join(" "), dealing ? "" : this.checks.size].join("|");
    if (!force && sig === this.actSig) return;
    this.actSig = sig;
    const main = h("div");  // morphed in (shell/util.js): a button stays the same element from message to message
    this.fillActions(main, obs, legal, busy, dealing);
    morph(this.s.actMain, main);
    clear(this.s.tools);
  }

  fillActions(main, obs, legal, busy, dealing) {
    const reasonEl = this.s.reason;
    reasonEl.textContent = "";
    if (!this.live || !obs || this.model.spectating) return;
    // between two windows of the deal (no decision open for a moment) the last window's declarations stay, the
    // same buttons: the keyboard's focus on one was lost each time they went and came back
    const deal = this.model.state?.deal;
    if (dealing && this.myTurn()) this.lastDecl = { deal, decl: legal.filter((a) => a.startsWith("declare ")) };
    const between = dealing && !this.myTurn() && this.lastDecl?.deal === deal && !!this.lastDecl.decl.length;
    if (dealing && (this.myTurn() || between)) {
      const decl = this.lastDecl.decl;
      for (const a of decl) {
        add(main, h("button.btn.primary.sj-declare", { type: "button", "data-action": a, "data-declare": a.slice(8), disabled: busy,
          onclick: () => this.declare(a) }, this.declareLabel(a)));
      }
      if (obs.phase === "final" && !between) {
        add(main, h("button.btn.ghost", { type: "button", "data-action": "pass", disabled: busy, onclick: () => this.send("pass") }, t("cap_pass")));
      }
      if (decl.length) reasonEl.textContent = t("declare_hint");
    } else if (this.myTurn() && obs.phase === "play") {
      add(main, h("button.btn", { type: "button", "data-action": "hint", onclick: () => this.hint(), title: "H" }, t("hint"), h("kbd", "H")));
      const j = this.judge();
      const reason = j.ok ? "" : t(j.reason, j.params);
      add(main, h("button.btn.primary", { type: "button", "data-action": "play", disabled: busy || !j.ok,
        title: reason || "Enter", "data-reason": j.ok ? "" : j.reason, onclick: () => this.playSelected() }, t("play"), h("kbd", "⏎")));
      if (obs.lead) add(reasonEl, h("span.sj-lead", t("lead_is", { cards: cardsText(obs.lead.cards) })), " ");
      add(reasonEl, reason);
    }
  }

  key(e) {
    // ← → Space ↑ ↓ pick cards (shell/handpick.js)
    if (keyPick(this, e, { card: ".sj-card", changed: () => { this.paintRaised(); this.renderActions(); } })) return;
    if (e.key === "Enter") {
      e.preventDefault();
      this.playSelected();
    } else if (e.key === "h" || e.key === "H") {
      this.hint();
    } else if (e.key === "Escape") {
      this.lowerAll();
    }
  }

  // ------------------------------------------------------------------------------------------ cues
  cues() {
    const st = this.model.state;
    const obs = this.obs();
    if (!st || !obs || !this.live) return;
    // a failed throw (甩牌失败), any seat's: a notice once, when it happens (its mark stays by the play)
    const failed = obs.failed_throws || [];
    if (st.deal === this.seenDeal && failed.length > this.seenFailed) {
      for (const f of failed.slice(this.seenFailed)) {
        this.ctx.toast(failedThrowText(f, (s) => this.name(s)), "warn", 5000, `sj-failed-${f.seat}`);
      }
    }
    this.seenFailed = failed.length;
    if (st.deal !== this.seenDeal) {
      this.seenDeal = st.deal;
      this.seenTricks = obs.tricks.length;
      this.seenTrick = obs.trick.length;
      if (obs.phase === "deal" && obs.dealt <= 4) this.ctx.sound("deal");
      return;
    }
    if (obs.tricks.length !== this.seenTricks || obs.trick.length !== this.seenTrick) {
      if (obs.trick.length > this.seenTrick || obs.tricks.length > this.seenTricks) this.ctx.sound("play");
      this.seenTricks = obs.tricks.length;
      this.seenTrick = obs.trick.length;
    }
  }

  // ------------------------------------------------------------------------------------------ dialogs
  showLastTrick() {
    const obs = this.obs();
    const lt = obs?.last_trick;
    const body = h("div.sj-last-trick");
    if (!lt) add(body, h("p.muted", t("no_last_trick")));
    else {
      add(body, h("p.sj-lt-head", t("trick_n", { n: obs.tricks.length }), " · ", t("trick_won", { name: this.name(lt.winner), n: lt.points })));
      for (const [seat, cards] of lt.plays) {
        add(body, h("div.pt-row", { dataset: { seat }, class: seat === lt.winner ? "won" : undefined },
          h("span.pt-name", this.name(seat)), h("div.pt-play", playEl(cards, "sm")),
          seat === lt.winner ? h("span.sj-won", t("winner_mark")) : null));
      }
    }
    modal({ id: "last-trick-dialog", title: t("last_trick"), body });
  }
}

