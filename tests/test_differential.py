"""Differential test: qipai's legal moves against RLCard, DouZero and OpenSpiel (``bench/peers.py``).

On thousands of random positions (fixed seeds) the set of leads, and the set of answers to a previous
move, must be the same card sets in qipai (``classic`` rules) and in each peer, except where a documented
rule difference or peer bug explains it.  Every documented difference is one named predicate below; a
disagreement that no predicate of that peer explains fails the test, and so does a peer rejecting a move
or a position for an unexplained reason.  The differences are listed, with examples, in
``docs/differences.md`` and ``bench/PEERS_NOTES.md``; ``test_documented_difference`` checks each example.

Moves are compared as canonical card strings (``33344456``): qipai lists each *reading* of a card set
once (``333444555666`` is a plane and two planes with kickers), the peers list card sets, DouZero and
OpenSpiel sometimes several times.  A missing move is explained when every qipai reading of it that is
legal in the position is explained.

The peers are not optional: if one is missing the test fails and says how to install it.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.peers import (  # noqa: E402
    DECK,
    PEERS,
    Peer,
    PeerRejected,
    PositionUnreachable,
    canonical,
    random_deal,
)

from qipai.games.doudizhu import PRESETS, Move, classify, legal_moves  # noqa: E402

RULES = PRESETS["classic"]
RANKS = "3456789TJQKA2BR"
ACE, TWO, BLACK, RED = 11, 12, 13, 14

INSTALL = {
    "rlcard": "pip install 'rlcard==1.2.0'   (or: pip install -e '.[bench]')",
    "douzero": "pip install --no-deps 'douzero==1.1.0'   (--no-deps: its engine needs only numpy, not torch)",
    "openspiel": "pip install 'open-spiel==2.0.2'   (or: pip install -e '.[bench]')",
}

# Positions per peer.  OpenSpiel is positioned by replaying a deal and filler plays, so it gets fewer.
N_LEADS = {"rlcard": 4000, "douzero": 4000, "openspiel": 1500}
N_ANSWERS = {"rlcard": 6000, "douzero": 6000, "openspiel": 2400}
SEED_LEADS, SEED_ANSWERS = 20260, 20261


def peer_or_fail(name: str) -> Peer:
    peer = PEERS[name]()
    if not peer.available():
        pytest.fail(
            f"{name} is not installed, and the differential test needs it (CI installs it).\n"
            f"Install it into this environment with:\n    {INSTALL[name]}",
            pytrace=False,
        )
    return peer


def counts(cards: str) -> tuple[int, ...]:
    c = [0] * 15
    for ch in cards:
        c[RANKS.index(ch)] += 1
    return tuple(c)


# --------------------------------------------------------------------------------------------------
# Documented differences, one predicate each.
#
# ``m`` is a qipai reading of the cards (for a move qipai offers and the peer lacks, or for a prev the
# peer rejects) or ``None`` (for a move the peer offers and qipai does not).  ``ctx`` is the position.
# --------------------------------------------------------------------------------------------------


@dataclass
class Ctx:
    hand: tuple[int, ...]
    prev: Move | None = None  # qipai's reading of prev that the peer's reading matches


def _kickers(m: Move) -> list[int]:
    """Kicker counts of a plane or triple with kickers (chain ranks zeroed)."""
    lo = m.main - m.length + 1
    return [0 if lo <= r <= m.main else n for r, n in enumerate(m.counts)]


def rlcard_no_triple_kicker_adjacent(ctx: Ctx, cards: str, m: Move | None) -> bool:
    """RLCard: a plane's single kickers may not hold three cards of a rank next to the chain (``2`` is
    exempt): ``3334445556667778`` (plane 3-6 + ``7778``) is not a move.  RULES allows it."""
    if m is None or m.kind != "plane_singles":
        return False
    k = _kickers(m)
    lo, hi = m.main - m.length + 1, m.main
    return (lo > 0 and k[lo - 1] >= 3) or (hi + 1 <= ACE and k[hi + 1] >= 3)


def rlcard_no_four_kickers(ctx: Ctx, cards: str, m: Move | None) -> bool:
    """RLCard: a plane's single kickers may not hold four cards of a rank (``3334445556669999``)."""
    return m is not None and m.kind == "plane_singles" and max(_kickers(m)) == 4


def douzero_rocket_kickers(ctx: Ctx, cards: str, m: Move | None) -> bool:
    """DouZero: both jokers as kickers (``3333BR``, ``333444BR``); RULES: ``BR`` is only the rocket."""
    c = counts(cards)
    return m is None and c[BLACK] and c[RED] and len(cards) > 2 and not classify(cards, RULES)


def _top_triple(c: tuple[int, ...]) -> int:
    return max((r for r, n in enumerate(c) if n == 3), default=-1)


def douzero_plane_rank_by_top_triple(ctx: Ctx, cards: str, m: Move | None) -> bool:
    """DouZero (bug D1): planes with kickers are compared by their highest triple, kicker triples
    included, so ``333444555KKK`` ranks as K.  Explains answers to such a prev that DouZero adds or drops."""
    prev = ctx.prev
    if prev is None or prev.kind not in ("plane_singles", "plane_pairs"):
        return False
    dz_beats = _top_triple(counts(cards)) > _top_triple(prev.counts)
    if m is not None:  # qipai offers it, DouZero does not
        return m.kind == prev.kind and not dz_beats
    readings = [r for r in classify(cards, RULES) if r.kind == prev.kind and r.length == prev.length]
    return dz_beats and bool(readings) and not any(r.main > prev.main for r in readings)


def douzero_unclassifiable(ctx: Ctx, cards: str, m: Move | None) -> bool:
    """DouZero (bug D3): ``get_move_type`` cannot type a plane with a four among its single kickers, nor a
    plane of 4 or 5 with a triple among them (``3334445556667778``), so such a prev cannot be answered."""
    if m is None or m.kind != "plane_singles":
        return False
    k = max(_kickers(m))
    return k == 4 or (m.length >= 4 and k >= 3)


def openspiel_no_four_two(ctx: Ctx, cards: str, m: Move | None) -> bool:
    """OpenSpiel (O3): no four-with-two at all (``333355``, ``33334455``)."""
    return m is not None and m.kind in ("four_two_singles", "four_two_pairs")


def openspiel_no_chain_from_four(ctx: Ctx, cards: str, m: Move | None) -> bool:
    """OpenSpiel (bug O2): no straight, pair straight or plane starting at a rank the hand holds four of
    (``333345678`` has no ``34567``)."""
    if m is None or m.kind not in ("straight", "pair_straight", "plane"):
        return False
    return ctx.hand[m.main - m.length + 1] == 4


def openspiel_kickers_max_three(ctx: Ctx, cards: str, m: Move | None) -> bool:
    """OpenSpiel: at most three cards of a rank among a plane's single kickers (``3334445556669999``)."""
    return m is not None and m.kind == "plane_singles" and max(_kickers(m)) == 4


def openspiel_bomb_beats_rocket(ctx: Ctx, cards: str, m: Move | None) -> bool:
    """OpenSpiel (bug O1): a bomb answers the rocket (``3JJJJ456789TQKA22`` vs ``BR`` offers ``JJJJ``)."""
    return m is None and ctx.prev is not None and ctx.prev.kind == "rocket" and len(set(cards)) == 1 \
        and len(cards) == 4


Pred = Callable[[Ctx, str, "Move | None"], bool]

# (peer, side) -> predicates.  side: "missing" = qipai offers, peer lacks; "extra" = peer offers, qipai
# lacks; "rejects" = the peer does not accept qipai's prev as a move.
PREDICATES: dict[tuple[str, str], list[Pred]] = {
    ("rlcard", "missing"): [rlcard_no_triple_kicker_adjacent, rlcard_no_four_kickers],
    ("rlcard", "extra"): [],
    ("rlcard", "rejects"): [rlcard_no_triple_kicker_adjacent, rlcard_no_four_kickers],
    ("douzero", "missing"): [douzero_plane_rank_by_top_triple],
    ("douzero", "extra"): [douzero_rocket_kickers, douzero_plane_rank_by_top_triple],
    ("douzero", "rejects"): [douzero_unclassifiable],
    ("openspiel", "missing"): [openspiel_no_four_two, openspiel_no_chain_from_four, openspiel_kickers_max_three],
    ("openspiel", "extra"): [openspiel_bomb_beats_rocket],
    ("openspiel", "rejects"): [openspiel_no_four_two, openspiel_kickers_max_three],
}
ALL_PREDICATES = sorted({p.__name__ for ps in PREDICATES.values() for p in ps})


# Filters on positions (not on moves), also named and counted.
def openspiel_unreachable(hand: str, prev: str) -> bool:
    """OpenSpiel cannot be put in the position (``bench/peers.py``): a 20-card hand answering, a prev of
    20 cards against 17, or a prev of 16+ cards against a shorter hand."""
    return len(hand) == 20 or (len(hand) == 17 and len(prev) > 19) or (len(hand) < 17 and len(prev) > 15)


def ambiguous_prev(readings: list[Move]) -> bool:
    """qipai reads prev more than one way with the kind the peer uses (``333444555666`` as plane_singles
    with main 5 or 6); which one the peer compares with is its own business, so the position is skipped."""
    return len(readings) > 1


def douzero_duplicate(peer: str, cards: str, n: int, readings: int) -> bool:
    """DouZero (bug D2) lists some moves several times (``3334445567`` leads: ``33344456`` twice)."""
    return peer == "douzero"


def openspiel_one_id_per_reading(peer: str, cards: str, n: int, readings: int) -> bool:
    """OpenSpiel lists the same cards once per action id (``333444555666``: a plane and two planes with
    kickers), never more often than it has readings of them."""
    return peer == "openspiel" and n <= readings


# --------------------------------------------------------------------------------------------------
# comparison
# --------------------------------------------------------------------------------------------------


@dataclass
class Report:
    peer: str
    positions: int = 0
    hits: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def fail(self, msg: str) -> None:
        self.failures.append(msg)

    def summary(self) -> str:
        hits = ", ".join(f"{k}={v}" for k, v in sorted(self.hits.items())) or "none"
        return f"{self.peer}: {self.positions} positions; filtered by: {hits}"

    def check(self) -> None:
        print(self.summary())
        if self.failures:
            shown = "\n  ".join(self.failures[:25])
            more = f"\n  … and {len(self.failures) - 25} more" if len(self.failures) > 25 else ""
            pytest.fail(f"{len(self.failures)} unexplained disagreements with {self.peer}:\n  {shown}{more}\n"
                        f"({self.summary()})", pytrace=False)


def explain(report: Report, side: str, ctx: Ctx, cards: str, m: Move | None) -> bool:
    for pred in PREDICATES[(report.peer, side)]:
        if pred(ctx, cards, m):
            report.hits[pred.__name__] += 1
            return True
    return False


def rejection_explained(report: Report, hand: str, prev: str) -> bool:
    """The peer rejects the cards ``prev``: every qipai reading of them must be explained."""
    return all(explain(report, "rejects", Ctx(counts(hand), m), prev, m) for m in classify(prev, RULES))


def compare(report: Report, where: str, ctx: Ctx, ours: list[Move], theirs: list[str],
            peer: Peer) -> None:
    """Check one position: qipai's moves ``ours`` against the peer's card strings ``theirs``."""
    report.positions += 1
    by_cards: dict[str, list[Move]] = {}
    for m in ours:
        by_cards.setdefault(m.text, []).append(m)
    if len(set(ours)) != len(ours):
        report.fail(f"{where}: qipai lists a move twice")
    mine = set(by_cards)
    got = Counter(theirs)
    for cards in sorted(mine - set(got)):
        bad = [m for m in by_cards[cards] if not explain(report, "missing", ctx, cards, m)]
        if bad:
            report.fail(f"{where}: {report.peer} lacks {cards} ({', '.join(m.describe() for m in bad)})")
    for cards in sorted(set(got) - mine):
        if not explain(report, "extra", ctx, cards, None):
            report.fail(f"{where}: {report.peer} offers {cards}, qipai does not")
    for cards, n in got.items():
        if n > 1:
            readings = len(peer.action_ids(cards)) if report.peer == "openspiel" else 1  # type: ignore[attr-defined]
            if douzero_duplicate(report.peer, cards, n, readings):
                report.hits["douzero_duplicate"] += 1
            elif openspiel_one_id_per_reading(report.peer, cards, n, readings):
                report.hits["openspiel_one_id_per_reading"] += 1
            else:
                report.fail(f"{where}: {report.peer} lists {cards} {n} times")


def check_leads(report: Report, peer: Peer, hand: str) -> None:
    compare(report, f"leads of {hand}", Ctx(counts(hand)), legal_moves(hand, RULES), peer.leads(hand), peer)


def check_answer(report: Report, peer: Peer, hand: str, prev: Move) -> None:
    where = f"{hand} answering {prev.text} ({prev.describe()})"
    name = report.peer
    if name == "openspiel" and openspiel_unreachable(hand, prev.text):
        report.hits["openspiel_unreachable"] += 1
        return
    kinds = peer.readings(prev.text)
    readings = [r for r in classify(prev.text, RULES) if r.kind in kinds]
    if name == "openspiel" and prev.kind in kinds:
        readings = [r for r in readings if r.kind == prev.kind]
    elif name == "openspiel":
        readings = [r for r in readings if r.kind == kinds[0]]  # the adapter's default: the lowest action id
    if not kinds:
        report.positions += 1
        if not rejection_explained(report, hand, prev.text):
            report.fail(f"{where}: {name} does not accept the prev")
        return
    if not readings:
        report.fail(f"{where}: {name} reads the prev as {kinds}, qipai as {prev.describe()}")
        return
    if ambiguous_prev(readings):
        report.hits["ambiguous_prev"] += 1
        return
    (reading,) = readings
    try:
        if name == "openspiel":
            theirs = peer.answers(hand, prev.text, kind=reading.kind)  # type: ignore[call-arg]
        else:
            theirs = peer.answers(hand, prev.text)
    except PositionUnreachable as e:
        report.fail(f"{where}: {e}")
        return
    except PeerRejected as e:
        report.positions += 1
        if not explain(report, "rejects", Ctx(counts(hand), reading), prev.text, reading):
            report.fail(f"{where}: {e}")
        return
    compare(report, where, Ctx(counts(hand), reading), legal_moves(hand, RULES, reading), theirs, peer)


# --------------------------------------------------------------------------------------------------
# positions
# --------------------------------------------------------------------------------------------------


def dense_hand(rng: random.Random, size: int) -> str:
    """Up to ``size`` cards from a few adjacent ranks (and sometimes 2s and jokers): many triples, bombs,
    planes and kickers, which random hands rarely hold."""
    width = rng.randint(3, 6)
    lo = rng.randint(0, 12 - width)
    pool = [r for r in RANKS[lo:lo + width] for _ in range(4)]
    if rng.random() < 0.5:
        pool += ["2"] * rng.randint(1, 4)
    if rng.random() < 0.5:
        pool += ["B", "R"]
    return canonical(rng.sample(pool, min(size, len(pool))))


@cache
def lead_hands(n: int) -> list[str]:
    """``n`` hands, in turn: 20 random cards, 17, 1..16, and a dense hand (``dense_hand``) of 8..20."""
    rng = random.Random(SEED_LEADS)
    out = []
    for i in range(n):
        shape = i % 4
        if shape == 3:
            out.append(dense_hand(rng, rng.randint(8, 20)))
        else:
            size = 20 if shape == 0 else 17 if shape == 1 else rng.randint(1, 16)
            out.append(canonical(rng.sample(DECK, size)))
    return out


RARE_KINDS = frozenset({"pair_straight", "plane", "plane_singles", "plane_pairs", "four_two_singles",
                        "four_two_pairs", "bomb"})


KICKER_KINDS = frozenset({"plane_singles", "plane_pairs", "four_two_singles", "four_two_pairs"})


def pick_prev(rng: random.Random, cards: str, prefer: frozenset[str] = frozenset()) -> Move:
    """A lead of ``cards``: a kind chosen uniformly among the kinds it can lead (among those of ``prefer``
    if it can lead any), then a move of that kind."""
    by_kind: dict[str, list[Move]] = {}
    for m in legal_moves(cards, RULES):
        by_kind.setdefault(m.kind, []).append(m)
    kinds = sorted(by_kind)
    if prefer.intersection(kinds):
        kinds = sorted(prefer.intersection(kinds))
    return rng.choice(by_kind[rng.choice(kinds)])


def plane_duel(rng: random.Random) -> tuple[str, Move]:
    """A plane with kickers against a hand holding another plane of the same length, often with a triple
    among the prev's kickers.  Random deals almost never give the two planes that comparing planes with
    kickers needs.
    """
    while True:
        length = rng.randint(2, 3)
        p, q = rng.sample(range(12 - length + 1), 2)
        if abs(p - q) < length:  # the two chains would share ranks
            continue
        deck = list(DECK)
        mover = "".join(RANKS[r] * 3 for r in range(p, p + length))
        hand = "".join(RANKS[r] * 3 for r in range(q, q + length))
        for ch in mover + hand:
            deck.remove(ch)
        others = [c for c in deck if c not in mover]
        style = rng.choice(["singles", "pairs", "triple"] if length == 3 else ["singles", "pairs"])
        if style == "pairs":
            ranks = sorted({c for c in others if others.count(c) >= 2})
            kick = "".join(r * 2 for r in rng.sample(ranks, length))
        elif style == "triple":
            kick = rng.choice(sorted({c for c in others if others.count(c) >= 3})) * 3
        else:
            kick = "".join(rng.sample(others, length))
        for ch in kick:
            deck.remove(ch)
        hand += "".join(rng.sample(deck, rng.randint(3, 16 - 3 * length)))
        mover, hand = canonical(mover + kick), canonical(hand)
        readings = [m for m in classify(mover, RULES) if m.kind in ("plane_singles", "plane_pairs")]
        if readings:
            return hand, rng.choice(readings)


@cache
def answer_positions(n: int, reachable_by_openspiel: bool) -> list[tuple[str, Move]]:
    """``n`` (hand, prev) pairs, each from one random deal; prev is led by another seat of the deal.

    Five shapes in turn: a farmer's 17 cards answer the landlord's (20-card hand's) lead; the landlord's
    20 cards answer a farmer's lead (skipped for OpenSpiel, which cannot reach it); a farmer's hand
    reduced to 4..16 of its cards answers the landlord's lead; two dense hands (``dense_hand``, cards of
    a few adjacent ranks dealt between two seats) face each other, prev preferably a move with kickers (every
    other time) or else a chain or a bomb; a plane with kickers against another plane (``plane_duel``).
    """
    rng = random.Random(SEED_ANSWERS + reachable_by_openspiel)
    out: list[tuple[str, Move]] = []
    i = 0
    while len(out) < n:
        a, b, c, kitty = random_deal(rng)
        lord = canonical(a + kitty)
        shape = i % 5
        i += 1
        if shape == 1 and reachable_by_openspiel:
            continue
        if shape == 0:
            out.append((b, pick_prev(rng, lord)))
        elif shape == 1:
            out.append((lord, pick_prev(rng, c)))
        elif shape == 4:
            out.append(plane_duel(rng))
        elif shape == 2:
            hand = canonical(rng.sample(b, rng.randint(4, 16)))
            out.append((hand, pick_prev(rng, lord)))
        else:
            cards = list(dense_hand(rng, 36))
            rng.shuffle(cards)
            k = rng.randint(len(cards) // 3, len(cards) * 2 // 3)
            mover, hand = canonical(cards[:k][:20]), canonical(cards[k:][:16])
            if mover and hand:
                out.append((hand, pick_prev(rng, mover, KICKER_KINDS if i % 2 else RARE_KINDS)))
    return out


# --------------------------------------------------------------------------------------------------
# tests
# --------------------------------------------------------------------------------------------------

PEER_NAMES = ["rlcard", "douzero", "openspiel"]


@pytest.mark.parametrize("name", PEER_NAMES)
def test_leads(name: str) -> None:
    peer = peer_or_fail(name)
    report = Report(name)
    for hand in lead_hands(N_LEADS[name]):
        check_leads(report, peer, hand)
    report.check()


@pytest.mark.parametrize("name", PEER_NAMES)
def test_answers(name: str) -> None:
    peer = peer_or_fail(name)
    report = Report(name)
    for hand, prev in answer_positions(N_ANSWERS[name], name == "openspiel"):
        check_answer(report, peer, hand, prev)
    report.check()


# Each documented difference, on the example that docs/differences.md gives for it:
# (predicate, peer, hand, prev or None for leads, cards, side)
EXAMPLES = [
    ("rlcard_no_triple_kicker_adjacent", "rlcard", "3334445556667778", None, "3334445556667778", "missing"),
    ("rlcard_no_triple_kicker_adjacent", "rlcard", "444555666777888TJ", "3334445556667778", "", "rejects"),
    ("rlcard_no_four_kickers", "rlcard", "3334445556669999", None, "3334445556669999", "missing"),
    ("douzero_rocket_kickers", "douzero", "3333BR5", None, "3333BR", "extra"),
    ("douzero_rocket_kickers", "douzero", "333444BR5", None, "333444BR", "extra"),
    ("douzero_plane_rank_by_top_triple", "douzero", "666777888JQA2299T", "333444555KKK", "666777888JQA",
     "missing"),
    ("douzero_plane_rank_by_top_triple", "douzero", "333444555KKK6789T", "666777888J2A", "333444555KKK",
     "extra"),
    ("douzero_unclassifiable", "douzero", "444555666777888TJ", "3334445556667778", "", "rejects"),
    ("openspiel_no_four_two", "openspiel", "333355", None, "333355", "missing"),
    ("openspiel_no_four_two", "openspiel", "33334455", None, "33334455", "missing"),
    ("openspiel_no_chain_from_four", "openspiel", "333345678", None, "34567", "missing"),
    ("openspiel_no_chain_from_four", "openspiel", "88889TJQKA2234567", "34567", "89TJQ", "missing"),
    ("openspiel_kickers_max_three", "openspiel", "3334445556669999", None, "3334445556669999", "missing"),
    ("openspiel_bomb_beats_rocket", "openspiel", "3JJJJ456789TQKA22", "BR", "JJJJ", "extra"),
]


@pytest.mark.parametrize(("pred", "name", "hand", "prev", "cards", "side"), EXAMPLES,
                         ids=[f"{e[0]}-{e[5]}-{e[4] or e[3]}" for e in EXAMPLES])
def test_documented_difference(pred: str, name: str, hand: str, prev: str | None, cards: str,
                               side: str) -> None:
    """The peer still differs on the documented example, and the named predicate is what explains it."""
    peer = peer_or_fail(name)
    report = Report(name)
    if prev is None:
        ctx, ours, theirs = Ctx(counts(hand)), legal_moves(hand, RULES), peer.leads(hand)
    elif side == "rejects":
        with pytest.raises(PeerRejected):
            peer.answers(hand, prev)
        assert rejection_explained(report, hand, prev)
        assert set(report.hits) == {pred}
        return
    else:
        (pm,) = [m for m in classify(prev, RULES) if m.kind in peer.readings(prev)]
        ctx, ours = Ctx(counts(hand), pm), legal_moves(hand, RULES, pm)
        theirs = peer.answers(hand, prev)
    mine = {m.text for m in ours}
    if side == "missing":
        assert cards in mine and cards not in theirs
        assert all(explain(report, side, ctx, cards, m) for m in ours if m.text == cards)
    else:
        assert cards in theirs and cards not in mine
        assert explain(report, side, ctx, cards, None)
    assert set(report.hits) == {pred}
    rest = Report(name)
    compare(rest, "example", ctx, ours, theirs, peer)  # the rest of the position differs only as documented
    assert not rest.failures, rest.failures


def test_every_predicate_has_an_example() -> None:
    assert {e[0] for e in EXAMPLES} == set(ALL_PREDICATES)
