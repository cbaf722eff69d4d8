"""The terminal game's parts, in process: input reading, play checks, hints, views, and whole tables driven by a
scripted reader (fast, no terminal)."""

from __future__ import annotations

import io
import json
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from qipai.cli import app
from qipai.games.doudizhu.cards import counts_of, parse_ranks
from qipai.games.doudizhu.combos import classify
from qipai.games.doudizhu.hints import hint_actions, order_moves
from qipai.games.doudizhu.record import replay
from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game
from qipai.tui import SetupError, TableOptions, TableSession
from qipai.tui.commands import Command, check_play, parse_command, read_ranks
from qipai.tui.reader import LineReader
from qipai.tui.render import TableFacts, history_view, result_view, screen, settlement, sort_hand, tricks

CLASSIC = PRESETS["classic"]


# ---------------------------------------------------------------- reading input
@pytest.mark.parametrize(("line", "phase", "cmd"), [
    ("  ", "play", Command("empty")),
    ("P", "play", Command("pass")),
    ("不出", "play", Command("pass")),
    ("提示", "play", Command("hint")),
    ("托管", "play", Command("auto")),
    ("排序", "play", Command("sort")),
    ("上手牌", "play", Command("last")),
    ("历史得分", "bid", Command("history")),
    ("结果", "between", Command("result")),
    ("?", "bid", Command("help")),
    ("Q", "play", Command("quit")),
    ("play 33344", "play", Command("play", "33344")),
    ("3334:plane", "play", Command("play", "3334:plane")),
    ("bid 2", "bid", Command("choice", "bid 2")),
    ("3分", "bid", Command("choice", "bid 3")),
    ("叫地主", "bid", Command("choice", "call")),
    # the bid written as one word (叫三分 was refused: 叫 was dropped only as a word of its own)
    ("叫三分", "bid", Command("choice", "bid 3")),
    ("叫3分", "bid", Command("choice", "bid 3")),
    ("叫1分", "bid", Command("choice", "bid 1")),
    ("叫一分", "bid", Command("choice", "bid 1")),
    ("叫两分", "bid", Command("choice", "bid 2")),
    ("叫2", "bid", Command("choice", "bid 2")),
    ("叫", "bid", Command("choice", "call")),
    ("抢地主", "bid", Command("choice", "call")),
    ("不叫", "bid", Command("pass")),
    ("叫四分", "bid", Command("unknown", "叫四分")),
    ("4", "bid", Command("unknown", "4")),
    ("倒", "double", Command("choice", "double*")),
    ("redouble", "double", Command("choice", "double*")),
    ("亮牌", "show", Command("choice", "show")),
    ("xyz", "between", Command("unknown", "xyz")),
    # a choice typed as the prompt shows it
    ("double (倒)", "double", Command("choice", "double*")),
    ("redouble（反）", "double", Command("choice", "double*")),
    ("pass (不加倍)", "double", Command("pass")),
    # an earlier phase's choice in play is said to be over, not read as cards (``bid 5`` was "cannot read 'id'")
    ("bid 5", "play", Command("past", "bid 5")),
    ("叫地主", "play", Command("past", "叫地主")),
    ("b r", "play", Command("play", "b r")),
])
def test_parse_command(line: str, phase: str, cmd: Command) -> None:
    assert parse_command(line, phase) == cmd


def test_read_ranks() -> None:
    assert read_ranks("10 10 j,J q Q") == ([7, 7, 8, 8, 9, 9], None)
    assert read_ranks("tTbr") == ([7, 7, 13, 14], None)
    assert read_ranks("33 4x5 6") == (None, "4x5")  # the word typed, whole (``bomb`` was quoted as ``omb``)
    assert read_ranks("bomb") == (None, "bomb") and read_ranks("3 rocket") == (None, "rocket")
    # the jokers as the Chinese table shows them (大王 was "看不懂 '大王'"): 大王 is R, 小王 is B, 王炸 / 火箭 both
    assert read_ranks("大王") == ([14], None) and read_ranks("小王") == ([13], None)
    assert read_ranks("33 小王,大王") == ([0, 0, 13, 14], None)
    assert read_ranks("王炸") == ([13, 14], None) and read_ranks("火箭") == ([13, 14], None)
    assert read_ranks("大王x") == (None, "大王x") and read_ranks("王") == (None, "王")
    h = hand("3345BR")
    assert check_play(h, "大王", None, CLASSIC, "zh") == ("play R", None)
    assert check_play(h, "王炸", None, CLASSIC, "zh") == ("play BR", None)


# ---------------------------------------------------------------- checking plays
def hand(ranks: str) -> tuple[int, ...]:
    return counts_of(parse_ranks(ranks))


def test_check_play_accepts_and_names_the_reading() -> None:
    h = hand("333444555666TTJJQQ789")
    assert check_play(h, "10 10 J J Q Q", None, CLASSIC, "en") == ("play TTJJQQ", None)
    assert check_play(h, "333444555666:plane", None, CLASSIC, "en") == ("play 333444555666:plane", None)
    assert check_play(h, "333444555666:飞机", None, CLASSIC, "en") == ("play 333444555666:plane", None)
    a, err = check_play(h, "333444555666:plane_singles:6", None, CLASSIC, "en")
    assert err is None and a == "play 333444555666:plane_singles:6"


@pytest.mark.parametrize(("typed", "last", "lang", "msg"), [
    ("3x", None, "en", "Cannot read '3x': type ranks"),
    ("bad", None, "zh", "看不懂 'bad'"),
    ("AA", None, "en", "You do not hold A A: missing A A."),
    ("34", None, "en", "3 4 is not a combination at this table."),
    ("3334:plane", None, "en", "3 3 3 4 is not a plane at this table."),
    ("3334:wing", None, "en", "Unknown kind 'wing'"),
    ("333444555666", None, "en", "reads more than one way: type one of "),
    ("7", "8", "en", "7 (single) does not beat 8 (single)."),
    ("TT", "8", "en", "10 10 (pair) does not beat 8 (single)."),
    ("7", "8", "zh", "7（单牌）压不过 8（单牌）。"),
    ("BBB", None, "zh", "你没有 小王 小王 小王：缺 小王 小王 小王。"),
])
def test_check_play_mistakes(typed: str, last: str | None, lang: str, msg: str) -> None:
    h = hand("333444555666789TTJJQQ")
    to_beat = classify(last, CLASSIC)[0] if last else None
    action, err = check_play(h, typed, to_beat, CLASSIC, lang)
    assert action is None
    assert err is not None and msg in err
    assert "\n" not in err


def test_bombs_beat_anything() -> None:
    h = hand("3333789")
    assert check_play(h, "3333", classify("22", CLASSIC)[0], CLASSIC, "en") == ("play 3333", None)


# ---------------------------------------------------------------- hints
class Advisor:
    name = "advisor"

    def __init__(self, pick: str | None) -> None:
        self.pick = pick

    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        if self.pick is None:
            raise RuntimeError("advisor failed")
        return self.pick


def test_hints_put_the_advisor_first_and_bombs_last() -> None:
    h = hand("3345556666")
    moves = [classify(x, CLASSIC)[0] for x in ("3", "33", "4", "555", "6666", "5554")]
    labels = {m: m.label(CLASSIC) for m in moves}
    legal = ["play " + labels[m] for m in moves]
    out = hint_actions(legal, moves, labels, h, {}, Advisor("play 4"))
    assert out[0] == "play 4"
    assert out[-1] == "play 6666"
    assert sorted(out) == sorted(legal)
    # a failing advisor is ignored
    assert hint_actions(legal, moves, labels, h, {}, Advisor(None))[0] != "play 4"
    # nothing beats: the only hint is to pass
    assert hint_actions(["pass"], [], {}, h, {}, None) == ["pass"]


def test_order_keeps_pairs_together() -> None:
    h = hand("334")
    ordered = order_moves(h, [classify(x, CLASSIC)[0] for x in ("3", "33", "4")])
    assert [str(m) for m in ordered] == ["33", "4", "3"]


# ---------------------------------------------------------------- views
def finished_game() -> Game:
    g = Game.from_deal(CLASSIC, ["3S 3H 3C 3D 4S 4H 4C 4D 5S 5H 5C 5D 6S 6H 6C 6D 7S",
                                 "8S 8H 8C 8D 9S 9H 9C 9D TS TH TC TD JS JH JC JD 7H",
                                 "QS QH QC QD KS KH KC KD AS AH AC AD 2S 2H 2C 2D 7C"], "7D B R", first_bidder=0)
    g.apply("bid 3")
    for a in ["play 3333", "pass", "pass", "play 4444", "pass", "pass", "play 77", "pass", "pass"]:
        g.apply(a)
    return g


def render(obj: Any) -> str:
    console = Console(file=io.StringIO(), width=140, color_system=None, highlight=False)
    console.print(obj)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def facts(lang: str = "en") -> TableFacts:
    return TableFacts(names=["You", "Bot 1 (random)", "Bot 2 (random)"], human=0, lang=lang, preset="classic",
                      deal_no=1, seed=0, totals=[0, 0, 0])


def test_screen_shows_roles_counts_multiplier_kitty_and_trick() -> None:
    g = finished_game()
    text = render(screen(g, facts()))
    assert "multiplier ×4" in text and "bomb ×2, bomb ×2" in text
    assert "Kitty: 7♦ B R" in text
    assert "landlord" in text and "farmer" in text
    assert "Previous trick: You 7♠ 7♦" in text
    assert "Your hand (by rank): R B 6♠" in text
    zh = render(screen(g, facts("zh")))
    assert "底牌：7♦ 小王 大王" in zh and "地主" in zh and "倍数 ×4" in zh


def test_tricks_read_from_the_log() -> None:
    g = finished_game()
    done, cur = tricks(g)
    assert [len(t.plays) for t in done] == [3, 3, 3]
    assert done[0].winner == 0 and not cur.plays


def test_settlement_result_and_history_views() -> None:
    g = finished_game()
    for a in ["play 5555", "pass", "pass", "play 6666", "pass", "pass", "play B", "pass", "pass", "play R"]:
        g.apply(a)
    assert g.is_over and g.result is not None
    f = facts()
    f.totals = list(g.result.scores)
    text = render(settlement(g, f))
    assert "The landlord (You) wins." in text and "Spring!" in text
    res = render(result_view(g, f))
    assert "Payments:" in res and "spring ×2" in res
    from qipai.tui.render import DealSummary

    hist = render(history_view([DealSummary(1, 0, 0, 3, g.result.multiplier, list(g.result.scores))],
                               ["You", "Bot 1", "Bot 2"], "en"))
    assert "Total" in hist and f"+{g.result.scores[0]}" in hist


def test_sort_by_count() -> None:
    from qipai.games.doudizhu.cards import parse_cards

    cards = parse_cards("3S 3H 3C 4S 5S 5H B")
    assert [str(c) for c in sort_hand(cards, "count")] == ["3S", "3H", "3C", "5S", "5H", "B", "4S"]


# ---------------------------------------------------------------- the line reader
def test_line_reader_times_out_and_splits_lines() -> None:
    r, w = os.pipe()
    with os.fdopen(r, "r") as rf:
        reader = LineReader(rf)
        assert reader.can_time_out
        assert reader.readline(0.05) is None
        os.write(w, b"one\ntwo\r\nthr")
        assert reader.readline(1) == "one"
        assert reader.readline(1) == "two"
        assert reader.readline(0.05) is None
        os.write(w, "ee 三\n".encode())
        assert reader.readline(None) == "three 三"
        os.close(w)
        with pytest.raises(EOFError):
            reader.readline(1)


def test_line_reader_cuts_a_line_too_long_and_reads_the_next() -> None:
    """A megabyte typed or piped on one line is cut to MAX_LINE characters (the rest is read and dropped, never
    kept whole), so it can neither fill memory nor come back in full in the error message."""
    from qipai.tui.reader import MAX_LINE

    long = "3" * 1_000_000
    text = long + "\npass\n" + long

    def check(reader: LineReader) -> None:
        assert reader.readline(10) == "3" * MAX_LINE
        assert len(reader.buf) < 5 * MAX_LINE
        assert reader.readline(10) == "pass"
        assert reader.readline(10) == "3" * MAX_LINE
        with pytest.raises(EOFError):
            reader.readline(10)

    check(LineReader(io.StringIO(text)))
    r, w = os.pipe()

    def write() -> None:
        with os.fdopen(w, "wb") as wf:
            wf.write(text.encode())

    writer = threading.Thread(target=write)
    writer.start()
    with os.fdopen(r, "r") as rf:
        check(LineReader(rf))
    writer.join()


def test_line_reader_without_a_descriptor() -> None:
    reader = LineReader(io.StringIO("a\nb\n"))
    assert not reader.can_time_out
    assert reader.readline(0.01) == "a"
    assert reader.readline() == "b"
    with pytest.raises(EOFError):
        reader.readline()


# ---------------------------------------------------------------- whole tables, scripted
Policy = Callable[[str, "float | None"], "str | None"]


class Script(LineReader):
    """Typed lines in order (``None`` is a time-out), then answers from ``policy(screen since the last read,
    timeout)``; the end of both is the end of input."""

    def __init__(self, lines: list[str | None], policy: Policy | None = None) -> None:
        self.lines = list(lines)
        self.policy = policy
        self.fd = -1
        self.buf = b""
        self.screen: io.StringIO | None = None
        self.seen = 0

    def readline(self, timeout: float | None = None) -> str | None:
        text = ""
        if self.screen is not None:
            text = self.screen.getvalue()[self.seen:]
            self.seen = len(self.screen.getvalue())
        if self.lines:
            line = self.lines.pop(0)
        elif self.policy is not None:
            line = self.policy(text, timeout)
        else:
            raise EOFError
        if line is None and timeout is None:
            raise AssertionError("a time-out where nothing can time out")
        return line


def table(tmp_path: Path, lines: list[str | None], policy: Policy | None = None,
          **kw: Any) -> tuple[TableSession, str]:
    screen_file = io.StringIO()
    console = Console(file=screen_file, width=140, color_system=None, highlight=False, markup=False)
    opts = TableOptions(lang=kw.pop("lang", "en"), seed=kw.pop("seed", 7), bots=kw.pop("bots", ["passive"]),
                        records=tmp_path / "rec", auto_delay=0, **kw)
    script = Script(lines, policy)
    script.screen = screen_file
    session = TableSession(opts, console, script)
    assert session.run() == 0
    return session, screen_file.getvalue()


def player(between: list[str]) -> Policy:
    """Bid 3, play every hint, answer the between-deals prompts with ``between`` in turn."""
    def answer(text: str, timeout: float | None) -> str | None:
        if timeout is not None:
            return None
        if "Your bid [" in text:
            return "3"
        if "Enter: next deal" in text:
            if not between:
                raise EOFError
            return between.pop(0)
        return "" if "Hint" in text else "h"
    return answer


def test_two_deals_totals_history_and_records(tmp_path: Path) -> None:
    # deal 1: bid 3, then play the hints; deal 2: the first bidder rotates; then quit between deals
    session, out = table(tmp_path, [], player(["history", "", "result", "quit"]))
    assert len(session.history) == 2
    assert session.totals == [sum(r.scores[i] for r in session.history) for i in range(3)]
    assert session.totals[0] > 0
    assert "Scores of every deal at this table" in out and "Settlement of deal 2" in out
    assert "Leaving the table." in out
    assert len(session.records) == 2
    games = [replay(json.loads(p.read_text())) for p in session.records]
    assert games[1].first_bidder == (games[0].first_bidder + 1) % 3
    assert [g.seed for g in games] == [7, 8]


def test_timeouts_turn_on_auto_play(tmp_path: Path) -> None:
    # time out on the bid (a pass) and keep auto-play: passive bots pass too, so the deal is redealt; take back
    # control, bid, and then time out on the lead: the smallest single is played
    lines: list[str | None] = [None, None, "auto", "3", None, "auto", "quit", "yes"]
    session, out = table(tmp_path, lines, timer=True, deals=1)
    assert "Time is up: you passed." in out
    assert "Time is up: you played 3." in out
    rec = json.loads(session.records[0].read_text())
    actions = [a["action"] for a in rec["actions"] if a["seat"] == 0]
    assert actions[:4] == ["timeout", "pass", "autoplay off", "bid 3"]
    assert "timeout" in actions[3:]
    replay(rec)


def test_jj_match_table_points_and_auto_split(tmp_path: Path) -> None:
    session, out = table(tmp_path, ["pass", "auto", "", "", ""], preset="jj_match", seed=6, points=2)
    assert session.points is not None
    assert sum(session.points) <= 6
    assert "Points" in out
    rec = json.loads(session.records[0].read_text())
    assert rec["table_points"] == [2, 2, 2]


def test_escape_penalty_preview_matches(tmp_path: Path) -> None:
    session, out = table(tmp_path, ["call", "quit", "yes"], preset="chengdu", seed=1)
    assert "Escaping costs you 3 points" in out
    assert session.totals == [-3, 0, 0]


def test_quit_while_bidding_with_passive_bots_abandons(tmp_path: Path) -> None:
    session, out = table(tmp_path, ["quit", "yes"])
    assert "the deal is abandoned" in out
    assert session.history == []
    assert len(session.records) == 1  # the unfinished record, replayable
    replay(json.loads(session.records[0].read_text()))


def test_chinese_table(tmp_path: Path) -> None:
    _, out = table(tmp_path, ["3", "提示", "", "排序", "上手牌", "退出", "是"], lang="zh", deals=1)
    assert "你 当地主（3 分）。" in out
    assert "提示 1/" in out and "手牌已按张数排序。" in out and "上手牌：" in out
    assert "牌桌结束，共 1 局。" in out


def test_setup_errors() -> None:
    with pytest.raises(SetupError, match="unknown preset"):
        TableSession(TableOptions(preset="nope"), reader=Script([]))
    with pytest.raises(SetupError, match="needs 1 or 2 names"):
        TableSession(TableOptions(bots=["random"] * 3), reader=Script([]))
    with pytest.raises(SetupError, match="unknown bot"):
        TableSession(TableOptions(bots=["nobody"]), reader=Script([]))


def test_cli_play_in_process(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["play", "--bots", "a,b,c", "--lang", "en"])
    assert res.exit_code == 2
    for bots in ("heuristic,", ""):  # an empty entry was dropped
        res = runner.invoke(app, ["play", "--bots", bots, "--lang", "en"])
        assert res.exit_code == 2 and "has an empty entry" in res.output, res.output
    res = runner.invoke(app, ["play", "--game", "mahjong", "--bots", "efficiency,,efficiency", "--lang", "en"])
    assert res.exit_code == 2 and "has an empty entry" in res.output, res.output
    res = runner.invoke(app, ["play", "--seed", "7", "--bots", "search:samples=4,heuristic", "--lang", "en",
                              "--deals", "1", "--no-records"], input="3\n" + "h\n\n" * 20)
    assert res.exit_code == 0 and "Deal 1 is over." in res.output, res.output
    res = runner.invoke(app, ["play", "--seed", "7", "--bots", "passive", "--lang", "en", "--deals", "1",
                              "--records", str(tmp_path / "r")], input="3\n" + "h\n\n" * 20)
    assert res.exit_code == 0, res.output
    assert "Deal 1 is over." in res.output and "Game records (1)" in res.output


def test_shengji_level_card_line_reads_right_with_and_without_a_declaration() -> None:
    """"type {how}" once printed "type you cannot overcall now" (输入 现在不能反主)."""
    from qipai.tui.shengji.words import tr

    for lang, verb in (("en", "type"), ("zh", "输入")):
        can = tr(lang, "got_level", dealt=9, card="A", mine="A", how=tr(lang, "type_declare", action="declare AS"))
        cannot = tr(lang, "got_level", dealt=9, card="A", mine="A", how=tr(lang, "cannot_overcall"))
        assert can.endswith(f"{verb} declare AS")
        assert cannot.endswith(tr(lang, "cannot_overcall")) and verb not in cannot


@pytest.mark.parametrize("game", ["mahjong", "shengji"])
def test_four_seat_tables_share_their_setup_checks_and_between_deals(game: str, tmp_path: Path) -> None:
    """The Shengji and mahjong tables are one :class:`~qipai.tui.seats.BotTable`: the same checks, named for the
    game; the timer note in the table's language (mahjong's was English only); the prompt between deals."""
    from qipai.tui.mahjong import MahjongOptions, MahjongSession
    from qipai.tui.reader import LineReader
    from qipai.tui.shengji import ShengjiOptions, ShengjiSession

    make = {"mahjong": (MahjongSession, MahjongOptions), "shengji": (ShengjiSession, ShengjiOptions)}[game]
    title = make[0].TITLE
    for bad, message in (({"lang": "fr"}, "--lang must be zh or en"),
                         ({"bots": ["rule", "rule"]}, f"--bots needs 1 or 3 names for {title}, got 2"),
                         ({"bots": ["nobody"]}, f"unknown bot 'nobody' for {title}: known bots are "),
                         ({"rules": {"colour": "red"}}, "unknown rule option 'colour'")):
        with pytest.raises(SetupError, match=re.escape(message)):
            make[0](make[1](**bad), reader=Script([]))  # type: ignore[arg-type]
    buf = io.StringIO()
    reader = LineReader(io.StringIO("nonsense\nhelp\n\nquit\n"))
    s = make[0](make[1](lang="zh", timer=True, seed=4, records=tmp_path), console=Console(file=buf, width=200),
                reader=reader)
    assert s.notes == ["这种输入不能计时：不计时进行。"] and not s.timer
    assert s.between() is True  # an unknown word is refused, help answered, Enter plays on
    assert s.between() is False  # quit
    said = buf.getvalue()
    assert "nonsense" in said and s.tr("zh", "quit_between") in said
    s.save_record({"x": 1}, "deal9")
    assert [p.name.split("-", 2)[2] for p in s.records] == [f"{game}-seed4-deal9.json"]


def test_a_record_that_cannot_be_written_is_one_error_not_a_crash(tmp_path: Path) -> None:
    from qipai.tui.records import RecordError, check_folder, write_record

    with pytest.raises(RecordError, match=r"^/proc/qipai-x/t.json: "):
        write_record(Path("/proc/qipai-x"), "t", {"n": 1})
    with pytest.raises(RecordError, match=r"^/proc/qipai-x: "):
        check_folder(Path("/proc/qipai-x"))
    check_folder(tmp_path / "new")  # made, written and left empty
    assert (tmp_path / "new").is_dir() and not list((tmp_path / "new").iterdir())


def test_a_pasted_line_is_not_echoed_whole_and_full_width_input_reads() -> None:
    from qipai.tui.reader import LineReader

    h = counts_of(parse_ranks("333445567"))
    msg = check_play(h, "3" * 2000, None, CLASSIC, "en")[1]
    assert msg is not None and msg.startswith("You do not hold 3 3") and len(msg) < 200 and "…" in msg
    reader = LineReader(io.StringIO("３３３４４\nｐａｓｓ\n"))
    assert reader.readline() == "33344" and reader.readline() == "pass"


@pytest.mark.parametrize("lang, names, short", [
    ("zh", ["你", "电脑1号（普通）", "电脑2号（入门）", "电脑3号（随机）"], ["你", "电脑1号", "电脑2号", "电脑3号"]),
    ("en", ["You", "Bot 1 (normal)", "Bot 2 (easy)", "Bot 3 (random)"], ["You", "Bot 1", "Bot 2", "Bot 3"]),
])
def test_shengji_and_mahjong_bots_are_named_as_at_the_dou_dizhu_table(lang: str, names: list[str],
                                                                     short: list[str], tmp_path: Path) -> None:
    """They were 机器人 1（rule） and 电脑1（efficiency）: the engine's names and another seat wording."""
    from qipai.tui.i18n import bot_name as seat_bot_name
    from qipai.tui.i18n import tr as ddz_tr
    from qipai.tui.mahjong import MahjongOptions, MahjongSession
    from qipai.tui.shengji import ShengjiOptions, ShengjiSession

    sj = ShengjiSession(ShengjiOptions(lang=lang, seed=1, records=tmp_path, bots=["rule", "easy", "random"]),
                        reader=Script([]))
    mj = MahjongSession(MahjongOptions(lang=lang, seed=1, records=tmp_path, bots=["efficiency", "easy", "random"]),
                        reader=Script([]))
    assert sj.names == names and sj.short == short
    assert mj.names == names
    assert ddz_tr(lang, "bot", i=1, bot=seat_bot_name("rule", lang)) == names[1]  # the Dou Dizhu table's words
    assert seat_bot_name("normal", lang) == seat_bot_name("efficiency", lang) == seat_bot_name("rule", lang)
    assert seat_bot_name("someone", lang) == "someone"


@pytest.mark.parametrize("why, zh", [
    ("a lead must be of one effective suit: AS is in spades, AH is a trump",
     "首家出的牌要是同一门（主牌算一门）：A♠ 是黑桃；A♥ 是主牌"),
    ("you hold 3 cards of trumps: play 2 of them", "有同门的牌必须跟同门：你有 3 张主牌，要出其中 2 张"),
    ("you hold only 1 card of spades (fewer than 2): play it and fill up with other cards",
     "有同门的牌必须跟同门：你只有 1 张黑桃（不到 2 张），要全部出上，再用别的牌补足"),
    ("following a P2: your spades can form 2P (rank 2 of its requirement list); 9S 8S 7S 3S does not match",
     "要按首家的牌型跟（能出对子、拖拉机的先出）：首家出 2 对的拖拉机，你的黑桃能组成 2 个对子，9♠ 8♠ 7♠ 3♠ 不合要求"),
    ("following a throw with 1 pair: your spades can give 1, so play at least 1 pair",
     "要按首家的牌型跟（能出对子、拖拉机的先出）：首家甩的牌里有 1 个对子，你的黑桃能出 1 对，至少要出 1 对"),
    ("throws are off at this table: AS AS KS is not one combination", "本桌不能甩牌：A♠ A♠ K♠ 不是一手牌型"),
    ("you hold no TH", "手里没有这些牌：你没有 10♥"),
    ("you hold only 1 B, not 2", "手里没有这些牌：小王 你只有 1 张，不是 2 张"),
    ("play at least one card", "请至少出一张牌"),
    ("the cards are being dealt: declare <level cards> or pass", "现在是叫主的时候：只能叫主或不叫"),
    ("it is the play: play <cards>", "现在是出牌的时候：请出牌"),
    ("it is seat 2's turn, not seat 0's", "还没轮到你（该 2 号出牌）"),
    ("jokers cannot be declared", "王不能用来叫主"),
    ("a declaration shows identical cards: 3S 3H are not", "叫主要亮相同的牌：3♠ 3♥ 不是相同的牌"),
    ("your declaration stands: you may not overcall yourself", "你的叫主还在：不能自己反自己"),
    ("the standing declaration shows 2 cards: an overcall needs more than 2", "现在的叫主亮了 2 张：反主要多于 2 张"),
    ("declare shows 1 to 4 identical level cards (level T), e.g. declare TS",
     "叫主要亮 1 到 4 张相同的级牌（打 10），例如 declare TS"),
    ("something the table has no words for", "规则不允许（something the table has no words for）"),
])
def test_shengji_reasons_in_chinese(why: str, zh: str) -> None:
    from qipai.tui.shengji.reasons import reason_words

    assert reason_words("zh", why) == zh
    en = reason_words("en", why)  # plain English, said to the player (seat 0) as "you", cards as the table shows
    assert "seat 0" not in en and not re.search(r"\b([2-9TJQKA][SHCD]|requirement|P\d|\dP|rank \d)\b", en), en


@pytest.mark.parametrize("why, zh", [
    ("you hold no Z", "你手里没有 Z"),
    ("seat 0 is not ready (上听) and cannot win", "还没听牌（上听），不能胡"),
    ("5m does not win for seat 0", "5m 不能让你胡"),
    ("discarding 5m does not leave a ready hand", "打 5m 后还没听牌，不能听"),
    ("after Z the hand waits only with a 支对 declaration (不夹不胡): ting Z zhidui Y",
     "打 Z 后只有支对才算听牌（不夹不胡）：听 Z 支对 某张"),
    ("zhidui 7s: after Z the hand does not hold the pair or 7s does not win as the third of a triplet (a kind whose "
     "four copies he holds is no wait)",
     "不能支对 7s：打 Z 后手里没有这一对，或 7s 不能作为刻子的第三张胡（四张都在自己手里的牌不算听）"),
    ("ting needs a meld: a closed hand cannot be ready (门清不可以听牌)", "门清不可以听牌：要先吃或碰一次才能听"),
    ("a claim window is open on 3p: claim it or pass", "别人刚打出 3p：要吃、碰、胡就说，不要就过"),
    ("seat 0 is ready: his hand is frozen and he can only win", "你已听牌：手牌不能再动，只能胡"),
    ("the discard is 5m, not 6m", "打出的是 5m，不是 6m"),
    ("a fourth meld is not allowed (不能手把一)", "不能吃碰第四次（不能手把一）"),
    ("seat 0 does not hold two 9s", "你手里没有两张 9s，不能碰"),
    ("several sequences are possible: name one, e.g. chi 345m, chi 456m",
     "有几种吃法：说明吃哪一组，例如 吃 345m、吃 456m"),
    ("chi 456m does not contain the discard 7m", "吃 456m 里没有打出的 7m"),
    ("pass answers a claim window or an offered win; on your turn discard a tile", "轮到你打牌，不能过：请打一张牌"),
    ("seat 0 declined a win and may not win on a discard before his next draw",
     "你刚过了胡：自己再摸牌以前不能胡别人打的牌"),
    ("only seat 2 (the next seat) may chow without 听 (chi … ting)", "只有下家能直接吃；别家要吃就得吃听（吃听 456m）"),
    ("something the table has no words for", "规则不允许（something the table has no words for）"),
])
def test_mahjong_reasons_in_chinese(why: str, zh: str) -> None:
    from qipai.tui.mahjong.reasons import reason_words

    assert reason_words("zh", why) == zh
    en = reason_words("en", why)  # the engine's sentence, said to the player (seat 0) as "you"
    assert en == why if "seat 0" not in why else ("seat 0" not in en and " his " not in en and "you" in en), en


def test_chengdu_doubling_factors_name_the_farmer_not_a_seat_number() -> None:
    # a farmer's 倒 is his own factor: the settlement says whose it is by name (it said "倒 ×2 (0)")
    g = Game.from_deal(PRESETS["chengdu"], ["3S 3H 3C 3D 4S 4H 4C 4D 5S 5H 5C 5D 6S 6H 6C 6D 7S",
                                            "8S 8H 8C 8D 9S 9H 9C 9D TS TH TC TD JS JH JC JD 7H",
                                            "QS QH QC QD KS KH KC KD AS AH AC AD 2S 2H 2C 2D 7C"], "7D B R",
                       first_bidder=2)
    for a in ["call", "double", "pass", "pass", "play QQQQ", "pass", "pass", "play KKKK", "pass", "pass",
              "play AAAA", "pass", "pass", "play 2222", "pass", "pass", "play 77", "pass", "pass", "play BR"]:
        g.apply(a)
    assert g.is_over and g.result is not None
    f = facts()
    en = render(settlement(g, f)) + render(result_view(g, f))
    assert "倒 (double) ×2 (You)" in en and "(0)" not in en
    zh = render(settlement(g, facts("zh"))) + render(result_view(g, facts("zh")))
    assert "倒 ×2（You）" in zh and "（0）" not in zh


def test_a_pasted_line_is_not_echoed_whole_when_bidding_or_between_deals(tmp_path: Path) -> None:
    # a long paste at the bid prompt came back whole (up to 2,000 characters) in "'333…' is not a choice now"
    _, out = table(tmp_path, ["3" * 2000, "x" * 500 + "\u4e00", "3"], player(["y" * 1000, "quit"]))
    refusals = [line for line in out.splitlines() if "is not a choice now" in line]
    assert len(refusals) == 3, refusals
    assert all(len(line) < 200 and "…" in line for line in refusals), refusals


def test_english_counts_of_one_are_singular() -> None:
    """A mahjong seat of one concealed tile after four melds read "(1 tiles)", a room of one table "1 tables, 1
    players", a penalty of one point "1 points": the terminal's English words choose the singular for one."""
    from qipai.tui.i18n import tr, tr_text
    from qipai.tui.mahjong.words import tr as mj
    from qipai.tui.online.words import tr as online
    from qipai.tui.shengji.words import tr as sj

    assert mj("en", "river_of", name="Bot 1", n=1, ready="", river="3m") == "Bot 1 (1 tile): discards 3m"
    assert mj("en", "river_of", name="Bot 1", n=4, ready="", river="3m") == "Bot 1 (4 tiles): discards 3m"
    assert mj("en", "wall", n=1) == "Wall: 1 tile left"
    assert tr("en", "cards", n=1) == "1 card" and tr("en", "cards", n=2) == "2 cards"
    assert tr_text("en", "escaped", name="Bot 1", n=1).plain == "Bot 1 escaped: 1 point (escape penalty)."
    assert "costs 1 point (" in sj("en", "quit_penalty", n=1)
    line = online("en", "room_line", id="classic-1", game="doudizhu", stake=1, min=0, tables=1, players=1)
    assert line.endswith("1 table, 1 player"), line
    assert tr("zh", "cards", n=1) == "1 张"  # Chinese has no plural
