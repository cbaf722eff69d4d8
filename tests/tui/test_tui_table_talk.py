"""What the terminal tables say, as a player reads it: Shengji and mahjong wrap at words, Shengji's refusals and
declaration prompts in plain English, a mahjong claim that lost, the trick line for the banker's side, the
replays, Chengdu's 倒 and the Chinese words.  Tables run in process with scripted input."""

from __future__ import annotations

import io
import re
from typing import Any

from rich.cells import cell_len
from rich.console import Console


def shengji(lang: str, typed: list[str], seed: int = 9, width: int = 200, **rules: str) -> str:
    """A one-hand Shengji table (rule bots, the deal at full speed), the lines typed in order, then the end of
    input (which leaves); everything it printed."""
    from qipai.tui.reader import LineReader
    from qipai.tui.shengji import ShengjiOptions, ShengjiSession

    buf = io.StringIO()
    session = ShengjiSession(ShengjiOptions(seed=seed, lang=lang, records=None,
                                            rules={"hand_limit": "1", "deal_step_ms": "0", **rules}),
                             console=Console(file=buf, width=width, color_system=None, highlight=False,
                                             markup=False),
                             reader=LineReader(io.StringIO("".join(line + "\n" for line in typed))))
    assert session.run() == 0
    return buf.getvalue()


def mahjong(lang: str, seed: int, typed: list[str], width: int = 200, **rules: Any) -> str:
    """A one-deal mahjong table, the lines typed in order, then the end of input (auto-play finishes)."""
    from qipai.tui.mahjong import MahjongOptions, MahjongSession
    from qipai.tui.reader import LineReader

    buf = io.StringIO()
    s = MahjongSession(MahjongOptions(seed=seed, lang=lang, deals=1, records=None, auto_delay=0, rules=rules),
                       console=Console(file=buf, width=width, color_system=None, highlight=False, markup=False),
                       reader=LineReader(io.StringIO("".join(line + "\n" for line in typed))))
    assert s.run() == 0
    return buf.getvalue()


def assert_wrapped_at_words(narrow: str, wide: str, width: int) -> None:
    """Every line of ``narrow`` fits ``width`` cells (a prompt and what followed it on its line apart), and every
    word of it is a word of ``wide`` (the same table printed wide): nothing was cut inside a word."""
    for line in narrow.splitlines():
        for piece in line.split(" > "):
            assert cell_len(piece.rstrip()) <= width, line
    def words(text: str) -> set[str]:  # Latin words and numbers (Chinese text may wrap between any characters)
        return set(re.findall(r"[A-Za-z0-9']+", text))

    cut = words(narrow) - words(wide)
    assert not cut, sorted(cut)[:20]


# ---------------------------------------------------------------- 1. wrapping
def test_shengji_and_mahjong_wrap_at_words_at_any_width() -> None:
    """BotTable printed with soft_wrap: at 110 columns "type declar"/"e 3S", at 60 every mahjong prompt split
    ("ting TIL"/"E, hu >")."""
    typed = ["10♥ 10♥ 10♥ 10♥", "declare 4S", "", "10♥ 10♥ 10♥ 10♥", "K♥ J♥"]
    for lang in ("en", "zh"):
        wide = shengji(lang, typed, width=1000)
        for width in (60, 110):
            assert_wrapped_at_words(shengji(lang, typed, width=width), wide, width)
    typed = ["5M", "hu", "ting 1m", "chi", "peng", "", ""]
    for lang in ("en", "zh"):
        wide = mahjong(lang, 7, typed, width=1000)
        assert_wrapped_at_words(mahjong(lang, 7, typed, width=60), wide, 60)


# ---------------------------------------------------------------- 2. Shengji's refusals in plain English
def test_shengji_refusals_in_plain_english_with_the_cards_as_shown() -> None:
    """Following 9♠9♠8♠8♠ with AS KS QS JS read "following a P2: your spades can form 2P (rank 2 of its
    requirement list); AS KS QS JS does not match"."""
    from qipai.tui.shengji.reasons import reason_words

    said = reason_words("en", "following a P2: your spades can form 2P (rank 2 of its requirement list); "
                              "AS KS QS JS does not match")
    assert said == ("follow the lead's shape: the lead is a tractor of 2 pairs; your spades can give 2 pairs, so "
                    "play them (A♠ K♠ Q♠ J♠ does not)")
    assert reason_words("en", "following a P: your hearts can form P (rank 1 of its requirement list); play a pair") \
        == "follow the lead's shape: the lead is a pair and you hold a pair in hearts, so play a pair"
    assert reason_words("en", "a lead must be of one effective suit: AS is in spades, AH is a trump") == (
        "a lead must be all of one suit (all trumps count as one suit): A♠ is in spades, A♥ is a trump")
    assert reason_words("en", "you hold no TH") == "you hold no 10♥"
    assert reason_words("en", "you hold 2 3S, not 5") == "you hold only 2 3♠, so you cannot show 5"
    out = shengji("en", ["declare 4S", "d 3S 3S 3S 3S 3S", "", "K♥ J♥"])
    assert "Not allowed: 4♠ is not a level card: the level is 3" in out
    assert "Not allowed: you hold only 2 3♠, so you cannot show 5" in out
    assert ("Not allowed: follow the lead's shape: the lead is a pair and you hold a pair in hearts, so play a pair"
            in out)
    for line in (line.partition("Not allowed: ")[2] for line in out.splitlines() if "Not allowed" in line):
        assert not re.search(r"\b([2-9TJQKA][SHCD]|requirement|P\d|\dP|rank \d)\b", line), line


# ---------------------------------------------------------------- 4. the declarations suggested are legal
def test_shengji_suggests_only_legal_declarations_and_lists_them() -> None:
    """Bot 1 declared one card; the final prompt still said "Declare (declare 3S)", and the deal only ever
    suggested one pair; the final window's line had no end."""
    out = shengji("en", ["", "", ""])
    assert "Bot 1 declared (1 card, concealed)." in out
    assert "Declare (declare 3S 3S or declare 3H 3H) or Enter to pass > " in out
    assert "(declare 3S)" not in out
    assert re.search(r"Card \d+: you got 3♥ · your level cards: 3♠ 3♠ 3♥ 3♥ 3♦ · type declare 3S 3S or "
                     r"declare 3H 3H\n", out)
    assert ("All cards dealt. Final declaration window: every seat may still declare or overcall; it closes once "
            "all four have passed since the last declaration.\n") in out
    zh = shengji("zh", ["", "", ""])
    assert "叫主（declare 3S 3S 或 declare 3H 3H）或直接回车不叫 > " in zh
    assert "牌已发完。最后叫主时间：每家都还可以叫主或反主；最后一次叫主之后四家都不叫就结束。\n" in zh


def test_shengji_suggests_the_longest_declaration_in_each_suit() -> None:
    from qipai.tui.shengji.session import declare_options

    assert declare_options(["pass", "declare 3S", "declare 3S 3S", "declare 3H"]) == ["declare 3S 3S",
                                                                                       "declare 3H"]
    assert declare_options(["pass"]) == []


# ---------------------------------------------------------------- 5. the trick line says whose points
def test_shengji_trick_line_says_the_points_stay_with_the_banker_side() -> None:
    """"Trick 5 to You: 10 points (attackers now 75)" when You were the banker's side read as if the attackers
    got them."""
    out = shengji("en", ["", "", ""])  # Bot 1 is the banker: Bot 1 and Bot 3 are the banker's side
    assert "Banker: Bot 1" in out
    lines = [line.strip() for line in out.splitlines() if line.strip().startswith("Trick ")]
    assert "Trick 1 to Bot 1: 10 points stay with the banker's side (attackers still 0)." in lines
    assert "Trick 21 to You: 5 points to the attackers (attackers now 10)." in lines
    assert "Trick 24 to Bot 3: 10 points stay with the banker's side (attackers still 15)." in lines
    assert "Trick 19 to Bot 1: no points (attackers still 5)." in lines
    zh = shengji("zh", ["", "", ""])
    assert "第 24 轮归电脑3号：10 分留在庄家方（抓分方仍是 15 分）。" in zh
    assert "第 21 轮归你：抓分方得 5 分（抓分方共 10 分）。" in zh


class Answers:
    """A reader for an in-process table: ``policy(screen since the last read)`` answers each question (``None``:
    the end of input, which leaves)."""

    fd = None
    can_time_out = False

    def __init__(self, screen: io.StringIO, policy: Any) -> None:
        self.screen = screen
        self.policy = policy
        self.seen = 0
        self.calls = 0

    def readline(self, timeout: float | None = None) -> str | None:
        self.calls += 1
        assert self.calls < 2000, "the table keeps asking"
        text = self.screen.getvalue()[self.seen:]
        self.seen += len(text)
        answer = self.policy(text)
        if answer is None:
            raise EOFError
        return str(answer)


def mahjong_policy(lang: str, seed: int, policy: Any, **rules: Any) -> str:
    from qipai.tui.mahjong import MahjongOptions, MahjongSession

    buf = io.StringIO()
    s = MahjongSession(MahjongOptions(seed=seed, lang=lang, deals=1, records=None, auto_delay=0, rules=rules),
                       console=Console(file=buf, width=200, color_system=None, highlight=False, markup=False),
                       reader=Answers(buf, policy))  # type: ignore[arg-type]
    assert s.run() == 0
    return buf.getvalue()


def chow_whenever_offered(text: str) -> str | None:
    """Claim a chow whenever one is offered, pass other claims, discard the drawn tile (or the last one)."""
    m = re.search(r"(?:Your options|你可以)：?:? ?(.*?) ?[（(](?:Enter|回车)", text)
    if m is not None:
        chows = [o for o in m.group(1).split(" · ") if o.startswith(("chi ", "吃 "))]
        return chows[0] if chows else ""
    if re.search(r"(Next deal|下一局|Enter: next)", text):
        return None
    turn = re.search(r"(?:Discard a tile \(e\.g\.|打一张牌（例如) ([^;；)）\s]+)", text)
    return turn.group(1) if turn else ""


# ---------------------------------------------------------------- 3. a mahjong claim that lost
def test_mahjong_says_when_your_claim_loses_to_a_higher_one() -> None:
    """You answered 吃 678p and Bot 1 punged 8p with priority: the table printed only "Bot 1 pungs 8p"."""
    out = mahjong_policy("en", 1, chow_whenever_offered)
    lines = out.splitlines()
    i = next(k for k, line in enumerate(lines) if "Your options: chi 678p · pass" in line)
    assert lines[i].endswith("> Bot 1 (normal) pungs 8p")
    assert lines[i + 1] == "Your chi 678p loses: Bot 1 (normal) has the higher claim"
    zh = mahjong_policy("zh", 1, chow_whenever_offered)
    assert "你要吃 678p，被电脑1号（普通）优先的要求压过了" in zh


def ddz(lang: str, seed: int, policy: Any, preset: str = "classic", bots: list[str] | None = None) -> str:
    """A one-deal Dou Dizhu table answered by ``policy``; everything it printed."""
    from qipai.tui import TableOptions, TableSession

    buf = io.StringIO()
    s = TableSession(TableOptions(preset=preset, seed=seed, lang=lang, deals=1, records=None, auto_delay=0,
                                  bots=bots or ["heuristic"]),
                     Console(file=buf, width=200, color_system=None, highlight=False, markup=False),
                     Answers(buf, policy))  # type: ignore[arg-type]
    assert s.run() == 0
    return buf.getvalue()


def decline_then_hints(text: str) -> str | None:
    """Pass every choice before play (bid, 倒), then play the hints."""
    if re.search(r"(Your bid|Call the landlord|Double\?|叫分|叫地主|加倍？)[^\n]*> $", text):
        return "pass"
    if re.search(r"(Hint|提示)( \d+/\d+)?[:：]", text):
        return ""
    return "h"


# ---------------------------------------------------------------- 7. Chengdu: who lost the right to 倒
def test_chengdu_says_once_that_the_first_bidder_who_declined_may_not_double() -> None:
    """Nothing told you that the first bidder who declined the landlord gets no 倒 turn."""
    out = ddz("en", 2, decline_then_hints, "chengdu")  # you bid first and decline; Bot 1 calls
    assert out.count("You declined the landlord as first bidder, so you may not double (倒) this deal.") == 1
    assert "Double? [" not in out
    out = ddz("en", 10, decline_then_hints, "chengdu")  # Bot 1 bids first and declines; Bot 2 calls
    assert out.count("Bot 1 (normal) declined the landlord as first bidder, so he may not double (倒) this deal.") == 1
    zh = ddz("zh", 6, decline_then_hints, "chengdu")  # Bot 2 bid first and declined; Bot 1 calls; you may 倒
    assert zh.count("电脑2号（普通）是首家，没叫地主，本局不能倒。") == 1
    assert "加倍？[不加倍、倒] > " in zh
    classic = ddz("en", 2, decline_then_hints)
    assert "may not double" not in classic


# ---------------------------------------------------------------- 8. Chinese words, full-width brackets, wording
def test_chinese_choices_are_chinese_and_chinese_bids_are_read() -> None:
    """叫分 [pass, 1, 2, 3], 加倍？[pass, double（倒）]; 一分 was refused."""
    from qipai.tui.commands import Command, parse_command

    assert parse_command("一分", "bid") == Command("choice", "bid 1")
    assert parse_command("二分", "bid") == Command("choice", "bid 2")
    assert parse_command("叫 三分", "bid") == Command("choice", "bid 3")
    assert parse_command("不叫", "bid") == Command("pass")
    assert parse_command("不加倍", "double") == Command("pass")
    assert parse_command("倒", "double") == Command("choice", "double*")
    zh = ddz("zh", 7, lambda text: "一分" if "叫分 [" in text else decline_then_hints(text))
    assert "叫分 [不叫、1分、2分、3分] > " in zh and "pass" not in zh
    assert "叫分 [不叫、1分、2分、3分] > 你：叫 1 分" in zh


def test_chinese_brackets_are_full_width() -> None:
    """提示 1/9：9 (单牌), 地主 (托管中), (逃跑: 你)."""
    from qipai.tui.render import DealSummary, history_view

    zh = ddz("zh", 7, lambda text: "托管" if "叫分 [" in text else None)
    assert "（托管中）" in zh and " (托管中)" not in zh
    hints = ddz("zh", 7, decline_then_hints)
    assert re.search(r"提示 1/\d+：\S+（\S+）", hints) and not re.search(r"提示 1/\d+：[^\n]* \(", hints)
    buf = io.StringIO()
    Console(file=buf, width=200, color_system=None).print(history_view(
        [DealSummary(deal_no=1, seed=7, landlord=1, bid=3, multiplier=2, scores=[-12, 8, 4], escaped=0,
                     dissolved=False)], ["你", "电脑1号", "电脑2号"], "zh", None))
    assert "（逃跑：你）" in buf.getvalue() and "(逃跑" not in buf.getvalue()


def test_unknown_game_lists_the_games_in_plain_words() -> None:
    from typer.testing import CliRunner

    from qipai.cli import app

    r = CliRunner().invoke(app, ["play", "--game", "chess", "--no-records"])
    assert r.exit_code == 2 and "choose doudizhu, mahjong or shengji" in r.output, r.output


# ---------------------------------------------------------------- 6. replay: Dou Dizhu passes
def test_dou_dizhu_replay_shows_the_passes_in_play() -> None:
    """The replay left out every pass during play: a trick read as one card, then "-- seat 2 wins the trick"."""
    import random

    from qipai.games.doudizhu.rules import PRESETS
    from qipai.games.doudizhu.state import Game
    from qipai.games.doudizhu.text import describe_deal

    g = Game.new(PRESETS["classic"], seed=7)
    rnd = random.Random(3)
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(rnd.choice(legal) if g.phase == "play" else legal[-1], g.to_act)
    passes = [e for e in g.log if e["event"] == "pass"]
    assert passes
    for lang, word in (("en", "seat {s} passes"), ("zh", "{s} 号位不出")):
        lines = describe_deal(g, lang)
        said = [line for line in lines if line in {word.format(s=s) for s in range(3)}]
        assert len(said) == len(passes), lang
    lines = describe_deal(g, "en")
    first = next(i for i, line in enumerate(lines) if "wins the trick" in line)
    assert any(line.endswith("passes") for line in lines[:first])
