"""Evaluate photos of melds laid on the table (an Okey 101 opening, a win spread out) and print a markdown report.

    .venv/bin/python scripts/render_racks.py --out scripts/cache/racks-table-table --count 75 --seed 9601 --style table
    .venv/bin/python scripts/eval_melds.py scripts/cache/racks-table-table

The labels give each tile's meld (``render_racks.py --style table`` writes a ``meld`` column).  Each photo is read
by the recogniser with the table's own detector, as the photo page reads a photo sent from a picker of melds
(``models/detector_table.onnx``; ``--rack-detector`` reads with the racks' detector, to compare), and its tiles are split into melds as the photo page does for a melds picker (the opening checker,
the Rummikub turn referee): chains of tiles touching along the rows, a new meld where a step is wider than usual
(``vision.melds.photo_melds``).  Figures, before any tap:

- tiles found and read right (the recogniser's own figure, as ``eval_vision.py`` gives it);
- melds split right: every tile of the meld found, and the tiles found put together as one meld with no other
  tile (a tap then mends only what was read wrong, never the melds);
- melds read exactly: split right, and every tile read right;
- photos split right and read exactly: every meld, and no extra box.

A found tile matches a labelled one where their boxes overlap (IoU ≥ 0.5, ``eval_vision.match``; a 3-D render's labels
also give the box of all of a tile that shows, which a box may match too).  Needs no torch.  The renders of melds on the
table: ``render_racks.py --style table`` and, built in 3-D, ``render_racks_3d.py --style table``.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from eval_vision import Sample, match, synthetic_samples  # noqa: E402
from vision import Recognizer  # noqa: E402
from vision.imageio import load_image  # noqa: E402
from vision.melds import photo_melds  # noqa: E402
from vision.pairs import photo_rows  # noqa: E402


def laid_photos(folder: Path) -> list[Sample]:
    """The labelled photos of ``folder`` (``labels.csv`` with a ``meld`` column), as ``eval_vision.synthetic_samples``
    reads them."""
    if not (folder / "labels.csv").is_file():
        sys.exit(f"{folder}: no labels.csv there; render melds on the table into it with render_racks.py --style table")
    with open(folder / "labels.csv", newline="") as handle:
        if "meld" not in (csv.DictReader(handle).fieldnames or ()):
            sys.exit(f"{folder}: its labels give no meld column; render it with render_racks.py --style table")
    return synthetic_samples(folder)


def split(boxes: list[tuple[float, ...]], codes: list[str]) -> list[int]:
    """Each box's meld, as ``vision.melds.photo_melds`` splits the photo."""
    return [meld for meld, _ in photo_melds(boxes, codes)]


def split_by_rows(boxes: list[tuple[float, ...]], codes: list[str]) -> list[int]:
    """Each box's meld as the photo page split a table's photo before ``vision.melds`` (``--before``): the rack's rows
    (``vision.pairs.photo_rows``), a new meld at each row's start and wherever two neighbours' boxes lie more than a
    third of the median box width apart."""
    places = photo_rows(boxes)
    width = sorted(box[2] - box[0] for box in boxes)[len(boxes) // 2] if boxes else 0.0
    melds, number, last = [0] * len(boxes), -1, None
    for index in sorted(range(len(boxes)), key=lambda i: (*places[i], boxes[i][0])):
        if last is None or places[index][0] != places[last][0] or boxes[index][0] - boxes[last][2] > width / 3:
            number += 1
        melds[index], last = number, index
    return melds


@dataclass
class Tally:
    photos: int = 0
    tiles: int = 0
    read_right: int = 0
    extra: int = 0
    melds: int = 0
    melds_split: int = 0
    melds_exact: int = 0
    photos_split: int = 0
    photos_exact: int = 0

    def add(self, laid: Sample, found: list[tuple[str, tuple[float, ...], float]], verbose: bool,
            splitter: Callable[[list[tuple[float, ...]], list[str]], list[int]] = split) -> None:
        truth = list(laid.tiles)
        pairs = match(truth, [(code, tuple(int(v) for v in box), confidence) for code, box, confidence in found],
                      wholes=laid.wholes)
        of_truth = {t: f for t, f in pairs}
        found_melds = splitter([box for _, box, _ in found], [code for code, _, _ in found])
        self.photos += 1
        self.tiles += len(truth)
        self.read_right += sum(found[f][0] == truth[t][0] for t, f in pairs)
        self.extra += len(found) - len(pairs)
        members: dict[int, list[int]] = defaultdict(list)
        for index, meld in enumerate(laid.melds or ()):
            members[meld].append(index)
        split_right = exact = 0
        for meld, indices in members.items():
            where = {found_melds[of_truth[t]] for t in indices if t in of_truth}
            whole = all(t in of_truth for t in indices) and len(where) == 1 \
                and sum(m == next(iter(where)) for m in found_melds) == len(indices)
            right = whole and all(found[of_truth[t]][0] == truth[t][0] for t in indices)
            split_right += whole
            exact += right
            if verbose and not right:
                said = " ".join(truth[t][0] for t in indices)
                got = " | ".join(" ".join(found[f][0] for f in sorted((f for f, m in enumerate(found_melds) if m == w),
                                                                    key=lambda f: found[f][1][0])) for w in sorted(where))
                print(f"  {laid.path.name}: {said} → {got or 'not found'}{'' if whole else ' (split wrong)'}")
        self.melds += len(members)
        self.melds_split += split_right
        self.melds_exact += exact
        self.photos_split += split_right == len(members) and len(found) == len(pairs)
        self.photos_exact += exact == len(members) and len(found) == len(pairs)


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} % ({part} / {whole})" if whole else "—"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", type=Path, nargs="+", help="folders rendered with render_racks.py --style table")
    parser.add_argument("--models", type=Path, default=None, help="the models' folder (default: the shipped ones)")
    parser.add_argument("--verbose", action="store_true", help="list every meld not read exactly")
    parser.add_argument("--before", action="store_true",
                        help="split the melds as the photo page did before vision.melds (rows, box gaps), to compare")
    parser.add_argument("--level-from", type=float, default=None, metavar="DEGREES",
                        help="experiment, not in the app: read as eval_vision.py --level-from does (tried, not kept)")
    parser.add_argument("--rack-detector", action="store_true",
                        help="find the tiles with the racks' detector, not the table's (models/detector_table.onnx), "
                             "to compare")
    args = parser.parse_args()
    recognizer = Recognizer(args.models) if args.models else Recognizer()
    if not args.rack_detector:
        recognizer = recognizer.on_table()  # as the photo page reads a photo sent from a picker of melds
    if args.level_from is not None:
        from eval_vision import _level

        _level(recognizer, args.level_from)
    tally = Tally()
    for folder in args.folders:
        for laid in laid_photos(folder):
            result = recognizer.recognize(load_image(laid.path.read_bytes()))
            tally.add(laid, [(t.tile, tuple(float(v) for v in t.box), t.confidence) for t in result.tiles], args.verbose,
                      split_by_rows if args.before else split)
    how = " (split as before: rows, box gaps)" if args.before else ""
    print(f"\n## melds laid on the table: {', '.join(f.name for f in args.folders)}{how}\n")
    print("| figure | value |\n|---|---|")
    print(f"| photos / tiles / melds | {tally.photos} / {tally.tiles} / {tally.melds} |")
    print(f"| tiles found and read right | {_share(tally.read_right, tally.tiles)} |")
    print(f"| extra boxes | {_share(tally.extra, tally.tiles)} |")
    print(f"| melds split right (every tile found, none added) | {_share(tally.melds_split, tally.melds)} |")
    print(f"| melds read exactly (split right, every tile read right) | {_share(tally.melds_exact, tally.melds)} |")
    print(f"| photos split right (every meld, no extra box) | {_share(tally.photos_split, tally.photos)} |")
    print(f"| photos read exactly | {_share(tally.photos_exact, tally.photos)} |")


if __name__ == "__main__":
    from closed_pipe import end_quietly_on_a_closed_pipe

    end_quietly_on_a_closed_pipe()
    main()
