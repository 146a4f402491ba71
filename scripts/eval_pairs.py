"""Evaluate a rack put together from two photos (a 101 rack too wide for one) and print a markdown report.

    .venv/bin/python scripts/eval_pairs.py scripts/cache/pairs-dev-*                     # rendered pairs
    .venv/bin/python scripts/eval_pairs.py --halves scripts/cache/racks-dev-{front,tilted}   # one photo cut in two

A folder with ``whole.csv`` holds pairs rendered by ``scripts/render_racks.py --pairs`` (the left and the
right part of a rack taken from the same seat, two photos apart); any other folder holds single rack photos
(``render_racks.py``), each read as its left and its right 60 % (``--halves``: the same pixels, cut).

Each pair is read by the recogniser, and the rack is put together as the photo page and
``okey-companion recognize --same-rack`` do (``vision.pairs.rack_from_photos``), then as the last stop did
(rows joined where their codes agree, ``vision.rack.merge_rows`` on reading-order rows).  Figures, before
any tap: tiles counted twice or read wrong (extra), tiles missing, racks with every tile right, racks right
and in rack order; on rendered pairs also the links (a tile of the second photo said to be a tile of the
first): right, wrong (a tile lost), missed (a tile counted twice).  Truth is every tile of the rack, seen
or not.  Needs no torch.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

import numpy as np  # noqa: E402

from eval_vision import synthetic_samples  # noqa: E402
from vision import Recognizer  # noqa: E402
from vision.imageio import load_image  # noqa: E402
from vision.pairs import Seen, rack_from_photos  # noqa: E402
from vision.rack import merge_rows  # noqa: E402

HALF = 0.6


@dataclass(frozen=True)
class Pair:
    """Two photos of one rack: their pixels, the rack's tiles in rack order (rows), and for pairs rendered
    as such each photo's whole tile boxes with their number on the rack (to tell links right or wrong)."""

    name: str
    photos: tuple[np.ndarray, np.ndarray]
    rack: tuple[tuple[str, ...], ...]
    ordered: bool = True
    wholes: tuple[list[tuple[tuple[float, ...], int]], list[tuple[tuple[float, ...], int]]] | None = None


def rendered_pairs(folder: Path) -> list[Pair]:
    """Pairs written by ``render_racks.py --pairs`` (``whole.csv``: every tile's whole box in each photo)."""
    wholes: dict[str, list[tuple[str, tuple[float, ...], int]]] = defaultdict(list)
    rows: dict[str, dict[int, tuple[int, str]]] = defaultdict(dict)
    with open(folder / "whole.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            box = tuple(float(row[k]) for k in ("x1", "y1", "x2", "y2"))
            wholes[row["image"]].append((row["tile"], box, int(row["rack_tile"])))
            rows[row["image"]][int(row["rack_tile"])] = (int(row["rack_row"]), row["tile"])
    pairs = []
    for name in sorted(wholes):
        if not name.endswith("_left.jpg"):
            continue
        right = name.replace("_left", "_right")
        # The rack's tiles are numbered row by row, left to right.
        tiers = rows[name]
        rack = tuple(tuple(code for _, (tier, code) in sorted(tiers.items()) if tier == number)
                     for number in sorted({tier for tier, _ in tiers.values()}))
        pairs.append(Pair(name.removesuffix("_left.jpg"), (load_image(folder / name), load_image(folder / right)), rack,
                          wholes=([(b, n) for _, b, n in wholes[name]], [(b, n) for _, b, n in wholes[right]])))
    return pairs


def cut_pairs(folder: Path) -> list[Pair]:
    """Each rack photo of ``folder`` as two: its left and its right ``HALF`` of the width."""
    pairs = []
    for sample in synthetic_samples(folder):
        pixels = load_image(sample.path)
        width = pixels.shape[1]
        rack = (tuple(tile for tile, _ in sample.tiles),)  # (rack order unknown here: "in order" is not scored)
        halves = (np.ascontiguousarray(pixels[:, : round(width * HALF)]), np.ascontiguousarray(pixels[:, round(width * (1 - HALF)) :]))
        pairs.append(Pair(sample.path.stem, halves, rack, ordered=False))
    return pairs


def _rack_tile(wholes: list[tuple[tuple[float, ...], int]], box: tuple[int, ...], size: tuple[int, int]) -> int | None:
    """Which rack tile a box found on a photo is: the whole tile box, cut to the frame, it overlaps most."""
    width, height = size
    best, number = 0.4, None
    for (x1, y1, x2, y2), rack_tile in wholes:
        cx1, cy1, cx2, cy2 = max(0.0, x1), max(0.0, y1), min(float(width), x2), min(float(height), y2)
        ix = max(0.0, min(cx2, box[2]) - max(cx1, box[0]))
        iy = max(0.0, min(cy2, box[3]) - max(cy1, box[1]))
        union = max(cx2 - cx1, 0) * max(cy2 - cy1, 0) + (box[2] - box[0]) * (box[3] - box[1]) - ix * iy
        if union > 0 and ix * iy / union > best:
            best, number = ix * iy / union, rack_tile
    return number


def evaluate(pairs: list[Pair], recognizer: Recognizer) -> dict[str, float]:
    figures: Counter[str] = Counter()
    times = []
    for pair in pairs:
        read = [recognizer.recognize(photo) for photo in pair.photos]
        seen = [[Seen(t.tile, t.box, t.warnings) for t in r.tiles] for r in read]
        sizes = [(r.width, r.height) for r in read]
        started = time.perf_counter()
        rack, (links,) = rack_from_photos(list(zip(seen, sizes)))
        times.append((time.perf_counter() - started) * 1000)
        new = [[t.code for t in row] for row in rack]
        old = merge_rows(*[reading_rows(tiles) for tiles in seen])
        truth = Counter(code for row in pair.rack for code in row)
        figures["racks"] += 1
        figures["ordered"] += pair.ordered
        figures["tiles"] += sum(truth.values())
        for name, rows in (("new", new), ("old", old)):
            merged = Counter(code for row in rows for code in row)
            extra, missing = sum((merged - truth).values()), sum((truth - merged).values())
            figures[f"{name} extra"] += extra
            figures[f"{name} missing"] += missing
            figures[f"{name} right"] += extra == missing == 0
            if pair.ordered:
                figures[f"{name} in order"] += rows == [list(row) for row in pair.rack]
        if pair.wholes is not None:
            numbers = [[_rack_tile(pair.wholes[k], t.box, sizes[k]) for t in seen[k]] for k in (0, 1)]
            for j, link in enumerate(links):
                same = [i for i, n in enumerate(numbers[0]) if n is not None and n == numbers[1][j]]
                if link is not None:
                    figures["links right" if same == [link] else "links wrong"] += 1
                elif same:
                    figures["links missed"] += 1
    figures["ms median"] = statistics.median(times) if times else 0.0
    figures["ms worst"] = max(times) if times else 0.0
    return dict(figures)


def reading_rows(tiles: list[Seen]) -> list[list[str]]:
    """The last stop's rows: reading order, a new row where a tile lies half a tile below the one before."""
    rows: list[list[str]] = []
    last = None
    for tile in tiles:
        x1, y1, x2, y2 = tile.box
        if last is None or (y1 + y2) / 2 - last > (y2 - y1) / 2:
            rows.append([])
        last = (y1 + y2) / 2
        rows[-1].append(tile.tile)
    return rows


def report(name: str, f: dict[str, float]) -> str:
    racks, tiles = int(f["racks"]), int(f["tiles"])
    lines = [f"\n## {name}\n", f"racks: {racks}, tiles: {tiles}",
             "| figure | tiles matched in order (last stop) | tiles laid over (now) |", "|---|---|---|"]
    for key, label in (("extra", "tiles counted twice or read wrong"), ("missing", "tiles missing")):
        lines.append(f"| {label} | {int(f['old ' + key])} ({f['old ' + key] / tiles:.1%}) | "
                     f"{int(f['new ' + key])} ({f['new ' + key] / tiles:.1%}) |")
    for key, label in (("right", "racks with every tile right"), ("in order", "racks right and in rack order (rows)")):
        if key == "in order" and not f.get("ordered"):
            continue
        lines.append(f"| {label} | {int(f['old ' + key])}/{racks} | {int(f['new ' + key])}/{racks} |")
    if "links right" in f or "links wrong" in f or "links missed" in f:
        right, wrong, missed = (int(f.get(f"links {k}", 0)) for k in ("right", "wrong", "missed"))
        lines.append(f"\nlinks (a tile of the second photo said to be one of the first): right {right}, "
                     f"wrong {wrong} (a tile lost), missed {missed} (a tile counted twice)")
    lines.append(f"time to lay the photos over each other and put the rack together: median {f['ms median']:.0f} ms, "
                 f"worst {f['ms worst']:.0f} ms")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description="evaluate racks put together from two photos")
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--halves", action="store_true",
                        help="folders of single rack photos, each read as its left and right 60 %% (without: "
                             "a folder with whole.csv holds rendered pairs, any other is cut in halves)")
    args = parser.parse_args()
    recognizer = Recognizer()
    everything: Counter[str] = Counter()
    worst = 0.0
    for folder in args.folders:
        pairs = rendered_pairs(folder) if (folder / "whole.csv").exists() and not args.halves else cut_pairs(folder)
        figures = evaluate(pairs, recognizer)
        print(report(folder.name, figures))
        worst = max(worst, figures.pop("ms worst"))
        figures.pop("ms median")
        everything.update(figures)
    if len(args.folders) > 1:
        print(report("all together", {**everything, "ms median": float("nan"), "ms worst": worst}).replace(
            "median nan ms, ", ""))


if __name__ == "__main__":
    from closed_pipe import end_quietly_on_a_closed_pipe

    end_quietly_on_a_closed_pipe()
    main()
