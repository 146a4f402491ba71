"""Glare (issue 10, "says plainly what to retake"): a lamp's or the flash's reflection blows a patch of the rack
out to white, and a tile wholly under it is never found.  The photo says so, and so does each tile read under
it, without flagging a tile for it.

Photos: tests/data/vision (rendered racks, seed 9101; real Rummikub photos, CC BY 4.0, see README there).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import Recognizer
from vision.recognizer import GLARE_MESSAGE, GLARE_WARNING, blown_out, under_glare
from vision_labels import DATA, tile_boxes

RACKS = tile_boxes("racks.csv")


def _blown(image: str, index: int) -> tuple[np.ndarray, str]:
    """The photo with a white reflection over its ``index``-th labelled tile (a little wider than the tile)."""
    pixels = cv2.imread(str(DATA / image))
    tile, (x1, y1, x2, y2) = RACKS[image][index]
    centre = (int((x1 + x2) / 2), int((y1 + y2) / 2))
    cv2.ellipse(pixels, centre, (int(0.7 * (x2 - x1)), int(0.45 * (y2 - y1))), 0, 0, 360, (255, 255, 255), -1)
    return pixels, tile


def test_a_box_is_under_glare_when_half_of_it_is_blown_out() -> None:
    pixels = np.full((100, 100, 3), 200, np.uint8)
    pixels[:, :50] = 255
    assert under_glare(blown_out(pixels), (0, 0, 100, 100))  # half
    assert not under_glare(blown_out(pixels), (40, 0, 100, 100))  # a sixth
    pixels[:, :50] = (255, 255, 240)  # bright but coloured: not blown out
    assert not under_glare(blown_out(pixels), (0, 0, 100, 100))
    assert not under_glare(blown_out(pixels), (-20, -20, -5, -5))  # wholly outside the photo


@pytest.mark.parametrize(("image", "index"), [("rack_front.jpg", 5), ("rack_tilted_teens.jpg", 5), ("rack_tilted_dim.jpg", 2)])
def test_a_reflection_over_a_tile_is_said(image: str, index: int) -> None:
    """The tile under the reflection is lost, or read and marked as under glare; either way the photo says
    glare washes out part of the tiles.  The photo without the reflection says nothing of glare."""
    recognizer = Recognizer.default()
    assert GLARE_MESSAGE not in recognizer.recognize(DATA / image).warnings
    pixels, _ = _blown(image, index)
    result = recognizer.recognize(pixels)
    assert GLARE_MESSAGE in result.warnings
    for tile in result.tiles:
        assert (GLARE_WARNING in tile.warnings) == under_glare(blown_out(pixels), tile.box), tile


@pytest.mark.parametrize("image", ["real_table_16.jpg", "real_rack_6.jpg", "rack_front.jpg", "synthetic_mixed.jpg"])
def test_no_glare_is_said_of_photos_without_it(image: str) -> None:
    result = Recognizer.default().recognize(DATA / image)
    assert GLARE_MESSAGE not in result.warnings
    assert not any(GLARE_WARNING in tile.warnings for tile in result.tiles)
