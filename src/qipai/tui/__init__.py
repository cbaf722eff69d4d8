"""Terminal play (``qipai play``): you against bots at one table, drawn with Rich, driven line by line.

- :mod:`.table` — the table session: deals, bots, auto-play, timers, quitting, totals, history and records.
- :mod:`.render` — the screen, settlement, result, history and trick views.
- :mod:`.commands` — reading typed commands and plays, with one-line explanations of mistakes.
- :mod:`.hints` — hint ordering.
- :mod:`.reader` — line input with time limits.
- :mod:`.i18n` — English and Chinese words.
"""

from .table import SetupError, TableOptions, TableSession, run_table

__all__ = ["SetupError", "TableOptions", "TableSession", "run_table"]
