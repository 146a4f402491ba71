"""End-to-end, the Rummikub turn referee (R3-R5) on a 360 px phone: a real waitress server and headless Chromium
(Debian's).  The page fits the screen with 44 px targets; a turn typed in and one joker tile tapped in with the
picker get their verdicts.  A screenshot of the answered page goes to the folder ``TURN_SHOTS`` names, when set."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e.live import CHROMIUM, NARROW_PHONE, live_server, phone_page
from e2e.test_browser import SMALL_TARGETS_JS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's /usr/bin/chromium is not installed"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(Path(tmp_path_factory.mktemp("data"))) as url:
        yield url


def test_R5_the_turn_referee_on_a_narrow_phone(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = phone_page(browser, errors, viewport=NARROW_PHONE)
    created = page.request.post(server + "/api/tables", data={
        "game": "rummikub", "players": ["Ali", "Can", "Deniz"], "pin": "4321"})
    assert created.status == 201
    page.goto(f"{server}/t/{created.json()['id']}")
    page.get_by_role("link", name="Turn referee").click()

    def fits() -> None:
        assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
        assert page.evaluate(SMALL_TARGETS_JS) == []
        heights = page.evaluate("() => [...document.querySelectorAll('button, label.button')]"
                                ".filter(b => b.offsetParent).map(b => b.getBoundingClientRect().height)")
        assert heights and min(heights) >= 43.5

    fits()
    page.locator("#picker-table_before [data-picker-text]").fill("R4 J R6")
    page.locator("#picker-table_after [data-picker-text]").fill("R4 R5 R6 | K9 K10 J")
    page.get_by_text("Also check that the tiles came from the rack").click()
    page.locator("#picker-rack [data-picker-text]").fill("R5 K9 K10 K1")
    page.get_by_role("button", name="Check the turn").click()
    result = page.locator("#turn-result")
    expect(result).to_contain_text("✓ Legal turn.")
    expect(result.locator("[data-laid] .tile")).to_have_count(3)
    fits()

    page.locator("#picker-meld [data-picker-text]").fill("R7 B7 J")
    page.locator("#picker-tile [data-tile=K7]").click()
    expect(page.locator("#picker-tile [data-picker-text]")).to_have_value("K7")
    page.get_by_role("button", name="Check the joker").click()
    joker = page.locator("#joker-result")
    expect(joker).to_contain_text("✓ Yes, the tile takes the joker.")
    expect(joker.locator(".tile.placed")).to_have_count(1)
    expect(page.locator("#picker-table_after [data-picker-text]")).to_have_value("R4 R5 R6 | K9 K10 J")
    fits()

    page.locator("#picker-table_after [data-picker-text]").fill("R4 R5 R6")
    page.get_by_role("button", name="Check the turn").click()
    expect(page.locator("#turn-result")).to_contain_text("J left the table")
    fits()
    if shots := os.environ.get("TURN_SHOTS"):
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.locator("#turn-result").scroll_into_view_if_needed()
        page.screenshot(path=str(Path(shots) / "turn-referee-360.png"))
        page.screenshot(path=str(Path(shots) / "turn-referee-360-full.png"), full_page=True)
        page.emulate_media(color_scheme="dark")
        page.locator("#joker").scroll_into_view_if_needed()
        page.screenshot(path=str(Path(shots) / "turn-referee-360-dark.png"))
    assert errors == []
    page.context.close()


def test_R4_a_table_picker_keeps_its_melds_apart_as_tiles_are_tapped(server: str, browser: Any) -> None:
    """A Rummikub table is melds: "New meld" puts a "|" after the last tile, taps add to the last meld, and a tap
    that adds, cycles or removes a tile keeps the breaks typed or tapped (they used to vanish at the first tap)."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=NARROW_PHONE, locale="en-US", has_touch=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    created = page.request.post(server + "/api/tables", data={
        "game": "rummikub", "players": ["Ali", "Can"], "pin": "4321"})
    table = created.json()["id"]
    page.goto(f"{server}/t/{table}/turn")
    after = page.locator("#picker-table_after")
    field = after.locator("[data-picker-text]")
    new_meld = after.get_by_role("button", name="| New meld")
    new_meld.click()
    expect(field).to_have_value("")  # no break before the first tile
    for code in ("R4", "J", "R6"):
        after.locator(f".picker-grid [data-tile={code}]").click()
    new_meld.click()
    new_meld.click()  # never two breaks in a row
    for code in ("K9", "K10", "K11"):
        after.locator(f".picker-grid [data-tile={code}]").click()
    expect(field).to_have_value("R4 J R6 | K9 K10 K11")
    expect(after.locator("[data-picker-count]")).to_have_text("6")
    expect(after.locator("[data-picker-chosen] .meld-break")).to_have_count(1)
    after.locator("[data-picker-chosen] [title=K11]").click()  # remove a tile by tapping it
    expect(field).to_have_value("R4 J R6 | K9 K10")
    field.fill("R1 R2 R3|B5 B6 B7")  # typed, then a tap
    after.locator(".picker-grid [data-tile=B8]").click()
    expect(field).to_have_value("R1 R2 R3 | B5 B6 B7 B8")
    page.goto(f"{server}/t/{table}/laydown")  # the lay-down assistant's table too
    table_picker = page.locator("#picker-table")
    table_picker.locator(".picker-grid [data-tile=K5]").click()
    table_picker.get_by_role("button", name="| New meld").click()
    table_picker.locator(".picker-grid [data-tile=K6]").click()
    expect(table_picker.locator("[data-picker-text]")).to_have_value("K5 | K6")
    expect(page.locator("#picker-rack").get_by_role("button", name="| New meld")).to_have_count(0)
    context.close()


FAKE_PHOTO = """(picker) => {
  // A photo's answer as templates/photo.html draws it (each read tile: its code, row, place, box, and its meld and
  // place there as vision.melds split them), for a table of two lines: R4 J R6 and, a gap away, K9 K10 K11; then
  // B1 B2 B3 below.  The tiles come in the recogniser's order, not the melds'.
  const tiles = [["K9", 0, 3, 160, 1, 0], ["R4", 0, 0, 0, 0, 0], ["J", 0, 1, 41, 0, 1], ["R6", 0, 2, 82, 0, 2],
                 ["K10", 0, 4, 201, 1, 1], ["B2", 1, 1, 51, 2, 1], ["K11", 0, 5, 242, 1, 2], ["B1", 1, 0, 10, 2, 0],
                 ["B3", 1, 2, 92, 2, 2]];
  const result = document.createElement("div");
  result.className = "photo-result";
  result.dataset.forPicker = picker;
  result.dataset.size = "400 200";
  result.innerHTML = tiles.map(([code, row, place, x, meld, inMeld], i) =>
    `<span><button type="button" data-rec="${picker}-${i}" data-code="${code}" data-row="${row}" data-place="${place}"
      data-meld="${meld}" data-meld-place="${inMeld}"
      data-box="${x} ${row * 100} ${x + 40} ${row * 100 + 60}">${code}</button></span>`).join("") +
    '<button type="button" data-use-photo>Use these tiles</button>';
  document.getElementById(picker + "-photo").appendChild(result);
}"""


@pytest.mark.parametrize("page_path, picker, value", [
    ("turn", "picker-table_after", "R4 J R6 | K9 K10 K11 | B1 B2 B3"),
    ("turn", "picker-rack", "R4 J R6 K9 K10 K11 B1 B2 B3"),
    ("laydown", "picker-table", "R4 J R6 K9 K10 K11 B1 B2 B3"),
], ids=["referee-table-melds", "referee-rack-plain", "laydown-table-loose"])
def test_R4_a_photo_of_the_table_comes_in_as_melds(server: str, browser: Any, page_path: str, picker: str,
                                                    value: str) -> None:
    """On the turn referee a table's photo fills its picker meld by meld as the photo page split them, a "|" between
    melds; a rack's photo stays a plain list in row order, and so does the lay-down assistant's table (it arranges
    loose tiles itself, and a wrong guess at the melds would only stand in its way)."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=NARROW_PHONE, locale="en-US")
    page = context.new_page()
    created = page.request.post(server + "/api/tables", data={
        "game": "rummikub", "players": ["Ali", "Can"], "pin": "4321"})
    page.goto(f"{server}/t/{created.json()['id']}/{page_path}")
    page.evaluate(FAKE_PHOTO, picker)
    page.locator(f"#{picker}-photo [data-use-photo]").evaluate("button => button.click()")
    expect(page.locator(f"#{picker} [data-picker-text]")).to_have_value(value)
    context.close()
