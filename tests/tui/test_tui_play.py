"""``qipai play`` driven in a pseudo-terminal, the way a person plays it.

The bots are ``passive`` (RULES.md §6 auto-play: never bid unless forced, pass whenever allowed, lead the
smallest single), so each deal's course depends only on the seed and on what the test types, not on how the
stronger bots play.  Hints may come from the heuristic bot when it exists, so the tests read them from the
screen instead of assuming them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pexpect
import pytest

QIPAI = Path(sys.executable).with_name("qipai")
if not QIPAI.exists():  # pragma: no cover - an installed qipai elsewhere
    QIPAI = Path(shutil.which("qipai") or "qipai")

ORDER = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "B", "R"]
HAND = r"Your hand \(by \w+\): ([^│\r\n]+)"
LEAD = r"You lead — your play > "
BID = r"Your bid \[pass, 1, 2, 3\] > "
NEXT = r"Enter: next deal · history · result · rules · quit > "


def env() -> dict[str, str]:
    """A plain, wide, colourless terminal."""
    e = dict(os.environ)
    e.update({"TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "160", "LINES": "60", "LANG": "C.UTF-8"})
    e.pop("LC_ALL", None)
    return e


def spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    """Start ``qipai play`` with its records in ``tmp_path``."""
    child = pexpect.spawn(str(QIPAI), ["play", *args, "--records", str(tmp_path / "records")], env=env(),
                          cwd=str(tmp_path), encoding="utf-8", timeout=20, dimensions=(60, 160))
    return child


def ranks(hand_line: str) -> list[str]:
    """The ranks of the cards on a hand line (``10♥ B 2♠`` → ``['10', 'B', '2']``)."""
    out = []
    for tok in hand_line.split():
        r = tok.rstrip("♠♥♣♦")
        if r in ORDER:
            out.append(r)
    return out


def lowest_group(hand: list[str]) -> str:
    """All the cards of the hand's lowest rank, typed with spaces (a single, pair, triple or bomb)."""
    c = Counter(hand)
    r = min(c, key=ORDER.index)
    return " ".join([r] * c[r])


def record_path(child: pexpect.spawn) -> Path:
    """The record file the table printed at its end."""
    child.expect(r"Game records \(\d+\), one JSON file per deal:\r\n  (\S+\.json)")
    return Path(child.match.group(1))


def replay(path: Path) -> str:
    """``qipai replay`` of a record: it must replay cleanly."""
    out = subprocess.run([str(QIPAI), "replay", str(path), "--lang", "en"], capture_output=True, text=True,
                         env=env(), timeout=30)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_whole_deal_typed_plays_hint_errors_auto_history(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--rules", "classic", "--seed", "7", "--bots", "passive", "--lang", "en",
                  "--auto-delay", "0.3")
    # bidding shows only the choices the rules allow; a wrong one gets one line and the question again
    child.expect(BID)
    child.sendline("4")
    child.expect(r"'4' is not a choice now: type one of pass, 1, 2, 3\.\r\n")
    child.expect(BID)
    child.sendline("3")
    child.expect(r"Landlord: You \(bid 3\)\.")
    child.expect(r"Kitty: ")
    child.expect(HAND)
    hand = ranks(child.match.group(1))
    assert len(hand) == 20
    child.expect(LEAD)

    # mistakes: unreadable input, cards not held, not a combination — one line each, the game goes on
    child.sendline("xyz")
    child.expect(r"Cannot read 'xyz': type ranks .*\r\n")
    child.expect(LEAD)
    missing = next(r for r in ORDER if hand.count(r) == 0)
    child.sendline(f"{missing} {missing}")
    child.expect(rf"You do not hold {missing} {missing}: missing {missing} {missing}\.\r\n")
    child.expect(LEAD)
    singles = sorted({r for r in hand if r not in "BR"}, key=ORDER.index)
    child.sendline(f"{singles[0]} {singles[-1]}")
    child.expect(rf"{singles[0]} {singles[-1]} is not a combination at this table\.\r\n")
    child.expect(LEAD)
    child.sendline("pass")
    child.expect(r"You lead, so you may not pass: play any combination\.\r\n")
    child.expect(LEAD)

    # sorting and the help screen
    child.sendline("sort")
    child.expect(r"Hand sorted by count\.\r\nYour hand \(by count\): ")
    child.expect(LEAD)
    child.sendline("help")
    child.expect(r"auto-play on or off \(托管\)")
    child.expect(LEAD)

    # a hint, then a second one, then Enter plays the second
    child.sendline("hint")
    child.expect(r"Hint 1/(\d+): (.+?) \(([a-z ]+)\) — press Enter")
    n_hints = int(child.match.group(1))
    child.expect(LEAD)
    child.sendline("h")
    if n_hints > 1:
        child.expect(r"Hint 2/\d+: (.+?) \(([a-z ]+)\) — press Enter")
    else:
        child.expect(r"Hint 1/1: (.+?) \(([a-z ]+)\) — press Enter")
    hinted = child.match.group(1)
    child.expect(LEAD)
    child.sendline("")
    child.expect(r"You: (.+?) \(([a-z ]+)\)")
    assert ranks(child.match.group(1)) == hinted.split()
    child.expect(r"Bot 1 \(auto-play\): pass")
    child.expect(r"Trick to You\.")

    # the previous trick (上手牌)
    child.expect(LEAD)
    child.sendline("last")
    child.expect(r"Previous trick \(上手牌\): You .* · Bot 1 \(auto-play\) pass · Bot 2 \(auto-play\) pass → You")
    child.expect(LEAD)

    # auto-play on: the table plays for us; typing auto again takes back control
    child.sendline("auto")
    child.expect(r"Auto-play on \(托管\)")
    child.expect(r"You: auto-play on\.")
    child.expect(r"You \[auto\]: .+ \(single\)")
    child.sendline("auto")
    child.expect(r"Auto-play off: you play again\.")
    child.expect(r"You: auto-play off\.")

    # typed plays to the end of the deal: each time, all the cards of the lowest rank
    plays = 0
    while True:
        i = child.expect([HAND, r"Deal 1 is over\."])
        if i == 1:
            break
        hand = ranks(child.match.group(1))
        child.expect(LEAD)
        group = lowest_group(hand)
        child.sendline(group)
        child.expect(r"You: ")
        plays += 1
    assert plays >= 3
    # the settlement screen: the landlord went out and no farmer played, so it is a spring
    child.expect(r"The landlord \(You\) wins\.")
    child.expect(r"Spring!")
    child.expect(r"You win (\d+)\.")
    won = int(child.match.group(1))
    child.expect(r"spring ×2")
    child.expect(rf"You\s+landlord \(in auto-play\)\s+×\d+\s+\+{won}\s+\+{won}")

    # between deals: history (历史得分) and result (结果), then quit the table
    child.expect(NEXT)
    child.sendline("history")
    child.expect(r"Scores of every deal at this table \(历史得分\)")
    child.expect(rf"Total\s+\+{won}\s+-\d+\s+-\d+")
    child.expect(NEXT)
    child.sendline("result")
    child.expect(r"Settlement of deal 1 \(结果\)")
    child.expect(r"Payments:")
    child.expect(NEXT)
    child.sendline("quit")
    child.expect(r"Leaving the table\.")
    child.expect(r"The table is over after 1 deal\(s\)\.")
    path = record_path(child)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = replay(path)
    assert "winner: the landlord, Player (you)" in text
    assert "spring" in text


def test_escape_penalty_on_quit(tmp_path: Path) -> None:
    """Chengdu has an escape penalty: quit says what it costs, asks, and ends the deal with it."""
    child = spawn(tmp_path, "--rules", "chengdu", "--seed", "3", "--bots", "passive", "--lang", "en",
                  "--deals", "3")
    child.expect(r"Your bid \[pass, call\] > ")
    child.sendline("call")
    child.expect(r"Landlord: You \(bid 1\)\.")
    child.expect(LEAD)
    child.sendline("quit")
    child.expect(r"Quit this deal\? Escaping costs you 3 points")
    child.expect(r"Type yes to confirm, anything else to stay: ")
    child.sendline("no")
    child.expect(r"Not quitting: the game goes on\.")
    child.expect(LEAD)
    child.sendline("q")
    child.expect(r"Escaping costs you 3 points")
    child.expect(r"Type yes to confirm, anything else to stay: ")
    child.sendline("yes")
    child.expect(r"You left the deal\.")
    child.expect(r"Deal 1 is over\.")
    child.expect(r"You escaped: -3 points \(escape penalty\)\.")
    child.expect(r"You lose 3\.")
    child.expect(r"The table is over after 1 deal\(s\)\.")
    path = record_path(child)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = replay(path)
    assert "Player (you) escapes" in text
    assert "scores: Player (you): -3, Bot 1: +0, Bot 2: +0" in text


def test_follow_errors_and_quit_without_penalty(tmp_path: Path) -> None:
    """JJ match rules: a bot is landlord; a play that does not beat is refused; quit means auto-play."""
    child = spawn(tmp_path, "--rules", "jj_match", "--seed", "6", "--bots", "passive", "--lang", "en",
                  "--points", "500")
    child.expect(BID)
    child.sendline("history")
    child.expect(r"No deal has finished yet at this table\.")
    child.expect(BID)
    child.sendline("p")
    child.expect(r"Landlord: Bot 2 \(auto-play\) \(bid 1\)\.")
    child.expect(r"Bot 2 \(auto-play\): 4. \(single\)")
    child.expect(r"Beat 4 \(single\) or pass > ")
    child.sendline("3")
    child.expect(r"3 \(single\) does not beat 4 \(single\)\.\r\n")
    child.expect(r"Beat 4 \(single\) or pass > ")
    child.sendline("last")
    child.expect(r"No trick has finished yet in this deal\.")
    child.sendline("pass")
    child.expect(r"You: pass")
    child.expect(r"or pass > ")
    child.sendline("quit")
    child.expect(r"These rules have no escape penalty")
    child.expect(r"Type yes to confirm, anything else to stay: ")
    child.sendline("yes")
    child.expect(r"You left: the deal finishes in auto-play, then the table ends\.")
    child.expect(r"Deal 1 is over\.")
    child.expect(r"Score\s+Points")
    child.expect(r"You\s+farmer \(in auto-play\)")
    child.expect(r"The table is over after 1 deal\(s\)\.")
    path = record_path(child)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "winner: the landlord, Bot 2" in replay(path)


def test_timer_runs_out(tmp_path: Path) -> None:
    """With a timer, a lead not made in time plays the smallest single and turns auto-play on."""
    child = spawn(tmp_path, "--rules", "classic", "--seed", "7", "--bots", "passive", "--lang", "en",
                  "--timer-seconds", "2", "--auto-delay", "0.3", "--deals", "1")
    child.expect(r"Your bid \[pass, 1, 2, 3\] \(\d s\) > ")
    child.sendline("3")
    child.expect(r"You lead — your play \(\d s\) > ")
    child.expect(r"Time is up: you played (\S+)\. Auto-play is on — type auto to take back control\.")
    child.expect(r"You: auto-play on\.")
    child.sendline("auto")
    child.expect(r"Auto-play off: you play again\.")
    child.expect(r"You lead — your play \(\d s\) > ")
    child.sendline("quit")
    child.expect(r"Type yes to confirm, anything else to stay: ")
    child.sendline("yes")
    child.expect(r"Deal 1 is over\.")
    path = record_path(child)
    child.expect(pexpect.EOF)
    child.close()
    assert "timeout" in path.read_text()
    replay(path)


def test_chinese_four_players(tmp_path: Path) -> None:
    """The Chinese screen, a four-player table with three bots, and leaving by the end of input."""
    child = spawn(tmp_path, "--rules", "four_player", "--seed", "2", "--bots", "passive", "--lang", "zh")
    child.expect(r"叫分 \[不叫、1分、2分、3分\] > ")
    child.sendline("三分")
    child.expect(r"你 当地主（3 分）。")
    child.expect(r"电脑3号（托管）")
    child.expect(r"你的手牌（按点数）：")
    child.expect(r"你先出 > ")
    child.sendline("提示")
    child.expect(r"提示 1/\d+：")
    child.expect(r"你先出 > ")
    child.sendline("3334:plane")
    child.expect(r"(你没有|不能当作|不是本桌允许的牌型)")
    child.expect(r"你先出 > ")
    child.sendeof()
    child.expect(r"第 1 局结束。")
    child.expect(r"牌桌结束，共 1 局。")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_replay_names_the_players_the_record_carries(tmp_path: Path, lang: str) -> None:
    """``qipai replay`` of a Dou Dizhu record named its seats ``seat 0`` / ``0 号位`` although the record says who
    played (a terminal table's: you and its bots; a server's, from ``GET /api/deals/{id}``): each seat by its
    player now, the record's reader (``you``) as 你 / You (docs/records.md)."""
    rec = tmp_path / "deal.json"
    made = subprocess.run([str(QIPAI), "selfplay", "--seed", "3", "--record", str(rec), "--quiet"], env=env(),
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    data = json.loads(rec.read_text(encoding="utf-8"))
    data.update(players=[{"name": "bot:heuristic:1", "bot": "heuristic"}, {"name": "Ann", "bot": None},
                         {"name": "guest-0001e240", "bot": None}], you=1)
    rec.write_text(json.dumps(data), encoding="utf-8")
    out = subprocess.run([str(QIPAI), "replay", str(rec), "--lang", lang], capture_output=True, text=True,
                         env=env(), timeout=30)
    assert out.returncode == 0, out.stderr
    names = ["电脑1号", "你", "游客3456"] if lang == "zh" else ["Bot 1", "Ann (you)", "Guest 3456"]
    hands = out.stdout.splitlines()[1:4]
    assert [h.strip().split("：" if lang == "zh" else ":")[0] for h in hands] == names, hands
    scores = out.stdout.splitlines()[-1]
    assert all(n in scores for n in names), scores
    assert not re.search(r"seat \d|\d 号位", out.stdout) and ("Ann" not in out.stdout or lang == "en"), out.stdout
