"""What the mahjong terminal table prints: the table around the player, the public events and the settlement
(every loser's fans and share, who paid whom and for whom); and a record told step by step for ``qipai replay``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from ...core.game import AUTOPLAY_OFF, AUTOPLAY_ON, TIMEOUT, apply_step
from ...games.mahjong.factory import FACTORY
from ...games.mahjong.rules import DAQING, Rules, preset_name
from ...games.mahjong.state import MahjongGame, replay_record
from ...games.mahjong.tiles import format_tiles, parse_tile, parse_tiles
from ...games.mahjong.tiles import tile_name as tn
from ..records import fill_names
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
    return lines + hint_lines(obs, lang)


def hint_lines(obs: dict[str, Any], lang: str) -> list[str]:
    """The hint of an observation with hints: the tiles one waits on, or how far from ready and the best
    discards (none once the deal is over)."""
    hi = obs.get("hints")
    if not hi or obs["phase"] == "over":
        return []
    if hi.get("waits"):
        return [tr(lang, "waits", tiles=" ".join(w["tile"] for w in hi["waits"]))]
    if hi.get("discards"):
        best = min(d["shanten"] for d in hi["discards"])
        tiles = [d["tile"] for d in hi["discards"] if d["shanten"] == best][:4]
        return [tr(lang, "shanten", n=best, tiles=" ".join(tiles))]
    return []


def event_line(e: dict[str, Any], names: list[str], lang: str, me: int, ready: bool = False) -> str | None:
    """One public log entry in words (``None``: nothing to say); ``ready``: the entry's seat had declared ready
    before it (an automatic discard is then the ready hand's; otherwise auto-play's or a time-out's)."""
    a: str = e["action"]
    seat = e.get("seat")
    name = names[seat] if isinstance(seat, int) else ""
    words = a.split()
    if a == "draw":
        return tr(lang, "act_draw_tile", tile=e["tile"]) if seat == me and e.get("tile") else None
    if words[0] == "discard":
        key = ("act_auto_discard" if ready else "act_autoplay_discard") if e.get("auto") else "act_discard"
        return tr(lang, key, name=name, tile=words[1])
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


def how_text(out: Mapping[str, Any], names: list[str], lang: str) -> str:
    """How a won deal was won: ``on #2's discard 7s``, ``self-drawn 5m``, ``treasure draw 8p (as 3m)``."""
    win = out.get("win") or {}
    tile = win.get("tile", "")
    how = out.get("how")
    if how == "discard":
        return tr(lang, "how_discard", feeder=names[out["feeder"]], tile=tile)
    if how == "wild":
        return tr(lang, "how_wild", tile=tile, read=win.get("read_as", tile))
    return tr(lang, "how_" + (how or "self_drawn"), tile=tile)


def settlement_lines(out: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """The deal's settlement: who won and how, the hand's fans, each loser's fans and share, every payment with
    whom it was for (包三家), the scores and the four hands."""
    lines = []
    w = out["winner"]
    if w is None or out["exhausted"]:
        lines.append(tr(lang, "over_exhausted"))
    else:
        win = out["win"] or {}
        lines.append(tr(lang, "over_win", name=names[w], how=how_text(out, names, lang)))
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


REPLAY_NAMES = [f"#{i}" for i in range(4)]
"""The seats as a record replay names them when the record names no players (see docs/records.md)."""


def seat_names(names: Sequence[str] | None) -> list[str]:
    """The four seats' names for a replay: ``names[i]``, each seat that ``names`` leaves out or leaves empty as
    :data:`REPLAY_NAMES` does (``#i``).

    >>> seat_names(["Ann", ""])
    ['Ann', '#1', '#2', '#3']
    """
    return fill_names(names, REPLAY_NAMES)


def record_lines(outcome: dict[str, Any], lang: str, names: Sequence[str] | None = None) -> list[Any]:
    """A finished deal's settlement described (rich Texts), seats named by ``names`` (``#0``…``#3`` for those it
    does not name)."""
    return [Text(x) for x in settlement_lines(outcome, seat_names(names), lang)]


def rules_text(rules: Rules) -> str:
    """A deal's rules as a replay names them: the preset (``daqing``), else ``daqing`` and the options that differ.

    >>> rules_text(DAQING), rules_text(DAQING.replace(base=2, auto_hu=False))
    ('daqing', 'daqing, base=2, auto_hu=off')
    """
    name = preset_name(rules)
    if name is not None:
        return name
    base, mine = DAQING.to_options(), rules.to_options()
    diffs = [f"{k}={_option_value(v)}" for k, v in mine.items() if base.get(k) != v]
    return ", ".join(["daqing", *diffs])


def _option_value(v: Any) -> str:
    return ("on" if v else "off") if isinstance(v, bool) else str(v)


@dataclass
class _Row:
    """One line of a replay: a seat's turn (its steps, then notes: passes, claims outranked, time-outs) or a
    line of the table's own (``seat`` ``None``, the whole line in ``text``)."""

    seat: int | None
    steps: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    text: str = ""
    discarded: bool = False

    def render(self, lang: str, names: Sequence[str]) -> str:
        if self.seat is None:
            return self.text
        line = tr(lang, "rp_turn", name=names[self.seat], steps=tr(lang, "rp_sep").join(self.steps))
        notes = [n for n in self.notes if n]
        if notes:
            line += tr(lang, "rp_notes", notes=tr(lang, "rp_notes_sep").join(notes))
        return line


@dataclass
class _Claim:
    """A claim answered in a window: carried out (the log shows it) or outranked (only the record's step)."""

    row: _Row
    note: int
    step: int
    seat: int
    text: str


class _Story:
    """The rows of a replay, built from the engine's log step by step: one row per turn (a draw or a claim, then
    the discard, 听 or win), the claim window's answers as notes on the discard's row."""

    def __init__(self, final: MahjongGame, lang: str, names: Sequence[str]) -> None:
        self.lang = lang
        self.names = names
        self.rows: list[_Row] = []
        self.turn: _Row | None = None
        """The row of the turn under way (where its discard, win or declined win go)."""
        self.window: _Row | None = None
        """The row of the last discard (where the answers of its claim window go)."""
        self.claims: list[_Claim] = []
        self.outcome = final.outcome()
        self.baos = [*final.old_bao, *([] if final.bao is None else [final.bao])]
        """The 宝 tiles in the order they were set (a record replay shows them: it is open information)."""
        self.bao_no = 0

    def table(self, key: str, *, host: bool = False, **params: Any) -> None:
        """A line of the table's own; one made by the host (leave, auto-play) ends the turn under way."""
        self.rows.append(_Row(None, text=tr(self.lang, key, **params)))
        if host:
            self.turn = None

    def step(self, seat: int, words: str, *, new: bool = False) -> _Row:
        """Add ``words`` to ``seat``'s turn (a new row when asked, or when the turn under way is not his)."""
        if new or self.turn is None or self.turn.seat != seat:
            self.turn = _Row(seat)
            self.rows.append(self.turn)
        self.turn.steps.append(words)
        return self.turn

    def event(self, e: Mapping[str, Any], following: Mapping[str, Any] | None, timed_out: int | None) -> None:
        """One entry of the engine's log; ``following``: the next entry made by the same step; ``timed_out``:
        the seat whose time-out made this step, if one did."""
        lang = self.lang
        a: str = e["action"]
        seat = e.get("seat")
        words = a.split()
        if not isinstance(seat, int):
            if a == "bao":
                tile = tn(self.baos[self.bao_no]) if self.bao_no < len(self.baos) else "?"
                self.bao_no += 1
                self.table("rp_bao", tile=tile)
            elif a == "bao dead":
                self.table("rp_bao_dead", tile=e.get("tile", ""))
                if following is None or following.get("action") != "bao":
                    self.table("rp_bao_none")
            elif a == "exhausted":
                self.table("rp_exhausted")
            return
        auto = bool(e.get("auto"))
        if a == "draw":
            self.step(seat, tr(lang, "rp_draw", tile=e.get("tile", "?")), new=True)
        elif words[0] in ("discard", "ting"):
            if words[0] == "ting" and len(words) >= 4:
                text = tr(lang, "rp_ting_zhidui", tile=words[1], pair=words[3])
            elif words[0] == "ting":
                text = tr(lang, "rp_ting", tile=words[1])
            else:
                text = tr(lang, "rp_auto_discard" if auto and timed_out != seat else "rp_discard", tile=words[1])
            row = self.step(seat, text, new=self.turn is not None and self.turn.discarded)
            row.discarded = True
            if auto and timed_out == seat:
                row.notes.append(tr(lang, "rp_timed_out"))
            self.window = row
        elif words[0] in ("chi", "peng"):
            tile = str(e.get("tile", ""))
            tiles = words[1] if words[0] == "chi" else format_tiles([parse_tile(tile)] * 3)
            src = self.names[e["source"]] if isinstance(e.get("source"), int) else "?"
            key = "rp_" + words[0] + ("_ting" if words[-1] == "ting" else "")
            self.step(seat, tr(lang, key, tiles=tiles, tile=tile, src=src), new=True)
        elif a == "hu":
            out = self.outcome
            how = how_text(out, list(self.names), lang) if out is not None and out.get("winner") == seat else "?"
            self.step(seat, tr(lang, "rp_hu", how=how))
        elif a == "pass":
            row = self.step(seat, tr(lang, "rp_pass_win"))
            if auto and timed_out == seat:
                row.notes.append(tr(lang, "rp_timed_out"))
        elif a == "leave":
            self.table("rp_leave", host=True, name=self.names[seat])

    def answer(self, step: int, seat: int, text: str) -> None:
        """A claim-window answer as a note on the discard's row: a pass (or a time-out, which passes) at once; a
        claim once it is known whether it was carried out (:meth:`settle_claims`)."""
        row = self.window
        if row is None:
            return
        if text in ("pass", TIMEOUT):
            row.notes.append(tr(self.lang, "rp_passes_timeout" if text == TIMEOUT else "rp_passes",
                                name=self.names[seat]))
        else:
            row.notes.append("")  # filled in by settle_claims if the claim lost
            self.claims.append(_Claim(row, len(row.notes) - 1, step, seat, text))

    def settle_claims(self, g: MahjongGame) -> None:
        """Note each answered claim that was not carried out and is no longer waiting: a higher claim took the
        tile (the log shows only the claim carried out)."""
        waiting = set(g.window.steps.values()) if g.phase == "claim" and g.window is not None else set()
        for c in self.claims:
            if c.step not in g.carried and c.step not in waiting:
                c.row.notes[c.note] = tr(self.lang, "rp_outranked", name=self.names[c.seat],
                                         claim=action_words(c.text, self.lang))


def replay_lines(record: Mapping[str, Any], lang: str, names: Sequence[str] | None = None) -> list[Text]:
    """A mahjong record told step by step for ``qipai replay``: the rules, the dealer, the wall and each seat's
    starting hand; then one line per turn (the tile drawn and the discard, a chow or pung with its tiles and
    whose discard it took, 听, the win and how), the claim windows' passes (and claims that lost to a higher one)
    in brackets after the discard, each 宝 set or replaced with its tile (a record is open information),
    auto-play and leaving; then the settlement, or — for a record that stops before the deal is over — a line
    saying so.  Seats are named by ``names`` (the record's players, see docs/records.md), those it does not
    name ``#0``…``#3``.

    The record is first replayed by the game's factory, so a record with an illegal step raises
    :class:`~qipai.games.mahjong.state.RecordError` (a ``ValueError``) naming that step."""
    final = FACTORY.replay(record)  # refuses a bad record, naming its first illegal step
    g = replay_record(record, upto=0)
    names = seat_names(names)
    hands, live = g.initial
    head = [FACTORY.info.titles.get(lang, FACTORY.info.titles["en"])]
    if not g.given:
        head.append(tr(lang, "seed", seed=g.seed))
    head += [tr(lang, "dealer_is", name=names[g.dealer]), tr(lang, "wall", n=len(live))]
    lines = [" · ".join(head), tr(lang, "rp_rules", rules=rules_text(g.rules))]
    for s, h in enumerate(hands):
        mark = tr(lang, "rp_dealer_mark") if s == g.dealer else ""
        lines.append(tr(lang, "rp_hand", name=names[s], dealer=mark, hand=hand_text(format_tiles(h))))
    story = _Story(final, lang, names)
    steps = record.get("actions") or []
    for i, item in enumerate(steps):
        before = len(g.log)
        apply_step(g, item["seat"], item["action"])
        seat, text = g.actions[-1]
        kind = g.step_kinds[-1]
        if kind == "answer":
            story.answer(i, seat, text)
        elif kind == "host" and text in (AUTOPLAY_ON, AUTOPLAY_OFF):
            story.table("rp_auto_on" if text == AUTOPLAY_ON else "rp_auto_off", host=True, name=names[seat])
        timed_out = seat if kind == "turn" and text == TIMEOUT else None
        new = g.log[before:]
        for j, e in enumerate(new):
            story.event(e, new[j + 1] if j + 1 < len(new) else None, timed_out)
    story.settle_claims(g)
    lines += [row.render(lang, names) for row in story.rows]
    out = g.outcome()
    if out is None:
        lines.append(tr(lang, "rp_unfinished", n=len(steps)))
    else:
        lines += settlement_lines(out, names, lang)
    return [Text(x) for x in lines]
