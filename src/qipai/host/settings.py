"""Server configuration: every option is a field of :class:`Settings`, settable by a ``qipai serve`` flag or a
``QIPAI_<FIELD>`` environment variable (``QIPAI_DATABASE_URL``, ``QIPAI_BOT_FILL_WAIT``, …)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from qipai.core.game import GameFactory


class Bot(Protocol):
    def act(self, observation: dict[str, Any], legal_actions: list[str]) -> str: ...


GameLookup = Callable[[str], GameFactory]
BotLookup = Callable[[str, str, int], Bot]
"""``bots(game, name, seed)``: a new bot."""


@dataclass(frozen=True, slots=True)
class Room:
    """A lobby room: one game preset at one stake, with the points a player needs to sit there."""

    id: str
    game: str
    options: dict[str, Any]
    stake: int
    min_points: int
    name: str


DEFAULT_STAKES = ((1, 0), (10, 200), (100, 2000))
"""(stake, minimum points) of each room of each preset."""


def default_rooms(games: list[str] | None = None) -> list[Room]:
    """A room for every preset of every registered game (``games``: these instead) at each stake of
    :data:`DEFAULT_STAKES` (one room for a game without a ``stake`` option), read from the games' factories.
    Room ids are ``<preset>-<stake>`` (``classic-1``, ``four_deck-10``), ``<game>-<preset>-<stake>`` where an
    earlier game has a preset of that name.

    >>> [r.id for r in default_rooms(["shengji"])]
    ['four_deck-1', 'four_deck-10', 'four_deck-100']
    """
    from qipai.core.registry import game_names, get_factory

    rooms: list[Room] = []
    seen: set[str] = set()
    for game in game_names() if games is None else games:
        info = get_factory(game).info
        staked = "stake" in info.options
        for preset in info.presets:
            base = preset if preset not in seen else f"{game}-{preset}"
            seen.add(preset)
            rooms.extend(
                Room(
                    id=f"{base}-{stake}",
                    game=game,
                    options={"preset": preset, "stake": stake} if staked else {"preset": preset},
                    stake=stake,
                    min_points=min_points,
                    name=f"{preset} ×{stake}",
                )
                for stake, min_points in (DEFAULT_STAKES if staked else DEFAULT_STAKES[:1])
            )
    return rooms


def _default_games(name: str) -> GameFactory:
    from qipai.core.registry import get_factory

    return get_factory(name)


def _default_bots(game: str, name: str, seed: int) -> Bot:
    from qipai.bots import get_bot

    return get_bot(name, seed, game=game)


@dataclass(slots=True)
class Settings:
    """Everything ``qipai serve`` can be told.  Times are in seconds."""

    host: str = "127.0.0.1"
    """Address to listen on (0.0.0.0: every interface)."""
    port: int = 8000
    """Port to listen on (0: any free port, said in the "serving on" line)."""
    data_dir: Path = Path("qipai-data")
    """Folder for the SQLite database (created if missing)."""
    database_url: str | None = None
    """SQLAlchemy URL; default ``sqlite+aiosqlite:///<data_dir>/qipai.db``.  PostgreSQL:
    ``postgresql+asyncpg://user:password@host:5432/db``."""
    database_schema: str | None = None
    """PostgreSQL only: keep every table in this schema (it must exist)."""
    node_id: str = ""
    """This node's name among several (empty: the host name and process id)."""
    redis_url: str | None = None
    """Several nodes: the Redis that carries table leases, the directory and the event bus
    (``redis://127.0.0.1:6379/0``).  Unset: one node alone, as always."""
    redis_prefix: str = "qipai:"
    """Prefix of every Redis key and channel (several clusters may share one Redis)."""
    public_url: str | None = None
    """How clients reach this node directly (``https://example.org/n/node1``): where other nodes send the
    players of this node's tables (several nodes; see docs/deploy.md)."""
    lease_seconds: float = 15.0
    """Several nodes: how long a table's lease lasts unrenewed; a dead node's tables move after about this."""
    admin_token: str | None = None
    """A secret that allows the operator's endpoints (``POST /api/admin/drain``); unset: they are off."""
    sqlite_busy_ms: int = 5000
    """SQLite only: how long a write waits for a lock another process holds before the tables pause."""
    bot_fill_wait: float = 5.0
    """Quick match: empty seats are filled with bots this long after a player sits down."""
    bot_delay: float = 1.0
    """How long a bot seat waits before acting, so humans can follow (0 = at once)."""
    autoplay_delay: float = 1.0
    """How long auto-play (托管) waits before acting for a human seat."""
    next_deal_delay: float = 3.0
    """Shortest pause between the end of a deal and the next one at the same table."""
    ready_timeout: float = 15.0
    """准备: after a deal each seat readies (bots at once); one not ready after this long is readied."""
    forced_delay: float = 0.8
    """要不起: a move a player will surely make (a pass when nothing beats the table) is made for them after
    this long (a player may switch it off)."""
    chat_rate: float = 0.5
    """Quick-chat phrases per second a player may send (burst ``chat_burst``)."""
    chat_burst: int = 3
    time_scale: float = 1.0
    """Multiplies every time limit of the rules (tests use small values)."""
    start_points: int = 1000
    """Points of a newly registered user."""
    guest_points: int = 1000
    bot_points: int = 1_000_000
    """A bot's table points (for RULES.md §7 minimisation)."""
    seat_bot: str = ""
    """The bot that fills empty seats in quick-match rooms (empty: each game's default, e.g. Dou Dizhu's
    ``heuristic``)."""
    autoplay_bot: str = ""
    """The bot that plays for a human in auto-play (empty: each game's seed behaviour, e.g. ``passive``; a
    private table may choose another)."""
    inline_bots: tuple[str, ...] = ("passive", "random")
    """Bots fast enough to run on the event loop; others think in a worker thread."""
    unattended_actions: int = 500
    """A deal that goes on this many bot/auto-play decisions (a joint decision's answers count once) with no player
    connected (e.g. auto-play passing for ever under a redeal rule) is abandoned: its table closes and the deal is
    marked aborted, unsettled."""
    deserted_close: float = 900.0
    """A table between deals (or waiting for players) with none of its seated players connected and nobody
    watching closes after this many seconds, its seats freed (a match table's director closes its own)."""
    restore_grace: float = 30.0
    """After a restart, players of a table between deals have this long to come back before it moves on."""
    relief_points: int = 500
    """救济: points given once a day to a player below the lowest room's minimum (0: none)."""
    relief_hours: float = 24.0
    """How often a player may receive relief."""
    leaderboard_tz: str = "UTC"
    """The time zone (IANA name, e.g. ``Asia/Shanghai``) whose midnights begin the weekly and monthly
    leaderboards (周榜 from Monday 00:00, 月榜 from the 1st)."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses of reverse proxies whose ``X-Forwarded-For`` is believed (none by default)."""
    login_backoff_after: int = 5
    """Failed log-ins of one account after which it must wait before the next try (doubling each time)."""
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
    ws_auth_timeout: float = 5.0
    """Seconds a WebSocket opened without a session cookie or bearer header has to send its ``auth`` message."""
    max_user_connections: int = 12
    """WebSockets one account may hold open at once (windows, tabs, devices); one more is refused."""
    max_address_connections: int = 200
    """WebSockets one client address may hold open at once, those still authenticating included (players
    behind one NAT share it); one more is refused."""
    session_check_every: float = 30.0
    """How often open connections are checked for an expired or dropped session (they are closed then)."""
    secure_cookies: bool = False
    """Mark the session cookie ``Secure`` (set behind HTTPS)."""
    allowed_origins: tuple[str, ...] = ()
    """Extra ``Origin`` values a WebSocket may come from (the server's own host is always allowed)."""
    static_dir: Path | None = None
    """The browser client; default: the package's ``qipai/web`` folder."""
    matches: str = ""
    """Sit-and-go pools (比赛): match presets (``sit_and_go_9``, comma-separated) or a JSON list of match
    definitions; the match director keeps one match of each open for registration (empty: none)."""
    log_level: str = "info"
    rooms: list[Room] = field(default_factory=default_rooms)
    games: GameLookup = _default_games
    bots: BotLookup = _default_bots

    def __post_init__(self) -> None:
        if not self.node_id:
            import socket

            self.node_id = f"{socket.gethostname()}-{os.getpid()}"

    def cluster_key(self) -> str | None:
        """What every node of one cluster shares (its Redis, database number and key prefix), the password left
        out; ``None`` for one node alone.  Nodes of another cluster on the same database are refused.

        >>> Settings(redis_url="redis://:pw@Db-Host/2", redis_prefix="q:").cluster_key()
        'redis://db-host:6379/2 q:'
        """
        if not self.redis_url:
            return None
        from urllib.parse import urlsplit

        u = urlsplit(self.redis_url)
        if u.scheme == "unix":
            return f"unix://{u.path}?{u.query} {self.redis_prefix}"
        db = u.path.strip("/") or "0"
        return f"{u.scheme}://{(u.hostname or '').lower()}:{u.port or 6379}/{db} {self.redis_prefix}"

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
