"""Persistence: SQLAlchemy models, Alembic migrations and the :class:`Store` repository the server uses."""

from qipai.store.repo import (
    Fence,
    FencedOut,
    JournalRow,
    MatchRecord,
    MatchRow,
    MoneyMove,
    NameTaken,
    Overdrawn,
    RunningDeal,
    SettleRow,
    StaleMatch,
    Standing,
    Store,
    StoreFull,
    TableInfo,
    UserInfo,
)

__all__ = [
    "Fence",
    "FencedOut",
    "JournalRow",
    "MatchRecord",
    "MatchRow",
    "MoneyMove",
    "NameTaken",
    "Overdrawn",
    "RunningDeal",
    "SettleRow",
    "StaleMatch",
    "Standing",
    "Store",
    "StoreFull",
    "TableInfo",
    "UserInfo",
]
