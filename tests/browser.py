"""Headless Chromium for the viewer and play tests (Selenium with Debian's chromium and chromium-driver).

``chrome()`` gives a driver, or skips the test with a one-line reason when no
browser is installed; with ``CI=true`` a missing browser fails the test instead.
"""
import os
import shutil

import pytest

CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


def _find():
    binary = next((shutil.which(b) for b in CANDIDATES if shutil.which(b)), None)
    driver = shutil.which("chromedriver")
    return binary, driver


def missing_reason():
    binary, driver = _find()
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if not binary:
        return "no chromium installed (apt-get install chromium chromium-driver)"
    if not driver:
        return "no chromedriver installed (apt-get install chromium-driver)"
    return None


def chrome(width=1400, height=900):
    """A headless Chromium driver (the caller quits it)."""
    reason = missing_reason()
    if reason:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"browser tests must run in CI: {reason}")
        pytest.skip(f"browser tests skipped: {reason}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary, driver = _find()
    opts = webdriver.ChromeOptions()
    opts.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--no-first-run", "--disable-extensions"):
        opts.add_argument(arg)
    return webdriver.Chrome(service=Service(driver), options=opts)
