// 大结算 (Final results): the summary a table played for a set number of deals (好友房局数) sends when its last
// deal is settled — each player's total over its deals, ranked, the winner(s) marked, the deals won, the last
// deal's score and the best single deal — with 返回大厅.
import { h, modal, fmtDelta } from "./util.js";
import { t, displayName } from "./i18n.js";
import { store } from "./store.js";

const cls = (n) => (n > 0 ? "pos" : n < 0 ? "neg" : undefined);

/** Open the final summary (``summary``: the closed message's or /api/tables/ID/summary's); ``onDone`` when the
 * player closes it, by 返回大厅 or otherwise. */
export function showFinalSummary(summary, onDone) {
  const me = store.user?.id;
  const rows = (summary.players || []).map((p) => {
    const mine = me !== undefined && p.user_id === me;
    return h("tr", { class: [mine ? "me" : "", p.winner ? "winner" : ""].filter(Boolean).join(" ") || undefined,
      dataset: { seat: p.seat, rank: p.rank, total: p.total } },
    h("td.rank", String(p.rank)),
    h("td.pname", h("span.nm", displayName(p.name)),
      p.winner ? h("span.badge.win", { "data-winner": "1" }, t("final_winner")) : null,
      mine ? h("span.badge.you", t("final_you")) : null),
    h("td.num.total", { class: cls(p.total) }, fmtDelta(p.total) || "0"),
    h("td.num.won", `${p.won}/${p.deals}`),
    h("td.num.last", { class: cls(p.last) }, p.last === null || p.last === undefined ? "—" : fmtDelta(p.last) || "0"));
  });
  const best = summary.best_deal;
  const body = h("div.final-summary",
    h("p.final-played", t("final_played", { n: summary.deals_played })),
    h("table.grid.final-grid",
      h("thead", h("tr", h("th", t("final_rank")), h("th", t("final_player")), h("th.num", t("final_total")),
        h("th.num", t("final_won")), h("th.num", t("final_last")))),
      h("tbody", rows)),
    !summary.winners?.length ? h("p.muted.final-draw", t("final_no_winner")) : null,
    best ? h("p.final-best", t("final_best", { name: displayName(best.name), score: fmtDelta(best.score), n: best.deal_index + 1 })) : null);
  return modal({ id: "final-summary", title: t("final_title"), body, onClose: onDone,
    buttons: [{ text: t("back_to_lobby"), primary: true, action: "back-to-lobby" }] });
}
