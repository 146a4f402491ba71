"""Melds laid on the table: a photo's tiles split into melds, as a player laid them.

An Okey 101 opening (or a dispute over one) and a Rummikub table are photographed as they lie: lines of melds, the
tiles of a meld touching, a gap between melds.  :func:`photo_melds` says which meld each tile is in and its place
there, so the opening checker and the turn referee get melds, not one long list of tiles.

1. **Chains.**  Two tiles are neighbours where one lies along the rows' direction from the other
   (``vision.numerals.row_direction``, whatever the photo's turn, within ``SLACK``) and their centres lie at most
   ``LINK`` usual steps apart.  The usual step is a touching neighbour's: each tile's nearest neighbour along the rows,
   fitted as a plane over the photo (a photo taken at an angle shows near tiles larger than far ones), the steps far
   from the fit left out.  Chains of neighbours hold one or more melds.
2. **Splits.**  Along a chain, a step wider than ``GAP`` usual steps is a gap between melds, a narrower one is two
   tiles touching.  The detector's boxes sit a little off their tiles, so steps near ``GAP`` say little: where they
   do, the tiles' codes decide, the split that leaves melds that look legal (a run of one colour, numbers following
   each other either way; a set of one number in distinct colours; a pair; a false okey, a joker and the hand's okey
   where the table knows it standing in for any tile) winning.  A step ``BAND`` past ``GAP`` outweighs a meld that
   does not look legal (a tile read wrong, an okey the table does not know): the geometry's word is kept where it is
   clear.  Nothing is changed but where the melds part, and the page shows that for a tap to mend.
3. **Melds laid askew.**  Players round a table lay their melds each their own way.  The tiles left out of every meld
   that looks legal, with those of a meld whose ends run more than ``ASKEW`` from the rows, are chained again along
   their own rows' direction where it lies more than ``SLACK`` from every direction tried; each meld of three or more
   that looks legal along it is taken, the other tiles stay as they were (up to ``TURNS`` more directions).
4. **Order.**  Melds line by line (those whose centres lie within half a tile across the rows), each line along the
   rows, each meld's tiles along them.

Measured on rendered photos of melds on the table (``scripts/eval_melds.py``, models/README.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from vision.numerals import DIRECTION_REACH, components, row_direction

__all__ = ["photo_melds", "looks_like_meld", "GAP", "BAND", "LINK", "SLACK", "LONGEST", "TURNS", "ASKEW"]

GAP = 1.3
"""A step (between the centres of two neighbours) wider than this many usual steps parts two melds: tiles of a meld
touch (one step), and players leave a third of a tile or more between melds."""
BAND = 0.2
"""Where the codes have their say: a part that does not look like a meld costs as much as a step ``BAND`` usual steps
on the wrong side of ``GAP``, so a step farther from ``GAP`` than that decides however the codes read."""
LINK = 1.7
"""Neighbours farther apart than this many usual steps are never in one meld."""
SLACK = math.radians(25)
"""How far from the rows' direction a neighbour may lie (the rows of a photo taken at an angle converge)."""
LONGEST = 13
"""The most tiles a meld holds (a run from 1 to 13)."""
TURNS = 2
"""How many more directions the tiles left out of every meld are chained along (:func:`_along_their_own_rows`)."""
ASKEW = SLACK / 2
"""A meld whose ends lie farther than this from the rows' direction is chained again along rows of its own."""
WILDS = ("F", "J")
"""Codes any meld may hold anywhere (a false okey or a joker, read as a wild for the split only)."""


def looks_like_meld(codes: Sequence[str], wilds: Sequence[str] = WILDS) -> bool:
    """Whether ``codes`` (tile notation) could be one meld as laid: a pair of one tile, a set of one number in
    distinct colours (three or four), or a run of one colour whose numbers follow each other in laid order, up or
    down, 1 to 13; the ``wilds`` (``F`` and ``J``, and the hand's okey where it is known) stand in for any tile.  A
    rough test for where melds part, never a verdict: the rules engine judges the melds.

    >>> looks_like_meld(["R3", "R4", "R5"]), looks_like_meld(["K7", "F", "B7"]), looks_like_meld(["Y9", "Y8", "Y7"])
    (True, True, True)
    >>> looks_like_meld(["R3", "R4", "K5"]), looks_like_meld(["B2", "B2", "R2"]), looks_like_meld(["R12", "R13", "R1"])
    (False, False, False)
    """
    if len(codes) == 2:
        return codes[0] == codes[1] or any(code in wilds for code in codes)
    if not 3 <= len(codes) <= 13:
        return False
    plain = [(place, code[0], int(code[1:])) for place, code in enumerate(codes)
             if code not in wilds and code[1:].isdigit()]
    colours = {colour for _, colour, _ in plain}
    if len(codes) <= 4 and len({number for _, _, number in plain}) <= 1 and len(colours) == len(plain):
        return True
    if len(colours) > 1:
        return False
    if not plain:
        return True
    for sign in (1, -1):
        if len({number - sign * place for place, _, number in plain}) == 1:
            first = plain[0][2] - sign * plain[0][0]
            last = first + sign * (len(codes) - 1)
            if 1 <= min(first, last) and max(first, last) <= 13:
                return True
    return False


def _usual_step(centres: np.ndarray, nearest: np.ndarray, partner: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """The usual step between touching neighbours at any point of the photo: a plane fitted to each tile's step to its
    nearest neighbour along the rows (at their midpoint), refitted four times without the steps more than 15 % above
    or 40 % below it (a tile whose nearest neighbour lies past a gap); the median where fewer than six tiles have one."""
    measured = np.isfinite(nearest)
    if not measured.any():
        return lambda points: np.ones(points.shape[:-1])
    median = max(float(np.median(nearest[measured])), 1e-6)  # two boxes on one spot: no step of 0
    if measured.sum() < 6:
        return lambda points: np.full(points.shape[:-1], median)
    middle = (centres + centres[np.where(measured, partner, 0)]) / 2
    design = np.c_[np.ones(len(centres)), middle]
    plane = np.array([median, 0.0, 0.0])
    for _ in range(4):
        fitted = design @ plane
        kept = measured & (nearest < 1.15 * fitted) & (nearest > 0.6 * fitted)
        if kept.sum() < 6:
            break
        plane = np.linalg.lstsq(design[kept], nearest[kept], rcond=None)[0]
    floor = 0.25 * median  # a plane tipped by a few steps never makes a far corner's step vanish
    return lambda points: np.maximum(plane[0] + points[..., 0] * plane[1] + points[..., 1] * plane[2], floor)


def _split_chain(steps: Sequence[float], codes: Sequence[str], wilds: Sequence[str]) -> list[int]:
    """Where a chain's melds start (indices into ``codes``, 0 first): the splits of least cost, where splitting at a
    step narrower than ``GAP`` costs how much narrower (in ``BAND``\\ s), not splitting at a wider one how much wider,
    and each part that does not look like a meld (:func:`looks_like_meld`) costs one.  No part is longer than
    ``LONGEST`` tiles (no meld is)."""
    count = len(codes)
    wide = np.concatenate([[0.0], np.cumsum([max(0.0, step - GAP) / BAND for step in steps])])
    best, back = [0.0] + [math.inf] * count, [0] * (count + 1)
    for end in range(1, count + 1):
        for start in range(max(0, end - LONGEST), end):
            cost = best[start] + (0.0 if looks_like_meld(codes[start:end], wilds) else 1.0) + wide[end - 1] - wide[start]
            if start:
                cost += max(0.0, GAP - steps[start - 1]) / BAND
            if cost < best[end]:
                best[end], back[end] = cost, start
    starts, end = [], count
    while end > 0:
        starts.append(back[end])
        end = back[end]
    return starts[::-1]


def _melds_along(angle: float, centres: np.ndarray, codes: Sequence[str], wilds: Sequence[str]
                 ) -> tuple[list[list[int]], np.ndarray]:
    """The melds of rows running at ``angle`` (each a list of tile indices along the rows) and the rows' direction."""
    direction = np.array([math.cos(angle), math.sin(angle)])
    offsets = centres[None] - centres[:, None]
    distance = np.linalg.norm(offsets, axis=2)
    np.fill_diagonal(distance, np.inf)
    aligned = np.abs(offsets @ direction) >= math.cos(SLACK) * distance
    along_rows = np.where(aligned, distance, np.inf)
    usual = _usual_step(centres, along_rows.min(1), along_rows.argmin(1))
    steps = distance / usual((centres[None] + centres[:, None]) / 2)
    chains = components(aligned & (steps <= LINK))
    along = centres @ direction
    melds: list[list[int]] = []
    for chain in np.unique(chains):
        members = sorted((int(i) for i in np.flatnonzero(chains == chain)), key=lambda i: (along[i], i))
        starts = _split_chain([float(steps[a, b]) for a, b in zip(members, members[1:])], [codes[i] for i in members],
                              wilds)
        melds += [members[a:b] for a, b in zip(starts, [*starts[1:], len(members)])]
    return melds, direction


def _laid(meld: list[int], codes: Sequence[str], wilds: Sequence[str], fewest: int = 2) -> bool:
    """Whether the tiles ``meld`` (indices into ``codes``) are ``fewest`` or more and look like a meld
    (:func:`looks_like_meld`)."""
    return len(meld) >= fewest and looks_like_meld([codes[i] for i in meld], wilds)


def _off(direction: float, tried: list[float]) -> float:
    """How far ``direction`` lies from the nearest of the directions ``tried`` (radians, lines without a sense)."""
    return min(abs(math.remainder(direction - seen, math.pi)) for seen in tried)


def _askew(centres: np.ndarray, tried: list[float]) -> bool:
    """Whether tiles at ``centres`` (a meld's, in order along it) run more than ``ASKEW`` from every direction in
    ``tried``: a meld the chains took in though it lies along rows of its own."""
    if len(centres) < 2:
        return False
    run = centres[-1] - centres[0]
    own = math.atan2(float(run[1]), float(run[0]))
    return _off(own, tried) > ASKEW


def _along_their_own_rows(melds: list[list[int]], angle: float, centres: np.ndarray, codes: Sequence[str],
                          wilds: Sequence[str], reach: float) -> list[list[int]]:
    """``melds`` with the tiles left out of every meld that looks legal chained again along their own rows' direction,
    where it lies more than ``SLACK`` from every direction tried (a meld laid askew of the others, as players lay
    them round a table): each meld of three or more that looks legal along it is taken, the other tiles stay as they
    were; up to ``TURNS`` times."""
    tried = [angle]
    for _ in range(TURNS):
        loose = {i for meld in melds if not _laid(meld, codes, wilds) or _askew(centres[meld], tried) for i in meld}
        tiles = sorted(loose)
        if len(tiles) < 3:
            break
        own = row_direction(centres[tiles], reach)
        if own is None or _off(own, tried) <= SLACK:
            break
        tried.append(own)
        again, _ = _melds_along(own, centres[tiles], [codes[i] for i in tiles], wilds)
        found = [[tiles[i] for i in meld] for meld in again if _laid([tiles[i] for i in meld], codes, wilds, 3)]
        if not found:
            break
        taken = {i for meld in found for i in meld}
        melds = [kept for kept in ([i for i in meld if i not in taken] for meld in melds) if kept] + found
    return melds


def photo_melds(boxes: Sequence[Sequence[float]], codes: Sequence[str], okey: str | None = None) -> list[tuple[int, int]]:
    """Each tile's meld (numbered in reading order: line by line, along the rows) and its place in the meld, for a
    photo of melds laid on the table; ``boxes`` (x1, y1, x2, y2) and ``codes`` as the recogniser read them, ``okey``
    the hand's okey where the table knows it (a wild like ``F`` and ``J`` where the codes decide).

    Two lines: R1 R2 R3, a gap of half a tile, K7 Y7 B7; below them B4 B5 B6 and, touching it, B9 B10 B11: one chain,
    parted where the run breaks.

    >>> boxes = [(0, 0, 10, 14), (10, 0, 20, 14), (20, 0, 30, 14), (35, 0, 45, 14), (45, 0, 55, 14), (55, 0, 65, 14),
    ...          (0, 20, 10, 34), (10, 20, 20, 34), (20, 20, 30, 34), (31, 20, 41, 34), (41, 20, 51, 34), (51, 20, 61, 34)]
    >>> photo_melds(boxes, "R1 R2 R3 K7 Y7 B7 B4 B5 B6 B9 B10 B11".split())
    [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (3, 0), (3, 1), (3, 2)]
    """
    if len(boxes) != len(codes):
        raise ValueError(f"{len(boxes)} boxes and {len(codes)} codes: one code a box")
    if not boxes:
        return []
    array = np.array([[float(v) for v in box] for box in boxes], np.float64).reshape(-1, 4)
    centres = np.stack([(array[:, 0] + array[:, 2]) / 2, (array[:, 1] + array[:, 3]) / 2], 1)
    width, height = array[:, 2] - array[:, 0], array[:, 3] - array[:, 1]
    size = np.sqrt(np.maximum(width * height, 1e-9))
    reach = DIRECTION_REACH * float(np.median(np.minimum(width, height)))
    wilds = WILDS + ((okey,) if okey else ())
    angle = row_direction(centres, reach) or 0.0
    melds, direction = _melds_along(angle, centres, codes, wilds)
    melds = _along_their_own_rows(melds, angle, centres, codes, wilds, reach)
    along, across = centres @ direction, centres @ np.array([-direction[1], direction[0]])
    lines: list[list[list[int]]] = []
    for meld in sorted(melds, key=lambda m: float(across[m].mean())):
        if lines and abs(float(across[meld].mean()) - float(across[lines[-1][0]].mean())) <= float(size[meld].mean()) / 2:
            lines[-1].append(meld)
        else:
            lines.append([meld])
    places: list[tuple[int, int]] = [(0, 0)] * len(array)
    number = 0
    for line in lines:
        for meld in sorted(line, key=lambda m: float(along[m].min())):
            for place, index in enumerate(meld):
                places[index] = (number, place)
            number += 1
    return places
