"""Property tests of leads, throws and trick winners (§5.4, §5.5, §6.7) on random hands."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qipai.core.rng import Rng
from qipai.games.shengji.cards import LEVELS, NUM_FACES, SUITS, TRUMP, Order, counts, full_deck, order
from qipai.games.shengji.combos import (
    combination,
    combos_of_format,
    failed_throw,
    read_lead,
    stronger_or_same,
    trick_winner,
)
from qipai.games.shengji.follow import follow_options
from qipai.games.shengji.game import lead_options

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def deal(seed: int, size: int) -> list[list[int]]:
    cards = full_deck()
    Rng(seed).shuffle(cards)
    return [counts(cards[i * size:(i + 1) * size]) for i in range(4)]


def strength(lead_fmt: tuple[int, int], lead_e: int, play: list[int], o: Order) -> tuple[object, ...] | None:
    """An independent reading of §6.7 for a combination lead."""
    es = {o.esuit[f] for f in play}
    if len(es) != 1:
        return None
    e = es.pop()
    if e != lead_e and e != TRUMP:
        return None
    cnt: dict[int, int] = {}
    for f in play:
        cnt[f] = cnt.get(f, 0) + 1
    ms = set(cnt.values())
    if len(ms) != 1:
        return None
    m = ms.pop()
    ps = sorted((o.pos[f] for f in cnt), reverse=True)
    if len(set(ps)) != len(ps) or ps[0] - ps[-1] != len(ps) - 1:
        return None
    k = len(ps)
    if k > 1 and m == 1:
        return None
    lm, lk = lead_fmt
    if m * k != lm * lk:
        return None
    if not ((m, k) == (lm, lk) or (m > lm and k >= 2) or ((lm, lk) == (2, 2) and (m, k) == (4, 1))):
        return None
    vals = tuple(o.value[f] for f in sorted(cnt, key=lambda f: -o.pos[f]))
    return (e == TRUMP, m, vals)


@st.composite
def tricks(draw: st.DrawFn) -> tuple[Order, list[list[int]], list[list[int]]]:
    o = order(draw(st.sampled_from(LEVELS)), draw(st.sampled_from(SUITS)))
    hands = deal(draw(st.integers(0, 2**40)), draw(st.sampled_from([8, 12, 20, 30, 54])))
    leads = lead_options(hands[0], o)
    lead_cards = leads[draw(st.integers(0, len(leads) - 1))]
    lead = read_lead(lead_cards, o)
    plays = [lead_cards]
    for s in (1, 2, 3):
        opts = follow_options(hands[s], lead, o)
        plays.append(opts[draw(st.integers(0, len(opts) - 1))])
    return o, hands, plays


@SETTINGS
@given(tricks())
def test_trick_winner_beats_every_other_play(case: tuple[Order, list[list[int]], list[list[int]]]) -> None:
    o, _, plays = case
    lead = read_lead(plays[0], o)
    assert lead.combo is not None
    w = trick_winner(lead, plays, o)
    keys = [strength(lead.combo.fmt, lead.esuit, p, o) for p in plays]
    assert keys[0] is not None and keys[w] is not None
    for i, k in enumerate(keys):
        if i == w or k is None:
            continue
        if i < w:
            assert keys[w] > k  # type: ignore[operator]
        else:
            assert not k > keys[w]  # type: ignore[operator]


@SETTINGS
@given(st.sampled_from(LEVELS), st.sampled_from(SUITS), st.integers(0, 2**40), st.integers(0, 4),
       st.integers(2, 9))
def test_throws(level: str, trump: str, seed: int, e: int, k: int) -> None:
    o = order(level, trump)
    if e != TRUMP and e == o.trump:
        e = TRUMP
    hands = deal(seed, 54)
    mine = [f for f in o.faces[e] for _ in range(hands[0][f])]
    if len(mine) < 2:
        return
    Rng(seed).shuffle(mine)
    cards = mine[:k]
    lead = read_lead(cards, o)
    # the reading: its parts are combinations, together exactly the cards, in the greedy order
    assert sorted(f for p in lead.parts for f in p.cards()) == sorted(cards)
    for p in lead.parts:
        c = combination(p.cards(), o)
        assert c is not None and c.fmt == p.fmt
    if combination(cards, o) is not None:
        assert not lead.is_throw and len(lead.parts) == 1
        return
    keys = [(p.n, p.m, p.values) for p in lead.parts]
    assert keys == sorted(keys, reverse=True)
    others = [{f: h[f] for f in o.faces[e] if h[f]} for h in hands[1:]]
    forced = failed_throw(lead, others, o)

    def beaten(p: object) -> bool:  # brute force over every combination the others hold
        from qipai.games.shengji.combos import Combo

        assert isinstance(p, Combo)
        for h in others:
            for m in range(1, 5):
                for kk in range(1, 1 + p.n):
                    if m * kk != p.n or not stronger_or_same((m, kk), p.fmt) or (kk > 1 and m == 1):
                        continue
                    for c in combos_of_format(h, o, e, m, kk):
                        if (m, kk) != p.fmt or c.values > p.values:
                            return True
        return False

    bad = [p for p in lead.parts if beaten(p)]
    if not bad:
        assert forced is None
    else:
        assert forced is not None and forced in bad
        assert (forced.n, forced.m, forced.values) == min((p.n, p.m, p.values) for p in bad)


@SETTINGS
@given(st.sampled_from(LEVELS), st.sampled_from(SUITS), st.integers(0, 2**40))
def test_trump_play_against_a_throw(level: str, trump: str, seed: int) -> None:
    """Against an off-suit throw only an all-trump play from a void seat competes; higher such plays win."""
    o = order(level, trump)
    e = next(s for s in range(4) if s != o.trump)
    hands = deal(seed, 54)
    mine = sorted((f for f in o.faces[e] for _ in range(hands[0][f])), key=o.low.__getitem__)
    lead = read_lead(mine[-4:], o) if len(mine) >= 4 else None
    if lead is None or not lead.is_throw:
        return
    trumps = [f for f in range(NUM_FACES) if o.esuit[f] == TRUMP for _ in range(hands[1][f])]
    low = sorted(trumps, key=o.low.__getitem__)[:lead.n]
    high = sorted(trumps, key=o.low.__getitem__)[-lead.n:]
    same_suit = [f for f in o.faces[e] for _ in range(hands[2][f])][:lead.n]
    plays = [lead.cards, list(low), list(high)] + ([same_suit] if len(same_suit) == lead.n else [])
    w = trick_winner(lead, plays, o)
    assert w != 3
    if w == 2:
        assert trick_winner(lead, plays[:2], o) in (0, 1)


@SETTINGS
@given(st.sampled_from(LEVELS), st.sampled_from(SUITS), st.integers(0, 2**40), st.sampled_from([20, 54, 80]))
def test_tractors_are_the_maximal_runs(level: str, trump: str, seed: int, size: int) -> None:
    from qipai.games.shengji.combos import tractors, tractors_of_counts

    o = order(level, trump)
    cards = full_deck()
    Rng(seed).shuffle(cards)
    hand = counts(cards[:size])
    want = set()
    for e in range(5):
        for m in (2, 3, 4):
            tops = []
            for p in range(o.npos[e]):
                fs = [f for f in o.faces[e] if o.pos[f] == p and hand[f] >= m]
                tops.append(max(fs, key=lambda f: (o.value[f], -f)) if fs else None)
            run: list[int] = []
            for t in [*tops, None]:
                if t is not None:
                    run.append(t)
                    continue
                if len(run) >= 2:
                    want.add((m, tuple(reversed(run))))
                run = []
    got = tractors_of_counts(hand, o)
    assert {(c.m, c.faces) for c in got} == want
    assert [c.faces for c in tractors([f for f in range(NUM_FACES) for _ in range(hand[f])], o)] == \
        [c.faces for c in got]
