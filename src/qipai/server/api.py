"""The JSON API under ``/api/``: accounts, profiles, leaderboard, history, records, rooms and tables."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from qipai.server import auth
from qipai.server.auth import AuthError
from qipai.server.lobby import Lobby
from qipai.server.table import TableError
from qipai.store import NameTaken, UserInfo

Handler = Callable[[Request], Awaitable[Response]]


class ApiError(Exception):
    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


TABLE_ERROR_STATUS = {
    "unknown_room": 404,
    "unknown_table": 404,
    "unknown_invite": 404,
    "not_enough_points": 403,
    "not_allowed": 403,
    "already_seated": 409,
    "table_full": 409,
    "deal_running": 409,
    "not_seated": 409,
}


def error(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def endpoint(fn: Handler) -> Handler:
    async def wrapped(request: Request) -> Response:
        try:
            return await fn(request)
        except ApiError as e:
            return error(e.code, e.message, e.status)
        except AuthError as e:
            return error(e.code, e.message, e.status)
        except TableError as e:
            return error(e.code, e.message, TABLE_ERROR_STATUS.get(e.code, 400))

    return wrapped


def lobby_of(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


async def body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > 16384:
        raise ApiError("too_large", "request body too large", 413)
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except ValueError as e:
        raise ApiError("bad_json", f"the body is not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise ApiError("bad_json", "the body must be a JSON object")
    return data


def field(data: dict[str, Any], name: str, kind: type, *, required: bool = True) -> Any:
    v = data.get(name)
    if v is None:
        if required:
            raise ApiError("bad_request", f"missing field {name!r}")
        return None
    if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
        raise ApiError("bad_request", f"field {name!r} must be {kind.__name__}")
    return v


async def current_user(request: Request, *, required: bool = True) -> UserInfo | None:
    token = auth.token_from(request.headers, request.cookies, {})
    user = await lobby_of(request).store.user_for_token(auth.token_hash(token)) if token else None
    if user is None and required:
        raise ApiError("unauthorized", "log in first (session cookie or Authorization: Bearer <token>)", 401)
    return user


async def need_user(request: Request) -> UserInfo:
    user = await current_user(request)
    assert user is not None
    return user


def check_rate(request: Request) -> None:
    limiter: auth.RateLimiter = request.app.state.auth_limiter
    host = request.client.host if request.client else "?"
    if not limiter.allow(host):
        raise ApiError("rate_limited", "too many attempts: wait a little", 429)


async def session_response(request: Request, user: UserInfo, status: int = 200) -> JSONResponse:
    lobby = lobby_of(request)
    token, digest = auth.new_token()
    days = lobby.settings.token_days
    await lobby.store.add_token(digest, user.id, datetime.now(UTC) + timedelta(days=days))
    resp = JSONResponse({"user": profile(lobby, user), "token": token}, status_code=status)
    resp.set_cookie(
        auth.COOKIE,
        token,
        max_age=days * 86400,
        httponly=True,
        samesite="lax",
        secure=lobby.settings.secure_cookies,
        path="/",
    )
    return resp


def profile(lobby: Lobby, user: UserInfo) -> dict[str, Any]:
    out = user.public()
    out["table"] = lobby.user_table.get(user.id)
    return out


# --------------------------------------------------------------------------------------------- accounts
@endpoint
async def register(request: Request) -> Response:
    check_rate(request)
    data = await body(request)
    name = auth.check_name(field(data, "name", str))
    password = field(data, "password", str)
    auth.check_password(password)
    lobby = lobby_of(request)
    pw_hash = await auth.hash_password(password)
    try:
        user = await lobby.store.create_user(name, pw_hash, is_guest=False, points=lobby.settings.start_points)
    except NameTaken:
        raise ApiError("name_taken", f"the name {name!r} is taken", 409) from None
    return await session_response(request, user, 201)


@endpoint
async def login(request: Request) -> Response:
    check_rate(request)
    data = await body(request)
    name = field(data, "name", str).strip()
    password = field(data, "password", str)
    lobby = lobby_of(request)
    found = await lobby.store.login_info(name)
    if found is None or found[1] is None or not await auth.verify_password(found[1], password):
        raise ApiError("bad_login", "wrong name or password", 401)
    user, pw_hash = found
    if pw_hash is not None and auth.needs_rehash(pw_hash):
        await lobby.store.set_password_hash(user.id, await auth.hash_password(password))
    return await session_response(request, user)


@endpoint
async def guest(request: Request) -> Response:
    check_rate(request)
    lobby = lobby_of(request)
    for _ in range(5):
        try:
            user = await lobby.store.create_user(
                auth.guest_name(), None, is_guest=True, points=lobby.settings.guest_points
            )
            break
        except NameTaken:
            continue
    else:
        raise ApiError("server_busy", "could not make a guest name; try again", 503)
    return await session_response(request, user, 201)


@endpoint
async def logout(request: Request) -> Response:
    token = auth.token_from(request.headers, request.cookies, {})
    if token:
        await lobby_of(request).store.drop_token(auth.token_hash(token))
    resp = JSONResponse({"ok": True})
    resp.delete_cookie(auth.COOKIE, path="/")
    return resp


@endpoint
async def me(request: Request) -> Response:
    user = await need_user(request)
    return JSONResponse(profile(lobby_of(request), user))


@endpoint
async def user_profile(request: Request) -> Response:
    await need_user(request)
    try:
        uid = int(request.path_params["user_id"])
    except ValueError:
        raise ApiError("bad_request", "a user id is a number") from None
    u = await lobby_of(request).store.user(uid)
    if u is None:
        raise ApiError("unknown_user", f"no user {uid}", 404)
    return JSONResponse(u.public())


def _int_param(request: Request, name: str, default: int | None, lo: int, hi: int) -> int | None:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        v = int(raw)
    except ValueError:
        raise ApiError("bad_request", f"{name} must be a whole number") from None
    if not lo <= v <= hi:
        raise ApiError("bad_request", f"{name} must be between {lo} and {hi}")
    return v


@endpoint
async def leaderboard(request: Request) -> Response:
    limit = _int_param(request, "limit", 50, 1, 200) or 50
    offset = _int_param(request, "offset", 0, 0, 10**9) or 0
    users = await lobby_of(request).store.leaderboard(limit, offset)
    return JSONResponse({"users": [{"rank": offset + i + 1, **u.public()} for i, u in enumerate(users)]})


@endpoint
async def history(request: Request) -> Response:
    user = await need_user(request)
    limit = _int_param(request, "limit", 50, 1, 200) or 50
    before = _int_param(request, "before", None, 1, 2**62)
    rows = await lobby_of(request).store.history(user.id, limit, before)
    return JSONResponse({"deals": rows})


async def _played_deal(request: Request) -> tuple[dict[str, Any], int]:
    user = await need_user(request)
    try:
        deal_id = int(request.path_params["deal_id"])
    except ValueError:
        raise ApiError("bad_request", "a deal id is a number") from None
    deal = await lobby_of(request).store.deal(deal_id)
    if deal is None:
        raise ApiError("unknown_deal", f"no deal {deal_id}", 404)
    seats = [i for i, s in enumerate(deal["seats"]) if s.get("user_id") == user.id]
    if not seats:
        raise ApiError("not_your_deal", "you can read the records of deals you played", 403)
    if deal["status"] == "aborted":
        raise ApiError("deal_aborted", "this deal was abandoned unfinished and was not settled", 409)
    if deal["status"] != "over":
        raise ApiError("deal_running", "this deal is not over yet", 409)
    return deal, seats[0]


@endpoint
async def deal_record(request: Request) -> Response:
    deal, seat = await _played_deal(request)
    return JSONResponse({**deal, "you": seat})


@endpoint
async def deal_replay(request: Request) -> Response:
    """The deal step by step: the player's own view after each journaled action (a replay for a viewer)."""
    deal, seat = await _played_deal(request)
    lobby = lobby_of(request)
    factory = lobby.factory(deal["game"])
    game = factory.new(deal["options"], deal["seed"], deal["context"])
    steps: list[dict[str, Any]] = [{"n": 0, "seat": None, "action": None, "observation": game.observe(seat)}]
    for j in await lobby.store.journal(deal["id"]):
        game.apply(j.action, j.seat)
        steps.append({"n": j.n, "seat": j.seat, "action": j.action, "observation": game.observe(seat)})
    return JSONResponse({"deal": deal["id"], "you": seat, "steps": steps})


# --------------------------------------------------------------------------------------------- lobby
@endpoint
async def rooms(request: Request) -> Response:
    return JSONResponse({"rooms": lobby_of(request).room_list()})


@endpoint
async def tables(request: Request) -> Response:
    return JSONResponse({"tables": lobby_of(request).public_tables()})


@endpoint
async def table_info(request: Request) -> Response:
    user = await need_user(request)
    t = lobby_of(request).table(request.path_params["table_id"])
    seat = t.seat_of(user.id)
    if t.info.private and seat is None:
        raise ApiError("private_table", "this table is private", 403)
    return JSONResponse(t.table_view(seat))


def _seated(lobby: Lobby, user_id: int, table_id: str, seat: int) -> JSONResponse:
    t = lobby.tables[table_id]
    lobby.announce_seat(user_id, t, seat, None, None)
    return JSONResponse({"table": table_id, "seat": seat, "invite_code": t.info.invite_code})


@endpoint
async def quick_match(request: Request) -> Response:
    user = await need_user(request)
    data = await body(request)
    lobby = lobby_of(request)
    t, seat = await lobby.quick_match(user.id, field(data, "room", str))
    return _seated(lobby, user.id, t.id, seat)


@endpoint
async def create_table(request: Request) -> Response:
    user = await need_user(request)
    data = await body(request)
    lobby = lobby_of(request)
    fill = data.get("fill_bots_after")
    if fill is not None and (isinstance(fill, bool) or not isinstance(fill, int | float) or not 0 <= fill <= 3600):
        raise ApiError("bad_request", "fill_bots_after is a number of seconds (0..3600) or null")
    t, seat = await lobby.create_private(
        user.id,
        field(data, "room", str),
        field(data, "options", dict, required=False) or {},
        None if fill is None else float(fill),
        field(data, "autoplay_bot", str, required=False),
    )
    return _seated(lobby, user.id, t.id, seat)


@endpoint
async def join_table(request: Request) -> Response:
    user = await need_user(request)
    data = await body(request)
    lobby = lobby_of(request)
    t, seat = await lobby.join_invite(user.id, field(data, "invite", str))
    return _seated(lobby, user.id, t.id, seat)


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
async def health(request: Request) -> Response:
    return JSONResponse({"ok": True, **lobby_of(request).stats()})


routes = [
    Route("/api/health", health),
    Route("/api/register", register, methods=["POST"]),
    Route("/api/login", login, methods=["POST"]),
    Route("/api/guest", guest, methods=["POST"]),
    Route("/api/logout", logout, methods=["POST"]),
    Route("/api/me", me),
    Route("/api/users/{user_id}", user_profile),
    Route("/api/leaderboard", leaderboard),
    Route("/api/history", history),
    Route("/api/deals/{deal_id}", deal_record),
    Route("/api/deals/{deal_id}/replay", deal_replay),
    Route("/api/rooms", rooms),
    Route("/api/tables", tables),
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables/join", join_table, methods=["POST"]),
    Route("/api/tables/{table_id}", table_info),
    Route("/api/tables/{table_id}/leave", leave_table, methods=["POST"]),
    Route("/api/tables/{table_id}/bots", fill_bots, methods=["POST"]),
    Route("/api/quick-match", quick_match, methods=["POST"]),
]
