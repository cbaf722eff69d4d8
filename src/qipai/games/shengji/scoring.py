"""The end of a hand (§8): the attackers' score with 扣底 on the last trick, level changes, the match end (§2.4)
and the platform settlement (§9.4).  Teams: 0 = A (seats 0, 2), 1 = B (seats 1, 3).  Levels are rank numbers
(``3`` = 1 … ``A`` = 12, see :func:`~qipai.games.shengji.cards.level_rank`).

>>> level_change(160), level_change(0), level_change(79), level_change(80), level_change(400)
((False, 1), (True, 3), (True, 2), (True, 1), (False, 4))
>>> last_trick_amount(55, 4, attackers_won=False)     # §11 example 17
-220
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from .cards import level_text

ACE = 12
"""The rank number of ``A``, the highest level."""


def team_of(seat: int) -> int:
    """Team of a seat: 0 (A: seats 0, 2) or 1 (B: seats 1, 3)."""
    return seat % 2


def level_change(score: int) -> tuple[bool, int]:
    """``(banker side wins, nominal levels gained)`` for the attackers' score (§8.3).

    >>> [level_change(s) for s in (-160, 145, 155, 239, 240, 319, 320)]
    [(True, 3), (True, 1), (True, 1), (False, 1), (False, 2), (False, 2), (False, 3)]
    """
    if score <= 0:
        return True, 3
    if score < 80:
        return True, 2
    if score < 160:
        return True, 1
    return False, 1 + (score - 160) // 80


def last_trick_amount(points: int, m: int, attackers_won: bool) -> int:
    """The last trick's amount (§8.2): ``± m × points``, plus for the attackers, minus for the banker side.

    >>> last_trick_amount(15, 1, True), last_trick_amount(25, 3, True)
    (15, 75)
    """
    return m * points if attackers_won else -m * points


@dataclass(frozen=True)
class HandResult:
    """Level changes and the match after one hand (§8.3, §2.3, §2.4)."""

    banker_won: bool
    winning_team: int
    d_nominal: int
    d_applied: int
    level_played: int
    new_levels: tuple[int, int]
    next_banker: int
    match_over: bool
    match_winner: int | None
    """The team that won the match, ``None`` while it goes on or on a draw."""

    def to_json(self) -> dict[str, object]:
        out = asdict(self)
        out["level_played"] = level_text(self.level_played)
        out["new_levels"] = [level_text(v) for v in self.new_levels]
        return out


def hand_result(levels: tuple[int, int] | list[int], banker: int, score: int, *, ace_rule: str = "defend",
                hand_no: int = 1, hand_limit: int | None = None) -> HandResult:
    """What a hand with attackers' score ``score`` does to the levels and the match.

    >>> r = hand_result((4, 7), banker=0, score=160)                  # §11 example 16: A=6, B=9
    >>> [level_text(x) for x in r.new_levels], r.next_banker, r.winning_team, r.match_over
    (['6', 'T'], 1, 1, False)
    >>> r = hand_result((10, 5), banker=2, score=-160)                # §11 example 17: A=Q, B=7
    >>> r.d_nominal, r.d_applied, [level_text(x) for x in r.new_levels], r.next_banker, r.match_over
    (3, 2, ['A', '7'], 0, False)
    >>> hand_result((12, 1), banker=0, score=155).match_winner        # §11 example 19
    0
    >>> r = hand_result((12, 1), banker=0, score=160); r.match_over, r.new_levels
    (False, (12, 2))
    >>> hand_result((1, 11), banker=0, score=240, ace_rule="pass").match_winner   # K + 2 passes A
    1
    """
    if ace_rule not in ("defend", "pass"):
        raise ValueError(f"ace_rule must be 'defend' or 'pass', got {ace_rule!r}")
    bteam = team_of(banker)
    banker_won, d = level_change(score)
    winner = bteam if banker_won else 1 - bteam
    played = levels[bteam]
    new = [levels[0], levels[1]]
    over = False
    match_winner: int | None = None
    target = new[winner] + d
    if target > ACE:
        if ace_rule == "pass":
            over, match_winner = True, winner
        target = ACE
    applied = target - new[winner]
    new[winner] = target
    if ace_rule == "defend" and banker_won and played == ACE:
        over, match_winner = True, winner
    if not over and hand_limit is not None and hand_no >= hand_limit:
        over = True
        match_winner = None if new[0] == new[1] else (0 if new[0] > new[1] else 1)
    next_banker = (banker + 2) % 4 if banker_won else (banker + 1) % 4
    return HandResult(banker_won, winner, d, applied, played, (new[0], new[1]), next_banker, over, match_winner)


def settle_scores(result: HandResult, stake: int, match_bonus: int = 0) -> list[int]:
    """Each seat's platform points for the hand (§9.4): ``± d_nominal × stake`` by team, plus ``± match_bonus ×
    stake`` when the match ends with a winner.

    >>> settle_scores(hand_result((4, 7), banker=0, score=160), stake=1)
    [-1, 1, -1, 1]
    >>> settle_scores(hand_result((12, 1), banker=0, score=0), stake=2, match_bonus=5)
    [16, -16, 16, -16]
    """
    w = result.winning_team
    per = result.d_nominal * stake
    if result.match_over and result.match_winner is not None:
        per_bonus = match_bonus * stake
        return [(per if team_of(s) == w else -per) + (per_bonus if team_of(s) == result.match_winner else -per_bonus)
                for s in range(4)]
    return [per if team_of(s) == w else -per for s in range(4)]
