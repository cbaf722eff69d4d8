"""What the mahjong terminal table prints: the table around the player, the public events and the settlement
(every loser's fans and share, who paid whom and for whom)."""

from __future__ import annotations

from typing import Any

from ...games.mahjong.tiles import parse_tiles
from ...games.mahjong.tiles import tile_name as tn
from .words import tr


def hand_text(hand: str) -> str:
    """Tiles one by one (``1m 1m 2p Z``), as they are typed."""
    return " ".join(tn(k) for k in sorted(parse_tiles(hand))) if hand else ""


VERBS_ZH = {"chi": "吃", "peng": "碰", "hu": "胡", "pass": "过", "ting": "听", "discard": "打", "zhidui": "支对"}
"""The engine's verbs as a Chinese player reads (and may type) them."""


def action_words(action: str, lang: str) -> str:
    """An engine action as the player reads it: in English as it is; in Chinese with the verbs the table also
    reads when typed (``chi 456m ting`` → ``吃听 456m``, ``ting 5m zhidui 7p`` → ``听 5m 支对 7p``).

    >>> [action_words(a, "zh") for a in ("peng", "peng ting", "chi 456m ting", "pass", "ting 5m zhidui 7p")]
    ['碰', '碰听', '吃听 456m', '过', '听 5m 支对 7p']
    >>> action_words("chi 456m ting", "en")
    'chi 456m ting'
    """
    if lang != "zh":
        return action
    words = action.split()
    if len(words) >= 2 and words[0] in ("chi", "peng") and words[-1] == "ting":
        words = [VERBS_ZH[words[0]] + VERBS_ZH["ting"], *words[1:-1]]
    return " ".join(VERBS_ZH.get(w, w) for w in words)


def melds_text(melds: list[dict[str, Any]], lang: str = "en") -> str:
    """``[peng 999s] [chi 456m]`` (``[碰 999s] [吃 456m]`` in Chinese), ``-`` for none."""
    return " ".join(f"[{action_words(m['type'], lang)} {m['tiles']}]" for m in melds) or "-"


def table_lines(obs: dict[str, Any], names: list[str], lang: str, me: int) -> list[str]:
    """The table as the player sees it: every seat's discards and melds, the wall, the 宝, his hand and hints."""
    lines = []
    for k in (1, 2, 3):
        s = (me + k) % 4
        ready = tr(lang, "ready_mark") if obs["ready"][s] else ""
        lines.append(tr(lang, "river_of", name=names[s], n=obs["concealed"][s], ready=ready,
                        river=" ".join(obs["rivers"][s]) or "-"))
        if obs["melds"][s]:
            lines.append("  " + tr(lang, "melds_of", name=names[s], melds=melds_text(obs["melds"][s], lang)))
    lines.append(tr(lang, "river_of", name=names[me], n=obs["concealed"][me],
                    ready=tr(lang, "ready_mark") if obs["ready"][me] else "", river=" ".join(obs["rivers"][me]) or "-"))
    lines.append(tr(lang, "wall", n=obs["wall"]))
    if obs.get("bao"):
        lines.append(tr(lang, "bao", tile=obs["bao"]))
    elif obs.get("bao_set"):
        lines.append(tr(lang, "bao_set"))
    if obs["melds"][me]:
        lines.append(tr(lang, "melds", melds=melds_text(obs["melds"][me], lang)))
    line = tr(lang, "your_hand", hand=hand_text(obs.get("hand", "")))
    if obs.get("drawn"):
        line += tr(lang, "drawn", tile=obs["drawn"])
    lines.append(line)
    hi = obs.get("hints")
    if hi and obs["phase"] != "over":
        if hi.get("waits"):
            lines.append(tr(lang, "waits", tiles=" ".join(w["tile"] for w in hi["waits"])))
        elif hi.get("discards"):
            best = min(d["shanten"] for d in hi["discards"])
            tiles = [d["tile"] for d in hi["discards"] if d["shanten"] == best][:4]
            lines.append(tr(lang, "shanten", n=best, tiles=" ".join(tiles)))
    return lines


def event_line(e: dict[str, Any], names: list[str], lang: str, me: int) -> str | None:
    """One public log entry in words (``None``: nothing to say)."""
    a: str = e["action"]
    seat = e.get("seat")
    name = names[seat] if isinstance(seat, int) else ""
    words = a.split()
    if a == "draw":
        return tr(lang, "act_draw_tile", tile=e["tile"]) if seat == me and e.get("tile") else None
    if words[0] == "discard":
        return tr(lang, "act_auto_discard" if e.get("auto") else "act_discard", name=name, tile=words[1])
    if words[0] == "ting":
        return tr(lang, "act_ting", name=name, tile=words[1])
    if words[0] == "chi":
        return tr(lang, "act_chi_ting" if a.endswith(" ting") else "act_chi", name=name, tiles=words[1])
    if words[0] == "peng":
        return tr(lang, "act_peng_ting" if a.endswith(" ting") else "act_peng", name=name, tile=e.get("tile", ""))
    if a == "hu":
        return tr(lang, "act_hu", name=name)
    if a == "pass":
        return tr(lang, "act_pass", name=name)
    if a == "bao":
        return tr(lang, "act_bao")
    if a == "bao dead":
        return tr(lang, "act_bao_dead", tile=e.get("tile", ""))
    if a == "exhausted":
        return tr(lang, "act_exhausted")
    if a == "leave":
        return tr(lang, "act_leave", name=name)
    return None


def fans_text(fans: list[str], lang: str) -> str:
    return " · ".join(tr(lang, "fan_" + f) for f in fans) or tr(lang, "no_fans")


def settlement_lines(out: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """The deal's settlement: who won and how, the hand's fans, each loser's fans and share, every payment with
    whom it was for (包三家), the scores and the four hands."""
    lines = []
    w = out["winner"]
    if w is None or out["exhausted"]:
        lines.append(tr(lang, "over_exhausted"))
    else:
        win = out["win"] or {}
        tile = win.get("tile", "")
        how = out["how"]
        if how == "discard":
            how_text = tr(lang, "how_discard", feeder=names[out["feeder"]], tile=tile)
        elif how == "wild":
            how_text = tr(lang, "how_wild", tile=tile, read=win.get("read_as", tile))
        else:
            how_text = tr(lang, "how_" + (how or "self_drawn"), tile=tile)
        lines.append(tr(lang, "over_win", name=names[w], how=how_text))
        if win.get("reading"):
            lines.append(tr(lang, "reading", reading=win["reading"]))
        st = out["settlement"]
        lines.append(tr(lang, "hand_fans", fans=fans_text(st["hand_fans"], lang)))
        for sh in st["shares"]:
            lines.append(tr(lang, "loser", name=names[sh["seat"]], fans=fans_text(sh["fans"], lang), share=sh["share"]))
        for p in st["payments"]:
            if p["for"] is not None and p["for"] != p["payer"]:
                lines.append(tr(lang, "pays_for", payer=names[p["payer"]], payee=names[p["payee"]],
                                loser=names[p["for"]], n=p["amount"]))
            else:
                lines.append(tr(lang, "pays", payer=names[p["payer"]], payee=names[p["payee"]], n=p["amount"]))
        if st.get("bao_san_jia"):
            lines.append(tr(lang, "bsj", name=names[st["feeder"]]))
    lines.append(tr(lang, "scores", scores=" · ".join(f"{names[i]} {s:+d}" for i, s in enumerate(out["scores"]))))
    hands = out.get("hands") or []
    if hands:
        lines.append(tr(lang, "hands_at_end", hands=" | ".join(f"{names[i]}: {h}" for i, h in enumerate(hands))))
    return lines


def record_lines(outcome: dict[str, Any], lang: str) -> list[Any]:
    """A finished deal's outcome described for ``qipai replay`` (rich Texts)."""
    from rich.text import Text

    names = [f"#{i}" for i in range(4)]
    return [Text(x) for x in settlement_lines(outcome, names, lang)]
