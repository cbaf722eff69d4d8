"""Rich renderables for the terminal game: cards, the table screen, settlements, history and tricks.

Everything here is a pure function of the game and the table's facts, so the screen is the same for the same
seed and the same typed input.

>>> card_label("TH", "en"), card_label("R", "zh"), card_label("B", "en")
('10♥', '大王', 'B')
>>> from qipai.games.doudizhu.cards import parse_cards
>>> [str(c) for c in sort_hand(parse_cards("3S 4H 4D 5S B 2C"), "rank")]
['B', '2C', '5S', '4H', '4D', '3S']
>>> [str(c) for c in sort_hand(parse_cards("3S 4H 4D 5S B 2C"), "count")]
['4H', '4D', 'B', '2C', '5S', '3S']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..games.doudizhu.cards import SUIT_SYMBOLS, Card, card_order
from ..games.doudizhu.settle import Outcome, common_factors
from ..games.doudizhu.state import Game
from ..games.doudizhu.text import factor_name
from .commands import ranks_label
from .i18n import DOUBLING_EN, kind_name, tr, tr_text

_SUIT_STYLE = {"S": "bold", "C": "bold", "H": "bold red", "D": "bold red"}


def card_label(token: str, lang: str) -> str:
    """One card token (``TH``, ``5S``, ``B``) as shown: ``10♥``, ``5♠``; jokers ``B``/``R`` (小王/大王)."""
    rank = token[0]
    if rank in "BR":
        if lang == "zh":
            return "小王" if rank == "B" else "大王"
        return rank
    name = "10" if rank == "T" else rank
    return name + SUIT_SYMBOLS[token[1]]


def card_style(token: str) -> str:
    """Rich style of a card: red suits and the red joker in red."""
    if token[0] == "R":
        return "bold red"
    if token[0] == "B":
        return "bold"
    return _SUIT_STYLE[token[1]]


def cards_text(tokens: Sequence[str], lang: str) -> Text:
    """Card tokens as coloured text separated by spaces."""
    t = Text()
    for i, tok in enumerate(tokens):
        if i:
            t.append(" ")
        t.append(card_label(tok, lang), style=card_style(tok))
    return t


def sort_hand(cards: Sequence[Card], mode: str) -> list[Card]:
    """A hand for display: ``rank`` (highest first) or ``count`` (biggest groups first, then highest)."""
    by_rank = sorted(cards, key=lambda c: (-c.rank, card_order(c)))
    if mode != "count":
        return by_rank
    size: dict[int, int] = {}
    for c in cards:
        size[c.rank] = size.get(c.rank, 0) + 1
    return sorted(by_rank, key=lambda c: (-size[c.rank], -c.rank, card_order(c)))


@dataclass
class TrickView:
    """The plays of one trick, in order: ``(seat, card tokens)`` with ``None`` for a pass."""

    plays: list[tuple[int, list[str] | None]] = field(default_factory=list)
    kinds: list[str | None] = field(default_factory=list)
    winner: int | None = None


def tricks(game: Game) -> tuple[list[TrickView], TrickView]:
    """The finished tricks of the current deal and the trick in progress (read from the public log)."""
    done: list[TrickView] = []
    cur = TrickView()
    for ev in game.log:
        e = ev["event"]
        if e == "deal":
            done, cur = [], TrickView()
        elif e == "play":
            cur.plays.append((ev["seat"], list(ev["cards"])))
            cur.kinds.append(ev["kind"])
        elif e == "pass":
            cur.plays.append((ev["seat"], None))
            cur.kinds.append(None)
        elif e == "trick":
            cur.winner = ev["winner"]
            done.append(cur)
            cur = TrickView()
    if game.is_over and cur.plays:
        cur.winner = game.winner
        done.append(cur)
        cur = TrickView()
    return done, cur


def trick_text(trick: TrickView, names: Sequence[str], lang: str) -> Text:
    """``name cards · name pass · …``."""
    t = Text()
    for i, (seat, cards) in enumerate(trick.plays):
        if i:
            t.append(" · ", style="dim")
        t.append(names[seat] + " ")
        if cards is None:
            t.append(tr(lang, "pass"), style="dim")
        else:
            t.append_text(cards_text(cards, lang))
    if not trick.plays:
        t.append(tr(lang, "no_plays"), style="dim")
    return t


def doubling_word(name: str, lang: str) -> str:
    """A Chengdu doubling word: ``倒`` in Chinese, ``倒 (double)`` in English."""
    return tr(lang, "doubling_word", name=name, en=DOUBLING_EN.get(name, name))


def bid_word(game: Game, value: int, lang: str) -> str:
    """What a bid looks like: ``no bid``, ``bid 2`` or ``call landlord``."""
    if value == 0:
        return tr(lang, "bid_pass")
    if game.rules.bidding == "call":
        return tr(lang, "call")
    return tr(lang, "bid_v", v=value)


def _current_bids(game: Game) -> dict[int, int]:
    out: dict[int, int] = {}
    for ev in game.log:
        if ev["event"] == "deal":
            out = {}
        elif ev["event"] == "bid":
            out[ev["seat"]] = ev["value"]
    return out


def factors_text(game: Game, lang: str) -> str:
    """The common multiplier factors so far, named (``bomb ×2, rocket ×2``), or ``-``."""
    fs = common_factors(game)
    return ", ".join(f"{factor_name(f.name, lang)} ×{f.factor}" for f in fs) or "-"


def multiplier(game: Game) -> int:
    """The common multiplier so far."""
    m = 1
    for f in common_factors(game):
        m *= f.factor
    return m


@dataclass
class TableFacts:
    """What the screen needs besides the game: names, the human seat, totals and labels."""

    names: list[str]
    human: int
    lang: str
    preset: str
    deal_no: int
    seed: int
    totals: list[int]
    points: list[int] | None = None
    sort_mode: str = "rank"
    bots: list[str] = field(default_factory=list)


def seat_name(facts: TableFacts, game: Game, seat: int) -> str:
    """A seat's name with an auto-play tag when it is in auto-play."""
    name = facts.names[seat]
    if game.in_autoplay(seat):
        name += " " + tr(facts.lang, "auto_tag")
    return name


def screen(game: Game, facts: TableFacts) -> RenderableType:
    """The whole table as seen from the human seat."""
    lang = facts.lang
    obs: dict[str, Any] = game.observe(facts.human)
    head = Text(tr(lang, "title"), style="bold")
    head.append(f" · {tr(lang, 'rules', preset=facts.preset)} · {tr(lang, 'deal_no', n=facts.deal_no)}"
                f" · {tr(lang, 'seed', seed=facts.seed)}")
    lines: list[RenderableType] = []
    mult = multiplier(game)
    stake = game.rules.stake
    if game.landlord is not None:
        info = Text(tr(lang, "bid_line", bid=game.bid, stake=stake, mult=mult))
    else:
        info = Text(tr(lang, "no_bid_yet", stake=stake, mult=mult))
    info.append(" · " + tr(lang, "factors", factors=factors_text(game, lang)), style="dim")
    lines.append(info)
    if obs["face_up"] and game.phase == "bid":
        lines.append(Text(tr(lang, "face_up", card=card_label(obs["face_up"], lang),
                             name=facts.names[game.first_bidder])))
    if obs["kitty"]:
        lines.append(tr_text(lang, "kitty", cards=cards_text(obs["kitty"], lang)))
    elif game.landlord is not None:
        lines.append(Text(tr(lang, "kitty_hidden_shown_later", n=len(game.kitty)), style="dim"))
    else:
        lines.append(Text(tr(lang, "kitty_hidden", n=len(game.kitty)), style="dim"))
    if obs["shown_hand"] and game.landlord != facts.human:
        lines.append(tr_text(lang, "shown_hand", cards=cards_text(obs["shown_hand"], lang)))

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("")
    table.add_column(tr(lang, "col_seat"))
    table.add_column(tr(lang, "col_role"))
    table.add_column(tr(lang, "col_cards"), justify="right")
    table.add_column(tr(lang, "col_last"))
    table.add_column(tr(lang, "col_points") if facts.points is not None else tr(lang, "col_total"),
                     justify="right")
    _, cur = tricks(game)
    last_by_seat: dict[int, Text] = {}
    for seat, cards in cur.plays:
        last_by_seat[seat] = Text(tr(lang, "pass"), style="dim") if cards is None else cards_text(cards, lang)
    bids = _current_bids(game)
    for seat in range(game.players):
        marker = "▶" if game.to_act == seat else ""
        if game.landlord is None:
            role = Text(tr(lang, "no_role"), style="dim")
        elif seat == game.landlord:
            role = Text(tr(lang, "landlord"), style="bold yellow")
        else:
            role = Text(tr(lang, "farmer"))
            if game.farmer_factors[seat] > 1:
                role.append(f" ×{game.farmer_factors[seat]}", style="magenta")
        n = len(game.hands[seat])
        count = Text(str(n), style="bold red" if 0 < n <= 2 and game.phase == "play" else "")
        if game.phase == "bid":
            last = Text(bid_word(game, bids[seat], lang)) if seat in bids else Text("")
        elif game.phase in ("double", "show"):
            words = [doubling_word(nm, lang) for s, nm in game.doubling if s == seat]
            last = Text(" ".join(words))
        else:
            last = last_by_seat.get(seat, Text(""))
        total = facts.points[seat] if facts.points is not None else facts.totals[seat]
        name = Text(seat_name(facts, game, seat), style="bold" if seat == facts.human else "")
        table.add_row(marker, name, role, count, last, f"{total:+d}" if facts.points is None else str(total))
    lines.append(table)

    if game.phase == "play":
        if cur.plays:
            lines.append(tr_text(lang, "this_trick", plays=trick_text(cur, facts.names, lang)))
        else:
            done, _ = tricks(game)
            if done:
                prev = done[-1]
                lines.append(tr_text(lang, "prev_trick", plays=trick_text(prev, facts.names, lang),
                                     name=facts.names[prev.winner or 0]))
    lines.append(hand_text(game, facts))
    if game.to_act == facts.human:
        lines.append(Text(tr(lang, "turn_you"), style="bold green"))
    elif game.to_act is not None:
        lines.append(Text(tr(lang, "turn_other", name=facts.names[game.to_act])))
    return Panel(Group(*lines), title=head, title_align="left", box=box.ROUNDED)


def hand_text(game: Game, facts: TableFacts) -> Text:
    """``Your hand (by rank): R B 2♠ …``."""
    lang = facts.lang
    mode = tr(lang, "by_count" if facts.sort_mode == "count" else "by_rank")
    t = Text(tr(lang, "your_hand", mode=mode), style="bold")
    hand = sort_hand(game.hands[facts.human], facts.sort_mode)
    t.append_text(cards_text([str(c) for c in hand], lang))
    return t


def action_line(game: Game, ev: dict[str, Any], facts: TableFacts) -> Text | None:
    """One public event as a line (``Bot 1: 7♠ 7♥ (pair)``), or ``None`` for events not worth a line."""
    lang = facts.lang
    e = ev["event"]
    seat = ev.get("seat")
    name = facts.names[seat] if isinstance(seat, int) else ""
    if isinstance(seat, int) and game.in_autoplay(seat) and e in ("play", "pass", "bid", "double", "show"):
        name += " " + tr(lang, "auto_tag")
    if e == "bid":
        return Text(tr(lang, "act_bid", name=name, what=bid_word(game, ev["value"], lang)))
    if e == "play":
        t = tr_text(lang, "act_play", name=name, cards=cards_text(ev["cards"], lang),
                    kind=kind_name(ev["kind"], lang))
        n = len(game.hands[seat]) if isinstance(seat, int) else 0
        if 0 < n <= 2:
            t.append(tr(lang, "act_left", n=n), style="bold red")
        return t
    if e == "pass":
        return Text(tr(lang, "act_pass", name=name), style="dim")
    if e == "trick":
        return Text(tr(lang, "act_trick", name=facts.names[ev["winner"]]), style="dim")
    if e == "landlord":
        return Text(tr(lang, "act_landlord", name=name, bid=ev["bid"]), style="bold yellow")
    return other_event_line(ev, name, lang)


def other_event_line(ev: dict[str, Any], name: str, lang: str) -> Text | None:
    """The line of a public event that needs nothing but itself and its seat's ``name``: a redeal, the game
    dissolved, a doubling, a shown hand, auto-play on or off, an escape (``None`` for other events).  The local
    table's :func:`action_line` and the online client's view both end with it."""
    e = ev.get("event")
    if e == "redeal":
        return Text(tr(lang, "act_redeal", n=ev.get("count", "")), style="yellow")
    if e == "dissolved":
        return Text(tr(lang, "act_dissolved"), style="yellow")
    if e == "double":
        what = tr(lang, "act_double_pass") if ev["name"] == "pass" else doubling_word(ev["name"], lang)
        return Text(tr(lang, "act_double", name=name, what=what), style="magenta")
    if e == "show":
        return tr_text(lang, "act_show", name=name, cards=cards_text(ev["hand"], lang))
    if e == "autoplay":
        return Text(tr(lang, "act_autoplay_on" if ev["on"] else "act_autoplay_off", name=name), style="cyan")
    if e == "escape":
        return Text(tr(lang, "act_escape", name=name), style="bold red")
    return None


def outcome_headline(res: Outcome, facts: TableFacts) -> list[Text]:
    """Who won, and what it means for the human seat."""
    lang = facts.lang
    out: list[Text] = []
    if res.dissolved:
        out.append(Text(tr(lang, "dissolved"), style="yellow"))
    elif res.escaped is not None:
        out.append(Text(tr(lang, "escaped", name=facts.names[res.escaped], n=res.scores[res.escaped]),
                        style="bold red"))
    elif res.winner == "landlord":
        out.append(Text(tr(lang, "win_landlord", name=facts.names[res.landlord or 0]), style="bold yellow"))
    else:
        out.append(Text(tr(lang, "win_farmers"), style="bold yellow"))
    if res.spring:
        out.append(Text(tr(lang, "spring"), style="bold magenta"))
    if res.anti_spring:
        out.append(Text(tr(lang, "anti_spring"), style="bold magenta"))
    mine = res.scores[facts.human] if res.scores else 0
    if mine > 0:
        out.append(Text(tr(lang, "you_won", n=mine), style="bold green"))
    elif mine < 0:
        out.append(Text(tr(lang, "you_lost", n=-mine), style="bold red"))
    else:
        out.append(Text(tr(lang, "you_even")))
    return out


def _role(res: Outcome, seat: int, lang: str) -> str:
    if res.landlord is None:
        return tr(lang, "no_role")
    return tr(lang, "landlord" if seat == res.landlord else "farmer")


def settlement(game: Game, facts: TableFacts) -> RenderableType:
    """The settlement screen after a deal: headline, bid and multiplier, each seat's score and total."""
    lang = facts.lang
    res = game.result
    assert res is not None
    lines: list[RenderableType] = list(outcome_headline(res, facts))
    lines.append(Text(tr(lang, "bid_line", bid=res.bid, stake=res.stake, mult=res.multiplier) + " · "
                      + tr(lang, "factors", factors=_outcome_factors(res, lang, facts.names))))
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for col, just in (("col_seat", "left"), ("col_role", "left"), ("col_mult", "right"), ("col_score", "right"),
                      ("col_points" if facts.points is not None else "col_total", "right")):
        table.add_column(tr(lang, col), justify=just)  # type: ignore[arg-type]
    for seat in range(game.players):
        mult = res.seat_multipliers.get(seat, res.multiplier)
        if seat == res.landlord and res.seat_multipliers:
            mult = max(res.seat_multipliers.values())
        score = res.scores[seat] if res.scores else 0
        total = facts.points[seat] if facts.points is not None else facts.totals[seat]
        role = _role(res, seat, lang)
        if res.autoplay and res.autoplay[seat]:
            role += _paren(tr(lang, "in_auto"), lang)
        table.add_row(facts.names[seat], role, f"×{mult}",
                      Text(f"{score:+d}", style="green" if score > 0 else "red" if score < 0 else ""),
                      str(total) if facts.points is not None else f"{total:+d}")
    lines.append(table)
    title = Text(tr(lang, "deal_over", n=facts.deal_no), style="bold")
    return Panel(Group(*lines), title=title, title_align="left", box=box.ROUNDED)


def _outcome_factors(res: Outcome, lang: str, names: list[str]) -> str:
    """The deal's factors; a Chengdu doubling names the farmer it is for (``倒 (double) ×2 (You)``), not a seat
    number."""
    parts = [f"{factor_name(f.name, lang)} ×{f.factor}" for f in res.factors]
    for seat, fs in res.farmer_factors.items():
        who = names[seat] if 0 <= seat < len(names) else str(seat)
        for f in fs:
            word = doubling_word(f.name, lang)
            parts.append(f"{word} ×{f.factor}" + _paren(who, lang))
    return ", ".join(parts) or "-"


def result_view(game: Game, facts: TableFacts) -> RenderableType:
    """The full settlement of a finished deal (结果): factors, per-seat multipliers, payments, cards left."""
    lang = facts.lang
    res = game.result
    assert res is not None
    lines: list[RenderableType] = list(outcome_headline(res, facts))
    lines.append(Text(tr(lang, "bid_line", bid=res.bid, stake=res.stake, mult=res.multiplier)))
    lines.append(Text(tr(lang, "factors", factors=_outcome_factors(res, lang, facts.names))))
    if game.kitty_taken:
        lines.append(tr_text(lang, "kitty", cards=cards_text([str(c) for c in game.kitty], lang)))
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for col, just in (("col_seat", "left"), ("col_role", "left"), ("col_mult", "right"), ("col_score", "right"),
                      ("col_left", "left")):
        table.add_column(tr(lang, col), justify=just)  # type: ignore[arg-type]
    for seat in range(game.players):
        mult = res.seat_multipliers.get(seat, res.multiplier)
        role = _role(res, seat, lang)
        if res.autoplay and res.autoplay[seat]:
            role += _paren(tr(lang, "in_auto"), lang)
        left = sort_hand(game.hands[seat], "rank")
        table.add_row(facts.names[seat], role, f"×{mult}", f"{res.scores[seat]:+d}" if res.scores else "0",
                      cards_text([str(c) for c in left], lang) if left else Text("-", style="dim"))
    lines.append(table)
    if res.payments:
        lines.append(Text(tr(lang, "payments")))
        pt = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        for col in ("col_payer", "col_payee", "col_owed", "col_paid"):
            pt.add_column(tr(lang, col), justify="left" if col in ("col_payer", "col_payee") else "right")
        for p in res.payments:
            pt.add_row(facts.names[p.payer], facts.names[p.payee], str(p.owed), str(p.paid))
        lines.append(pt)
    title = Text(tr(lang, "result_title", n=facts.deal_no), style="bold")
    return Panel(Group(*lines), title=title, title_align="left", box=box.ROUNDED)


@dataclass
class DealSummary:
    """One row of the table's history (历史得分)."""

    deal_no: int
    seed: int
    landlord: int | None
    bid: int
    multiplier: int
    scores: list[int]
    escaped: int | None = None
    dissolved: bool = False


def history_view(rows: Sequence[DealSummary], names: Sequence[str], lang: str,
                 start_points: int | None = None) -> RenderableType:
    """Every deal's scores at this table, with totals."""
    table = Table(title=tr(lang, "history_title"), box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column(tr(lang, "col_deal"), justify="right")
    table.add_column(tr(lang, "col_seed"), justify="right")
    table.add_column(tr(lang, "col_landlord"))
    table.add_column(tr(lang, "col_bid"), justify="right")
    table.add_column(tr(lang, "col_mult"), justify="right")
    for n in names:
        table.add_column(n, justify="right")
    totals = [0] * len(names)
    for row in rows:
        if row.dissolved:
            who = tr(lang, "dissolved_row")
        elif row.landlord is None:
            who = "-"
        else:
            who = names[row.landlord]
        if row.escaped is not None:
            who += _paren(f"{tr(lang, 'escape_row')}{'：' if lang == 'zh' else ': '}{names[row.escaped]}", lang)
        for i, s in enumerate(row.scores):
            totals[i] += s
        table.add_row(str(row.deal_no), str(row.seed), who, str(row.bid), f"×{row.multiplier}",
                      *[f"{s:+d}" for s in row.scores])
    table.add_section()
    table.add_row(tr(lang, "total_row"), "", "", "", "", *[f"{t:+d}" for t in totals])
    if start_points is not None:
        table.add_row(tr(lang, "col_points"), "", "", "", "", *[str(start_points + t) for t in totals])
    return table


def last_trick_view(game: Game, names: Sequence[str], lang: str) -> Text | None:
    """The previous trick (上手牌) with its winner, or ``None`` if none has finished in this deal."""
    done, _ = tricks(game)
    if not done:
        return None
    prev = done[-1]
    t = Text(tr(lang, "last_title"), style="bold")
    for i, (seat, cards) in enumerate(prev.plays):
        if i:
            t.append(" · ", style="dim")
        t.append(names[seat] + " ")
        if cards is None:
            t.append(tr(lang, "pass"), style="dim")
        else:
            t.append_text(cards_text(cards, lang))
            kind = prev.kinds[i]
            if kind:
                t.append(tr(lang, "kind_paren", kind=kind_name(kind, lang)), style="dim")
    if prev.winner is not None:
        t.append(" → " + names[prev.winner], style="bold")
    return t


def describe_choice(game: Game, action: str, lang: str) -> str:
    """A text action as a person reads it in a prompt or a hint (``play TTJJ`` → ``10 10 J J (pair straight)``)."""
    if action == "pass":
        return tr(lang, "bid_pass") if game.phase == "bid" else tr(lang, "pass")
    if action.startswith("bid "):
        return tr(lang, "bid_v", v=action.split()[1])
    if action == "call":
        return tr(lang, "call")
    if action == "show":
        return tr(lang, "show", f=game.rules.show_hand_factor)
    if action in ("double", "redouble"):
        return doubling_word(next_doubling_name(game), lang)
    if action.startswith("play "):
        body = action[5:]
        cards = body.split(":")[0]
        from ..games.doudizhu.combos import parse_move

        kind = parse_move(body, game.rules).kind
        return ranks_label(cards, lang) + _paren(kind_name(kind, lang), lang)
    return action


def _paren(text: str, lang: str) -> str:
    """`` (text)`` in English, ``（text）`` (full-width, no space) in Chinese.

    >>> _paren("auto-play", "en"), _paren("托管中", "zh")
    (' (auto-play)', '（托管中）')
    """
    return f"（{text}）" if lang == "zh" else f" ({text})"


def next_doubling_name(game: Game) -> str:
    """The Chengdu word for the doubling the seat to act may make now (倒, 反, 斡 or 垒)."""
    seat = game.to_act
    if seat == game.landlord:
        return "垒" if any(nm == "斡" for _, nm in game.doubling) else "反"
    return "斡" if (seat, "倒") in game.doubling else "倒"

