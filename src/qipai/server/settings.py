"""Server configuration: every option is a field of :class:`Settings`, settable by a ``qipai serve`` flag or a
``QIPAI_<FIELD>`` environment variable (``QIPAI_DATABASE_URL``, ``QIPAI_BOT_FILL_WAIT``, …)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from qipai.game import GameFactory


class Bot(Protocol):
    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str: ...


GameLookup = Callable[[str], GameFactory]
BotLookup = Callable[[str, int], Bot]


@dataclass(frozen=True, slots=True)
class Room:
    """A lobby room: one game preset at one stake, with the points a player needs to sit there."""

    id: str
    game: str
    options: dict[str, Any]
    stake: int
    min_points: int
    name: str


DEFAULT_PRESETS = (
    "classic",
    "jj",
    "jj_match",
    "cantonese",
    "effective_bombs",
    "chengdu",
    "four_player",
    "four_player_show",
)
DEFAULT_STAKES = ((1, 0), (10, 200), (100, 2000))
"""(stake, minimum points) of each room of each preset."""


def default_rooms() -> list[Room]:
    return [
        Room(
            id=f"{preset}-{stake}",
            game="doudizhu",
            options={"preset": preset, "stake": stake},
            stake=stake,
            min_points=min_points,
            name=f"{preset} ×{stake}",
        )
        for preset in DEFAULT_PRESETS
        for stake, min_points in DEFAULT_STAKES
    ]


def _default_games(name: str) -> GameFactory:
    from qipai.games import get_factory  # type: ignore[import-not-found,unused-ignore]

    return get_factory(name)  # type: ignore[no-any-return,unused-ignore]


def _default_bots(name: str, seed: int) -> Bot:
    from qipai.bots import get_bot  # type: ignore[attr-defined,unused-ignore]

    return get_bot(name, seed)  # type: ignore[no-any-return,unused-ignore]


@dataclass(slots=True)
class Settings:
    """Everything ``qipai serve`` can be told.  Times are in seconds."""

    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Path("qipai-data")
    """Folder for the SQLite database (created if missing)."""
    database_url: str | None = None
    """SQLAlchemy URL; default ``sqlite+aiosqlite:///<data_dir>/qipai.db``.  PostgreSQL:
    ``postgresql+asyncpg://user:password@host:5432/db``."""
    database_schema: str | None = None
    """PostgreSQL only: keep every table in this schema (it must exist)."""
    bot_fill_wait: float = 5.0
    """Quick match: empty seats are filled with bots this long after a player sits down."""
    bot_delay: float = 1.0
    """How long a bot seat waits before acting, so humans can follow (0 = at once)."""
    autoplay_delay: float = 1.0
    """How long auto-play (托管) waits before acting for a human seat."""
    next_deal_delay: float = 3.0
    """Pause between the end of a deal and the next one at the same table."""
    time_scale: float = 1.0
    """Multiplies every time limit of the rules (tests use small values)."""
    start_points: int = 1000
    """Points of a newly registered user."""
    guest_points: int = 1000
    bot_points: int = 1_000_000
    """A bot's table points (for RULES.md §7 minimisation)."""
    seat_bot: str = "heuristic"
    """The bot that fills empty seats in quick-match rooms."""
    autoplay_bot: str = "passive"
    """The bot that plays for a human in auto-play (a private table may choose another)."""
    inline_bots: tuple[str, ...] = ("passive", "random")
    """Bots fast enough to run on the event loop; others think in a worker thread."""
    unattended_actions: int = 500
    """A deal that goes on this many actions with no player connected (e.g. auto-play passing for ever under a
    redeal rule) is abandoned: its table closes and the deal is marked aborted, unsettled."""
    bot_budget: float = 5.0
    """Seconds a bot may think; past that the seat times out."""
    bot_processes: int = 1
    """Worker processes for bots not in ``inline_bots`` (0: a thread of this process instead)."""
    rate_limit: float = 20.0
    """WebSocket messages per second a connection may send (token bucket)..."""
    rate_burst: int = 40
    """...with this burst."""
    flood_close: int = 200
    """Refused messages in a row after which the connection is closed."""
    max_message_bytes: int = 8192
    ws_compression: bool = False
    """Offer permessage-deflate on WebSockets (less bandwidth, more CPU)."""
    auth_rate_limit: float = 1.0
    """Log-ins and registrations per second per client address (burst ×20)."""
    token_days: int = 30
    """Lifetime of a session token."""
    secure_cookies: bool = False
    """Mark the session cookie ``Secure`` (set behind HTTPS)."""
    allowed_origins: tuple[str, ...] = ()
    """Extra ``Origin`` values a WebSocket may come from (the server's own host is always allowed)."""
    static_dir: Path | None = None
    """The browser client; default: the package's ``qipai/web`` folder."""
    log_level: str = "info"
    rooms: list[Room] = field(default_factory=default_rooms)
    games: GameLookup = _default_games
    bots: BotLookup = _default_bots

    def db_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{self.data_dir / 'qipai.db'}"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from ``QIPAI_*`` environment variables, then ``overrides`` (flags) on top."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name in ("rooms", "games", "bots"):
                continue
            raw = env.get("QIPAI_" + f.name.upper())
            if raw is None:
                continue
            values[f.name] = _parse(f.name, raw, getattr(cls(), f.name))
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


def _parse(name: str, raw: str, default: Any) -> Any:
    try:
        if isinstance(default, bool):
            if raw.lower() in ("1", "true", "yes", "on"):
                return True
            if raw.lower() in ("0", "false", "no", "off", ""):
                return False
            raise ValueError(raw)
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, float):
            return float(raw)
        if isinstance(default, tuple):
            return tuple(x.strip() for x in raw.split(",") if x.strip())
        if isinstance(default, Path) or name in ("static_dir",):
            return Path(raw)
        return raw
    except ValueError:
        raise ValueError(f"QIPAI_{name.upper()}: cannot read {raw!r}") from None
