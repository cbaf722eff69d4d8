// Dou Dizhu's browser view: the interface the shell's game loader expects (shell/games.js).
import { WORDS, t, kindName } from "./words.js";
import { DOUBLE_KEYS, DoudizhuView, isCalling } from "./view.js";
import { settlementContent } from "./settle.js";
import { cardsText, parsePlay, playRanks, rankIndex } from "./cards.js";

export const words = WORDS;
export const css = "doudizhu.css";

export function mount(slots, ctx) {
  const view = new DoudizhuView(slots, ctx);
  view.settlement = (result, model) => settlementContent(result, model);
  view.caption = (step, prev, model) => caption(step, prev, model, ctx);
  view.replayState = replayState;
  view.actionText = (action, obs, model, after) => actionText(action, obs, model, after);
  view.announce = (prev, obs, model) => announce(prev, obs, model, ctx);
  return view;
}

function eventText(ev, obs, model, ctx) {
  switch (ev.event) {
    case "bid":
      if (ev.value === 0) return t("cap_no_bid");
      return isCalling(obs, model.table) ? t("cap_call") : t("cap_bid", { n: ev.value });
    case "double":
      // (the server's names, 倒 反 斡 垒, in the words of the table's buttons: "Double (倒)" in English)
      if (ev.name === "pass") return t("said_no_double");
      return DOUBLE_KEYS[ev.name] ? t("double_" + DOUBLE_KEYS[ev.name]) : ev.name;
    case "show":
      return t("cap_show");
    case "play": {
      const kind = kindName(ev.kind);
      return t("cap_play", { cards: cardsText(ev.cards || ev.move) }) + (kind && !["single", "pair"].includes(ev.kind) ? t("cap_kind", { kind }) : "");
    }
    case "pass":
      return t("cap_pass");
    case "landlord":
      return t("cap_landlord", { name: ctx.seatName(ev.seat), cards: cardsText(ev.kitty || []) });
    case "redeal":
      return t("cap_redeal");
    default:
      return "";
  }
}

/** One action's text form in words: ``play 33344:kind`` (rank letters) or ``play 8H 9H TH JS QC KD`` (the suited
 * cards a player chose, no kind), ``pass``, ``bid 2``, ``call``, ``double``, ``show``.  The review names moves that
 * were never played, so no event exists to caption.  ``obs`` is the observation before the action, ``after`` (when
 * known) the one after it: a play written without its kind takes the kind of the play event it made. */
export function actionText(action, obs, model, after = null) {
  const [verb, rest = ""] = String(action).trim().split(/\s+(.*)/s);
  switch (verb) {
    case "play": {
      const p = parsePlay(rest);
      const k = p.kind || playedKind(p.cards, obs, after);
      const kind = k ? kindName(k) : "";
      return t("cap_play", { cards: cardsText(p.cards) }) + (kind && !["single", "pair"].includes(k) ? t("cap_kind", { kind }) : "");
    }
    case "pass": // 不叫 / 不加倍 / 不亮牌 / 不出, by the phase it was said in
      if (obs?.phase === "bid") return t("cap_no_bid");
      if (obs?.phase === "double") return t("said_no_double");
      if (obs?.phase === "show") return t("cap_no_show");
      return t("cap_pass");
    case "bid": {
      const n = Number(rest);
      if (!n) return t("cap_no_bid");
      return obs && model && isCalling(obs, model.table) ? t("cap_call") : t("cap_bid", { n });
    }
    case "call":
      return t("cap_call");
    case "show":
      return t("cap_show");
    case "double":
    case "redouble":
      return t("phase_double");
    default:
      return action;
  }
}

/** The kind of the play of ``cards`` (any notation) that the step from ``obs`` to ``after`` made, or null. */
function playedKind(cards, obs, after) {
  const hist = after?.history;
  if (!Array.isArray(hist)) return null;
  const key = (c) => playRanks(c).sort((a, b) => rankIndex(a) - rankIndex(b)).join("");
  const want = key(cards);
  const added = hist.slice(obs?.history?.length ?? 0);
  const ev = added.find((e) => e.event === "play" && key(e.cards || e.move || "") === want);
  return ev?.kind || null;
}

/** The events the public history of ``obs`` gained since ``prev`` (an observation of the same deal, or none), in
 * words; those ``keep(ev)`` chooses, each with its seat's name first where ``named(ev)``. */
function historyWords(prev, obs, model, ctx, { keep = () => true, named }) {
  const parts = [];
  for (const ev of (obs?.history || []).slice(prev?.history?.length ?? 0)) {
    if (!keep(ev)) continue;
    const text = eventText(ev, obs, model, ctx);
    if (text) parts.push(named(ev) ? t("cap_who", { name: ctx.seatName(ev.seat), text }) : text);
  }
  return parts;
}

/** A replay step in words, from the events the step added to the public history (the seat's name first). */
export function caption(step, prev, model, ctx) {
  const parts = historyWords(prev?.observation, step.observation, model, ctx,
    { named: (ev) => ev.seat === step.seat && ev.event !== "landlord" });
  if (!parts.length && step.seat !== null && step.seat !== undefined) parts.push(ctx.seatName(step.seat));
  return parts.join(t("cap_join"));
}

/** What the other seats did since ``prev`` (the same deal's observation), in words, for a screen reader: the
 * events the public history gained, each with its seat's name, the viewer's own left out. */
export function announce(prev, obs, model, ctx) {
  return historyWords(prev, obs, model, ctx, {
    keep: (ev) => ev.seat !== obs.seat || ev.event === "landlord",
    named: (ev) => ev.event !== "landlord" && ev.seat !== undefined && ev.seat !== null,
  }).join(t("cap_join"));
}

/** The observation a replay draws at step ``i``: every hand face up (after a deal all hands are public).  The
 * server's per-seat ``views`` give them; an older server's replay is rebuilt from the final hands and the plays
 * still to come. */
export function replayState(step, steps) {
  const obs = step.observation;
  if (Array.isArray(step.views) && step.views.length) {
    return { ...obs, all_hands: step.views.map((v) => (v && v.hand) || []) };
  }
  const final = steps[steps.length - 1]?.observation;
  if (!final?.hands) return obs;
  const hist = obs.history || [];
  const later = (final.history || []).slice(hist.length);
  if (later.some((ev) => ev.event === "redeal" || ev.event === "deal")) return obs;
  const hands = final.hands.map((hand) => [...hand]);
  for (const ev of later) {
    if (ev.event === "play") hands[ev.seat].push(...(ev.cards || ev.move.split("")));
  }
  const lordEv = later.find((ev) => ev.event === "landlord");
  if (lordEv && Array.isArray(lordEv.kitty)) {
    const hand = hands[lordEv.seat];
    for (const c of lordEv.kitty) {
      let k = hand.indexOf(c);
      if (k < 0) k = hand.findIndex((x) => x[0] === c[0]);
      if (k >= 0) hand.splice(k, 1);
    }
  }
  if (obs.seat !== null && obs.seat !== undefined && obs.hand) hands[obs.seat] = obs.hand;
  return { ...obs, all_hands: hands };
}
