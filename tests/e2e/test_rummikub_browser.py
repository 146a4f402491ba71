"""End-to-end, Rummikub night (journey 7): a real waitress server and headless Chromium (Debian's).

The lay-down assistant: the table typed with its melds, the rack tapped in with the picker (the joker
too), "Best move" draws the new table with the laid tiles outlined; "Lay down" of a selection that cannot
go names the tile.  The shared turn timer: one phone starts a turn, another sees it counting and both show
the penalty-draw reminder when it runs out.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e.live import CHROMIUM, live_server, phone_page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's /usr/bin/chromium is not installed"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(Path(tmp_path_factory.mktemp("data"))) as url:
        yield url


def _table(page: Any, server: str, seconds: int) -> str:
    created = page.request.post(server + "/api/tables", data={
        "game": "rummikub", "players": ["Ali", "Can", "Deniz"], "pin": "4321", "options": {"turn_seconds": seconds}})
    assert created.status == 201
    return f"{server}/t/{created.json()['id']}"


def test_R4_laydown_page_with_the_picker(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    phone = phone_page(browser, errors)
    table_url = _table(phone, server, 60)
    phone.goto(table_url)
    phone.get_by_role("link", name="Lay-down assistant").click()
    phone.locator("#picker-table [data-picker-text]").fill("R4 R5 R6 | K9 K10 K11")
    rack = phone.locator("#picker-rack")
    for code in ("R7", "B9", "Y9", "J"):
        rack.locator(f"[data-tile={code}]").click()
    expect(rack.locator("[data-picker-count]")).to_have_text("4")
    phone.get_by_role("button", name="Best move: most tiles").click()
    result = phone.locator("#laydown-result")
    expect(result).to_contain_text("4 tiles laid, worth 55 points.")
    expect(result.locator("[data-placed]")).to_have_count(4)
    expect(result.locator(".laid-meld.moved")).to_have_count(2)
    expect(result.locator("[data-meld]")).to_have_count(3)

    phone.locator("#picker-rack [data-picker-text]").fill("R7 B1")
    phone.locator("#picker-table [data-picker-text]").fill("R4 R5 R6")
    phone.get_by_role("button", name="Lay down", exact=True).click()
    expect(phone.locator("#laydown-result")).to_contain_text("These tiles cannot go:")
    expect(phone.locator("#laydown-result .tile[title=B1]")).to_have_count(1)
    assert errors == []


def test_R4_the_turn_timer_runs_on_every_phone(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    first, second = phone_page(browser, errors), phone_page(browser, errors)
    table_url = _table(first, server, 3)
    first.goto(table_url)
    second.goto(table_url)
    first.locator("[data-turn-timer] [data-timer-seat='1']").click()
    expect(second.locator("[data-timer-who]")).to_have_text("Can’s turn", timeout=4000)
    for page in (first, second):
        expect(page.locator("[data-timer-up]")).to_contain_text("Time is up: Can puts the moved tiles back and draws 3",
                                                                timeout=8000)
    expect(first.locator("[data-timer-clock]")).to_have_text("0")
    assert errors == []
