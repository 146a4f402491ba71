"""Two photos of one rack: which tiles of the second photo the first already shows.

A 101 rack of 22 tiles is too wide for one photo, so it is taken in two: its left part, then its right
part.  The tiles both photos show must count once.  Matching the two photos' codes in order (the end of
one row against the start of the other) works for a straight front view, but a photo taken from the
seat is tilted: its rows slope and bend, loose tiles join them, and a tile the frame cuts reads as
another (what is left of an 11 is a 1).

So the tiles themselves are the landmarks.  A guess lays the second photo over the first:

- through one tile read alike in both (a similarity: the scale from the tile's height, the turn from
  the rows' slopes), or through a tile the seam cuts in one photo and a whole tile of its colour in the
  other (the corners on no edge of the frame are the tile's own: the left side of a tile the first photo's
  right edge cuts, the bottom of one the top edge cuts), or through a tile the seam cuts in both, read
  the same (the first shows its left side, the second its right);
- through two tiles read alike (a homography through their box corners).

Each guess is then refitted, a homography through the corners of the tiles it lays near a tile read
alike (of a tile the seam cuts, the corners of its uncut side), while that explains more.  Tiles read
alike: the same code, or, where the frame cuts one of them, the same colour and the cut one's number one
of the other's digits (a cut takes digits away).  A tile of one photo laid inside the other's frame must
land on a tile there (their boxes overlapping, cut to where the two frames overlap); landing on a tile
read otherwise where neither is cut, or on no tile, is a conflict.  A guess holds with a conflict for
every three tiles read alike at most (one tile alike is enough only with the second photo to the right
of the first); of those that hold, the one with most tiles read alike less conflicts wins.  Its links:
every tile landing on one read alike, a whole tile on a whole tile read otherwise (one of them misread),
a cut tile on a tile of its colour.  Then each row of the second photo is laid over the first on its own
in the same way (so that misreads or a rough fit in one row do not hold the other back), and its links are
added where they agree with those found; where they disagree, the row's own guess stands if it explains
the row better (a tilted rack's upper tier is often laid a tile off by a guess through the lower).  When no
guess holds, nothing is linked, and :func:`add_photo` falls back to matching codes in order
(:func:`vision.rack.merge_rows`).

Only positions and codes are used, never pixels: a photo's tiles are all the second photo needs of the
first, so a phone can send them back with the second photo.

>>> first = [Seen("R1", (0, 0, 10, 14)), Seen("R2", (10, 0, 20, 14)), Seen("R3", (20, 0, 30, 14))]
>>> second = [Seen("R2", (0, 0, 10, 14)), Seen("R3", (10, 0, 20, 14)), Seen("R4", (20, 0, 30, 14))]
>>> same_tiles(first, (30, 20), second, (30, 20))
[1, 2, None]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import cv2
import numpy as np

from vision.rack import overlap_length, rows_slope
from vision.recognizer import CUT_WARNING

__all__ = ["Seen", "same_tiles", "CUT", "RackTile", "photo_rows", "add_photo", "rack_from_photos"]

CUT = CUT_WARNING
"""The warning a tile the photo's edge cuts carries."""
# A tile lands on another when its box, laid over the other photo, and the other's box overlap this much
# (intersection over union), both cut to where the two photos overlap.
_LANDS = 0.4
# A tile that lands on no tile counts against a guess when its centre lies this share of a tile's width
# inside the other photo's frame (so the whole tile is in it).
_INSIDE = 0.6
# The second photo is taken from the same seat: its tiles are 0.6-1.6 times as big, turned by at most 25°.
_SCALES = (0.6, 1.6)
_TURN = math.radians(25)
# A tile lying inside the other photo where that photo found no tile counts against a guess this much
# (the detector misses a tile now and then; a tile read otherwise counts as a whole conflict).
_EMPTY = 0.5
# A guess holds with conflicts up to this share of its tiles read alike (a misread in the overlap: one in
# three), or one tile landing on no tile.
_BUDGET = 0.34
# A guess is refitted this many times at most, while that explains more tiles, through the tiles it lays
# within this many tiles' width of a tile read alike.
_REFITS = 3
_NEAR = 0.8


class PhotoTile(Protocol):
    """What a tile of a photo must tell: its code, its box and its warnings (a recogniser's ``DetectedTile``)."""

    @property
    def tile(self) -> str: ...
    @property
    def box(self) -> Sequence[float]: ...
    @property
    def warnings(self) -> Sequence[str]: ...


@dataclass(frozen=True)
class Seen:
    """A tile as a photo showed it: its code, box (x1, y1, x2, y2) and warnings (``CUT`` if the frame cuts it)."""

    tile: str
    box: tuple[float, float, float, float]
    warnings: tuple[str, ...] = ()


def same_tiles(first: Sequence[PhotoTile], first_size: tuple[int, int], second: Sequence[PhotoTile],
               second_size: tuple[int, int]) -> list[int | None]:
    """For each tile of the second photo, the index of the same tile in the first photo, or None (a tile
    only the second shows, or no way found to lay the photos over each other).  Sizes are (width, height)."""
    if not first or not second:
        return [None] * len(second)
    one, two = _Photo(first, first_size), _Photo(second, second_size)
    whole = _best(one, two)
    links = dict(whole.links) if whole is not None else {}
    whole_taken = {i: j for j, i in links.items()}
    # Then each row of the second photo on its own: a guess for one row is not held back by the other
    # (misreads there, or a fit rough across both rows of a tilted photo; and a real rack's two tiers are
    # not quite one plane).  Where the row's own guess disagrees with the whole photo's, the one that
    # explains the row better stands.
    places = photo_rows([t.box for t in second])
    for number in sorted({row for row, _ in places}):
        members = [j for j, (row, _) in enumerate(places) if row == number]
        if all(j in links for j in members):
            continue
        row = _Photo([second[j] for j in members], second_size, band=two.angle)
        found = _best(one, row)
        if found is None or not found.links:
            continue
        row_links = {members[k]: i for k, i in found.links.items()}
        # It disagrees where it links a tile of the row elsewhere, or to a tile the whole photo's guess gave
        # to another tile of the row (a tile of another row keeps its link).
        if whole is not None and any(whole.links.get(j, i) != i or whole_taken.get(i, j) in set(members) - {j}
                                     for j, i in row_links.items()):
            if found.key <= _Judged(whole.matrix, one, row).key:
                continue  # the whole photo's guess explains this row as well
            for j in members:
                links.pop(j, None)
        used = set(links.values())
        for j, i in row_links.items():
            if j not in links and i not in used:
                links[j] = i
                used.add(i)
    return [links.get(j) for j in range(len(second))]


def _best(one: _Photo, two: _Photo) -> _Judged | None:
    """The best guess that holds, or None."""
    best: _Judged | None = None
    for matrix in _guesses(one, two):
        judged = _Judged(matrix, one, two)
        for _ in range(_REFITS):
            # A guess through one or two tiles is rough on a tilted rack: a homography through the corners
            # of the whole tiles it lays near a tile read alike, kept while that explains more.
            refit = _fit(_near_alike(judged.matrix, one, two), one, two)
            if refit is None:
                break
            better = _Judged(refit, one, two)
            if better.worth <= judged.worth:
                break
            judged = better
        if judged.holds(one, two) and (best is None or judged.key > best.key):
            best = judged
    return best


class _Judged:
    """A way to lay the second photo over the first, scored both ways: its links, the tiles read alike,
    the conflicts, and its worth (tiles read alike less conflicts)."""

    def __init__(self, matrix: np.ndarray, one: _Photo, two: _Photo) -> None:
        self.matrix = matrix
        self.links, self.alike, conflicts = _score(matrix, one, two)
        _, _, back = _score(np.linalg.inv(matrix), two, one, misreads=False)
        self.conflicts = conflicts + back
        self.worth = self.alike - self.conflicts
        self.key = (self.worth, self.alike)

    def holds(self, one: _Photo, two: _Photo) -> bool:
        """Some tile read alike, no more conflicts than ``_BUDGET`` allows, and, resting on one tile alone,
        the second photo to the right of the first (as the page asks: the left half, then the right)."""
        if not self.alike or self.conflicts > max(_EMPTY, _BUDGET * self.alike):
            return False
        return self.alike > 1 or _right_of(self.matrix, one, two)


def _near_alike(matrix: np.ndarray, one: _Photo, two: _Photo) -> list[tuple[int, int]]:
    """Tiles of the second photo that ``matrix`` lays near (within ``_NEAR`` tiles' width) a tile of the
    first read alike: the nearest such for each, each tile of the first used once."""
    mapped = cv2.perspectiveTransform(two.centres[None].astype(np.float64), matrix)[0]
    distance = np.linalg.norm(mapped[:, None] - one.centres[None], axis=2) / max(one.tile_w, 1e-9)
    candidates = sorted((float(distance[j, i]), j, i) for j in range(len(two.codes)) for i in range(len(one.codes))
                        if distance[j, i] < _NEAR and _alike(two.codes[j], two.cut[j], one.codes[i], one.cut[i]))
    pairs: list[tuple[int, int]] = []
    for _, j, i in candidates:
        if all(j != a and i != b for a, b in pairs):
            pairs.append((j, i))
    return pairs


def _right_of(matrix: np.ndarray, one: _Photo, two: _Photo) -> bool:
    """Whether the second photo's middle lies to the right of the first's, along the first's rows."""
    middle = cv2.perspectiveTransform(np.array([[[two.size[0] / 2, two.size[1] / 2]]], np.float64), matrix)[0, 0]
    along = np.array([math.cos(one.angle), math.sin(one.angle)])
    return float((middle - np.array(one.size, np.float64) / 2) @ along) > 0


class _Photo:
    """A photo's tiles as arrays; with ``band`` (the photo's row slope), one row of it alone."""

    def __init__(self, tiles: Sequence[PhotoTile], size: tuple[int, int], band: float | None = None) -> None:
        self.codes = [t.tile for t in tiles]
        self.cut = [CUT in t.warnings for t in tiles]
        self.boxes = np.array([[float(v) for v in t.box] for t in tiles], np.float64).reshape(-1, 4)
        self.centres = np.stack([(self.boxes[:, 0] + self.boxes[:, 2]) / 2, (self.boxes[:, 1] + self.boxes[:, 3]) / 2], 1)
        whole = [not c for c in self.cut] if not all(self.cut) else [True] * len(tiles)
        sizes = self.boxes[:, 2:] - self.boxes[:, :2]
        self.tile_w = float(np.median(sizes[whole, 0]))
        self.tile_h = float(np.median(sizes[whole, 1]))
        self.heights = sizes[:, 1]
        self.size = size
        angle = rows_slope(self.boxes)
        self.angle = (band if band is not None else 0.0) if angle is None else angle
        # One row of a photo: only what lies along it counts (a tile of another row lands on nothing here).
        self.band = None if band is None else (self.centres.mean(0), self.angle, 0.75 * self.tile_h)


def _matrix(scale: float, turn: float, source: np.ndarray, target: np.ndarray) -> np.ndarray:
    c, s = scale * math.cos(turn), scale * math.sin(turn)
    matrix = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    matrix[:2, 2] = target - matrix[:2, :2] @ source
    return matrix


def _plausible(matrix: np.ndarray, two: _Photo) -> bool:
    """Whether ``matrix`` scales and turns the second photo's middle as a second photo from the same seat
    would (its derivative there)."""
    x, y = two.size[0] / 2, two.size[1] / 2
    h = matrix / matrix[2, 2] if abs(matrix[2, 2]) > 1e-12 else matrix
    w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
    if w <= 1e-9:
        return False
    u, v = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w, (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
    jacobian = np.array([[h[0, 0] - u * h[2, 0], h[0, 1] - u * h[2, 1]], [h[1, 0] - v * h[2, 0], h[1, 1] - v * h[2, 1]]]) / w
    det = float(np.linalg.det(jacobian))
    if det <= 0:
        return False
    turn = math.atan2(jacobian[1, 0] - jacobian[0, 1], jacobian[0, 0] + jacobian[1, 1])
    return _SCALES[0] <= math.sqrt(det) <= _SCALES[1] and abs(turn) <= _TURN


def _guesses(one: _Photo, two: _Photo) -> list[np.ndarray]:
    """Ways to lay the second photo over the first: through every single tile read alike in both (a
    similarity: scale from the tiles' heights, turn from the rows' slopes), and through every two (a
    homography through their corners)."""
    pairs = [(j, i) for j in range(len(two.codes)) for i in range(len(one.codes))
             if two.codes[j] == one.codes[i] and not two.cut[j] and not one.cut[i]]
    guesses = []
    turn = _fold(one.angle - two.angle)
    for j, i in pairs:
        matrix = _matrix(one.heights[i] / max(two.heights[j], 1e-9), turn, two.centres[j], one.centres[i])
        if _plausible(matrix, two):
            guesses.append(matrix)
    # A tile the seam cuts, in one photo, against a whole tile of its colour in the other: the side the
    # frame does not cut is the tile's own edge.
    for j, i in itertools.product(range(len(two.codes)), range(len(one.codes))):
        if two.codes[j][0] != one.codes[i][0] or two.cut[j] == one.cut[i]:
            continue
        source, target = _corner_pairs(two, j, one, i)  # the uncut side's two corners
        if not len(source):
            continue
        matrix = _matrix(one.heights[i] / max(two.heights[j], 1e-9), turn, source.mean(0), target.mean(0))
        if _plausible(matrix, two):
            guesses.append(matrix)
    # A tile the seam cuts in both photos, read the same in both: the first shows its left side, the second
    # its right side; a tile's width apart.
    for j, i in itertools.product(range(len(two.codes)), range(len(one.codes))):
        if not (two.cut[j] and one.cut[i]) or two.codes[j] != one.codes[i]:
            continue
        if one.boxes[i, 2] < one.size[0] - one.tile_w / 2 or two.boxes[j, 0] > two.tile_w / 2:
            continue  # not at the seam: the first photo's right edge, the second's left
        source = np.array([two.boxes[j, 2] - two.tile_w / 2, (two.boxes[j, 1] + two.boxes[j, 3]) / 2])
        target = np.array([one.boxes[i, 0] + one.tile_w / 2, (one.boxes[i, 1] + one.boxes[i, 3]) / 2])
        matrix = _matrix(one.heights[i] / max(two.heights[j], 1e-9), turn, source, target)
        if _plausible(matrix, two):
            guesses.append(matrix)
    for (j1, i1), (j2, i2) in itertools.combinations(pairs, 2):
        if j1 != j2 and i1 != i2:
            fitted = _fit([(j1, i1), (j2, i2)], one, two)
            if fitted is not None:
                guesses.append(fitted)
    return guesses


def _fit(links: list[tuple[int, int]], one: _Photo, two: _Photo) -> np.ndarray | None:
    """The homography taking the corners of the second photo's tiles to those of their links in the
    first (least squares), if two tiles or more give it and it is a plausible view of the same rack.  Of
    a tile the seam cuts, only the corners of the side the frame does not cut are used."""
    pairs = [_corner_pairs(two, j, one, i) for j, i in links]
    if sum(len(source) > 0 for source, _ in pairs) < 2 or sum(len(source) for source, _ in pairs) < 4:
        return None
    source = np.concatenate([source for source, _ in pairs])
    target = np.concatenate([target for _, target in pairs])
    matrix, _ = cv2.findHomography(source, target, 0)
    if matrix is None or not _plausible(matrix, two):
        return None
    return matrix


def _corner_pairs(two: _Photo, j: int, one: _Photo, i: int) -> tuple[np.ndarray, np.ndarray]:
    """The corners of tile ``j`` of the second photo and of tile ``i`` of the first that both photos show
    as the tile's own: all four of a whole tile; of a tile the frame cuts, those off the edges it reaches
    (a cut tile that reaches no edge: none)."""
    sound = [True] * 4
    for photo, k in ((two, j), (one, i)):
        if photo.cut[k]:
            edges = _edges(photo.boxes[k], photo.size)
            if not any(edges):
                return np.zeros((0, 2)), np.zeros((0, 2))
            sound = [s and not any(edges[side] for side in _CORNER_SIDES[c]) for c, s in enumerate(sound)]
    keep = [c for c in range(4) if sound[c]]
    return _corners(two.boxes[j])[keep], _corners(one.boxes[i])[keep]


# The box sides (left, top, right, bottom) each corner lies on, corners clockwise from the top left.
_CORNER_SIDES = ((0, 1), (2, 1), (2, 3), (0, 3))


def _edges(box: np.ndarray, size: tuple[int, int]) -> tuple[bool, bool, bool, bool]:
    """Which of the photo's edges (left, top, right, bottom) ``box`` reaches: the frame cuts that side."""
    x, y = 0.01 * size[0] + 1, 0.01 * size[1] + 1
    return (bool(box[0] <= x), bool(box[1] <= y), bool(box[2] >= size[0] - x), bool(box[3] >= size[1] - y))


def _corners(box: np.ndarray) -> np.ndarray:
    x1, y1, x2, y2 = box
    return np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float64)


def _fold(angle: float) -> float:
    """An angle between two row directions, folded onto −π/2…π/2."""
    return (angle + math.pi / 2) % math.pi - math.pi / 2


def _clip_sides(boxes: np.ndarray, frame: np.ndarray) -> np.ndarray:
    """``boxes`` cut to the left and right sides of the quadrilateral ``frame`` (corners clockwise from the
    top left), each side taken at the box's middle height."""
    middle = (boxes[:, 1] + boxes[:, 3]) / 2
    left = _side_x(frame[0], frame[3], middle)
    right = _side_x(frame[1], frame[2], middle)
    out = boxes.copy()
    out[:, 0] = np.maximum(boxes[:, 0], left)
    out[:, 2] = np.minimum(boxes[:, 2], right)
    return out


def _side_x(top: np.ndarray, bottom: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Where the line through ``top`` and ``bottom`` crosses each height ``y``."""
    if abs(bottom[1] - top[1]) < 1e-9:
        return np.full(len(y), (top[0] + bottom[0]) / 2, np.float64)
    return np.asarray(top[0] + (y - top[1]) * (bottom[0] - top[0]) / (bottom[1] - top[1]), np.float64)


def _overlap(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """For each box and each of ``others``: their intersection over their union (0 for an empty box)."""
    x1 = np.maximum(boxes[:, None, 0], others[None, :, 0])
    y1 = np.maximum(boxes[:, None, 1], others[None, :, 1])
    x2 = np.minimum(boxes[:, None, 2], others[None, :, 2])
    y2 = np.minimum(boxes[:, None, 3], others[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    areas = np.clip(_areas(boxes), 0, None)[:, None] + np.clip(_areas(others), 0, None)[None]
    return np.asarray(inter / np.maximum(areas - inter, 1e-9), np.float64)


def _areas(boxes: np.ndarray) -> np.ndarray:
    return np.asarray((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]), np.float64)


def _on_band(photo: _Photo, x: float, y: float) -> bool:
    """Whether (x, y) lies along the row that ``photo`` is (within three quarters of a tile's height), or
    ``photo`` is a whole photo."""
    if photo.band is None:
        return True
    (cx, cy), angle, half = photo.band
    return bool(abs(-(x - cx) * math.sin(angle) + (y - cy) * math.cos(angle)) <= half)


def _alike(a: str, a_cut: bool, b: str, b_cut: bool) -> bool:
    """Two readings of one tile agree: the same code, or, where the frame cuts one of them, the same colour
    and the cut one's number one of the other's digits (what the frame leaves of a 12 reads 1 or 2: a cut
    takes digits away, never adds them).  Where it cuts both, the same colour is enough."""
    if a == b:
        return True
    if a[0] != b[0] or not (a_cut or b_cut):
        return False
    if a_cut and b_cut:
        return True
    short, long = (a[1:], b[1:]) if a_cut else (b[1:], a[1:])
    return bool(short) and len(short) < len(long) and short in long


def _score(matrix: np.ndarray, one: _Photo, two: _Photo, misreads: bool = True) -> tuple[dict[int, int], int, float]:
    """The second photo's tiles laid over the first by ``matrix``: the links (second → first index) of
    tiles landing on a tile, how many of those are read alike, and the conflicts: tiles landing on a
    tile read otherwise where neither is cut (1 each, if ``misreads``), and tiles well inside the first
    photo's frame landing on no tile (``_EMPTY`` each)."""
    corners = two.boxes[:, [0, 1, 2, 1, 2, 3, 0, 3]].reshape(1, -1, 2)
    mapped = cv2.perspectiveTransform(corners, matrix)[0].reshape(-1, 4, 2)
    low, high = mapped.min(1), mapped.max(1)
    width, height = one.size
    # Both photos see only where their frames overlap: a tile the seam cuts shows a different part in each,
    # so boxes are compared cut to the second frame's sides as laid over the first (at each box's height).
    frame = cv2.perspectiveTransform(np.array([[[0, 0], [two.size[0], 0], [two.size[0], two.size[1]], [0, two.size[1]]]], np.float64),
                                     matrix)[0]
    laid = np.concatenate([low, high], 1)
    laid[:, [0, 2]] = np.clip(laid[:, [0, 2]], 0.0, float(width))
    overlap = _overlap(laid, _clip_sides(one.boxes, frame))
    centres = (low + high) / 2
    margin = _INSIDE * one.tile_w
    links: dict[int, int] = {}
    alike, conflicts = 0, 0.0
    for j in np.argsort(-overlap.max(1)):
        x, y = centres[j]
        i = int(np.argmax(overlap[j]))
        if overlap[j, i] >= _LANDS and i not in links.values():
            cut = two.cut[j] or one.cut[i]
            if _alike(two.codes[j], two.cut[j], one.codes[i], one.cut[i]):
                links[int(j)] = i
                alike += 1
            elif cut and two.codes[j][0] == one.codes[i][0]:
                links[int(j)] = i  # a cut tile on a tile of its colour: itself, read short of a digit or two
            elif not cut:
                # Whole in both and read otherwise: one tile misread in one photo (linked, a conflict).
                links[int(j)] = i
                conflicts += misreads
            # A cut tile on a tile of another colour: more likely its neighbour; left unlinked.
        elif margin <= x <= width - margin and margin <= y <= height - margin and not two.cut[j] and _on_band(one, x, y):
            conflicts += _EMPTY
    return links, alike, conflicts


@dataclass(frozen=True)
class RackTile:
    """A tile of a rack put together from photos: its code, its row and place in the photo it came from
    (:func:`photo_rows`), whether the frame cut it there (its reading may have lost digits), whether the user picked its code (kept as
    picked), and ``seen``: its index in the last photo added, if that photo shows it."""

    code: str
    row: int = 0
    place: int = 0
    cut: bool = False
    fixed: bool = False
    seen: int | None = None


def photo_rows(boxes: Sequence[Sequence[float]]) -> list[tuple[int, int]]:
    """Each tile's row (top to bottom) and place in it (left to right) on a photo of a rack, along the
    rows' slope (a rack photographed from the seat is turned a little): a new row starts where a tile
    lies more than half a tile below the one above it."""
    if not boxes:
        return []
    array = np.array([[float(v) for v in box] for box in boxes], np.float64).reshape(-1, 4)
    angle = rows_slope(array) or 0.0
    if abs(angle) > math.radians(45):
        angle = 0.0  # no rows to speak of (tiles lying about): as they read
    centres = np.stack([(array[:, 0] + array[:, 2]) / 2, (array[:, 1] + array[:, 3]) / 2], 1)
    c, s = math.cos(angle), math.sin(angle)
    along, across = centres @ np.array([c, s]), centres @ np.array([-s, c])
    height = float(np.median(array[:, 3] - array[:, 1]))
    rows: list[list[int]] = []
    for index in np.argsort(across, kind="stable"):
        if rows and across[index] - across[rows[-1][-1]] <= height / 2:
            rows[-1].append(int(index))
        else:
            rows.append([int(index)])
    places: list[tuple[int, int]] = [(0, 0)] * len(array)
    for number, row in enumerate(rows):
        for place, index in enumerate(sorted(row, key=lambda i: (along[i], i))):
            places[index] = (number, place)
    return places


def add_photo(rack: list[list[RackTile]], photo: Sequence[RackTile],
              links: Sequence[int | None]) -> list[list[RackTile]]:
    """The rack so far (rows of tiles, the last photo's marked by ``seen``) with another photo's tiles
    added, in rack order.  ``links`` gives for each of the photo's tiles the last photo's tile it is
    (:func:`same_tiles`), or None.  The photo's app.js twin is ``addPhoto``.

    - A linked tile counts once.  Where the frame cut the rack's copy and not the photo's, the photo's
      reading is kept (a cut 11 reads as a 1); where it cut both, the longer reading (a cut takes digits
      away); a code the user picked is kept as picked.
    - A tile not linked goes into the rack row where most of its photo row's linked tiles are, next to
      them in the photo's order (after the last linked tile before it); a photo row with no linked tile
      goes on from the rack row of the same index, or starts a new row.
    - With no tile linked at all (the photos could not be laid over each other), each photo row goes on
      from the rack row of the same index, and the longest end of the rack row that the photo row starts
      with (codes read alike) counts once, as :func:`vision.rack.merge_rows` does.
    """
    out = [[replace(t, seen=None) for t in row] for row in rack]
    by_seen = {t.seen: (r, k) for r, row in enumerate(rack) for k, t in enumerate(row) if t.seen is not None}
    if not any(link is not None and link in by_seen for link in links):
        return _add_by_codes(out, photo)
    linked: dict[int, RackTile] = {}
    for j, link in enumerate(links):
        if link is None or link not in by_seen or any(t is out[by_seen[link][0]][by_seen[link][1]] for t in linked.values()):
            continue
        r, k = by_seen[link]
        here, there = out[r][k], photo[j]
        code, cut = here.code, here.cut
        if not here.fixed and here.cut and (not there.cut or len(there.code) > len(here.code)):
            code, cut = there.code, there.cut
        out[r][k] = replace(here, code=code, cut=cut, seen=j)
        linked[j] = out[r][k]
    for number in sorted({t.row for t in photo}):
        members = sorted((j for j, t in enumerate(photo) if t.row == number), key=lambda j: (photo[j].place, j))
        homes = [_row_of(out, linked[j]) for j in members if j in linked]
        if homes:
            target = max(set(homes), key=lambda r: (homes.count(r), -r))
        elif number < len(out):
            target = number
        else:
            out.append([])
            target = len(out) - 1
        row = out[target]
        firsts = [_index(row, linked[j]) for j in members if j in linked and _index(row, linked[j]) >= 0]
        cursor = firsts[0] if firsts else len(row)
        for j in members:
            if j in linked:
                if _index(row, linked[j]) >= 0:
                    cursor = _index(row, linked[j]) + 1
                continue
            row.insert(cursor, replace(photo[j], seen=j))
            cursor += 1
    return [row for row in out if row]


def _row_of(rack: list[list[RackTile]], tile: RackTile) -> int:
    return next(r for r, row in enumerate(rack) if _index(row, tile) >= 0)


def _index(row: list[RackTile], tile: RackTile) -> int:
    """Where ``tile`` itself (not an equal one) is in ``row``, or −1."""
    return next((k for k, t in enumerate(row) if t is tile), -1)


def _add_by_codes(rack: list[list[RackTile]], photo: Sequence[RackTile]) -> list[list[RackTile]]:
    rows = sorted({t.row for t in photo})
    out = [list(row) for row in rack]
    for index, number in enumerate(rows):
        members = sorted(((j, t) for j, t in enumerate(photo) if t.row == number), key=lambda m: (m[1].place, m[0]))
        while len(out) <= index:
            out.append([])
        row = out[index]
        k = overlap_length([t.code for t in row], [t.code for _, t in members])
        for offset, (j, _) in enumerate(members[:k]):
            row[len(row) - k + offset] = replace(row[len(row) - k + offset], seen=j)
        row.extend(replace(t, seen=j) for j, t in members[k:])
    return out


def rack_from_photos(photos: Sequence[tuple[Sequence[PhotoTile], tuple[int, int]]]
                     ) -> tuple[list[list[RackTile]], list[list[int | None]]]:
    """A rack from photos of its parts, left to right (each its tiles and its (width, height)): its rows,
    and for each photo after the first its links to the photo before (:func:`same_tiles`; none linked
    where the two could not be laid over each other: rows then join where their codes agree)."""
    rack: list[list[RackTile]] = []
    linked: list[list[int | None]] = []
    previous: tuple[Sequence[PhotoTile], tuple[int, int]] | None = None
    for tiles, size in photos:
        places = photo_rows([t.box for t in tiles])
        entries = [RackTile(t.tile, row, place, CUT in t.warnings) for t, (row, place) in zip(tiles, places)]
        links: list[int | None] = same_tiles(previous[0], previous[1], tiles, size) if previous else [None] * len(tiles)
        if previous:
            linked.append(links)
        rack = add_photo(rack, entries, links)
        previous = (tiles, size)
    return rack, linked
