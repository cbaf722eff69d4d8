"""The browser every browser test module drives: Debian's Chromium, started once per module (see
``web_helpers.launch``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright

from web_helpers import launch


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()
