// Every error code the server may send (qipai.server.protocol.ERROR_CODES), worded in Chinese and English
// from the error's params.  The server's English ``message`` is never shown to a player.  A test fails when a
// code the server can send has no wording here in both languages.

const n = (v) => (v === undefined || v === null ? "" : String(v));

export const ERROR_WORDS = {
  // accounts and sessions
  bad_login: { zh: "用户名或密码不对", en: "Wrong name or password" },
  account_blocked: {
    zh: (p) => (p.user !== undefined ? "对方的账号已被管理员封禁" : "这个账号已被管理员封禁，请联系管理员"),
    en: (p) => (p.user !== undefined ? "That player's account is blocked by the operator"
      : "This account is blocked by the server's operator: contact them"),
  },
  name_taken: { zh: (p) => `用户名“${n(p.name)}”已经有人用了`, en: (p) => `The name “${n(p.name)}” is taken` },
  bad_name: {
    zh: (p) => (p.reason === "staff" ? "这个用户名不能用：名字里不能有“管理员”“官方”“客服”“系统”“admin”等字样，会被当成工作人员"
      : p.reason === "reserved" ? "这个用户名不能用：以“电脑”“游客”“bot”“guest”开头的名字留给电脑和游客"
        : "这个用户名不能用：2–24 个字母、数字、汉字或 _ - .，不能像别人的名字"),
    en: (p) => (p.reason === "staff"
      ? "This name cannot be used: a name may not hold admin, moderator, official, system, 管理员, 官方, 客服 or 系统 (it would pass for the server's staff)"
      : p.reason === "reserved" ? "This name cannot be used: names starting with bot, guest, 电脑 or 游客 are kept for bots and guests"
        : "This name cannot be used: 2–24 letters, digits, Chinese characters or _ - ., not like someone else's"),
  },
  bad_password: {
    zh: (p) => (p.reason === "control" ? "密码不能含控制字符（如制表符、换行）" : "密码要 6 到 128 个字符"),
    en: (p) => (p.reason === "control" ? "A password may not hold control characters (a tab, a line break)"
      : "A password is 6 to 128 characters long"),
  },
  no_password: { zh: "游客账号没有密码可改", en: "A guest account has no password to change" },
  not_a_guest: { zh: "这个账号已经是注册账号了，不用再保存", en: "This account is registered already: nothing to save" },
  login_backoff: {
    zh: (p) => `这个账号登录失败太多次，请 ${n(p.seconds) || "稍"} 秒后再试`,
    en: (p) => `Too many failed log-ins for this account: try again in ${n(p.seconds) || "a few"} s`,
  },
  rate_limited: { zh: "操作太快了，请稍等一下", en: "Too fast: wait a moment" },
  flood: { zh: "消息太多，连接被关闭", en: "Too many messages: the connection was closed" },
  unauthorized: { zh: "请先登录", en: "Please log in first" },
  too_many_connections: {
    zh: "这个账号（或这个网络）打开的窗口太多了：关掉几个再试",
    en: "Too many windows are open for this account (or this network): close some and try again",
  },
  already_authenticated: { zh: "这个连接已经登录了", en: "This connection is logged in already" },
  guest_account: {
    zh: (p) => p.name ? `${p.name} 是游客，不能加好友` : "游客不能加好友：先保存为正式账号",
    en: (p) => p.name ? `${p.name} plays as a guest and cannot keep friends` : "Guests cannot keep friends: save the account first",
  },
  not_friends: { zh: "你们还不是好友", en: "You are not friends" },
  friend_offline: {
    zh: (p) => `对方不在线，邀请送不到：把邀请码 ${p.invite_code} 发给他`,
    en: (p) => `Your friend is offline and would not get the invitation: send him the invite code ${p.invite_code}`,
  },
  blocked: {
    zh: (p) => p.name ? `${p.name} 不接受你的好友申请` : "对方不接受你的好友申请",
    en: (p) => p.name ? `${p.name} takes no friend requests from you` : "This player takes no friend requests from you",
  },
  not_blocked: { zh: "你没有拉黑这个玩家", en: "You have not blocked this player" },
  no_request: { zh: "对方没有加你为好友", en: "This player has not asked to be your friend" },
  too_many_friends: { zh: "好友（和申请）已达上限", en: "You have as many friends and requests as you may" },
  no_invite_code: {
    zh: "只能邀请好友到开房的桌子：先开一个房间",
    en: "Friends are invited to a private table: create one first",
  },
  unknown_user: {
    zh: (p) => typeof p.name === "string" ? `没有叫 ${p.name} 的玩家` : "没有这个玩家",
    en: (p) => typeof p.name === "string" ? `No player is called ${p.name}` : "No such player",
  },
  no_profile: {
    zh: (p) => (p.reason === "bot" ? `${n(p.name)} 是电脑，没有玩家资料` : `${n(p.name)} 是游客，没有玩家资料：游客保存为正式账号后才有`),
    en: (p) => (p.reason === "bot" ? `${n(p.name)} is a bot and has no player profile`
      : `${n(p.name)} plays as a guest and has no player profile until the account is saved`),
  },
  server_busy: { zh: "服务器忙，请再试一次", en: "The server is busy: try again" },
  server_error: { zh: "服务器处理这条消息时出错，什么也没改变", en: "The server failed on this message; nothing changed" },
  taken_over: {
    zh: "你在另一个窗口打开了这桌，这个窗口不再控制座位",
    en: "Another window of yours controls your seat now",
  },

  // lobby and tables
  unknown_room: { zh: "没有这个房间", en: "No such room" },
  unknown_table: { zh: "这张牌桌已经不在了", en: "That table is gone" },
  unknown_invite: {
    zh: (p) => `没有牌桌用邀请码 ${n(p.invite)}，请检查一下`,
    en: (p) => `No open table has the invite code ${n(p.invite)}: check it`,
  },
  unknown_game: { zh: "没有这个游戏", en: "No such game" },
  unknown_preset: {
    zh: (p) => `这个游戏没有 ${n(p.preset)} 这种玩法`,
    en: (p) => `This game has no variant ${n(p.preset)}`,
  },
  not_enough_points: {
    zh: (p) => `积分不够：这里至少要 ${n(p.need)} 分` + (p.have !== undefined ? `，你有 ${n(p.have)} 分` : ""),
    en: (p) => `Not enough points: you need at least ${n(p.need)}` + (p.have !== undefined ? `, you have ${n(p.have)}` : ""),
  },
  already_seated: {
    zh: "你已经坐在另一张牌桌上，先离开那张桌",
    en: "You already sit at another table: leave it first",
  },
  leaving_table: {
    zh: "你在这一局中离开了牌桌：本局结束后座位才空出来，之后再坐下",
    en: "You left the table during this deal: your seat is freed when the deal ends; sit down again after that",
  },
  seated_here: { zh: "你就坐在这张桌上", en: "You sit at this table already" },
  table_full: { zh: "这张桌子坐满了", en: "This table has no free seat" },
  table_closed: { zh: "这张牌桌已经关了", en: "This table is closed" },
  private_table: { zh: "这是私人桌：要有邀请码或邀请链接才能看", en: "A private table: watching needs its invite code or link" },
  deal_running: {
    zh: "这桌正在打牌：等这一局结束再坐下，或者先观战",
    en: "A deal is running at this table: sit down between deals, or watch",
  },
  not_seated: { zh: "你没有坐在这张桌上", en: "You have no seat at this table" },
  left_match: { zh: "你已离开本场比赛，座位由托管打完", en: "You left this match: your seat plays on in auto-play" },
  not_at_table: { zh: "你不在这张桌上，也没有在观战", en: "You neither sit at nor watch this table" },
  not_allowed: { zh: "只有开桌的人可以这样做", en: "Only the table's creator may do that" },
  bad_options: { zh: "这些规则选项不能用", en: "These rule options do not work" },
  points_option: {
    zh: "为积分而打的桌子不能改变算分的规则；要改，请开一张不计积分的桌子",
    en: "A table that plays for points keeps the room's scoring rules; create one for no points to change them",
  },
  no_relief: {
    zh: (p) => `救济只给积分不够进任何房间的玩家，每天一次` + (p.amount ? `（每次 ${n(p.amount)} 分）` : ""),
    en: (p) => `Relief is for players below every room's minimum, once a day` + (p.amount ? ` (${n(p.amount)} points)` : ""),
  },

  // playing
  no_deal: { zh: "这桌现在没有牌局", en: "No deal is running at this table" },
  not_your_turn: { zh: "还没轮到你", en: "It is not your turn" },
  illegal_action: { zh: "这一步不符合规则", en: "That move is against the rules" },
  bad_action: { zh: "这不是出牌动作：请用托管或离开按钮", en: "Not a move: use the auto-play or leave button" },
  stale: { zh: "牌桌已经变了，正在刷新", en: "The table moved on: refreshing" },
  no_change: { zh: "已经是这样了", en: "Already so" },
  autoplay_limit: {
    zh: (p) => `这一局托管开关次数太多（${n(p.limit)} 次），下一局才能再开`,
    en: (p) => `Auto-play was turned on too often this deal (${n(p.limit)} times): again next deal`,
  },
  storage_unavailable: {
    zh: "服务器暂时无法保存，什么也没改变，请稍后再试",
    en: "The server cannot save right now; nothing changed — try again in a moment",
  },
  storage_restored: { zh: "服务器恢复正常", en: "The server is back" },
  settlement_failed: {
    zh: "这一局的结果无法记录：没有人得失积分，牌桌关闭",
    en: "This deal's result could not be recorded: nobody was paid and the table closes",
  },
  table_elsewhere: { zh: "这桌在另一台服务器上，正在转过去", en: "This table runs on another server: switching there" },
  table_moved: { zh: "这桌转到另一台服务器了，正在重新连接", en: "This table moved to another server: reconnecting" },
  node_draining: { zh: "这台服务器正在交接牌桌，请稍后再试", en: "This server is handing its tables over: try again shortly" },
  no_cluster: { zh: "服务器只有一台，没有别的可以交接", en: "The server runs alone: no other node to hand over to" },
  unknown_match: { zh: "没有这场比赛", en: "No such match" },
  match_closed: { zh: "这场比赛已截止报名（或现在不能这样做）", en: "Registration for this match has closed" },
  match_full: { zh: "这场比赛人数已满", en: "This match is full" },
  already_registered: { zh: "你已经报名了这场比赛", en: "You are registered in this match already" },
  not_registered: { zh: "你没有报名这场比赛", en: "You are not an entrant of this match" },
  match_entry: { zh: "这场比赛不接受这次报名", en: "The match refuses this registration" },
  in_match: { zh: "你正在比赛中，比赛会安排你的牌桌", en: "You are playing in a match: it seats you at its tables" },
  chat_rate_limited: { zh: "说得太快了，歇一会儿", en: "You are chatting too fast: wait a moment" },
  unknown_phrase: { zh: "没有这句快捷语", en: "No such phrase" },
  not_ready_time: { zh: "现在不是准备的时候", en: "This is not the time to get ready" },

  // records
  unknown_deal: { zh: "没有这一局", en: "No such deal" },
  no_review: { zh: "这个游戏的牌局还不能复盘", en: "Deals of this game have no review yet" },
  not_your_deal: { zh: "只能看自己打过的牌局", en: "You can read the records of your own deals only" },
  deal_aborted: { zh: "这一局中途作废，没有结算", en: "This deal was abandoned unfinished and was not settled" },
  deal_failed: { zh: "这一局的结果没能记录，没有人得失积分", en: "This deal's result could not be recorded; nobody was paid" },

  // the request itself
  bad_request: { zh: "请求不对", en: "Bad request" },
  bad_json: { zh: "请求的数据格式不对", en: "The request is not valid JSON" },
  not_json: { zh: "请求必须是 JSON", en: "The request must be JSON" },
  bad_origin: { zh: "请求来自别的网站，已拒绝", en: "The request comes from another site: refused" },
  bad_field: { zh: (p) => `字段 ${n(p.field)} 的值不对`, en: (p) => `Field ${n(p.field)} has a wrong value` },
  missing_field: { zh: (p) => `缺少字段 ${n(p.field)}`, en: (p) => `Missing field ${n(p.field)}` },
  bad_param: { zh: (p) => `参数 ${n(p.param)} 不对`, en: (p) => `Parameter ${n(p.param)} is wrong` },
  too_large: { zh: "内容太长了", en: "Too large" },
  not_found: { zh: "没有这个接口", en: "No such endpoint" },
  bad_message: { zh: "消息格式不对", en: "Malformed message" },
  unknown_type: { zh: "服务器不认识这种消息", en: "The server does not know this message" },
  bad_version: { zh: "协议版本不对，请刷新页面", en: "Protocol version mismatch: reload the page" },

  // the client's own
  network: { zh: "连不上服务器，请检查网络", en: "Cannot reach the server: check the network" },
};
