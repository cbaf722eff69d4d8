"""Fixtures for the browser tests: Debian's Chromium (one per session) and a live server per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright
from web_helpers import ThreadServer, launch, web_settings


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    s = ThreadServer(web_settings(f"sqlite+aiosqlite:///{tmp_path / 'qipai.db'}")).start()
    yield s
    s.stop()
