"""The record files a terminal table writes (one JSON record per deal), and the lines that list them at its end —
the same for every game's session."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from .i18n import bot_name, tr


def with_players(record: dict[str, Any], bots: Sequence[str | None], you: int | None) -> dict[str, Any]:
    """``record`` with the seats' players (docs/records.md): ``bots[i]`` the bot playing seat ``i`` (``None``: a
    person), ``you`` the seat of the person the record is for (the terminal's player; ``None`` for bots only).

    >>> with_players({"seed": 1}, [None, "efficiency"], 0)
    {'seed': 1, 'players': [{'name': None, 'bot': None}, {'name': None, 'bot': 'efficiency'}], 'you': 0}
    """
    return {**record, "players": [{"name": None, "bot": b} for b in bots], "you": you}


_BOT_SEAT = re.compile(r"bot:([\w-]+):(\d+)")
_BOT_ACCOUNT = re.compile(r"bot:([\w-]+)")
_GUEST = re.compile(r"guest-([0-9a-f]{4,})", re.I)


def player_name(name: str | None, bot: str | None, seat: int, lang: str) -> str | None:
    """A seat's player in words, as the web client names it: a server's bot seat (``bot:heuristic:2``) as 电脑2号,
    a bot account (``bot:heuristic``) as 电脑（普通）, a guest (``guest-…``) as 游客1234, a person by the name; a bot
    without a name (a terminal table's, whose seat 1 is 电脑1号) by its seat.  ``None`` when nothing names it.

    >>> player_name("bot:heuristic:2", "heuristic", 1, "zh"), player_name("guest-0001e240", None, 0, "en")
    ('电脑2号', 'Guest 3456')
    >>> player_name(None, "efficiency", 3, "en"), player_name("Ann", None, 0, "zh"), player_name(None, None, 0, "en")
    ('Bot 3', 'Ann', None)
    """
    if name:
        m = _BOT_SEAT.fullmatch(name)
        if m:
            return tr(lang, "bot_seat", i=int(m[2]))
        m = _BOT_ACCOUNT.fullmatch(name)
        if m:
            return tr(lang, "bot_account", bot=bot_name(m[1], lang))
        m = _GUEST.fullmatch(name)
        if m:
            return tr(lang, "guest", id=f"{int(m[1][-5:], 16) % 10000:04d}")
        return name
    if bot:
        return tr(lang, "bot_seat", i=seat)
    return None


def fill_names(names: Sequence[str] | None, default: Sequence[str]) -> list[str]:
    """One name per seat of ``default``: ``names[i]`` where it names the seat, else ``default[i]`` (a list shorter
    than the table, an empty name).

    >>> fill_names(["Ann", ""], ["#0", "#1", "#2"]), fill_names(None, ["#0"])
    (['Ann', '#1', '#2'], ['#0'])
    """
    given = list(names or [])
    return [(given[i] if i < len(given) else "") or d for i, d in enumerate(default)]


def record_names(record: Mapping[str, Any], lang: str, default: Sequence[str]) -> list[str]:
    """Each seat's name for a replay of ``record``: from its ``players`` (and ``you``: 你 / You), each seat the
    record does not name as ``default`` does (an older record, or one written without players: ``seat 0``, ``#0``).

    >>> rec = {"players": [{"name": None, "bot": None}, {"name": None, "bot": "random"}], "you": 0}
    >>> record_names(rec, "zh", ["#0", "#1"]), record_names({}, "en", ["#0", "#1"])
    (['你', '电脑1号'], ['#0', '#1'])
    >>> record_names(rec, "en", ["#0", "#1"])
    ['Player (you)', 'Bot 1']
    """
    players = record.get("players")
    you = record.get("you")
    out = list(default)
    if not isinstance(players, list):
        return out
    for i, p in enumerate(players[:len(out)]):
        name = bot = None
        if isinstance(p, Mapping):
            name = p.get("name") if isinstance(p.get("name"), str) else None
            bot = p.get("bot") if isinstance(p.get("bot"), str) else None
        if i == you and isinstance(you, int) and not isinstance(you, bool):
            # 你 in Chinese; in English the replay's sentences are in the third person ("… plays"), so the
            # name with "(you)": "Ann (you) plays", not "You plays"
            out[i] = tr(lang, "you") if lang == "zh" else tr(lang, "you_named", name=name or tr(lang, "player"))
        elif isinstance(p, Mapping):
            out[i] = player_name(name, bot, i, lang) or out[i]
    return out


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
