"""Adapters for peer Dou Dizhu engines: RLCard, DouZero and OpenSpiel.

Each adapter calls the peer library (imported lazily: importing this module never fails when a
peer is missing) and converts to and from our notation:

- ranks ``3456789TJQKA2BR`` (``T`` ten, ``B`` black/small joker, ``R`` red/big joker);
- a move is printed canonically as its rank letters in ascending rank order (``33344456``);
- kinds are the names of RULES.md §3 (``single`` … ``rocket``).

Common interface (``Peer``):

- ``available() -> bool``: is the peer installed (and importable)?
- ``version() -> str | None``
- ``leads(hand) -> list[str]``: every leading move the peer generates for ``hand``, canonical,
  in the peer's order, duplicates kept (DouZero and OpenSpiel list some moves more than once).
- ``answers(hand, prev) -> list[str]``: every answer except pass the peer allows ``hand`` against
  ``prev`` (our notation; the peer classifies ``prev`` itself).  Raises ``PeerRejected`` when the
  peer does not accept ``prev`` as a move and ``PositionUnreachable`` when the peer cannot be put
  into that position (OpenSpiel only, see ``OpenSpielPeer``).
- ``classify(cards) -> str | None``: the peer's kind for these cards, or ``None`` if it rejects them;
  ``readings(cards) -> list[str]``: every kind the peer gives them (only OpenSpiel ever has several).
- ``random_selfplay(n_games, seed) -> int``: plays ``n_games`` random games from the deal to the end
  through the peer's own game loop and returns the number of card plays (passes and bids not
  counted).  The loops differ:

  * RLCard: ``rlcard.make('doudizhu')`` env + ``env.run()`` with uniformly random agents.  No bidding:
    player 0 is always the landlord (RLCard's bidding code is commented out).
  * DouZero: ``GameEnv`` + ``card_play_init`` with a deal made here (20/17/17, three kitty cards to the
    landlord) and agents choosing uniformly among ``infoset.legal_actions`` (pass included).  No
    bidding: the 'landlord' seat is fixed.
  * OpenSpiel: ``pyspiel.load_game('dou_dizhu')``; chance nodes (face-up card position, then the deal
    card by card) sampled with their probabilities, every player action (bids 1-3 / pass, then plays)
    chosen uniformly among ``state.legal_actions()``.  A deal where all three pass the bidding ends at
    once with zero scores (no redeal) and counts 0 plays.

Also: ``random_hands(n, size, seed)`` and ``canonical(cards)``.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import random
from collections import Counter
from collections.abc import Iterable
from typing import Any, ClassVar

from qipai.games.doudizhu.bots.baselines import rlcard_kind
from qipai.games.doudizhu.cards import RANK_LETTERS

RANKS = RANK_LETTERS
RANK_INDEX = {c: i for i, c in enumerate(RANKS)}
DECK = "".join(c * 4 for c in RANKS[:13]) + "BR"


class PeerError(Exception):
    """Base class for adapter errors."""


class PeerUnavailable(PeerError):
    """The peer library is not installed."""


class PeerRejected(PeerError):
    """The peer does not accept these cards as a move."""


class PositionUnreachable(PeerError):
    """The peer's engine cannot be put into the asked position."""


def canonical(cards: str | Iterable[str]) -> str:
    """Cards in our notation, sorted by rank.  Accepts spaces, commas, lower case and ``10``."""
    s = "".join(cards).upper().replace("10", "T").replace(",", "").replace(" ", "")
    for c in s:
        if c not in RANK_INDEX:
            raise ValueError(f"bad card {c!r} in {s!r}")
    return "".join(sorted(s, key=RANK_INDEX.__getitem__))


def rank_key(move: str) -> list[int]:
    """Sort key ordering canonical moves by their ranks (``3`` < ``33`` < ``334`` < ``4``)."""
    return [RANK_INDEX[c] for c in move]


def check_hand(cards: str) -> str:
    """Canonical form of ``cards``; ValueError if they cannot come from one deck."""
    s = canonical(cards)
    for c, n in Counter(s).items():
        if n > (1 if c in "BR" else 4):
            raise ValueError(f"{n} x {c} in {s!r}: not in one deck")
    return s


def random_hands(n: int, size: int = 17, seed: int = 0) -> list[str]:
    """``n`` hands of ``size`` cards, each drawn from a full 54-card deck with ``random.Random(seed)``."""
    if not 1 <= size <= 54:
        raise ValueError("size must be 1..54")
    rng = random.Random(seed)
    deck = list(DECK)
    return [canonical(rng.sample(deck, size)) for _ in range(n)]


def random_deal(rng: random.Random) -> tuple[str, str, str, str]:
    """A 17/17/17 deal and 3 kitty cards, canonical."""
    deck = list(DECK)
    rng.shuffle(deck)
    return canonical(deck[:17]), canonical(deck[17:34]), canonical(deck[34:51]), canonical(deck[51:])


class Peer:
    """Common interface; see the module docstring."""

    name: ClassVar[str] = "peer"
    dist: ClassVar[str] = ""  # distribution name on PyPI
    module: ClassVar[str] = ""  # module imported to check availability

    def available(self) -> bool:
        try:
            importlib.import_module(self.module)
        except Exception:
            return False
        return True

    def version(self) -> str | None:
        try:
            return importlib.metadata.version(self.dist)
        except importlib.metadata.PackageNotFoundError:
            return None

    def _require(self) -> None:
        if not self.available():
            raise PeerUnavailable(f"{self.name}: pip package {self.dist!r} is not installed")

    def leads(self, hand: str) -> list[str]:
        raise NotImplementedError

    def answers(self, hand: str, prev: str) -> list[str]:
        raise NotImplementedError

    def classify(self, cards: str) -> str | None:
        r = self.readings(cards)
        return r[0] if r else None

    def readings(self, cards: str) -> list[str]:
        raise NotImplementedError

    def random_selfplay(self, n_games: int, seed: int = 0) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.version() or 'not installed'}>"


# --------------------------------------------------------------------------------------------------
# RLCard
# --------------------------------------------------------------------------------------------------

def _rlcard_kind(t: str) -> str:
    return rlcard_kind(t)


class RLCardPeer(Peer):
    """RLCard 1.2.0 (``rlcard.games.doudizhu``).

    Cards: RLCard's move strings use our rank letters and order exactly (``3``..``A``, ``2``, ``B``
    black joker, ``R`` red joker, ascending), so conversion is the identity.  Leads come from
    ``DoudizhuJudger`` (``playable_cards_from_hand``, what the engine gives a leader), answers from
    ``DoudizhuPlayer.available_actions`` (``get_gt_cards``, a lookup in RLCard's move tables
    ``card_type.json`` / ``type_card.json``), kinds from ``CARD_TYPE``.  RLCard returns sets: no
    duplicates; leads are sorted here (``rank_key``) for a stable order.
    """

    name = "rlcard"
    dist = "rlcard"
    module = "rlcard.games.doudizhu.judger"

    def _mods(self) -> tuple[Any, Any, Any, Any]:
        self._require()
        from rlcard.games.base import Card
        from rlcard.games.doudizhu.judger import DoudizhuJudger
        from rlcard.games.doudizhu.player import DoudizhuPlayer
        from rlcard.games.doudizhu.utils import CARD_TYPE

        return Card, DoudizhuJudger, DoudizhuPlayer, CARD_TYPE

    def _player(self, hand: str, pid: int = 0) -> Any:
        Card, _, DoudizhuPlayer, _ = self._mods()
        cards = []
        for c in hand:
            if c == "B":
                cards.append(Card("BJ", ""))
            elif c == "R":
                cards.append(Card("RJ", ""))
            else:
                cards.append(Card("S", c))
        p = DoudizhuPlayer(pid, None)
        p.set_current_hand(cards)
        return p

    def leads(self, hand: str) -> list[str]:
        hand = check_hand(hand)
        _, DoudizhuJudger, _, _ = self._mods()
        player = self._player(hand)
        judger = DoudizhuJudger([player], None)
        return sorted((canonical(m) for m in player.available_actions(None, judger)), key=rank_key)

    def answers(self, hand: str, prev: str) -> list[str]:
        hand, prev = check_hand(hand), canonical(prev)
        _, _, _, CARD_TYPE = self._mods()
        if prev not in CARD_TYPE[0]:
            raise PeerRejected(f"rlcard does not know the move {prev!r}")
        player = self._player(hand, 0)
        greater = self._player("", 1)
        greater.played_cards = prev
        return [canonical(m) for m in player.available_actions(greater, None) if m != "pass"]

    def readings(self, cards: str) -> list[str]:
        _, _, _, CARD_TYPE = self._mods()
        kinds: list[str] = []
        for t, _weight in CARD_TYPE[0].get(canonical(cards), []):
            k = _rlcard_kind(t)
            if k not in kinds:
                kinds.append(k)
        return kinds

    def random_selfplay(self, n_games: int, seed: int = 0) -> int:
        self._require()
        import numpy as np
        import rlcard

        class _Random:  # rlcard.agents.RandomAgent, but with its own RNG instead of np.random
            use_raw = False

            def __init__(self, rng: Any) -> None:
                self.rng = rng

            def eval_step(self, state: dict[str, Any]) -> tuple[int, dict[str, Any]]:
                return int(self.rng.choice(list(state["legal_actions"].keys()))), {}

            step = eval_step

        env = rlcard.make("doudizhu", config={"seed": seed})
        agent = _Random(np.random.RandomState(seed))
        env.set_agents([agent] * env.num_players)
        plays = 0
        for _ in range(n_games):
            env.run(is_training=False)
            plays += sum(1 for _pid, a in env.game.round.trace if a != "pass")
        return plays


# --------------------------------------------------------------------------------------------------
# DouZero
# --------------------------------------------------------------------------------------------------

_DZ_OF = {c: v for c, v in zip(RANKS, [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30], strict=True)}
_DZ_TO = {v: c for c, v in _DZ_OF.items()}
_DZ_KINDS = {
    1: "single",
    2: "pair",
    3: "triple",
    4: "bomb",
    5: "rocket",
    6: "triple_single",
    7: "triple_pair",
    8: "straight",
    9: "pair_straight",
    10: "plane",
    11: "plane_singles",
    12: "plane_pairs",
    13: "four_two_singles",
    14: "four_two_pairs",
}


def to_douzero(cards: str) -> list[int]:
    """Our notation -> DouZero's sorted card ints (3..14 = 3..A, 17 = 2, 20 = black, 30 = red joker)."""
    return sorted(_DZ_OF[c] for c in canonical(cards))


def from_douzero(cards: Iterable[int]) -> str:
    return canonical(_DZ_TO[v] for v in cards)


class DouZeroPeer(Peer):
    """DouZero 1.1.0 (``douzero.env``; torch not needed: install with ``pip install --no-deps``).

    Cards are ints: 3..14 for 3..A, 17 for 2, 20 black ('X') and 30 red ('D') joker.  Leads and
    answers come from ``GameEnv.get_legal_card_play_actions`` (the engine's own function, which uses
    ``MovesGener`` and ``move_selector``) on a GameEnv whose acting 'landlord' holds ``hand`` and whose
    action sequence is empty (lead) or ``[prev]`` (answer); kinds from ``move_detector.get_move_type``,
    which gives one type per move.  Duplicates are kept as DouZero lists them.
    """

    name = "douzero"
    dist = "douzero"
    module = "douzero.env.game"

    def _env(self, hand: str, seq: list[list[int]]) -> Any:
        self._require()
        from douzero.env.game import GameEnv

        env = GameEnv({})
        env.acting_player_position = "landlord"
        env.info_sets["landlord"].player_hand_cards = to_douzero(hand)
        env.card_play_action_seq = seq
        return env

    def leads(self, hand: str) -> list[str]:
        env = self._env(check_hand(hand), [])
        return [from_douzero(m) for m in env.get_legal_card_play_actions()]

    def answers(self, hand: str, prev: str) -> list[str]:
        hand, prev = check_hand(hand), canonical(prev)
        if not prev or self.classify(prev) is None:
            # DouZero's engine itself would offer only bombs and the rocket after a move it cannot type.
            raise PeerRejected(f"douzero cannot classify {prev!r}")
        env = self._env(hand, [to_douzero(prev)])
        return [from_douzero(m) for m in env.get_legal_card_play_actions() if m]

    def readings(self, cards: str) -> list[str]:
        self._require()
        from douzero.env import move_detector

        if not canonical(cards):
            return []
        t = move_detector.get_move_type(to_douzero(cards))["type"]
        return [_DZ_KINDS[t]] if t in _DZ_KINDS else []

    def random_selfplay(self, n_games: int, seed: int = 0) -> int:
        self._require()
        from douzero.env.game import GameEnv

        rng = random.Random(seed)

        class _Random:  # douzero.evaluation.random_agent.RandomAgent with its own RNG
            def act(self, infoset: Any) -> list[int]:
                return rng.choice(infoset.legal_actions)

        players = {pos: _Random() for pos in ("landlord", "landlord_up", "landlord_down")}
        env = GameEnv(players)
        plays = 0
        for _ in range(n_games):
            a, b, c, kitty = random_deal(rng)
            env.card_play_init(
                {
                    "landlord": to_douzero(a + kitty),
                    "landlord_up": to_douzero(b),
                    "landlord_down": to_douzero(c),
                    "three_landlord_cards": to_douzero(kitty),
                }
            )
            while not env.game_over:
                env.step()
            plays += sum(1 for m in env.card_play_action_seq if m)
            env.reset()
        return plays


# --------------------------------------------------------------------------------------------------
# OpenSpiel
# --------------------------------------------------------------------------------------------------

# Action-id layout of open_spiel/games/dou_dizhu/dou_dizhu_utils.h (open-spiel 2.0.2, 26057 actions):
# 0 pass, 1..3 bids, then play actions; chance: 0..50 face-up position, 51 + card id = deal card.
_OS_PLAY_BASE = 4
_OS_RANGES = (  # (first id, kind); each kind runs to the next entry's first id
    (4, "single"),
    (19, "straight"),
    (55, "pair"),
    (68, "pair_straight"),
    (120, "triple"),
    (133, "triple_single"),
    (315, "triple_pair"),
    (471, "plane"),
    (516, "plane_singles"),
    (23104, "plane_pairs"),
    (26043, "bomb"),
    (26056, "rocket"),
)
_OS_NUM_ACTIONS = 26057
_OS_DEAL_BASE = 51


def _os_kind(action: int) -> str:
    kind = "pass"
    for first, k in _OS_RANGES:
        if action >= first:
            kind = k
    return kind


def _os_parse(s: str) -> str:
    """OpenSpiel move string ('333444-56', '(BWJ)(CJ)') -> our canonical notation."""
    return canonical(s.replace("(BWJ)", "B").replace("(CJ)", "R").replace("-", ""))


class OpenSpielPeer(Peer):
    """OpenSpiel (``pyspiel``, game ``dou_dizhu``; C++ engine).

    Cards: card id 0..51 is suit ``id // 13`` (CDHS) and rank ``id % 13`` (0 = '3' … 12 = '2', our
    order), 52 the black joker ('(BWJ)'), 53 the red joker ('(CJ)').  A move is an action id; its
    cards come from ``state.action_to_string`` (rank chars, ``-`` between an airplane's chain and its
    kickers).  Different action ids can hold the same cards (``333444555666`` is one plane and two
    planes-with-kickers), so leads/answers can list the same cards more than once, and
    ``readings`` can have several kinds; ``classify`` returns the lowest id's kind.

    Positions are built only by playing OpenSpiel's own actions from the initial state (there is no
    way to set hands from Python): the deal is forced card by card (chance actions), seat 0 gets the
    face-up card and bids 3.
    - leads(hand), any size 1..20: seat 0 is landlord with ``hand`` plus filler cards; it leads each
      filler as a single and the others pass, until it holds exactly ``hand`` and leads.
    - answers(hand, prev): with 17 cards and ``len(prev) <= 19``: seat 1 holds ``hand``, the landlord
      (seat 0) leads ``prev`` at once.  Otherwise, with ``len(hand) <= 19`` and ``len(prev) <= 15``:
      seat 0 (landlord) sheds fillers as above, seat 1 beats the last filler with a higher single,
      wins the trick and leads ``prev``, seat 2 passes, seat 0 answers.  Anything else (a 20-card
      hand answering, prev + hand not fitting one deck, a longer prev with a short hand) raises
      ``PositionUnreachable``.
    When ``prev`` has several readings the lowest action id is used unless ``kind`` names one.
    """

    name = "openspiel"
    dist = "open-spiel"
    module = "pyspiel"

    _cards_of: ClassVar[list[str] | None] = None  # action id -> canonical cards (play ids only)
    _ids_of: ClassVar[dict[str, list[int]] | None] = None

    def _game(self) -> Any:
        self._require()
        import pyspiel

        game = pyspiel.load_game("dou_dizhu")
        if game.num_distinct_actions() != _OS_NUM_ACTIONS:
            raise PeerError(f"unexpected OpenSpiel dou_dizhu action space {game.num_distinct_actions()}")
        return game

    def _tables(self) -> tuple[list[str], dict[str, list[int]]]:
        if OpenSpielPeer._cards_of is None:
            state = self._game().new_initial_state()
            cards = [""] * _OS_NUM_ACTIONS
            ids: dict[str, list[int]] = {}
            for a in range(_OS_PLAY_BASE, _OS_NUM_ACTIONS):
                c = _os_parse(state.action_to_string(0, a))
                cards[a] = c
                ids.setdefault(c, []).append(a)
            OpenSpielPeer._cards_of, OpenSpielPeer._ids_of = cards, ids
        assert OpenSpielPeer._cards_of is not None and OpenSpielPeer._ids_of is not None
        return OpenSpielPeer._cards_of, OpenSpielPeer._ids_of

    def action_ids(self, cards: str) -> list[int]:
        """Every OpenSpiel action id whose cards are ``cards``."""
        return list(self._tables()[1].get(canonical(cards), []))

    def readings(self, cards: str) -> list[str]:
        kinds: list[str] = []
        for a in self.action_ids(cards):
            k = _os_kind(a)
            if k not in kinds:
                kinds.append(k)
        return kinds

    # -- building positions ----------------------------------------------------------------------

    @staticmethod
    def _card_ids(seats: list[str], kitty: str) -> tuple[list[list[int]], list[int]]:
        """Give each card of each seat (and the kitty) a distinct OpenSpiel card id."""
        next_suit: Counter[str] = Counter()

        def cid(c: str) -> int:
            if c == "B":
                return 52
            if c == "R":
                return 53
            s = next_suit[c]
            next_suit[c] += 1
            return s * 13 + RANK_INDEX[c]

        return [[cid(c) for c in seat] for seat in seats], [cid(c) for c in kitty]

    def _deal(self, seats: list[str], kitty: str) -> Any:
        """State after the deal (17 cards to each seat, ``kitty`` undealt) and seat 0 bidding 3."""
        assert all(len(s) == 17 for s in seats) and len(kitty) == 3
        assert Counter("".join(seats) + kitty) == Counter(DECK)
        ids, _ = self._card_ids(seats, kitty)
        state = self._game().new_initial_state()
        state.apply_action(0)  # face-up card = first card dealt, to seat 0: seat 0 bids first
        for j in range(51):
            state.apply_action(_OS_DEAL_BASE + ids[j % 3][j // 3])
        assert state.current_player() == 0
        state.apply_action(3)  # bid 3: seat 0 is landlord and gets the kitty
        return state

    @staticmethod
    def _play(state: Any, action: int) -> None:
        if action not in state.legal_actions():
            raise PeerError(f"OpenSpiel: action {action} ({state.action_to_string(action)}) not legal")
        state.apply_action(action)

    @staticmethod
    def _single(c: str) -> int:
        return _OS_PLAY_BASE + RANK_INDEX[c]

    def _lead_state(self, hand: str) -> Any:
        if not 1 <= len(hand) <= 20:
            raise PositionUnreachable("OpenSpiel: a leading hand has 1..20 cards")
        rest = list((Counter(DECK) - Counter(hand)).elements())
        rest = sorted(rest, key=RANK_INDEX.__getitem__)
        fillers = "".join(rest[: 20 - len(hand)])
        others = rest[20 - len(hand) :]
        own = canonical(hand + fillers)
        state = self._deal([own[:17], "".join(others[:17]), "".join(others[17:])], own[17:])
        for f in fillers:
            self._play(state, self._single(f))
            self._play(state, 0)
            self._play(state, 0)
        return state

    def _pick(self, state: Any, prev: str, kind: str | None) -> int:
        legal = set(state.legal_actions())
        cands = [a for a in self.action_ids(prev) if a in legal]
        if kind is not None:
            cands = [a for a in cands if _os_kind(a) == kind]
        if not cands:
            raise PeerRejected(f"openspiel has no move {prev!r}" + (f" of kind {kind}" if kind else ""))
        return cands[0]

    def _answer_state(self, hand: str, prev: str, kind: str | None) -> Any:
        if not self.action_ids(prev):
            raise PeerRejected(f"openspiel has no move {prev!r}")
        if Counter(hand) + Counter(prev) - Counter(DECK):
            raise PositionUnreachable(f"OpenSpiel: {hand!r} and {prev!r} do not fit in one deck")
        rest = sorted((Counter(DECK) - Counter(hand) - Counter(prev)).elements(), key=RANK_INDEX.__getitem__)

        def spare_first(cards: list[str]) -> list[str]:
            # Cards put beside prev: ranks not in prev first, so that the seat playing prev does not
            # hold four of its chain's lowest rank (OpenSpiel then generates no chain from that rank);
            # when prev's ranks must be used, its lowest rank (prev[0], a chain's head) comes last.
            return sorted(cards, key=lambda c: (c in prev, c == prev[0], RANK_INDEX[c]))

        if len(hand) == 17 and len(prev) <= 19:
            rest = spare_first(rest)
            # seat 0 (landlord) leads prev; seat 1 holds hand
            lord = canonical(prev + "".join(rest[: 20 - len(prev)]))
            third = "".join(rest[20 - len(prev) :])
            state = self._deal([lord[:17], hand, third], lord[17:])
            self._play(state, self._pick(state, prev, kind))
            return state
        if len(hand) <= 19 and len(prev) <= 15:
            k = 20 - len(hand)
            fillers, g = rest[:k], rest[-1]
            if RANK_INDEX[g] <= RANK_INDEX[fillers[-1]]:
                raise PositionUnreachable("OpenSpiel: no single higher than the filler")  # cannot happen
            pool = spare_first(rest[k:-1])
            seat1 = canonical(prev + g + "".join(pool[: 16 - len(prev)]))
            seat2 = "".join(pool[16 - len(prev) :])
            own = canonical(hand + "".join(fillers))
            state = self._deal([own[:17], seat1, seat2], own[17:])
            for f in fillers[:-1]:
                self._play(state, self._single(f))
                self._play(state, 0)
                self._play(state, 0)
            self._play(state, self._single(fillers[-1]))
            self._play(state, self._single(g))  # seat 1 beats the last filler
            self._play(state, 0)  # seat 2
            self._play(state, 0)  # seat 0: seat 1 wins the trick
            assert state.current_player() == 1
            self._play(state, self._pick(state, prev, kind))
            self._play(state, 0)  # seat 2
            return state
        raise PositionUnreachable(
            f"OpenSpiel: cannot reach a position where a {len(hand)}-card hand"
            f" answers a {len(prev)}-card move"
        )

    def _moves(self, state: Any) -> list[str]:
        cards_of, _ = self._tables()
        return [cards_of[a] for a in state.legal_actions() if a != 0]

    def leads(self, hand: str) -> list[str]:
        hand = check_hand(hand)
        return self._moves(self._lead_state(hand))

    def answers(self, hand: str, prev: str, kind: str | None = None) -> list[str]:
        hand, prev = check_hand(hand), canonical(prev)
        return self._moves(self._answer_state(hand, prev, kind))

    def lead_actions(self, hand: str) -> list[int]:
        """Raw OpenSpiel action ids of the leads (for looking at kinds / duplicate readings)."""
        return list(self._lead_state(check_hand(hand)).legal_actions())

    def random_selfplay(self, n_games: int, seed: int = 0) -> int:
        game = self._game()
        rng = random.Random(seed)
        plays = 0
        for _ in range(n_games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, weights=probs)[0])
                else:
                    a = rng.choice(state.legal_actions())
                    if a >= _OS_PLAY_BASE:
                        plays += 1
                    state.apply_action(a)
        return plays


PEERS: dict[str, type[Peer]] = {"rlcard": RLCardPeer, "douzero": DouZeroPeer, "openspiel": OpenSpielPeer}


def all_peers(only_available: bool = True) -> list[Peer]:
    peers = [cls() for cls in PEERS.values()]
    return [p for p in peers if p.available()] if only_available else peers
