"""What the four-seat terminal tables share (Shengji, mahjong): you in seat 0, three bots, the match carried
from deal to deal by the game's factory, a record written per deal.

:class:`BotTable` checks the set-up (language, rule options, bot names), builds the seats, the auto-play bot
and the match, and owns the console: printing, asking with an optional deadline, the prompt between deals and
the table's last lines.  Each game's session subclasses it with its own phases and words.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Console, RenderableType
from rich.text import Text

from ..bots import Bot, bot_names, get_bot, split_bots
from ..core.game import GameFactory, autoplay_bot_for
from ..core.options import OptionError, options_from_text, pairs_from_text
from .explain import game_rules
from .reader import LineReader, ask_line
from .records import RecordError, show_records, with_players, write_record
from .table import SetupError

HUMAN = 0
YES_WORDS = ("y", "yes", "是", "确定", "好")


@dataclass
class SeatOptions:
    """How a four-seat terminal table is set up (the ``qipai play --game NAME`` options they share)."""

    seed: int | None = None
    bots: list[str] | None = None
    """Bot names, one for all three bot seats or three; ``None``: the game's seat bot."""
    lang: str = "en"
    rules: dict[str, Any] = field(default_factory=dict)
    timer: bool = False
    timer_seconds: int | None = None
    auto_delay: float = 1.0
    records: Path | None = field(default_factory=lambda: Path("qipai-records"))
    clear: bool | None = None


def cli_rules_and_bots(options: list[str] | None, preset: str | None,
                       bots: str | None) -> tuple[dict[str, Any], list[str] | None]:
    """The rule options (``-o KEY=VALUE`` pairs and ``--rules``) and the bot names (``--bots a,b,c``) typed on
    the command line; a pair without ``=`` is a :class:`SetupError`.

    >>> cli_rules_and_bots(["hand_limit=3"], "daqing", " rule, rule")
    ({'hand_limit': '3', 'preset': 'daqing'}, ['rule', 'rule'])
    """
    try:
        rules: dict[str, Any] = dict(pairs_from_text(options))
    except OptionError as e:
        raise SetupError(str(e)) from None
    if preset is not None:
        rules["preset"] = preset
    try:
        return rules, split_bots(bots) if bots is not None else None
    except ValueError as e:
        raise SetupError(str(e)) from None


class BotTable:
    """The seats, the console and the match of a four-seat terminal table (see the module docstring).

    Subclasses set :attr:`GAME` (the registry name), :attr:`TITLE` (the game's name in messages),
    :attr:`FACTORY` and :attr:`DEFAULTS` (rule options under the typed ones, e.g. the preset), and pass their
    words function ``tr(lang, key, **kw)``, which must know ``you``, ``bot``, ``timer_unsupported``,
    ``prompt_next``, ``quit_between``, ``help``, ``err_unknown`` and the records' keys.
    """

    GAME: ClassVar[str]
    TITLE: ClassVar[str]
    FACTORY: ClassVar[GameFactory]
    DEFAULTS: ClassVar[dict[str, Any]] = {}
    SEAT_BOT: ClassVar[str] = ""
    """The bots' name when none is given and the factory names none."""
    INFO: ClassVar[tuple[str, ...]] = ("help", "rules")
    """Commands :meth:`info` answers between deals."""

    def __init__(self, opts: SeatOptions, tr: Callable[..., str], console: Console | None = None,
                 reader: LineReader | None = None) -> None:
        if opts.lang not in ("en", "zh"):
            raise SetupError(f"--lang must be zh or en, got {opts.lang!r}")
        factory = self.FACTORY
        try:
            self.options = factory.options({**self.DEFAULTS, **options_from_text(factory.info.options,
                                                                               opts.rules)})
        except OptionError as e:
            raise SetupError(str(e)) from None
        self.tr = tr
        self.opts = opts
        self.lang = opts.lang
        self.console = console or Console(highlight=False, markup=False, emoji=False)
        self.reader = reader or LineReader()
        self.seed = opts.seed if opts.seed is not None else secrets.randbelow(1_000_000)
        known = bot_names(self.GAME)
        names = list(opts.bots) if opts.bots else [factory.info.seat_bot or self.SEAT_BOT]
        if len(names) == 1:
            names *= 3
        if len(names) != 3:
            raise SetupError(f"--bots needs 1 or 3 names for {self.TITLE}, got {len(names)}")
        for b in names:
            if b not in known:
                raise SetupError(f"unknown bot {b!r} for {self.TITLE}: known bots are {', '.join(known)}")
        self.bot_kinds = names
        self.bots: list[Bot | None] = [None] + [get_bot(n, self.seed * 31 + i, game=self.GAME)
                                                for i, n in enumerate(names, start=1)]
        self.auto_bot = get_bot(autoplay_bot_for(factory.info, self.options), self.seed * 31 + 7, game=self.GAME)
        self.names = [tr(self.lang, "you")] + [tr(self.lang, "bot", i=i, bot=n) for i, n in enumerate(names, 1)]
        self.timer = opts.timer or opts.timer_seconds is not None
        self.notes: list[str] = []
        if not self.reader.can_time_out and self.timer:
            self.notes.append(tr(self.lang, "timer_unsupported"))
            self.timer = False
        self.clear = opts.clear if opts.clear is not None else (
            self.console.is_terminal and not self.console.is_dumb_terminal)
        self.match = factory.match_start(self.options)
        self.totals = [0, 0, 0, 0]
        self.records: list[Path] = []
        self.leaving = False
        self.started = time.strftime("%Y%m%d-%H%M%S")

    # ------------------------------------------------------------------ output
    def out(self, item: RenderableType | str = "", style: str = "") -> None:
        """Print a line or a renderable, wrapped at word boundaries to the console's width (as the Dou Dizhu
        table does; plain strings are never read as markup)."""
        if isinstance(item, str):
            item = Text(item, style=style)
        self.console.print(item)

    def error(self, msg: str) -> None:
        self.out(msg, style="bold red")

    def ask(self, prompt: str, deadline: float | None = None, confirm: bool = False) -> str | None:
        """Show ``prompt`` and read a line (see :func:`~qipai.tui.reader.ask_line`)."""
        return ask_line(self.console, self.reader, prompt, deadline, confirm)

    def poll(self, deadline: float) -> str | None:
        """A line typed before ``deadline`` (no prompt), or ``None``."""
        if not self.reader.can_time_out:
            return None
        self.console.file.flush()
        return self.reader.readline(max(0.0, deadline - time.monotonic()))

    # ------------------------------------------------------------------ between deals
    def parse(self, line: str) -> str:
        """The command a typed line names (the game's parser)."""
        raise NotImplementedError

    def info(self, name: str) -> None:
        """Answer a command of :attr:`INFO` between deals (``help`` and ``rules`` here)."""
        if name == "rules":
            self.show_rules()
        else:
            self.out(self.tr(self.lang, "help"))

    def show_rules(self) -> None:
        """玩法说明: the rules of this table's options in words (the game's own, through the registry), wrapped to
        the terminal."""
        for item in game_rules(self.GAME, self.options, self.lang):
            self.out(item)

    def between(self) -> bool:
        """Ask whether to play on: Enter plays the next deal, ``quit`` (or the end of input) ends the table."""
        while True:
            try:
                line = self.ask(self.tr(self.lang, "prompt_next") + " > ")
            except EOFError:
                self.out()
                return False
            name = self.parse(line or "")
            if name == "empty":
                return True
            if name == "quit":
                self.out(self.tr(self.lang, "quit_between"))
                return False
            if name in self.INFO:
                self.info(name)
            else:
                self.error(self.tr(self.lang, "err_unknown", text=(line or "").strip()))

    def save_record(self, record: dict[str, Any], label: str) -> None:
        """Write a finished deal's record as ``STARTED-GAME-seedSEED-LABEL.json`` (unless records are off), with
        its players: you in seat 0, the bots in the others (``qipai replay`` names them)."""
        record = with_players(record, [None, *self.bot_kinds], HUMAN)
        try:
            path = write_record(self.opts.records, f"{self.started}-{self.GAME}-seed{self.seed}-{label}", record)
        except RecordError as e:
            self.error(self.tr(self.lang, "record_failed", error=str(e)))
            return
        if path is not None:
            self.records.append(path)

    def finish(self, deals: int) -> None:
        """The table's last lines: the deals played, your total, where the records are."""
        lang = self.lang
        tr = self.tr
        self.out(tr(lang, "table_over", n=deals, s="" if deals == 1 else "s", total=self.totals[HUMAN]),
                 style="bold")
        show_records(self.out, self.console, lambda key, **kw: tr(lang, key, **kw), self.records, self.opts.records)
