// 玩家资料: a player's public profile (#/player/<name>, GET /api/players/{name}) — his standing in every game, his
// latest deals (回放 where the replay rules let the viewer see it), what he is to the viewer and 加好友 / 拉黑 as the
// seat card has them; and the links to it from a name wherever one is shown (the leaderboard, the friends page, a
// match's standings, the seat card).
import { h, fill, api, toast, fmtDelta, fmtTime } from "./util.js";
import { t, displayName, errorText } from "./i18n.js";
import { store, subscribe } from "./store.js";
import { loadAllViews, gameName, presetName, roleName, titleName } from "./games.js";

/** Whether a name has a profile: a guest's (``guest-<hex>``) and a bot's have none. */
export function hasProfile(name) {
  return typeof name === "string" && name !== "" && !/^guest-[0-9a-f]{4,}$/i.test(name) && !/^bot:/.test(name)
    && !/^[a-z]+ bot \d+$/.test(name);
}

/** The hash of a player's profile page. */
export const playerHref = (name) => `#/player/${encodeURIComponent(name)}`;

/** A player's name as a link to his profile (``label``: other words than his name); a name with no profile stays
 * words. */
export function playerLink(name, { cls = "", label } = {}) {
  const words = label ?? displayName(name);
  if (!hasProfile(name)) return h("span" + cls, words);
  return h("a.player-link" + cls, { href: playerHref(name), dataset: { player: name } }, words);
}

const rate = (r) => (r === null || r === undefined ? "—" : `${Math.round(r * 100)}%`);

function stat(label, value, key) {
  return h("div.stat", { dataset: { stat: key } }, h("span.v", String(value ?? "")), h("span.l", label));
}

/** #/player/<name> */
export function playerPage(root, { name }) {
  const box = h("section.player", h("p.muted", "…"));
  fill(root, box);
  let cancelled = false;
  let userId = null; // whose page it is (once read)
  const load = async () => {
    let p, games;
    try {
      // ("." and "..", no name, are the path's own dots to the browser: it asked for /api/ and was told "no such
      // endpoint")
      if (/^[\s.]+$/.test(name)) throw Object.assign(new Error(name), { code: "unknown_user", params: { name } });
      [p, games] = await Promise.all([api("GET", `players/${encodeURIComponent(name)}`), loadAllViews()]);
    } catch (ex) {
      if (cancelled) return;
      fill(box, h("div.panel.player-missing", h("h1", displayName(name)),
        h("p.form-error", { dataset: { code: ex.code || "" } }, errorText(ex.code, ex.params)),
        h("a.btn.small.ghost", { href: "#/leaderboard", "data-action": "to-leaderboard" }, t("nav_leaderboard"))));
      return;
    }
    if (cancelled) return;
    draw(p, games);
  };
  const act = async (path, body, said) => {
    try {
      const r = await api("POST", path, body);
      if (path.endsWith("/block")) store.blocked = new Set([...(store.blocked || []), userId]);
      if (path.endsWith("/unblock")) store.blocked?.delete(userId);
      toast(() => said(r), "info", 3000, "player");
    } catch (ex) {
      toast(() => errorText(ex.code, ex.params), "error", 5000, "player");
    }
    if (!cancelled) await load();
  };
  const draw = (p, games) => {
    const u = p.user;
    userId = u.id;
    const shown = displayName(u.name);
    const btn = (text, action, onclick, cls = ".ghost") =>
      h(`button.btn.small${cls}`, { type: "button", "data-action": action, onclick }, text);
    // what he is to the viewer, and what the viewer may do about it (the seat card's 加好友 / 拉黑)
    const rel = p.relation;
    const actions = [];
    if (rel === "self") {
      actions.push(h("a.btn.small", { href: "#/profile", "data-action": "own-profile" }, t("player_own_profile")));
    } else {
      if (rel === "incoming") {
        actions.push(btn(t("friends_accept"), "player-accept", () => act(`friends/${u.id}/accept`, undefined, () => t("friends_now")), ".primary"));
      } else if ((rel === "none" || rel === "blocked") && !store.user?.is_guest) {
        actions.push(btn(t("friends_add"), "player-add-friend", () => act("friends", { name: u.name },
          (r) => t(r.state === "requested" ? "friends_sent" : "friends_now")), ".primary"));
      }
      actions.push(rel === "blocked"
        ? btn(t("seat_unblock"), "player-unblock", () => act(`friends/${u.id}/unblock`, undefined, () => t("seat_unblocked", { name: shown })))
        : btn(t("friends_block"), "player-block", () => act(`friends/${u.id}/block`, undefined, () => t("friends_blocked_now", { name: shown })), ".danger"));
    }
    const relWords = rel === "none" ? null : h("span.badge.relation", { dataset: { relation: rel } }, t(`player_rel_${rel}`));
    const card = h("div.panel.profile-card.player-card", { dataset: { user: u.id, relation: rel } },
      h("div.avatar.big", shown.slice(0, 1).toUpperCase()),
      h("div.grow", h("h1", shown, " ", relWords)),
      h("div.player-actions", actions));
    const cards = [];
    for (const info of games) {
      const g = p.games?.[info.name];
      if (!g) continue;
      cards.push(h("div.panel.game-card", { dataset: { game: info.name } },
        h("h2", gameName(info.name)),
        h("div.stats",
          stat(t("points"), g.points, "points"),
          stat(t("title"), titleName(info.name, g.title), "title"),
          stat(t("games_played"), g.games_played, "games"),
          stat(t("win_rate"), rate(g.win_rate), "rate"),
          stat(t("player_rank_label"), g.rank ? t("player_rank", { n: g.rank }) : t("player_unranked"), "rank"))));
    }
    // (a phone shows each deal as a card of two lines: CSS)
    const row = (d) => h("tr", { dataset: { deal: d.deal_id, won: d.won === true ? "1" : d.won === false ? "0" : "" } },
      h("td.game", gameName(d.game), d.preset ? h("span.muted", ` · ${presetName(d.game, d.preset)}`) : null),
      h("td.when", fmtTime(d.finished_at)),
      h("td.role", d.role ? roleName(d.game, d.role) : ""),
      h("td.result", d.escaped ? h("span.badge.off.esc", t("escape_mark")) : d.won === true ? t("won") : d.won === false ? t("lost") : ""),
      h("td.delta", { class: d.delta > 0 ? "pos" : d.delta < 0 ? "neg" : undefined }, fmtDelta(d.delta)),
      h("td.act", d.replay ? h("a.btn.small.ghost", { href: `#/replay/${d.deal_id}`, "data-action": "replay" }, t("replay")) : ""));
    const recent = h("div.panel.player-recent", h("h2", p.recent.length ? t("player_recent", { n: p.recent.length }) : t("history_title")),
      p.recent.length
        ? h("div.scroll", h("table.grid.player-deals", h("thead", h("tr", h("th", t("game_col")), h("th", t("when")),
          h("th", t("role")), h("th", t("won_col")), h("th", t("delta")), h("th", ""))), h("tbody", p.recent.map(row))))
        : h("p.muted.player-no-deals", t("player_no_deals")));
    fill(box, card, h("div.game-cards", cards), recent);
    document.title = `${shown} · ${t("app_name")}`;
  };
  load();
  // the viewer's account changed (a guest saved it, or renamed): what he may do here (加好友) and what the player is
  // to him are asked again; his own page follows him to his new name
  let viewer = store.user && `${store.user.id}:${store.user.name}:${!!store.user.is_guest}`;
  let ownName = store.user?.name;
  const offUser = subscribe((what, u) => {
    const now = u && `${u.id}:${u.name}:${!!u.is_guest}`;
    if (what !== "user" || cancelled || now === viewer) return;
    viewer = now;
    const was = ownName;
    ownName = u?.name;
    if (u && was && u.name !== was && name.trim().toLowerCase() === was.toLowerCase()) {
      location.hash = playerHref(u.name);
      return;
    }
    load();
  });
  return () => {
    cancelled = true;
    offUser();
  };
}
