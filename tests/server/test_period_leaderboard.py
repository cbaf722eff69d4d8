"""周榜 / 月榜: ``GET /api/leaderboard?period=week|month`` ranks the registered players by the points the deals
settled in the current ISO week (from Monday 00:00) or calendar month won them, midnights in
``--leaderboard-tz``; relief and match money do not count; guests, bots and blocked accounts are left out; ties
share a rank; ``me`` and paging as on the all-time board.  Deals are settled at chosen times (the store's clock is
moved), on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from qipai.host.periods import period_bounds, zone
from qipai.store import SettleRow, Store, TableInfo

from server_helpers import Client, StartServer

NOW = datetime(2026, 12, 9, 12, 0, tzinfo=UTC)
"""A Wednesday.  Asia/Shanghai (UTC+8): its week began on 2026-12-06 16:00 UTC, its month on 2026-11-30 16:00
UTC; in UTC the week began on 2026-12-07 00:00 and the month on 2026-12-01 00:00."""


class Deals:
    """Settles deals of Dou Dizhu at one table at the times given."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.store, self.monkeypatch, self.n = store, monkeypatch, 0

    async def at(self, when: datetime, seats: list[tuple[int, int, bool]]) -> None:
        """One deal settled at ``when``: each seat ``(user_id, delta, won)``."""
        self.monkeypatch.setattr("qipai.store.repo.utcnow", lambda: when)
        if self.n == 0:
            await self.store.create_table(TableInfo("T-lb", "doudizhu", None, {"preset": "classic"}, False, None,
                                                    "passive", "random", 0, None), 3)
        d = await self.store.start_deal("T-lb", self.n, "doudizhu", {"preset": "classic"}, self.n, {}, [])
        await self.store.settle(d, "doudizhu", {}, {}, [SettleRow(uid, i, delta, "farmer", won)
                                                         for i, (uid, delta, won) in enumerate(seats)])
        self.n += 1

    def grant_at(self, when: datetime) -> None:
        self.monkeypatch.setattr("qipai.store.repo.utcnow", lambda: when)


def board(data: dict[str, Any]) -> list[tuple[int, str, int, int, int]]:
    return [(u["rank"], u["name"], u["points"], u["games_played"], u["wins"]) for u in data["users"]]


async def test_week_and_month_boards_count_the_deals_of_the_period_in_the_operators_time_zone(
        start_server: StartServer, monkeypatch: pytest.MonkeyPatch) -> None:
    server = await start_server(leaderboard_tz="Asia/Shanghai")
    store = server.lobby.store
    ann, bob = await Client.register(server, "ann"), await Client.register(server, "bob")
    cy = await store.create_user("cy", "x")
    dee = await store.create_user("dee", "x")
    eve = await store.create_user("eve", "x")
    guest = await Client.guest(server)
    bot = await store.bot_account("heuristic")
    a, b, g = ann.user["id"], bob.user["id"], guest.user["id"]
    deals = Deals(store, monkeypatch)
    # November in both zones (Shanghai's December begins an hour later)
    await deals.at(datetime(2026, 11, 30, 15, 0, tzinfo=UTC), [(a, 500, True), (b, -500, False)])
    # 1 December 01:00 in Shanghai, still 30 November in UTC
    await deals.at(datetime(2026, 11, 30, 17, 0, tzinfo=UTC), [(b, 40, True), (a, -40, False)])
    # Sunday 23:59:59 in Shanghai: last week there
    await deals.at(datetime(2026, 12, 6, 15, 59, 59, tzinfo=UTC), [(cy.id, 30, True), (a, -30, False)])
    # Monday 00:00:00 in Shanghai: this week there (still Sunday in UTC); a guest and a bot at the table
    await deals.at(datetime(2026, 12, 6, 16, 0, tzinfo=UTC), [(a, 20, True), (b, -10, False), (g, -10, False)])
    await deals.at(datetime(2026, 12, 8, 9, 0, tzinfo=UTC), [(cy.id, 20, True), (dee.id, -20, False),
                                                              (bot.id, 900, True)])
    await deals.at(datetime(2026, 12, 8, 10, 0, tzinfo=UTC), [(eve.id, 0, False)])  # a table for no points
    # relief and match money this week are no deal results: they change the points, not the boards
    deals.grant_at(datetime(2026, 12, 8, 11, 0, tzinfo=UTC))
    await store.grant(b, "doudizhu", 700, "relief")
    await store.grant(a, "doudizhu", 3000, "prize", ref="m1")
    await store.grant(a, "doudizhu", -5, "fee", ref="m2")
    # next week (Shanghai), still December: on the month's board, not the week's
    await deals.at(datetime(2026, 12, 13, 16, 0, tzinfo=UTC), [(b, 99, True), (a, -99, False)])
    monkeypatch.setattr("qipai.server.api.leaderboard_now", lambda: NOW)
    who = {"Authorization": f"Bearer {bob.token}"}
    async with httpx.AsyncClient(base_url=server.http, headers=who) as h:
        week = (await h.get("/api/leaderboard", params={"game": "doudizhu", "period": "week"})).json()
        assert board(week) == [(1, "ann", 20, 1, 1), (1, "cy", 20, 1, 1), (3, "eve", 0, 1, 0), (4, "bob", -10, 1, 0),
                               (5, "dee", -20, 1, 0)], week
        assert (week["period"], week["tz"], week["since"], week["until"]) == (
            "week", "Asia/Shanghai", "2026-12-06T16:00:00+00:00", "2026-12-13T16:00:00+00:00")
        assert week["me"]["name"] == "bob" and week["me"]["rank"] == 4 and week["me"]["points"] == -10, week
        ann_total = (await h.get("/api/players/ann")).json()["games"]["doudizhu"]
        assert week["users"][0]["title"] == ann_total["title"]  # the title of his points now
        month = (await h.get("/api/leaderboard", params={"game": "doudizhu", "period": "month"})).json()
        assert board(month) == [(1, "bob", 129, 3, 2), (2, "cy", 50, 2, 2), (3, "eve", 0, 1, 0), (4, "dee", -20, 1, 0),
                                (5, "ann", -149, 4, 1)], month
        assert month["since"] == "2026-11-30T16:00:00+00:00" and month["me"]["rank"] == 1
        page = (await h.get("/api/leaderboard", params={"game": "doudizhu", "period": "week", "limit": 2,
                                                        "offset": 1})).json()
        assert board(page) == [(1, "cy", 20, 1, 1), (3, "eve", 0, 1, 0)] and page["me"]["rank"] == 4, page
        await store.block_user(dee.id, "cheating")  # the operator's block leaves every board
        week = (await h.get("/api/leaderboard", params={"game": "doudizhu", "period": "week"})).json()
        assert [u["name"] for u in week["users"]] == ["ann", "cy", "eve", "bob"], week
        # the same deals in UTC: Monday 00:00 Shanghai was still last week, 1 December 01:00 Shanghai November,
        # and next Monday 00:00 Shanghai is this Sunday
        server.lobby.settings.leaderboard_tz = "UTC"
        week = (await h.get("/api/leaderboard", params={"game": "doudizhu", "period": "week"})).json()
        assert board(week) == [(1, "bob", 99, 1, 1), (2, "cy", 20, 1, 1), (3, "eve", 0, 1, 0),
                               (4, "ann", -99, 1, 0)] and week["me"]["rank"] == 1, week
        assert week["since"] == "2026-12-07T00:00:00+00:00" and week["tz"] == "UTC"
        month = (await h.get("/api/leaderboard", params={"game": "doudizhu", "period": "month"})).json()
        assert board(month) == [(1, "bob", 89, 2, 1), (2, "cy", 50, 2, 2), (3, "eve", 0, 1, 0),
                                (4, "ann", -109, 3, 1)], month
        # the all-time board is the points now, relief and prizes included
        alltime = (await h.get("/api/leaderboard", params={"game": "doudizhu"})).json()
        assert alltime["period"] == "all" and alltime["me"]["points"] == -500 + 40 - 10 + 700 + 99, alltime
        assert (await h.get("/api/leaderboard", params={"game": "mahjong", "period": "week"})).json()["users"] == []
        r = await h.get("/api/leaderboard", params={"game": "doudizhu", "period": "year"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_param", r.text
        assert r.json()["error"]["params"]["param"] == "period"


async def test_the_period_board_is_one_query_served_by_the_deals_index(start_server: StartServer) -> None:
    """The board adds up one game's deals of the period through ``ix_deals_game_finished`` (not every deal)."""
    server = await start_server()
    store = server.lobby.store
    since, until = period_bounds("week", zone("UTC"), NOW)
    q = Store.period_query("doudizhu", since, until, 50, 0)
    async with store.engine.connect() as c:
        sql = str(q.compile(c.engine, compile_kwargs={"literal_binds": True}))
        if c.dialect.name == "sqlite":
            plan = " ".join(str(r[-1]) for r in (await c.execute(sa.text("EXPLAIN QUERY PLAN " + sql))).all())
        else:
            await c.execute(sa.text("SET enable_seqscan = off"))
            plan = " ".join(r[0] for r in (await c.execute(sa.text("EXPLAIN " + sql))).all())
    assert "ix_deals_game_finished" in plan, plan


def test_period_bounds_in_a_zone_with_summer_time() -> None:
    """A week begins at local midnight on Monday, whatever the offset that day (New York: UTC-4 in summer,
    UTC-5 from 1 November 2026)."""
    ny = zone("America/New_York")
    since, until = period_bounds("week", ny, datetime(2026, 11, 4, 12, 0, tzinfo=UTC))
    assert (since, until) == (datetime(2026, 11, 2, 5, 0, tzinfo=UTC), datetime(2026, 11, 9, 5, 0, tzinfo=UTC))
    since, until = period_bounds("month", ny, datetime(2026, 11, 1, 3, 0, tzinfo=UTC))  # 31 October, 23:00 there
    assert (since, until) == (datetime(2026, 10, 1, 4, 0, tzinfo=UTC), datetime(2026, 11, 1, 4, 0, tzinfo=UTC))
    with pytest.raises(ValueError, match="Mars/Olympus"):
        zone("Mars/Olympus")
