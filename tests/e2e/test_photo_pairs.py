"""End-to-end (issue 10): a rack taken in two photos is put together by laying the photos over each other.

The page sends the first photo's tiles back with the second; the server finds which tiles the second
shares with the first (``vision.pairs.same_tiles``), marks them ↔, and "Add" counts them once, even where
the first photo's edge cut a tile to another reading.  ``addPhoto`` in app.js must do what
``vision.pairs.add_photo`` does: both are run here on the same random racks.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e.live import CHROMIUM, live_server
from e2e.photos import PhotoSequence, SeenPhoto, SeenTile, photo_picker, win_page
from vision.pairs import RackTile, add_photo

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's /usr/bin/chromium is not installed"),
]

APP_JS = Path(__file__).resolve().parents[2] / "companion" / "static" / "app.js"


def _photo(rows: list[str], shift: int = 0) -> SeenPhoto:
    """Rows of tiles 50 px apart, moved ``shift`` px; a tile the 350 px frame cuts is cut, and unsure."""
    tiles = []
    for r, row in enumerate(rows):
        for i, code in enumerate(row.split()):
            x1, x2 = 10 + 50 * i + shift, 55 + 50 * i + shift
            cut = x2 > 350
            tiles.append(SeenTile(code, (x1, 10 + 90 * r, min(x2, 350), 80 + 90 * r), 0.55 if cut else 0.97, cut,
                                  ("cut by the frame",) if cut else ()))
    return SeenPhoto(tuple(tiles), width=350)


def _pair() -> PhotoSequence:
    """The left part of a rack whose edge cuts its R7 (read as an R1), then its right part from R5 on."""
    return PhotoSequence(_photo(["R1 R2 R3 R4 R5 R6 R1", "K7 K8 K9 K10 K11 K12"]), _photo(["R5 R6 R7 R8 R9", "K11 K12 K13 B1"]))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(Path(tmp_path_factory.mktemp("data")), {"recognizer": _pair()}) as url:
        yield url


def test_the_second_photo_counts_the_shared_tiles_once_and_mends_the_cut_one(server: str, browser: Any,
                                                                             tmp_path: Path) -> None:
    from playwright.sync_api import expect

    context, page, errors = win_page(browser, server)
    field, upload, result, photos = photo_picker(page, tmp_path, "part", 2)

    upload.set_input_files(str(photos[0]))
    expect(result.locator("rect.box")).to_have_count(13)
    result.locator("[data-rec].low").click()  # the cut R7, read as R1: confirmed as read
    result.get_by_role("button", name="Use these tiles").click()
    expect(field).to_have_value("R1 R2 R3 R4 R5 R6 R1 K7 K8 K9 K10 K11 K12")
    after = page.locator("#picker-tiles-after").input_value()
    assert after.startswith('{"size":[350,200],"tiles":[') and '{"code":"R1","box":[310,10,350,80],"cut":true}' in after

    upload.set_input_files(str(photos[1]))
    expect(result.locator("rect.box")).to_have_count(9)
    expect(result.locator("[data-same]")).to_have_count(5)
    expect(result).to_contain_text("Tiles of this photo also in the last photo: 5 (marked ↔)")
    # The user says one marked tile is not the last photo's (≠), then takes that back.
    unlink = result.locator("[data-unlink]").first
    unlink.click()
    expect(result.locator("[data-same]")).to_have_count(4)
    expect(unlink).to_have_attribute("aria-pressed", "true")
    unlink.click()
    expect(result.locator("[data-same]")).to_have_count(5)
    box = unlink.bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44
    result.get_by_role("button", name="Add to the tiles from the last photo").click()
    expect(field).to_have_value("R1 R2 R3 R4 R5 R6 R7 R8 R9 K7 K8 K9 K10 K11 K12 K13 B1")
    page.locator("#picker-tiles").get_by_role("button", name="Clear").click()
    assert page.locator("#picker-tiles-after").input_value() == ""
    assert errors == []
    context.close()


def _js_functions() -> str:
    """addPhoto and its helpers, cut out of app.js (they use nothing else of it)."""
    source = APP_JS.read_text()
    parts = []
    for name in ("addPhoto", "rowOf", "count"):
        start = source.index(f"  function {name}(")
        end = source.index("\n  }\n", start) + 4
        parts.append(source[start:end])
    return "\n".join(parts)


def _random_case(rng: random.Random) -> tuple[list[list[RackTile]], list[RackTile], list[int | None]]:
    codes = [f"{c}{n}" for c in "RYBK" for n in range(1, 14)]
    rack: list[list[RackTile]] = []
    seen = 0
    for _ in range(rng.randint(0, 3)):
        row = []
        for _ in range(rng.randint(1, 7)):
            marked = rng.random() < 0.6
            row.append(RackTile(rng.choice(codes[:8]), cut=rng.random() < 0.2, fixed=rng.random() < 0.1,
                                seen=seen if marked else None))
            seen += marked
        rack.append(row)
    photo = [RackTile(rng.choice(codes[:8] + ["R11", "R12"]), rng.randint(0, 2), rng.randint(0, 9), rng.random() < 0.2)
             for _ in range(rng.randint(1, 9))]
    free = list(range(seen))
    rng.shuffle(free)
    links = [free.pop() if free and rng.random() < 0.5 else (None if rng.random() < 0.8 else seen + 3) for _ in photo]
    return rack, photo, links


def test_the_page_adds_a_photo_as_the_python_does(server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server + "/")
    rng = random.Random(10)
    cases = [_random_case(rng) for _ in range(400)]
    script = _js_functions() + "\nreturn cases.map(function (c) { return addPhoto(c[0], c[1], c[2]); });"
    as_js = [[[[vars(t) for t in row] for row in rack], [vars(t) for t in photo], links] for rack, photo, links in cases]
    got = page.evaluate("(cases) => { " + script + " }", as_js)
    for (rack, photo, links), answer in zip(cases, got):
        want = [[t.code for t in row] for row in add_photo(rack, photo, links)]
        assert [[t["code"] for t in row] for row in answer] == want, (rack, photo, links)
        want_seen = [[t.seen for t in row] for row in add_photo(rack, photo, links)]
        assert [[t["seen"] for t in row] for row in answer] == want_seen, (rack, photo, links)
    assert re.search(r"function addPhoto\(rack, photo, links\)", APP_JS.read_text())
    page.close()
