"""A private table played for a set number of deals (好友房局数) and its final summary (大结算).

The summary is made from the table's settled deals as its history dialog (历史得分) sums them — each deal's
``scores``, one per seat, and the ``players`` (names) and ``user_ids`` who held the seats — so it knows no game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

DEALS_MIN = 1
DEALS_MAX = 64
"""The numbers of deals a private table may be created for (``None``: open-ended)."""


def final_summary(results: Sequence[dict[str, Any]], deals_total: int | None) -> dict[str, Any]:
    """Each player's total over the deals in ``results`` (oldest first), ranked, with the deals played and won
    (a positive score) and the best single deal; ``winner``: the first place, unless every total is the same.

    A player is a seat and the name that held it: one who left and another who sat down in the seat are two rows."""
    rows: dict[tuple[int, str], dict[str, Any]] = {}
    best: dict[str, Any] | None = None
    last = len(results) - 1
    for k, r in enumerate(results):
        scores = r.get("scores") or []
        names = r.get("players") or []
        uids = r.get("user_ids") or []
        for seat, score in enumerate(scores):
            if not isinstance(score, int) or isinstance(score, bool):
                continue
            name = names[seat] if seat < len(names) and names[seat] is not None else f"#{seat + 1}"
            row = rows.get((seat, name))
            if row is None:
                row = rows[(seat, name)] = {"seat": seat, "name": name, "user_id": None, "total": 0, "deals": 0,
                                            "won": 0, "best": None, "last": None}
            uid = uids[seat] if seat < len(uids) else None
            if isinstance(uid, int):
                row["user_id"] = uid
            row["total"] += score
            row["deals"] += 1
            row["won"] += score > 0
            row["best"] = score if row["best"] is None else max(row["best"], score)
            if k == last:
                row["last"] = score
            if score > 0 and (best is None or score > best["score"]):
                best = {"seat": seat, "name": name, "score": score,
                        "deal_index": r.get("deal_index", k)}
    ranked = sorted(rows.values(), key=lambda x: (-x["total"], x["seat"]))
    totals = {x["total"] for x in ranked}
    for x in ranked:
        x["rank"] = 1 + sum(1 for y in ranked if y["total"] > x["total"])
        x["winner"] = x["rank"] == 1 and len(totals) > 1
    return {
        "deals_total": deals_total,
        "deals_played": len(results),
        "players": ranked,
        "winners": [x["seat"] for x in ranked if x["winner"]],
        "best_deal": best,
    }
