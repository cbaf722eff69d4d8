// The Daqing mahjong table: four rivers and the melds around a middle (wall, 宝, the discard a claim window is
// about), the viewer's concealed tiles with the drawn tile apart, claim buttons (吃 碰 胡 过, 吃听 碰听) with the
// window's countdown for the seats that may claim, 听 (after which the engine draws and discards for the player).
// A click on a tile raises it; a second click (or 打出 / 听) plays it.
import { h, add, clear, morph } from "../../shell/util.js";
import { t } from "./words.js";
import { tileEl, meldEl, parseTiles, sortTiles, tilesText, tileName } from "./tiles.js";
import { TableView } from "../../shell/tableview.js";

const POS = ["bottom", "right", "top", "left"];

/** A legal action's text (``chi 456m ting``) → {verb, tiles, ting, zhidui}. */
export function parseAction(a) {
  const w = String(a).trim().split(/\s+/);
  const out = { verb: w[0], arg: w[1] || "", ting: w.includes("ting") && w[0] !== "ting", zhidui: null };
  const z = w.indexOf("zhidui");
  if (z >= 0) out.zhidui = w[z + 1];
  return out;
}

/** The words of a claim or turn action for a button. */
export function actionLabel(a) {
  const p = parseAction(a);
  switch (p.verb) {
    case "chi": return (p.ting ? t("chi_ting") : t("chi")) + " ";
    case "peng": return p.ting ? t("peng_ting") : t("peng");
    case "hu": return t("hu");
    case "pass": return t("pass");
    case "discard": return t("discard");
    case "ting": return p.zhidui ? t("ting_zhidui", { tile: tileName(p.zhidui) }) : t("ting");
    default: return a;
  }
}

export class MahjongView extends TableView {
  constructor(slots, ctx) {
    super(slots, ctx);
    this.selected = null; // the raised tile's kind
    this.selFor = "";
    this.onResize = () => this.fitTiles();  // a phone turned: the felt is measured again at once
    window.addEventListener("resize", this.onResize);
  }

  destroy() {
    window.removeEventListener("resize", this.onResize);
  }

  tableTitle() {
    return t("game_name");
  }

  pos(seat) {
    const base = this.you ?? 0;
    return POS[(seat - base + 4) % 4];
  }

  update(model) {
    const st = model.state;
    if (st !== this.lastStateRef) {
      this.lastStateRef = st;
      if (this.pending && (!st || st.version !== this.pending.version || st.deal !== this.pending.deal)) this.pending = null;
      const sig = st ? `${st.deal}:${st.decision}:${st.phase}` : "";
      if (sig !== this.selFor) {
        this.selFor = sig;
        this.selected = null;
        this.claimFold = false;  // a claim row too wide for one line: one button a claim (吃 …), then its ways
        this.claimPick = null;   // the claim whose ways the row shows (chi, peng)
      }
    }
    this.model = model;
    this.you = model.you;
    this.renderInfo();
    this.renderCenter();
    this.renderMeGame();
    this.renderHand();
    this.renderActions();
    this.fitTiles();
  }

  /** A live felt too short for what lies on it (a 360 × 740 phone late in a deal: twenty discards a seat) let the
   * viewer's river run down over his bar: the rivers' and melds' tiles are made smaller, a step at a time, until
   * the felt holds them (at most to 60%); measured again at every message and when the window's size changes (a
   * new deal, a taller window: their size back).  Within a deal and a window's size they never grow again: made
   * smaller for a claim window (the discard it is about in the middle), they grew back at the next message and
   * shrank at the next window, the whole felt jumping at every claim. */
  fitTiles() {
    const el = this.s.root;
    if (!this.live || !el) return;
    const felt = el.querySelector(".felt");
    const mid = felt?.querySelector(".mj-mid");
    // the felt holds its grid, and the middle its wall and claimed discard (its row shrinks to nothing first)
    const fits = () => felt.scrollHeight <= felt.clientHeight + 1 && (!mid || mid.scrollHeight <= mid.clientHeight + 1);
    const fitFor = `${this.model?.state?.deal}:${innerWidth}x${innerHeight}`;
    const most = this.fitted?.for === fitFor ? this.fitted.k : 1;  // the largest size still allowed
    this.fitted = { for: fitFor, k: 1 };
    el.style.removeProperty("--mj-sm");
    el.style.removeProperty("--mj-xs");
    if (!felt || (most >= 1 && fits())) return;
    const sm = felt.querySelector(".mj-river .mj-tile")?.getBoundingClientRect().width;
    if (!sm) return;
    const xs = felt.querySelector(".mj-meld .mj-tile")?.getBoundingClientRect().width || sm * .74;
    for (let k = 0.92; k >= 0.6; k -= 0.08) {
      if (k > most + 0.001) continue;
      el.style.setProperty("--mj-sm", `${(sm * k).toFixed(1)}px`);
      el.style.setProperty("--mj-xs", `${(xs * k).toFixed(1)}px`);
      this.fitted.k = k;
      if (fits()) return;
    }
  }

  // ------------------------------------------------------------------------------------------ top bar
  renderInfo() {
    const info = clear(this.s.info);
    const obs = this.obs();
    if (!obs) return;
    add(info, h("span.mj-wall", { "data-wall": obs.wall }, t("wall", { n: obs.wall })));
    add(info, this.baoEl(obs, "xs"));
  }

  baoEl(obs, size) {
    if (!obs.bao_set && !obs.bao) return null;
    const el = h("span.mj-bao", { dataset: { bao: obs.bao || "" } }, h("span.lbl", t("bao")));
    if (obs.bao) el.append(tileEl(obs.bao, { size, cls: "bao" }));
    else el.append(tileEl("", { size, back: true }), h("span.lbl.hidden-bao", t("bao_hidden")));
    return el;
  }

  // ------------------------------------------------------------------------------------------ seats
  /** The game's part of a seat box: 庄 and 听 badges, the concealed count, the hand face up once public. */
  seat(seat, el, model, box) {
    this.model = model;
    this.you = model.you;
    const obs = model.state?.observation;
    if (!obs) return;
    const badges = box.querySelector(".badges");
    if (obs.dealer === seat) badges?.prepend(h("span.badge.role.mj-dealer", t("dealer")));
    if (obs.ready?.[seat]) badges?.prepend(h("span.badge.mj-ready", { dataset: { ready: seat } }, t("ready")));
    add(el, h("div.mj-count", { title: t("tiles_n", { n: obs.concealed[seat] }) }, h("span.mj-back-mini"),
      h("b", String(obs.concealed[seat]))));
  }

  faceUp(obs, seat) {
    if (obs.all_hands && obs.all_hands[seat]) return sortTiles(parseTiles(obs.all_hands[seat]));
    if (obs.hands && obs.phase === "over") return sortTiles(parseTiles(obs.hands[seat]));
    return null;
  }

  // ------------------------------------------------------------------------------------------ the felt
  lastDiscarder(obs) {
    for (let i = (obs.log || []).length - 1; i >= 0; i--) {
      const e = obs.log[i];
      if (/^(discard|ting) /.test(e.action)) return e.seat;
      if (/^(chi|peng)/.test(e.action)) return null;
    }
    return null;
  }

  renderCenter() {
    const c = clear(this.s.center);
    const obs = this.obs();
    if (!obs) return;
    const board = h("div.mj-board");
    const last = obs.discard ? obs.discard.seat : this.lastDiscarder(obs);
    for (let seat = 0; seat < 4; seat++) {
      const zone = h("div.mj-zone", { dataset: { seat, pos: this.pos(seat) } });
      const face = seat !== this.you || !this.live ? this.faceUp(obs, seat) : null;
      if (face) {
        const row = h("div.mj-shown", { dataset: { seat } });
        for (const x of face) add(row, tileEl(x, { size: "xs" }));
        add(zone, row);
      }
      if (seat !== this.you) {
        const melds = h("div.mj-melds", { dataset: { seat } });
        for (const m of obs.melds[seat] || []) add(melds, meldEl(m, "xs"));
        if (melds.childNodes.length) add(zone, melds);
      }
      const river = h("div.mj-river", { dataset: { seat }, "aria-label": t("river") });
      const r = obs.rivers[seat] || [];
      r.forEach((x, i) => add(river, tileEl(x, { size: "sm", cls: i === r.length - 1 && seat === last ? "last" : "" })));
      add(zone, river);
      add(board, zone);
    }
    const mid = h("div.mj-mid");
    add(mid, this.compassEl(obs));
    if (obs.discard) {
      add(mid, h("div.mj-claim-on", { dataset: { seat: obs.discard.seat, tile: obs.discard.tile } },
        h("span", t("claim_on", { name: this.ctx.seatName(obs.discard.seat) })), tileEl(obs.discard.tile, { cls: "on-claim" })));
    }
    if (obs.old_bao?.length) {
      add(mid, h("div.mj-old-bao", h("span.lbl", t("old_bao")), obs.old_bao.map((x) => tileEl(x, { size: "xs" }))));
    }
    const st = this.model.state;
    if (obs.phase === "over" && this.live) add(mid, h("div.msg.mj-over", t("phase_over")));
    else if (this.live && st && st.you !== null && st.you !== undefined && st.autoplay?.[st.you]) add(mid, h("div.msg.small.auto", t("auto_on_msg")));
    else if (this.live && this.you !== null && this.you !== undefined && obs.ready?.[this.you]) add(mid, h("div.msg.small.mj-ready-msg", t("ready_auto")));
    add(board, mid);
    add(c, board);
  }

  /** The middle of a desktop's table (style hides it on narrower screens, where the top bar says it): the tiles
   * left in the wall and the 宝 (face down until the viewer is ready). */
  compassEl(obs) {
    const el = h("div.mj-compass", { dataset: { wall: obs.wall }, title: t("wall", { n: obs.wall }) },
      h("span.lbl", t("wall_left")), h("b.n", String(obs.wall)));
    if (obs.bao) el.append(h("span.mj-compass-bao", h("span.lbl", t("bao")), tileEl(obs.bao, { size: "xs", cls: "bao" })));
    else if (obs.bao_set) el.append(h("span.mj-compass-bao", { title: t("bao_hidden") }, h("span.lbl", t("bao")), tileEl("", { size: "xs", back: true })));
    return el;
  }

  renderMeGame() {
    const el = clear(this.s.meGame);
    const obs = this.obs();
    const you = this.you;
    if (you === null || you === undefined || !obs) return;
    if (obs.dealer === you) add(el, h("span.badge.role.mj-dealer", t("dealer")));
    if (obs.ready?.[you]) add(el, h("span.badge.mj-ready", { dataset: { ready: you } }, t("ready")));
    if (obs.ready?.[you] && obs.bao) add(el, this.baoEl(obs, "xs"));
    const hi = obs.hints;
    if (hi && obs.phase !== "over") {
      if (hi.waits?.length) add(el, h("span.mj-waits", t("waits", { tiles: tilesText(hi.waits.map((w) => w.tile)) })));
      else if (typeof hi.shanten === "number") add(el, h("span.mj-shanten", { dataset: { shanten: hi.shanten } },
        hi.shanten === 0 ? t("shanten_ready") : t("shanten", { n: hi.shanten })));
    }
  }

  // ------------------------------------------------------------------------------------------ the hand
  canPlayTiles() {
    const obs = this.obs();
    return this.myTurn() && obs?.phase === "play" && (obs.must === "discard" || obs.must === "ting");
  }

  /** The kinds the seat may play now, and those that make it ready. */
  playable() {
    const discard = new Set();
    const ting = new Set();
    for (const a of this.legal()) {
      const p = parseAction(a);
      if (p.verb === "discard") discard.add(p.arg);
      if (p.verb === "ting") ting.add(p.arg);
    }
    return { discard, ting };
  }

  goodTiles(obs) {
    const ds = obs.hints?.discards;
    if (!ds?.length) return new Set();
    const best = Math.min(...ds.map((d) => d.shanten));
    return new Set(ds.filter((d) => d.shanten === best).map((d) => d.tile));
  }

  renderHand() {
    const hand = clear(this.s.hand);
    const obs = this.obs();
    const you = this.you;
    if (you === null || you === undefined || !obs || obs.hand === undefined) return;
    const wrap = h("div.mj-hand");
    const melds = h("div.mj-melds.mine");
    for (const m of obs.melds[you] || []) add(melds, meldEl(m, "sm"));
    if (melds.childNodes.length) add(wrap, melds);
    const active = this.canPlayTiles();
    const { discard, ting } = this.playable();
    const good = active ? this.goodTiles(obs) : new Set();
    const row = h("div.mj-concealed");
    const mk = (x, drawn) => {
      const ok = discard.has(x) || ting.has(x);
      const cls = [drawn ? "drawn" : "", active && !ok ? "dim" : "", active && good.has(x) ? "good" : "",
        active && ting.has(x) ? "can-ting" : "", this.selected === x && active ? "raised" : ""].filter(Boolean).join(" ");
      const el = tileEl(x, { cls });
      if (active) el.addEventListener("click", () => this.clickTile(x));
      return el;
    };
    const tiles = parseTiles(obs.hand);
    for (const x of tiles) add(row, mk(x, false));
    if (obs.drawn) add(row, mk(obs.drawn, true));
    // a hand waiting to draw keeps the drawn tile's place: the row (centred) must not move as the tile comes
    else if (tiles.length % 3 === 1) add(row, h("span.mj-slot", { "aria-hidden": "true" }));
    add(wrap, row);
    add(hand, wrap);
    // only one tile of a kind is raised (tiles of a kind are the same)
    const raised = row.querySelectorAll(".mj-tile.raised");
    for (let i = 1; i < raised.length; i++) raised[i].classList.remove("raised");
  }

  /** What the page drawn again in place (a language switch) keeps: the raised tile of this decision, and in a
   * claim window the claim whose ways the row shows (吃 ①②③: it went back to the claims) (shell/main.js). */
  keep() {
    return { selected: this.selected, selFor: this.selFor, claimPick: this.claimPick };
  }

  restore(kept) {
    if (kept.selFor !== this.selFor || !(kept.selected || kept.claimPick)) return;
    this.selected = kept.selected ?? null;
    this.claimPick = kept.claimPick ?? null;
    this.renderHand();
    this.renderActions();
  }

  clickTile(x) {
    if (!this.canPlayTiles() || this.pending) return;
    if (this.selected === x) {
      this.playSelected();
      return;
    }
    this.selected = x;
    this.renderHand();
    this.renderActions();
  }

  /** The tile raised, played: 打出 where a discard is allowed, else the first 听 it makes. */
  playSelected() {
    const x = this.selected;
    if (!x) return;
    const legal = this.legal();
    if (legal.includes(`discard ${x}`)) this.send(`discard ${x}`);
    else if (legal.includes(`ting ${x}`)) this.send(`ting ${x}`);
    else this.flash(this.obs()?.must === "ting" ? t("not_ting_tile") : t("pick_tile"));
  }

  flash(text) {
    const r = this.s.reason;
    r.textContent = text;
    r.classList.remove("flash");
    void r.offsetWidth;
    r.classList.add("flash");
  }

  // ------------------------------------------------------------------------------------------ buttons
  button(a, { cls = "primary", label = null, disabled = false } = {}) {
    const p = parseAction(a);
    const el = h("button.btn", { type: "button", class: cls, "data-action": a, disabled: disabled || !!this.pending,
      onclick: () => this.send(a) }, label ?? actionLabel(a));
    if (p.verb === "chi") {
      const tiles = h("span.mj-btn-tiles");
      for (const x of parseTiles(p.arg)) add(tiles, tileEl(x, { size: "xs" }));
      el.append(tiles);
    }
    return el;
  }

  secondsLeft() {
    const st = this.model?.state;
    if (!st || st.deadline_ms === null || st.deadline_ms === undefined) return null;
    return Math.max(0, Math.ceil((st.deadline_ms - (performance.now() - (this.model.stateAt || 0))) / 1000));
  }

  /** The action bar, morphed in (shell/util.js): a button stays the same element from message to message. */
  renderActions() {
    if (!this.model) return;
    const main = h("div");
    this.fillActions(main);
    morph(this.s.actMain, main);
    clear(this.s.tools);
    // a claim window's buttons on two lines would push the tools above them up as the window opens (a finger
    // held on 托管 would lift elsewhere): the row is drawn again with one button a claim before the page is painted
    if (this.obs()?.phase === "claim" && !this.claimFold && !this.claimPick && wraps(this.s.actMain)) {
      this.claimFold = true;
      const folded = h("div");
      this.fillActions(folded);
      morph(this.s.actMain, folded);
    }
  }

  fillActions(main) {
    const obs = this.obs();
    const reason = this.s.reason;
    reason.textContent = "";
    if (!this.live || !obs || this.model.spectating) return;
    const legal = this.legal();
    if (obs.phase === "claim" && obs.answered && !this.myTurn()) {
      reason.textContent = t("answered", { what: actionLabel(obs.answered) });
    }
    if (!this.myTurn()) return;
    if (obs.phase === "claim") {
      const order = (a) => (a === "pass" ? 9 : a === "hu" ? 0 : a.includes("ting") ? 1 : 2);
      const sorted = [...legal].sort((x, y) => order(x) - order(y));
      const cls = (a) => (a === "pass" ? "ghost" : a === "hu" ? "primary hu" : "primary");
      const verb = (a) => parseAction(a).verb;
      if (this.claimPick) {
        // the ways of one claim (吃 ①②③, 吃听 ②③④ …), and back to the claims
        for (const a of sorted.filter((a) => verb(a) === this.claimPick)) add(main, this.button(a));
        add(main, h("button.btn.ghost", { type: "button", "data-action": "claim-back",
          onclick: () => { this.claimPick = null; this.renderActions(); } }, t("claim_back")));
      } else {
        const shown = new Set();
        for (const a of sorted) {
          const v = verb(a);
          const ways = sorted.filter((b) => verb(b) === v).length;
          if (!this.claimFold || ways === 1) add(main, this.button(a, { cls: cls(a) }));
          else if (!shown.has(v)) {
            shown.add(v);
            add(main, h("button.btn.primary", { type: "button", "data-action": `claim-${v}`, disabled: !!this.pending,
              onclick: () => { this.claimPick = v; this.renderActions(); } }, t("claim_ways", { what: t(v), n: ways })));
          }
        }
      }
      // the window's seconds, as the server counts them for this seat (in 托管 too: the seat may still claim by
      // hand until its auto-play answers); no deadline known, no countdown (never an empty circle)
      const left = this.secondsLeft();
      if (left !== null) {
        add(main, h("span.mj-countdown", { dataset: { left }, class: left <= 3 ? "low" : undefined }, t("claim_left", { n: left })));
      }
      return;
    }
    if (obs.must === "win" || obs.must === "dailou") {
      add(main, this.button("hu", { cls: "primary hu" }), this.button("pass", { cls: "ghost" }));
      reason.textContent = t("offered_win");
      return;
    }
    if (legal.includes("hu")) add(main, this.button("hu", { cls: "primary hu" }));
    const x = this.selected;
    const canDiscard = !!x && legal.includes(`discard ${x}`);
    if (obs.must !== "ting") {
      add(main, h("button.btn.primary", { type: "button", "data-action": "discard", disabled: !canDiscard || !!this.pending,
        onclick: () => canDiscard && this.send(`discard ${x}`) }, t("discard")));
    }
    const tings = legal.filter((a) => a.startsWith("ting "));
    if (tings.length) {
      const mine = x ? tings.filter((a) => parseAction(a).arg === x) : [];
      if (mine.length) {
        for (const a of mine) add(main, this.button(a, { cls: "primary ting" }));
      } else {
        add(main, h("button.btn.primary.ting", { type: "button", "data-action": "ting", disabled: true }, t("ting")));
      }
    }
    reason.textContent = obs.must === "ting" ? t("must_ting") : x ? "" : t("pick_tile");
  }

  tick() {
    const el = this.s.actMain.querySelector(".mj-countdown");
    if (!el) return;
    const left = this.secondsLeft();
    if (left === null) {
      el.remove();
      return;
    }
    el.dataset.left = left;
    el.textContent = t("claim_left", { n: left });
    el.classList.toggle("low", left <= 3);
  }

  /** The keyboard: ← → raise the tile before or after the raised one (from the drawn tile), among those that
   * may be discarded now; Enter discards it (as a second click does); Escape lowers it. */
  key(e) {
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      if (!this.canPlayTiles() || this.pending) return;
      const obs = this.obs();
      const { discard, ting } = this.playable();
      const order = [...new Set([...parseTiles(obs.hand), ...(obs.drawn ? [obs.drawn] : [])])]
        .filter((x) => discard.has(x) || ting.has(x));
      if (!order.length) return;
      e.preventDefault();
      const at = order.indexOf(this.selected);
      const step = e.key === "ArrowLeft" ? -1 : 1;
      const next = at < 0 ? (obs.drawn && order.includes(obs.drawn) ? obs.drawn : order[order.length - 1])
        : order[(at + step + order.length) % order.length];
      this.selected = next;
      this.renderHand();
      this.renderActions();
    } else if (e.key === "Enter" && this.selected) {
      e.preventDefault();
      this.playSelected();
    } else if (e.key === "Escape" && this.selected) {
      this.selected = null;
      this.renderHand();
      this.renderActions();
    }
  }
}

/** Whether a row's children lie on more than one line (one starts below another's bottom). */
function wraps(row) {
  const kids = [...row.children];
  const bottom = Math.min(...kids.map((e) => e.offsetTop + e.offsetHeight));
  return kids.some((e) => e.offsetTop >= bottom - 1);
}
