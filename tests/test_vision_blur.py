"""A blurred photo (issue 10, "says plainly what to retake"): a hand that moves in a long exposure, or a phone that
did not focus, smears the numerals, and tiles are misread.  The photo says it is blurred, its tiles are sure only
from ``BLURRED_SURE_FROM``, and the page asks to hold the phone still.  A sharp photo says nothing of blur.  A tile
out of focus in a photo sharp on the whole (the far tier, when the phone focused on the near one) is sure only from
``BLURRED_SURE_FROM`` too, and says so on itself.

Photos: tests/data/vision (rendered racks, seed 9101; real Rummikub photos, CC BY 4.0, see README there), smeared
here as ``scripts/eval_vision.py --shake`` smears them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from vision import Recognizer
from vision.recognizer import (BLUR_MESSAGE, BLURRED_BELOW, BLURRED_SURE_FROM, TILE_BLUR_WARNING, TILE_BLURRED_BELOW,
                               tile_sharpness)
from vision_labels import DATA

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
from eval_vision import _shaken  # noqa: E402
from vision.imageio import load_image  # noqa: E402

SHARP = ["rack_front.jpg", "rack_tilted_teens.jpg", "rack_rotated.jpg", "real_rack_6.jpg", "real_table_16.jpg",
         "synthetic_mixed.jpg"]


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.default()


@pytest.mark.parametrize("image", SHARP)
def test_a_sharp_photo_says_nothing_of_blur(recognizer: Recognizer, image: str) -> None:
    result = recognizer.recognize(DATA / image)
    assert BLUR_MESSAGE not in result.warnings
    assert not [t for t in result.tiles if TILE_BLUR_WARNING in t.warnings]


@pytest.mark.parametrize(("image", "length"), [("rack_front.jpg", 50), ("rack_rotated.jpg", 25), ("real_rack_6.jpg", 40)])
def test_a_smeared_photo_says_so_and_its_tiles_are_sure_only_when_very_sure(recognizer: Recognizer, image: str,
                                                                             length: float) -> None:
    """Smeared by about a quarter of a tile's height (the racks' tiles are 110-170 px high in these 800-px photos)."""
    smeared = _shaken(length, None)(load_image(DATA / image))
    result = recognizer.recognize(smeared)
    assert BLUR_MESSAGE in result.warnings
    assert result.tiles and all(t.low_confidence for t in result.tiles if t.confidence < BLURRED_SURE_FROM)
    unchecked = Recognizer(check_blur=False).recognize(smeared)
    assert BLUR_MESSAGE not in unchecked.warnings
    assert [t.tile for t in unchecked.tiles] == [t.tile for t in result.tiles], "the check changes no reading"
    if image == "rack_rotated.jpg":  # tiles read 0.7-0.9 sure: sure without the check, a tap with it
        assert sum(t.low_confidence for t in result.tiles) > sum(t.low_confidence for t in unchecked.tiles)


@pytest.mark.parametrize(("image", "sigma"), [("rack_tilted_dim.jpg", 3), ("real_table_16.jpg", 5)])
def test_tiles_out_of_focus_in_a_sharp_photo_are_sure_only_when_very_sure(recognizer: Recognizer, image: str,
                                                                          sigma: float) -> None:
    """The photo's upper half out of focus (a Gaussian blur of ``sigma`` px), its lower half sharp: the photo is not
    said blurred, and the tiles read under ``BLURRED_SURE_FROM`` whose own face is under ``TILE_BLURRED_BELOW`` are
    flagged and say why; the readings are those without the check."""
    import cv2

    photo = load_image(DATA / image)
    half = photo.shape[0] // 2
    photo[:half] = cv2.GaussianBlur(photo, (0, 0), sigma)[:half]
    result = recognizer.recognize(photo)
    unchecked = Recognizer(check_blur=False).recognize(photo)
    assert BLUR_MESSAGE not in result.warnings
    assert [t.tile for t in unchecked.tiles] == [t.tile for t in result.tiles], "the check changes no reading"
    grey = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    flagged = [t for t, before in zip(result.tiles, unchecked.tiles) if t.low_confidence and not before.low_confidence]
    assert flagged, "a tile read sure without the check is a tap with it"
    for tile in flagged:
        sharpness = tile_sharpness(grey, tile.box)
        assert sharpness is not None and sharpness < TILE_BLURRED_BELOW and tile.confidence < BLURRED_SURE_FROM
        assert TILE_BLUR_WARNING in tile.warnings and tile.box[1] < half, tile  # reaches into the blurred half
    assert all(t.low_confidence for t in result.tiles if TILE_BLUR_WARNING in t.warnings)


def test_sharp_faces_measure_above_the_threshold_and_out_of_focus_ones_below() -> None:
    """Each tile of a sharp rack, and of the same rack out of focus (a Gaussian blur of about a twentieth of a tile)."""
    import cv2

    grey = cv2.cvtColor(load_image(DATA / "rack_front.jpg"), cv2.COLOR_BGR2GRAY)
    result = Recognizer.default().recognize(DATA / "rack_front.jpg")
    sharp = [tile_sharpness(grey, t.box) for t in result.tiles]
    blurred = [tile_sharpness(cv2.GaussianBlur(grey, (0, 0), 8), t.box) for t in result.tiles]
    assert all(v is not None and v > BLURRED_BELOW for v in sharp)
    assert all(v is not None and v < BLURRED_BELOW for v in blurred)
