"""One hand of four-deck Shengji as a :class:`qipai.core.game.Game`: the deal with its declaration windows (a
joint decision of all four seats, §3), the tricks (§5–§7) and the settlement (§8, §9.4).

``(options, seed, context, actions)`` determines a hand.  Text actions: ``declare 3S 3S`` and ``pass`` while the
cards are dealt, ``play 7S 7S 8S 8S`` in play.  The host's events go through :meth:`ShengjiGame.timeout`
(closes a declaration window — the spec's ``deal()`` —, or plays the §9.2 passive choice and starts auto-play),
:meth:`ShengjiGame.set_autoplay` and :meth:`ShengjiGame.leave`.

>>> g = ShengjiGame({}, seed=3)
>>> g.phase, g.acting, g.dealt
('deal', (0, 1, 2, 3), 1)
>>> for s in (0, 1, 2):
...     g.apply("pass", s)
>>> g.acting, g.check("play 3S", 3)
((3,), 'the cards are being dealt: declare <level cards> or pass')
>>> g.timeout(3); g.dealt, g.acting
(2, (0, 1, 2, 3))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...core.game import AUTOPLAY_OFF, AUTOPLAY_ON, JSON, LEAVE, TIMEOUT, AutoplayFlags, IllegalAction
from ...core.rng import Rng
from .cards import (
    DECK_SIZE,
    NUM_FACES,
    RANKS,
    SUITS,
    TRUMP,
    NotationError,
    Order,
    expand,
    face_text,
    format_cards,
    full_deck,
    level_rank,
    level_text,
    order_of,
    parse_cards,
    points,
)
from .combos import Lead, failed_throw, fmt_name, read_lead, trick_winner
from .follow import follow_error, follow_options, lead_error, passive_follow, passive_lead
from .rules import resolve_options
from .scoring import hand_result, last_trick_amount, settle_scores, team_of

_TEXTS = tuple(face_text(f) for f in range(NUM_FACES))

PHASES = ("deal", "final", "play", "over")
"""``deal``: a declaration window after each of cards 1..215; ``final``: the final window after card 216;
``play``: the tricks; ``over``."""

PLAYERS = 4
MAX_AUTOPLAY_CHANGES = 50
"""Auto-play changes accepted per seat and hand (keeps :data:`MAX_ACTIONS` a true bound)."""
MAX_ACTIONS = 215 * 4 + 16 + 216 + 4 * MAX_AUTOPLAY_CHANGES + 4
"""Deal windows (4 answers each), the final window (at most 16 answers: 4 declarations at most in a hand), 216
plays, auto-play changes, leaves."""
ALL = 0b1111
_SILENT = tuple(tuple(s for s in range(PLAYERS) if not mask >> s & 1) for mask in range(16))
"""The seats that have not answered, by the bitmask of those that have."""


def normalize_context(context: Mapping[str, Any] | None, options: Mapping[str, Any]) -> JSON:
    """The deal context with every key: ``hand`` (1-based), ``levels`` (teams A, B as letters) and ``banker`` (a
    seat, or ``None`` in the first hand: the final declarer becomes banker).  Raises :class:`IllegalAction`."""
    ctx = dict(context or {})
    start = options.get("start_level", "3")
    levels = ctx.get("levels", [start, start])
    try:
        if not isinstance(levels, list | tuple) or len(levels) != 2:
            raise ValueError("levels must be two levels (teams A and B)")
        lv = [level_text(level_rank(x)) for x in levels]
    except ValueError as e:
        raise IllegalAction(f"bad context: {e}") from None
    banker = ctx.get("banker")
    if banker is not None and (not isinstance(banker, int) or isinstance(banker, bool) or not 0 <= banker < 4):
        raise IllegalAction(f"bad context: banker must be a seat 0..3 or null, got {banker!r}")
    if banker is None and lv[0] != lv[1]:
        raise IllegalAction("bad context: without a banker (first hand) both teams must be at the same level")
    hand = ctx.get("hand", 1)
    if not isinstance(hand, int) or isinstance(hand, bool) or hand < 1:
        raise IllegalAction(f"bad context: hand must be a number from 1, got {hand!r}")
    return {"hand": hand, "levels": lv, "banker": banker}


class ShengjiGame(AutoplayFlags):
    """One hand of four-deck Shengji (see the module doc).  Build with ``ShengjiGame(options, seed, context)``;
    ``deal``/``first`` give the cards in deal order (216 faces) and the first-dealt seat instead of the seed."""

    def __init__(self, options: Mapping[str, Any] | None = None, seed: int = 0,
                 context: Mapping[str, Any] | None = None, *, deal: Sequence[int] | None = None,
                 first: int | None = None) -> None:
        opts = resolve_options(options or {})
        self.options: JSON = opts
        self.seed = seed
        self.context = normalize_context(context, opts)
        self.custom_deal = deal is not None
        if deal is not None:
            cards = list(deal)
            if sorted(cards) != full_deck():
                raise IllegalAction("a deal must be the 216 cards of four decks, each once")
            if first is None or not 0 <= first < 4:
                raise IllegalAction("a given deal needs the first-dealt seat 0..3")
        else:
            rng = Rng(seed)
            first = rng.below(4)
            cards = full_deck()
            rng.shuffle(cards)
        self.deal_order: list[int] = cards
        self.first: int = first
        ctx = self.context
        self.levels = [level_rank(x) for x in ctx["levels"]]
        self.banker: int | None = ctx["banker"]
        self.level = self.levels[team_of(self.banker)] if self.banker is not None else self.levels[0]
        self.hand_no: int = ctx["hand"]
        self._init_autoplay(PLAYERS)
        self.autoplay_changes = [0] * PLAYERS
        self.left = [False] * PLAYERS
        self.escaped: int | None = None
        self.hands = [[0] * NUM_FACES for _ in range(PLAYERS)]
        self.dealt = 0
        self.answered = 0
        self.decls: list[tuple[int, int, int, int]] = []
        """Every declaration: (seat, face, count, cards dealt when it was made)."""
        self.trump: int | None = None
        self.order: Order | None = None
        self.turn: int | None = None
        self.leader: int | None = None
        self.lead: Lead | None = None
        self.trick: list[tuple[int, tuple[int, ...]]] = []
        self.tricks: list[JSON] = []
        self.failed: list[JSON] = []
        self.att_points = 0
        self.bank_points = 0
        self.penalties = 0
        self.actions: list[tuple[int, str]] = []
        self.play_start: int | None = None
        """Index in :attr:`actions` of the first action of the play."""
        self.result: JSON | None = None
        self._phase = "deal"
        self._dix = 0
        self._ver = 0
        self._shared: tuple[int, JSON] | None = None
        self._deal_next()

    # ------------------------------------------------------------------ the Game protocol: state
    @property
    def players(self) -> int:
        return PLAYERS

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    @property
    def acting(self) -> tuple[int, ...]:
        ph = self._phase
        if ph == "play":
            assert self.turn is not None
            return (self.turn,)
        if ph == "over":
            return ()
        return _SILENT[self.answered]

    def public_acting(self) -> tuple[int, ...]:
        """The acting seats are public, in the windows too: every seat must answer every window whatever it holds
        and ``pass`` is always legal, so who has answered tells nothing about the cards; a declaration is public
        anyway (seat and count, §3.2), and the window's closing shows that the silent seats passed."""
        return self.acting

    def decision_index(self, seat: int) -> int:
        """Changes with every new window, every final-window declaration (its timer restarts, §3.3) and every
        turn."""
        return self._dix

    def time_limit(self, seat: int) -> float | None:
        if seat not in self.acting:
            return None
        ph = self._phase
        o = self.options
        if ph == "deal":
            return float(o["deal_step_ms"]) / 1000.0
        if ph == "final":
            return float(o["final_declare_s"])
        if not self.tricks and not self.trick:
            return float(o["first_lead_s"])
        return float(o["play_s"])

    @property
    def standing(self) -> tuple[int, int, int, int] | None:
        """The standing declaration (seat, face, count, dealt), or ``None``."""
        return self.decls[-1] if self.decls else None

    # ------------------------------------------------------------------ actions
    def legal_actions(self, seat: int) -> list[str]:
        """In the windows every legal action (``pass`` first); in play a partial list (the count of throws and
        follows is huge): the passive choice first, then for a lead every single, group and longest tractor, for a
        follow a few ways to meet the requirement list (:func:`~.follow.follow_options`)."""
        if seat not in self.acting:
            return []
        if self._phase in ("deal", "final"):
            return ["pass", *self._declarations(seat)]
        o = self.order
        assert o is not None
        hand = self.hands[seat]
        plays = lead_options(hand, o) if self.lead is None else follow_options(hand, self.lead, o)
        return ["play " + (" ".join([_TEXTS[p[0]]] * len(p)) if p.count(p[0]) == len(p) else format_cards(p, o))
                for p in plays]

    def _declarations(self, seat: int) -> list[str]:
        st = self.standing
        if st is not None and st[0] == seat:
            return []
        need = st[2] + 1 if st is not None else 1
        out = []
        h = self.hands[seat]
        for s in range(4):
            f = s * 13 + self.level
            for k in range(need, h[f] + 1):
                out.append("declare " + " ".join([face_text(f)] * k))
        return out

    def check(self, action: str, seat: int) -> str | None:
        try:
            self._parse(action, seat)
        except IllegalAction as e:
            return str(e)
        return None

    def _parse(self, action: str, seat: int) -> tuple[str, list[int]]:
        if not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise IllegalAction(f"no such seat {seat!r}")
        if not isinstance(action, str):
            raise IllegalAction("an action is text")
        ph = self._phase
        if ph == "over":
            raise IllegalAction("the hand is over")
        if len(self.actions) >= MAX_ACTIONS:
            raise IllegalAction(f"the hand has reached {MAX_ACTIONS} actions")
        words = action.split(None, 1)
        verb = words[0].lower() if words else ""
        if ph in ("deal", "final"):
            if verb not in ("pass", "declare"):
                raise IllegalAction("the cards are being dealt: declare <level cards> or pass")
            if self.answered >> seat & 1:
                raise IllegalAction(f"seat {seat} has already answered this window")
            if verb == "pass":
                if len(words) > 1:
                    raise IllegalAction("pass takes nothing after it")
                return "pass", []
            return "declare", self._check_declare(words[1] if len(words) > 1 else "", seat)
        if verb != "play":
            raise IllegalAction("it is the play: play <cards>")
        if seat != self.turn:
            raise IllegalAction(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        try:
            cards = parse_cards(words[1] if len(words) > 1 else "")
        except NotationError as e:
            raise IllegalAction(str(e)) from None
        o = self.order
        assert o is not None
        hand = self.hands[seat]
        if self.lead is None:
            err = lead_error(hand, cards, o, self.options["throws"])
        else:
            err = follow_error(hand, self.lead, cards, o) if cards else "play some cards"
        if err:
            raise IllegalAction(err)
        return "play", cards

    def _check_declare(self, text: str, seat: int) -> list[int]:
        try:
            cards = parse_cards(text)
        except NotationError as e:
            raise IllegalAction(str(e)) from None
        lv = RANKS[self.level]
        if not cards:
            raise IllegalAction(f"declare shows 1 to 4 identical level cards (level {lv}), e.g. declare {lv}S")
        if any(f >= 52 for f in cards):
            raise IllegalAction("jokers cannot be declared")
        f = cards[0]
        if any(c != f for c in cards):
            raise IllegalAction(f"a declaration shows identical cards: {' '.join(face_text(c) for c in cards)} are not")
        if f % 13 != self.level:
            raise IllegalAction(f"{face_text(f)} is not a level card: the level is {lv}")
        k = len(cards)
        held = self.hands[seat][f]
        if held < k:
            raise IllegalAction(f"you hold {held} {face_text(f)}, not {k}")
        st = self.standing
        if st is not None:
            if st[0] == seat:
                raise IllegalAction("your declaration stands: you may not overcall yourself")
            if k <= st[2]:
                raise IllegalAction(f"the standing declaration shows {st[2]} card{'s' if st[2] > 1 else ''}: "
                                    f"an overcall needs more than {st[2]}")
        return cards

    def apply(self, action: str, seat: int) -> None:
        if action == "pass" and self._phase in ("deal", "final") and type(seat) is int and 0 <= seat < PLAYERS \
                and not self.answered >> seat & 1 and len(self.actions) < MAX_ACTIONS:
            self.actions.append((seat, "pass"))  # the fast path of the deal
            self.answered |= 1 << seat
            self._ver += 1
            if self.answered == ALL:
                self._close_window()
            return
        kind, cards = self._parse(action, seat)
        self._ver += 1
        if kind == "pass":
            self.actions.append((seat, "pass"))
            self.answered |= 1 << seat
        elif kind == "declare":
            self.actions.append((seat, "declare " + " ".join(face_text(c) for c in cards)))
            self.decls.append((seat, cards[0], len(cards), self.dealt))
            if self._phase == "final":
                self.answered = 1 << seat
                self._dix += 1
            else:
                self.answered |= 1 << seat
        else:
            assert self.order is not None
            self.actions.append((seat, "play " + format_cards(cards, self.order)))
            self._play(seat, cards)
            return
        if self.answered == ALL:
            self._close_window()

    # ------------------------------------------------------------------ host events
    def timeout(self, seat: int) -> None:
        """In a window: the spec's ``deal()`` — the silent seats pass, the window closes (no auto-play).  In play:
        the §9.2 passive choice is played for ``seat`` and the seat goes into auto-play."""
        if seat not in self.acting:
            raise IllegalAction(f"seat {seat} has no open decision")
        if len(self.actions) >= MAX_ACTIONS:
            raise IllegalAction(f"the hand has reached {MAX_ACTIONS} actions")
        self._ver += 1
        self.actions.append((seat, TIMEOUT))
        if self._phase in ("deal", "final"):
            self._close_window()
            return
        o = self.order
        assert o is not None
        hand = self.hands[seat]
        cards = passive_lead(hand, o) if self.lead is None else passive_follow(hand, self.lead, o)
        if not self.autoplay[seat]:
            self.autoplay[seat] = True
        self._play(seat, cards)

    def set_autoplay(self, seat: int, on: bool) -> None:
        if not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise IllegalAction(f"no such seat {seat!r}")
        if self._phase == "over":
            raise IllegalAction("the hand is over")
        if not on and self.left[seat]:
            raise IllegalAction(f"seat {seat} left the match and stays in auto-play")
        if self.autoplay_changes[seat] >= MAX_AUTOPLAY_CHANGES:
            raise IllegalAction(f"seat {seat} has changed auto-play {MAX_AUTOPLAY_CHANGES} times in this hand")
        if len(self.actions) >= MAX_ACTIONS:
            raise IllegalAction(f"the hand has reached {MAX_ACTIONS} actions")
        super().set_autoplay(seat, on)
        self.autoplay_changes[seat] += 1
        self._ver += 1
        self.actions.append((seat, AUTOPLAY_ON if on else AUTOPLAY_OFF))

    def leave(self, seat: int) -> None:
        """§9.3: with ``escape_penalty`` the hand and the match end, the escaper loses 3 × stake; without it the
        seat goes into auto-play to the end of the match."""
        if not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise IllegalAction(f"no such seat {seat!r}")
        if self._phase == "over":
            raise IllegalAction("the hand is over")
        if self.left[seat]:
            raise IllegalAction(f"seat {seat} has already left")
        self._ver += 1
        self.actions.append((seat, LEAVE))
        self.left[seat] = True
        if self.options["escape_penalty"]:
            self.escaped = seat
            self._finish_escape(seat)
            return
        if not self.autoplay[seat]:
            self.autoplay[seat] = True

    # ------------------------------------------------------------------ the deal
    def _deal_next(self) -> None:
        i = self.dealt
        self.hands[(self.first + i) % PLAYERS][self.deal_order[i]] += 1
        self.dealt = i + 1
        self.answered = 0
        self._dix += 1
        if self.dealt == DECK_SIZE:
            self._phase = "final"

    def _close_window(self) -> None:
        if self._phase == "deal":
            self._deal_next()
            return
        st = self.standing
        self.trump = st[1] // 13 if st is not None else 0
        if self.banker is None:
            self.banker = st[0] if st is not None else self.first
        self.level = self.levels[team_of(self.banker)]
        self.order = order_of(self.level, self.trump)
        self._phase = "play"
        self.play_start = len(self.actions)
        self.turn = self.leader = self.banker
        self.answered = 0
        self._dix += 1

    # ------------------------------------------------------------------ play
    def _play(self, seat: int, cards: list[int]) -> None:
        o = self.order
        assert o is not None and self.banker is not None
        hand = self.hands[seat]
        if self.lead is None:
            lead = read_lead(cards, o)
            if lead.is_throw:
                e = lead.esuit
                others = [{f: self.hands[s][f] for f in o.faces[e] if self.hands[s][f]}
                          for s in range(PLAYERS) if s != seat]
                forced = failed_throw(lead, others, o)
                if forced is not None:
                    pen = self.options["throw_penalty"]
                    sign = 1 if team_of(seat) == team_of(self.banker) else -1
                    self.penalties += sign * pen
                    self.failed.append({"seat": seat, "cards": format_cards(cards, o),
                                        "forced": forced.text(o), "penalty": sign * pen,
                                        "trick": len(self.tricks) + 1})
                    cards = forced.cards()
                    lead = read_lead(cards, o)
            self.lead = lead
        for f in cards:
            hand[f] -= 1
        self.trick.append((seat, tuple(cards)))
        self._dix += 1
        if len(self.trick) < PLAYERS:
            self.turn = (seat + 1) % PLAYERS
            return
        lead = self.lead
        assert lead is not None
        plays = [c for _, c in self.trick]
        wi = trick_winner(lead, plays, o)
        winner = self.trick[wi][0]
        pts = sum(points(c) for c in plays)
        last = not any(self.hands[0])
        rec: JSON = {"leader": self.trick[0][0], "plays": [[s, format_cards(c, o)] for s, c in self.trick],
                     "winner": winner, "points": pts}
        if lead.is_throw:
            rec["throw"] = True
        self.tricks.append(rec)
        attackers_won = team_of(winner) != team_of(self.banker)
        self.trick = []
        self.lead = None
        if last:
            self._finish(pts, lead.n, attackers_won, winner)
            return
        if attackers_won:
            self.att_points += pts
        else:
            self.bank_points += pts
        self.turn = self.leader = winner

    def _finish(self, pts: int, m: int, attackers_won: bool, winner: int) -> None:
        assert self.banker is not None
        amount = last_trick_amount(pts, m, attackers_won)
        score = self.att_points + amount + self.penalties
        o = self.options
        res = hand_result(self.levels, self.banker, score, ace_rule=o["ace_rule"], hand_no=self.hand_no,
                          hand_limit=o["hand_limit"])
        scores = settle_scores(res, o["stake"], o["match_bonus"])
        bteam = team_of(self.banker)
        self.result = {
            "scores": scores,
            "roles": ["banker" if team_of(s) == bteam else "attacker" for s in range(PLAYERS)],
            "won": [team_of(s) == res.winning_team for s in range(PLAYERS)],
            **self._record_fields(),
            "attackers_points_before_last": self.att_points,
            "banker_points_before_last": self.bank_points,
            "last_trick": {"points": pts, "m": m, "winner": winner,
                           "side": "attackers" if attackers_won else "banker", "amount": amount},
            "penalties": self.penalties,
            "score": score,
            "escaped": None,
            **res.to_json(),
        }
        self._phase = "over"
        self.turn = None

    def _record_fields(self) -> JSON:
        st = self.standing
        o = self.order
        return {
            "hand_no": self.hand_no,
            "first": self.first,
            "banker": self.banker,
            "level": RANKS[self.level],
            "levels": [RANKS[x] for x in self.levels],
            "declarations": [[s, " ".join([face_text(f)] * k), at] for s, f, k, at in self.decls],
            "standing": None if st is None else [st[0], " ".join([face_text(st[1])] * st[2])],
            "trump": SUITS[self.trump] if self.trump is not None else None,
            "tricks": list(self.tricks),
            "failed_throws": list(self.failed),
            "order": None if o is None else repr(o),
        }

    def _finish_escape(self, seat: int) -> None:
        stake = self.options["stake"]
        scores = [0] * PLAYERS
        scores[seat] = -3 * stake
        bteam = team_of(self.banker) if self.banker is not None else None
        self.result = {
            "scores": scores,
            "roles": [None if bteam is None else "banker" if team_of(s) == bteam else "attacker"
                      for s in range(PLAYERS)],
            "won": [False if s == seat else None for s in range(PLAYERS)],
            **self._record_fields(),
            "escaped": seat,
            "score": None,
            "new_levels": [RANKS[x] for x in self.levels],
            "next_banker": None,
            "match_over": True,
            "match_winner": None,
        }
        self._phase = "over"
        self.turn = None

    # ------------------------------------------------------------------ views
    def outcome(self) -> JSON | None:
        return self.result

    def _shared_view(self) -> JSON:
        cached = self._shared
        if cached is not None and cached[0] == self._ver:
            return cached[1]
        o = self.order
        st = self.standing
        revealed = None
        if self._phase in ("play", "over") and st is not None and self.order is not None:
            revealed = {"seat": st[0], "cards": " ".join([face_text(st[1])] * st[2])}
        lead = self.lead
        lead_view = None
        if lead is not None:
            lead_view = {"cards": format_cards(lead.cards, o), "n": lead.n,
                         "format": "throw" if lead.is_throw else fmt_name(lead.fmt or (1, 1)),
                         "suit": "trump" if lead.esuit == TRUMP else SUITS[lead.esuit],
                         "parts": [p.text(o) for p in lead.parts]}
        view: JSON = {
            "game": "shengji",
            "phase": self._phase,
            "options": self.options,
            "hand_no": self.hand_no,
            "levels": [RANKS[x] for x in self.levels],
            "level": RANKS[self.level],
            "banker": self.banker,
            "first": self.first,
            "dealt": self.dealt,
            "hand_sizes": [sum(h) for h in self.hands],
            "declarations": [[s, k, at] for s, _, k, at in self.decls],
            "standing": None if st is None else [st[0], st[2]],
            "revealed": revealed,
            "trump": SUITS[self.trump] if self.trump is not None else None,
            "acting": list(self.public_acting()),
            "turn": self.turn,
            "leader": self.leader,
            "trick": [[s, format_cards(c, o)] for s, c in self.trick],
            "lead": lead_view,
            "tricks": list(self.tricks),
            "last_trick": self.tricks[-1] if self.tricks else None,
            "points": {"attackers": self.att_points, "banker": self.bank_points, "penalties": self.penalties},
            "failed_throws": list(self.failed),
            "autoplay": list(self.autoplay),
            "left": list(self.left),
            "outcome": self._public_outcome(),
        }
        self._shared = (self._ver, view)
        return view

    def _public_outcome(self) -> JSON | None:
        """The outcome as every seat sees it: overcalled declarations stay concealed (seat, count and timing only,
        §3.2); the full record keeps their cards."""
        if self.result is None:
            return None
        return {**self.result, "declarations": [[s, k, at] for s, _, k, at in self.decls]}

    def observe_parts(self, seat: int | None) -> tuple[JSON, JSON]:
        shared = self._shared_view()
        if seat is None:
            return shared, {"seat": None}
        if not 0 <= seat < PLAYERS:
            raise IllegalAction(f"no such seat {seat!r}")
        own: JSON = {
            "seat": seat,
            "hand": format_cards(expand(self.hands[seat]), self.order),
            "my_declarations": [[at, " ".join([face_text(f)] * k)] for s, f, k, at in self.decls if s == seat],
        }
        return shared, own

    def observe(self, seat: int | None) -> JSON:
        shared, own = self.observe_parts(seat)
        return {**shared, **own}

    # ------------------------------------------------------------------ records, copies
    def record(self) -> JSON:
        rec: JSON = {
            "game": "shengji",
            "version": 1,
            "options": dict(self.options),
            "seed": self.seed,
            "context": dict(self.context),
            "actions": [[s, t] for s, t in self.actions],
        }
        if self.custom_deal:
            rec["deal"] = " ".join(face_text(f) for f in self.deal_order)
            rec["first"] = self.first
        if self.result is not None:
            rec["result"] = self.result
        return rec

    def clone(self) -> ShengjiGame:
        g = ShengjiGame.__new__(ShengjiGame)
        g.__dict__.update(self.__dict__)
        g.autoplay = list(self.autoplay)
        g.autoplay_changes = list(self.autoplay_changes)
        g.left = list(self.left)
        g.hands = [list(h) for h in self.hands]
        g.decls = list(self.decls)
        g.trick = list(self.trick)
        g.tricks = list(self.tricks)
        g.failed = list(self.failed)
        g.actions = list(self.actions)
        g.deal_order = list(self.deal_order)
        g._shared = None
        return g

    def resample(self, seat: int, seed: int) -> ShengjiGame:
        from .resample import resample

        return resample(self, seat, seed)


def lead_options(hand: Sequence[int], o: Order) -> list[list[int]]:
    """Hints for a lead (a partial list): the passive single first, then every other single, every pair,
    triple and quad, and every longest tractor of the hand (no throws: whether one succeeds depends on hidden
    cards).

    >>> from qipai.games.shengji.cards import counts, order
    >>> o = order("3", "H")
    >>> [format_cards(p, o) for p in lead_options(counts(parse_cards("4S 4S 5S 5S 9D")), o)]
    ['4S', '5S', '9D', '4S 4S', '5S 5S', '5S 5S 4S 4S']
    """
    from .combos import tractors_of_counts

    out = [passive_lead(hand, o)]
    low = o.low
    faces = sorted((f for f in range(NUM_FACES) if hand[f]), key=low.__getitem__)
    for m in (1, 2, 3, 4):
        for f in faces:
            if hand[f] >= m and not (m == 1 and f == out[0][0]):
                out.append([f] * m)
    for t in reversed(tractors_of_counts(hand, o)):
        out.append(t.cards())
    return out
