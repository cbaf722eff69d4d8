"""Migration 0003 on a database made by the schema before it (revision 0002, what the platform ran before games
had their own points): every user's points, games and wins move into per-game standings with a ledger entry,
per-role counts are rebuilt from the deal history, and the records stay readable — nothing lost."""

from __future__ import annotations

import asyncio
import unicodedata
from datetime import UTC, datetime

import sqlalchemy as sa

from qipai.store import Store
from qipai.store.db import make_engine, upgrade

from server_helpers import Database


async def test_0003_moves_todays_data_across(db: Database) -> None:
    engine = make_engine(db.url, schema=db.schema)
    await upgrade(engine, "0002")
    now = datetime.now(UTC)
    async with engine.begin() as c:
        # two users as the old schema held them (points, title, counts), a table, a settled deal
        await c.execute(sa.text(
            "INSERT INTO users (id, name, name_key, password_hash, is_guest, points, title, games_played, "
            "landlord_wins, farmer_wins, created_at) VALUES "
            "(1, 'Alice', 'alice', 'h', false, 1006, '商人', 3, 1, 1, :now), "
            "(2, 'Ｂｏｂ', 'ｂｏｂ', 'h', false, 994, '掌柜', 3, 0, 1, :now), "
            "(3, 'guest-1234abcd', 'guest-1234abcd', NULL, true, 1000, '商人', 0, 0, 0, :now)"), {"now": now})
        await c.execute(sa.text(
            "INSERT INTO tables (id, game, room, options, private, invite_code, autoplay_bot, seat_bot, min_points, "
            "status, created_by, created_at) VALUES ('t1', 'doudizhu', 'classic-1', '{\"preset\": \"classic\"}', "
            "false, NULL, 'passive', 'heuristic', 0, 'closed', 1, :now)"), {"now": now})
        for deal, (lord, won) in enumerate([(1, True), (2, False), (1, False)], start=1):
            await c.execute(sa.text(
                "INSERT INTO deals (id, table_id, deal_index, game, options, seed, context, seats, status, started_at, "
                "finished_at, outcome, record) VALUES (:id, 't1', :i, 'doudizhu', '{}', 7, '{}', '[]', 'over', :now, "
                ":now, '{\"scores\": [2, -1, -1]}', '{}')"), {"id": deal, "i": deal - 1, "now": now})
            for seat, uid in ((0, 1), (1, 2)):
                role = "landlord" if uid == lord else "farmer"
                did_win = won if role == "landlord" else not won
                await c.execute(sa.text(
                    "INSERT INTO deal_players (deal_id, user_id, seat, role, won, delta, points_after, created_at) "
                    "VALUES (:d, :u, :s, :r, :w, 2, 1000, :now)"),
                    {"d": deal, "u": uid, "s": seat, "r": role, "w": did_win, "now": now})
    await engine.dispose()

    store = await Store.open(db.url, schema=db.schema)  # migrates to the newest revision
    try:
        alice = await store.standing(1, "doudizhu", 0)
        assert (alice.points, alice.games_played, alice.wins) == (1006, 3, 2)
        assert alice.roles == {"landlord": (2, 1), "farmer": (1, 1)}
        bob = await store.standing(2, "doudizhu", 0)
        assert (bob.points, bob.games_played, bob.wins) == (994, 3, 1)
        assert bob.roles == {"landlord": (1, 0), "farmer": (2, 1)}
        check = await store.ledger_check("doudizhu")
        assert check["points"] == check["ledger"] == 1006 + 994 + 1000
        assert check["reason:migration"] == 3000
        # names are keyed anew: the full-width Ｂｏｂ is the Bob nobody else may now take
        found = await store.login_info("BOB")
        assert found is not None and found[0].id == 2
        assert (await store.login_info("alice")) is not None
        hist = await store.history(1)
        assert [h["deal_id"] for h in hist] == [3, 2, 1] and hist[0]["role"] == "landlord"
        board = await store.leaderboard("doudizhu")
        assert [u.name for u, _ in board] == ["Alice", "Ｂｏｂ"]
    finally:
        await store.close()


async def test_0007_gives_match_tables_their_match_column(db: Database) -> None:
    """Tables made before 0007 name their match only in their tags: the migration copies it to the new column,
    and the match's deals are then listed by it (a table of no match stays without one)."""
    engine = make_engine(db.url, schema=db.schema)
    await upgrade(engine, "0006")
    now = datetime.now(UTC)
    async with engine.begin() as c:
        for tid, tags in (("m1", '{"match_id": "mabc", "table_key": "1.1.2"}'), ("q1", None)):
            await c.execute(sa.text(
                "INSERT INTO tables (id, game, room, options, private, invite_code, autoplay_bot, seat_bot, "
                "min_points, for_points, tags, status, created_at) VALUES (:id, 'doudizhu', NULL, '{}', false, NULL, "
                "'passive', 'heuristic', 0, true, :tags, 'closed', :now)"), {"id": tid, "tags": tags, "now": now})
            await c.execute(sa.text(
                "INSERT INTO deals (table_id, deal_index, game, options, seed, context, seats, status, started_at, "
                "finished_at, outcome, record) VALUES (:t, 0, 'doudizhu', '{}', 7, '{}', "
                "'[{\"user_id\": null, \"bot\": \"heuristic\", \"name\": \"bot\"}]', 'over', :now, :now, "
                "'{\"scores\": [2]}', '{}')"), {"t": tid, "now": now})
    await engine.dispose()

    store = await Store.open(db.url, schema=db.schema)
    try:
        listed = await store.match_deals("mabc")
        assert [(d["table_id"], d["table_key"], d["scores"]) for d in listed] == [("m1", "1.1.2", [2])]
        assert await store.match_deals("nosuch") == []
        async with store.engine.connect() as c:
            rows = dict((await c.execute(sa.text("SELECT id, match_id FROM tables"))).all())
        assert rows == {"m1": "mabc", "q1": None}
    finally:
        await store.close()


async def test_0013_keys_greek_capitals_by_the_latin_capitals_they_look_like(db: Database) -> None:
    """``ΝΙΚΕ263`` (Greek capitals) keyed as ``vike263`` beside ``NIKE263``: 0013 keys such names anew, so the
    look-alike is taken and the name still logs in; an account registered as a look-alike of an older one keeps
    its old key (the older keeps the name)."""
    from qipai.store.names import _CONFUSABLE

    def old_key(name: str) -> str:
        return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold().translate(_CONFUSABLE))

    engine = make_engine(db.url, schema=db.schema)
    await upgrade(engine, "0012")
    now = datetime.now(UTC)
    users = [(1, "NIKE263"), (2, "ΝΙΚΕ263"), (3, "ΜΑΡΙΑ"), (4, "Αλφα")]
    async with engine.begin() as c:
        for uid, name in users:
            await c.execute(sa.text(
                "INSERT INTO users (id, name, name_key, password_hash, is_guest, is_bot, created_at) "
                "VALUES (:id, :name, :key, 'h', false, false, :now)"),
                {"id": uid, "name": name, "key": old_key(name), "now": now})
    await engine.dispose()
    assert old_key("ΝΙΚΕ263") == "vike263" and old_key("ΜΑΡΙΑ") != "mapia"  # the keys 0013 mends

    store = await Store.open(db.url, schema=db.schema)  # migrates to the newest revision
    try:
        found = {name: await store.login_info(name) for _, name in users}
        assert found["NIKE263"] is not None and found["NIKE263"][0].id == 1
        assert found["ΝΙΚΕ263"] is not None and found["ΝΙΚΕ263"][0].id == 1  # the name is the older account's
        assert found["ΜΑΡΙΑ"] is not None and found["ΜΑΡΙΑ"][0].id == 3  # keyed anew, still found
        assert (await store.login_info("MAPIA")) is not None  # and its Latin look-alike is taken
        assert found["Αλφα"] is not None and found["Αλφα"][0].id == 4  # no capital drawn otherwise: unchanged
        async with store.sessions() as s:
            keys = dict((await s.execute(sa.text("SELECT id, name_key FROM users"))).all())
        assert keys[2] == "vike263" and keys[3] == "mapia", keys  # the look-alike kept its old key
    finally:
        await store.close()


async def test_0014_fills_the_last_log_in_from_the_sessions_there_are(db: Database) -> None:
    """``users.last_login_at`` starts as the newest live session's start (what ``users list`` showed before), or
    nothing for an account with none."""
    engine = make_engine(db.url, schema=db.schema)
    await upgrade(engine, "0013")
    early, late = datetime(2026, 12, 1, 8, tzinfo=UTC), datetime(2026, 12, 5, 20, tzinfo=UTC)
    async with engine.begin() as c:
        for uid, name in ((1, "alice"), (2, "bob")):
            await c.execute(sa.text(
                "INSERT INTO users (id, name, name_key, password_hash, is_guest, is_bot, created_at) "
                "VALUES (:id, :name, :name, 'h', false, false, :now)"), {"id": uid, "name": name, "now": early})
        for token, at in (("t1", early), ("t2", late)):
            await c.execute(sa.text(
                "INSERT INTO tokens (token_hash, user_id, created_at, expires_at) VALUES (:t, 1, :at, :exp)"),
                {"t": token, "at": at, "exp": datetime(2027, 1, 1, tzinfo=UTC)})
    await upgrade(engine, "0014")
    async with engine.connect() as c:
        got = dict((await c.execute(sa.text("SELECT id, last_login_at FROM users"))).all())
    await engine.dispose()
    first = got[1] if isinstance(got[1], datetime) else datetime.fromisoformat(str(got[1]))
    assert first.replace(tzinfo=UTC) == late and got[2] is None, got


async def test_nodes_started_together_on_a_new_database_migrate_it_once(pg_db: Database) -> None:
    """Several nodes started at once on a new PostgreSQL database (systemd, compose): each runs the migrations at
    start-up.  One makes the schema while the others wait for it and find it made (two racing to make
    ``alembic_version`` failed one of them with a unique violation, and that node did not start)."""
    from qipai.store.db import newest_revision

    engines = [make_engine(pg_db.url) for _ in range(3)]
    try:
        await asyncio.wait_for(asyncio.gather(*(upgrade(e) for e in engines)), 120)
        async with engines[0].connect() as c:
            assert (await c.execute(sa.text("SELECT version_num FROM alembic_version"))).scalars().all() \
                == [newest_revision()]
    finally:
        for e in engines:
            await e.dispose()
