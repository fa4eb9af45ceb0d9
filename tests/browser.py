"""Playwright driving Debian's chromium (never a downloaded browser) for browser tests.

The `browser_page` fixture is in tests/conftest.py; screenshots go to
artifacts/screenshots/ so a person can look at what the test saw.
"""

from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"


def shot(page, name: str) -> Path:
    """Save a full-page screenshot under artifacts/screenshots/NAME.png."""
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
