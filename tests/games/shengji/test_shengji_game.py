"""The Shengji game object: deal windows as a joint decision, play, host events, observations, records,
resampling (core/game.py's interface)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shengji_helpers import deal_hands, play_random, run_deal

from qipai.core.game import Game, IllegalAction, SplitObservation, apply_step
from qipai.games.shengji import FACTORY
from qipai.games.shengji.cards import DECK_SIZE, parse_cards
from qipai.games.shengji.follow import follow_error, lead_error
from qipai.games.shengji.game import ShengjiGame

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def views(g: ShengjiGame) -> list[dict]:
    return [g.observe(s) for s in (None, 0, 1, 2, 3)]


def test_protocols() -> None:
    g = ShengjiGame({}, 1)
    assert isinstance(g, Game) and isinstance(g, SplitObservation)
    shared, own = g.observe_parts(2)
    assert g.observe(2) == {**shared, **own} and not set(shared) & set(own)
    assert g.observe_parts(0)[0] is shared


def test_deal_windows_are_a_joint_decision() -> None:
    g = ShengjiGame({}, 5)
    assert g.acting == (0, 1, 2, 3) and g.public_acting() == g.acting and g.dealt == 1
    d0 = g.decision_index(0)
    g.apply("pass", 2)
    assert g.acting == (0, 1, 3) and g.decision_index(0) == d0  # the others keep their clock
    with pytest.raises(IllegalAction, match="already answered"):
        g.apply("pass", 2)
    for s in (0, 1, 3):
        g.apply("pass", s)
    assert g.dealt == 2 and g.acting == (0, 1, 2, 3) and g.decision_index(0) != d0
    assert g.time_limit(0) == 0.15 and g.time_limit(0) is not None
    g.timeout(1)  # the host's deal(): silent seats pass
    assert g.dealt == 3
    assert g.actions[-1] == (1, "timeout")


def test_final_window_declaration_clears_passes() -> None:
    deal = deal_hands({1: "3S 3S", 2: "3H"}, first=0, seed=2)
    g = ShengjiGame({}, 0, {}, deal=deal, first=0)
    while g.dealt < DECK_SIZE:
        g.timeout(0)
    assert g.phase == "final" and g.time_limit(3) == 5.0
    g.apply("pass", 0)
    g.apply("pass", 3)
    d = g.decision_index(0)
    g.apply("declare 3H", 2)
    assert g.acting == (0, 1, 3) and g.decision_index(0) != d  # passes cleared, the timer restarts
    g.apply("declare 3S 3S", 1)
    assert g.acting == (0, 2, 3)
    for s in (0, 2, 3):
        g.apply("pass", s)
    assert g.phase == "play" and g.banker == 1 and g.trump == 0 and g.time_limit(1) == 30.0


def test_illegal_actions_change_nothing_and_say_why() -> None:
    g = ShengjiGame({}, 9)
    before = (views(g), g.record())
    for text, seat in [("play 3S", 0), ("declare 4S", 0), ("declare", 1), ("declare B", 1), ("pass now", 2),
                       ("hello", 3), ("declare 3S 3H", 0), ("declare 3X", 0), ("pass", 7)]:
        reason = g.check(text, seat)
        assert reason, text
        with pytest.raises(IllegalAction) as e:
            g.apply(text, seat)
        assert str(e.value) == reason
    assert (views(g), g.record()) == before
    run_deal(g)
    leader = g.acting[0]
    other = (leader + 1) % 4
    before = (views(g), g.record())
    hand = g.hands[leader]
    missing = next(f for f in range(54) if not hand[f])
    from qipai.games.shengji.cards import face_text

    for text, seat in [("play 3S", other), ("pass", leader), (f"play {face_text(missing)}", leader), ("play", leader),
                       ("declare 3S", leader)]:
        reason = g.check(text, seat)
        assert reason, text
        with pytest.raises(IllegalAction, match=r".+"):
            g.apply(text, seat)
    assert (views(g), g.record()) == before


def test_timeout_in_play_is_passive_and_autoplay() -> None:
    g = ShengjiGame({}, 11)
    run_deal(g)
    s = g.acting[0]
    assert g.time_limit(s) == 30.0 and g.time_limit((s + 1) % 4) is None
    legal = g.legal_actions(s)
    g.timeout(s)
    assert g.autoplay[s] and g.trick[0][0] == s
    assert legal[0] == "play " + " ".join(t for t in g.observe(None)["trick"][0][1].split())
    nxt = g.acting[0]
    assert g.time_limit(nxt) == 20.0
    with pytest.raises(IllegalAction):
        g.timeout(s)  # not acting
    g.set_autoplay(s, False)
    with pytest.raises(IllegalAction, match="not in auto-play"):
        g.set_autoplay(s, False)


def test_leave_without_and_with_escape_penalty() -> None:
    g = ShengjiGame({}, 12)
    g.leave(1)
    assert g.autoplay[1] and not g.is_over
    with pytest.raises(IllegalAction, match="stays in auto-play"):
        g.set_autoplay(1, False)
    with pytest.raises(IllegalAction, match="already left"):
        g.leave(1)
    g = ShengjiGame({"escape_penalty": True, "stake": 3}, 12)
    run_deal(g)
    g.leave(2)
    out = g.outcome()
    assert g.is_over and out is not None and out["scores"] == [0, 0, -9, 0] and out["escaped"] == 2
    assert out["match_over"] and out["won"][2] is False
    m = FACTORY.match_after(g.options, FACTORY.match_start(g.options), out)
    assert m["over"] and m["winner"] is None and m["scores"] == [0, 0, -9, 0]


def _conserved(g: ShengjiGame) -> None:
    played = sum(len(parse_cards(t)) for rec in g.tricks for _, t in rec["plays"]) + sum(len(c) for _, c in g.trick)
    assert sum(sum(h) for h in g.hands) + played == g.dealt
    assert all(min(h) >= 0 for h in g.hands)


@SETTINGS
@given(st.integers(0, 2**32), st.booleans())
def test_random_hands_to_the_end(seed: int, extras: bool) -> None:
    g = ShengjiGame({"throw_penalty": 20}, seed)
    rng = random.Random(seed)
    play_random(g, rng, extras=extras)
    _conserved(g)
    out = g.outcome()
    assert out is not None and g.acting == () and g.legal_actions(0) == []
    assert sum(out["scores"]) == 0 and len(out["tricks"]) >= 1
    assert set(out["roles"]) == {"banker", "attacker"}
    # the score is the sum of its parts
    last = out["last_trick"]
    assert out["score"] == out["attackers_points_before_last"] + last["amount"] + out["penalties"]
    assert out["attackers_points_before_last"] + out["banker_points_before_last"] + last["points"] == 400
    assert out["penalties"] == sum(f["penalty"] for f in out["failed_throws"])
    assert all(abs(f["penalty"]) == 20 for f in out["failed_throws"])
    # everything is JSON as it is
    for x in (out, g.record(), *views(g)):
        assert json.loads(json.dumps(x)) == x
    # record → JSON → replay rebuilds exactly
    rec = json.loads(json.dumps(g.record()))
    g2 = FACTORY.replay(rec)
    assert views(g2) == views(g) and g2.outcome() == out and g2.record() == g.record()


def test_every_play_of_a_random_hand_is_checked() -> None:
    """Each accepted play satisfies the rules core's checks against the hand held at that moment."""
    g = ShengjiGame({}, 77)
    run_deal(g)
    rng = random.Random(1)
    while not g.is_over:
        s = g.acting[0]
        hand = list(g.hands[s])
        lead = g.lead
        a = rng.choice(g.legal_actions(s))
        cards = parse_cards(a[5:])
        o = g.order
        assert o is not None
        assert (lead_error(hand, cards, o) if lead is None else follow_error(hand, lead, cards, o)) is None
        g.apply(a, s)
        _conserved(g)


def test_record_refuses_illegal_steps() -> None:
    g = ShengjiGame({}, 3)
    play_random(g, random.Random(3))
    rec = g.record()
    bad = json.loads(json.dumps(rec))
    i = g.play_start + 1
    bad["actions"][i] = [bad["actions"][i][0], "play B B B B B"]
    with pytest.raises(IllegalAction, match=f"record step {i + 1} "):  # counted from 1, as in the other games
        FACTORY.replay(bad)
    with pytest.raises(IllegalAction, match="not a qipai record: format is 'zzz'"):
        FACTORY.replay({**rec, "format": "zzz"})


def test_observation_hides_other_hands() -> None:
    g = ShengjiGame({}, 4)
    run_deal(g)
    spectator = g.observe(None)
    assert "hand" not in spectator and spectator["seat"] is None
    for s in range(4):
        v = g.observe(s)
        assert sorted(parse_cards(v["hand"])) == sorted(f for f in range(54) for _ in range(g.hands[s][f]))
        assert not {"seed", "deal", "deal_order", "hands"} & set(v)
    assert g.observe(0)["hand_sizes"] == [54, 54, 54, 54]


def test_overcalled_declarations_stay_concealed_after_the_hand() -> None:
    deal = deal_hands({1: "3S", 2: "3H 3H"}, first=0, seed=5)
    g = ShengjiGame({}, 0, {}, deal=deal, first=0)
    run_deal(g, {10: [(1, "declare 3S")], 20: [(2, "declare 3H 3H")]})
    play_random(g, random.Random(2))
    full = g.outcome()
    assert full is not None and full["declarations"] == [[1, "3S", 10], [2, "3H 3H", 20]]
    for s in (None, 0, 2, 3):
        v = g.observe(s)
        assert v["outcome"]["declarations"] == [[1, 1, 10], [2, 2, 20]]
        assert "3S" not in json.dumps(v["outcome"]["declarations"]) and v["revealed"]["cards"] == "3H 3H"
    assert g.observe(1)["my_declarations"] == [[10, "3S"]]


def test_decision_index_changes_per_turn() -> None:
    g = ShengjiGame({}, 6)
    run_deal(g)
    seen = set()
    for _ in range(8):
        s = g.acting[0]
        seen.add(g.decision_index(s))
        g.apply(g.legal_actions(s)[0], s)
    assert len(seen) == 8


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 3), st.integers(0, 1300), st.integers(0, 2**20))
def test_resample_keeps_the_seats_view(seed: int, seat: int, steps: int, k: int) -> None:
    g = ShengjiGame({}, seed)
    play_random(g, random.Random(seed), extras=seed % 2 == 0, until=steps)
    h = g.resample(seat, k)
    assert h.observe(seat) == g.observe(seat)
    # every declaration's cards were dealt to the declarer by then
    for s, f, n, at in h.decls:
        got = sum(1 for i in range(at) if (h.first + i) % 4 == s and h.deal_order[i] == f)
        assert got >= n
    # the resampled game goes on: its acting seat has a legal action
    if not h.is_over:
        s = h.acting[0]
        a = h.legal_actions(s)[0]
        assert h.check(a, s) is None
        h.apply(a, s)


@pytest.mark.parametrize("depth", [10, 60, 120, 180])
def test_resample_draws_hidden_cards_anew(depth: int) -> None:
    g = ShengjiGame({}, 21 + depth)
    run_deal(g, {100: [(1, "pass")]})
    rng = random.Random(depth)
    for _ in range(depth):
        s = g.acting[0]
        g.apply(rng.choice(g.legal_actions(s)), s)
    for seat in range(4):
        h = g.resample(seat, depth + seat)
        assert h.hands[seat] == g.hands[seat]
        assert h.hands != g.hands or depth > 150  # late in a hand the inferences may pin every card
        assert [sum(x) for x in h.hands] == [sum(x) for x in g.hands]
        # full consistency: every past action is legal in the new deal, so its record replays to it
        h2 = FACTORY.replay(h.record())
        assert h2.observe(seat) == g.observe(seat) and h2.hands == h.hands


def test_apply_step_host_events() -> None:
    g = ShengjiGame({}, 8)
    apply_step(g, 1, "autoplay on")
    apply_step(g, 1, "autoplay off")
    apply_step(g, 0, "timeout")
    assert g.dealt == 2 and g.actions[-3:] == [(1, "autoplay on"), (1, "autoplay off"), (0, "timeout")]


@SETTINGS
@given(st.integers(0, 2**32))
def test_every_listed_action_is_legal(seed: int) -> None:
    """For every acting seat at every step, each listed action passes ``check`` and applies on a clone."""
    g = ShengjiGame({}, seed)
    rng = random.Random(seed)
    steps = 0
    while not g.is_over:
        steps += 1
        assert steps <= g.players * 400
        for s in g.acting:
            la = g.legal_actions(s)
            assert la and g.time_limit(s) is not None
            for a in la:
                assert g.check(a, s) is None, a
            if rng.random() < 0.05:
                h = g.clone()
                h.apply(la[-1], s)
                assert h.record()["actions"][-1][1] != "" and g.record() != h.record()
        for s in set(range(4)) - set(g.acting):
            assert g.legal_actions(s) == [] and g.time_limit(s) is None
        if g.phase in ("deal", "final"):
            if g.dealt % 50 == 0 and len(g.legal_actions(g.acting[0])) > 1:
                g.apply(g.legal_actions(g.acting[0])[1], g.acting[0])
            else:
                g.timeout(g.acting[0])
        else:
            s = g.acting[0]
            g.apply(rng.choice(g.legal_actions(s)), s)
    assert len(g.actions) <= FACTORY.info.max_actions


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 1100), st.lists(st.tuples(st.integers(-1, 4), st.integers(0, 5),
                                                                      st.lists(st.integers(0, 53), max_size=6)),
                                                            min_size=1, max_size=25))
def test_random_actions_are_checked(seed: int, until: int, tries: list[tuple[int, int, list[int]]]) -> None:
    """Arbitrary actions at arbitrary moments: refused with the reason ``check`` gives and no change, or accepted
    exactly when ``check`` accepts them."""
    from qipai.games.shengji.cards import face_text

    g = ShengjiGame({}, seed)
    play_random(g, random.Random(seed), until=until)
    verbs = ["play", "declare", "pass", "Play", "declare", "bid"]
    for seat, verb, faces in tries:
        text = verbs[verb] + ("" if verb == 2 and faces else " " + " ".join(face_text(f) for f in faces))
        reason = g.check(text, seat)
        before = (views(g), g.record())
        h = g.clone()
        if reason is None:
            h.apply(text, seat)
            assert h.record() != before[1]
        else:
            with pytest.raises(IllegalAction) as e:
                h.apply(text, seat)
            assert str(e.value) == reason and (views(h), h.record()) == before
        assert (views(g), g.record()) == before  # the clone is independent
