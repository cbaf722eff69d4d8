"""The JSON API under ``/api/``: accounts, profiles, leaderboards, history, records, games, rooms and tables.

Every refusal is ``{"error": {"code", "message", "params"}}`` with a 4xx status: ``code`` is stable and the
browser words it in the player's language from ``params``; ``message`` is English for everybody else.
"""

from __future__ import annotations

import contextlib
import gzip
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from qipai.core.explain import is_lang, sections_json
from qipai.core.game import SplitObservation, apply_step, explain_rules
from qipai.core.options import OptionError
from qipai.core.registry import game_names
from qipai.host.cluster import CLUSTER_UNREACHABLE
from qipai.host.director import MatchRun, run_from_row
from qipai.host.limits import RateLimiter
from qipai.host.lobby import Lobby, RemoteSeat
from qipai.host.periods import PERIODS, period_bounds, zone
from qipai.host.series import DEALS_MAX, DEALS_MIN, final_summary
from qipai.host.table import Table, TableError
from qipai.server import auth
from qipai.server.auth import AuthError
from qipai.server.jsonin import BadJson, loads_limited
from qipai.store import NameTaken, NotAGuest, PeriodStanding, Standing, TooManyFriends, UserInfo
from qipai.store.names import name_key
from qipai.tournaments import definition_data

log = logging.getLogger("qipai.server.api")

Handler = Callable[[Request], Awaitable[Response]]
MAX_BODY = 16384


class ApiError(Exception):
    def __init__(self, code: str, message: str, status: int = 400, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.params = params


TABLE_ERROR_STATUS = {
    "unknown_room": 404,
    "unknown_table": 404,
    "unknown_invite": 404,
    "not_enough_points": 403,
    "not_allowed": 403,
    "account_blocked": 403,
    "private_table": 403,
    "already_seated": 409,
    "leaving_table": 409,
    "table_full": 409,
    "deal_running": 409,
    "not_seated": 409,
    "no_deal": 409,
    "storage_unavailable": 503,
    "server_busy": 503,
    "table_elsewhere": 421,
    "node_draining": 503,
    "unknown_match": 404,
    "unknown_user": 404,
    "match_closed": 409,
    "match_full": 409,
    "already_registered": 409,
    "not_registered": 409,
    "match_entry": 409,
    "in_match": 409,
    "rate_limited": 429,
}


def error(code: str, message: str, status: int, params: dict[str, Any] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, "params": params or {}}}, status_code=status)


def endpoint(fn: Handler) -> Handler:
    async def wrapped(request: Request) -> Response:
        try:
            return await fn(request)
        except ApiError as e:
            return error(e.code, e.message, e.status, e.params)
        except AuthError as e:
            return error(e.code, e.message, e.status, dict(e.params))
        except TableError as e:
            if e.code == "unknown_table" and isinstance(e.params.get("table"), str):
                e = await lobby_of(request).elsewhere(e.params["table"]) or e
            return error(e.code, e.message, TABLE_ERROR_STATUS.get(e.code, 400), e.params)
        except CLUSTER_UNREACHABLE as e:
            log.warning("%s %s: the cluster cannot be reached: %s", request.method, request.url.path, e)
            return error("server_busy", "the server cannot reach the other servers now; try again in a moment",
                         503)

    wrapped.__name__ = fn.__name__
    wrapped.__doc__ = fn.__doc__
    return wrapped


def lobby_of(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


async def read_limited(request: Request, limit: int) -> bytes | None:
    """The request's body, or ``None`` once it runs past ``limit`` bytes: read no further then (reading it all
    first and measuring after let one request with a huge body, announced or chunked, fill the memory)."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


async def body(request: Request) -> dict[str, Any]:
    raw = await read_limited(request, MAX_BODY)
    if raw is None:
        raise ApiError("too_large", "request body too large", 413, limit=MAX_BODY)
    if not raw:
        return {}
    try:
        data = loads_limited(raw)
    except BadJson as e:
        raise ApiError("bad_json", f"the body is not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise ApiError("bad_json", "the body must be a JSON object")
    return data


def field(data: dict[str, Any], name: str, kind: type, *, required: bool = True) -> Any:
    v = data.get(name)
    if v is None:
        if required:
            raise ApiError("missing_field", f"missing field {name!r}", field=name)
        return None
    if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
        raise ApiError("bad_field", f"field {name!r} must be {kind.__name__}", field=name, type=kind.__name__)
    return v


def only_fields(data: dict[str, Any], *names: str) -> None:
    """Refuse a body with a field the endpoint does not take (a misspelt ``for_point`` must not pass for
    the default silently)."""
    extra = sorted(set(data) - set(names))
    if extra:
        raise ApiError("bad_field", f"unknown field {extra[0][:40]!r}: " + (f"expected {', '.join(names)}" if names
                       else "this request takes none"), field=extra[0][:40], expected=list(names))


def _token(request: Request) -> str | None:
    return auth.token_from(request.headers, request.cookies)


async def current_user(request: Request, *, required: bool = True) -> UserInfo | None:
    token = _token(request)
    user = await lobby_of(request).store.user_for_token(auth.token_hash(token)) if token else None
    if user is not None and user.blocked:  # its sessions were dropped as it was blocked: one that slipped through
        if required:
            raise blocked_error()
        return None
    if user is None and required:
        raise ApiError("unauthorized", "log in first (session cookie or Authorization: Bearer <token>)", 401)
    return user


def blocked_error(user_id: int | None = None) -> ApiError:
    """``403 account_blocked``: the operator blocked the account (``qipai users block``); ``user_id``: another
    player's account (a team partner)."""
    if user_id is not None:
        return ApiError("account_blocked", f"the account of user {user_id} is blocked", 403, user=user_id)
    return ApiError("account_blocked", "this account is blocked by the server's operator", 403)


async def need_user(request: Request) -> UserInfo:
    user = await current_user(request)
    assert user is not None
    return user


def client_address(request: Request) -> str:
    """The client's address as uvicorn saw it (``X-Forwarded-For`` counts only from configured proxies), as the
    limits count it (an IPv6 address's /64: :func:`auth.address_key`)."""
    return auth.address_key(request.client.host) if request.client else "?"


def check_rate(request: Request) -> None:
    limiter: auth.RateLimiter = request.app.state.auth_limiter
    if not limiter.allow(client_address(request)):
        raise ApiError("rate_limited", "too many attempts: wait a little", 429)


def game_param(request: Request, default: str = "doudizhu") -> str:
    game = request.query_params.get("game") or default
    if game not in game_names():
        raise ApiError("unknown_game", f"no game {game[:32]!r}: see /api/games", 404, game=game[:32])
    return game


async def session_response(request: Request, user: UserInfo, status: int = 200, *,
                           password_hash: str | None = None) -> JSONResponse:
    """A new session for ``user``; ``password_hash``: a log-in's, the hash its password was checked against (the
    session is refused as a wrong password if the password changed meanwhile: :meth:`Store.add_token`)."""
    lobby = lobby_of(request)
    token, digest = auth.new_token()
    days = lobby.settings.token_days
    if not await lobby.store.add_token(digest, user.id, datetime.now(UTC) + timedelta(days=days),
                                       password_hash=password_hash):
        raise ApiError("bad_login", "wrong name or password", 401)
    resp = JSONResponse({"user": await profile(lobby, user), "token": token}, status_code=status)
    resp.set_cookie(
        auth.COOKIE,
        token,
        max_age=days * 86400,
        httponly=True,
        samesite="lax",
        # Secure when asked to, and whenever the request came over HTTPS (directly, or through a trusted proxy's
        # X-Forwarded-Proto) or this server's public URL is https: (its browsers reach it so)
        secure=lobby.settings.secure_cookies or request.url.scheme in ("https", "wss")
        or (lobby.settings.public_url or "").lower().startswith("https:"),
        path="/",
    )
    return resp


async def game_standings(lobby: Lobby, user: UserInfo) -> dict[str, tuple[dict[str, Any], bool]]:
    """The user's standing in every registered game, as ``/api/me`` and a player's profile show it (points,
    title, counts per role), and whether he has a standing there (he played or opened it); a game not played
    yet shows the points it would start with."""
    have = {st.game: st for st in await lobby.store.all_standings(user.id)}
    games = {}
    for game in game_names():
        try:
            factory = lobby.factory(game)
        except KeyError:
            continue
        st = have.get(game) or Standing(user.id, game, lobby.start_points(user), 0, 0, {})
        games[game] = ({**st.public(), "title": factory.title(st.points)}, game in have)
    return games


async def profile(lobby: Lobby, user: UserInfo) -> dict[str, Any]:
    """The user, where they sit, and their standing in every registered game (:func:`game_standings`) with the
    救济 due to him."""
    out = user.public()
    out["table"] = lobby.user_table.get(user.id)
    if out["table"] is None and lobby.cluster.networked:  # a seat at a table another node runs
        out["table"] = await lobby.cluster.seat_of(user.id)
    games = {}
    for game, (g, _) in (await game_standings(lobby, user)).items():
        # (a game not played yet too: relief opens it)
        games[game] = {**g, "relief_due": await lobby.relief_due(user, game, g["points"])}
    out["games"] = games
    return out


# --------------------------------------------------------------------------------------------- accounts
async def _new_credentials(data: dict[str, Any]) -> tuple[str, str]:
    """A new account's ``{"name", "password"}`` checked: the name and the password's hash."""
    only_fields(data, "name", "password")
    name = auth.check_name(field(data, "name", str))
    password = field(data, "password", str)
    auth.check_password(password)
    return name, await auth.hash_password(password)


@endpoint
async def register(request: Request) -> Response:
    check_rate(request)
    name, pw_hash = await _new_credentials(await body(request))
    lobby = lobby_of(request)
    try:
        user = await lobby.store.create_user(name, pw_hash)
    except NameTaken:
        raise ApiError("name_taken", f"the name {name!r} is taken", 409, name=name) from None
    return await session_response(request, user, 201)


@endpoint
async def save_guest(request: Request) -> Response:
    """游客绑定账号: ``{"name", "password"}`` turns the guest of this session into a registered account in place —
    the same id, so its points, history, titles, match entries and seat stay — with the name's and password's
    checks of :func:`register`.  The session goes on (no new token); the seat shows the new name at once."""
    check_rate(request)
    user = await need_user(request)
    data = await body(request)
    only_fields(data, "name", "password")
    if not user.is_guest or user.is_bot:
        raise ApiError("not_a_guest", "only a guest account can be saved as a registered one", 409)
    name, pw_hash = await _new_credentials(data)
    lobby = lobby_of(request)
    try:
        saved = await lobby.store.register_guest(user.id, name, pw_hash)
    except NameTaken:
        raise ApiError("name_taken", f"the name {name!r} is taken", 409, name=name) from None
    except NotAGuest:  # saved meanwhile by another request
        raise ApiError("not_a_guest", "only a guest account can be saved as a registered one", 409) from None
    await lobby.user_renamed(saved)
    return JSONResponse({"user": await profile(lobby, saved)})


@endpoint
async def login(request: Request) -> Response:
    check_rate(request)
    data = await body(request)
    only_fields(data, "name", "password")
    name = field(data, "name", str).strip()[:64]
    password = field(data, "password", str)[:256]
    lobby = lobby_of(request)
    backoff: auth.LoginBackoff | auth.SharedLoginBackoff = request.app.state.login_backoff
    key, address = name_key(name), client_address(request)
    wait = await backoff.check(key, address)
    if wait > 0:
        raise ApiError("login_backoff", f"too many failed log-ins for this account from here: wait {wait:.0f} s", 429,
                       seconds=int(wait) + 1)
    found = await lobby.store.login_info(name)
    pw_hash = found[1] if found is not None else None
    ok = await auth.verify_password(pw_hash, password)  # the same work whether or not the account exists
    if found is None or not ok:
        await backoff.fail(key, address)
        raise ApiError("bad_login", "wrong name or password", 401)
    await backoff.clear(key, address)
    user = found[0]
    if user.blocked:  # told only to whoever knows the password
        raise blocked_error()
    assert pw_hash is not None  # (it verified)
    resp = await session_response(request, user, password_hash=pw_hash)
    if auth.needs_rehash(pw_hash):
        await lobby.store.set_password_hash(user.id, await auth.hash_password(password), was=pw_hash)
    return resp


@endpoint
async def guest(request: Request) -> Response:
    check_rate(request)
    lobby = lobby_of(request)
    for _ in range(5):
        try:
            user = await lobby.store.create_user(auth.guest_name(), None, is_guest=True)
            break
        except NameTaken:
            continue
    else:
        raise ApiError("server_busy", "could not make a guest name; try again", 503)
    return await session_response(request, user, 201)


@endpoint
async def logout(request: Request) -> Response:
    """End this session: its token is dropped and every socket opened with it is closed."""
    token = _token(request)
    lobby = lobby_of(request)
    if token:
        digest = auth.token_hash(token)
        user = await lobby.store.user_for_token(digest)
        await lobby.store.drop_token(digest)
        if user is not None:
            lobby.end_sessions(user.id, "logged_out", token_hash=digest)
    resp = JSONResponse({"ok": True})
    resp.delete_cookie(auth.COOKIE, path="/")
    return resp


@endpoint
async def change_password(request: Request) -> Response:
    """``{"old": ..., "new": ...}``: every other session of the account ends (its sockets close)."""
    check_rate(request)
    user = await need_user(request)
    data = await body(request)
    only_fields(data, "old", "new")
    old = field(data, "old", str)[:256]
    new = field(data, "new", str)
    auth.check_password(new)
    lobby = lobby_of(request)
    current = await lobby.store.password_hash(user.id)
    if current is None:
        raise ApiError("no_password", "a guest account has no password to change", 409)
    # the old password is guessed against the log-in's backoff too (a session alone must not allow more tries)
    backoff: auth.LoginBackoff | auth.SharedLoginBackoff = request.app.state.login_backoff
    key, address = name_key(user.name), client_address(request)
    wait = await backoff.check(key, address)
    if wait > 0:
        raise ApiError("login_backoff", f"too many wrong passwords for this account from here: wait {wait:.0f} s",
                       429, seconds=int(wait) + 1)
    if not await auth.verify_password(current, old):
        await backoff.fail(key, address)
        raise ApiError("bad_login", "the old password is wrong", 401)
    await backoff.clear(key, address)
    token = _token(request)
    keep = auth.token_hash(token) if token else None
    # written only if the password is still the one just checked (another change at the same moment: one goes)
    if not await lobby.store.change_password(user.id, await auth.hash_password(new), was=current, keep=keep):
        raise ApiError("bad_login", "the old password is wrong", 401)
    lobby.end_sessions(user.id, "password_changed", keep=keep)
    return JSONResponse({"ok": True})


@endpoint
async def me(request: Request) -> Response:
    user = await need_user(request)
    return JSONResponse(await profile(lobby_of(request), user))


@endpoint
async def relief(request: Request) -> Response:
    """救济: ``{"game": ...}`` — points for a player below every room's minimum, once a day."""
    user = await need_user(request)
    data = await body(request)
    only_fields(data, "game")
    game = field(data, "game", str, required=False) or "doudizhu"
    if game not in game_names():
        raise ApiError("unknown_game", f"no game {game[:32]!r}", 404, game=game[:32])
    lobby = lobby_of(request)
    points = await lobby.relief(user, game)
    if points is None:
        raise ApiError("no_relief", "relief is for players below every room's minimum, once a day", 409,
                       amount=lobby.settings.relief_points)
    return JSONResponse({"game": game, "points": points, "granted": lobby.settings.relief_points})


@endpoint
async def user_lookup(request: Request) -> Response:
    """``GET /api/users?name=NAME``: the player called NAME (any case, look-alike letters too) —
    ``{"user": {"id", "name", "is_guest", "is_bot"}}``, or ``404 unknown_user``."""
    await need_user(request)
    name = (request.query_params.get("name") or "").strip()
    if not name:
        raise ApiError("missing_field", "say whom: ?name=NAME", field="name")
    u = await lobby_of(request).store.find_user(name) if len(name) <= 64 else None
    if u is None:
        raise ApiError("unknown_user", f"nobody is called {name[:32]!r}", 404, name=name[:32])
    return JSONResponse({"user": u.public()})


@endpoint
async def user_profile(request: Request) -> Response:
    await need_user(request)
    uid = _path_id(request, "user_id", "a user id")
    lobby = lobby_of(request)
    u = await lobby.store.user(uid) if uid <= ID_MAX else None
    if u is None or u.blocked:  # (an account the operator blocked is nobody's business: as /api/players)
        raise ApiError("unknown_user", f"no user {uid}", 404, user=uid)
    out = await profile(lobby, u)
    out.pop("table", None)  # where he sits and his relief are his own
    for g in out["games"].values():
        g.pop("relief_due", None)
    return JSONResponse(out)


PLAYER_RECENT = 10
"""How many of a player's latest finished deals his profile lists."""


def _relation(mine: str | None, theirs: str | None) -> str:
    """What another player is to the caller, from the friends rows both ways (:meth:`Store.relation`): a block of
    the other's is not told (as ``friend_block`` tells the blocked player only that a friendship ended)."""
    if mine == "blocked":
        return "blocked"
    if mine == "friends":
        return "friend"
    if mine == "requested":
        return "outgoing"
    if theirs == "requested":
        return "incoming"
    return "none"


@endpoint
async def player_profile(request: Request) -> Response:
    """玩家资料: ``GET /api/players/{name}`` — a registered player's public profile: per registered game his
    points, title, deals played, wins, win rate and leaderboard rank, his latest finished deals (a ``replay``
    only where the caller may replay it: see :func:`replay_open`) and what he is to the caller (``relation``).
    Guests and bots have none (``404 no_profile``); an account the operator blocked, as one that is not, is
    ``404 unknown_user``.  A player who blocked the caller shows him no deals."""
    viewer = await need_user(request)
    name = request.path_params["name"].strip()
    lobby = lobby_of(request)
    store = lobby.store
    u = await store.find_user(name) if 0 < len(name) <= 64 else None
    if u is None or u.blocked:  # (that the operator blocked him is nobody else's business)
        raise ApiError("unknown_user", f"nobody is called {name[:32]!r}", 404, name=name[:32])
    if u.is_bot or u.is_guest:
        kind = "bot" if u.is_bot else "guest"
        raise ApiError("no_profile", f"{u.name} plays as a {kind} and has no profile", 404, name=u.name,
                       reason=kind)
    games: dict[str, Any] = {}
    for game, (g, opened) in (await game_standings(lobby, u)).items():
        played = int(g["games_played"])
        games[game] = {**g, "win_rate": round(g["wins"] / played, 4) if played else None,
                       # on the board (the leaderboard's rule, Store._ranked) once he has played a deal of it
                       "rank": await store.leaderboard_rank(game, g["points"]) if opened and played else None}
    if viewer.id == u.id:
        relation, hidden = "self", False
    else:
        mine, theirs = await store.relation(viewer.id, u.id)
        relation, hidden = _relation(mine, theirs), theirs == "blocked"
    recent = [] if hidden else [
        {"deal_id": d["deal_id"], "finished_at": d["finished_at"], "game": d["game"],
         "preset": (d["options"] or {}).get("preset"), "role": d["role"], "won": d["won"], "delta": d["delta"],
         "escaped": d["escaped"], "match": d["match_id"] is not None,
         "replay": replay_open(d["users"], d["match_id"], viewer.id)}
        for d in await store.history(u.id, PLAYER_RECENT)]
    return JSONResponse({"user": u.public(), "games": games, "recent": recent, "relation": relation})


ID_MAX = 2**63 - 1
"""The largest id a database row can have (a 64-bit integer): a larger one names nothing."""

_WHOLE = re.compile(r"-?[0-9]{1,40}")


def _path_id(request: Request, name: str, what: str) -> int:
    """A row id from the path: ASCII digits only (``int`` would also read ``１`` or ``٣``)."""
    raw = request.path_params[name]
    if not (_WHOLE.fullmatch(raw) and not raw.startswith("-")):
        raise ApiError("bad_request", f"{what} is a positive whole number (ASCII digits)")
    return int(raw)


def _int_param(request: Request, name: str, default: int | None, lo: int, hi: int) -> int | None:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not _WHOLE.fullmatch(raw):
        raise ApiError("bad_param", f"{name} must be a whole number", param=name)
    v = int(raw)
    if not lo <= v <= hi:
        raise ApiError("bad_param", f"{name} must be between {lo} and {hi}", param=name, min=lo, max=hi)
    return v


def leaderboard_now() -> datetime:
    """The instant whose week or month a period leaderboard shows (tests move it)."""
    return datetime.now(UTC)


@endpoint
async def leaderboard(request: Request) -> Response:
    """排行榜: ``GET /api/leaderboard?game=G&period=all|week|month&limit&offset`` — ``all`` ranks by points now;
    ``week`` (周榜) and ``month`` (月榜) by the points won at the deals settled in the current ISO week or calendar
    month, midnights in ``--leaderboard-tz`` (:meth:`Store.period_leaderboard`)."""
    game = game_param(request)
    limit = _int_param(request, "limit", 50, 1, 200) or 50
    offset = _int_param(request, "offset", 0, 0, 10**9) or 0
    period = request.query_params.get("period", "all")
    if period not in PERIODS:
        raise ApiError("bad_param", f"period must be one of {', '.join(PERIODS)}", param="period",
                       allowed=list(PERIODS))
    lobby = lobby_of(request)
    store = lobby.store
    title = lobby.factory(game).title
    if period != "all":
        return JSONResponse(await _period_board(request, game, period, limit, offset))

    def row(rank: int, u: UserInfo, st: Standing) -> dict[str, Any]:
        return {"rank": rank, **u.public(), "points": st.points, "title": title(st.points),
                "games_played": st.games_played, "wins": st.wins}

    # equal points share a rank (1, 2, 2, 4): one ahead in the order by id was a place higher for nothing
    users: list[dict[str, Any]] = []
    for i, (u, st) in enumerate(await store.leaderboard(game, limit, offset)):
        if i and st.points == users[-1]["points"]:
            rank = users[-1]["rank"]
        else:
            rank = offset + i + 1 if i else await store.leaderboard_rank(game, st.points)
        users.append(row(rank, u, st))
    out: dict[str, Any] = {"game": game, "period": "all", "users": users}
    viewer = await current_user(request, required=False)
    mine = await store.leaderboard_entry(game, viewer.id) if viewer is not None else None
    if mine is not None:  # the viewer's own place (我的排名), on this page or not
        out["me"] = row(await store.leaderboard_rank(game, mine[1].points), *mine)
    return JSONResponse(out)


async def _period_board(request: Request, game: str, period: str, limit: int, offset: int) -> dict[str, Any]:
    """周榜 / 月榜: the rows as the all-time board's (``points``: won in the period, ``games_played`` and ``wins``:
    its deals; ``title``: by the points now), with the period's ``since`` and ``until`` (ISO 8601, UTC) and
    ``tz``."""
    lobby = lobby_of(request)
    store = lobby.store
    title = lobby.factory(game).title
    tz_name = lobby.settings.leaderboard_tz
    since, until = period_bounds(period, zone(tz_name), leaderboard_now())

    def row(rank: int, u: UserInfo, st: PeriodStanding) -> dict[str, Any]:
        return {"rank": rank, **u.public(), "points": st.points, "title": title(st.total),
                "games_played": st.deals, "wins": st.wins}

    out: dict[str, Any] = {"game": game, "period": period, "since": since.isoformat(), "until": until.isoformat(),
                           "tz": tz_name,
                           "users": [row(*r) for r in await store.period_leaderboard(game, since, until, limit,
                                                                                     offset)]}
    viewer = await current_user(request, required=False)
    mine = await store.period_leaderboard(game, since, until, user_id=viewer.id) if viewer is not None else []
    if mine:
        out["me"] = row(*mine[0])
    return out


@endpoint
async def history(request: Request) -> Response:
    user = await need_user(request)
    limit = _int_param(request, "limit", 50, 1, 200) or 50
    before = _int_param(request, "before", None, 1, 2**62)
    game = request.query_params.get("game")
    if game is not None and game not in game_names():
        raise ApiError("unknown_game", f"no game {game[:32]!r}", 404, game=game[:32])
    rows = await lobby_of(request).store.history(user.id, limit, before, game)
    return JSONResponse({"deals": rows})


def replay_open(users: list[Any], match_id: str | None, viewer: int, *, match_public: bool = True) -> bool:
    """Whether ``viewer`` may read a finished deal's record and replay: he played it (``users``: its seats'
    user ids), or it is a match deal (``match_id``), which anybody signed in may replay."""
    return viewer in users or (match_public and bool(match_id))


async def _played_deal(request: Request, *, match_public: bool = False) -> tuple[dict[str, Any], int | None]:
    """The finished deal the request names and the caller's seat in it.  ``match_public``: a deal of a match
    table may be read by anybody signed in (a match's every deal is on record for all to replay, as its tables
    could be watched); the seat is then ``None`` for one who did not play it."""
    user = await need_user(request)
    deal_id = _path_id(request, "deal_id", "a deal id")
    deal = await lobby_of(request).store.deal(deal_id) if deal_id <= ID_MAX else None
    if deal is None:
        raise ApiError("unknown_deal", f"no deal {deal_id}", 404, deal=deal_id)
    seats = [i for i, s in enumerate(deal["seats"]) if s.get("user_id") == user.id]
    if not replay_open([s.get("user_id") for s in deal["seats"]], deal.get("match_id"), user.id,
                       match_public=match_public):
        raise ApiError("not_your_deal", "you can read the records of deals you played (and of match deals)", 403)
    if deal["status"] == "aborted":
        raise ApiError("deal_aborted", "this deal was abandoned unfinished and was not settled", 409)
    if deal["status"] == "failed":
        raise ApiError("deal_failed", "this deal's result could not be recorded; nobody was paid", 409)
    if deal["status"] != "over":
        raise ApiError("deal_running", "this deal is not over yet", 409)
    return deal, seats[0] if seats else None


@endpoint
async def deal_record(request: Request) -> Response:
    """The deal as stored, its ``record`` with the seats' ``players`` (each seat's ``name`` and ``bot``, from the
    store's seats) and ``you`` (the caller's seat) added, so that ``qipai replay`` names the players in it."""
    deal, seat = await _played_deal(request, match_public=True)
    record = deal.get("record")
    if isinstance(record, dict):
        record = {**record, "players": [{"name": s.get("name"), "bot": s.get("bot")} for s in deal["seats"]],
                  "you": seat}
    return JSONResponse({**deal, "record": record, "you": seat})


def _own_view(game: Any, seat: int) -> Any:
    """A seat's own part of its view (the keys that differ between seats), or its whole view for a game without
    :class:`~qipai.core.game.SplitObservation`."""
    if isinstance(game, SplitObservation):
        return game.observe_parts(seat)[1]
    return game.observe(seat)


@endpoint
async def deal_replay(request: Request) -> Response:
    """The deal step by step: after each journaled action the player's own view (``observation``) and every
    seat's own part of its view (``views``: the keys that differ between seats, such as the hand — after a deal
    every hand is public, so a replay may show them all; the shared keys are in ``observation`` once).  Gzipped
    for a client that accepts it (a four-deck Shengji hand has over a thousand steps).  One who did not play
    a match deal gets a spectator's view (``you`` is ``null``)."""
    deal, seat = await _played_deal(request, match_public=True)
    lobby = lobby_of(request)
    factory = lobby.factory(deal["game"])
    game = factory.new(deal["options"], deal["seed"], deal["context"])
    seats = range(game.players)

    def step(n: int, who: int | None, action: str | None) -> dict[str, Any]:
        return {"n": n, "seat": who, "action": action, "observation": game.observe(seat),
                "views": [_own_view(game, s) for s in seats]}

    steps: list[dict[str, Any]] = [step(0, None, None)]
    for j in await lobby.store.journal(deal["id"]):
        apply_step(game, -1 if j.seat is None else j.seat, j.action)
        steps.append(step(j.n, j.seat, j.action))
    resp = JSONResponse({"deal": deal["id"], "game": deal["game"], "you": seat, "players": deal["seats"],
                         "steps": steps, "outcome": deal["outcome"]})
    if "gzip" in request.headers.get("accept-encoding", "") and len(resp.body) > 4096:
        body = gzip.compress(resp.body, compresslevel=5)
        return Response(body, media_type="application/json",
                        headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
    return resp


@endpoint
async def deal_review(request: Request) -> Response:
    """复盘: ``?seat=N`` — every decision of that seat with the strong bot's choice and its estimated win
    probability before and after, big swings marked (from what that seat could see only).  Slow the first time
    (seconds); made in a background process."""
    user = await need_user(request)
    deal, mine = await _played_deal(request)
    assert mine is not None  # (review: the deals one played)
    lobby = lobby_of(request)
    seat = _int_param(request, "seat", mine, 0, len(deal["seats"]) - 1)
    samples = _int_param(request, "samples", 120, 10, 400) or 120
    assert seat is not None
    if not lobby.can_review(deal["game"]):
        raise ApiError("no_review", f"{deal['game']} deals have no review", 404, game=deal["game"])
    review = await lobby.review(deal["game"], deal["id"], deal["record"], seat, samples, user_id=user.id)
    return JSONResponse({"deal": deal["id"], "seat": seat, "review": review})


# --------------------------------------------------------------------------------------------- lobby
@endpoint
async def games(request: Request) -> Response:
    """Every registered game: its description (options with types and ranges, presets and every option's value
    under each, roles, web view)."""
    lobby = lobby_of(request)
    out = []
    for name in game_names():
        f = lobby.factory(name)
        out.append({**f.info.describe(), "review": lobby.can_review(name),
                    "preset_options": {p: f.options({"preset": p}) for p in f.info.presets}})
    return JSONResponse({"games": out})


@endpoint
async def rules_words(request: Request) -> Response:
    """玩法说明 (open without an account, like the rules page): a game's rules in words, worded by the game from the
    option values (``Explains``).  ``GET ?preset=P&lang=zh|en`` for a preset (default the game's first, Chinese);
    ``POST {"options", "lang"?}`` for a table's own options (a room's or a private table's: ``preset`` plus what it
    sets).  → ``{"game", "lang", "preset", "options" (every value), "sections": [{"id", "title", "items"}]}``, an
    item a paragraph or a list of lines; no sections for a game without words."""
    game = request.path_params["game"]
    if game not in game_names():
        raise ApiError("unknown_game", f"no game {game[:32]!r}: see /api/games", 404, game=game[:32])
    factory = lobby_of(request).factory(game)
    lang: Any = request.query_params.get("lang", "zh")
    if request.method == "POST":
        data = await body(request)
        only_fields(data, "options", "lang")
        raw = field(data, "options", dict, required=False) or {}
        lang = data.get("lang", lang)
    else:
        presets = factory.info.presets
        preset = request.query_params.get("preset") or presets[0]
        if preset not in presets:
            raise ApiError("unknown_preset", f"{game} has no preset {preset[:32]!r}: expected one of "
                           f"{', '.join(presets)}", 404, game=game, preset=preset[:32], presets=list(presets))
        raw = {"preset": preset}
    if not is_lang(lang):
        raise ApiError("bad_field", "lang is zh or en", field="lang", type="str")
    try:
        full = factory.options(raw)
        sections = explain_rules(factory, full, lang)
    except OptionError as e:
        reason = str(e)[:200]
        raise ApiError("bad_options", f"these options do not work: {reason}", 400, reason=reason,
                       option=next((k for k in raw if isinstance(k, str) and k in reason), None)) from None
    return JSONResponse({"game": game, "lang": lang, "preset": full.get("preset"), "options": full,
                         "sections": sections_json(sections)})


@endpoint
async def rooms(request: Request) -> Response:
    return JSONResponse({"rooms": await lobby_of(request).list_rooms()})


@endpoint
async def tables(request: Request) -> Response:
    return JSONResponse({"tables": await lobby_of(request).list_public_tables()})


@endpoint
async def table_info(request: Request) -> Response:
    user = await need_user(request)
    t = lobby_of(request).table(request.path_params["table_id"])
    seat = t.seat_of(user.id)
    if t.info.private and seat is None:
        raise ApiError("private_table", "this table is private", 403)
    return JSONResponse(t.table_view(seat))


@endpoint
async def table_summary(request: Request) -> Response:
    """The final summary (大结算) of a table played for a set number of deals, open or closed: each player's
    total over its settled deals so far, ranked (``finished``: all of them were played).  For those who sat at
    one of its deals."""
    user = await need_user(request)
    table_id = request.path_params["table_id"]
    found = await lobby_of(request).store.finished_table(table_id)
    if found is None:
        raise ApiError("unknown_table", "no table played for a number of deals has this id", 404)
    info, status, results = found
    if not any(user.id in (r.get("user_ids") or ()) for r in results):
        raise ApiError("private_table", "only those who played at this table read its summary", 403)
    summary = final_summary(results, info.deals_total)
    finished = info.deals_total is not None and len(results) >= info.deals_total
    return JSONResponse({"table": table_id, "game": info.game, "room": info.room, "status": status,
                         "finished": finished, "summary": summary})


@contextlib.contextmanager
def _invite_guess(request: Request) -> Iterator[None]:
    """Refuse a client address that tried too many wrong invite codes; count a wrong one."""
    limiter: auth.RateLimiter = request.app.state.invite_misses
    address = client_address(request)
    if limiter.blocked(address):
        raise ApiError("rate_limited", "too many wrong invite codes: wait a little", 429)
    try:
        yield
    except TableError as e:
        if e.code == "unknown_invite":
            limiter.allow(address)
        raise


@endpoint
async def invite_info(request: Request) -> Response:
    """What an invite link leads to: the table's game, room, seats and whether one may still sit down."""
    await need_user(request)
    with _invite_guess(request):
        return JSONResponse(await lobby_of(request).invite_info(request.path_params["code"]))


@endpoint
async def check_action(request: Request) -> Response:
    """``{"action": ...}``: would the user's seat at this table be allowed this action now?  (Any game.)"""
    user = await need_user(request)
    data = await body(request)
    only_fields(data, "action")
    action = field(data, "action", str)
    if len(action) > 400:
        raise ApiError("too_large", "an action is at most 400 characters", 413)
    t = lobby_of(request).table(request.path_params["table_id"])
    async with t.lock:
        reason = await t.check_action(user.id, action)
    return JSONResponse({"action": action, "legal": reason is None, "reason": reason})


def _seated(lobby: Lobby, user_id: int, where: Table | RemoteSeat, seat: int) -> JSONResponse:
    lobby.announce_seat(user_id, where, seat, None, None)
    if isinstance(where, RemoteSeat):
        return JSONResponse({"table": where.table_id, "seat": seat, "invite_code": where.invite_code,
                             "node": where.node, "url": where.url})
    return JSONResponse({"table": where.id, "seat": seat, "invite_code": where.info.invite_code})


@endpoint
async def quick_match(request: Request) -> Response:
    user = await need_user(request)
    data = await body(request)
    only_fields(data, "room")
    lobby = lobby_of(request)
    where, seat = await lobby.quick_match(user.id, field(data, "room", str))
    return _seated(lobby, user.id, where, seat)


@endpoint
async def create_table(request: Request) -> Response:
    user = await need_user(request)
    data = await body(request)
    only_fields(data, "room", "options", "fill_bots_after", "autoplay_bot", "for_points", "seat_bot", "deals")
    lobby = lobby_of(request)
    deals = data.get("deals")
    if deals is not None and (isinstance(deals, bool) or not isinstance(deals, int)
                              or not DEALS_MIN <= deals <= DEALS_MAX):
        raise ApiError("bad_field", f"deals is the number of deals the table plays ({DEALS_MIN}..{DEALS_MAX}) or "
                                    "null (until its players leave)", field="deals", min=DEALS_MIN, max=DEALS_MAX)
    fill = data.get("fill_bots_after")
    if fill is not None and (isinstance(fill, bool) or not isinstance(fill, int | float) or not 0 <= fill <= 3600):
        raise ApiError("bad_field", "fill_bots_after is a number of seconds (0..3600) or null",
                       field="fill_bots_after")
    for_points = data.get("for_points", True)
    if not isinstance(for_points, bool):
        raise ApiError("bad_field", "for_points is true or false", field="for_points", type="bool")
    t, seat = await lobby.create_private(
        user.id,
        field(data, "room", str),
        field(data, "options", dict, required=False) or {},
        None if fill is None else float(fill),
        field(data, "autoplay_bot", str, required=False),
        for_points,
        field(data, "seat_bot", str, required=False),
        deals,
    )
    return _seated(lobby, user.id, t, seat)


@endpoint
async def join_table(request: Request) -> Response:
    user = await need_user(request)
    data = await body(request)
    only_fields(data, "invite")
    lobby = lobby_of(request)
    with _invite_guess(request):
        where, seat = await lobby.join_invite(user.id, field(data, "invite", str))
    return _seated(lobby, user.id, where, seat)


@endpoint
async def leave_table(request: Request) -> Response:
    user = await need_user(request)
    result = await lobby_of(request).leave(user.id, request.path_params["table_id"])
    return JSONResponse({"result": result})


@endpoint
async def fill_bots(request: Request) -> Response:
    user = await need_user(request)
    t = lobby_of(request).table(request.path_params["table_id"])
    async with t.lock:
        await t.fill_bots_now(user.id)
    return JSONResponse({"ok": True})


@endpoint
async def cluster(request: Request) -> Response:
    """Every live node (with how many tables it runs) and the open tables the directory knows."""
    lobby = lobby_of(request)
    nodes = await lobby.cluster.nodes()
    tables = await lobby.cluster.tables() if lobby.cluster.networked else [lobby.summary(t) | {
        "node": lobby.cluster.node_id} for t in lobby.tables.values()]
    return JSONResponse({"node": lobby.cluster.node_id, "networked": lobby.cluster.networked,
                         "nodes": [{"id": n.id, "url": n.url, "started": n.started, "tables": n.tables}
                                   for n in nodes], "tables": len(tables)})


def _admin(request: Request) -> Lobby:
    lobby = lobby_of(request)
    want = lobby.settings.admin_token
    got = request.headers.get("x-admin-token")
    # compared as bytes: compare_digest raises TypeError (a 500) for text with a non-ASCII character
    if not want or not got or not secrets.compare_digest(want.encode(), got.encode("latin-1")):
        raise ApiError("not_allowed", "operator endpoints need the server's admin token (X-Admin-Token)", 403)
    return lobby


@endpoint
async def drain(request: Request) -> Response:
    """Operator: move this node's tables to other nodes between deals (``{"left": n}`` still to move)."""
    lobby = _admin(request)
    if not lobby.cluster.networked:
        raise ApiError("no_cluster", "this server runs alone: there is no node to hand tables to", 409)
    return JSONResponse({"left": await lobby.drain(), "draining": True})


# ------------------------------------------------------------------------------------------ matches (比赛)
MATCH_STATUSES = ("upcoming", "open", "running", "finished", "cancelled")


def _director(request: Request) -> Any:
    return lobby_of(request).director


@endpoint
async def list_matches(request: Request) -> Response:
    """Matches by status: ``upcoming``, ``open`` (registration), ``running``, ``finished``, ``cancelled``
    (``?status=open,running``; default all but cancelled).  Finished ones come from the store."""
    d = _director(request)
    raw = request.query_params.get("status")
    want = set(MATCH_STATUSES[:4]) if not raw else {x.strip() for x in raw.split(",") if x.strip()}
    bad = sorted(want - set(MATCH_STATUSES))
    if bad:
        raise ApiError("bad_param", f"status is one or more of {', '.join(MATCH_STATUSES)}", param="status")
    user = await current_user(request, required=False)
    out = []
    for run in sorted(d.runs.values(), key=lambda r: r.id):
        item = d.summary(run)
        if item["status"] in want:
            item["me"] = d.entrant_of(run, user.id) if user is not None else None
            out.append(item)
    seen = {m["id"] for m in out}
    # finished ones, and (several nodes) those another node drives, as last written
    for row in await lobby_of(request).store.matches(None, limit=200):
        if row.id in seen:
            continue
        other = run_from_row(row)
        item = d.summary(other)
        if item["status"] in want:
            item["me"] = d.entrant_of(other, user.id) if user is not None else None
            out.append(item)
    return JSONResponse({"matches": out})


async def _run_or_row(request: Request) -> tuple[Any, Any]:
    d = _director(request)
    mid = request.path_params["match_id"]
    run = d.runs.get(mid)
    if run is not None:
        return d, run
    row = await lobby_of(request).store.match(mid)
    if row is None:
        raise ApiError("unknown_match", f"no match {mid[:40]!r}", 404, match=mid[:40])
    return d, row


@endpoint
async def match_info(request: Request) -> Response:
    """One match: its card, definition and standings (``me``: the caller's entrant, table and seat)."""
    d, run = await _run_or_row(request)
    elsewhere: dict[str, tuple[str, list[int | None], list[int]]] = {}
    if not isinstance(run, MatchRun):  # driven by another node (or over): its tables as the database has them
        run = run_from_row(run)
        await d.load_names(run)
        if run.state.phase not in ("finished", "cancelled"):
            elsewhere = await lobby_of(request).store.match_tables(run.id)
    user = await current_user(request, required=False)
    me = None
    if user is not None:
        eid = d.entrant_of(run, user.id)
        if eid is not None:
            e = run.state.entrants[eid]
            t = d.table_of(run.id, e.table) if e.table else None
            there = elsewhere.get(e.table) if e.table and t is None else None
            table_id = t.id if t is not None else there[0] if there is not None else None
            seat = t.player_seat(user.id) if t is not None else \
                there[1].index(user.id) if there is not None and user.id in there[1] else None
            # a player who left the match table (its seat in auto-play to the table's end, Table.left_match;
            # on another node's table, the seat stored as left) has no table to go back to: its id is only
            # ``left_table``, for the card to offer nothing there
            left = (t is not None and seat is None and t.seat_of(user.id) is not None) or \
                (there is not None and user.id in there[2])
            if left:
                seat = None
            me = {"entrant": eid, "status": e.status, "quitting": e.quitting, "points": e.points,
                  "table": None if left else table_id, "seat": seat, "left_table": table_id if left else None}
    invited_by, inviting, declined = await d.invitations_of(run, user.id) if user is not None else ([], None, [])
    ids = {key: there[0] for key, there in elsewhere.items()}
    return JSONResponse({**d.summary(run), "definition": definition_data(run.defn),
                         **d.standings_view(run, ids), "me": me, "me_invited_by": invited_by,
                         "me_inviting": inviting, "me_declined_by": declined})


@endpoint
async def match_deals(request: Request) -> Response:
    """A match's settled deals, newest first (``?mine=1``: the caller's own; ``limit``, ``before``: paging by
    deal id), each replayable at ``/api/deals/{id}/replay`` by anybody signed in."""
    await _run_or_row(request)  # 404 for no such match
    user = await current_user(request, required=False)
    mine = request.query_params.get("mine") in ("1", "true")
    if mine and user is None:
        raise ApiError("unauthorized", "sign in to list your own deals", 401)
    limit = _int_param(request, "limit", 50, 1, 200) or 50
    before = _int_param(request, "before", None, 1, 2**62)
    rows = await lobby_of(request).store.match_deals(request.path_params["match_id"],
                                                      user_id=user.id if mine and user else None,
                                                      limit=limit, before=before)
    return JSONResponse({"match": request.path_params["match_id"], "deals": rows})


@endpoint
async def match_register(request: Request) -> Response:
    """Register; the fee is taken now.  A team match: the captain invites (``{"partner": user_id}``) and the
    partner confirms (``{"captain": user_id}``), which registers the team."""
    user = await need_user(request)
    data = await body(request)
    only_fields(data, "partner", "captain", "partner_name")
    partner, captain = data.get("partner"), data.get("captain")
    for name, v in (("partner", partner), ("captain", captain)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            raise ApiError("bad_field", f"{name} is a user id", field=name, type="int")
    if partner is not None and captain is not None:  # (the captain was ignored: one invites, the other confirms)
        raise ApiError("bad_field", "invite a partner or confirm a captain's invitation, not both",
                       field="captain")
    partner_name = data.get("partner_name")
    if partner_name is not None:  # the captain names the partner by account name (the browser's form)
        if not isinstance(partner_name, str) or not partner_name.strip() or len(partner_name) > 64:
            raise ApiError("bad_field", "partner_name is an account name", field="partner_name", type="str")
        if partner is not None or captain is not None:
            raise ApiError("bad_field", "name the partner once: partner or partner_name, not both",
                           field="partner_name")
        found = await lobby_of(request).store.find_user(partner_name.strip())
        if found is None:
            raise ApiError("unknown_user", f"no player called {partner_name.strip()!r}", 404,
                           name=partner_name.strip()[:64])
        partner = found.id
    other = partner if partner is not None else captain
    if other is not None and not 0 < other <= ID_MAX:  # (past the database's integers: a 500 before)
        raise ApiError("unknown_user", f"no user {other}", 404, user=other)
    if other is not None and await lobby_of(request).store.blocked_among([other]):
        raise blocked_error(other)
    d = _director(request)
    mid = request.path_params["match_id"]
    elsewhere = await d.remote(mid, "register", user_id=user.id, partner=partner, captain=captain)
    if elsewhere is not None:
        return JSONResponse(elsewhere)
    if partner is not None:
        return JSONResponse(await d.invite(mid, user.id, partner))
    run = await (d.confirm(mid, user.id, captain) if captain is not None else d.register(mid, user.id))
    return JSONResponse({"match": run.id, "entrant": d.entrant_of(run, user.id), "phase": run.state.phase})


@endpoint
async def match_decline(request: Request) -> Response:
    """A team match: the invited partner declines a captain's invitation (``{"captain": user_id}``); it ends
    for both and the captain is told."""
    user = await need_user(request)
    data = await body(request)
    only_fields(data, "captain")
    captain = data.get("captain")
    if isinstance(captain, bool) or not isinstance(captain, int):
        raise ApiError("bad_field", "captain is a user id", field="captain", type="int")
    d = _director(request)
    mid = request.path_params["match_id"]
    elsewhere = await d.remote(mid, "decline", user_id=user.id, captain=captain)
    if elsewhere is not None:
        return JSONResponse(elsewhere)
    return JSONResponse(await d.decline(mid, user.id, captain))


# --------------------------------------------------------------------------------------------- friends (好友)
FRIENDS_MAX = 200
"""At most this many friends and requests sent, together, per account."""


def _friend_rate(request: Request, user: UserInfo) -> None:
    """Friend requests and invitations: a burst of 10, then one every 3 seconds per account."""
    limiter: RateLimiter | None = getattr(request.app.state, "friend_limiter", None)
    if limiter is None:
        limiter = request.app.state.friend_limiter = RateLimiter(1 / 3, 10)
    if not limiter.allow(str(user.id)):
        raise ApiError("rate_limited", "too many friend requests or invitations: wait a little", 429)


async def _friend_view(lobby: Lobby, u: UserInfo, elsewhere: set[int], seated: dict[int, str],
                       public: Callable[[], Awaitable[set[str]]]) -> dict[str, Any]:
    """A friend as the list shows him: online (connected to this node or, as ``elsewhere`` says, to another,
    or seated anywhere: here, or on another node as ``seated`` says), at which table, and whether it may be
    watched (``public``: the ids of every node's public tables, asked once)."""
    table = lobby.user_table.get(u.id) or seated.get(u.id)
    # a private table is watched with its invite, which only its players give (an invitation)
    here = lobby.tables.get(table) if table is not None else None
    if table is None:
        watchable = False
    elif here is not None:
        watchable = not here.info.private
    else:
        watchable = table in await public()
    online = bool(lobby.conns_of(u.id)) or u.id in elsewhere or table is not None
    return {"id": u.id, "name": u.name, "online": online, "table": table, "watchable": watchable}


async def _reachable(lobby: Lobby, user_id: int) -> bool:
    """Whether a message to ``user_id`` reaches him now: connected or seated, here or (as Redis says) on another
    node; with Redis away, assumed so."""
    if lobby.conns_of(user_id) or user_id in lobby.user_table:
        return True
    if not lobby.cluster.networked:
        return False
    try:
        return bool(await lobby.cluster.online_among([user_id]) or await lobby.cluster.seats_of([user_id]))
    except Exception:  # Redis away: the invitation is sent, as it was before this check
        return True


def _tell_friend(lobby: Lobby, to: int, event: str, user: UserInfo) -> None:
    """A ``friend`` message to user ``to`` about ``user`` (on every node he is connected to)."""
    lobby.tell_user(to, {"type": "friend", "event": event, "user": {"id": user.id, "name": user.name}})


@contextlib.contextmanager
def _friend_cap() -> Iterator[None]:
    """The store's refusal of one friend or request too many, as ``409 too_many_friends``."""
    try:
        yield
    except TooManyFriends as e:
        raise ApiError("too_many_friends", f"at most {e.limit} friends and requests", 409, max=e.limit) from None


async def _friend_call(request: Request) -> tuple[UserInfo, int, Lobby]:
    """The caller, the user id of the path (``/api/friends/{id}/…``) and the lobby."""
    return await need_user(request), _path_id(request, "user_id", "a user id"), lobby_of(request)


@endpoint
async def friends(request: Request) -> Response:
    """好友: ``{"friends": [{"id", "name", "online", "table", "watchable"}], "incoming": [...], "outgoing": [...],
    "blocked": [...], "recent": [...], "max"}`` (``recent``: people he played with lately, whom he might ask;
    ``?recent=0`` leaves that list empty and its query unmade, for the lobby's poll)."""
    user = await need_user(request)
    lobby = lobby_of(request)
    lists = await lobby.store.friends_of(user.id)
    elsewhere: set[int] = set()
    seated: dict[int, str] = {}
    if lobby.cluster.networked and lists["friends"]:
        try:  # (each in one round trip, however many friends)
            elsewhere = await lobby.cluster.online_among([u.id for u in lists["friends"] if not lobby.conns_of(u.id)])
            seated = await lobby.cluster.seats_of([u.id for u in lists["friends"] if u.id not in lobby.user_table])
        except Exception:  # Redis away: the list still answers, with what this node knows
            elsewhere, seated = set(), {}
    known: set[str] | None = None

    async def public() -> set[str]:  # another node's tables, from the directory, once
        nonlocal known
        if known is None:
            try:
                known = {str(s["id"]) for s in await lobby.all_tables() if not s.get("private")}
            except Exception:  # Redis away: none offered to watch
                known = set()
        return known

    out: dict[str, Any] = {"friends": [await _friend_view(lobby, u, elsewhere, seated, public)
                                       for u in lists["friends"]]}
    for k in ("incoming", "outgoing", "blocked"):
        out[k] = [{"id": u.id, "name": u.name} for u in lists[k]]
    # 最近同桌: people he played with lately, not friends nor asked either way yet
    listed = {u.id for v in lists.values() for u in v}
    out["recent"] = [] if request.query_params.get("recent") == "0" else [
        {"id": u.id, "name": u.name} for u in await lobby.store.recent_players(user.id) if u.id not in listed][:10]
    out["max"] = FRIENDS_MAX
    return JSONResponse(out)


def _friend_target(u: UserInfo | None, me: UserInfo, name: str) -> UserInfo:
    if u is None or u.is_bot:
        raise ApiError("unknown_user", f"nobody is called {name[:32]!r}", 404, name=name[:32])
    if u.id == me.id:
        raise ApiError("bad_request", "you cannot be your own friend")
    return u


@endpoint
async def friend_request(request: Request) -> Response:
    """``{"name"}``: ask a player to be friends (``state`` ``requested``), or accept his request if he had
    asked first (``accepted``); ``friends`` when you were already.  Guests cannot: friends are kept with an
    account (save the guest first)."""
    user = await need_user(request)
    data = await body(request)
    only_fields(data, "name")
    name = field(data, "name", str).strip()
    if user.is_guest:
        raise ApiError("guest_account", "friends are kept with an account: save your guest account first", 403)
    lobby = lobby_of(request)
    other = _friend_target(await lobby.store.find_user(name) if 0 < len(name) <= 64 else None, user, name)
    if other.is_guest:
        raise ApiError("guest_account", f"{other.name} plays as a guest and cannot keep friends", 409,
                       name=other.name)
    _friend_rate(request, user)
    with _friend_cap():
        state = await lobby.store.request_friend(user.id, other.id, FRIENDS_MAX)
    if state == "blocked":
        raise ApiError("blocked", f"{other.name} takes no friend requests from you", 403, name=other.name)
    if state in ("requested", "accepted"):
        _tell_friend(lobby, other.id, "request" if state == "requested" else "accepted", user)
    return JSONResponse({"state": state, "user": {"id": other.id, "name": other.name}},
                        status_code=201 if state == "requested" else 200)


@endpoint
async def friend_accept(request: Request) -> Response:
    """Accept the request of user ``id``."""
    user, other_id, lobby = await _friend_call(request)
    with _friend_cap():
        done = await lobby.store.accept_friend(user.id, other_id, FRIENDS_MAX) if other_id <= ID_MAX else False
    if done is False:
        raise ApiError("no_request", f"user {other_id} has not asked you to be friends", 404, user=other_id)
    if done:  # (not again for a friendship accepted before)
        _tell_friend(lobby, other_id, "accepted", user)
    return JSONResponse({"state": "friends", "user": other_id})


@endpoint
async def friend_remove(request: Request) -> Response:
    """Unfriend user ``id``, decline his request, or withdraw yours."""
    user, other_id, lobby = await _friend_call(request)
    if other_id > ID_MAX or not await lobby.store.remove_friend(user.id, other_id):
        raise ApiError("not_friends", f"user {other_id} is neither your friend nor asked", 404, user=other_id)
    _tell_friend(lobby, other_id, "removed", user)
    return JSONResponse({"removed": other_id})


@endpoint
async def friend_block(request: Request) -> Response:
    """拉黑 user ``id``: he can no longer ask you to be friends; a friendship or requests between you end (he is
    told ``removed``, not that he is blocked)."""
    user, other_id, lobby = await _friend_call(request)
    other = await lobby.store.user(other_id) if other_id <= ID_MAX else None
    if other is None or other.is_bot:
        raise ApiError("unknown_user", f"no user {other_id}", 404, user=other_id)
    if other.id == user.id:
        raise ApiError("bad_request", "you cannot block yourself")
    if await lobby.store.block(user.id, other.id):
        _tell_friend(lobby, other.id, "removed", user)
    return JSONResponse({"blocked": other.id})


@endpoint
async def friend_unblock(request: Request) -> Response:
    """Lift your block of user ``id``."""
    user, other_id, lobby = await _friend_call(request)
    if other_id > ID_MAX or not await lobby.store.unblock(user.id, other_id):
        raise ApiError("not_blocked", f"you have not blocked user {other_id}", 404, user=other_id)
    return JSONResponse({"unblocked": other_id})


@endpoint
async def friend_invite(request: Request) -> Response:
    """Invite friend ``id`` to your private table: he is sent its invite code (``friend`` ``invite``)."""
    user, other_id, lobby = await _friend_call(request)
    if other_id > ID_MAX or not await lobby.store.are_friends(user.id, other_id):
        raise ApiError("not_friends", f"user {other_id} is not your friend", 404, user=other_id)
    cur = lobby._current(user.id)
    if cur is None:
        raise ApiError("not_at_table", "sit at a private table first, then invite friends to it", 409)
    t = cur[0]
    if not t.info.invite_code:
        raise ApiError("no_invite_code", "only a private table (开房) has an invite: create one for friends", 409)
    if not t.empty_seats():
        raise ApiError("table_full", "this table has no free seat", 409)
    if not await _reachable(lobby, other_id):
        # (an invitation is a message, not kept: the inviter learns that it would reach nobody)
        raise ApiError("friend_offline", f"user {other_id} is not online: give him the table's invite code "
                       f"{t.info.invite_code} instead", 409, user=other_id, invite_code=t.info.invite_code)
    _friend_rate(request, user)
    lobby.tell_user(other_id, {"type": "friend", "event": "invite", "user": {"id": user.id, "name": user.name},
                               "table": t.id, "room": t.info.room, "game": t.info.game,
                               "invite_code": t.info.invite_code})
    return JSONResponse({"invited": other_id, "table": t.id})


@endpoint
async def match_withdraw(request: Request) -> Response:
    """Withdraw before the start (the fee comes back) or quit a running match (退赛)."""
    user = await need_user(request)
    only_fields(await body(request))  # (no fields: an unknown one is refused, as register and decline do)
    d = _director(request)
    mid = request.path_params["match_id"]
    elsewhere = await d.remote(mid, "withdraw", user_id=user.id)
    if elsewhere is not None:
        return JSONResponse(elsewhere)
    status = await d.withdraw(mid, user.id)
    return JSONResponse({"match": mid, "status": status})


@endpoint
async def my_matches(request: Request) -> Response:
    """The caller's match history: every match entered, with its status, place and prize."""
    user = await need_user(request)
    return JSONResponse({"matches": await lobby_of(request).store.match_history(user.id)})


MAX_START_AHEAD_S = 366 * 86400
"""How far ahead an operator's match may start (a bound for every number a definition takes, matches.md)."""
MAX_MATCH_NAME = 64


@endpoint
async def admin_create_match(request: Request) -> Response:
    """Operator: create a match from a definition (``{"definition": {...}, "start_at"?: epoch, "name"?}``)."""
    _admin(request)
    data = await body(request)
    only_fields(data, "definition", "name", "start_at")
    definition = field(data, "definition", dict)
    d = _director(request)
    start_at = data.get("start_at")
    if start_at is not None and (isinstance(start_at, bool) or not isinstance(start_at, int)
                                 or not 0 <= start_at <= d.now() + MAX_START_AHEAD_S):
        raise ApiError("bad_field", f"start_at is epoch seconds, at most {MAX_START_AHEAD_S // 86400} days ahead",
                       field="start_at", type="int")
    name = field(data, "name", str, required=False)
    if name is not None:
        name = name.strip()
        if not 1 <= len(name) <= MAX_MATCH_NAME:
            raise ApiError("bad_field", f"name is 1 to {MAX_MATCH_NAME} characters", field="name", type="str")
    run = await d.create(definition, name=name, source="operator", start_at=start_at)
    return JSONResponse(d.summary(run), status_code=201)


@endpoint
async def admin_match_bots(request: Request) -> Response:
    """Operator: register bot entrants (``{"count": n}``)."""
    _admin(request)
    data = await body(request)
    only_fields(data, "count")
    count = data.get("count")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 1000:
        raise ApiError("bad_field", "count is a whole number 1..1000", field="count", type="int")
    d, mid = _director(request), request.path_params["match_id"]
    elsewhere = await d.remote(mid, "bots", count=count)  # a match another node drives is changed there
    if elsewhere is not None:
        return JSONResponse(elsewhere)
    return JSONResponse({"bots": await d.add_bots(mid, count)})


@endpoint
async def admin_cancel_match(request: Request) -> Response:
    """Operator: cancel a match (every fee refunded, no prize)."""
    _admin(request)
    d, mid = _director(request), request.path_params["match_id"]
    elsewhere = await d.remote(mid, "cancel")
    if elsewhere is not None:
        return JSONResponse(elsewhere)
    await d.cancel(mid)
    return JSONResponse({"cancelled": True})


@endpoint
async def health(request: Request) -> Response:
    stats = lobby_of(request).stats()
    ok = stats["storage_ok"] and stats["cluster_ok"]  # a node that lost Redis cannot keep its tables' leases
    return JSONResponse({"ok": ok, **stats}, status_code=200 if ok else 503)


routes = [
    Route("/api/health", health),
    Route("/api/cluster", cluster),
    Route("/api/admin/drain", drain, methods=["POST"]),
    Route("/api/register", register, methods=["POST"]),
    Route("/api/login", login, methods=["POST"]),
    Route("/api/guest", guest, methods=["POST"]),
    Route("/api/account", save_guest, methods=["POST"]),
    Route("/api/logout", logout, methods=["POST"]),
    Route("/api/password", change_password, methods=["POST"]),
    Route("/api/relief", relief, methods=["POST"]),
    Route("/api/me", me),
    Route("/api/users", user_lookup),
    Route("/api/users/{user_id}", user_profile),
    Route("/api/players/{name:path}", player_profile),  # (a "/" typed in a name: nobody, not "no such endpoint")
    Route("/api/friends", friends),
    Route("/api/friends", friend_request, methods=["POST"]),
    Route("/api/friends/{user_id}/accept", friend_accept, methods=["POST"]),
    Route("/api/friends/{user_id}/invite", friend_invite, methods=["POST"]),
    Route("/api/friends/{user_id}/remove", friend_remove, methods=["POST"]),
    Route("/api/friends/{user_id}/block", friend_block, methods=["POST"]),
    Route("/api/friends/{user_id}/unblock", friend_unblock, methods=["POST"]),
    Route("/api/leaderboard", leaderboard),
    Route("/api/history", history),
    Route("/api/deals/{deal_id}", deal_record),
    Route("/api/deals/{deal_id}/replay", deal_replay),
    Route("/api/deals/{deal_id}/review", deal_review),
    Route("/api/games", games),
    Route("/api/rules/{game}", rules_words, methods=["GET", "POST"]),
    Route("/api/rooms", rooms),
    Route("/api/tables", tables),
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables/join", join_table, methods=["POST"]),
    Route("/api/invites/{code}", invite_info),
    Route("/api/tables/{table_id}", table_info),
    Route("/api/tables/{table_id}/summary", table_summary),
    Route("/api/tables/{table_id}/check", check_action, methods=["POST"]),
    Route("/api/tables/{table_id}/leave", leave_table, methods=["POST"]),
    Route("/api/tables/{table_id}/bots", fill_bots, methods=["POST"]),
    Route("/api/quick-match", quick_match, methods=["POST"]),
    Route("/api/matches", list_matches),
    Route("/api/matches/mine", my_matches),
    Route("/api/matches/{match_id}", match_info),
    Route("/api/matches/{match_id}/deals", match_deals),
    Route("/api/matches/{match_id}/register", match_register, methods=["POST"]),
    Route("/api/matches/{match_id}/withdraw", match_withdraw, methods=["POST"]),
    Route("/api/matches/{match_id}/decline", match_decline, methods=["POST"]),
    Route("/api/admin/matches", admin_create_match, methods=["POST"]),
    Route("/api/admin/matches/{match_id}/bots", admin_match_bots, methods=["POST"]),
    Route("/api/admin/matches/{match_id}/cancel", admin_cancel_match, methods=["POST"]),
]
