"""玩法说明: every game's rules in words, on a page of their own (open to everyone, from the login page and from each
room in the lobby) and in a dialog at the table, for the options that table plays — worded by each game from the
options' values (``qipai.games.<game>.explain``, which the browser asks for at ``/api/rules/<game>``), in Chinese
and in English."""

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
    """At the table, the table's name in the top bar opens the rules of the options that table plays, in a dialog
    that Escape closes, the focus going back to the button."""
    page, errors = lang_page(browser, lang)
    as_guest(page, server.url)
    quick_match(page, "chengdu-1")
    btn = table(page).locator('[data-action="rules"]')
    expect(btn).to_have_attribute("aria-label", re.compile("^玩法说明 · 成都斗地主$" if lang == "zh"
                                                             else "^How to play · Chengdu$"))
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


# Shengji and Daqing mahjong: their sections, and words that follow the options.
PARTS = {
    "shengji": ["overview", "deal", "trumps", "combos", "play", "throws", "trick", "points", "levels", "scoring",
                "time"],
    "mahjong": ["overview", "play", "claims", "ting", "bao", "win", "jia", "scoring", "time"],
}
WORDS = {  # (game, lang) → section → phrases its preset's page shows
    ("shengji", "zh"): {"overview": ["四副牌共 216 张", "都从 3 开始"], "deal": ["反主", "暗叫", "黑桃为主"],
                        "trumps": ["大王 > 小王 > 主花色的级牌"], "combos": ["拖拉机", "♥A ♥A ♣2 ♣2"],
                        "throws": ["罚 10 分"], "points": ["扣底", "400 分"], "levels": ["升 3 级", "必打 A"],
                        "time": ["0.15 秒", "5 秒", "30 秒", "20 秒"]},
    ("shengji", "en"): {"overview": ["216 cards", "both starting at 3"], "deal": ["Overcalling (反主)", "concealed",
                                                                                "spades are trumps"],
                        "trumps": ["big joker > small joker > the trump suit's level card"],
                        "combos": ["Tractor (拖拉机)", "♥A ♥A ♣2 ♣2"], "throws": ["loses 10 points"],
                        "points": ["Last-trick bonus (扣底)", "400 points"],
                        "levels": ["up 3 levels", "A must be played"], "time": ["0.15 s", "5 s", "30 s", "20 s"]},
    ("mahjong", "zh"): {"overview": ["112 张", "红中"], "claims": ["吃听", "碰听", "听牌优先", "手把一"],
                        "ting": ["开门", "只有听了牌才能胡"], "bao": ["摸宝", "宝中宝", "换宝"],
                        "win": ["清一色不能胡", "幺九"], "jia": ["边张", "单调"],
                        "scoring": ["底分 1 × 2^番数", "包三家", "门清", "点炮", "三家各付自己的一份"],
                        "time": ["15 秒", "8 秒", "系统自动胡牌"]},
    ("mahjong", "en"): {"overview": ["112 tiles", "red dragons (红中)"],
                        "claims": ["Chow & declare ready (吃听)", "pung & declare ready (碰听)", "手把一"],
                        "ting": ["Declare ready (听", "Only a player who has declared ready can win"],
                        "bao": ["Treasure draw (摸宝)", "Treasure in treasure (宝中宝)", "(换宝)"],
                        "win": ["a one-suit hand cannot win", "(幺九)"], "jia": ["an edge wait", "a single wait"],
                        "scoring": ["base 1 × 2^fans", "(包三家)", "Closed hand (门清)", "Fed the win (点炮)"],
                        "time": ["15 s", "8 s", "Automatic win (系统自动胡牌)"]},
}


def parts_of(root: Page, scope: str) -> list[str]:
    return root.locator(f"{scope} .rules-section").evaluate_all("els => els.map((e) => e.dataset.part)")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_shengji_and_mahjong_rules_pages(browser: Browser, server: ThreadServer, lang: str) -> None:
    """升级 and 大庆麻将 have their rules page too (not "no rules yet"): every part of the game in its own section,
    worded from the preset's options (the deal and declaring, trump order, tractors, throws and their penalty,
    扣底, levels; tiles, 吃 碰 听 胡 and their priority, 宝, the winning hand, 夹, fans and 包三家, timers)."""
    page, errors = lang_page(browser, lang)
    for game in ("shengji", "mahjong"):
        page.goto(server.url + f"/#/rules/{game}")
        expect(page.locator(f'.rules-page a.rules-tab[href="#/rules/{game}"]')).to_have_attribute(
            "aria-current", "page")
        expect(page.locator(".rules-page .rules-text")).to_be_visible()
        assert parts_of(page, ".rules-page") == PARTS[game], (game, parts_of(page, ".rules-page"))
        for part, words in WORDS[(game, lang)].items():
            text = section(page, part)
            for w in words:
                assert w in text, (game, part, w, text)
        shot(page, f"rules-{lang}-{game}.png")
    page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("game", ["shengji", "mahjong"])
def test_a_phone_reads_shengji_and_mahjong_rules(browser: Browser, server: ThreadServer, game: str) -> None:
    """On a 360 × 740 phone the long pages (Shengji's card runs, mahjong's tile lists) fit the width."""
    page, errors = lang_page(browser, "zh", phone=True, viewport={"width": 360, "height": 740})
    page.goto(server.url + f"/#/rules/{game}")
    expect(page.locator('.rules-page .rules-section[data-part="time"]')).to_be_attached()
    wide = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert wide <= 0, wide
    shot(page, f"rules-zh-{game}-360x740.png")
    page.locator('.rules-page .rules-section[data-part="scoring"]').scroll_into_view_if_needed()
    shot(page, f"rules-zh-{game}-360x740-scoring.png")
    page.context.close()
    assert not errors, errors


@pytest.mark.parametrize(("game", "room", "lang"), [("shengji", "four_deck-1", "zh"), ("mahjong", "daqing-1", "en")])
def test_shengji_and_mahjong_tables_show_their_rules(browser: Browser, server: ThreadServer, game: str, room: str,
                                                     lang: str) -> None:
    """At a Shengji and a mahjong table the table's name shows that game's rules, every section, for the table's
    options."""
    page, errors = lang_page(browser, lang)
    as_guest(page, server.url)
    quick_match(page, room)
    btn = table(page).locator('[data-action="rules"]')
    btn.click()
    dialog = page.locator("#rules-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".dialog-head h2")).to_contain_text(
        {"shengji": "四副牌升级", "mahjong": "Daqing mahjong"}[game])
    assert parts_of(page, "#rules-dialog") == PARTS[game]
    key = {"shengji": ("levels", "必打 A"), "mahjong": ("bao", "Treasure draw (摸宝)")}[game]
    expect(dialog.locator(f'.rules-section[data-part="{key[0]}"]')).to_contain_text(key[1])
    shot(page, f"rules-table-dialog-{lang}-{game}.png")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(btn).to_be_focused()
    page.context.close()
    assert not errors, errors


def rules_for(page: Page, game: str, variants: list[dict[str, object]]) -> list[dict[str, str]]:
    """The words the browser is given for each variant of the game's first preset (what a private table with those
    options shows: the page's own fetch of ``POST /api/rules/<game>`` in its language): section id → its whole
    text."""
    preset = get_factory(game).info.presets[0]
    return page.evaluate(
        """async ([game, sets]) => {
             const lang = document.documentElement.lang === "en" ? "en" : "zh";
             const text = (s) => [s.title, ...s.items.flat()].join("\\n");
             const out = [];
             for (const options of sets) {
               const r = await fetch(`/api/rules/${game}`, { method: "POST", credentials: "same-origin",
                 headers: { "Content-Type": "application/json" }, body: JSON.stringify({ options, lang }) });
               out.push(Object.fromEntries((await r.json()).sections.map((s) => [s.id, text(s)])));
             }
             return out;
           }""",
        [game, [{"preset": preset, **v} for v in variants]])


def test_shengji_words_follow_the_options(browser: Browser, server: ThreadServer) -> None:
    """Each optional Shengji rule is worded from its value: throws on or off, the penalty's points, the ace rule, a
    hand limit, the start level, escaping, the match bonus, the timers and who plays in auto-play."""
    page, errors = lang_page(browser, "zh")
    page.goto(server.url + "/#/rules/shengji")
    expect(page.locator(".rules-page .rules-text")).to_be_visible()
    preset, no_throws, pen20, pen0, other = rules_for(page, "shengji", [
        {}, {"throws": False}, {"throw_penalty": 20}, {"throw_penalty": 0},
        {"ace_rule": "pass", "hand_limit": 8, "start_level": "T", "escape_penalty": True, "match_bonus": 5,
         "deal_step_ms": 300, "final_declare_s": 8, "first_lead_s": 40, "play_s": 25, "auto_play": "smart"}])
    assert "罚 10 分" in preset["throws"] and "甩牌罚分" in preset["points"]
    assert "最多打" not in preset["levels"] and "必打 A" in preset["levels"]
    assert "牌局中离开不扣分" in preset["scoring"] and "再得" not in preset["scoring"]
    assert "throws" not in no_throws and "本桌不能甩牌" in no_throws["play"], no_throws["play"]
    assert "跟甩牌" not in no_throws["play"] and "甩牌罚分" not in no_throws["points"]
    assert "罚 20 分" in pen20["throws"] and "罚 10 分" not in pen20["throws"]
    assert "不罚分" in pen0["throws"] and "甩牌罚分" not in pen0["points"]
    assert "过 A 即胜" in other["levels"] and "必打 A" not in other["levels"]
    assert "最多打 8 局" in other["levels"]
    assert "都从 10 开始" in other["overview"]
    assert "扣 3 × 底注" in other["scoring"] and "再得 5 × 底注" in other["scoring"]
    for w in ("0.3 秒", "最后叫主 8 秒", "第一手 40 秒", "出牌 25 秒", "由电脑替你打"):
        assert w in other["time"], (w, other["time"])
    page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_mahjong_words_follow_the_options(browser: Browser, server: ThreadServer, lang: str) -> None:
    """Each of Daqing mahjong's room options (不夹不胡, 3·7夹, 单调夹, 支对, 红中满天飞, 刮大风, 带漏, a sequence
    needed, 听 needed, 听牌优先, who pays for a ready feeder, automatic wins, the base and the timers) appears when on,
    and only then."""
    page, errors = lang_page(browser, lang)
    page.goto(server.url + "/#/rules/mahjong")
    expect(page.locator(".rules-page .rules-text")).to_be_visible()
    preset, jia, bao, other = rules_for(page, "mahjong", [
        {}, {"zhi_dui": True, "jia_37": True, "dan_diao_jia": True, "bu_jia_bu_hu": True, "need_sequence": True},
        {"hongzhong_wild": True, "gua_da_feng": True, "dai_lou": True},
        {"hu_requires_ting": False, "ting_claim_first": False, "ready_feeder_pays": "feeder_own", "auto_hu": False,
         "base": 10, "turn_seconds": 20, "claim_seconds": 10, "first_dealer": "seat0"}])
    w = {
        "zh": {"zhi_dui": "支对", "jia_37": "3·7夹", "dan_diao": "单调夹", "bu_jia": "不夹不胡", "seq": "有顺子",
               "edge": "边张（1 2 胡 3", "hz": "红中满天飞", "gua": "刮大风", "dai_lou": "带漏",
               "dai_lou_all": "或是你有刻子的牌、或是红中", "ting_first": "听牌优先", "plain": "碰（碰听也一样）",
               "need_ting": "只有听了牌才能胡", "no_ting": "没听牌也可以胡",
               "all_three": "不包三家，三家各付自己的一份", "own": "只有他付自己那一份",
               "auto": "系统自动胡牌", "no_auto": "由你选择胡还是过",
               "base1": "底分 1 × 2^番数", "base10": "底分 10 × 2^番数", "pay40": "庄家付 40",
               "t20": "每次 20 秒", "t10": "选择 10 秒", "random": "随机定庄", "seat0": "第一个座位坐庄"},
        "en": {"zhi_dui": "(支对)", "jia_37": "(3·7夹)", "dan_diao": "(单调夹)", "bu_jia": "(不夹不胡)",
               "seq": "A sequence: at least one", "edge": "an edge wait (1-2 waiting", "hz": "(红中满天飞)",
               "gua": "(刮大风)", "dai_lou": "(带漏)", "dai_lou_all": ", or one you have a triplet of, or a red dragon",
               "ting_first": "(a ready claim first, 听牌优先)", "plain": "pung (with or without declaring ready)",
               "need_ting": "Only a player who has declared ready can win", "no_ting": "without having declared ready",
               "all_three": "no paying for all three; each loser pays his own share", "own": "he alone pays",
               "auto": "Automatic win (系统自动胡牌)", "no_auto": "you choose to win or pass",
               "base1": "base 1 × 2^fans", "base10": "base 10 × 2^fans", "pay40": "the dealer pays 40",
               "t20": "20 s for each discard", "t10": "10 s to chow", "random": "drawn at random",
               "seat0": "the table's first seat"},
    }[lang]
    everything = "\n".join(preset.values())
    for k in ("zhi_dui", "jia_37", "dan_diao", "bu_jia", "seq", "hz", "gua", "dai_lou", "plain", "no_ting", "own",
              "no_auto", "seat0"):
        assert w[k] not in everything, (k, w[k])
    for k, part in (("edge", "jia"), ("ting_first", "claims"), ("need_ting", "ting"), ("all_three", "scoring"),
                    ("auto", "time"), ("base1", "scoring"), ("random", "overview")):
        assert w[k] in preset[part], (k, preset[part])
    for k in ("zhi_dui", "jia_37", "dan_diao"):
        assert w[k] in jia["jia"], (k, jia["jia"])
    assert w["edge"] not in jia["jia"]  # 3·7夹: an edge wait is 夹 now
    assert w["bu_jia"] in jia["win"] and w["seq"] in jia["win"]
    for k in ("hz", "gua", "dai_lou", "dai_lou_all"):
        assert w[k] in bao["bao"], (k, bao["bao"])
    assert w["plain"] in other["claims"] and w["ting_first"] not in other["claims"]
    assert w["no_ting"] in other["ting"] and w["need_ting"] not in other["ting"]
    assert w["own"] in other["scoring"] and w["all_three"] not in other["scoring"]
    assert w["no_auto"] in other["time"] and w["auto"] not in other["time"]
    assert w["base10"] in other["scoring"] and w["pay40"] in other["scoring"]
    assert w["t20"] in other["time"] and w["t10"] in other["time"] and w["seat0"] in other["overview"]
    page.context.close()
    assert not errors, errors


def test_a_private_tables_own_options_are_worded(browser: Browser, server: ThreadServer) -> None:
    """A private table that plays its own options (no throws, at most 8 hands) shows those in its dialog, not its
    preset's: the browser sends the table's options to the server, which words them (POST /api/rules/<game>)."""
    page, errors = lang_page(browser, "zh")
    as_guest(page, server.url)
    made = page.evaluate("""async () => (await fetch("/api/tables", { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ room: "four_deck-1", options: { throws: false, hand_limit: 8 } }) })).json()""")
    assert made.get("table"), made
    page.goto(server.url + "/#/table")
    page.reload()
    expect(table(page)).to_be_visible(timeout=10_000)
    btn = table(page).locator('[data-action="rules"]')
    with page.expect_request(lambda r: "/api/rules/shengji" in r.url) as asked:
        btn.click()
    assert asked.value.method == "POST"
    sent = asked.value.post_data_json
    assert sent["options"]["throws"] is False and sent["options"]["hand_limit"] == 8 and sent["lang"] == "zh", sent
    dialog = page.locator("#rules-dialog")
    expect(dialog).to_be_visible()
    assert "throws" not in parts_of(page, "#rules-dialog")
    expect(dialog.locator('.rules-section[data-part="play"]')).to_contain_text("本桌不能甩牌")
    expect(dialog.locator('.rules-section[data-part="levels"]')).to_contain_text("最多打 8 局")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    page.context.close()
    assert not errors, errors


def test_the_rules_page_asks_the_server_in_the_chosen_language(browser: Browser, server: ThreadServer) -> None:
    """The page's words are the server's (GET /api/rules/<game>?preset=&lang=), in the language the player chose;
    a failed request says so on the page instead of an empty one."""
    page, errors = lang_page(browser, "en", allowed=(401, 403, 404, 409, 500))
    with page.expect_request(lambda r: "/api/rules/mahjong" in r.url) as asked:
        page.goto(server.url + "/#/rules/mahjong/daqing")
    assert "lang=en" in asked.value.url and "preset=daqing" in asked.value.url, asked.value.url
    expect(page.locator('.rules-page .rules-section[data-part="bao"]')).to_contain_text("Treasure draw (摸宝)")
    page.route("**/api/rules/**", lambda route: route.fulfill(
        status=500, content_type="application/json",
        body='{"error": {"code": "server_error", "message": "x", "params": {}}}'))
    page.goto(server.url + "/#/rules/shengji")
    expect(page.locator(".rules-page .msg.error")).to_be_visible()
    expect(page.locator(".rules-page .rules-section")).to_have_count(0)
    page.context.close()
    assert not errors, errors


def test_a_late_answer_opens_no_rules_on_the_page_the_player_went_to(browser: Browser, server: ThreadServer) -> None:
    """The table's rules asked of a slow server, and the player goes to the leaderboard meanwhile: the answer
    opened the table's rules over the leaderboard (a dialog of a page he had left)."""
    page, errors = lang_page(browser, "zh")
    as_guest(page, server.url)
    quick_match(page)
    page.route("**/api/rules/**", lambda route: (page.wait_for_timeout(800), route.continue_()))
    table(page).locator('[data-action="rules"]').click()
    page.evaluate("() => { location.hash = '#/leaderboard'; }")
    expect(page.locator("section.leaderboard table.lb")).to_be_visible()
    page.wait_for_timeout(1500)  # the answer has come
    expect(page.locator("#modal-root .dialog")).to_have_count(0)
    # back at the table, it opens as it did
    page.unroute("**/api/rules/**")
    page.evaluate("() => { location.hash = '#/table'; }")
    table(page).locator('[data-action="rules"]').click()
    expect(page.locator("#rules-dialog .rules-section").first).to_be_visible()
    page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("hash_", ["#/rules/%", "#/rules/doudizhu/%E0"])
def test_a_badly_encoded_rules_address_still_shows_the_rules(browser: Browser, server: ThreadServer,
                                                            hash_: str) -> None:
    """A hand-typed address with a stray % (``#/rules/%``) threw in the router ("URI malformed") and the page stayed
    blank: it shows the rules page, as for a game or preset it does not know."""
    page, errors = lang_page(browser, "en")
    page.goto(server.url + "/" + hash_)
    expect(page.locator(".rules-page h1")).to_have_text("How to play")
    if "doudizhu" in hash_:  # an unknown preset: the game's first
        expect(page.locator('.rules-page .rules-section[data-part="kinds"]')).to_be_visible()
    else:
        expect(page.locator(".rules-page .msg.error")).to_be_visible()
    page.context.close()
    assert not errors, errors
