"""Four-deck Shengji (升级) in a real browser against a real server: a player and three bots from quick match in a
``four_deck`` room, a whole hand played with the mouse to the settlement on a desktop and a phone; a declaration
made with a click while the cards are dealt, and the finished hand's replay in Chinese and English.

The room is the ``four_deck`` preset with faster clocks for the test (a 40 ms deal step instead of 150 ms, a
one-second final window, a minute a turn): the pace of a test, the rules of the room.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from qipai.games.shengji.factory import ShengjiFactory
from qipai.host import table as host_table
from qipai.host.settings import default_rooms

from web_helpers import (
    FakeTable,
    ThreadServer,
    as_guest,
    lang_page,
    live_state,
    motion_done,
    shot,
    table,
    version,
    web_settings,
)

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
LANDSCAPE: ViewportSize = {"width": 844, "height": 390}
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE, "landscape": LANDSCAPE}
ROOM = "four_deck-1"
FAST = {"deal_step_ms": 40, "final_declare_s": 1.0, "play_s": 60.0, "first_lead_s": 60.0}


def start(tmp_path: Path, deal_step_ms: int = FAST["deal_step_ms"], **kw: Any) -> ThreadServer:
    fast = {**FAST, "deal_step_ms": deal_step_ms}
    rooms = [replace(r, options={**r.options, **fast}) if r.game == "shengji" else r for r in default_rooms()]
    db = f"sqlite+aiosqlite:///{tmp_path / 'qipai.db'}"
    return ThreadServer(web_settings(db, rooms=rooms, time_scale=1.0, **kw)).start()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    s = start(tmp_path)
    yield s
    s.stop()


@pytest.fixture
def quick_server(tmp_path: Path) -> Iterator[ThreadServer]:
    """For a whole hand: a four-deck hand is some 200 steps of dealing and 160 bot plays, and their clock, not the
    browser, was most of the test's time."""
    s = start(tmp_path, bot_delay=0.03, autoplay_delay=0.03, deal_step_ms=15)
    yield s
    s.stop()


DEAL_SEED = 0x2E5A_61C3_0B7D_94F1
"""The seed of every deal at :func:`quiet_server`'s tables: one that deals seat 0 a level card early (a random
deal leaves a seat without any about once in 150, and then no declaration is ever offered)."""


def first_offer(seed: int, seat: int = 0) -> int | None:
    """How many cards are dealt when ``seat`` is first offered a declaration, in the quick-match room's first deal
    of ``seed`` (``None``: never)."""
    factory = ShengjiFactory()
    room = next(r for r in default_rooms() if r.id == ROOM)
    g = factory.new(factory.options({**room.options, **FAST}), seed, {})
    while g.phase == "deal":
        g._deal_next()
        if any(a.startswith("declare") for a in g.legal_actions(seat)):
            return g.dealt
    return None


@pytest.fixture
def quiet_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadServer]:
    """Quick match fills the seats with the passive bot, which never declares, and every deal's seed is
    :data:`DEAL_SEED`: the player's first level card is always a declaration on offer."""
    monkeypatch.setattr(host_table, "secrets", SimpleNamespace(randbits=lambda bits: DEAL_SEED % (1 << bits)))
    s = start(tmp_path, seat_bot="passive", bot_delay=0.03, autoplay_delay=0.03)  # the hand after the deal: quick
    yield s
    s.stop()


def new_page(browser: Browser, viewport: ViewportSize, lang: str = "zh") -> tuple[Page, list[str]]:
    return lang_page(browser, lang, allowed=(401,), phone=min(viewport["width"], viewport["height"]) < 600,
                     viewport=viewport, locale="zh-CN" if lang == "zh" else "en-US")


def quick_match(page: Page) -> None:
    page.locator(f'[data-action="quick-match"][data-room="{ROOM}"]').click()
    expect(table(page)).to_be_visible(timeout=10_000)
    expect(table(page)).to_have_attribute("data-game", "shengji")


def hand_list(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(".tablev.live .hand .sj-card", "els => els.map(e => e.dataset.card)")
    return cards


def raised(page: Page) -> list[str]:
    sel = ".tablev.live .hand .sj-card.raised"
    cards: list[str] = page.eval_on_selector_all(sel, "els => els.map(e => e.dataset.card)")
    return sorted(cards)


def card_point(page: Page, i: int) -> tuple[float, float]:
    """A point on the visible part of card ``i``: its left strip (cards overlap to the right), its top (rows
    overlap downwards)."""
    box = page.locator(f'.tablev.live .hand .sj-card[data-i="{i}"]').bounding_box()
    assert box is not None
    return box["x"] + 4, box["y"] + min(14.0, box["height"] * 0.2)


def click_card(page: Page, i: int) -> None:
    x, y = card_point(page, i)
    page.mouse.click(x, y)


def drag_cards(page: Page, first: int, last: int) -> None:
    x0, y0 = card_point(page, first)
    x1, y1 = card_point(page, last)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=max(4, (last - first) * 2))
    page.mouse.up()


def click_empty(page: Page) -> None:
    felt = page.locator(".tablev.live .felt").bounding_box()
    assert felt is not None
    page.mouse.click(felt["x"] + felt["width"] / 2, felt["y"] + felt["height"] * 0.55)


def select_cards(page: Page, want: list[str]) -> None:
    """Raise exactly ``want`` with the mouse: a drag over each run of neighbouring cards (a pair, a tractor), a
    click for a lone card."""
    motion_done(page)
    if raised(page):
        click_empty(page)
        expect(page.locator(".tablev.live .hand .sj-card.raised")).to_have_count(0)
    hand = hand_list(page)
    need = list(want)
    picks: list[int] = []
    for i, c in enumerate(hand):
        if c in need:
            need.remove(c)
            picks.append(i)
    assert not need, f"{want} not all in hand {hand}"
    runs: list[list[int]] = []
    for i in picks:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    for run in runs:
        if len(run) == 1:
            click_card(page, run[0])
        else:
            drag_cards(page, run[0], run[-1])
    page.wait_for_function(
        "want => [...document.querySelectorAll('.tablev.live .hand .sj-card.raised')].map(e => e.dataset.card)"
        ".sort().join(' ') === want", arg=" ".join(sorted(want)), timeout=5000)


def wait_turn_or_over(page: Page, timeout: float = 120_000) -> str:
    page.wait_for_function(
        """() => document.querySelector('#settlement .settle') ||
                 document.querySelector('.tablev.live[data-my-turn="1"][data-phase="play"]')""", timeout=timeout)
    return "over" if page.locator("#settlement .settle").count() else "turn"


def wait_version_change(page: Page, old: str) -> None:
    page.wait_for_function(
        "old => { const t = document.querySelector('.tablev.live'); return t && t.dataset.version !== old; }",
        arg=old, timeout=15_000)


def eff_suit(card: str, level: str, trump: str | None) -> str:
    """A card's effective suit as the rules define it (§1): the test's own reading, to pick an illegal follow."""
    if card in ("B", "R") or card[:-1] in (level, "2") or card[-1] == trump:
        return "trump"
    return card[-1]


def check_info_bar(page: Page, obs: dict[str, Any]) -> None:
    """The trump, the level, the banker, both teams' levels and the points are in the top bar."""
    bar = page.locator(".tablev.live .tgame")
    expect(bar.locator('[data-info="trump"]')).to_have_attribute("data-suit", obs["trump"])
    expect(bar.locator('[data-info="level"]')).to_have_attribute("data-level", obs["level"])
    expect(bar.locator('[data-info="banker"]')).to_have_attribute("data-seat", str(obs["banker"]))
    expect(bar.locator('[data-info="levels"] .tl')).to_have_count(2)
    expect(bar.locator('[data-info="points"]')).to_have_attribute("data-attackers", str(obs["points"]["attackers"]))


@pytest.mark.parametrize("viewport", ["desktop", "phone", "landscape"])
def test_a_whole_hand_with_the_mouse_to_the_settlement(browser: Browser, quick_server: ThreadServer,
                                                      viewport: str) -> None:
    server = quick_server
    vp = VIEWPORTS[viewport]
    whole = viewport == "desktop"  # the phone layouts play by mouse until every check is done, then 托管
    page, errors = new_page(browser, vp)
    as_guest(page, server.url)
    expect(page.locator(f'[data-action="quick-match"][data-room="{ROOM}"]')).to_be_enabled()
    quick_match(page)
    # the deal: the cards arrive one by one, the top bar says how many and who declared
    expect(page.locator('.tablev.live [data-info="dealt"]')).to_be_visible(timeout=20_000)
    expect(page.locator(".tablev.live .center-msg.game .msg.phase")).to_contain_text("发牌")
    turns = played = 0
    checked_toggle = checked_count = checked_illegal = checked_last = False
    shot_taken = False
    while True:
        if wait_turn_or_over(page) == "over":
            break
        st = live_state(page)
        assert st is not None and st["legal"], st
        obs = st["observation"]
        hand = obs["hand"].split()
        expect(page.locator(".tablev.live .hand .sj-card")).to_have_count(len(hand))
        if turns == 0:
            assert len(hand) == 54
            # the hand: trumps first and apart, then the off suits in groups
            groups = page.eval_on_selector_all(".tablev.live .hand .sj-card", "els => els.map(e => e.dataset.group)")
            assert groups[0] == "T", groups[:3]
            seen: list[str] = []
            for g in groups:
                if not seen or seen[-1] != g:
                    seen.append(g)
            assert len(seen) == len(set(seen)), f"a suit's cards are not together: {seen}"
            trumps = [c for c, g in zip(hand_list(page), groups, strict=True) if g == "T"]
            assert all(eff_suit(c, obs["level"], obs["trump"]) == "trump" for c in trumps), trumps
            assert sorted(hand_list(page)) == sorted(hand)
            check_info_bar(page, obs)
        lead = obs["lead"]
        if not checked_toggle:
            # a click raises a card, a second click lowers it
            click_card(page, 0)
            assert len(raised(page)) == 1
            click_card(page, 0)
            assert raised(page) == []
            # a drag over neighbouring cards raises them all (a tractor's cards sit side by side), a second drag
            # over them lowers them all
            drag_cards(page, 0, 5)
            assert raised(page) == sorted(hand_list(page)[:6])
            drag_cards(page, 0, 5)
            assert raised(page) == []
            checked_toggle = True
        if lead and lead["n"] >= 2 and not checked_count:
            select_cards(page, [hand[0]])
            expect(page.locator('.tablev.live [data-action="play"]')).to_be_disabled()
            expect(page.locator("#play-reason")).to_contain_text(f"要出 {lead['n']} 张")
            checked_count = True
        if lead and lead["n"] == 1 and not checked_illegal:
            led = [c for c in hand if eff_suit(c, obs["level"], obs["trump"]) == lead["suit"]]
            other = [c for c in hand if eff_suit(c, obs["level"], obs["trump"]) != lead["suit"]]
            if led and other:
                # a card of another suit while holding the led suit: the server's check says no, in words
                select_cards(page, [other[0]])
                btn = page.locator('.tablev.live [data-action="play"]')
                expect(btn).to_have_attribute("data-reason", "reason_illegal")
                expect(btn).to_be_disabled()
                expect(page.locator("#play-reason")).to_contain_text("不能这样出")
                old = version(page)
                felt = page.locator(".tablev.live .felt").bounding_box()
                assert felt is not None
                page.mouse.click(felt["x"] + 20, felt["y"] + felt["height"] / 2, button="right")  # sends nothing
                page.wait_for_timeout(200)
                assert version(page) == old and raised(page) == [other[0]]
                click_empty(page)
                checked_illegal = True
        if obs["last_trick"] and not checked_last:
            page.locator('.tablev.live [data-action="last-trick"]').click()
            dlg = page.locator("#last-trick-dialog")
            expect(dlg.locator(".pt-row")).to_have_count(4)
            expect(dlg).to_contain_text("赢了这一轮")
            expect(dlg.locator(f'.pt-row[data-seat="{obs["last_trick"]["winner"]}"] .sj-won')).to_be_visible()
            dlg.locator("button").last.click()
            expect(dlg).to_have_count(0)
            checked_last = True
        # the play: the server's first legal play (its passive choice), raised with the mouse
        cards = st["legal"][0][5:].split()
        select_cards(page, cards)
        btn = page.locator('.tablev.live [data-action="play"]')
        expect(btn).to_be_enabled()
        if not shot_taken and turns >= 3:
            shot(page, f"shengji-table-{viewport}.png")
            shot_taken = True
        old = version(page)
        if turns % 2:
            felt = page.locator(".tablev.live .felt").bounding_box()
            assert felt is not None
            page.mouse.click(felt["x"] + felt["width"] / 2, felt["y"] + felt["height"] * 0.5, button="right")
        else:
            btn.click()
        wait_version_change(page, old)
        turns += 1
        played += len(cards)
        if not whole and shot_taken and checked_toggle and checked_last and (checked_count or checked_illegal):
            # every check is done: the rest of the hand in auto-play (托管), the desktop plays it all by mouse
            page.locator('.tablev.live [data-action="autoplay"]').click()
            expect(table(page)).to_have_attribute("data-autoplay", "1")
            break
    assert checked_toggle and checked_last and (checked_count or checked_illegal)
    dlg = page.locator("#settlement")
    if whole:
        assert played == 54, (turns, played)  # every card of the hand was played by this player's mouse
    expect(dlg).to_be_visible(timeout=60_000)
    out = page.evaluate("() => window.qipai.store.dealOver && window.qipai.store.dealOver.outcome")
    assert out and out["score"] is not None
    expect(dlg.locator('.factor[data-name="points"] b')).to_have_text(str(out["attackers_points_before_last"]))
    expect(dlg.locator('.factor[data-name="kou_di"]')).to_contain_text("扣底")
    expect(dlg.locator('.factor[data-name="score"] b')).to_have_text(str(out["score"]))
    expect(dlg.locator(".sj-change")).to_contain_text("级")
    for team in (0, 1):
        row = dlg.locator(f'.sj-levels tr[data-team="{team}"]')
        expect(row).to_have_attribute("data-after", out["new_levels"][team])
    expect(dlg.locator(".settle-table tbody tr")).to_have_count(4)
    mine = out["scores"][0]
    expect(dlg.locator('.settle-table tr[data-seat="0"] td.delta')).to_have_text(f"+{mine}" if mine > 0 else str(mine))
    expect(dlg.locator(".settle-head .big")).to_have_text("你们赢了" if out["won"][0] else "你们输了")
    shot(page, f"shengji-settlement-{viewport}.png")
    assert not errors, errors
    page.context.close()


def test_a_declaration_during_the_deal_and_the_replay(browser: Browser, quiet_server: ThreadServer) -> None:
    server = quiet_server
    dealt = first_offer(DEAL_SEED)
    assert dealt is not None and dealt < 100, f"DEAL_SEED must deal seat 0 a level card early, not at {dealt}"
    page, errors = new_page(browser, DESKTOP)
    as_guest(page, server.url)
    quick_match(page)
    # the first level card dealt to the player offers 亮 (declare): one click declares
    btn = page.locator(".tablev.live .act-main .sj-declare").first
    expect(btn).to_be_visible(timeout=30_000)
    declared = None
    for _ in range(40):
        st = live_state(page)
        if st and st["observation"].get("my_declarations"):
            break
        if st and st["observation"]["phase"] not in ("deal", "final"):
            break
        try:
            b = page.locator(".tablev.live .act-main .sj-declare").first
            declared = b.get_attribute("data-declare", timeout=2000)
            b.click(timeout=2000)
        except Exception:  # the window closed and the offer changed: the next one
            pass
        page.wait_for_timeout(150)
    st = live_state(page)
    assert st is not None
    mine = st["observation"]["my_declarations"]
    assert mine, "the declaration did not reach the server"
    assert declared is not None
    seat = st["you"]
    mine_el = page.locator(".tablev.live .me-game .sj-decl.mine").first
    expect(mine_el).to_be_visible()
    expect(mine_el).to_contain_text("你亮了")
    assert any(d[0] == seat for d in st["observation"]["declarations"])
    level = st["observation"]["level"]
    assert declared is not None and all(c[:-1] == level for c in mine[0][1].split()), mine
    # the others see only who declared and how many (the top bar names the standing declaration while dealing)
    if st["observation"]["phase"] in ("deal", "final"):
        expect(page.locator('.tablev.live [data-info="trump"]')).to_contain_text(re.compile("叫主|♠|♥|♣|♦"))
    # the rest of the hand in auto-play (托管)
    page.wait_for_function("() => document.querySelector('.tablev.live').dataset.phase === 'play'", timeout=60_000)
    st = live_state(page)
    assert st is not None
    obs = st["observation"]
    assert obs["revealed"] is not None
    if obs["revealed"]["seat"] == seat:
        expect(page.locator('.tablev.live [data-info="trump"]')).to_have_attribute("data-suit", obs["trump"])
        assert mine[-1][1] == obs["revealed"]["cards"]
    page.locator('.tablev.live [data-action="autoplay"]').click()
    expect(page.locator("#settlement .settle")).to_be_visible(timeout=120_000)
    deal_id = page.evaluate("() => window.qipai.store.dealOver.deal")
    page.locator('#settlement [data-action="ready"], #settlement [data-action="continue"]').first.click()
    # the profile lists the hand with a replay link
    page.goto(server.url + "/#/profile")
    link = page.locator('.history-table [data-action="replay"]').first
    expect(link).to_be_visible()
    resp = page.request.get(f"{server.url}/api/deals/{deal_id}/replay")
    assert resp.ok
    size = len(resp.body())
    rep = json.loads(resp.body())
    steps = rep["steps"]
    assert size < 3_000_000, f"the replay payload is {size} bytes"
    assert resp.headers.get("content-encoding") == "gzip", resp.headers
    k = next(i for i, s in enumerate(steps) if s["seat"] == seat and str(s["action"]).startswith("declare"))
    link.click()
    rt = page.locator(".replay .tablev.replay")
    expect(rt).to_be_visible(timeout=30_000)
    expect(rt).to_have_attribute("data-phase", "deal")
    slider = page.locator('.replay-controls input[type="range"]')
    assert int(slider.get_attribute("max") or 0) == len(steps) - 1
    slider.fill(str(k))
    # every seat's hand face up (after the hand everything is public), as it stood at that step
    for other in range(4):
        if other != seat:
            n = steps[k]["observation"]["hand_sizes"][other]
            expect(rt.locator(f'.seat[data-seat="{other}"] .sj-shown .sj-card')).to_have_count(n)
    expect(rt.locator(".hand .sj-card")).to_have_count(steps[k]["observation"]["hand_sizes"][seat])
    what = page.locator(".step-what")
    expect(what).to_contain_text("叫主")
    cap = what.inner_text()
    assert re.search(r"[♠♥♣♦]", cap), cap
    assert not re.search(r"\b(declare|pass|play)\b", cap), cap
    # the play: captions name the cards and who won each trick
    p = next(i for i, s in enumerate(steps) if str(s["action"]).startswith("play"))
    slider.fill(str(p))
    expect(what).to_contain_text("出")
    shot(page, "shengji-replay-play.png")
    t = next(i for i, s in enumerate(steps) if len(s["observation"]["tricks"]) == 1)
    slider.fill(str(t))
    expect(what).to_contain_text("赢这一轮")
    page.locator('[data-action="last"]').click()
    expect(rt).to_have_attribute("data-phase", "over")
    shot(page, "shengji-replay.png")
    # in English
    page.evaluate("() => localStorage.setItem('qipai.lang', 'en')")
    page.reload()
    expect(rt).to_be_visible(timeout=30_000)
    slider.fill(str(k))
    expect(what).to_contain_text("declares")
    slider.fill(str(t))
    expect(what).to_contain_text("won the trick")
    assert not errors, errors
    page.context.close()


def test_leaving_while_dealing_then_a_new_table_says_nothing_of_the_old_one(browser: Browser,
                                                                           server: ThreadServer) -> None:
    """A player leaves the Shengji table while its cards are dealt (you left the table: said in the lobby) and
    quick-matches mahjong at once: the new table does not greet the player with 你离开了牌桌, which was about the
    table left (the toast once stayed its 3.5 s over the new table)."""
    page, errors = new_page(browser, PHONE)
    as_guest(page, server.url)
    quick_match(page)
    expect(table(page)).to_have_attribute("data-phase", "deal", timeout=20_000)
    page.locator('.tablev.live [data-action="leave"]').click()
    page.locator('[data-action="confirm-leave"]').click()
    expect(page.locator("section.lobby")).to_be_visible()
    left = page.locator('#toasts .toast[data-key="left"]')
    expect(left).to_have_text("你离开了牌桌")
    page.locator('[data-action="quick-match"][data-room="daqing-1"]').click()
    expect(table(page)).to_have_attribute("data-game", "mahjong")
    assert left.count() == 0, left.all_inner_texts()  # at once (waiting would see it end by itself)
    assert not errors, errors
    page.context.close()


def test_a_click_across_a_message_still_counts(browser: Browser, server: ThreadServer) -> None:
    """The table's buttons stay the same elements while messages come (a card dealt every 40 ms here): a press
    before a message and a release after it is still a click.  The buttons were drawn anew by every message, so the
    release fell on a new button and the click was lost (托管 clicked while the bots played did nothing, now and
    then, and a CI run's 托管 never came on)."""
    page, errors = new_page(browser, DESKTOP)
    as_guest(page, server.url)
    quick_match(page)
    expect(table(page)).to_have_attribute("data-phase", "deal", timeout=20_000)
    buttons = ["autoplay", "chat", "history", "result", "sound", "leave", "last-trick"]
    marked = page.evaluate("""names => names.filter((n) => {
        const b = document.querySelector(`.tablev.live [data-action="${n}"]`);
        if (b) b.__same = true;
        return !!b; })""", buttons)
    assert marked == buttons, marked

    def dealt() -> int:
        return int(page.locator('.tablev.live [data-info="dealt"]').get_attribute("data-dealt") or "0")

    def press_across_messages(action: str) -> None:
        page.locator(f'.tablev.live [data-action="{action}"]').hover()
        page.mouse.down()
        before = dealt()
        # two cards dealt, two messages, while it is held (the deal over: more than two)
        page.wait_for_function("""n => { const d = document.querySelector('.tablev.live [data-info="dealt"]');
                                         return !d || +d.dataset.dealt >= n; }""", arg=before + 2, timeout=5000)
        page.mouse.up()

    press_across_messages("autoplay")
    expect(table(page)).to_have_attribute("data-autoplay", "1")
    expect(page.locator('.tablev.live [data-action="autoplay"]')).to_have_text("解除托管")
    press_across_messages("autoplay")
    expect(table(page)).to_have_attribute("data-autoplay", "0")
    assert table(page).get_attribute("data-phase") == "deal"  # all of it while the cards were dealt
    kept = page.evaluate("""names => names.filter((n) =>
        document.querySelector(`.tablev.live [data-action="${n}"]`)?.__same)""", buttons)
    assert kept == buttons, f"drawn anew: {sorted(set(buttons) - set(kept))}"
    assert not errors, errors
    page.context.close()


def test_a_private_table_from_the_lobby_with_a_friend_on_a_phone(browser: Browser, server: ThreadServer) -> None:
    host, host_errors = new_page(browser, DESKTOP)
    as_guest(host, server.url)
    host.locator('select[name="room"]').select_option(ROOM)
    host.locator('select[name="bots"]').select_option("")
    host.locator('[data-action="create"]').click()
    expect(table(host)).to_have_attribute("data-game", "shengji")
    code = host.locator(".tinfo .code").inner_text().strip()
    assert len(code) == 6
    friend, friend_errors = new_page(browser, PHONE, lang="en")
    as_guest(friend, server.url)
    friend.locator('input[name="invite"]').fill(code)
    friend.locator('[data-action="join"]').click()
    expect(table(friend)).to_have_attribute("data-you", "1")
    # the host calls bots into the two empty seats: the deal starts for both, in each one's language
    host.locator('[data-action="fill-bots"]').click()
    for page in (host, friend):
        page.wait_for_function(
            "() => ['deal', 'final', 'play'].includes(document.querySelector('.tablev.live').dataset.phase)",
            timeout=20_000)
    expect(friend.locator('.tablev.live [data-info="level"] .lbl')).to_have_text("Level")
    expect(host.locator('.tablev.live [data-info="level"] .lbl')).to_have_text("级")
    # the whole hand fits the phone's width once dealt, and a tap raises a card
    friend.wait_for_function("() => document.querySelector('.tablev.live').dataset.phase === 'play'", timeout=60_000)
    cards = friend.locator(".tablev.live .hand .sj-card")
    expect(cards).to_have_count(54)
    boxes = [c.bounding_box() for c in cards.all()]
    assert all(b is not None and b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"] + 0.5 for b in boxes)
    assert all(b is not None and b["y"] + b["height"] <= PHONE["height"] + 0.5 for b in boxes)
    x, y = card_point(friend, 0)
    friend.touchscreen.tap(x, y)
    expect(friend.locator(".tablev.live .hand .sj-card.raised")).to_have_count(1)
    friend.touchscreen.tap(x, y)
    expect(friend.locator(".tablev.live .hand .sj-card.raised")).to_have_count(0)
    # a raised card of a lower row leaves the index (rank and suit) of every card of the row above in sight
    covered = friend.evaluate("""() => {
      const rows = [...document.querySelectorAll('.tablev.live .sj-hand .sj-row')];
      if (rows.length < 2) return 'one row';
      for (const c of rows[1].querySelectorAll('.sj-card')) { c.style.transition = 'none'; c.classList.add('raised'); }
      const hidden = [];
      for (const c of rows[0].querySelectorAll('.sj-card')) {
        const s = c.querySelector('.cs').getBoundingClientRect();
        const at = document.elementFromPoint(s.left + 1, s.bottom - 1);
        if (!at || at.closest('.sj-card') !== c) hidden.push(c.dataset.card);
      }
      for (const c of rows[1].querySelectorAll('.sj-card')) { c.classList.remove('raised'); c.style.transition = ''; }
      return hidden;
    }""")
    assert covered == [], covered
    assert not host_errors and not friend_errors, (host_errors, friend_errors)
    host.context.close()
    friend.context.close()


class ShengjiFakeTable(FakeTable):
    """web_helpers.FakeTable with a real Shengji hand (its observations from the engine) at a four_deck table."""

    def table_view(self, status: str = "playing") -> dict[str, Any]:
        view = super().table_view(status)
        view.update(game="shengji", room=ROOM, options={"preset": "four_deck", "stake": 1})
        return view

    def window(self, answers: dict[int, str]) -> None:
        """The seats' answers to the open window (the others pass, or the window times out), then the state."""
        g = self.game
        for seat, action in answers.items():
            g.apply(action, seat)
        if g.acting:
            g.timeout(g.acting[0])
        self.version += 1


def test_an_overcall_offered_and_sent_from_the_deal_window(browser: Browser, server: ThreadServer) -> None:
    from qipai.games.shengji.game import ShengjiGame

    page, errors = new_page(browser, PHONE)
    as_guest(page, server.url)
    g = ShengjiGame({}, seed=11)
    ft = ShengjiFakeTable(page, g, names=["bot:rule:1", "bot:rule:2", "bot:rule:3", "bot:rule:4"], you=0)
    ft.names[0] = page.evaluate("() => window.qipai.store.user.name")
    ft.open()
    # seat 1 declares with its first level card; seat 0 (the player) waits until it holds two of one level face
    while not any(a.startswith("declare") for a in g.legal_actions(1)):
        ft.window({})
    one = next(a for a in g.legal_actions(1) if a.startswith("declare") and len(a.split()) == 2)
    ft.window({1: one})
    while not any(len(a.split()) == 3 for a in g.legal_actions(0) if a.startswith("declare")):
        ft.window({})
    ft.push_state()
    expect(page.locator('.seat[data-seat="1"] .sj-decl')).to_have_text("叫1张")
    expect(page.locator('.tablev.live [data-info="trump"]')).to_contain_text("叫主 1 张")
    offers = [a for a in g.legal_actions(0) if a.startswith("declare")]
    buttons = page.locator(".tablev.live .act-main .sj-declare")
    expect(buttons).to_have_count(len(offers))
    assert all(len(a.split()) >= 3 for a in offers), offers  # an overcall needs more cards than the standing one
    two = offers[0]
    btn = page.locator(f'.tablev.live .act-main [data-action="{two}"]')
    expect(btn).to_contain_text("反主")
    btn.click()
    sent = ft.sent("action")
    assert [m["action"] for m in sent] == [two], sent
    assert sent[0]["decision"] == g.decision_index(0)
    ft.window({0: two})
    ft.push_state()
    expect(page.locator(".tablev.live .me-game .sj-decl.mine")).to_contain_text("你亮了")
    expect(page.locator('.tablev.live [data-info="trump"]')).to_contain_text("叫主 2 张")
    expect(page.locator(".tablev.live .act-main .sj-declare")).to_have_count(0)  # no overcalling oneself
    assert not errors, errors
    page.context.close()



@pytest.mark.parametrize("lang,size", [("zh", (740, 360)), ("en", (740, 360)), ("zh", (844, 390)),
                                       ("en", (844, 390)), ("zh", (667, 375))])
def test_a_phone_held_sideways_keeps_the_deal_in_sight(browser: Browser, server: ThreadServer, lang: str,
                                                       size: tuple[int, int]) -> None:
    """A phone held sideways, late in the deal, a trump declared (the chip names the declarer): the top bar keeps
    to one line (three lines pushed the hand's second row out of the window), every card of the hand lies in the
    window, its top-left corner (rank and suit) uncovered, and the words of the deal keep off every seat box."""
    from qipai.games.shengji.game import ShengjiGame

    page, errors = new_page(browser, {"width": size[0], "height": size[1]}, lang=lang)
    as_guest(page, server.url)
    g = ShengjiGame({}, seed=11)
    while not any(a.startswith("declare") for a in g.legal_actions(1)):
        g.timeout(g.acting[0])
    g.apply(next(a for a in g.legal_actions(1) if a.startswith("declare") and len(a.split()) == 2), 1)
    while g.phase == "deal" and g.observe(0)["dealt"] < 200:
        g.timeout(g.acting[0])
    assert g.phase == "deal"
    ft = ShengjiFakeTable(page, g, names=["x", "电脑1号", "电脑2号", "电脑3号"], you=0)
    ft.names[0] = page.evaluate("() => window.qipai.store.user.name")
    ft.open()
    live = page.locator(".tablev.live")
    expect(live.locator(".hand .sj-card")).to_have_count(len(g.observe(0)["hand"].split()))
    expect(live.locator('[data-info="trump"]')).to_contain_text("1")
    bar = live.locator(".tbar").bounding_box()
    assert bar is not None and bar["height"] < 40, (size, bar)
    bad = page.evaluate("""() => {
      const out = [];
      for (const c of document.querySelectorAll('.tablev.live .hand .sj-card')) {
        const r = c.getBoundingClientRect();
        if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) {
          out.push(['out of the window', c.dataset.i, r.left, r.top, r.right, r.bottom]);
          continue;
        }
        const hit = document.elementFromPoint(r.left + 4, r.top + 6);
        if (!hit || (hit !== c && !c.contains(hit))) out.push(['covered', c.dataset.i, hit && hit.className]);
      }
      return out;
    }""")
    assert not bad, (size, bad[:5])
    words = live.locator(".center-msg.game").bounding_box()
    assert words is not None
    for seat in live.locator(".seat").all():
        box = seat.bounding_box()
        assert box is not None and not boxes_overlap(words, box), (size, words, box)
    # the site's bar: every button and link within it, on one line, its words whole
    top = page.evaluate("""() => {
      const bar = document.querySelector('#topbar').getBoundingClientRect();
      return [...document.querySelectorAll('#topbar :is(.btn, #nav a, .logo)')].filter((e) => e.offsetParent)
        .map((e) => { const r = e.getBoundingClientRect();
          return [e.textContent.trim(), r.top >= bar.top - 0.5 && r.bottom <= bar.bottom + 0.5,
                  e.scrollWidth <= e.clientWidth + 1, r.height < 34]; })
        .filter(([, inside, whole, line]) => !(inside && whole && line));
    }""")
    assert not top, (size, top)
    shot(page, f"shengji-{lang}-{size[0]}x{size[1]}-sideways-deal.png")
    # the quick chat opens below the site's bar, its last emote reached by scrolling within it, and sent by a tap
    live.locator('[data-action="chat"]').tap()
    pop = page.locator(".chat-pop")
    expect(pop).to_be_visible()
    head, box = page.locator("#topbar").bounding_box(), pop.bounding_box()
    assert head is not None and box is not None and box["y"] >= head["y"] + head["height"] - 0.5, (size, head, box)
    last = pop.locator(".emote").last
    last.scroll_into_view_if_needed()
    phrase = last.get_attribute("data-phrase")
    last.tap()
    assert [m["phrase"] for m in ft.sent("chat")] == [phrase]
    assert not errors, errors
    page.context.close()


def test_the_hand_keeps_its_height_as_the_cards_are_dealt(browser: Browser, server: ThreadServer) -> None:
    """A phone held upright: the hand takes the rows of the whole hand from the first card dealt, so its top (and
    the viewer's bar and the buttons' row above it) does not move up a row each time the hand needs another (a
    tap on 亮 missed); the declarations, more of them as the cards come (up to seven), keep to one row, scrolled
    sideways where they pass the window's width, so 托管 above them stays put too."""
    from qipai.games.shengji.game import ShengjiGame

    page, errors = new_page(browser, PHONE)
    as_guest(page, server.url)
    g = ShengjiGame({}, seed=11)
    for _ in range(12):
        g.timeout(g.acting[0])
    ft = ShengjiFakeTable(page, g, you=0)
    ft.open()
    live = page.locator(".tablev.live")
    tops = []
    while g.phase == "deal":
        held = len(g.observe(0)["hand"].split())
        expect(live.locator(".hand .sj-card")).to_have_count(held)
        box = live.locator(".hand").bounding_box()
        tool = live.locator('.act-tools [data-action="autoplay"]').bounding_box()
        assert box is not None and tool is not None
        tops.append((held, live.locator(".hand").get_attribute("data-rows"), round(box["y"]), round(tool["y"]),
                     live.locator(".act-main .sj-declare").count()))
        for _ in range(40):
            if g.phase == "deal":
                g.timeout(g.acting[0])
        ft.version += 1
        ft.push_state()
    assert len(tops) >= 5 and tops[0][0] < 10 and tops[-1][0] > 40 and max(t[4] for t in tops) >= 4, tops
    assert len({t[1] for t in tops}) == 1 and len({t[2] for t in tops}) == 1 and len({t[3] for t in tops}) == 1, tops
    # the last declaration, past the window's width, is scrolled to and tapped: it is sent
    last = live.locator(".act-main .sj-declare").last
    last.scroll_into_view_if_needed()
    in_view = last.bounding_box()
    assert in_view is not None and in_view["x"] + in_view["width"] <= PHONE["width"] + 0.5, in_view
    action = last.get_attribute("data-action")
    last.tap()
    assert [m["action"] for m in ft.sent("action")] == [action]
    assert not errors, errors
    page.context.close()


def test_a_declaration_between_two_windows_of_the_deal_stands_and_goes_with_the_next(browser: Browser,
                                                                                     server: ThreadServer) -> None:
    """Between two windows of the deal (no decision open for a moment) the 亮 buttons went and came back as new
    elements, so the keyboard's focus on one was lost, and a click then did nothing.  They stay, the same
    elements; a click between windows is sent with the next window, if it still may be made."""
    from qipai.games.shengji.game import ShengjiGame

    page, errors = new_page(browser, DESKTOP)
    as_guest(page, server.url)
    g = ShengjiGame({}, seed=11)
    ft = ShengjiFakeTable(page, g, you=0)
    ft.open()
    while not any(a.startswith("declare") for a in g.legal_actions(0)):
        ft.window({})
    ft.push_state()
    offer = next(a for a in g.legal_actions(0) if a.startswith("declare"))
    btn = page.locator(f'.tablev.live .act-main [data-action="{offer}"]')
    expect(btn).to_be_enabled()
    btn.focus()
    btn.evaluate("(b) => { b.__same = true; }")
    # the window closes (nobody declares): for a moment no decision is open for the player
    ft.version += 1
    ft.push_state(your_turn=False, legal=None, decision=None)
    expect(btn).to_be_enabled()
    assert btn.evaluate("(b) => b.__same === true && document.activeElement === b")
    page.keyboard.press("Enter")
    assert not ft.sent("action")
    ft.window({})
    ft.push_state()
    assert offer in g.legal_actions(0)
    sent = ft.sent("action")
    assert [m["action"] for m in sent] == [offer] and sent[0]["decision"] == g.decision_index(0), sent
    assert not errors, errors
    page.context.close()

# ---------------------------------------------------------------------------------------------- a table fed by the test
CJK = re.compile(r"[\u3400-\u9fff]")


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """One server for the tests below: they feed the page their own observations (ShengjiFakeTable) or their own
    replay, so nothing is played on it."""
    s = start(tmp_path_factory.mktemp("web-shengji-fake"))
    yield s
    s.stop()


def game_at_play(seed: int = 11) -> Any:
    """A hand dealt to its first lead: every deal window times out (nobody declares; spades are trump)."""
    from qipai.games.shengji.game import ShengjiGame

    g = ShengjiGame({}, seed=seed)
    while g.phase != "play":
        g.timeout(g.acting[0])
    return g


def fake_table(page: Page, g: Any, you: int = 0) -> ShengjiFakeTable:
    ft = ShengjiFakeTable(page, g, you=you)
    ft.open()
    return ft


def failing_throw(g: Any, seat: int) -> str:
    """Two single cards of one plain suit led together (a throw, 甩牌) that another seat can beat: the lowest two
    ranks of a suit the seat holds two ranks of (the throw fails: the server plays the lower card instead)."""
    obs = g.observe(seat)
    hand = obs["hand"].split()
    for suit in "SHCD":
        low = [c for c in reversed(hand) if c.endswith(suit) and eff_suit(c, obs["level"], obs["trump"]) == suit]
        ranks = list(dict.fromkeys(low))
        if len(ranks) >= 2:
            return f"{ranks[0]} {ranks[1]}"
    raise AssertionError(f"no two plain ranks of a suit in {hand}")


def boxes_overlap(a: Any, b: Any) -> bool:
    return bool(a["x"] < b["x"] + b["width"] - 0.5 and b["x"] < a["x"] + a["width"] - 0.5
            and a["y"] < b["y"] + b["height"] - 0.5 and b["y"] < a["y"] + a["height"] - 0.5)


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_no_countdown_while_dealing_and_a_countdown_keeps_off_the_name(browser: Browser, shared: ThreadServer,
                                                                        viewport: str) -> None:
    """While the cards are dealt every seat may declare at every card, and the state's deadline is only the next
    card's (deal_step_ms): no seat is marked as deciding and no countdown shows (every seat once showed a "1" for
    the whole deal).  The final window (最后叫主) is a real deadline: each seat counts it down.  In play the
    countdown of the seat to act keeps off its name — on a phone too, where the seat boxes have no avatar for it to
    sit on (the right seat's covered the first letter of its name)."""
    from qipai.games.shengji.game import ShengjiGame

    page, errors = new_page(browser, VIEWPORTS[viewport])
    as_guest(page, shared.url)
    me = page.evaluate("() => window.qipai.store.user.name")
    names = [me, "Wolfeschlegelsteinhausen", "Aleksandrovna-Konstantinopolskaya", "Maximiliano-Fernández"]
    g = ShengjiGame({}, seed=11)
    ft = ShengjiFakeTable(page, g, you=0, names=names)
    ft.extra_state = {"deadline_ms": 149}  # the next card's, as the server sends it while dealing
    ft.open()
    live = table(page)
    expect(live).to_have_attribute("data-phase", "deal")
    timers = page.locator(".tablev.live .timer.on")
    for _ in range(3):
        expect(timers).to_have_count(0)
        expect(page.locator(".tablev.live .seat.active")).to_have_count(0)
        expect(page.locator(".tablev.live .yourturn")).to_have_count(0)
        ft.window({})
        ft.push_state(deadline_ms=149)
    # the final window: a real one, counted down at every seat that may still declare
    while g.phase == "deal":
        ft.window({})
    ft.push_state(deadline_ms=5000)
    expect(live).to_have_attribute("data-phase", "final")
    expect(page.locator(".tablev.live .seat .timer.on")).to_have_count(3)
    expect(page.locator(".tablev.live .seat .timer.on").first).to_have_text(re.compile(r"^[1-5]$"))
    # in play, the right seat's turn: its countdown is not over its name, and within the window
    g2 = game_at_play()
    while g2.public_acting()[0] != 1:
        s = g2.public_acting()[0]
        g2.apply(g2.legal_actions(s)[0], s)
    ShengjiFakeTable(page, g2, you=0, names=names, table_id="T2", deal=2).open()
    right = page.locator('.tablev.live .seat[data-pos="right"]')
    expect(right).to_have_attribute("data-seat", "1")
    clock = right.locator(".timer.on")
    expect(clock).to_have_text(re.compile(r"^\d+$"))
    shot(page, f"shengji-{viewport}-right-seat-clock.png")
    box = clock.bounding_box()
    # the name's letters (a range over its text: not the box, whose padding may lie under the countdown)
    name = right.locator(".sname").evaluate("""(e) => { const r = document.createRange(); r.selectNodeContents(e);
        const b = r.getBoundingClientRect(); return { x: b.x, y: b.y, width: b.width, height: b.height }; }""")
    assert box is not None and name is not None
    assert not boxes_overlap(box, name), (box, name)
    vp = VIEWPORTS[viewport]
    assert box["x"] >= 0 and box["x"] + box["width"] <= vp["width"], box
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("lang,viewport", [("zh", "desktop"), ("en", "phone")])
def test_a_failed_throw_is_announced_at_the_table(browser: Browser, shared: ThreadServer, lang: str,
                                                  viewport: str) -> None:
    page, errors = new_page(browser, VIEWPORTS[viewport], lang)
    as_guest(page, shared.url)
    g = game_at_play()
    ft = fake_table(page, g)
    seat = g.public_acting()[0]
    assert seat != 0
    g.apply("play " + failing_throw(g, seat), seat)
    failed = g.observe(0)["failed_throws"]
    assert len(failed) == 1 and failed[0]["seat"] == seat, failed
    ft.version += 1
    ft.push_state()
    name = {"zh": f"电脑{seat + 1}号", "en": f"Bot {seat + 1}"}[lang]
    said = {"zh": f"{name} 甩牌失败，罚 10 分", "en": f"{name}: throw failed, 10-point penalty"}[lang]
    toast = page.locator("#toasts .toast", has_text=said)
    expect(toast).to_contain_text(said)
    # the notice lies over the middle of the felt: not over the top bar's points (the penalty it announces is added
    # there at that moment), a seat, or a play
    motion_done(page)
    tb = toast.bounding_box()
    assert tb is not None
    vp = VIEWPORTS[viewport]
    assert tb["x"] >= 0 and tb["x"] + tb["width"] <= vp["width"], tb
    covered = [".tablev.live .tgame .sj-chip", ".tablev.live .seat", ".tablev.live .sj-said.has-play .sj-play",
               ".tablev.live .me-info"]
    for sel in covered:
        for el in page.locator(sel).all():
            b = el.bounding_box()
            assert b is not None and not boxes_overlap(tb, b), (sel, el.inner_text(), tb, b)
    shot(page, f"shengji-{lang}-{viewport}-failed-throw-notice.png")
    # by the thrower's play (the card it was forced to), a mark for as long as the trick is on the table
    mark = page.locator(f'.tablev.live .seat[data-seat="{seat}"] .sj-said .sj-failed')
    expect(mark).to_be_visible()
    expect(mark).to_contain_text("甩牌失败" if lang == "zh" else "Throw failed")
    expect(page.locator(f'.tablev.live .seat[data-seat="{seat}"] .sj-said .sj-card')).to_have_count(1)
    # the next seat plays: no second announcement, the mark stays
    nxt = g.public_acting()[0]
    g.apply(g.legal_actions(nxt)[0], nxt)
    ft.version += 1
    ft.push_state()
    expect(mark).to_be_visible()
    expect(page.locator("#toasts .toast", has_text=said)).to_have_count(1)
    assert not errors, errors
    page.context.close()


def test_an_illegal_lead_says_why_in_chinese(browser: Browser, shared: ThreadServer) -> None:
    """A lead of two suits: the server's check says why (in English, from the rules); the Chinese player reads the
    reason in Chinese, with the cards it names — not just 规则不允许."""
    from qipai.core.game import IllegalAction

    page, errors = new_page(browser, DESKTOP, "zh")
    as_guest(page, shared.url)
    g = game_at_play()
    seat = g.public_acting()[0]
    obs = g.observe(seat)
    hand = obs["hand"].split()
    h_card = next(c for c in hand if c.endswith("H") and eff_suit(c, obs["level"], obs["trump"]) == "H")
    d_card = next(c for c in hand if c.endswith("D") and eff_suit(c, obs["level"], obs["trump"]) == "D")
    before = g.observe(seat)
    with pytest.raises(IllegalAction) as e:
        g.apply(f"play {h_card} {d_card}", seat)
    assert g.observe(seat) == before
    reason = str(e.value)
    assert reason.startswith("a lead must be of one effective suit"), reason
    page.route("**/api/tables/*/check", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps({"legal": False, "reason": reason})))
    ft = ShengjiFakeTable(page, g, you=seat)
    ft.open()
    select_cards(page, [h_card, d_card])
    btn = page.locator('.tablev.live [data-action="play"]')
    expect(btn).to_have_attribute("data-reason", "reason_illegal")
    why = page.locator("#play-reason")
    expect(why).to_contain_text("不能这样出：首家出的牌要是同一门")
    expect(why).to_contain_text("是红桃")
    expect(why).to_contain_text("是方块")
    assert not re.search(r"[A-Za-z]{3,}", why.inner_text()), why.inner_text()
    assert not errors, errors
    page.context.close()


def test_a_card_picked_from_the_keyboard_is_led(browser: Browser, shared: ThreadServer) -> None:
    """Without a mouse a player could lead only what 提示 raised: ← → ring a card (said by its name), Space raises
    it, ↓ lowers it, and Enter leads the raised card."""
    page, errors = new_page(browser, DESKTOP, "en")
    as_guest(page, shared.url)
    g = game_at_play()
    seat = g.public_acting()[0]
    ft = fake_table(page, g, you=seat)
    cards = page.locator(".tablev.live .sj-hand .sj-card")
    expect(cards.first).to_be_attached()
    for key in ("ArrowLeft", "ArrowRight", "ArrowRight"):  # from nowhere ← rings the last card; → stays there
        page.keyboard.press(key)
    last = cards.count() - 1
    ring = page.locator(".tablev.live .sj-hand .sj-card.kbd-cursor")
    expect(ring).to_have_attribute("data-i", str(last))
    page.keyboard.press("ArrowLeft")
    expect(ring).to_have_attribute("data-i", str(last - 1))
    card = ring.get_attribute("data-card")
    expect(page.locator(".tablev.live .hand-said")).to_have_text(ring.get_attribute("aria-label") or "?")
    page.keyboard.press(" ")
    expect(page.locator(".tablev.live .sj-hand .sj-card.raised")).to_have_count(1)
    page.keyboard.press("ArrowDown")
    expect(page.locator(".tablev.live .sj-hand .sj-card.raised")).to_have_count(0)
    page.keyboard.press(" ")
    expect(page.locator(".tablev.live .hand-said")).to_contain_text("raised")
    page.keyboard.press("Enter")
    page.wait_for_function("() => (window.__sent || []).some((m) => m.type === 'action')")
    assert [m["action"] for m in ft.sent("action")] == [f"play {card}"], ft.sent("action")
    assert not errors, errors
    page.context.close()


def test_the_other_seats_plays_and_the_tricks_won_are_said_to_a_screen_reader(browser: Browser,
                                                                               shared: ThreadServer) -> None:
    """The others' plays were only drawn on the felt: each is said with the seat's name in the table's polite live
    region, and who won a trick when it ends (the page's own plays are not repeated)."""
    page, errors = new_page(browser, DESKTOP, "zh")
    as_guest(page, shared.url)
    g = game_at_play()
    lead = g.public_acting()[0]
    ft = fake_table(page, g, you=(lead + 3) % 4)  # the page plays last to the first trick
    heard = page.locator(".tablev.live .table-heard[aria-live=polite]")
    expect(heard).to_have_text("")
    for k in range(4):
        seat = g.public_acting()[0]
        ft.apply(g.legal_actions(seat)[0])
        if k < 3:
            expect(heard).to_have_text(re.compile(r"：出 \S+$"))
    expect(heard).to_have_text(re.compile(r"赢这一轮（\d+ 分）$"))
    assert heard.inner_text().count("：出") == 0, heard.inner_text()  # the last play was the page's own
    assert not errors, errors
    page.context.close()


def finished_game(seed: int = 11) -> Any:
    g = game_at_play(seed)
    while g.phase != "over":
        s = g.public_acting()[0]
        g.apply(g.legal_actions(s)[0], s)
    return g


def test_the_english_settlement_names_titles_in_english(browser: Browser, shared: ThreadServer) -> None:
    page, errors = new_page(browser, DESKTOP, "en")
    as_guest(page, shared.url)
    ft = fake_table(page, finished_game())
    ft.version += 1
    ft.push_state()
    ft.deal_over(title="上等兵")
    dlg = page.locator("#settlement")
    expect(dlg.locator(".settle-table tbody tr")).to_have_count(4)
    standing = dlg.locator(".settle-table .standing-after")
    expect(standing.first).to_contain_text("Private first class")
    cells = dlg.locator(".settle-table").inner_text()
    assert not CJK.search(cells), cells
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_a_seat_taken_over_by_another_window_is_read_only(browser: Browser, shared: ThreadServer,
                                                           viewport: str) -> None:
    page, errors = new_page(browser, VIEWPORTS[viewport])
    as_guest(page, shared.url)
    g = game_at_play()
    while g.public_acting()[0] != 0:  # the others play until it is the player's turn
        s = g.public_acting()[0]
        g.apply(g.legal_actions(s)[0], s)
    ft = fake_table(page, g)
    live = table(page)
    expect(live).to_have_attribute("data-my-turn", "1")
    expect(page.locator('.tablev.live [data-action="play"]')).to_be_visible()
    ft.emit({"type": "taken_over", "reason": "another_window"})
    # no turn here: no prompt, no clock of one's own, no move, no auto-play switch
    expect(live).to_have_attribute("data-my-turn", "0")
    expect(live).to_have_attribute("data-taken-over", "1")
    expect(page.locator(".tablev.live .yourturn")).to_have_count(0)
    expect(page.locator(".tablev.live .me-timer")).to_have_count(0)
    expect(page.locator('.tablev.live [data-action="play"]')).to_have_count(0)
    expect(page.locator('.tablev.live [data-action="hint"]')).to_have_count(0)
    expect(page.locator('.tablev.live [data-action="autoplay"]')).to_be_disabled()
    page.keyboard.press("h")
    expect(page.locator(".tablev.live .hand .sj-card.raised")).to_have_count(0)
    # the notice and its button hide no seat
    banner = page.locator(".tablev.live .table-banner .taken")
    expect(banner).to_be_visible()
    expect(banner.locator('[data-action="take-over"]')).to_be_visible()
    b = banner.bounding_box()
    assert b is not None
    for box in page.locator(".tablev.live .seat").all():
        sb = box.bounding_box()
        assert sb is not None and not boxes_overlap(b, sb), (box.get_attribute("data-pos"), b, sb)
    vp = VIEWPORTS[viewport]
    assert b["x"] >= 0 and b["x"] + b["width"] <= vp["width"] and b["y"] + b["height"] <= vp["height"], b
    expect(page.locator('.tablev.live [data-action="chat"]')).to_be_in_viewport()
    shot(page, f"shengji-taken-over-{viewport}.png")
    # played here again: the turn is back
    banner.locator('[data-action="take-over"]').click()
    ft.emit({"type": "took_over", "ref": None})
    ft.emit({"type": "snapshot", "table": ft.table_view(), "state": ft.state_view(), "last_result": None, "ref": None})
    expect(live).to_have_attribute("data-my-turn", "1")
    expect(page.locator('.tablev.live [data-action="play"]')).to_be_visible()
    expect(page.locator(".tablev.live .table-banner .taken")).to_have_count(0)
    assert not errors, errors
    page.context.close()


def test_every_play_of_a_trick_is_readable_on_a_phone(browser: Browser, shared: ThreadServer) -> None:
    """The three others have played ten cards each (a tractor led) and it is the player's turn; the others have long
    names: on a phone no seat box and no play covers another, and each lies within the table."""
    page, errors = new_page(browser, PHONE)
    as_guest(page, shared.url)
    g = game_at_play(27)
    leader = g.public_acting()[0]
    you = (leader + 3) % 4
    lead = max((a for a in g.legal_actions(leader) if a.startswith("play ")), key=lambda a: len(a.split()))
    assert len(lead.split()) == 11, lead
    g.apply(lead, leader)
    while g.public_acting()[0] != you:
        s = g.public_acting()[0]
        g.apply(g.legal_actions(s)[0], s)
    names = ["Aleksandrovna-Konstantinopolskaya", "Wolfeschlegelsteinhausen", "Maximiliano-Fernández", "x"]
    names[you] = page.evaluate("() => window.qipai.store.user.name")
    ft = ShengjiFakeTable(page, g, you=you, names=names)
    ft.open()
    motion_done(page)
    others = [s for s in range(4) if s != you]
    els = {}
    for seat in others:
        els[f"seat{seat}"] = page.locator(f'.tablev.live .seat[data-seat="{seat}"]')
        els[f"play{seat}"] = page.locator(f'.tablev.live .seat[data-seat="{seat}"] .sj-said .sj-play')
    expect(els[f"play{others[0]}"].locator(".sj-card")).to_have_count(10)
    shot(page, "shengji-trick-phone.png")
    boxes = {k: v.bounding_box() for k, v in els.items()}
    felt = page.locator(".tablev.live .felt").bounding_box()
    assert felt is not None
    for k, b in boxes.items():
        assert b is not None, k
        assert b["x"] >= felt["x"] - 0.5 and b["x"] + b["width"] <= felt["x"] + felt["width"] + 0.5, (k, b, felt)
    keys = list(boxes)
    for i, a in enumerate(keys):
        for c in keys[i + 1:]:
            if a[4:] == c[4:]:
                continue  # a seat and its own play
            assert not boxes_overlap(boxes[a], boxes[c]), (a, c, boxes[a], boxes[c])
    # the player's own hand and buttons are not covered by the plays
    mine = page.locator('.tablev.live .act-main [data-action="hint"]').bounding_box()
    assert mine is not None
    for seat in others:
        b = boxes[f"play{seat}"]
        assert b is not None and b["y"] + b["height"] <= felt["y"] + felt["height"] + 0.5, (seat, b, felt)
    assert not errors, errors
    page.context.close()


def test_the_ten_is_readable_in_a_full_hand_on_a_desktop(browser: Browser, shared: ThreadServer) -> None:
    page, errors = new_page(browser, DESKTOP)
    as_guest(page, shared.url)
    g = game_at_play()
    fake_table(page, g)
    motion_done(page)
    expect(page.locator(".tablev.live .hand .sj-card")).to_have_count(54)
    clipped = page.evaluate("""() => {
      const out = [];
      for (const c of document.querySelectorAll('.tablev.live .hand .sj-card')) {
        const next = c.nextElementSibling;
        if (!next) continue;
        const cr = c.querySelector('.cr');
        const range = document.createRange();
        range.selectNodeContents(cr);
        const ink = range.getBoundingClientRect();
        if (ink.right > next.getBoundingClientRect().left + 0.5) out.push(c.dataset.card + ' ' + cr.textContent);
      }
      return out;
    }""")
    shot(page, "shengji-hand-desktop.png")
    assert any(c.startswith("T") for c in g.observe(0)["hand"].split())
    assert clipped == [], clipped
    assert not errors, errors
    page.context.close()


def serve_replay(page: Page, shared: ThreadServer, g: Any, deal_id: int, silent: int | None = None
                 ) -> list[dict[str, Any]]:
    """Open the replay of hand ``g`` (seed 11; the player at seat 0, rule bots at the others) as deal ``deal_id``,
    its record and steps served by the test as the server serves them; the steps (``silent``: see replay_of)."""
    me = page.evaluate("() => window.qipai.store.user")
    steps = replay_of(g, silent=silent)
    seats = [{"name": me["name"], "user_id": me["id"], "bot": None}] + [
        {"name": f"bot:rule:{i + 1}", "user_id": None, "bot": "rule"} for i in (1, 2, 3)]
    record = {"id": deal_id, "table_id": "T1", "deal_index": 0, "game": "shengji", "options": g.options, "seed": 11,
              "context": {}, "seats": seats, "status": "over", "outcome": None, "match_id": None, "you": 0}
    replay = {"deal": deal_id, "game": "shengji", "you": 0, "players": seats, "steps": steps, "outcome": None}
    page.route(f"**/api/deals/{deal_id}", lambda r: r.fulfill(status=200, content_type="application/json",
                                                                body=json.dumps(record)))
    page.route(f"**/api/deals/{deal_id}/replay", lambda r: r.fulfill(status=200, content_type="application/json",
                                                                       body=json.dumps(replay)))
    page.goto(f"{shared.url}/#/replay/{deal_id}")
    return steps


def replay_of(g: Any, you: int = 0, silent: int | None = None) -> list[dict[str, Any]]:
    """Steps as the server's replay gives them (server/api.py ``deal_replay``): after each action the viewer's view
    and every seat's own part of its view.  ``g`` is a fresh hand: seat 2 declares with its first level card, the
    others pass; at the first lead the leader throws two cards that fail (甩牌失败); the trick is finished.
    ``silent``: a seat that answers no deal window, each closed by the host's timeout after the others passed (as
    the server records a player who does not declare)."""
    steps: list[dict[str, Any]] = []

    def step(who: int | None, action: str | None) -> None:
        steps.append({"n": len(steps), "seat": who, "action": action, "observation": g.observe(you),
                      "views": [g.observe_parts(s)[1] for s in range(4)]})

    step(None, None)
    declared = False
    while g.phase in ("deal", "final"):
        for s in sorted(g.acting, key=lambda s: s == silent):
            if s == silent:
                g.timeout(s)
                step(s, "timeout")
                break
            a = "pass"
            if not declared and s == 2:
                offers = [x for x in g.legal_actions(s) if x.startswith("declare")]
                if offers:
                    a, declared = offers[0], True
            g.apply(a, s)
            step(s, a)
    leader = g.public_acting()[0]
    a = "play " + failing_throw(g, leader)
    g.apply(a, leader)
    step(leader, a)
    assert g.observe(you)["failed_throws"], "the throw did not fail"
    for _ in range(3):
        s = g.public_acting()[0]
        a = g.legal_actions(s)[0]
        g.apply(a, s)
        step(s, a)
    return steps


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_replay_skips_the_passes_and_tells_the_failed_throw(browser: Browser, shared: ThreadServer,
                                                                 lang: str) -> None:
    """A hand's replay (served by the test, as the server serves it): the heading numbers the hand at its table,
    not by the record's id; the deal shows no live prompt over the cards; 下一步 passes over the seats' passes
    (one stop per card dealt) and a button jumps to the first lead; the failed throw is in the caption."""
    from qipai.games.shengji.game import ShengjiGame

    page, errors = new_page(browser, DESKTOP, lang)
    as_guest(page, shared.url)
    steps = serve_replay(page, shared, ShengjiGame({}, seed=11), 38472)
    rt = page.locator(".replay .tablev.replay")
    expect(rt).to_be_visible()
    heading = page.locator(".replay-head h1")
    expect(heading).to_contain_text("回放 · 第 1 局" if lang == "zh" else "Replay · deal 1")
    expect(heading).to_have_attribute("data-n", "1")
    assert "第 38472 局" not in heading.inner_text() and "deal 38472" not in heading.inner_text()
    # the deal: no "you may declare" over the cards in a replay
    slider = page.locator('.replay-controls input[type="range"]')
    slider.fill("40")
    expect(rt).to_have_attribute("data-phase", "deal")
    expect(rt.locator(".center-msg .msg.phase")).to_have_count(0)
    assert ("可以叫主" if lang == "zh" else "you may declare") not in rt.inner_text()
    # 下一步 from the start: past the passes of the first window, to the card it dealt
    page.locator('.replay-controls [data-action="first"]').click()
    nxt = page.locator('.replay-controls [data-action="next"]')
    stops = []
    for _ in range(4):
        nxt.click()
        stops.append(int(page.locator("section.replay").get_attribute("data-step") or 0))
    dealt = [steps[k]["observation"]["dealt"] for k in stops]
    assert stops[0] > 1 and dealt == sorted(set(dealt)) and len(set(dealt)) == 4, (stops, dealt)
    # straight to the first lead
    skip = page.locator('.replay-controls [data-action="skip-to-play"]')
    expect(skip).to_contain_text("跳到出牌" if lang == "zh" else "Skip to play")
    skip.click()
    expect(rt).to_have_attribute("data-phase", "play")
    k = int(page.locator("section.replay").get_attribute("data-step") or 0)
    assert steps[k]["observation"]["phase"] == "play" and steps[k - 1]["observation"]["phase"] != "play"
    # the failed throw, in the caption and by the play
    nxt.click()
    what = page.locator(".step-what")
    leader = steps[k + 1]["seat"]
    expect(what).to_contain_text("甩" if lang == "zh" else "throw of")
    expect(what).to_contain_text("失败，只能出" if lang == "zh" else "failed")
    expect(what).to_contain_text("罚 10 分" if lang == "zh" else "10-point penalty")
    expect(rt.locator(f'.seat[data-seat="{leader}"] .sj-failed, .myplay .sj-failed')).to_have_count(1)
    # the slider still reaches every step
    assert int(slider.get_attribute("max") or 0) == len(steps) - 1
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_jokers_say_which_they_are_and_a_spectator_sees_the_teams_by_name(browser: Browser, shared: ThreadServer,
                                                                         lang: str) -> None:
    """A joker's corner names it (大/小, BJ/SJ: a bare "J" read as a jack, big and small told apart by colour only);
    a spectator's level chips name each team's players (我方/对方 were seat 0's side)."""
    from qipai.games.shengji.game import ShengjiGame

    page, errors = new_page(browser, DESKTOP, lang)
    as_guest(page, shared.url)
    g = ShengjiGame({}, seed=11)
    while g.phase != "play":
        g.timeout(g.acting[0])
    holder = next(s for s in range(4) if "R" in g.observe(s)["hand"].split() and "B" in g.observe(s)["hand"].split())
    fake_table(page, g, you=holder)
    motion_done(page)
    big = "大" if lang == "zh" else "BJ"
    small = "小" if lang == "zh" else "SJ"
    expect(page.locator('.tablev.live .hand .sj-card.joker.big .cr').first).to_have_text(big)
    expect(page.locator('.tablev.live .hand .sj-card.joker.small .cr').first).to_have_text(small)
    us = "我方" if lang == "zh" else "Us"
    expect(page.locator('.tablev.live .sj-chip.levels')).to_contain_text(us)
    page.context.close()

    page, errors2 = new_page(browser, DESKTOP, lang)
    as_guest(page, shared.url)
    ShengjiFakeTable(page, g, names=["甲", "乙", "丙", "丁"], you=None).open()
    chips = page.locator('.tablev.live .sj-chip.levels .tl')
    expect(chips).to_have_count(2)
    assert {chips.nth(0).inner_text().split()[0], chips.nth(1).inner_text().split()[0]} == {"甲·丙", "乙·丁"}
    expect(page.locator('.tablev.live .sj-chip.levels')).not_to_contain_text(us)
    assert not errors and not errors2, errors + errors2
    page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_illegal_follow_says_why_in_the_players_words(browser: Browser, shared: ThreadServer, lang: str) -> None:
    """The server's reasons for a follow that leaves the led suit, in words with the counts it names — in English
    too, in the client's own sentence (it once repeated the server's after its own: "follow suit while you hold the
    led suit — you hold 19 cards of trumps: play 2 of them")."""
    page, errors = new_page(browser, PHONE if lang == "en" else DESKTOP, lang)
    as_guest(page, shared.url)
    g = game_at_play()
    seat = g.public_acting()[0]
    hand = g.observe(seat)["hand"].split()
    reasons = ["you hold 19 cards of trumps: play 2 of them",
               "you hold only 1 card of spades (fewer than 2): play it and fill up with other cards"]
    said = {
        "zh": ["有同门的牌必须跟同门：你有 19 张主牌，要出其中 2 张",
               "有同门的牌必须跟同门：你只有 1 张黑桃（不到 2 张），要全部出，再用别的牌补足"],
        "en": ["follow suit: you hold 19 trumps, play 2 of them",
               "follow suit: you hold only 1 Spades (fewer than 2), play them all and fill up with other cards"],
    }[lang]
    answer = {"reason": reasons[0]}
    page.route("**/api/tables/*/check", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps({"legal": False, "reason": answer["reason"]})))
    ShengjiFakeTable(page, g, you=seat).open()
    legal = {" ".join(sorted(a.split()[1:])) for a in g.legal_actions(seat) if a.startswith("play ")}
    picks = [[a, b] for a in dict.fromkeys(hand) for b in dict.fromkeys(hand) if a < b
             and " ".join(sorted([a, b])) not in legal][:2]
    why = page.locator("#play-reason")
    for k, reason in enumerate(reasons):
        answer["reason"] = reason
        select_cards(page, picks[k])
        expect(page.locator('.tablev.live [data-action="play"]')).to_have_attribute("data-reason", "reason_illegal")
        expect(why).to_contain_text(said[k])
        text = why.inner_text()
        assert reason not in text and "cards of" not in text and " — " not in text, text
        if lang == "zh":
            assert not re.search(r"[A-Za-z]{3,}", text), text
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("last_points", [0, 20])
def test_the_settlement_says_the_points_once_and_names_the_banker_side(browser: Browser, shared: ThreadServer,
                                                                        lang: str, last_points: int) -> None:
    """The attackers' points before the last trick: the number once, "(before the last trick)" only where the last
    trick (扣底) then changes the tally (it said "闲家抓分 (最后一轮前 320 分) 320").  The role column: 庄家 for the
    banker, 庄家方 for the banker's partner (it said 庄家 for both), 闲家 for the attackers."""
    page, errors = new_page(browser, DESKTOP, lang)
    as_guest(page, shared.url)
    g = finished_game()
    o = g.result
    o["last_trick"] = {**o["last_trick"], "points": last_points, "side": "attackers", "m": 2,
                       "amount": 2 * last_points}
    ft = fake_table(page, g)
    ft.version += 1
    ft.push_state()
    ft.deal_over()
    dlg = page.locator("#settlement")
    points = dlg.locator('.factor[data-name="points"]')
    n = o["attackers_points_before_last"]
    expect(points.locator("b")).to_have_text(str(n))
    label = points.locator("span").inner_text()
    if last_points:
        want = {"zh": "闲家抓分（最后一轮之前）", "en": "Attackers' points (before the last trick)"}[lang]
        assert label == want, label
    else:
        assert label == {"zh": "闲家抓分", "en": "Attackers' points"}[lang], label
    assert str(n) not in label, label
    banker = o["banker"]
    words = {"zh": ("庄家", "庄家方", "闲家"), "en": ("Banker", "Banker side", "Attacker")}[lang]
    for seat in range(4):
        want = words[0] if seat == banker else words[1] if seat % 2 == banker % 2 else words[2]
        expect(dlg.locator(f'.settle-table tr[data-seat="{seat}"] td.role')).to_have_text(want)
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("width", [1280, 1366])
def test_the_replays_plays_keep_off_the_seat_boxes(browser: Browser, shared: ThreadServer, width: int) -> None:
    """A replay shows every hand face up in its seat box, so the top seat's box reaches far down the felt: the left
    and right seats' plays lay on its edges.  At a trick every seat has played, no play covers another seat's box,
    and no two plays cover each other."""
    from qipai.games.shengji.game import ShengjiGame

    page, errors = new_page(browser, {"width": width, "height": 820}, "en")
    as_guest(page, shared.url)
    steps = serve_replay(page, shared, ShengjiGame({}, seed=11), 38473)
    rt = page.locator(".replay .tablev.replay")
    expect(rt).to_be_visible()
    for k in (len(steps) - 2, len(steps) - 1):  # three plays on the table, then all four
        page.locator('.replay-controls input[type="range"]').fill(str(k))
        expect(page.locator("section.replay")).to_have_attribute("data-step", str(k))
        expect(rt.locator(".seat .sj-shown").first).to_be_visible()
        motion_done(page)
        boxes = page.evaluate("""() => {
          const r = (e) => {
            const b = e.getBoundingClientRect();
            return { x: b.x, y: b.y, width: b.width, height: b.height };
          };
          const t = document.querySelector('.tablev.replay');
          return {
            seats: [...t.querySelectorAll('.seat')].map((s) => ({ pos: s.dataset.pos, box: r(s) })),
            plays: [...t.querySelectorAll('.seat .sj-said.has-play, .myplay .sj-said.has-play')].map((p) => ({
              pos: p.closest('.seat')?.dataset.pos || 'bottom', box: r(p) })),
          };
        }""")
        assert len(boxes["plays"]) >= 3, boxes
        for p in boxes["plays"]:
            for s in boxes["seats"]:
                if s["pos"] != p["pos"]:
                    assert not boxes_overlap(p["box"], s["box"]), (k, p, s)
            for q in boxes["plays"]:
                if q["pos"] != p["pos"]:
                    assert not boxes_overlap(p["box"], q["box"]), (k, p, q)
    shot(page, f"shengji-replay-{width}-plays.png")
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("lang,said", [("zh", "：叫1张"), ("en", ": declared 1")])
def test_a_declaration_by_another_seat_is_said_to_a_screen_reader(browser: Browser, shared: ThreadServer,
                                                                  lang: str, said: str) -> None:
    """While the cards are dealt another seat declares (亮主): the felt shows 叫1张 by its box, but a screen
    reader heard nothing of it until the trump was set after the deal (too late to overcall).  The declaration is
    said with the seat's name, once."""
    from qipai.games.shengji.game import ShengjiGame

    page, errors = new_page(browser, DESKTOP, lang)
    as_guest(page, shared.url)
    g = ShengjiGame({}, seed=11)
    ft = ShengjiFakeTable(page, g, you=0)
    ft.open()
    heard = page.locator(".tablev.live .table-heard[aria-live=polite]")
    while not any(a.startswith("declare") for a in g.legal_actions(1)):
        ft.window({})
    ft.push_state()
    one = next(a for a in g.legal_actions(1) if a.startswith("declare") and len(a.split()) == 2)
    ft.window({1: one})
    ft.push_state()
    expect(page.locator('.seat[data-seat="1"] .sj-decl')).to_be_visible()
    expect(heard).to_have_text(re.compile(re.escape(said) + "$"))
    assert heard.inner_text().count(said) == 1, heard.inner_text()
    ft.window({})
    ft.push_state()  # the next card: the declaration is not said again
    page.wait_for_timeout(200)
    assert heard.inner_text().count(said) <= 1, heard.inner_text()
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("when", ["deal", "play"])
def test_a_phone_held_upright_keeps_the_game_chips_to_two_lines(browser: Browser, shared: ThreadServer, lang: str,
                                                                 when: str) -> None:
    """A 360-pixel phone held upright: the game's chips (the trump or the standing declaration, the level, the
    banker, both teams' levels, the points or the cards dealt) keep to two lines of the top bar, in English too
    (they took three or four: the deal's count on a line of its own, a long name pushing the levels down), each
    one whole within the window; a long name is cut short, never the count declared after it."""
    from qipai.games.shengji.game import ShengjiGame

    page, errors = new_page(browser, {"width": 360, "height": 740}, lang)
    as_guest(page, shared.url)
    names = ["x", "Wolfeschlegelsteinhausen", "电脑2号", "Aleksandrovna-Konstantin"]
    g = ShengjiGame({}, seed=11)
    while not any(a.startswith("declare") for a in g.legal_actions(1)):
        g.timeout(g.acting[0])
    g.apply(next(a for a in g.legal_actions(1) if a.startswith("declare") and len(a.split()) == 2), 1)
    while g.phase == "deal" and (when == "play" or g.observe(0)["dealt"] < 150):
        g.timeout(g.acting[0])
    while g.phase != "play" and when == "play":
        g.timeout(g.acting[0])
    ft = ShengjiFakeTable(page, g, you=0, names=names)
    ft.names[0] = page.evaluate("() => window.qipai.store.user.name")
    ft.open()
    live = page.locator(".tablev.live")
    expect(live.locator(".hand .sj-card")).to_have_count(len(g.observe(0)["hand"].split()))
    if when == "deal":
        expect(live.locator('[data-info="trump"]')).to_contain_text("1")
        expect(live.locator('[data-info="dealt"]')).to_be_visible()
    else:
        expect(live.locator('[data-info="points"]')).to_be_visible()
        expect(live.locator('[data-info="banker"]')).to_have_attribute("data-seat", "1")
    chips = page.evaluate("""() => [...document.querySelectorAll('.tablev.live .tgame > .sj-chip')]
      .filter((e) => e.offsetParent).map((e) => { const r = e.getBoundingClientRect();
        return [e.dataset.info, Math.round(r.top), r.left >= 0 && r.right <= innerWidth,
                e.scrollWidth <= e.clientWidth + 1]; })""")
    want = {"trump", "level", "banker", "levels", "dealt" if when == "deal" else "points"}
    assert {c[0] for c in chips} >= want, chips
    tops = sorted(c[1] for c in chips)
    lines = 1 + sum(1 for a, b in pairwise(tops) if b - a > 6)  # (chips of a line: ±1 px)
    assert lines <= 2, (lang, when, chips)
    assert all(c[2] and c[3] for c in chips), (lang, when, chips)
    if when == "deal":  # the declarer's name is cut short, the count after it is read whole
        count = live.locator('[data-info="trump"] b')
        expect(count).to_contain_text("叫主 1 张" if lang == "zh" else "declared 1")
        nm = live.locator('[data-info="trump"] .nm')
        assert nm.evaluate("e => e.scrollWidth > e.clientWidth"), "the long name was not cut short"
    shot(page, f"shengji-{lang}-360x740-{when}-chips.png")
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("lang,size", [("en", (360, 740)), ("zh", (360, 640)), ("en", (390, 844)), ("en", (360, 640))])
def test_a_phone_held_upright_keeps_the_words_of_the_deal_off_the_seats(browser: Browser, shared: ThreadServer,
                                                                         lang: str, size: tuple[int, int]) -> None:
    """A phone held upright while the cards are dealt, another seat's declaration standing (叫1张 under its name)
    and two overcalls offered: the words of the deal (发牌中 · 可以叫主, who declared) keep off every seat box (at
    42% of a felt made short by the declarations' row they lay over them) and within the felt; below it the hint,
    the buttons and the tools keep off each other and the hand."""
    from qipai.games.shengji.game import ShengjiGame

    page, errors = new_page(browser, {"width": size[0], "height": size[1]}, lang)
    as_guest(page, shared.url)
    g = ShengjiGame({}, seed=11)
    while not any(a.startswith("declare") for a in g.legal_actions(3)):
        g.timeout(g.acting[0])
    g.apply(next(a for a in g.legal_actions(3) if a.startswith("declare")), 3)
    while g.observe(0)["dealt"] < 150:
        g.timeout(g.acting[0])
    offers = sum(a.startswith("declare") for a in g.legal_actions(0))
    assert offers >= 2
    ft = ShengjiFakeTable(page, g, you=0)
    ft.open()
    live = page.locator(".tablev.live")
    expect(live.locator('.seat[data-seat="3"] .sj-decl')).to_be_visible()
    expect(live.locator(".act-main .sj-declare")).to_have_count(offers)
    words = live.locator(".center-msg.game").bounding_box()
    felt = live.locator(".felt").bounding_box()
    assert words is not None and felt is not None and words["height"] > 20
    for seat in live.locator(".seat").all():
        box = seat.bounding_box()
        assert box is not None and not boxes_overlap(words, box), (size, words, box)
    assert felt["y"] - 0.5 <= words["y"] and words["y"] + words["height"] <= felt["y"] + felt["height"] + 0.5, \
        (words, felt)
    # the rows below the felt have their room: the declaring hint (two lines in English) over no overcall button,
    # and 托管 and 快捷语 within the window, over no card (at 360 × 640 the hint lay over the buttons and 快捷语 went
    # under the hand)
    hint = live.locator(".reason").bounding_box()
    assert hint is not None and hint["height"] > 10
    for b in live.locator(".act-main button").all():
        box = b.bounding_box()
        assert box is not None and not boxes_overlap(hint, box), (size, hint, box)
    hand = live.locator(".hand").bounding_box()
    assert hand is not None
    for b in live.locator(".act-tools button").all():
        box = b.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[0] + 0.5, (size, box)
        assert box["y"] + box["height"] <= hand["y"] + 0.5, (size, box, hand)
    shot(page, f"shengji-{lang}-{size[0]}x{size[1]}-deal-words.png")
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("lang,timed_out", [("zh", "超时"), ("en", "timed out")])
def test_the_replay_of_a_deal_the_player_let_go_by_says_the_cards_dealt(browser: Browser, shared: ThreadServer,
                                                                        lang: str, timed_out: str) -> None:
    """The player declared nothing while the cards were dealt: each window closed on the host's timeout for his
    seat (the others had passed), as the server records it.  The replay said "你：超时" at every card (a timeout
    there is a pass: declaring is optional, no auto-play); it says the card dealt."""
    from qipai.games.shengji.game import ShengjiGame

    page, errors = new_page(browser, DESKTOP, lang)
    as_guest(page, shared.url)
    steps = serve_replay(page, shared, ShengjiGame({}, seed=11), 38473, silent=0)
    expect(page.locator(".replay .tablev.replay")).to_be_visible()
    assert sum(s["action"] == "timeout" for s in steps) > 200
    nxt = page.locator('.replay-controls [data-action="next"]')
    what = page.locator(".step-what")
    for n in (1, 2, 3):
        nxt.click()
        k = int(page.locator("section.replay").get_attribute("data-step") or 0)
        assert steps[k]["action"] == "timeout" and steps[k]["observation"]["dealt"] == n + 1, (k, steps[k]["action"])
        expect(what).to_have_text(f"发出第 {n + 1} 张" if lang == "zh" else f"card {n + 1} dealt")
    assert timed_out not in what.inner_text()
    assert not errors, errors
    page.context.close()


def test_a_language_switch_keeps_the_raised_cards(browser: Browser, shared: ThreadServer) -> None:
    """The page drawn again in the other language lowered the cards the player had raised mid-turn: they stay."""
    page, errors = new_page(browser, VIEWPORTS["desktop"])
    as_guest(page, shared.url)
    g = game_at_play()
    while g.public_acting()[0] != 0:
        s = g.public_acting()[0]
        g.apply(g.legal_actions(s)[0], s)
    page.route("**/api/tables/*/check", lambda route: route.fulfill(  # the fake table is no server's
        status=200, content_type="application/json", body=json.dumps({"legal": True})))
    fake_table(page, g)
    click_card(page, 0)
    picked = raised(page)
    assert len(picked) == 1
    page.locator("#langbtn").click()
    expect(page.locator("#langbtn")).to_have_text(re.compile("中"))
    expect(page.locator(".tablev.live .hand .sj-card.raised")).to_have_count(1)
    assert raised(page) == picked
    assert not errors, errors
    page.close()
