"""Property tests over random deals with random legal actions, for every preset (RULES.md §2–§7)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from qipai.core.game import Game as GameProtocol
from qipai.core.game import IllegalAction
from qipai.games.doudizhu.actions import format_action, parse_action
from qipai.games.doudizhu.record import make_record, replay
from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game

PRESET_NAMES = sorted(PRESETS)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play_random(g: Game, rng: random.Random, extras: bool = True) -> list[tuple[int, str]]:
    """Random legal actions to the end, with occasional auto-play toggles, timeouts and escapes."""
    steps = 0
    while not g.is_over:
        steps += 1
        assert steps < 5000, "deal did not end"
        roll = rng.random()
        if extras and roll < 0.02:
            s = rng.randrange(g.players)
            g.set_autoplay(s, not g.autoplay[s])
        elif extras and roll < 0.025:
            g.timeout(g.to_act)
        elif extras and roll < 0.027:
            g.leave(rng.randrange(g.players))
        else:
            g.apply(rng.choice(g.legal_actions()))
    return list(g.actions)


def all_cards(g: Game) -> Counter[int]:
    """Every card of the current deal: in hands, played, or still in the kitty."""
    held = [c.id for h in g.hands for c in h]
    played = []
    for s, h in enumerate(g.hands):
        dealt = g.initial_hands[s] + (g.kitty if g.kitty_taken and s == g.landlord else [])
        played += [c.id for c in dealt if c not in h]
    kitty = [] if g.kitty_taken else [c.id for c in g.kitty]
    return Counter(held + played + kitty)


@SETTINGS
@given(st.sampled_from(PRESET_NAMES), st.integers(0, 2**32), st.integers(0, 2**32))
def test_random_deals_end_conserve_cards_and_replay(preset: str, seed: int, choice_seed: int) -> None:
    rules = PRESETS[preset]
    g = Game.new(rules, seed)
    assert isinstance(g, GameProtocol)
    rng = random.Random(choice_seed)
    deck_size = 54 * rules.decks
    steps = 0
    while not g.is_over:
        steps += 1
        assert steps < 5000
        # cards are conserved at every step: hands + kitty (until taken) + cards played = the whole deck
        cards = all_cards(g)
        assert sum(cards.values()) == deck_size and max(cards.values()) == 1
        assert sum(len(h) for h in g.hands) + (0 if g.kitty_taken else len(g.kitty)) == deck_size - sum(
            g.cards_played
        )
        roll = rng.random()
        if roll < 0.02:
            s = rng.randrange(g.players)
            g.set_autoplay(s, not g.autoplay[s])
        elif roll < 0.025:
            g.timeout(g.to_act)
        elif roll < 0.027:
            g.leave(rng.randrange(g.players))
        else:
            g.apply(rng.choice(g.legal_actions()))
    out = g.outcome()
    assert out is not None
    if out["escaped"] is None and not out["dissolved"] and not rules.cap_by_table_points:
        assert sum(out["scores"]) == 0
    if out["escaped"] is not None:
        assert [s for s in out["scores"] if s] in ([], [out["scores"][out["escaped"]]])
    if out["winner"] == "landlord":
        assert not g.hands[g.landlord]
    # the record replays to the identical deal and outcome, also through JSON text
    rec = make_record(g)
    again = replay(json.dumps(rec))
    assert again.outcome() == out
    assert again.actions == g.actions
    for s in range(g.players):
        assert again.observe(s) == g.observe(s)


@SETTINGS
@given(st.sampled_from(PRESET_NAMES), st.integers(0, 2**32), st.integers(0, 2**32))
def test_multiplier_is_product_of_named_factors(preset: str, seed: int, choice_seed: int) -> None:
    g = Game.new(PRESETS[preset], seed)
    play_random(g, random.Random(choice_seed), extras=False)
    res = g.result
    assert res is not None
    prod = 1
    for f in res.factors:
        prod *= f.factor
    assert prod == res.multiplier
    for seat, fs in res.farmer_factors.items():
        own = 1
        for f in fs:
            own *= f.factor
        assert res.seat_multipliers[seat] == res.multiplier * own


@SETTINGS
@given(st.sampled_from(PRESET_NAMES), st.integers(0, 2**32), st.integers(0, 2**32), st.data())
def test_observations_hide_what_they_must(preset: str, seed: int, choice_seed: int, data: st.DataObject) -> None:
    """Deals that differ only in cards a seat cannot see give that seat equal observations: at any point, the
    other seats' unplayed cards (not a shown kitty, a shown hand or the face-up card) dealt anew change nothing
    the seat sees, and from there the same actions keep its view equal until one of those cards is played
    (played cards are public, suits included)."""
    rules = PRESETS[preset]
    a = Game.new(rules, seed)
    actions = play_random(a, random.Random(choice_seed), extras=False)
    viewer = data.draw(st.integers(0, rules.players - 1))
    cut = data.draw(st.integers(0, len(actions)))
    b = Game.new(rules, seed)
    for seat, text in actions[:cut]:
        b.apply(text, seat)
    assume(not b.is_over)
    k = data.draw(st.integers(0, 2**30))
    c = b.resample(viewer, k)
    assert c.observe(viewer) == b.observe(viewer)
    assert c.hands[viewer] == b.hands[viewer]
    others = [s for s in range(rules.players) if s != viewer]
    assert sorted(x.id for s in others for x in c.hands[s]) == sorted(x.id for s in others for x in b.hands[s]) \
        or not b.kitty_taken
    phase = b.phase
    for seat, text in actions[cut:]:
        if text.startswith("play") and seat != viewer:
            break  # a card the viewer could not see is about to be shown
        try:
            c.apply(text, seat)
        except IllegalAction:
            break  # e.g. a forced bid that the redealt hand no longer forces
        b.apply(text, seat)
        if b.phase != phase:
            break  # the kitty or a hand may be shown now
        assert c.observe(viewer) == b.observe(viewer)
        if b.is_over:
            break


@SETTINGS
@given(st.sampled_from(PRESET_NAMES), st.integers(0, 2**32))
def test_observation_holds_no_other_hand(preset: str, seed: int) -> None:
    g = Game.new(PRESETS[preset], seed)
    g.apply(g.legal_actions()[-1])  # a bid or call
    while g.phase == "bid":
        g.apply("pass")
    for seat in [*range(g.players), None]:
        obs = g.observe(seat)
        text = json.dumps(obs)
        for other in range(g.players):
            if other == seat or (g.shown and other == g.landlord):
                continue
            hand = [str(c) for c in g.hands[other]]
            assert obs["hand"] != hand
            assert json.dumps(hand) not in text
        assert obs["hands"] is None


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PRESET_NAMES), st.integers(0, 2**32))
def test_action_text_round_trips(preset: str, seed: int) -> None:
    g = Game.new(PRESETS[preset], seed)
    rng = random.Random(seed)
    for _ in range(30):
        if g.is_over:
            break
        for text in g.legal_actions():
            assert format_action(parse_action(text)) == text
        g.apply(rng.choice(g.legal_actions()))
    for text in ["autoplay on", "autoplay off", "timeout", "escape", "redouble", "show", "call"]:
        assert format_action(parse_action(text)) == text


def test_a_resampled_deal_plays_the_viewers_own_copies_as_the_original() -> None:
    """Found by the property above: the viewer (seat 1) had played one of three aces, so its two left were in
    drawn order; a resample re-sorted them and the next rank-only ``play A`` took the other suit (AH instead of
    AS): the viewer's own view told the two deals apart.  A hand kept whole keeps its order."""
    rules = PRESETS["classic"]
    seed = 2**32
    actions = play_random(Game.new(rules, seed), random.Random(81), extras=False)
    b = Game.new(rules, seed)
    for seat, text in actions[:18]:
        b.apply(text, seat)
    c = b.resample(1, 0)
    for seat, text in actions[18:21]:
        b.apply(text, seat)
        c.apply(text, seat)
    assert actions[20] == (1, "play A")
    assert c.observe(1) == b.observe(1)
