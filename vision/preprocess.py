"""Pure pre-processing: the detector's input tensor and the classifier's tile crops.

The training scripts import these same functions, so a model sees at run time exactly what it saw
while learning.

>>> image = np.zeros((750, 1000, 3), np.uint8)
>>> tensor, scale = detector_input(image)
>>> tensor.shape, scale
((1, 3, 384, 512), 0.512)
>>> tile_crops(image, np.array([[10, 10, 60, 80]], np.float32)).shape
(1, 3, 48, 48)
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["DETECT_LONG_SIDE", "STRIDE", "CROP_SIZE", "CROP_MARGIN", "normalise", "detector_input", "tile_crops"]

DETECT_LONG_SIDE = 512
STRIDE = 4
CROP_SIZE = 48
CROP_MARGIN = 1.15
_PAD_TO = 32


def normalise(bgr: np.ndarray) -> np.ndarray:
    """HxWx3 BGR ``uint8`` (or a batch NxHxWx3) → channels-first RGB ``float32`` centred on zero."""
    rgb = bgr[..., ::-1].astype(np.float32)
    return np.ascontiguousarray(np.moveaxis((rgb - 128.0) / 64.0, -1, -3))


def detector_input(image: np.ndarray, long_side: int = DETECT_LONG_SIDE) -> tuple[np.ndarray, float]:
    """Resize so the long side is ``long_side``, pad right/bottom to a multiple of 32; returns (1x3xHxW, scale)."""
    height, width = image.shape[:2]
    scale = long_side / max(height, width)
    new_w, new_h = max(1, round(width * scale)), max(1, round(height * scale))
    resized = cv2.resize(image, (new_w, new_h), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    pad_h, pad_w = -new_h % _PAD_TO, -new_w % _PAD_TO
    padded = cv2.copyMakeBorder(resized, 0, pad_h, 0, pad_w, cv2.BORDER_CONSTANT, value=(128, 128, 128))
    return normalise(padded)[None], scale


def square_crop(image: np.ndarray, box: np.ndarray, size: int = CROP_SIZE, margin: float = CROP_MARGIN) -> np.ndarray:
    """A ``size``×``size`` BGR crop centred on ``box`` (x1, y1, x2, y2) whose side is the box's long side × margin."""
    x1, y1, x2, y2 = (float(v) for v in box)
    side = max(x2 - x1, y2 - y1, 1.0) * margin
    factor = size / side
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    if factor < 0.5:
        # Shrink the neighbourhood by averaging first, so thin strokes survive: a warp alone samples.
        left, top = max(0, int(cx - side)), max(0, int(cy - side))
        region = image[top : int(cy + side) + 1, left : int(cx + side) + 1]
        small = cv2.resize(region, None, fx=factor * 2, fy=factor * 2, interpolation=cv2.INTER_AREA)
        matrix = np.array([[0.5, 0, size / 2 - (cx - left) * factor], [0, 0.5, size / 2 - (cy - top) * factor]], np.float32)
        return cv2.warpAffine(small, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    matrix = np.array([[factor, 0, size / 2 - cx * factor], [0, factor, size / 2 - cy * factor]], np.float32)
    interpolation = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(image, matrix, (size, size), flags=interpolation, borderMode=cv2.BORDER_REPLICATE)


def tile_crops(image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The classifier's input for each box: Nx3x48x48 ``float32``."""
    if len(boxes) == 0:
        return np.zeros((0, 3, CROP_SIZE, CROP_SIZE), np.float32)
    return normalise(np.stack([square_crop(image, box) for box in boxes]))
