"""Reading arena results in the bench scripts: a bad file ends the script with a one-line message.

``load`` is any result with its games; ``research_records`` the games of a research-protocol result that
hold their actions (recorded since the ninth session), for the scripts that replay them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from qipai.games.doudizhu.bots.arena import load_result


def load(path: Path | str) -> Any:
    """The arena result at ``path`` (JSON or gzipped JSON), or :class:`SystemExit` saying what is wrong."""
    try:
        return load_result(path)
    except (FileNotFoundError, ValueError) as e:
        raise SystemExit(str(e)) from None


def research_records(path: Path | str) -> list[dict[str, Any]]:
    """The games of a research-protocol result, each with its actions, or :class:`SystemExit`."""
    data = load(path)
    if data.get("settings", {}).get("protocol") != "research":
        raise SystemExit(f"{path}: not a research-protocol arena result")
    recs: list[dict[str, Any]] = data["records"]
    if any(not r.get("actions") for r in recs):
        raise SystemExit(f"{path}: its games hold no actions (written before the arena recorded them)")
    return recs
