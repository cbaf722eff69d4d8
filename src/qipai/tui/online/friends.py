"""好友 in ``qipai online``: the friends list, requests, unfriending and invitations to a private table, through the
server's friends API (``GET /api/friends``, ``POST /api/friends`` …, docs/protocol.md §2) and its ``friend``
messages (§3), in the lobby, at a table and while watching one.

- ``friends``: the friends (online, at which table — a public one may be watched —, or offline), the players
  asking to be your friend, your requests waiting for an answer, the players you played with lately (最近同桌,
  with the ``friend NAME`` to type) and those you blocked (拉黑, with the ``unblock NAME`` to type).
- ``friend NAME`` (``friend add NAME``): ask a player; ``accept NAME`` (alone: the only request there is),
  ``decline NAME``, ``unfriend NAME`` (a friend, or withdraw your request): the name is looked up in the list,
  in any case.  ``invite NAME``: a friend to the private table you sit at.
- ``block NAME`` (拉黑: his friend requests are refused; a friendship or requests between you end) and
  ``unblock NAME``: the name is looked up in the lists, then (``block``) on the server (``GET /api/users?name=``;
  the friends API blocks by id).
- ``profile NAME`` (``资料 NAME``, 玩家资料): a player's public profile (``GET /api/players/{name}``): what he is
  to you, his points, title, deals, win rate and rank in every game, his latest deals (with the browser's replay
  address where you may replay one) and the command to type to befriend, block or unblock him.
- The ``friend`` messages are one line each, wherever the player is: a request (with the ``accept`` to type), an
  acceptance, a removal, an invitation (with the ``join`` to type: :meth:`Friends.join_code` gives the
  latest invitation's code to ``join`` alone).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import httpx

from .words import display_name, error_words, title_words, tr

if TYPE_CHECKING:
    from .client import OnlineClient

COMMANDS: dict[str, str] = {
    word: cmd
    for cmd, words in (
        ("friends", ("friends", "好友")),
        ("friend", ("friend", "addfriend", "加好友")),
        ("accept", ("accept", "同意")),
        ("decline", ("decline", "拒绝")),
        ("unfriend", ("unfriend", "删除好友")),
        ("invite", ("invite", "邀请")),
        ("block", ("block", "拉黑")),
        ("unblock", ("unblock", "取消拉黑", "解除拉黑")),
        ("profile", ("profile", "资料", "玩家资料")),
    )
    for word in words
}
"""A typed word → the friends command it is."""

_SUB = {"add": "friend", "accept": "accept", "decline": "decline", "remove": "unfriend", "invite": "invite",
        "block": "block", "unblock": "unblock"}
"""``friend add NAME``, ``friend accept NAME`` …: the command after ``friend``."""

_LISTS = (("friend", "friends"), ("incoming", "incoming"), ("outgoing", "outgoing"))
"""What a user is to this player → the list of ``GET /api/friends`` he is in."""

_RELATIONS = ("self", "friend", "outgoing", "incoming", "blocked")
"""The relations of ``GET /api/players/{name}`` worded in a profile's first line (``none`` is not)."""


_SEAT_WORDS = re.compile(r"(游客|guest ?)\d{4}|(电脑\d+号|bot ?\d+|电脑（[\w-]+）|bot \([\w-]+\))", re.I)
"""A guest's (group 1) or a bot's (group 2) name as :func:`~.words.display_name` shows it at a table."""


def _when(iso: Any) -> str:
    """A deal's time (ISO 8601, UTC) as this machine's local ``YYYY-MM-DD HH:MM``; as given when unreadable."""
    try:
        return datetime.fromisoformat(str(iso)).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return str(iso or "-")


class Friends:
    """The friends commands and notices of one :class:`~.client.OnlineClient`."""

    def __init__(self, client: OnlineClient) -> None:
        self.client = client
        self.relation: dict[int, str] = {}
        """User id → ``friend``, ``incoming`` (he asks) or ``outgoing`` (you asked), as last seen: a removal
        is worded by it."""
        self.blocked: set[int] = set()
        """The ids of the users this player blocked, as last seen (asking one lifts the block: it is said)."""
        self.invitation: dict[str, Any] | None = None
        """The latest ``friend`` ``invite`` message (``join`` alone joins its table)."""

    @property
    def lang(self) -> str:
        """The player's language."""
        return self.client.lang

    def name(self, user: Mapping[str, Any]) -> str:
        """A user of the friends API as the player reads the name."""
        return display_name(str(user.get("name") or "?"), self.lang)

    # ------------------------------------------------------------------ typed commands
    async def command(self, word: str, rest: str) -> bool:
        """Run a friends command (``word`` typed, then ``rest``); whether ``word`` was one."""
        cmd = COMMANDS.get(word)
        if cmd is None:
            return False
        args = rest.split()
        if cmd == "friend" and len(args) >= 2 and args[0].lower() in _SUB:
            cmd, args = _SUB[args[0].lower()], args[1:]
        name = args[0][:64] if args else ""
        if cmd == "friends":
            await self.show()
        elif cmd == "accept" and not name:
            await self.accept(None)
        elif not name:
            self.client.error(tr(self.lang, "need_arg", cmd=word, arg="NAME"))
        elif cmd == "friend":
            await self.ask(name)
        elif cmd == "accept":
            await self.accept(name)
        elif cmd == "decline":
            await self.decline(name)
        elif cmd == "unfriend":
            await self.unfriend(name)
        elif cmd == "block":
            await self.block(name)
        elif cmd == "unblock":
            await self.unblock(name)
        elif cmd == "profile":
            await self.profile(name)
        else:
            await self.invite(name)
        return True

    async def lists(self) -> dict[str, Any] | None:
        """``GET /api/friends`` (what each user is to this player is noted); ``None`` after saying what went
        wrong."""
        data = await self.client.get("/api/friends")
        if not isinstance(data, dict):
            return None
        self.learn(data)
        return data

    def learn(self, data: Mapping[str, Any]) -> None:
        """Note what each user of a friends list is to this player (and whom he blocked)."""
        self.relation = {int(u["id"]): kind for kind, key in _LISTS for u in data.get(key) or []
                         if isinstance(u, Mapping) and isinstance(u.get("id"), int)}
        self.blocked = {int(u["id"]) for u in data.get("blocked") or []
                        if isinstance(u, Mapping) and isinstance(u.get("id"), int)}

    @staticmethod
    def pick(users: Sequence[Mapping[str, Any]], name: str) -> Mapping[str, Any] | None:
        """The user called ``name`` (in any case) among ``users``."""
        key = name.casefold()
        return next((u for u in users if str(u.get("name") or "").casefold() == key), None)

    async def listed(self, key: str, name: str, missing: str) -> Mapping[str, Any] | None:
        """The user called ``name`` in the friends list's ``key`` list (read afresh), or ``None`` after saying
        ``missing`` (or the list could not be read)."""
        data = await self.lists()
        if data is None:
            return None
        u = self.pick(data.get(key) or [], name)
        if u is None:
            self.client.error(tr(self.lang, missing, name=name))
        return u

    async def show(self) -> None:
        """``friends``: the friends and where they are, the requests in and out, the players met lately and the
        players blocked."""
        lang, c = self.lang, self.client
        if c.user.get("is_guest"):
            c.emit(tr(lang, "friends_guest"), style="yellow")
            return
        data = await self.lists()
        if data is None:
            return
        friends = [u for u in data.get("friends") or [] if isinstance(u, Mapping)]
        here = c.table.get("id") if c.table is not None else None
        c.emit(tr(lang, "friends_head", n=len(friends)), style="bold")
        if not friends:
            c.emit(tr(lang, "friends_none"), style="dim")
        for u in sorted(friends, key=lambda u: (0 if u.get("table") else 1 if u.get("online") else 2,
                                                str(u.get("name")).casefold())):
            table = u.get("table")
            if table and table == here:
                state = tr(lang, "friend_at_your_table")
            elif table and u.get("watchable"):
                state = tr(lang, "friend_at_table", table=table)
            elif table:
                state = tr(lang, "friend_at_private")
            else:
                state = tr(lang, "friend_online" if u.get("online") else "friend_offline")
            c.emit(tr(lang, "friend_line", name=self.name(u), state=state))
        for key in ("incoming", "outgoing"):
            users = [u for u in data.get(key) or [] if isinstance(u, Mapping)]
            if users:
                c.emit(tr(lang, "friends_" + key), style="bold")
                for u in users:
                    c.emit(tr(lang, "friend_item", name=self.name(u)))
        for key in ("recent", "blocked"):
            users = [u for u in data.get(key) or [] if isinstance(u, Mapping)]
            if users:
                c.emit(tr(lang, "friends_" + key), style="bold")
                for u in users:
                    c.emit(tr(lang, f"friend_{key}_item", name=self.name(u)))

    async def ask(self, name: str) -> None:
        """``friend NAME``: ask a player to be friends (friends at once when he had asked first)."""
        lang, c = self.lang, self.client
        if name.casefold() == str(c.user.get("name") or "").casefold():
            c.error(tr(lang, "friend_self"))
            return
        r = await c.post("/api/friends", {"name": name})
        if r is None:
            return
        user = r.get("user") or {"name": name}
        state = r.get("state")
        if isinstance(user.get("id"), int):
            self.relation[user["id"]] = "outgoing" if state == "requested" else "friend"
            if user["id"] in self.blocked:  # (asking a player one blocked lifts the block)
                self.blocked.discard(user["id"])
                c.emit(tr(lang, "friend_block_lifted", name=self.name(user)), style="dim")
        key = {"requested": "friend_sent", "accepted": "friend_now"}.get(str(state), "friend_already")
        c.emit(tr(lang, key, name=self.name(user)), style="green")

    async def accept(self, name: str | None) -> None:
        """``accept NAME``: accept a player's request (``accept`` alone: the only one there is)."""
        lang, c = self.lang, self.client
        data = await self.lists()
        if data is None:
            return
        incoming = data.get("incoming") or []
        u = self.pick(incoming, name) if name is not None else incoming[0] if len(incoming) == 1 else None
        if u is None:
            c.error(tr(lang, "friend_no_request", name=name) if name is not None
                    else tr(lang, "need_arg", cmd="accept", arg="NAME"))
            return
        if await c.post(f"/api/friends/{u['id']}/accept") is not None:
            self.relation[int(u["id"])] = "friend"
            c.emit(tr(lang, "friend_now", name=self.name(u)), style="green")

    async def decline(self, name: str) -> None:
        """``decline NAME``: turn a player's request down."""
        lang, c = self.lang, self.client
        u = await self.listed("incoming", name, "friend_no_request")
        if u is None:
            return
        if await c.post(f"/api/friends/{u['id']}/remove") is not None:
            self.relation.pop(int(u["id"]), None)
            c.emit(tr(lang, "friend_declined", name=self.name(u)))

    async def unfriend(self, name: str) -> None:
        """``unfriend NAME``: no longer friends, or withdraw the request sent to him (or decline his)."""
        lang, c = self.lang, self.client
        data = await self.lists()
        if data is None:
            return
        found = [(kind, u) for kind, key in _LISTS if (u := self.pick(data.get(key) or [], name)) is not None]
        if not found:
            c.error(tr(lang, "friend_nobody", name=name))
            return
        kind, u = found[0]
        if await c.post(f"/api/friends/{u['id']}/remove") is not None:
            self.relation.pop(int(u["id"]), None)
            said = {"friend": "friend_unfriended", "incoming": "friend_declined", "outgoing": "friend_withdrawn"}
            c.emit(tr(lang, said[kind], name=self.name(u)))

    async def invite(self, name: str) -> None:
        """``invite NAME``: send a friend the invite code of the private table this player sits at."""
        lang, c = self.lang, self.client
        if c.table is None or c.watching is not None:
            c.error(tr(lang, "invite_no_table"))
            return
        u = await self.listed("friends", name, "friend_no_friend")
        if u is None:
            return
        if await c.post(f"/api/friends/{u['id']}/invite", words={"not_at_table": tr(lang, "invite_no_table")}):
            c.emit(tr(lang, "friend_invited", name=self.name(u)), style="green")

    async def block(self, name: str) -> None:
        """``block NAME`` (拉黑): refuse a player's friend requests from now on; a friendship or requests between
        the two end.  The name is looked up in the lists, then on the server."""
        lang, c = self.lang, self.client
        if name.casefold() == str(c.user.get("name") or "").casefold():
            c.error(tr(lang, "friend_block_self"))
            return
        data = await self.lists()
        if data is None:
            return
        if (u := self.pick(data.get("blocked") or [], name)) is not None:
            c.emit(tr(lang, "friend_blocked_already", name=self.name(u)))
            return
        kind: str | None = None
        for k, key in (*_LISTS, ("recent", "recent")):
            if (u := self.pick(data.get(key) or [], name)) is not None:
                kind = k
                break
        else:
            u = await self.find(name)
        if u is None:
            c.error(tr(lang, "friend_block_unknown", name=name))
            return
        if await c.post(f"/api/friends/{u['id']}/block") is None:
            return
        self.relation.pop(int(u["id"]), None)
        self.blocked.add(int(u["id"]))
        if kind in ("friend", "incoming", "outgoing"):
            c.emit(tr(lang, "friend_blocked_ended", name=self.name(u), what=tr(lang, f"friend_blocked_{kind}")))
        else:
            c.emit(tr(lang, "friend_blocked", name=self.name(u)))

    async def find(self, name: str) -> Mapping[str, Any] | None:
        """The player called ``name`` (any case) as the server finds him (``GET /api/users?name=``:
        ``{"id", "name"}``), or ``None`` (nobody, a bot, or the server cannot be asked)."""
        http = self.client.http
        if http is None:
            return None
        try:
            r = await http.get("/api/users", params={"name": name})
            u = r.json().get("user") if r.status_code == 200 else None
        except (httpx.HTTPError, ValueError, AttributeError):
            return None
        if not isinstance(u, Mapping) or not isinstance(u.get("id"), int) or u.get("is_bot"):
            return None
        return {"id": u["id"], "name": u.get("name")}

    async def unblock(self, name: str) -> None:
        """``unblock NAME``: lift the block of a player (found in the list of those blocked)."""
        lang, c = self.lang, self.client
        u = await self.listed("blocked", name, "friend_not_blocked")
        if u is None:
            return
        if await c.post(f"/api/friends/{u['id']}/unblock",
                        words={"not_blocked": tr(lang, "friend_not_blocked", name=self.name(u))}) is not None:
            self.blocked.discard(int(u["id"]))
            c.emit(tr(lang, "friend_unblocked", name=self.name(u)), style="green")

    async def profile(self, name: str) -> None:
        """``profile NAME``: a player's public profile — what he is to this player, his standing in every game,
        his latest deals — and what to type about him."""
        from .client import GAME_WORDS

        lang, c = self.lang, self.client
        if name.strip(" .") == "":  # ("." and "..": the path's own dots, never a name — the answer was HTTP 404)
            c.error(error_words(lang, "unknown_user", {"name": name}))
            return
        # a guest's or a bot's seat as the table shows it (游客0427, Bot 2: no account is called so) has no profile
        if seat := _SEAT_WORDS.fullmatch(name.strip()):
            c.error(error_words(lang, "no_profile", {"name": name.strip(), "reason": "bot" if seat[2] else "guest"}))
            return
        data = await c.get(f"/api/players/{quote(name, safe='')}")
        if not isinstance(data, dict):
            return
        user = data.get("user") or {}
        shown = self.name(user)
        rel = str(data.get("relation") or "none")
        c.emit(tr(lang, "profile_head", name=shown,
                  relation=tr(lang, f"profile_rel_{rel}") if rel in _RELATIONS else ""), style="bold")

        def game_word(g: str) -> str:  # (each at the head of a line's entry: "Mahjong", as "Dou Dizhu")
            word = str(GAME_WORDS.get(g, (g, g))[0 if lang == "zh" else 1])
            return word[:1].upper() + word[1:]

        for game, g in (data.get("games") or {}).items():
            if not isinstance(g, Mapping):
                continue
            rate = g.get("win_rate")
            c.emit(tr(lang, "profile_game", game=game_word(game), points=g.get("points"),
                      title=title_words(game, g.get("title"), lang), played=g.get("games_played"),
                      rate="—" if rate is None else f"{round(float(rate) * 100)}%",
                      rank=tr(lang, "profile_rank", n=g["rank"]) if g.get("rank") else tr(lang, "profile_unranked")))
        recent = [d for d in data.get("recent") or [] if isinstance(d, Mapping)]
        c.emit(tr(lang, "profile_recent", n=len(recent)) if recent else tr(lang, "profile_no_deals"), style="bold")
        for d in recent:
            won = d.get("won")
            result = tr(lang, "profile_escaped" if d.get("escaped") else "profile_won" if won is True
                        else "profile_lost" if won is False else "profile_none")
            delta = int(d.get("delta") or 0)
            replay = tr(lang, "profile_replay", url=f"{c.base}/#/replay/{d.get('deal_id')}") if d.get("replay") else ""
            c.emit(tr(lang, "profile_deal", when=_when(d.get("finished_at")), game=game_word(str(d.get("game"))),
                      preset=d.get("preset") or "-", result=result, delta=f"{delta:+d}", replay=replay))
        typed = str(user.get("name") or name)
        hint = {"none": "profile_hint_none", "incoming": "profile_hint_incoming",
                "blocked": "profile_hint_blocked", "outgoing": "profile_hint_outgoing",
                "friend": "profile_hint_friend"}.get(rel)
        if hint is not None and not (rel == "none" and c.user.get("is_guest")):
            c.emit(tr(lang, hint, name=typed), style="dim")

    def join_code(self) -> str | None:
        """The invite code of the latest invitation (``join`` alone), or ``None``; says whose table it is."""
        inv = self.invitation
        if inv is None:
            return None
        code = str(inv["invite_code"])
        self.client.emit(tr(self.lang, "join_invitation", name=self.name(inv.get("user") or {}),
                            table=inv.get("table"), code=code), style="dim")
        return code

    def joined(self, table: Any) -> None:
        """This player sat down at ``table``: an invitation to it is used."""
        if self.invitation is not None and self.invitation.get("table") == table:
            self.invitation = None

    # ------------------------------------------------------------------ the server's messages
    def on_message(self, m: Mapping[str, Any]) -> None:
        """A ``friend`` message: one line, wherever the player is."""
        from .client import GAME_WORDS

        lang, c = self.lang, self.client
        raw = m.get("user")
        user: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
        uid = user.get("id")
        name = self.name(user)
        event = m.get("event")
        if event == "request":
            if isinstance(uid, int):
                self.relation[uid] = "incoming"
            c.emit(tr(lang, "notice_friend_request", name=name), style="bold cyan")
        elif event == "accepted":
            if isinstance(uid, int):
                self.relation[uid] = "friend"
            c.emit(tr(lang, "notice_friend_accepted", name=name), style="bold cyan")
        elif event == "removed":
            was = self.relation.pop(uid, None) if isinstance(uid, int) else None
            key = {"friend": "unfriended", "outgoing": "declined", "incoming": "withdrew"}.get(str(was), "removed")
            c.emit(tr(lang, "notice_friend_" + key, name=name), style="cyan")
        elif event == "invite" and m.get("invite_code"):
            self.invitation = dict(m)
            game = str(m.get("game"))
            seated = c.table is not None and c.watching is None
            c.emit(tr(lang, "notice_friend_invite_seated" if seated else "notice_friend_invite", name=name,
                      table=m.get("table"), game=GAME_WORDS.get(game, (game, game))[0 if lang == "zh" else 1],
                      room=m.get("room") or "-", code=m["invite_code"]), style="bold cyan")

    async def greet(self) -> None:
        """After logging in: the players who asked to be friends meanwhile, in one line (nothing when none, or
        when the list cannot be read)."""
        c = self.client
        if c.user.get("is_guest") or c.http is None:
            return
        try:
            r = await c.http.get("/api/friends")
            data = r.json() if r.status_code == 200 else None
        except (httpx.HTTPError, ValueError):
            return
        if not isinstance(data, dict):
            return
        self.learn(data)
        names = [self.name(u) for u in data.get("incoming") or [] if isinstance(u, Mapping)]
        if names and not c.done:
            c.emit(tr(self.lang, "friend_requests_waiting", names=", ".join(names[:10])
                      + (" …" if len(names) > 10 else "")), style="bold cyan")
            c.show_prompt()
