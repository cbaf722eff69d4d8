"""The 复盘 (review) list of the replay page in a real browser: the player's own plays — which a player's client
writes as the suited cards chosen (``play 8H 9H TH JS QC KD``) — read in words with their kind, and a decision
without an estimate (bidding, a single legal move, auto-play) shows no "—% → —%".

The deal, its replay and its review are the server's answers made by the test from the engine (the review's
numbers are chosen, not searched: the search takes seconds per decision)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game

from web_helpers import ThreadServer, as_guest, lang_page, shot, sign_up, user_id, web_settings

# seat 0: 333 4444 5-K (the test's player); seat 1: the rocket, four 2s, four aces; seat 2: the rest
HANDS = [
    "3S 3H 3C 4S 4H 4C 4D 5S 6S 7S 8S 8H 9S TS JS QS KS",
    "B R 2S 2H 2C 2D AS AH AC AD KH KC KD QH QC QD JH",
    "3D 5H 5C 5D 6H 6C 6D 7H 7C 7D 8C 8D 9H 9C 9D TH TC",
]
KITTY = "TD JC JD"
DEAL = 777
# seat 0's plays as its browser sends them: the suited cards it picked
MINE = ["play 5S 6S 7S 8S 9S", "play 3S 3H 3C 8H", "play TS TD"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("web-review") / "qipai.db"
    s = ThreadServer(web_settings(f"sqlite+aiosqlite:///{db}")).start()
    yield s
    s.stop()


def played_deal() -> tuple[list[dict[str, Any]], list[tuple[int, str]]]:
    """The replay steps (as ``GET /api/deals/ID/replay`` makes them, seen by seat 0) and the actions of a deal in
    which seat 0 bids 3 and plays MINE, then its smallest single; the others pass."""
    g = Game.from_deal(PRESETS["classic"], HANDS, KITTY, first_bidder=0)
    mine = list(MINE)

    def step(n: int, who: int | None, action: str | None) -> dict[str, Any]:
        return {"n": n, "seat": who, "action": action, "observation": g.observe(0),
                "views": [g.observe_parts(s)[1] for s in range(g.players)]}

    steps = [step(0, None, None)]
    actions: list[tuple[int, str]] = []
    while not g.is_over:
        seat = g.public_acting()[0]
        legal = g.legal_actions(seat)
        if seat == 0:
            a = "bid 3" if "bid 3" in legal else mine.pop(0) if mine and g.phase == "play" else legal[0]
        else:
            a = "pass" if "pass" in legal else legal[0]
        g.apply(a, seat)
        actions.append((seat, a))
        steps.append(step(len(actions), seat, a))
    return steps, actions


def review_of(actions: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """Seat 0's decisions as the review sends them: the bid and a pair without estimates, the straight as the
    computer would play it (its rank form), the triple with a cost, the rest auto-play's."""
    out = []
    for i, (seat, a) in enumerate(actions):
        if seat != 0:
            continue
        d: dict[str, Any] = {"index": i, "seat": 0, "phase": "play", "played": a, "legal": 5, "best": None,
                             "wp_before": None, "wp_after": None, "swing": None, "mark": "", "trick": None,
                             "hand": "", "candidates": {}, "auto": False}
        if a == "bid 3":
            d["phase"] = "bid"
        elif a == MINE[0]:
            d.update(best="play 56789", wp_before=0.7, wp_after=0.7, swing=0.0)
        elif a == MINE[1]:
            d.update(best="play 3334:triple_single", wp_before=0.62, wp_after=0.5, swing=-0.12, mark="?")
        elif a == MINE[2]:
            d["legal"] = 1
        else:
            d["auto"] = True
        out.append(d)
    return out


def answer(body: dict[str, Any]) -> Any:
    """A route's handler that answers with ``body`` (as JSON)."""
    return lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(body))


def serve_deal(page: Page, others: list[dict[str, Any]] | None = None) -> tuple[list[tuple[int, str]],
                                                                              list[dict[str, Any]]]:
    """Answer the replay page's requests for deal DEAL from the engine's deal (``others``: seats 1 and 2 as the
    deal's record has them, two heuristic bots by default)."""
    steps, actions = played_deal()
    uid = user_id(page)
    name = page.evaluate("() => window.qipai.store.user.name")
    seats = [{"name": name, "user_id": uid, "bot": None}] + (others or [
        {"name": f"bot:heuristic:{i + 1}", "user_id": None, "bot": "heuristic"} for i in (1, 2)])
    deal = {"id": DEAL, "game": "doudizhu", "options": {"preset": "classic", "stake": 1}, "seats": seats,
            "deal_index": 0, "status": "over", "you": 0}
    replay = {"deal": DEAL, "game": "doudizhu", "you": 0, "players": seats, "steps": steps, "outcome": None}
    decisions = review_of(actions)
    review = {"deal": DEAL, "seat": 0, "review": {"seat": 0, "role": "landlord", "won": True, "samples": 200,
                                                  "decisions": decisions}}

    page.route(re.compile(rf".*/api/deals/{DEAL}$"), answer(deal))
    page.route(re.compile(rf".*/api/deals/{DEAL}/replay$"), answer(replay))
    page.route(re.compile(rf".*/api/deals/{DEAL}/review\?.*$"), answer(review))
    return actions, decisions


def open_review(page: Page) -> None:
    page.goto(page.url.split("#")[0] + f"#/replay/{DEAL}")
    expect(page.locator(".replay-table .tablev")).to_be_visible()
    page.locator('[data-action="review"]').click()
    expect(page.locator(".review-list li").first).to_be_visible()


def item(page: Page, actions: list[tuple[int, str]], action: str) -> Any:
    index = next(i for i, (s, a) in enumerate(actions) if s == 0 and a == action)
    return page.locator(f'.review-list li[data-index="{index}"]')


def test_review_reads_suited_plays_and_hides_missing_estimates(browser: Browser, server: ThreadServer) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
    ctx.add_init_script("localStorage.setItem('qipai.lang', 'zh')")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    as_guest(page, server.url)
    actions, decisions = serve_deal(page)
    open_review(page)
    items = page.locator(".review-list li")
    expect(items).to_have_count(len(decisions))
    straight = item(page, actions, MINE[0])
    expect(straight.locator(".played")).to_have_text("你：出 5 6 7 8 9（顺子）")
    expect(straight.locator(".best")).to_have_text("与电脑相同")  # the rank form of the same cards
    expect(straight.locator(".wp")).to_have_text("胜率 70% → 70%")
    triple = item(page, actions, MINE[1])
    expect(triple.locator(".played")).to_have_text("你：出 3 3 3 8（三带一）")
    expect(triple.locator(".best")).to_have_text("电脑会选：出 3 3 3 4（三带一）")
    expect(triple.locator(".wp")).to_have_text("胜率 62% → 50%")
    pair = item(page, actions, MINE[2])
    expect(pair.locator(".played")).to_have_text("你：出 10 10")
    expect(pair.locator(".wp")).to_have_count(0)  # a single legal move: no estimate
    bid = item(page, actions, "bid 3")
    expect(bid.locator(".wp")).to_have_count(0)
    auto = page.locator(".review-list li").last
    expect(auto.locator(".best")).to_have_text("托管代打，不算你的")
    expect(auto.locator(".wp")).to_have_count(0)
    text = page.locator(".review-list").inner_text()
    assert "—%" not in text and "出了" not in text, text
    assert not re.search(r"\b[2-9TJQKA][SHCD]\b|\bplay\b", text), text
    # the words for every way a play is written
    said = page.evaluate("""async () => {
      const { actionText } = await import("/js/games/doudizhu/index.js");
      return ["play 8H 9H TH JS QC KD", "play 3334:triple_single", "play B R", "play BJ RJ", "play 10h 10s",
              "play TTJJQQ", "play 3♠ 3♥"].map((a) => actionText(a));
    }""")
    assert said == ["出 8 9 10 J Q K", "出 3 3 3 4（三带一）", "出 小王 大王", "出 小王 大王", "出 10 10",
                    "出 10 10 J J Q Q", "出 3 3"], said
    # in English
    page.locator("#langbtn").click()
    open_review(page)
    straight = item(page, actions, MINE[0])
    expect(straight.locator(".played")).to_have_text("you: plays 5 6 7 8 9 (straight)")
    expect(item(page, actions, MINE[1]).locator(".best")).to_have_text("the computer: plays 3 3 3 4 (triple + single)")
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_replay_names_every_seat_never_by_a_bare_number(browser: Browser, server: ThreadServer,
                                                             lang: str) -> None:
    """The replay captions each step with the seat's player: the viewer as 你 / You, a bot as 电脑2号 / Bot 2; a
    seat whose record names nobody (an older deal) as 3号位 / Seat 3 — the captions said ``#2`` and ``#3``."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN" if lang == "zh" else "en-US")
    ctx.add_init_script(f"localStorage.setItem('qipai.lang', '{lang}')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    as_guest(page, server.url)
    me = page.evaluate("async () => (await import('/js/shell/i18n.js')).displayName(window.qipai.store.user.name)")
    serve_deal(page, [{"name": None, "user_id": None, "bot": "heuristic"},
                      {"name": None, "user_id": 77, "bot": None}])
    page.goto(page.url.split("#")[0] + f"#/replay/{DEAL}")
    expect(page.locator(".replay-table .tablev")).to_be_visible()
    steps = int(page.locator('.replay-controls input[type="range"]').get_attribute("max") or 0)
    captions = []
    for k in range(1, steps + 1):
        page.locator('.replay-controls input[type="range"]').fill(str(k))
        captions.append(page.locator(".step-what").inner_text())
    text = "\n".join(captions)
    bot, nobody = ("电脑2号", "3号位") if lang == "zh" else ("Bot 2", "Seat 3")
    assert bot in text and nobody in text, captions
    assert not re.search(r"#\d", text), captions
    you = "你" if lang == "zh" else "You"
    assert any(c.startswith(you) for c in captions), captions  # the viewer's own plays, as the viewer's
    assert me not in text, captions
    assert not errors, errors
    ctx.close()


def steps_until(g: Any, choose: Any, stop: Any) -> list[dict[str, Any]]:
    """The replay's steps, seen by seat 0, as ``GET /api/deals/ID/replay`` makes them (each seat's own part of its
    view where the game splits its observation, else its whole view), of the moves ``choose(game, seat, legal)``
    makes until ``stop(game)``."""
    def step(n: int, who: int | None, action: str | None) -> dict[str, Any]:
        views = [g.observe_parts(s)[1] if hasattr(g, "observe_parts") else g.observe(s) for s in range(g.players)]
        return {"n": n, "seat": who, "action": action, "observation": g.observe(0), "views": views}

    steps = [step(0, None, None)]
    while not stop(g):
        seat = g.public_acting()[0] if g.public_acting() else g.acting[0]
        action = choose(g, seat, g.legal_actions(seat))
        g.apply(action, seat)
        steps.append(step(len(steps), seat, action))
    return steps


def shengji_steps() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A Shengji hand (seed 11): nobody declares while it is dealt, then the first two tricks."""
    from qipai.games.shengji.game import ShengjiGame

    g = ShengjiGame({}, seed=11)
    steps = steps_until(g, lambda g, s, legal: "pass" if "pass" in legal else legal[0],
                        lambda g: g.phase == "play" and len(g.observe(0).get("tricks") or []) >= 2)
    return dict(g.options), steps


def mahjong_steps() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A Daqing mahjong deal (seed 1, seat 0 deals) played by four efficiency bots for forty moves."""
    from qipai.core.registry import get_factory
    from qipai.games.mahjong.bots import BOTS

    mj = get_factory("mahjong")
    g = mj.new(mj.options({}), 1, {"dealer": 0})
    bots = [BOTS["efficiency"](i) for i in range(4)]
    steps = steps_until(g, lambda g, s, legal: bots[s].act(g.observe(s), legal),
                        lambda g: g.phase == "over" or len(g.observe(0)["rivers"][0]) >= 6)
    return {"preset": "daqing"}, steps


def serve(page: Page, deal_id: int, game: str, options: dict[str, Any], steps: list[dict[str, Any]],
          bot: str) -> list[dict[str, Any]]:
    """Answer the replay page's requests for deal ``deal_id``: the page's account at seat 0, bots at the others."""
    me = page.evaluate("() => window.qipai.store.user")
    n = len(steps[0]["views"])
    seats = [{"name": me["name"], "user_id": me["id"], "bot": None}] + [
        {"name": f"bot:{bot}:{i + 1}", "user_id": None, "bot": bot} for i in range(1, n)]
    deal = {"id": deal_id, "table_id": "T1", "game": game, "options": options, "seats": seats, "deal_index": 0,
            "status": "over", "outcome": None, "match_id": None, "you": 0}
    replay = {"deal": deal_id, "game": game, "you": 0, "players": seats, "steps": steps, "outcome": None}
    for path, body in ((rf".*/api/deals/{deal_id}$", deal), (rf".*/api/deals/{deal_id}/replay$", replay)):
        page.route(re.compile(path), answer(body))
    return seats


EVERY_STEP = """() => {
  const slider = document.querySelector('.replay-controls input[type="range"]');
  const out = [];
  for (let k = 0; k <= Number(slider.max); k++) {
    slider.value = String(k);
    slider.dispatchEvent(new Event('input'));
    out.push([document.querySelector('.step-what').textContent, document.querySelector('.replay-table').innerText]);
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_replay_calls_the_viewers_own_seat_you_in_every_game(browser: Browser, server: ThreadServer,
                                                                 lang: str) -> None:
    """In a replay the viewer's own seat is 你 / You — in every step's caption, the viewer's bar and the review's
    heading — as the terminal's replay names it, never by the account's name (the captions said "ann：出 5 6 7"
    and the bar "ann"); the other seats keep their players' names (电脑2号 / Bot 2).  Dou Dizhu, Shengji and
    mahjong, whose replays the shell draws and each game captions; the English sentences read with "You"."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN" if lang == "zh" else "en-US")
    ctx.add_init_script(f"localStorage.setItem('qipai.lang', '{lang}')")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    account = f"Annabel{lang.upper()}"
    sign_up(page, server.url, account)
    you, bot2 = ("你", "电脑2号") if lang == "zh" else ("You", "Bot 2")
    serve_deal(page)  # Dou Dizhu, with its review
    cases = [(DEAL, "doudizhu", None)]
    options, steps = shengji_steps()
    serve(page, 778, "shengji", options, steps, "rule")
    cases.append((778, "shengji", steps))
    options, steps = mahjong_steps()
    serve(page, 779, "mahjong", options, steps, "efficiency")
    cases.append((779, "mahjong", steps))
    for deal_id, game, _ in cases:
        page.goto(f"{server.url}/#/replay/{deal_id}")
        rt = page.locator(f'.replay-table .tablev[data-game="{game}"]')
        expect(rt).to_be_visible()
        expect(rt.locator(".mebar .me-info .sname")).to_have_text(you)
        seen = page.evaluate(EVERY_STEP)
        captions = [c for c, _ in seen]
        assert any(c.startswith(you) for c in captions), (game, captions)
        assert any(bot2 in c for c in captions), (game, captions)  # the others by their players' names
        for caption, text in seen:
            assert account not in caption and account not in text, (game, caption, text)
        if lang == "en":
            wrong = [c for c in captions if re.search(r"\bYou (is|wins|has|takes|plays|discards|declares)\b|You's", c)]
            assert not wrong, (game, wrong)
        shot(page, f"replay-you-{game}-{lang}.png")
        if game == "doudizhu":  # one's own review is "yours"
            page.locator('[data-action="review"]').click()
            expect(page.locator(".review h2")).to_have_text("复盘：你的每一步" if lang == "zh"
                                                           else "Review: each of your decisions")
    assert not errors, errors
    ctx.close()


def test_a_replay_link_opened_logged_out_opens_once_logged_in(browser: Browser, server: ThreadServer) -> None:
    """A replay link (a friend's, a match deal's) opened by a visitor not logged in asks him to log in, then shows
    the replay: it led to the lobby (only invite links were kept across the log-in)."""
    page, errors = lang_page(browser, "zh")
    steps, _ = played_deal()
    seats = [{"name": "linky", "user_id": None, "bot": None}] + [
        {"name": f"bot:heuristic:{i + 1}", "user_id": None, "bot": "heuristic"} for i in (1, 2)]
    page.route(re.compile(rf".*/api/deals/{DEAL}$"), answer(
        {"id": DEAL, "game": "doudizhu", "options": {"preset": "classic", "stake": 1}, "seats": seats,
         "deal_index": 2, "status": "over", "you": None}))
    page.route(re.compile(rf".*/api/deals/{DEAL}/replay$"), answer(
        {"deal": DEAL, "game": "doudizhu", "you": None, "players": seats, "steps": steps, "outcome": None}))
    page.goto(f"{server.url}/#/replay/{DEAL}")
    expect(page.locator("section.auth")).to_be_visible()
    page.locator('[data-action="guest"]').click()
    expect(page.locator(f'.replay-head h1[data-deal="{DEAL}"]')).to_have_text(re.compile("第 3 局"))
    expect(page.locator(".replay-table .tablev")).to_be_visible()
    assert not errors, errors
    page.context.close()
