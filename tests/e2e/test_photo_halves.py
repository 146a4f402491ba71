"""End-to-end (issue 10): a 101 rack too wide for one photo, taken as two (left half, right half).

The second photo adds to the first: row by row, and the tiles both photos show count once; a photo
that finds nothing keeps what was typed; a "one tile away" offer changes a tile only when tapped.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from e2e.live import CHROMIUM, PHONE, live_server

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's /usr/bin/chromium is not installed"),
]

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


@dataclass(frozen=True)
class SeenTile:
    tile: str
    box: tuple[int, int, int, int]
    confidence: float = 0.97
    low_confidence: bool = False
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class SeenPhoto:
    tiles: tuple[SeenTile, ...]
    warnings: tuple[str, ...] = ()
    width: int = 900
    height: int = 200


def _rows(*rows: str) -> SeenPhoto:
    return SeenPhoto(tuple(SeenTile(code, (10 + 50 * i, 10 + 90 * r, 55 + 50 * i, 80 + 90 * r))
                           for r, row in enumerate(rows) for i, code in enumerate(row.split())))


class HalvesReader:
    """Photos in turn: the left half of a rack, its right half (R5 and K9 in both), then nothing."""

    photos = [_rows("R1 R2 R3 R4 R5", "K7 K8 K9"), _rows("R5 R6 R7", "K9 K10 B2 B2"), SeenPhoto(())]

    def __init__(self) -> None:
        self.calls = 0

    def recognize(self, data: bytes) -> SeenPhoto:
        photo = self.photos[min(self.calls, len(self.photos) - 1)]
        self.calls += 1
        return photo


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(Path(tmp_path_factory.mktemp("data")), {"recognizer": HalvesReader()}) as url:
        yield url


def test_two_photos_of_one_rack_make_one_rack_in_row_order(server: str, browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    context = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + "/")
    page.fill("[name=player0]", "Ece")
    page.fill("[name=player1]", "Fikret")
    page.fill("[name=pin]", "1357")
    page.get_by_role("button", name="Start the table").click()
    page.goto(page.url + "/win")
    photos = [tmp_path / f"half{n}.png" for n in range(3)]  # a new file each time: the input's change event
    for photo in photos:
        photo.write_bytes(PNG)
    field = page.locator("#picker-tiles [data-picker-text]")
    upload = page.locator("#picker-tiles input[type=file]")
    result = page.locator("#picker-tiles-photo .photo-result")

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
