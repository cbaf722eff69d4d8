"""Daqing mahjong at two edges of RULES-mahjong.md: auto-play's actions flagged in the log (§1.3), and a chow or
pung taken instead of a possible win declining it (§9)."""

from __future__ import annotations

from mahjong_positions import position

from qipai.games.mahjong.bots import BOTS
from qipai.games.mahjong.rules import DAQING
from qipai.games.mahjong.state import MahjongGame

FILL2 = "19m 19p 19s 258p 2s 8s 6m Z"
FILL3 = "19m 19p 19s 258p 2s 8s 7m Z"


# ---------------------------------------------------------------- §1.3: auto-play actions are flagged auto
def test_an_action_made_by_autoplay_is_logged_with_the_auto_flag() -> None:
    """§1.3: 'an action made by auto-play or by the automatic win (§9) is logged like a player's action and
    flagged auto'.  The host plays an auto-play seat's move through ``apply`` (the passive bot's choice)."""
    g = MahjongGame.new(DAQING, seed=7, dealer=0)
    g.set_autoplay(0, True)
    move = BOTS["passive"](0).act(g.observe(0, hints=False), g.legal_actions(0))
    g.apply(move, 0)
    entry = next(e for e in g.log if e["seat"] == 0 and e["action"] == move)
    assert entry.get("auto") is True


# ---------------------------------------------------------------- §9: taking a chow instead of a win declines it
def test_chowing_instead_of_an_available_win_declines_the_win_until_the_next_draw() -> None:
    """§9 (decision): 'A player who declines a win may not win on a discard again until after his next draw (no
    picking a bigger win in the same go-round).'  Seat 1 (hu_requires_ting off, auto_hu off) could win on the
    4m but chows it instead; before his next draw he must not be able to win on seat 2's 6m."""
    rules = DAQING.replace(hu_requires_ting=False, auto_hu=False)
    g = position(rules, hands={0: "19m 19p 19s 258p 2s 8s 7s Z 4m", 1: "23m 567s 11s 789m",
                               2: FILL2, 3: FILL3},
                 melds={1: "peng 999p"}, wall="3p 5p 6p")
    g.apply("discard 4m", 0)
    assert "hu" in g.legal_actions(1) and "chi 234m" in g.legal_actions(1)
    g.apply("chi 234m", 1)                      # takes the chow, not the win
    g.apply("discard 9m", 1)                    # 567s 11s 78m | peng 999p | chi 234m: waits 6m, 9m
    assert g.turn == 2 and g.phase == "play"    # seat 2 drew 3p
    g.apply("discard 6m", 2)
    assert "hu" not in g.legal_actions(1)
