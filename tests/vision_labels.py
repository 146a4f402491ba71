"""The labelled test photos of tests/data/vision (see the README there): tiles and boxes by image, and an EXIF
segment that turns a photo."""

from __future__ import annotations

import csv
import struct
from collections import defaultdict
from pathlib import Path

DATA = Path(__file__).parent / "data" / "vision"


def tile_boxes(name: str) -> dict[str, list[tuple[str, list[float]]]]:
    """``labels.csv`` or ``racks.csv`` → {image: [(tile, [x1, y1, x2, y2]), …]}."""
    found: dict[str, list[tuple[str, list[float]]]] = defaultdict(list)
    with open(DATA / name, newline="") as handle:
        for row in csv.DictReader(handle):
            found[row["image"]].append((row["tile"], [float(row[k]) for k in ("x1", "y1", "x2", "y2")]))
    return found


def app1_orientation(value: int) -> bytes:
    """An APP1 Exif segment holding only the orientation tag (big-endian TIFF), to put after a JPEG's SOI."""
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1)
    tiff += struct.pack(">HHIHH", 0x0112, 3, 1, value, 0) + struct.pack(">I", 0)
    payload = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
