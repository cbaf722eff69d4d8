"""Name keys map Greek capitals by the Latin capitals they look like (``Η`` → ``h``, ``Ν`` → ``n``): the keys of
names holding them are made anew.

Before, a capital was case-folded first (``Η`` → ``η``) and then mapped by its small letter (``η`` → ``n``), so
``ΝΙΚΕ263`` keyed as ``vike263`` and could be registered beside ``NIKE263``.  An account whose new key an older
account already has keeps its old one (it was registered while the look-alike passed; the older keeps the name).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def _rekey(key: Callable[[str], str]) -> None:
    bind = op.get_bind()
    users = sa.table("users", sa.column("id", sa.BigInteger), sa.column("name", sa.String),
                     sa.column("name_key", sa.String))
    rows = bind.execute(sa.select(users.c.id, users.c.name, users.c.name_key).order_by(users.c.id)).all()
    taken = {r.name_key for r in rows}
    for r in rows:
        new = key(r.name)
        if new == r.name_key or new in taken:
            continue  # unchanged, or an older account's key: this one keeps its own
        taken.discard(r.name_key)
        taken.add(new)
        bind.execute(sa.update(users).where(users.c.id == r.id).values(name_key=new))


def upgrade() -> None:
    from qipai.store.names import name_key

    _rekey(name_key)


def downgrade() -> None:
    from qipai.store.names import _CONFUSABLE

    def old_key(name: str) -> str:
        n = unicodedata.normalize("NFKC", name).casefold()
        return unicodedata.normalize("NFKC", n.translate(_CONFUSABLE))

    _rekey(old_key)
