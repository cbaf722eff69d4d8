"""An account the operator blocks (``qipai users block``) while its player sits at a table in the browser: the
page says so in the player's language (not "log in again", which would be refused), goes back to the log-in
page, and logging in with the right password says the account is blocked; once unblocked it logs in again."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from web_helpers import ThreadServer, lang_page, quick_match, shot, sign_up, table, web_settings


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("web-blocked") / "qipai.db"
    s = ThreadServer(web_settings(f"sqlite+aiosqlite:///{db}", session_check_every=0.3)).start()
    s.db_url = f"sqlite+aiosqlite:///{db}"  # type: ignore[attr-defined]
    yield s
    s.stop()


def new_page(browser: Browser, lang: str) -> tuple[Page, list[str]]:
    return lang_page(browser, lang, allowed=(401, 403))


def users(server: ThreadServer, *args: str) -> None:
    """``qipai users ARGS`` on the server's database, from another process (as the operator runs it)."""
    r = subprocess.run([sys.executable, "-c", "from qipai.cli import main; main()", "users", *args,
                        "--database-url", server.db_url], capture_output=True, text=True, timeout=60)  # type: ignore[attr-defined]
    assert r.returncode == 0, r.stdout + r.stderr


WORDS = {
    "zh": {"blocked": "这个账号已被管理员封禁，请联系管理员", "login": "登录"},
    "en": {"blocked": "This account is blocked by the server's operator: contact them", "login": "Log in"},
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_blocked_player_is_told_and_cannot_log_back_in(browser: Browser, server: ThreadServer, lang: str) -> None:
    w = WORDS[lang]
    name = f"blocked{lang}"
    page, errors = new_page(browser, lang)
    sign_up(page, server.url, name)
    quick_match(page)
    users(server, "block", name, "--reason", "test")
    toast = page.locator(".toast.error")
    expect(toast).to_have_text(w["blocked"], timeout=10_000)
    expect(page.locator("section.auth")).to_be_visible()
    if lang == "zh":
        shot(page, "blocked-toast-zh.png")
    # the right password: told it is blocked, still on the log-in page
    page.fill('input[name="name"]', name)
    page.fill('input[name="password"]', "secret-pw")
    page.locator('[data-action="submit"]').click()
    expect(page.locator('[data-code="account_blocked"]')).to_have_text(w["blocked"])
    expect(page.locator("section.lobby")).to_have_count(0)
    users(server, "unblock", name)
    page.locator('[data-action="submit"]').click()
    # back in, at the table it still holds (its deal played on in auto-play; the next one has not begun)
    expect(table(page)).to_be_visible(timeout=10_000)
    assert page.evaluate("() => window.qipai.store.user.name") == name
    assert not errors, errors
    page.context.close()
