"""A real browser for the web pages' tests: Chromium and chromedriver from Debian's packages
(`apt-get install chromium chromium-driver`; `make test` installs them through
scripts/ensure-browser.sh), driven by Selenium.
Selenium is pointed at both binaries, so it never tries to download a browser or a driver."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ARTEFACTS = Path(__file__).resolve().parent.parent / "test-artefacts"
PHONE = (390, 844)
DESKTOP = (1280, 900)


def _binary(*names: str) -> str:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise RuntimeError(
        f"{names[0]} is not installed: apt-get install chromium chromium-driver "
        "(make test does: scripts/ensure-browser.sh)"
    )


@contextlib.contextmanager
def chromium(
    size: tuple[int, int] = DESKTOP, downloads: Path | None = None
) -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = _binary("chromium", "chromium-browser")
    for argument in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-dev-shm-usage",
        "--disable-gpu",
        f"--window-size={size[0]},{size[1]}",
    ):
        options.add_argument(argument)
    if downloads is not None:
        options.add_experimental_option(
            "prefs",
            {"download.default_directory": str(downloads), "download.prompt_for_download": False},
        )
    # Chromium leaves its singleton directory (org.chromium.Chromium.*) in TMPDIR when it quits:
    # a temp directory of its own, removed after, leaves nothing behind.
    scratch = tempfile.mkdtemp(prefix="sommelier-browser-")
    service = Service(
        executable_path=_binary("chromedriver"), env={**os.environ, "TMPDIR": scratch}
    )
    try:
        driver = webdriver.Chrome(options=options, service=service)
        try:
            yield driver
        finally:
            driver.quit()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    with chromium(downloads=tmp_path) as driver:
        yield driver


def screenshot(driver: webdriver.Chrome, name: str) -> Path:
    """Kept as a test artefact (test-artefacts/, ignored by git)."""
    ARTEFACTS.mkdir(exist_ok=True)
    path = ARTEFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path
