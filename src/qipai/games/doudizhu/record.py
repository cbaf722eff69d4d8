"""JSON game records: everything needed to rebuild a deal exactly (see ``docs/records.md``).

>>> from qipai.games.doudizhu.rules import PRESETS
>>> from qipai.games.doudizhu.state import Game
>>> g = Game.new(PRESETS["classic"], seed=3)
>>> g.apply("bid 3")
>>> rec = make_record(g)
>>> replay(rec).observe(0) == g.observe(0)
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...core.game import JSON, IllegalAction, apply_step
from ...core.options import short_repr
from .cards import Card
from .rules import Rules, RulesError, preset_name

if TYPE_CHECKING:
    from .state import Game

FORMAT = "qipai-record"
VERSION = 2
READS = (1, 2)
"""Versions :func:`replay` reads: version 1 wrote a seat leaving as ``escape``, version 2 as ``leave``."""


class RecordError(ValueError):
    """A record that cannot be replayed: wrong format, bad rules, or an illegal action (named)."""


def _tokens(cards: list[Card]) -> str:
    return " ".join(str(c) for c in cards)


def make_record(game: Game) -> JSON:
    """The record of ``game`` as it stands (a finished deal carries its outcome)."""
    rec: JSON = {
        "format": FORMAT,
        "version": VERSION,
        "game": "doudizhu",
        "preset": preset_name(game.rules),
        "rules": game.rules.to_options(),
        "seed": game.seed,
        "deal": None,
        "first_bidder": game.fixed_first_bidder,
        "table_points": game.table_points,
        "actions": [{"seat": s, "action": a} for s, a in game.actions],
        "outcome": game.outcome(),
    }
    if game.given_deal is not None:
        hands, kitty = game.given_deal
        rec["deal"] = {"hands": [_tokens(sorted(h)) for h in hands], "kitty": _tokens(sorted(kitty))}
    return rec


def replay(record: Mapping[str, Any] | str, *, upto: int | None = None) -> Game:
    """Rebuild the deal of a record (a dict or its JSON text), applying its first ``upto`` actions (all by
    default).  Refuses a record whose actions are illegal, naming the first bad one, and one whose stored
    outcome differs from the replayed outcome."""
    from .state import Game

    rec: Mapping[str, Any] = json.loads(record) if isinstance(record, str) else record
    if not isinstance(rec, Mapping):
        raise RecordError(f"not a qipai record: a record is a JSON object, not {type(rec).__name__}")
    if rec.get("format") != FORMAT:
        raise RecordError(f"not a qipai record: format is {rec.get('format')!r}, expected {FORMAT!r}")
    if rec.get("version") not in READS:
        raise RecordError(f"unsupported record version {rec.get('version')!r} "
                          f"(this build reads {', '.join(map(str, READS))})")
    if rec.get("game") != "doudizhu":
        raise RecordError(f"not a Dou Dizhu record: game is {rec.get('game')!r}")
    if rec.get("rules") and not isinstance(rec["rules"], Mapping):
        raise RecordError("bad rules in record: rules are an object of options")
    if not rec.get("rules") and not rec.get("preset"):  # (read as classic, a four-player deal failed at its bids)
        raise RecordError("the record names no rules: it has neither 'rules' nor 'preset'")
    try:
        rules = Rules.from_options(rec["rules"]) if rec.get("rules") else Rules.from_options(
            {"preset": rec.get("preset")})
    except (RulesError, KeyError, TypeError, ValueError) as e:
        raise RecordError(f"bad rules in record: {e}") from None
    seed = rec.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"the record has no integer seed (seed is {short_repr(seed)})")
    first = rec.get("first_bidder")
    if first is not None and (not isinstance(first, int) or isinstance(first, bool)
                              or not 0 <= first < rules.players):
        raise RecordError(f"bad first_bidder in record: a seat 0..{rules.players - 1}, not {first!r}")
    deal = rec.get("deal")
    if deal and not isinstance(deal, Mapping):
        raise RecordError(f"bad deal in record: an object with hands and kitty, not {short_repr(deal)}")
    points = rec.get("table_points")
    if points is not None and (not isinstance(points, list) or len(points) != rules.players or any(
            not isinstance(x, int) or isinstance(x, bool) for x in points)):
        raise RecordError(f"bad table_points in record: a list of {rules.players} whole numbers (each seat's "
                          f"points at the table), not {short_repr(points)}")
    if deal:
        for key in ("hands", "kitty"):
            if key not in deal:
                raise RecordError(f"bad deal in record: it has no {key!r}")
        hands = deal["hands"]
        if not isinstance(hands, list) or not all(isinstance(h, (str, list)) for h in hands):
            raise RecordError(f"bad deal in record: hands are a list of {rules.players} hands, each cards as text "
                              f"(\"3S 3H 4D\") or a list, not {short_repr(hands)}")
        if not isinstance(deal["kitty"], (str, list)):
            raise RecordError(f"bad deal in record: the kitty is cards as text or a list, not "
                              f"{short_repr(deal['kitty'])}")
    try:
        if deal:
            game = Game.from_deal(rules, deal["hands"], deal["kitty"], first_bidder=rec.get("first_bidder"),
                                  seed=seed, table_points=rec.get("table_points"))
        else:
            game = Game.new(rules, seed, first_bidder=rec.get("first_bidder"), table_points=rec.get("table_points"))
    except KeyError as e:
        raise RecordError(f"bad deal in record: it has no {e.args[0]!r}") from None
    except (IllegalAction, TypeError, ValueError) as e:
        raise RecordError(f"bad deal in record: {e}") from None
    actions = rec.get("actions", [])
    if actions is None:
        actions = []
    if not isinstance(actions, list):
        raise RecordError("bad record: actions are a list of {seat, action} steps")
    for i, item in enumerate(actions[:upto] if upto is not None else actions):
        try:
            seat, text = item["seat"], item["action"]
            if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(text, str):
                raise TypeError
            apply_step(game, seat, text)
        except IllegalAction as e:
            raise RecordError(f"action {i + 1} (seat {item.get('seat')}: {item.get('action')!r}) is illegal: {e}") \
                from None
        except (KeyError, TypeError):
            raise RecordError(f"action {i + 1} is malformed: {item!r}") from None
    stored = rec.get("outcome")
    replayed = game.outcome() or {}
    # Records written before an outcome key existed (roles, won, first_bidder) are compared on the keys they hold.
    if upto is None and isinstance(stored, dict) and not game.is_over:
        raise RecordError(f"the record ends before the deal is over (after {len(actions)} actions), yet holds an "
                          "outcome")
    if upto is None and isinstance(stored, dict) and any(replayed.get(k) != v for k, v in stored.items()):
        raise RecordError("the replayed outcome differs from the outcome stored in the record")
    return game
