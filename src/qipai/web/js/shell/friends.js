// 好友: the friends page (#/friends) — add by name, answer requests, see where friends sit, invite them to one's
// private table, watch their public tables — and the notices of friend requests and invitations on every page.
import { h, fill, api, toast, modal } from "./util.js";
import { t, displayName, errorText } from "./i18n.js";
import { conn } from "./conn.js";
import { store, spectate, seated } from "./store.js";
import { gameName } from "./games.js";
import { playerLink } from "./player.js";

/** #/friends */
export function friendsPage(root, { go }) {
  const box = h("section.friends", h("p.muted", "…"));
  fill(root, box);
  let cancelled = false;
  const fail = (ex) => toast(() => errorText(ex.code, ex.params), "error", 5000, "friends");
  const act = async (path, done, body) => {
    try {
      const r = await api("POST", path, body);
      if (done) toast(() => done(r), "info", 3000, "friends");
      await load();
    } catch (ex) {
      fail(ex);
    }
  };
  const load = async () => {
    let data;
    try {
      data = await api("GET", "friends");
    } catch (ex) {
      if (cancelled) return;
      fill(box, h("div.panel", h("p.form-error", { dataset: { code: ex.code } }, errorText(ex.code, ex.params))));
      return;
    }
    if (cancelled) return;
    store.blocked = new Set((data.blocked || []).map((u) => u.id));
    draw(data);
  };
  const draw = (data) => {
    const input = h("input", { type: "text", name: "friend", maxlength: 32, placeholder: t("friends_add_placeholder"),
      autocomplete: "off", "aria-label": t("friends_add_placeholder") });
    const addForm = h("form.friend-add", {
      onsubmit: async (e) => {
        e.preventDefault();
        const name = input.value.trim();
        if (!name) return;
        try {
          const r = await api("POST", "friends", { name });
          input.value = "";
          toast(() => t(r.state === "requested" ? "friends_sent" : "friends_now"), "info", 3000, "friends");
          await load();
        } catch (ex) {
          fail(ex);
        }
      },
    }, input, " ", h("button.btn.small.primary", { type: "submit", "data-action": "add-friend" }, t("friends_add")));
    // the table one sits at, if friends may be invited to it (a private one, a seat free)
    const tb = !store.spectating ? store.table : null;
    const canInvite = !!(tb && tb.invite_code && (tb.seats || []).some((s) => s == null));
    // (a name leads to the player's profile)
    const person = (u, ...actions) => h("li.friend", { dataset: { user: u.id } },
      playerLink(u.name, { cls: ".fname" }), h("span.factions", ...actions));
    const btn = (text, action, onclick, cls = ".ghost") => h(`button.btn.small${cls}`, { type: "button", "data-action": action, onclick }, text);
    const incoming = data.incoming.length ? h("div.panel.friend-requests",
      h("h2", t("friends_incoming")),
      h("ul.friend-list", data.incoming.map((u) => person(u,
        btn(t("friends_accept"), "accept-friend", () => act(`friends/${u.id}/accept`, () => t("friends_now")), ".primary"),
        btn(t("friends_decline"), "decline-friend", () => act(`friends/${u.id}/remove`)),
        btn(t("friends_block"), "block-friend", () => act(`friends/${u.id}/block`, () => t("friends_blocked_now", { name: displayName(u.name) }))))))) : null;
    const friends = h("div.panel.friend-friends",
      h("h2", t("friends_list", { n: data.friends.length })),
      data.friends.length ? h("ul.friend-list", data.friends.map((u) => {
        const state = u.table ? "playing" : u.online ? "online" : "offline";
        return h("li.friend", { dataset: { user: u.id, state } },
          h("span.dot", { class: state, "aria-hidden": "true" }),
          playerLink(u.name, { cls: ".fname" }),
          h("span.fstate.muted", t(`friends_${state}`)),
          h("span.factions",
            // (not while seated: watching put one's own table out of reach, its deal playing on without him)
            u.watchable && u.table !== store.tableId && !seated()
              ? btn(t("friends_watch"), "watch-friend", () => { spectate(u.table); go("#/table"); }) : null,
            canInvite && u.table !== store.tableId && state !== "offline"  // (an invitation is not kept)
              ? btn(t("friends_invite"), "invite-friend", () => act(`friends/${u.id}/invite`, () => t("friends_invited", { name: displayName(u.name) })), ".primary")
              : null,
            btn(t("friends_remove"), "remove-friend", () => modal({
              id: "friend-remove-dialog",
              title: t("friends_remove"),
              body: h("p", t("friends_remove_confirm", { name: displayName(u.name) })),
              buttons: [
                { text: t("cancel"), action: "cancel-remove" },
                { text: t("friends_remove_block"), action: "confirm-block", onClick: () => { act(`friends/${u.id}/block`); } },
                { text: t("friends_remove"), danger: true, action: "confirm-remove", onClick: () => { act(`friends/${u.id}/remove`); } },
              ],
            }))));
      })) : h("p.muted.friends-none", t("friends_none")));
    const outgoing = data.outgoing.length ? h("div.panel.friend-outgoing",
      h("h2", t("friends_outgoing")),
      h("ul.friend-list", data.outgoing.map((u) => person(u,
        btn(t("friends_cancel"), "cancel-friend", () => act(`friends/${u.id}/remove`)))))) : null;
    // 最近同桌: people played with lately, one click from a request — or from a block (the only way to mute the
    // quick chat of a stranger met at a table: the web blocked only friends and those who asked)
    const recent = (data.recent || []).length && !store.user?.is_guest ? h("div.panel.friend-recent",
      h("h2", t("friends_recent")),
      h("ul.friend-list", data.recent.map((u) => person(u,
        btn(t("friends_add"), "add-recent", () => act("friends", () => t("friends_sent"), { name: u.name })),
        btn(t("friends_block"), "block-recent", () => act(`friends/${u.id}/block`, () => t("friends_blocked_now", { name: displayName(u.name) }))))))) : null;
    // 黑名单: players who may not ask any more
    const blocked = (data.blocked || []).length ? h("div.panel.friend-blocked",
      h("h2", t("friends_blocked_list")),
      h("ul.friend-list", data.blocked.map((u) => person(u,
        btn(t("friends_unblock"), "unblock-friend", () => act(`friends/${u.id}/unblock`)))))) : null;
    // 邀请: friends' invitations this session (a table that filled or closed says so when joined)
    const open = store.invites.filter((x) => x.table !== store.tableId || store.spectating); // (not where one sits)
    const invites = open.length ? h("div.panel.friend-invites",
      h("h2", t("friends_invites")),
      h("ul.friend-list", open.map((x) => h("li.friend", { dataset: { invite: x.code } },
        playerLink(x.user?.name || "", { cls: ".fname" }),  // (whose table: his profile, as every name here)
        h("span.fstate.muted", gameName(x.game) || ""),
        h("span.factions", h("a.btn.small.primary", { href: `#/invite/${encodeURIComponent(x.code)}`, dataset: { action: "join-invite" } },
          t("friend_notice_join"))))))) : null;
    fill(box,
      h("div.panel.friend-head", h("h1", t("friends_title")),
        store.user?.is_guest ? h("p.muted.guest-note", t("friends_guest_note")) : addForm),
      invites, incoming, friends, outgoing, recent, blocked);
  };
  load();
  // what friends do while the page is open: requests, answers, removals
  const off = conn.on((msg) => { if (msg.type === "friend") load(); });
  return () => { cancelled = true; off?.(); };
}

/** The notices of friend messages, wherever the player is: a request and an acceptance lead to the friends
 * page, an invitation to the table (its invite link). */
export function friendNotices({ go }) {
  conn.on((msg) => {
    if (msg.type !== "friend" || !store.user) return;
    const name = displayName(msg.user?.name || "");
    if (msg.event === "request" || msg.event === "accepted") {
      const el = toast(() => [t(msg.event === "request" ? "friend_notice_request" : "friend_notice_accepted", { name }), " ",
        h("a", { href: "#/friends", dataset: { action: "open-friends" } }, t("friend_notice_open"))], "info", 10000, "friend-" + msg.event);
      el.classList.add("link");
      el.addEventListener("click", () => { go("#/friends"); el.remove(); });
    } else if (msg.event === "invite" && msg.invite_code) {
      // kept on the friends page too, for when the notice is gone
      store.invites = [{ user: msg.user, code: msg.invite_code, game: msg.game, room: msg.room, table: msg.table },
        ...store.invites.filter((x) => x.code !== msg.invite_code)].slice(0, 5);
      const href = `#/invite/${encodeURIComponent(msg.invite_code)}`;
      const el = toast(() => [t("friend_notice_invite", { name }), " ",
        h("a", { href, dataset: { action: "join-invite" } }, t("friend_notice_join"))], "info", 20000, "friend-invite");
      el.dataset.invite = msg.invite_code;
      el.classList.add("link");
      el.addEventListener("click", () => { location.hash = href; el.remove(); });
    }
  });
}

/** The players the user blocked (their quick chat is muted): read once the user is known. */
export async function loadBlocked() {
  try {
    const data = await api("GET", "friends?recent=0");
    store.blocked = new Set((data.blocked || []).map((u) => u.id));
  } catch {
    store.blocked = new Set();
  }
}
