"""周榜 / 月榜 in the browser: the leaderboard's period tabs (总榜 / 周榜 / 月榜) beside the game tabs, in the
address (``#/leaderboard/GAME/week``), each board's rows, the player's own place and its empty state worded in
Chinese and English, on a desktop and on a 360-px phone.  The server's week is Asia/Shanghai's and its clock is
fixed; the deals are settled, then dated, in the database."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from qipai.store import SettleRow, Store, TableInfo

from web_helpers import ThreadServer, lang_page, log_in, shot, sign_up, web_settings

NOW = datetime(2026, 12, 9, 12, 0, tzinfo=UTC)
"""A Wednesday: in Shanghai the week began on Monday 7 December (6 December, 16:00 UTC), the month on
1 December (30 November, 16:00 UTC)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    mp = pytest.MonkeyPatch()
    mp.setattr("qipai.server.api.leaderboard_now", lambda: NOW)
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('web-lb') / 'qipai.db'}"
    s = ThreadServer(web_settings(url, leaderboard_tz="Asia/Shanghai")).start()
    r = httpx.post(s.url + "/api/register", json={"name": "lin", "password": "secret-pw"})
    assert r.status_code == 201, r.text
    seed(url, r.json()["user"]["id"])
    yield s
    s.stop()
    mp.undo()


def seed(url: str, lin: int) -> None:
    """``lin`` (signed up) and wang play two deals: one on 1 December in Shanghai (the month's,
    not the week's: wang +50) and one on Monday 7 December at 00:30 there (the week's: lin +30)."""
    from sqlalchemy import update

    from qipai.store.models import Deal

    async def go() -> None:
        store = await Store.open(url, migrate=False)
        try:
            wang = await store.create_user("wang", "x")
            await store.create_table(TableInfo("T-lb", "doudizhu", None, {"preset": "classic"}, False, None,
                                               "passive", "heuristic", 0, lin), 3)
            for n, (when, a, b) in enumerate(((datetime(2026, 11, 30, 17, 0, tzinfo=UTC), -50, 50),
                                              (datetime(2026, 12, 6, 16, 30, tzinfo=UTC), 30, -30))):
                d = await store.start_deal("T-lb", n, "doudizhu", {"preset": "classic"}, n, {}, [])
                await store.settle(d, "doudizhu", {}, {}, [SettleRow(lin, 0, a, "landlord", a > 0),
                                                          SettleRow(wang.id, 1, b, "farmer", b > 0)])
                async with store.sessions.begin() as s:
                    await s.execute(update(Deal).where(Deal.id == d).values(finished_at=when))
        finally:
            await store.close()

    with ThreadPoolExecutor(1) as pool:  # (the page's own loop runs in this thread)
        pool.submit(asyncio.run, go()).result()


def rows(page: Page) -> list[list[str]]:
    return [r.locator("td").all_inner_texts() for r in page.locator("table.lb tbody tr").all()]


def fits(page: Page) -> None:
    wide = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], wide


def test_the_period_tabs_show_this_weeks_and_this_months_boards(browser: Browser, server: ThreadServer) -> None:
    page, errors = lang_page(browser, "zh")
    log_in(page, server.url, "lin")
    page.goto(server.url + "/#/leaderboard/doudizhu/week")
    periods = page.locator(".period-tabs .tab")
    expect(periods).to_have_text(["总榜", "周榜", "月榜"])
    expect(page.locator(".period-tabs .tab.on")).to_have_text("周榜")
    expect(page.locator('.game-tabs .tab[data-game="mahjong"]')).to_have_attribute("href", "#/leaderboard/mahjong/week")
    expect(page.locator("table.lb thead th")).to_have_text(["名次", "玩家", "头衔", "本周得分", "局数", "胜局"])
    expect(page.locator("table.lb tbody tr")).to_have_count(2)
    assert [[r[0], r[1], r[3], r[4], r[5]] for r in rows(page)] == [["1", "lin", "+30", "1", "1"],
                                                                   ["2", "wang", "-30", "1", "0"]], rows(page)
    expect(page.locator(".lb-me")).to_have_text("我的本周排名：第 1 名（本周 +30 分）")
    expect(page.locator(".lb-since")).to_have_text("本周得分：自 12月7日周一 0 点起（北京时间），救济和比赛奖金不计。")
    shot(page, "leaderboard-week-zh.png")
    # 月榜: the deal of 1 December counts too; the address says which board
    periods.nth(2).click()
    page.wait_for_function("() => location.hash === '#/leaderboard/doudizhu/month'")
    expect(page.locator(".period-tabs .tab.on")).to_have_text("月榜")
    expect(page.locator("table.lb tbody tr").first).to_contain_text("wang")
    assert [[r[0], r[1], r[3], r[4], r[5]] for r in rows(page)] == [["1", "wang", "+20", "2", "1"],
                                                                   ["2", "lin", "-20", "2", "1"]], rows(page)
    expect(page.locator(".lb-me")).to_have_text("我的本月排名：第 2 名（本月 -20 分）")
    # another game keeps the period: nobody has played mahjong this month
    page.locator('.game-tabs .tab[data-game="mahjong"]').click()
    page.wait_for_function("() => location.hash === '#/leaderboard/mahjong/month'")
    expect(page.locator(".lb-empty")).to_have_text("本月还没有人上榜。")
    expect(page.locator(".lb-me")).to_have_text("你本月还没有上榜：本月打一局就上榜。")
    page.goto(server.url + "/#/leaderboard/mahjong/week")
    expect(page.locator(".lb-empty")).to_have_text("本周还没有人上榜。")
    # 总榜: the all-time board, whose address has no period
    page.locator('.period-tabs .tab[data-period="all"]').click()
    page.wait_for_function("() => location.hash === '#/leaderboard/mahjong'")
    expect(page.locator(".lb-empty")).to_have_text("还没有人上榜。")
    page.goto(server.url + "/#/leaderboard/doudizhu")
    expect(page.locator(".period-tabs .tab.on")).to_have_text("总榜")
    expect(page.locator("table.lb thead th")).to_have_text(["名次", "玩家", "头衔", "积分", "局数"])
    page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_period_boards_fit_a_360_px_phone(browser: Browser, server: ThreadServer, lang: str) -> None:
    page, errors = lang_page(browser, lang, phone=True, viewport={"width": 360, "height": 740})
    sign_up(page, server.url, f"phone-{lang}")
    words = {"zh": (["总榜", "周榜", "月榜"], "本周还没有人上榜。", "你本周还没有上榜：本周打一局就上榜。"),
             "en": (["All time", "This week", "This month"], "Nobody is on this week's board yet.",
                    "You are not on this week's board yet: play a deal this week to be.")}[lang]
    page.goto(server.url + "/#/leaderboard/doudizhu/week")
    expect(page.locator(".period-tabs .tab")).to_have_text(words[0])
    expect(page.locator("table.lb tbody tr")).to_have_count(2)  # lin and wang
    expect(page.locator(".lb-me")).to_have_text(words[2])
    expect(page.locator(".period-tabs")).to_be_in_viewport()
    fits(page)
    shot(page, f"leaderboard-week-phone-{lang}.png")
    page.goto(server.url + "/#/leaderboard/shengji/week")
    expect(page.locator(".lb-empty")).to_have_text(words[1])
    fits(page)
    shot(page, f"leaderboard-week-empty-phone-{lang}.png")
    page.context.close()
    assert not errors, errors
