"""Dou Dizhu's own API route (``POST /api/games/doudizhu/check``, mounted by the server from the game's
:attr:`~qipai.core.game.GameInfo.routes`): pure functions of a JSON body, no IO.

``check`` says whether some cards form a combination under a table's rules and whether they beat the
last play, so the client can tell a player *why* a selection cannot be played ("not a valid combination",
"not the same kind as the last play", "does not beat the last play").  It is a pure function of its body:
no login, no table state.

Body::

    {"cards": "334455",                     # rank notation (3456789TJQKA2BR); suits and spaces are ignored
     "options": {"preset": "classic"},      # the table's rule options (or "preset": "classic" at the top level)
     "last": "3344", "last_kind": "pair_straight"}   # the play to beat, if any (kind when ambiguous)

Answer::

    {"valid": true, "readings": [{"label": "334455", "kind": "pair_straight", "main": "5", "length": 3,
                                  "size": 6, "beats": true}],
     "beats": true, "reason": null, "message": "..."}

``reason`` is ``null`` when some reading may be played; otherwise ``empty`` (no cards), ``invalid`` (no
reading), ``wrong_kind`` (valid, but a different kind, length or card count than the last play, and not a
bomb) or ``too_low`` (same shape, or a bomb, but not higher).
"""

from __future__ import annotations

import re
from typing import Any

from qipai.games.doudizhu.cards import NotationError
from qipai.games.doudizhu.combos import Move, beats, classify
from qipai.games.doudizhu.rules import KIND_NAMES_ZH, Rules, RulesError

_SUITS = re.compile(r"[SHCD♠♥♣♦\s,]", re.IGNORECASE)


class CheckError(ValueError):
    pass


def _ranks(text: Any, what: str) -> str:
    if not isinstance(text, str):
        raise CheckError(f"{what} must be text in rank notation (3456789TJQKA2BR)")
    if len(text) > 400:
        raise CheckError(f"{what} is too long")
    # Card names such as "TH" or "5S" carry a suit: keep the ranks only.  "10" stays a ten.
    ranks = _SUITS.sub("", text.upper().replace("10", "T"))
    return ranks


def _rules(data: dict[str, Any]) -> Rules:
    options = data.get("options")
    if options is None:
        options = {"preset": data.get("preset") or "classic"}
    if not isinstance(options, dict):
        raise CheckError("options must be an object of rule options")
    try:
        return Rules.from_options(options)
    except (RulesError, TypeError, ValueError) as e:
        raise CheckError(f"bad options: {e}") from None


def _pick_last(last: str, kind: Any, rules: Rules) -> Move | None:
    if not last:
        return None
    try:
        readings = classify(last, rules)
    except NotationError as e:
        raise CheckError(f"last: {e}") from None
    if not readings:
        raise CheckError(f"last: {last!r} is not a combination under these rules")
    if isinstance(kind, str) and kind:
        same = [m for m in readings if m.kind == kind]
        if same:
            return same[-1]
    return readings[-1]


def check(data: dict[str, Any]) -> dict[str, Any]:
    """The answer of ``POST /api/check`` for a decoded body (raises :class:`CheckError` on a bad body)."""
    rules = _rules(data)
    cards = _ranks(data.get("cards", ""), "cards")
    last_text = _ranks(data.get("last") or "", "last")
    last = _pick_last(last_text, data.get("last_kind"), rules)
    if not cards:
        return {"valid": False, "readings": [], "beats": None, "reason": "empty", "message": "no cards selected"}
    try:
        readings = classify(cards, rules)
    except NotationError as e:
        # more copies of a rank than the decks hold, or an unknown letter
        return {"valid": False, "readings": [], "beats": None, "reason": "invalid", "message": str(e)}
    out = []
    for m in readings:
        out.append(
            {
                "label": m.label(rules),
                "kind": m.kind,
                "kind_zh": KIND_NAMES_ZH.get(m.kind, m.kind),
                "main": m.main_letter,
                "length": m.length,
                "size": m.size,
                "beats": None if last is None else beats(m, last, rules),
            }
        )
    if not readings:
        return {
            "valid": False,
            "readings": [],
            "beats": None,
            "reason": "invalid",
            "message": f"{cards} is not a valid combination under these rules",
        }
    if last is None:
        return {"valid": True, "readings": out, "beats": None, "reason": None, "message": "a valid lead"}
    if any(r["beats"] for r in out):
        return {"valid": True, "readings": out, "beats": True, "reason": None, "message": f"beats {last.text}"}
    same_shape = any(
        m.is_bomb or (m.kind == last.kind and m.length == last.length and m.size == last.size) for m in readings
    )
    if same_shape:
        return {
            "valid": True,
            "readings": out,
            "beats": False,
            "reason": "too_low",
            "message": f"{cards} does not beat {last.text}",
        }
    return {
        "valid": True,
        "readings": out,
        "beats": False,
        "reason": "wrong_kind",
        "message": f"{cards} is not the same kind as {last.text} ({last.kind}, {last.size} cards)",
    }


ROUTES = {"check": check}
"""Route name → pure function of the decoded JSON body; a ``ValueError`` is the caller's mistake (HTTP 400)."""
