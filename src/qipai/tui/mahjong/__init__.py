"""Daqing mahjong in the terminal (``qipai play --game mahjong``): the table session (:mod:`.session`), what it
prints (:mod:`.view`) and its words in English and Chinese (:mod:`.words`)."""

from .session import MahjongOptions, MahjongSession, parse_command, read_tile, run_from_cli, run_mahjong
from .view import record_lines, replay_lines

__all__ = ["MahjongOptions", "MahjongSession", "parse_command", "read_tile", "record_lines", "replay_lines",
           "run_from_cli", "run_mahjong"]
