"""The labelled test photos of tests/data/vision (see the README there): tiles and boxes by image."""

from __future__ import annotations

import csv
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
