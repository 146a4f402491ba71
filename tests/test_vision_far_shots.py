"""A far shot (issue 10): the rack a third of the photo's width, felt all around it.

From a seat, a phone often takes the whole table's end: the tiles are then a fifth of the size the detector
learnt at its first look, which barely sees them.  The detector looks again closer, and where even its largest
size leaves the tiles too small, at the part of the photo they lie in.  ``scripts/eval_vision.py --farther 1.0``
measures the same on the rendered racks.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import Recognizer
from vision.postprocess import box_iou
from vision_labels import DATA, tile_boxes

def _labels(image: str) -> list[tuple[str, np.ndarray]]:
    return [(code, np.array(box, np.float32)) for code, box in tile_boxes("racks.csv")[image]]


def _far(image: str, pad: float) -> tuple[np.ndarray, int, int]:
    """The test photo ``image`` as ``eval_vision.py --farther pad`` takes it, and where the photo now starts."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    from eval_vision import _farther

    pixels = cv2.imread(str(DATA / image))
    height, width = pixels.shape[:2]
    return _farther(pad, None)(pixels), round(width * pad), round(height * pad)


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.default()


def test_a_far_shot_is_looked_at_closer(recognizer: Recognizer) -> None:
    labels = _labels("rack_tilted_teens.jpg")
    far, across, down = _far("rack_tilted_teens.jpg", 1.0)
    result = recognizer.recognize(far)
    assert Counter(t.tile for t in result.tiles) == Counter(code for code, _ in labels)
    found = np.array([t.box for t in result.tiles], np.float32)
    for code, box in labels:
        assert box_iou(box + [across, down, across, down], found).max() >= 0.5, f"{code} not boxed where it lies"
    # Without the closer look the detector's first look at this photo finds no tile (0 of 21).
    assert len(Recognizer(far_shots=False).recognize(far).tiles) < len(labels) // 2


def test_a_far_shot_whose_first_look_sees_groups_of_tiles_is_looked_at_closer(recognizer: Recognizer) -> None:
    """A turned rack a third of the photo's width: the first look finds boxes of a tile's size around groups of
    three or four tiles (8 of the 13 tiles read right); the closer look, finding many more tiles, is kept."""
    labels = _labels("rack_rotated.jpg")
    far, _, _ = _far("rack_rotated.jpg", 1.0)
    assert Counter(t.tile for t in recognizer.recognize(far).tiles) == Counter(code for code, _ in labels)
    before = Counter(t.tile for t in Recognizer(far_shots=False).recognize(far).tiles)
    assert sum((before & Counter(code for code, _ in labels)).values()) < 10


def test_photos_whose_tiles_the_first_look_sees_are_read_as_before(recognizer: Recognizer) -> None:
    plain = Recognizer(far_shots=False)
    for name in ("rack_front.jpg", "rack_tilted_dim.jpg", "rack_rotated.jpg", "real_rack_6.jpg", "real_table_16.jpg"):
        pixels = cv2.imread(str(DATA / name))
        assert recognizer.recognize(pixels).tiles == plain.recognize(pixels).tiles, name
