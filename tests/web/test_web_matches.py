"""The match lobby in a real browser (Chromium, headless) against a real server: list the matches, register,
withdraw and register again, be seated at the match table when it fills, and read the final standings with
one's place and prize — in Chinese, with the English words a switch away."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import APIResponse, Browser, Locator, Page, Route, expect

from web_helpers import FakeTable, ThreadServer, as_guest, lang_page, shot, sign_up, web_settings

ADMIN = "web-match-admin"
POOL = {"name": "sng", "preset": "sit_and_go_9", "entry": {"fee": 100, "start_delay_s": 0}, "round_gap_s": 1,
        "stages": [{"rounds": [{"deals": 1, "advance": 3}, {"deals": 1}]}]}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    s = ThreadServer(web_settings(f"sqlite+aiosqlite:///{tmp_path / 'qipai.db'}", matches=json.dumps([POOL]),
                                  admin_token=ADMIN, time_scale=0.05, bot_delay=0.0, autoplay_delay=0.0,
                                  next_deal_delay=0.2, ready_timeout=0.3, forced_delay=0.1)).start()
    yield s
    s.stop()


def new_page(browser: Browser) -> tuple[Page, list[str]]:
    return lang_page(browser, "zh", allowed=(401,), locale="zh-CN")


def wait_finished(server: ThreadServer, mid: str, timeout: float = 120.0) -> None:
    """Poll the match until it is finished (from here: Playwright's ``wait_for_function`` takes a promise the
    function returns for a truthy answer, so a ``fetch`` there never waits)."""
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if httpx.get(f"{server.url}/api/matches/{mid}").json()["phase"] == "finished":
            return
        time.sleep(0.5)
    raise AssertionError(f"match {mid} did not finish in {timeout:g} s")


def create_match(server: ThreadServer, definition: dict[str, object], **extra: object) -> str:
    """The operator creates a match (``start_at`` and the like in ``extra``); its id."""
    r = httpx.post(f"{server.url}/api/admin/matches", json={"definition": definition, **extra},
                   headers={"X-Admin-Token": ADMIN})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def add_bots(server: ThreadServer, mid: str, n: int) -> None:
    """The operator adds ``n`` bot entrants to match ``mid``."""
    r = httpx.post(f"{server.url}/api/admin/matches/{mid}/bots", json={"count": n}, headers={"X-Admin-Token": ADMIN})
    assert r.status_code == 200, r.text


def open_card(page: Page, server: ThreadServer, mid: str) -> Locator:
    """Go to the match's card; the card."""
    page.goto(f"{server.url}/#/matches/{mid}")
    return page.locator(f'section.match[data-match="{mid}"]')


def enter_with_bots(page: Page, server: ThreadServer, mid: str, bots: int) -> Locator:
    """The page's player registers on the match's card, the operator adds ``bots`` bot entrants (the match fills
    and starts) and the player's table comes up; the table."""
    card = open_card(page, server, mid)
    card.locator('[data-action="register"]').click()
    expect(card.locator("tr.me")).to_have_count(1)
    add_bots(server, mid, bots)
    live = page.locator(".tablev.live")
    expect(live).to_be_visible(timeout=20_000)
    return live


def points(page: Page, game: str = "doudizhu") -> int:
    me = page.evaluate("() => fetch('/api/me').then(r => r.json())")
    return int(me["games"][game]["points"])


def test_register_withdraw_play_a_match_and_read_the_final_standings(browser: Browser, server: ThreadServer) -> None:
    page, errors = new_page(browser)
    sign_up(page, server.url, "mallory")
    page.locator('[data-nav="matches"]').click()
    open_panel = page.locator('.panel[data-status="open"]')
    row = open_panel.locator("tr[data-match]")
    expect(row).to_have_count(1)
    mid = row.get_attribute("data-match")
    assert mid
    expect(row.locator("td.entrants")).to_have_text("0 / 9")
    expect(row.locator("td.game")).to_have_text("斗地主")  # the game in words, not its code
    row.locator('[data-action="register"]').click()
    expect(row.locator('[data-action="withdraw"]')).to_be_visible()
    expect(row.locator("td.entrants")).to_have_text("1 / 9")
    assert points(page) == 900
    expect(page.locator("#userbox .upts")).to_have_text("900")  # the header follows the fee
    row.locator('[data-action="withdraw"]').click()
    expect(row.locator('[data-action="register"]')).to_be_visible()
    expect(row.locator("td.entrants")).to_have_text("0 / 9")
    assert points(page) == 1000
    expect(page.locator("#userbox .upts")).to_have_text("1000")
    # the match card with its standings, then register from it
    row.locator("a").click()
    card = page.locator(f'section.match[data-match="{mid}"]')
    expect(card.locator(".match-phase")).to_have_text("报名中")
    card.locator('[data-action="register"]').click()
    expect(card.locator("tr.me")).to_have_count(1)
    fan, fan_errors = new_page(browser)
    sign_up(fan, server.url, "fan")
    fan.goto(f"{server.url}/#/matches/{mid}")
    expect(fan.locator("section.match tr.me")).to_have_count(0)
    # the operator fills it with bots: it starts and the browser is seated like a quick match
    add_bots(server, mid, 8)
    expect(page.locator(".tablev.live")).to_be_visible(timeout=20_000)
    page.evaluate("() => { window.hashes = []; addEventListener('hashchange', () => hashes.push(location.hash)); }")
    # somebody else watches a match table from the standings
    watch = fan.locator('section.match [data-action="watch"]').first
    watched = watch.get_attribute("data-table")
    watch.click()
    # the table view, or — when its round ended meanwhile — the notice its spectators get when it closes (or,
    # closed before the request came, that it is gone)
    expect(fan.locator(".tablev.live, #toasts .toast[data-key='left'], #toasts .toast[data-key='err-unknown_table']")
           .first).to_be_visible()
    me = fan.evaluate("() => fetch('/api/me').then(r => r.json())")
    assert watched and me["table"] is None  # watching, not seated
    assert not fan_errors, fan_errors
    # our seat times out (auto-play after that); the match plays to its end (if we reach the final table the
    # browser is seated there again); then read the final standings
    wait_finished(server, mid)
    expect(page.locator('#toasts .toast[data-key="match"]')).to_contain_text("比赛结束")
    # when the round's table closed, the page went to the match card (the standings, the wait) meanwhile
    assert f"#/matches/{mid}" in page.evaluate("() => window.hashes"), page.evaluate("() => window.hashes")
    card = open_card(page, server, mid)
    expect(card.locator('.match-phase[data-phase="finished"]')).to_have_text("比赛结束")
    rows = card.locator("table.standings tbody tr")
    expect(rows).to_have_count(9)
    me = card.locator("tr.me")
    expect(me).to_have_count(1)
    place = int(me.get_attribute("data-place") or 0)
    assert 1 <= place <= 9
    # the only human takes the whole pool (1 paying × 100 × 90 %) whatever its place; bots take none
    expect(me.locator("td.prize")).to_have_text("90")
    assert points(page) == 900 + 90
    expect(page.locator("#userbox .upts")).to_have_text("990")  # the prize shows in the header, no reload
    # the bots are told apart: 电脑1 … 电脑8, each its own number
    bots = card.locator("table.standings tbody tr:not(.me) td.name").all_inner_texts()
    assert sorted(bots) == sorted(f"电脑{i}" for i in range(1, 9)), bots
    # the card lists the deals we played there, each with its table and our score; one opens as a replay
    uid = page.evaluate("() => window.qipai.store.user.id")
    ours = httpx.get(f"{server.url}/api/matches/{mid}/deals").json()["deals"]
    ours = [d for d in ours if uid in d["users"]]
    mine_deals = card.locator('.match-deals[data-mine="1"] tbody tr')
    expect(mine_deals).to_have_count(len(ours))
    shot(page, "match-card-finished.png")
    first = mine_deals.first
    assert first.get_attribute("data-deal") == str(ours[0]["deal_id"])
    expect(first).to_contain_text("第 1 阶段")
    score = ours[0]["scores"][ours[0]["users"].index(uid)]
    expect(first.locator("td.delta")).to_have_text(f"{score:+d}" if score else "0")
    first.locator('[data-action="replay"]').click()
    expect(page.locator(".replay-table")).to_be_visible()
    assert page.evaluate("() => location.hash") == f"#/replay/{ours[0]['deal_id']}"
    expect(page.locator('[data-action="review"]')).to_have_count(1)  # our own deal: its review is ours to ask
    card = open_card(page, server, mid)
    page.locator("#langbtn").click()
    expect(card.locator(".match-phase")).to_have_text("Finished")
    # the profile lists the match with the place and the prize
    page.goto(f"{server.url}/#/profile")
    mine = page.locator(f'.my-matches tr[data-match="{mid}"]')
    expect(mine.locator("td.place")).to_have_text(str(place))
    expect(mine.locator("td.prize")).to_have_text("90")
    # the result column says one's own result — the place and the prize won — not that the match is over
    expect(page.locator(".my-matches thead th").nth(1)).to_have_text("Result")
    expect(mine.locator("td.state")).to_have_text(f"Place {place} · prize 90")
    page.locator("#langbtn").click()
    expect(mine.locator("td.state")).to_have_text(f"第 {place} 名 · 奖励 90")
    assert not errors, errors


def test_a_register_pressed_as_the_list_is_read_again_still_counts(browser: Browser, server: ThreadServer) -> None:
    """The list is read again every 3 s and drawn again (morphed in): 报名 stays the same button, so a press
    before a drawing and the release after it registers (it was lost: the press's button was gone)."""
    page, errors = new_page(browser)
    sign_up(page, server.url, "mallory")
    page.locator('[data-nav="matches"]').click()
    row = page.locator('.panel[data-status="open"] tr[data-match]')
    expect(row).to_have_count(1)
    btn = row.locator('[data-action="register"]')
    btn.evaluate("b => { b.__same = true; }")
    btn.hover()
    page.mouse.down()
    with page.expect_response(lambda r: r.url.endswith("/api/matches"), timeout=6000):
        pass  # the next reading, while the button is held
    page.wait_for_timeout(300)
    assert btn.evaluate("b => !!b.__same"), "the list's 报名 was drawn anew"
    page.mouse.up()
    expect(row.locator('[data-action="withdraw"]')).to_be_visible()
    expect(row.locator("td.entrants")).to_have_text("1 / 9")
    assert not errors, errors
    page.context.close()


def test_a_scheduled_match_counts_down_to_its_start_and_shows_the_elimination_line(browser: Browser,
                                                                                   server: ThreadServer) -> None:
    """The card of a scheduled 打立出局 match: a countdown to the start that ticks every second, then — once it
    runs — the stage in words: its format, the level and base, the elimination line and how many are left."""
    import time

    definition = {"name": "dali", "game": "ddz3", "round_gap_s": 1, "stage_gap_s": 1,
                  "entry": {"start": "at_time", "min_entrants": 9, "max_entrants": 12, "fee": 0},
                  "stages": [{"format": "dali", "advance": 6, "level_step": {"deals": 8}},
                             {"format": "fixed", "rounds": [{"deals": 1}]}]}
    start_at = int(time.time()) + 8
    mid = create_match(server, definition, start_at=start_at)
    page, errors = new_page(browser)
    sign_up(page, server.url, "watcher")
    card = open_card(page, server, mid)
    clock = card.locator(".match-countdown")
    expect(clock).to_contain_text("距开赛 00:0")
    first = clock.text_content()
    expect(clock).not_to_have_text(first or "")  # it ticks
    # the socket drops and comes back (a network blip): the card keeps following the match
    opens = page.evaluate("() => window.qipai.conn.opens")
    page.evaluate("() => window.qipai.conn.reconnectNow()")
    page.wait_for_function(f"() => window.qipai.conn.opens > {opens} && window.qipai.conn.status === 'open'")
    add_bots(server, mid, 12)
    stage = card.locator('.match-stage[data-format="dali"]')
    expect(stage).to_be_visible(timeout=20_000)
    expect(stage).to_contain_text("第 1/2 阶段 打立出局")
    expect(stage).to_contain_text("淘汰线")
    expect(stage).to_contain_text("6 人晋级")
    wait_finished(server, mid)
    expect(card.locator('.match-phase[data-phase="finished"]')).to_be_visible()
    expect(card.locator(".match-stage")).to_have_count(0)
    # a watcher, not a player: the card lists the match's deals (newest first, 20 a page) and replays any of
    # them as a spectator (no review: that is a player's own)
    every = httpx.get(f"{server.url}/api/matches/{mid}/deals?limit=200").json()["deals"]
    assert len(every) >= 6  # four 打立 tables of three, then the final table
    listed = card.locator('.match-deals[data-mine="0"] tbody tr')
    expect(listed).to_have_count(min(20, len(every)))
    more = card.locator('[data-action="more-deals"]')
    if len(every) > 20:
        more.click()
        expect(listed).to_have_count(min(40, len(every)))
    else:
        expect(more).to_be_hidden()
    shown = listed.evaluate_all("rs => rs.map(r => Number(r.dataset.deal))")
    assert shown == [d["deal_id"] for d in every[:len(shown)]]
    expect(listed.first).to_contain_text("号桌")
    shot(page, "match-card-deals-watcher.png")
    # on a phone the list wraps: every replay button is inside the window
    page.set_viewport_size({"width": 390, "height": 844})
    boxes = listed.locator('[data-action="replay"]').evaluate_all(
        "bs => bs.map(b => { const r = b.getBoundingClientRect(); return [r.left, r.right]; })")
    shot(page, "match-card-deals-phone.png")
    assert all(left >= 0 and right <= 391 for left, right in boxes), boxes
    page.set_viewport_size({"width": 1280, "height": 800})
    listed.first.locator('[data-action="replay"]').click()
    expect(page.locator(".replay-table")).to_be_visible()
    page.locator('.replay-controls [data-action="last"]').click()
    expect(page.locator(".replay-table .tablev")).to_be_visible()
    expect(page.locator('[data-action="review"]')).to_have_count(0)
    assert not errors, errors


def test_the_card_read_after_a_push_wins_over_that_push(browser: Browser, server: ThreadServer) -> None:
    """A push of another phase makes the card read the match again; what it reads is newer than the push and
    is what it shows (an old push once hid the tables to watch until the next deal was counted)."""
    definition = {"name": "later", "game": "ddz3", "entry": {"start": "when_full", "max_entrants": 9, "fee": 0},
                  "stages": [{"format": "fixed", "rounds": [{"deals": 1}]}]}
    mid = create_match(server, definition)
    page, errors = new_page(browser)
    sign_up(page, server.url, "reader")
    card = open_card(page, server, mid)
    expect(card.locator(".match-phase")).to_have_attribute("data-phase", "registration")
    reads = page.evaluate("() => performance.getEntriesByType('resource').filter(e => e.name.endsWith("
                          f"'/api/matches/{mid}')).length")
    # a push from a moment the match has left (as if it came just before the card was read again)
    page.evaluate("""m => window.qipai.conn.emit({type: 'match_standings', match: m, phase: 'starting', stage: null,
                        round: null, standings: [], next_at: null, next_kind: null, prizes: null, stage_info: null})""",
                  mid)
    page.wait_for_function(f"() => performance.getEntriesByType('resource').filter(e => e.name.endsWith("
                           f"'/api/matches/{mid}')).length > {reads}")
    expect(card.locator(".match-phase")).to_have_attribute("data-phase", "registration")
    assert not errors, errors


def test_the_match_list_fits_a_phone(browser: Browser, server: ThreadServer) -> None:
    """On a 390 px phone every match of the list shows whole: its register button is inside the window and
    works (a table of six unwrapped cells once pushed it off the screen, the page not scrolling)."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN", is_mobile=True, has_touch=True)
    ctx.add_init_script("localStorage.setItem('qipai.lang', 'zh')")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    sign_up(page, server.url, "phone-user")
    create_match(server, {"name": "周末斗地主大奖赛（长长的比赛名字也要折行）", "game": "ddz3",
                          "entry": {"start": "when_full", "max_entrants": 300, "fee": 20},
                          "stages": [{"format": "fixed", "rounds": [{"deals": 1}]}]})
    page.goto(f"{server.url}/#/matches")
    rows = page.locator('.panel[data-status="open"] tr[data-match]')
    expect(rows).to_have_count(2)
    shot(page, "matches-phone.png")
    for i in range(rows.count()):
        btn = rows.nth(i).locator('[data-action="register"]')
        expect(btn).to_be_visible()
        box = btn.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width
    row = rows.first
    row.locator('[data-action="register"]').click()
    expect(row.locator('[data-action="withdraw"]')).to_be_visible()
    expect(row.locator("td.entrants")).to_contain_text("1 /")
    assert not errors, errors
    ctx.close()


def test_the_list_and_the_card_say_the_prizes_and_the_format_before_the_start(browser: Browser,
                                                                                server: ThreadServer) -> None:
    """Before a match starts its list entry and its card say what it is: the format of each stage (定局 rounds
    and their deals, who goes on; 打立 levels and the line), the field and how it starts, and the prizes — a
    fixed table's places, or a pool's share of the fees and what it pays with the entrants so far."""
    import time

    start_at = (int(time.time()) // 60 + 3 * 24 * 60) * 60
    hourly = create_match(server, {"name": "周末大奖赛", "game": "ddz3",
                                   "entry": {"start": "at_time", "min_entrants": 9, "max_entrants": 99, "fee": 0,
                                             "late_reg": 2, "prizes": [300, 200, 100]},
                                   "stages": [{"format": "dali", "advance": 9},
                                              {"format": "fixed", "rounds": [{"deals": 2, "advance": 3},
                                                                             {"deals": 3}]}]},
                          start_at=start_at)
    page, errors = new_page(browser)
    sign_up(page, server.url, "planner")
    page.locator('[data-nav="matches"]').click()
    sng = page.locator('.panel[data-status="open"] tr[data-match]', has_text="sng")
    expect(sng.locator("td.format")).to_have_text("定局积分")
    expect(sng.locator("td.prize")).to_have_text("奖池为报名费的 90%")
    later = page.locator(f'tr[data-match="{hourly}"]')
    expect(later.locator("td.format")).to_have_text("打立出局 → 定局积分")
    expect(later.locator("td.prize")).to_have_text("第1名 300 · 第2名 200 · 第3名 100")
    sng.locator('[data-action="register"]').click()
    expect(sng.locator("td.prize")).to_have_text("奖池为报名费的 90% · 目前 90")  # one paying 100, rake 10 %
    mid = sng.get_attribute("data-match")
    card = open_card(page, server, str(mid))
    plan = card.locator(".match-plan")
    expect(plan.locator(".match-rule")).to_contain_text("满 9 人即开赛")
    stages = plan.locator(".match-structure li")
    expect(stages).to_have_count(1)
    expect(stages.first).to_have_text("定局积分：第 1 轮 1 局 3 人晋级，第 2 轮 1 局")
    expect(plan.locator(".match-prizes")).to_have_text("奖励 奖池为报名费的 90% · 按目前报名人数：第1名 90")
    card = open_card(page, server, hourly)
    plan = card.locator(".match-plan")
    expect(plan.locator(".match-rule")).to_contain_text("9–99 人")
    expect(plan.locator(".match-rule")).to_contain_text("开赛后前 2 级可迟到报名")
    stages = plan.locator(".match-structure li")
    expect(stages).to_have_count(2)
    expect(stages.nth(0)).to_have_text("打立出局：8 级，底分 10–300，每 120 秒升一级，低于 3 倍底分出局，9 人晋级")
    expect(stages.nth(1)).to_contain_text("第 1 轮 2 局 3 人晋级")
    expect(plan.locator(".match-prizes")).to_have_text("奖励 第1名 300 · 第2名 200 · 第3名 100")
    shot(page, "match-card-plan.png")
    page.locator("#langbtn").click()
    expect(plan.locator(".match-rule")).to_contain_text("9–99 entrants")
    expect(stages.nth(0)).to_have_text("elimination (打立出局): 8 levels, base 10–300, up a level every 120 s, "
                                       "out below 3 × the base, 9 go on")
    expect(plan.locator(".match-prizes")).to_have_text("Prize #1 300 · #2 200 · #3 100")
    assert not errors, errors


def test_names_start_times_and_a_registered_entrant_read_in_the_pages_language(browser: Browser,
                                                                             server: ThreadServer) -> None:
    """A match the server names after its preset (``quick_sit_and_go``) reads in words (斗地主快速赛, Dou Dizhu quick
    sit & go), an operator's name as given; the start time as the profile writes times (2026-12-06 12:18), not in
    the browser's locale; one registered in a match not started yet is registered and waiting, not playing (the
    card and the profile); the list and the card have the page margins of the other pages."""
    import time
    from datetime import datetime
    from zoneinfo import ZoneInfo

    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US", timezone_id="Asia/Shanghai")
    ctx.add_init_script("localStorage.getItem('qipai.lang') || localStorage.setItem('qipai.lang', 'zh')")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" and "401" not in m.text
            else None)
    quick = create_match(server, {"preset": "quick_sit_and_go", "entry": {"fee": 0}})
    start_at = (int(time.time()) // 60 + 3 * 24 * 60) * 60  # in three days, on a minute
    when = datetime.fromtimestamp(start_at, ZoneInfo("Asia/Shanghai")).strftime("%Y-%m-%d %H:%M")
    later = create_match(server, {"name": "周末大奖赛", "game": "ddz3",
                                  "entry": {"start": "at_time", "min_entrants": 3, "max_entrants": 9, "fee": 0},
                                  "stages": [{"format": "fixed", "rounds": [{"deals": 1}]}]}, start_at=start_at)
    sign_up(page, server.url, "reader")
    page.locator('[data-nav="matches"]').click()
    listed = page.locator("section.matches")
    quick_row = listed.locator(f'tr[data-match="{quick}"]')
    expect(quick_row.locator("td.name")).to_have_text("斗地主快速赛")
    expect(listed.locator('.panel[data-status="open"] tr[data-match] td.name', has_text="sng")).to_have_count(1)
    later_row = listed.locator(f'tr[data-match="{later}"]')
    expect(later_row.locator("td.name")).to_have_text("周末大奖赛")
    expect(later_row.locator("td.start")).to_have_text(when)
    # the page's margins: the panels keep off the window's edges like the lobby's
    box = listed.locator(".panel").first.bounding_box()
    assert box is not None and box["x"] >= 16 and box["x"] + box["width"] <= 1280 - 16, box
    quick_row.locator('[data-action="register"]').click()
    expect(quick_row.locator('[data-action="withdraw"]')).to_be_visible()
    card = open_card(page, server, quick)
    expect(card.locator("h1")).to_have_text("斗地主快速赛")
    expect(card.locator(".match-phase")).to_have_attribute("data-phase", "registration")
    expect(card.locator("tr.me td.state")).to_have_text("已报名，等待开赛")
    box = card.locator(".panel").first.bounding_box()
    assert box is not None and box["x"] >= 16, box
    page.locator("#langbtn").click()
    expect(card.locator("h1")).to_have_text("Dou Dizhu quick sit & go")
    expect(card.locator("tr.me td.state")).to_have_text("Registered, waiting for the start")
    page.goto(f"{server.url}/#/profile")
    mine = page.locator(f'.my-matches tr[data-match="{quick}"]')
    expect(mine.locator("td").first).to_have_text("Dou Dizhu quick sit & go")
    expect(mine.locator("td.state")).to_have_text("Registered, waiting for the start")
    page.goto(f"{server.url}/#/matches")
    expect(page.locator(f'section.matches tr[data-match="{later}"] td.start')).to_have_text(when)
    expect(page.locator(f'section.matches tr[data-match="{quick}"] td.name')).to_have_text("Dou Dizhu quick sit & go")
    assert not errors, errors
    ctx.close()


def test_quit_asks_first_keeps_the_fee_and_the_profile_says_what_came_back(browser: Browser,
                                                                           server: ThreadServer) -> None:
    """Withdrawing before the start gives the fee back (the header at once, the profile says so); quitting a
    running match asks first — the fee stays, the seat plays on in auto-play — and says it quit, not withdrew.
    The standings number the bots."""
    page, errors = new_page(browser)
    sign_up(page, server.url, "quitter")
    upts = page.locator("#userbox .upts")
    expect(upts).to_have_text("1000")
    page.locator('[data-nav="matches"]').click()
    row = page.locator('.panel[data-status="open"] tr[data-match]')
    expect(row).to_have_count(1)
    pool = row.get_attribute("data-match")
    row.locator('[data-action="register"]').click()
    expect(upts).to_have_text("900")
    row.locator('[data-action="withdraw"]').click()
    expect(page.locator('#toasts .toast[data-key="match-withdraw"]')).to_have_text("已退出")
    expect(upts).to_have_text("1000")
    # a match to quit: three entrants, one table, many deals (it runs while the test looks)
    definition: dict[str, object] = {"name": "quit-me", "game": "ddz3",
                                     "entry": {"start": "when_full", "max_entrants": 3, "fee": 20},
                                     "stages": [{"format": "fixed", "rounds": [{"deals": 60}]}]}
    mid = create_match(server, definition)
    card = open_card(page, server, mid)
    card.locator('[data-action="register"]').click()
    expect(card.locator("tr.me")).to_have_count(1)
    expect(upts).to_have_text("980")
    add_bots(server, mid, 2)
    expect(page.locator(".tablev.live")).to_be_visible(timeout=20_000)
    card = open_card(page, server, mid)
    expect(card.locator('.match-phase[data-phase="running"]')).to_be_visible()
    bots = card.locator("table.standings tbody tr:not(.me) td.name")
    expect(bots).to_have_count(2)
    assert sorted(bots.all_inner_texts()) == ["电脑1", "电脑2"], bots.all_inner_texts()

    def me() -> dict[str, object]:
        got: dict[str, object] = page.evaluate(f"() => fetch('/api/matches/{mid}').then(r => r.json()).then(m => m.me)")
        return got

    # 退赛 asks first, saying what it costs; 取消 changes nothing
    quit_btn = card.locator('[data-action="withdraw"]')
    expect(quit_btn).to_have_text("退赛")
    quit_btn.click()
    dialog = page.locator("#match-quit-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("报名费不退还")
    expect(dialog).to_contain_text("托管")
    dialog.locator('[data-action="cancel-quit"]').click()
    expect(dialog).to_have_count(0)
    assert me()["quitting"] is False
    card.locator('[data-action="withdraw"]').click()
    page.locator('#match-quit-dialog [data-action="confirm-quit"]').click()
    expect(page.locator('#toasts .toast[data-key="match-withdraw"]')).to_have_text("已退赛")
    page.wait_for_function(f"() => fetch('/api/matches/{mid}').then(r => r.json()).then(m => m.me)")
    quit_state = me()
    assert quit_state["quitting"] is True or quit_state["status"] == "withdrawn", quit_state
    expect(upts).to_have_text("980")  # no refund
    # the profile: the pool match's fee came back, the quit match's did not
    page.goto(f"{server.url}/#/profile")
    refunded = page.locator(f'.my-matches tr[data-match="{pool}"] td.fee')
    expect(refunded).to_have_text("100（已退还）")
    expect(refunded).to_have_attribute("data-refunded", "1")
    kept = page.locator(f'.my-matches tr[data-match="{mid}"] td.fee')
    expect(kept).to_have_text("20")
    expect(kept).to_have_attribute("data-refunded", "0")
    page.locator("#langbtn").click()
    expect(page.locator(f'.my-matches tr[data-match="{pool}"] td.fee')).to_have_text("100 (refunded)")
    assert not errors, errors


@pytest.fixture
def steady_server(tmp_path: Path) -> Iterator[ThreadServer]:
    """A match server whose clocks wait for the test (a player's turn is a minute): a deal moves only when the
    test plays or asks for auto-play."""
    s = ThreadServer(web_settings(f"sqlite+aiosqlite:///{tmp_path / 'qipai.db'}", admin_token=ADMIN)).start()
    yield s
    s.stop()


def test_a_match_table_shows_the_match_points_of_every_seat(browser: Browser, steady_server: ThreadServer) -> None:
    """RULES-matches.md §4, §7: at a match table the seats (a bot's too), one's own bar and the settlement show
    each seat's match points — 比赛积分, 500 to start here — moved by every deal, never the lobby points the table
    does not move (1000 here, still in the header)."""
    server = steady_server
    definition: dict[str, object] = {
        "name": "积分赛", "game": "ddz3",
        "entry": {"start": "when_full", "max_entrants": 3, "fee": 0, "start_delay_s": 0},
        "stages": [{"format": "fixed", "start_stack": 500, "rounds": [{"deals": 2}]}]}
    mid = create_match(server, definition)
    page, errors = new_page(browser)
    sign_up(page, server.url, "scorer")
    live = enter_with_bots(page, server, mid, 2)
    expect(live).to_have_attribute("data-deal", re.compile(r"\d+"))
    you = int(live.get_attribute("data-you") or 0)
    others = [s for s in range(3) if s != you]
    # the first deal: everyone's match points are the stage's start stack
    for s in others:
        expect(live.locator(f'.seat[data-seat="{s}"] .standing .match-pts')).to_have_text("比赛积分 500")
    mine = live.locator(".mebar .me-info .match-pts")
    expect(mine).to_have_text("比赛积分 500")
    # the top bar says which match this is, its round and one's place in the live standings
    bar = live.locator(f'.tbar .match-bar[data-match="{mid}"]')
    expect(bar.locator(".match-bar-name")).to_have_text("积分赛")
    expect(bar.locator(".match-bar-round")).to_have_text("第1/1轮")
    expect(bar.locator(".match-bar-place")).to_have_text(re.compile(r"^排名 [123]/3$"))
    expect(mine).to_have_attribute("title", "这场比赛的积分，不是大厅积分")
    expect(page.locator("#userbox .upts")).to_have_text("1000")  # the lobby points: the header's, not the table's
    # (the seats' heads and one's own: what a seat said, 叫 1 分, is the game's part, and the live region's)
    heads = live.locator(".felt .seat .sinfo, .mebar .me-info")
    seats_text = " ".join(heads.all_inner_texts())
    assert "1000" not in seats_text and " 分" not in seats_text, seats_text
    first = live.get_attribute("data-deal")
    # auto-play plays the first deal out; the next one waits for us
    live.locator('[data-action="autoplay"]').click()
    page.wait_for_function("d => { const r = window.qipai.store.lastResult; return r && String(r.deal) === d; }",
                           arg=first, timeout=60_000)
    scores = page.evaluate("() => window.qipai.store.lastResult.outcome.scores")
    after = [500 + x for x in scores]
    assert any(scores) and sum(scores) == 0, scores
    expect(live).not_to_have_attribute("data-deal", first, timeout=20_000)  # the director started deal 2
    for s in others:
        expect(live.locator(f'.seat[data-seat="{s}"] .standing .match-pts')).to_have_text(f"比赛积分 {after[s]}")
    expect(mine).to_have_text(f"比赛积分 {after[you]}")
    # the standings say the same
    standings = httpx.get(f"{server.url}/api/matches/{mid}").json()["standings"]
    me = next(x for x in standings if not x["bot"])
    assert me["points"] == after[you], (me, after)
    assert sorted(x["points"] for x in standings) == sorted(after), (standings, after)
    # the first deal's settlement (结果): each seat's match points after it
    live.locator('[data-action="result"]').click()
    dialog = page.locator("#settlement")
    expect(dialog).to_be_visible()
    for s in range(3):
        row = dialog.locator(f'.settle-table tr[data-seat="{s}"]')
        expect(row.locator(".standing-after")).to_have_text(f"比赛积分 {after[s]}")
    shot(page, "match-table-settlement.png")
    dialog.locator(".x").click()
    shot(page, "match-table.png")
    # after the first deal the bar's place is the standings' (pushed, no reload)
    place = next(x["place"] for x in standings if not x["bot"])
    expect(bar.locator(".match-bar-place")).to_have_text(f"排名 {place}/3")
    page.locator("#langbtn").click()
    expect(mine).to_have_text(f"{after[you]} match pts")
    bar = live.locator(f'.tbar .match-bar[data-match="{mid}"]')
    expect(bar.locator(".match-bar-round")).to_have_text("Round 1/1")
    expect(bar.locator(".match-bar-place")).to_have_text(f"Place {place}/3")
    expect(page.locator("#userbox .upts")).to_have_text("1000")
    assert not errors, errors


def test_leaving_a_match_table_is_no_escape_and_leaves_no_table_to_go_back_to(browser: Browser,
                                                                             steady_server: ThreadServer) -> None:
    """RULES-matches §4, §6.2: at a match table the leave dialog says the seat plays on in auto-play (never 算逃跑);
    once left, the match card offers no 回到我的牌桌 onto the table that shows the player nothing any more."""
    server = steady_server
    definition: dict[str, object] = {
        "name": "离桌赛", "game": "ddz3",
        "entry": {"start": "when_full", "max_entrants": 3, "fee": 0, "start_delay_s": 0},
        "stages": [{"format": "fixed", "rounds": [{"deals": 3}]}]}
    mid = create_match(server, definition)
    page, errors = new_page(browser)
    sign_up(page, server.url, "leaver")
    live = enter_with_bots(page, server, mid, 2)
    expect(live).to_have_attribute("data-deal", re.compile(r"\d+"))
    tid = page.evaluate("() => window.qipai.store.tableId")
    card = open_card(page, server, mid)
    expect(card.locator("a.btn", has_text="回到我的牌桌")).to_have_count(1)  # seated: the way back is offered
    card.locator("a.btn", has_text="回到我的牌桌").click()
    expect(live).to_be_visible()
    live.locator('[data-action="leave"]').click()
    dialog = page.locator("#leave-dialog")
    expect(dialog).to_contain_text("托管")
    expect(dialog).to_contain_text("不算逃跑")
    assert "离开算逃跑" not in dialog.inner_text()
    dialog.locator("button", has_text="取消").click()
    expect(dialog).to_have_count(0)
    page.locator("#langbtn").click()
    live.locator('[data-action="leave"]').click()
    expect(dialog).to_contain_text("no escape")
    expect(dialog).to_contain_text("auto-play")
    dialog.locator('[data-action="confirm-leave"]').click()
    page.wait_for_function("() => !window.qipai.store.tableId")
    me = httpx.get(f"{server.url}/api/matches/{mid}").json()  # (anonymous: no me)
    assert any(r["table"] == tid for r in me["standings"])  # the table plays on, the seat in auto-play
    card = open_card(page, server, mid)
    expect(card.locator("table.standings tr.me")).to_have_count(1)
    expect(card.locator("a.btn", has_text="Back to my table")).to_have_count(0)
    assert not errors, errors


def test_a_page_loaded_at_a_match_table_and_left_offers_no_way_back_in_the_lobby(browser: Browser,
                                                                                steady_server: ThreadServer) -> None:
    """A page loaded (or reloaded) while seated keeps the seat /api/me gave: after 离开 at a mahjong match table
    the lobby still said 你在一张牌桌上：回到牌桌, a link that only led back to the lobby."""
    server = steady_server
    mid = create_match(server, {"game": "mahjong", "entry": {"start": "when_full", "max_entrants": 4, "fee": 0,
                                                             "start_delay_s": 0},
                                "stages": [{"format": "fixed", "rounds": [{"deals": 3}]}]})
    page, errors = new_page(browser)
    sign_up(page, server.url, "reloader")
    enter_with_bots(page, server, mid, 3)
    page.reload()  # /api/me: seated at the match table
    live = page.locator(".tablev.live")
    expect(live).to_be_visible()
    live.locator('[data-action="leave"]').click()
    page.locator('#leave-dialog [data-action="confirm-leave"]').click()
    page.wait_for_function("() => !window.qipai.store.tableId")
    expect(page.locator("section.lobby")).to_be_visible()
    expect(page.locator('section.lobby [data-action="back-to-table"]')).to_have_count(0)
    assert httpx.get(f"{server.url}/api/matches/{mid}").json()["phase"] == "running"  # (the table plays on)
    assert not errors, errors


def test_the_header_shows_the_fee_and_the_prize_of_a_mahjong_match_in_mahjong_points(browser: Browser,
                                                                                    server: ThreadServer) -> None:
    """The header's points are read again after registering and when the match is over: they showed Dou Dizhu's
    (1000, untouched) after a mahjong match took its fee, and Dou Dizhu's again after it paid its prize — the
    player saw 1000, then 990 at the table, then 1000, holding 999 mahjong points."""
    mid = create_match(server, {"game": "mahjong", "entry": {"start": "when_full", "max_entrants": 4, "fee": 10,
                                                             "start_delay_s": 0, "prizes": {"kind": "pool"}},
                                "stages": [{"format": "fixed", "rounds": [{"deals": 1}]}]})
    page, errors = new_page(browser)
    sign_up(page, server.url, "mahjongfan")
    card = open_card(page, server, mid)
    card.locator('[data-action="register"]').click()
    expect(card.locator("tr.me")).to_have_count(1)
    assert points(page, "mahjong") == 990 and points(page) == 1000
    expect(page.locator("#userbox .upts")).to_have_text("990")  # the fee, in the match's game
    add_bots(server, mid, 3)
    wait_finished(server, mid)
    # the only human takes the pool (1 paying × 10 × 90 %), in mahjong points
    assert points(page, "mahjong") == 999
    expect(page.locator("#userbox .upts")).to_have_text("999")
    assert not errors, errors


def test_a_finished_match_lists_its_deals_with_their_replay_within_a_phone(browser: Browser,
                                                                           server: ThreadServer) -> None:
    """On a 360-pixel phone the card's deals kept their table (Stage 1 · round 1 · table 1) on one line: the
    list was wider than the card and each deal's Replay button was cut off at its edge."""
    mid = create_match(server, {"game": "mahjong", "entry": {"start": "when_full", "max_entrants": 4, "fee": 0,
                                                             "start_delay_s": 0},
                                "stages": [{"format": "fixed", "rounds": [{"deals": 1}]}]})
    page, errors = lang_page(browser, "en", phone=True, viewport={"width": 360, "height": 740})
    sign_up(page, server.url, "mjfan")
    card = open_card(page, server, mid)
    card.locator('[data-action="register"]').click()
    expect(card.locator("tr.me")).to_have_count(1)
    add_bots(server, mid, 3)
    wait_finished(server, mid)
    deals = open_card(page, server, mid).locator('.match-deals[data-mine="1"]')
    expect(deals.locator("tbody tr")).to_have_count(1)
    expect(deals.locator("tbody tr").first).to_contain_text("Stage 1 · round 1 · table 1")
    sizes = deals.locator(".scroll").evaluate("s => [s.scrollWidth, s.clientWidth]")
    assert sizes[0] <= sizes[1], sizes  # nothing to scroll sideways to
    button = deals.locator('[data-action="replay"]').bounding_box()
    box = deals.bounding_box()
    assert button and box and button["x"] + button["width"] <= box["x"] + box["width"], (button, box)
    assert not errors, errors


TEAMS = {"preset": "shengji_teams_swiss", "round_gap_s": 0,
         "entry": {"start": "when_full", "max_entrants": 4, "fee": 20, "start_delay_s": 0},
         "stages": [{"rounds": 1, "deals": 1}]}


def test_a_captain_invites_a_partner_by_name_and_the_partner_accepts_from_the_card(browser: Browser,
                                                                                   server: ThreadServer) -> None:
    """A team match (组队赛) is entered from the browser: the captain names the partner on the match's card, the
    partner's invitation toast leads to the card, 接受 registers the team, and both read one team entrant."""
    mid = create_match(server, TEAMS)
    cap, cap_errors = new_page(browser)
    sign_up(cap, server.url, "alice")
    mate, mate_errors = new_page(browser)
    sign_up(mate, server.url, "bobby")
    # the list leads a team match's 报名 to the card (no lone registration that the server refuses)
    cap.locator('[data-nav="matches"]').click()
    row = cap.locator(f'.panel[data-status="open"] tr[data-match="{mid}"]')
    row.locator('[data-action="register"]').click()
    card = cap.locator(f'section.match[data-match="{mid}"]')
    entry = card.locator(".team-entry")
    expect(entry.locator('[data-action="invite-team"]')).to_have_text("邀请队友")
    # a name nobody has: the server's answer, worded
    entry.locator("input.team-partner").fill("nobody-here")
    entry.locator('[data-action="invite-team"]').click()
    expect(cap.locator(".toast.error")).to_contain_text("没有叫 nobody-here 的玩家")
    entry.locator("input.team-partner").fill("bobby")
    entry.locator('[data-action="invite-team"]').click()
    expect(entry.locator(".team-inviting")).to_have_text("已邀请 bobby，等待确认")
    assert points(cap, "shengji") == 1000  # nothing paid until the partner accepts
    # the partner, in the lobby: the invitation's toast leads to the card
    toast = mate.locator(f'.toast[data-match="{mid}"]')
    expect(toast).to_contain_text("alice 邀请你组队参赛")
    toast.locator('[data-action="open-match"]').click()
    mcard = mate.locator(f'section.match[data-match="{mid}"]')
    invited = mcard.locator(".team-invited-by")
    expect(invited).to_contain_text("alice 邀请你组队")
    # the partner may say no: 谢绝 ends the invitation for both, and the captain is told at once
    decline = invited.locator('[data-action="decline-team"]')
    expect(decline).to_have_text("谢绝")
    # the captain is typing a name as the card is drawn again: the text, the focus and the input itself stay
    partner = entry.locator("input.team-partner")
    partner.fill("bo")
    partner.evaluate("i => { i.__same = true; }")
    decline.click()
    expect(mate.locator('#toasts .toast[data-key="match-decline"]')).to_have_text("已谢绝组队邀请")
    expect(mcard.locator(".team-invited-by")).to_have_count(0)
    expect(cap.locator('#toasts .toast[data-key="match-declined"]')).to_have_text("bobby 谢绝了你的组队邀请")
    expect(entry.locator(".team-inviting")).to_have_count(0)
    expect(entry.locator(".team-declined")).to_have_text("bobby 谢绝了你的组队邀请")
    expect(partner).to_have_value("bo")
    expect(partner).to_be_focused()
    assert partner.evaluate("i => !!i.__same")
    cap.locator("#langbtn").click()
    entry = cap.locator(f'section.match[data-match="{mid}"] .team-entry')
    expect(entry.locator(".team-declined")).to_have_text("bobby declined your team invitation")
    cap.locator("#langbtn").click()
    entry = cap.locator(f'section.match[data-match="{mid}"] .team-entry')
    assert points(cap, "shengji") == 1000 and points(mate, "shengji") == 1000
    # asked again, the partner accepts this time
    entry.locator("input.team-partner").fill("bobby")
    entry.locator('[data-action="invite-team"]').click()
    expect(entry.locator(".team-inviting")).to_have_text("已邀请 bobby，等待确认")
    expect(entry.locator(".team-declined")).to_have_count(0)
    invited = mcard.locator(".team-invited-by")
    expect(invited.locator('[data-action="decline-team"]')).to_have_text("谢绝")
    mate.locator("#langbtn").click()
    expect(mcard.locator('.team-invited-by [data-action="decline-team"]')).to_have_text("Decline")
    mate.locator("#langbtn").click()
    invited = mcard.locator(".team-invited-by")
    invited.locator('[data-action="accept-team"]').click()
    for page, c in ((mate, mcard), (cap, card)):
        expect(c.locator("table.standings tbody tr")).to_have_count(1)  # one entrant: the team
        expect(c.locator("tr.me td.name")).to_have_text("alice & bobby")
        expect(c.locator("tr.me td.state")).to_contain_text("已报名")
        expect(c.locator(".team-entry")).to_have_count(0)
        expect(c.locator('[data-action="withdraw"]')).to_be_visible()
        assert points(page, "shengji") == 980  # each member paid the fee
    cap_errors = [e for e in cap_errors if "404" not in e]  # the name nobody has: the expected 404 answer
    assert not cap_errors and not mate_errors, cap_errors + mate_errors


def test_the_card_says_a_dali_stage_is_in_its_forced_finish(browser: Browser, server: ThreadServer) -> None:
    """The server says ``stopping: "forced"`` when the last level is used up (强制排名); the card's stage line said
    nothing of it."""
    page, errors = new_page(browser)
    sign_up(page, server.url, "forced")
    line = page.evaluate("""async () => {
      const { stageLine } = await import("/js/shell/matches.js");
      const si = { index: 0, stages: 2, format: "dali", rounds: null, advance: 3, level: 4, levels: 4, base: 600,
                   line: 1800, remaining: 7 };
      return [stageLine({ stage_info: { ...si, stopping: "forced" } }).textContent,
              stageLine({ stage_info: { ...si, stopping: null } }).textContent];
    }""")
    assert "强制排名" in line[0] and "强制排名" not in line[1], line
    # the table's top bar: the 打立 level (and the stage, when there are several), or the round; one's place
    bar = page.evaluate("""async () => {
      const { matchBar } = await import("/js/shell/matches.js");
      const me = window.qipai.store.user.id;
      const rows = [{ place: 1, users: [7], status: "in" }, { place: 2, users: [me], status: "in" },
                    { place: 3, users: [8], status: "eliminated" }, { place: 4, users: [9], status: "removed" }];
      const dali = { index: 0, stages: 2, format: "dali", rounds: null, advance: 3, level: 4, base: 50 };
      const fixed = { index: 1, stages: 2, format: "fixed", rounds: 3, advance: null };
      return [matchBar({ name: "hourly", game: "ddz3", stage_info: dali, round: null, standings: rows }, me),
              matchBar({ name: "周末赛", game: "ddz3", stage_info: fixed, round: 1, standings: rows }, me),
              matchBar({ name: "周末赛", game: "ddz3", stage_info: null, round: null, standings: rows }, 12345)];
    }""")
    assert bar[0] == {"name": "斗地主整点赛", "stage": "第1阶段", "round": "打立 第4级 底分50",
                      "place": "排名 2/3"}, bar
    assert bar[1] == {"name": "周末赛", "stage": "第2阶段", "round": "第2/3轮", "place": "排名 2/3"}, bar
    assert bar[2] == {"name": "周末赛", "stage": None, "round": None, "place": None}, bar
    assert not errors, errors


class HeldReads:
    """The page's reads (GET) of ``pattern``, held by the test while ``holding``: ``catch()`` waits for the next
    one and keeps it unanswered, its answer taken from the server at once (as the server would have answered then);
    ``answer(read)`` lets that old answer come back at last; ``let_through()`` answers the others held meanwhile."""

    def __init__(self, page: Page, pattern: re.Pattern[str]) -> None:
        self.page = page
        self.holding = False
        self.held: list[Route] = []
        page.route(pattern, self.on_route)

    def on_route(self, route: Route) -> None:
        if self.holding and route.request.method == "GET":
            self.held.append(route)
        else:
            route.fallback()

    def catch(self, timeout: float = 10.0) -> tuple[Route, APIResponse]:
        self.holding = True
        end = time.monotonic() + timeout
        while not self.held:
            assert time.monotonic() < end, "the page read nothing"
            self.page.wait_for_timeout(50)
        route = self.held.pop(0)
        return route, route.fetch()

    def let_through(self) -> None:
        self.holding = False
        while self.held:
            self.held.pop(0).fallback()

    def answer(self, read: tuple[Route, APIResponse]) -> None:
        """Answer the held read with its old answer (holding whatever the page reads meanwhile, which would put the
        page right again), and wait until the page had the time to draw it."""
        self.holding = True
        route, old = read
        with self.page.expect_event("requestfinished", lambda r: r is route.request):
            route.fulfill(response=old)
        self.page.wait_for_timeout(300)


def test_registering_and_withdrawing_count_at_once_whatever_read_comes_back_last(browser: Browser,
                                                                                 server: ThreadServer) -> None:
    """报名 and 退赛 on the match list and on the match's card: the entrant count (人数) and the button follow at once,
    and a read of the list or the card begun before the click that comes back after it (the list's timer, the card's
    read after a reconnect) does not put the old count back — the card said 人数 0 and offered 报名 again under the
    报名成功 toast."""
    page, errors = new_page(browser)
    sign_up(page, server.url, "counted")
    page.locator('[data-nav="matches"]').click()
    row = page.locator('.panel[data-status="open"] tr[data-match]')
    expect(row).to_have_count(1)
    mid = row.get_attribute("data-match")
    reads = HeldReads(page, re.compile(r".*/api/matches$"))
    for action, then, after in (("register", "withdraw", "1 / 9"), ("withdraw", "register", "0 / 9")):
        stale = reads.catch()  # the list's timer reads the list just before the click
        row.locator(f'[data-action="{action}"]').click()
        expect(page.locator(f'#toasts .toast[data-key="match-{action}"]')).to_be_visible()
        reads.let_through()
        expect(row.locator("td.entrants")).to_have_text(after)
        reads.answer(stale)
        assert row.locator("td.entrants").inner_text() == after, action
        assert row.locator(f'[data-action="{then}"]').count() == 1, action
        reads.let_through()
    # the card: registering and withdrawing there, while a read of the card begun before (a reconnect's) is out
    row.locator("a").click()
    card = page.locator(f'section.match[data-match="{mid}"]')
    facts = card.locator(".match-facts")
    expect(facts).to_contain_text("人数 0")
    reads = HeldReads(page, re.compile(rf".*/api/matches/{mid}$"))
    for action, then, after in (("register", "withdraw", 1), ("withdraw", "register", 0)):
        reads.holding = True
        page.evaluate("() => window.qipai.conn.emit({ type: '_gap' })")  # messages were lost: the card reads again
        stale = reads.catch()
        card.locator(f'[data-action="{action}"]').click()
        expect(page.locator(f'#toasts .toast[data-key="match-{action}"]')).to_be_visible()
        reads.let_through()
        expect(facts).to_contain_text(f"人数 {after}")
        expect(card.locator(f'[data-action="{then}"]')).to_have_count(1)
        reads.answer(stale)
        assert f"人数 {after}" in facts.inner_text(), action
        assert card.locator(f'[data-action="{then}"]').count() == 1, action
        assert card.locator("table.standings tr.me").count() == after, action
        reads.let_through()
    card.locator('[data-action="register"]').click()
    expect(facts).to_contain_text("人数 1")
    shot(page, "match-card-registered-zh.png")
    expect(page.locator("#toasts .toast")).to_have_count(0, timeout=8000)  # (said in Chinese: gone before English)
    page.locator("#langbtn").click()
    expect(facts).to_contain_text("Entrants 1")
    expect(card.locator('[data-action="withdraw"]')).to_have_text("Withdraw")
    shot(page, "match-card-registered-en.png")
    assert not errors, errors


MATCH_CARD: dict[str, object] = {
    "id": "M1", "name": "hourly", "game": "ddz3", "phase": "running", "status": "running", "round": None,
    "stage_info": {"index": 1, "stages": 2, "format": "dali", "level": 12, "base": 1200, "rounds": None},
}

def answer_json(body: object) -> Callable[[Route], None]:
    """A route's handler that answers with ``body`` (as JSON)."""
    return lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(body))


TOP_BAR = """() => {
  const t = document.querySelector('.tablev.live');
  const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect();
                       return { l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height }; };
  const q = (s) => t.querySelector(s);
  const cut = (e) => !!e && e.scrollWidth > e.clientWidth + 1;
  const parts = [...q('.tbar').querySelectorAll('.match-bar, .tinfo > :not(.match-bar), .tgame, .tmenu')]
    .filter((e) => e.getBoundingClientRect().width > 0).map((e) => [e.className, box(e)]);
  return { bar: box(q('.match-bar')), name: box(q('.match-bar-name')), round: box(q('.match-bar-round')),
           place: box(q('.match-bar-place')), tbar: box(q('.tbar')), felt: box(q('.felt')), parts,
           cutRound: cut(q('.match-bar-round')), cutPlace: cut(q('.match-bar-place')),
           stageShown: !!q('.match-bar-stage') && q('.match-bar-stage').getBoundingClientRect().width > 0,
           wide: document.scrollingElement.scrollWidth, vw: innerWidth };
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_match_tables_top_bar_keeps_the_match_to_one_line_on_a_phone(browser: Browser, server: ThreadServer,
                                                                        lang: str) -> None:
    """On a phone (375×667, 360×640) the top bar of a match table names the match, its 打立 level and one's place
    in one line (it wrapped into two, the game's name and the stake under it, and pushed the felt down): the level
    and the place whole, the match's name cut short if need be (the whole in the bar's title), the stage left out;
    nothing in the bar overlaps, nothing widens the page, and the bar is at most that one line taller than the same
    table's bar without a match."""
    from qipai.games.doudizhu.rules import PRESETS
    from qipai.games.doudizhu.state import Game

    hands = ["3S 3H 3C 4S 4H 4C 4D 5S 6S 7S 8S 8H 9S TS JS QS KS", "B R 2S 2H 2C 2D AS AH AC AD KH KC KD QH QC QD JH",
             "3D 5H 5C 5D 6H 6C 6D 7H 7C 7D 8C 8D 9H 9C 9D TH TC"]
    name, level, place = {"zh": ("斗地主整点赛", "打立 第12级 底分1200", "排名 13/27"),
                          "en": ("Dou Dizhu hourly tournament", "Level 12 · base 1200", "Place 13/27")}[lang]
    for width, height in ((375, 667), (360, 640)):
        ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True,
                                  locale="zh-CN" if lang == "zh" else "en-US")
        ctx.add_init_script(f"localStorage.setItem('qipai.lang', '{lang}')")
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(f"page error: {e}"))
        as_guest(page, server.url)
        uid = page.evaluate("() => window.qipai.store.user.id")
        standings = [{"place": i, "entrant": f"e{i}", "users": [uid if i == 13 else 1000 + i], "status": "in",
                      "points": 0} for i in range(1, 28)]
        page.route(re.compile(r".*/api/matches/M1$"), answer_json({**MATCH_CARD, "standings": standings}))
        ft = FakeTable(page, Game.from_deal(PRESETS["classic"], hands, "TD JC JD", first_bidder=0))
        ft.extra_table.update(match_id="M1")
        ft.open()
        bar = page.locator('.tablev.live .tbar .match-bar[data-match="M1"]')
        expect(bar.locator(".match-bar-place")).to_have_text(place)
        expect(bar.locator(".match-bar-round")).to_contain_text(level)
        expect(bar).to_have_attribute("title", re.compile(re.escape(name)))
        g = page.evaluate(TOP_BAR)
        what = (lang, width, g)
        line = g["place"]["h"]
        assert g["bar"]["h"] <= line * 1.4, what  # one line
        for part in ("name", "round", "place"):
            p = g[part]
            assert p["w"] > 0 and abs(p["t"] - g["place"]["t"]) <= 3, (part, what)
            assert g["bar"]["l"] - 0.5 <= p["l"] and p["r"] <= g["bar"]["r"] + 0.5, (part, what)
        assert not g["cutRound"] and not g["cutPlace"] and not g["stageShown"], what
        assert g["bar"]["r"] <= width and g["wide"] <= width, what
        parts = g["parts"]
        for i, (a, p) in enumerate(parts):
            for b, q in parts[i + 1:]:
                apart = (min(p["r"], q["r"]) <= max(p["l"], q["l"]) + 0.5
                         or min(p["b"], q["b"]) <= max(p["t"], q["t"]) + 0.5)
                assert apart, (a, b, what)
        assert g["tbar"]["b"] <= g["felt"]["t"] + 0.5, what
        shot(page, f"match-table-bar-{lang}-{width}.png")
        # the same table without the match: the match costs the bar that one line at most
        ft.push_table(match_id=None)
        expect(page.locator(".tablev.live .match-bar")).to_have_count(0)
        plain = page.evaluate(TOP_BAR)
        assert g["tbar"]["h"] <= plain["tbar"]["h"] + g["bar"]["h"] + 10, (what, plain["tbar"])
        assert not errors, errors
        ctx.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_phone_at_a_match_table_still_opens_the_tables_rules(browser: Browser, server: ThreadServer,
                                                              lang: str) -> None:
    """A phone's match table gives the bar's first line to the match and left out the game's name — and with it
    the one way to the table's 玩法说明 (its name opens them): its ? stays, beside the stake, and opens them."""
    from qipai.games.doudizhu.rules import PRESETS
    from qipai.games.doudizhu.state import Game

    hands = ["3S 3H 3C 4S 4H 4C 4D 5S 6S 7S 8S 8H 9S TS JS QS KS", "B R 2S 2H 2C 2D AS AH AC AD KH KC KD QH QC QD JH",
             "3D 5H 5C 5D 6H 6C 6D 7H 7C 7D 8C 8D 9H 9C 9D TH TC"]
    page, errors = lang_page(browser, lang, phone=True, viewport={"width": 360, "height": 640})
    as_guest(page, server.url)
    uid = page.evaluate("() => window.qipai.store.user.id")
    standings = [{"place": i, "entrant": f"e{i}", "users": [uid if i == 2 else 1000 + i], "status": "in",
                  "points": 0} for i in range(1, 4)]
    page.route(re.compile(r".*/api/matches/M1$"), answer_json({**MATCH_CARD, "standings": standings}))
    ft = FakeTable(page, Game.from_deal(PRESETS["classic"], hands, "TD JC JD", first_bidder=0))
    ft.extra_table.update(match_id="M1")
    ft.open()
    expect(page.locator('.tablev.live .tbar .match-bar[data-match="M1"] .match-bar-place')).to_be_visible()
    rules = page.locator('.tablev.live .tbar [data-action="rules"]')
    expect(rules).to_be_visible()
    box = rules.bounding_box()
    assert box and box["width"] >= 20 and box["height"] >= 20, box  # a finger's target, not a dot
    g = page.evaluate(TOP_BAR)
    assert g["wide"] <= 360 and g["tbar"]["b"] <= g["felt"]["t"] + 0.5, g
    rules.tap()
    dialog = page.locator("#rules-dialog")
    expect(dialog.locator(".dialog-head h2")).to_have_text("玩法说明 · 经典斗地主" if lang == "zh"
                                                             else "How to play · Classic")
    expect(dialog.locator('.rules-section[data-part="kinds"]')).to_be_visible()
    shot(page, f"match-table-rules-{lang}-360.png")
    page.context.close()
    assert not errors, errors
