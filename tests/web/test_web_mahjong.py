"""Daqing mahjong in a real browser against a real server: a guest takes the quick match of the mahjong room
(three bots fill the table) and plays a whole deal with the mouse — tiles raised and discarded by clicks, claim
buttons answered within the window's countdown, 听 declared when offered — to the settlement, which names every
loser's fans and the payments; on a desktop and a phone, in Chinese and English, failing on any console error.
The deal's replay then captions its steps in words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from qipai.core.registry import get_factory
from qipai.games.mahjong.bots import BOTS
from qipai.games.mahjong.tiles import tile_name

from web_helpers import FakeTable, ThreadServer, as_guest, lang_page, shot, table, wait_version_change, web_settings

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("web-mahjong") / "qipai.db"
    # the next deal starts a second after everyone is ready (the player's 准备 still waits up to ready_timeout)
    s = ThreadServer(web_settings(f"sqlite+aiosqlite:///{db}", bot_delay=0.03, autoplay_delay=0.05,
                                  next_deal_delay=1.0)).start()
    yield s
    s.stop()


def new_page(browser: Browser, lang: str, phone: bool) -> tuple[Page, list[str]]:
    return lang_page(browser, lang, allowed=(401,), phone=phone, viewport=PHONE if phone else DESKTOP,
                     locale="zh-CN" if lang == "zh" else "en-US", keep_lang=False)


def wait_turn_or_over(page: Page, timeout: float = 90_000) -> str:
    page.wait_for_function(
        """() => document.querySelector('#settlement .settle') ||
                 document.querySelector('.tablev.live[data-my-turn="1"] .act-main button')""",
        timeout=timeout,
    )
    return "over" if page.locator("#settlement .settle").count() else "turn"


def next_deal(page: Page) -> None:
    """Leave the settlement by its 准备 (or 继续) button and wait for the next deal's hand."""
    old = table(page).get_attribute("data-deal")
    page.locator('#settlement [data-action="ready"], #settlement [data-action="continue"]').locator(
        "visible=true").first.click()
    page.wait_for_function(
        """old => { const t = document.querySelector('.tablev.live');
                    return !document.getElementById('settlement') && t && t.dataset.deal !== old &&
                           t.querySelector('.hand .mj-concealed .mj-tile'); }""", arg=old, timeout=60_000)


def in_viewport(page: Page, selector: str) -> None:
    """Every element matching ``selector`` lies inside the window (nothing cut off on a phone)."""
    rects = page.eval_on_selector_all(selector, "els => els.map((e) => { const r = e.getBoundingClientRect(); "
                                      "return [r.x, r.y, r.width, r.height]; })")
    inside(page, rects, selector)


SNAPSHOT = """() => {
  const t = document.querySelector('.tablev.live');
  const rect = (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
  return {
    state: window.qipai.store.state,
    version: t.dataset.version,
    countdown: t.querySelector('.act-main .mj-countdown')?.textContent ?? null,
    claimOn: t.querySelector('.mj-claim-on')?.dataset.tile ?? null,
    buttons: Object.fromEntries([...t.querySelectorAll('.act-main button')]
      .map((b) => [b.dataset.action, b.innerText])),
    tiles: [...t.querySelectorAll('.hand .mj-concealed .mj-tile')]
      .map((e) => [e.dataset.tile, e.classList.contains('drawn'), rect(e)]),
    buttonRects: [...t.querySelectorAll('.act-main button')].map(rect),
    bao: t.querySelector('.me-game .mj-bao')?.dataset.bao ?? null,
  };
}"""


def inside(page: Page, rects: list[list[float]], what: str) -> None:
    vp = page.viewport_size
    assert vp is not None
    for x, y, w, h in rects:
        assert x >= -1 and x + w <= vp["width"] + 1 and y >= -1 and y + h <= vp["height"] + 1, (what, x, y, w, h, vp)


OVERLAPS = """(root) => {
  const t = document.querySelector(root);
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom].map(Math.round) };
  const felt = box(t.querySelector('.felt'));
  const parts = [];
  const put = (what, e) => { const r = box(e); if (r[2] > r[0] && r[3] > r[1]) parts.push({ what, r }); };
  // each seat box (name, standing, badges, the concealed count), each zone's melds, river and face-up hand, the middle
  for (const s of t.querySelectorAll('.seat-layer .seat')) put(`seat ${s.dataset.pos}`, s);
  for (const z of t.querySelectorAll('.mj-zone')) for (const e of z.children) put(`${e.className} ${z.dataset.pos}`, e);
  for (const e of t.querySelectorAll('.mj-mid > *')) put(e.className, e);
  const out = [];
  for (const { what, r } of parts) {
    const off = r[0] < felt[0] - 1 || r[1] < felt[1] - 1 || r[2] > felt[2] + 1 || r[3] > felt[3] + 1;
    if (off) out.push([what, 'off the felt', r, felt]);
  }
  const cross = (a, b) => a[0] < b[2] - 1 && b[0] < a[2] - 1 && a[1] < b[3] - 1 && b[1] < a[3] - 1;
  parts.forEach((p, i) => parts.slice(i + 1).forEach((q) => cross(p.r, q.r) && out.push([p.what, q.what, p.r, q.r])));
  return out;
}"""


def nothing_overlaps(page: Page, what: str, root: str = ".tablev.live") -> None:
    """No seat box (name, count) overlaps any zone's melds, river or face-up hand, nor the middle, nor one zone another;
    all of them lie on the felt.  (The right seat's melds once covered its count, the left seat's river its box.)"""
    out = page.evaluate(OVERLAPS, root)
    assert not out, (what, out)



def right_clock_off_its_name(page: Page) -> list[float]:
    """The right seat's countdown (seat 1, its turn) keeps off the words of its name; its box ``[x, y, w, h]``."""
    right = page.locator('.tablev.live .seat[data-pos="right"]')
    expect(right).to_have_attribute("data-seat", "1")
    clock = right.locator(".timer.on")
    expect(clock).to_have_text(re.compile(r"^\d+$"))
    box = clock.bounding_box()
    name = right.locator(".sname").evaluate("""(e) => { const r = document.createRange(); r.selectNodeContents(e);
        const b = r.getBoundingClientRect(); return [b.x, b.y, b.width, b.height]; }""")
    assert box is not None
    cb = [box["x"], box["y"], box["width"], box["height"]]
    crosses = (cb[0] < name[0] + name[2] - 0.5 and name[0] < cb[0] + cb[2] - 0.5
               and cb[1] < name[1] + name[3] - 0.5 and name[1] < cb[1] + cb[3] - 0.5)
    assert not crosses, (cb, name)
    return cb

def click_at(page: Page, rect: list[float]) -> None:
    x, y, w, h = rect
    page.mouse.click(x + w / 2, y + h / 2)


def press(page: Page, action: str) -> bool:
    """Click a button of the action row; False when it went away first (the window closed)."""
    try:
        page.locator(f'.tablev.live .act-main [data-action="{action}"]').click(timeout=3000)
    except Exception:
        return False
    return True


def play_turn(page: Page, snap: dict[str, Any], seen: dict[str, int], lang: str) -> None:
    """One decision of the player, by the mouse, from one snapshot of the page (the state and what it drew)."""
    st = snap["state"]
    obs = st["observation"]
    legal: list[str] = st["legal"]
    old = snap["version"]
    labels: dict[str, str] = snap["buttons"]
    if obs["phase"] == "claim":
        seen["windows"] += 1
        # the window's countdown counts seconds; the discard it is about is shown; the buttons are worded
        assert snap["countdown"] is not None and re.fullmatch(r"\d+ (秒|s)", snap["countdown"].strip()), snap
        assert snap["claimOn"] == obs["discard"]["tile"]
        # (a row too wide for one line, on a phone: a claim with several ways is one button, 吃（3）)
        folded = {k[len("claim-"):] for k in labels if k.startswith("claim-")}
        assert set(labels) == {a for a in legal if a.split()[0] not in folded} | {f"claim-{v}" for v in folded}, \
            (labels, legal)
        assert labels["pass"].strip() == ("过" if lang == "zh" else "Pass")
        for a in legal:
            if a not in labels:
                continue
            if a.startswith("chi"):
                assert ("吃" if lang == "zh" else "Chow") in labels[a]
            if a.startswith("peng"):
                assert ("碰" if lang == "zh" else "Pung") in labels[a]
            if a.endswith(" ting") or a == "peng ting":
                assert ("听" if lang == "zh" else "ready") in labels[a]
            if a == "hu":
                assert labels[a].strip() == ("胡" if lang == "zh" else "Win")
        ting = [a for a in legal if a.endswith("ting")]
        want = "hu" if "hu" in legal else ting[0] if ting else next((a for a in legal if a != "pass"), "pass")
        if want.split()[0] in folded:
            press(page, f"claim-{want.split()[0]}")
        if press(page, want) and want != "pass":
            seen["claims"] += 1
        wait_version_change(page, old, 30_000)
        return
    if "hu" in legal:
        press(page, "hu")
        wait_version_change(page, old, 30_000)
        return
    if obs.get("must") in ("win", "dailou"):
        press(page, "pass")
        wait_version_change(page, old, 30_000)
        return
    tiles = snap["tiles"]
    assert len(tiles) == obs["concealed"][st["you"]]
    assert [x for x, d, _ in tiles if d] == ([obs["drawn"]] if obs["drawn"] else [])
    tings = [a for a in legal if a.startswith("ting ") and "zhidui" not in a]
    discards = [a.split()[1] for a in legal if a.startswith("discard ")]
    drawn_or_last = obs["drawn"] if obs.get("drawn") in discards else discards[-1] if discards else None
    tile = tings[0].split()[1] if tings else drawn_or_last
    rect = next((r for x, d, r in tiles if x == tile and d), None) or next(r for x, _, r in tiles if x == tile)
    click_at(page, rect)
    expect(page.locator(f'.tablev.live .hand .mj-tile.raised[data-tile="{tile}"]')).to_have_count(1)
    if tings:
        expect(page.locator(f'.tablev.live .act-main [data-action="ting {tile}"]')).to_be_enabled()
        seen["ting"] += 1
        press(page, f"ting {tile}")
    elif seen["turns"] % 2:
        click_at(page, rect)  # a second click on the raised tile discards it
    else:
        press(page, "discard")
    seen["turns"] += 1
    wait_version_change(page, old, 30_000)


def full_rivers() -> list[list[str]]:
    """Twenty discards a seat, every kind of tile: the fullest rivers a layout must hold."""
    return [[tile_name(k % 28) for k in range(7 * i, 7 * i + 20)] for i in range(4)]


FULL_MELDS = [{"type": "chi", "tiles": "123m", "claimed": "2m", "from": 3},
              {"type": "gang", "tiles": "5555p", "claimed": "5p", "from": 1},
              {"type": "peng", "tiles": "999s", "claimed": "9s", "from": 2},
              {"type": "gang", "tiles": "ZZZZ", "claimed": "Z", "from": 0}]
"""Four melds (a chow, two kongs, a pung): the most a seat shows."""


def open_fullest(page: Page, g: Any, you: int | None, k: int, names: list[str]) -> Locator:
    """Table ``T{k+1}`` drawn from ``g`` at its fullest (twenty discards and four melds a seat; ``you``'s own
    melds as the game has them), after checking every river is there; the live table."""
    ft = MahjongTable(page, g, you=you, table_id=f"T{k + 1}", deal=k + 1, names=names)
    ft.extra_obs = {"melds": [g.observe(0)["melds"][0] if you == 0 and s == 0 else FULL_MELDS for s in range(4)],
                    "rivers": full_rivers()}
    ft.extra_state = {"deadline_ms": 60_000}
    ft.open()
    live = page.locator(".tablev.live")
    expect(live.locator(".mj-river")).to_have_count(4)
    expect(live.locator(".mj-river .mj-tile")).to_have_count(80)
    return live


@pytest.mark.parametrize("lang,viewport", [("zh", "desktop"), ("en", "phone")])
def test_a_whole_deal_by_mouse_to_the_settlement(browser: Browser, server: ThreadServer, lang: str,
                                                  viewport: str) -> None:
    phone = viewport == "phone"
    page, errors = new_page(browser, lang, phone)
    as_guest(page, server.url)
    page.locator('[data-action="quick-match"][data-room="daqing-1"]').click()
    expect(table(page)).to_be_visible()
    expect(table(page)).to_have_attribute("data-game", "mahjong")
    expect(page.locator(".tablev.live .hand .mj-concealed .mj-tile").first).to_be_visible(timeout=20_000)
    title = page.locator(".tablev.live .tinfo .preset").inner_text()
    assert title == ("大庆麻将" if lang == "zh" else "Daqing mahjong")
    # three bots sit at the other seats; four rivers are laid out
    expect(page.locator(".tablev.live .seat")).to_have_count(3)
    expect(page.locator(".tablev.live .mj-river")).to_have_count(4)
    # the player's title is his level of the 21 (§8): 1000 points make 中级 (Intermediate in English)
    me = page.evaluate("() => window.qipai.store.user")
    expect(page.locator(".tablev.live .me-info .title-tag")).to_have_text(
        MJ.title(1000) if lang == "zh" else "Intermediate")
    assert me["name"]
    seen = {"windows": 0, "claims": 0, "ting": 0, "turns": 0}
    shots = 0
    deals = 1
    for _ in range(400):
        if wait_turn_or_over(page) == "over":
            if seen["turns"] or deals == 3:
                break
            # a bot won before the player's first discard (about one deal in three hundred): play the next one
            next_deal(page)
            deals += 1
            seen = dict.fromkeys(seen, 0)
            continue
        snap = page.evaluate(SNAPSHOT)
        st = snap["state"]
        if not st["your_turn"] or str(st["version"]) != snap["version"]:
            print("SKIP", st["your_turn"], st["version"], snap["version"], st["phase"], st["autoplay"], snap["buttons"])
            continue
        obs = st["observation"]
        if obs["phase"] == "play":
            # the hand (13 or 14 tiles, the drawn one apart) and the buttons lie inside the window
            inside(page, [r for _, _, r in snap["tiles"]], "tiles")
            inside(page, snap["buttonRects"], "buttons")
            if shots == 0:
                shot(page, f"mahjong-{lang}-{viewport}-turn.png")
                shots += 1
        # the 宝 is shown to a ready player only
        assert snap["bao"] == (obs["bao"] if obs["ready"][st["you"]] else None)
        play_turn(page, snap, seen, lang)
    else:
        raise AssertionError("the deal did not end")
    assert seen["turns"] >= 1, seen
    # the settlement: the winner and how, each loser's fans, the payments (包三家 named when it applies)
    dlg = page.locator("#settlement")
    expect(dlg).to_be_visible()
    over = page.evaluate("() => window.qipai.store.dealOver")
    out = over["outcome"]
    shot(page, f"mahjong-{lang}-{viewport}-settlement.png")
    rows = dlg.locator(".settle-table tbody tr")
    expect(rows).to_have_count(4)
    if out["exhausted"]:
        expect(dlg.locator(".settle-head .big")).to_have_text("荒庄" if lang == "zh" else "Exhausted wall")
    else:
        st_ = out["settlement"]
        fan_words = {"zh": {"dealer": "庄", "closed": "门清", "self_drawn": "自摸", "jia": "夹", "bao": "宝",
                            "bao_zhong_bao": "宝中宝", "dian_pao": "点炮"},
                     "en": {"dealer": "dealer", "closed": "closed hand", "self_drawn": "self-drawn",
                            "jia": "middle wait", "bao": "treasure", "bao_zhong_bao": "treasure in treasure",
                            "dian_pao": "fed the win"}}[lang]
        for share in st_["shares"]:
            cell = dlg.locator(f'.settle-table tr[data-seat="{share["seat"]}"] td.fans').inner_text()
            for f in share["fans"]:
                assert fan_words[f] in cell, (f, cell)
            how = dlg.locator(f'.settle-table tr[data-seat="{share["seat"]}"] td.how').inner_text()
            assert how.endswith(f"= {share['share']}"), how
        pays = dlg.locator(".mj-payments li")
        expect(pays).to_have_count(len(st_["payments"]))
        for i, p in enumerate(st_["payments"]):
            text = pays.nth(i).inner_text()
            assert str(p["amount"]) in text
            if p["for"] != p["payer"]:
                assert ("替" if lang == "zh" else "for") in text
        if st_["bao_san_jia"]:
            expect(dlg.locator(".mj-bsj")).to_be_visible()
        for seat, s in enumerate(out["scores"]):
            delta = dlg.locator(f'.settle-table tr[data-seat="{seat}"] td.delta').inner_text()
            assert delta.replace("+", "") == str(s) or (s == 0 and delta in ("0", "±0")), (seat, delta, s)
    expect(dlg.locator(".mj-hand-row")).to_have_count(4)
    if phone:  # the whole settlement table fits the phone's width
        in_viewport(page, "#settlement .settle-head")
        in_viewport(page, "#settlement .settle-table td.delta")
    # the replay of the deal captions its steps in words
    deal_id = over["deal"]
    dlg.locator('[data-action="continue"], [data-action="ready"]').locator("visible=true").first.click()
    page.goto(f"{server.url}/#/replay/{deal_id}")
    expect(page.locator(".replay-table .tablev")).to_be_visible()
    page.locator('.replay-controls [data-action="next"]').click()
    what = page.locator(".step-what").inner_text()  # the dealer's first discard, in words
    assert ("打出" if lang == "zh" else "discards") in what, what
    assert not re.search(r"\b(discard|chi|peng) \d", what), what
    page.locator('.replay-controls [data-action="next"]').click()
    what = page.locator(".step-what").inner_text()
    assert what and not re.search(r"\b(discard|chi|peng) \d", what), what
    expect(page.locator(".replay-table .mj-river")).to_have_count(4)
    # a step where the viewer holds a drawn tile: the whole hand, that tile too, lies in the table (on a phone
    # 360 px wide the drawn tile was cut at the table's edge)
    if phone:
        page.set_viewport_size({"width": 360, "height": 740})
    # (or the place kept for it, the same width)
    drawn = page.locator(".replay-table .hand :is(.mj-tile.drawn, .mj-slot)")
    for _ in range(30):
        if drawn.count():
            break
        page.locator('.replay-controls [data-action="next"]').click()
    expect(drawn).to_have_count(1)
    edges = page.eval_on_selector_all(".replay-table :is(.tablev, .hand .mj-tile, .hand .mj-slot)",
                                      "els => els.map((e) => { "
                                      "const r = e.getBoundingClientRect(); return [r.left, r.right]; })")
    table_edges, tiles = edges[0], edges[1:]
    assert all(table_edges[0] - 0.5 <= a and b <= table_edges[1] + 0.5 for a, b in tiles), (table_edges, tiles)
    assert table_edges[1] <= (360 if phone else DESKTOP["width"]) + 0.5, table_edges
    page.locator('.replay-controls [data-action="last"]').click()
    expect(page.locator(".replay-table .mj-shown").first).to_be_visible()
    nothing_overlaps(page, "replay", ".replay-table .tablev")  # every hand face up
    shot(page, f"mahjong-{lang}-{viewport}-replay.png")
    assert not errors, errors
    page.context.close()


# ------------------------------------------------------------------ fixed moments, fed by the test
MJ = get_factory("mahjong")


def play_out(seed: int, stop: Callable[[Any], bool] = lambda g: False) -> Any:
    """Seed ``seed`` played by four efficiency bots until ``stop(game)`` holds or the deal is over."""
    g = MJ.new(MJ.options({}), seed, {"dealer": 0})
    bots = [BOTS["efficiency"](i) for i in range(4)]
    while g.phase != "over" and not stop(g):
        s = g.acting[0]
        g.apply(bots[s].act(g.observe(s), g.legal_actions(s)), s)
    return g


def reach(pred: Callable[[Any], bool], limit: int = 300) -> Any:
    """The first moment (seeds 0, 1, …; four efficiency bots) where ``pred(game)`` holds."""
    for seed in range(limit):
        g = play_out(seed, pred)
        if g.phase != "over":
            return g
    raise AssertionError("no such moment")


class MahjongTable(FakeTable):
    """The FakeTable of web_helpers for a mahjong table (the page believes it sits at seat 0)."""

    def table_view(self, status: str = "playing") -> dict[str, Any]:
        view = super().table_view(status)
        view.update({"game": "mahjong", "room": "daqing-1", "options": {"preset": "daqing"}})
        return view


def logged_in(browser: Browser, server: ThreadServer, lang: str, phone: bool) -> tuple[Page, list[str]]:
    page, errors = new_page(browser, lang, phone)
    as_guest(page, server.url)
    page.wait_for_function("() => window.qipai && window.qipai.conn.status === 'open' "
                           "&& window.qipai.store.welcomes > 0")
    return page, errors


@pytest.mark.parametrize("lang,viewport", [("zh", "desktop"), ("en", "phone")])
def test_a_claim_window_with_a_ready_claim(browser: Browser, server: ThreadServer, lang: str, viewport: str) -> None:
    """Seat 0 may claim the discard with a 吃听/碰听: every claim is a button in words (a chow shows its tiles), the
    window counts down, the discard is shown with its discarder; a click sends the claim with the decision id.  On
    the phone, in English, the words take more than a line: the ways to chow are behind one button (Chow (2))."""
    page, errors = logged_in(browser, server, lang, viewport == "phone")
    g = reach(lambda g: g.phase == "claim" and 0 in g.acting and any(a.endswith("ting") for a in g.legal_actions(0)))
    ft = MahjongTable(page, g)
    ft.extra_state = {"deadline_ms": 60_000}  # as the server gives a seat in a window its own deadline
    ft.open()
    legal = g.legal_actions(0)
    main = page.locator(".tablev.live .act-main")
    chis = [a for a in legal if a.startswith("chi")]
    folded = viewport == "phone" and len(chis) > 1
    expect(main.locator("button")).to_have_count(len(legal) - len(chis) + 1 if folded else len(legal))
    if folded:
        main.locator('[data-action="claim-chi"]').click()
        expect(main.locator("button")).to_have_count(len(chis) + 1)
    for a in chis if folded else legal:
        text = main.locator(f'[data-action="{a}"]').inner_text()
        words = {"zh": {"chi": "吃", "peng": "碰", "hu": "胡", "pass": "过"},
                 "en": {"chi": "Chow", "peng": "Pung", "hu": "Win", "pass": "Pass"}}[lang]
        assert words[a.split()[0]] in text, (a, text)
        if a.endswith("ting"):
            assert ("听" if lang == "zh" else "ready") in text, (a, text)
        if a.startswith("chi"):
            tiles = main.locator(f'[data-action="{a}"] .mj-tile').evaluate_all("els => els.map(e => e.dataset.tile)")
            assert "".join(x[0] for x in tiles) + tiles[0][1] == a.split()[1]
    cd = main.locator(".mj-countdown")
    expect(cd).to_have_text(re.compile(r"^(59|60) (秒|s)$"))
    page.wait_for_timeout(1300)
    expect(cd).to_have_text(re.compile(r"^(57|58|59) (秒|s)$"))  # it counts down
    d = g.observe(0)["discard"]
    expect(page.locator(f'.tablev.live .mj-claim-on[data-tile="{d["tile"]}"][data-seat="{d["seat"]}"]')).to_be_visible()
    in_viewport(page, ".tablev.live .act-main button")
    assert page.locator(".tablev.live .mj-zone .mj-meld").count() >= 2  # the moment has melds on the board
    nothing_overlaps(page, "claim")
    shot(page, f"mahjong-{lang}-{viewport}-claim.png")
    ting = next(a for a in legal if a.endswith("ting"))
    main.locator(f'[data-action="{ting}"]').click()
    sent = ft.sent("action")
    assert sent[-1]["action"] == ting and sent[-1]["decision"] == g.decision_index(0)
    expect(main.locator(f'[data-action="{ting}"]')).to_be_disabled()  # one answer per decision
    assert not errors, errors
    page.context.close()


def test_a_ready_player_sees_the_bao_and_plays_by_itself(browser: Browser, server: ThreadServer) -> None:
    """A ready seat 0: the 听 badge, the 宝 in its bar, the words that the engine draws and discards for it; the
    other seats see only that a 宝 is set."""
    page, errors = logged_in(browser, server, "zh", False)
    g = reach(lambda g: g.phase == "play" and g.turn != 0 and g.ready[0] and g.bao is not None)
    ft = MahjongTable(page, g)
    ft.open()
    bao = g.observe(0)["bao"]
    expect(page.locator(f'.tablev.live .me-game .mj-bao[data-bao="{bao}"] .mj-tile[data-tile="{bao}"]')).to_be_visible()
    expect(page.locator(".tablev.live .me-game .mj-ready")).to_have_text("听")
    expect(page.locator(".tablev.live .mj-ready-msg")).to_contain_text("自动摸打")
    # a seat that is not ready: the 宝 is set but hidden
    others = [s for s in range(4) if not g.ready[s]]
    assert others
    ft2 = MahjongTable(page, g, you=others[0], table_id="T2", deal=2)
    ft2.open()
    expect(page.locator('.tablev.live .tgame .mj-bao[data-bao=""] .mj-tile.back')).to_be_visible()
    expect(page.locator(".tablev.live .tgame .hidden-bao")).to_have_text("宝已定（听牌后可见）")
    expect(page.locator(".tablev.live .me-game .mj-bao")).to_have_count(0)
    assert not errors, errors
    page.context.close()


class EfficiencyBotsTable(MahjongTable):
    """A MahjongTable whose bots are the efficiency bots of quick match (机器人 · 普通: the 普通 level players choose,
    as the terminal names it; it said 牌效, a name players meet nowhere else)."""

    def seat_view(self, i: int) -> dict[str, Any]:
        view = super().seat_view(i)
        if view["bot"]:
            view["bot"] = "efficiency"
        return view


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_top_rows_bot_badges_fit_their_boxes_on_a_phone(browser: Browser, server: ThreadServer,
                                                             lang: str) -> None:
    """On a phone the three other seats share the top row: each bot's badge (机器人 · 普通, Bot · normal) lies
    within its seat box and the window (the right seat's was cut at the window's edge, the left one's ran towards
    the middle seat), its whole text in its title."""
    page, errors = logged_in(browser, server, lang, True)
    g = reach(lambda g: g.phase == "play" and g.turn == 0)
    ft = EfficiencyBotsTable(page, g)
    ft.open()
    badges = page.locator(".tablev.live .seat .badge.bot")
    expect(badges).to_have_count(3)
    word = {"zh": "机器人 · 普通", "en": "Bot · normal"}[lang]
    for i in range(3):
        expect(badges.nth(i)).to_have_attribute("title", word)
    out = page.evaluate("""() => [...document.querySelectorAll('.tablev.live .seat')].flatMap((s) => {
        const b = s.getBoundingClientRect();
        return [...s.querySelectorAll('.badge, .sname')].map((e) => {
          const r = e.getBoundingClientRect();
          return { pos: s.dataset.pos, what: e.className, seat: [b.left, b.right], it: [r.left, r.right] };
        }).filter((x) => x.it[0] < x.seat[0] - 0.5 || x.it[1] > x.seat[1] + 0.5 || x.it[1] > innerWidth);
      })""")
    assert not out, out
    shot(page, f"mahjong-{lang}-phone-bot-badges.png")
    assert not errors, errors
    page.context.close()


def fan_count(g: Any) -> int:
    st = g.outcome()["settlement"] or {}
    return sum(len(s["fans"]) for s in st.get("shares", [])) + len(st.get("hand_fans", []))


def test_a_long_settlement_stays_within_a_phone(browser: Browser, server: ThreadServer) -> None:
    """The settlement with the most fans of sixty deals, in English (the longest words), with long names and big
    scores, on a phone: every cell of its table lies inside the window (the table wraps, it never runs off)."""
    page, errors = logged_in(browser, server, "en", True)
    g = max((play_out(seed) for seed in range(60)), key=fan_count)
    assert fan_count(g) >= 8
    names = ["bot:heuristic:1", "Aleksandrovna-Konstantinopolskaya", "bot:efficiency:3", "Wolfeschlegelsteinhausen"]
    names[0] = page.evaluate("() => window.qipai.store.user.name")
    ft = MahjongTable(page, g, names=names)
    ft.open()
    ft.deal_over(title="新手")
    expect(page.locator("#settlement .settle-table tbody tr")).to_have_count(4)
    # each seat's title after the deal in English, as the seats show it (not the server's Chinese name)
    expect(page.locator("#settlement .settle-table .standing-after").first).to_contain_text("Novice")
    cells = page.locator("#settlement .settle-table").inner_text()
    assert not re.search(r"[\u3400-\u9fff]", cells), cells
    in_viewport(page, "#settlement .settle-table td")
    in_viewport(page, "#settlement .settle-table th")
    shot(page, "mahjong-en-phone-long-settlement.png")
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("lang,viewport", [("zh", "desktop"), ("en", "desktop"), ("zh", "phone"), ("en", "phone")])
def test_seats_melds_and_rivers_keep_apart(browser: Browser, server: ThreadServer, lang: str, viewport: str) -> None:
    """The felt at its fullest — a claim window with every seat's river as long as an exhausted wall makes them (20
    tiles), four melds each (two of them kongs of four tiles, as other rules have), people's names with their title
    and points, 庄 听 托管 badges — seen from each of the four seats: no seat box (name, count) overlaps a zone's
    melds or river, nor the middle, nor another zone, and all of them lie on the felt."""
    page, errors = logged_in(browser, server, lang, viewport == "phone")
    g = reach(lambda g: g.phase == "claim" and 0 in g.acting and sum(g.ready) >= 2)
    rivers = full_rivers()
    melds = FULL_MELDS
    me = page.evaluate("() => window.qipai.store.user.name")
    for you in range(4):
        names = ["Wolfeschlegelsteinhausen", "Aleksandrovna", "bot:heuristic:3", "Konstantinopolskaya"]
        names[you] = me
        ft = MahjongTable(page, g, you=you, table_id=f"T{you + 1}", deal=you + 1, names=names)
        # the viewer's own melds are the real ones (four melds leave one concealed tile, not thirteen)
        ft.extra_obs = {"melds": [g.observe(0)["melds"][s] if s == you else melds for s in range(4)], "rivers": rivers}
        ft.extra_state = {"autoplay": [s != you for s in range(4)]}
        ft.open()
        expect(page.locator(".tablev.live .mj-zone .mj-meld")).to_have_count(12)  # four at each other seat
        people = [s for s in range(4) if s != you and not names[s].startswith("bot:")]
        expect(page.locator(".tablev.live .seat .standing")).to_have_count(len(people))
        if you == 0:
            shot(page, f"mahjong-{lang}-{viewport}-full.png")
        nothing_overlaps(page, f"seat {you}")
    # a spectator sees four seat boxes, the bottom one under its zone
    ft = MahjongTable(page, g, you=None, table_id="T5", deal=5, names=names)
    ft.extra_obs = {"melds": [melds] * 4, "rivers": rivers}
    ft.open()
    expect(page.locator(".tablev.live .seat")).to_have_count(4)
    nothing_overlaps(page, "spectator")
    # a spectator has no hand: the felt reaches down to the bar and the (empty) action row, no hand-high gap below
    rows = page.evaluate("""() => { const t = document.querySelector('.tablev.live.spectating');
      const b = (s) => t.querySelector(s).getBoundingClientRect();
      return { table: t.getBoundingClientRect().bottom, felt: b('.felt').bottom, bar: b('.mebar').height,
               actions: b('.actions').height }; }""")
    assert rows["table"] - rows["felt"] <= rows["bar"] + rows["actions"] + 2, rows
    shot(page, f"mahjong-{lang}-{viewport}-spectator.png")
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("lang,viewport", [("zh", "desktop"), ("en", "phone")])
def test_the_claim_countdown_in_autoplay_and_without_a_deadline(browser: Browser, server: ThreadServer, lang: str,
                                                                 viewport: str) -> None:
    """Seat 0 in auto-play (托管) may claim a discard: the server still gives the seat its window's deadline (its
    auto-play answers for it within the window, and until then the seat may claim by hand), so the countdown shows
    the seconds next to the claim buttons.  A state that gives the seat no deadline shows no countdown, never an
    empty circle; the buttons stay."""
    page, errors = logged_in(browser, server, lang, viewport == "phone")
    g = reach(lambda g: g.phase == "claim" and 0 in g.acting)
    ft = MahjongTable(page, g)
    ft.extra_state = {"autoplay": [True, False, False, False], "deadline_ms": 8_000}
    ft.open()
    live = page.locator(".tablev.live")
    expect(live).to_have_attribute("data-autoplay", "1")
    main = live.locator(".act-main")
    expect(main.locator("button")).to_have_count(len(g.legal_actions(0)))
    cd = main.locator(".mj-countdown")
    expect(cd).to_have_text(re.compile(r"^[78] (秒|s)$"))
    page.wait_for_timeout(1300)
    expect(cd).to_have_text(re.compile(r"^[567] (秒|s)$"))  # it counts down
    shot(page, f"mahjong-{lang}-{viewport}-claim-auto.png")
    ft.version += 1
    ft.push_state(autoplay=[True, False, False, False], deadline_ms=None)
    expect(main.locator("button")).to_have_count(len(g.legal_actions(0)))
    page.wait_for_timeout(600)  # the view's tick (four a second) adds none either
    expect(cd).to_have_count(0)
    assert not errors, errors
    page.context.close()


def test_the_replay_tells_an_auto_play_discard_from_a_ready_hands(browser: Browser, server: ThreadServer) -> None:
    """Both are logged ``auto``: a seat that declared ready (听) draws and discards by itself, a seat in auto-play
    (托管) or out of time has its discard made for it; the caption says which (it said "ready" for both)."""
    page, errors = new_page(browser, "en", phone=False)
    page.goto(server.url)
    said = page.evaluate("""async () => {
      const mod = await import("/js/games/mahjong/index.js");
      const ctx = { seatName: (s) => `Seat${s}` };
      const step = (log) => ({ seat: 1, action: "discard 5m", observation: { log } });
      const auto = { seat: 1, action: "discard 5m", auto: true };
      const ting = { seat: 1, action: "ting 3m" };
      return [mod.caption(step([auto]), step([]), null, ctx),
              mod.caption(step([ting, auto]), step([ting]), null, ctx),
              mod.caption(step([ting, auto]), step([]), null, ctx)];
    }""")
    assert "auto-play" in said[0] and "ready" not in said[0], said
    assert "(ready hand)" in said[1] and "auto-play" not in said[1], said
    assert "(ready hand)" in said[2], said  # the ting in the same step comes first
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("lang,viewport", [("zh", "desktop"), ("en", "phone")])
def test_declaring_ready_a_ready_hand_and_the_next_deal_are_three_words(browser: Browser, server: ThreadServer,
                                                                       lang: str, viewport: str) -> None:
    """听 (the button that declares a ready hand, the badge of a seat that has, the hint that a hand is one tile
    away) and 准备 (the settlement's button for the next deal, and the seats' mark that they pressed it) are other
    things: in English they were all "Ready"."""
    page, errors = logged_in(browser, server, lang, viewport == "phone")
    g = reach(lambda g: g.phase == "play" and g.turn == 0 and any(a.startswith("ting") for a in g.legal_actions(0)))
    ft = MahjongTable(page, g)
    ft.extra_obs = {"ready": [False, True, False, False]}
    ft.open()
    words = {"zh": ("听", "听", "准备", "✓ 已准备"),
             "en": ("Declare ready", "Ready hand", "Next deal", "✓ Next deal")}[lang]
    ting = page.locator('.tablev.live .act-main [data-action^="ting"]').first
    expect(ting).to_contain_text(words[0])
    badge = page.locator('.tablev.live .seat[data-seat="1"] .badge.mj-ready')
    expect(badge).to_have_text(words[1])
    hint = page.locator(".tablev.live .me-game :is(.mj-shanten, .mj-waits)")
    if hint.count():
        assert hint.inner_text().strip() not in ("Ready", words[2]), hint.inner_text()
    shot(page, f"mahjong-{lang}-{viewport}-declare-ready.png")
    # the deal ends: the settlement's button for the next deal and the seats' mark
    ft.game = play_out(3)
    ft.version += 1
    ft.extra_obs = {}
    ft.push_state()
    ft.extra_table.update(ready=None, ready_deadline_ms=None)
    ft.deal_over(title="新手")
    ft.push_table(ready=[False, True, True, True], ready_deadline_ms=15_000)
    nxt = page.locator('#settlement [data-action="ready"]')
    expect(nxt).to_have_text(words[2])
    expect(page.locator('.tablev.live .seat[data-seat="1"] .badge.ready')).to_have_text(words[3])
    if lang == "en":
        assert words[2] not in (words[0], words[1])
        assert nxt.inner_text().strip() != "Ready"
    assert not errors, errors
    page.context.close()


def test_a_phone_reads_the_rivers_and_melds_and_the_right_seats_clock_keeps_off_its_name(browser: Browser,
                                                                                          server: ThreadServer) -> None:
    """On a phone the rivers' and melds' tiles were a nineteenth and a twenty-fourth of the window (18 and 15 px
    wide, 万 筒 条 5 to 6 px high): each is at least 21 px wide and its number and suit at least 9.5 px high, within
    the tile; the felt still keeps every zone and seat apart.  The right seat's countdown covered the first
    characters of its name (no avatar there on a phone): it keeps off the name and within the window."""
    page, errors = logged_in(browser, server, "zh", True)
    g = reach(lambda g: g.phase == "play" and g.turn == 1 and all(len(g.observe(0)["melds"][s]) for s in (1, 2, 3)))
    names = ["x", "Wolfeschlegelsteinhausen", "Aleksandrovna", "Konstantinopolskaya"]
    names[0] = page.evaluate("() => window.qipai.store.user.name")
    rivers = full_rivers()
    ft = MahjongTable(page, g, names=names)
    ft.extra_obs = {"rivers": rivers}
    ft.extra_state = {"deadline_ms": 30_000}
    ft.open()
    cb = right_clock_off_its_name(page)
    shot(page, "mahjong-zh-phone-tiles-and-clock.png")
    inside(page, [cb], "the right seat's countdown")
    small = page.evaluate("""() => [...document.querySelectorAll(
        '.tablev.live .mj-zone :is(.mj-river, .mj-melds) .mj-tile:not(.back)')].flatMap((t) => {
      const r = t.getBoundingClientRect();
      const out = [];
      if (r.width < 21) out.push(['narrow', t.dataset.tile, r.width]);
      for (const g of t.querySelectorAll('.n, .su')) {
        const px = parseFloat(getComputedStyle(g).fontSize);
        const q = g.getBoundingClientRect();
        if (px < 9.5) out.push(['small', t.dataset.tile, g.className, px]);
        if (q.top < r.top - 1 || q.bottom > r.bottom + 1) out.push(['out of the tile', t.dataset.tile, g.className]);
      }
      return out; })""")
    assert page.locator(".tablev.live .mj-zone .mj-meld").count() >= 3
    assert not small, small[:8]
    nothing_overlaps(page, "phone tiles")
    assert not errors, errors
    page.context.close()


RING = """(root) => {
  const t = document.querySelector(root);
  const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect();
                       return { l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height,
                                cx: r.left + r.width / 2, cy: r.top + r.height / 2 }; };
  const out = { felt: box(t.querySelector('.felt')), mid: box(t.querySelector('.mj-mid')), rivers: {}, seats: {},
                lines: {}, tiles: {}, hand: box(t.querySelector('.hand .mj-concealed')),
                compass: box(t.querySelector('.mj-mid .mj-compass')) };
  for (const pos of ['left', 'top', 'right', 'bottom']) {
    out.seats[pos] = box(t.querySelector(`.seat-layer .seat[data-pos="${pos}"]`));
    const river = t.querySelector(`.mj-zone[data-pos="${pos}"] > .mj-river`);
    out.rivers[pos] = box(river);
    // the river's rows (the left and right seats' run down the window): how many tiles each holds, in order
    const side = pos === 'left' || pos === 'right';
    const lines = new Map();
    const tiles = [...river.querySelectorAll('.mj-tile')].map(box);
    for (const r of tiles) { const k = Math.round(side ? r.l : r.t); lines.set(k, (lines.get(k) || 0) + 1); }
    out.lines[pos] = [...lines.values()];
    out.tiles[pos] = tiles.map((r) => [r.w, r.h]);
  }
  return out;
}"""


def rivers_ring_the_middle(page: Page, what: str, root: str = ".tablev.live", across: int = 6) -> dict[str, Any]:
    """The four rivers lie around the middle of the felt (a desktop), each between its seat and the middle and close
    to it, in rows of six (the opposite seat's and the viewer's in rows of ``across``: twelve on a short window);
    the middle is the felt's centre.  (They lay in the corners beside the seat boxes, under them, with the middle of
    the table empty.)"""
    g = page.evaluate(RING, root)
    felt, mid, rv, seats = g["felt"], g["mid"], g["rivers"], g["seats"]
    near = 0.06 * felt["w"]  # a river's gap to the middle: a few tiles at most
    # the middle is the felt's centre (across; down, within its middle third), and shows the wall
    assert abs(mid["cx"] - felt["cx"]) <= 0.03 * felt["w"], (what, mid, felt)
    assert felt["t"] + felt["h"] / 3 <= mid["cy"] <= felt["b"] - felt["h"] / 3, (what, mid, felt)
    assert g["compass"] and g["compass"]["w"] > 0, (what, "no wall count in the middle")
    # each seat's river between its seat (box, or the viewer's hand) and the middle, and near the middle
    left, top, right, bottom = rv["left"], rv["top"], rv["right"], rv["bottom"]
    assert seats["left"]["r"] <= left["l"] and left["r"] <= mid["l"] <= left["r"] + near, \
        (what, "left", seats["left"], left, mid)
    assert mid["r"] <= right["l"] <= mid["r"] + near and right["r"] <= seats["right"]["l"], \
        (what, "right", right, mid, seats["right"])
    assert seats["top"]["b"] <= top["t"] and top["b"] <= mid["t"] <= top["b"] + near, \
        (what, "top", seats["top"], top, mid)
    owner = seats["bottom"] or g["hand"]  # the viewer's river is above the hand, a spectator's bottom one above the box
    assert mid["b"] <= bottom["t"] <= mid["b"] + near and bottom["b"] <= owner["t"], \
        (what, "bottom", mid, bottom, owner)
    # the left and right rivers beside the middle, the top and bottom ones over and under it
    for r in (left, right):
        assert r["t"] < mid["cy"] < r["b"] and abs(r["cy"] - mid["cy"]) <= 0.05 * felt["h"], (what, r, mid)
    for r in (top, bottom):
        assert abs(r["cx"] - mid["cx"]) <= 2, (what, r, mid)
    # rows of six (twenty tiles: 6 6 6 2; in rows of twelve, 12 8), upright tiles (none squeezed)
    for pos, lines in g["lines"].items():
        n = sum(lines)
        k = across if pos in ("top", "bottom") else 6
        assert lines == [k] * (n // k) + ([n % k] if n % k else []), (what, pos, lines)
        for w, h in g["tiles"][pos]:
            assert w >= 20 and abs(h / w - 1.36) < 0.05, (what, pos, w, h)
    return g


@pytest.mark.parametrize("lang,size", [("zh", (1280, 800)), ("en", (1366, 768)), ("zh", (1920, 1080)),
                                       ("en", (1024, 700)), ("zh", (1280, 560)), ("en", (1280, 640)),
                                       ("zh", (1366, 640)), ("en", (1024, 600))])
def test_a_desktops_rivers_ring_the_middle(browser: Browser, server: ThreadServer, lang: str,
                                            size: tuple[int, int]) -> None:
    """A desktop's table as a real one (and JJ's, 欢乐's): the four rivers around the middle, each in front of its
    seat — the viewer's above the hand, the opposite seat's under its box, the left and right seats' beside the
    middle — in rows of six, the wall and the 宝 in the middle; at the felt's fullest (twenty discards a seat, four
    melds, a claim window; then another seat's turn with its clock) nothing overlaps, from the seat and for a
    spectator.  (The rivers lay in the corners beside the seat boxes and the middle was empty.)  A short window (a
    laptop's under the browser's bars, down to 560 px) keeps the ring, the opposite seat's river and the viewer's in
    rows of twelve: the rivers ran off the felt, over the claimed discard and under the viewer's bar."""
    across = 12 if size[1] < 700 else 6
    page, errors = logged_in(browser, server, lang, False)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    g = reach(lambda g: g.phase == "claim" and 0 in g.acting and sum(g.ready) >= 2)
    rivers = full_rivers()
    melds = FULL_MELDS
    names = ["x", "Wolfeschlegelsteinhausen", "Aleksandrovna", "Konstantinopolskaya"]
    names[0] = page.evaluate("() => window.qipai.store.user.name")
    ft = MahjongTable(page, g, names=names)
    ft.extra_obs = {"melds": [g.observe(0)["melds"][0]] + [melds] * 3, "rivers": rivers}
    ft.extra_state = {"deadline_ms": 60_000}
    ft.open()
    expect(page.locator(".tablev.live .mj-claim-on")).to_be_visible()
    expect(page.locator(".tablev.live .mj-compass")).to_contain_text(str(g.observe(0)["wall"]))
    nothing_overlaps(page, "claim")
    rivers_ring_the_middle(page, "claim", across=across)
    in_viewport(page, ".tablev.live :is(.act-main > *, .hand .mj-tile, .seat, .mj-river, .mj-melds)")
    shot(page, f"mahjong-{lang}-{size[0]}-ring-claim.png")
    # another seat's turn, its clock on its box: the clock keeps off the rivers and melds too
    g2 = reach(lambda g: g.phase == "play" and g.turn == 2)
    ft2 = MahjongTable(page, g2, table_id="T2", deal=2, names=names)
    ft2.extra_obs = {"melds": [g2.observe(0)["melds"][0]] + [melds] * 3, "rivers": rivers}
    ft2.extra_state = {"deadline_ms": 30_000}
    ft2.open()
    expect(page.locator('.tablev.live .seat[data-pos="top"] .timer.on')).to_be_visible()
    rivers_ring_the_middle(page, "top's turn", across=across)
    nothing_overlaps(page, "top's turn")
    clock = page.locator('.tablev.live .seat[data-pos="top"] .timer.on').bounding_box()
    assert clock is not None
    others = page.eval_on_selector_all(".tablev.live :is(.mj-river, .mj-melds, .mj-mid > *)",
                                       "els => els.map((e) => { const r = e.getBoundingClientRect(); "
                                       "return [r.x, r.y, r.width, r.height]; })")
    for x, y, w, h in others:
        assert not (clock["x"] < x + w and x < clock["x"] + clock["width"] and clock["y"] < y + h
                    and y < clock["y"] + clock["height"]), (clock, [x, y, w, h])
    shot(page, f"mahjong-{lang}-{size[0]}-ring-turn.png")
    # a spectator: four seat boxes, the bottom one under its river, its melds beside it
    ft3 = MahjongTable(page, g, you=None, table_id="T3", deal=3, names=names)
    ft3.extra_obs = {"melds": [melds] * 4, "rivers": rivers}
    ft3.open()
    expect(page.locator(".tablev.live .seat")).to_have_count(4)
    rivers_ring_the_middle(page, "spectator", across=across)
    nothing_overlaps(page, "spectator")
    shot(page, f"mahjong-{lang}-{size[0]}-ring-spectator.png")
    assert not errors, errors
    page.context.close()


SEEN = """(root) => {
  const t = document.querySelector(root);
  const out = [];
  // a tile is seen when it lies in the window and nothing covers its middle (a click there reaches it)
  const check = (what, e) => {
    const r = e.getBoundingClientRect();
    if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) {
      out.push([what, e.dataset.tile, 'out of the window', [r.left, r.top, r.right, r.bottom]]);
      return;
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || (hit !== e && !e.contains(hit))) out.push([what, e.dataset.tile, 'covered by', hit && hit.className]);
  };
  // (the board takes no clicks: for the look, its rivers do)
  const rivers = [...t.querySelectorAll('.mj-river')];
  for (const r of rivers) r.style.pointerEvents = 'auto';
  for (const z of t.querySelectorAll('.mj-zone')) {
    for (const e of z.querySelectorAll('.mj-river .mj-tile')) check(`river ${z.dataset.pos}`, e);
  }
  for (const r of rivers) r.style.pointerEvents = '';
  for (const e of t.querySelectorAll('.hand .mj-tile')) check('hand', e);
  for (const e of t.querySelectorAll('.act-main button')) check('button', e);
  // each seat box's parts (initial, name, title and points, badges, tile count) inside it and apart
  for (const s of t.querySelectorAll('.seat-layer .seat')) {
    const b = s.getBoundingClientRect();
    const parts = [...s.querySelectorAll(':scope > .avatar, .sname, .standing, .badges, :scope > .seat-game')]
      .map((e) => [e.className, e.getBoundingClientRect()]).filter(([, r]) => r.width && r.height);
    for (const [what, r] of parts) {
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) {
        out.push([`seat ${s.dataset.pos}`, what, 'out of its box']);
      }
    }
    parts.forEach(([a, p], i) => parts.slice(i + 1).forEach(([c, q]) => {
      if (p.left < q.right - 1 && q.left < p.right - 1 && p.top < q.bottom - 1 && q.top < p.bottom - 1) {
        out.push([`seat ${s.dataset.pos}`, a, c]);
      }
    }));
  }
  return out;
}"""


@pytest.mark.parametrize("lang,size", [("zh", (800, 600)), ("en", (900, 700)), ("zh", (1000, 560)),
                                       ("en", (1000, 560)), ("en", (600, 600))])
def test_a_window_between_a_phone_and_a_desktop_keeps_every_river_and_the_hand_in_sight(
        browser: Browser, server: ThreadServer, lang: str, size: tuple[int, int]) -> None:
    """A window 561 to 1023 px wide (the ring of rivers needs a desktop's width) keeps the narrow layout, and a short
    one there is compacted as a desktop's: at 800×600 the discard a claim window is about lay over the opposite
    seat's river and the viewer's, at 1000×560 the side seats' rivers ran off the felt under the viewer's bar, at
    600 px the opposite river wrapped into a third row.  At the felt's fullest (twenty discards a seat, four melds a
    seat, long names, a claim window; the viewer's own turn; a spectator): no seat, zone or the middle overlaps
    another or leaves the felt, every river's every tile is in the window and uncovered, each seat box's parts keep
    apart, the hand lies whole in the window and a click on a tile raises it."""
    page, errors = logged_in(browser, server, lang, False)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    names = ["x", "Wolfeschlegelsteinhausen", "Aleksandrovna", "Konstantinopolskaya"]
    names[0] = page.evaluate("() => window.qipai.store.user.name")
    claim = reach(lambda g: g.phase == "claim" and 0 in g.acting and sum(g.ready) >= 2)
    turn = reach(lambda g: g.phase == "play" and g.turn == 0 and not g.ready[0])
    for k, (g, you, what) in enumerate([(claim, 0, "claim"), (turn, 0, "turn"), (claim, None, "spectator")]):
        live = open_fullest(page, g, you, k, names)
        # the narrow layout (the ring's middle shows the wall count; here the top bar does)
        expect(live.locator(".mj-compass")).to_be_hidden()
        if what == "claim":
            expect(live.locator(".mj-claim-on")).to_be_visible()
        nothing_overlaps(page, what)
        bad = page.evaluate(SEEN, ".tablev.live")
        assert not bad, (what, size, bad[:6])
        if you is not None:
            tiles = live.locator(".hand .mj-concealed .mj-tile")
            expect(tiles).to_have_count(g.observe(0)["concealed"][0])
        if what == "turn":
            # a click on the drawn tile (the hand's last, apart) raises it
            last = live.locator(".hand .mj-concealed .mj-tile").last
            tile = last.get_attribute("data-tile")
            last.click()
            expect(live.locator(f'.hand .mj-tile.raised[data-tile="{tile}"]')).to_have_count(1)
        shot(page, f"mahjong-{lang}-{size[0]}x{size[1]}-{what}.png")
    assert not errors, errors
    page.context.close()



def reach_claim(pred: Callable[[list[str]], bool], limit: int = 300) -> tuple[Any, int]:
    """The first claim window (seeds 0, 1, …; four efficiency bots) where a seat's legal actions satisfy ``pred``:
    the game and that seat."""
    def seats(g: Any) -> list[int]:
        return [s for s in g.acting if g.phase == "claim" and pred(g.legal_actions(s))]

    for seed in range(limit):
        g = play_out(seed, lambda g: bool(seats(g)))
        if g.phase != "over":
            return g, seats(g)[0]
    raise AssertionError("no such claim window")


@pytest.mark.parametrize("lang,size", [("zh", (390, 844)), ("en", (390, 844)), ("zh", (360, 740)),
                                       ("en", (360, 740))])
def test_a_phone_keeps_a_long_claim_row_on_one_line(browser: Browser, server: ThreadServer, lang: str,
                                                    size: tuple[int, int]) -> None:
    """A phone held upright, a claim window offering six claims (吃听 twice, 吃 three ways, 过) and its countdown:
    the buttons keep to one row of the height the row has between turns, so the tools above it (托管, 快捷语)
    stay where they were (two rows moved them up by a button's height under a finger), and every button lies
    whole in the window, uncovered, its words and tiles inside it.  Too many for one line, the row shows one
    button a claim (吃（5）); a tap on it shows its ways, each with its tiles, and 返回; a way tapped is sent."""
    page, errors = logged_in(browser, server, lang, True)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    g, seat = reach_claim(lambda legal: len(legal) >= 6)
    waiting = reach(lambda g: g.phase == "play" and g.turn != seat)
    tops = []
    for k, (moment, what) in enumerate([(waiting, "waiting"), (g, "claim")]):
        ft = MahjongTable(page, moment, you=seat, table_id=f"T{k + 1}", deal=k + 1)
        ft.extra_state = {"deadline_ms": 60_000}
        ft.open()
        live = page.locator(".tablev.live")
        expect(live).to_have_attribute("data-table", f"T{k + 1}")
        if what == "claim":
            expect(live.locator(".act-main button")).to_have_count(2)  # 吃（5） and 过
            expect(live.locator(".act-main .mj-countdown")).to_be_visible()
        box = live.locator('.act-tools [data-action="autoplay"]').bounding_box()
        assert box is not None
        tops.append(box["y"])
    rows = page.eval_on_selector_all(".tablev.live .act-main > *", "els => els.map((e) => { "
                                     "const r = e.getBoundingClientRect(); return [r.top, r.bottom]; })")
    assert max(r[0] for r in rows) < min(r[1] for r in rows), ("two rows", size, rows)
    assert abs(tops[1] - tops[0]) < 1, ("the tools moved", size, tops)
    bad = page.evaluate(SEEN_BUTTONS)
    assert not bad, (size, bad)
    shot(page, f"mahjong-{lang}-{size[0]}x{size[1]}-long-claim.png")
    legal = g.legal_actions(seat)
    chis = [a for a in legal if a.startswith("chi")]
    main = page.locator(".tablev.live .act-main")
    group = main.locator('[data-action="claim-chi"]')
    expect(group).to_have_text(f"吃（{len(chis)}）" if lang == "zh" else f"Chow ({len(chis)})")
    expect(main.locator('[data-action="pass"]')).to_be_visible()
    group.tap()
    expect(main.locator("button")).to_have_count(len(chis) + 1)
    for a in chis:
        tiles = main.locator(f'[data-action="{a}"] .mj-tile').evaluate_all("els => els.map(e => e.dataset.tile)")
        assert "".join(x[0] for x in tiles) + tiles[0][1] == a.split()[1], (a, tiles)
    shot(page, f"mahjong-{lang}-{size[0]}x{size[1]}-long-claim-ways.png")
    main.locator('[data-action="claim-back"]').tap()
    expect(main.locator('[data-action="claim-chi"]')).to_be_visible()
    main.locator('[data-action="claim-chi"]').tap()
    pick = chis[-1]
    main.locator(f'[data-action="{pick}"]').tap()
    sent = ft.sent("action")
    assert sent[-1]["action"] == pick and sent[-1]["decision"] == g.decision_index(seat), sent[-1]
    assert not errors, errors
    page.context.close()



@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
def test_the_hand_stays_put_when_the_drawn_tile_comes(browser: Browser, server: ThreadServer,
                                                      size: tuple[int, int]) -> None:
    """The drawn tile comes into a place kept for it at the hand's right: the thirteen tiles before it do not move
    (the row, centred, moved half a tile to the left as a turn began, and a finger aimed at a tile raised its
    neighbour)."""
    page, errors = logged_in(browser, server, "zh", True)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    g = reach(lambda g: g.phase == "play" and g.turn == 0 and bool(g.observe(0).get("drawn")))
    spots = []
    for k, waiting in enumerate([True, False]):
        ft = MahjongTable(page, g, table_id=f"T{k + 1}", deal=k + 1)
        if waiting:  # the moment before the draw: the same thirteen tiles, none drawn, another seat's turn
            ft.extra_obs = {"drawn": None}
            ft.extra_state = {"your_turn": False, "legal": None, "decision": None}
        ft.open()
        live = page.locator(".tablev.live")
        expect(live).to_have_attribute("data-table", f"T{k + 1}")
        expect(live.locator(".hand .mj-concealed .mj-tile.drawn")).to_have_count(0 if waiting else 1)
        spots.append(live.locator(".hand .mj-concealed .mj-tile:not(.drawn)").evaluate_all(
            "els => els.map((e) => [e.dataset.tile, Math.round(e.getBoundingClientRect().left)])"))
    assert len(spots[0]) == 13 and spots[0] == spots[1], (size, spots)
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("lang,size", [("en", (844, 390)), ("zh", (740, 360))])
def test_a_phone_held_sideways_keeps_the_right_seats_clock_off_its_name(browser: Browser, server: ThreadServer,
                                                                        lang: str, size: tuple[int, int]) -> None:
    """A phone held sideways, the right seat to play: its countdown, on the box's corner, covered the first letter
    of its name (Bot 2 read "ot 2"); the name keeps clear of it."""
    page, errors = logged_in(browser, server, lang, True)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    g = reach(lambda g: g.phase == "play" and g.turn == 1)
    ft = MahjongTable(page, g)
    ft.extra_state = {"deadline_ms": 30_000}
    ft.open()
    right_clock_off_its_name(page)
    assert not errors, errors
    page.context.close()


def test_a_tile_is_raised_and_discarded_with_the_keyboard(browser: Browser, server: ThreadServer) -> None:
    """No tile took the keyboard's focus and Enter needed a tile clicked first: a keyboard player could not
    discard.  ← raises the drawn tile, ← and → the tile before or after it, Escape lowers it, Enter discards."""
    page, errors = logged_in(browser, server, "en", False)
    g = reach(lambda g: g.phase == "play" and g.turn == 0 and bool(g.observe(0).get("drawn"))
              and not g.ready[0])
    ft = MahjongTable(page, g)
    ft.open()
    obs = g.observe(0)
    raised = page.locator(".tablev.live .hand .mj-tile.raised")
    # each tile is read by its name (its aria-label was ignored: a span with no role)
    names = page.locator(".tablev.live .hand .mj-tile").evaluate_all(
        "els => els.map((e) => [e.getAttribute('role'), e.getAttribute('aria-label')])")
    assert names and all(role == "img" and name and re.search(r"[1-9]|[Dd]ragon", name) for role, name in names), names
    page.keyboard.press("ArrowLeft")
    expect(raised).to_have_attribute("data-tile", obs["drawn"])
    page.keyboard.press("ArrowLeft")
    before = raised.get_attribute("data-tile")
    assert before is not None and before != obs["drawn"] and before in obs["hand"].split(), before
    page.keyboard.press("Escape")
    expect(raised).to_have_count(0)
    page.keyboard.press("ArrowRight")
    expect(raised).to_have_attribute("data-tile", obs["drawn"])
    page.keyboard.press("Enter")
    assert [m["action"] for m in ft.sent("action")] == [f"discard {obs['drawn']}"]
    assert not errors, errors
    page.context.close()


def test_the_other_seats_discards_are_said_to_a_screen_reader(browser: Browser, server: ThreadServer) -> None:
    """Another seat's discard was only drawn in its river: it is said, with the seat's name, in the table's polite
    live region (its draws are not: they tell nothing)."""
    page, errors = logged_in(browser, server, "en", False)
    g = reach(lambda g: g.phase == "play" and g.turn == 1 and bool(g.observe(1).get("drawn")))
    ft = MahjongTable(page, g)
    ft.open()
    heard = page.locator(".tablev.live .table-heard[aria-live=polite]")
    expect(heard).to_have_text("")
    action = next(a for a in g.legal_actions(1) if a.startswith("discard "))
    g.apply(action, 1)
    ft.version += 1
    ft.push_state()
    expect(heard).to_have_text(re.compile(r": discards \S"))
    assert "draw" not in heard.inner_text(), heard.inner_text()
    assert not errors, errors
    page.context.close()


def test_a_pung_that_declares_ready_is_said_once(browser: Browser, server: ThreadServer) -> None:
    """Another seat's 碰听 was said as "pungs 5 dots and declares ready; … declares ready, discarding 3 dots": its
    discard is logged as a ``ting``, and the claim had said it.  Now the discard is a discard; a 1 is "1 dot"
    (was "1 dots")."""
    page, errors = logged_in(browser, server, "en", False)
    def others(g: Any) -> list[int]:  # the viewer's own claims are not said: another seat's
        return [s for s in g.acting if s != 0 and g.phase == "claim" and "peng ting" in g.legal_actions(s)
                and not any(a.startswith("hu") for b in g.acting for a in g.legal_actions(b))]

    g = reach(lambda g: bool(others(g)))
    seat = others(g)[0]
    ft = MahjongTable(page, g)
    ft.open()
    heard = page.locator(".tablev.live .table-heard[aria-live=polite]")
    for s in list(g.acting):
        g.apply("peng ting" if s == seat else "pass", s)
    assert list(g.acting) == [seat], g.acting
    ting = next(a for a in g.legal_actions(seat) if a.startswith("ting "))
    g.apply(ting, seat)
    ft.version += 1
    ft.push_state()
    expect(heard).to_have_text(re.compile(r"pungs .+ and declares ready; .+: discards \S"))
    said = heard.inner_text()
    assert said.count("declares ready") == 1, said
    names = page.evaluate("""async () => {
        const m = await import("/js/games/mahjong/tiles.js");
        return ["1p", "3p", "1m", "9s"].map(m.tileName);
    }""")
    assert names == ["1 dot", "3 dots", "1 character", "9 bamboo"], names
    assert not errors, errors
    page.context.close()


def test_the_ready_button_between_deals_is_read_over_the_rivers(browser: Browser, server: ThreadServer) -> None:
    """A phone 360 px wide, the settlement closed: 准备 and its seconds lay over the rivers' tiles, the words hard
    to read across them; they sit on a panel of their own, and 本局结束 (under the tiles, unreadable) is not said
    twice.  A spectator's 下一局马上开始 too."""
    page, errors = logged_in(browser, server, "zh", True)
    page.set_viewport_size({"width": 360, "height": 740})
    ft = MahjongTable(page, play_out(3))
    ft.extra_obs = {"rivers": full_rivers()}
    ft.open()
    ft.extra_table.update(ready=None, ready_deadline_ms=None)
    ft.deal_over()
    ft.push_table(ready=[False, True, True, True], ready_deadline_ms=9_000)
    page.locator("#settlement .x").click()
    msg = page.locator('.tablev.live .felt > .center-msg:has([data-action="ready"])')
    expect(msg.locator('[data-action="ready"]')).to_be_visible()
    expect(msg.locator(".ready-left")).to_contain_text("秒后自动准备")
    # on an opaque panel, not the felt's tiles through it
    for words in (msg,):
        alpha = words.evaluate("(e) => (getComputedStyle(e).backgroundColor.match(/[\\d.]+/g) || []).map(Number)")
        assert len(alpha) == 4 and alpha[3] >= 0.8, alpha
    box, felt = msg.bounding_box(), page.locator(".tablev.live .felt").bounding_box()
    assert box is not None and felt is not None and felt["y"] <= box["y"] \
        and box["y"] + box["height"] <= felt["y"] + felt["height"], (box, felt)  # on the felt, where it was
    over = page.locator(".tablev.live .mj-mid .msg").filter(has_text="本局结束")
    expect(over).to_be_hidden()  # the panel says it: not twice
    shot(page, "mahjong-zh-360x740-ready.png")
    ft2 = MahjongTable(page, play_out(3), you=None, table_id="T2", deal=2)
    ft2.extra_obs = {"rivers": full_rivers()}
    ft2.open()
    # a spectator reads 下一局马上开始 on the panel, and no 本局结束 across the tiles (it lay behind them, unreadable)
    expect(page.locator(".tablev.live .felt > .center-msg")).to_contain_text("下一局马上开始")
    expect(over).to_be_hidden()
    shot(page, "mahjong-zh-360x740-over-spectator.png")
    assert not errors, errors
    page.context.close()

SEEN_BUTTONS = """() => {
  const out = [];
  for (const b of document.querySelectorAll('.tablev.live .act-main button')) {
    const r = b.getBoundingClientRect();
    if (r.left < -1 || r.right > innerWidth + 1) out.push([b.dataset.action, 'out of the window', r.left, r.right]);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || (hit !== b && !b.contains(hit))) out.push([b.dataset.action, 'covered by', hit && hit.className]);
    for (const c of b.querySelectorAll('*')) {
      const q = c.getBoundingClientRect();
      if (q.left < r.left - 1 || q.right > r.right + 1) out.push([b.dataset.action, 'spills', c.className]);
    }
    if (b.scrollWidth > b.clientWidth + 1) out.push([b.dataset.action, 'text cut', b.scrollWidth, b.clientWidth]);
  }
  return out;
}"""

LANDSCAPE_PHONES = [("zh", (844, 390)), ("en", (844, 390)), ("zh", (740, 360)), ("en", (740, 360)),
                    ("zh", (667, 375)), ("en", (667, 375)), ("zh", (915, 412)), ("en", (915, 412))]


@pytest.mark.parametrize("lang,size", LANDSCAPE_PHONES)
def test_a_phone_held_sideways_keeps_every_river_the_hand_and_the_claim_buttons_in_sight(
        browser: Browser, server: ThreadServer, lang: str, size: tuple[int, int]) -> None:
    """A phone held sideways (844×390, 740×360, 667×375, 915×412; a touch screen): the rivers ran off the felt under
    the viewer's bar.  At the felt's fullest (twenty discards a seat, four melds a seat, long names, a claim window;
    the viewer's own turn; a spectator): no seat, zone or the middle overlaps another or leaves the felt, every
    river's every tile is in the window and uncovered, each seat box's parts keep apart and its name can be read, the
    hand lies whole in the window and uncovered, a tap on a tile raises it, the claim buttons (吃 碰 胡 过) and the
    discard button are in the window and uncovered; the Chinese table has no English words of its own."""
    page, errors = logged_in(browser, server, lang, True)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    names = ["x", "Wolfeschlegelsteinhausen", "Aleksandrovna", "Konstantinopolskaya"]
    if lang == "zh":
        names = ["x", "欧阳大庆麻将高手", "黑龙江的老王", "司马长风"]
    names[0] = page.evaluate("() => window.qipai.store.user.name")
    claim = reach(lambda g: g.phase == "claim" and 0 in g.acting and sum(g.ready) >= 2
                  and any(a.startswith(("chi", "peng")) for a in g.legal_actions(0)))
    turn = reach(lambda g: g.phase == "play" and g.turn == 0 and not g.ready[0])
    for k, (g, you, what) in enumerate([(claim, 0, "claim"), (turn, 0, "turn"), (claim, None, "spectator")]):
        live = open_fullest(page, g, you, k, names)
        expect(live.locator(".seat")).to_have_count(3 if you is not None else 4)
        if what == "claim":
            expect(live.locator(".mj-claim-on")).to_be_visible()
            expect(live.locator(".act-main button")).to_have_count(len(g.legal_actions(0)))
            expect(live.locator(".act-main .mj-countdown")).to_be_visible()
        nothing_overlaps(page, what)
        bad = page.evaluate(SEEN, ".tablev.live")
        assert not bad, (what, size, bad[:6])
        in_viewport(page, ".tablev.live :is(.act-main > *, .hand .mj-tile, .seat, .mj-river, .mj-melds, .mj-mid > *)")
        # the seat boxes can be read: a name shows a few characters at least, in letters no smaller than 11 px
        for name in live.locator(".seat .sname").all():
            box = name.bounding_box()
            assert box is not None and box["width"] >= 36, (what, box)
            assert float(name.evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)")) >= 11
        # a tile of the hand as wide as a finger can hit (and the rivers' readable)
        if you is not None:
            tiles = live.locator(".hand .mj-concealed .mj-tile")
            expect(tiles).to_have_count(g.observe(0)["concealed"][0])
            widths = tiles.evaluate_all("els => els.map((e) => e.getBoundingClientRect().width)")
            assert min(widths) >= 28, (what, widths)
        river_w = live.locator(".mj-river .mj-tile").evaluate_all(
            "els => els.map((e) => e.getBoundingClientRect().width)")
        assert min(river_w) >= 17, (what, min(river_w))
        if lang == "zh":
            # the table's own words (the bars, the buttons, the middle) in Chinese; the names are the players'
            words = live.evaluate("""(t) => [...t.querySelectorAll('.tinfo, .me-game, .turn-line, .reason, '
                                     + '.act-main, .mj-mid, .seat .standing, .seat .badges, .seat .seat-game')]
                                     .map((e) => e.innerText).join(' ')""")
            assert not re.search(r"[A-Za-z]{2,}", words), words
        if what == "turn":
            # a tap on the drawn tile (the hand's last, apart) raises it; the discard button is there for it
            last = live.locator(".hand .mj-concealed .mj-tile").last
            tile = last.get_attribute("data-tile")
            last.tap()
            expect(live.locator(f'.hand .mj-tile.raised[data-tile="{tile}"]')).to_have_count(1)
            expect(live.locator('.act-main [data-action="discard"]')).to_be_enabled()
            in_viewport(page, ".tablev.live :is(.act-main > *, .hand .mj-tile)")
            bad = page.evaluate(SEEN, ".tablev.live")
            assert not bad, (what, "raised", size, bad[:6])
        shot(page, f"mahjong-{lang}-{size[0]}x{size[1]}-landscape-{what}.png")
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("size", [(360, 740), (360, 640)])
def test_a_small_phone_keeps_the_fullest_rivers_on_the_felt(browser: Browser, server: ThreadServer,
                                                             size: tuple[int, int]) -> None:
    """A 360-px phone late in a deal (twenty discards and four melds a seat): the viewer's river ran down over his
    own bar.  The tiles on the felt are made smaller until it holds them: nothing leaves the felt or crosses
    another part; at the start of a deal they keep their size."""
    page, errors = logged_in(browser, server, "zh", True)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    g = reach(lambda g: g.phase == "claim" and 0 in g.acting)
    live = open_fullest(page, g, 0, 0, ["me", "电脑1号", "电脑2号", "电脑3号"])
    nothing_overlaps(page, f"{size}")
    fitted = live.evaluate("(t) => t.style.getPropertyValue('--mj-sm')")
    assert fitted, "the tiles kept their size and the felt did not hold them"
    shot(page, f"mahjong-zh-{size[0]}x{size[1]}-fullest.png")
    fresh = MahjongTable(page, play_out(5, lambda g: g.phase == "play"), table_id="T9", deal=9)
    fresh.open()
    expect(live.locator(".hand .mj-concealed .mj-tile").first).to_be_visible()
    assert live.evaluate("(t) => t.style.getPropertyValue('--mj-sm')") == ""  # room enough: the usual size
    assert not errors, errors
    page.context.close()


def test_a_turned_phone_measures_the_felt_at_once(browser: Browser, server: ThreadServer) -> None:
    """The felt's tiles were measured at each message only: a window made smaller (a phone turned, a window
    narrowed) let the fullest rivers run over the viewer's bar, and one made larger kept the small tiles, until
    the next move came.  A change of the window's size measures the felt again at once."""
    page, errors = logged_in(browser, server, "zh", True)
    page.set_viewport_size({"width": 1280, "height": 900})
    g = reach(lambda g: g.phase == "claim" and 0 in g.acting)
    live = open_fullest(page, g, 0, 0, ["me", "电脑1号", "电脑2号", "电脑3号"])
    size = "() => document.querySelector('.tablev.live').style.getPropertyValue('--mj-sm')"
    wide = page.evaluate(size)
    page.set_viewport_size({"width": 360, "height": 740})
    page.wait_for_function(f"() => ({size})() !== {wide!r}")
    nothing_overlaps(page, "made narrow")
    narrow = page.evaluate(size)
    assert narrow and (not wide or float(narrow[:-2]) < float(wide[:-2])), (wide, narrow)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_function(f"() => ({size})() === {wide!r}")  # the size the wide window had
    nothing_overlaps(page, "made wide again")
    assert live.is_visible() and not errors, errors
    page.context.close()


def test_the_tiles_made_smaller_stay_so_until_the_deal_ends(browser: Browser, server: ThreadServer) -> None:
    """A 360 × 640 phone, a deal played a message a move: the felt's tiles made smaller for a claim window (the
    discard it is about in the middle) grew back at the next message and shrank again at the next window — the
    whole felt jumped at every claim.  Made smaller, they stay so for the rest of the deal (never larger), and
    the next deal starts at the usual size."""
    page, errors = logged_in(browser, server, "zh", True)
    page.set_viewport_size({"width": 360, "height": 640})
    g = play_out(18, lambda g: g.phase == "play" and min(len(r) for r in g.observe(0)["rivers"]) >= 5)
    ft = MahjongTable(page, g, table_id="T1", deal=1)
    ft.open()
    live = page.locator(".tablev.live")
    bots = [BOTS["efficiency"](i) for i in range(4)]
    sizes = []
    while g.phase != "over":
        s = g.acting[0]
        g.apply(bots[s].act(g.observe(s), g.legal_actions(s)), s)
        ft.version += 1
        ft.push_state()
        sizes.append(live.evaluate("(t) => t.style.getPropertyValue('--mj-sm')"))
    shrunk = [k for k, x in enumerate(sizes) if x]
    assert shrunk, ("the felt held every moment: nothing to check", sizes)
    px = [float(x[:-2]) for x in sizes[shrunk[0]:] if x]
    assert len(px) == len(sizes) - shrunk[0] and px == sorted(px, reverse=True), sizes
    ft.next_deal(play_out(5, lambda g: g.phase == "play"))
    expect(live.locator(".hand .mj-concealed .mj-tile").first).to_be_visible()
    assert live.evaluate("(t) => t.style.getPropertyValue('--mj-sm')") == ""
    assert not errors, errors
    page.context.close()


def test_a_language_switch_keeps_the_raised_tile(browser: Browser, server: ThreadServer) -> None:
    """The page drawn again in the other language lowered the tile the player had raised to discard: it stays,
    and Enter discards it."""
    page, errors = logged_in(browser, server, "en", False)
    g = reach(lambda g: g.phase == "play" and g.turn == 0 and bool(g.observe(0).get("drawn"))
              and not g.ready[0])
    ft = MahjongTable(page, g)
    ft.open()
    raised = page.locator(".tablev.live .hand .mj-tile.raised")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    tile = raised.get_attribute("data-tile")
    assert tile
    page.locator("#langbtn").click()
    expect(page.locator("#langbtn")).to_have_text("EN")
    expect(page.locator(".tablev.live .hand .mj-tile").first).to_be_visible()
    expect(raised).to_have_attribute("data-tile", tile)
    page.keyboard.press("Enter")
    sent = [m["action"] for m in ft.sent("action")]
    assert sent and sent[-1].split()[-1] == tile, sent
    assert not errors, errors
    page.context.close()


def test_a_language_switch_keeps_the_claim_whose_ways_are_shown(browser: Browser, server: ThreadServer) -> None:
    """A phone's claim row folded (吃（5）) and the player tapped 吃 to see its ways: the page drawn again in the
    other language went back to the claims, the window counting down meanwhile; the ways stay, and one is sent."""
    page, errors = logged_in(browser, server, "zh", True)
    page.set_viewport_size({"width": 360, "height": 740})
    g, seat = reach_claim(lambda legal: len(legal) >= 6)
    ft = MahjongTable(page, g, you=seat)
    ft.extra_state = {"deadline_ms": 60_000}
    ft.open()
    main = page.locator(".tablev.live .act-main")
    chis = [a for a in g.legal_actions(seat) if a.startswith("chi")]
    main.locator('[data-action="claim-chi"]').tap()
    expect(main.locator("button")).to_have_count(len(chis) + 1)
    page.locator("#langbtn").click()
    expect(page.locator("#langbtn")).to_have_text("中文")
    expect(main.locator('[data-action="claim-back"]')).to_have_text("Back")
    expect(main.locator("button")).to_have_count(len(chis) + 1)
    main.locator(f'[data-action="{chis[0]}"]').tap()
    sent = ft.sent("action")
    assert sent[-1]["action"] == chis[0] and sent[-1]["decision"] == g.decision_index(seat), sent[-1]
    assert not errors, errors
    page.context.close()
