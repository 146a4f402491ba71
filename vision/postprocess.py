"""Pure post-processing: heatmap peaks → boxes, overlap suppression, reading order, class decoding.

>>> heat = np.zeros((1, 1, 8, 8), np.float32); heat[0, 0, 2, 3] = 0.9
>>> size = np.full((1, 2, 8, 8), np.log(2.0), np.float32); offset = np.full((1, 2, 8, 8), 0.5, np.float32)
>>> boxes, scores = decode_detections(heat, size, offset, scale=1.0, threshold=0.5)
>>> boxes.tolist(), [round(float(s), 2) for s in scores]
([[10.0, 6.0, 18.0, 14.0]], [0.9])
>>> reading_order(np.array([[50, 0, 60, 10], [0, 2, 10, 12], [0, 40, 10, 50]], np.float32)).tolist()
[1, 0, 2]
>>> decode_tile(np.eye(16, dtype=np.float32)[6], np.array([0.05, 0.9, 0.03, 0.02], np.float32))
('Y7', 0.9)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.preprocess import STRIDE

__all__ = ["KINDS", "COLOURS", "decode_detections", "suppress_overlaps", "reading_order", "decode_tile", "box_iou"]

KINDS = tuple(str(n) for n in range(1, 14)) + ("F", "J", "none")
COLOURS = ("R", "Y", "B", "K")


def decode_detections(heatmap: np.ndarray, size: np.ndarray, offset: np.ndarray, scale: float,
                      threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """Local maxima of the centre heatmap above ``threshold`` → boxes (x1, y1, x2, y2) in original pixels, scores."""
    heat = heatmap[0, 0]
    peaks = (heat >= threshold) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    scores = heat[ys, xs]
    cx = (xs + offset[0, 0, ys, xs]) * STRIDE
    cy = (ys + offset[0, 1, ys, xs]) * STRIDE
    w = np.exp(size[0, 0, ys, xs]) * STRIDE
    h = np.exp(size[0, 1, ys, xs]) * STRIDE
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1) / scale
    order = np.argsort(-scores, kind="stable")
    return boxes[order].astype(np.float32), scores[order].astype(np.float32)


def box_iou(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Intersection over union of one box with each of ``boxes``."""
    ix = np.clip(np.minimum(box[2], boxes[:, 2]) - np.maximum(box[0], boxes[:, 0]), 0, None)
    iy = np.clip(np.minimum(box[3], boxes[:, 3]) - np.maximum(box[1], boxes[:, 1]), 0, None)
    inter = ix * iy
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    union = (box[2] - box[0]) * (box[3] - box[1]) + areas - inter
    return np.asarray(inter / (union + 1e-9), np.float32)


def suppress_overlaps(boxes: np.ndarray, scores: np.ndarray, iou: float = 0.5, inside: float = 0.8) -> np.ndarray:
    """Indices kept by greedy suppression in descending score order.

    A box goes when it overlaps a kept box by ``iou`` or more, when ``inside`` of its area lies within
    a kept box, or when its centre falls in a kept box's central half: a tile's face, its symbol or
    a second peak on a large tile are not tiles of their own.
    """
    keep: list[int] = []
    for index in np.argsort(-scores, kind="stable"):
        box = boxes[index]
        if keep:
            kept = boxes[keep]
            ix = np.clip(np.minimum(box[2], kept[:, 2]) - np.maximum(box[0], kept[:, 0]), 0, None)
            iy = np.clip(np.minimum(box[3], kept[:, 3]) - np.maximum(box[1], kept[:, 1]), 0, None)
            own_area = max(float((box[2] - box[0]) * (box[3] - box[1])), 1e-9)
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            central = (np.abs(cx - (kept[:, 0] + kept[:, 2]) / 2) < (kept[:, 2] - kept[:, 0]) / 4) & (
                np.abs(cy - (kept[:, 1] + kept[:, 3]) / 2) < (kept[:, 3] - kept[:, 1]) / 4)
            if box_iou(box, kept).max() >= iou or (ix * iy / own_area).max() >= inside or central.any():
                continue
        keep.append(int(index))
    return np.array(keep, np.int64)


def reading_order(boxes: np.ndarray, angle: float = 0.0) -> np.ndarray:
    """Indices in reading order: rows top to bottom (a row holds centres within half a tile height of its first), left
    to right.  ``angle`` (radians): the rows' direction, where a rack photographed from a seat runs aslant; the rows are
    then told apart across it and read along it, so a tier's last tile and the next tier's first keep their places.

    >>> aslant = np.array([[0, 0, 10, 10], [10, 2, 20, 12], [20, 4, 30, 14], [30, 6, 40, 16], [0, 10, 10, 20]], np.float32)
    >>> reading_order(aslant).tolist()                       # the second tier's first tile read among the first's
    [0, 1, 2, 4, 3]
    >>> reading_order(aslant, float(np.arctan2(2, 10))).tolist()
    [0, 1, 2, 3, 4]
    """
    if len(boxes) == 0:
        return np.zeros(0, np.int64)
    cx = (boxes[:, 0] + boxes[:, 2]) / 2
    cy = (boxes[:, 1] + boxes[:, 3]) / 2
    along = cx * np.cos(angle) + cy * np.sin(angle)
    across = cy * np.cos(angle) - cx * np.sin(angle)
    tolerance = 0.5 * float(np.median(boxes[:, 3] - boxes[:, 1]))
    rows: list[list[int]] = []
    row_top = -np.inf
    for index in np.argsort(across, kind="stable"):
        if across[index] - row_top > tolerance:
            rows.append([])
            row_top = across[index]
        rows[-1].append(int(index))
    return np.array([i for row in rows for i in sorted(row, key=lambda j: (along[j], j))], np.int64)


def decode_tile(kind: np.ndarray, colour: np.ndarray) -> tuple[str, float]:
    """The classifier's probabilities for one crop → (tile notation, confidence); "none" is left out."""
    tile_kinds = kind[: KINDS.index("none")]
    best = int(np.argmax(tile_kinds))
    kind_p = float(tile_kinds[best] / max(float(tile_kinds.sum()), 1e-9))
    if KINDS[best] in ("F", "J"):
        return KINDS[best], round(kind_p, 4)
    shade = int(np.argmax(colour))
    return COLOURS[shade] + KINDS[best], round(kind_p * float(colour[shade]), 4)
