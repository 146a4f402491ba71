"""Evaluate the recogniser on the held-out real photos (never trained on) and print a markdown report.

    .venv/bin/python scripts/eval_vision.py [--models models] [--verbose]
    .venv/bin/python scripts/eval_vision.py --synthetic scripts/cache/synthetic-eval   # rendered, seed 9001
    .venv/bin/python scripts/eval_vision.py --synthetic scripts/cache/racks-dev-*      # rendered racks, seed 9101 (scripts/vision_figures.py renders every dev set)
    .venv/bin/python scripts/eval_vision.py --labelled kept                            # okey-companion photos export kept

Figures: per-tile detection recall and precision (IoU ≥ 0.5), classification accuracy of the detected
tiles, the issue's figures (tiles found and read right, extra boxes, sure tiles that are wrong), share
of photos read exactly right, median and worst time, then per colour the recall and accuracy and the
confusion tables by colour and by number (truth in rows, "—" = not found).  Several ``--synthetic``
folders are reported one by one and then together.  On synthetic scenes it also scores the upside-down
flag.  Needs no torch.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from real_photos import add_photos_argument, load_photos, split_photos, use_photos  # noqa: E402
from vision import Recognizer  # noqa: E402
from vision.imageio import load_image  # noqa: E402
from vision.numerals import boxes_direction  # noqa: E402
from vision.postprocess import box_iou  # noqa: E402
from vision.recognizer import (  # noqa: E402
    BLUR_MESSAGE, GLARE_MESSAGE, LOW_CONFIDENCE, MODELS_DIR, UPSIDE_DOWN_WARNING, DetectedTile, Recognition, blown_out,
    under_glare,
)


def match(truth: list[tuple[str, tuple[float, ...]]], found: list[tuple[str, tuple[int, ...], float]],
          threshold: float = 0.5, wholes: tuple[tuple[float, ...], ...] | None = None) -> list[tuple[int, int]]:
    """Greedy one-to-one matches (truth index, found index) by IoU, most confident detections first.  Where the
    labels also give each tile's ``wholes`` (the box of all of it that shows: face, top and sides, as a 3-D render
    knows it), a box matches a tile on the better of its two IoUs: a box around the whole tile has found it too."""
    if not truth or not found:
        return []
    truth_boxes = np.array([box or (0, 0, 0, 0) for _, box in truth], np.float32)  # no box: never matched
    whole_boxes = None if wholes is None else np.array([box or (0, 0, 0, 0) for box in wholes], np.float32)
    taken: set[int] = set()
    pairs = []
    for f in sorted(range(len(found)), key=lambda i: -found[i][2]):
        ious = box_iou(np.array(found[f][1], np.float32), truth_boxes)
        if whole_boxes is not None:
            ious = np.maximum(ious, box_iou(np.array(found[f][1], np.float32), whole_boxes))
        for t in np.argsort(-ious):
            if ious[t] < threshold:
                break
            if int(t) not in taken:
                taken.add(int(t))
                pairs.append((int(t), f))
                break
    return pairs


def _colour(tile: str) -> str:
    return tile if tile in ("F", "J") else tile[0]


def _number(tile: str) -> str:
    return tile if tile in ("F", "J") else tile[1:]


@dataclass(frozen=True)
class Sample:
    """A labelled photo: tiles with boxes, and up/down where known (synthetic scenes)."""

    path: Path
    tiles: tuple[tuple[str, tuple[float, ...]], ...]
    upside_down: tuple[bool, ...] | None
    columns: tuple[int, int] | None = None
    """Only this part of the photo's width is read (pixels from, to): one of two halves (``--halves``)."""
    wholes: tuple[tuple[float, ...], ...] | None = None
    """Each tile's whole box (face, top and sides) where the labels give it (``render_racks_3d.py``)."""
    melds: tuple[int, ...] | None = None
    """Each tile's meld where the labels give it (melds laid on the table, ``--style table``; ``eval_melds.py``)."""


def real_samples() -> list[Sample]:
    _, held_out = split_photos(load_photos())
    return [Sample(photo.path, photo.tiles, None) for photo in held_out]


def _box(row: dict[str, str]) -> tuple[float, ...]:
    """A label's box; ``()`` where the row leaves it empty: a tile in the photo that the reader found no box for
    (a reviewer adds such a tile to an export of kept photos by its code alone), always counted as missed."""
    if not any(row.get(k, "").strip() for k in ("x1", "y1", "x2", "y2")):
        return ()
    return tuple(float(row[k]) for k in ("x1", "y1", "x2", "y2"))


def synthetic_samples(directory: Path) -> list[Sample]:
    """Scenes written by ``scripts/render_tiles.py --out directory`` (use a seed the training pool did not), or
    photos kept at the table as ``okey-companion photos export directory`` writes them (up/down not known)."""
    rows: dict[str, list[dict[str, str]]] = defaultdict(list)
    with open(directory / "labels.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            rows[row["image"]].append(row)
    return [Sample(directory / name, tuple((r["tile"], _box(r)) for r in group),
                   tuple(r["upside_down"] == "1" for r in group) if "upside_down" in group[0] else None,
                   wholes=tuple(_box({k: r[f"whole_{k}"] for k in ("x1", "y1", "x2", "y2")}) for r in group)
                   if "whole_x1" in group[0] else None,
                   melds=tuple(int(r["meld"]) for r in group) if "meld" in group[0] else None)
            for name, group in rows.items()]


def _table(counts: Counter[tuple[str, str]], rows: list[str], columns: list[str]) -> str:
    """A markdown confusion table: truth in rows, what was read in columns, blank for zero."""
    lines = ["| truth \\ read | " + " | ".join(columns) + " |", "|---|" + "---|" * len(columns)]
    for row in rows:
        if any(counts[(row, c)] for c in columns):
            lines.append(f"| {row} | " + " | ".join(str(counts[(row, c)] or "") for c in columns) + " |")
    return "\n".join(lines)


def why_flagged(tile: DetectedTile) -> str:
    """What flags a tile for a tap, as the tile carries it: the confidence bar (``LOW_CONFIDENCE``), a colour in
    doubt (another offered), the recogniser's warnings (up/down flags nothing); "the looks" where none of those says:
    the second classifier or the number reader read it otherwise, or the second is unsure."""
    reasons = (["the bar"] if tile.confidence < LOW_CONFIDENCE else []) + (["its colour"] if tile.other_colour else [])
    reasons += [warning for warning in tile.warnings if warning != UPSIDE_DOWN_WARNING]
    return " + ".join(reasons) or "the looks"


def right_on_boxes(read: Sequence[DetectedTile], boxes: np.ndarray, codes: Sequence[str]) -> int:
    """How many of the tiles ``Recognizer.read_tiles`` read on the labelled ``boxes`` carry their label's code.  It
    gives them in its own reading order (along the rack's rows), not the labels' order: each is matched to the
    labelled box it lies on.

    >>> boxes = np.array([[0, 0, 10, 20], [10, 0, 20, 20]], np.float32)
    >>> read = [DetectedTile("B2", (10, 0, 20, 20), 0.9, False, False, ()),
    ...         DetectedTile("R1", (0, 0, 10, 20), 0.9, False, False, ())]
    >>> right_on_boxes(read, boxes, ["R1", "B2"]), right_on_boxes(read, boxes, ["B2", "R1"])
    (2, 0)
    """
    return sum(tile.tile == codes[int(np.argmax(box_iou(np.asarray(tile.box, np.float32), boxes)))] for tile in read)


@dataclass
class Tally:
    """What reading a set of labelled photos counted: tallies of several sets add up (``+``) to the figures of all
    of them together, without reading any photo again."""

    photos: int = 0
    truths: int = 0
    found_total: int = 0
    matched: int = 0
    correct: int = 0
    exact: int = 0
    on_truth_right: int = 0
    boxed_total: int = 0
    flagged_wrong: int = 0
    flagged_right: int = 0
    upside_known: int = 0
    upside_right: int = 0
    sure: int = 0
    sure_wrong: int = 0
    sure_extra: int = 0
    glare_warned: int = 0
    glare_missed: int = 0
    glare_missed_warned: int = 0
    glare_exact: int = 0
    blur_warned: int = 0
    blur_truths: int = 0
    blur_right: int = 0
    colour_table: Counter[tuple[str, str]] = field(default_factory=Counter)
    number_table: Counter[tuple[str, str]] = field(default_factory=Counter)
    per_colour: Counter[tuple[str, str]] = field(default_factory=Counter)
    colour_confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    number_confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    flagged_why: Counter[str] = field(default_factory=Counter)
    """What flags the tiles read right but flagged."""
    read: list[tuple[float, bool, bool]] = field(default_factory=list)
    """(confidence, flagged though confident, read right) of every found tile."""
    times: list[float] = field(default_factory=list)

    def __add__(self, other: Tally) -> Tally:
        """Both sets' counts together.

        >>> a, b = Tally(photos=1, truths=3, correct=2), Tally(photos=2, truths=5, correct=5)
        >>> a.colour_table[("R", "Y")] = 1; b.colour_table[("R", "Y")] = 2; b.times.append(90.0)
        >>> both = a + b
        >>> both.photos, both.truths, both.correct, both.colour_table[("R", "Y")], both.times
        (3, 8, 7, 3, [90.0])
        """
        return Tally(**{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(Tally)})

    @property
    def extra(self) -> int:
        return self.found_total - self.matched


def evaluate(recognizer: Recognizer, samples: list[Sample], verbose: bool,
             photo: Callable[[np.ndarray], np.ndarray] | None = None) -> Tally:
    """Read ``samples`` and count what was read right (``report`` prints it); ``photo`` changes each photo before it
    is read (a stress test).  ``verbose`` prints every mistake as it is found."""
    recognizer.recognize(samples[0].path)  # warm-up: the first run pays for allocations
    n = Tally(photos=len(samples))
    for sample in samples:
        pixels = load_image(sample.path)
        if sample.columns is not None:
            pixels = np.ascontiguousarray(pixels[:, sample.columns[0] : sample.columns[1]])
        if photo is not None:
            pixels = photo(pixels)
        boxed = [t for t, (_, box) in enumerate(sample.tiles) if box]
        n.boxed_total += len(boxed)
        truth_boxes = np.array([sample.tiles[t][1] for t in boxed], np.float32).reshape(-1, 4)
        on_truth = recognizer.read_tiles(pixels, truth_boxes, np.ones(len(truth_boxes), np.float32)) if boxed else []
        n.on_truth_right += right_on_boxes(on_truth, truth_boxes, [sample.tiles[t][0] for t in boxed])
        result = recognizer.recognize(sample.path if photo is None and sample.columns is None else pixels)
        n.times.append(result.elapsed_ms)
        found = [(t.tile, t.box, t.confidence) for t in result.tiles]
        pairs = match(list(sample.tiles), found, wholes=sample.wholes)
        right = sum(sample.tiles[t][0] == found[f][0] for t, f in pairs)
        matched_found = {f for _, f in pairs}
        n.sure_extra += sum(not tile.low_confidence for f, tile in enumerate(result.tiles) if f not in matched_found)
        n.truths += len(sample.tiles)
        n.found_total += len(found)
        n.matched += len(pairs)
        n.correct += right
        n.exact += right == len(sample.tiles) == len(found)
        matched_truth = {t for t, _ in pairs}
        warned = GLARE_MESSAGE in result.warnings
        blown = blown_out(pixels)
        missed_under_glare = any(t not in matched_truth and box and under_glare(blown, box)
                                 for t, (_, box) in enumerate(sample.tiles))
        n.glare_warned += warned
        n.glare_missed += missed_under_glare
        n.glare_missed_warned += missed_under_glare and warned
        n.glare_exact += warned and right == len(sample.tiles) == len(found)
        if BLUR_MESSAGE in result.warnings:
            n.blur_warned, n.blur_truths, n.blur_right = n.blur_warned + 1, n.blur_truths + len(sample.tiles), n.blur_right + right
        for t, (want, _) in enumerate(sample.tiles):
            n.per_colour[(_colour(want), "all")] += 1
            if t not in matched_truth:
                n.colour_table[(_colour(want), "—")] += 1
                n.number_table[(_number(want), "—")] += 1
        for t, f in pairs:
            want, got = sample.tiles[t][0], found[f][0]
            flagged = result.tiles[f].low_confidence
            n.colour_table[(_colour(want), _colour(got))] += 1
            n.number_table[(_number(want), _number(got))] += 1
            n.per_colour[(_colour(want), "found")] += 1
            n.per_colour[(_colour(want), "right")] += want == got
            n.sure += not flagged
            n.sure_wrong += not flagged and want != got
            n.read.append((result.tiles[f].confidence, flagged and result.tiles[f].confidence >= LOW_CONFIDENCE, want == got))
            n.flagged_wrong += flagged and want != got
            n.flagged_right += flagged and want == got
            if flagged and want == got:
                n.flagged_why[why_flagged(result.tiles[f])] += 1
            if sample.upside_down is not None:
                n.upside_known += 1
                n.upside_right += sample.upside_down[t] == result.tiles[f].upside_down
            if _colour(want) != _colour(got):
                n.colour_confusions[(_colour(want), _colour(got))] += 1
            if _number(want) != _number(got):
                n.number_confusions[(_number(want), _number(got))] += 1
            if verbose and want != got:
                print(f"  {sample.path.name[:24]}: {want} read as {got} ({found[f][2]:.2f}, {'flagged' if flagged else 'SURE'})")
        if verbose and (len(pairs) < len(sample.tiles) or len(found) > len(pairs)):
            print(f"  {sample.path.name[:24]}: {len(sample.tiles) - len(pairs)} missed, {len(found) - len(pairs)} extra")
    return n


def report(n: Tally, thresholds: tuple[float, ...] = ()) -> None:
    """Print a tally's figures as markdown table rows, per colour, and the confusion tables."""
    print(f"photos: {n.photos}, tiles: {n.truths}")
    print("| figure | value |\n|---|---|")
    print(f"| detection recall (IoU ≥ 0.5) | {n.matched / n.truths:.1%} ({n.matched}/{n.truths}) |")
    print(f"| detection precision | {n.matched / max(n.found_total, 1):.1%} ({n.matched}/{n.found_total}) |")
    print(f"| classification accuracy of detected tiles | {n.correct / max(n.matched, 1):.1%} ({n.correct}/{n.matched}) |")
    print(f"| classifier alone on the labelled boxes | {n.on_truth_right / max(n.boxed_total, 1):.1%} ({n.on_truth_right}/{n.boxed_total}) |")
    print(f"| end-to-end: tiles read right / all tiles | {n.correct / n.truths:.1%} |")
    print(f"| photos read exactly right | {n.exact / n.photos:.1%} ({n.exact}/{n.photos}) |")
    print(f"| time per photo: median / worst | {statistics.median(n.times):.0f} ms / {max(n.times):.0f} ms |")
    print(f"| low confidence flagged: misread tiles / tiles read right | {n.flagged_wrong}/{n.matched - n.correct} / {n.flagged_right}/{n.correct} |")
    extra = n.extra
    print(f"| issue's figures: found and read right / extra / sure tiles wrong | {n.correct / n.truths:.1%} / "
          f"{extra / n.truths:.1%} ({extra}) / {n.sure_wrong / max(n.sure, 1):.1%} ({n.sure_wrong}/{n.sure}) |")
    print(f"| extra boxes read as sure tiles (no tile labelled there: a tile less than 60 % in the frame, a box on "
          f"part of a tile) | {n.sure_extra} |")
    print(f"| glare warned: photos / of those with a tile missed under glare (half its box blown out) / of those read "
          f"exactly | {n.glare_warned} / {n.glare_missed_warned} of {n.glare_missed} / {n.glare_exact} of {n.exact} |")
    print(f"| blur warned: photos / their tiles read right | {n.blur_warned} / {n.blur_right / max(n.blur_truths, 1):.1%} "
          f"({n.blur_right}/{n.blur_truths}) |")
    if n.upside_known:
        print(f"| upside down told right (detected tiles) | {n.upside_right / n.upside_known:.1%} ({n.upside_right}/{n.upside_known}) |")
    for threshold in thresholds:
        # A tile flagged for another reason (its two number readings disagree) stays flagged.
        sure_at = [right for confidence, flagged, right in n.read if confidence >= threshold and not flagged]
        wrong_at = sum(not right for right in sure_at)
        flagged_right_at = sum(right for confidence, flagged, right in n.read if confidence < threshold or flagged)
        print(f"| low-confidence threshold {threshold:.2f}: sure tiles wrong / tiles read right but flagged | "
              f"{wrong_at / max(len(sure_at), 1):.1%} ({wrong_at}/{len(sure_at)}) / {flagged_right_at}/{n.correct} |")
    print("\nper colour (truth): found / read right of found")
    print("| colour | tiles | found | read right |\n|---|---|---|---|")
    for c in ("R", "Y", "B", "K", "F", "J"):
        if n.per_colour[(c, "all")]:
            all_, found_, right_ = n.per_colour[(c, "all")], n.per_colour[(c, "found")], n.per_colour[(c, "right")]
            print(f"| {c} | {all_} | {found_ / all_:.1%} | {right_ / max(found_, 1):.1%} |")
    print("\ncolour confusion (found tiles; — = not found):\n")
    print(_table(n.colour_table, ["R", "Y", "B", "K", "F", "J"], ["R", "Y", "B", "K", "F", "J", "—"]))
    numbers = [str(k) for k in range(1, 14)] + ["F", "J"]
    print("\nnumber confusion:\n")
    print(_table(n.number_table, numbers, numbers + ["—"]))
    print("\ncolour confusions (truth→read):", ", ".join(f"{a}→{b}: {count}" for (a, b), count in n.colour_confusions.most_common()) or "none")
    print("number confusions (truth→read):", ", ".join(f"{a}→{b}: {count}" for (a, b), count in n.number_confusions.most_common()) or "none")
    print("right tiles flagged, by what flags them:",
          ", ".join(f"{why}: {count}" for why, count in n.flagged_why.most_common()) or "none")


def _photo_rng(pixels: np.ndarray) -> np.random.Generator:
    """A random generator seeded from the photo's pixels: a stress test draws the same tiles of a photo on
    every run, with and without the stages it is compared across."""
    return np.random.default_rng(int(pixels[::97, ::89].astype(np.int64).sum()) % 2**31)


def _fainter(saturation: float, brightness: float) -> Callable[[np.ndarray], np.ndarray]:
    """A photo as a dim room or a phone's low-light processing would take it: its colours at ``saturation``
    of their strength about grey, its brightness times ``brightness`` (darker: with a camera's noise, drawn
    from the photo's pixels like :func:`_weaken`, and saved again as a JPEG of quality 75)."""

    def fainter(pixels: np.ndarray) -> np.ndarray:
        out = pixels.astype(np.float32) * brightness
        grey = out.mean(2, keepdims=True)
        out = grey + (out - grey) * saturation
        if brightness >= 1:
            return np.clip(out, 0, 255).astype(np.uint8)
        out += _photo_rng(pixels).normal(0, 4, out.shape).astype(np.float32)
        _, encoded = cv2.imencode(".jpg", np.clip(out, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 75])
        return cv2.imdecode(encoded, cv2.IMREAD_COLOR)

    return fainter


def _smaller(scale: float, then: Callable[[np.ndarray], np.ndarray] | None) -> Callable[[np.ndarray], np.ndarray]:
    """A photo taken with fewer pixels (a laptop's camera, a far shot): resized by ``scale`` and saved again as a
    JPEG of quality 60, then changed by ``then`` if given."""

    def smaller(pixels: np.ndarray) -> np.ndarray:
        small = cv2.resize(pixels, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        _, encoded = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 60])
        out = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
        return then(out) if then is not None else out

    return smaller


def _larger(scale: float, then: Callable[[np.ndarray], np.ndarray] | None) -> Callable[[np.ndarray], np.ndarray]:
    """A photo with as many pixels as a phone's (``scale`` 4.2 makes a 960×720 render 4032×3024): enlarged by ``scale``
    with a sensor's noise at that size and saved again as a JPEG of quality 90, then changed by ``then`` if given.
    It is then read at a working size (``vision.imageio.load_photo``) unless ``--no-reduce``."""

    def larger(pixels: np.ndarray) -> np.ndarray:
        big = cv2.resize(pixels, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC).astype(np.float32)
        big += _photo_rng(pixels).normal(0.0, 4.0, big.shape).astype(np.float32)
        _, encoded = cv2.imencode(".jpg", np.clip(big, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 90])
        out = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
        return then(out) if then is not None else out

    return larger


def _shaken(length: float, then: Callable[[np.ndarray], np.ndarray] | None) -> Callable[[np.ndarray], np.ndarray]:
    """A photo taken with a moving hand (a long exposure in a dim room): smeared along a straight line ``length`` times
    the photo's long side / 1,000 pixels long, at an angle drawn from the photo, and saved again as a JPEG of quality
    85, then changed by ``then`` if given (4: a 960-px render smeared 4 px, about a twentieth of a tile's width)."""

    def shaken(pixels: np.ndarray) -> np.ndarray:
        pixels_long = max(1.0, length * max(pixels.shape[:2]) / 1000)
        size = int(np.ceil(pixels_long)) | 1
        kernel = np.zeros((size, size), np.float32)
        angle = _photo_rng(pixels).uniform(0, np.pi)
        centre = size // 2
        for t in np.linspace(-pixels_long / 2, pixels_long / 2, 4 * size):
            x, y = centre + t * np.cos(angle), centre + t * np.sin(angle)
            kernel[min(max(round(y), 0), size - 1), min(max(round(x), 0), size - 1)] += 1
        out = cv2.filter2D(pixels, -1, kernel / kernel.sum(), borderType=cv2.BORDER_REFLECT)
        _, encoded = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, 85])
        out = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
        return then(out) if then is not None else out

    return shaken


def taken_farther(pad: float, then: Callable[[np.ndarray], np.ndarray] | None) -> Callable[[np.ndarray], np.ndarray]:
    """A photo taken from farther away, or with a wider lens: the scene ``pad`` times its width and height larger on
    each side, in the colour of its own edges with a camera's noise (0.5: the rack half as wide in the photo, 1.0: a
    third), then changed by ``then`` if given."""

    def farther(pixels: np.ndarray) -> np.ndarray:
        height, width = pixels.shape[:2]
        edges = np.concatenate([pixels[0], pixels[-1], pixels[:, 0], pixels[:, -1]])
        colour = [int(v) for v in np.median(edges, 0)]
        across, down = round(width * pad), round(height * pad)
        out = cv2.copyMakeBorder(pixels, down, down, across, across, cv2.BORDER_CONSTANT, value=colour).astype(np.float32)
        out += _photo_rng(pixels).normal(0.0, 4.0, out.shape).astype(np.float32)
        out = np.clip(out, 0, 255).astype(np.uint8)
        out[down : down + height, across : across + width] = pixels
        return then(out) if then is not None else out

    return farther


def _moved(samples: list[Sample], pad: float) -> list[Sample]:
    """``samples`` with their boxes moved like the photos of :func:`taken_farther`."""
    moved = []
    for s in samples:
        height, width = load_image(s.path).shape[:2]
        across, down = round(width * pad), round(height * pad)
        def shifted(box: tuple[float, ...]) -> tuple[float, ...]:
            return tuple(v + shift for v, shift in zip(box, (across, down, across, down)))  # no box stays none
        tiles = tuple((tile, shifted(box)) for tile, box in s.tiles)
        wholes = None if s.wholes is None else tuple(shifted(box) for box in s.wholes)
        moved.append(Sample(s.path, tiles, s.upside_down, s.columns, wholes))
    return moved


def _halves(samples: list[Sample], share: float) -> list[Sample]:
    """Each of ``samples`` taken as two photos, its left and its right ``share`` of the width (0.6: they overlap
    by a fifth), as a rack too wide for one photo is taken in halves; a tile with less than 60 % of its box
    inside a half is not labelled there (the renderers' rule for the frame)."""
    halves = []
    for sample in samples:
        unboxed = [tile for tile, box in sample.tiles if not box]
        if unboxed:
            raise SystemExit(f"--halves: {sample.path.name} has a tile labelled without a box ({unboxed[0]}), so which "
                             "half shows it is not known; give it a box in labels.csv, or leave out --halves")
        width = load_image(sample.path).shape[1]
        for start, end in ((0, round(width * share)), (round(width * (1 - share)), width)):
            kept = [k for k, (_, (x1, _, x2, _)) in enumerate(sample.tiles)
                    if max(0.0, min(x2, end) - max(x1, start)) >= 0.6 * max(x2 - x1, 1e-9)]
            def cut(box: tuple[float, ...]) -> tuple[float, ...]:
                x1, y1, x2, y2 = box
                return max(x1, start) - start, y1, min(x2, end) - start, y2
            tiles = tuple((sample.tiles[k][0], cut(sample.tiles[k][1])) for k in kept)
            upside_down = None if sample.upside_down is None else tuple(sample.upside_down[k] for k in kept)
            wholes = None if sample.wholes is None else tuple(cut(sample.wholes[k]) for k in kept)
            halves.append(Sample(sample.path, tiles, upside_down, (start, end), wholes))
    return halves


def _scaled(samples: list[Sample], scale: float) -> list[Sample]:
    """``samples`` with their boxes scaled like the photos of :func:`_smaller`."""
    def scaled(box: tuple[float, ...]) -> tuple[float, ...]:
        return tuple(v * scale for v in box)
    return [Sample(s.path, tuple((tile, scaled(box)) for tile, box in s.tiles), s.upside_down, s.columns,
                   None if s.wholes is None else tuple(scaled(box) for box in s.wholes)) for s in samples]


def _weaken(recognizer: Recognizer, share: float) -> None:
    """Make ``recognizer``'s detector miss ``share`` of its boxes at random, drawn from the photo's pixels
    (so the same boxes go with and without the later stages)."""
    find_tiles = recognizer.find_tiles

    def weaker(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        boxes, scores = find_tiles(pixels)
        keep = _photo_rng(pixels).random(len(boxes)) >= share
        return boxes[keep], scores[keep]

    recognizer.find_tiles = weaker  # type: ignore[method-assign]


def _blur_boxes(recognizer: Recognizer, share: float) -> None:
    """Make ``recognizer``'s detector boxes less exact: sizes times 1 ± ``share``, centres moved by up to
    0.7 × ``share`` of the size, drawn from the photo's pixels like :func:`_weaken`."""
    find_tiles = recognizer.find_tiles

    def blurred(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        boxes, scores = find_tiles(pixels)
        rng = _photo_rng(pixels)
        centres, sizes = (boxes[:, :2] + boxes[:, 2:]) / 2, boxes[:, 2:] - boxes[:, :2]
        new_sizes = sizes * rng.uniform(1 - share, 1 + share, sizes.shape)
        new_centres = centres + sizes * rng.uniform(-0.7 * share, 0.7 * share, sizes.shape)
        return np.concatenate([new_centres - new_sizes / 2, new_centres + new_sizes / 2], 1).astype(np.float32), scores

    recognizer.find_tiles = blurred  # type: ignore[method-assign]


def _mislead(recognizer: Recognizer, share: float) -> None:
    """Turn ``recognizer``'s up/down over for ``share`` of the tiles before the number reader reads them,
    drawn from the photo's pixels like :func:`_weaken`."""
    read_numbers = recognizer.read_numbers

    def misled(pixels: np.ndarray, boxes: np.ndarray, kinds: np.ndarray, upside_down: np.ndarray,
               frames: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        turned = _photo_rng(pixels).random(len(boxes)) < share
        return read_numbers(pixels, boxes, kinds, np.where(turned, 1 - upside_down, upside_down), frames)

    recognizer.read_numbers = misled  # type: ignore[method-assign]


def _median_area(boxes: np.ndarray) -> float:
    return float(np.median((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])))


def _level(recognizer: Recognizer, from_degrees: float, tighter: float | None = None) -> None:
    """Experiment, not in the app (forty-eighth round): read a photo whose rows (``vision.numerals.boxes_direction`` of
    the detector's boxes) lie ``from_degrees`` or more from level turned so they lie level, on a canvas grown to hold
    it all and filled with the photo's median colour; each tile's box is turned back and bounded.  With ``tighter``,
    only where the detector's boxes on the turned photo are at most that share of the photo's in median area (tiles
    turned upright, not a grid's diagonal).  Tried, not kept (models/HISTORY.md)."""
    recognize = recognizer.recognize

    def levelled(image: bytes | str | Path | np.ndarray) -> Recognition:
        pixels = image if isinstance(image, np.ndarray) else load_image(image)
        boxes, _ = recognizer.find_tiles(pixels)
        angle = boxes_direction(boxes)
        if angle is None or abs(np.degrees(angle)) < from_degrees:
            return recognize(pixels)
        height, width = pixels.shape[:2]
        turn = cv2.getRotationMatrix2D((width / 2, height / 2), float(np.degrees(angle)), 1.0)
        cos, sin = abs(turn[0, 0]), abs(turn[0, 1])
        size = (int(height * sin + width * cos), int(height * cos + width * sin))
        turn[:, 2] += (size[0] - width) / 2, (size[1] - height) / 2
        fill = tuple(float(v) for v in np.median(pixels.reshape(-1, 3), 0))
        level = cv2.warpAffine(pixels, turn, size, borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
        if tighter is not None:  # turned only where the boxes found on the turned photo are this much smaller
            level_boxes, _ = recognizer.find_tiles(level)
            if len(level_boxes) < 3 or _median_area(level_boxes) > tighter * _median_area(boxes):
                return recognize(pixels)
        result = recognize(level)
        back = cv2.invertAffineTransform(turn)

        def turned_back(tile: DetectedTile) -> DetectedTile:
            x1, y1, x2, y2 = tile.box
            corners = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]], np.float64) @ back.T
            low, high = np.maximum(corners.min(0), 0), np.minimum(corners.max(0), (width, height))
            return replace(tile, box=(int(low[0]), int(low[1]), int(high[0]), int(high[1])))

        return replace(result, tiles=tuple(map(turned_back, result.tiles)), width=width, height=height)

    recognizer.recognize = levelled  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description="evaluate tile recognition on the held-out real photos")
    parser.add_argument("--models", type=Path, default=MODELS_DIR)
    parser.add_argument("--turns", type=int, default=4, help="quarter turns averaged by the classifier (1-4)")
    parser.add_argument("--synthetic", "--labelled", type=Path, nargs="+", dest="synthetic",
                        help="evaluate on the labelled photos of these folders instead (labels.csv and the images): "
                             "rendered scenes, or photos kept at the table ('okey-companion photos export DIR')")
    parser.add_argument("--verbose", action="store_true", help="list every mistake")
    parser.add_argument("--no-rack-prior", action="store_true", help="leave out the row checks of vision/rack.py")
    parser.add_argument("--no-number-reader", action="store_true", help="leave out the number reader (vision/numerals.py)")
    parser.add_argument("--no-ink-check", action="store_true", help="leave out the ink-colour check (vision/ink.py)")
    parser.add_argument("--no-row-gaps", action="store_true",
                        help="leave out the search for tiles missed in a row (vision/rack.py row_gaps)")
    parser.add_argument("--drop-boxes", type=float, default=0.0, metavar="SHARE",
                        help="stress test: throw away this share of the detector's boxes (the same ones on every run), "
                             "as a detector weaker on some tile set would miss them")
    parser.add_argument("--jitter-boxes", type=float, default=0.0, metavar="SHARE",
                        help="stress test: change each detector box's width and height by up to this share and move "
                             "its centre by up to 0.7 of it, at random, as a detector less exact on some tile set would")
    parser.add_argument("--flip-up-down", type=float, default=0.0, metavar="SHARE",
                        help="stress test: turn the classifier's up/down over for this share of the tiles the number "
                             "reader reads, as a head wrong on some tile set would be")
    parser.add_argument("--faint-colours", type=float, default=1.0, metavar="SATURATION",
                        help="stress test: every photo's colours at this share of their strength (0.5: half as "
                             "vivid), as a dim room or a phone's low-light processing would take them")
    parser.add_argument("--darker", type=float, default=1.0, metavar="BRIGHTNESS",
                        help="stress test: every photo this much as bright, with a camera's noise")
    parser.add_argument("--smaller", type=float, default=1.0, metavar="SCALE",
                        help="stress test: every photo resized by this scale and saved as a JPEG of quality 60, as a "
                             "laptop's camera or a far shot would take it")
    parser.add_argument("--larger", type=float, default=1.0, metavar="SCALE",
                        help="stress test: every photo enlarged by this scale with a sensor's noise and saved as a JPEG "
                             "of quality 90 (4.2: a phone's 12 MP), to measure reading at the working size")
    parser.add_argument("--farther", type=float, default=0.0, metavar="PAD",
                        help="stress test: every photo taken from farther away, the scene PAD times its size larger on "
                             "each side (0.5: the rack half as wide in the photo, 1.0: a third), in its edges' colour")
    parser.add_argument("--shake", type=float, default=0.0, metavar="LENGTH",
                        help="stress test: every photo smeared along a line LENGTH thousandths of its long side long, "
                             "at an angle drawn from the photo, as a hand moving in a long exposure takes it (4: a "
                             "960-px photo smeared 4 px)")
    parser.add_argument("--no-blur-check", action="store_true",
                        help="leave out the checks for a blurred photo and a blurred tile (vision.recognizer "
                             "BLURRED_BELOW, TILE_BLURRED_BELOW, BLURRED_SURE_FROM)")
    parser.add_argument("--no-faint-bar", action="store_true",
                        help="leave out the higher bar on a sure colour in a photo whose colours were strengthened "
                             "(vision.recognizer FAINT_COLOUR_SURE)")
    parser.add_argument("--no-second-look", action="store_true",
                        help="leave out the second classifier's look (vision.recognizer SECOND_CLASSIFIER): a tile is "
                             "then sure on the first classifier's reading alone")
    parser.add_argument("--no-far-shots", action="store_true",
                        help="leave out the second look of the detector at a far shot's tiles (vision.recognizer FEW_TILES, ZOOM_FROM)")
    parser.add_argument("--no-closer-read", action="store_true",
                        help="leave out the second reading of a large photo's tiles from the whole photo's pixels "
                             "where they lie in a part of it no larger than the working size (Recognizer read_closer)")
    parser.add_argument("--no-reduce", action="store_true",
                        help="read large photos at their full size, not at the working size of vision.imageio.load_photo")
    parser.add_argument("--halves", type=float, default=None, metavar="SHARE",
                        help="stress test: every photo read as two, its left and its right SHARE of the width (0.6: "
                             "overlapping by a fifth), as a rack too wide for one photo is taken in halves")
    parser.add_argument("--no-strengthen", action="store_true",
                        help="leave out the strengthening of faint colours (vision/ink.py colour_strength)")
    add_photos_argument(parser)
    parser.add_argument("--level-from", type=float, default=None, metavar="DEGREES",
                        help="experiment, not in the app: read a photo whose rows lie this many degrees or more from "
                             "level turned so that they lie level, its boxes turned back (tried, not kept)")
    parser.add_argument("--level-tighter", type=float, default=None, metavar="SHARE",
                        help="with --level-from: turn a photo only where the boxes found on it turned are at most "
                             "this share of its own boxes in median area")
    parser.add_argument("--table", action="store_true",
                        help="the photos show melds laid on the table: find their tiles with the table detector "
                             "(models/detector_table.onnx), as the photo page does for a picker of melds")
    parser.add_argument("--thresholds", type=float, nargs="*", default=(), help="also score these low-confidence thresholds")
    args = parser.parse_args()
    for name in ("faint_colours", "darker", "smaller", "larger"):
        if not getattr(args, name) > 0:
            parser.error(f"--{name.replace('_', '-')} {getattr(args, name)}: give a share above 0 (1 leaves the photos as they are)")
    if args.shake < 0:
        parser.error(f"--shake {args.shake}: give a length of 0 or more")
    if args.farther and (args.farther < 0 or args.halves is not None):
        parser.error(f"--farther {args.farther}: give a share above 0, and no --halves with it")
    if args.halves is not None and not 0.5 <= args.halves < 1:
        parser.error(f"--halves {args.halves}: give a share of the width from 0.5 (halves meeting) to below 1")
    use_photos(args.photos)
    recognizer = Recognizer(args.models, turns=args.turns, rack_prior=not args.no_rack_prior,
                            read_numbers=not args.no_number_reader, check_ink=not args.no_ink_check,
                            fill_rows=not args.no_row_gaps, strengthen=not args.no_strengthen, reduce=not args.no_reduce,
                            far_shots=not args.no_far_shots, check_blur=not args.no_blur_check,
                            faint_bar=not args.no_faint_bar, second_look=not args.no_second_look,
                            read_closer=not args.no_closer_read)
    if args.table:
        recognizer = recognizer.on_table()
    photo = _fainter(args.faint_colours, args.darker) if args.faint_colours < 1 or args.darker < 1 else None
    if args.smaller != 1:
        photo = _smaller(args.smaller, photo)
    if args.larger != 1:
        photo = _larger(args.larger, photo)
    if args.shake:
        photo = _shaken(args.shake, photo)
    if args.farther:
        photo = taken_farther(args.farther, photo)
    if args.drop_boxes:
        _weaken(recognizer, args.drop_boxes)
    if args.jitter_boxes:
        _blur_boxes(recognizer, args.jitter_boxes)
    if args.flip_up_down:
        _mislead(recognizer, args.flip_up_down)
    if args.level_from is not None:
        _level(recognizer, args.level_from, args.level_tighter)
    def prepared(samples: list[Sample]) -> list[Sample]:
        if args.farther:
            samples = _moved(samples, args.farther)
        return _scaled(_halves(samples, args.halves) if args.halves is not None else samples, args.smaller * args.larger)

    thresholds = tuple(args.thresholds)
    if not args.synthetic:
        report(evaluate(recognizer, prepared(real_samples()), args.verbose, photo), thresholds)
        return
    tallies = []
    for folder in args.synthetic:
        print(f"\n## {folder.name}\n")
        tallies.append(evaluate(recognizer, prepared(synthetic_samples(folder)), args.verbose, photo))
        report(tallies[-1], thresholds)
    if len(tallies) > 1:
        print("\n## all together\n")
        report(sum(tallies[1:], tallies[0]), thresholds)


if __name__ == "__main__":
    from closed_pipe import end_quietly_on_a_closed_pipe

    end_quietly_on_a_closed_pipe()
    main()
