"""Dou Dizhu rule options as data, and the named presets of RULES.md §8.

A :class:`Rules` is a frozen dataclass: every option in ``RULES.md`` is one field, and code branches on the
fields, never on a preset's name.  :data:`PRESETS` maps each preset name to its ``Rules``.

>>> r = PRESETS["jj_match"]
>>> r.players, r.bidding, r.bomb_factor, r.cap_by_table_points
(3, 'score', 'linear', True)
>>> Rules.from_options({"preset": "classic", "stake": 5}).stake
5
>>> Rules.from_options({"colour": "red"})
Traceback (most recent call last):
...
qipai.games.doudizhu.rules.RulesError: unknown rule option 'colour'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...core.options import Option, OptionError, OptionSet

KINDS: tuple[str, ...] = (
    "single",
    "pair",
    "triple",
    "triple_single",
    "triple_pair",
    "straight",
    "pair_straight",
    "plane",
    "plane_singles",
    "plane_pairs",
    "four_two_singles",
    "four_two_pairs",
    "bomb",
    "rocket",
)
"""Every combination kind of RULES.md §3, in table order."""

MAX_DECKS = 2
"""The most decks a table plays with (four players: two)."""

KIND_NAMES_ZH = {
    "single": "单牌",
    "pair": "对牌",
    "triple": "三张",
    "triple_single": "三带一",
    "triple_pair": "三带一对",
    "straight": "顺子",
    "pair_straight": "连对",
    "plane": "飞机",
    "plane_singles": "飞机带单",
    "plane_pairs": "飞机带对",
    "four_two_singles": "四带二",
    "four_two_pairs": "四带两对",
    "bomb": "炸弹",
    "rocket": "火箭",
}

BIDDING_STYLES = ("score", "call")
FIRST_BIDDER_RULES = ("random_then_rotate", "random", "face_up_card", "spade_five")
ALL_PASS_POLICIES = ("redeal", "starter_is_landlord", "redeal_then_forced", "redeal_then_dissolve")
BOMB_FACTORS = ("double", "linear", "by_size")
AUTOPLAY_STYLES = ("passive", "smart")


class RulesError(OptionError):
    """A rule option is unknown or has a value the option does not allow."""


def _opt(kind: type, lo: int | None = None, hi: int | None = None, *, choices: tuple[str, ...] | None = None,
         points: bool = False) -> dict[str, Any]:
    """Field metadata declaring a rule option (see :class:`qipai.core.options.Option`)."""
    return {"option": {"kind": kind, "lo": lo, "hi": hi, "choices": choices, "points": points}}


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option of one Dou Dizhu table (RULES.md §2–§7).

    Defaults are the ``classic`` preset.  Build variants with :meth:`replace` or :meth:`from_options`.
    """

    # Every field is a rule option; its metadata declares its type and range (``_opt``), and whether it moves
    # points (a table playing for points keeps its room's value of those): see :data:`OPTIONS`.  Besides the
    # settlement's own options, those that change how many bombs and doublings a deal can have move points:
    # the seats, decks and kitty, which kinds exist (no bombs, no rockets), the smallest bomb, and the bidding
    # style (a call is worth 1, a score bid up to 3).

    # --- table and deck (§1, §2) ---
    players: int = field(default=3, metadata=_opt(int, 3, 4, points=True))
    """Number of seats: 3 (one deck) or 4 (two decks)."""
    decks: int = field(default=1, metadata=_opt(int, 1, 2, points=True))
    """Number of 54-card decks."""
    kitty_size: int = field(default=3, metadata=_opt(int, 0, 12, points=True))
    """Cards left face down for the landlord (底牌): 3 with one deck, 8 with two."""
    kitty_visible: bool = field(default=True, metadata=_opt(bool))
    """Whether the kitty is shown to everybody once the landlord takes it."""

    # --- combinations (§3) ---
    kinds: frozenset[str] = field(default_factory=lambda: frozenset(KINDS),
                                  metadata=_opt(list, choices=KINDS, points=True))
    """Which kinds of RULES.md §3 exist at this table."""
    straight_min: int = field(default=5, metadata=_opt(int, 1, 12))
    straight_max: int = field(default=12, metadata=_opt(int, 1, 12))
    pair_straight_min: int = field(default=3, metadata=_opt(int, 1, 12))
    pair_straight_max: int = field(default=12, metadata=_opt(int, 1, 12))
    plane_min: int = field(default=2, metadata=_opt(int, 2, 12))
    plane_max: int = field(default=12, metadata=_opt(int, 2, 12))
    bomb_min: int = field(default=4, metadata=_opt(int, 4, 8, points=True))
    """Smallest bomb; the largest is every copy of a rank (4 per deck)."""
    single_kickers_share_rank: bool = field(default=True, metadata=_opt(bool))
    """Whether single kickers may share a rank (``333444`` + ``55``) — RULES.md §3 decision."""

    # --- bidding (§4) ---
    bidding: str = field(default="score", metadata=_opt(str, choices=BIDDING_STYLES, points=True))
    first_bidder: str = field(default="random_then_rotate", metadata=_opt(str, choices=FIRST_BIDDER_RULES))
    all_pass: str = field(default="redeal", metadata=_opt(str, choices=ALL_PASS_POLICIES))
    forced_bid_from_redeal: int = field(default=3, metadata=_opt(int, 1, 10))
    """With ``redeal_then_forced``: from this redeal on, the last bidder must bid if the others passed."""
    dissolve_after: int = field(default=3, metadata=_opt(int, 1, 10))
    """With ``redeal_then_dissolve``: this many deals in a row without a bid dissolve the game."""
    forced_bid_hands: bool = field(default=False, metadata=_opt(bool))
    """Seed 001: all four jokers or three bombs, with nobody before having bid, must bid at least 1."""

    # --- doubling phases (§5) ---
    chengdu_doubling: bool = field(default=False, metadata=_opt(bool, points=True))
    show_hand: bool = field(default=False, metadata=_opt(bool, points=True))
    show_hand_factor: int = field(default=3, metadata=_opt(int, 1, 3, points=True))

    # --- table rules (§6) ---
    bid_seconds: int = field(default=20, metadata=_opt(int, 1, 300))
    play_seconds: int = field(default=20, metadata=_opt(int, 1, 300))
    first_play_seconds: int = field(default=20, metadata=_opt(int, 1, 300))
    """Time for the landlord's first play."""
    autoplay: str = field(default="passive", metadata=_opt(str, choices=AUTOPLAY_STYLES))
    escape_penalty: bool = field(default=False, metadata=_opt(bool, points=True))
    escape_factor: int = field(default=3, metadata=_opt(int, 1, 10, points=True))

    # --- settlement (§7) ---
    stake: int = field(default=1, metadata=_opt(int, 1, 1_000_000, points=True))
    landlord_share: int = field(default=2, metadata=_opt(int, 2, 3, points=True))
    bomb_factor: str = field(default="double", metadata=_opt(str, choices=BOMB_FACTORS, points=True))
    rocket_factor: int = field(default=2, metadata=_opt(int, 1, 3, points=True))
    effective_bombs_only: bool = field(default=False, metadata=_opt(bool, points=True))
    spring: bool = field(default=True, metadata=_opt(bool, points=True))
    anti_spring: bool = field(default=True, metadata=_opt(bool, points=True))
    autoplay_split: bool = field(default=False, metadata=_opt(bool, points=True))
    cap_by_table_points: bool = field(default=False, metadata=_opt(bool, points=True))

    def __post_init__(self) -> None:
        def bad(msg: str) -> RulesError:
            return RulesError(msg)

        if self.players not in (3, 4):
            raise bad(f"players must be 3 or 4, got {self.players}")
        if not 1 <= self.decks <= MAX_DECKS:
            raise bad(f"decks must be 1 or {MAX_DECKS}, got {self.decks}")
        if (54 * self.decks - self.kitty_size) % self.players or self.kitty_size < 0:
            raise bad(
                f"{54 * self.decks} cards less a kitty of {self.kitty_size} do not split evenly "
                f"among {self.players} players"
            )
        unknown = set(self.kinds) - set(KINDS)
        if unknown:
            raise bad(f"unknown kinds {', '.join(map(repr, sorted(unknown)))}: expected some of {', '.join(KINDS)}")
        if "single" not in self.kinds:
            # a leader must always have a play, and a timed-out leader plays its smallest single (RULES.md §6)
            raise bad("kinds must include single: without it a leader can be left with no legal play")
        for name, allowed in (
            ("bidding", BIDDING_STYLES),
            ("first_bidder", FIRST_BIDDER_RULES),
            ("all_pass", ALL_PASS_POLICIES),
            ("bomb_factor", BOMB_FACTORS),
            ("autoplay", AUTOPLAY_STYLES),
        ):
            if getattr(self, name) not in allowed:
                raise bad(f"{name} must be one of {', '.join(map(str, allowed))}, got {getattr(self, name)!r}")
        if not 1 <= self.straight_min <= self.straight_max <= 12:
            raise bad("need 1 <= straight_min <= straight_max <= 12")
        if not 1 <= self.pair_straight_min <= self.pair_straight_max <= 12:
            raise bad("need 1 <= pair_straight_min <= pair_straight_max <= 12")
        if not 2 <= self.plane_min <= self.plane_max <= 12:
            raise bad("need 2 <= plane_min <= plane_max <= 12")
        if not 4 <= self.bomb_min <= 4 * self.decks:
            raise bad(f"bomb_min must be 4..{4 * self.decks}")
        for name in ("stake", "bid_seconds", "play_seconds", "first_play_seconds", "show_hand_factor",
                     "escape_factor", "rocket_factor", "forced_bid_from_redeal", "dissolve_after"):
            if getattr(self, name) < 1:
                raise bad(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.landlord_share != self.players - 1:
            raise bad(f"landlord_share must be {self.players - 1} with {self.players} players")

    # --- derived values ---
    @property
    def hand_size(self) -> int:
        """Cards dealt to each player before the kitty (17 with three players, 25 with four)."""
        return (54 * self.decks - self.kitty_size) // self.players

    @property
    def pair_straight_longest(self) -> int:
        """The longest pair straight: ``pair_straight_max``, and never more than 10 pairs with one deck
        (RULES.md §3: "a pair straight at most 10 pairs with one deck")."""
        return min(self.pair_straight_max, 10) if self.decks == 1 else self.pair_straight_max

    @property
    def rocket_size(self) -> int:
        """Cards in the rocket: ``BR`` with one deck, ``BBRR`` (天王炸弹) with two."""
        return 2 * self.decks

    @property
    def bomb_max(self) -> int:
        """Largest bomb: every copy of one rank."""
        return 4 * self.decks

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (unknown names are an error)."""
        return Rules.from_options(changes, base=self)

    def to_options(self) -> dict[str, Any]:
        """Every option as JSON-ready values (``kinds`` as a list in table order)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = [k for k in KINDS if k in v] if f.name == "kinds" else v
        return out

    @classmethod
    def from_options(cls, options: Mapping[str, Any], base: Rules | None = None) -> Rules:
        """Build rules from option values; ``preset`` names the base, other keys override it.

        Unknown option names raise :class:`RulesError`.
        """
        opts = dict(options)
        preset = opts.pop("preset", None)
        if preset is not None:
            if not isinstance(preset, str) or preset not in PRESETS:
                raise RulesError(f"unknown preset {preset!r}: expected one of {', '.join(sorted(PRESETS))}")
            base = PRESETS[preset]
        try:
            opts = OPTIONS.check(opts)
        except RulesError:
            raise
        except OptionError as e:
            raise RulesError(str(e)) from None
        if "kinds" in opts:
            opts["kinds"] = frozenset(opts["kinds"])
        return dataclasses.replace(base or _CLASSIC, **opts)


def _declared_options() -> OptionSet:
    defaults = Rules()
    out = []
    for f in dataclasses.fields(Rules):
        o = f.metadata["option"]
        default = getattr(defaults, f.name)
        if f.name == "kinds":
            default = [k for k in KINDS if k in default]
        doc = ""
        out.append(Option(f.name, o["kind"], default, lo=o["lo"], hi=o["hi"], choices=o["choices"],
                          points=o["points"], doc=doc))
    return OptionSet(out)


OPTIONS: OptionSet = _declared_options()
"""Every rule option with its type, range and whether it moves points (``OPTIONS.points_options()``)."""

_CLASSIC = Rules()

_FOUR_PLAYER_KINDS = frozenset(
    {"single", "pair", "triple", "triple_pair", "straight", "pair_straight", "plane", "plane_pairs", "bomb", "rocket"}
)

PRESETS: dict[str, Rules] = {
    "classic": _CLASSIC,
    "jj": _CLASSIC.replace(all_pass="redeal_then_forced", first_play_seconds=30),
    "jj_match": _CLASSIC.replace(
        first_bidder="random",
        all_pass="starter_is_landlord",
        bomb_factor="linear",
        autoplay_split=True,
        cap_by_table_points=True,
        play_seconds=15,
        first_play_seconds=15,
    ),
    "cantonese": _CLASSIC.replace(
        bidding="call",
        first_bidder="face_up_card",
        kinds=frozenset(KINDS) - {"triple_pair", "plane_pairs", "four_two_pairs"},
    ),
    "effective_bombs": _CLASSIC.replace(effective_bombs_only=True),
    "chengdu": _CLASSIC.replace(
        bidding="call", first_bidder="spade_five", chengdu_doubling=True, escape_penalty=True
    ),
    "four_player": _CLASSIC.replace(
        players=4,
        decks=2,
        kitty_size=8,
        landlord_share=3,
        first_bidder="random",
        all_pass="redeal_then_dissolve",
        bomb_factor="by_size",
        rocket_factor=3,
        kinds=_FOUR_PLAYER_KINDS,
    ),
    "four_player_show": _CLASSIC.replace(
        players=4,
        decks=2,
        kitty_size=8,
        landlord_share=3,
        kitty_visible=False,
        effective_bombs_only=True,
        forced_bid_hands=True,
        show_hand=True,
        kinds=_FOUR_PLAYER_KINDS - {"straight"},
    ),
}
"""The named presets of RULES.md §8."""


def preset_name(rules: Rules) -> str | None:
    """The name of the preset equal to ``rules``, or ``None`` for a custom table.

    >>> preset_name(PRESETS["chengdu"]), preset_name(PRESETS["classic"].replace(stake=2))
    ('chengdu', None)
    """
    for name, r in PRESETS.items():
        if r == rules:
            return name
    return None
