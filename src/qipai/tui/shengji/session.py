"""A Shengji table in the terminal (``qipai play --game shengji``): you and three bots, one match.

You sit in seat 0 with the bot in seat 2 as partner (team A); seats 1 and 3 are team B.  Every hand is a
:class:`~qipai.games.shengji.game.ShengjiGame` made by the game's factory, and the match (levels, banker) is
carried from hand to hand by the factory, exactly as the server does.

- **The deal** runs by itself at the table's pace (``deal_step_ms``, 150 ms a card by default): each card opens a
  declaration window that the bots answer at once and that closes when its time is up.  Whenever you get a level
  card the table says which declaration you could make; type ``declare 3S 3S`` (or ``d 3S 3S``) at any moment and
  it lands in the window open then.  After the last card the final window waits for you (Enter passes).
- **The play**: type the cards (``7S 7S 8S 8S``); a play the rules refuse gets the engine's reason in one line
  (in Chinese words at a Chinese table, :mod:`.reasons`) and the question again.  ``hint`` suggests plays (the
  rule bot's choice first), Enter plays the one shown.
- **Auto-play** (``auto``) plays for you with the table's auto-play bot (``auto_play``: ``passive`` or ``smart``)
  and waits ``auto_delay`` seconds at each of your turns for you to type ``auto`` again.  With a timer a play not
  made in time is a ``timeout``: the engine plays the lowest legal play and auto-play starts (§9.2); a window's
  timer only passes.
- ``quit`` during a hand asks, then leaves: under ``escape_penalty`` the hand and the match end at once with the
  penalty, otherwise auto-play finishes the hand and the table ends.  The end of input counts as leaving.
- Hand ``k`` of a table with seed ``S`` is shuffled from seed ``S + k - 1``; the bots' seeds come from ``S``, so
  the same seed and the same typed input give the same table (the deal's pace aside: what you type during the
  deal lands in whichever window is open).  Every finished hand is written as a JSON record.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Console
from rich.text import Text

from ...bots import get_bot
from ...core.game import GameFactory, IllegalAction
from ...games.shengji.cards import card
from ...games.shengji.factory import FACTORY
from ...games.shengji.game import ShengjiGame
from ..commands import _cut
from ..i18n import bot_name
from ..reader import LineReader
from ..seats import HUMAN, YES_WORDS, BotTable, SeatOptions, cli_rules_and_bots
from .reasons import reason_words
from .view import (
    cards_plain,
    cards_text,
    hand_lines,
    last_trick_line,
    level_cards,
    settlement_lines,
    status_lines,
    trump_text,
)
from .words import tr

GAME = "shengji"

_ALIASES: dict[str, str] = {}
for _name, _words in {
    "pass": ("pass", "p", "不叫", "过"),
    "hint": ("hint", "h", "提示"),
    "auto": ("auto", "autoplay", "托管", "解除托管"),
    "hand": ("hand", "手牌"),
    "last": ("last", "上一轮", "上手"),
    "history": ("history", "hist", "历史"),
    "help": ("help", "?", "？", "帮助"),
    "rules": ("rules", "规则", "玩法", "玩法说明"),
    "quit": ("quit", "q", "exit", "退出", "逃跑"),
}.items():
    for _w in _words:
        _ALIASES[_w] = _name
_DECLARE_WORDS = ("declare", "d", "叫主", "亮主", "叫")
_TYPED = {"♠": "S", "♥": "H", "♣": "C", "♦": "D", "大王": " R ", "小王": " B ", "，": " "}


def parse_command(line: str) -> tuple[str, str]:
    """A typed line as ``(name, arg)``: a command (``hint``, ``quit`` …), ``declare``/``play`` with the typed
    cards, or ``empty``.

    >>> parse_command("d 3s 3s"), parse_command("10♥ 10♥"), parse_command("托管")
    (('declare', '3s 3s'), ('play', '10H 10H'), ('auto', ''))
    """
    text = line.strip()
    for a, b in _TYPED.items():
        text = text.replace(a, b)
    text = " ".join(text.split())
    if not text:
        return "empty", ""
    low = text.lower()
    if low in _ALIASES:
        return _ALIASES[low], ""
    word, _, rest = text.partition(" ")
    if word.lower() in _DECLARE_WORDS:
        return "declare", rest
    if word.lower() == "play":
        return "play", rest
    return "play", text


def read_cards(text: str) -> tuple[str | None, str | None]:
    """``(cards in the engine's notation, None)`` or ``(None, the first token that is not a card)``.

    >>> read_cards("10h, 10h b"), read_cards("7S 7X")
    (('TH TH B', None), (None, '7X'))
    """
    out = []
    for tok in text.replace(",", " ").split():
        t = tok.upper()
        if t.startswith("10"):
            t = "T" + t[2:]
        try:
            card(t)
        except ValueError:
            return None, tok
        out.append(t)
    return " ".join(out), None


@dataclass
class ShengjiOptions(SeatOptions):
    """How a Shengji terminal table is set up (the ``qipai play --game shengji`` options: rule options over the
    ``four_deck`` preset, ``deal_step_ms``, ``start_level``, ``hand_limit`` …; the bots default to ``rule``)."""

    hands: int = 0
    """Stop after this many hands (0: when the match ends)."""


@dataclass
class HandSummary:
    hand_no: int
    banker: int | None
    level: str
    score: int | None
    winning_team: int | None
    levels_after: list[str]
    scores: list[int]


class ShengjiSession(BotTable):
    """One Shengji table: the seats, the match, the hands, the records."""

    GAME: ClassVar[str] = GAME
    TITLE: ClassVar[str] = "Shengji"
    FACTORY: ClassVar[GameFactory] = FACTORY
    DEFAULTS: ClassVar[dict[str, Any]] = {"preset": "four_deck"}
    INFO: ClassVar[tuple[str, ...]] = ("history", "help", "last", "rules")

    def __init__(self, opts: ShengjiOptions, console: Console | None = None,
                 reader: LineReader | None = None) -> None:
        super().__init__(opts, tr, console, reader)
        self.opts: ShengjiOptions = opts
        lang = self.lang
        self.advisor = get_bot("rule", self.seed * 31 + 11, game=GAME)
        self.names = [tr(lang, "you")] + [tr(lang, "bot", i=i, bot=bot_name(n, lang))
                                          for i, n in enumerate(self.bot_kinds, start=1)]
        self.short = [tr(lang, "you")] + [tr(lang, "bot_short", i=i) for i in range(1, 4)]
        self.teams = [f"{tr(lang, 'team_a')} ({self.short[0]}+{self.short[2]})",
                      f"{tr(lang, 'team_b')} ({self.short[1]}+{self.short[3]})"]
        self.history: list[HandSummary] = []
        self.hand_no = 0
        self.game: ShengjiGame | None = None
        self._seen: dict[str, Any] = {}

    def parse(self, line: str) -> str:
        return parse_command(line)[0]

    # ------------------------------------------------------------------ the table
    def run(self) -> int:
        for note in self.notes:
            self.out(note, style="yellow")
        self.out(tr(self.lang, "title"), style="bold")
        self.out(tr(self.lang, "table_seed", seed=self.seed))
        self.out(tr(self.lang, "intro", partner=self.names[2], left=self.names[1], right=self.names[3]))
        self.out(tr(self.lang, "legend"), style="dim")
        while True:
            self.hand_no += 1
            try:
                self.play_hand()
            except (EOFError, KeyboardInterrupt):
                self.after_hand()
                break
            self.after_hand()
            if self.leaving or self.match.get("over") or (self.opts.hands and self.hand_no >= self.opts.hands):
                break
            if not self.between():
                break
        self.finish(len(self.history))
        return 0

    def play_hand(self) -> None:
        ctx = FACTORY.deal_context(self.options, self.match)
        seed = self.seed + self.hand_no - 1
        g = FACTORY.new(self.options, seed, ctx)
        self.game = g
        self._seen = {"decls": 0, "tricks": 0, "in_trick": 0, "failed": 0, "auto": [False] * 4, "level_cards": 0,
                      "progress": 0, "left": [False] * 4}
        self.console.rule(Text(f"{tr(self.lang, 'hand_no', n=self.hand_no)} · {tr(self.lang, 'seed', seed=seed)}"))
        for line in status_lines(g.observe(HUMAN), self.short, self.teams, self.lang)[:2]:
            self.out(line)
        try:
            self.deal_phase()
            self.final_phase()
            self.play_phase()
        except (EOFError, KeyboardInterrupt):
            if not g.is_over:
                self.leave()
                self.play_rest()
            self.flush()
            raise

    # ------------------------------------------------------------------ the deal
    def answer_bots(self) -> None:
        """Every bot seat (and the human seat in auto-play) answers the open window."""
        g = self.game
        assert g is not None
        for s in list(g.acting):
            if g.phase not in ("deal", "final") or s not in g.acting:
                break
            if s == HUMAN and not (g.in_autoplay(HUMAN) or self.leaving):
                continue
            self.bot_act(s)

    def bot_act(self, s: int) -> None:
        g = self.game
        assert g is not None
        bot = self.auto_bot if s == HUMAN else self.bots[s]
        assert bot is not None
        action = bot.act(g.observe(s), g.legal_actions(s))
        try:
            g.apply(action, s)
        except IllegalAction:
            g.timeout(s)

    def deal_phase(self) -> None:
        g = self.game
        assert g is not None
        lang = self.lang
        obs = g.observe(HUMAN)
        lv = obs["level"]
        first = obs["first"]
        self.out(tr(lang, "dealing", name=self.short[first], level="10" if lv == "T" else lv,
                    example=f"{lv}S"), style="cyan")
        step = float(self.options["deal_step_ms"]) / 1000.0
        while g.phase == "deal":
            window = g.dealt
            self.answer_bots()
            self.flush()
            if g.phase != "deal" or g.dealt != window:
                continue
            self.note_cards()
            deadline = time.monotonic() + step
            while g.phase == "deal" and g.dealt == window and HUMAN in g.acting and not g.in_autoplay(HUMAN):
                line = self.poll(deadline)
                if line is None:
                    break
                self.deal_command(line, final=False)
            if g.phase == "deal" and g.dealt == window and g.acting:
                g.timeout(g.acting[0])  # the window's time is up: the silent seats pass (no auto-play)

    def note_cards(self) -> None:
        """Say when the human got a level card (and what it could declare), and how far the deal is."""
        g = self.game
        assert g is not None
        obs = g.observe(HUMAN)
        mine = level_cards(obs["hand"], obs["level"])
        if len(mine) > self._seen["level_cards"]:
            old = self._seen.get("mine", [])
            new = list((Counter(mine) - Counter(old)).elements())
            self._seen["level_cards"] = len(mine)
            self._seen["mine"] = mine
            decl = declare_options(g.legal_actions(HUMAN))
            how = (tr(self.lang, "type_declare", action=tr(self.lang, "or").join(decl)) if decl
                   else tr(self.lang, "cannot_overcall"))
            self.out(tr(self.lang, "got_level", dealt=obs["dealt"], card=cards_plain(new, self.lang),
                        mine=cards_plain(mine, self.lang), how=how), style="green")
        if obs["dealt"] // 54 > self._seen["progress"]:
            self._seen["progress"] = obs["dealt"] // 54
            self.out(tr(self.lang, "deal_progress", dealt=obs["dealt"]), style="dim")

    def deal_command(self, line: str, final: bool) -> bool:
        """A line typed during the deal.  Returns whether it answered the window."""
        g = self.game
        assert g is not None
        name, arg = parse_command(line)
        if name == "declare":
            cards, bad = read_cards(arg)
            if cards is None:
                self.error(tr(self.lang, "err_unreadable", token=_cut(bad or "")))
                return False
            err = g.check("declare " + cards, HUMAN)
            if err is not None:
                self.error(tr(self.lang, "refused_declare", reason=reason_words(self.lang, err)))
                return False
            g.apply("declare " + cards, HUMAN)
            self.flush()
            return True
        if name == "pass" or (name == "empty" and final):
            g.apply("pass", HUMAN)
            return True
        if name == "hand":
            self.show_hand()
        elif name == "auto":
            g.set_autoplay(HUMAN, not g.in_autoplay(HUMAN))
            self.out(tr(self.lang, "auto_on" if g.in_autoplay(HUMAN) else "auto_off"), style="cyan")
            return g.in_autoplay(HUMAN)
        elif name == "quit":
            return self.quit_hand(None)
        elif name in ("help", "history", "last", "rules"):
            self.info(name)
        elif name != "empty":
            self.error(tr(self.lang, "err_final" if final else "err_phase"))
        return False

    def final_phase(self) -> None:
        g = self.game
        assert g is not None
        lang = self.lang
        announced = False
        while g.phase == "final":
            dix = g.decision_index(HUMAN)
            self.answer_bots()
            self.flush()
            if g.phase != "final":
                break
            if HUMAN not in g.acting or g.in_autoplay(HUMAN) or self.leaving:
                if g.decision_index(HUMAN) == dix and g.acting:
                    g.timeout(g.acting[0])
                continue
            limit = (self.opts.timer_seconds or g.time_limit(HUMAN)) if self.timer else None
            if not announced:
                self.out(tr(lang, "final_window") + (tr(lang, "final_window_time", s=f"{limit:g}") if limit else "")
                         + tr(lang, "full_stop"), style="bold cyan")
                announced = True
            self.show_hand()
            deadline = time.monotonic() + limit if limit else None
            decl = declare_options(g.legal_actions(HUMAN))
            standing = g.standing
            if decl:
                prompt = tr(lang, "prompt_final", example=tr(lang, "or").join(decl))
            elif standing is not None and standing[0] == HUMAN:
                prompt = tr(lang, "prompt_final_own")
            else:
                prompt = tr(lang, "prompt_final_none")
            while g.phase == "final" and HUMAN in g.acting and g.decision_index(HUMAN) == dix:
                p = prompt + (tr(lang, "prompt_time", s=max(0, round(deadline - time.monotonic())))
                              if deadline else "") + " > "
                line = self.ask(p, deadline)
                if line is None:
                    g.timeout(HUMAN)
                    break
                if self.deal_command(line, final=True) or self.leaving:
                    break
        self.flush()
        obs = g.observe(HUMAN)
        rev = obs.get("revealed")
        if rev is not None:
            self.out(tr(lang, "revealed", suit=trump_text(obs, lang), name=self.short[rev["seat"]],
                        cards=cards_plain(rev["cards"], lang)), style="bold")
        elif obs["phase"] == "play":
            self.out(tr(lang, "no_declaration"), style="bold")
        if obs["banker"] is not None and obs["phase"] == "play":
            self.out(tr(lang, "banker_is", name=self.short[obs["banker"]], level=obs["level"]))

    # ------------------------------------------------------------------ the play
    def play_phase(self) -> None:
        g = self.game
        assert g is not None
        while not g.is_over:
            if self.leaving:
                self.play_rest()
                break
            seat = g.acting[0]
            if seat == HUMAN:
                if g.in_autoplay(HUMAN):
                    self.auto_turn()
                else:
                    self.human_turn()
            else:
                self.bot_act(seat)
            self.flush()

    def play_rest(self) -> None:
        g = self.game
        assert g is not None
        while not g.is_over:
            for s in list(g.acting):
                if s in g.acting:
                    self.bot_act(s)
            if g.phase in ("deal", "final") and g.acting:
                g.timeout(g.acting[0])
            self.flush()

    def show_hand(self) -> None:
        g = self.game
        assert g is not None
        obs = g.observe(HUMAN)
        n = len(obs["hand"].split())
        self.out(tr(self.lang, "your_hand", n=n, s="" if n == 1 else "s"))
        for line in hand_lines(obs["hand"], obs["level"], obs["trump"], self.lang):
            self.out(line)

    def show_screen(self) -> None:
        g = self.game
        assert g is not None
        if self.clear:
            self.console.clear()
        for line in status_lines(g.observe(HUMAN), self.short, self.teams, self.lang):
            self.out(line)
        self.show_hand()

    def hints(self) -> list[str]:
        """The rule bot's choice first, then the engine's hint list (the lowest legal play first)."""
        g = self.game
        assert g is not None
        legal = g.legal_actions(HUMAN)
        best = self.advisor.act(g.observe(HUMAN), list(legal))
        out = [best] if g.check(best, HUMAN) is None else []
        return out + [a for a in legal if a != best]

    def human_turn(self) -> None:
        g = self.game
        assert g is not None
        lang = self.lang
        self.show_screen()
        limit = (self.opts.timer_seconds or g.time_limit(HUMAN)) if self.timer else None
        deadline = time.monotonic() + limit if limit else None
        obs = g.observe(HUMAN)
        lead = obs["lead"]
        n = lead["n"] if lead else 0
        prompt = tr(lang, "prompt_lead") if lead is None else tr(
            lang, "prompt_follow", cards=cards_plain(lead["cards"], lang), n=n, s="" if n == 1 else "s")
        hints: list[str] | None = None
        hi = -1
        while True:
            p = prompt + (tr(lang, "prompt_time", s=max(0, round(deadline - time.monotonic()))) if deadline else "")
            line = self.ask(p + " > ", deadline)
            if line is None:
                g.timeout(HUMAN)
                self.out(tr(lang, "timeout", what=tr(lang, "timeout_play", cards=cards_plain(
                    self._just_played(HUMAN), lang))), style="yellow")
                return
            name, arg = parse_command(line)
            if name == "empty":
                if hints and hi >= 0:
                    if self.apply_human(hints[hi]):
                        return
                else:
                    self.error(tr(lang, "err_empty"))
            elif name == "hint":
                if hints is None:
                    hints = self.hints()
                hi = (hi + 1) % len(hints)
                self.out(tr(lang, "hint", i=hi + 1, n=len(hints), cards=cards_plain(hints[hi][5:], lang)),
                         style="green")
            elif name == "play":
                cards, bad = read_cards(arg)
                if cards is None:
                    self.error(tr(lang, "err_unreadable", token=_cut(bad or "")))
                elif not cards:
                    self.error(tr(lang, "err_empty"))
                elif self.apply_human("play " + cards):
                    return
            elif name == "declare":
                self.error(tr(lang, "err_declare_over", n=n or 1, s="" if n == 1 else "s"))
            elif name == "pass":
                self.error(tr(lang, "err_must_play", n=n or 1, s="" if n <= 1 else "s"))
            elif name == "auto":
                g.set_autoplay(HUMAN, True)
                self.out(tr(lang, "auto_on"), style="cyan")
                return
            elif name == "quit":
                if self.quit_hand(deadline):
                    return
            elif name == "hand":
                self.show_hand()
            else:
                self.info(name)

    def _just_played(self, seat: int) -> str:
        """The cards ``seat`` played last (in the trick in progress, else in the last trick)."""
        g = self.game
        assert g is not None
        obs = g.observe(HUMAN)
        for plays in (obs["trick"], (obs["last_trick"] or {}).get("plays", [])):
            for s, cards in plays:
                if s == seat:
                    return str(cards)
        return ""

    def apply_human(self, action: str) -> bool:
        """Apply the human's play; a refusal is the engine's reason in one line (in Chinese: in Chinese words)."""
        g = self.game
        assert g is not None
        err = g.check(action, HUMAN)
        if err is not None:
            self.error(tr(self.lang, "refused", reason=reason_words(self.lang, err)))
            return False
        g.apply(action, HUMAN)
        return True

    def auto_turn(self) -> None:
        g = self.game
        assert g is not None
        if not self.leaving and self.reader.can_time_out:
            try:
                line = self.reader.readline(self.opts.auto_delay)
            except KeyboardInterrupt:
                line = "quit"
            if line is not None:
                name, _ = parse_command(line)
                if name == "auto":
                    g.set_autoplay(HUMAN, False)
                    self.out(tr(self.lang, "auto_off"), style="cyan")
                    return
                if name == "quit":
                    self.quit_hand(None)
                    return
                if name in ("hand", "last", "history", "help", "rules"):
                    self.show_hand() if name == "hand" else self.info(name)
                    return
                if name != "empty":
                    self.error(tr(self.lang, "err_auto_on"))
                    return
        self.bot_act(HUMAN)

    # ------------------------------------------------------------------ events
    def flush(self) -> None:
        """A line for each public event since the last call (declarations, plays, tricks, failed throws,
        auto-play changes)."""
        g = self.game
        assert g is not None
        lang = self.lang
        obs = g.observe(HUMAN)
        seen = self._seen
        decls = obs["declarations"]
        for seat, k, _at in decls[seen["decls"]:]:
            if seat == HUMAN:
                mine = obs["my_declarations"]
                self.out(tr(lang, "declared_you", cards=cards_plain(mine[-1][1], lang)), style="bold green")
            else:
                self.out(tr(lang, "declared_other", name=self.short[seat], k=k, s="" if k == 1 else "s"),
                         style="bold")
        seen["decls"] = len(decls)
        for ft in obs["failed_throws"][seen["failed"]:]:
            self.out(tr(lang, "failed_throw", name=self.short[ft["seat"]], cards=cards_plain(ft["cards"], lang),
                        forced=cards_plain(ft["forced"], lang), pen=ft["penalty"]), style="yellow")
        seen["failed"] = len(obs["failed_throws"])
        tricks = obs["tricks"]
        while seen["tricks"] < len(tricks):
            t = tricks[seen["tricks"]]
            for seat, cards in t["plays"][seen["in_trick"]:]:
                self._play_line(seat, cards)
            seen["tricks"] += 1
            seen["in_trick"] = 0
            att = obs["points"]["attackers"] if seen["tricks"] < len(tricks) or obs["phase"] == "play" else None
            banker = obs["banker"]
            attackers_won = banker is None or t["winner"] % 2 != banker % 2
            key = "act_trick_none" if not t["points"] else "act_trick_att" if attackers_won else "act_trick_bank"
            now = "act_trick_now" if attackers_won and t["points"] else "act_trick_still"
            extra = tr(lang, now, att=att) if att is not None and seen["tricks"] == len(tricks) else ""
            self.out(tr(lang, key, k=seen["tricks"], name=self.short[t["winner"]], points=t["points"],
                        extra=extra), style="dim")
        for seat, cards in obs["trick"][seen["in_trick"]:]:
            self._play_line(seat, cards)
        seen["in_trick"] = len(obs["trick"])
        for s in range(4):
            if obs["autoplay"][s] != seen["auto"][s]:
                self.out(tr(lang, "act_autoplay_on" if obs["autoplay"][s] else "act_autoplay_off",
                            name=self.short[s]), style="cyan")
            if obs["left"][s] and not seen["left"][s]:
                self.out(tr(lang, "act_left", name=self.short[s]), style="yellow")
        seen["auto"] = list(obs["autoplay"])
        seen["left"] = list(obs["left"])

    def _play_line(self, seat: int, cards: str) -> None:
        t = Text(f"{self.short[seat]}: ")
        t.append_text(cards_text(cards, self.lang))
        self.out(t)

    # ------------------------------------------------------------------ leaving
    def leave(self) -> None:
        g = self.game
        assert g is not None
        self.leaving = True
        if not g.is_over and not g.left[HUMAN]:
            g.leave(HUMAN)
        if not g.is_over:
            self.out(tr(self.lang, "leaving"), style="yellow")

    def quit_hand(self, deadline: float | None) -> bool:
        """``quit`` during a hand: say what it costs, ask (untimed), then leave.  Returns whether the turn is
        over."""
        g = self.game
        assert g is not None
        if self.options["escape_penalty"]:
            self.out(tr(self.lang, "quit_penalty", n=3 * self.options["stake"]), style="bold yellow")
        else:
            self.out(tr(self.lang, "quit_plain"), style="bold yellow")
        answer = self.ask(tr(self.lang, "prompt_confirm"), None, confirm=True)  # the question stops the clock
        if answer is not None and answer.strip().lower() in YES_WORDS:
            self.leave()
            return True
        self.out(tr(self.lang, "quit_cancel"))
        return False

    # ------------------------------------------------------------------ between hands
    def after_hand(self) -> None:
        g = self.game
        if g is None or not g.is_over or (self.history and self.history[-1].hand_no == self.hand_no):
            return
        out = g.outcome()
        assert out is not None
        for line in settlement_lines(out, self.short, self.teams, self.lang):
            self.out(line)
        for i, s in enumerate(out["scores"]):
            self.totals[i] += s
        self.match = FACTORY.match_after(self.options, self.match, out)
        self.history.append(HandSummary(self.hand_no, out["banker"], out["level"], out.get("score"),
                                        out.get("winning_team"), list(self.match["levels"]), list(out["scores"])))
        self.write_record(g)

    def write_record(self, g: ShengjiGame) -> None:
        self.save_record(g.record(), f"hand{self.hand_no}")

    def info(self, name: str) -> None:
        lang = self.lang
        g = self.game
        if name == "help":
            self.out(tr(lang, "help"))
        elif name == "rules":
            self.show_rules()
        elif name == "last":
            line = last_trick_line(g.observe(HUMAN), self.short, lang) if g is not None else None
            self.out(line if line is not None else Text(tr(lang, "no_trick"), style="yellow"))
        elif name == "history":
            if not self.history:
                self.out(tr(lang, "no_history"), style="yellow")
                return
            self.out(tr(lang, "history_head"), style="bold")
            for h in self.history:
                win = "-" if h.winning_team is None else "AB"[h.winning_team]
                banker = self.short[h.banker] if h.banker is not None else "-"
                self.out(f"{h.hand_no:<5} {banker:<7} {h.level:<6} {h.score if h.score is not None else '-':<6} "
                         f"{win:<7} {' '.join(h.levels_after)}")

def declare_options(legal: list[str]) -> list[str]:
    """The declarations to suggest among the legal actions: in each suit the one that shows the most cards (the
    hardest to overcall), the longest first.

    >>> declare_options(["pass", "declare 3S", "declare 3S 3S", "declare 3H", "declare 3H 3H 3H"])
    ['declare 3H 3H 3H', 'declare 3S 3S']
    >>> declare_options(["pass"])
    []
    """
    best: dict[str, str] = {}
    for a in legal:
        if a.startswith("declare "):
            suit = a.split()[1][-1]
            if len(a) > len(best.get(suit, "")):
                best[suit] = a
    return sorted(best.values(), key=lambda a: -len(a.split()))


def run_shengji(opts: ShengjiOptions, console: Console | None = None, reader: LineReader | None = None) -> int:
    """Set up a Shengji table and play it (the body of ``qipai play --game shengji``)."""
    return ShengjiSession(opts, console, reader).run()


def run_from_cli(*, seed: int | None, bots: str | None, lang: str, deals: int, timer: bool,
                 timer_seconds: int | None, auto_delay: float, records: Path | None, clear: bool | None,
                 preset: str | None, options: list[str] | None, **_ignored: Any) -> int:
    """``qipai play --game shengji`` with the command's options (``-o KEY=VALUE`` rule options; ``--deals``: hands;
    ``--points`` does not apply).  Raises :class:`SetupError` for bad options."""
    rules, names = cli_rules_and_bots(options, preset, bots)
    opts = ShengjiOptions(seed=seed, lang=lang, hands=deals, rules=rules, timer=timer, timer_seconds=timer_seconds,
                          auto_delay=auto_delay, records=records, clear=clear, bots=names)
    return run_shengji(opts)
