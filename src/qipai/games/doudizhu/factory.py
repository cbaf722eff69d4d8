"""Dou Dizhu behind :class:`qipai.core.game.GameFactory`: its description, options, deals and the match.

>>> f = FACTORY
>>> f.info.name, f.players({"preset": "four_player"}), f.teams({"preset": "classic"})
('doudizhu', 4, None)
>>> g = f.new({"preset": "classic"}, seed=1, context={})
>>> g.players, g.phase
(3, 'bid')

A table plays a match of deals for as long as it stays open; the match state carries who bids first next
(``random_then_rotate``) and how many deals were played:

>>> m = f.match_start({"preset": "classic"})
>>> m = f.match_after({"preset": "classic"}, m, {"first_bidder": 2, "scores": [2, -1, -1]})
>>> m, f.deal_context({"preset": "classic"}, m)
({'deals': 1, 'next_first_bidder': 0, 'over': False}, {'first_bidder': 0})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.explain import Lang, Section
from ...core.game import JSON, GameInfo
from .rules import OPTIONS, PRESETS, Rules
from .state import PHASES, Game, game_from_options
from .titles import TITLES, title_for


class DoudizhuFactory:
    """Dou Dizhu deals (``options``: ``{"preset": "jj", ...}``, see :mod:`qipai.games.doudizhu.rules`).

    ``context`` keys of a deal: ``first_bidder`` (int, from the match state under ``random_then_rotate``) and
    ``table_points`` (list of ints, for minimisation).
    """

    info = GameInfo(
        name="doudizhu",
        titles={"zh": "斗地主", "en": "Dou Dizhu"},
        min_players=3,
        max_players=4,
        phases=PHASES,
        options=OPTIONS,
        presets=tuple(PRESETS),
        roles=("landlord", "farmer"),
        zero_sum=True,
        zero_sum_exceptions="an escape under escape_penalty: the escaper's penalty leaves the table (RULES.md §6)",
        max_actions=1000,
        complete_legal=True,
        simultaneous=False,
        bots=("random", "passive", "heuristic", "search"),
        seat_bot="normal",
        levels=("easy", "normal", "hard", "expert"),
        autoplay_bot="passive",
        autoplay_option="autoplay",
        autoplay_bots={"passive": "passive", "smart": "heuristic"},
        title_table=TITLES,
        routes="qipai.games.doudizhu.check",
        web="doudizhu",
    )

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Every option's value (``preset`` kept when the options are exactly a preset's)."""
        rules = Rules.from_options(raw)
        out = rules.to_options()
        preset = raw.get("preset")
        if isinstance(preset, str):
            out["preset"] = preset
        return out

    def rules(self, options: Mapping[str, Any]) -> Rules:
        return Rules.from_options(options)

    def players(self, options: Mapping[str, Any]) -> int:
        return Rules.from_options(options).players

    def teams(self, options: Mapping[str, Any]) -> tuple[tuple[int, ...], ...] | None:
        return None  # the landlord's side is decided in each deal

    def new(self, options: Mapping[str, Any], seed: int, context: Mapping[str, Any]) -> Game:
        return game_from_options(options, seed, context)

    def replay(self, record: Mapping[str, Any]) -> Game:
        from .record import replay

        return replay(record)

    def match_start(self, options: Mapping[str, Any]) -> JSON:
        return {"deals": 0, "next_first_bidder": None, "over": False}

    def deal_context(self, options: Mapping[str, Any], match: Mapping[str, Any]) -> JSON:
        fb = match.get("next_first_bidder")
        return {} if fb is None else {"first_bidder": int(fb)}

    def match_after(self, options: Mapping[str, Any], match: Mapping[str, Any], outcome: Mapping[str, Any]) -> JSON:
        rules = Rules.from_options(options)
        fb = outcome.get("first_bidder")
        nxt = None
        if rules.first_bidder == "random_then_rotate" and isinstance(fb, int):
            nxt = (fb + 1) % rules.players
        return {"deals": int(match.get("deals", 0)) + 1, "next_first_bidder": nxt, "over": False}

    def title(self, points: int) -> str:
        return title_for(points)

    def explain(self, options: Mapping[str, Any], lang: Lang) -> list[Section]:
        """玩法说明: the rules of a table with ``options`` in words, in ``lang`` (:mod:`.explain`)."""
        from .explain import explain

        return explain(options, lang)

    def review(self, record: Mapping[str, Any], seat: int, samples: int = 120) -> JSON:
        """A finished deal's decisions of ``seat`` with the strong bot's view of each (复盘; slow: seconds)."""
        from .bots.review import review_deal

        return review_deal(record, seat, samples=samples).to_json()

    def hints(self, game: Game, seat: int) -> list[str]:
        """提示: the seat's legal actions best first (the heuristic bot's choice, then cheapest plays, bombs last)."""
        from .hints import game_hints

        return game_hints(game, seat)

    def forced(self, game: Game, seat: int) -> str | None:
        """要不起 and the last card: the action the seat will surely take (see :func:`.hints.forced_action`)."""
        from .hints import forced_action

        return forced_action(game, seat)


FACTORY = DoudizhuFactory()
