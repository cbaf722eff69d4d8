"""``qipai online URL``: play on a qipai server from the terminal — with friends at a private table or against
bots by quick match — through the server's JSON API and WebSocket protocol (docs/protocol.md).

- **Logging in** (:func:`login`): ``POST /api/login``, ``/api/register`` or ``/api/guest`` over httpx; then the
  WebSocket ``/ws`` opens with ``Authorization: Bearer <token>``.  A wrong address, an unreachable server, a wrong
  password or a taken name is a :class:`LoginError` (one line).
- **The lobby**: ``rooms`` (and the public tables one may watch), ``tables``, ``quick ROOM``, ``create ROOM`` (a
  private table: its invite code is printed), ``join CODE`` (``join`` alone: the latest invitation), ``watch TABLE
  [CODE]`` (观战: ``spectate``), ``me``, ``top [GAME] [week|month]`` (排行榜: the first ten of the all-time board,
  周榜 or 月榜, and your place; anywhere), ``help``, ``quit``.
- **Friends** (好友, :mod:`.friends`), in the lobby and at a table: ``friends``, ``friend NAME``, ``accept NAME``,
  ``decline NAME``, ``unfriend NAME``, ``block NAME`` (拉黑), ``unblock NAME``, ``invite NAME`` (to the private
  table one sits at); requests, acceptances, removals and invitations are one line each as they come.
- **The table**: each ``state`` message brings this seat's observation; the game's view
  (:mod:`.doudizhu`, :mod:`.shengji`, :mod:`.mahjong`) prints the other seats' moves as they happen, draws the
  table at your turn and reads what you type into one of the legal actions the server sent, which goes back as an
  ``action`` with the state's ``deal``, ``version`` and ``decision``.  ``auto`` (托管), ``say`` (quick chat),
  ``seats``, ``bots``, ``leave``; between deals Enter is 准备 (``ready``).  The server's errors are worded from
  their codes (:mod:`.words`).
- **Watching** (观战): the table as the server shows it to a spectator (no hand, no turn); what would act is
  refused with one line, ``leave`` (``unspectate``) goes back to the lobby.
- **A dropped connection** is opened again after 0.5, 1, 2, 4 … s (:data:`RETRY_DELAYS`, for
  :attr:`OnlineOptions.reconnect_for` seconds in all) with the same token; the server's ``welcome`` and
  ``snapshot`` put the client back at its seat (or the table it watched), the table is drawn again and play goes
  on.  When it cannot: one line and exit code 1.
- Reading the network never waits for the keyboard: typed lines come from a thread (:class:`StdinLines`), so
  other players' moves show while you are at the prompt.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import IO, Any, Protocol
from urllib.parse import quote, urlencode, urlsplit, urlunsplit

import httpx
from rich.console import Console, RenderableType
from rich.text import Text

from ..explain import heading, rules_renderables, section_json
from ..reader import LineReader
from .base import GameView, Seats
from .friends import Friends
from .words import PHRASES, display_name, error_words, phrase_words, title_words, tr

GAME_WORDS = {
    "doudizhu": ("斗地主", "Dou Dizhu"),
    "shengji": ("升级", "Shengji"),
    "mahjong": ("麻将", "mahjong"),
}

_LEAVE = ("leave", "离开", "逃跑")
_QUIT = ("quit", "q", "exit", "退出")
_AUTO = ("auto", "autoplay", "托管", "解除托管")
_SAY = ("say", "chat", "快捷语")
_HELP = ("help", "?", "？", "帮助")
_READY = ("ready", "r", "准备")
_YES = ("y", "yes", "是", "确定", "好")
_WATCH = ("watch", "spectate", "观战")
_TABLES = ("tables", "牌桌")
_JOIN = ("join", "加入")
_RULES = ("rules", "规则", "玩法", "玩法说明")
_TOP = ("top", "leaderboard", "排行", "排行榜")
_PERIOD_WORDS = {"week": ("week", "weekly", "周", "周榜", "本周"), "month": ("month", "monthly", "月", "月榜", "本月"),
                 "all": ("all", "总", "总榜")}
"""``top``'s period words → the period of ``GET /api/leaderboard``."""

TOP_ROWS = 10
"""The rows ``top`` shows of a leaderboard."""

RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0)
"""Seconds before each try to open a dropped connection again (the last repeats)."""
_SESSION_GONE = {4401: "unauthorized", 4403: "bad_origin"}
"""Close codes after which trying again cannot help (the session or the origin was refused)."""


class LoginError(Exception):
    """The client could not log in or connect: the one line to print."""


@dataclass
class OnlineOptions:
    """How ``qipai online`` logs in."""

    url: str
    name: str | None = None
    password: str | None = None
    guest: bool = False
    register: bool = False
    lang: str = "en"
    timeout: float = 10.0
    """Seconds an HTTP request or the WebSocket's opening may take."""
    stdin: LineReader | None = None
    """The reader of standard input, when something (``--password-stdin``) read from it already."""
    reconnect_for: float = 30.0
    """Seconds to go on trying to open a dropped connection again (0: never try)."""


def server_urls(url: str) -> tuple[str, str]:
    """The server's HTTP base and WebSocket address from what the player typed (``host:port``, ``http://…``,
    ``ws://…``); a :class:`LoginError` when it is no server address.

    >>> server_urls("localhost:8000")
    ('http://localhost:8000', 'ws://localhost:8000/ws')
    >>> server_urls("https://qipai.example/play/")
    ('https://qipai.example/play', 'wss://qipai.example/play/ws')
    >>> server_urls("ftp://x")
    Traceback (most recent call last):
    ...
    qipai.tui.online.client.LoginError: 'ftp://x' is not a server address: give http://HOST:PORT (or https://…)
    """
    text = url.strip()
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - a bad port raises here
    except ValueError:
        raise LoginError(f"{url!r} is not a server address: give http://HOST:PORT (or https://…)") from None
    scheme = {"http": "http", "https": "https", "ws": "http", "wss": "https"}.get(parts.scheme.lower())
    if scheme is None or not parts.hostname or parts.query or parts.fragment:
        raise LoginError(f"{url!r} is not a server address: give http://HOST:PORT (or https://…)")
    path = parts.path.rstrip("/")
    if path.endswith("/ws"):
        path = path[:-3]
    base = urlunsplit((scheme, parts.netloc, path, "", ""))
    ws = urlunsplit(("wss" if scheme == "https" else "ws", parts.netloc, path + "/ws", "", ""))
    return base, ws


def _error_of(r: httpx.Response) -> tuple[str, dict[str, Any]] | None:
    """The ``{"error": {"code", "params"}}`` of a response, or ``None`` when it has none."""
    try:
        body = r.json()
    except ValueError:
        return None
    err = body.get("error") if isinstance(body, dict) else None
    if not isinstance(err, dict) or not isinstance(err.get("code"), str):
        return None
    params = err.get("params")
    return err["code"], params if isinstance(params, dict) else {}


async def login(opts: OnlineOptions, http: httpx.AsyncClient) -> tuple[dict[str, Any], str]:
    """Log in (or register, or start a guest session) on the server of ``http``'s base URL: ``(user, token)``.
    Every failure is a :class:`LoginError` with one line in the options' language."""
    base = str(http.base_url).rstrip("/")
    if opts.guest:
        path, body = "/api/guest", {}
    else:
        path = "/api/register" if opts.register else "/api/login"
        body = {"name": opts.name or "", "password": opts.password or ""}
    zh = opts.lang == "zh"
    try:
        r = await http.post(path, json=body)
    except (httpx.ConnectError, httpx.ConnectTimeout) as e:
        raise LoginError(f"连不上服务器 {base}：{_reason(e)}" if zh
                         else f"cannot reach the server at {base}: {_reason(e)}") from None
    except httpx.TimeoutException:
        raise LoginError(f"服务器 {base} 没有回应（等了 {opts.timeout:g} 秒）" if zh
                         else f"the server at {base} does not answer (waited {opts.timeout:g} s)") from None
    except httpx.HTTPError as e:
        raise LoginError(f"无法和服务器 {base} 通信：{_reason(e)}" if zh
                         else f"cannot talk to the server at {base}: {_reason(e)}") from None
    if r.status_code in (200, 201):
        try:
            data = r.json()
            return dict(data["user"]), str(data["token"])
        except (ValueError, KeyError, TypeError):
            pass
    err = _error_of(r)
    if err is None or err[0] == "not_found":
        raise LoginError(f"{base} 看起来不是 qipai 服务器（{path} 回答 HTTP {r.status_code}）" if zh
                         else f"{base} does not look like a qipai server (HTTP {r.status_code} from {path})")
    return_words = error_words(opts.lang, err[0], err[1])
    raise LoginError(return_words)


def _reason(e: BaseException) -> str:
    text = str(e).strip() or type(e).__name__
    return text.splitlines()[0][:200]


class LineSource(Protocol):
    """Where typed lines come from."""

    async def readline(self) -> str:
        """The next line (without its end); raises :class:`EOFError` at the end of input."""
        ...


class StdinLines:
    """Lines of standard input, read in a thread of their own so that the event loop (the network) never waits
    for the keyboard."""

    def __init__(self, stream: IO[str] | None = None, reader: LineReader | None = None) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.loop = asyncio.get_running_loop()
        self.reader = reader or LineReader(stream)
        self.typed: Callable[[], None] | None = None
        """Called in the event loop as each line arrives (the Enter that ended it moved the cursor off the
        prompt's line), before the line is read."""
        threading.Thread(target=self._pump, name="qipai-stdin", daemon=True).start()

    def _pump(self) -> None:
        while True:
            line: str | None
            try:
                line = self.reader.readline()
            except (EOFError, OSError, ValueError):
                line = None
            try:
                self.loop.call_soon_threadsafe(self._arrived, line)
            except RuntimeError:  # the loop closed: the client is gone
                return
            if line is None:
                return

    def _arrived(self, line: str | None) -> None:
        if line is not None and self.typed is not None:
            self.typed()
        self.queue.put_nowait(line)

    async def readline(self) -> str:
        """The next typed line."""
        line = await self.queue.get()
        if line is None:
            raise EOFError
        return line


class QueueLines:
    """Lines fed by a program (tests): :meth:`feed` a line, :meth:`close` for the end of input."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.typed: Callable[[], None] | None = None
        """Called as each line is fed (as :attr:`StdinLines.typed`)."""

    def feed(self, line: str) -> None:
        """Type ``line`` (and Enter)."""
        if self.typed is not None:
            self.typed()
        self.queue.put_nowait(line)

    def close(self) -> None:
        """End the input."""
        self.queue.put_nowait(None)

    async def readline(self) -> str:
        """The next fed line."""
        line = await self.queue.get()
        if line is None:
            raise EOFError
        return line


def make_view(game: str, lang: str, seats: Seats) -> GameView:
    """The terminal view of ``game`` (a plain one, reading the legal actions as typed, for a game without)."""
    if game == "doudizhu":
        from .doudizhu import DouDizhuView

        return DouDizhuView(lang, seats)
    if game == "shengji":
        from .shengji import ShengjiView

        return ShengjiView(lang, seats)
    if game == "mahjong":
        from .mahjong import MahjongView

        return MahjongView(lang, seats)
    return GameView(lang, seats)


class OnlineClient:
    """One terminal player on a server: the lobby, a table, and the loop that joins the keyboard and the
    WebSocket."""

    def __init__(self, opts: OnlineOptions, console: Console | None = None, lines: LineSource | None = None) -> None:
        self.opts = opts
        self.lang = opts.lang
        self.console = console or Console(highlight=False, markup=False, emoji=False)
        self.lines = lines
        self.base, self.ws_url = server_urls(opts.url)
        self.http: httpx.AsyncClient | None = None
        self.ws: Any = None
        self.token = ""
        self.user: dict[str, Any] = {}
        self.next_id = 0
        # the table
        self.table: dict[str, Any] | None = None
        self.seat: int | None = None
        self.view: GameView | None = None
        self.seats = Seats([], 0, [])
        self.state: dict[str, Any] | None = None
        self.state_at = 0.0
        self.deal: int | None = None
        self.turn_key: tuple[int, int] | None = None
        self.auto = False
        self.confirm: str | None = None
        self.ready: list[bool | None] | None = None
        self.taken = False
        """Another window of this account controls the seat (``taken_over``): this one only watches until
        ``takeover``."""
        # the screen
        self.prompt_shown: str | None = None
        """The prompt on the screen's last line, the cursor after it (``None``: the cursor starts a line)."""
        self.enter_seen = False
        """The line source says when each Enter comes (:meth:`typed`), not only when its line is read."""
        self.pending: set[asyncio.Future[None]] = set()
        self.hold_prompt = False
        """An action was sent: the prompt waits for the server's answer."""
        self.deal_no = 0
        self.exit_code = 0
        self.done = False
        # watching a table (观战)
        self.watching: str | None = None
        """The table this window watches (its ``snapshot`` came), or ``None``."""
        self.watch_ask: str | None = None
        """The table a ``spectate`` was sent for, until its snapshot or error comes."""
        self.watch_invite: str | None = None
        self.watch_ref: int | None = None
        # plays checked by the server first (``check``) before they are sent: ref → (action message, turn)
        self.checks: dict[int, tuple[dict[str, Any], tuple[int, int]]] = {}
        # the connection
        self.seq = 0
        """The ``seq`` of the last message on this connection (a gap asks for a snapshot)."""
        self.offline = False
        """The connection dropped and is being opened again."""
        self.resuming = False
        """A new connection after a drop: its ``welcome`` puts the client back where it was."""
        self.redraw_next = False
        """The next snapshot draws the table again (after a reconnection)."""
        self.retry_since: float | None = None
        """When the connection dropped (``None`` once a new one said ``welcome``): the tries' time runs from it."""
        self.retries = 0
        self.session_over = False
        """The server ended the session (``closed_session``): trying again cannot help."""
        self.friends = Friends(self)
        """好友: the friends commands and the ``friend`` messages."""
        self.greeted = False

    # ------------------------------------------------------------------ output
    def emit(self, item: RenderableType | str, style: str = "") -> None:
        """Print a line or a renderable (a prompt on the screen is ended first)."""
        if self.prompt_shown is not None:
            self.console.print()
            self.prompt_shown = None
        self.console.print(Text(item, style=style) if isinstance(item, str) else item)

    def error(self, msg: str) -> None:
        """One line saying what went wrong."""
        self.emit(msg, style="bold red")

    def show_prompt(self) -> None:
        """Show the prompt for what the client waits for now (unless it is on the screen already)."""
        if self.done or self.hold_prompt:
            return
        p = self.prompt_text()
        if p == self.prompt_shown:
            return
        if self.prompt_shown is not None:
            self.console.print()
        self.console.print(Text(p), end="")
        self.console.file.flush()
        self.prompt_shown = p

    def prompt_text(self) -> str:
        """What the prompt says now."""
        lang = self.lang
        if self.confirm == "leave":
            return tr(lang, "leave_confirm")
        if self.offline:
            return tr(lang, "offline_prompt") + " > "
        if self.table is None:
            return tr(lang, "lobby_prompt") + " > "
        if self.watching is not None:
            return tr(lang, "spectator_prompt", table=self.table.get("id")) + " > "
        if self.taken:
            return tr(lang, "taken_prompt") + " > "
        st = self.state
        if st is not None and self.view is not None and st.get("phase") != "over":
            if self.auto:
                return tr(lang, "auto_prompt") + " > "
            if st.get("your_turn"):
                p = self.view.prompt(st)
                if st.get("deadline_ms") is not None:
                    left = st["deadline_ms"] / 1000 - (time.monotonic() - self.state_at)
                    p += tr(lang, "deadline", s=max(0, round(left)))
                return p + " > "
            acting = [s for s in st.get("acting") or [] if s != self.seat]
            who = self.seats.names[acting[0]] if acting and acting[0] < len(self.seats.names) else "…"
            return tr(lang, "watch_prompt", name=who) + " > "
        if self.table.get("ready") is not None:
            return tr(lang, "between_prompt") + " > "
        return tr(lang, "waiting_prompt") + " > "

    # ------------------------------------------------------------------ the session
    async def open_socket(self, timeout: float) -> Any:
        """Open the WebSocket with the session's token (``websockets``' errors pass through)."""
        from websockets.asyncio.client import connect

        return await connect(self.ws_url, additional_headers={"Authorization": f"Bearer {self.token}"},
                             max_size=2**22, open_timeout=timeout)

    async def run(self) -> int:
        """Log in, connect and play until ``quit``, the end of input or the connection's end (after the tries to
        open it again).  Returns the exit code; a :class:`LoginError` when logging in or connecting fails."""
        from websockets.exceptions import InvalidHandshake, InvalidStatus, InvalidURI

        async with httpx.AsyncClient(base_url=self.base, timeout=self.opts.timeout) as http:
            self.http = http
            self.user, self.token = await login(self.opts, http)
            http.headers["Authorization"] = f"Bearer {self.token}"
            kind = tr(self.lang, "guest" if self.user.get("is_guest") else "registered")
            self.emit(tr(self.lang, "logged_in", name=display_name(str(self.user.get("name")), self.lang),
                         kind=kind), style="bold")
            try:
                self.ws = await self.open_socket(self.opts.timeout)
            except InvalidStatus as e:
                raise LoginError(f"the server refused the WebSocket at {self.ws_url} "
                                 f"(HTTP {e.response.status_code})") from None
            except (InvalidHandshake, InvalidURI, OSError, TimeoutError) as e:
                raise LoginError(f"cannot open the WebSocket at {self.ws_url}: {_reason(e)}") from None
            if self.lines is None:
                self.lines = StdinLines(reader=self.opts.stdin)
            if isinstance(self.lines, (StdinLines, QueueLines)):
                self.lines.typed = self.typed
                self.enter_seen = True
            try:
                net = asyncio.create_task(self.read_network())
                keys = asyncio.create_task(self.read_keyboard())
                await asyncio.wait({net, keys}, return_when=asyncio.FIRST_COMPLETED)
                for t in (net, keys):
                    if not t.done():
                        t.cancel()
                        with contextlib.suppress(asyncio.CancelledError):
                            await t
                    elif (exc := t.exception()) is not None:
                        raise exc
            finally:
                self.done = True
                for fut in list(self.pending):
                    fut.cancel()
                await self.ws.close()
        if self.prompt_shown is not None:
            self.console.print()
            self.prompt_shown = None
        self.console.print(Text(tr(self.lang, "bye")))
        return self.exit_code

    async def read_network(self) -> None:
        """Handle every server message; when the connection drops, open it again (:meth:`reconnect`) and go on,
        until ``quit`` or it cannot (then one line and exit code 1)."""
        while True:
            await self.read_socket()
            if self.done:
                return
            code = getattr(self.ws, "close_code", None)
            if self.session_over:  # (``closed_session`` said why)
                self.exit_code = 1
                return
            if code in _SESSION_GONE:
                self.emit(tr(self.lang, "reconnect_refused", why=error_words(self.lang, _SESSION_GONE[code])),
                          style="bold red")
                self.exit_code = 1
                return
            if self.opts.reconnect_for <= 0:
                self.emit(tr(self.lang, "connection_lost"), style="bold red")
                self.exit_code = 1
                return
            if not await self.reconnect():
                self.exit_code = 1
                return

    async def read_socket(self) -> None:
        """Handle the messages of the open connection until it closes."""
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.ws:
                try:
                    msg = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(msg, dict):
                    self.hold_prompt = False
                    self.check_seq(msg)
                    self.handle(msg)
                    self.show_prompt()
        except ConnectionClosed:
            pass

    def check_seq(self, msg: Mapping[str, Any]) -> None:
        """Messages are numbered 1, 2, 3 … on a connection: after a gap the table is asked for again."""
        seq = msg.get("seq")
        if not isinstance(seq, int):
            return
        if self.seq and seq != self.seq + 1 and self.table is not None:
            self.soon({"type": "snapshot", "table": self.table["id"]})
        self.seq = seq

    async def reconnect(self) -> bool:
        """Open the dropped connection again with the same token, after 0.5, 1, 2, 4 … s (one line a try), for
        :attr:`OnlineOptions.reconnect_for` seconds from the drop; whether it is open again.  Its ``welcome``
        and ``snapshot`` then resume the table (:meth:`resume`)."""
        from websockets.exceptions import InvalidHandshake, InvalidStatus, InvalidURI

        lang = self.lang
        budget = self.opts.reconnect_for
        self.offline = True
        self.hold_prompt = False
        self.checks.clear()
        self.emit(tr(lang, "connection_retry"), style="bold yellow")
        if self.retry_since is None:  # (a connection that dropped before its welcome goes on with the same tries)
            self.retry_since = time.monotonic()
            self.retries = 0
        while not self.done:
            left = budget - (time.monotonic() - self.retry_since)
            if left <= 0:
                break
            wait = min(RETRY_DELAYS[min(self.retries, len(RETRY_DELAYS) - 1)], left)
            self.retries += 1
            self.emit(tr(lang, "reconnect_try", n=self.retries, s=round(wait, 1)), style="yellow")
            self.show_prompt()
            await asyncio.sleep(wait)
            left = budget - (time.monotonic() - self.retry_since)
            try:
                ws = await self.open_socket(max(1.0, min(self.opts.timeout, left)))
            except InvalidStatus as e:
                if e.response.status_code in (401, 403):
                    self.emit(tr(lang, "reconnect_refused", why=f"HTTP {e.response.status_code}"), style="bold red")
                    return False
                continue
            except (InvalidHandshake, InvalidURI, OSError, TimeoutError):
                continue
            self.ws = ws
            self.seq = 0
            self.offline = False
            self.resuming = True
            self.emit(tr(lang, "reconnected"), style="bold green")
            return True
        if not self.done:
            self.emit(tr(lang, "reconnect_gave_up", s=budget), style="bold red")
        return False

    def resume(self, welcome: Mapping[str, Any]) -> None:
        """The ``welcome`` of a new connection after a drop: the table it names sends its ``snapshot`` next
        (drawn again); a table watched is asked for again; a seat that is gone (the table closed, or the
        player was let go between deals) is said, and the client is back in the lobby."""
        table = welcome.get("table")
        self.taken = False  # (the newest connection of an account controls its seat: this one now)
        if self.watching is not None and not table:
            self.redraw_next = True
            self.later(self.ask_watch(self.watching, self.watch_invite))
            return
        if self.table is not None and table != self.table.get("id"):
            if self.watching is None:
                self.emit(tr(self.lang, "seat_gone"), style="yellow")
            self.to_lobby()
        self.redraw_next = table is not None

    async def ask_watch(self, table: str, invite: str | None) -> None:
        """``spectate``: watch ``table`` (``invite``: a private table's code); its ``snapshot`` or error answers."""
        msg: dict[str, Any] = {"type": "spectate", "table": table}
        if invite:
            msg["invite"] = invite
        self.watch_ask, self.watch_invite = table, invite
        self.watch_ref = self.next_id + 1  # (the id :meth:`send` gives it: nothing runs in between)
        await self.send(msg)

    def soon(self, msg: dict[str, Any]) -> None:
        """Send ``msg`` from a message handler (which cannot wait)."""
        self.later(self.send(msg))

    def later(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` from a message handler (which cannot wait)."""
        self.pending.add(t := asyncio.ensure_future(coro))
        t.add_done_callback(self.pending.discard)

    async def read_keyboard(self) -> None:
        """Handle every typed line until ``quit`` or the end of input."""
        assert self.lines is not None
        self.show_prompt()
        while not self.done:
            try:
                line = await self.lines.readline()
            except EOFError:
                return
            if not self.enter_seen:
                self.prompt_shown = None  # the Enter moved the cursor to a new line
            await self.on_line(line)
            self.show_prompt()

    def typed(self) -> None:
        """A line was typed (its Enter moved the cursor to a new line): the prompt is no longer on the screen's
        last line.  Said as the Enter comes, not when the line is read: a notice printed in between shows the
        prompt again, and a line read after it must not show it a second time (``lobby > lobby > ``)."""
        self.prompt_shown = None

    async def send(self, msg: dict[str, Any]) -> int | None:
        """Send a client message with an ``id`` of its own; the id, or ``None`` when it could not go (the
        connection is being opened again: a line says so)."""
        if self.offline or self.ws is None:
            self.error(tr(self.lang, "offline"))
            return None
        self.next_id += 1
        ref = self.next_id
        try:
            await self.ws.send(json.dumps({**msg, "id": ref}))
        except Exception:
            return None
        return ref

    # ------------------------------------------------------------------ server messages
    def handle(self, m: Mapping[str, Any]) -> None:
        """One server message."""
        kind = m.get("type")
        lang = self.lang
        if kind == "welcome":
            self.user.update(m.get("user") or {})
            self.retry_since = None
            if self.resuming:
                self.resuming = False
                self.resume(m)
            elif m.get("table"):
                self.emit(tr(lang, "welcome_table"))
            else:
                self.emit(tr(lang, "lobby_help"), style="dim")
            if not self.greeted:
                self.greeted = True
                self.later(self.friends.greet())
        elif kind == "joined":
            if self.watching is not None or (self.table is not None and self.table.get("id") != m["table"]):
                self.to_lobby(quiet=True)
            self.watch_ask = None
            self.friends.joined(m["table"])
            self.seat = int(m["seat"])
            self.table = {"id": m["table"], "seats": [], "ready": None, "game": ""}  # (its snapshot follows and
            # says the invite code)
        elif kind == "snapshot":
            self.on_snapshot(m)
        elif kind == "table":
            if self.table is not None and m["table"]["id"] == self.table.get("id"):
                self.set_table(m["table"], announce=False)
        elif kind == "state":
            if self.table is not None and m.get("table") == self.table.get("id"):
                self.on_state(dict(m), fresh=False)
        elif kind == "deal_over":
            self.on_deal_over(m)
        elif kind == "chat":
            seat = m.get("seat")
            name = self.seats.names[seat] if isinstance(seat, int) and seat < len(self.seats.names) else "?"
            seats = (self.table or {}).get("seats") or []
            who = seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else None
            if isinstance(who, dict) and who.get("user_id") in self.friends.blocked:
                return  # 拉黑: a blocked player's quick chat is muted
            self.emit(tr(lang, "chat", name=name, text=phrase_words(str(m.get("phrase")), lang)), style="cyan")
        elif kind == "left":
            reason = m.get("reason")
            if reason == "leaving_after_deal":
                self.emit(tr(lang, "leaving_after"), style="yellow")
            elif reason == "unspectated":
                if self.watching is not None and m.get("table") == self.watching:
                    self.emit(tr(lang, "unwatched"), style="yellow")
                    self.to_lobby()
            else:
                self.emit(tr(lang, "left") if reason == "left" else tr(lang, "removed", reason=reason), style="yellow")
                self.to_lobby()
        elif kind == "closed":
            if self.table is not None and m.get("table") == self.table.get("id"):
                if m.get("reason") == "finished" and isinstance(m.get("summary"), dict):
                    self.final_summary(m["summary"])
                    self.emit(tr(lang, "final_closed"), style="yellow")
                else:
                    self.emit(tr(lang, "closed", reason=m.get("reason")), style="yellow")
                self.to_lobby()
        elif kind == "error":
            self.on_error(m)
        elif kind == "notice":
            key = "notice_" + str(m.get("code"))
            if key in ("notice_storage_unavailable", "notice_storage_restored"):
                self.emit(tr(lang, key), style="yellow")
        elif kind == "taken_over":
            self.taken = True
            self.emit(tr(lang, "taken_over"), style="yellow")
        elif kind == "took_over":
            self.taken = False
            self.turn_key = None  # the snapshot that follows draws the turn again
            self.emit(tr(lang, "took_over"), style="green")
        elif kind == "closed_session":
            self.emit(tr(lang, "session_closed", reason=m.get("reason")), style="bold red")
            self.session_over = True
            self.exit_code = 1
        elif kind == "checked":
            self.on_checked(m)
        elif kind == "account":
            self.user.update(m.get("user") or {})
        elif kind == "friend":
            self.friends.on_message(m)

    def on_error(self, m: Mapping[str, Any]) -> None:
        """A refused message: the error in words (a rule's refusal with the game's reason)."""
        code = str(m.get("code"))
        params = m.get("params") or {}
        if code == "stale" and self.table is not None:
            self.turn_key = None
            self.soon({"type": "snapshot", "table": self.table["id"]})
            return
        if self.watch_ref is not None and m.get("ref") == self.watch_ref:  # ``spectate`` refused
            self.watch_ask = self.watch_ref = None
            if self.watching is not None:  # (asked again after a reconnection)
                self.emit(tr(self.lang, "watch_gone"), style="yellow")
                self.to_lobby()
        elif isinstance(m.get("ref"), int) and self.checks.pop(m["ref"], None) is not None:
            self.turn_key = None  # a ``check`` refused (not your turn any more …): the turn is drawn again
        msg = error_words(self.lang, code, params)
        if code == "illegal_action" and self.view is not None:
            why = self.view.refusal(params)
            if why:
                msg = why
        self.error(tr(self.lang, "refused", msg=msg))
        if code in ("illegal_action", "not_your_turn"):
            self.turn_key = None  # ask again

    def on_snapshot(self, m: Mapping[str, Any]) -> None:
        """The whole table (on sitting down, watching, reconnecting or asking): drawn at once when it is a
        table just watched or the table after a reconnection."""
        view = m["table"]
        spectator = view.get("you") is None
        if spectator:
            if view["id"] == self.watch_ask:
                if self.watching != view["id"] and self.table is not None:
                    self.to_lobby(quiet=True)
                self.watching, self.watch_ask = view["id"], None
            elif view["id"] != self.watching:
                return  # (a table this window neither sits at nor asked to watch)
        first = self.table is None or self.table.get("id") != view["id"] or not self.table.get("game")
        redraw = self.redraw_next or (first and spectator)
        self.redraw_next = False
        self.set_table(view, announce=first)
        if m.get("state") is not None:
            self.on_state(m["state"], fresh=True, redraw=redraw)
        else:
            self.state = None

    def on_checked(self, m: Mapping[str, Any]) -> None:
        """The server's answer to a ``check`` of a typed play: a legal one is sent now (if the turn is still
        open), an illegal one is the rules' reason in one line."""
        ref = m.get("ref")
        pending = self.checks.pop(ref, None) if isinstance(ref, int) else None
        if pending is None:
            return
        msg, key = pending
        if not m.get("legal"):
            why = self.view.refusal({"reason": m.get("reason")}) if self.view is not None else None
            self.error(why or tr(self.lang, "refused", msg=error_words(self.lang, "illegal_action")))
            return
        st = self.state
        if st is None or self.turn_of(st) != key or not st.get("your_turn") or self.auto or self.taken:
            return  # the turn moved on meanwhile
        self.soon(msg)
        self.hold_prompt = True

    @staticmethod
    def turn_of(st: Mapping[str, Any]) -> tuple[int, int]:
        """The decision a state asks for: ``(deal, decision)`` (the version when it names no decision)."""
        decision = st.get("decision")
        return int(st.get("deal") or 0), int(decision if decision is not None else st.get("version") or 0)

    def to_lobby(self, quiet: bool = False) -> None:
        """Back in the lobby: no table any more (nor one watched)."""
        self.table = None
        self.seat = None
        self.state = None
        self.view = None
        self.deal = None
        self.confirm = None
        self.auto = False
        self.taken = False
        self.watching = self.watch_ask = None
        self.redraw_next = False
        self.checks.clear()
        if not quiet:
            self.emit(tr(self.lang, "in_lobby"), style="dim")

    def set_table(self, view: Mapping[str, Any], announce: bool) -> None:
        """A table view (§4.3): the seats' names and points, who is ready."""
        lang = self.lang
        old = [s.get("name") if s else None for s in (self.table or {}).get("seats") or []]
        self.table = dict(view)
        if view.get("you") is not None:
            self.seat = int(view["you"])
        me = self.seat if self.seat is not None else -1
        names: list[str] = []
        points: list[int | None] = []
        for i, s in enumerate(view.get("seats") or []):
            if s is None:
                names.append(tr(lang, "seat_empty"))
                points.append(None)
            else:
                names.append(("你" if lang == "zh" else "You") if i == me else display_name(str(s["name"]), lang))
                points.append(s.get("points"))
        self.seats.names[:] = names
        self.seats.points[:] = points
        self.seats.me = me
        game = str(view.get("game"))
        if self.view is None or self.view.game != game:
            self.view = make_view(game, lang, self.seats)
        if announce:
            game_word = GAME_WORDS.get(game, (game, game))[0 if lang == "zh" else 1]
            if self.watching is not None:
                self.emit(tr(lang, "watching", table=view["id"], game=game_word, room=view.get("room") or "-"),
                          style="bold")
            else:
                self.emit(tr(lang, "joined", table=view["id"], game=game_word, room=view.get("room") or "-",
                             seat=me), style="bold")
            if view.get("for_points") is False:  # its stake moves no one's points
                self.emit(tr(lang, "no_points"), style="bold")
            if view.get("invite_code"):
                self.emit(tr(lang, "invite", code=view["invite_code"]), style="bold green")
            if view.get("deals_total"):
                self.emit(tr(lang, "deals_table", total=view["deals_total"]))
        new = [s.get("name") if s else None for s in view.get("seats") or []]
        if announce or new != old:
            self.emit(self.seats_line())
        ready = view.get("ready")
        if ready is not None and self.ready is not None and len(ready) == len(self.ready):
            for i, (was, now) in enumerate(zip(self.ready, ready, strict=True)):
                if now and not was and i != me and i < len(names):
                    self.emit(tr(lang, "is_ready", name=names[i]), style="dim")
        self.ready = list(ready) if ready is not None else None

    def seats_line(self) -> Text:
        """``Seats: 0 You · 1 Bot 1 (bot) · 2 (empty)``."""
        lang = self.lang
        parts = []
        for i, s in enumerate((self.table or {}).get("seats") or []):
            if s is None:
                parts.append(f"{i} {tr(lang, 'seat_empty')}")
                continue
            tags = []
            if s.get("bot"):
                tags.append(tr(lang, "tag_bot"))
            elif not s.get("connected"):
                tags.append(tr(lang, "tag_away"))
            name = self.seats.names[i] if i < len(self.seats.names) else str(s.get("name"))
            pts = s.get("points")
            extra = f" {pts}" if pts is not None and not s.get("bot") else ""
            parts.append(f"{i} {name}{extra}" + (f" ({', '.join(tags)})" if tags else ""))
        return Text(tr(lang, "seats", seats=" · ".join(parts)))

    def on_state(self, st: dict[str, Any], fresh: bool, redraw: bool = False) -> None:
        """A state of the running deal: the new public events, and the table at this seat's turn (``redraw``:
        the table now in any case — a table just watched, or after a reconnection)."""
        view = self.view
        if view is None or self.table is None:
            return
        if st.get("deal") != self.deal:
            self.deal = st.get("deal")
            self.turn_key = None
            view.begin(st, fresh and int(st.get("version") or 0) > 0)
            self.deal_no = n = int(self.table.get("deal_index") or 0) + 1
            if self.prompt_shown is not None:
                self.console.print()
                self.prompt_shown = None
            total = self.table.get("deals_total")
            self.console.rule(Text(tr(self.lang, "deal_start_of", n=n, total=total) if total
                                   else tr(self.lang, "deal_start", n=n)))
        self.state = st
        self.state_at = time.monotonic()
        for line in view.events(st):
            self.emit(line)
        me = self.seat
        auto = st.get("autoplay") or []
        mine = bool(me is not None and me < len(auto) and auto[me])
        if mine != self.auto:
            self.auto = mine
            self.emit(tr(self.lang, "auto_on" if mine else "auto_off"), style="cyan")
        mine_now = bool(st.get("your_turn") and not self.auto and not self.taken)
        if redraw:
            self.turn_key = None
            if not mine_now:
                for item in view.screen(st):
                    self.emit(item)
        if mine_now:
            key = self.turn_of(st)
            if key != self.turn_key:
                self.turn_key = key
                if view.redraw(st):
                    for item in view.screen(st):
                        self.emit(item)
                if st.get("forced") and st.get("forced_in_ms") is not None:
                    self.emit(tr(self.lang, "forced", s=round(st["forced_in_ms"] / 1000, 1)), style="yellow")

    def final_summary(self, summary: Mapping[str, Any]) -> None:
        """大结算: a table played for a set number of deals ended — each player's total, ranked, the winners
        marked, and the best deal."""
        lang = self.lang
        self.console.rule(Text(tr(lang, "final_head", n=int(summary.get("deals_played") or 0))), style="bold")
        me = self.user.get("id")
        for p in summary.get("players") or []:
            name = display_name(str(p.get("name")), lang)
            if me is not None and p.get("user_id") == me:
                name = f"{name} ({'你' if lang == 'zh' else 'you'})"
            last = p.get("last")
            self.emit(tr(lang, "final_line", rank=p.get("rank"), name=name, total=int(p.get("total") or 0),
                         won=p.get("won"), deals=p.get("deals"), last="—" if last is None else f"{int(last):+d}",
                         mark=tr(lang, "final_winner") if p.get("winner") else ""),
                      style="bold" if p.get("winner") else "")
        if not summary.get("winners"):
            self.emit(tr(lang, "final_no_winner"))
        best = summary.get("best_deal")
        if isinstance(best, dict):
            self.emit(tr(lang, "final_best", name=display_name(str(best.get("name")), lang),
                         score=int(best.get("score") or 0), n=int(best.get("deal_index") or 0) + 1))

    def on_deal_over(self, m: Mapping[str, Any]) -> None:
        """The settlement of a deal, and what it did to the points."""
        if self.table is None or m.get("table") != self.table.get("id"):
            return
        lang = self.lang
        if self.view is not None:
            msg = {**m, "deal_index": self.deal_no}
            for item in self.view.settlement(msg):
                self.emit(item)
        for c in m.get("changes") or []:
            seat = c.get("seat")
            name = self.seats.names[seat] if isinstance(seat, int) and seat < len(self.seats.names) else "?"
            if seat == self.seat:
                d = int(c.get("delta") or 0)
                key = "you_won" if d > 0 else "you_lost" if d < 0 else "you_even"
                self.emit(tr(lang, key, n=abs(d), s="" if abs(d) == 1 else "s"),
                          style="bold green" if d > 0 else "bold red" if d < 0 else "")
            if c.get("points") is None:  # a bot's account
                continue
            self.emit(tr(lang, "changes", name=name, delta=int(c.get("delta") or 0), points=c.get("points"),
                         title=title_words(str(self.table.get("game")), c.get("title"), lang)), style="dim")
        self.state = None
        self.auto = False

    # ------------------------------------------------------------------ typed lines
    async def on_line(self, line: str) -> None:
        """One typed line, in the lobby or at the table."""
        text = line.strip()
        word = text.split()[0].lower() if text else ""
        rest = text[len(word):].strip() if text else ""
        if self.confirm == "leave":
            self.confirm = None
            if word in _YES and self.table is not None:
                await self.send({"type": "leave", "table": self.table["id"]})
            else:
                self.emit(tr(self.lang, "leave_cancel"))
            return
        if word in _QUIT:
            self.done = True
            return
        if await self.friends.command(word, rest):  # (好友: in the lobby, at a table, watching one)
            return
        if word in _TOP:  # (排行榜: anywhere too)
            await self.show_top(rest)
            return
        if self.table is None:
            await self.lobby_line(word, rest, text)
        else:
            await self.table_line(word, rest, line)

    async def lobby_line(self, word: str, rest: str, text: str) -> None:
        """A lobby command."""
        lang = self.lang
        if not word:
            return
        if word in _HELP:
            self.emit(tr(lang, "lobby_help"))
        elif word in ("rooms", "房间"):
            await self.show_rooms()
            await self.show_tables(limit=10)
        elif word in _TABLES:
            await self.show_tables()
        elif word in _WATCH:
            args = rest.split()
            if not args:
                self.error(tr(lang, "watch_arg"))
            else:
                await self.ask_watch(args[0][:64], args[1].upper()[:16] if len(args) > 1 else None)
        elif word in ("me", "我"):
            await self.show_me()
        elif word in _RULES:
            await self.lobby_rules(rest)
        elif word in ("quick", "快速"):
            if not rest:
                self.error(tr(lang, "need_arg", cmd="quick", arg="ROOM"))
            else:
                await self.send({"type": "quick_match", "room": rest.split()[0]})
        elif word in ("create", "开桌"):
            args = rest.split()
            if not args:
                self.error(tr(lang, "need_arg", cmd="create", arg="ROOM [DEALS]"))
            elif len(args) > 1 and not (args[1].isdigit() and 1 <= int(args[1]) <= 64):
                self.error(tr(lang, "bad_deals"))
            else:
                msg: dict[str, Any] = {"type": "create_table", "room": args[0]}
                if len(args) > 1:
                    msg["deals"] = int(args[1])  # 好友房局数: the table closes with a final summary after them
                await self.send(msg)
        elif word in _JOIN:
            code = self.join_code(rest)
            if code is not None:
                await self.send({"type": "join", "invite": code})
        elif word in ("bots", "leave", "auto", "say", "ready", "seats", "takeover"):
            self.error(tr(lang, "no_table"))
        else:
            self.error(tr(lang, "unknown_lobby", text=text[:60]))

    async def table_line(self, word: str, rest: str, line: str) -> None:
        """A line typed at the table: a table command, or a move at this seat's turn."""
        lang = self.lang
        assert self.table is not None
        tid = self.table["id"]
        if self.watching is not None:
            await self.watch_line(word, line)
            return
        st = self.state
        running = st is not None and st.get("phase") != "over"
        if word in _WATCH or word in _TABLES or word in _JOIN:
            self.error(tr(lang, "at_table"))
            return
        if word in _AUTO:
            if running:
                await self.send({"type": "autoplay", "table": tid, "on": not self.auto})
            else:
                self.error(error_words(lang, "no_deal"))
            return
        if word in _LEAVE:
            if running:
                self.confirm = "leave"
            else:
                await self.send({"type": "leave", "table": tid})
            return
        if word in _SAY:
            await self.say(rest)
            return
        if word in ("seats", "座位"):
            self.emit(self.seats_line())
            return
        if word in ("bots", "电脑"):
            await self.send({"type": "fill_bots", "table": tid})
            self.emit(tr(lang, "bots_asked"), style="dim")
            return
        if word in ("takeover", "接管"):
            await self.send({"type": "take_over"})
            return
        if word in ("me", "我"):
            await self.show_me()
            return
        if word in _RULES:
            await self.table_rules()
            return
        if word in _HELP:
            self.emit(tr(lang, "table_help"))
            if self.view is not None and self.view.help():
                self.emit(self.view.help())
            return
        view = self.view
        if running and st is not None and view is not None:
            if self.taken:  # only watching: what is shown, no move
                shown = view.info(line, st)
                if shown is None and word:
                    shown = [Text(tr(lang, "taken_over"), style="yellow")]
                for item in shown or []:
                    self.emit(item)
                return
            if st.get("your_turn") and not self.auto:
                reply = view.read(line, st)
                for item in reply.out:
                    self.emit(item)
                if reply.action is not None:
                    msg: dict[str, Any] = {"type": "action", "table": tid, "deal": st["deal"],
                                           "version": st["version"], "action": reply.action}
                    if st.get("decision") is not None:
                        msg["decision"] = st["decision"]
                    if reply.check:  # not in a partial legal list: the server checks it first (``checked``)
                        ref = self.next_id + 1  # (the id :meth:`send` gives it: nothing runs in between)
                        self.checks[ref] = (msg, self.turn_of(st))
                        msg = {"type": "check", "table": tid, "action": reply.action}
                    if await self.send(msg) is not None:
                        self.hold_prompt = True
                return
            shown = view.info(line, st)
            if shown is not None:
                for item in shown:
                    self.emit(item)
                return
            if not word:
                return
            acting = [s for s in st.get("acting") or [] if s != self.seat]
            if acting and acting[0] < len(self.seats.names):
                self.error(tr(lang, "not_your_turn", name=self.seats.names[acting[0]]))
            else:
                self.error(tr(lang, "not_your_turn_anyone"))
            return
        if not word or word in _READY:
            if self.table.get("ready") is not None:
                await self.send({"type": "ready", "table": tid})
                self.emit(tr(lang, "ready_sent"), style="green")
            return
        shown = view.info(line, None) if view is not None else None
        if shown is not None:
            for item in shown:
                self.emit(item)
            return
        self.error(tr(lang, "not_legal_now", text=line.strip()[:60]))

    async def watch_line(self, word: str, line: str) -> None:
        """A line typed while watching a table: ``leave`` (``unspectate``), what only shows something, and one
        line for anything that would act."""
        lang = self.lang
        assert self.table is not None
        if not word:
            return
        if word in _LEAVE:
            await self.send({"type": "unspectate", "table": self.table["id"]})
        elif word in _JOIN:  # an invitation: stop watching, then sit down
            code = self.join_code(line.strip()[len(word):])
            if code is not None:
                await self.send({"type": "unspectate", "table": self.table["id"]})
                await self.send({"type": "join", "invite": code})
        elif word in ("seats", "座位"):
            self.emit(self.seats_line())
        elif word in ("me", "我"):
            await self.show_me()
        elif word in _RULES:
            await self.table_rules()
        elif word in _HELP:
            self.emit(tr(lang, "spectator_help"))
        else:
            shown = self.view.info(line, self.state) if self.view is not None else None
            if shown is None:
                self.error(tr(lang, "spectator_cannot"))
            for item in shown or []:
                self.emit(item)

    def join_code(self, rest: str) -> str | None:
        """The invite code ``join`` is for: the one typed, else the latest invitation's (``None`` after one line
        saying there is none)."""
        if rest.split():
            return rest.split()[0].upper()[:16]
        code = self.friends.join_code()
        if code is None:
            self.error(tr(self.lang, "join_no_invite"))
        return code

    async def say(self, rest: str) -> None:
        """``say PHRASE`` (a quick-chat phrase by id, number or words), or the list of phrases."""
        lang = self.lang
        assert self.table is not None
        key = rest.strip().lower()
        if not key:
            self.emit(tr(lang, "phrases", list=" · ".join(f"{i + 1} {p} ({phrase_words(p, lang)})"
                                                           for i, p in enumerate(PHRASES))))
            return
        phrase = None
        if key.isdigit() and 1 <= int(key) <= len(PHRASES):
            phrase = PHRASES[int(key) - 1]
        elif key in PHRASES or "emote:" + key in PHRASES:
            phrase = key if key in PHRASES else "emote:" + key
        else:
            phrase = next((p for p in PHRASES if phrase_words(p, lang).lower() == key), None)
        if phrase is None:
            self.error(error_words(lang, "unknown_phrase"))
            return
        await self.send({"type": "chat", "table": self.table["id"], "phrase": phrase})

    # ------------------------------------------------------------------ the JSON API
    async def get(self, path: str) -> Any:
        """``GET path``: the answer's JSON, or ``None`` after saying what went wrong."""
        assert self.http is not None
        try:
            r = await self.http.get(path)
        except httpx.HTTPError as e:
            self.error(f"{path}: {_reason(e)}")
            return None
        if r.status_code != 200:
            err = _error_of(r)
            self.error(error_words(self.lang, err[0], err[1]) if err else f"{path}: HTTP {r.status_code}")
            return None
        return r.json()

    async def post(self, path: str, body: Mapping[str, Any] | None = None,
                   words: Mapping[str, str] | None = None) -> Any:
        """``POST path`` with ``body``: the answer's JSON, or ``None`` after one line saying why it was refused
        (``words``: an error code's wording in this request, instead of the usual one)."""
        assert self.http is not None
        try:
            r = await self.http.post(path, json=dict(body or {}))
        except httpx.HTTPError as e:
            self.error(f"{path}: {_reason(e)}")
            return None
        if r.status_code not in (200, 201):
            err = _error_of(r)
            msg = (words or {}).get(err[0]) if err else None
            if msg is None:
                msg = error_words(self.lang, err[0], err[1]) if err else f"{path}: HTTP {r.status_code}"
            self.error(tr(self.lang, "refused", msg=msg))
            return None
        try:
            return r.json()
        except ValueError:
            return {}

    async def show_rules(self, game: str, *, options: Mapping[str, Any] | None = None,
                         preset: str | None = None) -> None:
        """玩法说明: the rules of ``game`` in words as the server words them (the game's own): for a table's
        ``options`` (``POST /api/rules/<game>``) or a ``preset`` (``GET``; none: the game's first), wrapped to the
        terminal."""
        lang = self.lang
        path = f"/api/rules/{quote(game, safe='')}"
        if options is not None:
            data = await self.post(path, {"options": dict(options), "lang": lang})
        else:
            data = await self.get(path + "?" + urlencode({"lang": lang, **({"preset": preset} if preset else {})}))
        if data is None:
            return
        sections = [section_json(s) for s in data.get("sections") or [] if isinstance(s, dict)]
        word = GAME_WORDS.get(game, (game, game))[0 if lang == "zh" else 1]
        shown = data.get("preset")
        for item in rules_renderables(sections, heading(lang, word, shown if isinstance(shown, str) else None), lang):
            self.emit(item)

    async def table_rules(self) -> None:
        """``rules`` at a table (or watching one): the rules of that table's own options."""
        assert self.table is not None
        await self.show_rules(str(self.table.get("game")), options=self.table.get("options") or {})

    async def lobby_rules(self, rest: str) -> None:
        """``rules ROOM``, ``rules PRESET`` or ``rules GAME [PRESET]`` in the lobby: those rules in words."""
        lang = self.lang
        args = rest.split()
        if not args:
            self.error(tr(lang, "need_arg", cmd="rules", arg=tr(lang, "rules_arg")))
            return
        games = await self.get("/api/games")
        if games is None:
            return
        known = [g for g in games.get("games") or [] if isinstance(g, dict)]
        name = args[0]
        if any(g.get("name") == name for g in known):
            await self.show_rules(name, preset=args[1] if len(args) > 1 else None)
            return
        rooms = await self.get("/api/rooms")
        room = next((r for r in (rooms or {}).get("rooms") or [] if r.get("id") == name), None)
        if room is not None:
            await self.show_rules(str(room.get("game")), options=room.get("options") or {})
            return
        having = [g for g in known if name in (g.get("presets") or [])]
        if having:
            await self.show_rules(str(having[0].get("name")), preset=name)
            return
        presets = ", ".join(p for g in known for p in g.get("presets") or [])
        self.error(tr(lang, "rules_unknown", text=name[:40], presets=presets))

    async def show_rooms(self) -> None:
        """Every room by game, with stakes and minimum points."""
        data = await self.get("/api/rooms")
        if data is None:
            return
        rooms = data.get("rooms") or []
        if not rooms:
            self.emit(tr(self.lang, "no_rooms"))
            return
        self.emit(tr(self.lang, "rooms_head"), style="bold")
        for r in sorted(rooms, key=lambda r: (str(r.get("game")), str(r.get("id")))):
            game = GAME_WORDS.get(str(r.get("game")), (r.get("game"), r.get("game")))[0 if self.lang == "zh" else 1]
            self.emit(tr(self.lang, "room_line", id=r.get("id"), game=game, stake=r.get("stake"),
                         min=r.get("min_points"), tables=r.get("tables", 0), players=r.get("players", 0)))

    async def show_tables(self, limit: int | None = None) -> None:
        """The public tables one may watch (``GET /api/tables``), the first ``limit`` of them."""
        data = await self.get("/api/tables")
        if data is None:
            return
        lang = self.lang
        tables = sorted(data.get("tables") or [], key=lambda t: (t.get("status") != "playing", str(t.get("id"))))
        if not tables:
            self.emit(tr(lang, "no_tables"))
            return
        self.emit(tr(lang, "tables_head"), style="bold")
        for t in tables[:limit]:
            game = str(t.get("game"))
            players = " · ".join(display_name(str(p), lang) if p else tr(lang, "seat_empty")
                                 for p in t.get("players") or [])
            n = int(t.get("spectators") or 0)
            self.emit(tr(lang, "table_line", id=t.get("id"), game=GAME_WORDS.get(game, (game, game))[
                0 if lang == "zh" else 1], room=t.get("room") or "-", players=players or "-",
                status=tr(lang, "status_playing" if t.get("status") == "playing" else "status_waiting"),
                watchers=tr(lang, "watchers", n=n) if n else ""))
        if limit is not None and len(tables) > limit:
            self.emit(tr(lang, "more_tables", n=len(tables) - limit), style="dim")

    async def show_top(self, rest: str) -> None:
        """``top [GAME] [week|month]``: the first ten of a game's leaderboard (the game of the table one is at, else
        Dou Dizhu; 总榜 unless ``week`` 周榜 or ``month`` 月榜) and this player's own place."""
        lang = self.lang
        game = str(self.table.get("game")) if self.table is not None and self.table.get("game") else "doudizhu"
        period = "all"
        for arg in rest.lower().split():
            named = next((g for g, words in GAME_WORDS.items() if arg in (g, words[0], words[1].lower())), None)
            when = next((p for p, words in _PERIOD_WORDS.items() if arg in words), None)
            if named is not None:
                game = named
            elif when is not None:
                period = when
            else:
                self.error(tr(lang, "top_arg", arg=arg[:32], games=" ".join(GAME_WORDS)))
                return
        data = await self.get("/api/leaderboard?" + urlencode({"game": game, "period": period, "limit": TOP_ROWS}))
        if not isinstance(data, dict):
            return
        word = GAME_WORDS.get(game, (game, game))[0 if lang == "zh" else 1]
        since = ""
        if period != "all":
            with contextlib.suppress(ValueError, TypeError, KeyError):
                from zoneinfo import ZoneInfo

                at = datetime.fromisoformat(str(data.get("since"))).astimezone(ZoneInfo(str(data.get("tz"))))
                since = tr(lang, "top_since", date=at.strftime("%Y-%m-%d"), tz=data.get("tz"))
        self.emit(tr(lang, f"top_head_{period}", game=word, since=since), style="bold")
        users = [u for u in data.get("users") or [] if isinstance(u, Mapping)]

        def pts(n: Any) -> str:
            return str(n) if period == "all" else f"{int(n or 0):+d}"

        for u in users:
            self.emit(tr(lang, "top_line", rank=u.get("rank"), name=display_name(str(u.get("name")), lang)[:16],
                         points=pts(u.get("points")), played=u.get("games_played"), wins=u.get("wins"),
                         title=title_words(game, u.get("title"), lang)),
                      style="bold" if u.get("id") == self.user.get("id") else "")
        if not users:
            self.emit(tr(lang, f"top_empty_{period}"), style="dim")
        me = data.get("me")
        if isinstance(me, Mapping):
            self.emit(tr(lang, f"top_me_{period}", n=me.get("rank"), points=pts(me.get("points"))), style="green")
        elif self.user.get("is_guest"):
            self.emit(tr(lang, "top_guest"), style="dim")
        else:
            self.emit(tr(lang, f"top_not_ranked_{period}"), style="dim")

    async def show_me(self) -> None:
        """The account's points in each game."""
        me = await self.get("/api/me")
        if me is None:
            return
        lang = self.lang
        games = []
        for g, v in sorted((me.get("games") or {}).items()):
            word = GAME_WORDS.get(g, (g, g))[0 if lang == "zh" else 1]
            games.append(tr(lang, "me_game", game=word, points=v.get("points"),
                            title=title_words(g, v.get("title"), lang), played=v.get("games_played"),
                            wins=v.get("wins")))
        guest = f" ({tr(lang, 'guest')})" if me.get("is_guest") else ""
        self.emit(tr(lang, "me_line", name=display_name(str(me.get("name")), lang), guest=guest,
                     games="; ".join(games) or "-"))


async def run_online(opts: OnlineOptions, console: Console | None = None, lines: LineSource | None = None) -> int:
    """The body of ``qipai online``: log in and play; raises :class:`LoginError` (one line) when it cannot."""
    return await OnlineClient(opts, console, lines).run()
