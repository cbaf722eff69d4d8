"""Alembic migrations of the qipai database (applied at server start by :func:`qipai.store.db.upgrade`)."""
