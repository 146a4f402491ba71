"""The real "rummikub-nvypk" photos (CC BY 4.0, jonasbuehler on Roboflow Universe) and their fixed split.

The photos are not in this repository.  Fetch them from Roboflow Universe
(https://universe.roboflow.com/rummikue/rummikub-nvypk-8cwem, version 1, licence CC BY 4.0; export the
dataset in the "YOLOv8" format) and give the scripts the folder of the training split with ``--photos DIR``
(or set ``$OKEY_TILE_PHOTOS``).  A folder holds ``images/*.jpg`` and either ``boxes.csv`` (pixel boxes, one
row per tile: ``image, source_photo, okey_equivalent, x1, y1, x2, y2``) or Roboflow's ``labels/*.txt``
(YOLO polygons) with the class list in ``data.yaml`` (in the folder or the one above it).

The split is by ``source_photo`` with a fixed seed: the evaluation photos are never trained on.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

DATASET = ('"rummikub-nvypk" by jonasbuehler on Roboflow Universe, CC BY 4.0: '
           "https://universe.roboflow.com/rummikue/rummikub-nvypk-8cwem (version 1, YOLOv8 export, train split)")
PHOTOS_ENV = "OKEY_TILE_PHOTOS"
SPLIT_SEED = 20260
EVAL_SHARE = 0.2

_chosen: Path | None = None


def add_photos_argument(parser: argparse.ArgumentParser) -> None:
    """``--photos DIR``: the folder of the real photos (default ``$OKEY_TILE_PHOTOS``)."""
    parser.add_argument("--photos", type=Path, default=None, metavar="DIR",
                        help=f"folder of the real tile photos, {DATASET} (default ${PHOTOS_ENV})")


def use_photos(folder: Path | None) -> None:
    """Make ``folder`` (from ``--photos``) the one :func:`load_photos` and :func:`backgrounds` read."""
    global _chosen
    _chosen = folder


def photos_dir(data_dir: Path | None = None, *, required: bool = True) -> Path | None:
    """The photo folder: ``data_dir``, else ``--photos``, else ``$OKEY_TILE_PHOTOS``; a clear exit if absent."""
    folder = data_dir or _chosen or (Path(os.environ[PHOTOS_ENV]) if os.environ.get(PHOTOS_ENV) else None)
    if folder is not None and (folder / "images").is_dir():
        return folder
    if not required:
        return None
    where = f"{folder} has no images/ folder" if folder else "no photo folder given"
    raise SystemExit(f"{where}: download {DATASET} and pass its folder with --photos DIR (or ${PHOTOS_ENV})")


def backgrounds(data_dir: Path | None = None) -> list[Path]:
    """The dataset's empty-table photos (``rummyBackground-*.jpg``); none without a photo folder."""
    folder = photos_dir(data_dir, required=False)
    return sorted((folder / "images").glob("rummyBackground-*.jpg")) if folder else []


@dataclass(frozen=True)
class LabelledPhoto:
    """One photo and its tiles in our notation with pixel boxes (x1, y1, x2, y2)."""

    path: Path
    source_photo: str
    tiles: tuple[tuple[str, tuple[float, float, float, float]], ...]


def to_notation(okey_equivalent: str) -> str:
    """``yellow_7`` → ``Y7`` (the dataset's ``orange_7`` too); the Rummikub joker → ``J``.

    >>> to_notation("black_13"), to_notation("orange_2"), to_notation("joker(rummikub; no okey equivalent)")
    ('K13', 'Y2', 'J')
    """
    if okey_equivalent.startswith("joker"):
        return "J"
    colour, number = okey_equivalent.split("_")
    return {"red": "R", "yellow": "Y", "orange": "Y", "blue": "B", "black": "K"}[colour] + number


def source_photo(image_name: str) -> str:
    """The photo a Roboflow image was made from: ``rummy-10_jpeg.rf.0a89….jpg`` → ``rummy-10``.

    >>> source_photo("images/rummy4-30_jpeg.rf.f3b9bb28ae1662dadefdc249311ad862.jpg")
    'rummy4-30'
    """
    name = Path(image_name).name
    found = re.match(r"(.+?)_(?:jpe?g|png)\.rf\.", name)
    return found.group(1) if found else Path(name).stem


def class_names(text: str) -> list[str]:
    r"""The ``names`` of a YOLO ``data.yaml``, as a block list or an inline list.

    >>> class_names("nc: 2\nnames: ['black_1', 'joker']\n"), class_names("names:\n- black_1\n- joker\nnc: 2\n")
    (['black_1', 'joker'], ['black_1', 'joker'])
    """
    inline = re.search(r"^names:\s*\[(.*?)\]", text, re.M | re.S)
    if inline:
        return [name.strip().strip("'\"") for name in inline.group(1).split(",") if name.strip()]
    block = re.search(r"^names:\s*\n((?:\s*-\s*.+\n?)+)", text, re.M)
    return [line.strip()[1:].strip().strip("'\"") for line in block.group(1).splitlines() if line.strip()] if block else []


def _from_yolo(folder: Path) -> dict[str, list[tuple[str, tuple[float, float, float, float]]]]:
    import cv2

    yaml = next((f / "data.yaml" for f in (folder, folder.parent) if (f / "data.yaml").is_file()), None)
    if yaml is None:
        raise SystemExit(f"{folder} has neither boxes.csv nor data.yaml: use the dataset's YOLOv8 export ({DATASET})")
    names = class_names(yaml.read_text(encoding="utf-8"))
    photos: dict[str, list[tuple[str, tuple[float, float, float, float]]]] = {}
    for label in sorted((folder / "labels").glob("*.txt")):
        image = next((folder / "images" / (label.stem + ext) for ext in (".jpg", ".jpeg", ".png")
                      if (folder / "images" / (label.stem + ext)).is_file()), None)
        if image is None:
            continue
        height, width = cv2.imread(str(image)).shape[:2]
        tiles = []
        for line in label.read_text().splitlines():
            values = line.split()
            if len(values) < 5:
                continue
            xs, ys = [float(v) * width for v in values[1::2]], [float(v) * height for v in values[2::2]]
            box = (round(min(xs), 1), round(min(ys), 1), round(max(xs), 1), round(max(ys), 1))
            tiles.append((to_notation(names[int(values[0])]), box))
        if tiles:  # the empty-table photos are backgrounds(), not labelled photos
            photos[f"images/{image.name}"] = tiles
    return photos


def load_photos(data_dir: Path | None = None) -> list[LabelledPhoto]:
    """Every labelled photo of the folder (see the module's help), sorted by source photo."""
    folder = photos_dir(data_dir)
    assert folder is not None
    if (folder / "boxes.csv").is_file():
        rows: dict[str, list[dict[str, str]]] = defaultdict(list)
        with open(folder / "boxes.csv", newline="") as handle:
            for row in csv.DictReader(handle):
                rows[row["image"]].append(row)
        labelled = {
            image: [(to_notation(r["okey_equivalent"]), tuple(float(r[k]) for k in ("x1", "y1", "x2", "y2")))
                    for r in group]
            for image, group in rows.items()
        }
        sources = {image: group[0].get("source_photo") or source_photo(image) for image, group in rows.items()}
    else:
        labelled = _from_yolo(folder)  # type: ignore[assignment]
        sources = {image: source_photo(image) for image in labelled}
    photos = [LabelledPhoto(folder / image, sources[image], tuple(tiles))  # type: ignore[arg-type]
              for image, tiles in labelled.items()]
    return sorted(photos, key=lambda photo: (photo.source_photo, photo.path.name))


def split_photos(photos: list[LabelledPhoto]) -> tuple[list[LabelledPhoto], list[LabelledPhoto]]:
    """(train, eval) by source photo, fixed seed."""
    sources = sorted({photo.source_photo for photo in photos})
    random.Random(SPLIT_SEED).shuffle(sources)
    held_out = set(sources[: round(len(sources) * EVAL_SHARE)])
    return ([p for p in photos if p.source_photo not in held_out], [p for p in photos if p.source_photo in held_out])
