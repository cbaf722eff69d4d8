"""One language at a time: a player who chose English meets no Chinese words but deliberate glosses (倒 in
"double (倒)", the tile faces 万 筒 条 中), and one who chose Chinese no English words but names, card ranks and JJ —
on every page and dialog of the browser client, against a real server.

A crawl in each language: the login page, every game's rules page for every preset, the lobby, a private table and
its invite, a quick match of each game with bots looked at while bidding or declaring, while playing and at the
settlement (with the rules, history and result dialogs), the replay of each finished deal, the profile and its
save-account dialog, the leaderboard of each game, friends, the matches and a match's page.  Everything the page
shows on the way (``document.body.innerText`` and the ``title``, ``aria-label`` and ``placeholder`` of every
element, sampled every 100 ms so that passing messages are read too) is checked:

- English: no CJK character outside :data:`EN_GLOSSES`;
- Chinese: no Latin word outside :data:`ZH_LATIN`;
- both: no raw key (``cap_xxx``), placeholder (``{n}``) or ``undefined``/``NaN``."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from types import SimpleNamespace

import pytest
from playwright.sync_api import Browser, Page, expect

from qipai.core.registry import game_names, get_factory
from qipai.host import table as host_table
from qipai.host.settings import default_rooms

from web_helpers import (
    ThreadServer,
    answer_bidding,
    as_guest,
    button,
    lang_page,
    phase,
    quick_match,
    table,
    version,
    wait_version_change,
    web_settings,
)

POOL = {"name": "sng", "preset": "sit_and_go_9", "entry": {"fee": 100, "start_delay_s": 0}, "round_gap_s": 1,
        "stages": [{"rounds": [{"deals": 1, "advance": 3}, {"deals": 1}]}]}
ROOMS = {"doudizhu": "classic-1", "shengji": "four_deck-1", "mahjong": "daqing-1"}
NAMES = ["crawler-en", "crawler-zh", "nobody-here"]
"""The players' names the test gives (the English test's player is on the leaderboard the Chinese one reads) and
the one it asks for in vain: names, shown as they are."""
TRICK_DIALOGS = {"doudizhu": ("prev-trick", "#prev-trick-dialog"), "shengji": ("last-trick", "#last-trick-dialog")}

# ------------------------------------------------------------------------------------------ the allow-lists
URL = r"https?://\S+"  # a link (an invite's) is no words

EN_GLOSSES = [
    # a Chinese term in parentheses after its English words: "double (倒)", "(扣底)", "Auto-play (托管)"
    r"\([^()\n]*\)",
    # Chengdu's four doubling calls go by their names once the rules page glosses them ("double (倒)", …): "Each
    # 倒, 反, 斡 and 垒: ×2", "倒/反/斡/垒 doubling"
    r"[倒反斡垒]",
    # a mahjong tile's face as printed on the tile: its number and 万 / 筒 / 条, or 中 (a face stands alone, never
    # inside a Chinese word)
    r"(?<![\u4e00-\u9fff])[1-9]?[万筒条中](?![\u4e00-\u9fff])",
    # the language switch names the other language in its own words
    r"中文",
]
"""What CJK an English page may hold: each pattern is removed before the check."""

ZH_LATIN = [
    URL,
    r"\bJJ\b",  # the JJ rules (JJ斗地主) go by the brand's name
    r"\bJOKER\b",  # printed in a joker's corner, as on a real card (its name, 大王 / 小王, is under it)
    r"\bEN\b|\bEnglish\b",  # the language switch names the other language in its own words
    re.escape(POOL["name"]),  # the match's name as its operator wrote it
]
"""What Latin words a Chinese page may hold (a single letter — the ranks A K Q J — is no word)."""

RAW = re.compile(r"\{\w+\}|\b(?:undefined|NaN|null)\b|\[object|\b[a-z]+_[a-z_]+\b")
CJK = re.compile(r"[\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z]{2,}")

COLLECT = """
(() => {
  const seen = window.__seen = window.__seen || new Map();
  // where a line is: the element holding the longest part of it (a failure names it)
  const where = (l) => {
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let best = "", at = null;
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const d = n.data.trim();
      if (d && l.includes(d) && d.length > best.length) best = d, at = n;
    }
    const path = [];
    for (let e = at && at.parentElement; e && e !== document.body && path.length < 4; e = e.parentElement) {
      path.unshift(e.id ? "#" + e.id : e.tagName.toLowerCase() + (e.classList[0] ? "." + e.classList[0] : ""));
    }
    return path.length ? " " + path.join(" > ") : "";
  };
  const note = (s, attr) => {
    for (const line of String(s).split("\\n")) {
      const l = line.trim();
      if (l && !seen.has(l)) seen.set(l, (location.hash || "/") + (attr ? " [" + attr + "]" : where(l)));
    }
  };
  const grab = () => {
    if (!document.body || !document.body.dataset.route) return;  // (the app has drawn: not index.html's words)
    note(document.title, "title");
    note(document.body.innerText);
    for (const el of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
      for (const a of ["title", "aria-label", "placeholder"]) if (el.hasAttribute(a)) note(el.getAttribute(a), a);
    }
  };
  window.__grab = grab;
  setInterval(grab, 100);
})();
"""


DEAL_SEED = 0x1533_6963_EEFB_A1F8
"""Every deal's seed (and the bots'): one whose Dou Dizhu deal has seat 0 — the quick match's player — bid first,
and whose Shengji deal offers it a declaration early, so that each phase comes to the player's turn."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(host_table, "secrets", SimpleNamespace(randbits=lambda bits: DEAL_SEED % (1 << bits)))
        yield from serve(tmp_path_factory)


def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("web-language") / "qipai.db"
    fast = {"deal_step_ms": 10, "final_declare_s": 1.0}
    rooms = [replace(r, options={**r.options, **fast}) if r.game == "shengji" else r for r in default_rooms()]
    s = ThreadServer(web_settings(f"sqlite+aiosqlite:///{db}", rooms=rooms, matches=json.dumps([POOL]),
                                  bot_delay=0.02, autoplay_delay=0.02, bot_fill_wait=0.1)).start()
    yield s
    s.stop()


def harvest(page: Page, into: dict[str, str]) -> None:
    """The lines the page showed since the last harvest (each with the route it was first seen on)."""
    lines = page.evaluate("() => { window.__grab && window.__grab(); const m = window.__seen || new Map();"
                          " const out = [...m.entries()]; m.clear(); return out; }")
    for line, route in lines:
        into.setdefault(line, route)


def problems(lang: str, seen: dict[str, str], names: list[str]) -> list[str]:
    """The lines of ``seen`` in the other language (``names`` taken out first), each with where it was."""
    out = []
    for line, route in seen.items():
        rest = line
        for name in names:
            rest = rest.replace(name, " ")
        if lang == "en":
            for p in EN_GLOSSES:
                rest = re.sub(p, " ", rest)
            if CJK.search(rest):
                out.append(f"{route}: Chinese in English: {line!r}")
        else:
            for p in ZH_LATIN:
                rest = re.sub(p, " ", rest)
            if LATIN.search(rest):
                out.append(f"{route}: English in Chinese: {line!r}")
        if RAW.search(rest):
            out.append(f"{route}: a raw key or placeholder: {line!r}")
    return out


def go(page: Page, url: str, ready: str) -> None:
    page.goto(url)
    expect(page.locator(ready).first).to_be_visible()


def close_dialog(page: Page) -> None:
    page.keyboard.press("Escape")
    expect(page.locator("#modal-root .dialog")).to_have_count(0)


def open_dialog(page: Page, action: str, dialog: str, seen: dict[str, str]) -> None:
    page.locator(f'.tablev.live [data-action="{action}"]').first.click()
    expect(page.locator(dialog)).to_be_visible()
    harvest(page, seen)
    close_dialog(page)


def my_turn(page: Page) -> str:
    """Wait for this player's turn (its phase) or the settlement ("over")."""
    page.wait_for_function("() => document.querySelector('.tablev.live[data-my-turn=\"1\"]')"
                           " || document.querySelector('#settlement .settle')", timeout=60_000)
    return "over" if page.locator("#settlement .settle").count() else phase(page)


def play_a_deal(page: Page, game: str, seen: dict[str, str]) -> list[str]:
    """A quick match of ``game`` looked at in each phase up to its first turn in the play (bidding, doubling,
    declaring answered on the way: the highest bid, else not to declare), there its dialogs, then auto-play to the
    settlement and the dialogs again; the phases seen."""
    quick_match(page, ROOMS[game])
    phases = []
    while (ph := my_turn(page)) not in ("play", "over"):
        phases.append(ph)
        page.wait_for_timeout(200)  # (the turn's words and clocks drawn)
        harvest(page, seen)
        old = version(page)
        if game == "doudizhu":
            answer_bidding(page)
        else:
            declare = page.locator('.tablev.live .act-main [data-action^="declare"]')
            (declare.first if declare.count() else button(page, "pass")).click()
            wait_version_change(page, old)
    phases.append(ph)
    page.wait_for_timeout(200)
    harvest(page, seen)
    for action, dialog in (("rules", "#rules-dialog"), ("history", "#history-dialog"), ("result", "#settlement"),
                           ("leave", "#leave-dialog")):
        open_dialog(page, action, dialog, seen)
    page.locator('.tablev.live [data-action="chat"]').click()  # the quick-chat phrases
    page.wait_for_timeout(150)
    harvest(page, seen)
    page.locator('.tablev.live [data-action="chat"]').click()
    page.locator('.tablev.live [data-action="autoplay"]').click()
    expect(page.locator("#settlement .settle")).to_be_visible(timeout=90_000)
    page.wait_for_timeout(300)
    harvest(page, seen)
    close_dialog(page)
    after = [("history", "#history-dialog"), ("result", "#settlement")]
    for action, dialog in after + ([TRICK_DIALOGS[game]] if game in TRICK_DIALOGS else []):
        open_dialog(page, action, dialog, seen)
    page.locator('.tablev.live [data-action="leave"]').click()
    expect(page.locator("section.lobby")).to_be_visible()
    return phases


def crawl(page: Page, url: str, lang: str, names: list[str]) -> dict[str, str]:
    """Every page and dialog, the lines seen on the way; ``names``: the codes the server made on the way (an
    invite's), which are no words."""
    seen: dict[str, str] = {}
    page.context.add_init_script(COLLECT)
    go(page, url + "/#/login", ".auth")
    page.locator('.tab[data-tab="signup"]').click()
    harvest(page, seen)
    # a refused login: the server's error in words
    page.locator('.tab[data-tab="login"]').click()
    page.fill('input[name="name"]', "nobody")
    page.fill('input[name="password"]', "wrong-password")
    page.locator('[data-action="submit"]').click()
    expect(page.locator(".form-error")).not_to_be_empty()
    harvest(page, seen)
    for game in game_names():
        for preset in get_factory(game).info.presets:
            go(page, f"{url}/#/rules/{game}/{preset}", ".rules-page .rules-text")
            harvest(page, seen)
    as_guest(page, url)
    harvest(page, seen)
    # a private table: its invite (the clipboard refused, the link in a dialog) and the wait for friends
    page.locator('.private-panel [data-action="create"]').click()
    expect(table(page)).to_be_visible()
    names.append(page.evaluate("() => window.qipai.store.table.invite_code"))
    page.locator('.tablev.live [data-action="copy-invite"]').click()
    expect(page.locator(".toast")).to_be_visible()
    page.evaluate("() => { navigator.clipboard.writeText = () => Promise.reject(new Error('denied')); }")
    page.locator('.tablev.live [data-action="copy-invite"]').click()
    expect(page.locator("#invite-dialog")).to_be_visible()
    harvest(page, seen)
    close_dialog(page)
    page.locator('.tablev.live [data-action="leave"]').click()
    expect(page.locator("section.lobby")).to_be_visible()
    phases = {game: play_a_deal(page, game, seen) for game in game_names()}
    # each game came to the player's turn in its phases (DEAL_SEED): bidding, declaring, playing
    assert {g: (p[0], p[-1]) for g, p in phases.items()} == {"doudizhu": ("bid", "play"), "shengji": ("deal", "play"),
                                                              "mahjong": ("play", "play")}, phases
    go(page, url + "/#/profile", ".history-table")
    harvest(page, seen)
    replays = page.locator('.history-table [data-action="replay"]').evaluate_all("els => els.map(e => e.href)")
    for href in replays:
        go(page, href, ".replay-controls")
        for action in ("next", "next", "next", "last"):
            page.locator(f'.replay-controls [data-action="{action}"]').click()
            page.wait_for_timeout(150)
        harvest(page, seen)
    go(page, url + "/#/profile", ".history-table")
    page.locator('[data-action="save-account"]').first.click()
    dlg = page.locator("#save-account")
    expect(dlg).to_be_visible()
    dlg.locator('input[name="name"]').fill(f"crawler-{lang}")
    dlg.locator('input[name="password"]').fill("secret-pw")
    dlg.locator('input[name="password2"]').fill("other-pw")
    dlg.locator('[data-action="save-account-submit"]').click()  # the passwords differ: said in the dialog
    expect(dlg.locator(".form-error")).not_to_be_empty()
    harvest(page, seen)
    dlg.locator('input[name="password2"]').fill("secret-pw")  # saved: an account with friends from here on
    dlg.locator('[data-action="save-account-submit"]').click()
    expect(dlg).to_have_count(0)
    harvest(page, seen)
    for game in game_names():
        go(page, f"{url}/#/leaderboard/{game}", "section")
        page.wait_for_timeout(200)
        harvest(page, seen)
    for period in ("week", "month"):  # 周榜 / 月榜
        go(page, f"{url}/#/leaderboard/doudizhu/{period}", ".period-tabs")
        page.wait_for_timeout(200)
        harvest(page, seen)
    go(page, f"{url}/#/player/crawler-{lang}", ".player-card")  # 玩家资料 (his own: its deals, every game)
    harvest(page, seen)
    go(page, url + "/#/player/nobody-here", ".player-missing .form-error")
    harvest(page, seen)
    go(page, url + "/#/friends", ".friend-add")
    page.fill('.friend-add input[name="friend"]', "nobody-here")  # no such player: the server's error in words
    page.locator('[data-action="add-friend"]').click()
    expect(page.locator(".toast").first).to_be_visible()
    harvest(page, seen)
    go(page, url + "/#/matches", '.panel[data-status="open"] tr[data-match]')
    harvest(page, seen)
    page.locator('.panel[data-status="open"] tr[data-match] a').first.click()
    card = page.locator("section.match")
    card.locator('[data-action="register"]').click()
    expect(card.locator("tr.me")).to_have_count(1)
    harvest(page, seen)
    return seen


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_page_speaks_one_language(browser: Browser, server: ThreadServer, lang: str) -> None:
    page, errors = lang_page(browser, lang)
    names = list(NAMES)
    seen = crawl(page, server.url, lang, names)
    found = problems(lang, seen, names)
    assert not found, "\n".join(found)
    assert not errors, errors
    page.context.close()
