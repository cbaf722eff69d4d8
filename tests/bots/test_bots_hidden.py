"""No bot can reach hidden cards: observations hold none, and hidden cards do not change a bot's decisions."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from qipai.bots import get_bot
from qipai.games.doudizhu.bots.arena import make_bot
from qipai.games.doudizhu.bots.search import SearchBot
from qipai.games.doudizhu.cards import Card, NotationError
from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game


def card_tokens(x: Any) -> list[str]:
    """Every string in a JSON-like value that reads as one suited card or a joker token."""
    out: list[str] = []
    if isinstance(x, dict):
        for v in x.values():
            out += card_tokens(v)
    elif isinstance(x, list | tuple):
        for v in x:
            out += card_tokens(v)
    elif isinstance(x, str) and len(x) >= 2:
        try:
            Card.parse(x)
        except NotationError:
            return out
        out.append(x)
    return out


def visible_to(g: Game, seat: int) -> set[str]:
    """The cards a seat may see: its own hand, every played card, the kitty where shown, a shown hand."""
    seen = {str(c) for c in g.hands[seat]}
    for ev in g.log:
        if ev["event"] == "play":
            seen |= set(ev["cards"])
        if ev["event"] == "show":
            seen |= set(ev["hand"])
        if ev["event"] == "deal" and ev.get("face_up"):  # shown while dealing (also in deals since redealt)
            seen.add(ev["face_up"])
    if g.kitty_taken and (g.rules.kitty_visible or seat == g.landlord):
        seen |= {str(c) for c in g.kitty}
    return seen


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_observations_hold_no_hidden_card(preset: str) -> None:
    r = PRESETS[preset]
    for seed in range(3):
        g = Game.new(r, seed)
        bots = [get_bot("heuristic", s) for s in range(r.players)]
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            obs = g.observe(seat)
            assert obs["hands"] is None
            assert obs["seat"] == seat
            # the seat's own hand is exactly its cards (counts of other hands only)
            assert sorted(obs["hand"]) == sorted(str(c) for c in g.hands[seat])
            hidden = set(card_tokens(obs)) - visible_to(g, seat)
            assert not hidden, (preset, seed, seat, hidden)
            g.apply(bots[seat].act(obs, g.legal_actions()), seat)


def _worlds() -> tuple[Game, Game]:
    """Two deals that differ only in cards seat 0 cannot see (the farmers' hands)."""
    r = PRESETS["classic"]
    base = Game.new(r, 11)
    hands = [[str(c) for c in h] for h in base.hands]
    kitty = " ".join(str(c) for c in base.kitty)
    swapped = [list(h) for h in hands]
    swapped[1][:6], swapped[2][:6] = hands[2][:6], hands[1][:6]
    a = Game.from_deal(r, [" ".join(h) for h in hands], kitty, first_bidder=0)
    b = Game.from_deal(r, [" ".join(h) for h in swapped], kitty, first_bidder=0)
    assert [sorted(map(str, h)) for h in a.hands[1:]] != [sorted(map(str, h)) for h in b.hands[1:]]
    for g in (a, b):
        g.apply("bid 3")
    return a, b


@pytest.mark.parametrize("name", ["heuristic", "search", "rlcard", "dmc", "dmc:samples=8,top=3"])
def test_hidden_cards_do_not_change_decisions(name: str) -> None:
    if name == "rlcard":
        import rlcard  # noqa: F401 - the bench extra (scripts/test.sh installs it)
    decisions = []
    for g in _worlds():
        bot = SearchBot(3, samples=6) if name == "search" else make_bot(name, 3) if ":" in name else get_bot(name, 3)
        seq = []
        observations = []
        while not g.is_over:
            seat = g.to_act
            if seat == 0:
                obs = g.observe(0)
                observations.append(copy.deepcopy(obs))
                a = bot.act(obs, g.legal_actions())
                seq.append(a)
                g.apply(a)
            else:  # the farmers pass, the same public action in both worlds
                g.apply("pass")
        decisions.append((seq, observations))
    (seq_a, obs_a), (seq_b, obs_b) = decisions
    assert obs_a[0] == obs_b[0]
    assert seq_a == seq_b
    assert len(seq_a) >= 2


def test_bots_work_on_their_own_copy() -> None:
    """A bot that scribbles on its observation cannot change the game."""

    class Vandal:
        name = "vandal"

        def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
            observation["hand"].clear()
            for ev in observation["history"]:
                ev.clear()
            a = legal_actions[-1]
            legal_actions.clear()
            return a

    g = Game.new(PRESETS["classic"], 4)
    before = copy.deepcopy(g.log)
    v = Vandal()
    obs = g.observe(g.to_act)
    legal = g.legal_actions()
    a = v.act(copy.deepcopy(obs), list(legal))
    assert g.log == before and a in g.legal_actions()


def test_bots_read_a_custom_tables_rules_from_the_observation() -> None:
    """A table whose rules are no preset (here: classic without four-with-two) is read from ``rules``."""
    from qipai.games.doudizhu.bots.view import rules_of
    from qipai.games.doudizhu.rules import KINDS, PRESETS
    from qipai.games.doudizhu.state import Game

    custom = PRESETS["classic"].replace(kinds=frozenset(KINDS) - {"four_two_singles", "four_two_pairs"}, stake=3)
    g = Game.new(custom, seed=4)
    obs = g.observe(g.to_act)
    assert obs["preset"] is None and obs["rules"]["stake"] == 3
    assert rules_of(obs) == custom
    assert rules_of({"players": 4}) == PRESETS["four_player"]
