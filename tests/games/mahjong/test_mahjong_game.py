"""The deal as a whole: dealing, turns, 听 and its locks, exhaustive draws, observations, host events, records,
clone and resample (RULES-mahjong.md §2, §4, §9 and the Game protocol of qipai.core.game)."""

from __future__ import annotations

import json

import pytest
from mahjong_positions import position, snapshot

from qipai.core.game import AUTOPLAY_ON, Game, IllegalAction, apply_step
from qipai.core.rng import Rng
from qipai.games.mahjong.bots import BOTS
from qipai.games.mahjong.rules import DAQING
from qipai.games.mahjong.state import MahjongGame, RecordError, replay_record, tiles_conserved, unseen_counts
from qipai.games.mahjong.tiles import format_tiles, from_counts, full_set, parse_tile

T = parse_tile


def play_bots(g: MahjongGame, names: tuple[str, ...] = ("efficiency",) * 4, seed: int = 0,
              stop: int | None = None) -> MahjongGame:
    bots = [BOTS[n](seed * 4 + i) for i, n in enumerate(names)]
    steps = 0
    while not g.is_over and (stop is None or steps < stop):
        s = g.acting[0]
        g.apply(bots[s].act(g.observe(s, hints=False), g.legal_actions(s)), s)
        steps += 1
    return g


# ---------------------------------------------------------------- dealing (§2)
def test_the_deal_follows_the_shuffled_wall() -> None:
    g = MahjongGame.new(DAQING, seed=5, dealer=2)
    w = full_set()
    rng = Rng(5)
    rng.below(4)
    rng.shuffle(w)
    assert from_counts(g.hands[2]) == sorted(w[0:14])
    assert from_counts(g.hands[3]) == sorted(w[14:27])
    assert from_counts(g.hands[0]) == sorted(w[27:40])
    assert from_counts(g.hands[1]) == sorted(w[40:53])
    assert g.wall[g.head:g.tail] == w[53:]
    assert g.wall_count == 59
    assert g.drawn[2] == w[13]
    assert g.observe(2)["drawn"] == format_tiles([w[13]])
    assert tiles_conserved(g)


def test_first_dealer_option() -> None:
    assert MahjongGame.new(DAQING.replace(first_dealer="seat0"), seed=9).dealer == 0
    dealers = {MahjongGame.new(DAQING, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_the_dealer_first_discards_and_cannot_ting_or_win() -> None:
    g = MahjongGame.new(DAQING, seed=3, dealer=1)
    assert g.acting == (1,) and g.phase == "play"
    la = g.legal_actions(1)
    assert la and all(a.startswith("discard ") for a in la)
    assert len(la) == sum(1 for k in range(28) if g.hands[1][k])
    assert g.legal_actions(0) == []


def test_a_given_deal_is_checked() -> None:
    with pytest.raises(IllegalAction, match="must be dealt 14 tiles"):
        MahjongGame.from_deal(DAQING, ["123m", "", "", ""], "")
    with pytest.raises(IllegalAction, match="more than four copies of 1m"):
        MahjongGame.from_deal(DAQING, ["11111m 23456789p", "123456789s 1234p", "123456789s 5678p",
                                       "123456789m 9p 123s"], "")
    with pytest.raises(IllegalAction, match="bad deal"):
        MahjongGame.from_deal(DAQING, ["x", "", "", ""], "")


# ---------------------------------------------------------------- turns, 听, exhaustive draw
def test_after_a_discard_nobody_can_claim_the_next_seat_draws() -> None:
    g = position(hands={0: "19m 19p 19s 258p 2s 8s 7s Z 6s", 1: "19m 19p 19s 258p 3m 8m 7m Z",
                        2: "19m 19p 19s 258p 3s 8s 7m Z", 3: "19m 19p 19s 258p 2s 8s 7m Z"}, wall="4p 5p")
    g.apply("discard 6s", 0)
    assert g.acting == (1,) and g.drawn[1] == T("4p") and g.wall_count == 1
    assert g.observe(1)["log"][-1] == {"seat": 1, "action": "draw", "tile": "4p"}
    assert g.observe(0)["log"][-1] == {"seat": 1, "action": "draw"}


def test_exhaustive_draw_and_the_last_discard() -> None:
    g = position(hands={0: "19m 19p 19s 258p 2s 8s 7s Z 6s", 1: "19m 19p 19s 258p 3m 8m 7m Z",
                        2: "19m 19p 19s 258p 3s 8s 7m Z", 3: "19m 19p 19s 258p 2s 8s 7m Z"}, wall="4p")
    g.apply("discard 6s", 0)
    g.apply("discard 4p", 1)
    assert g.is_over
    out = g.outcome()
    assert out["exhausted"] and out["scores"] == [0, 0, 0, 0] and out["won"] == [None] * 4
    assert out["next_dealer"] == 0 and out["winner"] is None


def test_ting_needs_a_meld_and_a_ready_hand() -> None:
    g = position(hands={0: "234m 678p 24m ZZ 9p 567s", 1: "19m 19p 19s 258p 3s 8s 7s Z",
                        2: "19m 19p 19s 258p 3s 8s 7m Z", 3: "19m 19p 19s 258p 2s 8s 7m Z"})
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="closed hand cannot be ready"):
        g.apply("ting 9p", 0)
    assert snapshot(g) == before
    g = position(hands={0: "234m 678p 24m ZZ 9p", 1: "19m 19p 19s 258p 3s 8s 7s Z",
                        2: "19m 19p 19s 258p 3s 8s 7m Z", 3: "19m 19p 19s 258p 2s 8s 7m Z"},
                 melds={0: "chi 567s"})
    with pytest.raises(IllegalAction, match="does not leave a ready hand"):
        g.apply("ting 2m", 0)
    assert "ting 9p" in g.legal_actions(0)
    g.apply("ting 9p", 0)
    assert g.ready[0]


def test_a_ready_hand_is_frozen() -> None:
    g = position(hands={0: "19m 19p 19s 258p 2s 8s 7s Z 4m", 1: "234m 678p 24m ZZ",
                        2: "19m 19p 19s 258p 3s 8s 7m Z", 3: "19m 19p 19s 258p 2s 8s 7m Z"},
                 melds={1: "chi 567s"}, ready={1: True}, bao="8s")
    g.hands[1][T("4m")] += 1  # a second 4m would allow a peng if the hand were not frozen
    g.hands[1][T("Z")] -= 1
    g.apply("discard 4m", 0)
    assert g.phase != "claim" or 1 not in g.acting


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_bot_deal_keeps_the_tiles_and_sums_to_zero(seed: int) -> None:
    g = MahjongGame.new(DAQING, seed=seed)
    bots = [BOTS["efficiency"](i) for i in range(4)]
    while not g.is_over:
        s = g.acting[0]
        g.apply(bots[s].act(g.observe(s), g.legal_actions(s)), s)
        assert tiles_conserved(g)
    assert sum(g.outcome()["scores"]) == 0
    assert isinstance(g, Game)


# ---------------------------------------------------------------- the protocol: acting, decisions, time
def test_decision_index_and_time_limits() -> None:
    g = position(hands={0: "5p 147m 258s 369s 88m 9p Z", 1: "46p 19m 19s 258m 258s Z",
                        2: "11m 99p 11s 99s 3m 7m 3p 7p Z", 3: "46p 123m 999s 77s"},
                 melds={3: "chi 789m"}, ready={3: True}, rules=DAQING.replace(auto_hu=False))
    d0 = g.decision_index(0)
    assert g.time_limit(0) == 15.0 and g.time_limit(1) is None
    g.apply("discard 5p", 0)
    d1 = g.decision_index(1)
    assert d1 != d0 and g.decision_index(3) == d1
    assert g.time_limit(1) == 8.0 and g.time_limit(3) == 8.0
    g.apply("chi 456p", 1)
    assert g.decision_index(3) == d1           # seat 3 keeps its clock
    g.apply("pass", 3)
    assert g.decision_index(1) != d1 and g.time_limit(1) == 15.0


def test_timeouts_follow_section_9() -> None:
    g = MahjongGame.new(DAQING, seed=4, dealer=0)
    k = g.drawn[0]
    assert k is not None
    g.timeout(0)
    assert g.in_autoplay(0) and g.rivers[0] == [k]
    assert g.actions[-1] == (0, "timeout")
    # after a claim: the last tile in canonical order
    g = position(hands={0: "4m 147p 258s 369s 88p 9s Z", 1: "35m 19p 19s 258p Z 1m 9m 7s",
                        2: "19m 19p 19s 258p Z 2s 8s 7s", 3: "44m 19p 19s 258p Z 2s 8s 9m"}, wall="6p 7p 8p")
    g.apply("discard 4m", 0)
    g.apply("pass", 1)
    g.apply("peng", 3)
    g.timeout(3)
    assert g.rivers[3] == [T("Z")] and g.in_autoplay(3)
    # a claim window: pass, no auto-play
    g = position(hands={0: "4m 147p 258s 369s 88p 9s Z", 1: "35m 19p 19s 258p Z 1m 9m 7s",
                        2: "19m 19p 19s 258p Z 2s 8s 7s", 3: "44m 19p 19s 258p Z 2s 8s 9m"}, wall="6p 7p 8p")
    g.apply("discard 4m", 0)
    g.timeout(1)
    g.timeout(3)
    assert g.turn == 1 and not g.in_autoplay(1) and not g.in_autoplay(3)
    with pytest.raises(IllegalAction, match="no decision open"):
        g.timeout(2)


def test_timeout_after_a_ting_claim_declares_the_first_ready_tile() -> None:
    g = position(hands={0: "6s 147m 258p 369p 88m 9s Z", 1: "45s 19m 19p 1s 9s 258p Z 5m",
                        2: "57s 234m 678p 24m ZZ 9p", 3: "11m 99p 11s 99s 3m 7m 3p 7p Z"})
    g.apply("discard 6s", 0)
    g.apply("pass", 1)
    g.apply("chi 567s ting", 2)
    g.timeout(2)
    assert g.ready[2] and g.rivers[2] == [T("6p")]


def test_autoplay_and_leave() -> None:
    g = MahjongGame.new(DAQING, seed=8, dealer=0)
    g.set_autoplay(2, True)
    assert g.in_autoplay(2) and g.actions[-1] == (2, AUTOPLAY_ON)
    with pytest.raises(IllegalAction, match="already in auto-play"):
        g.set_autoplay(2, True)
    g.leave(1)
    assert g.left[1] and g.in_autoplay(1) and not g.is_over
    with pytest.raises(IllegalAction, match="already left"):
        g.leave(1)
    assert g.observe(0)["left"] == [False, True, False, False]


def test_public_acting_hides_who_may_claim() -> None:
    g = position(hands={0: "5p 147m 258s 369s 88m 9p Z", 1: "46p 19m 19s 258m 258s Z",
                        2: "11m 99p 11s 99s 3m 7m 3p 7p Z", 3: "19m 19p 19s 258m 2s 8s 7s Z"})
    assert g.public_acting() == (0,)
    g.apply("discard 5p", 0)
    assert g.acting == (1,) and g.public_acting() == ()
    assert g.observe(2)["phase"] == "claim" and g.observe(2)["discard"] == {"seat": 0, "tile": "5p"}


# ---------------------------------------------------------------- illegal input
@pytest.mark.parametrize("action,seat,why", [
    ("discard 5m", 1, "no decision open"),
    ("discard 9z", 0, "bad tile"),
    ("fly 5m", 0, "unknown verb"),
    ("pass", 0, "pass answers a claim window"),
    ("chi 456m", 0, "claim on a discard"),
    ("hu", 0, "not ready"),
    ("", 0, "empty action"),
])
def test_illegal_actions_change_nothing_and_say_why(action: str, seat: int, why: str) -> None:
    g = MahjongGame.new(DAQING, seed=12, dealer=0)
    before = snapshot(g)
    obs = [g.observe(s) for s in range(4)]
    assert why in (g.check(action, seat) or "")
    with pytest.raises(IllegalAction, match=why):
        g.apply(action, seat)
    assert snapshot(g) == before and [g.observe(s) for s in range(4)] == obs


def test_a_tile_not_held() -> None:
    g = MahjongGame.new(DAQING, seed=12, dealer=0)
    missing = next(k for k in range(28) if not g.hands[0][k])
    name = format_tiles([missing])
    with pytest.raises(IllegalAction, match=f"you hold no {name}"):
        g.apply(f"discard {name}", 0)


# ---------------------------------------------------------------- observations
def test_observations_hide_what_they_must() -> None:
    g = play_bots(MahjongGame.new(DAQING, seed=21), stop=12)
    assert not g.is_over
    for s in range(4):
        o = g.observe(s)
        assert set(o) >= {"hand", "drawn", "rivers", "melds", "wall", "ready", "old_bao", "hints", "log"}
        assert "hands" not in o
        json.dumps(o)
    spec = g.observe(None)
    assert "hand" not in spec and "hints" not in spec and spec["bao"] is None
    assert all("tile" not in e for e in spec["log"] if e["action"] == "draw")


@pytest.mark.parametrize("seat", [-1, 4])
def test_a_view_of_no_seat_is_refused(seat: int) -> None:
    """observe(-1) gave seat 3's tiles under "seat": -1, observe(4) (and resample) an IndexError."""
    g = MahjongGame.new(DAQING, seed=21)
    with pytest.raises(IllegalAction, match=f"no such seat {seat}"):
        g.observe(seat)
    with pytest.raises(IllegalAction, match=f"no such seat {seat}"):
        g.resample(seat, 1)


def test_everything_is_revealed_at_the_end() -> None:
    g = play_bots(MahjongGame.new(DAQING, seed=22))
    o = g.observe(None)
    assert o["hands"] == [format_tiles(from_counts(h)) for h in g.hands]
    assert o["outcome"] == g.outcome()
    assert all("tile" in e for e in o["log"] if e["action"] == "draw")
    if g.bao is not None:
        assert o["bao"] == format_tiles([g.bao])


def test_unseen_counts_from_a_seat() -> None:
    g = play_bots(MahjongGame.new(DAQING, seed=23), stop=25)
    for s in range(4):
        u = unseen_counts(g, s)
        hidden = sum(sum(g.hands[j]) for j in range(4) if j != s) + g.wall_count + (
            1 if g.bao is not None and not g.ready[s] else 0)
        assert sum(u) == hidden


def test_hints_in_the_observation() -> None:
    g = MahjongGame.new(DAQING, seed=30, dealer=0)
    h = g.observe(0)["hints"]
    assert h.get("discards")
    best = h["shanten"]
    assert all(d["shanten"] == best for d in h["discards"])
    for d in h["discards"]:
        assert f"discard {d['tile']}" in g.legal_actions(0)
        for u in d.get("useful", []):
            assert 0 <= u["unseen"] <= 4
    w = g.observe(1)["hints"]
    assert "useful" in w or "waits" in w


# ---------------------------------------------------------------- records, clone, resample
def test_record_replays_exactly_and_is_json() -> None:
    g = play_bots(MahjongGame.new(DAQING, seed=31))
    rec = json.loads(json.dumps(g.record()))
    r = replay_record(rec)
    assert r.outcome() == g.outcome() and r.log == g.log
    assert [r.observe(s) for s in range(4)] == [g.observe(s) for s in range(4)]
    half = replay_record(rec, upto=len(rec["actions"]) // 2)
    assert not half.is_over


def test_record_of_a_given_deal_and_host_events() -> None:
    g2 = MahjongGame.from_deal(DAQING, ["19m 19p 19s 258p 2s 8s 7s Z 6s", "19m 19p 19s 258p 3m 8m 7m Z",
                                        "19m 19p 19s 258p 3s 8s 7m Z", "19m 19p 19s 258p 2s 8s 7m Z"], "4p 6m")
    assert g2.drawn[0] == T("6s")
    g2.set_autoplay(3, True)
    g2.timeout(0)
    rec = g2.record()
    assert rec["deal"]["wall"] == "4p 6m" and rec["deal"]["hands"][0].endswith("6s")
    r = replay_record(rec)
    assert r.actions == g2.actions and r.in_autoplay(0) and r.in_autoplay(3)
    assert r.rivers[0] == [T("6s")]


def test_replay_refuses_bad_records() -> None:
    g = play_bots(MahjongGame.new(DAQING, seed=32), stop=10)
    rec = g.record()
    bad = dict(rec, actions=[*rec["actions"][:3], {"seat": 0, "action": "discard 9z"}])
    with pytest.raises(RecordError, match=r"step 4 .*is illegal"):
        replay_record(bad)
    with pytest.raises(RecordError, match="not a qipai record"):
        replay_record({"format": "x"})
    with pytest.raises(RecordError, match="bad rules"):
        replay_record(dict(rec, rules={"base": -1}))
    with pytest.raises(RecordError, match="actions are a list"):
        replay_record(dict(rec, actions=5))  # it raised TypeError
    # fields of the wrong type were Python's words ("string indices must be integers", "dictionary update
    # sequence element #0 has length 1")
    with pytest.raises(RecordError, match="bad rules in record: rules are an object of options"):
        replay_record(dict(rec, rules="x"))
    with pytest.raises(RecordError, match="bad deal in record: an object with hands and wall"):
        replay_record(dict(rec, deal="x"))
    with pytest.raises(RecordError, match="bad deal in record: hands are a list of 4 hands of tiles"):
        replay_record(dict(rec, deal={"hands": 5, "wall": []}))
    with pytest.raises(RecordError, match="a JSON object"):
        replay_record([rec])  # type: ignore[arg-type]
    done = play_bots(MahjongGame.new(DAQING, seed=33)).record()
    tampered = dict(done, outcome=dict(done["outcome"], scores=[1, 2, 3, -6]))
    with pytest.raises(RecordError, match="outcome differs"):
        replay_record(tampered)
    with pytest.raises(RecordError, match=r"ends before the hand is over \(after 10 steps\), yet holds an outcome"):
        replay_record(dict(done, actions=done["actions"][:10]))
    with pytest.raises(RecordError, match="actions are a list"):
        replay_record(dict(done, actions={}))


def test_replay_names_another_games_record() -> None:
    """A Dou Dizhu record (version 2) was refused as "unsupported record version 2 (this build reads 1)"."""
    from qipai.games.doudizhu.rules import PRESETS
    from qipai.games.doudizhu.state import Game

    with pytest.raises(RecordError, match="not a mahjong record: game is 'doudizhu'"):
        replay_record(Game.new(PRESETS["classic"], seed=1).record())


def test_apply_step_replays_host_events() -> None:
    g = MahjongGame.new(DAQING, seed=34, dealer=0)
    h = MahjongGame.new(DAQING, seed=34, dealer=0)
    g.timeout(0)
    apply_step(h, 0, "timeout")
    assert g.actions == h.actions and g.rivers == h.rivers


def test_clone_is_independent() -> None:
    g = play_bots(MahjongGame.new(DAQING, seed=35), stop=12)
    c = g.clone()
    assert c.observe(0) == g.observe(0)
    s = c.acting[0]
    c.apply(c.legal_actions(s)[0], s)
    assert (c.actions != g.actions and len(c.log) != len(g.log)) or c.rivers != g.rivers


def test_resample_keeps_the_seats_observation_and_draws_the_hidden_anew() -> None:
    fresh = 0
    for seed in (40, 41):
        g = play_bots(MahjongGame.new(DAQING, seed=seed), stop=14)
        assert not g.is_over
        for s in range(4):
            r = g.resample(s, 7)
            assert r.observe(s) == g.observe(s)
            assert tiles_conserved(r)
            others = [r.hands[j] for j in range(4) if j != s]
            fresh += others != [g.hands[j] for j in range(4) if j != s]
            assert replay_record(r.record()).observe(s) == r.observe(s)
            # the resampled game plays on
            play_bots(r)
            assert r.is_over
    assert fresh >= 4
