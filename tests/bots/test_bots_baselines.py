"""Baseline adapters: RLCard's rule agent and DouZero play legal moves and see no hidden cards."""

from __future__ import annotations

from typing import Any

from qipai.games.doudizhu.bots.baselines import (
    DouZeroBot,
    douzero_cards,
    douzero_infoset,
    douzero_position,
    rlcard_kind,
)
from qipai.games.doudizhu.bots.research import load_deals, research_game
from qipai.games.doudizhu.bots.view import counts_of_tokens
from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game


def test_rlcard_plays_legal_moves_in_every_preset() -> None:
    import rlcard  # noqa: F401 - the bench extra (scripts/test.sh installs it)

    from qipai.games.doudizhu.bots.baselines import RLCardRuleBot

    for preset in sorted(PRESETS):
        r = PRESETS[preset]
        g = Game.new(r, 2)
        bots = [RLCardRuleBot(s) for s in range(r.players)]
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            legal = g.legal_actions()
            a = bots[seat].act(g.observe(seat), list(legal))
            assert a in legal
            g.apply(a, seat)


def test_rlcard_state_is_the_seat_view() -> None:
    import rlcard  # noqa: F401 - the bench extra (scripts/test.sh installs it)

    from qipai.games.doudizhu.bots.baselines import RLCardRuleBot

    g = research_game(load_deals(1)[0])
    bot = RLCardRuleBot(1)
    for _ in range(6):
        seat = g.to_act
        assert seat is not None
        obs = g.observe(seat)
        state, by_cards = bot.raw_state(obs, g.legal_actions())
        assert sorted(state["current_hand"]) == sorted(c[0] for c in obs["hand"])
        assert set(state) == {"current_hand", "actions", "trace", "landlord", "self"}
        assert len(state["trace"]) <= 2
        for act in state["actions"]:
            assert all(a in g.legal_actions() for a in by_cards[act])
        g.apply(bot.act(obs, g.legal_actions()), seat)


def test_rlcard_kind_names() -> None:
    assert rlcard_kind("trio_solo_chain_3") == "plane_singles"
    assert rlcard_kind("solo_chain_5") == "straight"
    assert rlcard_kind("four_two_pair") == "four_two_pairs"
    assert rlcard_kind("rocket") == "rocket"


class StandIn:
    """Stands in for a DouZero model: scores each legal action from its features (DouZero's own encoding when
    the ``douzero`` package is there) and picks the best, as DouZero's agent does."""

    def __init__(self, position: str) -> None:
        self.position = position
        self.calls = 0

    def act(self, infoset: Any) -> list[int]:
        self.calls += 1
        assert infoset.player_position == self.position
        assert infoset.all_handcards is None  # never the other hands
        try:
            from qipai.games.doudizhu.bots.baselines import douzero_features

            feats = douzero_features(infoset)
        except ImportError:
            feats = None
        if feats is not None:
            n = len(infoset.legal_actions)
            width = {"landlord": 373, "landlord_up": 484, "landlord_down": 484}[self.position]
            assert feats["x_batch"].shape == (n, width)
            assert feats["z_batch"].shape == (n, 5, 162)
            scores = [float(row[-54:].sum()) for row in feats["x_batch"]]  # the action part: play most cards
        else:
            scores = [float(len(a)) for a in infoset.legal_actions]
        best = max(range(len(scores)), key=lambda i: (scores[i], -i))
        return list(infoset.legal_actions[best])


def test_douzero_adapter_with_a_stand_in_model() -> None:
    agents = {p: StandIn(p) for p in ("landlord", "landlord_up", "landlord_down")}
    for deal in load_deals(3):
        g = research_game(deal)
        bot = DouZeroBot(agents)  # type: ignore[arg-type]
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            legal = g.legal_actions()
            a = bot.act(g.observe(seat), list(legal))
            assert a in legal
            g.apply(a, seat)
    assert all(s.calls > 0 for s in agents.values())


def test_douzero_infoset_translation() -> None:
    g = research_game(load_deals(1)[0])
    for _ in range(7):  # a few plays, then look from a farmer's seat
        g.apply(g.legal_actions()[-1])
    seat = g.to_act
    assert seat is not None
    obs = g.observe(seat)
    info, ours = douzero_infoset(obs, g.legal_actions())
    assert info.player_position == douzero_position(seat, 0)
    assert info.player_hand_cards == douzero_cards(tuple(counts_of_tokens(obs["hand"])))
    others = [c for s in range(3) if s != seat for c in g.hands[s]]
    assert sorted(info.other_hand_cards) == sorted(douzero_cards(tuple(counts_of_tokens([str(c) for c in others]))))
    assert info.all_handcards is None
    assert len(info.card_play_action_seq) == 7
    assert len(ours) == len(info.legal_actions)
    assert info.num_cards_left_dict[info.player_position] == len(obs["hand"])
    assert sum(info.num_cards_left_dict.values()) == sum(len(h) for h in g.hands)
    assert douzero_cards((1,) * 15) == [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]
