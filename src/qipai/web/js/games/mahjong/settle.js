// The Daqing mahjong settlement: who won, how (点炮 / 自摸 / 摸宝), on which tile read how; the hand's fans; for each
// loser his own fans and share (base × 2^fans); every payment with whom it was for (包三家: the feeder pays each
// loser's share); the four hands face up.
import { h, add, fmtDelta } from "../../shell/util.js";
import { displayName, seatLabel } from "../../shell/i18n.js";
import { standingAfter } from "../../shell/games.js";
import { t, fanName } from "./words.js";
import { tileEl, parseTiles, sortTiles, tileName, meldEl } from "./tiles.js";

function namer(result, model) {
  return (seat) => {
    const c = (result.changes || []).find((x) => x.seat === seat);
    if (c?.name) return displayName(c.name);
    const s = model.table?.seats?.[seat];
    return seatLabel(seat, s);
  };
}

const fansText = (fans) => (fans && fans.length ? fans.map(fanName).join(" · ") : "—");

export function settlementContent(result, model) {
  const o = result.outcome || {};
  const changes = result.changes || [];
  const you = model.you;
  const seated = you !== null && you !== undefined;
  const name = namer(result, model);
  const scores = o.scores || [];
  const st = o.settlement || null;
  const w = o.winner;
  const hasWinner = w !== null && w !== undefined && !o.exhausted;
  let title;
  let cls = "";
  if (!hasWinner) title = t("exhausted");
  else if (seated && w === you) {
    title = t("you_win");
    cls = "win";
  } else if (seated && (scores[you] ?? 0) < 0) {
    title = t("you_lose");
    cls = "lose";
  } else title = t("wins", { name: name(w) });
  const body = h("div.settle-body.mj-settle");
  let sub = "";
  if (!hasWinner) {
    add(body, h("p.note", t("exhausted_note")));
  } else {
    sub = t("wins", { name: name(w) }) + " · " +
      (o.how === "discard" ? t("how_discard", { name: name(o.feeder) }) : t("how_" + (o.how || "self_drawn")));
    const win = o.win || {};
    const line = h("div.mj-win-line", { dataset: { how: o.how || "" } }, h("span.lbl", t("win_tile")));
    if (win.tile) add(line, tileEl(win.tile, { size: "sm", cls: "win-tile" }));
    if (win.read_as && win.read_as !== win.tile) add(line, h("span", t("read_as", { tile: tileName(win.read_as) })));
    if (win.place) add(line, h("span.chip", t("place_" + win.place)));
    add(body, line);
    if (win.reading) {
      add(body, h("div.mj-reading", h("span.lbl", t("reading")),
        h("span.mj-tiles", parseTiles(win.reading).map((x) => tileEl(x, { size: "xs" })))));
    }
    const hf = st?.hand_fans || [];
    add(body, h("p.mj-hand-fans", { dataset: { fans: hf.join(" ") } }, t("hand_fans"), hf.length ? fansText(hf) : t("no_fans")));
  }
  // each seat: its fans and share (a loser), what it paid or got
  const shares = new Map((st?.shares || []).map((s) => [s.seat, s]));
  const base = model.state?.observation?.rules?.base ?? model.table?.options?.base ?? 1;
  const rows = [];
  const n = scores.length || 4;
  for (let seat = 0; seat < n; seat++) {
    const c = changes.find((x) => x.seat === seat) || {};
    const delta = scores.length ? scores[seat] : c.delta;
    const sh = shares.get(seat);
    const marks = [];
    if (o.dealer === seat) marks.push(h("span.badge.role.mj-dealer", t("dealer")));
    if (hasWinner && seat === w) marks.push(h("span.badge.mj-won", t("winner_mark")));
    if (hasWinner && seat === o.feeder) marks.push(h("span.badge.off", t("feeder_mark")));
    const standing = standingAfter(c, model, model.info?.name || "mahjong");
    rows.push(h("tr", { class: seat === you ? "me" : undefined, dataset: { seat } },
      h("td.who", h("div.nm", name(seat), ...marks), standing ? h("div.sub", h("span.standing-after", standing)) : null),
      h("td.fans", { dataset: { fans: sh ? sh.fans.join(" ") : "" } }, sh ? fansText(sh.fans) : ""),
      h("td.how", { dataset: { share: sh ? sh.share : "" } }, sh ? t("share_row", { base, k: sh.exponent, n: sh.share }) : ""),
      h("td.delta", { class: delta > 0 ? "pos" : delta < 0 ? "neg" : undefined }, fmtDelta(delta ?? 0))));
  }
  add(body, h("div.scroll", h("table.grid.settle-table", h("thead", h("tr", h("th", t("player")), h("th", t("fans")),
    h("th", t("share")), h("th", t("delta")))), h("tbody", rows))));
  // the payments, each with whom it was for
  const pays = st?.payments || [];
  if (pays.length) {
    const ul = h("ul.mj-payments");
    for (const p of pays) {
      const forOther = p.for !== null && p.for !== undefined && p.for !== p.payer;
      add(ul, h("li", { dataset: { payer: p.payer, payee: p.payee, for: p.for ?? "" } }, forOther
        ? t("paid_for", { payer: name(p.payer), payee: name(p.payee), loser: name(p.for), n: p.amount })
        : t("paid_by", { payer: name(p.payer), payee: name(p.payee), n: p.amount })));
    }
    add(body, ul);
  }
  if (st?.bao_san_jia) add(body, h("p.note.mj-bsj", t("bao_san_jia", { name: name(st.feeder) })));
  else if (st && st.feeder !== null && st.feeder !== undefined && st.feeder_ready) {
    add(body, h("p.note", t("ready_feeder", { name: name(st.feeder) })));
  }
  // the four hands
  const hands = o.hands || model.state?.observation?.hands;
  const melds = model.state?.observation?.phase === "over" ? model.state.observation.melds : null;
  if (hands) {
    const box = h("div.mj-hands", h("div.lbl", t("hands")));
    hands.forEach((hand, seat) => {
      add(box, h("div.mj-hand-row", { dataset: { seat } }, h("span.nm", name(seat)),
        h("span.mj-tiles", sortTiles(parseTiles(hand)).map((x) => tileEl(x, { size: "xs" }))),
        melds ? (melds[seat] || []).map((m) => meldEl(m, "xs")) : null));
    });
    add(body, box);
  }
  if (o.bao) add(body, h("div.mj-win-line", h("span.lbl", t("bao")), tileEl(o.bao, { size: "xs", cls: "bao" })));
  return { title, cls, sub, body };
}
