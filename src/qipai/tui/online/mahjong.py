"""Daqing mahjong (大庆麻将) in ``qipai online``: the terminal table's own observation-based view
(:mod:`qipai.tui.mahjong.view`) and its reading of typed moves (:func:`qipai.tui.mahjong.session.typed_action`),
fed by the server's states."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from ..commands import _cut
from ..mahjong.reasons import reason_words
from ..mahjong.session import ACTION_WORDS, parse_command, typed_action
from ..mahjong.view import (
    action_words,
    event_line,
    hand_text,
    hint_lines,
    melds_text,
    settlement_lines,
    table_lines,
)
from ..mahjong.words import tr
from .base import GameView, Reply, State


class MahjongView(GameView):
    """Mahjong drawn from observations, moves typed as at ``qipai play --game mahjong``."""

    game = "mahjong"

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.seen = 0
        self.ready_seats: set[int] = set()

    def begin(self, state: State, fresh: bool) -> None:
        super().begin(state, fresh)
        self.seen = len(state["observation"].get("log") or []) if fresh else 0
        self.ready_seats = {s for s, r in enumerate(state["observation"].get("ready") or []) if r} if fresh else set()

    def events(self, state: State) -> list[RenderableType]:
        obs = state["observation"]
        self.last_obs = obs
        log = list(obs.get("log") or [])
        out: list[RenderableType] = []
        for e in log[self.seen:]:
            line = event_line(dict(e), self.names, self.lang, self.seats.me, ready=e.get("seat") in self.ready_seats)
            if line:
                out.append(Text(line, style="bold" if e.get("action") == "hu" else ""))
            if str(e.get("action")).startswith("ting ") and isinstance(e.get("seat"), int):
                self.ready_seats.add(e["seat"])
        self.seen = len(log)
        return out

    def screen(self, state: State) -> list[RenderableType]:
        obs = dict(state["observation"])
        if self.seats.watching:
            return [Text(x) for x in self.public_lines(obs)]
        out: list[RenderableType] = [Text(x) for x in table_lines(obs, self.names, self.lang, self.seats.me)]
        legal = list(state.get("legal") or [])
        tings = [a for a in legal if a.startswith("ting ")]
        if obs.get("phase") != "claim" and obs.get("must") not in ("win", "dailou", "ting") and tings:
            out.append(Text(tr(self.lang, "ting_can", opts=self.options(tings)), style="green"))
        return out

    def public_lines(self, obs: Mapping[str, Any]) -> list[str]:
        """The table as a spectator sees it: every seat's discards and melds, the wall and the 宝 (no hand)."""
        lang = self.lang
        lines = []
        for s, name in enumerate(self.names):
            ready = tr(lang, "ready_mark") if (obs.get("ready") or [False] * 4)[s] else ""
            lines.append(tr(lang, "river_of", name=name, n=obs["concealed"][s], ready=ready,
                            river=" ".join(obs["rivers"][s]) or "-"))
            if obs["melds"][s]:
                lines.append("  " + tr(lang, "melds_of", name=name, melds=melds_text(obs["melds"][s], lang)))
        lines.append(tr(lang, "wall", n=obs["wall"]))
        if obs.get("bao"):
            lines.append(tr(lang, "bao", tile=obs["bao"]))
        elif obs.get("bao_set"):
            lines.append(tr(lang, "bao_set"))
        return lines

    def options(self, actions: list[str]) -> str:
        """Actions as the player reads (and may type) them: ``peng · pass`` (``碰 · 过``)."""
        return " · ".join(action_words(a, self.lang) for a in actions)

    def prompt(self, state: State) -> str:
        obs = state["observation"]
        legal = list(state.get("legal") or [])
        lang = self.lang
        if obs.get("phase") == "claim":
            d = obs.get("discard") or {}
            seat = d.get("seat")
            name = self.names[seat] if isinstance(seat, int) else "?"
            return tr(lang, "prompt_claim", name=name, tile=d.get("tile"), opts=self.options(legal))
        if obs.get("must") in ("win", "dailou"):
            return tr(lang, "prompt_win")
        if obs.get("must") == "ting":
            return tr(lang, "prompt_ting", opts=self.options(legal))
        hand = hand_text(obs.get("hand") or "")
        example = obs.get("drawn") or (hand.split()[-1] if hand else "5m")
        return tr(lang, "prompt_turn" if obs.get("drawn") else "prompt_turn_claimed", example=example)

    def read(self, line: str, state: State) -> Reply:
        name, rest = parse_command(line)
        obs = dict(state["observation"])
        legal = list(state.get("legal") or [])
        if name in ACTION_WORDS or name == "empty" or name.isdigit() or (name == "unknown" and rest.isdigit()):
            action, err = typed_action(name, rest, obs, legal, self.lang)
            return Reply(action, [Text(err, style="bold red")] if err else [])
        shown = self.info(line, state)
        if shown is not None:
            return Reply(None, shown)
        return Reply(None, [Text(tr(self.lang, "err_unknown", text=_cut(line.strip())), style="bold red")])

    def info(self, line: str, state: State | None) -> list[RenderableType] | None:
        name, _ = parse_command(line)
        obs = dict(state["observation"]) if state is not None else dict(self.last_obs or {})
        if name == "hand" and obs.get("rivers"):
            if self.seats.watching:
                return [Text(x) for x in self.public_lines(obs)]
            return [Text(x) for x in table_lines(obs, self.names, self.lang, self.seats.me)]
        if name == "hint" and obs:
            return [Text(x, style="green") for x in hint_lines(obs, self.lang) or [tr(self.lang, "no_hint")]]
        return None

    def settlement(self, msg: Mapping[str, Any]) -> list[RenderableType]:
        out = msg.get("outcome") or {}
        try:
            return [Text(x) for x in settlement_lines(dict(out), self.names, self.lang)]
        except (KeyError, TypeError, IndexError):
            return [Text(" · ".join(f"{self.names[i]} {s:+d}" for i, s in enumerate(out.get("scores") or [])))]

    def refusal(self, params: Mapping[str, Any]) -> str | None:
        reason = params.get("reason")
        return reason_words(self.lang, str(reason)) if reason else None

    def help(self) -> str:
        return tr(self.lang, "help")
