"""The record files a terminal table writes (one JSON record per deal), and the lines that list them at its end —
the same for every game's session."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text


def write_record(folder: Path | None, base: str, record: dict[str, Any]) -> Path | None:
    """Write ``record`` as ``folder/base.json`` (``base-2.json``, … when that name is taken) and return its path;
    nothing without a folder.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> [write_record(d, "t", {"n": i}).name for i in range(2)]
    ['t.json', 't-2.json']
    >>> write_record(None, "t", {}) is None
    True
    """
    if folder is None:
        return None
    path = folder / f"{base}.json"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        k = 1
        while path.exists():
            k += 1
            path = folder / f"{base}-{k}.json"
        path.write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")
    except OSError as e:  # a folder that went read-only, a full disk: the table plays on
        raise RecordError(f"{path}: {e.strerror or e}") from None
    return path


class RecordError(OSError):
    """A record that could not be written (the message names the file and why)."""


def check_folder(folder: Path) -> None:
    """Raise :class:`RecordError` unless records can be written into ``folder`` (made if missing): a table finds
    out before its first deal, not after it."""
    probe = folder / ".qipai-write-check"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise RecordError(f"{folder}: {e.strerror or e}") from None


def show_records(out: Callable[..., None], console: Console, words: Callable[..., str], records: list[Path],
                 folder: Path | None) -> None:
    """At the end of a table: the records written and how to replay one, or that none were (``--no-records``).
    ``out`` prints a line in a style, ``words(key, **params)`` is the session's wording."""
    if records:
        out(words("records", n=len(records)))
        for p in records:
            console.print(Text(f"  {p}"), soft_wrap=True)
        console.print(Text(words("replay_with", path=records[-1])), soft_wrap=True)
    elif folder is None:
        out(words("records_off"), style="dim")
