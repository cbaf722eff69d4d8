"""Re-dealing what one seat cannot see (:meth:`ShengjiGame.resample`), for search bots and the conformance suite.

What seat ``s`` knows and every sample keeps: its own dealt cards (in their deal positions); every card played
and by whom; the cards shown by failed throws and by the revealed declaration (held by that seat then, so still
held unless played since); each seat's voids (a follower who played fewer than ``n`` cards of the led suit holds
none of it afterwards); the declarations' seats, counts and timing (each declarer held ``k`` identical level
cards after that many cards were dealt: the suits of the others' unrevealed declarations are drawn, and the cards
are placed in the declarer's deal positions before that moment); the hand sizes.

A candidate deal is then replayed action by action: it is accepted only if every past action is legal in it and
the seat's observation comes out unchanged, so the follow obligations and the throws' success or failure hold
too.  After ``tries`` rejected candidates the last one is used as it is (its current hands replace the real ones;
the seat's observation is unchanged by construction, only some past obligation of another seat may not hold);
that is rare except deep into a hand full of inferences.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.game import IllegalAction, apply_step
from ...core.rng import Rng
from .cards import DECK_SIZE, NUM_FACES, face_text, full_deck, parse_cards
from .combos import read_lead

if TYPE_CHECKING:
    from .game import ShengjiGame

TRIES = 12


def _slots(first: int, seat: int, upto: int) -> list[int]:
    """Deal indices below ``upto`` that go to ``seat``."""
    start = (seat - first) % 4
    return list(range(start, upto, 4))


def resample(g: ShengjiGame, seat: int, seed: int, tries: int = TRIES) -> ShengjiGame:
    """A game with ``seat``'s history and view, every card hidden from ``seat`` drawn anew from ``seed``."""
    if not 0 <= seat < 4:
        raise IllegalAction(f"no such seat {seat!r}")
    rng = Rng(seed)
    last: tuple[list[int], list[int]] | None = None
    target = g.observe(seat)
    played, need, voids = _knowledge(g, seat)
    for _ in range(max(1, tries)):
        d = _draw(g, seat, rng, played, need, voids)
        if d is None:
            continue
        ok = _repair(g, seat, d, voids, rng)
        deal = _order_of(g, seat, d, played, rng)
        if deal is None:
            continue
        last = (deal, d.decl_faces)
        if not ok:
            continue
        h = _replay(g, deal, d.decl_faces)
        if h is not None and h.observe(seat) == target:
            return h
    if last is None:  # no candidate at all (should not happen): keep the cards, only copy
        return g.clone()
    return _surgery(g, seat, *last)


def _knowledge(g: ShengjiGame, seat: int) -> tuple[list[list[int]], list[list[int]], list[set[int]]]:
    """Per seat: cards played (counts), cards known to be held now (counts), effective suits it is void in."""
    played = [[0] * NUM_FACES for _ in range(4)]
    need = [[0] * NUM_FACES for _ in range(4)]
    voids: list[set[int]] = [set() for _ in range(4)]
    o = g.order
    tricks = [[(s, parse_cards(t)) for s, t in rec["plays"]] for rec in g.tricks]
    tricks.append([(s, list(c)) for s, c in g.trick])
    failed_at: dict[int, list[tuple[int, list[int]]]] = {}
    for fth in g.failed:
        failed_at.setdefault(fth["trick"] - 1, []).append((fth["seat"], parse_cards(fth["cards"])))
    events: list[tuple[int, list[int], list[int]]] = []  # seat, shown cards, played before (counts)
    st = g.standing
    if o is not None and st is not None:
        events.append((st[0], [st[1]] * st[2], [0] * NUM_FACES))
    for ti, plays in enumerate(tricks):
        for s, shown in failed_at.get(ti, []):
            events.append((s, shown, list(played[s])))
        if not plays or o is None:
            continue
        lead = read_lead(plays[0][1], o)
        for s, cards in plays[1:]:
            if sum(1 for f in cards if o.esuit[f] == lead.esuit) < lead.n:
                voids[s].add(lead.esuit)
        for s, cards in plays:
            for f in cards:
                played[s][f] += 1
    for s, shown, before in events:
        cnt = [0] * NUM_FACES
        for f in shown:
            cnt[f] += 1
        for f in range(NUM_FACES):
            if cnt[f]:
                need[s][f] = max(need[s][f], before[f] + cnt[f] - played[s][f])
    return played, need, voids


class _Draw:
    """One candidate: the others' current hands, the undealt cards, the declarations' faces."""

    def __init__(self, hands: dict[int, list[int]], fut: list[int], decl_faces: list[int],
                 reqs: list[tuple[int, int, int, int]], need: list[list[int]]) -> None:
        self.hands = hands
        self.fut = fut
        self.decl_faces = decl_faces
        self.reqs = reqs
        self.need = need


def _draw(g: ShengjiGame, seat: int, rng: Rng, played: list[list[int]], need0: list[list[int]],
          voids: list[set[int]]) -> _Draw | None:
    """Hidden hands drawn under the hard constraints (known cards, voids, declarations)."""
    need = [list(x) for x in need0]
    first, dealt = g.first, g.dealt
    order = g.deal_order
    o = g.order
    others = [s for s in range(4) if s != seat]
    pcount = [4] * NUM_FACES
    for i in _slots(first, seat, dealt):
        pcount[order[i]] -= 1
    for s in others:
        for f in range(NUM_FACES):
            pcount[f] -= played[s][f] + need[s][f]
    if any(c < 0 for c in pcount):
        return None
    # declarations: fixed when own or revealed, drawn otherwise
    revealed = g.order is not None
    decl_faces: list[int] = []
    reqs: list[tuple[int, int, int, int]] = []  # seat, face, k, at
    nd = len(g.decls)
    for i, (s, f, k, at) in enumerate(g.decls):
        if s == seat or (revealed and i == nd - 1):
            decl_faces.append(f)
            if s != seat:
                reqs.append((s, f, k, at))
            continue
        suits = [0, 1, 2, 3]
        _shuffle(rng, suits)
        chosen = -1
        for su in suits:
            face = su * 13 + g.level
            extra = max(0, k - played[s][face] - need[s][face])
            if extra <= pcount[face] and _room(g, s, need, extra):
                pcount[face] -= extra
                need[s][face] += extra
                chosen = face
                break
        if chosen < 0:
            return None
        decl_faces.append(chosen)
        reqs.append((s, chosen, k, at))
    pool = [f for f in range(NUM_FACES) for _ in range(pcount[f])]
    _shuffle(rng, pool)
    caps = {s: sum(g.hands[s]) - sum(need[s]) for s in others}
    if any(c < 0 for c in caps.values()):
        return None
    future = DECK_SIZE - dealt
    hands = {s: [f for f in range(NUM_FACES) for _ in range(need[s][f])] for s in others}
    esuit = o.esuit if o is not None else None
    allowed_n = [sum(1 for s in others if esuit is None or esuit[f] not in voids[s]) for f in pool]
    idx = sorted(range(len(pool)), key=lambda i: allowed_n[i])
    fut: list[int] = []
    for i in idx:
        f = pool[i]
        opts = [s for s in others if caps[s] > 0 and (esuit is None or esuit[f] not in voids[s])]
        weights = [caps[s] for s in opts]
        if future - len(fut) > 0:
            opts.append(-1)
            weights.append(future - len(fut))
        total = sum(weights)
        if total <= 0:
            return None
        r = rng.below(total)
        to = opts[-1]
        for cand, w in zip(opts, weights, strict=True):
            if r < w:
                to = cand
                break
            r -= w
        if to == -1:
            fut.append(f)
        else:
            hands[to].append(f)
            caps[to] -= 1
    return _Draw(hands, fut, decl_faces, reqs, need)


def _order_of(g: ShengjiGame, seat: int, d: _Draw, played: list[list[int]], rng: Rng) -> list[int] | None:
    """The deal order: own slots unchanged; others' slots from played + hand, declarations early enough."""
    first, dealt = g.first, g.dealt
    new = [-1] * DECK_SIZE
    for i in _slots(first, seat, dealt):
        new[i] = g.deal_order[i]
    for s, hand in d.hands.items():
        cards = [f for f in range(NUM_FACES) for _ in range(played[s][f])] + hand
        slots = _slots(first, s, dealt)
        if len(cards) != len(slots):
            return None
        left = list(cards)
        for _, face, k, at in sorted((r for r in d.reqs if r[0] == s), key=lambda r: r[3]):
            early = [i for i in slots if i < at]
            have = sum(1 for i in early if new[i] == face)
            free = [i for i in early if new[i] < 0]
            _shuffle(rng, free)
            while have < k:
                if not free or face not in left:
                    return None
                new[free.pop()] = face
                left.remove(face)
                have += 1
        free = [i for i in slots if new[i] < 0]
        _shuffle(rng, left)
        for i, f in zip(free, left, strict=True):
            new[i] = f
    fslots = list(range(dealt, DECK_SIZE))
    if len(fslots) != len(d.fut):
        return None
    fut = list(d.fut)
    _shuffle(rng, fut)
    for i, f in zip(fslots, fut, strict=True):
        new[i] = f
    if -1 in new or sorted(new) != full_deck():
        return None
    return new


class _History:
    """The hand's tricks as (leader, lead, plays, throw info) with each seat's cards played from each trick on."""

    def __init__(self, g: ShengjiGame) -> None:
        o = g.order
        assert o is not None
        self.o = o
        tricks = [[(s, parse_cards(t)) for s, t in rec["plays"]] for rec in g.tricks]
        if g.trick:
            tricks.append([(s, list(c)) for s, c in g.trick])
        failed = {fth["trick"] - 1: fth for fth in g.failed}
        self.tricks = tricks
        self.leads = [read_lead(t[0][1], o) for t in tricks]
        self.throw = [bool(rec.get("throw")) for rec in g.tricks] + ([bool(g.lead and g.lead.is_throw)]
                                                                      if g.trick else [])
        self.failed = {i: (read_lead(parse_cards(f["cards"]), o), f["forced"]) for i, f in failed.items()}
        # after[t][s]: counts of s's cards played in tricks t, t+1, ...
        self.after: list[list[list[int]]] = [[[0] * NUM_FACES for _ in range(4)] for _ in range(len(tricks) + 1)]
        for t in range(len(tricks) - 1, -1, -1):
            cur = [list(x) for x in self.after[t + 1]]
            for s, cards in tricks[t]:
                for f in cards:
                    cur[s][f] += 1
            self.after[t] = cur

    def hand_at(self, t: int, s: int, now: list[int]) -> list[int]:
        a = self.after[t][s]
        return [x + y for x, y in zip(now, a, strict=True)]

    def violation(self, now: list[list[int]], hidden: set[int]) -> tuple[int, int] | None:
        """(seat, effective suit) of the first history event that the hands ``now`` contradict, else None."""
        from .combos import beats_part, failed_throw
        from .follow import follow_error

        o = self.o
        for t, plays in enumerate(self.tricks):
            lead = self.leads[t]
            leader = plays[0][0]
            e = lead.esuit
            if t in self.failed:
                throw, forced = self.failed[t]
                others = [self.hand_at(t, s, now[s]) for s in range(4) if s != leader]
                f = failed_throw(throw, others, o)
                if f is None or f.text(o) != forced:
                    cand = [s for s in hidden if s != leader]
                    return (cand[0] if cand else leader), e
            elif self.throw[t]:
                for s in hidden:
                    if s != leader:
                        h = self.hand_at(t, s, now[s])
                        hm = {x: h[x] for x in o.faces[e] if h[x]}
                        if any(beats_part(hm, o, p) for p in lead.parts):
                            return s, e
            for s, cards in plays[1:]:
                if s in hidden and follow_error(self.hand_at(t, s, now[s]), lead, cards, o) is not None:
                    return s, e
        return None


def _repair(g: ShengjiGame, seat: int, d: _Draw, voids: list[set[int]], rng: Rng, budget: int = 150) -> bool:
    """Swap hidden cards between the other seats until the history holds (or the budget runs out)."""
    if g.order is None or (not g.tricks and not g.trick):
        return True
    hist = _History(g)
    o = g.order
    es = o.esuit
    others = [s for s in range(4) if s != seat]
    hidden = set(others)
    now = [list(g.hands[s]) if s == seat else [0] * NUM_FACES for s in range(4)]
    for s in others:
        for f in d.hands[s]:
            now[s][f] += 1
    for _ in range(budget):
        v = hist.violation(now, hidden)
        if v is None:
            for s in others:
                d.hands[s] = [f for f in range(NUM_FACES) for _ in range(now[s][f])]
            return True
        s, e = v
        free_s = [f for f in range(NUM_FACES) if now[s][f] > d.need[s][f]]
        out_e = [f for f in free_s if es[f] == e]
        pick_from = out_e if out_e and rng.below(4) else free_s
        if not pick_from:
            return False
        x = pick_from[rng.below(len(pick_from))]
        partners = [w for w in others if w != s and es[x] not in voids[w]]
        if not partners:
            return False
        w = partners[rng.below(len(partners))]
        ys = [f for f in range(NUM_FACES) if now[w][f] > d.need[w][f] and es[f] not in voids[s] and f != x
              and (es[f] != e or pick_from is free_s)]
        if not ys:
            continue
        y = ys[rng.below(len(ys))]
        now[s][x] -= 1
        now[s][y] += 1
        now[w][y] -= 1
        now[w][x] += 1
    return False


def _room(g: ShengjiGame, s: int, need: list[list[int]], extra: int) -> bool:
    return sum(need[s]) + extra <= sum(g.hands[s])


def _shuffle(rng: Rng, items: list[int]) -> None:
    rng.shuffle(items)


def _actions_with(g: ShengjiGame, decl_faces: list[int]) -> list[tuple[int, str]]:
    """The hand's actions with the drawn declaration suits; a timeout in play becomes the play it made (after
    ``autoplay on``): the passive choice of a re-dealt hand could differ from what the seat saw played."""
    from ...core.game import AUTOPLAY_OFF, AUTOPLAY_ON, LEAVE, TIMEOUT

    plays = [p for rec in g.tricks for p in rec["plays"]] + [[s, ""] for s, _ in g.trick]
    cur = {len(plays) - len(g.trick) + i: c for i, (_, c) in enumerate(g.trick)}
    out: list[tuple[int, str]] = []
    di = 0
    pi = 0
    auto = [False] * 4
    start = g.play_start if g.play_start is not None else len(g.actions)
    for i, (s, t) in enumerate(g.actions):
        if t.startswith("declare"):
            k = len(t.split()) - 1
            t = "declare " + " ".join([face_text(decl_faces[di])] * k)
            di += 1
        elif t == AUTOPLAY_ON:
            auto[s] = True
        elif t == AUTOPLAY_OFF:
            auto[s] = False
        elif t == LEAVE and not g.options["escape_penalty"]:
            auto[s] = True
        elif i >= start and (t == TIMEOUT or t.startswith("play")):
            if t == TIMEOUT:
                cards = plays[pi][1] if pi not in cur else " ".join(face_text(f) for f in cur[pi])
                if not auto[s]:
                    out.append((s, AUTOPLAY_ON))
                    auto[s] = True
                t = f"play {cards}"
            pi += 1
        out.append((s, t))
    return out


def _replay(g: ShengjiGame, deal: list[int], decl_faces: list[int]) -> ShengjiGame | None:
    from .game import ShengjiGame

    h = ShengjiGame(g.options, g.seed, g.context, deal=deal, first=g.first)
    try:
        for s, t in _actions_with(g, decl_faces):
            apply_step(h, s, t)
    except IllegalAction:
        return None
    return h


def _surgery(g: ShengjiGame, seat: int, deal: list[int], decl_faces: list[int]) -> ShengjiGame:
    h = g.clone()
    h.deal_order = list(deal)
    h.custom_deal = True
    h.decls = [(s, decl_faces[i], k, at) for i, (s, _, k, at) in enumerate(g.decls)]
    h.actions = _actions_with(g, decl_faces)
    played, _, _ = _knowledge(g, seat)
    hands = [[0] * NUM_FACES for _ in range(4)]
    for i in range(g.dealt):
        hands[(g.first + i) % 4][deal[i]] += 1
    for s in range(4):
        for f in range(NUM_FACES):
            hands[s][f] -= played[s][f]
    assert hands[seat] == g.hands[seat]
    h.hands = hands
    h._ver += 1
    return h

