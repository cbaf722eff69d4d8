"""``qipai online``: the terminal client of a qipai server (:mod:`.client`), with an observation-based view of
each game (:mod:`.doudizhu`, :mod:`.shengji`, :mod:`.mahjong`) and the words of the lobby and of the server's
errors (:mod:`.words`)."""

from .client import LoginError, OnlineClient, OnlineOptions, QueueLines, run_online

__all__ = ["LoginError", "OnlineClient", "OnlineOptions", "QueueLines", "run_online"]
