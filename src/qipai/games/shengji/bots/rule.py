"""The rule bot: declares a long suit, leads what cannot be beaten (throwing only when every component is safe
against the cards it has not seen), pulls trumps as the banker side, follows correctly (the rules core's legal
follows) and well — wins cheaply when the trick is worth it, gives points to a partner who holds the trick, keeps
pairs and tractors together, keeps strong trumps for the last trick (扣底)."""

from __future__ import annotations

from typing import Any

from ....core.rng import Rng
from ..cards import NUM_FACES, TRUMP, card_points, counts, format_cards, parse_cards
from ..combos import Combo, Lead, beats_part, read_lead, tractors, trick_winner
from ..follow import follow_error, follow_options, lead_error, passive_lead
from .view import View

_POINT = tuple(card_points(f) for f in range(NUM_FACES))


def _cards_of(cnt: dict[int, int]) -> list[int]:
    return [f for f, c in cnt.items() for _ in range(c)]


class RuleBot:
    """A rule-based player (see the module doc).  Deterministic for a seed."""

    name = "rule"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)
        self._cache: dict[str, Any] = {}

    # ------------------------------------------------------------------ entry
    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        if observation["phase"] in ("deal", "final"):
            return self._declare(observation, legal_actions)
        v = View(observation, self._cache)
        o = v.o
        assert o is not None
        cards = self._lead(v) if v.lead is None else self._follow(v)
        ok = (lead_error(v.hand, cards, o, observation["options"].get("throws", True)) if v.lead is None
              else follow_error(v.hand, v.lead, cards, o)) is None
        return "play " + format_cards(cards, o) if ok else legal_actions[0]

    # ------------------------------------------------------------------ declaring
    def _declare(self, obs: dict[str, Any], legal: list[str]) -> str:
        decls = [a for a in legal if a.startswith("declare")]
        if not decls:
            return "pass"
        seat = obs["seat"]
        st = obs["standing"]
        if st is not None and (st[0] - seat) % 2 == 0:
            return "pass"  # our side's declaration stands
        hand = counts(parse_cards(obs["hand"]))
        level = "23456789TJQKA".index(obs["level"])
        mine = sum(hand)
        if mine < 10 and obs["phase"] == "deal":
            return "pass"
        best: tuple[float, str] | None = None
        for a in decls:
            cs = parse_cards(a[8:])
            f = cs[0]
            s = f // 13
            if best is not None and parse_cards(best[1][8:])[0] == f:
                continue  # the smallest count for this suit comes first
            length = sum(hand[s * 13 + r] for r in range(1, 13) if r != level)
            score = length + 2.0 * hand[f] + 0.5 * (hand[52] + hand[53])
            if best is None or score > best[0]:
                best = (score, a)
        assert best is not None
        per_suit = mine * 11 / 54 / 1.0
        if best[0] >= 1.25 * per_suit + 2 or (obs["phase"] == "final" and best[0] >= per_suit + 2):
            return best[1]
        return "pass"

    # ------------------------------------------------------------------ leading
    # the lead's constants: the banker side pulls trumps with a group when it holds more than ``1 / pull`` of its
    # hand in trumps (0: never) and more than ``pull_size`` cards; a safe lead is taken when it scores more than
    # ``safe_min``; with ``keep`` cards or fewer the trumps are kept for the end
    pull = 2.0
    pull_size = 12
    safe_min = 2.0
    keep = 12

    def _safe(self, v: View, comp: Combo, unseen_e: dict[int, int]) -> bool:
        assert v.o is not None
        return not beats_part(unseen_e, v.o, comp)

    def _lead(self, v: View) -> list[int]:
        o = v.o
        assert o is not None
        hand = v.hand
        unseen = v.unseen
        throws = v.obs["options"].get("throws", True)
        opp = ((v.seat + 1) % 4, (v.seat + 3) % 4)
        size = v.hand_size()
        by_suit = {e: v.suit_cards(e) for e in range(5)}
        by_suit = {e: c for e, c in by_suit.items() if c}
        unseen_by = {e: {f: unseen[f] for f in o.faces[e] if unseen[f]} for e in by_suit}
        # the whole hand in one suit, safe: the last trick at once (扣底 with the biggest multiplier)
        if len(by_suit) == 1:
            e, cnt = next(iter(by_suit.items()))
            cards = _cards_of(cnt)
            lead = read_lead(cards, o)
            if (not lead.is_throw or throws) and all(self._safe(v, p, unseen_by[e]) for p in lead.parts):
                return cards
        # a safe throw in an off suit (every component safe), or a safe combination
        best: tuple[float, list[int]] | None = None
        for e, cnt in by_suit.items():
            lead_all = read_lead(_cards_of(cnt), o)
            safe_parts = [p for p in lead_all.parts if self._safe(v, p, unseen_by[e])]
            risky = e != TRUMP and any(e in v.voids[s] for s in opp)
            if not safe_parts:
                continue
            cards = [f for p in safe_parts for f in p.cards()]
            if len(safe_parts) >= 2 and throws:
                lead = read_lead(cards, o)
                if not all(self._safe(v, p, unseen_by[e]) for p in lead.parts):
                    cards = safe_parts[0].cards()
            else:
                cards = safe_parts[0].cards()
            pts = sum(_POINT[f] for f in cards)
            score = len(cards) * 2 + pts * (0.2 if risky else 1.0) - (8 if e == TRUMP else 0)
            if risky and pts:
                score -= pts
            if size <= self.keep and e == TRUMP:
                score -= 10  # keep the strong trumps for the end
            if best is None or score > best[0]:
                best = (score, cards)
        if best is not None and best[0] > self.safe_min:
            return best[1]
        # the banker side with many trumps pulls trumps with a group
        trumps = by_suit.get(TRUMP, {})
        ntr = sum(trumps.values())
        if v.banker_side and ntr * self.pull > size and size > self.pull_size:
            for m in (2, 3, 4):
                groups = sorted((f for f, c in trumps.items() if c >= m), key=o.low.__getitem__)
                if groups:
                    mid = groups[len(groups) // 2]
                    return [mid] * m
        # a pair or tractor of an off suit without points, lowest
        offs = [e for e in by_suit if e != TRUMP]
        for t in reversed(tractors(_cards_of({f: c for e in offs for f, c in by_suit[e].items()}), o)):
            if not sum(_POINT[f] for f in t.cards()):
                return t.cards()
        # the lowest non-point card of the shortest off suit, not from a pair
        if offs:
            offs.sort(key=lambda e: sum(by_suit[e].values()))
            for e in offs:
                singles = sorted((f for f, c in by_suit[e].items() if c == 1 and not _POINT[f]),
                                 key=o.low.__getitem__)
                if singles:
                    return [singles[0]]
        return passive_lead(hand, o)

    # ------------------------------------------------------------------ following
    def _follow(self, v: View) -> list[int]:
        o = v.o
        lead = v.lead
        assert o is not None and lead is not None
        plays = [c for _, c in v.trick]
        seats = [s for s, _ in v.trick]
        me = len(plays)
        last = me == 3
        cands = self._follow_candidates(v)
        holder = seats[trick_winner(lead, plays, o)]
        partner_holds = holder == v.partner
        pts_so_far = sum(_POINT[f] for c in plays for f in c)
        size = v.hand_size()
        final = size == lead.n  # this is the last trick: 扣底, worth m × points
        mult = lead.n if final else 1
        best: tuple[float, list[int]] | None = None
        unseen = v.unseen
        # the partner's trick is the side's already when no one after this seat can take it (last to play, or
        # none of the unseen cards can): taking it from him gains nothing and spends strength (the top trumps)
        p_safe = partner_holds and (last or self._partner_safe(v, lead, plays, seats, unseen))
        for cand in cands:
            wins = trick_winner(lead, [*plays, cand], o) == me
            holds = wins and (last or self._holds(v, lead, cand, unseen, seats))
            pts = sum(_POINT[f] for f in cand)
            cost = self._cost(v, cand)
            total = (pts_so_far + pts) * mult
            if partner_holds and (not wins or p_safe):
                score = (pts * 3 if p_safe else -pts) - cost
            elif holds:
                score = total * 3 + 10 - cost * (0.3 if total else 1.0)
                if partner_holds:
                    score -= 15  # no need to take it from the partner
            elif wins:
                score = total * (1.0 if total else 0) - cost
            else:
                score = -pts * 3 - cost
            if final and (wins or p_safe):
                score += 50 * mult
            if best is None or score > best[0]:
                best = (score, cand)
        assert best is not None
        return best[1]

    def _follow_candidates(self, v: View) -> list[list[int]]:
        """The follows weighed: the rules core's few legal follows, the passive one with point cards, a spare."""
        assert v.o is not None and v.lead is not None
        cands = follow_options(v.hand, v.lead, v.o)
        return cands + self._point_variants(v, cands[0]) + self._spare_single(v)

    def _spare_single(self, v: View) -> list[list[int]]:
        """A single led and the suit's lowest card a 5 (or 10, K): its lowest card that gives no points (the
        follows offered are the suit's lowest and highest only, so a 5 went to the opponents' trick)."""
        o = v.o
        lead = v.lead
        assert o is not None and lead is not None
        if lead.n != 1:
            return []
        fs = [f for f in o.faces[lead.esuit] if v.hand[f]]  # lowest first
        if not fs or not _POINT[fs[0]]:
            return []
        spare = next((f for f in fs if not _POINT[f]), None)
        return [] if spare is None or spare == fs[-1] else [[spare]]

    def _point_variants(self, v: View, base: list[int]) -> list[list[int]]:
        """The passive follow with some of its cards swapped for point cards (to give points)."""
        o = v.o
        lead = v.lead
        assert o is not None and lead is not None
        hand = v.hand
        pts = [f for f in range(NUM_FACES) if hand[f] and _POINT[f]]
        if not pts:
            return []
        out: list[list[int]] = []
        cur = list(base)
        for p in sorted(pts, key=lambda f: -_POINT[f]):
            for i, f in enumerate(cur):
                if _POINT[f] or (o.esuit[f] != o.esuit[p] and o.esuit[f] == lead.esuit):
                    continue
                trial = [*cur[:i], p, *cur[i + 1:]]
                if trial.count(p) > hand[p]:
                    continue
                if follow_error(hand, lead, trial, o) is None:
                    cur = trial
                    out.append(list(cur))
                    break
        return out[-1:]

    def _cost(self, v: View, cand: list[int]) -> float:
        o = v.o
        assert o is not None
        hand = v.hand
        cost = 0.0
        used: dict[int, int] = {}
        for f in cand:
            used[f] = used.get(f, 0) + 1
        for f, c in used.items():
            base = (12 + o.value[f]) if o.esuit[f] == TRUMP else o.value[f] * 0.6
            cost += base * c
            if hand[f] >= 2 and c < hand[f] and c == 1:
                cost += 4  # breaks a pair
        return cost

    def _holds(self, v: View, lead: Lead, cand: list[int], unseen: list[int], seats: list[int]) -> bool:
        """Whether the seats after those in ``seats`` (and me) could not beat ``cand`` with the cards I have not
        seen (an estimate: the unseen cards are pooled, known voids count)."""
        o = v.o
        assert o is not None
        rest = [s for s in range(4) if s not in seats and s != v.seat]
        if not rest or lead.combo is None:
            return True
        play = read_lead(cand, o)
        if play.combo is None:
            return False
        e = play.esuit
        E = lead.esuit
        unseen_e = {f: unseen[f] for f in o.faces[e] if unseen[f]}
        if e == E:
            if beats_part(unseen_e, o, play.combo):
                return False
            return E == TRUMP or not any(E in v.voids[s] for s in rest)
        # I trumped an off suit: only a seat void in it may over-trump
        if any(E in v.voids[s] for s in rest) or sum(unseen[f] for f in o.faces[E]) < 2 * len(rest):
            return not beats_part(unseen_e, o, play.combo)
        return True

    def _partner_safe(self, v: View, lead: Lead, plays: list[list[int]], seats: list[int],
                      unseen: list[int]) -> bool:
        o = v.o
        assert o is not None
        idx = seats.index(v.partner)
        return self._holds(v, lead, plays[idx], unseen, [*seats, v.seat]) if lead.combo is not None else True

