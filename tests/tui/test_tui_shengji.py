"""``qipai play --game shengji`` driven in a pseudo-terminal, the way a person plays it.

The bots are ``passive`` (§9.2: they never declare and play the lowest legal play), so the course of a hand
depends only on the seed and on what the test types.  ``hand_limit=1`` makes the match one hand long.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

import qipai
from qipai.games.shengji.cards import SUIT_SYMBOLS, SUITS, card, order

SRC = str(Path(qipai.__file__).resolve().parents[1])
"""The sources under test (the command runs ``python -m qipai.cli`` on them)."""


def env() -> dict[str, str]:
    """A plain, wide, colourless terminal running these sources."""
    e = dict(os.environ)
    e.update({"TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "200", "LINES": "60", "LANG": "C.UTF-8",
              "PYTHONPATH": SRC})
    e.pop("LC_ALL", None)
    return e


def spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "qipai.cli", "play", "--game", "shengji", *args, "--records",
                                          str(tmp_path / "records")],
                         env=env(), cwd=str(tmp_path), encoding="utf-8", timeout=30, dimensions=(60, 200))


def token(label: str) -> str:
    """A card as the screen shows it (``10♥``, ``B``) back in the engine's notation (``TH``)."""
    if label in ("B", "R"):
        return label
    if label in ("小王", "大王"):
        return "B" if label == "小王" else "R"
    rank, sym = label[:-1], label[-1]
    return ("T" if rank == "10" else rank) + SUITS[SUIT_SYMBOLS.index(sym)]


def read_hand(child: pexpect.spawn) -> dict[str, list[str]]:
    """The hand block after ``Your hand (n cards):``: group name → the cards (engine notation)."""
    child.expect(r"Your hand \((\d+) cards\):\r\n((?:  \S+ \(\d+\): [^\r\n]+\r\n)+)(?=\S)")
    n = int(child.match.group(1))
    groups = {}
    for line in child.match.group(2).strip("\r\n").split("\r\n"):
        m = re.match(r"\s+(\S+) \((\d+)\): (.*)", line)
        assert m is not None, line
        cards = [token(x) for x in m.group(3).split()]
        assert len(cards) == int(m.group(2))
        groups[m.group(1)] = cards
    assert sum(len(c) for c in groups.values()) == n
    return groups


def record_path(child: pexpect.spawn) -> Path:
    child.expect(r"Game records \(\d+\), one JSON file per hand:\r\n  (\S+\.json)")
    return Path(child.match.group(1))


def replay(path: Path, lang: str = "en") -> str:
    out = subprocess.run([sys.executable, "-m", "qipai.cli", "replay", str(path), "--lang", lang],
                         capture_output=True, text=True, env=env(), timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_a_whole_hand_declaring_during_the_deal(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "5", "--bots", "passive", "--lang", "en", "-o", "deal_step_ms=25",
                  "-o", "hand_limit=1", "--auto-delay", "0.2")
    child.expect(r"Levels: team A \(You\+Bot 2\) 3 · team B \(Bot 1\+Bot 3\) 3")
    child.expect(r"Dealing 216 cards, one at a time")
    # the first level card: the table says what could be declared; a wrong declaration gets the reason
    child.expect(r"Card (\d+): you got (\S+) · your level cards: .* · type (declare [^\r\n]+?)"
                 r"(?: or declare [^\r\n]+)?\r\n")
    declare = child.match.group(3)
    child.sendline("declare 4S")
    child.expect(r"Not allowed: 4♠ is not a level card: the level is 3\r\n")
    child.sendline(declare)
    shown = declare.split()[1:]
    suit = shown[0][1]
    child.expect(rf"You declared {re.escape(' '.join('3' + SUIT_SYMBOLS[SUITS.index(c[1])] for c in shown))}\.")
    child.expect(r"216/216 cards dealt\.|All cards dealt")
    child.expect(r"Your declaration stands \(you cannot overcall yourself\): Enter to pass > ")
    child.sendline("")
    name = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}[suit]
    child.expect(rf"Trump {SUIT_SYMBOLS[SUITS.index(suit)]} {name}, declared by You: ")
    child.expect(r"Banker: You, leading the first trick \(level 3\)\.")
    # the screen: level, trump and banker; points; the hand by effective suit with the trumps apart
    child.expect(rf"Hand 1 · level 3 · trump {SUIT_SYMBOLS[SUITS.index(suit)]} {name} · banker You")
    child.expect(r"Points: attackers 0 · banker side 0 · throw penalties 0")
    hand = read_hand(child)
    o = order("3", suit)
    assert next(iter(hand)) == "trumps" and all(o.is_trump(card(c)) for c in hand["trumps"])
    assert all(not o.is_trump(card(c)) and c[1] == k[0].upper() for k, cs in hand.items() if k != "trumps"
               for c in cs)
    assert sum(len(c) for c in hand.values()) == 54
    child.expect(r"You lead — your play > ")
    # mistakes, one line each: unreadable, a pass, cards of two suits, cards not held
    child.sendline("xyz")
    child.expect(r"Cannot read 'xyz': type cards as 7S, 10H, B, R \(see help\)\.\r\n")
    child.sendline("pass")
    child.expect(r"You must play 1 card: type them, or hint\.\r\n")
    offs = [k for k in hand if k != "trumps"]
    two = f"{hand[offs[0]][0]} {hand[offs[1]][0]}"
    child.sendline(two)
    child.expect(r"Not allowed: [^\r\n]+\r\n")
    missing = next(f"{r}{s}" for s in "SHCD" for r in "456789JQK"
                   if f"{r}{s}" not in [c for cs in hand.values() for c in cs])
    child.sendline(missing)
    child.expect(r"Not allowed: you hold no [^\r\n]+\r\n")
    # a hint, then Enter plays it
    child.sendline("hint")
    child.expect(r"Hint 1/\d+: ([^\r\n(]+) \(Enter plays it")
    hinted = child.match.group(1).strip()
    child.sendline("")
    child.expect(rf"You: {re.escape(hinted)}\r\n")
    # help, then auto-play finishes the hand
    child.expect(r"(You lead — your play|Follow [^\r\n]+) > ")
    child.sendline("help")
    child.expect(r"auto-play on or off \(托管\)")
    child.sendline("last")
    child.expect(r"Last trick: [^\r\n]+ → [^\r\n]+ \(\d+ points\)|nothing yet")
    child.sendline("auto")
    child.expect(r"Auto-play on")
    child.expect(r"Hand 1 over · team [AB] \([^)]+\) wins")
    child.expect(r"Attackers' score (-?\d+) = ")
    child.expect(r"Levels: team A \(You\+Bot 2\) 3 → \S+ · team B \(Bot 1\+Bot 3\) 3 → \S+ \(gain \d\)")
    child.expect(r"Match over: team [AB] \([^)]+\) wins the match\.")
    child.expect(r"Table over after 1 hand\. Your points: [+-]\d+\.")
    path = record_path(child)
    child.expect(pexpect.EOF)
    text = replay(tmp_path / path if not path.is_absolute() else path)
    assert "Hand 1 · level 3 · trump" in text and "Player (you) @" in text and "Match over" in text


def test_chinese_and_nobody_declaring(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "11", "--bots", "passive", "--lang", "zh", "-o", "deal_step_ms=0",
                  "-o", "hand_limit=1", "--auto-delay", "0.1")
    child.expect(r"发牌：216 张")
    child.expect(r"牌已发完。最后叫主时间")
    child.expect(r"你的手牌（54 张）：")
    child.expect(r"叫主（declare 3S 3S 或 declare 3C 3C 或 declare 3H 或 declare 3D）或直接回车不叫 > ")
    child.sendline("叫主 4S")
    child.expect(r"不能这样叫主：4♠ 不是级牌：现在打 3\r\n")
    child.sendline("")
    child.expect(r"无人叫主：黑桃为主。")
    child.expect(r"庄家：(你|电脑\d号)，先出（打 3）。")
    child.expect(r"第 1 局 · 打 3 · 主 ♠ 黑桃 · 庄家 ")
    child.expect(r"得分：抓分方 0 · 庄家方 0 · 甩牌罚分 0")
    child.expect(r"(你先出|跟 [^\r\n]+（\d+ 张）) > ")
    child.sendline("托管")
    child.expect(r"托管中")
    child.expect(r"第 1 局结束 · [AB] 方 \([^)]+\)获胜")
    child.expect(r"比赛结束")
    child.expect(r"牌桌结束，共 1 局。")
    child.expect(r"牌局记录（1 个")
    child.expect(pexpect.EOF)


def test_timer_timeouts_auto_play_and_quitting(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "3", "--bots", "passive", "--lang", "en", "--timer", "-o", "deal_step_ms=0",
                  "-o", "final_declare_s=0.5", "-o", "play_s=1", "-o", "first_lead_s=1", "--auto-delay", "0.5")
    # the final window's timer only passes for the silent seat
    child.expect(r"Declare \(declare 3H 3H or declare 3C 3C or declare 3D 3D\) or Enter to pass \(\d s\) > ")
    child.expect(r"Nobody declared: spades are trump\.")
    # a play timer that runs out plays for you and starts auto-play
    child.expect(r"(You lead — your play|Follow [^\r\n]+) \(1 s\) > ")
    child.expect(r"Time is up: played ([^\r\n;]+) for you; auto-play is on")
    child.expect(r"You: auto-play on\.")
    child.sendline("auto")
    child.expect(r"Auto-play off: your turn again\.")
    child.expect(r"(You lead — your play|Follow [^\r\n]+) \(\d s\) > ")
    child.sendline("quit")
    child.expect(r"Leaving hands your seat to auto-play for the rest of the hand; then the table ends\.")
    child.expect(r"Type yes to confirm")
    child.sendline("yes")
    child.expect(r"You left: auto-play finishes the hand\.")
    child.expect(r"Hand 1 over")
    child.expect(r"Table over after 1 hand")
    path = record_path(child)
    child.expect(pexpect.EOF)
    import json

    rec = json.loads((tmp_path / path if not path.is_absolute() else path).read_text())
    mine = [t for s, t in rec["actions"] if s == 0]
    assert "timeout" in mine and "autoplay off" in mine and "leave" in mine
    assert mine.index("autoplay off") < mine.index("leave")


def test_setup_errors_and_dou_dizhu_unchanged() -> None:
    from typer.testing import CliRunner

    from qipai.cli import app

    r = CliRunner().invoke(app, ["play", "--game", "shengji", "-o", "start_level=2", "--no-records"])
    assert r.exit_code == 2 and "start_level must be one of" in r.output
    r = CliRunner().invoke(app, ["play", "--game", "shengji", "--bots", "rule,nobody"])
    assert r.exit_code == 2 and "--bots needs 1 or 3 names" in r.output
    r = CliRunner().invoke(app, ["play", "--game", "toy"])
    assert r.exit_code == 2 and "no terminal game 'toy'" in r.output
    r = CliRunner().invoke(app, ["play", "-o", "stake=2"])  # Dou Dizhu takes presets, not options
    assert r.exit_code == 2 and "--option is for --game shengji or mahjong" in r.output


def run_in_process(lang: str, typed: list[str], seed: int = 9) -> str:
    """A one-hand table with the default (rule) bots, the deal at full speed, the lines typed in order (then the
    end of input, which leaves); everything it printed."""
    import io

    from rich.console import Console

    from qipai.tui.reader import LineReader
    from qipai.tui.shengji import ShengjiOptions, ShengjiSession

    buf = io.StringIO()
    session = ShengjiSession(ShengjiOptions(seed=seed, lang=lang, records=None,
                                            rules={"hand_limit": "1", "deal_step_ms": "0"}),
                             console=Console(file=buf, width=200, color_system=None, highlight=False, markup=False),
                             reader=LineReader(io.StringIO("".join(line + "\n" for line in typed))))
    assert session.run() == 0
    return buf.getvalue()


TYPED = ["10♥ 10♥ 10♥ 10♥",  # in the final window: no play yet
         "declare 4S", "d 3S 3S 3S 3S 3S",  # not a level card; more than held
         "",  # pass: bot 1's 3♦ stands, bot 1 leads A♥ A♥
         "10♥ 10♥ 10♥ 10♥", "K♥ J♥", "4♠ 4♠"]  # four cards; no pair though one is held; off suit


def test_refusals_in_chinese_words_and_the_final_window_is_the_last_chance() -> None:
    """With --lang zh the engine's English reasons were printed as they were (不能这样出：play 2 cards (the lead
    has 2), not 4); the final window said the cards were being dealt; the bots were 机器人 1（rule）."""
    out = run_in_process("zh", TYPED)
    assert "牌已发完：这是最后叫主/反主的机会" in out and "正在发牌" not in out
    assert "不能这样叫主：4♠ 不是级牌：现在打 3" in out
    assert "不能这样叫主：你只有 2 张 3♠，亮不出 5 张" in out
    assert "不能这样出：张数不对：要出 2 张（首家出了 2 张），不是 4 张" in out
    assert "不能这样出：要按首家的牌型跟（能出对子、拖拉机的先出）：首家出对子，你的红桃有对子，要出对子" in out
    assert "不能这样出：有同门的牌必须跟同门：你有 9 张红桃，要出其中 2 张" in out
    refusals = [line for line in out.splitlines() if "不能这样" in line]
    assert len(refusals) == 5
    for line in refusals:
        assert not re.search(r"\b(the|you|hold|play|cards?|level|not|following|rank)\b", line), line
    # the bots named as at the Dou Dizhu table
    assert "对家是电脑2号（普通）。对手：电脑1号（普通）和电脑3号（普通）" in out
    assert "庄家：电脑1号，先出（打 3）。" in out
    assert "机器人" not in out and "rule" not in out


def test_refusals_in_english_keep_the_engine_s_sentence() -> None:
    out = run_in_process("en", TYPED)
    assert "All cards are dealt: this is the last chance to declare or overcall" in out
    assert "The cards are being dealt" not in out
    assert "Not allowed: 4♠ is not a level card: the level is 3" in out
    assert "Not allowed: play 2 cards (the lead has 2), not 4" in out
    assert "Not allowed: you hold 9 cards of hearts: play 2 of them" in out
    assert "your partner is Bot 2 (normal). Opponents: Bot 1 (normal) and Bot 3 (normal)" in out


def test_the_deal_still_says_the_cards_are_being_dealt() -> None:
    """While the cards are dealt (not in the final window) a play is still 'the cards are being dealt'."""
    import io

    from rich.console import Console

    from qipai.tui.reader import LineReader
    from qipai.tui.shengji import ShengjiOptions, ShengjiSession

    buf = io.StringIO()
    s = ShengjiSession(ShengjiOptions(seed=9, lang="zh", records=None, rules={"hand_limit": "1"}),
                       console=Console(file=buf, width=200, color_system=None, highlight=False, markup=False),
                       reader=LineReader(io.StringIO("")))
    s.game = s.FACTORY.new(s.options, 9, s.FACTORY.deal_context(s.options, s.match))  # type: ignore[assignment]
    assert s.game is not None and s.game.phase == "deal"
    assert s.deal_command("7S 7S", final=False) is False
    assert s.deal_command("7S 7S", final=True) is False
    said = buf.getvalue().splitlines()
    assert said[0].startswith("正在发牌") and said[1].startswith("牌已发完：这是最后叫主/反主的机会")


def test_a_failed_throw_and_a_one_card_hand_read_right_for_you() -> None:
    """The table said "You's throw K♠ Q♠ J♠ fails" and "Your hand (1 cards):"."""
    from qipai.tui.shengji.words import tr

    line = tr("en", "failed_throw", name="You", cards="K♠ Q♠ J♠", forced="J♠", pen=10)
    assert line == "You threw K♠ Q♠ J♠ and the throw fails: J♠ is played instead, +10 to the attackers."
    assert tr("en", "failed_throw", name="Bot 1", cards="A♠ K♠", forced="K♠", pen=-10).startswith("Bot 1 threw A♠ K♠")
    assert tr("en", "your_hand", n=1, s="") == "Your hand (1 card):"
    assert tr("en", "your_hand", n=54, s="s") == "Your hand (54 cards):"


def test_the_replay_tells_a_failed_throw_at_its_trick() -> None:
    """``qipai replay`` printed every failed throw after the last trick; it belongs after its own trick."""
    from qipai.games.shengji.game import ShengjiGame
    from qipai.tui.games import replay_lines

    g = ShengjiGame({}, seed=11)
    while g.phase != "play":
        g.timeout(g.acting[0])
    for _ in range(4 * 3):  # three tricks played by the time-out moves
        g.timeout(g.acting[0])
    seat = g.acting[0]
    obs = g.observe(seat)
    plain = [c for c in obs["hand"].split() if c not in ("B", "R") and c[:-1] != obs["level"]
             and c[-1] != obs["trump"]]
    suit = next(x for x in "SHCD" if len({c for c in plain if c[-1] == x}) >= 2)
    low = sorted({c for c in plain if c[-1] == suit}, key=lambda c: "23456789TJQKA".index(c[:-1]))[:2]
    g.apply("play " + " ".join(low), seat)  # the two lowest of a suit led together: some seat beats one
    while not g.is_over:
        g.timeout(g.acting[0])
    failed = g.outcome()["failed_throws"]
    assert failed and failed[0]["trick"] == 4, failed
    lines = replay_lines(g.record(), "en")
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("4. "))
    assert "throw fails" in lines[at + 1], lines[at - 1:at + 3]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_replay_names_the_players_the_record_carries(tmp_path: Path, lang: str) -> None:
    """``qipai replay`` named a hand's seats ``seat 0`` / ``0 号`` although the record says who played: each seat by
    its player now — the record's reader (``you``) as 你 / You, a bot seat as 电脑3号 / Bot 3, a guest as 游客3456 /
    Guest 3456 (docs/records.md) — in the declarations, the tricks and the settlement."""
    rec = tmp_path / "hand.json"
    out = subprocess.run([sys.executable, "-m", "qipai.cli", "selfplay", "--game", "shengji", "--seed", "4",
                          "--record", str(rec), "--quiet"], capture_output=True, text=True, env=env(), timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(rec.read_text(encoding="utf-8"))
    data.update(players=[{"name": "guest-0001e240", "bot": None}, {"name": "Ann", "bot": None},
                         {"name": "bot:heuristic:3", "bot": "heuristic"}, {"name": "Bo", "bot": None}], you=1)
    rec.write_text(json.dumps(data), encoding="utf-8")
    text = replay(rec, lang)
    names = ["游客3456", "你", "电脑3号", "Bo"] if lang == "zh" else ["Guest 3456", "Ann (you)", "Bot 3", "Bo"]
    tricks = [line for line in text.splitlines() if re.match(r"^ +\d+\. ", line)]
    assert tricks and all(n in "\n".join(tricks) for n in names), text
    assert not re.search(r"seat \d|\d 号", text) and ("Ann" not in text or lang == "en"), text


def test_a_pasted_garbage_line_does_not_come_back_whole() -> None:
    """A 3,000-emoji line was echoed whole in the error (~2,000 characters kept by the reader); Dou Dizhu cuts
    the echo to 60 characters, and so does Shengji now — while cards are dealt (declare) and in play."""
    junk = "😀" * 3000
    out = run_in_process("en", ["declare " + junk, "", junk])
    assert out.count("Cannot read '😀") == 2, out[-3000:]
    assert out.count("😀") <= 2 * 60, out.count("😀")
