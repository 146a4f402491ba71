"""Evaluate the recogniser on the held-out real photos (never trained on) and print a markdown report.

    .venv/bin/python scripts/eval_vision.py [--models models] [--runs 1]

Figures: per-tile detection recall and precision (IoU ≥ 0.5), classification accuracy of the detected
tiles, share of photos read exactly right, confusions by colour and by number, median and worst time.
Needs no torch.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

import numpy as np  # noqa: E402

from real_photos import load_photos, split_photos  # noqa: E402
from vision import Recognizer  # noqa: E402
from vision.imageio import load_image  # noqa: E402
from vision.postprocess import box_iou, reading_order  # noqa: E402
from vision.recognizer import MODELS_DIR  # noqa: E402


def match(truth: list[tuple[str, tuple[float, ...]]], found: list[tuple[str, tuple[int, ...], float]],
          threshold: float = 0.5) -> list[tuple[int, int]]:
    """Greedy one-to-one matches (truth index, found index) by IoU, most confident detections first."""
    if not truth or not found:
        return []
    truth_boxes = np.array([box for _, box in truth], np.float32)
    taken: set[int] = set()
    pairs = []
    for f in sorted(range(len(found)), key=lambda i: -found[i][2]):
        ious = box_iou(np.array(found[f][1], np.float32), truth_boxes)
        for t in np.argsort(-ious):
            if ious[t] < threshold:
                break
            if int(t) not in taken:
                taken.add(int(t))
                pairs.append((int(t), f))
                break
    return pairs


def sorted_by_reading(tiles: tuple[tuple[str, tuple[float, ...]], ...], boxes: np.ndarray) -> list[tuple[str, tuple[float, ...]]]:
    """The labels in the order the recogniser reports tiles for the same boxes."""
    return [tiles[i] for i in reading_order(boxes)]


def _colour(tile: str) -> str:
    return tile if tile in ("F", "J") else tile[0]


def _number(tile: str) -> str:
    return tile if tile in ("F", "J") else tile[1:]


def main() -> None:
    parser = argparse.ArgumentParser(description="evaluate tile recognition on the held-out real photos")
    parser.add_argument("--models", type=Path, default=MODELS_DIR)
    parser.add_argument("--turns", type=int, default=4, help="quarter turns averaged by the classifier (1-4)")
    parser.add_argument("--verbose", action="store_true", help="list every mistake")
    args = parser.parse_args()
    _, held_out = split_photos(load_photos())
    recognizer = Recognizer(args.models, turns=args.turns)
    recognizer.recognize(held_out[0].path)  # warm-up: the first run pays for allocations
    truths = found_total = matched = correct = exact = 0
    colour_confusions: Counter[tuple[str, str]] = Counter()
    number_confusions: Counter[tuple[str, str]] = Counter()
    times = []
    on_truth_right = 0
    for photo in held_out:
        pixels = load_image(photo.path)
        truth_boxes = np.array([box for _, box in photo.tiles], np.float32)
        on_truth = recognizer.read_tiles(pixels, truth_boxes, np.ones(len(truth_boxes), np.float32))
        on_truth_right += sum(t.tile == want for t, (want, _) in zip(on_truth, sorted_by_reading(photo.tiles, truth_boxes)))
        result = recognizer.recognize(photo.path)
        times.append(result.elapsed_ms)
        found = [(t.tile, t.box, t.confidence) for t in result.tiles]
        pairs = match(list(photo.tiles), found)
        right = sum(photo.tiles[t][0] == found[f][0] for t, f in pairs)
        truths += len(photo.tiles)
        found_total += len(found)
        matched += len(pairs)
        correct += right
        exact += right == len(photo.tiles) == len(found)
        for t, f in pairs:
            want, got = photo.tiles[t][0], found[f][0]
            if _colour(want) != _colour(got):
                colour_confusions[(_colour(want), _colour(got))] += 1
            if _number(want) != _number(got):
                number_confusions[(_number(want), _number(got))] += 1
            if args.verbose and want != got:
                print(f"  {photo.path.name[:24]}: {want} read as {got} ({found[f][2]:.2f})")
        if args.verbose and (len(pairs) < len(photo.tiles) or len(found) > len(pairs)):
            print(f"  {photo.path.name[:24]}: {len(photo.tiles) - len(pairs)} missed, {len(found) - len(pairs)} extra")
    print(f"held-out photos: {len(held_out)}, tiles: {truths}")
    print(f"| detection recall (IoU ≥ 0.5) | {matched / truths:.1%} ({matched}/{truths}) |")
    print(f"| detection precision | {matched / max(found_total, 1):.1%} ({matched}/{found_total}) |")
    print(f"| classification accuracy of detected tiles | {correct / max(matched, 1):.1%} ({correct}/{matched}) |")
    print(f"| classifier alone on the labelled boxes | {on_truth_right / truths:.1%} ({on_truth_right}/{truths}) |")
    print(f"| end-to-end: tiles read right / all tiles | {correct / truths:.1%} |")
    print(f"| photos read exactly right | {exact / len(held_out):.1%} ({exact}/{len(held_out)}) |")
    print(f"| time per photo: median / worst | {statistics.median(times):.0f} ms / {max(times):.0f} ms |")
    print("colour confusions (truth→read):", ", ".join(f"{a}→{b}: {n}" for (a, b), n in colour_confusions.most_common()) or "none")
    print("number confusions (truth→read):", ", ".join(f"{a}→{b}: {n}" for (a, b), n in number_confusions.most_common()) or "none")


if __name__ == "__main__":
    main()
