"""Train the tile detector (centre heatmap + box size + offset at stride 4) and checkpoint it.

    .venv/bin/python scripts/train_detector.py --steps 3500 --threads 2

Each step draws 320×320 patches from the real training photos (never the held-out ones) and the
synthetic pool, at scales around the inference scale (long side 512), with flips, quarter turns
and photometric noise; with ``--racks3d``, also from racks rendered in 3-D (``--share3d`` of each batch).
Resumes from ``scripts/cache/detector.pt``.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from pathlib import Path

import cv2
import numpy as np
import torch

from train_common import CACHE, RACKS_DIR, Detector, init_from_onnx, racks_3d_scenes, setup, synthetic_scenes, train
from real_photos import add_photos_argument, backgrounds, load_photos, split_photos, use_photos
from vision.preprocess import DETECT_LONG_SIDE, STRIDE, normalise

PATCH = 320
BASE_LONG_SIDE = 704
Sample = tuple[np.ndarray, np.ndarray]


def _load(path: Path, boxes: list[tuple[float, ...]]) -> Sample:
    image = cv2.imread(str(path))
    scale = BASE_LONG_SIDE / max(image.shape[:2])
    image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return image, np.array(boxes, np.float32).reshape(-1, 4) * scale


def build_pools(racks: bool = True, racks3d: tuple[Path, ...] = ()) -> dict[str, list[Sample]]:
    """The training photos with their tiles' boxes, by pool.  ``racks3d`` names folders of racks rendered in 3-D
    (``scripts/render_racks_3d.py``): a pool of their own, each tile boxed by its seen face, as labelled (a tile
    under 60 % seen is not labelled, and is background here as in the rack pool)."""
    train, _ = split_photos(load_photos())
    real = [_load(photo.path, [box for _, box in photo.tiles]) for photo in train]
    real += [_load(path, []) for path in backgrounds()]
    synthetic = [_load(path, [box for _, box, _ in tiles]) for path, tiles in synthetic_scenes()]
    rack_photos = [_load(path, [box for _, box, _ in tiles]) for path, tiles in synthetic_scenes(RACKS_DIR)] if racks and (
        RACKS_DIR / "labels.csv").exists() else []
    built = [_load(path, [box for _, box, _ in tiles]) for directory in racks3d for path, tiles in racks_3d_scenes(directory)]
    return {"real": real, "synthetic": synthetic, "racks": rack_photos, "racks3d": built}


def _patch(sample: Sample, rng: random.Random) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A PATCH×PATCH patch, its target maps (heat, size+offset+weight) at stride 4 and an ignore mask."""
    image, boxes = sample
    long_side = DETECT_LONG_SIDE * math.exp(rng.uniform(-0.35, 0.35))
    scale = long_side / BASE_LONG_SIDE
    image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    boxes = boxes * scale
    h, w = image.shape[:2]
    x0 = rng.randint(min(0, w - PATCH), max(0, w - PATCH))
    y0 = rng.randint(min(0, h - PATCH), max(0, h - PATCH))
    matrix = np.float32([[1, 0, -x0], [0, 1, -y0]])
    patch = cv2.warpAffine(image, matrix, (PATCH, PATCH), borderMode=cv2.BORDER_CONSTANT, borderValue=(128, 128, 128))
    boxes = boxes - np.float32([x0, y0, x0, y0])
    turns = rng.randrange(4)
    patch = np.rot90(patch, turns).copy()
    for _ in range(turns):  # rot90 turns counter-clockwise: (x, y) → (y, PATCH - x)
        boxes = np.stack([boxes[:, 1], PATCH - boxes[:, 2], boxes[:, 3], PATCH - boxes[:, 0]], 1) if len(boxes) else boxes
    if rng.random() < 0.5:
        patch = patch[:, ::-1].copy()
        boxes = np.stack([PATCH - boxes[:, 2], boxes[:, 1], PATCH - boxes[:, 0], boxes[:, 3]], 1) if len(boxes) else boxes
    size = PATCH // STRIDE
    heat = np.zeros((size, size), np.float32)
    regress = np.zeros((5, size, size), np.float32)  # log w, log h, dx, dy (cells), weight
    ignore = np.zeros((size, size), np.float32)
    for x1, y1, x2, y2 in boxes:
        area = (x2 - x1) * (y2 - y1)
        cx1, cy1, cx2, cy2 = max(x1, 0), max(y1, 0), min(x2, PATCH), min(y2, PATCH)
        if cx2 <= cx1 or cy2 <= cy1:
            continue
        visible = (cx2 - cx1) * (cy2 - cy1) / area
        if visible < 0.55:
            ignore[int(cy1 / STRIDE) : int(math.ceil(cy2 / STRIDE)), int(cx1 / STRIDE) : int(math.ceil(cx2 / STRIDE))] = 1
            continue
        bw, bh = (cx2 - cx1) / STRIDE, (cy2 - cy1) / STRIDE
        cx, cy = (cx1 + cx2) / 2 / STRIDE, (cy1 + cy2) / 2 / STRIDE
        sigma = max(0.5, min(bw, bh) / 6)
        ix, iy = min(int(cx), size - 1), min(int(cy), size - 1)
        ys, xs = np.mgrid[0:size, 0:size].astype(np.float32)
        heat = np.maximum(heat, np.exp(-((xs + 0.5 - cx) ** 2 + (ys + 0.5 - cy) ** 2) / (2 * sigma**2)))
        heat[iy, ix] = 1.0
        regress[:, iy, ix] = (math.log(bw), math.log(bh), cx - ix, cy - iy, 1.0)
    ignore[heat > 0.99] = 0
    return _photometric(patch, rng), np.concatenate([heat[None], regress]), ignore


def _photometric(patch: np.ndarray, rng: random.Random) -> np.ndarray:
    image = patch.astype(np.float32)
    image = (image - 128) * rng.uniform(0.7, 1.3) + 128 + rng.uniform(-40, 30)
    image *= np.array([rng.uniform(0.9, 1.1) for _ in range(3)], np.float32)
    if rng.random() < 0.3:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.5))
    if rng.random() < 0.5:
        image += np.random.default_rng(rng.randrange(2**32)).normal(0, rng.uniform(1, 10), image.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)


def batch(pools: dict[str, list[Sample]], rng: random.Random, size: int,
          share3d: float = 0.0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``size`` patches: 45 % real photos, 15 % older synthetic scenes, 40 % racks (60 % and 40 % without racks);
    ``share3d`` of the batch from the 3-D racks' pool where there is one, taken out of the racks' share."""
    patches, targets, ignores = [], [], []
    racks_end = 1.0 - (share3d if pools.get("racks3d") else 0.0)
    for _ in range(size):
        roll = rng.random()
        if pools["racks"]:
            source = "real" if roll < 0.45 else "synthetic" if roll < 0.6 else "racks" if roll < racks_end else "racks3d"
        else:
            source = "real" if roll < 0.6 else "synthetic"
        sample = rng.choice(pools[source])
        patch, target, ignore = _patch(sample, rng)
        patches.append(patch)
        targets.append(target)
        ignores.append(ignore)
    return torch.from_numpy(normalise(np.stack(patches))), torch.from_numpy(np.stack(targets)), torch.from_numpy(np.stack(ignores))


def loss_of(model: Detector, x: torch.Tensor, target: torch.Tensor, ignore: torch.Tensor) -> torch.Tensor:
    """CenterNet's focal loss on the heatmap plus L1 on size and offset at the centre cells."""
    heat, size, offset = model(x)
    heat = heat[:, 0].clamp(1e-4, 1 - 1e-4)
    gt = target[:, 0]
    positive = (gt >= 1.0).float()
    keep = 1 - ignore
    pos_loss = -(torch.log(heat) * (1 - heat) ** 2 * positive).sum()
    neg_loss = -(torch.log(1 - heat) * heat**2 * (1 - gt) ** 4 * (1 - positive) * keep).sum()
    count = positive.sum().clamp(min=1)
    weight = target[:, 5:6]
    size_loss = (torch.abs(size - target[:, 1:3]) * weight).sum() / count
    offset_loss = (torch.abs(offset - target[:, 3:5]) * weight).sum() / count
    return (pos_loss + neg_loss) / count + size_loss + offset_loss


def main() -> None:
    parser = argparse.ArgumentParser(description="train the tile detector")
    parser.add_argument("--steps", type=int, default=3500)
    parser.add_argument("--batch", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--checkpoint", default=str(CACHE / "detector.pt"))
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--from-onnx", type=Path, help="fine-tune: start from these ONNX weights (e.g. models/detector.onnx), norms frozen")
    parser.add_argument("--no-racks", action="store_true", help="leave out the rack pool (scripts/render_racks.py)")
    parser.add_argument("--racks3d", type=Path, nargs="+", default=[],
                        help="also learn from racks rendered in 3-D (scripts/render_racks_3d.py), these folders")
    parser.add_argument("--share3d", type=float, default=0.15, help="share of each batch drawn from --racks3d (default 0.15)")
    add_photos_argument(parser)
    args = parser.parse_args()
    if args.racks3d and args.no_racks:
        parser.error("--racks3d takes its share of the batch from the rack pool: leave out --no-racks")
    if not 0 < args.share3d < 0.4:
        parser.error(f"--share3d {args.share3d}: give a share between 0 and 0.4 (it comes out of the racks' 0.4)")
    use_photos(args.photos)
    setup(args.seed, args.threads)
    started = time.time()
    pools = build_pools(racks=not args.no_racks, racks3d=tuple(args.racks3d))
    print({k: len(v) for k, v in pools.items()}, f"pools built in {time.time() - started:.0f}s", flush=True)
    model = Detector()
    if args.from_onnx:
        init_from_onnx(model, args.from_onnx, torch.zeros(1, 3, 64, 64))
    train(
        model,
        batch=lambda rng: batch(pools, rng, args.batch, args.share3d),
        loss_of=loss_of,
        steps=args.steps,
        seed=args.seed,
        peak_lr=args.lr,
        checkpoint=Path(args.checkpoint),
        log_every=25,
        save_every=100,
        frozen_norms=args.from_onnx is not None,
    )


if __name__ == "__main__":
    main()
