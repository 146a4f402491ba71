"""End-to-end on a 360 px phone: a Rami table, a 13-card hand entered with the card picker one-handed
(13 taps, measured), the preview and the record; the page fits the screen with 44 px targets."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e.live import CHROMIUM, live_server, phone_page
from e2e.test_browser import SMALL_TARGETS_JS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's /usr/bin/chromium is not installed"),
]

HAND = "AS 2S 3S 7H 7D 7C QH QH KD 10C 5D 9S *".split()  # 13 cards, a duplicate from the second deck


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(Path(tmp_path_factory.mktemp("data"))) as url:
        yield url


def _table(server: str) -> str:
    body = json.dumps({"game": "rami40", "players": ["Ali", "Can", "Deniz"], "pin": "1357"}).encode()
    request = urllib.request.Request(server + "/api/tables", body, {"Content-Type": "application/json"})
    return str(json.load(urllib.request.urlopen(request))["id"])


def test_M7_a_13_card_hand_on_a_360px_phone(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = phone_page(browser, errors, viewport={"width": 360, "height": 740})
    table = _table(server)
    page.goto(f"{server}/t/{table}")
    page.fill("#pin [name=pin]", "1357")
    page.locator("#pin button").click()
    page.goto(f"{server}/t/{table}/cards")
    page.locator("label:has(input[name=finisher][value='0'])").click()
    page.locator("#cards-1").locator("xpath=ancestor::details").locator("summary").click()
    picker = page.locator("#cards-1")
    started = time.monotonic()
    for code in HAND:
        picker.locator(f'[data-card="{code}"]').tap()
    elapsed = time.monotonic() - started
    expect(picker.locator("[data-card-count]")).to_have_text("13")
    expect(picker.locator('[data-card="QH"] .count')).to_have_text("2")
    expect(picker.locator("[data-card-text]")).to_have_value(" ".join(HAND))
    assert elapsed < 30, elapsed  # 13 taps: the bound for a whole hand
    picker.locator("[data-card-undo]").tap()  # a mistap is one tap away
    expect(picker.locator("[data-card-count]")).to_have_text("12")
    picker.locator('[data-card="*"]').tap()
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, overflow
    assert page.evaluate(SMALL_TARGETS_JS) == []
    grids = page.evaluate("() => [...document.querySelectorAll('.card-suit')].map(g => g.scrollWidth - g.clientWidth)")
    assert max(grids) <= 1
    expect(page.locator("#verdict")).to_contain_text("Can keeps AS 2S 3S", timeout=5000)
    expect(page.locator("#verdict")).to_contain_text("11 + 2 + 3 + 7 + 7 + 7 + 10 + 10 + 10 + 10 + 5 + 9 + 20 = 111")
    page.fill("input[name=points2]", "7")  # Deniz's cards, counted at the table: only the one who went out holds none
    page.get_by_role("button", name="Record the hand").click()
    expect(page.locator("tr.total td")).to_have_text(["Total", "0", "111", "7"])
    page.goto(f"{server}/t/{table}/cards/opening")
    opening = page.locator("#hand-picker")
    for code in "QH KH AH 9C 9D 9H".split():
        opening.locator(f'[data-card="{code}"]').tap()
    page.get_by_role("button", name="Check the opening").click()
    expect(page.locator("#verdict")).to_contain_text("Best opening: 58")
    assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
    page.context.close()
    assert errors == []
