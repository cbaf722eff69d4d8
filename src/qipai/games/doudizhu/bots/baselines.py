"""Public baselines as bots: RLCard's rule agent and DouZero models (optional extra ``baselines``).

Both adapters translate what our seat may see and our legal actions into the baseline's own state, call the
baseline, and map its answer back to one of our legal actions.  Neither gets anything the seat may not see:
the adapters read only the observation (never the game), and leave the baseline's fields for other hands
empty.  Neither baseline bids, so in the bidding and doubling phases both use the ``heuristic`` bot's
decisions.

**RLCard** (``rlcard`` on PyPI, the agent registered as ``doudizhu-rule-v1``): its raw state needs
``current_hand`` (rank notation, our order), ``actions`` (our legal plays that RLCard's move table knows, as
card strings, and ``pass``), ``trace`` (the plays and passes of the trick: the agent looks only at the last
two entries), ``landlord`` and ``self``.  Its occasional random choice uses NumPy's global generator, which
the adapter seeds from the bot's seed for that one call and then restores, so games are reproducible.  When
the play to answer is one RLCard's table does not know (our rules allow a few more kicker shapes, see
``bench/PEERS_NOTES.md``) the agent cannot classify it; the adapter then does what the agent does when it
has no same-kind answer: a farmer passes on its partner, otherwise it picks at random.

**DouZero** (needs ``torch`` and ``douzero``, and the user's weights: a folder with ``landlord.ckpt``,
``landlord_up.ckpt`` and ``landlord_down.ckpt``): :func:`douzero_infoset` builds DouZero's ``InfoSet`` for
the seat (positions ``landlord``/``landlord_down``/``landlord_up``; cards as DouZero's ints 3..14, 17, 20,
30; the action sequence with ``[]`` for a pass; ``other_hand_cards`` is the union of the unseen cards, which
is public) and leaves ``all_handcards`` unset.  DouZero's own agent then encodes and scores it.  DouZero plays
only the three-player game.

>>> import pytest; _ = pytest.importorskip("rlcard")
>>> from qipai.games.doudizhu.bots.research import load_deals, research_game
>>> g = research_game(load_deals(1)[0])
>>> bot = RLCardRuleBot(seed=1)
>>> bot.act(g.observe(0), g.legal_actions()) in g.legal_actions()
True
"""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Protocol

from ..cards import RANK_LETTERS
from ..combos import Move
from .heuristic import decide_non_play, outside_play
from .view import action_moves, read_view

INSTALL_HINT = "pip install -e '.[baselines]'"


class BaselineMissing(ImportError):
    """A baseline's package is not installed; the message says how to install it."""


def _import_rlcard() -> tuple[Any, Any, Any]:
    try:
        import numpy as np
        from rlcard.games.doudizhu.utils import CARD_TYPE  # type: ignore[import-untyped,import-not-found,unused-ignore]
        from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise BaselineMissing(
            f"the rlcard baseline needs the 'rlcard' package ({e}); install it with: {INSTALL_HINT}"
        ) from None
    return np, CARD_TYPE[0], DouDizhuRuleAgentV1


_RLCARD_KIND = {
    "solo": "single",
    "pair": "pair",
    "trio": "triple",
    "trio_solo": "triple_single",
    "trio_pair": "triple_pair",
    "solo_chain": "straight",
    "pair_chain": "pair_straight",
    "trio_chain": "plane",
    "trio_solo_chain": "plane_singles",
    "trio_pair_chain": "plane_pairs",
    "four_two_solo": "four_two_singles",
    "four_two_pair": "four_two_pairs",
    "bomb": "bomb",
    "rocket": "rocket",
}


def rlcard_kind(type_name: str) -> str:
    """Our kind for an RLCard card type (``trio_solo_chain_3`` → ``plane_singles``)."""
    base = type_name.rstrip("0123456789").rstrip("_")
    return _RLCARD_KIND.get(base, base)


class RLCardRuleBot:
    """RLCard's ``doudizhu-rule-v1`` agent, seeing only what our seat may see."""

    name = "rlcard"

    def __init__(self, seed: int = 0) -> None:
        self.np, self.card_type, agent_cls = _import_rlcard()
        self.agent = agent_cls()
        self.rng = random.Random(seed)

    def raw_state(self, observation: dict[str, Any], legal_actions: list[str]) -> tuple[dict[str, Any],
                                                                                         dict[str, list[str]]]:
        """RLCard's raw state for this decision, and for each RLCard action string our legal actions."""
        v = read_view(observation)
        moves = action_moves(legal_actions, v.rules)
        by_cards: dict[str, list[str]] = {}
        for a, m in moves.items():
            if m.text in self.card_type:
                by_cards.setdefault(m.text, []).append(a)
        actions = list(by_cards)
        if "pass" in legal_actions:
            actions.append("pass")
            by_cards["pass"] = ["pass"]
        hand = "".join(RANK_LETTERS[r] * v.hand[r] for r in range(len(v.hand)))
        trace: list[tuple[int, str]] = []
        if v.last is not None:
            trace.append((v.last_by, v.last.text))
            plays = (observation.get("trick") or {}).get("plays") or []
            if plays and plays[-1][1] == "pass":
                trace.append((int(plays[-1][0]), "pass"))
        state = {
            "current_hand": hand,
            "actions": actions,
            "trace": trace,
            "landlord": v.landlord,
            "self": v.seat,
        }
        return state, by_cards

    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        """Choose one of ``legal_actions`` as RLCard's rule agent would."""
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        if observation.get("phase") != "play":
            return decide_non_play(observation, legal_actions) if len(legal_actions) > 1 else legal_actions[0]
        state, by_cards = self.raw_state(observation, legal_actions)
        if not state["actions"]:  # nothing RLCard knows is legal: fall back to the simplest legal play
            return "pass" if "pass" in legal_actions else legal_actions[0]
        np = self.np
        saved = np.random.get_state()
        np.random.seed(self.rng.randrange(2**32))
        try:
            choice = self.agent.step({"raw_obs": state})
        except (KeyError, IndexError):
            # the play to answer is not in RLCard's table: the agent's own no-answer branch
            trace = state["trace"]
            target_player = trace[-1][0]
            if target_player != state["landlord"] and state["self"] != state["landlord"] and \
                    "pass" in state["actions"]:
                choice = "pass"
            else:
                choice = str(np.random.choice(state["actions"]))
        finally:
            np.random.set_state(saved)
        options = by_cards.get(str(choice))
        if not options:  # a lead the agent built that is not offered: take its first action instead
            options = by_cards[state["actions"][0]]
        if len(options) > 1:
            want = self.card_type.get(str(choice))
            if want:
                kinds = {rlcard_kind(t[0]) for t in want}
                v = read_view(observation)
                moves = action_moves(options, v.rules)
                for a in options:
                    if moves[a].kind in kinds:
                        return a
        return options[0]


# ----------------------------------------------------------------------------------------------- DouZero
_DZ_CARD = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]
"""DouZero's int for each of our ranks (3..A are 3..14, 2 is 17, the jokers 20 and 30)."""

POSITIONS = ("landlord", "landlord_down", "landlord_up")


def douzero_cards(move_or_counts: Move | tuple[int, ...] | list[int]) -> list[int]:
    """DouZero's sorted int list for a move or a rank-count vector."""
    counts = move_or_counts.counts if isinstance(move_or_counts, Move) else move_or_counts
    return [_DZ_CARD[r] for r in range(len(counts)) for _ in range(counts[r])]


def douzero_position(seat: int, landlord: int) -> str:
    """``landlord``, ``landlord_down`` (plays after the landlord) or ``landlord_up``."""
    return POSITIONS[(seat - landlord) % 3]


class DouZeroAgent(Protocol):
    """What DouZero's ``DeepAgent`` offers: ``act(infoset) -> action`` (a list of DouZero card ints)."""

    def act(self, infoset: Any) -> list[int]:
        """The chosen action among ``infoset.legal_actions``."""
        ...


def douzero_infoset(observation: dict[str, Any], legal_actions: list[str]) -> tuple[Any, list[str]]:
    """DouZero's ``InfoSet`` for this decision, and our action for each entry of its ``legal_actions``."""
    v = read_view(observation)
    if v.players != 3 or v.landlord is None:
        raise ValueError("DouZero plays only the three-player game, after the landlord is known")
    pos = douzero_position(v.seat, v.landlord)
    moves = action_moves(legal_actions, v.rules)
    ours: list[str] = []
    legal: list[list[int]] = []
    for a, m in moves.items():
        ours.append(a)
        legal.append(douzero_cards(m))
    if "pass" in legal_actions:
        ours.append("pass")
        legal.append([])
    seq: list[list[int]] = []
    played: dict[str, list[int]] = {p: [] for p in POSITIONS}
    last_move_dict: dict[str, list[int]] = {p: [] for p in POSITIONS}
    last_pid = "landlord"
    bombs = 0
    three = sorted(douzero_cards(_tokens_counts(observation.get("kitty") or [])))
    for ev in v.plays:
        p = douzero_position(ev.seat, v.landlord)
        cards = douzero_cards(ev.move) if ev.move is not None else []
        seq.append(cards)
        played[p] = played[p] + cards
        last_move_dict[p] = cards
        if cards:
            last_pid = p
            if ev.move is not None and ev.move.is_bomb:
                bombs += 1
            if p == "landlord":
                for c in cards:  # DouZero drops kitty cards by rank as the landlord plays them
                    if c in three:
                        three.remove(c)
    last_move: list[int] = []
    if seq:
        last_move = seq[-2] if not seq[-1] and len(seq) >= 2 else seq[-1]
    counts = {douzero_position(s, v.landlord): v.card_counts[s] for s in range(3)}
    info = SimpleNamespace(
        player_position=pos,
        player_hand_cards=douzero_cards(v.hand),
        num_cards_left_dict=counts,
        three_landlord_cards=three,
        card_play_action_seq=seq,
        other_hand_cards=douzero_cards(tuple(v.unseen)),
        legal_actions=legal,
        last_move=last_move,
        last_two_moves=([[]] * 2 + seq)[-2:],
        last_move_dict=last_move_dict,
        played_cards=played,
        all_handcards=None,  # the other hands: hidden, never filled in
        last_pid=last_pid,
        bomb_num=bombs,
    )
    return info, ours


def _tokens_counts(tokens: list[str]) -> tuple[int, ...]:
    from .view import counts_of_tokens

    return tuple(counts_of_tokens(tokens))


def douzero_features(infoset: Any) -> dict[str, Any]:
    """DouZero's own encoding of an infoset (``x_batch``, ``z_batch``, …); needs the ``douzero`` package."""
    try:
        from douzero.env.env import get_obs  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError as e:  # pragma: no cover
        raise BaselineMissing(f"DouZero features need the 'douzero' package ({e}); "
                              "install it with: pip install --no-deps douzero==1.1.0") from None
    out: dict[str, Any] = get_obs(infoset)
    return out


def load_douzero_agents(weights: str | Path) -> dict[str, DouZeroAgent]:
    """DouZero's ``DeepAgent`` for each position, from ``landlord.ckpt``, ``landlord_up.ckpt`` and
    ``landlord_down.ckpt`` in the folder ``weights``."""
    folder = Path(weights)
    files = {p: folder / f"{p}.ckpt" for p in POSITIONS}
    missing = [str(f) for f in files.values() if not f.is_file()]
    if missing:
        raise FileNotFoundError(f"DouZero weights not found: {', '.join(missing)}")
    try:
        from douzero.evaluation.deep_agent import DeepAgent  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError as e:  # pragma: no cover
        raise BaselineMissing(
            f"the douzero baseline needs 'torch' and 'douzero' ({e}): {INSTALL_HINT}, then "
            "pip install torch and pip install --no-deps douzero==1.1.0"
        ) from None
    return {p: DeepAgent(p, str(f)) for p, f in files.items()}


class DouZeroBot:
    """A DouZero model per position, seeing only what our seat may see (three players only)."""

    name = "douzero"

    def __init__(self, agents: dict[str, DouZeroAgent], seed: int = 0) -> None:
        self.agents = agents
        self.seed = seed

    @classmethod
    def from_weights(cls, weights: str | Path, seed: int = 0) -> DouZeroBot:
        """Load the user's weights folder (see :func:`load_douzero_agents`)."""
        return cls(load_douzero_agents(weights), seed)

    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str:
        """Choose one of ``legal_actions`` with the model of this seat's position."""
        easy = outside_play(observation, legal_actions)
        if easy is not None:
            return easy
        info, ours = douzero_infoset(observation, legal_actions)
        choice = list(self.agents[info.player_position].act(info))
        for a, cards in zip(ours, info.legal_actions, strict=True):
            if sorted(cards) == sorted(choice):
                return a
        raise ValueError(f"DouZero chose {choice}, which is not among the legal actions")


def _register() -> None:
    from . import register

    register("rlcard", lambda seed: RLCardRuleBot(seed))


_register()
