"""End-to-end (issue 10): with ``serve --keep-photos``, a phone's photo is kept on the host and "Use these tiles"
sends back the tiles as the players left them: tapped, picked from the list, or taken as read.  A sure tile read
wrong is mended on the photo too: a tap shows its list."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.kept_photos import kept_photos, photo_id
from e2e.live import CHROMIUM, live_server
from e2e.photos import PNG, PhotoSequence, SeenPhoto, SeenTile, photo_picker, win_page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's /usr/bin/chromium is not installed"),
]

RACK = SeenPhoto((SeenTile("R1", (10, 10, 55, 80)), SeenTile("R2", (60, 10, 105, 80), 0.45, True),
                  SeenTile("K3", (110, 10, 155, 80), 0.5, True), SeenTile("Y4", (160, 10, 205, 80))))


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return Path(tmp_path_factory.mktemp("data"))


@pytest.fixture(scope="module")
def server(data_dir: Path) -> Iterator[str]:
    with live_server(data_dir, {"recognizer": PhotoSequence(RACK)}, {"KEEP_PHOTOS": True}) as url:
        yield url


def test_use_these_tiles_sends_the_tiles_as_checked_to_the_host(server: str, data_dir: Path, browser: Any,
                                                                 tmp_path: Path) -> None:
    from playwright.sync_api import expect

    context, page, errors = win_page(browser, server)
    field, upload, result, photos = photo_picker(page, tmp_path, "kept", 1)
    upload.set_input_files(str(photos[0]))
    expect(result.locator("[data-kept-note]")).to_contain_text("This photo is kept on the computer running the app")
    rows = result.locator(".confirm-list .row")
    result.locator("[data-rec]").nth(1).click()  # R2 was read right: a tap confirms it
    rows.nth(2).locator("[data-rec-fix]").select_option("B3")  # K3 was not: picked from the list
    expect(rows.nth(2).locator("[data-rec]")).to_have_class(re.compile(r"\btile B\b"))  # and shows in blue now
    expect(rows.nth(2).locator("[data-rec]")).to_have_text("B3")
    sure_list = rows.nth(3).locator("[data-rec-fix]")
    expect(sure_list).to_be_hidden()  # Y4 was sure, and wrong: a tap shows its list
    rows.nth(3).locator("[data-rec]").click()
    expect(sure_list).to_be_visible()
    sure_list.select_option("Y5")
    result.get_by_role("button", name="Use these tiles").click()
    expect(field).to_have_value("R1 R2 B3 Y5")

    kept = kept_photos(data_dir)
    deadline = time.monotonic() + 10
    while not list(kept.labelled()) and time.monotonic() < deadline:
        time.sleep(0.05)
    [photo] = kept.labelled()
    assert photo.image.name == f"{photo_id(PNG)}.png"
    assert [(t["code"], t["read"], t["checked"]) for t in photo.tiles] == [
        ("R1", "R1", "accepted"), ("R2", "R2", "confirmed"), ("B3", "K3", "fixed"), ("Y5", "Y4", "fixed")]
    assert errors == []
    context.close()
