"""The tournament core (比赛): pure, no IO, deterministic from a seed (RULES-matches.md).

It knows a game only by its table — seats per table (3 or 4) and whether entrants are two-player teams — and
runs every format of the spec on an explicit JSON state with pure transitions:

* :mod:`.definition` / :mod:`.presets` — match definitions with the spec's option names and defaults (§2, §3, §8);
* :mod:`.ranking` — standings with 判定一/判定二 and the optional tie-breaks, carry-over, final places (§3.7, §5);
* :mod:`.seating` — snake / by_score / random seating, byes, Swiss repeat minimisation, team seats (§3.4–§3.6);
* :mod:`.dali` — 打立出局 levels, line, queue and table forming, the exact cut (§3.3);
* :mod:`.prizes` — fixed and pool prize tables with brackets (§2.6);
* :mod:`.schedule` — recurring schedules in cron form (§2.2);
* :mod:`.machine` — the state machine: :func:`new_match`, :func:`register`, :func:`withdraw`, :func:`tick`,
  :func:`start`, :func:`report`, :func:`cancel`, :func:`standings`, :func:`next_wakeup` (§2–§6);
* :mod:`.state` / :mod:`.events` — the persisted state and the events the host acts on;
* :mod:`.simulate` — run a whole match with a table-playing callable; :mod:`.gen` and :mod:`.check` — a
  random scenario generator and an invariant checker for property tests.

See ``docs/matches.md``.
"""

from .dali import DEFAULT_LEVELS, can_form, exact_cut, form_tables, level_base, level_index, line, take_table
from .definition import (
    GAME_PROFILES,
    Definition,
    Entry,
    FixedRound,
    GameProfile,
    Stage,
    SwissCut,
    definition_data,
    merge,
    parse_definition,
)
from .errors import ConfigError, EntryError, ReportError, StateError, TournamentError
from .events import (
    BotsAdded,
    DealCounted,
    DealStart,
    Eliminated,
    Event,
    FeeCharged,
    ForcedFinish,
    LevelChanged,
    MatchCancelled,
    MatchOver,
    MatchStarted,
    PrizePaid,
    PrizesFixed,
    QuitRequested,
    Refund,
    Registered,
    RegistrationClosed,
    Removed,
    RoundOver,
    RoundStarted,
    StageOver,
    StageStarted,
    TableAssignment,
    TableDone,
    TableFormed,
    derive,
    event_data,
    event_from_data,
)
from .machine import (
    COMMANDS,
    StandingRow,
    apply,
    assignment,
    cancel,
    final_ranking,
    in_play,
    new_match,
    next_wakeup,
    register,
    report,
    standings,
    start,
    tick,
    withdraw,
)
from .presets import PRESETS
from .prizes import (
    STANDARD_BRACKETS,
    Bracket,
    PrizeTable,
    award,
    bracket_for,
    parse_prizes,
    pool_size,
    prize_amounts,
    split_pool,
    split_team,
)
from .ranking import (
    TIEBREAK_KEYS,
    Carry,
    RankRow,
    buchholz,
    carry_value,
    final_places,
    normalize_tiebreaks,
    parse_carry,
    rank,
    sort_key,
)
from .schedule import next_start, occurrences, parse_cron, registration_opens
from .seating import (
    by_score,
    choose_byes,
    displacement,
    random_seating,
    repeats,
    seat_fixed,
    snake,
    swiss_seating,
    team_seats,
)
from .series import Occurrence, next_occurrence, occurrence_definition, open_occurrences
from .simulate import Command, EntrantSpec, RandomPlayer, SimulationResult, make_entrants, simulate
from .state import MatchState, state_from_json, state_to_json

__all__ = [
    "COMMANDS", "DEFAULT_LEVELS", "GAME_PROFILES", "PRESETS", "STANDARD_BRACKETS", "TIEBREAK_KEYS", "BotsAdded",
    "Bracket", "Carry", "Command", "ConfigError", "DealCounted", "DealStart", "Definition", "Eliminated",
    "EntrantSpec", "Entry", "EntryError", "Event", "FeeCharged", "FixedRound", "ForcedFinish", "GameProfile",
    "LevelChanged", "MatchCancelled", "MatchOver", "MatchStarted", "MatchState", "Occurrence", "PrizePaid",
    "PrizeTable", "PrizesFixed", "QuitRequested", "RandomPlayer", "RankRow", "Refund", "Registered",
    "RegistrationClosed", "Removed", "ReportError", "RoundOver", "RoundStarted", "SimulationResult", "Stage",
    "StageOver", "StageStarted", "StandingRow", "StateError", "SwissCut", "TableAssignment", "TableDone",
    "TableFormed", "TournamentError", "apply", "assignment", "award", "bracket_for", "buchholz", "by_score",
    "can_form", "cancel", "carry_value", "choose_byes", "definition_data", "derive", "displacement", "event_data",
    "event_from_data", "exact_cut", "final_places", "final_ranking", "form_tables", "in_play", "level_base",
    "level_index", "line", "make_entrants", "merge", "new_match", "next_occurrence", "next_start", "next_wakeup",
    "normalize_tiebreaks", "occurrence_definition", "occurrences", "open_occurrences", "parse_carry",
    "parse_cron", "parse_definition", "parse_prizes", "pool_size", "prize_amounts", "random_seating", "rank",
    "register", "registration_opens", "repeats", "report", "seat_fixed", "simulate", "snake", "sort_key",
    "split_pool", "split_team", "standings", "start", "state_from_json", "state_to_json", "swiss_seating",
    "take_table", "team_seats", "tick", "withdraw",
]
