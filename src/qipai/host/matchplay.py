"""How a match's tables are played on the platform's games (RULES-matches.md §1, §4).

The tournament core names a match's game by its table kind (``ddz3``, ``ddz4``, ``mahjong``, ``shengji``); the
platform plays tables of registered games (``doudizhu``, ``mahjong``, ``shengji``) through their factories.
:data:`MATCH_GAMES` is that correspondence as plain data — the platform game, the rule options of §4, and which
option carries a table's stake (``base``) and, where a round at a table is one match of the game, its length —
so the match director and ``qipai tournament`` know no game's rules.

A definition may override it in its ``host`` block: ``{"host": {"platform_game": "doudizhu", "game_options":
{...}, "stake_option": "stake"}}`` (``game_preset`` names another preset of the game).

:class:`BotTables` plays a whole table with bots, deal by deal, the way the director does on the server: each
deal from the assignment's seed for it, with the game's match state carried from deal to deal and the seats'
match points as the table points (the 积分最小化原则).

>>> from qipai.tournaments import parse_definition, TableAssignment
>>> d = parse_definition({"preset": "sit_and_go_9"})
>>> a = TableAssignment("1.1.1", 0, 0, 1, ("x", "y", "z"), ("x", "y", "z"), ("x", "y", "z"), 3, 10, None,
...                     (1000, 1000, 1000), 5)
>>> table_game(d, a)
('doudizhu', {'preset': 'jj_match', 'stake': 10})
>>> res = BotTables(d, {"x": "random", "y": "random", "z": "random"})(a)
>>> len(res), all(sum(r) == 0 for r in res)
(3, True)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from qipai.bots import play_out
from qipai.core.options import short_repr
from qipai.core.registry import get_factory
from qipai.tournaments import Definition, TableAssignment


@dataclass(frozen=True, slots=True)
class MatchGame:
    """A match game kind on the platform: the registered game, its options, the stake option, and the option
    that limits a table's match to the round's deals (``None``: every deal is a match of its own)."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    stake_option: str | None = "stake"
    deals_option: str | None = None


MATCH_GAMES: dict[str, MatchGame] = {
    "ddz3": MatchGame("doudizhu", {"preset": "jj_match"}),
    "ddz4": MatchGame("doudizhu", {"preset": "four_player", "all_pass": "starter_is_landlord",
                                   "cap_by_table_points": True, "autoplay_split": True}),
    "mahjong": MatchGame("mahjong", {"preset": "daqing"}, stake_option="base"),
    "shengji": MatchGame("shengji", {"preset": "four_deck", "match_bonus": 0}, deals_option="hand_limit"),
}
"""RULES-matches.md §4: each match game's platform game and rule options."""


def match_game(definition: Definition) -> MatchGame:
    """The platform game of a match (its definition's ``host`` block may name another)."""
    host = definition.host
    base = MATCH_GAMES.get(definition.game)
    game = host.get("platform_game") or (base.game if base else None)
    if not isinstance(game, str):
        raise ValueError(f"match game {definition.game!r} has no platform game: set host.platform_game")
    options = dict(base.options) if base is not None and base.game == game else {}
    preset = host.get("game_preset")
    if isinstance(preset, str):
        options["preset"] = preset
    extra = host.get("game_options")
    if isinstance(extra, Mapping):
        options.update(extra)
    stake = host.get("stake_option", base.stake_option if base else None)
    deals = host.get("deals_option", base.deals_option if base else None)
    return MatchGame(game, options, stake if isinstance(stake, str) else None,
                     deals if isinstance(deals, str) else None)


class MatchGameError(ValueError):
    """A match definition its platform game cannot play; ``option`` names the definition's field at fault."""

    def __init__(self, option: str, reason: str) -> None:
        super().__init__(f"{option}: {reason}")
        self.option = option
        self.reason = reason


_HOST_TEXT = ("platform_game", "game_preset", "bot")


def check_match_game(definition: Definition, factory: Any) -> None:
    """Whether the platform game (``factory``: the :class:`qipai.core.game.GameFactory` of
    :func:`match_game`'s game) can play every table the definition may form: the host block's fields of the right
    types, a stake option the game declares as one that moves points, the rule options with every stake the stages
    may use (each ``base``, each 打立 level) and every round's deals, and the game's seats per table. Raises
    :class:`MatchGameError` naming the field; a match that passes never stands still at its first table."""
    host = definition.host
    for key in _HOST_TEXT:
        if key in host and not isinstance(host[key], str):
            raise MatchGameError(f"host.{key}", f"must be a name (text), got {short_repr(host[key], 40)}")
    for key in ("stake_option", "deals_option"):
        if host.get(key) is not None and not isinstance(host[key], str):
            raise MatchGameError(f"host.{key}", f"must be an option's name or null, got {short_repr(host[key], 40)}")
    if "game_options" in host and not isinstance(host["game_options"], Mapping):
        raise MatchGameError("host.game_options", f"must be an object, got {short_repr(host['game_options'], 40)}")
    mg = match_game(definition)
    declared = factory.info.options
    if mg.stake_option is not None and mg.stake_option not in declared.points_options():
        raise MatchGameError("host.stake_option", f"{mg.game} has no stake option {short_repr(mg.stake_option, 40)}"
                             f" (its options that move points: {', '.join(declared.points_options()) or 'none'})")
    if mg.deals_option is not None and mg.deals_option not in declared.by_name:
        raise MatchGameError("host.deals_option", f"{mg.game} has no rule option {short_repr(mg.deals_option, 40)}")
    # every stake a table may play for, with the field it comes from, and every number of deals a table plays
    bases: dict[int, str] = {}
    deals: dict[int, str] = {}
    for i, st in enumerate(definition.stages):
        if st.format == "dali":
            for k, level in enumerate(st.levels):
                bases.setdefault(level, f"stages[{i}].levels[{k}]")
            deals.setdefault(st.ass_deals, f"stages[{i}].ass_deals")
        else:
            bases.setdefault(st.base, f"stages[{i}].base")
            for r, rnd in enumerate(st.rounds):
                deals.setdefault(rnd.deals, f"stages[{i}].rounds[{r}].deals" if st.format == "fixed"
                                 else f"stages[{i}].deals")
    base0, deals0 = min(bases, default=1), min(deals, default=1)

    def full(base: int, n: int | None, where: str) -> dict[str, Any]:
        options = dict(mg.options)
        if mg.stake_option:
            options[mg.stake_option] = base
        if mg.deals_option and n is not None:
            options[mg.deals_option] = n
        try:
            return dict(factory.options(options))
        except (ValueError, TypeError, KeyError) as e:
            raise MatchGameError(where, f"{mg.game}: {e}") from None

    try:
        factory.options(mg.options)
    except (ValueError, TypeError, KeyError) as e:
        raise MatchGameError(next((f"host.{k}" for k in ("game_options", "game_preset", "platform_game") if k in host),
                                  "game"), f"{mg.game}: {e}") from None
    for b, where in bases.items():
        full(b, None, where)
    for n, where in deals.items():
        full(base0, n, where)
    players = factory.players(full(base0, deals0, "stages"))
    if players != definition.seats:
        raise MatchGameError("seats", f"{mg.game} plays {players} to a table, the definition says {definition.seats}")


def table_game(definition: Definition, a: TableAssignment) -> tuple[str, dict[str, Any]]:
    """The platform game and the rule options of one match table: the stake is the table's base; where a round
    is one match of the game (Shengji) its length is the round's deals (§3.6)."""
    mg = match_game(definition)
    options = dict(mg.options)
    if mg.stake_option:
        options[mg.stake_option] = a.base
    if mg.deals_option:
        options[mg.deals_option] = a.deals
    return mg.game, options


def seat_points(a: TableAssignment, points: Sequence[int] | None = None) -> list[int]:
    """Each game seat's match points (``points``: by entrant, in ``a.entrants`` order; default at formation)."""
    pts = list(a.points if points is None else points)
    return [pts[a.entrants.index(e)] for e in a.seat_entrants]


def deal_seed(a: TableAssignment, deal: int) -> int:
    """The seed deal ``deal`` of a table is dealt from: the match's seed for it passed through SHA-256, in 62
    bits (what a deal record stores).

    The tournament core derives a table's seed from the match's and a deal's from the table's with SplitMix64,
    which can be run backwards: a deal's seed, in its record for everybody to read once the deal is over, gave
    the table's seed and then the match's, and with them every deal still to come at every table of the match.
    Through a one-way hash it tells nothing of them."""
    raw = a.deal_seed(deal).to_bytes(8, "big")
    return int.from_bytes(hashlib.sha256(b"qipai match deal:" + raw).digest()[:8], "big") & ((1 << 62) - 1)


class BotTables:
    """``play_table`` for :func:`qipai.tournaments.simulate`: every seat played by a bot of the platform game.

    ``bots`` maps an entrant id to a bot name (entrants not named — the match's own bots — play ``default``).
    Returns each deal's per-seat score changes; a table whose game's match ends early (a Shengji match decided
    before its last hand) returns fewer."""

    def __init__(self, definition: Definition, bots: Mapping[str, str] | None = None, *, default: str = "random",
                 on_deal: Callable[[TableAssignment, int, list[int]], None] | None = None) -> None:
        self.definition = definition
        self.bots = dict(bots or {})
        self.default = default
        self.on_deal = on_deal

    def __call__(self, a: TableAssignment) -> list[list[int]]:
        game, options = table_game(self.definition, a)
        factory = get_factory(game)
        full = factory.options(options)
        match = factory.match_start(full)
        start = dict(match)
        points = list(a.points)
        out: list[list[int]] = []
        players = factory.players(full)
        for n in range(1, a.deals + 1):
            seed = deal_seed(a, n)
            context: dict[str, Any] = {"deal_index": n - 1, **factory.deal_context(full, match),
                                       "table_points": seat_points(a, points)}
            g = factory.new(full, seed, context)
            bots = [get_bot_for(game, self.bots.get(a.seat_entrants[s], self.default), seed, s)
                    for s in range(players)]
            play_out(g, bots, 4 * factory.info.max_actions, f"table {a.key} deal {n}")
            outcome = g.outcome() or {}
            scores = [int(x) for x in outcome.get("scores") or [0] * players]
            out.append(scores)
            for i, e in enumerate(a.entrants):
                seat = a.seat_entrants.index(e)
                points[i] += scores[seat]
            if self.on_deal is not None:
                self.on_deal(a, n, scores)
            match = factory.match_after(full, match, outcome)
            if match.get("over") or match == start:
                break
        return out


def get_bot_for(game: str, name: str, seed: int, seat: int) -> Any:
    from qipai.bots import get_bot

    return get_bot(name, (seed ^ (seat * 0x9E3779B1)) & 0xFFFFFFFF, game=game)
