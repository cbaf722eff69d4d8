"""Plain-text descriptions of a deal and its outcome, in Chinese or English (for ``selfplay`` and ``replay``).

>>> card_name("TH", "en"), card_name("B", "zh"), card_name("5S", "zh")
('10♥', '小王', '♠5')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .cards import RANK_LETTERS, RANK_NAMES_EN, RANK_NAMES_ZH, SUIT_SYMBOLS
from .rules import KIND_NAMES_ZH

if TYPE_CHECKING:
    from .state import Game

_WORDS = {
    "en": {
        "deal": "Deal {n}: {fb} bids first",
        "face_up": "face-up card {card} (held by {seat})",
        "hand": "  {seat}: {cards}",
        "kitty": "  kitty: {cards}",
        "bid": "{seat} {what}",
        "pass": "passes",
        "bids": "bids {v}",
        "calls": "calls landlord",
        "redeal": "nobody bid: redeal #{n}",
        "dissolved": "nobody bid three times: the game is dissolved",
        "landlord": "{seat} is the landlord (bid {bid}); kitty {kitty}",
        "double": "{seat} {name}",
        "show": "landlord shows the hand: {cards}",
        "play": "{seat} plays {cards} ({kind})",
        "play_pass": "{seat} passes",
        "trick": "  -- {seat} wins the trick",
        "autoplay": "{seat} auto-play {state}",
        "escape": "{seat} escapes",
        "winner": "winner: {who}",
        "landlord_side": "the landlord, {seat}",
        "farmers_side": "farmers",
        "none": "nobody",
        "multiplier": "multiplier ×{m}: {factors}",
        "scores": "scores: {scores}",
        "bid_stake": "bid {bid}, stake {stake}",
    },
    "zh": {
        "deal": "第 {n} 副牌：{fb}先叫",
        "face_up": "明牌 {card}（{seat}）",
        "hand": "  {seat}：{cards}",
        "kitty": "  底牌：{cards}",
        "bid": "{seat}{what}",
        "pass": "不叫",
        "bids": "叫 {v} 分",
        "calls": "叫地主",
        "redeal": "无人叫牌：第 {n} 次重发",
        "dissolved": "三次无人叫牌：游戏解散",
        "landlord": "{seat}当地主（{bid} 分），底牌 {kitty}",
        "double": "{seat} {name}",
        "show": "地主亮牌：{cards}",
        "play": "{seat}出 {cards}（{kind}）",
        "play_pass": "{seat}不出",
        "trick": "  —— {seat}赢得本轮",
        "autoplay": "{seat}托管{state}",
        "escape": "{seat}逃跑",
        "winner": "胜方：{who}",
        "landlord_side": "地主（{seat}）",
        "farmers_side": "农民",
        "none": "无",
        "multiplier": "倍数 ×{m}：{factors}",
        "scores": "得分：{scores}",
        "bid_stake": "底分 {bid}，基数 {stake}",
    },
}


FACTOR_NAMES_ZH = {"bomb": "炸弹", "bombs": "炸弹", "rocket": "火箭", "spring": "春天", "anti-spring": "反春",
                   "show hand": "亮牌"}


def factor_name(name: str, lang: str) -> str:
    """A multiplier factor's name in ``lang`` (``bomb of 6`` → ``6张炸弹``)."""
    if lang != "zh":
        return name
    if name.startswith("bomb of "):
        return f"{name[8:]}张炸弹"
    return FACTOR_NAMES_ZH.get(name, name)


def card_name(token: str, lang: str) -> str:
    """A card token (``5S``, ``TH``, ``B``) as a person reads it."""
    rank = RANK_LETTERS.index(token[0])
    names = RANK_NAMES_ZH if lang == "zh" else RANK_NAMES_EN
    if len(token) == 1:
        return names[rank]
    sym = SUIT_SYMBOLS[token[1]]
    return sym + names[rank] if lang == "zh" else names[rank] + sym


def rank_names(move: str, lang: str) -> str:
    """Rank notation (``TTJJ``) as card names (``10 10 J J``)."""
    names = RANK_NAMES_ZH if lang == "zh" else RANK_NAMES_EN
    return " ".join(names[RANK_LETTERS.index(ch)] for ch in move)


def seat_label(seat: int, lang: str) -> str:
    """A seat named by its number, for a record that names no players (``seat 0``, ``0 号位``)."""
    return f"seat {seat}" if lang == "en" else f"{seat} 号位"


def _namer(names: Sequence[str] | None, lang: str) -> Callable[[int], str]:
    """Seat → its name: ``names[seat]``, a seat that ``names`` does not name (too short a list, an empty name)
    by its number as :func:`seat_label` says it."""
    named = list(names or [])
    return lambda s: (named[s] if 0 <= s < len(named) else "") or seat_label(s, lang)


def describe_deal(game: Game, lang: str = "en", names: Sequence[str] | None = None) -> list[str]:
    """The deal step by step: hands, bidding, doubling, every play and pass, and who won each trick.  ``names``:
    each seat's name (a record's players, see docs/records.md), else seats are named by number (``seat 0``)."""
    w = _WORDS[lang]
    who = _namer(names, lang)
    out: list[str] = []
    deal_no = 0
    for ev in game.log:
        e = ev["event"]
        if e == "deal":
            deal_no += 1
            out.append(w["deal"].format(n=deal_no, fb=who(ev["first_bidder"])))
            if ev.get("face_up"):
                out.append(w["face_up"].format(card=card_name(ev["face_up"], lang), seat=who(ev["first_bidder"])))
            if deal_no == game.redeals + 1:
                for s, h in enumerate(game.initial_hands):
                    out.append(w["hand"].format(seat=who(s), cards=" ".join(card_name(str(c), lang) for c in h)))
                out.append(w["kitty"].format(cards=" ".join(card_name(str(c), lang) for c in game.initial_kitty)))
        elif e == "bid":
            v = ev["value"]
            what = w["pass"] if v == 0 else w["calls"] if game.rules.bidding == "call" else w["bids"].format(v=v)
            out.append(w["bid"].format(seat=who(ev["seat"]), what=what))
        elif e == "redeal":
            out.append(w["redeal"].format(n=ev["count"]))
        elif e == "dissolved":
            out.append(w["dissolved"])
        elif e == "landlord":
            kitty = " ".join(card_name(str(c), lang) for c in game.kitty)
            out.append(w["landlord"].format(seat=who(ev["seat"]), bid=ev["bid"], kitty=kitty))
        elif e == "double":
            out.append(w["double"].format(seat=who(ev["seat"]), name=ev["name"]))
        elif e == "show":
            out.append(w["show"].format(cards=" ".join(card_name(c, lang) for c in ev["hand"])))
        elif e == "play":
            kind = KIND_NAMES_ZH[ev["kind"]] if lang == "zh" else ev["kind"]
            out.append(w["play"].format(seat=who(ev["seat"]), cards=" ".join(card_name(c, lang) for c in ev["cards"]),
                                        kind=kind))
        elif e == "pass":
            out.append(w["play_pass"].format(seat=who(ev["seat"])))
        elif e == "trick":
            out.append(w["trick"].format(seat=who(ev["winner"])))
        elif e == "autoplay":
            state = ("开" if ev["on"] else "关") if lang == "zh" else ("on" if ev["on"] else "off")
            out.append(w["autoplay"].format(seat=who(ev["seat"]), state=state))
        elif e == "escape":
            out.append(w["escape"].format(seat=who(ev["seat"])))
    return out


def describe_outcome(game: Game, lang: str = "en", names: Sequence[str] | None = None) -> list[str]:
    """The settlement: winner, bid and stake, multiplier with its factors, each seat's score change (``names`` as
    for :func:`describe_deal`)."""
    w = _WORDS[lang]
    who = _namer(names, lang)
    res = game.result
    if res is None:
        return []
    if res.winner == "landlord":
        side = w["landlord_side"].format(seat="?" if res.landlord is None else who(res.landlord))
    elif res.winner == "farmers":
        side = w["farmers_side"]
    else:
        side = w["none"]
    factors = [f"{factor_name(f.name, lang)} ×{f.factor}" for f in res.factors]
    for seat, fs in res.farmer_factors.items():
        factors += [f"{f} ({who(seat)})" if lang == "en" else f"{f}（{who(seat)}）" for f in fs]
    return [
        w["winner"].format(who=side),
        w["bid_stake"].format(bid=res.bid, stake=res.stake),
        w["multiplier"].format(m=res.multiplier, factors=", ".join(factors) or "-"),
        w["scores"].format(scores=", ".join(f"{who(s) if names else s}: {v:+d}" for s, v in enumerate(res.scores))),
    ]
