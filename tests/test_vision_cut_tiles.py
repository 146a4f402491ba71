"""Tiles cut by the frame (issue 10: "vision never guesses silently"): a tile the photo's edge cuts shows only
part of its number (a 12 cut to its 2, an 11 to a 1), as at the seam of a wide rack taken in two photos, so a
tile cut to less than CUT_SURE_FROM of a typical tile of the photo is never a sure tile.

Photos: tests/data/vision (rendered racks, seed 9101; real Rummikub photos, CC BY 4.0, see README there).
"""

from __future__ import annotations

import csv

import cv2
import numpy as np
import pytest

import vision.recognizer as recognizer_module
from vision import Recognizer
from vision.recognizer import CUT_SURE_FROM, CUT_WARNING
from vision_labels import DATA


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


def _label(image: str, tile: str) -> tuple[float, float, float, float]:
    with open(DATA / "racks.csv", newline="") as handle:
        boxes = [tuple(float(row[k]) for k in ("x1", "y1", "x2", "y2")) for row in csv.DictReader(handle)
                 if row["image"] == image and row["tile"] == tile]
    assert len(boxes) == 1
    return boxes[0]  # type: ignore[return-value]


def _share(tile: recognizer_module.DetectedTile, typical: np.ndarray) -> float:
    return float(min((tile.box[2] - tile.box[0]) / typical[0], (tile.box[3] - tile.box[1]) / typical[1]))


def test_an_eleven_cut_to_its_first_1_is_not_a_sure_1(recognizer: Recognizer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rendered front rack cut through the middle of its R11, as the left half of a rack taken in two photos:
    what is left of the R11 reads as a 1, surely without this rule; with it the tile is flagged for a tap, and so
    is every tile cut to less than CUT_SURE_FROM of a typical tile."""
    x1, y1, x2, y2 = _label("rack_front.jpg", "R11")
    left = np.ascontiguousarray(cv2.imread(str(DATA / "rack_front.jpg"))[:, : int((x1 + x2) / 2)])

    def the_cut_eleven(result: recognizer_module.Recognition) -> recognizer_module.DetectedTile:
        (tile,) = [t for t in result.tiles if t.box[0] > x1 - 10 and abs((t.box[1] + t.box[3]) / 2 - (y1 + y2) / 2) < 20]
        return tile

    read = recognizer.recognize(left)
    cut = the_cut_eleven(read)
    assert CUT_WARNING in cut.warnings and cut.low_confidence, cut
    typical = np.median(np.array([(t.box[2] - t.box[0], t.box[3] - t.box[1]) for t in read.tiles], float), 0)
    for tile in read.tiles:
        if CUT_WARNING in tile.warnings and _share(tile, typical) < CUT_SURE_FROM:
            assert tile.low_confidence, tile
    monkeypatch.setattr(recognizer_module, "CUT_SURE_FROM", 0.0)
    unruled = the_cut_eleven(recognizer.recognize(left))
    assert unruled.tile == "R1" and not unruled.low_confidence, unruled


@pytest.mark.parametrize("image", ["rack_front.jpg", "rack_tilted_dim.jpg", "real_rack_6.jpg"])
def test_photos_with_no_tile_cut_short_are_read_as_before(recognizer: Recognizer, image: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A photo whose tiles all lie whole in it is read exactly as without the rule."""
    pixels = cv2.imread(str(DATA / image))
    ruled = recognizer.recognize(pixels).tiles
    monkeypatch.setattr(recognizer_module, "CUT_SURE_FROM", 0.0)
    assert recognizer.recognize(pixels).tiles == ruled
