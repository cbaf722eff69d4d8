// The Shengji settlement in words: the trump and level played, the attackers' points before the last trick, the
// last-trick bonus (扣底) and penalties, the score, what it did to the levels, the next banker, each seat's
// platform points (at a match table: its match points).
import { h, add, fmtDelta } from "../../shell/util.js";
import { displayName, seatLabel } from "../../shell/i18n.js";
import { standingAfter } from "../../shell/games.js";
import { t } from "./words.js";
import { suitWords, teamOf } from "./view.js";

const lv = (x) => (x === "T" ? "10" : x);

export function settlementContent(result, model) {
  const o = result.outcome || {};
  const changes = result.changes || [];
  const you = model.you;
  const seated = you !== null && you !== undefined;
  const name = (seat) => {
    const c = changes.find((x) => x.seat === seat);
    if (c?.name) return displayName(c.name);
    const s = model.table?.seats?.[seat];
    return seatLabel(seat, s);
  };
  const teamName = (team) => `${name(team)} · ${name(team + 2)}`;
  const scores = o.scores || [];
  const esc = o.escaped;
  const body = h("div.settle-body.sj-settle");
  let title;
  let cls = "";
  if (esc !== null && esc !== undefined) {
    title = t("escaped", { name: name(esc) });
    cls = seated && esc === you ? "lose" : "";
    add(body, h("p.note.escape", { "data-escape": esc }, t("escape_cost", { name: name(esc), n: -(scores[esc] || 0) })));
  } else {
    const bankWon = !!o.banker_won;
    const sideText = t(bankWon ? "banker_wins" : "attackers_win");
    if (seated && o.won) {
      title = o.won[you] ? t("you_win") : t("you_lose");
      cls = o.won[you] ? "win" : "lose";
    } else title = sideText;
    const rows = h("ul.factors.sj-lines");
    const line = (key, label, value) => add(rows, h("li.factor", { dataset: { name: key } }, h("span", label), value === undefined ? null : h("b", String(value))));
    line("trump", t("s_trump", { level: t("level", { level: lv(o.level) }), trump: t("trump_suit", { suit: suitWords(o.trump) }) }));
    if (o.banker !== null && o.banker !== undefined) line("banker", `${t("banker_lbl")}: ${name(o.banker)}`);
    // the points won before the last trick, once; "(before the last trick)" only where the last trick then changes
    // the tally (扣底 below), not "(最后一轮前 320 分) 320" when it adds nothing
    const lt = o.last_trick;
    line("points", t("s_points") + (lt && lt.amount ? t("s_paren", { text: t("s_before_last") }) : ""), o.attackers_points_before_last);
    if (lt) {
      const text = !lt.points ? t("s_kou_di_none")
        : t(lt.side === "attackers" ? "s_kou_di_att" : "s_kou_di_bank", { pts: lt.points, m: lt.m, amount: Math.abs(lt.amount) });
      line("kou_di", `${t("s_kou_di")}: ${text}`, lt.amount > 0 ? "+" + lt.amount : String(lt.amount));
    }
    if (o.penalties) line("penalty", t("s_penalty"), "+" + o.penalties);
    line("score", t("s_score"), o.score);
    add(body, rows);
    // the levels: before and after, and why
    const before = o.levels || [];
    const after = o.new_levels || [];
    const bt = o.banker !== null && o.banker !== undefined ? teamOf(o.banker) : 0;
    const winner = o.winning_team ?? (bankWon ? bt : 1 - bt);
    const d = o.d_applied ?? 0;
    let change;
    if (bankWon) {
      change = t(o.d_nominal !== undefined && o.d_nominal !== d ? "s_change_bank_capped" : "s_change_bank",
        { d: o.d_nominal ?? d, from: lv(before[winner]), to: lv(after[winner]) });
    } else {
      change = d > 0 ? t("s_change_att", { d, from: lv(before[winner]), to: lv(after[winner]) })
        : t("s_change_att_zero", { from: lv(before[winner]) });
    }
    add(body, h("p.sj-change", { dataset: { winner, d } }, h("b", sideText), " — ", change));
    add(body, h("table.grid.sj-levels", h("thead", h("tr", h("th", t("s_levels")), h("th", ""), h("th", ""))),
      h("tbody", [0, 1].map((team) => h("tr", { dataset: { team, before: before[team], after: after[team] } },
        h("td", teamName(team)), h("td", t("level", { level: lv(before[team]) })),
        h("td", { class: after[team] !== before[team] ? "pos" : undefined }, "→ " + t("level", { level: lv(after[team]) })))))));
    add(body, h("p.note.sj-rule", t("s_level_rule")));
    if (o.match_over) {
      add(body, h("p.sj-match", { dataset: { matchOver: "1" } },
        o.match_winner === null || o.match_winner === undefined ? t("s_match_draw") : t("s_match_over", { team: teamName(o.match_winner) })));
    } else if (o.next_banker !== null && o.next_banker !== undefined) {
      add(body, h("p.sj-next", { dataset: { nextBanker: o.next_banker } }, t("s_next_banker", { name: name(o.next_banker) })));
    }
  }
  const trs = [];
  for (let seat = 0; seat < 4; seat++) {
    const c = changes.find((x) => x.seat === seat) || {};
    const delta = scores.length ? scores[seat] : c.delta;
    const role = (o.roles || [])[seat];
    const standing = standingAfter(c, model, model.info?.name || "shengji");
    trs.push(h("tr", { class: seat === you ? "me" : undefined, dataset: { seat } },
      h("td.who", h("div.nm", name(seat), esc === seat ? h("span.badge.off.esc", t("escape_mark")) : null),
        standing ? h("div.sub", h("span.standing-after", standing)) : null),
      h("td.role", { dataset: { role: role || "" } }, seat === o.banker ? t("role_banker_seat") : role ? t("role_" + role) : ""),
      h("td.delta", { class: delta > 0 ? "pos" : delta < 0 ? "neg" : undefined }, fmtDelta(delta))));
  }
  add(body, h("div.scroll", h("table.grid.settle-table", h("thead", h("tr", h("th", t("player")), h("th", t("role")), h("th", t("delta")))),
    h("tbody", trs))));
  return { title, cls, sub: "", body };
}
