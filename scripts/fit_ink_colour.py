"""Fit the ink-colour check (``vision/ink.py``) and write ``models/ink_colour.json``.

    .venv/bin/python scripts/fit_ink_colour.py --racks scripts/cache/racks --photos DIR \
        --racks3d scripts/cache/racks3d-train2-{tilted,front,rotated} scripts/cache/racks3d-train3-{tilted,front,rotated} \
        --check scripts/cache/racks-dev-tilted scripts/cache/racks-dev-front scripts/cache/racks-dev-rotated

Features come from the labelled boxes (not from detections): the first ``--count`` photos of the rack
pool (``render_racks.py --seed 2``, the classifier's training pool), the training split of the real
"rummikub-nvypk" photos and every photo of the ``--racks3d`` folders (``render_racks_3d.py``: the face's box of each
labelled tile); the held-out real photos and any ``--check`` folders are only scored.  The
fit is a softmax regression over the five features, the squares of the four colour ones and a
constant, by plain gradient descent from zero (deterministic: no random numbers).  Needs only numpy.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

import numpy as np  # noqa: E402

from real_photos import add_photos_argument, load_photos, split_photos, use_photos  # noqa: E402
from vision.imageio import load_image  # noqa: E402
from vision.ink import INK_MODEL, INK_SURE, InkColour, expand_features, face_patches, ink_features, loose_frames  # noqa: E402
from vision.numerals import tile_frames  # noqa: E402

COLOURS = ("R", "Y", "B", "K")
STEPS, RATE, DECAY = 3000, 0.5, 1e-3


def rendered(folder: Path, count: int | None = None) -> list[tuple[Path, list[tuple[str, tuple[float, ...]]]]]:
    """(photo, [(tile, box)]) of a ``render_racks.py`` folder, the first ``count`` photos."""
    groups: dict[str, list[tuple[str, tuple[float, ...]]]] = defaultdict(list)
    with open(folder / "labels.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            groups[row["image"]].append((row["tile"], tuple(float(row[k]) for k in ("x1", "y1", "x2", "y2"))))
    names = sorted(groups)[:count]
    return [(folder / name, groups[name]) for name in names]


def features_of(photos: list[tuple[Path, list[tuple[str, tuple[float, ...]]]]]) -> tuple[list[np.ndarray | None], list[int]]:
    """Ink features and colour index of every numbered tile on the photos."""
    features, labels = [], []
    for path, tiles in photos:
        tiles = [(t, b) for t, b in tiles if t[0] in COLOURS]
        if not tiles:
            continue
        image = load_image(path)
        boxes = np.array([b for _, b in tiles], np.float32)
        for (tile, _), patch in zip(tiles, face_patches(image, boxes, loose_frames(image, boxes, tile_frames(boxes)))):
            features.append(ink_features(patch))
            labels.append(COLOURS.index(tile[0]))
    return features, labels


def fit(features: np.ndarray, labels: np.ndarray) -> dict[str, object]:
    mean, scale = features.mean(0), features.std(0) + 1e-9
    x = expand_features(features, mean, scale)
    target = np.eye(len(COLOURS))[labels]
    weights = np.zeros((x.shape[1], len(COLOURS)))
    for _ in range(STEPS):
        scores = x @ weights
        p = np.exp(scores - scores.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        weights -= RATE * (x.T @ (p - target) / len(x) + DECAY * weights)
    return {"colours": list(COLOURS), "mean": mean.round(6).tolist(), "scale": scale.round(6).tolist(),
            "weights": weights.round(6).tolist()}


def score(model: InkColour, name: str, features: list[np.ndarray | None], labels: list[int]) -> None:
    p = model.probabilities(features)
    known = np.isfinite(p).all(1)
    read = p[known].argmax(1)
    truth = np.array(labels)[known]
    sure = p[known].max(1) >= INK_SURE
    print(f"| {name} | {len(labels)} | {known.mean():.1%} | {(read == truth).mean():.1%} | "
          f"{int((sure & (read != truth)).sum())}/{int(sure.sum())} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racks", type=Path, required=True, help="the rack pool (render_racks.py --seed 2)")
    parser.add_argument("--count", type=int, default=250, help="photos of the pool to fit on")
    parser.add_argument("--racks3d", type=Path, nargs="*", default=[],
                        help="folders of racks rendered in 3-D (render_racks_3d.py) to fit on too")
    parser.add_argument("--check", type=Path, nargs="*", default=[], help="rendered folders to score")
    parser.add_argument("--out", type=Path, default=ROOT / "models" / INK_MODEL)
    add_photos_argument(parser)
    args = parser.parse_args()
    use_photos(args.photos)
    train, held_out = split_photos(load_photos())
    pool_f, pool_y = features_of(rendered(args.racks, args.count))
    real_f, real_y = features_of([(p.path, list(p.tiles)) for p in train])
    built = [photo for folder in args.racks3d for photo in rendered(folder)]
    if args.racks3d and not built:
        parser.error("the --racks3d folders hold no labelled photos: render them first (scripts/render_racks_3d.py)")
    built_f, built_y = features_of(built)
    fitted_f, fitted_y = pool_f + real_f + built_f, pool_y + real_y + built_y
    pairs = [(f, y) for f, y in zip(fitted_f, fitted_y) if f is not None]
    card = fit(np.stack([f for f, _ in pairs]), np.array([y for _, y in pairs]))
    card["fitted_on"] = (f"{len(pool_y)} tiles of the first {args.count} photos of {args.racks.name} "
                         f"(render_racks.py --seed 2) and {len(real_y)} tiles of the real training split")
    if built:
        card["fitted_on"] += (f", and {len(built_y)} tiles of {len(built)} racks built in 3-D "
                              f"({', '.join(folder.name for folder in args.racks3d)})")
    args.out.write_text(json.dumps(card, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    model = InkColour(args.out)
    print("| set | tiles | ink measured | ink's colour right | sure and wrong |\n|---|---|---|---|---|")
    score(model, "fitted on", fitted_f, fitted_y)
    score(model, "real held-out", *features_of([(p.path, list(p.tiles)) for p in held_out]))
    for folder in args.check:
        score(model, folder.name, *features_of(rendered(folder)))


if __name__ == "__main__":
    main()
