"""``qipai online URL``: play on a qipai server from the terminal — with friends at a private table or against
bots by quick match — through the server's JSON API and WebSocket protocol (docs/protocol.md).

- **Logging in** (:func:`login`): ``POST /api/login``, ``/api/register`` or ``/api/guest`` over httpx; then the
  WebSocket ``/ws`` opens with ``Authorization: Bearer <token>``.  A wrong address, an unreachable server, a wrong
  password or a taken name is a :class:`LoginError` (one line).
- **The lobby**: ``rooms``, ``quick ROOM``, ``create ROOM`` (a private table: its invite code is printed),
  ``join CODE``, ``me``, ``help``, ``quit``.
- **The table**: each ``state`` message brings this seat's observation; the game's view
  (:mod:`.doudizhu`, :mod:`.shengji`, :mod:`.mahjong`) prints the other seats' moves as they happen, draws the
  table at your turn and reads what you type into one of the legal actions the server sent, which goes back as an
  ``action`` with the state's ``deal``, ``version`` and ``decision``.  ``auto`` (托管), ``say`` (quick chat),
  ``seats``, ``bots``, ``leave``; between deals Enter is 准备 (``ready``).  The server's errors are worded from
  their codes (:mod:`.words`).
- Reading the network never waits for the keyboard: typed lines come from a thread (:class:`StdinLines`), so
  other players' moves show while you are at the prompt.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import IO, Any, Protocol
from urllib.parse import urlsplit, urlunsplit

import httpx
from rich.console import Console, RenderableType
from rich.text import Text

from ..reader import LineReader
from .base import GameView, Seats
from .words import PHRASES, display_name, error_words, phrase_words, tr

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
        threading.Thread(target=self._pump, name="qipai-stdin", daemon=True).start()

    def _pump(self) -> None:
        while True:
            line: str | None
            try:
                line = self.reader.readline()
            except (EOFError, OSError, ValueError):
                line = None
            try:
                self.loop.call_soon_threadsafe(self.queue.put_nowait, line)
            except RuntimeError:  # the loop closed: the client is gone
                return
            if line is None:
                return

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

    def feed(self, line: str) -> None:
        """Type ``line``."""
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
        self.pending: set[asyncio.Future[None]] = set()
        self.hold_prompt = False
        """An action was sent: the prompt waits for the server's answer."""
        self.deal_no = 0
        self.exit_code = 0
        self.done = False

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
        if self.table is None:
            return tr(lang, "lobby_prompt") + " > "
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
    async def run(self) -> int:
        """Log in, connect and play until ``quit``, the end of input or the connection's end.  Returns the exit
        code; a :class:`LoginError` when logging in or connecting fails."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidHandshake, InvalidStatus, InvalidURI

        async with httpx.AsyncClient(base_url=self.base, timeout=self.opts.timeout) as http:
            self.http = http
            self.user, self.token = await login(self.opts, http)
            http.headers["Authorization"] = f"Bearer {self.token}"
            kind = tr(self.lang, "guest" if self.user.get("is_guest") else "registered")
            self.emit(tr(self.lang, "logged_in", name=display_name(str(self.user.get("name")), self.lang),
                         kind=kind), style="bold")
            try:
                ws = await connect(self.ws_url, additional_headers={"Authorization": f"Bearer {self.token}"},
                                   max_size=2**22, open_timeout=self.opts.timeout)
            except InvalidStatus as e:
                raise LoginError(f"the server refused the WebSocket at {self.ws_url} "
                                 f"(HTTP {e.response.status_code})") from None
            except (InvalidHandshake, InvalidURI, OSError, TimeoutError) as e:
                raise LoginError(f"cannot open the WebSocket at {self.ws_url}: {_reason(e)}") from None
            self.ws = ws
            if self.lines is None:
                self.lines = StdinLines(reader=self.opts.stdin)
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
                await ws.close()
        if self.prompt_shown is not None:
            self.console.print()
            self.prompt_shown = None
        self.console.print(Text(tr(self.lang, "bye")))
        return self.exit_code

    async def read_network(self) -> None:
        """Handle every server message until the connection closes."""
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.ws:
                try:
                    msg = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(msg, dict):
                    self.hold_prompt = False
                    self.handle(msg)
                    self.show_prompt()
        except ConnectionClosed:
            pass
        if not self.done:
            self.emit(tr(self.lang, "connection_lost"), style="bold red")
            self.exit_code = 1

    async def read_keyboard(self) -> None:
        """Handle every typed line until ``quit`` or the end of input."""
        assert self.lines is not None
        self.show_prompt()
        while not self.done:
            try:
                line = await self.lines.readline()
            except EOFError:
                return
            self.prompt_shown = None  # the Enter moved the cursor to a new line
            await self.on_line(line)
            self.show_prompt()

    async def send(self, msg: dict[str, Any]) -> None:
        """Send a client message (with an ``id`` of its own)."""
        self.next_id += 1
        msg = {**msg, "id": self.next_id}
        with contextlib.suppress(Exception):
            await self.ws.send(json.dumps(msg))

    # ------------------------------------------------------------------ server messages
    def handle(self, m: Mapping[str, Any]) -> None:
        """One server message."""
        kind = m.get("type")
        lang = self.lang
        if kind == "welcome":
            self.user.update(m.get("user") or {})
            if m.get("table"):
                self.emit(tr(lang, "welcome_table"))
            else:
                self.emit(tr(lang, "lobby_help"), style="dim")
        elif kind == "joined":
            self.seat = int(m["seat"])
            self.table = {"id": m["table"], "seats": [], "ready": None, "game": ""}  # (its snapshot follows and
            # says the invite code)
        elif kind == "snapshot":
            first = self.table is None or self.table.get("id") != m["table"]["id"] or not self.table.get("game")
            self.set_table(m["table"], announce=first)
            if m.get("state") is not None:
                self.on_state(m["state"], fresh=True)
            else:
                self.state = None
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
            self.emit(tr(lang, "chat", name=name, text=phrase_words(str(m.get("phrase")), lang)), style="cyan")
        elif kind == "left":
            reason = m.get("reason")
            if reason == "leaving_after_deal":
                self.emit(tr(lang, "leaving_after"), style="yellow")
            elif reason == "unspectated":
                pass
            else:
                self.emit(tr(lang, "left") if reason == "left" else tr(lang, "removed", reason=reason), style="yellow")
                self.to_lobby()
        elif kind == "closed":
            if self.table is not None and m.get("table") == self.table.get("id"):
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
            self.exit_code = 1
        elif kind == "account":
            self.user.update(m.get("user") or {})

    def on_error(self, m: Mapping[str, Any]) -> None:
        """A refused message: the error in words (a rule's refusal with the game's reason)."""
        code = str(m.get("code"))
        params = m.get("params") or {}
        if code == "stale" and self.table is not None:
            self.turn_key = None
            self.pending.add(t := asyncio.ensure_future(self.send({"type": "snapshot", "table": self.table["id"]})))
            t.add_done_callback(self.pending.discard)
            return
        msg = error_words(self.lang, code, params)
        if code == "illegal_action" and self.view is not None:
            why = self.view.refusal(params)
            if why:
                msg = why
        self.error(tr(self.lang, "refused", msg=msg))
        if code in ("illegal_action", "not_your_turn"):
            self.turn_key = None  # ask again

    def to_lobby(self) -> None:
        """Back in the lobby: no table any more."""
        self.table = None
        self.seat = None
        self.state = None
        self.view = None
        self.deal = None
        self.confirm = None
        self.auto = False
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
            self.emit(tr(lang, "joined", table=view["id"], game=game_word, room=view.get("room") or "-", seat=me),
                      style="bold")
            if view.get("invite_code"):
                self.emit(tr(lang, "invite", code=view["invite_code"]), style="bold green")
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

    def on_state(self, st: dict[str, Any], fresh: bool) -> None:
        """A state of the running deal: the new public events, and the table at this seat's turn."""
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
            self.console.rule(Text(tr(self.lang, "deal_start", n=n)))
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
        if st.get("your_turn") and not self.auto and not self.taken:
            decision = st.get("decision")
            key = (int(st.get("deal") or 0), int(decision if decision is not None else st.get("version") or 0))
            if key != self.turn_key:
                self.turn_key = key
                if view.redraw(st):
                    for item in view.screen(st):
                        self.emit(item)
                if st.get("forced") and st.get("forced_in_ms") is not None:
                    self.emit(tr(self.lang, "forced", s=round(st["forced_in_ms"] / 1000, 1)), style="yellow")

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
                         title=c.get("title") or "-"), style="dim")
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
        elif word in ("me", "我"):
            await self.show_me()
        elif word in ("quick", "快速"):
            if not rest:
                self.error(tr(lang, "need_arg", cmd="quick", arg="ROOM"))
            else:
                await self.send({"type": "quick_match", "room": rest.split()[0]})
        elif word in ("create", "开桌"):
            if not rest:
                self.error(tr(lang, "need_arg", cmd="create", arg="ROOM"))
            else:
                await self.send({"type": "create_table", "room": rest.split()[0]})
        elif word in ("join", "加入"):
            if not rest:
                self.error(tr(lang, "need_arg", cmd="join", arg="CODE"))
            else:
                await self.send({"type": "join", "invite": rest.split()[0].upper()[:16]})
        elif word in ("bots", "leave", "auto", "say", "ready", "seats"):
            self.error(tr(lang, "no_table"))
        else:
            self.error(tr(lang, "unknown_lobby", text=text[:60]))

    async def table_line(self, word: str, rest: str, line: str) -> None:
        """A line typed at the table: a table command, or a move at this seat's turn."""
        lang = self.lang
        assert self.table is not None
        tid = self.table["id"]
        st = self.state
        running = st is not None and st.get("phase") != "over"
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
                    await self.send(msg)
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

    async def show_me(self) -> None:
        """The account's points in each game."""
        me = await self.get("/api/me")
        if me is None:
            return
        lang = self.lang
        games = []
        for g, v in sorted((me.get("games") or {}).items()):
            word = GAME_WORDS.get(g, (g, g))[0 if lang == "zh" else 1]
            games.append(tr(lang, "me_game", game=word, points=v.get("points"), title=v.get("title"),
                            played=v.get("games_played"), wins=v.get("wins")))
        guest = f" ({tr(lang, 'guest')})" if me.get("is_guest") else ""
        self.emit(tr(lang, "me_line", name=display_name(str(me.get("name")), lang), guest=guest,
                     games="; ".join(games) or "-"))


async def run_online(opts: OnlineOptions, console: Console | None = None, lines: LineSource | None = None) -> int:
    """The body of ``qipai online``: log in and play; raises :class:`LoginError` (one line) when it cannot."""
    return await OnlineClient(opts, console, lines).run()
