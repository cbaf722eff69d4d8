"""Property tests of the follow rules (§6) against a brute-force checker on small hands: every play the rules
allow satisfies the requirement list, and nothing the list forbids is allowed."""

from __future__ import annotations

from itertools import product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qipai.games.shengji.cards import LEVELS, NUM_FACES, SUITS, TRUMP, Order, counts, order
from qipai.games.shengji.combos import Combo, Lead, combination
from qipai.games.shengji.follow import (
    TABLES,
    KeyRank,
    follow_error,
    follow_options,
    parse_shape,
    passive_follow,
    requirement_list,
    shape_text,
)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FORMATS = [(1, 1), (2, 1), (3, 1), (4, 1), (2, 2), (2, 3), (3, 2), (2, 4), (4, 2)]


def submultisets(cnt: dict[int, int], n: int) -> list[dict[int, int]]:
    faces = sorted(cnt)
    out: list[dict[int, int]] = []

    def rec(i: int, left: int, cur: dict[int, int]) -> None:
        if left == 0:
            out.append(dict(cur))
            return
        if i == len(faces):
            return
        f = faces[i]
        for x in range(min(cnt[f], left), -1, -1):
            if x:
                cur[f] = x
            rec(i + 1, left - x, cur)
            cur.pop(f, None)

    rec(0, n, {})
    return out


def bf_match(play: dict[int, int], comps: tuple[tuple[int, int], ...], o: Order) -> bool:
    """Brute force: can the play be split into the components (any remaining cards are fillers)?"""
    if not comps:
        return True
    m, k = comps[0]
    for sub in submultisets({f: c for f, c in play.items() if c}, m * k):
        cb = combination(sub, o)
        if cb is not None and cb.fmt == (m, k):
            rest = dict(play)
            for f, x in sub.items():
                rest[f] -= x
            if bf_match(rest, comps[1:], o):
                return True
    return False


def bf_key(cnt: dict[int, int], weights: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sum(c // w for c in cnt.values()) for w in weights)


def bf_legal_set(hand_e: dict[int, int], fmt: tuple[int, int] | None, n: int, pairs: int, o: Order
                 ) -> tuple[list[dict[int, int]], list[bool]]:
    subs = submultisets(hand_e, n)
    if fmt is None:  # a throw: at least min(pairs(throw), most pairs available) pairs
        most = max(sum(c // 2 for c in s.values()) for s in subs)
        need = min(pairs, most)
        return subs, [sum(c // 2 for c in s.values()) >= need for s in subs]
    for rank in requirement_list(fmt):
        if isinstance(rank, KeyRank):
            best = max(bf_key(s, rank.weights) for s in subs)
            return subs, [bf_key(s, rank.weights) == best for s in subs]
        ok = [any(bf_match(s, sh, o) for sh in rank) for s in subs]
        if any(ok):
            return subs, ok
    raise AssertionError("the last rank always matches")


@st.composite
def cases(draw: st.DrawFn) -> tuple[Order, int, tuple[int, int] | None, int, dict[int, int], dict[int, int]]:
    o = order(draw(st.sampled_from(LEVELS)), draw(st.sampled_from(SUITS)))
    e = draw(st.sampled_from([0, 1, 2, 3, TRUMP]))
    if e != TRUMP and e == o.trump:
        e = TRUMP
    throw = draw(st.booleans()) and draw(st.booleans())
    fmt = None if throw else draw(st.sampled_from(FORMATS))
    n = draw(st.integers(2, 6)) if fmt is None else fmt[0] * fmt[1]
    faces = list(o.faces[e])
    # a window of adjacent chain positions (so tractors happen) plus a few others
    start = draw(st.integers(0, len(faces) - 1))
    window = sorted(faces, key=o.pos.__getitem__)[start:start + 5]
    pool = window + draw(st.lists(st.sampled_from(faces), max_size=2))
    size = draw(st.integers(n, min(n + 3, 10)))
    hand_e: dict[int, int] = {}
    for _ in range(size * 3):
        if sum(hand_e.values()) >= size:
            break
        f = draw(st.sampled_from(pool))
        if hand_e.get(f, 0) < 4:
            hand_e[f] = hand_e.get(f, 0) + 1
    others = {f: 1 for f in draw(st.lists(st.sampled_from([f for f in range(NUM_FACES) if o.esuit[f] != e]),
                                          max_size=3, unique=True))}
    return o, e, fmt, n if sum(hand_e.values()) >= n else sum(hand_e.values()), hand_e, others


def synthetic_lead(e: int, fmt: tuple[int, int] | None, n: int, pairs: int) -> Lead:
    if fmt is not None:
        combo = Combo(fmt[0], fmt[1], e, tuple(range(fmt[1])), tuple(range(fmt[1])))
        return Lead(e, n, combo, (combo,), tuple([0] * n))
    cards = [0, 0] * pairs + list(range(1, n - 2 * pairs + 1))
    return Lead(e, n, None, (), tuple(cards))


@SETTINGS
@given(cases())
def test_follow_matches_brute_force(case: tuple[Order, int, tuple[int, int] | None, int, dict[int, int],
                                                 dict[int, int]]) -> None:
    o, e, fmt, n, hand_e, others = case
    if n < 1 or (fmt is not None and fmt[0] * fmt[1] != n):
        return
    lead = synthetic_lead(e, fmt, n, min(n // 2, 2))
    hand = [0] * NUM_FACES
    for f, x in {**hand_e, **others}.items():
        hand[f] += x
    subs, ok = bf_legal_set(hand_e, fmt, n, lead.pairs, o)
    for sub, legal in zip(subs, ok, strict=True):
        play = [f for f, x in sub.items() for _ in range(x)]
        err = follow_error(hand, lead, play, o)
        assert (err is None) == legal, (o, fmt, sub, err)
        if legal is False:
            assert err  # the reason is given
    # playing an off-suit card while holding enough of E is never legal
    if others:
        play = [f for f, x in subs[0].items() for _ in range(x)]
        play[-1] = next(iter(others))
        assert follow_error(hand, lead, play, o) is not None
    # the passive choice and the hints are legal
    assert follow_error(hand, lead, passive_follow(hand, lead, o), o) is None
    for p in follow_options(hand, lead, o):
        assert follow_error(hand, lead, p, o) is None


@SETTINGS
@given(cases())
def test_short_of_the_suit(case: tuple[Order, int, tuple[int, int] | None, int, dict[int, int],
                                       dict[int, int]]) -> None:
    o, e, _, _, hand_e, others = case
    held = sum(hand_e.values())
    n = held + len(others)
    if held == 0 or not others:
        return
    lead = synthetic_lead(e, None, n, 0)
    hand = counts([f for f, x in {**hand_e, **others}.items() for _ in range(x)])
    everything = [f for f, x in {**hand_e, **others}.items() for _ in range(x)]
    extra = [f for f in range(NUM_FACES) if o.esuit[f] != e and f not in others][:1]
    hand[extra[0]] += 1
    # all E cards plus any others is legal; leaving out an E card is not
    assert follow_error(hand, lead, everything, o) is None
    alt = [f for f in everything if f not in hand_e or f == -1]
    alt_play = [f for f, x in hand_e.items() for _ in range(x)][1:] + alt + extra
    assert follow_error(hand, lead, alt_play, o) is not None
    assert follow_error(hand, lead, passive_follow(hand, lead, o), o) is None


def test_tables_are_the_seed_tables() -> None:
    # table 1, as written in §6.4 (rank 1 the P4 | Q+Q choice, rank 18 eight singles)
    t1 = [" | ".join(shape_text(s, 8) for s in r) for r in requirement_list((2, 4))]  # type: ignore[union-attr]
    assert t1 == ["P4 | 2Q", "P3 + P", "P3 + 2S", "P2 + 2P", "P2 + P + 2S", "P2 + 4S", "Q + 2P", "Q + P + 2S",
                  "Q + 4S", "2T + 2S", "T + 2P + S", "T + P + 3S", "T + 5S", "4P", "3P + 2S", "2P + 4S", "P + 6S",
                  "8S"]
    t2 = [" | ".join(shape_text(s, 8) for s in r) for r in requirement_list((4, 2))]  # type: ignore[union-attr]
    assert t2[:2] == ["2Q", "P4"] and t2[2:] == t1[1:]
    assert len(TABLES) == 6
    for fmt, rows in TABLES.items():
        for row in rows:
            for sh in row.split("|"):
                parse_shape(sh.strip(), fmt[0] * fmt[1])  # every shape has the lead's card count


def test_general_rule_reproduces_tables_3_5_6() -> None:
    from qipai.games.shengji.follow import GENERAL

    for fmt in ((2, 3), (2, 2)):
        n = fmt[0] * fmt[1]
        gen = []
        seen: set[tuple[tuple[int, int], ...]] = set()
        for r in GENERAL(fmt):
            assert isinstance(r, str)
            shapes = [parse_shape(x.strip(), n) for x in r.split("|")]
            shapes = [s for s in shapes if tuple(sorted(s)) not in seen]
            seen.update(tuple(sorted(s)) for s in shapes)
            if shapes:
                gen.append(sorted(tuple(sorted(s)) for s in shapes))
        table = [sorted(tuple(sorted(parse_shape(x.strip(), n))) for x in r.split("|")) for r in TABLES[fmt]]
        assert gen == table, fmt
    # Q: the Qk line with k = 1 is Q › P2 › by the key (quads, pairs, triples); the key orders table 5's
    # remaining ranks 2P › T + S › P + 2S › 4S strictly
    gq = GENERAL((4, 1))
    assert [parse_shape(str(x), 4) for x in gq[:2]] == [((4, 1),), ((2, 2),)] and gq[2] == KeyRank((4, 2, 3))
    examples = {"2P": {0: 2, 1: 2}, "T + S": {0: 3, 1: 1}, "P + 2S": {0: 2, 1: 1, 2: 1}, "4S": {0: 1, 1: 1, 2: 1, 3: 1}}
    keys = [bf_key(examples[t], (4, 2, 3)) for t in TABLES[(4, 1)][2:]]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == 4


def test_general_rule_formats() -> None:
    p5 = [" | ".join(shape_text(s, 10) for s in r) for r in requirement_list((2, 5))]  # type: ignore[union-attr]
    assert p5 == ["P5", "Q + 3P", "P2 + 3P", "5P", "4P + 2S", "3P + 4S", "2P + 6S", "P + 8S", "10S"]
    p6 = requirement_list((2, 6))[0]
    assert sorted(shape_text(s, 12) for s in p6) == ["3Q", "P6", "T4"]  # type: ignore[union-attr]
    t4 = requirement_list((3, 4))
    assert [shape_text(s, 12) for s in t4[0]] == ["T4", "Q3"] and [shape_text(s, 12) for s in t4[1]] == ["P6"]  # type: ignore[union-attr]
    assert requirement_list((3, 4))[2] == KeyRank((3, 2))
    q3 = requirement_list((4, 3))
    assert q3[2] == KeyRank((4, 2, 3))


def test_key_rank_follow() -> None:
    # lead T3 at level 3 trump H: follower with no T3 and no P(4.5): by key (triples, pairs)
    o = order("3", "H")
    lead = synthetic_lead(0, (3, 3), 9, 0)
    hand_e = counts([f for f in [5] * 3 + [7] * 3 + [9] * 2 + [10] * 2 + [12] * 1])  # 7S×3 9S×3 JS×2 QS×2 AS
    plays = submultisets({f: x for f, x in enumerate(hand_e) if x}, 9)
    best = max(bf_key(p, (3, 2)) for p in plays)
    assert best == (2, 3)  # two triples and JS JS; the ninth card is a filler
    for p in plays:
        play = [f for f, x in p.items() for _ in range(x)]
        assert (follow_error(hand_e, lead, play, o) is None) == (bf_key(p, (3, 2)) == best)
    assert product  # keep the import honest
