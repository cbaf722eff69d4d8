"""The real-time protocol (docs/protocol.md): pydantic models of every message.

Client messages are validated here on arrival; server messages are built as plain dicts for speed, and their
models below document them (the tests validate every message a client receives against them).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

PROTOCOL_VERSION = 1

TableId = Annotated[str, Field(min_length=1, max_length=16)]
Ref = Annotated[str, Field(max_length=64)] | Annotated[int, Field(ge=-(2**53), le=2**53)]


# ------------------------------------------------------------------------------------- client → server
class ClientBase(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    id: Ref | None = None
    """Chosen by the client; echoed as ``ref`` in the reply or error about this message."""
    v: Literal[1] = 1
    """Protocol version; optional, must be 1 when given."""


class Ping(ClientBase):
    type: Literal["ping"]


class QuickMatch(ClientBase):
    type: Literal["quick_match"]
    room: Annotated[str, Field(max_length=64)]


class CreateTable(ClientBase):
    type: Literal["create_table"]
    room: Annotated[str, Field(max_length=64)]
    options: dict[str, Any] = Field(default_factory=dict)
    fill_bots_after: Annotated[float, Field(ge=0, le=3600)] | None = None
    autoplay_bot: Annotated[str, Field(max_length=32)] | None = None


class Join(ClientBase):
    type: Literal["join"]
    invite: Annotated[str, Field(min_length=1, max_length=16)]


class Spectate(ClientBase):
    type: Literal["spectate"]
    table: TableId
    invite: Annotated[str, Field(max_length=16)] | None = None


class Unspectate(ClientBase):
    type: Literal["unspectate"]
    table: TableId


class Leave(ClientBase):
    type: Literal["leave"]
    table: TableId


class Action(ClientBase):
    type: Literal["action"]
    table: TableId
    deal: int
    version: Annotated[int, Field(ge=0)]
    action: Annotated[str, Field(min_length=1, max_length=200)]


class Autoplay(ClientBase):
    type: Literal["autoplay"]
    table: TableId
    on: bool


class Snapshot(ClientBase):
    type: Literal["snapshot"]
    table: TableId


class FillBots(ClientBase):
    type: Literal["fill_bots"]
    table: TableId


ClientMessage = Annotated[
    Ping | QuickMatch | CreateTable | Join | Spectate | Unspectate | Leave | Action | Autoplay | Snapshot | FillBots,
    Field(discriminator="type"),
]
CLIENT_TYPES = frozenset(
    {
        "ping",
        "quick_match",
        "create_table",
        "join",
        "spectate",
        "unspectate",
        "leave",
        "action",
        "autoplay",
        "snapshot",
        "fill_bots",
    }
)
client_adapter: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


class ProtocolError(Exception):
    """A message refused before it reached a table; ``code`` is the error's machine-readable name."""

    def __init__(self, code: str, message: str, ref: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


def parse_client(raw: Any) -> ClientMessage:
    """Validate one decoded JSON value as a client message, or raise :class:`ProtocolError`."""
    if not isinstance(raw, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    ref = raw.get("id") if isinstance(raw.get("id"), str | int) else None
    kind = raw.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message needs a 'type' (text)", ref)
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "unknown_type", f"unknown message type {kind[:40]!r}: expected one of {sorted(CLIENT_TYPES)}", ref
        )
    if "v" in raw and raw["v"] != PROTOCOL_VERSION:
        raise ProtocolError("bad_version", f"protocol version {raw['v']!r} is not spoken here (this server: 1)", ref)
    try:
        return client_adapter.validate_python(raw)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(p) for p in err["loc"][1:]) or "message"
        raise ProtocolError("bad_message", f"{kind}: {where}: {err['msg']}", ref) from None


# ------------------------------------------------------------------------------------- server → client
class ServerBase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    v: Literal[1]
    seq: int
    """1, 2, 3, … on each connection: a gap means messages were lost (ask for a ``snapshot``)."""


class SeatView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int
    name: str
    user_id: int | None
    bot: str | None
    connected: bool
    leaving: bool


class TableView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    game: str
    room: str | None
    options: dict[str, Any]
    private: bool
    invite_code: str | None
    min_points: int
    players: int
    seats: list[SeatView | None]
    status: Literal["waiting", "playing", "closed"]
    deal_index: int
    you: int | None
    results: list[dict[str, Any]]


class StateView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    table: str
    deal: int
    version: int
    phase: str
    to_act: int | None
    you: int | None
    deadline_ms: int | None
    autoplay: list[bool]
    legal: list[str] | None
    observation: dict[str, Any]


class Welcome(ServerBase):
    type: Literal["welcome"]
    protocol: int
    user: dict[str, Any]
    table: str | None


class Pong(ServerBase):
    type: Literal["pong"]
    ref: Any = None


class Error(ServerBase):
    type: Literal["error"]
    code: str
    message: str
    ref: Any = None


class Joined(ServerBase):
    type: Literal["joined"]
    table: str
    seat: int
    invite_code: str | None
    ref: Any = None


class Left(ServerBase):
    type: Literal["left"]
    table: str
    reason: str
    ref: Any = None


class SnapshotMsg(ServerBase):
    type: Literal["snapshot"]
    table: TableView
    state: StateView | None
    last_result: dict[str, Any] | None
    ref: Any = None


class TableMsg(ServerBase):
    type: Literal["table"]
    table: TableView


class StateMsg(StateView, ServerBase):
    type: Literal["state"]


class DealOver(ServerBase):
    type: Literal["deal_over"]
    table: str
    deal: int
    outcome: dict[str, Any]
    changes: list[dict[str, Any]]


class Closed(ServerBase):
    type: Literal["closed"]
    table: str
    reason: str


ServerMessage = Annotated[
    Welcome | Pong | Error | Joined | Left | SnapshotMsg | TableMsg | StateMsg | DealOver | Closed,
    Field(discriminator="type"),
]
server_adapter: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
