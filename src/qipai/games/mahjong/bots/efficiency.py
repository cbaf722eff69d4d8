"""The efficiency bot: tile efficiency (牌效) with a little defence.

* Discards: the discards that reach the lowest 向听, and among them the one leaving the most unseen useful tiles
  (the most unseen waits once ready).  When another seat is ready and the bot is still far (two or more from
  ready, or one with a short wall), it plays the safest tile instead: a kind that has already failed to win for
  every ready seat since its 听 (with ``auto_hu`` such a tile cannot feed it), since feeding while not ready
  costs all three shares (包三家).
* 听: declared as soon as a discard leaves a ready hand with a live wait (or the wall is short); it opens the
  宝 and a ready feeder never pays for the table.
* Claims: a claim that makes it ready (吃听 / 碰听) always; a plain chow or pung when it lowers the 向听 (or keeps
  it while opening a closed hand, which can only win open).
* Wins whenever it can.

>>> from ..state import MahjongGame
>>> from ..rules import DAQING
>>> g = MahjongGame.new(DAQING, seed=11, dealer=0)
>>> bot = EfficiencyBot(0)
>>> a = bot.act(g.observe(0, hints=False), g.legal_actions(0))
>>> a in g.legal_actions(0)
True
"""

from __future__ import annotations

from ..hand import MeldSig, _candidates, discard_shanten, meld_sig, shanten_counts, wait_kinds
from ..hints import useful_tiles
from ..melds import Meld, chi_meld, peng_meld
from ..rules import Rules
from ..tiles import KINDS, Z, parse_tile, parse_tiles
from .base import JSON, own_melds, own_tiles, passed_tiles, unseen_from


class EfficiencyBot:
    """See the module text."""

    name = "efficiency"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: JSON, legal_actions: list[str]) -> str:
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        if "hu" in legal_actions:
            return "hu"
        if len(legal_actions) == 1:
            return legal_actions[0]
        obs = observation
        rules = _rules(obs.get("rules"))
        if obs.get("phase") == "claim":
            return self._claim(obs, legal_actions, rules)
        if "pass" in legal_actions:  # an offered win would have been taken above
            return "pass"
        return self._discard(obs, legal_actions, rules)

    # ------------------------------------------------------------------ claims
    def _claim(self, obs: JSON, legal: list[str], rules: Rules) -> str:
        tings = [a for a in legal if a.endswith(" ting")]
        if tings:
            return tings[0]
        counts = own_tiles(obs)
        melds = own_melds(obs)
        sig = meld_sig(melds)
        before = shanten_counts(counts, sig, rules)
        disc = obs.get("discard") or {}
        tile = parse_tile(disc["tile"]) if disc else None
        best: tuple[int, str] | None = None
        for a in legal:
            if a == "pass" or tile is None:
                continue
            c = list(counts)
            words = a.split()
            new: Meld
            if words[0] == "peng":
                c[tile] -= 2
                new = peng_meld(tile)
            else:
                seq = parse_tiles(words[1])
                for k in seq:
                    if k != tile:
                        c[k] -= 1
                new = chi_meld(seq, tile)
            after = shanten_counts(c, meld_sig([*melds, new]), rules)
            gain = before - after
            if (gain > 0 or (gain == 0 and not melds)) and (best is None or after < best[0]):
                best = (after, a)
        return best[1] if best is not None else "pass"

    # ------------------------------------------------------------------ discards
    width = 3
    """How many candidate discards (of the lowest 向听) are weighed by the unseen tiles they leave useful."""
    defend_at = 2
    """Defend (another seat ready) from this far from ready, or from one with under ``defend_wall`` in the wall."""
    defend_wall = 20
    push_risk = 0.0
    """Pushing (not defending) while another seat is ready: what each way a discard could feed it costs, in
    useful tiles (:meth:`_ways`; the hard level's)."""

    def _waits(self, counts: list[int], sig: MeldSig, rules: Rules, unseen: list[int]) -> float:
        """What the waits of a ready hand are worth: their unseen copies."""
        return float(sum(unseen[w] for w in wait_kinds(counts, sig, rules)))

    def _ways(self, x: int, unseen: list[int], passed: dict[int, set[int]]) -> float:
        """The ways discarding ``x`` could feed the ready seats (``passed``: the kinds that passed each since its
        听): none known here, every tile not passed is as dangerous (:func:`danger` decides)."""
        return 0.0

    def _discard(self, obs: JSON, legal: list[str], rules: Rules) -> str:
        counts = own_tiles(obs)
        sig = meld_sig(own_melds(obs))
        unseen = unseen_from(obs)
        seat = obs["seat"]
        passed = {r: ks for r, ks in passed_tiles(obs).items() if r != seat and obs["ready"][r]}
        ting_ok = {parse_tile(a.split()[1]) for a in legal if a.startswith("ting ") and "zhidui" not in a}
        can_discard = {parse_tile(a.split()[1]) for a in legal if a.startswith("discard ")}
        options = sorted(can_discard | ting_ok)
        if not options:  # must declare, and only a 支对 makes the hand ready (不夹不胡): the first one
            return legal[0]
        c = list(counts)
        allsh = discard_shanten(counts, sig, rules)
        sh = {x: allsh[x] for x in options}
        best = min(sh.values())
        wall = obs.get("wall", 0)

        def danger(x: int) -> int:
            return sum(1 for ks in passed.values() if x not in ks)

        # declare 听 when a ready-making discard leaves a live wait (the declaring discard never feeds)
        if ting_ok:
            scored = []
            for x in sorted(ting_ok):
                c[x] -= 1
                live = self._waits(c, sig, rules, unseen)
                c[x] += 1
                scored.append((live, -danger(x), -x, x))
            live, _, _, x = max(scored)
            if live > 0 or wall < 12 or not can_discard:
                return f"ting {_name(x)}"
        defend = bool(passed) and (best >= self.defend_at or (best >= 1 and wall < self.defend_wall))
        if defend:
            x = min(can_discard, key=lambda k: (self._ways(k, unseen, passed), danger(k), sh.get(k, 9), -unseen[k], k))
            return f"discard {_name(x)}"
        cands = [x for x in can_discard if sh[x] == best] or sorted(can_discard)
        if len(cands) == 1:
            return f"discard {_name(cands[0])}"
        # the most promising few by shape alone, then by the unseen tiles they leave useful
        cands = sorted(cands, key=lambda k: (-danger(k), _isolation(counts, k), -k), reverse=True)[:self.width]
        scored2 = []
        for x in cands:
            c[x] -= 1
            if best == 0:
                value = self._waits(c, sig, rules, unseen)
            else:
                near = [k for k in _candidates(c) if unseen[k]]
                value = float(sum(unseen[y] for y in useful_tiles(c, sig, rules, best, near)))
            c[x] += 1
            if self.push_risk and passed:
                value -= self.push_risk * self._ways(x, unseen, passed)
            scored2.append((value, -danger(x), _isolation(counts, x), -x, x))
        x = max(scored2)[-1]
        return f"discard {_name(x)}"


_RULES: dict[tuple[tuple[str, object], ...], Rules] = {}


def _rules(raw: dict[str, object] | None) -> Rules:
    if not raw:
        return Rules()
    key = tuple(sorted(raw.items()))
    r = _RULES.get(key)
    if r is None:
        r = _RULES[key] = Rules.from_options(raw)
    return r


def _isolation(counts: list[int], x: int) -> int:
    """Ties: prefer letting go of a lone tile far from the others (a terminal before a middle tile; 红中 last: a
    红中 pair is a triplet and a 幺九 at once)."""
    if x == Z:
        return -2
    r = x % 9
    near = sum(counts[k] for k in range(max(x - r, x - 2), min(x - r + 8, x + 2) + 1) if k != x)
    return (2 if r in (0, 8) else 1 if r in (1, 7) else 0) - near


def _name(k: int) -> str:
    from ..tiles import tile_name

    return tile_name(k)


__all__ = ["KINDS", "EfficiencyBot", "MeldSig"]
