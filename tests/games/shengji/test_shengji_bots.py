"""Shengji bots: every move legal, whole hands and matches to the end, the passive bot is §9.2 exactly, the
rule bot beats the simple ones."""

from __future__ import annotations

import pytest
from shengji_helpers import recorded_position

from qipai.games.shengji import FACTORY
from qipai.games.shengji.bots import BOTS, PassiveBot, RuleBot
from qipai.games.shengji.cards import parse_cards
from qipai.games.shengji.follow import passive_follow, passive_lead
from qipai.games.shengji.game import ShengjiGame


def play_hand(g: ShengjiGame, names: list[str], seed: int) -> ShengjiGame:
    bots = [BOTS[n](seed * 4 + i) for i, n in enumerate(names)]
    while not g.is_over:
        if g.phase in ("deal", "final"):
            for s in g.acting:
                obs, legal = g.observe(s), g.legal_actions(s)
                a = bots[s].act(obs, legal)
                assert a in legal  # complete lists in the windows
                g.apply(a, s)
                if g.phase not in ("deal", "final"):
                    break
            continue
        s = g.acting[0]
        a = bots[s].act(g.observe(s), g.legal_actions(s))
        assert g.check(a, s) is None, (names[s], a, g.check(a, s))
        g.apply(a, s)
    return g


@pytest.mark.parametrize("names", [["random"] * 4, ["passive"] * 4, ["rule"] * 4,
                                   ["rule", "random", "passive", "rule"]])
def test_bots_play_whole_hands(names: list[str]) -> None:
    for seed in range(3):
        g = play_hand(ShengjiGame({}, seed), names, seed)
        out = g.outcome()
        assert out is not None and sum(out["scores"]) == 0


def test_passive_bot_is_the_seed_auto_play() -> None:
    g = ShengjiGame({}, 31)
    bot = PassiveBot()
    while not g.is_over:
        if g.phase in ("deal", "final"):
            for s in g.acting:
                assert bot.act(g.observe(s), g.legal_actions(s)) == "pass"
            g.timeout(0)
            continue
        s = g.acting[0]
        a = bot.act(g.observe(s), g.legal_actions(s))
        o = g.order
        assert o is not None
        want = passive_lead(g.hands[s], o) if g.lead is None else passive_follow(g.hands[s], g.lead, o)
        assert sorted(parse_cards(a[5:])) == sorted(want)
        assert a == g.legal_actions(s)[0]  # the hint list starts with the passive choice
        g.apply(a, s)


def test_passive_bot_equals_timeouts() -> None:
    a, b = ShengjiGame({}, 32), ShengjiGame({}, 32)
    bot = PassiveBot()
    while not a.is_over:
        s = a.acting[0]
        if a.phase == "play":
            a.apply(bot.act(a.observe(s), a.legal_actions(s)), s)
        else:
            a.timeout(s)
        b.timeout(s)
    assert a.outcome() is not None and b.outcome() is not None
    assert a.outcome()["tricks"] == b.outcome()["tricks"]  # type: ignore[index]


def test_rule_bot_beats_random_and_passive() -> None:
    wins = {"random": 0, "passive": 0}
    for other in wins:
        for seed in range(6):
            names = ["rule", other, "rule", other] if seed % 2 == 0 else [other, "rule", other, "rule"]
            g = play_hand(ShengjiGame({}, 100 + seed), names, seed)
            out = g.outcome()
            assert out is not None
            wins[other] += sum(1 for s in range(4) if out["won"][s] and names[s] == "rule") // 2
    assert wins["random"] >= 5 and wins["passive"] >= 5, wins


def test_rule_bot_throws_only_when_safe() -> None:
    """Across rule-bot hands, no throw of a rule bot fails (it throws only what the unseen cards cannot beat)."""
    thrown = 0
    for seed in range(6):
        g = play_hand(ShengjiGame({}, 200 + seed), ["rule"] * 4, seed)
        out = g.outcome()
        assert out is not None and out["failed_throws"] == []
        thrown += sum(1 for t in out["tricks"] if t.get("throw"))
    assert thrown > 0


def test_whole_match_with_bots() -> None:
    opts = FACTORY.options({"hand_limit": 4, "match_bonus": 2})
    m = FACTORY.match_start(opts)
    hands = 0
    total = [0, 0, 0, 0]
    while not m["over"]:
        ctx = FACTORY.deal_context(opts, m)
        g = play_hand(FACTORY.new(opts, 1000 + hands, ctx), ["rule", "random", "rule", "random"], hands)
        out = g.outcome()
        assert out is not None
        assert out["banker"] == (ctx["banker"] if ctx["banker"] is not None else out["banker"])
        m = FACTORY.match_after(opts, m, out)
        total = [a + b for a, b in zip(total, out["scores"], strict=True)]
        hands += 1
        assert m["banker"] == out["next_banker"] and m["levels"] == out["new_levels"]
    assert hands == 4 and m["scores"] == total and sum(total) == 0


def test_rule_bot_is_deterministic() -> None:
    g1 = play_hand(ShengjiGame({}, 5), ["rule"] * 4, 1)
    g2 = play_hand(ShengjiGame({}, 5), ["rule"] * 4, 1)
    assert g1.record() == g2.record()
    assert RuleBot(3).name == "rule"


@pytest.mark.parametrize("ace_rule", ["defend", "pass"])
def test_whole_match_to_the_end(ace_rule: str) -> None:
    """A match without a hand limit plays until a team wins it (rule bots against passive ones)."""
    opts = FACTORY.options({"ace_rule": ace_rule, "start_level": "T"})
    m = FACTORY.match_start(opts)
    hands = 0
    while not m["over"]:
        assert hands < 40
        g = play_hand(FACTORY.new(opts, 500 + hands, FACTORY.deal_context(opts, m)),
                      ["rule", "passive", "rule", "passive"], hands)
        out = g.outcome()
        assert out is not None
        m = FACTORY.match_after(opts, m, out)
        hands += 1
    assert m["winner"] in (0, 1) and "A" in m["levels"]
    if ace_rule == "defend":
        assert out["level_played"] == "A" and out["banker_won"]


def test_rule_bot_leaves_the_trick_to_a_partner_who_has_it() -> None:
    """Seed 115 at its 908th action (a record of the rule bots' own deal): the level's trumps led as a pair were
    beaten by the partner's 3♠ pair, the last seat to play held two pairs of low trumps and threw the big jokers'
    pair on it — the side had the trick already.  Last to play behind a partner who holds the trick, the bot
    follows low."""
    from qipai.bots import get_bot

    g, rec, seat = recorded_position("shengji_partner_holds_the_trick")
    obs = g.observe(seat)
    assert seat == 3 and [s for s, _ in obs["trick"]] == [0, 1, 2] and obs["trick"][1][1] == "3S 3S", obs["trick"]
    played = get_bot("normal", rec["seed"] * 10 + seat, game="shengji").act(obs, g.legal_actions(seat))
    assert "R" not in played.split(), played
    g.apply(played, seat)
    assert g.observe(seat)["last_trick"]["winner"] == 1, g.observe(seat)["last_trick"]


def test_rule_bot_gives_no_points_to_the_opponents_trick_when_it_has_a_card_without() -> None:
    """Seed 100 at its 872nd action (the rule bots' own deal): hearts led, an opponent's ♥A takes the trick, the
    last seat holds ♥5 and ♥7 ♥7 ♥6 — it gave the 5 (its follows were the suit's lowest and highest only)."""
    from qipai.bots import get_bot

    g, rec, seat = recorded_position("shengji_a_five_to_the_opponents")
    obs = g.observe(seat)
    assert seat == 3 and obs["trick"][2] == [2, "AH"], obs["trick"]
    played = get_bot("normal", rec["seed"] * 10 + seat, game="shengji").act(obs, g.legal_actions(seat))
    assert played.startswith("play ") and played.split()[1][0] not in "5TK", played
    g.apply(played, seat)  # (a follow the offered list leaves out is as legal as any)
    assert g.observe(seat)["last_trick"]["winner"] == 2
