"""``qipai play --game mahjong`` driven in a pseudo-terminal, the way a person plays it: a whole deal against
three bots — discards typed (and Enter for the drawn tile), claims and 听 taken whenever offered — to the
settlement, whose scores equal the written record's replay; Chinese commands, a refused tile, leaving mid-deal."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect

import qipai
from qipai.core.registry import get_factory

SRC = str(Path(qipai.__file__).resolve().parents[1])
MJ = get_factory("mahjong")


def env() -> dict[str, str]:
    e = dict(os.environ)
    e.update({"TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "200", "LINES": "60", "LANG": "C.UTF-8",
              "PYTHONPATH": SRC})
    e.pop("LC_ALL", None)
    return e


def spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "qipai.cli", "play", "--game", "mahjong", *args, "--records",
                                          str(tmp_path / "records")],
                         env=env(), cwd=str(tmp_path), encoding="utf-8", timeout=60, dimensions=(60, 200))


TURN = r"Discard a tile \(e\.g\. (\S+?)(; Enter: the drawn tile)?\), or ting TILE(, hu)? > "  # no Enter after a claim
MUST_TING = r"You must declare ready: ting TILE \(([^)]*)\) > "
WIN = r"You can win: hu or pass > "
CLAIM = r"discarded (\S+)\. Your options: (.*?) \(Enter: pass\) > "
OVER = r"Table over after 1 deal; your total: (-?\d+)"


def test_a_whole_deal_to_the_settlement(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "11", "--lang", "en", "--deals", "1", "--auto-delay", "0")
    child.expect(r"Daqing mahjong \(大庆麻将\) — you and three bots")
    child.expect(r"Dealer: (You|Bot \d)")
    turns = claims = tings = 0
    bad_tile_tried = False
    said = ""
    while True:
        i = child.expect([TURN, MUST_TING, WIN, CLAIM, OVER, r"You can declare ready: (ting \S+)"])
        said += child.before or ""
        if i == 5:
            ting = child.match.group(1)
            child.expect(TURN)
            child.sendline(ting)
            tings += 1
            continue
        if i == 0:
            if not bad_tile_tried:  # a word that is no tile is refused, and the question comes again
                bad_tile_tried = True
                child.sendline("discard 0x")
                child.expect(r"0x is not a tile: write 5m, 7p, 9s or Z")
                child.expect(TURN)
                child.sendline("discard")  # no tile at all (was " is not a tile", naming nothing)
                child.expect(r"discard which tile\? e\.g\. discard 5m")
                child.expect(TURN)
                child.sendline("hint")  # was "Not understood"
                child.expect(r"(Hint: \d+ from ready; best discards: \S+|Hint: ready, waiting on \S+|No hint now)")
                child.expect(TURN)
            turns += 1
            child.sendline("" if turns % 2 and child.match.group(2) else child.match.group(1))
        elif i == 1:
            child.sendline(child.match.group(1).split(" · ")[0])
        elif i == 2:
            child.sendline("hu")
        elif i == 3:
            opts = child.match.group(2).split(" · ")
            claim = next((o for o in opts if o == "hu"), None) or next((o for o in opts if o != "pass"), "pass")
            if claim != "pass":
                claims += 1
            child.sendline(claim)
        else:
            total = int(child.match.group(1))
            break
    text = child.before or ""
    assert "You discard " in said and "You discards" not in said  # the verb after "You"
    child.expect(r"Game records \(1\), one JSON file per deal:\r\n  (\S+\.json)")
    path = Path(child.match.group(1))
    child.expect(pexpect.EOF)
    assert turns >= 1
    record = json.loads(path.read_text(encoding="utf-8"))
    out = MJ.replay(record).outcome()
    assert out is not None and out["scores"][0] == total
    # the settlement as printed: the scores, every loser's fans and share, the payments
    scores = re.search(r"Scores: You ([+-]\d+) · Bot 1 \(normal\) ([+-]\d+) · Bot 2 \(normal\) ([+-]\d+) · "
                       r"Bot 3 \(normal\) ([+-]\d+)", text)
    assert scores is not None, text
    assert [int(x) for x in scores.groups()] == out["scores"]
    if out["exhausted"]:
        assert "荒庄" in text
    else:
        for sh in out["settlement"]["shares"]:
            assert f"→ owes {sh['share']}" in text
        pays = [m.group(1) for line in text.splitlines()
                if (m := re.fullmatch(r"  .* pays? .* (\d+)(?: for .*)?", line.rstrip("\r")))]
        assert [int(x) for x in pays] == [p["amount"] for p in out["settlement"]["payments"]], text
        if out["settlement"]["bao_san_jia"]:
            assert "包三家" in text
    mine = [a["action"] for a in record["actions"] if a["seat"] == 0]
    assert sum(a.startswith(("discard", "ting")) for a in mine) >= turns
    # qipai replay describes the record
    rep = subprocess.run([sys.executable, "-m", "qipai.cli", "replay", str(path), "--lang", "en"],
                         capture_output=True, text=True, env=env(), timeout=60)
    assert rep.returncode == 0, rep.stderr
    assert "Scores:" in rep.stdout


def test_chinese_commands_and_leaving_mid_deal(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "4", "--lang", "zh", "--auto-delay", "0")
    child.expect("大庆麻将 — 你和三个电脑")
    turn = r"打一张牌（例如 (\S+?)(?:；回车打摸到的牌)?），或 听 牌(?:、胡)? > "
    claim = r"你可以：(.*?)（回车：过） > "
    while True:
        i = child.expect([turn, claim, r"可以胡牌：胡 或 过 > ", r"吃听/碰听后必须听牌：听 牌（([^）]*)） > "])
        if i == 0:
            break
        child.sendline("过" if i == 1 else "胡" if i == 2 else "听 " + child.match.group(1).split(" · ")[0].split()[1])
    tile = child.match.group(1)
    child.sendline("帮助")
    child.expect("轮到你：输入要打的牌")
    child.expect(turn)
    child.sendline(f"打 {tile}")
    child.expect(rf"你 打出 {tile}")
    while True:
        i = child.expect([turn, claim, r"可以胡牌：胡 或 过 > ", r"吃听/碰听后必须听牌：听 牌（([^）]*)） > ",
                          "牌桌结束"])
        if i == 4:
            raise AssertionError("the deal ended before the player could leave")
        if i in (0, 1):
            break
        child.sendline("胡" if i == 2 else "听 " + child.match.group(1).split(" · ")[0].split()[1])
    child.sendline("退出")
    child.expect(r"离开牌桌？本局由托管打完（是/否） > ")
    child.sendline("是")
    child.expect("你离开了：本局由托管打完。")
    child.expect(r"得分：你 ([+-]\d+)")
    child.expect(r"牌桌结束，共 1 局；你的总分：(-?\d+)")
    child.expect(r"牌局记录（1），每局一个 JSON 文件：\r\n  (\S+\.json)")
    path = Path(child.match.group(1))
    child.expect(pexpect.EOF)
    record = json.loads(path.read_text(encoding="utf-8"))
    assert {"seat": 0, "action": "leave"} in record["actions"]
    assert MJ.replay(record).outcome()["left"][0] is True


class Answers:
    """A reader for an in-process table: the typed lines in order, then ``policy(screen since the last read)``
    (``None``: the end of input, which leaves)."""

    def __init__(self, screen: object, lines: list[str], policy: object = None) -> None:
        self.screen = screen
        self.lines = list(lines)
        self.policy = policy
        self.seen = 0
        self.fd = None
        self.buf = b""

    can_time_out = False

    def readline(self, timeout: float | None = None) -> str | None:
        self.calls = getattr(self, "calls", 0) + 1
        assert self.calls < 500, "the table keeps asking"
        text = self.screen.getvalue()[self.seen:]  # type: ignore[attr-defined]
        self.seen += len(text)
        if self.lines:
            return self.lines.pop(0)
        answer = self.policy(text) if self.policy is not None else None  # type: ignore[operator]
        if answer is None:
            raise EOFError
        return str(answer)


def in_process(lang: str, seed: int, lines: list[str], policy: object = None) -> str:
    import io

    from rich.console import Console

    from qipai.tui.mahjong import MahjongOptions, MahjongSession

    buf = io.StringIO()
    s = MahjongSession(MahjongOptions(seed=seed, lang=lang, deals=1, records=None, auto_delay=0),
                       console=Console(file=buf, width=200, color_system=None, highlight=False, markup=False),
                       reader=Answers(buf, lines, policy))  # type: ignore[arg-type]
    assert s.run() == 0
    return buf.getvalue()


def test_refusals_and_the_bots_in_chinese_words() -> None:
    """With --lang zh a refused action printed the engine's English (不行：you hold no 5m; seat 0 is not ready
    (上听) and cannot win; discard 哪张牌？); the bots were 电脑1（efficiency）."""
    out = in_process("zh", 7, ["5M", "hu", "打", "过", "ting 1m", "chi", "peng"])
    assert "不行：你手里没有 5m" in out
    assert "不行：还没听牌（上听），不能胡" in out
    assert "打哪张牌？例如 打 5m" in out
    assert "不行：轮到你打牌，不能过：请打一张牌" in out
    assert "不行：门清不可以听牌：要先吃或碰一次才能听" in out
    assert "不行：吃 是对别人打出的牌说的；现在该你打牌" in out and "不行：碰 是对别人打出的牌说的；现在该你打牌" in out
    refusals = [line for line in out.splitlines() if "不行：" in line]
    assert len(refusals) == 6
    for line in refusals:
        assert not re.search(r"\b(seat|you|hold|ready|win|discard|claim|turn|the)\b", line), line
    assert "你的下家是 电脑1号（普通），对家 电脑2号（普通），上家 电脑3号（普通）" in out
    assert "efficiency" not in out and "电脑1（" not in out


def test_the_claim_prompt_and_melds_in_chinese_and_english_verbs_still_work() -> None:
    """The claim prompt read 你可以：peng · pass（回车：过） and melds [peng 999s]; now 碰 · 过 and [碰 999s],
    and the English verb typed is still taken."""
    asked: list[str] = []

    def policy(text: str) -> str | None:
        m = re.search(r"你可以：(.*?)（回车：过） > $", text)
        if m is not None:
            asked.append(m.group(1))
            return "peng" if "碰" in m.group(1).split(" · ") else ""
        if len(asked) >= 3:
            return None
        turn = re.search(r"打一张牌（例如 ([^；）\s]+)[；）]", text)
        return turn.group(1) if turn else ""

    out = in_process("zh", 7, [], policy)
    assert asked and all(not re.search(r"[a-z]{3,}", a) for a in asked), asked
    assert "碰 · 过" in asked
    assert "你 碰 " in out  # "peng" typed in a Chinese table claims
    assert re.search(r"你的吃碰：\[碰 \S+\]", out) or re.search(r"吃碰 \[碰 \S+\]", out)
    assert "[peng" not in out and "[chi" not in out
    en = in_process("en", 7, [], lambda text: None if "Your options" in text else (
        m.group(1) if (m := re.search(r"Discard a tile \(e\.g\. ([^;)\s]+)[;)]", text)) else ""))
    assert "Your options: peng · pass (Enter: pass)" in en


def test_an_auto_play_discard_is_not_called_ready_and_you_pay() -> None:
    """Since auto-play's actions are flagged auto in the log, a seat in 托管 that never declared ready read
    "You discard 5m (ready: drawn and discarded for you)"; and the settlement said "You pays Bot 1 4"."""
    from qipai.tui.mahjong.view import event_line
    from qipai.tui.mahjong.words import tr

    names = ["You", "Bot 1", "Bot 2", "Bot 3"]
    e = {"seat": 0, "action": "discard 5m", "auto": True}
    assert event_line(e, names, "en", 0) == "You discard 5m (auto-play)"
    assert event_line(e, names, "en", 0, ready=True) == "You discard 5m (ready: drawn and discarded for you)"
    assert event_line(e, names, "zh", 0) == "You 打出 5m（托管）"
    assert event_line({**e, "seat": 2}, names, "en", 0, ready=True) == (
        "Bot 2 discards 5m (ready: drawn and discarded for him)")
    assert tr("en", "pays", payer="You", payee="Bot 1", n=4) == "  You pay Bot 1 4"
    assert tr("en", "pays_for", payer="You", payee="Bot 1", n=12, loser="Bot 2") == (
        "  You pay Bot 1 12 for Bot 2 (包三家)")
    assert tr("en", "pays", payer="Bot 1", payee="You", n=4) == "  Bot 1 pays You 4"
    # a whole table: type auto at the first turn, then leave; the human's automatic discards before he is ready
    # say auto-play
    out = in_process("en", 7, ["auto"], lambda text: None)
    mine = [line for line in out.splitlines() if line.startswith("You discard")]
    assert mine and all(line.endswith("(auto-play)") for line in mine if "(" in line), mine
    assert "You pays" not in out


def test_after_a_claim_enter_is_not_offered_for_a_drawn_tile() -> None:
    """After a pung the turn prompt said "Enter: the drawn tile" though nothing was drawn, and Enter did nothing
    at all, silently asking again."""
    state = {"punged": False, "empties": 0}
    prompts: list[str] = []

    def policy(text: str) -> str | None:
        if state["empties"] == 1:
            state["empties"] = 2
            return None  # leave: auto-play finishes the deal
        m = re.search(r"Your options: (.*?) \(Enter: pass\) > $", text)
        if m is not None:
            if not state["punged"] and "peng" in m.group(1).split(" · "):
                state["punged"] = True
                return "peng"
            return ""
        turn = re.search(r"(Discard a tile \(e\.g\. ([^;)\s]+)[^>]*) > $", text)
        if turn is None:
            return ""
        prompts.append(turn.group(1))
        if state["punged"] and state["empties"] == 0:
            state["empties"] = 1
            return ""
        return turn.group(2)

    out = in_process("en", 7, [], policy)
    assert state["punged"], "seed 7 offers the human a pung"
    after = prompts[-1]
    assert after.startswith("Discard a tile (e.g. ") and "Enter" not in after and ", hu" not in after, after
    assert "You drew no tile this turn (you claimed one): type the tile to discard, e.g. " in out
    assert any("Enter: the drawn tile" in p for p in prompts[:-1])


def test_a_pasted_garbage_line_does_not_come_back_whole() -> None:
    """A 3,000-emoji line was echoed whole in the error (~2,000 characters kept by the reader); Dou Dizhu cuts
    the echo to 60 characters, and so does mahjong now."""
    junk = "😀" * 3000
    out = in_process("en", 7, [junk, "discard " + junk, "xyzzy " + junk])
    assert "Not understood: 😀" in out and "is not a tile" in out and "Not understood: xyzzy 😀" in out
    assert out.count("😀") <= 3 * 60, out.count("😀")
