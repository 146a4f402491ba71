"""Every dev set behind the recognition figures of README.md and models/README.md: list them, render those missing, and
read them all with the models on main, each photo once.

    .venv/bin/python scripts/vision_figures.py list                        # the sets, their folders, what is missing
    .venv/bin/python scripts/vision_figures.py render                      # render the 2.5-D sets (a few minutes)
    .venv/bin/python scripts/vision_figures.py render --blender ../bpyenv/bin/python   # and the 3-D sets (hours)
    .venv/bin/python scripts/vision_figures.py measure --report figures.md # the README's rows; every table in figures.md

A set is one seed of a renderer in the three view styles (front, tilted, rotated), or melds laid on the table
(``table``), a folder a style under ``scripts/cache/`` (``racks-dev-tilted``, ``racks3d-9801-front``,
``racks-table-table`` …), rendered with the seeds and flags listed here and
never trained on.  The 3-D sets need Blender as a Python module (``pip install bpy`` in an environment of its own,
Python 3.11: ``--blender`` names its interpreter); a folder part rendered is carried on where it stopped.  The held-out
real photos are read too where ``OKEY_TILE_PHOTOS`` (or ``--photos``) names them.

``measure`` prints one markdown row a set as README.md's table has them (tiles, found and read right, extra boxes,
sure tiles wrong, right tiles flagged, photos read exactly), then the 3-D sets by view style; ``--report FILE`` writes
every set's figures as ``eval_vision.py`` gives them (per style, per colour, the confusion tables).  Sets whose folders
are missing are left out and named.  Melds laid on the table are read with the table's own detector
(``models/detector_table.onnx``), as the photo page reads a photo sent from a picker of melds; racks and the held-out
real photos with the racks' detector.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from eval_vision import Sample, Tally, evaluate, real_samples, synthetic_samples  # noqa: E402
from eval_vision import report as figures  # noqa: E402
from real_photos import add_photos_argument, photos_dir, use_photos  # noqa: E402
from vision import Recognizer  # noqa: E402

SCRIPTS = Path(__file__).resolve().parent
CACHE = SCRIPTS / "cache"
STYLES = ("front", "tilted", "rotated")


@dataclass(frozen=True)
class DevSet:
    """One seed of a renderer, read in each view style: ``count`` photos a style, rendered with ``flags``."""

    key: str
    title: str
    seed: int
    count: int
    flags: tuple[str, ...] = ()
    three_d: bool = False
    group: str = ""
    """Sets of one group are also summed: the ten 3-D sets, the three printed with one ink a colour."""
    styles: tuple[str, ...] = STYLES
    """The view styles rendered: a rack's three, or ``table`` (melds laid on the table, ``scripts/eval_melds.py``)."""

    def folder(self, style: str) -> Path:
        return CACHE / (f"racks3d-{self.seed}-{style}" if self.three_d else f"racks-{self.key}-{style}")

    def ready(self) -> bool:
        """Whether every style's folder holds the set's photos."""
        return all(rendered(self.folder(style)) >= self.count for style in self.styles)

    def command(self, style: str, python: str, start: int = 0) -> list[str]:
        script = "render_racks_3d.py" if self.three_d else "render_racks.py"
        part = ["--start", str(start)] if start else []
        return [python, str(SCRIPTS / script), "--out", str(self.folder(style)), "--count", str(self.count - start),
                "--seed", str(self.seed), "--style", style, *part, *self.flags]


TEN = "3-D, the ten sets"
ONE_INK = "3-D, one ink a colour, the three sets"
SETS = (
    DevSet("dev", "2.5-D dev", 9101, 25),
    DevSet("check", "2.5-D check", 9301, 25),
    DevSet("fresh", "2.5-D fresh", 9601, 25),
    DevSet("unseen", "2.5-D fonts never trained on", 9501, 25, ("--unseen-fonts",)),
    DevSet("heavy", "2.5-D heavy numerals never trained on", 9401, 25, ("--heavy-fonts",)),
    DevSet("table", "2.5-D melds laid on the table (vision.melds tuned on it)", 9601, 75, styles=("table",)),
    DevSet("table-check", "2.5-D melds laid on the table, check", 9602, 75, styles=("table",)),
    DevSet("table-askew", "2.5-D melds laid on the table, each line at its own turn", 9603, 75, ("--askew",),
           styles=("table",)),
    DevSet("3d-9801", "3-D 9801", 9801, 25, three_d=True, group=TEN),
    DevSet("3d-9901", "3-D 9901", 9901, 15, three_d=True, group=TEN),
    *(DevSet(f"3d-{seed}", f"3-D {seed}", seed, 10, three_d=True, group=TEN)
      for seed in (9961, 9971, 9981, 9991, 9995, 9997, 9993, 9994)),
    *(DevSet(f"3d-{seed}", f"3-D {seed}, one ink a colour", seed, 10, ("--set-inks",), three_d=True, group=ONE_INK)
      for seed in (9701, 9703, 9702)),
    DevSet("3d-unseen", "3-D, one ink a colour, numerals in fonts never trained on", 9871, 20,
           ("--samples", "16", "--set-inks", "--unseen-fonts"), three_d=True),
    DevSet("3d-light", "3-D, one ink a colour, lights and a phone's processing never trained on", 9881, 20,
           ("--samples", "16", "--set-inks", "--unseen-light"), three_d=True),
    DevSet("3d-heavy", "3-D, one ink a colour, heavy numerals never trained on", 9402, 10,
           ("--set-inks", "--heavy-fonts"), three_d=True),
    DevSet("3d-table", "3-D, melds laid on the table", 9611, 40, ("--samples", "16"), three_d=True, styles=("table",)),
    DevSet("3d-table-askew", "3-D, melds laid on the table, each line at its own turn", 9612, 40,
           ("--samples", "16", "--askew"), three_d=True, styles=("table",)),
)


def rendered(folder: Path) -> int:
    """How many photos of a folder are rendered, counted from the first: on disk, with labels.csv beside them (a photo
    with no tile in the frame has no label row)."""
    if not (folder / "labels.csv").is_file():
        return 0
    done = 0
    while (folder / f"rack_{done:04d}.jpg").is_file():
        done += 1
    return done


def _resume_at(folder: Path) -> int:
    """Where to carry a part-rendered folder on: its last photo again (a render stopped between writing a photo and
    its labels leaves them apart), with the labels of that photo and any after it taken out."""
    start = max(rendered(folder) - 1, 0)
    if start:
        with open(folder / "labels.csv", newline="") as handle:
            rows = list(csv.reader(handle))
        kept = [rows[0]] + [row for row in rows[1:] if int(row[0][5:9]) < start]
        with open(folder / "labels.csv", "w", newline="") as handle:
            csv.writer(handle).writerows(kept)
    return start


def chosen(keys: list[str]) -> list[DevSet]:
    """The sets named (``real``, the held-out photos, is not a rendered set: ``measure`` reads it where named)."""
    known = {s.key: s for s in SETS}
    unknown = [k for k in keys if k not in known and k != "real"]
    if unknown:
        sys.exit(f"no dev set {', '.join(unknown)}: choose among real, {', '.join(known)}")
    return [known[k] for k in keys if k != "real"] if keys else list(SETS)


def list_sets(sets: list[DevSet]) -> None:
    for dev in sets:
        state = "ready" if dev.ready() else "missing " + ", ".join(
            f"{style} {dev.count - done}" for style in dev.styles if (done := rendered(dev.folder(style))) < dev.count)
        print(f"{dev.key:11} seed {dev.seed}  {dev.count} a style  {'3-D ' if dev.three_d else '2.5-D'}  {state}  "
              f"({dev.title}; {dev.folder(dev.styles[1 if len(dev.styles) > 1 else 0]).name}"
              f"{' …' if len(dev.styles) > 1 else ''})")


def render(sets: list[DevSet], blender: str | None) -> None:
    for dev in sets:
        if dev.three_d and blender is None:
            print(f"{dev.key}: a 3-D set, left out (give --blender PYTHON, an interpreter with bpy)")
            continue
        for style in dev.styles:
            if rendered(dev.folder(style)) >= dev.count:
                continue
            start = _resume_at(dev.folder(style))
            command = dev.command(style, blender if dev.three_d else sys.executable, start)
            print("$", " ".join(command), flush=True)
            if subprocess.run(command).returncode:
                sys.exit(f"{dev.folder(style).name}: the renderer stopped (its message is above); run 'render' again "
                         "once it is mended, and the folder carries on where it stopped")


HEADER = ("| set | tiles | found and read right | extra boxes | sure tiles wrong | right tiles flagged | photos read exactly |"
          "\n|---|---:|---:|---:|---:|---:|---:|")


def _row(title: str, tally: Tally) -> str:
    return (f"| {title} | {tally.truths:,} | {tally.correct / tally.truths:.1%} | {tally.extra / tally.truths:.1%} | "
            f"{tally.sure_wrong / max(tally.sure, 1):.1%} ({tally.sure_wrong} / {tally.sure:,}) | {tally.flagged_right} | "
            f"{tally.exact} / {tally.photos} |").replace("%", " %")


def _by_style(per_style: dict[str, Tally]) -> None:
    print(HEADER.replace("| set |", "| style |"))
    for style, part in per_style.items():
        print(_row(style, part))
    print()


def _section(report: io.StringIO, heading: str, tally: Tally, per_style: dict[str, Tally] | None = None) -> None:
    """A set's section of the ``--report`` file: its heading, its styles' rows where given, then every table."""
    with contextlib.redirect_stdout(report):
        print(f"\n## {heading}\n")
        if per_style:
            _by_style(per_style)
        figures(tally)


def _photos(dev: DevSet, style: str) -> list[Sample]:
    """The set's labelled photos of one style (a folder rendered further holds more: they are left out)."""
    return [sample for sample in synthetic_samples(dev.folder(style)) if int(sample.path.stem[5:]) < dev.count]


def measure(sets: list[DevSet], report: Path | None, real: bool) -> None:
    recognizer = Recognizer()
    print(HEADER)
    details = io.StringIO()
    groups: dict[str, Tally] = {}
    ten_by_style: dict[str, Tally] = {}
    measured = []
    if real:
        tally = evaluate(recognizer, real_samples(), verbose=False)
        print(_row("real Rummikub photos (held out)", tally), flush=True)
        _section(details, "real Rummikub photos (held out)", tally)
    for dev in sets:
        if not dev.ready():
            continue
        # Melds laid on the table are read as the photo page reads a photo sent from a picker of melds.
        per_style = {style: evaluate(recognizer.on_table() if style == "table" else recognizer, _photos(dev, style),
                                     verbose=False) for style in dev.styles}
        tally = sum(per_style.values(), Tally())
        measured.append(dev.key)
        print(_row(dev.title, tally), flush=True)
        if dev.group:
            groups[dev.group] = groups.get(dev.group, Tally()) + tally
        if dev.group == TEN:
            ten_by_style = {style: ten_by_style.get(style, Tally()) + part for style, part in per_style.items()}
        _section(details, f"{dev.title} (seed {dev.seed}, {' '.join(dev.flags) or 'no flags'})", tally,
                 per_style if len(per_style) > 1 else None)
    for group, tally in groups.items():
        members = [dev.key for dev in SETS if dev.group == group]
        done = [key for key in members if key in measured]
        title = group if len(done) == len(members) else f"{group} ({len(done)} of {len(members)} measured)"
        print(_row(title, tally))
        if group == TEN:
            for style, part in ten_by_style.items():
                print(_row(f"{title}, {style}", part))
        _section(details, title, tally, ten_by_style if group == TEN else None)
    missing = [dev.key for dev in sets if dev.key not in measured]
    if missing:
        print(f"\nleft out, not rendered: {', '.join(missing)} ('vision_figures.py render' renders them)")
    if report is not None:
        report.write_text(details.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=("list", "render", "measure"))
    parser.add_argument("sets", nargs="*", help="dev sets by key (default: all; 'list' names them), and 'real' for the "
                                                "held-out real photos")
    parser.add_argument("--blender", help="a Python interpreter with bpy, to render the 3-D sets")
    parser.add_argument("--report", type=Path, help="measure: write every set's full figures here (markdown)")
    parser.add_argument("--no-real", action="store_true", help="measure: leave out the held-out real photos")
    add_photos_argument(parser)
    args = parser.parse_args()
    sets = chosen(args.sets)
    if args.action == "list":
        list_sets(sets)
    elif args.action == "render":
        render(sets, args.blender)
    else:
        use_photos(args.photos)
        real = not args.no_real and (not args.sets or "real" in args.sets)
        if real and photos_dir(required=bool(args.sets)) is None:  # named: a clear exit where they are not there
            print("the held-out real photos are left out: OKEY_TILE_PHOTOS (or --photos) does not name them")
            real = False
        measure(sets, args.report, real)


if __name__ == "__main__":
    from closed_pipe import end_quietly_on_a_closed_pipe

    end_quietly_on_a_closed_pipe()
    main()
