"""A private table for a set number of deals (好友房局数) in the browser: 局数 in the create form, 第 1/2 局 in the
table's top bar, and the final summary (大结算) over the lobby when the last deal is settled — ranked, the winner
marked, one's own row, the same totals as the server's — in Chinese and English, on a 360-px phone and a desktop,
with 返回大厅."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from web_helpers import ThreadServer, as_guest, lang_page, shot, table, web_settings


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("web-series") / "qipai.db"
    s = ThreadServer(web_settings(f"sqlite+aiosqlite:///{db}", bot_delay=0.02, autoplay_delay=0.02,
                                  bot_fill_wait=0.1, next_deal_delay=0.3)).start()
    yield s
    s.stop()


def _autoplay_deal(page: Page) -> None:
    """Let the server play the player's seat (托管) until the deal is over."""
    auto = page.locator('.tablev.live [data-action="autoplay"]')
    expect(auto).to_be_visible(timeout=20_000)
    expect(table(page)).to_have_attribute("data-autoplay", "0")
    auto.click()


def test_a_two_deal_table_shows_its_progress_and_final_summary(browser: Browser, server: ThreadServer) -> None:
    page, errors = lang_page(browser, "zh", viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    as_guest(page, server.url)
    form = page.locator(".private-panel")
    deals = form.locator('select[name="deals"]')
    assert deals.locator("option").all_inner_texts() == ["不限", "4 局", "8 局", "16 局"]
    # the form sends the count: a 4-deal table says 第 1/4 局
    deals.select_option("4")  # (no bots: the table waits for friends, and is left at once)
    form.locator('[data-action="create"]').click()
    expect(table(page)).to_be_visible(timeout=15_000)  # (a cold server: the first table takes a while)
    expect(page.locator(".tinfo .deals-of")).to_have_text("第 1/4 局")
    assert page.evaluate("() => window.qipai.store.table.deals_total") == 4
    page.locator('.tablev.live [data-action="leave"]').click()
    expect(page.locator("section.lobby")).to_be_visible()
    # an open-ended table says nothing of deals
    form.locator('[data-action="create"]').click()
    expect(table(page)).to_be_visible(timeout=15_000)  # (a cold server: the first table takes a while)
    expect(page.locator(".tablev.live .tmenu")).to_be_visible()
    expect(page.locator(".tinfo .deals-of")).to_have_count(0)
    page.locator('.tablev.live [data-action="leave"]').click()
    expect(page.locator("section.lobby")).to_be_visible()
    # two deals (made through the API: the form offers 4, 8 and 16), bots in the other seats
    made = page.evaluate("""async () => (await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({room: 'classic-1', deals: 2, fill_bots_after: 0})})).json()""")
    table_id = made["table"]
    expect(table(page)).to_be_visible(timeout=15_000)  # (a cold server: the first table takes a while)
    expect(page.locator(".tinfo .deals-of")).to_have_text("第 1/2 局")
    _autoplay_deal(page)
    # deal 1 settled: its settlement with 准备, the bar still on deal 1 until deal 2 of 2 starts
    ready = page.locator('#settlement [data-action="ready"]')
    expect(ready).to_be_visible(timeout=60_000)
    expect(page.locator(".tinfo .deals-of")).to_have_text("第 1/2 局")
    shot(page, "series-deal1-zh-phone.png")
    ready.click()
    expect(page.locator(".tinfo .deals-of")).to_have_text("第 2/2 局", timeout=20_000)
    _autoplay_deal(page)
    # deal 2 settled: the table closes, the lobby and the final summary over it
    dlg = page.locator("#final-summary")
    expect(dlg).to_be_visible(timeout=60_000)
    expect(page.locator("section.lobby")).to_be_visible()
    expect(dlg.locator(".dialog-head h2")).to_have_text("大结算")
    expect(dlg.locator(".final-played")).to_have_text("2 局打完")
    server_summary = page.evaluate(f"async () => (await fetch('/api/tables/{table_id}/summary')).json()")
    assert server_summary["finished"] and server_summary["summary"]["deals_played"] == 2
    want = server_summary["summary"]["players"]
    rows = dlg.locator("tbody tr")
    expect(rows).to_have_count(3)
    got = [(int(rows.nth(i).get_attribute("data-seat") or -1), int(rows.nth(i).get_attribute("data-total") or 0))
           for i in range(3)]
    assert got == [(p["seat"], p["total"]) for p in want]
    assert [x[1] for x in got] == sorted((x[1] for x in got), reverse=True)
    assert sum(x[1] for x in got) == 0  # Dou Dizhu's scores add up to nothing
    expect(dlg.locator("tr.me")).to_have_count(1)
    expect(dlg.locator("tr.me .badge.you")).to_have_text("你")
    winners = server_summary["summary"]["winners"]
    expect(dlg.locator("tr.winner")).to_have_count(len(winners))
    if winners:
        expect(dlg.locator("tr.winner").first.locator(".badge.win")).to_contain_text("赢家")
        expect(dlg.locator("tr.winner").first).to_have_attribute("data-rank", "1")
    # fits the phone: no sideways scroll inside the dialog
    assert page.evaluate("() => { const d = document.querySelector('#final-summary');"
                         " return d.scrollWidth <= d.clientWidth + 1 && d.getBoundingClientRect().right <= 361; }")
    shot(page, "series-final-zh-phone.png")
    page.set_viewport_size({"width": 1280, "height": 800})
    shot(page, "series-final-zh.png")
    dlg.locator('[data-action="back-to-lobby"]').click()
    expect(dlg).to_have_count(0)
    expect(page.locator("section.lobby")).to_be_visible()
    expect(page.locator('[data-action="back-to-table"]')).to_have_count(0)  # the seat is free
    assert errors == []


def test_the_final_summary_in_english(browser: Browser, server: ThreadServer) -> None:
    page, errors = lang_page(browser, "en")
    as_guest(page, server.url)
    assert page.locator('.private-panel select[name="deals"] option').all_inner_texts() == [
        "open", "4 deals", "8 deals", "16 deals"]
    page.evaluate("""async () => (await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({room: 'classic-1', deals: 1, fill_bots_after: 0})})).json()""")
    expect(table(page)).to_be_visible(timeout=15_000)  # (a cold server: the first table takes a while)
    expect(page.locator(".tinfo .deals-of")).to_have_text("Deal 1/1")
    _autoplay_deal(page)
    dlg = page.locator("#final-summary")
    expect(dlg).to_be_visible(timeout=60_000)
    expect(dlg.locator(".dialog-head h2")).to_have_text("Final results")
    expect(dlg.locator(".final-played")).to_have_text("1 deal played")
    expect(dlg.locator("thead th")).to_have_text(["#", "Player", "Total", "Won", "Last"])
    expect(dlg.locator("tr.me .badge.you")).to_have_text("you")
    back = dlg.locator('[data-action="back-to-lobby"]')
    expect(back).to_have_text("Back to the lobby")
    shot(page, "series-final-en.png")
    back.click()
    expect(dlg).to_have_count(0)
    expect(page.locator("section.lobby")).to_be_visible()
    assert errors == []


def test_back_online_after_the_end_the_summary_is_shown(browser: Browser, server: ThreadServer) -> None:
    """A player whose connection was away when the table's last deal ended: back online, the server no longer
    seats him, and the page reads the table's summary (GET /api/tables/ID/summary) and shows it over the lobby."""
    page, errors = lang_page(browser, "zh")
    as_guest(page, server.url)
    made = page.evaluate("""async () => (await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({room: 'classic-1', deals: 1, fill_bots_after: 0})})).json()""")
    expect(table(page)).to_be_visible(timeout=15_000)  # (a cold server: the first table takes a while)
    _autoplay_deal(page)
    expect(table(page)).to_have_attribute("data-autoplay", "1")
    page.evaluate("() => window.qipai.conn.stop()")
    summary_url = f"/api/tables/{made['table']}/summary"
    for _ in range(300):
        if page.evaluate(f"async () => (await fetch('{summary_url}')).json()").get("finished"):
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError("the table's deal did not end")
    expect(page.locator("#final-summary")).to_have_count(0)
    page.evaluate("() => window.qipai.conn.start()")
    dlg = page.locator("#final-summary")
    expect(dlg).to_be_visible(timeout=10_000)
    expect(page.locator("section.lobby")).to_be_visible()
    expect(dlg.locator(".final-played")).to_have_text("1 局打完")
    expect(dlg.locator("tbody tr")).to_have_count(3)
    expect(dlg.locator("tr.me")).to_have_count(1)
    dlg.locator('[data-action="back-to-lobby"]').click()
    expect(dlg).to_have_count(0)
    assert errors == []
