"""qipai (棋牌): a self-hosted Chinese card-game platform.

Layers, innermost first: :mod:`qipai.core` (the game interface, options, rng), :mod:`qipai.games` (one folder per
game: pure, deterministic rules cores that know nothing of IO, and their bots), :mod:`qipai.host` (tables, lobby,
journal, timers, auto-play), :mod:`qipai.store`, :mod:`qipai.server` (the Starlette shell), ``qipai/web`` and
:mod:`qipai.tui`.
"""

__version__ = "0.1.0"
