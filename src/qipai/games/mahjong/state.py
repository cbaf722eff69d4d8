"""One deal of Daqing mahjong as a state machine behind :class:`qipai.core.game.Game` (RULES-mahjong.md §2–§9).

Phases: ``play`` (one seat to move: discard, ting, or answer a win offered on his own draw), ``claim`` (the
claim window after a discard: a joint decision of the seats that may claim, §3.3) and ``over``.  Draws, the
discards of ready players, automatic wins (``auto_hu``), the 宝 and 换宝 are engine steps: no seat acts for them.

>>> g = MahjongGame.new(DAQING, seed=7, dealer=0)
>>> g.phase, g.acting, g.observe(0)["drawn"], len(g.legal_actions(0)) > 0
('play', (0,), '5p', True)
>>> g.apply("discard 5p", 0)
>>> g.acting != (0,)
True
>>> g.apply("hu", 2)
Traceback (most recent call last):
...
qipai.core.game.IllegalAction: seat 2 has no decision open now
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core.game import AUTOPLAY_OFF, AUTOPLAY_ON, JSON, LEAVE, TIMEOUT, AutoplayFlags, IllegalAction
from ...core.rng import Rng
from .actions import Action, parse_action
from .hand import (
    MeldSig,
    Win,
    evaluate_win,
    meld_sig,
    natural_win,
    shanten_counts,
    wait_kinds,
    zhidui_ok,
)
from .melds import Meld, chi_meld, peng_meld
from .rules import DAQING, Rules, preset_name
from .settle import Settlement, next_dealer, settle
from .tiles import KINDS, TOTAL_TILES, TileError, Z, format_tiles, from_counts, full_set, parse_tile, parse_tiles
from .tiles import tile_name as tn

PLAYERS = 4
PHASES = ("play", "claim", "over")
RANKS_TING_FIRST = {"hu": 5, "peng ting": 4, "chi ting": 3, "peng": 2, "chi": 1}
RANKS_PLAIN = {"hu": 3, "peng ting": 2, "chi ting": 1, "peng": 2, "chi": 1}
FORMAT = "qipai-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be replayed: wrong format, bad options or deal, or an illegal action (named)."""


@dataclass(frozen=True, slots=True)
class Claim:
    """One legal claim on a discard: ``hu``, ``peng`` or ``chi`` (with its sequence), with or without ``ting``."""

    verb: str
    ting: bool = False
    seq: tuple[int, int, int] | None = None

    @property
    def key(self) -> str:
        """Its priority class: ``hu``, ``peng ting``, ``chi ting``, ``peng`` or ``chi``."""
        return self.verb + (" ting" if self.ting else "")

    def __str__(self) -> str:
        if self.verb == "chi":
            assert self.seq is not None
            return f"chi {format_tiles(self.seq)}" + (" ting" if self.ting else "")
        return self.key


@dataclass
class Window:
    """The claim window on ``tile`` discarded by ``discarder`` (§3.3)."""

    discarder: int
    tile: int
    claims: dict[int, list[Claim]]
    asked: tuple[int, ...]
    answers: dict[int, Claim | None] = field(default_factory=dict)
    steps: dict[int, int] = field(default_factory=dict)
    """The step index of each answer."""


def claim_rank(claim: Claim, seat: int, discarder: int, rules: Rules) -> tuple[int, int]:
    """A claim's priority: its rank (§3.2), then nearness after the discarder (nearer is higher).

    >>> r = DAQING
    >>> claim_rank(Claim("chi", True, (21, 22, 23)), 2, 0, r) > claim_rank(Claim("chi", False, (21, 22, 23)), 1, 0, r)
    True
    >>> claim_rank(Claim("hu"), 2, 0, r) > claim_rank(Claim("hu"), 3, 0, r)
    True
    """
    ranks = RANKS_TING_FIRST if rules.ting_claim_first else RANKS_PLAIN
    return ranks[claim.key], -((seat - discarder) % PLAYERS)


class MahjongGame(AutoplayFlags):
    """One Daqing mahjong deal for four seats (``0..3`` in turn order).

    Read-only by convention: ``rules``, ``seed``, ``dealer``, ``hands`` (28 counts per seat, the drawn tile
    included), ``drawn``, ``melds``, ``rivers``, ``ready``, ``bao``, ``old_bao``, ``wall`` with ``head`` /
    ``tail`` (the live wall is ``wall[head:tail]``), ``log`` (every event), ``actions`` (the record's steps).
    """

    players = PLAYERS

    def __init__(self, rules: Rules, seed: int, dealer: int, hands: Sequence[Sequence[int]], live: Sequence[int],
                 *, given: bool, first_drawn: int | None = None) -> None:
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.given = given
        self.initial = ([list(h) for h in hands], list(live))
        counts = [0] * KINDS
        for h in hands:
            for k in h:
                counts[k] += 1
        for k in live:
            counts[k] += 1
        if any(c > 4 for c in counts):
            bad = [tn(k) for k in range(KINDS) if counts[k] > 4]
            raise IllegalAction(f"more than four copies of {', '.join(bad)} in the deal")
        for s in range(PLAYERS):
            want = 14 if s == dealer else 13
            if len(hands[s]) != want:
                raise IllegalAction(f"seat {s} must be dealt {want} tiles, got {len(hands[s])}")
        self.hands: list[list[int]] = [[0] * KINDS for _ in range(PLAYERS)]
        for s in range(PLAYERS):
            for k in hands[s]:
                self.hands[s][k] += 1
        self.wall: list[int] = list(live)
        self.head = 0
        self.tail = len(self.wall)
        self.drawn: list[int | None] = [None] * PLAYERS
        self.drawn[dealer] = first_drawn if first_drawn is not None else hands[dealer][-1]
        self.melds: list[list[Meld]] = [[] for _ in range(PLAYERS)]
        self.rivers: list[list[int]] = [[] for _ in range(PLAYERS)]
        self.ready = [False] * PLAYERS
        self.zhidui: list[int | None] = [None] * PLAYERS
        self.declined = [False] * PLAYERS
        self.left = [False] * PLAYERS
        self._init_autoplay(PLAYERS)
        self.bao: int | None = None
        self.bao_set = False
        """Whether the first 听 of the deal has happened (a 宝 was set, or could not be for an empty wall)."""
        self.old_bao: list[int] = []
        self.turn = dealer
        self.phase = "play"
        self.need = "discard"
        """What the seat to move must do: ``discard`` (or ting), ``ting`` (after a … ting claim), ``win`` (hu or
        pass on a win offered with ``auto_hu`` off), ``dailou`` (the same for a 带漏 win)."""
        self.first_turn = True
        self.window: Window | None = None
        self.offer: Win | None = None
        """The win offered to the seat to move (own draw or 带漏, ``auto_hu`` off)."""
        self.decision_no = 1
        self.log: list[JSON] = []
        self.actions: list[tuple[int, str]] = []
        self.step_kinds: list[str] = []
        """Per step of :attr:`actions`: ``turn`` (a seat's own turn), ``answer`` (a claim window answer) or
        ``host`` (auto-play, leave)."""
        self.carried: set[int] = set()
        """The steps whose claim was carried out (public; the other answers stay private)."""
        self.result: JSON | None = None
        self.settlement: Settlement | None = None
        self.win: Win | None = None
        self.winner: int | None = None
        self.feeder: int | None = None
        self.ready_at: list[int | None] = [None] * PLAYERS
        """The log index of each seat's 听 (for the safety of discards that a bot reads from the log)."""
        self.how: str | None = None
        """How the deal was won: ``discard`` (点炮), ``self_drawn`` (自摸), ``wild`` (摸宝 …), ``dai_lou``."""
        self._cache: dict[Any, Any] = {}
        self._cache_no = -1

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, rules: Rules = DAQING, seed: int = 0, dealer: int | None = None) -> MahjongGame:
        """A deal shuffled from ``seed`` (§2.3).  ``dealer`` ``None``: option ``first_dealer`` decides (a random
        dealer is drawn from the same seed; the draw is made in any case, so the wall depends on the seed only)."""
        rng = Rng(seed)
        drawn_dealer = rng.below(PLAYERS)
        if dealer is None:
            dealer = 0 if rules.first_dealer == "seat0" else drawn_dealer
        if not 0 <= dealer < PLAYERS:
            raise IllegalAction(f"no seat {dealer} to deal")
        w = full_set()
        rng.shuffle(w)
        hands: list[list[int]] = [[] for _ in range(PLAYERS)]
        hands[dealer] = w[0:14]
        for i in range(1, PLAYERS):
            hands[(dealer + i) % PLAYERS] = w[1 + 13 * i:14 + 13 * i]
        return cls(rules, seed, dealer, hands, w[53:], given=False, first_drawn=w[13])

    @classmethod
    def from_deal(cls, rules: Rules, hands: Sequence[str | Sequence[int]], wall: str | Sequence[int], *,
                  dealer: int = 0, seed: int = 0) -> MahjongGame:
        """A deal from given tiles (tests, puzzles, replays).  ``hands`` in seat order, the dealer's with 14 tiles
        (his 14th, the tile he 'drew', is the last one written); ``wall`` is the live wall from its head (the next
        draw) to its tail (where the 宝 is taken), one tile per token: ``"5m 3p Z …"``."""
        if len(hands) != PLAYERS:
            raise IllegalAction(f"{PLAYERS} hands needed, got {len(hands)}")
        try:
            hs: list[list[int]] = []
            first: int | None = None
            for s, h in enumerate(hands):
                if isinstance(h, str):
                    ks = parse_tiles(h)
                    if s == dealer and h.split():
                        last = parse_tiles(h.split()[-1])
                        first = last[-1]
                        ks.remove(first)
                        ks.append(first)
                else:
                    ks = list(h)
                hs.append(ks)
            ws = [parse_tile(t) for t in wall.split()] if isinstance(wall, str) else list(wall)
        except TileError as e:
            raise IllegalAction(f"bad deal: {e}") from None
        return cls(rules, seed, dealer, hs, ws, given=True, first_drawn=first if first is not None else None)

    # ------------------------------------------------------------------ the Game protocol: reading
    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def acting(self) -> tuple[int, ...]:
        if self.phase == "play":
            return (self.turn,)
        if self.phase == "claim":
            return self._window_acting()
        return ()

    def public_acting(self) -> tuple[int, ...]:
        return (self.turn,) if self.phase == "play" else ()

    def decision_index(self, seat: int) -> int:
        return self.decision_no

    def time_limit(self, seat: int) -> float | None:
        if seat not in self.acting:
            return None
        return float(self.rules.claim_seconds if self.phase == "claim" else self.rules.turn_seconds)

    @property
    def wall_count(self) -> int:
        """Tiles left in the live wall."""
        return self.tail - self.head

    def concealed(self, seat: int) -> list[int]:
        """The seat's concealed tiles (sorted kinds, the drawn tile included)."""
        return from_counts(self.hands[seat])

    def sig(self, seat: int) -> MeldSig:
        return meld_sig(self.melds[seat])

    # ------------------------------------------------------------------ legal actions
    def _fresh_cache(self) -> dict[Any, Any]:
        if self._cache_no != self.decision_no or len(self._cache) > 64:
            self._cache = {}
            self._cache_no = self.decision_no
        return self._cache

    def ting_options(self, seat: int) -> dict[int, list[int | None]]:
        """For the seat to move: each discard ``X`` that leaves a ready hand, with the declarations it allows
        (``None``: ``ting X``; ``Y``: ``ting X zhidui Y``, option ``zhi_dui``; see :func:`ting_discards`).  Empty
        without a meld (§4.1)."""
        cache = self._fresh_cache()
        key = ("ting", seat)
        if key in cache:
            return dict(cache[key])
        out: dict[int, list[int | None]] = {}
        sig = self.sig(seat)
        if sig.count and not self.ready[seat]:
            out = ting_discards(self.hands[seat], sig, self.rules)
        cache[key] = out
        return dict(out)

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.acting:
            return []
        if self.phase == "claim":
            w = self.window
            assert w is not None
            return [str(c) for c in w.claims[seat]] + ["pass"]
        if self.need in ("win", "dailou"):
            return ["hu", "pass"]
        tings = self.ting_options(seat)
        out: list[str] = []
        if self.offer is not None:
            out.append("hu")
        if self.need == "discard":
            out.extend(f"discard {tn(k)}" for k in range(KINDS) if self.hands[seat][k])
        for x in sorted(tings):
            out.extend(f"ting {tn(x)}" if y is None else f"ting {tn(x)} zhidui {tn(y)}" for y in tings[x])
        return out

    def check(self, action: str, seat: int) -> str | None:
        try:
            self._resolve(action, seat)
        except IllegalAction as e:
            return str(e)
        return None

    def _resolve(self, text: str, seat: int) -> tuple[Action, Claim | None]:
        """The action of ``seat`` if legal now (with the claim it names in a window), else IllegalAction."""
        if self.phase == "over":
            raise IllegalAction("the deal is over")
        if not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise IllegalAction(f"no such seat {seat!r}")
        a = parse_action(text)
        if seat not in self.acting:
            if self.phase == "claim" and self.window is not None and seat in self.window.asked:
                if seat in self.window.answers:
                    raise IllegalAction(f"seat {seat} has already answered this claim window")
                raise IllegalAction(f"seat {seat}'s claims can no longer be chosen: a higher claim was made")
            raise IllegalAction(f"seat {seat} has no decision open now")
        if self.phase == "claim":
            return a, self._resolve_claim(a, seat)
        hand = self.hands[seat]
        if self.need in ("win", "dailou"):
            if a.verb not in ("hu", "pass"):
                raise IllegalAction(f"seat {seat} is ready: the choice is hu or pass, not {a.verb}")
            return a, None
        if a.verb == "hu":
            if self.offer is None:
                raise IllegalAction(self._why_no_win(seat))
            return a, None
        if a.verb == "discard":
            assert a.tile is not None
            if self.need == "ting":
                raise IllegalAction(f"after a ting claim seat {seat} must declare: ting X")
            if not hand[a.tile]:
                raise IllegalAction(f"you hold no {tn(a.tile)}", "not_held")
            return a, None
        if a.verb == "ting":
            assert a.tile is not None
            if not hand[a.tile]:
                raise IllegalAction(f"you hold no {tn(a.tile)}", "not_held")
            if not self.melds[seat]:
                raise IllegalAction("ting needs a meld: a closed hand cannot be ready (门清不可以听牌)")
            opts = self.ting_options(seat)
            if a.tile not in opts:
                raise IllegalAction(f"discarding {tn(a.tile)} does not leave a ready hand")
            if a.zhidui is None and None not in opts[a.tile]:
                raise IllegalAction(f"after {tn(a.tile)} the hand waits only with a 支对 declaration (不夹不胡): "
                                    f"ting {tn(a.tile)} zhidui Y")
            if a.zhidui is not None:
                if not self.rules.zhi_dui:
                    raise IllegalAction("zhidui needs the option zhi_dui")
                if a.zhidui not in opts[a.tile]:
                    raise IllegalAction(f"zhidui {tn(a.zhidui)}: after {tn(a.tile)} the hand does not hold the pair"
                                        f" or {tn(a.zhidui)} does not win as the third of a triplet (a kind"
                                        " whose four copies he holds is no wait)")
            return a, None
        if a.verb == "pass":
            raise IllegalAction("pass answers a claim window or an offered win; on your turn discard a tile")
        raise IllegalAction(f"{a.verb} is a claim on a discard; it is seat {seat}'s turn to discard")

    def _why_no_win(self, seat: int) -> str:
        if self.rules.hu_requires_ting and not self.ready[seat]:
            return f"seat {seat} is not ready (上听) and cannot win"
        return f"seat {seat}'s hand does not win"

    def _resolve_claim(self, a: Action, seat: int) -> Claim | None:
        w = self.window
        assert w is not None
        legal = w.claims[seat]
        if a.verb == "pass":
            return None
        if a.verb in ("discard", "ting"):
            raise IllegalAction(f"a claim window is open on {tn(w.tile)}: claim it or pass")
        if a.verb == "hu":
            for c in legal:
                if c.verb == "hu":
                    return c
            if self.declined[seat]:
                raise IllegalAction(f"seat {seat} declined a win and may not win on a discard before his next draw")
            if self.rules.hu_requires_ting and not self.ready[seat]:
                raise IllegalAction(f"seat {seat} is not ready (上听) and cannot win")
            raise IllegalAction(f"{tn(w.tile)} does not win for seat {seat}")
        if self.ready[seat]:
            raise IllegalAction(f"seat {seat} is ready: his hand is frozen and he can only win")
        if a.verb == "peng":
            if a.tile is not None and a.tile != w.tile:
                raise IllegalAction(f"the discard is {tn(w.tile)}, not {tn(a.tile)}")
            for c in legal:
                if c.verb == "peng" and c.ting == a.ting:
                    return c
            if len(self.melds[seat]) >= 3:
                raise IllegalAction("a fourth meld is not allowed (不能手把一)")
            if self.hands[seat][w.tile] < 2:
                raise IllegalAction(f"seat {seat} does not hold two {tn(w.tile)}")
            raise IllegalAction(f"after peng no discard leaves seat {seat} ready, so no peng ting")
        # chi
        chis = [c for c in legal if c.verb == "chi" and c.ting == a.ting]
        if a.seq is None:
            if len(chis) == 1:
                return chis[0]
            if not chis:
                raise IllegalAction(self._why_no_chi(seat, a))
            raise IllegalAction("several sequences are possible: name one, e.g. "
                                + ", ".join(str(c) for c in chis))
        for c in chis:
            if c.seq == a.seq:
                return c
        if w.tile not in a.seq:
            raise IllegalAction(f"chi {format_tiles(a.seq)} does not contain the discard {tn(w.tile)}")
        raise IllegalAction(self._why_no_chi(seat, a))

    def _why_no_chi(self, seat: int, a: Action) -> str:
        w = self.window
        assert w is not None
        if w.tile == Z:
            return "红中 is never chowed"
        if len(self.melds[seat]) >= 3:
            return "a fourth meld is not allowed (不能手把一)"
        if a.seq is not None:
            need = list(a.seq)
            need.remove(w.tile)
            if any(not self.hands[seat][k] for k in need):
                return f"seat {seat} does not hold {format_tiles(need)}"
        if not a.ting and seat != (w.discarder + 1) % PLAYERS:
            return f"only seat {(w.discarder + 1) % PLAYERS} (the next seat) may chow without 听 (chi … ting)"
        if a.ting:
            return "after that chow no discard leaves a ready hand, so no chi ting"
        return f"seat {seat} cannot chow {tn(w.tile)}"

    # ------------------------------------------------------------------ applying
    def apply(self, action: str, seat: int) -> None:
        a, claim = self._resolve(action, seat)
        text = str(a) if self.phase != "claim" else ("pass" if claim is None else str(claim))
        self.actions.append((seat, text))
        self.step_kinds.append("answer" if self.phase == "claim" else "turn")
        # §1.3: an action made by auto-play (the host plays the auto-play bot's choice) is flagged auto
        self._do(seat, a, claim, auto=self.autoplay[seat])

    def _do(self, seat: int, a: Action, claim: Claim | None, *, auto: bool) -> None:
        if self.phase == "claim":
            self._answer(seat, claim, auto=auto)
            return
        if self.need in ("win", "dailou"):
            offer = self.offer
            assert offer is not None
            if a.verb == "hu":
                self._log(seat, "hu", auto=auto)
                self._finish_win(seat, offer, None, "dai_lou" if self.need == "dailou" else None)
                return
            self._log(seat, "pass", auto=auto)
            self.declined[seat] = True
            self.offer = None
            if self.need == "win":
                k = self.drawn[seat]
                assert k is not None
                self.need = "discard"
                self._run(self._discard(seat, k, auto=True))
            else:
                self.need = "discard"
                w = self.rivers[seat][-1]
                self._run(self._open_window(seat, w))
            return
        if a.verb == "hu":
            assert self.offer is not None
            self._log(seat, "hu", auto=auto)
            self._finish_win(seat, self.offer, None)
            return
        if self.offer is not None:  # a non-ready player declines the win his draw offered
            self.declined[seat] = True
        assert a.tile is not None
        if a.verb == "discard":
            self._run(self._discard(seat, a.tile, auto=auto))
        else:
            self._run(self._discard(seat, a.tile, ting=True, zhidui=a.zhidui, auto=auto))

    def _log(self, seat: int | None, action: str, *, auto: bool = False, **extra: Any) -> None:
        e: JSON = {"seat": seat, "action": action}
        if auto:
            e["auto"] = True
        e.update(extra)
        self.log.append(e)

    def _new_decision(self) -> None:
        self.decision_no += 1

    def _run(self, step: Callable[[], Any] | None) -> None:
        """Run engine steps until a seat must decide or the deal ends (steps return the next step)."""
        while step is not None:
            step = step()

    # --- turn
    def _begin_turn(self, seat: int) -> Callable[[], Any] | None:
        self.window = None
        self.turn = seat
        self.phase = "play"
        self.first_turn = False
        if self.head >= self.tail:
            self._finish_exhausted()
            return None
        k = self.wall[self.head]
        self.head += 1
        self.hands[seat][k] += 1
        self.drawn[seat] = k
        self.declined[seat] = False
        self._log(seat, "draw", tile=tn(k))
        win = self._self_win(seat, k)
        if self.ready[seat]:
            if win is not None:
                if self.rules.auto_hu:
                    self._log(seat, "hu", auto=True)
                    self._finish_win(seat, win, None)
                    return None
                self.offer = win
                self.need = "win"
                self._new_decision()
                return None
            return lambda: self._discard(seat, k, auto=True)
        if win is not None and self.rules.auto_hu:
            self._log(seat, "hu", auto=True)
            self._finish_win(seat, win, None)
            return None
        self.offer = win
        self.need = "discard"
        self._new_decision()
        return None

    def _self_win(self, seat: int, k: int) -> Win | None:
        if not self.melds[seat]:
            return None
        if self.rules.hu_requires_ting and not self.ready[seat]:
            return None
        c = list(self.hands[seat])
        c[k] -= 1
        return evaluate_win(c, self.sig(seat), k, self.rules, self_drawn=True, ready=self.ready[seat],
                            bao=self.bao if self.ready[seat] else None, zhidui=self.zhidui[seat])

    # --- discard
    def _discard(self, seat: int, k: int, *, ting: bool = False, zhidui: int | None = None,
                 auto: bool = False) -> Callable[[], Any] | None:
        self.hands[seat][k] -= 1
        self.drawn[seat] = None
        self.rivers[seat].append(k)
        self.first_turn = False
        self.offer = None
        text = f"ting {tn(k)}" if ting else f"discard {tn(k)}"
        if zhidui is not None:
            text += f" zhidui {tn(zhidui)}"
        self._log(seat, text, auto=auto)
        if ting:
            self.ready[seat] = True
            self.zhidui[seat] = zhidui
            self.ready_at[seat] = len(self.log) - 1
            if not self.bao_set:
                self.bao_set = True
                self._set_bao()
            self._check_dead_bao()
            if self.rules.dai_lou and self.bao is not None:
                win = self._dai_lou(seat)
                if win is not None:
                    if self.rules.auto_hu:
                        self._log(seat, "hu", auto=True)
                        self._finish_win(seat, win, None, "dai_lou")
                        return None
                    self.offer = win
                    self.need = "dailou"
                    self._new_decision()
                    return None
        return lambda: self._open_window(seat, k)

    def _dai_lou(self, seat: int) -> Win | None:
        bao = self.bao
        assert bao is not None
        c = self.hands[seat]
        sig = self.sig(seat)
        hit = bao in wait_kinds(c, sig, self.rules, self.zhidui[seat])
        hit = hit or (self.rules.gua_da_feng and (c[bao] >= 3 or bao in sig.pengs))
        hit = hit or (self.rules.hongzhong_wild and bao == Z)
        if not hit:
            return None
        return evaluate_win(c, sig, bao, self.rules, self_drawn=True, ready=True, bao=bao,
                            zhidui=self.zhidui[seat], wild=True)

    # --- the 宝
    def _set_bao(self) -> None:
        if self.head < self.tail:
            self.tail -= 1
            self.bao = self.wall[self.tail]
            self._log(None, "bao")
        else:
            self.bao = None

    def visible_count(self, kind: int) -> int:
        """Copies of ``kind`` every seat can see: in rivers, in melds and among the old 宝 tiles (§5.3)."""
        n = sum(r.count(kind) for r in self.rivers)
        n += sum(m.tiles.count(kind) for ms in self.melds for m in ms)
        return n + self.old_bao.count(kind)

    def _check_dead_bao(self) -> None:
        while self.bao is not None and self.visible_count(self.bao) >= 3:
            self.old_bao.append(self.bao)
            self._log(None, "bao dead", tile=tn(self.bao))
            self.bao = None
            self._set_bao()

    # --- claims
    def claims_for(self, seat: int, discarder: int, tile: int) -> list[Claim]:
        """The legal claims of ``seat`` on ``tile`` discarded by ``discarder`` (§3.1), highest first."""
        out: list[Claim] = []
        hand = self.hands[seat]
        sig = self.sig(seat)
        r = self.rules
        can_hu = not self.declined[seat] and sig.count > 0 and (self.ready[seat] or not r.hu_requires_ting)
        if can_hu and natural_win(hand, tile, sig, r, self.zhidui[seat]) is not None:
            out.append(Claim("hu"))
        if self.ready[seat] or sig.count >= 3:
            return out
        pengs: list[Claim] = []
        chis: list[Claim] = []
        if hand[tile] >= 2:
            c = list(hand)
            c[tile] -= 2
            if _can_ting_after(c, [*self.melds[seat], peng_meld(tile, discarder)], r):
                pengs.append(Claim("peng", True))
            pengs.append(Claim("peng"))
        if tile != Z:
            rank = tile % 9
            nxt = seat == (discarder + 1) % PLAYERS
            for lo in (tile - 2, tile - 1, tile):
                if lo < tile - rank or lo + 2 > tile - rank + 8:
                    continue
                others = [k for k in (lo, lo + 1, lo + 2) if k != tile]
                if not all(hand[k] for k in others):
                    continue
                seq = (lo, lo + 1, lo + 2)
                c = list(hand)
                for k in others:
                    c[k] -= 1
                if _can_ting_after(c, [*self.melds[seat], chi_meld(seq, tile, discarder)], r):
                    chis.append(Claim("chi", True, seq))
                if nxt:
                    chis.append(Claim("chi", False, seq))
        ordered = pengs + chis
        ordered.sort(key=lambda c: -claim_rank(c, seat, discarder, r)[0])
        return out + ordered

    def _open_window(self, discarder: int, tile: int) -> Callable[[], Any] | None:
        order = [(discarder + i) % PLAYERS for i in (1, 2, 3)]
        claims = {s: self.claims_for(s, discarder, tile) for s in order}
        if self.rules.auto_hu:
            for s in order:
                if claims[s] and claims[s][0].verb == "hu":
                    self._log(s, "hu", auto=True)
                    self._finish_win_on_discard(s, discarder, tile)
                    return None
        asked = tuple(s for s in order if claims[s])
        self.window = Window(discarder, tile, claims, asked)
        self.turn = discarder
        if not asked:
            return self._close_window
        self.phase = "claim"
        self._new_decision()
        return None

    def _potential(self, seat: int) -> tuple[int, int]:
        w = self.window
        assert w is not None
        return max(claim_rank(c, seat, w.discarder, self.rules) for c in w.claims[seat])

    def _best_answer(self) -> tuple[tuple[int, int], int, Claim] | None:
        w = self.window
        assert w is not None
        best: tuple[tuple[int, int], int, Claim] | None = None
        for s, c in w.answers.items():
            if c is None:
                continue
            rk = claim_rank(c, s, w.discarder, self.rules)
            if best is None or rk > best[0]:
                best = (rk, s, c)
        return best

    def _window_acting(self) -> tuple[int, ...]:
        w = self.window
        assert w is not None
        best = self._best_answer()
        out = [s for s in w.asked if s not in w.answers and (best is None or self._potential(s) > best[0])]
        return tuple(sorted(out))

    def _answer(self, seat: int, claim: Claim | None, *, auto: bool) -> None:
        w = self.window
        assert w is not None
        w.answers[seat] = claim
        w.steps[seat] = len(self.actions) - 1
        if (claim is None or claim.verb != "hu") and any(c.verb == "hu" for c in w.claims[seat]):
            # §9: passing a possible win, or answering a chow or pung instead, declines it
            self.declined[seat] = True
        if not self._window_acting():
            self._run(self._close_window)

    def _close_window(self) -> Callable[[], Any] | None:
        w = self.window
        assert w is not None
        best = self._best_answer()
        d, t = w.discarder, w.tile
        if best is None:
            self._check_dead_bao()
            return lambda: self._begin_turn((d + 1) % PLAYERS)
        _, seat, claim = best
        self.carried.add(w.steps[seat])
        if claim.verb == "hu":
            self._log(seat, "hu", auto=self.autoplay[seat])
            self._finish_win_on_discard(seat, d, t)
            return None
        self.rivers[d].pop()
        if claim.verb == "peng":
            self.hands[seat][t] -= 2
            self.melds[seat].append(peng_meld(t, d))
        else:
            assert claim.seq is not None
            for k in claim.seq:
                if k != t:
                    self.hands[seat][k] -= 1
            self.melds[seat].append(chi_meld(claim.seq, t, d))
        self._log(seat, str(claim), tile=tn(t), source=d)
        self.window = None
        self._check_dead_bao()
        self.turn = seat
        self.phase = "play"
        self.need = "ting" if claim.ting else "discard"
        self.drawn[seat] = None
        self.offer = None
        self._new_decision()
        return None

    # --- the end
    def _finish_win_on_discard(self, seat: int, discarder: int, tile: int) -> None:
        sig = self.sig(seat)
        win = evaluate_win(self.hands[seat], sig, tile, self.rules, self_drawn=False, ready=self.ready[seat],
                           zhidui=self.zhidui[seat])
        assert win is not None
        self.hands[seat][tile] += 1
        self.rivers[discarder].pop()
        self._finish_win(seat, win, discarder)

    def _finish_win(self, seat: int, win: Win, feeder: int | None, how: str | None = None) -> None:
        self.how = how or ("discard" if feeder is not None else "wild" if win.wild else "self_drawn")
        self.window = None
        self.win = win
        self.winner = seat
        self.feeder = feeder
        self.settlement = settle(seat, self.dealer, win.fans, self_drawn=feeder is None, feeder=feeder,
                                 feeder_ready=feeder is not None and self.ready[feeder],
                                 opened=[bool(m) for m in self.melds], base=self.rules.base,
                                 ready_feeder_pays=self.rules.ready_feeder_pays)
        self._end()

    def _finish_exhausted(self) -> None:
        self._log(None, "exhausted")
        self.settlement = settle(None, self.dealer, (), self_drawn=False)
        self._end()

    def _end(self) -> None:
        self.phase = "over"
        self.window = None
        self.offer = None
        self._new_decision()
        st = self.settlement
        assert st is not None
        win = self.win
        how = self.how if win is not None else None
        self.result = {
            "scores": list(st.scores),
            "roles": ["dealer" if s == self.dealer else "player" for s in range(PLAYERS)],
            "won": [None] * PLAYERS if self.winner is None else [s == self.winner for s in range(PLAYERS)],
            "winner": self.winner,
            "feeder": self.feeder,
            "dealer": self.dealer,
            "next_dealer": next_dealer(self.dealer, self.winner),
            "exhausted": self.winner is None,
            "how": how,
            "win": None if win is None else {
                "tile": tn(win.tile), "read_as": tn(win.read_as), "self_drawn": win.self_drawn, "wild": win.wild,
                "reading": win.reading.text(), "place": win.reading.place,
            },
            "settlement": st.to_json(),
            "bao": None if self.bao is None else tn(self.bao),
            "old_bao": [tn(k) for k in self.old_bao],
            "hands": [format_tiles(from_counts(h)) for h in self.hands],
            "autoplay": list(self.autoplay),
            "left": list(self.left),
        }

    def outcome(self) -> JSON | None:
        return None if self.result is None else copy.deepcopy(self.result)

    # ------------------------------------------------------------------ host events
    def timeout(self, seat: int) -> None:
        if seat not in self.acting:
            raise IllegalAction(f"seat {seat} has no decision open, so no timeout")
        self.actions.append((seat, TIMEOUT))
        self.step_kinds.append("answer" if self.phase == "claim" else "turn")
        if self.phase == "claim":
            self._answer(seat, None, auto=True)
            return
        a = self.timeout_action(seat)
        self._do(seat, parse_action(a), None, auto=True)
        if not self.autoplay[seat]:
            self.autoplay[seat] = True

    def timeout_action(self, seat: int) -> str:
        """What a timeout of the seat to move plays (§9): the drawn tile, else the last tile in canonical order;
        after a ``… ting`` claim the first ready-making ``ting X`` (its first 支对 when only a 支对 makes it ready);
        an offered win is passed."""
        if self.need in ("win", "dailou"):
            return "pass"
        if self.need == "ting":
            opts = self.ting_options(seat)
            x = min(opts)
            y = None if None in opts[x] else opts[x][0]
            return f"ting {tn(x)}" if y is None else f"ting {tn(x)} zhidui {tn(y)}"
        k = self.drawn[seat]
        if k is None:
            k = max(i for i in range(KINDS) if self.hands[seat][i])
        return f"discard {tn(k)}"

    def set_autoplay(self, seat: int, on: bool) -> None:
        super().set_autoplay(seat, on)
        self.actions.append((seat, AUTOPLAY_ON if on else AUTOPLAY_OFF))
        self.step_kinds.append("host")

    def leave(self, seat: int) -> None:
        if not 0 <= seat < PLAYERS:
            raise IllegalAction(f"no such seat {seat}")
        if self.phase == "over":
            raise IllegalAction("the deal is over")
        if self.left[seat]:
            raise IllegalAction(f"seat {seat} has already left")
        self.left[seat] = True
        self.autoplay[seat] = True
        self.actions.append((seat, LEAVE))
        self.step_kinds.append("host")
        self._log(seat, "leave")

    # ------------------------------------------------------------------ views
    def observe(self, seat: int | None, *, hints: bool = True) -> JSON:
        """What ``seat`` may see (``None``: a spectator); see :mod:`.observe`.  ``hints=False`` leaves out the
        hints (bots that work them out themselves)."""
        from .observe import observe

        return observe(self, seat, hints=hints)

    def record(self) -> JSON:
        """The JSON record: options, seed, dealer (and the tiles of a given deal), every step, the outcome."""
        rec: JSON = {
            "format": FORMAT,
            "version": VERSION,
            "game": "mahjong",
            "preset": preset_name(self.rules),
            "rules": self.rules.to_options(),
            "seed": self.seed,
            "dealer": self.dealer,
            "deal": None,
            "actions": [{"seat": s, "action": a} for s, a in self.actions],
            "outcome": self.outcome(),
        }
        if self.given:
            hands, live = self.initial
            hs = []
            for s, h in enumerate(hands):
                if s == self.dealer:
                    hs.append(f"{format_tiles(h[:-1])} {tn(h[-1])}".strip())
                else:
                    hs.append(format_tiles(h))
            rec["deal"] = {"hands": hs, "wall": " ".join(tn(k) for k in live)}
        return rec

    def clone(self) -> MahjongGame:
        g = copy.copy(self)
        g.hands = [list(h) for h in self.hands]
        g.wall = list(self.wall)
        g.drawn = list(self.drawn)
        g.melds = [list(m) for m in self.melds]
        g.rivers = [list(r) for r in self.rivers]
        g.ready = list(self.ready)
        g.zhidui = list(self.zhidui)
        g.declined = list(self.declined)
        g.left = list(self.left)
        g.autoplay = list(self.autoplay)
        g.old_bao = list(self.old_bao)
        g.log = list(self.log)
        g.actions = list(self.actions)
        g.step_kinds = list(self.step_kinds)
        g.carried = set(self.carried)
        g.ready_at = list(self.ready_at)
        g.window = None if self.window is None else Window(
            self.window.discarder, self.window.tile, {s: list(c) for s, c in self.window.claims.items()},
            self.window.asked, dict(self.window.answers), dict(self.window.steps))
        g.result = copy.deepcopy(self.result)
        g._cache = {}
        g._cache_no = -1
        return g

    def resample(self, seat: int, seed: int) -> MahjongGame:
        """The same history as ``seat`` saw it, with the tiles hidden from it drawn anew; see :mod:`.resample`."""
        from .resample import resample

        return resample(self, seat, seed)


# ---------------------------------------------------------------------------------------------------------------
# helpers


def ting_discards(counts: Sequence[int], sig: MeldSig, rules: Rules) -> dict[int, list[int | None]]:
    """Each discard ``X`` from ``counts`` (14 − 3·melds tiles) that leaves a ready hand, with the declarations it
    allows: ``None`` (a plain ``ting X``) when the hand then waits on some kind, and each 支对 tile ``Y`` (option
    ``zhi_dui``: ``ting X zhidui Y``).  Under ``bu_jia_bu_hu`` a 对倒 hand may be ready only with its 支对 (§6.2.7,
    §6.6): then ``None`` is not among its declarations."""
    out: dict[int, list[int | None]] = {}
    if not sig.count or shanten_counts(counts, sig, rules) > 0:
        return out
    c = list(counts)
    for x in range(KINDS):
        if not c[x]:
            continue
        c[x] -= 1
        decl: list[int | None] = [None] if wait_kinds(c, sig, rules) else []
        if rules.zhi_dui:
            decl.extend(y for y in range(KINDS) if zhidui_ok(c, y, sig, rules))
        if decl:
            out[x] = decl
        c[x] += 1
    return out


def _can_ting_after(counts: Sequence[int], melds: Sequence[Meld], rules: Rules) -> bool:
    """Whether some discard from ``counts`` (after a claim) leaves a ready hand with ``melds``."""
    return bool(ting_discards(counts, meld_sig(melds), rules))


def replay_record(record: Mapping[str, Any] | str, *, upto: int | None = None) -> MahjongGame:
    """Rebuild a deal from its record, applying its first ``upto`` steps (all by default).  Refuses a record
    with an illegal step (naming it) or whose stored outcome differs from the replayed one."""
    import json

    from ...core.game import apply_step
    from ...core.options import OptionError

    rec: Mapping[str, Any] = json.loads(record) if isinstance(record, str) else record
    if not isinstance(rec, Mapping):
        raise RecordError(f"not a qipai record: a record is a JSON object, not {type(rec).__name__}")
    if rec.get("format") != FORMAT:
        raise RecordError(f"not a qipai record: format is {rec.get('format')!r}, expected {FORMAT!r}")
    if rec.get("game") != "mahjong":  # before the version: another game's record has its own versions
        raise RecordError(f"not a mahjong record: game is {rec.get('game')!r}")
    if rec.get("version") != VERSION:
        raise RecordError(f"unsupported record version {rec.get('version')!r} (this build reads {VERSION})")
    if rec.get("rules") and not isinstance(rec["rules"], Mapping):
        raise RecordError(f"bad rules in record: rules are an object of options, not {rec['rules']!r:.60}")
    try:
        raw = dict(rec.get("rules") or {})
        if not raw:
            raw = {"preset": rec.get("preset") or "daqing"}
        rules = Rules.from_options(raw)
    except (OptionError, TypeError) as e:
        raise RecordError(f"bad rules in record: {e}") from None
    seed = rec.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError("the record has no integer seed")
    dealer = rec.get("dealer")
    if dealer is not None and (not isinstance(dealer, int) or not 0 <= dealer < PLAYERS):
        raise RecordError(f"bad dealer {dealer!r} in record")
    deal = rec.get("deal")
    if deal and not isinstance(deal, Mapping):
        raise RecordError(f"bad deal in record: an object with hands and wall, not {deal!r:.60}")
    try:
        if deal:
            game = MahjongGame.from_deal(rules, deal["hands"], deal["wall"], dealer=dealer or 0, seed=seed)
        else:
            game = MahjongGame.new(rules, seed, dealer)
    except KeyError as e:
        raise RecordError(f"bad deal in record: it has no {e.args[0]!r}") from None
    except IllegalAction as e:
        raise RecordError(f"bad deal in record: {e}") from None
    except (TypeError, ValueError, AttributeError):
        raise RecordError(f"bad deal in record: hands are a list of {PLAYERS} hands of tiles and the wall a list "
                          "of tiles, as a record written here has them") from None
    steps = rec.get("actions", [])
    if steps is None:
        steps = []
    if not isinstance(steps, list):
        raise RecordError("bad record: actions are a list of steps")
    for i, item in enumerate(steps[:upto] if upto is not None else steps):
        try:
            s, text = item["seat"], item["action"]
        except (KeyError, TypeError):
            raise RecordError(f"step {i + 1} is malformed: {item!r}") from None
        try:
            apply_step(game, s, text)
        except IllegalAction as e:
            raise RecordError(f"step {i + 1} (seat {s}: {text!r}) is illegal: {e}") from None
    if upto is None and rec.get("outcome") is not None and game.outcome() is None:
        raise RecordError(f"the record ends before the hand is over (after {len(steps)} steps), yet holds an "
                          "outcome")
    if upto is None and rec.get("outcome") is not None and game.outcome() != rec["outcome"]:
        raise RecordError("the replayed outcome differs from the outcome stored in the record")
    return game


def unseen_counts(game: MahjongGame, seat: int | None) -> list[int]:
    """Per kind, the copies ``seat`` cannot see (4 minus its own tiles, rivers, melds, old 宝 and, when ready,
    the current 宝)."""
    c = [4] * KINDS
    if seat is not None:
        for k in range(KINDS):
            c[k] -= game.hands[seat][k]
        if game.ready[seat] and game.bao is not None:
            c[game.bao] -= 1
    for r in game.rivers:
        for k in r:
            c[k] -= 1
    for ms in game.melds:
        for m in ms:
            for k in m.tiles:
                c[k] -= 1
    for k in game.old_bao:
        c[k] -= 1
    return c


def tiles_conserved(game: MahjongGame) -> bool:
    """Whether every one of the 112 tiles is in exactly one place (hands, melds, rivers, wall, 宝, old 宝)."""
    c = [0] * KINDS
    for h in game.hands:
        for k in range(KINDS):
            c[k] += h[k]
    for r in game.rivers:
        for k in r:
            c[k] += 1
    for ms in game.melds:
        for m in ms:
            for k in m.tiles:
                c[k] += 1
    for k in game.wall[game.head:game.tail]:
        c[k] += 1
    if game.bao is not None:
        c[game.bao] += 1
    for k in game.old_bao:
        c[k] += 1
    total = sum(c)
    # a given deal may hold fewer than 112 tiles (a short test wall)
    return all(x <= 4 for x in c) and (total == TOTAL_TILES or game.given)


def iter_kinds(counts: Sequence[int]) -> Iterable[int]:
    return (k for k in range(KINDS) if counts[k])


__all__ = [
    "PHASES",
    "PLAYERS",
    "Claim",
    "MahjongGame",
    "RecordError",
    "Window",
    "claim_rank",
    "replay_record",
    "tiles_conserved",
    "ting_discards",
    "unseen_counts",
]
