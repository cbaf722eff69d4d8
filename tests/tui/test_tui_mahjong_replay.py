"""``qipai replay`` of a mahjong record tells the deal step by step (it printed only the settlement): the rules,
the dealer and the four starting hands, then one line per turn — the tile drawn and the discard, each chow or
pung with its tiles and whose discard it took, 听, the 宝 with its tile, the win and how —, the claim windows'
passes, time-outs, auto-play and leaving, then the settlement; in English and in Chinese.  A record that stops
before the deal is over prints its steps and says so (it was refused); an illegal step is still refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import qipai
from qipai.bots import get_bot
from qipai.games.mahjong.factory import FACTORY as MJ
from qipai.games.mahjong.state import MahjongGame, replay_record
from qipai.games.mahjong.tiles import format_tiles, parse_tile

SRC = str(Path(qipai.__file__).resolve().parents[1])


def env() -> dict[str, str]:
    e = dict(os.environ)
    e.update({"NO_COLOR": "1", "COLUMNS": "200", "LANG": "C.UTF-8", "PYTHONPATH": SRC})
    e.pop("LC_ALL", None)
    return e


def replay(path: Path, lang: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "qipai.cli", "replay", str(path), "--lang", lang],
                          capture_output=True, text=True, env=env(), timeout=120)


Hook = Callable[[MahjongGame, int, int], bool]


def bot_deal(seed: int, raw: dict[str, Any], hook: Hook | None = None) -> dict[str, Any]:
    """A deal played out by the ``efficiency`` bots (as ``qipai selfplay`` does); ``hook(game, n, seat)`` may
    make host events before decision ``n`` (and return True to skip the bot's move)."""
    opts = MJ.options({"preset": "daqing", **raw})
    g = MJ.new(opts, seed, MJ.deal_context(opts, MJ.match_start(opts)))
    bots = [get_bot("efficiency", seed * 31 + i, game="mahjong") for i in range(4)]
    n = 0
    while not g.is_over:
        n += 1
        assert n < 2000
        s = g.acting[0]
        if hook is not None and hook(g, n, s):
            continue
        g.apply(bots[s].act(json.loads(json.dumps(g.observe(s))), g.legal_actions(s)), s)
    rec: dict[str, Any] = g.record()
    return rec


def write(path: Path, record: dict[str, Any]) -> Path:
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return path


def expected_steps(game: MahjongGame, lang: str) -> list[str]:
    """What the replay must say, in order, for each public event of the engine's log."""
    zh = lang == "zh"
    baos = [*game.old_bao, *([] if game.bao is None else [game.bao])]
    out: list[str] = []
    for e in game.log:
        a, s = e["action"], e["seat"]
        w = a.split()
        if a == "draw":
            out.append(f"  #{s} 摸 {e['tile']}" if zh else f"  #{s} draws {e['tile']}")
        elif w[0] == "discard":
            if e.get("auto"):  # a ready seat's draw discarded for it (these records have no time-outs)
                out.append(f"自动打出 {w[1]}" if zh else f"discards {w[1]} automatically")
            else:
                out.append(f"打出 {w[1]}" if zh else f"discards {w[1]}")
        elif w[0] == "ting":
            out.append(f"听牌，打出 {w[1]}" if zh else f"declares ready (听), discarding {w[1]}")
        elif w[0] in ("chi", "peng"):
            tile, src = e["tile"], e["source"]
            tiles = w[1] if w[0] == "chi" else format_tiles([parse_tile(tile)] * 3)
            if zh:
                verb = {"chi": "吃", "peng": "碰"}[w[0]] + ("听" if w[-1] == "ting" else "")
                out.append(f"  #{s} {verb} {tiles}（#{src} 打的 {tile}）")
            else:
                verb = "chows" if w[0] == "chi" else "pungs"
                out.append(f"  #{s} {verb} {tiles} ({tile} from #{src}" + (", " if w[-1] == "ting" else ")"))
        elif a == "hu":
            out.append("胡了 — " if zh else "wins — ")
        elif a == "bao":
            tile = baos.pop(0)
            out.append(f"从牌墙尾定宝：{format_tiles([tile])}" if zh else
                       f"The treasure (宝) is set from the tail of the wall: {format_tiles([tile])}")
        elif a == "bao dead":
            out.append(f"宝牌 {e['tile']} 已见三张" if zh else f"The treasure {e['tile']} is dead")
        elif a == "exhausted":
            out.append("牌墙摸完" if zh else "The wall is exhausted")
        elif a == "leave":
            out.append(f"#{s} 离开了牌桌" if zh else f"#{s} left the table")
    return out


def assert_in_order(text: str, parts: list[str]) -> int:
    """Each of ``parts`` found in ``text`` after the one before; the position after the last."""
    pos = 0
    for p in parts:
        at = text.find(p, pos)
        assert at >= 0, f"{p!r} not found (in order) after position {pos}:\n{text[pos:pos + 400]}\n---\n{text}"
        pos = at + len(p)
    return pos


def start_lines(game: MahjongGame, lang: str) -> list[str]:
    """The dealer and each seat's starting hand, tile by tile."""
    hands, live = game.initial
    zh = lang == "zh"
    lines = [f"庄家：#{game.dealer}" if zh else f"Dealer: #{game.dealer}",
             f"牌墙剩 {len(live)} 张" if zh else f"Wall: {len(live)} tiles left"]
    for s, h in enumerate(hands):
        mark = ("（庄）" if zh else " (dealer)") if s == game.dealer else ""
        tiles = " ".join(format_tiles([k]) for k in sorted(h))
        lines.append(f"  #{s}{mark}{'：' if zh else ': '}{tiles}\n")
    return lines


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A finished deal of the bots: seed 4 has chows, a pung, 吃听/碰听, the 宝 and a win on a discard."""
    record = bot_deal(4, {})
    return write(tmp_path_factory.mktemp("mj") / "deal.json", record), record


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_replay_tells_every_step_then_the_settlement(played: tuple[Path, dict[str, Any]], lang: str) -> None:
    path, record = played
    game = MJ.replay(record)
    out = game.outcome()
    assert out is not None
    logged = [e["action"].split()[0] for e in game.log]
    assert {"draw", "discard", "chi", "peng", "ting", "bao", "hu"} <= set(logged)  # the seed still shows them all
    rep = replay(path, lang)
    assert rep.returncode == 0, rep.stderr
    text = rep.stdout
    zh = lang == "zh"
    assert text.startswith("大庆麻将 · 种子 4 · " if zh else "Daqing mahjong · seed 4 · ")
    assert ("规则：daqing" if zh else "Rules: daqing") in text
    start = assert_in_order(text, start_lines(game, lang))
    pos = start + assert_in_order(text[start:], expected_steps(game, lang))
    # every discard and claim of the record (the claims carried out), in the record's order
    said = []
    for i, step in enumerate(record["actions"]):
        w = step["action"].split()
        if w[0] == "discard":
            said.append(f"打出 {w[1]}" if zh else f"discards {w[1]}")
        elif w[0] == "ting":
            said.append(f"听牌，打出 {w[1]}" if zh else f"declares ready (听), discarding {w[1]}")
        elif w[0] in ("chi", "peng") and i in game.carried:
            verb = ("吃" if w[0] == "chi" else "碰") if zh else ("chows" if w[0] == "chi" else "pungs")
            verb += "听" if zh and w[-1] == "ting" else ""
            said.append(f"#{step['seat']} {verb} {w[1] if w[0] == 'chi' else ''}")
    assert len(said) > 20
    assert_in_order(text[start:], said)
    # a draw and its discard share a line
    first = next(i for i, e in enumerate(game.log) if e["action"] == "draw" and
                 game.log[i + 1]["action"].startswith("discard ") and not game.log[i + 1].get("auto"))
    d, x = game.log[first], game.log[first + 1]
    line = (f"  #{d['seat']} 摸 {d['tile']}，打出 {x['action'].split()[1]}\n" if zh else
            f"  #{d['seat']} draws {d['tile']}, discards {x['action'].split()[1]}\n")
    assert line in text
    # the win and how, then the settlement as before
    w, feeder, tile = out["winner"], out["feeder"], out["win"]["tile"]
    won = f"  #{w} 胡了 — #{feeder} 点炮 {tile}\n" if zh else f"  #{w} wins — on #{feeder}'s discard {tile}\n"
    assert won in text
    scores = " · ".join(f"#{i} {s:+d}" for i, s in enumerate(out["scores"]))
    settlement = [f"#{w} 胡了 — " if zh else f"#{w} won — ", ("得分：" if zh else "Scores: ") + scores,
                  "各家手牌：" if zh else "Hands: "]
    assert_in_order(text[pos:], settlement)
    assert text.rstrip("\n").splitlines()[-1].startswith("各家手牌：" if zh else "Hands: ")
    # the claim windows' passes, compactly, one per pass answered
    passes = sum(1 for a in record["actions"] if a["action"] == "pass")
    assert text.count(" 过" if zh else " passes") == passes
    assert "Traceback" not in rep.stderr


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_unfinished_record_prints_its_steps_and_says_so(played: tuple[Path, dict[str, Any]], lang: str,
                                                           tmp_path: Path) -> None:
    _, record = played
    cut = dict(record, actions=record["actions"][:20], outcome=None)
    path = write(tmp_path / "cut.json", cut)
    rep = replay(path, lang)
    assert rep.returncode == 0, rep.stderr  # it was "error: the record ends before the hand is over"
    text = rep.stdout
    part = replay_record(cut, upto=20)
    assert part.outcome() is None
    pos = assert_in_order(text, start_lines(part, lang))
    assert_in_order(text[pos:], expected_steps(part, lang))
    last = text.rstrip("\n").splitlines()[-1]
    assert last == ("（记录到此为止，这一局没有打完）" if lang == "zh" else
                    "(the record ends here, after 20 actions: the deal is not over)")
    assert "Scores:" not in text and "得分：" not in text


def test_an_illegal_step_is_still_refused_naming_it(played: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    _, record = played
    before = replay_record(record, upto=5)
    seat = before.acting[0]
    assert before.phase == "play"
    missing = next(format_tiles([k]) for k in range(28) if not before.hands[seat][k])
    bad = json.loads(json.dumps(record))
    bad["actions"][5] = {"seat": seat, "action": f"discard {missing}"}
    bad["outcome"] = None
    rep = replay(write(tmp_path / "bad.json", bad), "en")
    assert rep.returncode == 2
    assert rep.stderr.strip() == f"error: step 6 (seat {seat}: 'discard {missing}') is illegal: you hold no {missing}"
    assert rep.stdout == ""


def test_host_events_and_claims_that_lost(tmp_path: Path) -> None:
    """A time-out, auto-play on and off and a seat leaving are told where they happened; with ``auto_hu`` off a
    chow that lost to a pung is noted on the discard it answered."""

    def hook(g: MahjongGame, n: int, seat: int) -> bool:
        if n == 3:
            g.timeout(seat)
            return True
        if n == 6:
            g.set_autoplay(1, True)
        elif n == 20:
            g.set_autoplay(1, False)
        elif n == 30:
            g.leave(2)
        return False

    record = bot_deal(5, {}, hook)
    rep = replay(write(tmp_path / "host.json", record), "en")
    assert rep.returncode == 0, rep.stderr
    text = rep.stdout
    timed = next(a for a in record["actions"] if a["action"] == "timeout")
    assert_in_order(text, [f"  #{timed['seat']} draws ", " (time up: the system played)\n",
                           "  #1: auto-play on\n", "  #1: auto-play off\n", "  #2 left the table (auto-play)\n",
                           "Scores: "])
    zh = replay(write(tmp_path / "host.json", record), "zh").stdout
    assert_in_order(zh, ["（超时，系统代打）", "  #1 托管\n", "  #1 取消托管\n", "  #2 离开了牌桌（托管）\n", "得分："])

    record = bot_deal(3, {"auto_hu": False})
    game = MJ.replay(record)
    lost = [(i, s, a) for i, ((s, a), kind) in enumerate(zip(game.actions, game.step_kinds, strict=True))
            if kind == "answer" and a != "pass" and i not in game.carried]
    assert lost  # this seed has chows that lost to higher claims
    path = write(tmp_path / "lost.json", record)
    en, zh = replay(path, "en").stdout, replay(path, "zh").stdout
    assert "Rules: daqing, auto_hu=off" in en
    assert_in_order(en, [f"#{s}'s {a} loses to a higher claim" for _, s, a in lost])
    assert_in_order(zh, [f"#{s} 要{a.replace('chi ', '吃 ').replace('peng', '碰')}，被优先的要求压过"
                         for _, s, a in lost])


PLAYERS = [{"name": "Ann", "bot": None}, {"name": "bot:efficiency:2", "bot": "efficiency"},
           {"name": "guest-0001e240", "bot": None}, {"name": "bot:efficiency", "bot": "efficiency"}]
"""A deal's players as ``GET /api/deals/{id}`` adds them to its record from the store (docs/records.md)."""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_replay_names_the_players_the_record_carries(tmp_path: Path, lang: str) -> None:
    """The replay named the seats ``#0``…``#3`` although the record (a server's, a terminal table's) says who
    played: each seat now by its player — the record's own reader (``you``) as 你 / You, a bot seat as 电脑2号 /
    Bot 2, a guest as 游客3456 / Guest 3456, a bot account by its level — in the steps and the settlement.  A record
    that names nobody still numbers its seats."""
    rec = bot_deal(5, {})
    text = replay(write(tmp_path / "named.json", {**rec, "players": PLAYERS, "you": 0}), lang)
    assert text.returncode == 0, text.stderr
    you, bot, guest, account = (["你", "电脑2号", "游客3456", "电脑（普通）"] if lang == "zh"
                                else ["Ann (you)", "Bot 2", "Guest 3456", "Bot (normal)"])
    starts = [line.strip() for line in text.stdout.splitlines()[2:6]]
    assert all(line.startswith(name) for line, name in zip(starts, (you, bot, guest, account), strict=True)), starts
    assert "#" not in text.stdout and ("Ann" not in text.stdout or lang == "en"), text.stdout
    score_word = "得分" if lang == "zh" else "Scores"
    scores = next(line for line in text.stdout.splitlines() if score_word in line)
    assert all(n in scores for n in (you, bot, guest, account)), scores
    # without players: numbered as before
    plain = replay(write(tmp_path / "plain.json", rec), lang).stdout
    assert "#0" in plain and "#3" in plain and you not in plain.splitlines()[2]
