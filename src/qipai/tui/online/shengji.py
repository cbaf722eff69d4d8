"""Four-deck Shengji (升级) in ``qipai online``: the terminal table's observation-based view
(:mod:`qipai.tui.shengji.view`) and its reading of typed cards (:mod:`qipai.tui.shengji.session`), fed by the
server's states.  During the deal the declaration windows open card after card: the table is not redrawn for
each; you get a line when a level card comes, and ``declare 3S 3S`` lands in the window open then.

What you type is checked against the state's ``legal`` list before it is sent: a declaration must be in it (the
windows' lists are complete); a play in it goes at once, a play of cards you do not hold or of the wrong number
is refused here, in the engine's words, and any other play — the play's legal list is partial: a follow is given
a few ways, a throw none — is asked of the server first (``check``) and sent only when it is legal.

>>> from qipai.tui.online.base import Seats
>>> v = ShengjiView("en", Seats(["You", "B", "C", "D"], 0, [1000, None, None, None]))
>>> st = {"deal": 1, "version": 9, "phase": "play", "legal": ["play 5S 5S", "play 9D 9D"],
...       "observation": {"hand": "AS 5S 5S 9D 9D", "lead": {"cards": "KH KH", "n": 2}, "level": "3"}}
>>> r = v.read("5s 5s", st); (r.action, r.check)
('play 5S 5S', False)
>>> r = v.read("AS 9D", st); (r.action, r.check)
('play AS 9D', True)
>>> [t.plain for t in v.read("AS", st).out + v.read("KS KS", st).out]
['Not allowed: play 2 cards (the lead has 2), not 1', 'Not allowed: you hold no K♠']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from ..commands import _cut
from ..shengji.reasons import reason_words
from ..shengji.session import declare_options, parse_command, read_cards
from ..shengji.view import (
    cards_plain,
    cards_text,
    hand_lines,
    last_trick_line,
    level_cards,
    settlement_lines,
    status_lines,
)
from ..shengji.words import tr
from .base import GameView, Reply, State


class ShengjiView(GameView):
    """Shengji drawn from observations, cards typed as at ``qipai play --game shengji``."""

    game = "shengji"

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.seen: dict[str, Any] = {}
        self.hints: list[str] = []
        self.hint_i = -1
        self.hint_key: tuple[int, int] | None = None

    @property
    def teams(self) -> list[str]:
        """The teams named with their players."""
        n = self.names
        if len(n) < 4:
            return [tr(self.lang, "team_a"), tr(self.lang, "team_b")]
        return [f"{tr(self.lang, 'team_a')} ({n[0]}+{n[2]})", f"{tr(self.lang, 'team_b')} ({n[1]}+{n[3]})"]

    def begin(self, state: State, fresh: bool) -> None:
        super().begin(state, fresh)
        obs = state["observation"]
        self.seen = {"decls": 0, "failed": 0, "tricks": 0, "in_trick": 0, "auto": [False] * 4, "left": [False] * 4,
                     "level_cards": 0, "mine": [], "final": False}
        if fresh:
            self.seen.update(decls=len(obs.get("declarations") or []), failed=len(obs.get("failed_throws") or []),
                             tricks=len(obs.get("tricks") or []), in_trick=len(obs.get("trick") or []),
                             auto=list(obs.get("autoplay") or [False] * 4), left=list(obs.get("left") or [False] * 4))

    def events(self, state: State) -> list[RenderableType]:
        obs = state["observation"]
        self.last_obs = obs
        lang = self.lang
        seen = self.seen
        names = self.names
        me = self.seats.me
        out: list[RenderableType] = []
        decls = obs.get("declarations") or []
        for seat, k, _at in decls[seen["decls"]:]:
            if seat == me and obs.get("my_declarations"):
                out.append(Text(tr(lang, "declared_you", cards=cards_plain(obs["my_declarations"][-1][1], lang)),
                                style="bold green"))
            else:
                out.append(Text(tr(lang, "declared_other", name=names[seat], k=k, s="" if k == 1 else "s"),
                                style="bold"))
        seen["decls"] = len(decls)
        failed = obs.get("failed_throws") or []
        for ft in failed[seen["failed"]:]:
            out.append(Text(tr(lang, "failed_throw", name=names[ft["seat"]], cards=cards_plain(ft["cards"], lang),
                               forced=cards_plain(ft["forced"], lang), pen=ft["penalty"]), style="yellow"))
        seen["failed"] = len(failed)
        tricks = obs.get("tricks") or []
        while seen["tricks"] < len(tricks):
            t = tricks[seen["tricks"]]
            for seat, cards in t["plays"][seen["in_trick"]:]:
                out.append(self.play_line(seat, cards))
            seen["tricks"] += 1
            seen["in_trick"] = 0
            banker = obs.get("banker")
            attackers_won = banker is None or t["winner"] % 2 != banker % 2
            key = "act_trick_none" if not t["points"] else "act_trick_att" if attackers_won else "act_trick_bank"
            out.append(Text(tr(lang, key, k=seen["tricks"], name=names[t["winner"]], points=t["points"], extra=""),
                            style="dim"))
        trick = obs.get("trick") or []
        for seat, cards in trick[seen["in_trick"]:]:
            out.append(self.play_line(seat, cards))
        seen["in_trick"] = len(trick)
        for s, (a, left) in enumerate(zip(obs.get("autoplay") or [], obs.get("left") or [], strict=False)):
            if s < len(seen["auto"]) and a != seen["auto"][s] and s != me:
                out.append(Text(tr(lang, "act_autoplay_on" if a else "act_autoplay_off", name=names[s]), style="cyan"))
            if s < len(seen["left"]) and left and not seen["left"][s]:
                out.append(Text(tr(lang, "act_left", name=names[s]), style="yellow"))
        seen["auto"] = list(obs.get("autoplay") or [])
        seen["left"] = list(obs.get("left") or [])
        if obs.get("phase") == "deal" and obs.get("hand") is not None:
            mine = level_cards(obs["hand"], obs["level"])
            if len(mine) > seen["level_cards"]:
                new = list((Counter(mine) - Counter(seen["mine"])).elements())
                seen["level_cards"], seen["mine"] = len(mine), mine
                decl = declare_options(list(state.get("legal") or []))
                how = (tr(lang, "type_declare", action=tr(lang, "or").join(decl)) if decl
                       else tr(lang, "cannot_overcall"))
                out.append(Text(tr(lang, "got_level", dealt=obs.get("dealt"), card=cards_plain(new, lang),
                                   mine=cards_plain(mine, lang), how=how), style="green"))
        return out

    def play_line(self, seat: int, cards: str) -> Text:
        """``name: cards``."""
        t = Text(f"{self.names[seat]}: ")
        t.append_text(cards_text(cards, self.lang))
        return t

    def redraw(self, state: State) -> bool:
        phase = state.get("phase")
        if phase == "deal":
            return False
        if phase == "final":
            first = not self.seen.get("final")
            self.seen["final"] = True
            return first
        return True

    def hand(self, obs: Mapping[str, Any]) -> list[RenderableType]:
        """The hand by effective suit."""
        hand = obs.get("hand") or ""
        n = len(hand.split())
        return [Text(tr(self.lang, "your_hand", n=n, s="" if n == 1 else "s")),
                *hand_lines(hand, obs["level"], obs.get("trump"), self.lang)]

    def screen(self, state: State) -> list[RenderableType]:
        obs = state["observation"]
        out: list[RenderableType] = []
        if state.get("phase") == "play" or self.seats.watching:
            out.extend(status_lines(obs, self.names, self.teams, self.lang))
        if obs.get("hand") is not None:
            out.extend(self.hand(obs))
        return out

    def prompt(self, state: State) -> str:
        lang = self.lang
        obs = state["observation"]
        phase = state.get("phase")
        if phase in ("deal", "final"):
            decl = declare_options(list(state.get("legal") or []))
            if decl:
                return tr(lang, "prompt_final", example=tr(lang, "or").join(decl))
            return tr(lang, "prompt_final_none")
        lead = obs.get("lead")
        if not lead:
            return tr(lang, "prompt_lead")
        n = lead.get("n", 0)
        return tr(lang, "prompt_follow", cards=cards_plain(lead["cards"], lang), n=n, s="" if n == 1 else "s")

    def read(self, line: str, state: State) -> Reply:
        lang = self.lang
        phase = state.get("phase")
        legal = list(state.get("legal") or [])
        key = (int(state.get("deal") or 0), int(state.get("version") or 0))
        if key != self.hint_key:
            self.hint_key, self.hints, self.hint_i = key, [], -1
        name, arg = parse_command(line)

        def bad(msg: str) -> Reply:
            return Reply(None, [Text(msg, style="bold red")])

        if phase in ("deal", "final"):
            if name == "declare":
                cards, token = read_cards(arg)
                if cards is None:
                    return bad(tr(lang, "err_unreadable", token=_cut(token or "")))
                same = _matching("declare", cards, legal)
                if same is not None:
                    return Reply(same)
                decl = declare_options(legal)
                how = (tr(lang, "type_declare", action=tr(lang, "or").join(decl)) if decl
                       else tr(lang, "cannot_overcall"))
                return bad(tr(lang, "err_declare_legal", cards=cards_plain(cards.split(), lang) if cards else "-",
                              how=how))
            if name == "pass" or (name == "empty" and phase == "final"):
                return Reply("pass") if "pass" in legal else Reply()
            shown = self.info(line, state)
            if shown is not None:
                return Reply(None, shown)
            return Reply() if name == "empty" else bad(tr(lang, "err_final" if phase == "final" else "err_phase"))
        if name == "empty":
            if self.hints and self.hint_i >= 0:
                return Reply(self.hints[self.hint_i])
            return bad(tr(lang, "err_empty"))
        if name == "hint":
            if not self.hints:
                self.hints = [h for h in state.get("hints") or [] if isinstance(h, str)] or legal
            if not self.hints:
                return bad(tr(lang, "err_empty"))
            self.hint_i = (self.hint_i + 1) % len(self.hints)
            h = self.hints[self.hint_i]
            return Reply(None, [Text(tr(lang, "hint", i=self.hint_i + 1, n=len(self.hints),
                                        cards=cards_plain(h[5:] if h.startswith("play ") else h, lang)),
                                     style="green")])
        if name == "play":
            cards, token = read_cards(arg)
            if cards is None:
                return bad(tr(lang, "err_unreadable", token=_cut(token or "")))
            if not cards:
                return bad(tr(lang, "err_empty"))
            same = _matching("play", cards, legal)
            if same is not None:
                return Reply(same)
            why = _play_error(cards.split(), state["observation"])
            if why is not None:
                return bad(tr(lang, "refused", reason=reason_words(lang, why)))
            return Reply("play " + cards, check=True)  # (the play's legal list is partial: the server checks it)
        shown = self.info(line, state)
        if shown is not None:
            return Reply(None, shown)
        return bad(tr(lang, "err_empty"))

    def info(self, line: str, state: State | None) -> list[RenderableType] | None:
        name, _ = parse_command(line)
        if name == "hand" and self.seats.watching and state is not None:
            return list(status_lines(state["observation"], self.names, self.teams, self.lang))
        obs = state["observation"] if state is not None else self.last_obs
        if obs is None:
            return None
        if name == "hand" and obs.get("hand") is not None:
            return self.hand(obs)
        if name == "last":
            t = last_trick_line(obs, self.names, self.lang)
            return [t if t is not None else Text(tr(self.lang, "no_trick"), style="yellow")]
        return None

    def settlement(self, msg: Mapping[str, Any]) -> list[RenderableType]:
        out = msg.get("outcome") or {}
        try:
            return list(settlement_lines(out, self.names, self.teams, self.lang))
        except (KeyError, TypeError, IndexError):
            return [Text(" · ".join(f"{self.names[i]} {s:+d}" for i, s in enumerate(out.get("scores") or [])))]

    def refusal(self, params: Mapping[str, Any]) -> str | None:
        reason = params.get("reason")
        return tr(self.lang, "refused", reason=reason_words(self.lang, str(reason))) if reason else None

    def help(self) -> str:
        # ``history`` (every hand of a local match) is the terminal game's own: a server table has none here
        return "\n".join(x for x in tr(self.lang, "help").splitlines() if not x.lstrip().startswith("history"))


def _matching(verb: str, cards: str, legal: Sequence[str]) -> str | None:
    """The legal action ``verb`` with the same cards as ``cards`` in any order (``None``: not in the list)."""
    want = Counter(cards.split())
    for a in legal:
        word, _, rest = a.partition(" ")
        if word == verb and Counter(rest.split()) == want:
            return a
    return None


def _play_error(cards: list[str], obs: Mapping[str, Any]) -> str | None:
    """What the engine would say of a play that needs no hidden card to judge, in its words
    (:func:`qipai.games.shengji.follow.follow_error`'s): the number of cards a follow must have, then cards the
    hand does not hold; ``None`` when only the server can tell."""
    lead = obs.get("lead")
    if lead:
        n = int(lead.get("n") or 0)
        if len(cards) != n:
            return f"play {n} card{'s' if n > 1 else ''} (the lead has {n}), not {len(cards)}"
    held = Counter(str(obs.get("hand") or "").split())
    for face, k in Counter(cards).items():
        if held[face] < k:
            have = held[face]
            return f"you hold {'no' if not have else f'only {have}'} {face}" + ("" if not have else f", not {k}")
    return None
