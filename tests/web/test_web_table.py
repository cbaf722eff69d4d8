"""The Dou Dizhu table in a real browser, fed real engine observations by the test (web_helpers.FakeTable):
what a player sees and hears at each moment of a deal, in Chinese and English, on a desktop and a phone.

One server and one browser serve the whole module; each test gets a freshly loaded page of a logged-in guest.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game

from web_helpers import FakeTable, ThreadServer, as_guest, motion_done, raised_ranks, shot, web_settings

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}

# seat 0: 333 4444 5-K (the test's player); seat 1: the rocket, four 2s, four aces; seat 2: the rest
HANDS = [
    "3S 3H 3C 4S 4H 4C 4D 5S 6S 7S 8S 8H 9S TS JS QS KS",
    "B R 2S 2H 2C 2D AS AH AC AD KH KC KD QH QC QD JH",
    "3D 5H 5C 5D 6H 6C 6D 7H 7C 7D 8C 8D 9H 9C 9D TH TC",
]
KITTY = "TD JC JD"


def deal(preset: str = "classic", first_bidder: int = 0) -> Game:
    return Game.from_deal(PRESETS[preset], HANDS, KITTY, first_bidder=first_bidder)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("web-table") / "qipai.db"
    s = ThreadServer(web_settings(f"sqlite+aiosqlite:///{db}")).start()
    yield s
    s.stop()


class Pages:
    """Logged-in guests, one per (language, viewport, motion), reused across the module's tests."""

    def __init__(self, browser: Browser, server: ThreadServer) -> None:
        self.browser = browser
        self.server = server
        self.pages: dict[tuple[str, str, str], tuple[Page, list[str]]] = {}

    def get(self, lang: str = "zh", viewport: str = "desktop", motion: str = "no-preference") -> Page:
        key = (lang, viewport, motion)
        if key not in self.pages:
            vp = DESKTOP if viewport == "desktop" else PHONE
            phone = viewport == "phone"
            ctx = self.browser.new_context(viewport=vp, locale="zh-CN" if lang == "zh" else "en-US",
                                           is_mobile=phone, has_touch=phone, reduced_motion=motion)  # type: ignore[arg-type]
            ctx.add_init_script(f"localStorage.setItem('qipai.lang', '{lang}')")
            page = ctx.new_page()
            page.set_default_timeout(10_000)
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
            page.on("console", lambda m: errors.append(f"console: {m.text}")
                    if m.type == "error" and "401" not in m.text else None)
            as_guest(page, self.server.url)
            self.pages[key] = (page, errors)
        page, errors = self.pages[key]
        errors.clear()
        # a fresh page: no state left from the last test, no preferences but the language
        page.goto(self.server.url + "/#/lobby")
        page.evaluate("() => { for (const k of Object.keys(localStorage)) "
                      "if (k.startsWith('qipai.u')) localStorage.removeItem(k); }")
        page.reload()
        expect(page.locator("section.lobby")).to_be_visible()
        page.wait_for_function("() => window.qipai && window.qipai.conn.status === 'open' "
                               "&& window.qipai.store.welcomes > 0")
        return page

    def errors(self, page: Page) -> list[str]:
        for p, errs in self.pages.values():
            if p is page:
                return errs
        return []

    def close(self) -> None:
        for page, _ in self.pages.values():
            page.context.close()


@pytest.fixture(scope="module")
def pages(browser: Browser, server: ThreadServer) -> Iterator[Pages]:
    ps = Pages(browser, server)
    yield ps
    ps.close()


def lead_as_landlord(page: Page) -> FakeTable:
    """Seat 0 (the player) bids 3 and leads."""
    ft = FakeTable(page, deal())
    ft.open()
    ft.apply("bid 3")
    return ft


def no_errors(pages: Pages, page: Page) -> None:
    errs = pages.errors(page)
    assert not errs, errs


# ---------------------------------------------------------------------------------------------- 上手牌
@pytest.mark.parametrize("lang,viewport,word", [("zh", "desktop", "不出"), ("en", "phone", "Pass")])
def test_previous_trick_says_pass_in_words(pages: Pages, lang: str, viewport: str, word: str) -> None:
    page = pages.get(lang, viewport)
    ft = lead_as_landlord(page)
    ft.apply("play 3")
    ft.apply("pass")  # seat 1
    ft.apply("play 5")  # seat 2
    ft.apply("pass")  # seat 0
    ft.apply("pass")  # seat 1: the trick is over, seat 2 leads
    page.locator('.tablev.live [data-action="prev-trick"]').click()
    rows = page.locator("#prev-trick-dialog .pt-row")
    expect(rows).to_have_count(5)
    texts = [re.sub(r"\s+", " ", r.inner_text()) for r in rows.all()]
    assert sum(word in x for x in texts) == 3, texts
    # a pass is a word, never cards spelling "p a s s"
    ranks = page.eval_on_selector_all("#prev-trick-dialog .card", "els => els.map(e => e.dataset.rank)")
    assert sorted(ranks) == ["3", "5"], ranks
    no_errors(pages, page)


# ---------------------------------------------------------------------------------------------- 提示
@pytest.mark.parametrize("lang,viewport", [("zh", "desktop"), ("en", "phone")])
def test_hint_follows_the_servers_order(pages: Pages, lang: str, viewport: str) -> None:
    page = pages.get(lang, viewport)
    ft = FakeTable(page, deal())
    ft.open()
    ft.game.apply("bid 3", 0)
    ft.version += 1
    # the server's plan order: a single 5 first, then the straight, bombs last (not the local order)
    ft.push_state(hints=["play 5", "play 56789TJQK", "play 333", "play 4444"])
    hint = page.locator('.tablev.live [data-action="hint"]')
    seen = []
    for _ in range(5):
        hint.click()
        seen.append(raised_ranks(page))
    assert seen == ["5", "56789TJQK", "333", "4444", "5"], seen
    no_errors(pages, page)


def test_hint_without_server_hints_keeps_bombs_and_twos(pages: Pages) -> None:
    page = pages.get()
    g = Game.from_deal(PRESETS["classic"], [
        "4S 4H 4C 4D 8S 8H 2S 2H 5S 6S 7C 9S TS JS QS KS AS",
        "B R 2C 2D AH AC AD KH KC KD QH QC QD JH 3S 3H 3C",
        "3D 5H 5C 5D 6H 6C 6D 7H 7S 7D 8C 8D 9H 9C 9D TH TC"], "TD JC JD", first_bidder=0)
    ft = FakeTable(page, g)
    ft.open()
    ft.apply("bid 3")
    page.locator('.tablev.live [data-action="hint"]').click()
    first = raised_ranks(page)
    assert "4444" not in first and "2" not in first, first
    no_errors(pages, page)



def test_a_focused_buttons_key_is_its_own_and_the_browsers_keys_send_nothing(pages: Pages) -> None:
    """The table's shortcuts (Enter 出牌, P 不出, H 提示) leave alone what is the focused button's or the browser's:
    Enter on a focused 不出 played the cards 提示 had raised, and Ctrl+P (print) sent 不出."""
    page = pages.get()
    ft = FakeTable(page, deal(first_bidder=1))
    ft.open()
    ft.apply("bid 3")
    ft.apply(next(a for a in ft.game.legal_actions(1) if a.startswith("play ") and len(a.split()[1]) == 1))
    ft.apply("pass")
    expect(page.locator('.tablev.live .act-main [data-action="pass"]')).to_be_enabled()
    page.locator('.tablev.live [data-action="hint"]').click()
    raised = raised_ranks(page)
    assert raised
    for chord in ("Control+p", "Alt+p", "Meta+p", "Control+h", "Control+Enter"):
        page.keyboard.press(chord)
    assert raised_ranks(page) == raised and not ft.sent("action"), ft.sent("action")
    # a click on a button leaves Enter the shortcut for 出牌 (the focus is not shown)
    page.locator('.tablev.live [data-action="hint"]').click()
    assert page.evaluate("() => document.activeElement.dataset.action") == "hint"
    page.keyboard.press("Enter")
    sent = [m["action"] for m in ft.sent("action")]
    assert len(sent) == 1 and sent[0].startswith("play "), sent
    # the keyboard moved to 不出: Enter is 不出's
    ft.version += 1
    ft.push_state()
    for _ in range(30):
        if page.evaluate("() => document.activeElement.dataset.action") == "pass":
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert [m["action"] for m in ft.sent("action")][1:] == ["pass"]
    no_errors(pages, page)


def test_cards_picked_one_by_one_from_the_keyboard(pages: Pages) -> None:
    """Without a mouse a player could raise only 提示's cards: ← → move a ring along the hand (said with the card's
    name), Space raises or lowers the ringed card, ↑ raises and ↓ lowers it, a rank's key raises the next lowered
    card of that rank (typed once more with all raised, it lowers them), and Enter plays what is raised."""
    page = pages.get()
    ft = FakeTable(page, deal())
    ft.open()
    ft.apply("bid 3")  # seat 0, the page's, is the landlord and leads
    expect(page.locator('.tablev.live .hand .card[data-i="19"]')).to_be_attached()
    ring = page.locator(".tablev.live .hand .card.kbd-cursor")
    said = page.locator(".tablev.live .hand-said[aria-live=polite]")
    expect(page.locator(".tablev.live .hand")).to_have_attribute("aria-description", re.compile("← →.*空格"))
    page.keyboard.press("ArrowRight")
    expect(ring).to_have_attribute("data-i", "0")
    first = page.locator('.tablev.live .hand .card[data-i="0"]')
    name = first.get_attribute("aria-label")
    assert name
    expect(said).to_have_text(name)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press(" ")
    assert raised_ranks(page) == first.get_attribute("data-rank")
    expect(said).to_have_text(f"{name} · 已选")
    page.keyboard.press("ArrowDown")
    assert raised_ranks(page) == ""
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Escape")
    assert raised_ranks(page) == ""
    for key in "3334":
        page.keyboard.press(key)
    assert raised_ranks(page) == "3334"
    expect(ring).to_have_attribute("data-rank", "4")
    shot(page, "table-keyboard-picked.png")
    page.keyboard.press("3")  # every 3 raised: they come down
    assert raised_ranks(page) == "4"
    for key in "333":
        page.keyboard.press(key)
    page.keyboard.press("Enter")
    sent = [m["action"] for m in ft.sent("action")]
    assert len(sent) == 1 and sorted(c[0] for c in sent[0].split()[1:]) == list("3334"), sent
    no_errors(pages, page)


def test_the_other_seats_moves_are_said_to_a_screen_reader(pages: Pages) -> None:
    """A blind player heard that it was his turn, never what the others had bid or played: each state's new moves
    by the other seats are put, with the seat's name, in a polite live region (his own are not repeated)."""
    page = pages.get()
    ft = FakeTable(page, deal(first_bidder=1))
    ft.open()
    heard = page.locator(".tablev.live .table-heard[aria-live=polite]")
    expect(heard).to_have_text("")  # a table just drawn says nothing of what came before
    ft.apply("bid 3")  # seat 1: the landlord, with the kitty
    expect(heard).to_contain_text("叫 3 分")
    expect(heard).to_contain_text("当地主")
    ft.apply("play B")
    expect(heard).to_have_text(re.compile(r"：出 小王$"))
    ft.apply("pass")
    expect(heard).to_have_text(re.compile(r"：不出$"))
    said = heard.inner_text()
    ft.apply("pass")  # seat 0's own pass (the page's) is not said again
    page.wait_for_timeout(200)
    assert heard.inner_text() == said
    no_errors(pages, page)


def test_the_same_moves_twice_are_said_twice(pages: Pages) -> None:
    """Both farmers passed on the landlord's play, then again on his next: the live region was given the same words
    and a screen reader, hearing no change, said nothing the second time.  The words are read again."""
    page = pages.get()
    ft = FakeTable(page, deal(first_bidder=0))
    ft.open()
    heard = page.locator(".tablev.live .table-heard[aria-live=polite]")
    ft.apply("bid 3")  # seat 0, the page: the landlord
    texts = []
    for _ in range(2):
        g = ft.game
        ft.apply(next(a for a in g.legal_actions(0) if a != "pass" and len(a.split()) == 2))  # a single
        for seat in (1, 2):
            g.apply("pass", seat)
        ft.version += 1
        ft.push_state()
        expect(heard).to_have_text(re.compile(r"：不出；.+：不出"))
        texts.append(heard.evaluate("(e) => e.textContent"))
    assert texts[0] != texts[1] and texts[0].strip() == texts[1].strip(), texts
    no_errors(pages, page)


@pytest.mark.parametrize("lang,dao,fan", [("zh", "：倒", "：反"), ("en", ": Double (倒)", ": Redouble (反)")])
def test_chengdus_doubling_is_said_in_words(pages: Pages, lang: str, dao: str, fan: str) -> None:
    """Chengdu's doubling (倒 反 斡 垒) was said as the server's names: an English screen reader read "Bot: 倒".
    It is said as the table's buttons and bubbles name it, in the player's language."""
    page = pages.get(lang)
    ft = FakeTable(page, deal("chengdu", first_bidder=1), you=0, preset="chengdu")
    ft.open()
    heard = page.locator(".tablev.live .table-heard[aria-live=polite]")
    ft.apply("call")  # seat 1 is the landlord
    ft.apply("double")  # seat 2 doubles (倒)
    expect(heard).to_have_text(re.compile(re.escape(dao) + "$"))
    ft.apply("pass")  # seat 0's own (not said)
    ft.apply("redouble")  # the landlord answers (反)
    expect(heard).to_have_text(re.compile(re.escape(fan) + "$"))
    no_errors(pages, page)


def test_a_new_page_takes_the_focus_and_names_the_window(pages: Pages) -> None:
    """A link followed from the keyboard left the focus on the header's link (a screen reader went on at the old
    place and never heard the new page), and the window's title was 头衔 ("Title": the words' second `title`
    key) on every page: the new page takes the focus, and the title names it and the site."""
    page = pages.get()
    page.goto(page.url.split("#")[0] + "#/lobby")
    expect(page.locator('[data-action="quick-match"]').first).to_be_visible()
    assert page.title() == "大厅 · 棋牌", page.title()
    page.locator('#nav a[data-nav="leaderboard"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.hash === '#/leaderboard' && document.activeElement.id === 'app'")
    assert page.title() == "排行榜 · 棋牌", page.title()
    page.locator("#langbtn").click()  # the same page in English: the focus stays where the click left it
    expect(page.locator('#nav a[data-nav="leaderboard"]')).to_have_attribute("title", "Leaderboard")
    assert page.evaluate("() => document.activeElement.id") == "langbtn"
    assert page.title() == "Leaderboard · qipai", page.title()
    page.locator("#langbtn").click()
    no_errors(pages, page)


def test_a_dialog_takes_the_keyboards_focus_keeps_it_and_gives_it_back(pages: Pages) -> None:
    """历史得分 opened from the keyboard: the focus goes into the dialog (it stayed on the button behind), Tab
    cycles through the dialog's own controls (it went on to the table and the page's header behind), the dialog
    is named by its title, and Escape gives the focus back to 历史得分 (it fell to the page's body)."""
    page = pages.get()
    ft = FakeTable(page, deal())
    ft.open()
    opener = page.locator('.tablev.live [data-action="history"]')
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("#modal-root .dialog")
    expect(dialog).to_be_visible()
    inside = "() => !!document.activeElement.closest('#modal-root .dialog')"
    assert page.evaluate(inside)
    name = dialog.evaluate("(d) => document.getElementById(d.getAttribute('aria-labelledby')).textContent")
    assert name == dialog.locator("h2").inner_text() and name, name
    for key in ["Tab"] * 6 + ["Shift+Tab"] * 6:
        page.keyboard.press(key)
        assert page.evaluate(inside), key
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    assert page.evaluate("() => document.activeElement.dataset.action") == "history"
    # the quick chat's list: Escape closes it and the focus goes back to 快捷语 (it fell to the page)
    page.locator('.tablev.live [data-action="chat"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator(".chat-pop")).to_be_visible()
    page.locator(".chat-pop [data-phrase]").first.focus()
    page.keyboard.press("Escape")
    expect(page.locator(".chat-pop")).to_be_hidden()
    assert page.evaluate("() => document.activeElement.dataset.action") == "chat"
    # a turn is said once to a screen reader, in the page's words
    said = page.locator(".tablev.live .table-said[aria-live=polite]")
    ft.version += 1
    ft.push_state(your_turn=False, legal=None, decision=None)
    expect(said).to_have_text("")
    ft.version += 1
    ft.push_state()
    expect(said).to_have_text(re.compile(r"轮到你"))
    no_errors(pages, page)

# ---------------------------------------------------------------------------------------------- 要不起
def rocket_led(page: Page) -> FakeTable:
    """Seat 1 is landlord and leads the rocket; seat 2 passes: nothing the player holds beats it."""
    ft = FakeTable(page, deal(first_bidder=1))
    ft.open()
    ft.apply("bid 3")
    ft.apply("play BR")
    return ft


@pytest.mark.parametrize("lang,viewport,word", [("zh", "desktop", "要不起"), ("en", "phone", "Can't beat")])
def test_cannot_beat_shows_the_forced_pass(pages: Pages, lang: str, viewport: str, word: str) -> None:
    page = pages.get(lang, viewport)
    ft = rocket_led(page)
    ft.game.apply("pass", 2)
    ft.version += 1
    ft.push_state(forced="pass", forced_in_ms=4000)
    btn = page.locator('.tablev.live .act-main [data-action="pass"]')
    expect(btn).to_contain_text(word)
    expect(page.locator('.tablev.live [data-action="play"]')).to_have_count(0)
    expect(page.locator("#play-reason")).to_contain_text(word)
    expect(page.locator("#play-reason")).to_contain_text(re.compile(r"[1-4]"))
    # the server passes by itself: the page sends nothing while it waits
    page.wait_for_timeout(1500)
    assert not ft.sent("action"), ft.sent("action")
    btn.click()
    assert [m["action"] for m in ft.sent("action")] == ["pass"]
    no_errors(pages, page)


def test_auto_pass_from_a_server_without_forced_moves_and_the_switch(pages: Pages) -> None:
    page = pages.get()
    ft = rocket_led(page)
    ft.apply("pass")  # seat 2; no "forced" in the state: the page passes by itself
    page.wait_for_function("() => window.__sent.some(m => m.type === 'action' && m.action === 'pass')", timeout=4000)
    # switched off (and told to the server), it waits for the player
    page.locator('.tablev.live [data-action="auto-pass"]').click()
    expect(page.locator('.tablev.live [data-action="auto-pass"]')).to_have_attribute("aria-pressed", "false")
    assert ft.sent("prefs")[-1]["auto_pass"] is False
    ft.page.evaluate("() => { window.__sent.length = 0; }")
    ft.push_state()
    page.wait_for_timeout(1800)
    assert not ft.sent("action")
    no_errors(pages, page)


def test_last_card_is_raised_when_the_server_will_play_it(pages: Pages) -> None:
    page = pages.get()
    ft = lead_as_landlord(page)
    ft.push_state(forced="play 3", forced_in_ms=3000)
    assert raised_ranks(page) == "3"
    expect(page.locator("#play-reason")).to_contain_text("最后一张")
    no_errors(pages, page)


# ---------------------------------------------------------------------------------------------- settlement
def chengdu_spring(page: Page, you: int = 0) -> FakeTable:
    """Chengdu: seat 1 calls, seat 2 doubles (倒) and the landlord answers (反); the landlord plays two bombs and
    the rocket and goes out (spring).  Seat 2's multiplier is ×64, seat 0's ×16."""
    ft = FakeTable(page, deal("chengdu", first_bidder=1), you=you, preset="chengdu")
    ft.open()
    for a in ["call", "double", "pass", "redouble", "pass", "play 2222", "pass", "pass", "play AAAA", "pass", "pass",
              "play BR", "pass", "pass", "play JJJQQQKKK", "pass", "pass"]:
        ft.game.apply(a, ft.game.public_acting()[0])
        ft.version += 1
    ft.push_state()
    ft.apply("play T")
    assert ft.game.phase == "over"
    return ft


def cells(page: Page, seat: int) -> dict[str, str]:
    row = page.locator(f'#settlement .settle-table tr[data-seat="{seat}"]')
    return {k: re.sub(r"\s+", " ", row.locator("td." + k).inner_text()).strip() for k in ("mult", "how", "delta")}


@pytest.mark.parametrize("lang,viewport", [("zh", "desktop"), ("en", "phone")])
def test_chengdu_settlement_adds_up_seat_by_seat(pages: Pages, lang: str, viewport: str) -> None:
    page = pages.get(lang, viewport)
    ft = chengdu_spring(page)
    expect(page.locator('.fx[data-fx="spring"]')).to_be_attached()
    ft.deal_over()
    dialog = page.locator("#settlement")
    expect(dialog).to_be_visible()
    bomb, rocket, spring = ("炸弹", "火箭", "春天") if lang == "zh" else ("Bomb", "Rocket", "Spring")
    # the factors every farmer shares, then each farmer's own
    expect(dialog.locator('.factor[data-name="total"]')).to_contain_text("×16")
    f0, f2, lord = cells(page, 0), cells(page, 2), cells(page, 1)
    assert f0["mult"] == f"{bomb}×2 · {bomb}×2 · {rocket}×2 · {spring}×2 = ×16", f0
    assert f2["mult"] == f"{bomb}×2 · {bomb}×2 · {rocket}×2 · {spring}×2 · 倒×2 · 反×2 = ×64", f2
    # every number adds up: a farmer pays stake × bid × own multiplier, the landlord gets their sum
    for f, delta in ((f0, -16), (f2, -64)):
        m = re.fullmatch(r"(\d+) × (\d+) × (\d+) = (\d+)", f["how"])
        assert m, f
        a, b, c, total = map(int, m.groups())
        assert a * b * c == total == -delta and f["delta"] == str(delta)
        factors = [int(x) for x in re.findall(r"×(\d+)", f["mult"])]
        prod = 1
        for x in factors[:-1]:
            prod *= x
        assert prod == factors[-1] == c
    assert lord["how"].endswith("16 + 64 = 80") or lord["how"].endswith("64 + 16 = 80"), lord
    assert lord["delta"] == "+80"
    # each seat's title after the deal in the page's language (the server names it in Chinese: 商人)
    title = "商人" if lang == "zh" else "Merchant"
    expect(dialog.locator(".settle-table .standing-after").first).to_contain_text(title)
    if lang == "en":
        shown = " ".join(dialog.locator(".settle-table .standing-after").all_inner_texts())
        assert not re.search(r"[\u3400-\u9fff]", shown), shown
    shot(page, f"settlement-chengdu-{lang}.png")
    no_errors(pages, page)


def test_settlement_gives_way_to_the_next_deal_and_never_comes_back(pages: Pages) -> None:
    page = pages.get()
    ft = chengdu_spring(page)
    ft.deal_over()
    expect(page.locator("#settlement")).to_be_visible()
    # a language switch while it is open keeps it (the player has not moved on)
    page.evaluate("() => document.getElementById('langbtn').click()")
    expect(page.locator("#settlement")).to_be_visible()
    expect(page.locator("#settlement .settle-head .big")).to_have_text("You lose")
    # the next deal starts: the settlement gives way to the bidding, for good
    ft.next_deal(deal("chengdu", first_bidder=0))
    expect(page.locator("#settlement")).to_have_count(0)
    expect(page.locator('.tablev.live .act-main [data-action="call"]')).to_be_visible()
    page.locator("#langbtn").click()
    expect(page.locator('.tablev.live [data-action="sort"]')).to_have_text("排序")
    page.wait_for_timeout(300)
    expect(page.locator("#settlement")).to_have_count(0)
    no_errors(pages, page)


def test_a_language_switch_keeps_the_raised_cards(pages: Pages) -> None:
    """The page is drawn again in the other language: the cards the player had raised came down with it (a
    player who switched mid-turn had to pick his play again). They stay raised, and 出牌 plays them."""
    page = pages.get()
    ft = lead_as_landlord(page)
    expect(page.locator(".tablev.live .stake")).to_be_visible()
    expect(page.locator(".tablev.live .badge.practice")).to_have_count(0)  # (a table for points says nothing)
    for key in "3334":
        page.keyboard.press(key)
    assert raised_ranks(page) == "3334"
    page.locator("#langbtn").click()
    expect(page.locator('.tablev.live [data-action="sort"]')).to_have_text("Sort")
    assert raised_ranks(page) == "3334"
    expect(page.locator('.tablev.live .act-main [data-action="play"]')).to_be_enabled()
    page.locator("#langbtn").click()
    expect(page.locator('.tablev.live [data-action="sort"]')).to_have_text("排序")
    assert raised_ranks(page) == "3334"
    page.keyboard.press("Enter")
    sent = [m["action"] for m in ft.sent("action")]
    assert len(sent) == 1 and sorted(c[0] for c in sent[0].split()[1:]) == list("3334"), sent
    no_errors(pages, page)


def test_a_closed_settlement_stays_closed_across_a_language_switch(pages: Pages) -> None:
    page = pages.get("en", "phone")
    ft = chengdu_spring(page)
    ft.deal_over()
    page.locator('#settlement [data-action="continue"]').click()
    expect(page.locator("#settlement")).to_have_count(0)
    page.locator("#langbtn").click()
    expect(page.locator('.tablev.live [data-action="history"]')).to_have_text("历史得分")
    page.wait_for_timeout(300)
    expect(page.locator("#settlement")).to_have_count(0)
    # 结果 shows it again on purpose
    page.locator('.tablev.live [data-action="result"]').click()
    expect(page.locator("#settlement")).to_be_visible()
    no_errors(pages, page)


@pytest.mark.parametrize("lang,viewport,word", [("zh", "desktop", "准备"), ("en", "phone", "Next deal")])
def test_ready_step_between_deals(pages: Pages, lang: str, viewport: str, word: str) -> None:
    page = pages.get(lang, viewport)
    ft = chengdu_spring(page)
    ft.extra_table.update(ready=None, ready_deadline_ms=None)
    ft.deal_over()
    ft.push_table(status="playing", ready=[False, True, True], ready_deadline_ms=15_000)
    ready = page.locator('#settlement [data-action="ready"]')
    expect(ready).to_have_text(word)
    # the bots are ready at once
    expect(page.locator('.seat[data-seat="1"] .badge.ready')).to_be_visible()
    ready.click()
    assert ft.sent("ready") == [{"type": "ready", "table": "T1"}]
    expect(page.locator("#settlement")).to_have_count(0)
    ft.push_table(ready=[True, True, True])
    expect(page.locator('.mebar .badge.ready')).to_be_visible()
    no_errors(pages, page)


def test_ready_from_the_felt_after_closing_the_settlement(pages: Pages) -> None:
    page = pages.get()
    ft = chengdu_spring(page)
    ft.extra_table.update(ready=None, ready_deadline_ms=None)
    ft.deal_over()
    ft.push_table(ready=[False, True, True], ready_deadline_ms=9_000)
    page.locator("#settlement .x").click()
    btn = page.locator('.tablev.live .center-msg [data-action="ready"]')
    expect(btn).to_be_visible()
    expect(page.locator(".ready-left")).to_contain_text(re.compile(r"[5-9] 秒后自动准备"))
    btn.click()
    assert len(ft.sent("ready")) == 1
    no_errors(pages, page)


ESCAPE_WORDS = {
    "zh": ("逃跑，扣 3 分", "= 3 × 底分 1 × 倍数 1 × 底注 1 = 3", "逃跑"),
    "en": ("escaped and loses 3", "= 3 × bid 1 × multiplier 1 × stake 1 = 3", "escaped"),
}


@pytest.mark.parametrize("lang,viewport", [("zh", "desktop"), ("en", "phone")])
def test_escape_says_what_it_cost(pages: Pages, lang: str, viewport: str) -> None:
    page = pages.get(lang, viewport)
    cost, formula, mark = ESCAPE_WORDS[lang]
    ft = FakeTable(page, deal("chengdu", first_bidder=1), preset="chengdu")
    ft.open()
    ft.apply("call")
    ft.game.leave(0)  # the player escapes: 3 × bid × multiplier × stake
    ft.version += 1
    ft.push_state()
    ft.deal_over()
    dialog = page.locator("#settlement")
    expect(dialog.locator(".note.escape")).to_contain_text(cost)
    expect(dialog.locator(".note.formula")).to_contain_text(formula)
    expect(dialog.locator('tr[data-seat="0"] .badge.esc')).to_have_text(mark)
    dialog.locator('[data-action="continue"]').click()
    page.locator('.tablev.live [data-action="history"]').click()
    cell = page.locator('#history-dialog td[data-escaped="1"]')
    expect(cell).to_contain_text("-3")
    expect(cell).to_contain_text(mark)
    no_errors(pages, page)


# ---------------------------------------------------------------------------------------------- toasts, errors, names
@pytest.mark.parametrize("lang,viewport,word",
                         [("zh", "desktop", "还没轮到你"), ("en", "phone", "It is not your turn")])
def test_toasts_never_linger_over_dialogs(pages: Pages, lang: str, viewport: str, word: str) -> None:
    page = pages.get(lang, viewport)
    ft = lead_as_landlord(page)
    ft.emit({"type": "error", "code": "not_your_turn", "message": "it is not your turn (seat 0)",
             "params": {"seat": 0}, "ref": None})
    expect(page.locator(".toast.error")).to_have_text(word)
    page.locator('.tablev.live [data-action="history"]').click()
    expect(page.locator("#history-dialog")).to_be_visible()
    expect(page.locator(".toast")).to_have_count(0)
    # one coming while a dialog is open stays under its backdrop
    ft.emit({"type": "error", "code": "chat_rate_limited", "message": "too many messages", "params": {}, "ref": None})
    z = page.evaluate("() => ['#toasts', '.backdrop'].map(s => +getComputedStyle(document.querySelector(s)).zIndex)")
    assert z[0] < z[1], z
    no_errors(pages, page)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_server_errors_are_worded_from_code_and_params(pages: Pages, lang: str) -> None:
    page = pages.get(lang)
    ft = lead_as_landlord(page)
    cases = [
        ("unknown_invite", {"invite": "QX7K2M"}, "no open table has the invite code 'QX7K2M'",
         "没有牌桌用邀请码 QX7K2M" if lang == "zh" else "No open table has the invite code QX7K2M"),
        ("not_enough_points", {"need": 2000, "have": 150}, "room needs at least 2000 points",
         "至少要 2000 分，你有 150 分" if lang == "zh" else "you need at least 2000, you have 150"),
        ("illegal_action", {"reason": "a triple needs three cards"}, "a triple needs three cards",
         "这一步不符合规则" if lang == "zh" else "That move is against the rules"),
    ]
    for code, params, message, want in cases:
        ft.emit({"type": "error", "code": code, "message": message, "params": params, "ref": None})
        toast = page.locator(f'.toast[data-key="err-{code}"]')
        expect(toast).to_contain_text(want)
        assert message not in toast.inner_text()
    no_errors(pages, page)


@pytest.mark.parametrize("lang,bot,guest", [("zh", "电脑2号", "游客0667"), ("en", "Bot 2", "Guest 0667")])
def test_bots_and_guests_have_readable_names(pages: Pages, lang: str, bot: str, guest: str) -> None:
    page = pages.get(lang)
    me = page.evaluate("() => window.qipai.store.user.name")
    ft = FakeTable(page, deal(), names=[me, "bot:heuristic:2", "guest-e8904029ab"])
    ft.open()
    expect(page.locator('.seat[data-seat="1"] .sname')).to_have_text(bot)
    expect(page.locator('.seat[data-seat="2"] .sname')).to_have_text(guest)
    ft.emit({"type": "chat", "table": "T1", "seat": 1, "phrase": "hurry"})
    expect(page.locator('.chat-bubble[data-seat="1"] .who')).to_have_text(bot)
    no_errors(pages, page)


# ---------------------------------------------------------------------------------------------- cards on the felt
@pytest.mark.parametrize("lang,viewport", [("zh", "desktop"), ("en", "phone")])
def test_plays_send_and_show_the_suited_cards(pages: Pages, lang: str, viewport: str) -> None:
    from web_helpers import select_with_mouse

    page = pages.get(lang, viewport)
    ft = lead_as_landlord(page)
    if viewport == "phone":
        page.locator('.tablev.live [data-action="hint"]').click()  # (the hint's first play is a single 5)
    select_with_mouse(page, "333") if viewport == "desktop" else None
    if viewport == "phone":
        from web_helpers import click_empty

        click_empty(page)
        page.locator('.tablev.live [data-action="hint"]').click()
    raised = page.eval_on_selector_all(".tablev.live .hand .card.raised", "els => els.map(e => e.dataset.card)")
    page.locator('.tablev.live [data-action="play"]').click()
    action = ft.sent("action")[-1]["action"]
    assert action.startswith("play ") and sorted(action[5:].split(":")[0].split()) == sorted(raised), (action, raised)
    # the server applies it: the felt shows those very cards, suits and all
    ft.apply(action)
    shown = page.eval_on_selector_all(".tablev.live .myplay .card", "els => els.map(e => e.dataset.card)")
    assert sorted(shown) == sorted(raised)
    expect(page.locator(".tablev.live .myplay .card .s").first).to_be_visible()
    # and a bot's rank-only play comes back with suits from the engine
    ft.apply("pass")
    ft.apply("pass") if ft.game.public_acting()[0] != 0 else None
    no_errors(pages, page)


@pytest.mark.parametrize("lang,viewport", [("zh", "desktop"), ("en", "phone")])
def test_card_counter_counts_what_is_not_seen(pages: Pages, lang: str, viewport: str) -> None:
    page = pages.get(lang, viewport)
    ft = lead_as_landlord(page)
    ft.apply("play 4444")
    ft.apply("play BR")  # seat 1
    counter = page.locator(".tablev.live .counter")
    expect(counter).to_be_visible()
    left = page.eval_on_selector_all(".counter .cc",
                                     "els => Object.fromEntries(els.map(e => [e.dataset.rank, +e.dataset.left]))")
    # the player holds 333 5-K and the kitty's T J J; 4444 and the rocket are played
    assert left["4"] == 0 and left["B"] == 0 and left["R"] == 0
    assert left["3"] == 1 and left["2"] == 4 and left["A"] == 4 and left["J"] == 1 and left["T"] == 2 and left["K"] == 3
    assert sum(left.values()) == 54 - 6 - 16  # played, and the 16 cards left in hand
    page.locator('.tablev.live [data-action="counter"]').click()
    expect(counter).to_have_count(0)
    assert page.evaluate("() => window.qipai.prefs.get('counter', true)") is False
    page.locator('.tablev.live [data-action="counter"]').click()
    expect(page.locator(".tablev.live .counter")).to_be_visible()
    no_errors(pages, page)


@pytest.mark.parametrize("lang,one,two", [("zh", "报单", "报双"), ("en", "Last card!", "Two left!")])
def test_one_and_two_cards_are_reported_and_heard(pages: Pages, lang: str, one: str, two: str) -> None:
    page = pages.get(lang)
    ft = lead_as_landlord(page)
    ft.apply("play 3")
    counts = list(ft.game.observe(0)["card_counts"])
    ft.push_state(obs={"card_counts": [counts[0], 1, 2]})
    expect(page.locator('.seat[data-seat="1"] .report')).to_have_text(one)
    expect(page.locator('.seat[data-seat="2"] .report')).to_have_text(two)
    names = page.evaluate("() => window.qipai.soundLog.map(s => s.name)")
    assert "alarm1" in names and "alarm2" in names, names
    no_errors(pages, page)


# ---------------------------------------------------------------------------------------------- motion and sound
def sounds(page: Page) -> list[dict[str, Any]]:
    log: list[dict[str, Any]] = page.evaluate("() => window.qipai.soundLog.slice()")
    return log


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_bomb_rocket_and_plane_have_effects_and_sounds_and_block_nothing(pages: Pages, viewport: str) -> None:
    page = pages.get("zh", viewport)
    ft = lead_as_landlord(page)
    ft.apply("play 4444")
    expect(page.locator('.fx[data-fx="bomb"]')).to_contain_text("炸弹")
    # the effect lies over the felt but never catches a click: the hand answers at once
    assert page.evaluate("() => getComputedStyle(document.querySelector('.fx-layer')).pointerEvents") == "none"
    page.locator(".tablev.live .hand .card").last.click(position={"x": 6, "y": 40})
    expect(page.locator(".tablev.live .hand .card.raised")).to_have_count(1)
    ft.apply("play BR")
    expect(page.locator('.fx[data-fx="rocket"]')).to_contain_text("王炸")
    names = [s["name"] for s in sounds(page)]
    assert "bomb" in names and "rocket" in names, names
    motion = page.evaluate("() => window.qipai.motionLog.map(m => m.kind + ':' + m.name)")
    assert "fly:play" in motion and "effect:bomb" in motion, motion
    no_errors(pages, page)


def test_a_plane_and_the_deal_move(pages: Pages) -> None:
    page = pages.get()
    g = Game.from_deal(PRESETS["classic"], [
        "3S 3H 3C 4S 4H 4C 5D 6S 7S 8S 8H 9S TS JS QS KS 2D",
        "B R 2S 2H 2C AS AH AC AD KH KC KD QH QC QD JH 5S",
        "3D 4D 5H 5C 6H 6C 6D 7H 7C 7D 8C 8D 9H 9C 9D TH TC"], "TD JC JD", first_bidder=0)
    ft = FakeTable(page, g)
    ft.open()
    assert page.evaluate("() => window.qipai.motionLog.some(m => m.kind === 'deal')")
    ft.apply("bid 3")
    ft.apply("play 333444:plane")
    expect(page.locator('.fx[data-fx="plane"]')).to_contain_text("飞机")
    assert "plane" in [s["name"] for s in sounds(page)]
    no_errors(pages, page)


@pytest.mark.parametrize("lang,viewport", [("zh", "desktop"), ("en", "phone")])
def test_reduced_motion_keeps_the_information_and_drops_the_movement(pages: Pages, lang: str, viewport: str) -> None:
    page = pages.get(lang, viewport, motion="reduce")
    ft = lead_as_landlord(page)
    ft.apply("play 4444")
    fx = page.locator('.fx[data-fx="bomb"]')
    expect(fx).to_have_class(re.compile(r"\bstill\b"))
    running = page.evaluate("() => document.getAnimations().filter(a => a.effect?.target?.closest?.('.card')).length")
    assert running == 0
    log = page.evaluate("() => window.qipai.motionLog.filter(m => m.kind === 'fly')")
    assert log and all(m["reduced"] for m in log)
    no_errors(pages, page)


LOGOUT = "() => fetch('/api/logout', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{}'})"


def test_mute_is_remembered_per_user(pages: Pages, browser: Browser, server: ThreadServer) -> None:
    page = pages.get()
    ft = lead_as_landlord(page)
    btn = page.locator('.tablev.live [data-action="sound"]')
    expect(btn).to_have_attribute("aria-pressed", "true")
    btn.click()
    expect(btn).to_have_attribute("aria-pressed", "false")
    expect(btn).to_have_attribute("title", "声音：关")
    ft.apply("play 3")
    assert sounds(page)[-1]["muted"] is True
    page.reload()
    page.wait_for_function("() => window.qipai && window.qipai.store.user")
    assert page.evaluate("() => window.qipai.isMuted()") is True
    # another account on the same browser keeps its own switch
    other = page.context.new_page()
    other.goto(server.url + "/#/lobby")
    other.evaluate(LOGOUT)
    as_guest(other, server.url)
    other.wait_for_function("() => window.qipai && window.qipai.store.user")
    assert other.evaluate("() => window.qipai.isMuted()") is False
    other.evaluate(LOGOUT)
    other.close()
    # (the shared context's guest is logged out now: log the module's page back in)
    pages.pages.pop(("zh", "desktop", "no-preference"))
    page.context.close()


def test_no_audio_is_started_before_the_players_first_gesture(browser: Browser, server: ThreadServer) -> None:
    """A page reloaded in the middle of a deal has had no click or key yet, and a browser starts audio only after
    one: the effects of the moves that come meanwhile (here the deal plays on in auto-play) stay silent instead of
    each making or waking an audio context the browser refuses (nine "AudioContext was not allowed to start"
    warnings once).  (Nothing may look at the page after the reload until the sounds have been asked for:
    Playwright's page.evaluate, and its locators' checks, count as a user gesture.)"""
    ctx = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    ctx.add_init_script("localStorage.setItem('qipai.lang', 'zh')")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    said: list[str] = []
    page.on("console", lambda m: said.append(f"{m.type}: {m.text}") if "AudioContext" in m.text else None)
    page.on("pageerror", lambda e: said.append(f"page error: {e}"))
    as_guest(page, server.url)
    page.locator('[data-action="quick-match"][data-room="classic-1"]').click()
    live = page.locator(".tablev.live")
    expect(live).to_be_visible()
    page.locator('.tablev.live [data-action="autoplay"]').click()
    expect(live).to_have_attribute("data-autoplay", "1")
    page.reload()
    # the deal goes on by itself (auto-play and the bots), every move asking for its sound: nobody has clicked on
    # the page since it loaded
    page.wait_for_timeout(3000)
    assert not said, said
    asked = page.evaluate("() => window.qipai.soundLog.filter((s) => !s.muted).length")
    assert asked, "no move asked for a sound after the reload"
    expect(live).to_be_visible()
    ctx.close()


@pytest.mark.parametrize("lang,word", [("zh", "斗地主"), ("en", "Dou Dizhu")])
def test_the_felt_names_the_game_in_the_pages_language(pages: Pages, lang: str, word: str) -> None:
    """The game's name across the felt is in the page's language (it was 斗地主 in English too), and follows a
    switch of language."""
    page = pages.get(lang)
    ft = FakeTable(page, deal())
    ft.open()
    mark = "() => getComputedStyle(document.querySelector('.tablev.live .felt'), '::before').content"
    assert page.evaluate(mark) == f'"{word}"'
    shows = "(want) => getComputedStyle(document.querySelector('.tablev.live .felt'), '::before').content === want"
    page.locator("#langbtn").click()
    other = {"斗地主": "Dou Dizhu", "Dou Dizhu": "斗地主"}[word]
    page.wait_for_function(shows, arg=f'"{other}"')
    page.locator("#langbtn").click()
    page.wait_for_function(shows, arg=f'"{word}"')
    no_errors(pages, page)


# ---------------------------------------------------------------------------------------------- quick chat
@pytest.mark.parametrize("lang,viewport,phrase", [("zh", "desktop", "打得好！"), ("en", "phone", "Nice play!")])
def test_quick_chat_phrases_and_emotes(pages: Pages, lang: str, viewport: str, phrase: str) -> None:
    page = pages.get(lang, viewport)
    ft = lead_as_landlord(page)
    page.locator('.tablev.live [data-action="chat"]').click()
    menu = page.locator(".chat-pop")
    expect(menu).to_be_visible()
    expect(menu.locator('[data-phrase="nice_play"]')).to_have_text(phrase)
    expect(menu.locator('[data-phrase^="emote:"]')).to_have_count(6)
    menu.locator('[data-phrase="nice_play"]').click()
    assert ft.sent("chat") == [{"type": "chat", "table": "T1", "phrase": "nice_play"}]
    expect(menu).to_be_hidden()
    # the server's chat shows by the seat that said it, words or emote
    ft.emit({"type": "chat", "table": "T1", "seat": 0, "phrase": "nice_play"})
    expect(page.locator('.chat-bubble[data-seat="0"]')).to_contain_text(phrase)
    ft.emit({"type": "chat", "table": "T1", "seat": 2, "phrase": "emote:flower"})
    expect(page.locator('.chat-bubble[data-seat="2"] svg')).to_be_visible()
    # too fast: the server's refusal is worded
    ft.emit({"type": "error", "code": "chat_rate_limited", "message": "too many messages", "params": {}, "ref": None})
    expect(page.locator('.toast[data-key="err-chat_rate_limited"]')).to_contain_text(
        "说得太快" if lang == "zh" else "too fast")
    no_errors(pages, page)


@pytest.mark.parametrize("lang,viewport,words", [("zh", "desktop", ("观战中", "祝大家好运")),
                                                 ("en", "phone", ("Watching", "Good luck, everyone"))])
def test_spectators_see_the_chat_but_have_no_chat_button(pages: Pages, lang: str, viewport: str,
                                                         words: tuple[str, str]) -> None:
    page = pages.get(lang, viewport)
    ft = FakeTable(page, deal(), you=None)
    ft.open()
    expect(page.locator(".tablev.live .badge.watch")).to_have_text(words[0])
    expect(page.locator('.tablev.live [data-action="chat"]')).to_have_count(0)
    expect(page.locator(".tablev.live .hand .card")).to_have_count(0)
    ft.emit({"type": "chat", "table": "T1", "seat": 1, "phrase": "good_luck"})
    expect(page.locator('.chat-bubble[data-seat="1"]')).to_contain_text(words[1])
    no_errors(pages, page)


# ---------------------------------------------------------------------------------------------- the room, in Chinese
@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_seats_show_titles_and_points(pages: Pages, viewport: str) -> None:
    page = pages.get("zh", viewport)
    me = page.evaluate("() => window.qipai.store.user.name")
    ft = FakeTable(page, deal(), names=[me, "someone", "bot:heuristic:3"])
    ft.open()
    expect(page.locator('.seat[data-seat="1"] .standing')).to_have_text(re.compile(r"商人\s*1010 分"))
    expect(page.locator('.seat[data-seat="2"] .standing')).to_have_count(0)  # a bot: its badge says so
    expect(page.locator('.seat[data-seat="2"] .badge.bot')).to_have_text("机器人 · 普通")  # and its level
    expect(page.locator(".mebar .title-tag")).to_have_text("商人")
    no_errors(pages, page)


ALLOWED_LATIN = {"JOKER", "EN", "P", "H"}


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_no_english_or_engine_text_on_the_chinese_table(pages: Pages, viewport: str) -> None:
    page = pages.get("zh", viewport)
    ft = FakeTable(page, deal("chengdu", first_bidder=1), preset="chengdu")
    ft.open()
    for a in ["call", "double", "pass", "redouble", "pass", "play 2222", "pass", "pass", "play KKKQQQ:plane", "pass"]:
        ft.game.apply(a, ft.game.public_acting()[0])
        ft.version += 1
    ft.push_state(hints=["pass"])
    page.locator('.tablev.live [data-action="prev-trick"]').click()
    page.locator("#prev-trick-dialog .x").click()
    text = page.evaluate("() => document.body.innerText")
    words = set(re.findall(r"[A-Za-z_]{2,}", text)) - ALLOWED_LATIN
    assert not words, (words, text)
    # nor in what a screen reader says of it (the hand and the header's ♠ were "hand" and "table")
    labels = page.evaluate("() => [...document.querySelectorAll('[aria-label]')]"
                           ".map((e) => e.getAttribute('aria-label')).join(' ')")
    words = set(re.findall(r"[A-Za-z_]{2,}", labels)) - ALLOWED_LATIN
    assert not words, (words, labels)
    # every card of the hand is read by its name (it read "5 ♠ ♠ 5 ♠", its corners and pips)
    names = page.locator(".tablev.live .hand .card").evaluate_all(
        "els => els.map((e) => [e.getAttribute('role'), e.getAttribute('aria-label')])")
    assert names and all(role == "img" and re.fullmatch(r"[♠♥♣♦](10|[2-9JQKA])|大王|小王", name or "")
                         for role, name in names), names
    family = page.evaluate("() => getComputedStyle(document.body).fontFamily")
    for face in ("PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", "Source Han Sans SC"):
        assert face in family, family
    shot(page, f"table-chengdu-{viewport}.png")
    no_errors(pages, page)


@pytest.mark.parametrize("lang,viewport,word", [("zh", "desktop", "在这里继续"), ("en", "phone", "Play here")])
def test_another_window_took_the_seat(pages: Pages, lang: str, viewport: str, word: str) -> None:
    page = pages.get(lang, viewport)
    ft = lead_as_landlord(page)
    expect(page.locator(".tablev.live")).to_have_attribute("data-my-turn", "1")
    ft.emit({"type": "taken_over", "reason": "another_window"})
    btn = page.locator('.tablev.live [data-action="take-over"]')
    expect(btn).to_have_text(word)
    # this window only watches now: no "your turn", no clock of its own, no move to make
    expect(page.locator(".tablev.live")).to_have_attribute("data-my-turn", "0")
    expect(page.locator(".tablev.live .yourturn")).to_have_count(0)
    expect(page.locator(".tablev.live .me-timer")).to_have_count(0)
    expect(page.locator('.tablev.live .act-main [data-action="play"]')).to_have_count(0)
    btn.click()
    assert ft.sent("take_over") == [{"type": "take_over"}]
    ft.emit({"type": "took_over", "ref": None})
    ft.emit({"type": "snapshot", "table": ft.table_view(), "state": ft.state_view(), "last_result": None, "ref": None})
    expect(btn).to_have_count(0)
    no_errors(pages, page)


# ---------------------------------------------------------------------------------------------- seats apart
SEATS_APART = """(root) => {
  const t = document.querySelector(root);
  const box = (e) => e.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const shown = (r) => r.width > 0 && r.height > 0;
  const topmost = (el) => {
    const r = box(el);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !hit || el.contains(hit) ? null : `${hit.tagName.toLowerCase()}.${[...hit.classList].join(".")}`;
  };
  const out = [];
  const me = t.querySelector(".mebar .me-info");
  me.scrollIntoView({ block: "nearest" });
  const m = box(me);
  if (!shown(m)) out.push("no own name bar");
  if (m.left < 0 || m.top < 0 || m.right > innerWidth || m.bottom > innerHeight) {
    out.push(`own name bar out of the window: ${JSON.stringify(m)}`);
  }
  const over = topmost(me.querySelector(".sname"));
  if (over) out.push(`own name is under ${over}`);
  const seats = [...t.querySelectorAll(".seat-layer .seat")];
  for (const s of seats) {
    const pos = s.dataset.pos;
    // the seat's box and all it shows (its cards face up, what it said or played)
    const parts = [s, ...s.querySelectorAll("*")].filter((e) => shown(box(e)));
    const hit = parts.find((e) => meet(box(e), m));
    if (hit) out.push(`own name bar meets the ${pos} seat (${hit.className})`);
    for (const o of seats) if (o !== s && meet(box(o), box(s))) out.push(`${pos} seat meets the ${o.dataset.pos} seat`);
    const r = box(s);
    if (r.left < 0 || r.right > innerWidth) out.push(`${pos} seat out of the window`);
    const on = topmost(s.querySelector(".sname"));
    if (on) out.push(`${pos} seat's name is under ${on}`);
  }
  if (seats.length !== 2) out.push(`${seats.length} seat boxes`);
  return out;
}"""

REPLAY_DEAL = 4242


def serve_replay(page: Page) -> int:
    """Answer the replay page's requests for deal REPLAY_DEAL (as the server would) with a whole deal played
    from the test's hands: seat 0 (the page's player) bids 3 and leads its lowest cards, the others play what
    they can.  Returns the number of steps."""
    g = deal()
    steps: list[dict[str, Any]] = [{"n": 0, "seat": None, "action": None, "observation": g.observe(0),
              "views": [g.observe_parts(s)[1] for s in range(3)]}]
    while not g.is_over:
        seat = g.public_acting()[0]
        legal = g.legal_actions(seat)
        plays = [a for a in legal if a != "pass"]
        a = "bid 3" if "bid 3" in legal else plays[0] if plays else legal[0]
        g.apply(a, seat)
        steps.append({"n": len(steps), "seat": seat, "action": a, "observation": g.observe(0),
                      "views": [g.observe_parts(s)[1] for s in range(3)]})
    me = page.evaluate("() => window.qipai.store.user")
    seats = [{"name": me["name"], "user_id": me["id"], "bot": None}] + [
        {"name": f"bot:heuristic:{i + 1}", "user_id": None, "bot": "heuristic"} for i in (1, 2)]
    record = {"id": REPLAY_DEAL, "game": "doudizhu", "options": {"preset": "classic", "stake": 1}, "seats": seats,
              "deal_index": 0, "status": "over", "you": 0}
    replay = {"deal": REPLAY_DEAL, "game": "doudizhu", "you": 0, "players": seats, "steps": steps,
              "outcome": g.outcome()}

    def answer(body: dict[str, Any]) -> Any:
        return lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route(re.compile(rf".*/api/deals/{REPLAY_DEAL}$"), answer(record))
    page.route(re.compile(rf".*/api/deals/{REPLAY_DEAL}/replay$"), answer(replay))
    return len(steps)


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_own_name_bar_and_every_seat_keep_apart_in_the_replay_and_at_the_table(pages: Pages,
                                                                                     viewport: str) -> None:
    """A finished deal's replay draws the felt as tall as what its seats hold (every hand face up): the player's
    own name bar under the felt stays clear of the side seats' boxes, inside the window, at every step — once the
    replay's table was laid out as the page's column, and the left seat's box lay over it.  The live table too."""
    page = pages.get("zh", viewport)
    n = serve_replay(page)
    page.goto(page.url.split("#")[0] + f"#/replay/{REPLAY_DEAL}")
    rt = ".replay .tablev.replay"
    expect(page.locator(rt)).to_be_visible()
    expect(page.locator(rt + " .seat-layer .seat")).to_have_count(2)
    problems = page.evaluate(SEATS_APART, rt)
    assert not problems, ("step 0", problems)
    shot(page, f"replay-seats-{viewport}-start.png")
    # straight to the end (the page drawn first at that step), then every step in turn
    page.locator('.replay-controls [data-action="last"]').click()
    expect(page.locator("section.replay")).to_have_attribute("data-step", str(n - 1))
    problems = page.evaluate(SEATS_APART, rt)
    assert not problems, ("the last step", problems)
    shot(page, f"replay-seats-{viewport}-end.png")
    slider = page.locator('.replay-controls input[type="range"]')
    for k in range(n):
        slider.fill(str(k))
        expect(page.locator("section.replay")).to_have_attribute("data-step", str(k))
        problems = page.evaluate(SEATS_APART, rt)
        assert not problems, (f"step {k}", problems)
        if k == n // 2:
            shot(page, f"replay-seats-{viewport}-mid.png")
    # the live table: mid-deal, and at the deal's end with every hand face up
    page = pages.get("zh", viewport)
    ft = lead_as_landlord(page)
    ft.apply("play 3")
    live = ".tablev.live"
    motion_done(page)  # (a card flying from the hand to the felt passes over the name bar)
    problems = page.evaluate(SEATS_APART, live)
    assert not problems, ("live, mid-deal", problems)
    ft.play_until(lambda g: g.is_over)
    ft.push_state()
    expect(page.locator(live)).to_have_attribute("data-phase", "over")
    motion_done(page)
    problems = page.evaluate(SEATS_APART, live)
    assert not problems, ("live, the deal's end", problems)
    shot(page, f"table-seats-{viewport}-end.png")
    no_errors(pages, page)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_phone_reaches_the_private_tables_from_the_top_of_the_lobby(pages: Pages, lang: str) -> None:
    """On a phone the side panels (private tables, tables in play) come after every game's rooms, thousands of
    pixels down: a button by the lobby's heading goes straight to them, and the form that makes a private table is
    then in the window.  A desktop has them beside the rooms, and no such buttons."""
    page = pages.get(lang, "phone")
    create = page.locator('section.lobby [data-action="create"]')
    expect(page.locator('section.lobby [data-action="quick-match"]').first).to_be_visible()
    assert page.evaluate("() => document.scrollingElement.scrollHeight") > 1600
    expect(create).not_to_be_in_viewport()
    jump = page.locator('section.lobby [data-action="jump-private"]')
    expect(jump).to_be_in_viewport()
    expect(jump).to_contain_text({"zh": "私人桌", "en": "Private tables"}[lang])
    jump.click()
    expect(create).to_be_in_viewport()
    expect(page.locator('section.lobby input[name="invite"]')).to_be_in_viewport()
    page.evaluate("() => window.scrollTo(0, 0)")
    page.locator('section.lobby [data-action="jump-public"]').click()
    expect(page.locator("section.lobby .public-panel h2")).to_be_in_viewport()
    shot(page, f"lobby-{lang}-phone-private-tables.png")
    desk = pages.get(lang, "desktop")
    expect(desk.locator('section.lobby [data-action="jump-private"]')).to_be_hidden()
    expect(desk.locator('section.lobby [data-action="create"]')).to_be_in_viewport()
    no_errors(pages, page)


def test_the_keys_in_the_open_quick_chat_pick_no_cards(pages: Pages) -> None:
    """The quick chat's list (a menu) is walked with the keyboard: its keys (arrows, Space, a rank's key typed
    there) are the list's, not the hand's — they raised cards behind it and moved the hand's ring; Escape
    closes it."""
    page = pages.get()
    ft = FakeTable(page, deal())
    ft.open()
    ft.apply("bid 3")
    expect(page.locator('.tablev.live .hand .card[data-i="19"]')).to_be_attached()
    page.locator('.tablev.live [data-action="chat"]').focus()
    page.keyboard.press("Enter")
    phrase = page.locator(".tablev.live .chat-pop [data-phrase]").first
    expect(phrase).to_be_visible()
    phrase.focus()
    for key in ("ArrowRight", "ArrowDown", "ArrowUp", "3", "4", "ArrowLeft"):
        page.keyboard.press(key)
    expect(page.locator(".tablev.live .hand .card.kbd-cursor")).to_have_count(0)
    assert raised_ranks(page) == "" and not ft.sent("action")
    # the arrows walk the list: ↓ from its first phrase is its second
    phrase.focus()
    page.keyboard.press("ArrowDown")
    assert page.evaluate("() => document.activeElement === document.querySelectorAll('.chat-pop [data-phrase]')[1]")
    page.keyboard.press("Escape")
    expect(page.locator(".tablev.live .chat-pop")).to_be_hidden()
    # the list closed, the keys are the hand's again
    page.keyboard.press("3")
    assert raised_ranks(page) == "3"
