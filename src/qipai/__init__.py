"""qipai (棋牌): a self-hosted Chinese card-game platform.

The rules core (:mod:`qipai.cards`, :mod:`qipai.doudizhu`) is pure and deterministic and knows nothing of IO.
"""

__version__ = "0.1.0"
