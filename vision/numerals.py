"""The number reader: each rack tile's numeral, cropped tight and upright, read by a text recogniser.

The square crop the classifier reads takes in both neighbours of a tile standing in a rack, and its
commonest misreads are numbers (6→5, 1→7, 2→12, 13→11).  This stage crops only the numeral region of
each tile, upright along the rack's row, as wide as the tile measured along the row (the spacing of
touching neighbours), and reads it with PP-OCR's text recogniser (``models/numerals.onnx``), its
alphabet restricted to digits.  A row's direction leaves the tile's up and down open: a tile is read
both ways up (once a few tiles of a row have settled which way it stands, its other tiles that way only),
and the likelier reading is kept, weighed by the classifier's up/down and by the way the
other tiles of its row read (a rack's tiles stand the same way up: the 6 and 9 that read alike both ways
are told by their row).

Pure geometry (``tile_frames``, ``numeral_crops``) and decoding (``number_posteriors``) are functions;
:class:`NumberReader` only holds the ONNX session.

>>> boxes = np.array([[0, 0, 20, 28], [20, 0, 40, 28], [40, 0, 60, 28], [60, 0, 80, 28]], np.float32)
>>> frames = tile_frames(boxes)
>>> [round(float(v), 2) for v in frames[1]]
[30.0, 14.0, 0.0, 20.0, 28.0]
>>> numeral_crops(np.zeros((40, 90, 3), np.uint8), frames, np.zeros(4, int)).shape
(4, 3, 48, 72)
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort  # type: ignore[import-untyped]

__all__ = ["NUMBERS", "READ_HEIGHT", "READ_WIDTH", "READ_STRETCH", "tile_frames", "row_direction", "DIRECTION_REACH", "components", "row_labels", "numeral_crops", "number_posteriors", "fuse_number",
           "reader_may_slip",
           "NumberReader"]

NUMBERS = tuple(range(1, 14))
READ_HEIGHT = 48
"""PP-OCRv4's recogniser reads text lines 48 px tall."""
READ_STRETCH = 1.5
"""The numeral region is drawn this many times as wide as it is: PP-OCR's CTC gives one frame per 8 px of
width, so a square region read 72 px wide gets 9 frames rather than 6, room for the blank that must part
the two 1s of an 11 (at 48 px "11" often came out as "1", and a 12 as 2)."""
READ_WIDTH = 72
# The numeral's share of a tile face, from its top (real sets and the renderer: a large number in the
# upper half, the symbol below it), and of its width (less than the face, so neighbours stay out).
NUMERAL_TOP, NUMERAL_BOTTOM = -0.04, 0.64
NUMERAL_WIDTH = 0.96
# Two boxes are neighbours in a row when one lies along the row's direction from the other (within 12°), at most
# this many times their short side apart (touching tiles: about once; a rack with gaps: up to 1.7).
_ROW_REACH = 1.8
_ROW_SLACK = math.radians(12)
# Each tile in a row is read both ways up.  Three things weigh the two readings: the reader's likelihood of a
# number each way; the classifier's P(upside down), held within 0.05-0.95 (its word counts at most 19 : 1),
# except where the row runs within 25° of the photo's vertical (a quarter-turned rack), where "upside down"
# means little; and the row's vote (below).
_UPRIGHT_ROWS = math.radians(65)
_UPSIDE_SAY = 0.05
# The tiles of a rack's row stand the same way up.  Each tile tells which way its own numeral reads (the
# ratio of its two likelihoods, held within _VOTE_SAY : 1; a tile with no clear number either way, below
# _VOTE_FROM, has no vote), and the other tiles of its row are one vote on it; a single tile may still stand
# the other way (_TILE_TURNED of them).  Tiles along the row up to _VOTE_REACH widths apart vote together (a
# rack's groups, across a gap between them or a missed tile).
_VOTE_SAY = 20.0
_VOTE_FROM = 0.1
_TILE_TURNED = 0.05
_VOTE_REACH = 4.5
# Reading every tile both ways up doubles the reads.  A row's tiles are read both ways _SAMPLE at a time until
# their votes settle which way the row stands (a sum of at least _SETTLED: two tiles that read clearly the same
# way; one alone never settles it), at most _SAMPLE_ROUNDS times; the row's other tiles are then read that way
# only, and the other way too where that reading is faint (likelihood below _ONE_WAY_FROM) or the classifier's
# up/down says the tile stands the other way.  Chosen by replaying the readings of the tuning racks (seed 9201):
# 74 % of the reads, and not one tile's reading changed there, nor on the dev and check racks or the older
# scenes (75 %, 76 %, 83 % of the reads).
_SAMPLE = 2
_SAMPLE_ROUNDS = 3
_SETTLED = 1.2 * math.log(_VOTE_SAY)
_ONE_WAY_FROM = 0.5
READER_SURE = 0.6
"""Below this probability of its likeliest number the reader neither confirms the classifier nor asks for a tap
by disagreeing with it."""
READER_WEIGHT = 0.5
"""The reader's probabilities count raised to this power against the classifier's."""
READER_OVERRULES = 0.99
"""A reader this sure of a number that moves the classifier's settles the tile without a tap where the classifier
gives that number at least ``CLASSIFIER_ALLOWS`` and the two do not differ in a way the reader is known to get
wrong (:func:`reader_may_slip`)."""
CLASSIFIER_ALLOWS = 0.05
BOTH_HOLD_TWO_DIGITS = 0.8
"""Where the reader sees one digit of the classifier's two (a leading digit lost: :func:`fuse_number` keeps the
classifier's number with a tap), two classifiers that each give that two-digit number at least this share of their
number probability settle it without a tap (:func:`two_digits_held`)."""


DIRECTION_REACH = 3.5
"""Tiles whose centres lie up to this many short sides of the photo's median box apart vote on the rows' direction
(:func:`row_direction`): the rows of a rack, and the lines of melds on the table (``vision.melds``)."""


def row_direction(centres: np.ndarray, reach: float) -> float | None:
    """The rows' direction (radians, −π/2…π/2): the commonest direction between centres at most ``reach``
    apart (a row of n tiles gives n − 1 neighbours and more pairs further along, all one way; the pairs
    across two rows or between loose tiles scatter), refined as the mean of the pairs within 6° of it.
    None when fewer than 3 boxes.  Not ``vision.rack.rows_slope``, which the rack prior and the two-photo overlay
    use: that one counts boxes side by side in box widths and heights, turns within 45° only, and is right for
    racks near the photo's width; a rack turned 60° has upright boxes far wider than its tiles and needs the
    direction alone, from centres."""
    if len(centres) < 3:
        return None
    offsets = centres[None] - centres[:, None]
    distance = np.linalg.norm(offsets, axis=2)
    near = np.triu(distance <= reach, 1)
    if not near.any():
        return None
    doubled = 2 * np.arctan2(offsets[..., 1][near], offsets[..., 0][near])
    votes = np.exp(1j * doubled)
    bins = np.round((doubled % (2 * math.pi)) / math.radians(6)).astype(int) % 60
    peak = int(np.argmax(np.bincount(bins, minlength=60) + np.roll(np.bincount(bins, minlength=60), 1)
                         + np.roll(np.bincount(bins, minlength=60), -1)))
    around = np.abs(np.angle(votes * np.exp(-1j * peak * math.radians(6)))) <= math.radians(12)
    return float(np.angle(votes[around].mean()) / 2)


def boxes_direction(boxes: np.ndarray) -> float | None:
    """The rows' direction of the tiles ``boxes`` (N×4) show: :func:`row_direction` of their centres, neighbours up to
    ``DIRECTION_REACH`` short sides of the median box apart.  None when fewer than 3 boxes.

    >>> round(math.degrees(boxes_direction(np.array([[0, 0, 10, 14], [10, 5, 20, 19], [20, 10, 30, 24]]))))
    27
    """
    if len(boxes) < 3:
        return None
    centres = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], 1)
    short = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    return row_direction(centres, DIRECTION_REACH * float(np.median(short)))


def components(links: np.ndarray) -> np.ndarray:
    """Each node's connected component in the symmetric boolean adjacency ``links``, labelled by its
    lowest node."""
    label = np.arange(len(links))
    for _ in range(len(links)):
        spread = np.where(links, label[None, :], len(links)).min(1)
        new = np.minimum(label, spread)
        if np.array_equal(new, label):
            break
        label = new
    return label


def _chains(links: np.ndarray) -> np.ndarray:
    """The size of each node's connected component in the symmetric boolean adjacency ``links``."""
    label = components(links)
    sizes: np.ndarray = np.bincount(label, minlength=len(links))[label]
    return sizes


def row_labels(frames: np.ndarray, reach: float = _VOTE_REACH) -> np.ndarray:
    """Which row each tile of ``tile_frames`` stands in (the label of its row's first tile; −1 for tiles
    not in a row): tiles along the row's direction from each other, at most ``reach`` tile widths
    apart, so a rack's groups with a gap between them (or a missed tile) are one row.

    >>> boxes = np.array([[x, y, x + 20, y + 28] for y in (0, 40) for x in (0, 20, 40, 60, 120, 140)], np.float32)
    >>> row_labels(tile_frames(boxes)).tolist()
    [0, 0, 0, 0, 0, 0, 6, 6, 6, 6, 6, 6]
    """
    labels = np.full(len(frames), -1, np.int64)
    inside = np.flatnonzero(np.isfinite(frames[:, 3]))
    if len(inside) == 0:
        return labels
    links, _ = _row_links(frames[inside, :2], float(frames[inside[0], 2]), frames[inside, 3], reach)
    labels[inside] = inside[components(links)]
    return labels


DUPLICATE_WITHIN = 0.5
"""Two boxes whose centres lie closer than this share of the smaller one's extent along the row are two boxes on
one tile (measured on the 3-D racks' close front views: a tile's second box lay 10-40 px from its first on tiles
100 px wide, and the distance, taken for the tile's width, cut its 12 down to a 1 or a 2)."""
DUPLICATE_ROWS = math.radians(15)
"""Only in a row within this of the photo's horizontal or vertical: there an upright box is about its tile (a tile
twice as tall as wide, turned 15°, has its neighbour 0.67 of its box away).  On a rack turned 52° in a far phone's
photo, touching tiles' boxes lay 0.44 of a box apart, and taking them for one tile's two boxes widened every crop
to two tiles (a K1 read K11)."""


def _row_links(centres: np.ndarray, angle: float, sizes: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """Which pairs of ``centres`` are neighbours in a row running at ``angle``: one lies along that direction
    from the other (within ``_ROW_SLACK``), at most ``reach`` times the smaller of their ``sizes`` apart
    (N×N booleans); and the distances between them (N×N, infinite on the diagonal)."""
    along = np.array([math.cos(angle), math.sin(angle)], np.float32)
    offsets = centres[None] - centres[:, None]  # [i, j] = centre j − centre i
    distance = np.linalg.norm(offsets, axis=2)
    np.fill_diagonal(distance, np.inf)
    cosine = np.abs(offsets @ along) / np.maximum(distance, 1e-9)
    links = (cosine >= math.cos(_ROW_SLACK)) & (distance <= reach * np.minimum(sizes[:, None], sizes[None, :]))
    return links, distance


def tile_frames(boxes: np.ndarray, reach: float = _ROW_REACH) -> np.ndarray:
    """Each box's tile as (cx, cy, angle, width, height): ``angle`` is the row's direction; the width is
    measured along the row (the distance to a touching neighbour) and the height across it, both
    solved from the axis-aligned box.  A box is in a row when neighbours along that direction link it
    to at least two others (or one, where the photo has a row of four); the others (loose tiles,
    fewer than 3 boxes) get NaN width and are left to the classifier.  ``reach``: how far apart two
    neighbours may be, in short sides (a longer reach links tiles across a missed one).
    """
    frames = np.full((len(boxes), 5), np.nan, np.float32)
    if len(boxes) == 0:
        return frames
    centres = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], 1)
    frames[:, :2] = centres
    box_w, box_h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    short = np.minimum(box_w, box_h)
    angle = boxes_direction(boxes)
    if angle is None:
        return frames
    frames[:, 2] = angle
    links, distance = _row_links(centres, angle, short, reach)
    chain = _chains(links)
    # Three in line make a row; once a photo shows a row of four, a pair along it is a group on the rack.
    in_row = chain >= (2 if chain.max() >= 4 else 3)
    if not in_row.any():
        return frames
    c, s = abs(math.cos(angle)), abs(math.sin(angle))
    extent = np.where(c >= s, box_w, box_h)  # each box's extent along the row
    # In a row running near the photo's axes, two boxes whose centres lie within half a box of each other along it are
    # two boxes on one tile (the detector's number and symbol, or a box shifted over it), not touching neighbours:
    # neither measures a width, its own or a neighbour's, and both take the row's typical one.  (In a row turned
    # further, an upright box is much wider than its tile, and touching neighbours lie that close.)
    paired = (links & (distance < DUPLICATE_WITHIN * np.minimum(extent[:, None], extent[None, :]))).any(1)
    paired &= min(c, s) <= math.sin(DUPLICATE_ROWS)
    spacing = np.where(links & ~paired[:, None] & ~paired[None, :], distance, np.inf).min(1)
    measured = in_row & np.isfinite(spacing)
    typical = float(np.median(spacing[measured] if measured.any() else extent[in_row]))
    # A tile wider than its own box along the row is not a touching neighbour's spacing: use the box.
    width = np.minimum(np.where(paired, typical, np.minimum(spacing, typical * 1.15)), extent)
    # The tile's extent across the row: box width = w·c + h·s, box height = w·s + h·c.
    height = box_w * s + box_h * c - 2 * width * c * s
    frames[in_row, 3] = width[in_row]
    frames[in_row, 4] = np.maximum(height[in_row], width[in_row])
    return frames


def numeral_crops(image: np.ndarray, frames: np.ndarray, turns: np.ndarray) -> np.ndarray:
    """For each frame, a READ_HEIGHT×READ_WIDTH crop of the numeral region (drawn ``READ_STRETCH`` times as
    wide as it is), the tile standing as the row says (turn 0) or turned half way round (turn 1),
    normalised as PP-OCR expects: N×3×48×72 ``float32``.
    A frame with NaN width gives a grey crop."""
    crops = np.full((len(frames), READ_HEIGHT, READ_WIDTH, 3), 128, np.uint8)
    for index, ((cx, cy, angle, width, height), turn) in enumerate(zip(frames, turns)):
        if not np.isfinite(width):
            continue
        region_h = (NUMERAL_BOTTOM - NUMERAL_TOP) * height
        region_w = NUMERAL_WIDTH * width
        scale = READ_HEIGHT / region_h
        out_w = min(READ_WIDTH, max(8, int(round(region_w * scale * READ_STRETCH))))
        theta = angle + math.pi * int(turn)
        along = np.array([math.cos(theta), math.sin(theta)])
        up = np.array([math.sin(theta), -math.cos(theta)])
        top_centre = np.array([cx, cy]) + up * (height / 2 - NUMERAL_TOP * height)
        origin = top_centre - along * region_w / 2
        source = np.array([origin, origin + along * region_w, origin - up * region_h], np.float32)
        target = np.array([[0, 0], [out_w, 0], [0, READ_HEIGHT]], np.float32)
        matrix = cv2.getAffineTransform(source, target)
        patch = cv2.warpAffine(image, matrix, (out_w, READ_HEIGHT), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        left = (READ_WIDTH - out_w) // 2
        crops[index, :, left : left + out_w] = patch
    rgb = crops[..., ::-1].astype(np.float32)
    return np.ascontiguousarray(np.moveaxis(rgb / 127.5 - 1.0, -1, 1))


def _extended_labels() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CTC's blank-interleaved labels of "1" … "13" (class 0 blank, 1 + d the digit d), padded to 5
    states; which states may be entered by skipping a blank; the index of each label's last state."""
    states = np.zeros((len(NUMBERS), 5), np.int64)
    skip = np.zeros((len(NUMBERS), 5), bool)
    last = np.zeros(len(NUMBERS), np.int64)
    for row, number in enumerate(NUMBERS):
        extended = [0]
        for digit in str(number):
            extended += [1 + int(digit), 0]
        states[row, : len(extended)] = extended
        for s in range(2, len(extended)):
            skip[row, s] = extended[s] != 0 and extended[s] != extended[s - 2]
        last[row] = len(extended) - 1
    return states, skip, last


_STATES, _SKIP, _LAST = _extended_labels()


def number_posteriors(probabilities: np.ndarray, digit_classes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The recogniser's per-frame softmax (N×T×C) → for each crop, P(number = 1…13 | it is one of them)
    (N×13) and the likelihood that the crop shows one of them at all (N).

    Every class that is not a digit counts as blank (a symbol or a shadow is "no digit here"), so the
    alphabet is digits alone; the CTC forward pass gives each of the 13 numbers' likelihood, which are
    then normalised.

    >>> frames = np.zeros((1, 4, 12)); frames[0, :, 0] = 1; frames[0, 1, 0], frames[0, 1, 5] = 0, 1  # "-4--"
    >>> posterior, likelihood = number_posteriors(frames, np.arange(1, 11))
    >>> int(np.argmax(posterior[0])) + 1, round(float(likelihood[0]), 3)
    (4, 1.0)
    """
    digits = probabilities[:, :, digit_classes].astype(np.float64)
    blank = np.clip(1.0 - digits.sum(2), 0.0, 1.0)
    reduced = np.concatenate([blank[:, :, None], digits], 2)  # N×T×11
    emit = reduced[:, :, _STATES]  # N×T×13×5
    alpha = np.zeros(emit.shape[:1] + emit.shape[2:])
    alpha[:, :, :2] = emit[:, 0, :, :2]
    for t in range(1, emit.shape[1]):
        moved = alpha.copy()
        moved[:, :, 1:] += alpha[:, :, :-1]
        moved[:, :, 2:] += np.where(_SKIP[:, 2:], alpha[:, :, :-2], 0.0)
        alpha = moved * emit[:, t]
    rows = np.arange(len(NUMBERS))
    likelihoods = alpha[:, rows, _LAST] + alpha[:, rows, _LAST - 1]
    total = likelihoods.sum(1)
    return likelihoods / np.maximum(total, 1e-300)[:, None], total


def _votes(ways: np.ndarray) -> np.ndarray:
    """Each tile's say on which way its row stands: the log ratio of its likelihoods of a number turned half way
    round and as the row stands (``ways``, N×2), held within ±log ``_VOTE_SAY``; none (0) for a tile with no
    clear number either way (below ``_VOTE_FROM``).  A way not read has likelihood 0, so a tile read one way
    only and clearly says so in full.

    >>> _votes(np.array([[0.9, 0.009], [0.5, 0.4], [0.02, 0.05], [0.0, 0.7]])).round(2).tolist()
    [-3.0, -0.22, 0.0, 3.0]
    """
    say = math.log(_VOTE_SAY)
    ratio = np.log(np.maximum(ways[:, 1], 1e-6) / np.maximum(ways[:, 0], 1e-6))
    return np.where(ways.max(1) >= _VOTE_FROM, np.clip(ratio, -say, say), 0.0)


def _row_prior(ways: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """P(the tile stands as its row's direction says, and turned half way round) (N×2), from the other tiles of
    its row.  ``ways``: each tile's likelihood of a number read each way up (N×2); ``rows``: its row label
    (−1: none).  A tile says which way it reads by the ratio of its two likelihoods, at most ``_VOTE_SAY`` : 1;
    the row's say on a tile leaves that tile's own out, and one tile in ``_TILE_TURNED`` stands the other way
    whatever its row does.  No vote: 0.5 each way.

    Three tiles that read clearly one way up tell the fourth, a 6 that reads as a 9 the other way, how it
    stands; a tile in no row is told nothing:

    >>> ways = np.array([[0.9, 0.01], [0.8, 0.02], [0.97, 0.1], [0.95, 0.9], [0.9, 0.8]])
    >>> _row_prior(ways, np.array([0, 0, 0, 0, -1])).round(2).tolist()
    [[0.95, 0.05], [0.95, 0.05], [0.95, 0.05], [0.95, 0.05], [0.5, 0.5]]
    """
    vote = _votes(ways)
    total = np.zeros(len(ways))
    for row in np.unique(rows[rows >= 0]):
        member = rows == row
        total[member] = vote[member].sum() - vote[member]
    turned = 1 / (1 + np.exp(-total))
    turned = (1 - _TILE_TURNED) * turned + _TILE_TURNED * (1 - turned)
    return np.stack([1 - turned, turned], 1)


def reader_may_slip(read: int, classified: int) -> bool:
    """Whether the reader's ``read`` against the classifier's ``classified`` is a slip the reader makes surely:
    one digit against two (a leading 1 lost at the crop's edge, 12 read as 2, or a neighbour's edge read as a
    1), a lone 1 (what the frame leaves of a 10-13 at a photo's edge, or a tile's edge), or 6 against 9 (a tile
    read the wrong way up).

    >>> reader_may_slip(2, 12), reader_may_slip(13, 3), reader_may_slip(1, 7), reader_may_slip(6, 9)
    (True, True, True, True)
    >>> reader_may_slip(5, 6), reader_may_slip(7, 1), reader_may_slip(11, 13)
    (False, False, False)
    """
    return (read >= 10) != (classified >= 10) or read == 1 or {read, classified} == {6, 9}


def _digit_lost(read: int, classified: int) -> bool:
    """Whether the reader's one digit ``read`` is one of the classifier's two (a 12 read as 2 or 1)."""
    return read < 10 <= classified and str(read) in str(classified)


def two_digits_held(number: int, reader: np.ndarray, classifiers: list[np.ndarray]) -> bool:
    """Whether the tap :func:`fuse_number` asks for a lost leading digit is settled: the reader's likeliest number
    (``reader``: P over 1…13) is one digit of ``number``'s two, and at least two classifiers each give ``number``
    at least ``BOTH_HOLD_TWO_DIGITS`` of their P(number) (``classifiers``: each over 1…13, summing to 1).

    Thirty-fifth round, every tile of the ten 3-D sets and the 2.5-D dev, check, fresh, unseen-font and tuning racks
    whose number both classifiers read alike against a reader that saw one of its digits: where both gave it 0.8 or
    more, their number was right 54 times of 54 (41 of those tiles had no other cause for a tap); the one reader
    that was right (a 2 the classifiers read 12) one of them gave 0.51.

    >>> eleven, one = np.full(13, 0.01), np.full(13, 0.01)
    >>> eleven[10], one[0] = 0.88, 0.88
    >>> two_digits_held(11, one, [eleven, eleven])
    True
    >>> unsure_eleven = np.full(13, 0.05); unsure_eleven[10] = 0.4
    >>> two_digits_held(11, one, [eleven, unsure_eleven]), two_digits_held(11, one, [eleven])
    (False, False)
    >>> seven = np.full(13, 0.01); seven[6] = 0.88
    >>> two_digits_held(7, one, [seven, seven])                  # a lone 1 against a 7: not a digit lost
    False
    """
    if len(classifiers) < 2 or not np.isfinite(reader).all():
        return False
    read = NUMBERS[int(np.argmax(reader))]
    held = NUMBERS.index(number)
    return _digit_lost(read, number) and all(float(c[held]) >= BOTH_HOLD_TWO_DIGITS for c in classifiers)


def fuse_number(classifier: np.ndarray, reader: np.ndarray | None) -> tuple[int, float, bool]:
    """The classifier's P(number) and the reader's (both over 1…13, each summing to 1; ``reader`` None
    when not read) → (number, its probability, whether the tile needs a tap).

    The number kept is the likeliest under both, the reader's probability counting as its square root
    (``READER_WEIGHT``: the reader is surer than it is right; chosen on the tuning and dev racks, confirmed
    on the check racks, the real photos and the older synthetic scenes).  Agreeing, the two are two looks
    at the tile: the number is wrong only if both are, so its probability is 1 − (1 − p)(1 − q) (a reader
    less sure than ``READER_SURE`` adds nothing to it).  Where a sure reader disagrees with the
    classifier, or the reader moves the classifier's number, the caller flags the tile for a tap; the one
    disagreement settled without a tap is a reader at least ``READER_OVERRULES`` sure moving the classifier
    to a number the classifier gives at least ``CLASSIFIER_ALLOWS`` and the reader does not slip to
    (:func:`reader_may_slip`): on the tuning, dev and check racks such a reader was right 108 times of 108.
    A reader's one digit never moves the classifier's two digits that hold it (12 read as 2 or 1: a leading 1 lost at
    the crop's edge, or what the frame leaves of the tile): the classifier's number stands, with a tap.  Thirtieth
    round, every look at a tile on the 3-D, 2.5-D and tuning racks and the real photos where the two read so (124):
    the classifier right 120 times, the reader 3; the fusion had taken the reader's 27 times, 24 of them wrongly.
    Tiles read right, net: +3 on the eight 3-D sets, +7 on the 2.5-D dev, check, fresh and unseen racks.

    >>> six, five = np.full(13, 0.02), np.full(13, 0.01)
    >>> six[5], five[4] = 0.76, 0.88
    >>> number, p, disagree = fuse_number(six, six)
    >>> number, round(p, 3), disagree
    (6, 0.942, False)
    >>> number, p, disagree = fuse_number(six, five)           # the classifier's 6 holds, with a tap
    >>> number, round(p, 3), disagree
    (6, 0.76, True)
    >>> unsure_six = np.full(13, 0.05); unsure_six[5] = 0.4
    >>> number, p, disagree = fuse_number(unsure_six, five)    # a sure reader moves an unsure classifier
    >>> number, round(p, 3), disagree
    (5, 0.88, True)
    >>> surely_five = np.full(13, 0.0005); surely_five[4] = 0.994
    >>> fuse_number(unsure_six, surely_five)                      # a reader this sure settles it
    (5, 0.994, False)
    >>> unsure_twelve = np.full(13, 0.05); unsure_twelve[11] = 0.4
    >>> surely_two = np.full(13, 0.0005); surely_two[1] = 0.994
    >>> fuse_number(unsure_twelve, surely_two)                    # not 12 against 2: a lost leading 1
    (12, 0.4, True)
    """
    best = int(np.argmax(classifier))
    p = float(classifier[best])
    if reader is None:
        return NUMBERS[best], p, False
    read = int(np.argmax(reader))
    q = float(reader[read])
    fused = classifier * np.power(reader, READER_WEIGHT)
    number = int(np.argmax(fused))
    sure = q >= READER_SURE
    if number == best and (read == best or not sure):
        return NUMBERS[best], 1 - (1 - p) * (1 - q) if read == best and sure else p, False
    if number == read and _digit_lost(NUMBERS[read], NUMBERS[best]):
        return NUMBERS[best], p, True
    if number == read:
        settled = q >= READER_OVERRULES and float(classifier[read]) >= CLASSIFIER_ALLOWS
        return NUMBERS[read], q, not settled or reader_may_slip(NUMBERS[read], NUMBERS[best])
    if number == best:
        return NUMBERS[best], p, True
    return NUMBERS[number], float(fused[number] / max(float(fused.sum()), 1e-12)), True


class NumberReader:
    """Holds the recogniser's ONNX session; :meth:`read` is stateless."""

    def __init__(self, model: str | Path, options: ort.SessionOptions | None = None) -> None:
        self._session = ort.InferenceSession(str(model), options or ort.SessionOptions(), providers=["CPUExecutionProvider"])
        alphabet = self._session.get_modelmeta().custom_metadata_map["character"].splitlines()
        # Output class 0 is CTC's blank, class i + 1 the alphabet's i-th character.
        self._digit_classes = np.array([alphabet.index(str(d)) + 1 for d in range(10)], np.int64)

    def read(self, image: np.ndarray, boxes: np.ndarray, which: np.ndarray | None = None,
             upside_down: np.ndarray | None = None,
             frames: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each box: P(number = 1…13) (N×13, NaN rows for tiles not read), the likelihood that its
        numeral region shows a number at all (N; 0 where not read), and whether the reading kept is of the
        tile upside down in the photo (N: 1 or 0; NaN where not read, or where the row runs nearly up the
        photo).

        Only the boxes ``which`` are read (default: all) and only those standing in a row.  The row's
        direction leaves up and down open, so a tile is read both ways up (a row's other tiles only its
        way, once a few of them have settled it: ``_read_ways``).  Of the two readings the likelier is
        kept: each way's likelihood of a number, times ``upside_down`` (each box's P(upside down), the
        classifier's) held within ``_UPSIDE_SAY`` (ignored where the row runs nearly up the photo,
        where "upside down" means little), times the row's vote (``_row_prior``).  A head wrong on a set it
        never learnt is outvoted by what the reader sees on the tile and on its row.
        ``frames`` are ``tile_frames(boxes)`` when the caller has them already.
        """
        frames = tile_frames(boxes) if frames is None else frames
        posteriors = np.full((len(boxes), len(NUMBERS)), np.nan)
        likelihood, turned = np.zeros(len(boxes)), np.full(len(boxes), np.nan)
        chosen = np.arange(len(boxes)) if which is None else np.asarray(which, np.int64)
        chosen = chosen[np.isfinite(frames[chosen, 3])]
        if len(chosen) == 0:
            return posteriors, likelihood, turned
        upside = np.full(len(boxes), 0.5) if upside_down is None else np.asarray(upside_down, np.float64)
        upright_rows = abs(float(frames[chosen[0], 2])) <= _UPRIGHT_ROWS
        if not upright_rows:
            upside = np.full(len(boxes), 0.5)
        weight = np.clip(upside[chosen], _UPSIDE_SAY, 1 - _UPSIDE_SAY)
        rows = row_labels(frames)[chosen]
        ways, reads = self._read_ways(image, frames[chosen], rows, weight)
        prior = _row_prior(ways, rows)
        pick = np.argmax(ways * np.stack([1 - weight, weight], 1) * prior, 1)
        tiles = np.arange(len(chosen))
        posteriors[chosen], likelihood[chosen] = reads[tiles, pick], ways[tiles, pick]
        if upright_rows:
            turned[chosen] = pick  # the row's angle is within 65° of the photo's horizontal: turn 1 is upside down
        return posteriors, likelihood, turned

    def _read_ways(self, image: np.ndarray, frames: np.ndarray, rows: np.ndarray,
                   weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each tile of ``frames`` (in rows ``rows``, with the classifier's P(upside down) ``weight``) read as its
        row stands and turned half way round: the likelihood of a number each way (N×2: [k, 0] as the row stands,
        [k, 1] turned; 0 for a way not read) and P(number) each way (N×2×13, NaN where not read).  Both ways for
        a few tiles of each row until they settle which way it stands, then that way only (``_SAMPLE``)."""
        ways, reads = np.zeros((len(frames), 2)), np.full((len(frames), 2, len(NUMBERS)), np.nan)

        def read(tiles: list[int], turns: list[int]) -> None:
            if tiles:
                reads[tiles, turns], ways[tiles, turns] = self._run(image, frames[tiles], np.array(turns))

        queues = {int(row): [int(tile) for tile in np.flatnonzero(rows == row)] for row in np.unique(rows[rows >= 0])}
        settled: dict[int, int] = {}
        for _ in range(_SAMPLE_ROUNDS):
            sample = [tile for row, queue in queues.items() if row not in settled for tile in queue[:_SAMPLE]]
            if not sample:
                break
            read([tile for tile in sample for _ in (0, 1)], [0, 1] * len(sample))
            for row, queue in queues.items():
                if row not in settled:
                    del queue[:_SAMPLE]
                    say = float(_votes(ways[rows == row]).sum())
                    if abs(say) >= _SETTLED:
                        settled[row] = int(say > 0)
        # The rest: both ways up in a row not settled (or in no row), the row's way alone in a settled one.
        both = [int(tile) for tile in np.flatnonzero(rows < 0)]
        both += [tile for row, queue in queues.items() if row not in settled for tile in queue]
        one = [(tile, settled[row]) for row, queue in queues.items() if row in settled for tile in queue]
        read([tile for tile in both for _ in (0, 1)] + [tile for tile, _ in one],
             [0, 1] * len(both) + [way for _, way in one])
        # A tile read faintly its row's way, or that the classifier sees standing the other way: read that way too.
        other = [(tile, 1 - way) for tile, way in one
                 if ways[tile, way] < _ONE_WAY_FROM or (weight[tile] > 0.5 if way == 0 else weight[tile] < 0.5)]
        read([tile for tile, _ in other], [way for _, way in other])
        return ways, reads

    def _run(self, image: np.ndarray, frames: np.ndarray, turns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        crops = numeral_crops(image, frames, turns)
        (probabilities,) = self._session.run(None, {self._session.get_inputs()[0].name: crops})
        return number_posteriors(probabilities, self._digit_classes)
