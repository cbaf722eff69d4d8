"""The Shengji factory: game info, options, the match from hand to hand (§2.3, §2.4, §9.5), titles, replays."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shengji_helpers import play_random, run_deal

from qipai.core.game import GameFactory, IllegalAction
from qipai.core.options import OptionError
from qipai.games.shengji import FACTORY, ShengjiFactory
from qipai.games.shengji.cards import LEVELS
from qipai.games.shengji.scoring import hand_result, level_change, settle_scores


def test_info() -> None:
    info = FACTORY.info
    assert isinstance(FACTORY, ShengjiFactory)
    f: GameFactory = FACTORY
    assert f.info.name == "shengji" and info.titles == {"zh": "升级", "en": "Shengji"}
    assert (info.min_players, info.max_players) == (4, 4) and info.presets == ("four_deck",)
    assert info.simultaneous and not info.complete_legal and info.zero_sum and "escape" in info.zero_sum_exceptions
    assert set(info.bots) == {"random", "passive", "rule"} and info.autoplay_bot == "passive"
    assert set(info.phases) == {"deal", "final", "play", "over"} and info.roles == ("banker", "attacker")
    names = {o.name for o in info.options}
    assert names == {"decks", "start_level", "ace_rule", "hand_limit", "throws", "throw_penalty", "deal_step_ms",
                     "final_declare_s", "first_lead_s", "play_s", "auto_play", "escape_penalty", "stake",
                     "match_bonus"}
    assert sorted(info.options.points_options()) == ["escape_penalty", "match_bonus", "stake"]
    assert info.describe()["name"] == "shengji"


def test_options() -> None:
    opts = FACTORY.options({})
    assert opts["preset"] == "four_deck" and opts["decks"] == 4 and opts["throw_penalty"] == 10
    assert FACTORY.options({"preset": "four_deck", "ace_rule": "pass"})["ace_rule"] == "pass"
    for bad in ({"decks": 2}, {"ace_rule": "never"}, {"stake": 0}, {"preset": "eighty"}, {"colour": 1},
                {"hand_limit": 0}, {"throws": "yes"}):
        with pytest.raises(OptionError):
            FACTORY.options(bad)
    # a number out of range or of the wrong kind says the range (1e30 once read "must be a whole number")
    with pytest.raises(OptionError, match="hand_limit must be a whole number from 1 to"):
        FACTORY.options({"hand_limit": 1e30})
    from qipai.core.options import options_from_text

    with pytest.raises(OptionError, match="must be a whole number, got 'x'"):  # not "must be a int"
        options_from_text(FACTORY.info.options, {"hand_limit": "x"})
    assert FACTORY.teams(opts) == ((0, 2), (1, 3)) and FACTORY.players(opts) == 4


def test_time_limits_follow_options() -> None:
    opts = FACTORY.options({"deal_step_ms": 400, "final_declare_s": 7, "first_lead_s": 11, "play_s": 9})
    g = FACTORY.new(opts, 1, FACTORY.deal_context(opts, FACTORY.match_start(opts)))
    assert g.time_limit(0) == 0.4
    while g.phase == "deal":
        g.timeout(0)
    assert g.time_limit(0) == 7.0
    run_deal(g)
    s = g.acting[0]
    assert g.time_limit(s) == 11.0
    g.apply(g.legal_actions(s)[0], s)
    assert g.time_limit(g.acting[0]) == 9.0


def test_match_start_and_context() -> None:
    opts = FACTORY.options({"start_level": "5"})
    m = FACTORY.match_start(opts)
    assert m["levels"] == ["5", "5"] and m["banker"] is None and m["hands"] == 0 and not m["over"]
    ctx = FACTORY.deal_context(opts, m)
    g = FACTORY.new(opts, 3, {**ctx, "table_points": [0, 0, 0, 0]})
    assert g.level == 3 and g.banker is None
    # later hands: the banker is fixed, the level is the banker team's
    g = FACTORY.new(opts, 3, {"hand": 2, "levels": ["5", "9"], "banker": 1})
    assert g.level == 7 and g.banker == 1
    with pytest.raises(IllegalAction, match="same level"):
        FACTORY.new(opts, 3, {"hand": 1, "levels": ["5", "9"], "banker": None})
    with pytest.raises(IllegalAction, match="bad context"):
        FACTORY.new(opts, 3, {"levels": ["2", "3"]})


def _outcome(levels: list[str], banker: int, score: int, opts: dict, hand_no: int) -> dict:
    from qipai.games.shengji.cards import level_rank

    res = hand_result([level_rank(x) for x in levels], banker, score, ace_rule=opts["ace_rule"], hand_no=hand_no,
                      hand_limit=opts["hand_limit"])
    return {"scores": settle_scores(res, opts["stake"], opts["match_bonus"]), "banker": banker, "score": score,
            "escaped": None}


def test_match_after_follows_the_rules() -> None:
    opts = FACTORY.options({"stake": 2, "match_bonus": 3})
    m = {"levels": ["6", "9"], "banker": 0, "hands": 4, "scores": [0, 0, 0, 0], "over": False, "winner": None}
    m2 = FACTORY.match_after(opts, m, _outcome(["6", "9"], 0, 160, opts, 5))
    assert m2["levels"] == ["6", "T"] and m2["banker"] == 1 and m2["hands"] == 5 and m2["scores"] == [-2, 2, -2, 2]
    # the banker side at A wins: the match is over, bonus paid
    m = {**m2, "levels": ["A", "T"], "banker": 2}
    m3 = FACTORY.match_after(opts, m, _outcome(["A", "T"], 2, 100, opts, 6))
    assert m3["over"] and m3["winner"] == 0 and m3["scores"] == [-2 + 8, 2 - 8, -2 + 8, 2 - 8]
    with pytest.raises(ValueError, match="do not match"):
        FACTORY.match_after(opts, m, {**_outcome(["A", "T"], 2, 100, opts, 6), "scores": [1, -1, 1, -1]})


def test_ace_rule_pass_and_hand_limit() -> None:
    opts = FACTORY.options({"ace_rule": "pass", "hand_limit": 3})
    m = {"levels": ["K", "3"], "banker": 1, "hands": 0, "scores": [0] * 4, "over": False, "winner": None}
    m2 = FACTORY.match_after(opts, m, _outcome(["K", "3"], 1, 250, opts, 1))  # team A +2 passes A
    assert m2["over"] and m2["winner"] == 0 and m2["levels"] == ["A", "3"]
    m = {"levels": ["4", "4"], "banker": 0, "hands": 2, "scores": [0] * 4, "over": False, "winner": None}
    m3 = FACTORY.match_after(opts, m, _outcome(["4", "4"], 0, 100, opts, 3))  # banker +1, third hand: limit
    assert m3["over"] and m3["winner"] == 0
    m4 = FACTORY.match_after(opts, {**m, "levels": ["4", "5"]}, _outcome(["4", "5"], 0, 100, opts, 3))
    assert m4["over"] and m4["winner"] is None  # equal levels: a draw


@given(st.integers(-1000, 1200))
def test_level_change_matches_the_table_for_every_score(s: int) -> None:
    banker_wins, d = level_change(s)
    if s <= 0:
        assert (banker_wins, d) == (True, 3)
    elif s < 80:
        assert (banker_wins, d) == (True, 2)
    elif s < 160:
        assert (banker_wins, d) == (True, 1)
    else:
        steps = 0
        t = s
        while t >= 240:  # one more level for every further 80
            t -= 80
            steps += 1
        assert (banker_wins, d) == (False, 1 + steps)


@given(st.integers(-1000, 1200), st.sampled_from(LEVELS), st.sampled_from(LEVELS), st.integers(0, 3),
       st.sampled_from(["defend", "pass"]))
def test_hand_result_properties(s: int, la: str, lb: str, banker: int, rule: str) -> None:
    from qipai.games.shengji.cards import level_rank

    lv = (level_rank(la), level_rank(lb))
    r = hand_result(lv, banker, s, ace_rule=rule)
    w = r.winning_team
    assert r.new_levels[1 - w] == lv[1 - w]  # the other team's level does not change
    assert r.new_levels[w] == min(12, lv[w] + r.d_nominal) and r.new_levels[w] >= lv[w]
    assert r.next_banker == ((banker + 2) % 4 if r.banker_won else (banker + 1) % 4)
    assert sum(settle_scores(r, 3, 2)) == 0


def test_titles() -> None:
    assert FACTORY.title(-50) == "新兵" and FACTORY.title(0) == "新兵" and FACTORY.title(4000) == "上校"
    assert FACTORY.title(10**9) == "将军"
    levels = {f"打{r}" for r in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")} | {"过A"}
    assert not levels & {name for _, name in FACTORY.info.title_table}  # never read as a level played
    prev = ""
    titles = [FACTORY.title(p) for p in range(0, 9000, 10)]
    assert len(set(titles)) == 13 and titles[0] != prev


def test_replay_refuses_garbage() -> None:
    with pytest.raises(IllegalAction, match="not a Shengji record"):
        FACTORY.replay({"game": "doudizhu"})
    with pytest.raises(IllegalAction, match="malformed"):
        FACTORY.replay({"game": "shengji", "version": 1, "seed": 1, "actions": [[0]]})
    with pytest.raises(IllegalAction, match="216 cards"):
        FACTORY.replay({"game": "shengji", "version": 1, "seed": 1, "deal": "3S 3S", "first": 0, "actions": []})
    # what a hostile or damaged file holds: each refused, naming what is wrong (these raised TypeError)
    for bad, words in [
        ({"seed": None}, "integer seed"), ({"seed": [1]}, "integer seed"), ({"seed": 1.5}, "integer seed"),
        ({"seed": True}, "integer seed"), ({"version": 2}, "version 2"), ({"version": "1"}, "version '1'"),
        ({"context": [1]}, "objects"), ({"context": 5}, "objects"), ({"options": "x"}, "objects"),
        ({"actions": 5}, "list"), ({"actions": [[True, "pass"]]}, "malformed"),
    ]:
        with pytest.raises(IllegalAction, match=words):
            FACTORY.replay({"game": "shengji", "version": 1, "seed": 1, **bad})
    # a result that is not what the hand's steps give is refused, as for the other games
    g = FACTORY.new({}, 3, {})
    run_deal(g)
    play_random(g, random.Random(3))
    rec = g.record()
    assert FACTORY.replay(rec).outcome() == g.outcome()
    with pytest.raises(IllegalAction, match="result differs"):
        FACTORY.replay({**rec, "result": {"scores": [9, 9, 9, 9]}})
    # cut short, or its steps not a list ({} read as no steps said "differs")
    with pytest.raises(IllegalAction, match=r"ends before the hand is over \(after 40 steps\), yet holds a result"):
        FACTORY.replay({**rec, "actions": rec["actions"][:40]})
    with pytest.raises(IllegalAction, match="actions are a list"):
        FACTORY.replay({**rec, "actions": {}})
