"""Persistence: SQLAlchemy models, Alembic migrations and the :class:`Store` repository the server uses."""

from qipai.store.repo import JournalRow, NameTaken, RunningDeal, SettleRow, Store, TableInfo, UserInfo
from qipai.store.titles import title_for

__all__ = [
    "JournalRow",
    "NameTaken",
    "RunningDeal",
    "SettleRow",
    "Store",
    "TableInfo",
    "UserInfo",
    "title_for",
]
