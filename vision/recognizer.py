"""The recogniser: photo → tiles in our notation, with boxes, confidences and warnings.

Small pure stages around one stateless object holding the ONNX sessions (created once):
load (EXIF, limits; a large photo at a working size) → find tiles (centre-heatmap detector; where a large photo's
tiles lie in a part of it no larger than the working size, found again there at full size) → look for tiles it missed in the rows'
gaps and past their ends (``vision.rack.row_gaps``) → crop → classify → read the numbers of tiles
standing in a row (``vision.numerals``) → decode → reading order.
Low confidence is reported, never hidden: such tiles carry ``low_confidence`` for the UI to confirm,
and so does every tile whose number the classifier and the number reader read differently, and every tile a second
classifier (where the models have one) reads otherwise or is not sure of.
"""

from __future__ import annotations

import copy
import functools
import math
from importlib import resources
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import onnxruntime as ort  # type: ignore[import-untyped]

from vision.imageio import WORK_MIN_SIDE, decoded_size, finest, load_image, load_photo
from vision.ink import (BLUER_FLAG, BLUER_SWITCH, BLUER_SWITCH_AMONG, DARK_AS_BLACK, DARK_AS_RED, DARKER_THAN_YELLOWS,
                        DARKEST_YELLOW, HALF_WAY_IN_BRIGHTNESS, INK_MODEL, NEAR_BLUES, PART_WAY_IN_HUE,
                        REDDER_THAN_YELLOWS, TOWARDS_BLUE, TOWARDS_YELLOW, WARM_GROUPS_FROM, YELLOWER_FLAG, YELLOWER_FROM,
                        InkColour, among_the_yellows, as_dark_as_the_blacks, as_dark_as_the_reds, bluer_than_black,
                        brighter_towards_the_yellows, colour_strength, face_patches, fuse_colour,
                        ink_brightness, ink_features, ink_hues, loose_frames, near_the_blues, strengthen_colours,
                        towards_the_blues, towards_the_yellows, warm_groups, yellower_than_red)
from vision.numerals import NUMBERS, NumberReader, fuse_number, tile_frames, two_digits_held
from vision.postprocess import COLOURS, KINDS, box_iou, decode_detections, decode_tile, reading_order, suppress_overlaps
from vision.preprocess import DETECT_LONG_SIDE, detector_input, tile_crops
from vision.rack import apply_rack_prior, inside_share, row_gaps

__all__ = ["DetectedTile", "Recognition", "Recognizer", "recognize_file", "MODELS_DIR"]



def _models_dir() -> Path:
    """``models/`` of the source checkout, else the copy a wheel carries in ``vision/models``.

    The wheel's build step (``setup.py``) copies every file of the top-level ``models/`` folder there.
    """
    package = resources.files("vision")
    if not isinstance(package, Path):
        raise RuntimeError(f"the vision package is not a plain folder ({package}): a folder called 'vision' in the "
                           "current directory can hide it (run from another directory), or it was installed as a zip "
                           "(install the wheel with pip)")
    checkout = package.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "models").is_dir():
        return checkout / "models"
    return package / "models"


MODELS_DIR = _models_dir()
DETECTION_THRESHOLD = 0.3
# Below this a tile is flagged for the user to confirm.  On the synthetic dev scenes 0.7 flags 21 of
# 22 misreads (0.8: all 22, but also half of the tiles read right); see models/HISTORY.md.
LOW_CONFIDENCE = 0.7
SECOND_SURE_FROM = 0.65
"""The second classifier, reading a tile as the first does, must be at least this sure of it for the tile to be sure
(the first, ``LOW_CONFIDENCE``).  Measured on the renders as read (eight 3-D sets and the 2.5-D dev, check, fresh,
unseen-font and tuning racks), tiles flagged only by the second's confidence: from 0.65 to 0.7 lie 41 right tiles and
no wrong one; the three wrong tiles it alone flags lie at 0.59-0.61."""
UNREADABLE_BELOW = 0.5
# Tile sizes (long side of the box, in detector input pixels) the detector saw most in training; the
# range and target were chosen on the synthetic dev scenes (seed 9001), not on the held-out photos.
TRAINED_TILE_SIDE = 55.0
TILE_SIDE_RANGE = (30.0, 75.0)
RESCALED_LONG_SIDE = (256, 1024)
# A far shot (the rack a third of the photo's width, loose tiles and felt around it): where the first look finds
# fewer tiles than FEW_TILES it is at least LIKELY_TILE sure of, and none large, the detector looks again at the
# largest rescaled size, kept where the detector is surer of its boxes there (their scores summed), with at least
# FEW_TILES likely tiles or twice as sure.  Where the first look's tiles are under SMALL_AT_FIRST_LOOK px and its
# scores average under UNSURE_FIRST_LOOK (its boxes may be around groups of tiles too small for it, each group the
# size of a tile), it looks again at that size too, kept where it finds MANY_MORE times as many likely tiles.
# Where the tiles found would need the photo over ZOOM_FROM times that size, it looks at the part of the photo the
# tiles lie in (with ZOOM_MARGIN tile sides around them), at the scale that brings the tiles to the trained size
# (below that, at the largest size, as before: on the dev racks a part looked at just over it read worse than the
# whole photo).
FEW_TILES = 4
LIKELY_TILE = 0.5
SMALL_AT_FIRST_LOOK = 40.0
UNSURE_FIRST_LOOK = 0.65
MANY_MORE = 1.5
ZOOM_FROM = 1.5
ZOOM_MARGIN = 3.0
# A detection the classifier calls "not a tile" is dropped unless the detector is this sure of it.
SURE_DETECTION = 0.6
NUMBER_READER = "numerals.onnx"
# A second classifier, where the models folder has one: its reading of each tile (with the same ink and number
# reader) must agree with the first's, and be sure, for the tile to be sure.  It never changes a reading; the two
# agreeing settle one tap, a reader that saw one of the two digits both hold (vision.numerals.two_digits_held).
SECOND_CLASSIFIER = "classifier_second.onnx"
TABLE_DETECTOR = "detector_table.onnx"
"""A second detector, where the models folder has one, for photos of melds laid on the table (an opening, a Rummikub
table): taught more such photos than racks, it finds the tiles of lines running away from the camera that the rack
detector boxes two or three at a time, and reads racks worse (models/README.md).  Used only where the caller says
the photo shows melds laid down (``Recognizer.recognize(..., table=True)``)."""
# The number reader's answer counts only when its crop is likely to show one of 1…13 at all.
READ_LIKELIHOOD = 0.1
# Below this the reader saw no number at all on a tile in a row that the classifier reads as a number:
# a false okey's emblem (rendered false okeys in rows: 8 of 9 below it; numbered tiles: 1.5 %), so flagged.
NO_NUMBER_BELOW = 0.07
NO_NUMBER_WARNING = "no number seen: a false okey?"
# A tile read as a number where the reader saw none, and the classifier gives the false okey this much, is read as
# the false okey (flagged, as before): a clover emblem reads as a 4 to the classifier.  On every look at a labelled
# tile of the 3-D and 2.5-D racks: 7 of the 12 false okeys so read made F, 1 of the 138 numbered tiles so read; the
# tuning racks and the real photos: none either way (thirtieth round, models/HISTORY.md).
EMBLEM_FROM = 0.2
FALSE_OKEY = KINDS.index("F")
NO_COLOUR_WARNING = "no colour in the photo"
# A place in a row where the detector found no tile but its neighbours say one stands (vision.rack.row_gaps)
# is read like a found tile; a tile is kept there only when the classifier takes it for one (not "none",
# P(none) below this) and reads it with a confidence of GAP_CONFIDENCE at least (on the rendered racks the
# places read fainter were the rack, a face-down tile or a box half on a found tile), and it is always
# flagged: its box is a guess from the row, not a detection.
GAP_NONE_BELOW = 0.5
GAP_WARNING = "found from its row"
GAP_ROUNDS = 3
# For the search, rows are linked across up to GAP_MOST missed tiles (4.5 short sides: a close-up's tiles are
# about as wide as their box's short side); the number reader keeps its own, shorter reach.
GAP_REACH = 4.5
GAP_CONFIDENCE = 0.5
# A photo is colourless (greyscale, a monochrome camera) when even its most coloured pixels are nearly
# grey: the 99th percentile of max − min channel on a 128×96 thumbnail.  Measured: at least 16 on 800
# rack renders (dim ones included) and every real photo with tiles, 10 on an empty real table; a
# greyscale JPEG 0.
COLOURLESS_BELOW = 8
CUT_WARNING = "cut by the frame"
# A tile whose box is less than SMALL_TILE pixels on its short side is never sure: on the rendered racks
# (tuning and dev, as taken and scaled down to 0.6 and 0.4 as JPEGs of quality 60), 51 of the 70 sure tiles
# read wrong were that small (51 of 586 such sure tiles; at 60 px and more, 0 of 1,366); as taken, 45 of 1,530
# tiles are that small, none of them a sure mistake; the real held-out photos have none (the smallest 37 px).
SMALL_TILE = 32
SMALL_WARNING = "small in the photo"
# A photo-level message (not a tile's warning): the photo's colours were strengthened (vision.ink.colour_strength).
FAINT_COLOURS_MESSAGE = ("faint colours (dim light?): strengthened before reading; check the colours, or retake the "
                         "photo in brighter light")
UPSIDE_DOWN_WARNING = "upside down"
UNREADABLE_WARNING = "unreadable"
FACE_DOWN_WARNING = "no ink: face down or blank"
# Glare (issue 10, tenth round): a box at least GLARE_SHARE blown out (every channel at least GLARE_LEVEL) lies
# under a lamp's or the flash's reflection.  Of the 42 tiles never found on the tuning, dev and check racks, 31 had
# half their box blown out; the 35 real held-out photos have no tile with even 1 %.  A tile read there says so
# (it is not flagged for it: most tiles under glare are still read right), and the photo says so (GLARE_MESSAGE)
# when such a tile is read or a blown-out patch as large lies beside a read tile (a tile wholly blown out is never
# found).  Chosen on the tuning racks (seed 9201); figures in models/HISTORY.md (tenth round).
GLARE_LEVEL = 250
GLARE_SHARE = 0.5
GLARE_WARNING = "washed out by glare"
GLARE_MESSAGE = "glare washes out part of the tiles: tiles there may be misread or missed; tilt the phone or turn off the flash"
# A blurred photo (issue 10, sixteenth round): a hand that moves in a long exposure, or a phone that did not focus.
# Each tile's sharpness is 1 − its blur effect (Crété-Roffet et al., 2007: how little a 9-px box filter along a
# line still smooths the face, drawn 64 px high), along the more blurred of its two axes; a photo whose median tile
# is under BLURRED_BELOW says so (BLUR_MESSAGE) and its tiles are sure only from BLURRED_SURE_FROM.  Tiles under
# BLUR_TILE_FROM px high are not measured (drawn larger they look blurred).  Chosen on the dev racks, as rendered and
# smeared (scripts/eval_vision.py --shake): photos under 0.45 read 68-86 % right, the others 98 %; in them a sure
# bar of 0.9 leaves 0 of 4 and 1 of 9 sure misreads (--shake 8, 12) for 60 more taps, and 3 more on the racks as
# rendered.  Figures in models/HISTORY.md (sixteenth round).
BLURRED_BELOW = 0.45
BLURRED_SURE_FROM = 0.9
# A blurred tile in a photo sharp enough on the whole (issue 10, twenty-fifth round): the far tier out of focus, a
# photo just sharp enough not to be said blurred.  A tile whose own sharpness is under TILE_BLURRED_BELOW is sure only
# from BLURRED_SURE_FROM, and says so (TILE_BLUR_WARNING) where the photo does not.  Chosen on the tuning and dev racks
# (seeds 9201, 9101), as rendered and smeared (--shake 8, 12): of their 9 sure misreads it flags 5, for 4 more taps on
# 1,856 sure tiles as rendered and 35 on 2,754 smeared (0.55: the same 5 for 8 and 62; 0.6: 6 for 25 and 75).
# Figures in models/HISTORY.md (twenty-fifth round).
TILE_BLURRED_BELOW = 0.5
TILE_BLUR_WARNING = "blurred"
BLUR_TILE_FROM = 40
BLUR_SIDE = 64
BLUR_MESSAGE = "blurred photo (the phone moved, or did not focus): hold the phone still and retake it"
# A photo whose colours were strengthened (FAINT_COLOURS_MESSAGE, issue 10, eighteenth round): a numbered tile there is
# sure only where its colour is read at FAINT_COLOUR_SURE or more (the classifier's and the ink's looks together).
# Both looks are taken on the strengthened inks and can agree on the wrong colour.  Chosen on the dev racks (seed
# 9101) and the racks rendered in 3-D (scripts/render_racks_3d.py, tilted, seed 9801): of their 5 sure misreads, 4 lay
# in such photos, all colours; this bar leaves 1 of the 5 for 15 more taps on right tiles (0.9: 2 for 8; a bar on the
# tile's whole confidence at 0.95 also left 1, for 99 taps, and tripled the taps on photos all taken in dim light).
# Figures in models/HISTORY.md (eighteenth round).
FAINT_COLOUR_SURE = 0.95
# A tile cut by the frame with less than this share of a typical tile's box inside the photo is
# "mostly outside" (the renderer labels a tile when 60 % of its face is in the frame).
IN_FRAME = 0.6
# A tile cut by the frame to less than this share of a typical tile's box is never sure: its number may run out of
# the photo (at the seam of a rack taken in two photos an 11 reads as a 1).  Chosen on the tuning racks, as taken
# and read in halves (scripts/eval_vision.py --halves 0.6): sure extra boxes 4 → 1 and 6 → 2; on the dev racks in
# halves 7 → 2, check 8 → 2, for 1-2.5 % more right tiles flagged; the real held-out photos unchanged.
CUT_SURE_FROM = 0.8
# Two boxes read as the same tile closer than this (a share of the row's tile width; of the short side
# for loose tiles) are one tile found twice.  Measured on the rendered racks and scenes: such twins
# 0.04-0.62 apart (17 of 23 below 0.5), two distinct tiles read alike at least 0.64 in rows, 0.56 loose.
# A box in a row that close to a surer box is dropped whatever it reads when it is flagged or lies half inside
# the other (issue 10, ninth round): on the tuning racks extra boxes 14 → 10, dev 11 → 6, check 24 → 19, not
# one right tile lost.  Other sure boxes are kept (a glare-swollen box can lie half a width from its
# neighbour: both are tiles).
# In a row the distance is taken along the row and across it (tenth round): on a rack turned 30-60° the detector
# can put a second box on a tile shifted across the row, up to 0.52 of a width (and at most 0.38 along), while
# a tile of the other tier stands at least 0.69 across, a neighbour in the row at least 0.61 along.  Such a box
# often falls out of the row itself, so one of the two in a row is enough.  Extra boxes on the tuning racks
# 10 → 9, dev 6 → 6, check 19 → 11; no right tile lost.
TWIN_IN_ROW = 0.5
TWIN_ACROSS = 0.6
TWIN_LOOSE = 0.35
TWIN_INSIDE = 0.5
# Set aside only below these confidences (chosen on the tuning renders, seed 9201, and the older
# synthetic dev scenes: a faint or partly hidden real tile reads above them).
FACE_DOWN_BELOW = 0.15
FACE_DOWN_AS_F_BELOW = 0.35
OUTSIDE_BELOW = 0.5


@dataclass(frozen=True)
class DetectedTile:
    """One tile found in a photo; ``box`` is (x1, y1, x2, y2) in the EXIF-corrected image's pixels."""

    tile: str
    box: tuple[int, int, int, int]
    confidence: float
    low_confidence: bool
    upside_down: bool
    warnings: tuple[str, ...]
    other_colour: str | None = None
    """Where the tile's colour is in doubt, the colour it may be instead (the photo page offers it, for a tap)."""

    def __repr__(self) -> str:
        return f"{self.tile}@{list(self.box)}{'?' if self.low_confidence else ''}"

    def to_dict(self) -> dict[str, Any]:
        return {"tile": self.tile, "box": list(self.box), "confidence": self.confidence,
                "low_confidence": self.low_confidence, "upside_down": self.upside_down, "warnings": list(self.warnings),
                "other_colour": self.other_colour}


@dataclass(frozen=True)
class Recognition:
    """Every tile read from one photo, in reading order, plus photo-level warnings."""

    tiles: tuple[DetectedTile, ...]
    warnings: tuple[str, ...]
    elapsed_ms: float
    width: int
    height: int
    set_aside: tuple[DetectedTile, ...] = ()
    """Boxes that look like tiles but are not read: unreadable and face down (no ink on the face) or mostly
    outside the photo.  They are not in ``tiles``; a warning counts them, so nothing goes unsaid."""
    photo: np.ndarray | None = field(default=None, repr=False, compare=False)
    """The photo as it was read (BGR, upright, at the working size): what the photo page shows under the boxes
    (``vision.imageio.preview``) without decoding the upload again.  Not in :meth:`to_dict`."""

    @property
    def notation(self) -> str:
        """The tiles read, space separated: ``"R7 R8 F"``."""
        return " ".join(tile.tile for tile in self.tiles)

    def to_dict(self, image: str | None = None) -> dict[str, Any]:
        return {"image": image, "tiles": [tile.to_dict() for tile in self.tiles], "warnings": list(self.warnings),
                "elapsed_ms": self.elapsed_ms, "width": self.width, "height": self.height,
                "set_aside": [tile.to_dict() for tile in self.set_aside]}


class Recognizer:
    """Holds the detector and classifier sessions; :meth:`recognize` is stateless and thread-safe."""

    def __init__(self, models_dir: Path = MODELS_DIR, threads: int = 2, turns: int = 4, rack_prior: bool = True,
                 read_numbers: bool = True, check_ink: bool = True, fill_rows: bool = True,
                 strengthen: bool = True, reduce: bool = True, far_shots: bool = True, check_blur: bool = True,
                 read_closer: bool = True, faint_bar: bool = True, second_look: bool = True,
                 table_detector: bool = True) -> None:
        self.turns = turns
        self.faint_bar = faint_bar
        self.reduce = reduce
        self.check_blur = check_blur
        self.far_shots = far_shots
        self.read_closer = read_closer
        self.strengthen = strengthen
        self.rack_prior = rack_prior
        self.fill_rows = fill_rows
        options = _session_options(threads)
        providers = ["CPUExecutionProvider"]
        # A detector sees a photo of another size each time (its long side 512 px, the other side as the photo is): a
        # memory pattern, planned and kept for each input shape, only piles up.  Without them the two detectors peak at
        # 348 MB and the racks' alone at 316 MB; with them one took 334 MB and two 387 MB (the 26 test photos).
        found = _session_options(threads, memory_patterns=False)
        self._detector = ort.InferenceSession(str(models_dir / "detector.onnx"), found, providers=providers)
        table = models_dir / TABLE_DETECTOR
        self._table = (ort.InferenceSession(str(table), found, providers=providers)
                       if table_detector and table.is_file() else None)
        self._classifier = ort.InferenceSession(str(models_dir / "classifier.onnx"), options, providers=providers)
        second = models_dir / SECOND_CLASSIFIER
        self._second = (ort.InferenceSession(str(second), options, providers=providers)
                        if second_look and second.is_file() else None)
        reader = models_dir / NUMBER_READER
        self._numbers = NumberReader(reader, options) if read_numbers and reader.is_file() else None
        ink = models_dir / INK_MODEL
        self._ink = InkColour(ink) if check_ink and ink.is_file() else None
        if self._ink is not None and self._ink.colours != COLOURS:
            raise ValueError(f"{ink} orders its colours {self._ink.colours}, the classifier {COLOURS}")

    @classmethod
    def default(cls, second_look: bool = True) -> Recognizer:
        """The shared recogniser over ``models/*.onnx``, loaded once per process (once for each ``second_look``)."""
        return _default_recognizer(second_look)

    @property
    def reads_tables(self) -> bool:
        """Whether photos of melds laid on the table are found with their own detector (``TABLE_DETECTOR``)."""
        return self._table is not None

    def on_table(self) -> Recognizer:
        """This recogniser as it reads photos of melds laid on the table: the same sessions and settings, its tiles
        found with the table detector (``TABLE_DETECTOR``); itself where the models folder has none."""
        if self._table is None:
            return self
        view = copy.copy(self)
        view._detector = self._table
        return view

    def recognize(self, image: bytes | str | Path | np.ndarray, table: bool = False) -> Recognition:
        """Read every visible tile; raises :class:`vision.ImageError` for uploads that are not usable photos.

        ``table=True``: the photo shows melds laid on the table, not a rack; its tiles are found with the table
        detector where the models folder has one (``TABLE_DETECTOR``), else with the rack detector as any photo."""
        if table and self._table is not None and self._detector is not self._table:
            return self.on_table().recognize(image)
        started = time.perf_counter()
        # A large photo is read at a working size (vision.imageio.WORK_MIN_SIDE), its boxes given in its own pixels.
        photo, width, height = load_photo(image, WORK_MIN_SIDE if self.reduce else 1 << 30)
        boxes, scores = self.find_tiles(photo)
        pixels, place, frame = photo, None, (True, True, True, True)
        # The photo at its full resolution: the whole photo, or a 50 MP one at half its sides (vision.imageio.finest).
        fine = finest(width, height)
        fine_size = decoded_size(width, height, fine)
        if self.read_closer and fine_size[0] > photo.shape[1] and len(boxes):
            # A far shot read at a working size: where the part of the whole photo its tiles lie in has no more pixels
            # than the working size, the tiles are found and read again there, at the photo's full resolution.
            ratio = fine_size[0] / photo.shape[1]
            part = _part_box(boxes * ratio, _median_side(boxes) * ratio, *fine_size)
            if (part[2] - part[0]) * (part[3] - part[1]) <= photo.shape[0] * photo.shape[1]:
                closer, at, edges = _part_of(load_image(image, fine), part)
                found = self.find_tiles(closer)
                if len(found[0]):  # a part that shows no tile at all leaves the working size's reading as it was
                    pixels, place, frame, (boxes, scores) = closer, at, edges, found
        gaps = self.fill_rows_gaps(pixels, boxes) if self.fill_rows else np.zeros((0, 4), np.float32)
        proposed = np.r_[np.zeros(len(boxes), bool), np.ones(len(gaps), bool)]
        boxes, scores = np.concatenate([boxes, gaps]), np.concatenate([scores, np.zeros(len(gaps), np.float32)])
        read, strengthened = self._read_tiles(pixels, boxes, scores, proposed, frame)
        read = _drop_twins(read)
        inside = _in_frame(read)
        # A tile cut by the frame that shows less of itself than a whole tile's box is never sure: its number may
        # run out of the photo (a 12 cut to its 2, an 11 to a 1 at the seam of a rack taken in halves).
        read = tuple(replace(tile, low_confidence=True) if share < CUT_SURE_FROM else tile
                     for tile, share in zip(read, inside))
        sharpness: list[float | None] = _tiles_sharpness(pixels, read) if self.check_blur else [None] * len(read)
        blurred = self.check_blur and _sharpness(sharpness) < BLURRED_BELOW
        read = tuple(_when_blurred(tile, blurred, sharp) for tile, sharp in zip(read, sharpness))
        unread = [_set_aside(tile, share < IN_FRAME) for tile, share in zip(read, inside)]
        aside = tuple(tile for tile, out in zip(read, unread) if out)
        blown = blown_out(pixels)
        tiles = tuple(replace(tile, warnings=(*tile.warnings, GLARE_WARNING)) if under_glare(blown, tile.box) else tile
                      for tile, out in zip(read, unread) if not out)
        warnings = _photo_warnings(tiles, aside, strengthened=strengthened, glare=_glare(blown, tiles), blurred=blurred)
        seen = (pixels.shape[1], pixels.shape[0])
        if place is not None:
            tiles, aside, seen = _shifted(tiles, place), _shifted(aside, place), fine_size
        if (width, height) != seen:
            scale = (width / seen[0], height / seen[1])
            tiles, aside = _scaled(tiles, scale, width, height), _scaled(aside, scale, width, height)
        elapsed = round((time.perf_counter() - started) * 1000, 1)
        return Recognition(tiles, warnings, elapsed, width, height, aside, photo)

    def find_tiles(self, pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Tile boxes (clipped to the image) and detector scores, overlapping duplicates removed.

        The detector learnt tiles of about ``TRAINED_TILE_SIDE`` pixels; when a first look at the usual
        scale finds them much larger (a close-up) or smaller (a whole table far away), it looks again
        at the scale that brings them to that size.  A far shot, whose tiles the first look barely sees or sees
        small, is looked at closer, and where its tiles are too small for the whole photo at any size the detector
        takes, only the part they lie in is looked at (``FEW_TILES``, ``SMALL_AT_FIRST_LOOK``, ``ZOOM_FROM``).
        Then the rack prior (``vision.rack``) merges a tile found as two stacked halves and drops boxes straddling
        two found neighbours.
        """
        boxes, scores = self._detect(pixels, DETECT_LONG_SIDE)
        scale = DETECT_LONG_SIDE / max(pixels.shape[:2])
        first_side, likely = _median_side(boxes) * scale, int((scores >= LIKELY_TILE).sum())
        barely = likely < FEW_TILES and not first_side > TILE_SIDE_RANGE[1]
        unsure_small = first_side < SMALL_AT_FIRST_LOOK and len(scores) and float(scores.mean()) < UNSURE_FIRST_LOOK
        if self.far_shots and (barely or unsure_small):
            closer = self._detect(pixels, RESCALED_LONG_SIDE[1])
            surer = float(closer[1].sum()) - float(scores.sum())
            more = int((closer[1] >= LIKELY_TILE).sum())
            if barely and surer > 0 and (more >= FEW_TILES or surer >= float(scores.sum())):
                boxes, scores = closer
            elif not barely and surer > 0 and more >= MANY_MORE * likely:
                boxes, scores = closer
        side = _median_side(boxes)  # 0 with no box (or only boxes the frame cut to nothing): nothing to rescale by
        if side > 0 and not TILE_SIDE_RANGE[0] <= side * scale <= TILE_SIDE_RANGE[1]:
            wanted = DETECT_LONG_SIDE * TRAINED_TILE_SIDE / (side * scale)
            if self.far_shots and wanted > ZOOM_FROM * RESCALED_LONG_SIDE[1]:
                boxes, scores = self._detect_around(pixels, boxes, side, wanted / max(pixels.shape[:2]))
            else:
                boxes, scores = self._detect(pixels, int(np.clip(wanted, *RESCALED_LONG_SIDE)))
        if self.rack_prior:
            boxes, scores = apply_rack_prior(boxes, scores)
        return boxes, scores

    def strengthen_colours(self, pixels: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """The photo to read the colours of the tiles ``boxes`` on: as it is, or with its colours strengthened
        where its inks are faint (``vision.ink.colour_strength``: a dim room or a phone's low-light processing
        greys blue, red and orange until the classifier reads them black)."""
        if len(boxes) == 0:
            return pixels
        patches = face_patches(pixels, boxes, loose_frames(pixels, boxes, tile_frames(boxes)))
        return self._colour_photo(pixels, patches, [ink_features(patch) for patch in patches])

    def _colour_photo(self, pixels: np.ndarray, patches: list[np.ndarray], features: list[np.ndarray | None]) -> np.ndarray:
        """:meth:`strengthen_colours` from the tiles' face ``patches`` and their ink ``features``, measured already."""
        return strengthen_colours(pixels, patches, colour_strength(features)) if self.strengthen else pixels

    def fill_rows_gaps(self, pixels: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """Boxes for tiles the detector missed in its rows: places between two found tiles of a row or
        past a row's end (``vision.rack.row_gaps``), clipped to the photo, where the classifier sees a tile.
        A place found so is a tile of the row from then on, so a run of missed tiles is filled from its
        ends, up to ``GAP_ROUNDS`` rounds.  Places mostly outside the photo, or overlapping a box, are not looked at."""
        height, width = pixels.shape[:2]
        kept = np.zeros((0, 4), np.float32)
        tried = boxes.astype(np.float32)
        for _ in range(GAP_ROUNDS):
            known = np.concatenate([boxes, kept]).astype(np.float32)
            if len(known) < 3:
                break
            places = row_gaps(known, tile_frames(known, reach=GAP_REACH))
            clipped = np.clip(places, 0, [width, height, width, height]).astype(np.float32)
            inside = _area(clipped) >= IN_FRAME * np.maximum(_area(places), 1e-9)
            new = [box for box, ok in zip(clipped, inside) if ok and float(box_iou(box, tried).max()) < 0.3]
            if not new:
                break
            new_boxes = np.array(new, np.float32)
            tried = np.concatenate([tried, new_boxes])
            kinds, _, _ = self.classify(tile_crops(pixels, new_boxes))
            tile_like = np.array([_tile_like(kind) for kind in kinds], bool)
            if not tile_like.any():
                break
            kept = np.concatenate([kept, new_boxes[tile_like]])
        return kept

    def _detect_around(self, pixels: np.ndarray, boxes: np.ndarray, side: float,
                       scale: float) -> tuple[np.ndarray, np.ndarray]:
        """Detection in the part of the photo ``boxes`` lie in, with ``ZOOM_MARGIN`` times the tiles' ``side``
        around them, at ``scale`` (or as near it as ``RESCALED_LONG_SIDE`` allows), in the photo's pixels."""
        height, width = pixels.shape[:2]
        part, (left, top), _ = _part_of(pixels, _part_box(boxes, side, width, height))
        long_side = int(np.clip(max(part.shape[:2]) * scale, *RESCALED_LONG_SIDE))
        found, scores = self._detect(part, long_side)
        return found + np.array([left, top, left, top], np.float32), scores

    def _detect(self, pixels: np.ndarray, long_side: int) -> tuple[np.ndarray, np.ndarray]:
        tensor, scale = detector_input(pixels, long_side)
        heatmap, size, offset = self._detector.run(None, {"image": tensor})
        boxes, scores = decode_detections(heatmap, size, offset, scale, DETECTION_THRESHOLD)
        keep = suppress_overlaps(boxes, scores)
        height, width = pixels.shape[:2]
        return np.clip(boxes[keep], 0, [width, height, width, height]), scores[keep]

    def read_tiles(self, pixels: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
                   proposed: np.ndarray | None = None) -> tuple[DetectedTile, ...]:
        """Classify each box's crop, read the numbers of tiles in rows, and build the tiles in reading order.
        ``proposed`` marks boxes no detection gave (gaps in a row): kept only where the classifier sees a tile.
        Where the tiles' inks are faint (:meth:`strengthen_colours`), their colours (the classifier's and the
        ink's) are read on the photo with its colours strengthened; what a tile is and its number, on ``pixels``."""
        return self._read_tiles(pixels, boxes, scores, proposed)[0]

    def _read_tiles(self, pixels: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
                    proposed: np.ndarray | None = None,
                    frame: tuple[bool, bool, bool, bool] = (True, True, True, True)) -> tuple[tuple[DetectedTile, ...], bool]:
        """:meth:`read_tiles`, and whether the colours were read on the photo strengthened.  ``frame``: which of
        ``pixels``' edges (left, top, right, bottom) are the photo's frame, which cuts a tile touching it (a part of the
        photo read on its own has edges that are not)."""
        if len(boxes) == 0:
            return (), False
        if proposed is None:
            proposed = np.zeros(len(boxes), bool)
        crops = tile_crops(pixels, boxes)
        kinds, colours, upsides = self.classify(crops)
        # The second classifier's look at the same crops (None where the models have none): kinds and colours.
        second_kinds, second_colours = (None, None) if self._second is None else self.classify(crops, self._second)[:2]
        frames = tile_frames(boxes)  # the rows, once: the number reader and the ink's look both use them
        numbers, no_number, turned = self.read_numbers(pixels, boxes, kinds, upsides[:, 0], frames)
        inks = np.full((len(boxes), len(COLOURS)), np.nan)
        blank = np.zeros(len(boxes), bool)
        features: list[np.ndarray | None] = [None] * len(boxes)
        strengthened = False
        if self._ink is not None or self.strengthen:
            loose = ~np.isfinite(frames[:, 3])
            outlines = loose_frames(pixels, boxes, frames)
            patches = face_patches(pixels, boxes, outlines)
            features = [ink_features(patch) for patch in patches]
            colour_pixels = self._colour_photo(pixels, patches, features)
            strengthened = colour_pixels is not pixels
            if strengthened:
                strong = tile_crops(colour_pixels, boxes)
                _, colours, _ = self.classify(strong)
                if self._second is not None:
                    second_colours = self.classify(strong, self._second)[1]
                features = [ink_features(patch) for patch in face_patches(colour_pixels, boxes, outlines)]
            if self._ink is None:
                features = [None] * len(boxes)  # the blue check below compares the ink's look, left out
            else:
                # Face down is for loose tiles: a tile standing in a row faces the camera (a small or blurred
                # one can show too little ink to measure, and is flagged as unreadable, not set aside).
                inks = self._ink.probabilities(features)
                blank = np.array([f is None for f in features]) & loose
        fused = self._fused_colours(kinds, colours, inks, features, frames, strengthened)
        second = (None if second_kinds is None or second_colours is None
                  else self._fused_colours(second_kinds, second_colours, inks, features, frames, strengthened))
        offered: dict[int, int] = {}
        if second is not None:
            fused, offered = _settled_by_warm_groups(fused, second, kinds, features, frames)
        height, width = pixels.shape[:2]
        colourless = _colourless(pixels)
        found = []
        none = KINDS.index("none")
        for index in reading_order(boxes, _rows_direction(frames)):
            not_a_tile = int(np.argmax(kinds[index])) == none
            if not_a_tile and scores[index] < SURE_DETECTION:
                continue
            if proposed[index] and not _tile_like(kinds[index]):
                continue
            colour, colour_flag = fused[index]
            tile, confidence, disagree = _decode(kinds[index], colour, numbers[index])
            emblem = bool(no_number[index]) and tile not in ("F", "J") and kinds[index][FALSE_OKEY] >= EMBLEM_FROM
            if emblem:
                tile, confidence = "F", round(float(kinds[index][FALSE_OKEY] / max(1 - kinds[index][none], 1e-9)), 4)
            numbered = tile not in ("F", "J")
            if second is not None and second_kinds is not None:
                # The second classifier's reading, with the same ink and number reader, held to the same checks as
                # the first's: the tile is sure only where both read it alike and both are sure (the second from
                # SECOND_SURE_FROM).
                other, other_confidence, other_disagree = _decode(second_kinds[index], second[index][0], numbers[index])
                if (numbered and other == tile and (disagree or other_disagree)
                        and two_digits_held(int(tile[1:]), numbers[index],
                                            [_number_shares(kinds[index]), _number_shares(second_kinds[index])])):
                    disagree = other_disagree = False  # both classifiers hold the two digits the reader saw one of
                disagree = (disagree or other != tile or other_disagree or (numbered and second[index][1])
                            or other_confidence * (1 - float(second_kinds[index][none])) < SECOND_SURE_FROM
                            or (numbered and self._under_faint_bar(strengthened, second[index][0])))
            # Where the colour is in doubt, the colour the tile may be instead: the one the photo's warm groups offer
            # (the first classifier's where they settled it the other way, theirs where they flagged it), the second
            # classifier's where it reads another, else the runner-up of a colour flagged (by the ink's look).
            doubt = None
            if numbered and not colourless:
                shade = int(np.argmax(colour))
                if index in offered:
                    doubt = COLOURS[offered[index]]
                elif second is not None and int(np.argmax(second[index][0])) != shade:
                    doubt = COLOURS[int(np.argmax(second[index][0]))]
                elif colour_flag:
                    doubt = COLOURS[int(np.argsort(-colour)[1])]
            small = _short_side(boxes[index]) < SMALL_TILE
            disagree = (disagree or emblem or (numbered and (colour_flag or bool(no_number[index]) or colourless))
                        or small)
            if numbered and self._under_faint_bar(strengthened, colour):
                disagree = True  # a colour read on faint inks, strengthened: sure only when very sure
            confidence = round(confidence * (1 - float(kinds[index][none])), 4)
            if proposed[index]:
                if confidence < GAP_CONFIDENCE:
                    continue  # a faint reading is no tile to add: on the renders, the rack, a back, a half box
                disagree = True  # the detector did not see it: a tile found from its row is always confirmed by a tap
            # Which way up: the number reader's, where it read a number (it weighs the tile's whole row),
            # else the classifier's up/down.
            upside_down = bool(turned[index] == 1) if np.isfinite(turned[index]) else bool(upsides[index][0] > 0.5)
            x1, y1, x2, y2 = (int(round(float(v))) for v in boxes[index])
            warnings = []
            if _touches_frame(boxes[index], width, height, frame):
                warnings.append(CUT_WARNING)
            if small:
                warnings.append(SMALL_WARNING)
            if upside_down:
                warnings.append(UPSIDE_DOWN_WARNING)
            if (numbered and no_number[index]) or emblem:
                warnings.append(NO_NUMBER_WARNING)
            if numbered and colourless:
                warnings.append(NO_COLOUR_WARNING)  # the colour read is a guess: never a sure tile
            if proposed[index]:
                warnings.append(GAP_WARNING)
            if not_a_tile or (confidence < UNREADABLE_BELOW and not emblem):  # an emblem read F is said as such
                warnings.append(UNREADABLE_WARNING)
                if blank[index]:
                    warnings.append(FACE_DOWN_WARNING)
            found.append(DetectedTile(tile, (x1, y1, x2, y2), confidence, disagree or confidence < LOW_CONFIDENCE,
                                      upside_down, tuple(warnings), doubt))
        return tuple(found), strengthened

    def _under_faint_bar(self, strengthened: bool, colour: np.ndarray) -> bool:
        """Whether a numbered tile's ``colour`` probabilities, read on a photo whose colours were strengthened (or
        not), are under the bar a colour read on faint inks must pass to be sure (``FAINT_COLOUR_SURE``)."""
        return strengthened and self.faint_bar and float(np.max(colour)) < FAINT_COLOUR_SURE

    @staticmethod
    def _fused_colours(kinds: np.ndarray, colours: np.ndarray, inks: np.ndarray, features: list[np.ndarray | None],
                       frames: np.ndarray, strengthened: bool) -> list[tuple[np.ndarray, bool]]:
        """Each tile's colour probabilities (the classifier's ``colours`` and the ink's look together) and whether
        its colour must be flagged for a tap: the two looks disagree, or its ink lies where another colour's does
        among the photo's tiles in rows (``features``: each tile's ink, None where not measured).

        The two looks' product says which group of inks each tile joins for the photo's checks below; where the ink
        alone moved the likeliest colour away from the classifier's, the tile is flagged and offered in the
        classifier's colour (measured on the 3-D racks: of 36 such tiles the classifier was right on 25, the
        product on 9; on the 2.5-D dev and check racks 2 and 2)."""
        fused = [fuse_colour(colours[index], inks[index]) for index in range(len(kinds))]
        moved = {index for index, (colour, _) in enumerate(fused)
                 if int(np.argmax(colour)) != int(np.argmax(colours[index]))}
        # A tile standing in a row read black whose ink is bluer than the other blacks in the photo's rows:
        # flagged, and read blue where the gap is wide and five blacks or more were compared (its blue and black
        # probabilities swapped; with four, a black may lie far from the median of three others).  Loose
        # tiles are left out: each one's face is measured in its own outline, at its own angle and light.
        blue, black, red = COLOURS.index("B"), COLOURS.index("K"), COLOURS.index("R")
        read_as = _read_in_rows(kinds, fused, frames)
        bluer = bluer_than_black(features, read_as == black)
        switch = int(np.isfinite(bluer).sum()) > BLUER_SWITCH_AMONG  # enough blacks compared to read one blue
        for index in np.flatnonzero(bluer <= -BLUER_FLAG):
            colour = fused[index][0].copy()
            if switch and bluer[index] <= -BLUER_SWITCH:
                colour[[blue, black]] = colour[[black, blue]]
                moved.discard(index)  # read blue by the photo's blacks, not by the ink's look alone
            fused[index] = (colour, True)
        # The looks below flag a tile and leave its reading as it is.  A tile in a row read black whose ink lies as near
        # the blues of the photo's rows as a blue's may (the reference here is the blues, not the other blacks: on a
        # rack of navy blues the light greys, those read black are the most of the "blacks").
        doubtful = near_the_blues(features, read_as == black, read_as == blue) < NEAR_BLUES
        # A tile in a row read black whose ink lies over a third of the way from the other blacks to the blues: it needs
        # only two other blacks and one blue, where the looks above can have too few (a small rack in a far photo).
        doubtful |= towards_the_blues(features, read_as == black, read_as == blue) > TOWARDS_BLUE
        # A tile in a row read red whose ink's hue lies well towards yellow from the other reds' (a yellow-orange the
        # light greys towards red).  (A tile the blue check moved was read black, never red, so the colours read before
        # it serve here too.)
        hues = ink_hues(features)
        read_red, read_yellow = read_as == red, read_as == COLOURS.index("Y")
        doubtful |= (yellower_than_red(hues, read_red) >= YELLOWER_FLAG) & (hues >= YELLOWER_FROM)
        # A tile in a row read red whose hue lies over a third of the way from the other reds to the yellows, or a tile
        # read yellow whose ink is darker than the reds' (a red a warm lamp turns towards yellow, or the reverse): both
        # compare a tile with the photo's own two groups, whatever the light.
        in_hue = towards_the_yellows(hues, read_red, read_yellow)
        doubtful |= in_hue > TOWARDS_YELLOW
        # A tile in a row read red lying part of the way towards the yellows in hue and half the way in brightness:
        # two looks each too weak alone agree (a yellow in a rack's lower tier, in the table's pink bounce light).
        brightness = ink_brightness(features)
        doubtful |= ((in_hue > PART_WAY_IN_HUE)
                     & (brighter_towards_the_yellows(brightness, read_red, read_yellow) > HALF_WAY_IN_BRIGHTNESS))
        doubtful |= as_dark_as_the_reds(features, read_yellow, read_red) < DARK_AS_RED
        # Where fewer than two reds are left to compare with (a warm lamp read the others yellow), a tile read yellow
        # both darker than the photo's other yellows and well towards red from them.
        doubtful |= ((among_the_yellows(brightness, read_yellow, read_red) < DARKER_THAN_YELLOWS)
                     & (among_the_yellows(hues, read_yellow, read_red) < REDDER_THAN_YELLOWS))
        # A tile in a row read yellow whose ink is as dark as the blacks of the photo's rows (a black a warm lamp tints
        # towards yellow), or, where the photo's colours were strengthened, darker than a yellow ink is.
        doubtful |= as_dark_as_the_blacks(features, read_yellow, read_as == black) < DARK_AS_BLACK
        if strengthened:
            doubtful |= read_yellow & (brightness < DARKEST_YELLOW)
        for index in np.flatnonzero(doubtful):
            fused[index] = (fused[index][0], True)
        for tile in moved:
            fused[tile] = (colours[tile], True)
        return fused

    def read_numbers(self, pixels: np.ndarray, boxes: np.ndarray, kinds: np.ndarray,
                     upside_down: np.ndarray,
                     frames: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """P(number = 1…13) from the number reader for each box the classifier takes for a numbered tile
        standing in a row (N×13; NaN rows where not read or where the crop shows no number); whether
        the reader read the box and saw no number at all there (N booleans: a false okey's emblem); and
        whether the number it read is the tile upside down (N: 1 or 0, NaN where it read no number or
        cannot tell up from down)."""
        numbers, turned = np.full((len(boxes), len(NUMBERS)), np.nan), np.full(len(boxes), np.nan)
        if self._numbers is None:
            return numbers, np.zeros(len(boxes), bool), turned
        numbered = np.flatnonzero(np.argmax(kinds, 1) < len(NUMBERS))
        posteriors, likelihood, way = self._numbers.read(pixels, boxes, numbered, upside_down, frames)
        readable = likelihood >= READ_LIKELIHOOD
        numbers[readable], turned[readable] = posteriors[readable], way[readable]
        return numbers, np.isfinite(posteriors).all(1) & (likelihood < NO_NUMBER_BELOW), turned

    def classify(self, crops: np.ndarray, classifier: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Class probabilities averaged over the four quarter turns of each crop (the classifier is trained
        to read a tile at any angle, so the turns are four looks at the same tile); ``classifier``: a session
        other than the first classifier's."""
        count = len(crops)
        turned = np.concatenate([np.rot90(crops, turn, axes=(2, 3)) for turn in range(self.turns)])
        session = self._classifier if classifier is None else classifier
        kinds, colours, upsides = session.run(None, {"crops": np.ascontiguousarray(turned)})
        kind = kinds.reshape(self.turns, count, -1).mean(0)
        colour = colours.reshape(self.turns, count, -1).mean(0)
        # Up and down swap under a half turn; a quarter turn says nothing about them.
        upside = upsides[:count] if self.turns < 3 else (upsides[:count] + 1 - upsides[2 * count : 3 * count]) / 2
        return kind, colour, upside


def _number_shares(kind: np.ndarray) -> np.ndarray:
    """The classifier's ``kind`` probabilities → its P(number) over 1…13, summing to 1."""
    numbered = kind[: len(NUMBERS)]
    shares: np.ndarray = numbered / max(float(numbered.sum()), 1e-9)
    return shares


def _decode(kind: np.ndarray, colour: np.ndarray, number: np.ndarray) -> tuple[str, float, bool]:
    """The classifier's kind and colour and the number reader's P(number) (NaN: not read) → (tile,
    confidence, whether classifier and reader disagree on the number).  Colour, false okey and joker
    are the classifier's alone."""
    tile, confidence = decode_tile(kind, colour)
    if tile in ("F", "J") or not np.isfinite(number).all():
        return tile, confidence, False
    tile_kinds = kind[: KINDS.index("none")]
    numbered = tile_kinds[: len(NUMBERS)]
    value, p, disagree = fuse_number(_number_shares(kind), number)
    shade = int(np.argmax(colour))
    share = float(numbered.sum() / max(float(tile_kinds.sum()), 1e-9))
    return f"{COLOURS[shade]}{value}", round(p * share * float(colour[shade]), 4), disagree


def _scaled(tiles: tuple[DetectedTile, ...], scale: tuple[float, float], width: int, height: int) -> tuple[DetectedTile, ...]:
    """``tiles`` with their boxes scaled by ``scale`` (x, y) into a photo of ``width`` × ``height``."""
    def box(x1: int, y1: int, x2: int, y2: int) -> tuple[int, int, int, int]:
        return (min(round(x1 * scale[0]), width), min(round(y1 * scale[1]), height),
                min(round(x2 * scale[0]), width), min(round(y2 * scale[1]), height))
    return tuple(replace(tile, box=box(*tile.box)) for tile in tiles)


def _median_side(boxes: np.ndarray) -> float:
    """The median of the boxes' long sides (0 for no box)."""
    return float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]))) if len(boxes) else 0.0


def _short_side(box: np.ndarray) -> float:
    return float(min(box[2] - box[0], box[3] - box[1]))


def _touches_frame(box: np.ndarray, width: int, height: int,
                   frame: tuple[bool, bool, bool, bool] = (True, True, True, True)) -> bool:
    """Whether ``box`` touches an edge of a ``width`` × ``height`` image that is the photo's ``frame`` (left, top,
    right, bottom)."""
    margin = 0.004 * max(width, height) + 1
    left, top, right, bottom = frame
    return bool((left and box[0] <= margin) or (top and box[1] <= margin) or (right and box[2] >= width - margin)
                or (bottom and box[3] >= height - margin))


def _part_box(boxes: np.ndarray, side: float, width: int, height: int) -> tuple[int, int, int, int]:
    """The part (x1, y1, x2, y2) of a ``width`` × ``height`` photo that ``boxes`` lie in, with ``ZOOM_MARGIN`` times
    the tiles' ``side`` around them, within the photo."""
    left, top = np.maximum(np.floor(boxes[:, :2].min(0) - ZOOM_MARGIN * side), 0).astype(int)
    right, bottom = np.minimum(np.ceil(boxes[:, 2:].max(0) + ZOOM_MARGIN * side), [width, height]).astype(int)
    return int(left), int(top), int(right), int(bottom)


def _part_of(whole: np.ndarray, part: tuple[int, int, int, int]
             ) -> tuple[np.ndarray, tuple[int, int], tuple[bool, bool, bool, bool]]:
    """The ``part`` (x1, y1, x2, y2) of the photo ``whole``; where its top left corner lies in the photo; and which of
    its edges (left, top, right, bottom) are the photo's."""
    left, top, right, bottom = part
    height, width = whole.shape[:2]
    return (whole[top:bottom, left:right], (left, top),
            (left == 0, top == 0, right == width, bottom == height))


def _shifted(tiles: tuple[DetectedTile, ...], place: tuple[int, int]) -> tuple[DetectedTile, ...]:
    """``tiles`` found in a part of the photo whose top left corner is at ``place``, with their boxes in the photo's
    pixels."""
    dx, dy = place
    return tuple(replace(tile, box=(tile.box[0] + dx, tile.box[1] + dy, tile.box[2] + dx, tile.box[3] + dy))
                 for tile in tiles)


def _rows_direction(frames: np.ndarray) -> float:
    """The direction the tiles are read along (:func:`vision.postprocess.reading_order`): the rows' (``tile_frames``),
    where three tiles or more stand in rows running within 45° of across the photo; else across the photo."""
    in_row = np.isfinite(frames[:, 3])
    if int(in_row.sum()) < 3 or abs(float(frames[in_row][0, 2])) > math.pi / 4:
        return 0.0
    return float(frames[in_row][0, 2])


def _drop_twins(tiles: tuple[DetectedTile, ...]) -> tuple[DetectedTile, ...]:
    """The tiles without a second box on the same tile: two boxes read as the same tile whose centres are
    closer than ``TWIN_IN_ROW`` of the row's tile width along the row and ``TWIN_ACROSS`` across it, where
    either is in a row (two tiles standing side by side are a whole width apart: a pair on a rack stays two
    tiles; the other tier is further across), or for loose tiles ``TWIN_LOOSE`` of the smaller box's short
    side.  In a row, a flagged box that close to a more confident one is the same tile too,
    whatever it reads (a box on half of a tile, or across it and the gap beside it: an R12 half read as
    R2), and so is a box lying at least half (``TWIN_INSIDE``) inside the other and read in its colour (a sure box
    read in another colour is another tile: on a rack turned 60°, a tile of the front tier can stand half inside the
    box of one behind it; measured on the 3-D renders, a B6 read sure was dropped for the R4 behind it, and no other
    box was dropped that way).  The more confident box stays."""
    if len(tiles) < 2:
        return tiles
    boxes = np.array([t.box for t in tiles], np.float32)
    frames = tile_frames(boxes)
    in_row = np.isfinite(frames[:, 3])
    width = float(np.median(frames[in_row, 3])) if in_row.any() else math.nan
    angle = float(frames[0, 2]) if in_row.any() else 0.0
    direction = np.array([math.cos(angle), math.sin(angle)], np.float32)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    short = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    dropped: set[int] = set()
    order = sorted(range(len(tiles)), key=lambda k: -tiles[k].confidence)
    for position, i in enumerate(order):
        if i in dropped:
            continue
        for j in order[position + 1:]:
            if j in dropped:
                continue
            if tiles[j].tile != tiles[i].tile and not (in_row[i] and in_row[j] and (
                    tiles[j].low_confidence or (inside_share(boxes[j], boxes[i]) >= TWIN_INSIDE
                                                and tiles[j].tile[0] == tiles[i].tile[0]))):
                continue
            offset = centres[j] - centres[i]
            if in_row[i] or in_row[j]:
                along = abs(float(offset @ direction))
                across = abs(float(offset[1] * direction[0] - offset[0] * direction[1]))
                twin = along < TWIN_IN_ROW * width and across < TWIN_ACROSS * width
            else:
                twin = float(np.linalg.norm(offset)) < TWIN_LOOSE * float(min(short[i], short[j]))
            if twin:
                dropped.add(j)
    return tuple(t for k, t in enumerate(tiles) if k not in dropped)


def _tile_like(kind: np.ndarray) -> bool:
    """Whether the classifier's kind probabilities show a tile at a place no detection gave: "none" is
    not its likeliest reading and has less than ``GAP_NONE_BELOW``."""
    none = KINDS.index("none")
    return int(np.argmax(kind)) != none and float(kind[none]) < GAP_NONE_BELOW


def _area(boxes: np.ndarray) -> np.ndarray:
    return np.asarray((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]))


def blown_out(pixels: np.ndarray) -> np.ndarray:
    """The photo's blown-out pixels (every channel at least ``GLARE_LEVEL``): a 0/255 ``uint8`` mask."""
    return cv2.inRange(pixels, (GLARE_LEVEL,) * 3, (255,) * 3)


def under_glare(blown: np.ndarray, box: Any) -> bool:
    """Whether at least ``GLARE_SHARE`` of the box is blown out (``blown``: :func:`blown_out` of the photo).

    >>> blown = np.zeros((100, 100), np.uint8)
    >>> blown[:, :50] = 255
    >>> under_glare(blown, (0, 0, 100, 100)), under_glare(blown, (40, 0, 100, 100)), under_glare(blown, (-9, -9, -1, -1))
    (True, False, False)
    """
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    patch = blown[max(y1, 0) : max(y2, 0), max(x1, 0) : max(x2, 0)]
    return patch.size > 0 and float(patch.mean()) >= GLARE_SHARE * 255


def _glare(blown: np.ndarray, tiles: tuple[DetectedTile, ...]) -> bool:
    """Whether glare washes out a tile read in the photo, or a blown-out patch at least ``GLARE_SHARE`` of a tile
    lies within a tile's short side of a read tile (where a tile may stand unfound: a whole tile blown out is
    never detected)."""
    if any(GLARE_WARNING in tile.warnings for tile in tiles):
        return True
    if not tiles:
        return False
    boxes = np.array([tile.box for tile in tiles], np.float32)
    sides = boxes[:, 2:] - boxes[:, :2]
    tile_area, reach = float(np.median(sides.prod(1))), float(np.median(sides.min(1)))
    if cv2.countNonZero(blown) < GLARE_SHARE * tile_area:
        return False
    count, _, stats, centres = cv2.connectedComponentsWithStats(blown, connectivity=8)
    for k in range(1, count):
        if stats[k, cv2.CC_STAT_AREA] < GLARE_SHARE * tile_area:
            continue
        outside = np.maximum(np.maximum(boxes[:, :2] - centres[k], centres[k] - boxes[:, 2:]), 0)
        if float(np.hypot(outside[:, 0], outside[:, 1]).min()) <= reach:
            return True
    return False


def tile_sharpness(grey: np.ndarray, box: tuple[float, float, float, float]) -> float | None:
    """How sharp a tile's face is, 0 (blurred) to 1: one minus its blur effect along the more blurred of the two axes
    (the share of its neighbouring pixels' differences that a 9-px box filter along that axis leaves), the face drawn
    ``BLUR_SIDE`` px high; ``None`` for a tile under ``BLUR_TILE_FROM`` px high or a face with no contrast.

    >>> face = np.full((80, 60), 230, np.uint8); face[15:60, 25:35] = 30   # a dark stroke on an ivory face
    >>> sharp = tile_sharpness(face, (0, 0, 60, 80)); smeared = tile_sharpness(cv2.blur(face, (9, 1)), (0, 0, 60, 80))
    >>> sharp > 0.6 > BLURRED_BELOW > smeared, tile_sharpness(face, (0, 0, 30, 30))
    (True, None)
    """
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    face = grey[max(y1, 0) : max(y2, 0), max(x1, 0) : max(x2, 0)]
    if face.shape[0] < BLUR_TILE_FROM or face.shape[1] < 4:
        return None
    scale = BLUR_SIDE / face.shape[0]
    face = cv2.resize(face, None, fx=scale, fy=scale,
                      interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR).astype(np.float32)
    blur = 0.0
    for axis, kernel in ((1, (9, 1)), (0, (1, 9))):
        smoothed = cv2.blur(face, kernel, borderType=cv2.BORDER_REFLECT)
        before, after = np.abs(np.diff(face, axis=axis)), np.abs(np.diff(smoothed, axis=axis))
        total = float(before.sum())
        if total <= 0:
            return None
        blur = max(blur, 1 - float(np.maximum(before - after, 0).sum()) / total)
    return 1 - blur


def _tiles_sharpness(pixels: np.ndarray, tiles: tuple[DetectedTile, ...]) -> list[float | None]:
    """Each tile's :func:`tile_sharpness` in the photo ``pixels``."""
    grey = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY) if pixels.ndim == 3 else pixels
    return [tile_sharpness(grey, tile.box) for tile in tiles]


def _sharpness(sharpness: list[float | None]) -> float:
    """The photo's sharpness: the median of its tiles' (1 where no tile can be measured)."""
    values = [v for v in sharpness if v is not None]
    return float(np.median(values)) if values else 1.0


def _when_blurred(tile: DetectedTile, photo_blurred: bool, sharpness: float | None) -> DetectedTile:
    """``tile``, unsure under ``BLURRED_SURE_FROM`` when the photo is blurred or the tile is (its own ``sharpness``
    under ``TILE_BLURRED_BELOW``); a blurred tile in a photo not said blurred says so itself.

    >>> tile = DetectedTile("R7", (0, 0, 60, 80), 0.85, False, False, ())
    >>> _when_blurred(tile, False, 0.7) == tile, _when_blurred(tile, True, None).low_confidence
    (True, True)
    >>> unsure = _when_blurred(tile, False, 0.3); unsure.low_confidence, unsure.warnings
    (True, ('blurred',))
    >>> _when_blurred(replace(tile, confidence=0.95), False, 0.3).low_confidence
    False
    """
    own = sharpness is not None and sharpness < TILE_BLURRED_BELOW
    if tile.confidence >= BLURRED_SURE_FROM or not (photo_blurred or own):
        return tile
    return replace(tile, low_confidence=True,
                   warnings=tile.warnings if photo_blurred else (*tile.warnings, TILE_BLUR_WARNING))


def _read_in_rows(kinds: np.ndarray, fused: list[tuple[np.ndarray, bool]], frames: np.ndarray) -> np.ndarray:
    """The colour (its index in ``COLOURS``) each numbered tile standing in a row is read in, -1 for the others (a
    false okey, a joker, no tile, a loose tile): the tiles the photo's colour checks compare."""
    read = np.array([int(np.argmax(colour)) if int(np.argmax(kind)) < len(NUMBERS) else -1
                     for kind, (colour, _) in zip(kinds, fused)])
    read[~np.isfinite(frames[:, 3])] = -1
    return read


FLAG_AGAINST_WARM_GROUPS = True
"""Whether a tile both classifiers read red (or yellow) where the photo's two groups of warm inks put it with the
yellows (or reds) is flagged for a tap (``_settled_by_warm_groups``; fortieth round); off only to measure it."""


def _settled_by_warm_groups(fused: list[tuple[np.ndarray, bool]], second: list[tuple[np.ndarray, bool]],
                            kinds: np.ndarray, features: list[np.ndarray | None],
                            frames: np.ndarray) -> tuple[list[tuple[np.ndarray, bool]], dict[int, int]]:
    """The first classifier's colours (``fused``, with their flags) as the photo's own two groups of warm inks
    (``warm_groups``) say, and for each tile they touch the colour to offer instead at its tap.

    A set prints every red alike, so under a lamp that reads the reds of a rack yellow (or its oranges red) their inks
    still lie together, darker and redder than the yellows'.  Where the two classifiers read a numbered tile in a row
    red and yellow, one each, the group settles which (the tile stays flagged, the first's colour offered).  Measured
    (``scripts/eval_vision.py``, thirty-seventh round): it moved 24 tiles, every one a red read yellow now read right,
    and none the other way: 11 on the ten 3-D sets (whose tiles each took an ink from every set's spread), 8 on the
    three 3-D sets printed with one ink a colour (``render_racks_3d.py --set-inks``, seeds 9701-9703; 9701 was the one
    looked at while choosing ``WARM_MARGIN``), 1 each on the 2.5-D dev, fresh and unseen-font racks, none on the check
    racks or the real held-out photos; on the README's stress sets 19 more reds mended and one yellow read red (flagged,
    in a photo with fewer pixels).

    Where both classifiers read a tile the colour its group says it is not, the tile is flagged for a tap with the
    group's colour offered, its reading left as it is: a tile is never moved to a colour neither classifier read.
    Measured (fortieth round): of the sure tiles it flags, 6 were wrong (4 oranges read red in one photo under a
    window's daylight, ``render_racks_3d.py --unseen-light``, and 2 on the 3-D sets) and about 20 right (9 of 5,411
    on the ten 3-D sets, 1 on the one-ink sets, 8 on the 2.5-D dev, check, fresh and unseen-font racks, 2 of 346 on
    the real held-out photos).  Since the forty-second round the groups tell a tile along the line between them and,
    where their hues lie too near, by brightness alone (``warm_groups``): 7 more sure mistakes flagged on the two 3-D
    sets of what no training rack had (chosen on), one more right tile flagged on the 2.5-D dev racks."""
    red, yellow = COLOURS.index("R"), COLOURS.index("Y")
    first_read = _read_in_rows(kinds, fused, frames)
    second_read = np.array([int(np.argmax(colour)) for colour, _ in second])
    warm = np.isin(first_read, (red, yellow))
    if warm.sum() < WARM_GROUPS_FROM:
        return fused, {}  # too few warm inks to split (a few milliseconds saved)
    groups = warm_groups(ink_hues(features), ink_brightness(features), warm)
    settled, offered = list(fused), {}
    for index in np.flatnonzero(groups >= 0):
        wanted = (red, yellow)[int(groups[index])]
        if first_read[index] == wanted:
            continue
        if second_read[index] == wanted:
            colour = fused[index][0].copy()
            colour[[red, yellow]] = colour[[yellow, red]]
            settled[index] = (colour, True)
            offered[int(index)] = int(first_read[index])
        elif second_read[index] == first_read[index] and FLAG_AGAINST_WARM_GROUPS:
            settled[index] = (fused[index][0], True)
            offered[int(index)] = wanted
    return settled, offered


def _colourless(pixels: np.ndarray) -> bool:
    """Whether the photo shows no colour at all (greyscale), so no tile's colour can be read from it."""
    thumbnail = cv2.resize(pixels, (128, 96), interpolation=cv2.INTER_AREA).astype(np.int16)
    return bool(np.percentile(thumbnail.max(2) - thumbnail.min(2), 99) < COLOURLESS_BELOW)


def _in_frame(tiles: tuple[DetectedTile, ...]) -> list[float]:
    """For each tile cut by the frame, how much of a typical tile of the photo is in it (its box, clipped by
    the frame, against the median box: the smaller of the two sides' shares); 1 for a tile not cut."""
    if not tiles:
        return []
    sizes = np.array([(t.box[2] - t.box[0], t.box[3] - t.box[1]) for t in tiles], np.float64)
    typical = np.median(sizes, 0)
    share = (sizes / np.maximum(typical, 1.0)).min(1)
    return [float(s) if CUT_WARNING in t.warnings else 1.0 for t, s in zip(tiles, share)]


def _set_aside(tile: DetectedTile, mostly_outside: bool) -> bool:
    """A box read with almost no confidence that has no ink on its face (a face-down tile, the back of
    one, a blank) or lies mostly outside the photo: not a tile to read, and a guess at it would only be
    a tile to delete."""
    if FACE_DOWN_WARNING in tile.warnings:
        # A plain face read as the false okey (whose emblem would show ink) is the back of a tile.
        return tile.confidence < (FACE_DOWN_AS_F_BELOW if tile.tile == "F" else FACE_DOWN_BELOW)
    return mostly_outside and tile.confidence < OUTSIDE_BELOW


def _photo_warnings(tiles: tuple[DetectedTile, ...], aside: tuple[DetectedTile, ...] = (),
                    strengthened: bool = False, glare: bool = False, blurred: bool = False) -> tuple[str, ...]:
    if not tiles:
        return ("no tiles found: hold the camera closer, with the tiles face up and well lit",)
    warnings = []
    if strengthened:
        warnings.append(FAINT_COLOURS_MESSAGE)
    if any(NO_COLOUR_WARNING in tile.warnings for tile in tiles):
        warnings.append("no colour in the photo: the colours are guesses, confirm each tile or retake the photo in colour")
    if aside:
        warnings.append(f"{len(aside)} tile(s) set aside unread: face down, or mostly outside the photo")
    cut = sum(CUT_WARNING in tile.warnings for tile in tiles + aside)
    if cut:
        warnings.append(f"{cut} tile(s) cut by the frame: step back or move the camera")
    small = sum(SMALL_WARNING in tile.warnings for tile in tiles)
    if small:
        warnings.append(f"{small} tile(s) small in the photo: hold the camera closer")
    if glare:
        warnings.append(GLARE_MESSAGE)
    if blurred:
        warnings.append(BLUR_MESSAGE)
    unsure = sum(tile.low_confidence for tile in tiles)
    if unsure:
        warnings.append(f"{unsure} tile(s) read with low confidence: please confirm them")
    upside = sum(tile.upside_down for tile in tiles)
    if upside:
        warnings.append(f"{upside} tile(s) upside down")
    return tuple(warnings)


def _session_options(threads: int, memory_patterns: bool = True) -> Any:
    """ONNX Runtime's settings for one of the recogniser's sessions: ``threads`` for an operator, one operator at a
    time, waiting threads asleep (on a shared CPU, a web server or other work, spinning threads take the cores the
    other thread needs; measured here, sleeping halves the CPU time per photo)."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.enable_mem_pattern = memory_patterns
    return options


@functools.lru_cache(maxsize=2)
def _default_recognizer(second_look: bool) -> Recognizer:
    return Recognizer(second_look=second_look)


def recognize_file(path: str | Path, second_look: bool = True, table: bool = False) -> dict[str, Any]:
    """Recognise one photo file with the default recogniser; the result as a JSON-ready dict.  ``second_look=False``
    leaves the second classifier's look out (quicker; fewer tiles flagged, so more misreads left sure); ``table=True``
    reads a photo of melds laid on the table with the table detector (:meth:`Recognizer.recognize`)."""
    return Recognizer.default(second_look).recognize(path, table=table).to_dict(image=str(path))
