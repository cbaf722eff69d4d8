"""Combinations (牌型): units, tractors, reading a lead, throws (甩牌) and who wins a trick (§5, §6.7).

A *format* is ``(m, k)``: ``k`` groups of ``m`` identical cards on ``k`` consecutive chain positions of one
effective suit — ``(1, 1)`` single, ``(2, 1)`` pair, ``(3, 1)`` triple, ``(4, 1)`` quad, ``(2, k)`` the pair
tractor ``Pk`` (k ≥ 2), ``(3, k)`` ``Tk``, ``(4, k)`` ``Qk``.

>>> o = order("3", "H")
>>> c = combination(parse_cards("AH AH 2C 2C"), o)          # §11 example 2
>>> fmt_name(c.fmt), c.esuit == TRUMP
('P2', True)
>>> [combination(parse_cards(t), o) is None for t in ("2C 2C 2H 2H", "3S 3S 3H 3H", "KH KH 2H 2H", "AS AS 2S 2S")]
[True, True, True, True]
>>> lead = read_lead(parse_cards("5S 5S 5S 5S 6S 6S"), o)   # §5.4: a throw Q(5S) + P(6S)
>>> lead.is_throw, [fmt_name(p.fmt) for p in lead.parts]
(True, ['Q', 'P'])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import NamedTuple

from .cards import NUM_FACES, TRUMP, Order, format_cards, order, parse_cards

__all__ = [
    "Combo",
    "Lead",
    "beats_part",
    "best_combo",
    "combination",
    "combos_of_format",
    "failed_throw",
    "fmt_name",
    "is_tractor",
    "lead_key",
    "play_key",
    "read_lead",
    "stronger_or_same",
    "tractors",
    "tractors_of_counts",
    "trick_winner",
    "unit",
]

Fmt = tuple[int, int]


class Combo(NamedTuple):
    """One combination: ``k`` groups of ``m`` identical cards, ``faces`` one per position from the highest
    position down, ``values`` their order values (§5.3: tractors compare by this list)."""

    m: int
    k: int
    esuit: int
    faces: tuple[int, ...]
    values: tuple[int, ...]

    @property
    def fmt(self) -> Fmt:
        return (self.m, self.k)

    @property
    def n(self) -> int:
        return self.m * self.k

    def cards(self) -> list[int]:
        """The cards, highest position first."""
        return [f for f in self.faces for _ in range(self.m)]

    def text(self, o: Order | None = None) -> str:
        return format_cards(self.cards(), o)


def fmt_name(fmt: Fmt) -> str:
    """Shape notation of a format (§1): ``S P T Q`` and ``Pk Tk Qk``.

    >>> fmt_name((1, 1)), fmt_name((4, 1)), fmt_name((2, 4)), fmt_name((3, 2))
    ('S', 'Q', 'P4', 'T2')
    """
    m, k = fmt
    letter = "SPTQ"[m - 1]
    return letter if k == 1 else f"{letter}{k}"


def unit(cards: Iterable[int]) -> str | None:
    """The unit of some cards (§5.1): ``single``, ``pair``, ``triple``, ``quad`` (identical cards), else None.

    >>> unit(parse_cards("B B")), unit(parse_cards("B R")), unit(parse_cards("5S 5D")), unit(parse_cards("7S"))
    ('pair', None, None, 'single')
    """
    cs = list(cards)
    if not cs or len(cs) > 4 or any(c != cs[0] for c in cs):
        return None
    return ("single", "pair", "triple", "quad")[len(cs) - 1]


def _count_map(cards: Iterable[int]) -> dict[int, int]:
    cnt: dict[int, int] = {}
    for f in cards:
        cnt[f] = cnt.get(f, 0) + 1
    return cnt


def combination(cards: Iterable[int] | Mapping[int, int], o: Order) -> Combo | None:
    """The one combination the cards form (single, pair, triple, quad or tractor), else ``None`` (§5.1–5.3).
    ``cards`` are faces, or a ``{face: count}`` map.

    >>> o = order("5", "S")
    >>> fmt_name(combination(parse_cards("KS KS AS AS 2H 2H 5C 5C B B R R"), o).fmt)   # §5.2
    'P6'
    >>> fmt_name(combination(parse_cards("4D 4D 6D 6D"), o).fmt), combination(parse_cards("7S 8S"), o)
    ('P2', None)
    """
    cnt = dict(cards) if isinstance(cards, Mapping) else _count_map(cards)
    return _combo(cnt, o)


def _combo(cnt: Mapping[int, int], o: Order) -> Combo | None:
    if not cnt:
        return None
    es = o.esuit
    it = iter(cnt.items())
    f0, m = next(it)
    e = es[f0]
    for f, c in it:
        if c != m or es[f] != e:
            return None
    if m > 4 or m < 1:
        return None
    if len(cnt) == 1:
        return Combo(m, 1, e, (f0,), (o.value[f0],))
    if m == 1:
        return None
    pos = o.pos
    fs = sorted(cnt, key=pos.__getitem__, reverse=True)
    for i in range(1, len(fs)):
        if pos[fs[i - 1]] - pos[fs[i]] != 1:
            return None
    val = o.value
    return Combo(m, len(fs), e, tuple(fs), tuple(val[f] for f in fs))


def is_tractor(cards: Iterable[int], o: Order) -> bool:
    """Whether the cards are one tractor (k ≥ 2 groups, §5.3).

    >>> o = order("3", "H")
    >>> [is_tractor(parse_cards(t), o) for t in ("2H 2H 3S 3S", "3C 3C B B", "B B R R", "4S 4S 6S 6S")]
    [True, True, True, False]
    >>> is_tractor(parse_cards("7C 7C 9C 9C"), order("8", "H"))
    True
    """
    c = combination(cards, o)
    return c is not None and c.k >= 2


def stronger_or_same(fmt: Fmt, lead: Fmt) -> bool:
    """Whether a play of format ``fmt`` may beat a lead of format ``lead`` (§5.3): the same format, a tractor of
    larger groups with the same card count, or a quad against a ``P2``.

    >>> stronger_or_same((3, 2), (2, 3)), stronger_or_same((4, 1), (2, 2)), stronger_or_same((2, 2), (4, 1))
    (True, True, False)
    >>> stronger_or_same((4, 3), (3, 4)), stronger_or_same((4, 1), (4, 1)), stronger_or_same((4, 2), (2, 4))
    (True, True, True)
    """
    if fmt == lead:
        return True
    m, k = fmt
    lm, lk = lead
    if m * k != lm * lk:
        return False
    if m > lm and k >= 2:
        return True
    return lead == (2, 2) and fmt == (4, 1)


def _stronger_formats(fmt: Fmt) -> list[Fmt]:
    m, k = fmt
    n = m * k
    out = [(m2, n // m2) for m2 in range(m + 1, 5) if n % m2 == 0 and n // m2 >= 2]
    if fmt == (2, 2):
        out.append((4, 1))
    return out


def _position_faces(cnt: Sequence[int] | Mapping[int, int], o: Order, e: int, m: int) -> list[list[int]]:
    """For each position of ``e``, the faces held at least ``m`` times (highest value first)."""
    if isinstance(cnt, Mapping):
        g = cnt.get
        return [[f for f in fs if g(f, 0) >= m] for fs in o.at[e]]
    return [[f for f in fs if cnt[f] >= m] for fs in o.at[e]]


def combos_of_format(cnt: Sequence[int] | Mapping[int, int], o: Order, e: int, m: int, k: int) -> Iterator[Combo]:
    """Every combination of format ``(m, k)`` in effective suit ``e`` that the counts can supply (groups may come
    from larger groups), each face choice at shared positions separately.  ``cnt`` is a 54-count list or a
    ``{face: count}`` map.

    >>> o = order("3", "H")
    >>> h = parse_cards("AH AH 2C 2C 2S 2S 3D 3D")
    >>> sorted(c.text(o) for c in combos_of_format(dict((f, h.count(f)) for f in h), o, TRUMP, 2, 2))
    ['2C 2C AH AH', '2S 2S AH AH', '3D 3D 2C 2C', '3D 3D 2S 2S']
    """
    at = _position_faces(cnt, o, e, m)
    val = o.value
    npos = len(at)
    if k == 1:
        for fs in at:
            for f in fs:
                yield Combo(m, 1, e, (f,), (val[f],))
        return
    for top in range(npos - 1, k - 2, -1):
        window = at[top - k + 1:top + 1]
        if any(not fs for fs in window):
            continue
        window = window[::-1]  # highest position first
        for choice in _product(window):
            yield Combo(m, k, e, choice, tuple(val[f] for f in choice))


def _product(lists: list[list[int]]) -> Iterator[tuple[int, ...]]:
    if all(len(x) == 1 for x in lists):
        yield tuple(x[0] for x in lists)
        return
    idx = [0] * len(lists)
    while True:
        yield tuple(lists[i][j] for i, j in enumerate(idx))
        i = len(lists) - 1
        while i >= 0:
            idx[i] += 1
            if idx[i] < len(lists[i]):
                break
            idx[i] = 0
            i -= 1
        if i < 0:
            return


def best_combo(cnt: Sequence[int] | Mapping[int, int], o: Order, e: int, m: int, k: int) -> Combo | None:
    """The highest combination of format ``(m, k)`` in ``e`` the counts can supply, or ``None``.

    >>> o = order("3", "H")
    >>> h = parse_cards("AH AH 2C 2C 2H 2H KH KH")
    >>> best_combo(dict((f, h.count(f)) for f in h), o, TRUMP, 2, 2).text(o)
    '2H 2H AH AH'
    """
    at = _position_faces(cnt, o, e, m)
    val = o.value
    best: Combo | None = None
    run = 0
    for p in range(len(at)):
        if not at[p]:
            run = 0
            continue
        run += 1
        if run >= k:
            faces = tuple(at[q][0] for q in range(p, p - k, -1))
            vals = tuple(val[f] for f in faces)
            if best is None or vals > best.values:
                best = Combo(m, k, e, faces, vals)
    return best


def tractors(cards: Iterable[int], o: Order) -> list[Combo]:
    """The longest tractors in some cards: for each group size (4, 3, 2) and each maximal run of consecutive
    positions holding such groups (the highest face at shared positions), one tractor.  Highest first.

    >>> o = order("3", "H")
    >>> [c.text(o) for c in tractors(parse_cards("4S 4S 5S 5S 6S 6S 6S 9S 9S TS TS"), o)]
    ['TS TS 9S 9S', '6S 6S 5S 5S 4S 4S']
    """
    cnt = [0] * NUM_FACES
    for f in cards:
        cnt[f] += 1
    return tractors_of_counts(cnt, o)


def tractors_of_counts(cnt: Sequence[int], o: Order) -> list[Combo]:
    """:func:`tractors` of a 54-count list."""
    es, pos, val = o.esuit, o.pos, o.value
    by: dict[tuple[int, int], list[int]] = {}
    for f in range(NUM_FACES):
        if cnt[f] >= 2:
            by.setdefault((es[f], pos[f]), []).append(f)
    if len(by) < 2:
        return []
    out: list[Combo] = []
    for m in (2, 3, 4):
        best: dict[tuple[int, int], int] = {}
        for key, fs in by.items():
            top = -1
            for f in fs:
                if cnt[f] >= m and (top < 0 or val[f] > val[top]):
                    top = f
            if top >= 0:
                best[key] = top
        keys = sorted(best)
        i = 0
        while i < len(keys):
            j = i
            while j + 1 < len(keys) and keys[j + 1][0] == keys[i][0] and keys[j + 1][1] == keys[j][1] + 1:
                j += 1
            if j > i:
                faces = tuple(best[keys[x]] for x in range(j, i - 1, -1))
                out.append(Combo(m, j - i + 1, keys[i][0], faces, tuple(val[x] for x in faces)))
            i = j + 1
    return sorted(out, key=lambda c: (c.esuit == TRUMP, c.m, c.values), reverse=True)


class Lead(NamedTuple):
    """A lead read by §5.4: its effective suit, card count, and either the one combination it is (``combo``) or
    the components of a throw (``parts``, in reading order; for a combination ``parts == (combo,)``)."""

    esuit: int
    n: int
    combo: Combo | None
    parts: tuple[Combo, ...]
    cards: tuple[int, ...]

    @property
    def is_throw(self) -> bool:
        return self.combo is None

    @property
    def fmt(self) -> Fmt | None:
        return self.combo.fmt if self.combo is not None else None

    @property
    def pairs(self) -> int:
        """§6.6 pair count: ``Σ c // 2`` over the faces."""
        return sum(c // 2 for c in _count_map(self.cards).values())


def read_lead(cards: Iterable[int], o: Order) -> Lead:
    """Read a lead (§5.4): one combination, or a throw split greedily (most cards first; at equal count the
    stronger kind; at equal kind the higher value).  Raises ``ValueError`` when the cards are empty or not all of
    one effective suit.

    >>> o = order("3", "H")
    >>> [p.text(o) for p in read_lead(parse_cards("AS AS KS"), o).parts]
    ['AS AS', 'KS']
    >>> read_lead(parse_cards("5S 5S 5S 5S 6S 6S 6S 6S"), o).combo.fmt     # Q2, not a throw
    (4, 2)
    >>> read_lead(parse_cards("AS AH"), o)
    Traceback (most recent call last):
    ...
    ValueError: a lead must be of one effective suit: AS is in spades, AH is a trump
    """
    cs = tuple(cards)
    if not cs:
        raise ValueError("a lead needs at least one card")
    es = o.esuit
    e = es[cs[0]]
    for f in cs:
        if es[f] != e:
            raise ValueError(f"a lead must be of one effective suit: {_where(cs[0], o)}, {_where(f, o)}")
    cnt = _count_map(cs)
    c = _combo(cnt, o)
    if c is not None:
        return Lead(e, len(cs), c, (c,), cs)
    return Lead(e, len(cs), None, tuple(_greedy(cnt, o, e)), cs)


_SUIT_NAMES = ("spades", "hearts", "clubs", "diamonds")


def _where(f: int, o: Order) -> str:
    from .cards import face_text

    return f"{face_text(f)} is a trump" if o.esuit[f] == TRUMP else f"{face_text(f)} is in {_SUIT_NAMES[o.esuit[f]]}"


def _greedy(cnt: dict[int, int], o: Order, e: int) -> list[Combo]:
    cnt = dict(cnt)
    parts: list[Combo] = []
    val = o.value
    at_e = o.at[e]
    while cnt:
        best: Combo | None = None
        bkey: tuple[int, int, tuple[int, ...]] | None = None
        for m in (4, 3, 2):
            run: list[int] = []
            for p in range(len(at_e) + 1):
                f = -1
                if p < len(at_e):
                    for g in at_e[p]:
                        if cnt.get(g, 0) >= m:
                            f = g
                            break
                if f >= 0:
                    run.append(f)
                    continue
                if run:
                    faces = tuple(reversed(run))
                    key = (m * len(faces), m, tuple(val[x] for x in faces))
                    if bkey is None or key > bkey:
                        bkey, best = key, Combo(m, len(faces), e, faces, key[2])
                run = []
        if best is None:
            f = max(cnt, key=lambda g: (val[g], -g))
            best = Combo(1, 1, e, (f,), (val[f],))
        for f in best.faces:
            cnt[f] -= best.m
            if not cnt[f]:
                del cnt[f]
        parts.append(best)
    return parts


def beats_part(cnt: Sequence[int] | Mapping[int, int], o: Order, part: Combo) -> bool:
    """Whether a seat holding ``cnt`` could beat the throw component ``part`` in its suit (§5.5): a play of the
    component's format that is higher, or of a stronger format.

    >>> o = order("4", "D")
    >>> beats_part(dict.fromkeys(parse_cards("AS"), 1), o, read_lead(parse_cards("KS"), o).combo)   # §11 ex. 15
    True
    >>> beats_part({parse_cards("KS")[0]: 1}, o, read_lead(parse_cards("KS"), o).combo)      # equal is not higher
    False
    """
    e = part.esuit
    if part.k == 1:  # a single or a group: only a higher group of the same size beats it
        m, v = part.m, part.values[0]
        val = o.value
        if isinstance(cnt, Mapping):
            es = o.esuit
            return any(c >= m and val[f] > v and es[f] == e for f, c in cnt.items())
        return any(cnt[f] >= m and val[f] > v for f in o.faces[e])
    for m2, k2 in _stronger_formats(part.fmt):
        if best_combo(cnt, o, e, m2, k2) is not None:
            return True
    b = best_combo(cnt, o, e, part.m, part.k)
    return b is not None and b.values > part.values


def failed_throw(lead: Lead, others: Iterable[Sequence[int] | Mapping[int, int]], o: Order) -> Combo | None:
    """For a throw: ``None`` when no component can be beaten by any of the ``others`` (the other seats' counts),
    else the component the thrower must lead instead — the beatable one with the fewest cards, ties the weaker
    kind, then the lowest value (§5.5).

    >>> o = order("4", "D")
    >>> lead = read_lead(parse_cards("AS AS KS"), o)
    >>> failed_throw(lead, [dict.fromkeys(parse_cards("AS"), 1)], o).text(o)
    'KS'
    >>> failed_throw(lead, [dict.fromkeys(parse_cards("QS JS"), 1)], o) is None
    True
    """
    hs = list(others)
    bad = [p for p in lead.parts if any(beats_part(h, o, p) for h in hs)]
    if not bad:
        return None
    return min(bad, key=lambda p: (p.n, p.m, p.values))


def lead_key(lead: Lead) -> tuple[object, ...]:
    """The strength of the lead itself (see :func:`play_key`)."""
    if lead.combo is not None:
        return (lead.esuit == TRUMP, lead.combo.m, lead.combo.values)
    return (lead.esuit == TRUMP, 0, ())


def play_key(lead: Lead, play: Sequence[int], o: Order) -> tuple[object, ...] | None:
    """The strength of a follower's play in a trick led by ``lead``, or ``None`` if it does not compete (§6.7).
    Keys compare with ``>`` (and with :func:`lead_key`): trumps over the led off suit, then the stronger kind,
    then the values.  A play entirely of trumps on an off-suit lead is taken as coming from a seat void in that
    suit (the only way a legal play can be all trumps there).  Against a throw only such a trump play competes,
    split into components of exactly the throw's formats (the split with the highest values).

    >>> o = order("6", "S")                      # §11 example 12
    >>> lead = read_lead(parse_cards("9C 9C TC TC JC JC"), o)
    >>> play_key(lead, parse_cards("7S 7S 7S 8S 8S 8S"), o) > play_key(lead, parse_cards("3S 3S 4S 4S 5S 5S"), o)
    True
    >>> play_key(lead, parse_cards("7S 7S 8S 8S 3S 3S"), o) is None
    True
    """
    es = o.esuit
    if len(play) != lead.n:
        return None
    e0 = es[play[0]]
    for f in play:
        if es[f] != e0:
            return None
    if e0 != lead.esuit and e0 != TRUMP:
        return None
    cnt = _count_map(play)
    if lead.combo is not None:
        c = _combo(cnt, o)
        if c is None or not stronger_or_same(c.fmt, lead.combo.fmt):
            return None
        return (e0 == TRUMP, c.m, c.values)
    if e0 == lead.esuit:  # a throw is taken only by trumps from a void seat
        return None
    split = _best_split(cnt, o, [p.fmt for p in lead.parts])
    if split is None:
        return None
    return (True, 0, split)


def _best_split(cnt: dict[int, int], o: Order, fmts: list[Fmt]) -> tuple[tuple[int, ...], ...] | None:
    """The lexicographically highest list of component values splitting ``cnt`` into components of exactly
    ``fmts`` (in order), or ``None``."""
    if not fmts:
        return () if not any(cnt.values()) else None
    m, k = fmts[0]
    if m == 1 and all(f == (1, 1) for f in fmts):
        val = o.value
        rest = sorted((val[f] for f, c in cnt.items() for _ in range(c)), reverse=True)
        return tuple((v,) for v in rest) if len(rest) == len(fmts) else None
    cands = sorted(combos_of_format(cnt, o, TRUMP, m, k), key=lambda c: c.values, reverse=True)
    best: tuple[tuple[int, ...], ...] | None = None
    top: tuple[int, ...] | None = None
    for c in cands:
        if top is not None and c.values < top:
            break
        for f in c.faces:
            cnt[f] -= m
        tail = _best_split(cnt, o, fmts[1:])
        for f in c.faces:
            cnt[f] += m
        if tail is not None:
            full = (c.values, *tail)
            if best is None or full > best:
                best = full
            top = c.values
    return best


def trick_winner(lead: Lead, plays: Sequence[Sequence[int]], o: Order) -> int:
    """Index (into ``plays``, the lead's cards first, then the followers' in turn order) of the play that wins the
    trick (§6.7): each follower takes the trick if it competes and is strictly higher; the first of equals holds.

    >>> o = order("5", "H")           # §11 example 10
    >>> ps = [parse_cards(t) for t in ("KS KS", "3S 4S", "9H 9H", "2C 2C")]
    >>> trick_winner(read_lead(ps[0], o), ps, o)
    3
    >>> ps = [parse_cards(t) for t in ("KS", "5C", "5D", "AS")]      # §11 example 13: equal 副级, first wins
    >>> trick_winner(read_lead(ps[0], o), ps, o)
    1
    """
    best = 0
    bkey = lead_key(lead)
    if lead.is_throw and lead.esuit == TRUMP:
        return 0
    for i in range(1, len(plays)):
        key = play_key(lead, plays[i], o)
        if key is not None and key > bkey:
            best, bkey = i, key
    return best


def counts_map(cards: Iterable[int]) -> dict[int, int]:
    """``{face: count}`` of some cards."""
    return _count_map(cards)


def dense(cnt: Mapping[int, int]) -> list[int]:
    """A ``{face: count}`` map as 54 counts."""
    out = [0] * NUM_FACES
    for f, c in cnt.items():
        out[f] = c
    return out


_ = (order, parse_cards)  # the doctests' namespace
