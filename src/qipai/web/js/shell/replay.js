// The replay viewer: a deal step by step in the game's own view (read-only), every hand face up, each step
// captioned in words (host events by the shell, the game's moves by its view).  A view may mark steps minor
// (``replayMinor(step, prev)``: the buttons and the autoplay pass over them, the slider still reaches them), offer
// jumps (``replayJumps(steps)`` → [{action, text, index}], e.g. Shengji's "skip to play") and read a host event as
// none (``replayQuiet(step, prev)``: no "超时" in the caption, e.g. Shengji's deal window a seat let go by).
import { h, fill, api } from "./util.js";
import { t, seatLabel, errorText } from "./i18n.js";
import { loadGames, gameInfo, loadView } from "./games.js";
import { TableFrame } from "./table.js";

const HOST_EVENTS = { "autoplay on": "ev_autoplay_on", "autoplay off": "ev_autoplay_off", timeout: "ev_timeout",
  leave: "ev_leave", escape: "ev_escape" };

/** A host event's caption ("电脑2号：托管"), or null for a game move. */
export function hostCaption(action, name) {
  const key = HOST_EVENTS[String(action || "").trim().toLowerCase()];
  return key ? `${name}${t("ev_sep")}${t(key)}` : null;
}

export function replayPage(root, { id }) {
  const box = h("section.replay", h("p.muted", "…"));
  fill(root, box);
  let frame = null;
  let timer = null;
  let cancelled = false;
  (async () => {
    try {
      const [deal, rep] = await Promise.all([api("GET", `deals/${id}`), api("GET", `deals/${id}/replay`), loadGames()]);
      if (cancelled) return;
      const info = gameInfo(deal.game || rep.game);
      const mod = await loadView(info);
      if (cancelled) return;
      if (!mod) {
        fill(box, h("p.muted", t("no_view")));
        return;
      }
      const steps = rep.steps;
      const you = rep.you;
      const seats = deal.seats.map((s, i) => ({ seat: i, name: s.name, user_id: s.user_id, bot: s.bot, connected: true,
        leaving: false, points: null, title: null }));
      const table = { id: "", game: deal.game, options: deal.options, players: seats.length, seats, results: [],
        invite_code: null, status: "playing", you };
      let i = 0;
      const holder = h("div.replay-table");
      const label = h("span.step-label");
      const what = h("span.step-what", { "aria-live": "polite" });
      const slider = h("input", { type: "range", min: 0, max: steps.length - 1, value: 0, "aria-label": t("step", { n: "", total: "" }) });
      const playBtn = h("button.btn.small", { type: "button", "data-action": "autoplay-replay" }, t("autoplay_replay"));
      // each seat by its player's name (the deal's seats, as the store keeps them; a bot's as 电脑2号), the viewer's
      // own as 你 / You (as the terminal's replay names it), never the account's name
      const seatName = (seat) => (seat === null || seat === undefined ? "" : seat === you ? t("you_seat")
        : seatLabel(seat, seats[seat]));
      const modelAt = (k) => {
        const s = steps[k];
        const obs = frame.view.replayState ? frame.view.replayState(s, steps, k) : s.observation;
        return { table, user: null, spectating: you === null || you === undefined, lastResult: null, dealOver: null, stateAt: 0,
          state: { table: "", deal: deal.id, version: s.n, phase: obs.phase, to_act: obs.to_act, acting: [], you,
            your_turn: false, deadline_ms: null, autoplay: obs.autoplay, legal: null, observation: obs } };
      };
      const show = (k) => {
        i = Math.max(0, Math.min(steps.length - 1, k));
        const s = steps[i];
        const model = modelAt(i);
        frame.update(model);
        slider.value = i;
        label.textContent = t("step", { n: i, total: steps.length - 1 });
        let text = "";
        if (s.action) {
          const quiet = frame.view.replayQuiet?.(s, i > 0 ? steps[i - 1] : null);
          const host = quiet ? null : hostCaption(s.action, seatName(s.seat));
          const game = frame.view.caption ? frame.view.caption(s, i > 0 ? steps[i - 1] : null, frame.model) : "";
          text = host ? [host, game].filter(Boolean).join(t("ev_join")) : game;
        } else if (i === 0) {
          text = t("ev_start");
        }
        what.textContent = text;
        box.dataset.step = String(i);
      };
      // the steps worth a stop (a view's minor steps, e.g. each seat's 不叫 while the cards are dealt, are passed over)
      const minor = (k) => k > 0 && k < steps.length - 1 && !!frame.view.replayMinor?.(steps[k], steps[k - 1]);
      const nextStop = (k) => { let j = Math.min(steps.length - 1, k + 1); while (minor(j)) j++; return j; };
      const prevStop = (k) => { let j = Math.max(0, k - 1); while (minor(j)) j--; return j; };
      const jumps = h("span.replay-jumps");
      const stop = () => { clearInterval(timer); timer = null; playBtn.textContent = t("autoplay_replay"); };
      playBtn.onclick = () => {
        if (timer) return stop();
        playBtn.textContent = t("pause");
        timer = setInterval(() => { if (i >= steps.length - 1) stop(); else show(nextStop(i)); }, 800);
      };
      slider.oninput = () => show(Number(slider.value));
      const controls = h("div.replay-controls",
        h("button.btn.small.ghost", { type: "button", "data-action": "first", onclick: () => show(0) }, "« " + t("first")),
        h("button.btn.small.ghost", { type: "button", "data-action": "prev", onclick: () => show(prevStop(i)) }, "◀ " + t("prev")),
        playBtn,
        h("button.btn.small.ghost", { type: "button", "data-action": "next", onclick: () => show(nextStop(i)) }, t("next") + " ▶"),
        h("button.btn.small.ghost", { type: "button", "data-action": "last", onclick: () => show(steps.length - 1) }, t("last") + " »"),
        jumps, slider, label);
      const reviewBox = h("div.review", { "data-review": "" });
      // the view's words for an action (the best move was never played, so no replay step captions it): from the
      // observation before step ``k`` and — for what the step's own action led to, such as a play's kind — after it
      const words = (action, k) => {
        const obs = steps[Math.max(0, k - 1)]?.observation;
        const after = steps[k]?.observation ?? null;
        return (frame.view.actionText && frame.view.actionText(action, obs, frame.model, after)) || action;
      };
      // the review is of one's own decisions: a match deal one only watches has none
      const reviewBtn = info.review && you !== null && you !== undefined ? h("button.btn.small", { type: "button", "data-action": "review", onclick: async () => {
        reviewBtn.disabled = true;
        fill(reviewBox, h("p.muted", t("review_loading")));
        try {
          const r = await api("GET", `deals/${id}/review?seat=${you}`);
          const ds = r.review.decisions || [];
          const marks = { "??": "review_mark_blunder", "?": "review_mark_mistake", "!": "review_mark_only" };
          const estimated = (x) => typeof x === "number" && Number.isFinite(x);
          const pct = (x) => String(Math.round(x * 100));
          fill(reviewBox, h("h2", t("review_title", { name: seatName(you) })),
            ds.length ? h("ol.review-list", ds.map((d) => h("li", {
              class: d.mark === "??" ? "blunder" : d.mark === "?" ? "mistake" : d.mark === "!" ? "only" : undefined,
              dataset: { index: d.index, mark: d.mark || "" }, tabIndex: 0, onclick: () => show(d.index + 1) },
              h("span.played", t("review_played", { a: words(d.played, d.index + 1) })),
              // the same move may be written two ways (the suited cards one chose, the ranks the computer names)
              h("span.best", d.auto ? t("review_auto") : !d.best || d.best === d.played
                || words(d.best, d.index + 1) === words(d.played, d.index + 1) ? t("review_same") : t("review_best", { a: words(d.best, d.index + 1) })),
              // no estimate (bidding, a single legal move, auto-play): no win chance to show
              !d.auto && estimated(d.wp_before) && estimated(d.wp_after)
                ? h("span.wp", t("review_wp", { b: pct(d.wp_before), c: pct(d.wp_after) })) : null,
              d.mark && marks[d.mark] ? h("b.mark", t(marks[d.mark])) : null))) : h("p.muted", t("review_empty")));
        } catch (ex) {
          fill(reviewBox, h("p.form-error", errorText(ex.code, ex.params)));
        } finally {
          reviewBtn.disabled = false;
        }
      } }, t("review_btn")) : null;
      // the hand's number at its table (第 1 局 for a table's first hand), the record's id beside it
      const n = Number.isInteger(deal.deal_index) ? deal.deal_index + 1 : null;
      const heading = h("h1", { dataset: { deal: id, n: n ?? "" } }, n !== null ? t("replay_title", { n }) : t("replay_title_id", { id }),
        n !== null ? h("small.muted.replay-id", t("replay_deal_id", { id })) : null);
      fill(box, h("div.replay-head", heading, controls, reviewBtn, what), holder, reviewBox);
      frame = new TableFrame(holder, { module: mod, info, mode: "replay" });
      frame.seatName = seatName;
      for (const j of frame.view.replayJumps?.(steps) || []) {
        if (j.index > 0 && j.index < steps.length) {
          jumps.append(h("button.btn.small.ghost", { type: "button", "data-action": j.action, "data-step": j.index, onclick: () => show(j.index) }, j.text));
        }
      }
      show(0);
    } catch (ex) {
      fill(box, h("p.form-error", errorText(ex.code, ex.params)));
    }
  })();
  return () => {
    cancelled = true;
    clearInterval(timer);
    frame?.destroy();
  };
}
