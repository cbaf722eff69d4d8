"""A table in the terminal: you against bots for as many deals as you like (``qipai play``).

The human sits in seat 0; the other seats are bots.  Each deal is a :class:`~qipai.games.doudizhu.state.Game`
driven by text actions, so everything the table does — auto-play (``autoplay on``/``off``), time-outs
(``timeout``) and leaving (``escape``) — is in the deal's record and counts in its settlement.

Table rules (RULES.md §6, §9):

- Deal ``k`` (1-based) of a table with seed ``S`` is shuffled from seed ``S + k - 1``; the first bidder rotates
  with :func:`~qipai.games.doudizhu.state.next_first_bidder`.  Bots get seeds from ``S`` too, so the same seed and the
  same typed input give the same table.
- Presets that cap payments by table points (``jj_match``) give every seat ``points`` to start with; the table
  ends when a seat has none left.
- Auto-play (托管) plays the human seat with the ``passive`` bot, or the ``heuristic`` bot where the rules say
  ``autoplay = smart``.  While it is on, the table waits ``auto_delay`` seconds at each of your turns for you to
  type ``auto`` (take back control) or another command.
- With a timer, a decision not made in time is a ``timeout``: the core plays the seed's consequence (pass, or
  the smallest single when leading) and turns auto-play on.
- ``quit`` during a deal asks for confirmation, then applies ``escape``.  Under ``escape_penalty`` (``chengdu``)
  the deal ends at once with the penalty.  Elsewhere leaving is a disconnection: the deal is finished with you in
  auto-play and settled normally, then the table ends.  Between deals ``quit`` just ends the table; so does the
  end of input (which during a deal counts as leaving it), and Ctrl-C while a bot thinks.  A deal left during
  bidding in which nobody will ever bid (passive bots under a redeal rule) is abandoned unsettled after
  ``MAX_REDEALS_WHEN_LEFT`` redeals.
- Every finished deal is written as one JSON record (``qipai replay`` reads it) in the records folder.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console, RenderableType
from rich.text import Text

from ..bots import Bot, bot_names, get_bot
from ..core.game import LEAVE, IllegalAction, apply_step
from ..games.doudizhu.bots.arena import BotSpec, make_bot
from ..games.doudizhu.hints import hint_actions
from ..games.doudizhu.rules import PRESETS
from ..games.doudizhu.state import Game, next_first_bidder
from .commands import Command, _cut, check_play, parse_command, ranks_label
from .explain import game_rules
from .i18n import bot_name, kind_name, refusal, tr, tr_text
from .reader import LineReader, ask_line
from .records import RecordError, show_records, with_players, write_record
from .render import (
    DealSummary,
    TableFacts,
    action_line,
    card_label,
    cards_text,
    describe_choice,
    hand_text,
    history_view,
    last_trick_view,
    next_doubling_name,
    result_view,
    screen,
    settlement,
)

HUMAN = 0
"""The human player's seat."""

YES_WORDS = ("y", "yes", "是", "确定", "好")

MAX_REDEALS_WHEN_LEFT = 10
"""Redeals after the human left before a deal nobody bids in is abandoned."""


_CHOICES_ZH = {("bid", "pass"): "不叫", ("bid", "call"): "叫地主", ("double", "pass"): "不加倍",
               ("show", "pass"): "不亮", ("show", "show"): "明牌"}
"""The choices before play as a Chinese prompt shows them (each is also what a player may type)."""


class SetupError(ValueError):
    """The table cannot be set up as asked (unknown preset or bot, wrong number of bots)."""


@dataclass
class TableOptions:
    """How a terminal table is set up (the ``qipai play`` options)."""

    preset: str = "classic"
    seed: int | None = None
    """Table seed; ``None`` picks one at random (and prints it)."""
    bots: list[str] | None = None
    """Bot names, one per bot seat or one for all; ``None``: ``heuristic`` if available, else ``random``."""
    lang: str = "en"
    deals: int = 0
    """Stop after this many deals; 0 plays on until you quit (either way Enter starts each next deal)."""
    timer: bool = False
    timer_seconds: int | None = None
    """Seconds per decision instead of the rules' time limits (implies ``timer``)."""
    auto_delay: float = 1.0
    points: int = 1000
    """Starting table points where the rules cap payments by them."""
    records: Path | None = field(default_factory=lambda: Path("qipai-records"))
    clear: bool | None = None
    """Clear the screen before each of your decisions (default: on a real, non-dumb terminal)."""


class TableSession:
    """One table: its seats, bots, running totals, history and records, and the loop that plays deals."""

    def __init__(self, opts: TableOptions, console: Console | None = None,
                 reader: LineReader | None = None) -> None:
        if opts.preset not in PRESETS:
            raise SetupError(f"unknown preset {opts.preset!r}: choose one of {', '.join(PRESETS)}")
        if opts.lang not in ("en", "zh"):
            raise SetupError(f"--lang must be zh or en, got {opts.lang!r}")
        if opts.points < 1:
            raise SetupError("--points must be at least 1")
        self.opts = opts
        self.lang = opts.lang
        self.rules = PRESETS[opts.preset]
        self.console = console or Console(highlight=False, markup=False, emoji=False)
        self.reader = reader or LineReader()
        self.seed = opts.seed if opts.seed is not None else secrets.randbelow(1_000_000)
        n = self.rules.players
        known = bot_names()
        self.notes: list[str] = []
        if opts.bots:
            names = list(opts.bots)
            if len(names) == 1:
                names *= n - 1
            if len(names) != n - 1:
                raise SetupError(f"--bots needs 1 or {n - 1} names for {n} players, got {len(names)}")
            for b in names:
                try:
                    name = BotSpec.parse(b).name
                except ValueError as e:
                    raise SetupError(str(e)) from None
                if name not in known:
                    raise SetupError(f"unknown bot {name!r}: known bots are {', '.join(known)}")
        elif "heuristic" in known:
            names = ["heuristic"] * (n - 1)
        else:
            names = ["random"] * (n - 1)
            self.notes.append(tr(self.lang, "fallback_bots"))
        self.bot_kinds = names
        try:  # a bot with options (search:time=0.5) as the arena reads it
            self.bots: list[Bot | None] = [None] + [
                make_bot(name, self.seed * 31 + seat) for seat, name in enumerate(names, start=1)
            ]
        except (KeyError, ValueError) as e:
            raise SetupError(str(e.args[0] if isinstance(e, KeyError) else e)) from None
        self.names = [tr(self.lang, "you")] + [
            tr(self.lang, "bot", i=seat, bot=bot_name(BotSpec.parse(name).name, self.lang))
            for seat, name in enumerate(names, start=1)
        ]
        self.short_names = [tr(self.lang, "you")] + [tr(self.lang, "bot_short", i=seat) for seat in range(1, n)]
        smart = self.rules.autoplay == "smart" and "heuristic" in known
        self.auto_bot = get_bot("heuristic" if smart else "passive", self.seed * 31 + 7)
        self.advisor = get_bot("heuristic", self.seed * 31 + 11) if "heuristic" in known else None
        self.timer = opts.timer or opts.timer_seconds is not None
        if self.timer and not self.reader.can_time_out:
            self.notes.append(tr(self.lang, "timer_unsupported"))
            self.timer = False
        self.clear = opts.clear if opts.clear is not None else (
            self.console.is_terminal and not self.console.is_dumb_terminal)
        self.totals = [0] * n
        self.points = [opts.points] * n if self.rules.cap_by_table_points else None
        self.history: list[DealSummary] = []
        self.records: list[Path] = []
        self.sort_mode = "rank"
        self.deal_no = 0
        self.leaving = False
        self.abandoned = False
        self.game: Game | None = None
        self.prev_game: Game | None = None
        self.last_finished: Game | None = None
        self.last_finished_no = 0
        self.seen = 0
        self.started = time.strftime("%Y%m%d-%H%M%S")

    # ------------------------------------------------------------------ output helpers
    def out(self, item: RenderableType | str = "", style: str = "") -> None:
        """Print a line or a renderable (plain strings are never read as markup)."""
        if isinstance(item, str):
            item = Text(item, style=style)
        self.console.print(item)

    def error(self, msg: str) -> None:
        """The one line that says what was wrong."""
        self.console.print(Text(msg, style="bold red"))

    def facts(self, deal_no: int | None = None) -> TableFacts:
        """The table facts the renderers need."""
        g = self.game
        return TableFacts(names=self.names, human=HUMAN, lang=self.lang, preset=self.opts.preset,
                          deal_no=deal_no or self.deal_no, seed=g.seed if g else self.seed, totals=self.totals,
                          points=self.points, sort_mode=self.sort_mode, bots=self.bot_kinds)

    def ask(self, prompt: str, deadline: float | None = None, confirm: bool = False) -> str | None:
        """Show ``prompt`` and read a line (see :func:`~qipai.tui.reader.ask_line`)."""
        return ask_line(self.console, self.reader, prompt, deadline, confirm)

    # ------------------------------------------------------------------ the table
    def run(self) -> int:
        """Play deals until the player stops; print the totals and the record paths.  Returns an exit code."""
        for note in self.notes:
            self.out(note, style="yellow")
        self.out(tr(self.lang, "table_seed", seed=self.seed))
        self.out(tr(self.lang, "legend"), style="dim")
        while True:
            self.deal_no += 1
            try:
                self.play_deal()
            except (EOFError, KeyboardInterrupt):
                self.finish()
                return 0
            self.after_deal()
            if self.leaving or (self.opts.deals and self.deal_no >= self.opts.deals):
                break
            if self.points is not None and min(self.points) <= 0:
                broke = next(i for i, p in enumerate(self.points) if p <= 0)
                self.out(tr(self.lang, "no_points", name=self.names[broke]), style="yellow")
                break
            if not self.between_deals():
                break
        self.finish()
        return 0

    def play_deal(self) -> None:
        """Play one deal to its end (bots act at once; the human seat asks, or auto-plays)."""
        first = next_first_bidder(self.rules, self.prev_game)
        seed = self.seed + self.deal_no - 1
        game = Game.new(self.rules, seed, first_bidder=first, table_points=self.points)
        self.game = game
        self.seen = 0
        self.abandoned = False
        self.console.rule(Text(f"{tr(self.lang, 'deal_no', n=self.deal_no)} · {tr(self.lang, 'seed', seed=seed)}"))
        try:
            while True:
                self.flush_events()
                if game.is_over or self.abandoned:
                    break
                if self.leaving:
                    self.play_rest()
                    continue
                seat = game.to_act
                assert seat is not None
                if seat == HUMAN:
                    if game.in_autoplay(HUMAN):
                        self.auto_turn()
                    else:
                        self.human_turn()
                else:
                    bot = self.bots[seat]
                    assert bot is not None
                    game.apply(bot.act(game.observe(seat), game.legal_actions()), seat)
        except (EOFError, KeyboardInterrupt):
            # the input ended, or Ctrl-C while a bot thought: leaving the table (an escape, or a disconnection
            # finished in auto-play)
            if not game.is_over:
                self.leave()
                self.play_rest()
            self.flush_events()
            self.after_deal()
            raise

    def play_rest(self) -> None:
        """Finish the deal without asking anyone (after the human left).

        If nobody will bid (auto-play and passive bots pass forever under a redeal rule), the deal is abandoned
        after :data:`MAX_REDEALS_WHEN_LEFT` more redeals: it ends unsettled, with its record written.
        """
        game = self.game
        assert game is not None
        stop_at = game.redeals + MAX_REDEALS_WHEN_LEFT
        while not game.is_over:
            if game.redeals >= stop_at:
                self.flush_events()
                self.out(tr(self.lang, "abandoned"), style="yellow")
                self.abandoned = True
                return
            seat = game.to_act
            assert seat is not None
            bot = self.auto_bot if seat == HUMAN else self.bots[seat]
            assert bot is not None
            game.apply(bot.act(game.observe(seat), game.legal_actions()), seat)
            self.flush_events()

    def flush_events(self) -> None:
        """Print a line for each public event since the last call."""
        game = self.game
        assert game is not None
        facts = self.facts()
        for ev in game.log[self.seen:]:
            if ev["event"] == "deal":
                fb = ev["first_bidder"]
                if ev.get("face_up"):
                    self.out(tr(self.lang, "face_up", card=card_label(ev["face_up"], self.lang),
                                name=self.names[fb]))
                else:
                    self.out(tr(self.lang, "first_bidder", name=self.names[fb]))
                continue
            line = action_line(game, ev, facts)
            if line is not None:
                self.out(line)
            if ev["event"] == "landlord" and game.rules.chengdu_doubling:
                fb = game.first_bidder
                if fb != ev["seat"] and any(s == fb and v == 0 for s, v in game.bids):  # no 倒 turn for him
                    self.out(tr(self.lang, "no_dao", name=self.names[fb], pron="you" if fb == HUMAN else "he"),
                             style="yellow")
            if ev["event"] == "landlord" and game.kitty_taken:
                obs = game.observe(HUMAN)
                if obs["kitty"]:
                    self.out(tr_text(self.lang, "act_kitty", cards=cards_text(obs["kitty"], self.lang)))
        self.seen = len(game.log)

    # ------------------------------------------------------------------ the human seat
    def time_limit(self) -> int | None:
        """Seconds for the human's current decision, or ``None`` without a timer."""
        if not self.timer:
            return None
        assert self.game is not None
        return self.opts.timer_seconds or self.game.time_limit()

    def choices_text(self) -> str:
        """The choices the rules allow now, as a person types them (``pass, 1, 2, 3``)."""
        game = self.game
        assert game is not None
        out = []
        zh = self.lang == "zh"
        for a in game.legal_actions():
            if a.startswith("bid "):
                out.append(a.split()[1] + ("分" if zh else ""))
            elif a in ("double", "redouble"):
                name = next_doubling_name(game)
                out.append(name if zh else f"{a} ({name})")
            elif zh:
                out.append(_CHOICES_ZH.get((game.phase, a), a))
            else:
                out.append(a)
        return ("、" if zh else ", ").join(out)

    def prompt(self, deadline: float | None) -> str:
        """The prompt for the human's decision now."""
        game = self.game
        assert game is not None
        lang = self.lang
        if game.phase == "bid":
            p = tr(lang, "prompt_bid", choices=self.choices_text())
        elif game.phase == "double":
            p = tr(lang, "prompt_double", choices=self.choices_text())
        elif game.phase == "show":
            p = tr(lang, "prompt_show", f=game.rules.show_hand_factor, choices=self.choices_text())
        elif game.trick.last is None:
            p = tr(lang, "prompt_lead")
        else:
            last = game.trick.last
            p = tr(lang, "prompt_follow", cards=ranks_label(last.ranks, lang), kind=kind_name(last.kind, lang))
        if deadline is not None:
            p += tr(lang, "prompt_time", s=max(0, round(deadline - time.monotonic())))
        return p + " > "

    def show_screen(self) -> None:
        """Draw the table as the human sees it."""
        assert self.game is not None
        if self.clear:
            self.console.clear()
        self.out(screen(self.game, self.facts()))

    def apply_human(self, action: str) -> bool:
        """Apply the human's action; a refusal by the core is reported as one line."""
        assert self.game is not None
        try:
            apply_step(self.game, HUMAN, action)
        except IllegalAction as e:
            self.error(tr(self.lang, "err_core", msg=refusal(self.lang, e.rule, str(e))))
            return False
        return True

    def hints(self) -> list[str]:
        """The human's legal actions, best first."""
        game = self.game
        assert game is not None
        legal = game.legal_actions()
        moves = game.legal_moves()
        labels = {m: m.label(self.rules) for m in moves}
        moves = [m for m in moves if "play " + labels[m] in legal]
        return hint_actions(legal, moves, labels, game.counts[HUMAN], game.observe(HUMAN), self.advisor)

    def human_turn(self) -> None:
        """Ask the human for one decision; mistakes get one line each and the question again."""
        game = self.game
        assert game is not None
        self.show_screen()
        limit = self.time_limit()
        deadline = time.monotonic() + limit if limit else None
        hints: list[str] | None = None
        hint_i = -1
        while True:
            line = self.ask(self.prompt(deadline), deadline)
            if line is None:
                self.time_out()
                return
            cmd = parse_command(line, game.phase)
            legal = game.legal_actions()
            if cmd.name == "empty":
                if hints and hint_i >= 0:
                    if self.apply_human(hints[hint_i]):
                        return
                elif game.phase == "play":
                    self.error(tr(self.lang, "err_empty"))
                else:
                    self.error(tr(self.lang, "err_empty_choice", choices=self.choices_text()))
            elif cmd.name == "hint":
                if hints is None:
                    hints = self.hints()
                hint_i = (hint_i + 1) % len(hints)
                self.show_hint(hints, hint_i)
            elif cmd.name == "pass":
                if "pass" in legal:
                    if self.apply_human("pass"):
                        return
                elif game.phase == "play":
                    self.error(tr(self.lang, "err_must_lead"))
                else:
                    self.error(tr(self.lang, "err_choice", text=_cut(line.strip()), choices=self.choices_text()))
            elif cmd.name == "choice":
                action = cmd.arg
                if action == "double*":
                    action = next((a for a in legal if a in ("double", "redouble")), "double")
                if action in legal:
                    if self.apply_human(action):
                        return
                else:
                    self.error(tr(self.lang, "err_choice", text=_cut(line.strip()), choices=self.choices_text()))
            elif cmd.name == "play":
                action_or_none, err = check_play(game.counts[HUMAN], cmd.arg, game.trick.last, self.rules,
                                                 self.lang)
                if err is not None:
                    self.error(err)
                elif action_or_none is not None and self.apply_human(action_or_none):
                    return
            elif cmd.name == "unknown":
                self.error(tr(self.lang, "err_choice", text=_cut(line.strip()), choices=self.choices_text()))
            elif cmd.name == "past":
                self.error(tr(self.lang, "err_past", text=_cut(line.strip())))
            elif cmd.name == "auto":
                if self.apply_human("autoplay on"):
                    self.out(tr(self.lang, "auto_on"), style="cyan")
                    return
            elif cmd.name == "quit":
                if self.quit_deal(deadline):
                    return
            else:
                self.info(cmd)

    def show_hint(self, hints: list[str], i: int) -> None:
        """Print hint ``i`` of ``hints``."""
        game = self.game
        assert game is not None
        a = hints[i]
        if game.phase != "play":
            self.out(tr(self.lang, "hint_choice", what=describe_choice(game, a, self.lang)), style="green")
        elif a == "pass":
            self.out(tr(self.lang, "hint_pass_more" if len(hints) > 1 else "hint_pass"), style="green")
        else:
            self.out(tr(self.lang, "hint", i=i + 1, n=len(hints), what=describe_choice(game, a, self.lang)),
                     style="green")

    def info(self, cmd: Command) -> None:
        """The commands that only show something: sort, last, history, result, help, rules."""
        game = self.game
        lang = self.lang
        if cmd.name == "sort":
            self.sort_mode = "count" if self.sort_mode == "rank" else "rank"
            self.out(tr(lang, "sorted", mode=tr(lang, "by_count" if self.sort_mode == "count" else "by_rank")))
            if game is not None and not game.is_over:
                self.out(hand_text(game, self.facts()))
        elif cmd.name == "last":
            view = last_trick_view(game, self.names, lang) if game is not None else None
            if view is None:
                self.out(tr(lang, "no_last"), style="yellow")
            else:
                self.out(view)
        elif cmd.name == "history":
            if not self.history:
                self.out(tr(lang, "no_result"), style="yellow")
            else:
                self.out(history_view(self.history, self.short_names, lang,
                                      self.opts.points if self.points is not None else None))
        elif cmd.name == "result":
            if self.last_finished is None:
                self.out(tr(lang, "no_result"), style="yellow")
            else:
                self.out(result_view(self.last_finished, self.facts(self.last_finished_no)))
        elif cmd.name == "help":
            self.out(tr(lang, "help"))
        elif cmd.name == "rules":  # 玩法说明: this table's rules in words (the game's own)
            for item in game_rules("doudizhu", {"preset": self.opts.preset}, lang):
                self.out(item)

    def auto_turn(self) -> None:
        """The human seat in auto-play: wait a moment for a command, then let the auto-play bot act."""
        game = self.game
        assert game is not None
        if not self.leaving and self.reader.can_time_out:
            try:
                line = self.reader.readline(self.opts.auto_delay)
            except KeyboardInterrupt:
                line = "quit"
            if line is not None:
                cmd = parse_command(line, game.phase)
                if cmd.name == "auto":
                    if self.apply_human("autoplay off"):
                        self.out(tr(self.lang, "auto_off"), style="cyan")
                    return
                if cmd.name == "quit":
                    self.quit_deal(None)
                    return
                if cmd.name in ("sort", "last", "history", "result", "help", "rules"):
                    self.info(cmd)
                    return
                if cmd.name != "empty":
                    self.error(tr(self.lang, "err_auto_on"))
                    return
        game.apply(self.auto_bot.act(game.observe(HUMAN), game.legal_actions()), HUMAN)

    def time_out(self) -> None:
        """The human's time ran out: apply ``timeout`` and say what it did."""
        game = self.game
        assert game is not None
        before = len(game.log)
        if not self.apply_human("timeout"):
            return
        what = tr(self.lang, "timeout_pass")
        for ev in game.log[before:]:
            if ev["event"] == "play" and ev["seat"] == HUMAN:
                what = tr(self.lang, "timeout_play", cards=ranks_label(ev["move"], self.lang))
        self.out(tr(self.lang, "timeout", what=what), style="yellow")

    def leave(self) -> None:
        """Apply ``escape`` for the human and mark the table as ending after this deal."""
        game = self.game
        assert game is not None
        self.leaving = True
        if not game.is_over:
            self.apply_human(LEAVE)
        if not game.is_over:
            self.out(tr(self.lang, "leaving"), style="yellow")

    def quit_deal(self, deadline: float | None) -> bool:
        """``quit`` during a deal: say what it costs, ask for confirmation, then leave.  Returns whether the
        human's turn is over."""
        game = self.game
        assert game is not None
        if self.rules.escape_penalty:
            trial = game.clone()
            trial.leave(HUMAN)
            penalty = -(trial.result.scores[HUMAN] if trial.result else 0)
            self.out(tr(self.lang, "quit_penalty", n=penalty), style="bold yellow")
        else:
            self.out(tr(self.lang, "quit_plain"), style="bold yellow")
        answer = self.ask(tr(self.lang, "prompt_confirm"), deadline, confirm=True)
        if answer is None:
            self.time_out()
            return True
        if answer.strip().lower() in YES_WORDS:
            self.leave()
            return True
        self.out(tr(self.lang, "quit_cancel"))
        return False

    # ------------------------------------------------------------------ between deals
    def after_deal(self) -> None:
        """Settle the finished deal at the table: totals, history, record, settlement screen."""
        game = self.game
        assert game is not None
        if game is self.last_finished:
            return
        if not game.is_over:
            if self.abandoned:
                self.write_record(game)
                self.last_finished = game
            return
        res = game.result
        assert res is not None
        for i, s in enumerate(res.scores):
            self.totals[i] += s
            if self.points is not None:
                self.points[i] += s
        self.history.append(DealSummary(deal_no=self.deal_no, seed=game.seed, landlord=res.landlord, bid=res.bid,
                                        multiplier=res.multiplier, scores=list(res.scores), escaped=res.escaped,
                                        dissolved=res.dissolved))
        self.write_record(game)
        self.prev_game = game
        self.last_finished = game
        self.last_finished_no = self.deal_no
        self.out(settlement(game, self.facts()))

    def write_record(self, game: Game) -> None:
        """Write the deal's JSON record into the records folder."""
        try:
            path = write_record(self.opts.records,
                                f"{self.started}-{self.opts.preset}-seed{self.seed}-deal{self.deal_no}",
                                with_players(game.record(), [None] + [BotSpec.parse(b).name for b in self.bot_kinds],
                                             HUMAN))
        except RecordError as e:
            self.error(tr(self.lang, "record_failed", error=str(e)))
            return
        if path is not None:
            self.records.append(path)

    def between_deals(self) -> bool:
        """Wait for Enter (next deal) or a command; returns ``False`` to end the table."""
        while True:
            try:
                line = self.ask(tr(self.lang, "prompt_next") + " > ")
            except EOFError:
                self.out()
                return False
            cmd = parse_command(line or "", "between")
            if cmd.name == "empty":
                return True
            if cmd.name == "quit":
                self.out(tr(self.lang, "quit_between"))
                return False
            if cmd.name in ("sort", "last", "history", "result", "help", "rules"):
                self.info(cmd)
            else:
                self.error(tr(self.lang, "err_choice", text=_cut((line or "").strip()),
                              choices="Enter, history, result, rules, quit"))

    def finish(self) -> None:
        """The end of the table: totals and the record files."""
        lang = self.lang
        played = len(self.history)
        self.out(tr(lang, "table_over", n=played), style="bold")
        if self.history:
            self.out(history_view(self.history, self.short_names, lang,
                                  self.opts.points if self.points is not None else None))
        show_records(self.out, self.console, lambda key, **kw: tr(lang, key, **kw), self.records, self.opts.records)


def run_table(opts: TableOptions, console: Console | None = None, reader: LineReader | None = None) -> int:
    """Set up a table and play it (the body of ``qipai play``)."""
    return TableSession(opts, console, reader).run()
