"""The rack as a prior: tiles standing in a row share their height, width and baseline.

On a rack (ıstaka) the detector's boxes can go wrong in two ways that the row structure shows up:
one tile found as two boxes (its number and its symbol, stacked), or a box straddling two touching
neighbours that are also found.  :func:`apply_rack_prior` finds the rows, then

- merges two boxes stacked in one tile's place whose heights add up to about the row's tile height;
- drops a box that lies across two neighbours of its row that were found themselves, where the
  detector is no surer of it than of either;
- stretches a box much shorter than its row's tiles to the row's top and bottom (a tile whose foot
  or number was missed), so the classifier reads the whole tile.

:func:`row_gaps` gives the places where a row seems to miss a tile the detector did not find at all
(between two found tiles, or past a row's end), for the recogniser to look at.

Only boxes change, never what a tile is read as: the classifier reads the corrected boxes.  Rows are
looked for only when most boxes lie side by side along a direction within 20° of the photo's width
(:func:`rows_slope`); a rack turned further, loose tiles and tables are left as they are.  (A rack turned
about a quarter was fixed too, with its axes swapped, until the thirty-first round; more tiles were read
right without it: models/HISTORY.md.)

>>> boxes = np.array([[0, 0, 10, 14], [10, 0, 20, 7], [10, 7, 20, 14], [20, 0, 30, 14], [30, 0, 40, 14]], np.float32)
>>> fixed, scores = apply_rack_prior(boxes, np.array([0.9, 0.8, 0.7, 0.9, 0.9], np.float32))
>>> fixed.tolist()
[[0.0, 0.0, 10.0, 14.0], [10.0, 0.0, 20.0, 14.0], [20.0, 0.0, 30.0, 14.0], [30.0, 0.0, 40.0, 14.0]]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["find_rows", "rows_slope", "apply_rack_prior", "row_gaps", "merge_rows", "overlap_length", "inside_share", "MIN_ROW", "GAP_MOST"]

MIN_ROW = 4
"""A row needs this many boxes before its shape is trusted."""
_MAX_TILT = math.radians(20)
GAP_MOST = 3
"""At most this many tiles missing in a row between two found ones are looked for (:func:`row_gaps`)."""
# Two tiles of a row lie a whole number of tile widths apart, give or take this share of a width.
_WHOLE_TILES = 0.3
# Tiles of one row: centres this share of the tile's height apart across the row, at most.
_SAME_ROW = 0.3
# Two tiles of one row lie side by side: across the row within a quarter of a tile's height of each other,
# along it 0.3 to 1.6 tiles' width apart.
_SIDE_ACROSS = 0.25
_SIDE_ALONG = (0.3, 1.6)


def rows_slope(boxes: np.ndarray) -> float | None:
    """The slope of a photo's rows (radians, about −π/4…π/4): the turn, tried every half degree, at which
    most pairs of tiles lie side by side (``_SIDE_ACROSS``, ``_SIDE_ALONG``), then the mean direction of
    those pairs; None with fewer than three boxes.  (The direction from each box to its nearest neighbour,
    taken before the thirty-first round, ran along the other tier now and then where a tilted rack's tiers
    stand close: the rows came out turned by half their slope or more.)  The number reader's frames take the rows'
    direction another way (``vision.numerals.tile_frames``): they serve racks turned any way, whose upright boxes
    are far wider than their tiles, so "side by side" measured in box widths, as here, does not hold there.

    Two tiers of six tiles, 15 wide and 16 tall, each row falling 3 for every 15 along (−11°), the lower
    tier 14 below and 4 right of the upper: each tile's nearest neighbour is the one below or above it.

    >>> centres = np.array([[15 * k + 4 * tier, -3 * k + 14 * tier] for tier in (0, 1) for k in range(6)], np.float64)
    >>> boxes = np.concatenate([centres - (7.5, 8), centres + (7.5, 8)], 1)
    >>> round(math.degrees(rows_slope(boxes) or 0.0))
    -11
    """
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    if len(boxes) < 3:
        return None
    centres = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], 1)
    width, height = float(np.median(boxes[:, 2] - boxes[:, 0])), float(np.median(boxes[:, 3] - boxes[:, 1]))
    steps = (centres[None] - centres[:, None]).reshape(-1, 2)
    turns = np.radians(np.arange(-45.0, 45.01, 0.5))
    along = np.cos(turns)[:, None] * steps[:, 0] + np.sin(turns)[:, None] * steps[:, 1]
    across = -np.sin(turns)[:, None] * steps[:, 0] + np.cos(turns)[:, None] * steps[:, 1]
    side = (np.abs(across) < _SIDE_ACROSS * height) & (along > _SIDE_ALONG[0] * width) \
        & (along < _SIDE_ALONG[1] * width)
    counts = side.sum(1)
    most = np.flatnonzero(counts == counts.max())
    best = int(most[np.argmin(np.abs(turns[most]))])  # a tie goes to the straighter turn
    pairs = steps[side[best]]
    return float(np.arctan2(pairs[:, 1], pairs[:, 0]).mean()) if len(pairs) else float(turns[best])


def find_rows(boxes: np.ndarray) -> list[list[int]]:
    """Rows of boxes (indices, left to right) for horizontal rows: centres within 0.4 of the median height."""
    if len(boxes) == 0:
        return []
    cy = (boxes[:, 1] + boxes[:, 3]) / 2
    cx = (boxes[:, 0] + boxes[:, 2]) / 2
    tolerance = 0.4 * float(np.median(boxes[:, 3] - boxes[:, 1]))
    rows: list[list[int]] = []
    means: list[float] = []
    for index in np.argsort(cy, kind="stable"):
        if rows and abs(cy[index] - means[-1]) <= tolerance:
            rows[-1].append(int(index))
            means[-1] = float(np.mean(cy[rows[-1]]))
        else:
            rows.append([int(index)])
            means.append(float(cy[index]))
    return [sorted(row, key=lambda i: (cx[i], i)) for row in rows]


def inside_share(box: np.ndarray, other: np.ndarray) -> float:
    """The share of ``box``'s area that lies inside ``other``."""
    ix = max(0.0, min(box[2], other[2]) - max(box[0], other[0]))
    iy = max(0.0, min(box[3], other[3]) - max(box[1], other[1]))
    return float(ix * iy / max((box[2] - box[0]) * (box[3] - box[1]), 1e-9))


def _fix_horizontal(boxes: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    boxes = boxes.copy()
    keep = np.ones(len(boxes), bool)
    heights = boxes[:, 3] - boxes[:, 1]
    # 1. Stacked halves: two boxes over one another, horizontally aligned, together about one tile tall.
    typical = float(np.median(heights))
    order = np.argsort(boxes[:, 1], kind="stable")
    for a_pos, a in enumerate(order):
        if not keep[a] or heights[a] > 0.75 * typical:
            continue
        for b in order[a_pos + 1 :]:
            if not keep[b] or b == a or heights[b] > 0.75 * typical:
                continue
            width = min(boxes[a, 2], boxes[b, 2]) - max(boxes[a, 0], boxes[b, 0])
            span = max(boxes[a, 2], boxes[b, 2]) - min(boxes[a, 0], boxes[b, 0])
            gap = boxes[b, 1] - boxes[a, 3]
            merged_h = max(boxes[a, 3], boxes[b, 3]) - min(boxes[a, 1], boxes[b, 1])
            if width > 0.6 * span and gap < 0.25 * typical and 0.7 * typical <= merged_h <= 1.3 * typical:
                boxes[a] = [min(boxes[a, 0], boxes[b, 0]), min(boxes[a, 1], boxes[b, 1]),
                            max(boxes[a, 2], boxes[b, 2]), max(boxes[a, 3], boxes[b, 3])]
                scores[a] = max(scores[a], scores[b])
                keep[b] = False
                break
    index = np.flatnonzero(keep)
    boxes, scores = boxes[index], scores[index]
    keep = np.ones(len(boxes), bool)
    for row in find_rows(boxes):
        if len(row) < MIN_ROW:
            continue
        row_boxes = boxes[row]
        heights = row_boxes[:, 3] - row_boxes[:, 1]
        widths = row_boxes[:, 2] - row_boxes[:, 0]
        height, width = float(np.median(heights)), float(np.median(widths))
        if np.std(heights) > 0.35 * height:  # not a rack row: tiles of many sizes
            continue
        # 2. A box across two found neighbours, the detector no surer of it than of either, is not a tile of its
        # own.  A box it is surer of stays: on a sloping or blurred rack the upright boxes of touching tiles overlap
        # their neighbours as much (without the score's say, 0.8 points of the check racks' tiles were lost, no
        # extra box saved).
        for pos in range(1, len(row) - 1):
            left, middle, right = row[pos - 1], row[pos], row[pos + 1]
            if (inside_share(boxes[middle], boxes[left]) >= 0.2 and inside_share(boxes[middle], boxes[right]) >= 0.2
                    and boxes[right, 0] - boxes[left, 2] < 0.35 * width
                    and scores[middle] <= min(scores[left], scores[right])):
                keep[middle] = False
        # 3. A box much shorter than its row's tiles: stretch it to the row's top and bottom.
        top, bottom = float(np.median(row_boxes[:, 1])), float(np.median(row_boxes[:, 3]))
        for i in row:
            if keep[i] and boxes[i, 3] - boxes[i, 1] < 0.7 * height:
                boxes[i, 1], boxes[i, 3] = min(boxes[i, 1], top), max(boxes[i, 3], bottom)
    index = np.flatnonzero(keep)
    return boxes[index], scores[index]


def apply_rack_prior(boxes: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boxes and scores after the row checks above; unchanged when the boxes do not line up in rows."""
    angle = rows_slope(boxes)
    if angle is None or len(boxes) < MIN_ROW or abs(angle) > _MAX_TILT:
        return boxes, scores
    return _fix_horizontal(boxes.astype(np.float32), scores.astype(np.float32))  # astype copies: the caller's stay


def row_gaps(boxes: np.ndarray, frames: np.ndarray, most: int = GAP_MOST, ends: bool = True) -> np.ndarray:
    """Boxes where a row seems to miss tiles the detector did not find: between two boxes of one row
    (``frames`` from ``vision.numerals.tile_frames``: finite width) that lie 2 to ``most`` + 1 tile
    widths apart along the row, a whole number of widths, with no other box between them, one box per
    missing tile, spaced evenly between the two (perspective shrinks tiles along a tilted row, and the
    two boxes carry it); with ``ends``, also one box beyond each end of a row, a step further on from
    its neighbour (or a tile's width).  A box left out of the rows (its neighbours missed too) counts
    as a row's tile when it is their size.  A gap left between groups on the rack, or the empty rack
    past a row's end, is proposed too: the proposals are places to look, and the classifier decides
    whether a tile stands there.  K×4 ``float32``, possibly outside the photo.

    >>> boxes = np.array([[0, 0, 10, 14], [10, 0, 20, 14], [20, 0, 30, 14], [50, 0, 60, 14]], np.float32)
    >>> frames = np.array([[5, 7, 0, 10, 14], [15, 7, 0, 10, 14], [25, 7, 0, 10, 14], [55, 7, 0, 10, 14]], np.float32)
    >>> row_gaps(boxes, frames, ends=False).tolist()
    [[30.0, 0.0, 40.0, 14.0], [40.0, 0.0, 50.0, 14.0]]
    >>> row_gaps(boxes, frames).tolist()[2:]
    [[-10.0, 0.0, 0.0, 14.0], [60.0, 0.0, 70.0, 14.0]]
    """
    found: list[np.ndarray] = []
    in_row = np.flatnonzero(np.isfinite(frames[:, 3]))
    if len(in_row) < 2:
        return np.zeros((0, 4), np.float32)
    angle = float(frames[in_row[0], 2])
    along = np.array([math.cos(angle), math.sin(angle)], np.float32)
    across = np.array([-along[1], along[0]], np.float32)
    centres = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], 1)
    # A box left out of the rows (its neighbours were missed too) is a row mate when it is the size of
    # the rows' tiles; its width and height are theirs, scaled by its size.
    short = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    typical = float(np.median(short[in_row]))
    scale = short / max(typical, 1e-9)
    widths = np.where(np.isfinite(frames[:, 3]), frames[:, 3], float(np.median(frames[in_row, 3])) * scale)
    heights = np.where(np.isfinite(frames[:, 4]), frames[:, 4], float(np.median(frames[in_row, 4])) * scale)
    row_mates = np.isfinite(frames[:, 3]) | ((scale >= 0.75) & (scale <= 1.33))
    ends_found: list[np.ndarray] = []
    for i in np.flatnonzero(row_mates):
        offsets = centres - centres[i]
        ahead, aside = offsets @ along, np.abs(offsets @ across)
        width, height = float(widths[i]), float(heights[i])
        same_row = aside < _SAME_ROW * height
        forward = np.flatnonzero(same_row & (ahead > 0.5 * width) & row_mates)
        for way in (1, -1) if ends else ():
            # At a row's end (nothing further on this way): one more place beyond it, as far on as its
            # neighbour behind it lies (a tile's width where that one is further off).
            along_way = way * ahead
            behind = np.flatnonzero(same_row & (along_way < -0.5 * width) & row_mates)
            if not len(behind) or np.any(same_row & (along_way > 0.5 * width)):
                continue
            k = behind[np.argmax(along_way[behind])]
            adjacent = abs(-along_way[k] / ((width + float(widths[k])) / 2) - 1) <= _WHOLE_TILES
            ends_found.append(boxes[i] + np.tile(centres[i] - centres[k] if adjacent else way * width * along, 2))
        if not len(forward):
            continue
        j = forward[np.argmin(ahead[forward])]
        step = (width + float(widths[j])) / 2
        tiles = ahead[j] / step
        missing = int(round(tiles)) - 1
        if not 1 <= missing <= most or abs(tiles - (missing + 1)) > _WHOLE_TILES:
            continue
        # Nothing else (a loose tile, a box of the other tier leaning in) between the two.
        between = (ahead > 0.5 * step) & (ahead < ahead[j] - 0.5 * step) & (aside < 0.5 * height)
        if between.any():
            continue
        for m in range(1, missing + 1):
            found.append(boxes[i] + (boxes[j] - boxes[i]) * (m / (missing + 1)))
    return np.array(found + ends_found, np.float32).reshape(-1, 4)


def merge_rows(first: list[list[str]], second: list[list[str]]) -> list[list[str]]:
    """Two photos of one rack (left half, then right half) → its rows: row by row, the second photo's
    row goes on from the first's, and the longest end of the first row that the second row starts with
    (tiles both photos show) counts once.  The photo page does the same in ``app.js`` (``mergeRows``).

    >>> merge_rows([["R1", "R2", "R3"], ["K5", "K6"]], [["R3", "R4"], ["K6", "K7", "K8"]])
    [['R1', 'R2', 'R3', 'R4'], ['K5', 'K6', 'K7', 'K8']]
    """
    merged = []
    for index in range(max(len(first), len(second))):
        a = first[index] if index < len(first) else []
        b = second[index] if index < len(second) else []
        merged.append(a + b[overlap_length(a, b) :])
    return merged


def overlap_length(first: Sequence[str], second: Sequence[str]) -> int:
    """The length of the longest end of ``first`` that ``second`` starts with.

    >>> overlap_length(["R1", "R2", "R3"], ["R2", "R3", "R4"])
    2
    """
    k = min(len(first), len(second))
    while k and list(first[len(first) - k :]) != list(second[:k]):
        k -= 1
    return k
