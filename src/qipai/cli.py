"""The ``qipai`` command: self-play, replays, terminal play, the arena and the server."""

from __future__ import annotations

import gzip
import json
import locale
import math
import os
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from .jsonfile import WriteError, read_json_bytes, write_json

DEFAULT_MATCHES = "quick_sit_and_go"
"""The match pool ``qipai serve`` keeps open unless ``--matches`` (or ``QIPAI_MATCHES``) says otherwise."""

app = typer.Typer(
    name="qipai",
    help="qipai (棋牌): Dou Dizhu, Shengji and Daqing mahjong — rules engines, bots, terminal play, matches and a "
         "multiplayer server.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["--help", "-h"]},  # every command's too: they inherit it
)


def default_lang() -> str:
    """``zh`` when the locale is Chinese, else ``en``."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        v = os.environ.get(var)
        if v:
            return "zh" if v.lower().startswith("zh") else "en"
    loc = locale.getlocale()[0] or ""
    return "zh" if loc.lower().startswith("zh") else "en"


def _fail(msg: str) -> NoReturn:
    typer.secho(f"error: {msg}", fg=typer.colors.RED, err=True)
    raise typer.Exit(2)


def _login_fail(msg: str) -> NoReturn:
    """``qipai online`` failing before it plays: one line on standard error and exit code 1 (docs/protocol.md
    §9), as a refused log-in does."""
    typer.secho(f"error: {msg}", fg=typer.colors.RED, err=True)
    raise typer.Exit(1)


def _read_json(file: Path, what: str = "a JSON game record") -> Any:
    """A JSON file's contents, or a one-line error saying what is wrong with the file."""
    try:
        return read_json_bytes(file.read_bytes())  # gzipped or not; a byte-order mark (Windows editors) is no error
    except FileNotFoundError:
        _fail(f"no such file: {file}")
    except IsADirectoryError:
        _fail(f"{file} is a folder, not {what}")
    except gzip.BadGzipFile:
        _fail(f"{file} is a broken gzip file, not {what}")
    except OSError as e:
        _fail(f"cannot read {file}: {e.strerror or e}")
    except UnicodeDecodeError:
        _fail(f"{file} is not text (UTF-8), not {what}")
    except json.JSONDecodeError as e:
        _fail(f"{file} is not JSON: {e}")
    except ValueError:  # a number of more than 4300 digits
        _fail(f"{file} holds a number too long to be {what}")
    except RecursionError:
        _fail(f"{file} is JSON nested too deeply to be {what}")


def _check_out(path: Path, what: str) -> None:
    """Fail at once (not at the end of a long run) when ``path`` cannot be written: its folder is missing or
    is not a folder, or the path is a folder."""
    parent = path.parent
    if path.is_dir():
        _fail(f"{what} {path} is a folder; give a file name")
    if not parent.is_dir():
        _fail(f"{what} {path}: no folder {parent}")
    if not os.access(parent, os.W_OK):
        _fail(f"{what} {path}: cannot write in {parent}")


def _write_out(path: Path, obj: Any, indent: int = 1) -> None:
    """Write a JSON output the user named; a failed write is a one-line error."""
    try:
        write_json(path, obj, indent=indent, ensure_ascii=False)
    except WriteError as e:
        _fail(str(e))


def _check_lang(lang: str | None) -> str:
    lang = lang or default_lang()
    if lang not in ("zh", "en"):
        _fail(f"--lang must be zh or en, got {lang!r}")
    return lang


def _check_seconds(text: str, option: str) -> float:
    """A number of seconds given on the command line (0 or more, finite); a one-line error otherwise.

    >>> _check_seconds("2.5", "--x")
    2.5
    """
    try:
        value = float(text.strip())
    except ValueError:
        _fail(f"{option} takes a number of seconds (0 or more), got {text!r}")
    if not math.isfinite(value) or value < 0:
        _fail(f"{option} takes a number of seconds (0 or more), got {text!r}")
    return value


@app.command()
def rules(
    preset: Annotated[str | None, typer.Argument(help="Show one preset's options in full.")] = None,
    game: Annotated[str, typer.Option(help="doudizhu, or another registered game: shengji, mahjong.")]
        = "doudizhu",
    explain: Annotated[str | None, typer.Option(
        "--explain", metavar="PRESET",
        help="How to play (玩法说明): the rules of this preset (with any -o KEY=VALUE) in words.")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="With --explain: a rule option KEY=VALUE a table sets, e.g. -o throws=off.")] = None,
    lang: Annotated[str | None, typer.Option(help="With --explain: zh or en (default: from the locale).")] = None,
) -> None:
    """List the rule presets (and, for another --game, every option -o KEY=VALUE takes), print one preset's
    options as JSON, or with --explain PRESET the rules in words (wrapped to the terminal)."""
    from .games.doudizhu.rules import PRESETS

    if explain is not None:
        _explain_rules(game, explain, option, _check_lang(lang))
        return
    if option:
        _fail("-o/--option goes with --explain PRESET (the rules of a table with those options in words)")
    if game != "doudizhu":
        _other_rules(game, preset)
        return
    if preset is None:
        for name, r in PRESETS.items():
            typer.echo(f"{name:18} {r.players} players, {r.bidding} bidding, bombs {r.bomb_factor}")
        return
    if preset not in PRESETS:
        _fail(f"unknown preset {preset!r}: choose one of {', '.join(PRESETS)}")
    typer.echo(json.dumps(PRESETS[preset].to_options(), ensure_ascii=False, indent=2))


def _explain_rules(game: str, preset: str, pairs: list[str] | None, lang: str) -> None:
    """``qipai rules --game G --explain PRESET [-o KEY=VALUE …]``: the game's rules in words (its own, through
    the registry), for the preset with those options, wrapped to the terminal."""
    from rich.console import Console

    from .core.options import OptionError, options_from_text, pairs_from_text
    from .core.registry import game_names, get_factory
    from .tui.explain import game_rules

    if game not in game_names():
        _fail(f"unknown game {game!r}: choose one of {', '.join(game_names())}")
    factory = get_factory(game)
    if preset not in factory.info.presets:
        # (another game's preset, typed without its --game: say which game it is)
        other = next((g for g in game_names() if preset in get_factory(g).info.presets), None)
        hint = f" ({preset} is {other}'s: add --game {other})" if other else ""
        _fail(f"unknown preset {preset!r} for {game}: choose one of {', '.join(factory.info.presets)}{hint}")
    try:
        raw = {**options_from_text(factory.info.options, pairs_from_text(pairs)), "preset": preset}
        shown = game_rules(game, raw, lang, preset=preset)
    except OptionError as e:
        _fail(str(e))
    console = Console(highlight=False, markup=False, emoji=False, soft_wrap=False)
    for item in shown:
        console.print(item)


def _other_rules(game: str, preset: str | None) -> None:
    """``qipai rules --game G``: the game's presets and declared options, or one preset's values as JSON."""
    from .core.options import OptionError
    from .core.registry import game_names, get_factory

    if game not in game_names():
        _fail(f"unknown game {game!r}: choose one of {', '.join(game_names())}")
    factory = get_factory(game)
    info = factory.info
    if preset is not None:
        try:
            values = factory.options({"preset": preset})
        except OptionError as e:
            _fail(str(e))
        typer.echo(json.dumps(values, ensure_ascii=False, indent=2))
        return
    for name in info.presets:
        default = " (default)" if name == info.presets[0] else ""
        typer.echo(f"{name:18} {factory.players({'preset': name})} players{default}")
    typer.echo(f"\noptions (qipai play/selfplay/arena --game {game} -o KEY=VALUE):")
    for o in info.options.describe():
        if "choices" in o:
            kind = "|".join(map(str, o["choices"]))
        elif "min" in o:
            kind = f"{o['type']} {o['min']}..{o['max']}"
        else:
            kind = o["type"]
        typer.echo(f"  {o['name']:18} {kind:28} default {json.dumps(o['default'], ensure_ascii=False)}"
                   f"{'  (moves points)' if o.get('points') else ''}")
        if o.get("doc"):
            typer.echo(f"  {'':18} {o['doc']}")


@app.command()
def selfplay(
    rules_name: Annotated[str | None, typer.Option(
        "--rules", help="Rule preset (see `qipai rules`, `qipai rules --game G`; default the game's first).")] = None,
    seed: Annotated[int, typer.Option(help="Deal seed: the same seed gives the same deal.")] = 0,
    bots: Annotated[str, typer.Option(
        help="Comma-separated bots, one per seat (or one for all); Dou Dizhu's may take options as in arena "
             "(search:time=0.5).")] = "random",
    lang: Annotated[str | None, typer.Option(help="zh or en (default: from the locale).")] = None,
    record: Annotated[Path | None, typer.Option(help="Write the JSON game record to this file.")] = None,
    quiet: Annotated[bool, typer.Option(help="Print only the outcome.")] = False,
    game: Annotated[str, typer.Option(
        help="doudizhu, or another registered game: shengji (one hand of 升级) or mahjong (one hand of 大庆麻将).")]
        = "doudizhu",
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Shengji or mahjong: a rule option KEY=VALUE, e.g. -o start_level=A.")] = None,
) -> None:
    """Play one deal with bots in every seat and print the deal and its outcome (--game: any registered game)."""
    from .games.doudizhu.rules import PRESETS
    from .games.doudizhu.state import Game
    from .games.doudizhu.text import describe_deal, describe_outcome

    lang = _check_lang(lang)
    if game != "doudizhu":
        _selfplay_other(game, rules_name, option, seed, bots, lang, record, quiet)
        return
    if option:
        _fail("-o/--option is for --game shengji or mahjong; Dou Dizhu's rules are a preset (--rules)")
    rules_name = rules_name or "classic"
    if rules_name not in PRESETS:
        _fail(f"unknown preset {rules_name!r}: choose one of {', '.join(PRESETS)}")
    r = PRESETS[rules_name]
    names = _seat_bots(bots, r.players)
    if record is not None:
        _check_out(record, "--record")
    from .games.doudizhu.bots.arena import BotSpec, make_bot

    try:  # a bot with options (search:time=0.5) as the arena reads it
        seats = [make_bot(name, seed * 31 + i) for i, name in enumerate(names)]
    except KeyError as e:
        _fail(str(e.args[0]))
    except ValueError as e:
        _fail(str(e))
    g = Game.new(r, seed)
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        g.apply(seats[seat].act(g.observe(seat), g.legal_actions()), seat)
    data = {**g.record(), **_bot_players([BotSpec.parse(n).name for n in names])}
    seat_names = _record_seat_names(data, lang, g.players)
    if not quiet:
        for line in describe_deal(g, lang, seat_names):
            typer.echo(line)
    for line in describe_outcome(g, lang, seat_names):
        typer.echo(line)
    if record:
        _write_out(record, data)
        typer.echo(f"record: {record}")


def _bot_players(kinds: list[str]) -> dict[str, Any]:
    """A self-played record's ``players`` and ``you`` (docs/records.md): a bot in every seat, named as the server
    names its bots (``bot:random:1`` for seat 0), nobody's own record."""
    return {"players": [{"name": f"bot:{k}:{i + 1}", "bot": k} for i, k in enumerate(kinds)], "you": None}


def _record_seat_names(data: dict[str, Any], lang: str, seats: int) -> list[str] | None:
    """The ``seats`` seats' names from a Dou Dizhu record's players (你 / You for its ``you``), or ``None`` when
    the record names no players (the replay then numbers them: ``seat 0``); a seat the players do not name (a
    list shorter than the table, a player without a name) is numbered the same way."""
    from .games.doudizhu.text import seat_label
    from .tui.records import record_names

    if not isinstance(data.get("players"), list):
        return None
    return record_names(data, lang, [seat_label(s, lang) for s in range(seats)])


def _bot_list(bots: str) -> list[str]:
    """``--bots`` as a list (:func:`~qipai.bots.split_bots`; an empty entry is a usage error)."""
    from .bots import split_bots

    try:
        return split_bots(bots)
    except ValueError as e:
        _fail(str(e))


def _seat_bots(bots: str, players: int) -> list[str]:
    """``--bots``: one name per seat, or one for all (a usage error otherwise)."""
    names = _bot_list(bots)
    if len(names) == 1:
        names *= players
    if len(names) != players:
        _fail(f"--bots needs 1 or {players} names, got {len(names)}")
    return names


def _selfplay_other(game: str, preset: str | None, option: list[str] | None, seed: int, bots: str, lang: str,
                    record: Path | None, quiet: bool = False) -> None:
    """``qipai selfplay --game GAME``: one hand of a registered game other than Dou Dizhu, bots in every seat,
    through the game interface; prints the hand's result as ``qipai replay`` does and writes its record."""
    from .bots import get_bot, play_out
    from .core.options import OptionError, options_from_text, pairs_from_text
    from .core.registry import game_names, get_factory
    from .tui.games import TERMINAL_GAMES, replay_lines

    if game not in game_names():
        _fail(f"unknown game {game!r}: choose one of {', '.join(game_names())}")
    if game not in TERMINAL_GAMES:
        _fail(f"no text description of {game!r} hands: choose doudizhu or {', '.join(sorted(TERMINAL_GAMES))}")
    factory = get_factory(game)
    try:
        raw = options_from_text(factory.info.options, pairs_from_text(option))
        if preset is not None:
            raw["preset"] = preset
        options = factory.options(raw)
    except (OptionError, ValueError) as e:
        _fail(str(e))
    players = factory.players(options)
    names = _seat_bots(bots, players)
    if record is not None:
        _check_out(record, "--record")
    try:
        seats = [get_bot(name, seed * 31 + i, game=game) for i, name in enumerate(names)]
    except KeyError as e:
        _fail(str(e.args[0]))
    g = factory.new(options, seed, factory.deal_context(options, factory.match_start(options)))
    try:
        play_out(g, seats, 4 * factory.info.max_actions, f"the {game} hand")
    except RuntimeError as e:
        _fail(str(e))
    data = {**g.record(), **_bot_players(names)}
    for line in replay_lines(data, lang):
        if not (quiet and line.startswith(" ")):  # --quiet: the outcome's own lines, not each trick or payment
            typer.echo(line)
    if record:
        _write_out(record, data)
        typer.echo(f"record: {record}")


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A JSON game record.")],
    lang: Annotated[str | None, typer.Option(help="zh or en (default: from the locale).")] = None,
    review: Annotated[int | None, typer.Option(
        help="Dou Dizhu: review this seat's decisions — the strong bot's choice and its estimated win probability "
             "before and after each, big swings marked (from what the seat could see only).")] = None,
    samples: Annotated[int | None, typer.Option(
        help="With --review: sampled deals per decision.", show_default="120")] = None,
) -> None:
    """Replay a game record step by step (refuses a record with an illegal action, naming it)."""
    from .games.doudizhu.record import RecordError
    from .games.doudizhu.record import replay as do_replay
    from .games.doudizhu.text import describe_deal, describe_outcome

    lang = _check_lang(lang)
    if samples is not None and review is None:
        _fail("--samples is the review's: give --review SEAT too")
    samples = 120 if samples is None else samples
    if samples < 1:
        _fail(f"--samples must be at least 1, got {samples}")
    data: Any = _read_json(file)
    if not isinstance(data, dict):
        _fail(f"{file} is not a game record: a record is a JSON object, not {type(data).__name__}")
    if data.get("game", "doudizhu") != "doudizhu":
        from .tui.games import replay_lines

        if review is not None:
            _fail(f"--review is for Dou Dizhu records; {file} is a {data.get('game')!r} record (replay it without)")

        try:
            lines = replay_lines(data, lang)
        except (ValueError, KeyError) as e:
            _fail(str(e.args[0]) if e.args else str(e))
        for text in lines:
            typer.echo(text)
        return
    try:
        g = do_replay(data)
    except RecordError as e:
        _fail(str(e))
    if review is not None:
        from .games.doudizhu.bots.review import review_deal, review_lines

        if not 0 <= review < g.players:
            _fail(f"--review takes a seat 0..{g.players - 1}")
        if not g.is_over:
            _fail("--review needs a finished deal")
        for line in review_lines(review_deal(data, review, samples=samples), lang):
            typer.echo(line)
        return
    seat_names = _record_seat_names(data, lang, g.players)
    for line in describe_deal(g, lang, seat_names):
        typer.echo(line)
    for line in describe_outcome(g, lang, seat_names):
        typer.echo(line)
    if not g.is_over:  # a record cut short (a deal left unfinished): say so rather than stop mid-trick
        typer.echo("（记录到此为止，这一局没有打完）" if lang == "zh" else
                   f"(the record ends here, after {len(data.get('actions') or [])} actions: the deal is not over)")


# --- play command (terminal game) ---


@app.command()
def play(
    rules_name: Annotated[str | None, typer.Option("--rules", help="Rule preset (see `qipai rules`).")] = None,
    seed: Annotated[int | None, typer.Option(help="Table seed for a reproducible table (default: random).")] = None,
    bots: Annotated[str | None, typer.Option(
        help="Bot names, one per bot seat or one for all (default: heuristic, else random); Dou Dizhu's may "
             "take options as in arena (search:time=0.5).")] = None,
    lang: Annotated[str | None, typer.Option(help="zh or en (default: from the locale).")] = None,
    deals: Annotated[int, typer.Option(
        help="Stop after this many deals (0: play on until you quit); Enter starts each next deal.")] = 0,
    timer: Annotated[bool, typer.Option(help="Use the rules' time limits for your decisions.")] = False,
    timer_seconds: Annotated[int | None, typer.Option(
        help="Seconds per decision instead of the rules' limits (turns the timer on).")] = None,
    auto_delay: Annotated[float, typer.Option(
        help="In auto-play, seconds to wait at your turn for you to type a command.")] = 1.0,
    points: Annotated[int, typer.Option(help="Starting table points where the rules cap payments.")] = 1000,
    records: Annotated[Path, typer.Option(help="Folder for the JSON record of each deal.")] = Path("qipai-records"),
    no_records: Annotated[bool, typer.Option("--no-records", help="Write no records.")] = False,
    clear: Annotated[bool | None, typer.Option(
        "--clear/--no-clear", help="Clear the screen before each decision (default: on a real terminal).")] = None,
    game: Annotated[str, typer.Option(
        help="doudizhu, shengji (four-deck 升级, one match) or mahjong (大庆麻将).")] = "doudizhu",
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o",
        help="Shengji or mahjong: a rule option KEY=VALUE, e.g. -o deal_step_ms=50 -o start_level=A.")] = None,
) -> None:
    """Play Dou Dizhu (or --game shengji / mahjong) in the terminal against bots (type help at the table)."""
    from .tui import SetupError, TableOptions, run_table

    lang = _check_lang(lang)
    if deals < 0:
        _fail(f"--deals must be 0 (play on until you quit) or more, got {deals}")
    if timer_seconds is not None and timer_seconds < 1:
        _fail(f"--timer-seconds must be at least 1, got {timer_seconds}")
    if not 0.0 <= auto_delay <= 3600.0:  # NaN fails too
        _fail(f"--auto-delay must be between 0 and 3600 seconds, got {auto_delay}")
    if not no_records and records.exists() and not records.is_dir():
        _fail(f"--records {records} is a file; it names a folder for the deals' records")
    if not no_records and not records.exists() and not records.parent.is_dir():
        _fail(f"--records {records}: no folder {records.parent} to make it in")
    if not no_records:
        from .tui.records import RecordError, check_folder

        try:
            check_folder(records)
        except RecordError as e:
            _fail(f"--records: cannot write records into {e}")
    if game != "doudizhu":
        from .tui.games import play as play_game

        try:
            code = play_game(game, seed=seed, bots=bots, lang=lang, deals=deals, timer=timer,
                             timer_seconds=timer_seconds, auto_delay=auto_delay, clear=clear, preset=rules_name,
                             records=None if no_records else records, options=option)
        except SetupError as e:
            _fail(str(e))
        raise typer.Exit(code)
    if option:
        _fail("--option is for --game shengji or mahjong; Dou Dizhu tables take --rules PRESET")
    opts = TableOptions(
        preset=rules_name or "classic", seed=seed, lang=lang, deals=deals, timer=timer, timer_seconds=timer_seconds,
        auto_delay=auto_delay, points=points, records=None if no_records else records, clear=clear,
        bots=_bot_list(bots) if bots is not None else None,
    )
    try:
        code = run_table(opts)
    except SetupError as e:
        _fail(str(e))
    raise typer.Exit(code)


@app.command()
def online(
    url: Annotated[str, typer.Argument(help="The server, e.g. http://localhost:8000 (or host:port).")],
    name: Annotated[str | None, typer.Option(help="Your account name (asked for when missing).")] = None,
    password_stdin: Annotated[bool, typer.Option(
        "--password-stdin", help="Read the password from the first line of standard input (never from the "
        "command line).")] = False,
    guest: Annotated[bool, typer.Option("--guest", help="Play as a guest (游客): no account needed.")] = False,
    register: Annotated[bool, typer.Option("--register", help="Make the account NAME first.")] = False,
    lang: Annotated[str | None, typer.Option(help="zh or en (default: from the locale).")] = None,
    reconnect_for: Annotated[str, typer.Option(
        "--reconnect-for", metavar="SECONDS", help="How long to go on trying to open a dropped connection again "
        "(0: never try).")] = "30",
) -> None:
    """Play on a qipai server from the terminal: quick match, or a private table with friends (type help)."""
    import asyncio
    import getpass
    import sys

    from .tui.online import LoginError, OnlineOptions, run_online

    lang = _check_lang(lang)
    retry_for = _check_seconds(reconnect_for, "--reconnect-for")
    if guest and (register or name or password_stdin):
        _fail("--guest plays without an account: leave out --name, --register and --password-stdin")
    from .tui.reader import LineReader

    password = None
    stdin = None
    if not guest:
        stdin = LineReader(sys.stdin)  # the same reader reads the game's lines after these
        if name is None:
            if password_stdin:
                _fail("--password-stdin needs --name")
            typer.echo("名字: " if lang == "zh" else "Name: ", nl=False)
            try:
                name = (stdin.readline() or "").strip()
            except EOFError:
                typer.echo()  # (off the prompt)
                _login_fail("没有输入名字（输入已结束）" if lang == "zh" else "no name given: the input ended")
            except KeyboardInterrupt:
                raise typer.Exit(1) from None
        try:
            if password_stdin:
                password = stdin.readline() or ""
            else:
                password = getpass.getpass("密码: " if lang == "zh" else "Password: ")
        except EOFError:
            if password_stdin:
                _login_fail("--password-stdin：标准输入里没有密码" if lang == "zh"
                            else "--password-stdin: no password on standard input")
            typer.echo(err=True)  # (off getpass's prompt, on the terminal or standard error)
            _login_fail("没有输入密码（输入已结束）" if lang == "zh" else "no password given: the input ended")
        except KeyboardInterrupt:
            raise typer.Exit(1) from None
    opts = OnlineOptions(url=url, name=name, password=password, guest=guest, register=register, lang=lang,
                         stdin=stdin, reconnect_for=retry_for)
    try:
        code = asyncio.run(run_online(opts))
    except LoginError as e:
        typer.secho(f"error: {e}", fg=typer.colors.RED, err=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        typer.echo("\n再见。" if lang == "zh" else "\nBye.")  # (off the ^C the terminal printed)
        raise typer.Exit(130) from None
    raise typer.Exit(code)


# --- arena command (bots) ---


@app.command()
def arena(
    bot_a: Annotated[str, typer.Argument(help="Bot A: a name (see docs/bots.md) or NAME:key=value, e.g. "
                                              "search:time=0.5, douzero:weights=DIR.")],
    bot_b: Annotated[str, typer.Argument(help="Bot B, as bot A.")],
    rules_name: Annotated[str | None, typer.Option("--rules", help="Rule preset (see `qipai rules`).")] = None,
    deals: Annotated[int, typer.Option(help="Deals to play; each is played twice, roles swapped.")] = 1000,
    jobs: Annotated[int, typer.Option(help="Worker processes (cores) to use.")] = 1,
    seed: Annotated[int, typer.Option(help="Arena seed: deals and bot seeds derive from it.")] = 0,
    research: Annotated[bool, typer.Option(
        "--research", help="DouZero/PerfectDou protocol: no bidding, seat 0 landlord, fixed deals file.")] = False,
    json_out: Annotated[Path | None, typer.Option(
        "--json", help="Write the full result as JSON here (and a partial one every minute while it runs).")] = None,
    target_ci: Annotated[float | None, typer.Option(
        help="Stop once both bots' WP over both roles is known to within ± this (95%), e.g. 0.02; "
             "--deals is then the most it plays.")] = None,
    min_deals: Annotated[int, typer.Option(help="With --target-ci: play at least this many deals.")] = 30,
    resume: Annotated[Path | None, typer.Option(
        help="Carry on an earlier run from its --json file (same bots, rules, protocol and seed).")] = None,
    deals_file: Annotated[Path | None, typer.Option(
        help="With --research: play the deals of this file (one 'LANDLORD17 DOWN17 UP17 KITTY3' per line, "
             "optionally gzipped) instead of the fixed ones, e.g. held-out deals.")] = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar on stderr.")] = True,
    engine: Annotated[str, typer.Option(
        help="local (worker processes) or ray (a Ray cluster: RAY_ADDRESS, else a local one; pip install ray).")]
    = "local",
    game: Annotated[str, typer.Option(help="Any registered game (e.g. shengji): the generic arena, teams swapped.")]
    = "doudizhu",
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Another game's rule option KEY=VALUE, e.g. -o start_level=A.")] = None,
    context: Annotated[list[str] | None, typer.Option(
        help="Another game's deal context KEY=VALUE; rotate = the seat deal mod players, e.g. banker=rotate.")]
    = None,
) -> None:
    """Play duplicate deals between two bots; print WP and ADP per role with 95% confidence intervals."""
    if jobs < 1:
        _fail(f"--jobs must be at least 1, got {jobs}")
    if deals < 1:
        _fail(f"--deals must be at least 1, got {deals}")
    if min_deals < 1:
        _fail(f"--min-deals must be at least 1, got {min_deals}")
    if json_out is not None:
        _check_out(json_out, "--json")
    if game != "doudizhu":
        if research or target_ci is not None or resume is not None or engine != "local" or deals_file:
            _fail("--research, --target-ci, --resume, --engine and --deals-file are for Dou Dizhu's arena")
        from .arena import run_from_cli

        try:
            lines = run_from_cli(game, bot_a, bot_b, options=option, context=context, preset=rules_name,
                                 deals=deals, seed=seed, jobs=jobs, json_path=json_out, progress=progress)
        except (ValueError, KeyError) as e:
            _fail(str(e.args[0]) if e.args else str(e))
        for line in lines:
            typer.echo(line)
        if json_out:
            typer.echo(f"result: {json_out}")
        return
    if option or context:
        _fail("--option and --context are for another --game; Dou Dizhu's arena takes --rules PRESET")
    if engine not in ("local", "ray"):
        _fail(f"--engine is local or ray, not {engine!r}")
    from .games.doudizhu.bots.arena import report_lines, run_arena

    try:
        result = run_arena(bot_a, bot_b, rules=rules_name or "classic", deals=deals, jobs=jobs, seed=seed,
                           protocol="research" if research else "duplicate", json_path=json_out,
                           progress=progress, target_ci=target_ci, min_deals=min_deals, resume=resume,
                           engine=engine, deals_file=deals_file)
    except (ValueError, KeyError, ImportError, FileNotFoundError) as e:
        _fail(str(e.args[0]) if e.args else str(e))
    for line in report_lines(result):
        typer.echo(line)
    if json_out:
        typer.echo(f"result: {json_out}")


# --- tournament command (matches) ---


@app.command()
def tournament(
    preset: Annotated[str, typer.Option(help="Match preset (RULES-matches §8): sit_and_go_9, hourly, swiss_27, "
                                              "shengji_teams_swiss, mahjong_swiss_16.")] = "sit_and_go_9",
    entrants: Annotated[int | None, typer.Option(
        help="Entrants (teams in Shengji); default: the preset's field (when full) or 3 × its minimum.")] = None,
    seed: Annotated[int, typer.Option(help="Match seed: seating, deals and bots derive from it.")] = 0,
    bots: Annotated[str, typer.Option(
        help="Comma-separated bot names given to the entrants in turn (e.g. heuristic,random).")] = "random",
    override: Annotated[str | None, typer.Option(
        "--set", help='Definition overrides as JSON, e.g. \'{"stages": [{"rounds": [{"deals": 1, "advance": 3}, '
                      '{"deals": 1}]}]}\'.')] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the final standings as JSON here.")] = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar on stderr.")] = True,
) -> None:
    """Run a whole bot-only match of a preset on any game and print the final standings (and prizes).

    Every entrant is a player driven by a bot of --bots (they take prizes, unlike the match's own fill-in bots),
    so this compares bots over many tables as well as it tests a format."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table as RichTable

    from .host.matchplay import BotTables, match_game
    from .tournaments import (
        PRESETS,
        DealCounted,
        EntrantSpec,
        RoundStarted,
        StageStarted,
        TournamentError,
        parse_definition,
        simulate,
        standings,
    )

    if preset not in PRESETS:
        _fail(f"unknown match preset {preset!r}: choose one of {', '.join(PRESETS)}")
    if json_out is not None:
        _check_out(json_out, "--json")
    data: dict[str, Any] = {"preset": preset}
    if override:
        try:
            extra = json.loads(override)
        except json.JSONDecodeError as e:
            _fail(f"--set is not JSON: {e}")
        except ValueError:  # a number of more than 4300 digits
            _fail("--set holds a number too long to read")
        except RecursionError:
            _fail("--set is JSON nested too deeply to be a definition")
        if not isinstance(extra, dict):
            _fail("--set must be a JSON object")
        data.update(extra)
    try:
        d = parse_definition(data)
        mg = match_game(d)
    except (TournamentError, ValueError) as e:
        _fail(str(e))
    names = _bot_list(bots)
    from .bots import game_bots

    known = game_bots(mg.game)
    for b in names:
        if b not in known:
            _fail(f"unknown bot {b!r} for {mg.game}: known bots are {', '.join(sorted(known))}")
    ent = d.entry
    n = entrants if entrants is not None else (
        ent.max_entrants if ent.start == "when_full" and ent.max_entrants else 3 * (ent.min_entrants or 2 * d.s))
    if n < 1:
        _fail("--entrants must be at least 1")
    if ent.max_entrants is not None and n > ent.max_entrants:
        _fail(f"this match takes at most {ent.max_entrants} entrants")
    if ent.start == "when_full" and n != ent.max_entrants:  # it would wait for ever ("cannot progress")
        _fail(f"this match starts when full: it needs exactly {ent.max_entrants} entrants, got {n}")
    if n < ent.min_entrants:  # it would be cancelled, and print places for nobody's play
        _fail(f"this match needs at least {ent.min_entrants} entrants (entry.min_entrants), got {n}")
    specs = []
    bot_of: dict[str, str] = {}
    for i in range(1, n + 1):
        eid = f"{'t' if d.teams else 'p'}{i}"
        bot_of[eid] = names[(i - 1) % len(names)]
        specs.append(EntrantSpec(eid, (eid + "a", eid + "b") if d.teams else (eid,)))
    console = Console(stderr=True)
    bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed} deals"),
                   TimeElapsedColumn(), console=console, disable=not progress, transient=True)
    task = bar.add_task("registration", total=None)

    def observe(_state: Any, _cmd: str, events: list[Any]) -> None:
        for ev in events:
            if isinstance(ev, DealCounted):
                bar.advance(task)
            elif isinstance(ev, StageStarted):
                bar.update(task, description=f"stage {ev.stage + 1} ({ev.format})")
            elif isinstance(ev, RoundStarted):
                bar.update(task, description=f"stage {ev.stage + 1} round {ev.round + 1}")

    try:
        with bar:
            res = simulate(d, specs, BotTables(d, bot_of), seed, observer=observe)
    except TournamentError as e:
        _fail(str(e))
    prize_of: dict[str, int] = {}
    for p, a in res.prizes.items():
        eid = p[:-1] if d.teams else p
        prize_of[eid] = prize_of.get(eid, 0) + a
    rows = standings(res.state)
    out = Console()
    t = RichTable(title=f"{d.name or preset}: {res.state.phase}, {res.deals} deals at {res.tables} tables")
    for col in ("place", "entrant", "bot", "points", "prize"):
        t.add_column(col, justify="right" if col in ("place", "points", "prize") else "left")
    for r in rows:
        t.add_row(str(r.place), r.entrant, "(bot)" if r.bot else bot_of.get(r.entrant, ""), str(r.points),
                  str(prize_of.get(r.entrant, 0)))
    out.print(t)
    if json_out:
        _write_out(json_out, {
            "preset": preset, "seed": seed, "phase": res.state.phase, "deals": res.deals, "tables": res.tables,
            "standings": [{"place": r.place, "entrant": r.entrant, "bot": r.bot, "program": bot_of.get(r.entrant),
                           "points": r.points, "prize": prize_of.get(r.entrant, 0)} for r in rows],
        }, indent=2)


# --- serve command (server) ---


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True,
                               "help_option_names": ["--help", "-h"]})
def serve(
    ctx: typer.Context,
    host: Annotated[str | None, typer.Option(help="Address to listen on (default 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default 8000).")] = None,
    data_dir: Annotated[Path | None, typer.Option(help="Folder for the SQLite database (default ./qipai-data).")] \
        = None,
    database_url: Annotated[str | None, typer.Option(
        help="SQLAlchemy URL, e.g. postgresql+asyncpg://user:pw@host:5432/db (default: SQLite in --data-dir).")] = None,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the lobby in a browser once listening.")] = False,
    server_help: Annotated[bool, typer.Option("--all-options", help="List every server option and exit.")] = False,
) -> None:
    """Run the multiplayer server (lobby, tables, bots, browser client) on SQLite or PostgreSQL.

    Every option listed by --all-options (e.g. --bot-fill-wait 5, --seat-bot heuristic) may be given too, and
    each is also read from a QIPAI_<NAME> environment variable (docs/protocol.md, "Running the server"; several
    nodes: docs/deploy.md).
    """
    from .host.settings import Settings
    from .server.__main__ import build_parser, overrides_from
    from .server.run import Server, check_database, check_services, check_settings, make_config

    if server_help:
        typer.echo(build_parser("qipai serve").format_help())
        return
    try:
        overrides = overrides_from(list(ctx.args), prog="qipai serve")
    except SystemExit as e:  # argparse already printed what was wrong
        raise typer.Exit(2) from e
    given = {"host": host, "port": port, "data_dir": data_dir, "database_url": database_url}
    overrides.update({k: v for k, v in given.items() if v is not None})
    if "matches" not in overrides and "QIPAI_MATCHES" not in os.environ:
        # the match lobby is not empty on a fresh server: a free-running sit-and-go that bots fill after a minute
        overrides["matches"] = DEFAULT_MATCHES
    try:
        settings = Settings.from_env(**overrides)
        check_settings(settings)
    except (ValueError, TypeError) as e:
        _fail(str(e))
    try:
        check_database(settings)  # PostgreSQL: a server that cannot be reached is one line, not uvicorn's traceback
        check_services(settings)  # the address, Redis, the node id, a database another server holds
    except ValueError as e:
        typer.secho(f"error: {e}", fg=typer.colors.RED, err=True)
        raise typer.Exit(1) from None
    host = "127.0.0.1" if settings.host in ("0.0.0.0", "::") else settings.host
    from sqlalchemy.engine import make_url

    database = make_url(settings.db_url()).render_as_string(hide_password=True)

    def started(port: int) -> None:
        """Said once the server listens: the address works from this line on, and Ctrl-C shuts it down (with
        --port 0, the port the system chose)."""
        url = f"http://{host}:{port}/"
        typer.echo(f"qipai: serving on {url} (database: {database})")
        if open_browser:
            import threading
            import webbrowser

            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

    server = Server(make_config(settings), on_started=started)
    server.run()


def _copy_url(value: str, flag: str) -> str:
    """``--from``/``--to``: a database URL as ``serve --database-url`` takes, or the path of a SQLite file."""
    from .server.run import check_database_url
    from .store.db import sqlite_url

    if "://" not in value:
        return sqlite_url(Path(value))
    try:
        check_database_url(value, flag, "sqlite+aiosqlite:///PATH, a SQLite file's path, or "
                                        "postgresql+asyncpg://USER:PASSWORD@HOST:5432/DB")
    except ValueError as e:
        _fail(str(e))
    return value


@app.command("copy-database")
def copy_database(
    source: Annotated[str, typer.Option(
        "--from", help="The database to copy: a URL as serve's --database-url, or a SQLite file "
                       "(e.g. qipai-data/qipai.db).", show_default=False)],
    target: Annotated[str, typer.Option(
        "--to", help="The database to copy into, empty (or with just the schema): a URL, or a SQLite file "
                     "(made if missing).", show_default=False)],
    from_schema: Annotated[str | None, typer.Option(help="PostgreSQL: the source's schema (serve's "
                                                         "--database-schema).")] = None,
    to_schema: Annotated[str | None, typer.Option(help="PostgreSQL: the target's schema (it must exist).")] = None,
) -> None:
    """Copy a whole qipai database (accounts, points, history, matches, open tables) into an empty one: SQLite
    to PostgreSQL, PostgreSQL to SQLite, or SQLite to another file (a backup).

    Stop the server first: a database a running server holds is refused.
    The copy is one transaction on the target: interrupted or failed, it leaves the target as it was.
    See docs/deploy.md, "Backups, restoring, moving to PostgreSQL"."""
    import asyncio

    from .host.settings import Settings
    from .server.run import check_database
    from .store.copy import CopyFailed, CopyRefused, Side
    from .store.copy import copy_database as run_copy

    src = Side.of(_copy_url(source, "--from"), from_schema, "source")
    dst = Side.of(_copy_url(target, "--to"), to_schema, "target")
    try:
        for flag, side in (("--from", src), ("--to", dst)):
            try:  # unreachable, refused, no database file, made by a newer qipai: one line each
                check_database(Settings(database_url=side.url.render_as_string(hide_password=False),
                                        database_schema=None if side.sqlite else side.schema))
            except ValueError as e:
                raise CopyRefused(f"{flag}: {e}") from None
        width = max(len(t.name) for t in _store_tables())

        def show(table: str, rows: int) -> None:
            typer.echo(f"  {table:{width}} {rows:>10,} {'row' if rows == 1 else 'rows'}")

        def starting() -> None:
            typer.echo(f"copying {src.shown} into {dst.shown}")

        done = asyncio.run(run_copy(src, dst, progress=show, starting=starting))
    except CopyRefused as e:
        typer.secho(f"error: {e}", fg=typer.colors.RED, err=True)
        raise typer.Exit(1) from None
    except CopyFailed as e:
        typer.secho(f"error: {e}", fg=typer.colors.RED, err=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        typer.secho("error: interrupted: nothing was written to the target (the copy is one transaction)",
                    fg=typer.colors.RED, err=True)
        raise typer.Exit(130) from None
    from .store.db import newest_revision

    total = sum(n for _, n in done)
    typer.echo(f"copied {total:,} rows in {len(done)} tables (schema revision {newest_revision()}); each table's "
               "row count matches the source's")


# --- users: the operator's account commands ---

users_app = typer.Typer(
    help="The operator's account commands: list accounts, set a forgotten password, block and unblock a player, "
         "purge expired sessions and unused guests. "
         "They work while a server runs on the same database (see docs/deploy.md, \"Accounts: forgotten "
         "passwords, blocking\").",
    no_args_is_help=True,
)
app.add_typer(users_app, name="users")

DatabaseUrl = Annotated[str | None, typer.Option(
    help="The server's database: a URL as serve's --database-url (default: QIPAI_DATABASE_URL, else SQLite in "
         "--data-dir).", show_default=False)]
DatabaseSchema = Annotated[str | None, typer.Option(help="PostgreSQL: serve's --database-schema.",
                                                    show_default=False)]
DataDir = Annotated[Path | None, typer.Option(help="serve's --data-dir, where its SQLite database is "
                                                   "(default ./qipai-data).", show_default=False)]
UserName = Annotated[str, typer.Argument(help="The account's name (any case), or #ID (its id, as `qipai users list` "
                                              "shows it).", show_default=False)]

USERS_BUSY_MS = 15000
"""SQLite: how long a command's write waits for a running server's write to end (the server's own writes are
short; a write of these commands holds the database for a few milliseconds)."""


class _Refused(Exception):
    """A users command refuses (one line, exit 1)."""


def _sqlite_has_qipai_tables(path: Path) -> bool:
    """Whether the SQLite file ``path`` holds qipai's tables (its migrations' ``alembic_version``), asked without
    writing into it: an empty file holds none; else it is opened read-only.  ``True`` when a read-only look cannot
    tell (the store's own check then says)."""
    import sqlite3
    from urllib.parse import quote

    try:
        if path.stat().st_size == 0:
            return False
        con = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
    except (OSError, sqlite3.Error):
        return True
    try:
        return con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
                           ).fetchone() is not None
    except sqlite3.Error:
        return True
    finally:
        con.close()


class _UsersDb:
    """The database a users command works on, as ``qipai serve`` finds it (flags, then ``QIPAI_*``)."""

    def __init__(self, database_url: str | None, database_schema: str | None, data_dir: Path | None) -> None:
        from sqlalchemy.engine import make_url

        from .host.settings import Settings
        from .server.run import check_database, check_settings

        try:
            settings = Settings.from_env(database_url=database_url, database_schema=database_schema,
                                         data_dir=data_dir)
            check_settings(settings)
        except (ValueError, TypeError) as e:
            _fail(str(e))
        self.settings = settings
        self.url = settings.db_url()
        sql = make_url(self.url)
        self.shown = sql.render_as_string(hide_password=True)  # never the password
        self.sqlite = sql.get_backend_name() == "sqlite"
        self.schema = None if self.sqlite else settings.database_schema
        if self.sqlite and (not sql.database or sql.database == ":memory:" or not Path(sql.database).is_file()):
            where = "--database-url" if settings.database_url else "--data-dir"
            raise _Refused(f"no database at {self.shown}: give the server's {where} (a database is made by "
                           "`qipai serve` when it first starts)")
        try:
            check_database(settings)  # unreachable, refused, no database, made by a newer qipai: one line each
        except ValueError as e:
            raise _Refused(str(e)) from None
        if self.sqlite and not _sqlite_has_qipai_tables(Path(str(sql.database))):
            # asked read-only before the store opens it: opening sets WAL journaling, a write into the file (an
            # empty file grew to 4096 bytes) that a refused command must not make
            raise _Refused(self.no_tables())

    def no_tables(self) -> str:
        """The refusal of a database without qipai's tables."""
        where = f" (schema {self.schema!r})" if self.schema else ""
        return f"the database at {self.shown}{where} holds no qipai tables: give the server's database (and " \
               "--database-schema)"

    def run(self, work: Any) -> Any:
        """Run ``await work(store)`` on the database; a database error is one line (:class:`_Refused`)."""
        import asyncio

        from sqlalchemy.exc import SQLAlchemyError

        from .server.run import _first_line
        from .store import Store
        from .store.db import newest_revision
        from .store.gate import GateTimeout

        async def go() -> Any:
            # no migration: the server's code upgrades its database; a command must not change the schema under it
            store = await Store.open(self.url, schema=self.schema, migrate=False, busy_ms=USERS_BUSY_MS)
            try:
                revision = await store.schema_revision()
                if revision is None:
                    raise _Refused(self.no_tables())
                if revision != newest_revision():
                    raise _Refused(f"the database at {self.shown} is at schema revision {revision!r}, this qipai's "
                                   f"is {newest_revision()!r}: start this qipai's `qipai serve` on it once (it "
                                   "upgrades the database), then run this again")
                return await work(store)
            finally:
                await store.close()

        try:
            return asyncio.run(go())
        except _Refused:
            raise
        except (SQLAlchemyError, GateTimeout, OSError) as e:
            orig = getattr(e, "orig", None) or e
            raise _Refused(f"the database at {self.shown}: {_first_line(orig)}") from None
        except Exception as e:  # a driver's own error class, not wrapped by SQLAlchemy: one line all the same
            raise _Refused(f"the database at {self.shown}: {type(e).__name__}: {_first_line(e)}") from None


def _users_command(fn: Any) -> Any:
    """A users command's refusals (:class:`_Refused`, Ctrl-C) are one line, never a traceback."""
    import functools

    @functools.wraps(fn)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except _Refused as e:
            typer.secho(f"error: {e}", fg=typer.colors.RED, err=True)
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            typer.secho("error: interrupted: nothing was changed", fg=typer.colors.RED, err=True)
            raise typer.Exit(130) from None

    return wrapped


def _check_every(db: _UsersDb) -> str:
    """How often a server checks its sessions, as far as this command can tell (its flag is the server's)."""
    return f"every {db.settings.session_check_every:g} s unless its --session-check-every says otherwise"


def _who(u: Any) -> str:
    return f"{u.name} (#{u.id})"


async def _find_user(store: Any, name: str) -> Any:
    u = await store.find_user(name.strip())
    if u is None:
        raise _Refused(f"no account called {name.strip()[:64]!r}: see `qipai users list --name PART`")
    return u


def _width(text: str) -> int:
    """Columns ``text`` takes in a terminal (Chinese characters take two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _when(iso: str | None) -> str:
    return "-" if iso is None else iso[:16].replace("T", " ")


@users_app.command("list")
@_users_command
def users_list(
    name: Annotated[str | None, typer.Option(
        "--name", help="Only names holding this (any case); * and ? are wildcards (--name 'a*': names starting with "
                       "a).", show_default=False)] = None,
    limit: Annotated[int, typer.Option(min=1, max=100000, help="Show at most this many (by id).")] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line instead of a table.")] = False,
    database_url: DatabaseUrl = None,
    database_schema: DatabaseSchema = None,
    data_dir: DataDir = None,
) -> None:
    """List accounts (id, name, kind, blocked, points).

    Each account's id, name, kind (registered, guest or bot), when it was made, when it last logged in (its newest
    session's start, kept when sessions end), whether it is blocked (since when, why), and its points in every
    game it has played."""
    db = _UsersDb(database_url, database_schema, data_dir)
    rows, total = db.run(lambda store: store.list_users(name, limit))
    if as_json:
        from dataclasses import asdict

        for r in rows:
            typer.echo(json.dumps(asdict(r), ensure_ascii=False))
        return
    if not rows:
        typer.echo("no accounts" + (f" match {name!r}" if name else ""))
        return
    head = ["ID", "NAME", "KIND", "CREATED (UTC)", "LAST LOG-IN", "BLOCKED", "POINTS"]
    table = [head] + [[
        str(r.id), r.name, r.kind, _when(r.created_at), _when(r.last_login),
        "no" if r.blocked_at is None else f"since {_when(r.blocked_at)}" + (f": {r.blocked_reason}"
                                                                          if r.blocked_reason else ""),
        " ".join(f"{g}:{p}" for g, p in r.points.items()) or "-",
    ] for r in rows]
    widths = [max(_width(row[i]) for row in table) for i in range(len(head) - 1)]
    for row in table:
        cells = [c + " " * (w - _width(c)) for c, w in zip(row, widths, strict=False)]
        typer.echo("  ".join([*cells, row[-1]]).rstrip())
    if total > len(rows):
        typer.echo(f"({len(rows)} of {total} accounts: --limit or --name shows others)")


def _read_new_password(password_stdin: bool) -> str:
    """The new password: from a prompt, twice and not echoed, or one line of standard input; checked by the
    rules of registration."""
    import sys

    from .server import auth

    if password_stdin:
        try:
            data = sys.stdin.read()
        except UnicodeDecodeError:
            raise _Refused("--password-stdin: the input is not UTF-8 text") from None
        password = data.removesuffix("\n").removesuffix("\r")
        if "\n" in password:
            raise _Refused("--password-stdin reads one line (the password), not several")
    else:
        if not sys.stdin.isatty():
            raise _Refused("no terminal to ask for the password on: pipe it in with --password-stdin")
        password = typer.prompt("New password", hide_input=True, confirmation_prompt=True)
    try:
        auth.check_password(password)
    except auth.AuthError as e:
        raise _Refused(e.message) from None
    return password


@users_app.command("set-password")
@_users_command
def users_set_password(
    name: UserName,
    password_stdin: Annotated[bool, typer.Option(
        "--password-stdin", help="Read the new password from standard input (one line) instead of asking twice.")]
        = False,
    database_url: DatabaseUrl = None,
    database_schema: DatabaseSchema = None,
    data_dir: DataDir = None,
) -> None:
    """Set a forgotten password and end the account's sessions.

    The new password is asked for twice, not echoed (or read from standard input with --password-stdin), and
    follows registration's rules (6 to 128 characters).  Every session of the account ends: the player logs in
    again everywhere with the new password."""
    import asyncio

    from .server import auth

    db = _UsersDb(database_url, database_schema, data_dir)
    user = db.run(lambda store: _find_user(store, name))
    if user.is_bot:
        raise _Refused(f"{_who(user)} is a bot's account: bots never log in, so it has no password")
    if user.is_guest:
        raise _Refused(f"{_who(user)} is a guest: a guest has no name and password to log in with; the player "
                       "saves the account first (in the browser: “保存账号” / save account, which sets a "
                       "name and password), or plays on as a guest")
    password = _read_new_password(password_stdin)
    digest = asyncio.run(auth.hash_password(password))

    async def write(store: Any) -> int | None:
        if await store.user(user.id) is None:
            return None
        n: int = await store.reset_password(user.id, digest)
        return n

    ended = db.run(write)
    if ended is None:
        raise _Refused(f"{_who(user)} no longer exists: nothing was changed")
    typer.echo(f"password of {_who(user)} set; {ended} {'session' if ended == 1 else 'sessions'} ended: the player "
               "logs in again with the new password (a running server closes their open connections at its next "
               f"session check, {_check_every(db)})")
    if user.blocked:
        typer.echo(f"note: {_who(user)} is blocked: `qipai users unblock {user.name}` lets them log in")


@users_app.command("block")
@_users_command
def users_block(
    name: UserName,
    reason: Annotated[str | None, typer.Option(help="Why (for the operator: `qipai users list` shows it; the "
                                                    "player is not told).", show_default=False)] = None,
    database_url: DatabaseUrl = None,
    database_schema: DatabaseSchema = None,
    data_dir: DataDir = None,
) -> None:
    """Block an account: no log-in, its sessions end.

    A blocked account cannot log in, sit down or register for a match; its sessions end, and a running server
    closes its connections at its next session check (--session-check-every).  A seat it holds plays on in
    auto-play, as for a disconnection: no deal or score is lost.  `qipai users unblock` undoes it."""
    if reason is not None:
        reason = " ".join(reason.split())
        if len(reason) > 200:
            raise _Refused(f"--reason is {len(reason)} characters long; at most 200")
        reason = reason or None

    async def work(store: Any) -> tuple[Any, Any, int]:
        user = await _find_user(store, name)
        if user.is_bot:
            raise _Refused(f"{_who(user)} is a bot's account: bots never log in, so there is nothing to block")
        since, ended = await store.block_user(user.id, reason)
        return user, since, ended

    db = _UsersDb(database_url, database_schema, data_dir)
    user, since, ended = db.run(work)
    when = since.isoformat(timespec="seconds").replace("+00:00", "Z")
    was = "was blocked already, since" if user.blocked else "blocked since"
    typer.echo(f"{_who(user)} {was} {when}" + (f" ({reason})" if reason else "") +
               f"; {ended} {'session' if ended == 1 else 'sessions'} ended: a running server closes their open "
               f"connections at its next session check ({_check_every(db)}), and a seat they hold plays on in "
               "auto-play")


@users_app.command("unblock")
@_users_command
def users_unblock(
    name: UserName,
    database_url: DatabaseUrl = None,
    database_schema: DatabaseSchema = None,
    data_dir: DataDir = None,
) -> None:
    """Unblock an account: it may log in again.

    It logs in with its password (its old sessions stay ended).  A guest's account has no password: its sessions
    ended when it was blocked, so it cannot log in again; unblocking only clears the mark."""

    async def work(store: Any) -> tuple[Any, bool]:
        user = await _find_user(store, name)
        return user, await store.unblock_user(user.id)

    db = _UsersDb(database_url, database_schema, data_dir)
    user, done = db.run(work)
    if done and user.is_guest:  # no password to log in with, and blocking ended every session it had
        typer.echo(f"unblocked {_who(user)}: a guest has no password, so this account cannot log in again (its "
                   "sessions ended when it was blocked)")
    elif done:
        typer.echo(f"unblocked {_who(user)}: they may log in again")
    else:
        typer.echo(f"{_who(user)} is not blocked: nothing to do")


@users_app.command("purge")
@_users_command
def users_purge(
    guests_older_than: Annotated[int, typer.Option(
        "--guests-older-than", min=1, max=36500, metavar="DAYS",
        help="Delete unused guest accounts made more than this many days ago.")] = 30,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Say what would be deleted; delete nothing.")] = False,
    database_url: DatabaseUrl = None,
    database_schema: DatabaseSchema = None,
    data_dir: DataDir = None,
) -> None:
    """Delete expired sessions and guest accounts nobody can use.

    Expired session tokens are deleted (a running server also deletes them every hour).  A guest account is
    deleted only when it is older than --guests-older-than, has no unexpired session (a guest has no password:
    without a session it can never log in again), and nothing refers to it: it never sat at a deal, holds no
    seat, made no table, never entered a match, and its points never changed after the starting grant.  A guest
    who played keeps its account: the records of the deals it played name it."""
    from datetime import timedelta

    from .store.models import utcnow

    before = utcnow() - timedelta(days=guests_older_than)

    async def work(store: Any) -> tuple[int, list[tuple[int, str]]]:
        tokens = 0 if dry_run else await store.purge_expired_tokens()
        try:
            guests: list[tuple[int, str]] = await store.purge_guests(before, dry_run=dry_run)
        except RuntimeError as e:
            raise _Refused(str(e)) from None
        return tokens, guests

    db = _UsersDb(database_url, database_schema, data_dir)
    tokens, guests = db.run(work)
    shown = ", ".join(f"{n} (#{i})" for i, n in guests[:10])
    more = f" and {len(guests) - 10} more" if len(guests) > 10 else ""
    n = len(guests)
    if dry_run:
        typer.echo(f"would delete {n} unused guest {'account' if n == 1 else 'accounts'} made more than "
                   f"{guests_older_than} days ago" + (f": {shown}{more}" if guests else "") +
                   "; nothing was changed (expired sessions are deleted without --dry-run)")
        return
    typer.echo(f"deleted {tokens} expired {'session' if tokens == 1 else 'sessions'} and {n} unused guest "
               f"{'account' if n == 1 else 'accounts'} made more than {guests_older_than} days ago"
               + (f": {shown}{more}" if guests else ""))


def _store_tables() -> list[Any]:
    from .store.models import Base

    return list(Base.metadata.sorted_tables)


def main() -> None:
    """Entry point of the ``qipai`` command."""
    app(prog_name="qipai")


if __name__ == "__main__":  # pragma: no cover
    main()
