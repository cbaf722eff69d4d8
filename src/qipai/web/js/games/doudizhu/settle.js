// The Dou Dizhu settlement in a form a player can check: the base (stake × bid), the factors every farmer
// shares, then for each seat its own multiplier as the product of named factors and how its score follows
// (a farmer: stake × bid × own multiplier; the landlord: the sum of what the farmers pay or receive).
import { h, add, fmtDelta } from "../../shell/util.js";
import { displayName, seatLabel } from "../../shell/i18n.js";
import { standingAfter } from "../../shell/games.js";
import { t, factorName, parseFactor } from "./words.js";
import { cardEl, sortHand } from "./cards.js";
import { factorsText } from "./view.js";

const prod = (list) => list.reduce((a, f) => a * (f.factor || 1), 1);

function namer(result, model) {
  return (seat) => {
    const c = (result.changes || []).find((x) => x.seat === seat);
    if (c?.name) return displayName(c.name);
    const s = model.table?.seats?.[seat];
    return seatLabel(seat, s);
  };
}

export function settlementContent(result, model) {
  const o = result.outcome || {};
  const changes = result.changes || [];
  const you = model.you;
  const n = model.table?.players || changes.length || (o.scores || []).length || 3;
  const name = namer(result, model);
  const stake = o.stake ?? 1;
  const bid = o.bid ?? 0;
  const scores = o.scores || [];
  const seated = you !== null && you !== undefined;
  const lord = o.landlord;
  let title;
  let cls = "";
  const esc = o.escaped;
  if (o.dissolved) title = t("dissolved");
  else if (esc !== null && esc !== undefined) {
    title = t("escaped", { name: name(esc) });
    cls = seated && esc === you ? "lose" : "";
  } else if (seated && scores.length) {
    const d = scores[you];
    title = d > 0 ? t("you_win") : d < 0 ? t("you_lose") : o.winner === "landlord" ? t("landlord_wins") : t("farmers_win");
    cls = d > 0 ? "win" : d < 0 ? "lose" : "";
  } else title = o.winner === "landlord" ? t("landlord_wins") : o.winner === "farmers" ? t("farmers_win") : t("settlement");
  const sub = o.winner ? (o.winner === "landlord" ? t("landlord_wins") : t("farmers_win")) : "";
  const body = h("div.settle-body.ddz-settle");
  const common = (o.factors || []).map(parseFactor);
  // an escape: what it cost, and how
  if (esc !== null && esc !== undefined) {
    const cost = -(scores[esc] || 0);
    add(body, h("p.note.escape", { "data-escape": esc }, t("escape_cost", { name: name(esc), n: cost })));
    const factor = model.state?.observation?.rules?.escape_factor ?? model.table?.options?.escape_factor;
    const mult = o.multiplier ?? 1;
    if (factor && bid && factor * bid * mult * stake === cost) {
      add(body, h("p.note.formula", t("escape_formula", { factor, bid, mult, stake, n: cost })));
    }
  }
  // the base and the factors every farmer's settlement shares
  const fl = h("ul.factors");
  add(fl, h("li.factor", { dataset: { name: "base" } }, h("span", t("base_row", { stake, bid })), h("b", String(stake * bid))));
  for (const f of common) {
    add(fl, h("li.factor", { dataset: { name: f.name } }, h("span", factorName(f.name) +
      (f.seat !== undefined && f.seat !== null ? ` · ${name(f.seat)}` : "")), h("b", "×" + f.factor)));
  }
  add(fl, h("li.factor.total", { dataset: { name: "total" } }, h("span", t("common_mult")), h("b", "×" + (o.multiplier ?? prod(common)))));
  add(body, fl);
  // each seat: its own multiplier as named factors, and how its score follows
  const farmerAmount = {};
  const rows = [];
  const hasLord = lord !== null && lord !== undefined;
  for (let seat = 0; seat < n; seat++) {
    if (!hasLord || seat === lord) continue;
    const own = ((o.farmer_factors || {})[String(seat)] || []).map(parseFactor);
    const mult = (o.seat_multipliers || {})[String(seat)] ?? (o.multiplier ?? 1) * prod(own);
    farmerAmount[seat] = { own, mult, amount: stake * bid * mult };
  }
  for (let seat = 0; seat < n; seat++) {
    const c = changes.find((x) => x.seat === seat) || {};
    const delta = scores.length ? scores[seat] : c.delta;
    let multCell = "";
    let howCell = "";
    if (hasLord && !o.dissolved && (esc === null || esc === undefined)) {
      if (seat === lord) {
        const parts = Object.keys(farmerAmount).map((f) => Math.abs(scores[Number(f)] ?? 0));
        multCell = "—";
        howCell = t("sum_row", { parts: parts.join(" + "), n: parts.reduce((a, b) => a + b, 0) });
      } else if (farmerAmount[seat]) {
        const fa = farmerAmount[seat];
        const named = factorsText([...common, ...fa.own]);
        multCell = named ? `${named} = ×${fa.mult}` : "×" + fa.mult;
        howCell = `${stake} × ${bid} × ${fa.mult} = ${fa.amount}`;
        if (Math.abs(delta ?? 0) !== fa.amount) howCell += ` → ${Math.abs(delta ?? 0)}`;
      }
    }
    const standing = standingAfter(c, model, model.info?.name || "doudizhu");
    rows.push(h("tr", { class: seat === you ? "me" : undefined, dataset: { seat } },
      h("td.who",
        h("div.nm", name(seat), o.autoplay && o.autoplay[seat] ? h("span.badge.auto", t("autoplay_note")) : null,
          esc === seat ? h("span.badge.off.esc", t("escape_mark")) : null),
        h("div.sub", hasLord ? t(seat === lord ? "landlord" : "farmer") : "", standing ? h("span.standing-after", standing) : null)),
      h("td.mult", { dataset: { mult: seat === lord ? "" : farmerAmount[seat]?.mult ?? "" } }, multCell),
      h("td.how", howCell),
      h("td.delta", { class: delta > 0 ? "pos" : delta < 0 ? "neg" : undefined }, fmtDelta(delta))));
  }
  add(body, h("div.scroll", h("table.grid.settle-table", h("thead", h("tr", h("th", t("player")),
    h("th", t("seat_mult")), h("th", t("how")), h("th", t("delta")))), h("tbody", rows))));
  for (const p of o.payments || []) {
    if (p.paid !== p.owed) add(body, h("p.note", `${name(p.payer)} → ${name(p.payee)}: ${t("capped", { owed: p.owed, paid: p.paid })}`));
  }
  if (hasLord && (o.autoplay || []).some(Boolean) && model.state?.observation?.rules?.autoplay_split) {
    const lordWins = o.winner === "landlord";
    add(body, h("p.note", t("split_note", { who: t(lordWins ? "split_auto" : "split_active") })));
  }
  const flags = [];
  if (o.spring) flags.push(t("spring"));
  if (o.anti_spring) flags.push(t("anti_spring"));
  if (flags.length) add(body, h("p.flags", flags.map((f) => h("span.chip.big", f))));
  const obs = model.state?.observation;
  if (obs && obs.hands && seated) {
    const mine = obs.hands[you] || [];
    if (mine.length) add(body, h("div.remaining", h("span", t("remaining")), h("div.kitty-cards", sortHand(mine, "rank").map((c) => cardEl(c, { size: "xs" })))));
  }
  return { title, cls, sub, body };
}
