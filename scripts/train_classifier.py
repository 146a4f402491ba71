"""Train the tile-crop classifier (kind 1-13/F/J/none, colour, upside down) and checkpoint it.

    .venv/bin/python scripts/train_classifier.py --steps 4000 --threads 2

Data: crops of the real training photos (the held-out photos of ``real_photos.split_photos`` are never
used), crops of the synthetic pool (``scripts/render_tiles.py``), of the rack pool (``scripts/render_racks.py``),
with ``--racks3d`` of racks rendered in 3-D (``scripts/render_racks_3d.py``), and background crops ("none").  Real
crops are rotated at any angle (their identity does not change; their up/down is unknown, so the
upside-down head learns from synthetic crops only).  Resumes from ``scripts/cache/classifier.pt``.
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from train_common import (CACHE, COLOURS, KINDS, RACKS_DIR, Classifier, init_from_onnx, racks_3d_scenes, setup,
                          synthetic_scenes, train)
from real_photos import add_photos_argument, backgrounds, load_photos, split_photos, use_photos
from vision.postprocess import box_iou
from vision.preprocess import CROP_MARGIN, CROP_SIZE, normalise, square_crop

CONTEXT = 2 * CROP_SIZE
CONTEXT_MARGIN = 2 * CROP_MARGIN
NONE = KINDS.index("none")


def _labels(tile: str) -> tuple[int, int]:
    """(kind index, colour index or -1)."""
    if tile in ("F", "J"):
        return KINDS.index(tile), -1
    return KINDS.index(tile[1:]), COLOURS.index(tile[0])


def _background_boxes(rng: random.Random, image: np.ndarray, boxes: list[tuple[float, ...]], count: int) -> list[tuple[float, ...]]:
    """Random tile-sized boxes that overlap no tile by more than a sliver (or cover several tiles)."""
    h, w = image.shape[:2]
    sizes = [max(b[2] - b[0], b[3] - b[1]) for b in boxes] or [min(h, w) / 8]
    found: list[tuple[float, ...]] = []
    for _ in range(count * 10):
        side = rng.choice(sizes) * rng.uniform(0.6, 1.6)
        x, y = rng.uniform(0, w - side * 0.7), rng.uniform(0, h - side)
        box = (x, y, x + side * 0.75, y + side)
        overlap = float(box_iou(np.array(box), np.array(boxes, np.float32).reshape(-1, 4)).max(initial=0.0))
        if overlap < 0.15 or (rng.random() < 0.1 and side > 2.5 * np.median(sizes)):
            found.append(box)
        if len(found) == count:
            break
    return found


def _straddle_boxes(rng: random.Random, boxes: list[tuple[float, ...]], count: int) -> list[tuple[float, ...]]:
    """Tile-sized boxes across two touching neighbours (a rack): "none", so a box between two tiles is dropped."""
    found: list[tuple[float, ...]] = []
    array = np.array(boxes, np.float32).reshape(-1, 4)
    for _ in range(count * 4):
        if len(array) < 2 or len(found) == count:
            break
        a = array[rng.randrange(len(array))]
        w, h = a[2] - a[0], a[3] - a[1]
        shift = rng.choice([-1, 1]) * w * rng.uniform(0.4, 0.6)
        box = (float(a[0] + shift), float(a[1]), float(a[2] + shift), float(a[3]))
        if float(box_iou(np.array(box, np.float32), array).max()) < 0.4 and (array[:, 0] < box[2]).any():
            found.append(box)
    return found


def build_pools(seed: int, racks: bool = True, racks3d: tuple[Path, ...] = (),
                colours3d: bool = True) -> dict[str, list[tuple[np.ndarray, int, int, int]]]:
    """Context crops (96×96 at twice the final margin) with (kind, colour, upside: 1/0/-1 unknown).

    ``racks3d`` names folders of racks rendered in 3-D (``scripts/render_racks_3d.py``): each tile is cropped
    by its face box and again by its whole box (a detector finds either), into their own pool; without
    ``colours3d`` their colours are left unlabelled, so they teach what a tile is and its number only.
    """
    rng = random.Random(seed)
    pools: dict[str, list[tuple[np.ndarray, int, int, int]]] = {"real": [], "synthetic": [], "racks": [], "racks3d": [], "none": []}
    train, _ = split_photos(load_photos())
    for photo in train:
        image = cv2.imread(str(photo.path))
        boxes = [box for _, box in photo.tiles]
        for tile, box in photo.tiles:
            kind, colour = _labels(tile)
            pools["real"].append((square_crop(image, np.array(box), CONTEXT, CONTEXT_MARGIN), kind, colour, -1))
        for box in _background_boxes(rng, image, boxes, 6):
            pools["none"].append((square_crop(image, np.array(box), CONTEXT, CONTEXT_MARGIN), NONE, -1, -1))
    for path, tiles in synthetic_scenes():
        image = cv2.imread(str(path))
        for tile, box, upside in tiles:
            kind, colour = _labels(tile)
            pools["synthetic"].append((square_crop(image, np.array(box), CONTEXT, CONTEXT_MARGIN), kind, colour, int(upside)))
        for box in _background_boxes(rng, image, [b for _, b, _ in tiles], 2):
            pools["none"].append((square_crop(image, np.array(box), CONTEXT, CONTEXT_MARGIN), NONE, -1, -1))
    for path, tiles in synthetic_scenes(RACKS_DIR) if racks and (RACKS_DIR / "labels.csv").exists() else []:
        image = cv2.imread(str(path))
        boxes = [b for _, b, _ in tiles]
        for tile, box, upside in tiles:
            kind, colour = _labels(tile)
            # Up/down is left to the older synthetic pool (as before), so the rack labels' convention cannot move it.
            pools["racks"].append((square_crop(image, np.array(box), CONTEXT, CONTEXT_MARGIN), kind, colour, -1))
        for box in _background_boxes(rng, image, boxes, 2) + _straddle_boxes(rng, boxes, 2):
            pools["none"].append((square_crop(image, np.array(box), CONTEXT, CONTEXT_MARGIN), NONE, -1, -1))
    for directory in racks3d:
        scenes = racks_3d_scenes(directory)
        wholes = _whole_boxes(directory / "labels.csv")
        for path, tiles in scenes:
            image = cv2.imread(str(path))
            boxes = [b for _, b, _ in tiles]
            for tile, box, _ in tiles:
                kind, colour = _labels(tile)
                colour = colour if colours3d else -1
                for crop_box in {box, wholes.get((path.name, box), box)}:
                    pools["racks3d"].append((square_crop(image, np.array(crop_box), CONTEXT, CONTEXT_MARGIN), kind, colour, -1))
            for box in _background_boxes(rng, image, boxes, 1) + _straddle_boxes(rng, boxes, 1):
                pools["none"].append((square_crop(image, np.array(box), CONTEXT, CONTEXT_MARGIN), NONE, -1, -1))
    return pools


def _whole_boxes(labels: Path) -> dict[tuple[str, tuple[float, ...]], tuple[float, ...]]:
    """(photo, face box) → the whole tile's box, where the labels give one (``whole_x1`` …)."""
    found: dict[tuple[str, tuple[float, ...]], tuple[float, ...]] = {}
    with open(labels, newline="") as handle:
        for row in csv.DictReader(handle):
            if row.get("whole_x1"):
                face = tuple(float(row[k]) for k in ("x1", "y1", "x2", "y2"))
                found[(row["image"], face)] = tuple(float(row[k]) for k in ("whole_x1", "whole_y1", "whole_x2", "whole_y2"))
    return found


def augment(context: np.ndarray, upside: int, rng: random.Random, any_angle: bool,
            faces: bool = False) -> tuple[np.ndarray, int]:
    """Rotate/scale/shift the context crop and take the central 48×48; photometric noise; returns (crop, upside).
    ``faces`` (``--other-faces``): also draw the tile as numerals of another face would show it, narrower or wider,
    leaning, with lighter or heavier strokes (drawn only then, so the other recipes draw the same crops as before)."""
    if any_angle:
        angle = rng.uniform(-180, 180)
    else:
        angle = rng.gauss(0, 6) + (180 if rng.random() < 0.3 else 0)
        if upside >= 0 and abs(angle) > 90:
            upside = 1 - upside
    # The context crop has the final crop's pixel scale, twice its extent: rotate about its centre, keep the middle.
    matrix = cv2.getRotationMatrix2D((CONTEXT / 2, CONTEXT / 2), angle, math.exp(rng.uniform(-0.2, 0.2)))
    matrix[:, 2] += (CROP_SIZE - CONTEXT) / 2 + np.array([rng.gauss(0, 3.5), rng.gauss(0, 3.5)])
    if faces:  # narrower or wider, leaning: the shape taken first, about the context's centre, then the turn above
        shape = np.array([[math.exp(rng.uniform(-0.18, 0.18)), rng.uniform(-0.15, 0.15)], [0.0, 1.0]])
        centre = np.array([CONTEXT / 2, CONTEXT / 2])
        turned = matrix[:, :2] @ shape
        matrix = np.c_[turned, matrix[:, :2] @ centre + matrix[:, 2] - turned @ centre]
    crop = cv2.warpAffine(context, matrix, (CROP_SIZE, CROP_SIZE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if faces:  # heavier strokes (the dark ink spread by a pixel) or lighter ones (the light face spread over it)
        stroke = rng.random()
        if stroke < 0.2:
            crop = cv2.erode(crop, np.ones((2, 2), np.uint8))
        elif stroke < 0.4:
            crop = cv2.dilate(crop, np.ones((2, 2), np.uint8))
    image = crop.astype(np.float32)
    image = (image - 128) * rng.uniform(0.75, 1.25) + 128 + rng.uniform(-35, 30)
    image *= np.array([rng.uniform(0.94, 1.06) for _ in range(3)], np.float32)
    if rng.random() < 0.3:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.1))
    if rng.random() < 0.5:
        image += np.random.default_rng(rng.randrange(2**32)).normal(0, rng.uniform(1, 8), image.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8), upside


def batch(pools: dict[str, list[tuple[np.ndarray, int, int, int]]], rng: random.Random, size: int,
          share3d: float = 0.0, faces: bool = False) -> tuple[torch.Tensor, ...]:
    """``share3d`` of the batch comes from the 3-D racks' pool: up to 0.25 out of the 2.5-D racks' share, the rest
    out of the flat synthetic tiles'."""
    crops, kinds, colours, upsides = [], [], [], []
    share3d = share3d if pools["racks3d"] else 0.0
    # the 3-D share comes out of the 2.5-D racks' 0.35 up to 0.25, and any more out of the flat synthetic tiles' 0.15
    synthetic_end = 0.53 - max(0.0, share3d - 0.25)
    racks_end = 0.88 - min(share3d, 0.25)
    for _ in range(size):
        roll = rng.random()
        if pools["racks"]:
            source = ("real" if roll < 0.38 else "synthetic" if roll < synthetic_end else "racks3d" if roll < 0.53
                      else "racks" if roll < racks_end else "racks3d" if roll < 0.88 else "none")
        else:
            source = "real" if roll < 0.5 else "synthetic" if roll < 0.88 else "none"
        context, kind, colour, upside = rng.choice(pools[source])
        crop, upside = augment(context, upside, rng, any_angle=source not in ("synthetic", "racks", "racks3d"),
                               faces=faces and source != "none")
        crops.append(crop)
        kinds.append(kind)
        colours.append(colour)
        upsides.append(upside)
    return (torch.from_numpy(normalise(np.stack(crops))), torch.tensor(kinds), torch.tensor(colours),
            torch.tensor(upsides, dtype=torch.float32))


def loss_of(model: Classifier, x: torch.Tensor, kinds: torch.Tensor, colours: torch.Tensor, upsides: torch.Tensor) -> torch.Tensor:
    kind_logits, colour_logits, upside_logits = model(x)
    loss = nn.functional.cross_entropy(kind_logits, kinds, label_smoothing=0.05)
    loss = loss + nn.functional.cross_entropy(colour_logits, colours, ignore_index=-1, label_smoothing=0.05)
    known = upsides >= 0
    if known.any():
        loss = loss + 0.5 * nn.functional.binary_cross_entropy_with_logits(upside_logits[known, 0], upsides[known])
    return loss


def main() -> None:
    parser = argparse.ArgumentParser(description="train the tile classifier")
    parser.add_argument("--steps", type=int, default=4000)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--checkpoint", default=str(CACHE / "classifier.pt"))
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--from-onnx", type=Path, help="fine-tune: start from these ONNX weights (e.g. models/classifier.onnx), norms frozen")
    parser.add_argument("--wide", action="store_true", help="the wide network (train_common.Classifier), trained from scratch")
    parser.add_argument("--no-racks", action="store_true", help="leave out the rack pool (scripts/render_racks.py)")
    parser.add_argument("--racks3d", type=Path, nargs="+", default=[],
                        help="folders of racks rendered in 3-D (scripts/render_racks_3d.py) to learn from as well")
    parser.add_argument("--no-colours3d", action="store_true",
                        help="learn only what each --racks3d tile is and its number, not its colour")
    parser.add_argument("--share3d", type=float, default=0.12,
                        help="share of each batch drawn from --racks3d (default 0.12): up to 0.25 out of the 2.5-D "
                             "racks' share, up to 0.4 out of the flat synthetic tiles' too")
    parser.add_argument("--other-faces", action="store_true",
                        help="draw each tile's crop as numerals of other faces would show it too: narrower or wider, "
                             "leaning, lighter or heavier strokes (tried in the fiftieth round, not kept: "
                             "models/HISTORY.md)")
    add_photos_argument(parser)
    args = parser.parse_args()
    if args.racks3d and args.no_racks:
        parser.error("--racks3d takes its share of the batch from the rack pool: leave out --no-racks")
    if not 0 < args.share3d <= 0.4:
        parser.error(f"--share3d {args.share3d}: give a share above 0 and at most 0.4 (up to 0.25 comes out of the"
                     " 2.5-D racks' 0.35, the rest out of the flat synthetic tiles' 0.15)")
    if Classifier.is_wide(Path(args.checkpoint)) not in (None, args.wide):
        raise SystemExit(f"{args.checkpoint} holds the {'narrow' if args.wide else 'wide'} network: "
                         f"{'leave out' if args.wide else 'add'} --wide to resume it, or name another --checkpoint")
    use_photos(args.photos)
    setup(args.seed, args.threads)
    started = time.time()
    pools = build_pools(args.seed, racks=not args.no_racks, racks3d=tuple(args.racks3d),
                        colours3d=not args.no_colours3d)
    print({k: len(v) for k, v in pools.items()}, f"pools built in {time.time() - started:.0f}s", flush=True)
    model = Classifier(wide=args.wide)
    if args.from_onnx:
        init_from_onnx(model, args.from_onnx, torch.zeros(2, 3, CROP_SIZE, CROP_SIZE))
    train(
        model,
        batch=lambda rng: batch(pools, rng, args.batch, args.share3d, args.other_faces),
        loss_of=loss_of,
        steps=args.steps,
        seed=args.seed,
        peak_lr=args.lr,
        checkpoint=Path(args.checkpoint),
        log_every=50,
        save_every=250,
        frozen_norms=args.from_onnx is not None,
    )


if __name__ == "__main__":
    main()
