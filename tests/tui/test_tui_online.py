"""``qipai online`` against a real server (in this process, on a SQLite database, with fast bots): the client is
driven by scripted input the way a person types — ``hint`` then Enter at each Dou Dizhu turn, the first legal
choice in mahjong — and its screen is read back.  Log-in failures run the real command in a process of its own.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from qipai.tui.online import OnlineClient, OnlineOptions, QueueLines

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import Client, Database, LiveServer, fast_settings, free_port

pytestmark = pytest.mark.timeout(120)

FAST_CLIENTS = {"rate_limit": 1000.0, "rate_burst": 2000}

ServerMaker = Callable[..., Any]


@pytest.fixture
async def start(tmp_path: Path) -> AsyncIterator[ServerMaker]:
    """``await start(**settings)``: a live server on a SQLite database of this test (stopped at the end)."""
    servers: list[LiveServer] = []

    async def make(**kw: Any) -> LiveServer:
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
        end = time.monotonic() + timeout
        start = len(self.screen)
        while not re.search(pattern, self.screen[start:]):
            if self.task.done():
                self.task.result()
                raise AssertionError(f"the client ended:\n{self.screen[-3000:]}")
            if time.monotonic() > end:
                raise AssertionError(f"no {pattern!r} within {timeout} s; the screen ends:\n{self.screen[-3000:]}")
            key = self.turn()
            if key is not None and time.monotonic() - self.sent.get(key, 0.0) > 2.0:
                self.sent[key] = time.monotonic()
                for line in answer(self):
                    self.type(line)
            await asyncio.sleep(0.02)
        return self.screen[start:]

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
    assert f"You: {delta:+d} → {1000 + delta} " in settled
    p.type("me")
    await p.expect(rf"Dou Dizhu {1000 + delta} points \(\S+, 1 played")
    assert await p.quit() == 0
    assert p.screen.rstrip().endswith("Bye.")


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
