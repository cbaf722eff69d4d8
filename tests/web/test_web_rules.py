"""玩法说明: every game's rules in words, on a page of their own (open to everyone, from the login page and from each
room in the lobby) and in a dialog at the table, for the options that table plays — built by each game's view from
the options' values (/api/games ``preset_options``), in Chinese and in English."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from qipai.core.registry import game_names, get_factory

from web_helpers import ThreadServer, as_guest, lang_page, quick_match, shot, table, web_settings


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("web-rules") / "qipai.db"
    s = ThreadServer(web_settings(f"sqlite+aiosqlite:///{db}")).start()
    yield s
    s.stop()


def section(page: Page, part: str) -> str:
    return page.locator(f'.rules-page .rules-section[data-part="{part}"]').inner_text()


def test_api_games_gives_every_presets_option_values(server: ThreadServer) -> None:
    """The browser words a preset's rules from its option values: /api/games gives them, as the game resolves them."""
    games = httpx.get(server.url + "/api/games").json()["games"]
    assert [g["name"] for g in games] == game_names()
    for g in games:
        f = get_factory(g["name"])
        assert set(g["preset_options"]) == set(g["presets"]), g["name"]
        for p, values in g["preset_options"].items():
            assert values == f.options({"preset": p}), (g["name"], p)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_rules_page_is_open_to_everyone_and_follows_each_preset(browser: Browser, server: ThreadServer,
                                                                     lang: str) -> None:
    """A newcomer who did not know 斗地主's variants (or 升级, 麻将) had nowhere to read them: the login page links
    玩法说明, open without an account; a tab for each game and each preset, the words following the preset's
    options (its bidding, first bidder, combinations, bombs, doubling, penalties, timers)."""
    page, errors = lang_page(browser, lang)
    page.goto(server.url + "/")
    link = page.locator('.auth-hero [data-action="rules"]')
    expect(link).to_be_visible()
    link.click()
    expect(page.locator(".rules-page h1")).to_have_text("玩法说明" if lang == "zh" else "How to play")
    assert page.title() == ("玩法说明 · 棋牌" if lang == "zh" else "How to play · qipai"), page.title()
    tabs = page.locator(".rules-page .rules-tabs").first.locator("a")
    expect(tabs).to_have_count(len(game_names()))
    presets = page.locator(".rules-page .rules-tabs").nth(1).locator("a")
    expect(presets).to_have_count(len(get_factory("doudizhu").info.presets))
    expect(presets.first).to_have_attribute("aria-current", "page")
    parts = page.locator(".rules-page .rules-section").evaluate_all("els => els.map((e) => e.dataset.part)")
    assert parts == ["overview", "bidding", "kinds", "play", "scoring", "time"], parts  # classic: no doubling
    words = {
        "zh": {"classic": ["一副牌 54 张", "叫 3 分立即结束", "三带一对", "火箭（王炸）", "每打出一个炸弹，×2", "春天"],
               "chengdu": ["黑桃 5", "“倒”", "倒、反、斡、垒各 ×2", "逃跑"],
               "four_player": ["两副牌 108 张", "每人 25 张，留 8 张底牌", "天王炸", "8 张的 ×3", "连续 3 副牌没人叫"],
               "jj_match": ["×(1+n)", "积分最小化", "托管的农民分摊"],
               "cantonese": ["叫地主或不叫", "翻开一张牌"]},
        "en": {"classic": ["One deck of 54 cards", "a 3 ends the bidding", "Triple + pair", "Rocket: the small",
                           "Each bomb played: ×2", "Spring"],
               "chengdu": ["♠5", "double (倒)", "Each 倒, 反, 斡 and 垒", "Escaping"],
               "four_player": ["Two decks, 108 cards", "25 cards each and 8 left", "both small and both big jokers",
                               "8 cards ×3", "after 3 deals in a row"],
               "jj_match": ["×(1+n)", "Score minimisation", "auto-play pay"],
               "cantonese": ["calls the landlord or passes", "turned face up"]},
    }[lang]
    text = page.locator(".rules-page .rules-text").inner_text()
    for w in words["classic"]:
        assert w in text, (w, text)
    assert "20 s" in text or "20 秒" in text
    for preset in ("chengdu", "four_player", "jj_match", "cantonese"):
        page.locator(f'.rules-page a.rules-tab[href="#/rules/doudizhu/{preset}"]').click()
        expect(page.locator(f'.rules-page a.rules-tab[href="#/rules/doudizhu/{preset}"]')).to_have_attribute(
            "aria-current", "page")
        text = page.locator(".rules-page .rules-text").inner_text()
        for w in words[preset]:
            assert w in text, (preset, w, text)
        if preset == "cantonese":  # no triple + pair, plane + pairs, four + two pairs there
            kinds = section(page, "kinds")
            assert ("三带一对" if lang == "zh" else "Triple + pair") not in kinds, kinds
        if preset == "chengdu":
            assert page.locator('.rules-page .rules-section[data-part="doubling"]').count() == 1
            shot(page, f"rules-{lang}-chengdu.png")
    # an unknown game is said so, with the games to choose from
    page.goto(server.url + "/#/rules/nosuchgame")
    expect(page.locator(".rules-page .msg.error")).to_be_visible()
    expect(page.locator(".rules-page .rules-tabs a")).to_have_count(len(game_names()))
    page.context.close()
    assert not errors, errors


def test_each_room_links_its_rules_and_a_phone_reads_them(browser: Browser, server: ThreadServer) -> None:
    """Each preset card in the lobby links its rules; on a phone the page fits the width (nothing to scroll
    sideways)."""
    page, errors = lang_page(browser, "zh", phone=True)
    page.set_viewport_size({"width": 360, "height": 740})
    as_guest(page, server.url)
    card = page.locator('.preset-card[data-game="doudizhu"][data-preset="chengdu"]')
    card.locator("a.rules-link").click()
    expect(page).to_have_url(re.compile(r"#/rules/doudizhu/chengdu$"))
    expect(page.locator('.rules-page a.rules-tab[aria-current="page"]').nth(1)).to_have_text("成都斗地主")
    expect(page.locator('.rules-page .rules-section[data-part="doubling"]')).to_be_visible()
    wide = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert wide <= 0, wide
    shot(page, "rules-zh-360x740.png")
    page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_tables_question_mark_shows_its_rules(browser: Browser, server: ThreadServer, lang: str) -> None:
    """At the table, the top bar's ? opens the rules of the options that table plays, in a dialog that Escape
    closes, the focus going back to the button."""
    page, errors = lang_page(browser, lang)
    as_guest(page, server.url)
    quick_match(page, "chengdu-1")
    btn = table(page).locator('[data-action="rules"]')
    expect(btn).to_have_attribute("aria-label", "玩法说明" if lang == "zh" else "How to play")
    btn.click()
    dialog = page.locator("#rules-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".dialog-head h2")).to_contain_text("成都斗地主" if lang == "zh" else "Chengdu")
    expect(dialog.locator('.rules-section[data-part="doubling"]')).to_be_visible()
    escape = "逃跑" if lang == "zh" else "Escaping"
    expect(dialog.locator('.rules-section[data-part="scoring"]')).to_contain_text(escape)
    if lang == "zh":
        shot(page, "rules-table-dialog-zh.png")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(btn).to_be_focused()
    page.context.close()
    assert not errors, errors
