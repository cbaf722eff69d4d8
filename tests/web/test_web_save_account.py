"""保存账号: a guest seated at a table saves its account from the profile page (the sign-up form's fields in a
dialog), sees its errors worded in its language, keeps its table and sees its new name at once without a reload
(its other window too);
then logs out and logs back in with the new name and password, to the same account."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from web_helpers import ThreadServer, as_guest, lang_page, quick_match, shot, sign_up, table, web_settings


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("web-save-account") / "qipai.db"
    s = ThreadServer(web_settings(f"sqlite+aiosqlite:///{db}")).start()
    yield s
    s.stop()


def new_page(browser: Browser, lang: str) -> tuple[Page, list[str]]:
    return lang_page(browser, lang, allowed=(400, 401, 409))


WORDS = {
    "zh": {"button": "保存账号", "taken": "用户名“Taken{LANG}”已经有人用了", "weak": "密码要 6 到 128 个字符",
           "differ": "两次输入的密码不一致", "guest": "游客"},
    "en": {"button": "Save this account", "taken": "The name “Taken{LANG}” is taken",
           "weak": "A password is 6 to 128 characters long", "differ": "The passwords differ", "guest": "guest"},
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_guest_saves_its_account_from_the_profile_and_logs_in_with_it(browser: Browser, server: ThreadServer,
                                                                        lang: str) -> None:
    w = WORDS[lang]
    # a name somebody has already
    other, _ = new_page(browser, lang)
    sign_up(other, server.url, f"taken{lang}")
    other.context.close()

    page, errors = new_page(browser, lang)
    as_guest(page, server.url)
    guest = page.evaluate("() => window.qipai.store.user")
    assert guest["is_guest"] is True
    # the lobby shows the offer by the guest badge
    expect(page.locator('.me-card [data-action="save-account"]')).to_have_text(w["button"])
    if lang == "zh":
        shot(page, "save-account-lobby-zh.png")
    quick_match(page)
    table_id = page.evaluate("() => window.qipai.store.tableId")
    assert table_id
    # at the table, the header offers it
    expect(page.locator('#userbox [data-action="save-account"]')).to_have_text(w["button"])
    if lang == "zh":
        shot(page, "save-account-table-guest-zh.png")

    # another window of the same guest (same browser, same session): it goes to the table, whose header offers
    # to save
    other_window = page.context.new_page()
    other_window.goto(server.url + "/")
    expect(other_window.locator('#userbox [data-action="save-account"]')).to_have_text(w["button"])

    page.goto(server.url + "/#/profile")
    card = page.locator(".profile-card")
    expect(card.locator(".badge")).to_have_text(w["guest"])
    expect(page.locator('#userbox [data-action="save-account"]')).to_have_count(0)  # the page has its own
    card.locator('[data-action="save-account"]').click()
    dialog = page.locator("#save-account")
    expect(dialog).to_be_visible()
    form = dialog.locator("form.save-account-form")
    expect(form.locator('input[name="name"]')).to_be_focused()
    if lang == "zh":
        shot(page, "save-account-form-zh.png")

    def submit(name: str, pw: str, pw2: str | None = None) -> None:
        form.locator('input[name="name"]').fill(name)
        form.locator('input[name="password"]').fill(pw)
        form.locator('input[name="password2"]').fill(pw if pw2 is None else pw2)
        form.locator('[data-action="save-account-submit"]').click()

    err = form.locator(".form-error")
    submit(f"Taken{lang.upper()}", "secret-pw")
    expect(err).to_have_text(w["taken"].format(LANG=lang.upper()))
    expect(err).to_have_attribute("data-code", "name_taken")
    submit(f"saver{lang}", "123")
    expect(err).to_have_text(w["weak"])
    expect(err).to_have_attribute("data-code", "bad_password")
    submit(f"saver{lang}", "secret-pw", "secret-px")
    expect(err).to_have_text(w["differ"])
    if lang == "zh":
        shot(page, "save-account-form-error-zh.png")
    submit(f"saver{lang}", "secret-pw")
    expect(dialog).to_have_count(0)

    # the page shows the new name at once, without a reload; the header too; the offer is gone
    name = f"saver{lang}"
    expect(card.locator("h1")).to_have_text(name)
    expect(card.locator(".badge")).to_have_count(0)
    expect(card.locator('[data-action="save-account"]')).to_have_count(0)
    expect(page.locator("#userbox .uname")).to_have_text(name)
    user = page.evaluate("() => window.qipai.store.user")
    assert user["id"] == guest["id"] and user["name"] == name and user["is_guest"] is False
    assert page.evaluate("() => window.qipai.store.tableId") == table_id
    if lang == "zh":
        shot(page, "save-account-profile-after-zh.png")
    # the other window shows the new name too, without a reload, and no longer offers to save
    expect(other_window.locator("#userbox .uname")).to_have_text(name)
    expect(other_window.locator('#userbox [data-action="save-account"]')).to_have_count(0)
    assert other_window.evaluate("() => window.qipai.store.user.is_guest") is False
    other_window.close()

    # still at its table, whose seat has its new name
    page.locator('#nav a[href="#/table"]').click()
    expect(table(page)).to_be_visible()
    expect(table(page).locator(".me-info .sname")).to_have_text(name)
    expect(page.locator('#userbox [data-action="save-account"]')).to_have_count(0)
    if lang == "zh":
        shot(page, "save-account-table-after-zh.png")

    # log out, and back in with the new name and password: the same account, at the same table
    page.locator('#userbox [data-action="logout"]').click()
    expect(page.locator("section.auth")).to_be_visible()
    page.fill('input[name="name"]', name.upper())
    page.fill('input[name="password"]', "secret-pw")
    page.locator('[data-action="submit"]').click()
    expect(table(page)).to_be_visible()
    user = page.evaluate("() => window.qipai.store.user")
    assert user["id"] == guest["id"] and user["name"] == name and user["is_guest"] is False
    assert page.evaluate("() => window.qipai.store.tableId") == table_id
    page.goto(server.url + "/#/profile")
    expect(page.locator(".profile-card h1")).to_have_text(name)
    expect(page.locator('.profile-card [data-action="save-account"]')).to_have_count(0)
    page.context.close()
    assert not errors, errors
