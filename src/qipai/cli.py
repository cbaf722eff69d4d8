"""The ``qipai`` command: self-play, replays, terminal play, the arena and the server."""

from __future__ import annotations

import json
import locale
import os
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from .jsonfile import WriteError, write_json

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


def _read_json(file: Path, what: str = "a JSON game record") -> Any:
    """A JSON file's contents, or a one-line error saying what is wrong with the file."""
    try:
        text = file.read_bytes().decode("utf-8-sig")  # a byte-order mark (Windows editors) is no error
        return json.loads(text)
    except FileNotFoundError:
        _fail(f"no such file: {file}")
    except IsADirectoryError:
        _fail(f"{file} is a folder, not {what}")
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


@app.command()
def rules(
    preset: Annotated[str | None, typer.Argument(help="Show one preset's options in full.")] = None,
    game: Annotated[str, typer.Option(help="doudizhu, or another registered game: shengji, mahjong.")]
        = "doudizhu",
) -> None:
    """List the rule presets (and, for another --game, every option -o KEY=VALUE takes), or print one preset's
    options as JSON."""
    from .games.doudizhu.rules import PRESETS

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
    bots: Annotated[str, typer.Option(help="Comma-separated bot names, one per seat (or one for all).")] = "random",
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
    from .bots import get_bot
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
    try:
        seats = [get_bot(name, seed * 31 + i) for i, name in enumerate(names)]
    except KeyError as e:
        _fail(str(e.args[0]))
    g = Game.new(r, seed)
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        g.apply(seats[seat].act(g.observe(seat), g.legal_actions()), seat)
    if not quiet:
        for line in describe_deal(g, lang):
            typer.echo(line)
    for line in describe_outcome(g, lang):
        typer.echo(line)
    if record:
        _write_out(record, g.record())
        typer.echo(f"record: {record}")


def _seat_bots(bots: str, players: int) -> list[str]:
    """``--bots``: one name per seat, or one for all (a usage error otherwise)."""
    names = [b.strip() for b in bots.split(",") if b.strip()]
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
    data = g.record()
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
    samples: Annotated[int, typer.Option(help="With --review: sampled deals per decision.")] = 120,
) -> None:
    """Replay a game record step by step (refuses a record with an illegal action, naming it)."""
    from .games.doudizhu.record import RecordError
    from .games.doudizhu.record import replay as do_replay
    from .games.doudizhu.text import describe_deal, describe_outcome

    lang = _check_lang(lang)
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
    for line in describe_deal(g, lang):
        typer.echo(line)
    for line in describe_outcome(g, lang):
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
        help="Bot names, one per bot seat or one for all (default: heuristic, else random).")] = None,
    lang: Annotated[str | None, typer.Option(help="zh or en (default: from the locale).")] = None,
    deals: Annotated[int, typer.Option(help="Stop after this many deals (0: ask between deals).")] = 0,
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
        _fail(f"--deals must be 0 (ask between deals) or more, got {deals}")
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
        bots=[b.strip() for b in bots.split(",") if b.strip()] if bots else None,
    )
    try:
        code = run_table(opts)
    except SetupError as e:
        _fail(str(e))
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
    names = [b.strip() for b in bots.split(",") if b.strip()] or ["random"]
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
    each is also read from a QIPAI_<NAME> environment variable (docs/protocol.md, Configuration).
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
    url = f"http://{'127.0.0.1' if settings.host in ('0.0.0.0', '::') else settings.host}:{settings.port}/"
    server = Server(make_config(settings))
    if open_browser:
        import threading
        import time
        import webbrowser

        def open_when_listening() -> None:
            for _ in range(300):
                if server.started:
                    webbrowser.open(url)
                    return
                time.sleep(0.1)

        threading.Thread(target=open_when_listening, daemon=True).start()
    from sqlalchemy.engine import make_url

    database = make_url(settings.db_url()).render_as_string(hide_password=True)
    typer.echo(f"qipai: serving on {url} (database: {database})")
    server.run()


def _copy_url(value: str, flag: str) -> str:
    """``--from``/``--to``: a database URL as ``serve --database-url`` takes, or the path of a SQLite file."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    if "://" not in value:
        return f"sqlite+aiosqlite:///{value}"
    accepted = "sqlite+aiosqlite:///PATH, a SQLite file's path, or postgresql+asyncpg://USER:PASSWORD@HOST:5432/DB"
    try:
        url = make_url(value)
    except (ArgumentError, ValueError):
        _fail(f"{flag} is not a database URL: expected {accepted}")
    shown = url.render_as_string(hide_password=True)
    try:
        dialect = url.get_dialect()
    except NoSuchModuleError:
        _fail(f"{flag} {shown}: no database {url.drivername!r}; expected {accepted}")
    if not getattr(dialect, "is_async", False):
        _fail(f"{flag} {shown}: {url.drivername} is not an async driver; expected {accepted}")
    try:
        dialect.import_dbapi()
    except ImportError:
        _fail(f"{flag} {shown}: the {url.drivername} driver is not installed")
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


def _store_tables() -> list[Any]:
    from .store.models import Base

    return list(Base.metadata.sorted_tables)


def main() -> None:
    """Entry point of the ``qipai`` command."""
    app(prog_name="qipai")


if __name__ == "__main__":  # pragma: no cover
    main()
