"""``qipai online`` against a real server (in this process, on a SQLite database, with fast bots): the client is
driven by scripted input the way a person types — ``hint`` then Enter at each Dou Dizhu and Shengji turn, the
first legal choice in mahjong — and its screen is read back.  Log-in failures run the real command in a process of
its own.  A dropped connection (closed by the server, or the server restarted on the same database) is opened
again and the deal goes on; a spectator watches a table; friends (好友) ask, accept, list, invite to a private
table (joined by ``join`` alone) and unfriend, with every notice and refusal worded.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import socket
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from qipai.games.doudizhu.titles import ENGLISH, title_for
from qipai.tui.online import OnlineClient, OnlineOptions, QueueLines

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import Client, Database, LiveServer, fast_settings, free_port

pytestmark = pytest.mark.timeout(120)

FAST_CLIENTS = {"rate_limit": 1000.0, "rate_burst": 2000}

ServerMaker = Callable[..., Any]


class SamePort(LiveServer):
    """A server started again on the port of one that stopped (its clients reconnect to the same address)."""

    def __init__(self, settings: Any, port: int) -> None:
        super().__init__(settings)
        self.sock.close()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.port = port


@pytest.fixture
async def start(tmp_path: Path) -> AsyncIterator[ServerMaker]:
    """``await start(**settings)``: a live server on a SQLite database of this test (stopped at the end);
    ``await start(again=server)``: that (stopped) server started again on its port and database."""
    servers: list[LiveServer] = []

    async def make(again: LiveServer | None = None, **kw: Any) -> LiveServer:
        if again is not None:
            s = await SamePort(again.settings, again.port).start()
        else:
            db = Database(f"sqlite+aiosqlite:///{tmp_path / f'qipai{len(servers)}.db'}")
            s = await LiveServer(fast_settings(db, **kw)).start()
        servers.append(s)
        return s

    yield make
    for s in servers:
        await s.stop()


class Player:
    """One ``qipai online`` client in this event loop: typed lines in, the screen (plain text) out."""

    def __init__(self, server: LiveServer, **opts: Any) -> None:
        self.out = io.StringIO()
        console = Console(file=self.out, width=160, highlight=False, markup=False, emoji=False, color_system=None)
        self.lines = QueueLines()
        self.client = OnlineClient(OnlineOptions(url=server.http, **opts), console, self.lines)
        self.task = asyncio.create_task(self.client.run())
        self.sent: dict[tuple[int, int], float] = {}

    @property
    def screen(self) -> str:
        return self.out.getvalue()

    def type(self, line: str) -> None:
        self.lines.feed(line)

    async def expect(self, pattern: str, timeout: float = 20.0, since: int = 0) -> re.Match[str]:
        """Wait until the screen (from ``since``) matches ``pattern``."""
        end = time.monotonic() + timeout
        while True:
            m = re.search(pattern, self.screen[since:])
            if m:
                return m
            if self.task.done():
                self.task.result()
                raise AssertionError(f"the client ended before {pattern!r}:\n{self.screen[-3000:]}")
            if time.monotonic() > end:
                raise AssertionError(f"no {pattern!r} within {timeout} s; the screen ends:\n{self.screen[-3000:]}")
            await asyncio.sleep(0.02)

    def turn(self) -> tuple[int, int] | None:
        """The open decision the prompt asks for, if any."""
        c = self.client
        st = c.state
        if st is None or not st.get("your_turn") or c.auto or c.prompt_shown is None or st.get("phase") == "over":
            return None
        return int(st["deal"]), int(st["decision"] if st.get("decision") is not None else st["version"])

    async def play_until(self, pattern: str, answer: Callable[[Player], list[str]], timeout: float = 60.0) -> str:
        """Answer every turn with ``answer``'s lines until the screen matches ``pattern``."""
        start = len(self.screen)
        try:
            await self.play_while(lambda p: not re.search(pattern, p.screen[start:]), answer, timeout)
        except AssertionError as e:
            if "still going" in str(e):
                raise AssertionError(f"no {pattern!r} within {timeout} s; the screen ends:\n"
                                     f"{self.screen[-3000:]}") from None
            raise
        return self.screen[start:]

    async def play_while(self, going: Callable[[Player], bool], answer: Callable[[Player], list[str]],
                         timeout: float = 60.0) -> None:
        """Answer every turn with ``answer``'s lines as long as ``going`` holds."""
        end = time.monotonic() + timeout
        while going(self):
            if self.task.done():
                self.task.result()
                raise AssertionError(f"the client ended:\n{self.screen[-3000:]}")
            if time.monotonic() > end:
                raise AssertionError(f"still going after {timeout} s; the screen ends:\n{self.screen[-3000:]}")
            key = self.turn()
            if key is not None and time.monotonic() - self.sent.get(key, 0.0) > 2.0:
                self.sent[key] = time.monotonic()
                for line in answer(self):
                    self.type(line)
            await asyncio.sleep(0.02)

    async def quit(self) -> int:
        self.type("quit")
        return await asyncio.wait_for(self.task, 20)


def hint_and_enter(p: Player) -> list[str]:
    """What a person does who follows the hints: ``hint``, then Enter plays it."""
    return ["hint", ""]


def first_legal(p: Player) -> list[str]:
    """The first of the legal choices (``1``)."""
    return ["1"]


async def test_guest_quick_match_plays_a_deal_to_the_settlement(start: ServerMaker) -> None:
    server = await start()
    p = Player(server, guest=True, lang="en")
    await p.expect(r"Logged in as Guest \d{4} \(guest\)\.")
    await p.expect(r"lobby > ")
    p.type("rooms")
    await p.expect(r"classic-1 +Dou Dizhu +stake 1 ")
    p.type("quick classic-1")
    await p.expect(r"You sit at table \S+ \(Dou Dizhu, room classic-1\), seat 0\.")
    played = await p.play_until(r"Deal 1 is over\.", hint_and_enter)
    assert re.search(r"Your hand \(by rank\): \S", played)  # the hand, drawn at each turn
    assert re.search(r"Bot \d: ", played)  # the others' moves as they happened
    assert "Your turn." in played and re.search(r"\(\d+ s\) > ", played)  # the clock of the turn
    assert "Hint 1/" in played or "Hint: " in played
    settled = p.screen[p.screen.index("Deal 1 is over."):]
    assert re.search(r"The (landlord \(.+\)|farmers) wins?\.", settled)
    m = re.search(r"You (win|lose) (\d+) points?\.|Your points do not change\.", settled)
    assert m, settled
    delta = 0 if m[1] is None else int(m[2]) * (1 if m[1] == "win" else -1)
    title = ENGLISH[title_for(1000 + delta)]  # (商人 or 掌柜: in English words)
    assert f"You: {delta:+d} → {1000 + delta} ({title})" in settled
    p.type("me")
    await p.expect(rf"Dou Dizhu {1000 + delta} points \({title}, 1 played")
    assert await p.quit() == 0
    assert p.screen.rstrip().endswith("Bye.")


async def a_deal_together(alice: Player, bob: Player) -> None:
    """alice (English) makes a private table, bob (Chinese) joins it by its code, a bot fills the third seat, and
    the two play one deal to its end."""
    alice.type("create classic-1")
    code = (await alice.expect(r"Invite code: ([A-Z0-9]{6})"))[1]
    bob.type("join " + code)
    await alice.expect(r"Seats: 0 You 1000 · 1 bob 1000 · 2 \(empty\)")
    alice.type("bots")
    await asyncio.gather(alice.play_until(r"Deal 1 is over\.", hint_and_enter),
                         bob.play_until(r"第 1 局结束。", hint_and_enter))


async def test_friends_at_a_private_table_by_invite_code_with_a_bot(start: ServerMaker) -> None:
    server = await start()
    bob_account = await Client.register(server, "bob")
    alice = Player(server, name="alice", password="secret-pw", register=True, lang="en")
    await alice.expect(r"Logged in as alice \(registered\)\.")
    alice.type("create classic-1")
    code = (await alice.expect(r"Invite code: ([A-Z0-9]{6}) — your friends type: join \1"))[1]
    bob = Player(server, name="bob", password="secret-pw", lang="zh")
    await bob.expect(r"已登录：bob（注册用户）。")
    bob.type("join " + code.lower())
    await bob.expect(r"你坐在牌桌 \S+（斗地主，房间 classic-1），1 号座。")
    await alice.expect(r"Seats: 0 You 1000 · 1 bob 1000 · 2 \(empty\)")
    bob.type("bots")  # only the creator may
    await bob.expect(r"不行：只有开桌的人可以这样做")
    alice.type("say 1")
    await bob.expect(r"alice：快点吧，等得花儿都谢了")
    alice.type("bots")
    await alice.expect(r"2 Bot \d \(bot\)")
    # both play the deal at once, each answering at its own turns
    a, b = await asyncio.gather(alice.play_until(r"Deal 1 is over\.", hint_and_enter),
                                bob.play_until(r"第 1 局结束。", hint_and_enter))
    assert re.search(r"bob: |bob: pass", a) and re.search(r"alice：", b)
    assert "你的手牌（按点数）" in b
    for who, text in ((alice, "You (win|lose) \\d+ points?\\.|Your points do not change\\."),
                      (bob, "你(赢|输)了 \\d+ 分。|你的积分不变。")):
        await who.expect(text)
    assert await alice.quit() == 0 and await bob.quit() == 0
    assert bob_account.user["name"] == "bob"


async def test_a_table_for_no_points_says_so(start: ServerMaker) -> None:
    """A private table for no points (made in the browser with bots weaker than the room's) was announced as any
    other: a player joining it from the terminal had no way to know his points would not move."""
    server = await start()
    carol = await Client.register(server, "carol")
    await carol.connect()
    made = await carol.post("/api/tables", {"room": "classic-1", "for_points": False})
    bob = Player(server, name="bob", password="secret-pw", register=True, lang="zh")
    await bob.expect(r"已登录：bob（注册用户）。")
    bob.type("join " + made["invite_code"])
    await bob.expect(r"你坐在牌桌 \S+（斗地主，房间 classic-1），1 号座。")
    await bob.expect(r"这桌不计分：输赢只记在这张桌上，不动你的积分。")
    dave = Player(server, name="dave", password="secret-pw", register=True, lang="en")
    await dave.expect(r"Logged in as dave \(registered\)\.")
    dave.type("create classic-1")  # a table for points says nothing of it
    await dave.expect(r"Invite code: ([A-Z0-9]{6})")
    assert "no points" not in dave.screen
    assert await bob.quit() == 0 and await dave.quit() == 0


async def test_a_mahjong_deal_reaches_its_settlement(start: ServerMaker) -> None:
    server = await start(time_scale=0.03, **FAST_CLIENTS)
    p = Player(server, guest=True, lang="en")
    await p.expect(r"lobby > ")
    p.type("quick daqing-1")
    await p.expect(r"You sit at table \S+ \(mahjong, room daqing-1\)")
    played = await p.play_until(r"Scores: ", first_legal, timeout=90)
    assert re.search(r"Your hand: \S", played)
    assert await p.quit() == 0


async def run_cli(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """``qipai ARGS`` in a process of its own (the server keeps answering meanwhile)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[2] / "src"),
                                                         os.environ.get("PYTHONPATH", "")])}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "from qipai.cli import main; main()", *args, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env)
    out, err = await asyncio.wait_for(proc.communicate(stdin.encode()), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_login_failures_are_one_clear_line(start: ServerMaker) -> None:
    server = await start()
    await Client.register(server, "alice")
    code, _, err = await run_cli("online", server.http, "--name", "alice", "--password-stdin", "--lang", "en",
                                 stdin="wrong-password\n")
    assert (code, err) == (1, "error: Wrong name or password\n")
    code, _, err = await run_cli("online", server.http, "--name", "alice", "--password-stdin", "--register",
                                 "--lang", "zh", stdin="another-pw\n")
    assert (code, err) == (1, "error: 用户名“alice”已经有人用了\n")
    port = free_port()
    code, _, err = await run_cli("online", f"127.0.0.1:{port}", "--guest", "--lang", "en")
    assert code == 1 and err.startswith(f"error: cannot reach the server at http://127.0.0.1:{port}: ")
    assert err.count("\n") == 1 and "Traceback" not in err
    code, _, err = await run_cli("online", f"127.0.0.1:{port}", "--guest", "--lang", "zh")
    assert code == 1 and err.startswith(f"error: 连不上服务器 http://127.0.0.1:{port}：")
    code, _, err = await run_cli("online", "ftp://example", "--guest", "--lang", "en")
    assert (code, err.count("\n")) == (1, 1) and "is not a server address" in err
    code, _, err = await run_cli("online", server.http + "/nothing-here", "--guest", "--lang", "en")
    assert (code, err.count("\n")) == (1, 1) and "does not look like a qipai server" in err
    # the right password, from standard input, then the lobby's lines from the same input
    code, out, err = await run_cli("online", server.http, "--name", "alice", "--password-stdin", "--lang", "en",
                                   stdin="secret-pw\nme\nquit\n")
    assert code == 0, err
    assert "Logged in as alice (registered)." in out and "alice: Dou Dizhu 1000 points" in out


def test_every_error_code_has_words_in_both_languages() -> None:
    from qipai.server.protocol import ERROR_CODES, NOTICE_CODES
    from qipai.tui.online.words import ERROR_WORDS, error_words

    assert set(ERROR_CODES) <= set(ERROR_WORDS), set(ERROR_CODES) - set(ERROR_WORDS)
    for code in [*ERROR_CODES, *NOTICE_CODES]:
        for lang in ("zh", "en"):
            assert error_words(lang, code, {}) and code not in error_words(lang, code, {})


async def test_a_window_taken_over_only_watches_until_takeover(start: ServerMaker) -> None:
    server = await start(bot_delay=0.3)
    await Client.register(server, "alice")
    first = Player(server, name="alice", password="secret-pw", lang="en")
    await first.expect(r"lobby > ")
    first.type("quick classic-1")
    await first.expect(r"Deal 1")
    second = Player(server, name="alice", password="secret-pw", lang="en")
    await second.expect(r"You sit at table ")
    await first.expect(r"Another window of yours controls your seat now")
    # the first window no longer asks for moves, draws no turn and sends nothing
    since = len(first.screen)
    await asyncio.sleep(0.5)
    first.type("pass")
    first.type("3")
    await first.expect(r"type takeover to play here > $", since=since)
    await asyncio.sleep(0.5)
    later = first.screen[since:]
    assert "Your turn." not in later and "Refused" not in later, later
    assert not re.search(r"\(\d+ s\) > ", later), later
    assert later.count("Another window of yours controls your seat now") == 2, later
    first.type("takeover")
    await first.expect(r"You control your seat again\.", since=since)
    assert first.client.taken is False
    assert await second.quit() == 0 and await first.quit() == 0


async def test_a_very_long_line_at_ones_turn_is_not_echoed_whole(start: ServerMaker) -> None:
    server = await start()
    p = Player(server, guest=True, lang="en")
    await p.expect(r"lobby > ")
    p.type("quick classic-1")
    typed: list[int] = []

    def long_line_in_play(q: Player) -> list[str]:
        st = q.client.state
        if st is not None and st.get("phase") == "play" and not st.get("forced") and not typed:
            typed.append(len(q.screen))
            return ["x" * 10_000, "7" * 5000 + "Z", "3:" + "k" * 5000, "hint", ""]
        return ["hint", ""]

    await p.play_until(r"Cannot read\s+'", long_line_in_play)
    await p.expect(r"Unknown kind", since=typed[0])
    shown = p.screen[typed[0]:]
    assert re.search(r"Cannot read\s+'xxxxxxx", shown) and "x" * 100 not in shown, shown[:500]
    assert "7" * 100 not in shown and "k" * 100 not in shown, shown[:500]
    assert await p.quit() == 0


def test_the_shengji_help_lists_only_what_the_online_table_reads() -> None:
    from qipai.tui.online.base import Seats
    from qipai.tui.online.shengji import ShengjiView

    for lang in ("en", "zh"):
        view = ShengjiView(lang, Seats(["You", "B", "C", "D"], 0, [1000, None, None, None]))
        text = view.help()
        assert "hint" in text and "last" in text
        assert "history" not in text and "历史" not in text
        assert view.info("history", None) is None  # no such command here


def test_every_title_of_every_game_has_english_words() -> None:
    from qipai.core.registry import game_names, get_factory
    from qipai.tui.online.words import english_titles, title_words

    titled = [g for g in game_names() if get_factory(g).info.title_table]  # (a test's toy game has no titles)
    assert {"doudizhu", "shengji", "mahjong"} <= set(titled)
    for game in titled:
        for _, title in get_factory(game).info.title_table:
            en = title_words(game, title, "en")
            assert en != title and en.isascii(), (game, title, en)
            assert title_words(game, title, "zh") == title
        # the same words as the browser's (``title_<name>`` in the game's web words)
        web = Path(__file__).resolve().parents[2] / "src/qipai/web/js/games" / str(get_factory(game).info.web)
        browser = dict(re.findall(r'"title_(\S+)": "([^"]+)"', (web / "words.js").read_text(encoding="utf-8")))
        assert browser == dict(english_titles(game)), game
    assert title_words("doudizhu", None, "en") == "-"


def test_a_spectators_screen_shows_every_seat_and_no_hand_in_every_game() -> None:
    """A spectator's view (no seat: ``me`` is -1) of a real spectator's observation in the middle of a deal."""
    import random

    from qipai.core.registry import get_factory
    from qipai.tui.online.base import Seats
    from qipai.tui.online.client import make_view

    for game, steps in (("doudizhu", 20), ("shengji", 300), ("mahjong", 30)):
        f = get_factory(game)
        opts = f.options({})
        g = f.new(opts, seed=3, context=f.deal_context(opts, f.match_start(opts)) if game == "shengji" else {})
        rng = random.Random(1)
        for _ in range(steps):
            seat = next(iter(g.acting))
            g.apply(rng.choice(g.legal_actions(seat)), seat)
        names = ["Ann", "Ben", "Cy", "Di"][:g.players]
        view = make_view(game, "en", Seats(list(names), -1, [None] * g.players))
        st = {"deal": 1, "version": steps, "phase": g.phase, "observation": g.observe(None), "legal": None,
              "your_turn": False, "autoplay": [False] * g.players}
        view.begin(st, True)
        out = io.StringIO()
        console = Console(file=out, width=160, color_system=None)
        for item in [*view.events(st), *view.screen(st), *(view.info("hand", st) or [])]:
            console.print(item)
        shown = out.getvalue()
        assert "Your hand" not in shown and "Your melds" not in shown, (game, shown)
        assert all(n in shown for n in names), (game, shown)
        if game == "mahjong":
            assert all(len(re.findall(rf"^{n} \(\d+ tiles\)", shown, re.M)) == 2 for n in names), shown


# ---------------------------------------------------------------------------------------------- reconnecting
def in_play(p: Player) -> bool:
    st = p.client.state
    return st is not None and st.get("phase") == "play"


async def to_the_play(p: Player) -> int:
    """A guest's quick-match Dou Dizhu deal, played (hint, Enter) into its play phase: the deal's id."""
    await p.expect(r"(lobby|大厅) > ")
    p.type("quick classic-1")
    await p.expect(r"You sit at table \S+ \(Dou Dizhu, room classic-1\), seat 0\."
                   r"|你坐在牌桌 \S+（斗地主，房间 classic-1），0 号座。")
    await p.play_while(lambda q: not in_play(q) or not q.sent, hint_and_enter)
    assert p.client.deal is not None
    return int(p.client.deal)


async def finish_after_reconnecting(p: Player, deal: int, since: int) -> str:
    """The deal goes on after the reconnection and the player plays it to its end: what the screen showed."""
    answered = len(p.sent)
    await p.expect(r"Reconnected\.", since=since)
    played = await p.play_until(r"Deal 1 is over\.", hint_and_enter)
    after = p.screen[since:]
    assert p.client.deal == deal  # the deal that was cut off is the one that ended (no new deal began)
    assert len(p.sent) > answered, after[-3000:]  # turns were answered after the reconnection
    assert "Deal 2" not in after and "You no longer sit" not in after
    assert "The connection to the server was lost." not in after  # (the old line: "… lost." and exit 1)
    back = after[after.index("Reconnected."):]
    assert "qipai · Dou Dizhu" in back  # the table drawn again from the snapshot
    assert re.search(r"You (win|lose) \d+ points?\.|Your points do not change\.", played)
    return after


async def test_a_connection_closed_by_the_server_is_opened_again_and_the_deal_goes_on(start: ServerMaker) -> None:
    server = await start(bot_delay=0.2)
    p = Player(server, guest=True, lang="en")
    deal = await to_the_play(p)
    since = len(p.screen)
    conns = server.lobby.conns[p.client.user["id"]]
    assert len(conns) == 1
    next(iter(conns)).close()  # the server closes the client's socket in the middle of the deal
    after = await finish_after_reconnecting(p, deal, since)
    assert re.search(r"The connection to the server was lost: reconnecting …\nReconnecting \(try 1\) in 0\.5 s …",
                     after), after[:2000]
    assert await p.quit() == 0


async def test_a_server_restarted_mid_deal_is_reconnected_to_and_the_deal_goes_on(start: ServerMaker) -> None:
    first = await start(bot_delay=0.2)
    p = Player(server=first, guest=True, lang="zh")
    deal = await to_the_play(p)
    since = len(p.screen)
    await first.stop()
    await p.expect(r"和服务器的连接断了：正在重新连接……", since=since)
    second = await start(again=first)  # the same database, the same port: the deal comes back from its journal
    assert second.lobby.tables[p.client.table["id"]].deal_id == deal
    await p.expect(r"已重新连接。", since=since)
    played = await p.play_until(r"第 1 局结束。", hint_and_enter)
    after = p.screen[since:]
    assert re.search(r"第 \d+ 次重新连接，[\d.]+ 秒后……", after)
    assert p.client.deal == deal and "第 2 局" not in after
    assert re.search(r"你(赢|输)了 \d+ 分。|你的积分不变。", played)
    assert await p.quit() == 0


async def test_when_the_server_stays_away_the_client_says_so_and_exits_1(start: ServerMaker) -> None:
    server = await start()
    p = Player(server, guest=True, lang="en", reconnect_for=2.0)
    await p.expect(r"lobby > ")
    await server.stop()
    code = await asyncio.wait_for(p.task, 20)
    shown = p.screen
    assert code == 1
    tries = re.findall(r"Reconnecting \(try (\d)\) in ([\d.]+) s …", shown)
    assert tries[:2] == [("1", "0.5"), ("2", "1")] and len(tries) in (2, 3), shown
    assert re.search(r"Could not reconnect to the server within 2 s: giving up\.\nBye\.\n$", shown), shown


# ---------------------------------------------------------------------------------------------- watching
async def test_a_spectator_watches_a_deal_cannot_act_and_leaves(start: ServerMaker) -> None:
    server = await start(bot_delay=0.25)
    a = await Client.guest(server)
    await a.connect()
    await a.send({"type": "quick_match", "room": "classic-1"})
    table = (await a.wait_for(lambda m: m["type"] == "joined"))["table"]
    await a.wait_for(lambda m: m["type"] == "state")
    await a.send({"type": "autoplay", "table": table, "on": True})  # the seated guest lets auto-play play

    w = Player(server, guest=True, lang="en")
    await w.expect(r"lobby > ")
    w.type("watch no-such-table")
    await w.expect(r"Refused: That table is gone")
    w.type("rooms")
    await w.expect(r"Tables you can watch \(type watch TABLE\):")
    await w.expect(rf"{re.escape(table)} +Dou Dizhu +room classic-1 +playing · Guest \d{{4}} · Bot \d · Bot \d")
    since = len(w.screen)
    w.type("watch " + table)
    await w.expect(rf"You watch table {re.escape(table)} \(Dou Dizhu, room classic-1\)", since=since)
    await w.expect(r"qipai · Dou Dizhu", since=since)  # the table, drawn at once
    await w.expect(rf"watching table {re.escape(table)} · leave · help > ", since=since)
    assert w.client.watching == table and server.lobby.tables[table].spectators
    for line in ("pass", "auto", "say 1", "bots"):
        w.type(line)
    await w.expect(r"(You only watch this table: you cannot play here \(type leave to go back to the lobby\)\."
                   r"[\s\S]*){4}", since=since)
    await w.expect(r"Bot \d: ", since=since)  # the moves, as they happen
    await w.expect(r"Deal 1 is over\.", since=since, timeout=60)
    watched = w.screen[since:]
    assert "Your hand" not in watched and "Your turn." not in watched
    assert not re.search(r"You (win|lose) \d+ points?|Your points do not change", watched)
    w.type("leave")
    await w.expect(r"You stopped watching the table\.\nBack in the lobby\.", since=since)
    await w.expect(r"lobby > $", since=since)
    assert w.client.table is None and not server.lobby.tables[table].spectators
    assert await w.quit() == 0
    await a.close()


# ---------------------------------------------------------------------------------------------- Shengji
def shengji_answer(tried: dict[str, int]) -> Callable[[Player], list[str]]:
    """A person at a Shengji table: in the deal one declaration that is not a level card, Enter in the final
    window; in the play now and then a play the client must refuse (the wrong number of cards, cards not held,
    a follow that ignores the led suit — that one only the server can judge), then hint and Enter."""
    from qipai.games.shengji.cards import SUITS, TRUMP, card, order

    def answer(p: Player) -> list[str]:
        st = p.client.state
        assert st is not None
        obs = st["observation"]
        mark = len(p.screen)
        if st["phase"] == "deal":
            if "declare" not in tried:
                tried["declare"] = mark
                return ["declare " + ("4S" if obs["level"] != "4" else "5S")]
            return []
        if st["phase"] == "final":
            return [""]
        lead = obs.get("lead")
        hand = obs["hand"].split()
        if not lead:
            return ["hint", ""]
        n = int(lead["n"])
        if "count" not in tried:
            tried["count"] = mark
            return [" ".join(hand[: n + 1]), "hint", ""]
        faces = [r + s for r in "23456789TJQKA" for s in "SHCD"] + ["B", "R"]
        missing = [f for f in faces if f not in hand]
        if "held" not in tried and missing:
            tried["held"] = mark
            return [" ".join([missing[0]] * n), "hint", ""]
        o = order(obs["level"], obs["trump"])
        led = TRUMP if lead["suit"] == "trump" else SUITS.index(lead["suit"])
        off = [c for c in hand if o.esuit[card(c)] != led]
        if "server" not in tried and len(hand) - len(off) >= n and len(off) >= n:
            tried["server"] = mark
            return [" ".join(off[:n]), "hint", ""]
        return ["hint", ""]

    return answer


@pytest.mark.timeout(240)
async def test_a_shengji_deal_online_with_typed_plays_checked_before_sending(start: ServerMaker) -> None:
    server = await start(time_scale=0.2, **FAST_CLIENTS)
    p = Player(server, guest=True, lang="en")
    await p.expect(r"lobby > ")
    p.type("quick four_deck-1")
    await p.expect(r"You sit at table \S+ \(Shengji, room four_deck-1\), seat \d\.")
    tried: dict[str, int] = {}
    played = await p.play_until(r"Hand 1 over · ", shengji_answer(tried), timeout=200)
    assert {"declare", "count", "held", "server"} <= set(tried), tried
    assert re.search(r"You cannot declare [45]♠ now: (type declare|you cannot overcall)", p.screen[tried["declare"]:])
    assert re.search(r"Not allowed: play \d+ cards? \(the lead has \d+\), not \d+", p.screen[tried["count"]:])
    assert re.search(r"Not allowed: you hold no \S+", p.screen[tried["held"]:])
    # what only the server can judge was asked of it first (``check``), and its reason shown
    assert re.search(r"Not allowed: you hold \d+ cards? of \w+: play \d+ of them|Not allowed: .*follow",
                     p.screen[tried["server"]:]), p.screen[tried["server"]:][:3000]
    assert "Refused" not in played  # nothing illegal was sent as an action
    assert "Auto-play on" not in played  # every play was typed in time
    assert re.search(r"Your hand \(\d+ cards\):", played) and re.search(r"Trick \d+ to ", played)
    tricks = len(re.findall(r"^  Trick \d+ to ", played, re.M))
    mine = re.findall(r"(?:^|> )You: \S", played, re.M)  # (after the prompt: the typed line is not echoed here)
    assert tricks >= 15 and len(mine) >= tricks, played[-3000:]  # one play of yours a trick
    assert re.search(r"You (win|lose) \d+ points?\.|Your points do not change\.", played)
    assert await p.quit() == 0


# ---------------------------------------------------------------------------------------------- friends (好友)
def spaced(text: str) -> str:
    """A pattern of ``text`` whose spaces match any white space (a long line wraps on the screen)."""
    return r"\s+".join(re.escape(w) for w in text.split())


async def test_friends_ask_accept_list_invite_join_and_unfriend_between_two_terminals(start: ServerMaker) -> None:
    server = await start()
    await Client.register(server, "Bob")
    alice = Player(server, name="alice", password="secret-pw", register=True, lang="en")
    await alice.expect(r"lobby > ")
    bob = Player(server, name="Bob", password="secret-pw", lang="zh")
    await bob.expect(r"大厅 > ")
    alice.type("help")  # (the help may wrap anywhere)
    await alice.expect(spaced("friends (好友: your friends and requests) · friend NAME (ask a player) · accept NAME · "
                              "decline NAME · unfriend NAME"))
    alice.type("friends")
    await alice.expect(r"Friends \(0\):\nNo friends yet: type friend NAME to ask a player\.")

    # a request (any case) and its notice, with the command to accept it
    alice.type("friend bob")
    await alice.expect(r"Friend request sent to Bob: you are friends when they accept\.")
    await bob.expect(r"alice 想加你为好友：输入 accept alice 同意（或 decline alice 拒绝）。")
    alice.type("friends")
    await alice.expect(r"Your requests, waiting for an answer \(unfriend NAME withdraws one\):\n  Bob\n")
    since = len(bob.screen)
    bob.type("好友")
    await bob.expect(r"好友（0）：[\s\S]*想加你为好友（输入 accept 玩家名 同意，decline 玩家名 拒绝）：\n  alice\n",
                     since=since)
    bob.type("accept ALICE")
    await bob.expect(r"你和 alice 成为了好友。", since=since)
    await alice.expect(r"Bob and you are friends now\.")
    since = len(alice.screen)
    alice.type("friends")
    await alice.expect(r"Friends \(1\):\n  Bob +online\n", since=since)
    assert "waiting for an answer" not in alice.screen[since:]

    # an invitation from a private table; the friend joins it by ``join`` alone
    alice.type("invite bob")
    await alice.expect(r"lobby > Sit at a private table first \(create ROOM\), then invite friends to it\.",
                       since=since)
    bob.type("join")
    await bob.expect(r"没有收到邀请：请输入 join 邀请码（好友牌桌的邀请码）。")
    alice.type("create classic-1")
    table = (await alice.expect(r"You sit at table (\S+) \(Dou Dizhu, room classic-1\), seat 0\.", since=since))[1]
    code = (await alice.expect(r"Invite code: ([A-Z0-9]{6})", since=since))[1]
    alice.type("invite BOB")
    await alice.expect(r"Bob is invited to your table: they type join to sit down\.", since=since)
    await bob.expect(rf"好友 alice 邀请你到牌桌 {re.escape(table)}（斗地主，房间 classic-1）：输入 join 坐下"
                     rf"（或 join {code}）。")
    since_b = len(bob.screen)
    bob.type("join")
    await bob.expect(rf"正在加入 alice 的牌桌 {re.escape(table)}（join {code}）……", since=since_b)
    await bob.expect(rf"你坐在牌桌 {re.escape(table)}（斗地主，房间 classic-1），1 号座。", since=since_b)
    await alice.expect(r"Seats: 0 You 1000 · 1 Bob 1000 · 2 \(empty\)", since=since)
    assert bob.client.friends.invitation is None  # used
    bob.type("help")
    await bob.expect(spaced("invite 玩家名 邀请好友到这张私人桌 · friends 好友"), since=since_b)
    bob.type("friends")  # at the table too
    await bob.expect(r"好友（1）：\n  alice +和你在同一桌\n", since=since_b)
    bob.type("join")
    await bob.expect(r"你坐在牌桌上：先离开。", since=since_b)

    # unfriending, told at the table
    alice.type("unfriend bob")
    await alice.expect(r"Bob is no longer your friend\.", since=since)
    await bob.expect(r"alice 把你从好友中删除了。", since=since_b)
    alice.type("invite bob")
    await alice.expect(r"bob is not your friend: type friends to see your list\.", since=since)
    bob.type("unfriend alice")
    await bob.expect(r"alice 既不是你的好友，也没有好友申请：输入 friends 看好友列表。", since=since_b)
    assert await alice.quit() == 0 and await bob.quit() == 0


async def test_friend_notices_and_refusals_with_a_player_over_http(start: ServerMaker) -> None:
    server = await start()
    carol = await Client.register(server, "carol")
    await carol.connect()
    dave = await Client.register(server, "dave")
    await dave.post("/api/friends", {"name": "alice"}, status=404)  # (nobody is called alice yet)
    alice = Player(server, name="alice", password="secret-pw", register=True, lang="en")
    await alice.expect(r"lobby > ")
    await dave.post("/api/friends", {"name": "alice"}, status=201)
    await alice.expect(r"dave asks to be your friend: type accept dave \(or decline dave\)\.")

    # refusals, worded
    for line, said in (("friend nobody-here", r"Refused: No player is called nobody-here"),
                       ("friend ALICE", r"You cannot be your own friend"),
                       ("friend", r"Type friend NAME\."),
                       ("accept nobody", r"Nobody called nobody asks to be your friend: type friends to see who "
                                         r"does\."),
                       ("decline carol", r"Nobody called carol asks to be your friend"),
                       ("unfriend carol", r"carol is neither your friend nor asked to be"),
                       ("join", r"No invitation to join: type join CODE")):
        since = len(alice.screen)
        alice.type(line)
        await alice.expect(said, since=since)
    guest = Player(server, guest=True, lang="zh")
    await guest.expect(r"大厅 > ")
    guest.type("friend alice")
    await guest.expect(r"不行：游客不能加好友：先保存为正式账号")
    guest.type("friends")
    await guest.expect(r"游客不能加好友：先保存为正式账号（在浏览器里注册）。")
    since = len(alice.screen)
    alice.type("friend " + guest.client.user["name"])
    await alice.expect(r"Refused: Guest \d{4} plays as a guest and cannot keep friends", since=since)

    # declining, and a request declined; ``accept`` alone takes the only request
    alice.type("decline DAVE")
    await alice.expect(r"You declined dave's friend request\.", since=since)
    alice.type("friend carol")
    await alice.expect(r"Friend request sent to carol", since=since)
    await carol.wait_for(lambda m: m["type"] == "friend" and m["event"] == "request")
    await carol.post(f"/api/friends/{alice.client.user['id']}/remove")
    await alice.expect(r"carol declined your friend request\.", since=since)
    await carol.post("/api/friends", {"name": "alice"}, status=201)
    await alice.expect(r"carol asks to be your friend", since=since)
    alice.type("accept")
    await alice.expect(r"You and carol are friends now\.", since=since)
    await carol.wait_for(lambda m: m["type"] == "friend" and m["event"] == "accepted")

    # a friend at a public table may be watched; an invitation needs a private table; a removal is told
    seated = await carol.post("/api/quick-match", {"room": "classic-1"})
    alice.type("friends")
    await alice.expect(rf"  carol +at table {re.escape(seated['table'])} \(type watch {re.escape(seated['table'])}\)",
                       since=since)
    alice.type("quick classic-1")
    await alice.expect(r"You sit at table ", since=since)
    alice.type("invite carol")
    await alice.expect(r"Refused: Friends are invited to a private table: create one first", since=since)
    await carol.post(f"/api/friends/{alice.client.user['id']}/remove")
    await alice.expect(r"carol removed you from their friends\.", since=since)
    assert await alice.quit() == 0 and await guest.quit() == 0
    await carol.close()


async def test_requests_made_while_away_are_said_at_log_in_and_an_invitation_reaches_a_spectator(
        start: ServerMaker) -> None:
    server = await start()
    erin = await Client.register(server, "erin")
    await Client.register(server, "frank")
    await erin.post("/api/friends", {"name": "frank"}, status=201)
    frank = Player(server, name="frank", password="secret-pw", lang="en")
    await frank.expect(r"erin asked to be your friend: type friends \(accept NAME, decline NAME\)\.")
    frank.type("accept erin")
    await frank.expect(r"You and erin are friends now\.")
    # frank watches a public table; erin invites him to her private one: ``join`` stops watching and sits down
    host = await Client.guest(server)
    public = (await host.post("/api/quick-match", {"room": "classic-1"}))["table"]
    frank.type("watch " + public)
    await frank.expect(rf"watching table {re.escape(public)} · leave · help > ")
    made = await erin.post("/api/tables", {"room": "classic-1"})
    await erin.post(f"/api/friends/{frank.client.user['id']}/invite")
    await frank.expect(rf"Your friend erin invites you to table {re.escape(made['table'])} \(Dou Dizhu, room "
                       rf"classic-1\): type join to sit down \(or join {made['invite_code']}\)\.")
    frank.type("join")
    await frank.expect(r"You stopped watching the table\.")
    await frank.expect(rf"You sit at table {re.escape(made['table'])} \(Dou Dizhu, room classic-1\), seat 1\.")
    assert frank.client.watching is None and frank.client.table is not None
    assert frank.client.table["id"] == made["table"]
    assert await frank.quit() == 0


async def settled(*players: Player) -> None:
    """Wait until the players' clients have nothing left running (the friends list read at log-in)."""
    end = time.monotonic() + 10
    while any(p.client.pending for p in players) and time.monotonic() < end:
        await asyncio.sleep(0.02)


async def test_block_and_unblock_from_the_terminal_and_the_blocked_players_request_is_refused(
        start: ServerMaker) -> None:
    server = await start()
    await Client.register(server, "Bob")
    carol = await Client.register(server, "carol")
    await carol.connect()
    alice = Player(server, name="alice", password="secret-pw", register=True, lang="en")
    await alice.expect(r"lobby > ")
    bob = Player(server, name="Bob", password="secret-pw", lang="zh")
    await bob.expect(r"大厅 > ")
    alice.type("help")
    await alice.expect(spaced("unfriend NAME · block NAME (拉黑: no more requests from them) · unblock NAME"))

    # Bob asks; alice blocks him (any case): his request is declined, and his next one refused
    await settled(alice, bob)
    bob.type("friend alice")
    await alice.expect(r"Bob asks to be your friend")
    await bob.expect(r"已向 alice 发送好友申请")  # (its answer came: the request is known as his)
    since, since_b = len(alice.screen), len(bob.screen)
    alice.type("block bob")
    await alice.expect(r"You blocked Bob \(拉黑\) and declined their friend request: their friend requests are "
                       r"refused \(unblock Bob lifts it\)\.", since=since)
    await bob.expect(r"alice 拒绝了你的好友申请。", since=since_b)
    bob.type("friend alice")
    await bob.expect(r"不行：alice 不接受你的好友申请", since=since_b)
    alice.type("friends")
    await alice.expect(r"Blocked \(拉黑: their friend requests are refused\):\n  Bob +type unblock Bob to lift\n",
                       since=since)
    assert "Asking to be your friend" not in alice.screen[since:]
    alice.type("block BOB")
    await alice.expect(r"Bob is blocked already \(unblock Bob lifts it\)\.", since=since)

    # refusals: oneself, nobody, a player not blocked
    for line, said in (("block ALICE", r"You cannot block yourself\."),
                       ("block nobody-here", r"No player is called nobody-here\."),
                       ("unblock carol", r"You have not blocked carol: type friends to see whom you blocked\."),
                       ("block", r"Type block NAME\.")):
        since = len(alice.screen)
        alice.type(line)
        await alice.expect(said, since=since)

    # unblocking: Bob may ask again
    since = len(alice.screen)
    alice.type("unblock BOB")
    await alice.expect(r"You unblocked Bob: they may ask you to be friends again\.", since=since)
    bob.type("friend alice")
    await bob.expect(r"已向 alice 发送好友申请", since=since_b)
    await alice.expect(r"Bob asks to be your friend", since=since)

    # a friend blocked (zh words, 拉黑): no longer friends, told as a removal
    since_b = len(bob.screen)
    alice.type("accept bob")
    await bob.expect(r"alice 和你成为了好友。", since=since_b)
    await alice.expect(r"You and Bob are friends now\.", since=since)
    bob.type("拉黑 alice")
    await bob.expect(r"已拉黑 alice，你们不再是好友：对方的好友申请会被拒绝（unblock alice 取消拉黑）。", since=since_b)
    await alice.expect(r"Bob removed you from their friends\.", since=since)
    bob.type("好友")
    await bob.expect(r"已拉黑（对方的好友申请会被拒绝）：\n  alice +输入 unblock alice 取消拉黑\n", since=since_b)
    alice.type("friend bob")
    await alice.expect(r"Refused: Bob takes no friend requests from you", since=since)
    # asking a player one blocked lifts the block, and says so
    bob.type("friend alice")
    await bob.expect(r"已取消对 alice 的拉黑。\n.*已向 alice 发送好友申请", since=since_b)
    bob.type("unblock alice")
    await bob.expect(r"你没有拉黑 alice", since=since_b)
    assert await alice.quit() == 0 and await bob.quit() == 0
    await carol.close()


async def test_a_player_in_no_list_is_blocked_by_name(start: ServerMaker) -> None:
    server = await start()
    carol = await Client.register(server, "carol")  # (never seated: on no leaderboard)
    await carol.connect()
    alice = Player(server, name="alice", password="secret-pw", register=True, lang="en")
    await alice.expect(r"lobby > ")
    alice.type("block Carol")
    await alice.expect(r"You blocked carol \(拉黑\): their friend requests are refused \(unblock carol lifts it\)\.")
    refused = await carol.post("/api/friends", {"name": "alice"}, status=403)
    assert refused["error"]["code"] == "blocked"
    # at a table together, her quick chat is muted for alice until she lifts the block
    alice.type("create classic-1")
    code = (await alice.expect(r"Invite code: ([A-Z0-9]{6})"))[1]
    since = len(alice.screen)
    joined = await carol.post("/api/tables/join", {"invite": code})
    await alice.expect(r"carol", since=since)
    await carol.send({"type": "chat", "table": joined["table"], "phrase": "good_luck"})
    await carol.wait_for(lambda m: m["type"] == "chat")  # (the table has heard it)
    await asyncio.sleep(0.5)
    assert "carol says" not in alice.screen
    since = len(alice.screen)
    alice.type("unblock carol")
    await alice.expect(r"You unblocked carol", since=since)
    since = len(alice.screen)
    await asyncio.sleep(2.1)  # (quick chat is rate-limited)
    await carol.send({"type": "chat", "table": joined["table"], "phrase": "good_luck"})
    await alice.expect(r"carol says: Good luck", since=since)
    assert alice.screen.count("carol says") == 1
    assert await alice.quit() == 0
    await carol.close()


async def test_the_players_of_a_deal_together_are_listed_as_recent(start: ServerMaker) -> None:
    server = await start()
    await Client.register(server, "bob")
    alice = Player(server, name="alice", password="secret-pw", register=True, lang="en")
    bob = Player(server, name="bob", password="secret-pw", lang="zh")
    await alice.expect(r"lobby > ")
    await bob.expect(r"大厅 > ")
    alice.type("friends")
    await alice.expect(r"No friends yet")
    assert "Played with lately" not in alice.screen
    await a_deal_together(alice, bob)
    since, since_b = len(alice.screen), len(bob.screen)
    alice.type("friends")
    await alice.expect(r"Played with lately \(最近同桌\):\n  bob +type friend bob to ask\n", since=since)
    assert "Bot" not in alice.screen[since:]
    bob.type("friends")
    await bob.expect(r"最近同桌：\n  alice +输入 friend alice 加好友\n", since=since_b)
    # a recent player may be blocked by name; he is then listed as blocked, no longer as recent
    alice.type("block bob")
    await alice.expect(r"You blocked bob \(拉黑\): their friend requests are refused", since=since)
    since = len(alice.screen)
    alice.type("friends")
    await alice.expect(r"  bob +type unblock bob to lift\n", since=since)
    assert "Played with lately" not in alice.screen[since:]
    assert await alice.quit() == 0 and await bob.quit() == 0


async def test_the_reconnect_for_option(start: ServerMaker, monkeypatch: pytest.MonkeyPatch) -> None:
    server = await start()
    for bad in ("-1", "abc", "nan"):
        code, _, err = await run_cli("online", server.http, "--guest", "--lang", "en", "--reconnect-for", bad)
        assert (code, err) == (2, f"error: --reconnect-for takes a number of seconds (0 or more), got {bad!r}\n")
    # a good value reaches the client's options (and a client told 0 does not try again at all)
    from typer.testing import CliRunner

    import qipai.tui.online as online
    from qipai.cli import app

    seen: list[OnlineOptions] = []

    async def fake_run(opts: OnlineOptions) -> int:
        seen.append(opts)
        return 0

    monkeypatch.setattr(online, "run_online", fake_run)
    for given, value in ((["--reconnect-for", "2.5"], 2.5), ([], 30.0)):
        r = await asyncio.to_thread(CliRunner().invoke, app, ["online", server.http, "--guest", *given])
        assert r.exit_code == 0, r.output
        assert seen[-1].reconnect_for == value
    p = Player(server, guest=True, lang="en", reconnect_for=0.0)
    await p.expect(r"lobby > ")
    await server.stop()
    assert await asyncio.wait_for(p.task, 20) == 1
    assert "Reconnecting" not in p.screen


async def test_a_notice_between_an_enter_and_its_line_shows_the_prompt_once(start: ServerMaker) -> None:
    server = await start()
    p = Player(server, guest=True, lang="en")
    await p.expect(r"lobby > ")
    await asyncio.sleep(0.3)  # (the friends greeting, if any, is over)
    since = len(p.screen)
    # Enter is pressed (an empty line), and a notice is printed before the keyboard's task reads the line: the
    # notice shows the prompt again, which the line must not show a second time
    p.type("")
    p.client.friends.on_message({"type": "friend", "event": "request", "user": {"id": 999, "name": "zed"}})
    p.client.show_prompt()
    await asyncio.sleep(0.3)
    shown = p.screen[since:]
    assert "zed asks to be your friend" in shown
    assert "lobby > lobby > " not in p.screen, shown
    assert shown.endswith("lobby > "), shown
    assert await p.quit() == 0


async def test_a_players_profile_from_the_terminal(start: ServerMaker) -> None:
    """``profile NAME`` (资料): a player's standing in every game, his latest deals — the browser's replay address
    only where the one asking may replay it — what he is to the one asking and what to type; refusals worded."""
    server = await start()
    await Client.register(server, "bob")
    await Client.register(server, "cy")
    guest = await Client.guest(server)
    alice = Player(server, name="alice", password="secret-pw", register=True, lang="en")
    bob = Player(server, name="bob", password="secret-pw", lang="zh")
    await alice.expect(r"lobby > ")
    await bob.expect(r"大厅 > ")
    await a_deal_together(alice, bob)
    # at the table: bob played that deal with her, so its replay is his to open
    since = len(alice.screen)
    alice.type("profile BOB")
    await alice.expect(r"Player bob:\n  Dou Dizhu: \d+ points, \w+, 1 deal, win rate (0|100)%, No\. \d+ on the "
                       r"leaderboard\n  Shengji: 1000 points, \w+, 0 deals, win rate —, not ranked\n"
                       r"  Mahjong: 1000 points, \w+, 0 deals", since=since)  # (not "mahjong" among the others)
    deal = await alice.expect(r"Latest 1 deal:\n  \d{4}-\d\d-\d\d \d\d:\d\d  Dou Dizhu \(classic\)  (won|lost) "
                              r"[+-]\d+  · replay: http://[^ ]+/#/replay/(\d+)\n", since=since)
    await alice.expect(r"Type friend bob to ask to be friends, block bob to block\.", since=since)
    # in the lobby, in Chinese: cy did not play it (no replay); a guest and nobody are refused in words
    cy = Player(server, name="cy", password="secret-pw", lang="zh")
    await cy.expect(r"大厅 > ")
    cy.type("资料 alice")
    await cy.expect(r"玩家资料：alice\n  斗地主：\d+ 分，\S+，1 局，胜率 (0|100)%，排行榜第 \d+ 名\n")
    line = (await cy.expect(r"最近 1 局：\n(  .*)\n"))[1]
    assert "斗地主（classic）" in line and "回放" not in line and "#/replay/" not in line
    await cy.expect(r"输入 friend alice 加好友，block alice 拉黑。")
    cy.type(f"profile {guest.user['name']}")
    await cy.expect(re.escape(guest.user["name"]) + r" 是游客，没有玩家资料")
    cy.type("profile nobody-here")
    await cy.expect(r"没有叫 nobody-here 的玩家")
    for odd in ("..", "a/b"):  # (the path's dots and a "/": HTTP 404 and "no such endpoint")
        cy.type(f"profile {odd}")
        await cy.expect(rf"没有叫 {re.escape(odd)} 的玩家")
    # a guest's and a bot's seat typed as the table shows it (no account is called so): what they are
    cy.type("profile 游客0427")
    await cy.expect(r"游客0427 是游客，没有玩家资料")
    cy.type("profile 电脑2号")
    await cy.expect(r"电脑2号 是电脑，没有玩家资料")
    cy.type("profile")
    await cy.expect(r"请输入 profile NAME")
    # what she is to him follows the friends commands
    since = len(cy.screen)
    cy.type("friend alice")
    await cy.expect(r"alice", since=since)
    cy.type("profile alice")
    await cy.expect(r"玩家资料：alice（已申请加好友）\n", since=since)
    await cy.expect(r"等待 alice 同意（unfriend alice 撤回申请）。", since=since)
    assert deal[2]
    assert await alice.quit() == 0 and await bob.quit() == 0 and await cy.quit() == 0


async def test_top_shows_the_leaderboards_of_this_week_and_this_month(start: ServerMaker,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """``top [GAME] [week|month]`` (排行榜, 周榜, 月榜): the first ten of a board and one's own place, in both
    languages; the server's week is Asia/Shanghai's (its clock fixed on a Wednesday), the deals dated in the
    database: one on 1 December in Shanghai (the month's), one on Monday 7 December at 00:30 there (the week's)."""
    from datetime import UTC, datetime

    from sqlalchemy import update

    from qipai.store import SettleRow, TableInfo
    from qipai.store.models import Deal

    monkeypatch.setattr("qipai.server.api.leaderboard_now", lambda: datetime(2026, 12, 9, 12, 0, tzinfo=UTC))
    server = await start(leaderboard_tz="Asia/Shanghai")
    store = server.lobby.store
    ann, bo = await Client.register(server, "ann"), await Client.register(server, "bo")
    await store.create_table(TableInfo("T-top", "doudizhu", None, {"preset": "classic"}, False, None, "passive",
                                       "heuristic", 0, None), 3)
    for n, (when, a, b) in enumerate(((datetime(2026, 11, 30, 17, 0, tzinfo=UTC), -50, 50),
                                      (datetime(2026, 12, 6, 16, 30, tzinfo=UTC), 30, -30))):
        d = await store.start_deal("T-top", n, "doudizhu", {"preset": "classic"}, n, {}, [])
        await store.settle(d, "doudizhu", {}, {}, [SettleRow(ann.user["id"], 0, a, "landlord", a > 0),
                                                  SettleRow(bo.user["id"], 1, b, "farmer", b > 0)])
        async with store.sessions.begin() as s:
            await s.execute(update(Deal).where(Deal.id == d).values(finished_at=when))
    zh = Player(server, name="ann", password="secret-pw", lang="zh")
    await zh.expect(r"大厅 > ")
    zh.type("top 周")
    await zh.expect(r"斗地主 周榜（自 2026-12-07 0 点起的牌局得分，Asia/Shanghai 时间；救济和比赛奖金不计）：\n"
                    r"    1\. ann +\+30  1 局 胜 1  \S+\n    2\. bo +-30  1 局 胜 0  [^\n]+\n"
                    r"我的本周排名：第 1 名（本周 \+30 分）。")
    zh.type("排行榜 麻将 month")
    await zh.expect(r"麻将 月榜（自 2026-12-01 0 点起.*\n  本月还没有人上榜。\n你本月还没有上榜：本月打一局就上榜。")
    since = len(zh.screen)
    zh.type("top")
    await zh.expect(r"斗地主 总榜（按现有积分）：\n    1\. bo +20  2 局 胜 1  \S+\n    2\. ann +-20  2 局 胜 1",
                    since=since)
    zh.type("top 年")
    await zh.expect(r"top：'年' 既不是游戏（doudizhu shengji mahjong）也不是周期")
    en = Player(server, name="bo", password="secret-pw", lang="en")
    await en.expect(r"lobby > ")
    en.type("top month doudizhu")
    await en.expect(r"Dou Dizhu leaderboard, this month \(points won at the deals since 2026-12-01, 00:00 "
                    r"Asia/Shanghai; relief and match prizes do not count\):\n"
                    r"    1\. bo +\+20  2 deals, 1 win  [^\n]+\n    2\. ann +-20  2 deals, 1 win  [^\n]+\n"
                    r"Your place this month: No\. 1 \(\+20 points this month\)\.")
    en.type("top week")
    await en.expect(r"Your place this week: No\. 2 \(-30 points this week\)\.")
    en.type("help")
    await en.expect(spaced("top [GAME] [week|month] (the leaderboard: 排行榜, 周榜, 月榜)"))  # (it may wrap)
    assert await zh.quit() == 0 and await en.quit() == 0


async def test_a_private_table_for_two_deals_ends_with_the_final_results(start: ServerMaker) -> None:
    """``create ROOM DEALS``: the count in the table's words and each deal's header (Deal 1/2), and after the
    second deal the final results (大结算) printed — every player's total ranked, the winner marked, oneself
    named — and the player back in the lobby; a count out of range is refused before it is sent."""
    server = await start()
    p = Player(server, name="carol", password="secret-pw", register=True, lang="en")
    await p.expect(r"lobby > ")
    p.type("help")
    await p.expect(spaced("create ROOM [DEALS] (a private table for friends; DEALS: played for that many deals, then "
                          "the final results)"))
    p.type("create classic-1 65")
    await p.expect(r"DEALS is a number of deals from 1 to 64: create ROOM \[DEALS\]\.")
    assert not server.lobby.tables
    p.type("create classic-1 2")
    await p.expect(r"This table plays 2 deals, then the final results\.")
    table_id = next(iter(server.lobby.tables))
    p.type("bots")
    await p.expect(r"Deal 1/2")
    await p.play_until(r"Deal 1 is over\.", hint_and_enter)
    p.type("")  # 准备
    await p.expect(r"Deal 2/2")
    out = await p.play_until(r"All the table.s deals are played: it closes\.\nBack in the lobby\.", hint_and_enter)
    await p.expect(r"lobby > ", since=len(p.screen) - len(out))
    assert "Final results: 2 deals played" in out
    lines = re.findall(r"^(\d)\. (.+?)  ([+-]\d+)  won (\d)/2  last ([+-]\d+)(  ← winner)?$", out, re.M)
    assert len(lines) == 3, out
    totals = [int(x[2]) for x in lines]
    assert totals == sorted(totals, reverse=True) and sum(totals) == 0  # ranked; Dou Dizhu's scores add up to 0
    assert sum(1 for x in lines if x[1] == "carol (you)") == 1
    summary = (await Client(server, p.client.token, p.client.user).get(f"/api/tables/{table_id}/summary"))["summary"]
    assert totals == [r["total"] for r in summary["players"]]
    assert [bool(x[5]) for x in lines] == [r["winner"] for r in summary["players"]]
    assert table_id not in server.lobby.tables
    assert await p.quit() == 0
