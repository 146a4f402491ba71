"""A second look at each tile's colour: the ink measured against the tile's own face.

The classifier reads colour from a crop, as it learnt it; lighting it never saw (a warm lamp, a dim
kahvehane, a teal blue) can move it.  This stage measures the colour physically and independently: in
the middle of the tile's face it takes the face's own colour (the brightest pixels: ivory under
whatever light there is), divides every pixel by it (von Kries: the light's colour cancels), and
averages the pixels that are clearly darker than the face in some channel — the ink of the numeral
and its symbol.  Black ink darkens all three channels alike, red keeps red, yellow-orange keeps red
and half the green, blue and teal keep blue (and green).  Five numbers describe it
(``ink_features``); a small softmax regression fitted on labelled tiles (``models/ink_colour.json``,
written by ``scripts/fit_ink_colour.py``) turns them into P(R, Y, B, K).

The recogniser takes the two looks together (``fuse_colour``): agreeing, the colour is surer;
wherever the ink moves the likeliest colour, or is sure of another one, the tile is flagged for a tap.
Where the ink moves it, the product still says which group of inks the tile joins for the photo's checks
below, but the tile is offered in the classifier's colour (since the twenty-eighth round: on racks built in
3-D the classifier was the one right on 25 such tiles of 36).
A tile with no ink at all on its face (face down, a blank) is told apart too: ``ink_features`` is None.
One look across the photo too (``bluer_than_black``): every tile of a photo is under the same light, so a
tile read black whose ink is clearly bluer than the photo's other black tiles is blue in a light that
greys it (dim, cool): flagged, and read blue where the gap is wide.
Likewise among the reds (``yellower_than_red``): a dim light greys a yellow-orange towards red without turning
its hue (``ink_hues``, its direction from the photo's blacks), so a tile read red whose hue lies well towards
yellow from the photo's other reds is flagged.
And one look at the photo's colours as a whole (``colour_strength``, ``strengthen_colours``): a dim room or
a phone's low-light processing can grey every ink of a photo alike, until blue, red and orange look
black to the classifier.  Where the photo's coloured inks stand out from its blacks but faintly, their
colour is strengthened about the light's own colour before the tiles are read.

>>> face = np.full((30, 20, 3), (200, 230, 240), np.uint8)               # ivory, BGR
>>> face[8:20, 6:14] = (40, 40, 200)                                      # a red numeral
>>> features = ink_features(face)
>>> bool(features[0] > 0.5), bool(features[1] < 0.5)                      # log R/G high, log G/B low
(True, True)
>>> ink_features(np.full((30, 20, 3), 220, np.uint8)) is None            # a blank face: no ink
True
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np

__all__ = ["INK_MODEL", "INK_SURE", "warm_groups", "ink_features", "face_patches", "loose_frames", "expand_features", "colour_disagrees",
           "fuse_colour", "bluer_than_black", "BLUER_FLAG", "BLUER_SWITCH", "BLUER_SWITCH_AMONG", "near_the_blues", "NEAR_BLUES",
           "towards_the_blues", "TOWARDS_BLUE", "ink_chroma", "ink_hues",
           "yellower_than_red", "YELLOWER_FLAG", "YELLOWER_FROM",
           "towards_the_yellows", "TOWARDS_YELLOW", "brighter_towards_the_yellows", "PART_WAY_IN_HUE", "BRIGHTNESS_APART",
           "HALF_WAY_IN_BRIGHTNESS", "as_dark_as_the_reds", "DARK_AS_RED", "among_the_yellows",
           "DARKER_THAN_YELLOWS", "REDDER_THAN_YELLOWS", "colour_strength", "strengthen_colours", "InkColour"]

INK_MODEL = "ink_colour.json"
INK_SURE = 0.9
"""A colour the ink is at least this sure of flags a tile the classifier reads in another colour."""
INK_WEIGHT = 0.5
BLUER_FLAG = 0.2
"""A tile read black whose ink's log R/B is this much below the median of the photo's other black tiles is flagged."""
BLUER_SWITCH = 0.3
"""… and read blue (still flagged) when it is this much below."""
BLUER_AMONG = 3
"""The fewest other tiles read black a tile is compared with (to be flagged) …"""
BLUER_SWITCH_AMONG = 4
"""… and to be read blue: the blacks of a photo spread, and the median of three is moved by one of them (compared
with three others, three black tiles of the older synthetic scenes, whose inks are drawn from the real photos, were
read blue: 98.1 → 97.6 %; flagged only, none changes)."""
NEAR_BLUES = 0.4
"""A tile read black whose ink's log R/B lies less than this above the median of the photo's tiles read blue is flagged
(``near_the_blues``) …"""
BLUES_AMONG = 2
"""… where at least this many tiles are read blue."""
TOWARDS_BLUE = 1 / 3
"""A tile read black whose ink's log R/B lies more than this share of the way from the photo's other blacks to its blues
is flagged (``towards_the_blues``) …"""
BLACKS_BESIDE = 2
"""… where at least this many other blacks and one blue were measured …"""
BLUES_APART = 0.3
"""… and the blues' median log R/B lies this much or more below the other blacks'."""
YELLOWER_FLAG = 20.0
"""A tile read red whose ink's hue (``ink_hues``) lies this many degrees or more towards yellow from the median of the
photo's other red tiles is flagged (``yellower_than_red``) …"""
YELLOWER_FROM = 10.0
"""… where its own hue is this far from red at least (a red's hue stays near 0 in any light)."""
YELLOWER_AMONG = 3
"""The fewest other tiles read red a tile is compared with."""
TOWARDS_YELLOW = 1 / 3
"""A tile read red whose ink's hue lies more than this share of the way from the photo's other reds to its yellows is
flagged (``towards_the_yellows``) …"""
GROUP_AMONG = 2
"""… where at least this many other reds and this many yellows were measured (and for ``as_dark_as_the_reds``, reds) …"""
GROUPS_APART = 10.0
"""… and the yellows' median hue lies this many degrees or more towards yellow from the reds'."""
PART_WAY_IN_HUE = 0.2
"""A tile read red whose ink's hue lies more than this share of the way from the photo's other reds to its yellows
(under ``TOWARDS_YELLOW``) …"""
HALF_WAY_IN_BRIGHTNESS = 0.5
"""… and whose brightness lies more than this share of the way from theirs to the yellows' is flagged too
(``brighter_towards_the_yellows``) …"""
BRIGHTNESS_APART = 0.05
"""… where the yellows' median brightness lies this much or more above the other reds' (in a photo with two reds and
two yellows or more, 95 % of the renders' photos have them 0.06 or more apart)."""
DARK_AS_RED = -0.03
"""A tile read yellow whose ink's brightness lies more than this below the median of the photo's tiles read red is
flagged (``as_dark_as_the_reds``): a yellow ink darker than the reds'."""
DARKER_THAN_YELLOWS = -0.06
"""Where fewer than ``GROUP_AMONG`` reds were measured (no reds for ``as_dark_as_the_reds`` to compare with), a tile
read yellow whose ink's brightness lies more than this below the median of the photo's other yellows …"""
REDDER_THAN_YELLOWS = -25.0
"""… and whose hue lies more than this many degrees from theirs towards red is flagged (``among_the_yellows``): a red a
warm lamp turns yellow stays darker and redder than the yellows beside it.  Measured on the renders as read with the
3-D-trained detector (twenty-fourth round), right yellows in photos with fewer than two reds: 2 of 156 on the sets
chosen on (3-D seeds 9801, 9901, 9961, 9971; 2.5-D dev and check), 0 of 58 on the others (3-D 9981, 9991, 9995; 2.5-D
fresh and unseen fonts); over all photos, 1.7-2.8 % of right yellows are both that dark and that red, which is why the
look waits for the reds to be missing."""
WARM_GROUPS_FROM = 4
"""The fewest tiles read red or yellow in a photo's rows for ``warm_groups`` to split them into the photo's two inks …"""
WARM_BRIGHTNESS_SCALE = 100.0
"""… measuring the inks in (hue in degrees, brightness times this): 0.1 of brightness weighs as 10 degrees of hue …"""
WARM_SPLIT = 0.3
"""… and a tile's group is told by where its ink lies along the line from the redder group's centre to the yellower's:
red up to this share of the way, yellow from one minus it, untold between (an orange); a tile beyond its own group's
centre, away from the other group, is told too.  Chosen (forty-second round) on the two one-ink 3-D sets of what no
training rack had, in place of telling by the share of the two distances (``WARM_MARGIN`` 0.55, the same as 0.225 on
the line but untold off it and beyond a centre): the four oranges of the window's photo read red and sure
(``racks3d-9881-rotated/rack_0015.jpg``, two of them beyond the yellows) are flagged now; elsewhere one more right
tile flagged on the 2.5-D dev racks (models/HISTORY.md, forty-second round)."""
DARK_APART = 0.06
"""Where the two groups lie too near in hue to be told by it (under ``GROUPS_APART``), or the yellower is the darker,
the inks are split by their brightness alone: told when the brighter group's darkest ink lies this much brighter than the darker group's
brightest (brightness relative to the face, so a lamp's strength cancels), the darker group red (a red ink always
absorbs more light than a yellow one).  The fonts set's orange-brown reds (three read yellow and sure,
``racks3d-9871-tilted/rack_0010.jpg``) lie among its yellows in hue, 0.53 against 0.60-0.73 in brightness (one
yellow's ink, glared, alone at -1° made the hue split)."""
DARK_GROUPS_FROM = 6
"""… told so only where this many inks or more were measured, and where the darker group's inks lie closer together
in brightness than the gap between the groups (a set's reds are printed with one ink) …"""
DARK_NOT_YELLOWER = 5.0
"""… unless the darker group's median hue lies more than this many degrees yellower than the brighter's."""
DARK_AS_BLACK = 0.05
"""A tile read yellow whose ink's brightness lies less than this above the median of the photo's tiles read black is
flagged (``as_dark_as_the_blacks``) …"""
BLACKS_AMONG = 2
"""… where at least this many tiles are read black."""
DARKEST_YELLOW = 0.4
"""In a photo whose colours were strengthened, a tile read yellow whose ink's brightness relative to its face is under
this is flagged too: a warm lamp, strengthened, can read every black of a photo yellow and leave no blacks to compare
with.  Measured on the renders as read, in strengthened photos: 1 of 313 yellows read yellow lie under it (3-D racks,
seeds 9801, 9821, 9901, 9961 and 9971; none of 50 on the 2.5-D dev and check racks), and 4 of the 5 blacks read yellow
and sure (one photo of seed 9801, 0.36-0.38; the others 0.48-0.56)."""
# A photo's colours are strengthened when its coloured inks are faint (``colour_strength``): an ink's chroma
# is its distance from the photo's blacks in (log R/G, log G/B); a tile's ink is coloured from COLOURED_FROM
# (measured on the rendered racks as read: black inks 0.02-0.22, 10th-90th percentile; coloured 0.42-1.05, and
# 0.18-0.49 with the photo's saturation halved).  At least COLOURED_SHARE of a photo's inked tiles must be
# coloured and their median chroma COLOURED_APART times the blacks': a rack of black tiles alone has its
# blacks' spread and no more (renders: at most 0.35 of its inks over COLOURED_FROM, and those at most 2.3
# times the rest), while a rack has three coloured tiles in four on average.  Then the coloured inks' median
# chroma per unit of the ink's darkness (rendered racks: 0.8-2.4 a photo; 0.4-1.2 with the saturation halved)
# says how vivid they are, and the colours are scaled to bring it to FULL_COLOUR, by at most MOST_STRENGTH;
# by less than LEAST_STRENGTH, not at all (a photo a little dull is read best as it is).  Chosen on the
# tuning racks (seed 9201) with their colours as taken, halved, and at 0.65 and darker, and on racks of
# black tiles.
COLOURED_FROM = 0.15
COLOURED_SHARE = 0.4
COLOURED_APART = 2.0
FULL_COLOUR = 1.4
MOST_STRENGTH = 2.5
LEAST_STRENGTH = 1.25
PATCH = 24
# The face's colour: the median of its brightest pixels (above this percentile of brightness).
_FACE_PERCENTILE = 70
# A pixel is ink when some channel is at most 1 − this of the face's (relative to the face's colour).
_INK_STRENGTH = 0.35
# Fewer ink pixels than this share of the patch: no ink to measure (a blank or face-down tile, glare).
_MIN_INK = 0.02


def loose_frames(image: np.ndarray, boxes: np.ndarray, frames: np.ndarray) -> np.ndarray:
    """``frames`` with each loose tile's (NaN width: not in a row) filled in from its own outline: the
    bright face inside its box (Otsu's threshold, closed), its minimum-area rectangle giving the centre,
    the angle and the sides (the shorter one as the width).  A box where no face stands out stays NaN."""
    out = frames.copy()
    height, width = image.shape[:2]
    for index in np.flatnonzero(~np.isfinite(frames[:, 3])):
        x1, y1, x2, y2 = (float(v) for v in boxes[index])
        margin_x, margin_y = 0.1 * (x2 - x1), 0.1 * (y2 - y1)
        left, top = int(max(0.0, x1 - margin_x)), int(max(0.0, y1 - margin_y))
        right, bottom = int(min(width, x2 + margin_x)), int(min(height, y2 + margin_y))
        if right - left < 4 or bottom - top < 4:
            continue
        crop = image[top:bottom, left:right]
        scale = 64.0 / max(crop.shape[:2])
        small = cv2.resize(crop, (max(1, round(crop.shape[1] * scale)), max(1, round(crop.shape[0] * scale))),
                           interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        _, mask = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
        if count < 2:
            continue
        face = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        if stats[face, cv2.CC_STAT_AREA] < 0.15 * mask.size:
            continue
        points = np.column_stack(np.nonzero(labels == face)[::-1]).astype(np.float32)
        (cx, cy), (side_a, side_b), degrees = cv2.minAreaRect(points)
        angle = math.radians(degrees)
        if side_a > side_b:  # the tile's width is its shorter side
            side_a, side_b, angle = side_b, side_a, angle + math.pi / 2
        out[index] = (cx / scale + left, cy / scale + top, angle, side_a / scale, side_b / scale)
    return out


def face_patches(image: np.ndarray, boxes: np.ndarray, frames: np.ndarray) -> list[np.ndarray]:
    """The middle of each tile's face as a PATCH×PATCH BGR image.

    ``frames`` are ``vision.numerals.tile_frames(boxes)``: a tile standing in a row (finite width) gives
    the middle 60 % of its face along and across the row (no neighbour and no rack inside, even where the
    frame solved from a tilted box is a little off), and so does a loose tile whose frame ``loose_frames``
    found from its outline; any other tile the middle half of its box, which lies inside the tile at
    any angle.
    """
    patches = []
    for box, (cx, cy, angle, width, height) in zip(boxes, frames):
        if np.isfinite(width):
            along = np.array([math.cos(angle), math.sin(angle)])
            up = np.array([math.sin(angle), -math.cos(angle)])
            region_w, region_h = 0.6 * width, 0.6 * height
            origin = np.array([cx, cy]) + up * region_h / 2 - along * region_w / 2
            source = np.array([origin, origin + along * region_w, origin - up * region_h], np.float32)
            target = np.array([[0, 0], [PATCH, 0], [0, PATCH]], np.float32)
            patches.append(cv2.warpAffine(image, cv2.getAffineTransform(source, target), (PATCH, PATCH),
                                          flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE))
            continue
        x1, y1, x2, y2 = (float(v) for v in box)
        w, h = x2 - x1, y2 - y1
        top, bottom = int(y1 + h / 4), max(int(math.ceil(y2 - h / 4)), int(y1 + h / 4) + 1)
        left, right = int(x1 + w / 4), max(int(math.ceil(x2 - w / 4)), int(x1 + w / 4) + 1)
        middle = image[max(top, 0) : max(bottom, 1), max(left, 0) : max(right, 1)]
        if middle.size == 0:
            middle = np.full((1, 1, 3), 128, np.uint8)
        patches.append(cv2.resize(middle, (PATCH, PATCH), interpolation=cv2.INTER_AREA))
    return patches


def _face_colour(pixels: np.ndarray) -> np.ndarray:
    """The face's colour in an N×3 array of a patch's pixels: the median of its brightest ones."""
    brightness = pixels.mean(1)
    return np.median(pixels[brightness >= np.percentile(brightness, _FACE_PERCENTILE)], 0)  # type: ignore[no-any-return]


def ink_features(patch: np.ndarray) -> np.ndarray | None:
    """A face patch (BGR) → (log R/G, log G/B, log R/B of the ink relative to the face, the ink's mean
    relative brightness, the ink's share of the patch); None when there is too little ink to measure."""
    pixels = patch.reshape(-1, 3)[:, ::-1].astype(np.float64) + 1.0
    face = _face_colour(pixels)
    relative = pixels / face
    strength = np.clip(1.0 - relative.min(1), 0.0, 1.0)
    ink = strength > _INK_STRENGTH
    share = float(ink.mean())
    if share < _MIN_INK:
        return None
    weights = strength[ink]
    mean = np.clip((relative[ink] * weights[:, None]).sum(0) / weights.sum(), 1e-3, None)
    chroma = mean / mean.sum()
    return np.array([math.log(chroma[0] / chroma[1]), math.log(chroma[1] / chroma[2]),
                     math.log(chroma[0] / chroma[2]), float(mean.mean()), share])


def expand_features(features: np.ndarray, mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """Standardised features, the squares of the four colour ones, and a constant."""
    z = (features - mean) / scale
    return np.concatenate([z, z[:, :4] ** 2, np.ones((len(z), 1))], 1)


class InkColour:
    """The fitted softmax regression of ``models/ink_colour.json``: ink features → P(R, Y, B, K)."""

    def __init__(self, model: str | Path) -> None:
        card = json.loads(Path(model).read_text(encoding="utf-8"))
        self.colours = tuple(card["colours"])
        self._mean = np.array(card["mean"], np.float64)
        self._scale = np.array(card["scale"], np.float64)
        self._weights = np.array(card["weights"], np.float64)

    def probabilities(self, features: list[np.ndarray | None]) -> np.ndarray:
        """N×4 P(colour) in the order of ``colours``; NaN rows where a tile had no ink to measure."""
        out = np.full((len(features), len(self.colours)), np.nan)
        known = [i for i, f in enumerate(features) if f is not None]
        measured = [f for f in features if f is not None]
        if measured:
            scores = expand_features(np.stack(measured), self._mean, self._scale) @ self._weights
            scores = np.exp(scores - scores.max(1, keepdims=True))
            out[known] = scores / scores.sum(1, keepdims=True)
        return out


def fuse_colour(classifier: np.ndarray, ink: np.ndarray) -> tuple[np.ndarray, bool]:
    """The classifier's P(colour) and the ink's (NaN: not measured) → the colour probabilities to use and
    whether the tile must be flagged for a tap.

    The two are two looks at the tile: their product (the ink's tempered by ``INK_WEIGHT``, as it reads
    a smaller patch) decides.  Whenever that moves the likeliest colour away from the classifier's, or
    the ink is sure (``INK_SURE``) of another colour, the tile is flagged: a disagreement is never
    resolved silently.

    >>> fused, flag = fuse_colour(np.array([0.05, 0.05, 0.4, 0.5]), np.array([0.01, 0.01, 0.9, 0.08]))
    >>> int(np.argmax(fused)), flag                     # blue, not black, and a tap to confirm it
    (2, True)
    >>> fused, flag = fuse_colour(np.array([0.9, 0.04, 0.03, 0.03]), np.array([0.7, 0.1, 0.1, 0.1]))
    >>> int(np.argmax(fused)), flag
    (0, False)
    """
    if not np.isfinite(ink).all():
        return classifier, False
    fused = classifier * np.power(ink, INK_WEIGHT)
    fused = fused / max(float(fused.sum()), 1e-12)
    return fused, bool(int(np.argmax(fused)) != int(np.argmax(classifier)) or colour_disagrees(classifier, ink))


def bluer_than_black(features: list[np.ndarray | None], black: np.ndarray) -> np.ndarray:
    """For each tile read black: its ink's log R/B (``ink_features``' third number) minus the median of the
    photo's other tiles read black (N; negative: bluer; NaN for tiles not read black, with no ink measured,
    or with fewer than ``BLUER_AMONG`` others to compare with).  Black ink greys all three channels alike under any
    light; a blue the light has greyed (dim, cool) still keeps more blue than the blacks beside it.
    Measured on the rendered racks (the rack pool and the tuning, dev and check sets, as read; compared with four
    others or more): of 2,383 black tiles read black, 19 lie more than 0.2 below their photo's other blacks and 2 more than 0.3; of
    43 blue tiles read black, 37 and 28 (median 0.37 below).

    >>> ink = lambda r_b: np.array([0.0, 0.0, r_b, 0.3, 0.2])
    >>> features = [ink(0.05), ink(0.0), ink(-0.02), ink(0.1), ink(-0.4), None, ink(-0.9)]
    >>> black = np.array([True, True, True, True, True, True, False])
    >>> bluer_than_black(features, black).round(2).tolist()
    [0.06, -0.02, -0.04, 0.11, -0.43, nan, nan]
    >>> bluer_than_black(features[1:], black[1:]).round(2).tolist()  # four blacks measured: three others each
    [0.02, -0.02, 0.12, -0.4, nan, nan]
    >>> bluer_than_black(features[2:], black[2:]).round(2).tolist()  # three blacks measured: too few to tell
    [nan, nan, nan, nan, nan]
    """
    return _against_the_others(_red_to_blue(features), black, BLUER_AMONG)


def near_the_blues(features: list[np.ndarray | None], black: np.ndarray, blue: np.ndarray) -> np.ndarray:
    """For each tile read black: how far its ink's log R/B (``ink_features``' third number) lies above the median of
    the photo's tiles read blue (N; NaN for tiles not read black, with no ink measured, or where fewer than
    ``BLUES_AMONG`` blues were measured).  Unlike ``bluer_than_black``, the reference does not depend on which tiles
    were read black: on a rack of many navy blues and a black or two, the blues the light greys are read black
    together, and they are the "other blacks" that check compares with.  A black ink lies well above the blues in
    the same light.  Measured on the rendered racks as read, in photos with two blues or more: of the black tiles read
    black, 1 % lie within 0.21 of the blues and 5 % within 0.40 (3-D racks, seeds 9801, 9901 and 9961), 1 % within
    0.31 and 5 % within 0.46 (2.5-D dev, check, fresh and unseen-font racks); of the 28 blue tiles read black, half
    lie within 0.26 and three in four within 0.34.

    >>> ink = lambda r_b: np.array([0.0, 0.0, r_b, 0.3, 0.2])
    >>> features = [ink(-0.5), ink(-0.55), ink(-0.2), ink(0.1), None, ink(-0.6)]
    >>> black = np.array([False, False, True, True, True, False])
    >>> blue = np.array([True, True, False, False, False, True])
    >>> near_the_blues(features, black, blue).round(2).tolist()
    [nan, nan, 0.35, 0.65, nan, nan]
    >>> near_the_blues(features, black, blue & (np.arange(6) == 0)).round(2).tolist()  # one blue: too few to tell
    [nan, nan, nan, nan, nan, nan]
    """
    return _against_a_group(_red_to_blue(features), black, blue, BLUES_AMONG)


def towards_the_blues(features: list[np.ndarray | None], black: np.ndarray, blue: np.ndarray) -> np.ndarray:
    """For each tile read black: how far along the way from the median log R/B (``ink_features``' third number) of
    the photo's other tiles read black to the median of its tiles read blue its ink lies (0: with the blacks, 1:
    with the blues; NaN for tiles not read black, with no ink measured, where fewer than ``BLACKS_BESIDE`` other
    blacks or no blue was measured, or where the two lie less than ``BLUES_APART`` apart).  ``bluer_than_black``
    wants three other blacks and ``near_the_blues`` two blues; a small rack in a far photo can have neither, and a
    navy the light greys lies between the blacks and the one blue beside it.  The share of the way between the
    photo's own two groups, as ``towards_the_yellows`` takes it for reds and yellows, does not depend on how the
    light shifts both.  Measured on the renders as read (2.5-D dev, check, fresh, unseen-font and tuning racks,
    faint dev and check, 3-D seeds 9801, 9901 and 9997, the real held-out photos and their faint copies; 9,267 tiles
    read sure): flagging from 0.30 of the way takes no tile read right from the sure ones, from 0.25 one and from
    0.20 twelve; the sure B6 read black on 3-D rack 21 of seed 9801 (two other blacks, one blue) lies 0.38 of the
    way.

    >>> ink = lambda r_b: np.array([0.0, 0.0, r_b, 0.3, 0.2])
    >>> features = [ink(0.4), ink(0.33), ink(0.05), ink(-0.45), None]
    >>> black = np.array([True, True, True, False, True])
    >>> towards_the_blues(features, black, ~black).round(2).tolist()  # the third "black" lies 0.39 of the way
    [-0.33, -0.16, 0.39, nan, nan]
    >>> towards_the_blues(features[1:], black[1:], ~black[1:]).round(2).tolist()  # one other black: too few to tell
    [nan, nan, nan, nan]
    """
    # Blue-to-red grows from the blacks towards the blues, as a hue grows from the reds towards the yellows.
    return _share_of_the_way(-_red_to_blue(features), black, BLACKS_BESIDE, blue, 1, BLUES_APART)


def _against_a_group(values: np.ndarray, chosen: np.ndarray, group: np.ndarray, among: int) -> np.ndarray:
    """For each ``chosen`` tile: its value minus the median of the ``group`` tiles' finite values (NaN elsewhere, and
    everywhere when fewer than ``among`` group tiles have a value)."""
    reference = values[np.asarray(group, bool) & np.isfinite(values)]
    gap = np.full(len(values), np.nan)
    if len(reference) >= among:
        picked = np.asarray(chosen, bool)
        gap[picked] = values[picked] - float(np.median(reference))
    return gap


def _against_the_others(values: np.ndarray, chosen: np.ndarray, among: int) -> np.ndarray:
    """For each ``chosen`` tile with a finite value: its value minus the median of the other such tiles' (NaN
    elsewhere, and everywhere when fewer than ``among`` others are there to compare with)."""
    shift = np.full(len(values), np.nan)
    measured = np.flatnonzero(np.asarray(chosen, bool) & np.isfinite(values))
    if len(measured) < among + 1:
        return shift
    for k, i in enumerate(measured):
        shift[i] = values[i] - float(np.median(np.delete(values[measured], k)))
    return shift


def yellower_than_red(hues: np.ndarray, red: np.ndarray) -> np.ndarray:
    """For each tile read red: its ink's hue (``hues``, from ``ink_hues``) minus the median hue of the photo's other
    tiles read red, in degrees (N; positive: towards yellow; NaN for tiles not read red, with no ink measured, or with
    fewer than
    ``YELLOWER_AMONG`` others to compare with).  A dim room or a phone's low-light processing greys yellow-orange
    towards red for the classifier, and both lose chroma alike; but the hue, the direction the ink lies in from
    the photo's blacks, is kept, and a yellow-orange lies well towards yellow from the reds beside it.
    Measured on the rendered racks as read (the tuning, dev, check and unseen-font racks; taken as they are, with
    their colours halved, and at 0.65 of their colour and brightness): of 1,947 red tiles read red in rows, 18 lie
    20° or more towards yellow from their photo's other reds, 11 of them at a hue of 10° or more; of the 16 yellow
    tiles read red, 14 and 13 (the other two 11° and 18° from the reds).

    >>> ink = lambda rg, gb: np.array([rg, gb, rg + gb, 0.4, 0.2])
    >>> reds = [ink(0.6, -0.1), ink(0.64, -0.12), ink(0.4, 0.02), ink(0.61, -0.07)]
    >>> features = [*reds, ink(0.42, 0.18), ink(0.0, 0.01), ink(0.01, -0.01)]  # a greyed yellow read red; two blacks
    >>> red = np.array([True, True, True, True, True, False, False])
    >>> yellower_than_red(ink_hues(features), red).round(0).tolist()
    [-8.0, -9.0, 11.0, -3.0, 32.0, nan, nan]
    >>> yellower_than_red(ink_hues(features[2:]), red[2:]).round(0).tolist()  # two others only: too few to tell
    [nan, nan, nan, nan, nan]
    """
    return _against_the_others(hues, red, YELLOWER_AMONG)


def towards_the_yellows(hues: np.ndarray, red: np.ndarray, yellow: np.ndarray) -> np.ndarray:
    """For each tile read red: how far along the way from the median hue of the photo's other tiles read red to the
    median hue of its tiles read yellow its ink's hue lies (``hues``, from ``ink_hues``; 0: with the reds, 1: with the
    yellows; NaN for tiles not read red, with no ink measured, where fewer than ``GROUP_AMONG`` other reds or yellows
    were measured, or where the two lie less than ``GROUPS_APART`` degrees apart).  ``yellower_than_red`` measures
    degrees, which a warm lamp or a photo's strengthened colours stretch and shrink; a share of the way between the
    photo's own two groups does not depend on them, and it needs no third red.  Measured on the renders as read (3-D
    racks of seeds 9801, 9901, 9961 and 9971, 2.5-D dev and check racks): of 1,014 red tiles read red, 1 % lie more
    than 0.33 of the way, 0.5 % more than 0.40; of the yellow tiles read red, most lie 0.35-0.8 of the way.

    >>> hues = np.array([2.0, -3.0, 5.0, 30.0, 60.0, 64.0, 70.0, np.nan])
    >>> red = np.array([True, True, True, True, False, False, False, True])
    >>> towards_the_yellows(hues, red, ~red).round(2).tolist()      # the fourth "red" lies 0.45 of the way
    [-0.05, -0.14, 0.05, 0.45, nan, nan, nan, nan]
    >>> towards_the_yellows(hues, red, ~red & (hues > 65)).round(2).tolist()  # one yellow: too few to tell
    [nan, nan, nan, nan, nan, nan, nan, nan]
    """
    return _share_of_the_way(np.asarray(hues, np.float64), red, GROUP_AMONG, yellow, GROUP_AMONG, GROUPS_APART)


def brighter_towards_the_yellows(brightness: np.ndarray, red: np.ndarray, yellow: np.ndarray) -> np.ndarray:
    """For each tile read red: how far along the way from the median brightness (``ink_brightness``) of the photo's
    other tiles read red to the median of its tiles read yellow its ink's brightness lies (0: with the reds, 1: with
    the yellows; NaN for tiles not read red, with no ink measured, where fewer than ``GROUP_AMONG`` other reds or
    yellows were measured, or where the yellows lie less than ``BRIGHTNESS_APART`` above the reds).  Yellow-orange is
    a lighter ink than red.  Alone it says little: a lamp's falloff along a rack moves a red's brightness as far.  With
    the hue (``towards_the_yellows``) it says more: a yellow on the lower tier of a rack, in the pink bounce light of
    the table and the upper tier's shadow, was read red and sure at 0.27 of the way in hue and 0.61 in brightness (3-D
    seed 9991).  Measured on the renders as read (eight 3-D sets, 2.5-D dev, check, fresh, unseen fonts and tuning
    racks; the first classifier's colours): of 2,008 red tiles read red and sure, 1 lies more than 0.2 of the way in
    hue and 0.5 in brightness; of the 22 yellow tiles read red, 12, and both of the 2 read sure.

    >>> brightness = np.array([0.42, 0.47, 0.45, 0.55, 0.56, 0.66, 0.60, np.nan])
    >>> red = np.array([True, True, True, True, False, False, False, True])
    >>> brighter_towards_the_yellows(brightness, red, ~red).round(2).tolist()   # the fourth "red" lies 0.67 of the way
    [-0.38, 0.13, -0.15, 0.67, nan, nan, nan, nan]
    >>> brighter_towards_the_yellows(brightness - 0.12 * ~red, red, ~red).round(2).tolist()  # yellows as light as reds
    [nan, nan, nan, nan, nan, nan, nan, nan]
    """
    return _share_of_the_way(np.asarray(brightness, np.float64), red, GROUP_AMONG, yellow, GROUP_AMONG,
                             BRIGHTNESS_APART)


def _share_of_the_way(values: np.ndarray, chosen: np.ndarray, among: int, group: np.ndarray, group_among: int,
                      apart: float) -> np.ndarray:
    """For each ``chosen`` tile with a finite value: how far along the way from the median of the other chosen tiles'
    values up to the median of the ``group`` tiles' its value lies (0: with the others, 1: with the group; NaN
    elsewhere, where fewer than ``among`` others or ``group_among`` group tiles have a value, or where the group's
    median lies less than ``apart`` above the others')."""
    from_the_others = _against_the_others(values, chosen, among)  # each chosen value minus the others' median
    group_values = values[np.asarray(group, bool) & np.isfinite(values)]
    if len(group_values) < group_among:
        return np.full(len(values), np.nan)
    span = float(np.median(group_values)) - (values - from_the_others)  # from the others' median to the group's
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(span >= apart, from_the_others / span, np.nan)


def as_dark_as_the_reds(features: list[np.ndarray | None], yellow: np.ndarray, red: np.ndarray) -> np.ndarray:
    """For each tile read yellow: how far its ink's brightness relative to its face (``ink_features``' fourth number)
    lies above the median of the photo's tiles read red (N; NaN for tiles not read yellow, with no ink measured, or
    where fewer than ``GROUP_AMONG`` reds were measured).  Yellow-orange is a lighter ink than red; a warm lamp can
    turn a red's hue towards the yellows', and strengthened colours turn it further, but the red ink stays as dark as
    the reds beside it.  Measured on the renders as read (the sets of ``towards_the_yellows``): of 952 yellow tiles
    read yellow in photos with two reds or more, 1 % lie 0.03 or more *below* the reds' median and 2 % at or below it.

    >>> ink = lambda brightness: np.array([0.5, 0.8, 1.3, brightness, 0.2])
    >>> features = [ink(0.6), ink(0.42), None, ink(0.44), ink(0.46)]
    >>> yellow = np.array([True, True, True, False, False])
    >>> as_dark_as_the_reds(features, yellow, ~yellow).round(2).tolist()  # the second "yellow" is as dark as a red
    [0.15, -0.03, nan, nan, nan]
    """
    return _against_a_group(ink_brightness(features), yellow, red, GROUP_AMONG)


def warm_groups(hues: np.ndarray, brightness: np.ndarray, warm: np.ndarray) -> np.ndarray:
    """For each ``warm`` tile (read red or yellow): 0 where its ink lies in the photo's redder, darker group of warm
    inks, 1 where in its yellower, brighter one, -1 where neither is told (N; -1 for the other tiles too).

    A set prints all its reds with one ink and all its yellows with another, so a photo's warm inks (``hues`` from
    ``ink_hues``, ``brightness`` from ``ink_brightness``) lie in two groups whatever the lamp, where the classifiers
    read each tile on its own and a warm lamp can read every red of a rack yellow.  The split is the one with the least
    spread inside its two groups (every cut along the hues and along the brightnesses, each refined to the nearest
    centre).  A tile is told by where it lies along the line between the two centres (``WARM_SPLIT``; an orange between
    the two is not).  Nothing is told where fewer than ``WARM_GROUPS_FROM`` inks were measured.  Where the two groups
    lie less than ``GROUPS_APART`` degrees apart in hue, or the yellower is not the brighter (a split that is not the
    reds' and the yellows', such as one odd ink alone), the inks are told by brightness alone, if they lie
    ``DARK_APART`` apart in it (``_by_brightness``).

    >>> hues = np.array([38.0, 41.0, 36.0, 40.0, 57.0, 59.0, 55.0, 48.0, np.nan, -90.0])
    >>> brightness = np.array([0.40, 0.42, 0.41, 0.43, 0.54, 0.53, 0.52, 0.48, 0.5, 0.3])
    >>> warm = np.array([True] * 9 + [False])    # a dark red ink and a golden yellow one under a warm lamp
    >>> warm_groups(hues, brightness, warm).tolist()   # the eighth, between the two: untold
    [0, 0, 0, 0, 1, 1, 1, -1, -1, -1]
    >>> warm_groups(hues, brightness - 0.12 * (hues > 45), warm).tolist()   # the yellower group the darker: untold
    [-1, -1, -1, -1, -1, -1, -1, -1, -1, -1]
    >>> warm_groups(hues[:3], brightness[:3], warm[:3]).tolist()            # three inks: too few to tell
    [-1, -1, -1]
    """
    groups = np.full(len(hues), -1)
    chosen = np.flatnonzero(np.asarray(warm, bool) & np.isfinite(hues) & np.isfinite(brightness))
    if len(chosen) < WARM_GROUPS_FROM:
        return groups
    points = np.c_[np.asarray(hues, np.float64)[chosen], np.asarray(brightness, np.float64)[chosen] * WARM_BRIGHTNESS_SCALE]
    best: tuple[float, np.ndarray] | None = None
    for axis in (0, 1):
        order = np.argsort(points[:, axis], kind="stable")
        for cut in range(1, len(points)):
            label = np.zeros(len(points), int)
            label[order[cut:]] = 1
            for _ in range(5):  # each point to the nearer centre, until the groups stay
                centres = [points[label == k].mean(0) for k in (0, 1)]
                nearer = (np.linalg.norm(points - centres[1], axis=1) < np.linalg.norm(points - centres[0], axis=1))
                if nearer.all() or not nearer.any() or (nearer == label.astype(bool)).all():
                    break
                label = nearer.astype(int)
            spread = sum(float(((points[label == k] - points[label == k].mean(0)) ** 2).sum()) for k in (0, 1))
            if best is None or spread < best[0]:
                best = (spread, label.copy())
    assert best is not None
    label = best[1]
    redder, yellower = (points[label == k].mean(0) for k in (0, 1))
    if yellower[0] < redder[0]:
        label, redder, yellower = 1 - label, yellower, redder
    if yellower[0] - redder[0] < GROUPS_APART or yellower[1] <= redder[1]:
        return _by_brightness(points, chosen, groups)
    line = yellower - redder
    along = ((points - redder) @ line) / float(line @ line)
    groups[chosen[along <= WARM_SPLIT]] = 0
    groups[chosen[along >= 1 - WARM_SPLIT]] = 1
    return groups


def _by_brightness(points: np.ndarray, chosen: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """``warm_groups`` where the hues lie too near to tell: the inks' ``points`` (hue, scaled brightness) split in two
    by brightness alone with the least spread inside, the darker group red (0), told only where there are
    ``DARK_GROUPS_FROM`` inks or more, the two lie ``DARK_APART`` apart and farther apart than the darker's inks spread,
    and the darker is not yellower in hue by more than ``DARK_NOT_YELLOWER``."""
    if len(points) < DARK_GROUPS_FROM:
        return groups
    brightness = points[:, 1] / WARM_BRIGHTNESS_SCALE
    order = np.argsort(brightness, kind="stable")
    spreads = [float(brightness[order[:cut]].var() * cut + brightness[order[cut:]].var() * (len(order) - cut))
               for cut in range(1, len(order))]
    cut = 1 + int(np.argmin(spreads))
    darker, brighter = order[:cut], order[cut:]
    gap = brightness[brighter].min() - brightness[darker].max()
    if gap < DARK_APART or gap < np.ptp(brightness[darker]):
        return groups
    if np.median(points[darker, 0]) - np.median(points[brighter, 0]) > DARK_NOT_YELLOWER:
        return groups
    groups[chosen[darker]] = 0
    groups[chosen[brighter]] = 1
    return groups


def among_the_yellows(values: np.ndarray, yellow: np.ndarray, red: np.ndarray) -> np.ndarray:
    """For each tile read ``yellow`` with a finite value (a brightness from ``ink_brightness``, a hue from ``ink_hues``):
    its value minus the median of the photo's other yellows' (NaN elsewhere, where fewer than ``GROUP_AMONG`` other
    yellows were measured, and everywhere when ``GROUP_AMONG`` tiles read ``red`` or more have a value: those are
    compared with the reds, ``as_dark_as_the_reds``).  A warm lamp, and colours strengthened after it, can read all but
    one of a photo's reds yellow; such a "yellow" is darker than the true yellows and lies towards red from them.

    >>> hues = np.array([70.0, 65.0, 75.0, 38.0, 5.0, np.nan])
    >>> yellow = np.array([True, True, True, True, False, False])
    >>> among_the_yellows(hues, yellow, ~yellow).round(0).tolist()     # one red measured: the yellows among themselves
    [5.0, -5.0, 10.0, -32.0, nan, nan]
    >>> among_the_yellows(hues, yellow, np.array([False] * 4 + [True, True])).round(0).tolist()  # one red unmeasured
    [5.0, -5.0, 10.0, -32.0, nan, nan]
    >>> hues[5] = 8.0
    >>> among_the_yellows(hues, yellow, ~yellow).tolist()               # two reds: left to as_dark_as_the_reds
    [nan, nan, nan, nan, nan, nan]
    """
    values = np.asarray(values, np.float64)
    if int((np.asarray(red, bool) & np.isfinite(values)).sum()) >= GROUP_AMONG:
        return np.full(len(values), np.nan)
    return _against_the_others(values, yellow, GROUP_AMONG)


def as_dark_as_the_blacks(features: list[np.ndarray | None], yellow: np.ndarray, black: np.ndarray) -> np.ndarray:
    """For each tile read yellow: how far its ink's brightness relative to its face (``ink_features``' fourth number)
    lies above the median of the photo's tiles read black (N; NaN for tiles not read yellow, with no ink measured, or
    where fewer than ``BLACKS_AMONG`` blacks were measured).  Yellow-orange is the lightest ink and black the darkest;
    a warm lamp can tint a black towards yellow, and strengthening the photo's colours tints it more, but it leaves the
    ink as dark as the blacks beside it.  Measured on the renders as read, in photos with two blacks or more: the
    yellow tiles read yellow and sure lie 0.07 or more above their photo's blacks (3-D racks, seeds 9961, 9971 and
    9821: 283 tiles, 1 % within 0.13) and 0.04 or more (2.5-D dev and check racks: 372, 1 % within 0.14); a black
    tile lies within 0.05 above the other blacks' median in four cases in five.

    >>> ink = lambda brightness: np.array([0.5, 0.8, 1.3, brightness, 0.2])
    >>> features = [ink(0.6), ink(0.62), ink(0.36), None, ink(0.4), ink(0.42)]
    >>> yellow = np.array([True, True, True, True, False, False])
    >>> black = np.array([False, False, False, False, True, True])
    >>> as_dark_as_the_blacks(features, yellow, black).round(2).tolist()
    [0.19, 0.21, -0.05, nan, nan, nan]
    >>> as_dark_as_the_blacks(features, yellow, black & (np.arange(6) == 4)).round(2).tolist()  # one black: too few
    [nan, nan, nan, nan, nan, nan]
    """
    return _against_a_group(ink_brightness(features), yellow, black, BLACKS_AMONG)


def _red_to_blue(features: list[np.ndarray | None]) -> np.ndarray:
    """Each ink's log R/B (``ink_features``' third number; NaN where no ink was measured)."""
    return np.array([np.nan if f is None else float(f[2]) for f in features])


def ink_brightness(features: list[np.ndarray | None]) -> np.ndarray:
    """Each ink's mean brightness relative to its tile's face (``ink_features``' fourth number; NaN where no ink was
    measured): the light's strength and colour cancel, the ink's own darkness stays.

    >>> ink_brightness([np.array([0.5, 0.8, 1.3, 0.62, 0.2]), None]).tolist()
    [0.62, nan]
    """
    return np.array([np.nan if f is None else float(f[3]) for f in features])


def _blacks(vectors: np.ndarray) -> np.ndarray:
    """The photo's blacks in (log R/G, log G/B): the median of the quarter of its inks ``vectors`` nearest grey,
    at least two."""
    nearest_grey = np.argsort(np.hypot(vectors[:, 0], vectors[:, 1]), kind="stable")[: max(2, len(vectors) // 4)]
    return np.median(vectors[nearest_grey], 0)  # type: ignore[no-any-return]


def ink_hues(features: list[np.ndarray | None]) -> np.ndarray:
    """Each ink's hue: the direction, in degrees, it lies in from the photo's blacks (``ink_chroma``) in
    (log R/G, log G/B).  Red lies near 0°, yellow-orange at 20-90°, blue at -180 to -90°; a light that greys the
    photo's colours shortens the distance, not the direction (a black's own hue says nothing: it lies at the blacks).
    One value per tile (NaN where no ink was measured).

    >>> ink = lambda rg, gb: np.array([rg, gb, rg + gb, 0.3, 0.2])
    >>> blacks = [ink(0.01, 0.02), ink(0.01, 0.02)]                       # under a warm light
    >>> red, orange, faint_orange, blue = ink(0.8, 0.02), ink(0.6, 0.6), ink(0.3, 0.3), ink(-0.3, -0.8)
    >>> ink_hues([*blacks, red, orange, None, faint_orange, blue]).round(0).tolist()
    [0.0, 0.0, 0.0, 45.0, nan, 44.0, -111.0]
    """
    hues = np.full(len(features), np.nan)
    known = [i for i, f in enumerate(features) if f is not None]
    if known:
        vectors = np.array([[features[i][0], features[i][1]] for i in known], np.float64)  # type: ignore[index]
        offset = vectors - _blacks(vectors)
        hues[known] = np.degrees(np.arctan2(offset[:, 1], offset[:, 0]))
    return hues


def ink_chroma(features: list[np.ndarray | None]) -> np.ndarray:
    """Each measured ink's chroma: its distance in (log R/G, log G/B) from the photo's blacks' (the median
    of the quarter of its inks nearest grey, at least two; the blacks' own tint under a coloured light
    counts as none).  One value per measured tile (Nones left out), in order.

    >>> ink = lambda rg, gb: np.array([rg, gb, rg + gb, 0.3, 0.2])
    >>> ink_chroma([ink(0.05, 0.0), None, ink(0.04, 0.01), ink(0.8, 0.05), ink(-0.2, -0.6)]).round(2).tolist()
    [0.01, 0.01, 0.76, 0.65]
    """
    vectors = np.array([[f[0], f[1]] for f in features if f is not None], np.float64).reshape(-1, 2)
    if len(vectors) == 0:
        return np.zeros(0)
    return np.hypot(*(vectors - _blacks(vectors)).T)  # type: ignore[no-any-return]


def colour_strength(features: list[np.ndarray | None]) -> float:
    """How much to strengthen the colours of a photo whose tiles' inks are ``features`` (1: leave them).

    >>> ink = lambda rg, gb: np.array([rg, gb, rg + gb, 0.3, 0.2])
    >>> vivid = [ink(0.0, 0.0), ink(0.01, 0.02), ink(1.0, 0.1), ink(0.8, 0.6), ink(-0.4, -0.9), ink(0.9, 0.3)]
    >>> colour_strength(vivid)
    1.0
    >>> faint = [ink(rg / 2, gb / 2) for rg, gb, *_ in vivid]
    >>> round(colour_strength(faint), 2)
    1.97
    >>> blacks = [0.02, 0.04, 0.04, 0.06, 0.06, 0.06, 0.08, 0.11, 0.11, 0.11, 0.11, 0.13, 0.15, 0.16, 0.17, 0.19, 0.22]
    >>> colour_strength([ink(c, 0.0) for c in blacks])  # a rack of blacks (a render's, as read): left as it is
    1.0
    """
    chroma = ink_chroma(features)
    coloured = chroma[chroma >= COLOURED_FROM]
    if len(chroma) < 5 or len(coloured) < max(3, COLOURED_SHARE * len(chroma)):
        return 1.0
    blacks = chroma[chroma < COLOURED_FROM]
    if len(blacks) and float(np.median(coloured)) < COLOURED_APART * float(np.median(blacks)):
        return 1.0
    # How vivid the coloured inks are: their chroma per unit of darkness (a blurred or thin numeral mixes with
    # the face, losing chroma and darkness alike; a greyed one loses chroma only).
    darkness = np.maximum(1.0 - np.array([f[3] for f in features if f is not None]), 0.05)
    vivid = float(np.median((chroma / darkness)[chroma >= COLOURED_FROM]))
    strength = float(np.clip(FULL_COLOUR / vivid, 1.0, MOST_STRENGTH))
    return strength if strength >= LEAST_STRENGTH else 1.0


def strengthen_colours(image: np.ndarray, patches: list[np.ndarray], strength: float) -> np.ndarray:
    """``image`` (BGR) with every pixel's colour moved ``strength`` times as far from the light's colour (the
    median face colour of ``patches``, from ``face_patches``) at its brightness: the faces stay as they are,
    a greyed blue turns blue again.  The image itself where ``strength`` is 1 or there are no patches.

    >>> face = np.full((4, 4, 3), (180, 210, 220), np.uint8)   # ivory under a warm light (BGR)
    >>> image = face.copy(); image[0, 0] = (120, 100, 100)      # a faint blue
    >>> out = strengthen_colours(image, [face], 2.0)
    >>> out[0, 0].tolist(), out[3, 3].tolist()
    ([144, 88, 83], [180, 210, 220])
    """
    if strength <= 1.0 or not patches:
        return image
    face = np.median(np.stack([_face_colour(p.reshape(-1, 3).astype(np.float64) + 1.0) for p in patches]), 0)
    face = face.astype(np.float32)
    pixels = image.astype(np.float32) + 1.0
    brightness = (pixels / face).mean(2, keepdims=True)
    out = strength * pixels + (1.0 - strength) * brightness * face - 1.0
    strengthened: np.ndarray = np.clip(out + 0.5, 0, 255).astype(np.uint8)
    return strengthened


def colour_disagrees(classifier: np.ndarray, ink: np.ndarray) -> bool:
    """Whether the ink surely (``INK_SURE``) shows another colour than the classifier's likeliest.

    >>> colour_disagrees(np.array([0.1, 0.1, 0.1, 0.7]), np.array([0.02, 0.02, 0.94, 0.02]))
    True
    >>> colour_disagrees(np.array([0.1, 0.1, 0.7, 0.1]), np.array([0.02, 0.02, 0.94, 0.02]))
    False
    >>> colour_disagrees(np.array([0.1, 0.1, 0.1, 0.7]), np.full(4, np.nan))
    False
    """
    if not np.isfinite(ink).all():
        return False
    read = int(np.argmax(ink))
    return bool(ink[read] >= INK_SURE and read != int(np.argmax(classifier)))
