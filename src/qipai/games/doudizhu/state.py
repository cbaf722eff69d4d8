"""One Dou Dizhu deal as a state machine: deal → bid → (doubling, show) → play → over (RULES.md §2–§7).

A deal is fully determined by ``(rules, seed, actions)``: :meth:`Game.new` shuffles with the project's own
:class:`~qipai.core.rng.Rng`, and every change goes through :meth:`Game.apply` with a text action.  An
illegal action raises :class:`~qipai.core.game.IllegalAction` saying why, and leaves the state untouched.

>>> from qipai.games.doudizhu.rules import PRESETS
>>> g = Game.new(PRESETS["classic"], seed=7)
>>> g.phase, g.to_act, g.legal_actions()
('bid', 2, ['pass', 'bid 1', 'bid 2', 'bid 3'])
>>> g.apply("bid 3")
>>> g.phase, g.landlord, len(g.hands[2])
('play', 2, 20)
>>> g.apply("pass")
Traceback (most recent call last):
...
qipai.core.game.IllegalAction: seat 2 leads and may not pass
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core.game import AUTOPLAY_OFF, AUTOPLAY_ON, JSON, LEAVE, TIMEOUT, AutoplayFlags, IllegalAction
from ...core.rng import Rng
from .actions import Action, format_action, parse_action
from .cards import NUM_RANKS, RED_JOKER, Card, NotationError, format_ranks, parse_cards
from .combos import Move, beats, classify
from .moves import _answers, _leads, _Tables, _tables, legal_moves
from .rules import Rules
from .settle import Outcome, settle

PHASES = ("bid", "double", "show", "play", "over")
HOST_VERBS = ("autoplay", "timeout", "escape", "leave")
"""Verbs of the host's events, which :meth:`Game.apply` refuses."""


@dataclass
class _Trick:
    """The trick in progress: the move to beat, who played it, and passes since."""

    last: Move | None = None
    by: int = -1
    passes: int = 0
    plays: list[tuple[int, str]] = field(default_factory=list)


class Game(AutoplayFlags):
    """One deal of Dou Dizhu for 3 or 4 seats.  Seats are numbered in turn order.  It implements
    :class:`qipai.core.game.Game`: one seat acts at a time.

    Public state (read-only by convention): ``rules``, ``seed``, ``phase``, ``to_act``, ``hands`` (each seat's
    cards), ``kitty``, ``first_bidder``, ``landlord``, ``bid``, ``redeals``, ``log`` (public events).
    """

    def __init__(self, rules: Rules, seed: int, first_bidder: int | None, table_points: Sequence[int] | None,
                 deal: tuple[list[list[Card]], list[Card]] | None) -> None:
        n = rules.players
        self.rules = rules
        self._tables = _tables(rules)
        self.seed = seed
        self.rng = Rng(seed)
        self.copy_rng = Rng(seed ^ 0x5C0F_FEE5_C0F_FEE5)
        """Which copies a rank-only play takes (drawn from the deal's seed: nothing about the rest of a hand
        can be told from the suits played)."""
        self.fixed_first_bidder = first_bidder
        self.table_points = list(table_points) if table_points is not None else None
        if self.table_points is not None and len(self.table_points) != n:
            raise IllegalAction(f"table_points needs {n} entries, got {len(self.table_points)}")
        if first_bidder is not None and not 0 <= first_bidder < n:  # (a game no seat could act in)
            raise IllegalAction(f"first_bidder must be a seat 0..{n - 1}")
        self.given_deal = deal
        self.actions: list[tuple[int, str]] = []
        self.log: list[JSON] = []
        self.redeals = 0
        self._init_autoplay(n)
        self.autoplay_counted = [False] * n
        self.turns = 0
        """Decisions opened so far (a new one each time a seat's turn begins): see :meth:`decision_index`."""
        self.escaped: int | None = None
        self.dissolved = False
        self.result: Outcome | None = None
        self.public_cache: tuple[int, JSON, Any] | None = None
        self.public_history: list[JSON] = []
        self.rules_options = rules.to_options()
        """Every rule option, as observations carry it (one dict shared by all of this game's views)."""
        """What every seat may see, by game version (see :mod:`qipai.games.doudizhu.observe`)."""
        self._deal(deal, first_bidder)

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, rules: Rules, seed: int, *, first_bidder: int | None = None,
            table_points: Sequence[int] | None = None) -> Game:
        """A deal shuffled from ``seed``.

        ``first_bidder`` fixes who bids first (a table passes it for ``random_then_rotate`` after its first
        deal); otherwise the rules decide (random, face-up card or ♠5).  ``table_points`` are the seats' chips
        for score minimisation.
        """
        return cls(rules, seed, first_bidder, table_points, None)

    @classmethod
    def from_deal(cls, rules: Rules, hands: Sequence[str | Iterable[Card]], kitty: str | Iterable[Card], *,
                  first_bidder: int | None = 0, seed: int = 0,
                  table_points: Sequence[int] | None = None) -> Game:
        """A deal from given cards (puzzles, tests, real deals).  Hands and kitty are suited card notation
        (``"3S 3H 4D ..."``) or :class:`Card` lists.  Impossible deals raise
        :class:`~qipai.core.game.IllegalAction` naming the problem.  A redeal after an all-pass shuffles from
        ``seed``.
        """
        n = rules.players
        if len(hands) != n:
            raise IllegalAction(f"{n} hands needed for {n} players, got {len(hands)}")
        text_pool: dict[int, int] = {}

        def cards_of(x: str | Iterable[Card], what: str) -> list[Card]:
            if isinstance(x, str):
                out = []
                try:
                    base = parse_cards(x, decks=4)
                except NotationError as e:
                    raise IllegalAction(f"{what}: {e}") from None
                for c in base:  # allot copies across decks in the order they appear in the whole deal
                    k = c.id % 54
                    d = text_pool.get(k, 0)
                    text_pool[k] = d + 1
                    out.append(Card(k + 54 * d))
                return out
            return list(x)

        hs = [cards_of(h, f"hand {i}") for i, h in enumerate(hands)]
        kt = cards_of(kitty, "kitty")
        for i, h in enumerate(hs):
            if len(h) != rules.hand_size:
                raise IllegalAction(f"hand {i} has {len(h)} cards; {rules.hand_size} are dealt to each player")
        if len(kt) != rules.kitty_size:
            raise IllegalAction(f"the kitty has {len(kt)} cards; it must have {rules.kitty_size}")
        allc = [c for h in hs for c in h] + kt
        for c in allc:
            if c.deck >= rules.decks:
                raise IllegalAction(f"too many copies of {c}: {rules.decks} deck(s) hold {rules.decks}")
        if len(set(allc)) != len(allc):
            raise IllegalAction("the same card is dealt twice")
        return cls(rules, seed, first_bidder, table_points, (hs, kt))

    def _deal(self, deal: tuple[list[list[Card]], list[Card]] | None, first_bidder: int | None) -> None:
        rules = self.rules
        n = rules.players
        self.face_up: Card | None = None
        if deal is not None:
            hands = [_sorted_cards(c.id for c in h) for h in deal[0]]
            self.kitty = _sorted_cards(c.id for c in deal[1])
        else:
            ids = list(range(54 * rules.decks))  # the deck in id order (as qipai.games.doudizhu.cards.deck), shuffled
            self.rng.shuffle(ids)
            hs = rules.hand_size
            hands = [_sorted_cards(ids[i * hs:(i + 1) * hs]) for i in range(n)]
            self.kitty = _sorted_cards(ids[n * hs:])
        self.initial_hands = hands
        self._set_hands(hands)
        self.initial_kitty = list(self.kitty)
        if first_bidder is None:
            fb = rules.first_bidder
            if fb == "face_up_card":
                k = self.rng.below(n * rules.hand_size)
                self.face_up = self.hands[k // rules.hand_size][k % rules.hand_size]
                first_bidder = k // rules.hand_size
            elif fb == "spade_five":
                first_bidder = self._spade_five_holder()
            else:
                first_bidder = self.rng.below(n)
        self.first_bidder = first_bidder
        self.phase = "bid"
        self.to_act: int | None = first_bidder
        self.bids: list[tuple[int, int]] = []  # (seat, 0 for pass / bid value / 1 for call)
        self.landlord: int | None = None
        self.bid = 0
        self.kitty_taken = False
        self.farmer_factors = [1] * n
        self.doubling: list[tuple[int, str]] = []
        self._double_queue: list[tuple[int, str]] = []
        self._dstage = 0
        self.shown = False
        self.trick = _Trick()
        self.moves_played = [0] * n
        self.cards_played = [0] * n
        self.bombs: list[tuple[int, Move, bool]] = []  # (seat, move, beat another play)
        self.last_trick: list[tuple[int, str]] = []
        self.winner: int | None = None
        self.log.append({"event": "deal", "redeal": self.redeals, "first_bidder": first_bidder,
                         **({"face_up": str(self.face_up)} if self.face_up else {})})

    def _spade_five_holder(self) -> int:
        for suit in "SHCD":
            for seat, h in enumerate(self.hands):
                if any(c.rank == 2 and c.suit == suit for c in h):
                    return seat
        return 0  # unreachable with 3 kitty cards: some five is always dealt

    def _set_hands(self, hands: list[list[Card]]) -> None:
        """Group each hand's cards (sorted by rank, suit, deck) by rank.  Plays always take the lowest cards of a
        rank, so a seat's hand is always the last ``counts[r]`` cards of each rank group: the cards need no
        per-play bookkeeping."""
        self._groups: list[list[list[Card]]] = []
        self.counts: list[list[int]] = []
        for h in hands:
            groups: list[list[Card]] = [[] for _ in range(NUM_RANKS)]
            for c in h:  # already sorted by rank, suit, deck
                groups[_RANK_OF[c.id]].append(c)
            self._groups.append(groups)
            self.counts.append([len(g) for g in groups])

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's cards now, sorted by rank then suit (a fresh list: changing it changes nothing)."""
        return [self.hand(s) for s in range(self.players)]

    def hand(self, seat: int) -> list[Card]:
        """One seat's cards now, as in :attr:`hands` (a fresh list)."""
        groups, counts = self._groups[seat], self.counts[seat]
        out: list[Card] = []
        for g, k in zip(groups, counts, strict=True):
            if k:
                rest = g[len(g) - k:]
                out += rest if k == 1 else sorted(rest, key=_order_key)
        return out

    # ------------------------------------------------------------------ queries
    @property
    def players(self) -> int:
        """Number of seats."""
        return self.rules.players

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self.phase == "over"

    @property
    def max_bid(self) -> int:
        """The highest bid so far (0 if none)."""
        return max((v for _, v in self.bids), default=0)

    def legal_moves(self) -> list[Move]:
        """The legal plays (not counting pass) of the seat to act in the play phase."""
        if self.phase != "play" or self.to_act is None:
            return []
        c = tuple(self.counts[self.to_act])
        last = self.trick.last
        return _leads(self._tables, c) if last is None else _answers(self._tables, c, last, max(c))

    @property
    def acting(self) -> tuple[int, ...]:
        """The seat to act, as a tuple (empty once over)."""
        return () if self.to_act is None else (self.to_act,)

    def public_acting(self) -> tuple[int, ...]:
        """Whose turn it is is public."""
        return self.acting

    def decision_index(self, seat: int) -> int:
        """Changes whenever a turn begins (a host restarts the clock then)."""
        return self.turns

    def legal_actions(self, seat: int | None = None) -> list[str]:
        """Every text action the seat to act may take now (``seat``: [] unless it is that seat's turn)."""
        if self.phase == "over" or self.to_act is None or (seat is not None and seat != self.to_act):
            return []
        if self.phase == "bid":
            out = [] if self._must_bid(self.to_act) else ["pass"]
            if self.rules.bidding == "call":
                return [*out, "call"]
            return out + [f"bid {v}" for v in range(self.max_bid + 1, 4)]
        if self.phase == "double":
            return ["pass", self._double_queue[0][1]]
        if self.phase == "show":
            return ["pass", "show"]
        moves = self.legal_moves()
        out = [] if self.trick.last is None else ["pass"]
        t = self._tables
        texts = t.play_text
        return out + [texts.get(m) or _play_text(m, t) for m in moves]

    def check(self, action: str, seat: int) -> str | None:
        """``None`` if ``seat`` may take ``action`` now, else why not (nothing changes).

        >>> from qipai.games.doudizhu.rules import PRESETS
        >>> g = Game.new(PRESETS["classic"], seed=7)
        >>> g.check("bid 2", 2), g.check("bid 2", 0)
        (None, 'not your turn: seat 2 is to act, not seat 0')
        """
        if self.phase == "over":
            return "the deal is over"
        if seat != self.to_act:
            return f"not your turn: seat {self.to_act} is to act, not seat {seat}"
        if action in self.legal_actions(seat):
            return None
        try:
            self.clone().apply(action, seat)
        except IllegalAction as e:
            return str(e)
        return None

    def time_limit(self, seat: int | None = None) -> int | None:
        """Seconds for the current decision (RULES.md §6): bid, the landlord's first play, later plays."""
        if self.phase == "over" or (seat is not None and seat != self.to_act):
            return None
        r = self.rules
        if self.phase in ("bid", "double", "show"):
            return r.bid_seconds
        if self.to_act == self.landlord and sum(self.moves_played) == 0:
            return r.first_play_seconds
        return r.play_seconds

    def _must_bid(self, seat: int) -> bool:
        r = self.rules
        if r.all_pass == "redeal_then_forced" and self.redeals >= r.forced_bid_from_redeal \
                and len(self.bids) == r.players - 1 and all(v == 0 for _, v in self.bids):
            return True
        if r.forced_bid_hands and all(v == 0 for _, v in self.bids):
            c = self.counts[seat]
            jokers = c[13] + c[RED_JOKER]
            bombs = sum(1 for k in range(13) if c[k] >= 4)
            if jokers >= 2 * r.decks or bombs >= 3:
                return True
        return False

    # ------------------------------------------------------------------ apply
    def apply(self, action: str | Action, seat: int | None = None) -> None:
        """Apply one action by ``seat`` (default: the seat to act).  Raises ``IllegalAction`` saying why.

        Time-outs, auto-play and leaving are not actions: the host calls :meth:`timeout`,
        :meth:`set_autoplay` and :meth:`leave` (records replay them with :func:`qipai.core.game.apply_step`).
        """
        if isinstance(action, str):
            move = self._tables.play_move.get(action)
            if move is not None:
                played_by = self._fast_play(move, seat)
                if played_by is not None:
                    self.actions.append((played_by, action))
                    self.turns += 1
                    return
            a = parse_action(action)
        else:
            a = action
        if a.verb in HOST_VERBS:
            raise IllegalAction(f"{a.verb!r} is a host event, not an action (the host applies it)")
        if self.phase == "over":
            raise IllegalAction("the deal is over", "deal_over")
        if seat is None:
            seat = self.to_act
        if seat is None or not 0 <= seat < self.players:
            raise IllegalAction(f"no such seat {seat}")
        if seat != self.to_act:
            raise IllegalAction(f"not your turn: seat {self.to_act} is to act, not seat {seat}", "not_your_turn")
        if self.phase == "bid":
            self._bid(seat, a)
        elif self.phase == "double":
            self._double(seat, a)
        elif self.phase == "show":
            self._show(seat, a)
        else:
            self._play(seat, a)
        self.actions.append((seat, format_action(a)))
        self.turns += 1

    # ------------------------------------------------------------------ host events
    def timeout(self, seat: int) -> None:
        """``seat``'s time ran out (RULES.md §6): a bid counts as pass (or the lowest bid when it must bid), a
        lead plays the smallest single, a follow passes; the seat goes into auto-play."""
        if self.phase == "over":
            raise IllegalAction("the deal is over", "deal_over")
        if seat != self.to_act:
            raise IllegalAction(f"not your turn: seat {self.to_act} is to act, not seat {seat}", "not_your_turn")
        self._timeout(seat)
        self.actions.append((seat, TIMEOUT))
        self.turns += 1

    def set_autoplay(self, seat: int, on: bool) -> None:
        """Record that ``seat`` went into (``on``) or out of auto-play (托管); any seat, any time before the end."""
        if self.phase == "over":
            raise IllegalAction("the deal is over", "deal_over")
        super().set_autoplay(seat, on)
        self.actions.append((seat, AUTOPLAY_ON if on else AUTOPLAY_OFF))

    def leave(self, seat: int) -> None:
        """``seat`` leaves the running deal (逃跑, RULES.md §6): with ``escape_penalty`` the deal ends and the
        escaper pays; otherwise leaving counts as a disconnection (auto-play)."""
        if self.phase == "over":
            raise IllegalAction("the deal is over", "deal_over")
        if not 0 <= seat < self.players:
            raise IllegalAction(f"no such seat {seat}")
        self._escape(seat)
        self.actions.append((seat, LEAVE))

    def _fast_play(self, move: Move, seat: int | None) -> int | None:
        """Play ``move`` (from a canonical ``play`` text) if it is plainly legal, returning the seat that played;
        ``None`` leaves everything to the full path, which also words any error."""
        s = self.to_act
        if self.phase != "play" or s is None or (seat is not None and seat != s):
            return None
        counts = self.counts[s]
        for r, k in move.parts:
            if counts[r] < k:
                return None
        last = self.trick.last
        if last is not None and not beats(move, last):
            return None
        self._do_play(s, move)
        return s

    def apply_move(self, move: Move | None) -> None:
        """Fast path for engines and bots: the seat to act plays ``move`` (``None`` passes).

        The move must come from :meth:`legal_moves` (it is not re-checked beyond passing rules).
        """
        seat = self.to_act
        if self.phase != "play" or seat is None:
            raise IllegalAction("not in the play phase")
        if move is None:
            if self.trick.last is None:
                raise IllegalAction(f"seat {seat} leads and may not pass", "lead_may_not_pass")
            self._pass(seat)
            self.actions.append((seat, "pass"))
        else:
            self._do_play(seat, move)
            self.actions.append((seat, self._tables.play_text.get(move) or _play_text(move, self._tables)))
        self.turns += 1

    def _set_autoplay(self, seat: int, on: bool) -> None:
        AutoplayFlags.set_autoplay(self, seat, on)

    def _autoplay_changed(self, seat: int, on: bool) -> None:
        if on and not (self.phase == "play" and sum(self.counts[seat]) == 1):
            self.autoplay_counted[seat] = True
        self.log.append({"event": "autoplay", "seat": seat, "on": on})

    def _timeout(self, seat: int) -> None:
        # the seat goes into auto-play as its time runs out, holding the cards it held then (a lead time-out with two
        # cards left plays one: that seat did not go into auto-play "with exactly one card left", RULES.md §7)
        held = sum(self.counts[seat])
        if self.phase == "bid":
            if self._must_bid(seat):
                self._bid(seat, Action("call") if self.rules.bidding == "call" else Action("bid", self.max_bid + 1))
            else:
                self._bid(seat, Action("pass"))
        elif self.phase in ("double", "show"):
            (self._double if self.phase == "double" else self._show)(seat, Action("pass"))
        elif self.trick.last is None:
            c = self.counts[seat]
            r = next(k for k in range(NUM_RANKS) if c[k])
            single = next(m for m in legal_moves(tuple(c), self.rules) if m.kind == "single" and m.main == r)
            self._do_play(seat, single)
        else:
            self._pass(seat)
        if not self.autoplay[seat]:
            self._set_autoplay(seat, True)
            if held > 1:
                self.autoplay_counted[seat] = True

    def _escape(self, seat: int) -> None:
        if not self.rules.escape_penalty:
            if not self.autoplay[seat]:
                self._set_autoplay(seat, True)
            return
        self.escaped = seat
        self.phase = "over"
        self.to_act = None
        self.log.append({"event": "escape", "seat": seat})
        self.result = settle(self)

    # --- bidding
    def _bid(self, seat: int, a: Action) -> None:
        r = self.rules
        if a.verb == "pass":
            if self._must_bid(seat):
                raise IllegalAction(f"seat {seat} must bid: " + (
                    "the last bidder after the third redeal must bid at least 1"
                    if r.all_pass == "redeal_then_forced" and len(self.bids) == r.players - 1
                    else "a hand with all the jokers or three bombs must bid at least 1"), "must_bid")
            value = 0
        elif r.bidding == "call":
            if a.verb != "call":
                raise IllegalAction(f"this table calls the landlord: say 'call' or 'pass', not {format_action(a)!r}")
            value = 1
        else:
            if a.verb != "bid":
                raise IllegalAction(f"this table bids 1-3: say 'bid N' or 'pass', not {format_action(a)!r}")
            assert isinstance(a.value, int)
            value = a.value
            if value <= self.max_bid:
                raise IllegalAction(f"bid too low: a bid must be higher than {self.max_bid}", "bid_too_low")
        self.bids.append((seat, value))
        self.log.append({"event": "bid", "seat": seat, "value": value})
        n = r.players
        if (r.bidding == "call" and value == 1) or value == 3:
            self._make_landlord(seat, value)
        elif len(self.bids) == n:
            best = self.max_bid
            if best > 0:
                winner = next(s for s, v in self.bids if v == best)
                self._make_landlord(winner, best)
            else:
                self._all_pass()
        else:
            self.to_act = (seat + 1) % n

    def _all_pass(self) -> None:
        r = self.rules
        policy = r.all_pass
        if policy == "starter_is_landlord":
            self._make_landlord(self.first_bidder, 1)
            return
        if policy == "redeal_then_dissolve" and self.redeals + 1 >= r.dissolve_after:
            self.dissolved = True
            self.phase = "over"
            self.to_act = None
            self.log.append({"event": "dissolved"})
            self.result = settle(self)
            return
        self.redeals += 1
        self.log.append({"event": "redeal", "count": self.redeals})
        # a redeal is a new deal (重新开始一局): for the auto-play settlement (RULES.md §7) only the seats still in
        # auto-play now count as having been in it; a seat that left auto-play in the abandoned deal does not
        self.autoplay_counted = list(self.autoplay)
        self._deal(None, self.first_bidder)

    def _make_landlord(self, seat: int, bid: int) -> None:
        self.landlord = seat
        self.bid = bid
        groups, counts = self._groups[seat], self.counts[seat]
        for c in self.kitty:  # no card has been played yet: every group is whole
            r = _RANK_OF[c.id]
            groups[r] = _sorted_cards([*(x.id for x in groups[r]), c.id])
            counts[r] += 1
        self.kitty_taken = True
        self.log.append({"event": "landlord", "seat": seat, "bid": bid,
                         **({"kitty": [str(c) for c in self.kitty]} if self.rules.kitty_visible else {})})
        if self.rules.chengdu_doubling:
            n = self.rules.players
            farmers = [(seat + i) % n for i in range(1, n)]
            self._double_queue = [
                (f, "double") for f in farmers
                if not (f == self.first_bidder and any(s == f and v == 0 for s, v in self.bids))
            ]
            if self._double_queue:
                self.phase = "double"
                self.to_act = self._double_queue[0][0]
                return
        self._after_doubling()

    def _after_doubling(self) -> None:
        if self.rules.show_hand:
            self.phase = "show"
            self.to_act = self.landlord
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase = "play"
        self.to_act = self.landlord
        self.log.append({"event": "start_play"})

    # --- Chengdu doubling 倒/反/斡/垒
    def _double(self, seat: int, a: Action) -> None:
        _, verb = self._double_queue[0]
        if a.verb not in ("pass", verb):
            raise IllegalAction(f"seat {seat} may say {verb!r} or 'pass' now, not {format_action(a)!r}")
        self._double_queue.pop(0)
        n = self.rules.players
        assert self.landlord is not None
        farmers = [(self.landlord + i) % n for i in range(1, n)]
        stage = self._dstage
        name = _DOUBLING_NAMES[stage] if a.verb != "pass" else "pass"
        if a.verb != "pass":
            if stage in (0, 2):  # a farmer doubles (倒) or doubles again (斡)
                self.farmer_factors[seat] *= 2
            else:  # the landlord answers every farmer who doubled in the stage before (反 after 倒, 垒 after 斡)
                for f in farmers:
                    if (f, _DOUBLING_NAMES[stage - 1]) in self.doubling:
                        self.farmer_factors[f] *= 2
            self.doubling.append((seat, name))
        self.log.append({"event": "double", "seat": seat, "name": name})
        if not self._double_queue:
            done = {nm for s, nm in self.doubling}
            if stage == 0 and "倒" in done:
                self._double_queue = [(self.landlord, "redouble")]
            elif stage == 1 and "反" in done:
                self._double_queue = [(f, "double") for f in farmers if (f, "倒") in self.doubling]
            elif stage == 2 and "斡" in done:
                self._double_queue = [(self.landlord, "redouble")]
            if self._double_queue:
                self._dstage = stage + 1
        if self._double_queue:
            self.to_act = self._double_queue[0][0]
        else:
            self._after_doubling()

    def _show(self, seat: int, a: Action) -> None:
        if a.verb not in ("pass", "show"):
            raise IllegalAction(f"the landlord may 'show' the hand or 'pass' now, not {format_action(a)!r}")
        if a.verb == "show":
            self.shown = True
            self.log.append({"event": "show", "seat": seat, "hand": [str(c) for c in self.hands[seat]]})
        self._start_play()

    # --- play
    def _play(self, seat: int, a: Action) -> None:
        if a.verb == "pass":
            if self.trick.last is None:
                raise IllegalAction(f"seat {seat} leads and may not pass", "lead_may_not_pass")
            self._pass(seat)
            return
        if a.verb != "play":
            raise IllegalAction(f"in the play phase say 'play CARDS' or 'pass', not {format_action(a)!r}")
        counts = self.counts[seat]
        want = [0] * NUM_RANKS
        for ch in a.cards:
            want["3456789TJQKA2BR".index(ch)] += 1
        missing = [r for r in range(NUM_RANKS) if want[r] > counts[r]]
        if missing:
            held = format_ranks(r for r in range(NUM_RANKS) for _ in range(counts[r]))
            raise IllegalAction(f"you do not hold {a.cards}: missing {format_ranks(r for r in missing)} "
                                f"(your hand: {held})", "not_held")
        readings = classify(tuple(want), self.rules)
        if not readings:
            raise IllegalAction(f"{a.cards} is not a valid combination at this table", "not_a_combination")
        if a.kind:
            readings = [m for m in readings if m.kind == a.kind]
            if not readings:
                raise IllegalAction(f"{a.cards} does not read as {a.kind} at this table")
        if a.main:
            readings = [m for m in readings if m.main_letter == a.main]
            if not readings:
                raise IllegalAction(f"{a.cards}:{a.kind} has no reading with main rank {a.main}")
        last = self.trick.last
        if last is not None:
            good = [m for m in readings if beats(m, last, self.rules)]
            if not good:
                raise IllegalAction(f"{a.cards} does not beat the last play {last.text} ({last.kind})", "does_not_beat")
            readings = good
        if len(readings) > 1:
            options = ", ".join(_label(m, self.rules) for m in readings)
            raise IllegalAction(f"{a.cards} reads more than one way; say which: {options}", "ambiguous")
        if a.suited:
            self._check_suited(seat, a.suited)
        self._do_play(seat, readings[0], a.suited)

    def _check_suited(self, seat: int, suited: tuple[int, ...]) -> None:
        """Refuse a play naming physical cards the seat does not hold (more ♠5 than it has, say)."""
        held: dict[int, int] = {}
        for c in self.hand(seat):
            held[c.id % 54] = held.get(c.id % 54, 0) + 1
        want: dict[int, int] = {}
        for k in suited:
            want[k] = want.get(k, 0) + 1
        for k, n in want.items():
            if held.get(k, 0) < n:
                raise IllegalAction(f"you do not hold {n} × {Card(k)}", "not_held")

    def _pass(self, seat: int) -> None:
        t = self.trick
        t.passes += 1
        t.plays.append((seat, "pass"))
        self.log.append({"event": "pass", "seat": seat})
        n = self.rules.players
        nxt = (seat + 1) % n
        if t.passes == n - 1:
            self.last_trick = t.plays
            self.trick = _Trick()
            self.log.append({"event": "trick", "winner": t.by})
            nxt = t.by
        self.to_act = nxt

    def _do_play(self, seat: int, move: Move, suited: tuple[int, ...] = ()) -> None:
        """Play ``move`` from ``seat``'s hand: the copies ``suited`` names (ids within one deck), else copies drawn
        from the deal's seed (:attr:`copy_rng`)."""
        counts = self.counts[seat]
        parts = move.parts
        for r, k in parts:
            if counts[r] < k:
                raise IllegalAction(f"you do not hold {move.text}")
        groups = self._groups[seat]
        taken: list[Card] = []
        for r, k in parts:
            g = groups[r]
            n = counts[r]
            start = len(g) - n  # the cards left of this rank are g[start:]
            if n > k:
                if suited:
                    wanted = [i for i in suited if _RANK_OF[i] == r]
                    for j, want in enumerate(wanted):
                        at = next(x for x in range(start + j, len(g)) if g[x].id % 54 == want)
                        g[start + j], g[at] = g[at], g[start + j]
                else:
                    rng = self.copy_rng
                    for j in range(k):  # a partial shuffle: k copies drawn uniformly from the n held
                        at = start + j + rng.below(n - j)
                        g[start + j], g[at] = g[at], g[start + j]
            taken += g[start:start + k]
            counts[r] = n - k
        t = self.trick
        if move.is_bomb:
            self.bombs.append((seat, move, t.last is not None))
        t.last = move
        t.by = seat
        t.passes = 0
        t.plays.append((seat, move.text))
        self.moves_played[seat] += 1
        self.cards_played[seat] += move.size
        self.log.append({"event": "play", "seat": seat, "move": move.text, "kind": move.kind,
                         "cards": [_TOKENS[c.id] for c in taken]})
        if not any(counts):
            self.winner = seat
            self.phase = "over"
            self.to_act = None
            self.last_trick = t.plays
            self.result = settle(self)
        else:
            self.to_act = (seat + 1) % self.rules.players

    # ------------------------------------------------------------------ outcome, observation, record
    def outcome(self) -> JSON | None:
        """The settlement as JSON once over, else ``None`` (see :class:`~qipai.games.doudizhu.settle.Outcome`),
        with each seat's ``roles`` (``landlord``/``farmer``, ``None`` before a landlord) and ``won``, and the
        deal's ``first_bidder`` (the next deal's rotation starts from it)."""
        if self.result is None:
            return None
        out = self.result.to_json()
        lord = self.landlord
        winner = self.result.winner
        out["roles"] = [None if lord is None else ("landlord" if s == lord else "farmer")
                        for s in range(self.players)]
        out["won"] = [None if lord is None or winner is None else ((s == lord) == (winner == "landlord"))
                      for s in range(self.players)]
        out["first_bidder"] = self.first_bidder
        return out

    def observe(self, seat: int | None) -> JSON:
        """What ``seat`` may see (``None``: a spectator).  See :mod:`qipai.games.doudizhu.observe`."""
        from .observe import observe

        return observe(self, seat)

    def observe_parts(self, seat: int | None) -> tuple[JSON, JSON]:
        """``observe(seat)`` as ``(shared, own)``: see :func:`qipai.games.doudizhu.observe.observe_parts`."""
        from .observe import observe_parts

        return observe_parts(self, seat)

    def record(self) -> JSON:
        """The JSON game record (see ``docs/records.md``)."""
        from .record import make_record

        return make_record(self)

    def clone(self) -> Game:
        """An independent copy (for search)."""
        return copy.deepcopy(self)

    def resample(self, seat: int, seed: int) -> Game:
        """A copy in which every card ``seat`` cannot see is dealt anew (from ``seed``): the other seats' cards
        and an untaken or hidden kitty, keeping what is public — plays, a visible kitty still in the landlord's
        hand, a shown hand (亮牌), the face-up card.  ``resample(s, k).observe(s) == observe(s)``.

        The copy is for analysis (search, checks): its :meth:`record` describes the original deal.

        >>> from qipai.games.doudizhu.rules import PRESETS
        >>> g = Game.new(PRESETS["classic"], seed=7)
        >>> r = g.resample(0, seed=1)
        >>> r.observe(0) == g.observe(0), r.hand(1) == g.hand(1)
        (True, False)
        """
        if not 0 <= seat < self.players:
            raise ValueError(f"no such seat {seat}")
        g = self.clone()
        holdings = [self.hand(s) for s in range(self.players)]
        fixed: list[list[Card]] = [[] for _ in range(self.players)]
        fixed[seat] = holdings[seat]
        lord = self.landlord
        if self.shown and lord is not None:
            fixed[lord] = holdings[lord]
        known = {c.id for h in fixed for c in h}
        if self.kitty_taken and lord is not None and self.rules.kitty_visible:
            kitty_ids = {c.id for c in self.kitty}
            fixed[lord] = fixed[lord] + [c for c in holdings[lord] if c.id in kitty_ids and c.id not in known]
        if self.face_up is not None:
            holder = next((s for s, h in enumerate(holdings) if self.face_up in h), None)
            if holder is not None and self.face_up.id not in {c.id for c in fixed[holder]}:
                fixed[holder] = [*fixed[holder], self.face_up]
        known = {c.id for h in fixed for c in h}
        pool = [c for h in holdings for c in h if c.id not in known]
        hidden_kitty = not self.kitty_taken
        if hidden_kitty:
            pool += self.kitty
        rng = Rng(seed)
        rng.shuffle(pool)
        hands: list[list[Card]] = []
        for s in range(self.players):
            need = len(holdings[s]) - len(fixed[s])
            hands.append(_sorted_cards([c.id for c in fixed[s]] + [c.id for c in pool[:need]]))
            del pool[:need]
        if hidden_kitty:
            g.kitty = _sorted_cards(c.id for c in pool)
        g._set_hands(hands)
        for s in range(self.players):
            if len(fixed[s]) == len(holdings[s]):
                # a hand kept whole keeps its order within each rank too: which copy a later rank-only play
                # takes is drawn by position, so a re-sorted hand would play other suits than the original
                g._groups[s] = [list(x) for x in self._groups[s]]
                g.counts[s] = list(self.counts[s])
        g.public_cache = None
        return g


_DOUBLING_NAMES = ("倒", "反", "斡", "垒")
"""Chengdu doubling stages: farmers 倒, landlord 反, farmers 斡, landlord 垒 (seed 004)."""


_CARDS = [Card(i) for i in range(4 * 54)]
_TOKENS = [str(c) for c in _CARDS]
_RANK_OF = [c.rank for c in _CARDS]
_ORDER = [(c.id % 54) * 4 + c.deck for c in _CARDS]  # card_order as one int


def _order_key(c: Card) -> int:
    return _ORDER[c.id]


def _sorted_cards(ids: Iterable[int]) -> list[Card]:
    """Cards by id, sorted by rank, suit, deck (the shared Card objects: no allocation per deal)."""
    return [_CARDS[i] for i in sorted(ids, key=_ORDER.__getitem__)]


def _label(move: Move, rules: Rules) -> str:
    labels = _tables(rules).labels
    s = labels.get(move)
    if s is None:
        s = labels[move] = move.label(rules)
    return s


def _play_text(move: Move, tables: _Tables) -> str:
    """``play LABEL`` for a move, cached per rule set together with the reverse map (text → move)."""
    s = tables.play_text.get(move)
    if s is None:
        s = tables.play_text[move] = "play " + _label(move, tables.rules)
        tables.play_move[s] = move
    return s


def next_first_bidder(rules: Rules, previous: Game | None) -> int | None:
    """Who bids first in a table's next deal: the next seat under ``random_then_rotate``, else the rules decide.

    >>> from qipai.games.doudizhu.rules import PRESETS
    >>> next_first_bidder(PRESETS["classic"], Game.new(PRESETS["classic"], 1))
    1
    """
    if previous is None or rules.first_bidder != "random_then_rotate":
        return None
    return (previous.first_bidder + 1) % rules.players


def game_from_options(options: Mapping[str, Any], seed: int, context: Mapping[str, Any]) -> Game:
    """Build a game from rule options and table context (``first_bidder``, ``table_points``)."""
    rules = Rules.from_options(options)
    return Game.new(rules, seed, first_bidder=context.get("first_bidder"), table_points=context.get("table_points"))
