"""Reviewing a deal: every decision of the seat, estimates that only use what it saw, marks that follow the
thresholds, reproducible, and the printed format."""

from __future__ import annotations

from typing import Any

import pytest

from qipai.games.doudizhu.bots.heuristic import HeuristicBot
from qipai.games.doudizhu.bots.review import review_deal, review_lines
from qipai.games.doudizhu.record import make_record, replay
from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game


def finished(seed: int) -> Game:
    g = Game.new(PRESETS["classic"], seed)
    bot = HeuristicBot(seed)
    while not g.is_over:
        g.apply(bot.act(g.observe(g.to_act), g.legal_actions()))
    return g


def test_every_decision_of_the_seat_is_listed() -> None:
    g = finished(12)
    rec = g.record()
    for seat in range(3):
        rev = review_deal(rec, seat, samples=6)
        mine = [i for i, a in enumerate(rec["actions"]) if a["seat"] == seat]
        assert [d.index for d in rev.decisions] == mine
        assert rev.role == g.outcome()["roles"][seat]  # type: ignore[index]
        for d in rev.decisions:
            assert d.played == rec["actions"][d.index]["action"]
            if d.wp_before is not None:
                assert d.phase == "play" and d.legal > 1
                assert d.best in d.candidates and d.played in d.candidates
                assert d.wp_after is not None and d.swing is not None
                assert d.wp_before == max(d.candidates.values()) >= d.wp_after
                assert d.swing == pytest.approx(d.wp_after - d.wp_before)
                want = "??" if -d.swing >= 0.25 else "?" if -d.swing >= 0.10 else None
                if want:
                    assert d.mark == want
                else:
                    assert d.mark in ("", "!")


def test_reviews_are_reproducible() -> None:
    rec = finished(4).record()
    a = review_deal(rec, 1, samples=8, seed=3).to_json()
    b = review_deal(rec, 1, samples=8, seed=3).to_json()
    assert a == b


def test_a_review_does_not_peek_at_hidden_cards() -> None:
    """Two deals with the same public history whose hidden hands differ give seat 1 the same review."""
    r = PRESETS["classic"]
    base = next(g for g in map(finished, range(20, 60)) if g.redeals == 0)
    hands = [[str(c) for c in h] for h in base.initial_hands]
    kitty = [str(c) for c in base.initial_kitty]
    actions = [(a["seat"], a["action"]) for a in base.record()["actions"]][:14]
    probe = Game.from_deal(r, [" ".join(h) for h in hands], " ".join(kitty), first_bidder=base.first_bidder)
    for s, a in actions:
        probe.apply(a, s)
    ll = probe.landlord
    assert ll is not None
    me = (ll + 1) % 3  # the farmer reviewed; the landlord's and the other farmer's hands are hidden from it
    other = (ll + 2) % 3
    still = {s: {str(c) for c in probe.hands[s]} for s in (ll, other)}
    # one card of each of the two hidden hands, never played yet, of different ranks, not a kitty card
    x = next(c for c in hands[ll] if c in still[ll] and c not in kitty)
    y = next(c for c in hands[other] if c in still[other] and c[0] != x[0])
    swapped = [list(h) for h in hands]
    swapped[ll][swapped[ll].index(x)] = y
    swapped[other][swapped[other].index(y)] = x

    def record_of(hs: list[list[str]]) -> dict[str, Any]:
        g = Game.from_deal(r, [" ".join(h) for h in hs], " ".join(kitty), first_bidder=base.first_bidder)
        for s, a in actions:
            g.apply(a, s)
        return make_record(g)

    ra, rb = record_of(hands), record_of(swapped)
    assert ra["deal"] != rb["deal"]
    one = review_deal(ra, me, samples=10, seed=5).to_json()
    two = review_deal(rb, me, samples=10, seed=5).to_json()
    assert one == two
    assert any(d["wp_before"] is not None for d in one["decisions"])
    # the landlord, who holds one of the swapped cards, does see the difference
    seen = [[d.hand for d in review_deal(rec, ll, samples=2).decisions] for rec in (ra, rb)]
    assert seen[0] != seen[1]


def test_printed_review() -> None:
    g = finished(7)
    rev = review_deal(g.record(), g.landlord or 0, samples=6)
    lines = review_lines(rev)
    assert lines[0].startswith(f"review of seat {rev.seat} (landlord, ")
    assert "WP best" in lines[1] and "swing" in lines[1]
    assert len(lines) >= 2 + len(rev.decisions)
    with pytest.raises(ValueError, match="no seat"):
        review_deal(g.record(), 5)


def test_moves_made_by_auto_play_are_not_blamed_on_the_player() -> None:
    from qipai.core.game import AUTOPLAY_ON, apply_step

    g = Game.new(PRESETS["classic"], 21)
    bot = HeuristicBot(21)
    plays = 0
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        if g.phase == "play" and seat == 1 and plays >= 2 and not g.in_autoplay(1):
            apply_step(g, 1, AUTOPLAY_ON)  # the player left, or ran out of time
        if g.phase == "play":
            plays += 1
        g.apply(bot.act(g.observe(seat), g.legal_actions()))
    rec = g.record()
    assert any(a["action"] == AUTOPLAY_ON for a in rec["actions"])
    rev = review_deal(rec, 1, samples=6)
    auto = [d for d in rev.decisions if d.auto]
    assert auto and all(d.wp_before is None and d.mark == "" and d.best is None for d in auto)
    assert all(not d.auto for d in rev.decisions if d.index < min(x.index for x in auto))
    lines = review_lines(rev)
    assert f"({len(auto)} by auto-play, not reviewed)" in lines[0]
    assert sum(1 for x in lines if x.endswith("(auto-play)")) == len(auto)


def test_printed_review_in_chinese(tmp_path: Any) -> None:
    """``qipai replay REC --review 0 --lang zh`` printed English: the review takes the language."""
    import json

    from typer.testing import CliRunner

    from qipai.cli import app

    g = finished(7)
    rec = g.record()
    rev = review_deal(rec, g.landlord or 0, samples=6)
    en, zh = review_lines(rev), review_lines(rev, "zh")
    assert review_lines(rev, "en") == en and len(zh) == len(en)
    assert zh[0].startswith(f"复盘 {rev.seat} 号（地主，") and "个决定" in zh[0] and "抽样牌局" in zh[0]
    assert zh[1].split() == ["#", "手牌", "要管", "出牌", "最佳", "最佳胜率", "实际胜率", "差值"]
    assert not any(w in line for line in zh for w in ("review of", "WP best", "biggest swing", "lead", "the bot"))
    if rev.swings:
        assert zh[-1].startswith("最大失误：第 ")
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    res = CliRunner().invoke(app, ["replay", str(path), "--review", "0", "--lang", "zh", "--samples", "2"])
    assert res.exit_code == 0, res.output
    assert res.output.startswith("复盘 0 号（") and "review of" not in res.output
    res = CliRunner().invoke(app, ["replay", str(path), "--review", "0", "--lang", "en", "--samples", "2"])
    assert res.exit_code == 0 and res.output.startswith("review of seat 0 (")


def test_the_strong_bot_reviews_is_the_learned_one_where_its_network_plays() -> None:
    """On three-player tables the estimates are the learned bot's rollouts (the ``expert`` level: the
    network's most valued moves and the move played, the same numbers as :meth:`DmcBot.estimate`); on
    four-player tables, which the network does not know, the search bot's."""
    from qipai.games.doudizhu.bots.dmc import ROLLOUT_TOP, DmcBot

    g = finished(9)
    rec = g.record()
    rev = review_deal(rec, 0, samples=6)
    estimated = [d for d in rev.decisions if d.wp_before is not None]
    assert estimated
    for d in estimated:
        probe = replay(rec, upto=d.index)
        obs, legal = probe.observe(0), probe.legal_actions(0)
        want = DmcBot(d.index, samples=6).estimate(obs, legal, include=[d.played])
        assert d.candidates == want and len(want) <= ROLLOUT_TOP + 1
    four = Game.new(PRESETS["four_player"], 2)
    bot = HeuristicBot(2)
    while not four.is_over:
        four.apply(bot.act(four.observe(four.to_act), four.legal_actions()))
    seat = four.landlord or 0
    done = [d for d in review_deal(four.record(), seat, samples=2).decisions if d.wp_before is not None]
    assert done and all(d.played in d.candidates for d in done)
    at = replay(four.record(), upto=done[0].index)
    with pytest.raises(ValueError, match="trained for"):
        DmcBot(0, samples=2).estimate(at.observe(seat), at.legal_actions(seat))
