"""Small tiles (issue 10: "vision never guesses silently"): a tile only a few pixels across in the photo (a
laptop's camera, a far shot) is read far less surely than its confidence says, so it is never a sure tile;
the tile and the photo say why, and the retake advice asks to come closer.

Photos: tests/data/vision (rendered racks, seed 9101; real Rummikub photos, CC BY 4.0, see README there).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import Recognizer
from vision.recognizer import CUT_WARNING, SMALL_TILE, SMALL_WARNING
from vision_labels import DATA


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


def _short_side(box: tuple[int, int, int, int]) -> int:
    return min(box[2] - box[0], box[3] - box[1])


@pytest.mark.parametrize("image", ["rack_front.jpg", "rack_tilted_teens.jpg", "real_table_16.jpg"])
def test_tiles_small_in_the_photo_are_never_sure(recognizer: Recognizer, image: str) -> None:
    """The photo scaled down until its tiles are under SMALL_TILE pixels: every tile found is flagged "small in the
    photo", and the photo counts them and asks to hold the camera closer.  As taken, no tile is."""
    pixels = cv2.imread(str(DATA / image))
    as_taken = recognizer.recognize(pixels)
    assert as_taken.tiles and all(SMALL_WARNING not in tile.warnings for tile in as_taken.tiles)
    # Scaled by the smallest whole tile: a tile cut by the frame shows less than its size.
    scale = 0.8 * SMALL_TILE / min(_short_side(tile.box) for tile in as_taken.tiles if CUT_WARNING not in tile.warnings)
    small = recognizer.recognize(cv2.resize(pixels, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))
    assert small.tiles, "the scaled photo still shows tiles"
    for tile in small.tiles:
        if _short_side(tile.box) < SMALL_TILE:
            assert tile.low_confidence and SMALL_WARNING in tile.warnings, tile
    count = sum(SMALL_WARNING in tile.warnings for tile in small.tiles)
    assert count >= len(small.tiles) // 2
    assert f"{count} tile(s) small in the photo: hold the camera closer" in small.warnings


def test_a_tile_just_big_enough_keeps_its_confidence(recognizer: Recognizer) -> None:
    """The real held-out photos' tiles are 37 px or more: a photo whose tiles are all well over SMALL_TILE gets no
    flag for their size."""
    pixels = cv2.imread(str(DATA / "real_table_17.jpg"))
    tiles = recognizer.recognize(pixels).tiles
    assert tiles and min(_short_side(tile.box) for tile in tiles) >= SMALL_TILE
    assert not any(SMALL_WARNING in tile.warnings for tile in tiles)
    assert np.mean([tile.low_confidence for tile in tiles]) < 0.5
