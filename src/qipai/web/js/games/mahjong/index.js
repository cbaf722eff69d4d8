// Daqing mahjong's browser view: the interface the shell's game loader expects (shell/games.js).
import { WORDS, t } from "./words.js";
import { MahjongView, parseAction } from "./view.js";
import { settlementContent } from "./settle.js";
import { tileName, parseTiles, tilesText } from "./tiles.js";

export const words = WORDS;
export const css = "mahjong.css";

export function mount(slots, ctx) {
  const view = new MahjongView(slots, ctx);
  view.settlement = (result, model) => settlementContent(result, model);
  view.caption = (step, prev, model) => caption(step, prev, model, ctx);
  view.replayState = replayState;
  view.actionText = (action) => actionText(action);
  view.announce = (prev, obs) => announce(prev, obs, ctx);
  return view;
}

/** One action's text form (``discard 3m``, ``ting 5p``, ``chi 456m ting``, ``peng``, ``hu``, ``pass``) in words. */
export function actionText(action, tile = null) {
  const p = parseAction(action);
  switch (p.verb) {
    case "discard": return t("cap_discard", { tile: tileName(p.arg) });
    case "ting": return t("cap_ting", { tile: tileName(p.arg) });
    case "chi": return t(p.ting ? "cap_chi_ting" : "cap_chi", { tiles: tilesText(parseTiles(p.arg)) });
    case "peng": return t(p.ting ? "cap_peng_ting" : "cap_peng", { tile: tile ? tileName(tile) : "" }).trim();
    case "hu": return t("cap_hu");
    case "pass": return t("cap_pass");
    default: return action;
  }
}

/** One public log entry in words; ``ready``: its seat had declared ready (听) before it, so an automatic discard is
 * the ready hand's (otherwise it is auto-play's or a time-out's). */
function eventText(ev, ready = false) {
  const a = ev.action || "";
  if (a === "draw") return ev.tile ? t("cap_draw_tile", { tile: tileName(ev.tile) }) : t("cap_draw");
  if (a === "bao") return t("cap_bao");
  if (a === "bao dead") return t("cap_huan_bao");
  if (a === "exhausted") return t("exhausted");
  if (a === "leave") return "";
  if (a.startsWith("discard ") && ev.auto) {
    return t(ready ? "cap_auto_discard" : "cap_autoplay_discard", { tile: tileName(a.split(" ")[1]) });
  }
  return actionText(a, ev.tile);
}

/** The public log entries ``obs`` gained since ``prev`` (an observation of the same deal, or none), in words, each
 * with its seat's name; ``keep(ev)`` chooses which are said. */
function logWords(prev, obs, ctx, keep = () => true) {
  const log = obs?.log || [];
  const before = prev?.log?.length ?? 0;
  const parts = [];
  const ready = new Set(log.slice(0, before).filter((ev) => (ev.action || "").startsWith("ting ")).map((ev) => ev.seat));
  for (let i = before; i < log.length; i++) {
    const ev = log[i];
    const a = ev.action || "";
    // the discard that ends a 吃听/碰听 is logged as ``ting X``: the claim already said the seat declared ready
    const claimed = a.startsWith("ting ") && i > 0 && log[i - 1].seat === ev.seat
      && / ting$/.test(log[i - 1].action || "");
    const text = claimed ? t("cap_discard", { tile: tileName(a.split(" ")[1]) }) : eventText(ev, ready.has(ev.seat));
    if (a.startsWith("ting ")) ready.add(ev.seat);
    if (!text || !keep(ev)) continue;
    parts.push(ev.seat === null || ev.seat === undefined ? text : t("cap_who", { name: ctx.seatName(ev.seat), text }));
  }
  return parts;
}

/** A replay step in words: the public log entries the step added (each with the seat's name). */
export function caption(step, prev, model, ctx) {
  const parts = logWords(prev?.observation, step.observation, ctx);
  if (!parts.length && step.seat !== null && step.seat !== undefined && step.action) {
    const text = actionText(step.action);
    if (text && text !== step.action) parts.push(t("cap_who", { name: ctx.seatName(step.seat), text }));
  }
  return parts.join(t("cap_join"));
}

/** What the other seats did since ``prev`` (the same deal's observation), in words, for a screen reader: the
 * public log's new entries but draws, each with its seat's name, the viewer's own left out. */
export function announce(prev, obs, ctx) {
  const others = (ev) => ev.action !== "draw" && (ev.seat === null || ev.seat === undefined || ev.seat !== obs.seat);
  return logWords(prev, obs, ctx, others).join(t("cap_join"));
}

/** The observation a replay draws at a step: every hand face up (the server's per-seat ``views``). */
export function replayState(step) {
  const obs = step.observation;
  if (Array.isArray(step.views) && step.views.length) {
    return { ...obs, all_hands: step.views.map((v) => (v && v.hand !== undefined ? [v.hand, v.drawn || ""].join(" ") : "")) };
  }
  return obs;
}
