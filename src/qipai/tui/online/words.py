"""The words of ``qipai online`` in English and Chinese: the lobby, the table around the game, and every error
code the server may send (:data:`qipai.server.protocol.ERROR_CODES`), worded as the browser words them
(``src/qipai/web/js/shell/errors.js``) from the error's ``params``.

>>> error_words("en", "not_enough_points", {"need": 100, "have": 40})
'Not enough points: you need at least 100, you have 40'
>>> error_words("zh", "bad_login", {})
'用户名或密码不对'
>>> error_words("en", "no_such_code", {})
'Something went wrong (no_such_code)'
>>> display_name("bot:heuristic:2", "zh"), display_name("guest-00ab12cd", "en"), display_name("alice", "en")
('电脑2号', 'Guest 5709', 'alice')
>>> title_words("doudizhu", "商人", "en"), title_words("shengji", "上尉", "en"), title_words("mahjong", "新手", "zh")
('Merchant', 'Captain', '新手')
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from typing import Any

from ..i18n import fill

Params = Mapping[str, Any]
Wording = str | Callable[[Params], str]


def _n(v: Any) -> str:
    return "" if v is None else str(v)


def _need(zh: bool) -> Callable[[Params], str]:
    def f(p: Params) -> str:
        if zh:
            return f"积分不够：这里至少要 {_n(p.get('need'))} 分" + (
                f"，你有 {_n(p.get('have'))} 分" if p.get("have") is not None else "")
        return f"Not enough points: you need at least {_n(p.get('need'))}" + (
            f", you have {_n(p.get('have'))}" if p.get("have") is not None else "")
    return f


_BAD_NAME_ANY = ("这个用户名不能用：2–24 个字母、数字、汉字或 _ - .，不能像别人的名字",
                 "This name cannot be used: 2–24 letters, digits, Chinese characters or _ - ., not like someone else's")
_BAD_NAME = {  # by the rule the name broke (params.reason)
    "staff": ("这个用户名不能用：名字里不能有“管理员”“官方”“客服”“系统”“admin”等字样，会被当成工作人员",
              "This name cannot be used: a name may not hold admin, moderator, official, system, 管理员, 官方, 客服 "
              "or 系统 (it would pass for the server's staff)"),
    "reserved": ("这个用户名不能用：以“电脑”“游客”“bot”“guest”开头的名字留给电脑和游客",
                 "This name cannot be used: names starting with bot, guest, 电脑 or 游客 are kept for bots and guests"),
}

ERROR_WORDS: dict[str, tuple[Wording, Wording]] = {
    # accounts and sessions
    "bad_login": ("用户名或密码不对", "Wrong name or password"),
    "account_blocked": ("这个账号已被管理员封禁，请联系管理员",
                        "This account is blocked by the server's operator: contact them"),
    "name_taken": (lambda p: f"用户名“{_n(p.get('name'))}”已经有人用了",
                   lambda p: f"The name “{_n(p.get('name'))}” is taken"),
    "bad_name": (lambda p: _BAD_NAME.get(str(p.get("reason")), _BAD_NAME_ANY)[0],
                 lambda p: _BAD_NAME.get(str(p.get("reason")), _BAD_NAME_ANY)[1]),
    "bad_password": (lambda p: "密码不能含控制字符（如制表符、换行）" if p.get("reason") == "control"
                     else "密码要 6 到 128 个字符",
                     lambda p: "A password may not hold control characters (a tab, a line break)"
                     if p.get("reason") == "control" else "A password is 6 to 128 characters long"),
    "no_password": ("游客账号没有密码可改", "A guest account has no password to change"),
    "not_a_guest": ("这个账号已经是注册账号了，不用再保存", "This account is registered already: nothing to save"),
    "login_backoff": (lambda p: f"这个账号登录失败太多次，请 {_n(p.get('seconds')) or '稍'} 秒后再试",
                      lambda p: f"Too many failed log-ins for this account: try again in "
                      f"{_n(p.get('seconds')) or 'a few'} s"),
    "rate_limited": ("操作太快了，请稍等一下", "Too fast: wait a moment"),
    "flood": ("消息太多，连接被关闭", "Too many messages: the connection was closed"),
    "unauthorized": ("请先登录（或登录已过期）", "Please log in first (or the session ended)"),
    "too_many_connections": ("这个账号（或这个网络）打开的窗口太多了：关掉几个再试",
                             "Too many windows are open for this account (or this network): close some and try "
                             "again"),
    "already_authenticated": ("这个连接已经登录了", "This connection is logged in already"),
    "guest_account": (lambda p: f"{display_name(_n(p.get('name')), 'zh')} 是游客，不能加好友" if p.get("name")
                      else "游客不能加好友：先保存为正式账号",
                      lambda p: f"{display_name(_n(p.get('name')), 'en')} plays as a guest and cannot keep friends"
                      if p.get("name") else "Guests cannot keep friends: save the account first"),
    "not_friends": ("你们还不是好友", "You are not friends"),
    "friend_offline": (lambda p: f"对方不在线，邀请送不到：把邀请码 {_n(p.get('invite_code'))} 发给他",
                       lambda p: f"Your friend is offline and would not get the invitation: send him the invite code "
                       f"{_n(p.get('invite_code'))}"),
    "blocked": (lambda p: f"{_n(p.get('name')) or '对方'} 不接受你的好友申请",
                lambda p: f"{_n(p.get('name')) or 'This player'} takes no friend requests from you"),
    "not_blocked": ("你没有拉黑这个玩家", "You have not blocked this player"),
    "no_request": ("对方没有加你为好友", "This player has not asked to be your friend"),
    "too_many_friends": ("好友（和申请）已达上限", "You have as many friends and requests as you may"),
    "no_invite_code": ("只能邀请好友到开房的桌子：先开一个房间",
                       "Friends are invited to a private table: create one first"),
    "unknown_user": (lambda p: f"没有叫 {_n(p.get('name'))} 的玩家" if p.get("name") else "没有这个玩家",
                     lambda p: f"No player is called {_n(p.get('name'))}" if p.get("name") else "No such player"),
    "no_profile": (lambda p: f"{_n(p.get('name'))} 是{'电脑' if p.get('reason') == 'bot' else '游客'}，没有玩家资料",
                   lambda p: f"{_n(p.get('name'))} plays as a {'bot' if p.get('reason') == 'bot' else 'guest'} and "
                   "has no player profile"),
    "unknown_game": ("没有这个游戏", "No such game"),
    "unknown_preset": (lambda p: f"这个游戏没有 {_n(p.get('preset'))} 这种玩法"
                       + (f"：可选 {', '.join(map(str, p['presets']))}" if p.get("presets") else ""),
                       lambda p: f"This game has no preset {_n(p.get('preset'))}"
                       + (f": choose {', '.join(map(str, p['presets']))}" if p.get("presets") else "")),
    "no_relief": ("救济只给积分不够进任何房间的玩家，每天一次",
                  "Relief is for players below every room's minimum, once a day"),
    "server_busy": ("服务器忙，请再试一次", "The server is busy: try again"),
    "server_error": ("服务器处理这条消息时出错，什么也没改变", "The server failed on this message; nothing changed"),
    "taken_over": ("你在另一个窗口打开了这桌，这个窗口不再控制座位（输入 takeover 拿回来）",
                   "Another window of yours controls your seat now (type takeover to take it back)"),
    # lobby and tables
    "unknown_room": (lambda p: f"没有房间 {_n(p.get('room'))}：输入 rooms 看有哪些",
                     lambda p: f"No room {_n(p.get('room'))}: type rooms to list them"),
    "unknown_table": ("这张牌桌已经不在了", "That table is gone"),
    "unknown_invite": (lambda p: f"没有牌桌用邀请码 {_n(p.get('invite'))}，请检查一下",
                       lambda p: f"No open table has the invite code {_n(p.get('invite'))}: check it"),
    "private_table": ("这是私人桌：要有邀请码才能看", "A private table: watching needs its invite code"),
    "not_enough_points": (_need(True), _need(False)),
    "already_seated": ("你已经坐在另一张牌桌上，先离开那张桌", "You already sit at another table: leave it first"),
    "leaving_table": ("你在这一局中离开了牌桌：本局结束后座位才空出来",
                      "You left the table during this deal: your seat is freed when the deal ends"),
    "table_full": ("这张桌子坐满了", "This table has no free seat"),
    "table_closed": ("这张牌桌已经关了", "This table is closed"),
    "deal_running": ("这桌正在打牌：等这一局结束再坐下", "A deal is running at this table: sit down between deals"),
    "not_seated": ("你没有坐在这张桌上", "You have no seat at this table"),
    "left_match": ("你已离开本场比赛，座位由托管打完", "You left this match: your seat plays on in auto-play"),
    "not_at_table": ("你不在这张桌上，也没有在观战", "You neither sit at nor watch this table"),
    "seated_here": ("你就坐在这张桌上", "You sit at this table already"),
    "not_allowed": ("只有开桌的人可以这样做", "Only the table's creator may do that"),
    "bad_options": ("这些规则选项不能用", "These rule options do not work"),
    "points_option": ("为积分而打的桌子不能改变算分的规则",
                      "A table that plays for points keeps the room's scoring rules"),
    # playing
    "no_deal": ("这桌现在没有牌局", "No deal is running at this table"),
    "stale": ("牌桌已经变了，正在刷新", "The table moved on: refreshing"),
    "not_your_turn": ("还没轮到你", "It is not your turn"),
    "bad_action": ("这不是出牌动作：请用 auto 或 leave", "Not a move: use auto or leave"),
    "illegal_action": ("这一步不符合规则", "That move is against the rules"),
    "no_change": ("已经是这样了", "Already so"),
    "autoplay_limit": (lambda p: f"这一局托管开关次数太多（{_n(p.get('limit'))} 次），下一局才能再开",
                       lambda p: f"Auto-play was turned on too often this deal ({_n(p.get('limit'))} times): "
                                 "again next deal"),
    "unknown_phrase": ("没有这句快捷语：输入 say 看有哪些", "No such phrase: type say to list them"),
    "chat_rate_limited": ("说得太快了，歇一会儿", "You are chatting too fast: wait a moment"),
    "storage_unavailable": ("服务器暂时无法保存，什么也没改变，请稍后再试",
                            "The server cannot save right now; nothing changed — try again in a moment"),
    "storage_restored": ("服务器恢复正常", "The server is back"),
    "table_elsewhere": ("这桌在另一台服务器上：请连接那台", "This table runs on another server: connect to it"),
    "table_moved": ("这桌转到另一台服务器了：请重新连接", "This table moved to another server: reconnect"),
    "node_draining": ("这台服务器正在交接牌桌，请稍后再试",
                      "This server is handing its tables over: try again shortly"),
    "no_cluster": ("服务器只有一台", "The server runs alone"),
    # matches
    "unknown_match": ("没有这场比赛", "No such match"),
    "match_closed": ("这场比赛已截止报名（或现在不能这样做）", "Registration for this match has closed"),
    "match_full": ("这场比赛人数已满", "This match is full"),
    "already_registered": ("你已经报名了这场比赛", "You are registered in this match already"),
    "not_registered": ("你没有报名这场比赛", "You are not an entrant of this match"),
    "match_entry": ("这场比赛不接受这次报名", "The match refuses this registration"),
    "in_match": ("你正在比赛中，比赛会安排你的牌桌", "You are playing in a match: it seats you at its tables"),
    "settlement_failed": ("这一局的结果无法记录：没有人得失积分，牌桌关闭",
                          "This deal's result could not be recorded: nobody was paid and the table closes"),
    # records
    "unknown_deal": ("没有这一局", "No such deal"),
    "not_your_deal": ("只能看自己打过的牌局", "You can read the records of your own deals only"),
    "deal_aborted": ("这一局中途作废，没有结算", "This deal was abandoned unfinished and was not settled"),
    "deal_failed": ("这一局的结果没能记录，没有人得失积分",
                    "This deal's result could not be recorded; nobody was paid"),
    "no_review": ("这个游戏的牌局还不能复盘", "Deals of this game have no review yet"),
    # the request itself
    "bad_request": ("请求不对", "Bad request"),
    "bad_json": ("请求的数据格式不对", "The request is not valid JSON"),
    "not_json": ("请求必须是 JSON", "The request must be JSON"),
    "bad_origin": ("请求来自别的网站，已拒绝", "The request comes from another site: refused"),
    "bad_field": (lambda p: f"字段 {_n(p.get('field'))} 的值不对",
                  lambda p: f"Field {_n(p.get('field'))} has a wrong value"),
    "missing_field": (lambda p: f"缺少字段 {_n(p.get('field'))}", lambda p: f"Missing field {_n(p.get('field'))}"),
    "bad_param": (lambda p: f"参数 {_n(p.get('param'))} 不对", lambda p: f"Parameter {_n(p.get('param'))} is wrong"),
    "too_large": ("内容太长了", "Too large"),
    "not_found": ("没有这个接口", "No such endpoint"),
    "bad_message": ("消息格式不对", "Malformed message"),
    "unknown_type": ("服务器不认识这种消息", "The server does not know this message"),
    "bad_version": ("协议版本不对：请更新 qipai", "Protocol version mismatch: update qipai"),
}
"""Error code → (Chinese, English) wording: a text, or a function of the error's ``params``."""


def error_words(lang: str, code: str, params: Params | None = None) -> str:
    """An error ``code`` from the server in ``lang``, worded from its ``params`` (never the server's English
    ``message``); an unknown code is named."""
    w = ERROR_WORDS.get(code)
    if w is None:
        return f"出错了（{code}）" if lang == "zh" else f"Something went wrong ({code})"
    s = w[0] if lang == "zh" else w[1]
    return s(params or {}) if callable(s) else s


PHRASES = ("hurry", "nice_play", "sorry", "again", "thanks", "bye", "wait", "good_luck", "well_played", "oops",
           "emote:smile", "emote:cry", "emote:angry", "emote:thumbs_up", "emote:flower", "emote:shock")
"""The quick-chat phrases the server accepts (``qipai.host.table.PHRASES``)."""

PHRASE_WORDS: dict[str, tuple[str, str]] = {
    "hurry": ("快点吧，等得花儿都谢了", "Hurry up, please!"),
    "nice_play": ("打得好！", "Nice play!"),
    "sorry": ("不好意思，失误了", "Sorry, my mistake"),
    "again": ("再来一局！", "One more deal!"),
    "thanks": ("谢谢配合", "Thanks, partner"),
    "bye": ("我先走了，下次再玩", "I have to go, see you"),
    "wait": ("等一下，我想想", "Wait, let me think"),
    "good_luck": ("祝大家好运", "Good luck, everyone"),
    "well_played": ("配合得真好", "Well played, partner"),
    "oops": ("哎呀，手滑了", "Oops, slipped"),
    "emote:shock": ("[吃惊]", "[shocked]"),
    "emote:smile": ("[微笑]", "[smile]"),
    "emote:cry": ("[哭了]", "[crying]"),
    "emote:angry": ("[生气]", "[angry]"),
    "emote:thumbs_up": ("[点赞]", "[thumbs up]"),
    "emote:flower": ("[送花]", "[a flower]"),
}


def phrase_words(phrase: str, lang: str) -> str:
    """A quick-chat phrase id in words."""
    w = PHRASE_WORDS.get(phrase)
    return phrase if w is None else w[0] if lang == "zh" else w[1]


def display_name(name: str, lang: str) -> str:
    """A seat or account name as a player reads it: bot seats (``bot:<bot>:<n>``) and guests (``guest-<hex>``)
    in words, as the browser shows them; anything else as it is."""
    m = re.fullmatch(r"bot:([\w-]+):(\d+)", name)
    if m:
        return f"电脑{m[2]}号" if lang == "zh" else f"Bot {m[2]}"
    m = re.fullmatch(r"bot:([\w-]+)", name)
    if m:
        return f"电脑（{m[1]}）" if lang == "zh" else f"Bot ({m[1]})"
    m = re.fullmatch(r"guest-([0-9a-fA-F]{4,})", name)
    if m:
        n = f"{int(m[1][-5:], 16) % 10000:04d}"
        return f"游客{n}" if lang == "zh" else f"Guest {n}"
    return name


def english_titles(game: str) -> Mapping[str, str]:
    """The English names of ``game``'s titles by their Chinese names: ``ENGLISH`` of
    ``qipai.games.<game>.titles`` (empty for a game without one)."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", game):
        return {}
    try:
        module = importlib.import_module(f"qipai.games.{game}.titles")
    except ImportError:
        return {}
    names = getattr(module, "ENGLISH", None)
    return names if isinstance(names, Mapping) else {}


def title_words(game: str, title: Any, lang: str) -> str:
    """A player's title in ``game`` as the server names it (Chinese, e.g. 商人) in ``lang``: in English output its
    English name (:func:`english_titles`); ``-`` for none; a title without an English name as it is."""
    if not title:
        return "-"
    text = str(title)
    if lang == "zh":
        return text
    return str(english_titles(game).get(text, text))


_EN: dict[str, str] = {
    "connecting": "Connecting to {url} …",
    "logged_in": "Logged in as {name} ({kind}).",
    "guest": "guest",
    "registered": "registered",
    "welcome_table": "You sit at a table already: back to it.",
    "lobby_help": ("Lobby: rooms · quick ROOM (quick match, bots fill the seats) · create ROOM [DEALS] (a "
                   "private table for friends; DEALS: played for that many deals, then the final results) · "
                   "join CODE (a friend's table; join alone: the latest invitation) · tables (tables "
                   "to watch) · watch TABLE (watch a table: 观战) · me (your points) · rules ROOM or PRESET (how "
                   "to play: 玩法说明) · profile NAME (a player's profile: 玩家资料) · "
                   "top [GAME] [week|month] (the leaderboard: 排行榜, 周榜, 月榜) · friends (好友: your friends and "
                   "requests) · friend NAME (ask a player) · "
                   "accept NAME · decline NAME · unfriend NAME · "
                   "block NAME (拉黑: no more requests from them) · unblock NAME · help · quit"),
    "lobby_prompt": "lobby",
    "rooms_head": "Rooms:",
    "room_line": "  {id:<16} {game:<10} stake {stake:<5} min {min} points · {tables} {tables|table|tables}, "
                 "{players} {players|player|players}",
    "no_rooms": "No rooms on this server.",
    "me_line": "{name}{guest}: {games}",
    "me_game": "{game} {points} points ({title}, {played} played, {wins} won)",
    "profile_head": "Player {name}{relation}:",
    "profile_rel_self": " (you)",
    "profile_rel_friend": " (your friend)",
    "profile_rel_outgoing": " (you asked to be friends)",
    "profile_rel_incoming": " (asks to be your friend)",
    "profile_rel_blocked": " (blocked by you)",
    "profile_game": "  {game}: {points} points, {title}, {played} {played|deal|deals}, win rate {rate}, {rank}",
    "profile_rank": "No. {n} on the leaderboard",
    "top_arg": ("top: {arg!r} is neither a game ({games}) nor a period (week, month): type top [GAME] "
                "[week|month]."),
    "top_head_all": "{game} leaderboard (all time: points now):",
    "top_head_week": "{game} leaderboard, this week{since}:",
    "top_head_month": "{game} leaderboard, this month{since}:",
    "top_since": " (points won at the deals since {date}, 00:00 {tz}; relief and match prizes do not count)",
    "top_line": "  {rank:>3}. {name:<16} {points:>7}  {played} {played|deal|deals}, {wins} {wins|win|wins}  {title}",
    "top_empty_all": "  Nobody is on this board yet.",
    "top_empty_week": "  Nobody is on this week's board yet.",
    "top_empty_month": "  Nobody is on this month's board yet.",
    "top_me_all": "Your place: No. {n} ({points} points).",
    "top_me_week": "Your place this week: No. {n} ({points} points this week).",
    "top_me_month": "Your place this month: No. {n} ({points} points this month).",
    "top_not_ranked_all": "You are not on this board yet: play a deal of this game to be.",
    "top_not_ranked_week": "You are not on this week's board yet: play a deal this week to be.",
    "top_not_ranked_month": "You are not on this month's board yet: play a deal this month to be.",
    "top_guest": "Guests are not on the boards: register to be.",
    "profile_unranked": "not ranked",
    "profile_recent": "Latest {n} {n|deal|deals}:",
    "profile_no_deals": "No finished deals yet.",
    "profile_deal": "  {when}  {game} ({preset})  {result} {delta}{replay}",
    "profile_won": "won",
    "profile_lost": "lost",
    "profile_escaped": "escaped",
    "profile_none": "-",
    "profile_replay": "  · replay: {url}",
    "profile_hint_none": "Type friend {name} to ask to be friends, block {name} to block.",
    "profile_hint_incoming": "Type accept {name} to be friends (decline {name}: no).",
    "profile_hint_outgoing": "Waiting for {name}'s answer (unfriend {name} withdraws the request).",
    "profile_hint_friend": "Type unfriend {name} to end the friendship, block {name} to block.",
    "profile_hint_blocked": "Type unblock {name} to lift the block.",
    "need_arg": "Type {cmd} {arg}.",
    "rules_arg": "ROOM or PRESET (e.g. rules chengdu-1, rules four_deck)",
    "rules_unknown": "{text!r} is no room, game or preset: type rules ROOM (see rooms) or rules PRESET ({presets}).",
    "unknown_lobby": "{text!r} is not a lobby command: type help.",
    "joined": "You sit at table {table} ({game}, room {room}), seat {seat}.",
    "no_points": "This table plays for no points: the scores stay at this table and your points do not move.",
    "invite": "Invite code: {code} — your friends type: join {code}",
    "seats": "Seats: {seats}",
    "seat_empty": "(empty)",
    "tag_bot": "bot",
    "tag_away": "away",
    "tag_ready": "ready",
    "tag_you": "you",
    "deal_start": "Deal {n}",
    "deal_start_of": "Deal {n}/{total}",
    "deals_table": "This table plays {total} {total|deal|deals}, then the final results.",
    "bad_deals": "DEALS is a number of deals from 1 to 64: create ROOM [DEALS].",
    "final_head": "Final results: {n} {n|deal|deals} played",
    "final_line": "{rank}. {name}  {total:+d}  won {won}/{deals}  last {last}{mark}",
    "final_winner": "  ← winner",
    "final_no_winner": "Nobody came out ahead.",
    "final_best": "Best deal: {name} {score:+d} (deal {n}).",
    "final_closed": "All the table's deals are played: it closes.",
    "between_prompt": "Enter: ready (准备) · bots · say · leave · help",
    "waiting_prompt": "waiting for players · bots · say · leave · help",
    "watch_prompt": "{name} to act · auto · say · leave · help",
    "auto_prompt": "auto-play (托管) plays for you · type auto to take back control",
    "taken_prompt": "another window of yours plays this seat · type takeover to play here",
    "ready_sent": "Ready (准备): the next deal starts when everyone is ready.",
    "is_ready": "{name} is ready.",
    "table_help": ("At the table: your moves as the prompt says · auto (托管 on/off) · say PHRASE (quick chat; "
                   "say alone lists them) · seats · bots (creator: bots take the empty seats) · invite NAME (a "
                   "friend to this private table) · friends · profile NAME (a player's profile) · "
                   "top [week|month] (this game's leaderboard) · rules (how to "
                   "play at this table: 玩法说明) · leave · help"),
    "not_your_turn": "Not your turn: wait for {name} (or type help).",
    "not_your_turn_anyone": "Not your turn: wait (or type help).",
    "auto_on": "Auto-play on (托管): the server plays for you. Type auto to take back control.",
    "auto_off": "Auto-play off: you play again.",
    "leave_confirm": "Leave during the deal? Auto-play finishes it for you (or the rules' escape penalty applies). "
                     "Type yes to leave: ",
    "leave_cancel": "You stay.",
    "left": "You left the table.",
    "leaving_after": "You leave the table when this deal ends (auto-play finishes it).",
    "removed": "You were removed from the table ({reason}).",
    "closed": "The table closed ({reason}).",
    "chat": "{name} says: {text}",
    "phrases": "Phrases: {list}",
    "bots_asked": "Asked for bots in the empty seats.",
    "you_won": "You win {n} point{s}.",
    "you_lost": "You lose {n} point{s}.",
    "you_even": "Your points do not change.",
    "changes": "{name}: {delta:+d} → {points} ({title})",
    "deal_over": "Deal over.",
    "deadline": " ({s} s)",
    "forced": "You cannot beat it: the server passes for you in {s} s (or type your move).",
    "taken_over": "Another window of yours controls your seat now: type takeover to take it back.",
    "took_over": "You control your seat again.",
    "session_closed": "The session ended ({reason}).",
    "connection_lost": "The connection to the server was lost.",
    "bye": "Bye.",
    "in_lobby": "Back in the lobby.",
    "no_table": "You sit at no table: try quick ROOM, create ROOM or join CODE.",
    "at_table": "You sit at a table: leave it first.",
    "notice_storage_unavailable": "The server cannot save moves right now: the table pauses.",
    "notice_storage_restored": "The server is back: play on.",
    "refused": "Refused: {msg}",
    "not_legal_now": "{text!r} is not allowed now.",
    "unknown_game_view": "This terminal client does not know the game {game!r}: play it in the browser.",
    # watching a table (观战)
    "tables_head": "Tables you can watch (type watch TABLE):",
    "table_line": "  {id:<14} {game:<10} room {room:<14} {status} · {players}{watchers}",
    "status_playing": "playing",
    "status_waiting": "waiting",
    "watchers": " · {n} watching",
    "no_tables": "No table to watch right now.",
    "more_tables": "  … and {n} more: type tables to list them all.",
    "watch_arg": "Type watch TABLE (a table's id, as rooms and tables list them; a private table: watch TABLE CODE).",
    "watching": "You watch table {table} ({game}, room {room}): you see what every spectator sees.",
    "spectator_prompt": "watching table {table} · leave · help",
    "spectator_cannot": "You only watch this table: you cannot play here (type leave to go back to the lobby).",
    "spectator_help": ("Watching (观战): the moves show as they happen · seats · rules (how to play) · friends · "
                       "profile NAME · top [week|month] (leaderboard) · "
                       "join [CODE] (stop watching and sit at a friend's table) · leave (back to the lobby) · help · "
                       "quit"),
    "unwatched": "You stopped watching the table.",
    # a dropped connection
    "connection_retry": "The connection to the server was lost: reconnecting …",
    "reconnect_try": "Reconnecting (try {n}) in {s:g} s …",
    "reconnected": "Reconnected.",
    "reconnect_gave_up": "Could not reconnect to the server within {s:g} s: giving up.",
    "reconnect_refused": "The server no longer accepts this session ({why}): log in again.",
    "offline": "Not connected to the server (reconnecting): try again in a moment.",
    "offline_prompt": "reconnecting …",
    "seat_gone": "You no longer sit at that table (it went on without you while you were away).",
    "watch_gone": "The table you watched is gone.",
    # friends (好友)
    "friends_head": "Friends ({n}):",
    "friend_line": "  {name:<16} {state}",
    "friend_online": "online",
    "friend_offline": "offline",
    "friend_at_table": "at table {table} (type watch {table})",
    "friend_at_private": "at a private table",
    "friend_at_your_table": "at your table",
    "friend_self": "You cannot be your own friend: type friend NAME with another player's name.",
    "friends_none": "No friends yet: type friend NAME to ask a player.",
    "friends_incoming": "Asking to be your friend (type accept NAME or decline NAME):",
    "friends_outgoing": "Your requests, waiting for an answer (unfriend NAME withdraws one):",
    "friend_item": "  {name}",
    "friends_recent": "Played with lately (最近同桌):",
    "friend_recent_item": "  {name:<16} type friend {name} to ask",
    "friends_blocked": "Blocked (拉黑: their friend requests are refused):",
    "friend_blocked_item": "  {name:<16} type unblock {name} to lift",
    "friend_blocked": "You blocked {name} (拉黑): their friend requests are refused (unblock {name} lifts it).",
    "friend_blocked_ended": "You blocked {name} (拉黑) and {what}: their friend requests are refused (unblock "
                            "{name} lifts it).",
    "friend_blocked_friend": "they are no longer your friend",
    "friend_blocked_incoming": "declined their friend request",
    "friend_blocked_outgoing": "withdrew your friend request",
    "friend_blocked_already": "{name} is blocked already (unblock {name} lifts it).",
    "friend_unblocked": "You unblocked {name}: they may ask you to be friends again.",
    "friend_not_blocked": "You have not blocked {name}: type friends to see whom you blocked.",
    "friend_block_self": "You cannot block yourself.",
    "friend_block_unknown": "No player is called {name}.",
    "friend_block_lifted": "Your block of {name} is lifted.",
    "friends_guest": "Guests cannot keep friends: save the account first (register in the browser).",
    "friend_sent": "Friend request sent to {name}: you are friends when they accept.",
    "friend_now": "You and {name} are friends now.",
    "friend_already": "You and {name} are friends already.",
    "friend_declined": "You declined {name}'s friend request.",
    "friend_unfriended": "{name} is no longer your friend.",
    "friend_withdrawn": "You withdrew your friend request to {name}.",
    "friend_invited": "{name} is invited to your table: they type join to sit down.",
    "friend_no_request": "Nobody called {name} asks to be your friend: type friends to see who does.",
    "friend_no_friend": "{name} is not your friend: type friends to see your list.",
    "friend_nobody": "{name} is neither your friend nor asked to be: type friends to see your list.",
    "invite_no_table": "Sit at a private table first (create ROOM), then invite friends to it.",
    "join_no_invite": "No invitation to join: type join CODE (the invite code of a friend's table).",
    "join_invitation": "Joining {name}'s table {table} (join {code}) …",
    "friend_requests_waiting": "{names} asked to be your friend: type friends (accept NAME, decline NAME).",
    "notice_friend_request": "{name} asks to be your friend: type accept {name} (or decline {name}).",
    "notice_friend_accepted": "{name} and you are friends now.",
    "notice_friend_unfriended": "{name} removed you from their friends.",
    "notice_friend_declined": "{name} declined your friend request.",
    "notice_friend_withdrew": "{name} withdrew the friend request.",
    "notice_friend_removed": "{name} ended your friendship (or a friend request between you).",
    "notice_friend_invite": "Your friend {name} invites you to table {table} ({game}, room {room}): type join to "
                            "sit down (or join {code}).",
    "notice_friend_invite_seated": "Your friend {name} invites you to table {table} ({game}, room {room}): leave "
                                   "this table, then type join (or join {code}).",
}

_ZH: dict[str, str] = {
    "connecting": "正在连接 {url} …",
    "logged_in": "已登录：{name}（{kind}）。",
    "guest": "游客",
    "registered": "注册用户",
    "welcome_table": "你已经坐在一张牌桌上：回到牌桌。",
    "lobby_help": ("大厅：rooms 房间列表 · quick 房间 快速开始（电脑补位）· create 房间 [局数] 开私人桌（邀请好友；"
                   "局数：打完这么多局大结算）· "
                   "join 邀请码 加入好友的桌（只输入 join：最近的邀请）· tables 可以观战的牌桌 · watch 牌桌 观战 · "
                   "me 我的积分 · rules 房间或玩法 玩法说明 · profile 玩家名 玩家资料 · "
                   "top [游戏] [week|month] 排行榜（总榜、周榜、月榜）· "
                   "friends 好友和好友申请 · "
                   "friend 玩家名 加好友 · accept 玩家名 同意 · decline 玩家名 拒绝 · unfriend 玩家名 删除好友 · "
                   "block 玩家名 拉黑 · unblock 玩家名 取消拉黑 · "
                   "help 帮助 · quit 退出"),
    "lobby_prompt": "大厅",
    "rooms_head": "房间：",
    "room_line": "  {id:<16} {game:<10} 底分 {stake:<5} 至少 {min} 分 · {tables} 桌 {players} 人",
    "no_rooms": "这个服务器没有房间。",
    "me_line": "{name}{guest}：{games}",
    "me_game": "{game} {points} 分（{title}，{played} 局，胜 {wins}）",
    "profile_head": "玩家资料：{name}{relation}",
    "profile_rel_self": "（你自己）",
    "profile_rel_friend": "（好友）",
    "profile_rel_outgoing": "（已申请加好友）",
    "profile_rel_incoming": "（想加你为好友）",
    "profile_rel_blocked": "（已拉黑）",
    "profile_game": "  {game}：{points} 分，{title}，{played} 局，胜率 {rate}，{rank}",
    "profile_rank": "排行榜第 {n} 名",
    "top_arg": ("top：{arg!r} 既不是游戏（{games}）也不是周期（week 周榜、month 月榜）："
                "请输入 top [游戏] [week|month]。"),
    "top_head_all": "{game} 总榜（按现有积分）：",
    "top_head_week": "{game} 周榜{since}：",
    "top_head_month": "{game} 月榜{since}：",
    "top_since": "（自 {date} 0 点起的牌局得分，{tz} 时间；救济和比赛奖金不计）",
    "top_line": "  {rank:>3}. {name:<16} {points:>7}  {played} 局 胜 {wins}  {title}",
    "top_empty_all": "  还没有人上榜。",
    "top_empty_week": "  本周还没有人上榜。",
    "top_empty_month": "  本月还没有人上榜。",
    "top_me_all": "我的排名：第 {n} 名（{points} 分）。",
    "top_me_week": "我的本周排名：第 {n} 名（本周 {points} 分）。",
    "top_me_month": "我的本月排名：第 {n} 名（本月 {points} 分）。",
    "top_not_ranked_all": "你还没有上榜：在这个游戏里打一局就上榜。",
    "top_not_ranked_week": "你本周还没有上榜：本周打一局就上榜。",
    "top_not_ranked_month": "你本月还没有上榜：本月打一局就上榜。",
    "top_guest": "游客不上榜：注册账号以后就上榜。",
    "profile_unranked": "未上榜",
    "profile_recent": "最近 {n} 局：",
    "profile_no_deals": "还没有打完的牌局。",
    "profile_deal": "  {when}  {game}（{preset}）  {result} {delta}{replay}",
    "profile_won": "胜",
    "profile_lost": "负",
    "profile_escaped": "逃跑",
    "profile_none": "-",
    "profile_replay": "  · 回放：{url}",
    "profile_hint_none": "输入 friend {name} 加好友，block {name} 拉黑。",
    "profile_hint_incoming": "输入 accept {name} 同意加好友（decline {name} 拒绝）。",
    "profile_hint_outgoing": "等待 {name} 同意（unfriend {name} 撤回申请）。",
    "profile_hint_friend": "输入 unfriend {name} 删除好友，block {name} 拉黑。",
    "profile_hint_blocked": "输入 unblock {name} 取消拉黑。",
    "need_arg": "请输入 {cmd} {arg}。",
    "rules_arg": "房间或玩法（如 rules chengdu-1、rules four_deck）",
    "rules_unknown": "{text!r} 不是房间、游戏或玩法：输入 rules 房间（见 rooms）或 rules 玩法（{presets}）。",
    "unknown_lobby": "{text!r} 不是大厅命令：输入 help。",
    "joined": "你坐在牌桌 {table}（{game}，房间 {room}），{seat} 号座。",
    "no_points": "这桌不计分：输赢只记在这张桌上，不动你的积分。",
    "invite": "邀请码：{code} —— 好友输入：join {code}",
    "seats": "座位：{seats}",
    "seat_empty": "（空）",
    "tag_bot": "电脑",
    "tag_away": "离线",
    "tag_ready": "已准备",
    "tag_you": "你",
    "deal_start": "第 {n} 局",
    "deal_start_of": "第 {n}/{total} 局",
    "deals_table": "这桌共打 {total} 局，打完大结算。",
    "bad_deals": "局数是 1 到 64 的数：create 房间 [局数]。",
    "final_head": "大结算：{n} 局打完",
    "final_line": "第 {rank} 名 {name}  {total:+d}  胜 {won}/{deals} 局  末局 {last}{mark}",
    "final_winner": "  ← 赢家",
    "final_no_winner": "不分胜负。",
    "final_best": "单局最高：{name} {score:+d}（第 {n} 局）。",
    "final_closed": "这桌的局数打完了，牌桌关闭。",
    "between_prompt": "回车：准备 · bots 电脑补位 · say 快捷语 · leave 离开 · help",
    "waiting_prompt": "等待玩家 · bots 电脑补位 · say 快捷语 · leave 离开 · help",
    "watch_prompt": "等待 {name} · auto 托管 · say 快捷语 · leave 离开 · help",
    "auto_prompt": "托管中 · 输入 auto 解除托管",
    "taken_prompt": "另一个窗口在控制座位 · 输入 takeover 在这里继续",
    "ready_sent": "已准备：大家都准备好就开始下一局。",
    "is_ready": "{name} 已准备。",
    "table_help": ("牌桌上：按提示出牌 · auto 托管/解除托管 · say 快捷语（只输入 say 列出全部）· seats 座位 · "
                   "bots 电脑补位（开桌的人）· invite 玩家名 邀请好友到这张私人桌 · friends 好友 · "
                   "profile 玩家名 玩家资料 · top [week|month] 本游戏排行榜 · rules 玩法说明（本桌规则）· leave 离开 · "
                   "help 帮助"),
    "not_your_turn": "还没轮到你：等待 {name}（或输入 help）。",
    "not_your_turn_anyone": "还没轮到你：请等一下（或输入 help）。",
    "auto_on": "已托管：服务器替你出牌。输入 auto 解除托管。",
    "auto_off": "已解除托管：你自己出牌。",
    "leave_confirm": "本局还没打完，要离开吗？托管会替你打完（或按规则算逃跑）。输入 yes 离开：",
    "leave_cancel": "继续打。",
    "left": "你离开了牌桌。",
    "leaving_after": "本局结束后你离开牌桌（托管替你打完）。",
    "removed": "你被移出了牌桌（{reason}）。",
    "closed": "牌桌关闭了（{reason}）。",
    "chat": "{name}：{text}",
    "phrases": "快捷语：{list}",
    "bots_asked": "已请电脑补上空位。",
    "you_won": "你赢了 {n} 分。",
    "you_lost": "你输了 {n} 分。",
    "you_even": "你的积分不变。",
    "changes": "{name}：{delta:+d} → {points}（{title}）",
    "deal_over": "本局结束。",
    "deadline": "（{s} 秒）",
    "forced": "要不起：{s} 秒后服务器替你不出（也可以自己输入）。",
    "taken_over": "你在另一个窗口打开了这桌：输入 takeover 拿回座位。",
    "took_over": "座位回到这个窗口了。",
    "session_closed": "登录已结束（{reason}）。",
    "connection_lost": "和服务器的连接断了。",
    "bye": "再见。",
    "in_lobby": "回到大厅。",
    "no_table": "你没有坐在牌桌上：输入 quick 房间、create 房间 或 join 邀请码。",
    "at_table": "你坐在牌桌上：先离开。",
    "notice_storage_unavailable": "服务器暂时无法保存：牌桌暂停。",
    "notice_storage_restored": "服务器恢复正常：继续打。",
    "refused": "不行：{msg}",
    "not_legal_now": "现在不能 {text!r}。",
    "unknown_game_view": "终端客户端还不会玩 {game!r}：请用浏览器。",
    # 观战
    "tables_head": "可以观战的牌桌（输入 watch 牌桌）：",
    "table_line": "  {id:<14} {game:<10} 房间 {room:<14} {status} · {players}{watchers}",
    "status_playing": "对局中",
    "status_waiting": "等待中",
    "watchers": " · {n} 人观战",
    "no_tables": "现在没有可以观战的牌桌。",
    "more_tables": "  …… 还有 {n} 桌：输入 tables 全部列出。",
    "watch_arg": "请输入 watch 牌桌（rooms 和 tables 列出的牌桌号；私人桌：watch 牌桌 邀请码）。",
    "watching": "你在观战牌桌 {table}（{game}，房间 {room}）：看到的和每个观众一样。",
    "spectator_prompt": "观战牌桌 {table} · leave 离开 · help",
    "spectator_cannot": "你只是在观战：不能在这桌出牌（输入 leave 回到大厅）。",
    "spectator_help": ("观战中：出牌随时显示 · seats 座位 · rules 玩法说明 · friends 好友 · profile 玩家名 玩家资料 · "
                       "top [week|month] 排行榜 · "
                       "join [邀请码] 不再观战，坐到好友的桌 · leave 离开（回到大厅）· help 帮助 · quit 退出"),
    "unwatched": "你不再观战这张牌桌。",
    # 断线
    "connection_retry": "和服务器的连接断了：正在重新连接……",
    "reconnect_try": "第 {n} 次重新连接，{s:g} 秒后……",
    "reconnected": "已重新连接。",
    "reconnect_gave_up": "{s:g} 秒内没能重新连上服务器：放弃。",
    "reconnect_refused": "服务器不再接受这次登录（{why}）：请重新登录。",
    "offline": "没有连上服务器（正在重新连接）：请稍后再试。",
    "offline_prompt": "正在重新连接……",
    "seat_gone": "你已经不在那张牌桌上了（你离开的时候牌桌继续了）。",
    "watch_gone": "你观战的牌桌已经不在了。",
    # 好友
    "friends_head": "好友（{n}）：",
    "friend_line": "  {name:<16} {state}",
    "friend_online": "在线",
    "friend_offline": "离线",
    "friend_at_table": "在牌桌 {table}（输入 watch {table} 观战）",
    "friend_at_private": "在私人桌上",
    "friend_at_your_table": "和你在同一桌",
    "friend_self": "不能加自己为好友：请输入别的玩家的名字。",
    "friends_none": "还没有好友：输入 friend 玩家名 加好友。",
    "friends_incoming": "想加你为好友（输入 accept 玩家名 同意，decline 玩家名 拒绝）：",
    "friends_outgoing": "等待对方同意（unfriend 玩家名 撤回）：",
    "friend_item": "  {name}",
    "friends_recent": "最近同桌：",
    "friend_recent_item": "  {name:<16} 输入 friend {name} 加好友",
    "friends_blocked": "已拉黑（对方的好友申请会被拒绝）：",
    "friend_blocked_item": "  {name:<16} 输入 unblock {name} 取消拉黑",
    "friend_blocked": "已拉黑 {name}：对方的好友申请会被拒绝（unblock {name} 取消拉黑）。",
    "friend_blocked_ended": "已拉黑 {name}，{what}：对方的好友申请会被拒绝（unblock {name} 取消拉黑）。",
    "friend_blocked_friend": "你们不再是好友",
    "friend_blocked_incoming": "拒绝了对方的好友申请",
    "friend_blocked_outgoing": "撤回了你的好友申请",
    "friend_blocked_already": "{name} 已经被你拉黑了（unblock {name} 取消拉黑）。",
    "friend_unblocked": "已取消拉黑 {name}：对方又可以加你为好友了。",
    "friend_not_blocked": "你没有拉黑 {name}：输入 friends 看拉黑的玩家。",
    "friend_block_self": "不能拉黑自己。",
    "friend_block_unknown": "没有叫 {name} 的玩家。",
    "friend_block_lifted": "已取消对 {name} 的拉黑。",
    "friends_guest": "游客不能加好友：先保存为正式账号（在浏览器里注册）。",
    "friend_sent": "已向 {name} 发送好友申请：对方同意后就是好友了。",
    "friend_now": "你和 {name} 成为了好友。",
    "friend_already": "你和 {name} 已经是好友了。",
    "friend_declined": "你拒绝了 {name} 的好友申请。",
    "friend_unfriended": "已删除好友 {name}。",
    "friend_withdrawn": "你撤回了给 {name} 的好友申请。",
    "friend_invited": "已邀请 {name} 到你的牌桌：对方输入 join 就能坐下。",
    "friend_no_request": "没有叫 {name} 的人想加你为好友：输入 friends 看看。",
    "friend_no_friend": "{name} 不是你的好友：输入 friends 看好友列表。",
    "friend_nobody": "{name} 既不是你的好友，也没有好友申请：输入 friends 看好友列表。",
    "invite_no_table": "先坐到一张私人桌上（create 房间），再邀请好友。",
    "join_no_invite": "没有收到邀请：请输入 join 邀请码（好友牌桌的邀请码）。",
    "join_invitation": "正在加入 {name} 的牌桌 {table}（join {code}）……",
    "friend_requests_waiting": "{names} 想加你为好友：输入 friends（accept 玩家名 同意，decline 玩家名 拒绝）。",
    "notice_friend_request": "{name} 想加你为好友：输入 accept {name} 同意（或 decline {name} 拒绝）。",
    "notice_friend_accepted": "{name} 和你成为了好友。",
    "notice_friend_unfriended": "{name} 把你从好友中删除了。",
    "notice_friend_declined": "{name} 拒绝了你的好友申请。",
    "notice_friend_withdrew": "{name} 撤回了好友申请。",
    "notice_friend_removed": "{name} 和你不再是好友（或撤回、拒绝了好友申请）。",
    "notice_friend_invite": "好友 {name} 邀请你到牌桌 {table}（{game}，房间 {room}）：输入 join 坐下"
                            "（或 join {code}）。",
    "notice_friend_invite_seated": "好友 {name} 邀请你到牌桌 {table}（{game}，房间 {room}）：先离开这桌，再输入 join"
                                   "（或 join {code}）。",
}


def tr(lang: str, key: str, **kw: Any) -> str:
    """``key`` in ``lang`` filled with ``kw``."""
    return fill((_ZH if lang == "zh" else _EN)[key], kw)
