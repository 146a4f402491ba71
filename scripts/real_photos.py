"""The real "rummikub-nvypk" photos (CC BY 4.0, jonasbuehler on Roboflow Universe) and their fixed split.

The split is by ``source_photo`` with a fixed seed: the evaluation photos are never trained on.
"""

from __future__ import annotations

import csv
import random
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

DATA_DIR = Path("/work/shared/data/tiles/rummikub-nvypk-train")
SPLIT_SEED = 20260
EVAL_SHARE = 0.2


@dataclass(frozen=True)
class LabelledPhoto:
    """One photo and its tiles in our notation with pixel boxes (x1, y1, x2, y2)."""

    path: Path
    source_photo: str
    tiles: tuple[tuple[str, tuple[float, float, float, float]], ...]


def to_notation(okey_equivalent: str) -> str:
    """``yellow_7`` → ``Y7``; the Rummikub joker → ``J``.

    >>> to_notation("black_13"), to_notation("joker(rummikub; no okey equivalent)")
    ('K13', 'J')
    """
    if okey_equivalent.startswith("joker"):
        return "J"
    colour, number = okey_equivalent.split("_")
    return {"red": "R", "yellow": "Y", "blue": "B", "black": "K"}[colour] + number


def load_photos(data_dir: Path = DATA_DIR) -> list[LabelledPhoto]:
    """Every labelled photo, sorted by source photo."""
    rows: dict[str, list[dict[str, str]]] = defaultdict(list)
    with open(data_dir / "boxes.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            rows[row["image"]].append(row)
    photos = [
        LabelledPhoto(
            data_dir / image,
            group[0]["source_photo"],
            tuple((to_notation(r["okey_equivalent"]), tuple(float(r[k]) for k in ("x1", "y1", "x2", "y2"))) for r in group),  # type: ignore[misc]
        )
        for image, group in rows.items()
    ]
    return sorted(photos, key=lambda photo: photo.source_photo)


def split_photos(photos: list[LabelledPhoto]) -> tuple[list[LabelledPhoto], list[LabelledPhoto]]:
    """(train, eval) by source photo, fixed seed."""
    sources = sorted({photo.source_photo for photo in photos})
    random.Random(SPLIT_SEED).shuffle(sources)
    held_out = set(sources[: round(len(sources) * EVAL_SHARE)])
    return ([p for p in photos if p.source_photo not in held_out], [p for p in photos if p.source_photo in held_out])
