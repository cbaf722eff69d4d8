"""Browser-test helpers: a real qipai server in a background thread, Debian's Chromium, and table actions
done the way a player does them (mouse clicks, drags, right clicks, buttons)."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Locator, Page, expect

from qipai.server.run import Server, make_config
from qipai.server.settings import Settings

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
RANKS = "3456789TJQKA2BR"


def web_settings(db_url: str, **kw: Any) -> Settings:
    base = Settings(
        database_url=db_url,
        bot_fill_wait=0.3,
        bot_delay=0.12,
        autoplay_delay=0.15,
        next_deal_delay=600.0,  # the settlement dialog stays until the test is done with it
        time_scale=3.0,  # 60 s a turn: a slow test machine never times a player out
        log_level="warning",
        auth_rate_limit=1000.0,
        bot_processes=0,  # bots think in a thread: no worker process to start for a short test
    )
    return replace(base, **kw)


class ThreadServer:
    """uvicorn serving the app on 127.0.0.1 (a free port) in its own thread and event loop."""

    def __init__(self, settings: Settings) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server = Server(make_config(settings, log_config=None))
        ensure_web_routes(self.server.config.app)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("the server thread ended before it started")
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start in 20 s")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.sock.close()


def ensure_web_routes(app: Any) -> None:
    """The app serves the browser client's helper endpoints (qipai.server.webapi) before its ``/api/`` catch-all."""
    from qipai.server import webapi

    paths = [getattr(r, "path", None) for r in app.router.routes]
    for r in webapi.routes:
        path = getattr(r, "path", None)
        assert path in paths, f"create_app() does not mount {path} (add *webapi.routes next to *api.routes)"
        assert paths.index(path) < paths.index("/api/{rest:path}"), f"{path} is shadowed by the /api/ catch-all"


def launch(playwright: Any) -> Browser:
    if not Path(CHROMIUM).exists():
        raise AssertionError(
            f"{CHROMIUM} is missing: the browser tests drive Debian's Chromium. "
            "Install it with `apt-get install -y chromium` (never `playwright install`)."
        )
    browser: Browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    return browser


# ------------------------------------------------------------------------------------------ page helpers
def live_state(page: Page) -> dict[str, Any] | None:
    """The client's own copy of the deal state (what the page draws from)."""
    raw = page.evaluate("() => JSON.stringify(window.qipai && window.qipai.store.state)")
    data: dict[str, Any] | None = json.loads(raw) if raw else None
    return data


def table(page: Page) -> Locator:
    return page.locator(".tablev.live")


def wait_my_turn_or_over(page: Page, timeout: float = 60_000) -> str:
    """Wait until it is this player's turn or the settlement dialog shows; returns "turn" or "over"."""
    page.wait_for_function(
        """() => document.querySelector('#settlement .settle') ||
                 document.querySelector('.tablev.live[data-my-turn="1"]')""",
        timeout=timeout,
    )
    if page.locator("#settlement .settle").count():
        return "over"
    return "turn"


def hand_cards(page: Page) -> Locator:
    return page.locator(".tablev.live .hand .card")


def raised_ranks(page: Page) -> str:
    ranks = page.eval_on_selector_all(".tablev.live .hand .card.raised", "els => els.map(e => e.dataset.rank)")
    return "".join(sorted(ranks, key=RANKS.index))


def click_card(page: Page, index: int) -> None:
    """A left click on the visible part of the card at ``index`` (cards overlap: aim at the left edge)."""
    box = hand_cards(page).nth(index).bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 6, box["y"] + box["height"] * 0.75)


def drag_cards(page: Page, first: int, last: int) -> None:
    """Press on card ``first`` and drag to card ``last`` (one swipe over the cards between)."""
    cards = hand_cards(page)
    a = cards.nth(first).bounding_box()
    b = cards.nth(last).bounding_box()
    assert a is not None and b is not None
    y = a["y"] + a["height"] * 0.75
    page.mouse.move(a["x"] + 6, y)
    page.mouse.down()
    steps = max(4, (last - first) * 3)
    page.mouse.move(b["x"] + 6, y, steps=steps)
    page.mouse.up()


def select_with_mouse(page: Page, ranks: str) -> None:
    """Raise exactly the cards of ``ranks`` using the mouse: a drag for each run of neighbouring cards, a click
    for single cards; first a click on empty table space lowers whatever was raised."""
    hand = page.eval_on_selector_all(".tablev.live .hand .card", "els => els.map(e => e.dataset.rank)")
    want = list(ranks)
    picks: list[int] = []
    for i, r in enumerate(hand):
        if r in want:
            want.remove(r)
            picks.append(i)
    assert not want, f"cards {ranks} not all in hand {hand}"
    if raised_ranks(page):
        click_empty(page)
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
    expect_raised(page, ranks)


def expect_raised(page: Page, ranks: str) -> None:
    want = "".join(sorted(ranks, key=RANKS.index))
    try:
        _wait_raised(page, want)
    except Exception:
        hand = page.eval_on_selector_all(".tablev.live .hand .card", "els => els.map(e => e.dataset.rank)")
        raise AssertionError(f"raised {raised_ranks(page)!r}, wanted {want!r}; hand {''.join(hand)}") from None


def _wait_raised(page: Page, want: str) -> None:
    page.wait_for_function(
        """want => { const r = [...document.querySelectorAll('.tablev.live .hand .card.raised')]
             .map(e => e.dataset.rank).sort((a, b) => '3456789TJQKA2BR'.indexOf(a) - '3456789TJQKA2BR'.indexOf(b));
             return r.join('') === want; }""",
        arg=want,
        timeout=5000,
    )


def click_empty(page: Page) -> None:
    """A click on bare felt (no card, seat or button): lowers every raised card."""
    felt = page.locator(".tablev.live .felt").bounding_box()
    assert felt is not None
    page.mouse.click(felt["x"] + felt["width"] / 2, felt["y"] + felt["height"] * 0.8)


def button(page: Page, action: str) -> Locator:
    return page.locator(f'.tablev.live [data-action="{action}"]')


def plays_of(state: dict[str, Any]) -> list[str]:
    return [a[5:].split(":")[0] for a in state["legal"] or [] if a.startswith("play ")]


def smallest_play(state: dict[str, Any]) -> str | None:
    """A simple choice for the test player: the play with the lowest main cards, bombs last."""
    plays = plays_of(state)
    if not plays:
        return None

    def key(p: str) -> tuple[int, int, int]:
        bomb = 1 if (len(set(p)) == 1 and len(p) >= 4) or set(p) == {"B", "R"} else 0
        return (bomb, min(RANKS.index(c) for c in p), -len(p))

    return sorted(plays, key=key)[0]


def version(page: Page) -> str:
    return table(page).get_attribute("data-version") or ""


def wait_version_change(page: Page, old: str, timeout: float = 10_000) -> None:
    page.wait_for_function(
        "old => { const t = document.querySelector('.tablev.live'); return t && t.dataset.version !== old; }",
        arg=old,
        timeout=timeout,
    )


def shot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    page.wait_for_timeout(250)  # let card movements finish
    page.screenshot(path=str(path))
    return path


def sign_up(page: Page, base_url: str, name: str, password: str = "secret-pw") -> None:
    page.goto(base_url + "/#/login")
    page.locator('.tab[data-tab="signup"]').click()
    page.fill('input[name="name"]', name)
    page.fill('input[name="password"]', password)
    page.fill('input[name="password2"]', password)
    page.locator('[data-action="submit"]').click()
    expect(page.locator("section.lobby")).to_be_visible(timeout=10_000)


def as_guest(page: Page, base_url: str) -> None:
    page.goto(base_url + "/#/login")
    page.locator('[data-action="guest"]').click()
    expect(page.locator("section.lobby")).to_be_visible(timeout=10_000)


def quick_match(page: Page, room: str = "classic-1") -> None:
    page.locator(f'[data-action="quick-match"][data-room="{room}"]').click()
    expect(table(page)).to_be_visible(timeout=10_000)


def answer_bidding(page: Page) -> None:
    """On a bidding or doubling turn: take the highest bid offered (the test player wants to play)."""
    btns = page.locator(".tablev.live .act-main button")
    actions = [btns.nth(i).get_attribute("data-action") or "" for i in range(btns.count())]
    bids = sorted(a for a in actions if a.startswith("bid "))
    for want in (bids[-1] if bids else None, "call", "pass"):
        if want and want in actions:
            old = version(page)
            button(page, want).click()
            wait_version_change(page, old)
            return
    raise AssertionError(f"no bidding button in {actions}")


def phase(page: Page) -> str:
    return table(page).get_attribute("data-phase") or ""


def text_of(page: Page, selector: str) -> str:
    return re.sub(r"\s+", " ", page.locator(selector).inner_text()).strip()
