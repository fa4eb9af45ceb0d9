"""Playwright driving Debian's chromium (never a downloaded browser) for browser tests.

Screenshots go to artifacts/screenshots/ so a person can look at what the test saw.
"""

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import needs

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"


@pytest.fixture
def browser_page(live_server, monkeypatch):
    """A chromium page; the ORM stays usable in the test while Playwright's loop runs."""
    needs(bool(shutil.which("chromium") or os.path.exists(CHROMIUM)), "needs Debian's chromium")
    # Playwright's sync API keeps an event loop in this thread; the test's own ORM calls
    # are still synchronous and safe.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        page = context.new_page()
        page.set_default_timeout(10_000)
        try:
            yield page
        finally:
            context.close()
            browser.close()


def shot(page, name: str) -> Path:
    """Save a full-page screenshot under artifacts/screenshots/NAME.png."""
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
