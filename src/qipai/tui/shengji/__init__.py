"""Shengji in the terminal (``qipai play --game shengji``): the table session (:mod:`.session`), what it draws
(:mod:`.view`) and its words in English and Chinese (:mod:`.words`).  It shares the line reader
(:mod:`qipai.tui.reader`) with the Dou Dizhu table."""

from .session import ShengjiOptions, ShengjiSession, parse_command, read_cards, run_from_cli, run_shengji
from .view import record_lines

__all__ = ["ShengjiOptions", "ShengjiSession", "parse_command", "read_cards", "record_lines", "run_from_cli",
           "run_shengji"]
