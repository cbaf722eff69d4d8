"""The Daqing mahjong factory behind :class:`qipai.core.game.GameFactory`: options, deals, replays, the match
from deal to deal (the dealer, §2.2) and the 21 levels (§8).

>>> f = MahjongFactory()
>>> f.info.name, f.info.titles["zh"], f.players({}), f.teams({})
('mahjong', '大庆麻将', 4, None)
>>> opts = f.options({"preset": "daqing", "base": 5})
>>> opts["base"], opts["auto_hu"], opts["preset"]
(5, True, 'daqing')
>>> g = f.new(opts, seed=3, context=f.deal_context(opts, f.match_start(opts)))
>>> g.phase, len(g.acting)
('play', 1)
>>> f.title(800), f.title(-5)
('中级', '新手')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.explain import Lang, Section
from ...core.game import JSON, GameInfo, IllegalAction, option_values
from .levels import TITLE_TABLE
from .levels import title as level_title
from .rules import OPTIONS, PRESET_OPTIONS, Rules
from .state import PHASES, PLAYERS, MahjongGame, replay_record

INFO = GameInfo(
    name="mahjong",
    titles={"zh": "大庆麻将", "en": "Daqing mahjong"},
    min_players=PLAYERS,
    max_players=PLAYERS,
    phases=PHASES,
    options=OPTIONS,
    presets=tuple(PRESET_OPTIONS),
    roles=("dealer", "player"),
    zero_sum=True,
    max_actions=2000,
    complete_legal=True,
    simultaneous=True,
    bots=("random", "passive", "efficiency"),
    seat_bot="efficiency",
    levels=("easy", "normal", "hard"),
    autoplay_bot="passive",
    web="mahjong",
    title_table=TITLE_TABLE,
    extra={"levels": "qipai.games.mahjong.levels"},
)
"""The static description.  ``max_actions``: a deal has at most 59 draws, so at most 72 discards (12 claims
give turns without a draw), each with a window of at most three answers — under 300 steps; 2000 leaves room
for host events (auto-play on/off, leave)."""


class MahjongFactory:
    """Creates, restores and describes Daqing mahjong deals; carries the dealer from deal to deal.

    ``context`` keys for :meth:`new`: ``dealer`` (a seat, or ``None`` to let ``first_dealer`` decide)."""

    info = INFO

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return option_values(OPTIONS, PRESET_OPTIONS, raw, "daqing")

    def players(self, options: Mapping[str, Any]) -> int:
        return PLAYERS

    def teams(self, options: Mapping[str, Any]) -> tuple[tuple[int, ...], ...] | None:
        return None

    def rules(self, options: Mapping[str, Any]) -> Rules:
        return Rules.from_options(dict(options))

    def new(self, options: Mapping[str, Any], seed: int, context: Mapping[str, Any]) -> MahjongGame:
        dealer = context.get("dealer")
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)):
            raise IllegalAction(f"the dealer is a seat 0..{PLAYERS - 1} (or null), not {dealer!r}")
        return MahjongGame.new(self.rules(options), seed, dealer)

    def replay(self, record: Mapping[str, Any]) -> MahjongGame:
        return replay_record(record)

    def match_start(self, options: Mapping[str, Any]) -> JSON:
        """Before the first deal: no dealer yet under ``first_dealer: random`` (the deal draws him), else seat 0."""
        first = dict(options).get("first_dealer", "random")
        return {"dealer": 0 if first == "seat0" else None, "deals": 0, "totals": [0] * PLAYERS}

    def deal_context(self, options: Mapping[str, Any], match: Mapping[str, Any]) -> JSON:
        return {"dealer": match.get("dealer")}

    def match_after(self, options: Mapping[str, Any], match: Mapping[str, Any], outcome: Mapping[str, Any]) -> JSON:
        """After a deal: the dealer stays after his win or a 荒庄, else passes to his next seat (§2.2)."""
        totals = list(match.get("totals") or [0] * PLAYERS)
        for i, s in enumerate(outcome.get("scores") or [0] * PLAYERS):
            totals[i] += s
        return {"dealer": outcome["next_dealer"], "deals": int(match.get("deals", 0)) + 1, "totals": totals}

    def title(self, points: int) -> str:
        return level_title(points)

    def explain(self, options: Mapping[str, Any], lang: Lang) -> list[Section]:
        """玩法说明: the rules of a table with ``options`` in words, in ``lang`` (:mod:`.explain`)."""
        from .explain import explain

        return explain(options, lang)


FACTORY = MahjongFactory()

__all__ = ["FACTORY", "INFO", "MahjongFactory"]
