"""Review a finished deal from one seat: every play decision of that seat, the strong bot's choice, and the
estimated win probability before and after, with the big swings marked (what an analysis board is to chess).

Each decision is judged from what the seat could see **at that moment**: the review rebuilds the game from the
record up to the decision, takes that seat's observation (``Game.observe(seat)``) and legal actions, and hands
only those to the strong bot, which samples the hidden hands from the observation (never the real ones).  A
farmer's review cannot peek at the landlord's hand; the final hands in the record are never read.  The strong
bot is the learned one with rollouts (:meth:`~.dmc.DmcBot.estimate`: the network's most valued moves and the
move played, each played out by the network at every seat; the ``expert`` level) on the three-player tables
its network knows (:func:`~.dmc.trained_for`), and the search bot (:meth:`~.search.SearchBot.estimate`) on
the others.

For each decision, with the same sampled deals for every move compared:

- ``best``: the strong bot's choice (the move with the highest estimate among its candidates and the move
  played);
- ``wp_before``: the estimated win probability of the seat's side with the best move (what the position was
  worth before the decision);
- ``wp_after``: the estimate with the move actually played;
- ``swing``: ``wp_after - wp_before`` (≤ 0): what the decision cost.  A swing of :data:`MISTAKE` or more is a
  mistake (``?``), :data:`BLUNDER` or more a blunder (``??``).

The estimates are Monte Carlo over ``samples`` sampled deals (default 200): differences under about 0.05 are
noise.  Bidding and doubling decisions are listed without estimates (the strong bots play cards only).

>>> from qipai.games.doudizhu.rules import PRESETS
>>> from qipai.games.doudizhu.state import Game
>>> from qipai.games.doudizhu.bots.heuristic import HeuristicBot
>>> g = Game.new(PRESETS["classic"], seed=3)
>>> bot = HeuristicBot(1)
>>> while not g.is_over:
...     g.apply(bot.act(g.observe(g.to_act), g.legal_actions()))
>>> rev = review_deal(g.record(), seat=1, samples=8)
>>> rev.seat, all(d.seat == 1 for d in rev.decisions)
(1, True)
>>> d = next(d for d in rev.decisions if d.wp_before is not None)
>>> 0.0 <= d.wp_after <= d.wp_before <= 1.0
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from ....core.game import HOST_EVENTS, LEGACY_HOST_EVENTS, apply_step

MISTAKE = 0.10
"""A decision that costs at least this much estimated win probability is a mistake."""

BLUNDER = 0.25
"""A decision that costs at least this much is a blunder."""


@dataclass
class Decision:
    """One decision of the reviewed seat."""

    index: int
    """The action's position in the record (0-based)."""
    seat: int
    phase: str
    played: str
    legal: int
    """How many legal actions there were."""
    best: str | None = None
    wp_before: float | None = None
    wp_after: float | None = None
    swing: float | None = None
    mark: str = ""
    """``??`` blunder, ``?`` mistake, ``!`` the only good move found (others cost a mistake or more), or ``""``."""
    trick: str | None = None
    """The move to beat (``None`` when leading)."""
    hand: str = ""
    """The seat's hand before the decision (rank letters)."""
    candidates: dict[str, float] = field(default_factory=dict)
    """Every move compared and its estimate."""
    auto: bool = False
    """Made by auto-play (托管: after a timeout, leaving, or asking for it), not by the player: not reviewed."""


@dataclass
class Review:
    """The review of one seat's decisions in one deal."""

    seat: int
    role: str | None
    won: bool | None
    samples: int
    decisions: list[Decision]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (for a browser view)."""
        return asdict(self)

    @property
    def swings(self) -> list[Decision]:
        """The marked decisions (mistakes and blunders), biggest first."""
        return sorted((d for d in self.decisions if d.mark in ("?", "??")), key=lambda d: d.swing or 0.0)


def _hand_text(obs: Mapping[str, Any]) -> str:
    from ..cards import RANK_LETTERS
    from .view import counts_of_tokens

    c = counts_of_tokens(list(obs.get("hand") or []))
    return "".join(RANK_LETTERS[r] * c[r] for r in range(len(c)))


def review_deal(record: Mapping[str, Any], seat: int, *, samples: int = 200, seed: int = 0,
                mistake: float = MISTAKE, blunder: float = BLUNDER) -> Review:
    """Review ``seat``'s decisions in the finished deal of ``record`` (a Dou Dizhu record, see
    :mod:`~qipai.games.doudizhu.record`); ``samples`` sampled deals per decision, seeded by ``seed`` and the
    decision's index, so a review is reproducible."""
    from ..record import replay
    from .dmc import DmcBot, trained_for
    from .search import SearchBot

    game = replay(record, upto=0)
    learned = trained_for(game.rules)
    if not 0 <= seat < game.rules.players:
        raise ValueError(f"no seat {seat} at a {game.rules.players}-player table")
    if samples < 1:
        raise ValueError("samples must be at least 1")
    decisions: list[Decision] = []
    for i, item in enumerate(record.get("actions") or []):
        s, text = int(item["seat"]), str(item["action"])
        event = LEGACY_HOST_EVENTS.get(text, text)
        if s == seat and event not in HOST_EVENTS and seat in game.acting:
            obs = game.observe(seat)
            legal = game.legal_actions(seat)
            d = Decision(i, seat, game.phase, text, len(legal), trick=(obs.get("trick") or {}).get("last"),
                         hand=_hand_text(obs), auto=game.in_autoplay(seat))
            if game.phase == "play" and len(legal) > 1 and text in legal and not d.auto:
                bot: Any = (DmcBot(seed * 1_000_003 + i, samples=samples) if learned
                            else SearchBot(seed * 1_000_003 + i, samples=samples))
                est = bot.estimate(obs, legal, include=[text])
                best = max(est, key=lambda a: (est[a], a == text))
                d.best, d.candidates = best, est
                d.wp_before, d.wp_after = est[best], est[text]
                d.swing = d.wp_after - d.wp_before
                if -d.swing >= blunder:
                    d.mark = "??"
                elif -d.swing >= mistake:
                    d.mark = "?"
                elif best == text and len(est) > 1 and all(v <= est[text] - mistake for a, v in est.items()
                                                           if a != text):
                    d.mark = "!"
            decisions.append(d)
        apply_step(game, s, text)
    out = game.outcome() or {}
    roles = out.get("roles") or [None] * game.rules.players
    won = out.get("won") or [None] * game.rules.players
    return Review(seat, roles[seat], won[seat], samples, decisions)


_WORDS = {
    "en": {
        "head": "review of seat {seat} ({role}, {result}): {n} decisions",
        "head_auto": " ({auto} by auto-play, not reviewed)",
        "head_tail": ", {marked} mistakes (? costs at least {mistake:.2f}, ?? at least {blunder:.2f}; ! the only good "
                     "move found); win probability estimated over {samples} sampled deals per decision",
        "won": "won", "lost": "lost",
        "landlord": "landlord", "farmer": "farmer",
        "col_hand": "hand", "col_beat": "to beat", "col_played": "played", "col_best": "best",
        "col_wp_best": "WP best", "col_wp_played": "WP played", "col_swing": "swing",
        "lead": "lead", "bid": "bid", "double": "double", "show": "show",
        "auto": " (auto-play)",
        "worst": "biggest swing: action {i}, {played} ({swing:+.2f}); the bot preferred {best}",
    },
    "zh": {
        "head": "复盘 {seat} 号（{role}，{result}）：{n} 个决定",
        "head_auto": "（{auto} 个由托管做出，不复盘）",
        "head_tail": "，{marked} 个失误（? 至少损失 {mistake:.2f}，?? 至少 {blunder:.2f}；! 是找到的唯一好棋）；"
                     "每个决定的胜率按 {samples} 个抽样牌局估计",
        "won": "赢", "lost": "输",
        "landlord": "地主", "farmer": "农民",
        "col_hand": "手牌", "col_beat": "要管", "col_played": "出牌", "col_best": "最佳",
        "col_wp_best": "最佳胜率", "col_wp_played": "实际胜率", "col_swing": "差值",
        "lead": "先出", "bid": "叫分", "double": "加倍", "show": "亮牌",
        "auto": "（托管）",
        "worst": "最大失误：第 {i} 步 {played}（{swing:+.2f}）；电脑更想出 {best}",
    },
}
"""The review's words (``qipai replay --review SEAT --lang``); the moves stay in the record's notation."""


def _width(text: str) -> int:
    """Terminal columns of ``text`` (Chinese characters take two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _left(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def _right(text: str, width: int) -> str:
    return " " * max(0, width - _width(text)) + text


def review_lines(review: Review, lang: str = "en") -> list[str]:
    """The review as text, one line per decision (``qipai replay --review SEAT``), in ``lang`` (``en`` or ``zh``:
    the header, the column names, the phases and the closing line; the moves are in the record's notation)."""
    w = _WORDS.get(lang, _WORDS["en"])
    role = w.get(review.role, review.role) if review.role else "-"
    result = {True: w["won"], False: w["lost"], None: "-"}[review.won]
    marked = len(review.swings)
    auto = sum(1 for d in review.decisions if d.auto)
    wb, wp, ws = (max(n, _width(w[k])) for n, k in ((7, "col_wp_best"), (9, "col_wp_played"), (6, "col_swing")))
    lines = [w["head"].format(seat=review.seat, role=role, result=result, n=len(review.decisions))
             + (w["head_auto"].format(auto=auto) if auto else "")
             + w["head_tail"].format(marked=marked, mistake=MISTAKE, blunder=BLUNDER, samples=review.samples),
             f"{'#':>3}  {_left(w['col_hand'], 20)} {_left(w['col_beat'], 12)} {_left(w['col_played'], 18)} "
             f"{_left(w['col_best'], 18)} {_right(w['col_wp_best'], wb)} {_right(w['col_wp_played'], wp)} "
             f"{_right(w['col_swing'], ws)}"]
    for d in review.decisions:
        hand = d.hand if len(d.hand) <= 20 else d.hand[:19] + "…"
        beat = d.trick or (w["lead"] if d.phase == "play" else w.get(d.phase, d.phase))
        if d.wp_before is None:
            lines.append(f"{d.index + 1:>3}  {hand:<20} {_left(beat, 12)} {d.played:<18}"
                         + (w["auto"] if d.auto else ""))
            continue
        assert d.wp_after is not None and d.swing is not None
        best = "=" if d.best == d.played else str(d.best)
        lines.append(f"{d.index + 1:>3}  {hand:<20} {_left(beat, 12)} {d.played:<18} {best:<18} "
                     f"{d.wp_before:>{wb}.2f} {d.wp_after:>{wp}.2f} {d.swing:>+{ws}.2f} {d.mark}".rstrip())
    if review.swings:
        worst = review.swings[0]
        lines.append(w["worst"].format(i=worst.index + 1, played=worst.played, swing=worst.swing, best=worst.best))
    return lines


__all__ = ["BLUNDER", "MISTAKE", "Decision", "Review", "review_deal", "review_lines"]
