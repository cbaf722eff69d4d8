"""Environments for researchers over every registered game: :mod:`qipai.envs.aec` (PettingZoo's AEC API,
optional extra ``pettingzoo``).  Importing this package needs nothing extra; :func:`aec_env` imports PettingZoo."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def aec_env(game: str = "doudizhu", options: Mapping[str, Any] | None = None, **kw: Any) -> Any:
    """A PettingZoo AEC environment for ``game`` (see :class:`qipai.envs.aec.QipaiAEC`)."""
    from .aec import aec_env as make

    return make(game, options, **kw)


__all__ = ["aec_env"]
