"""The real-time protocol (docs/protocol.md): pydantic models of every message.

Client messages are validated here on arrival; server messages are built as plain dicts for speed, and their
models below document them (the tests validate every message a client receives against them).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from qipai.host.series import DEALS_MAX, DEALS_MIN

PROTOCOL_VERSION = 1

TableId = Annotated[str, Field(min_length=1, max_length=16)]
Ref = Annotated[str, Field(max_length=64)] | Annotated[int, Field(ge=-(2**53), le=2**53)]


# ------------------------------------------------------------------------------------- client → server
class ClientBase(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    id: Ref | None = None
    """Chosen by the client; echoed as ``ref`` in the reply or error about this message."""
    v: Literal[1] = 1
    """Protocol version; optional, must be 1 when given."""


class Ping(ClientBase):
    type: Literal["ping"]


class Auth(ClientBase):
    """The first message of a client that sends neither the session cookie nor an ``Authorization`` header."""

    type: Literal["auth"]
    token: Annotated[str, Field(max_length=200)]


class TakeOver(ClientBase):
    """Take control of one's seat back from another window (see the ``taken_over`` message)."""

    type: Literal["take_over"]


class QuickMatch(ClientBase):
    type: Literal["quick_match"]
    room: Annotated[str, Field(max_length=64)]


class CreateTable(ClientBase):
    type: Literal["create_table"]
    room: Annotated[str, Field(max_length=64)]
    options: Annotated[dict[str, Any], Field(max_length=64)] = Field(default_factory=dict)
    for_points: bool = True
    """``false``: the table plays for no points, and may then choose the options that move points."""
    fill_bots_after: Annotated[float, Field(ge=0, le=3600)] | None = None
    autoplay_bot: Annotated[str, Field(max_length=32)] | None = None
    seat_bot: Annotated[str, Field(max_length=32)] | None = None
    """The bot (a level such as ``easy``/``hard``, see ``/api/games``) that fills the empty seats."""
    deals: Annotated[int, Field(ge=DEALS_MIN, le=DEALS_MAX)] | None = None
    """好友房局数: the number of deals the table plays before it closes with a final summary; ``None``: until its
    players leave."""


class Join(ClientBase):
    type: Literal["join"]
    invite: Annotated[str, Field(min_length=1, max_length=16)]


class Spectate(ClientBase):
    type: Literal["spectate"]
    table: TableId
    invite: Annotated[str, Field(max_length=16)] | None = None


class Unspectate(ClientBase):
    type: Literal["unspectate"]
    table: TableId


class Leave(ClientBase):
    type: Literal["leave"]
    table: TableId


class Action(ClientBase):
    type: Literal["action"]
    table: TableId
    deal: int
    version: Annotated[int, Field(ge=0)]
    action: Annotated[str, Field(min_length=1, max_length=400)]
    decision: Annotated[int, Field(ge=0)] | None = None
    """The state message's ``decision``: in a joint decision (a claim window) the action stays valid while
    other seats answer, as long as this seat's decision is the same."""


class Check(ClientBase):
    """Would this action be accepted now?  Answered with ``checked`` (nothing changes)."""

    type: Literal["check"]
    table: TableId
    action: Annotated[str, Field(min_length=1, max_length=400)]


class Autoplay(ClientBase):
    type: Literal["autoplay"]
    table: TableId
    on: bool


class Ready(ClientBase):
    """准备: ready for the next deal."""

    type: Literal["ready"]
    table: TableId


class Chat(ClientBase):
    """A quick-chat phrase or emote (one of :data:`PHRASES`)."""

    type: Literal["chat"]
    table: TableId
    phrase: Annotated[str, Field(max_length=40)]


class Prefs(ClientBase):
    """Table preferences for this connection's user: ``auto_pass`` (要不起 passes by itself; default on)."""

    type: Literal["prefs"]
    auto_pass: bool | None = None


class Snapshot(ClientBase):
    type: Literal["snapshot"]
    table: TableId


class MatchWatch(ClientBase):
    """Follow a match: its standings now (``match_standings``) and every change pushed after."""

    type: Literal["match_watch"]
    match: Annotated[str, Field(min_length=1, max_length=32)]


class MatchUnwatch(ClientBase):
    type: Literal["match_unwatch"]
    match: Annotated[str, Field(min_length=1, max_length=32)]


class FillBots(ClientBase):
    type: Literal["fill_bots"]
    table: TableId


ClientMessage = Annotated[
    Ping | Auth | TakeOver | QuickMatch | CreateTable | Join | Spectate | Unspectate | Leave | Action | Check
    | Autoplay | Snapshot | FillBots | Ready | Chat | Prefs | MatchWatch | MatchUnwatch,
    Field(discriminator="type"),
]
CLIENT_TYPES = frozenset(
    {
        "ping",
        "ready",
        "chat",
        "prefs",
        "auth",
        "take_over",
        "check",
        "quick_match",
        "create_table",
        "join",
        "spectate",
        "unspectate",
        "leave",
        "action",
        "autoplay",
        "snapshot",
        "fill_bots",
        "match_watch",
        "match_unwatch",
    }
)
client_adapter: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


class ProtocolError(Exception):
    """A message refused before it reached a table; ``code`` is the error's machine-readable name."""

    def __init__(self, code: str, message: str, ref: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


def ref_of(x: Any) -> Ref | None:
    """A message's ``id`` as it may be echoed in ``ref``: an id the message is refused for (too long, a number
    out of range, ``true``) is not echoed."""
    if isinstance(x, str) and len(x) <= 64:
        return x
    if type(x) is int and -(2**53) <= x <= 2**53:
        return x
    return None


def parse_client(raw: Any) -> ClientMessage:
    """Validate one decoded JSON value as a client message, or raise :class:`ProtocolError`."""
    if not isinstance(raw, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    ref = ref_of(raw.get("id"))
    kind = raw.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message needs a 'type' (text)", ref)
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "unknown_type", f"unknown message type {kind[:40]!r}: expected one of {', '.join(sorted(CLIENT_TYPES))}",
            ref,
        )
    if "v" in raw and (raw["v"] != PROTOCOL_VERSION or type(raw["v"]) is not int):  # (true and 1.0 equal 1)
        raise ProtocolError("bad_version", f"protocol version {raw['v']!r} is not spoken here (this server: 1)", ref)
    try:
        return client_adapter.validate_python(raw)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(p) for p in err["loc"][1:]) or "message"
        raise ProtocolError("bad_message", f"{kind}: {where}: {err['msg']}", ref) from None


# ------------------------------------------------------------------------------------- error codes
ERROR_CODES: dict[str, str] = {
    # requests and messages
    "bad_json": "the body or message is not JSON we accept (invalid, too deep, unpaired surrogates)",
    "bad_message": "a message of a known type with a missing or wrong field (params: none)",
    "bad_version": "a protocol version this server does not speak",
    "unknown_type": "an unknown message type",
    "bad_request": "a request the server cannot read",
    "missing_field": "a required field is missing (params: field)",
    "bad_field": "a field has the wrong type or value (params: field, type)",
    "bad_param": "a query parameter is not a number in range (params: param, min, max)",
    "too_large": "a body or message over the size limit (params: limit)",
    "not_json": "a state-changing request that is not Content-Type: application/json",
    "bad_origin": "a state-changing request from another site (CSRF protection)",
    "not_found": "no such API endpoint",
    "rate_limited": "too many requests or messages: slow down",
    "flood": "so many refused messages that the connection closes",
    "server_error": "the server failed on this message; nothing was changed",
    "server_busy": "the server could not do it now; try again",
    # accounts
    "unauthorized": "not logged in (or the session ended)",
    "too_many_connections": "the account or the client address has as many WebSockets open as it may",
    # friends (好友)
    "guest_account": "a guest cannot keep friends, nor be asked (save the guest as an account first)",
    "not_friends": "there is no friendship or request between you and this user (params: user)",
    "no_request": "this user has not asked you to be friends (params: user)",
    "too_many_friends": "at most this many friends and requests sent (params: max)",
    "no_invite_code": "friends are invited to a private table (开房); this one has no invite code",
    "friend_offline": "the friend is not online, so an invitation would reach nobody: give him the table's invite "
                      "code (params: user, invite_code)",
    "blocked": "this player takes no friend requests from you (params: name)",
    "not_blocked": "you have not blocked this user (params: user)",
    "already_authenticated": "an auth message with another session on a connection that is logged in already",
    "bad_name": "a name that may not be used (params: reason — length, characters, invisible, mixed_scripts, "
    "reserved (a bot's or guest's prefix), staff (admin, 官方, 客服, 系统…))",
    "bad_password": "a password that may not be used (6 to 128 characters)",
    "name_taken": "the name (or one that looks the same) is taken (params: name)",
    "bad_login": "wrong name or password",
    "account_blocked": "the server's operator blocked this account (or, params: user, a team partner's): it may "
    "not log in, sit down or register for a match",
    "login_backoff": "too many failed log-ins for this account from this address: wait (params: seconds)",
    "no_password": "a guest account has no password to change",
    "not_a_guest": "only a guest account can be saved as a registered one (POST /api/account)",
    "unknown_user": "no such user (params: user, or name for a name that matches no account)",
    "no_profile": "a guest or a bot has no player profile (params: name, reason: guest or bot)",
    "unknown_game": "no such game (params: game)",
    "unknown_preset": "the game has no such preset (params: game, preset, presets)",
    "no_relief": "relief (救济) is not due (params: amount)",
    "taken_over": "another window of this account controls the seat",
    # lobby and tables
    "unknown_room": "no such room (params: room)",
    "unknown_table": "no such open table (params: table)",
    "unknown_invite": "no open table has this invite code (params: invite)",
    "private_table": "a private table: watching needs its invite code",
    "not_enough_points": "not enough points to sit in this room (params: need, have)",
    "already_seated": "already sitting at another table (params: table)",
    "leaving_table": "you left this table (params: table) during its deal: the seat is freed when the deal ends",
    "table_full": "no free seat",
    "table_closed": "the table is closed",
    "deal_running": "a deal is running (join between deals, or watch)",
    "not_seated": "no seat at this table",
    "left_match": "you left this match: your seat plays in auto-play to its end",
    "not_at_table": "neither sitting at nor watching this table",
    "seated_here": "sitting at this table already (no need to watch it)",
    "not_allowed": "only the table's creator may do this",
    "bad_options": "rule options that do not work (params: option, reason)",
    "points_option": "an option that moves points, at a table that plays for points (params: options)",
    "no_deal": "no deal is running",
    "stale": "the action answers an older state: ask for a snapshot (params: deal, version)",
    "not_your_turn": "the seat has no decision open (params: seat)",
    "bad_action": "a host event sent as an action (params: verb)",
    "illegal_action": "the rules refuse this action (params: rule — not_your_turn, lead_may_not_pass, must_bid, "
    "bid_too_low, not_held, not_a_combination, does_not_beat, ambiguous, deal_over, or illegal — and reason, in "
    "English)",
    "no_change": "auto-play is already as asked (params: on)",
    "autoplay_limit": "auto-play was turned on too often in this deal (params: limit)",
    "unknown_phrase": "not one of the quick-chat phrases (params: phrase)",
    "chat_rate_limited": "quick chat too fast: wait a moment",
    "storage_unavailable": "the server cannot save moves now (the database is away): nothing was changed",
    "table_elsewhere": "another node runs this table: connect to it (params: table, node, url)",
    "table_moved": "this node no longer runs the table (another took it over): reconnect (params: table)",
    "node_draining": "this node is handing its tables over to others: try again",
    "no_cluster": "the server runs alone: there is no other node",
    # matches (比赛)
    "unknown_match": "no such match (params: match)",
    "match_closed": "registration for the match has closed, or the match cannot do this now (params: match)",
    "match_full": "the match has all its entrants (params: match)",
    "already_registered": "already an entrant of this match (params: match)",
    "not_registered": "not an entrant of this match (params: match)",
    "match_entry": "the match refuses this registration (params: reason)",
    "in_match": "playing in a started match: only its tables seat you (params: match)",
    "settlement_failed": "the deal's result could not be recorded: nobody was paid and the table closes",
    # history
    "unknown_deal": "no such deal (params: deal)",
    "not_your_deal": "only the players of a deal may read its record",
    "deal_aborted": "the deal was abandoned unfinished and not settled",
    "deal_failed": "the deal's result could not be recorded",
    "no_review": "this game's deals have no review (params: game)",
}
"""Every error code the server sends (WebSocket ``error`` messages and HTTP ``{"error": {...}}`` bodies), with
what it means.  Codes are stable; clients word them in the player's language from ``params``."""

NOTICE_CODES = ("storage_unavailable", "storage_restored")
"""Codes of ``notice`` messages."""

CLOSE_REASONS = ("empty", "abandoned", "server_error", "settlement_failed", "closed", "match_table_done", "finished")
"""Reasons of ``closed`` (a table closed)."""


# ------------------------------------------------------------------------------------- server → client
class ServerBase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    v: Literal[1]
    seq: int
    """1, 2, 3, … on each connection: a gap means messages were lost (ask for a ``snapshot``)."""


class SeatView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int
    name: str
    user_id: int | None
    bot: str | None
    connected: bool
    leaving: bool
    points: int
    """The player's platform points in the table's game (what a table for points moves)."""
    title: str
    match_points: int | None = None
    """A match table: the seat's match points (比赛积分) in that match — before the deal in play, after the last
    one settled; ``None`` elsewhere (and until the match director gives them)."""


class TableView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    game: str
    room: str | None
    options: dict[str, Any]
    private: bool
    created_by: int | None = None
    """The user who opened the table (开房; ``None`` for a match table): only he calls in bots (``fill_bots``)."""
    for_points: bool
    invite_code: str | None
    min_points: int
    players: int
    seats: list[SeatView | None]
    status: Literal["waiting", "playing", "closed"]
    paused: bool
    """True while the server cannot save moves (the database is away): nothing moves until it is back."""
    ready: list[bool | None] | None
    """准备 between deals: each seat's ready state (``None`` for an empty seat; the list is ``None`` when no
    ready step is pending)."""
    ready_deadline_ms: int | None
    deal_index: int
    deals_total: int | None = None
    """A private table played for a set number of deals (好友房局数): that number (it closes with a final summary
    once ``deal_index`` reaches it; 第 ``deal_index + 1``/``deals_total`` 局 while a deal runs); ``None``:
    open-ended."""
    match: dict[str, Any]
    """The game's match state between deals (Dou Dizhu: who bids first next)."""
    match_id: str | None = None
    """A match table: the match it plays for (its seats carry ``match_points``); ``None`` at other tables."""
    you: int | None
    results: list[dict[str, Any]]


class StateView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    table: str
    deal: int
    version: int
    phase: str
    to_act: int | None
    """The one seat to act when that is public (``None`` in a joint decision or once over)."""
    acting: list[int]
    """The acting seats everybody may know about."""
    you: int | None
    your_turn: bool
    """Whether the viewer has a decision open (also in a joint decision nobody else knows of)."""
    decision: int | None
    """The viewer's open decision (send it back with the action)."""
    deadline_ms: int | None
    autoplay: list[bool]
    legal: list[str] | None
    hints: list[str] | None = None
    """提示: the viewer's good choices, best first (games that offer them)."""
    forced: str | None = None
    """要不起: the move the server will make for the viewer by itself in ``forced_in_ms``."""
    forced_in_ms: int | None = None
    observation: dict[str, Any]


class Welcome(ServerBase):
    type: Literal["welcome"]
    protocol: int
    user: dict[str, Any]
    table: str | None
    node: str | None = None
    """The node answering (several nodes)."""
    url: str | None = None
    """When another node runs your table: its address — reconnect there to play."""


class Pong(ServerBase):
    type: Literal["pong"]
    ref: Any = None


class Error(ServerBase):
    type: Literal["error"]
    code: str
    """Stable machine-readable name; clients word it in their language (docs/protocol.md lists every code)."""
    message: str
    """An English explanation (for logs and non-browser clients)."""
    params: dict[str, Any] = {}
    """The values the wording needs (a seat, a number of points, an option name)."""
    ref: Any = None


class Notice(ServerBase):
    """Something about a table that is not an answer: ``storage_unavailable`` (the table pauses),
    ``storage_restored``."""

    type: Literal["notice"]
    table: str
    code: str
    params: dict[str, Any] = {}


class TakenOver(ServerBase):
    """Another window of the same account opened: it controls the seat now (send ``take_over`` to take it
    back)."""

    type: Literal["taken_over"]
    reason: str


class TookOver(ServerBase):
    type: Literal["took_over"]
    ref: Any = None


class ClosedSession(ServerBase):
    """The session ended (logged out, password changed, token expired or dropped, account blocked): the socket
    closes next."""

    type: Literal["closed_session"]
    reason: str


class AccountChanged(ServerBase):
    """The account was changed from another window (a guest saved as a registered account): its name and kind
    now; read ``GET /api/me`` for the rest."""

    type: Literal["account"]
    user: dict[str, Any]


class ChatMsg(ServerBase):
    type: Literal["chat"]
    table: str
    seat: int
    phrase: str


class Checked(ServerBase):
    type: Literal["checked"]
    action: str
    legal: bool
    reason: str | None
    ref: Any = None


class Joined(ServerBase):
    type: Literal["joined"]
    table: str
    seat: int
    invite_code: str | None
    node: str | None = None
    url: str | None = None
    """A seat at a table of another node: reconnect to this address (a snapshot comes from there)."""
    ref: Any = None


class Moved(ServerBase):
    """This node stopped running the table (another took it over, or it is being handed over): reconnect —
    any node's ``welcome`` says where the table runs now."""

    type: Literal["moved"]
    table: str
    node: str | None
    url: str | None


class Left(ServerBase):
    type: Literal["left"]
    table: str
    reason: str
    ref: Any = None


class SnapshotMsg(ServerBase):
    type: Literal["snapshot"]
    table: TableView
    state: StateView | None
    last_result: dict[str, Any] | None
    ref: Any = None


class TableMsg(ServerBase):
    type: Literal["table"]
    table: TableView


class StateMsg(StateView, ServerBase):
    type: Literal["state"]


class DealOver(ServerBase):
    type: Literal["deal_over"]
    table: str
    deal: int
    outcome: dict[str, Any]
    changes: list[dict[str, Any]]
    match: dict[str, Any]
    match_over: bool


class SummaryRow(BaseModel):
    """One player's line of a final summary: a seat and the name that held it over the table's deals."""

    model_config = ConfigDict(extra="forbid")

    seat: int
    name: str
    user_id: int | None
    """The player's account (``None``: a bot)."""
    total: int
    """The sum of the player's scores over the deals (the table's own scores, as the history dialog sums them)."""
    deals: int
    won: int
    """Deals with a positive score."""
    best: int | None
    last: int | None
    """The score in the last deal (``None``: not seated then)."""
    rank: int
    """1, 2, …; equal totals share a rank."""
    winner: bool
    """First place, unless every total is the same."""


class BestDeal(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int
    name: str
    score: int
    deal_index: int


class FinalSummary(BaseModel):
    """大结算: a table played for a set number of deals, at its end (``closed`` with reason ``finished``, and
    ``GET /api/tables/{id}/summary``)."""

    model_config = ConfigDict(extra="forbid")

    deals_total: int | None
    deals_played: int
    players: list[SummaryRow]
    """Ranked: the highest total first."""
    winners: list[int]
    """The winners' seats (none when every total is the same)."""
    best_deal: BestDeal | None
    """The best score anybody made in one deal (``None`` when nobody scored above 0)."""


class Closed(ServerBase):
    type: Literal["closed"]
    table: str
    reason: str
    match: str | None = None
    """A match table: its match (the client shows the match card meanwhile)."""
    summary: FinalSummary | None = None
    """Reason ``finished`` (a table played for a set number of deals settled its last): the final summary."""


class MatchEventMsg(ServerBase):
    """Something happened in a match one plays in or watches: ``event`` is the tournament core's event
    (``type`` ``registered``, ``match_started``, ``round_started``, ``table_formed``, ``eliminated``,
    ``round_over``, ``match_over``, ``match_cancelled``, …; docs/matches.md)."""

    type: Literal["match_event"]
    match: str
    event: dict[str, Any]


class MatchStandingsMsg(ServerBase):
    """A match's live standings (pushed when they move, and in answer to ``match_watch``)."""

    type: Literal["match_standings"]
    match: str
    phase: str
    stage: int | None
    round: int | None
    standings: list[dict[str, Any]]
    next_at: int | None
    next_kind: str | None = None
    """What starts at ``next_at``: ``round`` or ``stage``."""
    prizes: list[int] | None
    stage_info: dict[str, Any] | None = None
    """The running stage (format, rounds; 打立出局: level, base, elimination line, entrants left, ``advance``)."""
    ref: Any = None


class FriendMsg(ServerBase):
    """好友: ``event`` ``request`` (``user`` asks you to be friends), ``accepted`` (``user`` is your friend now),
    ``removed`` (``user`` unfriended you, declined or withdrew a request) or ``invite`` (your friend ``user``
    invites you to the private table ``table`` of ``room``/``game``: join it with ``invite_code``)."""

    type: Literal["friend"]
    event: Literal["request", "accepted", "removed", "invite"]
    user: dict[str, Any]
    table: str | None = None
    room: str | None = None
    game: str | None = None
    invite_code: str | None = None


ServerMessage = Annotated[
    Welcome | Pong | Error | Joined | Left | SnapshotMsg | TableMsg | StateMsg | DealOver | Closed | Notice | TakenOver
    | TookOver | ClosedSession | AccountChanged | Checked | ChatMsg | Moved | MatchEventMsg | MatchStandingsMsg
    | FriendMsg,
    Field(discriminator="type"),
]
server_adapter: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
