"""End-to-end (issue 10, H4): "That opening was not 101!" — the melds laid on the table are photographed on the opening
checker, and each comes in as a meld of its own, read with the table's detector; a real waitress server, the shipped
recogniser, headless Chromium (Debian's) on a 360 px phone.

The photo is ``tests/data/vision/table_near_gaps.jpg``: four melds in two lines, two of them a third of a tile from
the next (``scripts/render_racks.py --style table --seed 9601``, photo 23).  A screenshot of the answered page goes to
the folder ``OPENING_SHOTS`` names, when set.
"""

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

PHOTO = Path(__file__).resolve().parent.parent / "data" / "vision" / "table_near_gaps.jpg"


class Told:
    """The shipped recogniser, noting for each photo whether the page said it shows melds laid on the table."""

    def __init__(self) -> None:
        self.tables: list[bool] = []

    def recognize(self, data: bytes, table: bool = False) -> Any:
        from vision import Recognizer

        self.tables.append(table)
        return Recognizer.default().recognize(data, table=table)


TOLD = Told()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(Path(tmp_path_factory.mktemp("data")), extensions={"recognizer": TOLD}) as url:
        yield url


def test_H4_a_photo_of_the_laid_melds_is_checked_meld_by_meld(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = phone_page(browser, errors, viewport=NARROW_PHONE, timeout_ms=20_000)
    created = page.request.post(server + "/api/tables", data={
        "game": "okey101", "players": ["Ali", "Can", "Deniz", "Ece"], "pin": "4321"})
    page.goto(f"{server}/t/{created.json()['id']}/opening")
    page.fill("[name=indicator]", "Y6")  # the okey is Y7: the false okeys play as Y7
    picker = page.locator("#meld-picker")
    picker.locator("input[type=file]").set_input_files(str(PHOTO))
    result = picker.locator(".photo-result")
    expect(result.locator("rect.box")).to_have_count(14)
    assert TOLD.tables == [True], "a picker of melds says its photo shows the table: read with the table's detector"
    for unsure in result.locator("[data-rec].low").all():  # confirm whatever the page asks to (none today)
        unsure.click()
    result.get_by_role("button", name="Use these tiles").click()
    expect(picker.locator("[data-picker-text]")).to_have_value("Y5 Y6 F Y8 | Y8 R8 K8 | Y10 F B10 | R6 R7 R8 R9")
    expect(picker.locator("[data-picker-chosen] .meld-break")).to_have_count(3)

    page.get_by_role("button", name="Add to the melds").click()
    expect(page.locator("#melds")).to_have_value("Y5 Y6 F Y8\nY8 R8 K8\nY10 F B10\nR6 R7 R8 R9")
    expect(picker.locator("[data-picker-count]")).to_have_text("0")
    assert page.evaluate(SMALL_TARGETS_JS) == []  # the photo's tiles, to tap, too
    page.get_by_role("button", name="Check the opening").click()
    verdicts = page.locator("#verdict li")
    expect(verdicts).to_have_count(4)
    expect(verdicts.nth(0)).to_contain_text("26")  # Y5 Y6 Y7 Y8
    expect(verdicts.nth(2)).to_contain_text("✗")  # Y10 Y7 B10: a false okey cannot be a 10 here
    expect(page.locator("#verdict")).to_contain_text("Does not open: a meld is illegal")
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW_PHONE["width"]
    if os.environ.get("OPENING_SHOTS"):
        page.screenshot(path=str(Path(os.environ["OPENING_SHOTS"]) / "opening-photo-phone.png"), full_page=True)
    assert errors == []
    page.context.close()


FAKE_PHOTO = """([picker, tiles]) => {
  // A photo's answer as templates/photo.html draws it: each read tile's code, meld and place there (vision.melds),
  // and the tile of the last photo it is (data-same), if any; both buttons.
  const result = document.createElement("div");
  result.className = "photo-result";
  result.dataset.forPicker = picker;
  result.dataset.size = "400 200";
  result.innerHTML = tiles.map(([code, meld, place, same], i) =>
    `<span><button type="button" data-rec="${picker}-${i}" data-code="${code}" data-row="0" data-place="${i}"
      data-meld="${meld}" data-meld-place="${place}" data-box="${40 * i} 0 ${40 * i + 40} 60"
      ${same === null ? "" : `data-same="${same}"`}>${code}</button></span>`).join("") +
    '<button type="button" data-use-photo>Use these tiles</button>' +
    '<button type="button" data-add-photo>Add to the tiles from the last photo</button>';
  const place = document.getElementById(picker + "-photo");
  place.textContent = "";
  place.appendChild(result);
}"""


def test_H4_melds_photographed_in_two_parts_come_in_once_each(server: str, browser: Any) -> None:
    """A long line of melds taken in two photos: the second photo's melds follow the first's, and a tile both photos
    show (the page links it to the last photo's) counts once."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=NARROW_PHONE, locale="en-US")
    page = context.new_page()
    created = page.request.post(server + "/api/tables", data={
        "game": "okey101", "players": ["Ali", "Can", "Deniz", "Ece"], "pin": "4321"})
    page.goto(f"{server}/t/{created.json()['id']}/opening")
    picker = page.locator("#meld-picker")
    page.evaluate(FAKE_PHOTO, ["meld-picker", [["R1", 0, 0, None], ["R2", 0, 1, None], ["R3", 0, 2, None],
                                               ["K7", 1, 0, None], ["Y7", 1, 1, None], ["B7", 1, 2, None]]])
    picker.locator("[data-use-photo]").evaluate("button => button.click()")
    expect(picker.locator("[data-picker-text]")).to_have_value("R1 R2 R3 | K7 Y7 B7")
    page.evaluate(FAKE_PHOTO, ["meld-picker", [["B7", 0, 0, 5], ["B4", 1, 0, None], ["B5", 1, 1, None],
                                               ["B6", 1, 2, None]]])
    picker.locator("[data-add-photo]").evaluate("button => button.click()")
    expect(picker.locator("[data-picker-text]")).to_have_value("R1 R2 R3 | K7 Y7 B7 | B4 B5 B6")
    page.get_by_role("button", name="Add to the melds").click()
    expect(page.locator("#melds")).to_have_value("R1 R2 R3\nK7 Y7 B7\nB4 B5 B6")
    context.close()
