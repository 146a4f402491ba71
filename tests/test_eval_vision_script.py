"""scripts/eval_vision.py: a stress test it cannot run is refused with a clear message before it loads anything;
halves split the labels; a label without a box counts as missed; scripts/bench_recognition.py refuses a far shot
it cannot take."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "eval_vision.py"


@pytest.mark.parametrize("option, value", [("--smaller", "0"), ("--faint-colours", "-1"), ("--darker", "0")])
def test_a_stress_share_of_zero_or_less_is_refused(option: str, value: str) -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), option, value], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert f"{option} {float(value)}: give a share above 0" in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("value", ["0.3", "1"])
def test_halves_that_leave_a_gap_or_are_the_whole_photo_are_refused(value: str) -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--halves", value], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert f"--halves {float(value)}: give a share of the width from 0.5" in run.stderr
    assert "Traceback" not in run.stderr


def test_halves_split_the_labels_with_the_photo(tmp_path: Path) -> None:
    """A 1,000 px wide photo in halves of 0.6: a tile wholly in the left 600 px is labelled there only, one across
    the middle in both (its box clipped and moved), one only 40 % inside a half is left out of that half."""
    import cv2
    import numpy as np

    sys.path.insert(0, str(SCRIPT.parent))
    from eval_vision import Sample, _halves

    cv2.imwrite(str(tmp_path / "wide.png"), np.zeros((100, 1000, 3), np.uint8))
    sample = Sample(tmp_path / "wide.png", (("R1", (10.0, 0.0, 60.0, 50.0)), ("B2", (450.0, 0.0, 550.0, 50.0)),
                                            ("K3", (560.0, 0.0, 660.0, 50.0))), (False, True, False))
    left, right = _halves([sample], 0.6)
    assert left.columns == (0, 600) and right.columns == (400, 1000)
    assert left.tiles == (("R1", (10.0, 0.0, 60.0, 50.0)), ("B2", (450.0, 0.0, 550.0, 50.0)))
    assert left.upside_down == (False, True)
    assert right.tiles == (("B2", (50.0, 0.0, 150.0, 50.0)), ("K3", (160.0, 0.0, 260.0, 50.0)))


def test_a_label_without_a_box_is_a_tile_the_reader_missed(tmp_path: Path) -> None:
    """A folder as ``okey-companion photos export`` writes it (no up/down column), where a reviewer added a tile by
    its code alone: it counts among the tiles, never as found."""
    import csv
    import shutil

    data = SCRIPT.parent.parent / "tests" / "data" / "vision"
    (tmp_path / "images").mkdir()
    shutil.copy(data / "rack_front.jpg", tmp_path / "images" / "rack_front.jpg")
    with open(data / "racks.csv", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["image"] == "rack_front.jpg"]
    with open(tmp_path / "labels.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["image", "tile", "x1", "y1", "x2", "y2", "read", "confidence", "checked"])
        for r in rows:
            writer.writerow([f"images/{r['image']}", r["tile"], r["x1"], r["y1"], r["x2"], r["y2"], r["tile"], 0.9, "accepted"])
        writer.writerow(["images/rack_front.jpg", "K5", "", "", "", "", "", "", "accepted"])
    run = subprocess.run([sys.executable, str(SCRIPT), "--labelled", str(tmp_path)], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    n = len(rows)
    assert f"photos: 1, tiles: {n + 1}" in run.stdout
    found = int(run.stdout.split("detection recall (IoU ≥ 0.5) | ")[1].split("(")[1].split("/")[0])
    assert found <= n and f"({found}/{n + 1})" in run.stdout
    assert "classifier alone on the labelled boxes | " in run.stdout and f"/{n}) |" in run.stdout
    assert "right tiles flagged, by what flags them: " in run.stdout


def test_a_label_without_a_box_stays_without_one_farther_off_and_halves_refuse_it(tmp_path: Path) -> None:
    import cv2
    import numpy as np

    sys.path.insert(0, str(SCRIPT.parent))
    from eval_vision import Sample, _halves, _moved

    cv2.imwrite(str(tmp_path / "rack.png"), np.zeros((100, 200, 3), np.uint8))
    sample = Sample(tmp_path / "rack.png", (("R1", (10.0, 0.0, 60.0, 50.0)), ("K5", ())), None)
    [moved] = _moved([sample], 0.5)
    assert moved.tiles == (("R1", (110.0, 50.0, 160.0, 100.0)), ("K5", ()))
    with pytest.raises(SystemExit, match=r"--halves: rack.png has a tile labelled without a box \(K5\)"):
        _halves([sample], 0.6)


@pytest.mark.parametrize("arguments", [["--farther", "2"], ["--phone", "--farther", "-1"]])
def test_the_benchmark_takes_a_far_shot_only_as_a_phone_sends_it(arguments: list[str]) -> None:
    bench = SCRIPT.parent / "bench_recognition.py"
    run = subprocess.run([sys.executable, str(bench), *arguments], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert "give a share of 0 or more, with --phone" in run.stderr
    assert "Traceback" not in run.stderr


def test_the_benchmark_times_the_first_classifier_alone() -> None:
    """``bench_recognition.py --no-second-look`` times the reader as ``serve --no-second-look`` runs it; where the
    multiply-adds are counted (the ``onnx`` package), they are the first classifier's alone."""
    bench = SCRIPT.parent / "bench_recognition.py"
    photo = SCRIPT.parent.parent / "tests" / "data" / "vision" / "rack3d_rotated_warm.jpg"
    counts = {}
    for look in ([], ["--no-second-look"]):
        run = subprocess.run([sys.executable, str(bench), "--photos", str(photo), "--runs", "1", "--threads", "1", *look],
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0 and re.search(r"\| rack3d_rotated_warm\.jpg \| 2\d \|", run.stdout), run.stdout + run.stderr
        counts[bool(look)] = re.findall(r"classifiers: ([\d.]+) M MACs a crop \((.*)\)", run.stdout)
    if counts[False]:
        (both, _), (alone, which) = counts[False][0], counts[True][0]
        assert which == "the first alone" and float(alone) * 2 == pytest.approx(float(both), rel=0.01)


def test_a_box_around_the_whole_tile_finds_it_where_the_labels_give_the_whole(tmp_path: Path) -> None:
    """A 3-D render labels a tile's face and all of it that shows (face, top and sides): a box around the whole
    tile, whose IoU with the face alone is 0.36, has found it; without the whole box it has not.  The whole boxes
    are read from labels.csv and moved with the photo."""
    import cv2
    import numpy as np

    sys.path.insert(0, str(SCRIPT.parent))
    from eval_vision import _moved, match, synthetic_samples

    face, whole = (10.0, 40.0, 50.0, 80.0), (5.0, 0.0, 60.0, 80.0)
    found = [("R1", (5, 0, 60, 80), 0.9)]
    assert match([("R1", face)], found) == []
    assert match([("R1", face)], found, wholes=(whole,)) == [(0, 0)]
    assert match([("R1", face), ("K2", ())], found, wholes=(whole, ())) == [(0, 0)]
    cv2.imwrite(str(tmp_path / "rack.png"), np.zeros((100, 200, 3), np.uint8))
    (tmp_path / "labels.csv").write_text(
        "image,tile,x1,y1,x2,y2,upside_down,style,whole_x1,whole_y1,whole_x2,whole_y2\n"
        "rack.png,R1,10,40,50,80,0,tilted,5,0,60,80\n")
    [sample] = synthetic_samples(tmp_path)
    assert sample.tiles == (("R1", face),) and sample.wholes == (whole,)
    [moved] = _moved([sample], 0.5)
    assert moved.wholes == ((105.0, 50.0, 160.0, 130.0),)


def test_the_3d_renderer_without_blender_says_what_it_needs(tmp_path: Path) -> None:
    """scripts/render_racks_3d.py needs Blender as a Python module, which the project does not install: run without
    it, it says how to get it, and writes nothing."""
    try:
        import bpy  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("Blender's bpy is installed here")
    script = SCRIPT.parent / "render_racks_3d.py"
    run = subprocess.run([sys.executable, str(script), "--out", str(tmp_path / "out"), "--style", "tilted"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert "needs Blender as a Python module" in run.stderr and "pip install bpy" in run.stderr
    assert "Traceback" not in run.stderr and not (tmp_path / "out").exists()


def test_the_classifier_alone_is_scored_against_the_box_it_read_not_the_labels_order() -> None:
    """``Recognizer.read_tiles`` gives the tiles along the rack's rows: on a rack photographed aslant that is not the
    labels' order, and the script once scored 218 of the real photos' 347 boxes right where the classifier read 347."""
    import numpy as np

    sys.path.insert(0, str(SCRIPT.parent))
    from eval_vision import right_on_boxes

    from vision.recognizer import DetectedTile

    boxes = np.array([[0, 0, 10, 20], [10, 2, 20, 22], [0, 30, 10, 50]], np.float32)
    read = [DetectedTile(code, box, 0.9, False, False, ()) for code, box in
            (("K3", (0, 30, 10, 50)), ("R1", (0, 0, 10, 20)), ("Y2", (10, 2, 20, 22)))]
    assert right_on_boxes(read, boxes, ["R1", "B2", "K3"]) == 2
    assert right_on_boxes(read[::-1], boxes, ["R1", "Y2", "K3"]) == 3


def test_a_flagged_tile_is_tallied_by_the_flags_it_carries() -> None:
    """The tally of what flags right tiles: the bar, a colour in doubt and the warnings, up/down never; "the looks"
    where the tile carries none of them (the second classifier or the number reader flagged it)."""
    sys.path.insert(0, str(SCRIPT.parent))
    from eval_vision import why_flagged

    from vision.recognizer import CUT_WARNING, LOW_CONFIDENCE, UPSIDE_DOWN_WARNING, DetectedTile

    def tile(confidence: float, warnings: tuple[str, ...] = (), other: str | None = None) -> DetectedTile:
        return DetectedTile("R7", (0, 0, 10, 14), confidence, True, UPSIDE_DOWN_WARNING in warnings, warnings, other)

    assert why_flagged(tile(0.95)) == "the looks"
    assert why_flagged(tile(0.95, (UPSIDE_DOWN_WARNING,))) == "the looks"
    assert why_flagged(tile(LOW_CONFIDENCE - 0.01)) == "the bar"
    assert why_flagged(tile(LOW_CONFIDENCE)) == "the looks"
    assert why_flagged(tile(0.5, (UPSIDE_DOWN_WARNING, CUT_WARNING), "Y")) == f"the bar + its colour + {CUT_WARNING}"


def test_level_from_reads_a_turned_photo_level_and_gives_its_boxes_back_on_the_photo() -> None:
    """``--level-from`` (an experiment, not in the app): a photo of melds whose rows lie 58° from level is read on a
    larger canvas turned by that angle, and each box comes back on the photo's own tiles; under the angle, the photo
    is read as it is."""
    import csv

    import numpy as np

    sys.path.insert(0, str(SCRIPT.parent))
    from eval_vision import _level, match

    from vision import Recognizer
    from vision.imageio import load_image

    data = SCRIPT.parent.parent / "tests" / "data" / "vision"
    with open(data / "table.csv", newline="") as handle:
        truth = [(r["tile"], tuple(float(r[k]) for k in ("x1", "y1", "x2", "y2")))
                 for r in csv.DictReader(handle) if r["image"] == "table_turned.jpg"]
    photo = load_image(data / "table_turned.jpg")
    for degrees, turned in ((70.0, False), (40.0, True)):
        recognizer = Recognizer()
        seen: list[tuple[int, ...]] = []
        find_tiles = recognizer.find_tiles

        def spying(pixels: np.ndarray, find_tiles=find_tiles, seen=seen) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
            seen.append(pixels.shape[:2])
            return find_tiles(pixels)

        recognizer.find_tiles = spying  # type: ignore[method-assign]
        _level(recognizer, degrees)
        result = recognizer.recognize(photo)
        assert any(shape != photo.shape[:2] for shape in seen) == turned
        assert (result.width, result.height) == (photo.shape[1], photo.shape[0])
        found = [(t.tile, t.box, t.confidence) for t in result.tiles]
        pairs = match(truth, found)
        assert len(pairs) == len(truth) == 21 and len(found) == 21
        assert sum(truth[t][0] == found[f][0] for t, f in pairs) >= 20
