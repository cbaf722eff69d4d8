"""The explicit, JSON-serialisable state of one match (RULES-matches.md §6.3).  The host persists it after every
step (:func:`state_to_json`) and restores it mid-round (:func:`state_from_json`): every deal counted is in it, so
a result reported again is recognised and ignored, and no deal is replayed.

Everything here is data; the transitions are in :mod:`qipai.tournaments.machine`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

from .definition import Definition, parse_definition
from .serial import from_data, to_data

STATE_VERSION = 1
T = TypeVar("T")

PHASES = ("registration", "starting", "running", "finished", "cancelled")
"""``registration``: open (an ``at_time`` match before its start, a ``when_full`` one not yet full);
``starting``: a full ``when_full`` match waiting ``start_delay_s``; ``running``: started (late registration may
still be open); ``finished``: ranked and paid; ``cancelled``: refunded."""

STATUSES = ("in", "eliminated", "withdrawn", "removed")
"""``in``: still in the match; ``eliminated`` and ``withdrawn`` (quit after the start): out, with a final
place; ``removed``: withdrawn before the start (or by field fitting / an overlapping match) with a refund,
not ranked."""

WHERE = ("idle", "queue", "table", "done", "bye", "out")
"""Where an entrant is: ``idle`` (before the start, between rounds or stages), ``queue`` (打立 queue),
``table``, ``done`` (its table of this round has finished; the round has not), ``bye`` (sitting out this
round), ``out``."""


@dataclass
class EntrantState:
    """One entrant: a player, or a team ``[captain, partner]`` (§3.6); bots are entrants too (§2.5)."""

    id: str
    reg: int
    players: list[str]
    bot: bool = False
    fee: int = 0
    refunded: bool = False
    status: str = "in"
    quitting: bool = False
    registered_at: int = 0
    stage: int = -1
    points: int = 0
    last_deal: int = 0
    deals: int = 0
    deals_won: int = 0
    byes: int = 0
    mates: dict[str, int] = field(default_factory=dict)
    prev_rank: int | None = None
    prev_table: str | None = None
    table: str | None = None
    where: str = "idle"
    round_deals: int = 0
    round_absent: int = 0
    absent_run: int = 0
    fitted: bool = False
    """A bot field fitting added (§2.4) after the close of registration: in the field, not one of the entrants
    that entered (``max_entrants`` caps those)."""


@dataclass
class TableState:
    """A table in play: its assignment and how many of its deals are counted.  ``round`` is ``-1`` at a 打立
    table.  The deal in progress is always ``played + 1`` (the core starts one deal at a time)."""

    key: str
    stage: int
    round: int
    number: int
    entrants: list[str]
    seats: list[str]
    seat_entrants: list[str]
    deals: int
    base: int
    line: int | None
    seed: int
    points: list[int]
    played: int = 0


@dataclass
class StageState:
    """The running stage.  ``entered``: each field entrant's points on entering (after carry-over).
    ``round`` is the current round (0-based; ``-1`` before the first).  打立: ``queue`` (ids, head first),
    ``settled`` deals, the announced ``level``, ``stopping`` (``""``, ``"exact"`` once ``R ≤ N``, ``"forced"``
    after the last level), ``remaining`` (``R``) and ``tables_formed``."""

    index: int
    started_at: int
    entered: dict[str, int] = field(default_factory=dict)
    round: int = -1
    round_tables: int = 0
    byes: list[str] = field(default_factory=list)
    queue: list[str] = field(default_factory=list)
    settled: int = 0
    level: int = 0
    stopping: str = ""
    remaining: int = 0
    tables_formed: int = 0


@dataclass
class EliminationRecord:
    """One elimination event (§5.4): who left, in standings order, and why — ``dali`` (one 打立 deal),
    ``forced`` (forced finish), ``cut`` (a ``fixed`` round's cut), ``swiss_cut``, ``stage_cut`` (not among a
    stage's ``advance``) or ``withdrawal``.  ``seq`` is the settlement sequence number it followed."""

    seq: int
    stage: int
    kind: str
    entrants: list[str]
    at: int


@dataclass
class StageResult:
    """A finished stage's final standings: entrant ids best first with their points."""

    stage: int
    ids: list[str]
    points: list[int]


@dataclass
class MatchState:
    """The whole match.  ``definition`` is the completed definition data (:func:`definition_data`)."""

    match_id: str
    seed: int
    definition: dict[str, Any]
    created_at: int
    version: int = STATE_VERSION
    phase: str = "registration"
    start_at: int | None = None
    first_reg_at: int | None = None
    started_at: int | None = None
    reg_open: bool = True
    closed_at: int | None = None
    prizes_fixed: bool = False
    paying: int = 0
    humans: int = 0
    prize_amounts: list[int] = field(default_factory=list)
    next_reg: int = 1
    bots_made: int = 0
    entrants: dict[str, EntrantState] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)
    stage: StageState | None = None
    next_field: list[str] = field(default_factory=list)
    tables: dict[str, TableState] = field(default_factory=dict)
    eliminations: list[EliminationRecord] = field(default_factory=list)
    stage_results: list[StageResult] = field(default_factory=list)
    seq: int = 0
    wake_at: int | None = None
    wake_kind: str = ""
    ranking: list[str] = field(default_factory=list)
    cancel_reason: str = ""

    def defn(self) -> Definition:
        """The parsed definition (cached)."""
        key = id(self.definition)
        cached = _DEFN_CACHE.get(key)
        if cached is None or cached[0] is not self.definition:
            cached = (self.definition, parse_definition(self.definition))
            if len(_DEFN_CACHE) > 256:
                _DEFN_CACHE.clear()
            _DEFN_CACHE[key] = cached
        return cached[1]


_DEFN_CACHE: dict[int, tuple[dict[str, Any], Definition]] = {}


def state_to_json(state: MatchState) -> dict[str, Any]:
    """The state as plain JSON data (persist it after every step).  Fields at their defaults are left out."""
    ents = state.entrants
    try:
        state.entrants = {}
        data: dict[str, Any] = to_data(state, skip_defaults=True)
    finally:
        state.entrants = ents
    data["entrants"] = {k: _entrant_data(e) for k, e in ents.items()}
    data["version"] = state.version
    return data


def _shallow(obj: T) -> T:
    new: T = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


_ENTRANT_DEFAULTS: dict[str, Any] = {}


def _entrant_data(e: EntrantState) -> dict[str, Any]:
    if not _ENTRANT_DEFAULTS:
        _ENTRANT_DEFAULTS.update(to_data(EntrantState("", 0, [])))
        for k in ("id", "reg", "players"):
            _ENTRANT_DEFAULTS.pop(k)
    out: dict[str, Any] = {}
    for k, v in e.__dict__.items():
        if k in _ENTRANT_DEFAULTS and v == _ENTRANT_DEFAULTS[k] and type(v) is type(_ENTRANT_DEFAULTS[k]):
            continue
        out[k] = list(v) if k == "players" else dict(v) if k == "mates" else v
    return out


def clone(state: MatchState) -> MatchState:
    """A copy of ``state`` that shares nothing mutable with it (records that never change after they are made —
    elimination events, stage results, the definition — are shared).  Much faster than ``copy.deepcopy``."""
    new = _shallow(state)
    ents: dict[str, EntrantState] = {}
    for k, e in state.entrants.items():
        n = _shallow(e)
        n.mates = dict(e.mates)
        n.players = list(e.players)
        ents[k] = n
    new.entrants = ents
    new.players = dict(state.players)
    new.tables = {k: _shallow(t) for k, t in state.tables.items()}
    if state.stage is not None:
        stg = _shallow(state.stage)
        stg.entered = dict(stg.entered)
        stg.queue = list(stg.queue)
        stg.byes = list(stg.byes)
        new.stage = stg
    new.next_field = list(state.next_field)
    new.eliminations = list(state.eliminations)
    new.stage_results = list(state.stage_results)
    new.ranking = list(state.ranking)
    new.prize_amounts = list(state.prize_amounts)
    return new


def state_from_json(data: dict[str, Any]) -> MatchState:
    """Rebuild a state from :func:`state_to_json` output."""
    if data.get("version") != STATE_VERSION:
        raise ValueError(f"match state version {data.get('version')!r} is not {STATE_VERSION}")
    st: MatchState = from_data(MatchState, data)
    return st
