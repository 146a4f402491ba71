"""End-to-end (issue 10): a 101 rack too wide for one photo, taken as two (left half, right half).

The second photo adds to the first: row by row, and the tiles both photos show count once; a photo
that finds nothing keeps what was typed; a "one tile away" offer changes a tile only when tapped.
"""

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

def _rows(*rows: str) -> SeenPhoto:
    return SeenPhoto(tuple(SeenTile(code, (10 + 50 * i, 10 + 90 * r, 55 + 50 * i, 80 + 90 * r))
                           for r, row in enumerate(rows) for i, code in enumerate(row.split())))


def _halves() -> PhotoSequence:
    """Photos in turn: the left half of a rack, its right half (R5 and K9 in both), then nothing."""
    return PhotoSequence(_rows("R1 R2 R3 R4 R5", "K7 K8 K9"), _rows("R5 R6 R7", "K9 K10 B2 B2"), SeenPhoto(()))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(Path(tmp_path_factory.mktemp("data")), {"recognizer": _halves()}) as url:
        yield url


def test_two_photos_of_one_rack_make_one_rack_in_row_order(server: str, browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    context, page, errors = win_page(browser, server)
    field, upload, result, photos = photo_picker(page, tmp_path, "half", 3)

    upload.set_input_files(str(photos[0]))
    expect(result.locator("rect.box")).to_have_count(8)
    result.get_by_role("button", name="Use these tiles").click()
    expect(field).to_have_value("R1 R2 R3 R4 R5 K7 K8 K9")

    upload.set_input_files(str(photos[1]))
    expect(result.locator("rect.box")).to_have_count(7)
    result.get_by_role("button", name="Add to the tiles from the last photo").click()
    expect(field).to_have_value("R1 R2 R3 R4 R5 R6 R7 K7 K8 K9 K10 B2 B2")

    upload.set_input_files(str(photos[2]))
    expect(page.locator("#picker-tiles-photo")).to_contain_text("No tiles found: the tiles you typed are kept")
    expect(field).to_have_value("R1 R2 R3 R4 R5 R6 R7 K7 K8 K9 K10 B2 B2")
    assert errors == []
    context.close()
