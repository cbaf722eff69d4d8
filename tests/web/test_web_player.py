"""玩家资料 in the browser against a real server: a player's page (#/player/NAME) reached from the seat card (查看资料),
the leaderboard, the friends page's 最近同桌 and a match's standings; its stats, its latest deals with 回放 only where
the viewer may replay them, 加好友 / 拉黑 / 解除拉黑 there, a guest's name refused in words, in Chinese on a desktop
and in English on a 360-px phone."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from web_helpers import (
    ThreadServer,
    as_guest,
    lang_page,
    log_in,
    play_a_deal_together,
    shot,
    sign_up,
    table,
    web_settings,
)

POOL = {
    "name": "sng",
    "preset": "sit_and_go_9",
    "entry": {"fee": 0, "start_delay_s": 0},
    "round_gap_s": 1,
    "stages": [{"rounds": [{"deals": 1, "advance": 3}, {"deals": 1}]}],
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("web-player") / "qipai.db"
    s = ThreadServer(web_settings(f"sqlite+aiosqlite:///{db}", matches=json.dumps([POOL]))).start()
    yield s
    s.stop()


def player_page(page: Page, name: str) -> None:
    expect(page.locator(f'section.player .player-card h1:text-matches("^{name}")')).to_be_visible()
    assert page.evaluate("() => location.hash") == f"#/player/{name}"


def test_a_players_profile_from_his_seat_the_leaderboard_and_the_friends_page(
    browser: Browser, server: ThreadServer
) -> None:
    play_a_deal_together(server, ["pia", "quinn", "rex"])
    page, errors = lang_page(browser, "zh")
    log_in(page, server.url, "pia")
    expect(table(page)).to_be_visible()
    # 查看资料 on quinn's seat card
    page.locator('.tablev.live .seat:has(.sname:text-is("quinn")) [data-action="seat-card"]').click()
    page.locator('#seat-card [data-action="seat-profile"]').click()
    player_page(page, "quinn")
    box = page.locator("section.player")
    ddz = box.locator('.game-card[data-game="doudizhu"]')
    expect(ddz.locator('[data-stat="games"] .v')).to_have_text("1")
    expect(ddz.locator('[data-stat="rank"] .v')).to_have_text(re.compile(r"^第 \d+ 名$"))
    expect(box.locator('.game-card[data-game="mahjong"] [data-stat="rank"] .v')).to_have_text("未上榜")
    expect(box.locator('.game-card[data-game="mahjong"] [data-stat="rate"] .v')).to_have_text("—")
    rows = box.locator(".player-recent tbody tr")
    expect(rows).to_have_count(1)
    expect(box.locator(".player-recent h2")).to_have_text("最近 1 局")
    replay = rows.first.locator('[data-action="replay"]')  # pia played that deal with him: she may replay it
    expect(replay).to_be_visible()
    deal = rows.first.get_attribute("data-deal")
    assert replay.get_attribute("href") == f"#/replay/{deal}"
    shot(page, "player-zh.png")

    # 加好友 and 拉黑 as on the seat card; the page says what he is to her
    box.locator('[data-action="player-add-friend"]').click()
    expect(page.locator(".toast", has_text="已发送好友申请")).to_be_visible()
    expect(box.locator(".player-card")).to_have_attribute("data-relation", "outgoing")
    expect(box.locator(".badge.relation")).to_have_text("已申请好友")
    expect(box.locator('[data-action="player-add-friend"]')).to_have_count(0)
    box.locator('[data-action="player-block"]').click()
    expect(box.locator(".badge.relation")).to_have_text("已拉黑")
    quinn = int(box.locator(".player-card").get_attribute("data-user") or 0)
    assert page.evaluate(f"() => window.qipai.store.blocked.has({quinn})")  # his quick chat is muted at once
    box.locator('[data-action="player-unblock"]').click()
    expect(box.locator(".player-card")).to_have_attribute("data-relation", "none")
    assert not page.evaluate(f"() => window.qipai.store.blocked.has({quinn})")

    # the leaderboard's names lead to the page; her own leads to a page that says it is hers
    page.locator('#nav [data-nav="leaderboard"]').click()
    page.locator('table.lb a.player-link:text-is("rex")').click()
    player_page(page, "rex")
    page.goto(f"{server.url}/#/leaderboard")
    page.locator('table.lb a.player-link:text-is("pia")').click()
    expect(box.locator('[data-action="own-profile"]')).to_be_visible()
    expect(box.locator('[data-action="player-block"]')).to_have_count(0)
    # 最近同桌 on the friends page
    page.locator('#nav [data-nav="friends"]').click()
    page.locator('.friend-recent a.player-link:text-is("rex")').click()
    player_page(page, "rex")
    # a guest's name, typed: refused in words
    guest = httpx.post(f"{server.url}/api/guest", json={}).json()["user"]["name"]
    page.goto(f"{server.url}/#/player/{guest}")
    expect(page.locator("section.player .form-error")).to_have_attribute("data-code", "no_profile")
    expect(page.locator("section.player .form-error")).to_contain_text("是游客，没有玩家资料")
    page.goto(f"{server.url}/#/player/nobody-at-all")
    expect(page.locator("section.player .form-error")).to_have_text("没有叫 nobody-at-all 的玩家")
    # names no player has, however typed: ".." (the browser asked for /api/ itself: "no such endpoint"), a "/"
    for odd, shown in (("..", ".."), ("a%2Fb", "a/b"), ("%2E", ".")):
        page.goto(f"{server.url}/#/player/{odd}")
        expect(page.locator("section.player .form-error")).to_have_text(f"没有叫 {shown} 的玩家")
    page.context.close()
    assert not errors, errors


def test_the_page_on_a_phone_in_english_and_from_a_matchs_standings(browser: Browser, server: ThreadServer) -> None:
    page, errors = lang_page(browser, "en", phone=True, viewport={"width": 360, "height": 740})
    sign_up(page, server.url, "stella")
    # a match's standings: the names lead to the players' pages
    page.locator('[data-nav="matches"]').click()
    row = page.locator('.panel[data-status="open"] tr[data-match]').first
    row.locator('[data-action="register"]').click()
    expect(row.locator('[data-action="withdraw"]')).to_be_visible()
    row.locator("a").first.click()
    page.locator('section.match table.standings a.player-link:text-is("stella")').click()
    player_page(page, "stella")
    # another player's page, logged out first: the log-in leads back to it
    play_a_deal_together(server, ["tom", "uma", "vic"])
    page.context.clear_cookies()
    page.goto(f"{server.url}/#/player/uma")
    page.reload()
    expect(page.locator(".auth-form")).to_be_visible()
    page.locator('.tab[data-tab="login"]').click()
    page.fill('input[name="name"]', "stella")
    page.fill('input[name="password"]', "secret-pw")
    page.locator('[data-action="submit"]').click()
    player_page(page, "uma")
    box = page.locator("section.player")
    expect(box.locator(".player-recent h2")).to_have_text("Latest 1 deal")
    expect(box.locator('.game-card[data-game="doudizhu"] [data-stat="rank"] .v')).to_have_text(
        re.compile(r"^No\. \d+$")
    )
    # stella did not play uma's deal: no replay for her
    expect(box.locator(".player-recent tbody tr")).to_have_count(1)
    expect(box.locator('.player-recent [data-action="replay"]')).to_have_count(0)
    expect(box.locator('[data-action="player-add-friend"]')).to_have_text("Add friend")
    # nothing runs off the side of a 360-px screen
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 360, wide
    name_box = box.locator(".player-card h1").bounding_box()
    assert name_box and name_box["height"] < 60, name_box  # his name on one line, not a letter a line
    shot(page, "player-en-phone.png")
    box.locator(".player-recent").scroll_into_view_if_needed()
    shot(page, "player-en-phone-deals.png")
    page.context.close()
    assert not errors, errors


def test_a_guest_who_saves_his_account_on_the_page_may_add_the_player(browser: Browser, server: ThreadServer) -> None:
    """A guest reads a player's page (no 加好友: a guest has no friends) and saves his account from the header: the
    page went on offering him nothing but 拉黑 until a reload (and his own, "a guest has no profile", stayed so)."""
    httpx.post(f"{server.url}/api/register", json={"name": "xena", "password": "secret-pw"}).raise_for_status()
    page, errors = lang_page(browser, "zh")
    as_guest(page, server.url)
    page.goto(f"{server.url}/#/player/xena")
    player_page(page, "xena")
    box = page.locator("section.player")
    expect(box.locator('[data-action="player-block"]')).to_be_visible()
    expect(box.locator('[data-action="player-add-friend"]')).to_have_count(0)
    page.locator('#userbox [data-action="save-account"]').click()
    page.fill('#save-account input[name="name"]', "yuri")
    page.fill('#save-account input[name="password"]', "secret-pw")
    page.fill('#save-account input[name="password2"]', "secret-pw")
    page.locator('[data-action="save-account-submit"]').click()
    expect(page.locator("#save-account")).to_have_count(0)
    box.locator('[data-action="player-add-friend"]').click()
    expect(box.locator(".player-card")).to_have_attribute("data-relation", "outgoing")
    # a guest on his own page (a guest has none) who saves his account is shown his page by its new name
    page.context.clear_cookies()
    page.goto(f"{server.url}/#/lobby")  # (not the player's page: it is kept for after the log-in, not the lobby)
    page.reload()
    as_guest(page, server.url)
    guest = page.evaluate("() => window.qipai.store.user.name")
    page.goto(f"{server.url}/#/player/{guest}")
    expect(box.locator(".form-error")).to_have_attribute("data-code", "no_profile")
    page.locator('#userbox [data-action="save-account"]').click()
    page.fill('#save-account input[name="name"]', "zora")
    page.fill('#save-account input[name="password"]', "secret-pw")
    page.fill('#save-account input[name="password2"]', "secret-pw")
    page.locator('[data-action="save-account-submit"]').click()
    player_page(page, "zora")
    expect(box.locator('[data-action="own-profile"]')).to_be_visible()
    page.context.close()
    assert not errors, errors


def test_a_replays_players_lead_to_their_profiles_and_its_name_to_its_rules(
    browser: Browser, server: ThreadServer
) -> None:
    """The replay of a deal (from a player's page) named its players with no way to their pages and its rules with
    no way to read them, as the history of one's own profile named them: another player's avatar (his name in the
    history) leads to his profile, the deal's name opens the rules it was played by; the viewer's own seat and a
    bot's lead nowhere."""
    play_a_deal_together(server, ["abe", "bea", "cal"])
    page, errors = lang_page(browser, "zh")
    log_in(page, server.url, "abe")
    # his own profile's history names the others of each deal as links to their pages (his own name is words)
    page.goto(f"{server.url}/#/profile")
    who = page.locator("section.profile td.who").first
    expect(who).to_have_text("abe · bea · cal")
    assert who.locator("a.player-link").evaluate_all("els => els.map((e) => e.getAttribute('href'))") == [
        "#/player/bea",
        "#/player/cal",
    ]
    page.goto(f"{server.url}/#/player/bea")
    player_page(page, "bea")
    page.locator('section.player .player-recent [data-action="replay"]').first.click()
    felt = page.locator("section.replay .tablev")
    expect(felt).to_be_visible()
    links = felt.locator('a.avatar[data-action="seat-profile"]')
    expect(links).to_have_count(2)  # bea and cal, not abe's own seat
    assert sorted(links.evaluate_all("els => els.map((e) => e.getAttribute('href'))")) == [
        "#/player/bea",
        "#/player/cal",
    ]
    felt.locator('[data-action="rules"]').click()
    dialog = page.locator("#rules-dialog")
    expect(dialog.locator(".dialog-head h2")).to_have_text("玩法说明 · 经典斗地主")
    expect(dialog.locator('.rules-section[data-part="kinds"]')).to_be_visible()
    page.keyboard.press("Escape")
    felt.locator('a.avatar[href="#/player/cal"]').click()
    player_page(page, "cal")
    page.go_back()  # the back button returns to the replay
    expect(page.locator("section.replay .tablev")).to_be_visible()
    page.context.close()
    assert not errors, errors


def test_the_tables_history_names_the_players_as_links(browser: Browser, server: ThreadServer) -> None:
    """历史得分 at the table named the players of its deals in words: one who has left the table is named nowhere
    else there. Another registered player's name leads to his profile; one's own is words."""
    play_a_deal_together(server, ["dee", "eli", "fay"])
    page, errors = lang_page(browser, "en")
    log_in(page, server.url, "dee")
    expect(table(page)).to_be_visible()
    table(page).locator('[data-action="history"]').click()
    head = page.locator("#history-dialog thead th")
    expect(head).to_have_count(4)
    links = page.locator("#history-dialog thead a.player-link")
    assert sorted(links.evaluate_all("els => els.map((e) => e.getAttribute('href'))")) == [
        "#/player/eli",
        "#/player/fay",
    ]
    expect(head.filter(has_text="dee").locator("a")).to_have_count(0)
    links.filter(has_text="fay").click()
    player_page(page, "fay")
    expect(page.locator("#history-dialog")).to_have_count(0)  # (the dialog stays with its page)
    page.go_back()
    expect(table(page)).to_be_visible()
    page.context.close()
    assert not errors, errors
