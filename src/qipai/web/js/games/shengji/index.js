// Shengji's browser view: the interface the shell's game loader expects (shell/games.js).
import { WORDS, t } from "./words.js";
import { ShengjiView } from "./view.js";
import { settlementContent } from "./settle.js";
import { cardsText } from "./cards.js";

export const words = WORDS;
export const css = "shengji.css";

export function mount(slots, ctx) {
  const view = new ShengjiView(slots, ctx);
  view.settlement = (result, model) => settlementContent(result, model);
  view.caption = (step, prev, model) => caption(step, prev, model, ctx);
  view.replayState = replayState;
  view.replayMinor = replayMinor;
  view.replayQuiet = replayQuiet;
  view.replayJumps = replayJumps;
  view.actionText = (action) => actionText(action);
  view.announce = (prev, obs) => announce(prev, obs, ctx);
  return view;
}

/** One action's text form (``pass``, ``declare 3H 3H``, ``play 7S 7S 8S 8S``) in words. */
export function actionText(action) {
  const [verb, rest = ""] = String(action || "").trim().split(/\s+(.*)/s);
  switch (verb) {
    case "pass":
      return t("cap_pass");
    case "declare":
      return t("cap_declare", { cards: cardsText(rest) });
    case "play":
      return t("cap_play", { cards: cardsText(rest) });
    default:
      return "";
  }
}

/** What a seat played in the step (a timeout's play is read from the trick it went into). */
function playedBy(obs, seat) {
  for (const [s, c] of obs.trick || []) if (s === seat) return c;
  for (const [s, c] of obs.last_trick?.plays || []) if (s === seat) return c;
  return null;
}

/** A replay step in words: the seat's move, then what it led to (a card dealt, a trick won, the trump shown). */
export function caption(step, prev, model, ctx) {
  const obs = step.observation;
  const before = prev?.observation;
  const parts = [];
  let text = actionText(step.action);
  const who = step.seat;
  if (!text && before?.phase === "play") {
    const c = playedBy(obs, who);
    if (c) text = t("cap_play", { cards: cardsText(c) });
  }
  if (text && who !== null && who !== undefined) parts.push(t("cap_who", { name: ctx.seatName(who), text }));
  parts.push(...failedWords(before, obs, ctx));
  if (before && obs.dealt > before.dealt && (obs.phase === "deal" || obs.phase === "final")) parts.push(t("cap_window_closed", { n: obs.dealt }));
  if (before) parts.push(...trumpWords(before, obs, ctx), ...trickWords(before, obs, ctx));
  return parts.join(t("cap_join"));
}

/** What the other seats did since ``prev`` (the same deal's observation), in words, for a screen reader: their
 * declarations while the cards are dealt, the trump and banker once set, each card play the trick gained (the
 * viewer's own left out), a failed throw, and who won a trick. */
export function announce(prev, obs, ctx) {
  if (!prev || !obs) return "";
  const parts = [];
  const who = (seat, text) => t("cap_who", { name: ctx.seatName(seat), text });
  // a declaration while the cards are dealt (叫1张 by the seat's box): heard in time to overcall it
  for (const [seat, n] of (obs.declarations || []).slice((prev.declarations || []).length)) {
    if (seat !== obs.seat) parts.push(who(seat, t("decl_seat", { n })));
  }
  parts.push(...trumpWords(prev, obs, ctx));
  const done = (obs.tricks || []).length > (prev.tricks || []).length && obs.last_trick;
  const was = prev.trick || [];
  const plays = done ? [...(obs.last_trick.plays || []), ...(obs.trick || [])] : obs.trick || [];
  for (const [seat, cards] of plays.slice(done ? was.length : Math.min(was.length, plays.length))) {
    if (seat !== obs.seat) parts.push(who(seat, t("cap_play", { cards: cardsText(cards) })));
  }
  parts.push(...failedWords(prev, obs, ctx), ...trickWords(prev, obs, ctx));
  return parts.join(t("cap_join"));
}

/** The throws that failed since ``before`` (the server played the forced cards instead and charged the penalty). */
function failedWords(before, obs, ctx) {
  return (obs.failed_throws || []).slice((before?.failed_throws || []).length).map((f) => t("cap_failed_throw",
    { name: ctx.seatName(f.seat), n: Math.abs(f.penalty), cards: cardsText(f.cards), forced: cardsText(f.forced) }));
}

/** The trump and banker, once set since ``before`` (the deal over, play begins). */
function trumpWords(before, obs, ctx) {
  const set = before.phase !== "play" && obs.phase === "play" && obs.banker !== null && obs.banker !== undefined;
  return set ? [t("cap_trump", { suit: t("suit_" + obs.trump), name: ctx.seatName(obs.banker) })] : [];
}

/** Who won the trick that ended since ``before``, and its points. */
function trickWords(before, obs, ctx) {
  const done = (obs.tricks || []).length > (before.tricks || []).length && obs.last_trick;
  return done ? [t("cap_trick", { name: ctx.seatName(obs.last_trick.winner), n: obs.last_trick.points })] : [];
}

/** The observation a replay draws at a step: every seat's hand from its own part of the view (``all_hands``;
 * after a hand every card is public), the viewer's own in the hand row. */
export function replayState(step) {
  const obs = step.observation;
  if (!Array.isArray(step.views) || !step.views.length) return obs;
  const you = obs.seat;
  const all = step.views.map((v) => (v && typeof v.hand === "string" ? v.hand : ""));
  const out = { ...obs, all_hands: all };
  if (you !== null && you !== undefined && step.views[you]?.hand !== undefined) out.hand = step.views[you].hand;
  return out;
}


/** A replay step the buttons and the autoplay pass over: a seat's answer (不叫) to a deal window that leaves the
 * window open.  The step that closes a window (the next card dealt) and every declaration stay: a deal of
 * ~1000 answers becomes one stop per card. */
export function replayMinor(step, prev) {
  const obs = step?.observation;
  const before = prev?.observation;
  if (!obs || !before || obs.phase !== "deal" || before.phase !== "deal") return false;
  return obs.dealt === before.dealt && !String(step.action || "").trim().startsWith("declare");
}

/** A deal window's timeout is no event: declaring is optional, and a seat that lets a card go by passes (it is not
 * put in auto-play).  The replay's caption says the card dealt, not "你：超时" at every card of a player's deal. */
export function replayQuiet(step, prev) {
  const phase = prev?.observation?.phase;
  return String(step?.action || "").trim().toLowerCase() === "timeout" && (phase === "deal" || phase === "final");
}

/** The replay's jumps: straight to the first lead (跳到出牌), past the whole deal. */
export function replayJumps(steps) {
  const k = steps.findIndex((s) => s.observation?.phase === "play");
  return k > 0 ? [{ action: "skip-to-play", text: t("skip_to_play"), index: k }] : [];
}
