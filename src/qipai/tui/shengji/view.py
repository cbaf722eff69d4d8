"""What the Shengji terminal game draws: cards, the hand by effective suit with the trumps apart, the status
(level, trump, banker, team levels, points), tricks, settlements and a record's summary.  Pure functions of the
game's observation (or outcome) and the table's names.

>>> card_label("TH", "en"), card_label("R", "zh"), card_label("B", "en")
('10♥', '大王', 'B')
>>> [t.plain for t in hand_lines("R 3H 3S AH 2C KS 4D", "3", "H", "en")]
['  trumps (5): R 3♥ 3♠ 2♣ A♥', '  spades (1): K♠', '  diamonds (1): 4♦']
>>> [t.plain for t in hand_lines("R 3H 3S AH 2C KS", "3", None, "zh")]
['  王 (1): 大王', '  黑桃 (2): K♠ 3♠', '  红桃 (2): A♥ 3♥', '  梅花 (1): 2♣']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from ...games.shengji.cards import SUIT_SYMBOLS, SUITS, TRUMP, card, format_cards, order, parse_cards
from ..records import fill_names
from .words import tr

_RED = "bold red"


def card_label(token: str, lang: str) -> str:
    """One card token as shown: ``10♥``, ``5♠``; jokers ``B``/``R`` (小王/大王 in Chinese)."""
    if token in ("B", "R"):
        if lang == "zh":
            return "小王" if token == "B" else "大王"
        return token
    rank, suit = token[0], token[1]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[SUITS.index(suit)]


def card_style(token: str) -> str:
    """Red suits and the big joker in red."""
    if token == "R" or (len(token) == 2 and token[1] in "HD"):
        return _RED
    return "bold"


def cards_text(cards: str | Sequence[str], lang: str) -> Text:
    """Card tokens (or a space-separated text of them) as coloured text."""
    toks = cards.split() if isinstance(cards, str) else list(cards)
    t = Text()
    for i, tok in enumerate(toks):
        if i:
            t.append(" ")
        t.append(card_label(tok, lang), style=card_style(tok))
    return t


def cards_plain(cards: str | Sequence[str], lang: str) -> str:
    return cards_text(cards, lang).plain


def hand_lines(hand: str, level: str, trump: str | None, lang: str) -> list[Text]:
    """The hand by effective suit: the trumps first (highest first, §4) once the trump is known, then each off
    suit; before that (the deal) the jokers and each suit from ``A`` down, level cards and 2s where they fall."""
    groups: dict[str, list[str]] = {}
    if trump is not None:
        o = order(level, trump)
        for tok in format_cards(parse_cards(hand), o).split():  # highest first, trumps first
            e = o.esuit[card(tok)]
            groups.setdefault("trumps" if e == TRUMP else "suit_" + SUITS[e], []).append(tok)
        keys = ["trumps"] + ["suit_" + s for s in SUITS]
    else:
        for tok in format_cards(parse_cards(hand)).split():
            groups.setdefault("jokers" if tok in ("B", "R") else "suit_" + tok[1], []).append(tok)
        keys = ["jokers"] + ["suit_" + s for s in SUITS]
    out = []
    for k in keys:
        if k in groups:
            t = Text(f"  {tr(lang, k)} ({len(groups[k])}): ")
            t.append_text(cards_text(groups[k], lang))
            out.append(t)
    return out


def level_cards(hand: str, level: str) -> list[str]:
    """The hand's level cards (what a declaration may show), grouped by suit in suit order."""
    toks = hand.split()
    return [f"{level}{s}" for s in SUITS for _ in range(toks.count(f"{level}{s}"))]


def plays_text(plays: Sequence[Sequence[Any]], names: Sequence[str], lang: str) -> Text:
    """``name cards · name cards …`` for ``[[seat, cards], …]``."""
    t = Text()
    for i, (seat, cards) in enumerate(plays):
        if i:
            t.append(" · ", style="dim")
        t.append(names[seat] + " ")
        t.append_text(cards_text(cards, lang))
    return t


def trump_text(obs: Mapping[str, Any], lang: str) -> str:
    t = obs.get("trump")
    if t is None:
        return tr(lang, "trump_none")
    return SUIT_SYMBOLS[SUITS.index(t)] + " " + tr(lang, "suit_" + t)


def status_lines(obs: Mapping[str, Any], names: Sequence[str], team_names: Sequence[str], lang: str) -> list[Text]:
    """Hand, level, trump and banker; each team's level; the points won so far; the trick in progress and the
    last trick."""
    banker = obs.get("banker")
    lines = [Text(tr(lang, "status_line", n=obs["hand_no"], level=_lv(obs["level"]), trump=trump_text(obs, lang),
                     banker=names[banker] if banker is not None else tr(lang, "banker_tbd")),
                  style="bold")]
    lv = obs["levels"]
    lines.append(Text(tr(lang, "teams_line", a=team_names[0], la=_lv(lv[0]), b=team_names[1], lb=_lv(lv[1]))))
    p = obs.get("points") or {}
    lines.append(Text(tr(lang, "points_head") + tr(lang, "points_line", att=p.get("attackers", 0),
                                                   bank=p.get("banker", 0), pen=p.get("penalties", 0))))
    last = last_trick_line(obs, names, lang)
    if last is not None:
        lines.append(last)
    if obs.get("trick"):
        lines.append(_fill(tr(lang, "this_trick", plays="\0"), plays_text(obs["trick"], names, lang)))
    return lines


def last_trick_line(obs: Mapping[str, Any], names: Sequence[str], lang: str) -> Text | None:
    """``Last trick: … → winner (points)``, or ``None`` before the first trick is done."""
    last = obs.get("last_trick")
    if last is None:
        return None
    return _fill(tr(lang, "last_trick", plays="\0", name=names[last["winner"]], points=last["points"]),
                 plays_text(last["plays"], names, lang))


def _fill(template: str, value: Text) -> Text:
    """``template`` with its ``\\0`` replaced by the styled ``value``."""
    a, _, b = template.partition("\0")
    t = Text(a)
    t.append_text(value)
    t.append(b)
    return t


def _lv(level: str) -> str:
    return "10" if level == "T" else level


def settlement_lines(out: Mapping[str, Any], names: Sequence[str], team_names: Sequence[str],
                     lang: str) -> list[Text]:
    """The end of a hand: who won, the attackers' score and how it was made (扣底), the level changes, the next
    banker, each seat's points."""
    if out.get("escaped") is not None:
        return [Text(tr(lang, "escaped", name=names[out["escaped"]]), style="bold yellow"),
                Text(tr(lang, "settle_scores", scores=_scores(out, names)))]
    winner = team_names[out["winning_team"]]
    lines = [Text(tr(lang, "settle_head", n=out["hand_no"], winner=winner, s="s"),
                  style="bold")]
    lt = out["last_trick"]
    lines.append(Text(tr(lang, "settle_score", score=out["score"], before=out["attackers_points_before_last"],
                         amount=lt["amount"], pts=lt["points"], m=lt["m"],
                         side=tr(lang, "side_" + lt["side"]), pen=out["penalties"])))
    old, new = out["levels"], out["new_levels"]
    capped = "" if out["d_applied"] == out["d_nominal"] else tr(lang, "settle_capped", applied=out["d_applied"])
    lines.append(Text(tr(lang, "settle_levels", a=team_names[0], la=_lv(old[0]), na=_lv(new[0]), b=team_names[1],
                         lb=_lv(old[1]), nb=_lv(new[1]), d=out["d_nominal"], capped=capped)))
    if not out.get("match_over") and out.get("next_banker") is not None:
        lines.append(Text(tr(lang, "settle_next", name=names[out["next_banker"]])))
    lines.append(Text(tr(lang, "settle_scores", scores=_scores(out, names))))
    if out.get("match_over"):
        mw = out.get("match_winner")
        lines.append(Text(tr(lang, "match_draw") if mw is None else tr(lang, "match_over", team=team_names[mw], s="s"),
                          style="bold green"))
    return lines


def _scores(out: Mapping[str, Any], names: Sequence[str]) -> str:
    return " · ".join(f"{names[i]} {s:+d}" for i, s in enumerate(out["scores"]))


def seat_names(names: Sequence[str] | None, lang: str) -> list[str]:
    """The four seats' names for a replay: ``names[i]``, each seat that ``names`` leaves out or leaves empty as
    ``seat i`` (Chinese ``i 号``).

    >>> seat_names(["Ann", ""], "en")
    ['Ann', 'seat 1', 'seat 2', 'seat 3']
    """
    return fill_names(names, [f"seat {i}" if lang == "en" else f"{i} 号" for i in range(4)])


def record_lines(out: Mapping[str, Any], lang: str, names: Sequence[str] | None = None) -> list[Text]:
    """A finished hand from its outcome, for ``qipai replay``: the deal, the declarations, every trick and the
    settlement, with seats named by ``names`` (the record's players, see docs/records.md), a seat it does not name
    ``seat N`` (:func:`seat_names`)."""
    names = seat_names(names, lang)
    teams = [tr(lang, "team_a"), tr(lang, "team_b")]
    lines = [Text(tr(lang, "status_line", n=out["hand_no"], level=_lv(out["level"]),
                     trump=trump_text(out, lang), banker=names[out["banker"]] if out["banker"] is not None else "?"),
                  style="bold")]
    for seat, cards, at in out.get("declarations") or []:
        t = Text(f"  {names[seat]} @{at}: ")
        t.append_text(cards_text(cards, lang))
        lines.append(t)
    failed = list(out.get("failed_throws") or [])

    def throws_of(k: int | None) -> None:
        """The failed throws of trick ``k`` (``None``: those of no trick told), said where they happened."""
        for ft in [f for f in failed if k is None or f.get("trick") == k]:
            failed.remove(ft)
            lines.append(Text("      " + tr(lang, "failed_throw", name=names[ft["seat"]],
                                            cards=cards_plain(ft["cards"], lang),
                                            forced=cards_plain(ft["forced"], lang), pen=ft["penalty"]),
                              style="yellow"))

    for k, trick in enumerate(out.get("tricks") or [], start=1):
        t = Text(f"  {k:2d}. ")
        t.append_text(plays_text(trick["plays"], names, lang))
        t.append(f" → {names[trick['winner']]} ({trick['points']})", style="dim")
        lines.append(t)
        throws_of(k)
    throws_of(None)
    return lines + settlement_lines(out, names, teams, lang)
