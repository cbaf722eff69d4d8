"""The ``qipai`` command, run as a user runs it: rules, selfplay, replay, serve."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from qipai.games.doudizhu.record import replay

QIPAI = [sys.executable, "-m", "qipai.cli"]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LANG": "C.UTF-8"}
    return subprocess.run([*QIPAI, *args], capture_output=True, text=True, timeout=120, cwd=cwd, env=env)


def test_rules_lists_every_preset() -> None:
    out = run("rules")
    assert out.returncode == 0
    for name in ["classic", "jj", "jj_match", "cantonese", "effective_bombs", "chengdu", "four_player",
                 "four_player_show"]:
        assert name in out.stdout
    one = run("rules", "chengdu")
    assert json.loads(one.stdout)["chengdu_doubling"] is True
    bad = run("rules", "nope")
    assert bad.returncode == 2 and "unknown preset 'nope'" in bad.stderr


def test_dash_h_is_help_for_qipai_and_every_command() -> None:
    """``-h`` is ``--help`` at the top level too (it was "No such option: -h" there, and on most commands)."""
    import typer

    from qipai.cli import app

    top = run("-h")
    assert top.returncode == 0 and top.stdout == run("--help").stdout and "Usage: qipai" in top.stdout, top.stderr
    commands = sorted(typer.main.get_group(app).commands)
    assert "serve" in commands and "play" in commands
    for name in commands:
        out = run(name, "-h")
        assert out.returncode == 0 and f"Usage: qipai {name}" in out.stdout, (name, out.stderr)


def test_selfplay_every_preset_prints_deal_and_outcome(tmp_path: Path) -> None:
    for preset in ["classic", "chengdu", "four_player", "four_player_show"]:
        rec = tmp_path / f"{preset}.json"
        out = run("selfplay", "--rules", preset, "--seed", "7", "--lang", "en", "--record", str(rec))
        assert out.returncode == 0, out.stderr
        assert "Deal 1:" in out.stdout and "scores:" in out.stdout and "multiplier" in out.stdout
        game = replay(json.loads(rec.read_text()))
        assert game.is_over
        again = run("selfplay", "--rules", preset, "--seed", "7", "--lang", "en")
        assert again.stdout == out.stdout.replace(f"record: {rec}\n", "")  # the same seed, the same deal


def test_selfplay_in_chinese_and_bad_options() -> None:
    out = run("selfplay", "--rules", "chengdu", "--seed", "7", "--lang", "zh")
    assert out.returncode == 0 and "电脑1号" in out.stdout and "得分" in out.stdout
    assert run("selfplay", "--rules", "nope").returncode == 2
    bad = run("selfplay", "--bots", "random,random")
    assert bad.returncode == 2 and "--bots needs 1 or 3 names" in bad.stderr
    bad = run("selfplay", "--bots", "nobody")
    assert bad.returncode == 2 and "unknown bot 'nobody'" in bad.stderr
    assert "known bots are dmc, douzero_resnet, easy, " in bad.stderr and "[" not in bad.stderr, bad.stderr  # no list
    # an empty entry is refused, not dropped (heuristic,,random was read as two bots); a bot's options are read
    # as the arena reads them (search:time=0.1 was an unknown bot)
    for bots in ("heuristic,,random", "", " , "):
        bad = run("selfplay", "--bots", bots)
        assert bad.returncode == 2 and "has an empty entry" in bad.stderr, (bots, bad.stderr)
    out = run("selfplay", "--seed", "3", "--bots", "search:time=0.05,samples=4,passive,heuristic", "--quiet")
    assert out.returncode == 0, out.stderr
    bad = run("selfplay", "--bots", "search:time=0")
    assert bad.returncode == 2 and "search option time" in bad.stderr, bad.stderr


def test_a_gz_record_is_gzipped_and_replays(tmp_path: Path) -> None:
    """``--record deal.json.gz`` writes gzip (it wrote plain JSON under a .gz name), replay reads it like the
    plain one, and a broken gzip file is a one-line error."""
    import gzip

    rec, plain = tmp_path / "deal.json.gz", tmp_path / "deal.json"
    assert run("selfplay", "--seed", "3", "--record", str(rec), "--quiet").returncode == 0
    assert run("selfplay", "--seed", "3", "--record", str(plain), "--quiet").returncode == 0
    assert json.loads(gzip.decompress(rec.read_bytes())) == json.loads(plain.read_text())
    a, b = run("replay", str(rec), "--lang", "en"), run("replay", str(plain), "--lang", "en")
    assert a.returncode == 0 and "winner:" in a.stdout and a.stdout == b.stdout
    whole = rec.read_bytes()
    flipped = bytearray(whole)
    flipped[len(whole) // 2] ^= 0xFF
    for broken in (whole[:30], bytes(flipped)):  # cut short; corrupt inside (a zlib.error)
        rec.write_bytes(broken)
        bad = run("replay", str(rec))
        assert bad.returncode == 2 and "is a broken gzip file" in bad.stderr and "Traceback" not in bad.stderr


def test_replay_prints_and_refuses_a_bad_record(tmp_path: Path) -> None:
    rec = tmp_path / "deal.json"
    assert run("selfplay", "--seed", "3", "--record", str(rec), "--quiet").returncode == 0
    out = run("replay", str(rec), "--lang", "en")
    assert out.returncode == 0 and "Bot 1" in out.stdout and "winner:" in out.stdout
    data = json.loads(rec.read_text())
    i = next(i for i, a in enumerate(data["actions"]) if a["action"].startswith("play "))
    data["actions"][i]["action"] = "play 2222"
    rec.write_text(json.dumps(data))
    bad = run("replay", str(rec))
    assert bad.returncode == 2 and f"action {i + 1}" in bad.stderr and "illegal" in bad.stderr
    rec.write_text("{not json")
    assert "is not JSON" in run("replay", str(rec)).stderr
    assert "no such file" in run("replay", str(tmp_path / "missing.json")).stderr
    # steps that are no list (a number was a TypeError traceback; {} was read as no steps), and a record cut short
    assert run("selfplay", "--seed", "3", "--record", str(rec), "--quiet").returncode == 0
    good = json.loads(rec.read_text())
    short = "ends before the deal is over (after 10 actions), yet holds an outcome"
    for steps, said in ((5, "actions are a list"), ({}, "actions are a list"), (good["actions"][:10], short)):
        rec.write_text(json.dumps({**good, "actions": steps}))
        bad = run("replay", str(rec))
        assert bad.returncode == 2 and bad.stderr.startswith("error:") and said in bad.stderr, (steps, bad.stderr)
    # fields that were blamed on the first action (no rules read as classic; a first bidder of no seat)
    no_rules = {k: v for k, v in good.items() if k not in ("rules", "preset")}
    for broken, said in ((no_rules, "names no rules"), ({**good, "first_bidder": "a"}, "bad first_bidder"),
                         ({**good, "first_bidder": 5}, "a seat 0..2, not 5"),
                         ({**good, "deal": {"hands": ["3"] * 3}}, "bad deal in record: it has no 'kitty'"),
                         ({**good, "deal": "garbage"}, "bad deal in record: an object with hands and kitty"),
                         # hands and kitty of the wrong type ('int' object is not iterable)
                         ({**good, "deal": {"hands": [1, 2, 3], "kitty": "3S 3H 3D"}}, "hands are a list of 3 hands"),
                         ({**good, "deal": {"hands": ["3S"] * 3, "kitty": 5}}, "the kitty is cards as text or a list"),
                         ({**good, "seed": True}, "no integer seed (seed is True)"),
                         ({**good, "table_points": "x"}, "bad table_points in record: a list of 3 whole numbers"),
                         ({**good, "actions": [{"seat": True, "action": "pass"}]}, "action 1 is malformed")):
        rec.write_text(json.dumps(broken))
        bad = run("replay", str(rec))
        assert bad.returncode == 2 and said in bad.stderr, (said, bad.stderr)
    # a byte-order mark (a Windows editor's) is read; a record cut short without an outcome says so at its end
    rec.write_bytes(b"\xef\xbb\xbf" + json.dumps(good).encode())
    assert run("replay", str(rec)).returncode == 0
    cut = {k: v for k, v in good.items() if k != "outcome"} | {"actions": good["actions"][:17]}
    rec.write_text(json.dumps(cut))
    out = run("replay", str(rec), "--lang", "en")
    assert out.returncode == 0 and out.stdout.strip().endswith("after 17 actions: the deal is not over)"), out.stdout


def test_bad_files_and_values_get_a_one_line_error_before_anything_runs(tmp_path: Path) -> None:
    """What a careless user types: each is refused with ``error: ...`` and exit status 2, never a traceback,
    and a bad output path is refused before a long run (not when it ends, losing its results)."""
    rec = tmp_path / "deal.json"
    assert run("selfplay", "--seed", "3", "--record", str(rec), "--quiet").returncode == 0
    (tmp_path / "list.json").write_text("[]")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    data = json.loads(rec.read_text())
    data["rules"] = "classic"
    (tmp_path / "rules.json").write_text(json.dumps(data))
    (tmp_path / "folder").mkdir()
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "shengji.json").write_text(json.dumps({"game": "shengji", "version": 1, "seed": None}))
    not_a_folder = str(tmp_path / "list.json" / "x")
    cases = [
        (("replay", str(tmp_path / "list.json")), "a record is a JSON object"),
        (("replay", str(tmp_path / "bin.json")), "is not text"),
        (("replay", str(tmp_path / "folder")), "is a folder"),
        (("replay", str(tmp_path / "rules.json")), "bad rules in record"),
        (("replay", str(tmp_path / "deep.json")), "nested too deeply"),
        (("replay", str(tmp_path / "shengji.json")), "integer seed"),
        (("replay", str(rec), "--review", "0", "--samples", "0"), "--samples must be at least 1"),
        (("replay", str(rec), "--samples", "5"), "--samples is the review's"),  # was silently ignored
        (("play", "--records", str(rec), "--deals", "1"), "is a file"),
        (("play", "--records", not_a_folder, "--deals", "1"), "no folder"),
        (("play", "--records", "/proc/qipai-records", "--deals", "1"), "cannot write records into /proc/qipai-rec"),
        (("play", "--game", "mahjong", "--records", "/proc/qipai-records"), "cannot write records into"),
        (("play", "--deals", "-1"), "--deals must be 0"),
        (("play", "--timer-seconds", "0"), "--timer-seconds must be at least 1"),
        (("play", "--auto-delay", "nan"), "--auto-delay must be between"),
        (("arena", "random", "random", "--jobs", "0"), "--jobs must be at least 1"),
        (("arena", "random", "random", "--deals", "1", "--json", not_a_folder), "no folder"),
        (("arena", "random", "random", "--deals", "1", "--json", str(tmp_path / "folder")), "is a folder"),
    ]
    for args, words in cases:
        out = run(*args)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert out.stderr.startswith("error:") and words in out.stderr, (args, out.stderr)
        assert "Traceback" not in out.stderr, (args, out.stderr)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_starts_on_sqlite_in_a_data_folder(tmp_path: Path) -> None:
    port = _free_port()
    proc = subprocess.Popen([*QIPAI, "serve", "--port", str(port), "--data-dir", str(tmp_path / "data"),
                             "--bot-fill-wait", "1"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        health = None
        for _ in range(150):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1) as r:
                    health = json.loads(r.read())
                    break
            except OSError:
                time.sleep(0.1)
        assert health is not None and health["ok"] is True
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
            assert "<html" in r.read().decode()
        # the match lobby has a sit-and-go open for registration (bots fill it a minute after the first entry)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/matches", timeout=5) as r:
            listed = json.loads(r.read())["matches"]
        assert [(m["name"], m["status"]) for m in listed] == [("quick_sit_and_go", "open")], listed
        assert (tmp_path / "data" / "qipai.db").exists()
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    assert f"serving on http://127.0.0.1:{port}/" in out


def test_serve_says_serving_on_once_it_answers_and_a_ctrl_c_then_stops_it(tmp_path: Path) -> None:
    """The "serving on" line comes once the server listens (the address answers at once, no retrying) and with
    uvicorn's signal handlers in place: a Ctrl-C right after it shuts the server down cleanly (no traceback; exit
    130, the Ctrl-C passed on).  (The line came before uvicorn started; a Ctrl-C in between could be swallowed
    and the server went on serving.)"""
    for i in range(3):
        port = _free_port() if i else 0  # --port 0: the line names the port the system chose (it said :0)
        proc = subprocess.Popen([*QIPAI, "serve", "--port", str(port), "--data-dir", str(tmp_path / "data"),
                                 "--log-level", "warning", "--bot-processes", "0"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            assert proc.stdout is not None
            first = proc.stdout.readline()
            said = re.match(r"qipai: serving on http://127\.0\.0\.1:(\d+)/", first)
            assert said is not None and (int(said[1]) == port if port else int(said[1]) > 0), first
            port = int(said[1])
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as r:
                assert json.loads(r.read())["ok"] is True
        finally:
            proc.send_signal(signal.SIGINT)
            rest, _ = proc.communicate(timeout=30)
        assert proc.returncode in (0, 130), (proc.returncode, rest)
        assert "Traceback" not in rest, rest


def test_serve_rejects_a_bad_option() -> None:
    out = run("serve", "--port", "notanumber")
    assert out.returncode == 2
    out = run("serve", "--bot-fill-wait", "soon")
    assert out.returncode == 2 and "bot-fill-wait" in out.stderr
    # a mistyped option: one line naming the nearest (it came after the usage of every option, some 36 lines)
    out = run("serve", "--bot-fill-wiat", "5")
    assert out.returncode == 2 and "did you mean --bot-fill-wait?" in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "usage" not in out.stderr


def test_serve_lists_every_option_with_what_it_does_its_default_and_variable() -> None:
    out = run("serve", "--all-options")
    assert out.returncode == 0
    text = " ".join(out.stdout.split())
    assert "--bot-fill-wait BOT_FILL_WAIT Quick match: empty seats are filled with bots" in text, text[:2000]
    assert "(default: 5.0; QIPAI_BOT_FILL_WAIT)" in text
    assert "(default: 8000; QIPAI_PORT)" in text and "(default: qipai:; QIPAI_REDIS_PREFIX)" in text
    assert text.count("(default: ") >= 40


def test_selfplay_refuses_a_record_path_it_cannot_write_before_playing(tmp_path: Path) -> None:
    for path, words in [(tmp_path / "missing" / "deal.json", "no folder"), (tmp_path, "is a folder")]:
        out = run("selfplay", "--seed", "3", "--quiet", "--record", str(path))
        assert out.returncode == 2 and out.stderr.startswith("error: --record") and words in out.stderr, out.stderr
        assert "Traceback" not in out.stderr and "winner" not in out.stdout


@pytest.mark.parametrize("game", ["doudizhu", "shengji", "mahjong"])
def test_replay_of_a_record_naming_fewer_players_than_seats_numbers_the_rest(tmp_path: Path, game: str) -> None:
    # a players list shorter than the table was an IndexError traceback in all three games' replays
    rec = tmp_path / "deal.json"
    assert run("selfplay", "--game", game, "--seed", "3", "--record", str(rec), "--quiet").returncode == 0
    data = json.loads(rec.read_text())
    rec.write_text(json.dumps({**data, "players": data["players"][:1]}))
    out = run("replay", str(rec), "--lang", "en")
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    numbered = {"doudizhu": "seat 2", "shengji": "seat 3", "mahjong": "#3"}[game]
    assert "Bot 1" in out.stdout and numbered in out.stdout and "Bot 2" not in out.stdout


def test_replay_refuses_a_record_with_a_number_too_long_to_read(tmp_path: Path) -> None:
    rec = tmp_path / "huge.json"
    rec.write_text('{"format": "qipai-record", "seed": 1' + "0" * 5000 + "}")
    out = run("replay", str(rec))
    assert out.returncode == 2 and out.stderr.startswith("error:") and "number too long" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr


def test_an_unknown_rule_option_lists_every_option_the_game_accepts() -> None:
    out = run("play", "--game", "mahjong", "-o", "speed=1")
    assert out.returncode == 2 and out.stderr.startswith("error: unknown rule option 'speed'"), out.stderr
    from qipai.core.registry import get_factory

    for name in [o.name for o in get_factory("mahjong").info.options]:
        assert name in out.stderr, (name, out.stderr)


def test_serve_refuses_a_bad_port_database_url_or_data_folder_before_starting(tmp_path: Path) -> None:
    """What fails only once the server starts (uvicorn's or the driver's traceback, exit 3, after "serving on")
    is a one-line usage error before it starts; a password in the URL is not shown."""
    (tmp_path / "file").write_text("")
    cases = [
        (("--port", "99999"), "--port must be 0 to 65535"),
        (("--port", "-1"), "--port must be 0 to 65535"),
        (("--database-url", "nonsense"), "is not a database URL"),
        (("--database-url", "postgresql://qipai:secret@db/qipai"), "not an async driver"),
        (("--database-url", "nosuch+driver://qipai:secret@db/qipai"), "no database 'nosuch+driver'"),
        (("--database-url", f"sqlite+aiosqlite:///{tmp_path}/missing/q.db"), "no folder"),
        (("--database-url", f"sqlite+aiosqlite:///{tmp_path}"), "is a folder"),
        (("--data-dir", str(tmp_path / "file")), "is a file"),
        (("--data-dir", str(tmp_path / "file" / "data")), "cannot make it in"),
        # settings read as their type only (a time scale of 0, a bot no game has, a bad pool of matches, a log
        # level: each was accepted, or was a traceback from uvicorn's start-up)
        (("--time-scale", "0"), "--time-scale must be above 0"),
        (("--bot-delay", "-1"), "--bot-delay must be at least 0"),
        (("--start-points", "-100"), "--start-points must be at least 0"),
        (("--max-message-bytes", "0"), "--max-message-bytes must be at least 1024"),
        (("--seat-bot", "nobot"), "no game has a bot 'nobot'"),
        (("--log-level", "foo"), "--log-level must be one of"),
        (("--leaderboard-tz", "Mars/Olympus"), "--leaderboard-tz: no time zone 'Mars/Olympus'"),
        (("--redis-url", "garbage"), "--redis-url must be redis://"),
        (("--matches", "garbage"), "--matches: unknown preset 'garbage'"),
        (("--matches", '[{"preset": "nope"}]'), "--matches: unknown preset 'nope'"),
        (("--matches", "[oops"), "--matches: a JSON list of match definitions that is no JSON"),
    ]
    for args, words in cases:
        out = run("serve", "--data-dir", str(tmp_path / "data"), *args)
        assert out.returncode == 2 and out.stderr.startswith("error:") and words in out.stderr, (args, out.stderr)
        assert "Traceback" not in out.stderr and "serving on" not in out.stdout and "secret" not in out.stderr
    assert not (tmp_path / "data").exists()


def test_serve_on_a_database_it_cannot_reach_is_one_line_before_starting(tmp_path: Path) -> None:
    """A PostgreSQL server that refuses the connection is one line and exit 1 before "serving on" (was the
    driver's traceback from inside uvicorn's start-up, exit 3); the password is not shown."""
    url = f"postgresql+asyncpg://qipai:secret@127.0.0.1:{_free_port()}/qipai"  # released: nothing listens there
    out = run("serve", "--data-dir", str(tmp_path / "data"), "--database-url", url)
    shown = url.replace(":secret@", ":***@")
    assert out.returncode == 1, (out.stdout, out.stderr)
    assert out.stderr.strip() == f"error: cannot reach the database at {shown}: connection refused", out.stderr
    assert "Traceback" not in out.stderr and "serving on" not in out.stdout and "secret" not in out.stderr


def test_check_database_gives_up_on_a_server_that_never_answers() -> None:
    from qipai.host.settings import Settings
    from qipai.server.run import check_database

    with socket.socket() as s:  # listening, never accepting: the connection is made, the handshake never answered
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        settings = Settings(database_url=f"postgresql+asyncpg://qipai@127.0.0.1:{port}/qipai")
        started = time.monotonic()
        with pytest.raises(ValueError, match=r"^cannot reach the database at .*: no answer within 0.5 s$"):
            check_database(settings, timeout=0.5)
        assert time.monotonic() - started < 5
    check_database(Settings(database_url="sqlite+aiosqlite:///nowhere/q.db"))  # SQLite: nothing is opened


def test_serve_on_a_database_a_newer_qipai_made_or_no_database_is_one_line_before_starting(tmp_path: Path) -> None:
    """A schema revision these migrations do not know (a newer qipai's database, after a downgrade) and a SQLite
    file that is no database were each alembic's or the driver's traceback from uvicorn's start-up (exit 3)."""
    import asyncio

    from qipai.host.settings import Settings
    from qipai.server.run import check_database
    from qipai.store.db import make_engine, newest_revision, upgrade

    db = tmp_path / "q.db"
    url = f"sqlite+aiosqlite:///{db}"

    async def make(revision: str | None) -> None:
        engine = make_engine(url)
        try:
            await upgrade(engine)
            if revision is not None:
                async with engine.begin() as conn:
                    await conn.exec_driver_sql(f"UPDATE alembic_version SET version_num = '{revision}'")
        finally:
            await engine.dispose()

    asyncio.run(make(None))
    check_database(Settings(database_url=url))  # this qipai's own database: fine
    asyncio.run(make("ffff9999"))
    out = run("serve", "--database-url", url)
    assert out.returncode == 1, (out.stdout, out.stderr)
    assert out.stderr.strip() == (f"error: the database at {url} has schema revision 'ffff9999', which this qipai "
                                  f"does not know (its newest is '{newest_revision()}'): a newer qipai made it; "
                                  "run that one, or give another database"), out.stderr
    assert "serving on" not in out.stdout
    bad = tmp_path / "notes.txt"
    bad.write_text("not a database\n" * 100)
    out = run("serve", "--database-url", f"sqlite+aiosqlite:///{bad}")
    assert out.returncode == 1 and out.stderr.strip() == (
        f"error: cannot open the database at sqlite+aiosqlite:///{bad}: file is not a database"), out.stderr
    assert bad.read_text() == "not a database\n" * 100  # untouched
    # the server without the CLI checks the same
    out = subprocess.run([sys.executable, "-m", "qipai.server", "--database-url", url], stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and out.stderr.startswith(f"error: the database at {url} has schema revision"), \
        out.stderr
    out = subprocess.run([sys.executable, "-m", "qipai.server", "--port", "99999"], stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stderr.strip() == "error: --port must be 0 to 65535 (0: any free port), got " \
        "99999", out.stderr


def test_replay_review_of_a_record_of_another_game_is_refused_not_ignored(tmp_path: Path) -> None:
    played = subprocess.run([*QIPAI, "play", "--game", "mahjong", "--seed", "2", "--deals", "1", "--records",
                             str(tmp_path)], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert played.returncode == 0, played.stderr
    (rec,) = tmp_path.glob("*.json")
    assert run("replay", str(rec)).returncode == 0
    out = run("replay", str(rec), "--review", "0")
    assert out.returncode == 2 and out.stderr.startswith("error: --review is for Dou Dizhu"), out.stderr


def test_selfplay_plays_a_hand_of_every_registered_game(tmp_path: Path) -> None:
    """``qipai selfplay --game shengji|mahjong``: one hand with bots in every seat, its result printed as
    ``qipai replay`` prints it, and a record that replays; bad input is one line, exit 2."""
    for game, bots, option in (("shengji", "rule", "start_level=5"), ("mahjong", "efficiency", "base=2")):
        rec = tmp_path / f"{game}.json"
        out = run("selfplay", "--game", game, "--seed", "4", "--bots", bots, "-o", option, "--record", str(rec),
                  "--lang", "en")
        assert out.returncode == 0, out.stderr
        data = json.loads(rec.read_text())
        assert data["game"] == game
        again = run("replay", str(rec), "--lang", "en")
        assert again.returncode == 0 and again.stdout.strip() in out.stdout, (again.stdout, out.stdout)
        assert out.stdout.strip().endswith(f"record: {rec}")
        same = run("selfplay", "--game", game, "--seed", "4", "--bots", bots, "-o", option, "--lang", "en")
        assert same.stdout == out.stdout.replace(f"record: {rec}\n", "")  # the seed makes the hand
        quiet = run("selfplay", "--game", game, "--seed", "4", "--bots", bots, "-o", option, "--lang", "en",
                    "--quiet")
        kept = [x for x in same.stdout.splitlines() if not x.startswith(" ")]
        assert quiet.stdout.splitlines() == kept and len(kept) < len(same.stdout.splitlines())  # the outcome only
    cases = [
        (("--game", "chess"), "unknown game 'chess': choose one of doudizhu, shengji, mahjong"),
        (("--game", "shengji", "-o", "speed=1"), "unknown rule option 'speed'"),
        (("--game", "shengji", "-o", "start_level=Z"), "start_level must be one of"),
        (("--game", "shengji", "--rules", "jj"), "unknown preset 'jj': expected one of four_deck"),
        (("-o", "a=b"), "-o/--option is for --game shengji or mahjong"),
        (("--game", "mahjong", "--bots", "search"), "unknown bot 'search' for mahjong"),
        (("--game", "mahjong", "--bots", "a,b"), "--bots needs 1 or 4 names, got 2"),
    ]
    for args, words in cases:
        out = run("selfplay", *args)
        assert out.returncode == 2 and out.stderr.startswith("error:") and words in out.stderr, (args, out.stderr)
    # another game's presets, as the arena and play take them (selfplay refused every one; `qipai rules` knew
    # only Dou Dizhu's)
    assert run("selfplay", "--game", "mahjong", "--rules", "daqing", "--quiet").returncode == 0
    listed = run("rules", "--game", "shengji")
    assert listed.returncode == 0 and listed.stdout.startswith("four_deck") and "start_level" in listed.stdout
    assert "stake" in listed.stdout and "(moves points)" in listed.stdout
    one = run("rules", "daqing", "--game", "mahjong")
    assert one.returncode == 0 and json.loads(one.stdout)["base"] == 1
    assert "unknown game 'chess'" in run("rules", "--game", "chess").stderr


def test_json_outputs_are_strict_json_written_into_what_was_named(tmp_path: Path) -> None:
    """An arena's --json is JSON any reader takes (NaN and Infinity were written for estimates of one sample);
    a pipe named as the output is written into, not replaced by a regular file (the result was written beside
    and renamed over the target, which turned /dev/null into a file when run as root); a write that fails is
    one line, not a traceback."""
    def strict(text: str) -> object:
        return json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in JSON output"))

    out = tmp_path / "a.json"
    assert run("arena", "heuristic", "random", "--deals", "1", "--no-progress", "--json", str(out)).returncode == 0
    assert strict(out.read_text())["deals"] == 1
    gen = tmp_path / "g.json"
    assert run("arena", "--game", "shengji", "rule", "random", "--deals", "1", "--no-progress",
               "--json", str(gen)).returncode == 0
    strict(gen.read_text())
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    res = run("arena", "heuristic", "random", "--deals", "1", "--no-progress", "--json", str(fifo))
    got = reader.communicate(timeout=60)[0]
    assert res.returncode == 0 and fifo.is_fifo() and strict(got)["games"] == 2
    if Path("/dev/full").exists():
        for args in (("arena", "heuristic", "random", "--deals", "1", "--no-progress", "--json", "/dev/full"),
                     ("selfplay", "--quiet", "--record", "/dev/full"),
                     ("tournament", "--no-progress", "--json", "/dev/full")):
            bad = run(*args)
            assert bad.returncode == 2 and "cannot write /dev/full: No space left on device" in bad.stderr, args
            assert "Traceback" not in bad.stderr


def test_arena_small_samples_do_not_claim_precision_and_bad_files_are_named(tmp_path: Path) -> None:
    """Two deals both won read "1.000 ± 0.000", so --target-ci stopped after two deals; a deals file that is a
    folder was a traceback, and one of random bytes said only "error: utf-8"."""
    res = run("arena", "heuristic", "random", "--research", "--deals", "12", "--target-ci", "0.1", "--min-deals",
              "2", "--no-progress")
    assert res.returncode == 0 and "12 deals" in res.stdout, res.stdout
    assert run("arena", "heuristic", "random", "--min-deals", "-3").returncode == 2
    junk = tmp_path / "junk.txt"
    junk.write_bytes(bytes(range(128, 256)))
    for path, said in ((tmp_path, "cannot read the deals file"), (junk, "is not text of deals")):
        bad = run("arena", "heuristic", "random", "--research", "--deals", "2", "--deals-file", str(path))
        assert bad.returncode == 2 and said in bad.stderr and "Traceback" not in bad.stderr, bad.stderr


def test_online_says_why_when_the_input_ends_before_the_log_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/protocol.md §9: each failure is one line on standard error and exit code 1 (an empty input was exit 1
    with nothing said)."""
    import getpass

    from typer.testing import CliRunner

    from qipai.cli import app

    url = "http://127.0.0.1:9"  # never reached: the input ends first
    runner = CliRunner()
    r = runner.invoke(app, ["online", url, "--name", "bob", "--password-stdin", "--lang", "en"], input="")
    assert (r.exit_code, r.stderr) == (1, "error: --password-stdin: no password on standard input\n")
    r = runner.invoke(app, ["online", url, "--lang", "zh"], input="")
    assert (r.exit_code, r.stderr) == (1, "error: 没有输入名字（输入已结束）\n")

    def no_terminal(prompt: str = "") -> str:
        raise EOFError

    monkeypatch.setattr(getpass, "getpass", no_terminal)
    r = runner.invoke(app, ["online", url, "--name", "bob", "--lang", "en"], input="")
    assert (r.exit_code, r.stderr.strip()) == (1, "error: no password given: the input ended")


def test_serve_option_help_is_not_cut_at_an_abbreviation() -> None:
    """``--seat-bot``'s help stopped at "e.g" (the first sentence was cut at every ". ")."""
    from qipai.server.__main__ import field_docs, first_sentence

    docs = field_docs()
    assert docs["seat_bot"].endswith("e.g. Dou Dizhu's ``heuristic``)"), docs["seat_bot"]
    assert "e.g. ``passive``; a private table may choose another)" in docs["autoplay_bot"]
    assert docs["unattended_actions"].endswith("is abandoned: its table closes and the deal is marked aborted, "
                                               "unsettled"), docs["unattended_actions"]
    assert first_sentence("One, i.e. the first. Two.") == "One, i.e. the first"
    assert first_sentence("A (see x. y) b. C.") == "A (see x. y) b"
    assert all(not d.endswith((" e.g", " i.e", "(e.g", "(i.e")) for d in docs.values())
