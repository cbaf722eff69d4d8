// 玩法说明: a game's rules in words — on a page of their own (#/rules/<game>/<preset>: from the lobby's rooms and
// the login page, logged in or not) and in a dialog at the table (the top bar's ? button), for the options that
// table plays.  The words are the game view's own (its index.js ``rules(options)``, built from the options'
// values, never from a preset's name): the shell knows no game.
import { h, add, fill, modal, toast } from "./util.js";
import { t, errorText } from "./i18n.js";
import { loadAllViews, gameInfo, viewOf, gameName, presetName, presetDesc } from "./games.js";
import { store } from "./store.js";

/** Every option's value for ``raw`` (a room's or a table's options: ``preset`` plus what it sets): the preset's
 * values (``preset_options`` of /api/games) under the ones ``raw`` sets. */
export function resolvedOptions(info, raw = {}) {
  const preset = raw?.preset ?? info?.presets?.[0];
  return { ...(info?.preset_options?.[preset] || {}), ...(raw || {}), preset };
}

/** The game's rules for ``options`` drawn: each section a heading, its paragraphs (strings) and lists (arrays). */
export function rulesBody(game, options) {
  const mod = viewOf(game);
  let sections = null;
  try {
    sections = mod?.rules ? mod.rules(options) : null;
  } catch (err) {
    console.error(err);  // (a slip in the words never stops the page)
  }
  if (!sections?.length) return h("p.muted.rules-none", t("rules_none"));
  return h("div.rules-text", sections.map((s) => h("section.rules-section", { dataset: { part: s.id } },
    h("h3", s.title),
    (s.items || []).map((item) => (Array.isArray(item) ? h("ul", item.map((li) => h("li", li))) : h("p", item))))));
}

/** The rules of the table one sits at or watches (its game and options), in a dialog. */
export async function openRules(game, rawOptions) {
  try {
    await loadAllViews();
  } catch (ex) {
    toast(() => errorText(ex.code, ex.params), "error", 5000);
    return;
  }
  const info = gameInfo(game);
  const options = resolvedOptions(info, rawOptions);
  modal({ id: "rules-dialog", wide: true, title: `${t("rules_title")} · ${presetName(game, options.preset)}`,
    body: h("div.rules-dialog", rulesBody(game, options)) });
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
      add(page, h("h2", presetName(name, p)), desc ? h("p.rules-desc", desc) : null,
        rulesBody(name, resolvedOptions(info, { preset: p })));
    }
    if (!store.user) add(page, h("p", h("a.btn.primary", { href: "#/login" }, t("rules_to_login"))));
    fill(root, page);
  }).catch((ex) => {
    if (alive) fill(root, h("p.msg.error", errorText(ex.code, ex.params)));
  });
  return () => { alive = false; };
}
