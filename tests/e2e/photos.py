"""Stand-in photos for the photo pages' end-to-end tests: a recogniser that answers scripted photos in turn,
and the "Declare a win" page of a fresh two-player table to take them on."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from e2e.live import phone_page

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")
"""A 1×1 PNG: what is uploaded (the stand-in recogniser does not look at it)."""


@dataclass(frozen=True)
class SeenTile:
    tile: str
    box: tuple[int, int, int, int]
    confidence: float = 0.97
    low_confidence: bool = False
    warnings: tuple[str, ...] = ()
    other_colour: str | None = None


@dataclass(frozen=True)
class SeenPhoto:
    tiles: tuple[SeenTile, ...]
    warnings: tuple[str, ...] = ()
    width: int = 900
    height: int = 200


class PhotoSequence:
    """A recogniser that reads the photos it was given in turn, then the last one again and again."""

    def __init__(self, *photos: SeenPhoto) -> None:
        self.photos = photos
        self.calls = 0

    def recognize(self, data: bytes, table: bool = False) -> SeenPhoto:
        photo = self.photos[min(self.calls, len(self.photos) - 1)]
        self.calls += 1
        return photo


def win_page(browser: Any, server: str) -> tuple[Any, Any, list[str]]:
    """A phone's browser context, its page on "Declare a win" of a new table (Ece and Fikret), and the
    page's JavaScript errors as they come."""
    errors: list[str] = []
    page = phone_page(browser, errors)
    context = page.context
    page.goto(server + "/")
    page.fill("[name=player0]", "Ece")
    page.fill("[name=player1]", "Fikret")
    page.fill("[name=pin]", "1357")
    page.get_by_role("button", name="Start the table").click()
    page.goto(page.url + "/win")
    return context, page, errors


def photo_picker(page: Any, folder: Path, stem: str, count: int) -> tuple[Any, Any, Any, list[Path]]:
    """The win page's tile picker (its text field, its photo input, where a photo's result shows) and
    ``count`` PNG files to upload in turn (a new file each time: the input's change event fires only for a new file)."""
    photos = [folder / f"{stem}{n}.png" for n in range(count)]
    for photo in photos:
        photo.write_bytes(PNG)
    return (page.locator("#picker-tiles [data-picker-text]"), page.locator("#picker-tiles input[type=file]"),
            page.locator("#picker-tiles-photo .photo-result"), photos)
