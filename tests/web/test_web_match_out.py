"""A player's own line on a match card once they are out or sitting out: a player who quits a running match keeps
their line in the live standings (with the place they finish in) and is offered no second 退赛; the final
standings say 已退赛, not 退赛中（托管）; a Swiss bye reads as a bye, not as "waiting for the other tables"."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from test_web_matches import ADMIN, add_bots, create_match, enter_with_bots, new_page, open_card, wait_finished

from web_helpers import ThreadServer, shot, sign_up, web_settings


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    # bots slow enough that a round lasts a few seconds: the card is read while it runs
    s = ThreadServer(web_settings(f"sqlite+aiosqlite:///{tmp_path / 'qipai.db'}", matches="", admin_token=ADMIN,
                                  time_scale=0.05, bot_delay=0.25, autoplay_delay=0.0, next_deal_delay=0.2,
                                  ready_timeout=0.3, forced_delay=0.1)).start()
    yield s
    s.stop()


def test_a_player_who_quit_keeps_their_line_and_is_not_offered_to_quit_again(browser: Browser,
                                                                              server: ThreadServer) -> None:
    definition = {"name": "sng", "game": "ddz3", "round_gap_s": 2,
                  "entry": {"start": "when_full", "max_entrants": 9, "fee": 10, "start_delay_s": 0},
                  "stages": [{"format": "fixed", "rounds": [{"deals": 1, "advance": 3}, {"deals": 2}]}]}
    mid = create_match(server, definition)
    page, errors = new_page(browser)
    sign_up(page, server.url, "quitter")
    enter_with_bots(page, server, mid, 8)
    # 退赛 from the card while the first round runs
    card = open_card(page, server, mid)
    card.locator('[data-action="withdraw"]').click()
    page.locator('[data-action="confirm-quit"]').click()
    expect(card.locator("tr.me td.state")).to_have_text(re.compile("退赛中|已退赛"))  # the round may be over already
    expect(card.locator('[data-action="withdraw"]')).to_have_count(0)  # quitting already: nothing to quit
    # the first round ends: the quitter is out, the match goes on with three — the quitter's line stays
    card.locator('.match-stage').filter(has_text="第 2/2 轮").wait_for(timeout=30_000)
    me = card.locator("tr.me")
    expect(me).to_have_count(1)
    out = re.compile("^(已退赛|已淘汰)$")  # cut at the round's end, or (had it made the cut) withdrawn then
    expect(me.locator("td.state")).to_have_text(out)
    assert int(me.get_attribute("data-place") or 0) >= 4  # below the three still in, the place it finishes in
    expect(card.locator("table.standings tbody tr")).to_have_count(9)
    expect(card.locator('[data-action="withdraw"]')).to_have_count(0)
    shot(page, "match-card-quit-midway.png")
    wait_finished(server, mid)
    card = open_card(page, server, mid)
    expect(card.locator('.match-phase[data-phase="finished"]')).to_be_visible()
    expect(card.locator("tr.me td.state")).to_have_text(out)  # not 退赛中（托管）: it is over
    assert not errors, errors


def test_a_swiss_bye_reads_as_a_bye(browser: Browser, server: ThreadServer) -> None:
    # five entrants at 3-seat tables: two byes a round, to the worst ranked — in round 1 the last to register
    import time

    definition = {"name": "swiss5", "game": "ddz3", "round_gap_s": 2,
                  "entry": {"start": "at_time", "min_entrants": 5, "max_entrants": 5, "fee": 0},
                  "stages": [{"format": "swiss", "rounds": 2, "deals": 2}]}
    mid = create_match(server, definition, start_at=int(time.time()) + 10)
    add_bots(server, mid, 4)
    page, errors = new_page(browser)
    sign_up(page, server.url, "byer")
    card = open_card(page, server, mid)
    card.locator('[data-action="register"]').click()
    expect(card.locator('.match-stage')).to_contain_text("第 1/2 轮", timeout=20_000)
    expect(card.locator(".match-waiting")).to_have_text("本轮轮空，等待下一轮")
    page.locator("#langbtn").click()
    expect(card.locator(".match-waiting")).to_contain_text("bye")
    shot(page, "match-card-bye.png")
    assert not errors, errors
