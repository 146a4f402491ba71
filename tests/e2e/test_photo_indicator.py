"""End-to-end (issue 10, O3): a photo taken on a form that holds an indicator field is checked against what that field
says (a table that turned up no indicator, or a recorded hand being corrected): htmx sends the enclosing form with it."""

from __future__ import annotations

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

ROW = "R7 R8 R9 K1 K2 K3 B5 Y5 K5 B9 B10 B11 Y3 Y3"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    photo = SeenPhoto(tuple(SeenTile(code, (10 + 60 * i, 10, 60 + 60 * i, 90)) for i, code in enumerate(ROW.split())))
    with live_server(Path(tmp_path_factory.mktemp("data")), {"recognizer": PhotoSequence(photo)}) as url:
        yield url


def test_O3_the_typed_indicator_goes_with_the_photo(server: str, browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    context, page, errors = win_page(browser, server)
    _field, upload, result, photos = photo_picker(page, tmp_path, "twins", 2)
    upload.set_input_files(str(photos[0]))
    expect(result.locator("rect.box")).to_have_count(14)
    expect(page.locator("#picker-tiles-photo")).not_to_contain_text("Both Y3 read")
    page.fill("#win-form [name=indicator]", "Y3")
    upload.set_input_files(str(photos[1]))
    expect(page.locator("#picker-tiles-photo")).to_contain_text("Both Y3 read, but one Y3 is the indicator on the table")
    assert errors == []
    context.close()
