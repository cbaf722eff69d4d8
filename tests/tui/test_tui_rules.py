"""玩法说明 in the terminal: ``rules`` (规则, 玩法) at a table of ``qipai play`` (each game, in play and between
deals) and of ``qipai online`` (sitting and watching; ``rules ROOM|PRESET`` in the lobby), and
``qipai rules --game G --explain PRESET`` — the game's own words for the table's options, in the chosen language,
wrapped to the terminal's width."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console

from qipai.tui.explain import wrap
from qipai.tui.reader import LineReader

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_tui_online import Player, ServerMaker

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import Client, Database, LiveServer, fast_settings

pytestmark = pytest.mark.timeout(120)

WIDTH = 64


@pytest.fixture
async def start(tmp_path: Path) -> AsyncIterator[ServerMaker]:
    """``await start()``: a live server on a SQLite database of this test (stopped at the end)."""
    servers: list[LiveServer] = []

    async def make() -> LiveServer:
        db = Database(f"sqlite+aiosqlite:///{tmp_path / f'qipai{len(servers)}.db'}")
        servers.append(await LiveServer(fast_settings(db)).start())
        return servers[-1]

    yield make
    for s in servers:
        await s.stop()


class Typed(LineReader):
    """The lines typed, in order, then the end of input."""

    can_time_out = False

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.fd = -1
        self.buf = b""

    def readline(self, timeout: float | None = None) -> str | None:
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def console(buf: io.StringIO) -> Console:
    return Console(file=buf, width=WIDTH, color_system=None, highlight=False, markup=False, emoji=False)


def block(out: str, head: str) -> str:
    """The rules printed from their heading to the next prompt (after the last section, time and auto-play: the
    sections before may say ``>``)."""
    lines = out[out.index(head) :].splitlines()
    last = next(i for i, line in enumerate(lines) if line in ("Time and auto-play", "时间与托管"))
    end = next((i for i, line in enumerate(lines) if i > last and " > " in line), len(lines))
    return "\n".join(lines[:end])


def fits(text: str, width: int = WIDTH) -> None:
    """Every line within the terminal's width (the words were wrapped, not cut by the terminal)."""
    long = [line for line in text.splitlines() if cell_len(line.rstrip()) > width]
    assert not long, long


def test_wrap_keeps_words_and_marks_whole() -> None:
    assert wrap("one two three four", 9) == ["one two", "three", "four"]
    assert wrap("红中满天飞：听牌的人摸到红中，也算摸宝胡。", 12) == [
        "红中满天飞：",
        "听牌的人摸到",
        "红中，也算摸",
        "宝胡。",
    ]
    assert all(cell_len(x) <= 12 for x in wrap("x" * 30 + " 字" * 10, 12))
    assert wrap("", 10) == []


def test_doudizhu_table_rules_in_play_and_between_deals() -> None:
    """At the bid: the table's preset's rules (chengdu: the doubling, the escape), then play goes on (the bid
    prompt comes again)."""
    from qipai.tui.table import TableOptions, TableSession

    buf = io.StringIO()
    opts = TableOptions(preset="chengdu", lang="zh", seed=7, bots=["passive"], records=None, auto_delay=0)
    session = TableSession(opts, console(buf), Typed(["玩法"]))
    session.run()
    out = buf.getvalue()
    assert "玩法说明 · 斗地主 · chengdu" in out
    for words in ("叫地主", "“倒”", "倒、反、斡、垒各 ×2", "逃跑：牌局中离开"):
        assert words in out, words
    assert "• 单牌：任意一张，如 5。" in out  # a list line, bulleted
    rules = block(out, "玩法说明 · 斗地主")
    assert "叫分 [" in out[out.index(rules) + len(rules) :]  # then the bid is asked again
    fits(rules)


def test_shengji_table_rules_follow_its_own_options() -> None:
    """``-o throws=off -o hand_limit=3``: the words say so (no throws section, at most 3 hands), in English."""
    from qipai.tui.shengji import ShengjiOptions, ShengjiSession

    buf = io.StringIO()
    session = ShengjiSession(
        ShengjiOptions(
            seed=9, lang="en", records=None, rules={"hand_limit": "3", "deal_step_ms": "0", "throws": "off"}
        ),
        console=console(buf),
        reader=Typed(["rules"]),
    )
    assert session.run() == 0
    out = buf.getvalue()
    rules = block(out, "How to play · Shengji")
    assert "there are no throws at this table" in rules and "Throws (甩牌)" not in rules
    assert "At most 3 hands: after 3 hands the match ends" in rules
    fits(rules)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_mahjong_table_rules_and_the_help_names_them(lang: str) -> None:
    from qipai.tui.mahjong import MahjongOptions, MahjongSession

    buf = io.StringIO()
    session = MahjongSession(
        MahjongOptions(seed=7, lang=lang, deals=1, records=None, auto_delay=0, rules={"auto_hu": "off", "base": "5"}),
        console=console(buf),
        reader=Typed(["help", "规则"]),
    )
    assert session.run() == 0
    out = buf.getvalue()
    head = {"zh": "玩法说明 · 大庆麻将", "en": "How to play · Daqing mahjong"}[lang]
    rules = block(out, head)
    assert {"zh": "由你选择胡还是过", "en": "you choose to win or pass"}[lang] in rules
    assert {"zh": "底分 5 × 2^番数", "en": "base 5 × 2^fans"}[lang] in rules
    assert {"zh": "玩法（本桌规则）", "en": "rules (how to"}[lang] in out[: out.index(head)]  # the help
    fits(rules)


def test_the_help_texts_name_the_rules_command() -> None:
    from qipai.tui.i18n import tr
    from qipai.tui.shengji.words import tr as sj

    for lang in ("en", "zh"):
        assert "rules" in tr(lang, "help") and "rules" in tr(lang, "prompt_next")
        assert "rules" in sj(lang, "help") and "rules" in sj(lang, "prompt_next")


def qipai(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LANG": "C.UTF-8", "COLUMNS": "50", "TERM": "dumb"}
    return subprocess.run(
        [sys.executable, "-m", "qipai.cli", *args], capture_output=True, text=True, timeout=60, env=env
    )


def test_qipai_rules_explain_on_the_command_line() -> None:
    out = qipai("rules", "--game", "doudizhu", "--explain", "four_player", "--lang", "en")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("How to play · Dou Dizhu · four_player\n")
    assert "Two decks, 108 cards, 4 players, 25 cards each" in " ".join(out.stdout.split())
    fits(out.stdout, 50)
    out = qipai("rules", "--game", "shengji", "--explain", "four_deck", "-o", "throws=off", "--lang", "zh")
    assert out.returncode == 0, out.stderr
    assert "本桌不能甩牌" in out.stdout.replace("\n", "") and "甩牌失败" not in out.stdout.replace("\n", "")
    # a list option, its names a comma apart (the letters of "single,pair,bomb" were read as its names)
    out = qipai("rules", "--explain", "classic", "-o", "kinds=single,pair,bomb", "--lang", "en")
    assert out.returncode == 0, out.stderr
    said = " ".join(out.stdout.split())
    assert "Pair: two of a rank" in said and "Bomb: four of a rank" in said and "Straight:" not in said
    for args, says in (
        (("--game", "mahjong", "--explain", "classic"), "unknown preset 'classic' for mahjong"),
        (("--explain", "daqing"), "(daqing is mahjong's: add --game mahjong)"),  # (Dou Dizhu's presets by default)
        (("--game", "chess", "--explain", "x"), "unknown game 'chess'"),
        (("--game", "mahjong", "--explain", "daqing", "-o", "colour=red"), "unknown rule option"),
        (("--game", "mahjong", "--explain", "daqing", "--lang", "fr"), "--lang must be zh or en"),
        (("chengdu", "-o", "spring=off"), "-o/--option goes with --explain"),
    ):
        out = qipai("rules", *args)
        assert out.returncode != 0 and says in out.stderr, (args, out.stderr)


# ------------------------------------------------------------------------------------------ qipai online
async def test_online_rules_in_the_lobby_at_a_table_and_watching(start: ServerMaker) -> None:
    """The lobby's ``rules ROOM`` and ``rules PRESET``; ``rules`` at a private table with its own options (the
    server words them: POST /api/rules) and while watching a table."""
    server = await start()
    alice = await Client.register(server, "alice")
    made = await alice.post("/api/tables", {"room": "four_deck-1", "options": {"throws": False, "hand_limit": 4}})
    p = Player(server, name="bob", password="secret-pw", register=True, lang="en")
    await p.expect(r"lobby > ")
    mark = len(p.screen)
    p.type("rules chengdu-1")
    await p.expect(r"How to play · Dou Dizhu · chengdu", since=mark)
    await p.expect(r"Escaping: leaving during a deal", since=mark)
    mark = len(p.screen)
    p.type("rules daqing")
    await p.expect(r"How to play · mahjong · daqing[\s\S]*Automatic win", since=mark)
    mark = len(p.screen)
    p.type("rules shengji")
    await p.expect(r"How to play · Shengji · four_deck", since=mark)
    mark = len(p.screen)
    p.type("rules nope")
    await p.expect(r"'nope' is no room, game or preset: [\s\S]*four_deck", since=mark)
    p.type("rules")
    await p.expect(r"Type rules ROOM or PRESET", since=mark)
    p.type("help")
    await p.expect(r"rules ROOM or PRESET \(how to play", since=mark)
    # watching alice's private table (its invite): its own options
    mark = len(p.screen)
    p.type(f"watch {made['table']} {made['invite_code']}")
    await p.expect(r"[Ww]atching", since=mark)
    mark = len(p.screen)
    p.type("rules")
    await p.expect(r"How to play · Shengji · four_deck", since=mark)
    await p.expect(r"there are no throws at this table", since=mark)
    await p.expect(r"At most 4 hands", since=mark)
    assert "Throws (甩牌)" not in p.screen[mark:]
    p.type("leave")
    # sitting at a quick-match table: that room's rules, in Chinese for a Chinese client
    q = Player(server, guest=True, lang="zh")
    await q.expect(r"大厅 > ")
    q.type("quick daqing-1")
    await q.expect(r"你坐在牌桌")
    mark = len(q.screen)
    q.type("玩法")
    await q.expect(r"玩法说明 · 麻将 · daqing", since=mark)
    await q.expect(r"系统自动胡牌", since=mark)
    for x in (p, q):
        x.type("quit")
        await x.task


async def test_online_rules_refused_are_one_line(start: ServerMaker) -> None:
    """A server that cannot word the rules (an error answer) is said in one line; the client goes on."""
    server = await start()
    p = Player(server, guest=True, lang="en")
    await p.expect(r"lobby > ")
    mark = len(p.screen)
    p.type("rules doudizhu nope")
    await p.expect(r"This game has no preset nope: choose classic", since=mark)
    p.type("me")
    await p.expect(r"points", since=mark)
    p.type("quit")
    await p.task
