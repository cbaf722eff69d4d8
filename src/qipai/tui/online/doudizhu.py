"""Dou Dizhu in ``qipai online``: the table drawn from the server's observation of this seat (no
:class:`~qipai.games.doudizhu.state.Game` on this side), with the local table's card labels and colours, and
typed plays read as at ``qipai play`` — but checked against the legal actions the server sent.

>>> from qipai.tui.online.base import Seats
>>> v = DouDizhuView("en", Seats(["You", "Bot 1", "Bot 2"], 0, [1000, None, None]))
>>> st = {"phase": "play", "legal": ["pass", "play 5", "play 55", "play 3334"], "hints": None,
...       "observation": {"rules": {}, "hand": ["5S", "5H", "3S", "3H", "3D", "4C"],
...                       "trick": {"last": "4", "kind": "single"}}}
>>> v.read("p", st).action, v.read("5", st).action
('pass', 'play 5')
>>> [t.plain for t in v.read("66", st).out + v.read("55", st).out]
['You do not hold 6 6: missing 6 6.', '5 5 (pair) does not beat 4 (single).']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...games.doudizhu.cards import RANK_LETTERS
from ...games.doudizhu.combos import Move, parse_move
from ...games.doudizhu.rules import PRESETS, Rules
from ...games.doudizhu.text import factor_name
from ..commands import _cut, check_play, parse_command, ranks_label
from ..i18n import kind_name, refusal, tr, tr_text
from ..render import TrickView, card_label, cards_text, doubling_word, other_event_line, trick_text
from .base import GameView, Reply, State

_CHOICES_ZH = {("bid", "pass"): "不叫", ("bid", "call"): "叫地主", ("double", "pass"): "不加倍",
               ("show", "pass"): "不亮", ("show", "show"): "明牌"}

_HELP = {
    "en": ("Dou Dizhu: type the ranks to play (33344, 10 10 J J Q Q; add :kind when cards read two ways), pass (p), "
           "hint (h; Enter plays the hint shown), sort, last (the previous trick); bids: 1, 2, 3 or pass."),
    "zh": ("斗地主：输入要出的点数（33344、10 10 J J Q Q；一手牌有两种读法时加 :牌型），pass/p 不出，"
           "hint/h 提示（回车出提示的牌），sort 排序，last 上手牌；叫分：1、2、3 或 pass。"),
}


def rules_of(obs: Mapping[str, Any]) -> Rules:
    """The deal's rules from the options its observation carries (classic when it carries none)."""
    opts = obs.get("rules")
    if not opts:
        return PRESETS["classic"]
    return Rules.from_options(opts)


def tricks_of(history: Sequence[Mapping[str, Any]]) -> tuple[list[TrickView], TrickView]:
    """The finished tricks of the deal and the trick in progress, read from the public history."""
    done: list[TrickView] = []
    cur = TrickView()
    for ev in history:
        e = ev.get("event")
        if e == "deal":
            done, cur = [], TrickView()
        elif e == "play":
            cur.plays.append((ev["seat"], list(ev["cards"])))
            cur.kinds.append(ev.get("kind"))
        elif e == "pass":
            cur.plays.append((ev["seat"], None))
            cur.kinds.append(None)
        elif e == "trick":
            cur.winner = ev["winner"]
            done.append(cur)
            cur = TrickView()
    return done, cur


def last_move(obs: Mapping[str, Any], rules: Rules) -> Move | None:
    """The move to beat in the trick in progress, or ``None`` when leading."""
    trick = obs.get("trick") or {}
    last = trick.get("last")
    if not last:
        return None
    kind = trick.get("kind")
    try:
        return parse_move(f"{last}:{kind}" if kind else str(last), rules)
    except ValueError:
        return parse_move(str(last), rules)


def hand_counts(hand: Sequence[str]) -> list[int]:
    """Cards held per rank (the index of :data:`RANK_LETTERS`)."""
    counts = [0] * len(RANK_LETTERS)
    for tok in hand:
        counts[RANK_LETTERS.index(tok[0])] += 1
    return counts


def sorted_hand(hand: Sequence[str], mode: str) -> list[str]:
    """Card tokens highest first (``rank``), or the biggest groups first (``count``)."""
    order = "SHCD"

    def rank(tok: str) -> int:
        return RANK_LETTERS.index(tok[0])

    def suit(tok: str) -> int:
        return order.index(tok[1]) if len(tok) > 1 and tok[1] in order else 0

    by_rank = sorted(hand, key=lambda t: (-rank(t), suit(t)))
    if mode != "count":
        return by_rank
    size: dict[int, int] = {}
    for t in hand:
        size[rank(t)] = size.get(rank(t), 0) + 1
    return sorted(by_rank, key=lambda t: (-size[rank(t)], -rank(t), suit(t)))


class DouDizhuView(GameView):
    """Dou Dizhu drawn from observations (the local table's look), plays typed as at ``qipai play``."""

    game = "doudizhu"

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.seen = 0
        self.sort_mode = "rank"
        self.hints: list[str] = []
        self.hint_i = -1
        self.hint_key: tuple[int, int] | None = None

    # ------------------------------------------------------------------ what happens
    def begin(self, state: State, fresh: bool) -> None:
        super().begin(state, fresh)
        hist = state["observation"].get("history") or []
        self.seen = len(hist) if fresh else 0

    def events(self, state: State) -> list[RenderableType]:
        obs = state["observation"]
        self.last_obs = obs
        hist: list[Mapping[str, Any]] = list(obs.get("history") or [])
        if self.seen > len(hist):
            self.seen = 0
        out: list[RenderableType] = []
        rules = rules_of(obs)
        counts = list(obs.get("card_counts") or [])
        for i in range(self.seen, len(hist)):
            line = self.event_line(hist[i], hist[i + 1:], counts, rules, obs)
            if line is not None:
                out.append(line)
        self.seen = len(hist)
        if obs.get("phase") == "over" and obs.get("hands"):
            for seat, hand in enumerate(obs["hands"]):
                if hand and seat != self.seats.me:
                    t = Text(f"{self.names[seat]} · {tr(self.lang, 'col_left')}: ", style="dim")
                    t.append_text(cards_text(sorted_hand(hand, "rank"), self.lang))
                    out.append(t)
        return out

    def event_line(self, ev: Mapping[str, Any], later: Sequence[Mapping[str, Any]], counts: list[int],
                   rules: Rules, obs: Mapping[str, Any]) -> Text | None:
        """One public event as a line (``Bot 1: 7♠ 7♥ (pair)``), or ``None``."""
        lang = self.lang
        e = ev.get("event")
        seat = ev.get("seat")
        name = self.names[seat] if isinstance(seat, int) and 0 <= seat < len(self.names) else ""
        if e == "deal":
            fb = ev.get("first_bidder")
            who = self.names[fb] if isinstance(fb, int) else "?"
            if ev.get("face_up"):
                return Text(tr(lang, "face_up", card=card_label(ev["face_up"], lang), name=who))
            return Text(tr(lang, "first_bidder", name=who))
        if e == "bid":
            return Text(tr(lang, "act_bid", name=name, what=self.bid_word(int(ev["value"]), rules)))
        if e == "play":
            t = tr_text(lang, "act_play", name=name, cards=cards_text(ev["cards"], lang),
                        kind=kind_name(ev["kind"], lang))
            if isinstance(seat, int) and seat < len(counts):
                n = counts[seat] + sum(len(x.get("cards", ())) for x in later
                                       if x.get("event") == "play" and x.get("seat") == seat)
                if 0 < n <= 2:
                    t.append(tr(lang, "act_left", n=n), style="bold red")
            return t
        if e == "pass":
            return Text(tr(lang, "act_pass", name=name), style="dim")
        if e == "trick":
            return Text(tr(lang, "act_trick", name=self.names[ev["winner"]]), style="dim")
        if e == "landlord":
            t = Text(tr(lang, "act_landlord", name=name, bid=ev["bid"]), style="bold yellow")
            kitty = ev.get("kitty") or (obs.get("kitty") if seat == self.seats.me else None)
            if kitty:
                t.append("  ")
                t.append_text(tr_text(lang, "act_kitty", cards=cards_text(kitty, lang)))
            return t
        return other_event_line(dict(ev), name, lang)

    def bid_word(self, value: int, rules: Rules) -> str:
        """``no bid``, ``bid 2`` or ``call landlord``."""
        if value == 0:
            return tr(self.lang, "bid_pass")
        if rules.bidding == "call":
            return tr(self.lang, "call")
        return tr(self.lang, "bid_v", v=value)

    # ------------------------------------------------------------------ the screen
    def screen(self, state: State) -> list[RenderableType]:
        obs = state["observation"]
        lang = self.lang
        rules = rules_of(obs)
        me = self.seats.me
        head = Text(tr(lang, "title"), style="bold")
        if obs.get("preset"):
            head.append(" · " + tr(lang, "rules", preset=obs["preset"]))
        lines: list[RenderableType] = []
        mult = obs.get("multiplier", 1)
        lord = obs.get("landlord")
        if lord is not None:
            info = Text(tr(lang, "bid_line", bid=obs.get("bid"), stake=rules.stake, mult=mult))
        else:
            info = Text(tr(lang, "no_bid_yet", stake=rules.stake, mult=mult))
        factors = ", ".join(self.factor_text(f) for f in obs.get("factors") or []) or "-"
        info.append(" · " + tr(lang, "factors", factors=factors), style="dim")
        lines.append(info)
        if obs.get("face_up") and obs.get("phase") == "bid":
            lines.append(Text(tr(lang, "face_up", card=card_label(obs["face_up"], lang),
                                 name=self.names[obs.get("first_bidder") or 0])))
        if obs.get("kitty"):
            lines.append(tr_text(lang, "kitty", cards=cards_text(obs["kitty"], lang)))
        elif lord is not None:
            lines.append(Text(tr(lang, "kitty_hidden_shown_later", n=rules.kitty_size), style="dim"))
        else:
            lines.append(Text(tr(lang, "kitty_hidden", n=rules.kitty_size), style="dim"))
        if obs.get("shown_hand") and lord != me:
            lines.append(tr_text(lang, "shown_hand", cards=cards_text(obs["shown_hand"], lang)))
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        table.add_column("")
        for col, just in (("col_seat", "left"), ("col_role", "left"), ("col_cards", "right"), ("col_last", "left"),
                          ("col_points", "right")):
            table.add_column(tr(lang, col), justify=just)  # type: ignore[arg-type]
        hist = list(obs.get("history") or [])
        done, cur = tricks_of(hist)
        last_by_seat: dict[int, Text] = {}
        for seat, cards in cur.plays:
            last_by_seat[seat] = Text(tr(lang, "pass"), style="dim") if cards is None else cards_text(cards, lang)
        bids = {b["seat"]: b["value"] for b in obs.get("bids") or []}
        auto = list(state.get("autoplay") or obs.get("autoplay") or [])
        phase = obs.get("phase")
        farmer_factors = obs.get("farmer_factors") or []
        for seat, n in enumerate(obs.get("card_counts") or []):
            marker = "▶" if obs.get("to_act") == seat else ""
            if lord is None:
                role = Text(tr(lang, "no_role"), style="dim")
            elif seat == lord:
                role = Text(tr(lang, "landlord"), style="bold yellow")
            else:
                role = Text(tr(lang, "farmer"))
                if seat < len(farmer_factors) and farmer_factors[seat] > 1:
                    role.append(f" ×{farmer_factors[seat]}", style="magenta")
            count = Text(str(n), style="bold red" if 0 < n <= 2 and phase == "play" else "")
            if phase == "bid":
                last = Text(self.bid_word(bids[seat], rules)) if seat in bids else Text("")
            elif phase in ("double", "show"):
                last = Text(" ".join(doubling_word(d["name"], lang) for d in obs.get("doubling") or []
                                     if d["seat"] == seat and d["name"] != "pass"))
            else:
                last = last_by_seat.get(seat, Text(""))
            name = self.names[seat] + (" " + tr(lang, "auto_tag") if seat < len(auto) and auto[seat] else "")
            pts = self.seats.points[seat] if seat < len(self.seats.points) else None
            table.add_row(marker, Text(name, style="bold" if seat == me else ""), role, count, last,
                          "" if pts is None else str(pts))
        lines.append(table)
        if phase == "play":
            if cur.plays:
                lines.append(tr_text(lang, "this_trick", plays=trick_text(cur, self.names, lang)))
            elif done:
                prev = done[-1]
                lines.append(tr_text(lang, "prev_trick", plays=trick_text(prev, self.names, lang),
                                     name=self.names[prev.winner or 0]))
        if not self.seats.watching:
            lines.append(self.hand_text(obs))
        if state.get("your_turn"):
            lines.append(Text(tr(lang, "turn_you"), style="bold green"))
        elif obs.get("to_act") is not None:
            lines.append(Text(tr(lang, "turn_other", name=self.names[obs["to_act"]])))
        return [Panel(Group(*lines), title=head, title_align="left", box=box.ROUNDED)]

    def factor_text(self, f: str) -> str:
        """A factor as the observation spells it (``bomb ×2``), its name in the table's language."""
        name, sep, times = f.rpartition(" ×")
        return f"{factor_name(name, self.lang)} ×{times}" if sep else f

    def hand_text(self, obs: Mapping[str, Any]) -> Text:
        """``Your hand (by rank): R B 2♠ …``."""
        mode = tr(self.lang, "by_count" if self.sort_mode == "count" else "by_rank")
        t = Text(tr(self.lang, "your_hand", mode=mode), style="bold")
        t.append_text(cards_text(sorted_hand(obs.get("hand") or [], self.sort_mode), self.lang))
        return t

    # ------------------------------------------------------------------ the prompt and typed plays
    def choices_text(self, state: State) -> str:
        """The choices before play as a person types them (``pass, 1, 2, 3``)."""
        zh = self.lang == "zh"
        phase = state.get("phase")
        out = []
        for a in state.get("legal") or []:
            if a.startswith("bid "):
                out.append(a.split()[1] + ("分" if zh else ""))
            elif a in ("double", "redouble"):
                out.append(a if not zh else "加倍")
            elif zh:
                out.append(_CHOICES_ZH.get((str(phase), a), a))
            else:
                out.append(a)
        return ("、" if zh else ", ").join(out)

    def prompt(self, state: State) -> str:
        lang = self.lang
        obs = state["observation"]
        phase = state.get("phase")
        if phase == "bid":
            return tr(lang, "prompt_bid", choices=self.choices_text(state))
        if phase == "double":
            return tr(lang, "prompt_double", choices=self.choices_text(state))
        if phase == "show":
            return tr(lang, "prompt_show", f=rules_of(obs).show_hand_factor, choices=self.choices_text(state))
        trick = obs.get("trick") or {}
        if not trick.get("last"):
            return tr(lang, "prompt_lead")
        return tr(lang, "prompt_follow", cards=ranks_label(str(trick["last"]), lang),
                  kind=kind_name(str(trick.get("kind")), lang))

    def describe(self, action: str, state: State) -> str:
        """A legal action as a person reads it (``play TTJJ`` → ``10 10 J J (pair straight)``)."""
        lang = self.lang
        phase = state.get("phase")
        if action == "pass":
            return tr(lang, "bid_pass") if phase == "bid" else tr(lang, "pass")
        if action.startswith("bid "):
            return tr(lang, "bid_v", v=action.split()[1])
        if action == "call":
            return tr(lang, "call")
        if action == "show":
            return tr(lang, "show", f=rules_of(state["observation"]).show_hand_factor)
        if action.startswith("play "):
            body = action[5:]
            try:
                kind = parse_move(body, rules_of(state["observation"])).kind
            except ValueError:
                return body
            return ranks_label(body.split(":")[0], lang) + (f"（{kind_name(kind, lang)}）" if lang == "zh"
                                                            else f" ({kind_name(kind, lang)})")
        return action

    def hint_list(self, state: State) -> list[str]:
        """The server's hints (提示, best first), else the legal actions with the plays first."""
        legal = list(state.get("legal") or [])
        hints = [h for h in state.get("hints") or [] if h in legal]
        if hints:
            return hints
        return [a for a in legal if a != "pass"] + [a for a in legal if a == "pass"]

    def read(self, line: str, state: State) -> Reply:
        lang = self.lang
        phase = str(state.get("phase"))
        legal = list(state.get("legal") or [])
        obs = state["observation"]
        key = (int(state.get("deal") or 0), int(state.get("version") or 0))
        if key != self.hint_key:
            self.hint_key, self.hints, self.hint_i = key, [], -1
        cmd = parse_command(line, phase)
        err = Text(style="bold red")

        def bad(msg: str) -> Reply:
            err.append(msg)
            return Reply(None, [err])

        if cmd.name == "empty":
            if self.hints and self.hint_i >= 0:
                return Reply(self.hints[self.hint_i])
            if phase == "play":
                return bad(tr(lang, "err_empty"))
            return bad(tr(lang, "err_empty_choice", choices=self.choices_text(state)))
        if cmd.name == "hint":
            if not self.hints:
                self.hints = self.hint_list(state)
            if not self.hints:
                return bad(tr(lang, "err_empty"))
            self.hint_i = (self.hint_i + 1) % len(self.hints)
            a = self.hints[self.hint_i]
            if phase != "play":
                msg = tr(lang, "hint_choice", what=self.describe(a, state))
            elif a == "pass":
                msg = tr(lang, "hint_pass_more" if len(self.hints) > 1 else "hint_pass")
            else:
                msg = tr(lang, "hint", i=self.hint_i + 1, n=len(self.hints), what=self.describe(a, state))
            return Reply(None, [Text(msg, style="green")])
        if cmd.name == "pass":
            if "pass" in legal:
                return Reply("pass")
            if phase == "play":
                return bad(tr(lang, "err_must_lead"))
            return bad(tr(lang, "err_choice", text=_cut(line.strip()), choices=self.choices_text(state)))
        if cmd.name == "choice":
            action = cmd.arg
            if action == "double*":
                action = next((a for a in legal if a in ("double", "redouble")), "double")
            if action in legal:
                return Reply(action)
            return bad(tr(lang, "err_choice", text=_cut(line.strip()), choices=self.choices_text(state)))
        if cmd.name == "play":
            rules = rules_of(obs)
            typed, why = check_play(hand_counts(obs.get("hand") or []), cmd.arg, last_move(obs, rules), rules, lang)
            if why is not None:
                return bad(why)
            assert typed is not None
            if typed in legal:
                return Reply(typed)
            cards = typed.split(":")[0]
            same = [a for a in legal if a.split(":")[0] == cards]
            if len(same) == 1:
                return Reply(same[0])
            return bad(tr(lang, "err_core", msg=_cut(line.strip())))
        if cmd.name == "past":
            return bad(tr(lang, "err_past", text=_cut(line.strip())))
        shown = self.info(line, state)
        if shown is not None:
            return Reply(None, shown)
        return bad(tr(lang, "err_choice", text=_cut(line.strip()), choices=self.choices_text(state))
                   if phase != "play" else tr(lang, "err_unreadable", token=_cut(line.strip())))

    def info(self, line: str, state: State | None) -> list[RenderableType] | None:
        lang = self.lang
        cmd = parse_command(line, "between")
        obs = state["observation"] if state is not None else self.last_obs
        if cmd.name == "sort":
            self.sort_mode = "count" if self.sort_mode == "rank" else "rank"
            out: list[RenderableType] = [Text(tr(lang, "sorted", mode=tr(
                lang, "by_count" if self.sort_mode == "count" else "by_rank")))]
            if obs is not None and obs.get("hand"):
                out.append(self.hand_text(obs))
            return out
        if cmd.name == "last":
            done, _ = tricks_of(list(obs.get("history") or [])) if obs is not None else ([], TrickView())
            if not done:
                return [Text(tr(lang, "no_last"), style="yellow")]
            prev = done[-1]
            t = Text(tr(lang, "last_title"), style="bold")
            t.append_text(trick_text(prev, self.names, lang))
            if prev.winner is not None:
                t.append(" → " + self.names[prev.winner], style="bold")
            return [t]
        return None

    # ------------------------------------------------------------------ the end of a deal
    def settlement(self, msg: Mapping[str, Any]) -> list[RenderableType]:
        lang = self.lang
        res = msg.get("outcome") or {}
        me = self.seats.me
        out: list[RenderableType] = []
        if res.get("dissolved"):
            out.append(Text(tr(lang, "dissolved"), style="yellow"))
        elif res.get("escaped") is not None:
            esc = res["escaped"]
            out.append(Text(tr(lang, "escaped", name=self.names[esc], n=res["scores"][esc]), style="bold red"))
        elif res.get("winner") == "landlord":
            out.append(Text(tr(lang, "win_landlord", name=self.names[res.get("landlord") or 0]), style="bold yellow"))
        else:
            out.append(Text(tr(lang, "win_farmers"), style="bold yellow"))
        if res.get("spring"):
            out.append(Text(tr(lang, "spring"), style="bold magenta"))
        if res.get("anti_spring"):
            out.append(Text(tr(lang, "anti_spring"), style="bold magenta"))
        factors = ", ".join(f"{factor_name(f['name'], lang)} ×{f['factor']}" for f in res.get("factors") or []
                            if isinstance(f, Mapping)) or "-"
        out.append(Text(tr(lang, "bid_line", bid=res.get("bid"), stake=res.get("stake"), mult=res.get("multiplier"))
                        + " · " + tr(lang, "factors", factors=factors)))
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        for col, just in (("col_seat", "left"), ("col_role", "left"), ("col_mult", "right"), ("col_score", "right"),
                          ("col_points", "right")):
            table.add_column(tr(lang, col), justify=just)  # type: ignore[arg-type]
        changes = {c["seat"]: c for c in msg.get("changes") or []}
        mults = res.get("seat_multipliers") or {}
        roles = res.get("roles") or []
        for seat, score in enumerate(res.get("scores") or []):
            role = tr(lang, roles[seat]) if seat < len(roles) and roles[seat] in ("landlord", "farmer") else "-"
            mult = mults.get(str(seat), res.get("multiplier"))
            ch = changes.get(seat, {})
            pts = ch.get("points")
            table.add_row(Text(self.names[seat], style="bold" if seat == me else ""), role, f"×{mult}",
                          Text(f"{score:+d}", style="green" if score > 0 else "red" if score < 0 else ""),
                          "" if pts is None else str(pts))
        out.append(table)
        return [Panel(Group(*out), title=Text(tr(lang, "deal_over", n=msg.get("deal_index", "")).strip(),
                                              style="bold"), title_align="left", box=box.ROUNDED)]

    def refusal(self, params: Mapping[str, Any]) -> str | None:
        rule, reason = params.get("rule"), params.get("reason")
        if not reason:
            return None
        return refusal(self.lang, str(rule or "illegal"), str(reason))

    def help(self) -> str:
        return _HELP["zh" if self.lang == "zh" else "en"]
