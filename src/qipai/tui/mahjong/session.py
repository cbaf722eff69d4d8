"""A Daqing mahjong table in the terminal (``qipai play --game mahjong``): you and three bots, deal after deal.

You sit in seat 0; the bots (``efficiency`` by default) sit in seats 1–3.  Every deal is a
:class:`~qipai.games.mahjong.state.MahjongGame` made by the game's factory, and the match (the dealer, §2.2) is
carried from deal to deal by the factory, as the server does.

- **Your turn**: type the tile to discard (``5m``, ``7p``, ``9s``, ``Z``; ``打 5m``), ``ting 5m`` (``听 5m``) to
  discard and declare ready, ``hu`` (``胡``) to win where the rules ask.  A refused action gets the engine's
  reason (in Chinese words at a Chinese table, :mod:`.reasons`) and the question again; a Chinese table offers
  its choices as 碰 · 吃 456m · 过 (the English verbs are still read).
- **A claim window** on another seat's discard asks you only when you may claim: ``chi 456m`` (``吃``; the tiles
  may be left out when only one chow is possible), ``peng`` (``碰``), ``chi 456m ting`` / ``ct`` (``吃听``),
  ``peng ting`` / ``pt`` (``碰听``), ``hu``, or ``pass`` (``过``, Enter).
- **Ready** (听): from then on the engine draws and discards for you and declares your win; the 宝 is shown.
- **Auto-play** (``auto``, ``托管``) plays for you with the game's auto-play bot (``passive``).  With a timer a
  turn not played in time is a ``timeout`` (the drawn tile is discarded, auto-play starts, §9); a claim window's
  timer only passes.
- ``quit`` during a deal asks, then leaves (auto-play finishes the deal).  The end of input counts as leaving.
- Deal ``k`` of a table with seed ``S`` is shuffled from seed ``S + k - 1``; the bots' seeds come from ``S``.
  Every finished deal is written as a JSON record (``qipai replay`` reads it).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Console
from rich.text import Text

from ...core.game import GameFactory, IllegalAction
from ...games.mahjong.factory import FACTORY
from ...games.mahjong.state import MahjongGame
from ...games.mahjong.tiles import TileError, parse_tile
from ...games.mahjong.tiles import tile_name as tn
from ..commands import _cut
from ..i18n import bot_name
from ..reader import LineReader
from ..seats import HUMAN, YES_WORDS, BotTable, SeatOptions, cli_rules_and_bots
from .reasons import reason_words
from .view import action_words, event_line, hand_text, hint_lines, settlement_lines, table_lines
from .words import tr

GAME = "mahjong"

_WORDS: dict[str, str] = {}
for _name, _ws in {
    "pass": ("pass", "p", "过", "不要"),
    "hu": ("hu", "win", "胡", "和"),
    "peng": ("peng", "pung", "碰"),
    "peng ting": ("peng ting", "pt", "碰听"),
    "chi": ("chi", "chow", "吃"),
    "chi ting": ("chi ting", "ct", "吃听"),
    "ting": ("ting", "t", "听", "ready"),
    "discard": ("discard", "d", "打", "出"),
    "auto": ("auto", "autoplay", "托管", "解除托管"),
    "hand": ("hand", "手牌", "牌"),
    "hint": ("hint", "h", "提示"),
    "help": ("help", "?", "？", "帮助"),
    "rules": ("rules", "规则", "玩法", "玩法说明"),
    "quit": ("quit", "q", "exit", "退出", "逃跑"),
}.items():
    for _w in _ws:
        _WORDS[_w] = _name


def read_tile(text: str) -> str | None:
    """A typed tile in the engine's notation (``5M`` → ``5m``, ``中``/``z`` → ``Z``), else ``None``.

    >>> read_tile("5M"), read_tile("红中"), read_tile("x")
    ('5m', 'Z', None)
    """
    t = text.strip()
    if t in ("中", "红中", "z", "Z"):
        return "Z"
    t = t.lower()
    try:
        return tn(parse_tile(t))
    except (TileError, ValueError, KeyError, IndexError):
        return None


def parse_command(line: str) -> tuple[str, str]:
    """A typed line as ``(name, rest)``: ``discard``/``ting``/``chi``/``chi ting``/``peng``/``peng ting``/``hu``/
    ``pass`` or a table command, ``tile`` for a bare tile, ``empty``, or ``unknown``.

    >>> parse_command("听 5m"), parse_command("5m"), parse_command("吃听 456m"), parse_command("")
    (('ting', '5m'), ('tile', '5m'), ('chi ting', '456m'), ('empty', ''))
    """
    text = " ".join(line.replace("，", " ").split())
    if not text:
        return "empty", ""
    low = text.lower()
    if low in _WORDS:
        return _WORDS[low], ""
    words = low.split(" ")
    for n in (2, 1):
        head = " ".join(words[:n])
        if head in _WORDS and len(words) > n:
            name = _WORDS[head]
            rest = " ".join(text.split(" ")[n:])
            if name == "chi" and rest.lower().endswith(" ting"):
                return "chi ting", rest[:-5].strip()
            return name, rest
    for zh in ("吃听", "碰听", "吃", "听", "打", "碰"):  # 听5m, 打5m without a space
        if text.startswith(zh) and len(text) > len(zh):
            return _WORDS[zh], text[len(zh):].strip()
    if read_tile(text) is not None:
        return "tile", text
    return "unknown", text


ACTION_WORDS = ("pass", "hu", "peng", "peng ting", "chi", "chi ting", "tile", "discard", "ting")
"""The names of :func:`parse_command` that are moves (the rest are table commands)."""


def typed_action(name: str, rest: str, obs: dict[str, Any], legal: list[str],
                 lang: str) -> tuple[str | None, str | None]:
    """What a parsed line (:func:`parse_command`: a move's ``name`` and the rest, ``empty``, or a number choosing
    from ``legal``) means as an action of the observation's seat: ``(action, None)``, or ``(None, one line
    saying what is wrong)`` (``(None, None)``: nothing to do).  The rules themselves are checked by the engine
    (or the server).

    >>> obs = {"phase": "play", "must": "discard", "drawn": "5m", "hand": "1m 2m 5m"}
    >>> typed_action("empty", "", obs, [], "en"), typed_action("tile", "2M", obs, [], "en")
    (('discard 5m', None), ('discard 2m', None))
    """
    claim = obs["phase"] == "claim"
    if name == "empty":
        if claim or obs.get("must") in ("win", "dailou"):
            return "pass", None
        if obs.get("must") == "discard" and obs.get("drawn"):
            return f"discard {obs['drawn']}", None
        if obs.get("must") == "discard" and obs.get("hand"):
            return None, tr(lang, "err_no_drawn", example=hand_text(obs["hand"]).split()[-1])
        return None, None
    if name.isdigit() or (name == "unknown" and rest.isdigit()):
        i = int(rest) - 1
        return (legal[i] if 0 <= i < len(legal) else None), None
    if name in ("pass", "hu", "peng", "peng ting"):
        return name, None
    if name in ("chi", "chi ting"):
        chis = [a for a in legal if a.startswith("chi ") and a.endswith(" ting") == (name == "chi ting")]
        if rest:
            tiles = rest.lower().replace(" ", "")
            return f"chi {tiles}" + (" ting" if name == "chi ting" else ""), None
        if len(chis) == 1:
            return chis[0], None
        if chis:
            return None, tr(lang, "err_which_chi", opts=" · ".join(action_words(a, lang) for a in chis))
        return name, None  # the engine says why not
    parts = rest.split()
    tile = read_tile(parts[0]) if parts else None
    if tile is None:
        verb = action_words("discard" if name == "tile" else name, lang)
        return None, tr(lang, "err_tile", text=_cut(rest)) if rest else tr(lang, "err_which_tile", verb=verb)
    if name == "ting":
        extra = ""
        if len(parts) >= 3 and parts[1].lower() in ("zhidui", "支对"):
            y = read_tile(parts[2])
            extra = f" zhidui {y}" if y else ""
        return f"ting {tile}{extra}", None
    if obs.get("must") == "ting":
        return f"ting {tile}", None
    return f"discard {tile}", None


@dataclass
class MahjongOptions(SeatOptions):
    """How a mahjong terminal table is set up (the ``qipai play --game mahjong`` options; the bots default to
    the game's seat bot, ``efficiency``)."""

    deals: int = 0
    """Stop after this many deals (0: play on until you quit)."""


class MahjongSession(BotTable):
    """One mahjong table: the seats, the match, the deals, the records."""

    GAME: ClassVar[str] = GAME
    TITLE: ClassVar[str] = "mahjong"
    FACTORY: ClassVar[GameFactory] = FACTORY
    SEAT_BOT: ClassVar[str] = "efficiency"

    def __init__(self, opts: MahjongOptions, console: Console | None = None,
                 reader: LineReader | None = None) -> None:
        super().__init__(opts, tr, console, reader)
        self.opts: MahjongOptions = opts
        self.names = [tr(self.lang, "you")] + [tr(self.lang, "bot", i=i, bot=bot_name(n, self.lang))
                                               for i, n in enumerate(self.bot_kinds, start=1)]
        self.deals_played = 0
        self.game: MahjongGame | None = None
        self.shown = 0
        self.settled = False
        self.my_claim: tuple[int, str] | None = None
        """Your claim (its step, its action) while it is not known whether it was carried out."""
        self.ready_seats: set[int] = set()
        """Seats whose declaration of ready (听) has been shown (an automatic discard after it is the ready hand's)."""

    def parse(self, line: str) -> str:
        return parse_command(line)[0]

    # ------------------------------------------------------------------ the table
    def run(self) -> int:
        for note in self.notes:
            self.out(note, style="yellow")
        self.out(tr(self.lang, "title"), style="bold")
        self.out(tr(self.lang, "table_seed", seed=self.seed))
        self.out(tr(self.lang, "intro", right=self.names[1], across=self.names[2], left=self.names[3]))
        self.out(tr(self.lang, "legend"), style="dim")
        while True:
            try:
                self.play_deal()
            except (EOFError, KeyboardInterrupt):
                self.after_deal()
                break
            self.after_deal()
            if self.leaving or (self.opts.deals and self.deals_played >= self.opts.deals):
                break
            if not self.between():
                break
        self.finish(self.deals_played)
        return 0

    def play_deal(self) -> None:
        n = self.deals_played + 1
        seed = self.seed + n - 1
        g = FACTORY.new(self.options, seed, FACTORY.deal_context(self.options, self.match))
        self.game = g
        self.shown = 0
        self.settled = False
        self.my_claim = None
        self.ready_seats = set()
        self.console.rule(Text(f"{tr(self.lang, 'deal_no', n=n)} · {tr(self.lang, 'seed', seed=seed)}"))
        self.out(tr(self.lang, "dealer_is", name=self.names[g.dealer]))
        try:
            while g.phase != "over":
                self.flush()
                self.step()
        except (EOFError, KeyboardInterrupt):
            if g.phase != "over":
                self.leave()
                while g.phase != "over":
                    self.step()
            raise
        finally:
            self.flush()

    def flush(self) -> None:
        """Print the log entries not shown yet."""
        g = self.game
        assert g is not None
        obs = g.observe(HUMAN, hints=False)
        log = obs["log"]
        new = log[self.shown:]
        for e in new:
            line = event_line(e, self.names, self.lang, HUMAN, ready=e.get("seat") in self.ready_seats)
            if line:
                self.out(line, style="bold" if e["action"] == "hu" else "")
            if str(e["action"]).startswith("ting ") and isinstance(e.get("seat"), int):
                self.ready_seats.add(e["seat"])
        self.shown = len(log)
        self.settle_my_claim(new)

    def note_my_claim(self) -> None:
        """After your answer in a claim window: remember a claim (not a pass) until the window closes."""
        g = self.game
        assert g is not None
        if g.step_kinds and g.step_kinds[-1] == "answer" and g.actions[-1][0] == HUMAN:
            text = g.actions[-1][1]
            if text.split()[0] in ("chi", "peng", "hu"):
                self.my_claim = (len(g.actions) - 1, text)

    def settle_my_claim(self, new: list[dict[str, Any]]) -> None:
        """Once the window of your claim has closed: if a higher claim took the tile, say so (the log shows only
        the claim carried out)."""
        g = self.game
        assert g is not None
        if self.my_claim is None:
            return
        step, text = self.my_claim
        if g.phase == "claim" and g.window is not None and step in g.window.steps.values():
            return  # still waiting for the others' answers
        self.my_claim = None
        if step in g.carried:
            return
        winner = next((e["seat"] for e in new if isinstance(e.get("seat"), int) and e["seat"] != HUMAN
                       and str(e["action"]).split()[0] in ("chi", "peng", "hu")), None)
        claim = action_words(text, self.lang)
        if winner is None:
            self.out(tr(self.lang, "act_claim_lost_any", claim=claim), style="yellow")
        else:
            self.out(tr(self.lang, "act_claim_lost", claim=claim, name=self.names[winner]), style="yellow")

    def step(self) -> None:
        """One decision: the bots' (and the human's in auto-play) at once, the human's by asking."""
        g = self.game
        assert g is not None
        acting = list(g.acting)
        for s in acting:
            if g.phase == "over" or s not in g.acting:
                continue
            if s == HUMAN and not (g.in_autoplay(HUMAN) or self.leaving):
                continue
            self.bot_act(s)
        if g.phase != "over" and HUMAN in g.acting and not (g.in_autoplay(HUMAN) or self.leaving):
            self.flush()
            self.human_turn()

    def bot_act(self, s: int) -> None:
        g = self.game
        assert g is not None
        if s == HUMAN and self.opts.auto_delay > 0 and not self.leaving and self.reader.can_time_out:
            line = self.reader.readline(self.opts.auto_delay)
            if line is not None and parse_command(line)[0] == "auto":
                g.set_autoplay(HUMAN, False)
                self.out(tr(self.lang, "auto_off"), style="cyan")
                return
        bot = self.auto_bot if s == HUMAN else self.bots[s]
        assert bot is not None
        action = bot.act(g.observe(s), g.legal_actions(s))
        try:
            g.apply(action, s)
        except IllegalAction:
            g.timeout(s)
        if s == HUMAN:
            self.note_my_claim()

    # ------------------------------------------------------------------ the human
    def human_turn(self) -> None:
        g = self.game
        assert g is not None
        lang = self.lang
        obs = g.observe(HUMAN)
        for row in table_lines(obs, self.names, lang, HUMAN):
            self.out(row)
        legal = g.legal_actions(HUMAN)
        if obs["phase"] == "claim":
            d = obs["discard"]
            prompt = tr(lang, "prompt_claim", name=self.names[d["seat"]], tile=d["tile"], opts=self.options_text(legal))
        elif obs.get("must") in ("win", "dailou"):
            prompt = tr(lang, "prompt_win")
        elif obs.get("must") == "ting":
            prompt = tr(lang, "prompt_ting", opts=self.options_text(legal))
        else:
            tings = [a for a in legal if a.startswith("ting ")]
            if tings:
                self.out(tr(lang, "ting_can", opts=self.options_text(tings)), style="green")
            example = obs["drawn"] or hand_text(obs["hand"]).split()[-1]
            # after a chow or pung there is no drawn tile for Enter to discard (nor a win to declare)
            prompt = tr(lang, "prompt_turn" if obs["drawn"] else "prompt_turn_claimed", example=example)
        limit = (self.opts.timer_seconds or g.time_limit(HUMAN)) if self.timer else None
        deadline = time.monotonic() + limit if limit else None
        dix = g.decision_index(HUMAN)
        while g.phase != "over" and HUMAN in g.acting and g.decision_index(HUMAN) == dix:
            p = prompt + (tr(lang, "prompt_time", s=max(0, round(deadline - time.monotonic()))) if deadline else "")
            line = self.ask(p + " > ", deadline)
            if line is None:
                self.out(tr(lang, "timeout"), style="yellow")
                g.timeout(HUMAN)
                return
            action = self.action_for(line, obs, legal)
            if action is None:
                if self.leaving or g.in_autoplay(HUMAN):
                    return
                continue
            err = g.check(action, HUMAN)
            if err is not None:
                self.error(tr(lang, "refused", reason=reason_words(lang, err)))
                continue
            g.apply(action, HUMAN)
            self.note_my_claim()
            return

    def options_text(self, actions: list[str]) -> str:
        """The actions offered, as the player reads (and may type) them: ``peng · pass`` (``碰 · 过``)."""
        return " · ".join(action_words(a, self.lang) for a in actions)

    def action_for(self, line: str, obs: dict[str, Any], legal: list[str]) -> str | None:
        """The action a typed line means now, or ``None`` (a table command was done, or an error said)."""
        g = self.game
        assert g is not None
        lang = self.lang
        name, rest = parse_command(line)
        if name in ACTION_WORDS or name == "empty" or name.isdigit() or (name == "unknown" and rest.isdigit()):
            action, err = typed_action(name, rest, obs, legal, lang)
            if err is not None:
                self.error(err)
            return action
        if name == "auto":
            g.set_autoplay(HUMAN, not g.in_autoplay(HUMAN))
            self.out(tr(lang, "auto_on" if g.in_autoplay(HUMAN) else "auto_off"), style="cyan")
            return None
        if name == "hand":
            for text in table_lines(obs, self.names, lang, HUMAN):
                self.out(text)
            return None
        if name == "hint":
            for text in hint_lines(obs, lang) or [tr(lang, "no_hint")]:
                self.out(text, style="green")
            return None
        if name == "help":
            self.out(tr(lang, "help"))
            return None
        if name == "rules":
            self.show_rules()
            return None
        if name == "quit":
            answer = self.ask(tr(lang, "prompt_confirm") + " > ", None, confirm=True)
            if answer is not None and answer.strip().lower() in YES_WORDS:
                self.leave()
            else:
                self.out(tr(lang, "quit_cancel"))
            return None
        self.error(tr(lang, "err_unknown", text=_cut(line.strip())))
        return None

    def leave(self) -> None:
        g = self.game
        assert g is not None
        self.leaving = True
        if g.phase != "over" and not g.left[HUMAN]:
            g.leave(HUMAN)
            self.out(tr(self.lang, "leaving"), style="yellow")

    # ------------------------------------------------------------------ between deals
    def after_deal(self) -> None:
        g = self.game
        if g is None or g.phase != "over" or self.settled:
            return
        self.settled = True
        out = g.outcome()
        assert out is not None
        for line in settlement_lines(out, self.names, self.lang):
            self.out(line)
        for i, s in enumerate(out["scores"]):
            self.totals[i] += s
        self.match = FACTORY.match_after(self.options, self.match, out)
        self.deals_played += 1
        self.write_record(g)

    def write_record(self, g: MahjongGame) -> None:
        self.save_record(g.record(), f"deal{self.deals_played}")


def run_mahjong(opts: MahjongOptions, console: Console | None = None, reader: LineReader | None = None) -> int:
    """Set up a mahjong table and play it (the body of ``qipai play --game mahjong``)."""
    return MahjongSession(opts, console, reader).run()


def run_from_cli(*, seed: int | None, bots: str | None, lang: str, deals: int, timer: bool,
                 timer_seconds: int | None, auto_delay: float, records: Path | None, clear: bool | None,
                 preset: str | None, options: list[str] | None, **_ignored: Any) -> int:
    """``qipai play --game mahjong`` with the command's options (``-o KEY=VALUE`` rule options, ``--rules
    daqing``).  Raises :class:`SetupError` for bad options."""
    rules, names = cli_rules_and_bots(options, preset, bots)
    opts = MahjongOptions(seed=seed, lang=lang, deals=deals, rules=rules, timer=timer, timer_seconds=timer_seconds,
                          auto_delay=auto_delay, records=records, clear=clear, bots=names)
    return run_mahjong(opts)
