"""好友 in the browser, two players against a real server: a request by name, its notice and its acceptance, the
list with who is online, an invitation to a private table that seats the friend, removing a friend, and the
refusals worded in both languages."""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

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

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import Client


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("web-friends") / "qipai.db"
    s = ThreadServer(web_settings(f"sqlite+aiosqlite:///{db}")).start()
    yield s
    s.stop()


def new_page(browser: Browser, lang: str, phone: bool = False) -> tuple[Page, list[str]]:
    return lang_page(browser, lang, phone=phone)


def friend_row(page: Page, name: str) -> str:
    return f'.friend-friends li.friend:has(.fname:text-is("{name}"))'


def test_friends_request_accept_invite_and_remove(browser: Browser, server: ThreadServer) -> None:
    ann, ann_errors = new_page(browser, "zh")
    sign_up(ann, server.url, "annie")
    bob, bob_errors = new_page(browser, "en", phone=True)
    sign_up(bob, server.url, "bobby")

    # ann asks bob by name, from the friends page the header leads to
    ann.locator('#nav [data-nav="friends"]').click()
    expect(ann.locator("section.friends .friends-none")).to_be_visible()
    ann.fill('.friend-add input[name="friend"]', "BOBBY")
    ann.locator('[data-action="add-friend"]').click()
    expect(ann.locator(".toast", has_text="已发送好友申请")).to_be_visible()
    expect(ann.locator(".friend-outgoing li.friend .fname")).to_have_text("bobby")
    # an unknown name is worded
    ann.fill('.friend-add input[name="friend"]', "nobody-at-all")
    ann.locator('[data-action="add-friend"]').click()
    expect(ann.locator(".toast.error", has_text="没有叫 nobody-at-all 的玩家")).to_be_visible()

    # bob is told on the page he is on (the lobby), and the notice leads to his requests
    notice = bob.locator(".toast", has_text="annie asks to be your friend")
    expect(notice).to_be_visible()
    # a notice on screen is said again in the language he switches to, its link kept
    bob.locator("#langbtn").click()
    said = bob.locator(".toast", has_text="annie 想加你为好友")
    expect(said.locator('[data-action="open-friends"]')).to_have_text("查看")
    bob.locator("#langbtn").click()
    expect(notice.locator('[data-action="open-friends"]')).to_have_text("See")
    notice.locator('[data-action="open-friends"]').click()
    expect(bob.locator(".friend-requests li.friend .fname")).to_have_text("annie")
    shot(bob, "friends-request-en.png")
    bob.locator('.friend-requests [data-action="accept-friend"]').click()
    expect(bob.locator(friend_row(bob, "annie"))).to_be_visible()
    expect(bob.locator(".friend-requests")).to_have_count(0)
    # ann's open page follows: bob is her friend, online
    expect(ann.locator(friend_row(ann, "bobby"))).to_have_attribute("data-state", "online")
    expect(ann.locator(".friend-outgoing")).to_have_count(0)

    # ann opens a private table and invites bob from the friends page; the notice seats him
    ann.locator('#nav [data-nav="lobby"]').click()
    ann.locator('select[name="room"]').select_option("classic-1")
    ann.locator('select[name="bots"]').select_option("")
    ann.locator('[data-action="create"]').click()
    expect(table(ann)).to_be_visible()
    ann.locator('#nav [data-nav="friends"]').click()
    ann.locator(f'{friend_row(ann, "bobby")} [data-action="invite-friend"]').click()
    expect(ann.locator(".toast", has_text="已邀请 bobby")).to_be_visible()
    shot(ann, "friends-zh.png")
    invite = bob.locator(".toast", has_text="Your friend annie invites you to a table")
    expect(invite).to_be_visible()
    expect(invite.locator('[data-action="join-invite"]')).to_be_visible()
    # the notice passes; his friends page keeps the invitation, and joining it seats him
    bob.locator('#nav [data-nav="profile"]').click()
    bob.locator('section.profile [data-action="open-friends"]').click()
    kept = bob.locator(".friend-invites li.friend")
    expect(kept.locator(".fname")).to_have_text("annie")
    # whose invitation it is leads to his profile, as the other names on the page do
    expect(kept.locator("a.player-link.fname")).to_have_attribute("href", "#/player/annie")
    expect(kept.locator(".fstate")).to_have_text("Dou Dizhu")
    shot(bob, "friends-invitation-en.png")
    kept.locator('[data-action="join-invite"]').click()
    expect(table(bob)).to_be_visible()
    expect(table(bob)).to_have_attribute("data-you", re.compile(r"^[12]$"))
    # seated, his friends page no longer offers that invitation
    bob.locator('#nav [data-nav="profile"]').click()
    bob.locator('section.profile [data-action="open-friends"]').click()
    expect(bob.locator(friend_row(bob, "annie"))).to_be_visible()
    expect(bob.locator(".friend-invites")).to_have_count(0)
    bob.locator("#nav .table-link").click()
    # seated together: ann's list says bob is at a table (and offers no invite to the table he is at)
    ann.reload()
    expect(ann.locator(friend_row(ann, "bobby"))).to_have_attribute("data-state", "playing")
    expect(ann.locator(f'{friend_row(ann, "bobby")} [data-action="invite-friend"]')).to_have_count(0)

    # bob removes ann, after a confirmation; ann's page follows.  On his phone the header keeps its links in
    # view (好友 is left out of it) and the profile (我的) leads to the friends
    nav = bob.evaluate("() => [document.getElementById('nav').scrollWidth, document.getElementById('nav').clientWidth]")
    assert nav[0] <= nav[1], nav
    bob.locator('#nav [data-nav="profile"]').click()
    bob.locator('section.profile [data-action="open-friends"]').click()
    bob.locator(f'{friend_row(bob, "annie")} [data-action="remove-friend"]').click()
    bob.locator('[data-action="confirm-remove"]').click()
    expect(bob.locator("section.friends .friends-none")).to_be_visible()
    expect(ann.locator("section.friends .friends-none")).to_be_visible()
    # ann asks again; bob blocks her from the request: her next request is refused, worded, until he unblocks
    ann.fill('.friend-add input[name="friend"]', "bobby")
    ann.locator('[data-action="add-friend"]').click()
    expect(bob.locator(".friend-requests li.friend .fname")).to_have_text("annie")
    bob.locator('.friend-requests [data-action="block-friend"]').click()
    expect(bob.locator(".friend-blocked li.friend .fname")).to_have_text("annie")
    expect(bob.locator(".friend-requests")).to_have_count(0)
    ann.fill('.friend-add input[name="friend"]', "bobby")
    ann.locator('[data-action="add-friend"]').click()
    expect(ann.locator(".toast.error", has_text="bobby 不接受你的好友申请")).to_be_visible()
    # at the table they share, her quick chat is muted for him
    for p in (ann, bob):
        p.locator("#nav .table-link").click()
        expect(table(p)).to_be_visible()
    her_seat = table(ann).get_attribute("data-you")

    def chat_from_ann() -> None:
        ann.locator('.tablev.live [data-action="chat"]').click()
        ann.locator('.chat-pop [data-phrase="good_luck"]').click()
        expect(ann.locator(f'.chat-bubble[data-seat="{her_seat}"]')).to_contain_text("祝大家好运")

    chat_from_ann()
    bob.wait_for_timeout(1500)  # (her phrase reaches his page within this: it kept it before muting)
    assert bob.evaluate(f"() => window.qipai.store.chats.filter((c) => c.seat === {her_seat}).length") == 0
    expect(bob.locator(f'.chat-bubble[data-seat="{her_seat}"]')).to_have_count(0)
    bob.locator('#nav [data-nav="profile"]').click()
    bob.locator('section.profile [data-action="open-friends"]').click()
    bob.locator('.friend-blocked [data-action="unblock-friend"]').click()
    expect(bob.locator(".friend-blocked")).to_have_count(0)
    # unblocked, he hears her again: a phrase said while his page was elsewhere shows when he opens the table
    ann.wait_for_timeout(2500)  # (quick chat is rate-limited)
    chat_from_ann()
    bob.locator("#nav .table-link").click()
    expect(bob.locator(f'.chat-bubble[data-seat="{her_seat}"]')).to_contain_text("Good luck")
    for p in (ann, bob):
        p.context.close()
    assert not ann_errors and not bob_errors, (ann_errors, bob_errors)


def test_a_guest_is_told_to_save_the_account_first(browser: Browser, server: ThreadServer) -> None:
    page, errors = new_page(browser, "zh")
    as_guest(page, server.url)
    page.goto(server.url + "/#/friends")
    expect(page.locator("section.friends .guest-note")).to_have_text("游客不能加好友：先保存为正式账号。")
    expect(page.locator(".friend-add")).to_have_count(0)
    page.context.close()
    assert not errors, errors


def test_people_played_with_are_offered_and_asked_in_one_click(browser: Browser, server: ThreadServer) -> None:
    """最近同桌: three accounts play a deal together (over the protocol), then one opens the friends page in the
    browser: the others are offered, one click asks one of them and one click blocks the other (a stranger's quick
    chat at the table could be muted from nowhere: the page blocked only friends and those who asked)."""
    play_a_deal_together(server, ["cathy", "dave", "eddy"])
    page, errors = new_page(browser, "en")
    log_in(page, server.url, "cathy")
    expect(table(page)).to_be_visible()  # (back at the table they played at)
    page.locator('#nav [data-nav="friends"]').click()
    row = page.locator('.friend-recent li.friend:has(.fname:text-is("dave"))')
    expect(row).to_be_visible()
    row.locator('[data-action="add-recent"]').click()
    expect(page.locator(".toast", has_text="Friend request sent")).to_be_visible()
    expect(page.locator(".friend-outgoing li.friend .fname")).to_have_text("dave")
    page.locator('.friend-recent li.friend:has(.fname:text-is("eddy")) [data-action="block-recent"]').click()
    expect(page.locator(".toast", has_text="eddy is blocked")).to_be_visible()
    expect(page.locator(".friend-blocked li.friend .fname")).to_have_text("eddy")
    assert page.evaluate("() => [...window.qipai.store.blocked].length") == 1  # (his quick chat muted here too)
    expect(page.locator(".friend-recent")).to_have_count(0)
    page.context.close()
    assert not errors, errors


def test_the_lobby_puts_a_friends_table_first_and_names_him(browser: Browser, server: ThreadServer) -> None:
    async def friends_and_a_seat() -> str:
        srv = SimpleNamespace(http=server.url, ws=server.url.replace("http", "ws") + "/ws")
        erin, fred = [await Client.register(srv, n) for n in ("erin", "fred")]  # type: ignore[arg-type]
        other = await Client.register(srv, "gina")  # type: ignore[arg-type]
        await other.post("/api/quick-match", {"room": "classic-1"})  # a stranger's table, listed too (first)
        await asyncio.sleep(1.5)  # (bots fill it: the friend's quick match opens another)
        await erin.post("/api/friends", {"name": "fred"}, status=201)
        await fred.post(f"/api/friends/{erin.user['id']}/accept")
        return str((await fred.post("/api/quick-match", {"room": "classic-1"}))["table"])

    with ThreadPoolExecutor(1) as pool:
        table_id = pool.submit(asyncio.run, friends_and_a_seat()).result(timeout=60)
    page, errors = new_page(browser, "zh")
    log_in(page, server.url, "erin")
    expect(page.locator("section.lobby")).to_be_visible()
    expect(page.locator(".ptable")).to_have_count(2)
    first = page.locator(".ptable").first
    expect(first).to_have_attribute("data-table", table_id)
    expect(first.locator(".friend-here")).to_have_text("好友 fred")
    expect(page.locator(".ptable .friend-here")).to_have_count(1)
    shot(page, "lobby-friend-table-zh.png")
    page.context.close()
    assert not errors, errors


def test_a_seated_player_is_not_offered_to_watch_a_friends_table(browser: Browser, server: ThreadServer) -> None:
    """The friends page offers 观战 at a friend's public table to one who sits nowhere, never to one seated: the
    store swapped his own table for the friend's (his deal played on without him) and, once he stopped watching,
    the lobby had no way back to his seat (the lobby's own 观战 buttons are disabled for him already)."""
    async def a_friend_at_a_table() -> None:
        srv = SimpleNamespace(http=server.url, ws=server.url.replace("http", "ws") + "/ws")
        hank, ivy = [await Client.register(srv, n) for n in ("hank", "ivy")]  # type: ignore[arg-type]
        await hank.post("/api/friends", {"name": "ivy"}, status=201)
        await ivy.post(f"/api/friends/{hank.user['id']}/accept")
        await ivy.post("/api/quick-match", {"room": "jj-1"})

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, a_friend_at_a_table()).result(timeout=60)
    page, errors = new_page(browser, "zh")
    log_in(page, server.url, "hank")
    page.locator('#nav [data-nav="friends"]').click()
    watch = page.locator(f'{friend_row(page, "ivy")} [data-action="watch-friend"]')
    expect(watch).to_be_visible()
    page.locator('#nav [data-nav="lobby"]').click()
    page.locator('[data-action="quick-match"][data-room="classic-1"]').click()
    expect(table(page)).to_be_visible()
    page.locator('#nav [data-nav="friends"]').click()
    expect(page.locator(friend_row(page, "ivy"))).to_have_attribute("data-state", "playing")
    expect(watch).to_have_count(0)
    page.context.close()
    assert not errors, errors


def test_a_seats_avatar_opens_the_players_card(browser: Browser, server: ThreadServer) -> None:
    """JJ and 欢乐斗地主 befriend or block a player from his seat; here one had to find him on the friends page. His
    avatar (a button: click, Enter) opens his card — title and points, 加好友, 拉黑 / 解除拉黑 — and a block there
    mutes his quick chat at once."""
    play_a_deal_together(server, ["fay", "gus", "hal"])
    page, errors = new_page(browser, "zh")
    log_in(page, server.url, "fay")
    expect(table(page)).to_be_visible()
    seat = page.locator('.tablev.live .seat:has(.sname:text-is("gus"))')
    seat.locator('[data-action="seat-card"]').click()
    card = page.locator("#seat-card")
    expect(card.locator(".dialog-head h2")).to_have_text("gus")
    expect(card.locator(".seat-card .title-tag")).to_be_visible()
    card.locator('[data-action="seat-add-friend"]').click()
    expect(page.locator(".toast", has_text="已发送好友申请")).to_be_visible()
    expect(card).to_have_count(0)
    other = page.locator('.tablev.live .seat:has(.sname:text-is("hal")) [data-action="seat-card"]')
    other.focus()
    page.keyboard.press("Enter")  # (a button by keyboard too, and Enter plays no cards)
    expect(card.locator(".dialog-head h2")).to_have_text("hal")
    card.locator('[data-action="seat-block"]').click()
    expect(page.locator(".toast", has_text="已拉黑 hal")).to_be_visible()
    hal = page.evaluate("() => window.qipai.store.table.seats.find((s) => s && s.name === 'hal').user_id")
    assert page.evaluate(f"() => window.qipai.store.blocked.has({hal})")
    other.click()
    expect(card.locator('[data-action="seat-unblock"]')).to_be_visible()
    expect(card.locator(".seat-card")).to_contain_text("你已拉黑这个玩家")
    card.locator('[data-action="seat-unblock"]').click()
    expect(page.locator(".toast", has_text="已解除对 hal 的拉黑")).to_be_visible()
    assert not page.evaluate(f"() => window.qipai.store.blocked.has({hal})")
    other.click()
    shot(page, "table-seat-card-zh.png")
    page.context.close()
    assert not errors, errors
