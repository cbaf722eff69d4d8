"""The Shengji factory (:class:`qipai.core.game.GameFactory`): game info, options, new hands, replays, and the
match carried from hand to hand as JSON (§2.3, §2.4, §9.5).

>>> f = ShengjiFactory()
>>> opts = f.options({})
>>> m = f.match_start(opts)
>>> f.deal_context(opts, m)
{'hand': 1, 'levels': ['3', '3'], 'banker': None}
>>> f.teams(opts), f.players(opts), f.title(0), f.title(5000)
(((0, 2), (1, 3)), 4, '新兵', '上校')
"""

from __future__ import annotations

import bisect
import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from ...core.explain import Lang, Section
from ...core.game import JSON, GameInfo, IllegalAction, apply_step
from .cards import level_rank, level_text, parse_cards
from .game import MAX_ACTIONS, PHASES, ShengjiGame
from .rules import DEFAULT_PRESET, OPTIONS, PRESETS, resolve_options
from .scoring import hand_result, settle_scores, team_of

INFO = GameInfo(
    name="shengji",
    titles={"zh": "升级", "en": "Shengji"},
    min_players=4,
    max_players=4,
    phases=PHASES,
    options=OPTIONS,
    presets=(DEFAULT_PRESET,),
    roles=("banker", "attacker"),
    zero_sum=True,
    zero_sum_exceptions="escape_penalty: the escaper loses 3 × stake and nobody else's score changes (§9.3)",
    max_actions=MAX_ACTIONS,
    complete_legal=False,
    simultaneous=True,
    match_seats=True,
    bots=("random", "passive", "rule"),
    seat_bot="rule",
    levels=("easy", "normal", "hard"),
    autoplay_bot="passive",
    autoplay_option="auto_play",
    autoplay_bots={"passive": "passive", "smart": "rule"},
    web="shengji",
    extra={"teams": ((0, 2), (1, 3)), "decks": 4},
)

TITLES: tuple[tuple[int, str], ...] = (
    (0, "新兵"), (20, "列兵"), (50, "上等兵"), (100, "下士"), (200, "中士"), (350, "上士"), (500, "少尉"),
    (800, "中尉"), (1200, "上尉"), (1800, "少校"), (2600, "中校"), (4000, "上校"), (8000, "将军"),
)
"""(points needed, title), lowest first.  The seed has no Shengji titles: these are military ranks (军衔, 新兵 …
上校, then 将军), a ladder of its own, so that a title is never read as the level a team plays (打3 … 打A); below
0 points a player is 新兵."""
_THRESH = [t for t, _ in TITLES]
INFO = dataclasses.replace(INFO, title_table=TITLES)


class ShengjiFactory:
    """Creates, restores and describes four-deck Shengji hands, and carries the match."""

    info: GameInfo = INFO

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return resolve_options(raw)

    def players(self, options: Mapping[str, Any]) -> int:
        return 4

    def teams(self, options: Mapping[str, Any]) -> tuple[tuple[int, ...], ...] | None:
        return ((0, 2), (1, 3))

    def new(self, options: Mapping[str, Any], seed: int, context: Mapping[str, Any]) -> ShengjiGame:
        """A new hand; ``context`` from :meth:`deal_context` (extra keys such as ``table_points`` are ignored)."""
        ctx = {k: context[k] for k in ("hand", "levels", "banker") if k in context}
        return ShengjiGame(options, seed, ctx)

    def replay(self, record: Mapping[str, Any]) -> ShengjiGame:
        """Rebuild a hand from :meth:`ShengjiGame.record`; an illegal step raises :class:`IllegalAction` naming
        it (its index, seat and text) and why."""
        if not isinstance(record, Mapping) or record.get("game", "shengji") != "shengji":
            raise IllegalAction("not a Shengji record")
        if record.get("format", "qipai-record") != "qipai-record":  # (Shengji's records carry none; others do)
            raise IllegalAction(f"not a qipai record: format is {record.get('format')!r}, expected 'qipai-record'")
        if record.get("version") != 1:
            raise IllegalAction(f"unsupported record version {record.get('version')!r} (this build reads 1)")
        seed = record.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise IllegalAction("bad record: it has no integer seed")
        options, context = record.get("options") or {}, record.get("context") or {}
        if not isinstance(options, Mapping) or not isinstance(context, Mapping):
            raise IllegalAction("bad record: options and context are objects")
        actions = record.get("actions", [])
        if actions is None:
            actions = []
        if not isinstance(actions, list):
            raise IllegalAction("bad record: actions are a list of [seat, text] steps")
        deal = record.get("deal")
        try:
            if deal is not None:
                g = ShengjiGame(options, seed, context, deal=parse_cards(deal) if isinstance(deal, str) else list(deal),
                                first=record.get("first"))
            else:
                g = ShengjiGame(options, seed, context)
        except (ValueError, TypeError, KeyError) as e:
            raise IllegalAction(f"bad record: {e}") from None
        for i, step in enumerate(actions):  # steps are counted from 1, as in the other games' records
            if not (isinstance(step, list | tuple) and len(step) == 2 and type(step[0]) is int
                    and isinstance(step[1], str)):
                raise IllegalAction(f"record step {i + 1} is malformed: {step!r} (expected [seat, text])")
            seat, text = step
            try:
                apply_step(g, seat, text)
            except IllegalAction as e:
                raise IllegalAction(f"record step {i + 1} (seat {seat}, {text!r}) is illegal: {e}") from None
        stored = record.get("result")
        if stored is not None and g.result is None:
            raise IllegalAction(f"the record ends before the hand is over (after {len(actions)} steps), yet holds a "
                                "result")
        if stored is not None and stored != json.loads(json.dumps(g.result)):  # as JSON stored it
            raise IllegalAction("the record's result differs from the replayed result")
        return g

    # ------------------------------------------------------------------ the match
    def match_start(self, options: Mapping[str, Any]) -> JSON:
        """Team levels at ``start_level``, no banker yet, no hands played (§9.5)."""
        start = level_text(level_rank(options.get("start_level", "3")))
        return {"levels": [start, start], "banker": None, "hands": 0, "scores": [0, 0, 0, 0],
                "over": False, "winner": None, "escaped": None}

    def deal_context(self, options: Mapping[str, Any], match: Mapping[str, Any]) -> JSON:
        return {"hand": int(match.get("hands", 0)) + 1, "levels": list(match["levels"]),
                "banker": match.get("banker")}

    def match_after(self, options: Mapping[str, Any], match: Mapping[str, Any], outcome: Mapping[str, Any]) -> JSON:
        """The match after a settled hand: levels, next banker, hands played, running scores, and ``over`` with the
        ``winner`` team (0 = seats 0, 2; 1 = seats 1, 3; ``None`` on a draw or an escape)."""
        out = {**match, "levels": list(match["levels"]), "scores": list(match.get("scores", [0, 0, 0, 0]))}
        hands = int(match.get("hands", 0)) + 1
        out["hands"] = hands
        scores = list(outcome["scores"])
        if outcome.get("escaped") is not None:
            out.update(over=True, winner=None, escaped=outcome["escaped"])
        else:
            banker = outcome["banker"]
            res = hand_result([level_rank(x) for x in match["levels"]], banker, outcome["score"],
                              ace_rule=options.get("ace_rule", "defend"), hand_no=hands,
                              hand_limit=options.get("hand_limit"))
            expect = settle_scores(res, options.get("stake", 1), options.get("match_bonus", 0))
            if expect != scores:
                raise ValueError(f"outcome scores {scores} do not match the hand's result {expect}")
            out.update(levels=[level_text(x) for x in res.new_levels], banker=res.next_banker,
                       over=res.match_over, winner=res.match_winner)
        out["scores"] = [a + b for a, b in zip(out["scores"], scores, strict=True)]
        return out

    def title(self, points: int) -> str:
        i = bisect.bisect_right(_THRESH, points) - 1
        return TITLES[max(i, 0)][1]

    def explain(self, options: Mapping[str, Any], lang: Lang) -> list[Section]:
        """玩法说明: the rules of a table with ``options`` in words, in ``lang`` (:mod:`.explain`)."""
        from .explain import explain

        return explain(options, lang)


FACTORY = ShengjiFactory()

__all__ = ["FACTORY", "INFO", "PRESETS", "TITLES", "ShengjiFactory", "team_of"]
