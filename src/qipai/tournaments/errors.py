"""The errors of the tournament core.  Each carries a message that says what was wrong; a call that raises one
changes nothing (the transition functions work on a copy, or check before they touch the state)."""

from __future__ import annotations


class TournamentError(ValueError):
    """Base class: a tournament definition, command or report the core cannot accept."""


class ConfigError(TournamentError):
    """A match definition is inconsistent (RULES-matches.md says "a configuration error")."""


class EntryError(TournamentError):
    """A registration or withdrawal is not allowed now (closed, full, duplicate, balance too low …)."""


class ReportError(TournamentError):
    """A deal result does not fit the table it is reported for (unknown table, wrong deal number, seat count)."""


class StateError(TournamentError):
    """An operation does not fit the match's phase (cancel a paid match, report before the start …)."""
