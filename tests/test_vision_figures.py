"""scripts/vision_figures.py, the list of every dev set behind the recognition figures, and the model card that quotes
them: no dev set shares a seed with a training pool, a folder part rendered is carried on from its last whole photo,
and reading sets one by one adds up to reading them together."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "vision_figures.py"
sys.path.insert(0, str(ROOT / "scripts"))

# The seeds the shipped models learnt from (models/README.md, "Training data and credit" and "Reproduce").
TRAINING_SEEDS = {1, 2, 9821, 9831, 9841, 9851}


def test_every_dev_set_has_its_own_seed_and_folders_none_a_training_seed() -> None:
    from vision_figures import SETS

    # A seed draws other photos in another renderer or as melds on the table (render_racks.py --style table).
    seeds = [(dev.seed, dev.three_d, "table" in dev.styles) for dev in SETS]
    assert len(set(seeds)) == len(seeds)
    assert not {dev.seed for dev in SETS} & TRAINING_SEEDS
    folders = [dev.folder(style) for dev in SETS for style in dev.styles]
    assert len(set(folders)) == len(folders)
    assert sum(dev.group == "3-D, the ten sets" for dev in SETS) == 10


def test_a_sets_command_renders_its_seed_style_and_flags_from_where_it_stopped() -> None:
    from vision_figures import SETS

    unseen = next(dev for dev in SETS if dev.key == "3d-unseen")
    command = unseen.command("rotated", "bpy-python", start=7)
    assert command[0] == "bpy-python" and command[1].endswith("render_racks_3d.py")
    assert command[command.index("--seed") + 1] == "9871" and command[command.index("--style") + 1] == "rotated"
    assert command[command.index("--start") + 1] == "7" and command[command.index("--count") + 1] == "13"
    assert "--unseen-fonts" in command and "--set-inks" in command
    dev = next(dev for dev in SETS if dev.key == "dev")
    assert dev.command("front", "python")[1].endswith("render_racks.py") and "--start" not in dev.command("front", "python")


def _photos(folder: Path, names: list[str], labelled: list[str]) -> None:
    folder.mkdir(parents=True)
    for name in names:
        (folder / name).write_bytes(b"jpeg")
    with open(folder / "labels.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["image", "tile", "x1", "y1", "x2", "y2"])
        for name in labelled:
            writer.writerow([name, "R1", 0, 0, 10, 10])


def test_a_folder_part_rendered_is_carried_on_from_its_last_photo(tmp_path: Path) -> None:
    from vision_figures import _resume_at, rendered

    assert rendered(tmp_path / "none") == 0
    folder = tmp_path / "racks"
    # rack_0001 has no tile in the frame (no label row); rack_0003 was written but its labels were not.
    _photos(folder, ["rack_0000.jpg", "rack_0001.jpg", "rack_0002.jpg", "rack_0003.jpg"],
            ["rack_0000.jpg", "rack_0002.jpg", "rack_0002.jpg"])
    assert rendered(folder) == 4
    assert _resume_at(folder) == 3
    with open(folder / "labels.csv", newline="") as handle:
        assert [row["image"] for row in csv.DictReader(handle)] == ["rack_0000.jpg", "rack_0002.jpg", "rack_0002.jpg"]
    # Where it stopped inside rack_0002's rows, those are taken out and rack_0002 is rendered again.
    (folder / "rack_0003.jpg").unlink()
    assert rendered(folder) == 3 and _resume_at(folder) == 2
    with open(folder / "labels.csv", newline="") as handle:
        assert [row["image"] for row in csv.DictReader(handle)] == ["rack_0000.jpg"]
    (folder / "labels.csv").unlink()
    assert rendered(folder) == 0


def test_an_unknown_set_is_refused_with_the_known_ones() -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "measure", "3d-1234"], capture_output=True, text=True, timeout=120)
    assert run.returncode != 0 and "no dev set 3d-1234: choose among real, dev, check" in run.stderr
    assert "Traceback" not in run.stderr


def test_list_names_every_set_and_what_is_missing(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "list"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 26 and lines[0].startswith("dev ") and "seed 9101" in lines[0]
    assert any(line.startswith("table ") and "seed 9601" in line and "racks-table-table)" in line for line in lines)
    assert any(line.startswith("table-askew ") and "seed 9603" in line for line in lines)
    assert any(line.startswith("3d-table-askew ") and "seed 9612" in line for line in lines)
    assert all(" ready " in line or " missing " in line for line in lines)


def test_sets_read_one_by_one_add_up_to_reading_them_together() -> None:
    """``measure`` sums each folder's tally instead of reading the photos again: the sum is what one reading of all of
    them counts (the two rendered racks of tests/data/vision, read as two sets and as one)."""
    from eval_vision import Sample, Tally, evaluate

    from vision import Recognizer

    data = ROOT / "tests" / "data" / "vision"
    samples = []
    with open(data / "racks.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for name in ("rack_front.jpg", "rack_rotated.jpg"):
        tiles = tuple((row["tile"], tuple(float(row[k]) for k in ("x1", "y1", "x2", "y2")))
                      for row in rows if row["image"] == name)
        samples.append(Sample(data / name, tiles, None))
    assert len(samples) == 2
    recognizer = Recognizer()
    one, two = (evaluate(recognizer, [sample], verbose=False) for sample in samples)
    both = evaluate(recognizer, samples, verbose=False)
    summed = sum((one, two), Tally())
    for name in ("photos", "truths", "found_total", "matched", "correct", "exact", "sure", "sure_wrong",
                 "flagged_right", "colour_table", "number_table", "per_colour", "flagged_why"):
        assert getattr(summed, name) == getattr(both, name), name
    assert len(summed.read) == len(both.read) and len(summed.times) == 2


def test_real_photos_named_but_not_there_is_a_clear_exit(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "OKEY_TILE_PHOTOS"}
    run = subprocess.run([sys.executable, str(SCRIPT), "measure", "real", "--photos", str(tmp_path)],
                         capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode != 0 and "has no images/ folder" in run.stderr and "--photos DIR" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_renderer_that_stops_ends_the_render_plainly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A renderer that exits with an error (fonts missing, Blender absent) stops ``render`` with a line saying which
    folder and that it carries on; no traceback, no later folder started."""
    import vision_figures

    ran: list[list[str]] = []
    monkeypatch.setattr(vision_figures, "CACHE", tmp_path)
    monkeypatch.setattr(vision_figures.subprocess, "run",
                        lambda command: ran.append(command) or subprocess.CompletedProcess(command, 2))
    dev = next(dev for dev in vision_figures.SETS if dev.key == "dev")
    with pytest.raises(SystemExit) as stopped:
        vision_figures.render([dev], blender=None)
    assert "racks-dev-front: the renderer stopped" in str(stopped.value) and "carries on" in str(stopped.value)
    assert len(ran) == 1 and ran[0][ran[0].index("--style") + 1] == "front"
    assert capsys.readouterr().out.startswith("$ ")
