"""Browser-test helpers: a real qipai server in a background thread, Debian's Chromium, and table actions
done the way a player does them (mouse clicks, drags, right clicks, buttons)."""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from qipai.host.settings import Settings
from qipai.server.run import Server, make_config

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
SCREENSHOTS = Path(os.environ.get("QIPAI_SCREENSHOTS", ROOT / "build" / "screenshots"))
"""Where the browser tests save screenshots (never a tracked folder: ``scripts/refresh-screenshots.sh`` copies them
into docs/screenshots/ on purpose)."""
RANKS = "3456789TJQKA2BR"


def web_settings(db_url: str, **kw: Any) -> Settings:
    base = Settings(
        database_url=db_url,
        bot_fill_wait=0.3,
        bot_delay=0.12,
        autoplay_delay=0.15,
        next_deal_delay=600.0,  # the settlement dialog stays until the test is done with it
        ready_timeout=600.0,
        forced_delay=600.0,  # 要不起 and the last card wait for the test (tests that want them set it short)
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
    """The app serves each game's own routes (Dou Dizhu's play check) before its ``/api/`` catch-all."""
    paths = [getattr(r, "path", None) for r in app.router.routes]
    path = "/api/games/doudizhu/check"
    assert path in paths, f"create_app() does not mount {path} (the game's routes from the registry)"
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


def motion_done(page: Page) -> None:
    """Wait until no animation runs (cards dealt or flying land where a click aims)."""
    page.wait_for_function(
        "() => document.getAnimations()"
        ".every(a => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity)",
        timeout=5000,
    )


def click_card(page: Page, index: int) -> None:
    """A left click on the visible part of the card at ``index`` (cards overlap: aim at the left edge)."""
    motion_done(page)
    box = hand_cards(page).nth(index).bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 6, box["y"] + box["height"] * 0.75)


def drag_cards(page: Page, first: int, last: int) -> None:
    """Press on card ``first`` and drag to card ``last`` (one swipe over the cards between)."""
    motion_done(page)
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
    page.wait_for_timeout(250)  # let card movements start
    # and finish: a deal's cards fly in for longer than that (shell/motion.js); endless ones (a pulse) are not waited
    page.wait_for_function("() => !document.getAnimations().some((a) => a.playState === 'running'"
                           " && a.effect?.getTiming().iterations !== Infinity)", timeout=5000)
    page.screenshot(path=str(path))
    return path


def lang_page(browser: Browser, lang: str, allowed: tuple[int, ...] = (401, 403, 404, 409),
              phone: bool = False, *, viewport: ViewportSize | None = None, locale: str | None = None,
              keep_lang: bool = True, **context: Any) -> tuple[Page, list[str]]:
    """A desktop-sized (or ``phone``-sized, touch) page in a fresh browser context (its own cookies) whose client
    speaks ``lang``, and the page's errors as they come: uncaught exceptions, and console errors other than the
    HTTP answers ``allowed`` (a refusal the test provokes is logged by the browser as a failed request).

    ``viewport`` and ``locale`` (the browser's, e.g. ``"zh-CN"``) where the test needs them; ``keep_lang=False``
    sets the client's language at every load (else once: a language the page switches to stays after a reload);
    ``context``: more of Playwright's ``new_context`` options."""
    vp: ViewportSize = viewport or ({"width": 390, "height": 844} if phone else {"width": 1280, "height": 800})
    context.setdefault("is_mobile", phone)
    context.setdefault("has_touch", phone)
    if locale:
        context["locale"] = locale
    ctx = browser.new_context(viewport=vp, **context)
    keep = "localStorage.getItem('qipai.lang') || " if keep_lang else ""
    ctx.add_init_script(f"{keep}localStorage.setItem('qipai.lang', '{lang}')")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    codes = re.compile(r"\b(" + "|".join(str(c) for c in allowed) + r")\b")
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}")
            if m.type == "error" and not codes.search(m.text) else None)
    return page, errors


def play_a_deal_together(server: ThreadServer, names: list[str]) -> None:
    """New accounts ``names`` play a deal of Dou Dizhu together at a private table (over the protocol) and go (they
    stay seated there)."""
    import asyncio
    import sys
    from concurrent.futures import ThreadPoolExecutor
    from types import SimpleNamespace

    sys.path.insert(0, str(ROOT / "tests" / "server"))
    from server_helpers import private_table

    async def play() -> None:
        srv = SimpleNamespace(http=server.url, ws=server.url.replace("http", "ws") + "/ws")
        players, _ = await private_table(srv, "classic-1", names, {})  # type: ignore[arg-type]
        await asyncio.gather(*(c.play_until_over() for c in players))
        for c in players:
            await c.close()

    with ThreadPoolExecutor(1) as pool:  # (the sync Playwright API holds this thread's event loop)
        pool.submit(asyncio.run, play()).result(timeout=120)


def sign_up(page: Page, base_url: str, name: str, password: str = "secret-pw") -> None:
    page.goto(base_url + "/#/login")
    page.locator('.tab[data-tab="signup"]').click()
    page.fill('input[name="name"]', name)
    page.fill('input[name="password"]', password)
    page.fill('input[name="password2"]', password)
    page.locator('[data-action="submit"]').click()
    expect(page.locator("section.lobby")).to_be_visible(timeout=10_000)


def log_in(page: Page, base_url: str, name: str, password: str = "secret-pw") -> None:
    """Log in with the form (the page then shows the lobby, or the table the account sits at)."""
    page.goto(base_url + "/#/login")
    page.locator('.tab[data-tab="login"]').click()
    page.fill('input[name="name"]', name)
    page.fill('input[name="password"]', password)
    page.locator('[data-action="submit"]').click()
    expect(page.locator("#userbox .user")).to_be_visible(timeout=10_000)


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


# ------------------------------------------------------------------------------------------ a table fed by the test
def user_id(page: Page) -> int:
    uid: int = page.evaluate("() => window.qipai.store.user.id")
    return uid


class FakeTable:
    """A table the page believes it sits at or watches: real Dou Dizhu observations from the engine, delivered to
    the client as the server would send them (``conn.emit``); whatever the client sends is recorded instead of
    going to the server (``sent``).  The page must be logged in (any account) before a FakeTable is made."""

    def __init__(
        self,
        page: Page,
        game: Any,
        *,
        you: int | None = 0,
        table_id: str = "T1",
        deal: int = 1,
        names: list[str] | None = None,
        preset: str = "classic",
        private: bool = False,
        invite_code: str | None = None,
    ) -> None:
        self.page = page
        self.game = game
        self.you = you
        self.id = table_id
        self.deal = deal
        self.version = 0
        self.preset = preset
        self.private = private
        self.invite_code = invite_code
        self.uid = user_id(page)
        n = game.players
        self.names = names or [f"bot:heuristic:{i + 1}" for i in range(n)]
        if you is not None and not names:
            self.names[you] = page.evaluate("() => window.qipai.store.user.name")
        self.extra_table: dict[str, Any] = {}
        self.extra_state: dict[str, Any] = {}
        self.extra_obs: dict[str, Any] = {}
        self.results: list[dict[str, Any]] = []
        page.evaluate(
            """() => { const c = window.qipai.conn; window.__sent = [];
                 c.send = (m) => { window.__sent.push(m); return 900000 + window.__sent.length; }; }"""
        )

    # the server's views
    def seat_view(self, i: int) -> dict[str, Any]:
        mine = i == self.you
        return {
            "seat": i,
            "name": self.names[i],
            "user_id": self.uid if mine else 100 + i,
            "bot": None if mine or not self.names[i].startswith("bot:") else "heuristic",
            "connected": True,
            "leaving": False,
            "points": 1000 + 10 * i,
            "title": "商人",
        }

    def table_view(self, status: str = "playing") -> dict[str, Any]:
        view = {
            "id": self.id,
            "game": "doudizhu",
            "room": f"{self.preset}-1",
            "options": {"preset": self.preset, "stake": 1},
            "private": self.private,
            "for_points": True,
            "invite_code": self.invite_code,
            "min_points": 0,
            "players": self.game.players,
            "seats": [self.seat_view(i) for i in range(self.game.players)],
            "status": status,
            "paused": False,
            "deal_index": self.deal - 1,
            "match": {},
            "you": self.you,
            "results": self.results,
        }
        view.update(self.extra_table)
        return view

    def state_view(self) -> dict[str, Any]:
        g = self.game
        you = self.you
        acting = list(g.public_acting())
        mine = you is not None and you in g.acting
        obs = {**g.observe(you), **self.extra_obs}
        view = {
            "table": self.id,
            "deal": self.deal,
            "version": self.version,
            "phase": g.phase,
            "to_act": acting[0] if len(acting) == 1 else None,
            "acting": acting,
            "you": you,
            "your_turn": mine,
            "decision": g.decision_index(you) if mine and you is not None else None,
            "deadline_ms": 60_000 if acting or mine else None,  # as the server: the viewer's own decision's, if any
            "autoplay": list(obs["autoplay"]),
            "legal": g.legal_actions(you) if mine else None,
            "observation": obs,
        }
        view.update(self.extra_state)
        return view

    # delivering
    def emit(self, msg: dict[str, Any]) -> None:
        self.page.evaluate("m => window.qipai.conn.emit(m)", {"v": 1, "seq": 0, **msg})

    def open(self) -> None:
        """Sit down (or watch) and get the snapshot: the page goes to the table.

        The real server's welcome must have come first: a welcome that arrives after the fake seat (the socket
        says its hello once it is open) would say the page sits nowhere, and the page would go back to the lobby.
        """
        self.page.wait_for_function("() => window.qipai && window.qipai.store.welcomes > 0")
        if self.you is not None:
            self.emit({"type": "joined", "table": self.id, "seat": self.you, "invite_code": self.invite_code,
                       "ref": None})
        else:
            self.page.evaluate(
                "id => { const s = window.qipai.store; s.tableId = id; s.spectating = true; "
                "location.hash = '#/table'; }",
                self.id,
            )
        self.emit({"type": "snapshot", "table": self.table_view(), "state": self.state_view(), "last_result": None,
                   "ref": None})
        expect(self.page.locator(".tablev.live")).to_be_visible()
        expect(self.page.locator(".tablev.live")).to_have_attribute("data-version", str(self.version))

    def push_table(self, **extra: Any) -> None:
        self.extra_table.update(extra)
        self.emit({"type": "table", "table": self.table_view()})

    def push_state(self, obs: dict[str, Any] | None = None, **extra: Any) -> None:
        """The state message (``obs``: keys to change in the observation; ``extra``: in the message)."""
        self.extra_obs = dict(obs or {})
        self.extra_state = dict(extra)
        self.emit({"type": "state", **self.state_view()})
        expect(self.page.locator(".tablev.live")).to_have_attribute("data-version", str(self.version))

    def apply(self, action: str, **extra: Any) -> None:
        """One action by the seat to act, then the state message."""
        g = self.game
        seat = g.public_acting()[0]
        g.apply(action, seat)
        self.version += 1
        self.push_state(**extra)

    def play_until(self, pred: Any, chooser: Any = None, limit: int = 200) -> None:
        """Apply legal actions (``chooser(game, legal)``, default the first) until ``pred(game)``."""
        for _ in range(limit):
            if pred(self.game):
                return
            g = self.game
            seat = g.public_acting()[0]
            legal = g.legal_actions(seat)
            g.apply(chooser(g, legal) if chooser else legal[0], seat)
            self.version += 1
        raise AssertionError("play_until: the condition never held")

    def deal_over(self, title: str = "商人") -> dict[str, Any]:
        """The deal's end as the server sends it; ``title``: every seat's title after it (the server's Chinese
        name, as the game names its titles)."""
        g = self.game
        outcome = g.outcome()
        assert outcome is not None, "the deal is not over"
        changes = [
            {"seat": i, "name": self.names[i], "score": s, "delta": s, "points": 1000 + s, "title": title}
            for i, s in enumerate(outcome["scores"])
        ]
        msg = {"type": "deal_over", "table": self.id, "deal": self.deal, "outcome": outcome, "changes": changes,
               "match": {}, "match_over": False}
        self.results.append({"deal": self.deal, "deal_index": self.deal - 1, "scores": outcome["scores"],
                             "players": self.names})
        self.emit(msg)
        self.emit({"type": "table", "table": self.table_view()})  # as the server does after settling
        return msg

    def next_deal(self, game: Any) -> None:
        self.game = game
        self.deal += 1
        self.version = 0
        self.push_state()

    def sent(self, kind: str | None = None) -> list[dict[str, Any]]:
        msgs: list[dict[str, Any]] = self.page.evaluate("() => window.__sent")
        return [m for m in msgs if kind is None or m.get("type") == kind]


def guest_label(name: str) -> str:
    """The four digits a guest's name shows as (i18n.js ``displayName``: 游客0667)."""
    return f"{int(name.rsplit('-', 1)[1][-5:], 16) % 10000:04d}"
