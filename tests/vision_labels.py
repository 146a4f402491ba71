"""The labelled test photos of tests/data/vision (see the README there): tiles and boxes by image, the sure tiles read
in a wrong colour, and an EXIF segment that turns a photo."""

from __future__ import annotations

import atexit
import csv
import functools
import shutil
import struct
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).parent / "data" / "vision"


def tile_boxes(name: str) -> dict[str, list[tuple[str, list[float]]]]:
    """``labels.csv`` or ``racks.csv`` → {image: [(tile, [x1, y1, x2, y2]), …]}."""
    found: dict[str, list[tuple[str, list[float]]]] = defaultdict(list)
    with open(DATA / name, newline="") as handle:
        for row in csv.DictReader(handle):
            found[row["image"]].append((row["tile"], [float(row[k]) for k in ("x1", "y1", "x2", "y2")]))
    return found


@functools.cache
def _every_label() -> dict[str, list[tuple[str, list[float]]]]:
    return {**tile_boxes("labels.csv"), **tile_boxes("racks.csv"), **tile_boxes("racks3d.csv")}


def sure_colour_mistakes(tiles: Iterable[Any], image: str) -> list[tuple[str, str, float]]:
    """Of ``tiles`` (``vision.DetectedTile``) read on ``image`` (labelled in ``labels.csv``, ``racks.csv`` or
    ``racks3d.csv``), the sure ones whose colour is wrong: (truth, read, confidence)."""
    from vision.postprocess import box_iou

    truth = _every_label()[image]
    labelled = np.array([box for _, box in truth], np.float32)
    wrong = []
    for tile in tiles:
        overlap = box_iou(np.array(tile.box, np.float32), labelled)
        best = int(np.argmax(overlap))
        if overlap[best] >= 0.5 and truth[best][0][0] != tile.tile[0] and not tile.low_confidence:
            wrong.append((truth[best][0], tile.tile, round(tile.confidence, 2)))
    return wrong


def detector_boxes(image: str, detector: str) -> tuple[np.ndarray, np.ndarray]:
    """``detector_boxes.csv``: the boxes a past or shipped detector drew on a test photo, in the order the recogniser
    read them (float32, as drawn), and which of them were proposed in a row's gap rather than detected.  Tests of a
    look at the tiles read them on these boxes, so that a new detector's boxes leave what they show standing."""
    boxes, proposed = _recorded("detector_boxes.csv", "image", image, detector, "proposed")
    return boxes, np.array([value == "1" for value in proposed], bool)


def _recorded(table: str, photo_column: str, photo: str, detector: str, column: str) -> tuple[np.ndarray, list[str]]:
    """The boxes a csv of recorded boxes (``detector_boxes.csv``, ``found_tiles.csv``) holds for one photo and detector,
    float32 N×4 in the order recorded, and each box's ``column``; a KeyError where it holds none."""
    boxes, values = [], []
    with open(DATA / table, newline="") as handle:
        for row in csv.DictReader(handle):
            if row[photo_column] == photo and row["detector"] == detector:
                boxes.append([float(row[k]) for k in ("x1", "y1", "x2", "y2")])
                values.append(row[column])
    if not boxes:
        raise KeyError(f"{table} has no boxes of the {detector} detector on {photo!r}")
    return np.array(boxes, np.float32).reshape(-1, 4), values


def app1_orientation(value: int) -> bytes:
    """An APP1 Exif segment holding only the orientation tag (big-endian TIFF), to put after a JPEG's SOI."""
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1)
    tiff += struct.pack(">HHIHH", 0x0112, 3, 1, value, 0) + struct.pack(">I", 0)
    payload = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


@functools.cache
def earlier_classifier() -> Path:
    """A models folder whose only classifier is the one shipped first until the twenty-sixth round (now the second
    classifier, ``models/classifier_second.onnx``), the rest the shipped models (linked, not copied; the folder is
    removed when the tests end).  Tests of a look that flags a misread that classifier made read with it, so that the
    misread they show stays there to be flagged."""
    from vision.recognizer import MODELS_DIR, SECOND_CLASSIFIER

    folder = Path(tempfile.mkdtemp(prefix="earlier-classifier-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    for model in MODELS_DIR.iterdir():
        if model.suffix in (".onnx", ".json") and model.name not in ("classifier.onnx", SECOND_CLASSIFIER):
            (folder / model.name).symlink_to(model)
    (folder / "classifier.onnx").symlink_to(MODELS_DIR / SECOND_CLASSIFIER)
    return folder


FOUND_BY = "forty-eighth round"
"""The detector whose boxes ``found_tiles.csv`` holds (shipped from the twenty-fourth round to the forty-eighth)."""


def found_tiles(name: str) -> tuple[np.ndarray, np.ndarray]:
    """``found_tiles.csv``: the boxes and scores ``Recognizer.find_tiles`` gave on a test photo (``name``: its file,
    with what a test did to it after a space) with the detector :data:`FOUND_BY`, float32 as found."""
    boxes, scores = _recorded("found_tiles.csv", "photo", name, FOUND_BY, "score")
    return boxes, np.array([float(score) for score in scores], np.float32)


def on_found_tiles(monkeypatch: Any, *names: str) -> None:
    """Read the next photos on the boxes :func:`found_tiles` gives for ``names``: ``Recognizer.find_tiles`` returns
    those of the first name at its first call, of the second at its second, and of the last at every call after.  A
    test of what is read on the tiles (ink, numerals, a second look) so sets up its photo as the detector of its day
    boxed it, and a new detector, boxing it otherwise, leaves the premise standing.  (Photos read at a working size,
    whose far racks are looked at closer, call it more than once: not for this.)"""
    from vision import Recognizer

    queue = [found_tiles(name) for name in names]

    def find_tiles(self: Recognizer, pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        boxes, scores = queue.pop(0) if len(queue) > 1 else queue[0]
        return boxes.copy(), scores.copy()

    monkeypatch.setattr(Recognizer, "find_tiles", find_tiles)
