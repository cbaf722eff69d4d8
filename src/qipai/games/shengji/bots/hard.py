"""The ``hard`` level: the rule bot (:mod:`.rule`) with a wider choice of follows, a sampled estimate of who
may still beat a play, and no trump pulling.

- **More follows.**  The rules core offers the rule bot a few follows only (the lowest and the highest way to meet
  the lead), so it often takes a trick with its best card where a smaller one would do (a big joker on a trick a
  small trump takes as surely).  This bot weighs, with the rule bot's own scoring, every distinct card of a
  single's suit (or, void in it, every distinct trump and the lowest card of every other suit), and every pair of
  a pair's suit (or, void in it, every trump pair).
- **Who may beat it.**  The rule bot counts a winning play as holding the trick only when none of the cards it
  has not seen could beat it, pooled — with four decks a higher card is nearly always unseen, though it is often
  in a hand that has played already or in the partner's.  This bot deals the unseen cards to the other three
  seats ``samples`` times (hand sizes and known voids kept, seeded) and counts the play as holding when no
  opponent still to play can beat it (a higher play of its format in the suit, or trumps when void) in at least
  ``hold_p`` of the deals.  The same estimate says whether the partner's trick is safe.
- **No trump pulling.**  The rule bot's banker side leads a middle trump group when it holds more than half its
  hand in trumps; ``pull = 0`` turns that off (the lead is otherwise the rule bot's).

Measured against ``normal`` (``qipai arena --game shengji hard normal``), see docs/bots.md.  Only the seat's
observation is read; the sampled deals are drawn from the cards it has not seen.
"""

from __future__ import annotations

from ..cards import NUM_FACES, TRUMP, card_points
from ..combos import Lead, beats_part, best_combo, read_lead
from ..follow import follow_error
from .rule import RuleBot
from .view import View

_POINT = tuple(card_points(f) for f in range(NUM_FACES))


class HardBot(RuleBot):
    """The rule bot with more follows, a sampled holding estimate and no trump pulling (see the module doc).
    Deterministic for a seed."""

    name = "hard"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._samples_key: object = None
        self._samples: list[list[list[int]]] = []

    def _follow_candidates(self, v: View) -> list[list[int]]:
        cands = super()._follow_candidates(v)
        o, lead, hand = v.o, v.lead, v.hand
        assert o is not None and lead is not None
        extra: list[list[int]] = []
        e = lead.esuit
        held = [f for f in o.faces[e] if hand[f]]
        if lead.n == 1:
            if held:
                extra = [[f] for f in held]
            else:
                extra = [[f] for f in o.faces[TRUMP] if hand[f]]
                for s in range(4):
                    fs = [f for f in o.faces[s] if hand[f] and s != e]
                    if fs:
                        extra.append([fs[0]])
        elif lead.combo is not None and lead.combo.fmt == (2, 1):
            pool = held if sum(hand[f] for f in held) >= 2 else ([] if e == TRUMP or held else
                                                                   [f for f in o.faces[TRUMP] if hand[f]])
            extra = [[f, f] for f in pool if hand[f] >= 2]
        seen = {tuple(sorted(c)) for c in cands}
        for c in extra:
            key = tuple(sorted(c))
            if key in seen or follow_error(hand, lead, c, o) is not None:
                continue
            seen.add(key)
            cands.append(c)
        return cands

    pull = 0.0  # the rule bot's lead, never pulling trumps (see RuleBot's lead constants)

    # ------------------------------------------------------------------ who may beat a play: sampled hands
    samples = 24
    hold_p = 0.5

    def _hands(self, v: View) -> list[list[list[int]]]:
        """``samples`` deals of the cards this seat has not seen to the other three seats (counts per seat),
        each seat getting as many cards as it holds and none of a suit it is known void in (where that can be
        met), drawn once per decision."""
        key = (v.obs.get("hand_no"), len(v.obs["tricks"]), len(v.trick), v.seat)
        if self._samples_key == key:
            return self._samples
        o = v.o
        assert o is not None
        size = v.hand_size()
        others = [s for s in range(4) if s != v.seat]
        in_trick = {s for s, _ in v.trick}
        n = v.lead.n if v.lead is not None else 0
        room0 = [size - (n if s in in_trick else 0) for s in others]
        pool = [f for f in range(NUM_FACES) for _ in range(v.unseen[f])]
        ok = [[o.esuit[f] not in v.voids[s] for s in others] for f in range(NUM_FACES)]
        out: list[list[list[int]]] = []
        rng = self.rng
        for _ in range(int(self.samples)):
            for attempt in range(4):
                rng.shuffle(pool)
                room = list(room0)
                hands = [[0] * NUM_FACES for _ in others]
                good = True
                for f in pool:
                    elig = [i for i in range(3) if room[i] and (ok[f][i] or attempt == 3)]
                    if not elig:
                        good = False
                        break
                    tot = sum(room[i] for i in elig)
                    r = rng.below(tot)
                    for i in elig:
                        r -= room[i]
                        if r < 0:
                            break
                    hands[i][f] += 1
                    room[i] -= 1
                if good:
                    break
            full = [[0] * NUM_FACES for _ in range(4)]
            for i, s in enumerate(others):
                full[s] = hands[i]
            out.append(full)
        self._samples_key = key
        self._samples = out
        return out


    def _holds(self, v: View, lead: Lead, cand: list[int], unseen: list[int], seats: list[int]) -> bool:
        """Whether no opponent after the seats in ``seats`` (and me) can beat ``cand``, in at least ``hold_p`` of
        the sampled deals (the rule bot asks it of the pooled unseen cards, which is far too cautious with four
        decks: the higher card is often in a hand that has played already)."""
        o = v.o
        assert o is not None
        if not self.samples or lead.combo is None:
            return super()._holds(v, lead, cand, unseen, seats)
        rest = [s for s in range(4) if s not in seats and s != v.seat and (s - v.seat) % 2 == 1]
        if not rest:
            return True
        play = read_lead(cand, o)
        if play.combo is None:
            return False
        e, E = play.esuit, lead.esuit
        faces_e, faces_E = o.faces[e], o.faces[E]
        beaten = 0
        hands = self._hands(v)
        for h in hands:
            for s in rest:
                hs = h[s]
                if e == E:
                    if beats_part(hs, o, play.combo) or (
                            E != TRUMP and not any(hs[f] for f in faces_E)
                            and best_combo(hs, o, TRUMP, play.combo.m, play.combo.k) is not None):
                        beaten += 1
                        break
                elif not any(hs[f] for f in faces_E) and any(hs[f] for f in faces_e) and beats_part(hs, o, play.combo):
                    beaten += 1
                    break
        return beaten <= (1 - self.hold_p) * len(hands)
