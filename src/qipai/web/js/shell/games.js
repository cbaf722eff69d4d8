// The game loader.  The shell (login, lobby, rooms, seats, timers, dialogs, toasts, chat, replay frame,
// profile, connection) knows no game: it lists the games the server registers (GET /api/games) and draws a
// table with the view named by the game's ``info.web``, the folder web/js/games/<web>/.  It never branches on a
// game's or a preset's name.
//
// A game's view is one folder whose index.js exports:
//
//   words: {zh: {...}, en: {...}}
//       The game's texts.  The shell reads these keys when present: preset_<preset> and pdesc_<preset> (a
//       preset's name and one-line description in the lobby), role_<role> (a role in the profile and the
//       settlement), game_name (else info.titles), title_<title> (a player's title as the server names it,
//       in Chinese, e.g. title_商人; only the en words need them, the title itself is the zh name).
//       Everything else is the view's own (read it with scoped(words) from shell/i18n.js).
//   css: "file.css" | null
//       A stylesheet in the folder, linked once when the view is first loaded.
//   mount(slots, ctx) → view
//       Draw a table into the shell's frame.  ``slots`` are elements the view owns and fills:
//         info (top bar: e.g. kitty and multiplier), menu (top bar buttons before the shell's), center (the
//         felt's middle), mine (the viewer's own play on the felt), meGame (the viewer's bar), reason (a line
//         for why a move cannot be made), actMain (the move buttons), tools (small buttons by the shell's),
//         hand (the viewer's hand), fx (an effect layer over the felt, pointer-events: none).
//       ``ctx``: {live (false in a replay), info (the game's description), send(action) (an action at the
//         current deal and version; returns false when it could not be sent), sendRaw(msg), seatEl(seat)
//         (the seat's box on the felt, for motion), seatName(seat), sound(name) (shell/sound.js names),
//         toast(text), prefs {get(name, dflt), set(name, value)}}.
//   view.update(model)
//       model: {table, state, lastResult, dealOver, spectating, user, info, you, n, stateAt (performance.now()
//       when the state arrived: deadlines count from it)}; called after every message and whenever the
//       language changes.  ``state.observation`` is the game's own.
//   view.seat(seat, el, model)
//       Fill the game's part of a seat box (role, cards left, what the seat said or played).
//   view.tableTitle(model) → string
//       The table's name in the top bar (e.g. the preset's name).
//   view.myTurn(model) → bool   (optional; default: state.your_turn with legal moves)
//   view.clocked(model) → bool   (optional; default true): whether the state's deadline is the acting seats' own
//       decision; false: the shell marks no seat as deciding and shows no countdown (e.g. cards being dealt)
//   view.settlement(result, model) → {title, cls, body}
//       The settlement dialog's content for a deal_over result; the shell adds the buttons (准备/继续).
//   view.caption(seat, action, model) → string
//       A replay step's action in words (the shell words host events: autoplay, timeout, leave).
//   view.replayState(step, steps, model) → observation   (optional)
//       The observation a replay draws at a step (e.g. one that shows every hand).
//   view.announce(prev, obs, model) → string   (optional)
//       What the other seats did between two observations of the same deal, in words, for a screen reader (the
//       shell puts it in a polite live region); "" when nothing is worth saying.
//   view.tick()   (optional) called four times a second, for countdowns of the view's own
//   view.clearPending(), view.key(event), view.destroy()
//
// A new game is one folder under web/js/games/ exporting this interface, and ``web: "<folder>"`` in its
// GameInfo; nothing in the shell changes.  A view may extend TableView (shell/tableview.js: obs, legal, myTurn,
// send one action at a time, clearPending) and pick cards with shell/handpick.js.  Its rules in words (玩法说明)
// are not the view's: the game words them in Python (qipai.games.<game>.explain) for every client, and the shell
// asks the server for them (/api/rules/<game>, shell/rules.js).
import { api } from "./util.js";
import { lang, scoped, t } from "./i18n.js";
import { store } from "./store.js";

const modules = new Map(); // web folder → module
const loading = new Map();
let gamesPromise = null;

/** Every registered game's description (GET /api/games), fetched once. */
export function loadGames() {
  if (!gamesPromise) {
    gamesPromise = api("GET", "games")
      .then((r) => {
        store.games = r.games || [];
        return store.games;
      })
      .catch((e) => {
        gamesPromise = null;
        throw e;
      });
  }
  return gamesPromise;
}

export function gameInfo(name) {
  return store.games.find((g) => g.name === name) || null;
}

/** The view module of a game (null when the game has no browser view), once its stylesheet is in too: a view
 * drawn before has no sizes yet, and a replay sizes its felt by what the first drawing measures. */
export async function loadView(info) {
  const web = info?.web;
  if (!web || !/^[a-z0-9_-]+$/.test(web)) return null;
  if (!loading.has(web)) {
    loading.set(web, import(`../games/${web}/index.js`).then(async (mod) => {
      modules.set(web, mod); // its words are there at once (viewOf)
      if (mod.css && !document.querySelector(`link[data-game-css="${web}"]`)) {
        const link = document.createElement("link");
        link.rel = "stylesheet";
        link.href = new URL(`../games/${web}/${mod.css}`, import.meta.url).href;
        link.dataset.gameCss = web;
        // a stylesheet that fails is no reason not to draw at all
        const ready = new Promise((resolve) => { link.onload = resolve; link.onerror = resolve; });
        document.head.append(link);
        await ready;
      }
      return mod;
    }).catch((e) => {
      loading.delete(web);
      throw e;
    }));
  }
  return loading.get(web);
}

/** Load the views of every game that has one (the lobby and the profile word presets and roles). */
export async function loadAllViews() {
  const games = await loadGames();
  await Promise.all(games.map((g) => loadView(g).catch(() => null)));
  return games;
}

export function viewOf(name) {
  const info = gameInfo(name);
  return info?.web ? modules.get(info.web) || null : null;
}

function gameT(name) {
  const mod = viewOf(name);
  return mod ? scoped(mod.words || {}) : null;
}

export function gameName(name) {
  const tt = gameT(name);
  if (tt && tt.has("game_name")) return tt("game_name");
  const info = gameInfo(name);
  return info?.titles?.[lang] || info?.titles?.zh || name;
}

export function presetName(game, preset) {
  const tt = gameT(game);
  if (preset && tt && tt.has("preset_" + preset)) return tt("preset_" + preset);
  return gameName(game);
}

export function presetDesc(game, preset) {
  const tt = gameT(game);
  return preset && tt && tt.has("pdesc_" + preset) ? tt("pdesc_" + preset) : "";
}

/** What a seat has after a deal, under its name in the settlement (``c``: its entry in the deal's changes): at a
 * match table its match points (比赛积分 1234: a match table moves no lobby points, so they are not shown there),
 * else its lobby points and title (1010 分 · 商人); "" when the server names neither (a bot at a lobby table). */
export function standingAfter(c, model, game) {
  if (model?.table?.match_id || Number.isInteger(c?.match_points)) {
    return Number.isInteger(c?.match_points) ? t("match_pts", { n: c.match_points }) : "";
  }
  if (c?.points === null || c?.points === undefined) return "";
  return `${c.points} ${t("points_short")}` + (c.title ? ` · ${titleName(game, c.title)}` : "");
}

/** A player's title in ``game`` (the server's Chinese name, e.g. 商人) in the page's language. */
export function titleName(game, title) {
  if (!title) return "";
  const words = viewOf(game)?.words;
  return words?.[lang]?.["title_" + title] ?? title;
}

export function roleName(game, role) {
  const tt = gameT(game);
  return role && tt && tt.has("role_" + role) ? tt("role_" + role) : "";
}
