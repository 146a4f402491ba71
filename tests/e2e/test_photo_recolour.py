"""End-to-end (issue 10): a lamp that reads a photo's reds yellow is mended with one tap, never by itself.

"Dashed yellow tiles (n) → red" changes every dashed tile still read yellow whose colour the reader doubted for red,
keeping its number; the tiles stay dashed to confirm one by one, a sure yellow and a yellow doubted for its number only
are left alone, and a second tap puts back what the first changed.  A box tapped on the photo points at its tile in
the list.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e.live import CHROMIUM, live_server
from e2e.photos import PhotoSequence, SeenPhoto, SeenTile, photo_picker, win_page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's /usr/bin/chromium is not installed"),
]

LAMP_LIT = SeenPhoto((SeenTile("Y5", (10, 10, 55, 80), 0.6, True, other_colour="R"),
                      SeenTile("Y7", (60, 10, 105, 80), 0.7, True, other_colour="R"), SeenTile("Y9", (110, 10, 155, 80)),
                      SeenTile("K3", (160, 10, 205, 80), 0.5, True, other_colour="B"),
                      SeenTile("Y11", (210, 10, 255, 80), 0.6, True, other_colour="R"),
                      SeenTile("Y12", (260, 10, 305, 80), 0.6, True)))  # its number doubted, not its colour


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(Path(tmp_path_factory.mktemp("data")), {"recognizer": PhotoSequence(LAMP_LIT)}) as url:
        yield url


def test_dashed_yellows_read_red_with_one_tap_and_back(server: str, browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    context, page, errors = win_page(browser, server)
    field, upload, result, photos = photo_picker(page, tmp_path, "lamp", 1)
    upload.set_input_files(str(photos[0]))
    tiles = result.locator("[data-rec]")
    expect(tiles).to_have_count(6)
    expect(result.locator("[data-recolour]")).to_have_count(1)  # one black doubted blue: nothing offered for it
    result.locator("rect.box").nth(3).click()  # a box tapped on the photo points at its tile in the list
    expect(tiles.nth(3)).to_have_class(re.compile(r"\bpointed\b"))
    expect(tiles.nth(3)).not_to_have_class(re.compile(r"\bpointed\b"), timeout=5000)
    offer = result.get_by_role("button", name="Dashed yellow tiles (3) → red")
    offer.click()
    expect(offer).to_have_attribute("aria-pressed", "true")  # shown pressed: a second tap takes it back
    expect(tiles).to_have_text(["R5", "R7", "Y9", "K3", "R11", "Y12"])
    expect(tiles.nth(0)).to_have_class(re.compile(r"\btile R\b.*\blow\b"))
    expect(result.locator("[data-pending]")).to_have_text("5")  # still to confirm, one by one
    tiles.nth(4).click()
    result.locator(".confirm-list .row").nth(4).locator("[data-rec-fix]").select_option("R12")  # its number was wrong
    offer.click()  # taken back: the tiles it changed and nobody touched since
    expect(tiles).to_have_text(["Y5", "Y7", "Y9", "K3", "R12", "Y12"])
    offer.click()
    for index in (0, 1, 3, 5):
        tiles.nth(index).click()
    result.get_by_role("button", name="Use these tiles").click()
    expect(field).to_have_value("R5 R7 Y9 K3 R12 Y12")
    assert errors == []
    context.close()
