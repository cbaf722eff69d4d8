"""The winning hand (RULES-mahjong.md §6): shapes, readings, 夹, the win check, waits and 向听 (shanten).

Hands here are the *concealed* tiles; melds come separately (a list of :class:`~.melds.Meld` or their text).
Functions accept text in the notation of §1.2 (``"234m 678p 24m ZZ | chi 567s"``: the melds may follow the
concealed tiles after ``|``) or a list of kinds.

>>> is_win("234m 678p 24m ZZ | chi 567s", "3m")
True
>>> waits("234m 678p 24m ZZ | chi 567s")
['3m']
>>> is_win("456m 789m 22m 55m | chi 123m", "5m")   # one suit only (清一色)
False
>>> shanten("234m 678p 24m ZZ | chi 567s"), shanten("234m 678p 24m ZZ 3m | chi 567s")
(0, -1)

How it is fast: every suit's 9 counts are a key into memo tables built on first use — for the win check the
set of (pair, triplet, sequence) combinations its complete splits can have, for 向听 the fewest missing tiles
for each number of sets, pair and feature (triplet / 幺九 / sequence).  A hand is then three look-ups and a small
combination; nothing is searched twice.

*向听* here is the number of tiles a hand is away from ready (0) or from a complete hand (−1) **meeting the
shape conditions of §6.2**: four sets and a pair with the melds, at least two suits, a triplet (or a 红中 pair),
a 1, 9 or 红中, and a sequence under ``need_sequence``.  It leaves out what tiles cannot change: being open
(a claim opens the hand) and ``bu_jia_bu_hu``.  ``plain=True`` gives the plain shape distance that other rule
sets use (four sets and a pair and nothing else), which is what the PyPI ``mahjong`` package computes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .melds import Meld, parse_hand, parse_melds
from .rules import DAQING, Rules
from .tiles import KINDS, YAOJIU, Z, format_tiles, parse_tile, parse_tiles, tile_name, to_counts

INF = 99
T_BIT, Y_BIT, S_BIT = 1, 2, 4
"""Feature bits: a triplet (or a 红中 pair), a 1/9/红中, a sequence."""

PLACES = ("middle", "edge", "two_sided", "single", "triplet")
PLACE_ZH = {"middle": "夹", "edge": "边", "two_sided": "两面", "single": "单调", "triplet": "对倒"}
"""Where the winning tile sits in a reading (§6.3)."""


# --------------------------------------------------------------------------------------------------------------
# Input helpers


@dataclass(frozen=True, slots=True)
class MeldSig:
    """What the win check needs to know about a seat's melds."""

    count: int
    features: int
    """T_BIT if a peng, S_BIT if a chi, Y_BIT if a meld holds a 1, 9 or 红中."""
    suits: int
    """Bit mask of the suits (m=1, p=2, s=4) the melds use."""
    copies: tuple[int, ...]
    """Per kind, how many copies the melds hold (28 entries)."""
    pengs: frozenset[int] = frozenset()
    """The kinds of the peng melds."""


_SIG_CACHE: dict[tuple[Meld, ...], MeldSig] = {}


def meld_sig(melds: Iterable[Meld]) -> MeldSig:
    """The :class:`MeldSig` of ``melds``.

    >>> s = meld_sig(parse_melds("peng ZZZ | chi 567s"))
    >>> s.count, s.features == T_BIT | Y_BIT | S_BIT, s.suits
    (2, True, 4)
    """
    key = tuple(melds)
    sig = _SIG_CACHE.get(key)
    if sig is None:
        f = 0
        suits = 0
        copies = [0] * KINDS
        for m in key:
            f |= S_BIT if m.is_chi else T_BIT
            if m.has_yaojiu():
                f |= Y_BIT
            if m.suit >= 0:
                suits |= 1 << m.suit
            for t in m.tiles:
                copies[t] += 1
        sig = MeldSig(len(key), f, suits, tuple(copies), frozenset(m.tiles[0] for m in key if not m.is_chi))
        if len(_SIG_CACHE) > 100_000:
            _SIG_CACHE.clear()
        _SIG_CACHE[key] = sig
    return sig


def _hand_input(hand: str | Sequence[int], melds: str | Iterable[Meld | str] | None) -> tuple[list[int], list[Meld]]:
    if isinstance(hand, str):
        kinds, ms = parse_hand(hand)
    else:
        kinds, ms = list(hand), []
    if melds is not None:
        ms = ms + parse_melds(melds)
    return to_counts(kinds), ms


def _tile_input(tile: str | int) -> int:
    return parse_tile(tile) if isinstance(tile, str) else tile


# --------------------------------------------------------------------------------------------------------------
# Complete shapes: which (pair, triplet, sequence) combinations a suit's complete splits can have.
# A combination is b = pair | T<<1 | S<<2 (0..7); a mask has bit b set when some split has combination b.

_WIN: dict[tuple[int, ...], int] = {}
_ADD = [[0] * 256 for _ in range(3)]
"""_ADD[0][mask]: mask with a triplet added to every combination; [1]: a pair added (combinations that had one
drop out); [2]: a sequence added."""
for _m in range(256):
    for _b in range(8):
        if _m >> _b & 1:
            _ADD[0][_m] |= 1 << (_b | 2)
            if not _b & 1:
                _ADD[1][_m] |= 1 << (_b | 1)
            _ADD[2][_m] |= 1 << (_b | 4)


def _suit_win(c: tuple[int, ...]) -> int:
    r = _WIN.get(c)
    if r is not None:
        return r
    i = 0
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        r = 1
    else:
        r = 0
        lst = list(c)
        if lst[i] >= 3:
            lst[i] -= 3
            r |= _ADD[0][_suit_win(tuple(lst))]
            lst[i] += 3
        if lst[i] >= 2:
            lst[i] -= 2
            r |= _ADD[1][_suit_win(tuple(lst))]
            lst[i] += 2
        if i <= 6 and lst[i + 1] and lst[i + 2]:
            lst[i] -= 1
            lst[i + 1] -= 1
            lst[i + 2] -= 1
            r |= _ADD[2][_suit_win(tuple(lst))]
    _WIN[c] = r
    return r


_PAIR_COMBOS = 0b10101010
_COMBINE: dict[tuple[int, int], int] = {}


def _combine(a: int, b: int) -> int:
    key = (a, b)
    r = _COMBINE.get(key)
    if r is None:
        r = 0
        for x in range(8):
            if a >> x & 1:
                for y in range(8):
                    if b >> y & 1 and not (x & y & 1):
                        r |= 1 << (x | y)
        _COMBINE[key] = r
    return r


_Z_MASK = (1, 0, 1 << 3, 1 << 2, 0)
"""Complete-shape masks of 0..4 红中: none; a pair (which also counts as the triplet, §6.2.2); a triplet."""
_FULL: dict[tuple[int, int, int, int], int] = {}


def shape_mask(counts: Sequence[int]) -> int:
    """The combinations (pair | triplet<<1 | sequence<<2) the complete splits of ``counts`` have (0: none)."""
    a = _suit_win(tuple(counts[0:9]))
    b = _suit_win(tuple(counts[9:18]))
    c = _suit_win(tuple(counts[18:27]))
    key = (a, b, c, counts[27])
    r = _FULL.get(key)
    if r is None:
        r = _combine(_combine(_combine(a, b), c), _Z_MASK[counts[27]])
        _FULL[key] = r
    return r


def is_complete(counts: Sequence[int]) -> bool:
    """Whether 28 counts split into sets and exactly one pair (§6.1, the plain shape; no seven pairs).

    >>> is_complete(to_counts([0, 1, 2, 27, 27]))
    True
    >>> is_complete(to_counts([0, 1, 3, 27, 27]))
    False
    """
    return bool(shape_mask(counts) & _PAIR_COMBOS)


# --------------------------------------------------------------------------------------------------------------
# The win check


def _hand_conditions(counts: Sequence[int], sig: MeldSig) -> bool:
    """§6.2.1 (two suits), .3 (open), .4 (幺九), .5 (at most three melds) — the conditions of the whole hand."""
    if not 1 <= sig.count <= 3:
        return False
    suits = sig.suits
    if any(counts[0:9]):
        suits |= 1
    if any(counts[9:18]):
        suits |= 2
    if any(counts[18:27]):
        suits |= 4
    if suits in (0, 1, 2, 4):
        return False
    return bool(sig.features & Y_BIT) or any(counts[k] for k in YAOJIU)


def _shape_ok(mask: int, sig: MeldSig, rules: Rules) -> bool:
    """Some complete split meets §6.2.2 (a triplet) and, under ``need_sequence``, §6.2.6."""
    need_t = not sig.features & T_BIT
    need_s = rules.need_sequence and not sig.features & S_BIT
    return any(mask >> b & 1 and not (need_t and not b & 2) and not (need_s and not b & 4) for b in (1, 3, 5, 7))


def win_counts(counts: Sequence[int], sig: MeldSig, rules: Rules = DAQING, win_tile: int | None = None) -> bool:
    """Whether concealed ``counts`` (winning tile included) with melds ``sig`` is a winning hand under §6.2.

    ``win_tile`` is needed only under ``bu_jia_bu_hu`` (the win must be 夹)."""
    if sum(counts) + 3 * sig.count != 14 or not _hand_conditions(counts, sig):
        return False
    mask = shape_mask(counts)
    if not _shape_ok(mask, sig, rules):
        return False
    if rules.bu_jia_bu_hu:
        if win_tile is None:
            raise ValueError("bu_jia_bu_hu needs the winning tile")
        return any(is_jia(place, rules) for _, place in _valid_readings(counts, win_tile, sig, rules))
    return True


def is_win(hand: str | Sequence[int], tile: str | int | None = None, melds: str | Iterable[Meld | str] | None = None,
           rules: Rules = DAQING, *, zhidui: str | int | None = None) -> bool:
    """Whether the concealed ``hand`` plus ``tile`` plus the melds is a winning hand (§6; without the 宝).

    ``tile`` may be left out when ``hand`` already holds it (it then is taken to be the last tile given, or, in
    text, the last one written).  ``zhidui``: after ``ting X zhidui Y`` only ``Y`` wins (§6.6).

    >>> is_win("345m 678m 55s 66s | chi 234p", "6s")   # no 1, 9 or 红中
    False
    >>> is_win("456m 789s 23m 55p | chi 123p", "1m")   # no triplet and the pair is not ZZ
    False
    >>> is_win("123m 456p 789s 111s 2m", "2m")         # not open
    False
    >>> is_win("4666m 789p 123s | chi 345s", "5m"), is_win("4666m 789p 123s | chi 345s", "4m")
    (False, True)
    """
    counts, ms = _hand_input(hand, melds)
    if tile is None:
        w = parse_tiles(hand.split("|")[0].split()[-1])[-1] if isinstance(hand, str) else list(hand)[-1]
        counts[w] -= 1
    else:
        w = _tile_input(tile)
    if zhidui is not None and _tile_input(zhidui) != w:
        return False
    counts[w] += 1
    return win_counts(counts, meld_sig(ms), rules, w)


# --------------------------------------------------------------------------------------------------------------
# Readings and 夹


Group = tuple[str, int]
"""A group of a reading: ``("seq", lowest kind)``, ``("trip", kind)`` or ``("pair", kind)``."""


def decompositions(counts: Sequence[int]) -> list[list[Group]]:
    """Every split of ``counts`` into sets and one pair (each list in canonical order).

    >>> [" ".join(f"{g}:{tile_name(k)}" for g, k in d) for d in decompositions(to_counts([0, 0, 0, 1, 1, 1, 2, 2,
    ...                                                                                   2, 13, 13]))]
    ['seq:1m seq:1m seq:1m pair:5p', 'trip:1m trip:2m trip:3m pair:5p']
    """
    out: list[list[Group]] = []
    c = list(counts)

    def rec(i: int, acc: list[Group], pair: bool) -> None:
        while i < KINDS and c[i] == 0:
            i += 1
        if i == KINDS:
            if pair:
                out.append(list(acc))
            return
        if i != Z and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            acc.append(("seq", i))
            rec(i, acc, pair)
            acc.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if not pair and c[i] >= 2:
            c[i] -= 2
            acc.append(("pair", i))
            rec(i, acc, True)
            acc.pop()
            c[i] += 2
        if c[i] >= 3:
            c[i] -= 3
            acc.append(("trip", i))
            rec(i, acc, pair)
            acc.pop()
            c[i] += 3

    rec(0, [], False)
    return out


def place_of(group: Group, tile: int) -> str:
    """Where ``tile`` sits in ``group`` (§6.3): ``middle`` (夹), ``edge`` (边), ``two_sided`` (两面), ``single``
    (单调) or ``triplet`` (对倒).

    >>> place_of(("seq", 3), 4), place_of(("seq", 18), 20), place_of(("seq", 6), 6), place_of(("seq", 0), 0)
    ('middle', 'edge', 'edge', 'two_sided')
    """
    kind, k = group
    if kind == "pair":
        return "single"
    if kind == "trip":
        return "triplet"
    if tile == k + 1:
        return "middle"
    if (tile == k + 2 and k % 9 == 0) or (tile == k and k % 9 == 6):
        return "edge"
    return "two_sided"


def is_jia(place: str, rules: Rules = DAQING) -> bool:
    """Whether a place counts as 夹 under the options (``jia_37``: 边 too; ``dan_diao_jia``: 单调 too)."""
    return place == "middle" or (rules.jia_37 and place == "edge") or (rules.dan_diao_jia and place == "single")


def _reading_ok(groups: Sequence[Group], sig: MeldSig, rules: Rules) -> bool:
    has_t = bool(sig.features & T_BIT) or any(g == "trip" or (g == "pair" and k == Z) for g, k in groups)
    if not has_t:
        return False
    if rules.need_sequence:
        return bool(sig.features & S_BIT) or any(g == "seq" for g, _ in groups)
    return True


def _valid_readings(counts: Sequence[int], tile: int, sig: MeldSig, rules: Rules) -> list[tuple[list[Group], str]]:
    out: list[tuple[list[Group], str]] = []
    for d in decompositions(counts):
        if not _reading_ok(d, sig, rules):
            continue
        seen: set[Group] = set()
        for g in d:
            if g in seen:
                continue
            gk, k = g
            holds = (tile == k) if gk != "seq" else (k <= tile <= k + 2)
            if holds:
                seen.add(g)
                out.append((d, place_of(g, tile)))
    return out


@dataclass(frozen=True, slots=True)
class Reading:
    """How a winning hand is read: the groups of the concealed part and where the winning tile sits."""

    groups: tuple[Group, ...]
    tile: int
    place: str

    def text(self) -> str:
        """The reading in tile notation, e.g. ``234m 234m 678p ZZ``."""
        parts = []
        for g, k in self.groups:
            ks = [k, k + 1, k + 2] if g == "seq" else [k] * (3 if g == "trip" else 2)
            parts.append(format_tiles(ks))
        return " ".join(parts)


def best_reading(counts: Sequence[int], tile: int, sig: MeldSig, rules: Rules = DAQING) -> Reading | None:
    """A valid reading of the winning hand ``counts`` (``tile`` included), 夹 preferred; ``None`` if none."""
    best: Reading | None = None
    for d, place in _valid_readings(counts, tile, sig, rules):
        if rules.bu_jia_bu_hu and not is_jia(place, rules):
            continue
        r = Reading(tuple(d), tile, place)
        if best is None or (is_jia(place, rules) and not is_jia(best.place, rules)):
            best = r
    return best


# --------------------------------------------------------------------------------------------------------------
# Waits and wins with the 宝


def natural_win(counts: Sequence[int], tile: int, sig: MeldSig, rules: Rules = DAQING,
                zhidui: int | None = None) -> Reading | None:
    """The reading of the win of ``tile`` on concealed ``counts`` (without ``tile``), or ``None``.  After
    ``ting X zhidui Y`` only ``Y`` wins, completing the triplet ``YYY`` (§6.6)."""
    c = list(counts)
    c[tile] += 1
    if zhidui is not None:
        return zhidui_reading(c, zhidui, sig, rules) if tile == zhidui else None
    if not win_counts(c, sig, rules, tile):
        return None
    return best_reading(c, tile, sig, rules)


def zhidui_reading(counts: Sequence[int], tile: int, sig: MeldSig, rules: Rules = DAQING) -> Reading | None:
    """A reading of the winning hand ``counts`` (``tile`` included) in which ``tile`` completes a concealed
    triplet — the only win a 支对 leaves (§6.6; it counts as 夹, so ``bu_jia_bu_hu`` does not stop it)."""
    if sum(counts) + 3 * sig.count != 14 or not _hand_conditions(counts, sig):
        return None
    for d, place in _valid_readings(counts, tile, sig, rules):
        if place == "triplet":
            return Reading(tuple(d), tile, place)
    return None


def zhidui_ok(counts: Sequence[int], tile: int, sig: MeldSig, rules: Rules = DAQING) -> bool:
    """Whether the ready hand ``counts`` (13 − 3·melds tiles) may declare 支对 on ``tile``: it holds the pair and
    ``tile`` wins as the third of a triplet.  A kind whose four copies he holds himself (hand and melds) is no
    wait (§4.1), so no 支对 either.

    >>> from .melds import parse_melds
    >>> c = to_counts(parse_tiles("123m 456p 77s 99s"))
    >>> sig = meld_sig(parse_melds("chi 345s"))
    >>> zhidui_ok(c, parse_tile("7s"), sig), zhidui_ok(c, parse_tile("8s"), sig)
    (True, False)
    """
    if counts[tile] < 2 or counts[tile] + sig.copies[tile] >= 4:
        return False
    c = list(counts)
    c[tile] += 1
    return zhidui_reading(c, tile, sig, rules) is not None


def wait_kinds(counts: Sequence[int], sig: MeldSig, rules: Rules = DAQING, zhidui: int | None = None) -> list[int]:
    """The kinds that complete ``counts`` + melds into a winning hand (§4.1), less the kinds the player holds all
    four of.  After a 支对 declaration only ``zhidui``."""
    if sum(counts) + 3 * sig.count != 13:
        return []
    if zhidui is not None:
        ok = counts[zhidui] + sig.copies[zhidui] < 4 and natural_win(counts, zhidui, sig, rules, zhidui) is not None
        return [zhidui] if ok else []
    out = []
    c = list(counts)
    for k in _candidates(counts):
        if c[k] + sig.copies[k] >= 4:
            continue
        c[k] += 1
        if win_counts(c, sig, rules, k):
            out.append(k)
        c[k] -= 1
    return out


def _candidates(counts: Sequence[int]) -> list[int]:
    """Kinds that can complete a hand: held kinds and suited kinds within two ranks of a held tile."""
    out = []
    for k in range(KINDS):
        if counts[k]:
            out.append(k)
        elif k != Z:
            r = k % 9
            lo = k - min(r, 2)
            hi = k + min(8 - r, 2)
            if any(counts[j] for j in range(lo, hi + 1)):
                out.append(k)
    return out


def waits(hand: str | Sequence[int], melds: str | Iterable[Meld | str] | None = None, rules: Rules = DAQING,
          *, zhidui: str | int | None = None) -> list[str]:
    """The waits of a ready hand (13 − 3·melds concealed tiles), in canonical order.

    >>> waits("4666m 789p 123s | peng 222s")
    ['4m', '5m']
    >>> waits("4444m 567m | peng 111p | chi 789s")     # he holds all four 4m
    ['7m']
    >>> waits("234m 456m 678p 5s | peng 666s")         # no 1, 9 or 红中
    []
    """
    counts, ms = _hand_input(hand, melds)
    z = None if zhidui is None else _tile_input(zhidui)
    return [tile_name(k) for k in wait_kinds(counts, meld_sig(ms), rules, z)]


HAND_FANS = ("self_drawn", "jia", "bao", "bao_zhong_bao")
"""The hand fans (the same for every loser), in the order the settlement lists them (§7.1)."""


@dataclass(frozen=True, slots=True)
class Win:
    """A win as the settlement needs it: the hand fans and how the hand was read."""

    tile: int
    """The tile that won (the drawn or discarded tile)."""
    read_as: int
    """The kind the tile stands for (itself, or the wait a 宝 / 红中 / 刮大风 tile is read as)."""
    self_drawn: bool
    wild: bool
    """A 摸宝-type win (the 宝, 红中满天飞, 刮大风, 带漏)."""
    reading: Reading
    fans: tuple[str, ...]


def evaluate_win(counts: Sequence[int], sig: MeldSig, tile: int, rules: Rules = DAQING, *, self_drawn: bool,
                 ready: bool, bao: int | None = None, zhidui: int | None = None, wild: bool | None = None,
                 ) -> Win | None:
    """The best win of ``tile`` on concealed ``counts`` (without the tile), or ``None`` if it does not win.

    A self-drawn tile of the 宝's kind (and, with the options, a 红中 or a kind the player has a triplet of) wins
    for a ready player as any of his waits (§5.2, §5.4); the reading with the most hand fans is taken.
    ``wild`` forces (``True``) or forbids (``False``) that reading (the engine uses it for 带漏)."""
    cands: list[Win] = []
    if zhidui is None or tile == zhidui:
        r = natural_win(counts, tile, sig, rules, zhidui)
        if r is not None:
            jia = is_jia(r.place, rules) or (zhidui is not None and tile == zhidui)
            fs: tuple[str, ...] = (("self_drawn",) if self_drawn else ()) + (("jia",) if jia else ())
            cands.append(Win(tile, tile, self_drawn, False, r, fs))
    if wild is None:
        wild = self_drawn and ready and (
            (bao is not None and tile == bao) or (rules.hongzhong_wild and tile == Z)
            or (rules.gua_da_feng and (counts[tile] >= 3 or tile in sig.pengs)))
    if wild and ready:
        for w in wait_kinds(counts, sig, rules, zhidui):
            r = natural_win(counts, w, sig, rules, zhidui)
            if r is None:
                continue
            jia = is_jia(r.place, rules) or (zhidui is not None and w == zhidui)
            fs = ("self_drawn",) + (("jia",) if jia else ()) + ("bao",)
            if jia and bao is not None and tile == bao and w == tile:
                fs += ("bao_zhong_bao",)
            cands.append(Win(tile, w, True, True, r, fs))
    if not cands:
        return None
    return max(cands, key=lambda w: (len(w.fans), -w.read_as))


def fans(hand: str | Sequence[int], tile: str | int, melds: str | Iterable[Meld | str] | None = None,
         rules: Rules = DAQING, *, self_drawn: bool = False, ready: bool = True, bao: str | int | None = None,
         zhidui: str | int | None = None) -> list[str] | None:
    """The hand fans (§7.1: ``self_drawn`` 自摸, ``jia`` 夹, ``bao`` 宝, ``bao_zhong_bao`` 宝中宝) of winning with
    ``tile``, or ``None`` if it does not win.

    >>> h = "234m 678p 24m ZZ | chi 567s"
    >>> fans(h, "3m"), fans(h, "3m", self_drawn=True)
    (['jia'], ['self_drawn', 'jia'])
    >>> fans(h, "8p", self_drawn=True, bao="8p"), fans(h, "3m", self_drawn=True, bao="3m")
    (['self_drawn', 'jia', 'bao'], ['self_drawn', 'jia', 'bao', 'bao_zhong_bao'])
    >>> fans(h, "3m", bao="3m")        # a discarded 宝 is only its face
    ['jia']
    """
    counts, ms = _hand_input(hand, melds)
    w = evaluate_win(counts, meld_sig(ms), _tile_input(tile), rules, self_drawn=self_drawn, ready=ready,
                     bao=None if bao is None else _tile_input(bao),
                     zhidui=None if zhidui is None else _tile_input(zhidui))
    return None if w is None else list(w.fans)


# --------------------------------------------------------------------------------------------------------------
# 向听 (shanten)
#
# For each suit pattern a DP over the ranks finds, for every (sets n, pair p, features f), the fewest missing
# tiles of a target (n sets and p pairs using at least one held tile each; held tiles not used are discarded).
# Blocks made only of missing tiles ("free" blocks, 3 per set and 2 per pair, any features, any suit) are added
# when suits are combined.  The 4-copy limit is kept within a suit (no target needs a fifth copy).

_PLAIN: dict[tuple[int, ...], tuple[int, ...]] = {}
_FEAT: dict[tuple[int, ...], tuple[tuple[int, int, int, int], ...]] = {}
_CLOSURE: dict[tuple[tuple[int, ...], bool], list[int]] = {}
_PARTIAL: dict[tuple[object, ...], tuple[tuple[int, int], ...]] = {}
_CACHE_LIMIT = 400_000


def _suit_dp(c: tuple[int, ...], feats: bool, bound: int = 11) -> dict[tuple[int, int, int], int]:
    states: dict[tuple[int, int, int, int, int], int] = {(0, 0, 0, 0, 0): 0}
    cc = (*c, 0, 0)
    for i in range(9):
        ci = cc[i]
        term = feats and i in (0, 8)
        seq_ok = i <= 6 and (ci or cc[i + 1] or cc[i + 2])
        tq = (0, 1) if ci else (0,)
        new: dict[tuple[int, int, int, int, int], int] = {}
        get = new.get
        for (c1, c2, n, p, f), cost in states.items():
            base = c1 + c2
            xmax = 4 - n if seq_ok else 0
            for x in range(xmax + 1):
                nb = base + x
                if nb > 4:
                    break
                for t in tq:
                    nn = n + x + t
                    if nn > 4:
                        break
                    for q in tq:
                        if q and p:
                            break
                        need = nb + 3 * t + 2 * q
                        if need > 4:
                            break
                        m = need - ci
                        nc = cost + m if m > 0 else cost
                        if nc > bound:
                            continue
                        nf = f
                        if feats:
                            if t:
                                nf |= T_BIT
                            if x:
                                nf |= S_BIT
                            if term and need:
                                nf |= Y_BIT
                        key = (x, c1, nn, p | q, nf)
                        old = get(key)
                        if old is None or old > nc:
                            new[key] = nc
        states = new
    out: dict[tuple[int, int, int], int] = {}
    for (_c1, _c2, n, p, f), cost in states.items():
        k = (n, p, f)
        if out.get(k, INF) > cost:
            out[k] = cost
    return out


_REC: dict[tuple[tuple[int, ...], tuple[int, ...], bool], dict[tuple[int, int, int], int]] = {}
_ZERO5 = (0, 0, 0, 0, 0)
_EMPTY = (0,) * 9


_RAW: dict[tuple[int, ...], dict[tuple[int, int, int], int]] = {}
_SEG_PLAIN: dict[tuple[int, ...], tuple[int, ...]] = {}


def _segments(c: tuple[int, ...], clip: int = 3) -> list[tuple[int, ...]]:
    """The suit pattern cut where two empty ranks part its tiles (no block spans them, and at most four
    sequences cross a gap, so no kind is needed five times), each piece as a pattern of its own.  A piece with
    at least ``clip`` empty ranks on both sides is moved to start at rank ``clip + 1``: its blocks then reach
    neither end of the suit wherever it lies (``clip`` 3: no block reaches a 1 or a 9; 2: every sequence fits)."""
    out: list[tuple[int, ...]] = []
    i = 0
    while i < 9:
        if c[i] == 0:
            i += 1
            continue
        lo = hi = i
        j = i + 1
        gap = 0
        while j < 9:
            if c[j]:
                hi = j
                gap = 0
            else:
                gap += 1
                if gap >= 2:
                    break
            j += 1
        piece = list(c[lo:hi + 1])
        start = clip if lo >= clip and hi <= 8 - clip else lo
        out.append(tuple([0] * start + piece + [0] * (9 - start - len(piece))))
        i = hi + 1
    return out


def _merge(a: dict[tuple[int, int, int], int], b: dict[tuple[int, int, int], int]) -> dict[tuple[int, int, int], int]:
    out: dict[tuple[int, int, int], int] = {}
    get = out.get
    for (n1, p1, f1), c1 in a.items():
        for (n2, p2, f2), c2 in b.items():
            n = n1 + n2
            p = p1 + p2
            if n > 4 or p > 1:
                continue
            k = (n, p, f1 | f2)
            v = c1 + c2
            old = get(k)
            if old is None or old > v:
                out[k] = v
    return out


def _suit_table_raw(c: tuple[int, ...]) -> dict[tuple[int, int, int], int]:
    """(n sets, p pairs, features) -> fewest missing tiles for suit pattern ``c``, every block using at least one
    held tile (blocks of missing tiles only are added when suits are combined)."""
    r = _RAW.get(c)
    if r is None:
        segs = _segments(c)
        if not segs:
            r = {(0, 0, 0): 0}
        elif len(segs) == 1 and segs[0] == c:
            r = _suit_rec(c, _ZERO5)
        else:
            r = _suit_table_raw(segs[0])
            for sg in segs[1:]:
                r = _merge(r, _suit_table_raw(sg))
        if len(_RAW) > _CACHE_LIMIT:
            _RAW.clear()
        _RAW[c] = r
    return r


def _plain_raw(c: tuple[int, ...]) -> tuple[int, ...]:
    """Dense ``[n * 2 + p]`` of :func:`_suit_table_raw` without the features, merged segment by segment."""
    r = _SEG_PLAIN.get(c)
    if r is None:
        segs = _segments(c, 2)
        if (len(segs) == 1 and segs[0] == c) or not segs:
            exact = [INF] * 10
            raw = _suit_rec(c, _ZERO5, False) if segs else {(0, 0, 0): 0}
            for (n, p, _f), cost in raw.items():
                i = n * 2 + p
                if exact[i] > cost:
                    exact[i] = cost
        else:
            exact = list(_plain_raw(segs[0]))
            for sg in segs[1:]:
                other = _plain_raw(sg)
                new = [INF] * 10
                for i in range(10):
                    if exact[i] >= INF:
                        continue
                    n1, p1 = divmod(i, 2)
                    for j in range(10):
                        n2, p2 = divmod(j, 2)
                        if n1 + n2 > 4 or p1 + p2 > 1:
                            continue
                        v = exact[i] + other[j]
                        k = (n1 + n2) * 2 + p1 + p2
                        if v < new[k]:
                            new[k] = v
                exact = new
        r = tuple(exact)
        if len(_SEG_PLAIN) > _CACHE_LIMIT:
            _SEG_PLAIN.clear()
        _SEG_PLAIN[c] = r
    return r


def _suit_rec(c: tuple[int, ...], t: tuple[int, ...], feats: bool = True) -> dict[tuple[int, int, int], int]:
    """The recursion behind :func:`_suit_table_raw`.  Blocks are taken from the lowest held rank ``i``, using every
    held tile they can (never worse); ``t`` holds how many copies the target already has at ranks ``i-2..i+2``,
    so that no kind is ever needed five times.  Sub-patterns are shared between patterns through the memo.
    ``feats`` False leaves the features out (all 0): the plain shape distance, with far smaller tables."""
    key = (c, t, feats)
    r = _REC.get(key)
    if r is not None:
        return r
    i = 0
    while c[i] == 0:
        i += 1
    out: dict[tuple[int, int, int], int] = {}
    get = out.get
    lst = list(c)
    tl = list(t)

    def child(dn: int, dp: int, df: int, cost: int) -> None:
        nc = tuple(lst)
        if nc == _EMPTY:
            sub = {(0, 0, 0): 0}
        else:
            j = i
            while nc[j] == 0:
                j += 1
            d = j - i
            nt = [tl[k + d] if k + d < 5 else 0 for k in range(5)] if d else list(tl)
            # below the anchor only sequences can add copies; one copy there came from a sequence, so at most
            # three more sets follow and four copies are never exceeded: forget it (better sharing)
            if nt[0] == 1:
                nt[0] = 0
            if nt[1] == 1:
                nt[1] = 0
            sub = _suit_rec(nc, tuple(nt), feats)
        for (n, p, f), v in sub.items():
            nn = n + dn
            pp = p + dp
            if nn > 4 or pp > 1:
                continue
            k2 = (nn, pp, f | df)
            val = v + cost
            old = get(k2)
            if old is None or old > val:
                out[k2] = val

    ci = lst[i]
    yi = Y_BIT if feats and i in (0, 8) else 0
    ft, fs = (T_BIT, S_BIT) if feats else (0, 0)
    # drop one tile of rank i
    lst[i] = ci - 1
    child(0, 0, 0, 0)
    # a triplet / a pair at rank i
    for size, dn, dp, f in ((3, 1, 0, ft | yi), (2, 0, 1, yi)):
        j = ci if ci < size else size
        if tl[2] + size <= 4:
            lst[i] = ci - j
            tl[2] += size
            child(dn, dp, f, size - j)
            tl[2] -= size
    lst[i] = ci - 1
    # a sequence holding this tile of rank i (lower ranks of it are missing: i is the lowest held rank)
    for start in (i - 2, i - 1, i):
        if start < 0 or start > 6:
            continue
        if any(tl[start - i + 2 + k] >= 4 for k in range(3)):
            continue
        used = [rk for rk in (start + 1, start + 2) if rk > i and lst[rk]]
        for rk in used:
            lst[rk] -= 1
        for k in range(3):
            tl[start - i + 2 + k] += 1
        child(1, 0, fs | (Y_BIT if feats and start in (0, 6) else 0), 2 - len(used))
        for k in range(3):
            tl[start - i + 2 + k] -= 1
        for rk in used:
            lst[rk] += 1
    if len(_REC) > _CACHE_LIMIT:
        _REC.clear()
    _REC[key] = out
    return out


def _plain_table(c: tuple[int, ...]) -> tuple[int, ...]:
    """Dense ``[n * 2 + p]``: the fewest missing tiles for n sets and p pairs in this suit, free blocks included."""
    r = _PLAIN.get(c)
    if r is None:
        exact = _plain_raw(c)
        dense = [INF] * 10
        for n in range(5):
            for p in (0, 1):
                best = INF
                for n2 in range(n + 1):
                    for p2 in range(p + 1):
                        v = exact[n2 * 2 + p2] + 3 * (n - n2) + 2 * (p - p2)
                        if v < best:
                            best = v
                dense[n * 2 + p] = best
        r = tuple(dense)
        if len(_PLAIN) > _CACHE_LIMIT:
            _PLAIN.clear()
        _PLAIN[c] = r
    return r


def shanten_plain_counts(counts: Sequence[int]) -> int:
    """Plain 向听 of concealed ``counts`` (1, 2, 4, 5, 7, 8, 10, 11, 13 or 14 tiles): the fewest tiles to a
    complete four-sets-and-a-pair shape, minus one; 红中 only makes pairs and triplets.

    >>> shanten_plain_counts(to_counts([0, 1, 2, 9, 10, 11, 18, 19, 20, 3, 4, 5, 6]))
    0
    """
    k = sum(counts) // 3
    a = _plain_table(tuple(counts[0:9]))
    b = _plain_table(tuple(counts[9:18]))
    c = _plain_table(tuple(counts[18:27]))
    cz = counts[27]
    zp = 2 - cz if cz < 2 else 0
    zt = 3 - cz if cz < 3 else 0
    # a + b, then 红中, for n <= k
    ab0 = [INF] * (k + 1)
    ab1 = [INF] * (k + 1)
    for i in range(k + 1):
        a0 = a[2 * i]
        a1 = a[2 * i + 1]
        for j in range(k + 1 - i):
            b0 = b[2 * j]
            v = a0 + b0
            if v < ab0[i + j]:
                ab0[i + j] = v
            v = a1 + b0
            w = a0 + b[2 * j + 1]
            if w < v:
                v = w
            if v < ab1[i + j]:
                ab1[i + j] = v
    best = INF
    for n in range(k + 1):
        z0 = ab0[n]
        z1 = ab1[n]
        v = ab0[n] + zp
        if v < z1:
            z1 = v
        if n:
            v = ab0[n - 1] + zt
            if v < z0:
                z0 = v
            v = ab1[n - 1] + zt
            if v < z1:
                z1 = v
        m = k - n
        v = z0 + c[2 * m + 1]
        if v < best:
            best = v
        v = z1 + c[2 * m]
        if v < best:
            best = v
    return best - 1


def _feat_table(c: tuple[int, ...]) -> tuple[tuple[int, int, int, int], ...]:
    """(n, p, features, cost) entries of a suit pattern (blocks using held tiles only; dominated ones dropped)."""
    r = _FEAT.get(c)
    if r is None:
        raw = _suit_table_raw(c)
        entries = []
        for (n, p, f), cost in raw.items():
            if (n, p) != (0, 0) and cost >= 3 * n + 2 * p:
                continue
            dominated = False
            for f2 in range(8):
                if f2 != f and f2 & f == f:
                    c2 = raw.get((n, p, f2))
                    if c2 is not None and c2 <= cost:
                        dominated = True
                        break
            if not dominated:
                entries.append((n, p, f, cost))
        r = tuple(sorted(entries))
        if len(_FEAT) > _CACHE_LIMIT:
            _FEAT.clear()
        _FEAT[c] = r
    return r


_FREE: tuple[tuple[int, int, int, int, int], ...] = tuple(
    (a, b, f, min(a + b, 2), 3 * a + 2 * b)
    for a in range(5) for b in (0, 1)
    for f in ((0,) if a + b == 0 else (Y_BIT,) if a == 0 else (Y_BIT | T_BIT, Y_BIT | S_BIT) if a == 1
              else (Y_BIT | T_BIT | S_BIT,))
)
"""(sets, pair, features, suits they can add, cost) of blocks made only of missing tiles: a set of them can be a
terminal triplet or 123, a pair a terminal pair, each in a suit the hand does not use."""


def _closure(c: tuple[int, ...], own: bool) -> list[int]:
    """Dense ``[((n * 2 + p) * 8 + f) * 3 + q]``: the fewest missing tiles for n sets and p pairs in this suit
    plus free blocks, with at least features f and adding at least q suits (``own``: this suit counts)."""
    key = (c, own)
    r = _CLOSURE.get(key)
    if r is None:
        r = [INF] * 240
        for n, p, f, cost in _feat_table(c):
            pres = 1 if own and (n or p) else 0
            for a, b, f2, q2, c2 in _FREE:
                nn = n + a
                pp = p + b
                if nn > 4 or pp > 1:
                    continue
                q = pres + q2
                i = ((nn * 2 + pp) * 8 + (f | f2)) * 3 + (q if q < 2 else 2)
                v = cost + c2
                if v < r[i]:
                    r[i] = v
        for np_ in range(10):
            for q in (2, 1):  # adding q suits implies adding q - 1
                for f in range(8):
                    i = (np_ * 8 + f) * 3
                    if r[i + q] < r[i + q - 1]:
                        r[i + q - 1] = r[i + q]
            for bit in (1, 2, 4):
                for f in range(8):
                    if f & bit:
                        for q in range(3):
                            i = (np_ * 8 + f) * 3 + q
                            j = (np_ * 8 + (f ^ bit)) * 3 + q
                            if r[i] < r[j]:
                                r[j] = r[i]
        if len(_CLOSURE) > _CACHE_LIMIT:
            _CLOSURE.clear()
        _CLOSURE[key] = r
    return r


_HALF: dict[tuple[object, ...], dict[tuple[int, int, int, int], int]] = {}


def _half(kb: tuple[int, ...], own_b: bool, cz: int, zcap: int, k: int, need: int,
          mcnt: int) -> dict[tuple[int, int, int, int], int]:
    """红中 and one suit combined: (n, p, features, suits) -> cost."""
    key = (kb, own_b, cz, zcap, k, need, mcnt)
    r = _HALF.get(key)
    if r is None:
        m0 = mcnt if mcnt < 2 else 2
        zf = (T_BIT | Y_BIT) & need
        states: dict[tuple[int, int, int, int], int] = {(0, 0, 0, m0): 0}
        if zcap >= 2:
            states[(0, 1, zf, m0)] = 2 - cz if cz < 2 else 0
        if zcap >= 3 and k >= 1:
            states[(1, 0, zf, m0)] = 3 - cz if cz < 3 else 0
        r = _extend(states, _feat_table(kb), own_b, k, need)
        if len(_HALF) > _CACHE_LIMIT:
            _HALF.clear()
        _HALF[key] = r
    return r


def _extend(states: dict[tuple[int, int, int, int], int], table: tuple[tuple[int, int, int, int], ...], own: bool,
            k: int, need: int) -> dict[tuple[int, int, int, int], int]:
    new: dict[tuple[int, int, int, int], int] = {}
    get = new.get
    for (n, p, f, pc), cost in states.items():
        for n2, p2, f2, c2 in table:
            nn = n + n2
            pp = p + p2
            if nn > k or pp > 1:
                continue
            pr = pc + 1 if own and pc < 2 and (n2 or p2) else pc
            sk = (nn, pp, f | (f2 & need), pr)
            tot = cost + c2
            old = get(sk)
            if old is None or old > tot:
                new[sk] = tot
    return new


def _partial(ka: tuple[int, ...], kb: tuple[int, ...], own_a: bool, own_b: bool, cz: int, zcap: int, k: int,
             need: int, mcnt: int) -> tuple[tuple[int, int], ...]:
    """红中 and two suits combined: ``(cost, index into the third suit's closure)`` pairs, cheapest first (the
    index names the sets, pair, features and suits the third suit must still bring).  Built on whichever of the
    two halves (红中 and one suit) is known already: the hints and bots change one suit at a time."""
    key = (ka, kb, own_a, own_b, cz, zcap, k, need, mcnt)
    r = _PARTIAL.get(key)
    if r is None:
        if (ka, own_a, cz, zcap, k, need, mcnt) in _HALF:
            states = _extend(_half(ka, own_a, cz, zcap, k, need, mcnt), _feat_table(kb), own_b, k, need)
        else:
            states = _extend(_half(kb, own_b, cz, zcap, k, need, mcnt), _feat_table(ka), own_a, k, need)
        best: dict[int, int] = {}
        for (n, p, f, pc), cost in states.items():
            idx = (((k - n) * 2 + 1 - p) * 8 + (need & ~f)) * 3 + (2 - pc)
            if best.get(idx, INF) > cost:
                best[idx] = cost
        r = tuple(sorted((cost, idx) for idx, cost in best.items()))
        if len(_PARTIAL) > _CACHE_LIMIT:
            _PARTIAL.clear()
        _PARTIAL[key] = r
    return r


_ORDER = ((1, 2, 0), (0, 2, 1), (0, 1, 2))


def _finish(part: tuple[tuple[int, int], ...], clo: list[int]) -> int:
    best = INF
    for cost, idx in part:
        if cost >= best:
            break
        v = cost + clo[idx]
        if v < best:
            best = v
    return best - 1


def _parts(counts: Sequence[int], sig: MeldSig, rules: Rules, last: int,
           k: int) -> tuple[tuple[tuple[int, int], ...], bool]:
    need = (T_BIT | Y_BIT | (S_BIT if rules.need_sequence else 0)) & ~sig.features
    msuits = sig.suits
    mcnt = (msuits & 1) + (msuits >> 1 & 1) + (msuits >> 2 & 1)
    sa, sb, sc = _ORDER[last]
    part = _partial(tuple(counts[9 * sa:9 * sa + 9]), tuple(counts[9 * sb:9 * sb + 9]), not msuits >> sa & 1,
                    not msuits >> sb & 1, counts[27], 4 - sig.copies[27], k, need, mcnt)
    return part, not msuits >> sc & 1


def shanten_counts(counts: Sequence[int], sig: MeldSig | None = None, rules: Rules = DAQING, last: int = 2) -> int:
    """Daqing 向听 of concealed ``counts`` with melds ``sig`` (see the module text): −1 complete, 0 ready.

    ``last`` (0, 1, 2) names the suit combined last: calls that differ only in that suit share the rest of the
    work (see :func:`discard_shanten` and :func:`draw_shanten`)."""
    if sig is None:
        sig = _NO_MELDS
    n = sum(counts)
    if n + 3 * sig.count > 14:
        raise ValueError(f"a hand has at most 14 tiles with its melds, got {n} and {sig.count} melds")
    part, own = _parts(counts, sig, rules, last, n // 3)
    return _finish(part, _closure(tuple(counts[9 * last:9 * last + 9]), own))


def discard_shanten(counts: Sequence[int], sig: MeldSig | None = None, rules: Rules = DAQING) -> dict[int, int]:
    """向听 after each possible discard from ``counts`` (a hand of 14 − 3·melds tiles), by kind.

    >>> d = discard_shanten(to_counts(parse_tiles("234m 678p 24m ZZ 9s")), meld_sig(parse_melds("chi 567s")))
    >>> d[parse_tile("9s")], d[parse_tile("2m")]
    (0, 1)
    """
    if sig is None:
        sig = _NO_MELDS
    out: dict[int, int] = {}
    k = (sum(counts) - 1) // 3
    for s in range(3):
        base = list(counts[9 * s:9 * s + 9])
        if not any(base):
            continue
        part, own = _parts(counts, sig, rules, s, k)
        for r in range(9):
            if base[r]:
                base[r] -= 1
                out[9 * s + r] = _finish(part, _closure(tuple(base), own))
                base[r] += 1
    if counts[Z]:
        c = list(counts)
        c[Z] -= 1
        out[Z] = shanten_counts(c, sig, rules)
    return dict(sorted(out.items()))


def draw_shanten(counts: Sequence[int], sig: MeldSig | None = None, rules: Rules = DAQING,
                 kinds: Iterable[int] | None = None) -> dict[int, int]:
    """向听 after drawing each kind (that the hand holds fewer than four of; only ``kinds`` if given) into
    ``counts`` (13 − 3·melds tiles), by kind."""
    if sig is None:
        sig = _NO_MELDS
    want = set(range(KINDS) if kinds is None else kinds)
    out: dict[int, int] = {}
    k = (sum(counts) + 1) // 3
    for s in range(3):
        if not any(9 * s + r in want for r in range(9)):
            continue
        base = list(counts[9 * s:9 * s + 9])
        part, own = _parts(counts, sig, rules, s, k)
        for r in range(9):
            if base[r] < 4 and 9 * s + r in want:
                base[r] += 1
                out[9 * s + r] = _finish(part, _closure(tuple(base), own))
                base[r] -= 1
    if counts[Z] < 4 and Z in want:
        c = list(counts)
        c[Z] += 1
        out[Z] = shanten_counts(c, sig, rules)
    return out


_NO_MELDS = MeldSig(0, 0, 0, (0,) * KINDS)


def shanten(hand: str | Sequence[int], melds: str | Iterable[Meld | str] | None = None, rules: Rules = DAQING,
            *, plain: bool = False) -> int:
    """向听 of the concealed hand (13 or 14 − 3·melds tiles): −1 complete, 0 ready, 1 one tile from ready …

    >>> shanten("123m 456p 789s 11s 55m"), shanten("123m 456p 789s 11s 5m 9m")   # being open is left aside
    (0, 1)
    >>> shanten("234m 456m 678p 5s | peng 666s")        # no 1, 9 or 红中 can come into this hand
    1
    >>> shanten("234m 456m 678p 5s | peng 666s", plain=True)
    0
    """
    counts, ms = _hand_input(hand, melds)
    if plain:
        return shanten_plain_counts(counts)
    return shanten_counts(counts, meld_sig(ms), rules)


__all__ = [
    "HAND_FANS",
    "PLACES",
    "PLACE_ZH",
    "MeldSig",
    "Reading",
    "Win",
    "best_reading",
    "decompositions",
    "discard_shanten",
    "draw_shanten",
    "evaluate_win",
    "fans",
    "is_complete",
    "is_jia",
    "is_win",
    "meld_sig",
    "natural_win",
    "place_of",
    "shanten",
    "shanten_counts",
    "shanten_plain_counts",
    "shape_mask",
    "wait_kinds",
    "waits",
    "win_counts",
    "zhidui_ok",
    "zhidui_reading",
]
