"""Following a lead (§6.2–6.6): the requirement lists (the seed's six tables as data, the general rule for every
other format, the throw rule), a cheap legality check that says why, and the §9.2 passive choice.

A follower with at least ``n`` cards of the led effective suit ``E`` must play ``n`` cards of ``E`` matching a shape
of the *first rank of the requirement list containing a shape its E cards can form*; with fewer it plays all of
them and fills up with anything.  Nothing is enumerated: the check forms shapes from the hand directly.

>>> o = order("3", "H")                                          # §11 example 4 (table 6)
>>> lead = read_lead(parse_cards("7S 7S 8S 8S"), o)
>>> hand = counts(parse_cards("9S 9S 9S 9S JS JS QS QS 4S 5H"))
>>> [follow_error(hand, lead, parse_cards(t), o) is None for t in ("JS JS QS QS", "9S 9S 9S 9S", "9S 9S JS JS")]
[True, True, False]
>>> follow_error(hand, lead, parse_cards("JS JS QS 4S"), o)
'following a P2: your spades can form P2 | Q (rank 1 of its requirement list); QS JS JS 4S matches none of them'
>>> format_cards(passive_follow(hand, lead, o), o)
'QS QS JS JS'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import NamedTuple

from .cards import NUM_FACES, TRUMP, Order, counts, face_text, format_cards, order, parse_cards
from .combos import Combo, Lead, combos_of_format, fmt_name, read_lead

__all__ = [
    "GENERAL",
    "TABLES",
    "KeyRank",
    "can_form",
    "follow_error",
    "follow_options",
    "key_of",
    "lead_error",
    "max_key",
    "parse_shape",
    "passive_follow",
    "passive_lead",
    "requirement_list",
    "shape_text",
]

Fmt = tuple[int, int]
Shape = tuple[Fmt, ...]
"""The non-filler components of a shape, in the order written (``S`` fillers are implied by the card count)."""

SUIT_NAMES = ("spades", "hearts", "clubs", "diamonds", "trumps")

_T1 = ["P4 | Q+Q", "P3 + P", "P3 + 2S", "P2 + 2P", "P2 + P + 2S", "P2 + 4S", "Q + 2P", "Q + P + 2S", "Q + 4S",
       "2T + 2S", "T + 2P + S", "T + P + 3S", "T + 5S", "4P", "3P + 2S", "2P + 4S", "P + 6S", "8S"]
TABLES: dict[Fmt, list[str]] = {
    (2, 4): _T1,                                                      # table 1, lead P4
    (4, 2): ["Q+Q", "P4", *_T1[1:]],                                  # table 2, lead Q2
    (2, 3): ["P3 | T2", "Q + P", "P2 + P", "3P", "2P + 2S", "P + 4S", "6S"],   # table 3, lead P3
    (3, 2): ["T2", "P3", "Q + P", "P2 + P", "2T", "T + P + S", "3P", "2P + 2S", "P + 4S", "6S"],  # table 4, T2
    (4, 1): ["Q", "P2", "2P", "T + S", "P + 2S", "4S"],               # table 5, lead Q
    (2, 2): ["P2 | Q", "2P", "P + 2S", "4S"],                         # table 6, lead P2
}
"""The seed's six tables (§6.4, 3.4.5 items 1–6), rank by rank in its notation; ``|`` separates the shapes of one
rank (出牌可选)."""


class KeyRank(NamedTuple):
    """A rank "by the key": the play must reach the largest ``(Σ c//w for w in weights)`` (compared element by
    element) that any ``n`` of the follower's ``E`` cards reach (§6.5)."""

    weights: tuple[int, ...]

    def text(self) -> str:
        names = {4: "quads", 3: "triples", 2: "pairs"}
        return "by the key (" + ", ".join(names[w] for w in self.weights) + ")"


Rank = tuple[Shape, ...] | KeyRank


def parse_shape(text: str, n: int | None = None) -> Shape:
    """A shape in §1 notation (``P3 + 2S``, ``Q+Q``, ``T2``) as its non-filler components in the order written;
    with ``n``, checks that the shape has ``n`` cards.

    >>> parse_shape("T + 2P + S"), parse_shape("Q+Q"), parse_shape("P3 + 2S", 8)
    (((3, 1), (2, 1), (2, 1)), ((4, 1), (4, 1)), ((2, 3),))
    >>> parse_shape("P3 + P", 6)
    Traceback (most recent call last):
    ...
    ValueError: shape 'P3 + P' has 8 cards, not 6
    """
    comps: list[Fmt] = []
    total = 0
    for part in text.replace(" ", "").split("+"):
        i = 0
        while i < len(part) and part[i].isdigit():
            i += 1
        times = int(part[:i]) if i else 1
        letter, rest = part[i], part[i + 1:]
        m = "SPTQ".index(letter) + 1
        k = int(rest) if rest else 1
        total += times * m * k
        if m > 1:
            comps.extend([(m, k)] * times)
    if n is not None and total != n:
        raise ValueError(f"shape {text!r} has {total} cards, not {n}")
    return tuple(comps)


def shape_text(shape: Shape, n: int) -> str:
    """A shape back in §1 notation, fillers included.

    >>> shape_text(((2, 3), (2, 1)), 8), shape_text(((2, 1), (2, 1)), 6), shape_text((), 4)
    ('P3 + P', '2P + 2S', '4S')
    """
    out: list[str] = []
    i = 0
    used = 0
    while i < len(shape):
        j = i
        while j < len(shape) and shape[j] == shape[i]:
            j += 1
        name = fmt_name(shape[i])
        out.append(name if j - i == 1 else f"{j - i}{name}")
        used += (j - i) * shape[i][0] * shape[i][1]
        i = j
    if n > used:
        out.append("S" if n - used == 1 else f"{n - used}S")
    return " + ".join(out)


def _general(fmt: Fmt) -> list[str | KeyRank]:
    m, k = fmt
    n = m * k
    if fmt == (1, 1):
        return ["S"]
    if fmt == (2, 1):
        return ["P", "2S"]
    if fmt == (3, 1):
        return ["T", "P + S", "3S"]
    if m == 2:  # Pk, k >= 5 (and the tables' P2, P3 by the same rule)
        first = [f"P{k}"]
        if k % 3 == 0:
            first.append(f"T{2 * k // 3}")
        if k % 2 == 0:
            first.append("+".join(["Q"] * (k // 2)))
        ranks: list[str | KeyRank] = [" | ".join(first)]
        ranks.append("Q" + (f" + {k - 2}P" if k > 2 else ""))
        ranks.append(f"P2 + {k - 2}P" if k > 2 else "P2")
        for j in range(k, 0, -1):
            ranks.append(f"{j}P" + (f" + {n - 2 * j}S" if n > 2 * j else ""))
        ranks.append(f"{n}S")
        return ranks
    if m == 3:  # Tk, k >= 3
        first = [f"T{k}"]
        if k % 4 == 0:
            first.append(f"Q{3 * k // 4}")
        ranks = [" | ".join(first)]
        if k % 2 == 0:
            ranks.append(f"P{3 * k // 2}")
        ranks.append(KeyRank((3, 2)))
        return ranks
    # Qk, k >= 3 (k = 1 is table 5, k = 2 table 2)
    return [f"Q{k}", f"P{2 * k}", KeyRank((4, 2, 3))]


GENERAL = _general
"""The general rule (§6.5) as a function of the lead format, in the tables' notation."""


@cache
def requirement_list(fmt: Fmt) -> tuple[Rank, ...]:
    """The requirement list of a lead format (§6.3–6.5): ranks, each a tuple of shapes or a :class:`KeyRank`.
    The six seed tables where they apply, the general rule otherwise.  Duplicate shapes (the general rule's
    ``Q`` after ``P2 | Q`` for a ``P2``) are dropped from later ranks.

    >>> [" | ".join(shape_text(s, 4) for s in r) for r in requirement_list((2, 2))]
    ['P2 | Q', '2P', 'P + 2S', '4S']
    >>> [" | ".join(shape_text(s, 10) for s in r) for r in requirement_list((2, 5))][:4]
    ['P5', 'Q + 3P', 'P2 + 3P', '5P']
    >>> requirement_list((3, 3))[-1]
    KeyRank(weights=(3, 2))
    """
    m, k = fmt
    n = m * k
    if not (1 <= m <= 4 and k >= 1 and (k == 1 or m >= 2)):
        raise ValueError(f"no such format {fmt}")
    raw: Sequence[str | KeyRank] = TABLES.get(fmt) or _general(fmt)
    seen: set[tuple[Fmt, ...]] = set()
    out: list[Rank] = []
    for r in raw:
        if isinstance(r, KeyRank):
            out.append(r)
            continue
        shapes = []
        for t in r.split("|"):
            sh = parse_shape(t.strip(), n)
            key = tuple(sorted(sh))
            if key not in seen:
                seen.add(key)
                shapes.append(sh)
        if shapes:
            out.append(tuple(shapes))
    return tuple(out)


def _sorted_comps(shape: Shape) -> tuple[Fmt, ...]:
    return tuple(sorted(shape, key=lambda c: (c[1] == 1, -c[0] * c[1], -c[0])))


_SORTED: dict[Shape, tuple[Fmt, ...]] = {}


def _can_pick(cnt: dict[int, int], o: Order, e: int, comps: tuple[Fmt, ...]) -> bool:
    if not comps:
        return True
    m, k = comps[0]
    if k == 1 and comps[-1] == (m, 1) and all(c == (m, 1) for c in comps):
        need = len(comps)
        got = 0
        for x in cnt.values():
            got += x // m
            if got >= need:
                return True
        return False
    rest = comps[1:]
    for c in combos_of_format(cnt, o, e, m, k):
        for f in c.faces:
            cnt[f] -= m
        ok = _can_pick(cnt, o, e, rest)
        for f in c.faces:
            cnt[f] += m
        if ok:
            return True
    return False


def can_form(cards: Mapping[int, int] | Iterable[int], shape: Shape | str, o: Order, e: int | None = None) -> bool:
    """Whether the cards contain the shape's components, disjointly (§6.3: larger groups may be split).  ``cards``
    are faces or a ``{face: count}`` map, all of effective suit ``e`` (taken from the cards when omitted).

    >>> o = order("9", "S")                                    # §11 example 6: AH and QH are not adjacent
    >>> h = parse_cards("AH AH AH KH QH QH JH 3H")
    >>> can_form(h, "P2", o), can_form(h, "2P", o), can_form(h, "T + S", o)
    (False, True, True)
    """
    cnt = dict(cards) if isinstance(cards, Mapping) else _cmap(cards)
    sh = parse_shape(shape) if isinstance(shape, str) else shape
    if e is None:
        e = o.esuit[next(iter(cnt))] if cnt else 0
    sc = _SORTED.get(sh)
    if sc is None:
        sc = _SORTED[sh] = _sorted_comps(sh)
    return _can_pick(cnt, o, e, sc)


def _cmap(cards: Iterable[int]) -> dict[int, int]:
    cnt: dict[int, int] = {}
    for f in cards:
        cnt[f] = cnt.get(f, 0) + 1
    return cnt


def key_of(cnt: Mapping[int, int], weights: Sequence[int]) -> tuple[int, ...]:
    """``(Σ c // w for w in weights)`` over the faces of ``cnt`` (§6.5's key)."""
    return tuple(sum(c // w for c in cnt.values()) for w in weights)


def _key_dp(cntE: Mapping[int, int], n: int, weights: tuple[int, ...], faces: list[int]
            ) -> list[list[tuple[int, ...] | None]]:
    """best[i][j]: the largest key using exactly ``j`` cards of ``faces[i:]``."""
    nf = len(faces)
    zero = (0,) * len(weights)
    best: list[list[tuple[int, ...] | None]] = [[None] * (n + 1) for _ in range(nf + 1)]
    best[nf][0] = zero
    for i in range(nf - 1, -1, -1):
        c = cntE[faces[i]]
        nxt = best[i + 1]
        row = best[i]
        contrib = [tuple(x // w for w in weights) for x in range(c + 1)]
        for j in range(n + 1):
            b: tuple[int, ...] | None = None
            for x in range(min(c, j) + 1):
                t = nxt[j - x]
                if t is None:
                    continue
                v = tuple(a + d for a, d in zip(t, contrib[x], strict=True))
                if b is None or v > b:
                    b = v
            row[j] = b
    return best


def max_key(cntE: Mapping[int, int], n: int, weights: tuple[int, ...]) -> tuple[int, ...] | None:
    """The largest key any ``n`` of the cards reach (``None`` when fewer than ``n`` cards).

    >>> max_key(_cmap(parse_cards("5S 5S 5S 5S 6S 6S 6S 7S 7S")), 6, (3, 2))
    (2, 2)
    """
    faces = [f for f, c in cntE.items() if c]
    return _key_dp(cntE, n, weights, faces)[0][n]


def _e_cards(hand: Sequence[int], o: Order, e: int) -> dict[int, int]:
    return {f: hand[f] for f in o.faces[e] if hand[f]}


def _required_rank(handE: dict[int, int], lead: Lead, o: Order) -> tuple[int, Rank]:
    """The first rank of the lead's requirement list the E cards can form (index, rank)."""
    assert lead.combo is not None
    for i, r in enumerate(requirement_list(lead.combo.fmt)):
        if isinstance(r, KeyRank):
            return i, r
        for sh in r:
            if can_form(handE, sh, o, lead.esuit):
                return i, r
    raise AssertionError("the last rank is always formable")


def _rank_text(r: Rank, n: int) -> str:
    if isinstance(r, KeyRank):
        return r.text()
    return " | ".join(shape_text(s, n) for s in r)


def lead_error(hand: Sequence[int], cards: Sequence[int], o: Order, throws: bool = True) -> str | None:
    """Why ``cards`` may not be led from ``hand`` (54 counts), or ``None`` (§5.4; a throw's success is decided
    separately, against the other hands).

    >>> o = order("3", "H")
    >>> lead_error(counts(parse_cards("AS AS KS 4H")), parse_cards("AS AS KS"), o), lead_error(
    ...     counts(parse_cards("AS AS KS")), parse_cards("AS AS KS"), o, throws=False)
    (None, 'throws are off at this table: AS AS KS is not one combination')
    """
    if not cards:
        return "play at least one card"
    err = _holding_error(hand, cards)
    if err:
        return err
    try:
        lead = read_lead(cards, o)
    except ValueError as e:
        return str(e)
    if lead.is_throw and not throws:
        return f"throws are off at this table: {format_cards(cards, o)} is not one combination"
    return None


def _holding_error(hand: Sequence[int], cards: Sequence[int]) -> str | None:
    cnt = _cmap(cards)
    for f, c in cnt.items():
        if hand[f] < c:
            held = hand[f]
            return f"you hold {'no' if not held else f'only {held}'} {face_text(f)}" + (
                "" if not held else f", not {c}")
    return None


def follow_error(hand: Sequence[int], lead: Lead, play: Sequence[int], o: Order) -> str | None:
    """Why ``play`` may not follow ``lead`` from ``hand`` (54 counts, the cards held before the play), or
    ``None`` (§6.2–6.6).

    >>> o = order("5", "H")                                           # §11 example 9
    >>> lead, hand = read_lead(parse_cards("AS AS"), o), counts(parse_cards("3S 7H 8H B"))
    >>> [follow_error(hand, lead, parse_cards(t), o) for t in ("3S 7H", "3S B", "7H 8H")]
    [None, None, 'you hold only 1 card of spades (fewer than 2): play it and fill up with other cards']
    """
    n = lead.n
    if len(play) != n:
        return f"play {n} card{'s' if n > 1 else ''} (the lead has {n}), not {len(play)}"
    err = _holding_error(hand, play)
    if err:
        return err
    e = lead.esuit
    es = o.esuit
    held = 0
    for f in o.faces[e]:
        held += hand[f]
    in_e = 0
    for f in play:
        if es[f] == e:
            in_e += 1
    name = SUIT_NAMES[e]
    if held < n:
        if in_e < held:
            them = "it" if held == 1 else f"all {held}"
            return (f"you hold only {held} card{'s' if held > 1 else ''} of {name} (fewer than {n}): play {them} "
                    "and fill up with other cards")
        return None
    if in_e < n:
        return f"you hold {held} cards of {name}: play {n} of them"
    if n == 1:
        return None
    fmt = lead.fmt
    if fmt == (2, 1):  # P › 2S
        if play[0] == play[1] or not any(hand[f] >= 2 for f in o.faces[e]):
            return None
        return f"following a P: your {name} can form P (rank 1 of its requirement list); play a pair"
    handE = _e_cards(hand, o, e)
    playE = _cmap(play)
    if lead.combo is None:
        need = min(lead.pairs, sum(c // 2 for c in handE.values()), n // 2)
        got = sum(c // 2 for c in playE.values())
        if got < need:
            return (f"following a throw with {lead.pairs} pair{'s' if lead.pairs != 1 else ''}: your {name} can "
                    f"give {need}, so play at least {need} pair{'s' if need != 1 else ''}")
        return None
    i, r = _required_rank(handE, lead, o)
    what = f"following a {fmt_name(lead.combo.fmt)}: your {name} can form"
    if isinstance(r, KeyRank):
        target = max_key(handE, n, r.weights)
        got_key = key_of(playE, r.weights)
        if got_key != target:
            return f"{what} nothing before rank {i + 1}, {r.text()}: reach {target}, not {got_key}"
        return None
    for sh in r:
        if can_form(playE, sh, o, e):
            return None
    return f"{what} {_rank_text(r, n)} (rank {i + 1} of its requirement list); {format_cards(play, o)} matches none" \
           f" of them" if len(r) > 1 else \
           f"{what} {_rank_text(r, n)} (rank {i + 1} of its requirement list); {format_cards(play, o)} does not match"


# ---------------------------------------------------------------------------------------------- constructing plays


def _fill(cnt: dict[int, int], o: Order, e: int, comps: Sequence[Fmt], high: bool) -> list[Combo] | None:
    """Components of ``comps`` in the order written, each the lowest (or highest) one that lets the rest be
    filled too."""
    if not comps:
        return []
    m, k = comps[0]
    if k == 1 and all(c == (m, 1) for c in comps):
        need = len(comps)
        faces = sorted((f for f, c in cnt.items() if c >= m), key=o.low.__getitem__, reverse=high)
        out: list[Combo] = []
        val = o.value
        for f in faces:
            for _ in range(cnt[f] // m):
                out.append(Combo(m, 1, e, (f,), (val[f],)))
                if len(out) == need:
                    return out
        return None
    low = o.low
    cands = sorted(combos_of_format(cnt, o, e, m, k), key=lambda c: tuple(low[f] for f in c.faces), reverse=high)
    for c in cands:
        for f in c.faces:
            cnt[f] -= m
        rest = _fill(cnt, o, e, comps[1:], high)
        for f in c.faces:
            cnt[f] += m
        if rest is not None:
            return [c, *rest]
    return None


def _take(cnt: dict[int, int], combos: Iterable[Combo]) -> list[int]:
    out: list[int] = []
    for c in combos:
        for f in c.faces:
            cnt[f] -= c.m
            out.extend([f] * c.m)
    return out


def _fillers(cnt: dict[int, int], o: Order, k: int, high: bool = False) -> list[int]:
    faces = sorted((f for f, c in cnt.items() if c), key=o.low.__getitem__, reverse=high)
    out: list[int] = []
    for f in faces:
        while cnt[f] and len(out) < k:
            cnt[f] -= 1
            out.append(f)
        if len(out) == k:
            break
    return out


def _key_play(cntE: dict[int, int], n: int, weights: tuple[int, ...], o: Order, high: bool) -> list[int]:
    faces = sorted((f for f, c in cntE.items() if c), key=o.low.__getitem__, reverse=high)
    best = _key_dp(cntE, n, weights, faces)
    target = best[0][n]
    assert target is not None
    out: list[int] = []
    j = n
    for i, f in enumerate(faces):
        c = cntE[f]
        for x in range(min(c, j), -1, -1):
            t = best[i + 1][j - x]
            if t is None:
                continue
            if tuple(a + x // w for a, w in zip(t, weights, strict=True)) == target:
                out.extend([f] * x)
                target = t
                j -= x
                break
        if j == 0:
            break
    return out


def _follow_in_suit(hand: Sequence[int], lead: Lead, o: Order, high: bool, rank_shape: int = 0) -> list[int]:
    e = lead.esuit
    n = lead.n
    handE = _e_cards(hand, o, e)
    if lead.combo is None:
        need = min(lead.pairs, sum(c // 2 for c in handE.values()), n // 2)
        pairs = _fill(handE, o, e, [(2, 1)] * need, high) or []
        cards = _take(handE, pairs)
        return cards + _fillers(handE, o, n - len(cards), high)
    _, r = _required_rank(handE, lead, o)
    if isinstance(r, KeyRank):
        return _key_play(handE, n, r.weights, o, high)
    shapes = [sh for sh in r if can_form(handE, sh, o, e)]
    sh = shapes[min(rank_shape, len(shapes) - 1)]
    combos = _fill(handE, o, e, sh, high)
    assert combos is not None
    cards = _take(handE, combos)
    return cards + _fillers(handE, o, n - len(cards), high)


def passive_follow(hand: Sequence[int], lead: Lead, o: Order) -> list[int]:
    """The §9.2 auto-play follow: with ≥ n cards of E the first formable shape of the first formable rank, its
    components each the lowest that works (in the order written), then the lowest E cards; short or void, all E
    cards and then the lowest others (non-trumps before trumps).  "Lowest" is §4 order, ties ``D C H S``.

    >>> o = order("7", "D")                                         # §11 example 5 (table 3)
    >>> lead = read_lead(parse_cards("3C 3C 4C 4C 5C 5C"), o)
    >>> format_cards(passive_follow(counts(parse_cards("KC KC KC KC 9C 9C 8C 8C 6C")), lead, o), o)
    'KC KC KC KC 8C 8C'
    """
    e = lead.esuit
    n = lead.n
    held = sum(hand[f] for f in o.faces[e])
    if held >= n:
        return _follow_in_suit(hand, lead, o, False)
    out = [f for f in o.faces[e] for _ in range(hand[f])]
    rest = {f: hand[f] for f in range(NUM_FACES) if hand[f] and o.esuit[f] != e}
    return out + _fillers(rest, o, n - held)


def passive_lead(hand: Sequence[int], o: Order) -> list[int]:
    """The §9.2 auto-play lead: one card, the lowest non-trump by rank (ties ``D C H S``), else the lowest trump.

    >>> o = order("3", "H")
    >>> [face_text(f) for f in passive_lead(counts(parse_cards("4S 4D 9C 2H B")), o)]
    ['4D']
    """
    low = o.low
    best = -1
    for f in range(NUM_FACES):
        if hand[f] and (best < 0 or low[f] < low[best]):
            best = f
    if best < 0:
        raise ValueError("an empty hand cannot lead")
    return [best]


def follow_options(hand: Sequence[int], lead: Lead, o: Order) -> list[list[int]]:
    """A few legal follows, distinct, the passive one first: the lowest and the highest way to meet the required
    rank (each shape of it), and, void in an off suit, the lowest trump plays of the lead's format (or of a
    stronger one) and the highest.  Each satisfies :func:`follow_error`.

    >>> o = order("5", "H")
    >>> lead = read_lead(parse_cards("KS KS"), o)
    >>> [format_cards(p, o) for p in follow_options(counts(parse_cards("9H 9H 2C 2C 3D")), lead, o)]
    ['9H 3D', '9H 9H', '2C 2C']
    """
    e = lead.esuit
    n = lead.n
    faces_e = o.faces[e]
    held = 0
    for f in faces_e:
        held += hand[f]
    if n == 1:
        return _single_options(hand, e, held, o)
    out: list[list[int]] = [passive_follow(hand, lead, o)]
    if held >= n:
        nshapes = 1
        if lead.combo is not None:
            handE = _e_cards(hand, o, e)
            r = _required_rank(handE, lead, o)[1]
            if not isinstance(r, KeyRank):
                nshapes = sum(1 for sh in r if can_form(handE, sh, o, e))
        for i in range(nshapes):
            for high in (False, True):
                if i or high:
                    out.append(_follow_in_suit(hand, lead, o, high, i))
    elif held == 0 and e != TRUMP:
        tr = _e_cards(hand, o, TRUMP)
        if sum(tr.values()) >= n:
            if lead.combo is not None:
                m, k = lead.combo.fmt
                fmts = [(m, k)] + [(m2, n // m2) for m2 in range(m + 1, 5) if n % m2 == 0 and n // m2 >= 2]
                if (m, k) == (2, 2):
                    fmts.append((4, 1))
                for fm in fmts:
                    for high in (False, True):
                        got = _fill(dict(tr), o, TRUMP, [fm], high)
                        if got:
                            out.append(got[0].cards())
            else:
                comps = [p.fmt for p in lead.parts]
                for high in (False, True):
                    got = _fill(dict(tr), o, TRUMP, comps, high)
                    if got:
                        out.append([f for c in got for f in c.cards()])
    uniq: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    for p in out:
        key = tuple(sorted(p))
        if key not in seen:
            seen.add(key)
            uniq.append(p)
    return uniq


def _single_options(hand: Sequence[int], e: int, held: int, o: Order) -> list[list[int]]:
    low = o.low
    if held:
        fs = [f for f in o.faces[e] if hand[f]]  # lowest first
        return [[fs[0]]] if len(fs) == 1 else [[fs[0]], [fs[-1]]]
    lowest = -1
    best_trump = -1
    for f in range(NUM_FACES):
        if hand[f]:
            if lowest < 0 or low[f] < low[lowest]:
                lowest = f
            if o.esuit[f] == TRUMP and (best_trump < 0 or low[f] > low[best_trump]):
                best_trump = f
    out = [[lowest]]
    if e != TRUMP and best_trump >= 0 and best_trump != lowest:
        out.append([best_trump])
    return out


_ = (counts, order, parse_cards)  # the doctests' namespace
