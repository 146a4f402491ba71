"""A blurred photo (issue 10, "says plainly what to retake"): a hand that moves in a long exposure, or a phone that
did not focus, smears the numerals, and tiles are misread.  The photo says it is blurred, its tiles are sure only
from ``BLURRED_SURE_FROM``, and the page asks to hold the phone still.  A sharp photo says nothing of blur.

Photos: tests/data/vision (rendered racks, seed 9101; real Rummikub photos, CC BY 4.0, see README there), smeared
here as ``scripts/eval_vision.py --shake`` smears them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from vision import Recognizer
from vision.recognizer import BLUR_MESSAGE, BLURRED_BELOW, BLURRED_SURE_FROM
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
    assert BLUR_MESSAGE not in recognizer.recognize(DATA / image).warnings


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


def test_sharp_faces_measure_above_the_threshold_and_out_of_focus_ones_below() -> None:
    """Each tile of a sharp rack, and of the same rack out of focus (a Gaussian blur of about a twentieth of a tile)."""
    import cv2

    from vision.recognizer import tile_sharpness

    grey = cv2.cvtColor(load_image(DATA / "rack_front.jpg"), cv2.COLOR_BGR2GRAY)
    result = Recognizer.default().recognize(DATA / "rack_front.jpg")
    sharp = [tile_sharpness(grey, t.box) for t in result.tiles]
    blurred = [tile_sharpness(cv2.GaussianBlur(grey, (0, 0), 8), t.box) for t in result.tiles]
    assert all(v is not None and v > BLURRED_BELOW for v in sharp)
    assert all(v is not None and v < BLURRED_BELOW for v in blurred)
