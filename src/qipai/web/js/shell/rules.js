// 玩法说明: a game's rules in words — on a page of their own (#/rules/<game>/<preset>: from the lobby's rooms and
// the login page, logged in or not) and in a dialog at the table (opened by the table's name in the top bar), for
// the options that table plays.  The words are the game's own, worded by the server from the options' values
// (never from a preset's name: GET/POST /api/rules/<game>, qipai.games.<game>.explain — one source for the
// browser and the terminal): the shell knows no game.
import { h, add, fill, modal, toast, api } from "./util.js";
import { t, errorText, lang } from "./i18n.js";
import { loadAllViews, gameInfo, gameName, presetName, presetDesc } from "./games.js";
import { store } from "./store.js";

/** The rules of ``game`` in words, in the current language: a preset's (``{preset}``, GET) or a table's own
 * options (``preset`` plus what the table sets, POST) → ``{preset, options, sections}``. */
export function fetchRules(game, options) {
  const g = encodeURIComponent(game);
  const keys = Object.keys(options || {});
  if (keys.every((k) => k === "preset")) {
    const q = new URLSearchParams({ lang, ...(options?.preset ? { preset: options.preset } : {}) });
    return api("GET", `rules/${g}?${q}`);
  }
  return api("POST", `rules/${g}`, { options, lang });
}

/** The sections drawn: each a heading, its paragraphs (strings) and lists (arrays). */
export function rulesBody(sections) {
  if (!sections?.length) return h("p.muted.rules-none", t("rules_none"));
  return h("div.rules-text", sections.map((s) => h("section.rules-section", { dataset: { part: s.id } },
    h("h3", s.title),
    (s.items || []).map((item) => (Array.isArray(item) ? h("ul", item.map((li) => h("li", li))) : h("p", item))))));
}

/** The rules of the table one sits at or watches (its game and options), in a dialog; ``forPoints`` false: a
 * table for no points (the words speak of its stake: the dialog says first that no points move). */
export async function openRules(game, rawOptions, { forPoints = true } = {}) {
  // an answer that comes once the player has gone elsewhere (a slow server; the table left) opens nothing there
  const page = location.hash;
  let words;
  try {
    await loadAllViews();
    words = await fetchRules(game, rawOptions || {});
  } catch (ex) {
    if (location.hash === page) toast(() => errorText(ex.code, ex.params), "error", 5000);
    return;
  }
  if (location.hash !== page) return;
  const preset = rawOptions?.preset ?? words.preset ?? gameInfo(game)?.presets?.[0];
  modal({ id: "rules-dialog", wide: true, title: `${t("rules_title")} · ${presetName(game, preset)}`,
    body: h("div.rules-dialog", forPoints ? null : h("p.rules-no-points", t("no_points_title")),
      rulesBody(words.sections)) });
}

/** #/rules/<game>/<preset>: every game's rules, a tab for each game and each of its presets. */
export function rulesPage(root, { game, preset }) {
  let alive = true;
  fill(root, h("div.loading", "…"));
  loadAllViews().then((games) => {
    if (!alive) return;
    const info = gameInfo(game) || (game ? null : games[0]);
    const name = info?.name;
    const p = info && (info.presets.includes(preset) ? preset : info.presets[0]);
    const tabs = (items) => h("nav.rules-tabs", items.map(([href, words, on]) =>
      h("a.rules-tab", { href, class: on ? "on" : undefined, "aria-current": on ? "page" : undefined }, words)));
    const page = h("section.rules-page",
      h("h1", t("rules_title")),
      tabs(games.map((g) => [`#/rules/${g.name}`, gameName(g.name), g.name === name])));
    if (!info) {
      add(page, h("p.msg.error", t("rules_no_game")));
    } else {
      if (info.presets.length > 1) {
        add(page, tabs(info.presets.map((x) => [`#/rules/${name}/${x}`, presetName(name, x), x === p])));
      }
      const desc = presetDesc(name, p);
      add(page, h("h2", presetName(name, p)), desc ? h("p.rules-desc", desc) : null);
    }
    if (!info) return page;
    return fetchRules(name, { preset: p }).then((words) => add(page, rulesBody(words.sections)), (ex) => {
      add(page, h("p.msg.error", errorText(ex.code, ex.params)));
    }).then(() => page);
  }).then((page) => {
    if (!alive) return;
    if (!store.user) add(page, h("p", h("a.btn.primary", { href: "#/login" }, t("rules_to_login"))));
    fill(root, page);
  }).catch((ex) => {
    if (alive) fill(root, h("p.msg.error", errorText(ex.code, ex.params)));
  });
  return () => { alive = false; };
}
